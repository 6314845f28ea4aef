import Foundation
import Testing
import TracksnapJSON
import TracksnapValidation

@Suite("Secrets are found where they are, and nowhere else")
struct SecretSearchTests {
    @Test("a Basic header's decoded key and a cookie's value are credentials")
    func credentials() {
        let basic = "Basic " + Data("user:pass1234".utf8).base64EncodedString()
        #expect(Set(Secrets.credentials(inHeaderValue: basic)).isSuperset(of: ["user", "pass1234", "user:pass1234"]))
        #expect(Secrets.credentials(inHeaderValue: "a=1; sid=abcdef").contains("abcdef"))
    }

    @Test("plain text and values under ordinary keys carry no secret")
    func plainText() {
        #expect(
            Secrets.values(in: ["event": "Order Completed", "url": "https://shop.example/?q=shoes", "n": 3]).isEmpty)
        #expect(Secrets.cuts(in: "Order Completed", known: ["wk_123456"]) == [])
    }
}
