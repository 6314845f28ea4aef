import Foundation
import Testing
import TracksnapCore
import TracksnapJSON
import TracksnapModel
import TracksnapReplay

@Suite("HAR files as cassettes")
struct HARCassetteTests {
    @Test(
        "each entry's request and response, base64 content as bytes; an entry the browser got no answer for is skipped with a warning"
    )
    func har() throws {
        let text = #"""
            {"log": {"version": "1.2", "creator": {"name": "hand", "version": "1"}, "entries": [
              {"startedDateTime": "2026-11-24T19:00:00.250Z",
               "request": {"method": "POST", "url": "https://api.shop.example/v1/cart", "httpVersion": "HTTP/2",
                           "headers": [{"name": ":authority", "value": "api.shop.example"},
                                       {"name": "content-type", "value": "application/json"}],
                           "postData": {"mimeType": "application/json", "text": "{\"sku\":\"A-1\"}"}},
               "response": {"status": 201, "statusText": "Created", "httpVersion": "HTTP/2",
                            "headers": [{"name": "content-type", "value": "application/json"},
                                        {"name": "set-cookie", "value": "a=1"}, {"name": "set-cookie", "value": "b=2"}],
                            "content": {"size": 15, "mimeType": "application/json", "text": "{\"cart\":\"c-42\"}"},
                            "redirectURL": ""}},
              {"startedDateTime": "2026-11-24T19:00:01Z",
               "request": {"method": "GET", "url": "https://cdn.shop.example/logo.png", "headers": []},
               "response": {"status": 200, "headers": [{"name": "content-type", "value": "image/png"}],
                            "content": {"size": 3, "mimeType": "image/png", "text": "AAEC", "encoding": "base64"}}},
              {"startedDateTime": "2026-11-24T19:00:02Z",
               "request": {"method": "GET", "url": "https://ads.example/pixel", "headers": []},
               "response": {"status": 0, "headers": [], "content": {"size": 0, "mimeType": "x-unknown"}}}
            ]}}
            """#
        let (cassette, warnings) = try Cassette.read(Array(text.utf8), file: "flow.har")
        #expect(cassette.format == .har)
        #expect(
            warnings.map(\.description) == [
                "flow.har:18:27: warning: status 0: the browser got no answer (blocked or aborted); nothing to replay, skipped"
            ])
        #expect(cassette.interactions.count == 2)
        let cart = cassette.interactions[0]
        #expect(cart.request.headers == [.init(name: "content-type", value: "application/json")])
        #expect(cart.request.body == .text(#"{"sku":"A-1"}"#))
        #expect(cart.response.status == 201 && cart.response.body == .text(#"{"cart":"c-42"}"#))
        #expect(cart.response.headers.filter { $0.name == "set-cookie" }.map(\.value) == ["a=1", "b=2"])
        #expect(cart.recordedAt == 1_795_546_800.25)
        #expect(cassette.interactions[1].response.body == .binary([0, 1, 2]))
    }
}
