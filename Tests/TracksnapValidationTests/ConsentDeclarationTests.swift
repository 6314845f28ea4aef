import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

@Suite("A declared consent: read from a flag, a snapshot or a profile, and checked")
struct ConsentDeclarationTests {
    static let hit = CapturedRequest(
        id: "1", method: "POST",
        url: "https://region1.google-analytics.com/g/collect?v=2&tid=G-FX7T3K4Q9B&gcs=G111&cid=1.2&en=page_view",
        body: .text(""))
    static let adjust = CapturedRequest(
        id: "2", method: "POST", url: "https://app.adjust.com/event",
        headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
        body: .text(
            "app_token=abc123def456&event_token=xyz789&created_at=2026-11-21T08%3A00%3A00.000Z%2B0000"
                + "&idfa=6D92078A-8246-4BA4-AE5B-76104861E7DC"))

    func findings(_ snapshot: String, profile: String = "ga4", _ requests: [CapturedRequest] = [hit]) throws
        -> [Finding]
    {
        let parsed = try Snapshot.parse(Array(snapshot.utf8), file: "s.json")
        return try PreparedCheck(parsed, file: "s.json", profile: profile).validate(requests).findings
    }

    @Test("--consent reads a word or TYPE=STATE pairs, and names what it accepts otherwise")
    func parsing() throws {
        #expect(try ConsentDeclaration(parsing: "denied") == .all(.denied))
        #expect(
            try ConsentDeclaration(parsing: "ad_storage=denied, analytics_storage=granted").states == [
                "ad_storage": .denied, "analytics_storage": .granted,
            ])
        #expect(try ConsentDeclaration(parsing: "ad_storage=denied").description == "ad_storage=denied")
        #expect(throws: ConsentDeclarationError.self) { try ConsentDeclaration(parsing: "ads=denied") }
        #expect(throws: ConsentDeclarationError.self) { try ConsentDeclaration(parsing: "ad_storage=maybe") }
        #expect(throws: ConsentDeclarationError.self) { try ConsentDeclaration(parsing: "") }
    }

    @Test("a snapshot's consent is checked; the run's declaration wins over it; none declared checks nothing")
    func precedence() throws {
        let open = #"{"requests": [], "unexpected": "allow"}"#
        let denied = #"{"requests": [], "unexpected": "allow", "consent": "denied"}"#
        #expect(try findings(open).filter { $0.code == .consent }.isEmpty)
        let found = try findings(denied).filter { $0.code == .consent }
        #expect(found.map(\.path) == ["/parameters/gcs"])
        #expect(found.first?.severity == .error)
        #expect(found.first?.expected == ConsentDeclaration.all(.denied).json)
        let parsed = try Snapshot.parse(Array(denied.utf8), file: "s.json")
        let granted = try PreparedCheck(parsed, file: "s.json", profile: "ga4").declaring(consent: .all(.granted))
        #expect(granted.validate([Self.hit]).findings.filter { $0.code == .consent }.isEmpty)
        let perType = #"{"requests": [], "unexpected": "allow", "consent": {"analytics_storage": "granted"}}"#
        #expect(try findings(perType).filter { $0.code == .consent }.isEmpty, "ad_storage is not declared")
    }

    @Test("a bad consent in a snapshot is an error at its line and column, in validate and lint")
    func bad() throws {
        let text = "{\"requests\": [],\n \"consent\": {\"ads\": \"denied\"}}"
        let snapshot = try Snapshot.parse(Array(text.utf8), file: "s.json")
        #expect {
            _ = try PreparedCheck(snapshot, file: "s.json", profile: "ga4")
        } throws: { error in
            "\(error)".contains("s.json:2:") && "\(error)".contains("unknown consent type \"ads\"")
        }
        let document = try JSONDocument.parse(Array(text.utf8), file: "s.json")
        #expect(Validation.lint(document: document).contains { $0.message.contains("unknown consent type") })
    }

    @Test(
        "an advertising id is a personal_data warning when no consent is declared, allowed when ad storage is granted, one consent finding when denied"
    )
    func advertisingIDs() throws {
        let open = #"{"requests": [], "unexpected": "allow"}"#
        func codes(_ consent: String?) throws -> [FindingCode] {
            let snapshot = consent.map { #"{"requests": [], "unexpected": "allow", "consent": "\#($0)"}"# } ?? open
            return try findings(snapshot, profile: "adjust", [Self.adjust]).map(\.code)
        }
        #expect(try codes(nil) == [.personalData])
        #expect(try codes("granted") == [])
        #expect(try codes("denied") == [.consent])
    }
}
