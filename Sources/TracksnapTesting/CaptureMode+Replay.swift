public import Foundation
import Synchronization
public import TracksnapCapture
import TracksnapDecoders
import TracksnapJSON
public import TracksnapReplay
import TracksnapReports
import TracksnapSnapshot
public import TracksnapTraffic
import TracksnapValidation

extension CaptureMode {
    /// Answers the app's requests from a cassette, so that a flow runs offline and the same
    /// every time while its analytics are captured and checked as before.
    ///
    /// ```swift
    /// let capture = CaptureSession.install(on: configuration, mode: try .replay(cassette: "Cassettes/checkout.json"))
    /// // DVR:   Session(cassetteName: "checkout")            → try .replay(cassette: "Cassettes/checkout.json")
    /// // Vinyl: Turntable(vinylName: "checkout")             → try .replay(cassette: "Vinyls/checkout.json")
    /// ```
    /// The cassette is any format tracksnap reads (its own, DVR's, Vinyl's, VCR's, vcrpy's,
    /// HAR), matched by the rules of the tool that wrote it unless `matching` says otherwise.
    /// The record mode is the snapshots' (the argument, the `.tracksnap(record:)` trait,
    /// `TRACKSNAP_RECORD`, else `never` in CI and `missing` locally), read as `CassettePlayer`
    /// says: `missing` records a cassette that does not exist yet, `failed` records what one
    /// lacks. A request the cassette has no answer for gets a 599 that says why, goes nowhere,
    /// and fails the next `assertTracking` on this capture with the same text, which is also
    /// printed on stderr at once, beside whatever the app does with the 599. While recording, a
    /// request that looks like analytics (`AnalyticsLook`) but is not `analytics` goes to the
    /// network and into the cassette as the app's backend does: stderr says so, once per host.
    /// - Parameters:
    ///   - path: the cassette file, relative to the test file's directory unless absolute.
    ///   - matching: the rules; by default the cassette's tool's.
    ///   - record: the record mode, when not the configured one.
    ///   - analytics: the requests answered as the collector answers them and left out of the
    ///     cassette; by default those to the vendors' own domains (`api.segment.io`…) and those a
    ///     registered decoder of your own claims (`DecoderRegistry`). Name your own collector here.
    ///   - notices: where what the replay tells goes (a miss, analytics recorded); by default
    ///     stderr, as `tracksnap serve` prints it.
    ///   - filePath: the test file, which a relative `path` is relative to.
    /// - Throws: `InputError` for a cassette that cannot be read, `RecordModeError` for a bad
    ///   `TRACKSNAP_RECORD`.
    public static func replay(
        cassette path: String, matching: CassetteMatching? = nil, record: RecordMode? = nil,
        analytics: (@Sendable (CapturedRequest) -> Bool)? = nil,
        notices: @escaping @Sendable (String) -> Void = CassettePlayer.printNotice,
        filePath: StaticString = #filePath
    ) throws -> CaptureMode {
        let mode = try RecordMode.resolve(
            explicit: record, configured: TracksnapConfiguration.current.record,
            environment: ProcessInfo.processInfo.environment)
        let file = SnapshotLocation.resolve(path, testFile: String(describing: filePath))
        let decoders = Extensions.registered.decoders
        return try CassettePlayer(path: file, mode: mode, matching: matching).captureMode(
            local: analytics ?? { request in
                VendorDomains.contains(request.host)
                    || decoders.contains { decoder in
                        if case .unclaimed = decoder.decode(request) { return false }
                        return true
                    }
            }, notices: notices)
    }
}

