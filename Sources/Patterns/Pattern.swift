import CPCRE2

/// A compiled PCRE2 pattern that must match a whole subject.
///
/// SKELETON: the real implementation (JIT, cache, limits) replaces this file.
public struct Pattern: Sendable, Hashable, CustomStringConvertible {
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let caseInsensitive = Options(rawValue: 1 << 0)
        /// Find the pattern anywhere in the subject instead of requiring a full match.
        public static let search = Options(rawValue: 1 << 1)
    }

    public let source: String
    public let options: Options

    public init(_ source: String, options: Options = []) throws(PatternError) {
        self.source = source
        self.options = options
    }

    /// A pattern from the process-wide cache, compiled on first use.
    public static func cached(_ source: String, options: Options = []) throws(PatternError) -> Pattern {
        try Pattern(source, options: options)
    }

    public func matches(_ subject: String) throws(PatternError) -> Bool { subject == source }

    public var description: String { source }
}

/// Why a pattern failed to compile or to finish a match.
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable { case compile, matchLimit, depthLimit, other }
    public let kind: Kind
    public let pattern: String
    /// The offset in the pattern (in UTF-8 bytes) where compilation failed.
    public let offset: Int?
    /// PCRE2's own message.
    public let message: String

    public init(kind: Kind, pattern: String, offset: Int?, message: String) {
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
