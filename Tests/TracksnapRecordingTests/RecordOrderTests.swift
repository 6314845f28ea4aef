import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// The order a recording writes is what delivery guarantees and what the runs show, and the
/// fields that describe the machine are left out: no false failure on the next run, on another
/// machine, in another order.
@Suite("Recording order and environment")
struct RecordOrderTests {
    static let time = Date(timeIntervalSince1970: 1_795_000_000)

    /// analytics.js's way: each call in its own request.
    static func track(_ event: String, id: Int, properties: String = "{}") -> CapturedRequest {
        var request = post(
            "https://api.segment.io/v1/track",
            json:
                #"{"type":"track","event":"\#(event)","userId":"u-1","messageId":"\#(UUID().uuidString)","properties":\#(properties)}"#,
            id: id)
        request.time = Self.time.ISO8601Format()
        return request
    }

    /// The server SDKs' way: every call in one batch.
    static func batch(_ events: [String]) -> CapturedRequest {
        let messages = events.map { #"{"type":"track","event":"\#($0)","userId":"u-1","properties":{}}"# }
        return post("https://api.segment.io/v1/batch", json: #"{"batch":[\#(messages.joined(separator: ","))]}"#)
    }

    static let checkout = ["Checkout Started", "Coupon Applied", "Order Completed"]

    static func requests(_ events: [String]) -> [CapturedRequest] {
        events.enumerated().map { track($1, id: $0 + 1) }
    }

    static func recording(
        _ runs: [[CapturedRequest]], profile: Profile? = Profile.builtIn("segment"), existing: JSONDocument? = nil
    ) throws -> (snapshot: JSONValue, generalized: [Generalization]) {
        let recording = try SnapshotRecorder(profile: try #require(profile)).recording(
            from: runs, name: "checkout", existing: existing, file: "checkout.json")
        return (recording.snapshot, recording.generalized)
    }

    static func findings(_ snapshot: JSONValue, _ requests: [CapturedRequest], profile: String = "segment") throws
        -> [Finding]
    {
        let parsed = try Snapshot.parse(document: JSONDocument(file: "s.json", value: snapshot, locations: [:]))
        return SnapshotValidator().validate(parsed, requests: requests, profile: try #require(Profile.builtIn(profile)))
            .findings
    }

    @Test("events in one batch keep their order: recorded strict, and another order fails with advice to say any")
    func batchIsStrict() throws {
        let (snapshot, generalized) = try Self.recording([[Self.batch(Self.checkout)]])
        #expect(snapshot["order"] == "strict")
        #expect(!generalized.contains { $0.path == "/order" })
        let findings = try Self.findings(snapshot, [Self.batch(Self.checkout.reversed())])
        #expect(Set(findings.map(\.code)) == [.orderMismatch])
        #expect(findings.allSatisfy { $0.message.contains(#""order": "any""#) }, "\(findings.map(\.message))")
        let result = SnapshotResult(
            file: "s.json", name: "s", profile: "segment", entries: [], findings: findings, selected: 1, captured: 1)
        #expect(result.onlyOrderDiffers)
    }

    @Test("separate requests may race: one run is recorded any, and every other order of it passes")
    func separateRequestsAreAny() throws {
        let (snapshot, generalized) = try Self.recording([Self.requests(Self.checkout)])
        #expect(snapshot["order"] == "any")
        #expect(
            generalized.first
                == Generalization(path: "/order", reason: "sent in separate requests, which may arrive in any order"))
        for order in [[2, 0, 1], [1, 2, 0], [2, 1, 0]] {
            let run = Self.requests(order.map { Self.checkout[$0] })
            #expect(try Self.findings(snapshot, run).isEmpty)
        }
        // A real change is still exactly one finding.
        let renamed = Self.requests(["Order Placed", "Checkout Started", "Coupon Applied"])
        #expect(try Self.findings(snapshot, renamed).map(\.code) == [.valueMismatch])
        let dropped = Self.requests(["Order Completed", "Checkout Started"])
        #expect(try Self.findings(snapshot, dropped).map(\.code) == [.missingEvent])
    }

    @Test("a profile whose SDK sends one request after another (delivery serial) records separate requests strict")
    func serialDelivery() throws {
        let profile = try recordingProfile(#"{"extends": "segment", "delivery": "serial"}"#)
        #expect(profile.delivery == .serial)
        #expect(try Self.recording([Self.requests(Self.checkout)], profile: profile).snapshot["order"] == "strict")
        let (learnt, generalized) = try Self.recording(
            [Self.requests(Self.checkout), Self.requests(Self.checkout.reversed())], profile: profile)
        #expect(learnt["order"] == "any", "runs that disagree outweigh what the profile says")
        #expect(generalized.first == Generalization(path: "/order", reason: "the runs sent it in different orders"))
        #expect(throws: InputError.self) { try recordingProfile(#"{"delivery": "sometimes"}"#) }
    }

    @Test(
        "runs that differ only in order are the same flow: not refused, learnt as any; runs that really differ still are"
    )
    func runsInAnotherOrder() throws {
        let runs = [[0, 1, 2], [2, 0, 1], [1, 0, 2], [0, 2, 1]].map { Self.requests($0.map { Self.checkout[$0] }) }
        let (snapshot, _) = try Self.recording(runs, profile: Profile.builtIn("default"))
        #expect(snapshot["order"] == "any")
        #expect(snapshot["requests"]?.arrayValue?.count == 3)
        // Entries alike but for their content pair by content: each event name stays literal.
        let names = snapshot["requests"]?.arrayValue?.compactMap { $0.at("/body/event")?.stringValue }
        #expect(names.map(Set.init) == Set(Self.checkout))
        #expect(throws: InputError.self) {
            try Self.recording(
                [Self.requests(Self.checkout), Self.requests(["Checkout Started", "Order Completed"])],
                profile: Profile.builtIn("default"))
        }
    }

    @Test("an order the existing snapshot states is kept on re-recording one run, and learnt as any when runs disagree")
    func existingOrder() throws {
        let strict = try JSONDocument.parse(
            Array(#"{"name": "checkout", "order": "strict", "validator": "segment", "events": []}"#.utf8),
            file: "checkout.json")
        #expect(try Self.recording([Self.requests(Self.checkout)], existing: strict).snapshot["order"] == "strict")
        let disagreeing = [Self.requests(Self.checkout), Self.requests(Self.checkout.reversed())]
        #expect(try Self.recording(disagreeing, existing: strict).snapshot["order"] == "any")
    }

    /// PostHog's Python SDK on Linux (3.11, 7.91.1) and on a Mac (3.13, a newer release).
    static func posthog(os: String, version: String, runtime: String, distro: String?, revenue: String = "12.5")
        -> CapturedRequest
    {
        let distroMember = distro.map { #","$os_distro":"\#($0)""# } ?? ""
        return post(
            "https://us.i.posthog.com/batch/",
            json: #"""
                {"api_key":"phc_x","batch":[{"event":"order completed","distinct_id":"u-1","uuid":"\#(UUID().uuidString.lowercased())",
                "properties":{"revenue":\#(revenue),"$os":"\#(os)","$os_version":"\#(version)"\#(distroMember),"$python_version":"\#(runtime)",
                "$python_runtime":"CPython","$lib":"posthog-python","$lib_version":"\#(runtime == "3.11.7" ? "7.91.1" : "8.0.0")"}}]}
                """#)
    }

    @Test(
        "the profile's environment fields are left out and listed; recorded on Linux, the snapshot passes on a Mac, and a changed property is one finding"
    )
    func environmentLeftOut() throws {
        let linux = Self.posthog(os: "Linux", version: "12", runtime: "3.11.7", distro: "Debian GNU/Linux")
        let (snapshot, generalized) = try Self.recording([[linux]], profile: Profile.builtIn("posthog"))
        #expect(snapshot.at("/events/0/properties") == ["revenue": .number("12.5")], "\(snapshot)")
        let leftOut = Set(generalized.filter { $0.reason == "environment" }.map(\.path))
        #expect(
            leftOut.isSuperset(of: [
                "/events/0/properties/$$os", "/events/0/properties/$$lib", "/events/0/properties/$$python_runtime",
            ]), "\(generalized)")
        let mac = Self.posthog(os: "Mac OS X", version: "15.1", runtime: "3.13.1", distro: nil)
        #expect(try Self.findings(snapshot, [mac], profile: "posthog").isEmpty)
        let changed = Self.posthog(os: "Mac OS X", version: "15.1", runtime: "3.13.1", distro: nil, revenue: "13")
        #expect(try Self.findings(snapshot, [changed], profile: "posthog").map(\.code) == [.valueMismatch])
        // Through the default profile, at the request level, the same fields are left out.
        let (raw, _) = try Self.recording([[linux]], profile: Profile.builtIn("default"))
        #expect(raw.at("/requests/0/body/batch/0/properties/$$os") == nil)
        #expect(raw.at("/requests/0/body/batch/0/properties/revenue") == .number("12.5"))
        #expect(try Self.findings(raw, [mac], profile: "default").isEmpty)
        // A snapshot that lists an environment field still has it compared.
        let pinned = try JSONDocument.parse(
            Array(
                #"{"validator": "posthog", "events": [{"vendor": "posthog", "name": "order completed", "properties": {"$$os": "Linux"}}]}"#
                    .utf8), file: "pinned.json")
        #expect(
            SnapshotValidator().validate(
                try Snapshot.parse(document: pinned), requests: [mac], profile: try #require(Profile.builtIn("posthog"))
            ).findings.map(\.code) == [.valueMismatch])
    }

    @Test("an id made of literal text, the clock and a UUID is recorded as that pattern; ordinary ids stay literal")
    func embeddedVolatileParts() throws {
        let messageID = "ajs-next-\(Int(Self.time.timeIntervalSince1970 * 1000))-\(UUID().uuidString.lowercased())"
        var request = post(
            "https://collect.example/e", json: #"{"messageId":"\#(messageID)","order":"o-1001","sku":"sku-1"}"#)
        request.time = Self.time.ISO8601Format()
        let (snapshot, generalized) = try Self.recording([[request]], profile: Profile.builtIn("default"))
        #expect(
            snapshot.at("/requests/0/body/messageId")
                == ["$regex": #"ajs\-next\-[0-9]{13}\-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#])
        #expect(generalized.contains(Generalization(path: "/requests/0/body/messageId", reason: "epoch-ms+uuid")))
        #expect(snapshot.at("/requests/0/body/order") == "o-1001")
        #expect(snapshot.at("/requests/0/body/sku") == "sku-1")
    }
}
