// SPDX-License-Identifier: Apache-2.0
// OpenSSL's libcrypto, for SHA-256: the toolchain on Linux has no CryptoKit, and a hash of our own
// would be slower and one more thing to get right. OpenSSL 3 deprecates the low-level SHA256_* calls
// in favour of EVP, hence the define: see photomap_sha256.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "CCrypto.h"

void photomap_sha256(const void *bytes, size_t count, unsigned char *digest) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, bytes, count);
    SHA256_Final(digest, &context);
}
