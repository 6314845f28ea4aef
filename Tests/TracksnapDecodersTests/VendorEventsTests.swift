import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// What one fixture decodes to: each event's request, batch index, vendor, type and name.
struct FixtureExpectation: Sendable, CustomTestStringConvertible {
    let fixture: String
    let events: [Expected]
    var testDescription: String { fixture }

    struct Expected: Sendable, Equatable, CustomStringConvertible {
        let request: String
        let index: Int
        let vendor: String
        let type: String
        let name: String?
        var description: String { "#\(request)[\(index)] \(vendor) \(type) \(name ?? "-")" }
    }
}

private func e(_ request: String, _ index: Int, _ vendor: String, _ type: String, _ name: String?)
    -> FixtureExpectation.Expected
{
    .init(request: request, index: index, vendor: vendor, type: type, name: name)
}

private let segmentBatch = [
    e("1", 0, "segment", "identify", nil), e("1", 1, "segment", "track", "Order Completed"),
    e("1", 2, "segment", "page", "Getting Started"), e("1", 3, "segment", "screen", "Welcome"),
    e("1", 4, "segment", "group", nil), e("1", 5, "segment", "alias", nil),
]
private let rudderBatch = [
    e("1", 0, "rudderstack", "identify", nil), e("1", 1, "rudderstack", "track", "Product Viewed"),
    e("1", 2, "rudderstack", "page", "Pricing"),
]
private let amplitudeBatch = [
    e("1", 0, "amplitude", "track", "Song Played"), e("1", 1, "amplitude", "track", "Purchase"),
    e("1", 2, "amplitude", "identify", "$identify"),
]
private let posthogBatch = [
    e("1", 0, "posthog", "capture", "order completed"), e("1", 1, "posthog", "pageview", "$pageview"),
    e("1", 2, "posthog", "set", "$set"), e("1", 3, "posthog", "group_identify", "$groupidentify"),
    e("1", 4, "posthog", "alias", "$create_alias"),
]
private let checkout = "iglu:com.acme/checkout/jsonschema/1-0-0"
private let metaApp = [
    e("1", 0, "meta-app", "mobile_app_install", "MOBILE_APP_INSTALL"),
    e("2", 0, "meta-app", "custom_app_events", "fb_mobile_content_view"),
    e("2", 1, "meta-app", "custom_app_events", "fb_mobile_add_to_cart"),
    e("2", 2, "meta-app", "custom_app_events", "fb_mobile_purchase"),
    e("3", 0, "meta-app", "custom_app_events", "fb_mobile_activate_app"),
]
private let adjust = [
    e("1", 0, "adjust", "session", "session"), e("2", 0, "adjust", "event", "abc123"),
    e("3", 0, "adjust", "attribution", "attribution"),
]
private let branch = [
    e("1", 0, "branch", "install", "install"), e("2", 0, "branch", "custom", "tutorial_finished"),
    e("3", 0, "branch", "standard", "PURCHASE"),
]

