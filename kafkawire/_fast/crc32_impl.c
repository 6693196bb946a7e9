/*
 * CRC-32 (IEEE, reflected polynomial 0xEDB88320) by slicing-by-8: eight bytes per
 * step through eight 256-entry tables, about one byte per cycle.
 */
#include "crc32_impl.h"

#define KW_IEEE_POLY 0xEDB88320u

/* kw_ieee[k][b]: the register after byte b followed by k zero bytes. */
static uint32_t kw_ieee[8][256];

void kw_crc32_init(void)
{
    uint32_t n, c;
    int k;

    for (n = 0; n < 256; n++) {
        c = n;
        for (k = 0; k < 8; k++)
            c = (c >> 1) ^ (KW_IEEE_POLY & (0u - (c & 1u)));
        kw_ieee[0][n] = c;
    }
    for (n = 0; n < 256; n++) {
        c = kw_ieee[0][n];
        for (k = 1; k < 8; k++) {
            c = (c >> 8) ^ kw_ieee[0][c & 0xffu];
            kw_ieee[k][n] = c;
        }
    }
}

uint32_t kw_crc32(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    uint32_t c = ~crc;

    while (len >= 8) {
        c ^= (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
             ((uint32_t)p[3] << 24);
        c = kw_ieee[7][c & 0xffu] ^ kw_ieee[6][(c >> 8) & 0xffu] ^
            kw_ieee[5][(c >> 16) & 0xffu] ^ kw_ieee[4][c >> 24] ^
            kw_ieee[3][p[4]] ^ kw_ieee[2][p[5]] ^ kw_ieee[1][p[6]] ^
            kw_ieee[0][p[7]];
        p += 8;
        len -= 8;
    }
    while (len > 0) {
        c = (c >> 8) ^ kw_ieee[0][(c ^ *p++) & 0xffu];
        len--;
    }
    return ~c;
}
