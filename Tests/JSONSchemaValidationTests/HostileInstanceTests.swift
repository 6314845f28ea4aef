import JSONSchemaValidation
import Testing
import TracksnapJSON

/// Instances an app (or a page posting to a session) chooses, against keywords whose work
/// grows with them: each answered in time proportional to the instance, or refused with a
/// violation naming the bound; and an evaluation whose caller is gone stops.
@Suite("instances that would make the evaluator's work explode")
struct HostileInstanceTests {
    /// How long the work takes, on this (possibly loaded) machine.
    private func duration(_ work: () -> Void) -> Duration {
        ContinuousClock().measure(work)
    }

    @Test("uniqueItems over 30,000 distinct items: one pass (it took 31 s of one core when every pair was compared)")
    func uniqueItemsLinear() throws {
        let schema = try JSONSchema(.object(["uniqueItems": true]))
        let items = (0..<30_000).map { index -> JSONValue in
            .object(["id": .number(String(index)), "name": .string("item \(index)")])
        }
        var valid = false
        let taken = duration { valid = schema.isValid(.array(items)) }
        #expect(valid)
        // Linear, it takes tens of milliseconds; quadratic, 450 million comparisons.
        #expect(taken < .seconds(5), "30,000 items took \(taken)")
        let repeated = items + [.object(["name": .string("item 17"), "id": .number("17.0")])]
        #expect(schema.validate(.array(repeated)).map(\.message) == ["items 17 and 30000 are equal"])
    }

    @Test(
        "uniqueItems compares as the engine's equality does: 1 equals 1.0 and 10e-1, members in any order, true is not 1",
        arguments: [
            ("[1, 1.0]", false), ("[1, 10e-1]", false), ("[0, -0]", false), ("[1, true]", true),
            ("[{\"a\": 1, \"b\": [2]}, {\"b\": [2.0], \"a\": 1}]", false), ("[[1, 2], [2, 1]]", true),
            ("[\"1\", 1]", true), ("[null, null]", false), ("[1.5, 15e-1, 2]", false),
        ])
    func uniqueItemsEquality(instance: String, unique: Bool) throws {
        let schema = try JSONSchema(.object(["uniqueItems": true]))
        let value = try JSONDocument.parse(Array(instance.utf8), file: "instance").value
        #expect(schema.isValid(value) == unique, "\(instance)")
    }

    @Test(
        "7e999999 against a divisor of 20 digits is decided at once, and rightly",
        arguments: [("12345678901234567891", false), ("37252902984619140625", true), ("73786976294838206464", true)])
    func hugeExponentMultipleOf(divisor: String, multiple: Bool) throws {
        let schema = try JSONSchema(.object(["multipleOf": .number(divisor)]))
        var valid = !multiple
        let taken = duration { valid = schema.isValid(.number("7e999999")) }
        #expect(valid == multiple, "7e999999 against multipleOf \(divisor)")
        #expect(taken < .seconds(2), "took \(taken)")
    }

    @Test("a number of a million digits against a divisor of 20 digits fails closed, naming the bound")
    func longDivisionBound() throws {
        let schema = try JSONSchema(.object(["multipleOf": .number("12345678901234567891")]))
        let number = "7" + String(repeating: "3", count: 1_000_000)
        var violations: [SchemaViolation] = []
        let taken = duration { violations = schema.validate(.number(number)) }
        #expect(violations.count == 1)
        #expect(violations.first?.message.contains("4000000 digit operations, the bound") == true, "\(violations)")
        #expect(taken < .seconds(5), "took \(taken)")
    }

    @Test("$ref fanning out through anyOf 2^22 times for one instance stops at the bound with a violation that says so")
    func fanOut() throws {
        var definitions: [String: JSONValue] = ["d22": .object(["type": "string"])]
        for level in 0..<22 {
            let next = JSONValue.object(["$ref": .string("#/$defs/d\(level + 1)")])
            definitions["d\(level)"] = .object(["anyOf": .array([next, next])])
        }
        let schema = try JSONSchema(.object(["$defs": .object(definitions), "$ref": "#/$defs/d0"]))
        #expect(!schema.isValid(.number("1")))
        let messages = schema.validate(.number("1")).map(\.message)
        #expect(messages.contains { $0.contains("more than 1000000 subschema evaluations (the bound") }, "\(messages)")
    }

    @Test("an evaluation in a cancelled task stops and fails closed: its caller is gone")
    func cancelled() async throws {
        let schema = try JSONSchema(.object(["items": .object(["type": "integer"])]))
        let instance = JSONValue.array(Array(repeating: .number("1"), count: 5_000))
        #expect(schema.isValid(instance))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return (schema.isValid(instance), schema.validate(instance).map(\.message))
        }
        let (valid, messages) = await task.value
        #expect(!valid)
        #expect(messages == ["the validation stopped before its end: its caller is gone (the task was cancelled)"])
    }
}
