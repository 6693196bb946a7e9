/*
 * CRC-32C (Castagnoli), the checksum of Kafka's record batches (magic v2).
 *
 * One portable entry point picks, once per process, the fastest implementation
 * the CPU offers: the SSE4.2 crc32 instruction on x86-64 (with PCLMULQDQ
 * folding alongside when present), the CRC32 extension on AArch64, or a
 * slicing-by-8 table in plain C everywhere else.
 */
#ifndef KAFKAWIRE_CRC32C_IMPL_H
#define KAFKAWIRE_CRC32C_IMPL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The CRC-32C of `len` bytes at `data`, continuing from `crc`.
 *
 * `crc` is a finished CRC value (0 to start); the pre- and post-inversion happen
 * inside, so kw_crc32c(kw_crc32c(0, a, n), b, m) equals the CRC of a followed
 * by b.  The CRC of "123456789" is 0xE3069283.  Thread-safe; needs no GIL.
 */
uint32_t kw_crc32c(uint32_t crc, const void *data, size_t len);

/*
 * Same result as kw_crc32c, always from the portable slicing-by-8 tables
 * whatever the CPU offers (to test the fallback on any machine).
 */
uint32_t kw_crc32c_portable(uint32_t crc, const void *data, size_t len);

/* The implementation in use: "sse4.2", "armv8" or "table". */
const char *kw_crc32c_implementation(void);

/*
 * Builds the tables and detects the CPU.  Optional (kw_crc32c calls it on
 * first use) but cheap and idempotent: call it once from a single thread, e.g.
 * at module import, so that no two threads ever build the tables together.
 */
void kw_crc32c_init(void);

#ifdef __cplusplus
}
#endif

#endif /* KAFKAWIRE_CRC32C_IMPL_H */
