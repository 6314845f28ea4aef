/// Settings for `assertTracking` in the current task: the record mode and where profiles are.
///
/// Set it for a test or suite with the `.tracksnap(record:)` trait (Swift Testing), or around
/// any code with `withTracksnap(record:)` (XCTest: wrap `invokeTest()`).
///
/// ```swift
/// override func invokeTest() {
///     withTracksnap(record: .failed) { super.invokeTest() }
/// }
/// ```
public struct TracksnapConfiguration: Sendable, Hashable {
    /// The record mode; nil leaves it to the environment.
    public var record: RecordMode?
    /// The directory profile names are looked up in; nil finds the nearest `Validators`
    /// directory above the snapshot, else `Validators` in the working directory.
    public var validatorsDirectory: String?

    /// - Parameters:
    ///   - record: the record mode; nil leaves it to the environment.
    ///   - validatorsDirectory: where profile names are looked up.
    public init(record: RecordMode? = nil, validatorsDirectory: String? = nil) {
        self.record = record
        self.validatorsDirectory = validatorsDirectory
    }

    /// The configuration of the current task, set by the trait or `withTracksnap`.
    @TaskLocal public static var current = TracksnapConfiguration()

    /// This configuration with the other's non-nil settings laid over it.
    func overridden(by other: TracksnapConfiguration) -> TracksnapConfiguration {
        TracksnapConfiguration(
            record: other.record ?? record, validatorsDirectory: other.validatorsDirectory ?? validatorsDirectory)
    }
}

/// Runs an operation with `assertTracking` configured; inner settings win over outer ones.
///
/// ```swift
/// withTracksnap(record: .all) { assertTracking(capture.requests, matches: "checkout.json") }
/// ```
/// - Parameters:
///   - record: the record mode; nil keeps the enclosing one.
///   - validatorsDirectory: where profile names are looked up; nil keeps the enclosing one.
///   - operation: the code to run.
public func withTracksnap<R>(
    record: RecordMode? = nil, validatorsDirectory: String? = nil, operation: () throws -> R
) rethrows -> R {
    let configuration = TracksnapConfiguration.current.overridden(
        by: TracksnapConfiguration(record: record, validatorsDirectory: validatorsDirectory))
    return try TracksnapConfiguration.$current.withValue(configuration, operation: operation)
}

/// Runs an asynchronous operation with `assertTracking` configured.
///
/// ```swift
/// await withTracksnap(record: .failed) { await assertTracking(capture, matches: "checkout.json") }
/// ```
/// - Parameters:
///   - record: the record mode; nil keeps the enclosing one.
///   - validatorsDirectory: where profile names are looked up; nil keeps the enclosing one.
///   - operation: the code to run.
///   - isolation: the actor the operation runs on: the caller's (leave the default).
public func withTracksnap<R>(
    record: RecordMode? = nil, validatorsDirectory: String? = nil, isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    let configuration = TracksnapConfiguration.current.overridden(
        by: TracksnapConfiguration(record: record, validatorsDirectory: validatorsDirectory))
    return try await TracksnapConfiguration.$current.withValue(configuration, operation: operation)
}
