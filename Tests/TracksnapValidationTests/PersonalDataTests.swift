import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

/// Personal data found by the search that finds secrets, at any depth of any encoding, each hit
/// masked; and nothing found in what only looks like it.
@Suite("Personal data: found wherever it hides, masked, never a false positive")
struct PersonalDataTests {
    /// One property holding this value, searched as an event's view.
    func hits(_ value: JSONValue, key: String = "note") -> [PersonalData.Hit] {
        PersonalData.hits(in: ["properties": .object([key: value])]) { $0.first == "properties" }
    }

    @Test("the hits of one object come in the same order however its dictionary was built")
    func orderOfOneObject() {
        let members: [(String, JSONValue)] = (0..<12).map { ("email\($0)", .string("user\($0)@example.com")) }
        var small: [String: JSONValue] = [:]
        var large = [String: JSONValue](minimumCapacity: 1_024)
        for (key, value) in members { small[key] = value }
        for (key, value) in members.reversed() { large[key] = value }
        let orders = [small, large].map { object in
            PersonalData.hits(in: ["properties": .object(object)]).map(\.value)
        }
        #expect(orders[0] == orders[1])
        #expect(orders[0] == members.map(\.0).sorted().map { "user\($0.dropFirst(5))@example.com" })
    }

    @Test(
        "each kind is found by its shape or its field, once, and masked",
        arguments: [
            ("note", "write to ada.lovelace@example.com", PersonalData.Kind.email, "a***@example.com"),
            ("note", "+44 20 7946 0958", .phone, "+** ** **** **58"),
            ("note", "call +1 (415) 555-2671 today", .phone, "+* (***) ***-**71"),
            ("note", "(415) 555-2671", .phone, "(***) ***-**71"),
            ("note", "415-555-2671", .phone, "***-***-**71"),
            ("note", "020 7946 0958", .phone, "*** **** **58"),
            ("note", "06 12 34 56 78", .phone, "** ** ** ** 78"),
            ("phone_number", "4155552671", .phone, "********71"),
            ("note", "4111 1111 1111 1111", .paymentCard, "**** **** **** 1111"),
            ("note", "5500-0000-0000-0004", .paymentCard, "**** **** **** 0004"),
            ("note", "IBAN DE89 3704 0044 0532 0130 00", .iban, "DE** **** **** **** **30 00"),
            ("note", "GB82WEST12345698765432", .iban, "GB****************5432"),
            ("idfa", "6D92078A-8246-4BA4-AE5B-76104861E7DC", .advertisingID, "********-****-****-****-********E7DC"),
            (
                "advertisingId", "38400000-8cf0-11bd-b23e-10b96e40000d", .advertisingID,
                "********-****-****-****-********000d"
            ),
            ("client_ip", "203.0.113.195", .ipAddress, "203.*.*.*"),
            ("ip", "2001:db8:85a3::8a2e:370:7334", .ipAddress, "2001:****"),
            ("where", "52.520008,13.404954", .coordinates, "52.5***"),
            ("latitude", "52.520008", .coordinates, "52.5***"),
            ("link", "tel:+14155552671", .phone, "+*********71"),
            ("note", "+44 20 7946-0958", .phone, "+** ** ****-**58"),
            ("contact_phone", "7946 0958 12", .phone, "**** **** 12"),
            ("note", "0044 20 7946 0958", .phone, "**** ** **** **58"),
            ("geo", "52.520008;13.404954", .coordinates, "52.5***"),
            ("note", "write to ada.lovelace&#64;example.com", .email, "a***@example.com"),
            ("note", "ada&#x40;example&period;com", .email, "a***@example.com"),
            ("gaid", "38400000c8cf011bdb23e10b96e4ef00", .advertisingID, "****************************ef00"),
            ("note", "dial 001-415-555-2671", .phone, "***-***-***-**71"),
            ("link", "SMS:020 7946 0958", .phone, "*** **** **58"),
            ("ssn", "123-45-6789", .nationalID, "***-**-6789"),
            ("national_insurance_number", "QQ 12 34 56 C", .nationalID, "** ** *4 56 C"),
        ] as [(String, String, PersonalData.Kind, String)])
    func found(_ key: String, _ text: String, _ kind: PersonalData.Kind, _ masked: String) {
        let found = hits(.string(text), key: key)
        #expect(found.map(\.kind) == [kind], "\(found)")
        #expect(found.first?.masked == masked)
        #expect(found.first?.pointer == "/properties/\(key)")
    }

