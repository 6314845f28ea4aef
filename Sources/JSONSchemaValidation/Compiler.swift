import Foundation
import Patterns
import TracksnapJSON

/// Turns the schemas of a registry into a `Program`, once: every keyword read, every `$ref`
/// resolved, every pattern compiled; what cannot be is a diagnostic at the schema's location.
struct Compiler {
    let registry: SchemaRegistry
    let assertsFormats: Bool
    private var nodes: [Node] = []
    private var dynamicAnchors: [[String: Int]] = []
    private var usesDynamicScope = false
    private(set) var diagnostics: [Diagnostic] = []
    private var nodeIndex: [SchemaRegistry.Location: Int] = [:]
    private var resourceIndex: [String: Int] = [:]
    private var vocabularyCache: [String: Set<String>] = [:]

    init(registry: SchemaRegistry, assertsFormats: Bool) {
        self.registry = registry
        self.assertsFormats = assertsFormats
    }

    /// What was compiled, as evaluation reads it.
    var program: Program {
        Program(nodes: nodes, dynamicAnchors: dynamicAnchors, usesDynamicScope: usesDynamicScope)
    }

    /// The node of the schema at `location`, compiled on first use.
    mutating func compile(_ location: SchemaRegistry.Location) -> Int {
        if let index = nodeIndex[location] { return index }
        let index = nodes.count
        nodes.append(Node())
        nodeIndex[location] = index
        guard let value = registry.value(at: location) else {
            report("no schema at \(location.pointer)", at: location)
            return index
        }
        let info = registry.info(at: location)
        var node = Node()
        node.resource = resource(info.base)
        switch value {
        case .bool(true): break
        case .bool(false): node.append(.never, site(location, keyword: ""))
        case .object(let object):
            compileObject(object, at: location, info: info, into: &node)
            node.fuseRequired()
        default: report("a schema must be an object or a boolean, not \(value.typeName)", at: location)
        }
        nodes[index] = node
        return index
    }

    /// The index of the schema resource `base`, its `$dynamicAnchor`s compiled on first use.
    private mutating func resource(_ base: String) -> Int {
        if let index = resourceIndex[base] { return index }
        let index = dynamicAnchors.count
        dynamicAnchors.append([:])
        resourceIndex[base] = index
        let prefix = base + "#"
        var anchors: [String: Int] = [:]
        for (key, location) in registry.dynamicAnchors where key.hasPrefix(prefix) {
            anchors[String(key.dropFirst(prefix.count))] = compile(location)
        }
        dynamicAnchors[index] = anchors
        return index
    }

    // The order checks run in: cheap assertions first, applicators next, `unevaluated*` last
    // (they need what the others evaluated).
    private static let order = [
        "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
        "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems", "minProperties",
        "maxProperties", "required", "dependentRequired", "dependencies", "$ref", "$dynamicRef", "properties",
        "propertyNames", "dependentSchemas", "items", "contains", "allOf", "anyOf", "oneOf", "not",
        "if", "unevaluatedProperties", "unevaluatedItems",
    ]

    private mutating func compileObject(
        _ object: [String: JSONValue], at location: SchemaRegistry.Location, info: SchemaRegistry.SchemaInfo,
        into node: inout Node
    ) {
        let draft = info.draft
        var known = Keywords.assertions(of: draft)
        if draft == .draft2020_12, let metaSchema = info.metaSchema { known.formIntersection(vocabulary(metaSchema)) }
        if draft.refOverridesSiblings, let reference = object["$ref"] {
            compileReference(reference, keyword: "$ref", at: location, base: info.base, into: &node)
            return
        }
        for keyword in Self.order where known.contains(keyword) {
            // One check for `properties`, `patternProperties` and `additionalProperties`, and one
            // for the items keywords, whichever of them the schema has.
            let value: JSONValue? =
                switch keyword {
                case "properties": object["properties"] ?? object["patternProperties"] ?? object["additionalProperties"]
                case "items": object["items"] ?? (draft == .draft2020_12 ? object["prefixItems"] : nil)
                default: object[keyword]
                }
            guard let value else { continue }
            compileKeyword(keyword, value, object, at: location, info: info, into: &node)
        }
    }

