import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Profiles compose: a list of names, and extends")
struct ProfileCompositionTests {
    /// A profile read from text, as if it were `Validators/NAME.json` (the file is not written).
    private func profile(_ text: String, name: String = "p") throws -> Profile {
        try Profile.parse(document: JSONDocument.parse(Array(text.utf8), file: "Validators/\(name).json"))
    }

    private static func capture(_ vendor: String) throws -> [CapturedRequest] {
        try CaptureFile.read(
            path: PackagePaths.root.appending(path: "Snapshots/examples/captures/\(vendor).ndjson").path)
    }

    @Test("a list selects the traffic any of its profiles selects, and only that")
    func listFilterIsUnion() throws {
        let both = try Profile.load("segment,ga4")
        #expect(both.name == "segment,ga4")
        #expect(try Self.capture("segment").allSatisfy(both.filter.accepts))
        #expect(try Self.capture("ga4").allSatisfy(both.filter.accepts))
        #expect(try !Self.capture("amplitude").contains(where: both.filter.accepts))
    }

    @Test("a list's ignore, redact, decoders and record lists are unions")
    func listListsAreUnions() throws {
        let a = try profile(
            #"{"decoders": ["segment"], "ignore": ["sentAt"], "redact": ["email"], "record": {"headers": ["X-A"], "context": ["page.path"], "literal": ["/properties/sku"]}}"#,
            name: "a")
        let b = try profile(
            #"{"decoders": ["ga4", "segment"], "ignore": ["/context/_p"], "redact": ["uip"], "record": {"headers": ["X-B", "X-A"], "context": ["library.name"]}}"#,
            name: "b")
        let both = Profile.combining([a, b])
        #expect(both.decoders == ["segment", "ga4"])
        #expect(both.decoders.recordsEvents)
        #expect(both.ignore.ignores(["events", "sentAt"]) && both.ignore.ignores(["context", "_p"]))
        #expect(both.redact.ignores(["email"]) && both.redact.ignores(["uip"]))
        #expect(both.recordedHeaders == ["X-A", "X-B"])
        #expect(both.recordedContext == ["page.path", "library.name"])
        #expect(both.literal.ignores(["properties", "sku"]))
        let all = Profile.combining([a, try profile(#"{"decoders": "all"}"#)])
        #expect(all.decoders == .all && all.decoders.recordsEvents, "\"all\" takes in every decoder")
    }

    @Test(
        "in a list, order, unexpected, strict, validator and each severity come from the first profile that sets them")
    func listScalarsFromFirstExplicit() throws {
        let a = try profile(#"{"unexpected": "allow", "severity": {"missing_event": "warning"}}"#, name: "a")
        let b = try profile(
            #"{"order": "any", "unexpected": "fail", "strict": true, "severity": {"missing_event": "error", "unexpected_event": "warning"}}"#,
            name: "b")
        let ab = Profile.combining([a, b])
        #expect(ab.unexpected == .allow)
        #expect(ab.order == .any, "a does not set order: b's")
        #expect(ab.strict)
        #expect(ab.severities == [.missingEvent: .warning, .unexpectedEvent: .warning])
        let ba = Profile.combining([b, a])
        #expect(ba.unexpected == .fail)
        #expect(ba.severities[.missingEvent] == .error)
        let neither = Profile.combining([try profile("{}"), try profile("{}")])
        #expect(
            neither.order == .strict && neither.unexpected == .fail && !neither.strict
                && neither.validator == "snapshot")
    }

    @Test("extends: the profile's own settings win over its base's, the base fills in the rest")
    func extendsScalars() throws {
        try withTemporaryDirectory { directory in
            try write(
                #"{"order": "any", "unexpected": "allow", "strict": true, "description": "base"}"#,
                to: directory.appending(path: "base.json"))
            try write(#"{"extends": "base", "unexpected": "fail"}"#, to: directory.appending(path: "shop.json"))
            let shop = try Profile.load("shop", workspace: Workspace(validators: directory.path))
            #expect(shop.name == "shop")
            #expect(shop.unexpected == .fail)
            #expect(shop.order == .any)
            #expect(shop.strict)
            #expect(shop.extends == ["base"])
        }
    }

    @Test("extends: ignore, redact and decoders add to the base's")
    func extendsLists() throws {
        let shop = try profile(
            #"{"extends": "segment", "ignore": ["/properties/cart_id"], "redact": ["/properties/email"]}"#)
        #expect(shop.decoders == ["segment"])
        #expect(shop.ignore.ignores(["properties", "cart_id"]) && shop.ignore.ignores(["context", "messageId"]))
        #expect(shop.redact.ignores(["properties", "email"]) && shop.redact.ignores(["context", "context", "ip"]))
        let two = try profile(#"{"extends": ["segment", "ga4"]}"#)
        #expect(two.decoders == ["segment", "ga4"])
        #expect(try Self.capture("ga4").allSatisfy(two.filter.accepts))
    }

    @Test("extends: the profile's filter replaces the base's; without one, the base's applies")
    func extendsFilter() throws {
        let inherited = try profile(#"{"extends": "segment"}"#)
        #expect(try Self.capture("segment").allSatisfy(inherited.filter.accepts))
        #expect(!inherited.filter.accepts(get("https://collect.example/v1/batch")))
        let replaced = try profile(#"{"extends": "segment", "filter": {"host": "collect.example"}}"#)
        #expect(replaced.filter.accepts(get("https://collect.example/v1/batch")))
        #expect(try !Self.capture("segment").contains(where: replaced.filter.accepts))
    }

    @Test("extending a profile that does not exist is an error at its line and column, listing the profiles there are")
    func extendsUnknown() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "shop.json")
            try write("{\n  \"extends\": [\"segment\", \"segmnet\"]\n}\n", to: file)
            let error = try #require(throws: InputError.self) {
                try Profile.load("shop", workspace: Workspace(validators: directory.path))
            }
            #expect(
                error.description.hasPrefix(
                    "\(file.path):2:26: error: no validator profile \"segmnet\"; did you mean segment? available: adjust, amplitude, branch, default, firebase, ga4"
                ),
                "\(error)")
            #expect(error.description.contains("shop"))
            let lint = Profile.lint(document: try JSONDocument.load(path: file.path))
            #expect(lint.map(\.description) == [error.description])
        }
    }

    @Test("a cycle of extends is an error at the extends that closes it, naming the cycle")
    func extendsCycle() throws {
        try withTemporaryDirectory { directory in
            try write("{\n  \"extends\": \"b\"\n}\n", to: directory.appending(path: "a.json"))
            try write("{\n  \"extends\": \"a\"\n}\n", to: directory.appending(path: "b.json"))
            try write("{\"extends\": \"c\"}", to: directory.appending(path: "c.json"))
            let error = try #require(throws: InputError.self) {
                try Profile.load("a", workspace: Workspace(validators: directory.path))
            }
            #expect(error.description.contains("a.json:2:14: error: \"b\" cannot be extended: "), "\(error)")
            #expect(error.description.contains("b.json:2:14: error: \"extends\" makes a cycle: a → b → a"), "\(error)")
            let itself = try #require(throws: InputError.self) {
                try Profile.load("c", workspace: Workspace(validators: directory.path))
            }
            #expect(itself.description.contains("\"extends\" makes a cycle: c → c"), "\(itself)")
        }
    }

    @Test("a snapshot names several profiles as a list; validation uses them composed")
    func snapshotList() throws {
        let s = try snapshot(#"{"validator": ["segment", "ga4"], "events": []}"#)
        #expect(s.validator == "segment,ga4")
        #expect(try Profile.load(try #require(s.validator)).decoders == ["segment", "ga4"])
        let bad = try #require(throws: InputError.self) { try snapshot(#"{"validator": [], "events": []}"#) }
        #expect(bad.description.contains("\"validator\" is a profile name"))
    }
}
