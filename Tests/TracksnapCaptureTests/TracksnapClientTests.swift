import Foundation
import Testing
import TracksnapCapture
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client whose calls a stub answers in-process, and the capture of what it sent.
func stubbedClient(
    token: String? = nil, base: String = "http://127.0.0.1:8181",
    reply: @escaping @Sendable (CapturedRequest) -> CaptureResponse
) throws -> (TracksnapClient, CaptureSession) {
    let configuration = URLSessionConfiguration.ephemeral
    let capture = CaptureSession.install(on: configuration, mode: .reply(reply))
    return (
        TracksnapClient(baseURL: try #require(URL(string: base)), token: token, configuration: configuration), capture
    )
}

func json(_ text: String, status: Int = 200) -> CaptureResponse {
    CaptureResponse(status: status, body: Data(text.utf8))
}

/// Two requests in the NDJSON line's shape: an integer id, a base64 body, headers in order.
let capturedArray = #"""
    [{"body":"{\"event\":\"purchase\"}","bodyEncoding":"text","headers":[{"name":"Content-Type","value":"application/json"},{"name":"X-A","value":"1"}],"id":"7","method":"POST","session":"s1","time":"2026-11-21T08:00:00.123Z","url":"https://api.segment.io/v1/track"},
     {"body":"aGk=","bodyEncoding":"base64","id":8,"method":"GET","url":"https://collect.example/e?ev=view"}]
    """#

@Suite("The control API client", .tags(.network), .leftToMakeTest)
struct TracksnapClientTests {
    @Test("startSession posts the name as JSON with the bearer token and reads the id")
    func startSession() async throws {
        let (client, capture) = try stubbedClient(token: "s3cret") { _ in json(#"{"id":"abc"}"#, status: 201) }
        let session = try await client.startSession(name: "checkout")

        #expect(session.id == "abc")
        #expect(session.name == "checkout")
        let sent = try #require(capture.requests.first)
        #expect(sent.method == "POST")
        #expect(sent.url == "http://127.0.0.1:8181/__tracksnap/sessions")
        #expect(sent.header("Authorization") == "Bearer s3cret")
        #expect(sent.header("Content-Type") == "application/json")
        #expect(sent.bodyText == #"{"name":"checkout"}"#)
    }

    @Test("startSession without a name sends no body; without a token, no Authorization")
    func startSessionBare() async throws {
        let (client, capture) = try stubbedClient { _ in json(#"{"id":"s-1"}"#, status: 201) }
        _ = try await client.startSession()
        let sent = try #require(capture.requests.first)
        #expect(sent.body == nil)
        #expect(sent.header("Authorization") == nil)
    }

    @Test("an answer without an id is an error naming it")
    func startSessionWithoutID() async throws {
        let (client, _) = try stubbedClient { _ in json("{}", status: 201) }
        let error = await #expect(throws: TracksnapClientError.self) { _ = try await client.startSession() }
        #expect(error?.status == 201)
        #expect(error?.message.contains("\"id\"") == true)
    }

    @Test("waitForRequests asks for a count and a timeout and reads the NDJSON-shaped array")
    func waitForRequests() async throws {
        let (client, capture) = try stubbedClient { _ in json(capturedArray) }
        let requests = try await client.session(id: "s1").waitForRequests(count: 2, timeout: .milliseconds(2500))

        #expect(
            capture.requests.first?.url == "http://127.0.0.1:8181/__tracksnap/sessions/s1/requests?count=2&timeout=2.5")
        #expect(capture.requests.first?.method == "GET")
        #expect(requests.count == 2)
        #expect(requests[0].id == "7")
        #expect(requests[0].headers.map(\.name) == ["Content-Type", "X-A"])
        #expect(requests[0].bodyText == #"{"event":"purchase"}"#)
        #expect(requests[0].session == "s1")
        #expect(requests[0].time == "2026-11-21T08:00:00.123Z")
        #expect(requests[1].id == "8")
        #expect(requests[1].body == .text("hi"), "base64 that is UTF-8 reads as text, as in capture files")
    }

    @Test("waitForTraffic asks for events and a settle time, and reads the unattributed count and the wait's end")
    func waitForTraffic() async throws {
        let (client, capture) = try stubbedClient { _ in
            CaptureResponse(
                headers: [
                    "Content-Type": "application/json", "X-Tracksnap-Unattributed": "2", "X-Tracksnap-Wait": "settled",
                ],
                body: Data(capturedArray.utf8))
        }
        let traffic = try await client.session(id: "s1").waitForTraffic(
            events: 3, settle: .milliseconds(500), timeout: .seconds(5))
        #expect(
            capture.requests.first?.url
                == "http://127.0.0.1:8181/__tracksnap/sessions/s1/requests?events=3&settle=0.5&timeout=5")
        #expect(traffic.requests.count == 2)
        #expect(traffic.unattributed == 2)
        #expect(traffic.reason == "settled")
    }

    @Test("validate with a timeout and a settle time sends both, in seconds")
    func validateWaits() async throws {
        let report = #"{"findings":[],"passed":true,"snapshots":[],"version":1}"#
        let (client, capture) = try stubbedClient { _ in json(report) }
        _ = try await client.session(id: "s1").validate(
            snapshot: "a.json", timeout: .seconds(10), settle: .milliseconds(250))
        let body = try JSONDocument.parse(Array((capture.requests.first?.bodyText ?? "").utf8), file: "body").value
        #expect(body["timeout"]?.doubleValue == 10)
        #expect(body["settle"]?.doubleValue == 0.25)
        #expect(body["snapshot"]?.stringValue == "a.json")
    }

    @Test(
        "whole seconds are sent without a fraction",
        arguments: [
            (Duration.seconds(10), "10"), (.milliseconds(500), "0.5"), (.milliseconds(1250), "1.25"), (.zero, "0"),
        ])
    func timeoutParameter(duration: Duration, text: String) async throws {
        let (client, capture) = try stubbedClient { _ in json("[]") }
        _ = try await client.session(id: "s").waitForRequests(count: 1, timeout: duration)
        #expect(capture.requests.first?.url.hasSuffix("timeout=\(text)") == true)
    }

    @Test("stop sends DELETE and returns the session's requests")
    func stop() async throws {
        let (client, capture) = try stubbedClient { _ in json(capturedArray) }
        let requests = try await client.session(id: "s1").stop()
        #expect(capture.requests.first?.method == "DELETE")
        #expect(capture.requests.first?.url == "http://127.0.0.1:8181/__tracksnap/sessions/s1")
        #expect(requests.map(\.id) == ["7", "8"])
    }

    @Test(
        "requests, reset and health use their paths",
        arguments: [
            ("requests", "GET", "http://127.0.0.1:8181/__tracksnap/requests"),
            ("reset", "POST", "http://127.0.0.1:8181/__tracksnap/reset"),
            ("health", "GET", "http://127.0.0.1:8181/__tracksnap/health"),
            ("session requests", "GET", "http://127.0.0.1:8181/__tracksnap/sessions/s1/requests"),
        ])
    func paths(call: String, method: String, url: String) async throws {
        let health =
            #"{"captured":0,"dropped":0,"intercept_failures":0,"rejected":0,"sessions":0,"status":"ok","stored":0,"#
            + #""unattributed":0}"#
        let (client, capture) = try stubbedClient { json($0.url.hasSuffix("/health") ? health : "[]") }
        switch call {
        case "requests": _ = try await client.requests()
        case "reset": try await client.reset()
        case "health": try await client.health()
        default: _ = try await client.session(id: "s1").requests()
        }
        #expect(capture.requests.first?.method == method)
        #expect(capture.requests.first?.url == url)
    }

    @Test("a base URL with a path prefix keeps it")
    func pathPrefix() async throws {
        let (client, capture) = try stubbedClient(base: "http://127.0.0.1:8181/proxy/") { _ in json(#"{"id":"x"}"#) }
        let session = try await client.startSession()
        #expect(capture.requests.first?.url == "http://127.0.0.1:8181/proxy/__tracksnap/sessions")
        #expect(session.baseURL.absoluteString == "http://127.0.0.1:8181/proxy/__tracksnap/s/x/")
    }

    @Test("a session's base URL and header attribute traffic to it; odd ids stay one path segment")
    func attribution() throws {
        let client = TracksnapClient(baseURL: try #require(URL(string: "http://127.0.0.1:8181")))
        #expect(client.session(id: "s1").baseURL.absoluteString == "http://127.0.0.1:8181/__tracksnap/s/s1/")
        #expect(client.session(id: "a/b?c").baseURL.absoluteString == "http://127.0.0.1:8181/__tracksnap/s/a%2Fb%3Fc/")
        #expect(client.session(id: "s1").header == (name: "X-Tracksnap-Session", value: "s1"))
        #expect(TracksnapClient.sessionHeader == "X-Tracksnap-Session")
    }

    @Test("validate posts the snapshot and validator and reads the JSON report")
    func validate() async throws {
        let report = #"""
            {"findings":[{"actual":"addToCart","code":"value_mismatch","column":15,"entry":"/requests/0","expected":"add_to_cart","line":9,"message":"expected \"add_to_cart\", got \"addToCart\"","path":"/requests/0/parameters/ev","request":{"id":"3","index":2,"method":"GET","url":"https://c.example/e?ev=addToCart"},"severity":"error","snapshot":"Snapshots/a.json"}],
             "passed":false,"snapshots":[{"captured":4,"entries":[{"column":5,"line":7,"path":"/requests/0","request":{"id":"3","index":2,"method":"GET","url":"https://c.example/e?ev=addToCart"},"status":"mismatched","summary":"GET https://c.example/e"}],"file":"Snapshots/a.json","findings":[],"name":"a","passed":false,"profile":"default","selected":4}],"version":1}
            """#
        let (client, capture) = try stubbedClient { _ in json(report) }
        let result = try await client.session(id: "s1").validate(snapshot: "Snapshots/a.json", validator: "segment")

        let sent = try #require(capture.requests.first)
        #expect(sent.method == "POST")
        #expect(sent.url == "http://127.0.0.1:8181/__tracksnap/sessions/s1/validate")
        #expect(sent.bodyText == #"{"snapshot":"Snapshots/a.json","validator":"segment"}"#)
        #expect(result.passed == false)
        #expect(result.version == 1)
        let finding = try #require(result.findings.first)
        #expect(finding.code == "value_mismatch")
        #expect(finding.line == 9)
        #expect(finding.expected == .string("add_to_cart"))
        #expect(finding.actual == .string("addToCart"))
        #expect(finding.request?.index == 2)
        #expect(finding.snapshot == "Snapshots/a.json")
        #expect(result.snapshots.first?.entries.first?.status == "mismatched")
        #expect(result.snapshots.first?.captured == 4)
        #expect(result.json == report)
    }

    @Test("validate without a validator leaves it out")
    func validateWithoutValidator() async throws {
        let (client, capture) = try stubbedClient { _ in
            json(#"{"findings":[],"passed":true,"snapshots":[],"version":1}"#)
        }
        let result = try await client.session(id: "s1").validate(snapshot: "a.json")
        #expect(capture.requests.first?.bodyText == #"{"snapshot":"a.json"}"#)
        #expect(result.passed)
    }

    @Test(
        "an error answer carries the status and the server's message",
        arguments: [
            (#"{"error":"no session \"nope\""}"#, "no session \"nope\""),
            (#"{"message":"bad token"}"#, "bad token"),
            (#"{"error":{"message":"nested"}}"#, "nested"),
            ("plain text failure\n", "plain text failure"),
        ])
    func serverError(body: String, message: String) async throws {
        let (client, _) = try stubbedClient { _ in json(body, status: 404) }
        let error = await #expect(throws: TracksnapClientError.self) { _ = try await client.session(id: "nope").stop() }
        #expect(error?.status == 404)
        #expect(error?.message == message)
        #expect(error?.method == "DELETE")
        #expect(error?.description == "DELETE http://127.0.0.1:8181/__tracksnap/sessions/nope: 404: \(message)")
    }

    @Test("a malformed captured request is an error naming the element and the member")
    func malformedRequest() async throws {
        let (client, _) = try stubbedClient { _ in
            json(#"[{"method":"GET","url":"https://a.example/"},{"method":"GET"}]"#)
        }
        let error = await #expect(throws: TracksnapClientError.self) { _ = try await client.requests() }
        #expect(error?.message.contains("captured request[1]") == true)
        #expect(error?.message.contains("url") == true)
    }

    @Test("an answer that is not an array is an error")
    func notAnArray() async throws {
        let (client, _) = try stubbedClient { _ in json(#"{"oops":true}"#) }
        await #expect(throws: TracksnapClientError.self) { _ = try await client.requests() }
    }

    @Test("a server that cannot be reached is an error without a status")
    func unreachable() async throws {
        let port: Int
        do { port = try await EchoServer.start().port }  // a port nothing listens on once the server is gone
        let client = TracksnapClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")))
        let error = await #expect(throws: TracksnapClientError.self) { try await client.health() }
        #expect(error?.status == nil)
        #expect(error?.url == "http://127.0.0.1:\(port)/__tracksnap/health")
    }
}
