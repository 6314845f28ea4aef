import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

/// The vendors' documented limits, each at its boundary: none at the limit, one finding naming
/// the rule one step beyond it.
@Suite("Vendor rules: what each vendor drops or refuses, checked offline")
struct VendorRuleTests {
    /// A Measurement Protocol request with these events (`{"name", "params"}` objects) and these
    /// members beside them (`user_properties`…).
    func measurementProtocol(_ events: [JSONValue], _ members: [String: JSONValue] = [:]) -> CapturedRequest {
        var body = members
        body["client_id"] = body["client_id"] ?? "1.2"
        body["events"] = .array(events)
        return CapturedRequest(
            id: "1", method: "POST", url: "https://www.google-analytics.com/mp/collect?measurement_id=G-1&api_secret=s",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(JSONValue.object(body).serialized()))
    }

    func event(_ name: String, _ params: [String: JSONValue] = [:]) -> JSONValue {
        .object(["name": .string(name), "params": .object(params)])
    }

    /// The ids of the rules broken, one per finding, checked under the built-in `ga4` profile alone.
    func broken(_ request: CapturedRequest, profile: String = "ga4") throws -> [String] {
        try PreparedCheck(profileAlone: profile).validate([request]).findings.map {
            #expect($0.code == .vendorRule)
            return String($0.message.prefix { $0 != ":" })
        }
    }

