public import TracksnapJSON

/// One analytics event decoded from a captured request: what a product team calls an event.
///
/// A Segment batch of twenty calls is twenty events of one request, told apart by `index`.
///
/// ```swift
/// let event = AnalyticsEvent(vendor: "segment", type: "track", name: "Order Completed",
///                            properties: ["revenue": 12.5], request: "7", index: 2)
/// event.validationView  // {"context":{},"name":"Order Completed","properties":{"revenue":12.5},…}
/// ```
public struct AnalyticsEvent: Sendable, Hashable {
    /// The vendor id: `ga4`, `universal-analytics`, `segment`, `rudderstack`, `mixpanel`,
    /// `amplitude`, `snowplow`, `posthog`, `meta-pixel`, `meta-app`, `adjust`, `branch`, `firebase`, or a custom decoder's.
    public var vendor: String
    /// The vendor's call type: `track`, `page`, `screen`, `identify`, `event`, `self_describing`…
    public var type: String
    /// The event's name, when the call has one (an identify call has none).
    public var name: String?
    /// The event's own properties, an object.
    public var properties: JSONValue
    /// Everything else the event carries (ids, library, timestamps, page, device), an object.
    /// Secrets (write keys, API keys, tokens) are never kept.
    public var context: JSONValue
    /// The id of the captured request it came from (`CapturedRequest.id`).
    public var request: String
    /// Its position in its request's batch, from 0.
    public var index: Int
    /// The consent signals its request carries (`ConsentSignals.read`), nil when none. Not part
    /// of `validationView`: a snapshot does not compare them; a declared consent state checks them.
    public var consent: ConsentSignals?

    /// - Parameters:
    ///   - vendor: the vendor id.
    ///   - type: the vendor's call type.
    ///   - name: the event's name, if any.
    ///   - properties: an object of the event's properties.
    ///   - context: an object of everything else the event carries.
    ///   - request: the captured request's id.
    ///   - index: the position in the request's batch.
    ///   - consent: the consent signals its request carries.
    public init(
        vendor: String, type: String, name: String?, properties: JSONValue = .object([:]),
        context: JSONValue = .object([:]), request: String, index: Int, consent: ConsentSignals? = nil
    ) {
        self.vendor = vendor
        self.type = type
        self.name = name
        self.properties = properties
        self.context = context
        self.request = request
        self.index = index
        self.consent = consent
    }

    /// The object an `events` entry of a snapshot is compared with:
    /// `{"vendor", "type", "name", "properties", "context"}`, without `name` when there is none.
    ///
    /// ```swift
    /// event.validationView["properties"]?["revenue"]  // .number("12.5")
    /// ```
    public var validationView: JSONValue {
        var view: [String: JSONValue] = [
            "vendor": .string(vendor), "type": .string(type), "properties": properties, "context": context,
        ]
        if let name { view["name"] = .string(name) }
        return .object(view)
    }
}
