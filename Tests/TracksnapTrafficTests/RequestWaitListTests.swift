import Foundation
import Synchronization
import Testing
import TracksnapTestSupport
import TracksnapTraffic

/// A request with a number, for lists that only count.
private func request(_ number: Int) -> CapturedRequest {
    CapturedRequest(id: String(number), method: "GET", url: "https://t.example/\(number)")
}

/// Appends requests from a thread of its own, in bursts, and remembers when it sent the last one.
///
/// A thread, not a task: the whole test suite runs in parallel, and tests that block the
/// cooperative pool would otherwise hold the sender up for longer than a settle time.
private final class Bursts: Sendable {
    private let lastSent = Mutex<ContinuousClock.Instant?>(nil)

    /// When the last request was appended, once it was.
    var last: ContinuousClock.Instant? { lastSent.withLock { $0 } }

    /// Appends `count` requests to `list`, the first after `delay`, then one every `gap`;
    /// returns when all are appended.
    func send(_ count: Int, to list: RequestWaitList, after delay: Duration, gap: Duration) -> Task<Void, Never> {
        Task {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread { [self] in
                    Thread.sleep(forTimeInterval: Self.seconds(delay))
                    for number in 1...count {
                        if number > 1 { Thread.sleep(forTimeInterval: Self.seconds(gap)) }
                        lastSent.withLock { $0 = .now }
                        list.append(request(number))
                    }
                    continuation.resume()
                }
            }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

@Suite("The wait list both captures use")
struct RequestWaitListTests {
    @Test("a wait for a condition returns at the arrival that completes it, not at the settle time or deadline")
    func completes() async throws {
        let list = RequestWaitList()
        let bursts = Bursts()
        let sending = bursts.send(3, to: list, after: .milliseconds(100), gap: .milliseconds(150))
        // A settle time and deadline far beyond the bursts; the outcome's reason says which ended it.
        let outcome = await list.wait(settle: .seconds(60), timeout: Bounds.wait) { $0.count >= 3 }
        let returned = ContinuousClock.now
        await sending.value
        let last = try #require(bursts.last)
        #expect(outcome.reason == .complete)
        #expect(outcome.requests.map(\.id) == ["1", "2", "3"])
        #expect(returned >= last)
    }

    @Test("without a condition it returns once traffic has been quiet for the settle time, after every burst")
    func settles() async throws {
        let list = RequestWaitList()
        let bursts = Bursts()
        // Far longer than the gaps between bursts, so that a busy machine does not end it early.
        let settle = Duration.seconds(1)
        let sending = bursts.send(3, to: list, after: .milliseconds(200), gap: .milliseconds(150))
        let outcome = await list.wait(settle: settle, timeout: Bounds.wait) { _ in false }
        let returned = ContinuousClock.now
        await sending.value
        let last = try #require(bursts.last)
        #expect(outcome.reason == .settled)
        #expect(outcome.requests.count == 3)
        // Not before the last request plus the settle time: a gap shorter than it never ends the wait.
        #expect(returned - last >= settle)
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
    }

    @Test("traffic that never settles is cut off by the deadline")
    func deadlineBoundsBusyTraffic() async {
        let list = RequestWaitList()
        // A thread of its own, which a busy cooperative pool cannot hold up for a settle time.
        let stop = Mutex(false)
        Thread.detachNewThread {
            var number = 0
            while !stop.withLock({ $0 }) {
                number += 1
                list.append(request(number))
                Thread.sleep(forTimeInterval: 0.03)
            }
        }
        let started = ContinuousClock.now
        let outcome = await list.wait(settle: .milliseconds(300), timeout: .milliseconds(600)) { _ in false }
        let elapsed = ContinuousClock.now - started
        stop.withLock { $0 = true }
        #expect(outcome.reason == .timedOut)
        #expect(!outcome.requests.isEmpty)
        #expect(elapsed >= .milliseconds(600))
    }

    @Test("the settle time counts from the last arrival, even one before the wait began")
    func settledBeforeTheWait() async {
        let list = RequestWaitList()
        list.append(request(1))
        try? await Task.sleep(for: .milliseconds(100))
        let outcome = await list.wait(settle: .milliseconds(100), timeout: Bounds.wait) { _ in false }
        #expect(outcome.reason == .settled)
    }

    @Test("ending the waits and cancelling a waiting task answer at once with what is there")
    func endedAndCancelled() async {
        let list = RequestWaitList()
        list.append(request(1))
        let waiting = Task { await list.wait(count: 5, timeout: Bounds.wait) }
        let cancelled = Task { await list.wait(count: 5, timeout: Bounds.wait) }
        cancelled.cancel()
        let cancelledOutcome = await cancelled.value
        #expect(cancelledOutcome.reason == .cancelled)
        list.endWaiting()
        let endedOutcome = await waiting.value
        #expect(endedOutcome.reason == .ended)
        #expect(endedOutcome.requests.count == 1)
        // Later waits are answered at once too.
        #expect(await list.wait(count: 5, timeout: Bounds.wait).reason == .ended)
    }

    @Test("each look of a wait is given the requests held then, across the limit's drops, removeAll and close")
    func looksFollowTheList() async {
        let list = RequestWaitList(limit: 3)
        let (looks, seen) = AsyncStream.makeStream(of: [String].self)
        let waiting = Task {
            defer { seen.finish() }
            return await list.wait(timeout: Bounds.wait) { requests in
                seen.yield(requests.map(\.id))
                return false
            }
        }
        var iterator = looks.makeAsyncIterator()
        #expect(await Self.look(&iterator, until: []))
        for number in 1...2 { list.append(request(number)) }
        #expect(await Self.look(&iterator, until: ["1", "2"]))
        // More than the limit since the last look: the oldest are dropped from what it was given.
        for number in 3...7 { list.append(request(number)) }
        #expect(await Self.look(&iterator, until: ["5", "6", "7"]))
        list.removeAll()
        list.append(request(8))
        #expect(await Self.look(&iterator, until: ["8"]))
        list.append(request(9))
        #expect(await Self.look(&iterator, until: ["8", "9"]))
        list.close()
        let outcome = await waiting.value
        #expect(outcome.reason == .ended)
        #expect(outcome.requests.isEmpty)
    }

    /// Reads a waiter's looks until one is `expected`; false when the wait ended first, or a
    /// look held more than the list's limit of 3.
    private static func look(_ looks: inout AsyncStream<[String]>.Iterator, until expected: [String]) async -> Bool {
        while let look = await looks.next() {
            if look.count > 3 { return false }
            if look == expected { return true }
        }
        return false
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
