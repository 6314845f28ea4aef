import Foundation
import Testing
import TracksnapTestSupport
import TracksnapTraffic

/// A plan file (or folder) beside `Fixtures/plans/send_plan_events.py`, in one of the formats
/// tracksnap reads: RudderStack's as a folder of rudder/v0.1 YAML files and as one rudder/v1 file.
struct PlanCase: CustomTestStringConvertible, Sendable {
    var file: String
    var testDescription: String { file }

    static let all = [
        "shop.plan.json", "segment-public-api.json", "segment-config-api.json", "mparticle-data-plan.json",
        "rudderstack", "rudderstack-v1/shop.yaml",
    ]
    .map(PlanCase.init)
}

/// One defect a plan test's script can make, and the one finding it must give.
struct PlanDefect: CustomTestStringConvertible, Sendable {
    var name: String
    var code: String
    var path: String
    /// The schema keyword the message names.
    var keyword: String?

    var testDescription: String { name }

    static let all = [
        PlanDefect(name: "wrong_type", code: "plan_violation", path: "/properties/revenue", keyword: "type"),
        PlanDefect(name: "missing_required", code: "plan_violation", path: "/properties", keyword: "required"),
        PlanDefect(name: "outside_enum", code: "plan_violation", path: "/properties/currency", keyword: "enum"),
        PlanDefect(name: "pattern", code: "plan_violation", path: "/properties/order_id", keyword: "pattern"),
        PlanDefect(
            name: "forbidden", code: "plan_violation", path: "/properties/coupon", keyword: "additionalProperties"),
        PlanDefect(name: "traits", code: "plan_violation", path: "/traits/email", keyword: "type"),
        PlanDefect(name: "unplanned", code: "unplanned_event", path: "", keyword: nil),
    ]
}

/// Segment's and RudderStack's own Python SDKs send a shop's calls to `tracksnap serve`; the
/// control API's validate checks them against the same plan written natively, in Segment's
/// two export formats, as an mParticle data plan and as RudderStack's YAML (a Segment plan
/// checks what RudderStack's SDK sent, too, and a RudderStack plan what Segment's sent).
@Suite("Tracking plans against the vendors' Python SDKs", .tags(.process), .leftToMakeTest)
struct PlanEndToEndTests {
    static let plans = PackagePaths.fixtures.appending(path: "plans")

    /// What the SDK sends with `defect`, validated against each plan: the findings and the
    /// planned events never sent, per plan.
    private func run(_ vendor: String, defect: String?, plans: [String] = PlanCase.all.map(\.file)) async throws
        -> [String: ValidationReport.SnapshotReport]
    {
        let server = try await ServeChild.launch()
        defer { server.stop() }
        let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
        let script = Self.plans.appending(path: "send_plan_events.py").path
        let sent = try await runProcess(
            PackagePaths.python, [script, vendor, server.base] + (defect.map { [$0] } ?? []), timeout: Bounds.process)
        #expect(sent.status == 0, "the \(vendor) SDK failed: \(sent.stderr)")
        _ = try await server.call("GET", "sessions/\(session)/requests?count=1&timeout=30")
        var reports: [String: ValidationReport.SnapshotReport] = [:]
        for plan in plans {
            let body = try JSONSerialization.data(withJSONObject: [
                "plan": Self.plans.appending(path: plan).path, "settle": 0.5,
            ])
            let report = try await server.call(
                "POST", "sessions/\(session)/validate", body: body, as: ValidationReport.self)
            #expect(report.snapshots.count == 1)
            if let snapshot = report.snapshots.first { reports[plan] = snapshot }
        }
        return reports
    }

    @Test(
        "conforming calls pass every plan, and coverage lists the planned event never sent",
        arguments: ["segment", "rudderstack"])
    func conforming(_ vendor: String) async throws {
        guard FileManager.default.isExecutableFile(atPath: PackagePaths.python.path) else {
            Issue.record("\(PackagePaths.python.path) is missing: run `make test`, which installs the SDKs")
            return
        }
        for (plan, report) in try await run(vendor, defect: nil) {
            #expect(report.findings.isEmpty, "\(plan): \(report.findings.map(\.message))")
            #expect(report.plannedNotSent?.map(\.event) == [#"track "Refund Issued""#], "\(plan)")
            #expect(report.plannedNotSent?.first?.line != nil)
        }
    }

