import Foundation
import Testing
import TracksnapTestSupport

@testable import TracksnapServer

/// A page the reverse proxy serves has the control API's own origin: the `Origin` and
/// `Sec-Fetch-Site` rules pass its calls. When the server serves content it did not write, a
/// browser's control call needs a token, made for the run when the user gave none; every
/// other client (curl, SDKs, the project's clients) calls as before.
@Suite(
    "A browser's control API call needs a token when the server serves others' pages", .tags(.network), .leftToMakeTest)
struct BrowserTokenTests {
    static let sameOrigin = [("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Mode", "cors")]

    @Test("with --upstream and no token: a browser's call without the run's token is 401, with it 200; curl's 200")
    func upstreamWithoutToken() async throws {
        let configuration = CaptureServer.Configuration(upstream: URL(string: "http://127.0.0.1:9"))
        try await withServer(configuration) { server, port in
            let token = try #require(server.browserToken)
            #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
            #expect(try await control(port, "GET", "requests", headers: Self.sameOrigin).status == 401)
            #expect(
                try await control(port, "GET", "requests", headers: [("Origin", "http://127.0.0.1:\(port)")]).status
                    == 401)
            let rejected = try await control(
                port, "POST", "snapshots/reject", body: #"{"snapshot": "Snapshots/checkout.json"}"#,
                headers: Self.sameOrigin)
            #expect(rejected.status == 401, "\(rejected.text)")
            #expect(
                try await control(
                    port, "GET", "requests", headers: Self.sameOrigin + [("Authorization", "Bearer \(token)")]
                ).status == 200)
            #expect(try await control(port, "GET", "requests").status == 200, "a client that is not a browser")
            #expect(try await control(port, "GET", "ui/", headers: Self.sameOrigin).status == 200, "the page itself")
            let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
            #expect(server.inspectorURL(at: url) == "http://127.0.0.1:\(port)/__tracksnap/ui/#token=\(token)")
        }
    }

    @Test("a token the user gave is the browser's token too; a plain collector asks a browser for none")
    func givenTokenAndCollector() async throws {
        var configuration = CaptureServer.Configuration(upstream: URL(string: "http://127.0.0.1:9"))
        configuration.token = "given-token"
        try await withServer(configuration) { server, _ in
            #expect(server.browserToken == "given-token")
        }
        try await withServer { server, port in
            #expect(server.browserToken == nil)
            let answer = try await control(port, "GET", "requests", headers: Self.sameOrigin)
            #expect(answer.status == 200)
        }
    }
}
