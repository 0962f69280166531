#ifndef PHOTOMAP_CCRYPTO_SHIM_H
#define PHOTOMAP_CCRYPTO_SHIM_H

// OpenSSL's libcrypto, for SHA-256 (EVP_Digest with EVP_sha256): the toolchain on Linux has no
// CryptoKit, and a hash of our own would be slower and one more thing to get right.
#include <openssl/evp.h>

#endif
