import NIOPosix

/// Work too heavy for an event loop or Swift's cooperative threads — inflating a large body,
/// reading an ingested capture — run on NIO's blocking thread pool, so that the other clients
/// of the loop it arrived on are answered meanwhile.
///
/// ```swift
/// let decoded = await BlockingWork.run { BodyDecoder(limit: limit).body(bytes) }
/// ```
enum BlockingWork {
    /// The work's result, computed on the thread pool (here, should the pool be shut down).
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        (try? await NIOThreadPool.singleton.runIfActive(work)) ?? work()
    }
}
