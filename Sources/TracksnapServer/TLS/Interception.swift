import TracksnapDecoders

/// Which `CONNECT` tunnels `serve --intercept` decrypts, and whether their requests are answered
/// locally or forwarded to the real host.
///
/// ```swift
/// let interception = try Interception(["*.segment.io", "api2.amplitude.com=answer", "analytics"], answer: false)
/// interception.action(for: "api.segment.io")      // .forward
/// interception.action(for: "api2.amplitude.com")  // .answer
/// interception.action(for: "example.com")         // nil: tunnelled untouched
/// ```
///
/// A pattern is `all`, `analytics` (the vendors' own domains the built-in decoders know, and
/// their subdomains), `*.DOMAIN` (any name below DOMAIN, not DOMAIN itself), or a host name or IP
/// address, matched exactly and without regard to case. `PATTERN=answer` or `PATTERN=forward`
/// sets that pattern's action; without one it takes the default (`--answer` or forwarding).
/// The first pattern that matches decides.
public struct Interception: Sendable, Hashable {
    public enum Action: String, Sendable, Hashable {
        /// Answered as the collector answers: nothing leaves the machine.
        case answer
        /// Sent on to the real host over TLS, verified; its answer goes back to the client.
        case forward
    }

    public enum HostPattern: Sendable, Hashable {
        case all
        case analytics
        case below(String)
        case exact(String)

        func matches(_ host: String) -> Bool {
            switch self {
            case .all: true
            case .analytics: VendorDomains.contains(host)
            case .below(let domain): host.hasSuffix("." + domain)
            case .exact(let name): host == name
            }
        }
    }

    public struct Rule: Sendable, Hashable {
        public var pattern: HostPattern
        public var action: Action
    }

    public var rules: [Rule]

    /// Parses `serve --intercept` patterns.
    ///
    /// - Parameters:
    ///   - patterns: `all`, `analytics`, `*.DOMAIN` or a host, each optionally `=answer` or `=forward`.
    ///   - answer: the action of a pattern that names none: answer locally when true, forward when false.
    /// - Throws: `CaptureServerError` naming a pattern that is none of these.
    public init(_ patterns: [String], answer: Bool) throws(CaptureServerError) {
        rules = []
        for text in patterns {
            var pattern = Substring(text.lowercased())
            var action: Action = answer ? .answer : .forward
            if let equals = pattern.lastIndex(of: "=") {
                guard let named = Action(rawValue: String(pattern[pattern.index(after: equals)...])) else {
                    throw CaptureServerError("--intercept \"\(text)\": after = comes answer or forward")
                }
                action = named
                pattern = pattern[..<equals]
            }
            let hostPattern: HostPattern
            switch pattern {
            case "all", "*": hostPattern = .all
            case "analytics": hostPattern = .analytics
            default:
                var name = pattern
                if name.hasPrefix("[") && name.hasSuffix("]") { name = name.dropFirst().dropLast() }
                let wildcard = name.hasPrefix("*.")
                if wildcard { name = name.dropFirst(2) }
                let allowed = name.allSatisfy { $0.isLetter || $0.isNumber || "-.:_".contains($0) }
                guard !name.isEmpty, allowed, !name.contains("..") else {
                    throw CaptureServerError(
                        "--intercept \"\(text)\" is not a pattern: give all, analytics, *.DOMAIN or a host name, optionally =answer or =forward"
                    )
                }
                hostPattern = wildcard ? .below(String(name)) : .exact(String(name))
            }
            rules.append(Rule(pattern: hostPattern, action: action))
        }
    }

    /// What happens to a tunnel to `host`: nil when it is not intercepted.
    public func action(for host: String) -> Action? {
        let host = host.lowercased()
        return rules.first { $0.pattern.matches(host) }?.action
    }
}
