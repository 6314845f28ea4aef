import Foundation
import JSONSchemaValidation
import Testing
import TracksnapJSON
import TracksnapTestSupport

/// Random schemas and instances, validated here and by Python's `jsonschema` (the version the
/// Makefile's test venv pins), which must agree on every instance. Bounded and seeded: the same
/// cases every run, and a disagreement names its seed, schema and instance.
@Suite("differential against Python jsonschema", .tags(.process), .leftToMakeTest)
struct DifferentialTests {
    static let seed: UInt64 = 20
    static let schemaCount = 1000
    static let instancesPerSchema = 8

    @Test("random schemas of every draft: valid and invalid agree with Python jsonschema")
    func agreesWithPython() throws {
        var generator = SchemaGenerator(random: SeededGenerator(seed: Self.seed))
        var cases: [(schema: JSONValue, instances: [JSONValue])] = []
        for index in 0..<Self.schemaCount {
            let draft = SchemaDraft.allCases[index % SchemaDraft.allCases.count]
            let schema = generator.schema(draft)
            cases.append((schema, (0..<Self.instancesPerSchema).map { _ in generator.instance() }))
        }
        let verdicts = try Self.pythonVerdicts(cases)
        try #require(verdicts.count == cases.count)
        var compared = 0
        var disagreements: [String] = []
        for (offset, testCase) in cases.enumerated() {
            let schema: JSONSchema
            do {
                schema = try JSONSchema(testCase.schema)
            } catch {
                disagreements.append(
                    "case \(offset): schema refused: \(error)\n  schema: \(testCase.schema.serialized())")
                continue
            }
            for (instance, expected) in zip(testCase.instances, verdicts[offset]) {
                compared += 1
                let valid = schema.isValid(instance)
                guard valid != expected else { continue }
                disagreements.append(
                    "case \(offset) (seed \(Self.seed)): jsonschema says \(expected ? "valid" : "invalid"), tracksnap \(valid ? "valid" : "invalid")\n"
                        + "  schema: \(testCase.schema.serialized())\n  instance: \(instance.serialized())")
            }
        }
        let valid = verdicts.joined().filter { $0 }.count
        print(
            "differential against Python jsonschema: \(compared - disagreements.count) of \(compared) instances agree "
                + "(\(valid) valid, \(compared - valid) invalid)")
        // A generator whose instances all fail (or all pass) would compare nothing worth comparing.
        #expect(valid > compared / 5 && valid < compared * 4 / 5)
        #expect(compared == Self.schemaCount * Self.instancesPerSchema)
        for disagreement in disagreements.prefix(20) { Issue.record(Comment(rawValue: disagreement)) }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements")
    }

    private static func pythonVerdicts(_ cases: [(schema: JSONValue, instances: [JSONValue])]) throws -> [[Bool]] {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "cases.json")
            let document = JSONValue.array(cases.map { ["schema": $0.schema, "instances": .array($0.instances)] })
            try write(document.serialized(), to: file)
            let script = PackagePaths.root.appending(
                path: "Tests/JSONSchemaValidationTests/Scripts/jsonschema_verdicts.py")
            let run = try runProcess(PackagePaths.python, [script.path, file.path], timeout: Bounds.process)
            try #require(run.status == 0, "jsonschema_verdicts.py failed (is `make sdk-venv` done?): \(run.stderr)")
            let output = try JSONDocument.parse(
                Array(run.stdout.utf8), file: "jsonschema_verdicts.py", trackLocations: false)
            return (output.value["verdicts"]?.arrayValue ?? []).map { ($0.arrayValue ?? []).compactMap(\.boolValue) }
        }
    }
}

/// Random schemas valid against their draft's meta-schema, and random instances, from small
/// alphabets so that schemas and instances meet. Numbers are integers and halves, so that Python's
/// float arithmetic (`multipleOf`) is exact too; strings are ASCII without newlines, where Python's
/// `re` and ECMA-262 agree.
struct SchemaGenerator {
    var random: SeededGenerator
    private static let keys = ["a", "b", "c", "ab", "1"]
    private static let strings = ["", "a", "b", "ab", "abc", "A1", "2024", "x-y", "aaaa"]
    private static let patterns = ["^a", "b$", "[0-9]", "^[a-z]+$", "\\d", "^.{2,3}$", "a|b", "^(ab)*$"]
    private static let types = ["null", "boolean", "object", "array", "number", "string", "integer"]

    private mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    private mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    private mutating func number() -> JSONValue {
        let whole = count(-3...10)
        switch count(0...3) {
        case 0: return .number("\(whole).5")
        case 1: return .number("\(whole).0")
        default: return .number(whole)
        }
    }

