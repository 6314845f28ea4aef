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
///   `ProcessTimeout` when it runs for longer than a minute.
func tracksnap(_ arguments: String..., in directory: URL = PackagePaths.root, environment: [String: String] = [:])
    throws -> TracksnapRun
{
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
/// - Throws: `PackagePaths.ExecutableNotFound` or `ProcessTimeout`.
func tracksnap(arguments: [String], in directory: URL = PackagePaths.root, environment: [String: String] = [:]) throws
    -> TracksnapRun
{
    let executable = try PackagePaths.executable.get()
    var inherited = ProcessInfo.processInfo.environment
    // A CI runner's step summary must not receive the tests' reports, nor its colour settings
    // change what they see.
    for name in ["GITHUB_STEP_SUMMARY", "NO_COLOR", "FORCE_COLOR", "CI"] { inherited[name] = nil }
    let result = try runProcess(
        executable, arguments, in: directory, environment: inherited.merging(environment) { _, override in override })
    return (result.status, result.stdout, result.stderr)
}

/// `tracksnap` for async tests, waiting on a thread of its own (see the async `runProcess`).
func tracksnap(_ arguments: String..., in directory: URL = PackagePaths.root, environment: [String: String] = [:])
    async throws -> TracksnapRun
{
    try await offloaded { try tracksnap(arguments: arguments, in: directory, environment: environment) }
}
