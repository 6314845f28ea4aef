import Synchronization
import TracksnapDecoders
public import TracksnapReplay
import TracksnapSnapshot
public import TracksnapTraffic
package import TracksnapValidation

/// Every request the server captured: a global list, one list per open session, the counters,
/// and the journal.
///
/// Safe to use from any thread: the state sits behind a `Mutex`; each session's requests sit
/// in a `RequestWaitList`, the wait list the in-process capture uses too, so that a task
/// waiting for requests is resumed by the arrivals, its settle time or its deadline, never by
/// polling. The journal is written after the store's lock is released.
///
/// ```swift
/// let store = try CaptureStore(maximumRequests: 10_000)
/// let session = store.startSession(name: "checkout")
/// let requests = await store.waitForRequests(inSession: session, count: 3, timeout: .seconds(5))
/// ```
public final class CaptureStore: Sendable {
    private struct SessionState {
        var name: String?
        var list: RequestWaitList
        /// `statistics.unattributed` when the session started.
        var unattributedAtStart: Int
        /// What answers the session's forwarded requests, if it was started with a cassette.
        var cassette: CassettePlayer?
    }

    /// The open session a request with this hint goes to now: the one it names, else the only
    /// one open; nil for none.
    package func session(receiving hint: String?) -> String? {
        state.withLock { $0.session(receiving: hint) }
    }

    private struct State {
        var nextRequest: UInt64 = 1
        var nextSession = 1
        var global: RequestLog
        var sessions: [String: SessionState] = [:]
        /// Session ids in the order they were opened, for stable listings.
        var sessionOrder: [String] = []
        var statistics = HealthAnswer()
        var closed = false
        /// The distinct secrets the latest requests carried, oldest first (`secretsRemembered`),
        /// and the same as a set, which every log line's redactor shares.
        var recentSecrets: [String] = []
        var recentSecretSet: Set<String> = []
        /// A redactor of `recentSecretSet`, made again only when the set changes: what each log
        /// line's redactor is, handed out without copying or filtering the set per request.
        var recentRedactor = Redactor(secrets: [])
        /// What is observed of the latest requests read, each part found once (`observation(of:)`), by id.
        var observed = RecentByID<Observation>()
        /// The readers of what is recorded from now on (`follow`), told under the lock so that
        /// each gets the requests in the ids' order.
        var followers: [RequestFollower] = []
        /// What the server answered the latest requests (`answered`), by id.
        var answers = RecentByID<CapturedAnswer>()
        /// The bytes the kept answers hold (`CapturedAnswer.size`).
        var answerBytes = 0
        /// Whether the followers were told that answers were forgotten for their bytes.
        var toldAnswersForgotten = false

        /// Tells every follower still reading, and forgets the others.
        mutating func tell(_ item: RequestFollower.Item) {
            followers.removeAll { $0.hasEnded }
            for follower in followers { follower.offer(item) }
        }

        func session(receiving hint: String?) -> String? {
            guard let hint else { return sessionOrder.count == 1 ? sessionOrder[0] : nil }
            return sessions[hint] == nil ? nil : hint
        }

        /// Remembers the secrets one request carried, forgetting the oldest beyond `secretsRemembered`.
        mutating func remember(_ secrets: Set<String>) {
            guard !secrets.isSubset(of: recentSecretSet) else { return }
            defer { recentRedactor = Redactor(secrets: recentSecretSet) }
            for secret in secrets.sorted() where recentSecretSet.insert(secret).inserted {
                recentSecrets.append(secret)
            }
            let excess = recentSecrets.count - CaptureStore.secretsRemembered
            guard excess > 0 else { return }
            for secret in recentSecrets[..<excess] { recentSecretSet.remove(secret) }
            recentSecrets.removeFirst(excess)
        }

        /// What is observed of a request, kept for the latest `observedKept` requests read.
        mutating func observation(of id: String) -> Observation {
            if let observation = observed[id] { return observation }
            let observation = Observation()
            observed.keep(observation, for: id)
            if observed.count > CaptureStore.observedKept { observed.removeOldest() }
            return observation
        }
    }

    private let state: Mutex<State>
    private let journal: Journal?
    /// Whether the latest requests' secrets are remembered (`redactor(remembering:)`).
    private let remembersSecrets: Bool
    /// The server's token, left out of every request recorded (`AccessToken.ownCredentialsRemoved`).
    private let token: AccessToken?

