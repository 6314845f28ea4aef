import Foundation
import Testing
import TracksnapTestSupport
import TracksnapTraffic

/// Firebase Analytics uploads as an iOS app sends them — gzip'd protobuf to
/// `https://app-measurement.com/a`, labelled `application/x-www-form-urlencoded` — through
/// `tracksnap serve --intercept analytics --answer` as the HTTPS proxy: recorded from one install,
/// validated against another install on another device, OS and day, and a renamed event and a
/// changed parameter each caught with one finding.
@Suite(
    "Firebase Analytics end to end: intercepted uploads recorded from one install, validated against another",
    .tags(.process), .leftToMakeTest)
struct FirebaseInterceptionTests {
    @Test("one install's checkout records a snapshot another install passes; a rename and a new price fail once each")
    func recordAndValidate() async throws {
        try await withTemporaryDirectory { directory in
            let caDirectory = directory.appending(path: "ca").path
            #expect(try await tracksnap("ca", "--ca-dir", caDirectory).status == 0)
            let certificate = directory.appending(path: "ca/ca-cert.pem").path
            let server = try await ServeChild.launch([
                "--intercept", "analytics", "--answer", "--ca-dir", caDirectory, "--root", directory.path,
            ])
            defer { server.stop() }

            /// Sends one upload in a session of its own, as the SDK does (gzip, its content type).
            func session(sending upload: FirebaseUpload, to host: String = "app-measurement.com") async throws
                -> String
            {
                let id = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
                let body = directory.appending(path: "upload-\(id).gz")
                try gzipped(Data(upload.body)).write(to: body)
                let sent = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/env"),
                    [
                        "curl", "--silent", "--show-error", "--max-time", "30", "--noproxy", "", "--proxy", server.base,
                        "--cacert", certificate, "--write-out", "%{http_code}", "-H", "X-Tracksnap-Session: \(id)",
                        "-H", "Content-Type: application/x-www-form-urlencoded", "-H", "Content-Encoding: gzip",
                        "-H", "User-Agent: Shop/4.2.0 (iPhone; iOS 17.5.1) FirebaseAnalytics/11.5.0",
                        "--data-binary", "@\(body.path)", "https://\(host)/a",
                    ])
                #expect(sent.status == 0, "\(sent.stderr)")
                #expect(sent.stdout.hasSuffix("204"), "the collector answers Firebase as Firebase does: \(sent.stdout)")
                _ = try await server.call("GET", "sessions/\(id)/requests?count=1&timeout=30")
                return id
            }
            func validate(_ session: String, _ snapshot: String) async throws -> ValidationReport {
                let body = try JSONSerialization.data(withJSONObject: ["snapshot": snapshot, "settle": 0])
                return try await server.call(
                    "POST", "sessions/\(session)/validate", body: body, as: ValidationReport.self)
            }

            let snapshot = directory.appending(path: "checkout.json").path
            let first = try await session(sending: .checkout(.first))
            let record = try JSONSerialization.data(withJSONObject: [
                "snapshot": snapshot, "validator": "firebase", "settle": 0,
            ])
            _ = try await server.call("POST", "sessions/\(first)/record", body: record)
            let recorded = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(recorded.contains(#""name" : "screen_view""#) || recorded.contains(#""name": "screen_view""#))
            for perInstall in ["8D2E5A6F0C1B4E7A9F3D2C1B0A9E8D7C", "17.5.1", "iPhone15,3", "en-us"] {
                #expect(!recorded.contains(perInstall), "\(perInstall) was recorded literally:\n\(recorded)")
            }

            let second = try await session(sending: .checkout(.second), to: "region1.app-measurement.com")
            let passed = try await validate(second, snapshot)
            #expect(passed.passed, "\(passed.findings.map { "\($0.code) \($0.path): \($0.message)" })\n\(recorded)")

            // The bundle's advertising id is a privacy warning on every run (Documentation/Privacy.md);
            // the snapshot's own findings are the change.
            func changes(_ report: ValidationReport) -> [ValidationReport.Finding] {
                #expect(
                    report.findings.filter { $0.code == "personal_data" }.allSatisfy {
                        $0.message.hasPrefix("advertising_id:")
                    })
                return report.findings.filter { $0.code != "personal_data" }
            }
            let renamed = try await validate(
                try await session(sending: .checkout(.second, rename: "add_to_basket")), snapshot)
            #expect(!renamed.passed)
            #expect(changes(renamed).count == 1, "\(renamed.findings.map { "\($0.code) \($0.path): \($0.message)" })")
            #expect(
                changes(renamed).first.map { $0.code == "value_mismatch" && $0.path == "/events/2/name" } == true,
                "\(renamed.findings.map { "\($0.code) \($0.path): \($0.message)" })")

            let repriced = try await validate(try await session(sending: .checkout(.second, price: 13)), snapshot)
            #expect(!repriced.passed)
            #expect(
                changes(repriced).count == 1, "\(repriced.findings.map { "\($0.code) \($0.path): \($0.message)" })")
            #expect(changes(repriced).first?.path == "/events/2/properties/value")
        }
    }

}
