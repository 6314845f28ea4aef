import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapServer

/// What the inspector is sent of a request: personal data masked in the request and its events.
@Suite("The inspector's view of a request masks personal data")
struct InspectedPersonalDataTests {
    @Test("an email, a phone, a card and an advertising id, in a body and in base64, reach the inspector masked")
    func masked() {
        let inner = Data(#"{"event":"Signed Up","properties":{"tel":"+44 20 7946 0958","token":"mp_1"}}"#.utf8)
            .base64EncodedString()
        let segment = CapturedRequest(
            id: "1", method: "POST", url: "http://127.0.0.1:8181/v1/batch",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(
                #"{"batch":[{"type":"track","event":"Checkout","userId":"u","properties":{"contact":"ada@example.com","payment":"4111 1111 1111 1111"},"context":{"device":{"advertisingId":"6D92078A-8246-4BA4-AE5B-76104861E7DC"}}}]}"#
            ))
        let mixpanel = CapturedRequest(
            id: "2", method: "POST", url: "http://127.0.0.1:8181/track",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: .text("data=" + (inner.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? inner)))
        let redactor = Redactor(requests: [segment, mixpanel])
        let shown =
            InspectedRequest.json(segment, redactor: redactor) + InspectedRequest.json(mixpanel, redactor: redactor)
        for raw in ["ada@example.com", "4111 1111 1111 1111", "7946 0958", "6D92078A-8246-4BA4-AE5B-76104861E7DC"] {
            #expect(!shown.contains(raw), "\(raw) in \(shown)")
        }
        #expect(shown.contains("a***@example.com"), "\(shown)")
        #expect(shown.contains("E7DC"), "\(shown)")
        #expect(shown.contains("Signed Up"), "the base64 body no longer decodes: \(shown)")
    }

    @Test("the event carrying personal data lists it under privacy, masked; a request-level value under the request's")
    func privacy() throws {
        let request = CapturedRequest(
            id: "1", method: "POST", url: "http://127.0.0.1:8181/v1/batch?uid=ada%40example.com",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(
                #"{"batch":[{"type":"track","event":"Viewed","userId":"u","properties":{"sku":"SKU-1"}},{"type":"track","event":"Checkout","userId":"u","properties":{"contact":"bob@example.com"}}]}"#
            ))
        let text = InspectedRequest.json(request, redactor: Redactor(requests: [request]))
        let shown = try JSONDocument.parse(Array(text.utf8), file: "stream").value
        let events = shown["events"]?.arrayValue ?? []
        #expect(events.count == 2)
        #expect(events.first?["privacy"] == nil, "\(text)")
        let found = events.last?["privacy"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(found.count == 1 && found[0].hasPrefix("email: ") && found[0].contains("b***@example.com"), "\(text)")
        #expect(found.first?.contains("/properties/contact") == true, "\(text)")
        let own = shown["privacy"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(own.count == 1 && own[0].contains("a***@example.com"), "\(text)")
        #expect(!text.contains("bob@example.com") && !text.contains("ada@example.com"), "\(text)")
        // Nothing of the kind: no privacy member at all.
        let clean = CapturedRequest(
            id: "2", method: "POST", url: "http://127.0.0.1:8181/v1/track",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(#"{"type":"track","event":"Viewed","userId":"u","properties":{"price":12.5}}"#))
        #expect(!InspectedRequest.json(clean, redactor: Redactor(requests: [clean])).contains("privacy"))
    }

    @Test(
        "read with a profile, the personal data shown is what its policy finds: a field it allows is not listed; the built-in reading of the same observation still lists it"
    )
    func profilePolicy() throws {
        try withTemporaryDirectory { directory in
            try write(
                #"{"personalData": {"allow": {"email": ["/properties/contact"]}}}"#,
                to: directory.appending(path: "support.json"))
            let profile = try Profile.load("support", workspace: Workspace(validators: directory.path))
            let request = CapturedRequest(
                id: "1", method: "POST", url: "http://127.0.0.1:8181/v1/track",
                headers: [.init(name: "Content-Type", value: "application/json")],
                body: .text(
                    #"{"type":"track","event":"Checkout","userId":"u","properties":{"contact":"bob@example.com"}}"#))
            let observation = Observation()
            let redactor = Redactor(requests: [request])
            func privacy(_ reading: InspectedRequest.Reading) throws -> [JSONValue] {
                let text = InspectedRequest.json(
                    request, redactor: redactor, observation: observation, reading: reading)
                let shown = try JSONDocument.parse(Array(text.utf8), file: "stream").value
                return shown["events"]?.arrayValue?.map { $0["privacy"] ?? .null } ?? []
            }
            let builtIn = try privacy(.builtIn)
            #expect(builtIn.count == 1 && builtIn[0] != .null, "\(builtIn)")
            #expect(try privacy(InspectedRequest.Reading(profile)) == [.null])
            // The built-in reading's line and findings are still the observation's own.
            #expect(try privacy(.builtIn) == builtIn)
        }
    }
}
