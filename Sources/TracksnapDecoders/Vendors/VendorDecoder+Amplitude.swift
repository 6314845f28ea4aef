import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Amplitude: the HTTP V2 API `/2/httpapi` (any host), the Batch API `/batch` (JSON
    /// `{api_key, events}`), and the older SDKs' form `e=<JSON array>` posted to `/`.
    ///
    /// ```swift
    /// // POST /2/httpapi  {"api_key":"…","events":[{"event_type":"Song Played","event_properties":{…}}]}
    /// VendorDecoder.amplitude.decode(request).events.first?.name  // "Song Played"
    /// ```
    /// Type: `identify` for `$identify`, `group_identify` for `$groupidentify`, else `track`.
    /// Name: `event_type`. Properties: `event_properties`. Context: the rest of the event and the
    /// request's `options`. `api_key`, the form's `client` key and its `checksum` (a hash of the
    /// key) are dropped. `/batch` is claimed on `*.amplitude.com`, elsewhere when the body has
    /// `api_key` and `events`; the form when it has `e`, `client` and `upload_time`.
    public static let amplitude = VendorDecoder(
        builtIn: "amplitude",
        rule: "/2/httpapi (any host), /batch with {api_key, events}, form e= with client= and upload_time="
    ) { request throws(DecodeFailure) in
        try Amplitude.decode(request)
    }
}

enum Amplitude {
    static let hosts = ["amplitude.com"]
    static let secrets: Set<String> = ["api_key", "client", "checksum"]

    static func decode(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent]? {
        let path = request.trimmedPath
        let onAmplitude = request.isHost(in: hosts)
        let form = request.formItems
        if let encoded = form.last(where: { $0.name == "e" })?.value,
            onAmplitude || (form.contains { $0.name == "client" } && form.contains { $0.name == "upload_time" })
        {
            let events = try Payload.json(encoded.utf8, what: "e parameter")
            let shared = Payload.object(request.queryItems + form).removing(secrets.union(["e"]))
            return try build(events.arrayValue ?? [events], shared: shared, request: request)
        }
        let isHTTPAPI = path.hasSuffix("/2/httpapi")
        guard isHTTPAPI || path.hasSuffix("/batch") else { return nil }
        let body: JSONValue?
        do throws(DecodeFailure) {
            body = try Payload.bodyJSON(request)
        } catch {
            guard isHTTPAPI || onAmplitude else { return nil }
            throw error
        }
        guard let envelope = body?.objectValue, let events = envelope["events"]?.arrayValue else {
            guard isHTTPAPI || onAmplitude else { return nil }
            throw DecodeFailure(body == nil ? "request has no body" : "body has no \"events\" array")
        }
        guard isHTTPAPI || onAmplitude || envelope["api_key"] != nil else { return nil }
        return try build(events, shared: envelope.removing(secrets.union(["events"])), request: request)
    }

    static func build(_ events: [JSONValue], shared: [String: JSONValue], request: CapturedRequest)
        throws(DecodeFailure) -> [AnalyticsEvent]
    {
        try events.enumerated().map { (index, event) throws(DecodeFailure) in
            guard var fields = event.objectValue else { throw DecodeFailure("events[\(index)] is not an object") }
            guard let name = fields.removeValue(forKey: "event_type")?.stringValue else {
                throw DecodeFailure("events[\(index)] has no \"event_type\"")
            }
            let properties = fields.removeValue(forKey: "event_properties") ?? .object([:])
            var context = fields.removing(secrets)
            for (key, value) in shared where context[key] == nil { context[key] = value }
            let type =
                switch name {
                case "$identify": "identify"
                case "$groupidentify": "group_identify"
                default: "track"
                }
            return AnalyticsEvent(
                vendor: "amplitude", type: type, name: name, properties: properties, context: .object(context),
                request: request.id, index: index)
        }
    }
}
