import Foundation
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Turns one captured request's validation view into the JSON of a snapshot entry: ignored
/// fields left out, secrets replaced by matchers, `$` keys escaped, every header kept (the
/// recorder trims them afterwards, so that re-recording can still update headers a person listed).
struct EntryRecorder {
    let ignore: IgnoreRules
    let redact: IgnoreRules
    /// The profile's `environment`: fields left out like ignored ones, but told (`leftOut`).
    let environment: IgnoreRules
    /// Captured secret values, so that one copied elsewhere (a write key in a URL, a Basic
    /// header's key in the body) is not written either.
    private(set) var secrets: Set<String> = []
    /// The environment fields the last entry built left out, as entry-relative tokens.
    private(set) var leftOut: [[String]] = []
    /// The personal data the recorded requests carry, by value, with its kind
    /// (`Profile.personalDataToHide`): written as its kind's pattern, never in clear.
    var personalData: [String: PersonalData.Kind] = [:]

    init(ignore: IgnoreRules, redact: IgnoreRules, environment: IgnoreRules = IgnoreRules()) {
        self.ignore = ignore
        self.redact = redact
        self.environment = environment
    }

    /// Notes the secrets a request carries; every request of a recording is seen before any
    /// entry is built, so that a key sent in one request's header is hidden in another's body.
    mutating func collectSecrets(of request: CapturedRequest, view: JSONValue) {
        secrets.formUnion(request.carriedSecrets(view: view))
        // What the profile's `redact` rules name, on top of the built-in secrets.
        for header in request.headers where isRedacted(["headers", header.name.lowercased()]) {
            secrets.formUnion(Secrets.credentials(inHeaderValue: header.value))
        }
        secrets.formUnion(redact.strings(in: view))
    }

    /// The entry for a request, given its `validationView`.
    mutating func entry(for request: CapturedRequest, view: JSONValue) -> JSONValue {
        guard var object = view.objectValue else { return view }
        // A form body is already in `parameters`; its raw text would only repeat it, secrets included.
        if !request.formItems.isEmpty { object["body"] = nil }
        if object["parameters"] == .object([:]) { object["parameters"] = nil }
        leftOut = []
        var entry: [String: JSONValue] = [:]
        for key in object.keys {
            if let value = object[key] { entry[key] = build(value, tokens: [key]) }
        }
        return .object(entry)
    }

    /// The entry for a decoded event, given its `validationView`: every field, the whole
    /// `context` included (the recorder trims it afterwards with `trimmedEvent`), ignored
    /// fields left out, secrets replaced by matchers, `$` keys escaped.
    mutating func eventEntry(view: JSONValue) -> JSONValue {
        guard let object = view.objectValue else { return view }
        leftOut = []
        var entry: [String: JSONValue] = [:]
        for (key, value) in object {
            entry[key] = build(value, tokens: [key])
        }
        return .object(entry)
    }

    /// A recorded event as it is written: `context` only at the listed dotted paths (data
    /// spelling, `page.path`), `properties` and `context` left out when empty.
    ///
    /// ```swift
    /// EntryRecorder.trimmedEvent(entry, context: ["page.path"])  // {"context": {"page": {"path": "/docs"}}, …}
    /// ```
    static func trimmedEvent(_ entry: JSONValue, context paths: [String]) -> JSONValue {
        guard var object = entry.objectValue else { return entry }
        var kept: JSONValue = .object([:])
        if let context = object["context"] {
            for path in paths {
                let tokens = path.split(separator: ".", omittingEmptySubsequences: false).map {
                    Matcher.Member.token(for: String($0))
                }
                if let value = context.value(atTokens: tokens) { kept = inserting(value, at: tokens[...], into: kept) }
            }
        }
        if kept == .object([:]) {
            object.removeValue(forKey: "context")
        } else {
            object["context"] = kept
        }
        if object["properties"] == .object([:]) { object["properties"] = nil }
        return .object(object)
    }

    private static func inserting(_ value: JSONValue, at tokens: ArraySlice<String>, into target: JSONValue)
        -> JSONValue
    {
        guard let first = tokens.first else { return value }
        var object = target.objectValue ?? [:]
        object[first] = inserting(value, at: tokens.dropFirst(), into: object[first] ?? .object([:]))
        return .object(object)
    }

    /// Whether the value at these entry-relative tokens is a secret: a key `Secrets` flags, a
    /// secret header, or a place the profile's `redact` names.
    func isRedacted(_ tokens: [String]) -> Bool {
        guard tokens.count >= 2, let last = tokens.last else { return false }
        return Secrets.isSecret(last) || redact.ignores(tokens)
    }

    private mutating func build(_ value: JSONValue, tokens: [String]) -> JSONValue {
        if isRedacted(tokens) { return Self.redaction(for: value) }
        switch value {
        case .string(let text):
            return hidingSecrets(in: text)
        case .number(let text) where personalData[text] != nil:
            // A precise latitude sent as a number.
            return ["$type": "number"]
        case .array(let items):
            return .array(
                items.enumerated().map { index, item in
                    let itemTokens = tokens + [String(index)]
                    // Arrays compare by position: an ignored element keeps its place.
                    if ignore.ignores(itemTokens) { return ["$any": true] }
                    return build(item, tokens: itemTokens)
                })
        case .object(let members):
            var built: [String: JSONValue] = [:]
            for (key, member) in members {
                // Rules name keys as the snapshot spells them (`$$insert_id`).
                let memberTokens = tokens + [Matcher.Member.token(for: key)]
                if ignore.ignores(memberTokens) { continue }
                // A key that is a secret or personal data (an email used as a key) can be neither
                // written nor written as a pattern: it is left out, as an object matches as a subset.
                if !Secrets.isPlain(key),
                    hidingSecrets(in: key) != .string(key) || !PersonalData.shapedHits(in: key).isEmpty
                {
                    continue
                }
                if environment.ignores(memberTokens) {
                    leftOut.append(memberTokens)
                    continue
                }
                built[Matcher.Member.token(for: key)] = build(member, tokens: memberTokens)
            }
            return .object(built)
        default:
            return value
        }
    }

