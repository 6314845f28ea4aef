import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// `{"$unordered": […]}`: an array that is a set, its elements paired by content.
@Suite("$unordered arrays")
struct UnorderedArrayTests {
    /// A snapshot of the signal batch, its elements in queue order inside `$unordered`.
    static let batchSnapshot = """
        {"requests": [{"method": "POST", "url": "https://nom.telemetrydeck.com/v2/", "body": {"$unordered": [
          {"type": "appLaunched", "sessionID": {"$type": "string"}, "payload": {"TelemetryDeck.Device.platform": "Linux"}},
          {"type": "screenShown", "sessionID": {"$type": "string"}, "payload": {"screen": "Home"}},
          {"type": "itemAdded", "sessionID": {"$type": "string"}, "payload": {"sku": "p-42", "quantity": "2"}, "floatValue": 12.5},
          {"type": "checkoutStarted", "sessionID": {"$type": "string"}, "payload": {"items": "2"}, "floatValue": 25}
        ]}}]}
        """

    static func run(_ model: SignalBatchModel) -> [CapturedRequest] {
        [post(SignalBatchModel.url, json: model.body)]
    }

    @Test("a TelemetryDeck-like batch in a different order on each of 40 runs passes every time")
    func shuffledRunsPass() throws {
        let snapshot = try snapshot(Self.batchSnapshot)
        var orders = Set<String>()
        for seed in UInt64(1)...40 {
            let model = SignalBatchModel(seed: seed)
            orders.insert(model.body.split(separator: "\"type\":\"").map { $0.prefix(4) }.joined())
            let result = validate(snapshot, Self.run(model))
            #expect(result.findings.isEmpty, "seed \(seed): \(result.findings.map(\.message))")
        }
        #expect(orders.count > 10, "the runs really come in different orders")
    }

