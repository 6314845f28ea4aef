import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("Proxies", .tags(.process, .network), .leftToMakeTest)
struct ProxyTests {
    @Test("the reverse proxy forwards to the upstream, returns its answer and records the request")
    func reverseProxy() async throws {
        let upstreamAnswer = CaptureServer.CollectorResponse(status: 202, contentType: "text/plain", body: "accepted")
        try await withServer(.init(collectorResponse: upstreamAnswer)) { upstream, upstreamPort in
            let upstreamURL = try #require(URL(string: "http://127.0.0.1:\(upstreamPort)/base/"))
            try await withServer(.init(upstream: upstreamURL)) { proxy, port in
                let id = try await startSession(port)
                _ = try await startSession(port)  // two sessions: the base URL decides
                let response = try await RawHTTP.send(
                    port: port, method: "POST", target: "/__tracksnap/s/\(id)/v1/batch?x=1", host: "api.segment.io",
                    headers: [("Keep-Alive", "timeout=5"), ("X-Custom", "yes")], body: Array(#"{"batch":[]}"#.utf8))
                #expect(response.status == 202)
                #expect(response.text == "accepted")
                #expect(response.header("Content-Type") == "text/plain")

                let recorded = try #require(proxy.store.requests(inSession: id)?.first)
                #expect(recorded.url == "http://api.segment.io/v1/batch?x=1")
                #expect(recorded.body == .text(#"{"batch":[]}"#))

                let forwarded = try #require(upstream.store.requests().first)
                #expect(forwarded.url == "http://127.0.0.1:\(upstreamPort)/base/v1/batch?x=1")
                #expect(forwarded.header("X-Custom") == "yes")
                #expect(forwarded.header("Keep-Alive") == nil)
                #expect(forwarded.body == .text(#"{"batch":[]}"#))
            }
        }
    }

    @Test("an upstream answer larger than --max-body-size is 502 saying so, not buffered; one within it passes whole")
    func upstreamAnswerBounded() async throws {
        let limit = 1024 * 1024
        for (size, status) in [(limit / 2, 200), (limit + 1, 502), (8 * limit, 502)] {
            let answer = CaptureServer.CollectorResponse(
                contentType: "text/plain", body: String(repeating: "x", count: size))
            try await withServer(.init(collectorResponse: answer)) { _, upstreamPort in
                let upstream = try #require(URL(string: "http://127.0.0.1:\(upstreamPort)"))
                // Reverse proxy, and forward proxy (absolute-form) alike.
                try await withServer(.init(upstream: upstream, maximumBodySize: limit)) { proxy, port in
                    let reverse = try await RawHTTP.send(port: port, target: "/big")
                    let forward = try await RawHTTP.send(port: port, target: "http://127.0.0.1:\(upstreamPort)/big")
                    for response in [reverse, forward] {
                        #expect(response.status == status, "\(size) bytes")
                        if status == 200 {
                            #expect(response.body.count == size)
                        } else {
                            let message = try #require(try json(response.text)["error"]?.stringValue)
                            #expect(
                                message.contains("is larger than the limit of 1048576 bytes (--max-body-size)"),
                                "\(message)")
                        }
                    }
                    #expect(proxy.store.requests().count == 2, "recorded either way")
                }
            }
        }
    }

    @Test("with the upstream down, the client gets 502 and the request is still recorded")
    func upstreamDown() async throws {
        try await withClosedPort { dead in
            let upstream = try #require(URL(string: "http://127.0.0.1:\(dead)"))
            try await withServer(.init(upstream: upstream)) { server, port in
                let response = try await RawHTTP.send(
                    port: port, method: "POST", target: "/v1/t", body: Array("{}".utf8))
                #expect(response.status == 502)
                #expect(try json(response.text)["error"]?.stringValue?.contains("\(dead)") == true)
                #expect(server.store.requests().map(\.url) == ["http://127.0.0.1:\(port)/v1/t"])
            }
        }
    }

    @Test("curl -x: an absolute-form request is forwarded to its target and recorded")
    func forwardProxy() async throws {
        try await withServer(.init(collectorResponse: .init(body: #"{"from":"target"}"#))) { target, targetPort in
            try await withServer { proxy, port in
                let result = try await curl(
                    "-x", "http://127.0.0.1:\(port)", "-H", "X-Probe: 1", "--data", "ev=view",
                    "http://127.0.0.1:\(targetPort)/collect?v=2")
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout == #"{"from":"target"}"#)
                let recorded = try #require(proxy.store.requests().first)
                #expect(recorded.method == "POST")
                #expect(recorded.url == "http://127.0.0.1:\(targetPort)/collect?v=2")
                #expect(recorded.body == .text("ev=view"))
                let arrived = try #require(target.store.requests().first)
                #expect(arrived.header("X-Probe") == "1")
                #expect(arrived.header("Proxy-Connection") == nil)
            }
        }
    }

    @Test("curl -p -x: CONNECT opens a tunnel, recorded with its host and port")
    func connectTunnelWithCurl() async throws {
        try await withServer { target, targetPort in
            try await withServer { proxy, port in
                let result = try await curl(
                    "-p", "-x", "http://127.0.0.1:\(port)", "http://127.0.0.1:\(targetPort)/through?x=1")
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout == CollectorAnswer.body)
                let recorded = try #require(proxy.store.requests().first)
                #expect(recorded.method == "CONNECT")
                #expect(recorded.url == "https://127.0.0.1:\(targetPort)")
                #expect(target.store.requests().map(\.url) == ["http://127.0.0.1:\(targetPort)/through?x=1"])
            }
        }
    }

    @Test("a CONNECT tunnel carries raw bytes both ways")
    func connectTunnelRaw() async throws {
        try await withServer { target, targetPort in
            try await withServer { _, port in
                let response = try await offloaded { () throws -> [UInt8] in
                    // 30 s, as RawHTTP's: a loaded CI machine once took more than 10 s to answer.
                    let socket = try Socket(port: port, timeout: 30)
                    defer { socket.close() }
                    try socket.write(
                        Array("CONNECT 127.0.0.1:\(targetPort) HTTP/1.1\r\nHost: 127.0.0.1:\(targetPort)\r\n\r\n".utf8))
                    let established = String(decoding: try socket.readHead(), as: UTF8.self)
                    guard established.hasPrefix("HTTP/1.1 200") else { throw RawHTTP.Failure(description: established) }
                    try socket.write(Array("GET /raw HTTP/1.1\r\nHost: t.example\r\nConnection: close\r\n\r\n".utf8))
                    return try socket.readToEnd()
                }
                let parsed = try RawHTTP.parse(response)
                #expect(parsed.status == 200)
                #expect(parsed.text == CollectorAnswer.body)
                #expect(target.store.requests().map(\.url) == ["http://t.example/raw"])
            }
        }
    }

    @Test("a CONNECT to a closed port gets 502 and is recorded")
    func connectRefused() async throws {
        try await withClosedPort { dead in
            try await withServer { server, port in
                let response = try await RawHTTP.exchange(
                    port: port, Array("CONNECT 127.0.0.1:\(dead) HTTP/1.1\r\nHost: 127.0.0.1:\(dead)\r\n\r\n".utf8))
                #expect(response.status == 502)
                #expect(server.store.requests().map(\.method) == ["CONNECT"])
            }
        }
    }
}
