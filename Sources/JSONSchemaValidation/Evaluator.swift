import Patterns
import TracksnapJSON

/// What in-place subschemas evaluated, for `unevaluatedProperties` and `unevaluatedItems`; only
/// kept below a schema that has one of them.
struct Annotations {
    var properties: Set<String> = []
    /// How many leading items were evaluated (`prefixItems`, `items` as an array).
    var items = 0
    var allItems = false
    /// The items `contains` matched.
    var containedItems: Set<Int> = []

    mutating func merge(_ other: Annotations) {
        properties.formUnion(other.properties)
        items = max(items, other.items)
        allItems = allItems || other.allItems
        containedItems.formUnion(other.containedItems)
    }
}

/// One validation of one instance: walks the compiled nodes, keeping the instance path and
/// the failures only when they are asked for.
struct Evaluator {
    private enum PathToken {
        case key(String)
        case index(Int)
    }

    /// How deep schemas may nest on one instance value (a `$ref` cycle that never moves into
    /// the instance fails here rather than exhausting the stack); entering a member or an item
    /// starts again, so a recursive schema follows a deep instance.
    static let depthLimit = 100
    /// How deep evaluation may go in all: an instance nested hundreds deep fails with a message
    /// rather than overflowing the stack of the thread validating it (a task's is small).
    static let totalDepthLimit = 500
    /// The most subschema evaluations one validation of one instance makes: `$ref`s that fan
    /// out through `anyOf` and `oneOf` can ask 2^22 of them of one small event. Beyond it the
    /// instance fails with a violation naming the bound.
    static let evaluationLimit = 1_000_000

    /// Why an evaluation stopped before its end.
    enum Stop {
        /// The task it runs in was cancelled: its caller is gone.
        case cancelled
        /// It made more than `evaluationLimit` evaluations.
        case exhausted
    }

    let program: Program
    /// nil while only validity is wanted: then the first failure ends the evaluation.
    var violations: [SchemaViolation]?
    private var path: [PathToken] = []
    private var dynamicScope: [Int] = []
    private var depth = 0
    private var totalDepth = 0
    /// Whether the branches of an `anyOf` or `oneOf` are being evaluated again for a message.
    private var explaining = false
    /// The first pattern that hit PCRE2's match or depth limit: it decided nothing.
    private(set) var limit: PatternError?
    private var evaluations = 0
    /// Set once the evaluation stops early; every evaluation then fails at once.
    private(set) var stop: Stop?

    init(program: Program, collectsViolations: Bool) {
        self.program = program
        violations = collectsViolations ? [] : nil
    }

    mutating func evaluate(_ index: Int, _ instance: JSONValue, _ annotations: inout Annotations?) -> Bool {
        evaluations += 1
        // Asked every 1024 evaluations: the task's flag is an atomic load, not free.
        if stop == nil, evaluations & 1023 == 0, Task.isCancelled { stop = .cancelled }
        if stop == nil, evaluations > Self.evaluationLimit { stop = .exhausted }
        if stop != nil { return false }
        let node = program.nodes[index]
        depth += 1
        totalDepth += 1
        defer {
            depth -= 1
            totalDepth -= 1
        }
        guard depth <= Self.depthLimit, totalDepth <= Self.totalDepthLimit else {
            guard let first = node.checks.first else { return false }
            let message =
                depth > Self.depthLimit
                ? "schemas nest more than \(Self.depthLimit) deep on one value (a $ref cycle?)"
                : "the instance nests too deep to validate (more than \(Self.totalDepthLimit) schemas deep)"
            return fail(first, instance, message)
        }
        let entersResource = program.usesDynamicScope && dynamicScope.last != node.resource
        if entersResource { dynamicScope.append(node.resource) }
        defer { if entersResource { dynamicScope.removeLast() } }
        var local: Annotations? = annotations != nil || node.tracksEvaluation ? Annotations() : nil
        var valid = true
        for check in node.checks where !apply(check, instance, &local) {
            valid = false
            if violations == nil { break }
        }
        if valid, var merged = annotations, let local {
            merged.merge(local)
            annotations = merged
        }
        return valid
    }

