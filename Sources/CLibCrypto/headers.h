// SPDX-License-Identifier: Apache-2.0
// The headers of the C library photomap's CCrypto (Sources/CCrypto) wraps: through pkg-config's flags.
#include <openssl/evp.h>
#include <openssl/sha.h>
