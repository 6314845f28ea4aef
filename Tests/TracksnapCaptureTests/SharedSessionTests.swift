import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// A URLProtocol registered process-wide that answers one path on loopback's closed port 9, and
    /// counts what it answered: the probe of which sessions consult registered classes. Unanswered,
    /// the request is refused at once.
    private final class RegisteredProbe: URLProtocol {
        static let path = "/tracksnap-shared-session-probe"
        static let answered = Atomic<Int>(0)

        override class func canInit(with request: URLRequest) -> Bool {
            request.url?.path == path
        }

        override class func canonicalRequest(for request: URLRequest) -> URLRequest {
            request
        }

        override func startLoading() {
            Self.answered.add(1, ordering: .sequentiallyConsistent)
            guard let url = request.url,
                let response = HTTPURLResponse(url: url, statusCode: 204, httpVersion: nil, headerFields: nil)
            else {
                client?.urlProtocol(self, didFailWithError: URLError(.badURL))
                return
            }
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocolDidFinishLoading(self)
        }

        override func stopLoading() {}

        /// Whether `session`, asked for the probe's path while the probe is registered, was
        /// answered by it.
        static func answers(_ session: () -> URLSession) async throws -> Bool {
            let url = try #require(URL(string: "http://127.0.0.1:9\(path)"))
            _ = URLProtocol.registerClass(RegisteredProbe.self)
            defer { URLProtocol.unregisterClass(RegisteredProbe.self) }
            let before = answered.load(ordering: .sequentiallyConsistent)
            let status = ((try? await session().data(from: url))?.1 as? HTTPURLResponse)?.statusCode
            let counted = answered.load(ordering: .sequentiallyConsistent) - before
            #expect((status == 204) == (counted == 1), "answered \(String(describing: status)), counted \(counted)")
            return counted == 1
        }
    }

    /// What swift-corelibs-foundation does with `URLProtocol.registerClass` (issue 32 item 6), as
    /// Documentation/SwiftTests.md ("An SDK that sends through URLSession.shared") states it: these
    /// tests assert the platform's behaviour, so they fail the day it changes, and the guide must
    /// change with it. One at a time: a registration is process-wide.
    @Suite("URLSession.shared and URLProtocol.registerClass on Linux", .serialized)
    struct SharedSessionTests {
        @Test("URLSession.shared, once made, never consults a class registered afterwards")
        func sharedSessionIgnoresLaterRegistrations() async throws {
            _ = URLSession.shared.configuration  // made now, if no test made it before
            #expect(try await RegisteredProbe.answers { URLSession.shared } == false)
        }

        @Test("a session made after registering, from .ephemeral or from .default, ignores the registered class")
        func configurationsMadeAfterRegistering() async throws {
            #expect(try await RegisteredProbe.answers { URLSession(configuration: .ephemeral) } == false)
            #expect(try await RegisteredProbe.answers { URLSession(configuration: .default) } == false)
        }

        @Test(
            "a configuration that lists the class in protocolClasses is answered by it: what CaptureSession.install does"
        )
        func protocolClassesAreConsulted() async throws {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [RegisteredProbe.self] + (configuration.protocolClasses ?? [])
            #expect(try await RegisteredProbe.answers { URLSession(configuration: configuration) })
        }
    }
#endif
