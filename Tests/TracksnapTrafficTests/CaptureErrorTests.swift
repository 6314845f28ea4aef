import Foundation
import Testing
import TracksnapJSON

@testable import TracksnapTraffic

@Suite("Capture files: errors name the file and the place")
struct CaptureErrorTests {
    private func error(reading text: String, file: String, limit: Int = CaptureFile.defaultMaximumBodySize)
        -> CaptureFileError?
    {
        do {
            _ = try CaptureFile.read(data: Data(text.utf8), file: file, maximumBodySize: limit)
            return nil
        } catch {
            return error
        }
    }

    private func error(readingPath path: String) -> CaptureFileError? {
        do {
            _ = try CaptureFile.read(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a capture error is one diagnostic: an NDJSON record at its line's first column, the place before the message")
    func diagnostics() throws {
        let record = try #require(
            error(
                reading:
                    "{\"method\": \"GET\", \"url\": \"https://t.example/a\"}\n{\"url\": \"https://t.example/b\"}\n",
                file: "n.ndjson"))
        #expect(record.description == "n.ndjson:2: method: missing")
        #expect(
            record.diagnostics == [
                Diagnostic(
                    .error, file: "n.ndjson", location: SourceLocation(line: 2, column: 1), message: "method: missing")
            ])
        let malformed = try #require(error(reading: "{\"log\": {entries: []}}", file: "t.har"))
        #expect(
            malformed.diagnostics.map(\.description) == [
                "t.har:1:10: error: malformed JSON: object keys must be strings in double quotes"
            ])
        let whole = try #require(error(reading: "{\n\"version\": \"1.2\"\n}", file: "h.har"))
        #expect(whole.diagnostics.map(\.description) == ["h.har: error: log: missing"])
    }

