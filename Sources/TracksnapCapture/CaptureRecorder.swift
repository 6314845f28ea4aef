import TracksnapTraffic

/// The requests one capture session recorded, safe to append to from URLSession's threads while
/// a test reads them, resets them or waits for them.
///
/// ```swift
/// let recorder = CaptureRecorder()
/// recorder.append { id in CapturedRequest(id: id, method: "GET", url: "https://t.example/") }
/// let requests = await recorder.wait(settle: nil, timeout: .seconds(5)) { $0.count >= 1 }.requests
/// ```
///
/// A thin layer over `RequestWaitList`, the wait list the capture server's sessions use too.
final class CaptureRecorder: Sendable {
    private let list = RequestWaitList()

    /// Everything recorded since the last `reset()`, in arrival order.
    var requests: [CapturedRequest] {
        list.requests
    }

    /// Records a request, giving it the next id, and wakes the waiters.
    ///
    /// - Parameter make: builds the request from its id (`"1"`, `"2"`…; ids keep growing across
    ///   `reset()`, so that an id never names two requests).
    /// - Returns: the request recorded.
    @discardableResult
    func append(_ make: (String) -> CapturedRequest) -> CapturedRequest {
        list.append { make(String($0)) }.request
    }

    /// Forgets every recorded request and keeps no more: its capture's handle is gone.
    func close() {
        list.close()
    }

    /// Forgets every recorded request; waiters keep waiting for new ones.
    func reset() {
        list.removeAll()
    }

    /// Waits until `isComplete` holds, or traffic has been quiet for `settle`, or `timeout`.
    func wait(
        settle: Duration?, timeout: Duration, until isComplete: ([CapturedRequest]) -> Bool
    ) async -> RequestWaitList.Outcome {
        await list.wait(settle: settle, timeout: timeout, until: isComplete)
    }
}
