import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Snowplow: the tracker protocol, `GET …/i` with the event in the query, and
    /// `POST /com.snowplowanalytics.snowplow/tp2` with `{schema, data: [payload…]}`, on any host
    /// (collectors are self-hosted).
    ///
    /// ```swift
    /// // GET /i?e=se&se_ca=shop&se_ac=add-to-basket&tv=js-3.0.0&…
    /// VendorDecoder.snowplow.decode(request).events.first?.name  // "add-to-basket"
    /// ```
    /// Type: `page_view` (`e=pv`), `page_ping`, `struct` (`se`), `self_describing` (`ue`),
    /// `transaction`, `transaction_item`, else `e` as sent. Name: the self-describing event's
    /// schema URI, `se_ac` for a structured event, otherwise the type. Properties: the
    /// self-describing event's `data` (from `ue_pr` JSON or `ue_px` base64url, padded or not),
    /// the structured fields `se_ca`, `se_ac`, `se_la`, `se_pr`, `se_va` (a number), the page
    /// fields (`url`, `page`, `refr`) of a page view or ping, the `tr_`/`ti_` fields of a
    /// transaction. Context: the other fields, with `co`/`cx` decoded as `contexts` (the list
    /// of `{schema, data}`). `GET /i` is claimed when the query has `e` and the tracker version `tv`.
    public static let snowplow = VendorDecoder(
        builtIn: "snowplow", rule: "GET /i with e= and tv=, POST /com.snowplowanalytics.snowplow/tp2; any host"
    ) { request throws(DecodeFailure) in
        try Snowplow.decode(request)
    }
}

enum Snowplow {
    static func decode(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent]? {
        let path = request.trimmedPath
        if path.hasSuffix("/com.snowplowanalytics.snowplow/tp2") {
            guard let body = try Payload.bodyJSON(request) else { throw DecodeFailure("request has no body") }
            guard let payloads = body["data"]?.arrayValue else { throw DecodeFailure("body has no \"data\" array") }
            return try payloads.enumerated().map { (index, payload) throws(DecodeFailure) in
                guard let fields = payload.objectValue else { throw DecodeFailure("data[\(index)] is not an object") }
                var strings: [String: JSONValue] = [:]
                for (key, value) in fields { strings[key] = value.stringValue.map(JSONValue.string) ?? value }
                return try event(strings, request: request, index: index)
            }
        }
        guard path.hasSuffix("/i") || path == "/i" else { return nil }
        let query = request.queryItems
        guard query.contains(where: { $0.name == "e" }), query.contains(where: { $0.name == "tv" }) else { return nil }
        return [try event(Payload.object(query), request: request, index: 0)]
    }

    static let structFields = ["se_ca", "se_ac", "se_la", "se_pr", "se_va"]
    static let pageFields = ["url", "page", "refr"]
    static let pingFields = ["pp_mix", "pp_max", "pp_miy", "pp_may"]

    static func event(_ payload: [String: JSONValue], request: CapturedRequest, index: Int) throws(DecodeFailure)
        -> AnalyticsEvent
    {
        var fields = payload
        let code = fields.removeValue(forKey: "e")?.stringValue ?? ""
        var properties: [String: JSONValue] = [:]
        func move(_ keys: [String]) {
            for key in keys { if let value = fields.removeValue(forKey: key) { properties[key] = value } }
        }
        let type: String
        var name: String?
        switch code {
        case "pv":
            type = "page_view"
            move(pageFields)
        case "pp":
            type = "page_ping"
            move(pageFields + pingFields)
        case "se":
            type = "struct"
            move(structFields)
            if let value = properties["se_va"]?.stringValue, let number = Payload.number(value) {
                properties["se_va"] = number
            }
            name = properties["se_ac"]?.stringValue
        case "ue":
            type = "self_describing"
            let envelope = try selfDescribing(&fields, json: "ue_pr", base64: "ue_px")
            guard let inner = envelope?["data"], let schema = inner["schema"]?.stringValue else {
                throw DecodeFailure("self-describing event has no ue_pr or ue_px with an inner schema")
            }
            name = schema
            properties = inner["data"]?.objectValue ?? [:]
        case "tr":
            type = "transaction"
            move(fields.keys.filter { $0.hasPrefix("tr_") })
        case "ti":
            type = "transaction_item"
            move(fields.keys.filter { $0.hasPrefix("ti_") })
        default:
            type = code
        }
        if let contexts = try selfDescribing(&fields, json: "co", base64: "cx") {
            fields["contexts"] = contexts["data"] ?? contexts
        }
        return AnalyticsEvent(
            vendor: "snowplow", type: type, name: name ?? type, properties: .object(properties),
            context: .object(fields), request: request.id, index: index)
    }

    /// Takes a self-describing JSON out of its JSON field or its base64url field.
    static func selfDescribing(_ fields: inout [String: JSONValue], json: String, base64: String) throws(DecodeFailure)
        -> JSONValue?
    {
        if let text = fields.removeValue(forKey: json)?.stringValue {
            fields[base64] = nil
            return try Payload.json(text.utf8, what: json)
        }
        guard let text = fields.removeValue(forKey: base64)?.stringValue else { return nil }
        guard let bytes = Payload.base64(text) else { throw DecodeFailure("\(base64) is not base64url") }
        return try Payload.json(bytes, what: base64)
    }
}
