/// Why a pattern failed to compile or to finish a match.
///
/// ```swift
/// do { _ = try Pattern("a(b") } catch {
///     print(error)  // invalid pattern "a(b" at offset 3: missing closing parenthesis
/// }
/// ```
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The pattern is not valid PCRE2 syntax.
        case compile
        /// The match backtracked more than the match limit allows.
        case matchLimit
        /// The match nested deeper than the depth, heap or JIT stack limit allows.
        case depthLimit
        /// Any other failure PCRE2 reports (such as running out of memory).
        case other
    }

    public let kind: Kind
    public let pattern: String
    /// The offset in the pattern (in UTF-8 bytes) where compilation failed.
    public let offset: Int?
    /// PCRE2's own message.
    public let message: String

    package init(kind: Kind, pattern: String, offset: Int?, message: String) {
        self.kind = kind
        self.pattern = pattern
        self.offset = offset
        self.message = message
    }

    public var description: String {
        if let offset { return "invalid pattern \"\(pattern)\" at offset \(offset): \(message)" }
        return "pattern \"\(pattern)\": \(message)"
    }
}
