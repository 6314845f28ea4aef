import Foundation
import Synchronization
import Testing
import TracksnapTestSupport
import TracksnapTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A test that moves from DVR: the same cassette, one changed line, and its analytics checked.
@Suite("A Swift test replays a cassette while it checks the analytics")
struct ReplayAssertionTests {
    /// A DVR cassette as DVR writes it: the shop's product list.
    static let dvr = #"""
        {"name": "products", "interactions": [{"recorded_at": 1700000000,
          "request": {"method": "GET", "url": "https://api.shop.example/v1/products", "headers": {}},
          "response": {"url": "https://api.shop.example/v1/products", "status": 200,
                       "headers": {"Content-Type": "application/json"}, "body": [{"sku": "A-1", "name": "Mug"}]}}]}
        """#

    static let snapshot = #"""
        {"requests": [{"method": "POST", "url": "https://collect.example/e", "body": {"event": "products_viewed", "count": 1}}]}
        """#

    /// The app: loads the products, then tracks how many it showed.
    func browse(_ session: URLSession, path: String = "/v1/products") async throws -> Int {
        let (data, _) = try await session.data(from: URL(string: "https://api.shop.example\(path)")!)
        let products = (try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
        var track = URLRequest(url: URL(string: "https://collect.example/e")!)
        track.httpMethod = "POST"
        track.setValue("application/json", forHTTPHeaderField: "Content-Type")
        track.httpBody = Data(#"{"event": "products_viewed", "count": \#(products.count)}"#.utf8)
        _ = try await session.data(for: track)
        return products.count
    }

    @Test("the app's API call is answered from the DVR cassette, offline, and its analytics pass the snapshot")
    func replays() async throws {
        try await withTemporaryDirectory { directory in
            let cassette = directory.appending(path: "Cassettes/products.json")
            try FileManager.default.createDirectory(
                at: cassette.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(Self.dvr.utf8).write(to: cassette)
            let snapshot = directory.appending(path: "Snapshots/browse.json")
            try FileManager.default.createDirectory(
                at: snapshot.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(Self.snapshot.utf8).write(to: snapshot)
            // The analytics are what the snapshot checks; the API calls the cassette answered are not.
            let profile = directory.appending(path: "collect.json")
            try Data(#"{"filter": {"host": "collect.example"}}"#.utf8).write(to: profile)

            let configuration = URLSessionConfiguration.ephemeral
            let capture = CaptureSession.install(
                on: configuration,
                mode: try .replay(cassette: cassette.path, record: .never, analytics: { $0.host == "collect.example" }))
            let shown = try await browse(URLSession(configuration: configuration))
            #expect(shown == 1)
            await assertTracking(capture, matches: snapshot.path, validator: profile.path, record: .never)

            // A page the cassette never saw: the app gets a 599, and the assertion fails saying why.
            let other = URLSessionConfiguration.ephemeral
            let missed = CaptureSession.install(
                on: other,
                mode: try .replay(cassette: cassette.path, record: .never, analytics: { $0.host == "collect.example" }))
            #expect(try await browse(URLSession(configuration: other), path: "/v1/products?page=2") == 0)
            let reported = Mutex<[String]>([])
            await withKnownIssue {
                await assertTracking(missed, matches: snapshot.path, validator: profile.path, record: .never)
            } matching: { issue in
                reported.withLock { $0.append(text(of: issue)) }
                return true
            }
            let messages = reported.withLock { $0 }
            // The count the app tracked is wrong (it showed nothing), and the miss says why.
            #expect(messages.count == 2)
            #expect(messages.contains { $0.contains("/body/count") })
            #expect(
                messages.contains {
                    $0.contains("no recorded answer for GET https://api.shop.example/v1/products?page=2")
                        && $0.contains("differs in query: ?page=2, recorded no query")
                })
        }
    }
}