    static func text(_ count: Int) -> String { String(repeating: "a", count: count) }
    static func params(_ count: Int) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ("p\($0)", JSONValue.number("1")) })
    }

    @Test("GA4: each limit at its boundary, one finding beyond it, none at it")
    func ga4Boundaries() throws {
        let cases: [(rule: String, within: CapturedRequest, beyond: CapturedRequest)] = [
            (
                "ga4.event_name_length", measurementProtocol([event(Self.text(40))]),
                measurementProtocol([event(Self.text(41))])
            ),
            (
                "ga4.event_name_characters", measurementProtocol([event("add_to_cart")]),
                measurementProtocol([event("add to cart")])
            ),
            ("ga4.event_name_characters", measurementProtocol([event("a1")]), measurementProtocol([event("1a")])),
            (
                "ga4.reserved_event_name", measurementProtocol([event("session_begin")]),
                measurementProtocol([event("session_start")])
            ),
            (
                "ga4.reserved_event_name", measurementProtocol([event("fire_x")]),
                measurementProtocol([event("firebase_x")])
            ),
            (
                "ga4.parameter_count", measurementProtocol([event("e", Self.params(25))]),
                measurementProtocol([event("e", Self.params(26))])
            ),
            (
                "ga4.parameter_name", measurementProtocol([event("e", [Self.text(40): "x"])]),
                measurementProtocol([event("e", [Self.text(41): "x"])])
            ),
            (
                "ga4.parameter_name", measurementProtocol([event("e", ["gax": "x"])]),
                measurementProtocol([event("e", ["ga_x": "x"])])
            ),
            (
                "ga4.parameter_value_length", measurementProtocol([event("e", ["note": .string(Self.text(100))])]),
                measurementProtocol([event("e", ["note": .string(Self.text(101))])])
            ),
            (
                "ga4.parameter_value_length",
                measurementProtocol([event("e", ["items": [["item_name": .string(Self.text(100))]]])]),
                measurementProtocol([event("e", ["items": [["item_name": .string(Self.text(101))]]])])
            ),
            (
                "ga4.user_properties",
                measurementProtocol(
                    [event("e")],
                    [
                        "user_properties": .object(
                            Dictionary(uniqueKeysWithValues: (0..<25).map { ("u\($0)", ["value": "1"]) }))
                    ]),
                measurementProtocol(
                    [event("e")],
                    [
                        "user_properties": .object(
                            Dictionary(uniqueKeysWithValues: (0..<26).map { ("u\($0)", ["value": "1"]) }))
                    ])
            ),
            (
                "ga4.user_properties",
                measurementProtocol([event("e")], ["user_properties": [Self.text(24): ["value": "1"]]]),
                measurementProtocol([event("e")], ["user_properties": [Self.text(25): ["value": "1"]]])
            ),
            (
                "ga4.user_properties",
                measurementProtocol([event("e")], ["user_properties": ["tier": ["value": .string(Self.text(36))]]]),
                measurementProtocol([event("e")], ["user_properties": ["tier": ["value": .string(Self.text(37))]]])
            ),
            (
                "ga4.user_properties",
                measurementProtocol([event("e")], ["user_properties": ["user_tier": ["value": "1"]]]),
                measurementProtocol([event("e")], ["user_properties": ["user_id": ["value": "1"]]])
            ),
            (
                "ga4.events_per_request", measurementProtocol(Array(repeating: event("e"), count: 25)),
                measurementProtocol(Array(repeating: event("e"), count: 26))
            ),
            (
                "ga4.request_size", measurementProtocol([event("e")], ["client_id": .string(Self.text(129_900))]),
                measurementProtocol([event("e")], ["client_id": .string(Self.text(130_000))])
            ),
        ]
        for (rule, within, beyond) in cases {
            #expect(try broken(within) == [], "\(rule) within its limit")
            #expect(try broken(beyond) == [rule], "\(rule) beyond its limit")
        }
    }

    @Test(
        "gtag.js sends reserved names itself (page_view, session_start…): only the Measurement Protocol's are the app's"
    )
    func gtagReservedNames() throws {
        let gtag = CapturedRequest(
            id: "1", method: "POST", url: "https://www.google-analytics.com/g/collect?v=2&tid=G-1&cid=1.2",
            body: .text("en=session_start\nen=page_view&ep.section=news"))
        #expect(try broken(gtag) == [])
        let named = CapturedRequest(
            id: "2", method: "POST", url: "https://www.google-analytics.com/g/collect?v=2&tid=G-1&cid=1.2",
            body: .text("en=\(Self.text(41))&up.\(Self.text(25))=1"))
        #expect(try broken(named) == ["ga4.event_name_length", "ga4.user_properties"])
    }

    @Test("a recommendation is a warning: a purchase without items does not fail the run")
    func recommendation() throws {
        let bare = measurementProtocol([event("purchase", ["value": 3, "currency": "EUR", "transaction_id": "t1"])])
        let result = try PreparedCheck(profileAlone: "ga4").validate([bare])
        #expect(result.findings.map(\.severity) == [.warning])
        #expect(result.findings.first?.message.contains("ga4.purchase_items") == true)
        #expect(result.passed)
        let full = measurementProtocol([
            event("purchase", ["value": 3, "currency": "EUR", "transaction_id": "t1", "items": [["item_id": "A"]]])
        ])
        #expect(try broken(full) == [])
    }

    @Test("a profile turns a rule off, makes a vendor's rules warnings, and is refused a rule that does not exist")
    func settings() throws {
        try withTemporaryDirectory { directory in
            let validators = directory.appending(path: "Validators")
            try FileManager.default.createDirectory(at: validators, withIntermediateDirectories: true)
            func profile(_ name: String, _ rules: String) throws {
                try Data(#"{"extends": "ga4", "rules": \#(rules)}"#.utf8)
                    .write(to: validators.appending(path: "\(name).json"))
            }
            try profile("off", #"{"ga4.event_name_length": "off"}"#)
            try profile("warn", #"{"ga4": "warning"}"#)
            try profile("typo", #"{"ga4.event_name_lenght": "off"}"#)
            let workspace = Workspace(validators: validators.path, root: directory.path)
            let long = measurementProtocol([event(Self.text(41) + " x")])
            func findings(_ name: String) throws(InputError) -> [Finding] {
                try PreparedCheck(profileAlone: name, workspace: workspace).validate([long]).findings
            }
            #expect(try findings("off").map(\.message).allSatisfy { $0.hasPrefix("ga4.event_name_characters") })
            #expect(try findings("off").count == 1)
            #expect(try findings("warn").map(\.severity) == [.warning, .warning])
            do throws(InputError) {
                _ = try findings("typo")
                Issue.record("a rule that does not exist was taken")
            } catch {
                #expect(error.description.contains("did you mean ga4.event_name_length?"), "\(error)")
            }
        }
    }

    @Test("Segment's 32 KB per call, Amplitude's 5-character ids, PostHog's distinct_id")
    func otherVendors() throws {
        func segment(_ size: Int) -> CapturedRequest {
            let call: JSONValue = [
                "type": "track", "event": "Viewed", "anonymousId": "a1",
                "properties": ["blob": .string(Self.text(size))],
            ]
            return CapturedRequest(
                id: "1", method: "POST", url: "https://api.segment.io/v1/batch",
                headers: [.init(name: "Content-Type", value: "application/json")],
                body: .text(JSONValue.object(["batch": [call, call]]).serialized()))
        }
        #expect(try broken(segment(32_000), profile: "segment") == [])
        #expect(try broken(segment(33_000), profile: "segment") == ["segment.call_size", "segment.call_size"])

        func amplitude(_ user: String) -> CapturedRequest {
            CapturedRequest(
                id: "1", method: "POST", url: "https://api2.amplitude.com/2/httpapi",
                headers: [.init(name: "Content-Type", value: "application/json")],
                body: .text(#"{"api_key": "k", "events": [{"event_type": "Played", "user_id": "\#(user)"}]}"#))
        }
        #expect(try broken(amplitude("u-123"), profile: "amplitude") == [])
        #expect(try broken(amplitude("u-12"), profile: "amplitude") == ["amplitude.id_length"])

        func posthog(_ event: String) -> CapturedRequest {
            CapturedRequest(
                id: "1", method: "POST", url: "https://us.i.posthog.com/batch/",
                headers: [.init(name: "Content-Type", value: "application/json")],
                body: .text(#"{"api_key": "phc_x", "batch": [\#(event)]}"#))
        }
        #expect(try broken(posthog(#"{"event": "viewed", "distinct_id": "d1"}"#), profile: "posthog") == [])
        #expect(
            try broken(posthog(#"{"event": "viewed", "properties": {}}"#), profile: "posthog") == [
                "posthog.distinct_id"
            ])
    }

    @Test("the profile schema lists every rule and vendor a profile may name, and no other; the guide every rule")
    func schemaListsRules() throws {
        let guide = try String(
            contentsOf: PackagePaths.root.appending(path: "Documentation/Validating.md"), encoding: .utf8)
        let documented = guide.split(separator: "\n").filter { $0.hasPrefix("| `") }.map {
            String($0.dropFirst(3).prefix { $0 != "`" })
        }
        #expect(Set(VendorRule.all.map(\.id)).subtracting(documented) == [])
        let schema = try JSONDocument.load(path: PackagePaths.root.appending(path: "Schemas/profile.schema.json").path)
        let names = schema.value["properties"]?["rules"]?["propertyNames"]?["enum"]?.arrayValue?.compactMap(
            \.stringValue)
        #expect(Set(names ?? []) == Set(VendorRule.vendors + VendorRule.all.map(\.id)))
        #expect(names?.count == VendorRule.vendors.count + VendorRule.all.count)
        // And every finding code, which a profile's "severity" names and a report prints.
        let codes = schema.value["$defs"]?["findingCode"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(codes == FindingCode.allCases.map(\.rawValue))
        let report = try JSONDocument.load(path: PackagePaths.root.appending(path: "Schemas/report.schema.json").path)
        let reported = report.value["$defs"]?["finding"]?["properties"]?["code"]?["enum"]?.arrayValue?.compactMap(
            \.stringValue)
        #expect(Set(reported ?? []) == Set(FindingCode.allCases.map(\.rawValue)))
    }
}
