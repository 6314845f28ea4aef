package import TracksnapTraffic

/// Whether a request no decoder was asked to keep local looks like analytics all the same, and
/// why: so that a recording that sends it to the network and into a cassette can say so.
///
/// ```swift
/// AnalyticsLook.reason(for: telemetryDeckSignal)  // "its host names \"telemetry\""
/// AnalyticsLook.reason(for: productsCall)         // nil
/// ```
///
/// A guess, made to warn and never to decide: a built-in decoder that reads the request (a
/// Segment-shaped batch sent to the app's own proxy), a host label that holds an analytics word
/// (`nom.telemetrydeck.com`, `metrics.shop.example`), or a path segment that is one
/// (`/v1/track`, `/collect`, `/signals`). Words short or common enough to name an app's own
/// API (`e`, `log`, `page`, `api`) are not among them.
package enum AnalyticsLook {
    /// Words that, inside a host's label, name an analytics endpoint.
    static let hostWords = [
        "analytics", "telemetry", "tracking", "tracker", "metrics", "stats", "beacon", "pixel", "collect", "ingest",
        "events", "insights",
    ]

    /// Path segments that name an analytics call.
    static let pathSegments: Set<String> = [
        "track", "batch", "collect", "event", "events", "ingest", "capture", "signals", "beacon", "pixel", "analytics",
        "telemetry", "metrics", "identify",
    ]

    /// Why the request looks like analytics, for a person; nil when nothing says it does.
    package static func reason(for request: CapturedRequest) -> String? {
        for decoder in VendorDecoder.all {
            if case .unclaimed = decoder.decode(request) { continue }
            return "the \(decoder.vendor) decoder reads it"
        }
        for label in request.host.lowercased().split(separator: ".") {
            if let word = hostWords.first(where: { label.contains($0) }) { return "its host names \"\(word)\"" }
        }
        let segments = request.path.lowercased().split(separator: "/")
        if let segment = segments.first(where: { pathSegments.contains(String($0)) }) {
            return "its path has \"/\(segment)\""
        }
        return nil
    }
}
