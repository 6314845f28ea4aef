import Testing
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// A Segment `/v1/batch` request carrying these `track` calls, as analytics-python sends them.
private func segmentBatch(_ events: [(name: String, properties: String)], id: Int = 0) -> CapturedRequest {
    let batch = events.enumerated().map { index, event in
        #"{"type": "track", "event": "\#(event.name)", "userId": "u-1", "properties": \#(event.properties), "messageId": "m-\#(index)", "timestamp": "2026-11-21T08:00:0\#(index)Z"}"#
    }
    return post(
        "https://api.segment.io/v1/batch",
        json:
            #"{"batch": [\#(batch.joined(separator: ","))], "writeKey": "wk_secret_value", "sentAt": "2026-11-21T08:00:09Z"}"#,
        id: id)
}

@Suite("Event-level validation: vendor traffic compared event by event")
struct EventValidationTests {
    let checkout = """
        {"events": [
          {"vendor": "segment", "type": "track", "name": "Product Viewed", "properties": {"sku": "sku-1"}},
          {"vendor": "segment", "type": "track", "name": "Order Completed",
           "properties": {"order_id": {"$regex": "o-[0-9]+"}, "revenue": 12.5, "currency": "EUR"}}
        ]}
        """

    @Test(
        "an empty events list is checked at the event level: each event sent is unexpected, a request no decoder reads a decode_error"
    )
    func emptyEventsList() throws {
        let none = try snapshot(#"{"validator": "segment", "events": []}"#)
        let sent = validate(
            none, [segmentBatch([("Order Completed", #"{"revenue": 1}"#)])],
            profile: try #require(Profile.builtIn("segment")))
        #expect(sent.findings.map(\.code) == [.unexpectedEvent], "\(sent.findings.map(\.message))")
        #expect(sent.events == 1)
        let unreadable = post("https://api.segment.io/v1/batch", json: #"{"batch": 7}"#)
        let broken = validate(none, [unreadable], profile: try #require(Profile.builtIn("segment")))
        #expect(broken.findings.map(\.code) == [.decodeError], "\(broken.findings.map(\.message))")
    }

    @Test("events inside one batch are paired with the snapshot's events, and the batch request is not unexpected")
    func batchPasses() throws {
        let request = segmentBatch([
            ("Product Viewed", #"{"sku": "sku-1"}"#),
            ("Order Completed", #"{"order_id": "o-7", "revenue": 12.50, "currency": "EUR"}"#),
        ])
        let result = validate(try snapshot(checkout), [request])
        #expect(result.findings.isEmpty)
        #expect(result.events == 2)
        #expect(result.entries.map(\.summary) == ["segment track Product Viewed", "segment track Order Completed"])
        #expect(result.entries.allSatisfy { $0.request?.id == "0" })
    }

    @Test("a changed property is a finding at the event's path, naming the request it came from")
    func propertyMismatch() throws {
        let request = segmentBatch(
            [
                ("Product Viewed", #"{"sku": "sku-1"}"#),
                ("Order Completed", #"{"order_id": "o-7", "revenue": 12.5, "currency": "USD"}"#),
            ], id: 4)
        let result = validate(try snapshot(checkout), [request])
        #expect(result.codes == [.valueMismatch])
        #expect(result.findings[0].path == "/events/1/properties/currency")
        #expect(result.findings[0].request?.id == "4")
    }

    @Test("a renamed event is a near miss on its name; an extra event is unexpected; a missing one is missing")
    func renamedExtraMissing() throws {
        let renamed = segmentBatch([
            ("Product Viewed", #"{"sku": "sku-1"}"#),
            ("Order Complete", #"{"order_id": "o-7", "revenue": 12.5, "currency": "EUR"}"#),
        ])
        #expect(validate(try snapshot(checkout), [renamed]).findings.map(\.path) == ["/events/1/name"])

        let extra = segmentBatch([
            ("Product Viewed", #"{"sku": "sku-1"}"#), ("Coupon Applied", #"{"code": "X"}"#),
            ("Order Completed", #"{"order_id": "o-7", "revenue": 12.5, "currency": "EUR"}"#),
        ])
        let extraResult = validate(try snapshot(checkout), [extra])
        #expect(extraResult.codes == [.unexpectedEvent])
        #expect(extraResult.findings[0].path == "/events")
        #expect(extraResult.findings[0].message.contains("segment track \"Coupon Applied\""))

        let missing = segmentBatch([("Order Completed", #"{"order_id": "o-7", "revenue": 12.5, "currency": "EUR"}"#)])
        let missingResult = validate(try snapshot(checkout), [missing])
        #expect(missingResult.codes == [.missingEvent])
        #expect(missingResult.findings[0].path == "/events/0")
    }

    @Test("the write key never reaches an event, a finding or the events' context")
    func writeKeyDropped() throws {
        let request = segmentBatch([
            ("Product Viewed", #"{"sku": "sku-2"}"#),
            ("Order Completed", #"{"order_id": "o-7", "revenue": 1, "currency": "EUR"}"#),
        ])
        let result = validate(try snapshot(checkout), [request])
        #expect(!result.findings.isEmpty)
        #expect(!"\(result)".contains("wk_secret_value"))
    }

    @Test("vendor traffic a decoder recognises but cannot decode is a decode_error with the reason")
    func decodeError() throws {
        let broken = post("https://api.segment.io/v1/batch", json: #"{"batch": [ {"type": "track", "event": "#, id: 3)
        let result = validate(try snapshot(checkout), [broken])
        let error = try #require(result.findings.first { $0.code == .decodeError })
        #expect(error.path == "/events")
        #expect(error.message.contains("segment"))
        #expect(error.request?.id == "3")
        #expect(!result.passed)
    }

    @Test(
        "a snapshot may hold requests and events: unclaimed requests are compared as requests, claimed ones only as events"
    )
    func requestsAndEvents() throws {
        let mixed = try snapshot(
            """
            {"requests": [{"method": "GET", "url": "https://cdn.example.com/pixel.gif", "parameters": {"page": "home"}}],
             "events": [{"vendor": "segment", "type": "track", "name": "Product Viewed"}]}
            """)
        let traffic = [
            get("https://cdn.example.com/pixel.gif?page=home", id: 0),
            segmentBatch([("Product Viewed", #"{"sku": "sku-1"}"#)], id: 1),
        ]
        #expect(validate(mixed, traffic).findings.isEmpty)
        let stray = traffic + [get("https://cdn.example.com/other.gif", id: 2)]
        let result = validate(mixed, stray)
        #expect(result.codes == [.unexpectedEvent])
        #expect(result.findings[0].request?.id == "2")
    }

    @Test("a profile's decoders decide which traffic becomes events")
    func profileDecoders() throws {
        var onlyGA4 = Profile.builtInDefault
        onlyGA4.decoders = ["ga4"]
        let request = segmentBatch([("Product Viewed", #"{"sku": "sku-1"}"#)])
        let result = validate(
            try snapshot(#"{"events": [{"vendor": "segment", "name": "Product Viewed"}]}"#), [request], profile: onlyGA4
        )
        #expect(result.codes.contains(.missingEvent))
        #expect(result.codes.contains(.unexpectedEvent))  // the undecoded request, at the request level
    }
}
