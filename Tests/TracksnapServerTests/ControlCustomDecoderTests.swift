import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapServer
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

/// A server built in Swift with a decoder of its own: the control API validates a session
/// through a profile that names it.
@Suite("A server's own decoders", .tags(.network), .leftToMakeTest)
struct ControlCustomDecoderTests {
    static let decoder = VendorDecoder(
        vendor: "signals-server", rule: "POST /v2/", matches: { $0.path.hasPrefix("/v2/") }
    ) { request throws(DecodeError) in
        guard case .array(let signals)? = request.bodyJSON else {
            throw DecodeError(vendor: "signals-server", request: request.id, reason: "not a JSON array")
        }
        return signals.enumerated().map { index, signal in
            AnalyticsEvent(
                vendor: "signals-server", type: "signal", name: signal["type"]?.stringValue, request: request.id,
                index: index)
        }
    }

    @Test("validate through a profile naming the configuration's decoder: events pass, a renamed one fails")
    func validatesWithOwnDecoder() async throws {
        try await withTemporaryDirectory { directory in
            try write(
                #"{"decoders": ["signals-server"], "filter": {"vendor": "signals-server"}, "order": "any"}"#,
                to: directory.appending(path: "signals.json"))
            try write(
                #"{"validator": "signals", "events": [{"name": "appLaunched"}, {"name": "screenShown"}]}"#,
                to: directory.appending(path: "launch.json"))
            var configuration = CaptureServer.Configuration(validatorsDirectory: directory.path, root: directory.path)
            configuration.extensions = Extensions(decoders: [Self.decoder])
            // One server per batch: each session holds one run's traffic.
            func validate(_ batch: String) async throws -> JSONValue {
                try await withServer(configuration) { _, port in
                    let id = try await startSession(port)
                    _ = try await RawHTTP.send(
                        port: port, method: "POST", target: "/v2/", host: "nom.telemetrydeck.com",
                        body: Array(batch.utf8))
                    return try json(
                        try await control(
                            port, "POST", "sessions/\(id)/validate", body: #"{"snapshot": "launch.json"}"#
                        )
                        .text)
                }
            }
            let passing = try await validate(#"[{"type": "screenShown"}, {"type": "appLaunched"}]"#)
            #expect(passing["passed"] == .bool(true), "\(passing)")
            let failing = try await validate(#"[{"type": "screenShown"}, {"type": "appStarted"}]"#)
            #expect(failing["passed"] == .bool(false))
            #expect(failing["findings"]?.arrayValue?.compactMap { $0["code"]?.stringValue } == ["value_mismatch"])
        }
    }
}
