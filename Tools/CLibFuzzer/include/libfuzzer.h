// libFuzzer's driver, which `-sanitize=fuzzer` links. SwiftPM gives an executable its own `main`,
// so the fuzz executable's `main` hands the command line and the per-input callback to the driver
// instead of linking libFuzzer's `main`. Referenced only in builds with `-DFUZZING`.
#ifndef TRACKSNAP_LIBFUZZER_H
#define TRACKSNAP_LIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
