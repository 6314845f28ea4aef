import Testing
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Matchers in a snapshot")
struct MatcherTests {
    private func check(_ expected: String, body: String) throws -> SnapshotResult {
        let s = try snapshot(#"{"requests": [{"url": "https://x.example/e", "body": \#(expected)}]}"#)
        return validate(s, [post("https://x.example/e", json: body)])
    }

    @Test(
        "a literal matches an equal value, numbers by value",
        arguments: [
            (#"{"a": "x"}"#, #"{"a": "x", "extra": 1}"#),
            (#"{"revenue": 12.5}"#, #"{"revenue": 12.50}"#),
            (#"{"n": 1e2}"#, #"{"n": 100}"#),
            (#"{"ok": true, "none": null}"#, #"{"ok": true, "none": null}"#),
            (#"{"items": [1, {"id": "a"}]}"#, #"{"items": [1, {"id": "a", "q": 2}]}"#),
        ])
    func literalMatches(expected: String, body: String) throws {
        #expect(try check(expected, body: body).findings.isEmpty)
    }

    @Test(
        "numbers compare by exact decimal value, beyond a double's precision and range",
        arguments: [
            ("9007199254740993", "9007199254740992", false),
            ("123456789012345678901234", "123456789012345678901235", false),
            ("1e400", "2e400", false),
            ("1e-400", "0", false),
            ("0.1", "0.10000000000000001", false),
            ("1e400", "10e399", true),
            ("-0", "0", true),
            ("1.25e1", "12.50", true),
            ("123456789012345678901234", "1.23456789012345678901234e23", true),
        ])
    func exactNumbers(expected: String, actual: String, equal: Bool) throws {
        let result = try check(#"{"n": \#(expected)}"#, body: #"{"n": \#(actual)}"#)
        #expect(result.codes == (equal ? [] : [.valueMismatch]))
    }

    @Test(
        "each matcher accepts what it describes and rejects the rest, with its finding code",
        arguments: [
            (#"{"id": {"$regex": "o-[0-9]+"}}"#, #"{"id": "o-123"}"#, nil),
            (#"{"id": {"$regex": "o-[0-9]+"}}"#, #"{"id": "o-123x"}"#, FindingCode.patternMismatch),
            (#"{"id": {"$regex": "1[0-9]"}}"#, #"{"id": 12}"#, nil),
            (#"{"id": {"$regex": "tr.e"}}"#, #"{"id": true}"#, nil),
            (#"{"id": {"$regex": ".*"}}"#, #"{"id": {"a": 1}}"#, .typeMismatch),
            (#"{"n": {"$type": "integer"}}"#, #"{"n": 3}"#, nil),
            (#"{"n": {"$type": "integer"}}"#, #"{"n": 3.5}"#, .typeMismatch),
            (#"{"n": {"$type": "number"}}"#, #"{"n": "3"}"#, .typeMismatch),
            (#"{"n": {"$type": "null"}}"#, #"{"n": null}"#, nil),
            (#"{"n": {"$any": true}}"#, #"{"n": [1]}"#, nil),
            (#"{"n": {"$any": true}}"#, #"{}"#, .missingKey),
            (#"{"debug": {"$absent": true}}"#, #"{}"#, nil),
            (#"{"debug": {"$absent": true}}"#, #"{"debug": false}"#, .unexpectedKey),
            (#"{"m": {"$literal": {"$set": 1}}}"#, #"{"m": {"$set": 1}}"#, nil),
            (#"{"m": {"$literal": {"$set": 1}}}"#, #"{"m": {"$set": 1, "x": 2}}"#, .valueMismatch),
            (#"{"a": "x"}"#, #"{"a": "y"}"#, .valueMismatch),
            (#"{"a": "1"}"#, #"{"a": 1}"#, .typeMismatch),
            (#"{"a": "x"}"#, #"{"b": "x"}"#, .missingKey),
            (#"{"items": [1, 2]}"#, #"{"items": [1, 2, 3]}"#, .countMismatch),
        ] as [(String, String, FindingCode?)])
    func matcherOutcome(expected: String, body: String, code: FindingCode?) throws {
        let result = try check(expected, body: body)
        #expect(result.codes == (code.map { [$0] } ?? []))
    }

    @Test("parameters are strings on the wire: a number in the snapshot matches its text")
    func lenientParameters() throws {
        let s = try snapshot(#"{"requests": [{"url": "https://x.example/e", "parameters": {"v": 2, "ok": true}}]}"#)
        #expect(validate(s, [get("https://x.example/e?v=2&ok=true")]).findings.isEmpty)
        #expect(validate(s, [get("https://x.example/e?v=3&ok=true")]).codes == [.valueMismatch])
    }

    @Test("headers match as a subset, by name in any case")
    func headersSubset() throws {
        let s = try snapshot(
            #"{"requests": [{"url": "https://x.example/e", "headers": {"X-Client": {"$regex": "ios/.*"}}}]}"#)
        let request = get("https://x.example/e", headers: ["x-client": "ios/17.2", "Accept": "*/*"])
        #expect(validate(s, [request]).findings.isEmpty)
    }

    @Test("a strict profile forbids keys the snapshot does not list, inside entries only")
    func strictObjects() throws {
        let s = try snapshot(#"{"requests": [{"url": "https://x.example/e", "parameters": {"a": "1"}}]}"#)
        var profile = Profile.builtInDefault
        profile.strict = true
        let result = validate(s, [get("https://x.example/e?a=1&b=2")], profile: profile)
        #expect(result.codes == [.unexpectedKey])
        #expect(result.findings.first?.path == "/requests/0/parameters/b")
    }

    @Test("ignored fields are neither compared nor counted as extra")
    func ignoreRules() throws {
        let s = try snapshot(
            #"{"requests": [{"url": "https://x.example/e", "parameters": {"a": "1", "cb": "123"}, "body": {"meta": {"sentAt": "t1"}}}]}"#
        )
        var profile = Profile.builtInDefault
        profile.strict = true
        profile.ignore = IgnoreRules(["/parameters/cb", "sentAt"])
        let request = CapturedRequest(
            id: "0", method: "POST", url: "https://x.example/e?a=1&cb=999", body: .text(#"{"meta": {"sentAt": "t2"}}"#))
        #expect(validate(s, [request], profile: profile).findings.isEmpty)
    }
}
