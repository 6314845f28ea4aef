import Foundation
import NIOCore

/// How the proxy turns the host name of a target into addresses: the system's resolver, or in
/// tests a fake that answers as a name whose DNS changes between two questions would.
///
/// ```swift
/// let addresses = try await HostResolver.system.resolve("collect.example", 443)
/// ```
struct HostResolver: Sendable {
    /// The addresses of `host`, each with `port`; the error says why there are none.
    var resolve: @Sendable (_ host: String, _ port: Int) async throws -> [SocketAddress]

    /// getaddrinfo, which blocks: it runs on a Dispatch thread, never on an event loop or the
    /// cooperative pool.
    static let system = HostResolver { host, port in
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try lookUp(host, port: port) })
            }
        }
    }

    private static func lookUp(_ host: String, port: Int) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw CaptureServerError(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr {
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                if getnameinfo(
                    address, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0,
                    let parsed = try? SocketAddress(
                        ipAddress: String(
                            decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                        port: port)
                {
                    addresses.append(parsed)
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
