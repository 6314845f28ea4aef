import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapServer

/// What the inspector's stream sends of a request (`InspectedRequest`), held to what it sent
/// before its data became `RequestStream.Request`: `Fixtures/inspected-lines.ndjson` holds the
/// lines the hand-concatenated JSON of commit d1dfca6 made of `requests`, one a line, with the
/// redactor that knows them all.
@Suite("The inspector's line of a request: the members it always had, encoded by the control API's coder")
struct InspectedRequestWireTests {
    static let requests: [CapturedRequest] = [
        // GA4: a name at the limit, a purchase without items (a recommendation), a name beyond the
        // limit, an email in an event, a secret in the URL.
        CapturedRequest(
            id: "1", method: "POST",
            url: "http://127.0.0.1:8181/mp/collect?measurement_id=G-TEST&api_secret=s3cr3tvalue",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(
                #"{"client_id": "c1", "events": [{"name": "\#(String(repeating: "a", count: 40))", "params": {"contact": "bob@example.com"}}, {"name": "purchase", "params": {"value": 3}}, {"name": "\#(String(repeating: "b", count: 41))"}]}"#
            )),
        // Segment, not JSON: a decoder's problem, naming the vendor.
        CapturedRequest(
            id: "2", method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [.init(name: "Content-Type", value: "application/json")], body: .text("{not json")),
        // Refused, and a cassette's miss: both problems.
        CapturedRequest(
            id: "3", time: "2026-11-28T12:00:00Z", method: "POST", url: "http://t.example/e",
            session: "s1", serverOrigin: "http://127.0.0.1:8181", refused: "the body inflates beyond the limit",
            replayMiss: "no recorded answer", ingested: true),
        // Mixpanel: base64 JSON in a form's field, read step by step (layers).
        CapturedRequest(
            id: "4", method: "POST", url: "http://127.0.0.1:8181/track",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: .text(
                "data="
                    + (Data(#"{"event":"Signed Up","properties":{"token":"mp_1","distinct_id":"d1"}}"#.utf8)
                        .base64EncodedString().addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))),
        // Text that JSON must escape, a slash, a header with a quote, and a binary body.
        CapturedRequest(
            id: "5", method: "PUT", url: "http://t.example/a/b?q=%22x%22",
            headers: [.init(name: "X-Note", value: "say \"hi\"\t\\ / é \u{1F}\u{7F}\u{2028}")],
            body: .base64("AAEC/w==")),
        // No decoder claims it: personal data in its URL is the request's own.
        CapturedRequest(id: "6", method: "GET", url: "http://t.example/p?contact=ada%40example.com"),
    ]

    static func line(_ request: CapturedRequest) -> String {
        InspectedRequest.json(request, redactor: Redactor(requests: requests))
    }

    static func before() throws -> [String] {
        let file = PackagePaths.root.appending(path: "Tests/TracksnapServerTests/Fixtures/inspected-lines.ndjson")
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("each line is the one sent before, byte for byte once its members are in sorted order")
    func sameAsBefore() throws {
        let before = try Self.before()
        try #require(before.count == Self.requests.count)
        for (request, old) in zip(Self.requests, before) {
            let line = Self.line(request)
            let parsed = try JSONDocument.parse(Array(line.utf8), file: "new").value
            let oldParsed = try JSONDocument.parse(Array(old.utf8), file: "old").value
            #expect(parsed == oldParsed, "request \(request.id): \(line)")
            #expect(line == oldParsed.serialized(), "request \(request.id): \(line)")
        }
    }

    @Test("its request member is the redacted request's NDJSON line, as exports write it")
    func requestAsNDJSON() {
        let redactor = Redactor(requests: Self.requests)
        for request in Self.requests {
            #expect(Self.line(request).contains(#""request":"# + CaptureFile.ndjsonLine(redactor.redact(request))))
        }
    }

    @Test("each line decodes as a RequestStream.Request, which encodes to the same line")
    func roundTrip() throws {
        var decoded: [String: RequestStream.Request] = [:]
        for request in Self.requests {
            let line = Self.line(request)
            let value = try JSONValueCoder.decode(
                RequestStream.Request.self, from: JSONDocument.parse(Array(line.utf8), file: "line"))
            #expect(Response.text(of: value) == line)
            decoded[request.id] = value
        }
        let ga4 = try #require(decoded["1"])
        #expect(ga4.request.url.contains("api_secret=%5Bredacted%5D"))
        #expect(
            ga4.events.map(\.name) == [
                String(repeating: "a", count: 40), "purchase", String(repeating: "b", count: 41),
            ])
        #expect(ga4.events.map(\.privacy.count) == [1, 0, 0])
        #expect(ga4.events.map(\.warnings.count) == [0, 1, 0])
        #expect(ga4.events.map(\.rules.count) == [0, 0, 1])
        #expect(decoded["2"]?.vendor == "segment" && decoded["2"]?.problems.count == 1)
        #expect(decoded["3"]?.request.ingested == true && decoded["3"]?.problems.count == 2)
        #expect(decoded["4"]?.layers.map(\.at) == ["", "/data"])
        #expect(decoded["5"]?.request.body == .base64("AAEC/w=="))
        #expect(decoded["6"]?.privacy.count == 1 && decoded["6"]?.events == [])
    }
}
