/// The vendors' own domains, as the built-in decoders know them: what
/// `tracksnap serve --intercept analytics` decrypts (each domain and its subdomains).
///
/// ```swift
/// VendorDomains.all.contains("segment.io")  // true
/// ```
///
/// Snowplow has none: its collectors run on each customer's own domain.
package enum VendorDomains {
    package static let all: [String] =
        SegmentShape.segmentHosts + SegmentShape.rudderHosts + UniversalAnalytics.hosts + Mixpanel.hosts
        + Amplitude.hosts
        + PostHog.hosts + VendorDecoder.metaPixelHosts
        + Adjust.hosts + Branch.hosts + Firebase.hosts

    /// Whether `host` is one of the domains or below one.
    package static func contains(_ host: String) -> Bool {
        let host = host.lowercased()
        return all.contains { host == $0 || host.hasSuffix("." + $0) }
    }
}