    mutating func instance(depth: Int = 0) -> JSONValue {
        switch count(0...(depth >= 2 ? 4 : 6)) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2, 3: return number()
        case 4: return .string(pick(Self.strings))
        case 5: return .array((0..<count(0...4)).map { _ in instance(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<count(0...4) { members[pick(Self.keys)] = instance(depth: depth + 1) }
            return .object(members)
        }
    }

    /// A root schema of `draft`, naming it in `$schema`, with definitions a `$ref` may name.
    mutating func schema(_ draft: SchemaDraft) -> JSONValue {
        var root = subschema(draft, depth: 0).objectValue ?? ["not": ["type": "null"]]
        root["$schema"] = .string(draft.metaSchema)
        let definitions = draft == .draft2020_12 ? "$defs" : "definitions"
        root[definitions] = ["d": subschema(draft, depth: 3)]  // at depth 3, no $ref: it cannot name itself
        if chance(20), root["$ref"] == nil, draft == .draft2020_12 || root.count == 2 {
            root["$ref"] = .string("#/\(definitions)/d")
        }
        return .object(root)
    }

    private mutating func subschema(_ draft: SchemaDraft, depth: Int) -> JSONValue {
        if draft != .draft4, depth > 0, chance(8) { return .bool(chance(60)) }
        var schema: [String: JSONValue] = [:]
        let keywords = count(1...(depth >= 2 ? 2 : 4))
        for _ in 0..<keywords { addKeyword(to: &schema, draft, depth: depth) }
        return .object(schema)
    }

    private mutating func subschemas(_ draft: SchemaDraft, depth: Int) -> JSONValue {
        .array((0..<count(1...3)).map { _ in subschema(draft, depth: depth + 1) })
    }

    private mutating func addKeyword(to schema: inout [String: JSONValue], _ draft: SchemaDraft, depth: Int) {
        let deeper = depth < 3
        switch count(0...(deeper ? 27 : 14)) {
        case 0:
            schema["type"] =
                chance(70)
                ? .string(pick(Self.types)) : unique([.string(pick(Self.types)), .string(pick(Self.types))])
        case 1: schema["enum"] = unique((0..<count(1...3)).map { _ in instance(depth: 2) })
        case 2: if draft != .draft4 { schema["const"] = instance(depth: 1) }
        case 3: schema["minimum"] = number()
        case 4: schema["maximum"] = number()
        case 5:
            if draft == .draft4 {
                schema["maximum"] = number()
                schema["exclusiveMaximum"] = .bool(chance(50))
            } else {
                schema["exclusiveMinimum"] = number()
            }
        case 6: schema["multipleOf"] = pick([.number("0.5"), .number("2"), .number("3"), .number("1.5")])
        case 7: schema["minLength"] = .number(count(0...3))
        case 8: schema["maxLength"] = .number(count(0...3))
        case 9: schema["pattern"] = .string(pick(Self.patterns))
        case 10: schema["minItems"] = .number(count(0...3))
        case 11: schema["uniqueItems"] = .bool(chance(80))
        case 12: schema["required"] = unique([.string(pick(Self.keys)), .string(pick(Self.keys))])
        case 13: schema["maxProperties"] = .number(count(0...3))
        case 14: schema["minProperties"] = .number(count(0...2))
        case 15:
            var properties: [String: JSONValue] = [:]
            for _ in 0..<count(1...3) { properties[pick(Self.keys)] = subschema(draft, depth: depth + 1) }
            schema["properties"] = .object(properties)
        case 16:
            schema["additionalProperties"] = chance(50) ? .bool(chance(30)) : subschema(draft, depth: depth + 1)
        case 17: schema["patternProperties"] = [pick(Self.patterns): subschema(draft, depth: depth + 1)]
        case 18:
            if draft == .draft2020_12 {
                schema["prefixItems"] = subschemas(draft, depth: depth)
            } else if chance(50) {
                schema["items"] = subschemas(draft, depth: depth)
                schema["additionalItems"] = subschema(draft, depth: depth + 1)
            }
            schema["items"] = schema["items"] ?? subschema(draft, depth: depth + 1)
        case 19:
            guard draft != .draft4 else { return }
            schema["contains"] = subschema(draft, depth: depth + 1)
            if draft == .draft2020_12, chance(50) {
                schema[chance(50) ? "minContains" : "maxContains"] = .number(count(0...2))
            }
        case 20: schema["allOf"] = subschemas(draft, depth: depth)
        case 21: schema["anyOf"] = subschemas(draft, depth: depth)
        case 22: schema["oneOf"] = subschemas(draft, depth: depth)
        case 23: schema["not"] = subschema(draft, depth: depth + 1)
        case 24:
            guard draft >= .draft7 else { return }
            schema["if"] = subschema(draft, depth: depth + 1)
            if chance(70) { schema["then"] = subschema(draft, depth: depth + 1) }
            if chance(70) { schema["else"] = subschema(draft, depth: depth + 1) }
        case 25:
            if draft == .draft2020_12 {
                schema["dependentRequired"] = [pick(Self.keys): [.string(pick(Self.keys))]]
            } else {
                schema["dependencies"] =
                    chance(50)
                    ? [pick(Self.keys): [.string(pick(Self.keys))]]
                    : [pick(Self.keys): subschema(draft, depth: depth + 1)]
            }
        case 26:
            if draft == .draft2020_12 {
                schema[chance(50) ? "unevaluatedProperties" : "unevaluatedItems"] =
                    chance(60) ? .bool(false) : subschema(draft, depth: depth + 1)
            } else if draft != .draft4 {
                schema["propertyNames"] = ["maxLength": .number(count(0...2))]
            }
        default:
            schema["$ref"] = .string(draft == .draft2020_12 ? "#/$defs/d" : "#/definitions/d")
        }
    }
}

/// The values without repeats, as an array (`required` and `type` lists must be unique).
private func unique(_ values: [JSONValue]) -> JSONValue {
    var seen: [JSONValue] = []
    for value in values where !seen.contains(value) { seen.append(value) }
    return .array(seen)
}
