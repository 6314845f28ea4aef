import Foundation
import Testing
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTestingServer
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs the example app (`Tools/TracksnapExampleApp`) in a process of its own, as a UI test
/// launches the app under test: its environment names the session it reports into.
@discardableResult
private func runApp(_ session: TracksnapClient.Session, extra: [String: String] = [:]) async throws -> ProcessResult {
    let app = try PackagePaths.builtExecutable("TracksnapExampleApp").get()
    var environment = ProcessInfo.processInfo.environment
    environment.merge(session.environment) { $1 }
    environment.merge(extra) { $1 }
    let result = try await runProcess(app, [], environment: environment, timeout: Bounds.process)
    #expect(result.status == 0, "the app failed: \(result.stderr)")
    #expect(
        result.stdout.contains("Checkout Started: 200") && result.stdout.contains("Order Completed: 200"),
        "\(result.stdout)")
    return result
}

/// The text of a Swift Testing issue's comments.
private func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}

@Suite(
    "App-side capture reports to a server session; the test validates through the control API",
    .tags(.process, .network), .leftToMakeTest)
struct AppSideCaptureTests {
    @Test("recorded from the app's first run, the second passes, and a release that drops a property fails")
    func recordValidateAndCatchAChange() async throws {
        try await withTemporaryDirectory { directory in
            try await withCaptureServer(.init(root: directory.path)) { server in
                let first = try await server.startSession(name: "run 1")
                try await runApp(first)
                // The app's requests completed only once the server had them: no wait is needed.
                let held = try await first.requests()
                #expect(held.map(\.url) == ["https://api.segment.io/v1/track", "https://api.segment.io/v1/track"])
                #expect(held.allSatisfy { $0.session == first.id })
                let recording = try await first.record(snapshot: "Snapshots/checkout.json", validator: "segment")
                #expect(recording.recorded && recording.events == 2, "\(recording)")
                #expect(
                    recording.generalized.contains { $0.path.hasSuffix("/properties/cart_id") && $0.reason == "uuid" },
                    "\(recording.generalized)")
                _ = try await first.stop()

                let second = try await server.startSession(name: "run 2")
                try await runApp(second)
                let passed = try await second.validate(snapshot: "Snapshots/checkout.json", settle: .milliseconds(500))
                #expect(passed.passed, "\(passed.json)")
                _ = try await second.stop()

                let changed = try await server.startSession(name: "run 3")
                try await runApp(changed, extra: ["EXAMPLE_APP_DROP_PROPERTY": "revenue"])
                let report = try await changed.report(
                    snapshot: "Snapshots/checkout.json", format: "text", settle: .milliseconds(500))
                #expect(!report.passed)
                #expect(report.text.contains("revenue") && report.text.contains("Order Completed"), "\(report.text)")
                _ = try await changed.stop()
            }
        }
    }

    @Test(
        "assertTracking across runs of the app, each into a session of its own: recorded, passed, then the change fails"
    )
    func assertTrackingRuns() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            try await withCaptureServer { server in
                await withKnownIssue {
                    await assertTracking(
                        matches: snapshot, runs: 2, on: server.client, validator: "segment", record: .missing
                    ) { session in
                        try await runApp(session)
                    }
                } matching: { issue in
                    let message = text(of: issue)
                    return message.contains(
                        "Recorded the snapshot \(snapshot) from 2 runs of the flow (2, 2 captured requests")
                        && message.contains("/properties/cart_id")
                }
                #expect(FileManager.default.fileExists(atPath: snapshot))

                let results = await assertTracking(matches: snapshot, runs: 1, on: server.client, record: .never) {
                    session in
                    try await runApp(session)
                }
                #expect(results.map(\.passed) == [true])

                var failing: [SnapshotResult] = []
                await withKnownIssue {
                    failing = await assertTracking(matches: snapshot, runs: 2, on: server.client, record: .never) {
                        session in
                        try await runApp(
                            session, extra: session.name == "run 2" ? ["EXAMPLE_APP_DROP_PROPERTY": "revenue"] : [:])
                    }
                } matching: { issue in
                    let message = text(of: issue)
                    return message.contains("in 1 of 2 runs of the flow") && message.contains("Run 2 of 2")
                        && message.contains("revenue")
                }
                #expect(failing.map(\.passed) == [true, false])
            }
        }
    }

    @Test("a flow that throws fails the test with its error, and its session is stopped")
    func flowThrows() async throws {
        struct AppCrashed: Error {}
        try await withCaptureServer { server in
            var opened: TracksnapClient.Session?
            await withKnownIssue {
                await assertTracking(matches: "/nonexistent/checkout.json", runs: 2, on: server.client, record: .never)
                { session in
                    opened = session
                    throw AppCrashed()
                }
            } matching: {
                text(of: $0).contains("run 1 of 2 of the flow threw: AppCrashed")
            }
            let session = try #require(opened)
            await #expect(throws: TracksnapClientError.self) { try await session.requests() }
        }
    }

    @Test(
        "requests an app fires at once reach the session in the order they were captured, each before the app gets its answer"
    )
    func orderAndDelivery() async throws {
        try await withCaptureServer { server in
            let session = try await server.startSession()
            let configuration = URLSessionConfiguration.ephemeral
            let capture = CaptureSession.install(on: configuration, mode: .respond(), reportingTo: session)
            let urlSession = URLSession(configuration: configuration)
            let url = try #require(URL(string: "https://collect.example/e"))
            // One answered request: the server holds it before the app sees its answer.
            let (_, answer) = try await urlSession.data(
                from: url.appending(queryItems: [URLQueryItem(name: "n", value: "first")]))
            #expect((answer as? HTTPURLResponse)?.statusCode == 200)
            #expect(try await session.requests().map(\.url) == ["https://collect.example/e?n=first"])

            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        _ = try await urlSession.data(
                            from: url.appending(queryItems: [URLQueryItem(name: "n", value: String(index))]))
                    }
                }
                try await group.waitForAll()
            }
            let reported = try await session.requests().map(\.url)
            #expect(reported.count == 21)
            #expect(reported == capture.requests.map(\.url), "the server's order is the capture's")
        }
    }

    @Test(
        "in pass-through the request reaches the real host and its answer reaches the app, and the session gets it too")
    func passThrough() async throws {
        // The vendor: another server, whose answer the app must get rather than a local one.
        let vendorAnswer = CaptureServer.CollectorResponse(
            status: 202, contentType: "application/json", body: #"{"vendor":true}"#)
        try await withCaptureServer(.init(collectorResponse: vendorAnswer)) { vendor in
            try await withCaptureServer { server in
                let session = try await server.startSession()
                let configuration = URLSessionConfiguration.ephemeral
                let capture = CaptureSession.install(on: configuration, mode: .passThrough, reportingTo: session)
                var request = URLRequest(url: vendor.url.appending(path: "v1/track"))
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(#"{"event":"Order Completed"}"#.utf8)
                let (data, answer) = try await URLSession(configuration: configuration).data(for: request)
                #expect((answer as? HTTPURLResponse)?.statusCode == 202)
                #expect(String(decoding: data, as: UTF8.self) == #"{"vendor":true}"#)
                #expect(vendor.server.store.requests().map(\.bodyText) == [#"{"event":"Order Completed"}"#])
                let reported = try await session.requests()
                #expect(reported.map(\.url) == [vendor.url.appending(path: "v1/track").absoluteString])
                #expect(reported.map(\.bodyText) == [#"{"event":"Order Completed"}"#])
                #expect(capture.requests.count == 1)
            }
        }
    }

    @Test("a server with a token: the app reports with the token its environment carries; without it, 401")
    func token() async throws {
        try await withCaptureServer(.init(token: "s3cret")) { server in
            let session = try await server.startSession()
            #expect(session.environment[TracksnapClient.Session.tokenVariable] == "s3cret")
            try await runApp(session)
            #expect(try await session.requests().count == 2)

            let tokenless = TracksnapClient(baseURL: server.url).session(id: session.id)
            await #expect {
                try await tokenless.add([CapturedRequest(id: "1", method: "GET", url: "https://t.example/e")])
            } throws: { error in
                (error as? TracksnapClientError)?.status == 401
            }
            #expect(try await session.requests().count == 2)
        }
    }

    @Test("an app whose session is gone is answered all the same, and says why nothing was reported")
    func sessionGone() async throws {
        try await withCaptureServer { server in
            let session = try await server.startSession()
            _ = try await session.stop()
            let result = try await runApp(session)
            #expect(
                result.stderr.contains("cannot report POST https://api.segment.io/v1/track into session \(session.id)"),
                "\(result.stderr)")
            #expect(result.stderr.contains("404"), "\(result.stderr)")
            #expect(server.server.store.requests().isEmpty)
        }
    }

    @Test("the environment names the session for the app; without a usable address it names none")
    func environment() async throws {
        let client = TracksnapClient(baseURL: try #require(URL(string: "http://127.0.0.1:8181")), token: "t0k")
        let session = client.session(id: "s3")
        #expect(
            session.environment == [
                "TRACKSNAP_SERVER_URL": "http://127.0.0.1:8181", "TRACKSNAP_SESSION": "s3", "TRACKSNAP_TOKEN": "t0k",
            ])
        let read = try #require(TracksnapClient.Session(environment: session.environment))
        #expect(read == session && read.client.token == "t0k")
        #expect(TracksnapClient.Session(environment: [:]) == nil)
        #expect(
            TracksnapClient.Session(environment: ["TRACKSNAP_SESSION": "s3", "TRACKSNAP_SERVER_URL": "127.0.0.1:8181"])
                == nil)
        #expect(TracksnapClient.Session(environment: ["TRACKSNAP_SESSION": "s3"]) == nil)
    }
}
