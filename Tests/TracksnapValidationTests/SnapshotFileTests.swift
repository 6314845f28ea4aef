import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Snapshot files: formats and locations")
struct SnapshotFileTests {
    @Test("a finding names the JSON Pointer and the line and column of the value in the file")
    func findingLocation() throws {
        let text = """
            {
              "name": "checkout",
              "requests": [
                {
                  "method": "GET",
                  "url": "https://t.example.com/track",
                  "parameters": {
                    "marcheta": "blue"
                  }
                }
              ]
            }
            """
        let result = validate(try snapshot(text), [get("https://t.example.com/track?marcheta=red")])
        let finding = try #require(result.findings.first)
        #expect(finding.path == "/requests/0/parameters/marcheta")
        #expect(finding.location == SourceLocation(line: 8, column: 21))
        #expect(result.name == "checkout")
    }

    @Test("Szimpla's format: every string is a pattern that also accepts itself, the URL carries the query")
    func szimpla() throws {
        let s = try snapshot(
            #"""
            [
              {"url": "https://api.example.com/tracks/[0-9]+?ev=screen_view&screen=Home", "parameters": {"ts": "[0-9]+"}, "body": null},
              {"url": "https://api.example.com/a.b?x=1(2"}
            ]
            """#)
        #expect(s.format == .szimpla)
        let captured = [
            get("https://api.example.com/tracks/42?ev=screen_view&screen=Home&ts=1700000000", id: 0),
            get("https://api.example.com/a.b?x=1(2", id: 1),
        ]
        #expect(validate(s, captured).findings.isEmpty)
        let wrong = validate(
            s, [get("https://api.example.com/tracks/42?ev=screen_view&screen=Cart&ts=1", id: 0), captured[1]])
        #expect(wrong.codes == [.patternMismatch])
        #expect(wrong.findings[0].path == "/0/parameters/screen")
        #expect(wrong.findings[0].location == SourceLocation(line: 2, column: 11))
    }

    @Test(
        "Szimpla's files as its author showed them: empty parameters and body expect nothing",
        arguments: [
            get("https://api.example.com/track?ev=open"),
            CapturedRequest(
                id: "1", method: "POST", url: "https://api.example.com/track?ev=open", body: .text("x=1&y=2")),
            CapturedRequest(
                id: "1", method: "POST", url: "https://api.example.com/track?ev=open", body: .text(#"{"a":1}"#)),
        ])
    func szimplaEmptyObjects(request: CapturedRequest) throws {
        let s = try snapshot(#"[{"url": "https://api.example.com/track?ev=open", "parameters": {}, "body": {}}]"#)
        #expect(validate(s, [request]).findings.isEmpty)
        var renamed = request
        renamed.url = "https://api.example.com/track?ev=close"
        #expect(validate(s, [renamed]).codes == [.patternMismatch])
    }

    @Test("a Szimpla string that is not a valid pattern is compared literally, with a warning naming its place")
    func szimplaInvalidPattern() throws {
        let s = try snapshot("[\n  {\"url\": \"https://t.example.com/e?x=1(2\", \"parameters\": {\"y\": \"a[b\"}}\n]")
        #expect(validate(s, [get("https://t.example.com/e?x=1(2&y=a[b")]).findings.isEmpty)
        #expect(validate(s, [get("https://t.example.com/e?x=1(3&y=a[b")]).codes == [.patternMismatch])
        let warnings = s.warnings.map { "\($0)" }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(
            warnings.contains {
                $0.contains(":2:11: warning: \"1(2\" is not a valid pattern (missing closing parenthesis at offset 3)")
            }, "\(warnings)")
        #expect(warnings.contains { $0.contains(":2:64: warning: \"a[b\" is not a valid pattern") }, "\(warnings)")
    }

    @Test("a Szimpla query pattern keeps its +, and a recorded + still means a space")
    func szimplaPlus() throws {
        let s = try snapshot(#"[{"url": "https://t.example.com/e?ts=[0-9]+&q=red+shoes"}]"#)
        #expect(validate(s, [get("https://t.example.com/e?ts=1700000000&q=red+shoes")]).findings.isEmpty)
        #expect(validate(s, [get("https://t.example.com/e?ts=17x&q=red+shoes")]).codes == [.patternMismatch])
    }

    /// A snapshot field written as no request's can be, and what the warning says to write.
    struct NeverMatching: Sendable, CustomTestStringConvertible {
        var url: String
        var method = "GET"
        /// The url and method the warning names (each as JSON), and the parameters, if any.
        var fixedURL: String
        var fixedMethod = #""GET""#
        var fixedParameters: String?
        var testDescription: String { "\(method) \(url)" }
    }

    @Test(
        "a literal url or method no request's can equal is warned about at its line, naming what to write, which passes",
        arguments: [
            NeverMatching(
                url: "https://t.example.com/e?ev=view&tag=a+b&tag=c#top", fixedURL: #""https://t.example.com/e""#,
                fixedParameters: #"{"ev":"view","tag":["a b","c"]}"#),
            NeverMatching(url: "HTTPS://T.Example.com/e", fixedURL: #""https://t.example.com/e""#),
            NeverMatching(url: "https://t.example.com", fixedURL: #""https://t.example.com/""#),
            NeverMatching(url: "https://user:pw@t.example.com/e#top", fixedURL: #""https://t.example.com/e""#),
            NeverMatching(
                url: "https://t.example.com/e", method: "get", fixedURL: #""https://t.example.com/e""#,
                fixedMethod: #""GET""#),
        ])
    func neverMatching(_ mistake: NeverMatching) throws {
        // The request the mistake was written from, as the app sent it.
        let request = get(mistake.url)
        let s = try snapshot(#"{"requests": [{"method": "\#(mistake.method)", "url": "\#(mistake.url)"}]}"#)
        #expect(!validate(s, [request]).findings.isEmpty)
        let warnings = s.warnings.map { "\($0)" }
        #expect(warnings.count == 1, "\(warnings)")
        let warning = try #require(warnings.first)
        #expect(warning.contains("Snapshots/test.json:1:"), "at its place: \(warning)")
        let named = mistake.method == "GET" ? mistake.fixedURL : mistake.fixedMethod
        #expect(warning.contains("can never match") && warning.contains("write \(named)"), "\(warning)")
        #expect(
            warning.components(separatedBy: #"under "parameters": "#).dropFirst().first == mistake.fixedParameters,
            "\(warning)")
        // Written as the warning says, the entry passes against the same request.
        let parameters = mistake.fixedParameters.map { #", "parameters": \#($0)"# } ?? ""
        let fixed = try snapshot(
            #"{"requests": [{"method": \#(mistake.fixedMethod), "url": \#(mistake.fixedURL)\#(parameters)}]}"#)
        #expect(fixed.warnings.isEmpty, "\(fixed.warnings)")
        #expect(validate(fixed, [request]).findings.isEmpty)
    }

    @Test(
        "a capture read as a snapshot is one error saying so, not an error per key",
        arguments: [
            (#"{"log": {"version": "1.2", "entries": []}}"#, "(HAR)"),
            (
                #"{"id": "1", "method": "GET", "url": "https://t.example/e", "headers": []}"#,
                "(a tracksnap NDJSON record)"
            ),
            (#"[{"id": "1", "method": "GET", "url": "https://t.example/e"}]"#, "(an array of captured requests)"),
        ])
    func captureInPlace(text: String, kind: String) throws {
        let error = try #require(throws: InputError.self) { try snapshot(text, file: "run.har") }
        #expect(error.diagnostics.count == 1, "\(error)")
        #expect(
            "\(error)".contains(
                "run.har:1:1: error: this is a capture \(kind), not a snapshot: captured traffic is checked against a snapshot (tracksnap validate SNAPSHOT --capture run.har)"
            ), "\(error)")
        // A Szimpla array, whose entries have a method and a url but no id, is still a snapshot.
        #expect(try snapshot(#"[{"method": "GET", "url": "https://t.example/e"}]"#).requests.count == 1)
    }

    @Test("a pattern's ? is a quantifier, and a url as requests are compared is no mistake: no warning")
    func matchableURLs() throws {
        let pattern = try snapshot(#"{"requests": [{"url": {"$regex": "https?://t[.]example[.]com/e"}}]}"#)
        #expect(pattern.warnings.isEmpty)
        #expect(validate(pattern, [get("https://t.example.com/e?ev=1")]).findings.isEmpty)
        let plain = try snapshot(#"{"requests": [{"method": "POST", "url": "https://t.example.com:8443/v1/%7Ee"}]}"#)
        #expect(plain.warnings.isEmpty)
    }
}
