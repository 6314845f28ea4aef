import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Universal Analytics: analytics.js and the Measurement Protocol v1, `/collect`,
    /// `/r/collect`, `/j/collect` (query or form body) and `/batch` (one hit per body line).
    ///
    /// ```swift
    /// // GET /collect?v=1&tid=UA-1-1&cid=5&t=event&ec=video&ea=play
    /// VendorDecoder.universalAnalytics.decode(request).events.first?.name  // "play"
    /// ```
    /// Claimed on Google's hosts, elsewhere when every hit has `v=1` and a hit type `t` (the
    /// protocol requires both). Type: `t`. Name: `ea` for events, else `t`. Properties: the hit's
    /// own parameters (`ec`, `ea`, `el`, `ev`, `dp`, `dl`, `dt`, `cd1`, `cm1`, `pr1id`…). Context:
    /// protocol, ids, device and cache-busting parameters (`v`, `tid`, `cid`, `uid`, `_v`, `z`…).
    public static let universalAnalytics = VendorDecoder(
        builtIn: "universal-analytics",
        rule: "/collect, /r/collect, /j/collect, /batch with v=1 and t (any host; Google's hosts always)"
    ) { request throws(DecodeFailure) in
        let path = request.trimmedPath
        let isBatch = path.hasSuffix("/batch")
        guard isBatch || (path.hasSuffix("/collect") && !path.hasSuffix("/g/collect") && !path.hasSuffix("/mp/collect"))
        else { return nil }
        let onGoogle = request.isHost(in: UniversalAnalytics.hosts)
        // A JSON body (Amplitude's and PostHog's `/batch`, Segment's `/v1/batch`) is no hit:
        // reject it before splitting a large body into form pairs.
        if !onGoogle,
            let first = request.bodyBytes?.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == 0x1F
        {
            return nil
        }
        var hits: [[(name: String, value: String)]]
        if isBatch {
            hits = (request.bodyText ?? "").split(whereSeparator: \.isNewline).map { FormEncoding.pairs($0) }.filter {
                !$0.isEmpty
            }
        } else {
            let lines = (request.bodyText ?? "").split(whereSeparator: \.isNewline)
            hits = [request.queryItems + (lines.count > 1 ? [] : request.formItems)]
        }
        let shaped =
            !hits.isEmpty
            && hits.allSatisfy { hit in
                hit.contains { $0.name == "v" && $0.value == "1" } && hit.contains { $0.name == "t" }
            }
        guard shaped else {
            guard onGoogle else { return nil }
            throw DecodeFailure(
                hits.isEmpty ? "request carries no hit" : "a hit lacks the protocol version v=1 or the hit type t")
        }
        return hits.enumerated().map { index, hit in UniversalAnalytics.event(hit, request: request, index: index) }
    }
}

enum UniversalAnalytics {
    static let hosts = ["google-analytics.com", "analytics.google.com", "doubleclick.net"]
    /// The parameters that describe the sender rather than the hit.
    static let contextKeys: Set<String> = [
        "v", "tid", "cid", "uid", "ds", "_v", "a", "_s", "_u", "jid", "gjid", "_gid", "_r", "gtm", "z", "ul",
        "de", "sd", "sr", "vp", "je", "fl", "ua", "uip", "aip", "npa", "qt", "_et", "_gac", "_slc", "cg1", "cg2",
        "cg3", "cg4", "cg5", "dr", "cn", "cs", "cm", "ck", "cc", "ci", "gclid", "dclid", "an", "aid", "av", "aiid",
    ]

    static func event(_ hit: [(name: String, value: String)], request: CapturedRequest, index: Int) -> AnalyticsEvent {
        var properties: [String: JSONValue] = [:]
        var context: [String: JSONValue] = [:]
        var type = ""
        for (key, value) in hit {
            if key == "t" {
                type = value
            } else if contextKeys.contains(key) {
                context[key] = .string(value)
            } else {
                properties[key] = .string(value)
            }
        }
        let name = type == "event" ? properties["ea"]?.stringValue ?? type : type
        return AnalyticsEvent(
            vendor: "universal-analytics", type: type, name: name, properties: .object(properties),
            context: .object(context), request: request.id, index: index)
    }
}
