import Foundation
public import Testing

/// What a test costs beyond its own code: the tags `make check` leaves to `make test`.
///
/// ```swift
/// @Suite(.tags(.process), .leftToMakeTest)
/// struct ServeCommandTests { … }
/// ```
///
/// `make check` (`TRACKSNAP_CHECK=1`) runs every test without one of these tags; a test with
/// one is cancelled there by `.leftToMakeTest`, before it starts anything. A test that starts a
/// process (`Spawned`, which every child process of the tests goes through) without the
/// `.process` tag fails, in both runs: the tag is what `make check` trusts.
extension Tag {
    /// Starts a program: the `tracksnap` executable, Python and the vendors' SDKs, `protoc`,
    /// curl, nginx, Chromium.
    @Tag public static var process: Self
    /// Starts a server on loopback (the SwiftNIO stack) and talks to it over sockets.
    @Tag public static var network: Self
    /// Drives a browser.
    @Tag public static var browser: Self

    /// The tags `make check` leaves to `make test`.
    public static let costly: Set<Tag> = [.process, .network, .browser]
}

/// Cancels a costly test (one tagged `.process`, `.network` or `.browser`) when `make check`
/// runs; runs it otherwise.
public struct LeftToMakeTest: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Whether this run is `make check`'s.
    public static var isCheck: Bool { ProcessInfo.processInfo.environment["TRACKSNAP_CHECK"] != nil }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if Self.isCheck, !test.tags.isDisjoint(with: Tag.costly) {
            try Test.cancel("make check runs the untagged tests; make test runs this one")
        }
        try await function()
    }
}

extension Trait where Self == LeftToMakeTest {
    /// See `LeftToMakeTest`.
    public static var leftToMakeTest: Self { LeftToMakeTest() }
}

/// Records an issue when the running test starts a process without the `.process` tag.
func requireProcessTag(starting command: String) {
    guard let test = Test.current, !test.tags.contains(.process) else { return }
    Issue.record(
        "\(test.name) starts \(command) but has no .process tag: make check would run it (Tests/Support/Costs.swift)",
        sourceLocation: test.sourceLocation)
}
