import Foundation
import Testing
import TracksnapReplay
import TracksnapTestSupport
import TracksnapTraffic

/// `tracksnap serve --cassette`: a backend recorded once, then replayed after it has gone.
@Suite("tracksnap serve answers from a cassette what it would forward", .tags(.process), .leftToMakeTest)
struct ServeReplayTests {
    /// The replay tests' backend: every answer new, a bearer token demanded.
    static let backend = PackagePaths.root.appending(path: "Tests/TracksnapReplayTests/Scripts/backend.py")

    /// A GET with the backend's token: the body, then the status on a line of its own.
    func get(_ url: String, proxy: String? = nil) async throws -> (body: String, status: String) {
        var arguments = ["-H", "Authorization: Bearer s3cr3t-token", "-w", "\n%{http_code}", url]
        if let proxy { arguments = ["-x", proxy] + arguments }
        let result = try await run(
            "/usr/bin/env", ["curl", "--silent", "--show-error", "--max-time", "30"] + arguments)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.dropLast().joined(separator: "\n"), String(lines.last ?? ""))
    }

    @Test(
        "reverse proxy: recorded in front of a live backend, replayed byte for byte in front of another port once it stopped; a miss is a 599 that says why"
    )
    func reverse() async throws {
        try await withTemporaryDirectory { directory in
            let cassette = directory.appending(path: "Cassettes/api.json").path
            let backend = try await ChildProcess.launch(PackagePaths.python, [Self.backend.path])
            let recording = try await ServeChild.launch([
                "--upstream", "http://127.0.0.1:\(backend.firstLine)", "--cassette", cassette, "--record-mode", "once",
                "--quiet",
            ])
            let first = try await get("\(recording.base)/v1/products?page=1")
            #expect(first.status == "200" && first.body.contains("\"path\": \"/v1/products?page=1\""), "\(first)")
            // Written a moment after the last interaction, and at the latest when the server stops.
            recording.stop()
            #expect(try await recording.waitForExit() == 0)
            #expect(try Cassette.read(path: cassette).cassette.interactions.count == 1)
            backend.stop()
            _ = try await backend.waitForExit()

            // Nothing listens on port 9: only the cassette can answer, and the token may differ.
            let journal = directory.appending(path: "replayed.ndjson").path
            let replaying = try await ServeChild.launch([
                "--upstream", "http://127.0.0.1:9", "--cassette", cassette, "--record-mode", "none", "--quiet",
                "--journal", journal,
            ])
            defer { replaying.stop() }
            for _ in 1...2 {
                let again = try await get("\(replaying.base)/v1/products?page=1")
                #expect(again.status == "200" && again.body == first.body)
            }
            let text = try String(contentsOfFile: cassette, encoding: .utf8)
            #expect(!text.contains("s3cr3t-token") && !text.contains("session="), "\(text)")

            let miss = try await get("\(replaying.base)/v1/products?page=2")
            #expect(miss.status == "599")
            let answer = try JSONSerialization.jsonObject(with: Data(miss.body.utf8)) as? [String: Any]
            #expect((answer?["request"] as? String)?.hasSuffix("/v1/products?page=2") == true, "\(miss.body)")
            let nearest = (answer?["nearest"] as? [[String: Any]])?.first
            #expect(nearest?["differences"] as? [String] == ["query: ?page=2, recorded ?page=1"])
            #expect((answer?["record"] as? String)?.contains("--record-mode failed") == true)
            let stderr = try String(contentsOf: replaying.stderrURL, encoding: .utf8)
            #expect(stderr.contains("no recorded answer for GET http://127.0.0.1:9/v1/products?page=2"), "\(stderr)")
            // The same lines as in-process, one by one, not one line with `\n` in it.
            #expect(stderr.contains("(record mode never)\n  nearest: interaction 1, GET "), "\(stderr)")

            // The miss is journaled with its request, and validating the run reports it, whatever
            // the snapshot expects: the app was answered 599, not by its backend.
            let snapshot = directory.appending(path: "products.json")
            try Data(#"{"requests": [{"method": "GET", "url": {"$regex": ".*/v1/products"}}]}"#.utf8).write(
                to: snapshot)
            let validated = try await runProcess(
                try PackagePaths.executable.get(),
                ["validate", snapshot.path, "--capture", journal, "--format", "json"])
            #expect(validated.status == 1, "\(validated.stdout)\(validated.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(validated.stdout.utf8)) as? [String: Any]
            let findings = ((report?["snapshots"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
            let misses = findings.filter { $0["code"] as? String == "replay_miss" }
            #expect(misses.count == 1, "\(validated.stdout)")
            #expect((misses.first?["message"] as? String)?.contains("nearest: interaction 1") == true)
            // A run the cassette did not answer is no result to accept.
            #expect((report?["snapshots"] as? [[String: Any]])?.first?["acceptCommand"] == nil, "\(validated.stdout)")
        }
    }

    @Test("forward proxy: an absolute-form request is recorded, then replayed with the backend gone")
    func forward() async throws {
        try await withTemporaryDirectory { directory in
            let cassette = directory.appending(path: "proxy.json").path
            let backend = try await ChildProcess.launch(PackagePaths.python, [Self.backend.path])
            let url = "http://127.0.0.1:\(backend.firstLine)/v1/cart"
            let recording = try await ServeChild.launch(["--cassette", cassette, "--record-mode", "missing", "--quiet"])
            let first = try await get(url, proxy: recording.base)
            #expect(first.status == "200")
            recording.stop()
            #expect(try await recording.waitForExit() == 0)
            backend.stop()
            _ = try await backend.waitForExit()

            let replaying = try await ServeChild.launch(["--cassette", cassette, "--record-mode", "never", "--quiet"])
            defer { replaying.stop() }
            let again = try await get(url, proxy: replaying.base)
            #expect(again.status == "200" && again.body == first.body)
            #expect(try Cassette.read(path: cassette).cassette.interactions.map(\.request.url) == [url])
        }
    }

    @Test("each control-API session replays its own cassette, under the root; one outside it is refused with 400")
    func sessions() async throws {
        try await withTemporaryDirectory { directory in
            for (name, answer) in [("a", "from cassette a"), ("b", "from cassette b")] {
                try Cassette(
                    name: name, format: .tracksnap,
                    interactions: [
                        Interaction(
                            request: .init(method: "GET", url: "http://127.0.0.1:9/v1/who"),
                            response: .init(status: 200, body: .text(answer)))
                    ]
                ).write(to: directory.appending(path: "Cassettes/\(name).json").path)
            }
            let server = try await ServeChild.launch([
                "--upstream", "http://127.0.0.1:9", "--root", directory.path, "--quiet",
            ])
            defer { server.stop() }
            var ids: [String] = []
            for name in ["a", "b"] {
                let body = Data(#"{"cassette": "Cassettes/\#(name).json", "recordMode": "none"}"#.utf8)
                ids.append(try await server.call("POST", "sessions", body: body, as: ServeChild.Session.self).id)
            }
            // Parallel tests, each on its own session's path, each answered from its own cassette.
            async let first = get("\(server.base)/__tracksnap/s/\(ids[0])/v1/who")
            async let second = get("\(server.base)/__tracksnap/s/\(ids[1])/v1/who")
            #expect(try await first.body == "from cassette a")
            #expect(try await second.body == "from cassette b")

            let outside = try await run(
                "/usr/bin/env",
                [
                    "curl", "--silent", "-w", "\n%{http_code}", "-X", "POST", "\(server.base)/__tracksnap/sessions",
                    "-H", "Content-Type: application/json", "-d", #"{"cassette": "../elsewhere.json"}"#,
                ])
            #expect(
                outside.stdout.hasSuffix("\n400") && outside.stdout.contains("is outside the root"), "\(outside.stdout)"
            )
        }
    }

    @Test(
        "learnt from two recorded runs, a cassette answers a third run's new time and id, and still misses a changed search"
    )
    func learnt() async throws {
        try await withTemporaryDirectory { directory in
            let backend = try await ChildProcess.launch(PackagePaths.python, [Self.backend.path])
            defer { backend.stop() }
            /// The app's search: a new time in the query and a new id in the body on every run.
            func search(_ base: String, term: String = "mug") async throws -> (body: String, status: String) {
                let body = #"{"term": "\#(term)", "nonce": "\#(UUID().uuidString.lowercased())"}"#
                let url = "\(base)/v1/search?page=1&ts=\(Int(Date().timeIntervalSince1970 * 1000))"
                let result = try await run(
                    "/usr/bin/env",
                    [
                        "curl", "--silent", "--show-error", "--max-time", "30", "-w", "\n%{http_code}",
                        "-H", "Authorization: Bearer s3cr3t-token", "-H", "Content-Type: application/json",
                        "-d", body, url,
                    ])
                let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                return (lines.dropLast().joined(separator: "\n"), String(lines.last ?? ""))
            }
            var runs: [String] = []
            var first = ""
            for run in 1...2 {
                let cassette = directory.appending(path: "run\(run).json").path
                let server = try await ServeChild.launch([
                    "--upstream", "http://127.0.0.1:\(backend.firstLine)", "--cassette", cassette, "--record-mode",
                    "all", "--quiet",
                ])
                let answer = try await search(server.base)
                if run == 1 { first = answer.body }
                server.stop()
                #expect(try await server.waitForExit() == 0)
                runs.append(cassette)
            }
            let learnt = directory.appending(path: "Cassettes/search.json").path
            let learning = try await runProcess(
                try PackagePaths.executable.get(), ["cassette", "learn", learnt, "--from"] + runs)
            #expect(learning.status == 0, "\(learning.stderr)")
            #expect(learning.stdout.contains("query ts (epoch-ms)") && learning.stdout.contains("/nonce (uuid)"))

            let replaying = try await ServeChild.launch([
                "--upstream", "http://127.0.0.1:9", "--cassette", learnt, "--record-mode", "never", "--quiet",
            ])
            defer { replaying.stop() }
            let third = try await search(replaying.base)
            #expect(third.status == "200" && third.body == first)
            let changed = try await search(replaying.base, term: "cup")
            #expect(changed.status == "599" && changed.body.contains("body:"), "\(changed)")

            // A run that is not the same flow is refused, naming it.
            let other = directory.appending(path: "other.json").path
            try Cassette(
                format: .tracksnap,
                interactions: [
                    Interaction(request: .init(method: "GET", url: "https://a.example/x"), response: .init(status: 200))
                ]
            ).write(to: other)
            let refused = try await runProcess(
                try PackagePaths.executable.get(), ["cassette", "learn", learnt, "--from", runs[0], other])
            #expect(
                refused.status == 2 && refused.stderr.contains("\(other): error: not the same flow"),
                "\(refused.stderr)")
        }
    }

    @Test(
        "a cassette that cannot be read, one not there to replay in never, or a record mode that is not one, stops serve with exit 2 and says where"
    )
    func refused() async throws {
        try await withTemporaryDirectory { directory in
            let broken = directory.appending(path: "broken.json")
            try Data(#"{"interactions": [{"request": {"url": "https://a.example/"}, "response": {"status": 7}}]}"#.utf8)
                .write(to: broken)
            let executable = try PackagePaths.executable.get()
            let unreadable = try await runProcess(
                executable, ["serve", "--port", "0", "--cassette", broken.path, "--record-mode", "never"])
            #expect(unreadable.status == 2)
            #expect(unreadable.stderr.contains("\(broken.path):1:85: error: a response needs its \"status\""))
            // A typo in its path would have answered every request 599, "the cassette is empty".
            let typo = directory.appending(path: "Casettes/api.json").path
            let missing = try await runProcess(
                executable, ["serve", "--port", "0", "--cassette", typo, "--record-mode", "never"])
            #expect(missing.status == 2)
            #expect(
                missing.stderr.contains(
                    "\(typo): error: no such cassette: record mode never only replays what was recorded; record it first (start tracksnap serve again with --record-mode"
                ), "\(missing.stderr)")
            let mode = try await runProcess(
                executable, ["serve", "--port", "0", "--cassette", broken.path, "--record-mode", "sometimes"])
            #expect(mode.status != 0 && mode.stderr.contains("--record-mode is one of missing, all, failed, never"))
        }
    }

    @Test(
        "a session's cassette without a recordMode takes serve's default, decided once at start and named in the answer; a bad TRACKSNAP_RECORD stops serve"
    )
    func sessionDefaultMode() async throws {
        try await withTemporaryDirectory { directory in
            var environment = ProcessInfo.processInfo.environment
            environment["TRACKSNAP_RECORD"] = nil
            let body = Data(#"{"cassette": "api.json"}"#.utf8)
            try Data(#"{"cassette": 1, "interactions": []}"#.utf8).write(to: directory.appending(path: "api.json"))
            for (ci, expected) in [("true", "never"), ("", "missing")] {
                environment["CI"] = ci
                let server = try await ServeChild.launch(
                    ["--root", directory.path, "--quiet"], environment: environment)
                defer { server.stop() }
                let answer = try JSONDecoder().decode(
                    SessionAnswer.self, from: try await server.call("POST", "sessions", body: body))
                #expect(answer.recordMode == expected, "CI=\(ci)")
                let listed = try JSONDecoder().decode(
                    [SessionAnswer].self, from: try await server.call("GET", "sessions"))
                #expect(listed.map(\.recordMode) == [expected])
            }
            environment["TRACKSNAP_RECORD"] = "sometimes"
            // It used to start, and a session's cassette then quietly recorded nothing (`never`).
            let refused = try await runProcess(
                try PackagePaths.executable.get(), ["serve", "--port", "0", "--root", directory.path],
                environment: environment)
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("error: TRACKSNAP_RECORD=sometimes is not a record mode"))
        }
    }
}
