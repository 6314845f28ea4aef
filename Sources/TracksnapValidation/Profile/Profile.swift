import Foundation
public import TracksnapDecoders
public import TracksnapJSON
public import TracksnapSnapshot
import TracksnapTraffic

/// A validator profile (`Validators/NAME.json`, or one built into tracksnap): which traffic to
/// look at and how to compare it.
///
/// ```json
/// { "name": "shop", "extends": "segment", "filter": { "host": "collect.shop.example", "not": { "path": "/health" } },
///   "order": "strict", "unexpected": "fail", "ignore": ["/parameters/cb", "sentAt"] }
/// ```
public struct Profile: Sendable {
    /// Its name; profiles composed from a list are named by the list (`segment,ga4`).
    public var name: String
    /// The file it was read from (`<built-in>/segment.json` for a built-in); nil for one built in Swift.
    public var file: String?
    public var description: String?
    public var filter: any RequestFilter
    public var order: Order
    public var unexpected: UnexpectedPolicy
    /// Objects must not have keys the snapshot does not list.
    public var strict: Bool
    /// Fields never compared nor recorded: the file's `ignore`, and `IgnoreRules.cacheBusters`,
    /// which every profile starts with.
    public var ignore: IgnoreRules
    /// Severity by finding code; codes not listed are errors.
    public var severities: [FindingCode: Severity]
    /// The registered `Validator` that runs this profile (`snapshot`, the built-in, by default).
    public var validator: String
    /// The vendor decoders (`segment`, `ga4`…) that turn traffic into events when a snapshot
    /// lists `events`, and whether `tracksnap record` writes events: the file's `decoders`.
    public var decoders = DecoderChoice.unspecified
    /// The decoders of one's own its `decoders` can name: the extensions of the workspace it was
    /// loaded through (`Extensions.decoders`).
    public var ownDecoders: [VendorDecoder] = []
    /// The decoders that make its events: `decoders` resolved, one's own included.
    public var resolvedDecoders: [VendorDecoder] { decoders.resolved(with: ownDecoders) }
    /// The context fields a recorded event keeps, as dotted paths into its `context`
    /// (`"record": {"context": ["page.path", "library.name"]}`); none by default, since
    /// context is mostly ids, timestamps and library versions.
    public var recordedContext: [String] = []
    /// Header names a recorded snapshot keeps (`"record": {"headers": ["X-Client"]}`); others are left out.
    public var recordedHeaders: [String]
    /// Fields replaced by a matcher when recording, on top of `Secrets` (`"redact": ["/body/context/ip", "client_id"]`).
    public var redact: IgnoreRules
    /// Whether `tracksnap record` writes values of a volatile shape (UUIDs, timestamps, random
    /// ids) as matchers (`"record": {"generalize": false}` turns it off).
    public var generalizes = true
    /// Fields `tracksnap record` always writes as captured, whatever their shape
    /// (`"record": {"literal": ["/properties/order_id"]}`, same syntax as `ignore`).
    public var literal = IgnoreRules()
    /// Fields that describe the machine, not the app (OS and its version, runtime, library and
    /// its version, user agent, device, screen, locale, time zone, network): `tracksnap record`
    /// leaves them out, so that a snapshot recorded on one machine passes on another
    /// (`"environment": ["$os", "/context/context/library"]`, same syntax as `ignore`). Unlike
    /// `ignore`, a snapshot that lists one still has it compared.
    public var environment = IgnoreRules()
    /// How the profile's SDKs deliver separate requests, which decides the `order` a recording
    /// writes: events in one request keep their order; separate requests keep theirs only when
    /// the SDK sends them one after another (`"delivery": "serial"`).
    public var delivery = Delivery.concurrent
    /// The vendor rules checked, by vendor (`ga4`: all of GA4's) or by rule
    /// (`ga4.purchase_items`), a rule's own setting winning (`"rules": {"ga4": "on"}`, as the
    /// built-in vendor profiles set it; see `VendorRule`).
    public var rules: [String: RuleSetting] = [:]
    /// How personal data is checked: on in every profile, each kind at its vendor's severity
    /// (`"personalData": {"allow": {"email": ["/properties/support_email"]}}`; see
    /// `PersonalDataPolicy`).
    public var personalData = PersonalDataPolicy()
    /// The consent the user gave, declared by the test (`"consent": "denied"` or per type; see
    /// `ConsentDeclaration`): nil, the default, checks no consent.
    public var consent: ConsentDeclaration?
    /// The tracking plans every event is checked against (`"plan": "shop.plan.json"` or a list),
    /// as paths: relative ones are relative to the profile file's directory.
    public var plans: [String] = []
    /// The file's `"protobuf"` key as read: descriptor set paths (relative ones made relative to
    /// the profile's directory) and a message type per URL. Loading the profile reads the sets
    /// into `messageDecoders`.
    var protobuf: ProtobufSettings?
    /// Decoders of the profile's own, tried before `decoders`: the one its `"protobuf"` key makes
    /// (and those of the profiles it extends or is composed with).
    package var messageDecoders: [VendorDecoder] = []
    /// The profiles it extends, as its file names them (`"extends": "segment"`); already applied.
    public var extends: [String] = []
    /// The keys its file sets (`order`, `strict`, `record.generalize`…): when profiles compose,
    /// a setting comes from the first profile that set it explicitly. A profile built in Swift
    /// that is to be composed lists the settings it chose here.
    public var explicitKeys: Set<String> = []

