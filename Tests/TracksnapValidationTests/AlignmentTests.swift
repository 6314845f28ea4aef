import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Alignment pairs entries before comparing them")
struct AlignmentTests {
    let expected = ["home", "search", "product", "cart", "checkout", "purchase"]

    @Test("identical traffic passes in either order mode", arguments: ["strict", "any"])
    func identical(order: String) throws {
        let result = validate(try screens(expected, order: order), screenRequests(expected))
        #expect(result.passed)
        #expect(result.entries.allSatisfy { $0.status == .matched })
    }

    @Test("one extra request is one finding, not a cascade", arguments: ["strict", "any"])
    func extra(order: String) throws {
        var captured = expected
        captured.insert("promo", at: 2)
        let result = validate(try screens(expected, order: order), screenRequests(captured))
        #expect(result.codes == [.unexpectedEvent])
        #expect(result.findings[0].request?.index == 2)
        #expect(result.findings[0].path == "/requests")
    }

    @Test("one missing request is one finding at the entry's own path", arguments: ["strict", "any"])
    func missing(order: String) throws {
        var captured = expected
        captured.remove(at: 3)
        let result = validate(try screens(expected, order: order), screenRequests(captured))
        #expect(result.codes == [.missingEvent])
        #expect(result.findings[0].path == "/requests/3")
        #expect(result.entries[3].status == .missing)
    }

    @Test("two swapped requests are an order mismatch in strict order and pass in any order")
    func swapped() throws {
        var captured = expected
        captured.swapAt(1, 2)
        let strict = validate(try screens(expected), screenRequests(captured))
        #expect(strict.codes == [.orderMismatch])
        #expect(validate(try screens(expected, order: "any"), screenRequests(captured)).passed)
    }

    @Test("a near miss is paired and its field reported, never missing and unexpected", arguments: ["strict", "any"])
    func nearMiss(order: String) throws {
        let s = try snapshot(
            #"""
            {"order": "\#(order)", "requests": [
              {"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "home", "screen": "Home"}},
              {"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "purchase", "value": "12.5", "currency": "EUR"}}
            ]}
            """#)
        let captured = [
            get("https://t.example.com/track?ev=home&screen=Home", id: 0),
            get("https://t.example.com/track?ev=purchase&value=12.5&currency=USD", id: 1),
        ]
        let result = validate(s, captured)
        #expect(result.codes == [.valueMismatch])
        #expect(result.findings[0].path == "/requests/1/parameters/currency")
        #expect(result.findings[0].expected == "EUR")
        #expect(result.findings[0].actual == "USD")
        #expect(result.entries[1].status == .mismatched)
        #expect(result.entries[1].request?.id == "1")
    }

    @Test(
        "in strict order, a near miss captured out of order is paired: its differences and its place, not missing and unexpected"
    )
    func nearMissOutOfOrder() throws {
        let s = try snapshot(
            #"""
            {"requests": [
              {"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "add", "sku": "sku-1"}},
              {"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "checkout", "order": "o-1"}},
              {"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "thanks", "step": "3"}}
            ]}
            """#)
        let captured = [
            get("https://t.example.com/track?ev=checkout&order=o-2", id: 0),
            get("https://t.example.com/track?ev=add&sku=sku-1", id: 1),
            get("https://t.example.com/track?ev=thanks&step=3", id: 2),
        ]
        let result = validate(s, captured)
        #expect(
            result.codes.sorted { $0.rawValue < $1.rawValue } == [.orderMismatch, .valueMismatch], "\(result.findings)")
        #expect(result.findings.allSatisfy { $0.request?.id == "0" })
        #expect(result.findings.first { $0.code == .valueMismatch }?.path == "/requests/1/parameters/order")
        #expect(result.entries.map(\.status) == [.matched, .mismatched, .matched])
    }

    @Test("a renamed event (another URL) with the same parameters is still a near miss")
    func renamedEndpoint() throws {
        let s = try snapshot(
            #"{"requests": [{"method": "POST", "url": "https://t.example.com/v1/track", "body": {"event": "Order Completed", "order_id": "o-1", "revenue": 12.5, "currency": "EUR"}}]}"#
        )
        let result = validate(
            s,
            [
                post(
                    "https://t.example.com/v2/track",
                    json: #"{"event": "Order Completed", "order_id": "o-1", "revenue": 12.5, "currency": "EUR"}"#)
            ])
        #expect(result.codes == [.valueMismatch])
        #expect(result.findings[0].path == "/requests/0/url")
    }

    @Test("a request sent twice is a count mismatch on its entry")
    func duplicate() throws {
        var captured = expected
        captured.insert("search", at: 2)
        let result = validate(try screens(expected), screenRequests(captured))
        #expect(result.codes == [.countMismatch])
        #expect(result.findings[0].path == "/requests/1")
        #expect(result.findings[0].actual == .number(2))
    }

    @Test("unexpected traffic is allowed when the snapshot says so")
    func allowUnexpected() throws {
        let s = try snapshot(
            #"{"unexpected": "allow", "requests": [{"url": "https://t.example.com/track", "parameters": {"ev": "home"}}]}"#
        )
        let result = validate(s, screenRequests(["boot", "home", "other"]))
        #expect(result.passed)
    }

    @Test("any order finds the optimal pairing, not the first one that fits")
    func optimalAssignment() throws {
        let s = try snapshot(
            #"""
            {"order": "any", "requests": [
              {"url": "https://t.example.com/track", "parameters": {"ev": "view", "a": "1", "b": "2", "c": "3"}},
              {"url": "https://t.example.com/track", "parameters": {"ev": "view", "a": "1", "b": "x", "c": "y"}}
            ]}
            """#)
        // Greedy pairing of entry 0 with request 0 would leave entry 1 with two differences.
        let captured = [
            get("https://t.example.com/track?ev=view&a=1&b=x&c=3", id: 0),
            get("https://t.example.com/track?ev=view&a=1&b=2&c=9", id: 1),
        ]
        let result = validate(s, captured)
        #expect(result.findings.count == 2)
        #expect(Set(result.findings.map(\.path)) == ["/requests/0/parameters/c", "/requests/1/parameters/c"])
    }

    @Test("thousands of shuffled requests are paired in any order")
    func manyShuffled() throws {
        let names = (0..<2_000).map { "screen\($0)" }
        var generator = SeededGenerator(seed: 7)
        let captured = names.shuffled(using: &generator)
        let result = validate(try screens(names, order: "any"), screenRequests(captured))
        #expect(result.passed)
        #expect(result.entries.count == 2_000)
    }
}
