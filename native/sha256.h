/* SHA-256 (FIPS 180-4), for the vault id: the first 12 hex characters of sha256(real path). */
#ifndef ENGRAM_SHA256_H
#define ENGRAM_SHA256_H
#include <stddef.h>

/* Writes the 64 lowercase hex characters of sha256(data) and a NUL into hex. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