    @Test("each single defect gives exactly one finding naming it", arguments: PlanDefect.all)
    func defect(_ defect: PlanDefect) async throws {
        guard FileManager.default.isExecutableFile(atPath: PackagePaths.python.path) else {
            Issue.record("\(PackagePaths.python.path) is missing: run `make test`, which installs the SDKs")
            return
        }
        for vendor in ["segment", "rudderstack"] {
            for (plan, report) in try await run(vendor, defect: defect.name) {
                let findings = report.findings
                #expect(findings.count == 1, "\(vendor), \(plan): \(findings.map(\.message))")
                guard let finding = findings.first else { continue }
                #expect(finding.code == defect.code, "\(vendor), \(plan): \(finding.message)")
                #expect(finding.path == defect.path, "\(vendor), \(plan): \(finding.message)")
                if let keyword = defect.keyword {
                    #expect(finding.message.contains(": \(keyword): "), "\(finding.message)")
                    #expect(finding.file?.contains("plans/\(plan)") == true, "\(finding.file ?? "")")
                    #expect(finding.line != nil)
                    #expect(finding.expected != nil)
                } else {
                    #expect(finding.message.contains(#"track "Cart Abandoned""#), "\(finding.message)")
                }
            }
        }
    }

    @Test(
        "Typewriter's plan.json (rules unwrapped to the event's properties, with eventMetadata): Segment's SDK's conforming calls pass, a value outside an enum is one finding at the property"
    )
    func typewriter() async throws {
        guard FileManager.default.isExecutableFile(atPath: PackagePaths.python.path) else {
            Issue.record("\(PackagePaths.python.path) is missing: run `make test`, which installs the SDKs")
            return
        }
        // Typewriter keeps track events only: the identify call is neither planned nor unplanned.
        let plan = "typewriter/plan.json"
        let conforming = try #require(try await run("segment", defect: nil, plans: [plan])[plan])
        #expect(conforming.findings.isEmpty, "\(conforming.findings.map(\.message))")
        #expect(conforming.plannedNotSent?.map(\.event) == [#"track "Refund Issued""#])
        for defect in PlanDefect.all where !["traits", "unplanned"].contains(defect.name) {
            let report = try #require(try await run("segment", defect: defect.name, plans: [plan])[plan])
            #expect(report.findings.count == 1, "\(defect.name): \(report.findings.map(\.message))")
            #expect(report.findings.first?.path == defect.path, "\(defect.name): \(report.findings.map(\.message))")
            #expect(
                report.findings.first?.message.contains(": \(defect.keyword ?? ""): ") == true,
                "\(report.findings.map(\.message))")
        }
    }

}

/// The defects `send_snowplow_plan_events.py` can make, and the one finding each must give.
extension PlanDefect {
    static let iglu = [
        PlanDefect(name: "wrong_type", code: "plan_violation", path: "/properties/step", keyword: "type"),
        PlanDefect(name: "missing_required", code: "plan_violation", path: "/properties", keyword: "required"),
        PlanDefect(name: "outside_range", code: "plan_violation", path: "/properties/step", keyword: "minimum"),
        PlanDefect(
            name: "pattern", code: "plan_violation", path: "/context/contexts/0/data/order_id", keyword: "pattern"),
        PlanDefect(
            name: "forbidden", code: "plan_violation", path: "/properties/coupon", keyword: "additionalProperties"),
        PlanDefect(name: "unknown_schema", code: "unplanned_event", path: "/properties", keyword: nil),
    ]
}

/// Snowplow's own Python tracker sends a self-describing event with a context; an Iglu registry
/// folder checks both by their `iglu:` URIs.
@Suite("An Iglu registry against Snowplow's Python tracker", .tags(.process), .leftToMakeTest)
struct IgluEndToEndTests {
    static let registry = PackagePaths.fixtures.appending(path: "plans/iglu").path

    private func report(defect: String?) async throws -> [String: Any] {
        let server = try await ServeChild.launch()
        defer { server.stop() }
        let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
        let script = PackagePaths.fixtures.appending(path: "plans/send_snowplow_plan_events.py").path
        let sent = try await runProcess(
            PackagePaths.python, [script, server.base] + (defect.map { [$0] } ?? []), timeout: Bounds.process)
        #expect(sent.status == 0, "the Snowplow tracker failed: \(sent.stderr)")
        _ = try await server.call("GET", "sessions/\(session)/requests?count=1&timeout=30")
        let body = try JSONSerialization.data(withJSONObject: ["plan": Self.registry, "settle": 0.5])
        let answer = try await server.call("POST", "sessions/\(session)/validate", body: body)
        let json = try JSONSerialization.jsonObject(with: answer) as? [String: Any]
        let snapshots = json?["snapshots"] as? [[String: Any]]
        return try #require(snapshots?.first)
    }

