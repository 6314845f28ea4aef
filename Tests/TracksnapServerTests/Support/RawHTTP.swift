import Foundation
import TracksnapTestSupport

/// An HTTP response as read off the socket.
struct RawResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A minimal HTTP/1.1 client over a plain socket, so that tests control every byte sent
/// (header order, malformed requests, CONNECT) and see every byte answered.
///
/// ```swift
/// let response = try await RawHTTP.send(port: port, method: "POST", target: "/v1/t", body: Array("{}".utf8))
/// ```
///
/// Blocking socket calls run on threads of their own (`offloaded`), never on the threads Swift's
/// concurrency and Dispatch's global queue share with the server in the same process.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends one request with `Connection: close` and reads the response to the end, waiting
    /// at most `timeout` seconds for each read.
    static func send(
        port: Int, method: String = "GET", target: String, host: String? = nil, headers: [(String, String)] = [],
        body: [UInt8] = [], timeout: Int = 30
    ) async throws -> RawResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { text += "Content-Length: \(body.count)\r\n" }
        text += "Connection: close\r\n\r\n"
        return try await exchange(port: port, Array(text.utf8) + body, timeout: timeout)
    }

    /// Writes raw bytes, reads until the server closes, and parses the last response.
    static func exchange(port: Int, _ bytes: [UInt8], timeout: Int = 30) async throws -> RawResponse {
        let received = try await offloaded {
            let socket = try Socket(port: port, timeout: timeout)
            defer { socket.close() }
            try socket.write(bytes)
            return try socket.readToEnd()
        }
        return try parse(received)
    }

    /// Parses a response, skipping interim `100 Continue` heads.
    static func parse(_ bytes: [UInt8]) throws -> RawResponse {
        var rest = bytes[...]
        while true {
            guard let end = headEnd(rest) else {
                throw Failure(
                    description:
                        "no complete response head in \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
            let head = String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
            rest = rest[(end + 4)...]
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                throw Failure(description: "bad status line in \(head.debugDescription)")
            }
            if status == 100 { continue }
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            var response = RawResponse(status: status, headers: headers, body: Array(rest))
            if let length = response.header("Content-Length").flatMap(Int.init), length <= response.body.count {
                response.body = Array(response.body.prefix(length))
            }
            return response
        }
    }

    static func headEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = bytes.startIndex
        while index + 3 < bytes.endIndex {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }
}

/// A blocking TCP connection to 127.0.0.1 with a receive timeout.
final class Socket: @unchecked Sendable {
    // Used by one thread at a time (the Dispatch block that made it), hence unchecked.
    private let descriptor: Int32
    /// What `closedByPeer(within:)` read while it waited.
    private(set) var received: [UInt8] = []

    init(port: Int, timeout: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawHTTP.Failure(description: "socket() failed") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Foundation.close(descriptor)
            throw RawHTTP.Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
    }

    func write(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return Foundation.send(descriptor, base + written, buffer.count - written, Int32(MSG_NOSIGNAL))
            }
            guard result > 0 else { throw RawHTTP.Failure(description: "send failed: errno \(errno)") }
            written += result
        }
    }

    /// Reads until the peer closes.
    func readToEnd() throws -> [UInt8] {
        var received: [UInt8] = []
        while let chunk = try readSome() { received += chunk }
        return received
    }

    /// Reads until the bytes hold a complete response head.
    func readHead() throws -> [UInt8] {
        var received: [UInt8] = []
        while RawHTTP.headEnd(received[...]) == nil {
            guard let chunk = try readSome() else { break }
            received += chunk
        }
        return received
    }

    /// Some bytes, or nil at the end of the stream.
    func readSome() throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == ECONNRESET { return nil }
            throw RawHTTP.Failure(description: "recv failed or timed out: errno \(errno)")
        }
        return count == 0 ? nil : Array(buffer.prefix(count))
    }

    /// Whether the server closes the connection within `milliseconds`: waits for it, keeping
    /// whatever the server sends meanwhile in `received`.
    func closedByPeer(within milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 { received += buffer.prefix(count) }
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    func close() {
        Foundation.close(descriptor)
    }
}
