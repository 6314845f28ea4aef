public import Foundation
public import TracksnapReplay
import TracksnapSnapshot
public import TracksnapTraffic
public import TracksnapValidation

extension CaptureServer {
    /// How a capture server listens, answers and records.
    ///
    /// ```swift
    /// var configuration = CaptureServer.Configuration()
    /// configuration.upstream = URL(string: "http://127.0.0.1:8080")
    /// configuration.maximumRequests = 10_000
    /// ```
    public struct Configuration: Sendable {
        /// The address to bind: loopback by default. Any other needs a `token`.
        public var host: String
        /// The port; 0 picks a free one (`start()` returns it).
        public var port: Int
        /// Reverse proxy: requests are forwarded here instead of answered by the collector.
        public var upstream: URL?
        /// An NDJSON file every captured request is appended to as it arrives, as the control
        /// API answers it: its credentials (`Authorization`, write keys, tokens) `[redacted]`.
        /// Created `0600`; a symbolic link, or a file that is not regular or belongs to another
        /// user, is refused (`Journal`).
        public var journalPath: String?
        /// Write the journal's requests as captured, secrets and all (`serve --journal-raw`).
        public var journalKeepsSecrets = false
        /// The most requests kept in memory per list (oldest dropped and counted); nil: no limit.
        public var maximumRequests: Int?
        /// The most a body may be, in bytes, as sent and as inflated, every layer counted
        /// together (`BodyDecoder`); beyond it the client gets 413. A body sent larger is not
        /// recorded; one that inflates beyond it is recorded as refused, without its body.
        /// Also the largest answer the proxies pass back from an upstream, which they buffer
        /// whole: a larger one is 502. Default 16 MiB.
        public var maximumBodySize: Int
        /// When set, the control API demands `Authorization: Bearer TOKEN`; bound beyond
        /// loopback, the forward proxy demands it too, in `Proxy-Authorization`. Compared in
        /// constant time; never recorded (`CaptureStore`).
        public var token: String?
        /// Names besides the server's own address that a control API request's `Host` may
        /// name (`serve --allow-host`): `name` with any port, or `name:port`.
        public var allowedHosts: [String]
        /// What the collector answers to captured traffic: by default 200 with `{}`.
        public var collectorResponse: CollectorResponse
        /// Where `validate` and `record` look up profile names given without a path; nil: the
        /// nearest `Validators` beside the snapshot or above it, within the root, else the
        /// root's (`Workspace.checking(_:)`).
        public var validatorsDirectory: String?
        /// The directory every path the control API takes (`snapshot`, a `validator` file and
        /// the files it `extends`) must lie in, after symlinks are followed; a path outside is
        /// refused with 400 before it is read. Nil: the working directory.
        public var root: String?
        /// The filters, validators and decoders of your own that the profiles the control API
        /// validates with may name. Nil: those registered (`FilterRegistry`, `ValidatorRegistry`,
        /// `DecoderRegistry`) when the server starts.
        public var extensions: Extensions?
        /// Called once for each captured request, when its answer is known (`tracksnap serve`
        /// prints these lines on stderr). Called from the server's threads; keep it quick.
        public var requestLog: (@Sendable (RequestLogLine) -> Void)?
        /// How long a client has, from the first byte of a request, to send its whole head
        /// (request line and headers); then it is answered 408 and the connection closed.
        /// Also how long an intercepted tunnel has to finish its TLS handshake, and an idle
        /// HTTP/2 client to let its connection go once told to (`GOAWAY`). Default 10 s.
        public var headerTimeout: Duration = .seconds(10)
        /// How long a connection may send nothing between requests (an HTTP/2 one: have no
        /// stream open) before it is closed, and a request's body may stall before it is
        /// answered 408 and its connection (or HTTP/2 stream) closed. The time the server
        /// takes to answer (a control API wait) does not count. Default 60 s.
        public var idleTimeout: Duration = .seconds(60)
        /// The `CONNECT` tunnels to decrypt (`serve --intercept`), and what to do with their
        /// requests; nil: every tunnel is relayed untouched. Needs `certificateAuthority`.
        public var interception: Interception?
        /// The authority that signs the certificates intercepted tunnels are answered with.
        public var certificateAuthority: CertificateAuthority?
        /// PEM files of certificates trusted, besides the system's roots, when an intercepted
        /// request is forwarded to its host (`serve --upstream-ca`).
        public var upstreamCertificateFiles: [String] = []
        /// Called with a line for each problem worth telling the person running the server
        /// that is not a captured request: an intercepted tunnel whose handshake failed, that
        /// spoke neither TLS nor HTTP, or closed mid-request. `tracksnap serve` prints these on stderr.
        /// A line may hold what a client sent (a TLS server name), control characters included:
        /// make them visible before printing, as `RequestLogLine` does.
        public var notices: (@Sendable (String) -> Void)?
        /// The cassette that answers what would be forwarded (reverse proxy, forward proxy,
        /// intercepted tunnels), recording what its mode lets it (`serve --cassette`); nil: all
        /// of it goes to the network. What the collector answers stays out of it. A miss is
        /// answered 599 with the miss as JSON, and told through `notices`.
        public var replay: CassettePlayer?
        /// How a session's cassette records when its start names no `recordMode`: `serve` sets it
        /// once, from the environment by `RecordMode.resolve` (`TRACKSNAP_RECORD`, else `never` in
        /// CI, else `missing`), so that a bad `TRACKSNAP_RECORD` stops `serve` before anything
        /// starts. nil: `RecordMode.resolve` reads this process's environment when such a session
        /// starts, and a bad value refuses the start (400 naming the variable).
        public var cassetteRecordMode: RecordMode?
        /// Tests only: behave as if bound beyond loopback (the proxy demands the token), so
        /// that the check can be shown without listening beyond loopback.
        package var simulatesPublicBinding = false
        /// Tests only: treat every client as remote, as if it were not on loopback, so that
        /// the checks for remote clients can be shown without traffic beyond loopback.
        package var simulatesRemoteClients = false

