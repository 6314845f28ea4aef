import Foundation
import Testing

@testable import TracksnapTraffic

/// Paths of the capture fixtures, found next to this file.
enum CaptureFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/captures")

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static func read(_ name: String) throws -> [CapturedRequest] {
        try CaptureFile.read(path: path(name))
    }
}

@Suite("Capture files: format detection")
struct CaptureFileTests {
    @Test(
        "tells HAR from NDJSON by content, whatever the file is called",
        arguments: [
            ("chrome.har", CaptureFile.Format.har),
            ("firefox.har", .har),
            ("mitmproxy.har", .har),
            ("charles.har", .har),
            ("capture.ndjson", .ndjson),
            ("bad-line-3.ndjson", .ndjson),
        ])
    func detectsFixtureFormats(name: String, format: CaptureFile.Format) throws {
        let data = try Data(contentsOf: CaptureFixtures.directory.appendingPathComponent(name))
        #expect(CaptureFile.format(of: data) == format)
    }

    @Test(
        "detects a format from the first member and the first line",
        arguments: [
            (#"{"log":{"entries":[]}}"#, CaptureFile.Format?.some(.har)),
            ("\u{FEFF}  \n {\n  \"log\": {}}", .har),
            ("{\n  \"comment\": \"log is not first\",\n  \"log\": {}\n}", .har),
            (#"{"method":"GET","url":"https://x.test/"}"#, .ndjson),
            ("\n\n{\"url\":\"https://x.test/\",\"method\":\"GET\"}\n", .ndjson),
            ("[1, 2]", .array),
            (" \n\t ", nil),
            ("", nil),
        ])
    func detectsFromText(text: String, format: CaptureFile.Format?) {
        #expect(CaptureFile.format(of: Data(text.utf8)) == format)
    }

    @Test("a minified HAR on one line is read as HAR, not as one NDJSON line")
    func minifiedHAR() throws {
        let text =
            #"{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"https://x.test/a?b=1","headers":[]}}]}}"#
        let requests = try CaptureFile.read(data: Data(text.utf8), file: "min.har")
        #expect(requests.map(\.id) == ["0"])
        #expect(requests.first?.url == "https://x.test/a?b=1")
    }

    @Test("a HAR with a BOM and CRLF line ends, as Fiddler writes it")
    func bomAndCRLF() throws {
        let text =
            "\u{FEFF}{\r\n  \"log\": {\r\n    \"entries\": [\r\n      {\"request\": {\"method\": \"GET\", \"url\": \"https://x.test/\"}}\r\n    ]\r\n  }\r\n}\r\n"
        #expect(CaptureFile.format(of: Data(text.utf8)) == .har)
        let requests = try CaptureFile.read(data: Data(text.utf8), file: "fiddler.har")
        #expect(requests.map(\.url) == ["https://x.test/"])
        let broken = text.replacingOccurrences(of: "\"GET\",", with: "\"GET\"")
        #expect(
            throws: CaptureFileError(
                file: "fiddler.har", line: 4, column: 36, message: "malformed JSON: missing ',' between object members")
        ) {
            try CaptureFile.read(data: Data(broken.utf8), file: "fiddler.har")
        }
    }

    @Test("the same request reads the same from HAR and from NDJSON")
    func sameRequestBothFormats() throws {
        let har = """
            {"log": {"entries": [{"startedDateTime": "2026-11-21T08:00:00.123Z", "request": {
              "method": "POST", "url": "https://api.segment.io/v1/batch",
              "headers": [{"name": "Content-Type", "value": "application/json"}],
              "postData": {"mimeType": "application/json", "text": "{\\"batch\\":[]}"}}}]}}
            """
        let ndjson =
            #"{"id":"0","time":"2026-11-21T08:00:00.123Z","method":"POST","url":"https://api.segment.io/v1/batch","headers":[{"name":"Content-Type","value":"application/json"}],"body":"{\"batch\":[]}"}"#
        let fromHAR = try CaptureFile.read(data: Data(har.utf8), file: "a.har")
        let fromNDJSON = try CaptureFile.read(data: Data(ndjson.utf8), file: "a.ndjson")
        #expect(fromHAR == fromNDJSON)
        #expect(fromHAR.first?.body == .text(#"{"batch":[]}"#))
    }
}
