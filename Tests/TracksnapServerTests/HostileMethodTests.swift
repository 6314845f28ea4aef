import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@testable import TracksnapServer

/// A method is recorded only when it is an HTTP token (RFC 9110): the inspector's "Copy as
/// curl" and every log line may then take it as one word. HTTP/1's parser already refuses
/// anything else; HTTP/2's `:method` and the control API's ingest took whatever came.
@Suite(
    "A method that is not an HTTP token is refused where it would be recorded", .tags(.process, .network),
    .leftToMakeTest)
struct HostileMethodTests {
    @Test("POST sessions/{id}/requests with a method holding a command: 400, and nothing recorded")
    func ingestRefusesCommandMethod() async throws {
        try await withServer { server, port in
            let session = try await startSession(port)
            let body = """
                [{"method": "GET", "url": "https://t.example/fine"},
                 {"method": "GET;touch /tmp/tracksnap-pwned;#", "url": "https://t.example/e"}]
                """
            let response = try await control(port, "POST", "sessions/\(session)/requests", body: body)
            #expect(response.status == 400, "\(response.text)")
            #expect(response.text.contains("record 1"), "\(response.text)")
            #expect(response.text.contains("not an HTTP token"), "\(response.text)")
            #expect(server.store.requests().isEmpty, "nothing of the call is recorded, the good record neither")
        }
    }

    @Test(
        "POST sessions/{id}/requests with a url that is not absolute: 400 naming the record, and nothing recorded",
        arguments: ["not a url", "/v1/e?ev=view", "t.example/e", "https://", "1https://t.example/"])
    func ingestRefusesRelativeURL(url: String) async throws {
        try await withServer { server, port in
            let session = try await startSession(port)
            let body = """
                [{"method": "GET", "url": "https://t.example/fine"},
                 {"method": "GET", "url": \(JSONValue.string(url).serialized())}]
                """
            let response = try await control(port, "POST", "sessions/\(session)/requests", body: body)
            #expect(response.status == 400, "\(response.text)")
            #expect(
                response.text.contains("record 1: the url is not absolute: write its scheme and host"),
                "\(response.text)")
            #expect(server.store.requests().isEmpty, "nothing of the call is recorded, the good record neither")
        }
    }

    @Test("an HTTP/2 :method holding a command inside an intercepted tunnel: 400, and nothing recorded")
    func http2RefusesCommandMethod() async throws {
        try await withAuthority { authority in
            let configuration = try interceptingConfiguration(
                ["api.segment.io"], answer: true, authority: authority, notices: Notices())
            try await withServer(configuration) { server, port in
                let result = try await curlThroughProxy(
                    port,
                    [
                        "--http2", "-X", "GET;id|$x", "-o", "/dev/null", "-w", "%{http_code} %{http_version}",
                        "https://api.segment.io/v1/track",
                    ], trusting: authority)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout == "400 2", "\(result.stdout)")
                #expect(server.store.requests().isEmpty, "\(server.store.requests().map(\.method))")
            }
        }
    }
}
