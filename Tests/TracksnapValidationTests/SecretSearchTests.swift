import Foundation
import Testing
import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

@Suite("Secrets are found where they are, and nowhere else")
struct SecretSearchTests {
    @Test("a Basic header's decoded key and a cookie's value are credentials")
    func credentials() {
        let basic = "Basic " + Data("user:pass1234".utf8).base64EncodedString()
        #expect(Set(Secrets.credentials(inHeaderValue: basic)).isSuperset(of: ["user", "pass1234", "user:pass1234"]))
        #expect(Secrets.credentials(inHeaderValue: "a=1; sid=abcdef").contains("abcdef"))
    }

    @Test(
        "an OAuth code in a URL's query is a secret wherever the request's values are shown; a coupon's code in a body is not"
    )
    func queryCode() {
        let callback = CapturedRequest(
            id: "1", method: "POST", url: "https://app.example/callback?code=4%2F0AbCdEf123&state=s-1",
            headers: [.init(name: "Content-Type", value: "application/json")], body: .text(#"{"code":"SUMMER10"}"#))
        #expect(callback.carriedSecrets == ["4/0AbCdEf123"])
        let shown = Redactor(requests: [callback]).redact(callback.validationView)
        #expect(shown.value(atPointer: "/parameters/code") == "[redacted]", "\(shown.serialized())")
        #expect(shown.value(atPointer: "/body/code") == "SUMMER10", "\(shown.serialized())")
    }

    @Test("plain text and values under ordinary keys carry no secret")
    func plainText() {
        #expect(
            Secrets.values(in: ["event": "Order Completed", "url": "https://shop.example/?q=shoes", "n": 3]).isEmpty)
        #expect(Secrets.cuts(in: "Order Completed", known: ["wk_123456"]) == [])
    }
}
