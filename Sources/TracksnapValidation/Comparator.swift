import Foundation
import JSONSchemaValidation
import Patterns
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// Compares one expected entry with one captured value and explains every difference.
///
/// With `explain` off it only counts checks and failures, which is what alignment needs to
/// price a pairing; with it on it also writes the findings.
struct Comparator {
    let ignore: IgnoreRules
    let strictObjects: Bool
    let explain: Bool
    let entry: String
    var findings: [Finding] = []
    private(set) var checks = 0
    private(set) var failures = 0
    private var tokens: [String] = []

    init(ignore: IgnoreRules, strictObjects: Bool, explain: Bool, entry: String) {
        self.ignore = ignore
        self.strictObjects = strictObjects
        self.explain = explain
        self.entry = entry
    }

    /// 0 when everything matched, 1 when nothing did.
    var cost: Double { checks == 0 ? 0 : Double(failures) / Double(checks) }

    mutating func compareEntry(_ matcher: Matcher, _ actual: JSONValue) {
        compare(matcher, actual, pointer: entry, lenient: false)
    }

    /// Compares one element of a `$unordered` with a captured element, to price their pairing.
    /// - Parameter tokens: the element's place in its entry (the array's tokens and its index).
    mutating func compareElement(_ matcher: Matcher, _ actual: JSONValue, tokens: [String], lenient: Bool) {
        self.tokens = tokens
        defer { self.tokens = [] }
        compare(matcher, actual, pointer: entry, lenient: lenient)
    }

    private mutating func fail(
        _ code: FindingCode, _ pointer: String, _ expected: JSONValue?, _ actual: JSONValue?,
        _ message: (String) -> String
    ) {
        failures += 1
        guard explain else { return }
        findings.append(
            Finding(code: code, path: pointer, entry: entry, expected: expected, actual: actual, message: message(here))
        )
    }

    private var here: String { tokens.isEmpty ? "the entry" : tokens.joined(separator: ".") }

    private mutating func compare(_ matcher: Matcher, _ actual: JSONValue?, pointer: String, lenient: Bool) {
        checks += 1
        switch matcher {
        case .absent:
            if let actual { fail(.unexpectedKey, pointer, matcher.json, actual, { "\($0) must be absent" }) }
            return
        case .any:
            if actual == nil { fail(.missingKey, pointer, matcher.json, nil, { "\($0) is missing" }) }
            return
        default: break
        }
        guard let actual else {
            fail(.missingKey, pointer, matcher.json, nil, { "\($0) is missing" })
            return
        }
        switch matcher {
        case .literal(let expected): compareLiteral(expected, actual, pointer: pointer, lenient: lenient)
        case .exact(let expected): compareLiteral(expected, actual, pointer: pointer, lenient: false)
        case .regex(let pattern): compareRegex(pattern, matcher, actual, pointer: pointer)
        case .szimpla(let string, let pattern): compareSzimpla(string, pattern, matcher, actual, pointer: pointer)
        case .jsonSchema(let schema): compareSchema(schema, actual)
        case .type(let type): compareType(type, matcher, actual, pointer: pointer)
        case .object(let members, let strict):
            compareObject(members, strict: strict, matcher, actual, pointer: pointer, lenient: lenient)
        case .array(let items): compareArray(items, matcher, actual, pointer: pointer, lenient: lenient)
        case .unordered(let items): compareUnordered(items, matcher, actual, pointer: pointer, lenient: lenient)
        case .absent, .any:
            break
        }
    }

    /// A value, equal to it (`$exact`, or a literal, where parameters and headers may hold it as a string).
    private mutating func compareLiteral(_ expected: JSONValue, _ actual: JSONValue, pointer: String, lenient: Bool) {
        guard !Matcher.literalEquals(expected, actual, lenient: lenient) else { return }
        let sameType = expected.typeName == actual.typeName || (lenient && actual.typeName == "string")
        if sameType {
            fail(.valueMismatch, pointer, expected, actual, { "\($0) differs" })
        } else {
            fail(
                .typeMismatch, pointer, expected, actual,
                { "\($0) is \(actual.typeName), expected \(expected.typeName)" })
        }
    }

