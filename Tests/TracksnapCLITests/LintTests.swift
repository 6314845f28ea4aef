import Foundation
import Testing
import TracksnapTestSupport

/// A file for `tracksnap lint` and the one diagnostic it must produce.
struct LintCase: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// Where it is written, relative to the test's directory (a `Validators/` path makes it a profile).
    var name = "snapshot.json"
    let text: String
    let severity: String
    /// Text the diagnostic holds.
    let says: [String]
    /// The text the diagnostic points at: its first occurrence after `after` gives the line and column.
    let at: String
    var after = ""

    static let cases: [LintCase] = [
        LintCase(
            testDescription: "a profile naming a decoder that does not exist is an error",
            name: "Validators/shop.json",
            text: """
                {
                  "decoders": ["segment", "segmnet"]
                }
                """,
            severity: "error", says: [#"no decoder "segmnet""#, "segment"], at: #""segmnet""#),
        LintCase(
            testDescription: "an email recorded in clear is a warning at its value, masked",
            text: """
                {
                  "events": [
                    { "type": "track", "name": "Signed Up", "properties": { "contact": "ada@example.com" } }
                  ]
                }
                """,
            severity: "warning",
            says: ["email in clear at /events/0/properties/contact: a***@example.com", "$regex"],
            at: #""ada@example.com""#),
        LintCase(
            testDescription: "a phone in a URL's query inside a recorded value is a warning at that value",
            text: """
                {
                  "requests": [
                    { "method": "GET", "url": "https://t.example/p", "parameters": { "next": "https://shop.example/cb?tel=%2B44+20+7946+0958" } }
                  ]
                }
                """,
            severity: "warning", says: ["phone in clear at /requests/0/parameters/next/tel: +** ** **** **58"],
            at: #""https://shop"#),
        LintCase(
            testDescription: "a literal that looks like a pattern is a warning",
            text: """
                {
                  "requests": [
                    { "method": "GET", "parameters": { "id": "[0-9]+" }, "url": "https://t.example/p" }
                  ]
                }
                """,
            severity: "warning", says: [#""[0-9]+""#, "$regex", "must match the whole value"], at: #""[0-9]+""#),
        LintCase(
            testDescription: "a $regex without a metacharacter is a warning",
            text: """
                {
                  "requests": [
                    { "method": { "$regex": "GET" }, "url": "https://t.example/p" }
                  ]
                }
                """,
            severity: "warning", says: [#""GET""#, "metacharacter"], at: #""GET""#),
        LintCase(
            testDescription: "a key written twice is a warning",
            text: """
                {
                  "name": "first",
                  "name": "second",
                  "requests": []
                }
                """,
            severity: "warning", says: [#""name""#, "twice"], at: #""name": "second""#),
        LintCase(
            testDescription: "an unknown $ key is an error",
            text: """
                {
                  "requests": [
                    { "url": { "$regexp": "https://t\\\\.example/.*" } }
                  ]
                }
                """,
            severity: "error", says: ["$regexp", "$regex"], at: #""$regexp""#),
        LintCase(
            testDescription: "an invalid pattern is an error with PCRE2's message and offset",
            text: """
                {
                  "requests": [
                    { "url": { "$regex": "https://t\\\\.example/[a-z" } }
                  ]
                }
                """,
            severity: "error",
            says: [#""https://t\.example/[a-z""#, "offset 23", "missing terminating ] for character class"],
            at: #""https://t"#),
        LintCase(
            testDescription: "malformed JSON is an error at its line and column",
            text: """
                {
                  "requests": [
                    { "url": "https://t.example/p" ]
                  ]
                }
                """,
            severity: "error", says: [], at: "]", after: #""https://t.example/p" "#),
        LintCase(
            testDescription: "an unknown key in a profile under Validators/ is an error",
            name: "Validators/shop.json",
            text: """
                {
                  "filtre": { "host": "t.example" },
                  "name": "shop"
                }
                """,
            severity: "error", says: [#""filtre""#], at: #""filtre""#),
        LintCase(
            testDescription: "a profile naming a validator nobody registered is an error at its value",
            name: "Validators/shop.json",
            text: """
                {
                  "name": "shop",
                  "swiftValidator": "strictest"
                }
                """,
            severity: "error",
            says: [
                #"no validator is registered as "strictest""#, "registered: snapshot",
                "runs TracksnapCommand.main(extensions:)",
            ],
            at: #""strictest""#),
        LintCase(
            testDescription: "a cassette's answer with a status no backend sends is an error at its value",
            name: "Cassettes/api.json",
            text: """
                {
                  "name": "api",
                  "interactions": [{
                    "recorded_at": 1700000000,
                    "request": {"method": "GET", "url": "https://api.shop.example/v1/products"},
                    "response": {"url": "https://api.shop.example/v1/products", "headers": {}, "status": 700}
                  }]
                }
                """,
            severity: "error", says: [#"a response needs its "status""#, "200 to 599"], at: "700",
            after: #""status": "#),
        LintCase(
            testDescription: "a VCR cassette whose answer has no headers is a warning at the answer",
            name: "Cassettes/api.yml",
            text: """
                http_interactions:
                - request:
                    method: get
                    uri: https://api.shop.example/health
                  response:
                    status:
                      code: 204
                  recorded_at: Tue, 01 Nov 2011 04:58:44 GMT
                """,
            severity: "warning", says: [#"no "headers" in the response"#, "VCR's own writer"], at: "status:"),
    ]

    /// `line:column` of the text the diagnostic points at.
    var place: String? { SourceText(text: text).place(of: at, after: after) }
}

@Suite("tracksnap lint: snapshot and profile files checked without a capture", .tags(.process), .leftToMakeTest)
struct LintTests {
    @Test(
        "the repository's own Snapshots and Validators lint clean",
        arguments: [[String](), ["Snapshots", "Validators"]])
    func shippedFilesAreClean(paths: [String]) throws {
        let run = try tracksnap(arguments: ["lint", "--strict"] + paths)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let count = ["Snapshots", "Validators"].map { folder in
            let files =
                FileManager.default.enumerator(atPath: PackagePaths.root.appending(path: folder).path)?.allObjects
                as? [String] ?? []
            return files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".new.json") }.count
        }.reduce(0, +)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines.first?.hasPrefix("checked as: ") == true, "\(run.stdout)")
        #expect(lines.last == "\(count) files checked: 0 errors, 0 warnings")
    }

    @Test(
        "a file is told by its shape, not its folder: a cassette outside Cassettes/ lints clean and is named as one; a broken one still fails"
    )
    func byShape() throws {
        try withTemporaryDirectory { directory in
            // What `serve --cassette .build/x.json` writes, and files of the other tools, none under Cassettes/.
            let files = [
                "x.json":
                    #"{"cassette": 1, "name": "x", "interactions": [{"request": {"method": "GET", "url": "http://127.0.0.1:9/v1/a"}, "response": {"status": 200, "text": "ok"}, "recordedAt": "2026-11-24T19:00:00Z"}]}"#,
                "dvr.json":
                    #"{"name": "d", "interactions": [{"recorded_at": 1, "request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200, "url": "https://a.example/", "headers": {}}}]}"#,
                "vinyl.json":
                    #"[{"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200, "url": "https://a.example/", "headers": {}},},]"#,
                "har.json": #"{"log": {"version": "1.2", "entries": []}}"#,
                "profile.json": #"{"name": "shop", "extends": "segment", "filter": {"host": "collect.shop.example"}}"#,
                "snapshot.json": #"{"requests": [{"method": "GET", "url": "https://a.example/"}]}"#,
            ]
            for (name, text) in files { try write(text, to: directory.appending(path: name)) }
            let run = try tracksnap("lint", directory.path)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            // Vinyl's trailing commas are its two warnings, and say what the file was taken for.
            #expect(run.stdout.contains("vinyl.json: note: checked as a Vinyl cassette"), "\(run.stdout)")
            #expect(!run.stdout.contains("unknown key"), "\(run.stdout)")
            #expect(
                run.stdout.contains(
                    "checked as: 1 DVR cassette, 1 HAR cassette, 1 Vinyl cassette, 1 profile, 1 snapshot, 1 tracksnap cassette"
                ), "\(run.stdout)")

            let one = try tracksnap("lint", directory.appending(path: "x.json").path)
            #expect(
                one.status == 0
                    && one.stdout == "checked as: a tracksnap cassette\n1 file checked: 0 errors, 0 warnings\n")

            let broken = directory.appending(path: "broken.json")
            try write(
                #"{"cassette": 1, "interactions": [{"request": {"url": "http://a.example/"}, "response": {"status": 0}}]}"#,
                to: broken)
            let failed = try tracksnap("lint", broken.path)
            #expect(failed.status == 1, "\(failed.stdout)")
            #expect(failed.stdout.contains("\(broken.path):1:"), "\(failed.stdout)")
            #expect(failed.stdout.contains("a response needs its \"status\""), "\(failed.stdout)")
            #expect(failed.stdout.contains("note: checked as a tracksnap cassette"), "\(failed.stdout)")
        }
    }

    @Test("a capture named to lint is read as --capture reads it and named as one: HAR, NDJSON, an array of requests")
    func captures() throws {
        try withTemporaryDirectory { directory in
            let har = try String(contentsOf: PackagePaths.root.appending(path: DemoTests.release14), encoding: .utf8)
            let files = [
                "run.har": har,
                "run.jsonl": #"{"method": "GET", "url": "https://t.example/e"}"# + "\n"
                    + #"{"method": "GET", "url": "https://t.example/f"}"#,
                "requests.json": #"[{"id": "1", "method": "GET", "url": "https://t.example/e"}]"#,
            ]
            for (name, text) in files { try write(text, to: directory.appending(path: name)) }
            let run = try tracksnap(
                arguments: ["lint"] + files.keys.sorted().map { directory.appending(path: $0).path })
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(
                run.stdout
                    == "checked as: 1 HAR capture, 1 NDJSON capture, 1 capture\n3 files checked: 0 errors, 0 warnings\n",
                "\(run.stdout)")

            // A record without a url: an error at its line, as `--capture` reports it. A folder's
            // listing holds JSON and YAML only, so a capture is linted when named.
            let broken = directory.appending(path: "broken.ndjson")
            try write(#"{"method": "GET", "url": "https://t.example/e"}"# + "\n" + #"{"method": "POST"}"#, to: broken)
            let failed = try tracksnap("lint", broken.path, directory.path)
            #expect(failed.status == 1, "\(failed.stdout)")
            #expect(
                failed.stdout.hasPrefix(
                    "\(broken.path):2:1: error: url: missing\n\(broken.path): note: checked as an NDJSON capture\n"),
                "\(failed.stdout)")
            #expect(failed.stdout.contains("checked as: 1 NDJSON capture, 1 capture\n"), "\(failed.stdout)")
        }
    }

    @Test(
        "a folder's cassettes are the ones lint checks: vcrpy's YAML under tests/cassettes and DVR's JSON are both listed and checked as cassettes, from the folder and from the project's default Cassettes"
    )
    func cassettesInAFolder() throws {
        try withTemporaryDirectory { directory in
            // Where pytest-recording keeps what vcrpy records; vcrpy itself writes it.
            let yaml = directory.appending(path: "tests/cassettes/shop.yaml")
            try FileManager.default.createDirectory(
                at: yaml.deletingLastPathComponent(), withIntermediateDirectories: true)
            let script = PackagePaths.root.appending(path: "Tests/TracksnapReplayTests/Scripts/vcrpy_record.py")
            let recorded = try runProcess(PackagePaths.python, [script.path, yaml.path])
            try #require(recorded.status == 0, "\(recorded.stderr)")
            try write(
                #"{"name": "d", "interactions": [{"recorded_at": 1, "request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200, "url": "https://a.example/", "headers": {}}}]}"#,
                to: directory.appending(path: "tests/dvr.json"))
            // A YAML file of another kind in the same folder is no cassette.
            try write("on: push\njobs: {}\n", to: directory.appending(path: "tests/ci.yml"))

            let run = try tracksnap("lint", directory.appending(path: "tests").path)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("checked as: 1 DVR cassette, 1 VCR cassette\n"), "\(run.stdout)")
            #expect(run.stdout.contains("2 files checked"), "\(run.stdout)")

            // `tracksnap lint` with no path reads Cassettes/: its YAML is listed too.
            let cassettes = directory.appending(path: "Cassettes")
            try FileManager.default.moveItem(at: yaml.deletingLastPathComponent(), to: cassettes)
            let here = try tracksnap("lint", in: directory)
            #expect(here.status == 0, "\(here.stdout)\(here.stderr)")
            #expect(here.stdout.contains("checked as: a VCR cassette\n1 file checked"), "\(here.stdout)")
        }
    }

    @Test("each problem is reported at file:line:column, with its severity", arguments: LintCase.cases)
    func diagnostic(_ lint: LintCase) throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: lint.name)
            try write(lint.text, to: file)
            let place = try #require(lint.place)
            let run = try tracksnap("lint", file.path)
            #expect(run.status == (lint.severity == "error" ? 1 : 0), "\(run.stdout)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            let diagnostic = try #require(lines.first, "\(run.stderr)")
            #expect(diagnostic.hasPrefix("\(file.path):\(place): \(lint.severity): "), "\(diagnostic)")
            for fragment in lint.says {
                #expect(diagnostic.contains(fragment), "\(diagnostic) lacks \(fragment)")
            }
            #expect(
                lines.last
                    == "1 file checked: \(lint.severity == "error" ? "1 error, 0 warnings" : "0 errors, 1 warning")")
        }
    }

    @Test(
        "--strict turns warnings into a failure: exit 0 without it, 1 with it",
        arguments: [([String](), Int32(0)), (["--strict"], Int32(1))])
    func strict(flags: [String], status: Int32) throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "snapshot.json")
            let warning = try #require(LintCase.cases.first { $0.severity == "warning" })
            try write(warning.text, to: file)
            let run = try tracksnap(arguments: ["lint"] + flags + [file.path])
            #expect(run.status == status)
            #expect(run.stdout.contains("warning"))
        }
    }

    @Test("a directory is linted file by file, and the count covers them all")
    func directory() throws {
        try withTemporaryDirectory { directory in
            for lint in LintCase.cases {
                try write(lint.text, to: directory.appending(path: "\(lint.testDescription.hashValue)/\(lint.name)"))
            }
            let run = try tracksnap("lint", directory.path)
            #expect(run.status == 1)
            let errors = LintCase.cases.filter { $0.severity == "error" }.count
            let warnings = LintCase.cases.count - errors
            #expect(
                run.stdout.hasSuffix("\(LintCase.cases.count) files checked: \(errors) errors, \(warnings) warnings\n"))
        }
    }

    @Test("a directory with no JSON file exits 2 and names it, rather than passing on nothing")
    func nothingToLint() throws {
        try withTemporaryDirectory { directory in
            try write("notes\n", to: directory.appending(path: "README.txt"))
            let named = try tracksnap("lint", directory.path)
            #expect(named.status == 2)
            #expect(named.stdout.isEmpty)
            #expect(named.stderr.contains(directory.path))
            #expect(named.stderr.contains("no JSON files"))

            let here = try tracksnap("lint", in: directory)
            #expect(here.status == 2)
            #expect(here.stdout.isEmpty)
            #expect(here.stderr.contains("Snapshots"))
        }
    }

    @Test("a path that does not exist exits 2 and names it")
    func missingPath() throws {
        try withTemporaryDirectory { directory in
            let absent = directory.appending(path: "absent").path
            let run = try tracksnap("lint", absent)
            #expect(run.status == 2)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains(absent))
        }
    }
}
