import Foundation
import Testing
import TracksnapExtensions
import TracksnapTestSupport

@testable import TracksnapTesting

/// `assertTracking` through a profile that names a decoder of one's own, registered once with
/// `DecoderRegistry` (TelemetryDeck's batches: no built-in decoder reads them).
@Suite("assertTracking with a decoder of one's own")
struct CustomDecoderAssertionTests {
    /// The vendor id this suite registers, its own so that it changes nothing for other suites.
    static let vendor = "signals-assertion"

    static let decoder = VendorDecoder(
        vendor: vendor, rule: "POST nom.telemetrydeck.com/v2/",
        matches: { $0.host == "nom.telemetrydeck.com" && $0.path.hasPrefix("/v2/") }
    ) { request throws(DecodeError) in
        guard case .array(let signals)? = request.bodyJSON else {
            throw DecodeError(vendor: vendor, request: request.id, reason: "the body is not a JSON array of signals")
        }
        return signals.enumerated().map { index, signal in
            AnalyticsEvent(
                vendor: vendor, type: "signal", name: signal["type"]?.stringValue,
                properties: signal["payload"] ?? [:], request: request.id, index: index)
        }
    }

    static func batch(_ model: SignalBatchModel) -> CapturedRequest {
        CapturedRequest(
            id: "1", method: "POST", url: SignalBatchModel.url,
            headers: [.init(name: "Content-Type", value: "application/json")], body: .text(model.body))
    }

    @Test("recorded as the decoder's events on the first run, passes the next runs, fails a renamed signal")
    func recordsAndValidatesEvents() throws {
        DecoderRegistry.register(Self.decoder)
        try withTemporaryDirectory { directory in
            try write(
                #"{"decoders": ["\#(Self.vendor)"], "filter": {"vendor": "\#(Self.vendor)"}, "order": "any"}"#,
                to: directory.appending(path: "Validators/signals.json"))
            let snapshot = directory.appending(path: "Snapshots/signals.json").path
            withKnownIssue {
                _ = assertTracking(
                    [Self.batch(SignalBatchModel(seed: 1, queued: true))], matches: snapshot, validator: "signals",
                    record: .missing)
            }
            let written = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(written.contains(#""vendor": "\#(Self.vendor)""#), "\(written)")
            #expect(written.contains(#""name": "checkoutStarted""#), "\(written)")
            for seed in UInt64(2)...6 {
                let result = assertTracking(
                    [Self.batch(SignalBatchModel(seed: seed, queued: true))], matches: snapshot, record: .never)
                #expect(result?.passed == true, "\(result?.findings.map(\.message) ?? [])")
            }
            var renamed: SnapshotResult?
            withKnownIssue {
                renamed = assertTracking(
                    [Self.batch(SignalBatchModel(seed: 7, queued: true, change: .renameSignal))], matches: snapshot,
                    record: .never)
            }
            #expect(renamed?.findings.map(\.code) == [.valueMismatch])
        }
    }
}
