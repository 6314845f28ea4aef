public import TracksnapDecoders
public import TracksnapJSON
import TracksnapSnapshot

/// The consent a test declares its user gave, by Google Consent Mode type (`ad_storage`,
/// `analytics_storage`, `ad_user_data`, `ad_personalization`): every request is checked
/// against it (`consent` findings). A type not declared is not checked.
///
/// ```swift
/// try ConsentDeclaration(parsing: "denied")                                       // all four denied
/// try ConsentDeclaration(parsing: "ad_storage=denied,analytics_storage=granted")  // analytics only
/// ```
/// In a profile or snapshot: `"consent": "denied"` or `{"ad_storage": "denied", "analytics_storage": "granted"}`.
public struct ConsentDeclaration: Sendable, Hashable, CustomStringConvertible {
    /// The types a declaration names, Google Consent Mode's.
    public static let types = GoogleConsentMode.gcdTypes
    /// The declared state of each type declared.
    public var states: [String: ConsentState]

    /// - Parameter states: by type; every type when `all` is given.
    public init(_ states: [String: ConsentState]) { self.states = states }

    /// Every type in one state: what `--consent denied` and `"consent": "granted"` declare.
    public static func all(_ state: ConsentState) -> ConsentDeclaration {
        ConsentDeclaration(Dictionary(uniqueKeysWithValues: types.map { ($0, state) }))
    }

    /// Reads `denied`, `granted`, or `type=state` pairs separated by commas.
    ///
    /// - Throws: `ConsentDeclarationError` naming what is not a type or a state.
    public init(parsing text: String) throws(ConsentDeclarationError) {
        if let state = ConsentState(rawValue: text.trimmingPrefix(" ").lowercased()) {
            self = .all(state)
            return
        }
        var states: [String: ConsentState] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0.trimmingPrefix(" ")) }
            guard parts.count == 2, Self.types.contains(parts[0]), let state = ConsentState(rawValue: parts[1]) else {
                throw ConsentDeclarationError(
                    "\"\(pair)\" is not a consent declaration; write denied, granted, or TYPE=denied|granted pairs separated by commas, TYPE one of \(Self.types.joined(separator: ", "))"
                )
            }
            states[parts[0]] = state
        }
        guard !states.isEmpty else {
            throw ConsentDeclarationError("an empty consent declaration; write denied, granted, or TYPE=STATE pairs")
        }
        self.states = states
    }

    /// Whether ad consent was refused: `ad_storage` (or `ad_user_data`) denied.
    var deniesAds: Bool { states["ad_storage"] == .denied || states["ad_user_data"] == .denied }
    var deniesAny: Bool { states.values.contains(.denied) }

    /// `ad_storage=denied,analytics_storage=granted`, in the types' order; `denied` for all denied.
    public var description: String {
        if let first = states.values.first, states.count == Self.types.count, states.values.allSatisfy({ $0 == first })
        {
            return first.rawValue
        }
        return Self.types.compactMap { type in states[type].map { "\(type)=\($0.rawValue)" } }.joined(separator: ",")
    }

    /// `"denied"`, or an object of types and states.
    public var json: JSONValue {
        .object(states.mapValues { .string($0.rawValue) })
    }

    /// Reads `"consent"` from a profile or snapshot, reporting mistakes at their place.
    static func read(_ value: JSONValue, at pointer: String, _ parser: inout MatcherParser) -> ConsentDeclaration? {
        let shape =
            "\"consent\" is \"denied\", \"granted\", or an object of consent types (\(types.joined(separator: ", "))) mapped to \"denied\" or \"granted\""
        if let text = value.stringValue {
            guard let state = ConsentState(rawValue: text) else {
                parser.error(pointer, shape)
                return nil
            }
            return .all(state)
        }
        guard let object = value.objectValue, !object.isEmpty else {
            parser.error(pointer, shape)
            return nil
        }
        var states: [String: ConsentState] = [:]
        for (type, state) in object {
            guard types.contains(type) else {
                parser.keyError(JSONPointer.appending(pointer, type), "unknown consent type \"\(type)\"; \(shape)")
                continue
            }
            guard let choice = state.stringValue.flatMap(ConsentState.init) else {
                parser.error(JSONPointer.appending(pointer, type), "\"\(type)\" is \"denied\" or \"granted\"")
                continue
            }
            states[type] = choice
        }
        return states.isEmpty ? nil : ConsentDeclaration(states)
    }

    /// A snapshot's own `"consent"`, which wins over the profile's; errors at their place in the file.
    static func applying(_ snapshot: Snapshot, to profile: ConsentDeclaration?) -> (
        ConsentDeclaration?, [Diagnostic]
    ) {
        guard let raw = snapshot.consent else { return (profile, []) }
        var parser = MatcherParser(
            document: JSONDocument(file: snapshot.file, value: ["consent": raw], locations: snapshot.locations))
        guard let own = read(raw, at: "/consent", &parser) else { return (profile, parser.diagnostics) }
        return (own, parser.diagnostics)
    }
}

/// A consent declaration that cannot be read (`--consent`, a control API body).
public struct ConsentDeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    /// A declaration that is neither a word nor pairs of types and states.
    public static let shape = ConsentDeclarationError(
        "write denied, granted, or TYPE=denied|granted pairs, TYPE one of \(ConsentDeclaration.types.joined(separator: ", "))"
    )
    public var description: String { message }
}
