public import Foundation

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// A child process did not exit within its deadline (it has been killed).
public struct ProcessTimeout: Error, CustomStringConvertible {
    public let command: String
    public let seconds: Int
    /// What it had written by then.
    public var stdout = ""
    public var stderr = ""
    public var description: String {
        "\(command) did not exit within \(seconds) seconds; stdout: \(stdout.debugDescription), stderr: \(stderr.debugDescription)"
    }
}

/// Runs a program to its end, with no standard input.
///
/// Output goes to files rather than pipes: a pipe that fills while nobody reads it would block
/// the child, and tests run in parallel. The child is a `Spawned` one.
///
/// ```swift
/// let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["curl", "-s", url])
/// ```
/// - Parameters:
///   - executable: the program.
///   - arguments: its arguments.
///   - directory: its working directory; the test's own when nil.
///   - environment: its whole environment; the test's own when nil.
///   - timeout: seconds before it is terminated and `ProcessTimeout` is thrown.
public func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
    timeout: Int = 60
) throws -> ProcessResult {
    try withTemporaryDirectory { scratch in
        let outURL = scratch.appending(path: "stdout")
        let errURL = scratch.appending(path: "stderr")
        let out = open(outURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let err = open(errURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            close(out)
            close(err)
        }
        let child = try Spawned(
            executable, arguments, in: directory, environment: environment, standardOutput: out, standardError: err)
        let read = { (url: URL) in String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
        guard let status = child.wait(timeout: timeout) else {
            child.signal(SIGKILL)
            throw ProcessTimeout(command: child.command, seconds: timeout, stdout: read(outURL), stderr: read(errURL))
        }
        return ProcessResult(status: status, stdout: read(outURL), stderr: read(errURL))
    }
}

/// `runProcess` for async tests: the wait for the child happens on a thread of its own, never on
/// one of the few threads Swift's concurrency runs every test's tasks on (on a 2-core machine,
/// two blocked threads stall every other async test in the process).
public func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
    timeout: Int = 60
) async throws -> ProcessResult {
    try await offloaded {
        try runProcess(executable, arguments, in: directory, environment: environment, timeout: timeout)
    }
}

/// Runs blocking work on a thread of its own and awaits its result.
///
/// ```swift
/// let answer = try await offloaded { try socket.readToEnd() }
/// ```
public func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// The data compressed by the system's gzip, so that decompression is never tested against
/// tracksnap's own compressor. Files rather than pipes: no deadlock however large the data.
///
/// ```swift
/// let body = try gzipped(Data(#"{"batch": []}"#.utf8))
/// ```
public func gzipped(_ data: Data) throws -> Data {
    try withTemporaryDirectory { directory in
        let file = directory.appending(path: "body")
        try data.write(to: file)
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["gzip", "-n", file.path])
        guard result.status == 0 else { throw ProcessFailure(command: "gzip", stderr: result.stderr) }
        return try Data(contentsOf: directory.appending(path: "body.gz"))
    }
}

/// A child process exited with an error.
public struct ProcessFailure: Error, CustomStringConvertible {
    public let command: String
    public let stderr: String
    public var description: String { "\(command) failed: \(stderr)" }
}
