import NIOCore
import Testing
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("The capture store")
struct CaptureStoreTests {
    @Test("a waiter is resumed by the record that completes its count")
    func resumedByRecord() async throws {
        let store = try CaptureStore()
        let id = store.startSession()
        // The wait `waitForRequests(inSession:count:)` makes, with its outcome's reason: the
        // deadline would return the same requests.
        async let waited = store.wait(inSession: id, settle: nil, timeout: Bounds.wait) { $0.count >= 2 }
        store.record(method: "GET", url: "http://t.example/1", sessionHint: nil)
        store.record(method: "GET", url: "http://t.example/2", sessionHint: nil)
        let outcome = try #require(await waited)
        #expect(outcome.requests.map(\.url) == ["http://t.example/1", "http://t.example/2"])
        #expect(outcome.reason == .complete)
    }

    @Test(
        "whatever the route (a proxied request, a tunnel's CONNECT, an ingested record), the proxy's own credentials are left out",
        arguments: [nil, "store_token_77"])
    func ownCredentials(token: String?) throws {
        let store = try CaptureStore(token: token)
        let headers: [CapturedRequest.Header] = [
            .init(name: "proxy-authorization", value: "Basic dTpzdG9yZV90b2tlbl83Nw=="),
            .init(name: "Authorization", value: "Bearer store_token_77"),
            .init(name: "Authorization", value: "Bearer app_token"),
            .init(name: "X-Other", value: "kept"),
        ]
        let recorded = store.record(method: "CONNECT", url: "https://t.example:443", headers: headers, sessionHint: nil)
        let kept = ["Authorization: Bearer app_token", "X-Other: kept"]
        let withoutToken = ["Authorization: Bearer store_token_77"] + kept
        #expect(recorded.headers.map { "\($0.name): \($0.value)" } == (token == nil ? withoutToken : kept))
        #expect(store.requests().first == recorded)
    }

    @Test("a waiter gets what is there when its session ends, when cancelled, or at once for count 0")
    func resumedOtherwise() async throws {
        let store = try CaptureStore()
        let ended = store.startSession()
        store.record(method: "GET", url: "http://t.example/a", sessionHint: ended)
        async let waitedOnEnd = store.waitForRequests(inSession: ended, count: 5, timeout: Bounds.wait)
        // Ending only after the waiter registered is not observable from here; either order
        // must give the one request.
        let endedRequests = store.endSession(ended)
        #expect(endedRequests?.count == 1)
        let onEnd = await waitedOnEnd
        #expect(onEnd == nil || onEnd?.count == 1)

        let open = store.startSession()
        let waiting = Task { await store.wait(inSession: open, settle: nil, timeout: Bounds.wait) { $0.count >= 5 } }
        waiting.cancel()
        let cancelled = try #require(await waiting.value)
        #expect(cancelled.requests.isEmpty)
        #expect(cancelled.reason == .cancelled, "a cancelled wait does not last until its deadline")
        let none = try #require(await store.wait(inSession: open, settle: nil, timeout: Bounds.wait) { $0.count >= 0 })
        #expect(none.requests.isEmpty)
        #expect(none.reason == .complete, "a wait for none is over at once")
    }

    @Test("an unknown session is nil, not an empty list")
    func unknownSession() async throws {
        let store = try CaptureStore()
        #expect(store.requests(inSession: "s1") == nil)
        #expect(await store.waitForRequests(inSession: "s1", count: 1, timeout: .seconds(1)) == nil)
        #expect(store.endSession("s1") == nil)
    }

    @Test("ids count up across sessions and resets; a limit drops the oldest")
    func idsAndLimit() throws {
        let store = try CaptureStore(maximumRequests: 2)
        for index in 1...3 { store.record(method: "GET", url: "http://t.example/\(index)", sessionHint: nil) }
        store.reset()
        store.record(method: "GET", url: "http://t.example/4", sessionHint: nil)
        #expect(store.requests().map(\.id) == ["4"])
        #expect(store.statistics == HealthAnswer(captured: 4, dropped: 1, rejected: 0, sessions: 0, stored: 1))
    }
}

@Suite("The answers the capture store keeps for the inspector")
struct CaptureStoreAnswerBoundTests {
    private func answer(_ store: CaptureStore, bytes: Int) {
        let request = store.record(method: "GET", url: "http://t.example/a", sessionHint: nil)
        store.answered(
            request.id,
            CapturedAnswer(
                status: 200, headers: [.init(name: "Content-Type", value: "text/plain")],
                body: ByteBuffer(repeating: UInt8(ascii: "a"), count: bytes)))
    }

    @Test("no more answers are kept than requests (--max-requests): the oldest are forgotten")
    func boundedByMaximumRequests() throws {
        let store = try CaptureStore(maximumRequests: 3)
        for _ in 1...5 { answer(store, bytes: 10) }
        #expect(store.answersHeld.count == 3)
        #expect(store.answersKept == 3)
    }

    @Test("the answers kept hold no more than their bytes' bound, and a follower is told once when older ones go")
    func boundedByBytes() async throws {
        let store = try CaptureStore(answerBytes: 100_000)
        let follower = store.follow(buffering: 100)
        for _ in 1...5 { answer(store, bytes: 40_000) }
        let held = store.answersHeld
        #expect(held.count == 2 && held.bytes <= 100_000, "\(held)")
        store.close()
        var told: [Int] = []
        for await item in follower.items {
            if case .answersForgotten(let bytes) = item { told.append(bytes) }
        }
        #expect(told == [100_000])
    }

    @Test("one answer larger than the bound is still kept: the latest request's answer is always shown")
    func latestKept() throws {
        let store = try CaptureStore(answerBytes: 1_000)
        answer(store, bytes: 5_000)
        #expect(store.answersHeld.count == 1)
    }
}