    /// A `$regex`: the scalar's text matches it whole.
    private mutating func compareRegex(_ pattern: Pattern, _ matcher: Matcher, _ actual: JSONValue, pointer: String) {
        guard let text = actual.scalarText else {
            fail(
                .typeMismatch, pointer, matcher.json, actual,
                { "\($0) is \(actual.typeName); a pattern matches strings, numbers and booleans" })
            return
        }
        do {
            if try !pattern.matches(text) {
                fail(.patternMismatch, pointer, matcher.json, actual, { "\($0) does not match the pattern" })
            }
        } catch {
            fail(.patternMismatch, pointer, matcher.json, actual, { "\($0): \(error.description)" })
        }
    }

    /// A Szimpla value: equal to the string, or matched by it read as a pattern.
    private mutating func compareSzimpla(
        _ string: String, _ pattern: Pattern?, _ matcher: Matcher, _ actual: JSONValue, pointer: String
    ) {
        guard let text = actual.scalarText else {
            fail(.typeMismatch, pointer, matcher.json, actual, { "\($0) is \(actual.typeName), expected a string" })
            return
        }
        if text != string, ((try? pattern?.matches(text)) ?? false) != true {
            fail(
                .patternMismatch, pointer, matcher.json, actual,
                { "\($0) neither equals nor matches the expected value" })
        }
    }

    /// A `$jsonSchema`: one finding per violation, standing at the failing keyword in the snapshot,
    /// whose line reports show.
    private mutating func compareSchema(_ matcher: Matcher.SchemaMatcher, _ actual: JSONValue) {
        guard !matcher.schema.isValid(actual) else { return }
        failures += 1
        guard explain else { return }
        for violation in matcher.schema.validate(actual) {
            let fragment = violation.schemaPath.split(separator: "#", maxSplits: 1).last.map(String.init) ?? ""
            let keyword = fragment.removingPercentEncoding ?? fragment
            let instance = violation.instancePath
            findings.append(
                Finding(
                    code: .schemaMismatch, path: matcher.pointer + keyword, entry: entry,
                    expected: matcher.json.value(atPointer: keyword),
                    actual: actual.value(atPointer: instance),
                    message: "\(here)\(instance): \(violation.keyword): \(violation.message)"))
        }
    }

    /// A `$type`.
    private mutating func compareType(
        _ type: Matcher.ValueType, _ matcher: Matcher, _ actual: JSONValue, pointer: String
    ) {
        if !type.accepts(actual) {
            fail(
                .typeMismatch, pointer, matcher.json, actual,
                { "\($0) is \(actual.typeName), expected \(type.rawValue)" })
        }
    }

    /// An object: each listed member compared, and with strictness, every other key one finding.
    private mutating func compareObject(
        _ members: [Matcher.Member], strict: Bool?, _ matcher: Matcher, _ actual: JSONValue, pointer: String,
        lenient: Bool
    ) {
        guard let object = actual.objectValue else {
            fail(.typeMismatch, pointer, matcher.json, actual, { "\($0) is \(actual.typeName), expected an object" })
            return
        }
        for member in members {
            tokens.append(member.token)
            defer { tokens.removeLast() }
            if !ignore.isEmpty, ignore.ignores(tokens) { continue }
            // Parameters and headers are strings on the wire: `12` in a snapshot means "12".
            let childLenient = lenient || (tokens.count == 1 && (member.key == "parameters" || member.key == "headers"))
            compare(
                member.matcher, object[member.key],
                pointer: explain ? JSONPointer.appending(pointer, member.token) : "", lenient: childLenient)
        }
        // Strictness applies inside an entry, never to the entry's own fields or to headers.
        guard strict ?? (strictObjects && !tokens.isEmpty && tokens.first != "headers") else { return }
        let known = Set(members.map(\.key))
        for key in object.keys.sorted() where !known.contains(key) {
            tokens.append(Matcher.Member.token(for: key))
            defer { tokens.removeLast() }
            if !ignore.isEmpty, ignore.ignores(tokens) { continue }
            checks += 1
            fail(
                .unexpectedKey, explain ? JSONPointer.appending(pointer, Matcher.Member.token(for: key)) : "",
                nil, object[key], { "\($0) is not expected (strict object)" })
        }
    }

