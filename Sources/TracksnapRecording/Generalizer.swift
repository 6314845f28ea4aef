package import Foundation
import Patterns
package import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// The pass that makes a recorded entry hold on the next run: over the JSON `EntryRecorder`
/// builds, it writes volatile values (`VolatileShape`) as matchers and, given the same entry
/// from several runs, turns what differs between them into the narrowest matcher that accepts
/// every run.
///
/// ```swift
/// let generalizer = Generalizer(profile: profile)
/// var found: [Generalizer.Found] = []
/// let entry = generalizer.entry([recorded], kind: .request, runs: [.init(request: captured)], found: &found)
/// ```
/// Values that are already matchers (secrets `EntryRecorder` redacted) are left as they are;
/// so are the fields the profile's `"record": {"literal": […]}` names, and everything when
/// `"record": {"generalize": false}` turns shape detection off (values that differ between
/// runs still become matchers: that is what recording from several runs asks for). The fields
/// that say which entry it is (`method`; `vendor`, `type`, `name`) are never generalised.
package struct Generalizer {
    /// When and where one run's value was captured: epoch times count near `time`, the
    /// server's own origin is recognised in URLs.
    package struct Run {
        var time: Date
        var serverOrigin: String?

        package init(time: Date, serverOrigin: String? = nil) {
            self.time = time
            self.serverOrigin = serverOrigin
        }

        /// The request's capture time (`CapturedRequest.time`), else now.
        init(request: CapturedRequest) {
            self.init(time: request.time.flatMap(Self.date) ?? Date(), serverOrigin: request.serverOrigin)
        }

        private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        private static let withoutFraction = Date.ISO8601FormatStyle()

        private static func date(_ text: String) -> Date? {
            (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
        }
    }

    /// A value written as a matcher: its tokens relative to the entry, and why.
    struct Found: Hashable {
        var tokens: [String]
        var reason: String
    }

    static let differs = "differs between runs"
    /// Why strings that differ between runs with no shape and no digits in common are written as
    /// `{"$type": "string"}`: the loosest matcher a recording writes for them, which a renamed
    /// event inside a request's body would pass (`Generalization.summary` warns).
    package static let anyOfItsType = "differs between runs, no shape in common"
    /// An array learnt as `$unordered`.
    static let unordered = "the runs sent its elements in different orders"
    /// A field of the profile's `environment`, left out: it describes the machine, not the app.
    static let environment = "environment"
    /// A key some runs sent and others did not, left out: objects match as a subset.
    static let notInEveryRun = "not sent in every run"

    let detectsShapes: Bool
    let literal: IgnoreRules
    /// The profile's `environment` keys (bare names, as the data spells them), freed inside JSON
    /// text carried in a string, where its pointers cannot reach.
    let environmentKeys: Set<String>

    init(profile: Profile) {
        self.init(
            detectsShapes: profile.generalizes, literal: profile.literal, environmentKeys: profile.environment.bareKeys)
    }

    init(detectsShapes: Bool, literal: IgnoreRules = IgnoreRules(), environmentKeys: Set<String> = []) {
        self.detectsShapes = detectsShapes
        self.literal = literal
        self.environmentKeys = environmentKeys
    }

    /// One entry, recorded from one run or from several (the same entry in each, run 1 first).
    ///
    /// - Parameters:
    ///   - values: the entry as `EntryRecorder` built it, once per run.
    ///   - kind: request or event: which fields are its identity, and whether `url` is a URL.
    ///   - runs: each value's capture time and server origin.
    ///   - found: receives what was written as a matcher.
    /// - Returns: the entry to write.
    func entry(_ values: [JSONValue], kind: ExpectedEntry.Kind, runs: [Run], found: inout [Found]) -> JSONValue {
        guard let first = values.first else { return .object([:]) }
        guard values.allSatisfy({ $0.objectValue != nil }) else { return first }
        let identity = ExpectedEntry.identityKeys(kind).subtracting(["url"])
        var out: [String: JSONValue] = [:]
        for key in Set(values.flatMap { $0.objectValue?.keys.map { $0 } ?? [] }).sorted() {
            guard values.allSatisfy({ $0[key] != nil }) else {
                found.append(Found(tokens: [key], reason: Self.notInEveryRun))
                continue
            }
            let members = values.compactMap { $0[key] }
            if identity.contains(key) {
                out[key] = members[0]
            } else if kind == .request, key == "url", !literal.ignores([key]) {
                out[key] = url(members, runs: runs, found: &found)
            } else {
                out[key] = value(members, tokens: [key], runs: runs, found: &found)
            }
        }
        return .object(out)
    }

    private func value(_ values: [JSONValue], tokens: [String], runs: [Run], found: inout [Found]) -> JSONValue {
        let first = values[0]
        if literal.ignores(tokens) { return first }
        if let matcher = values.first(where: Self.isMatcher) { return matcher }
        if values.allSatisfy({ $0.objectValue != nil }) {
            var out: [String: JSONValue] = [:]
            // A key some runs leave out is not expected: objects match as a subset. It is listed,
            // since a run may have lost it by mistake.
            let keys = Set(values.flatMap { $0.objectValue?.keys.map { $0 } ?? [] })
            for key in keys.sorted() {
                guard values.allSatisfy({ $0[key] != nil }) else {
                    found.append(Found(tokens: tokens + [key], reason: Self.notInEveryRun))
                    continue
                }
                out[key] = value(values.compactMap { $0[key] }, tokens: tokens + [key], runs: runs, found: &found)
            }
            return .object(out)
        }
        let arrays = values.compactMap(\.arrayValue)
        if arrays.count == values.count, let items = arrays.first {
            guard arrays.allSatisfy({ $0.count == items.count }) else {
                found.append(Found(tokens: tokens, reason: Self.differs))
                return ["$type": "array"]
            }
            if let counterparts = contentPairing(arrays, runs: runs) {
                // Each element learnt from its counterparts by content: an event's name stays literal.
                found.append(Found(tokens: tokens, reason: Self.unordered))
                return [
                    "$unordered": .array(
                        items.indices.map { e in
                            let paired =
                                [items[e]] + counterparts.enumerated().map { arrays[$0.offset + 1][$0.element[e]] }
                            var inner: [Found] = []
                            let element = value(paired, tokens: tokens + [String(e)], runs: runs, found: &inner)
                            found += inner.map {
                                Found(
                                    tokens: tokens + ["$unordered"] + $0.tokens.dropFirst(tokens.count),
                                    reason: $0.reason)
                            }
                            return element
                        })
                ]
            }
            return .array(
                items.indices.map { index in
                    value(arrays.map { $0[index] }, tokens: tokens + [String(index)], runs: runs, found: &found)
                })
        }
        if values.allSatisfy({ $0 == first }) {
            guard detectsShapes else { return first }
            if let shape = VolatileShape.of(first, capturedAt: runs[0].time, serverOrigin: runs[0].serverOrigin),
                values.count == 1 || shape.isAlwaysVolatile
            {
                found.append(Found(tokens: tokens, reason: shape.name))
                return shape.matcher
            }
            if let text = first.stringValue,
                let embedded = VolatileShape.inJSONText(
                    text, capturedAt: runs[0].time, allShapes: values.count == 1, environment: environmentKeys)
            {
                found.append(Found(tokens: tokens, reason: Self.inJSON(embedded.shapes)))
                return ["$regex": .string(embedded.pattern)]
            }
            return first
        }
        let learnt = Self.common(values, runs: runs, environment: environmentKeys)
        found.append(Found(tokens: tokens, reason: learnt.reason))
        return learnt.matcher
    }

    /// How the runs' arrays pair by content, when some run sent the same elements in another
    /// order: for each later run, the index of the counterpart of each of the first run's
    /// elements. Nil (pair by place) when a run has an element with no counterpart, or when
    /// pairing by content is no better than by place in every run.
    ///
    /// The first run's elements are priced as a recording of that run alone would write them
    /// (volatile values as patterns), by the alignment validation uses under `"order": "any"`.
    private func contentPairing(_ arrays: [[JSONValue]], runs: [Run]) -> [[Int]]? {
        let first = arrays[0]
        guard arrays.count > 1, first.count > 1 else { return nil }
        let single = Generalizer(detectsShapes: true, environmentKeys: environmentKeys)
        var parser = MatcherParser(document: JSONDocument(file: "", value: .null, locations: [:]))
        let matchers = first.map { element in
            var ignored: [Found] = []
            let recorded = single.value([element], tokens: [], runs: [runs[0]], found: &ignored)
            return parser.matcher(EntryRecorder.fillingSecretHoles(recorded), at: "")
        }
        var counterparts: [[Int]] = []
        var reordered = false
        for array in arrays.dropFirst() {
            let aligner = Aligner(
                elements: matchers, of: array.map(Self.data), ignore: IgnoreRules(), strictObjects: false, at: [])
            let alignment = aligner.align(order: .any)
            guard alignment.pairs.count == first.count else { return nil }
            var counterpart = Array(first.indices)
            for (e, a) in alignment.pairs { counterpart[e] = a }
            let byContent = alignment.pairs.reduce(0) { $0 + aligner.cost($1.expected, $1.actual) }
            let byPlace = first.indices.reduce(0) { $0 + aligner.cost($1, $1) }
            if counterpart != Array(first.indices), byContent < byPlace {
                reordered = true
                counterparts.append(counterpart)
            } else {
                counterparts.append(Array(first.indices))
            }
        }
        return reordered ? counterparts : nil
    }

    /// A recorded value as the captured data has it: `$$os` keys back to `$os` (matchers that
    /// hide a secret stay as they are).
    private static func data(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members) where !isMatcher(value):
            .object(
                Dictionary(
                    members.map { ($0.key.hasPrefix("$$") ? String($0.key.dropFirst()) : $0.key, data($0.value)) },
                    uniquingKeysWith: { first, _ in first }))
        case .array(let items): .array(items.map(data))
        default: value
        }
    }

    /// An entry's `url`: the local server's origin and volatile path segments as patterns, the
    /// rest escaped; URLs that differ between runs segment by segment.
    private func url(_ values: [JSONValue], runs: [Run], found: inout [Found]) -> JSONValue {
        let texts = values.compactMap(\.stringValue)
        guard texts.count == values.count else { return value(values, tokens: ["url"], runs: runs, found: &found) }
        var reasons: [String] = []
        // The origin: a local server's as a pattern (when shapes are detected), else as captured.
        let origins = zip(texts, runs).map { LocalOrigin($0, serverOrigin: $1.serverOrigin) }
        var prefix: String
        var rests: [String]
        if detectsShapes, origins.allSatisfy({ $0 != nil }), let origin = origins[0] {
            prefix = origin.pattern
            rests = origins.compactMap { $0?.rest }
            reasons.append("local-origin")
        } else {
            let heads = texts.map { text -> String in
                guard let end = text.range(of: "://") else { return "" }
                return String(text[..<(text[end.upperBound...].firstIndex(of: "/") ?? text.endIndex)])
            }
            guard
                let head = Self.common(heads.map(JSONValue.string), runs: runs).matcher.regexSource(
                    literalAllowed: true)
            else {
                found.append(Found(tokens: ["url"], reason: Self.differs))
                return ["$type": "string"]
            }
            if heads.contains(where: { $0 != heads[0] }) { reasons.append(Self.differs) }
            prefix = head
            rests = zip(texts, heads).map { String($0.dropFirst($1.count)) }
        }
        let segmentLists = rests.map { $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init) }
        guard segmentLists.allSatisfy({ $0.count == segmentLists[0].count }) else {
            let learnt = Self.common(values, runs: runs, environment: environmentKeys)
            found.append(Found(tokens: ["url"], reason: learnt.reason))
            return learnt.matcher
        }
        var segments: [String] = []
        for index in segmentLists[0].indices {
            let column = segmentLists.map { $0[index] }
            if column.allSatisfy({ $0 == column[0] }) {
                if detectsShapes, !column[0].isEmpty,
                    let shape = VolatileShape.of(.string(column[0]), capturedAt: runs[0].time),
                    values.count == 1 || shape.isAlwaysVolatile, let source = shape.matcher["$regex"]?.stringValue
                {
                    segments.append(source)
                    reasons.append(shape.name)
                } else {
                    segments.append(PatternEscaping.escape(column[0]))
                }
            } else {
                let learnt = Self.common(column.map(JSONValue.string), runs: runs)
                segments.append(learnt.matcher.regexSource(literalAllowed: false) ?? "[^/]+")
                reasons.append(learnt.reason)
            }
        }
        guard !reasons.isEmpty else { return values[0] }
        var unique: [String] = []
        for reason in reasons where !unique.contains(reason) { unique.append(reason) }
        found.append(Found(tokens: ["url"], reason: unique.joined(separator: ", ")))
        return ["$regex": .string(prefix + segments.joined(separator: "\\/"))]
    }

    /// The narrowest matcher accepting every one of these differing values: their common
    /// shape, else each differing run of digits as `[0-9]+` with the rest as captured, else
    /// their JSON type (`$any` when the types differ too). `runs` has one element per value.
    /// - Returns: the matcher, and the reason listed: the shape's name, `differs between runs`, or
    ///   `anyOfItsType` for `{"$type": "string"}`.
    package static func common(_ values: [JSONValue], runs: [Run], environment: Set<String> = []) -> (
        matcher: JSONValue, reason: String
    ) {
        if values.allSatisfy({ $0 == values[0] }) { return (values[0], differs) }
        let shapes = zip(values, runs).map { VolatileShape.of($0, capturedAt: $1.time, serverOrigin: $1.serverOrigin) }
        if let shape = shapes[0], shapes.allSatisfy({ $0 == shape }) { return (shape.matcher, shape.name) }
        let texts = values.compactMap(\.stringValue)
        if texts.count == values.count,
            let embedded = VolatileShape.inJSONText(
                texts[0], capturedAt: runs[0].time, allShapes: true, environment: environment),
            let pattern = try? Pattern(embedded.pattern), texts.allSatisfy({ (try? pattern.matches($0)) == true })
        {
            return (["$regex": .string(embedded.pattern)], inJSON(embedded.shapes))
        }
        if texts.count == values.count, let pattern = digitsPattern(texts) {
            return (["$regex": .string(pattern)], differs)
        }
        let types = values.map(type)
        if types.allSatisfy({ $0 == types[0] }) {
            // A count or an amount that differs is as loose as ever; a word that does may be a renamed event.
            return (["$type": .string(types[0])], types[0] == "string" ? anyOfItsType : differs)
        }
        if Set(types) == ["integer", "number"] { return (["$type": "number"], differs) }
        return (["$any": true], differs)
    }

    /// `epoch-s, hex in JSON text`: the shapes found inside a string of JSON, each once.
    private static func inJSON(_ shapes: [String]) -> String {
        var unique: [String] = []
        for shape in shapes where !unique.contains(shape) { unique.append(shape) }
        return unique.joined(separator: ", ") + " in JSON text"
    }

    /// `o-[0-9]+` for `o-1001` and `o-87`: the texts alike but for some runs of digits.
    private static func digitsPattern(_ texts: [String]) -> String? {
        let pieces = texts.map(digitRuns)
        guard pieces.allSatisfy({ $0.count == pieces[0].count }) else { return nil }
        var out = ""
        var varied = false
        for index in pieces[0].indices {
            let column = pieces.map { $0[index] }
            if column.allSatisfy({ $0 == column[0] }) {
                out += PatternEscaping.escape(column[0])
            } else if column.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) && $0.allSatisfy(\.isASCII) }) {
                out += "[0-9]+"
                varied = true
            } else {
                return nil
            }
        }
        return varied ? out : nil
    }

    /// The text cut where digits start and stop: `o-1001x` → `["o-", "1001", "x"]`; a text
    /// beginning with a digit starts with an empty piece, so pieces line up by parity.
    private static func digitRuns(_ text: String) -> [String] {
        var pieces: [String] = [""]
        var inDigits = false
        for character in text {
            let digit = character.isASCII && character.isNumber
            if digit != inDigits {
                pieces.append("")
                inDigits = digit
            }
            pieces[pieces.count - 1].append(character)
        }
        return pieces
    }

    private static func type(_ value: JSONValue) -> String {
        switch value {
        case .string: "string"
        case .number(let text): text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? "number" : "integer"
        case .bool: "boolean"
        case .object: "object"
        case .array: "array"
        case .null: "null"
        }
    }

    /// Whether a recorded value is a matcher (`{"$type": …}`, `{"$regex": …}`…) rather than data,
    /// whose keys beginning with `$` are written `$$`.
    static func isMatcher(_ value: JSONValue) -> Bool {
        guard let object = value.objectValue, object.count == 1, let key = object.keys.first else { return false }
        return key.hasPrefix("$") && !key.hasPrefix("$$")
    }
}

extension JSONValue {
    /// The pattern source of a literal string (escaped) or a `$regex`; nil for other matchers.
    fileprivate func regexSource(literalAllowed: Bool) -> String? {
        if let source = self["$regex"]?.stringValue, objectValue?.count == 1 { return source }
        if literalAllowed, let text = stringValue { return PatternEscaping.escape(text) }
        return nil
    }
}
