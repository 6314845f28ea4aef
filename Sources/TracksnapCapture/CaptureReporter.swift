import Foundation
import TracksnapTraffic

/// Sends what an in-process capture records to a `tracksnap serve` session, one request at a
/// time in the order captured (`POST /__tracksnap/sessions/{id}/requests`).
///
/// ```swift
/// let reporter = CaptureReporter(session: client.session(id: "s1"))
/// reporter.report(captured) { /* now answer the app */ }
/// ```
///
/// One queue, one send at a time: requests fired at once by an app reach the server in the
/// order the capture saw them, as a server that received them would record them. A request
/// that cannot be reported (server gone, session stopped) is told on standard error and the
/// app is answered all the same: the app under test must not fail for its test's sake.
final class CaptureReporter: Sendable {
    private typealias Item = (request: CapturedRequest, then: @Sendable () -> Void)

    let session: TracksnapClient.Session
    private let queue: AsyncStream<Item>.Continuation

    init(session: TracksnapClient.Session) {
        self.session = session
        let (stream, queue) = AsyncStream<Item>.makeStream()
        self.queue = queue
        Task {
            for await item in stream {
                do {
                    try await session.add([item.request])
                } catch {
                    FileHandle.standardError.write(
                        Data(
                            """
                            tracksnap: cannot report \(item.request.method) \(item.request.url) into session \(session.id): \(error)\n
                            """.utf8))
                }
                item.then()
            }
        }
    }

    deinit {
        queue.finish()
    }

    /// Queues a request; `then` runs once the server has it (or it failed).
    func report(_ request: CapturedRequest, then: @escaping @Sendable () -> Void) {
        queue.yield((request, then))
    }
}
