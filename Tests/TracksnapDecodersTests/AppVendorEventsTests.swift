import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapTraffic

/// Meta app events, Adjust and Branch, from the requests `Fixtures/write_app_fixtures.py` writes as
/// the SDKs send them (the script names the SDK files and functions each field comes from).
@Suite("The apps' own SDKs: Meta app events, Adjust, Branch")
struct AppVendorEventsTests {
    @Test("Meta app events: each custom event is an event, the SDK's own members and the device in the context")
    func metaApp() throws {
        let events = try Fixtures.events("meta-app.ndjson")
        let purchase = try #require(events.first { $0.name == "fb_mobile_purchase" })
        #expect(purchase.vendor == "meta-app")
        #expect(purchase.properties["_valueToSum"] == .number("12.5"))
        #expect(purchase.properties["fb_currency"] == "EUR")
        #expect(purchase.properties["_logTime"] == nil && purchase.properties["_eventName"] == nil)
        #expect(purchase.context["_logTime"] != nil && purchase.context["_session_id"] != nil)
        #expect(purchase.context["_ui"] == "ProductViewController")
        #expect(purchase.context["event"] == "CUSTOM_APP_EVENTS")
        #expect(purchase.context["advertiser_id"] == "6D92078A-8246-4BA4-AE5B-76104861E7DC")
        #expect(purchase.context["extinfo"]?.arrayValue?.first == "i2", "extinfo is read as its JSON array")
        #expect(purchase.context["access_token"] == nil, "the client token is never kept")
        // Android's multipart form reads the same way.
        let activate = try #require(events.first { $0.name == "fb_mobile_activate_app" })
        #expect(activate.context["_implicitlyLogged"] == "1")
        #expect(activate.context["extinfo"]?.arrayValue?.first == "a2")
    }

    @Test("the Meta pixel is still the pixel's, and app events are not the pixel's")
    func metaPixelUnchanged() throws {
        #expect(try Fixtures.events("meta-pixel.ndjson").allSatisfy { $0.vendor == "meta-pixel" })
        let app = try Fixtures.requests("meta-app.ndjson")
        #expect(app.allSatisfy { VendorDecoder.metaPixel.decode($0) == .unclaimed })
    }

    @Test("Adjust: an event is named by its token, its revenue a number and its parameters JSON")
    func adjust() throws {
        let events = try Fixtures.events("adjust.ndjson")
        let event = try #require(events.first { $0.type == "event" })
        #expect(event.name == "abc123")
        #expect(event.properties["revenue"] == .number("12.5"))
        #expect(event.properties["currency"] == "EUR")
        #expect(event.properties["callback_params"] == .object(["plan": "pro", "screen": "checkout"]))
        #expect(event.properties["partner_params"] == .object(["content_id": "sku-1"]))
        #expect(event.context["idfa"] == "6D92078A-8246-4BA4-AE5B-76104861E7DC")
        #expect(event.context["session_count"] == .number("1"))
        for secret in ["app_token", "app_secret", "primary_dedupe_token", "event_token"] {
            #expect(event.context[secret] == nil && event.properties[secret] == nil, "\(secret) kept")
        }
        // The attribution is a GET whose query holds the fields.
        #expect(events.last?.context["initiated_by"] == "backend")
    }

    @Test("Adjust's paths on another host are claimed only with app_token and created_at")
    func adjustElsewhere() {
        let bare = CapturedRequest(id: "1", method: "POST", url: "https://api.example/event", body: .text("a=1"))
        #expect(VendorDecoder.adjust.decode(bare) == .unclaimed)
        let proxied = CapturedRequest(
            id: "2", method: "POST", url: "https://proxy.example/adjust/event",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: .text("app_token=t&created_at=2026-11-21T09%3A00%3A00.000Z%2B0000&event_token=xyz789"))
        #expect(VendorDecoder.adjust.decode(proxied).events.map(\.name) == ["xyz789"])
        let tokenless = CapturedRequest(
            id: "3", method: "POST", url: "https://app.adjust.com/event", body: .text("app_token=t"))
        #expect(VendorDecoder.adjust.decode(tokenless).error?.reason == "event has no event_token")
    }

    @Test("Branch: a v2 event by its name with its data as properties, the branch_key dropped")
    func branch() throws {
        let events = try Fixtures.events("branch.ndjson")
        let purchase = try #require(events.first { $0.name == "PURCHASE" })
        #expect(purchase.type == "standard")
        #expect(purchase.properties["event_data"]?["revenue"] == .number("12.5"))
        #expect(purchase.properties["custom_data"] == .object(["plan": "pro"]))
        #expect(purchase.properties["content_items"]?.arrayValue?.count == 1)
        #expect(purchase.properties["customer_event_alias"] == "checkout")
        #expect(purchase.context["user_data"]?["idfv"] == "A3B1C2D4-E5F6-4711-8A9B-0C1D2E3F4A5B")
        #expect(purchase.context["user_data"]?["developer_identity"] == "user-o-1001")
        let install = try #require(events.first)
        #expect(install.name == "install" && install.context["randomized_device_token"] == "1189036489331210347")
        for event in events {
            #expect(!event.validationView.serialized().contains("key_live"), "branch_key kept in \(event.type)")
        }
    }

    @Test("a claimed request that cannot be read is a decode error naming why")
    func decodeErrors() {
        let meta = CapturedRequest(
            id: "1", method: "POST", url: "https://graph.facebook.com/v17.0/1/activities",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: .text("event=CUSTOM_APP_EVENTS&custom_events=%5B%7Bbroken"))
        #expect(VendorDecoder.metaApp.decode(meta).error?.reason.hasPrefix("custom_events is not JSON") == true)
        let branch = CapturedRequest(
            id: "2", method: "POST", url: "https://api2.branch.io/v2/event/standard",
            body: .text("{\"event_data\": {}}"))
        #expect(VendorDecoder.branch.decode(branch).error?.reason == "event has no \"name\"")
    }

    @Test("the vendors' hosts are among the domains --intercept analytics decrypts")
    func domains() {
        for host in ["graph.facebook.com", "app.adjust.com", "app.eu.adjust.com", "api2.branch.io", "api.branch.io"] {
            #expect(VendorDomains.contains(host), "\(host)")
        }
    }
}