    @Test(
        "a snapshot read as a capture is said to be one, pretty-printed (read as HAR) or on one line (as NDJSON)",
        arguments: ["{\n  \"requests\": [{\"url\": \"https://t.example/e\"}]\n}\n", #"{"events": []}"#])
    func snapshotInPlace(text: String) {
        #expect(
            error(reading: text, file: "checkout.json")?.description
                == "checkout.json: this is a snapshot, not a capture: a capture is the traffic checked against it (tracksnap validate checkout.json --capture FILE)"
        )
    }

    @Test("a missing file")
    func missingFile() {
        let path = CaptureFixtures.path("no-such-capture.har")
        #expect(error(readingPath: path)?.description == "\(path): no such file")
    }

    @Test("a directory")
    func directory() {
        let path = CaptureFixtures.directory.path
        #expect(error(readingPath: path)?.description == "\(path): is a directory, not a capture file")
    }

    @Test(
        "no request is no error, in every format alike: an empty file, one of only blank lines, [] with whitespace, a HAR with no entries, and what ndjson([]) writes"
    )
    func noRequests() throws {
        #expect(try CaptureFile.read(path: CaptureFixtures.path("empty.ndjson")).isEmpty)
        for text in ["", "\n\n", "[\r]", "[ ]", #"{"log": {"entries": []}}"#, CaptureFile.ndjson([])] {
            #expect(try CaptureFile.read(data: Data(text.utf8), file: "e").isEmpty, "\(text.debugDescription)")
        }
    }

    @Test("malformed HAR JSON points at the line and column")
    func malformedHAR() throws {
        let path = CaptureFixtures.path("broken-json.har")
        let failure = try #require(error(readingPath: path))
        #expect(failure.line == 11)
        #expect(failure.column == 11)
        #expect(failure.description == "\(path):11:11: malformed JSON: missing ',' between object members")
    }

    @Test("a HAR entry without a url names the entry")
    func missingURL() throws {
        let path = CaptureFixtures.path("missing-url.har")
        let failure = try #require(error(readingPath: path))
        #expect(failure.place == "log.entries[1].request.url")
        #expect(failure.description == "\(path): log.entries[1].request.url: missing")
    }

    @Test("a bad NDJSON line is named by its number and column")
    func badNDJSONLine() throws {
        let path = CaptureFixtures.path("bad-line-3.ndjson")
        let failure = try #require(error(readingPath: path))
        #expect(failure.description == "\(path):3:62: malformed JSON: missing ',' between object members")
    }

    @Test(
        "malformed JSON, wherever it stops",
        arguments: [
            (
                "{\n  \"log\": {\n    \"entries\": [\n",
                "t.har:4:1: malformed JSON: unexpected end of input; expected a value: the '[' at line 3, column 16 is not closed"
            ),
            (
                "{\"log\": {\"entries\": [tru]}}",
                "t.har:1:22: malformed JSON: unexpected word 'tru': strings need double quotes (\"tru\"); the only bare words are true, false and null"
            ),
            (
                "{\"log\": {\"entries\": [\"a\\q\"]}}",
                "t.har:1:24: malformed JSON: invalid escape '\\q' in a string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"
            ),
            (
                "{\"log\": {\"entries\": [01]}} x",
                "t.har:1:22: malformed JSON: invalid number '01': leading zeros are not allowed"
            ),
            (
                "{\"log\": {\"entries\": []}} x",
                "t.har:1:26: malformed JSON: unexpected character 'x' after the end of the JSON value"
            ),
            ("{\"log\": {\"entries\": [\"é\" 1]}}", "t.har:1:26: malformed JSON: missing ',' between array elements"),
            ("{\"log\": {entries: []}}", "t.har:1:10: malformed JSON: object keys must be strings in double quotes"),
            ("{\"log\": {\"entries\" []}}", "t.har:1:20: malformed JSON: missing ':' after the key \"entries\""),
            (
                "{\"log\": {\"entries\": [\"a\nb\"]}}",
                "t.har:1:22: malformed JSON: unterminated string: missing the closing '\"' before the end of the line (write a line break as \\n)"
            ),
            (
                "{\"log\": {\"entries\": [-]}}",
                "t.har:1:22: malformed JSON: invalid number '-': expected a digit after '-'"
            ),
        ])
    func malformedJSON(text: String, expected: String) {
        #expect(error(reading: text, file: "t.har")?.description == expected)
    }

    @Test(
        "HAR members of the wrong type or null",
        arguments: [
            (#"{"log": {"entries": {}}}"#, "h.har: log.entries: expected an array"),
            (
                #"{"log": {"entries": [{"request": {"method": null, "url": "https://x.test/"}}]}}"#,
                "h.har: log.entries[0].request.method: is null, expected a string"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": 7}}]}}"#,
                "h.har: log.entries[0].request.url: expected a string"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://x.test/", "headers": [{"name": "A"}]}}]}}"#,
                "h.har: log.entries[0].request.headers[0].value: missing"
            ),
            (#"{"log": {"entries": [{"startedDateTime": "x"}]}}"#, "h.har: log.entries[0].request: missing"),
            ("{\n\"version\": \"1.2\"\n}", "h.har: log: missing"),
        ])
    func harShape(text: String, expected: String) {
        #expect(error(reading: text, file: "h.har")?.description == expected)
    }

    @Test("HAR bodies: unknown encoding, invalid base64, over the limit")
    func harBodies() {
        func har(_ postData: String) -> String {
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://x.test/"}}, {"request": {"method": "POST", "url": "https://x.test/", "postData": "#
                + postData + "}}]}}"
        }
        #expect(
            error(reading: har(#"{"text": "abc", "encoding": "gzip"}"#), file: "b.har")?.description
                == #"b.har: log.entries[1].request.postData.encoding: unsupported encoding "gzip"; expected "base64" or none"#
        )
        #expect(
            error(reading: har(#"{"text": "a*b", "encoding": "base64"}"#), file: "b.har")?.description
                == "b.har: log.entries[1].request.postData.text: not valid base64")
        #expect(
            error(reading: har(#"{"text": "123456789"}"#), file: "b.har", limit: 8)?.description
                == "b.har: log.entries[1].request.postData.text: 9 bytes is over the limit of 8 bytes")
        #expect(error(reading: har(#"{"params": [{"name": "a", "value": "123456"}]}"#), file: "b.har", limit: 8) == nil)
        #expect(
            error(reading: har(#"{"params": [{"name": "a", "value": "1234567"}]}"#), file: "b.har", limit: 8)?
                .description
                == "b.har: log.entries[1].request.postData.params: 9 bytes is over the limit of 8 bytes")
        #expect(
            error(reading: har(#"{"text": "MTIzNDU2Nzg5", "encoding": "base64"}"#), file: "b.har", limit: 8)?
                .description
                == "b.har: log.entries[1].request.postData.text: 9 bytes is over the limit of 8 bytes")
        #expect(error(reading: har(#"{"text": "MTIzNDU2Nzg=", "encoding": "base64"}"#), file: "b.har", limit: 8) == nil)
    }

    @Test(
        "NDJSON lines of the wrong shape",
        arguments: [
            (
                "{\"method\":\"GET\",\"url\":\"https://x.test/\"}\n{\"url\":\"https://x.test/\"}",
                "n.ndjson:2: method: missing"
            ),
            (
                #"{"method":"GET","url":"https://x.test/","headers":{"A":"1"}}"#,
                "n.ndjson:1: headers: expected an array"
            ),
            (
                #"{"method":"GET","url":"https://x.test/","headers":[{"name":"A","value":"1"},{"name":"B","value":2}]}"#,
                "n.ndjson:1: headers[1].value: expected a string"
            ),
            (#"{"method":"GET","url":null}"#, "n.ndjson:1: url: is null, expected a string"),
            (
                #"[{"id":"1","method":"GET","url":"https://x.test/"},{"id":"2","method":"GET","url":7}]"#,
                "n.ndjson: [1].url: expected a string"
            ),
            (#"{"method":"GET","url":"https://x.test/","id":true}"#, "n.ndjson:1: id: expected a string"),
            ("[1, 2]", "n.ndjson: [0]: a request must be a JSON object; expected an object"),
            (
                #"{"method":"GET","url":"https://x.test/","body":"x","bodyEncoding":"gzip"}"#,
                #"n.ndjson:1: bodyEncoding: unknown encoding "gzip"; expected "text" or "base64""#
            ),
            (
                #"{"method":"GET","url":"https://x.test/","body":"%%%","bodyEncoding":"base64"}"#,
                "n.ndjson:1: body: not valid base64"
            ),
            (
                "\n\n   {\"method\":\"GET\" \"url\":\"https://x.test/\"}",
                "n.ndjson:3:20: malformed JSON: missing ',' between object members"
            ),
        ])
    func ndjsonShape(text: String, expected: String) {
        #expect(error(reading: text, file: "n.ndjson")?.description == expected)
    }

    @Test("an NDJSON body over the limit names its line")
    func ndjsonBodyLimit() {
        let line = #"{"method":"POST","url":"https://x.test/","body":"123456789"}"#
        #expect(
            error(reading: "\n" + line, file: "n.ndjson", limit: 8)?.description
                == "n.ndjson:2: body: 9 bytes is over the limit of 8 bytes")
    }

    @Test("the default limit is 64 MiB, and limits in MiB are named so")
    func bodyLimitInMiB() {
        #expect(CaptureFile.defaultMaximumBodySize == 64 * 1024 * 1024)
        let size = 1024 * 1024 + 1
        let text = #"{"method":"POST","url":"https://x.test/","body":""# + String(repeating: "a", count: size) + #""}"#
        #expect(
            error(reading: text, file: "big.ndjson", limit: 1024 * 1024)?.description
                == "big.ndjson:1: body: \(size) bytes is over the limit of 1 MiB")
    }

    @Test("JSON nested deeper than 512 levels is an error naming where, not a crash")
    func deepNesting() throws {
        let depth = 100_000
        let text = #"{"log":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let failure = try #require(error(reading: text, file: "deep.har"))
        #expect(failure.description == "deep.har:1:519: malformed JSON: nesting deeper than 512 levels")
        let shallow =
            #"{"log":{"entries":["# + String(repeating: "[", count: 509) + String(repeating: "]", count: 509) + "]}}"
        #expect(error(reading: shallow, file: "ok.har")?.description == "ok.har: log.entries[0]: expected an object")
    }
}
