import Foundation
import Testing
import TracksnapTestSupport

/// Captures from anywhere a shell can hand them over: standard input, a pipe, the control API's
/// JSON array saved as it came.
@Suite("--capture reads standard input, pipes and the control API's arrays", .tags(.process), .leftToMakeTest)
struct CaptureSourcesTests {
    static let browse = SzimplaAndNDJSONTests.browse
    static let buy = SzimplaAndNDJSONTests.buy

    /// `tracksnap` through bash, so that its pipes and process substitution are real.
    func shell(_ script: String) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["TRACKSNAP"] = try PackagePaths.executable.get().path
        environment["CI"] = nil
        return try runProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: PackagePaths.root, environment: environment)
    }

    @Test(
        "--capture - reads NDJSON from standard input, joined in order with files",
        arguments: [
            #""$TRACKSNAP" validate "$SNAPSHOT" --capture "$BROWSE" --capture - < "$BUY""#,
            #"cat "$BROWSE" "$BUY" | "$TRACKSNAP" validate "$SNAPSHOT" --capture -"#,
            #""$TRACKSNAP" validate "$SNAPSHOT" --capture <(cat "$BROWSE") --capture <(cat "$BUY")"#,
        ])
    func standardInputAndPipes(command: String) throws {
        let run = try shell("SNAPSHOT='\(DemoTests.snapshot)' BROWSE='\(Self.browse)' BUY='\(Self.buy)'; " + command)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("✓ checkout"))
        // Swapped, the strict order fails: the input was read, not skipped.
        let swapped = try shell(
            "SNAPSHOT='\(DemoTests.snapshot)' BROWSE='\(Self.buy)' BUY='\(Self.browse)'; " + command)
        #expect(swapped.status == 1, "\(swapped.stdout)\(swapped.stderr)")
    }

    @Test(
        "a JSON array of capture records, as the control API answers, is a capture; a bad element is named by its index"
    )
    func jsonArray() throws {
        try withTemporaryDirectory { directory in
            let lines = try [Self.browse, Self.buy].flatMap {
                try String(contentsOfFile: $0, encoding: .utf8).split(separator: "\n")
            }
            let array = directory.appending(path: "session.json")
            try write("[\n" + lines.joined(separator: ",\n") + "\n]\n", to: array)
            let run = try tracksnap("validate", DemoTests.snapshot, "--capture", array.path)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")

            let broken = directory.appending(path: "broken.json")
            try write(#"[{"method": "GET", "url": "https://t.example/a"}, {"method": "GET"}]"#, to: broken)
            let bad = try tracksnap("validate", DemoTests.snapshot, "--capture", broken.path)
            #expect(bad.status == 2)
            #expect(bad.stderr.contains("broken.json: error: [1].url: "), "\(bad.stderr)")
        }
    }

    @Test(
        "an empty standard input is a capture of no request, as an empty file is: not a pass on nothing, each expected entry missing"
    )
    func emptyInput() throws {
        let run = try shell("\"$TRACKSNAP\" validate '\(DemoTests.snapshot)' --capture - < /dev/null")
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("5 expected, 0 captured"), "\(run.stdout)")
    }
}
