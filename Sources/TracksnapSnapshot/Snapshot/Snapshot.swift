import Foundation
import Patterns
public import TracksnapJSON
import TracksnapTraffic

/// Whether expected entries must appear in the captured order.
public enum Order: String, Sendable, Hashable, CaseIterable {
    case strict, any
}

/// What to do with captured traffic that passes the filter but matches no expected entry.
public enum UnexpectedPolicy: String, Sendable, Hashable, CaseIterable {
    case fail, allow
}

/// A snapshot file: what traffic a product team expects.
///
/// ```swift
/// let snapshot = try Snapshot.load(path: "Snapshots/checkout.json")
/// snapshot.requests.count  // expected requests, in file order
/// ```
public struct Snapshot: Sendable {
    public enum Format: String, Sendable { case tracksnap, szimpla }

    /// The file, as the user named it.
    public var file: String
    public var format: Format
    /// The `name`, or the file name without extension.
    public var name: String
    /// The profile the snapshot asks for (a name or path); several are joined by commas, as
    /// `--validator` takes them (`"validator": ["segment", "ga4"]` reads as `segment,ga4`).
    public var validator: String?
    public var order: Order?
    public var unexpected: UnexpectedPolicy?
    /// Objects must not have keys the snapshot does not list.
    public var strict: Bool?
    public var requests: [ExpectedEntry]
    public var events: [ExpectedEntry]
    /// Where every value stands in the file.
    public var locations: [String: SourceLocation]
    /// Warnings found while reading (a literal that looks like a pattern…).
    public var warnings: [Diagnostic]
    /// How personal data is checked for this snapshot, as its file writes it (`"personalData"`:
    /// read and applied over the profile's by validation, which owns the policy).
    public var personalData: JSONValue? = nil
    /// The consent the test declares for this snapshot, as its file writes it (`"consent"`:
    /// read and applied over the profile's by validation).
    public var consent: JSONValue? = nil

    /// Every expected entry, requests first.
    public var entries: [ExpectedEntry] { requests + events }

    /// Whether the snapshot checks decoded events: it has `events`, an empty list too
    /// (`"events": []`: the run may send no event, and a request no decoder reads is a
    /// `decode_error`, as with any other list).
    package var checksEvents: Bool { !events.isEmpty || locations["/events"] != nil }

    /// Reads and checks a snapshot file.
    /// - Throws: `InputError` with every error in the file, each with its line and column.
    public static func load(path: String) throws(InputError) -> Snapshot {
        try parse(document: JSONDocument.load(path: path))
    }

    /// Reads a snapshot file a workspace resolved, named as its caller named it: in errors, in
    /// findings' places and in reports.
    /// - Throws: as `load(path:)` does, naming the file `name`.
    package static func load(path: String, named name: String) throws(InputError) -> Snapshot {
        try parse(document: JSONDocument.load(path: path, named: name))
    }

    /// Reads a snapshot from the bytes of a file.
    /// - Throws: `InputError` for malformed JSON or any error in the snapshot.
    public static func parse(_ bytes: some Collection<UInt8>, file: String) throws(InputError) -> Snapshot {
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(bytes, file: file)
        } catch {
            throw InputError(error)
        }
        return try parse(document: document)
    }

    /// Builds a snapshot from an already parsed document.
    public static func parse(document: JSONDocument) throws(InputError) -> Snapshot {
        let (snapshot, diagnostics) = read(document)
        let errors = diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let snapshot else { throw InputError(errors) }
        return snapshot
    }

    /// Every error and warning in a snapshot document itself; `Validation.lint(document:workspace:)`
    /// is the entry point, which also checks the profiles it names.
    package static func lint(document: JSONDocument) -> [Diagnostic] {
        read(document).1 + document.duplicateKeyWarnings
    }

    private static func read(_ document: JSONDocument) -> (Snapshot?, [Diagnostic]) {
        var reader = SnapshotReader(document: document)
        let snapshot = reader.read()
        return (snapshot, reader.parser.diagnostics)
    }
}

/// One expected request or event of a snapshot.
public struct ExpectedEntry: Sendable {
    public enum Kind: String, Sendable { case request, event }

    public var kind: Kind
    /// Its JSON Pointer in the snapshot (`/requests/2`).
    public var path: String
    /// An object matcher over the entry's fields (`method`, `url`, `parameters`… or `vendor`, `name`…).
    public var matcher: Matcher

    public init(kind: Kind, path: String, matcher: Matcher) {
        self.kind = kind
        self.path = path
        self.matcher = matcher
    }

