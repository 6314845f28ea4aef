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
            "accessKey", "aws_access_key", "private_key", "privateKey", "JSESSIONID", "PHPSESSID", "csrf",
            "bearer", "passcode", "passphrase", "app_key", "appKey", "license_key", "client_key", "authKey",
            "session_key", "publishable_key", "auth_code", "mfa_code", "recovery_code", "Authentication",
        ])
    func credentialNames(key: String) {
        #expect(Secrets.values(in: ["event": "login", .init(stringLiteral: key): "v-7a6b5c4d"]) == ["v-7a6b5c4d"])
        for header in [
            "X-Csrf", "X-XSRF", "Authentication", "X-Authentication", "X-Bearer", "X-Pass", "X-Passcode", "X-Sessionid",
            "X-Auth-Code", "X-Firebase-AppCheck", "X-Device-Pin",
        ] {
            #expect(Secrets.isSecretHeader(header), "\(header)")
        }
        #expect(!Secrets.isSecretHeader("X-Country-Code") && !Secrets.isSecretHeader("X-Request-Id"))
        #expect(Secrets.values(in: ["sessionID": "s-7a6b5c4d", "session_id": "s-7a6b5c4e"]).isEmpty)
    }

    @Test(
        "a multipart form's fields and an XML element's text are searched like a form's; a field's personal data is found"
    )
    func multipartAndXML() {
        let multipart = CapturedRequest(
            id: "1", method: "POST", url: "https://api.example/v1/login",
            headers: [.init(name: "Content-Type", value: #"multipart/form-data; boundary="b-7d9""#)],
            body: .text(
                "--b-7d9\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\ncorrect-horse-77\r\n"
                    + "--b-7d9\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"a.json\"\r\n"
                    + "Content-Type: application/json\r\n\r\n{\"mail\":\"ada@example.com\"}\r\n--b-7d9--\r\n"))
        #expect(multipart.carriedSecrets == ["correct-horse-77"])
        #expect(multipart.multipartItems.map(\.name) == ["password", "avatar"])
        #expect(PersonalData.hits(in: multipart.validationView).map(\.pointer) == ["/body/avatar/mail"])
        let shown = Redactor(requests: [multipart]).redact(multipart.validationView).serialized()
        #expect(!shown.contains("correct-horse-77") && !shown.contains("ada@"), "\(shown)")

        let xml = "<login><user_password>correct horse 77</user_password><token>tk-5e6f7a8b</token></login>"
        #expect(Secrets.values(in: ["body": .string(xml)]) == ["correct horse 77", "tk-5e6f7a8b"])
        // A closing tag is followed by whatever comes next, which is no value.
        #expect(
            Secrets.values(in: ["body": .string("<a><password>p-1a2b3c</password>ordinary text</a>")]) == ["p-1a2b3c"])
        // Attributes, a namespace, spaces, CDATA, and an element a `name` attribute names.
        let shapes = """
            <e><password><![CDATA[pw-cdata-1]]></password><token attr="1">tk-attr-2</token>
            <password >pw-space-3</password><ns:password>pw-ns-4</ns:password>
            <password>
              pw-lines-5
            </password><field name="password">pw-field-6</field><empty-token/></e>
            """
        #expect(
            Secrets.values(in: ["body": .string(shapes)]) == [
                "pw-cdata-1", "tk-attr-2", "pw-space-3", "pw-ns-4", "pw-lines-5", "pw-field-6",
            ])
    }

    @Test("an HTML page's CSRF token is a secret; a URL in a Refresh or Link header is redacted as a URL")
    func htmlAndHeaderURLs() {
        let page =
            #"<meta name="csrf-token" content="c5f-1a2b3c4d"><input type="hidden" name="authenticity_token" value="at-5e6f7a8b">"#
        #expect(Secrets.values(in: ["body": .string(page)]) == ["c5f-1a2b3c4d", "at-5e6f7a8b"])
        let headers = Redactor(secrets: []).redact(headers: [
            .init(name: "Refresh", value: "0; url=https://app.example/cb?code=oc-7a8b9c0d&state=s1"),
            .init(name: "Link", value: "<https://app.example/cb?code=oc-1a2b3c4d>; rel=\"next\""),
        ])
        #expect(
            headers.map(\.value) == [
                "0; url=https://app.example/cb?code=%5Bredacted%5D&state=s1",
                "<https://app.example/cb?code=%5Bredacted%5D>; rel=\"next\"",
            ])
    }

    @Test("GA4's and Snowplow's session id is data: it is neither hidden nor cut out of other values")
    func analyticsSessionID() {
        let hit = CapturedRequest(
            id: "1", method: "POST",
            url: "https://www.google-analytics.com/g/collect?v=2&tid=G-1&cid=1398217362.1732176000&sid=1732176000")
        #expect(hit.carriedSecrets.isEmpty)
        let shown = Redactor(requests: [hit]).redact(hit.validationView)
        #expect(shown.value(atPointer: "/parameters/cid") == "1398217362.1732176000", "\(shown.serialized())")
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

    @Test(
        "a snapshot's own secrets and personal data are hidden in the expected values a report shows; a matcher stays")
    func expectedValues() throws {
        try withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "s.json")
            try Data(
                #"""
                {"requests": [{"method": "POST", "url": "https://x.example/e",
                  "headers": {"Authorization": "Bearer tk-PLANTED-1a2b", "X-Authentication": "tk-PLANTED-3c4d"},
                  "body": {"password": "tk-PLANTED-5e6f", "token": {"$type": "string"}, "contact": "planted.person@example.org",
                           "note": "tk-live-7a8b9c0d"}}]}
                """#.utf8
            ).write(to: snapshot)
            let request = CapturedRequest(
                id: "1", method: "POST", url: "https://x.example/e",
                headers: [
                    .init(name: "Content-Type", value: "application/json"),
                    .init(name: "X-Api-Key", value: "tk-live-7a8b9c0d"),
                ],
                body: .text(#"{"password": "other-pass-1", "token": 7, "contact": "x", "note": "y"}"#))
            let result = try PreparedCheck(snapshotAt: snapshot.path).validate([request])
            let shown = result.findings.map {
                [$0.message, $0.expected?.serialized() ?? "", $0.actual?.serialized() ?? ""]
            }
            #expect(result.findings.count == 6, "\(shown)")
            for text in shown.joined() {
                #expect(
                    !text.contains("PLANTED") && !text.contains("planted.person") && !text.contains("tk-live"),
                    "\(text)")
            }
            #expect(result.findings.first { $0.path.hasSuffix("/token") }?.expected == ["$type": "string"])
        }
    }

    @Test("a URL's user info password is a credential whatever its host; base64 in MIME's lines is read")
    func userInfoAndMIME() {
        #expect(Secrets.shapedCredentials(in: "db postgres://app:pw-7a8b9c@10.0.0.5:5432/db") == ["pw-7a8b9c"])
        #expect(Secrets.shapedCredentials(in: "cache redis://:rd-1a2b3c4d@cache:6379/0") == ["rd-1a2b3c4d"])
        #expect(Secrets.shapedCredentials(in: "see https://shop.example.com:8443/a@b").isEmpty)
        #expect(Secrets.shapedCredentials(in: "card 4111.1111.1111.1111") == ["4111.1111.1111.1111"])
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJl"
        #expect(Secrets.shapedCredentials(in: "token" + jwt) == [jwt], "glued to a word")
        #expect(
            Secrets.values(in: ["url": .string("/v1/auth/Bearer%20\(jwt)/x")]) == [jwt], "percent-encoded around it")
        #expect(
            Secrets.values(in: ["url": .string("/v1/k/id%3DAKIAIOSFODNN7PLANTED/x")]) == ["AKIAIOSFODNN7PLANTED"],
            "read where it is percent-encoded around")
        let json =
            #"{"note": "padding so that the base64 runs over one line", "token": "tk-5e6f7a8b", "email": "ada@example.com"}"#
        let mime = Data(json.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
        #expect(mime.contains("\n"))
        #expect(Secrets.values(in: ["blob": .string(mime)]) == ["tk-5e6f7a8b"])
        #expect(PersonalData.hits(in: ["blob": .string(mime)]).map(\.masked) == ["a***@example.com"])
    }

    @Test("plain text and values under ordinary keys carry no secret")
    func plainText() {
        #expect(
            Secrets.values(in: ["event": "Order Completed", "url": "https://shop.example/?q=shoes", "n": 3]).isEmpty)
        #expect(Secrets.cuts(in: "Order Completed", known: ["wk_123456"]) == [])
    }
}
