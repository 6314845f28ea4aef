import Testing
import TracksnapSnapshot
import TracksnapTraffic

/// Captured traffic of a checkout, as `Fixtures/Snapshots/checkout.json` expects it.
func checkoutRequests(screen: String = "Cart", extra: [CapturedRequest] = []) -> [CapturedRequest] {
    [
        CapturedRequest(id: "1", method: "GET", url: "https://collect.example/v1/e?ev=screen_view&screen=\(screen)"),
        CapturedRequest(
            id: "2", method: "POST", url: "https://collect.example/v1/track",
            headers: [CapturedRequest.Header(name: "Content-Type", value: "application/json")],
            body: .text(#"{"event":"purchase","order_id":"o-42","revenue":12.5}"#)),
    ] + extra
}

/// The text of every comment of an issue.
func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}
