// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CLIBFUZZER_SHIM_H
#define PHOTOMAP_CLIBFUZZER_SHIM_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, for programs that have a main of their own (libclang_rt.fuzzer_no_main):
// it parses libFuzzer's flags from argv and calls `callback` with each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
