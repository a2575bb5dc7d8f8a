/* conform_set_rows.c — `fkc-run conform` for SetRows (contracts/vulkan/set_rows.md): the
 * bindings keyed over all three tensors [src, index, cache], reached through the generated
 * whole-key dispatch (fkc_dispatch_key, by the shim's set_rows entry). Each binding runs seeded
 * cases, the edge cases first (negative indices at the first, the last and every position,
 * indices past the end counted in the status word, I64 ones of 2^31 and more, duplicates, the
 * last slot, NHD and HND slot axes, NaN/Inf/subnormal/overflow/tie sources), each in buffers of
 * its own between guard bands, and compares the cache bit for bit (the precision block's
 * tolerance) with fkc_ref_set_rows; fkc_ref_set_rows is checked against conform's own oracle
 * (the op's definition, element by element, with conversions written from the contract's text
 * in floating point rather than bit arithmetic). Then the status word, the guards, that src and
 * index are left alone, a second run, refused invalid calls and the dispatch of the
 * neighbouring keys. With --cpu the reference stands in for the kernel and is compared with the
 * oracle. The rows are printed by conform.c. */
#include "conform.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fkc/fkc_reference.h"
#include "fkc/fkc_runtime.h"

#define SR_EDGE 10     /* edge cases before the random ones */
#define SR_GUARD 16    /* bytes of random guard around each tensor, at least */
#define SR_MAX_ROWS 64 /* rows of a random case, at most */

/* The dtypes of the contract vocabulary a key slot can hold (fkc_types.h). */
static const fkc_dtype vocab[] = {FKC_DTYPE_F32,  FKC_DTYPE_I32, FKC_DTYPE_U32, FKC_DTYPE_F16,
                                  FKC_DTYPE_BF16, FKC_DTYPE_F64, FKC_DTYPE_I64, FKC_DTYPE_U8,
                                  FKC_DTYPE_I8,   FKC_DTYPE_I16, FKC_DTYPE_U16, FKC_DTYPE_BOOL};
#define N_VOCAB (sizeof vocab / sizeof vocab[0])

static const char *dtn(fkc_dtype d)
{
    const char *n = fkc_dtype_name(d);
    return n ? n : "?";
}

const char *conform_sr_key(const conform_claim *cl, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s,%s,%s", dtn(cl->dtype), dtn(cl->index_dtype), dtn(cl->out_dtype));
    return buf;
}

const char *conform_sr_checked(const conform_claim *cl, char *buf, size_t cap)
{
    const char *what =
        cl->dtype == cl->out_dtype ? "bit copy"
        : cl->dtype == FKC_DTYPE_F32
            ? "round to nearest even (ties to even, overflow to Inf, subnormals, NaN)"
            : "exact widening";
    bool tol = cl->max_ulp || cl->max_absolute > 0 || cl->max_relative > 0;
    snprintf(buf, cap, "ok: %s, %s%s ulp%s", what, tol ? "within " : "", cl->max_ulp_stated,
             tol ? " or the stated tolerance" : ", bit-exact");
    return buf;
}

static void fnv(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ b[i]) * 0x100000001b3u;
}

static const char *hex(const unsigned char *p, size_t w, char *buf)
{
    int n = sprintf(buf, "0x");
    for (size_t i = w; i-- > 0;)
        n += sprintf(buf + n, "%02x", p[i]);
    return buf;
}

/* ---- conform's oracle: the op from its definition -------------------------------------------- */

static uint32_t ld32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* F32 -> a 16-bit float of `mbits` mantissa bits and minimum normal exponent emin, rounded to
 * nearest even in double arithmetic (exact: the scaling is by a power of two and the rounding
 * is nearbyint's, to nearest even). NaN as the contract writes it. */
static uint16_t o_narrow(uint32_t x, bool bf16)
{
    const int mbits = bf16 ? 7 : 10, emin = bf16 ? -126 : -14, emax = bf16 ? 127 : 15;
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    float f;
    memcpy(&f, &x, 4);
    if (isnan(f)) /* F16: sign | 0x7e00 | payload >> 13; BF16: bits >> 16 | 0x40 */
        return bf16 ? (uint16_t)((x >> 16) | 0x40u)
                    : (uint16_t)(sign | 0x7e00u | ((x & 0x7fffffu) >> 13));
    uint16_t inf = bf16 ? 0x7f80u : 0x7c00u;
    double a = fabs((double)f);
    if (isinf(a))
        return sign | inf;
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e);
    int E = e - 1 < emin ? emin : e - 1;
    double q = nearbyint(ldexp(a, mbits - E)); /* the significand, implicit bit included */
    if (q >= ldexp(1.0, mbits + 1))
        q /= 2, E++;
    if (E > emax)
        return sign | inf;
    uint32_t m = (uint32_t)q;
    if (m < (1u << mbits)) /* a subnormal (E == emin) or zero */
        return (uint16_t)(sign | m);
    return (uint16_t)(sign | (uint32_t)(E - emin + 1) << mbits | (m - (1u << mbits)));
}

/* A 16-bit float to F32, exactly (NaN payloads shifted into the top of the F32 mantissa). */
static uint32_t o_widen(uint16_t h, bool bf16)
{
    const int mbits = bf16 ? 7 : 10, emin = bf16 ? -126 : -14, ebits = bf16 ? 8 : 5;
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, m = h & ((1u << mbits) - 1u);
    uint32_t ex = (h >> mbits) & ((1u << ebits) - 1u);
    if (ex == (1u << ebits) - 1u)
        return sign | 0x7f800000u | m << (23 - mbits);
    double v = ex ? ldexp((double)((1u << mbits) + m), (int)ex - 1 + emin - mbits)
                  : ldexp((double)m, emin - mbits);
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return sign | bits;
}

/* One element src -> cache. */
static void o_convert(fkc_dtype sdt, fkc_dtype cdt, const unsigned char *s, unsigned char *d)
{
    uint16_t h;
    uint32_t x;
    if (sdt == cdt) {
        memcpy(d, s, fkc_dtype_size(sdt));
        return;
    }
    if (sdt == FKC_DTYPE_F32) {
        h = o_narrow(ld32(s), cdt == FKC_DTYPE_BF16);
        d[0] = (unsigned char)h, d[1] = (unsigned char)(h >> 8);
        return;
    }
    x = o_widen((uint16_t)(s[0] | s[1] << 8), sdt == FKC_DTYPE_BF16);
    for (int i = 0; i < 4; i++)
        d[i] = (unsigned char)(x >> (8 * i));
}

/* ---- cases ------------------------------------------------------------------------------------- */

typedef struct sr_case {
    uint32_t crank, srank;
    size_t cshape[FKC_MAX_RANK], sshape[FKC_MAX_RANK];
    int32_t slot_axis;
    size_t n, slots, row_elems, cache_elems;
    int64_t *idx;       /* n values, as the index tensor holds them */
    unsigned char *src; /* n * row_elems elements */
    bool status;        /* a status word is passed (else extra is NULL) */
    uint32_t status_init;
    const char *what;
} sr_case;

