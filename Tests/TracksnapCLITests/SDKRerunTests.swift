import Foundation
import Testing
import TracksnapTestSupport

/// Szimpla's loop with the vendors' real SDKs: record from one run, validate every later run.
/// Each run is the SDK's script against a fresh `tracksnap serve` on a new port, so ids,
/// timestamps and the server's origin all differ between runs.
@Suite("Record once, pass on every later run: the vendors' Python SDKs", .tags(.process), .leftToMakeTest)
struct SDKRerunTests {
    @Test(
        "each SDK run three times against three fresh servers: recorded from the first run through its vendor profile and through the default profile, the next two runs pass with no edit",
        arguments: SDKCase.all)
    func threeRuns(_ sdk: SDKCase) async throws {
        try await withTemporaryDirectory { directory in
            var origins: Set<String> = []
            var captures: [String] = []
            for run in 1...3 {
                let (origin, capture) = try await SDKRun.capture(
                    sdk, into: directory.appending(path: "run-\(run).ndjson"))
                origins.insert(origin)
                captures.append(capture)
            }
            #expect(origins.count == 3, "the runs must go to three servers on three ports: \(origins)")
            for profile in [sdk.vendor, "default"] {
                let snapshot = directory.appending(path: "\(profile).json").path
                let record = try await tracksnap("record", snapshot, "--capture", captures[0], "--validator", profile)
                #expect(record.status == 0, "\(record.stderr)")
                let text = try String(contentsOfFile: snapshot, encoding: .utf8)
                #expect(!text.contains("127.0.0.1:"), "the first server's port was written to the \(profile) snapshot")
                if profile == "default" {
                    #expect(
                        record.stdout.contains("(local-origin)"),
                        "the server's origin is not listed as a pattern: \(record.stdout)")
                }
                for (run, capture) in captures.enumerated().dropFirst() {
                    let check = try await tracksnap("validate", snapshot, "--capture", capture, "--validator", profile)
                    #expect(
                        check.status == 0,
                        "run \(run + 1) through \(profile) fails against the snapshot of run 1:\n\(check.stdout)\n\(text)"
                    )
                }
            }
        }
    }

    @Test(
        "six SDKs through one server, three times: each vendor profile records only its vendor from the first run, and the next runs pass"
    )
    func sixSDKsOneServer() async throws {
        try await withTemporaryDirectory { directory in
            var captures: [String] = []
            for run in 1...3 {
                let (_, capture) = try await SDKRun.capture(
                    SDKCase.all, into: directory.appending(path: "six-\(run).ndjson")
                ) { server, session in
                    guard run == 1 else { return }
                    // The control API validates the shared session against each committed snapshot.
                    for sdk in SDKCase.all {
                        let snapshot = PackagePaths.sdks.appending(path: "\(sdk.vendor).json").path
                        let body = try JSONSerialization.data(withJSONObject: [
                            "snapshot": snapshot, "validator": sdk.vendor,
                        ])
                        let report =
                            try JSONSerialization.jsonObject(
                                with: try await server.call("POST", "sessions/\(session)/validate", body: body))
                            as? [String: Any]
                        #expect(report?["passed"] as? Bool == true, "\(sdk.vendor): \(report ?? [:])")
                    }
                }
                captures.append(capture)
            }
            for sdk in SDKCase.all {
                let recorded = directory.appending(path: "\(sdk.vendor).json")
                let record = try await tracksnap(
                    "record", recorded.path, "--capture", captures[0], "--validator", sdk.vendor)
                #expect(record.status == 0, "\(record.stderr)")
                let snapshot = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: recorded)) as? [String: Any])
                let vendors = Set(
                    ((snapshot["events"] as? [[String: Any]]) ?? []).compactMap { $0["vendor"] as? String })
                #expect(vendors == [sdk.vendor], "\(sdk.vendor)'s snapshot has events of \(vendors)")
                #expect(snapshot["requests"] == nil, "\(sdk.vendor)'s snapshot has other traffic as requests")
                for (run, capture) in captures.enumerated() {
                    let check = try await tracksnap("validate", recorded.path, "--capture", capture)
                    #expect(check.status == 0, "run \(run + 1) through \(sdk.vendor):\n\(check.stdout)")
                }
            }
        }
    }

    @Test(
        "a real change in the Segment SDK's next run fails with exactly one finding",
        arguments: [
            ("rename", "segment", "value_mismatch"), ("drop", "segment", "missing_key"),
            ("change", "segment", "value_mismatch"), ("twice", "segment", "count_mismatch"),
            ("rename", "default", "value_mismatch"), ("drop", "default", "missing_key"),
            ("change", "default", "value_mismatch"),
        ])
    func realChange(change: String, profile: String, code: String) async throws {
        let segment = try #require(SDKCase.all.first { $0.vendor == "segment" })
        try await withTemporaryDirectory { directory in
            let (_, first) = try await SDKRun.capture(segment, into: directory.appending(path: "run-1.ndjson"))
            let (_, changed) = try await SDKRun.capture(
                segment, change: change, into: directory.appending(path: "run-2.ndjson"))
            let snapshot = directory.appending(path: "segment.json").path
            let record = try await tracksnap("record", snapshot, "--capture", first, "--validator", profile)
            #expect(record.status == 0, "\(record.stderr)")
            let check = try await tracksnap(
                "validate", snapshot, "--capture", changed, "--validator", profile, "--format", "json")
            #expect(check.status == 1, "\(check.stdout)")
            let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
            let snapshots = report?["snapshots"] as? [[String: Any]]
            let findings = (snapshots?.first?["findings"] as? [[String: Any]]) ?? []
            #expect(findings.map { $0["code"] as? String } == [code], "\(check.stdout)")
        }
    }
}

