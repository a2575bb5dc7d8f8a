/* values.c — element-level helpers of fkc-run: the .npy descr <-> fkc dtype table, half and
 * bfloat16 conversions, and the element generator and formatter of the iota/show commands.
 * The ops themselves never convert anything: they move bits. */
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The descr fkc-run reads and writes for each dtype ("<u2" stands for BF16 with --dtype). */
static const char *const descrs[FKC_DTYPE_COUNT] = {
    [FKC_DTYPE_F32] = "<f4", [FKC_DTYPE_I32] = "<i4",  [FKC_DTYPE_U32] = "<u4",
    [FKC_DTYPE_F16] = "<f2", [FKC_DTYPE_BF16] = "<u2", [FKC_DTYPE_F64] = "<f8",
    [FKC_DTYPE_I64] = "<i8", [FKC_DTYPE_U8] = "|u1",   [FKC_DTYPE_I8] = "|i1",
};

const char *cli_descr_of_dtype(fkc_dtype dtype)
{
    return (unsigned)dtype < FKC_DTYPE_COUNT ? descrs[dtype] : NULL;
}

fkc_dtype cli_dtype_of_descr(const char *descr, fkc_dtype forced, char err[CLI_ERR_MAX])
{
    fkc_dtype found = FKC_DTYPE_COUNT;
    /* descr is valid per npy_descr_size: the byte-order character is right; compare the rest. */
    for (int d = 0; d < FKC_DTYPE_COUNT; d++)
        if (strlen(descr) >= 1 && strcmp(descr + 1, descrs[d] + 1) == 0)
            found = (fkc_dtype)d;
    if (found == FKC_DTYPE_BF16 && forced != FKC_DTYPE_BF16) {
        snprintf(err, CLI_ERR_MAX,
                 "dtype '%s' (uint16) is not an fkc dtype; pass --dtype bf16 to read it as BF16",
                 descr);
        return FKC_DTYPE_COUNT;
    }
    if (forced == FKC_DTYPE_BF16 && found != FKC_DTYPE_BF16) {
        snprintf(err, CLI_ERR_MAX, "dtype '%s' does not hold BF16: --dtype bf16 expects '<u2'",
                 descr);
        return FKC_DTYPE_COUNT;
    }
    if (found == FKC_DTYPE_COUNT) {
        snprintf(err, CLI_ERR_MAX,
                 "dtype '%s' is not supported (fkc reads <f4 <i4 <u4 <f2 <f8 <i8 |u1 |i1, "
                 "and <u2 as bf16)",
                 descr);
        return FKC_DTYPE_COUNT;
    }
    if (forced != FKC_DTYPE_COUNT && forced != found) {
        snprintf(err, CLI_ERR_MAX, "dtype '%s' is %s but --dtype says %s", descr,
                 fkc_dtype_name(found), fkc_dtype_name(forced));
        return FKC_DTYPE_COUNT;
    }
    return found;
}

/* ---- half and bfloat16 -------------------------------------------------------------------- */

static uint32_t float_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return x;
}

static float bits_float(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* Right shift of m by s with round to nearest even (s >= 1). */
static uint32_t shift_rne(uint32_t m, uint32_t s)
{
    if (s > 31)
        return 0;
    uint32_t q = m >> s, rem = m & ((1u << s) - 1), half = 1u << (s - 1);
    return q + (rem > half || (rem == half && (q & 1)));
}

uint16_t cli_f16_from_float(float f)
{
    uint32_t x = float_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    int32_t e = (int32_t)((x >> 23) & 0xff);
    uint32_t m = x & 0x7fffff;
    if (e == 0xff) /* inf stays inf; NaN stays a quiet NaN */
        return (uint16_t)(sign | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
    int32_t he = e - 127 + 15;
    if (he >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (he <= 0) /* a half subnormal (or zero): value = m' * 2^-24 */
        return (uint16_t)(sign | shift_rne(m | 0x800000, (uint32_t)(14 - he)));
    /* A carry out of the mantissa bumps the exponent, up to infinity: still correct. */
    return (uint16_t)(sign | (((uint32_t)he << 10) + shift_rne(m, 13)));
}

float cli_float_from_f16(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0x1f)
        return bits_float(sign | 0x7f800000 | (m << 13));
    if (e == 0) /* zero or subnormal: exact in float */
        return sign ? -ldexpf((float)m, -24) : ldexpf((float)m, -24);
    return bits_float(sign | ((e + 112) << 23) | (m << 13));
}

uint16_t cli_bf16_from_float(float f)
{
    uint32_t x = float_bits(f);
    if ((x & 0x7fffffff) > 0x7f800000)
        return (uint16_t)((x >> 16) | 0x40); /* quiet NaN */
    return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

float cli_float_from_bf16(uint16_t b)
{
    return bits_float((uint32_t)b << 16);
}

/* ---- iota and show ------------------------------------------------------------------------ */

void cli_iota_element(fkc_dtype dtype, int64_t start, size_t i, void *p)
{
    uint64_t u = (uint64_t)start + (uint64_t)i; /* wraps, two's complement */
    int64_t s = (int64_t)u;
    float f = (float)s;
    double d = (double)s;
    uint16_t h;
    switch (dtype) {
    case FKC_DTYPE_F32: memcpy(p, &f, 4); break;
    case FKC_DTYPE_F64: memcpy(p, &d, 8); break;
    case FKC_DTYPE_F16:
        h = cli_f16_from_float(f);
        memcpy(p, &h, 2);
        break;
    case FKC_DTYPE_BF16:
        h = cli_bf16_from_float(f);
        memcpy(p, &h, 2);
        break;
    case FKC_DTYPE_I32:
    case FKC_DTYPE_U32: {
        uint32_t w = (uint32_t)u;
        memcpy(p, &w, 4);
        break;
    }
    case FKC_DTYPE_I64: memcpy(p, &u, 8); break;
    case FKC_DTYPE_U8:
    case FKC_DTYPE_I8: {
        uint8_t b = (uint8_t)u;
        memcpy(p, &b, 1);
        break;
    }
    default: break;
    }
}

static void format_float(double v, char *buf, size_t cap)
{
    snprintf(buf, cap, "%g", v);
}

void cli_format_element(fkc_dtype dtype, const void *p, char *buf, size_t cap)
{
    union {
        float f;
        double d;
        uint16_t h;
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint8_t u8;
        int8_t i8;
    } v;
    memcpy(&v, p, fkc_dtype_size(dtype));
    switch (dtype) {
    case FKC_DTYPE_F32: format_float(v.f, buf, cap); break;
    case FKC_DTYPE_F64: format_float(v.d, buf, cap); break;
    case FKC_DTYPE_F16: format_float(cli_float_from_f16(v.h), buf, cap); break;
    case FKC_DTYPE_BF16: format_float(cli_float_from_bf16(v.h), buf, cap); break;
    case FKC_DTYPE_I32: snprintf(buf, cap, "%d", (int)v.i32); break;
    case FKC_DTYPE_U32: snprintf(buf, cap, "%u", (unsigned)v.u32); break;
    case FKC_DTYPE_I64: snprintf(buf, cap, "%lld", (long long)v.i64); break;
    case FKC_DTYPE_U8: snprintf(buf, cap, "%u", (unsigned)v.u8); break;
    case FKC_DTYPE_I8: snprintf(buf, cap, "%d", (int)v.i8); break;
    default: snprintf(buf, cap, "?"); break;
    }
}
