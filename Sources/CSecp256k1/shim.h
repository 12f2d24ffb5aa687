#ifndef CSECP256K1_SHIM_H
#define CSECP256K1_SHIM_H
#include <secp256k1.h>
#include <secp256k1_extrakeys.h>

/// The library's static context.
///
/// Swift 6 refuses to read the C global `secp256k1_context_static` ("not concurrency-safe"); this
/// accessor returns the same constant pointer. It serves every call that does not sign or create keys
/// (parse, serialize, tweak-add, x-only conversions), and calls taking a `const` context are safe from
/// any thread. Call `secp256k1_selftest()` once before relying on it.
static inline const secp256k1_context *csecp256k1_context_static(void) {
    return secp256k1_context_static;
}

/// `SECP256K1_EC_COMPRESSED`, which Swift cannot import from its macro definition.
static inline unsigned int csecp256k1_ec_compressed(void) {
    return SECP256K1_EC_COMPRESSED;
}

/// `SECP256K1_EC_UNCOMPRESSED`, which Swift cannot import from its macro definition.
static inline unsigned int csecp256k1_ec_uncompressed(void) {
    return SECP256K1_EC_UNCOMPRESSED;
}
#endif