    /// The fields that say which request or event this is, used to pair entries before comparing.
    package static func identityKeys(_ kind: Kind) -> Set<String> {
        kind == .request ? ["method", "url"] : ["vendor", "type", "name"]
    }

    /// The allowed fields of an entry.
    package static func fields(_ kind: Kind) -> [String] {
        kind == .request
            ? ["method", "url", "parameters", "headers", "body"] : ["vendor", "type", "name", "properties", "context"]
    }

    /// `GET https://api.example.com/track` or `segment track Order Completed`: how reports name it.
    /// A URL pattern shows as `/…/`, but a local server's origin on any port, as recording writes
    /// it, reads `POST http://localhost:*/v1/batch` (`LocalOriginPattern`).
    public var summary: String {
        guard case .object(let members, _) = matcher else { return path }
        func text(_ key: String) -> String? {
            guard let member = members.first(where: { $0.key == key }) else { return nil }
            switch member.matcher {
            case .literal(let value), .exact(let value): return value.scalarText
            case .regex(let pattern): return LocalOriginPattern.readable(pattern.source) ?? "/\(pattern.source)/"
            case .szimpla(let string, _): return string
            default: return member.matcher.json.serialized()
            }
        }
        let keys = kind == .request ? ["method", "url"] : ["vendor", "type", "name"]
        let parts = keys.compactMap(text)
        return parts.isEmpty ? path : parts.joined(separator: " ")
    }
}

extension JSONDocument {
    /// A warning for each key written twice in one object: JSON keeps the last, silently.
    package var duplicateKeyWarnings: [Diagnostic] {
        duplicateKeys.map { pointer in
            Diagnostic(
                .warning, file: file, path: pointer, location: keyLocations[pointer] ?? locations[pointer],
                message:
                    "key \"\(JSONPointer.tokens(pointer).last ?? "")\" appears twice in one object; the last one wins")
        }
    }

    /// Reads and parses a JSON file.
    /// - Throws: `InputError` for a missing or unreadable file, or malformed JSON (with line and column).
    public static func load(path: String) throws(InputError) -> JSONDocument {
        try load(path: path, named: path)
    }

    /// Reads and parses the JSON file at `path`, naming it `name` (as its caller named it).
    package static func load(path: String, named name: String) throws(InputError) -> JSONDocument {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: name, message: "no such file")
        }
        guard !isDirectory.boolValue else { throw InputError(file: name, message: "is a directory, not a JSON file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(file: name, message: "cannot be read (check its permissions)")
        }
        do {
            return try JSONDocument.parse(data, file: name)
        } catch {
            throw InputError(error)
        }
    }
}

/// Reads the top level of a snapshot document in either format.
private struct SnapshotReader {
    let document: JSONDocument
    var parser: MatcherParser
    /// Values with no place of their own stand where they came from (a Szimpla URL's query items).
    var derivedLocations: [String: SourceLocation] = [:]

    init(document: JSONDocument) {
        self.document = document
        self.parser = MatcherParser(document: document)
    }

    static let topLevelKeys = [
        "$schema", "name", "description", "validator", "order", "unexpected", "strict", "personalData", "consent",
        "requests",
        "events",
    ]

    mutating func read() -> Snapshot? {
        let defaultName = URL(fileURLWithPath: document.file).deletingPathExtension().lastPathComponent
        if let capture = CaptureFile.format(ofDocument: document.value) {
            let kind =
                switch capture {
                case .har: "HAR"
                case .ndjson: "a tracksnap NDJSON record"
                case .array: "an array of captured requests"
                }
            parser.error(
                "",
                "this is a capture (\(kind)), not a snapshot: captured traffic is checked against a snapshot (tracksnap validate SNAPSHOT --capture \(document.file))"
            )
            return nil
        }
        switch document.value {
        case .array(let items):
            parser.szimpla = true
            let requests = items.enumerated().compactMap { index, item in
                szimplaEntry(item, at: JSONPointer.appending("", index))
            }
            return Snapshot(
                file: document.file, format: .szimpla, name: defaultName, validator: nil, order: nil, unexpected: nil,
                strict: nil, requests: requests, events: [],
                locations: document.locations.merging(derivedLocations) { original, _ in original },
                warnings: parser.diagnostics.filter { $0.severity == .warning })
        case .object(let top):
            for key in top.keys.sorted() where !Self.topLevelKeys.contains(key) {
                parser.keyError(
                    JSONPointer.appending("", key),
                    "unknown key \"\(key)\"; a snapshot has \(Self.topLevelKeys.joined(separator: ", "))")
            }
            var snapshot = Snapshot(
                file: document.file, format: .tracksnap,
                name: string(top, "name") ?? defaultName,
                validator: validatorNames(top),
                order: enumValue(top, "order"),
                unexpected: enumValue(top, "unexpected"),
                strict: bool(top, "strict"),
                requests: entries(top, .request),
                events: entries(top, .event),
                locations: document.locations,
                warnings: [])
            snapshot.personalData = top["personalData"]
            snapshot.consent = top["consent"]
            return snapshot.with(warnings: parser.diagnostics.filter { $0.severity == .warning })
        default:
            parser.error(
                "",
                "a snapshot is a JSON object with \"requests\" or \"events\" (or a Szimpla array), not \(document.value.typeName)"
            )
            return nil
        }
    }

