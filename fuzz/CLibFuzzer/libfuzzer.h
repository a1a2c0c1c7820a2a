// libFuzzer's driver entry (compiler-rt FuzzerInterface.h), declared for Swift. Nothing is linked
// from here: the fuzz targets call it only when built with -sanitize=fuzzer, which links libFuzzer.
#include <stddef.h>
#include <stdint.h>

// Runs libFuzzer with the command line as given, calling `callback` for each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
