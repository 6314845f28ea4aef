import Foundation
import Testing
import TracksnapCapture
import TracksnapExtensions

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request filter of one's own, named by a profile's `"filter": {"custom": "production"}`.
struct OnlyProduction: RequestFilter {
    func accepts(_ request: CapturedRequest) -> Bool { request.header("X-Env") == "production" }
}

/// A validator of one's own, named by a profile's `"swiftValidator": "no-test-orders"`: the built-in
/// comparison, and an error for every selected request that is marked as a test order.
struct NoTestOrders: Validator {
    func validate(_ snapshot: Snapshot, selection: Selection, profile: Profile) -> SnapshotResult {
        var result = SnapshotValidator().validate(snapshot, selection: selection, profile: profile)
        for request in selection.selected.map({ selection.requests[$0] })
        where request.bodyText?.contains(#""test":true"#) == true {
            result.findings.append(
                Finding(
                    code: .unexpectedKey, path: "/requests", message: "request \(request.id) is a test order"))
        }
        return result
    }
}

/// What the front page's package can do with the `TracksnapCapture` and `TracksnapExtensions`
/// products alone (Documentation/SnapshotsAndProfiles.md, "Extending it from Swift"): capture in
/// process, register a filter, a validator and a decoder that a profile names, decode with a
/// decoder of its own and render with a report format of its own.
@Suite("the extension points, from the products a user depends on")
struct ExtensionPointTests {
    @Test("an in-process capture checked through a custom filter, validator, decoder and report format")
    func extensionPoints() async throws {
        FilterRegistry.register("production", OnlyProduction())
        ValidatorRegistry.register("no-test-orders", NoTestOrders())

        let configuration = URLSessionConfiguration.ephemeral
        let capture = CaptureSession.install(on: configuration, mode: .respond())
        let session = URLSession(configuration: configuration)
        for (environment, body) in [
            ("production", #"{"event":"Checkout Started","test":true}"#),
            ("staging", #"{"event":"Debug"}"#),
        ] {
            var request = URLRequest(url: URL(string: "https://collect.shop.example/v1/track")!)
            request.httpMethod = "POST"
            request.setValue(environment, forHTTPHeaderField: "X-Env")
            request.httpBody = Data(body.utf8)
            _ = try await session.data(for: request)
        }
        let requests = capture.requests
        #expect(requests.count == 2)

        let directory = FileManager.default.temporaryDirectory.appending(path: "shop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appending(path: "Validators"), withIntermediateDirectories: true)
        try Data(#"{"filter": {"custom": "production"}, "swiftValidator": "no-test-orders"}"#.utf8)
            .write(to: directory.appending(path: "Validators/production.json"))
        let snapshot = directory.appending(path: "checkout.json")
        try Data(
            #"{"name": "checkout", "validator": "production", "requests": [{"method": "POST", "url": "https://collect.shop.example/v1/track", "body": {"event": "Checkout Started"}}]}"#
                .utf8
        ).write(to: snapshot)

        let workspace = Workspace(validators: directory.appending(path: "Validators").path)
        let result = try Validation.validate(snapshotAt: snapshot.path, requests: requests, workspace: workspace)
        #expect(result.selected == 1, "the custom filter kept the production request only")
        #expect(result.findings.map(\.message) == ["request \(requests[0].id) is a test order"])

        let shop = VendorDecoder(vendor: "shop", rule: "POST /v1/track", matches: { $0.url.hasSuffix("/v1/track") }) {
            request throws(DecodeError) in
            [
                AnalyticsEvent(
                    vendor: "shop", type: "track", name: request.header("X-Env"), request: request.id, index: 0)
            ]
        }
        #expect(
            requests.flatMap { Decoders.decode($0, using: [shop]).events }.map(\.name) == ["production", "staging"])

        // A decoder of one's own, registered and named by a profile (the guide's "A decoder of your own").
        let telemetryDeck = VendorDecoder(
            vendor: "telemetrydeck", rule: "POST nom.telemetrydeck.com/v2/",
            matches: { $0.host == "nom.telemetrydeck.com" && $0.path.hasPrefix("/v2/") }
        ) { request throws(DecodeError) in
            guard case .array(let signals)? = request.bodyJSON else {
                throw DecodeError(
                    vendor: "telemetrydeck", request: request.id, reason: "the body is not a JSON array of signals")
            }
            return signals.enumerated().map { index, signal in
                AnalyticsEvent(
                    vendor: "telemetrydeck", type: "signal", name: signal["type"]?.stringValue,
                    properties: signal["payload"] ?? [:], request: request.id, index: index)
            }
        }
        DecoderRegistry.register(telemetryDeck)
        try Data(#"{"decoders": ["telemetrydeck"], "filter": {"vendor": "telemetrydeck"}}"#.utf8)
            .write(to: directory.appending(path: "Validators/telemetrydeck.json"))
        let launch = directory.appending(path: "launch.json")
        try Data(
            #"{"name": "launch", "events": [{"vendor": "telemetrydeck", "name": "appLaunched", "properties": {"screen": "Home"}}]}"#
                .utf8
        ).write(to: launch)
        func signals(_ type: String) -> CapturedRequest {
            CapturedRequest(
                id: type, method: "POST", url: "https://nom.telemetrydeck.com/v2/",
                headers: [.init(name: "Content-Type", value: "application/json")],
                body: .text(#"[{"type": "\#(type)", "payload": {"screen": "Home"}}]"#))
        }
        // A workspace made after the registration sees the decoder (one made before keeps what it was given).
        let withDecoder = Workspace(validators: directory.appending(path: "Validators").path)
        let launched = try Validation.validate(
            snapshotAt: launch.path, requests: requests + [signals("appLaunched")], profile: "telemetrydeck",
            workspace: withDecoder)
        #expect(launched.passed, "\(launched.findings.map(\.message))")
        let renamed = try Validation.validate(
            snapshotAt: launch.path, requests: [signals("appStarted")], profile: "telemetrydeck", workspace: withDecoder
        )
        #expect(renamed.findings.map(\.code) == [.valueMismatch])

        let count = ReportFormat(name: "count") { results, _ in "\(results.flatMap(\.findings).count) findings\n" }
        #expect(count.render([result]) == "1 findings\n")
        #expect(ReportFormat.text.render([result]).contains("is a test order"))
    }
}
