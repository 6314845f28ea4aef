import TracksnapSnapshot
public import TracksnapTraffic

/// Turns captured requests into analytics events with a list of decoders.
///
/// ```swift
/// let result = Decoders.decode(request, using: VendorDecoder.all)
/// result.events.map(\.name)  // ["Order Completed", "Checkout Started"]
/// ```
public enum Decoders {
    /// Decodes a request with the first decoder that claims it.
    ///
    /// - Parameters:
    ///   - request: the captured request.
    ///   - decoders: the decoders to try, in order; `VendorDecoder.all` by default.
    /// - Returns: the events, `.unclaimed` when no decoder recognises the request, or
    ///   `.failed` with the reason when the claiming decoder cannot decode it.
    public static func decode(_ request: CapturedRequest, using decoders: [VendorDecoder] = VendorDecoder.all)
        -> DecodeResult
    {
        for decoder in decoders {
            let result = decoder.decode(request)
            if case .unclaimed = result { continue }
            return result
        }
        return .unclaimed
    }
}