let fixtureExpectations: [FixtureExpectation] = [
    .init(fixture: "segment.ndjson", events: segmentBatch),
    .init(fixture: "segment-gzip.ndjson", events: segmentBatch),
    .init(fixture: "segment-gzip-raw.ndjson", events: segmentBatch),
    .init(
        fixture: "segment-analytics-js.ndjson",
        events: [
            e("1", 0, "segment", "page", "Product"), e("2", 0, "segment", "track", "Product Added"),
            e("3", 0, "segment", "identify", nil),
        ]),
    .init(fixture: "rudderstack.ndjson", events: rudderBatch),
    .init(fixture: "rudderstack-raw.ndjson", events: rudderBatch),
    .init(
        fixture: "mixpanel.ndjson",
        events: [
            e("1", 0, "mixpanel", "track", "Signed Up"), e("2", 0, "mixpanel", "engage", nil),
            e("3", 0, "mixpanel", "import", "Old Purchase"), e("4", 0, "mixpanel", "track", "Song Played"),
            e("4", 1, "mixpanel", "track", "Song Played"),
        ]),
    .init(
        fixture: "mixpanel-js.ndjson",
        events: [
            e("1", 0, "mixpanel", "track", "Viewed Product"), e("2", 0, "mixpanel", "track", "Viewed Product"),
        ]),
    .init(fixture: "amplitude-httpapi.ndjson", events: amplitudeBatch),
    .init(fixture: "amplitude-batch.ndjson", events: amplitudeBatch),
    .init(
        fixture: "snowplow-get.ndjson",
        events: [
            e("1", 0, "snowplow", "page_view", "page_view"), e("2", 0, "snowplow", "struct", "add-to-basket"),
            e("3", 0, "snowplow", "self_describing", checkout),
        ]),
    .init(
        fixture: "snowplow-post.ndjson",
        events: [
            e("1", 0, "snowplow", "page_view", "page_view"), e("1", 1, "snowplow", "struct", "add-to-basket"),
            e("1", 2, "snowplow", "self_describing", checkout),
        ]),
    .init(fixture: "posthog.ndjson", events: posthogBatch),
    .init(fixture: "posthog-gzip.ndjson", events: posthogBatch),
    .init(fixture: "posthog-gzip-raw.ndjson", events: posthogBatch),
    .init(
        fixture: "posthog-js.ndjson",
        events: [
            e("1", 0, "posthog", "pageview", "$pageview"), e("1", 1, "posthog", "capture", "product added"),
            e("2", 0, "posthog", "capture", "product added"),
        ]),
    .init(
        fixture: "gtag.ndjson",
        events: [
            e("1", 0, "ga4", "event", "page_view"), e("2", 0, "ga4", "event", "view_item"),
            e("2", 1, "ga4", "event", "add_to_cart"), e("2", 2, "ga4", "event", "scroll"),
            e("3", 0, "ga4", "event", "purchase"), e("4", 0, "ga4", "event", "purchase"),
            e("4", 1, "ga4", "event", "refund"),
        ]),
    .init(
        fixture: "universal-analytics.ndjson",
        events: [
            e("1", 0, "universal-analytics", "pageview", "pageview"), e("2", 0, "universal-analytics", "event", "play"),
            e("3", 0, "universal-analytics", "pageview", "pageview"),
            e("3", 1, "universal-analytics", "event", "purchase"),
            e("3", 2, "universal-analytics", "screenview", "screenview"),
        ]),
    .init(
        fixture: "meta-pixel.ndjson",
        events: [
            e("1", 0, "meta-pixel", "track", "PageView"), e("2", 0, "meta-pixel", "track", "AddToCart"),
            e("3", 0, "meta-pixel", "track", "Purchase"),
        ]),
    .init(fixture: "meta-app.ndjson", events: metaApp), .init(fixture: "meta-app-run2.ndjson", events: metaApp),
    .init(fixture: "adjust.ndjson", events: adjust), .init(fixture: "adjust-run2.ndjson", events: adjust),
    .init(fixture: "branch.ndjson", events: branch), .init(fixture: "branch-run2.ndjson", events: branch),
]

@Suite("Each vendor's traffic becomes its events")
struct VendorEventsTests {
    @Test("a fixture decodes to the vendor's events, batches split in order", arguments: fixtureExpectations)
    func decodesFixture(_ expectation: FixtureExpectation) throws {
        let requests = try Fixtures.requests(expectation.fixture)
        let events = requests.flatMap { Decoders.decode($0).events }
        let actual = events.map { e($0.request, $0.index, $0.vendor, $0.type, $0.name) }
        #expect(actual == expectation.events)
        for event in events {
            #expect(event.properties.objectValue != nil, "properties of \(event.name ?? event.type) is an object")
            #expect(event.context.objectValue != nil, "context of \(event.name ?? event.type) is an object")
        }
    }

    @Test("every fixture is covered by an expectation")
    func everyFixtureIsCovered() {
        let covered = Set(fixtureExpectations.map(\.fixture))
        #expect(Set(Fixtures.all).subtracting(covered) == [], "fixtures without expectations")
        #expect(covered.subtracting(Fixtures.all) == [], "expectations without fixtures")
    }

    @Test("the validation view holds vendor, type, name, properties and context, without a nil name")
    func validationView() throws {
        let events = try Fixtures.requests("segment.ndjson").flatMap { Decoders.decode($0).events }
        let track = try #require(events.first { $0.type == "track" })
        #expect(
            Set(track.validationView.objectValue?.keys.map { $0 } ?? []) == [
                "vendor", "type", "name", "properties", "context",
            ])
        #expect(track.validationView["properties"] == track.properties)
        let identify = try #require(events.first { $0.type == "identify" })
        #expect(identify.validationView["name"] == nil)
        #expect(identify.validationView["vendor"] == "segment")
    }
}
