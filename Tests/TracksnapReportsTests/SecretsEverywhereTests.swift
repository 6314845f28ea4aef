import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapReports
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

/// One secret planted in one encoding: the requests that carry it, and the texts that would
/// give it away (the secret itself, and the encoded form the request carries it in).
struct PlantedSecret: CustomTestStringConvertible, Sendable {
    var kind: String
    var secret: String
    var request: CapturedRequest
    var encodedForms: [String] = []

    var testDescription: String { kind }
    var giveaways: [String] { [secret] + encodedForms }

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
    static func base64url(_ text: String) -> String {
        base64(text).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func all() throws -> [PlantedSecret] {
        let mixpanel = #"{"event":"Signed Up","properties":{"token":"mp_B64FORM_445566","plan":"pro"}}"#
        let urlsafe = #"{"e":"view","k":{"api_key":"ak_B64URL_>?>?>?_112233"}}"#
        let gzipped = try gzipped(Data(#"{"batch":[{"event":"x","writeKey":"wk_GZIP_998877"}]}"#.utf8))
            .base64EncodedString()
        return [
            PlantedSecret(
                kind: "JSON in a form field", secret: "tk_FORMJSON_123456",
                request: CapturedRequest(
                    id: "1", method: "POST", url: "https://t.example.com/collect",
                    headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                    body: .text(
                        "v=2&data=" + FormEncoding.encode(#"{"event":"x","properties":{"token":"tk_FORMJSON_123456"}}"#)
                    ))),
            PlantedSecret(
                kind: "JSON in a query parameter", secret: "ak_QUERYJSON_778899",
                request: CapturedRequest(
                    id: "1", method: "GET",
                    url: "https://t.example.com/e?payload="
                        + FormEncoding.encode(#"{"api_key":"ak_QUERYJSON_778899","n":1}"#))),
            PlantedSecret(
                kind: "base64 JSON in a form field", secret: "mp_B64FORM_445566",
                request: CapturedRequest(
                    id: "1", method: "POST", url: "https://api.mixpanel.example/track",
                    headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                    body: .text("data=" + FormEncoding.encode(base64(mixpanel)))),
                encodedForms: [base64(mixpanel)]),
            PlantedSecret(
                kind: "unpadded base64url JSON in a query parameter", secret: "ak_B64URL_>?>?>?_112233",
                request: CapturedRequest(
                    id: "1", method: "GET", url: "https://t.example.com/i?d=" + base64url(urlsafe)),
                encodedForms: [base64url(urlsafe)]),
            PlantedSecret(
                kind: "gzip JSON in base64 in a JSON body", secret: "wk_GZIP_998877",
                request: CapturedRequest(
                    id: "1", method: "POST", url: "https://t.example.com/v1/b",
                    headers: [.init(name: "Content-Type", value: "application/json")],
                    body: .text(#"{"compressed": "\#(gzipped)"}"#)),
                encodedForms: [gzipped]),
            PlantedSecret(
                kind: "a raw body that does not parse", secret: "wk_TRUNCATED_5544",
                request: CapturedRequest(
                    id: "1", method: "POST", url: "https://t.example.com/v1/batch",
                    body: .text(#"{"writeKey": "wk_TRUNCATED_5544", "batch": [{"event": "Order Compl"#))),
            PlantedSecret(
                kind: "a bearer token copied into a URL path and a body field", secret: "bt_COPIED_667788",
                request: CapturedRequest(
                    id: "1", method: "POST", url: "https://t.example.com/u/bt_COPIED_667788/track",
                    headers: [
                        .init(name: "Authorization", value: "Bearer bt_COPIED_667788"),
                        .init(name: "Content-Type", value: "application/json"),
                    ],
                    body: .text(#"{"event": "x", "session": "bt_COPIED_667788"}"#))),
        ]
    }
}

@Suite("No secret in any recording or report, at any depth of any encoding", .tags(.process), .leftToMakeTest)
struct SecretsEverywhereTests {
    @Test(
        "each planted secret is in the capture, and is written nowhere when recording",
        arguments: try PlantedSecret.all())
    func recording(planted: PlantedSecret) throws {
        let view = planted.request.validationView.serialized()
        #expect(
            planted.giveaways.contains { view.contains($0) || planted.request.url.contains($0) },
            "the request does not carry \(planted.secret) in the form the check looks for: the check below would prove nothing"
        )
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "planted.json").path
            let recorder = SnapshotRecorder(profile: .builtInDefault)
            try recorder.write(try recorder.snapshot(from: [planted.request], name: "planted"), to: path)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for giveaway in planted.giveaways { #expect(!text.contains(giveaway), "\(giveaway) was written:\n\(text)") }
            let result = SnapshotValidator().validate(
                try Snapshot.load(path: path), requests: [planted.request], profile: .builtInDefault)
            #expect(
                result.findings.isEmpty,
                "the recording does not pass its own capture: \(result.findings.map(\.message))")
        }
    }

    @Test(
        "each planted secret appears in no report format, where findings show the request's values",
        arguments: try PlantedSecret.all())
    func reports(planted: PlantedSecret) throws {
        // No entry expects the request, and one expects another URL: the request's method, URL,
        // parameters and body are shown as unexpected traffic, its URL beside the near miss.
        let snapshot = try Snapshot.parse(
            document: JSONDocument.parse(Array(#"{"requests": []}"#.utf8), file: "planted.json"))
        let nearMiss = try Snapshot.parse(
            document: JSONDocument.parse(
                Array(
                    #"{"requests": [{"method": "\#(planted.request.method)", "url": "https://t.example.com/other", "body": {"$absent": true}}]}"#
                        .utf8),
                file: "near.json"))
        let results = [snapshot, nearMiss].map {
            SnapshotValidator().validate($0, requests: [planted.request], profile: .builtInDefault)
        }
        #expect(results.allSatisfy { !$0.findings.isEmpty })
        for format in ReportFormat.all {
            let report = format.render(results, options: ReportOptions())
            for giveaway in planted.giveaways {
                #expect(!report.contains(giveaway), "\(format.name) shows \(giveaway)")
            }
        }
        // The JSON report shows values whole: the hidden value's place is marked there.
        #expect(ReportFormat.json.render(results).contains("[redacted]"))
    }

    @Test("values of secret keys are found through every layer")
    func layers() throws {
        let planted = try PlantedSecret.all()
        for item in planted {
            #expect(item.request.carriedSecrets.contains(item.secret), "\(item.kind): \(item.request.carriedSecrets)")
        }
    }
}
