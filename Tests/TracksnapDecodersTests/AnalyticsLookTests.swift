import Testing
import TracksnapDecoders
import TracksnapTraffic

@Suite("A request no decoder keeps local is told apart when it looks like analytics")
struct AnalyticsLookTests {
    @Test(
        "a host or path that names analytics, or a body a built-in decoder reads, gives the reason; an app's API gives none",
        arguments: [
            ("POST", "https://nom.telemetrydeck.com/v2/", nil, #"its host names "telemetry""#),
            ("POST", "https://metrics.shop.example/up", nil, #"its host names "metrics""#),
            ("POST", "https://api.shop.example/v1/track", nil, #"its path has "/track""#),
            ("POST", "https://api.shop.example/sdk/signals", nil, #"its path has "/signals""#),
            (
                "POST", "https://proxy.shop.example/v1/batch",
                #"{"batch": [{"type": "track", "event": "Order Completed"}]}"#, "the segment decoder reads it"
            ),
            ("GET", "https://api.shop.example/v1/products?page=2", nil, nil),
            ("POST", "https://api.shop.example/v1/log", nil, nil),
            ("GET", "https://api.shop.example/e/42", nil, nil),
            ("GET", "https://api.shop.example/v1/tracks/9", nil, nil),
        ] as [(String, String, String?, String?)])
    func reason(method: String, url: String, body: String?, reason: String?) {
        let request = CapturedRequest(
            id: "1", method: method, url: url,
            headers: body == nil ? [] : [.init(name: "Content-Type", value: "application/json")],
            body: body.map { .text($0) })
        #expect(AnalyticsLook.reason(for: request) == reason)
    }
}
