import Foundation
import Testing
import TracksnapTestSupport

@Suite("tracksnap record: patterns for volatile values, --rerun", .tags(.process), .leftToMakeTest)
struct RecordRerunCommandTests {
    /// Writes runs of the client model as NDJSON files in the directory, returning their paths.
    static func runs(_ clients: [AnalyticsClientModel], in directory: URL) throws -> [String] {
        try clients.map { client in
            let url = directory.appending(path: "run\(client.seed).ndjson")
            try write(client.ndjson(), to: url)
            return url.path
        }
    }

    @Test("a snapshot recorded from one run lists what it wrote as patterns and passes on the next run")
    func recordOnceValidateNext() throws {
        try withTemporaryDirectory { directory in
            let files = try Self.runs(
                [AnalyticsClientModel(seed: 1, port: 41_589), AnalyticsClientModel(seed: 2, port: 52_113)],
                in: directory)
            let path = directory.appending(path: "shop.json").path
            let record = try tracksnap("record", path, "--capture", files[0])
            #expect(record.status == 0, "\(record.stderr)")
            let lines = record.stdout.split(separator: "\n")
            #expect(lines.first == "recorded \(path): 3 requests")
            #expect(lines.count == 4)
            #expect(
                lines[1].hasPrefix(
                    // `sid` is an analytics session id, no secret: a pattern like the others.
                    "16 values recorded as patterns: /requests/0/parameters/cid (client-id), /requests/0/parameters/sid (random-id), /requests/0/parameters/ts (epoch-ms), "
                ), "\(record.stdout)")
            #expect(lines[1].hasSuffix(", and 6 more"))
            // The library the client reports is the machine's, not the app's; its three requests may race.
            #expect(lines[2] == "1 environment field left out: /requests/1/body/context/library")
            #expect(lines[3] == #""order": "any" (sent in separate requests, which may arrive in any order)"#)
            let validate = try tracksnap("validate", path, "--capture", files[1])
            #expect(validate.status == 0, "\(validate.stdout)")
        }
    }

    @Test("--rerun learns from a second run; the snapshot passes a third run and fails a changed one")
    func rerun() throws {
        try withTemporaryDirectory { directory in
            let files = try Self.runs(
                (1...3).map { AnalyticsClientModel(seed: UInt64($0), port: 40_000 + $0, sendsOrderReference: true) }
                    + [AnalyticsClientModel(seed: 4, port: 40_004, change: .dropProperty, sendsOrderReference: true)],
                in: directory)
            let path = directory.appending(path: "shop.json").path
            let record = try tracksnap("record", path, "--capture", files[0], "--rerun", files[1])
            #expect(record.status == 0, "\(record.stderr)")
            #expect(
                record.stdout.contains("/requests/1/body/batch/1/properties/order_ref (differs between runs)"),
                "\(record.stdout)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(#""storeId": "482915736""#), "equal in both runs: literal")
            #expect(try tracksnap("validate", path, "--capture", files[2]).status == 0)
            let changed = try tracksnap("validate", path, "--capture", files[3])
            #expect(changed.status == 1)
            #expect(changed.stdout.contains("1 finding"), "\(changed.stdout)")
        }
    }

    /// A run and a second one that renamed an event.
    static func renamedRuns(in directory: URL) throws -> [String] {
        try runs(
            [
                AnalyticsClientModel(seed: 1, port: 41_001),
                AnalyticsClientModel(seed: 2, port: 41_002, change: .renameEvent),
            ], in: directory)
    }

    @Test("--rerun with another flow exits 2, names the first difference and writes nothing")
    func rerunOtherFlow() throws {
        try withTemporaryDirectory { directory in
            let files = try Self.renamedRuns(in: directory)
            let path = directory.appending(path: "shop.json").path
            let run = try tracksnap(
                "record", path, "--capture", files[0], "--rerun", files[1], "--validator", "segment")
            #expect(run.status == 2)
            #expect(
                run.stderr.contains(
                    "\(files[1]): error: not the same flow as the first run: event #2 \"Product Added To Cart\" has no counterpart"
                ), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("at the request level, a renamed event learnt as any string is named in a warning, not only counted")
    func renamedAtRequestLevel() throws {
        try withTemporaryDirectory { directory in
            let files = try Self.renamedRuns(in: directory)
            let path = directory.appending(path: "shop.json").path
            let run = try tracksnap("record", path, "--capture", files[0], "--rerun", files[1])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stdout.contains(
                    "warning: 2 texts that differ between runs with no shape in common now match any string: /requests/1/body/batch/1/event, /requests/1/body/batch/1/properties/cart_id;"
                ), "\(run.stdout)")
        }
    }

    @Test("an unreadable --rerun file exits 2 and writes nothing")
    func rerunMissingFile() throws {
        try withTemporaryDirectory { directory in
            let files = try Self.runs([AnalyticsClientModel(seed: 1, port: 41_001)], in: directory)
            let path = directory.appending(path: "shop.json").path
            let run = try tracksnap(
                "record", path, "--capture", files[0], "--rerun", directory.appending(path: "missing.ndjson").path)
            #expect(run.status == 2)
            #expect(run.stderr.contains("missing.ndjson"))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}

@Suite("tracksnap record --rerun: an SDK's batch in another order each run", .tags(.process), .leftToMakeTest)
struct RecordRerunUnorderedTests {
    @Test("two runs in different orders learn $unordered; later shuffled runs pass, a renamed signal is one finding")
    func learnsUnordered() throws {
        try withTemporaryDirectory { directory in
            func file(_ model: SignalBatchModel) throws -> String {
                let url = directory.appending(path: "run\(model.seed)\(model.change?.rawValue ?? "").ndjson")
                try write(model.ndjson, to: url)
                return url.path
            }
            let first = SignalBatchModel(seed: 1)
            let second = try #require(
                (UInt64(2)...20).map { SignalBatchModel(seed: $0) }.first {
                    $0.body != first.body && $0.order != first.order
                })
            let path = directory.appending(path: "signals.json").path
            let record = try tracksnap("record", path, "--capture", file(first), "--rerun", file(second))
            #expect(record.status == 0, "\(record.stderr)")
            #expect(
                record.stdout.contains("/requests/0/body (the runs sent its elements in different orders)"),
                "\(record.stdout)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(#""$unordered": ["#), "\(text)")
            #expect(text.contains(#""type": "checkoutStarted""#), "the event name stays a literal")
            for seed in UInt64(40)..<45 {
                let run = try tracksnap("validate", path, "--capture", file(SignalBatchModel(seed: seed)))
                #expect(run.status == 0, "\(run.stdout)")
            }
            let renamed = try tracksnap(
                "validate", path, "--capture", file(SignalBatchModel(seed: 50, change: .renameSignal)))
            #expect(renamed.status == 1)
            #expect(renamed.stdout.contains("(1 finding)"), "\(renamed.stdout)")
        }
    }
}

extension SignalBatchModel {
    /// The signal types in the order this run sends them.
    fileprivate var order: [String] {
        body.components(separatedBy: "\"type\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
}