    private mutating func compileKeyword(
        _ keyword: String, _ value: JSONValue, _ object: [String: JSONValue], at location: SchemaRegistry.Location,
        info: SchemaRegistry.SchemaInfo, into node: inout Node
    ) {
        let draft = info.draft
        let site = site(location, keyword: keyword)
        let here = JSONPointer.appending(location.pointer, keyword)
        func child(_ pointer: String) -> Int {
            compile(SchemaRegistry.Location(document: location.document, pointer: pointer))
        }
        func number() -> ExactNumber? {
            guard case .number(let text) = value, let number = ExactNumber(text) else {
                report("\(keyword) must be a number", at: location, keyword: keyword)
                return nil
            }
            return number
        }
        func count() -> Int? {
            guard let number = number(), number.isInteger, !number.negative else {
                report("\(keyword) must be a non-negative integer", at: location, keyword: keyword)
                return nil
            }
            return number.intValue
        }
        func schemas() -> [Int] {
            guard case .array(let items) = value else {
                report("\(keyword) must be an array of schemas", at: location, keyword: keyword)
                return []
            }
            return items.indices.map { child(JSONPointer.appending(here, $0)) }
        }
        switch keyword {
        case "type":
            let names = value.arrayValue ?? [value]
            var types = JSONTypes()
            for name in names {
                guard let type = name.stringValue.flatMap(JSONTypes.init(name:)) else {
                    report("type must be a JSON type name or an array of them", at: location, keyword: keyword)
                    return
                }
                types.insert(type)
            }
            if draft == .draft4 { types.insert(.draft4Integers) }
            node.append(.type(types), site)
        case "enum":
            guard case .array(let values) = value else {
                return report("enum must be an array", at: location, keyword: keyword)
            }
            node.append(.enumeration(values), site)
        case "const": node.append(.constant(value), site)
        case "minimum", "maximum":
            guard let bound = number() else { return }
            let exclusive =
                draft == .draft4
                && object["exclusive" + keyword.prefix(1).uppercased() + keyword.dropFirst()] == .bool(true)
            let kind: Bound =
                keyword == "minimum"
                ? (exclusive ? .exclusiveMinimum : .minimum) : (exclusive ? .exclusiveMaximum : .maximum)
            node.append(.bound(bound, kind, integer: bound.smallInteger), site)
        case "exclusiveMinimum", "exclusiveMaximum":
            guard draft != .draft4, let bound = number() else { return }
            let kind: Bound = keyword == "exclusiveMinimum" ? .exclusiveMinimum : .exclusiveMaximum
            node.append(.bound(bound, kind, integer: bound.smallInteger), site)
        case "multipleOf":
            guard let divisor = number() else { return }
            guard !divisor.negative, !divisor.isZero else {
                return report("multipleOf must be greater than 0", at: location, keyword: keyword)
            }
            node.append(.multipleOf(divisor, integer: divisor.smallInteger), site)
        case "minLength": if let n = count() { node.append(.minLength(n), site) }
        case "maxLength": if let n = count() { node.append(.maxLength(n), site) }
        case "minItems": if let n = count() { node.append(.minItems(n), site) }
        case "maxItems": if let n = count() { node.append(.maxItems(n), site) }
        case "minProperties": if let n = count() { node.append(.minProperties(n), site) }
        case "maxProperties": if let n = count() { node.append(.maxProperties(n), site) }
        case "uniqueItems": if value == .bool(true) { node.append(.uniqueItems, site) }
        case "pattern":
            guard let source = value.stringValue else {
                return report("pattern must be a string", at: location, keyword: keyword)
            }
            if let pattern = compilePattern(source, at: location, keyword: keyword) {
                node.append(.pattern(pattern), site)
            }
        case "format":
            if assertsFormats, let name = value.stringValue, let format = Format(rawValue: name) {
                node.append(.format(format), site)
            }
        case "required":
            guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
                return report("required must be an array of strings", at: location, keyword: keyword)
            }
            if !names.isEmpty { node.append(.required(names, inProperties: false), site) }
        case "dependentRequired", "dependencies":
            guard case .object(let members) = value else {
                return report("\(keyword) must be an object", at: location, keyword: keyword)
            }
            var required: [(property: String, required: [String])] = []
            var schemas: [(property: String, node: Int)] = []
            for (property, member) in members.sorted(by: { $0.key < $1.key }) {
                if case .array(let names) = member {
                    required.append((property, names.compactMap(\.stringValue)))
                } else if keyword == "dependencies" {
                    schemas.append((property, child(JSONPointer.appending(here, property))))
                } else {
                    report("dependentRequired's members must be arrays of strings", at: location, keyword: keyword)
                }
            }
            if !required.isEmpty { node.append(.dependentRequired(required), site) }
            if !schemas.isEmpty { node.append(.dependentSchemas(schemas), site) }
        case "dependentSchemas":
            guard case .object(let members) = value else {
                return report("dependentSchemas must be an object", at: location, keyword: keyword)
            }
            let schemas = members.keys.sorted().map { ($0, child(JSONPointer.appending(here, $0))) }
            node.append(.dependentSchemas(schemas), site)
        case "$ref", "$dynamicRef":
            compileReference(value, keyword: keyword, at: location, base: info.base, into: &node)
        case "properties":
            compileProperties(object, at: location, into: &node)
        case "propertyNames": node.append(.propertyNames(child(here)), site)
        case "items":
            compileItems(object, at: location, draft: draft, into: &node)
        case "contains":
            var minimum = 1
            var maximum: Int?
            if draft == .draft2020_12 {
                if case .number(let text) = object["minContains"], let n = ExactNumber(text), n.isInteger {
                    minimum = n.intValue
                }
                if case .number(let text) = object["maxContains"], let n = ExactNumber(text), n.isInteger {
                    maximum = n.intValue
                }
            }
            node.append(.contains(child(here), minimum: minimum, maximum: maximum), site)
        case "allOf": node.append(.allOf(schemas()), site)
        case "anyOf": node.append(.anyOf(schemas()), site)
        case "oneOf": node.append(.oneOf(schemas()), site)
        case "not": node.append(.not(child(here)), site)
        case "if":
            let then = object["then"].map { _ in child(JSONPointer.appending(location.pointer, "then")) }
            let otherwise = object["else"].map { _ in child(JSONPointer.appending(location.pointer, "else")) }
            // An `if` alone validates nothing, but its annotations count for `unevaluated*`.
            node.append(.conditional(if: child(here), then: then, else: otherwise), site)
        case "unevaluatedProperties":
            node.append(.unevaluatedProperties(child(here)), site)
            node.tracksEvaluation = true
        case "unevaluatedItems":
            node.append(.unevaluatedItems(child(here)), site)
            node.tracksEvaluation = true
        default: break
        }
    }

    /// `properties`, `patternProperties` and `additionalProperties` as one check, compiled once
    /// whichever of them comes first.
    private mutating func compileProperties(
        _ object: [String: JSONValue], at location: SchemaRegistry.Location, into node: inout Node
    ) {
        var properties: [(name: String, node: Int)] = []
        var patterns: [(pattern: Pattern, node: Int)] = []
        var additional: Int?
        if case .object(let members) = object["properties"] {
            let here = JSONPointer.appending(location.pointer, "properties")
            for name in members.keys.sorted() {
                properties.append(
                    (name, compile(.init(document: location.document, pointer: JSONPointer.appending(here, name)))))
            }
        }
        if case .object(let members) = object["patternProperties"] {
            let here = JSONPointer.appending(location.pointer, "patternProperties")
            for source in members.keys.sorted() {
                guard let pattern = compilePattern(source, at: location, keyword: "patternProperties") else { continue }
                patterns.append(
                    (pattern, compile(.init(document: location.document, pointer: JSONPointer.appending(here, source))))
                )
            }
        }
        if object["additionalProperties"] != nil {
            additional = compile(
                .init(
                    document: location.document,
                    pointer: JSONPointer.appending(location.pointer, "additionalProperties")))
        }
        let keyword =
            object["properties"] != nil
            ? "properties" : object["patternProperties"] != nil ? "patternProperties" : "additionalProperties"
        node.append(
            .properties(PropertyApplicator(properties: properties, patterns: patterns, additional: additional)),
            site(location, keyword: keyword))
    }

    /// `prefixItems` and `items` (2020-12), or `items` and `additionalItems`, as one check.
    private mutating func compileItems(
        _ object: [String: JSONValue], at location: SchemaRegistry.Location, draft: SchemaDraft, into node: inout Node
    ) {
        func child(_ keyword: String, _ index: Int? = nil) -> Int {
            var pointer = JSONPointer.appending(location.pointer, keyword)
            if let index { pointer = JSONPointer.appending(pointer, index) }
            return compile(.init(document: location.document, pointer: pointer))
        }
        var prefix: [Int] = []
        var rest: Int?
        if draft == .draft2020_12 {
            if case .array(let items) = object["prefixItems"] {
                prefix = items.indices.map { child("prefixItems", $0) }
            }
            if object["items"] != nil { rest = child("items") }
        } else if case .array(let items) = object["items"] {
            prefix = items.indices.map { child("items", $0) }
            if object["additionalItems"] != nil { rest = child("additionalItems") }
        } else if object["items"] != nil {
            rest = child("items")
        } else {
            return
        }
        let keyword = object["prefixItems"] != nil && draft == .draft2020_12 ? "prefixItems" : "items"
        node.append(.items(prefix: prefix, rest: rest), site(location, keyword: keyword))
    }

    private mutating func compileReference(
        _ value: JSONValue, keyword: String, at location: SchemaRegistry.Location, base: String, into node: inout Node
    ) {
        guard let reference = value.stringValue else {
            return report("\(keyword) must be a string", at: location, keyword: keyword)
        }
        guard let (target, uri) = registry.resolve(reference, base: base) else {
            return report("\(keyword) \"\(reference)\" resolves to no schema", at: location, keyword: keyword)
        }
        let targetNode = compile(target)
        let site = site(location, keyword: keyword)
        guard keyword == "$dynamicRef" else { return node.append(.ref(targetNode), site) }
        let fragment = URIReference.split(URIReference.resolve(reference, against: base)).fragment
        let isDynamic = !fragment.isEmpty && registry.dynamicAnchors[uri + "#" + fragment] == target
        if isDynamic { usesDynamicScope = true }
        node.append(.dynamicRef(targetNode, anchor: isDynamic ? fragment : nil), site)
    }

    /// A JSON Schema (ECMA-262) regular expression compiled as a PCRE2 search.
    private mutating func compilePattern(_ source: String, at location: SchemaRegistry.Location, keyword: String)
        -> Pattern?
    {
        do {
            return try Pattern.cached(ECMARegex.pcre2(source), options: .search)
        } catch {
            report(
                "\(keyword) \"\(source)\" is not a valid regular expression: \(error)", at: location, keyword: keyword)
            return nil
        }
    }

    /// The keywords a custom meta-schema's `$vocabulary` turns on (core's always are).
    private mutating func vocabulary(_ metaSchema: String) -> Set<String> {
        if let known = vocabularyCache[metaSchema] { return known }
        var keywords = Keywords.vocabularies["https://json-schema.org/draft/2020-12/vocab/core"] ?? []
        if let root = registry.resources[metaSchema],
            case .object(let vocabularies)? = registry.value(at: root)?["$vocabulary"]
        {
            for uri in vocabularies.keys { keywords.formUnion(Keywords.vocabularies[uri] ?? []) }
        } else {
            keywords = Keywords.assertions(of: .draft2020_12)
        }
        vocabularyCache[metaSchema] = keywords
        return keywords
    }

    private func site(_ location: SchemaRegistry.Location, keyword: String) -> KeywordSite {
        let document = registry.documents[location.document]
        let pointer = keyword.isEmpty ? location.pointer : JSONPointer.appending(location.pointer, keyword)
        return KeywordSite(
            keyword: keyword.isEmpty ? Self.keyword(holding: location.pointer) : keyword,
            schemaPath: document.uri + "#" + pointer, file: document.file,
            location: document.keyLocations[pointer] ?? document.locations[pointer])
    }

    /// The keyword a `false` schema at `pointer` stands for: `additionalProperties` for
    /// `…/additionalProperties`, `properties` for `…/properties/sku`; `false` at a root.
    private static func keyword(holding pointer: String) -> String {
        let tokens = JSONPointer.tokens(pointer)
        guard let last = tokens.last else { return "false" }
        if Keywords.subschemaShape(last, draft: .draft2020_12) == .single || last == "additionalItems" { return last }
        if tokens.count >= 2, Keywords.subschemaShape(tokens[tokens.count - 2], draft: .draft7) != nil {
            return tokens[tokens.count - 2]
        }
        return "false"
    }

    private mutating func report(_ message: String, at location: SchemaRegistry.Location, keyword: String? = nil) {
        let document = registry.documents[location.document]
        let pointer = keyword.map { JSONPointer.appending(location.pointer, $0) } ?? location.pointer
        diagnostics.append(
            Diagnostic(
                .error, file: document.name, path: pointer,
                location: document.locations[pointer] ?? document.locations[location.pointer], message: message))
    }
}

