import Foundation
import Testing
import TracksnapTestSupport

/// `tracksnap serve` notes its own origin on what it receives as a collector, so that recording
/// can write that origin as a pattern; a forward-proxy request's URL is its real target and gets none.
@Suite("The capture server records its own origin", .tags(.process), .leftToMakeTest)
struct ServerOriginTests {
    @Test("a collector request carries serverOrigin; the same URL sent through the server as a forward proxy does not")
    func serverOrigin() async throws {
        let server = try await ServeChild.launch()
        defer { server.stop() }
        let target = server.base + "/e?ev=view"
        // Through the server as a proxy, to the server itself: recorded once as forwarded, once as collected.
        let sent = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["curl", "-s", "-o", "/dev/null", "-x", server.base, target])
        #expect(sent.status == 0, "\(sent.stderr)")
        let data = try await server.call("GET", "requests")
        let requests = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(requests.count == 2)
        #expect(requests.map { $0["url"] as? String } == [target, target])
        #expect(requests.first?["serverOrigin"] == nil, "the forward proxy's request names its real target")
        #expect(requests.last?["serverOrigin"] as? String == server.base)
    }
}
