import Testing
import TracksnapDecoders
import TracksnapSnapshot
import TracksnapTraffic

/// Traffic that is not (provably) a vendor's: it must stay a request.
let unknownTraffic: [(label: String, request: CapturedRequest)] = [
    (
        "the demo's own collector, GET /v1/e",
        .init(id: "1", method: "GET", url: "https://collect.acme-shop.example/v1/e?ev=add_to_cart&qty=2")
    ),
    (
        "a first-party /v1/track without Segment's shape",
        .init(
            id: "2", method: "POST", url: "https://collect.acme-shop.example/v1/track",
            body: .text("{\"event\": \"purchase\", \"properties\": {\"revenue\": 59.9}}"))
    ),
    ("an app's /collect without v=1", .init(id: "3", method: "GET", url: "https://api.example.com/collect?item=5")),
    (
        "an app's /batch of plain JSON",
        .init(id: "4", method: "POST", url: "https://api.example.com/batch", body: .text("{\"jobs\": [1, 2]}"))
    ),
    (
        "an app's /track with a non-JSON body",
        .init(id: "5", method: "POST", url: "https://api.example.com/track", body: .text("hello"))
    ),
    (
        "an app's /e with a non-JSON body",
        .init(id: "6", method: "POST", url: "https://api.example.com/e", body: .text("<xml/>"))
    ),
    ("an app's GET /i without a tracker version", .init(id: "7", method: "GET", url: "https://cdn.example.com/i?e=1")),
    ("an app's /tr without a pixel id", .init(id: "8", method: "GET", url: "https://api.example.com/tr?ev=x")),
    (
        "an app's /engage with a form",
        .init(
            id: "9", method: "POST", url: "https://api.example.com/engage",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")], body: .text("user=5"))
    ),
    ("a page load", .init(id: "10", method: "GET", url: "https://shop.example/product/sku-1")),
    (
        "a form with e= but no Amplitude client",
        .init(
            id: "11", method: "POST", url: "https://api.example.com/",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: .text("e=%5B%5D&x=1"))
    ),
    (
        "a browser's CORS preflight to Segment's endpoint",
        .init(
            id: "12", method: "OPTIONS", url: "https://api.segment.io/v1/t",
            headers: [.init(name: "Access-Control-Request-Method", value: "POST")])
    ),
    (
        "a CORS preflight to Meta's app events",
        .init(id: "13", method: "OPTIONS", url: "https://graph.facebook.com/v17.0/1/activities")
    ),
]

@Suite("Unknown traffic is not claimed: it stays a request")
struct UnclaimedTests {
    @Test("no built-in decoder claims it", arguments: unknownTraffic.map(\.label))
    func unclaimed(_ label: String) throws {
        let request = try #require(unknownTraffic.first { $0.label == label }?.request)
        #expect(Decoders.decode(request) == .unclaimed)
        for decoder in VendorDecoder.all { #expect(decoder.decode(request) == .unclaimed, "\(decoder.vendor)") }
    }

    @Test("an empty decoder list claims nothing, even a Segment batch")
    func emptyList() throws {
        let request = try #require(try Fixtures.requests("segment.ndjson").first)
        #expect(Decoders.decode(request, using: []) == .unclaimed)
    }

    @Test("a decoder list without the vendor leaves its traffic unclaimed")
    func otherVendorsOnly() throws {
        let request = try #require(try Fixtures.requests("amplitude-batch.ndjson").first)
        #expect(Decoders.decode(request, using: [.segment, .posthog, .universalAnalytics]) == .unclaimed)
        #expect(Decoders.decode(request, using: [.amplitude]).events.count == 3)
    }
}
