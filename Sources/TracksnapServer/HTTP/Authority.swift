import Foundation
import NIOCore

/// The `host[:port]` of a `Host` header, an `Origin` or a proxy target, with the host
/// lowercased and an IPv6 literal's brackets removed.
///
/// ```swift
/// Authority("LocalHost:8080")  // host "localhost", port 8080
/// Authority("[::1]:80")        // host "::1", port 80
/// Authority("a b")             // nil
/// ```
struct Authority: Sendable, Hashable {
    var host: String
    var port: Int?

    init(host: String, port: Int?) {
        self.host = host
        self.port = port
    }

    /// Parses `name`, `name:port`, `[v6]` or `[v6]:port`; nil for anything else (spaces,
    /// slashes, a user part, a port out of range, an unbracketed IPv6 literal).
    init?(_ text: some StringProtocol) {
        var host: Substring
        var port: Int?
        let text = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return nil }
                port = number
            }
            guard IPAddress.parse(String(host))?.isIPv6 == true else { return nil }
        } else {
            host = text
            if let colon = text.lastIndex(of: ":") {
                guard let number = Int(text[text.index(after: colon)...]) else { return nil }
                host = text[..<colon]
                port = number
            }
            guard !host.contains(":") else { return nil }
        }
        if let port, !(0...65535).contains(port) { return nil }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace && !"/@?#\\".contains($0) }) else {
            return nil
        }
        self.host = host.lowercased()
        self.port = port
    }

    /// The authority of an `http://` or `https://` URL such as an `Origin`, with the scheme's
    /// default port when none is written; nil for other schemes and for `null`.
    init?(origin: String) {
        let lowered = origin.lowercased()
        let (rest, defaultPort): (Substring, Int)
        if lowered.hasPrefix("http://") {
            (rest, defaultPort) = (origin.dropFirst("http://".count), 80)
        } else if lowered.hasPrefix("https://") {
            (rest, defaultPort) = (origin.dropFirst("https://".count), 443)
        } else {
            return nil
        }
        let end = rest.firstIndex(of: "/") ?? rest.endIndex
        guard var authority = Authority(rest[..<end]) else { return nil }
        authority.port = authority.port ?? defaultPort
        self = authority
    }
}

/// An IP address literal, parsed strictly (`127.0.0.1`, `::1`; not `127.1` nor a name).
///
/// Whether an address is loopback is decided from these bytes, never from the text: the
/// name `127.evil.example` is no address at all.
enum IPAddress: Sendable, Hashable {
    case v4([UInt8])
    case v6([UInt8])

    static func parse(_ text: String) -> IPAddress? {
        var text = text
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return .v4(withUnsafeBytes(of: &v4) { Array($0) })
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return .v6(withUnsafeBytes(of: &v6) { Array($0) })
        }
        return nil
    }

    /// The address of a socket, nil for a Unix domain socket.
    init?(_ address: SocketAddress) {
        guard let text = address.ipAddress, let parsed = IPAddress.parse(text) else { return nil }
        self = parsed
    }

    var isIPv6: Bool {
        if case .v6 = self { return true }
        return false
    }

    /// 127.0.0.0/8, `::1`, and `::ffff:127.x.y.z` (an IPv4-mapped loopback address).
    var isLoopback: Bool {
        switch self {
        case .v4(let bytes):
            return bytes.first == 127
        case .v6(let bytes):
            if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
            return bytes.prefix(12).elementsEqual([UInt8](repeating: 0, count: 10) + [0xff, 0xff]) && bytes[12] == 127
        }
    }

    /// `0.0.0.0/8` and `::`: connecting to them reaches this host on Linux.
    var isUnspecified: Bool {
        switch self {
        case .v4(let bytes): return bytes.first == 0
        case .v6(let bytes): return bytes.allSatisfy { $0 == 0 }
        }
    }
}

/// Names and addresses that are this host's loopback.
enum Loopback {
    /// Whether `host` names loopback: an IP literal in 127.0.0.0/8 or `::1`, or `localhost`
    /// (and, for relaying, any `*.localhost` name: RFC 6761 reserves them for loopback).
    ///
    /// ```swift
    /// Loopback.names("127.0.0.1")         // true
    /// Loopback.names("127.evil.example")  // false: a name, not an address
    /// ```
    static func names(_ host: String) -> Bool {
        if let address = IPAddress.parse(host) { return address.isLoopback }
        let lowered = host.lowercased()
        return lowered == "localhost" || lowered == "localhost."
    }

    /// Whether relaying to `host` would reach this host itself: loopback, `*.localhost`, or
    /// an unspecified address (`0.0.0.0`, `::`), which Linux connects to this host.
    static func reachesThisHost(_ host: String) -> Bool {
        if let address = IPAddress.parse(host) { return address.isLoopback || address.isUnspecified }
        var lowered = host.lowercased()
        if lowered.hasSuffix(".") { lowered.removeLast() }
        return lowered == "localhost" || lowered.hasSuffix(".localhost")
    }
}
