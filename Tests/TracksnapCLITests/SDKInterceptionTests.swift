import Foundation
import Testing
import TracksnapTestSupport
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The vendors' SDKs as an app ships them — sending to their own HTTPS hosts — through
/// `tracksnap serve --intercept analytics --answer` as their HTTPS proxy, trusting the local CA
/// by environment variables alone: every event captured and validated, nothing sent anywhere.
@Suite(
    "HTTPS interception end to end: curl and the vendors' Python SDKs at their default hosts", .tags(.process),
    .leftToMakeTest)
struct SDKInterceptionTests {
    /// Where each SDK sends by default. Snowplow has no vendor host: its collector is the customer's.
    static let defaultHosts = [
        "segment": "api.segment.io", "rudderstack": "api.rudderstack.com", "mixpanel": "api.mixpanel.com",
        "amplitude": "api2.amplitude.com", "posthog": "us.i.posthog.com",
    ]

    @Test(
        "each SDK's traffic to its own HTTPS host is captured and validates against its snapshot",
        arguments: SDKCase.all.filter { defaultHosts[$0.vendor] != nil })
    func sdk(_ sdk: SDKCase) async throws {
        guard FileManager.default.isExecutableFile(atPath: SDKEndToEndTests.python.path) else {
            Issue.record(
                "\(SDKEndToEndTests.python.path) is missing: run `make test`, which installs the analytics SDKs these tests run"
            )
            return
        }
        try await withTemporaryDirectory { directory in
            let caDirectory = directory.appending(path: "ca").path
            let created = try await tracksnap("ca", "--ca-dir", caDirectory)
            #expect(created.status == 0, "\(created.stderr)")
            let certificate = directory.appending(path: "ca/ca-cert.pem").path
            let server = try await ServeChild.launch(["--intercept", "analytics", "--answer", "--ca-dir", caDirectory])
            defer { server.stop() }
            let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id

            var environment = ProcessInfo.processInfo.environment
            for name in ["http_proxy", "HTTP_PROXY", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"] {
                environment[name] = nil
            }
            environment["HTTPS_PROXY"] = server.base
            environment["https_proxy"] = server.base
            environment["REQUESTS_CA_BUNDLE"] = certificate
            environment["SSL_CERT_FILE"] = certificate
            let script = PackagePaths.sdks.appending(path: "send_\(sdk.vendor).py").path
            let sent = try await runProcess(
                SDKEndToEndTests.python, [script, "-"], environment: environment, timeout: Bounds.process)
            #expect(sent.status == 0, "the \(sdk.vendor) SDK failed: \(sent.stderr)")

            let captured = try await server.call("GET", "sessions/\(session)/requests?count=\(sdk.requests)&timeout=30")
            let lines = try #require(try JSONSerialization.jsonObject(with: captured) as? [[String: Any]])
            #expect(lines.count == sdk.requests)
            let host = try #require(Self.defaultHosts[sdk.vendor])
            for line in lines {
                let url = try #require(line["url"] as? String)
                #expect(url.hasPrefix("https://\(host)/"), "\(url)")
            }

            let snapshot = PackagePaths.sdks.appending(path: "\(sdk.vendor).json").path
            let body = try JSONSerialization.data(withJSONObject: ["snapshot": snapshot, "validator": sdk.vendor])
            let report = try await server.call(
                "POST", "sessions/\(session)/validate", body: body, as: ValidationReport.self)
            #expect(report.passed, "\(report.findings.map { "\($0.code) \($0.path): \($0.message)" })")
        }
    }

    @Test(
        "curl to https://api.segment.io/v1/track through --intercept api.segment.io=answer: a Segment event that validates"
    )
    func curlSegmentTrack() async throws {
        try await withTemporaryDirectory { directory in
            let caDirectory = directory.appending(path: "ca").path
            #expect(try await tracksnap("ca", "--ca-dir", caDirectory).status == 0)
            let server = try await ServeChild.launch(["--intercept", "api.segment.io=answer", "--ca-dir", caDirectory])
            defer { server.stop() }
            let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
            let track =
                #"{"type":"track","event":"Order Completed","userId":"user-42","properties":{"order_id":"o-1001","revenue":12.5}}"#
            let sent = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "curl", "--silent", "--show-error", "--max-time", "30", "--noproxy", "", "--proxy", server.base,
                    "--cacert",
                    directory.appending(path: "ca/ca-cert.pem").path, "-H", "Content-Type: application/json", "-d",
                    track,
                    "https://api.segment.io/v1/track",
                ])
            #expect(sent.status == 0, "\(sent.stderr)")
            #expect(sent.stdout == #"{"code":200,"status":1}"#)

            let captured = try await server.call("GET", "sessions/\(session)/requests?count=1&timeout=30")
            let lines = try #require(try JSONSerialization.jsonObject(with: captured) as? [Any])
            let capture = directory.appending(path: "capture.ndjson")
            try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(
                separator: "\n"
            )
            .write(to: capture, atomically: true, encoding: .utf8)
            let snapshot = PackagePaths.fixtures.appending(path: "https/segment-track.json").path
            let passed = try await tracksnap("validate", snapshot, "--capture", capture.path, "--validator", "segment")
            #expect(passed.status == 0, "\(passed.stdout)")

            // The check can fail: the same traffic against a snapshot expecting another revenue.
            let changed = directory.appending(path: "changed.json")
            try String(contentsOfFile: snapshot, encoding: .utf8).replacingOccurrences(of: "12.5", with: "13")
                .write(to: changed, atomically: true, encoding: .utf8)
            let failed = try await tracksnap(
                "validate", changed.path, "--capture", capture.path, "--validator", "segment")
            #expect(failed.status == 1, "\(failed.stdout)")
            #expect(failed.stdout.contains("12.5"))
        }
    }

}
