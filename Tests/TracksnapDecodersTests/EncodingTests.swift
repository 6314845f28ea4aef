import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

@Suite("Encodings: gzip, base64, base64url without padding, JSON in a parameter")
struct EncodingTests {
    private func views(_ requests: [CapturedRequest]) -> [JSONValue] {
        requests.flatMap { Decoders.decode($0).events }.map(\.validationView)
    }

    @Test(
        "a raw gzip body (bytes 1F 8B, no Content-Encoding undone) decodes like the inflated capture",
        arguments: [
            ("segment-gzip-raw.ndjson", "segment-gzip.ndjson"), ("rudderstack-raw.ndjson", "rudderstack.ndjson"),
            ("posthog-gzip-raw.ndjson", "posthog-gzip.ndjson"),
        ])
    func rawGzip(_ raw: String, _ inflated: String) throws {
        let rawRequests = try Fixtures.requests(raw)
        let bytes = try #require(rawRequests.first?.bodyBytes)
        #expect(ContentDecoding.looksGzipped(bytes))
        #expect(views(rawRequests) == views(try Fixtures.requests(inflated)))
        #expect(!views(rawRequests).isEmpty)
    }

    @Test("Mixpanel data= as base64url without padding, standard base64, or URL-encoded JSON decodes alike")
    func mixpanelBase64Variants() throws {
        let original = try #require(try Fixtures.requests("mixpanel.ndjson").first)
        let json = try #require(original.formItems.first { $0.name == "data" }?.value)
        let standard = Data(json.utf8).base64EncodedString()
        let urlSafe = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let expected = Decoders.decode(original).events.map(\.validationView)
        #expect(expected.count == 1)
        for data in [standard, urlSafe, String(standard.trimmingCharacters(in: ["="]))] {
            var request = original
            request.body = .text(
                "data=" + (data.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? data)
                    + "&verbose=1&ip=0")
            #expect(Decoders.decode(request).events.map(\.validationView) == expected, "data=\(data.prefix(12))…")
        }
    }

    @Test("Snowplow ue_px and cx decode padded, unpadded and in the standard alphabet")
    func snowplowBase64URL() throws {
        let original = try #require(try Fixtures.requests("snowplow-get.ndjson").last)
        let expected = Decoders.decode(original).events.map(\.validationView)
        #expect(expected.first?["name"] == "iglu:com.acme/checkout/jsonschema/1-0-0")
        let items = original.queryItems
        for variant in ["unpadded", "standard"] {
            let query = items.map { item -> String in
                var value = item.value
                if item.name == "ue_px" || item.name == "cx" {
                    value =
                        variant == "unpadded"
                        ? value.trimmingCharacters(in: ["="])
                        : value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                }
                return item.name + "=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)
            }.joined(separator: "&")
            var request = original
            request.url = "http://collector.example/i?" + query
            #expect(Decoders.decode(request).events.map(\.validationView) == expected, "\(variant)")
        }
    }

    @Test("posthog-js gzip-js and base64 bodies decode to the same event")
    func posthogCompressions() throws {
        let events = try Fixtures.events("posthog-js.ndjson")
        let fromGzip = try #require(events.first { $0.request == "1" && $0.name == "product added" })
        let fromBase64 = try #require(events.first { $0.request == "2" })
        #expect(fromGzip.validationView == fromBase64.validationView)
    }
}

@Suite("A request the capture refused")
struct RefusedRequestTests {
    @Test("a decoder that claims it gives the refusal as its reason, not a missing body")
    func refusalIsTheReason() {
        let request = CapturedRequest(
            id: "4", method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [.init(name: "Content-Type", value: "application/json")],
            refused: "the body inflates beyond the limit of 16777216 bytes")
        guard case .failed(let error) = Decoders.decode(request) else {
            Issue.record("a refused Segment batch decoded: \(Decoders.decode(request))")
            return
        }
        #expect(
            error.description == "segment: the capture refused it: the body inflates beyond the limit of 16777216 bytes"
        )
    }
}
