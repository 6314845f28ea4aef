import Foundation
import Testing
import TracksnapTestSupport

/// One way of running `tracksnap` on bad input, and what its error must say.
struct BadInput: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// Files written into the test's temporary directory first, by relative path.
    var files: [String: String] = [:]
    /// The command line; `$TMP` stands for the temporary directory.
    let arguments: [String]
    /// Text the error on stderr must hold; `$TMP` as above.
    let message: [String]

    init(_ description: String, files: [String: String] = [:], _ arguments: [String], says message: [String]) {
        self.testDescription = description
        self.files = files
        self.arguments = arguments
        self.message = message
    }

    static let snapshot = DemoTests.snapshot
    static let capture = DemoTests.release15

    /// Where a snapshot's parser stops: the second of two commas.
    static let malformedPlace = SourceText(text: malformedSnapshot).place(of: ",", after: "\",") ?? "?"

    static let invalidPattern = #"https://t\.example/(p"#

    static let malformedSnapshot = """
        {
          "requests": [
            { "url": "https://t.example/p",, }
          ]
        }
        """

    /// An unclosed group: PCRE2 notices at the end of the pattern.
    static let patternSnapshot = """
        {
          "requests": [
            { "url": { "$regex": "https://t\\\\.example/(p" } }
          ]
        }
        """

    static let malformedHAR = """
        {
          "log": {
            "entries": [}
          }
        }
        """

    static let cases: [BadInput] = [
        BadInput(
            "a capture file that does not exist", ["validate", snapshot, "--capture", "$TMP/absent.har"],
            says: ["$TMP/absent.har", "no such file"]),
        BadInput(
            "a capture that is a directory", ["validate", snapshot, "--capture", "$TMP"], says: ["$TMP", "directory"]),
        BadInput(
            "a malformed HAR file", files: ["broken.har": malformedHAR],
            ["validate", snapshot, "--capture", "$TMP/broken.har"],
            says: [
                "$TMP/broken.har:\(SourceText(text: malformedHAR).place(of: "}", after: "[") ?? "?")", "malformed JSON",
            ]),
        BadInput(
            "a malformed line in an NDJSON capture",
            files: [
                "capture.ndjson":
                    "{\"method\":\"GET\",\"url\":\"https://t.example/a\"}\n{\"method\":\"GET\" \"url\":\"https://t.example/b\"}\n"
            ],
            ["validate", snapshot, "--capture", "$TMP/capture.ndjson"], says: ["$TMP/capture.ndjson:2:"]),
        BadInput(
            "a snapshot that is not valid JSON", files: ["bad.json": malformedSnapshot],
            ["validate", "$TMP/bad.json", "--capture", capture], says: ["$TMP/bad.json:\(malformedPlace)", "error"]),
        BadInput(
            "an invalid $regex",
            files: ["pattern.json": patternSnapshot],
            ["validate", "$TMP/pattern.json", "--capture", capture],
            says: [
                "$TMP/pattern.json:\(SourceText(text: patternSnapshot).place(of: "\"https://t") ?? "?")",
                "\"\(invalidPattern)\"", "offset \(invalidPattern.utf8.count)", "missing closing parenthesis",
            ]),
        BadInput(
            "a profile name that does not exist",
            ["validate", snapshot, "--capture", capture, "--validator", "no-such-profile"],
            says: ["no-such-profile", "available: \(shippedProfiles.joined(separator: ", "))"]),
        BadInput(
            "a profile path whose filter has an invalid pattern",
            files: ["profile.json": "{\n  \"filter\": { \"host\": { \"$regex\": \"a(\" } }\n}\n"],
            ["validate", snapshot, "--capture", capture, "--validator", "$TMP/profile.json"],
            says: ["$TMP/profile.json:2:", "invalid pattern", #""a(""#]),
        BadInput(
            "a validators directory that does not exist",
            ["validate", snapshot, "--capture", capture, "--validators-dir", "$TMP/none"],
            says: ["$TMP/none", "acme-shop"]),
        BadInput(
            "an unknown --format", ["validate", snapshot, "--capture", capture, "--format", "yaml"],
            says: ["yaml", "text, json, junit, github"]),
        BadInput("no --capture", ["validate", snapshot], says: ["--capture"]),
        BadInput("no snapshot argument", ["validate", "--capture", capture], says: ["snapshots"]),
        BadInput(
            "an unknown option", ["validate", snapshot, "--capture", capture, "--frobnicate"], says: ["--frobnicate"]),
        BadInput("an unknown subcommand", ["frobnicate"], says: ["frobnicate"]),
        BadInput(
            "a snapshot path that does not exist", ["validate", "$TMP/absent.json", "--capture", capture],
            says: ["$TMP/absent.json", "no such file"]),
        BadInput(
            "a directory with no snapshot files", files: ["notes.txt": "not a snapshot\n"],
            ["validate", "$TMP", "--capture", capture], says: ["$TMP", "no snapshot files"]),
        BadInput(
            "a report file that cannot be written",
            ["validate", snapshot, "--capture", capture, "--output", "$TMP/missing/report.json"],
            says: ["$TMP/missing/report.json", "cannot write"]),
    ]

    /// The profiles a name can take in the repository, as the error lists them: `Validators/`'s
    /// and the built-in ones.
    static var shippedProfiles: [String] {
        let names = ["Validators", "Sources/TracksnapValidation/Profile/BuiltIn"].flatMap { folder in
            (try? FileManager.default.contentsOfDirectory(atPath: PackagePaths.root.appending(path: folder).path)) ?? []
        }
        return Set(names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }).sorted()
    }
}

@Suite(
    "Bad input: exit 2, an error that says where, and nothing that reads as a pass", .tags(.process), .leftToMakeTest)
struct BadInputTests {
    @Test("bad input exits 2 with the file and place on stderr and nothing on stdout", arguments: BadInput.cases)
    func badInput(_ input: BadInput) throws {
        try withTemporaryDirectory { directory in
            for (name, text) in input.files { try write(text, to: directory.appending(path: name)) }
            let substitute = { (text: String) in text.replacingOccurrences(of: "$TMP", with: directory.path) }
            let run = try tracksnap(arguments: input.arguments.map(substitute))
            #expect(run.status == 2, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
            #expect(run.stdout.isEmpty, "stdout: \(run.stdout)")
            for fragment in input.message.map(substitute) {
                #expect(run.stderr.contains(fragment), "stderr lacks \(fragment): \(run.stderr)")
            }
        }
    }

    @Test(
        "a good and a bad snapshot: the good one is still reported, the error printed, and the exit is 2",
        arguments: ["text", "json"])
    func goodAndBad(format: String) throws {
        try withTemporaryDirectory { directory in
            let bad = directory.appending(path: "bad.json")
            try write(BadInput.malformedSnapshot, to: bad)
            let run = try tracksnap(
                "validate", DemoTests.snapshot, bad.path, "--capture", DemoTests.release14, "--format", format)
            #expect(run.status == 2)
            #expect(run.stderr.contains("\(bad.path):\(BadInput.malformedPlace)"))
            if format == "text" {
                #expect(run.stdout.hasPrefix("✓ checkout (\(DemoTests.snapshot))"))
            } else {
                let top = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
                let files = (top["snapshots"] as? [[String: Any]])?.compactMap { $0["file"] as? String }
                #expect(files == [DemoTests.snapshot])
            }
        }
    }
}