    @Test("a national id sent as a JSON number is found by its field")
    func nationalIDNumber() {
        #expect(hits(.number("123456789"), key: "SSN").map(\.masked) == ["*****6789"])
    }

    @Test("a latitude sent as a JSON number is found by its field; an imprecise one is not")
    func coordinateNumbers() {
        #expect(hits(.number("48.858370"), key: "lat").map(\.kind) == [.coordinates])
        #expect(hits(.number("48.85"), key: "lat").isEmpty)
        #expect(hits(.number("48.850"), key: "lat").isEmpty)
    }

    @Test(
        "what only looks like personal data is no hit",
        arguments: [
            ("note", "4111 1111 1111 1112"),  // card-shaped, fails Luhn
            ("card", "4111111111111112"),
            // SHA-256 of an email, the hashed form Meta asks for.
            ("em", "c5a5ff3f1f0d2e2bb8e4e2c9e1a0dc77c4b9c7ab1f5e6a9b3fcd0b3e6bd08a2e"),
            ("app_version", "10.15.7"),
            ("version", "2.4.0.1"),
            ("sku", "SKU-0123-4567-89"),
            ("sku", "sku-1"),
            ("amount", "1234.56"),
            ("amount", "1,234,567.89"),
            ("order_id", "0f8fad5b-d9cb-469f-a165-70867728950e"),  // a UUID outside an advertising-id field
            ("idfa", "00000000-0000-0000-0000-000000000000"),  // limited ad tracking
            ("sent_at", "2026-11-27T23:11:30.123Z"),
            ("date", "01-02-2024"),
            ("timestamp", "1764285090123"),
            ("asset", "icon@2x.png"),
            ("handle", "@ada"),
            ("masked", "a***@example.com"),
            ("iban", "DE89 3704 0044 0532 0130 01"),  // fails mod-97
            ("ip", "127.0.0.1"),
            ("user_agent", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/120.0.0.0"),
            ("library", "analytics-python/2.4.0"),
            ("price", "12.500"),
            ("hotel", "motel:+14155552671"),  // a scheme that only ends in `tel`
            ("ssn", "12345"),
            ("order_id", "00123456789012"),  // 00 and digits not in groups: an id as often as a phone
            ("ssn_verified", "123456789"),
        ])
    func notFound(_ key: String, _ text: String) {
        #expect(hits(.string(text), key: key).isEmpty, "\(hits(.string(text), key: key))")
    }

    @Test("an IP address is looked for in an event's properties only")
    func addressesInPropertiesOnly() {
        let event: JSONValue = ["properties": ["origin": "198.51.100.7"], "context": ["ip": "198.51.100.7"]]
        let found = PersonalData.hits(in: event) { $0.first == "properties" }
        #expect(found.map(\.pointer) == ["/properties/origin"])
        #expect(PersonalData.hits(in: ["context": ["ip": "198.51.100.7"]]).isEmpty)
    }

    @Test(
        "inside each encoding, at its pointer into what the encoding holds",
        arguments: [
            (
                JSONValue.string(Data(#"{"user":{"email":"bob@example.org"}}"#.utf8).base64EncodedString()),
                "/user/email"
            ),
            (.string("https://shop.example/next?email=bob%40example.org&x=1"), "/email"),
            (
                .string(
                    "data=" + #"{"email":"bob@example.org"}"#.addingPercentEncoding(
                        withAllowedCharacters: .alphanumerics)!), "/data/email"
            ),
            (.string(#"{"list":["bob@example.org"]}"#), "/list/0"),
        ])
    func encodings(_ value: JSONValue, _ inner: String) {
        let found = PersonalData.hits(in: ["p": value])
        #expect(found.map(\.kind) == [.email], "\(found)")
        #expect(found.first?.pointer == "/p" + inner)
        #expect(found.first?.masked == "b***@example.org")
    }

    /// A Measurement Protocol request with one event's params, or a Segment call.
    static func ga4(_ params: [String: JSONValue]) -> CapturedRequest {
        let body: JSONValue = ["client_id": "1.2", "events": [["name": "purchase", "params": .object(params)]]]
        return CapturedRequest(
            id: "1", method: "POST", url: "https://www.google-analytics.com/mp/collect?measurement_id=G-1&api_secret=s",
            headers: [.init(name: "Content-Type", value: "application/json")], body: .text(body.serialized()))
    }

    static func segment(_ type: String, _ fields: [String: JSONValue]) -> CapturedRequest {
        var call = fields
        call["type"] = .string(type)
        call["userId"] = "u-1"
        return CapturedRequest(
            id: "2", method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(JSONValue.object(["batch": [.object(call)]]).serialized()))
    }

    func findings(_ request: CapturedRequest, profile: String) throws -> [Finding] {
        try PreparedCheck(profileAlone: profile).validate([request]).findings.filter { $0.code == .personalData }
    }

    @Test("a hit is one personal_data finding naming the kind, the event and the pointer, its value masked")
    func finding() throws {
        let found = try findings(Self.ga4(["contact": "ada@example.com", "value": .number("12.5")]), profile: "ga4")
        try #require(found.count == 1)
        #expect(found[0].severity == .error)
        #expect(found[0].path == "/properties/contact")
        #expect(found[0].actual == "a***@example.com")
        #expect(found[0].request?.event == 0)
        #expect(found[0].message.hasPrefix("email: ga4 "), "\(found[0].message)")
        #expect(found[0].message.contains("Google Analytics forbids"))
        #expect(!found[0].message.contains("ada@example.com"))
    }

    @Test("a vendor that does not forbid personal data gets a warning; a CDP's identify traits none")
    func severities() throws {
        let track = try findings(
            Self.segment("track", ["event": "Signed Up", "properties": ["contact": "ada@example.com"]]),
            profile: "segment")
        #expect(track.map(\.severity) == [.warning])
        let identify = Self.segment("identify", ["traits": ["email": "ada@example.com", "phone": "+44 20 7946 0958"]])
        #expect(try findings(identify, profile: "segment").isEmpty)
    }

    /// A profile file extending a built-in one with this `personalData`.
    func profile(_ personalData: String, extending base: String) throws -> Profile {
        let text = #"{"extends": "\#(base)", "personalData": \#(personalData)}"#
        return try Profile.parse(document: JSONDocument.parse(Array(text.utf8), file: "Validators/shop.json"))
    }

    func findings(_ request: CapturedRequest, profile: Profile) throws -> [Finding] {
        let snapshot = try Snapshot.parse(Array(#"{"requests": [], "unexpected": "allow"}"#.utf8), file: "s.json")
        return try PreparedCheck(snapshot, file: "s.json", profile: profile, extensions: .registered).validate([request]
        )
        .findings.filter { $0.code == .personalData }
    }

    @Test("a profile allows a field, turns a kind off, makes the check stricter, or checks identify traits")
    func settings() throws {
        let request = Self.segment(
            "track",
            ["event": "Signed Up", "properties": ["support_email": "help@shop.example", "contact": "ada@example.com"]])
        #expect(try findings(request, profile: profile("{}", extending: "segment")).count == 2)
        let allowed = try findings(
            request, profile: profile(#"{"allow": {"email": ["/properties/support_email"]}}"#, extending: "segment"))
        #expect(allowed.map(\.path) == ["/properties/contact"])
        let byName = try findings(request, profile: profile(#"{"allow": {"*": ["contact"]}}"#, extending: "segment"))
        #expect(byName.map(\.path) == ["/properties/support_email"])
        #expect(try findings(request, profile: profile(#"{"kinds": {"email": "off"}}"#, extending: "segment")).isEmpty)
        #expect(try findings(request, profile: profile(#""off""#, extending: "segment")).isEmpty)
        let strict = try findings(request, profile: profile(#"{"check": "error"}"#, extending: "segment"))
        #expect(strict.map(\.severity) == [.error, .error])
        let identify = Self.segment("identify", ["traits": ["email": "ada@example.com"]])
        #expect(try findings(identify, profile: profile(#"{"traits": true}"#, extending: "segment")).count == 1)
    }

    @Test("a bad personalData setting is an error at its place")
    func badSettings() throws {
        for (setting, pointer) in [
            (#""sometimes""#, "/personalData"), (#"{"kinds": {"emails": "off"}}"#, "/personalData/kinds/emails"),
            (#"{"allow": {"email": "/properties/a"}}"#, "/personalData/allow/email"),
            (#"{"checks": "on"}"#, "/personalData/checks"),
        ] {
            #expect(throws: InputError.self, "\(setting) at \(pointer)") { try profile(setting, extending: "segment") }
        }
    }

    /// The findings of one request checked against a snapshot, and the text they show: their
    /// messages and quoted values.
    private func shown(_ request: CapturedRequest, snapshot: String, profile: String) throws -> (
        codes: Set<FindingCode>, text: String
    ) {
        let parsed = try Snapshot.parse(Array(snapshot.utf8), file: "s.json")
        let result = try PreparedCheck(parsed, file: "s.json", profile: profile).validate([request])
        return (
            Set(result.findings.map(\.code)),
            result.findings.map { "\($0.message) \($0.actual?.serialized() ?? "")" }.joined()
        )
    }

    private func post(_ url: String, _ contentType: String, _ body: String) -> CapturedRequest {
        CapturedRequest(
            id: "3", method: "POST", url: url, headers: [.init(name: "Content-Type", value: contentType)],
            body: .text(body))
    }

    @Test("an unexpected event's view in a finding shows personal data masked")
    func maskedInOtherFindings() throws {
        let calls: JSONValue = [
            ["type": "track", "userId": "u-1", "event": "Checkout"],
            ["type": "track", "userId": "u-1", "event": "Signed Up", "properties": ["contact": "ada@example.com"]],
        ]
        let request = post(
            "https://api.segment.io/v1/batch", "application/json", JSONValue.object(["batch": calls]).serialized())
        let shown = try shown(request, snapshot: #"{"events": [{"name": "Checkout"}]}"#, profile: "segment")
        #expect(shown.codes.contains(.unexpectedEvent))
        #expect(!shown.text.contains("ada@example.com") && shown.text.contains("a***@example.com"), "\(shown.text)")
    }

    @Test("two emails that mask alike are still told apart: the finding says they differ where masked")
    func alikeWhenMasked() throws {
        let request = post("https://api.example.com/v1/e", "application/json", #"{"contact": "amy@example.com"}"#)
        let snapshot =
            #"{"requests": [{"method": "POST", "url": "https://api.example.com/v1/e", "body": {"contact": "ada@example.com"}}]}"#
        let shown = try shown(request, snapshot: snapshot, profile: "default")
        #expect(shown.codes.contains(.valueMismatch))
        #expect(!shown.text.contains("ada@") && !shown.text.contains("amy@"), "\(shown.text)")
        #expect(shown.text.contains("(they differ where they are masked) \"a***@example.com\""), "\(shown.text)")
    }

    @Test("an email or a token used as a key is masked in what a report quotes")
    func keysMasked() throws {
        let request = post(
            "https://api.example.com/v1/e", "application/x-www-form-urlencoded",
            "event=x&planted.person%40example.org=1&eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJl=2")
        let shown = try shown(request, snapshot: #"{"requests": []}"#, profile: "default")
        #expect(shown.codes.contains(.unexpectedEvent), "\(shown.text)")
        #expect(!shown.text.contains("planted.person") && !shown.text.contains("eyJhbGciOiJIUzI1NiJ9"), "\(shown.text)")
        #expect(shown.text.contains("p***@example.org"), "\(shown.text)")
    }

    @Test("an IP address inside a longer property is masked in the unexpected event that quotes it, as in its finding")
    func addressMaskedWhereQuoted() throws {
        let request = post(
            "https://api.segment.io/v1/track", "application/json",
            #"{"type": "track", "event": "Proxy", "properties": {"f": "x-forwarded 198.51.100.96"}}"#)
        let shown = try shown(request, snapshot: #"{"events": []}"#, profile: "segment")
        #expect(shown.codes.isSuperset(of: [.unexpectedEvent, .personalData]))
        #expect(!shown.text.contains("198.51.100.96") && shown.text.contains("x-forwarded 198.*.*.*"), "\(shown.text)")
    }
}

/// The false-positive measure: the SDKs' ordinary traffic the repository holds (the decoders'
/// fixtures, recorded from the vendors' own SDKs, and the examples' and demo's captures) carries
/// no personal data but the advertising ids mobile SDKs send, and identify traits, which are
/// allowed by design.
@Suite("Personal data: no finding on ordinary SDK traffic")
struct PersonalDataCorpusTests {
    static let folders = [
        "Tests/TracksnapDecodersTests/Fixtures", "Snapshots/examples/captures", "Snapshots/demo/captures",
    ]

    @Test("every capture in the corpus, under the default profile: no finding but advertising ids")
    func corpus() throws {
        var files = 0
        var events = 0
        var advertisingIDs = 0
        for folder in Self.folders {
            let directory = PackagePaths.root.appending(path: folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            for name in names where name.hasSuffix(".ndjson") || name.hasSuffix(".har") {
                let requests = try CaptureFile.read(path: directory.appending(path: name).path)
                let check = try PreparedCheck(profileAlone: "default")
                let result = check.validate(requests)
                let personal = result.findings.filter { $0.code == .personalData }
                let others = personal.filter { !$0.message.hasPrefix("advertising_id:") }
                #expect(others.isEmpty, "\(folder)/\(name): \(others.map(\.message))")
                files += 1
                events += check.profile.select(requests, decodingEvents: true).decoded.reduce(0) {
                    if case .events(let decoded) = $1 { return $0 + decoded.count }
                    return $0
                }
                advertisingIDs += personal.count - others.count
            }
        }
        #expect(files >= 30)
        #expect(events >= 100)
        // Those of Firebase, Meta's app events, Adjust and Branch: true hits (no consent is known).
        #expect(advertisingIDs > 0)
    }
}

/// Meta asks for its advanced-matching fields hashed: one in clear is an error, a hash nothing.
@Suite("Personal data: Meta's advanced matching")
struct PersonalDataMetaTests {
    static func pixel(_ email: String, _ phone: String) -> CapturedRequest {
        let query = [("id", "1234567890123456"), ("ev", "Purchase"), ("ud[em]", email), ("ud[ph]", phone)]
            .map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.1)" }
            .joined(separator: "&")
        return CapturedRequest(id: "1", method: "GET", url: "https://www.facebook.com/tr/?" + query)
    }

    @Test("an email and a phone in clear in ud[em] and ud[ph] are errors; their SHA-256 hashes no finding")
    func advancedMatching() throws {
        let clear = try PreparedCheck(profileAlone: "default").validate([Self.pixel("ada@example.com", "16505551234")])
            .findings.filter { $0.code == .personalData }
        #expect(clear.map(\.severity) == [.error, .error], "\(clear.map(\.message))")
        #expect(
            clear.allSatisfy { $0.message.contains("SHA-256") && $0.path.contains("/ud/") }, "\(clear.map(\.message))")
        let hashed = Self.pixel(
            "c1976429369bedaa3b2b2a2e6a2b2a2e6a2b2a2e6a2b2a2e6a2b2a2e6a2b2a2e",
            "254aa248acb47dd654ca3ea53f48c2c26d641d23d7e2e93a1ec56258df7674c4")
        #expect(
            try PreparedCheck(profileAlone: "default").validate([hashed]).findings.filter { $0.code == .personalData }
                .isEmpty)
    }
}

/// A snapshot can allow a field or set the check for itself, over its profile's setting.
@Suite("Personal data: a snapshot's own setting")
struct PersonalDataSnapshotTests {
    func findings(_ snapshot: String) throws -> [Finding] {
        let request = PersonalDataTests.segment(
            "track", ["event": "Signed Up", "properties": ["support_email": "help@shop.example"]])
        let parsed = try Snapshot.parse(Array(snapshot.utf8), file: "s.json")
        return try PreparedCheck(parsed, file: "s.json", profile: "segment").validate([request]).findings.filter {
            $0.code == .personalData
        }
    }

    @Test("a snapshot's allow list and check apply over the profile's")
    func settings() throws {
        #expect(try findings(#"{"requests": [], "unexpected": "allow"}"#).count == 1)
        let allowed =
            #"{"requests": [], "unexpected": "allow", "personalData": {"allow": {"email": ["support_email"]}}}"#
        #expect(try findings(allowed).isEmpty)
        #expect(try findings(#"{"requests": [], "unexpected": "allow", "personalData": "off"}"#).isEmpty)
        let strict = #"{"requests": [], "unexpected": "allow", "personalData": {"check": "error"}}"#
        #expect(try findings(strict).map(\.severity) == [.error])
    }

    @Test("a bad setting in a snapshot is an error at its line and column")
    func bad() throws {
        let text = "{\"requests\": [],\n \"personalData\": {\"kinds\": {\"mail\": \"off\"}}}"
        let snapshot = try Snapshot.parse(Array(text.utf8), file: "s.json")
        #expect {
            _ = try PreparedCheck(snapshot, file: "s.json", profile: "segment")
        } throws: { error in
            "\(error)".contains("s.json:2:") && "\(error)".contains("\"mail\"")
        }
        let document = try JSONDocument.parse(Array(text.utf8), file: "s.json")
        #expect(Validation.lint(document: document).contains { $0.message.contains("\"mail\"") })
    }

    @Test("lint warns of recorded personal data, masked, but not of a field the snapshot allows nor of a pattern")
    func lint() throws {
        func warnings(_ text: String) throws -> [String] {
            Validation.lint(document: try JSONDocument.parse(Array(text.utf8), file: "s.json")).map(\.description)
        }
        let events =
            #"{"events": [{"type": "track", "name": "A", "properties": {"contact": "ada@example.com", "card": "4111111111111111", "sku": "SKU-0123-4567-89"}}]"#
        let found = try warnings(events + "}")
        #expect(found.count == 2, "\(found)")
        #expect(found.allSatisfy { $0.hasPrefix("s.json:1:") && $0.contains(": warning: ") }, "\(found)")
        #expect(found.contains { $0.contains("payment_card in clear") && $0.contains("**** **** **** 1111") })
        #expect(!found.joined().contains("ada@example.com") && !found.joined().contains("4111111111111111"))
        let allowed = try warnings(
            events + #", "personalData": {"allow": {"email": ["contact"]}, "kinds": {"payment_card": "off"}}}"#)
        #expect(allowed.isEmpty, "\(allowed)")
        // What `tracksnap record` writes in its place is no personal data.
        let pattern = PersonalData.recordedPattern(for: .email)
        let recorded = #"{"events": [{"type": "track", "name": "A", "properties": {"contact": {"$regex": ""#
        #expect(try warnings(recorded + pattern.replacingOccurrences(of: "\\", with: "\\\\") + #""}}}]}"#).isEmpty)
    }
}