    @Test("the same batch against a plain array fails in most orders: what $unordered is for")
    func plainArrayFailsWhenShuffled() throws {
        let plain = Self.batchSnapshot.replacingOccurrences(of: #"{"$unordered": ["#, with: "[")
            .replacingOccurrences(of: "]}}]}", with: "]}]}")
        let snapshot = try snapshot(plain)
        let failing = (UInt64(1)...20).filter { !validate(snapshot, Self.run(SignalBatchModel(seed: $0))).passed }
        #expect(failing.count > 10)
        #expect(validate(snapshot, Self.run(SignalBatchModel(seed: 1, queued: true))).passed)
        // Only the order differs: one finding at the array, naming $unordered, not one per element.
        for seed in failing {
            let result = validate(snapshot, Self.run(SignalBatchModel(seed: seed)))
            #expect(result.findings.map(\.code) == [.orderMismatch], "seed \(seed): \(result.findings.map(\.message))")
            #expect(result.findings.first?.path == "/requests/0/body")
            #expect(result.findings.first?.message.contains(#"{"$unordered": […]}"#) == true)
            #expect(!result.onlyOrderDiffers, "\"order\": \"any\" is no fix for an array's order")
        }
        // A renamed element besides: each difference, as in order.
        let renamed = validate(snapshot, Self.run(SignalBatchModel(seed: failing[0], change: .renameSignal)))
        #expect(!renamed.findings.contains { $0.code == .orderMismatch }, "\(renamed.findings.map(\.message))")
    }

    @Test(
        "a renamed signal is one value_mismatch at its type; a dropped one one missing_key; an extra one one unexpected_key"
    )
    func realChangesAreOneFindingEach() throws {
        let snapshot = try snapshot(Self.batchSnapshot)
        for seed in UInt64(1)...10 {
            let renamed = validate(snapshot, Self.run(SignalBatchModel(seed: seed, change: .renameSignal))).findings
            #expect(renamed.map(\.code) == [.valueMismatch], "\(renamed.map(\.message))")
            #expect(renamed.first?.path == "/requests/0/body/$unordered/3/type")
            #expect(renamed.first?.actual == "checkoutBegan")

            let dropped = validate(snapshot, Self.run(SignalBatchModel(seed: seed, change: .dropSignal))).findings
            #expect(dropped.map(\.code) == [.missingKey], "\(dropped.map(\.message))")
            #expect(dropped.first?.path == "/requests/0/body/$unordered/2")
            #expect(dropped.first?.message == "body has no element that $unordered/2 matches")

            let extra = validate(snapshot, Self.run(SignalBatchModel(seed: seed, change: .extraSignal))).findings
            #expect(extra.map(\.code) == [.unexpectedKey], "\(extra.map(\.message))")
            #expect(extra.first?.path == "/requests/0/body/$unordered")
            #expect(extra.first?.actual?["type"] == "itemRemoved")
            #expect(extra.first?.message.hasSuffix("is not expected: no element of $unordered pairs with it") == true)
        }
    }

    @Test("scalars, repeated elements and matchers inside elements pair by content")
    func elementsOfEveryKind() throws {
        let cases: [(expected: String, body: String, codes: [FindingCode])] = [
            (#"{"tags": {"$unordered": ["a", "b", "c"]}}"#, #"{"tags": ["c", "a", "b"]}"#, []),
            (#"{"tags": {"$unordered": ["a", "a", "b"]}}"#, #"{"tags": ["a", "b", "a"]}"#, []),
            // A scalar that differs is another element: nothing pairs with it (a near miss is less than half wrong).
            (
                #"{"tags": {"$unordered": ["a", "a", "b"]}}"#, #"{"tags": ["a", "b", "b"]}"#,
                [.missingKey, .unexpectedKey]
            ),
            (#"{"tags": {"$unordered": ["a", "b"]}}"#, #"{"tags": ["b"]}"#, [.missingKey]),
            (#"{"tags": {"$unordered": [{"n": 1, "k": "a"}]}}"#, #"{"tags": [{"n": 2, "k": "a"}]}"#, [.valueMismatch]),
            (#"{"tags": {"$unordered": []}}"#, #"{"tags": []}"#, []),
            (#"{"tags": {"$unordered": ["a"]}}"#, #"{"tags": "a"}"#, [.typeMismatch]),
            (
                #"{"ids": {"$unordered": [{"$regex": "o-[0-9]+"}, {"$type": "integer"}]}}"#, #"{"ids": [7, "o-12"]}"#,
                []
            ),
            (
                #"{"items": {"$unordered": [{"$jsonSchema": {"type": "object", "required": ["sku"]}}, {"n": 1}]}}"#,
                #"{"items": [{"n": 1}, {"sku": "x"}]}"#, []
            ),
            (
                #"{"items": {"$unordered": [{"$jsonSchema": {"type": "object", "required": ["sku"]}}, {"n": 1}]}}"#,
                #"{"items": [{"n": 1}, {"id": "x"}]}"#, [.missingKey, .unexpectedKey]
            ),
            (
                #"{"outer": {"$unordered": [{"inner": {"$unordered": [1, 2]}}, {"inner": [3]}]}}"#,
                #"{"outer": [{"inner": [3]}, {"inner": [2, 1]}]}"#, []
            ),
        ]
        for (expected, body, codes) in cases {
            let s = try snapshot(#"{"requests": [{"url": "https://x.example/e", "body": \#(expected)}]}"#)
            let result = validate(s, [post("https://x.example/e", json: body)])
            #expect(result.codes == codes, "\(expected) against \(body): \(result.findings.map(\.message))")
        }
    }

    @Test("a profile's filter and Matcher.accepts read $unordered as a set")
    func acceptsAsASet() throws {
        let s = try snapshot(#"{"requests": [{"url": "https://x.example/e", "body": {"$unordered": [1, {"a": 2}]}}]}"#)
        guard case .object(let members, _) = s.requests[0].matcher,
            let body = members.first(where: { $0.key == "body" })?.matcher
        else {
            Issue.record("no body matcher")
            return
        }
        #expect(body.accepts([["a": 2, "b": 3], 1]))
        #expect(body.accepts([1, ["a": 2]]))
        #expect(!body.accepts([1, 1]))
        #expect(!body.accepts([1, ["a": 2], 3]))
        #expect(body.json == ["$unordered": [1, ["a": 2]]])
    }

    @Test("an argument that is not an array is an error at its line and column; lint knows the matcher")
    func badArgument() throws {
        let text = """
            {"requests": [{"url": "https://x.example/e",
              "body": {"items": {"$unordered": {"a": 1}}}}]}
            """
        #expect {
            try snapshot(text)
        } throws: { error in
            "\(error)".contains("Snapshots/test.json:2:")
                && "\(error)".contains("$unordered takes an array of the elements expected in any order, not object")
        }
        let document = try JSONDocument.parse(
            Array(#"{"requests": [{"url": "https://x.example/e", "body": {"$unordered": [1]}}]}"#.utf8),
            file: "Snapshots/ok.json")
        #expect(Validation.lint(document: document).isEmpty)
        let unknown = try JSONDocument.parse(
            Array(#"{"requests": [{"url": "https://x.example/e", "body": {"$unordred": [1]}}]}"#.utf8),
            file: "Snapshots/typo.json")
        let messages = Validation.lint(document: unknown).map(\.message)
        #expect(messages.contains { $0.contains("unknown matcher $unordred") && $0.contains("$unordered") })
    }
}