    /// Evaluates without recording failures: a branch of `anyOf`, `not`, `if`, `contains`.
    private mutating func quietly(_ index: Int, _ instance: JSONValue, _ annotations: inout Annotations?) -> Bool {
        guard violations != nil else { return evaluate(index, instance, &annotations) }
        let saved = violations
        violations = nil
        defer { violations = saved }
        return evaluate(index, instance, &annotations)
    }

    private mutating func quietly(_ index: Int, _ instance: JSONValue) -> Bool {
        var none: Annotations?
        return quietly(index, instance, &none)
    }

    /// Evaluates a subschema on a member or item, whose annotations stay its own.
    private mutating func evaluate(_ index: Int, _ instance: JSONValue, at token: PathToken) -> Bool {
        let tracking = violations != nil
        if tracking { path.append(token) }
        defer { if tracking { path.removeLast() } }
        let outer = depth
        depth = 0
        defer { depth = outer }
        var none: Annotations?
        return evaluate(index, instance, &none)
    }

    /// Applies `program.checks[check]`; its site is read only when it fails.
    private mutating func apply(_ check: Int, _ instance: JSONValue, _ annotations: inout Annotations?) -> Bool {
        switch program.checks[check] {
        case .never:
            return fail(check, instance, "\(Self.brief(instance)) is not allowed here")
        case .type(let types):
            return Self.matches(instance, types)
                ? true : fail(check, instance, "\(Self.brief(instance)) is not of type \(Self.names(types))")
        case .enumeration(let values):
            // A string equals only an equal string (JSONEquality's rule for strings), compared as it is.
            if case .string(let text) = instance {
                for case .string(let value) in values where value == text { return true }
            } else if values.contains(where: { JSONEquality.equal($0, instance) }) {
                return true
            }
            return fail(check, instance, "\(Self.brief(instance)) is not one of \(Self.brief(.array(values)))")
        case .constant(let value):
            return JSONEquality.equal(value, instance)
                ? true : fail(check, instance, "\(Self.brief(instance)) is not \(Self.brief(value))")
        case .bound(let bound, let kind, let integer):
            guard case .number(let text) = instance else { return true }
            let order: Int
            if let integer, let plain = Self.order(of: text, to: integer) {
                order = plain
            } else if let number = ExactNumber(text) {
                order = number < bound ? -1 : number == bound ? 0 : 1
            } else if let value = Double(text) {
                // An exponent past a quarter of Int's range: as a Double, it is infinite or zero.
                order = value < bound.doubleValue ? -1 : value == bound.doubleValue ? 0 : 1
            } else {
                return true
            }
            let valid =
                switch kind {
                case .minimum: order >= 0
                case .exclusiveMinimum: order > 0
                case .maximum: order <= 0
                case .exclusiveMaximum: order < 0
                }
            if valid { return true }
            let relation =
                switch kind {
                case .minimum: "less than"
                case .exclusiveMinimum: "less than or equal to"
                case .maximum: "greater than"
                case .exclusiveMaximum: "greater than or equal to"
                }
            let keyword = program.sites[check].keyword
            return fail(check, instance, "\(text) is \(relation) the \(keyword)")
        case .multipleOf(let divisor, let integer):
            guard case .number(let text) = instance else { return true }
            if let integer, let value = Int(text) {
                return value % integer == 0 ? true : fail(check, instance, "\(text) is not a multiple of \(integer)")
            }
            guard let number = ExactNumber(text) else { return true }
            switch number.isMultiple(of: divisor) {
            case true?:
                return true
            case false?:
                return fail(check, instance, "\(Self.brief(instance)) is not a multiple of the divisor")
            case nil:
                // Failed closed: a number that would hold the validation up is no valid one.
                return fail(
                    check, instance,
                    "\(Self.brief(instance)) is not checked against multipleOf: dividing it would take more than \(ExactNumber.longDivisionBound) digit operations, the bound"
                )
            }
        case .minLength(let minimum):
            // A scalar is at most four bytes: that many bytes are enough scalars, without counting them.
            guard case .string(let text) = instance, text.utf8.count / 4 < minimum, text.unicodeScalars.count < minimum
            else { return true }
            return fail(check, instance, "\(Self.brief(instance)) is shorter than \(minimum) characters")
        case .maxLength(let maximum):
            guard case .string(let text) = instance, text.utf8.count > maximum, text.unicodeScalars.count > maximum
            else { return true }
            return fail(check, instance, "\(Self.brief(instance)) is longer than \(maximum) characters")
        case .pattern(let pattern):
            guard case .string(let text) = instance else { return true }
            do {
                return try pattern.matches(text)
                    ? true : fail(check, instance, "\(Self.brief(instance)) does not match \(pattern.source)")
            } catch {
                if limit == nil { limit = error }
                return fail(check, instance, "\(Self.brief(instance)) could not be matched: \(error)")
            }
        case .format(let format):
            guard case .string(let text) = instance, !format.accepts(text) else { return true }
            return fail(check, instance, "\(Self.brief(instance)) is not a valid \(format.rawValue)")
        case .minItems(let minimum):
            guard case .array(let items) = instance, items.count < minimum else { return true }
            return fail(check, instance, "the array has \(items.count) items, fewer than \(minimum)")
        case .maxItems(let maximum):
            guard case .array(let items) = instance, items.count > maximum else { return true }
            return fail(check, instance, "the array has \(items.count) items, more than \(maximum)")
        case .uniqueItems:
            guard case .array(let items) = instance, let (i, j) = JSONEquality.firstDuplicate(in: items) else {
                return true
            }
            return fail(check, instance, "items \(i) and \(j) are equal")
        case .minProperties(let minimum):
            guard case .object(let members) = instance, members.count < minimum else { return true }
            return fail(check, instance, "the object has \(members.count) properties, fewer than \(minimum)")
        case .maxProperties(let maximum):
            guard case .object(let members) = instance, members.count > maximum else { return true }
            return fail(check, instance, "the object has \(members.count) properties, more than \(maximum)")
        case .required(let names, let inProperties):
            if inProperties, violations == nil { return true }
            guard case .object(let members) = instance else { return true }
            var valid = true
            for name in names where members[name] == nil {
                valid = fail(check, instance, "\"\(name)\" is a required property")
                if violations == nil { return false }
            }
            return valid
        case .dependentRequired(let dependencies):
            guard case .object(let members) = instance else { return true }
            var valid = true
            for (property, required) in dependencies where members[property] != nil {
                for name in required where members[name] == nil {
                    valid = fail(check, instance, "\"\(name)\" is required when \"\(property)\" is present")
                    if violations == nil { return false }
                }
            }
            return valid
        case .dependentSchemas(let dependencies):
            guard case .object(let members) = instance else { return true }
            var valid = true
            for (property, node) in dependencies
            where members[property] != nil && !evaluate(node, instance, &annotations) {
                valid = false
                if violations == nil { return false }
            }
            return valid
        case .properties(let applicator):
            return applyProperties(applicator, check, instance, &annotations)
        case .propertyNames(let node):
            guard case .object(let members) = instance else { return true }
            var valid = true
            for (name, _) in ordered(members) where !quietly(node, .string(name)) {
                let why = reason(node, .string(name))
                valid = fail(check, instance, "the property name \"\(name)\" is not valid\(why)")
                if violations == nil { return false }
            }
            return valid
        case .items(let prefix, let rest):
            guard case .array(let items) = instance else { return true }
            var valid = true
            for (offset, item) in items.enumerated() {
                let node: Int
                if offset < prefix.count {
                    node = prefix[offset]
                } else if let rest {
                    node = rest
                } else {
                    break
                }
                if !evaluate(node, item, at: .index(offset)) {
                    valid = false
                    if violations == nil { return false }
                }
            }
            if valid, var evaluated = annotations {
                evaluated.items = max(evaluated.items, min(prefix.count, items.count))
                evaluated.allItems = evaluated.allItems || rest != nil
                annotations = evaluated
            }
            return valid
        case .contains(let node, let minimum, let maximum):
            guard case .array(let items) = instance else { return true }
            var count = 0
            for (offset, item) in items.enumerated() where quietly(node, item) {
                count += 1
                annotations?.containedItems.insert(offset)
                if annotations == nil, maximum == nil, count >= minimum { break }
            }
            if count < minimum {
                return fail(check, instance, "the array contains \(count) matching items, fewer than \(minimum)")
            }
            if let maximum, count > maximum {
                return fail(check, instance, "the array contains \(count) matching items, more than \(maximum)")
            }
            return true
        case .allOf(let nodes):
            var valid = true
            for node in nodes where !evaluate(node, instance, &annotations) {
                valid = false
                if violations == nil { return false }
            }
            return valid
        case .anyOf(let nodes):
            var valid = false
            for node in nodes where quietly(node, instance, &annotations) {
                valid = true
                if annotations == nil { break }
            }
            guard !valid, violations != nil else { return valid }
            let message = noneMatched(nodes, instance)
            return fail(check, instance, message)
        case .oneOf(let nodes):
            var matched: [Int] = []
            for (offset, node) in nodes.enumerated() where quietly(node, instance, &annotations) {
                matched.append(offset)
                if matched.count > 1 { break }
            }
            if matched.count == 1 { return true }
            if matched.isEmpty {
                guard violations != nil else { return false }
                let message = noneMatched(nodes, instance)
                return fail(check, instance, message)
            }
            return fail(
                check, instance, "\(Self.brief(instance)) matches schemas \(matched[0]) and \(matched[1]), not one only"
            )
        case .not(let node):
            var none: Annotations?
            return quietly(node, instance, &none)
                ? fail(check, instance, "\(Self.brief(instance)) must not match the schema") : true
        case .conditional(let condition, let then, let otherwise):
            if then == nil, otherwise == nil, annotations == nil { return true }
            if quietly(condition, instance, &annotations) {
                return then.map { evaluate($0, instance, &annotations) } ?? true
            }
            return otherwise.map { evaluate($0, instance, &annotations) } ?? true
        case .ref(let node):
            return evaluate(node, instance, &annotations)
        case .dynamicRef(let node, let anchor):
            var target = node
            if let anchor {
                for resource in dynamicScope {
                    if let dynamic = program.dynamicAnchors[resource][anchor] {
                        target = dynamic
                        break
                    }
                }
            }
            return evaluate(target, instance, &annotations)
        case .unevaluatedProperties(let node):
            guard case .object(let members) = instance else { return true }
            var valid = true
            for (name, value) in ordered(members) where annotations?.properties.contains(name) != true {
                if !evaluate(node, value, at: .key(name)) {
                    valid = false
                    if violations == nil { return false }
                }
            }
            if valid { annotations?.properties.formUnion(members.keys) }
            return valid
        case .unevaluatedItems(let node):
            guard case .array(let items) = instance, annotations?.allItems != true else { return true }
            var valid = true
            let first = annotations?.items ?? 0
            for (offset, item) in items.enumerated().dropFirst(first)
            where annotations?.containedItems.contains(offset) != true && !evaluate(node, item, at: .index(offset)) {
                valid = false
                if violations == nil { return false }
            }
            if valid { annotations?.allItems = true }
            return valid
        }
    }