static void case_free(sr_case *c)
{
    free(c->idx);
    free(c->src);
    memset(c, 0, sizeof *c);
}

/* The cache shape for slot_axis k: slot_axis -1: [slots, rest...]; 1 (NHD): [blocks, bs, heads,
 * dim]; 2 (HND): [blocks, heads, bs, dim]. dim is a multiple of unit (whole 32-bit runs). */
static void case_shape(sr_case *c, int32_t k, size_t a0, size_t ak, size_t heads, size_t dim,
                       uint32_t rank_m1)
{
    c->slot_axis = k;
    if (k < 0) {
        c->crank = rank_m1;
        c->cshape[0] = a0;
        if (rank_m1 == 3)
            c->cshape[1] = heads, c->cshape[2] = dim;
        else if (rank_m1 == 2)
            c->cshape[1] = dim * heads;
    } else {
        c->crank = 4;
        c->cshape[0] = a0;
        c->cshape[k] = ak;
        c->cshape[k == 1 ? 2 : 1] = heads;
        c->cshape[3] = dim;
    }
    uint32_t kk = k < 0 ? 0 : (uint32_t)k;
    c->slots = c->cshape[0] * (kk ? c->cshape[kk] : 1);
    c->srank = 1;
    c->row_elems = 1;
    c->cache_elems = 1;
    for (uint32_t a = 0; a < c->crank; a++)
        c->cache_elems *= c->cshape[a];
    for (uint32_t a = 1; a < c->crank; a++)
        if (a != kk) {
            c->sshape[c->srank++] = c->cshape[a];
            c->row_elems *= c->cshape[a];
        }
}

/* Special source elements: floats' zeros, infinities, NaNs (quiet and signalling, with
 * payloads), subnormals, the largest finite values, and for F32 the F16/BF16 rounding edges
 * (ties to even either way, overflow at 65520, the subnormal tie 2^-25); integers' extremes. */
static const uint32_t sp_f32[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
    0x7fa00000, 0xff812345, 0x00000001, 0x807fffff, 0x00008000, 0x00018000, 0x00800000,
    0x33800000, 0x33000000, 0x33000001, 0x33c00000, 0xb3400000, 0x387fc000, 0x387fe000,
    0x38800000, 0x477fe000, 0x477fefff, 0x477ff000, 0xc77ff000, 0x7f7fffff, 0xff7fffff,
    0x7f7f8000, 0x7f7f7fff, 0x3f801000, 0x3f803000, 0xbf801000, 0x3f801001, 0x3f808000,
    0x3f818000, 0xbf818000, 0x3f808001, 0x3f7fffff, 0x3f800000, 0x3eaaaaab, 0x4b7fffff};
static const uint16_t sp_f16[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01,
                                  0xfe01, 0x7fff, 0x0001, 0x03ff, 0x8400, 0x0400,
                                  0x7bff, 0xfbff, 0x3c00, 0x3555, 0x8001};
static const uint16_t sp_bf16[] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x7fff,
                                   0x0001, 0x007f, 0x0080, 0x7f7f, 0xff7f, 0x3f80, 0x3eab, 0x8001};
static const uint64_t sp_f64[] = {0,
                                  0x8000000000000000u,
                                  0x7ff0000000000000u,
                                  0xfff0000000000000u,
                                  0x7ff8000000000000u,
                                  0x7ff0000000000001u,
                                  0xfff8000000000123u,
                                  1,
                                  0x800fffffffffffffu,
                                  0x7fefffffffffffffu,
                                  0x3ff0000000000000u};

static bool is_fl(fkc_dtype d)
{
    return d == FKC_DTYPE_F32 || d == FKC_DTYPE_F16 || d == FKC_DTYPE_BF16 || d == FKC_DTYPE_F64;
}

