import Foundation
import Glibc
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTraffic

/// Runs `body` against a capture server started on 127.0.0.1 with a free port, and shuts the
/// server down afterwards, whatever `body` does.
///
/// ```swift
/// try await withServer { server, port in
///     _ = try await RawHTTP.send(port: port, target: "/e")
/// }
/// ```
func withServer<T>(
    _ configuration: CaptureServer.Configuration = .init(), _ body: (CaptureServer, Int) async throws -> T
) async throws -> T {
    let server = try CaptureServer(configuration: configuration)
    let url = try await server.start()
    let port = try #require(url.port)
    do {
        let result = try await body(server, port)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// A call to the control API.
///
/// ```swift
/// let session = try await control(port, "POST", "sessions")
/// ```
func control(
    _ port: Int, _ method: String, _ path: String, body: String? = nil, headers: [(String, String)] = []
) async throws -> RawResponse {
    var headers = headers
    if body != nil { headers.append(("Content-Type", "application/json")) }
    return try await RawHTTP.send(
        port: port, method: method, target: "/__tracksnap/" + path, headers: headers, body: Array((body ?? "").utf8))
}

/// Starts a session and returns its id.
func startSession(_ port: Int, name: String? = nil) async throws -> String {
    let response = try await control(port, "POST", "sessions", body: name.map { "{\"name\": \"\($0)\"}" })
    #expect(response.status == 201)
    return try #require(try json(response.text)["id"]?.stringValue)
}

/// Parses JSON text with the project's parser.
func json(_ text: String) throws -> JSONValue {
    try JSONDocument.parse(Array(text.utf8), file: "response").value
}

/// Reads a control API array of captured requests: each element is an NDJSON capture line.
func capturedRequests(_ response: RawResponse) throws -> [CapturedRequest] {
    let elements = try #require(try json(response.text).arrayValue, "not an array: \(response.text)")
    if elements.isEmpty { return [] }
    let lines = elements.map { $0.serialized() }.joined(separator: "\n")
    return try CaptureFile.read(data: Data(lines.utf8), file: "response")
}

/// Runs `body` with a port nothing listens on: bound (the kernel's choice) but not listening, for
/// as long as `body` runs, so that a connection to it is refused and no test running beside it
/// can take it (a port merely found free and let go was, once, taken in between).
func withClosedPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    try await withBoundPort(listening: false, body)
}

/// Runs `body` with a port that takes connections and never reads them: the kernel accepts them
/// into its backlog, so a tunnel to it opens, and stays open as long as `body` runs.
func withListeningPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    try await withBoundPort(listening: true, body)
}

private func withBoundPort<T>(listening: Bool, _ body: (Int) async throws -> T) async throws -> T {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
        }
    }
    guard named, !listening || listen(socket, 16) == 0 else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    return try await body(Int(UInt16(bigEndian: address.sin_port)))
}
