#ifndef TRACKSNAP_CPCRE2_SHIM_H
#define TRACKSNAP_CPCRE2_SHIM_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>

// Swift imports none of pcre2.h's function-like macros and only some of its integer macros:
// the values Patterns needs are re-exported here as constants. The functions themselves are
// called by their width-suffixed names (pcre2_compile_8, ...), which Swift does import.
static const uint32_t cpcre2_anchored = PCRE2_ANCHORED;
static const uint32_t cpcre2_endanchored = PCRE2_ENDANCHORED;
static const uint32_t cpcre2_utf = PCRE2_UTF;
static const uint32_t cpcre2_ucp = PCRE2_UCP;
static const uint32_t cpcre2_caseless = PCRE2_CASELESS;
static const uint32_t cpcre2_never_backslash_c = PCRE2_NEVER_BACKSLASH_C;
static const uint32_t cpcre2_jit_complete = PCRE2_JIT_COMPLETE;
static const int cpcre2_error_nomatch = PCRE2_ERROR_NOMATCH;
static const int cpcre2_error_matchlimit = PCRE2_ERROR_MATCHLIMIT;
static const int cpcre2_error_depthlimit = PCRE2_ERROR_DEPTHLIMIT;
static const int cpcre2_error_heaplimit = PCRE2_ERROR_HEAPLIMIT;
static const int cpcre2_error_jit_stacklimit = PCRE2_ERROR_JIT_STACKLIMIT;
static const size_t cpcre2_zero_terminated = PCRE2_ZERO_TERMINATED;

// The state a match needs (match data, a match context with limits, a JIT stack) is kept per
// thread, here in C: a thread-local pointer read on every match costs a few instructions, where
// Swift's lazily initialised globals and pthread_getspecific cost more than the match itself.
// Only CompiledPattern.swift calls these, so one copy of them (and of their statics) exists.

/// Backtracking steps before a match gives up with PCRE2_ERROR_MATCHLIMIT: a catastrophic
/// pattern such as `(a+)+$` stops within milliseconds, while real snapshot values stay far below.
static const uint32_t cpcre2_match_limit = 1000000;
/// Nesting depth for the interpreter (used only without JIT).
static const uint32_t cpcre2_depth_limit = 250000;
/// The JIT stack grows on demand up to its maximum: a repeated group costs about 32 bytes of it
/// per iteration, so 8 MiB lets `(a|b)*` run over some 250,000 characters, enough for any request
/// body, and is only address space until used.
static const size_t cpcre2_jit_stack_start = 32 * 1024;
static const size_t cpcre2_jit_stack_max = 8 * 1024 * 1024;

typedef struct {
    pcre2_match_data_8 *data;
    pcre2_match_context_8 *context;
    pcre2_jit_stack_8 *stack;
} cpcre2_scratch;

static inline void cpcre2_scratch_free(void *raw) {
    cpcre2_scratch *scratch = raw;
    if (!scratch) return;
    pcre2_match_data_free_8(scratch->data);
    pcre2_match_context_free_8(scratch->context);
    pcre2_jit_stack_free_8(scratch->stack);
    free(scratch);
}

// Statics live inside functions: Swift emits a header's inline functions, not its variables.
static inline pthread_key_t *cpcre2_scratch_key(void) {
    static pthread_key_t key;
    return &key;
}

static inline int *cpcre2_scratch_key_made(void) {
    static int made;
    return &made;
}

static inline void cpcre2_make_scratch_key(void) {
    *cpcre2_scratch_key_made() = pthread_key_create(cpcre2_scratch_key(), cpcre2_scratch_free) == 0;
}

static inline pthread_once_t *cpcre2_scratch_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

static inline __attribute__((always_inline)) cpcre2_scratch **cpcre2_thread_slot(void) {
    static _Thread_local cpcre2_scratch *slot __attribute__((tls_model("initial-exec")));
    return &slot;
}

/// Makes this thread's scratch on its first match; it is freed when the thread exits. NULL when
/// PCRE2 cannot allocate it.
static inline __attribute__((noinline)) cpcre2_scratch *cpcre2_make_thread_scratch(cpcre2_scratch **slot) {
    cpcre2_scratch *scratch = calloc(1, sizeof *scratch);
    if (!scratch) return NULL;
    scratch->data = pcre2_match_data_create_8(1, NULL);  // only whether it matched is read
    scratch->context = pcre2_match_context_create_8(NULL);
    if (!scratch->data || !scratch->context) {
        cpcre2_scratch_free(scratch);
        return NULL;
    }
    pcre2_set_match_limit_8(scratch->context, cpcre2_match_limit);
    pcre2_set_depth_limit_8(scratch->context, cpcre2_depth_limit);
    // Without a JIT stack of its own, a JIT match uses 32 KiB of the machine stack, which long
    // subjects with nested repeats can exhaust.
    scratch->stack = pcre2_jit_stack_create_8(cpcre2_jit_stack_start, cpcre2_jit_stack_max, NULL);
    if (scratch->stack) pcre2_jit_stack_assign_8(scratch->context, NULL, scratch->stack);
    pthread_once(cpcre2_scratch_once(), cpcre2_make_scratch_key);
    // Without a key the scratch still serves this thread; it is then not freed at its exit.
    if (*cpcre2_scratch_key_made()) pthread_setspecific(*cpcre2_scratch_key(), scratch);
    *slot = scratch;
    return scratch;
}

static inline __attribute__((always_inline)) cpcre2_scratch *cpcre2_thread_scratch(void) {
    cpcre2_scratch **slot = cpcre2_thread_slot();
    return *slot ? *slot : cpcre2_make_thread_scratch(slot);
}

/// Matches with this thread's scratch: PCRE2's result, or PCRE2_ERROR_NOMEMORY without scratch.
/// The subject may be NULL when empty (PCRE2 before 10.43 rejects a NULL subject).
static inline __attribute__((always_inline)) int cpcre2_match(const pcre2_code_8 *code, const uint8_t *subject, size_t length, int jit) {
    cpcre2_scratch *scratch = cpcre2_thread_scratch();
    if (!scratch) return PCRE2_ERROR_NOMEMORY;
    if (!subject) subject = (const uint8_t *)"";
    if (jit) return pcre2_jit_match_8(code, subject, length, 0, 0, scratch->data, scratch->context);
    // Swift strings are always valid UTF-8: PCRE2 need not check them again.
    return pcre2_match_8(code, subject, length, 0, PCRE2_NO_UTF_CHECK, scratch->data, scratch->context);
}

#endif