import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// A `VendorDecoder` of one's own, carried by a workspace's `Extensions` and named by a profile
/// as a built-in decoder is.
@Suite("Decoders of one's own")
struct CustomDecoderTests {
    static let profile = #"{"decoders": ["telemetrydeck"], "filter": {"vendor": "telemetrydeck"}, "order": "any"}"#
    static let snapshot = """
        {"validator": "signals", "events": [
          {"vendor": "telemetrydeck", "name": "appLaunched"},
          {"vendor": "telemetrydeck", "name": "screenShown", "properties": {"screen": "Home"}},
          {"vendor": "telemetrydeck", "name": "itemAdded", "properties": {"sku": "p-42"}},
          {"vendor": "telemetrydeck", "name": "checkoutStarted"}
        ]}
        """

    /// Writes the profile and the snapshot; gives the snapshot's path and a workspace with the decoder.
    func files(_ directory: URL, decoders: [VendorDecoder] = [signalDecoder]) throws -> (String, Workspace) {
        try write(Self.profile, to: directory.appending(path: "Validators/signals.json"))
        try write(Self.snapshot, to: directory.appending(path: "Snapshots/signals.json"))
        let workspace = Workspace(
            validators: directory.appending(path: "Validators").path, extensions: Extensions(decoders: decoders))
        return (directory.appending(path: "Snapshots/signals.json").path, workspace)
    }

    @Test("a profile names it in decoders and a vendor filter: its events are validated, a rename is one finding")
    func profileUsesIt() throws {
        try withTemporaryDirectory { directory in
            let (path, workspace) = try files(directory)
            for seed in UInt64(1)...5 {
                let requests = [
                    get("https://other.example/x"), post(SignalBatchModel.url, json: SignalBatchModel(seed: seed).body),
                ]
                let result = try Validation.validate(snapshotAt: path, requests: requests, workspace: workspace)
                #expect(result.selected == 1, "the vendor filter selects the decoder's traffic only")
                #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
                let renamed = try Validation.validate(
                    snapshotAt: path,
                    requests: [
                        post(SignalBatchModel.url, json: SignalBatchModel(seed: seed, change: .renameSignal).body)
                    ],
                    workspace: workspace)
                #expect(renamed.codes == [.valueMismatch], "\(renamed.findings.map(\.message))")
            }
        }
    }

    @Test(
        "a decoder registered process-wide is found by a workspace made afterwards; a later one of its vendor replaces it"
    )
    func registry() throws {
        let vendor = "registry-test-\(UUID().uuidString.prefix(8))"
        let first = VendorDecoder(vendor: vendor, rule: "none", matches: { _ in false }) { _ throws(DecodeError) in [] }
        DecoderRegistry.register(first)
        #expect(Workspace().extensions.decoders.contains { $0.vendor == vendor })
        DecoderRegistry.register(
            VendorDecoder(vendor: vendor, rule: "second", matches: { _ in false }) { _ throws(DecodeError) in [] })
        #expect(Extensions.registered.decoders.filter { $0.vendor == vendor }.map(\.rule) == ["second"])
        #expect(DecoderRegistry.decoder(named: vendor)?.rule == "second")
    }

    @Test("without the decoder, the profile's name is an error at its line that says how to register one")
    func unknownWithoutIt() throws {
        try withTemporaryDirectory { directory in
            let (path, _) = try files(directory)
            let bare = Workspace(validators: directory.appending(path: "Validators").path, extensions: Extensions())
            #expect {
                try Validation.validate(snapshotAt: path, requests: [], workspace: bare)
            } throws: { error in
                let text = "\(error)"
                return text.contains("signals.json:1:15: error: no decoder \"telemetrydeck\"")
                    && text.contains("DecoderRegistry.register")
            }
        }
    }
}

/// A decoder of one's own for the TelemetryDeck-like batches of `SignalBatchModel`: each signal
/// of the JSON array an event named by its `type`, its `payload` the properties.
let signalDecoder = VendorDecoder(
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
