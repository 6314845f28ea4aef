import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Recording never writes secrets")
struct RecordSecretsTests {
    /// A Segment-style request carrying its write key in a Basic header, the body, and a query.
    static let segment = CapturedRequest(
        id: "1", method: "POST", url: "https://api.segment.io/v1/batch?api_key=ak_QUERY_9f8e7d",
        headers: [
            .init(name: "Authorization", value: "Basic " + Data("wk_SEGMENT_1a2b3c:".utf8).base64EncodedString()),
            .init(name: "Cookie", value: "session=ck_COOKIE_77aa"),
            .init(name: "Proxy-Authorization", value: "Bearer px_PROXY_5566"),
            .init(name: "X-Api-Key", value: "xk_HEADER_0011"),
            .init(name: "Content-Type", value: "application/json"),
        ],
        body: .text(
            #"{"writeKey": "wk_SEGMENT_1a2b3c", "batch": [{"event": "Signed In", "context": {"auth": {"access_token": "at_NESTED_4455", "expires": 3600}}, "properties": {"password": "pw_PASSWORD_x", "secret_count": 2}}]}"#
        ))

    static let secrets = [
        "wk_SEGMENT_1a2b3c", "ak_QUERY_9f8e7d", "ck_COOKIE_77aa", "px_PROXY_5566", "xk_HEADER_0011", "at_NESTED_4455",
        "pw_PASSWORD_x",
        Data("wk_SEGMENT_1a2b3c:".utf8).base64EncodedString(),
    ]

    @Test(
        "secret headers, JSON keys at any depth and query keys become matchers, even when the profile records those headers"
    )
    func everywhere() throws {
        let profile = try recordingProfile(
            #"{"record": {"headers": ["Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key", "Content-Type"]}}"#
        )
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "segment.json").path
            let text = try record([Self.segment], profile: profile, to: path)
            for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) was written") }
            let entry = try #require(try json(at: path).at("/requests/0"))
            #expect(entry.at("/headers/authorization") == ["$type": "string"])
            #expect(entry.at("/headers/cookie") == ["$type": "string"])
            #expect(entry.at("/headers/proxy-authorization") == ["$type": "string"])
            #expect(entry.at("/headers/x-api-key") == ["$type": "string"])
            #expect(entry.at("/headers/content-type") == "application/json")
            #expect(entry.at("/parameters/api_key") == ["$type": "string"])
            #expect(entry.at("/body/writeKey") == ["$type": "string"])
            #expect(entry.at("/body/batch/0/context/auth/access_token") == ["$type": "string"])
            #expect(entry.at("/body/batch/0/context/auth/expires") == .number("3600"))
            #expect(entry.at("/body/batch/0/properties/password") == ["$type": "string"])
            #expect(
                entry.at("/body/batch/0/properties/secret_count") == ["$any": true],
                "a secret key's non-string value is $any")
            #expect(try validateFile(path, [Self.segment], profile: profile).findings.isEmpty)
        }
    }

    @Test("secret form fields become matchers and the form's raw text is not written")
    func formSecrets() throws {
        let request = form("https://t.example.com/collect", "t=event&client_secret=cs_FORM_8899&password=pw_FORM_0000")
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "form.json").path
            let text = try record([request], to: path)
            #expect(!text.contains("cs_FORM_8899") && !text.contains("pw_FORM_0000"))
            #expect(
                try json(at: path).at("/requests/0/parameters") == [
                    "t": "event", "client_secret": ["$type": "string"], "password": ["$type": "string"],
                ])
            #expect(try validateFile(path, [request]).findings.isEmpty)
        }
    }

    @Test("a key that is an email, a card number or a token is left out of the snapshot, which still passes")
    func keys() throws {
        let request = form(
            "https://t.example.com/collect",
            "t=event&planted.person%40example.org=1&4111111111111111=2&eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJl=3")
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "form.json").path
            let text = try record([request], to: path)
            for planted in ["planted.person", "4111111111111111", "eyJhbGciOiJIUzI1NiJ9"] {
                #expect(!text.contains(planted), "\(text)")
            }
            #expect(try json(at: path).at("/requests/0/parameters") == ["t": "event"])
            #expect(try validateFile(path, [request]).findings.isEmpty)
        }
    }

    @Test("a captured secret copied under an innocent name, into a URL or free text, is hidden by a pattern")
    func copiedSecrets() throws {
        let requests = [
            CapturedRequest(
                id: "1", method: "GET",
                url: "https://t.example.com/v1/projects/wk_COPIED_123456/track?key=wk_COPIED_123456",
                headers: [.init(name: "Authorization", value: "Bearer wk_COPIED_123456")]),
            CapturedRequest(
                id: "2", method: "POST", url: "https://t.example.com/log",
                body: .text("sent with wk_COPIED_123456 (retry)")),
        ]
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "copied.json").path
            let text = try record(requests, to: path)
            #expect(!text.contains("wk_COPIED_123456"))
            let snapshot = try json(at: path)
            #expect(snapshot.at("/requests/0/parameters/key") == ["$type": "string"])
            #expect(snapshot.at("/requests/0/url")?["$regex"] != nil)
            #expect(snapshot.at("/requests/1/body")?["$regex"] != nil)
            #expect(try validateFile(path, requests).findings.isEmpty)
        }
    }

    @Test(
        "the profile's redact rules add fields, by pointer and by bare key",
        arguments: [
            (#"["/body/context/ip"]"#, "/requests/0/body/context/ip"),
            (#"["client_id"]"#, "/requests/0/body/client_id"),
            (#"["/parameters/uid"]"#, "/requests/0/parameters/uid"),
        ])
    func redactRules(rules: String, pointer: String) throws {
        let profile = try recordingProfile(#"{"redact": \#(rules)}"#)
        let request = post(
            "https://t.example.com/track?uid=u-PRIVATE-1",
            json: #"{"client_id": "c-PRIVATE-2", "context": {"ip": "203.0.113.7"}}"#)
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "redact.json").path
            try record([request], profile: profile, to: path)
            #expect(try json(at: path).at(pointer) == ["$type": "string"])
            #expect(try validateFile(path, [request], profile: profile).findings.isEmpty)
        }
    }

    @Test("a profile's record and redact keys are checked")
    func profileKeys() throws {
        let profile = try recordingProfile(
            #"{"record": {"headers": ["X-Client"]}, "redact": ["/body/ip", "client_id"]}"#)
        #expect(profile.recordedHeaders == ["X-Client"])
        #expect(profile.redact.ignores(["body", "ip"]) && profile.redact.ignores(["body", "x", "client_id"]))
        #expect(throws: InputError.self) { try recordingProfile(#"{"record": {"header": ["X-Client"]}}"#) }
        #expect(throws: InputError.self) { try recordingProfile(#"{"record": {"headers": "X-Client"}}"#) }
        #expect(throws: InputError.self) { try recordingProfile(#"{"redact": "client_id"}"#) }
    }
}
