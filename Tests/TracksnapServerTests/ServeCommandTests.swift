import Foundation
import Testing
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("tracksnap serve", .tags(.process, .network), .leftToMakeTest)
struct ServeCommandTests {
    /// What a client holds open on the server when it is told to stop.
    enum HeldOpen: String, CaseIterable, Sendable {
        case nothing
        case keptAlive = "a kept-alive HTTP/1.1 connection"
        case tunnel = "a CONNECT tunnel"
        case interceptedTunnel = "an intercepted tunnel"
    }

    @Test(
        "SIGTERM or SIGINT ends serve within half a second, exit 0, whatever clients hold open, the journal holding every request",
        arguments: HeldOpen.allCases, [SIGTERM, SIGINT])
    func signalStops(held: HeldOpen, signal: Int32) async throws {
        try await withAuthority { authority in
            try await withListeningPort { upstream in
                // Serve's own part of the exit: the time from signal to exit beyond what a process
                // that exits at once (sh, killed) takes on this machine at this moment, the fastest
                // of up to three tries. A machine busy with the rest of the suite can hold any exit
                // up for a second; a server that waits for its clients (5 s for an intercepted
                // tunnel's close_notify) is slow every time.
                var took: [Duration] = []
                for _ in 1...3 where took.allSatisfy({ $0 >= .milliseconds(500) }) {
                    try await withTemporaryDirectory { directory in
                        let journal = directory.appending(path: "journal.ndjson").path
                        var options = ["--journal", journal, "--quiet"]
                        if held == .interceptedTunnel {
                            options += ["--intercept", "all", "--answer", "--ca-dir", authority.directory]
                        }
                        let server = try await ServeChild.launch(options)
                        defer { server.stop() }
                        for index in 1...2 {
                            _ = try await RawHTTP.send(port: server.port, target: "/e/\(index)")
                        }
                        let holder = try await hold(held, on: server.port, upstream: upstream, authority: authority)
                        defer { holder.close() }

                        let reference = try await ChildProcess.launch(
                            URL(fileURLWithPath: "/bin/sh"), ["-c", "echo ready; exec sleep 60"])
                        let referenceStart = ContinuousClock.now
                        reference.signal(SIGKILL)
                        _ = try await reference.waitForExit()
                        let baseline = ContinuousClock.now - referenceStart

                        let start = ContinuousClock.now
                        server.signal(signal)
                        let status = try await server.waitForExit()
                        took.append(ContinuousClock.now - start - baseline)
                        #expect(status == 0)
                        // The two requests, and the one the connection held carried (a tunnel: its CONNECT).
                        #expect(try CaptureFile.read(path: journal).count == (held == .nothing ? 2 : 3))
                    }
                }
                #expect(
                    took.contains { $0 < .milliseconds(500) },
                    "with \(held.rawValue) open, serve took \(took) to exit beyond a process killed beside it")
            }
        }
    }

    /// Something a client keeps open on the server, until `close()`.
    private struct Holder {
        var socket: Socket?
        var process: ChildProcess?

        func close() {
            socket?.close()
            process?.stop()
        }
    }

    /// Opens what `held` names on the server at `port`, one request through it answered.
    private func hold(_ held: HeldOpen, on port: Int, upstream: Int, authority: CertificateAuthority) async throws
        -> Holder
    {
        switch held {
        case .nothing:
            return Holder()
        case .keptAlive, .tunnel:
            let request =
                held == .keptAlive
                ? "GET /kept HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
                : "CONNECT 127.0.0.1:\(upstream) HTTP/1.1\r\nHost: 127.0.0.1:\(upstream)\r\n\r\n"
            let (socket, head) = try await offloaded {
                let socket = try Socket(port: port, timeout: 30)
                try socket.write(Array(request.utf8))
                return (socket, String(decoding: try socket.readHead(), as: UTF8.self))
            }
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
            return Holder(socket: socket)
        case .interceptedTunnel:
            let script = PackagePaths.root.appending(path: "Tests/TracksnapServerTests/Fixtures/tunnel_client.py").path
            let process = try await ChildProcess.launch(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3", script, String(port), "collect.example:443", "hold", authority.certificatePath])
            #expect(process.firstLine == "HTTP/1.1 200 OK")
            return Holder(process: process)
        }
    }

    @Test("the journal keeps every answered request of a client killed mid-way")
    func killedClient() async throws {
        try await withTemporaryDirectory { directory in
            let journal = directory.appending(path: "journal.ndjson").path
            let server = try await ServeChild.launch(["--journal", journal])
            // A shell loop of curls, killed while it sends; it counts the answers it got.
            let answered = directory.appending(path: "answered").path
            let script = """
                i=0; while [ $i -lt 100000 ]; do curl -s -o /dev/null -d "{\\"i\\":$i}" http://127.0.0.1:\(server.port)/loop/$i && echo $i >> \(answered); i=$((i+1)); done
                """
            let client = try Spawned(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
            // Wait for some traffic through the control API, then kill the client.
            let id = try await startSession(server.port)
            // 21 recorded: the client sends each request after confirming the one before, so at
            // least 20 answers are confirmed (waiting for 20 raced with the 20th confirmation).
            _ = try await control(server.port, "GET", "sessions/\(id)/requests?count=21&timeout=30")
            client.signal(SIGKILL)
            _ = try await offloaded { client.wait(timeout: 30) }
            let confirmed = try String(contentsOfFile: answered, encoding: .utf8).split(separator: "\n").count
            let recorded = try CaptureFile.read(path: journal)
            #expect(confirmed >= 20)
            // Every answered request is there; at most one more arrived as the client died.
            #expect(recorded.count >= confirmed && recorded.count <= confirmed + 1)
            #expect(recorded.prefix(confirmed).map(\.body) == (0..<confirmed).map { .text("{\"i\":\($0)}") })
            server.signal(SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
    }

    @Test(
        "binding to a non-loopback address without a token is a usage error; a name starting 127. is not loopback",
        arguments: ["0.0.0.0", "127.evil.example", "127.0.0.1.nip.io"])
    func nonLoopbackNeedsToken(host: String) async throws {
        let executable = try PackagePaths.executable.get()
        let result = try await run(executable.path, ["serve", "--host", host])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--token"))
        #expect(result.stdout.isEmpty)
    }

    @Test("--allow-host adds a name the control API answers to; other names get 421")
    func allowHost() async throws {
        let server = try await ServeChild.launch(["--allow-host", "tracksnap.test", "--allow-host", "box:1234"])
        #expect(
            try await RawHTTP.send(
                port: server.port, target: "/__tracksnap/health", host: "tracksnap.test:\(server.port)"
            ).status == 200)
        #expect(
            try await RawHTTP.send(port: server.port, target: "/__tracksnap/health", host: "box:1234").status == 200)
        #expect(
            try await RawHTTP.send(port: server.port, target: "/__tracksnap/health", host: "box:\(server.port)").status
                == 421)
        #expect(
            try await RawHTTP.send(port: server.port, target: "/__tracksnap/health", host: "evil.test").status == 421)
        server.signal(SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// Where `serve` is given its token.
    enum TokenSource: String, CaseIterable, Sendable {
        case commandLine = "--token"
        case file = "--token-file"
        case environment = "$TRACKSNAP_TOKEN"
    }

    @Test(
        "the control API demands the token given with --token, --token-file or $TRACKSNAP_TOKEN",
        arguments: TokenSource.allCases)
    func token(source: TokenSource) async throws {
        try await withTemporaryDirectory { directory in
            let token = "t0k-\(UUID().uuidString)"
            let file = directory.appending(path: "token")
            try Data((token + "\n").utf8).write(to: file)
            chmod(file.path, 0o600)
            var environment = ProcessInfo.processInfo.environment
            environment["TRACKSNAP_TOKEN"] = source == .environment ? token : nil
            let options: [String] =
                switch source {
                case .commandLine: ["--token", token]
                case .file: ["--token-file", file.path]
                case .environment: []
                }
            let server = try await ServeChild.launch(options, environment: environment)
            defer { server.stop() }
            #expect(try await control(server.port, "GET", "health").status == 401)
            #expect(
                try await control(server.port, "GET", "health", headers: [("Authorization", "Bearer \(token)")]).status
                    == 200)
            server.signal(SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
    }

    @Test(
        "a token file others may read, an empty one, one of two lines, or both token options are refused, naming the file and never the token",
        arguments: [
            ("open", "open to other users (mode 0644): run chmod 600"), ("empty", "holds no token"),
            ("two lines", "must hold the token alone, on one line"),
            ("with --token", "pass the token with --token or --token-file, not both"),
        ])
    func badTokenFile(kind: String, message: String) async throws {
        try await withTemporaryDirectory { directory in
            let token = "t0k-\(UUID().uuidString)"
            let file = directory.appending(path: "token")
            let content = ["empty": "", "two lines": "\(token)\nsecond\n"][kind] ?? token
            try Data(content.utf8).write(to: file)
            chmod(file.path, kind == "open" ? 0o644 : 0o600)
            let extra = kind == "with --token" ? ["--token", "other"] : []
            let result = try await run(
                try PackagePaths.executable.get().path, ["serve", "--token-file", file.path] + extra)
            #expect(result.status == 2)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(kind == "with --token" || result.stderr.contains(file.path), "\(result.stderr)")
            #expect(!result.stderr.contains(token), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test(
        "prints a line per captured request on stderr, with a hint for one no session got; --quiet prints none",
        arguments: [false, true])
    func requestLog(quiet: Bool) async throws {
        let server = try await ServeChild.launch(quiet ? ["--quiet"] : [])
        let first = try await startSession(server.port)
        _ = try await startSession(server.port)
        _ = try await RawHTTP.send(port: server.port, target: "/e?ev=mine", headers: [("X-Tracksnap-Session", first)])
        _ = try await RawHTTP.send(port: server.port, target: "/e?ev=lost")
        server.signal(SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let stderr = try String(contentsOf: server.stderrURL, encoding: .utf8)
        if quiet {
            #expect(stderr.isEmpty)
        } else {
            let lines = stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 2)
            #expect(lines.first?.hasSuffix(" s1 GET http://127.0.0.1:\(server.port)/e?ev=mine 200") == true)
            #expect(
                lines.last?.hasSuffix(
                    " - GET http://127.0.0.1:\(server.port)/e?ev=lost 200  not attributed: 2 sessions open; send X-Tracksnap-Session or use /__tracksnap/s/ID/"
                ) == true)
        }
    }
}
