import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// Values of a volatile shape are recorded as matchers describing the shape; ordinary data
/// stays literal.
@Suite("Recording volatile values as patterns")
struct VolatileValuesTests {
    /// The capture time of every request here: epoch times count near it.
    static let time = "2026-11-22T19:00:00Z"

    struct Shape: Sendable, CustomTestStringConvertible {
        let value: String
        let matcher: String
        let reason: String
        var testDescription: String { "\(reason): \(value)" }
    }

    static let shapes = [
        Shape(
            value: #""0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c""#,
            matcher: #"{"$regex":"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"}"#, reason: "uuid"),
        Shape(
            value: #""0B7F2C1E-8A8D-1C1E-9A43-5E0D6B1F2A3C""#,
            matcher: #"{"$regex":"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"}"#, reason: "uuid"),
        Shape(
            value: #""2026-11-22T18:59:31.123Z""#,
            matcher:
                #"{"$regex":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.,][0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})"}"#,
            reason: "timestamp"),
        Shape(
            value: #""2026-11-22 19:59:31+01:00""#,
            matcher:
                #"{"$regex":"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}([.,][0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})"}"#,
            reason: "timestamp"),
        Shape(value: "1795373998123", matcher: #"{"$regex":"[0-9]{13}"}"#, reason: "epoch-ms"),
        Shape(value: #""1795373998""#, matcher: #"{"$regex":"[0-9]{10}"}"#, reason: "epoch-s"),
        Shape(value: "1795373998.25", matcher: #"{"$regex":"[0-9]{10}(\\.[0-9]+)?"}"#, reason: "epoch-s"),
        Shape(value: "1795373998123456", matcher: #"{"$regex":"[0-9]{16}"}"#, reason: "epoch-us"),
        Shape(value: #""1234567890.1792782000""#, matcher: #"{"$regex":"[0-9]+\\.[0-9]{10}"}"#, reason: "client-id"),
        Shape(value: #""9f86d081884c7d659a2feaa0c55ad015""#, matcher: #"{"$regex":"[0-9a-f]{32}"}"#, reason: "hex"),
        Shape(value: #""dGhpcyBpc_yBhIHRva2Vu-x9Qz""#, matcher: #"{"$regex":"[A-Za-z0-9_-]{26}"}"#, reason: "base64"),
        Shape(value: #""q8Zt3+Yw/Pk2LmR7vX0aBc9=""#, matcher: #"{"$regex":"[A-Za-z0-9+/]{23}={1}"}"#, reason: "base64"),
        Shape(value: #""483920175""#, matcher: #"{"$regex":"[0-9]+"}"#, reason: "random-id"),
        Shape(value: "8472910365", matcher: #"{"$type":"integer"}"#, reason: "random-id"),
        Shape(
            value: #""http://127.0.0.1:41589/cart""#,
            matcher: #"{"$regex":"http://(127\\.[0-9]+\\.[0-9]+\\.[0-9]+|localhost|\\[::1\\]):[0-9]+\\/cart"}"#,
            reason: "local-origin"),
    ]

    @Test(
        "a volatile value is recorded as the matcher of its shape, listed, and the snapshot still validates",
        arguments: shapes)
    func volatile(_ shape: Shape) throws {
        let request = Self.post(#"{"event": "Order Completed", "v": \#(shape.value)}"#)
        let (snapshot, outcome) = try Self.record([request])
        #expect(snapshot.at("/requests/0/body/v") == (try Self.parse(shape.matcher)))
        #expect(snapshot.at("/requests/0/body/event") == "Order Completed")
        #expect(outcome.generalized == [Generalization(path: "/requests/0/body/v", reason: shape.reason)])
        try Self.expectValidates(snapshot, [request])
    }

    static let ordinary = [
        #""Order Completed""#, "12.5", "2", "59.90", #""A-1001""#, #""EUR""#, "true", "false", "null",
        #""add_to_cart""#,
        #""https://shop.example/products/42""#, #""http://shop.example:8080/products/42""#,
        #""ProductListViewedFromHomeScreen2""#,
        #""2026-11-22""#, "100000000", #""Checkout Step 2""#, #""abc123""#, #""/shop/Product/Details/2""#,
        #""12345678""#,
        #""deadbeefdeadbeef""#, #""o-1001""#, "1000000000000",
        // Base64 of JSON is a payload whose changes matter, not a token.
        #""eyJldmVudCI6Ik9yZGVyIENvbXBsZXRlZCIsInJldmVudWUiOjEyLjV9""#,
    ]

    @Test("ordinary data stays literal", arguments: ordinary)
    func ordinaryData(_ value: String) throws {
        let (snapshot, outcome) = try Self.record([Self.post(#"{"v": \#(value)}"#)])
        #expect(snapshot.at("/requests/0/body/v") == (try Self.parse(value)))
        #expect(outcome.generalized.isEmpty)
    }

    @Test("a URL keeps its host and plain path segments and generalises a volatile segment")
    func urlSegments() throws {
        let url = "https://api.example.com/v1/users/0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c/orders/42"
        let (snapshot, outcome) = try Self.record([
            CapturedRequest(id: "1", time: Self.time, method: "GET", url: url + "?x=1")
        ])
        #expect(
            snapshot.at("/requests/0/url") == [
                "$regex":
                    #"https:\/\/api\.example\.com\/v1\/users\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/orders\/42"#
            ])
        #expect(outcome.generalized.map(\.description) == ["/requests/0/url (uuid)"])
        let other = CapturedRequest(
            id: "1", method: "GET",
            url: "https://api.example.com/v1/users/11111111-2222-4333-8444-555555555555/orders/42?x=1")
        try Self.expectValidates(snapshot, [other])
        let wrongPath = CapturedRequest(
            id: "1", method: "GET",
            url: "https://api.example.com/v1/users/11111111-2222-4333-8444-555555555555/orders/43?x=1")
        #expect(try Self.findings(snapshot, [wrongPath]).map(\.code) == [.patternMismatch])
    }

    @Test("the capture server's origin is recorded so that any port and any loopback address passes, and nothing else")
    func serverOrigin() throws {
        let captured = CapturedRequest(
            id: "1", time: Self.time, method: "POST", url: "http://127.0.0.1:41589/v1/batch",
            serverOrigin: "http://127.0.0.1:41589")
        let (snapshot, outcome) = try Self.record([captured])
        #expect(
            snapshot.at("/requests/0/url") == [
                "$regex": #"http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]):[0-9]+\/v1\/batch"#
            ])
        #expect(outcome.generalized.map(\.description) == ["/requests/0/url (local-origin)"])
        for url in [
            "http://127.0.0.1:52113/v1/batch", "http://localhost:8080/v1/batch", "http://[::1]:3000/v1/batch",
            "http://127.0.0.2:1/v1/batch",
        ] {
            try Self.expectValidates(snapshot, [CapturedRequest(id: "1", method: "POST", url: url)])
        }
        for url in [
            "https://api.segment.io/v1/batch", "http://127.0.0.1:52113/v1/batches", "http://evil.example:80/v1/batch",
            "https://127.0.0.1:52113/v1/batch",
        ] {
            #expect(
                try Self.findings(snapshot, [CapturedRequest(id: "1", method: "POST", url: url)]).count == 1, "\(url)")
        }
    }

    @Test("a server reached on another host than loopback keeps that host among the accepted ones")
    func serverOriginOnAnotherHost() throws {
        let captured = CapturedRequest(
            id: "1", time: Self.time, method: "GET", url: "http://10.0.2.2:8080/e", serverOrigin: "http://10.0.2.2:8080"
        )
        let (snapshot, _) = try Self.record([captured])
        #expect(
            snapshot.at("/requests/0/url") == [
                "$regex": #"http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]|10\.0\.2\.2):[0-9]+\/e"#
            ])
    }

    @Test("a remote URL with a port, as a forward proxy records it, stays literal")
    func forwardProxyURL() throws {
        let (snapshot, outcome) = try Self.record([
            CapturedRequest(id: "1", time: Self.time, method: "GET", url: "http://collect.example.com:8080/e")
        ])
        #expect(snapshot.at("/requests/0/url") == "http://collect.example.com:8080/e")
        #expect(outcome.generalized.isEmpty)
    }

    @Test("record.generalize false records every value as captured")
    func generalizeOff() throws {
        let profile = try recordingProfile(#"{"record": {"generalize": false}}"#)
        let request = CapturedRequest(
            id: "1", time: Self.time, method: "POST",
            url: "http://127.0.0.1:41589/v1/users/0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(
                #"{"id": "0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c", "ts": 1795373998123, "at": "2026-11-22T18:59:31Z"}"#),
            serverOrigin: "http://127.0.0.1:41589")
        let (snapshot, outcome) = try Self.record([request], profile: profile)
        #expect(
            snapshot.at("/requests/0/url") == "http://127.0.0.1:41589/v1/users/0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c")
        #expect(
            snapshot.at("/requests/0/body") == [
                "id": "0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c", "ts": .number("1795373998123"),
                "at": "2026-11-22T18:59:31Z",
            ])
        #expect(outcome.generalized.isEmpty)
    }

    @Test("fields record.literal names are recorded as captured, the others still generalised")
    func literalFields() throws {
        let profile = try recordingProfile(#"{"record": {"literal": ["/body/order_id", "build"]}}"#)
        let request = Self.post(
            #"{"order_id": "0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c", "meta": {"build": "9f86d081884c7d659a2feaa0c55ad015"}, "ts": 1795373998123}"#
        )
        let (snapshot, outcome) = try Self.record([request], profile: profile)
        #expect(snapshot.at("/requests/0/body/order_id") == "0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c")
        #expect(snapshot.at("/requests/0/body/meta/build") == "9f86d081884c7d659a2feaa0c55ad015")
        #expect(outcome.generalized.map(\.description) == ["/requests/0/body/ts (epoch-ms)"])
    }

    @Test("secrets stay redacted and are not listed as patterns; parameters are generalised as strings")
    func secretsAndParameters() throws {
        let request = CapturedRequest(
            id: "1", time: Self.time, method: "GET",
            url:
                "https://t.example.com/e?ev=view&ts=1795373998123&api_key=9f86d081884c7d659a2feaa0c55ad015&visit=483920175"
        )
        let (snapshot, outcome) = try Self.record([request])
        #expect(
            snapshot.at("/requests/0/parameters") == [
                "ev": "view", "ts": ["$regex": "[0-9]{13}"], "api_key": ["$type": "string"],
                "visit": ["$regex": "[0-9]+"],
            ])
        #expect(
            outcome.generalized.map(\.description) == [
                "/requests/0/parameters/ts (epoch-ms)", "/requests/0/parameters/visit (random-id)",
            ])
        try Self.expectValidates(snapshot, [request])
    }

    @Test("an epoch time far from the capture time is an ordinary number, or a random id")
    func epochNearCaptureOnly() throws {
        let (snapshot, _) = try Self.record([Self.post(#"{"old": 1262304000000, "seconds": "1262304123"}"#)])
        #expect(snapshot.at("/requests/0/body/old") == .number("1262304000000"), "2010, round: data")
        #expect(
            snapshot.at("/requests/0/body/seconds") == ["$regex": "[0-9]+"],
            "2010 in seconds: a random-looking id, not an epoch")
    }

    @Test(
        "JSON carried as text in a form field keeps its text and frees only its volatile values; a changed value still fails"
    )
    func jsonInFormField() throws {
        func data(_ time: String, _ id: String, plan: String) -> CapturedRequest {
            let json = #"{"event":"Signed Up","properties":{"time":\#(time),"$insert_id":"\#(id)","plan":"\#(plan)"}}"#
            let encoded = json.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? json
            var request = form("https://api.mixpanel.example/track", "data=\(encoded)&verbose=1")
            request.time = Self.time
            return request
        }
        let (snapshot, outcome) = try Self.record([
            data("1795373998.5096626", "8d2a8e8824ee4133bcbfeea19fe06c97", plan: "pro")
        ])
        #expect(
            snapshot.at("/requests/0/parameters/data") == [
                "$regex":
                    #"\{"event":"Signed Up","properties":\{"time":[0-9]{10}(\.[0-9]+)?,"\$insert_id":"[0-9a-f]{32}","plan":"pro"\}\}"#
            ])
        #expect(outcome.generalized.map(\.description) == ["/requests/0/parameters/data (epoch-s, hex in JSON text)"])
        try Self.expectValidates(snapshot, [data("1795374123.25", "0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f", plan: "pro")])
        #expect(
            try Self.findings(snapshot, [data("1795374123.25", "0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f", plan: "team")]).map(
                \.code) == [.patternMismatch])

        let plain = try Self.record([form("https://api.mixpanel.example/track", "data=%7B%22plan%22%3A%22pro%22%7D")]).0
        #expect(
            plain.at("/requests/0/parameters/data") == #"{"plan":"pro"}"#,
            "JSON text with nothing volatile stays literal")
    }

    @Test("an epoch time counts near the request's own capture time, not today's")
    func epochNearRequestTime() throws {
        let body = #"{"ts": 1451606400123}"#
        let then = CapturedRequest(
            id: "1", time: "2016-01-01T00:00:05.5Z", method: "POST", url: "https://t.example.com/e", body: .text(body))
        #expect(try Self.record([then]).0.at("/requests/0/body/ts") == ["$regex": "[0-9]{13}"])
        let undated = CapturedRequest(id: "1", method: "POST", url: "https://t.example.com/e", body: .text(body))
        #expect(
            try Self.record([undated]).1.generalized.map(\.reason) == ["random-id"],
            "ten years from now: a long number, not a time")
    }

    @Test("event entries are generalised too, the identity fields never")
    func events() throws {
        let profile = try recordingProfile(
            #"{"decoders": ["segment"], "record": {"context": ["messageId", "context.library.name"]}}"#)
        let body =
            #"{"batch": [{"type": "track", "event": "Order Completed", "messageId": "0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c", "context": {"library": {"name": "analytics-python"}}, "properties": {"revenue": 12.5, "order_id": "483920175"}}]}"#
        let request = CapturedRequest(
            id: "1", time: Self.time, method: "POST", url: "https://api.segment.io/v1/batch", body: .text(body))
        let (snapshot, outcome) = try Self.record([request], profile: profile)
        #expect(snapshot.at("/events/0/name") == "Order Completed")
        #expect(
            snapshot.at("/events/0/context/messageId") == [
                "$regex": "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
            ])
        #expect(snapshot.at("/events/0/context/context/library/name") == "analytics-python")
        #expect(
            outcome.generalized.map(\.description) == [
                "/events/0/context/messageId (uuid)", "/events/0/properties/order_id (random-id)",
            ])
        try Self.expectValidates(snapshot, [request], profile: profile)
    }

    @Test(
        "captures written before the server recorded its origin: a loopback origin with a port is treated as the server's"
    )
    func loopbackWithoutServerOrigin() throws {
        let (snapshot, _) = try Self.record([
            CapturedRequest(id: "1", time: Self.time, method: "GET", url: "http://localhost:41589/e")
        ])
        #expect(
            snapshot.at("/requests/0/url") == [
                "$regex": #"http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]):[0-9]+\/e"#
            ])
    }

    @Test("the server origin survives an NDJSON round trip and is absent when not set")
    func ndjsonServerOrigin() throws {
        let request = CapturedRequest(
            id: "1", method: "GET", url: "http://127.0.0.1:41589/e", serverOrigin: "http://127.0.0.1:41589")
        let line = CaptureFile.ndjsonLine(request)
        #expect(line.contains(#""serverOrigin":"http://127.0.0.1:41589""#))
        #expect(
            try CaptureFile.read(data: Data(line.utf8), file: "c.ndjson").first?.serverOrigin
                == "http://127.0.0.1:41589")
        #expect(
            !CaptureFile.ndjsonLine(CapturedRequest(id: "1", method: "GET", url: "http://t.example/e")).contains(
                "serverOrigin"))
    }

    // MARK: helpers

    static func post(_ json: String) -> CapturedRequest {
        CapturedRequest(
            id: "1", time: time, method: "POST", url: "https://t.example.com/track",
            headers: [.init(name: "Content-Type", value: "application/json")], body: .text(json))
    }

    static func parse(_ text: String) throws -> JSONValue {
        try JSONDocument.parse(Array(text.utf8), file: "value", trackLocations: false).value
    }

    /// Records through `SnapshotRecorder.record`, returning the file's JSON and the outcome.
    static func record(_ requests: [CapturedRequest], profile: Profile = .builtInDefault) throws -> (
        JSONValue, RecordOutcome
    ) {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            let outcome = try SnapshotRecorder(profile: profile).record(requests, snapshotAt: path, mode: .all)
            return (try json(at: path), outcome)
        }
    }

    static func findings(_ snapshot: JSONValue, _ requests: [CapturedRequest], profile: Profile = .builtInDefault)
        throws -> [Finding]
    {
        let parsed = try Snapshot.parse(document: JSONDocument(file: "s.json", value: snapshot, locations: [:]))
        return SnapshotValidator().validate(parsed, requests: requests, profile: profile).findings
    }

    static func expectValidates(
        _ snapshot: JSONValue, _ requests: [CapturedRequest], profile: Profile = .builtInDefault,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let findings = try findings(snapshot, requests, profile: profile)
        #expect(findings.isEmpty, "\(findings.map(\.message))", sourceLocation: sourceLocation)
    }
}
