// SPDX-License-Identifier: Apache-2.0
// The headers of the C library photomap's CJPEG (Sources/CJPEG) wraps: through pkg-config's flags.
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
