import Foundation
import TracksnapTestSupport

/// What a run of `tracksnap` left behind.
typealias TracksnapRun = (status: Int32, stdout: String, stderr: String)

/// Runs the built `tracksnap` executable as a user would, and waits for it to exit.
///
/// ```swift
/// let run = try tracksnap("lint", "Snapshots")
/// #expect(run.status == 0)
/// ```
///
/// - Parameters:
///   - arguments: The command line after `tracksnap`.
///   - directory: The working directory; the package root by default, so that the demo's
///     relative paths and `Validators/` resolve as they do for a user in a checkout.
///   - environment: Variables set on top of the test process's own environment.
/// - Throws: `PackagePaths.ExecutableNotFound` when the executable has not been built;
///   `TracksnapTimeout` when it runs for longer than a minute.
func tracksnap(_ arguments: String..., in directory: URL = PackagePaths.root, environment: [String: String] = [:]) throws -> TracksnapRun {
    try tracksnap(arguments: arguments, in: directory, environment: environment)
}

/// Runs `tracksnap` with an argument list built at run time (parameterized cases).
///
/// ```swift
/// let run = try tracksnap(arguments: ["validate", "--help"])
/// ```
///
/// - Parameters:
///   - arguments: The command line after `tracksnap`.
///   - directory: The working directory.
///   - environment: Variables set on top of the test process's own environment.
/// - Throws: `PackagePaths.ExecutableNotFound` or `TracksnapTimeout`.
func tracksnap(arguments: [String], in directory: URL = PackagePaths.root, environment: [String: String] = [:]) throws -> TracksnapRun {
    let executable = try PackagePaths.executable.get()
    // Output goes to files rather than pipes: a pipe that fills while nobody reads it would
    // block the child, and tests run in parallel.
    let scratch = FileManager.default.temporaryDirectory.appending(path: "tracksnap-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let stdoutURL = scratch.appending(path: "stdout"), stderrURL = scratch.appending(path: "stderr")
    try Data().write(to: stdoutURL)
    try Data().write(to: stderrURL)
    let stdout = try FileHandle(forWritingTo: stdoutURL), stderr = try FileHandle(forWritingTo: stderrURL)

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var inherited = ProcessInfo.processInfo.environment
    // A CI runner's step summary must not receive the tests' reports, nor its colour settings
    // change what they see.
    for name in ["GITHUB_STEP_SUMMARY", "NO_COLOR", "FORCE_COLOR", "CI"] { inherited[name] = nil }
    process.environment = inherited.merging(environment) { _, override in override }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdout
    process.standardError = stderr

    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    if exited.wait(timeout: .now() + 60) == .timedOut {
        process.terminate()
        throw TracksnapTimeout(arguments: arguments)
    }
    try stdout.close()
    try stderr.close()
    return (
        process.terminationStatus,
        String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
        String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self)
    )
}

/// `tracksnap` did not exit within its deadline.
struct TracksnapTimeout: Error, CustomStringConvertible {
    let arguments: [String]
    var description: String { "tracksnap \(arguments.joined(separator: " ")) did not exit within 60 seconds" }
}
