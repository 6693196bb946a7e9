/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) with runtime dispatch.
 *
 *   x86-64  : the SSE4.2 crc32 instruction, in three interleaved lanes, and
 *             with PCLMULQDQ, carry-less-multiply folding running beside them
 *             (gcc, clang and MSVC; the CPU's features read with CPUID).
 *   AArch64 : the ARMv8 CRC32 extension (crc32cx), in three interleaved lanes
 *             (gcc and clang; MSVC on ARM64; asked of the OS: getauxval on
 *             Linux, IsProcessorFeaturePresent on Windows).
 *   others  : slicing-by-8 tables in portable C.
 *
 * Why three lanes: the crc32 instruction has a latency of 3 cycles but a
 * throughput of 1 per cycle, so a single dependency chain uses a third of the
 * unit.  A long input is cut into blocks of three equal lanes of L bytes; each
 * lane is checksummed on its own chain (lanes 1 and 2 start from a zero
 * register), and the lanes are joined afterwards.  The join uses linearity:
 * for the raw (uninverted) CRC register,
 *
 *     state(r, A || B) = shift_|B|(state(r, A)) ^ state(0, B)
 *
 * where shift_n(x) is the register after feeding n zero bytes starting from x.
 * shift_n is a linear map of 32-bit vectors, i.e. a 32x32 matrix over GF(2); it
 * is built once at init as a power of the one-zero-byte matrix (square and
 * multiply) and stored as four 256-entry tables (one per byte of x), so
 * applying it costs four lookups and three XORs.
 */
#include "crc32c_impl.h"

#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define KW_GNUC 1
#endif

#define KW_POLY 0x82F63B78u

/* ------------------------------------------------------------------------ */
/* Portable slicing-by-8.                                                    */
/* ------------------------------------------------------------------------ */

/* kw_table[k][b]: the register after byte b followed by k zero bytes. */
static uint32_t kw_table[8][256];

static void kw_build_tables(void)
{
    uint32_t n, c;
    int k;

    for (n = 0; n < 256; n++) {
        c = n;
        for (k = 0; k < 8; k++)
            c = (c >> 1) ^ (KW_POLY & (0u - (c & 1u)));
        kw_table[0][n] = c;
    }
    for (n = 0; n < 256; n++) {
        c = kw_table[0][n];
        for (k = 1; k < 8; k++) {
            c = (c >> 8) ^ kw_table[0][c & 0xffu];
            kw_table[k][n] = c;
        }
    }
}

/* Raw register update (no inversion); works on any byte order. */
static uint32_t kw_update_table(uint32_t c, const unsigned char *p, size_t len)
{
    while (len > 0 && ((uintptr_t)p & 7u) != 0) {
        c = (c >> 8) ^ kw_table[0][(c ^ *p++) & 0xffu];
        len--;
    }
    while (len >= 8) {
        c ^= (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
             ((uint32_t)p[3] << 24);
        c = kw_table[7][c & 0xffu] ^ kw_table[6][(c >> 8) & 0xffu] ^
            kw_table[5][(c >> 16) & 0xffu] ^ kw_table[4][c >> 24] ^
            kw_table[3][p[4]] ^ kw_table[2][p[5]] ^ kw_table[1][p[6]] ^
            kw_table[0][p[7]];
        p += 8;
        len -= 8;
    }
    while (len > 0) {
        c = (c >> 8) ^ kw_table[0][(c ^ *p++) & 0xffu];
        len--;
    }
    return c;
}

/* ------------------------------------------------------------------------ */
/* Which hardware paths this compiler and target can build.                  */
/* ------------------------------------------------------------------------ */

/* MSVC on x86-64 (not ARM64EC): it emits any intrinsic without a target flag, so
 * the same SSE4.2 and PCLMULQDQ code builds with no attribute and no option. */
#if defined(_MSC_VER) && !defined(KW_GNUC) && defined(_M_X64) && !defined(_M_ARM64EC)
#define KW_MSVC_X64 1
#endif

#if (defined(KW_GNUC) && defined(__x86_64__)) || defined(KW_MSVC_X64)
#define KW_HAVE_SSE42 1
#include <nmmintrin.h>
#ifdef KW_MSVC_X64
#include <intrin.h>
#define KW_TARGET_SSE42
#define KW_TARGET_CLMUL
#elif defined(__clang__) && __clang_major__ >= 14
/* clang 14 on made the crc32 instruction a target feature of its own */
#include <cpuid.h>
#define KW_TARGET_SSE42 __attribute__((target("sse4.2,crc32")))
#define KW_TARGET_CLMUL __attribute__((target("sse4.2,crc32,pclmul")))
#else
#include <cpuid.h>
#define KW_TARGET_SSE42 __attribute__((target("sse4.2")))
#define KW_TARGET_CLMUL __attribute__((target("sse4.2,pclmul")))
#endif
#endif

/* MSVC on ARM64 (not ARM64EC, which is x64 code to the compiler): like on x64, its
 * intrinsics need no target option. */
#if defined(_MSC_VER) && !defined(KW_GNUC) && defined(_M_ARM64)
#define KW_MSVC_ARM64 1
#endif

#if (defined(KW_GNUC) && defined(__aarch64__) && defined(__BYTE_ORDER__) && \
     defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || \
    defined(KW_MSVC_ARM64)
#define KW_HAVE_ARMV8 1
#if defined(KW_MSVC_ARM64)
#include <intrin.h> /* __crc32cb and __crc32cd, from arm64intr.h */
#define KW_CRC32CB(c, v) __crc32cb((c), (v))
#define KW_CRC32CD(c, v) __crc32cd((c), (v))
#elif defined(__clang__)
/* Older clang's arm_acle.h hides the CRC intrinsics unless the whole file is
 * compiled for +crc; the builtins behind them are always there. */
#define KW_CRC32CB(c, v) __builtin_arm_crc32cb((c), (v))
#define KW_CRC32CD(c, v) __builtin_arm_crc32cd((c), (v))
#else
#include <arm_acle.h>
#define KW_CRC32CB(c, v) __crc32cb((c), (v))
#define KW_CRC32CD(c, v) __crc32cd((c), (v))
#endif
#if defined(__ARM_FEATURE_CRC32) || defined(KW_MSVC_ARM64)
#define KW_TARGET_ARMV8
#elif defined(__clang__)
#define KW_TARGET_ARMV8 __attribute__((target("crc")))
#else
#define KW_TARGET_ARMV8 __attribute__((target("+crc")))
#endif
#if defined(__linux__) && !defined(__ARM_FEATURE_CRC32) && !defined(__APPLE__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1UL << 7)
#endif
#define KW_ARMV8_USE_AUXV 1
#endif
#if defined(_WIN32) && !defined(__ARM_FEATURE_CRC32)
/* Windows on Arm: MSVC, clang-cl and mingw's clang alike ask Windows. */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#ifndef PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE
#define PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE 31 /* winnt.h; older SDKs lack it */
#endif
#define KW_ARMV8_USE_WIN32 1
#endif
#endif

#if defined(KW_HAVE_SSE42) || defined(KW_HAVE_ARMV8)
#define KW_HAVE_HW 1

/* Lane lengths in bytes (powers of two): a block is three lanes. */
#define KW_LONG 8192
#define KW_MID 1024
#define KW_SHORT 128

typedef struct {
    uint32_t t[4][256];
} kw_shift_table;

static kw_shift_table kw_shift_long, kw_shift_mid, kw_shift_short;

/* The GF(2) matrix mat (32 columns) applied to the vector v. */
static uint32_t kw_gf2_apply(const uint32_t mat[32], uint32_t v)
{
    uint32_t r = 0;
    const uint32_t *col = mat;

    while (v != 0) {
        if (v & 1u)
            r ^= *col;
        v >>= 1;
        col++;
    }
    return r;
}

/* dst := a o b (apply b, then a); dst may not alias a or b. */
static void kw_gf2_compose(uint32_t dst[32], const uint32_t a[32], const uint32_t b[32])
{
    int i;

    for (i = 0; i < 32; i++)
        dst[i] = kw_gf2_apply(a, b[i]);
}

/* tab := the operator "advance the register over nbytes zero bytes". */
static void kw_build_shift(kw_shift_table *tab, size_t nbytes)
{
    uint32_t power[32], result[32], tmp[32];
    int i, k;

    /* power := one zero byte, c -> (c >> 8) ^ T0[c & 0xff]; result := identity. */
    for (i = 0; i < 32; i++) {
        uint32_t v = 1u << i;
        power[i] = (v >> 8) ^ kw_table[0][v & 0xffu];
        result[i] = v;
    }
    /* Binary exponentiation: result := power^nbytes. */
    while (nbytes != 0) {
        if (nbytes & 1u) {
            kw_gf2_compose(tmp, power, result);
            memcpy(result, tmp, sizeof(tmp));
        }
        nbytes >>= 1;
        if (nbytes != 0) {
            kw_gf2_compose(tmp, power, power);
            memcpy(power, tmp, sizeof(tmp));
        }
    }
    for (k = 0; k < 4; k++)
        for (i = 0; i < 256; i++)
            tab->t[k][i] = kw_gf2_apply(result, (uint32_t)i << (8 * k));
}

static inline uint32_t kw_shift(const kw_shift_table *tab, uint32_t c)
{
    return tab->t[0][c & 0xffu] ^ tab->t[1][(c >> 8) & 0xffu] ^
           tab->t[2][(c >> 16) & 0xffu] ^ tab->t[3][c >> 24];
}

static inline uint64_t kw_load64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof(v)); /* a single (possibly unaligned) load */
    return v;
}

