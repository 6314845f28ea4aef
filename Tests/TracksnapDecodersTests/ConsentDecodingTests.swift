import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapTestSupport
import TracksnapTraffic

@Suite("Consent signals are decoded from what a request carries")
struct ConsentDecodingTests {
    /// What iab-tcf read back from a TC string Tests/SDKs/build_tc_strings.py built.
    struct IABCase: Decodable {
        let name: String
        let string: String
        let version: Int
        let cmp_id: Int
        let cmp_version: Int
        let consent_screen: Int
        let consent_language: String
        let vendor_list_version: Int
        let policy_version: Int
        let publisher_cc: String
        let special_features: [Int]
        let purposes_consent: [Int]
        let purposes_li: [Int]
        let vendors_consent: [Int]
        let vendors_li: [Int]
        let range_encoded: Bool
    }

    @Test(
        "TC strings built from the TCF specification decode to what iab-tcf reads: purposes, vendors (bitfield and ranges), CMP, policy"
    )
    func agreesWithIABTCF() async throws {
        let python = try PackagePaths.sdkPython(for: "iab-tcf")
        let script = PackagePaths.sdks.appending(path: "build_tc_strings.py").path
        let run = try await runProcess(python, [script], timeout: Bounds.process)
        #expect(run.status == 0, "build_tc_strings.py failed: \(run.stderr)")
        let cases = try JSONDecoder().decode([IABCase].self, from: Data(run.stdout.utf8))
        #expect(cases.count == 4)
        #expect(Set(cases.map(\.range_encoded)) == [true, false], "both vendor encodings are covered")
        for expected in cases {
            let tc = try TCString(expected.string)
            #expect(tc.version == expected.version, "\(expected.name)")
            #expect(tc.cmpID == expected.cmp_id, "\(expected.name)")
            #expect(tc.cmpVersion == expected.cmp_version, "\(expected.name)")
            #expect(tc.consentScreen == expected.consent_screen, "\(expected.name)")
            #expect(tc.consentLanguage == expected.consent_language, "\(expected.name)")
            #expect(tc.vendorListVersion == expected.vendor_list_version, "\(expected.name)")
            #expect(tc.policyVersion == expected.policy_version, "\(expected.name)")
            #expect(tc.publisherCountryCode == expected.publisher_cc, "\(expected.name)")
            #expect(tc.specialFeatureOptIns == expected.special_features, "\(expected.name)")
            #expect(tc.purposesConsent == expected.purposes_consent, "\(expected.name)")
            #expect(tc.purposesLegitimateInterest == expected.purposes_li, "\(expected.name)")
            #expect(tc.vendorConsents == expected.vendors_consent, "\(expected.name)")
            #expect(tc.vendorLegitimateInterests == expected.vendors_li, "\(expected.name)")
            // The same string in a request's gdpr_consent reaches the event's consent.
            let request = CapturedRequest(
                id: "1", method: "GET",
                url: "https://www.google-analytics.com/g/collect?v=2&tid=G-1&en=page_view&gdpr=1&gdpr_consent="
                    + expected.string)
            let event = try #require(Decoders.decode(request).events.first)
            #expect(event.consent?.tcf?.vendorConsents == expected.vendors_consent)
            #expect(event.consent?.gdprApplies == true)
        }
    }

