import Testing
import TracksnapDecoders
import TracksnapSnapshot
import TracksnapTraffic

@Suite("Decoders are values: built-ins by name, custom ones from closures, host hints")
struct DecoderRegistryTests {
    @Test("every vendor id names one built-in decoder")
    func named() {
        let ids = [
            "ga4", "universal-analytics", "segment", "rudderstack", "mixpanel", "amplitude", "snowplow", "posthog",
            "meta-pixel", "meta-app", "adjust", "branch", "firebase",
        ]
        #expect(VendorDecoder.all.map(\.vendor).sorted() == ids.sorted())
        for id in ids {
            #expect(VendorDecoder.named(id)?.vendor == id)
            #expect(VendorDecoder.named(id)?.rule.isEmpty == false)
        }
        #expect(VendorDecoder.named("Segment")?.vendor == "segment")
        #expect(VendorDecoder.named("heap") == nil)
    }

    @Test("a custom decoder put first takes its traffic; its error carries its vendor")
    func custom() throws {
        let acme = VendorDecoder(vendor: "acme", rule: "GET /v1/e", matches: { $0.path == "/v1/e" }) {
            request throws(DecodeError) in
            guard let name = request.queryItems.first(where: { $0.name == "ev" })?.value else {
                throw DecodeError(vendor: "acme", request: request.id, reason: "no ev")
            }
            return [AnalyticsEvent(vendor: "acme", type: "event", name: name, request: request.id, index: 0)]
        }
        let good = CapturedRequest(id: "1", method: "GET", url: "https://collect.acme-shop.example/v1/e?ev=add_to_cart")
        #expect(Decoders.decode(good, using: [acme] + VendorDecoder.all).events.map(\.name) == ["add_to_cart"])
        let bad = CapturedRequest(id: "2", method: "GET", url: "https://collect.acme-shop.example/v1/e")
        #expect(Decoders.decode(bad, using: [acme]).error == DecodeError(vendor: "acme", request: "2", reason: "no ev"))
        #expect(Decoders.decode(good, using: VendorDecoder.all) == .unclaimed)
    }

    @Test(
        "Segment's batch is RudderStack's on RudderStack's host, and RudderStack's batch is Segment's on Segment's",
        arguments: [
            ("segment.ndjson", "https://hosted.rudderlabs.com/v1/batch", "rudderstack"),
            ("rudderstack.ndjson", "https://api.segment.io/v1/batch", "segment"),
            ("segment.ndjson", "https://events.example.com/segment/v1/batch", "segment"),
            ("rudderstack.ndjson", "https://dataplane.example.com/v1/batch", "rudderstack"),
        ])
    func segmentOrRudderStack(_ fixture: String, _ url: String, _ vendor: String) throws {
        var request = try #require(try Fixtures.requests(fixture).first)
        request.url = url
        let events = Decoders.decode(request).events
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { $0.vendor == vendor })
        // Whichever of the two decoders is asked, the vendor comes from the host or the body.
        let other = vendor == "segment" ? VendorDecoder.segment : VendorDecoder.rudderstack
        #expect(other.decode(request).events.map(\.vendor) == events.map(\.vendor))
    }

    @Test("self-hosted collectors and proxies are matched by path: the SDK fixtures were captured on 127.0.0.1")
    func proxies() throws {
        for fixture in [
            "segment.ndjson", "mixpanel.ndjson", "amplitude-batch.ndjson", "snowplow-get.ndjson", "posthog.ndjson",
        ] {
            let requests = try Fixtures.requests(fixture)
            #expect(requests.allSatisfy { $0.host == "127.0.0.1" })
            #expect(requests.allSatisfy { !Decoders.decode($0).events.isEmpty }, "\(fixture)")
        }
    }

    @Test("PostHog's /track/ off its host is PostHog's with its marks, Mixpanel's without")
    func trackPath() throws {
        let posthogBody = #"[{"event":"x","uuid":"u-1","properties":{"token":"phc_abc","distinct_id":"d"}}]"#
        let mixpanelBody = #"[{"event":"x","properties":{"token":"abc","distinct_id":"d"}}]"#
        let posthog = CapturedRequest(
            id: "1", method: "POST", url: "https://proxy.example/track/", body: .text(posthogBody))
        let mixpanel = CapturedRequest(
            id: "2", method: "POST", url: "https://proxy.example/track/", body: .text(mixpanelBody))
        #expect(Decoders.decode(posthog).events.map(\.vendor) == ["posthog"])
        #expect(Decoders.decode(mixpanel).events.map(\.vendor) == ["mixpanel"])
        #expect(VendorDecoder.mixpanel.decode(posthog) == .unclaimed)
    }
}
