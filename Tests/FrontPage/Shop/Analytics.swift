import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The front page's app (README.md, "A Swift test"), in the package `make front-page-check` makes
/// from the README: its analytics SDK sends Segment's calls from a task of its own, as
/// `FakeAnalytics` (copied beside it) does.
struct Analytics {
    private let sdk: FakeAnalytics

    init(session: URLSession) {
        sdk = FakeAnalytics(session: session, endpoint: URL(string: "https://api.segment.io/")!)
    }

    /// Queues the checkout's three events and returns at once.
    func trackCheckout() { sdk.trackCheckout() }
}
