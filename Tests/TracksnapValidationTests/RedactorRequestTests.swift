import Foundation
import Testing
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// One request, redacted in the company of those it was captured with.
private func redacted(_ request: CapturedRequest, among others: [CapturedRequest] = []) -> CapturedRequest {
    Redactor(requests: [request] + others).redact(request)
}

@Suite("Captured requests leave with their secrets hidden and the rest as sent")
struct RedactorRequestTests {
    @Test("a request without secrets is left byte for byte")
    func untouched() {
        let request = CapturedRequest(
            id: "1", method: "POST", url: "https://api.example.com/v1/t?ev=view&tag=a+b",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(#"{ "event" : "Order Completed" }"#))
        #expect(redacted(request) == request)
    }

    @Test("secrets in the URL: a query key, user info, a copy of a header's token in the path")
    func url() {
        let token = "tok_9a8b7c6d5e"
        let request = CapturedRequest(
            id: "1", method: "GET",
            url: "https://ada:pw-123456@api.example.com/v1/\(token)/t?api_key=k%2B123456&ev=view#frag",
            headers: [.init(name: "Authorization", value: "Bearer \(token)")])
        let url = redacted(request).url
        #expect(
            url == "https://[redacted]@api.example.com/v1/[redacted]/t?api_key=%5Bredacted%5D&ev=view#frag", "\(url)")
    }

    @Test("an advertising id found by its field is masked in the URL it came in, and in a body field beside it")
    func fieldFoundPersonalData() {
        let idfa = "6D92078A-8246-4BA4-AE5B-76104861E7DC"
        let request = CapturedRequest(
            id: "1", method: "POST", url: "https://app.adjust.com/attribution?idfa=\(idfa)&os_name=ios",
            headers: [.init(name: "Content-Type", value: "application/json")], body: .text(#"{"device": "\#(idfa)"}"#))
        let shown = redacted(request)
        #expect(shown.url == "https://app.adjust.com/attribution?idfa=********-****-****-****-********E7DC&os_name=ios")
        #expect(shown.bodyText == #"{"device":"********-****-****-****-********E7DC"}"#, "\(shown.bodyText ?? "")")
    }

    @Test("an email percent-encoded in a URL's path is masked; a header's token percent-encoded in it is cut out")
    func percentEncodedPath() {
        let request = CapturedRequest(
            id: "1", method: "GET", url: "https://api.example.com/v1/users/ada.l%40example.org/t/tk%2Fq9%2Bcp1zz%3D%3D",
            headers: [.init(name: "Authorization", value: "Bearer tk/q9+cp1zz==")])
        #expect(PersonalData.hits(in: request.validationView).map(\.masked) == ["a***@example.org"])
        #expect(redacted(request).url == "https://api.example.com/v1/users/a***@example.org/t/[redacted]")
    }

    @Test("a query is split on the byte `&`, as its parameters are read: a combining mark after it starts a field")
    func combiningMarkAfterAmpersand() {
        // "&\u{301}" is one Character: split on Characters, the query below has one field (ev),
        // and the secret after it was searched as part of ev's value, not as a field's.
        let request = CapturedRequest(
            id: "1", method: "GET", url: "https://api.example.com/t?ev=view&\u{301}token=tk-5a6b7c8d")
        #expect(request.parameters.map(\.name) == ["ev", "\u{301}token"])
        let url = redacted(request).url
        #expect(url == "https://api.example.com/t?ev=view&\u{301}token=%5Bredacted%5D", "\(url)")
    }

    @Test("base64url JSON without padding in a form field stays base64url of the redacted JSON")
    func base64URLForm() throws {
        let json = #"{"properties":{"token":"mp_abcdef123456","plan":"pro??"}}"#
        let encoded = Data(json.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                of: "=", with: "")
        try #require(encoded.contains("_"), "the field must read as base64url for the check below to mean anything")
        let request = CapturedRequest(
            id: "1", method: "POST", url: "https://api.example.com/track",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: .text("data=\(encoded)&ip=1"))
        let body = try #require(redacted(request).bodyText)
        #expect(!body.contains(encoded))
        let field = try #require(body.split(separator: "&").first?.dropFirst("data=".count))
        #expect(
            !field.contains("=") && !field.contains("+") && !field.contains("/"), "still unpadded base64url: \(field)")
        var standard = field.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        let inner = String(decoding: try #require(Data(base64Encoded: standard)), as: UTF8.self)
        #expect(inner == #"{"properties":{"plan":"pro??","token":"[redacted]"}}"#)
        #expect(body.hasSuffix("&ip=1"))
    }

    @Test("a bearer token that is itself base64 JSON is hidden where it is copied, not re-encoded")
    func tokenThatDecodes() {
        let token = Data(#"{"sub":"user-42","scope":"write"}"#.utf8).base64EncodedString()
        let request = CapturedRequest(
            id: "1", method: "POST", url: "https://api.example.com/t",
            headers: [
                .init(name: "Authorization", value: "Bearer \(token)"),
                .init(name: "Content-Type", value: "application/json"),
            ],
            body: .text(#"{"session":"\#(token)","event":"x"}"#))
        let safe = redacted(request)
        #expect(safe.header("Authorization") == "[redacted]")
        #expect(safe.bodyText?.contains(token) == false, "\(safe.bodyText ?? "")")
        #expect(safe.bodyText?.contains(#""event":"x""#) == true)
    }

    @Test(
        "a credential written after its scheme in text (a log line's Authorization: Bearer …) is hidden, the scheme kept",
        arguments: ["Bearer", "bearer", "Basic", "Token"])
    func schemeInText(scheme: String) throws {
        let token = "tk9f8e7d6c5b"
        for body in [
            #"{"log":"curl -H Authorization: \#(scheme) \#(token) https://x.example"}"#,
            "curl -H 'Authorization: \(scheme) \(token)'",
        ] {
            let request = CapturedRequest(
                id: "1", method: "POST", url: "https://logs.example/l",
                headers: [.init(name: "Content-Type", value: "application/json")], body: .text(body))
            let safe = try #require(redacted(request).bodyText)
            #expect(!safe.contains(token), "\(safe)")
            #expect(safe.contains("Authorization: \(scheme) [redacted]"), "\(safe)")
        }
    }

    @Test("a header's token copied inside base64 JSON under an ordinary key is hidden, the field whole")
    func knownSecretInsideBase64() throws {
        let token = "tk-1a2b3c4d5e6f"
        let encoded = Data(#"{"n":"\#(token)","plan":"pro"}"#.utf8).base64EncodedString()
        let request = CapturedRequest(
            id: "1", method: "POST", url: "https://api.example.com/t",
            headers: [
                .init(name: "Authorization", value: "Bearer \(token)"),
                .init(name: "Content-Type", value: "application/json"),
            ],
            body: .text(#"{"z":"\#(encoded)","event":"x"}"#))
        let body = try #require(redacted(request).bodyText)
        #expect(!body.contains(encoded), "\(body)")
        #expect(body.contains(#""event":"x""#), "\(body)")
    }

    @Test("a binary body keeps its bytes but for a captured secret it contains")
    func binary() throws {
        let secret = "sk_live_0011223344"
        let bytes: [UInt8] = [0xFF, 0x00] + Array(secret.utf8) + [0xFE]
        let request = CapturedRequest(
            id: "1", method: "POST", url: "https://x.example/p", body: .base64(Data(bytes).base64EncodedString()))
        let other = CapturedRequest(
            id: "2", method: "GET", url: "https://x.example/q", headers: [.init(name: "X-Api-Key", value: secret)])
        let safe = try #require(redacted(request, among: [other]).bodyBytes)
        #expect(safe == [0xFF, 0x00] + Array("[redacted]".utf8) + [0xFE])
    }

    @Test(
        "beside a request read back from a journal, which shows [redacted], a live request is redacted as it is alone: its secret and personal data hidden, the rest kept"
    )
    func besideRedactedRequest() throws {
        let fromJournal = CapturedRequest(
            id: "1", method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [.init(name: "Authorization", value: "[redacted]")],
            body: .text(
                #"{"writeKey":"[redacted]","batch":[{"type":"track","event":"Signed Up","context":{"ip":"203.*.*.*"}}]}"#
            ),
            ingested: true)
        let live = CapturedRequest(
            id: "2", method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(
                #"{"writeKey": "wk_live_77aa88bb99", "batch": [{"type": "track", "event": "Order Completed", "context": {"ip": "203.0.113.7"}}]}"#
            ))
        let alone = try #require(redacted(live).bodyText)
        let beside = try #require(redacted(live, among: [fromJournal]).bodyText)
        #expect(beside == alone)
        #expect(!beside.contains("wk_live_77aa88bb99") && !beside.contains("203.0.113.7"), "\(beside)")
        #expect(beside.contains("Order Completed"), "\(beside)")
        #expect(redacted(fromJournal, among: [live]) == fromJournal, "what is already hidden stays as it is")
    }
}
