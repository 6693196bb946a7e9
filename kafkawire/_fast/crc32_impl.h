/*
 * CRC-32 (IEEE 802.3, the zlib checksum), the checksum of Kafka's legacy messages
 * (magic 0 and 1), as slicing-by-8 tables in portable C.
 *
 * Python's zlib.crc32 gives the same values but has no C interface a Cython module
 * can reach, and linking zlib itself is not possible on every platform we build for.
 */
#ifndef KAFKAWIRE_CRC32_IMPL_H
#define KAFKAWIRE_CRC32_IMPL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The CRC-32 of `len` bytes at `data`, continuing from the finished CRC `crc`
 * (0 to start), as zlib.crc32(data, crc).  The CRC of "123456789" is 0xCBF43926.
 * Thread-safe once kw_crc32_init has run; needs no GIL.
 */
uint32_t kw_crc32(uint32_t crc, const void *data, size_t len);

/* Builds the tables; call it once, from one thread, before kw_crc32 (at import). */
void kw_crc32_init(void);

#ifdef __cplusplus
}
#endif

#endif /* KAFKAWIRE_CRC32_IMPL_H */
