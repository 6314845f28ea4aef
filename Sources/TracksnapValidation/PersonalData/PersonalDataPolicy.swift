import TracksnapJSON
import TracksnapSnapshot

/// How a profile checks personal data (`"personalData"` in its file): on in every profile,
/// each hit a `personal_data` finding at the vendor's own severity.
///
/// ```json
/// "personalData": {
///   "check": "on",
///   "kinds": {"ip_address": "off", "coordinates": "error"},
///   "allow": {"email": ["/properties/support_email", "hashed_email"], "*": ["/context/traits"]},
///   "traits": true
/// }
/// ```
/// `"personalData": "off"` turns the check off, as `{"check": "off"}` does.
public struct PersonalDataPolicy: Sendable, Hashable {
    /// The whole check: `on` (the vendor's rule decides: an error where it forbids personal
    /// data, a warning elsewhere), `error` (every hit an error), `warning` (every hit a
    /// warning), or `off`.
    public var check: RuleSetting = .on
    /// A kind's own setting, which wins over `check`.
    public var kinds: [PersonalData.Kind: RuleSetting] = [:]
    /// The fields allowed to carry a kind, as `ignore` names fields (JSON Pointers into the
    /// event, `/properties/support_email`, or key names, `hashed_email`; a pointer allows what
    /// is under it too); under `"*"`, any kind.
    public var allow: [String: IgnoreRules] = [:]
    /// Whether a CDP's identify traits (Segment, RudderStack, mParticle), which carry email and
    /// phone by design, are checked too.
    public var traits = false

    public init() {}

    /// The severity of a hit of this kind when the vendor forbids personal data (`forbidden`)
    /// or not; nil when the kind is not checked.
    func severity(of kind: PersonalData.Kind, forbidden: Bool) -> Severity? {
        switch kinds[kind] ?? check {
        case .off: nil
        case .warning: .warning
        case .error: .error
        case .on: forbidden ? .error : .warning
        }
    }

    /// Whether the field at these tokens may carry this kind.
    func allows(_ kind: PersonalData.Kind, at tokens: [String]) -> Bool {
        [allow[kind.rawValue], allow["*"]].compactMap { $0 }.contains { rules in
            (1...max(1, tokens.count)).contains { rules.ignores(dataKeys: Array(tokens.prefix($0))) }
        }
    }

    /// Self first: what its file sets wins; the allowed fields add up.
    func merging(_ other: PersonalDataPolicy, explicit: Bool, otherExplicit: Bool) -> PersonalDataPolicy {
        var merged = explicit || !otherExplicit ? self : other
        merged.kinds = kinds.merging(other.kinds) { mine, _ in mine }
        merged.allow = allow.merging(other.allow) { $0.union($1) }
        return merged
    }

    static let keys = ["check", "kinds", "allow", "traits"]

    /// A snapshot's own `"personalData"`, over the profile's: its settings win, the allowed
    /// fields add up. The errors are at their place in the snapshot file.
    static func applying(_ snapshot: Snapshot, to profile: PersonalDataPolicy) -> (PersonalDataPolicy, [Diagnostic]) {
        guard let raw = snapshot.personalData else { return (profile, []) }
        var parser = MatcherParser(
            document: JSONDocument(file: snapshot.file, value: ["personalData": raw], locations: snapshot.locations))
        guard let own = read(raw, at: "/personalData", &parser) else { return (profile, parser.diagnostics) }
        return (own.merging(profile, explicit: true, otherExplicit: true), parser.diagnostics)
    }

    /// Reads `"personalData"`: a setting (`"off"`) or an object of `keys`.
    static func read(_ value: JSONValue, at pointer: String, _ parser: inout MatcherParser) -> PersonalDataPolicy? {
        var policy = PersonalDataPolicy()
        let settings = "\"on\", \"off\", \"warning\" or \"error\""
        if let setting = value.stringValue {
            guard let check = RuleSetting(rawValue: setting) else {
                parser.error(
                    pointer, "\"personalData\" is \(settings), or an object of \(keys.joined(separator: ", "))")
                return nil
            }
            policy.check = check
            return policy
        }
        guard let object = value.objectValue else {
            parser.error(pointer, "\"personalData\" is \(settings), or an object of \(keys.joined(separator: ", "))")
            return nil
        }
        let kinds = PersonalData.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        for key in object.keys.sorted() where !keys.contains(key) {
            parser.keyError(
                JSONPointer.appending(pointer, key),
                "unknown key \"\(key)\" in \"personalData\"; it has \(keys.joined(separator: ", "))")
        }
        if let check = object["check"] {
            guard let setting = check.stringValue.flatMap(RuleSetting.init) else {
                parser.error(JSONPointer.appending(pointer, "check"), "\"check\" is \(settings)")
                return nil
            }
            policy.check = setting
        }
        if let traits = object["traits"] {
            guard let flag = traits.boolValue else {
                parser.error(
                    JSONPointer.appending(pointer, "traits"),
                    "\"traits\" is true (a CDP's identify traits are checked too) or false")
                return nil
            }
            policy.traits = flag
        }
        if let settingsByKind = object["kinds"] {
            let place = JSONPointer.appending(pointer, "kinds")
            guard let members = settingsByKind.objectValue else {
                parser.error(place, "\"kinds\" maps a kind (\(kinds)) to \(settings)")
                return nil
            }
            for (name, setting) in members {
                guard let kind = PersonalData.Kind(rawValue: name),
                    let level = setting.stringValue.flatMap(RuleSetting.init)
                else {
                    parser.error(
                        JSONPointer.appending(place, name),
                        "\"\(name)\": expected a kind (\(kinds)) mapped to \(settings)")
                    continue
                }
                policy.kinds[kind] = level
            }
        }
        if let allowed = object["allow"] {
            let place = JSONPointer.appending(pointer, "allow")
            guard let members = allowed.objectValue else {
                parser.error(
                    place,
                    "\"allow\" maps a kind (\(kinds)) or \"*\" to the fields allowed to carry it: JSON Pointers into the event (\"/properties/support_email\") or key names (\"hashed_email\")"
                )
                return nil
            }
            for (name, fields) in members {
                let items = fields.arrayValue?.compactMap(\.stringValue)
                guard name == "*" || PersonalData.Kind(rawValue: name) != nil, let items,
                    items.count == fields.arrayValue?.count, !items.contains(where: \.isEmpty)
                else {
                    parser.error(
                        JSONPointer.appending(place, name),
                        "\"\(name)\": expected a kind (\(kinds)) or \"*\" mapped to an array of JSON Pointers or key names"
                    )
                    continue
                }
                policy.allow[name] = IgnoreRules(items)
            }
        }
        return policy
    }
}
