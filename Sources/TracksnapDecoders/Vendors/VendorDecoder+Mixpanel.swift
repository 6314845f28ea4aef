import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Mixpanel: `/track`, `/import`, `/engage` and `/groups` (a trailing slash or a proxy prefix
    /// allowed), the payload in a `data` parameter (query or form) as URL-encoded JSON or base64
    /// JSON (padded or not, base64url too), or as a JSON body; one object or an array.
    ///
    /// ```swift
    /// // POST /track   data=%7B%22event%22%3A%22Signed+Up%22%2C%22properties%22%3A%7B…%7D%7D
    /// VendorDecoder.mixpanel.decode(request).events.first?.name  // "Signed Up"
    /// ```
    /// Type: `track`, `import`, `engage` or `groups`. Name: `event` (none for profile updates).
    /// Properties: `properties` without `token`; for `engage`/`groups` the operations (`$set`,
    /// `$set_once`, `$add`, `$append`, `$union`, `$remove`, `$unset`, `$delete`). Context: the
    /// rest of the object and the request's other parameters. `token`, `$token`, `api_key` and
    /// `api_secret` are dropped. Off `*.mixpanel.com`, the objects must have `event` and a
    /// `properties.token` or `properties.distinct_id` (profile updates: `$distinct_id`, `$group_key`
    /// or `$token`), and PostHog's marks (see `.posthog`) leave the
    /// request to PostHog.
    public static let mixpanel = VendorDecoder(
        builtIn: "mixpanel",
        rule: "/track, /import, /engage, /groups with data= (URL-encoded or base64 JSON) or a JSON body; any host"
    ) { request throws(DecodeFailure) in
        try Mixpanel.decode(request)
    }
}

enum Mixpanel {
    static let hosts = ["mixpanel.com"]
    static let endpoints = ["track", "import", "engage", "groups"]
    static let secrets: Set<String> = ["token", "$token", "api_key", "api_secret"]
    static let operations: Set<String> = [
        "$set", "$set_once", "$add", "$append", "$union", "$remove", "$unset", "$delete",
    ]

    static func decode(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent]? {
        let path = request.trimmedPath
        guard let endpoint = endpoints.first(where: { path.hasSuffix("/" + $0) }) else { return nil }
        let onMixpanel = request.isHost(in: hosts)
        let parameters = request.parameters
        let payload: JSONValue
        if let data = parameters.last(where: { $0.name == "data" })?.value {
            guard let decoded = Payload.jsonOrBase64JSON(data) else {
                throw DecodeFailure("data is neither base64 nor JSON")
            }
            payload = decoded
        } else if request.formItems.isEmpty, let body = try? Payload.bodyJSON(request) {
            payload = body
        } else {
            guard onMixpanel else { return nil }
            throw DecodeFailure(
                request.body == nil
                    ? "request has no data parameter and no body" : "body is neither a data= form nor JSON")
        }
        let items = payload.arrayValue ?? [payload]
        let isProfile = endpoint == "engage" || endpoint == "groups"
        if !onMixpanel {
            let shaped = items.allSatisfy { item in
                isProfile
                    ? item["$distinct_id"] != nil || item["$group_key"] != nil || item["$token"] != nil
                    : item["event"]?.stringValue != nil
                        && (item["properties"]?["token"] != nil || item["properties"]?["distinct_id"] != nil)
            }
            guard shaped, !PostHog.hasMarks(envelope: payload, items: items) else { return nil }
        }
        let shared = Payload.object(parameters).removing(secrets.union(["data"]))
        return try items.enumerated().map { (index, item) throws(DecodeFailure) in
            guard var fields = item.objectValue else { throw DecodeFailure("data[\(index)] is not an object") }
            var name: String?
            var properties: [String: JSONValue]
            if isProfile {
                properties = fields.filter { operations.contains($0.key) }
                fields = fields.filter { !operations.contains($0.key) }
            } else {
                name = fields.removeValue(forKey: "event")?.stringValue
                guard name != nil else { throw DecodeFailure("data[\(index)] has no \"event\"") }
                properties = (fields.removeValue(forKey: "properties")?.objectValue ?? [:]).removing(secrets)
            }
            var context = fields.removing(secrets)
            for (key, value) in shared where context[key] == nil { context[key] = value }
            return AnalyticsEvent(
                vendor: "mixpanel", type: endpoint, name: name, properties: .object(properties),
                context: .object(context), request: request.id, index: index)
        }
    }
}
