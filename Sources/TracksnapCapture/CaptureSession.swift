import Foundation
public import TracksnapTraffic

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Captures every request of the URLSessions made from one configuration, in-process.
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// let capture = CaptureSession.install(on: configuration, mode: .respond())
/// let session = URLSession(configuration: configuration)
/// _ = try await session.data(from: URL(string: "https://collect.example/e?ev=view")!)
/// let requests = await capture.waitForRequests(count: 1)
/// ```
///
/// `install` puts a `URLProtocol` class first in the configuration's `protocolClasses`: a
/// class of this capture alone, so that tests capturing in parallel with their own
/// configurations never see each other's requests. (URLProtocol classes are global types; on
/// Linux a URLProtocol sees neither `httpAdditionalHeaders` nor `URLProtocol.setProperty`
/// values, so a marker in the request cannot tell captures apart.) Install the capture last,
/// after setting the configuration's other properties: pass-through forwards with a copy of
/// the configuration as it was at install time, whose protocol list is given explicitly and
/// without the capture's class.
///
/// What a URLProtocol sees, and so what is recorded:
/// - the method, the absolute URL with its query, the headers set on the request, and the
///   configuration's `httpAdditionalHeaders` where the request does not set the same name
///   (not those URLSession adds itself, such as `Accept-Encoding` or `Content-Length`).
///   URLRequest keeps headers in a dictionary, so their order is lost: they are recorded
///   sorted by name.
/// - the body from `httpBody`, or `httpBodyStream` read to its end (and forwarded as
///   `httpBody`), with gzip or deflate undone when `Content-Encoding` says so.
/// - **not** the body of `upload(for:from:)` / `uploadTask(with:from:)` on Linux: URLSession
///   keeps it apart from the request and never gives it to a URLProtocol, so such a request is
///   recorded without a body (and forwarded without one in pass-through). Send analytics bodies
///   with `data(for:)` and `httpBody` (or `httpBodyStream`) for them to be captured.
///
/// Sessions made from the configuration keep answering (or forwarding) as long as they live;
/// recording stops when this handle is released, and what it held is freed.
///
/// **Reporting to a server.** Installed with `reportingTo:`, the capture also sends every
/// request it captures to a running `tracksnap serve`, into a session by id, so that a test in
/// another process (a UI test driving the app) waits and validates through the control API,
/// with no proxy and no certificate. The app is answered (or its request forwarded) once the
/// server has the request: when a request of the app has completed, the server holds it.
/// Requests are sent one at a time, in the order captured.
///
/// ```swift
/// // In the app; the UI test passes session.environment as the launch environment.
/// if let session = TracksnapClient.Session(environment: ProcessInfo.processInfo.environment) {
///     CaptureSession.install(on: configuration, mode: .respond(), reportingTo: session)
/// }
/// ```
public final class CaptureSession: Sendable {
    /// The name given at install, recorded as each request's `session`.
    public var name: String? { sink.name }
    public var mode: CaptureMode { sink.mode }

    /// What went wrong while answering, in words (a cassette's misses); empty for modes that
    /// cannot go wrong.
    public var problems: [String] {
        if case .answer(_, let problems) = sink.mode { return problems() }
        return []
    }

    let sink: CaptureSink

    private init(sink: CaptureSink) {
        self.sink = sink
    }

    deinit {
        // The sink stays registered: sessions made from the configuration may outlive the
        // handle, and must go on answering or forwarding as they were set up to.
        sink.recorder.close()
        // The answerer finishes what it holds (a cassette writes what it recorded).
        _ = problems
    }

