import Foundation
import Testing
import TracksnapTestSupport
import TracksnapTraffic

/// Meta's app events, Adjust and Branch as their SDKs send them — the decoder fixtures written
/// from the SDKs' request builders (`Tests/TracksnapDecodersTests/Fixtures/write_app_fixtures.py`),
/// HTTPS to the vendors' own hosts — through `tracksnap serve --intercept analytics --answer` as
/// the HTTPS proxy: recorded from one install, validated against another install (new ids,
/// another device and day), and one real change caught with one finding.
@Suite(
    "Meta app events, Adjust and Branch end to end: intercepted, recorded from one install, validated against another",
    .tags(.process), .leftToMakeTest)
struct AppSDKInterceptionTests {
    static let fixtures = PackagePaths.root.appending(path: "Tests/TracksnapDecodersTests/Fixtures")

    @Test(
        "each vendor's run records a snapshot the other install's run passes; one changed value fails once",
        arguments: [
            // Meta (Android's multipart form): an app event renamed.
            ("meta-app", #""_eventName":"fb_mobile_activate_app""#, #""_eventName":"fb_mobile_app_opened""#),
            // Adjust: a revenue event's amount.
            ("adjust", "revenue=12.5", "revenue=13.5"),
            // Branch: a custom event's name.
            ("branch", #""name":"tutorial_finished""#, #""name":"tutorial_skipped""#),
        ])
    func recordAndValidate(vendor: String, original: String, changed: String) async throws {
        try await withTemporaryDirectory { directory in
            let caDirectory = directory.appending(path: "ca").path
            #expect(try await tracksnap("ca", "--ca-dir", caDirectory).status == 0)
            let certificate = directory.appending(path: "ca/ca-cert.pem").path
            let server = try await ServeChild.launch([
                "--intercept", "analytics", "--answer", "--ca-dir", caDirectory, "--root", directory.path,
            ])
            defer { server.stop() }

            /// Sends a run's requests in a session of their own, one after another, as the SDK does.
            func session(_ requests: [Request]) async throws -> String {
                let id = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
                for (index, request) in requests.enumerated() {
                    var arguments = [
                        "curl", "--silent", "--show-error", "--max-time", "30", "--noproxy", "", "--proxy", server.base,
                        "--cacert", certificate, "--output", "/dev/null", "--write-out", "%{http_code}",
                        "-X", request.method, "-H", "X-Tracksnap-Session: \(id)",
                    ]
                    for (name, value) in request.headers { arguments += ["-H", "\(name): \(value)"] }
                    if let body = request.body {
                        let file = directory.appending(path: "body-\(id)-\(index)")
                        try Data(body).write(to: file)
                        arguments += ["--data-binary", "@\(file.path)"]
                    }
                    let sent = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments + [request.url])
                    #expect(sent.status == 0, "\(sent.stderr)")
                    #expect(sent.stdout.hasPrefix("2"), "\(request.method) \(request.url) was answered \(sent.stdout)")
                }
                _ = try await server.call("GET", "sessions/\(id)/requests?count=\(requests.count)&timeout=30")
                return id
            }
            func validate(_ session: String, _ snapshot: String) async throws -> ValidationReport {
                let body = try JSONSerialization.data(withJSONObject: ["snapshot": snapshot, "settle": 0])
                return try await server.call(
                    "POST", "sessions/\(session)/validate", body: body, as: ValidationReport.self)
            }

            let first = try Self.requests(vendor + ".ndjson")
            let second = try Self.requests(vendor + "-run2.ndjson")
            let snapshot = directory.appending(path: "\(vendor).json").path
            let record = try JSONSerialization.data(withJSONObject: [
                "snapshot": snapshot, "validator": vendor, "settle": 0,
            ])
            _ = try await server.call("POST", "sessions/\(try await session(first))/record", body: record)
            let recorded = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(recorded.contains(#""vendor": "\#(vendor)""#), "\(recorded)")

            let passed = try await validate(try await session(second), snapshot)
            #expect(passed.passed, "\(passed.findings.map { "\($0.code) \($0.path): \($0.message)" })\n\(recorded)")

            let edited = second.map { request in
                var request = request
                if let body = request.body, let text = String(validating: body, as: UTF8.self), text.contains(original)
                {
                    request.body = Array(text.replacingOccurrences(of: original, with: changed).utf8)
                }
                return request
            }
            #expect(edited.map(\.body) != second.map(\.body), "no request of \(vendor)'s second run holds \(original)")
            let failed = try await validate(try await session(edited), snapshot)
            #expect(!failed.passed)
            // The install's advertising id is a privacy warning on every run (Documentation/Privacy.md);
            // the snapshot's own findings are the change.
            let privacy = failed.findings.filter { $0.code == "personal_data" }
            #expect(privacy.allSatisfy { $0.message.hasPrefix("advertising_id:") }, "\(privacy)")
            let changes = failed.findings.filter { $0.code != "personal_data" }
            #expect(changes.count == 1, "\(failed.findings.map { "\($0.code) \($0.path): \($0.message)" })")
            #expect(
                changes.first?.code == "value_mismatch",
                "\(failed.findings.map { "\($0.code) \($0.path): \($0.message)" })")
        }
    }

    struct Request {
        var method: String
        var url: String
        var headers: [(String, String)]
        var body: [UInt8]?
    }

    /// A fixture's requests, their bodies as sent (base64 ones decoded).
    static func requests(_ file: String) throws -> [Request] {
        let text = try String(contentsOf: fixtures.appending(path: file), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let headers = (object["headers"] as? [[String: String]] ?? []).compactMap { header -> (String, String)? in
                guard let name = header["name"], let value = header["value"],
                    !["content-length", "host"].contains(name.lowercased())
                else { return nil }
                return (name, value)
            }
            var body: [UInt8]?
            if let text = object["body"] as? String, !text.isEmpty {
                body =
                    object["bodyEncoding"] as? String == "base64"
                    ? Array(try #require(Data(base64Encoded: text))) : Array(text.utf8)
            }
            return Request(
                method: try #require(object["method"] as? String), url: try #require(object["url"] as? String),
                headers: headers, body: body)
        }
    }

}
