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

/// The validators and request filters of your own that profiles name: `"validator": "no-pii"`,
/// `"filter": {"custom": "production"}`. The built-in `snapshot` validator is always there.
///
/// A `Workspace` carries the extensions its profiles may name, `.registered` unless told otherwise:
/// ```swift
/// let workspace = Workspace(extensions: Extensions(validators: ["no-pii": NoPII()]))
/// try PreparedCheck(snapshotAt: "Snapshots/checkout.json", workspace: workspace)
/// ```
public struct Extensions: Sendable {
    /// Validators by name, `snapshot` included.
    public fileprivate(set) var validators: [String: any Validator]
    /// Request filters by name.
    public fileprivate(set) var filters: [String: any RequestFilter]

    /// - Parameters:
    ///   - validators: validators by the name a profile's `validator` uses (`snapshot` is added).
    ///   - filters: request filters by the name a profile's `{"custom": …}` filter uses.
    public init(validators: [String: any Validator] = [:], filters: [String: any RequestFilter] = [:]) {
        self.validators = validators.merging(["snapshot": SnapshotValidator()]) { mine, _ in mine }
        self.filters = filters
    }

    /// What `ValidatorRegistry` and `FilterRegistry` hold now.
    public static var registered: Extensions { Registry.extensions.withLock { $0 } }

    /// The validator names, sorted, for messages.
    var validatorNames: [String] { validators.keys.sorted() }
}

/// The process-wide extensions, read by `Extensions.registered` (and so by every `Workspace`
/// made without its own).
private enum Registry {
    static let extensions = Mutex(Extensions())
}

/// Validators by the name a profile uses for them (`"validator": "name"`), for every workspace
/// made afterwards without extensions of its own.
public enum ValidatorRegistry {
    /// Registers a validator; a later registration under the same name replaces it.
    public static func register(_ name: String, _ validator: any Validator) {
        Registry.extensions.withLock { $0.validators[name] = validator }
    }

    public static func validator(named name: String) -> (any Validator)? { Extensions.registered.validators[name] }

    /// The registered names, sorted.
    public static var names: [String] { Extensions.registered.validatorNames }
}

/// Request filters of your own, by the name a profile uses for them (`{"custom": "name"}`), for
/// every workspace made afterwards without extensions of its own.
public enum FilterRegistry {
    /// Registers a filter; a later registration under the same name replaces it.
    public static func register(_ name: String, _ filter: any RequestFilter) {
        Registry.extensions.withLock { $0.filters[name] = filter }
    }

    public static func filter(named name: String) -> (any RequestFilter)? { Extensions.registered.filters[name] }
}
