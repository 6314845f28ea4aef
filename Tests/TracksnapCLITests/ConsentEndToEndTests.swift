import Foundation
import Testing
import TracksnapTestSupport
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("tracksnap validate --consent checks every request against the user's declared choice")
struct ConsentEndToEndTests {
    /// A GA4 page_view as gtag.js sends it, with its Consent Mode (`gcs`, and `gcd` in step
    /// with it) or none; a client id only where analytics storage is granted or not governed.
    static func gtagHit(_ gcs: String?, id: Int, extra: String = "") -> String {
        var query =
            "v=2&tid=G-FX7T3K4Q9B&gtm=45je4bk0v9102476930za200&_p=1732176000123"
        if let gcs {
            // ad_storage, analytics_storage, ad_user_data, ad_personalization: denied by default
            // (p), updated to granted (r) or denied (q) by the banner.
            let ad = gcs.dropFirst(2).first == "1"
            let analytics = gcs.last == "1"
            let gcd =
                gcs == "G100"
                ? "13p3p3p3p5l1" : "13\(ad ? "r" : "q")3\(analytics ? "r" : "q")3\(ad ? "r" : "q")3\(ad ? "r" : "q")5l1"
            query += "&gcs=\(gcs)&gcd=\(gcd)&npa=\(ad ? 0 : 1)&dma=0"
        }
        if gcs == nil || gcs?.last == "1" { query += "&cid=1398217362.1732176000" }
        query +=
            "&ul=en-us&sr=1920x1080&frm=0&pscdl=noapi&_s=1&sid=1732176000&sct=1&seg=0&dl=https%3A%2F%2Fshop.example%2F&dt=Shop&en=page_view&_fv=1&_ss=1&tfd=512"
            + extra
        return
            #"{"body": "", "bodyEncoding": "text", "headers": [{"name": "Origin", "value": "https://shop.example"}], "id": ""#
            + String(id) + #"", "method": "POST", "url": "https://region1.google-analytics.com/g/collect?"# + query
            + #""}"#
    }

    func consentFindings(_ lines: [String], consent: String) async throws -> [ValidationReport.Finding] {
        try await withTemporaryDirectory { directory in
            let capture = directory.appending(path: "capture.ndjson")
            try (lines.joined(separator: "\n") + "\n").write(to: capture, atomically: true, encoding: .utf8)
            let run = try await tracksnap(
                "validate", "--validator", "ga4", "--capture", capture.path, "--consent", consent, "--format", "json")
            let report = try JSONDecoder().decode(ValidationReport.self, from: Data(run.stdout.utf8))
            let found = report.findings.filter { $0.code == "consent" }
            #expect(run.status == (found.isEmpty ? 0 : 1), "\(run.stderr)")
            return found
        }
    }

    static let declared = [
        "denied", "granted",
        "ad_storage=denied,analytics_storage=granted,ad_user_data=denied,ad_personalization=denied",
    ]

