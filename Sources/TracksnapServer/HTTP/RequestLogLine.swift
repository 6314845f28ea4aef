import TracksnapReports
import TracksnapSnapshot
package import TracksnapTraffic
import TracksnapValidation

/// One captured request as `tracksnap serve` logs it on stderr: time, session, method, URL (its
/// secrets redacted as the control API redacts them), status, and why no session got it when
/// sessions were open.
///
/// Every field may come from a client (an ingested method, a TLS server name in an intercepted
/// URL, a session header), so the line is rendered with every control character, line or
/// paragraph separator and bidirectional override made visible (`\n`, `⟨U+001B⟩`,
/// `VisibleText.inline`): a field can neither start a line of its own (a forged request, a CI
/// workflow command such as `::error::`) nor drive the terminal.
///
/// ```text
/// 18:59:31.123 s1 POST http://127.0.0.1:41589/v1/batch 200
/// 18:59:31.140 - GET http://127.0.0.1:41589/e?ev=1 200  not attributed: 2 sessions open; send X-Tracksnap-Session
/// 18:59:31.152 s1 POST http://127.0.0.1:41589/v1/batch 413  refused: the body inflates beyond the limit of 16777216 bytes
/// ```
public struct RequestLogLine: Sendable, Hashable, CustomStringConvertible {
    /// The request's capture time, RFC 3339 in UTC.
    public var time: String
    /// The session that got it, if any.
    public var session: String?
    public var method: String
    /// The URL as recorded, its secrets (`access_token=…`) `[redacted]`.
    public var url: String
    /// The status answered, or nil when no answer was written (a tunnel that failed to open
    /// is logged with its 502).
    public var status: Int?
    /// Why no session got the request although sessions were open; nil otherwise.
    public var notAttributed: String?
    /// Why the request was refused (`CapturedRequest.refused`); nil when it was not.
    public var refused: String?

    package init(
        time: String, session: String?, method: String, url: String, status: Int?, notAttributed: String?,
        refused: String? = nil
    ) {
        self.time = time
        self.session = session
        self.method = method
        self.url = url
        self.status = status
        self.notAttributed = notAttributed
        self.refused = refused
    }

    /// The line of a request the store recorded, its URL redacted by the store's redactor for
    /// log lines (`CaptureStore.recentRedactor`): what `serve` logs for each request.
    package static func line(
        of recorded: (request: CapturedRequest, attribution: CaptureStore.Attribution), status: Int?,
        in store: CaptureStore
    ) -> RequestLogLine {
        RequestLogLine(
            request: recorded.request, attribution: recorded.attribution, status: status,
            redactor: store.recentRedactor)
    }

    /// - Parameter redactor: hides the URL's secrets, and those of the latest requests.
    init(request: CapturedRequest, attribution: CaptureStore.Attribution, status: Int?, redactor: Redactor) {
        var note: String?
        if case .unattributed(let open, let hint) = attribution {
            if let hint {
                // The name the client sent, which may be anything, a token or an email too.
                note = "not attributed: no open session \"\(redactor.redact(text: hint))\""
            } else {
                note =
                    "not attributed: \(open) sessions open; send \(SessionRouting.headerName) or use /__tracksnap/s/ID/"
            }
        }
        self.init(
            time: request.time ?? "", session: request.session, method: request.method,
            url: redactor.redact(url: request.url),
            status: status,
            notAttributed: note, refused: request.refused)
    }

    /// The line, without its newline: the time of day with milliseconds, then the fields
    /// separated by spaces, control characters made visible.
    public var description: String {
        var clock = time
        if let mark = clock.firstIndex(of: "T") { clock = String(clock[clock.index(after: mark)...]) }
        if clock.hasSuffix("Z") { clock.removeLast() }
        var line = "\(clock) \(session ?? "-") \(method) \(url) \(status.map(String.init) ?? "-")"
        if let notAttributed { line += "  " + notAttributed }
        if let refused { line += "  refused: " + refused }
        return VisibleText.inline(line)
    }
}
