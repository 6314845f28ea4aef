/// What decoding one request gave.
///
/// ```swift
/// switch Decoders.decode(request, using: VendorDecoder.all) {
/// case .events(let events): validate(events)
/// case .unclaimed: keep(request)          // unknown traffic stays a request
/// case .failed(let error): report(error)  // "mixpanel: data is neither base64 nor JSON"
/// }
/// ```
public enum DecodeResult: Sendable, Hashable {
    /// A decoder claimed the request; its events, in batch order (possibly none: an empty batch).
    case events([AnalyticsEvent])
    /// No decoder recognised the request: the caller keeps it as a request.
    case unclaimed
    /// A decoder claimed the request but its body could not be decoded.
    case failed(DecodeError)

    /// The events, or none when the request was unclaimed or failed.
    public var events: [AnalyticsEvent] {
        if case .events(let events) = self { return events }
        return []
    }

    /// The error, when decoding failed.
    public var error: DecodeError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