    @Test(
        "the Consent Mode matrix: G100, G110, G101, G111 and none under denied, granted and analytics-only",
        arguments: [
            // denied: only the cookieless ping passes; no gcs at all is consent mode not implemented.
            ("G100", 0, 0), ("G110", 0, 1), ("G101", 0, 1), ("G111", 0, 1), (nil, 0, 1),
            // granted: every denial the hit declares contradicts the user; no Consent Mode is no denial.
            ("G100", 1, 1), ("G110", 1, 1), ("G101", 1, 1), ("G111", 1, 0), (nil, 1, 0),
            // analytics only: G101 is the hit that agrees.
            ("G100", 2, 1), ("G110", 2, 1), ("G101", 2, 0), ("G111", 2, 1), (nil, 2, 1),
        ] as [(String?, Int, Int)])
    func matrix(_ gcs: String?, _ declared: Int, _ expected: Int) async throws {
        let found = try await consentFindings([Self.gtagHit(gcs, id: 1)], consent: Self.declared[declared])
        #expect(found.count == expected, "\(found.map(\.message))")
        if gcs == nil, expected == 1 { #expect(found.first?.message.contains("consent mode not implemented") == true) }
        if gcs == "G111", declared == 0 {
            #expect(found.first?.message.contains("ad_storage granted (the user denied it)") == true)
            #expect(found.first?.path == "/parameters/gcd")
        }
    }

    @Test(
        "Meta's _fbp, a click id and an advertising id under denied ad consent are one finding per request, and the advertising id is no personal_data warning then"
    )
    func identifiersUnderDenial() async throws {
        let pixel =
            #"{"body": "", "bodyEncoding": "text", "headers": [], "id": "2", "method": "GET", "url": "https://www.facebook.com/tr/?id=123456789&ev=PageView&dl=https%3A%2F%2Fshop.example%2F&fbp=fb.1.1732176000123.1234567890&v=2.9.176"}"#
        let gtag = Self.gtagHit("G100", id: 1, extra: "&gclid=Cj0KCQiA")
        let app =
            #"{"body": "app_token=abc123def456&event_token=xyz789&created_at=2026-11-21T08%3A00%3A00.000Z%2B0000&idfa=6D92078A-8246-4BA4-AE5B-76104861E7DC", "bodyEncoding": "text", "headers": [{"name": "Content-Type", "value": "application/x-www-form-urlencoded"}], "id": "3", "method": "POST", "url": "https://app.adjust.com/event"}"#
        for profile in ["default"] {
            try await withTemporaryDirectory { directory in
                let capture = directory.appending(path: "capture.ndjson")
                try ([gtag, pixel, app].joined(separator: "\n") + "\n").write(
                    to: capture, atomically: true, encoding: .utf8)
                let run = try await tracksnap(
                    "validate", "--validator", profile, "--capture", capture.path, "--consent", "denied", "--format",
                    "json")
                let report = try JSONDecoder().decode(ValidationReport.self, from: Data(run.stdout.utf8))
                let consent = report.findings.filter { $0.code == "consent" }
                #expect(consent.count == 3, "\(consent.map(\.message))")
                #expect(consent.contains { $0.message.contains("gclid at /parameters/gclid") })
                #expect(
                    consent.contains {
                        $0.message.contains("fbp at /context/fbp") || $0.message.contains("fbp at /parameters/fbp")
                    })
                #expect(consent.contains { $0.message.contains("advertising id ********-****-****-****-********E7DC") })
                #expect(
                    !report.findings.contains { $0.code == "personal_data" && $0.message.hasPrefix("advertising_id") })
                #expect(!run.stdout.contains("6D92078A-8246"), "the advertising id is masked")
            }
        }
    }

    @Test(
        "a TC string without purpose 1 for Google (755) fails a GA4 hit that sends a client id; with it, the hit passes"
    )
    func tcfPurposeOne() async throws {
        // Built by Tests/SDKs/build_tc_strings.py: purposes 2, 3, 4, 7; vendors 8–11, 755, 1000–1001.
        let withoutPurposeOne = "CO5uc8AO5uc8AALADCENCXFAAHIAAEIAAAYgH0wA4AEAAWAvOB9AH0gALABgAGAAoAA"
        let allPurposes =
            "CO5rKAAO5rKAAAKADCENCWFIAP_AAEPAAAYgGMsAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgAAAAAIF5gAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgAA"
        let denied = try await consentFindings(
            [Self.gtagHit("G111", id: 1, extra: "&gdpr=1&gdpr_consent=\(withoutPurposeOne)")], consent: "granted")
        #expect(denied.count == 1)
        #expect(denied.first?.message.contains("no consent for purpose 1") == true)
        #expect(denied.first?.message.contains("cid") == true)
        let granted = try await consentFindings(
            [Self.gtagHit("G111", id: 1, extra: "&gdpr=1&gdpr_consent=\(allPurposes)")], consent: "granted")
        #expect(granted.isEmpty, "\(granted.map(\.message))")
    }

    @Test("the control API's validate takes consent as a word, pairs or an object, over the snapshot's own")
    func controlAPI() async throws {
        let server = try await ServeChild.launch()
        defer { server.stop() }
        let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
        let hit = "/g/collect?v=2&tid=G-FX7T3K4Q9B&gcs=G111&gcd=13r3r3r3r5l1&cid=1398217362.1732176000&en=page_view"
        var request = URLRequest(url: try #require(URL(string: server.base + hit)))
        request.httpMethod = "POST"
        request.httpBody = Data()
        _ = try await URLSession(configuration: .ephemeral).data(for: request)
        _ = try await server.call("GET", "sessions/\(session)/requests?count=1&timeout=30")
        func validate(_ consent: Any?, snapshotConsent: String? = nil) async throws -> [ValidationReport.Finding] {
            var snapshot: [String: Any] = ["requests": [], "unexpected": "allow"]
            if let snapshotConsent { snapshot["consent"] = snapshotConsent }
            var body: [String: Any] = ["snapshotContent": snapshot, "validator": "ga4", "settle": 0]
            if let consent { body["consent"] = consent }
            let answer = try await server.call(
                "POST", "sessions/\(session)/validate", body: try JSONSerialization.data(withJSONObject: body))
            return try JSONDecoder().decode(ValidationReport.self, from: answer).findings.filter {
                $0.code == "consent"
            }
        }
        #expect(try await validate("denied").map(\.path) == ["/parameters/gcd"])
        #expect(try await validate(["ad_storage": "granted", "analytics_storage": "denied"]).count == 1)
        #expect(try await validate("granted").isEmpty)
        #expect(try await validate(nil).isEmpty, "no declaration, no consent check")
        #expect(try await validate(nil, snapshotConsent: "denied").count == 1, "the snapshot's own consent")
        #expect(try await validate("granted", snapshotConsent: "denied").isEmpty, "the call's consent wins")
        let bad = try JSONSerialization.data(withJSONObject: [
            "snapshotContent": ["requests": []], "consent": ["ad_storage": "maybe"],
        ])
        await #expect(throws: (any Error).self) {
            _ = try await server.call("POST", "sessions/\(session)/validate", body: bad)
        }
    }

    @Test("a bad --consent stops validate with exit 2 naming what it accepts")
    func badDeclaration() async throws {
        let run = try await tracksnap(
            "validate", "--validator", "ga4", "--capture", "Snapshots/examples/captures/ga4.ndjson", "--consent",
            "maybe")
        #expect(run.status == 2)
        #expect(run.stderr.contains("--consent: \"maybe\" is not a consent declaration"))
    }
}