    public init(
        name: String, file: String? = nil, description: String? = nil, filter: any RequestFilter = .everything,
        order: Order = .strict, unexpected: UnexpectedPolicy = .fail, strict: Bool = false,
        ignore: IgnoreRules = IgnoreRules(), severities: [FindingCode: Severity] = [:], validator: String = "snapshot",
        recordedHeaders: [String] = [], redact: IgnoreRules = IgnoreRules()
    ) {
        self.name = name
        self.file = file
        self.description = description
        self.filter = filter
        self.order = order
        self.unexpected = unexpected
        self.strict = strict
        self.ignore = IgnoreRules.cacheBusters.union(ignore)
        self.severities = severities
        self.validator = validator
        self.recordedHeaders = recordedHeaders
        self.redact = redact
    }

    /// Builds a profile from an already parsed document; the profiles it `extends` are looked up
    /// next to its file, then among the built-in ones.
    ///
    /// ```swift
    /// let profile = try Profile.parse(document: JSONDocument.load(path: "Validators/shop.json"))
    /// ```
    /// - Throws: `InputError` with every error in the file (an unknown key, an unknown vendor, a
    ///   profile it extends that does not exist, a cycle of `extends`), each with its line and column.
    public static func parse(document: JSONDocument) throws(InputError) -> Profile {
        try ProfileCatalog(beside: document.file).profile(from: document, chain: [])
    }

    /// Every error and warning in a profile document; `Validation.lint(document:workspace:)` is
    /// the entry point, for snapshots and profiles alike.
    package static func lint(document: JSONDocument, extensions: Extensions = .registered) -> [Diagnostic] {
        ProfileCatalog(beside: document.file, extensions: extensions).read(document, chain: []).diagnostics
            + document.duplicateKeyWarnings
    }
}

/// Reads one profile document's own keys, through `ProfileKey`'s table; `ProfileCatalog` applies what it `extends`.
enum ProfileReader {
    static func read(_ document: JSONDocument, extensions: Extensions, _ parser: inout MatcherParser) -> Profile? {
        guard let top = document.value.objectValue else {
            parser.error("", "a profile is a JSON object, not \(document.value.typeName)")
            return nil
        }
        var profile = Profile(
            name: URL(fileURLWithPath: document.file).deletingPathExtension().lastPathComponent, file: document.file)
        profile.explicitKeys = Set(top.keys)
        profile.ownDecoders = extensions.decoders
        if let record = top["record"]?.objectValue {
            profile.explicitKeys.formUnion(record.keys.map { "record." + $0 })
        }
        let readable = ProfileKey.read(top, at: "", through: ProfileKey.all(extensions), into: &profile, &parser) {
            key, names in
            key == "validator"
                ? "a profile has no \"validator\": that is a snapshot's key, naming its profile; a profile builds on "
                    + "another with \"extends\", and names a Validator registered in Swift with \"swiftValidator\""
                : "unknown key \"\(key)\"; a profile has \(names)"
        }
        return readable ? profile : nil
    }

