import Foundation
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
/// server.signal(SIGTERM)
/// let status = try await server.waitForExit()
/// ```
final class ServeProcess: Sendable {
    let child: ChildProcess
    let port: Int
    let stderrURL: URL

    var process: Process { child.process }

    private init(child: ChildProcess, port: Int, stderrURL: URL) {
        self.child = child
        self.port = port
        self.stderrURL = stderrURL
    }

    /// Starts `tracksnap serve` and reads its first line, `listening on http://HOST:PORT`.
    static func launch(_ arguments: [String]) async throws -> ServeProcess {
        let stderrURL = FileManager.default.temporaryDirectory.appending(
            path: "tracksnap-serve-\(UUID().uuidString).err")
        try Data().write(to: stderrURL)
        let child = try await ChildProcess.launch(
            try PackagePaths.executable.get(), ["serve"] + arguments,
            standardError: try FileHandle(forWritingTo: stderrURL))
        let text = child.firstLine
        guard text.hasPrefix("listening on http://"), let port = text.split(separator: ":").last.flatMap({ Int($0) })
        else {
            child.stop()
            let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            throw RawHTTP.Failure(
                description: "tracksnap serve printed \(text.debugDescription) first; stderr: \(stderr)")
        }
        return ServeProcess(child: child, port: port, stderrURL: stderrURL)
    }

    func signal(_ number: Int32) {
        child.signal(number)
    }

    /// Waits for the child to exit (at most 30 seconds) and returns its status.
    func waitForExit() async throws -> Int32 {
        try await child.waitForExit()
    }
}