extension Node {
    fileprivate mutating func append(_ check: Check, _ site: KeywordSite) {
        checks.append(check)
        sites.append(site)
    }

    /// Lets the `properties` check find the names `required` lists, when it has them all, while
    /// only validity is wanted: it meets each member's name anyway, so the names need not be looked
    /// up in the instance one by one. Failures are still collected by `required` itself, in order.
    fileprivate mutating func fuseRequired() {
        guard let requiredAt = checks.firstIndex(where: { if case .required = $0 { true } else { false } }),
            case .required(let names, _) = checks[requiredAt],
            let propertiesAt = checks.firstIndex(where: { if case .properties = $0 { true } else { false } }),
            case .properties(let applicator) = checks[propertiesAt], applicator.names.count <= UInt64.bitWidth
        else { return }
        var bits: UInt64 = 0
        for name in names {
            guard let index = applicator.index(of: name) else { return }
            bits |= 1 << index
        }
        checks[requiredAt] = .required(names, inProperties: true)
        checks[propertiesAt] = .properties(applicator.requiring(bits))
    }
}

extension ExactNumber {
    /// The value as an `Int` when it is a non-negative integer (`Int.max` when larger).
    var intValue: Int {
        guard isInteger, !negative else { return 0 }
        guard digits.count + exponent <= 18 else { return Int.max }
        let significand = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (0..<exponent).reduce(significand) { value, _ in value * 10 }
    }
}
