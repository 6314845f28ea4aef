import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An analytics client as fire-and-forget SDKs are: `trackCheckout()` returns at once, and
/// the events leave later from a background task, one at a time with a pause between them,
/// none waiting for the answer to the one before.
///
/// ```swift
/// let analytics = FakeAnalytics(session: URLSession(configuration: configuration), endpoint: collector)
/// analytics.trackCheckout()              // returns before anything is sent
/// await assertTracking(capture, matches: "Snapshots/checkout.json")
/// ```
/// Its values are constants, so that a snapshot recorded from one run holds for the next.
final class FakeAnalytics: Sendable {
    static let checkout = ["Checkout Started", "Product Added", "Order Completed"]

    let session: URLSession
    let endpoint: URL
    private let sent = Mutex<ContinuousClock.Instant?>(nil)
    private let sending = Mutex<Task<Void, Never>?>(nil)

    /// - Parameters:
    ///   - session: the URLSession the events go through.
    ///   - endpoint: the collector's base URL; events go to `v1/track` below it.
    ///   - header: a header sent with every event (a session hint), if any.
    ///   - inOrder: wait for each answer before sending the next, as an SDK with one send queue
    ///     does; fired and forgotten, events can reach a server out of order (on Linux,
    ///     URLSession may hold one back for seconds when the machine is busy).
    init(session: URLSession, endpoint: URL, header: (String, String)? = nil, inOrder: Bool = false) {
        self.session = session
        self.endpoint = endpoint
        self.header = header
        self.inOrder = inOrder
    }

    let inOrder: Bool

    /// A header sent with every event (a session hint), if any.
    let header: (String, String)?

    /// When the last event started to be sent: nothing of it can be captured before.
    var lastSendStarted: ContinuousClock.Instant? { sent.withLock { $0 } }

    /// Queues the checkout's events and returns at once; they are sent from a background task,
    /// the first after `delay`, then one every `gap`.
    ///
    /// - Parameter events: the events to send; the full checkout by default.
    func trackCheckout(
        _ events: [String] = checkout, delay: Duration = .milliseconds(200), gap: Duration = .milliseconds(150)
    ) {
        let task = Task { [self] in
            try? await Task.sleep(for: delay)
            for (index, event) in events.enumerated() {
                if index > 0 { try? await Task.sleep(for: gap) }
                sent.withLock { $0 = .now }
                var request = URLRequest(url: endpoint.appending(path: "v1/track"))
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                if let header { request.setValue(header.1, forHTTPHeaderField: header.0) }
                request.httpBody = Data(#"{"event":"\#(event)","properties":{"cart_id":"c-1","revenue":12.5}}"#.utf8)
                if inOrder {
                    _ = try? await session.data(for: request)
                } else {
                    // Fire and forget, as many SDKs do: the next event does not wait for this answer.
                    session.dataTask(with: request).resume()
                }
            }
        }
        sending.withLock { $0 = task }
    }

    /// Waits until every queued event was handed to URLSession.
    func flush() async {
        await sending.withLock { $0 }?.value
    }
}
