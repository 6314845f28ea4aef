import Foundation

/// The pattern recording writes for a local server's origin (any loopback host, any port: a
/// server a test starts listens on a fresh port every run), and how a summary shows it.
///
/// ```swift
/// LocalOriginPattern.readable(#"http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]):[0-9]+\/v1\/batch"#)
/// // http://localhost:*/v1/batch
/// ```
package enum LocalOriginPattern {
    /// The loopback hosts the pattern accepts.
    package static let loopback = #"127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]"#

    /// The characters an escaped literal writes with a backslash (`PatternEscaping.escape`).
    static let metacharacters = Set(#"\^$.|?*+()[]{}#-/"#.unicodeScalars)

    /// The URL a local-origin pattern stands for, its port a `*` and its host the server's own
    /// when the pattern names one, else `localhost`; nil for any other pattern.
    package static func readable(_ source: String) -> String? {
        guard let schemeEnd = source.range(of: "://(" + loopback) else { return nil }
        let scheme = source[..<schemeEnd.lowerBound]
        guard scheme == "http" || scheme == "https" else { return nil }
        let afterHosts = source[schemeEnd.upperBound...]
        guard let portStart = afterHosts.range(of: "):[0-9]+") else { return nil }
        var host = "localhost"
        let extra = afterHosts[..<portStart.lowerBound]
        if !extra.isEmpty {
            guard extra.hasPrefix("|"), let named = literal(extra.dropFirst()) else { return nil }
            host = named
        }
        guard let rest = literal(afterHosts[portStart.upperBound...]) else { return nil }
        return "\(scheme)://\(host):*\(rest)"
    }

    /// The text an escaped literal stands for; nil when it holds an unescaped metacharacter.
    private static func literal(_ pattern: Substring) -> String? {
        var out = String.UnicodeScalarView()
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                guard metacharacters.contains(scalar) else { return nil }
                out.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                guard !metacharacters.contains(scalar) else { return nil }
                out.append(scalar)
            }
        }
        return escaped ? nil : String(out)
    }
}
