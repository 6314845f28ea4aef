#ifndef TRACKSNAP_CPCRE2_BASELINE_H
#define TRACKSNAP_CPCRE2_BASELINE_H

#include <stddef.h>
#include <stdint.h>

// The pattern benchmark's peer: PCRE2 driven from C with nothing around it, compiled and
// matched with the options tracksnap's Pattern uses, so that the benchmark shows what the
// Swift side costs on top of pcre2_jit_match itself.

/// Compiles `count` patterns (NUL-terminated) as Pattern does: UTF, UCP, no \C, anchored at both
/// ends, JIT-compiled. Returns an opaque set, or NULL if any fails to compile or JIT-compile.
void *cpcre2_baseline_create(const char *const *sources, size_t count);

/// Matches every pattern against every subject, pattern-major, writing 1 or 0 per pair into
/// `verdicts` (count × subjectCount bytes). Returns the number of matches, or -1 on an error.
long cpcre2_baseline_run(void *set, const uint8_t *const *subjects, const size_t *lengths, size_t subjectCount, uint8_t *verdicts);

void cpcre2_baseline_free(void *set);

#endif
