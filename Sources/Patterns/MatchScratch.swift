import CPCRE2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The mutable state a match needs: match data, a match context with limits, a JIT stack.
///
/// None of it may be used by two threads at once, while all of it can be reused by any
/// pattern, so each thread keeps one set, created on its first match and freed when the
/// thread exits. A match never suspends, so a task cannot move to another thread mid-match.
/// This measured faster than both allocating per call and a pool behind a `Mutex`.
struct MatchScratch {
    /// Backtracking steps before a match gives up with `.matchLimit`: a catastrophic pattern
    /// such as `(a+)+$` stops within milliseconds, while real snapshot values stay far below.
    static let matchLimit: UInt32 = 1_000_000
    /// Nesting depth for the interpreter (used only without JIT), reported as `.depthLimit`.
    static let depthLimit: UInt32 = 250_000
    /// The JIT stack grows on demand up to the maximum; past it, `.depthLimit`. A repeated
    /// group costs about 32 bytes of it per iteration: 8 MiB lets `(a|b)*` run over some
    /// 250,000 characters, enough for any request body, and is only address space until used.
    static let jitStackStartSize = 32 * 1024
    static let jitStackMaxSize = 8 * 1024 * 1024

    let matchData: OpaquePointer
    let matchContext: OpaquePointer
    let jitStack: OpaquePointer?

    /// Allocates a set, or returns nil when PCRE2 cannot allocate it.
    static func make() -> MatchScratch? {
        // One pair is enough: only whether it matched is read, never the captures.
        guard let matchData = pcre2_match_data_create_8(1, nil) else { return nil }
        guard let matchContext = pcre2_match_context_create_8(nil) else {
            pcre2_match_data_free_8(matchData)
            return nil
        }
        pcre2_set_match_limit_8(matchContext, matchLimit)
        pcre2_set_depth_limit_8(matchContext, depthLimit)
        // Without a JIT stack of its own, a JIT match uses 32 KiB of the machine stack, which
        // long subjects with nested repeats can exhaust.
        let jitStack = pcre2_jit_stack_create_8(jitStackStartSize, jitStackMaxSize, nil)
        if let jitStack { pcre2_jit_stack_assign_8(matchContext, nil, UnsafeMutableRawPointer(jitStack)) }
        return MatchScratch(matchData: matchData, matchContext: matchContext, jitStack: jitStack)
    }

    func free() {
        pcre2_match_data_free_8(matchData)
        pcre2_match_context_free_8(matchContext)
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
    }

    /// Calls `body` with this thread's scratch, or nil if it could not be allocated.
    static func withCurrent<Result>(_ body: (borrowing MatchScratch?) -> Result) -> Result {
        guard let key = threadKey else {
            // No thread-specific storage: fall back to a set per call.
            let scratch = make()
            defer { scratch?.free() }
            return body(scratch)
        }
        if let raw = pthread_getspecific(key) {
            return body(raw.assumingMemoryBound(to: MatchScratch.self).pointee)
        }
        guard let scratch = make() else { return body(nil) }
        let stored = UnsafeMutablePointer<MatchScratch>.allocate(capacity: 1)
        stored.initialize(to: scratch)
        guard pthread_setspecific(key, stored) == 0 else {
            stored.deinitialize(count: 1)
            stored.deallocate()
            defer { scratch.free() }
            return body(scratch)
        }
        return body(scratch)
    }

    /// The key of each thread's scratch; nil if the system has no key left to give.
    private static let threadKey: pthread_key_t? = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            // Runs when a thread that matched exits.
            // Optional on Glibc, not on Darwin: one spelling for both.
            let raw: UnsafeMutableRawPointer? = raw
            guard let stored = raw?.assumingMemoryBound(to: MatchScratch.self) else { return }
            stored.pointee.free()
            stored.deinitialize(count: 1)
            stored.deallocate()
        }
        return status == 0 ? key : nil
    }()
}
