import Foundation
import Testing
import TracksnapTestSupport
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One vendor's official Python SDK, as `Tests/SDKs/send_VENDOR.py` drives it.
struct SDKCase: CustomTestStringConvertible, Sendable {
    /// The vendor id, also the profile's and the committed snapshot's name.
    var vendor: String
    /// How many requests the script's calls make the SDK send.
    var requests: Int
    /// The fake key the script gives the SDK; nil when the SDK takes none (Snowplow).
    var key: String?

    var testDescription: String { vendor }

    static let all = [
        SDKCase(vendor: "segment", requests: 1, key: "wk_test_e2e_segment"),
        SDKCase(vendor: "rudderstack", requests: 1, key: "wk_test_e2e_rudder"),
        SDKCase(vendor: "mixpanel", requests: 3, key: "mp_token_test_e2e"),
        SDKCase(vendor: "amplitude", requests: 1, key: "amp_key_test_e2e"),
        SDKCase(vendor: "snowplow", requests: 1, key: nil),
        SDKCase(vendor: "posthog", requests: 1, key: "phc_test_e2e_key"),
    ]
}

/// The SDKs `make test` installs into `.build/sdk-venv` (the versions the decoder fixtures were
/// recorded with), sending to `tracksnap serve`; what they send is validated against a committed
/// event-level snapshot through the vendor's profile, then recorded, with no key written.
@Suite("The vendors' Python SDKs end to end through tracksnap serve", .tags(.process), .leftToMakeTest)
struct SDKEndToEndTests {
    static let python = PackagePaths.python

    @Test(
        "each SDK's traffic validates against its committed snapshot, and records without its key",
        arguments: SDKCase.all)
    func sdk(_ sdk: SDKCase) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            Issue.record(
                "\(Self.python.path) is missing: run `make test`, which installs the analytics SDKs these tests run")
            return
        }
        let server = try await ServeChild.launch()
        defer { server.stop() }
        let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id

        let script = PackagePaths.sdks.appending(path: "send_\(sdk.vendor).py").path
        let sent = try await runProcess(Self.python, [script, server.base], timeout: Bounds.process)
        #expect(sent.status == 0, "the \(sdk.vendor) SDK failed: \(sent.stderr)")

        // The control API answers as soon as the requests are there: no sleeping.
        let captured = try await server.call("GET", "sessions/\(session)/requests?count=\(sdk.requests)&timeout=30")
        let lines = try #require(try JSONSerialization.jsonObject(with: captured) as? [Any])
        #expect(lines.count == sdk.requests)

        let snapshot = PackagePaths.sdks.appending(path: "\(sdk.vendor).json").path
        let profile = sdk.vendor  // a built-in profile
        let body = try JSONSerialization.data(withJSONObject: ["snapshot": snapshot, "validator": profile])
        let report = try await server.call(
            "POST", "sessions/\(session)/validate", body: body, as: ValidationReport.self)
        #expect(report.passed, "\(report.findings.map { "\($0.code) \($0.path): \($0.message)" })")
        #expect(report.findings.isEmpty)

        // A key is sent as itself or inside a Basic header (`key:` in base64).
        let forms = sdk.key.map { [$0, Data("\($0):".utf8).base64EncodedString()] } ?? []
        try await withTemporaryDirectory { directory in
            let capture = directory.appending(path: "capture.ndjson")
            let ndjson = try lines.map {
                String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self)
            }.joined(separator: "\n")
            try ndjson.write(to: capture, atomically: true, encoding: .utf8)
            // The server holds the key (recording it through the API below must hide it) but
            // never answers it.
            for form in forms { #expect(!ndjson.contains(form), "the control API answered \(form)") }
            // `[redacted]`, percent-encoded in a form.
            if sdk.key != nil {
                #expect(ndjson.contains("redacted"), "the SDK did not send its key: the checks would prove nothing")
            }

            // The exported capture, secrets hidden, still records and validates with the CLI.
            let recorded = directory.appending(path: "\(sdk.vendor).json").path
            let record = try await tracksnap("record", recorded, "--capture", capture.path, "--validator", profile)
            #expect(record.status == 0, "\(record.stderr)")
            #expect(record.stdout.contains(" events"))
            let check = try await tracksnap("validate", recorded, "--capture", capture.path, "--validator", profile)
            #expect(check.status == 0, "\(check.stdout)")
        }

        // Recorded by the server from what it holds, keys and all: none is written.
        let recordBody = try JSONSerialization.data(withJSONObject: ["validator": profile])
        let recorded = String(
            decoding: try await server.call("POST", "sessions/\(session)/record", body: recordBody), as: UTF8.self)
        #expect(recorded.contains(#""snapshotContent""#), "\(recorded)")
        for form in forms { #expect(!recorded.contains(form), "\(form) was written to the snapshot") }
    }

}
