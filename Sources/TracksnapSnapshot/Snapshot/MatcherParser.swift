import JSONSchemaValidation
import Patterns
package import TracksnapJSON
import TracksnapTraffic

/// Turns the JSON of a snapshot (or a profile's filter) into matchers, collecting every problem.
package struct MatcherParser {
    let document: JSONDocument
    /// Every string is a Szimpla pattern that also accepts its literal value.
    var szimpla = false
    package private(set) var diagnostics: [Diagnostic] = []

    package init(document: JSONDocument, szimpla: Bool = false) {
        self.document = document
        self.szimpla = szimpla
    }

    static let matcherKeys = ["$regex", "$type", "$any", "$absent", "$literal", "$jsonSchema", "$unordered"]

    package mutating func error(_ pointer: String, _ message: String) {
        diagnostics.append(
            Diagnostic(
                .error, file: document.file, path: pointer, location: document.locations[pointer], message: message))
    }

    /// An error about a key itself (unknown, misspelt): points at the key rather than its value.
    package mutating func keyError(_ pointer: String, _ message: String) {
        diagnostics.append(
            Diagnostic(
                .error, file: document.file, path: pointer,
                location: document.keyLocations[pointer] ?? document.locations[pointer], message: message))
    }

    package mutating func warning(_ pointer: String, _ message: String) {
        diagnostics.append(
            Diagnostic(
                .warning, file: document.file, path: pointer, location: document.locations[pointer], message: message))
    }

    /// A Szimpla string: the pattern it reads as, which also accepts its literal value. One that
    /// is not a valid pattern is compared literally, as Szimpla's own substring test did; the
    /// warning says where and why, so that `lint --strict` can refuse it.
    package mutating func szimplaMatcher(literal: String, pattern source: String, at pointer: String) -> Matcher {
        do {
            return .szimpla(literal, try Pattern.cached(source))
        } catch {
            warning(
                pointer,
                "\"\(source)\" is not a valid pattern (\(error.message)\(error.offset.map { " at offset \($0)" } ?? "")), so it is compared literally"
            )
            return .szimpla(literal, nil)
        }
    }

    /// - Parameter lowercaseKeys: look keys up lower-cased (HTTP headers).
    package mutating func matcher(_ value: JSONValue, at pointer: String, lowercaseKeys: Bool = false) -> Matcher {
        switch value {
        case .object(let members):
            if let special = members.keys.first(where: { $0.hasPrefix("$") && !$0.hasPrefix("$$") }) {
                return operatorMatcher(members, special: special, at: pointer)
            }
            // `$$os` is the data key `$os`: a key beginning with `$` would read as a matcher.
            let parsed = members.keys.sorted().map { key in
                let dataKey = key.hasPrefix("$$") ? String(key.dropFirst()) : key
                return Matcher.Member(
                    key: lowercaseKeys ? dataKey.lowercased() : dataKey, token: key,
                    matcher: matcher(members[key]!, at: JSONPointer.appending(pointer, key)))
            }
            return .object(parsed, strict: nil)
        case .array(let items):
            return .array(items.enumerated().map { matcher($1, at: JSONPointer.appending(pointer, $0)) })
        case .string(let string):
            if szimpla { return szimplaMatcher(literal: string, pattern: string, at: pointer) }
            if Self.looksLikePattern(string) {
                warning(
                    pointer,
                    "\"\(string)\" is compared literally but looks like a pattern; write {\"$regex\": \"\(string)\"} if a pattern was meant (a $regex must match the whole value: put .* before or after a part to find it inside)"
                )
            }
            return .literal(value)
        default:
            return .literal(value)
        }
    }

    private mutating func operatorMatcher(_ members: [String: JSONValue], special: String, at pointer: String)
        -> Matcher
    {
        let keyPointer = JSONPointer.appending(pointer, special)
        guard members.count == 1 else {
            error(
                pointer,
                "a matcher object holds exactly one key, here \(members.keys.sorted().joined(separator: ", ")); write a data key beginning with $ as $$ (\"$$os\" for \"$os\")"
            )
            return .any
        }
        let argument = members[special]!
        switch special {
        case "$regex":
            guard case .string(let source) = argument else {
                error(keyPointer, "$regex takes a string, not \(argument.typeName)")
                return .any
            }
            if !Self.hasMetacharacter(source) {
                warning(keyPointer, "$regex \"\(source)\" has no metacharacter: a plain literal says the same")
            }
            do {
                return .regex(try Pattern.cached(source))
            } catch {
                self.error(keyPointer, error.description)
                return .any
            }
        case "$type":
            guard let name = argument.stringValue, let type = Matcher.ValueType(rawValue: name) else {
                error(
                    keyPointer,
                    "$type takes one of \(Matcher.ValueType.allCases.map(\.rawValue).joined(separator: ", "))")
                return .any
            }
            return .type(type)
        case "$any", "$absent":
            guard argument == .bool(true) else {
                error(keyPointer, "\(special) takes true")
                return .any
            }
            return special == "$any" ? .any : .absent
        case "$literal":
            return .exact(argument)
        case "$unordered":
            guard let items = argument.arrayValue else {
                error(
                    keyPointer,
                    "$unordered takes an array of the elements expected in any order, not \(argument.typeName)")
                return .any
            }
            return .unordered(items.enumerated().map { matcher($1, at: JSONPointer.appending(keyPointer, $0)) })
        case "$jsonSchema":
            guard argument.objectValue != nil || argument.boolValue != nil else {
                error(
                    keyPointer,
                    "$jsonSchema takes a JSON Schema (an object, or true or false), not \(argument.typeName)")
                return .any
            }
            // The schema as a document of its own, its values where they stand in this file, so
            // that a bad keyword, and later a failing one, is reported at its line.
            var locations: [String: SourceLocation] = [:]
            for (pointer, location) in document.locations where pointer.hasPrefix(keyPointer) {
                let rest = pointer.dropFirst(keyPointer.count)
                if rest.isEmpty || rest.hasPrefix("/") { locations[String(rest)] = location }
            }
            do {
                let schema = try JSONSchema(JSONDocument(file: document.file, value: argument, locations: locations))
                return .jsonSchema(Matcher.SchemaMatcher(schema: schema, json: argument, pointer: keyPointer))
            } catch {
                for diagnostic in error.diagnostics {
                    var placed = diagnostic
                    placed.path = diagnostic.path.map { keyPointer + $0 }
                    diagnostics.append(placed)
                }
                return .any
            }
        default:
            keyError(
                keyPointer,
                "unknown matcher \(special): use one of \(Self.matcherKeys.joined(separator: ", ")), or write a data key beginning with $ as $$ (\"$$\(special.dropFirst())\" for \"\(special)\")"
            )
            return .any
        }
    }

    static func hasMetacharacter(_ source: String) -> Bool {
        source.contains { "\\^$.|?*+()[]{}".contains($0) }
    }

    /// A literal string that a person probably meant as a pattern: `[0-9]+`, `.*`, `\d`.
    static func looksLikePattern(_ string: String) -> Bool {
        let bytes = Array(string.utf8)
        if bytes.count > 2, bytes.first == UInt8(ascii: "^"), bytes.last == UInt8(ascii: "$") { return true }
        return patternHints.contains { hint in
            hint.count <= bytes.count
                && (0...(bytes.count - hint.count)).contains { bytes[$0..<($0 + hint.count)].elementsEqual(hint) }
        }
    }

    private static let patternHints: [[UInt8]] = [
        ".*", ".+", "\\d", "\\w", "\\s", "\\.", "[0-9]", "[a-z]", "[A-Z]", "]+", "]*", "]{", "(?:", "\\/",
    ].map { Array($0.utf8) }
}

extension MatcherParser {
    /// Warns when a literal for a request's field is written so that no request's field can
    /// equal it (`FieldFilter.Field.neverMatching`), naming what to write; `more` adds to the
    /// warning from the literal (a snapshot's query fields, which go under `parameters`). A
    /// pattern is left alone (its `?` is a quantifier).
    package mutating func warnNeverMatching(
        _ field: FieldFilter.Field, _ matcher: Matcher, at pointer: String, more: (String) -> String = { _ in "" }
    ) {
        guard case .literal(.string(let literal)) = matcher, let fix = field.neverMatching(literal) else { return }
        warning(
            pointer,
            "\"\(field.key)\" can never match: \(fix.because); write \(JSONValue.string(fix.write).serialized())"
                + more(literal))
    }
}
