import CPCRE2

/// The compiled form of a pattern, owning PCRE2's `pcre2_code`.
///
/// `@unchecked Sendable` is safe because the only state is set in `init` and never changed:
/// a `pcre2_code` is immutable once `pcre2_compile` and `pcre2_jit_compile` have returned,
/// and PCRE2 documents it as safe to match from many threads at once, as long as each thread
/// brings its own match data and JIT stack (which `cpcre2_match` in the shim keeps per thread).
@usableFromInline
final class CompiledPattern: @unchecked Sendable {
    let source: String
    let options: Pattern.Options
    private let code: OpaquePointer
    /// Whether `pcre2_jit_compile` succeeded; if not, the interpreter runs the same code.
    let isJITCompiled: Bool

    /// Compiles `source`.
    ///
    /// - Parameters:
    ///   - source: A PCRE2 pattern.
    ///   - options: The pattern's options.
    ///   - jit: Whether to try the JIT; tests turn it off to check the interpreter, the path
    ///     taken where the JIT is not available.
    /// - Throws: `PatternError` of kind `.compile`.
    init(source: String, options: Pattern.Options, jit: Bool = true) throws(PatternError) {
        // UCP makes \d, \w, \s, \b and [[:alpha:]] follow Unicode as NSRegularExpression and
        // Swift's Regex do. Measured with the JIT on the pattern benchmark's URL workload: no
        // difference with [a-z0-9] classes, about 4% slower when written with \w and \d.
        // \C could split a UTF-8 character and is of no use on text: refuse it.
        var compileOptions = cpcre2_utf | cpcre2_ucp | cpcre2_never_backslash_c
        if options.contains(.caseInsensitive) { compileOptions |= cpcre2_caseless }
        // Anchoring at compile time, not match time: JIT-compiled code ignores ANCHORED and
        // ENDANCHORED passed to the match, falling back to the slower interpreter.
        if !options.contains(.search) { compileOptions |= cpcre2_anchored | cpcre2_endanchored }

        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled = withUTF8Bytes(of: source) { bytes, count in
            pcre2_compile_8(bytes, count, compileOptions, &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            throw PatternError(
                kind: .compile, pattern: source, offset: errorOffset,
                message: pcre2ErrorMessage(errorCode))
        }
        self.source = source
        self.options = options
        self.code = compiled
        // A failure here (no JIT on this CPU, or a pattern too large for it) is not an error:
        // pcre2_match interprets the same code.
        self.isJITCompiled = jit && pcre2_jit_compile_8(compiled, cpcre2_jit_complete) == 0
    }

    deinit {
        pcre2_code_free_8(code)
    }

    /// `releasenone`: a match releases nothing its caller holds (a bridged subject's copy is
    /// retained and released here, balanced), so a caller reading subjects from memory it does
    /// not own need not retain each one around the call; that retain and release cost more
    /// than the rest of this function on the pattern benchmark.
    @usableFromInline @_effects(releasenone)
    func matches(_ subject: String) throws(PatternError) -> Bool {
        // A native string lends its UTF-8 bytes in place; only a bridged one is copied.
        let result =
            subject.utf8.withContiguousStorageIfAvailable { bytes in
                cpcre2_match(code, bytes.baseAddress, bytes.count, isJITCompiled ? 1 : 0)
            } ?? matchCopying(subject)
        // A non-negative result is a match (0 only says the ovector was too small for the
        // captures, which are not needed).
        if result >= 0 { return true }
        if result == cpcre2_error_nomatch { return false }
        throw matchError(result)
    }

    /// The match of a string whose bytes are not contiguous, apart so that its buffer does not
    /// weigh on the common path.
    @inline(never)
    private func matchCopying(_ subject: String) -> Int32 {
        withUTF8Bytes(of: subject) { bytes, count in cpcre2_match(code, bytes, count, isJITCompiled ? 1 : 0) }
    }

    private func matchError(_ code: Int32) -> PatternError {
        let kind: PatternError.Kind =
            switch code {
            case cpcre2_error_matchlimit: .matchLimit
            case cpcre2_error_depthlimit, cpcre2_error_heaplimit, cpcre2_error_jit_stacklimit:
                .depthLimit
            default: .other
            }
        return PatternError(kind: kind, pattern: source, offset: nil, message: pcre2ErrorMessage(code))
    }
}

/// PCRE2's text for an error code, compile-time or match-time.
func pcre2ErrorMessage(_ code: Int32) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
        guard let base = buffer.baseAddress else { return "PCRE2 error \(code)" }
        let length = pcre2_get_error_message_8(code, base, buffer.count)
        guard length >= 0 else { return "PCRE2 error \(code)" }
        return String(decoding: UnsafeBufferPointer(start: base, count: Int(length)), as: UTF8.self)
    }
}

/// Calls `body` with the UTF-8 bytes of `string`, without copying a native string.
///
/// The pointer is never null, even for an empty string: PCRE2 before 10.43 rejects a null
/// subject or pattern whatever its length.
func withUTF8Bytes<Result>(
    of string: String, _ body: (UnsafePointer<UInt8>, Int) -> Result
) -> Result {
    var string = string
    return string.withUTF8 { buffer in
        if let base = buffer.baseAddress { return body(base, buffer.count) }
        var empty: UInt8 = 0
        return withUnsafePointer(to: &empty) { body($0, 0) }
    }
}