    /// Why a value failed a subschema, for a message about it: `: KEYWORD: MESSAGE` of its
    /// first failure (a `pattern` that hit PCRE2's match limit says so), or nothing when
    /// messages are not wanted.
    private mutating func reason(_ node: Int, _ instance: JSONValue) -> String {
        guard let outer = violations, !explaining else { return "" }
        explaining = true
        defer { explaining = false }
        violations = []
        var none: Annotations?
        _ = evaluate(node, instance, &none)
        let first = violations?.first
        violations = outer
        return first.map { ": \($0.keyword): \($0.message)" } ?? ""
    }

    private mutating func applyProperties(
        _ applicator: PropertyApplicator, _ check: Int, _ instance: JSONValue, _ annotations: inout Annotations?
    ) -> Bool {
        guard case .object(let members) = instance else { return true }
        var found: UInt64 = 0
        guard violations != nil else {
            for (name, value) in members
            where !applyProperty(name, value, applicator, check, instance, &found, &annotations) {
                return false
            }
            // The node's `required`, when it left its names to this check (`Node.fuseRequired()`).
            return found & applicator.required == applicator.required
        }
        var valid = true
        for (name, value) in ordered(members) {
            valid = applyProperty(name, value, applicator, check, instance, &found, &annotations) && valid
        }
        return valid
    }

