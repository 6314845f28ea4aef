import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Branch's mobile SDKs: JSON bodies on `api2.branch.io` and `api.branch.io` — the session calls
    /// (`/v1/install`, `/v1/open`, `/v1/close`, `/v1/url`, `/v1/profile`, `/v1/logout`) and events
    /// (`/v2/event/standard`, `/v2/event/custom`). Elsewhere (a proxy) a request on those paths is
    /// claimed when its body holds `branch_key`.
    ///
    /// ```swift
    /// // POST /v2/event/standard  {"name":"PURCHASE","event_data":{"revenue":12.5,"currency":"EUR"},"user_data":{…},"branch_key":"key_live_…"}
    /// VendorDecoder.branch.decode(request).events.first?.name  // "PURCHASE"
    /// ```
    /// Events: type `standard` or `custom`, name `name`, properties `event_data`, `custom_data`,
    /// `content_items` and `customer_event_alias` (each under its own key, as sent); context the
    /// rest (`user_data`: `idfa`/`aaid`, `idfv`, `developer_identity`, `randomized_device_token`,
    /// `os`, `os_version`, `model`…; `metadata`, `instrumentation`). Session calls: one event
    /// whose type and name are the path's last word (`install`, `open`), properties none but
    /// `/v1/url`'s link `data`, context the body. `branch_key` (the app's key) is dropped.
    public static let branch = VendorDecoder(
        builtIn: "branch", rule: "/v1/install, /v1/open, /v2/event/standard… on branch.io, elsewhere with branch_key"
    ) { request throws(DecodeFailure) in
        try Branch.decode(request)
    }
}

enum Branch {
    static let hosts = ["branch.io"]
    static let paths = [
        "/v2/event/standard", "/v2/event/custom", "/v1/install", "/v1/open", "/v1/close", "/v1/url", "/v1/profile",
        "/v1/logout",
    ]
    static let secrets: Set<String> = ["branch_key"]
    static let eventProperties: Set<String> = ["event_data", "custom_data", "content_items", "customer_event_alias"]

    static func decode(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent]? {
        guard let path = request.pathEnds(with: paths) else { return nil }
        let onBranch = request.isHost(in: hosts)
        let body: JSONValue?
        do throws(DecodeFailure) {
            body = try Payload.bodyJSON(request)
        } catch {
            guard onBranch else { return nil }
            throw error
        }
        guard let fields = body?.objectValue else {
            guard onBranch else { return nil }
            throw DecodeFailure(body == nil ? "request has no body" : "body is not a JSON object")
        }
        guard onBranch || fields["branch_key"] != nil else { return nil }
        let kind = String(path.split(separator: "/").last ?? "")
        var context = fields.removing(secrets)
        var properties: [String: JSONValue] = [:]
        var name = kind
        if path.hasPrefix("/v2/event/") {
            guard let eventName = context.removeValue(forKey: "name")?.stringValue else {
                throw DecodeFailure("event has no \"name\"")
            }
            name = eventName
            for key in eventProperties { if let value = context.removeValue(forKey: key) { properties[key] = value } }
        } else if kind == "url", let data = context.removeValue(forKey: "data") {
            properties["data"] = data
        }
        return [
            AnalyticsEvent(
                vendor: "branch", type: kind, name: name, properties: .object(properties), context: .object(context),
                request: request.id, index: 0)
        ]
    }
}
