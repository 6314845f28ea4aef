import Foundation
import TracksnapCore
import TracksnapJSON
import TracksnapModel
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

    init(ignore: IgnoreRules, redact: IgnoreRules, environment: IgnoreRules = IgnoreRules()) {
        self.ignore = ignore
        self.redact = redact
        self.environment = environment
    }

    /// Notes the secrets a request carries; every request of a recording is seen before any
    /// entry is built, so that a key sent in one request's header is hidden in another's body.
    mutating func collectSecrets(of request: CapturedRequest, view: JSONValue) {
        secrets.formUnion(request.carriedSecrets)
        // What the profile's `redact` rules name, on top of the built-in secrets.
        for header in request.headers where isRedacted(["headers", header.name.lowercased()]) {
            secrets.formUnion(Secrets.credentials(inHeaderValue: header.value))
        }
        for (key, value) in view.objectValue ?? [:] { collectSecrets(value, tokens: [key]) }
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

    private mutating func collectSecrets(_ value: JSONValue, tokens: [String]) {
        if isRedacted(tokens) {
            collectStrings(value)
            return
        }
        switch value {
        case .object(let members):
            for (key, member) in members { collectSecrets(member, tokens: tokens + [Matcher.Member.token(for: key)]) }
        case .array(let items):
            for (index, item) in items.enumerated() { collectSecrets(item, tokens: tokens + [String(index)]) }
        default: break
        }
    }

    private mutating func collectStrings(_ value: JSONValue) {
        switch value {
        case .string(let text): if !text.isEmpty { secrets.insert(text) }
        case .object(let members): for member in members.values { collectStrings(member) }
        case .array(let items): for item in items { collectStrings(item) }
        default: break
        }
    }

    private mutating func build(_ value: JSONValue, tokens: [String]) -> JSONValue {
        if isRedacted(tokens) { return Self.redaction(for: value) }
        switch value {
        case .string(let text):
            return hidingSecrets(in: text)
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

    /// The text itself, the text with a `secretHole` for each captured secret it contains, or
    /// `{"$type": "string"}` when it must be hidden whole (`Secrets.cuts`).
    private func hidingSecrets(in text: String) -> JSONValue {
        guard let cuts = Secrets.cuts(in: text, known: secrets) else { return ["$type": "string"] }
        guard !cuts.isEmpty else { return .string(text) }
        return .string(cuts.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.secretHole) })
    }

    /// The entry as written: each text with secret holes becomes a pattern in which each hole
    /// stands as `[\s\S]+`, and so does each hole in a pattern the generaliser made of such a text.
    ///
    /// ```swift
    /// EntryRecorder.fillingSecretHoles(.string("/v1/" + EntryRecorder.secretHole + "/t"))  // {"$regex": "\/v1\/[\s\S]+\/t"}
    /// ```
    static func fillingSecretHoles(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where text.contains(secretHole):
            return [
                "$regex": .string(
                    text.components(separatedBy: secretHole).map(PatternEscaping.escape).joined(separator: "[\\s\\S]+"))
            ]
        case .object(let members):
            if members.count == 1, let source = members["$regex"]?.stringValue {
                return [
                    "$regex": .string(
                        source.replacingOccurrences(of: PatternEscaping.escape(secretHole), with: "[\\s\\S]+"))
                ]
            }
            return .object(members.mapValues(fillingSecretHoles))
        case .array(let items):
            return .array(items.map(fillingSecretHoles))
        default:
            return value
        }
    }
}
