import Patterns
import TracksnapJSON

/// A compiled schema: a flat table of nodes whose checks refer to other nodes by index, so that
/// recursive schemas (`$ref` to an ancestor) need no cycles of references.
///
/// Every node's checks are in one table, node after node, and its sites in another beside it:
/// the evaluator reads a check where it is, by index. A node holding arrays of its own would be
/// copied out of the table, its arrays retained and released, on every subschema evaluated.
/// A class: an evaluation holds it with one reference, and reads its tables in place.
final class Program: Sendable {
    let nodes: [Span]
    let checks: [Check]
    /// Where each check's keyword is, parallel to `checks`.
    let sites: [KeywordSite]
    /// Each schema resource's `$dynamicAnchor`s: name to node.
    let dynamicAnchors: [[String: Int]]
    /// Whether a `$dynamicRef` looks through the dynamic scope; if none does, evaluation does not
    /// keep the scope at all.
    let usesDynamicScope: Bool

    /// A node as the program keeps it: which of `checks` are its own.
    struct Span: Sendable {
        let checks: Range<Int>
        let resource: Int
        let tracksEvaluation: Bool
    }

    init(nodes: [Node], dynamicAnchors: [[String: Int]], usesDynamicScope: Bool) {
        var spans: [Span] = []
        var checks: [Check] = []
        var sites: [KeywordSite] = []
        spans.reserveCapacity(nodes.count)
        for node in nodes {
            spans.append(
                Span(
                    checks: checks.count..<checks.count + node.checks.count, resource: node.resource,
                    tracksEvaluation: node.tracksEvaluation))
            checks += node.checks
            sites += node.sites
        }
        self.nodes = spans
        self.checks = checks
        self.sites = sites
        self.dynamicAnchors = dynamicAnchors
        self.usesDynamicScope = usesDynamicScope
    }
}

/// One (sub)schema as it is compiled: its checks in order, and what its errors point at.
struct Node: Sendable {
    var checks: [Check] = []
    /// Where each check's keyword is, parallel to `checks`.
    var sites: [KeywordSite] = []
    /// The schema resource it belongs to (an index into `Program.dynamicAnchors`).
    var resource: Int = 0
    /// Whether it has `unevaluatedProperties` or `unevaluatedItems`, and so tracks what its
    /// other keywords evaluated.
    var tracksEvaluation = false
}

/// Where a keyword is: for a failure's schema path, file, line and column.
struct KeywordSite: Sendable {
    let keyword: String
    let schemaPath: String
    let file: String?
    let location: SourceLocation?
}

/// The JSON types a `type` keyword allows, as bits.
struct JSONTypes: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = JSONTypes(rawValue: 1 << 0)
    static let boolean = JSONTypes(rawValue: 1 << 1)
    static let object = JSONTypes(rawValue: 1 << 2)
    static let array = JSONTypes(rawValue: 1 << 3)
    static let number = JSONTypes(rawValue: 1 << 4)
    static let string = JSONTypes(rawValue: 1 << 5)
    static let integer = JSONTypes(rawValue: 1 << 6)
    /// Set with `integer` in draft-04, where an integer is a number written without a fraction
    /// or exponent (`1.0` is not one), as Python's `jsonschema` reads it.
    static let draft4Integers = JSONTypes(rawValue: 1 << 7)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "object": self = .object
        case "array": self = .array
        case "number": self = .number
        case "string": self = .string
        case "integer": self = .integer
        default: return nil
        }
    }
}

/// A number bound's kind.
enum Bound: Sendable {
    case minimum, exclusiveMinimum, maximum, exclusiveMaximum
}

/// What `properties`, `patternProperties` and `additionalProperties` apply together.
///
/// A class: a check holding it is read with one reference retained, not one per array.
final class PropertyApplicator: Sendable {
    /// `properties`' names and their nodes, and each name's length in UTF-8: a member's name is
    /// found by comparing it with the names of its length, not by hashing it (most schemas have
    /// a few properties; more than `scanLimit` are found with a `Dictionary`).
    let names: [String]
    let nodes: [Int]
    private let lengths: [Int]
    private let lookup: [String: Int]?
    /// Whether every name is ASCII: `String` equality is canonical equivalence, and a non-ASCII
    /// name may equal one of another length (the Kelvin sign is "K").
    private let asciiNames: Bool
    /// The bits (by index in `names`) of the names the node's `required` lists, when this check
    /// finds them while only validity is wanted (`Node.fuseRequired()`).
    let required: UInt64
    let patterns: [(pattern: Pattern, node: Int)]
    let additional: Int?

    private static let scanLimit = 24

    init(
        properties: [(name: String, node: Int)], patterns: [(pattern: Pattern, node: Int)], additional: Int?,
        required: UInt64 = 0
    ) {
        names = properties.map(\.name)
        nodes = properties.map(\.node)
        lengths = names.map(\.utf8.count)
        lookup =
            names.count > Self.scanLimit
            ? Dictionary(zip(names, names.indices), uniquingKeysWith: { first, _ in first }) : nil
        asciiNames = names.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
        self.required = required
        self.patterns = patterns
        self.additional = additional
    }

    /// The same, finding the names of `required` (bits by index in `names`) too.
    func requiring(_ bits: UInt64) -> PropertyApplicator {
        PropertyApplicator(
            properties: Array(zip(names, nodes)), patterns: patterns, additional: additional, required: bits)
    }

    /// The index in `names` of `name` (as a `Dictionary` would find it), if `properties` has it.
    func index(of name: String) -> Int? {
        if let lookup { return lookup[name] }
        let length = name.utf8.count
        for index in lengths.indices where lengths[index] == length && names[index] == name { return index }
        guard !asciiNames || !name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return names.firstIndex(of: name)
    }
}

/// One check of a node; subschemas are node indices.
enum Check: Sendable {
    /// The `false` schema.
    case never
    case type(JSONTypes)
    case enumeration([JSONValue])
    case constant(JSONValue)
    /// A bound, with its value as an `Int` when it is one (the common case, compared without
    /// reading the instance's digits into an `ExactNumber`).
    case bound(ExactNumber, Bound, integer: Int?)
    case multipleOf(ExactNumber, integer: Int?)
    case minLength(Int)
    case maxLength(Int)
    case pattern(Pattern)
    case format(Format)
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems
    case minProperties(Int)
    case maxProperties(Int)
    /// `required`; `inProperties` when the node's `properties` check finds the names instead
    /// while only validity is wanted (`Node.fuseRequired()`), without looking each one up.
    case required([String], inProperties: Bool)
    case dependentRequired([(property: String, required: [String])])
    case dependentSchemas([(property: String, node: Int)])
    case properties(PropertyApplicator)
    case propertyNames(Int)
    /// `prefixItems` and `items` (2020-12), or `items` and `additionalItems` (up to draft-07).
    case items(prefix: [Int], rest: Int?)
    case contains(Int, minimum: Int, maximum: Int?)
    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case conditional(if: Int, then: Int?, else: Int?)
    case ref(Int)
    /// `$dynamicRef`: the statically resolved node, and the anchor name looked for in the
    /// dynamic scope when that node has a `$dynamicAnchor` of that name.
    case dynamicRef(Int, anchor: String?)
    case unevaluatedProperties(Int)
    case unevaluatedItems(Int)
}
