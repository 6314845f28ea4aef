import Foundation
import Testing
import TracksnapDecoders
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

/// A request a vendor claims but cannot decode, and the reason it must give.
struct BrokenRequest: Sendable, CustomTestStringConvertible {
    let label: String
    let request: CapturedRequest
    let vendor: String
    let reason: String
    var testDescription: String { label }
}

private func post(_ url: String, _ body: CapturedRequest.Body?, type: String? = nil) -> CapturedRequest {
    CapturedRequest(
        id: "9", method: "POST", url: url, headers: type.map { [.init(name: "Content-Type", value: $0)] } ?? [],
        body: body)
}

let brokenRequests: [BrokenRequest] = [
    .init(
        label: "Segment body not JSON", request: post("https://api.segment.io/v1/batch", .text("{\"batch\": [nope")),
        vendor: "segment", reason: "body is not JSON: line 1, column 12: unexpected word 'nope'"),
    .init(
        label: "Segment batch without a batch array",
        request: post("https://api.segment.io/v1/batch", .text("{\"events\": []}")),
        vendor: "segment", reason: "body has no \"batch\" array"),
    .init(
        label: "Segment batch entry without type",
        request: post("https://api.segment.io/v1/batch", .text("{\"batch\": [{\"event\": \"x\"}]}")),
        vendor: "segment", reason: "batch[0] has no \"type\""),
    .init(
        label: "RudderStack truncated gzip",
        request: post("https://hosted.rudderlabs.com/v1/batch", .base64("H4sIAAAAAAAA/6tWSko=")),
        vendor: "rudderstack", reason: "gzip body cannot be inflated: compressed body is truncated"),
    .init(
        label: "Mixpanel data neither base64 nor JSON",
        request: post(
            "https://api.mixpanel.com/track", .text("data=%%%not-it"), type: "application/x-www-form-urlencoded"),
        vendor: "mixpanel", reason: "data is neither base64 nor JSON"),
    .init(
        label: "Amplitude body not JSON", request: post("https://api2.amplitude.com/2/httpapi", .text("api_key=x")),
        vendor: "amplitude", reason: "body is not JSON"),
    .init(
        label: "Snowplow tp2 without data",
        request: post("https://c.example/com.snowplowanalytics.snowplow/tp2", .text("{\"schema\": \"x\"}")),
        vendor: "snowplow", reason: "body has no \"data\" array"),
    .init(
        label: "Snowplow ue_px not base64url JSON",
        request: CapturedRequest(id: "9", method: "GET", url: "https://c.example/i?e=ue&tv=js-3.0.0&ue_px=bm90IGpzb24"),
        vendor: "snowplow", reason: "ue_px is not JSON"),
    .init(
        label: "PostHog lz64",
        request: post("https://us.i.posthog.com/e/?compression=lz64&ver=1.194.3", .text("data=N4IgLglmA2CmB0ArEA")),
        vendor: "posthog", reason: "lz64 compression is not supported"),
    .init(
        label: "PostHog event without a name",
        request: post("https://us.i.posthog.com/batch/", .text("{\"api_key\":\"k\",\"batch\":[{\"properties\":{}}]}")),
        vendor: "posthog", reason: "batch[0] has no \"event\""),
    .init(
        label: "GA4 Measurement Protocol without events",
        request: post("https://www.google-analytics.com/mp/collect?api_secret=s", .text("{\"client_id\": \"1\"}")),
        vendor: "ga4", reason: "body has no \"events\" array"),
    .init(
        label: "Universal Analytics hit without t",
        request: post("https://www.google-analytics.com/collect", .text("v=1&tid=UA-1-1&cid=5")),
        vendor: "universal-analytics", reason: "a hit lacks the protocol version v=1 or the hit type t"),
    .init(
        label: "Meta pixel without ev",
        request: CapturedRequest(id: "9", method: "GET", url: "https://www.facebook.com/tr/?id=1"),
        vendor: "meta-pixel", reason: "request has no ev parameter"),
]

@Suite("An undecodable body is an error with the reason, never a crash or a silent drop")
struct DecodeErrorTests {
    @Test("the claiming vendor reports what failed", arguments: brokenRequests)
    func reportsReason(_ broken: BrokenRequest) throws {
        let error = try #require(Decoders.decode(broken.request).error, "\(Decoders.decode(broken.request))")
        #expect(error.vendor == broken.vendor)
        #expect(error.request == "9")
        #expect(error.reason.hasPrefix(broken.reason), "\(error.reason)")
        #expect(error.description == "\(broken.vendor): \(error.reason)")
    }

    @Test("the lz64 fixture from posthog-js is a decode error, the other requests of the capture still decode")
    func lz64Fixture() throws {
        let results = try Fixtures.requests("posthog-js.ndjson").map { Decoders.decode($0) }
        #expect(results.map { $0.error?.description } == [nil, nil, "posthog: lz64 compression is not supported"])
    }

    @Test(
        "bodies of random bytes on every vendor's own endpoint fail or decode, never crash",
        arguments: VendorDecoder.all.map(\.vendor))
    func garbage(_ vendor: String) throws {
        let decoder = try #require(VendorDecoder.named(vendor))
        let urls = [
            "https://api.segment.io/v1/batch", "https://api.mixpanel.com/track", "https://api2.amplitude.com/2/httpapi",
            "https://c.example/com.snowplowanalytics.snowplow/tp2", "https://us.i.posthog.com/batch/",
            "https://www.google-analytics.com/mp/collect", "https://www.google-analytics.com/g/collect",
            "https://www.google-analytics.com/batch", "https://www.facebook.com/tr",
            "https://hosted.rudderlabs.com/v1/batch",
        ]
        var generator = SeededGenerator(seed: 42)
        for url in urls {
            for length in [0, 1, 2, 17, 300] {
                var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                if length > 2 {
                    bytes[0] = 0x1F
                    bytes[1] = 0x8B
                }
                let request = post(url, .base64(Data(bytes).base64EncodedString()))
                // Any outcome but a crash is acceptable; a failure names the decoder's vendor.
                if let error = decoder.decode(request).error { #expect(error.vendor == vendor) }
            }
        }
    }
}
