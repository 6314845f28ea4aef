import Foundation
import TracksnapDecoders
import TracksnapServer
import TracksnapTraffic

/// Times an events wait (`GET sessions/ID/requests?events=E`) while N Segment batches of two
/// events reach its session one by one, asked after each arrival as the server's wait asks it:
/// the count as the server makes it (each request's events read once, of its observation:
/// `EventTally`, `CaptureStore.observedEvents`) beside the count it made before (every request
/// of the session decoded on every arrival), in the same run. Recording and reading the
/// session's list, which both pay, are in both figures.
///
/// The old count at 10,000 decodes 50 million times (hours on this machine): it is measured
/// over the last 100 arrivals, and the whole estimated from them, arrival n costing n decodings.
func runEventsWaitBenchmark() {
    print("\nEvents wait: N requests of 2 events each reach a session, the wait asked after each arrival")
    print(
        "N".padded(8) + "observed (ms)".padded(15, right: true) + "last arrival (µs)".padded(19, right: true)
            + "decoded each time (ms)".padded(24, right: true) + "last arrival (µs)".padded(19, right: true)
            + "ratio".padded(9, right: true))
    for count in [1_000, 10_000] {
        guard let observed = EventsWaitRun(count: count, observed: true).run(),
            let decoded = EventsWaitRun(count: count, observed: false).run()
        else {
            print("events wait benchmark: a wait did not count \(2 * count) events")
            return
        }
        let estimated = decoded.estimated ? " (estimated from the last \(EventsWaitRun.sampled))" : ""
        print(
            String(count).padded(8) + observed.whole.milliseconds.padded(15, right: true)
                + observed.last.microseconds.padded(19, right: true)
                + decoded.whole.milliseconds.padded(24, right: true)
                + decoded.last.microseconds.padded(19, right: true)
                + String(format: "%.0fx", decoded.whole / observed.whole).padded(9, right: true) + estimated)
    }
    print(
        "ratio = decoded each time / observed: the events wait's work before and after each request was observed once."
    )
}

/// One wait over `count` arrivals, counted as the server does (`observed`) or as it did.
private struct EventsWaitRun {
    /// The arrivals the old count is measured over when it would take too long whole.
    static let sampled = 100

    let count: Int
    let observed: Bool

    /// The wait's whole time, the time of its last arrival (mean over the last `sampled`), and
    /// whether the whole is estimated; nil when the events counted are not the batches'.
    func run() -> (whole: Duration, last: Duration, estimated: Bool)? {
        guard let store = try? CaptureStore() else { return nil }
        let session = store.startSession()
        let clock = ContinuousClock()
        var tally = EventTally()
        // Whole runs of the old count only up to 2,000 arrivals (2 million decodings).
        let measuredFrom = observed || count <= 2_000 ? 0 : count - Self.sampled
        var whole = Duration.zero
        var last = Duration.zero
        var events = 0
        for index in 0..<count {
            let request = Self.batch(index)
            let arrival = clock.measure {
                store.record(
                    method: request.method, url: request.url, headers: request.headers, body: request.body,
                    sessionHint: session)
                guard index >= measuredFrom else { return }
                let requests = store.requests(inSession: session) ?? []
                events =
                    observed
                    ? tally.count(requests) { store.observedEvents(of: $0) }
                    : requests.reduce(0) { $0 + Decoders.decode($1).events.count }
            }
            whole += arrival
            if index >= count - Self.sampled { last += arrival }
        }
        guard events == 2 * count else { return nil }
        last /= Self.sampled
        guard measuredFrom > 0 else { return (whole, last, false) }
        // Arrival n costs about n decodings: the last ones' mean is (count - sampled / 2) of them.
        let perDecoding = last / Double(count - Self.sampled / 2)
        return (perDecoding * Double(count) * Double(count + 1) / 2, last, true)
    }

    /// A Segment batch of two calls, as analytics-python sends it.
    static func batch(_ index: Int) -> CapturedRequest {
        let call = { (event: String) in
            #"{"type":"track","event":"\#(event)","userId":"user-\#(index % 40)","messageId":"m-\#(index)-\#(event.count)","properties":{"order_id":"o-\#(index)","revenue":12.5}}"#
        }
        return CapturedRequest(
            id: String(index), method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(#"{"batch":[\#(call("Product Viewed")),\#(call("Order Completed"))]}"#))
    }
}

extension Duration {
    var microseconds: String {
        String(format: "%.1f", Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12)
    }
}
