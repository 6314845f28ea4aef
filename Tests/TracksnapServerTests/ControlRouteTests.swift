import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport
import TracksnapTraffic

@testable import TracksnapServer

@Suite("The control API's route table", .tags(.network), .leftToMakeTest)
struct ControlRouteTests {
    /// Each path, a method it does not take, and the `Allow` it is answered with.
    static let refused: [(method: String, path: String, allow: String)] = [
        ("POST", "health", "GET, HEAD"),
        ("DELETE", "requests", "GET"),
        ("GET", "reset", "POST"),
        ("PUT", "sessions", "GET, POST"),
        ("DELETE", "sessions/s1/requests", "GET, POST"),
        ("GET", "sessions/s1", "DELETE"),
        ("GET", "sessions/s1/validate", "POST"),
        ("PUT", "sessions/s1/record", "POST"),
        ("POST", "requests/stream", "GET"),
        ("POST", "snapshots", "GET"),
        ("GET", "snapshots/accept", "POST"),
        ("DELETE", "snapshots/reject", "POST"),
        ("POST", "ui", "GET"),
        ("POST", "ui/", "GET"),
        ("DELETE", "ui/s1", "GET"),
    ]

    @Test("a method a path does not take is 405, with the methods it does take in Allow", arguments: refused)
    func methodNotAllowed(method: String, path: String, allow: String) async throws {
        try await withServer { _, port in
            _ = try await startSession(port)
            let response = try await control(port, method, path)
            #expect(response.status == 405)
            #expect(response.header("Allow") == allow)
            #expect(
                try json(response.text)["error"]?.stringValue == "\(method) is not allowed on /__tracksnap/\(path)")
        }
    }

    @Test(
        "a path no route has is 404, whatever the method",
        arguments: [("GET", "sessions/s1/nothing"), ("POST", "health/now"), ("DELETE", "nowhere"), ("GET", "")])
    func notFound(method: String, path: String) async throws {
        try await withServer { _, port in
            let response = try await control(port, method, path)
            #expect(response.status == 404)
            #expect(response.header("Allow") == nil)
            #expect(
                try json(response.text)["error"]?.stringValue
                    == "no such control endpoint: \(method) /__tracksnap/\(path)")
        }
    }

    @Test("every path of the table is among those refused above, so that a new one is tested too")
    func everyPathTested() {
        let tested = Set(Self.refused.map { $0.path.replacingOccurrences(of: "s1", with: "{}") })
        #expect(Set(ControlAPI.routes.map { $0.pattern.replacing(/\{[a-z]+\}/, with: "{}") }) == tested)
    }
}
