import Foundation
import Testing
import TracksnapTestSupport

@Suite("tracksnap record, accept and reject", .tags(.process), .leftToMakeTest)
struct RecordCommandTests {
    static let release14 = PackagePaths.root.appending(path: "Snapshots/demo/captures/release-1.4.har").path
    static let release15 = PackagePaths.root.appending(path: "Snapshots/demo/captures/release-1.5.har").path
    static let buy = PackagePaths.fixtures.appending(path: "captures/checkout-buy.ndjson").path
    /// What recording release 1.5 lists as patterns: the epoch time each screen view carries; and
    /// its order, since its six requests are separate ones.
    static let timestamps =
        "5 values recorded as patterns: /requests/0/parameters/ts (epoch-ms), /requests/1/parameters/ts (epoch-ms), /requests/2/parameters/ts (epoch-ms), /requests/3/parameters/ts (epoch-ms), /requests/4/parameters/ts (epoch-ms)\n"
        + #""order": "any" (sent in separate requests, which may arrive in any order)"# + "\n"

    @Test("record writes the snapshot, says what it wrote, exits 0, and the snapshot then validates")
    func recordsThenValidates() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "Snapshots/checkout.json").path
            let run = try tracksnap("record", path, "--capture", Self.release15, "--validator", "acme-shop")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stdout == "recorded \(path): 6 requests\n" + Self.timestamps,
                "each screen view's epoch time is listed as a pattern")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains("wk_live_"), "the write key is never written")
            #expect(text.contains(#""validator": "acme-shop""#))
            let check = try tracksnap("validate", path, "--capture", Self.release15)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }
    }

    @Test("--mode missing keeps an existing file, --mode failed keeps a passing one, --mode all re-records")
    func modes() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "checkout.json").path
            #expect(
                try tracksnap(
                    "record", path, "--capture", Self.release14, "--validator", "acme-shop", "--mode", "missing"
                ).status == 0)
            let recorded = try String(contentsOfFile: path, encoding: .utf8)

            let missing = try tracksnap("record", path, "--capture", Self.release15, "--mode", "missing")
            #expect(missing.status == 0 && missing.stdout.hasPrefix("kept \(path)"))
            let passing = try tracksnap("record", path, "--capture", Self.release14, "--mode", "failed")
            #expect(passing.status == 0 && passing.stdout.hasPrefix("kept \(path)"))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == recorded)

            let failing = try tracksnap("record", path, "--capture", Self.release15, "--mode", "failed")
            #expect(
                failing.status == 0 && failing.stdout.hasPrefix("recorded \(path): 6 requests\n"), "\(failing.stderr)")
            let all = try tracksnap("record", path, "--capture", Self.release14, "--mode", "all")
            #expect(all.status == 0 && all.stdout.hasPrefix("recorded \(path): 5 requests\n"))
            #expect(
                try String(contentsOfFile: path, encoding: .utf8) == recorded,
                "the snapshot's own validator is used again")
        }
    }

    @Test(
        "bad input exits 2 with a message and writes nothing",
        arguments: [
            ["--capture", "missing.har"],
            [],
            ["--capture", "CAPTURE", "--validator", "no-such-profile"],
            ["--capture", "CAPTURE", "--mode", "sometimes"],
        ])
    func badInput(arguments: [String]) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            let run = try tracksnap(arguments: ["record", path] + arguments.map { $0 == "CAPTURE" ? Self.buy : $0 })
            #expect(run.status == 2)
            #expect(!run.stderr.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("an existing file that is not a valid snapshot is reported and left as it was")
    func invalidExisting() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json")
            try write(#"{"requests": [}"#, to: path)
            let run = try tracksnap("record", path.path, "--capture", Self.buy)
            #expect(run.status == 2)
            #expect(run.stderr.contains("s.json"))
            #expect(try String(contentsOf: path, encoding: .utf8) == #"{"requests": [}"#)
        }
    }

    @Test("--pending writes X.new.json; accept moves it over X.json; reject deletes it; without one both exit 2")
    func pendingAcceptReject() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "checkout.json").path
            let pending = directory.appending(path: "checkout.new.json").path
            #expect(try tracksnap("record", path, "--capture", Self.release14, "--validator", "acme-shop").status == 0)
            let original = try String(contentsOfFile: path, encoding: .utf8)

            let record = try tracksnap("record", path, "--capture", Self.release15, "--pending")
            #expect(record.status == 0 && record.stdout.hasPrefix("recorded \(pending): 6 requests"))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
            let validate = try tracksnap("validate", directory.path, "--capture", Self.release14)
            #expect(validate.status == 0, "validate skips pending files: \(validate.stdout)")

            let reject = try tracksnap("reject", path)
            #expect(reject.status == 0 && reject.stdout == "rejected \(pending)\n")
            #expect(!FileManager.default.fileExists(atPath: pending))
            #expect(try tracksnap("reject", path).status == 2)

            #expect(try tracksnap("record", path, "--capture", Self.release15, "--pending").status == 0)
            let pendingText = try String(contentsOfFile: pending, encoding: .utf8)
            let accept = try tracksnap("accept", pending)
            #expect(accept.status == 0 && accept.stdout == "accepted \(path)\n")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == pendingText)
            let again = try tracksnap("accept", path)
            #expect(again.status == 2 && again.stderr.contains("checkout.new.json"))
        }
    }
}
