import Foundation

/// When a snapshot is (re-)recorded from captured traffic: what `tracksnap record --mode`,
/// an assertion's `record:` and the control API's `POST sessions/{id}/record` take.
///
/// ```swift
/// let mode = RecordMode(rawValue: environment["TRACKSNAP_RECORD"] ?? "") ?? .missing
/// ```
public enum RecordMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Only when the snapshot file does not exist (the local default).
    case missing
    /// Always; re-recording keeps the patterns that still match.
    case all
    /// Only when the snapshot does not exist or validation against it fails.
    case failed
    /// Never (the default in CI): a missing snapshot is a failure, not a new file.
    case never
}

/// How an assertion (and `tracksnap serve --cassette`) picks its `RecordMode`.
///
/// ```swift
/// assertTracking(requests, matches: "Snapshots/checkout.json", record: .all)
/// // or for a whole test or suite: @Test(.tracksnap(record: .failed))
/// // or for a run: TRACKSNAP_RECORD=all swift test
/// ```
///
/// The mode comes from, first to last: the assertion's `record:` argument, the enclosing
/// `.tracksnap(record:)` trait or `withTracksnap(record:)`, the `TRACKSNAP_RECORD` environment
/// variable, and otherwise `never` when the `CI` environment variable is set, else `missing`.
/// A recording fails the test, as a first run of swift-snapshot-testing does, so that a new or
/// changed snapshot is looked at and committed on purpose.
extension RecordMode {
    /// The environment variable that sets the mode for a whole run.
    public static let environmentVariable = "TRACKSNAP_RECORD"

    /// The mode in force, given an explicit choice, the task's configuration and the environment.
    ///
    /// ```swift
    /// let mode = try RecordMode.resolve(explicit: nil, configured: nil, environment: ["CI": "true"])  // .never
    /// ```
    /// - Parameters:
    ///   - explicit: the assertion's `record:` argument.
    ///   - configured: the mode of the enclosing trait or `withTracksnap(record:)`.
    ///   - environment: the process's environment.
    /// - Throws: `RecordModeError` when `TRACKSNAP_RECORD` holds something that is not a mode.
    package static func resolve(
        explicit: RecordMode?, configured: RecordMode?, environment: [String: String]
    ) throws(RecordModeError) -> RecordMode {
        if let explicit { return explicit }
        if let configured { return configured }
        if let raw = environment[environmentVariable], !raw.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let mode = RecordMode(rawValue: raw.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw RecordModeError(value: raw)
            }
            return mode
        }
        return isCI(environment) ? .never : .missing
    }

    /// Whether the environment says this is a CI run: `CI` set to anything but empty, `0` or `false`.
    package static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"]?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }
}

/// `TRACKSNAP_RECORD` holds something that is not a record mode.
public struct RecordModeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variable's value as found.
    public var value: String

    public var description: String {
        "\(RecordMode.environmentVariable)=\(value) is not a record mode; use one of "
            + RecordMode.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
