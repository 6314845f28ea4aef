import Foundation
import Testing
import TracksnapCapture
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("The control API trusts only what it should", .tags(.network), .leftToMakeTest)
struct ControlGuardTests {
    @Test("a page on another origin reads nothing: 403 and no CORS headers; the server's own origin and curl read")
    func foreignOriginReadsNothing() async throws {
        try await withServer { _, port in
            _ = try await RawHTTP.send(port: port, target: "/e?token=secret")
            let evil = try await control(port, "GET", "requests", headers: [("Origin", "https://evil.example")])
            #expect(evil.status == 403)
            #expect(!evil.text.contains("/e?token="))
            #expect(evil.headers.allSatisfy { !$0.name.lowercased().hasPrefix("access-control-") })
            #expect(try json(evil.text)["error"]?.stringValue?.contains("evil.example") == true)

            for origin in ["null", "http://127.0.0.1:\(port + 1)", "http://localhost.evil.example:\(port)"] {
                #expect(
                    try await control(port, "GET", "requests", headers: [("Origin", origin)]).status == 403, "\(origin)"
                )
            }

            let curl = try await control(port, "GET", "requests")
            #expect(curl.status == 200)
            #expect(curl.text.contains("/e?token="))  // its value hidden, as every answer hides secrets
            #expect(curl.header("Access-Control-Allow-Origin") == nil)
            #expect(curl.header("Cache-Control") == "no-store")

            let own = try await control(port, "GET", "requests", headers: [("Origin", "http://127.0.0.1:\(port)")])
            #expect(own.status == 200)
            #expect(own.header("Access-Control-Allow-Origin") == "http://127.0.0.1:\(port)")
        }
    }

    @Test(
        "a preflight from another origin for a control call is refused without CORS headers; the collector's still answers"
    )
    func foreignPreflight() async throws {
        try await withServer { _, port in
            let preflight: [(String, String)] = [
                ("Origin", "https://evil.example"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
            ]
            let control = try await RawHTTP.send(
                port: port, method: "OPTIONS", target: "/__tracksnap/reset", headers: preflight)
            #expect(control.status == 403)
            #expect(control.header("Access-Control-Allow-Origin") == nil)
            #expect(control.header("Access-Control-Allow-Methods") == nil)

            let collector = try await RawHTTP.send(
                port: port, method: "OPTIONS", target: "/v1/batch", headers: preflight)
            #expect(collector.status == 204)
            #expect(collector.header("Access-Control-Allow-Origin") == "https://evil.example")
        }
    }

    @Test(
        "a cross-site reset is refused and the store kept; a reset from curl still empties it",
        arguments: [
            ([("Origin", "https://evil.example")], "application/json", 403),
            ([("Sec-Fetch-Site", "cross-site")], "application/json", 403),
            ([("Sec-Fetch-Site", "same-site")], "application/json", 403),
            ([], "text/plain", 415),
            ([], "application/x-www-form-urlencoded", 415),
            ([], "multipart/form-data; boundary=x", 415),
        ] as [([(String, String)], String, Int)])
    func crossSiteReset(headers: [(String, String)], contentType: String, status: Int) async throws {
        try await withServer { server, port in
            _ = try await RawHTTP.send(port: port, target: "/e")
            let refused = try await RawHTTP.send(
                port: port, method: "POST", target: "/__tracksnap/reset",
                headers: headers + [("Content-Type", contentType)],
                body: Array("{}".utf8))
            #expect(refused.status == status)
            #expect(try json(refused.text)["error"]?.stringValue != nil)
            #expect(server.store.requests().count == 1, "the refused reset changed nothing")

            let reset = try await RawHTTP.send(
                port: port, method: "POST", target: "/__tracksnap/reset",
                headers: [("Content-Type", "application/json")],
                body: Array("{}".utf8))
            #expect(reset.status == 200)
            #expect(server.store.requests().isEmpty)
        }
    }

    @Test("state-changing calls from the server's own origin, or without a body, pass")
    func ownOriginChanges() async throws {
        try await withServer { server, port in
            let started = try await control(
                port, "POST", "sessions", body: #"{"name":"n"}"#,
                headers: [("Origin", "http://localhost:\(port)"), ("Sec-Fetch-Site", "same-origin")])
            #expect(started.status == 201)
            #expect(started.header("Access-Control-Allow-Origin") == "http://localhost:\(port)")
            let id = try #require(try json(started.text)["id"]?.stringValue)
            #expect(
                try await RawHTTP.send(port: port, method: "DELETE", target: "/__tracksnap/sessions/\(id)").status
                    == 200)
            #expect(try await RawHTTP.send(port: port, method: "POST", target: "/__tracksnap/reset").status == 200)
            #expect(server.store.sessions.isEmpty)
        }
    }

    @Test(
        "a rebinding Host is refused with 421; the server's own names and --allow-host pass",
        arguments: [
            ("attacker.example", 421), ("attacker.example:PORT", 421), ("127.0.0.1:OTHER", 421),
            ("127.evil.example:PORT", 421),
            ("", 421), ("127.0.0.1:PORT", 200), ("localhost:PORT", 200), ("LOCALHOST:PORT", 200), ("[::1]:PORT", 200),
            ("tracksnap.internal", 200), ("tracksnap.internal:8443", 200), ("ci-box:1234", 200), ("ci-box:PORT", 421),
        ] as [(String, Int)])
    func rebindingHost(host: String, status: Int) async throws {
        try await withServer(.init(allowedHosts: ["tracksnap.internal", "ci-box:1234"])) { server, port in
            let named = host.replacingOccurrences(of: "OTHER", with: String(port + 1)).replacingOccurrences(
                of: "PORT", with: String(port))
            let response = try await RawHTTP.send(port: port, target: "/__tracksnap/health", host: named)
            #expect(response.status == status, "\(named): \(response.text)")
            if status == 421 {
                #expect(try json(response.text)["error"]?.stringValue?.contains("--allow-host") == true)
            }

            // Captured traffic is never gated by Host.
            let captured = try await RawHTTP.send(
                port: port, target: "/collect", host: named.isEmpty ? "attacker.example" : named)
            #expect(captured.status == 200)
            #expect(server.store.requests().count == 1)
        }
    }

    @Test(
        "TracksnapClient drives the guarded API as before, on 127.0.0.1 and on localhost",
        arguments: ["127.0.0.1", "localhost"])
    func clientStillWorks(host: String) async throws {
        try await withServer { _, port in
            let client = TracksnapClient(baseURL: try #require(URL(string: "http://\(host):\(port)")))
            try await client.health()
            let session = try await client.startSession(name: "checkout")
            _ = try await RawHTTP.send(port: port, method: "POST", target: "/v1/t", body: Array("{}".utf8))
            #expect(try await session.stop().count == 1)
            try await client.reset()
            #expect(try await client.requests().isEmpty)
        }
    }
}
