import NIOPosix

/// Work too heavy for an event loop or Swift's cooperative threads — inflating a large body,
/// reading an ingested capture — run on NIO's blocking thread pool, so that the other clients
/// of the loop it arrived on are answered meanwhile.
///
/// Replay's work (`replaying`) has a thread of its own instead: reading a session's cassette
/// and looking for a miss's nearest interactions grow with the cassette, and on the shared pool
/// a large one would hold up every body and ingest behind it. On its one thread it takes at
/// most one core, and holds up only other replay work.
///
/// ```swift
/// let decoded = await BlockingWork.run(for: request.head.uri) { BodyDecoder(limit: limit).body(bytes) }
/// let decision = await BlockingWork.replaying { later.decide() }
/// ```
enum BlockingWork {
    /// The work's result, computed on the thread pool (here, should the pool be shut down), for
    /// the request with this target, which a test may hold there (`BlockingWorkHold`).
    static func run<T: Sendable>(for target: String, _ work: @escaping @Sendable () -> T) async -> T {
        (try? await NIOThreadPool.singleton.runIfActive {
            BlockingWorkHold.starting(target)
            return work()
        }) ?? work()
    }

    /// The work's result, computed on replay's own thread, after the replay work asked before it.
    static func replaying<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        (try? await replay.runIfActive(work)) ?? work()
    }

    /// Replay's thread: started on first use, for the life of the process (as NIO's singletons).
    private static let replay: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()
}
