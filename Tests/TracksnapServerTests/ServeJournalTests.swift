import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("tracksnap serve --journal keeps no secret", .tags(.process, .network), .leftToMakeTest)
struct ServeJournalTests {
    /// The Segment example's batch, sent by analytics-python with its write key in Basic auth.
    static let segmentCapture = "Snapshots/examples/captures/segment.ndjson"
    static let segmentSnapshot = "Snapshots/examples/segment.json"

    /// Every secret the test's requests carry, as they would show in the journal's text.
    static let secrets = [
        "wk_test_fixture_segment",  // the example's write key…
        "d2tfdGVzdF9maXh0dXJlX3NlZ21lbnQ6",  // …as its Basic Authorization header carries it
        "bearer_token_4567", "qs_access_token_789", "wk_body_write_key_321", "pw_body_secret_abc",
    ]

    @Test(
        "the journal holds requests as the control API answers them, secrets redacted, unless --journal-raw; both read back",
        arguments: [false, true])
    func secrets(raw: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let journal = directory.appending(path: "journal.ndjson").path
            let server = try await ServeChild.launch(["--journal", journal] + (raw ? ["--journal-raw"] : []))
            defer { server.stop() }
            let capture = PackagePaths.root.appending(path: Self.segmentCapture).path
            let batch = try #require(try CaptureFile.read(path: capture).first)
            let sent = try #require(batch.headers.first { $0.name == "Authorization" })
            #expect(sent.value == "Basic " + Self.secrets[1])
            guard case .text(let batchBody)? = batch.body else { throw ServeFailure(description: "no batch body") }
            try await Self.send(server.port, "POST", "/v1/batch", [("Authorization", sent.value)], batchBody)
            try await Self.send(
                server.port, "GET", "/e?ev=view&access_token=qs_access_token_789",
                [("Authorization", "Bearer bearer_token_4567")], nil)
            try await Self.send(
                server.port, "POST", "/collect/signup", [],
                #"{"event": "Signed Up", "writeKey": "wk_body_write_key_321", "user": {"password": "pw_body_secret_abc"}}"#
            )
            server.signal(SIGTERM)
            #expect(try await server.waitForExit() == 0)

            let text = try String(contentsOfFile: journal, encoding: .utf8)
            for secret in Self.secrets {
                #expect(text.contains(secret) == raw, "\(secret) in the journal: \(text.contains(secret))")
            }
            if !raw { #expect(text.contains("[redacted]")) }
            // The log on stderr hides the query's token either way.
            let log = try String(contentsOf: server.stderrURL, encoding: .utf8)
            #expect(log.contains("/e?ev=view&access_token=%5Bredacted%5D 200"), "\(log)")
            #expect(!Self.secrets.contains { log.contains($0) }, "\(log)")

            // Read back: `tracksnap validate --capture` and the control API's ingest.
            let executable = try PackagePaths.executable.get()
            let snapshot = PackagePaths.root.appending(path: Self.segmentSnapshot).path
            let validated = try await run(executable.path, ["validate", snapshot, "--capture", journal])
            #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
            let requests = try CaptureFile.read(path: journal)
            #expect(requests.map(\.method) == ["POST", "GET", "POST"])
            try await withServer(.init(root: PackagePaths.root.path)) { _, port in
                let id = try await startSession(port)
                let ingested = try await control(port, "POST", "sessions/\(id)/requests", body: text)
                #expect(ingested.status == 200, "\(ingested.text)")
                let report = try await control(
                    port, "POST", "sessions/\(id)/validate", body: #"{"snapshot": "\#(Self.segmentSnapshot)"}"#)
                #expect(try json(report.text)["passed"] == .bool(true), "\(report.text)")
            }
        }
    }

    @Test(
        "the proxy's own credentials (Proxy-Authorization, the control token of a call through the proxy) reach neither the journal nor the control API's answers, raw or not",
        arguments: [false, true])
    func proxyCredentials(raw: Bool) async throws {
        let token = "proxy_token_5f2c9a"
        let basic = "Basic " + Data("anyone:\(token)".utf8).base64EncodedString()
        let planted = [token, String(basic.dropFirst("Basic ".count)), "Proxy-Authorization"]
        try await withTemporaryDirectory { directory in
            let journal = directory.appending(path: "journal.ndjson").path
            var configuration = CaptureServer.Configuration(journalPath: journal, token: token)
            configuration.journalKeepsSecrets = raw
            configuration.simulatesPublicBinding = true  // the proxy demands the token, as bound beyond loopback
            try await withServer(configuration) { server, port in
                let origin = "http://127.0.0.1:\(port)"
                let refused = try await RawHTTP.send(port: port, target: origin + "/e?ev=1")
                #expect(refused.status == 407, "the proxy demands its token")
                // A control call made through the proxy: both credentials reach the server.
                let health = try await RawHTTP.send(
                    port: port, target: origin + "/__tracksnap/health",
                    headers: [("Proxy-Authorization", basic), ("Authorization", "Bearer \(token)")])
                #expect(health.status == 200, "\(health.text)")
                #expect(health.text.contains(#""status":"ok""#))
                // The app's own request through the proxy, with the app's own bearer token.
                let app = try await RawHTTP.send(
                    port: port, target: origin + "/e?ev=view",
                    headers: [("Proxy-Authorization", "Bearer \(token)"), ("Authorization", "Bearer app_token_1234")])
                #expect(app.status == 200)

                let held = server.store.requests()
                #expect(held.count >= 2, "\(held.map(\.url))")
                #expect(held.allSatisfy { $0.header("Proxy-Authorization") == nil })
                #expect(!held.contains { $0.headers.contains { $0.value.contains(token) } })
                #expect(
                    held.contains { $0.header("Authorization") == "Bearer app_token_1234" }, "the app's own is kept")
                for format in ["json", "ndjson", "har"] {
                    let answer = try await control(
                        port, "GET", "requests?format=\(format)", headers: [("Authorization", "Bearer \(token)")])
                    #expect(answer.status == 200)
                    for secret in planted { #expect(!answer.text.contains(secret), "\(secret) in \(format)") }
                }
            }
            let text = try String(contentsOfFile: journal, encoding: .utf8)
            #expect(text.contains("/__tracksnap/health"), "the control call through the proxy is journalled")
            for secret in planted { #expect(!text.contains(secret), "\(secret) in the journal: \(text)") }
            #expect(text.contains("app_token_1234") == raw, "--journal-raw keeps the app's own credentials")
        }
    }

    @Test("--journal-raw without --journal is a usage error")
    func rawNeedsJournal() async throws {
        let result = try await run(try PackagePaths.executable.get().path, ["serve", "--journal-raw"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--journal-raw applies to a journal: add --journal FILE"))
    }

    @Test(
        "a secret one request sent and a later one copies (a token in a URL's path) is hidden in the journal and the log"
    )
    func copiedSecrets() async throws {
        try await withTemporaryDirectory { directory in
            let journal = directory.appending(path: "journal.ndjson").path
            let server = try await ServeChild.launch(["--journal", journal])
            defer { server.stop() }
            try await Self.send(server.port, "GET", "/v1/login?access_token=tok_copied_99172", [], nil)
            try await Self.send(server.port, "GET", "/v1/profile/tok_copied_99172/view", [], nil)
            server.signal(SIGTERM)
            #expect(try await server.waitForExit() == 0)
            let written = try String(contentsOfFile: journal, encoding: .utf8)
            #expect(written.split(separator: "\n").count == 2)
            #expect(written.contains("/v1/profile/"), "\(written)")
            #expect(!written.contains("tok_copied_99172"), "\(written)")
            let log = try String(contentsOf: server.stderrURL, encoding: .utf8)
            #expect(log.contains("/v1/profile/"), "\(log)")
            #expect(!log.contains("tok_copied_99172"), "\(log)")
        }
    }

    private static func send(
        _ port: Int, _ method: String, _ target: String, _ headers: [(String, String)], _ body: String?
    ) async throws {
        let response = try await RawHTTP.send(
            port: port, method: method, target: target, headers: headers, body: Array((body ?? "").utf8))
        #expect(response.status == 200)
    }
}
