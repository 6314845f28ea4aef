import Foundation
import Testing
import TracksnapServer
import TracksnapSnapshot
import TracksnapTraffic

@Suite("Resources and addresses")
struct ResourceLimitTests {
    @Test(
        "loopback is decided from the parsed address, not the text",
        arguments: [
            ("127.0.0.1", true), ("127.200.3.4", true), ("::1", true), ("[::1]", true), ("localhost", true),
            ("LocalHost", true),
            ("127.evil.example", false), ("127.0.0.1.evil.example", false), ("localhost.evil.example", false),
            ("0.0.0.0", false),
            ("::", false), ("10.0.0.1", false), ("127.1", false), ("", false),
        ])
    func loopbackDecidedFromAddress(host: String, loopback: Bool) {
        #expect(CaptureServer.Configuration.isLoopback(host) == loopback)
    }

    @Test("--max-requests N keeps N, in order, and frees the dropped at once", arguments: [1, 2, 5, 63, 64, 65, 200])
    func maximumKept(limit: Int) {
        var log = RequestLog(limit: limit)
        var dropped = 0
        for index in 1...(3 * limit + 70) {
            if log.append(CapturedRequest(id: String(index), method: "GET", url: "http://t.example/\(index)")) {
                dropped += 1
            }
            #expect(log.retained <= limit)
        }
        #expect(log.count == limit)
        #expect(log.retained == limit)
        #expect(dropped == 2 * limit + 70)
        #expect(log.all.map(\.id) == ((2 * limit + 71)...(3 * limit + 70)).map(String.init))
        log.removeAll()
        log.append(CapturedRequest(id: "x", method: "GET", url: "http://t.example/x"))
        #expect(log.all.map(\.id) == ["x"])
    }

    @Test("the store keeps N per list, globally and per session")
    func storeKeepsN() throws {
        let store = try CaptureStore(maximumRequests: 3)
        let session = store.startSession()
        for index in 1...100 { store.record(method: "GET", url: "http://t.example/\(index)", sessionHint: nil) }
        #expect(store.requests().map(\.id) == ["98", "99", "100"])
        #expect(store.requests(inSession: session)?.map(\.id) == ["98", "99", "100"])
        #expect(store.statistics.dropped == 97)
        #expect(store.statistics.stored == 3)
    }
}
