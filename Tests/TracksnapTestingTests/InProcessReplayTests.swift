import Foundation
import Testing
import TracksnapReplay
import TracksnapTestSupport
import TracksnapTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("A cassette answers an app's URLSession in-process", .tags(.process), .leftToMakeTest)
struct InProcessReplayTests {
    /// One run of the app's flow: an API call the backend answers, an analytics call answered
    /// locally and captured. Returns the API's answer and what was captured.
    func run(_ player: CassettePlayer, base: String) async throws -> (
        answer: Data, status: Int, captured: [CapturedRequest]
    ) {
        let configuration = URLSessionConfiguration.ephemeral
        let capture = CaptureSession.install(
            on: configuration, mode: player.captureMode { $0.host == "collect.example" })
        let session = URLSession(configuration: configuration)
        var api = URLRequest(url: URL(string: "\(base)/v1/products?page=1")!)
        api.setValue("Bearer s3cr3t-token", forHTTPHeaderField: "Authorization")
        let (answer, response) = try await session.data(for: api)
        var track = URLRequest(url: URL(string: "https://collect.example/e?ev=products_viewed")!)
        track.httpMethod = "POST"
        _ = try await session.data(for: track)
        let captured = await capture.waitForRequests(count: 2)
        return (answer, (response as? HTTPURLResponse)?.statusCode ?? 0, captured)
    }

    @Test(
        "recorded once against a live backend, replayed after it stopped: the same bytes, no token or cookie in the cassette"
    )
    func recordThenReplay() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(path: "Cassettes/products.json").path
            let script = PackagePaths.root.appending(path: "Tests/TracksnapReplayTests/Scripts/backend.py")
            let backend = try await ChildProcess.launch(PackagePaths.python, [script.path])
            let base = "http://127.0.0.1:\(backend.firstLine)"

            let recording = try CassettePlayer(path: path, mode: .missing, writeDelay: .seconds(600))
            let first = try await run(recording, base: base)
            #expect(first.status == 200)
            // Released at the end of the run, the capture has its cassette write what it recorded.
            #expect(FileManager.default.fileExists(atPath: path), "not written when the capture was released")
            #expect(recording.problems.isEmpty, "\(recording.problems)")
            backend.stop()
            _ = try await backend.waitForExit()

            // The backend is gone: only the cassette can answer, and it answers the same.
            for _ in 1...2 {
                let replaying = try CassettePlayer(path: path, mode: .never)
                let again = try await run(replaying, base: base)
                #expect(again.status == 200 && again.answer == first.answer)
                #expect(replaying.problems.isEmpty, "\(replaying.problems)")
                #expect(again.captured.map(\.host) == ["127.0.0.1", "collect.example"])
            }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains("s3cr3t-token") && !text.contains("session="), "\(text)")
            #expect(
                try Cassette.read(path: path).cassette.interactions.count == 1, "analytics stay out of the cassette")

            // Another page was never recorded: a miss, answered 599 with why, and nothing sent.
            let missing = try CassettePlayer(path: path, mode: .never)
            let (body, response) = try await URLSession(
                configuration: {
                    let configuration = URLSessionConfiguration.ephemeral
                    _ = CaptureSession.install(on: configuration, mode: missing.captureMode())
                    return configuration
                }()
            ).data(from: URL(string: "\(base)/v1/products?page=2")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 599)
            #expect(String(decoding: body, as: UTF8.self).contains("differs in query: ?page=2, recorded ?page=1"))
            #expect(missing.problems.count == 1)
        }
    }

    @Test(
        "a cassette vcrpy recorded from a backend that compresses: URLSession reads the JSON whether vcrpy stored the answer decoded or gzip'd"
    )
    func compressed() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(path: "compressed.yaml").path
            let script = PackagePaths.root.appending(path: "Tests/TracksnapReplayTests/Scripts/vcrpy_compressed.py")
            let recorded = try await runProcess(PackagePaths.python, [script.path, "record", path])
            try #require(recorded.status == 0, "\(recorded.stderr)")
            let base = recorded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let player = try CassettePlayer(path: path, mode: .never)
            let configuration = URLSessionConfiguration.ephemeral
            let capture = CaptureSession.install(on: configuration, mode: player.captureMode())
            let session = URLSession(configuration: configuration)
            // Brotli stored still encoded is left out: tracksnap has no brotli decoder, and serves
            // it as recorded (Documentation/Replay.md).
            let paths = ["gzip", "gzip?client=urllib", "deflate", "deflate?client=urllib", "br"]
            for path in paths {
                let (data, response) = try await session.data(from: URL(string: "\(base)/\(path)")!)
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                let coding = String(path.prefix { $0 != "?" })
                #expect(json?["coding"] as? String == coding, "\(path): \(String(decoding: data, as: UTF8.self))")
                let headers = (response as? HTTPURLResponse)?.allHeaderFields as? [String: String] ?? [:]
                #expect(headers.keys.allSatisfy { $0.lowercased() != "content-encoding" }, "\(path): \(headers)")
                #expect(headers.first { $0.key.lowercased() == "content-length" }?.value == String(data.count))
            }
            #expect(player.problems.isEmpty, "\(player.problems)")
            _ = capture
        }
    }
}
