import Foundation
import Testing
import TracksnapTestSupport

/// An app whose analytics calls race (each from its own thread, after a random delay, in its own
/// request) sends them in another order every run: a snapshot recorded from one run, or learnt
/// from several, must pass every later run, on another machine too, and still catch a real change
/// with exactly one finding.
@Suite("Events that race: recorded once or from four runs, every later run passes", .tags(.process), .leftToMakeTest)
struct RaceTests {
    static let app = PackagePaths.fixtures.appending(path: "race/race_app.py")

    /// One run of the app against a fresh `tracksnap serve` (a new port), as an NDJSON capture.
    static func run(_ name: String, in directory: URL, _ arguments: String...) async throws -> String {
        try await SDKRun.capture(
            [SDKRun.Program(script: app, arguments: arguments, requests: arguments.contains("--drop") ? 2 : 3)],
            into: directory.appending(path: "\(name).ndjson")
        ).capture
    }

    /// The events' names in the order the capture holds them.
    static func order(of capture: String) throws -> [String] {
        try String(contentsOfFile: capture, encoding: .utf8).split(separator: "\n").map { line in
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let body = try JSONSerialization.jsonObject(with: Data(((record?["body"] as? String) ?? "").utf8))
            return ((body as? [String: Any])?["event"] as? String) ?? "?"
        }
    }

    /// The finding codes of validating a capture, from the JSON report.
    static func findings(_ snapshot: String, _ capture: String, _ profile: String) async throws -> [String] {
        let run = try await tracksnap(
            "validate", snapshot, "--capture", capture, "--validator", profile, "--format", "json")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let snapshots = report?["snapshots"] as? [[String: Any]] ?? []
        return snapshots.flatMap { ($0["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } }
    }

    @Test(
        "ten runs on fresh servers, the later ones as from a Mac with a newer SDK: recorded from run 1 and from runs 1–4, through the vendor profile and the default one, every other run passes; a dropped and a renamed event each give one finding",
        arguments: ["segment", "default"])
    func racingCheckout(profile: String) async throws {
        try await withTemporaryDirectory { directory in
            var runs: [String] = []
            for index in 1...10 {
                // Runs 1–4 on Linux, where the snapshot is recorded; the rest on a Mac with a newer library.
                runs.append(
                    try await Self.run("run-\(index)", in: directory, "--machine", index <= 4 ? "linux" : "mac"))
            }
            let orders = try Set(runs.map(Self.order))
            #expect(orders.count > 1, "the events did not race: every run sent \(orders)")

            let once = directory.appending(path: "once.json").path
            let fromOne = try await tracksnap("record", once, "--capture", runs[0], "--validator", profile)
            #expect(fromOne.status == 0, "\(fromOne.stderr)")
            #expect(fromOne.stdout.contains(#""order": "any" (sent in separate requests"#), "\(fromOne.stdout)")

            let learnt = directory.appending(path: "learnt.json").path
            let rerun =
                ["record", learnt, "--capture", runs[0], "--validator", profile]
                + runs[1..<4].flatMap { ["--rerun", $0] }
            let fromFour = try await offloaded { try tracksnap(arguments: rerun) }
            #expect(fromFour.status == 0, "runs that differ only in order are the same flow: \(fromFour.stderr)")

            for snapshot in [once, learnt] {
                let text = try String(contentsOfFile: snapshot, encoding: .utf8)
                #expect(text.contains(#""order": "any""#), "\(text)")
                #expect(!text.contains("Linux") && !text.contains("next-1.70"), "the machine was recorded: \(text)")
                for (index, capture) in runs.enumerated().dropFirst() {
                    let codes = try await Self.findings(snapshot, capture, profile)
                    #expect(codes.isEmpty, "run \(index + 1) against \(snapshot): \(codes)\n\(text)")
                }
                let dropped = try await Self.run(
                    "dropped", in: directory, "--drop", "Coupon Applied", "--machine", "mac")
                #expect(try await Self.findings(snapshot, dropped, profile) == ["missing_event"])
                let renamed = try await Self.run(
                    "renamed", in: directory, "--rename", "Order Completed=Order Placed", "--machine", "mac")
                let renamedCodes = try await Self.findings(snapshot, renamed, profile)
                #expect(renamedCodes.count == 1, "a renamed event is one finding: \(renamedCodes)")
            }
        }
    }
}
