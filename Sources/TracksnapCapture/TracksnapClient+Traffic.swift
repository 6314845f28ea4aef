public import TracksnapTraffic

extension TracksnapClient {
    /// What a session's wait returned (`Session.waitForTraffic`).
    ///
    /// ```swift
    /// let traffic = try await session.waitForTraffic(count: 3)
    /// traffic.requests.count   // 3
    /// traffic.unattributed     // 0: nothing went astray
    /// ```
    public struct Traffic: Sendable {
        static let unattributedHeader = "X-Tracksnap-Unattributed"
        static let waitHeader = "X-Tracksnap-Wait"

        /// The session's requests.
        public var requests: [CapturedRequest]
        /// Requests the server captured since the session started that no session got: sent
        /// without a session hint while several sessions were open, or naming a session not
        /// open. Not zero means some of the app's traffic is probably missing here.
        public var unattributed: Int
        /// Why the server's wait ended: `complete`, `settled`, `timed_out`, `ended` or
        /// `cancelled`; nil from a server that does not say.
        public var reason: String?

        package init(requests: [CapturedRequest], unattributed: Int = 0, reason: String? = nil) {
            self.requests = requests
            self.unattributed = unattributed
            self.reason = reason
        }
    }
}