    private mutating func string(_ top: [String: JSONValue], _ key: String) -> String? {
        guard let value = top[key] else { return nil }
        guard let string = value.stringValue else {
            parser.error(JSONPointer.appending("", key), "\"\(key)\" must be a string")
            return nil
        }
        return string
    }

    /// `"validator"`: a profile name, or a list of them.
    private mutating func validatorNames(_ top: [String: JSONValue]) -> String? {
        guard let items = top["validator"]?.arrayValue else { return string(top, "validator") }
        let names = items.compactMap(\.stringValue)
        guard !names.isEmpty, names.count == items.count, !names.contains(where: { $0.isEmpty || $0.contains(",") })
        else {
            parser.error(
                "/validator",
                "\"validator\" is a profile name (\"segment\") or a non-empty list of them ([\"segment\", \"ga4\"])")
            return nil
        }
        return names.joined(separator: ",")
    }

    private mutating func bool(_ top: [String: JSONValue], _ key: String) -> Bool? {
        guard let value = top[key] else { return nil }
        guard let bool = value.boolValue else {
            parser.error(JSONPointer.appending("", key), "\"\(key)\" must be true or false")
            return nil
        }
        return bool
    }

    private mutating func enumValue<E: RawRepresentable & CaseIterable>(_ top: [String: JSONValue], _ key: String) -> E?
    where E.RawValue == String {
        guard let text = string(top, key) else { return nil }
        guard let value = E(rawValue: text) else {
            parser.error(
                JSONPointer.appending("", key),
                "\"\(key)\" must be one of \(E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \"\(text)\""
            )
            return nil
        }
        return value
    }

    private mutating func entries(_ top: [String: JSONValue], _ kind: ExpectedEntry.Kind) -> [ExpectedEntry] {
        let key = kind == .request ? "requests" : "events"
        guard let value = top[key] else { return [] }
        guard let items = value.arrayValue else {
            parser.error(JSONPointer.appending("", key), "\"\(key)\" must be an array")
            return []
        }
        let fields = ExpectedEntry.fields(kind)
        return items.enumerated().compactMap { index, item in
            let pointer = JSONPointer.appending(JSONPointer.appending("", key), index)
            guard let object = item.objectValue else {
                parser.error(pointer, "each of \"\(key)\" is an object, not \(item.typeName)")
                return nil
            }
            var members: [Matcher.Member] = []
            for field in object.keys.sorted() {
                let fieldPointer = JSONPointer.appending(pointer, field)
                guard fields.contains(field) || field == "description" else {
                    parser.keyError(
                        fieldPointer,
                        "unknown field \"\(field)\" in an expected \(kind.rawValue); use \(fields.joined(separator: ", "))"
                    )
                    continue
                }
                if field == "description" { continue }
                let matcher = parser.matcher(object[field]!, at: fieldPointer, lowercaseKeys: field == "headers")
                if kind == .request { warnNeverMatching(field, matcher, at: fieldPointer) }
                members.append(Matcher.Member(key: field, matcher: matcher))
            }
            return ExpectedEntry(kind: kind, path: pointer, matcher: .object(members, strict: nil))
        }
    }