    /// Installs a capture on a configuration; sessions made from it afterwards are captured.
    ///
    /// ```swift
    /// let capture = CaptureSession.install(on: configuration, mode: .passThrough, name: "checkout")
    /// ```
    /// - Parameters:
    ///   - configuration: the configuration to capture; changed in place. Installing a second
    ///     capture on it replaces the first.
    ///   - mode: forward to the network (`.passThrough`, the default) or answer locally
    ///     (`.respond()`, `.reply { … }`).
    ///   - name: recorded as each request's `session`.
    ///   - session: a `tracksnap serve` session to send every captured request to, as
    ///     `TracksnapClient.Session.add` does; see "Reporting to a server" above.
    /// - Returns: the handle to read, reset and wait on; keep it for as long as you capture.
    public static func install(
        on configuration: URLSessionConfiguration, mode: CaptureMode = .passThrough, name: String? = nil,
        reportingTo session: TracksnapClient.Session? = nil
    ) -> CaptureSession {
        // Another capture installed earlier on the same configuration gives way to this one.
        let others = (configuration.protocolClasses ?? []).filter { !($0 is CaptureURLProtocol.Type) }
        var additionalHeaders: [String: String] = [:]
        for (key, value) in configuration.httpAdditionalHeaders ?? [:] {
            if let key = key as? String { additionalHeaders[key] = "\(value)" }
        }
        var forwarder: URLSession?
        switch mode {
        case .passThrough, .answer:
            let inner = (configuration.copy() as? URLSessionConfiguration) ?? .ephemeral
            inner.protocolClasses = others
            forwarder = URLSession(configuration: inner)
        case .respond, .reply:
            break
        }
        let sink = CaptureRegistry.register { protocolClass in
            CaptureSink(
                protocolClass: protocolClass, name: name, mode: mode, additionalHeaders: additionalHeaders,
                forwarder: forwarder, reporter: session.map(CaptureReporter.init))
        }
        configuration.protocolClasses = [sink.protocolClass] + others
        return CaptureSession(sink: sink)
    }

    /// Every request captured since install or the last `reset()`, in the order they were sent.
    public var requests: [CapturedRequest] {
        sink.recorder.requests
    }

    /// Forgets the requests captured so far.
    public func reset() {
        sink.recorder.reset()
    }

    /// Waits until at least `count` requests are captured, then returns them all.
    ///
    /// ```swift
    /// let requests = await capture.waitForRequests(count: 2, timeout: .seconds(5))
    /// #expect(requests.count == 2)
    /// ```
    /// Returns early with fewer when the timeout passes, when traffic has been quiet for
    /// `settle` (if given) or the task is cancelled; it never throws, so that a validation
    /// afterwards reports what is missing.
    /// - Parameters:
    ///   - count: how many requests to wait for.
    ///   - settle: return once no request has arrived for this long, after at least one did;
    ///     nil waits for the count or the timeout.
    ///   - timeout: the longest wait.
    public func waitForRequests(count: Int, settle: Duration? = nil, timeout: Duration = .seconds(10)) async
        -> [CapturedRequest]
    {
        await sink.recorder.wait(settle: settle, timeout: timeout) { $0.count >= count }.requests
    }

    /// Waits until what was captured is complete, or traffic has been quiet for `settle` after
    /// at least one request, or `timeout` has passed; returns what was captured.
    ///
    /// ```swift
    /// // Until a purchase arrives, or 500 ms pass with no request, or 10 s.
    /// let requests = await capture.waitForRequests(settle: .milliseconds(500)) { requests in
    ///     requests.contains { $0.url.contains("purchase") }
    /// }
    /// ```
    /// `isComplete` is asked at once and after each arrival, in the calling task: it may be as
    /// slow as a validation. With nothing captured the settle time does not run, so a flow that
    /// sends nothing waits for the timeout.
    /// - Parameters:
    ///   - settle: how long traffic must be quiet for the wait to end.
    ///   - timeout: the longest wait.
    ///   - isComplete: whether the requests so far are all that is awaited; by default never,
    ///     so that the wait ends when traffic settles.
    public func waitForRequests(
        settle: Duration = DefaultWait.settle, timeout: Duration = DefaultWait.timeout,
        until isComplete: ([CapturedRequest]) -> Bool = { _ in false }
    ) async -> [CapturedRequest] {
        await sink.recorder.wait(settle: settle, timeout: timeout, until: isComplete).requests
    }
}
