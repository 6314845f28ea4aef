import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport
import TracksnapTraffic

/// The vendors' Python SDKs (and GA4 hits built as Google documents them) send an event with an
/// email, a phone number and a card number planted in it, each in another encoding, and decoys
/// beside them; `tracksnap serve` checks the session in every report format.
@Suite(
    "Personal data planted through the vendors' SDKs: one masked finding each, never shown raw", .tags(.process),
    .leftToMakeTest)
struct PersonalDataEndToEndTests {

    /// A vendor's sender (`send_personal_data.py VENDOR`), the built-in profile checking it, and
    /// the severity its rule gives personal data.
    struct Sender: CustomTestStringConvertible, Sendable {
        var name: String
        var profile: String
        var severity: String
        var testDescription: String { name }
    }

    static let senders = [
        Sender(name: "segment", profile: "segment", severity: "warning"),
        Sender(name: "rudderstack", profile: "rudderstack", severity: "warning"),
        Sender(name: "mixpanel", profile: "mixpanel", severity: "warning"),
        Sender(name: "amplitude", profile: "amplitude", severity: "warning"),
        Sender(name: "posthog", profile: "posthog", severity: "warning"),
        Sender(name: "ga4-mp", profile: "ga4", severity: "error"),
        Sender(name: "ga4-gtag", profile: "ga4", severity: "error"),
    ]

    private struct Planted: Decodable {
        var planted: [String: String]
        var decoys: [String: String]
    }

