import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Google Analytics 4: gtag.js's `/g/collect` and the Measurement Protocol's `/mp/collect`
    /// (and `/debug/mp/collect`), on any host, so that server-side tagging and first-party
    /// proxies are decoded too.
    ///
    /// ```swift
    /// // POST /g/collect?v=2&tid=G-1&cid=1.2&sid=3   body: "en=page_view\nen=scroll&epn.percent=90"
    /// VendorDecoder.ga4.decode(request).events.map(\.name)  // ["page_view", "scroll"]
    /// ```
    /// gtag: the query holds the shared parameters and each body line one event (a query
    /// string); without a body the query is the event. Name `en`; properties `ep.x` (strings),
    /// `epn.x` (numbers), `cu` as `currency` and the `pr1`, `pr2`… items as `items`; context the
    /// other parameters, with `up.x`/`upn.x` under `user_properties`.
    /// Measurement Protocol: one event per `events` entry, name `name`, properties `params`,
    /// context the request's other members and query; `api_secret` is dropped.
    public static let ga4 = VendorDecoder(
        builtIn: "ga4", rule: "/g/collect (gtag.js), /mp/collect and /debug/mp/collect (Measurement Protocol), any host"
    ) { request throws(DecodeFailure) in
        if request.trimmedPath.hasSuffix("/g/collect") { return GA4.gtag(request) }
        if request.trimmedPath.hasSuffix("/mp/collect") { return try GA4.measurementProtocol(request) }
        return nil
    }
}

enum GA4 {
    static func gtag(_ request: CapturedRequest) -> [AnalyticsEvent] {
        let shared = request.queryItems
        let lines = (request.bodyText ?? "").split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .filter { !$0.allSatisfy(\.isWhitespace) }
        if lines.isEmpty { return [event(shared, request: request, index: 0)] }
        return lines.enumerated().map { index, line in
            event(shared + FormEncoding.pairs(line), request: request, index: index)
        }
    }

    /// One gtag event from its parameters, shared first so that a line's own values win.
    static func event(_ parameters: [(name: String, value: String)], request: CapturedRequest, index: Int)
        -> AnalyticsEvent
    {
        var name: String?
        var properties: [String: JSONValue] = [:]
        var userProperties: [String: JSONValue] = [:]
        var context: [String: JSONValue] = [:]
        var items: [Int: JSONValue] = [:]
        for (key, value) in parameters {
            if key == "en" {
                name = value
            } else if key.hasPrefix("ep.") {
                properties[String(key.dropFirst(3))] = .string(value)
            } else if key.hasPrefix("epn.") {
                properties[String(key.dropFirst(4))] = Payload.number(value) ?? .string(value)
            } else if key.hasPrefix("up.") {
                userProperties[String(key.dropFirst(3))] = .string(value)
            } else if key.hasPrefix("upn.") {
                userProperties[String(key.dropFirst(4))] = Payload.number(value) ?? .string(value)
            } else if key == "cu" {
                properties["currency"] = .string(value)
            } else if key.hasPrefix("pr"), let position = Int(key.dropFirst(2)), position > 0 {
                items[position] = item(value)
            } else {
                context[key] = .string(value)
            }
        }
        if !items.isEmpty { properties["items"] = .array(items.keys.sorted().compactMap { items[$0] }) }
        if !userProperties.isEmpty { context["user_properties"] = .object(userProperties) }
        return AnalyticsEvent(
            vendor: "ga4", type: "event", name: name, properties: .object(properties), context: .object(context),
            request: request.id, index: index)
    }

    /// gtag's item encoding: `~`-separated fields, each a two-letter key and its value
    /// (`idSKU_1~nmT-Shirt~pr12.5~qt2`), custom parameters as `k0name~v0value`.
    static func item(_ encoded: String) -> JSONValue {
        var item: [String: JSONValue] = [:]
        var customKeys: [Substring: String] = [:]
        var customValues: [Substring: String] = [:]
        for field in encoded.split(separator: "~", omittingEmptySubsequences: true) where field.count >= 2 {
            let key = field.prefix(2)
            let value = String(field.dropFirst(2))
            if key.first == "k", key.dropFirst().allSatisfy(\.isNumber) {
                customKeys[key.dropFirst()] = value
            } else if key.first == "v", key.dropFirst().allSatisfy(\.isNumber) {
                customValues[key.dropFirst()] = value
            } else if let (name, numeric) = itemFields[String(key)] {
                item[name] = numeric ? Payload.number(value) ?? .string(value) : .string(value)
            } else {
                item[String(key)] = .string(value)
            }
        }
        for (slot, key) in customKeys { item[key] = customValues[slot].map(JSONValue.string) ?? .string("") }
        return .object(item)
    }

    /// gtag's two-letter item keys, their GA4 names and whether they are numbers.
    static let itemFields: [String: (String, Bool)] = [
        "id": ("item_id", false), "nm": ("item_name", false), "af": ("affiliation", false),
        "cp": ("coupon", false), "ds": ("discount", true), "lp": ("index", true), "br": ("item_brand", false),
        "ca": ("item_category", false), "c2": ("item_category2", false), "c3": ("item_category3", false),
        "c4": ("item_category4", false), "c5": ("item_category5", false), "li": ("item_list_id", false),
        "ln": ("item_list_name", false), "va": ("item_variant", false), "lo": ("location_id", false),
        "pr": ("price", true), "qt": ("quantity", true),
    ]

    static let secrets: Set<String> = ["api_secret"]

    static func measurementProtocol(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent] {
        guard let body = try Payload.bodyJSON(request) else { throw DecodeFailure("request has no body") }
        guard let envelope = body.objectValue else { throw DecodeFailure("body is not a JSON object") }
        guard let events = envelope["events"]?.arrayValue else { throw DecodeFailure("body has no \"events\" array") }
        var shared = Payload.object(request.queryItems).removing(secrets)
        for (key, value) in envelope.removing(["events"]).removing(secrets) { shared[key] = value }
        return try events.enumerated().map { (index, event) throws(DecodeFailure) in
            guard var fields = event.objectValue else { throw DecodeFailure("events[\(index)] is not an object") }
            guard let name = fields.removeValue(forKey: "name")?.stringValue else {
                throw DecodeFailure("events[\(index)] has no \"name\"")
            }
            let properties = fields.removeValue(forKey: "params") ?? .object([:])
            var context = shared
            for (key, value) in fields.removing(secrets) { context[key] = value }
            return AnalyticsEvent(
                vendor: "ga4", type: "event", name: name, properties: properties, context: .object(context),
                request: request.id, index: index)
        }
    }
}
