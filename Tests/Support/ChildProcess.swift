import Foundation
import Synchronization

/// A program that runs beside a test — a server it talks to — with the first line it printed
/// on standard output, which is how such a program says where it listens.
///
/// ```swift
/// let pages = try await ChildProcess.launch(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "server.py"])
/// defer { pages.stop() }
/// let port = Int(pages.firstLine)
/// ```
public final class ChildProcess: Sendable {
    public let process: Process
    /// The first line on its standard output, without the line break; what it printed before
    /// it exited (or was stopped) when no whole line came.
    public let firstLine: String
    private let exited: DispatchSemaphore

    private init(process: Process, firstLine: String, exited: DispatchSemaphore) {
        self.process = process
        self.firstLine = firstLine
        self.exited = exited
    }

    /// Starts a program and reads its first line. The blocking reads happen on a thread of
    /// their own, never on the few threads every async test shares (see `offloaded`).
    ///
    /// - Parameters:
    ///   - executable: the program.
    ///   - arguments: its arguments.
    ///   - directory: its working directory; the test's own when nil.
    ///   - environment: its whole environment; the test's own when nil.
    ///   - standardError: where its standard error goes; nowhere by default.
    ///   - timeout: seconds it has to print the line; then it is terminated, which ends the read.
    /// - Throws: when the program cannot be started.
    public static func launch(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        standardError: FileHandle = .nullDevice, timeout: Int = 60
    ) async throws -> ChildProcess {
        try await offloaded {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = directory }
            if let environment { process.environment = environment }
            let stdout = Pipe()
            process.standardOutput = stdout
            process.standardError = standardError
            process.standardInput = FileHandle.nullDevice
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            let read = Mutex(false)
            try process.run()
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeout)) {
                if !read.withLock({ $0 }) { process.terminate() }
            }
            // Byte by byte, so that nothing after the line is taken from the child's later output.
            var line: [UInt8] = []
            while line.last != UInt8(ascii: "\n") {
                let byte = stdout.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { break }
                line += byte
            }
            read.withLock { $0 = true }
            return ChildProcess(
                process: process,
                firstLine: String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                exited: exited)
        }
    }

    /// Sends a signal.
    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Sends SIGTERM; Foundation reaps the child when it exits.
    public func stop() {
        process.terminate()
    }

    /// Waits, off the cooperative pool, for the child to exit and returns its status.
    ///
    /// - Throws: `ProcessTimeout` (after terminating it) when it runs `timeout` seconds more.
    public func waitForExit(timeout: Int = 30) async throws -> Int32 {
        try await offloaded { [self] in
            guard exited.wait(timeout: .now() + .seconds(timeout)) == .success else {
                process.terminate()
                throw ProcessTimeout(
                    command: ([process.executableURL?.lastPathComponent ?? "?"] + (process.arguments ?? [])).joined(
                        separator: " "), seconds: timeout)
            }
            return process.terminationStatus
        }
    }
}
