import Synchronization
public import TracksnapCore
public import TracksnapModel

/// Validates captured traffic against a snapshot under a profile.
///
/// The built-in `SnapshotValidator` is registered as `snapshot` and runs every profile that does
/// not name another. Register your own for rules a snapshot cannot express:
/// ```swift
/// struct NoPII: Validator {
///     func validate(_ snapshot: Snapshot, requests: [CapturedRequest], profile: Profile) -> SnapshotResult { … }
/// }
/// ValidatorRegistry.register("no-pii", NoPII())   // a profile says "validator": "no-pii"
/// ```
public protocol Validator: Sendable {
    /// - Parameters:
    ///   - snapshot: what is expected.
    ///   - requests: everything captured, in capture order, before filtering.
    ///   - profile: the filter and the policy.
    func validate(_ snapshot: Snapshot, requests: [CapturedRequest], profile: Profile) -> SnapshotResult
}

/// Validators by the name a profile uses for them (`"validator": "name"`).
public enum ValidatorRegistry {
    private static let validators = Mutex<[String: any Validator]>(["snapshot": SnapshotValidator()])

    /// Registers a validator; a later registration under the same name replaces it.
    public static func register(_ name: String, _ validator: any Validator) {
        validators.withLock { $0[name] = validator }
    }

    public static func validator(named name: String) -> (any Validator)? {
        validators.withLock { $0[name] }
    }

    /// The registered names, sorted.
    public static var names: [String] {
        validators.withLock { $0.keys.sorted() }
    }
}