/*
 * Consume whole blocks of three lanes of L bytes.  Uses and updates the locals
 * `c0` (uint64_t register), `p` and `len`; STEP8(c, v) is the 8-byte
 * instruction.
 */
#define KW_LANES(STEP8, L, TAB)                                          \
    while (len >= 3 * (size_t)(L)) {                                     \
        uint64_t c1 = 0, c2 = 0;                                         \
        const unsigned char *lane_end = p + (L);                         \
        do {                                                             \
            c0 = STEP8(c0, kw_load64(p));                                \
            c1 = STEP8(c1, kw_load64(p + (L)));                          \
            c2 = STEP8(c2, kw_load64(p + 2 * (L)));                      \
            p += 8;                                                      \
        } while (p < lane_end);                                          \
        c0 = kw_shift(TAB, (uint32_t)c0) ^ (uint32_t)c1;                 \
        c0 = kw_shift(TAB, (uint32_t)c0) ^ (uint32_t)c2;                 \
        p += 2 * (size_t)(L);                                            \
        len -= 3 * (size_t)(L);                                          \
    }

#endif /* KW_HAVE_HW */

/* ------------------------------------------------------------------------ */
/* x86-64: SSE4.2.                                                           */
/* ------------------------------------------------------------------------ */

#ifdef KW_HAVE_SSE42