    /// An array in order: element by element, then its length. When only the order differs
    /// (each element matches one captured element exactly), one `order_mismatch` at the array
    /// says so, in place of a difference per element.
    private mutating func compareArray(
        _ items: [Matcher], _ matcher: Matcher, _ actual: JSONValue, pointer: String, lenient: Bool
    ) {
        guard let array = actual.arrayValue else {
            fail(.typeMismatch, pointer, matcher.json, actual, { "\($0) is \(actual.typeName), expected an array" })
            return
        }
        let before = (failures: failures, findings: findings.count)
        defer {
            if explain, failures > before.failures, isPermutation(items, of: array, lenient: lenient) {
                findings.removeSubrange(before.findings...)
                findings.append(
                    Finding(
                        code: .orderMismatch, path: pointer, entry: entry,
                        message: "\(here) holds the \(items.count) expected elements in another order "
                            + "(where their order does not matter, the snapshot can write {\"$unordered\": […]})"))
            }
        }
        for (index, item) in items.enumerated() {
            tokens.append(String(index))
            defer { tokens.removeLast() }
            if !ignore.isEmpty, ignore.ignores(tokens) { continue }
            compare(
                item, index < array.count ? array[index] : nil,
                pointer: explain ? JSONPointer.appending(pointer, index) : "", lenient: lenient)
        }
        if array.count != items.count {
            fail(
                .countMismatch, pointer, .number(items.count), .number(array.count),
                { "\($0) has \(array.count) elements, expected \(items.count)" })
        }
    }

    /// Whether the captured array holds exactly the expected elements, in another order.
    private func isPermutation(_ items: [Matcher], of array: [JSONValue], lenient: Bool) -> Bool {
        guard items.count == array.count, items.count > 1 else { return false }
        let aligner = Aligner(
            elements: items, of: array, ignore: ignore, strictObjects: strictObjects, at: tokens, lenient: lenient)
        let alignment = aligner.align(order: .any)
        return alignment.pairs.count == items.count && alignment.pairs.allSatisfy { aligner.cost($0, $1) == 0 }
    }

    /// A `$unordered`: its elements paired with the captured ones by content (the alignment of
    /// `"order": "any"`), each pair compared as a field is; an element nothing pairs with is one
    /// `missing_key` at its place in the snapshot, a captured element left over one
    /// `unexpected_key` at the `$unordered`, naming its index. The length is not a finding of its own.
    private mutating func compareUnordered(
        _ items: [Matcher], _ matcher: Matcher, _ actual: JSONValue, pointer: String, lenient: Bool
    ) {
        guard let array = actual.arrayValue else {
            fail(.typeMismatch, pointer, matcher.json, actual, { "\($0) is \(actual.typeName), expected an array" })
            return
        }
        let alignment = Aligner(
            elements: items, of: array, ignore: ignore, strictObjects: strictObjects, at: tokens, lenient: lenient
        ).align(order: .any)
        let list = explain ? JSONPointer.appending(pointer, "$unordered") : ""
        for (e, a) in alignment.pairs {
            tokens.append(String(a))
            defer { tokens.removeLast() }
            compare(items[e], array[a], pointer: explain ? JSONPointer.appending(list, e) : "", lenient: lenient)
        }
        for e in alignment.missing {
            checks += 1
            fail(
                .missingKey, explain ? JSONPointer.appending(list, e) : "", items[e].json, nil,
                { "\($0) has no element that $unordered/\(e) matches" })
        }
        for a in (alignment.unexpected + alignment.duplicates.map(\.actual)).sorted() {
            tokens.append(String(a))
            defer { tokens.removeLast() }
            checks += 1
            fail(
                .unexpectedKey, list, nil, array[a],
                { "\($0) is not expected: no element of $unordered pairs with it" })
        }
    }
}
