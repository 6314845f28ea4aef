import Foundation
import Synchronization
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapServer

@Suite(
    "The request log cannot be forged: every control character a client sends is made visible",
    .tags(.process, .network), .leftToMakeTest)
struct RequestLogEscapingTests {
    /// Characters that end a line, drive a terminal or reorder what it shows.
    static let hostile: [Unicode.Scalar] = [
        "\n", "\r", "\u{0B}", "\u{0C}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{2029}", "\u{202E}",
        "\u{2066}",
    ]

    /// Whether a rendered line holds any of them.
    static func isClean(_ line: String) -> Bool {
        !line.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || hostile.contains(scalar)
        }
    }

    /// A line of the log is forged when it holds a line break, or one of its lines starts a CI
    /// workflow command.
    static func expectUnforged(_ log: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for line in log.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(
                !line.hasPrefix("::"), "a workflow command: \(line.debugDescription)", sourceLocation: sourceLocation)
            #expect(
                isClean(String(line)), "a control character: \(line.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    @Test("each field of a line, each character", arguments: hostile)
    func everyField(_ scalar: Unicode.Scalar) {
        let bad = "x\(Character(scalar))::error::forged"
        let line = RequestLogLine(
            time: "2026-11-24T10:00:00.000Z", session: "s1" + bad, method: "GET" + bad,
            url: "https://t.example/" + bad, status: 200, notAttributed: "not attributed: " + bad, refused: bad)
        let text = line.description
        #expect(Self.isClean(text), "\(text.debugDescription)")
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix("10:00:00.000 s1x"))
        #expect(text.contains("GETx"), "the rest of the field stays: \(text)")
    }

    @Test("a line shows what was escaped: \\n, \\r, and the code point of the others")
    func visibleForms() {
        let line = RequestLogLine(
            time: "2026-11-24T10:00:00.000Z", session: nil, method: "GET\n::error::x",
            url: "https://t.example/\u{1B}[31mred\r\n", status: nil, notAttributed: nil)
        #expect(line.description == #"10:00:00.000 - GET\n::error::x https://t.example/⟨U+001B⟩[31mred\r\n -"#)
    }

    @Test(
        "a recorded request's line: an intercepted URL's host (the TLS server name) and a session hint are escaped, the URL's secrets redacted"
    )
    func recordedRequest() {
        let request = CapturedRequest(
            id: "1", time: "2026-11-24T10:00:00.000Z", method: "GET",
            url: "https://api.segment.io\u{1B}]0;title\u{07}\n::add-mask::x/v1/p?access_token=tok_4417")
        let line = RequestLogLine(
            request: request, attribution: .unattributed(openSessions: 2, hint: "s9\n::error::y\u{1B}[2J"), status: 200,
            redactor: Redactor(requests: [request]))
        Self.expectUnforged(line.description)
        #expect(!line.description.contains("tok_4417"))
        #expect(line.description.contains(#"no open session "s9\n::error::y⟨U+001B⟩[2J""#), "\(line.description)")

        // A session name is whatever the client sent: an email or a token is not logged in clear.
        let named = RequestLogLine(
            request: request,
            attribution: .unattributed(
                openSessions: 1, hint: "planted.person@example.org eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2ln"),
            status: 200, redactor: Redactor(requests: [request]))
        #expect(named.description.contains(#"no open session "p***@example.org [redacted]""#), "\(named.description)")
    }

    @Test(
        "ingested URLs: the log tracksnap serve writes on stderr holds no forged line; a forged method is refused, not logged"
    )
    func ingestedThroughServe() async throws {
        let server = try await ServeChild.launch()
        defer { server.stop() }
        let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
        // A method is an HTTP token, or the call records nothing (and so logs nothing).
        let forged = #"[{"method": "GET\n::error::forged-method", "url": "https://t.example/"}]"#
        await #expect(throws: (any Error).self) {
            try await server.call("POST", "sessions/\(session)/requests", body: Data(forged.utf8))
        }
        let records = #"""
            [{"method": "GET", "url": "https://t.example/\u001b[31mred\r\n::add-mask::forged-url?access_token=tok_5521"},
             {"method": "POST", "url": "https://t.example/\u0085\u009b31m"}]
            """#
        _ = try await server.call("POST", "sessions/\(session)/requests", body: Data(records.utf8))
        server.stop()
        _ = try await server.waitForExit()
        let log = try String(contentsOf: server.stderrURL, encoding: .utf8)
        #expect(!log.contains("forged-method"), "\(log)")
        #expect(log.contains(#"GET https://t.example/⟨U+001B⟩[31mred\r\n::add-mask::forged-url"#), "\(log)")
        #expect(!log.contains("tok_5521"))
        Self.expectUnforged(log.hasSuffix("\n") ? String(log.dropLast()) : log)
        #expect(log.split(separator: "\n").count == 2, "one line per request: \(log)")
    }

    @Test("an intercepted HTTP/2 request's :path and session header value: escaped in the line")
    func http2() async throws {
        try await withAuthority { authority in
            let notices = Notices()
            let lines = Mutex<[String]>([])
            var configuration = try interceptingConfiguration(
                ["api.segment.io"], answer: true, authority: authority, notices: notices)
            configuration.requestLog = { line in lines.withLock { $0.append(line.description) } }
            try await withServer(configuration) { server, port in
                _ = try await startSession(port)
                _ = try await startSession(port)  // two open: the hint that names neither is told
                let seen = try await InterceptedHTTP2TimeoutTests.h2Client(port, authority: authority, "hostile")
                let logged = try await eventually { !lines.withLock { $0 }.isEmpty }
                let log = lines.withLock { $0 }.joined(separator: "\n")
                #expect(logged, "nothing logged: \(seen), \(notices.all), \(server.store.requests().map(\.url))")
                Self.expectUnforged(log)
                #expect(log.contains(#"/v1/pixel?x=⟨U+202E⟩::error::from-h2-path"#), "\(log)")
                #expect(log.contains(#"no open session "s9⟨U+001B⟩[2J⟨U+2028⟩::add-mask::from-h2-header""#), "\(log)")
                // NIO's HTTP/2 refuses control characters in a :path: that stream is reset, unlogged.
                #expect(seen.statuses == [200], "\(seen)")
                #expect(seen.resets == 1, "\(seen)")
                #expect(!log.contains("from-h2-line-break"))
            }
        }
    }
}
