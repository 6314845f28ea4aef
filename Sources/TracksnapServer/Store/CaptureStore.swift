import Synchronization
import TracksnapCore

/// Every request the server captured: a global list, one list per open session, the counters,
/// and the journal.
///
/// Safe to use from any thread: the state sits behind a `Mutex`, and a task waiting for
/// requests is resumed by the `record` that completes its count (or by its deadline), never by
/// polling.
///
/// ```swift
/// let store = try CaptureStore(maximumRequests: 10_000)
/// let session = store.startSession(name: "checkout")
/// let requests = await store.waitForRequests(inSession: session, count: 3, timeout: .seconds(5))
/// ```
public final class CaptureStore: Sendable {
    private struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<[CapturedRequest]?, Never>
        var timer: Task<Void, Never>?
    }

    private struct SessionState {
        var name: String?
        var log: RequestLog
        var waiters: [UInt64: Waiter] = [:]

        /// Records a request; returns the waiters its arrival satisfies, removed from the session.
        mutating func append(_ request: CapturedRequest) -> Wakeups {
            log.append(request)
            let due = waiters.filter { $0.value.count <= log.count }
            guard !due.isEmpty else { return [] }
            let requests = log.all
            return due.map { key, waiter in
                waiters[key] = nil
                return (waiter.continuation, requests, waiter.timer)
            }
        }
    }

    private struct State {
        var nextRequest: UInt64 = 1
        var nextSession = 1
        var nextWaiter: UInt64 = 1
        var global: RequestLog
        var sessions: [String: SessionState] = [:]
        /// Session ids in the order they were opened, for stable listings.
        var sessionOrder: [String] = []
        var statistics = CaptureStatistics()
        var journal: Journal?
        var closed = false
    }

    /// Waiters to resume once the lock is released: resuming inside it could run their
    /// continuation's code while the store is still locked.
    private typealias Wakeups = [(CheckedContinuation<[CapturedRequest]?, Never>, [CapturedRequest]?, Task<Void, Never>?)]

    private let state: Mutex<State>

    /// The most requests each list keeps, or nil for no limit.
    public let maximumRequests: Int?

    /// - Parameters:
    ///   - maximumRequests: the most requests the global list and each session keep; older
    ///     ones are dropped and counted. Nil keeps everything.
    ///   - journalPath: an NDJSON file every request is appended to as it arrives.
    /// - Throws: `CaptureServerError` when the journal cannot be opened.
    public init(maximumRequests: Int? = nil, journalPath: String? = nil) throws(CaptureServerError) {
        self.maximumRequests = maximumRequests
        var initial = State(global: RequestLog(limit: maximumRequests))
        if let journalPath { initial.journal = try Journal(path: journalPath) }
        state = Mutex(initial)
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
    ///     that is not open gets nothing; with no name, the only open session gets it.
    ///   - serverOrigin: the server's own origin in `url`, when it received the request as a
    ///     collector or reverse proxy (`CapturedRequest.serverOrigin`).
    /// - Returns: the request as stored.
    @discardableResult
    public func record(
        method: String, url: String, headers: [CapturedRequest.Header] = [], body: CapturedRequest.Body? = nil,
        sessionHint: String?, serverOrigin: String? = nil
    ) -> CapturedRequest {
        let time = Timestamp.now()
        var wakeups: Wakeups = []
        let request = state.withLock { state -> CapturedRequest in
            let id = state.nextRequest
            state.nextRequest += 1
            let session: String?
            if let sessionHint {
                session = state.sessions[sessionHint] == nil ? nil : sessionHint
            } else {
                session = state.sessionOrder.count == 1 ? state.sessionOrder[0] : nil
            }
            let request = CapturedRequest(
                id: String(id), time: time, method: method, url: url, headers: headers, body: body, session: session,
                serverOrigin: serverOrigin)
            state.statistics.captured += 1
            if state.global.append(request) { state.statistics.dropped += 1 }
            state.journal?.append(request)
            // Mutated in place: a copy taken out of the dictionary would share the log's buffer
            // and copy the whole log on every append.
            if let session { wakeups = state.sessions[session]?.append(request) ?? [] }
            return request
        }
        Self.resume(wakeups)
        return request
    }

    /// Counts a request refused for its size.
    package func countRejected() {
        state.withLock { $0.statistics.rejected += 1 }
    }

    // MARK: Reading

    /// Everything captured and still held, oldest first.
    public func requests() -> [CapturedRequest] {
        state.withLock { $0.global.all }
    }

    /// A session's requests, or nil when no such session is open.
    public func requests(inSession id: String) -> [CapturedRequest]? {
        state.withLock { $0.sessions[id]?.log.all }
    }

    /// The counters, as `GET /__tracksnap/health` reports them.
    public var statistics: CaptureStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.sessions = state.sessions.count
            statistics.stored = state.global.count
            return statistics
        }
    }

    /// The open sessions, in the order they were started.
    public var sessions: [CaptureSession] {
        state.withLock { state in
            state.sessionOrder.map { CaptureSession(id: $0, name: state.sessions[$0]?.name) }
        }
    }

    // MARK: Sessions

    /// Opens a session and returns its id (`s1`, `s2`, …: never reused while the server runs).
    public func startSession(name: String? = nil) -> String {
        state.withLock { state in
            let id = "s\(state.nextSession)"
            state.nextSession += 1
            state.sessions[id] = SessionState(name: name, log: RequestLog(limit: maximumRequests))
            state.sessionOrder.append(id)
            return id
        }
    }

    /// Ends a session and returns its requests, or nil when no such session is open. Tasks
    /// waiting on it get what it holds.
    public func endSession(_ id: String) -> [CapturedRequest]? {
        var wakeups: Wakeups = []
        let requests = state.withLock { state -> [CapturedRequest]? in
            guard let session = state.sessions.removeValue(forKey: id) else { return nil }
            state.sessionOrder.removeAll { $0 == id }
            let requests = session.log.all
            for waiter in session.waiters.values { wakeups.append((waiter.continuation, requests, waiter.timer)) }
            return requests
        }
        Self.resume(wakeups)
        return requests
    }

    /// Waits until a session holds at least `count` requests, or until `timeout` has passed.
    ///
    /// ```swift
    /// let events = await store.waitForRequests(inSession: id, count: 2, timeout: .seconds(10))
    /// ```
    /// - Parameters:
    ///   - id: the session.
    ///   - count: how many requests to wait for.
    ///   - timeout: the longest wait.
    /// - Returns: the session's requests when the count is reached, at the deadline, when the
    ///   session ends or the task is cancelled; nil when no such session is open.
    public func waitForRequests(inSession id: String, count: Int, timeout: Duration) async -> [CapturedRequest]? {
        let waiterID = state.withLock { state -> UInt64 in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[CapturedRequest]?, Never>) in
                enum Registration { case answered([CapturedRequest]?), waiting }
                let registration = state.withLock { state -> Registration in
                    guard var session = state.sessions[id] else { return .answered(nil) }
                    // Checked under the lock that `expire` takes: a cancellation either shows
                    // here or finds the registered waiter.
                    if session.log.count >= count || state.closed || Task.isCancelled { return .answered(session.log.all) }
                    session.waiters[waiterID] = Waiter(count: count, continuation: continuation, timer: nil)
                    state.sessions[id] = session
                    return .waiting
                }
                guard case .waiting = registration else {
                    if case .answered(let requests) = registration { continuation.resume(returning: requests) }
                    return
                }
                let timer = Task { [weak self] in
                    do { try await Task.sleep(for: timeout) } catch { return }
                    self?.expire(waiterID, in: id)
                }
                let stillWaiting = state.withLock { state -> Bool in
                    guard state.sessions[id]?.waiters[waiterID] != nil else { return false }
                    state.sessions[id]?.waiters[waiterID]?.timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            expire(waiterID, in: id)
        }
    }

    private func expire(_ waiterID: UInt64, in session: String) {
        let wakeup = state.withLock { state -> (CheckedContinuation<[CapturedRequest]?, Never>, [CapturedRequest])? in
            guard let waiter = state.sessions[session]?.waiters.removeValue(forKey: waiterID),
                let requests = state.sessions[session]?.log.all
            else { return nil }
            return (waiter.continuation, requests)
        }
        if let (continuation, requests) = wakeup { continuation.resume(returning: requests) }
    }

    // MARK: Housekeeping

    /// Forgets every captured request, in the global list and in every session; sessions stay
    /// open and the counters keep counting.
    public func reset() {
        state.withLock { state in
            state.global.removeAll()
            for id in state.sessionOrder { state.sessions[id]?.log.removeAll() }
        }
    }

    /// Answers every waiting task and closes the journal; requests recorded afterwards stay in
    /// memory only.
    package func close() {
        var wakeups: Wakeups = []
        state.withLock { state in
            state.closed = true
            for id in state.sessionOrder {
                guard var session = state.sessions[id] else { continue }
                let requests = session.log.all
                for waiter in session.waiters.values { wakeups.append((waiter.continuation, requests, waiter.timer)) }
                session.waiters = [:]
                state.sessions[id] = session
            }
            state.journal?.close()
            state.journal = nil
        }
        Self.resume(wakeups)
    }

    private static func resume(_ wakeups: Wakeups) {
        for (continuation, requests, timer) in wakeups {
            timer?.cancel()
            continuation.resume(returning: requests)
        }
    }
}
