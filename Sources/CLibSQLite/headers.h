// SPDX-License-Identifier: Apache-2.0
// The headers of the C library photomap's CSQLite (Sources/CSQLite) wraps: through pkg-config's flags.
#include <sqlite3.h>
