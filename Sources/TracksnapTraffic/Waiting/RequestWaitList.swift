import Synchronization

/// Captured requests in arrival order that tasks can wait on: until a condition holds, until
/// traffic has been quiet for a settle time, or until a deadline.
///
/// The one wait list of the project: the in-process capture (`CaptureRecorder`) and the
/// capture server's sessions (`CaptureStore`) both keep their requests here.
///
/// ```swift
/// let list = RequestWaitList()
/// list.append(CapturedRequest(id: "1", method: "GET", url: "https://t.example/"))
/// let outcome = await list.wait(settle: .milliseconds(500), timeout: .seconds(10)) { $0.count >= 3 }
/// outcome.reason  // .settled: one request, then 500 ms of quiet
/// ```
///
/// A waiting task is resumed by the append that follows its last look, by the time its settle
/// time or deadline falls due, by `endWaiting()`, or by its cancellation — never by polling.
/// The condition runs in the waiting task, outside the lock, so it may be slow (a validation)
/// without holding up the threads that append.
package final class RequestWaitList: Sendable {
    /// Why a wait returned.
    package enum Reason: String, Sendable, Hashable {
        /// The condition holds.
        case complete
        /// Traffic was quiet for the settle time after at least one request.
        case settled
        /// The deadline passed first.
        case timedOut = "timed_out"
        /// `endWaiting()` was called (a session ended, the server stopped).
        case ended
        /// The waiting task was cancelled.
        case cancelled
    }

    /// What a wait returns: the requests held when it returned, and why it returned.
    package struct Outcome: Sendable {
        package var requests: [CapturedRequest]
        package var reason: Reason
    }

    private struct Waiter {
        var continuation: CheckedContinuation<Void, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var log: RequestLog
        /// Requests appended since creation, `removeAll()` included: the sequence number of the next one minus one.
        var appended = 0
        /// Changes with every append and removal, so that a waiter can tell that something happened.
        var generation: UInt64 = 0
        var lastArrival: ContinuousClock.Instant?
        var ended = false
        /// Set by `close()`: appends are counted and dropped.
        var closed = false
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
    }

    private let state: Mutex<State>
    private let clock = ContinuousClock()

    /// - Parameter limit: the most requests kept (the oldest are dropped first); nil keeps all.
    package init(limit: Int? = nil) {
        state = Mutex(State(log: RequestLog(limit: limit)))
    }

    /// The requests held, oldest first.
    package var requests: [CapturedRequest] {
        state.withLock { $0.log.all }
    }

    /// How many requests are held.
    package var count: Int {
        state.withLock { $0.log.count }
    }

    /// Appends a request and wakes every waiter to look again.
    ///
    /// - Returns: whether the oldest request was dropped to stay within the limit.
    @discardableResult
    package func append(_ request: CapturedRequest) -> Bool {
        append { _ in request }.dropped
    }

    /// Appends the request `make` builds from its sequence number (1, 2, …; never reused, not
    /// even after `removeAll()`), and wakes every waiter to look again.
    ///
    /// - Returns: the request, and whether the oldest was dropped to stay within the limit.
    @discardableResult
    package func append(_ make: (Int) -> CapturedRequest) -> (request: CapturedRequest, dropped: Bool) {
        let now = clock.now
        let (request, dropped, woken) = state.withLock { state -> (CapturedRequest, Bool, [Waiter]) in
            state.appended += 1
            let request = make(state.appended)
            if state.closed { return (request, false, []) }
            let dropped = state.log.append(request)
            state.generation &+= 1
            state.lastArrival = now
            return (request, dropped, Self.takeWaiters(&state))
        }
        Self.resume(woken)
        return (request, dropped)
    }

    /// Forgets the requests held; waiters keep waiting for new ones, and the settle time counts
    /// from the next arrival.
    package func removeAll() {
        state.withLock { state in
            state.log.removeAll()
            state.generation &+= 1
            state.lastArrival = nil
        }
    }

    /// Answers every waiter with what is held, and every later wait at once.
    package func endWaiting() {
        let woken = state.withLock { state -> [Waiter] in
            state.ended = true
            return Self.takeWaiters(&state)
        }
        Self.resume(woken)
    }

    /// Ends waiting, forgets the requests held, and keeps none appended later.
    package func close() {
        let woken = state.withLock { state -> [Waiter] in
            state.ended = true
            state.closed = true
            state.log.removeAll()
            return Self.takeWaiters(&state)
        }
        Self.resume(woken)
    }

    // MARK: Waiting

    /// Waits until `isComplete` holds for the requests held, or traffic has been quiet for
    /// `settle` after at least one request, or `timeout` has passed — whichever comes first.
    ///
    /// ```swift
    /// let outcome = await list.wait(settle: .milliseconds(500), timeout: .seconds(10)) { requests in
    ///     requests.count >= 3
    /// }
    /// ```
    /// `isComplete` is asked at once and again after each arrival, in the calling task. The
    /// settle time counts from the last arrival, which may be before the wait began; with no
    /// request held it does not run, so an empty list waits for the deadline. When the waiting
    /// task itself wakes up late (by more than half the settle time: the machine is busy and
    /// the sender may be held up too), the quiet is measured again from that moment.
    /// - Parameters:
    ///   - settle: how long traffic must be quiet for the wait to end; nil waits for the condition or the deadline.
    ///   - timeout: the longest wait.
    ///   - isComplete: whether what arrived is all that is awaited.
    /// - Returns: the requests held when it returned, and why.
    package func wait(
        settle: Duration? = nil, timeout: Duration, until isComplete: ([CapturedRequest]) -> Bool
    ) async -> Outcome {
        let deadline = clock.now.advanced(by: timeout)
        // Quiet counts from the last arrival, or from the end of a stall (below), whichever is later.
        var quietSince: ContinuousClock.Instant?
        // The requests held, as the waiter last saw them: each look takes only what arrived
        // since the one before, not a copy of the whole list.
        var requests: [CapturedRequest] = []
        var seen = 0
        while true {
            let (generation, lastArrival, ended) = state.withLock { state in
                Self.catchUp(&requests, seen: &seen, with: state)
                return (state.generation, state.lastArrival, state.ended)
            }
            if isComplete(requests) { return Outcome(requests: requests, reason: .complete) }
            if ended { return Outcome(requests: requests, reason: .ended) }
            if Task.isCancelled { return Outcome(requests: requests, reason: .cancelled) }
            let now = clock.now
            var wake = deadline
            if let settle, let lastArrival, !requests.isEmpty {
                let quietUntil = max(lastArrival, quietSince ?? lastArrival).advanced(by: settle)
                if quietUntil <= now { return Outcome(requests: requests, reason: .settled) }
                wake = min(wake, quietUntil)
            }
            if deadline <= now { return Outcome(requests: requests, reason: .timedOut) }
            await change(after: generation, until: wake)
            // A wake-up late by more than half the settle time means this process was held
            // up (a busy machine): the sender may have been held up as well, so the quiet seen
            // meanwhile proves nothing, and it is measured again from now.
            if let settle, clock.now - wake > settle / 2 { quietSince = clock.now }
        }
    }

    /// Waits until at least `count` requests are held, or quiet for `settle`, or `timeout`.
    ///
    /// ```swift
    /// let requests = await list.wait(count: 2, timeout: .seconds(5)).requests
    /// ```
    package func wait(count: Int, settle: Duration? = nil, timeout: Duration) async -> Outcome {
        await wait(settle: settle, timeout: timeout) { $0.count >= count }
    }

    /// Brings a waiter's copy of the requests held up to date with `state`, taking only the
    /// requests appended since it last looked (`seen`, the count of appends then).
    ///
    /// The requests held are always the latest arrivals since the list was last emptied (the
    /// limit drops the oldest, `removeAll` and `close` empty it), and the copy was such a run of
    /// arrivals when it was taken: with what arrived since appended, both end at the same
    /// arrival, so the copy is what is held once it is cut to as many from its front.
    private static func catchUp(_ requests: inout [CapturedRequest], seen: inout Int, with state: State) {
        requests.append(contentsOf: state.log.latest(state.appended - seen))
        seen = state.appended
        let excess = requests.count - state.log.count
        if excess > 0 { requests.removeFirst(excess) }
    }

    /// Suspends until the list changes after `generation`, `instant` comes, waiting ends, or
    /// the task is cancelled.
    private func change(after generation: UInt64, until instant: ContinuousClock.Instant) async {
        let key = state.withLock { state -> UInt64 in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Checked under the lock the appends and `wake` take: a change or a
                // cancellation either shows here or finds the waiter registered.
                let registered = state.withLock { state -> Bool in
                    if state.generation != generation || state.ended || Task.isCancelled { return false }
                    state.waiters[key] = Waiter(continuation: continuation, timer: nil)
                    return true
                }
                guard registered else {
                    continuation.resume()
                    return
                }
                let timer = Task { [weak self, clock] in
                    do { try await clock.sleep(until: instant) } catch { return }
                    self?.wake(key)
                }
                let stillWaiting = state.withLock { state -> Bool in
                    guard state.waiters[key] != nil else { return false }
                    state.waiters[key]?.timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            wake(key)
        }
    }

    /// Resumes one waiter, if it is still registered.
    private func wake(_ key: UInt64) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
        if let waiter { Self.resume([waiter]) }
    }

    private static func takeWaiters(_ state: inout State) -> [Waiter] {
        guard !state.waiters.isEmpty else { return [] }
        defer { state.waiters = [:] }
        return Array(state.waiters.values)
    }

    /// Resumed outside the lock: a resumed task may read the list at once.
    private static func resume(_ waiters: [Waiter]) {
        for waiter in waiters {
            waiter.timer?.cancel()
            waiter.continuation.resume()
        }
    }
}