#define KW_SSE_STEP8(c, v) _mm_crc32_u64((c), (v))

KW_TARGET_SSE42
static uint32_t kw_update_sse42(uint32_t crc, const unsigned char *p, size_t len)
{
    uint64_t c0 = crc;

    while (len > 0 && ((uintptr_t)p & 7u) != 0) {
        c0 = _mm_crc32_u8((uint32_t)c0, *p++);
        len--;
    }
    KW_LANES(KW_SSE_STEP8, KW_LONG, &kw_shift_long)
    KW_LANES(KW_SSE_STEP8, KW_MID, &kw_shift_mid)
    KW_LANES(KW_SSE_STEP8, KW_SHORT, &kw_shift_short)
    while (len >= 8) {
        c0 = _mm_crc32_u64(c0, kw_load64(p));
        p += 8;
        len -= 8;
    }
    while (len > 0) {
        c0 = _mm_crc32_u8((uint32_t)c0, *p++);
        len--;
    }
    return (uint32_t)c0;
}

/* ECX of CPUID leaf 1, where the SSE4.2 (bit 20) and PCLMULQDQ (bit 1) flags are.
 * Asked of the CPU itself: __builtin_cpu_supports needs libgcc's CPU model data,
 * which some toolchains (zig cc's, used for old-glibc wheels) leave out. */
static uint32_t kw_cpuid1_ecx(void)
{
#ifdef KW_MSVC_X64
    int r[4];

    __cpuid(r, 1);
    return (uint32_t)r[2];
#else
    unsigned int a, b, c, d;

    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    return c;
#endif
}

static int kw_detect_sse42(void)
{
    return (kw_cpuid1_ecx() >> 20) & 1u;
}