    /// A literal `url` or `method` that no captured request's can equal, so that the entry can
    /// never pass (`FieldFilter.Field.neverMatching`: a url with a query, a fragment, capitals
    /// in its scheme or host, user info or no path; a method in lower case). The warning names
    /// what to write instead, and a query's fields as they go under `parameters`.
    private mutating func warnNeverMatching(_ field: String, _ matcher: Matcher, at pointer: String) {
        guard let field = FieldFilter.Field(key: field) else { return }
        parser.warnNeverMatching(field, matcher, at: pointer) { literal in
            let query = field == .url ? CapturedRequest(id: "", method: "GET", url: literal).queryItems : []
            guard !query.isEmpty else { return "" }
            let fields = JSONValue.object(CapturedRequest.parametersObject(query))
            return " and the query's fields under \"parameters\": \(fields.serialized())"
        }
    }

    /// A Szimpla entry: `{url, parameters, body}`, whose url carries the query.
    private mutating func szimplaEntry(_ item: JSONValue, at pointer: String) -> ExpectedEntry? {
        guard let object = item.objectValue else {
            parser.error(pointer, "each Szimpla entry is an object with \"url\", not \(item.typeName)")
            return nil
        }
        var members: [Matcher.Member] = []
        var parameters: [Matcher.Member] = []
        var queryParameters: [Matcher.Member] = []
        for key in object.keys.sorted() {
            let keyPointer = JSONPointer.appending(pointer, key)
            let value = object[key]!
            switch key {
            case "url":
                guard let url = value.stringValue else {
                    parser.error(keyPointer, "\"url\" must be a string")
                    continue
                }
                let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                let base = String(parts[0])
                members.append(
                    Matcher.Member(
                        key: "url", matcher: parser.szimplaMatcher(literal: base, pattern: base, at: keyPointer)))
                if parts.count > 1 {
                    // The literal is the decoded value (`+` is a space); the pattern keeps `+` as written.
                    let patterns = FormEncoding.pairs(Substring(parts[1].replacingOccurrences(of: "+", with: "%2B")))
                    for (item, pattern) in zip(FormEncoding.pairs(parts[1]), patterns) {
                        derivedLocations[
                            JSONPointer.appending(JSONPointer.appending(pointer, "parameters"), item.name)] =
                            document.locations[keyPointer]
                        queryParameters.append(
                            Matcher.Member(
                                key: item.name,
                                matcher: parser.szimplaMatcher(
                                    literal: item.value, pattern: pattern.value, at: keyPointer)))
                    }
                }
            case "parameters":
                if case .object(let explicit, _) = parser.matcher(value, at: keyPointer) { parameters += explicit }
            case "body":
                // Szimpla writes `"body": null`, and its README `"body": {}`, for "no body to compare".
                if value == .null || value == .object([:]) { continue }
                members.append(Matcher.Member(key: "body", matcher: parser.matcher(value, at: keyPointer)))
            case "method":
                members.append(Matcher.Member(key: "method", matcher: parser.matcher(value, at: keyPointer)))
            default:
                parser.keyError(keyPointer, "unknown key \"\(key)\" in a Szimpla entry; it has url, parameters, body")
            }
        }
        warnContradictions(query: queryParameters, explicit: parameters, at: pointer)
        parameters += queryParameters
        if !parameters.isEmpty {
            members.append(Matcher.Member(key: "parameters", matcher: .object(parameters, strict: nil)))
        }
        return ExpectedEntry(kind: .request, path: pointer, matcher: .object(members, strict: nil))
    }

    /// A parameter that the url's query and `parameters` both give, with values no one request
    /// can carry at once (`screens?name=vamonos` beside `"parameters": {"name": "quedamonOS"}`,
    /// as in Szimpla's own example app): the entry can never pass, so both places are warned.
    private mutating func warnContradictions(
        query: [Matcher.Member], explicit: [Matcher.Member], at pointer: String
    ) {
        for fromQuery in query {
            guard let given = explicit.first(where: { $0.key == fromQuery.key }),
                case .szimpla(let queryValue, _) = fromQuery.matcher, case .szimpla(let value, _) = given.matcher,
                !fromQuery.matcher.accepts(.string(value)), !given.matcher.accepts(.string(queryValue))
            else { continue }
            let message =
                "parameter \"\(fromQuery.key)\" is \(JSONValue.string(queryValue).serialized()) in the url's query and \(JSONValue.string(value).serialized()) in \"parameters\": no request carries both, so this entry can never pass"
            parser.warning(JSONPointer.appending(pointer, "url"), message)
            parser.warning(JSONPointer.appending(JSONPointer.appending(pointer, "parameters"), fromQuery.key), message)
        }
    }
}

extension Snapshot {
    fileprivate func with(warnings: [Diagnostic]) -> Snapshot {
        var copy = self
        copy.warnings = warnings
        return copy
    }
}
