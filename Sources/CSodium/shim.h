// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CSODIUM_SHIM_H
#define PHOTOMAP_CSODIUM_SHIM_H

// libsodium, for the users' passwords (Argon2id, crypto_pwhash_str) and the random session tokens
// (randombytes_buf): a password hash of our own, or one tuned wrongly, is the classic way to lose them.
#include <sodium.h>

#endif