/*
 * x86-64 with PCLMULQDQ as well: the crc32 unit and the carry-less multiplier
 * are separate execution units, so a block is split between them.  Its first
 * KW_FUSE_VEC bytes are folded 64 bytes at a time in four 128-bit accumulators
 * (two carry-less multiplications per accumulator and step); the next three
 * lanes of KW_FUSE_LANE bytes go through crc32 in three chains, in the same
 * loop.  At the end of a block the accumulators are folded into one, reduced
 * to a register value by two crc32 steps, and joined with the three lanes.
 *
 * Folding: with a 16-byte chunk X = (lo, hi) (lo the first 8 bytes), moving X
 * forward by d bytes means X * x^(8d) mod P.  In the bit-reflected domain a
 * carry-less product of a 64-bit half by a 32-bit constant x^e mod P lands
 * 33 bits off, so the constants are x^(8d+31) for lo and x^(8d-33) for hi:
 *
 *     fold_d(X) = clmul(lo, x^(8d+31) mod P) ^ clmul(hi, x^(8d-33) mod P)
 *
 * is a 128-bit value congruent to X moved forward, to be XORed into the chunk
 * d bytes ahead.  A chunk's own register value (from a zero register) is
 * crc32(crc32(0, lo), hi).
 */
#define KW_HAVE_CLMUL 1
#include <wmmintrin.h>

/*
 * Balance: per 64-byte vector step, 3 x KW_FUSE_WORDS crc32 steps.  6 suits a
 * multiplier at half the crc32 rate (AMD Zen 3, ~1.3x the crc32-only speed)
 * and still gains where the two run at the same rate (Intel).
 */
#ifndef KW_FUSE_STEPS
#define KW_FUSE_STEPS 128 /* 64-byte vector steps per block */
#endif
#ifndef KW_FUSE_WORDS
#define KW_FUSE_WORDS 6 /* 8-byte crc32 steps per lane per vector step */
#endif
#define KW_FUSE_VEC (64 * KW_FUSE_STEPS)
#define KW_FUSE_LANE (8 * KW_FUSE_WORDS * KW_FUSE_STEPS)
#define KW_FUSE_BLOCK (KW_FUSE_VEC + 3 * KW_FUSE_LANE)

/* kw_fold_k[i]: the two constants of fold_d for d = 16 * (i + 1). */
static uint64_t kw_fold_k[4][2];
static kw_shift_table kw_shift_fuse;

/* x^n mod P, bit-reflected (bit 31 is the coefficient of x^0). */
static uint32_t kw_xpow_mod(unsigned n)
{
    uint32_t v = 0x80000000u;

    while (n-- > 0)
        v = (v >> 1) ^ (KW_POLY & (0u - (v & 1u)));
    return v;
}

static void kw_build_clmul(void)
{
    unsigned i;

    for (i = 0; i < 4; i++) {
        unsigned bits = 128 * (i + 1);
        kw_fold_k[i][0] = kw_xpow_mod(bits + 31);
        kw_fold_k[i][1] = kw_xpow_mod(bits - 33);
    }
    kw_build_shift(&kw_shift_fuse, KW_FUSE_LANE);
}

KW_TARGET_CLMUL
static inline __m128i kw_fold(__m128i x, __m128i k)
{
    return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
                         _mm_clmulepi64_si128(x, k, 0x11));
}

