#ifndef TRACKSNAP_CPCRE2_SHIM_H
#define TRACKSNAP_CPCRE2_SHIM_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

// Swift imports none of pcre2.h's function-like macros and only some of its integer macros:
// the values Patterns needs are re-exported here as constants. The functions themselves are
// called by their width-suffixed names (pcre2_compile_8, ...), which Swift does import.
static const uint32_t cpcre2_anchored = PCRE2_ANCHORED;
static const uint32_t cpcre2_endanchored = PCRE2_ENDANCHORED;
static const uint32_t cpcre2_utf = PCRE2_UTF;
static const uint32_t cpcre2_ucp = PCRE2_UCP;
static const uint32_t cpcre2_caseless = PCRE2_CASELESS;
static const uint32_t cpcre2_never_backslash_c = PCRE2_NEVER_BACKSLASH_C;
static const uint32_t cpcre2_no_utf_check = PCRE2_NO_UTF_CHECK;
static const uint32_t cpcre2_jit_complete = PCRE2_JIT_COMPLETE;
static const int cpcre2_error_nomatch = PCRE2_ERROR_NOMATCH;
static const int cpcre2_error_matchlimit = PCRE2_ERROR_MATCHLIMIT;
static const int cpcre2_error_depthlimit = PCRE2_ERROR_DEPTHLIMIT;
static const int cpcre2_error_heaplimit = PCRE2_ERROR_HEAPLIMIT;
static const int cpcre2_error_jit_stacklimit = PCRE2_ERROR_JIT_STACKLIMIT;
static const int cpcre2_error_nomemory = PCRE2_ERROR_NOMEMORY;
static const size_t cpcre2_zero_terminated = PCRE2_ZERO_TERMINATED;

#endif
