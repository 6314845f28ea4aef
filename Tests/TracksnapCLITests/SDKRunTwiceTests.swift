import Foundation
import Testing
import TracksnapTestSupport

/// Each vendor's SDK run twice, each time against a fresh `tracksnap serve` on its own port:
/// the snapshot recorded from the first run through the default profile (requests, no vendor
/// knowledge) passes on the second, whose ids, timestamps and port all differ.
@Suite("An SDK's second run passes the snapshot recorded from its first")
struct SDKRunTwiceTests {
    @Test("recorded from run 1 through the default profile, run 2 against another server passes", arguments: SDKCase.all)
    func runTwice(_ sdk: SDKCase) async throws {
        guard FileManager.default.isExecutableFile(atPath: SDKEndToEndTests.python.path) else {
            Issue.record("\(SDKEndToEndTests.python.path) is missing: run `make test`, which installs the analytics SDKs these tests run")
            return
        }
        try await withTemporaryDirectory { directory in
            var captures: [String] = []
            for run in 1...2 {
                let server = try ServeChild.launch()
                defer { server.stop() }
                let session = try await server.call("POST", "sessions", as: Session.self).id
                let script = PackagePaths.fixtures.appending(path: "sdk/send_\(sdk.vendor).py").path
                let sent = try runProcess(SDKEndToEndTests.python, [script, server.base], timeout: 120)
                #expect(sent.status == 0, "the \(sdk.vendor) SDK failed: \(sent.stderr)")
                let captured = try await server.call("GET", "sessions/\(session)/requests?count=\(sdk.requests)&timeout=30")
                let lines = try #require(try JSONSerialization.jsonObject(with: captured) as? [Any])
                #expect(lines.count == sdk.requests)
                let file = directory.appending(path: "run\(run).ndjson")
                let ndjson = try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
                try write(ndjson.joined(separator: "\n") + "\n", to: file)
                captures.append(file.path)
            }
            let snapshot = directory.appending(path: "\(sdk.vendor).json").path
            let record = try tracksnap("record", snapshot, "--capture", captures[0], "--validator", "default")
            #expect(record.status == 0, "\(record.stderr)")
            #expect(record.stdout.contains("(local-origin)"), "the server's origin is recorded as a pattern: \(record.stdout)")
            let check = try tracksnap("validate", snapshot, "--capture", captures[1], "--validator", "default")
            #expect(check.status == 0, "\(check.stdout)")
        }
    }

    private struct Session: Decodable { var id: String }
}
