import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Adjust's mobile SDKs: one activity per request, form-encoded (a query for GETs) on
    /// `app.adjust.com`, `app.eu.adjust.com` and the other `*.adjust.com` hosts, at the path of its
    /// kind (`/session`, `/event`, `/sdk_click`, `/attribution`, `/sdk_info`, `/ad_revenue`,
    /// `/third_party_sharing`, `/measurement_consent`, `/v2/purchase`…). Elsewhere (a proxy) a
    /// request on those paths is claimed when it holds `app_token` and `created_at`.
    ///
    /// ```swift
    /// // POST /event   app_token=…&event_token=abc123&revenue=12.5&currency=EUR&callback_params={"order":"o-1"}&…
    /// VendorDecoder.adjust.decode(request).events.first?.name  // "abc123"
    /// ```
    /// Type: the activity kind (the path: `event`, `session`, `sdk_click`, `purchase`…). Name: the
    /// `event_token` for `/event` — Adjust events have no name on the wire, only the token the
    /// dashboard gives them — else the kind. Properties: what the app chose to send (`revenue` as
    /// a number, `currency`, `callback_params` and `partner_params` as JSON, `event_callback_id`,
    /// `deduplication_id`, ad revenue's, third-party sharing's and consent's fields). Context: the
    /// rest (`idfa`, `gps_adid`, `idfv`, `adid`, `created_at`, `sent_at`, `session_count`,
    /// `subsession_count`, `session_length`, `time_spent`, device and OS fields…), JSON text parsed;
    /// `app_token`, `app_secret`, `secret_id`, `push_token` and the dedupe tokens are dropped.
    public static let adjust = VendorDecoder(
        builtIn: "adjust",
        rule: "/session, /event, /sdk_click, /attribution… on *.adjust.com, elsewhere with app_token="
    ) { request throws(DecodeFailure) in
        try Adjust.decode(request)
    }
}

enum Adjust {
    static let hosts = ["adjust.com"]
    /// The paths of `ADJPackageBuilder`'s packages (adjust/ios_sdk, `build…Package`), longest first.
    static let kinds = [
        "/disable_third_party_sharing", "/third_party_sharing", "/measurement_consent", "/gdpr_forget_device",
        "/v2/purchase", "/ad_revenue", "/attribution", "/sdk_click", "/sdk_info", "/session", "/event",
    ]
    static let secrets: Set<String> = [
        "app_token", "app_secret", "secret_id", "push_token", "primary_dedupe_token", "secondary_dedupe_token",
        "attribution_token",
    ]
    static let propertyKeys: Set<String> = [
        "revenue", "currency", "callback_params", "partner_params", "event_callback_id", "deduplication_id",
        "source", "ad_impressions_count", "ad_revenue_network", "ad_revenue_unit", "ad_revenue_placement",
        "sharing", "granular_third_party_sharing_options", "partner_sharing_settings", "measurement",
        "product_id", "transaction_id", "billing_store",
    ]
    static let numbers: Set<String> = [
        "revenue", "ad_impressions_count", "session_count", "subsession_count", "session_length", "time_spent",
        "event_count", "last_interval",
    ]

    static func decode(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent]? {
        guard let path = request.pathEnds(with: kinds) else { return nil }
        var fields = Payload.object(request.queryItems + request.formItems)
        guard request.isHost(in: hosts) || (fields["app_token"] != nil && fields["created_at"] != nil) else {
            return nil
        }
        let kind = path == "/v2/purchase" ? "purchase" : String(path.dropFirst())
        var name = kind
        if kind == "event" {
            guard let token = fields.removeValue(forKey: "event_token")?.stringValue, !token.isEmpty else {
                throw DecodeFailure("event has no event_token")
            }
            name = token
        }
        var properties: [String: JSONValue] = [:]
        var context: [String: JSONValue] = [:]
        for (key, value) in fields.removing(secrets) {
            let text = value.stringValue ?? ""
            var read = value
            if numbers.contains(key) {
                read = Payload.number(text) ?? value
            } else if text.first == "{" || text.first == "[" {
                read = Payload.jsonIfValid(text) ?? value
            }
            if propertyKeys.contains(key) { properties[key] = read } else { context[key] = read }
        }
        return [
            AnalyticsEvent(
                vendor: "adjust", type: kind, name: name, properties: .object(properties), context: .object(context),
                request: request.id, index: 0)
        ]
    }
}
