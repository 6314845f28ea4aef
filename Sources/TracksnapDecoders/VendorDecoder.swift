import Synchronization
public import TracksnapTraffic

/// A strategy that recognises one vendor's traffic and decodes it into events.
///
/// Built-ins are static members (`.segment`, `.ga4`…); a custom one is built from two closures.
///
/// ```swift
/// let acme = VendorDecoder(vendor: "acme", rule: "GET /v1/e", matches: { $0.path == "/v1/e" }) { request throws(DecodeError) in
///     [AnalyticsEvent(vendor: "acme", type: "event", name: request.queryItems.first?.value, request: request.id, index: 0)]
/// }
/// Decoders.decode(request, using: [acme] + VendorDecoder.all)
/// ```
public struct VendorDecoder: Sendable {
    /// The vendor id it decodes (`segment`), also its name for `VendorDecoder.named(_:)`.
    public let vendor: String
    /// Which traffic it claims, for a person (documentation and `tracksnap` listings).
    public let rule: String
    private let attempt: @Sendable (CapturedRequest) -> DecodeResult
    /// Tells this decoder from every other one made in the process, whatever its vendor (one of
    /// your own may share a built-in's; a profile's protobuf decoder is made when a workspace
    /// first loads it, and again when its descriptor set changes): what `DecodeCache` keeps a
    /// decoding under.
    package let identity = VendorDecoder.made.add(1, ordering: .relaxed).newValue
    private static let made = Atomic<Int>(0)

    /// A custom decoder.
    ///
    /// - Parameters:
    ///   - vendor: the vendor id.
    ///   - rule: which traffic it claims, for a person.
    ///   - matches: whether a request is this vendor's.
    ///   - decode: the request's events; throws a `DecodeError` with the reason when a claimed
    ///     request cannot be decoded.
    public init(
        vendor: String, rule: String, matches: @escaping @Sendable (CapturedRequest) -> Bool,
        decode: @escaping @Sendable (CapturedRequest) throws(DecodeError) -> [AnalyticsEvent]
    ) {
        self.vendor = vendor
        self.rule = rule
        attempt = { request in
            guard matches(request) else { return .unclaimed }
            do throws(DecodeError) {
                return .events(try decode(request))
            } catch {
                return .failed(error)
            }
        }
    }

    /// A built-in: the closure returns nil for traffic that is not the vendor's. Matching and
    /// decoding are one step because on a shared path (`/batch`, `/track`) the body's shape is
    /// what tells vendors apart, and it should be parsed once.
    init(
        builtIn vendor: String, rule: String,
        _ attempt: @escaping @Sendable (CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent]?
    ) {
        self.vendor = vendor
        self.rule = rule
        self.attempt = { request in
            do throws(DecodeFailure) {
                guard let events = try attempt(request) else { return .unclaimed }
                return .events(events)
            } catch {
                // A request the capture refused has no body: its refusal is the reason.
                let reason = request.refused.map { "the capture refused it: \($0)" } ?? error.reason
                return .failed(DecodeError(vendor: vendor, request: request.id, reason: reason))
            }
        }
    }

    /// Decodes one request with this decoder alone.
    ///
    /// ```swift
    /// VendorDecoder.segment.decode(request)  // .events([…]), .unclaimed or .failed(…)
    /// ```
    /// Each event carries its request's consent signals (`AnalyticsEvent.consent`), read once.
    /// No decoder claims a CORS preflight (`OPTIONS`): it asks whether the event may be sent,
    /// and carries none.
    public func decode(_ request: CapturedRequest) -> DecodeResult {
        guard request.method != "OPTIONS" else { return .unclaimed }
        let result = attempt(request)
        guard case .events(var events) = result, !events.isEmpty, let consent = ConsentSignals.read(request) else {
            return result
        }
        for index in events.indices where events[index].consent == nil { events[index].consent = consent }
        return .events(events)
    }

    /// Every built-in decoder, in the order `Decoders.decode` tries them. Their claims do not
    /// overlap (each checks the path, then the host or the body's shape), except on `/track`,
    /// where PostHog is asked before Mixpanel; the busiest batch formats come first. Firebase
    /// claims `/a` on its own hosts only.
    public static let all: [VendorDecoder] = [
        .segment, .rudderstack, .ga4, .universalAnalytics, .posthog, .mixpanel, .amplitude, .snowplow, .metaPixel,
        .metaApp, .adjust, .branch, .firebase,
    ]

    /// The built-in decoder with this vendor id (`segment`, `universal-analytics`…), or nil.
    ///
    /// ```swift
    /// VendorDecoder.named("mixpanel")?.rule
    /// ```
    public static func named(_ vendor: String) -> VendorDecoder? {
        all.first { $0.vendor == vendor.lowercased() }
    }
}