    @Test(
        "each planted value is one personal_data finding, masked, at the vendor's severity; no decoy is one; no format, log or journal shows a planted value",
        arguments: senders)
    func planted(_ sender: Sender) async throws {
        let python = try PackagePaths.sdkPython(for: "the analytics SDKs")
        try await withTemporaryDirectory { directory in
            let journal = directory.appending(path: "journal.ndjson")
            let server = try await ServeChild.launch(["--journal", journal.path])
            defer { server.stop() }
            let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id

            let script = PackagePaths.sdks.appending(path: "send_personal_data.py").path
            let sent = try await runProcess(python, [script, sender.name, server.base], timeout: Bounds.process)
            #expect(sent.status == 0, "the \(sender.name) sender failed: \(sent.stderr)")
            let values = try JSONDecoder().decode(Planted.self, from: Data(sent.stdout.utf8))
            _ = try await server.call("GET", "sessions/\(session)/requests?count=1&timeout=30")

            func validate(_ format: String) async throws -> Data {
                let body = try JSONSerialization.data(withJSONObject: [
                    "snapshotContent": ["requests": [], "unexpected": "allow"], "validator": sender.profile,
                    "format": format,
                ])
                return try await server.call("POST", "sessions/\(session)/validate", body: body)
            }
            let report = try JSONDecoder().decode(ValidationReport.self, from: try await validate("json"))
            let personal = report.findings.filter { $0.code == "personal_data" }
            let masks = [
                "email": "a***@example.com", "phone": "+** ** **** **58", "payment_card": "**** **** **** 1111",
            ]
            for (kind, mask) in masks {
                let found = personal.filter { $0.message.hasPrefix(kind + ":") }
                #expect(found.count == 1, "\(kind): \(personal.map(\.message))")
                #expect(found.first?.actual == .string(mask), "\(kind): \(found.map(\.message))")
                #expect(found.first?.severity.rawValue == sender.severity)
            }
            #expect(personal.count == 3, "\(personal.map(\.message))")
            #expect(personal.allSatisfy { $0.path.hasPrefix("/properties/") }, "\(personal.map(\.path))")

            // Every format, the requests the control API answers, the journal and the log.
            var outputs: [(String, String)] = []
            for format in ["text", "json", "junit", "github", "markdown", "html"] {
                outputs.append((format, String(decoding: try await validate(format), as: UTF8.self)))
            }
            let requests = try await server.call("GET", "sessions/\(session)/requests")
            outputs.append(("control API requests", String(decoding: requests, as: UTF8.self)))
            outputs.append(("journal", (try? String(contentsOf: journal, encoding: .utf8)) ?? ""))
            outputs.append(("log", (try? String(contentsOf: server.stderrURL, encoding: .utf8)) ?? ""))
            #expect(outputs[0].1.contains("a***@example.com"), "\(outputs[0].1)")
            for (place, output) in outputs {
                for value in values.planted.values {
                    #expect(!output.contains(value), "\(place) shows \(value)")
                    let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
                    #expect(!output.contains(encoded), "\(place) shows \(encoded)")
                }
            }
            #expect(!outputs[7].1.isEmpty, "the journal was not written: the check would prove nothing")

            // What the journal kept, masked, checks clean and shows masked in `tracksnap events`.
            let events = try await tracksnap("events", "--capture", journal.path, "--validator", sender.profile)
            #expect(events.status == 0, "\(events.stderr)")
            #expect(events.stdout.contains("a***@example.com"), "\(events.stdout)")
            for value in values.planted.values { #expect(!events.stdout.contains(value)) }
        }
    }

    @Test("a capture file read by the CLI: tracksnap events and validate in every format show each value masked")
    func cli() async throws {
        let planted = [
            "ada@example.com", "+44 20 7946 0958", "4111 1111 1111 1111", "6D92078A-8246-4BA4-AE5B-76104861E7DC",
            "DE89 3704 0044 0532 0130 00", "203.0.113.195", "52.520008",
        ]
        let call: [String: Any] = [
            "type": "track", "event": "Checkout Started", "userId": "u-1",
            "properties": [
                "contact": planted[0], "tel": planted[1], "card": planted[2], "iban": planted[4], "origin": planted[5],
                "latitude": planted[6],
            ],
            "context": ["device": ["advertisingId": planted[3]]],
        ]
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["batch": [call]]), as: UTF8.self)
        let line = try JSONSerialization.data(withJSONObject: [
            "method": "POST", "url": "https://api.segment.io/v1/batch",
            "headers": [["name": "Content-Type", "value": "application/json"]], "body": body,
        ])
        try await withTemporaryDirectory { directory in
            let capture = directory.appending(path: "capture.ndjson")
            try line.write(to: capture)
            let snapshot = directory.appending(path: "empty.json")
            try Data(#"{"requests": [], "unexpected": "allow"}"#.utf8).write(to: snapshot)
            var outputs: [(String, String)] = []
            for format in ["text", "json"] {
                let events = try await tracksnap(
                    "events", "--capture", capture.path, "--validator", "segment", "--format", format)
                #expect(events.status == 0, "\(events.stderr)")
                outputs.append(("events \(format)", events.stdout + events.stderr))
            }
            for format in ["text", "json", "junit", "github", "markdown", "html"] {
                let run = try await tracksnap(
                    "validate", snapshot.path, "--capture", capture.path, "--validator", "segment", "--format", format)
                #expect(run.status == 0, "\(format): \(run.stdout)\(run.stderr)")
                outputs.append(("validate \(format)", run.stdout + run.stderr))
            }
            let json = try #require(outputs.first { $0.0 == "validate json" }?.1)
            for kind in ["email", "phone", "payment_card", "iban", "advertising_id", "ip_address", "coordinates"] {
                // One finding, listed in its snapshot's findings and privacy section, and in the run's findings.
                #expect(json.components(separatedBy: "\"\(kind): ").count == 4, "\(kind) in \(json)")
            }
            for (place, output) in outputs {
                #expect(output.contains("a***@example.com"), "\(place): \(output)")
                for value in planted { #expect(!output.contains(value), "\(place) shows \(value)") }
            }

            // `tracksnap record` writes each value as its kind's pattern, which the next run's
            // different values of the same kinds still match.
            let recorded = directory.appending(path: "recorded.json")
            let record = try await tracksnap(
                "record", recorded.path, "--capture", capture.path, "--validator", "segment")
            #expect(record.status == 0, "\(record.stderr)")
            let written = try String(contentsOf: recorded, encoding: .utf8)
            for value in planted {
                #expect(!written.contains(value), "the snapshot shows \(value): \(written)")
                let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
                #expect(!written.contains(encoded), "the snapshot shows \(encoded): \(written)")
            }
            let other = [
                "bob.smith@example.org", "+33 6 12 34 56 78", "5555 5555 5555 4444",
                "1E4A8B2C-3D5F-4A6B-9C7D-8E9F0A1B2C3D", "GB82 WEST 1234 5698 7654 32", "198.51.100.7", "48.858370",
            ]
            var next = body
            for (old, new) in zip(planted, other) { next = next.replacingOccurrences(of: old, with: new) }
            let nextCapture = directory.appending(path: "next.ndjson")
            try JSONSerialization.data(withJSONObject: [
                "method": "POST", "url": "https://api.segment.io/v1/batch",
                "headers": [["name": "Content-Type", "value": "application/json"]], "body": next,
            ]).write(to: nextCapture)
            for run in [capture, nextCapture] {
                let check = try await tracksnap(
                    "validate", recorded.path, "--capture", run.path, "--validator", "segment", "--format", "json")
                #expect(check.status == 0, "\(run.lastPathComponent): \(check.stdout)\(check.stderr)")
                let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
                let findings = report?["findings"] as? [[String: Any]] ?? []
                let differences = findings.filter { $0["code"] as? String != "personal_data" }
                #expect(differences.isEmpty, "\(run.lastPathComponent): \(differences)")
            }
        }
    }

    @Test(
        "recording a vendor SDK's traffic through the control API writes no planted value, and the next run with other values validates",
        arguments: senders)
    func recorded(_ sender: Sender) async throws {
        let python = try PackagePaths.sdkPython(for: "the analytics SDKs")
        let server = try await ServeChild.launch([])
        defer { server.stop() }
        let script = PackagePaths.sdks.appending(path: "send_personal_data.py").path
        /// One run of the flow in a session of its own, its planted values.
        func run(_ person: String) async throws -> (session: String, planted: [String]) {
            let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
            let sent = try await runProcess(
                python, [script, sender.name, server.base, person], timeout: Bounds.process)
            #expect(sent.status == 0, "the \(sender.name) sender failed: \(sent.stderr)")
            _ = try await server.call("GET", "sessions/\(session)/requests?count=1&timeout=30")
            return (session, Array(try JSONDecoder().decode(Planted.self, from: Data(sent.stdout.utf8)).planted.values))
        }
        let first = try await run("ada")
        let body = try JSONSerialization.data(withJSONObject: ["validator": sender.profile])
        let answer = try await server.call("POST", "sessions/\(first.session)/record", body: body)
        let content = try #require(
            (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["snapshotContent"])
        let written = String(decoding: try JSONSerialization.data(withJSONObject: content), as: UTF8.self)
        #expect(written.contains("$regex"), "\(written)")
        for value in first.planted {
            for form in [value, value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value] {
                #expect(!written.contains(form), "the snapshot shows \(form): \(written)")
            }
        }
        // Another person: another email; the snapshot still matches, only the privacy check speaks.
        // (The first session ends: the SDKs' traffic goes to the one session open.)
        _ = try await server.call("DELETE", "sessions/\(first.session)")
        let second = try await run("bob")
        #expect(Set(second.planted) != Set(first.planted))
        let check = try JSONSerialization.data(withJSONObject: [
            "snapshotContent": content, "validator": sender.profile, "format": "json",
        ])
        let report =
            try JSONSerialization.jsonObject(
                with: try await server.call("POST", "sessions/\(second.session)/validate", body: check))
            as? [String: Any]
        let findings = report?["findings"] as? [[String: Any]] ?? []
        let differences = findings.filter { $0["code"] as? String != "personal_data" }
        #expect(differences.isEmpty, "\(differences)")
        #expect(findings.count == 3, "\(findings)")
    }
}
