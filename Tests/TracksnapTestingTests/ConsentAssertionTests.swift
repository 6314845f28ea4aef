import Foundation
import Testing
import TracksnapDecoders
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapTesting

@Suite("assertTracking checks the traffic against the consent the test declares")
struct ConsentAssertionTests {
    @Test(
        "a GA4 hit that says granted fails the test under consent: .all(.denied) with a consent finding, and passes without it"
    )
    func declaredDenial() throws {
        try withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "any.json")
            try #"{"validator": "ga4", "requests": [], "unexpected": "allow"}"#.write(
                to: snapshot, atomically: true, encoding: .utf8)
            let hit = CapturedRequest(
                id: "1", method: "POST",
                url:
                    "https://region1.google-analytics.com/g/collect?v=2&tid=G-FX7T3K4Q9B&gcs=G111&cid=1.2&en=page_view",
                body: .text(""))
            #expect(assertTracking([hit], matches: snapshot.path, record: .never)?.passed == true)
            var result: SnapshotResult?
            withKnownIssue {
                result = assertTracking([hit], matches: snapshot.path, consent: .all(.denied), record: .never)
            } matching: { issue in
                text(of: issue).contains("contradicted: ga4 hit: its Consent Mode (gcs=G111)")
            }
            #expect(result?.findings.map(\.code) == [.consent])
        }
    }
}
