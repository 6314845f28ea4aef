/// How an SDK delivers separate requests, as a profile says (`"delivery"`): what decides the
/// `order` that recording writes.
///
/// ```json
/// { "name": "in-house", "delivery": "serial" }
/// ```
/// Events in one request (a batch) always keep their order. Separate requests keep theirs only
/// when the SDK sends them one after another; sent from several tasks, threads or beacons, they
/// race, and a snapshot recorded from one run would fail the next with `order_mismatch`.
public enum Delivery: String, Sendable, Hashable, CaseIterable {
    /// Separate requests may arrive in any order (the default).
    case concurrent
    /// The SDK sends one request after another, in the order of the calls.
    case serial
}
