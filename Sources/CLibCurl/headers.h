// SPDX-License-Identifier: Apache-2.0
// The headers of the C library photomap's CCurl (Sources/CCurl) wraps: through pkg-config's flags.
#include <curl/curl.h>
