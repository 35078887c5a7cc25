// libFuzzer's driver, for harnesses that keep their own main (SwiftPM renames an executable's main on Linux, so
// libFuzzer's own main cannot be used). Defined only when linked with -sanitize=fuzzer: call it only then.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
