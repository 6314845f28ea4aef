import Foundation
import Testing
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The collector", .tags(.process, .network), .leftToMakeTest)
struct CollectorTests {
    @Test("answers 200 {} as JSON and records method, absolute URL, headers in order and body")
    func answersAndRecords() async throws {
        try await withServer { server, port in
            let response = try await RawHTTP.send(
                port: port, method: "POST", target: "/v1/track?write_key=k1", host: "collect.acme.example",
                headers: [("Content-Type", "application/json"), ("X-B", "2"), ("X-A", "1")],
                body: Array(#"{"event":"purchase"}"#.utf8))
            #expect(response.status == 200)
            #expect(response.text == CollectorAnswer.body)
            #expect(response.header("Content-Type") == "application/json")

            let captured = server.store.requests()
            try #require(captured.count == 1)
            let request = captured[0]
            #expect(request.method == "POST")
            #expect(request.url == "http://collect.acme.example/v1/track?write_key=k1")
            #expect(
                request.headers.map(\.name) == ["Host", "Content-Type", "X-B", "X-A", "Content-Length", "Connection"])
            #expect(request.body == .text(#"{"event":"purchase"}"#))
            #expect(request.id == "1")
            #expect(request.session == nil)
            let time = try #require(request.time)
            #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        }
    }

    @Test("undoes a body's content encoding", arguments: ["gzip", "deflate"])
    func undoesContentEncoding(encoding: String) async throws {
        let text = #"{"batch":[{"event":"view","properties":{"page":"/home"}}]}"#
        let compressed = try await compress(text, encoding: encoding)
        try await withServer { server, port in
            let response = try await RawHTTP.send(
                port: port, method: "POST", target: "/v1/batch", headers: [("Content-Encoding", encoding)],
                body: compressed)
            #expect(response.status == 200)
            #expect(server.store.requests().first?.body == .text(text))
        }
    }

    @Test("keeps a binary body as base64")
    func binaryBody() async throws {
        let bytes: [UInt8] = [0xFF, 0x00, 0xFE, 0x80]
        try await withServer { server, port in
            _ = try await RawHTTP.send(port: port, method: "POST", target: "/bin", body: bytes)
            #expect(server.store.requests().first?.body == .base64(Data(bytes).base64EncodedString()))
        }
    }

    @Test("answers CORS preflights itself without recording them, and echoes the origin")
    func cors() async throws {
        try await withServer { server, port in
            let preflight = try await RawHTTP.send(
                port: port, method: "OPTIONS", target: "/v1/track",
                headers: [
                    ("Origin", "https://shop.example"), ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", "content-type"),
                ])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "https://shop.example")
            #expect(preflight.header("Access-Control-Allow-Headers") == "content-type")
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("POST") == true)
            #expect(server.store.requests().isEmpty)

            let beacon = try await RawHTTP.send(
                port: port, method: "POST", target: "/v1/track", headers: [("Origin", "https://shop.example")],
                body: Array("{}".utf8))
            #expect(beacon.header("Access-Control-Allow-Origin") == "https://shop.example")
            #expect(beacon.header("Access-Control-Allow-Credentials") == "true")
            #expect(server.store.requests().count == 1)
        }
    }

    @Test("a real URLSession client is answered and recorded")
    func urlSession() async throws {
        try await withServer { server, port in
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/g/collect?v=2&en=page_view"))
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = Data("en=scroll".utf8)
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
            let session = URLSession(configuration: .ephemeral)
            let (data, response) = try await session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == CollectorAnswer.body)
            let captured = try #require(server.store.requests().first)
            #expect(captured.url == "http://127.0.0.1:\(port)/g/collect?v=2&en=page_view")
            #expect(captured.body == .text("en=scroll"))
            #expect(captured.header("Content-Type") == "text/plain")
        }
    }
}

/// Compresses text with the system's gzip tool (zlib-wrapped for deflate, as the header means).
func compress(_ text: String, encoding: String) async throws -> [UInt8] {
    let python = """
        import sys, zlib, gzip
        data = sys.argv[2].encode()
        out = gzip.compress(data) if sys.argv[1] == "gzip" else zlib.compress(data)
        sys.stdout.write(out.hex())
        """
    let result = try await run("/usr/bin/env", ["python3", "-c", python, encoding, text])
    try #require(result.status == 0, "python3: \(result.stderr)")
    var bytes: [UInt8] = []
    var index = result.stdout.startIndex
    while index < result.stdout.endIndex {
        let next = result.stdout.index(index, offsetBy: 2)
        bytes.append(try #require(UInt8(result.stdout[index..<next], radix: 16)))
        index = next
    }
    return bytes
}
