import TracksnapDecoders
import TracksnapTraffic

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
///
/// A misspelt keyword must not pass for a host and intercept nothing: a single-label name (no
/// dot, not `localhost`, not an IPv6 address) near a keyword (`analytcs`) is refused with the
/// keyword meant. Other single-label hosts (`collector`, a container's name) are taken as they
/// are, and one near a keyword is written with the DNS root's final dot (`analytic.`).
public struct Interception: Sendable, Hashable {
    package enum Action: String, Sendable, Hashable {
        /// Answered as the collector answers: nothing leaves the machine.
        case answer
        /// Sent on to the real host over TLS, verified; its answer goes back to the client.
        case forward
    }

    package enum HostPattern: Sendable, Hashable {
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

    package struct Rule: Sendable, Hashable {
        package var pattern: HostPattern
        package var action: Action
    }

    package var rules: [Rule]

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
                let word = String(pattern[pattern.index(after: equals)...])
                guard let named = Action(rawValue: word) else {
                    let meant = NearestNames.didYouMean(word, among: ["answer", "forward"]).map { "; \($0)" } ?? ""
                    throw CaptureServerError("--intercept \"\(text)\": after = comes answer or forward\(meant)")
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
                if !wildcard, !name.contains("."), !name.contains(":"), name != "localhost",
                    let meant = NearestNames.didYouMean(String(name), among: Self.keywords)
                {
                    throw CaptureServerError(
                        "--intercept \"\(text)\" is not a keyword, nor a host name with a dot: \(meant) (for a host of that name, write \"\(name).\")"
                    )
                }
                // The DNS root's dot, which lets a single-label host near a keyword be named.
                if name.hasSuffix("."), name.count > 1 { name = name.dropLast() }
                hostPattern = wildcard ? .below(String(name)) : .exact(String(name))
            }
            rules.append(Rule(pattern: hostPattern, action: action))
        }
    }

    /// The words a pattern can be besides a host: `*` is `all`.
    static let keywords = ["all", "analytics"]

    /// What happens to a tunnel to `host`: nil when it is not intercepted.
    package func action(for host: String) -> Action? {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return rules.first { $0.pattern.matches(host) }?.action
    }
}
