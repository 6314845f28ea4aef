public import TracksnapSnapshot
public import TracksnapTraffic

/// Accepts a request when the built-in decoders say it is one of these vendors' traffic.
///
/// The vendor is that of the events the first claiming decoder makes of the request (or of the
/// decoder itself, for an empty batch or a request it claims but cannot decode), so a capture
/// holding several SDKs' traffic on shared paths (`/batch`, `/track`, one collector's host)
/// splits by vendor as `Decoders.decode` splits it: PostHog is asked before Mixpanel on `/track`,
/// and Segment-shaped messages carrying RudderStack's marks are RudderStack's.
///
/// ```swift
/// let filter: any RequestFilter = .vendor("segment")
/// filter.accepts(request)  // true for Segment's /v1/batch, false for Amplitude's /batch
/// ```
public struct VendorFilter: RequestFilter {
    /// The vendor ids accepted (`segment`, `ga4`…).
    public let vendors: Set<String>
    /// The decoders asked, in order.
    public let decoders: [VendorDecoder]

    /// - Parameters:
    ///   - vendors: the vendor ids accepted.
    ///   - decoders: the decoders that tell vendors apart; every built-in one by default.
    public init(_ vendors: some Sequence<String>, decoders: [VendorDecoder] = VendorDecoder.all) {
        self.vendors = Set(vendors.map { $0.lowercased() })
        self.decoders = decoders
    }

    public func accepts(_ request: CapturedRequest) -> Bool {
        Decoders.vendor(of: request, using: decoders).map(vendors.contains) ?? false
    }
}

extension RequestFilter where Self == VendorFilter {
    /// Requests the built-in decoders claim for one of these vendors.
    ///
    /// ```swift
    /// let filter: any RequestFilter = .all(.vendor("segment", "rudderstack"), .not(.method("OPTIONS")))
    /// ```
    public static func vendor(_ vendors: String...) -> VendorFilter { VendorFilter(vendors) }
}

extension Decoders {
    /// Whose traffic a request is: the vendor of the events the first claiming decoder makes of
    /// it, else that decoder's vendor (an empty batch, a body it cannot decode); nil when no
    /// decoder claims it.
    ///
    /// ```swift
    /// Decoders.vendor(of: request)  // "posthog" for PostHog's /track, "mixpanel" for Mixpanel's
    /// ```
    /// - Parameters:
    ///   - request: the captured request.
    ///   - decoders: the decoders to ask, in order; `VendorDecoder.all` by default.
    package static func vendor(of request: CapturedRequest, using decoders: [VendorDecoder] = VendorDecoder.all)
        -> String?
    {
        for decoder in decoders {
            switch decode(request, by: decoder) {
            case .unclaimed: continue
            case .events(let events): return events.first?.vendor ?? decoder.vendor
            case .failed(let error): return error.vendor
            }
        }
        return nil
    }
}
