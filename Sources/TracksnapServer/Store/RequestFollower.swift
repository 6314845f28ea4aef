import Synchronization
package import TracksnapTraffic

/// One reader of what the store records from now on (`CaptureStore.follow`): the requests it
/// held when the reader arrived (and the answers it kept for them), then each request as it is
/// recorded and each answer as it is sent, in order, and a `reset` when the store forgets what
/// it holds.
///
/// ```swift
/// let follower = store.follow(buffering: 1_000)
/// for request in follower.backlog { send(request) }
/// for await item in follower.items { … }   // ends when the reader falls behind, or the store closes
/// ```
///
/// What the store hands over while the reader is busy waits in a buffer of at most `limit`
/// items. A reader that falls further behind (a page that reads slowly) is not waited for: its
/// items end at once, `overflowed` is set, and the reader closes, so that no reader grows the
/// server's memory beyond its buffer. Recording never waits for a reader.
package final class RequestFollower: Sendable {
    /// What a follower gets.
    package enum Item: Sendable {
        case request(CapturedRequest)
        /// What the server answered the request with this id.
        case answer(id: String, CapturedAnswer)
        /// The store forgot every request it held (`POST /__tracksnap/reset`).
        case reset
        /// The store forgot the oldest answers of requests it still holds: together they held
        /// more than `bytes` (`CaptureStore.answered`). Told once, until the next reset.
        case answersForgotten(bytes: Int)
    }

    /// What the store held when the follower started, oldest first.
    package let backlog: [CapturedRequest]
    /// The answers the store kept for them, by request id.
    package let answers: [String: CapturedAnswer]
    /// What it recorded since, until the follower stops, falls behind or the store closes.
    package let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let fellBehind = Atomic(false)
    private let stopped = Atomic(false)

    init(backlog: [CapturedRequest], answers: [String: CapturedAnswer], limit: Int) {
        self.backlog = backlog
        self.answers = answers
        (items, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(limit))
        // Only a flag: termination runs inside `offer`, under the store's lock, which the
        // store takes again to forget followers that ended (`hasEnded`).
        continuation.onTermination = { [weak self] _ in self?.stopped.store(true, ordering: .releasing) }
    }

    /// Whether the items ended: the reader stopped or fell behind, or the store closed.
    var hasEnded: Bool { stopped.load(ordering: .acquiring) }

    /// Whether the items ended because the follower fell more than its buffer behind.
    package var overflowed: Bool { fellBehind.load(ordering: .acquiring) }

    /// Hands an item over without waiting; a full buffer ends the items.
    func offer(_ item: Item) {
        if case .dropped = continuation.yield(item) {
            fellBehind.store(true, ordering: .releasing)
            continuation.finish()
        }
    }

    /// Ends the items (the store closes).
    func finish() {
        continuation.finish()
    }
}
