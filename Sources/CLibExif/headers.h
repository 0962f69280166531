// SPDX-License-Identifier: Apache-2.0
// The headers of the C library photomap's CExif (Sources/CExif) wraps: through pkg-config's flags.
#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-utils.h>
