import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Segment: the HTTP Tracking API (`/v1/batch`, `/v1/track`, `/v1/page`, `/v1/screen`,
    /// `/v1/identify`, `/v1/group`, `/v1/alias`, `/v1/import`) and analytics.js's short paths
    /// (`/v1/t`, `/v1/p`, `/v1/s`, `/v1/i`, `/v1/g`, `/v1/a`), on any host but RudderStack's.
    ///
    /// ```swift
    /// VendorDecoder.segment.decode(request).events.map(\.name)  // ["Order Completed", nil]
    /// ```
    /// Name: `event` (track) or `name` (page, screen). Properties: `properties`, or `traits`
    /// (identify, group; else `context.traits`). Context: the rest of the call, the batch's `sentAt` and shared members.
    /// `writeKey` is dropped. Off Segment's hosts, the body must look like Segment's (a `batch`
    /// array, or a call with a `type`, `userId` or `anonymousId`); RudderStack's messages
    /// (`rudderId`, `channel`, a `Rudder…` library) are labelled `rudderstack`.
    public static let segment = VendorDecoder(builtIn: "segment", rule: SegmentShape.rule(for: "segment")) {
        request throws(DecodeFailure) in
        guard !request.isHost(in: SegmentShape.rudderHosts) else { return nil }
        return try SegmentShape.decode(request)
    }

    /// RudderStack: Segment's wire format (`/v1/batch`, `/v1/track`…, the beacon's
    /// `/beacon/v1/batch`), often gzip, with the write key in Basic auth, on any host but Segment's.
    ///
    /// ```swift
    /// VendorDecoder.rudderstack.decode(request).events.first?.vendor  // "rudderstack"
    /// ```
    /// A request is RudderStack's when its host is `*.rudderstack.com` or `*.rudderlabs.com`, or,
    /// on another host (a self-hosted data plane, a proxy), when a message carries `rudderId`, a
    /// top-level `channel` (RudderStack's SDKs set it; Segment's libraries do not) or a library
    /// whose name starts with `Rudder`; otherwise it is Segment's.
    public static let rudderstack = VendorDecoder(builtIn: "rudderstack", rule: SegmentShape.rule(for: "rudderstack")) {
        request throws(DecodeFailure) in
        guard !request.isHost(in: SegmentShape.segmentHosts) else { return nil }
        return try SegmentShape.decode(request)
    }
}

/// The wire format Segment and RudderStack share.
enum SegmentShape {
    static let segmentHosts = ["segment.io", "segment.com", "segmentapis.com"]
    static let rudderHosts = ["rudderstack.com", "rudderlabs.com"]
    static let batchPaths = ["/v1/batch", "/v1/import", "/v1/b"]
    /// The single-call paths and the call type each implies.
    static let callPaths: [(path: String, type: String)] = [
        ("/v1/track", "track"), ("/v1/page", "page"), ("/v1/screen", "screen"), ("/v1/identify", "identify"),
        ("/v1/group", "group"), ("/v1/alias", "alias"), ("/v1/t", "track"), ("/v1/p", "page"),
        ("/v1/s", "screen"), ("/v1/i", "identify"), ("/v1/g", "group"), ("/v1/a", "alias"),
    ]
    static let callTypes: Set<String> = ["track", "page", "screen", "identify", "group", "alias"]
    static let secrets: Set<String> = ["writeKey"]

    static func rule(for vendor: String) -> String {
        let other = vendor == "segment" ? "RudderStack" : "Segment"
        return "POST /v1/batch, /v1/import, /v1/{track,page,screen,identify,group,alias}, /v1/{t,p,s,i,g,a} "
            + "on any host but \(other)'s; off the vendor's hosts the body must be Segment-shaped"
    }

    static func decode(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent]? {
        let isBatch = request.pathEnds(with: batchPaths) != nil
        let pathType = isBatch ? nil : callPaths.first { request.trimmedPath.hasSuffix($0.path) }?.type
        guard isBatch || pathType != nil else { return nil }
        let onVendorHost = request.isHost(in: segmentHosts + rudderHosts)

        let body: JSONValue?
        do throws(DecodeFailure) {
            body = try Payload.bodyJSON(request)
        } catch {
            // Off the vendors' hosts, a path like /v1/track is only a hint: leave others' traffic alone.
            guard onVendorHost else { return nil }
            throw error
        }
        guard let envelope = body?.objectValue else {
            guard onVendorHost else { return nil }
            throw DecodeFailure(body == nil ? "request has no body" : "body is not a JSON object")
        }

        let messages: [JSONValue]
        var shared: [String: JSONValue]
        if isBatch {
            guard let batch = envelope["batch"]?.arrayValue else {
                guard onVendorHost else { return nil }
                throw DecodeFailure("body has no \"batch\" array")
            }
            messages = batch
            shared = envelope.removing(["batch"])
        } else {
            let shaped =
                envelope["type"]?.stringValue.map(callTypes.contains) ?? false
                || envelope["userId"] != nil || envelope["anonymousId"] != nil
            guard onVendorHost || shaped else { return nil }
            messages = [.object(envelope)]
            shared = [:]
        }
        shared = shared.removing(secrets)

        let vendor = vendor(of: request, messages: messages)
        var events: [AnalyticsEvent] = []
        events.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            guard var fields = message.objectValue else {
                throw DecodeFailure("batch[\(index)] is not an object")
            }
            guard let type = fields["type"]?.stringValue ?? pathType else {
                throw DecodeFailure("batch[\(index)] has no \"type\"")
            }
            fields["type"] = nil
            var name: String?
            switch type {
            case "track": name = fields.removeValue(forKey: "event")?.stringValue
            case "page", "screen": name = fields.removeValue(forKey: "name")?.stringValue
            default: break
            }
            let properties: JSONValue
            if type == "identify" || type == "group" {
                // RudderStack's SDKs send an identify's traits in `context.traits`.
                properties = fields.removeValue(forKey: "traits") ?? fields["context"]?["traits"] ?? .object([:])
            } else {
                properties = fields.removeValue(forKey: "properties") ?? .object([:])
            }
            var context = fields.removing(secrets)
            for (key, value) in shared where context[key] == nil { context[key] = value }
            events.append(
                AnalyticsEvent(
                    vendor: vendor, type: type, name: name, properties: properties, context: .object(context),
                    request: request.id, index: index))
        }
        return events
    }

    /// `segment` or `rudderstack`, by host, else by the marks RudderStack's SDKs leave.
    static func vendor(of request: CapturedRequest, messages: [JSONValue]) -> String {
        if request.isHost(in: segmentHosts) { return "segment" }
        if request.isHost(in: rudderHosts) { return "rudderstack" }
        let rudder = messages.contains { message in
            message["rudderId"] != nil || message["channel"] != nil
                || message["context"]?["library"]?["name"]?.stringValue?.lowercased().hasPrefix("rudder") == true
        }
        return rudder ? "rudderstack" : "segment"
    }
}
