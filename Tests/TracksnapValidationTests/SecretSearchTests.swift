import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport
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

    @Test(
        "a form percent-encoded whole in a query's value is searched as the form; a text encoded again and again is read once"
    )
    func percentEncodedForm() {
        let request = CapturedRequest(
            id: "1", method: "GET",
            url: "https://c.example/du?payload=access_token%253Dtk-9a8b7c6d%2526mail%253Dada%2540example.com")
        #expect(request.carriedSecrets == ["tk-9a8b7c6d"])
        let shown = Redactor(requests: [request]).redact(request.validationView).serialized()
        #expect(!shown.contains("tk-9a8b7c6d") && !shown.contains("ada"), "\(shown)")

        // Each decoding of `%25…` takes two bytes off: read whole, it would be a layer per escape.
        let deep = "%" + String(repeating: "25", count: 200_000) + "3Dx"
        #expect(Secrets.values(in: ["v": .string(deep)]).isEmpty)
    }

    @Test(
        "keys that name credentials: access and private keys, server session cookies, CSRF tokens; an analytics session id is no secret",
        arguments: [
            "accessKey", "aws_access_key", "private_key", "privateKey", "JSESSIONID", "PHPSESSID", "csrf", "bearer",
        ])
    func credentialNames(key: String) {
        #expect(Secrets.values(in: ["event": "login", .init(stringLiteral: key): "v-7a6b5c4d"]) == ["v-7a6b5c4d"])
        #expect(Secrets.isSecretHeader("X-Csrf") && Secrets.isSecretHeader("X-XSRF"))
        #expect(Secrets.values(in: ["sessionID": "s-7a6b5c4d", "session_id": "s-7a6b5c4e"]).isEmpty)
    }

    @Test("what a profile's redact names is hidden in every finding of a validation, as in a recorded snapshot")
    func profileRedactInReports() throws {
        try withTemporaryDirectory { directory in
            let validators = directory.appending(path: "Validators")
            try FileManager.default.createDirectory(at: validators, withIntermediateDirectories: true)
            try Data(#"{"extends": "default", "redact": ["/body/customer_ref"]}"#.utf8)
                .write(to: validators.appending(path: "shop.json"))
            let snapshot = directory.appending(path: "s.json")
            try Data(#"{"validator": "shop", "requests": [{"method": "GET", "url": "https://x.example/none"}]}"#.utf8)
                .write(to: snapshot)
            let request = CapturedRequest(
                id: "1", method: "POST", url: "https://x.example/e",
                headers: [.init(name: "Content-Type", value: "application/json")],
                body: .text(#"{"customer_ref": "c-9f8e7d6c5b", "note": "ref c-9f8e7d6c5b", "event": "buy"}"#))
            let result = try PreparedCheck(snapshotAt: snapshot.path).validate([request])
            #expect(!result.findings.isEmpty)
            for finding in result.findings {
                let shown = finding.message + (finding.actual?.serialized() ?? "")
                #expect(!shown.contains("c-9f8e7d6c5b"), "\(shown)")
            }
        }
    }

    @Test("plain text and values under ordinary keys carry no secret")
    func plainText() {
        #expect(
            Secrets.values(in: ["event": "Order Completed", "url": "https://shop.example/?q=shoes", "n": 3]).isEmpty)
        #expect(Secrets.cuts(in: "Order Completed", known: ["wk_123456"]) == [])
    }
}
