import Foundation
import Synchronization
import Testing
import TracksnapTestSupport

/// Runs a program to its end (at most `timeout` seconds) off the cooperative pool.
///
/// ```swift
/// let result = try await run("/usr/bin/curl", ["-s", url])
/// ```
func run(_ executable: String, _ arguments: [String], timeout: Int = 60) async throws -> ProcessResult {
    try await offloaded { try runProcess(URL(fileURLWithPath: executable), arguments, timeout: timeout) }
}

/// `curl`, which the forward proxy and tunnel tests drive as users do.
func curl(_ arguments: String...) async throws -> ProcessResult {
    try await run("/usr/bin/env", ["curl", "--silent", "--show-error", "--max-time", "30"] + arguments)
}

/// `tracksnap serve` running as a child process.
///
/// ```swift
/// let server = try await ServeProcess.launch(["--journal", path])
/// server.terminate()
/// let status = try await server.waitForExit()
/// ```
final class ServeProcess: Sendable {
    let process: Process
    let port: Int
    let stderrURL: URL
    private let exited: DispatchSemaphore

    private init(process: Process, port: Int, stderrURL: URL, exited: DispatchSemaphore) {
        self.process = process
        self.port = port
        self.stderrURL = stderrURL
        self.exited = exited
    }

    /// Starts `tracksnap serve` and reads its first line, `listening on http://HOST:PORT`.
    static func launch(_ arguments: [String]) async throws -> ServeProcess {
        let executable = try PackagePaths.executable.get()
        return try await offloaded {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["serve"] + arguments
            let stdout = Pipe()
            let stderrURL = FileManager.default.temporaryDirectory.appending(
                path: "tracksnap-serve-\(UUID().uuidString).err")
            try Data().write(to: stderrURL)
            process.standardOutput = stdout
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            process.standardInput = FileHandle.nullDevice
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            let ready = Flag()
            try process.run()
            // A child that neither prints nor exits is stopped, which ends the read below.
            DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
                if !ready.isSet { process.terminate() }
            }
            // The read blocks until the line arrives or the child exits (end of file).
            var line: [UInt8] = []
            while line.last != UInt8(ascii: "\n") {
                let byte = stdout.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { break }
                line += byte
            }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("listening on http://"),
                let port = text.split(separator: ":").last.flatMap({
                    Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
                })
            else {
                process.terminate()
                let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
                throw RawHTTP.Failure(
                    description: "tracksnap serve printed \(text.debugDescription) first; stderr: \(stderr)")
            }
            ready.set()
            return ServeProcess(process: process, port: port, stderrURL: stderrURL, exited: exited)
        }
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the child to exit (at most 30 seconds) and returns its status.
    func waitForExit() async throws -> Int32 {
        let process = self.process
        let exited = self.exited
        return try await offloaded {
            guard exited.wait(timeout: .now() + 30) == .success else {
                process.terminate()
                throw RawHTTP.Failure(description: "tracksnap serve did not exit within 30 seconds")
            }
            return process.terminationStatus
        }
    }
}

/// A flag set once, read from another thread.
final class Flag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() {
        value.withLock { $0 = true }
    }
}