    /// One member of an object against the subschemas `properties`, `patternProperties` and
    /// `additionalProperties` give it; whether it passed them.
    private mutating func applyProperty(
        _ name: String, _ value: JSONValue, _ applicator: PropertyApplicator, _ check: Int, _ instance: JSONValue,
        _ found: inout UInt64, _ annotations: inout Annotations?
    ) -> Bool {
        var valid = true
        var matched = false
        if let index = applicator.index(of: name) {
            matched = true
            if index < UInt64.bitWidth { found |= 1 << index }
            valid = evaluate(applicator.nodes[index], value, at: .key(name)) && valid
        }
        for (pattern, node) in applicator.patterns {
            do throws(PatternError) {
                guard try pattern.matches(name) else { continue }
            } catch {
                // Whether the member's subschema applies cannot be told: it fails closed, as
                // `pattern` does, rather than escape its subschema.
                matched = true
                if limit == nil { limit = error }
                valid = fail(check, instance, "the property name \"\(name)\" could not be matched: \(error)") && valid
                continue
            }
            matched = true
            valid = evaluate(node, value, at: .key(name)) && valid
        }
        if !matched, let node = applicator.additional {
            matched = true
            valid = evaluate(node, value, at: .key(name)) && valid
        }
        if valid || violations != nil, matched { annotations?.properties.insert(name) }
        return valid
    }

