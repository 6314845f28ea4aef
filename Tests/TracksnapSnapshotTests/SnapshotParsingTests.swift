import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

@Suite("Snapshot files: bad input")
struct SnapshotParsingTests {
    /// A snapshot from JSON text, as if read from `Snapshots/test.json`.
    private func parse(_ text: String) throws -> Snapshot {
        try Snapshot.parse(Array(text.utf8), file: "Snapshots/test.json")
    }

    @Test(
        "bad snapshots are rejected with every problem, each with its place",
        arguments: [
            (#"{"requests": [{"url": {"$regex": "a(b"}}]}"#, "missing closing parenthesis", 1, 34),
            (#"{"requests": [{"url": {"$regexp": "a"}}]}"#, "unknown matcher $regexp", 1, 24),
            (#"{"requests": [{"urll": "a"}]}"#, "unknown field \"urll\"", 1, 16),
            (#"{"order": "sorted"}"#, "\"order\" must be one of", 1, 11),
            (#"{"requests": [{"url": {"$type": "text"}}]}"#, "$type takes one of", 1, 33),
            (#"{"requests": [{"url": {"$regex": "a", "x": 1}}]}"#, "exactly one key", 1, 23),
            ("{\n  \"requests\": [\n    {\"url\": \"a\",}\n  ]\n}", "trailing comma", 3, 16),
        ])
    func badSnapshot(text: String, message: String, line: Int, column: Int) throws {
        let error = try #require(throws: InputError.self) { try parse(text) }
        let diagnostic = try #require(error.diagnostics.first)
        #expect(diagnostic.message.contains(message), "\(diagnostic.message)")
        #expect(diagnostic.location == SourceLocation(line: line, column: column))
        #expect(diagnostic.file == "Snapshots/test.json")
    }

    @Test("an invalid pattern names the pattern, PCRE2's offset and its message")
    func invalidPattern() throws {
        let error = try #require(throws: InputError.self) {
            try parse(#"{"requests": [{"url": {"$regex": "o-[0-9"}}]}"#)
        }
        let message = try #require(error.diagnostics.first?.message)
        #expect(message.contains("\"o-[0-9\""))
        #expect(message.contains("offset 6"))
        #expect(message.contains("missing terminating ]"))
    }

    @Test("all errors of a file are reported together")
    func everyError() throws {
        let error = try #require(throws: InputError.self) {
            try parse(#"{"requests": [{"url": {"$regex": "("}}, {"method": {"$nope": 1}}], "extra": 1}"#)
        }
        #expect(error.diagnostics.count == 3)
    }

    @Test("malformed JSON in a snapshot is an input error with the parser's diagnostic")
    func malformed() throws {
        let error = try #require(throws: InputError.self) { try parse("{\"requests\": [1,]}") }
        #expect(error.description == "Snapshots/test.json:1:16: error: trailing comma: remove the ',' before ']'")
        let parsed = try #require(throws: JSONParseError.self) {
            try JSONDocument.parse(Array("{\"requests\": [1,]}".utf8), file: "Snapshots/test.json")
        }
        #expect(error.diagnostics == parsed.diagnostics)
    }

    @Test("a missing snapshot file is an input error naming it")
    func missingFile() throws {
        let error = try #require(throws: InputError.self) { try Snapshot.load(path: "/nonexistent/x.json") }
        #expect(error.description == "/nonexistent/x.json: error: no such file")
    }
}
