#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include "cpcre2_baseline.h"

typedef struct {
    pcre2_code *codes[64];
    size_t count;
    pcre2_match_data *data;
    pcre2_match_context *context;
    pcre2_jit_stack *stack;
} baseline_set;

void *cpcre2_baseline_create(const char *const *sources, size_t count) {
    if (count > 64) return NULL;
    baseline_set *set = calloc(1, sizeof *set);
    if (!set) return NULL;
    uint32_t options = PCRE2_UTF | PCRE2_UCP | PCRE2_NEVER_BACKSLASH_C | PCRE2_ANCHORED | PCRE2_ENDANCHORED;
    for (size_t i = 0; i < count; i++) {
        int error;
        PCRE2_SIZE offset;
        set->codes[i] = pcre2_compile((PCRE2_SPTR)sources[i], PCRE2_ZERO_TERMINATED, options, &error, &offset, NULL);
        set->count = i + 1;
        if (!set->codes[i] || pcre2_jit_compile(set->codes[i], PCRE2_JIT_COMPLETE) != 0) {
            cpcre2_baseline_free(set);
            return NULL;
        }
    }
    set->data = pcre2_match_data_create(1, NULL);
    set->context = pcre2_match_context_create(NULL);
    set->stack = pcre2_jit_stack_create(32 * 1024, 8 * 1024 * 1024, NULL);
    if (!set->data || !set->context || !set->stack) {
        cpcre2_baseline_free(set);
        return NULL;
    }
    pcre2_set_match_limit(set->context, 1000000);
    pcre2_jit_stack_assign(set->context, NULL, set->stack);
    return set;
}

long cpcre2_baseline_run(void *opaque, const uint8_t *const *subjects, const size_t *lengths, size_t subjectCount, uint8_t *verdicts) {
    baseline_set *set = opaque;
    long matched = 0;
    size_t index = 0;
    for (size_t p = 0; p < set->count; p++) {
        for (size_t s = 0; s < subjectCount; s++) {
            int rc = pcre2_jit_match(set->codes[p], subjects[s], lengths[s], 0, 0, set->data, set->context);
            if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) return -1;
            verdicts[index++] = rc >= 0;
            matched += rc >= 0;
        }
    }
    return matched;
}

void cpcre2_baseline_free(void *opaque) {
    baseline_set *set = opaque;
    if (!set) return;
    for (size_t i = 0; i < set->count; i++) pcre2_code_free(set->codes[i]);
    pcre2_match_data_free(set->data);
    pcre2_match_context_free(set->context);
    pcre2_jit_stack_free(set->stack);
    free(set);
}
