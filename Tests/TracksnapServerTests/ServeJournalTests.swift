import Foundation
import Testing
import TracksnapCore
import TracksnapModel
import TracksnapServer
import TracksnapTestSupport

@Suite("tracksnap serve --journal keeps no secret")
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

    @Test("--journal-raw without --journal is a usage error")
    func rawNeedsJournal() async throws {
        let result = try await run(try PackagePaths.executable.get().path, ["serve", "--journal-raw"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--journal-raw applies to a journal: add --journal FILE"))
    }

    private static func send(
        _ port: Int, _ method: String, _ target: String, _ headers: [(String, String)], _ body: String?
    ) async throws {
        let response = try await RawHTTP.send(
            port: port, method: method, target: target, headers: headers, body: Array((body ?? "").utf8))
        #expect(response.status == 200)
    }
}
