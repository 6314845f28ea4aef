import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

@Suite("Properties and context are the vendor's, typed as sent")
struct PropertiesTests {
    private func event(_ fixture: String, _ name: String?, type: String? = nil, at position: Int = 0) throws
        -> AnalyticsEvent
    {
        let matching = try Fixtures.events(fixture).filter { $0.name == name && (type == nil || $0.type == type) }
        return try #require(matching.count > position ? matching[position] : nil, "\(fixture): \(name ?? "-")")
    }

    @Test("Segment: track properties, identify traits, the batch's sentAt in context")
    func segment() throws {
        let order = try event("segment.ndjson", "Order Completed")
        #expect(order.properties["revenue"] == .number("12.5"))
        #expect(order.properties["products"]?.arrayValue?.first?["quantity"] == 2)
        #expect(order.context["userId"] == "user-42")
        #expect(order.context["context"]?["library"]?["name"] == "analytics-python")
        #expect(order.context["sentAt"]?.stringValue != nil)
        #expect(order.context["event"] == nil && order.context["type"] == nil)
        let identify = try event("segment.ndjson", nil, type: "identify")
        #expect(identify.properties == ["email": "ada@example.com", "plan": "pro"])
        let page = try event("segment.ndjson", "Getting Started")
        #expect(page.context["category"] == "Docs")
    }

    @Test("RudderStack: identify traits come from context.traits")
    func rudderTraits() throws {
        let identify = try event("rudderstack.ndjson", nil, type: "identify")
        #expect(identify.properties == ["email": "ada@example.com"])
    }

    @Test("GA4 gtag: shared query and line parameters merge, the line winning; ep strings, epn numbers, items")
    func gtag() throws {
        let addToCart = try event("gtag.ndjson", "add_to_cart")
        #expect(addToCart.properties["value"] == .number("25"))
        #expect(addToCart.properties["method"] == "button")
        #expect(addToCart.properties["currency"] == "EUR")
        #expect(addToCart.properties["items"]?.arrayValue?.first?["quantity"] == 2)
        #expect(addToCart.properties["items"]?.arrayValue?.first?["item_name"] == "Stan and Friends Tee")
        #expect(addToCart.context["_et"] == "2087")
        #expect(addToCart.context["_s"] == "2")
        #expect(addToCart.context["tid"] == "G-FX7T3K4Q9B")
        #expect(addToCart.context["dt"] == "Stan and Friends Tee – Shop")
        #expect(try event("gtag.ndjson", "view_item").context["_et"] == "1523")

        let pageView = try event("gtag.ndjson", "page_view")
        #expect(pageView.context["user_properties"] == ["plan": "pro", "lifetime_orders": 3])
        #expect(pageView.context["up.plan"] == nil && pageView.context["en"] == nil)

        let purchase = try event("gtag.ndjson", "purchase")
        #expect(purchase.properties["transaction_id"] == "T-1001")
        #expect(purchase.properties["value"] == .number("59.9"))
        let items = try #require(purchase.properties["items"]?.arrayValue)
        #expect(items.count == 2)
        #expect(items[0]["color"] == "green")
        #expect(items[0]["price"] == .number("12.5"))
        #expect(items[1]["item_id"] == "sku-7")
    }

    @Test(
        "GA4 epn values keep their JSON text, are normalised when only Double reads them, else stay text",
        arguments: [
            ("12.50", JSONValue.number("12.50")), ("-3", .number("-3")), ("1e3", .number("1e3")),
            ("+1", .number("1")), (".5", .number("0.5")), ("007", .number("7")), ("abc", .string("abc")),
            ("nan", .string("nan")), ("", .string("")),
        ])
    func epnNumbers(_ text: String, _ expected: JSONValue) {
        let request = CapturedRequest(
            id: "1", method: "POST", url: "https://x.example/g/collect?v=2&tid=G-1",
            body: .text("en=e&epn.v=" + text.replacingOccurrences(of: "+", with: "%2B")))
        #expect(Decoders.decode(request).events.first?.properties["v"] == expected)
    }

    @Test("GA4 Measurement Protocol: params are properties, the request's ids context")
    func measurementProtocol() throws {
        let purchase = try event("gtag.ndjson", "purchase", at: 1)
        #expect(purchase.properties["value"] == .number("12.5"))
        #expect(purchase.properties["items"]?.arrayValue?.count == 1)
        #expect(purchase.context["client_id"] == "1398217362.1732176000")
        #expect(purchase.context["measurement_id"] == "G-FX7T3K4Q9B")
        #expect(purchase.context["api_secret"] == nil)
    }

