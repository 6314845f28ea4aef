public import Foundation
public import TracksnapTraffic

/// What a capture does with a request once it has recorded it.
///
/// ```swift
/// let capture = CaptureSession.install(on: configuration, mode: .respond())
/// let stub = CaptureSession.install(on: other, mode: .reply { request in
///     CaptureResponse(status: request.method == "POST" ? 201 : 200, body: Data(#"{"id":"s1"}"#.utf8))
/// })
/// ```
public enum CaptureMode: Sendable {
    /// Forwards the request to the network and hands the real response to the app.
    case passThrough
    /// Answers every request locally with the same response; by default what the capture
    /// server's collector answers (`CollectorAnswer`), which analytics SDKs accept.
    case respond(
        status: Int = CollectorAnswer.status,
        headers: [String: String] = ["Content-Type": CollectorAnswer.contentType],
        body: Data = Data(CollectorAnswer.body.utf8))
    /// Answers each request locally with the response the closure builds from it: a stub server.
    case reply(@Sendable (CapturedRequest) -> CaptureResponse)
    /// Decides for each request: answer it locally, or forward it to the network and hear what
    /// came back (a cassette that replays what it has and records what it lacks). `problems`
    /// says what went wrong meanwhile (a request the cassette had no answer for), in words:
    /// `assertTracking` fails on each. It is asked when the capture is checked and when its
    /// handle is released, so it first finishes what is pending (a cassette writes what it
    /// recorded).
    case answer(@Sendable (CapturedRequest) -> CaptureAnswer, problems: @Sendable () -> [String] = { [] })
}

/// What a capture in `answer` mode does with one request.
///
/// ```swift
/// let mode = CaptureMode.answer { request in
///     cached[request.url].map(CaptureAnswer.respond) ?? .forward { response in cached[request.url] = response }
/// }
/// ```
public enum CaptureAnswer: Sendable {
    /// Answers locally.
    case respond(CaptureResponse)
    /// Forwards to the network as pass-through does; `received` is given the answer (not called
    /// when the request fails or the app cancels it).
    case forward(received: @Sendable (CaptureResponse) -> Void)
}

/// A response a capture in `respond` or `reply` mode gives the app.
///
/// ```swift
/// CaptureResponse(status: 201, body: Data(#"{"id":"s1"}"#.utf8))
/// ```
public struct CaptureResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    /// - Parameters:
    ///   - status: the HTTP status code.
    ///   - headers: the response headers.
    ///   - body: the response body.
    public init(
        status: Int = 200, headers: [String: String] = ["Content-Type": "application/json"],
        body: Data = Data("{}".utf8)
    ) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