extension CassettePlayer {
    /// The capture mode that answers from this cassette in-process, recording what the mode
    /// lets it; requests `local` claims (the analytics, checked by snapshots) get `localAnswer`.
    /// A miss is told to `notices` as it is answered; so is, once per host, a request recorded
    /// that `local` left to the network but that looks like analytics (`AnalyticsLook`).
    ///
    /// ```swift
    /// let player = try CassettePlayer(path: "Cassettes/checkout.json", mode: .missing)
    /// let capture = CaptureSession.install(on: configuration, mode: player.captureMode { $0.host == "api.segment.io" })
    /// ```
    public func captureMode(
        local: @escaping @Sendable (CapturedRequest) -> Bool = { _ in false },
        localAnswer: CaptureResponse = CaptureResponse(
            status: CollectorAnswer.status, headers: ["Content-Type": CollectorAnswer.contentType],
            body: Data(CollectorAnswer.body.utf8)),
        notices: @escaping @Sendable (String) -> Void = CassettePlayer.printNotice
    ) -> CaptureMode {
        let warned = Mutex<Set<String>>([])
        return .answer(
            { request in
                if local(request) { return .respond(localAnswer) }
                switch self.answer(for: request) {
                case .replay(let response): return .respond(CaptureResponse(response))
                case .miss(let miss):
                    notices(miss.description)
                    return .respond(CaptureResponse(miss.response))
                case .forward:
                    if let why = AnalyticsLook.reason(for: request),
                        warned.withLock({ $0.insert(request.hostAndPort).inserted })
                    {
                        notices(self.analyticsRecorded(request, because: why))
                    }
                    return .forward { response in self.record(request, response: Interaction.Response(response)) }
                }
            },
            problems: {
                // Asked when the test checks its capture: what was recorded is written first, so
                // that a cassette that cannot be written is among the problems.
                self.flush()
                return self.problems
            })
    }
}

extension CassettePlayer {
    /// Prints a replay's notice on stderr as `tracksnap serve` prints its own: each line made
    /// visible (`noticeText`), so that a URL the app sent can neither forge a line nor drive
    /// the terminal.
    @Sendable public static func printNotice(_ notice: String) {
        FileHandle.standardError.write(Data(noticeText(notice).utf8))
    }

    /// A notice as `printNotice` writes it: each line prefixed with `tracksnap: `.
    package static func noticeText(_ notice: String) -> String {
        notice.split(separator: "\n", omittingEmptySubsequences: false).map {
            "tracksnap: " + VisibleText.inline(String($0)) + "\n"
        }.joined()
    }

    /// What a recording tells when it sends a request that looks like analytics to the network.
    func analyticsRecorded(_ request: CapturedRequest, because why: String) -> String {
        """
        \(path): recording \(request.method) \(request.url) to the network and into the cassette, as the app's \
        backend, but it looks like analytics (\(why)); no decoder keeps it here. If it is analytics, \
        name it in .replay(cassette:analytics:) or register its decoder (DecoderRegistry), so that it is \
        answered here, captured and left out of the cassette; told once for \(request.hostAndPort)
        """
    }
}

extension CapturedRequest {
    /// `host:port`, or the host alone: what a notice told once per host names.
    fileprivate var hostAndPort: String { port.map { "\(host):\($0)" } ?? host }
}

extension CaptureResponse {
    /// A recorded answer as a capture serves it: decoded, as URLSession hands an app a body
    /// whatever its `Content-Encoding` (a URLProtocol's answer is not decoded for it), with
    /// `Content-Length` for the bytes served; see `Interaction.Response.served`.
    public init(_ response: Interaction.Response) {
        let (served, bytes) = response.served(acceptEncoding: nil)
        var headers: [String: String] = [:]
        for header in served {
            // A capture's headers are a dictionary (URLSession's are): a repeated header is
            // joined with commas, which HTTP allows for every header but Set-Cookie.
            headers[header.name] = headers[header.name].map { "\($0), \(header.value)" } ?? header.value
        }
        self.init(status: response.status, headers: headers, body: Data(bytes))
    }
}

extension Interaction.Response {
    /// What the network answered a capture, as a cassette records it.
    package init(_ response: CaptureResponse) {
        let headers = response.headers.keys.sorted().map {
            CapturedRequest.Header(name: $0, value: response.headers[$0] ?? "")
        }
        self.init(status: response.status, headers: headers, bytes: Array(response.body))
    }
}