    /// The most requests each list keeps, or nil for no limit.
    public let maximumRequests: Int?
    /// The most answers kept for the inspector: those of the latest requests, as many as the
    /// list keeps (`maximumRequests`), never more than `answersKept`.
    package let answersKept: Int
    /// The most bytes the kept answers hold, all told (`answerBytesKept`).
    package let answerBytesKept: Int

    /// - Parameters:
    ///   - maximumRequests: the most requests the global list and each session keep; older
    ///     ones are dropped and counted. Nil keeps everything.
    ///   - journalPath: an NDJSON file every request is appended to as it arrives, its secrets
    ///     hidden as the control API hides them.
    ///   - journalKeepsSecrets: write the journal's requests as captured, secrets and all.
    ///   - token: the server's `--token`. The proxy's own credentials are never recorded, in
    ///     memory or in the journal, raw or not: every `Proxy-Authorization` header, and an
    ///     `Authorization` header that carries this token, are left out of each request.
    ///   - logsRequests: each request is logged (`requestLog`): its secrets are remembered for
    ///     the log's lines as for the journal's.
    ///   - answerBytes: the most bytes the answers kept for the inspector hold, all told; the
    ///     oldest are forgotten first.
    /// - Throws: `CaptureServerError` when the journal cannot be opened (see `Journal`).
    package init(
        maximumRequests: Int? = nil, journalPath: String? = nil, journalKeepsSecrets: Bool = false,
        token: String? = nil, logsRequests: Bool = false, answerBytes: Int = CaptureStore.answerBytesKept
    ) throws(CaptureServerError) {
        self.maximumRequests = maximumRequests
        answersKept = min(maximumRequests ?? Self.answersKept, Self.answersKept)
        answerBytesKept = answerBytes
        // Only what writes requests out needs the latest requests' secrets.
        remembersSecrets = (journalPath != nil && !journalKeepsSecrets) || logsRequests
        self.token = token.map(AccessToken.init)
        if let journalPath {
            journal = try Journal(path: journalPath, keepsSecrets: journalKeepsSecrets)
        } else {
            journal = nil
        }
        state = Mutex(State(global: RequestLog(limit: maximumRequests)))
    }

    // MARK: Recording

    /// Records a request, giving it the next id, the current time and its session.
    ///
    /// ```swift
    /// store.record(method: "GET", url: "http://collect.example/e?ev=view", sessionHint: nil)
    /// ```
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - url: the absolute URL, query included.
    ///   - headers: the headers in the order sent.
    ///   - body: the body, content encoding undone.
    ///   - sessionHint: the session the request names (header or base URL). A named session
    ///     that is not open gets nothing; with no name, the only open session gets it. A
    ///     request that no session gets while one is open is counted as unattributed.
    ///   - serverOrigin: the server's own origin in `url`, when it received the request as a
    ///     collector or reverse proxy (`CapturedRequest.serverOrigin`).
    /// - Returns: the request as stored.
    @discardableResult
    package func record(
        method: String, url: String, headers: [CapturedRequest.Header] = [], body: CapturedRequest.Body? = nil,
        sessionHint: String?, serverOrigin: String? = nil
    ) -> CapturedRequest {
        recordAttributed(
            method: method, url: url, headers: headers, body: body, sessionHint: sessionHint, serverOrigin: serverOrigin
        ).request
    }

