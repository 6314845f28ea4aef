import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// PostHog: `/batch/`, `/capture/`, `/e/`, `/i/v0/e/`, `/track/` (the slash optional), the
    /// body JSON (a `batch` envelope, an array, or one event), gzip (`compression=gzip-js`, or a
    /// body starting with gzip's magic bytes), base64 (`compression=base64`), or a `data=` form.
    ///
    /// ```swift
    /// // POST /batch/  {"api_key":"phc_…","batch":[{"event":"order completed","properties":{…}}]}
    /// VendorDecoder.posthog.decode(request).events.first?.name  // "order completed"
    /// ```
    /// Type: `identify` (`$identify`), `alias` (`$create_alias`), `group_identify`
    /// (`$groupidentify`), `set` (`$set`), `pageview` (`$pageview`), `screen` (`$screen`), else
    /// `capture`. Name: `event`. Properties: `properties` without `token` and `api_key`.
    /// Context: the rest of the event and of the envelope; `api_key` is dropped. `lz64`
    /// compression is a decode error (not supported). Claimed on `*.posthog.com`; elsewhere
    /// `/batch` and `/track` need PostHog's marks: a top-level `api_key`, an event `uuid`, or a
    /// `phc_` token; the other paths need events with an `event` name.
    public static let posthog = VendorDecoder(
        builtIn: "posthog", rule: "/batch/, /capture/, /e/, /i/v0/e/, /track/ with PostHog's JSON; any host"
    ) { request throws(DecodeFailure) in
        try PostHog.decode(request)
    }
}

enum PostHog {
    static let hosts = ["posthog.com"]
    static let secrets: Set<String> = ["api_key", "token"]
    static let types: [String: String] = [
        "$identify": "identify", "$create_alias": "alias", "$groupidentify": "group_identify", "$set": "set",
        "$pageview": "pageview", "$screen": "screen",
    ]

    static func decode(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent]? {
        let path = request.trimmedPath
        let isShared = path.hasSuffix("/batch") || path.hasSuffix("/track")
        let isSpecific = path.hasSuffix("/i/v0/e") || path.hasSuffix("/capture")
        guard isShared || isSpecific || path.hasSuffix("/e") else { return nil }
        let onPostHog = request.isHost(in: hosts)
        // A failure is PostHog's to report on its hosts, on its own paths, or when the request
        // names PostHog's compression; elsewhere `/e` or `/batch` may be someone else's.
        let isPostHogs = onPostHog || isSpecific || request.queryItems.contains { $0.name == "compression" }
        let payload: JSONValue
        do throws(DecodeFailure) {
            guard let decoded = try self.payload(request) else {
                throw DecodeFailure("request has no body and no data parameter")
            }
            payload = decoded
        } catch {
            guard isPostHogs else { return nil }
            throw error
        }
        let envelope: [String: JSONValue]
        let items: [JSONValue]
        if let batch = payload["batch"]?.arrayValue {
            envelope = payload.objectValue?.removing(["batch"]) ?? [:]
            items = batch
        } else if let array = payload.arrayValue {
            envelope = [:]
            items = array
        } else {
            envelope = [:]
            items = [payload]
        }
        if !onPostHog {
            let named = items.allSatisfy { $0["event"]?.stringValue != nil }
            guard named, !isShared || hasMarks(envelope: payload, items: items) else { return nil }
        }
        let shared = envelope.removing(secrets)
        return try items.enumerated().map { (index, item) throws(DecodeFailure) in
            guard var fields = item.objectValue else { throw DecodeFailure("batch[\(index)] is not an object") }
            guard let name = fields.removeValue(forKey: "event")?.stringValue else {
                throw DecodeFailure("batch[\(index)] has no \"event\"")
            }
            let properties = (fields.removeValue(forKey: "properties")?.objectValue ?? [:]).removing(secrets)
            var context = fields.removing(secrets)
            for (key, value) in shared where context[key] == nil { context[key] = value }
            return AnalyticsEvent(
                vendor: "posthog", type: types[name] ?? "capture", name: name, properties: .object(properties),
                context: .object(context), request: request.id, index: index)
        }
    }

    /// The JSON the request carries, whatever its compression; nil when it carries nothing.
    static func payload(_ request: CapturedRequest) throws(DecodeFailure) -> JSONValue? {
        let compression = request.parameters.last { $0.name == "compression" }?.value.lowercased() ?? ""
        if compression == "lz64" || compression == "lz-string" {
            throw DecodeFailure("lz64 compression is not supported")
        }
        if let data = request.parameters.last(where: { $0.name == "data" })?.value {
            guard let decoded = Payload.jsonOrBase64JSON(data) else {
                throw DecodeFailure("data is neither base64 nor JSON")
            }
            return decoded
        }
        guard let bytes = try Payload.bodyBytes(request) else { return nil }
        if compression == "base64" {
            guard let text = String(validating: bytes, as: UTF8.self), let decoded = Payload.base64(text) else {
                throw DecodeFailure("body is not base64")
            }
            return try Payload.json(decoded, what: "body")
        }
        return try Payload.json(bytes, what: "body")
    }

    /// Whether a payload carries what only PostHog's SDKs send: a top-level `api_key`, an
    /// event `uuid`, or a project token starting `phc_`.
    static func hasMarks(envelope: JSONValue, items: [JSONValue]) -> Bool {
        if envelope["api_key"] != nil { return true }
        return items.contains { item in
            item["uuid"] != nil || item["properties"]?["token"]?.stringValue?.hasPrefix("phc_") == true
                || item["api_key"] != nil
        }
    }
}
