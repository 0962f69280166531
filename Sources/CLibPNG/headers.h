// SPDX-License-Identifier: Apache-2.0
// The headers of the C library photomap's CPNG (Sources/CPNG) wraps: through pkg-config's flags.
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