    /// Records a request as `record` does, and tells which session got it. A request `refused`
    /// (its body inflates beyond the limit) is recorded without a body, and counted as rejected;
    /// one with a `replayMiss` was one a cassette had no answer for; one `ingested` came through
    /// the control API.
    package func recordAttributed(
        method: String, url: String, headers: [CapturedRequest.Header] = [], body: CapturedRequest.Body? = nil,
        sessionHint: String?, serverOrigin: String? = nil, refused: String? = nil, replayMiss: String? = nil,
        ingested: Bool = false
    ) -> (request: CapturedRequest, attribution: Attribution) {
        let time = Timestamp.now()
        let headers = AccessToken.ownCredentialsRemoved(from: headers, token: token)
        let recorded = state.withLock { state -> (CapturedRequest, Attribution) in
            let id = state.nextRequest
            state.nextRequest += 1
            let session = state.session(receiving: sessionHint)
            let request = CapturedRequest(
                id: String(id), time: time, method: method, url: url, headers: headers,
                body: refused == nil ? body : nil,
                session: session, serverOrigin: serverOrigin, refused: refused, replayMiss: replayMiss,
                ingested: ingested)
            state.tell(.request(request))
            state.statistics.captured += 1
            if refused != nil { state.statistics.rejected += 1 }
            if state.global.append(request) { state.statistics.dropped += 1 }
            if let session {
                // Appended under the store's lock, so that a session's order is the ids' order.
                state.sessions[session]?.list.append(request)
                return (request, .session(session))
            }
            if state.sessionOrder.isEmpty { return (request, .noSession) }
            state.statistics.unattributed += 1
            return (request, .unattributed(openSessions: state.sessionOrder.count, hint: sessionHint))
        }
        // Remembered for the log's lines even without a journal. A raw journal, the one case
        // with a journal and nothing remembered, writes no redaction.
        if remembersSecrets {
            let redactor = redactor(remembering: recorded.0)
            journal?.append(recorded.0, redactedBy: redactor)
        } else {
            journal?.append(recorded.0, redactedBy: Redactor(secrets: []))
        }
        return recorded
    }

    /// How many distinct secrets the store remembers from the latest requests, so that the
    /// journal and the log hide a secret one request sent when a later one copies it (a token
    /// the login answered, sent back in a URL's path), as the control API's answers do.
    static let secretsRemembered = 256

    /// A redactor for what one request's record writes (the journal, the log): its own
    /// secrets, and those the latest requests carried, which it now remembers too.
    package func redactor(remembering request: CapturedRequest) -> Redactor {
        let own = carriedSecrets(of: request)
        return state.withLock { state in
            state.remember(own)
            // Its own secrets are among those remembered unless more than `secretsRemembered` came at once.
            return own.isSubset(of: state.recentSecretSet)
                ? state.recentRedactor : Redactor(secrets: state.recentSecretSet.union(own))
        }
    }

    /// A redactor with the secrets the latest requests carried: the one the store keeps, not a
    /// copy of the set per call.
    package var recentRedactor: Redactor { state.withLock { $0.recentRedactor } }

    /// How many requests' observations the store keeps (`observation(of:)`): those of the latest
    /// requests read; an older one is observed again if asked for.
    static let observedKept = 10_000

    /// What is observed of a request the store recorded (`Observation`): each part found the
    /// first time anything asks (the log, the journal, a stream, a wait, an answer of the
    /// control API) and kept for the others.
    func observation(of request: CapturedRequest) -> Observation {
        state.withLock { $0.observation(of: request.id) }
    }

    /// What a check's decoders make of the requests the store recorded, kept in each request's
    /// observation (`Observation.decodes`), which its inspectors read too: for a validate call's
    /// wait and validation (`PreparedCheck.observingDecodes(in:)`), so that a decoder decodes a
    /// request once whoever asks first.
    func decodes() -> DecodeCache {
        DecodeCache { [self] request in observation(of: request).decodes }
    }

    /// The events every built-in decoder reads from a request the store recorded, decoded once
    /// however many ask (`Observation.decoded`): what an events wait counts.
    package func observedEvents(of request: CapturedRequest) -> Int {
        observation(of: request).eventCount(of: request)
    }

    /// The secrets a request the store recorded carries (`CapturedRequest.carriedSecrets`),
    /// searched the first time anything asks (the log, the journal, a stream, an answer of the
    /// control API) and kept for the others: one search a request, however many read it.
    package func carriedSecrets(of request: CapturedRequest) -> Set<String> {
        observation(of: request).secrets(of: request)
    }

    /// The secrets these requests, which the store recorded, carry, each searched once.
    package func carriedSecrets(of requests: [CapturedRequest]) -> Set<String> {
        let boxes = state.withLock { state in requests.map { state.observation(of: $0.id) } }
        var secrets: Set<String> = []
        for (request, box) in zip(requests, boxes) { secrets.formUnion(box.secrets(of: request)) }
        return secrets
    }