    /// `{"$type": "string"}` for a string, `{"$any": true}` for anything else.
    static func redaction(for value: JSONValue) -> JSONValue {
        if case .string = value { return ["$type": "string"] }
        return ["$any": true]
    }

    /// Whether a recorded value is a matcher that hides a captured value.
    static func isRedaction(_ value: JSONValue?) -> Bool {
        value == ["$type": "string"] || value == ["$any": true] || value == ["$type": "object"]
            || (value?.objectValue?.count == 1 && value?["$regex"] != nil)
    }

    /// Where a captured secret was cut out of a text: private-use characters no capture holds,
    /// which the generaliser leaves as they are and `fillingSecretHoles` turns into `[\s\S]+`.
    static let secretHole = "\u{E000}secret\u{E001}"

    /// What each hole stands for in a pattern, by the name between its private-use characters:
    /// any text for a secret, its kind's pattern for personal data, a query value's characters
    /// for percent-encoded personal data.
    static let holePatterns: [String: String] = PersonalData.Kind.allCases.reduce(
        into: ["secret": "[\\s\\S]+", "encoded": "[^&#\\s]+"]
    ) {
        $0[$1.rawValue] = "(?:" + PersonalData.recordedPattern(for: $1) + ")"
    }

    /// The text itself, the text with a `secretHole` for each captured secret it contains, or
    /// `{"$type": "string"}` when it must be hidden whole (`Secrets.cuts`).
    private func hidingSecrets(in text: String) -> JSONValue {
        guard let cuts = Secrets.cuts(in: text, known: secrets) else { return ["$type": "string"] }
        let cut = cuts.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.secretHole) }
        return hidingPersonalData(in: cut)
    }

    /// RFC 3986's unreserved characters: what a form or a query leaves as it is.
    private static let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))

    /// Where a percent-encoded value of personal data was cut out of a text.
    static let encodedHole = "\u{E000}encoded\u{E001}"

    /// Where a value of personal data was cut out of a text: a hole of its kind, which
    /// `fillingSecretHoles` turns into the kind's pattern (`PersonalData.recordedPattern`).
    static func hole(for kind: PersonalData.Kind) -> String { "\u{E000}\(kind.rawValue)\u{E001}" }

    /// The text with a hole of its kind for each value of personal data it carries as sent or
    /// percent-encoded; `{"$type": "string"}` when it carries one inside an encoding it cannot
    /// cut (an email in base64).
    private func hidingPersonalData(in text: String) -> JSONValue {
        guard !personalData.isEmpty else { return .string(text) }
        var out = text
        for (raw, kind) in personalData.sorted(by: { ($0.key.count, $0.key) > ($1.key.count, $1.key) })
        where raw.utf8.count >= 4 {
            if out.contains(raw) { out = out.replacingOccurrences(of: raw, with: Self.hole(for: kind)) }
            // Percent-encoded in a URL or a form (`%2B44+20+7946+0958`): the hole of an encoded
            // value, which any query value fills.
            let encoded = [
                raw.addingPercentEncoding(withAllowedCharacters: .alphanumerics),
                raw.addingPercentEncoding(withAllowedCharacters: Self.unreserved),
                raw.addingPercentEncoding(withAllowedCharacters: Self.unreserved)?.replacingOccurrences(
                    of: "%20", with: "+"),
            ]
            for form in Set(encoded.compactMap { $0 }) where form != raw && out.contains(form) {
                out = out.replacingOccurrences(of: form, with: Self.encodedHole)
            }
        }
        if PersonalData.hits(in: .string(out)).contains(where: { personalData[$0.value] != nil }) {
            return ["$type": "string"]
        }
        return .string(out)
    }

    /// The entry as written: each text with secret holes becomes a pattern in which each hole
    /// stands as `[\s\S]+`, and so does each hole in a pattern the generaliser made of such a text.
    ///
    /// ```swift
    /// EntryRecorder.fillingSecretHoles(.string("/v1/" + EntryRecorder.secretHole + "/t"))  // {"$regex": "\/v1\/[\s\S]+\/t"}
    /// ```
    static func fillingSecretHoles(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where holePatterns.keys.contains(where: { text.contains("\u{E000}\($0)\u{E001}") }):
            var pattern = ""
            for (offset, part) in text.components(separatedBy: "\u{E000}").enumerated() {
                guard offset > 0, let close = part.firstIndex(of: "\u{E001}"),
                    let hole = holePatterns[String(part[..<close])]
                else {
                    pattern += PatternEscaping.escape(offset > 0 ? "\u{E000}" + part : part)
                    continue
                }
                pattern += hole + PatternEscaping.escape(String(part[part.index(after: close)...]))
            }
            return ["$regex": .string(pattern)]
        case .object(let members):
            if members.count == 1, let source = members["$regex"]?.stringValue {
                let filled = holePatterns.reduce(source) { source, hole in
                    source.replacingOccurrences(
                        of: PatternEscaping.escape("\u{E000}\(hole.key)\u{E001}"), with: hole.value)
                }
                return ["$regex": .string(filled)]
            }
            return .object(members.mapValues(fillingSecretHoles))
        case .array(let items):
            return .array(items.map(fillingSecretHoles))
        default:
            return value
        }
    }
}
