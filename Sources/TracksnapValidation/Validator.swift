import Synchronization
public import TracksnapDecoders
public import TracksnapSnapshot
public import TracksnapTraffic

/// Validates captured traffic against a snapshot under a profile.
///
/// The built-in `SnapshotValidator` is registered as `snapshot` and runs every profile that does
/// not name another. Register your own for rules a snapshot cannot express; it is given the
/// profile's `Selection`, the traffic its filter selected and what its decoders made of each
/// request, made once for the whole validation (the vendor rules, personal data, consent and
/// plans read the same one):
/// ```swift
/// struct NoPII: Validator {
///     func validate(_ snapshot: Snapshot, selection: Selection, profile: Profile) -> SnapshotResult { … }
/// }
/// ValidatorRegistry.register("no-pii", NoPII())   // a profile says "swiftValidator": "no-pii"
/// ```
public protocol Validator: Sendable {
    /// - Parameters:
    ///   - snapshot: what is expected.
    ///   - selection: everything captured (`selection.requests`, in capture order), the requests
    ///     the profile's filter selected and what its decoders made of each.
    ///   - profile: the filter and the policy.
    func validate(_ snapshot: Snapshot, selection: Selection, profile: Profile) -> SnapshotResult
}

extension Validator {
    /// Selects and decodes the requests as the profile does, then validates them.
    public func validate(_ snapshot: Snapshot, requests: [CapturedRequest], profile: Profile) -> SnapshotResult {
        validate(snapshot, selection: profile.select(requests, decodingEvents: true), profile: profile)
    }
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
    /// Vendor decoders of your own, by their `vendor`, which a profile's `"decoders"` and
    /// `{"vendor": …}` filter name as they name the built-in ones; asked before the built-in ones.
    public fileprivate(set) var decoders: [VendorDecoder]

    /// - Parameters:
    ///   - validators: validators by the name a profile's `validator` uses (`snapshot` is added).
    ///   - filters: request filters by the name a profile's `{"custom": …}` filter uses.
    ///   - decoders: decoders of your own, named by their `vendor` (a later one of the same vendor wins).
    public init(
        validators: [String: any Validator] = [:], filters: [String: any RequestFilter] = [:],
        decoders: [VendorDecoder] = []
    ) {
        self.validators = validators.merging(["snapshot": SnapshotValidator()]) { mine, _ in mine }
        self.filters = filters
        self.decoders = []
        for decoder in decoders { add(decoder) }
    }

    /// Adds a decoder, replacing one of the same vendor.
    fileprivate mutating func add(_ decoder: VendorDecoder) {
        decoders.removeAll { $0.vendor == decoder.vendor }
        decoders.append(decoder)
    }

    /// The decoder of your own for a vendor id.
    package func decoder(named vendor: String) -> VendorDecoder? {
        decoders.last { $0.vendor == vendor }
    }

    /// How an extension a profile names gets there, for the messages that say it is not: `registry`
    /// is `DecoderRegistry`, `FilterRegistry` or `ValidatorRegistry`.
    static func howToAdd(with registry: String) -> String {
        "in Swift, register it with \(registry).register or give it to the workspace's extensions; for the "
            + "command line, build an executable of your own that runs TracksnapCommand.main(extensions:) "
            + "(SnapshotsAndProfiles.md, \"Extending it from Swift\")"
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

/// Vendor decoders of your own, by their `vendor`, which a profile names in `"decoders"` (and a
/// `{"vendor": …}` filter), for every workspace made afterwards without extensions of its own.
///
/// ```swift
/// DecoderRegistry.register(VendorDecoder(vendor: "telemetrydeck", rule: "POST /v2/", matches: …, decode: …))
/// ```
public enum DecoderRegistry {
    /// Registers a decoder; a later registration of the same vendor replaces it.
    public static func register(_ decoder: VendorDecoder) {
        Registry.extensions.withLock { $0.add(decoder) }
    }

    public static func decoder(named vendor: String) -> VendorDecoder? { Extensions.registered.decoder(named: vendor) }
}