/* Element e of dtype dt at p: special number k (mod the table's length). */
static void put_special(fkc_dtype dt, size_t k, unsigned char *p)
{
    size_t w = fkc_dtype_size(dt);
    uint64_t v;
    switch (dt) {
    case FKC_DTYPE_F32: v = sp_f32[k % (sizeof sp_f32 / sizeof sp_f32[0])]; break;
    case FKC_DTYPE_F16: v = sp_f16[k % (sizeof sp_f16 / sizeof sp_f16[0])]; break;
    case FKC_DTYPE_BF16: v = sp_bf16[k % (sizeof sp_bf16 / sizeof sp_bf16[0])]; break;
    case FKC_DTYPE_F64: v = sp_f64[k % (sizeof sp_f64 / sizeof sp_f64[0])]; break;
    default: { /* 0, 1, all ones (-1), the largest signed, the smallest signed */
        static const uint64_t iv[5] = {0, 1, UINT64_MAX, UINT64_MAX >> 1, 1ull << 63};
        v = iv[k % 5];
        if (w < 8 && (k % 5) >= 3)
            v = (k % 5) == 3 ? (1ull << (8 * w - 1)) - 1 : 1ull << (8 * w - 1);
    }
    }
    for (size_t i = 0; i < w; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* A random source element: random bits, a special, or (F32) a value near the 16-bit floats'
 * range with its low bits often a rounding tie. */
static void put_random(conform_rng *g, fkc_dtype dt, unsigned char *p)
{
    size_t w = fkc_dtype_size(dt);
    uint64_t pick = conform_rng_below(g, 20);
    if (!is_fl(dt) || pick < 5) {
        for (size_t i = 0; i < w; i++)
            p[i] = (unsigned char)conform_rng_next(g);
        return;
    }
    if (pick < 8) {
        put_special(dt, (size_t)conform_rng_below(g, 64), p);
        return;
    }
    if (dt != FKC_DTYPE_F32) {
        for (size_t i = 0; i < w; i++)
            p[i] = (unsigned char)conform_rng_next(g);
        if (w == 2 && (p[1] & 0x7c) == 0x7c) /* keep most of them finite */
            p[1] &= 0xbf;
        return;
    }
    uint32_t x = (uint32_t)conform_rng_next(g) & 0x807fffffu;
    x |= (uint32_t)(127 - 27 + conform_rng_below(g, 46)) << 23; /* 2^-27 .. 2^18 */
    uint64_t t = conform_rng_below(g, 4);
    if (t == 0)
        x = (x & ~0x1fffu) | 0x1000u; /* an F16 tie (normal range) */
    else if (t == 1)
        x = (x & ~0xffffu) | 0x8000u; /* a BF16 tie */
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}

static const char *const edge_names[SR_EDGE] = {
    "special sources, -1 at the first position, the last slot",
    "duplicates: the last row naming a slot wins",
    "negative at every position (-1, -2, the most negative)",
    "past the end: the slot count and beyond, counted in the status word",
    "HND paged cache, slot_axis 2",
    "NHD paged cache, slot_axis 1",
    "-1 at the last position, the last slot",
    "past the end with no status word (extra NULL)",
    "zero rows",
    "one slot named by every row"};

/* Case i of a binding (src sdt, index idt, cache cdt); 0, or -1 out of memory. */
static int make_case(conform_rng *g, fkc_dtype sdt, fkc_dtype idt, fkc_dtype cdt, size_t i,
                     sr_case *c)
{
    size_t cw = fkc_dtype_size(cdt), unit = cw >= 4 ? 1 : 4 / cw;
    bool i64 = idt == FKC_DTYPE_I64;
    int64_t big = i64 ? INT64_MAX : INT32_MAX, most_neg = i64 ? INT64_MIN : INT32_MIN;
    memset(c, 0, sizeof *c);
    c->what = i < SR_EDGE ? edge_names[i] : NULL;
    c->status = true;
    c->status_init = (uint32_t)conform_rng_next(g);
    if (i == 3)
        c->status_init = 0xfffffffeu; /* the count wraps mod 2^32 */
    switch (i) {
    case 4: case_shape(c, 2, 3, 4, 2, 2 * unit, 0); break;
    case 5: case_shape(c, 1, 3, 4, 2, 2 * unit, 0); break;
    case 8: case_shape(c, -1, 4, 0, 1, 2 * unit, 2); break;
    case 9: case_shape(c, -1, 1, 0, 2, unit, 3); break;
    default:
        if (i < SR_EDGE) {
            case_shape(c, -1, i == 0 ? 48 : 16, 0, 1, (i == 0 ? 1 : 3) * unit, 2);
        } else {
            int32_t k = (int32_t)conform_rng_below(g, 3);
            k = k == 0 ? -1 : k;
            uint32_t rank = k < 0 ? 1 + (uint32_t)conform_rng_below(g, 3) : 4;
            if (k < 0 && rank == 1 && unit > 1)
                rank = 2;
            case_shape(c, k, 1 + (size_t)conform_rng_below(g, 12), 1 + conform_rng_below(g, 6),
                       1 + conform_rng_below(g, 3), unit * (1 + conform_rng_below(g, 5)), rank);
        }
    }
    size_t s = c->slots;
    switch (i) {
    case 0: c->n = s; break;
    case 1: c->n = 10; break;
    case 2: c->n = 6; break;
    case 3: c->n = 10; break;
    case 6: c->n = 3; break;
    case 7: c->n = 4; break;
    case 8: c->n = 0; break;
    case 9: c->n = 5; break;
    default: c->n = 1 + (size_t)conform_rng_below(g, i < SR_EDGE ? 12 : SR_MAX_ROWS);
    }
    c->sshape[0] = c->n;
    c->idx = calloc(c->n ? c->n : 1, sizeof *c->idx);
    size_t src_elems = c->n * c->row_elems;
    c->src = malloc((src_elems ? src_elems : 1) * fkc_dtype_size(sdt));
    if (!c->idx || !c->src)
        return -1;
    for (size_t r = 0; r < c->n; r++) {
        int64_t v;
        switch (i) {
        case 0: v = r == 0 ? -1 : r + 1 == c->n ? (int64_t)s - 1 : (int64_t)r - 1; break;
        case 1: {
            static const int64_t d[10] = {2, 5, 2, 7, 5, 2, -1, 5, 9, 7};
            v = d[r];
            break;
        }
        case 2: {
            int64_t d[6] = {-1, -2, most_neg, -(int64_t)s, -1, most_neg + 1};
            v = d[r];
            break;
        }
        case 3: {
            int64_t d[10] = {(int64_t)s,
                             0,
                             (int64_t)s + 1,
                             i64 ? (int64_t)1 << 31 : big,
                             i64 ? ((int64_t)1 << 32) + 3 : big - 1,
                             (int64_t)s - 1,
                             i64 ? (int64_t)1 << 32 : (int64_t)s + 7,
                             big,
                             i64 ? ((int64_t)1 << 32) + (int64_t)s - 1 : (int64_t)s * 2,
                             3};
            v = d[r];
            break;
        }
        case 6: v = r == 0 ? (int64_t)s - 1 : r == 1 ? 3 : -1; break;
        case 7: v = r == 1 ? (int64_t)s : r == 2 ? big : (int64_t)r; break;
        case 9: v = 0; break;
        default: {
            uint64_t p = conform_rng_below(g, 20);
            v = p == 0        ? -1
                : p == 1      ? (int64_t)s + (int64_t)conform_rng_below(g, 4)
                : p == 2      ? (int64_t)s - 1
                : p == 3 && r ? c->idx[conform_rng_below(g, r)] /* a duplicate */
                              : (int64_t)conform_rng_below(g, s);
        }
        }
        c->idx[r] = v;
    }
    size_t sw = fkc_dtype_size(sdt);
    for (size_t e = 0; e < c->n * c->row_elems; e++) {
        if (i == 0 || (i < SR_EDGE && e % 3 == 0))
            put_special(sdt, e + i, c->src + e * sw);
        else
            put_random(g, sdt, c->src + e * sw);
    }
    return 0;
}

static void case_text(const sr_case *c, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "cache (");
    for (uint32_t a = 0; a < c->crank && n > 0 && (size_t)n < cap; a++)
        n += snprintf(buf + n, cap - (size_t)n, "%s%zu", a ? ", " : "", c->cshape[a]);
    if (n > 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, "), slot_axis %d, %zu rows%s%s", (int)c->slot_axis, c->n,
                 c->what ? ": " : "", c->what ? c->what : "");
}

/* The oracle on the cache elements (from its definition: each row i with 0 <= idx[i] < slots, in
 * order, writes slot idx[i]; slot = i0 * shape[k] + ik; the row's elements are the other axes in
 * order). slot_of/pos_of: each cache element's slot and place in its row; namers[slot]: how many
 * rows name it; last[slot]: the last of them. Returns the indices past the end. */
static uint64_t oracle(const sr_case *c, fkc_dtype sdt, fkc_dtype cdt, unsigned char *cache,
                       uint32_t *slot_of, uint32_t *pos_of, uint32_t *namers, int64_t *last)
{
    size_t cw = fkc_dtype_size(cdt), sw = fkc_dtype_size(sdt);
    uint32_t k = c->slot_axis < 0 ? 0 : (uint32_t)c->slot_axis;
    size_t stride[FKC_MAX_RANK];
    stride[c->crank - 1] = 1;
    for (uint32_t a = c->crank - 1; a-- > 0;)
        stride[a] = stride[a + 1] * c->cshape[a + 1];
    /* element (slot, j) of the cache: its flat offset */
    for (size_t slot = 0; slot < c->slots; slot++) {
        size_t i0 = k ? slot / c->cshape[k] : slot, ik = k ? slot % c->cshape[k] : 0;
        for (size_t j = 0; j < c->row_elems; j++) {
            size_t at = i0 * stride[0] + ik * (k ? stride[k] : 0), rest = j;
            for (uint32_t a = c->crank; a-- > 1;) {
                if (a == k)
                    continue;
                at += (rest % c->cshape[a]) * stride[a];
                rest /= c->cshape[a];
            }
            slot_of[at] = (uint32_t)slot;
            pos_of[at] = (uint32_t)j;
        }
        namers[slot] = 0;
        last[slot] = -1;
    }
    uint64_t past = 0;
    for (size_t r = 0; r < c->n; r++) {
        int64_t v = c->idx[r];
        if (v < 0)
            continue;
        if ((uint64_t)v >= c->slots) {
            past++;
            continue;
        }
        namers[v]++;
        last[v] = (int64_t)r;
    }
    for (size_t e = 0; e < c->cache_elems; e++) {
        int64_t r = last[slot_of[e]];
        if (r >= 0)
            o_convert(sdt, cdt, c->src + ((size_t)r * c->row_elems + pos_of[e]) * sw,
                      cache + e * cw);
    }
    return past;
}

/* The index tensor's bytes (little-endian I32 or I64). */
static void index_bytes(const sr_case *c, bool i64, unsigned char *out)
{
    size_t w = i64 ? 8 : 4;
    for (size_t r = 0; r < c->n; r++)
        for (size_t b = 0; b < w; b++)
            out[r * w + b] = (unsigned char)((uint64_t)c->idx[r] >> (8 * b));
}

/* ---- buffers ------------------------------------------------------------------------------------- */

/* One tensor in a buffer of its own between guard bands of random bytes. */
typedef struct sbuf {
    fkc_buffer *buf;
    uint64_t at, bytes, size;
    unsigned char *init, *got;
} sbuf;

static int sbuf_make(conform_rng *g, uint64_t bytes, uint64_t align, const unsigned char *data,
                     sbuf *b)
{
    memset(b, 0, sizeof *b);
    b->at = (SR_GUARD + conform_rng_below(g, 32) + align - 1) / align * align;
    b->bytes = bytes;
    b->size = (b->at + bytes + SR_GUARD + conform_rng_below(g, 32) + 15) / 16 * 16;
    if (!(b->init = malloc(b->size)) || !(b->got = malloc(b->size)))
        return -1;
    for (uint64_t i = 0; i < b->size; i++)
        b->init[i] = (unsigned char)conform_rng_next(g);
    if (data && bytes)
        memcpy(b->init + b->at, data, bytes);
    return 0;
}

/* The same tensor and initial bytes in a buffer of its own (the second run). */
static int sbuf_clone(const sbuf *from, sbuf *b)
{
    memset(b, 0, sizeof *b);
    b->at = from->at, b->bytes = from->bytes, b->size = from->size;
    if (!(b->init = malloc(b->size)) || !(b->got = malloc(b->size)))
        return -1;
    memcpy(b->init, from->init, b->size);
    return 0;
}

static void sbuf_free(sbuf *b)
{
    fkc_buffer_destroy(b->buf);
    free(b->init);
    free(b->got);
    memset(b, 0, sizeof *b);
}

/* The four tensors of a case: src, index, cache (= out), the status word. */
enum { B_SRC, B_IDX, B_CACHE, B_STATUS, B_COUNT };

/* Why a call failed (fkc_last_error when the callee set it). */
static const char *why_failed(fkc_status st, char *buf, size_t cap)
{
    const char *last = fkc_last_error(), *name = fkc_status_name(st);
    if (strncmp(last, name, strlen(name)) == 0 && last[strlen(name)] == ':')
        return last;
    snprintf(buf, cap, "%s (and no message: fkc_set_error was not called)", name);
    return buf;
}

static void tensors(const sr_case *c, fkc_dtype sdt, fkc_dtype idt, fkc_dtype cdt, sbuf *b,
                    fkc_tensor *ts, fkc_tensor *ti, fkc_tensor *tc)
{
    *ts = (fkc_tensor){b[B_SRC].buf, b[B_SRC].at, sdt, c->srank, {0}};
    *ti = (fkc_tensor){b[B_IDX].buf, b[B_IDX].at, idt, 1, {c->n}};
    *tc = (fkc_tensor){b[B_CACHE].buf, b[B_CACHE].at, cdt, c->crank, {0}};
    memcpy(ts->shape, c->sshape, sizeof c->sshape);
    memcpy(tc->shape, c->cshape, sizeof c->cshape);
}

/* Runs the case: the kernel on the device (one stream, one submit), or with --cpu the reference
 * on host copies; the buffers' bytes afterwards in b[].got. */
static fkc_status run_case(const conform_sr_env *e, fkc_set_rows_kernel *fn, const sr_case *c,
                           fkc_dtype sdt, fkc_dtype idt, fkc_dtype cdt, sbuf *b)
{
    fkc_status st = FKC_OK;
    if (!e->ctx) {
        for (int k = 0; k < B_COUNT; k++)
            memcpy(b[k].got, b[k].init, b[k].size);
        fkc_host_tensor hs = {b[B_SRC].got + b[B_SRC].at, sdt, c->srank, {0}};
        fkc_host_tensor hi = {b[B_IDX].got + b[B_IDX].at, idt, 1, {c->n}};
        fkc_host_tensor hc = {b[B_CACHE].got + b[B_CACHE].at, cdt, c->crank, {0}};
        memcpy(hs.shape, c->sshape, sizeof c->sshape);
        memcpy(hc.shape, c->cshape, sizeof c->cshape);
        uint64_t past = 0;
        fkc_set_error(FKC_OK, NULL);
        st = fkc_ref_set_rows(&hs, &hi, &hc, c->slot_axis, &past);
        if (st == FKC_OK && c->status) {
            unsigned char *w = b[B_STATUS].got + b[B_STATUS].at;
            uint32_t v = ld32(w) + (uint32_t)past;
            for (int i = 0; i < 4; i++)
                w[i] = (unsigned char)(v >> (8 * i));
        }
        return st;
    }
    for (int k = 0; k < B_COUNT && st == FKC_OK; k++) {
        fkc_buffer_destroy(b[k].buf);
        b[k].buf = NULL;
        st = fkc_buffer_create(e->ctx, b[k].size, &b[k].buf);
        if (st == FKC_OK)
            st = fkc_buffer_upload(b[k].buf, 0, b[k].init, b[k].size);
    }
    fkc_stream *s = NULL;
    if (st == FKC_OK)
        st = fkc_stream_create(e->ctx, &s);
    if (st != FKC_OK) {
        fkc_stream_destroy(s);
        return st;
    }
    fkc_tensor ts, ti, tc;
    tensors(c, sdt, idt, cdt, b, &ts, &ti, &tc);
    fkc_tensor out = tc;
    fkc_set_rows_params p = {c->slot_axis};
    fkc_set_rows_extra x = {b[B_STATUS].buf, b[B_STATUS].at};
    fkc_set_error(FKC_OK, NULL);
    st = fn(s, &ts, &ti, &tc, &out, &p, c->status ? &x : NULL);
    if (st == FKC_OK)
        st = fkc_stream_submit(s);
    fkc_stream_destroy(s);
    for (int k = 0; k < B_COUNT && st == FKC_OK; k++)
        st = fkc_buffer_download(b[k].buf, 0, b[k].got, b[k].size);
    return st;
}

/* ---- the checks -------------------------------------------------------------------------------- */

/* Whether some SetRows binding of the contracts has key [s, i, c] on backend be. */
static bool sr_bound(const conform_claims *cs, fkc_dtype s, fkc_dtype i, fkc_dtype c,
                     fkc_backend be)
{
    for (size_t k = 0; k < cs->n; k++) {
        const conform_claim *x = &cs->items[k];
        if (x->op == CONFORM_SET_ROWS && x->dtype == s && x->index_dtype == i &&
            x->out_dtype == c && x->backend == be)
            return true;
    }
    return false;
}

/* The binding's kernel through the whole-key dispatch and lookup; neighbouring keys refused.
 * NULL when the dispatch gives none. */
static fkc_set_rows_kernel *probe_keys(const conform_sr_env *e, const conform_claim *cl,
                                       const char *nm, conform_row *r)
{
    fkc_dtype key[4] = {cl->dtype, cl->index_dtype, cl->out_dtype, cl->out_dtype};
    fkc_set_rows_kernel *fl = NULL, *fd = NULL, *f = NULL;
    r->claim = "dtypes";
    fkc_status sl = e->shim->set_rows(key, 3, cl->backend, cl->kernel_source, &fl);
    fkc_status sd = e->shim->set_rows(key, 3, cl->backend, NULL, &fd);
    if (sl != FKC_OK || sd != FKC_OK) {
        conform_note(r,
                     "%s: declared at %s:%u, but the generated %s refuses [%s, %s, %s] on %s: %s",
                     nm, cl->file, cl->line,
                     sl != FKC_OK ? "binding lookup (fkc_binding_lookup_key)"
                                  : "dispatch (fkc_dispatch_key)",
                     dtn(key[0]), dtn(key[1]), dtn(key[2]), cl->backend_name,
                     fkc_status_name(sl != FKC_OK ? sl : sd));
        return NULL;
    }
    bool shared = false; /* another kernel source binds the same key: the dispatch picks one */
    for (size_t i = 0; i < e->claims->n; i++) {
        const conform_claim *o = &e->claims->items[i];
        shared |= o->op == CONFORM_SET_ROWS && o->dtype == cl->dtype &&
                  o->index_dtype == cl->index_dtype && o->out_dtype == cl->out_dtype &&
                  o->backend == cl->backend && strcmp(o->kernel_source, cl->kernel_source) != 0;
    }
    if (!shared && fl != fd)
        conform_note(r, "%s: the generated dispatch and binding lookup return different kernels",
                     nm);
    for (int slot = 0; slot < 3; slot++)
        for (size_t u = 0; u < N_VOCAB; u++) {
            fkc_dtype k2[3] = {key[0], key[1], key[2]};
            if (vocab[u] == key[slot])
                continue;
            k2[slot] = vocab[u];
            if (sr_bound(e->claims, k2[0], k2[1], k2[2], cl->backend))
                continue;
            fkc_status st = e->shim->set_rows(k2, 3, cl->backend, NULL, &f);
            if (st == FKC_ERR_NO_KERNEL)
                r->refused++;
            else
                conform_note(r,
                             "%s: the dispatch of the unbound key [%s, %s, %s] on %s gives %s, "
                             "not FKC_ERR_NO_KERNEL",
                             nm, dtn(k2[0]), dtn(k2[1]), dtn(k2[2]), cl->backend_name,
                             fkc_status_name(st));
        }
    static const size_t lens[2] = {2, 4}; /* [src, cache] and a slot too many */
    for (int l = 0; l < 2; l++) {
        fkc_dtype k2[4] = {key[0], lens[l] == 2 ? key[2] : key[1], key[2], key[3]};
        fkc_status st = e->shim->set_rows(k2, lens[l], cl->backend, NULL, &f);
        if (st == FKC_ERR_NO_KERNEL)
            r->refused++;
        else
            conform_note(r, "%s: the dispatch of a %zu-slot key gives %s, not FKC_ERR_NO_KERNEL",
                         nm, lens[l], fkc_status_name(st));
    }
    for (int be = 0; be < FKC_BACKEND_COUNT; be++) {
        if (sr_bound(e->claims, key[0], key[1], key[2], (fkc_backend)be))
            continue;
        fkc_status st = e->shim->set_rows(key, 3, (fkc_backend)be, NULL, &f);
        if (st == FKC_ERR_NO_KERNEL)
            r->refused++;
        else
            conform_note(r,
                         "%s: the dispatch of [%s, %s, %s] on %s, which no contract binds, gives "
                         "%s, not FKC_ERR_NO_KERNEL",
                         nm, dtn(key[0]), dtn(key[1]), dtn(key[2]),
                         fkc_backend_name((fkc_backend)be), fkc_status_name(st));
    }
    return shared ? fl : fd;
}

/* Calls the reference refuses, refused by the kernel too (on a stream never submitted), and a
 * cache passed as another tensor than out (the op is in place). */
static void probe_invalid(const conform_sr_env *e, const conform_claim *cl, fkc_set_rows_kernel *fn,
                          const char *nm, conform_row *r)
{
    static const struct {
        uint32_t srank, crank, irank;
        size_t s[3], c[3], i[2];
        int32_t axis;
        const char *what;
    } bad[5] = {
        {2, 2, 1, {2, 4}, {4, 4}, {3}, -1, "3 indices for 2 source rows"},
        {2, 2, 1, {2, 4}, {4, 4}, {2}, 0, "slot_axis 0"},
        {2, 2, 1, {2, 4}, {4, 4}, {2}, 2, "slot_axis 2 of a rank-2 cache"},
        {2, 2, 1, {2, 8}, {4, 4}, {2}, -1, "source rows of 8 elements, cache rows of 4"},
        {2, 2, 2, {2, 4}, {4, 4}, {2, 1}, -1, "an index of rank 2"},
    };
    size_t sw = fkc_dtype_size(cl->dtype), cw = fkc_dtype_size(cl->out_dtype);
    unsigned char hs[64 * 8] = {0}, hc[64 * 8] = {0}, hi[16] = {0}; /* indices 0 */
    fkc_buffer *bs = NULL, *bi = NULL, *bc = NULL;
    char why[CLI_ERR_MAX];
    r->claim = "shape_constraint";
    if (e->ctx && (fkc_buffer_create(e->ctx, 64 * sw, &bs) != FKC_OK ||
                   fkc_buffer_create(e->ctx, 16 * 8, &bi) != FKC_OK ||
                   fkc_buffer_create(e->ctx, 64 * cw, &bc) != FKC_OK)) {
        conform_note(r, "%s: cannot make the buffers of the invalid calls", nm);
        goto done;
    }
    for (int k = 0; k < 5; k++) {
        fkc_host_tensor ts = {hs, cl->dtype, bad[k].srank, {0}};
        fkc_host_tensor ti = {hi, cl->index_dtype, bad[k].irank, {0}};
        fkc_host_tensor tc = {hc, cl->out_dtype, bad[k].crank, {0}};
        memcpy(ts.shape, bad[k].s, sizeof bad[k].s);
        memcpy(ti.shape, bad[k].i, sizeof bad[k].i);
        memcpy(tc.shape, bad[k].c, sizeof bad[k].c);
        fkc_status ref = fkc_ref_set_rows(&ts, &ti, &tc, bad[k].axis, NULL), st = ref;
        if (ref == FKC_OK) {
            conform_note(r, "%s: fkc_ref_set_rows accepts an invalid call (%s)", nm, bad[k].what);
            continue;
        }
        if (e->ctx) {
            fkc_tensor ds = {bs, 0, cl->dtype, bad[k].srank, {0}};
            fkc_tensor di = {bi, 0, cl->index_dtype, bad[k].irank, {0}};
            fkc_tensor dc = {bc, 0, cl->out_dtype, bad[k].crank, {0}};
            memcpy(ds.shape, bad[k].s, sizeof bad[k].s);
            memcpy(di.shape, bad[k].i, sizeof bad[k].i);
            memcpy(dc.shape, bad[k].c, sizeof bad[k].c);
            fkc_tensor out = dc;
            fkc_set_rows_params p = {bad[k].axis};
            fkc_stream *s = NULL;
            st = fkc_stream_create(e->ctx, &s);
            if (st == FKC_OK)
                st = fn(s, &ds, &di, &dc, &out, &p, NULL);
            else
                st = FKC_OK, conform_note(r, "%s: cannot make a stream", nm);
            fkc_stream_destroy(s); /* never submitted */
        }
        if (st != FKC_OK)
            r->refused++;
        else
            conform_note(r, "%s: accepted an invalid call (%s), which fkc_ref_set_rows refuses: %s",
                         nm, bad[k].what, why_failed(ref, why, sizeof why));
    }
    if (e->ctx) { /* in place: out must be the cache itself */
        r->claim = "aliasing";
        fkc_tensor ds = {bs, 0, cl->dtype, 2, {2, 4}}, di = {bi, 0, cl->index_dtype, 1, {2}};
        fkc_tensor dc = {bc, 0, cl->out_dtype, 2, {4, 4}}, out = dc;
        out.offset = 4 * 4 * cw; /* the same buffer, four rows on */
        out.shape[0] = 2;
        fkc_set_rows_params p = {-1};
        fkc_stream *s = NULL;
        fkc_status st = fkc_stream_create(e->ctx, &s);
        if (st == FKC_OK)
            st = fn(s, &ds, &di, &dc, &out, &p, NULL);
        fkc_stream_destroy(s);
        if (st == FKC_ERR_INVALID_ARGUMENT)
            r->refused++;
        else
            conform_note(r,
                         "%s: claims aliasing %s (out is the cache), but a call whose out is "
                         "another tensor than its cache gives %s, not FKC_ERR_INVALID_ARGUMENT",
                         nm, cl->aliasing, fkc_status_name(st));
    }
done:
    fkc_buffer_destroy(bs);
    fkc_buffer_destroy(bi);
    fkc_buffer_destroy(bc);
}

/* The first byte of b outside its tensor that changed, or UINT64_MAX. */
static uint64_t guard_changed(const sbuf *b)
{
    for (uint64_t i = 0; i < b->size; i++)
        if ((i < b->at || i >= b->at + b->bytes) && b->got[i] != b->init[i])
            return i;
    return UINT64_MAX;
}

/* Judges one run of case c: the cache against want, the status word, guards, inputs. */
static bool judge(const conform_claim *cl, const sr_case *c, const sbuf *b,
                  const unsigned char *want, uint32_t want_status, const uint32_t *slot_of,
                  const uint32_t *pos_of, const uint32_t *namers, const int64_t *last,
                  const char *head, conform_row *r)
{
    size_t cw = fkc_dtype_size(cl->out_dtype), sw = fkc_dtype_size(cl->dtype);
    conform_tolerance tol = {cl->max_ulp, cl->max_absolute, cl->max_relative};
    char g[40], w[40], x[40];
    bool ok = true;
    const unsigned char *got = b[B_CACHE].got + b[B_CACHE].at;
    size_t bad = 0, first = 0;
    for (size_t el = 0; el < c->cache_elems; el++) {
        conform_element_error(cl->out_dtype, got + el * cw, want + el * cw, &r->err);
        if (!conform_element_ok(cl->out_dtype, got + el * cw, want + el * cw, &tol) && bad++ == 0)
            first = el;
    }
    if (bad) {
        uint32_t slot = slot_of[first], j = pos_of[first];
        const unsigned char *pg = got + first * cw, *pw = want + first * cw;
        ok = false;
        int64_t stray = -1; /* a row whose index writes nothing, whose value the slot holds */
        unsigned char conv[8];
        for (size_t rr = 0; rr < c->n && stray < 0; rr++) {
            if (c->idx[rr] >= 0 && (uint64_t)c->idx[rr] < c->slots)
                continue;
            o_convert(cl->dtype, cl->out_dtype, c->src + (rr * c->row_elems + j) * sw, conv);
            if (memcmp(conv, pg, cw) == 0 && memcmp(conv, pw, cw) != 0)
                stray = (int64_t)rr;
        }
        if (stray >= 0) {
            r->claim = "skipped";
            conform_note(r,
                         "%s: slot %u element %u holds row %" PRId64 "'s value (%s), whose "
                         "index %" PRId64 " must write nothing (%s); expected %s",
                         head, slot, j, stray, hex(pg, cw, g), c->idx[stray],
                         c->idx[stray] < 0 ? "negative: skipped" : "past the end: counted",
                         hex(pw, cw, w));
        } else if (namers[slot] == 0) {
            r->claim = "skipped";
            conform_note(r,
                         "%s: %zu of %zu cache elements differ; the first, element %zu of slot "
                         "%u, which no index in [0, %zu) names (negative ones are skipped, "
                         "past-the-end ones write nothing), changed: %s, was %s",
                         head, bad, c->cache_elems, (size_t)j, slot, c->slots, hex(pg, cw, g),
                         hex(pw, cw, w));
        } else {
            int64_t other = -1; /* an earlier row naming the slot whose value it holds */
            for (size_t rr = 0; namers[slot] > 1 && rr < (size_t)last[slot] && other < 0; rr++) {
                if (c->idx[rr] != (int64_t)slot)
                    continue;
                o_convert(cl->dtype, cl->out_dtype, c->src + (rr * c->row_elems + j) * sw, conv);
                if (memcmp(conv, pg, cw) == 0 && memcmp(conv, pw, cw) != 0)
                    other = (int64_t)rr;
            }
            if (other >= 0) {
                r->claim = "duplicates";
                conform_note(r,
                             "%s: slot %u is named by %u rows; it holds row %" PRId64
                             "'s element %u (%s), not the last one's, row %" PRId64
                             " (%s): the last row naming a slot wins",
                             head, slot, namers[slot], other, j, hex(pg, cw, g), last[slot],
                             hex(pw, cw, w));
            } else {
                r->claim = "precision";
                conform_note(r,
                             "%s: %zu of %zu cache elements differ from fkc_ref_set_rows; the "
                             "first, element %u of slot %u (row %" PRId64 ", source %s), is %s, "
                             "expected %s",
                             head, bad, c->cache_elems, j, slot, last[slot],
                             hex(c->src + ((size_t)last[slot] * c->row_elems + j) * sw, sw, x),
                             hex(pg, cw, g), hex(pw, cw, w));
            }
        }
    }
    uint64_t at = guard_changed(&b[B_CACHE]);
    if (at != UINT64_MAX) {
        r->claim = "guard";
        ok = false;
        conform_note(r, "%s: byte %" PRIu64 " %s the cache changed (%s, was %s)", head,
                     at < b[B_CACHE].at ? b[B_CACHE].at - at
                                        : at - b[B_CACHE].at - b[B_CACHE].bytes + 1,
                     at < b[B_CACHE].at ? "before" : "past the end of",
                     hex(b[B_CACHE].got + at, 1, g), hex(b[B_CACHE].init + at, 1, w));
    }
    for (int k = B_SRC; k <= B_IDX; k++)
        if (memcmp(b[k].got, b[k].init, b[k].size) != 0) {
            r->claim = "aliasing";
            ok = false;
            uint64_t i = 0;
            while (b[k].got[i] == b[k].init[i])
                i++;
            conform_note(r, "%s: the %s buffer changed at byte %" PRIu64 " (inputs are read only)",
                         head, k == B_SRC ? "src" : "index", i);
        }
    if (c->status) {
        uint32_t v = ld32(b[B_STATUS].got + b[B_STATUS].at);
        if (v != want_status) {
            r->claim = "status";
            ok = false;
            conform_note(r,
                         "%s: the status word is 0x%08" PRIx32 ", expected 0x%08" PRIx32
                         " (it was 0x%08" PRIx32 "; %" PRIu32 " indices at or past the slot "
                         "count %zu)",
                         head, v, want_status, c->status_init, want_status - c->status_init,
                         c->slots);
        }
        if ((at = guard_changed(&b[B_STATUS])) != UINT64_MAX) {
            r->claim = "guard";
            ok = false;
            conform_note(
                r, "%s: byte %" PRIu64 " of the status word's buffer changed, outside the word",
                head, at);
        }
    }
    return ok;
}

void conform_sr_binding(const conform_sr_env *e, const conform_claim *cl, conform_row *r)
{
    char nm[96], key[48], text[256], head[CLI_ERR_MAX], why[CLI_ERR_MAX];
    snprintf(nm, sizeof nm, "%s %s", cl->kernel, conform_sr_key(cl, key, sizeof key));
    fkc_set_rows_kernel *fn = probe_keys(e, cl, nm, r);
    r->cases = e->cases;
    if (!fn && e->ctx)
        return;
    conform_rng g = {e->seed ^ 0x5e7f0b5u};
    for (const char *p = cl->kernel; *p; p++)
        fnv(&g.state, p, 1);
    fnv(&g.state, &cl->dtype, sizeof cl->dtype);
    fnv(&g.state, &cl->index_dtype, sizeof cl->index_dtype);
    fnv(&g.state, &cl->out_dtype, sizeof cl->out_dtype);
    fkc_dtype sdt = cl->dtype, idt = cl->index_dtype, cdt = cl->out_dtype;
    size_t sw = fkc_dtype_size(sdt), iw = fkc_dtype_size(idt), cw = fkc_dtype_size(cdt);
    bool i64 = idt == FKC_DTYPE_I64;
    for (size_t i = 0; i < e->cases; i++) {
        sr_case c;
        sbuf b[B_COUNT], again[B_COUNT];
        memset(b, 0, sizeof b);
        memset(again, 0, sizeof again);
        unsigned char *want = NULL, *oracle_cache = NULL, *ib = NULL;
        uint32_t *slot_of = NULL, *pos_of = NULL, *namers = NULL;
        int64_t *last = NULL;
        bool ok = true;
        if (make_case(&g, sdt, idt, cdt, i, &c) < 0)
            goto oom;
        case_text(&c, text, sizeof text);
        snprintf(head, sizeof head, "%s: case %zu (%s)", nm, i, text);
        fnv(e->digest, c.cshape, sizeof c.cshape);
        fnv(e->digest, c.idx, c.n * sizeof *c.idx);
        fnv(e->digest, c.src, c.n * c.row_elems * sw);
        size_t ce = c.cache_elems, sl = c.slots ? c.slots : 1;
        if (!(want = malloc(ce * cw + 1)) || !(oracle_cache = malloc(ce * cw + 1)) ||
            !(ib = malloc(c.n * iw + 1)) || !(slot_of = calloc(ce + 1, 4)) ||
            !(pos_of = calloc(ce + 1, 4)) || !(namers = calloc(sl, 4)) || !(last = calloc(sl, 8)))
            goto oom;
        index_bytes(&c, i64, ib);
        unsigned char st_word[4] = {
            (unsigned char)c.status_init, (unsigned char)(c.status_init >> 8),
            (unsigned char)(c.status_init >> 16), (unsigned char)(c.status_init >> 24)};
        if (sbuf_make(&g, c.n * c.row_elems * sw, sw < 4 ? 4 : sw, c.src, &b[B_SRC]) < 0 ||
            sbuf_make(&g, c.n * iw, iw, ib, &b[B_IDX]) < 0 ||
            sbuf_make(&g, ce * cw, cw < 4 ? 4 : cw, NULL, &b[B_CACHE]) < 0 ||
            sbuf_make(&g, 4, 4, st_word, &b[B_STATUS]) < 0)
            goto oom;
        for (int k = 0; k < B_COUNT; k++)
            if (sbuf_clone(&b[k], &again[k]) < 0)
                goto oom;
        /* what the cache must become: the reference's result, checked against the oracle's */
        memcpy(want, b[B_CACHE].init + b[B_CACHE].at, ce * cw);
        memcpy(oracle_cache, want, ce * cw);
        uint64_t past_o = oracle(&c, sdt, cdt, oracle_cache, slot_of, pos_of, namers, last);
        uint64_t past = 0;
        fkc_host_tensor hs = {c.src, sdt, c.srank, {0}}, hi = {ib, idt, 1, {c.n}};
        fkc_host_tensor hc = {want, cdt, c.crank, {0}};
        memcpy(hs.shape, c.sshape, sizeof c.sshape);
        memcpy(hc.shape, c.cshape, sizeof c.cshape);
        fkc_set_error(FKC_OK, NULL);
        fkc_status st = fkc_ref_set_rows(&hs, &hi, &hc, c.slot_axis, &past);
        if (!e->ctx) /* --cpu: the reference is the kernel; the oracle is what it must give */
            memcpy(want, oracle_cache, ce * cw), past = past_o;
        r->claim = "run";
        if (st != FKC_OK) {
            conform_note(r, "%s: fkc_ref_set_rows refuses it: %s", head,
                         why_failed(st, why, sizeof why));
            ok = false;
            goto next;
        }
        if (e->ctx && (memcmp(want, oracle_cache, ce * cw) != 0 || past != past_o)) {
            size_t at = 0;
            while (at + 1 < ce * cw && want[at] == oracle_cache[at])
                at++;
            conform_note(r,
                         "%s: fkc_ref_set_rows and conform's oracle disagree (cache byte %zu; "
                         "%" PRIu64 " and %" PRIu64 " past the end): fix the reference first",
                         head, at, past, past_o);
            ok = false;
            goto next;
        }
        uint32_t want_status = c.status_init + (uint32_t)past;
        st = run_case(e, fn, &c, sdt, idt, cdt, b);
        if (st != FKC_OK) {
            r->claim = "dtypes";
            conform_note(r, "%s: refused a valid call: %s", head, why_failed(st, why, sizeof why));
            ok = false;
            goto next;
        }
        ok = judge(cl, &c, b, want, want_status, slot_of, pos_of, namers, last, head, r);
        /* determinism: the same call on the same bytes, the same result */
        if (cl->determinism != CONFORM_NONDETERMINISTIC || cl->bit_stable) {
            st = run_case(e, fn, &c, sdt, idt, cdt, again);
            r->claim = "determinism";
            if (st != FKC_OK) {
                conform_note(r, "%s: a second run was refused: %s", head,
                             why_failed(st, why, sizeof why));
                ok = false;
            } else if (memcmp(again[B_CACHE].got, b[B_CACHE].got, b[B_CACHE].size) != 0 ||
                       memcmp(again[B_STATUS].got, b[B_STATUS].got, b[B_STATUS].size) != 0) {
                conform_note(
                    r, "%s: a second run gives other bytes than the first (determinism: %s)", head,
                    cl->determinism == CONFORM_BITWISE         ? "bitwise"
                    : cl->determinism == CONFORM_DETERMINISTIC ? "deterministic"
                                                               : "bit_stable");
                ok = false;
            }
        }
        goto next;
    oom:
        r->claim = "run";
        conform_note(r, "%s: case %zu: out of memory", nm, i);
        ok = false;
    next:
        r->passed += ok;
        for (int k = 0; k < B_COUNT; k++)
            sbuf_free(&b[k]), sbuf_free(&again[k]);
        free(want);
        free(oracle_cache);
        free(ib);
        free(slot_of);
        free(pos_of);
        free(namers);
        free(last);
        case_free(&c);
    }
    if (fn || !e->ctx)
        probe_invalid(e, cl, fn, nm, r);
}

size_t conform_sr_unbound(const conform_sr_env *e, fkc_backend be, conform_row *r, char *example,
                          size_t cap)
{
    size_t works = 0;
    example[0] = '\0';
    const char *sources[16];
    size_t n_sources = 0;
    for (size_t i = 0; i < e->claims->n; i++) {
        const conform_claim *x = &e->claims->items[i];
        bool seen = x->op != CONFORM_SET_ROWS || x->backend != be;
        for (size_t k = 0; k < n_sources && !seen; k++)
            seen = strcmp(sources[k], x->kernel_source) == 0;
        if (!seen && n_sources < 16)
            sources[n_sources++] = x->kernel_source;
    }
    fkc_buffer *bs = NULL, *bi = NULL, *bc = NULL;
    fkc_stream *s = NULL; /* refused calls record nothing; it is never submitted */
    fkc_set_rows_kernel *f;
    r->claim = "dtypes";
    if (e->ctx &&
        (fkc_buffer_create(e->ctx, 64, &bs) != FKC_OK ||
         fkc_buffer_create(e->ctx, 16, &bi) != FKC_OK ||
         fkc_buffer_create(e->ctx, 64, &bc) != FKC_OK || fkc_stream_create(e->ctx, &s) != FKC_OK)) {
        conform_note(r, "SetRows unbound keys: cannot make the buffers and stream");
        goto done;
    }
    for (size_t a = 0; a < N_VOCAB; a++)
        for (size_t b = 0; b < N_VOCAB; b++)
            for (size_t c = 0; c < N_VOCAB; c++) {
                fkc_dtype key[3] = {vocab[a], vocab[b], vocab[c]};
                if (sr_bound(e->claims, key[0], key[1], key[2], be))
                    continue;
                fkc_status st = e->shim->set_rows(key, 3, be, NULL, &f);
                if (st == FKC_ERR_NO_KERNEL)
                    r->refused++;
                else
                    conform_note(r,
                                 "SetRows [%s, %s, %s]: no contract binds it on %s, but the "
                                 "dispatch gives %s, not FKC_ERR_NO_KERNEL",
                                 dtn(key[0]), dtn(key[1]), dtn(key[2]), fkc_backend_name(be),
                                 fkc_status_name(st));
                for (size_t k = 0; k < n_sources; k++) {
                    st = e->shim->set_rows(key, 3, be, sources[k], &f);
                    if (st != FKC_ERR_NO_KERNEL)
                        conform_note(r,
                                     "SetRows [%s, %s, %s]: no contract binds it, but the "
                                     "binding lookup of %s gives %s",
                                     dtn(key[0]), dtn(key[1]), dtn(key[2]), sources[k],
                                     fkc_status_name(st));
                }
                if (key[0] >= FKC_DTYPE_COUNT || key[1] >= FKC_DTYPE_COUNT ||
                    key[2] >= FKC_DTYPE_COUNT)
                    continue; /* no dtype the runtime's ops move */
                /* the runtime's own op must refuse it too: else it works but is undeclared */
                if (e->ctx) {
                    fkc_tensor ts = {bs, 0, key[0], 2, {1, 4}}, ti = {bi, 0, key[1], 1, {1}};
                    fkc_tensor tc = {bc, 0, key[2], 2, {2, 4}};
                    st = fkc_set_rows(s, &ts, &ti, &tc, -1, NULL, 0);
                } else {
                    unsigned char hs[32] = {0}, hi[8] = {0}, hc[64] = {0};
                    fkc_host_tensor ts = {hs, key[0], 2, {1, 4}}, ti = {hi, key[1], 1, {1}};
                    fkc_host_tensor tc = {hc, key[2], 2, {2, 4}};
                    st = fkc_ref_set_rows(&ts, &ti, &tc, -1, NULL);
                }
                if (st == FKC_OK && works++ == 0)
                    snprintf(example, cap, "[%s, %s, %s]", dtn(key[0]), dtn(key[1]), dtn(key[2]));
            }
done:
    fkc_stream_destroy(s);
    fkc_buffer_destroy(bs);
    fkc_buffer_destroy(bi);
    fkc_buffer_destroy(bc);
    return works;
}
