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