    @Test("Universal Analytics: the hit's own parameters are properties, ids and cache-busters context")
    func universalAnalytics() throws {
        let play = try event("universal-analytics.ndjson", "play")
        #expect(
            play.properties == [
                "ec": "Video", "ea": "play", "el": "Holiday", "ev": "300", "cd1": "premium",
                "dl": "https://shop.example/product/sku-1", "dt": "Stan and Friends Tee – Shop",
            ])
        #expect(play.context["tid"] == "UA-12345-1")
        #expect(play.context["z"] == "1598301174")
        #expect(try event("universal-analytics.ndjson", "screenview").properties == ["cd": "Cart"])
    }

    @Test("Mixpanel: properties without the token, engage operations as properties")
    func mixpanel() throws {
        let signedUp = try event("mixpanel.ndjson", "Signed Up")
        #expect(signedUp.properties["plan"] == "pro")
        #expect(signedUp.properties["trial_days"] == 14)
        #expect(signedUp.properties["distinct_id"] == "user-42")
        #expect(signedUp.context["verbose"] == "1")
        let engage = try event("mixpanel.ndjson", nil, type: "engage")
        #expect(engage.properties == ["$set": ["$email": "ada@example.com", "plan": "pro"]])
        #expect(engage.context["$distinct_id"] == "user-42")
        let songs = try Fixtures.events("mixpanel.ndjson").filter { $0.name == "Song Played" }
        #expect(songs.map { $0.properties["song"] } == ["one", "two"])
        #expect(try event("mixpanel-js.ndjson", "Viewed Product").properties["price"] == .number("12.5"))
    }

    @Test("Amplitude: event_properties, the user and device in context")
    func amplitude() throws {
        let song = try event("amplitude-httpapi.ndjson", "Song Played")
        #expect(song.properties == ["title": "One", "duration": .number("215.5")])
        #expect(song.context["device_id"] == "device-9")
        #expect(song.context["user_id"] == "user-42")
        #expect(
            try event("amplitude-batch.ndjson", "$identify").context["user_properties"] == ["$set": ["plan": "pro"]])
    }

    @Test(
        "Snowplow: structured fields, self-describing data, decoded contexts; GET and POST agree",
        arguments: ["snowplow-get.ndjson", "snowplow-post.ndjson"])
    func snowplow(_ fixture: String) throws {
        let structured = try event(fixture, "add-to-basket")
        #expect(
            structured.properties == [
                "se_ca": "shop", "se_ac": "add-to-basket", "se_la": "sku-1", "se_pr": "red", "se_va": 2,
            ])
        let contexts = try #require(structured.context["contexts"]?.arrayValue)
        #expect(contexts.first?["schema"] == "iglu:com.acme/order_context/jsonschema/1-0-0")
        #expect(contexts.first?["data"] == ["order_id": "o-1001"])
        #expect(structured.context["cx"] == nil && structured.context["co"] == nil)
        let checkout = try event(fixture, "iglu:com.acme/checkout/jsonschema/1-0-0")
        #expect(checkout.properties == ["step": 2, "coupon": nil])
        #expect(checkout.context["ue_px"] == nil && checkout.context["ue_pr"] == nil)
        let pageView = try event(fixture, "page_view")
        #expect(pageView.properties["url"] == "https://example.com/docs")
        #expect(pageView.context["aid"] == "shop")
    }

    @Test("PostHog: properties without token, ids in context")
    func posthog() throws {
        let order = try event("posthog.ndjson", "order completed")
        #expect(order.properties["revenue"] == .number("12.5"))
        #expect(order.properties["$lib"] == "posthog-python")
        #expect(order.context["distinct_id"] == "user-42")
        #expect(order.context["uuid"]?.stringValue != nil)
        let added = try event("posthog-js.ndjson", "product added")
        #expect(
            added.properties == ["sku": "sku-1", "price": .number("12.5"), "$lib": "web", "distinct_id": "user-42"])
    }

    @Test("Meta pixel: cd[…] values decoded as JSON when they parse, the rest context")
    func metaPixel() throws {
        let addToCart = try event("meta-pixel.ndjson", "AddToCart")
        #expect(
            addToCart.properties == [
                "content_ids": ["sku-1"], "content_type": "product", "value": .number("12.5"), "currency": "EUR",
            ])
        #expect(addToCart.context["id"] == "1234567890123456")
        let purchase = try event("meta-pixel.ndjson", "Purchase")
        #expect(purchase.properties["contents"]?.arrayValue?.count == 2)
        #expect(purchase.properties["num_items"] == 3)
        #expect(purchase.properties["order_id"] == "00123", "not JSON (a leading zero): kept as text")
        #expect(purchase.context["ud"]?["em"]?.stringValue?.count == 64)
        #expect(purchase.context["rqm"] == "formPOST")
    }
}
