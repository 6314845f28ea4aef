public import Foundation
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
    public let process: Spawned
    /// The first line on its standard output, without the line break; what it printed before
    /// it exited (or was stopped) when no whole line came.
    public let firstLine: String

    private init(process: Spawned, firstLine: String) {
        self.process = process
        self.firstLine = firstLine
    }

    /// Starts a program and reads its first line. The blocking reads happen on a thread of
    /// their own, never on the few threads every async test shares (see `offloaded`).
    ///
    /// - Parameters:
    ///   - executable: the program.
    ///   - arguments: its arguments.
    ///   - directory: its working directory; the test's own when nil.
    ///   - environment: its whole environment; the test's own when nil.
    ///   - standardError: a descriptor its standard error goes to (the caller's to close);
    ///     nowhere by default.
    ///   - timeout: seconds it has to print the line; then it is killed, which ends the read.
    /// - Throws: when the program cannot be started.
    public static func launch(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        standardError: Int32? = nil, timeout: Int = 60
    ) async throws -> ChildProcess {
        try await offloaded {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw SpawnFailure(command: executable.lastPathComponent, errno: errno) }
            // Kept from every other child; the spawned one gets its end as its standard output.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            defer { close(ends[0]) }
            let process: Spawned
            do {
                defer { close(ends[1]) }
                process = try Spawned(
                    executable, arguments, in: directory, environment: environment, standardOutput: ends[1],
                    standardError: standardError)
            }
            let read = Mutex(false)
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeout)) {
                if !read.withLock({ $0 }) { process.signal(SIGKILL) }
            }
            // Byte by byte, so that nothing after the line is taken from the child's later output.
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while line.last != UInt8(ascii: "\n") {
                let count = Foundation.read(ends[0], &byte, 1)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                line.append(byte)
            }
            read.withLock { $0 = true }
            return ChildProcess(
                process: process,
                firstLine: String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Sends a signal.
    public func signal(_ number: Int32) {
        process.signal(number)
    }

    /// Sends SIGTERM.
    public func stop() {
        process.terminate()
    }

    /// Waits, off the cooperative pool, for the child to exit and returns its status.
    ///
    /// - Throws: `ProcessTimeout` (after killing it) when it runs `timeout` seconds more.
    public func waitForExit(timeout: Int = 30) async throws -> Int32 {
        try await offloaded { [process] in
            guard let status = process.wait(timeout: timeout) else {
                process.signal(SIGKILL)
                throw ProcessTimeout(command: process.command, seconds: timeout)
            }
            return status
        }
    }
}
