import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

@Suite("Secrets never reach an event")
struct SecretsTests {
    /// The fake keys the fixtures were recorded with, and where each one travels.
    static let secrets: [(key: String, fixtures: [String])] = [
        ("wk_test_fixture_segment", ["segment.ndjson", "segment-gzip.ndjson"]),
        ("wk_test_fixture_ajs", ["segment-analytics-js.ndjson"]),
        ("mp_token_test_fixture", ["mixpanel.ndjson"]),
        ("mp_api_key_test_fixture", ["mixpanel.ndjson"]),
        ("mp_token_test_fixture_js", ["mixpanel-js.ndjson"]),
        ("amp_key_test_fixture", ["amplitude-httpapi.ndjson", "amplitude-batch.ndjson"]),
        ("phc_test_fixture_key", ["posthog.ndjson", "posthog-gzip.ndjson"]),
        ("ga4_secret_test_fixture", ["gtag.ndjson"]),
        ("meta_client_token_test_fixture", ["meta-app.ndjson", "meta-app-run2.ndjson"]),
        ("adj_secret_test_fixture", ["adjust.ndjson", "adjust-run2.ndjson"]),
        ("key_live_test_fixture_branch", ["branch.ndjson", "branch-run2.ndjson"]),
    ]

    @Test(
        "each fake key is really in its fixture's traffic",
        arguments: secrets.flatMap { secret in secret.fixtures.map { (secret.key, $0) } })
    func keyIsInTraffic(_ key: String, _ fixture: String) throws {
        let requests = try Fixtures.requests(fixture)
        let traffic = requests.map {
            ($0.url) + ($0.bodyText ?? "") + ($0.bodyText.map { FormEncodingProbe.decoded($0) } ?? "")
        }
        #expect(
            traffic.contains { $0.contains(key) },
            "\(key) should be sent in \(fixture), or the next test proves nothing")
    }

    @Test(
        "no serialized event of any fixture holds a fixture key or a secret member (writeKey, api_key, api_secret)",
        arguments: Fixtures.all)
    func noSecretInEvents(_ fixture: String) throws {
        let events = try Fixtures.events(fixture)
        #expect(!events.isEmpty)
        for event in events {
            let text = event.validationView.serialized() + event.request
            for (key, _) in Self.secrets {
                #expect(!text.contains(key), "\(fixture) #\(event.request)[\(event.index)] leaks \(key)")
            }
            // The raw gzip captures hold keys only in compressed bytes; the decoded events must not.
            #expect(!text.contains("test_fixture"), "\(fixture) #\(event.request)[\(event.index)] leaks a fixture key")
            #expect(!text.contains("writeKey") && !text.contains("api_key") && !text.contains("api_secret"))
        }
    }
}

/// Percent-decodes text the way a reader of the wire would, to find keys inside `data=` forms.
enum FormEncodingProbe {
    static func decoded(_ text: String) -> String {
        (text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text)
    }
}
