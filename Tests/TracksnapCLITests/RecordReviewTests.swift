import Foundation
import Testing
import TracksnapTestSupport

@Suite("tracksnap review, and the accept command a failed validation ends with", .tags(.process), .leftToMakeTest)
struct RecordReviewTests {
    static let release14 = PackagePaths.root.appending(path: "Snapshots/demo/captures/release-1.4.har").path
    static let release15 = PackagePaths.root.appending(path: "Snapshots/demo/captures/release-1.5.har").path

    /// Runs a shell command line with `tracksnap` standing for the built executable, as a
    /// person pastes it into a terminal, optionally with piped input.
    private func shell(_ commandLine: String, input: String = "") throws -> TracksnapRun {
        let executable = try PackagePaths.executable.get().path
        let quoted = "'" + executable.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let script = "tracksnap() { \(quoted) \"$@\"; }\nprintf '%s' \"$TRACKSNAP_INPUT\" | \(commandLine)"
        var environment = ProcessInfo.processInfo.environment
        for name in ["GITHUB_STEP_SUMMARY", "NO_COLOR", "FORCE_COLOR", "CI"] { environment[name] = nil }
        environment["TRACKSNAP_INPUT"] = input
        let result = try runProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: PackagePaths.root, environment: environment)
        return (result.status, result.stdout, result.stderr)
    }

    @Test(
        "a failing text report ends with the command that accepts the new result, and running it makes validation pass")
    func acceptCommand() throws {
        try withTemporaryDirectory { directory in
            // A space and a quote in the path: the command must survive a shell.
            let snapshot = directory.appending(path: "shop's snapshots/checkout.json")
            try write(
                try String(
                    contentsOf: PackagePaths.root.appending(path: "Snapshots/demo/checkout.json"), encoding: .utf8),
                to: snapshot)
            let failing = try tracksnap("validate", snapshot.path, "--capture", Self.release15)
            #expect(failing.status == 1)
            let last = try #require(failing.stdout.split(separator: "\n").last.map(String.init))
            let prefix = "To accept the new result: "
            #expect(last.hasPrefix(prefix))
            let command = String(last.dropFirst(prefix.count))
            #expect(
                command.hasPrefix("tracksnap record '") && command.hasSuffix(" --capture \(Self.release15) --mode all"))

            let accepted = try shell(command)
            #expect(accepted.status == 0, "\(accepted.stderr)")
            #expect(accepted.stdout.hasPrefix("recorded \(snapshot.path): 6 requests\n"))
            let passing = try tracksnap("validate", snapshot.path, "--capture", Self.release15)
            #expect(passing.status == 0, "\(passing.stdout)")
            #expect(!passing.stdout.contains("To accept"))
            let text = try String(contentsOf: snapshot, encoding: .utf8)
            #expect(
                text.contains(#""$regex": "s-[0-9a-f]{8}""#), "the accepted snapshot keeps the hand-written patterns")
            #expect(text.contains(#""description": "A shopper views"#))
        }
    }

    @Test("the accept command names the validator and validators directory the validation used")
    func acceptCommandOptions() throws {
        try withTemporaryDirectory { directory in
            let validators = directory.appending(path: "My Validators")
            try write(
                try String(contentsOf: PackagePaths.root.appending(path: "Validators/acme-shop.json"), encoding: .utf8),
                to: validators.appending(path: "shop.json"))
            let snapshot = directory.appending(path: "s.json")
            try write(#"{"requests": []}"#, to: snapshot)
            let run = try tracksnap(
                "validate", snapshot.path, "--capture", Self.release14, "--validator", "shop", "--validators-dir",
                validators.path, "--format", "json")
            #expect(run.status == 1)
            #expect(
                run.stdout.contains(
                    #""acceptCommand": "tracksnap record \#(snapshot.path) --capture \#(Self.release14) --validator shop --validators-dir '\#(validators.path)' --mode all""#
                ))
        }
    }

    /// Three pending snapshots, named so that review meets them in order a, b, c.
    private func threePending(in directory: URL) throws -> [URL] {
        let names = ["a", "b", "c"]
        for name in names {
            let path = directory.appending(path: "\(name).json").path
            #expect(try tracksnap("record", path, "--capture", Self.release14, "--validator", "acme-shop").status == 0)
            #expect(try tracksnap("record", path, "--capture", Self.release15, "--pending").status == 0)
        }
        return names.map { directory.appending(path: "\($0).json") }
    }

    @Test("review reads a, r and s from piped input: accepts, rejects, skips, and shows each diff")
    func reviewAnswers() throws {
        try withTemporaryDirectory { directory in
            let snapshots = try threePending(in: directory)
            let pendingA = try String(contentsOf: directory.appending(path: "a.new.json"), encoding: .utf8)
            let originalB = try String(contentsOf: snapshots[1], encoding: .utf8)
            let run = try shell("tracksnap review '\(directory.path)'", input: "a\nwhat\nr\ns\n")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("[1/3] \(snapshots[0].path)"))
            #expect(run.stdout.contains("+++ \(directory.appending(path: "a.new.json").path)"))
            #expect(run.stdout.contains(#"+        "ev": "addToCart","#))
            #expect(run.stdout.contains("please answer a, r or s"))
            #expect(run.stdout.hasSuffix("1 accepted, 1 rejected, 1 skipped\n"))
            #expect(try String(contentsOf: snapshots[0], encoding: .utf8) == pendingA)
            #expect(try String(contentsOf: snapshots[1], encoding: .utf8) == originalB)
            #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "a.new.json").path))
            #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "b.new.json").path))
            #expect(FileManager.default.fileExists(atPath: directory.appending(path: "c.new.json").path))
        }
    }

    @Test("a pending file cut short is not accepted by review or accept: counted as failed, exit 2, both files kept")
    func brokenPending() throws {
        try withTemporaryDirectory { directory in
            let snapshots = try threePending(in: directory)
            let pendingA = directory.appending(path: "a.new.json")
            try #"{"requests": ["#.write(to: pendingA, atomically: true, encoding: .utf8)
            let originalA = try String(contentsOf: snapshots[0], encoding: .utf8)
            let run = try shell("tracksnap review '\(directory.path)'", input: "a\na\ns\n")
            #expect(run.status == 2, "\(run.stderr)")
            #expect(
                run.stderr.contains("\(pendingA.path): error: not accepted, since it is no snapshot"), "\(run.stderr)")
            #expect(
                run.stdout.hasSuffix("1 accepted, 0 rejected, 1 skipped, 1 failed (still pending)\n"), "\(run.stdout)")
            #expect(try String(contentsOf: snapshots[0], encoding: .utf8) == originalA)
            #expect(try String(contentsOf: pendingA, encoding: .utf8) == #"{"requests": ["#)

            let accept = try tracksnap("accept", snapshots[0].path)
            #expect(accept.status == 2 && accept.stderr.contains("is kept as it is"), "\(accept.stderr)")
            #expect(try String(contentsOf: snapshots[0], encoding: .utf8) == originalA)
        }
    }

    @Test("at the end of input review skips the rest; with nothing pending it says so; a missing path exits 2")
    func reviewEndOfInput() throws {
        try withTemporaryDirectory { directory in
            _ = try threePending(in: directory)
            let run = try shell("tracksnap review '\(directory.path)'", input: "r\n")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.hasSuffix("0 accepted, 1 rejected, 2 skipped\n"))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".new.json") }
                    .sorted() == ["b.new.json", "c.new.json"])

            let accept = try tracksnap("accept", directory.path)
            #expect(accept.status == 0 && accept.stdout.split(separator: "\n").count == 2)
            let none = try shell("tracksnap review '\(directory.path)'")
            #expect(none.status == 0 && none.stdout.hasPrefix("no pending snapshots"))
            #expect(try tracksnap("review", directory.appending(path: "nowhere").path).status == 2)
            // Run where there is no Snapshots folder: said so, with what to do.
            let elsewhere = try shell("(cd '\(directory.path)' && tracksnap review)")
            #expect(elsewhere.status == 2)
            #expect(
                elsewhere.stderr.contains(
                    "error: no Snapshots directory here; run from the project root or name the folders to search"),
                "\(elsewhere.stderr)")
        }
    }
}
