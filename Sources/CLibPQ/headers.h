// SPDX-License-Identifier: Apache-2.0
// The headers of the C library photomap's CPQ (Sources/CPQ) wraps: through pkg-config's flags.
#include <libpq-fe.h>
