import Foundation
import Testing
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@testable import TracksnapServer

/// `serve --intercept`: curl and small misbehaving clients through the proxy, offline (the
/// answering tests reach no vendor; the forwarding ones reach a TLS server of the test's own).
@Suite("HTTPS interception", .tags(.process, .network), .leftToMakeTest)
struct InterceptionTests {
    static let track = #"{"type":"track","event":"Order Completed","userId":"user-42","properties":{"revenue":12.5}}"#

    @Test(
        "curl to https://api.segment.io through the proxy with --answer: recorded under its https URL, answered as the collector"
    )
    func answersHTTP1() async throws {
        try await withAuthority { authority in
            let notices = Notices()
            let configuration = try interceptingConfiguration(
                ["*.segment.io"], answer: true, authority: authority, notices: notices)
            try await withServer(configuration) { server, port in
                let result = try await curlThroughProxy(
                    port,
                    [
                        "--http1.1", "-H", "Content-Type: application/json", "-d", Self.track, "-w",
                        "\n%{http_version}",
                        "https://api.segment.io/v1/track?x=1",
                    ], trusting: authority)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout == CollectorAnswer.body + "\n1.1")
                let captured = server.store.requests()
                #expect(captured.map(\.url) == ["https://api.segment.io/v1/track?x=1"])
                #expect(captured.first?.method == "POST")
                #expect(captured.first?.body == .text(Self.track))
                #expect(
                    captured.first?.headers.contains { $0.name.lowercased() == "host" && $0.value == "api.segment.io" }
                        == true)
                // The CONNECT itself is not recorded: only what was inside it.
                #expect(!captured.contains { $0.method == "CONNECT" })
                #expect(server.store.statistics.interceptFailures == 0)
                #expect(notices.all.isEmpty)
            }
        }
    }

    @Test("curl --http2 negotiates h2 by ALPN and is recorded the same as HTTP/1.1")
    func answersHTTP2() async throws {
        try await withAuthority { authority in
            let configuration = try interceptingConfiguration(
                ["api.segment.io"], answer: true, authority: authority, notices: Notices())
            try await withServer(configuration) { server, port in
                var recorded: [CapturedRequest] = []
                for version in ["--http1.1", "--http2"] {
                    let result = try await curlThroughProxy(
                        port,
                        [
                            version, "-H", "Content-Type: application/json", "-d", Self.track, "-w",
                            "\n%{http_version}",
                            "https://api.segment.io/v1/track",
                        ], trusting: authority)
                    #expect(result.status == 0, "\(result.stderr)")
                    #expect(result.stdout == CollectorAnswer.body + (version == "--http2" ? "\n2" : "\n1.1"))
                    recorded = server.store.requests()
                }
                #expect(recorded.count == 2)
                let (first, second) = (try #require(recorded.first), try #require(recorded.last))
                #expect(first.url == second.url && first.method == second.method && first.body == second.body)
                #expect(second.url == "https://api.segment.io/v1/track")
                // HTTP/2's :authority reaches the recording as Host.
                #expect(second.headers.contains { $0.name.lowercased() == "host" && $0.value == "api.segment.io" })
            }
        }
    }

    @Test(
        "300 POSTs over one HTTP/2 connection from curl: every stream ends with its answer, so curl never resets one and the connection is never ended for a reset storm"
    )
    func manyRequestsOnOneHTTP2Connection() async throws {
        try await withAuthority { authority in
            let configuration = try interceptingConfiguration(
                ["api.segment.io"], answer: true, authority: authority, notices: Notices())
            try await withServer(configuration) { server, port in
                // One operation for each POST (curl joins the `data` of one operation; an operation
                // after `next` inherits no option), in sequence: curl keeps the connection and
                // counts each new one it opens.
                let count = 300
                let operation = """
                    url = "https://api.segment.io/v1/track"
                    proxy = "http://127.0.0.1:\(port)"
                    cacert = "\(authority.certificatePath)"
                    http2
                    data = "{}"
                    output = "/dev/null"
                    write-out = "%{num_connects}\\n"

                    """
                let configFile = FileManager.default.temporaryDirectory.appending(path: "tracksnap-h2-\(port).cfg")
                try Array(repeating: operation, count: count).joined(separator: "next\n").write(
                    to: configFile, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(at: configFile) }
                let result = try await curlThroughProxy(port, ["--config", configFile.path], trusting: authority)
                #expect(result.status == 0, "\(result.stderr)")
                // Before the answer's last DATA frame carried END_STREAM, curl reset every stream
                // and NIO ended the connection (GOAWAY, ENHANCE_YOUR_CALM) after 200 of them.
                let connects = result.stdout.split(separator: "\n").compactMap { Int($0) }
                #expect(connects.count == count)
                #expect(connects.reduce(0, +) == 1, "curl opened \(connects.reduce(0, +)) connections")
                #expect(server.store.requests().count == count)
                #expect(server.store.statistics.interceptFailures == 0)
            }
        }
    }

    @Test("tunnels to hosts not named pass untouched: curl sees the real peer's certificate, not tracksnap's")
    func otherHostsTunnel() async throws {
        try await withAuthority { authority in
            try await withAuthority { upstreamAuthority in
                let upstream = try await UpstreamTLSServer.start(authority: upstreamAuthority)
                defer { Task { await upstream.stop() } }
                let configuration = try interceptingConfiguration(
                    ["api.segment.io"], answer: true, authority: authority, notices: Notices())
                try await withServer(configuration) { server, port in
                    let url = "https://127.0.0.1:\(upstream.port)/v1/track"
                    // Trusting only tracksnap's CA fails: the certificate is the upstream's own.
                    let refused = try await curlThroughProxy(port, ["-d", "{}", url], trusting: authority)
                    #expect(refused.status == 60, "\(refused.stderr)")
                    let passed = try await curlThroughProxy(
                        port, ["-d", "{}", "--cacert", upstreamAuthority.certificatePath, url], trusting: nil)
                    #expect(passed.stdout == "upstream saw POST /v1/track with 2 bytes", "\(passed.stderr)")
                    #expect(server.store.requests().map(\.method) == ["CONNECT", "CONNECT"])
                }
            }
        }
    }

    @Test(
        "forwarded to the real host over TLS verified with --upstream-ca: its answer reaches the client unchanged, and the request is recorded"
    )
    func forwards() async throws {
        try await withAuthority { authority in
            try await withAuthority { upstreamAuthority in
                let upstream = try await UpstreamTLSServer.start(authority: upstreamAuthority)
                defer { Task { await upstream.stop() } }
                let configuration = try interceptingConfiguration(
                    ["127.0.0.1"], answer: false, authority: authority, notices: Notices(),
                    upstreamCertificates: [upstreamAuthority.certificatePath])
                try await withServer(configuration) { server, port in
                    for version in ["--http1.1", "--http2"] {
                        let result = try await curlThroughProxy(
                            port, [version, "-i", "-d", Self.track, "https://127.0.0.1:\(upstream.port)/v1/track"],
                            trusting: authority)
                        #expect(result.status == 0, "\(result.stderr)")
                        // After the proxy's own `200 Connection Established`, the upstream's answer.
                        #expect(
                            result.stdout.contains(
                                version == "--http2" ? "\r\n\r\nHTTP/2 201" : "\r\n\r\nHTTP/1.1 201 Created"),
                            "\(result.stdout)")
                        #expect(result.stdout.lowercased().contains("x-upstream: yes"))
                        #expect(
                            result.stdout.hasSuffix("upstream saw POST /v1/track with \(Self.track.utf8.count) bytes"))
                    }
                    // The leaf for an IP literal carries it as an IP SAN: curl checked it above.
                    let captured = server.store.requests()
                    #expect(
                        captured.map(\.url) == Array(repeating: "https://127.0.0.1:\(upstream.port)/v1/track", count: 2)
                    )
                    #expect(captured.allSatisfy { $0.body == .text(Self.track) })
                }
            }
        }
    }

    @Test(
        "an upstream that is down: the client gets 502 saying the connection was refused, and the request is recorded")
    func upstreamDown() async throws {
        try await withAuthority { authority in
            try await withClosedPort { port in
                let configuration = try interceptingConfiguration(
                    ["127.0.0.1"], answer: false, authority: authority, notices: Notices())
                try await withServer(configuration) { server, proxy in
                    let result = try await curlThroughProxy(
                        proxy, ["-w", "\n%{http_code}", "-d", Self.track, "https://127.0.0.1:\(port)/v1/track"],
                        trusting: authority)
                    #expect(result.stdout.hasSuffix("\n502"), "\(result.stdout) \(result.stderr)")
                    #expect(
                        result.stdout.contains(
                            "could not reach https://127.0.0.1:\(port)/v1/track: connection refused: nothing listens at that address"
                        ), "\(result.stdout)")
                    #expect(!result.stdout.contains("errno"), "\(result.stdout)")
                    #expect(server.store.requests().map(\.url) == ["https://127.0.0.1:\(port)/v1/track"])
                }
            }
        }
    }

    @Test("an upstream whose certificate is not trusted: 502 naming the verification failure, the request recorded")
    func untrustedUpstream() async throws {
        try await withAuthority { authority in
            try await withAuthority { upstreamAuthority in
                let upstream = try await UpstreamTLSServer.start(authority: upstreamAuthority)
                defer { Task { await upstream.stop() } }
                // No --upstream-ca: the system's roots do not know the upstream's CA.
                let configuration = try interceptingConfiguration(
                    ["127.0.0.1"], answer: false, authority: authority, notices: Notices())
                try await withServer(configuration) { server, proxy in
                    let result = try await curlThroughProxy(
                        proxy, ["-w", "\n%{http_code}", "-d", "{}", "https://127.0.0.1:\(upstream.port)/v1/track"],
                        trusting: authority)
                    #expect(result.stdout.hasSuffix("\n502"), "\(result.stdout) \(result.stderr)")
                    #expect(result.stdout.contains("certificate verification failed"), "\(result.stdout)")
                    #expect(server.store.requests().count == 1)
                }
            }
        }
    }

    @Test("an upstream that speaks only TLS 1.0: 502 naming the protocol version, though curl reaches it directly")
    func oldTLSUpstream() async throws {
        try await withAuthority { authority in
            try await withTemporaryDirectory { directory in
                let (key, certificate) = (
                    directory.appending(path: "key.pem").path, directory.appending(path: "cert.pem").path
                )
                let made = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/env"),
                    [
                        "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", key, "-out", certificate, "-subj", "/CN=127.0.0.1", "-days", "2", "-addext",
                        "subjectAltName=IP:127.0.0.1",
                    ])
                try #require(made.status == 0, "\(made.stderr)")
                // OpenSSL 3 allows TLS 1.0 at security level 0 only; without DHE it prints where it
                // listens first.
                let upstream = try await ChildProcess.launch(
                    URL(fileURLWithPath: "/usr/bin/env"),
                    [
                        "openssl", "s_server", "-accept", "127.0.0.1:0", "-no_dhe", "-tls1", "-cipher",
                        "DEFAULT:@SECLEVEL=0",
                        "-www", "-cert", certificate, "-key", key,
                    ])
                defer { upstream.stop() }
                let port = try #require(
                    upstream.firstLine.hasPrefix("ACCEPT 127.0.0.1:")
                        ? upstream.firstLine.split(separator: ":").last : nil,
                    "openssl s_server said \(upstream.firstLine)")
                let url = "https://127.0.0.1:\(port)/"
                let direct = try await curl(
                    "--tlsv1.0", "--tls-max", "1.0", "--ciphers", "DEFAULT:@SECLEVEL=0", "--cacert", certificate, "-o",
                    "/dev/null", "-w", "%{http_code}", url)
                try #require(direct.stdout == "200", "the TLS 1.0 upstream does not answer: \(direct.stderr)")

                let configuration = try interceptingConfiguration(
                    ["127.0.0.1"], answer: false, authority: authority, notices: Notices(),
                    upstreamCertificates: [certificate])
                try await withServer(configuration) { server, proxy in
                    let result = try await curlThroughProxy(proxy, ["-w", "\n%{http_code}", url], trusting: authority)
                    #expect(result.stdout.hasSuffix("\n502"), "\(result.stdout) \(result.stderr)")
                    #expect(result.stdout.contains("TLS 1.2"), "\(result.stdout)")
                    #expect(server.store.requests().map(\.url) == [url])
                }
            }
        }
    }

    @Test("plain HTTP inside an intercepted tunnel is parsed and recorded under its http URL")
    func plainHTTPInside() async throws {
        try await withAuthority { authority in
            let configuration = try interceptingConfiguration(
                ["analytics"], answer: true, authority: authority, notices: Notices())
            try await withServer(configuration) { server, port in
                let result = try await tunnelClient(port, "api.segment.io:80", "plain-http")
                #expect(result.stdout == "HTTP/1.1 200 OK\n", "\(result.stderr)")
                #expect(server.store.requests().map(\.url) == ["http://api.segment.io/v1/track"])
            }
        }
    }

    /// One bad client, what it should see, and the notice the server should give.
    struct BadClient: Sendable, CustomTestStringConvertible {
        var mode: String
        var notice: String
        var testDescription: String { mode }
    }

    @Test(
        "a bad client of an intercepted tunnel is logged and counted; the server serves the next one",
        arguments: [
            BadClient(
                mode: "untrusted",
                notice: "TLS handshake failed (a client that does not trust the tracksnap CA ends it so)"),
            BadClient(mode: "plain-garbage", notice: "not HTTP inside the tunnel"),
            BadClient(mode: "garbage-hello", notice: "TLS handshake failed"),
            BadClient(mode: "sni", notice: "the TLS server name sni.other.example is not the CONNECT target's"),
            BadClient(mode: "mid-request", notice: "the connection closed in the middle of POST /v1/track"),
        ])
    func badClients(_ client: BadClient) async throws {
        try await withAuthority { authority in
            let notices = Notices()
            let configuration = try interceptingConfiguration(
                ["api.segment.io"], answer: true, authority: authority, notices: notices)
            try await withServer(configuration) { server, port in
                if client.mode == "untrusted" {
                    // curl without --cacert: it refuses the certificate and alerts the server.
                    let result = try await curlThroughProxy(
                        port, ["-d", "{}", "https://api.segment.io/v1/track"], trusting: nil)
                    #expect(result.status == 60, "\(result.stderr)")
                } else {
                    let result = try await tunnelClient(port, "api.segment.io:443", client.mode, authority: authority)
                    #expect(result.status == 0, "\(result.stderr)")
                    if client.mode == "sni" { #expect(result.stdout.hasPrefix("handshake failed")) }
                    if client.mode == "plain-garbage" {
                        #expect(result.stdout == "HTTP/1.1 400 Bad Request\n" || result.stdout == "closed\n")
                    }
                }
                #expect(try await eventually { server.store.statistics.interceptFailures == 1 })
                #expect(notices.all.count == 1)
                #expect(
                    notices.all.first?.hasPrefix("intercept api.segment.io: \(client.notice)") == true, "\(notices.all)"
                )
                #expect(server.store.requests().isEmpty)
                // The server is still up, and so is interception.
                let next = try await curlThroughProxy(
                    port, ["-d", Self.track, "https://api.segment.io/v1/track"], trusting: authority)
                #expect(next.stdout == CollectorAnswer.body, "\(next.stderr)")
                #expect(server.store.requests().count == 1)
                #expect(server.store.statistics.interceptFailures == 1, "\(notices.all)")
            }
        }
    }

    @Test("a client that opens an intercepted tunnel and sends nothing is closed after the header timeout, and counted")
    func silentClient() async throws {
        try await withAuthority { authority in
            let notices = Notices()
            var configuration = try interceptingConfiguration(
                ["api.segment.io"], answer: true, authority: authority, notices: notices)
            configuration.headerTimeout = .seconds(1)
            try await withServer(configuration) { server, port in
                let closedAfter = try await offloaded { () throws -> Duration? in
                    let socket = try Socket(port: port, timeout: 10)
                    defer { socket.close() }
                    try socket.write(
                        Array("CONNECT api.segment.io:443 HTTP/1.1\r\nHost: api.segment.io:443\r\n\r\n".utf8))
                    guard String(decoding: try socket.readHead(), as: UTF8.self).hasPrefix("HTTP/1.1 200") else {
                        return nil
                    }
                    let opened = ContinuousClock.now
                    // "At last" is `Bounds.wait`: a loaded machine delays a close by seconds.
                    while ContinuousClock.now - opened < Bounds.wait {
                        if socket.closedByPeer(within: 100) { return ContinuousClock.now - opened }
                    }
                    return nil
                }
                let after = try #require(closedAfter, "the silent tunnel was never closed")
                #expect(after >= .milliseconds(900))
                #expect(server.store.statistics.interceptFailures == 1)
                #expect(
                    notices.all.first?.hasPrefix(
                        "intercept api.segment.io: no TLS handshake (nor HTTP request) within 1000 ms") == true,
                    "\(notices.all)")
            }
        }
    }

    @Test("leaf certificates: made once per host, kept within a bound, valid for days; an IP literal gets an IP SAN")
    func leaves() async throws {
        try await withAuthority { authority in
            let leaves = try LeafCertificates(authority: authority, capacity: 2)
            let first = try leaves.context(for: "a.example")
            #expect(try leaves.context(for: "A.example") === first)
            _ = try leaves.context(for: "b.example")
            _ = try leaves.context(for: "c.example")
            #expect(leaves.count == 2)
            // a.example was the least recently used: it was made again.
            #expect(try leaves.context(for: "a.example") !== first)

            try await withTemporaryDirectory { directory in
                for (host, san) in [("api.segment.io", "DNS:api.segment.io"), ("127.0.0.1", "IP Address:127.0.0.1")] {
                    let file = directory.appending(path: "\(host).der")
                    try Data(try leaves.certificateDER(for: host)).write(to: file)
                    let text = try await runProcess(
                        URL(fileURLWithPath: "/usr/bin/env"),
                        ["openssl", "x509", "-inform", "DER", "-in", file.path, "-noout", "-text"])
                    #expect(text.stdout.contains(san), "\(text.stdout)")
                    #expect(text.stdout.contains("CA:FALSE"))
                    #expect(text.stdout.contains("TLS Web Server Authentication"))
                    let dates = try await runProcess(
                        URL(fileURLWithPath: "/usr/bin/env"),
                        [
                            "openssl", "x509", "-inform", "DER", "-in", file.path, "-noout", "-checkend",
                            String(8 * 86400),
                        ])
                    // Valid now, expired within 8 days.
                    #expect(dates.status == 1, "\(dates.stdout)")
                    let verified = try await runProcess(
                        URL(fileURLWithPath: "/usr/bin/env"),
                        [
                            "sh", "-c", "openssl x509 -inform DER -in \"$1\" | openssl verify -CAfile \"$2\"", "-",
                            file.path, authority.certificatePath,
                        ])
                    #expect(verified.stdout.contains(": OK"), "\(verified.stdout) \(verified.stderr)")
                }
            }
        }
    }

    /// A server name no TLS library sends, and how the server's notice shows it.
    struct BadName: Sendable, CustomTestStringConvertible {
        var name: String
        var shown: String
        var testDescription: String { shown.count > 40 ? "a \(name.utf8.count)-byte name" : shown }
    }

    @Test(
        "a TLS server name that is no host name gets no certificate: the tunnel is closed, told (escaped) and counted",
        arguments: [
            BadName(name: "*", shown: #""*" is not a host name"#),
            BadName(name: "a\u{1B}[2J\n.example", shown: #""a\u{1B}[2J\n.example" is not a host name"#),
            BadName(
                name: String(repeating: "a", count: 61440),
                shown: "\"\(String(repeating: "a", count: 64))\"… is not a host name: it is 61440 bytes long"),
        ])
    func serverNameIsNoHostName(_ bad: BadName) async throws {
        try await withAuthority { authority in
            let notices = Notices()
            // An IP target: the only kind whose server name may differ from it, so the name is
            // the one a certificate would be made for.
            let configuration = try interceptingConfiguration(
                ["127.0.0.1"], answer: true, authority: authority, notices: notices)
            try await withServer(configuration) { server, port in
                let result = try await tunnelClient(port, "127.0.0.1:443", "hello-sni", serverName: bad.name)
                #expect(result.stdout == "closed\n", "\(result.stderr)")
                #expect(try await eventually { server.store.statistics.interceptFailures == 1 })
                #expect(notices.all.count == 1)
                #expect(
                    notices.all.first?.hasPrefix("intercept 127.0.0.1: the TLS server name \(bad.shown)") == true,
                    "\(notices.all.map { $0.prefix(300) })")
                #expect(notices.all.allSatisfy { $0.utf8.count < 400 })
                // The server is still up, and still makes certificates for names.
                let next = try await curlThroughProxy(
                    port, ["-d", Self.track, "https://127.0.0.1:443/v1/track"], trusting: authority)
                #expect(next.stdout == CollectorAnswer.body, "\(next.stderr)")
            }
        }
    }

    @Test("leaf certificates are made for host names and IP addresses only, and kept within a bound in bytes")
    func leafNamesAndBytes() async throws {
        try await withAuthority { authority in
            let leaves = try LeafCertificates(authority: authority, capacity: 1000, maximumBytes: 40_000)
            for bad in [
                "*", "*.example.com", "", "a..example", "-a.example", "a-.example", "a.example.", "a b.example",
                "a\u{0}.example", "a\u{7}.example", "é.example", String(repeating: "a", count: 64) + ".example",
                Array(repeating: "abcdefgh", count: 32).joined(separator: "."), String(repeating: "a", count: 61440),
            ] {
                #expect(throws: LeafCertificateError.self, "\(bad.prefix(80))") { try leaves.context(for: bad) }
            }
            #expect(leaves.count == 0)
            for good in [
                "api.segment.io", "API.Segment.IO", "localhost", "xn--bcher-kva.example", "my_bucket.example",
                "127.0.0.1", "::1", "[::1]", String(repeating: "a", count: 63) + ".example",
                Array(repeating: "abcdefg", count: 31).joined(separator: "."),
            ] {
                _ = try leaves.context(for: good)
            }
            // Each one costs its certificate and the context's overhead: the oldest went first.
            #expect(leaves.bytes <= 40_000)
            #expect(leaves.count >= 3 && leaves.count < 9, "\(leaves.count) kept")
        }
    }

    @Test("intercept patterns: all, analytics, *.DOMAIN, exact hosts, =answer and =forward; bad ones are refused")
    func patterns() throws {
        let interception = try Interception(
            ["api2.amplitude.com=forward", "*.segment.io", "analytics", "10.0.0.1=answer"], answer: true)
        #expect(interception.action(for: "API2.amplitude.com") == .forward)
        #expect(interception.action(for: "api.segment.io") == .answer)
        #expect(interception.action(for: "a.b.segment.io") == .answer)
        #expect(interception.action(for: "us.i.posthog.com") == .answer)
        #expect(interception.action(for: "www.google-analytics.com") == .answer)
        #expect(interception.action(for: "api.mixpanel.com") == .answer)
        #expect(interception.action(for: "10.0.0.1") == .answer)
        #expect(interception.action(for: "segment.io.evil.example") == nil)
        #expect(interception.action(for: "example.com") == nil)
        #expect(try Interception(["all"], answer: false).action(for: "example.com") == .forward)
        #expect(try Interception(["*.segment.io"], answer: false).action(for: "segment.io") == nil)
        for bad in ["", "a b", "x=maybe", "*.", "http://x/"] {
            #expect(throws: CaptureServerError.self) { try Interception([bad], answer: false) }
        }
    }

    @Test("a misspelt keyword is refused with the keyword meant; a single-label host is a host")
    func keywordTypos() throws {
        for typo in ["analytcs", "Analytic", "analytics2", "al", "alll=answer"] {
            let error = #expect(throws: CaptureServerError.self) { try Interception([typo], answer: false) }
            #expect(error?.message.contains("\"\(typo)\" is not a keyword") == true, "\(String(describing: error))")
            #expect(error?.message.contains("did you mean a") == true, "\(String(describing: error))")
        }
        let hosts = try Interception(["collector", "localhost", "[::1]", "analytcs.", "api.analytcs"], answer: false)
        for host in ["collector", "localhost", "::1", "analytcs", "analytcs.", "api.analytcs"] {
            #expect(hosts.action(for: host) == .forward, "\(host)")
        }
        #expect(hosts.action(for: "api.segment.io") == nil)
    }
}