    /// An object's members in their keys' order, for a loop that collects failures: a report
    /// lists the same failures in the same order in every run, where a dictionary's order
    /// differs from one process to the next.
    private func ordered(_ members: [String: JSONValue]) -> [(key: String, value: JSONValue)] {
        members.sorted { $0.key < $1.key }
    }

    /// Why no branch of an `anyOf` or `oneOf` matched: the first failure of the branch that came
    /// nearest (fewest failures), the branches evaluated again only when messages are wanted.
    private mutating func noneMatched(_ nodes: [Int], _ instance: JSONValue) -> String {
        let summary = "\(Self.brief(instance)) matches none of the \(nodes.count) schemas"
        // Inside a branch being explained, a nested anyOf is not explained again: each level
        // would otherwise evaluate its branches once more, exponentially in the nesting.
        guard let outer = violations, !explaining else { return summary }
        explaining = true
        defer { explaining = false }
        var nearest: [SchemaViolation]?
        for node in nodes {
            violations = []
            var none: Annotations?
            _ = evaluate(node, instance, &none)
            if let found = violations, !found.isEmpty, found.count < nearest?.count ?? .max { nearest = found }
        }
        violations = outer
        guard let first = nearest?.first else { return summary }
        let place = first.instancePath == pointer ? "" : " at \(first.instancePath)"
        return summary + " (nearest: \(first.keyword)\(place): \(first.message))"
    }

    /// The instance's JSON Pointer where evaluation stands.
    private var pointer: String {
        var pointer = ""
        for token in path {
            switch token {
            case .key(let key): pointer = JSONPointer.appending(pointer, key)
            case .index(let index): pointer = JSONPointer.appending(pointer, index)
            }
        }
        return pointer
    }

