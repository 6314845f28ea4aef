import Foundation
import Testing
import TracksnapTestSupport

@Suite("tracksnap record through a vendor profile", .tags(.process), .leftToMakeTest)
struct RecordEventsCommandTests {
    static let decoderFixtures = PackagePaths.root.appending(path: "Tests/TracksnapDecodersTests/Fixtures")

    @Test("writes events, says how many, and the snapshot validates against its capture")
    func recordsEvents() throws {
        try withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            let capture = Self.decoderFixtures.appending(path: "segment-gzip-raw.ndjson").path
            let run = try tracksnap("record", snapshot, "--capture", capture, "--validator", "segment")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == "recorded \(snapshot): 6 events\n")
            let text = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(text.contains(#""name": "Order Completed""#) && !text.contains(#""requests""#))
            #expect(try tracksnap("validate", snapshot, "--capture", capture).status == 0)
        }
    }

    @Test(
        "a profile that selects nothing, or an empty capture, records a snapshot that expects nothing, and says so")
    func nothingSelected() throws {
        try withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "wrong.json").path
            let capture = Self.decoderFixtures.appending(path: "segment-gzip-raw.ndjson").path
            let run = try tracksnap("record", snapshot, "--capture", capture, "--validator", "ga4")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == "recorded \(snapshot): 0 events\n")
            #expect(
                run.stderr
                    == "\(snapshot): note: the profile ga4 selects none of the capture's 1 request, so the snapshot "
                    + "expects nothing to be sent; tracksnap events \(capture) --validator ga4 shows what it selects\n")

            let empty = directory.appending(path: "empty.ndjson")
            try Data().write(to: empty)
            let none = try tracksnap("record", snapshot, "--capture", empty.path, "--mode", "all")
            #expect(none.stderr.contains("note: the capture holds no request, so the snapshot expects nothing"))

            let recorded = try tracksnap(
                "record", snapshot, "--capture", capture, "--validator", "segment", "--mode", "all")
            #expect(recorded.stderr.isEmpty, "\(recorded.stderr)")
        }
    }

    @Test("a request the decoder cannot decode stops recording with exit 2 and the reason")
    func decodeErrorIsBadInput() throws {
        try withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "posthog.json").path
            let capture = Self.decoderFixtures.appending(path: "posthog-js.ndjson").path
            let run = try tracksnap("record", snapshot, "--capture", capture, "--validator", "posthog")
            #expect(run.status == 2)
            #expect(run.stderr.contains("cannot record events: request #3 POST https://us.i.posthog.com/e/"))
            #expect(run.stderr.contains("posthog: lz64"))
            #expect(!FileManager.default.fileExists(atPath: snapshot))
        }
    }
}
