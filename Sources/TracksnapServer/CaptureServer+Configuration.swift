import Foundation
import TracksnapCore

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
        /// An NDJSON file every captured request is appended to as it arrives.
        public var journalPath: String?
        /// The most requests kept in memory per list (oldest dropped and counted); nil: no limit.
        public var maximumRequests: Int?
        /// Bodies larger than this, in bytes, get 413 and are not recorded. Default 16 MiB.
        public var maximumBodySize: Int
        /// When set, the control API demands `Authorization: Bearer TOKEN`.
        public var token: String?
        /// What the collector answers to captured traffic: by default 200 with `{}`.
        public var collectorResponse: CollectorResponse
        /// Where `validate` looks up profile names given without a path.
        public var validatorsDirectory: String
        /// The directory every path the control API takes (`snapshot`, a `validator` file and
        /// the files it `extends`) must lie in, after symlinks are followed; a path outside is
        /// refused with 400 before it is read. Nil: the working directory.
        public var root: String?
        /// Called once for each captured request, when its answer is known (`tracksnap serve`
        /// prints these lines on stderr). Called from the server's threads; keep it quick.
        public var requestLog: (@Sendable (RequestLogLine) -> Void)?

        public init(
            host: String = "127.0.0.1", port: Int = 0, upstream: URL? = nil, journalPath: String? = nil,
            maximumRequests: Int? = nil, maximumBodySize: Int = 16 * 1024 * 1024, token: String? = nil,
            collectorResponse: CollectorResponse = CollectorResponse(), validatorsDirectory: String = "Validators",
            root: String? = nil, requestLog: (@Sendable (RequestLogLine) -> Void)? = nil
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
        }

        /// Whether `host` is a loopback address, which may be bound without a token.
        ///
        /// ```swift
        /// CaptureServer.Configuration.isLoopback("127.0.0.1")  // true
        /// CaptureServer.Configuration.isLoopback("0.0.0.0")    // false
        /// ```
        public static func isLoopback(_ host: String) -> Bool {
            let lowered = host.lowercased()
            return lowered == "localhost" || lowered == "::1" || lowered == "[::1]" || lowered.hasPrefix("127.")
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
            status: Int = CollectorAnswer.status, contentType: String? = CollectorAnswer.contentType, body: String = CollectorAnswer.body
        ) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }
}
