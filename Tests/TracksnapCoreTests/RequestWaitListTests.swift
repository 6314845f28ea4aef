import Synchronization
import Testing
import TracksnapCore

/// A request with a number, for lists that only count.
private func request(_ number: Int) -> CapturedRequest {
    CapturedRequest(id: String(number), method: "GET", url: "https://t.example/\(number)")
}

/// Appends requests from a background task, in bursts, and remembers when it sent the last one.
private final class Bursts: Sendable {
    private let lastSent = Mutex<ContinuousClock.Instant?>(nil)

    /// When the last request was appended, once it was.
    var last: ContinuousClock.Instant? { lastSent.withLock { $0 } }

    /// Appends `count` requests to `list`, the first after `delay`, then one every `gap`.
    func send(_ count: Int, to list: RequestWaitList, after delay: Duration, gap: Duration) -> Task<Void, Never> {
        Task {
            try? await Task.sleep(for: delay)
            for number in 1...count {
                if number > 1 { try? await Task.sleep(for: gap) }
                lastSent.withLock { $0 = .now }
                list.append(request(number))
            }
        }
    }
}

@Suite("The wait list both captures use")
struct RequestWaitListTests {
    @Test("a wait for a condition returns at the arrival that completes it, not at the settle time or deadline")
    func completes() async throws {
        let list = RequestWaitList()
        let bursts = Bursts()
        let sending = bursts.send(3, to: list, after: .milliseconds(100), gap: .milliseconds(150))
        // A settle time and deadline far beyond the bursts: returning well before them shows
        // the wait ended on the condition (bounds are loose: tests run in parallel on busy machines).
        let outcome = await list.wait(settle: .seconds(20), timeout: .seconds(60)) { $0.count >= 3 }
        let returned = ContinuousClock.now
        await sending.value
        let last = try #require(bursts.last)
        #expect(outcome.reason == .complete)
        #expect(outcome.requests.map(\.id) == ["1", "2", "3"])
        #expect(returned >= last)
        #expect(returned - last < .seconds(10))
    }

    @Test("without a condition it returns once traffic has been quiet for the settle time, after every burst")
    func settles() async throws {
        let list = RequestWaitList()
        let bursts = Bursts()
        // Far longer than the gaps between bursts, so that a busy machine does not end it early.
        let settle = Duration.seconds(1)
        let sending = bursts.send(3, to: list, after: .milliseconds(200), gap: .milliseconds(150))
        let outcome = await list.wait(settle: settle, timeout: .seconds(60)) { _ in false }
        let returned = ContinuousClock.now
        await sending.value
        let last = try #require(bursts.last)
        #expect(outcome.reason == .settled)
        #expect(outcome.requests.count == 3)
        // Not before the last request plus the settle time: a gap shorter than it never ends the wait.
        #expect(returned - last >= settle)
        #expect(returned - last < .seconds(30), "it ended on the settle time, not the deadline")
    }

    @Test("with nothing captured the settle time does not run: the wait lasts until the deadline")
    func emptyWaitsForDeadline() async {
        let list = RequestWaitList()
        let started = ContinuousClock.now
        let outcome = await list.wait(settle: .milliseconds(20), timeout: .milliseconds(300)) { _ in false }
        let elapsed = ContinuousClock.now - started
        #expect(outcome.reason == .timedOut)
        #expect(outcome.requests.isEmpty)
        #expect(elapsed >= .milliseconds(300))
        #expect(elapsed < .seconds(15))
    }

    @Test("traffic that never settles is cut off by the deadline")
    func deadlineBoundsBusyTraffic() async {
        let list = RequestWaitList()
        let sending = Task {
            var number = 0
            while !Task.isCancelled {
                number += 1
                list.append(request(number))
                try? await Task.sleep(for: .milliseconds(30))
            }
        }
        let started = ContinuousClock.now
        let outcome = await list.wait(settle: .milliseconds(300), timeout: .milliseconds(600)) { _ in false }
        let elapsed = ContinuousClock.now - started
        sending.cancel()
        #expect(outcome.reason == .timedOut)
        #expect(!outcome.requests.isEmpty)
        #expect(elapsed >= .milliseconds(600))
        #expect(elapsed < .seconds(15))
    }

    @Test("the settle time counts from the last arrival, even one before the wait began")
    func settledBeforeTheWait() async {
        let list = RequestWaitList()
        list.append(request(1))
        try? await Task.sleep(for: .milliseconds(100))
        let started = ContinuousClock.now
        let outcome = await list.wait(settle: .milliseconds(100), timeout: .seconds(60)) { _ in false }
        #expect(outcome.reason == .settled)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("ending the waits and cancelling a waiting task answer at once with what is there")
    func endedAndCancelled() async {
        let list = RequestWaitList()
        list.append(request(1))
        let started = ContinuousClock.now
        let waiting = Task { await list.wait(count: 5, timeout: .seconds(60)) }
        let cancelled = Task { await list.wait(count: 5, timeout: .seconds(60)) }
        cancelled.cancel()
        let cancelledOutcome = await cancelled.value
        #expect(cancelledOutcome.reason == .cancelled)
        list.endWaiting()
        let endedOutcome = await waiting.value
        #expect(endedOutcome.reason == .ended)
        #expect(endedOutcome.requests.count == 1)
        #expect(ContinuousClock.now - started < .seconds(30))
        // Later waits are answered at once too.
        #expect(await list.wait(count: 5, timeout: .seconds(60)).reason == .ended)
    }

    @Test("sequence numbers keep growing across removeAll; a closed list keeps nothing")
    func sequenceAndClose() {
        let list = RequestWaitList(limit: 2)
        for _ in 1...3 { list.append { request($0 * 10) } }
        #expect(list.requests.map(\.id) == ["20", "30"])
        list.removeAll()
        #expect(list.append { request($0) }.request.id == "4")
        list.close()
        #expect(list.append { request($0) }.request.id == "5")
        #expect(list.requests.isEmpty)
    }
}
