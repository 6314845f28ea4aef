import TracksnapSnapshot

/// A request a decoder claimed but could not decode: which vendor, which request, and why.
///
/// ```swift
/// print(error)  // segment: body is not JSON: line 1, column 2: unexpected character 'x'
/// ```
public struct DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The id of the decoder that claimed the request.
    public let vendor: String
    /// The captured request's id.
    public let request: String
    /// What failed, for a person: `body is not JSON: …`, `data is neither base64 nor JSON`.
    public let reason: String

    /// - Parameters:
    ///   - vendor: the vendor id of the decoder.
    ///   - request: the captured request's id.
    ///   - reason: what failed.
    public init(vendor: String, request: String, reason: String) {
        self.vendor = vendor
        self.request = request
        self.reason = reason
    }

    public var description: String { "\(vendor): \(reason)" }
}

/// Why a built-in decoder gave up, before the vendor and request are attached.
struct DecodeFailure: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
