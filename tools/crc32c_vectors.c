/*
 * kafkawire/_fast/crc32c_impl.c on its own, for targets no Python here runs (built by
 * tools/check_crc32c_cross.sh): the published CRC-32C vectors (RFC 3720 B.4 and the
 * check value of "123456789") through the path the CPU selects, then that path against
 * the portable table code over every length up to 3 long blocks, at every alignment,
 * and split in two at many points.  Prints the path and exits 0 only if all agree.
 */
#include <stdio.h>
#include <string.h>

#include "crc32c_impl.h"

#define BIG (3 * 3 * 8192 + 200) /* three blocks of the longest lanes, and a tail */

static unsigned char buf[BIG + 8];
static int failures;

static void expect(const char *what, uint32_t got, uint32_t want)
{
    if (got != want) {
        printf("FAIL %s: 0x%08X, expected 0x%08X\n", what, (unsigned)got, (unsigned)want);
        failures++;
    }
}

int main(void)
{
    /* RFC 3720 B.4: an iSCSI SCSI Read (10) command PDU */
    static const unsigned char pdu[48] = {
        0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
        0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    unsigned char v[32];
    uint32_t state = 0x2545F491u;
    size_t i, len, off, cut;
    int vectors;

    kw_crc32c_init();
    printf("path: %s\n", kw_crc32c_implementation());

    expect("123456789", kw_crc32c(0, "123456789", 9), 0xE3069283u);
    memset(v, 0, sizeof(v));
    expect("32 x 00", kw_crc32c(0, v, 32), 0x8A9136AAu);
    memset(v, 0xff, sizeof(v));
    expect("32 x ff", kw_crc32c(0, v, 32), 0x62A8AB43u);
    for (i = 0; i < 32; i++)
        v[i] = (unsigned char)i;
    expect("00..1f", kw_crc32c(0, v, 32), 0x46DD794Eu);
    for (i = 0; i < 32; i++)
        v[i] = (unsigned char)(31 - i);
    expect("1f..00", kw_crc32c(0, v, 32), 0x113FDB5Cu);
    expect("iSCSI read PDU", kw_crc32c(0, pdu, sizeof(pdu)), 0xD9963A56u);
    expect("table: 123456789", kw_crc32c_portable(0, "123456789", 9), 0xE3069283u);
    vectors = failures;

    for (i = 0; i < sizeof(buf); i++) { /* xorshift32: any bytes but the same each run */
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        buf[i] = (unsigned char)state;
    }
    for (off = 0; off < 8 && failures < 10; off++) {
        for (len = 0; len <= BIG && failures < 10; len += (len < 1024 ? 1 : 61)) {
            char what[64];
            uint32_t want = kw_crc32c_portable(0, buf + off, len);

            snprintf(what, sizeof(what), "%u bytes at offset %u", (unsigned)len, (unsigned)off);
            expect(what, kw_crc32c(0, buf + off, len), want);
            cut = len / 3;
            snprintf(what, sizeof(what), "%u bytes cut at %u", (unsigned)len, (unsigned)cut);
            expect(what, kw_crc32c(kw_crc32c(0, buf + off, cut), buf + off + cut, len - cut),
                   want);
        }
    }
    printf("%s: %d vector(s) wrong, %d length/alignment/split case(s) wrong\n",
           failures ? "FAIL" : "ok", vectors, failures - vectors);
    return failures ? 1 : 0;
}