    /// A redactor for an answer that holds these requests, which the store recorded: it knows
    /// every secret and every piece of personal data they carry, each request searched once
    /// (as `Redactor(requests:)` searches them).
    package func redactor(for requests: [CapturedRequest]) -> Redactor {
        let boxes = state.withLock { state in requests.map { state.observation(of: $0.id) } }
        var secrets: Set<String> = []
        var personalData: [String: String] = [:]
        for (request, box) in zip(requests, boxes) {
            secrets.formUnion(box.secrets(of: request))
            personalData.merge(box.personalData(of: request)) { $1 }
        }
        return Redactor(secrets: secrets, personalData: personalData)
    }

    /// Counts a request refused, unrecorded, because its body as sent is over the limit.
    package func countRejected() {
        state.withLock { $0.statistics.rejected += 1 }
    }

    package func countInterceptFailure() {
        state.withLock { $0.statistics.interceptFailures += 1 }
    }

    // MARK: Reading

    /// Everything captured and still held, oldest first.
    public func requests() -> [CapturedRequest] {
        state.withLock { $0.global.all }
    }

    /// A session's requests, or nil when no such session is open.
    public func requests(inSession id: String) -> [CapturedRequest]? {
        list(of: id)?.requests
    }

    /// How many requests reached no session since this one started (see
    /// `HealthAnswer.unattributed`), or nil when no such session is open.
    ///
    /// A test whose session waits in vain for traffic learns from it that the traffic came,
    /// without a session hint, while other sessions were open.
    public func unattributed(sinceSessionStarted id: String) -> Int? {
        state.withLock { state in
            state.sessions[id].map { state.statistics.unattributed - $0.unattributedAtStart }
        }
    }

    /// The counters, as `GET /__tracksnap/health` reports them.
    public var statistics: HealthAnswer {
        state.withLock { state in
            var statistics = state.statistics
            statistics.sessions = state.sessions.count
            statistics.stored = state.global.count
            return statistics
        }
    }

    /// The open sessions, in the order they were started.
    public var sessions: [SessionAnswer] {
        state.withLock { state in
            state.sessionOrder.map {
                SessionAnswer(
                    id: $0, name: state.sessions[$0]?.name, recordMode: state.sessions[$0]?.cassette?.mode.rawValue)
            }
        }
    }

    // MARK: Sessions

    /// Opens a session and returns its id (`s1`, `s2`, …: never reused while the server runs).
    ///
    /// - Parameters:
    ///   - name: how listings name it.
    ///   - cassette: what answers the requests it gets that would be forwarded, instead of the
    ///     server's own cassette or the network.
    public func startSession(name: String? = nil, cassette: CassettePlayer? = nil) -> String {
        state.withLock { state in
            let id = "s\(state.nextSession)"
            state.nextSession += 1
            let list = RequestWaitList(limit: maximumRequests)
            if state.closed { list.endWaiting() }
            state.sessions[id] = SessionState(
                name: name, list: list, unattributedAtStart: state.statistics.unattributed, cassette: cassette)
            state.sessionOrder.append(id)
            return id
        }
    }

    /// The cassette an open session was started with.
    package func cassette(ofSession id: String) -> CassettePlayer? {
        state.withLock { $0.sessions[id]?.cassette }
    }

    /// Ends a session and returns its requests, or nil when no such session is open. Tasks
    /// waiting on it get what it holds.
    public func endSession(_ id: String) -> [CapturedRequest]? {
        let session = state.withLock { state -> SessionState? in
            guard let session = state.sessions.removeValue(forKey: id) else { return nil }
            state.sessionOrder.removeAll { $0 == id }
            return session
        }
        guard let session else { return nil }
        session.list.endWaiting()
        session.cassette?.flush()
        return session.list.requests
    }

    /// Waits until a session holds at least `count` requests, or until `timeout` has passed.
    ///
    /// ```swift
    /// let events = await store.waitForRequests(inSession: id, count: 2, timeout: .seconds(10))
    /// ```
    /// - Parameters:
    ///   - id: the session.
    ///   - count: how many requests to wait for.
    ///   - settle: return once the session's traffic has been quiet this long, after at least
    ///     one request; nil waits for the count or the timeout.
    ///   - timeout: the longest wait.
    /// - Returns: the session's requests when the count is reached, when traffic settles, at
    ///   the deadline, when the session ends or the task is cancelled; nil when no such session is open.
    public func waitForRequests(
        inSession id: String, count: Int, settle: Duration? = nil, timeout: Duration
    ) async -> [CapturedRequest]? {
        await wait(inSession: id, settle: settle, timeout: timeout) { $0.count >= count }?.requests
    }

