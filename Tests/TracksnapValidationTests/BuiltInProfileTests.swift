import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Built-in profiles: shipped inside tracksnap, overridden by a file of the same name")
struct BuiltInProfileTests {
    static let folder = PackagePaths.root.appending(path: "Sources/TracksnapValidation/Profile/BuiltIn")
    static let names = [
        "adjust", "amplitude", "branch", "default", "firebase", "ga4", "meta-app", "meta-pixel", "mixpanel", "posthog",
        "rudderstack", "segment", "snowplow", "universal-analytics",
    ]
    static let vendors = names.filter { $0 != "default" }

    @Test("every JSON file of the built-in folder is built in, and nothing else")
    func embedded() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(files.map { String($0.dropLast(5)) }.sorted() == Profile.builtInNames)
        #expect(Profile.builtInNames == Self.names)
    }

    @Test("each built-in profile lints clean and reads as the one built in", arguments: names)
    func lintsClean(name: String) throws {
        let document = try JSONDocument.load(path: Self.folder.appending(path: "\(name).json").path)
        #expect(Validation.lint(document: document).map(\.description) == [])
        let builtIn = try #require(Profile.builtIn(name))
        #expect(builtIn.name == name)
        #expect(builtIn.file == "<built-in>/\(name).json")
        #expect(builtIn.decoders == (name == "default" ? .unspecified : [name]))
    }

    @Test("a name resolves to the built-in profile when no Validators directory exists", arguments: vendors)
    func foundWithoutDirectory(name: String) throws {
        try withTemporaryDirectory { directory in
            let profile = try Profile.load(
                name, workspace: Workspace(validators: directory.appending(path: "no-such-folder").path))
            #expect(profile.name == name)
            #expect(profile.file == "<built-in>/\(name).json")
            #expect(profile.decoders.recordsEvents)
        }
    }

    @Test("a file in the directory with a built-in profile's name wins over the built-in")
    func fileWins() throws {
        try withTemporaryDirectory { directory in
            try write(
                #"{"order": "any", "filter": {"host": "collect.example"}}"#,
                to: directory.appending(path: "segment.json"))
            let profile = try Profile.load("segment", workspace: Workspace(validators: directory.path))
            #expect(profile.file == directory.appending(path: "segment.json").path)
            #expect(profile.order == .any)
            #expect(profile.decoders == .unspecified)
            #expect(
                try Profile.load("ga4", workspace: Workspace(validators: directory.path)).file == "<built-in>/ga4.json")
        }
    }

    @Test("a file that extends its own built-in name builds on the built-in profile")
    func extendsItsBuiltIn() throws {
        try withTemporaryDirectory { directory in
            try write(
                #"{"extends": "segment", "ignore": ["/properties/cart_id"]}"#,
                to: directory.appending(path: "segment.json"))
            let profile = try Profile.load("segment", workspace: Workspace(validators: directory.path))
            #expect(profile.decoders == ["segment"])
            #expect(profile.ignore.ignores(["properties", "cart_id"]))
            #expect(profile.ignore.ignores(["context", "messageId"]))
        }
    }

    @Test(
        "common cache-busters are ignored by every profile, the default and a user's included; data-carrying names are not",
        arguments: names + ["a user's {}"])
    func cacheBusters(name: String) throws {
        let profile =
            try Profile.builtIn(name)
            ?? Profile.parse(document: JSONDocument.parse(Array("{}".utf8), file: "Validators/mine.json"))
        for parameter in [
            "_", "_cb", "cb", "cachebust", "cachebuster", "cacheBuster", "cache_buster", "nocache", "ord", "rand",
            "rnd", "z",
        ] {
            #expect(profile.ignore.ignores(["parameters", parameter]), "\(parameter)")
        }
        for parameter in ["t", "v", "ev", "id", "random"] where name == "default" {
            #expect(!profile.ignore.ignores(["parameters", parameter]), "\(parameter)")
        }
    }
}

@Suite("The vendor filter: what a decoder claims")
struct VendorFilterTests {
    static let vendors = BuiltInProfileTests.vendors

    static func capture(_ vendor: String) throws -> [CapturedRequest] {
        try CaptureFile.read(
            path: PackagePaths.root.appending(path: "Snapshots/examples/captures/\(vendor).ndjson").path)
    }

    @Test("a vendor's real SDK traffic is accepted by its vendor filter and by no other", arguments: vendors)
    func acceptsOwnOnly(vendor: String) throws {
        let requests = try Self.capture(vendor)
        #expect(!requests.isEmpty)
        for request in requests {
            #expect(VendorFilter([vendor]).accepts(request), "\(vendor) \(request.url)")
            for other in Self.vendors where other != vendor {
                #expect(!VendorFilter([other]).accepts(request), "\(other) accepts \(vendor)'s \(request.url)")
            }
        }
    }

    @Test(
        "on shared paths the body tells vendors apart: PostHog's /track is not Mixpanel's, Amplitude's /batch is not Segment's"
    )
    func sharedPaths() {
        let posthog = post(
            "http://127.0.0.1:9/track",
            json: #"{"api_key": "phc_x", "event": "Signed Up", "properties": {"distinct_id": "u1"}}"#)
        let mixpanel = post(
            "http://127.0.0.1:9/track",
            json: #"[{"event": "Signed Up", "properties": {"token": "t", "distinct_id": "u1"}}]"#)
        let amplitude = post(
            "http://127.0.0.1:9/batch",
            json: #"{"api_key": "k", "events": [{"event_type": "Signed Up", "user_id": "u1"}]}"#)
        let segment = post(
            "http://127.0.0.1:9/v1/batch",
            json: #"{"batch": [{"type": "track", "event": "Signed Up", "userId": "u1"}]}"#)
        #expect(Decoders.vendor(of: posthog) == "posthog")
        #expect(Decoders.vendor(of: mixpanel) == "mixpanel")
        #expect(Decoders.vendor(of: amplitude) == "amplitude")
        #expect(Decoders.vendor(of: segment) == "segment")
        let filter: any RequestFilter = .vendor("segment", "amplitude")
        #expect([posthog, mixpanel, amplitude, segment].map(filter.accepts) == [false, false, true, true])
        #expect(!filter.accepts(get("http://127.0.0.1:9/health")))
    }

    @Test(
        "a profile's \"vendor\" key takes an id or a list; an unknown id is an error at its line and column listing the ids"
    )
    func profileKey() throws {
        let text = """
            {
              "filter": {"vendor": ["segment", "segmnet"]}
            }
            """
        let error = try #require(throws: InputError.self) {
            try Profile.parse(document: JSONDocument.parse(Array(text.utf8), file: "Validators/test.json"))
        }
        #expect(
            error.description.hasPrefix(
                "Validators/test.json:2:36: error: no vendor \"segmnet\"; vendors: segment, rudderstack, ga4"),
            "\(error)")
        let single = try Profile.parse(
            document: JSONDocument.parse(Array(#"{"filter": {"vendor": "amplitude"}}"#.utf8), file: "Validators/a.json")
        )
        #expect(single.filter.accepts(try Self.capture("amplitude")[0]))
        #expect(!single.filter.accepts(try Self.capture("segment")[0]))
    }
}
