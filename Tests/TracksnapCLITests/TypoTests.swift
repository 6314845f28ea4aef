import Foundation
import Testing
import TracksnapTestSupport

/// A misspelt or misplaced word on a command line, and what tracksnap must answer.
struct Typo: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// Files written into the test's temporary directory first, by relative path.
    var files: [String: String] = [:]
    /// The command line; `$TMP` stands for the temporary directory.
    let arguments: [String]
    let status: Int32
    /// Text stderr must hold: the wrong word and the one meant.
    let message: [String]
    /// Text stderr must not hold: what the mistake used to be reported as.
    var not: [String] = []

    static let snapshot = DemoTests.snapshot
    static let capture = DemoTests.release14

    static let cases: [Typo] = [
        Typo(
            testDescription: "a misspelt subcommand", arguments: ["valdate", snapshot, "--capture", capture], status: 2,
            message: ["unknown subcommand \"valdate\"; did you mean validate?"], not: ["Unknown option '--capture'"]),
        Typo(
            testDescription: "a misspelt subcommand after help", arguments: ["help", "reveiw"], status: 2,
            message: ["unknown subcommand \"reveiw\"; did you mean review?"]),
        Typo(
            testDescription: "a word that is no subcommand at all", arguments: ["frobnicate"], status: 2,
            message: [
                "unknown subcommand \"frobnicate\"; the subcommands are validate, events, lint, serve, ca, record"
            ]),
        Typo(
            testDescription: "a misspelt --version", arguments: ["--verison"], status: 2,
            message: ["unknown option --verison; did you mean --version?"]),
        Typo(
            testDescription: "a profile named with --profile, the guides' word for it",
            arguments: ["validate", snapshot, "--capture", capture, "--profile=segment"], status: 2,
            message: [
                "unknown option --profile; a profile (segment, ga4, Validators/shop.json…) is named with --validator"
            ],
            not: ["Unknown option '--profile'"]),
        Typo(
            testDescription: "a profile named where the snapshot goes",
            arguments: ["validate", "Validators/acme-shop.json", "--capture", capture], status: 2,
            message: [
                "Validators/acme-shop.json: error: this is a profile, not a snapshot: it is named with --validator Validators/acme-shop.json"
            ],
            not: ["unknown key"]),
        Typo(
            testDescription: "a tracking plan named where the snapshot goes",
            arguments: ["validate", "Tests/TracksnapCLITests/Fixtures/plans/shop.plan.json", "--capture", capture],
            status: 2,
            message: [
                "this is a tracking plan, not a snapshot: events are checked against it with --plan Tests/TracksnapCLITests/Fixtures/plans/shop.plan.json"
            ],
            not: ["unknown key"]),
        Typo(
            testDescription: "a snapshot written in YAML",
            files: ["checkout.yaml": "validator: segment\nevents:\n  - name: Checkout Started\n"],
            arguments: ["validate", "$TMP/checkout.yaml", "--capture", capture], status: 2,
            message: ["$TMP/checkout.yaml: error: this is YAML, and a snapshot is JSON"],
            not: ["strings need double quotes"]),
        Typo(
            testDescription: "a misspelt subcommand of a subcommand", arguments: ["cassette", "lern", "$TMP/x.json"],
            status: 2, message: ["unknown subcommand \"lern\"; did you mean learn?"], not: ["unexpected arguments"]),
        Typo(
            testDescription: "a snapshot validated before it was recorded",
            arguments: ["validate", "$TMP/new.json", "--capture", capture], status: 2,
            message: [
                "$TMP/new.json: error: no such file or directory",
                "$TMP/new.json: note: no snapshot there yet; record one from this capture: tracksnap record $TMP/new.json --capture \(capture)",
            ]),
        Typo(
            testDescription: "a misspelt option whose absence a check would report",
            arguments: ["validate", snapshot, "--captur", capture], status: 2,
            message: ["Unknown option '--captur'. Did you mean '--capture'?"], not: ["--capture FILE is required"]),
        Typo(
            testDescription: "a misspelt option with its value after =",
            arguments: ["record", "$TMP/new.json", "--captur=\(capture)"], status: 2,
            message: ["Unknown option '--captur'. Did you mean '--capture'?"], not: ["--capture FILE is required"]),
        Typo(
            testDescription: "a capture named where snapshots go, without --capture",
            arguments: ["validate", snapshot, capture], status: 2,
            message: ["--capture FILE is required", "; \(capture) is one, named with --capture \(capture)"]),
        Typo(
            testDescription: "a capture named after the snapshot to record, without --capture",
            arguments: ["record", "$TMP/new.json", capture], status: 2,
            message: ["--capture FILE is required", "; \(capture) is one, named with --capture \(capture)"]),
        Typo(
            testDescription: "a capture named after the snapshot to record, beside --capture",
            arguments: ["record", "$TMP/new.json", capture, "--capture", capture], status: 2,
            message: ["Error: \(capture) is a capture: name it with --capture \(capture)"],
            not: ["Unexpected argument"]),
        Typo(
            testDescription: "a second snapshot to record",
            arguments: ["record", "$TMP/new.json", "$TMP/other.json", "--capture", capture], status: 2,
            message: ["Error: unexpected argument \"$TMP/other.json\": record writes one snapshot, $TMP/new.json"]),
        Typo(
            testDescription: "a capture named as the snapshot",
            arguments: ["validate", capture, "--capture", capture], status: 2,
            message: ["\(capture):1:1: error: this is a capture (HAR), not a snapshot"], not: ["unknown key \"log\""]),
        Typo(
            testDescription: "a misspelt option beside one a check needs",
            arguments: ["serve", "--intercpt", "all", "--answer"], status: 2,
            message: ["Unknown option '--intercpt'. Did you mean '--intercept'?"], not: ["name their hosts"]),
        Typo(
            testDescription: "a misspelt option of a nested subcommand, beside one a check needs",
            arguments: ["cassette", "learn", "$TMP/out.json", "--from", "a.json", "--fro", "b.json"], status: 2,
            message: [
                "Unknown option '--fro'. Did you mean '--from'?",
                "Usage: tracksnap cassette learn <cassette> --from <run> ...",
                "See 'tracksnap cassette learn --help' for more information.",
            ],
            not: ["at least two runs"]),
        Typo(
            testDescription: "a nested subcommand's check, printed with its usage as argument parser prints its own",
            arguments: ["cassette", "learn", "$TMP/out.json", "--from", "a.json"], status: 2,
            message: [
                "Error: --from takes the cassettes of at least two runs\n"
                    + "Usage: tracksnap cassette learn <cassette> --from <run> ...\n"
                    + "  See 'tracksnap cassette learn --help' for more information."
            ]),
        Typo(
            testDescription: "a misspelt built-in profile",
            arguments: ["validate", snapshot, "--capture", capture, "--validator", "segmnet"],
            status: 2, message: ["no validator profile \"segmnet\"; did you mean segment? available: "],
            not: ["segmnet.json"]),
        Typo(
            testDescription: "a misspelt profile of the validators directory",
            files: ["Validators/shop.json": "{ \"unexpected\": \"allow\" }\n"],
            arguments: [
                "validate", snapshot, "--capture", capture, "--validators-dir", "$TMP/Validators", "--validator",
                "shpo",
            ],
            status: 2,
            message: ["$TMP/Validators: error: no validator profile \"shpo\"; did you mean shop? available: "],
            not: ["shpo.json"]),
        Typo(
            testDescription: "a misspelt profile in a snapshot's validator",
            files: ["x.json": "{\n  \"validator\": \"ga44\",\n  \"requests\": []\n}\n"],
            arguments: ["lint", "$TMP/x.json"],
            status: 1, message: ["$TMP/x.json:2:16: error: no validator profile \"ga44\"", "did you mean ga4?"]),
        Typo(
            testDescription: "a misspelt --intercept keyword", arguments: ["serve", "--intercept", "analytcs"],
            status: 2,
            message: ["--intercept \"analytcs\" is not a keyword", "did you mean analytics?", "write \"analytcs.\""]),
        Typo(
            testDescription: "a misspelt --intercept action", arguments: ["serve", "--intercept", "analytics=answr"],
            status: 2, message: ["after = comes answer or forward; did you mean answer?"]),
        Typo(
            testDescription: "a misspelt report format",
            arguments: ["validate", snapshot, "--capture", capture, "--format", "jsn"],
            status: 2, message: ["unknown format \"jsn\"; did you mean json? use text, json"]),
    ]
}

@Suite("Typos: the wrong word named, with the nearest right ones", .tags(.process), .leftToMakeTest)
struct TypoTests {
    @Test("a typo exits as bad input does, saying what was typed and what was meant", arguments: Typo.cases)
    func typo(_ typo: Typo) throws {
        try withTemporaryDirectory { directory in
            for (name, text) in typo.files {
                let file = directory.appending(path: name)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try write(text, to: file)
            }
            let substitute = { (text: String) in text.replacingOccurrences(of: "$TMP", with: directory.path) }
            let run = try tracksnap(arguments: typo.arguments.map(substitute))
            #expect(run.status == typo.status, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
            if typo.status == 2 { #expect(run.stdout.isEmpty, "stdout: \(run.stdout)") }
            let output = run.stderr + run.stdout
            for fragment in typo.message.map(substitute) {
                #expect(output.contains(fragment), "output lacks \(fragment): \(output)")
            }
            for fragment in typo.not {
                #expect(!output.contains(fragment), "output holds \(fragment): \(output)")
            }
        }
    }
}
