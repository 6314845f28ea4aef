import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A checkout whose three analytics calls race, as an app's do when each is sent from its own
/// task: every call leaves from a detached task after a random delay, in a request of its own
/// (analytics.js's way: `POST /v1/track`), so they arrive in another order from run to run. Every
/// run draws fresh message ids and timestamps.
///
/// ```swift
/// await RacingCheckout.run(session: URLSession(configuration: configuration), base: "https://api.segment.io")
/// ```
public enum RacingCheckout {
    public static let events = ["Checkout Started", "Coupon Applied", "Order Completed"]

    /// Sends the checkout's events and returns once all three were answered.
    /// - Parameters:
    ///   - session: the app's URLSession.
    ///   - base: where the calls go: `BASE/v1/track`.
    ///   - events: the events sent (a changed app sends others).
    public static func run(session: URLSession, base: String, events: [String] = events) async {
        await withTaskGroup(of: Void.self) { group in
            for event in events {
                group.addTask {
                    await Task.detached {
                        try? await Task.sleep(for: .milliseconds(Int.random(in: 0...40)))
                        guard let url = URL(string: "\(base)/v1/track") else { return }
                        var request = URLRequest(url: url)
                        request.httpMethod = "POST"
                        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                        let message: [String: Any] = [
                            "type": "track", "event": event, "userId": "user-42",
                            "messageId": UUID().uuidString.lowercased(), "timestamp": Date().ISO8601Format(),
                            "properties": ["order_id": "o-1001", "currency": "EUR"],
                        ]
                        request.httpBody = try? JSONSerialization.data(withJSONObject: message)
                        _ = try? await session.data(for: request)
                    }.value
                }
            }
        }
    }
}
