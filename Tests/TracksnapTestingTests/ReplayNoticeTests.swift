import Foundation
import Synchronization
import Testing
import TracksnapExtensions
import TracksnapReplay
import TracksnapTestSupport
import TracksnapTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The notices an in-process replay gives as it answers, collected instead of printed.
final class Notices: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func add(_ line: String) { lines.withLock { $0.append(line) } }
}

@Suite("An in-process replay says what it did where it did it, as serve does", .tags(.process), .leftToMakeTest)
struct ReplayNoticeTests {
    @Test("a cassette miss is told when the app is answered 599, before the app can throw on that answer")
    func missToldAtOnce() async throws {
        try await withTemporaryDirectory { directory in
            let notices = Notices()
            let cassette = directory.appending(path: "empty.json")
            try Data(#"{"cassette": 1, "interactions": []}"#.utf8).write(to: cassette)
            let mode = try CaptureMode.replay(cassette: cassette.path, record: .never, notices: notices.add)
            let configuration = URLSessionConfiguration.ephemeral
            let capture = CaptureSession.install(on: configuration, mode: mode)
            let (_, response) = try await URLSession(configuration: configuration).data(
                from: try #require(URL(string: "http://127.0.0.1:9/v1/products?page=2")))
            #expect((response as? HTTPURLResponse)?.statusCode == 599)
            // Told by now: an app decoding the 599 would throw here, and the text is already out.
            let told = notices.all
            #expect(told.count == 1, "\(told)")
            #expect(
                told.first?.contains("no recorded answer for GET http://127.0.0.1:9/v1/products?page=2") == true,
                "\(told)")
            #expect(told.first?.contains("to record it:") == true, "\(told)")
            _ = capture
        }
    }

    @Test("printed on standard error, each line made visible, as serve prints its notices")
    func standardErrorText() {
        #expect(
            CassettePlayer.noticeText("a.json: no recorded answer for GET http://x/\u{1B}[31m\n  to record it: …")
                == "tracksnap: a.json: no recorded answer for GET http://x/⟨U+001B⟩[31m\ntracksnap:   to record it: …\n"
        )
    }

    @Test(
        "recording sends what looks like analytics to the network: told once per host at record time; a decoder of one's own keeps its traffic local"
    )
    func analyticsRecorded() async throws {
        try await withTemporaryDirectory { directory in
            let script = PackagePaths.root.appending(path: "Tests/TracksnapReplayTests/Scripts/backend.py")
            let backend = try await ChildProcess.launch(PackagePaths.python, [script.path])
            defer { backend.stop() }
            let base = "http://127.0.0.1:\(backend.firstLine)"
            DecoderRegistry.register(Self.deck)

            let path = directory.appending(path: "Cassettes/app.json").path
            let notices = Notices()
            #expect(try await Self.runApp(base: base, cassette: path, notices: notices) == 4)
            let told = notices.all
            #expect(told.count == 1, "once per host: \(told)")
            let warning = try #require(told.first)
            #expect(warning.contains("POST \(base)/v2/signals"), "\(warning)")
            #expect(warning.contains("its path has \"/signals\""), "\(warning)")
            #expect(warning.contains("analytics:"), "says how to keep it local: \(warning)")
            #expect(!told.joined().contains("/v1/products") && !told.joined().contains("i32rough-deck"))

            // Recorded as before (the capture, released, had its cassette written): the products
            // call and the signals; the decoder's traffic stayed out.
            let recorded = try Cassette.read(path: path).cassette.interactions.map(\.request.url)
            #expect(recorded == [base + "/v1/products", base + "/v2/signals", base + "/v2/signals?again=1"])
        }
    }

    /// The app's run: an API call, a signal sent twice, and a decoder's event, recorded; returns
    /// how many requests were captured, once the capture is released.
    static func runApp(base: String, cassette path: String, notices: Notices) async throws -> Int {
        let mode = try CaptureMode.replay(cassette: path, record: .missing, notices: notices.add)
        let configuration = URLSessionConfiguration.ephemeral
        let capture = CaptureSession.install(on: configuration, mode: mode)
        let session = URLSession(configuration: configuration)
        for target in ["/v1/products", "/v2/signals", "/v2/signals?again=1", "/i32rough-deck/v1"] {
            var request = URLRequest(url: try #require(URL(string: base + target)))
            request.httpMethod = target.hasPrefix("/v1/products") ? "GET" : "POST"
            request.httpBody = target.hasPrefix("/v1/products") ? nil : Data(#"[{"type":"Launched"}]"#.utf8)
            request.setValue("Bearer s3cr3t-token", forHTTPHeaderField: "Authorization")
            _ = try await session.data(for: request)
        }
        return await capture.waitForRequests(count: 4).count
    }

    /// A decoder of one's own, claiming a path of this suite only.
    static let deck = VendorDecoder(
        vendor: "i32rough-deck", rule: "POST /i32rough-deck/v1", matches: { $0.path == "/i32rough-deck/v1" }
    ) { request throws(DecodeError) in
        [AnalyticsEvent(vendor: "i32rough-deck", type: "signal", name: "Launched", request: request.id, index: 0)]
    }
}