    @Test("a conforming event and context pass; coverage lists the schema never used")
    func conforming() async throws {
        guard FileManager.default.isExecutableFile(atPath: PackagePaths.python.path) else {
            Issue.record("\(PackagePaths.python.path) is missing: run `make test`, which installs the SDKs")
            return
        }
        let snapshot = try await report(defect: nil)
        #expect((snapshot["findings"] as? [Any])?.isEmpty == true, "\(snapshot)")
        let unsent = (snapshot["plannedNotSent"] as? [[String: Any]])?.compactMap { $0["event"] as? String }
        #expect(unsent == ["iglu:com.acme/refund/jsonschema/1-0-0"])
        let file = (snapshot["plannedNotSent"] as? [[String: Any]])?.first?["plan"] as? String
        #expect(file?.hasSuffix("schemas/com.acme/refund/jsonschema/1-0-0") == true, "\(file ?? "")")
    }

    @Test("each single defect gives exactly one finding naming it", arguments: PlanDefect.iglu)
    func defect(_ defect: PlanDefect) async throws {
        guard FileManager.default.isExecutableFile(atPath: PackagePaths.python.path) else {
            Issue.record("\(PackagePaths.python.path) is missing: run `make test`, which installs the SDKs")
            return
        }
        let findings = try await report(defect: defect.name)["findings"] as? [[String: Any]] ?? []
        #expect(findings.count == 1, "\(findings)")
        guard let finding = findings.first else { return }
        let message = finding["message"] as? String ?? ""
        #expect(finding["code"] as? String == defect.code, "\(message)")
        #expect(finding["path"] as? String == defect.path, "\(message)")
        if let keyword = defect.keyword {
            #expect(message.contains(": \(keyword): "), "\(message)")
            #expect((finding["file"] as? String)?.contains("schemas/com.acme/") == true)
            #expect(finding["line"] as? Int != nil)
        } else {
            #expect(
                message.contains("iglu:com.acme/wishlist/jsonschema/1-0-0 is not in the Iglu registry"), "\(message)")
        }
    }
}

/// A plan is input like any other: a bad one stops `validate` with exit 2 and its place, and
/// `lint` reports it.
@Suite("Bad tracking plans on the command line", .tags(.process), .leftToMakeTest)
struct BadPlanCommandTests {
    @Test(
        "validate --plan with an invalid schema or an unresolvable $ref exits 2 naming file:line:col; lint lists both")
    func badPlan() async throws {
        try await withTemporaryDirectory { directory in
            let validators = directory.appending(path: "Validators")
            try FileManager.default.createDirectory(at: validators, withIntermediateDirectories: true)
            let plan = validators.appending(path: "bad.plan.json")
            try """
            {"plan": 1, "events": [
              {"type": "track", "name": "A", "schema": {"type": "money"}},
              {"type": "track", "name": "B", "schema": {"$ref": "#/definitions/adress"}}
            ]}
            """.write(to: plan, atomically: true, encoding: .utf8)
            let capture = PackagePaths.root.appending(path: "Snapshots/examples/captures/segment.ndjson").path
            let run = try await tracksnap("validate", "--capture", capture, "--plan", plan.path)
            #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("\(plan.path):2:53: error: not a valid draft-07 schema"), "\(run.stderr)")
            #expect(
                run.stderr.contains(##"\##(plan.path):3:53: error: $ref "#/definitions/adress" resolves to no schema"##)
            )

            let lint = try await tracksnap("lint", validators.path)
            #expect(lint.status == 1)
            #expect(lint.stdout.contains("bad.plan.json:2:53: error: not a valid draft-07 schema"), "\(lint.stdout)")
            #expect(lint.stdout.contains("1 file checked: 2 errors"), "\(lint.stdout)")
        }
    }