    @Test("a TC string cut short, bit-flipped or of garbage is a decode error naming the field, never a crash")
    func badTCStrings() throws {
        let valid = "CO5uc8AO5uc8AALADCENCXFAAHIAAEIAAAYgH0wA4AEAAWAvOB9AH0gALABgAGAAoAA"
        #expect(throws: Never.self) { try TCString(valid) }
        // Every prefix that stops inside the core segment is an error that names a field and its bit.
        for length in 0..<valid.count - 2 {  // the core segment ends in the 65th character
            let prefix = String(valid.prefix(length))
            do {
                _ = try TCString(prefix)
                Issue.record("\(prefix) decoded")
            } catch {
                #expect(error.message.hasPrefix("TC string: "), "\(error)")
                #expect(length == 0 || error.message.contains(" at bit "), "\(error)")
            }
        }
        #expect(throws: ConsentDecodeError("TC string: character 3 (\"!\") is not base64url")) {
            try TCString("CO!")
        }
        #expect(throws: ConsentDecodeError("TC string: Version at bit 0 is 1; only TCF v2 (version 2) is read")) {
            try TCString("BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA")
        }
        // Seeded garbage and bit flips: each either decodes or throws; none crashes.
        var generator = SeededGenerator(seed: 31)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~=+/ é")
        for _ in 0..<2000 {
            var text = Array(valid)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let at = Int.random(in: 0..<text.count, using: &generator)
                text[at] = alphabet.randomElement(using: &generator) ?? "A"
            }
            if Bool.random(using: &generator) {
                text += (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator) ?? "A"
                }
            }
            _ = try? TCString(String(text))
            _ = try? GPPString("DBABMA~" + String(text))
        }
    }

    @Test(
        "gcs reads ad_storage and analytics_storage as G1 then 1, 0 or -",
        arguments: [
            ("G100", ConsentState.denied, ConsentState.denied), ("G110", .granted, .denied),
            ("G101", .denied, .granted), ("G111", .granted, .granted),
        ])
    func gcs(_ value: String, _ ad: ConsentState, _ analytics: ConsentState) throws {
        let signals = try #require(ConsentSignals(request("gcs=" + value)))
        #expect(signals.google?.state(of: "ad_storage") == ad)
        #expect(signals.google?.state(of: "analytics_storage") == analytics)
        #expect(signals.json["google"]?["gcs"]?["ad_storage"] == .string(ad.rawValue))
    }

    @Test(
        "gcd's letters are each type's default and update: l none, p denied, q denied then denied, r denied then granted, t granted, u granted then denied, v granted, m and n an update alone"
    )
    func gcd() throws {
        let signals = try #require(ConsentSignals(request("gcd=13r3p3u3m5l1&gcs=G111")))
        let google = try #require(signals.google)
        #expect(google.gcdSettings["ad_storage"] == .init(byDefault: .denied, update: .granted))
        #expect(google.gcdSettings["analytics_storage"] == .init(byDefault: .denied, update: nil))
        #expect(google.gcdSettings["ad_user_data"] == .init(byDefault: .granted, update: .denied))
        #expect(google.gcdSettings["ad_personalization"] == .init(byDefault: nil, update: .denied))
        // gcd, which knows defaults and updates, wins over gcs.
        #expect(google.state(of: "analytics_storage") == .denied)
        #expect(google.state(of: "ad_storage") == .granted)
        let letters: [(Character, ConsentState?, ConsentState?)] = [
            ("l", nil, nil), ("p", .denied, nil), ("q", .denied, .denied), ("r", .denied, .granted),
            ("t", .granted, nil), ("u", .granted, .denied), ("v", .granted, .granted), ("m", nil, .denied),
            ("n", nil, .granted),
        ]
        for (letter, byDefault, update) in letters {
            let one = try #require(ConsentSignals(request("gcd=11\(letter)1\(letter)1\(letter)1\(letter)5")))
            let setting = one.google?.gcdSettings["ad_personalization"]
            #expect(setting?.byDefault == byDefault && setting?.update == update, "\(letter)")
        }
        let bad = try #require(ConsentSignals(request("gcs=G2x1&gcd=1")))
        #expect(bad.json["errors"]?.arrayValue?.count == 2)
    }

    @Test("npa, dma and dma_cps are kept; npa=1 denies ad_personalization")
    func npaAndDMA() throws {
        let signals = try #require(ConsentSignals(request("npa=1&dma=1&dma_cps=syphamo")))
        #expect(signals.google?.state(of: "ad_personalization") == .denied)
        #expect(signals.json["google"] == ["npa": "1", "dma": "1", "dma_cps": "syphamo"])
    }

    @Test(
        "us_privacy is four characters; GPP's header gives its version and sections, and its TCF section is read as a TC string"
    )
    func usPrivacyAndGPP() throws {
        let us = try USPrivacy("1YYN")
        #expect(us.notice == "Y" && us.optedOutOfSale == "Y" && us.lspaCovered == "N")
        #expect(throws: ConsentDecodeError("us_privacy \"1YXN\": character 3 is not Y, N or -")) {
            try USPrivacy("1YXN")
        }
        #expect(throws: ConsentDecodeError("us_privacy \"1YN\" has 3 characters, not 4")) { try USPrivacy("1YN") }
        let tc = "CO5uc8AO5uc8AALADCENCXFAAHIAAEIAAAYgH0wA4AEAAWAvOB9AH0gALABgAGAAoAA"
        let gpp = try GPPString("DBABMA~" + tc)
        #expect(gpp.version == 1 && gpp.sections == [2])
        let signals = try #require(ConsentSignals(request("gpp=DBABMA~\(tc)&gpp_sid=2&us_privacy=1YNN")))
        #expect(signals.tcf?.purposesConsent == [2, 3, 4, 7])
        #expect(signals.gppSectionIDs == [2])
        #expect(signals.json["gpp"] == ["version": 1, "sections": [2], "gpp_sid": [2]])
        #expect(signals.json["us_privacy"]?["opt_out_sale"] == "N")
        #expect(throws: ConsentDecodeError("GPP string: its header names 1 section, it holds 0")) {
            try GPPString("DBABMA")
        }
        let broken = try #require(ConsentSignals(request("gdpr_consent=CO!!&us_privacy=2")))
        #expect(broken.tcf == nil && broken.usPrivacy == nil)
        #expect(broken.errors.count == 2)
        #expect(broken.errors.first?.hasPrefix("gdpr_consent: TC string: character 3") == true)
    }

    @Test(
        "a cookie's euconsent-v2 and a JSON body's top-level us_privacy are read too; events carry the signals outside their validation view"
    )
    func cookiesAndJSON() throws {
        let tc = "CO5uc8AO5uc8AALADCENCXFAAHIAAEIAAAYgH0wA4AEAAWAvOB9AH0gALABgAGAAoAA"
        let withCookie = CapturedRequest(
            id: "1", method: "GET", url: "https://www.google-analytics.com/g/collect?v=2&tid=G-1&en=page_view&gcs=G100",
            headers: [.init(name: "Cookie", value: "_ga=GA1.1.1; euconsent-v2=\(tc)")])
        let event = try #require(Decoders.decode(withCookie).events.first)
        #expect(event.consent?.tcf?.vendorConsents.contains(755) == true)
        #expect(event.consent?.google?.state(of: "ad_storage") == .denied)
        #expect(event.validationView["consent"] == nil)
        let json = CapturedRequest(
            id: "2", method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(#"{"us_privacy": "1YYY", "batch": [{"type": "track", "event": "A", "messageId": "m"}]}"#))
        #expect(Decoders.decode(json).events.first?.consent?.usPrivacy?.optedOutOfSale == "Y")
        let none = CapturedRequest(
            id: "3", method: "GET", url: "https://www.google-analytics.com/g/collect?v=2&tid=G-1&en=x")
        #expect(Decoders.decode(none).events.first?.consent == nil)
    }

    private func request(_ query: String) -> CapturedRequest {
        CapturedRequest(id: "1", method: "GET", url: "https://www.google-analytics.com/g/collect?v=2&" + query)
    }
}

extension ConsentSignals {
    fileprivate init?(_ request: CapturedRequest) {
        guard let signals = ConsentSignals.read(request) else { return nil }
        self = signals
    }
}
