import Foundation
import Testing
import TracksnapCapture
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the echo server says it received.
struct Echo: Decodable {
    var method: String
    var path: String
    var headers: [String: String]
    var body: String
}

@Suite("Pass-through capture forwards to the network", .tags(.network), .leftToMakeTest)
struct PassThroughTests {
    @Test("a POST reaches the server with its body and headers, the app gets the server's answer, and it is recorded")
    func forwardsAndRecords() async throws {
        let server = try await EchoServer.start()
        let (session, capture) = capturedSession(.passThrough)
        var request = URLRequest(
            url: server.baseURL.appending(path: "v1/track").appending(queryItems: [
                URLQueryItem(name: "ev", value: "buy")
            ]))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"event":"purchase"}"#.utf8)
        let (data, response) = try await session.data(for: request)

        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "X-Echo") == "yes")
        let echo = try JSONDecoder().decode(Echo.self, from: data)
        #expect(echo.method == "POST")
        #expect(echo.path == "/v1/track?ev=buy")
        #expect(echo.body == #"{"event":"purchase"}"#)
        #expect(echo.headers["content-type"] == "application/json")

        let captured = try #require(capture.requests.first)
        #expect(capture.requests.count == 1, "the forwarded request is not captured a second time")
        #expect(captured.url == server.baseURL.absoluteString + "/v1/track?ev=buy")
        #expect(captured.bodyText == #"{"event":"purchase"}"#)
    }

    @Test("a streamed body is forwarded whole after being read for the record")
    func forwardsStreamedBody() async throws {
        let server = try await EchoServer.start()
        let (session, capture) = capturedSession(.passThrough)
        var request = URLRequest(url: server.baseURL.appending(path: "batch"))
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Data("a=1&b=2".utf8))
        let (data, _) = try await session.data(for: request)

        #expect(try JSONDecoder().decode(Echo.self, from: data).body == "a=1&b=2")
        #expect(capture.requests.first?.bodyText == "a=1&b=2")
    }

    @Test("the server's status is passed on")
    func passesStatus() async throws {
        let server = try await EchoServer.start()
        let (session, _) = capturedSession(.passThrough)
        let (_, response) = try await session.data(from: server.baseURL.appending(path: "status207"))
        #expect((response as? HTTPURLResponse)?.statusCode == 207)
    }

    @Test("a server that is down fails the app's request, and the request is still recorded")
    func serverDown() async throws {
        let port: Int
        do {
            let server = try await EchoServer.start()
            port = server.port
        }
        let (session, capture) = capturedSession(.passThrough)
        await #expect(throws: (any Error).self) {
            _ = try await session.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/down")))
        }
        #expect(capture.requests.map(\.url) == ["http://127.0.0.1:\(port)/down"])
    }
}