    @Test("lint reads an Iglu registry's schemas: a good one passes, an invalid schema is named at its line")
    func igluLint() async throws {
        try await withTemporaryDirectory { directory in
            let registry = directory.appending(path: "iglu")
            try FileManager.default.copyItem(
                at: PackagePaths.root.appending(path: "Tests/TracksnapCLITests/Fixtures/plans/iglu"), to: registry)
            let good = try await tracksnap("lint", registry.path)
            #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
            #expect(good.stdout.contains("3 files checked: 0 errors"), "\(good.stdout)")

            let refund = registry.appending(path: "schemas/com.acme/refund/jsonschema/1-0-0")
            let text = try String(contentsOf: refund, encoding: .utf8)
            try #require(text.contains(#""type": "string""#))
            try text.replacing(#""type": "string""#, with: #""type": "strin""#, maxReplacements: 1)
                .write(to: refund, atomically: true, encoding: .utf8)
            let bad = try await tracksnap("lint", registry.path)
            #expect(bad.status == 1, "\(bad.stdout)\(bad.stderr)")
            #expect(bad.stdout.contains("\(refund.path):"), "\(bad.stdout)")
            #expect(bad.stdout.contains("error: not a valid draft-04 schema"), "\(bad.stdout)")
            #expect(bad.stdout.contains("3 files checked: 1 error,"), "\(bad.stdout)")
        }
    }
}

/// A RudderStack plan is input like any other: malformed YAML, a reference to nothing and a type
/// that is none stop `validate` with exit 2, each at its file, line and column, and `lint` lists them.
@Suite("Bad RudderStack plans on the command line", .tags(.process), .leftToMakeTest)
struct BadRudderStackPlanTests {
    static let events = """
        version: rudder/v0.1
        kind: events
        metadata:
          name: shop_events
        spec:
          events:
            - id: order_completed
              name: Order Completed
              event_type: track

        """
    static let properties = """
        version: rudder/v0.1
        kind: properties
        metadata:
          name: shop_properties
        spec:
          properties:
            - id: revenue
              name: revenue
              type: money

        """
    static let trackingPlan = """
        version: rudder/v0.1
        kind: tp
        metadata:
          name: shop
        spec:
          id: shop
          display_name: Shop
          rules:
            - type: event_rule
              id: order_completed_rule
              event:
                $ref: "#/events/shop_events/order_completed"
              properties:
                - $ref: "#/properties/shop_properties/revenue"
                  required: true
                - $ref: "#/properties/shop_properties/adress"
                  required: true

        """

    private func write(_ files: [String: String], in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: directory.appending(path: name), atomically: true, encoding: .utf8)
        }
    }

    @Test("validate --plan with an invalid type and an unresolvable $ref exits 2 naming file:line:col; lint lists both")
    func badReferences() async throws {
        try await withTemporaryDirectory { directory in
            let plan = directory.appending(path: "rudder")
            try write(
                [
                    "events.yaml": Self.events, "properties.yaml": Self.properties,
                    "tracking-plan.yaml": Self.trackingPlan,
                ],
                in: plan)
            let capture = PackagePaths.root.appending(path: "Snapshots/examples/captures/segment.ndjson").path
            let expected = [
                #"properties.yaml:9:13: error: "money" is not a type"#,
                ##"tracking-plan.yaml:16:17: error: $ref "#/properties/shop_properties/adress" names no property"##,
            ]
            for named in [plan.path, plan.appending(path: "tracking-plan.yaml").path] {
                let run = try await tracksnap("validate", "--capture", capture, "--plan", named)
                #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
                for message in expected {
                    #expect(run.stderr.contains("\(plan.path)/\(message)"), "\(run.stderr)")
                }
            }
            let lint = try await tracksnap("lint", plan.path)
            #expect(lint.status == 1, "\(lint.stdout)\(lint.stderr)")
            for message in expected { #expect(lint.stdout.contains(message), "\(lint.stdout)") }
            #expect(lint.stdout.contains("3 files checked: 2 errors"), "\(lint.stdout)")
        }
    }

    @Test("a plan named ./FILE is read, a native one as a RudderStack one")
    func dotSlashPath() async throws {
        let capture = PackagePaths.root.appending(path: "Snapshots/examples/captures/segment.ndjson").path
        for (folder, file) in [
            ("", "shop.plan.json"), ("rudderstack-v1", "shop.yaml"), ("rudderstack", "tracking-plan.yaml"),
        ] {
            let directory = PlanEndToEndTests.plans.appending(path: folder)
            let run = try await tracksnap("validate", "--capture", capture, "--plan", "./\(file)", in: directory)
            #expect(run.status == 1, "\(file): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("planned, never sent"), "\(file): \(run.stdout)\(run.stderr)")
        }
    }

    @Test("malformed YAML in a plan's folder exits 2 at libyaml's line and column")
    func malformedYAML() async throws {
        try await withTemporaryDirectory { directory in
            let plan = directory.appending(path: "rudder")
            try write(
                [
                    "events.yaml": Self.events, "tracking-plan.yaml": Self.trackingPlan,
                    "properties.yaml": Self.properties.replacingOccurrences(of: "type: money", with: "type: [string"),
                ], in: plan)
            let capture = PackagePaths.root.appending(path: "Snapshots/examples/captures/segment.ndjson").path
            let run = try await tracksnap("validate", "--capture", capture, "--plan", plan.path)
            #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("\(plan.path)/properties.yaml:10:1: error: YAML: "), "\(run.stderr)")
        }
    }
}