    /// Waits until `isComplete` holds for a session's requests, or its traffic has been quiet
    /// for `settle`, or `timeout` has passed (see `RequestWaitList.wait`); nil when no such
    /// session is open.
    package func wait(
        inSession id: String, settle: Duration?, timeout: Duration, until isComplete: ([CapturedRequest]) -> Bool
    ) async -> RequestWaitList.Outcome? {
        guard let list = list(of: id) else { return nil }
        return await list.wait(settle: settle, timeout: timeout, until: isComplete)
    }

    /// The most answers kept (`answered`): those of the latest requests.
    static let answersKept = 10_000

    /// The most bytes the answers kept hold, all told: 64 MiB, 256 answers cut at
    /// `CapturedAnswer.bodyLimit`.
    package static let answerBytesKept = 64 * 1024 * 1024

    /// Keeps what the server answered a recorded request, for the inspector, and tells the
    /// followers. Only the answers of the latest requests are kept: at most `answersKept` of
    /// them (`--max-requests`, never more than 10,000), holding at most `answerBytesKept`
    /// bytes; the oldest are forgotten first. The first time the bytes make the store forget
    /// the answer of a request it still holds, the followers are told (`answersForgotten`).
    package func answered(_ id: String, _ answer: CapturedAnswer) {
        state.withLock { state in
            if let old = state.answers.keep(answer, for: id) { state.answerBytes -= old.size }
            state.answerBytes += answer.size
            var forgotForBytes = false
            while state.answers.count > answersKept || (state.answerBytes > answerBytesKept && state.answers.count > 1)
            {
                forgotForBytes = forgotForBytes || state.answers.count <= answersKept
                state.answerBytes -= state.answers.removeOldest()?.size ?? 0
            }
            state.tell(.answer(id: id, answer))
            if forgotForBytes && !state.toldAnswersForgotten {
                state.toldAnswersForgotten = true
                state.tell(.answersForgotten(bytes: answerBytesKept))
            }
        }
    }

    /// How many answers the store keeps now, and the bytes they hold.
    package var answersHeld: (count: Int, bytes: Int) {
        state.withLock { ($0.answers.count, $0.answerBytes) }
    }

    /// A reader of everything captured: what the store holds now, then each request as it is
    /// recorded, with no request missed or given twice in between (`RequestFollower`).
    ///
    /// - Parameter limit: the most items that may wait for the reader; one further ends it.
    package func follow(buffering limit: Int) -> RequestFollower {
        state.withLock { state in
            let backlog = state.global.all
            var answers: [String: CapturedAnswer] = [:]
            for request in backlog { answers[request.id] = state.answers[request.id] }
            let follower = RequestFollower(backlog: backlog, answers: answers, limit: limit)
            if state.closed {
                follower.finish()
            } else {
                state.followers.removeAll { $0.hasEnded }
                state.followers.append(follower)
            }
            return follower
        }
    }

    private func list(of id: String) -> RequestWaitList? {
        state.withLock { $0.sessions[id]?.list }
    }

    // MARK: Housekeeping

    /// Forgets every captured request, in the global list and in every session; sessions stay
    /// open and the counters keep counting.
    public func reset() {
        state.withLock { state in
            state.global.removeAll()
            for id in state.sessionOrder { state.sessions[id]?.list.removeAll() }
            state.answers.removeAll()
            state.answerBytes = 0
            state.toldAnswersForgotten = false
            state.observed.removeAll()
            state.tell(.reset)
        }
    }

    /// Answers every waiting task and closes the journal; requests recorded afterwards stay in
    /// memory only.
    package func close() {
        let sessions = state.withLock { state -> [SessionState] in
            state.closed = true
            for follower in state.followers { follower.finish() }
            state.followers = []
            return Array(state.sessions.values)
        }
        for session in sessions {
            session.list.endWaiting()
            session.cassette?.flush()
        }
        journal?.close()
    }
}

extension CaptureStore {
    /// Which session a recorded request went to, and if none, why.
    package enum Attribution: Sendable, Hashable {
        /// The session named by the request, or the only one open.
        case session(String)
        /// No session was open: the request is only in the global list, as expected.
        case noSession
        /// Sessions were open but none got it: it named none while several were open, or
        /// named `hint`, which is not open.
        case unattributed(openSessions: Int, hint: String?)
    }
}
