import Foundation
import Synchronization
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where the requests of one installed capture go: its recorder, its mode, for pass-through
/// the session that forwards them, and the server session it reports to, if any.
final class CaptureSink: Sendable {
    /// The URLProtocol class of this capture alone.
    let protocolClass: CaptureURLProtocol.Type
    let name: String?
    let mode: CaptureMode
    let recorder = CaptureRecorder()
    /// The configuration's `httpAdditionalHeaders` at install time: URLSession sends them, but
    /// on Linux a URLProtocol does not see them in the request, so they are added to the record.
    let additionalHeaders: [String: String]
    /// The inner session of pass-through mode. Its configuration lists its protocols
    /// explicitly and without `CaptureURLProtocol`: on Linux `URLProtocol.property(forKey:in:)`
    /// always returns nil, so a request cannot be tagged as already captured, and a forwarded
    /// request would otherwise be intercepted again.
    let forwarder: URLSession?
    /// Sends each captured request to a server session, before the app is answered.
    let reporter: CaptureReporter?

    init(
        protocolClass: CaptureURLProtocol.Type, name: String?, mode: CaptureMode, additionalHeaders: [String: String],
        forwarder: URLSession?,
        reporter: CaptureReporter?
    ) {
        self.protocolClass = protocolClass
        self.additionalHeaders = additionalHeaders
        self.name = name
        self.mode = mode
        self.forwarder = forwarder
        self.reporter = reporter
    }
}