        public init(
            host: String = "127.0.0.1", port: Int = 0, upstream: URL? = nil, journalPath: String? = nil,
            maximumRequests: Int? = nil, maximumBodySize: Int = 16 * 1024 * 1024, token: String? = nil,
            collectorResponse: CollectorResponse = CollectorResponse(), validatorsDirectory: String? = nil,
            root: String? = nil, requestLog: (@Sendable (RequestLogLine) -> Void)? = nil, allowedHosts: [String] = []
        ) {
            self.host = host
            self.port = port
            self.upstream = upstream
            self.journalPath = journalPath
            self.maximumRequests = maximumRequests
            self.maximumBodySize = maximumBodySize
            self.token = token
            self.collectorResponse = collectorResponse
            self.validatorsDirectory = validatorsDirectory
            self.root = root
            self.requestLog = requestLog
            self.allowedHosts = allowedHosts
        }

        /// Whether `host` is a loopback address, which may be bound without a token: an IP
        /// literal in 127.0.0.0/8, `::1`, or `localhost`. Decided from the parsed address, not
        /// the text: `127.evil.example` is a name that may resolve anywhere.
        ///
        /// ```swift
        /// CaptureServer.Configuration.isLoopback("127.0.0.1")         // true
        /// CaptureServer.Configuration.isLoopback("0.0.0.0")           // false
        /// CaptureServer.Configuration.isLoopback("127.evil.example")  // false
        /// ```
        package static func isLoopback(_ host: String) -> Bool {
            Loopback.names(host)
        }

        /// Whether the server may serve, at its own origin or through itself, content it did
        /// not write: the reverse proxy's `upstream`, a cassette's answers (`replay`), or
        /// intercepted tunnels. A page among that content shares the control API's origin, so
        /// the control API asks a browser for a token (`CaptureServer.browserToken`).
        package var servesOthersContent: Bool {
            upstream != nil || replay != nil || interception != nil
        }

        /// Whether the forward proxy demands the token: bound beyond loopback with a token.
        var proxyNeedsToken: Bool {
            token != nil && (!Self.isLoopback(host) || simulatesPublicBinding)
        }
    }

    /// The collector's answer to every captured request.
    ///
    /// ```swift
    /// CollectorResponse(status: 204, contentType: nil, body: "")
    /// ```
    public struct CollectorResponse: Sendable, Hashable {
        public var status: Int
        public var contentType: String?
        public var body: String

        public init(
            status: Int = CollectorAnswer.status, contentType: String? = CollectorAnswer.contentType,
            body: String = CollectorAnswer.body
        ) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }
}