KW_TARGET_CLMUL
static inline __m128i kw_load128(const unsigned char *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

#define KW_FUSE_CRC_STEP()                                               \
    do {                                                                 \
        c0 = _mm_crc32_u64(c0, kw_load64(l0));                           \
        c1 = _mm_crc32_u64(c1, kw_load64(l1));                           \
        c2 = _mm_crc32_u64(c2, kw_load64(l2));                           \
        l0 += 8;                                                         \
        l1 += 8;                                                         \
        l2 += 8;                                                         \
    } while (0)

/* The register after one block of KW_FUSE_BLOCK bytes at p, from register c. */
KW_TARGET_CLMUL
static uint64_t kw_fused_block(uint64_t c, const unsigned char *p)
{
    const __m128i k64 = kw_load128((const unsigned char *)kw_fold_k[3]);
    const unsigned char *v = p + 64;
    const unsigned char *l0 = p + KW_FUSE_VEC;
    const unsigned char *l1 = l0 + KW_FUSE_LANE;
    const unsigned char *l2 = l1 + KW_FUSE_LANE;
    uint64_t c0 = 0, c1 = 0, c2 = 0, cv;
    __m128i a0, a1, a2, a3;
    int step, w;

    /* The running register enters as an XOR into the first four bytes. */
    a0 = _mm_xor_si128(kw_load128(p), _mm_cvtsi32_si128((int)(uint32_t)c));
    a1 = kw_load128(p + 16);
    a2 = kw_load128(p + 32);
    a3 = kw_load128(p + 48);
    for (step = 1; step < KW_FUSE_STEPS; step++) {
        a0 = _mm_xor_si128(kw_fold(a0, k64), kw_load128(v));
        a1 = _mm_xor_si128(kw_fold(a1, k64), kw_load128(v + 16));
        a2 = _mm_xor_si128(kw_fold(a2, k64), kw_load128(v + 32));
        a3 = _mm_xor_si128(kw_fold(a3, k64), kw_load128(v + 48));
        v += 64;
        for (w = 0; w < KW_FUSE_WORDS; w++)
            KW_FUSE_CRC_STEP();
    }
    for (w = 0; w < KW_FUSE_WORDS; w++)
        KW_FUSE_CRC_STEP();

    /* Four accumulators into one, then into a register value. */
    a3 = _mm_xor_si128(a3, kw_fold(a0, kw_load128((const unsigned char *)kw_fold_k[2])));
    a3 = _mm_xor_si128(a3, kw_fold(a1, kw_load128((const unsigned char *)kw_fold_k[1])));
    a3 = _mm_xor_si128(a3, kw_fold(a2, kw_load128((const unsigned char *)kw_fold_k[0])));
    cv = _mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(a3));
    cv = _mm_crc32_u64(cv, (uint64_t)_mm_extract_epi64(a3, 1));

    /* Append the three lanes. */
    cv = kw_shift(&kw_shift_fuse, (uint32_t)cv) ^ (uint32_t)c0;
    cv = kw_shift(&kw_shift_fuse, (uint32_t)cv) ^ (uint32_t)c1;
    cv = kw_shift(&kw_shift_fuse, (uint32_t)cv) ^ (uint32_t)c2;
    return cv;
}

KW_TARGET_CLMUL
static uint32_t kw_update_clmul(uint32_t crc, const unsigned char *p, size_t len)
{
    uint64_t c = crc;

    while (len >= KW_FUSE_BLOCK) {
        c = kw_fused_block(c, p);
        p += KW_FUSE_BLOCK;
        len -= KW_FUSE_BLOCK;
    }
    return kw_update_sse42((uint32_t)c, p, len);
}

static int kw_detect_clmul(void)
{
    return (kw_cpuid1_ecx() >> 1) & 1u;
}

#endif /* KW_HAVE_SSE42 */

/* ------------------------------------------------------------------------ */
/* AArch64: the CRC32 extension.                                             */
/* ------------------------------------------------------------------------ */

#ifdef KW_HAVE_ARMV8

#define KW_ARM_STEP8(c, v) ((uint64_t)KW_CRC32CD((uint32_t)(c), (v)))

KW_TARGET_ARMV8
static uint32_t kw_update_armv8(uint32_t crc, const unsigned char *p, size_t len)
{
    uint64_t c0 = crc;

    while (len > 0 && ((uintptr_t)p & 7u) != 0) {
        c0 = KW_CRC32CB((uint32_t)c0, *p++);
        len--;
    }
    KW_LANES(KW_ARM_STEP8, KW_LONG, &kw_shift_long)
    KW_LANES(KW_ARM_STEP8, KW_MID, &kw_shift_mid)
    KW_LANES(KW_ARM_STEP8, KW_SHORT, &kw_shift_short)
    while (len >= 8) {
        c0 = KW_CRC32CD((uint32_t)c0, kw_load64(p));
        p += 8;
        len -= 8;
    }
    while (len > 0) {
        c0 = KW_CRC32CB((uint32_t)c0, *p++);
        len--;
    }
    return (uint32_t)c0;
}

static int kw_detect_armv8(void)
{
#if defined(__APPLE__) || defined(__ARM_FEATURE_CRC32)
    return 1;
#elif defined(KW_ARMV8_USE_AUXV)
    return (getauxval(AT_HWCAP) & HWCAP_CRC32) ? 1 : 0;
#elif defined(KW_ARMV8_USE_WIN32)
    return IsProcessorFeaturePresent(PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE) ? 1 : 0;
#else
    return 0;
#endif
}

#endif /* KW_HAVE_ARMV8 */

/* ------------------------------------------------------------------------ */
/* One-time initialisation and dispatch.                                     */
/* ------------------------------------------------------------------------ */