    static let filterKeys = ["host", "path", "method", "url", "header", "vendor", "all", "any", "not", "custom"]

    /// A filter object: each key one condition, all of which must hold.
    static func filter(_ value: JSONValue, at pointer: String, _ extensions: Extensions, _ parser: inout MatcherParser)
        -> any RequestFilter
    {
        guard let object = value.objectValue else {
            parser.error(pointer, "a filter is an object with \(filterKeys.joined(separator: ", "))")
            return .everything
        }
        var filters: [any RequestFilter] = []
        for key in object.keys.sorted() {
            let keyPointer = JSONPointer.appending(pointer, key)
            let argument = object[key]!
            if let field = FieldFilter.Field(key: key) {
                let matcher = parser.matcher(argument, at: keyPointer)
                parser.warnNeverMatching(field, matcher, at: keyPointer)
                filters.append(FieldFilter(field, matcher))
                continue
            }
            switch key {
            case "header":
                guard let headers = argument.objectValue else {
                    parser.error(keyPointer, "\"header\" maps header names to values or matchers")
                    continue
                }
                for name in headers.keys.sorted() {
                    filters.append(
                        FieldFilter(
                            .header(name), parser.matcher(headers[name]!, at: JSONPointer.appending(keyPointer, name))))
                }
            case "vendor":
                let names = argument.stringValue.map { [$0] } ?? argument.arrayValue?.compactMap(\.stringValue)
                guard let names, names.count == (argument.arrayValue?.count ?? 1), !names.isEmpty else {
                    parser.error(
                        keyPointer,
                        "\"vendor\" is a vendor id or an array of them: \((VendorDecoder.all + extensions.decoders).map(\.vendor).joined(separator: ", "))"
                    )
                    continue
                }
                for (index, name) in names.enumerated()
                where VendorDecoder.named(name) == nil && extensions.decoder(named: name) == nil {
                    let pointer = argument.arrayValue == nil ? keyPointer : JSONPointer.appending(keyPointer, index)
                    parser.error(
                        pointer,
                        "no vendor \"\(name)\"; vendors: \((VendorDecoder.all + extensions.decoders).map(\.vendor).joined(separator: ", "))"
                    )
                }
                filters.append(
                    extensions.decoders.isEmpty
                        ? VendorFilter(names) : VendorFilter(names, decoders: extensions.decoders + VendorDecoder.all))
            case "all", "any":
                guard let items = argument.arrayValue else {
                    parser.error(keyPointer, "\"\(key)\" takes an array of filters")
                    continue
                }
                let parts = items.enumerated().map {
                    filter($1, at: JSONPointer.appending(keyPointer, $0), extensions, &parser)
                }
                filters.append(key == "all" ? AllFilter(parts) as any RequestFilter : AnyFilter(parts))
            case "not":
                filters.append(NotFilter(filter(argument, at: keyPointer, extensions, &parser)))
            case "custom":
                guard let name = argument.stringValue, let custom = extensions.filters[name] else {
                    parser.error(
                        keyPointer,
                        "no filter is registered as \(argument.serialized()); \(Extensions.howToAdd(with: "FilterRegistry"))"
                    )
                    continue
                }
                filters.append(custom)
            default:
                parser.keyError(keyPointer, "unknown filter key \"\(key)\"; use \(filterKeys.joined(separator: ", "))")
            }
        }
        return filters.count == 1 ? filters[0] : AllFilter(filters)
    }
}
