import Foundation
import Synchronization
import Testing
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapServer

@Suite("What a captured request carries is searched for once, however many read it", .tags(.network), .leftToMakeTest)
struct CarriedSearchTests {
    @Test(
        "a request captured while the log is on, two inspectors read the stream and an events wait is open is searched once for secrets and once for personal data"
    )
    func searchedOnce() async throws {
        let marker = "searched-once-" + UUID().uuidString
        CarriedSearches.watch(marker)
        let logged = Mutex<[String]>([])
        let configuration = CaptureServer.Configuration(requestLog: { line in
            logged.withLock { $0.append(line.description) }
        })
        try await withServer(configuration) { _, port in
            let session = try await startSession(port)
            let readers = try [StreamReader(port: port, token: nil), StreamReader(port: port, token: nil)]
            defer { for reader in readers { reader.close() } }
            // The stream's first lines come once its reader follows what is recorded.
            for reader in readers { _ = try await reader.read(until: "retry: 1000") }
            let waiting = Task {
                try await control(port, "GET", "sessions/\(session)/requests?events=1&timeout=120")
            }
            let body =
                #"{"writeKey": "wk_searched_7731", "type": "track", "event": "Order Completed", "properties": {"contact": "ana@example.com"}}"#
            let sent = try await RawHTTP.send(
                port: port, method: "POST", target: "/v1/track?probe=\(marker)",
                headers: [("Content-Type", "application/json"), ("Authorization", "Bearer tok_searched_5521")],
                body: Array(body.utf8))
            #expect(sent.status == 200)
            let answer = try await waiting.value
            #expect(answer.header("X-Tracksnap-Wait") == "complete")
            for text in [answer.text] + (try await readers.asyncMap { try await $0.read(until: marker) }) {
                #expect(text.contains(marker))
                #expect(!text.contains("wk_searched_7731") && !text.contains("tok_searched_5521"), "\(text)")
                #expect(!text.contains("ana@example.com"), "\(text)")
            }
            #expect(logged.withLock { $0.contains { $0.contains(marker) } })
        }
        let count = CarriedSearches.count(marker)
        #expect(count.secrets == 1, "searched for secrets \(count.secrets) times")
        #expect(count.personalData == 1, "searched for personal data \(count.personalData) times")
    }
}

extension Array where Element: Sendable {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
