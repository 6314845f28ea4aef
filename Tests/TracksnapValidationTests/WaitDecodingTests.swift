import Foundation
import Synchronization
import Testing
import TracksnapDecoders
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// A wait asks a check on every request that arrives whether everything expected is there; the
/// check keeps what its decoders made of each request (`observingDecodes()`), so a request is
/// decoded once for the whole wait and the validation after it, not once per arrival.
@Suite("A wait decodes each request once")
struct WaitDecodingTests {
    /// How many times each request was decoded, by id.
    final class Calls: Sendable {
        let counts = Mutex<[String: Int]>([:])
        var all: [String: Int] { counts.withLock { $0 } }
    }

    /// `signalDecoder`, counting its calls.
    static func counting(_ calls: Calls) -> VendorDecoder {
        VendorDecoder(
            vendor: "telemetrydeck", rule: "POST nom.telemetrydeck.com/v2/",
            matches: { $0.host == "nom.telemetrydeck.com" && $0.path.hasPrefix("/v2/") }
        ) { request throws(DecodeError) in
            calls.counts.withLock { $0[request.id, default: 0] += 1 }
            switch signalDecoder.decode(request) {
            case .events(let events): return events
            case .failed(let error): throw error
            case .unclaimed: return []
            }
        }
    }

    /// Six batches of one signal each, arriving one by one: the snapshot's four events are there,
    /// a near miss included (`ping` standing for `checkoutStarted`), from the fourth.
    static let arrivals = ["appLaunched", "screenShown", "itemAdded", "ping", "checkoutStarted", "ping"].enumerated()
        .map { index, type in
            post(SignalBatchModel.url, json: #"[{"type": "\#(type)", "payload": {}}]"#, id: index + 1)
        }

    /// The check as a wait uses it, asked after each arrival, then the validation after the wait;
    /// what it answered each time, and how often each request was decoded.
    func wait(observing: Bool) throws -> (answers: [Bool], calls: [String: Int], passed: Bool) {
        try withTemporaryDirectory { directory in
            let calls = Calls()
            try write(CustomDecoderTests.profile, to: directory.appending(path: "Validators/signals.json"))
            try write(
                #"{"validator": "signals", "order": "any", "events": [{"name": "appLaunched"}, {"name": "screenShown"}, {"name": "itemAdded"}, {"name": "checkoutStarted"}]}"#,
                to: directory.appending(path: "Snapshots/signals.json"))
            let workspace = Workspace(
                validators: directory.appending(path: "Validators").path,
                extensions: Extensions(decoders: [Self.counting(calls)]))
            let check = try PreparedCheck(
                snapshotAt: directory.appending(path: "Snapshots/signals.json").path, workspace: workspace)
            let waiting = observing ? check.observingDecodes() : check
            let answers = (1...Self.arrivals.count).map {
                waiting.hasEverythingExpected(Array(Self.arrivals.prefix($0)))
            }
            let result = waiting.validate(Self.arrivals)
            return (answers, calls.all, result.findings.filter { $0.code != .unexpectedEvent }.isEmpty)
        }
    }

    @Test("waiting over six arrivals and validating after decodes each request once; the answers are the wait's")
    func onceEach() throws {
        let (answers, calls, passed) = try wait(observing: true)
        #expect(answers == [false, false, false, true, true, true])
        #expect(calls == Dictionary(uniqueKeysWithValues: (1...6).map { (String($0), 1) }), "\(calls)")
        #expect(passed)
    }

    @Test("the same check without what it decoded before decodes the first request on every arrival")
    func withoutTheCache() throws {
        let (answers, calls, _) = try wait(observing: false)
        #expect(answers == [false, false, false, true, true, true])
        // Six waits and the validation each select every request that has arrived, asking the
        // profile's vendor filter (which decodes to tell the vendor) and then its decoders.
        #expect(calls["1"] == 14, "\(calls)")
    }
}
