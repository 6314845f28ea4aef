/// A compiled PCRE2 pattern that must match a whole subject.
///
/// A pattern is compiled once (JIT-compiled where the platform supports it) and can be shared
/// freely across threads and tasks. By default it must match the *whole* subject, as a
/// snapshot's `{"$regex": "…"}` means; `.search` finds it anywhere instead.
///
/// ```swift
/// let orderID = try Pattern("o-[0-9]+")
/// try orderID.matches("o-42")      // true
/// try orderID.matches("no-42")     // false: the whole subject must match
/// try Pattern("o-[0-9]+", options: .search).matches("no-42")  // true
/// ```
///
/// Two patterns are equal when their source and options are equal.
public struct Pattern: Sendable, Hashable, CustomStringConvertible {
    /// How a pattern is compiled and matched.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Letters match regardless of case, with Unicode case folding (`É` matches `é`).
        public static let caseInsensitive = Options(rawValue: 1 << 0)
        /// Find the pattern anywhere in the subject instead of requiring a full match.
        public static let search = Options(rawValue: 1 << 1)
    }

    /// The pattern as written, in PCRE2 syntax.
    public let source: String
    /// The options it was compiled with.
    public let options: Options
    @usableFromInline let compiled: CompiledPattern

    /// Compiles a pattern.
    ///
    /// ```swift
    /// let url = try Pattern(#"https://api\.segment\.io/v1/(batch|track|page)"#)
    /// ```
    ///
    /// - Parameters:
    ///   - source: A PCRE2 pattern. `\d`, `\w`, `\s` and POSIX classes follow Unicode.
    ///   - options: `.caseInsensitive`, `.search`; full match and case-sensitive by default.
    /// - Throws: `PatternError` of kind `.compile`, carrying PCRE2's message and the offset
    ///   (in UTF-8 bytes) of the error in `source`.
    public init(_ source: String, options: Options = []) throws(PatternError) {
        self.init(compiled: try CompiledPattern(source: source, options: options))
    }

    init(compiled: CompiledPattern) {
        self.source = compiled.source
        self.options = compiled.options
        self.compiled = compiled
    }

    /// A pattern from the process-wide cache, compiled on first use.
    ///
    /// Use it where the same pattern text is met again and again, such as the values of a
    /// snapshot checked against every captured request.
    ///
    /// ```swift
    /// let id = try Pattern.cached("o-[0-9]+")
    /// ```
    ///
    /// - Parameters:
    ///   - source: A PCRE2 pattern.
    ///   - options: As for `init(_:options:)`.
    /// - Throws: `PatternError` of kind `.compile` when `source` is not a valid pattern.
    ///   Failures are not cached.
    package static func cached(_ source: String, options: Options = []) throws(PatternError) -> Pattern {
        Pattern(compiled: try PatternCache.shared.compiled(source: source, options: options))
    }

    /// Whether the pattern matches the subject: all of it, or anywhere in it with `.search`.
    ///
    /// ```swift
    /// try Pattern("foo|foobar").matches("foobar")   // true
    /// ```
    ///
    /// - Parameter subject: The text to match.
    /// - Throws: `PatternError` of kind `.matchLimit` or `.depthLimit` when the match
    ///   backtracks too much to finish (a catastrophic pattern such as `(a+)+$`), instead of
    ///   hanging; `.other` for any other failure PCRE2 reports.
    @inlinable
    public func matches(_ subject: String) throws(PatternError) -> Bool {
        try compiled.matches(subject)
    }

    public var description: String { source }

    public static func == (lhs: Pattern, rhs: Pattern) -> Bool {
        lhs.source == rhs.source && lhs.options == rhs.options
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(options)
    }
}