/// One run of SDK scripts against a fresh server, saved as an NDJSON capture.
enum SDKRun {
    /// Runs the SDK's script (with a change, if given) against a new `tracksnap serve`, waits on
    /// the control API for its requests and writes them to `file`.
    /// - Returns: the server's origin and the capture's path.
    static func capture(_ sdk: SDKCase, change: String? = nil, into file: URL) async throws -> (
        origin: String, capture: String
    ) {
        try await capture([sdk], change: change, into: file) { _, _ in }
    }

    /// Runs each SDK's script in turn against one new server and session, then calls `inspect`
    /// with the server and the session before it stops.
    static func capture(
        _ sdks: [SDKCase], change: String? = nil, into file: URL, inspect: (ServeChild, String) async throws -> Void
    ) async throws -> (origin: String, capture: String) {
        let programs = sdks.map { sdk in
            Program(
                script: PackagePaths.sdks.appending(path: "send_\(sdk.vendor).py"),
                arguments: change.map { [$0] } ?? [], requests: sdk.requests)
        }
        return try await capture(programs, into: file, inspect: inspect)
    }

    /// A Python script run with the session's base URL as its first argument, and the requests it sends.
    struct Program {
        var script: URL
        var arguments: [String] = []
        var requests: Int
    }

    /// Runs each program in turn (with the venv's Python) against one new server and session,
    /// waits on the control API for their requests, calls `inspect` with the server and the
    /// session before it stops, and writes the requests to `file`.
    /// - Returns: the server's origin and the capture's path.
    static func capture(
        _ programs: [Program], into file: URL, inspect: (ServeChild, String) async throws -> Void = { _, _ in }
    ) async throws -> (origin: String, capture: String) {
        let python = SDKEndToEndTests.python
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ServeFailure(
                description:
                    "\(python.path) is missing: run `make test`, which installs the analytics SDKs these tests run")
        }
        let server = try await ServeChild.launch()
        defer { server.stop() }
        let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
        for program in programs {
            let sent = try await runProcess(
                python, [program.script.path, server.base] + program.arguments, timeout: Bounds.process)
            guard sent.status == 0 else {
                throw ServeFailure(description: "\(program.script.lastPathComponent) failed: \(sent.stderr)")
            }
        }
        let count = programs.map(\.requests).reduce(0, +)
        let captured = try await server.call("GET", "sessions/\(session)/requests?count=\(count)&timeout=30")
        let lines = try #require(try JSONSerialization.jsonObject(with: captured) as? [Any])
        #expect(lines.count == count)
        try await inspect(server, session)
        let ndjson = try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        try (ndjson.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return (server.base, file.path)
    }
}
