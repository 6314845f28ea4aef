import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Profiles: filters, policies and extension points")
struct ProfileTests {
    private func profile(_ text: String) throws -> Profile {
        try Profile.parse(document: JSONDocument.parse(Array(text.utf8), file: "Validators/test.json"))
    }

    @Test("a filter selects traffic by host, path, method, URL and header, composed with all, any and not")
    func filters() throws {
        let p = try profile(
            #"""
            {"filter": {"any": [{"host": "api.segment.io"}, {"path": {"$regex": "/g/collect"}, "method": "POST"}],
                        "not": {"header": {"X-Debug": "1"}}}}
            """#)
        #expect(p.filter.accepts(get("https://api.segment.io/v1/t")))
        #expect(
            p.filter.accepts(
                CapturedRequest(id: "1", method: "POST", url: "https://www.google-analytics.com/g/collect?v=2")))
        #expect(!p.filter.accepts(get("https://www.google-analytics.com/g/collect?v=2")))
        #expect(!p.filter.accepts(get("https://api.segment.io/v1/t", headers: ["x-debug": "1"])))
        #expect(!p.filter.accepts(get("https://example.com/")))
    }

    @Test("filtered-out traffic is never unexpected")
    func filteredTraffic() throws {
        let s = try screens(["home"])
        var p = Profile.builtInDefault
        p.filter = .host("t.example.com")
        let result = validate(
            s, [get("https://cdn.example.com/logo.png", id: 0), get("https://t.example.com/track?ev=home", id: 1)],
            profile: p)
        #expect(result.passed)
        #expect(result.selected == 1)
        #expect(result.captured == 2)
    }

    @Test("a profile's severity turns a code into a warning that does not fail")
    func severity() throws {
        let p = try profile(#"{"severity": {"unexpected_event": "warning"}}"#)
        let result = validate(try screens(["home"]), screenRequests(["home", "extra"]), profile: p)
        #expect(result.codes == [.unexpectedEvent])
        #expect(result.passed)
    }

    @Test(
        "a bad profile names the key and what it takes",
        arguments: [
            (#"{"fliter": {}}"#, "unknown key \"fliter\""),
            (#"{"filter": {"hots": "a"}}"#, "unknown filter key \"hots\""),
            (#"{"order": 1}"#, "\"order\" must be"),
            (#"{"severity": {"oops": "error"}}"#, "expected a finding code"),
            (#"{"filter": {"custom": "nobody"}}"#, "no filter is registered"),
            // A snapshot's key in a profile: it names a profile there, a Swift Validator nowhere.
            (
                #"{"validator": "segment"}"#,
                ":1:2: error: a profile has no \"validator\": that is a snapshot's key, naming its profile; a profile builds on another with \"extends\""
            ),
            (#"{"swiftValidator": "nobody"}"#, "no validator is registered as \"nobody\""),
        ])
    func badProfile(text: String, message: String) throws {
        let error = try #require(throws: InputError.self) { try profile(text) }
        #expect(error.description.contains(message), "\(error)")
    }

    @Test("a profile name that does not exist lists the ones that do")
    func unknownProfile() throws {
        try withTemporaryDirectory { directory in
            try write("{}", to: directory.appending(path: "segment.json"))
            let error = try #require(throws: InputError.self) {
                try Profile.load("segmnet", workspace: Workspace(validators: directory.path))
            }
            #expect(
                error.description.contains(
                    "available: adjust, amplitude, branch, default, firebase, ga4, meta-app, meta-pixel, mixpanel, posthog, rudderstack, segment, "
                        + "snowplow, universal-analytics"
                ), "\(error)")
            #expect(try Profile.load("default", workspace: Workspace(validators: directory.path)).name == "default")
        }
    }

    @Test("every descriptor set a profile names that cannot be used is an error of its own, not only the first")
    func everyBadDescriptorSet() throws {
        try withTemporaryDirectory { directory in
            let root = directory.appending(path: "app")
            try write(
                #"{"protobuf": {"descriptors": ["../../outside.pb", "missing.pb"], "messages": [{"url": "https://api.shop.example/v1/checkout", "type": "shop.v1.Checkout"}]}}"#,
                to: root.appending(path: "Validators/shop.json"))
            let error = try #require(throws: InputError.self) {
                try Profile.load("Validators/shop.json", workspace: Workspace(root: root.path))
            }
            let messages = error.diagnostics.map(\.message)
            #expect(messages.count == 2, "\(error)")
            #expect(messages.contains { $0.contains("outside.pb") }, "\(error)")
            #expect(messages.contains { $0.contains("missing.pb cannot be read: no such file") }, "\(error)")
        }
    }

    @Test(
        "a filter's literal host, path, method or url no request's can equal is warned about, with what to write",
        arguments: [
            ("host", "Collect.Example.com", "collect.example.com"),
            ("host", "collect.example.com:8443", "collect.example.com"),
            ("host", "https://collect.example.com/v1/e", "collect.example.com"),
            ("path", "/v1/e?ev=1", "/v1/e"),
            ("path", "v1/e", "/v1/e"),
            ("method", "post", "POST"),
            ("url", "https://collect.example.com:8443/v1/e?ev=1", "https://collect.example.com:8443/v1/e"),
        ])
    func neverMatchingFilter(key: String, written: String, fix: String) throws {
        // The request the mistake was copied from.
        let request = CapturedRequest(id: "1", method: "POST", url: "https://collect.example.com:8443/v1/e?ev=1")
        func filter(_ value: String) throws -> (profile: Profile, warnings: [String]) {
            let text = #"{"filter": {"\#(key)": \#(JSONValue.string(value).serialized())}}"#
            let document = try JSONDocument.parse(Array(text.utf8), file: "Validators/test.json")
            return (try Profile.parse(document: document), Profile.lint(document: document).map { "\($0)" })
        }
        let mistake = try filter(written)
        #expect(!mistake.profile.filter.accepts(request))
        #expect(mistake.warnings.count == 1, "\(mistake.warnings)")
        let warning = try #require(mistake.warnings.first)
        #expect(warning.hasPrefix("Validators/test.json:1:"), "at its place: \(warning)")
        #expect(warning.contains("\"\(key)\" can never match") && warning.hasSuffix("write \"\(fix)\""), "\(warning)")
        // Written as the warning says, the filter selects the request it was copied from.
        let fixed = try filter(fix)
        #expect(fixed.warnings.isEmpty, "\(fixed.warnings)")
        #expect(fixed.profile.filter.accepts(request))
    }

    @Test("an ignore rule written as a dotted path is warned about, with the pointer meant; a key with dots is not")
    func dottedIgnoreRule() throws {
        let text = #"{"ignore": ["properties.cart_id", "ep.currency", "sentAt", "/properties/sku"]}"#
        let document = try JSONDocument.parse(Array(text.utf8), file: "Validators/test.json")
        let warnings = Profile.lint(document: document).map { "\($0)" }
        #expect(
            warnings == [
                #"Validators/test.json:1:13: warning: "properties.cart_id" names one key with dots in it, at any depth; a path is a JSON Pointer relative to an entry: "/properties/cart_id""#
            ], "\(warnings)")
        // What it does, as written: the key named with a dot, not the path.
        let profile = try Profile.parse(document: document)
        #expect(!profile.ignore.ignores(["properties", "cart_id"]) && profile.ignore.ignores(["properties", "sku"]))
    }

    @Test("a protobuf message route's literal url is read as a filter's: one with a query is warned about")
    func neverMatchingRoute() throws {
        let text = #"""
            {"protobuf": {"descriptors": "shop.pb", "messages": [
              {"url": "https://api.shop.example/v1/checkout?v=2", "type": "shop.v1.Checkout"},
              {"url": "https://api.shop.example/v1/screens", "type": "shop.v1.ScreenView"}]}}
            """#
        let document = try JSONDocument.parse(Array(text.utf8), file: "Validators/test.json")
        let warnings = Profile.lint(document: document).filter { $0.severity == .warning }.map { "\($0)" }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(
            warnings.first?.hasSuffix(
                #""url" can never match: a request's url is compared without its query and fragment, its scheme and host in lower case, an empty path as /; write "https://api.shop.example/v1/checkout""#
            ) == true,
            "\(warnings)")
    }

    @Test("a filter's patterns and literals a request can equal raise no warning")
    func matchableFilter() throws {
        let text = #"""
            {"filter": {"host": "collect.example.com", "path": {"$regex": "/v1/e?"}, "method": "POST",
                        "any": [{"url": "https://collect.example.com:8443/v1/e"}, {"host": "[::1]"}]}}
            """#
        let document = try JSONDocument.parse(Array(text.utf8), file: "Validators/test.json")
        #expect(Profile.lint(document: document).isEmpty)
        let request = CapturedRequest(id: "1", method: "POST", url: "https://collect.example.com:8443/v1/e?ev=1")
        #expect(try Profile.parse(document: document).filter.accepts(request))
    }

    @Test("a user's own filter and validator are used by the profile that names them")
    func registry() throws {
        struct OnlyPosts: RequestFilter {
            func accepts(_ request: CapturedRequest) -> Bool { request.method == "POST" }
        }
        struct CountOnly: Validator {
            func validate(_ snapshot: Snapshot, selection: Selection, profile: Profile) -> SnapshotResult {
                let selected = selection.selected
                let findings =
                    selected.count == snapshot.requests.count
                    ? [] : [Finding(code: .countMismatch, path: "/requests", message: "count")]
                return SnapshotResult(
                    file: snapshot.file, name: snapshot.name, profile: profile.name, entries: [], findings: findings,
                    selected: selected.count, captured: selection.requests.count)
            }
        }
        FilterRegistry.register("only-posts", OnlyPosts())
        ValidatorRegistry.register("count-only", CountOnly())
        let p = try profile(#"{"filter": {"custom": "only-posts"}, "swiftValidator": "count-only"}"#)
        let validator = try #require(ValidatorRegistry.validator(named: p.validator))
        let s = try screens(["a"])
        #expect(
            validator.validate(
                s, requests: [get("https://t.example.com/track?ev=zzz"), post("https://t.example.com/x", json: "{}")],
                profile: p
            ).passed)
        #expect(!validator.validate(s, requests: [get("https://t.example.com/track?ev=a")], profile: p).passed)
    }

    @Test("a captured secret never appears in a finding")
    func secretsRedacted() throws {
        let s = try snapshot(
            #"{"requests": [{"url": "https://t.example.com/v1/batch", "headers": {"Authorization": "Basic expected"}, "body": {"writeKey": "wk-expected", "event": "x"}}]}"#
        )
        var request = post("https://t.example.com/v1/batch", json: #"{"writeKey": "wk-SECRET", "event": "x"}"#)
        request.headers.append(.init(name: "Authorization", value: "Basic SECRET"))
        let result = validate(s, [request])
        #expect(result.findings.count == 2)
        for finding in result.findings {
            #expect(finding.actual == Secrets.placeholder)
        }
    }
}

@Suite("A profile filter that cannot decide")
struct UndecidedFilterTests {
    @Test(
        "a filter pattern at PCRE2's match limit fails the run, naming the request and the pattern, instead of dropping the request"
    )
    func matchLimit() throws {
        let profile = try recordingProfile(#"{"filter": {"path": {"$regex": "/(.*a){12}"}}, "unexpected": "fail"}"#)
        let s = try snapshot(#"{"requests": []}"#)
        let catastrophic = get("https://t.example.com/" + String(repeating: "a", count: 40) + "b", id: 1)
        let result = validate(
            s, [get("https://t.example.com/" + String(repeating: "a", count: 14), id: 0), catastrophic],
            profile: profile)
        #expect(!result.passed)
        #expect(result.codes == [.patternMismatch, .unexpectedEvent], "\(result.findings.map(\.message))")
        let finding = try #require(result.findings.first)
        #expect(finding.message.contains("request #2 GET https://t.example.com/aaaa"))
        #expect(finding.message.contains(#"pattern "/(.*a){12}""#))
        #expect(finding.request?.index == 1)
    }

    @Test(
        "a catastrophic filter pattern is not tried again past three requests at its limit: 3,000 requests are told apart in a bounded time, the rest in one finding, none dropped"
    )
    func boundedOverManyRequests() throws {
        let profile = try recordingProfile(#"{"filter": {"path": {"$regex": "/(a|aa)+"}}}"#)
        let requests = (0..<3000).map {
            get("https://t.example.com/" + String(repeating: "a", count: 30) + "!\($0)", id: $0)
        }
        // Three tries cost milliseconds; every request tried cost 11 s in a release build (33 s in
        // debug). The one finding for the rest is the validation's word that it stopped trying.
        let result = validate(try snapshot(#"{"requests": []}"#), requests, profile: profile)
        #expect(!result.passed)
        #expect(result.codes == Array(repeating: .patternMismatch, count: 4), "\(result.findings.count) findings")
        let rest = try #require(result.findings.last)
        #expect(rest.message.contains("2997 more requests (#4 to #3000)"), "\(rest.message)")
        #expect(rest.message.contains(#"pattern "/(a|aa)+""#), "\(rest.message)")
    }

    @Test(
        "a filter's $jsonSchema whose pattern hits PCRE2's match limit fails the run too, where it dropped the request silently"
    )
    func schemaMatchLimit() throws {
        let profile = try recordingProfile(
            #"{"filter": {"not": {"path": {"$jsonSchema": {"pattern": "(a+)+$"}}}}, "unexpected": "fail"}"#)
        let catastrophic = get("https://t.example.com/" + String(repeating: "a", count: 40) + "b", id: 0)
        let result = validate(try snapshot(#"{"requests": []}"#), [catastrophic], profile: profile)
        #expect(!result.passed)
        #expect(result.codes.first == .patternMismatch, "\(result.findings.map(\.message))")
        // The pattern as PCRE2 runs it: ECMA's end-only $ is \z.
        #expect(result.findings.first?.message.contains(#"pattern "(a+)+\z": match limit"#) == true)
    }
}