    /// Records a failure when failures are collected; always false.
    private mutating func fail(_ check: Int, _ instance: JSONValue, _ message: @autoclosure () -> String) -> Bool {
        guard violations != nil else { return false }
        let site = program.sites[check]
        let pointer = pointer
        violations?.append(
            SchemaViolation(
                keyword: site.keyword, instancePath: pointer, schemaPath: site.schemaPath, file: site.file,
                location: site.location, message: message()))
        return false
    }

    /// How a number written `-?I` or `-?I.F` (`I` an `Int`, no exponent) compares with an integer
    /// bound, in one pass over its text and without reading its exact value: a fraction of only
    /// zeros is `I` itself, any other puts the value strictly between `I` and the next integer
    /// away from zero. Nil for any other text (an exponent, `I` past `Int`).
    static func order(of text: String, to bound: Int) -> Int? {
        // The bytes in place when the string has them so (a native string does), else one by one.
        if let order = text.utf8.withContiguousStorageIfAvailable({ order(ofUTF8: $0, to: bound) }) { return order }
        return order(ofUTF8: text.utf8, to: bound)
    }

    private static func order(ofUTF8 text: some Collection<UInt8>, to bound: Int) -> Int? {
        var negative = false
        var whole = 0
        var wholeDigits = 0
        var inFraction = false
        var fractionDigits = 0
        var fractionIsZero = true
        var position = 0
        for byte in text {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inFraction {
                    fractionDigits += 1
                    fractionIsZero = fractionIsZero && byte == UInt8(ascii: "0")
                } else {
                    let (tens, overflow) = whole.multipliedReportingOverflow(by: 10)
                    let (sum, carry) = tens.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
                    guard !overflow, !carry else { return nil }
                    whole = sum
                    wholeDigits += 1
                }
            case UInt8(ascii: "."):
                guard !inFraction, wholeDigits > 0 else { return nil }
                inFraction = true
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard position == 0 else { return nil }
                negative = byte == UInt8(ascii: "-")
            default:
                return nil
            }
            position += 1
        }
        guard wholeDigits > 0, !inFraction || fractionDigits > 0 else { return nil }
        if negative { whole = -whole }
        if fractionIsZero { return whole < bound ? -1 : whole == bound ? 0 : 1 }
        // Above `whole` when positive, below it when negative ("-0.5" too: `whole` is 0).
        return negative ? (whole <= bound ? -1 : 1) : (whole < bound ? -1 : 1)
    }

    static func matches(_ instance: JSONValue, _ types: JSONTypes) -> Bool {
        switch instance {
        case .null: types.contains(.null)
        case .bool: types.contains(.boolean)
        case .string: types.contains(.string)
        case .array: types.contains(.array)
        case .object: types.contains(.object)
        case .number(let text):
            types.contains(.number)
                || (types.contains(.integer) && Self.isInteger(text, byValue: !types.contains(.draft4Integers)))
        }
    }

    /// Whether a number is an integer: by value from draft-06 (`1.0` is), by its text in draft-04.
    private static func isInteger(_ text: String, byValue: Bool) -> Bool {
        let plain = text.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
        }
        if plain || !byValue { return plain }
        return ExactNumber(text)?.isInteger ?? false
    }

    private static func names(_ types: JSONTypes) -> String {
        let all: [(JSONTypes, String)] = [
            (.null, "null"), (.boolean, "boolean"), (.object, "object"), (.array, "array"), (.number, "number"),
            (.string, "string"), (.integer, "integer"),
        ]
        return all.filter { types.contains($0.0) }.map(\.1).joined(separator: " or ")
    }

    /// A value as a message shows it: its JSON, cut short.
    static func brief(_ value: JSONValue) -> String {
        let text = value.serialized()
        guard text.count > 100 else { return text }
        return String(text.prefix(97)) + "…"
    }
}
