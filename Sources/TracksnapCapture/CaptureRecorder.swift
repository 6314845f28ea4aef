import Synchronization
import TracksnapCore

/// The requests one capture session recorded, safe to append to from URLSession's threads while
/// a test reads them, resets them or waits for them.
///
/// ```swift
/// let recorder = CaptureRecorder()
/// recorder.append { id in CapturedRequest(id: id, method: "GET", url: "https://t.example/") }
/// let requests = await recorder.wait(count: 1, timeout: .seconds(5))
/// ```
final class CaptureRecorder: Sendable {
    private struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<[CapturedRequest], Never>
    }

    private struct State {
        var requests: [CapturedRequest] = []
        /// Ids keep growing across `reset()`, so that an id never names two requests.
        var nextID = 1
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]
        /// Waiters whose deadline passed (or whose task was cancelled) before they were registered.
        var expired: Set<Int> = []
        /// Set once no one can read the recorder any more: requests are no longer kept.
        var closed = false
    }

    private let state = Mutex(State())

    /// Everything recorded since the last `reset()`, in arrival order.
    var requests: [CapturedRequest] {
        state.withLock { $0.requests }
    }

    /// Records a request, giving it the next id, and wakes the waiters it satisfies.
    ///
    /// - Parameter make: builds the request from its id (`"1"`, `"2"`…).
    /// - Returns: the request recorded.
    @discardableResult
    func append(_ make: (String) -> CapturedRequest) -> CapturedRequest {
        typealias Ready = [(CheckedContinuation<[CapturedRequest], Never>, [CapturedRequest])]
        let (request, ready) = state.withLock { state -> (CapturedRequest, Ready) in
            let request = make(String(state.nextID))
            state.nextID += 1
            if state.closed { return (request, []) }
            state.requests.append(request)
            let satisfied = state.waiters.filter { $0.value.count <= state.requests.count }
            for key in satisfied.keys { state.waiters[key] = nil }
            return (request, satisfied.values.map { ($0.continuation, state.requests) })
        }
        // Resumed outside the lock: a resumed task may read the recorder at once.
        for (continuation, requests) in ready { continuation.resume(returning: requests) }
        return request
    }

    /// Forgets every recorded request and keeps no more: its capture's handle is gone.
    func close() {
        state.withLock { state in
            state.closed = true
            state.requests.removeAll()
        }
    }

    /// Forgets every recorded request; waiters keep waiting for new ones.
    func reset() {
        state.withLock { $0.requests.removeAll() }
    }

    /// The requests once at least `count` are recorded, or those there are when `timeout` has
    /// passed or the task is cancelled, whichever comes first.
    ///
    /// ```swift
    /// let requests = await recorder.wait(count: 3, timeout: .seconds(2))
    /// ```
    func wait(count: Int, timeout: Duration) async -> [CapturedRequest] {
        let key = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let deadline = Task { [weak self] in
            do { try await Task.sleep(for: timeout) } catch { return }
            self?.expire(key)
        }
        defer {
            deadline.cancel()
            // A deadline that fired as the wait was being satisfied leaves its key behind.
            _ = state.withLock { $0.expired.remove(key) }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> [CapturedRequest]? in
                    if state.requests.count >= count || state.expired.remove(key) != nil { return state.requests }
                    state.waiters[key] = Waiter(count: count, continuation: continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            expire(key)
        }
    }

    /// Ends one wait with what is there now; remembers the key if the wait has not started yet.
    private func expire(_ key: Int) {
        let ended = state.withLock { state -> (CheckedContinuation<[CapturedRequest], Never>, [CapturedRequest])? in
            guard let waiter = state.waiters.removeValue(forKey: key) else {
                state.expired.insert(key)
                return nil
            }
            return (waiter.continuation, state.requests)
        }
        if let (continuation, requests) = ended { continuation.resume(returning: requests) }
    }
}