enum { KW_IMPL_TABLE = 0, KW_IMPL_SSE42 = 1, KW_IMPL_ARMV8 = 2, KW_IMPL_SSE42_CLMUL = 3 };
enum { KW_STATE_NEW = 0, KW_STATE_BUILDING = 1, KW_STATE_READY = 2 };

static int kw_impl = KW_IMPL_TABLE; /* written before kw_state becomes READY */

#if defined(KW_GNUC)
static int kw_state = KW_STATE_NEW;
#define KW_STATE_LOAD() __atomic_load_n(&kw_state, __ATOMIC_ACQUIRE)
#define KW_STATE_PUBLISH() __atomic_store_n(&kw_state, KW_STATE_READY, __ATOMIC_RELEASE)
static int kw_state_claim(void)
{
    int expected = KW_STATE_NEW;
    return __atomic_compare_exchange_n(&kw_state, &expected, KW_STATE_BUILDING, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
#elif defined(_MSC_VER)
#include <intrin.h>
static volatile long kw_state = KW_STATE_NEW;
#define KW_STATE_LOAD() ((int)_InterlockedOr(&kw_state, 0))
#define KW_STATE_PUBLISH() ((void)_InterlockedExchange(&kw_state, KW_STATE_READY))
static int kw_state_claim(void)
{
    return _InterlockedCompareExchange(&kw_state, KW_STATE_BUILDING, KW_STATE_NEW) ==
           KW_STATE_NEW;
}
#else
/* Unknown compiler: racing builders write identical values. */
static volatile int kw_state = KW_STATE_NEW;
#define KW_STATE_LOAD() (kw_state)
#define KW_STATE_PUBLISH() (kw_state = KW_STATE_READY)
static int kw_state_claim(void) { return 1; }
#endif

void kw_crc32c_init(void)
{
    int impl = KW_IMPL_TABLE;

    if (KW_STATE_LOAD() == KW_STATE_READY)
        return;
    if (!kw_state_claim()) {
        /* Another thread is building (a few microseconds): wait for it. */
        while (KW_STATE_LOAD() != KW_STATE_READY) {
        }
        return;
    }
    kw_build_tables();
#ifdef KW_HAVE_HW
    kw_build_shift(&kw_shift_long, KW_LONG);
    kw_build_shift(&kw_shift_mid, KW_MID);
    kw_build_shift(&kw_shift_short, KW_SHORT);
#endif
#ifdef KW_HAVE_SSE42
    if (kw_detect_sse42()) {
        impl = KW_IMPL_SSE42;
        if (kw_detect_clmul()) {
            kw_build_clmul();
            impl = KW_IMPL_SSE42_CLMUL;
        }
    }
#endif
#ifdef KW_HAVE_ARMV8
    if (kw_detect_armv8())
        impl = KW_IMPL_ARMV8;
#endif
    kw_impl = impl;
    KW_STATE_PUBLISH();
}

uint32_t kw_crc32c(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    uint32_t c = crc ^ 0xffffffffu;

    if (KW_STATE_LOAD() != KW_STATE_READY)
        kw_crc32c_init();
    if (len == 0)
        return crc;
    switch (kw_impl) {
#ifdef KW_HAVE_SSE42
    case KW_IMPL_SSE42:
        c = kw_update_sse42(c, p, len);
        break;
    case KW_IMPL_SSE42_CLMUL:
        c = kw_update_clmul(c, p, len);
        break;
#endif
#ifdef KW_HAVE_ARMV8
    case KW_IMPL_ARMV8:
        c = kw_update_armv8(c, p, len);
        break;
#endif
    default:
        c = kw_update_table(c, p, len);
        break;
    }
    return c ^ 0xffffffffu;
}

uint32_t kw_crc32c_portable(uint32_t crc, const void *data, size_t len)
{
    if (KW_STATE_LOAD() != KW_STATE_READY)
        kw_crc32c_init();
    return kw_update_table(crc ^ 0xffffffffu, (const unsigned char *)data, len) ^
           0xffffffffu;
}

const char *kw_crc32c_implementation(void)
{
    if (KW_STATE_LOAD() != KW_STATE_READY)
        kw_crc32c_init();
    switch (kw_impl) {
    case KW_IMPL_SSE42:
    case KW_IMPL_SSE42_CLMUL:
        return "sse4.2";
    case KW_IMPL_ARMV8:
        return "armv8";
    default:
        return "table";
    }
}
