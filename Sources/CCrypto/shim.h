#ifndef PHOTOMAP_CCRYPTO_SHIM_H
#define PHOTOMAP_CCRYPTO_SHIM_H

// OpenSSL's libcrypto, for SHA-256: the toolchain on Linux has no CryptoKit, and a hash of our own
// would be slower and one more thing to get right. OpenSSL 3 deprecates the low-level SHA256_* calls
// in favour of EVP, hence the define: see photomap_sha256.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>

/// The SHA-256 digest of `count` bytes into `digest` (32 bytes). The low-level calls run the same
/// code as EVP_Digest without its context allocation and provider dispatch, which cost more than
/// hashing a cache key (~0.7 µs against ~1.9 µs): every cache hit hashes its key.
static inline void photomap_sha256(const void *bytes, size_t count, unsigned char *digest) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, bytes, count);
    SHA256_Final(digest, &context);
}

#endif
