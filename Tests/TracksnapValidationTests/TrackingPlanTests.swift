import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

/// Plans read in each format, bad plans refused at their line, and checked on any vendor's events.
@Suite("Tracking plans: read, refused when bad, applied to every vendor")
struct TrackingPlanTests {
    func plan(_ text: String, file: String = "plan.json") throws -> TrackingPlan {
        try TrackingPlan.parse(document: JSONDocument.parse(Array(text.utf8), file: file))
    }

    /// The error a bad plan gives, as printed.
    func refusal(_ text: String) -> String {
        do {
            _ = try plan(text)
            return "accepted"
        } catch let error as any LocatedError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    static let native = #"""
        {"plan": 1, "events": [
          {"type": "track", "name": "Order Completed", "schema": {"required": ["order_id"]}},
          {"type": "page", "name": "Home", "schema": {}},
          {"type": "identify", "schema": {"properties": {"email": {"type": "string"}}}}
        ]}
        """#

    @Test("each format is recognised and read into the same kind of definitions")
    func formats() throws {
        #expect(
            try plan(Self.native).definitions.map(\.title) == [
                #"track "Order Completed""#, #"page "Home""#, "identify",
            ])
        let publicAPI = try plan(
            #"""
            {"data": {"rules": [
              {"type": "TRACK", "key": "Order Completed", "version": 1, "jsonSchema": {"properties": {"properties": {"required": ["a"]}}}},
              {"type": "TRACK", "key": "Order Completed", "version": 2, "jsonSchema": {"properties": {"properties": {"required": ["b"]}}}},
              {"type": "IDENTIFY", "version": 1, "jsonSchema": {}},
              {"type": "COMMON", "version": 1, "jsonSchema": {"properties": {"context": {"type": "object"}}}}
            ]}}
            """#)
        #expect(publicAPI.format == .segmentPublicAPI)
        #expect(publicAPI.definitions.map(\.title) == [#"track "Order Completed""#, "identify", "every call"])
        // Of two versions of a rule, the higher is the plan's.
        #expect(publicAPI.definitions[0].schemaValue["properties"]?["properties"]?["required"] == ["b"])
        let configAPI = try plan(
            #"""
            {"rules": {"events": [{"name": "Signed Up", "rules": {}}], "identify_traits": {"type": "object"},
             "group_traits": {}, "global": {}}}
            """#)
        #expect(configAPI.format == .segmentConfigAPI)
        #expect(configAPI.definitions.map(\.title) == [#"track "Signed Up""#, "identify"])
        let mParticle = try plan(
            #"""
            {"version_document": {"data_points": [
              {"match": {"type": "custom_event", "criteria": {"event_name": "Signed Up"}}, "validator": {"type": "json_schema", "definition": {}}},
              {"match": {"type": "user_attributes", "criteria": {}}, "validator": {"type": "json_schema", "definition": {}}},
              {"match": {"type": "commerce_event", "criteria": {}}, "validator": {"type": "json_schema", "definition": {}}}
            ]}}
            """#)
        #expect(mParticle.format == .mParticle)
        #expect(mParticle.definitions.map(\.title) == [#"track "Signed Up""#, "identify"])
        // A profile's own "plan" (a path) and "rules" (vendor rules) are not plans.
        #expect(TrackingPlan.Format.detect(["plan": "shop.plan.json", "rules": ["ga4": "on"]]) == nil)
    }

    static let refusedPlans: [(text: String, error: String)] = [
        (
            #"{"plan": 1, "events": [{"type": "track", "name": "A", "schema": {"type": "money"}}]}"#,
            "plan.json:1:74: error: not a valid draft-07 schema: anyOf: \"money\" matches none"
        ),
        (
            ##"{"plan": 1, "events": [{"type": "track", "name": "A", "schema": {"$ref": "#/definitions/adress"}}]}"##,
            ##"plan.json:1:74: error: $ref "#/definitions/adress" resolves to no schema"##
        ),
        (
            #"{"plan": 1, "events": [{"type": "track", "schema": {}}]}"#,
            #"plan.json:1:24: error: a track event has a "name""#
        ),
        (
            #"{"plan": 1, "events": [{"type": "click", "name": "A", "schema": {}}]}"#,
            #"plan.json:1:33: error: "type" is one of"#
        ),
        (
            #"{"plan": 1, "events": [{"type": "track", "name": "Refund Issued"}]}"#,
            #"plan.json:1:24: error: track "Refund Issued" has no schema; write "schema": true to accept any properties"#
        ),
        (#"{"rules": [{"type": "TRACK", "jsonSchema": {}}]}"#, #"plan.json:1:12: error: a TRACK rule has a "key""#),
        (#"{"plan": 1, "events": [{"type": "track", "name": "A""#, "plan.json:1:"),
    ]

    @Test("a bad plan is refused at its file, line and column", arguments: refusedPlans)
    func badPlans(_ text: String, _ expected: String) {
        let message = refusal(text)
        #expect(message.hasPrefix(expected), "\(message)")
    }

    /// A GA4 Measurement Protocol request: another vendor than the plan's author had in mind.
    func ga4(_ name: String, _ params: [String: JSONValue]) -> CapturedRequest {
        CapturedRequest(
            id: "1", method: "POST", url: "https://www.google-analytics.com/mp/collect?measurement_id=G-1&api_secret=s",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(
                JSONValue.object([
                    "client_id": "1.2", "events": [.object(["name": .string(name), "params": .object(params)])],
                ]).serialized()))
    }

    @Test("a plan checks another vendor's named events as tracks; findings carry the plan's place")
    func anyVendor() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "shop.plan.json")
            try #"""
            {"plan": 1, "events": [
              {"type": "track", "name": "purchase", "schema": {"properties": {"value": {"type": "number"}}}},
              {"type": "track", "name": "refund", "schema": {}}
            ]}
            """#.write(to: file, atomically: true, encoding: .utf8)
            let check = try PreparedCheck(profileAlone: "default", plans: [file.path])
            let passing = check.validate([ga4("purchase", ["value": 12.5])])
            #expect(passing.findings.isEmpty, "\(passing.findings.map(\.message))")
            #expect(passing.unsentPlanned.map(\.title) == [#"track "refund""#])

            let failing = check.validate([ga4("purchase", ["value": "12.5"]), ga4("login", [:])])
            let codes = failing.findings.map(\.code)
            #expect(codes == [.planViolation, .unplannedEvent], "\(failing.findings.map(\.message))")
            let violation = try #require(failing.findings.first)
            #expect(violation.path == "/properties/value")
            #expect(violation.expected == ["type": "number"])
            #expect(violation.actual == "12.5")
            #expect(violation.file == file.path)
            #expect(violation.location == SourceLocation(line: 2, column: 77))
            #expect(violation.message.hasPrefix(#"track "purchase" (event 1) at /properties/value: type: "#))
        }
    }

    @Test("a plan violation quotes no secret and no personal data the event carried, in its message or its value")
    func violationsHideSecrets() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "shop.plan.json")
            try #"""
            {"plan": 1, "events": [{"type": "track", "name": "login",
              "schema": {"properties": {"token": {"maxLength": 2}}, "additionalProperties": false}}]}
            """#.write(to: file, atomically: true, encoding: .utf8)
            let check = try PreparedCheck(profileAlone: "default", plans: [file.path])
            let planted = ["tok-5e6f7a8b9c", "key-1a2b3c4d5e", "ada@example.com"]
            let result = check.validate([
                ga4(
                    "login",
                    ["token": .string(planted[0]), "api_key": .string(planted[1]), "email": .string(planted[2])])
            ])
            #expect(
                result.findings.filter { $0.code == .planViolation }.count == 3, "\(result.findings.map(\.message))")
            for finding in result.findings {
                let quoted = finding.message + (finding.actual?.serialized() ?? "")
                #expect(!planted.contains { quoted.contains($0) }, "\(quoted)")
            }
            #expect(result.findings.contains { $0.message.contains(#""[redacted]" is longer than 2 characters"#) })
        }
    }

    @Test("a profile's plan is relative to the profile, composed with others, and confined to the root")
    func profileKey() throws {
        try withTemporaryDirectory { directory in
            let validators = directory.appending(path: "Validators")
            try FileManager.default.createDirectory(at: validators, withIntermediateDirectories: true)
            try Self.native.write(to: validators.appending(path: "shop.plan.json"), atomically: true, encoding: .utf8)
            try #"{"extends": "ga4", "plan": "shop.plan.json"}"#.write(
                to: validators.appending(path: "shop.json"), atomically: true, encoding: .utf8)
            try #"{"plan": ["../../outside.plan.json"]}"#.write(
                to: validators.appending(path: "escape.json"), atomically: true, encoding: .utf8)
            let workspace = Workspace(validators: validators.path, root: directory.path)
            let profile = try Profile.load("shop,segment", workspace: workspace)
            #expect(profile.plans.map { URL(fileURLWithPath: $0).lastPathComponent } == ["shop.plan.json"])
            let check = try PreparedCheck(profileAlone: "shop", workspace: workspace)
            #expect(check.plans.count == 1)
            #expect(throws: InputError.self) { try PreparedCheck(profileAlone: "escape", workspace: workspace) }
            #expect(throws: InputError.self) {
                try PreparedCheck(profileAlone: "default", plans: ["../x.plan.json"], workspace: workspace)
            }
        }
    }

    @Test("an Iglu registry folder: a bad schema is refused at its file and line, an empty folder named")
    func igluRegistry() throws {
        try withTemporaryDirectory { directory in
            let folder = directory.appending(path: "schemas/com.acme/checkout/jsonschema")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let schema = folder.appending(path: "1-0-0")
            try """
            {"$schema": "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#",
             "self": {"vendor": "com.acme", "name": "checkout", "format": "jsonschema", "version": "1-0-0"},
             "type": "object", "properties": {"step": {"type": "integer", "minimum": "one"}}}
            """.write(to: schema, atomically: true, encoding: .utf8)
            do {
                _ = try TrackingPlan.load(path: directory.path)
                Issue.record("a bad Iglu schema was accepted")
            } catch {
                #expect("\(error)".hasPrefix("\(schema.path):3:"), "\(error)")
            }
            try FileManager.default.removeItem(at: schema)
            #expect(throws: InputError.self) { try TrackingPlan.load(path: directory.path) }
        }
    }

    static let rudderStack = """
        version: rudder/v1
        kind: tracking-plan
        metadata:
          name: shop
        spec:
          id: shop
          display_name: Shop
          rules:
            - type: event_rule
              id: checkout_rule
              event: "#event:checkout"
              properties:
                - property: "#property:cart"
                  required: true
                  properties:
                    - property: "#property:lines"
                      required: true
                - property: "#property:coupon"
            - type: event_rule
              id: page_rule
              event: "#event:page_view"
              additional_properties: true
        ---
        version: rudder/v1
        kind: events
        metadata:
          name: shop_events
        spec:
          events:
            - id: checkout
              name: Checkout Started
              event_type: track
            - id: page_view
              event_type: page
        ---
        version: rudder/v1
        kind: properties
        metadata:
          name: shop_properties
        spec:
          properties:
            - id: cart
              name: cart
              type: object
            - id: lines
              name: lines
              type: array
              item_types: ["#custom-type:line"]
            - id: coupon
              name: coupon
              types: [string, "null"]
            - id: sku
              name: sku
              type: string
        ---
        version: rudder/v1
        kind: custom-types
        metadata:
          name: shop_types
        spec:
          types:
            - id: line
              name: Line
              type: object
              properties:
                - property: "#property:sku"
                  required: true

        """

    @Test("a RudderStack plan: nested properties, custom object types, item types, unplanned properties refused")
    func rudderStackMapping() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "shop.yaml")
            try Self.rudderStack.write(to: file, atomically: true, encoding: .utf8)
            let plan = try TrackingPlan.load(path: file.path)
            #expect(plan.format == .rudderStack)
            #expect(plan.definitions.map(\.title) == [#"track "Checkout Started""#, "page"])
            let check = try PreparedCheck(profileAlone: "default", plans: [file.path])
            let cart: JSONValue = ["lines": [["sku": "sku-1"]]]
            let passing = check.validate([ga4("Checkout Started", ["cart": cart, "coupon": .null])])
            #expect(passing.findings.isEmpty, "\(passing.findings.map(\.message))")
            let failing = check.validate([
                ga4("Checkout Started", ["cart": ["lines": [["sku": 1]]], "coupon": 5, "gift": true])
            ])
            let findings = failing.findings.map { "\($0.path) \($0.location.map { "\($0.line)" } ?? "-")" }
            // sku's type at the nested reference of lines (line 16), coupon's at its own (18), the
            // unplanned gift at the rule (9).
            #expect(
                Set(findings) == ["/properties/cart/lines/0/sku 16", "/properties/coupon 18", "/properties/gift 9"],
                "\(failing.findings.map(\.message))")
        }
    }

    @Test("a RudderStack folder holds one tracking plan: two are refused, naming both; one's file reads it")
    func rudderStackTwoPlans() throws {
        try withTemporaryDirectory { directory in
            let second = Self.rudderStack.replacingOccurrences(of: "id: shop\n", with: "id: other\n")
            try Self.rudderStack.write(to: directory.appending(path: "a.yaml"), atomically: true, encoding: .utf8)
            let tracking = second.components(separatedBy: "---")[0]
            try tracking.write(to: directory.appending(path: "b.yaml"), atomically: true, encoding: .utf8)
            do {
                _ = try TrackingPlan.load(path: directory.path)
                Issue.record("a folder with two tracking plans was accepted")
            } catch {
                #expect("\(error)".contains("2 RudderStack tracking plans here"), "\(error)")
            }
            let plan = try TrackingPlan.load(path: directory.appending(path: "b.yaml").path)
            #expect(plan.definitions.count == 2)
        }
    }

    @Test("a RudderStack event with two rules is refused at the second, naming the first rule")
    func rudderStackDuplicateRule() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "shop.yaml")
            try Self.rudderStack.replacingOccurrences(
                of: "event: \"#event:page_view\"", with: "event: \"#event:checkout\""
            )
            .write(to: file, atomically: true, encoding: .utf8)
            do {
                _ = try TrackingPlan.load(path: file.path)
                Issue.record("an event with two rules was accepted")
            } catch {
                #expect(
                    "\(error)"
                        == "\(file.path):19:7: error: track \"Checkout Started\" is defined twice; the first definition is at /spec/rules/0 (line 9)"
                )
            }
        }
    }
}
