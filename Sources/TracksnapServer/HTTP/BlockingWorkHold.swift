import Dispatch
import Synchronization

/// A test hook: work on the thread pool (`BlockingWork.run`: a body too large to inflate on
/// the event loop, an ingested capture) waits, on the thread that does it, while a test holds
/// requests whose target contains a marker. Held so, a test shows that the other clients are
/// answered meanwhile by their answers arriving at all, with no stopwatch
/// (`DecompressionBombTests`, `ControlIngestTests`): work done on an event loop would never
/// reach the hold, and the test would say so.
///
/// ```swift
/// BlockingWorkHold.hold(marker)
/// // POST /bomb-\(marker) … until BlockingWorkHold.isHeld(marker); others answered …
/// BlockingWorkHold.release(marker)
/// ```
package enum BlockingWorkHold {
    private static let watching = Atomic<Bool>(false)
    private static let holds = Mutex<[String: Hold]>([:])

    private final class Hold: Sendable {
        let held = Atomic<Bool>(false)
        let released = DispatchSemaphore(value: 0)
    }

    /// Holds, from now on, the blocking work of requests whose target contains `marker`.
    package static func hold(_ marker: String) {
        holds.withLock { $0[marker] = Hold() }
        watching.store(true, ordering: .releasing)
    }

    /// Whether a request marked `marker` waits at the hold now.
    package static func isHeld(_ marker: String) -> Bool {
        holds.withLock { $0[marker] }?.held.load(ordering: .acquiring) ?? false
    }

    /// Lets the held work of `marker` go on, and holds no more.
    package static func release(_ marker: String) {
        holds.withLock { $0.removeValue(forKey: marker) }?.released.signal()
    }

    /// Where a request's blocking work is about to start off the event loop: waits while
    /// `target` is held (two minutes at most, should a test never release it).
    static func starting(_ target: String) {
        guard watching.load(ordering: .acquiring),
            let hold = holds.withLock({ holds in holds.first { target.contains($0.key) }?.value })
        else { return }
        hold.held.store(true, ordering: .releasing)
        _ = hold.released.wait(timeout: .now() + .seconds(120))
    }
}
