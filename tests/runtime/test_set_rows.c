/* test_set_rows.c — issue 24: row-indexed writes (fkc_set_rows). Every case runs on the device
 * with the validation layer and its synchronization validation on (any message fails) and is
 * compared byte for byte, guard bytes and the status word included, with the plain-C reference
 * (fkc_ref_set_rows); the reference's conversions are checked against the compiler's _Float16
 * and against hand-computed values. Cases: every dtype width and conversion pair, I32 and I64
 * indices, NHD, paged NHD and HND caches, -1 at the first, the last and every position, the
 * last slot, indices past the end (2^31, 2^32 + 3, 2^63 - 1 among them), duplicates, aligned and
 * unaligned tensors (the 16-byte and the word kernel), a lowered grid limit (one op split over
 * many dispatches), replay with indices moved on the device and rewritten between submits,
 * async and one-shot submission, a host's command buffer, and the refusals. The duplicate rule
 * both ways: the scan (few rows) and the scratch pass (more rows than ctx->sr_scan_rows, or
 * every op of two rows or more under the test hook set_rows_scan_rows = 1), fused and unfused,
 * the scratch host-zeroed and zeroed by a fill, replayed with new duplicates. */
#include <vulkan/vulkan.h>

#include "fkc/fkc_kernels.h"
#include "rt_host.h"

RT_SHARED_CONTEXT(ctx)

static fkc_context *cur; /* the context the cases run on (ctx unless a test swaps it) */

/* ---- conversions: the reference against independent oracles ----------------------------- */

static void put_index(unsigned char *p, fkc_dtype idt, size_t i, int64_t v);

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Runs one element through fkc_ref_set_rows (a [1, 1] cache): the reference's conversion. */
static void ref_convert(fkc_dtype s, fkc_dtype d, const void *in, void *out)
{
    int32_t idx = 0;
    fkc_host_tensor S = {(void *)in, s, 2, {1, 1}}, I = {&idx, FKC_DTYPE_I32, 1, {1}},
                    D = {out, d, 2, {1, 1}};
    RT_OK(fkc_ref_set_rows(&S, &I, &D, -1, NULL));
}

static uint16_t ref_f2h(uint32_t x)
{
    uint16_t h;
    ref_convert(FKC_DTYPE_F32, FKC_DTYPE_F16, &x, &h);
    return h;
}

static uint16_t ref_f2b(uint32_t x)
{
    uint16_t h;
    ref_convert(FKC_DTYPE_F32, FKC_DTYPE_BF16, &x, &h);
    return h;
}

static void test_conversions_reference(void **state)
{
    (void)state;
    /* hand-computed F16 results: overflow, the largest finite, ties, subnormals, NaN, -0 */
    static const struct {
        uint32_t in;
        uint16_t f16, bf16;
    } known[] = {
        {0x00000000u, 0x0000, 0x0000}, /* +0 */
        {0x80000000u, 0x8000, 0x8000}, /* -0 */
        {0x3f800000u, 0x3c00, 0x3f80}, /* 1 */
        {0x477fe000u, 0x7bff, 0x4780}, /* 65504, the largest F16 */
        {0x477fefffu, 0x7bff, 0x4780}, /* just under the tie: 65504 */
        {0x477ff000u, 0x7c00, 0x4780}, /* 65520, the tie above 65504: to even is Inf */
        {0x7f7fffffu, 0x7c00, 0x7f80}, /* FLT_MAX: +Inf in both */
        {0xff7fffffu, 0xfc00, 0xff80}, /* -FLT_MAX */
        {0x7f800000u, 0x7c00, 0x7f80}, /* +Inf */
        {0xff800000u, 0xfc00, 0xff80}, /* -Inf */
        {0x7fc00000u, 0x7e00, 0x7fc0}, /* quiet NaN */
        {0x7f800001u, 0x7e00, 0x7fc0}, /* signalling NaN: quiet, low payload gone */
        {0xffc02000u, 0xfe01, 0xffc0}, /* negative NaN with a payload */
        {0x33800000u, 0x0001, 0x3380}, /* 2^-24: the smallest F16 subnormal */
        {0x33000000u, 0x0000, 0x3300}, /* 2^-25: the tie below it rounds to even, 0 */
        {0x33000001u, 0x0001, 0x3300}, /* just above the tie: 2^-24 */
        {0x33c00000u, 0x0002, 0x33c0}, /* 1.5 * 2^-24: tie, to even 2 */
        {0x38800000u, 0x0400, 0x3880}, /* 2^-14: the smallest normal F16 */
        {0x387fc000u, 0x03ff, 0x3880}, /* the largest subnormal F16 */
        {0x387fe000u, 0x0400, 0x3880}, /* tie between it and 2^-14: up to even */
        {0x3f801000u, 0x3c00, 0x3f80}, /* 1 + 2^-11: tie, to even 1 */
        {0x3f803000u, 0x3c02, 0x3f80}, /* 1 + 3 * 2^-11: tie, to even 1 + 2^-9 */
        {0x3f808000u, 0x3c04, 0x3f80}, /* 1 + 2^-8: BF16 tie, to even 1 */
        {0x3f818000u, 0x3c0c, 0x3f82}, /* 1 + 3 * 2^-8: BF16 tie, up to even */
        {0x00000001u, 0x0000, 0x0000}, /* the smallest F32 subnormal */
        {0x00400000u, 0x0000, 0x0040}, /* an F32 subnormal: BF16 keeps it */
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (ref_f2h(known[i].in) != known[i].f16 || ref_f2b(known[i].in) != known[i].bf16)
            fail_msg("0x%08x: F16 0x%04x (want 0x%04x), BF16 0x%04x (want 0x%04x)", known[i].in,
                     ref_f2h(known[i].in), known[i].f16, ref_f2b(known[i].in), known[i].bf16);
    }
    /* every F16 widens exactly: F32 -> F16 gives it back (NaNs: a NaN of the same sign) */
    for (uint32_t h = 0; h < 65536; h++) {
        uint16_t hh = (uint16_t)h, b = (uint16_t)h;
        uint32_t f, g;
        ref_convert(FKC_DTYPE_F16, FKC_DTYPE_F32, &hh, &f);
        ref_convert(FKC_DTYPE_BF16, FKC_DTYPE_F32, &b, &g);
        assert_int_equal(g, h << 16);
        bool nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
        uint16_t back = ref_f2h(f);
        if (nan ? (back & 0xfe00u) != ((h & 0x8000u) | 0x7e00u) : back != h)
            fail_msg("F16 0x%04x -> F32 0x%08x -> F16 0x%04x", h, f, back);
#if defined(__FLT16_MAX__)
        __extension__ _Float16 x;
        memcpy(&x, &hh, 2);
        if (!nan && f != f32_bits((float)x))
            fail_msg("F16 0x%04x widens to 0x%08x, the compiler's to 0x%08x", h, f,
                     f32_bits((float)x));
#endif
    }
#if defined(__FLT16_MAX__)
    /* narrowing against the compiler's (round to nearest even) on 2^20 spread F32 values */
    rng_seed(7);
    for (uint32_t i = 0; i < (1u << 20); i++) {
        uint32_t x = i < 65536 ? (i << 16) | (uint32_t)rng_below(65536) : (uint32_t)rng_next();
        if ((x & 0x7fffffffu) > 0x7f800000u)
            continue; /* NaN: fkc's rule above (the compiler's payload rule may differ) */
        float f;
        memcpy(&f, &x, 4);
        __extension__ _Float16 y = (__extension__(_Float16) f);
        uint16_t want;
        memcpy(&want, &y, 2);
        if (ref_f2h(x) != want)
            fail_msg("F32 0x%08x -> F16 0x%04x, the compiler's 0x%04x", x, ref_f2h(x), want);
    }
#endif
    /* BF16: round to nearest even written out in 64-bit arithmetic */
    rng_seed(8);
    for (uint32_t i = 0; i < (1u << 20); i++) {
        uint32_t x = (uint32_t)rng_next();
        if ((x & 0x7fffffffu) > 0x7f800000u)
            continue;
        uint64_t q = x >> 16, rem = x & 0xffffu;
        if (rem > 0x8000u || (rem == 0x8000u && (q & 1)))
            q++;
        assert_int_equal(ref_f2b(x), (uint16_t)q);
    }
}

/* The device's conversions against the reference's on structured inputs: every F16 and BF16
 * widened; F32 values of every sign, exponent and top mantissa bits with low bits at the F16
 * and BF16 ties, either side of them, and random, narrowed. */
static void convert_on_device(fkc_dtype sdt, fkc_dtype ddt, const void *in, size_t n)
{
    size_t ssz = fkc_dtype_size(sdt), dsz = fkc_dtype_size(ddt), rows = n / 8;
    rt_buf S, D, I;
    rt_buf_make(ctx, &S, n * ssz);
    rt_buf_make(ctx, &D, n * dsz);
    rt_buf_make(ctx, &I, rows * 4);
    memcpy(S.host, in, n * ssz);
    for (size_t i = 0; i < rows; i++)
        put_index(I.host, FKC_DTYPE_I32, i, (int64_t)(rows - 1 - i));
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    RT_OK(fkc_buffer_upload(I.dev, 0, I.host, I.size));
    size_t sh[2] = {rows, 8}, ish[1] = {rows};
    fkc_tensor St = rt_tensor(S.dev, 0, sdt, 2, sh),
               It = rt_tensor(I.dev, 0, FKC_DTYPE_I32, 1, ish),
               Dt = rt_tensor(D.dev, 0, ddt, 2, sh);
    RT_OK(fkc_set_rows_sync(ctx, &St, &It, &Dt, -1, NULL, 0));
    fkc_host_tensor HS = {S.host, sdt, 2, {rows, 8}}, HI = {I.host, FKC_DTYPE_I32, 1, {rows}},
                    HD = {D.host, ddt, 2, {rows, 8}};
    RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, -1, NULL));
    rt_buf_check(&D, fkc_dtype_name(ddt));
    rt_buf_free(&S);
    rt_buf_free(&D);
    rt_buf_free(&I);
}

static void test_conversions_device(void **state)
{
    (void)state;
    enum { N = 65536 };
    uint16_t *h = malloc(N * 2);
    uint32_t *f = malloc(N * 4);
    assert_non_null(h);
    assert_non_null(f);
    for (uint32_t i = 0; i < N; i++)
        h[i] = (uint16_t)i;
    convert_on_device(FKC_DTYPE_F16, FKC_DTYPE_F32, h, N);
    convert_on_device(FKC_DTYPE_BF16, FKC_DTYPE_F32, h, N);
    static const uint16_t low[8] = {0x0000, 0x1000, 0x0fff, 0x1001, 0x8000, 0x7fff, 0x8001, 0};
    rng_seed(3);
    for (uint32_t i = 0; i < N; i++)
        f[i] = i << 16 | (i % 8 == 7 ? (uint32_t)rng_below(65536) : low[i % 8]);
    convert_on_device(FKC_DTYPE_F32, FKC_DTYPE_F16, f, N);
    convert_on_device(FKC_DTYPE_F32, FKC_DTYPE_BF16, f, N);
    /* the F16 subnormal range, every tie position: exponents 102..113, low 16 bits varied */
    for (uint32_t i = 0; i < N; i++) {
        uint32_t e = 102 + (i >> 12) % 12, m = (uint32_t)rng_next() & 0x7fffffu;
        uint32_t sh = e < 127 ? 126 - e : 0, tie = sh ? 1u << (sh - 1) : 0;
        if (i % 2 && sh)
            m = (m & ~((1u << sh) - 1)) | tie; /* exactly halfway */
        f[i] = (i % 4 > 1 ? 0x80000000u : 0) | e << 23 | (m & 0x7fffffu);
    }
    convert_on_device(FKC_DTYPE_F32, FKC_DTYPE_F16, f, N);
    free(h);
    free(f);
}

/* ---- the case runner --------------------------------------------------------------------- */

enum { MAX_CASES = 256, GUARD = 48 };

typedef struct sr_case {
    fkc_dtype sdt, idt, ddt;
    uint32_t drank;
    size_t dshape[FKC_MAX_RANK];
    int32_t slot_axis;
    size_t n;
    int64_t idx[1024];
    size_t dst_at, src_at, idx_at; /* byte offsets of the tensors in their buffers */
} sr_case;

typedef struct sr_run {
    sr_case c;
    rt_buf D, S, I, T;
    uint64_t want_bad;
    char label[160];
} sr_run;

static sr_run runs[MAX_CASES];
static int n_runs;

static size_t src_shape(const sr_case *c, size_t *shape)
{
    uint32_t k = c->slot_axis < 0 ? 0 : (uint32_t)c->slot_axis, r = 1;
    shape[0] = c->n;
    for (uint32_t a = 1; a < c->drank; a++)
        if (a != k)
            shape[r++] = c->dshape[a];
    return r;
}

static void put_index(unsigned char *p, fkc_dtype idt, size_t i, int64_t v)
{
    size_t w = idt == FKC_DTYPE_I64 ? 8 : 4;
    for (size_t b = 0; b < w; b++)
        p[i * w + b] = (unsigned char)((uint64_t)v >> (8 * b));
}

/* Makes the case's buffers, fills them, applies the reference to the host images and records
 * the op on s. */
static void case_record(fkc_stream *s, const sr_case *c)
{
    assert_true(n_runs < MAX_CASES);
    sr_run *r = &runs[n_runs++];
    memset(r, 0, sizeof *r);
    r->c = *c;
    size_t ss[FKC_MAX_RANK];
    uint32_t srank = (uint32_t)src_shape(c, ss);
    size_t dsz = fkc_dtype_size(c->ddt), ssz = fkc_dtype_size(c->sdt);
    size_t iw = c->idt == FKC_DTYPE_I64 ? 8 : 4;
    size_t dbytes = rt_elems(c->drank, c->dshape) * dsz, sbytes = rt_elems(srank, ss) * ssz;
    snprintf(r->label, sizeof r->label, "[%s, %s, %s] rank %u slot_axis %d n %zu at %zu/%zu",
             fkc_dtype_name(c->sdt), fkc_dtype_name(c->idt), fkc_dtype_name(c->ddt), c->drank,
             c->slot_axis, c->n, c->dst_at, c->src_at);
    rt_buf_make(cur, &r->D, c->dst_at + dbytes + GUARD);
    rt_buf_make(cur, &r->S, c->src_at + sbytes + GUARD);
    rt_buf_make(cur, &r->I, c->idx_at + c->n * iw + GUARD);
    rt_buf_make(cur, &r->T, 16);
    fill_tricky(r->D.host, r->D.size, dsz);
    fill_tricky(r->S.host + c->src_at, r->S.size - c->src_at, ssz);
    for (size_t i = 0; i < c->n; i++)
        put_index(r->I.host + c->idx_at, c->idt, i, c->idx[i]);
    memset(r->T.host, 0, 16);
    r->T.host[8] = 5; /* the status word starts at 5: the op adds to it */
    RT_OK(fkc_buffer_upload(r->D.dev, 0, r->D.host, r->D.size));
    RT_OK(fkc_buffer_upload(r->S.dev, 0, r->S.host, r->S.size));
    RT_OK(fkc_buffer_upload(r->I.dev, 0, r->I.host, r->I.size));
    RT_OK(fkc_buffer_upload(r->T.dev, 0, r->T.host, 16));
    fkc_host_tensor HS = {r->S.host + c->src_at, c->sdt, srank, {0}},
                    HI = {r->I.host + c->idx_at, c->idt, 1, {c->n}},
                    HD = {r->D.host + c->dst_at, c->ddt, c->drank, {0}};
    memcpy(HS.shape, ss, sizeof ss);
    memcpy(HD.shape, c->dshape, sizeof c->dshape);
    uint64_t bad = 0;
    RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, c->slot_axis, &bad));
    r->want_bad = bad;
    for (int b = 0; b < 4; b++) /* the status word: 5 + the indices past the end */
        r->T.host[8 + b] = (unsigned char)((5 + bad) >> (8 * b));
    fkc_tensor S = rt_tensor(r->S.dev, c->src_at, c->sdt, srank, ss);
    fkc_tensor I = rt_tensor(r->I.dev, c->idx_at, c->idt, 1, &c->n);
    fkc_tensor D = rt_tensor(r->D.dev, c->dst_at, c->ddt, c->drank, c->dshape);
    fkc_status st = fkc_set_rows(s, &S, &I, &D, c->slot_axis, r->T.dev, 8);
    if (st != FKC_OK)
        fail_msg("%s: %s: %s", r->label, fkc_status_name(st), fkc_last_error());
}

/* Checks and frees every recorded case (after the stream's work completed). */
static void cases_check(void)
{
    for (int i = 0; i < n_runs; i++) {
        sr_run *r = &runs[i];
        rt_buf_check(&r->D, r->label);
        rt_buf_check(&r->S, r->label);
        rt_buf_check(&r->I, r->label);
        rt_buf_check(&r->T, r->label);
        rt_buf_free(&r->D);
        rt_buf_free(&r->S);
        rt_buf_free(&r->I);
        rt_buf_free(&r->T);
    }
    n_runs = 0;
}

/* Index patterns over `slots` slots: 0 random distinct-ish, 1 -1 first, 2 -1 last, 3 -1
 * everywhere, 4 the last slot, 5 past the end, 6 one slot named by every row, 7 everything
 * mixed (negatives, past the end, duplicates). */
static void pattern(sr_case *c, size_t slots, int p, size_t n)
{
    c->n = n;
    for (size_t i = 0; i < n; i++) {
        int64_t v = (int64_t)((i * 7 + 3) % (slots ? slots : 1));
        switch (p) {
        case 1: v = i == 0 ? -1 : v; break;
        case 2: v = i + 1 == n ? -1 : v; break;
        case 3: v = -1 - (int64_t)i; break;
        case 4: v = i % 2 ? (int64_t)slots - 1 : v; break;
        case 5: v = i % 3 == 1 ? (int64_t)(slots + i) : v; break;
        case 6: v = (int64_t)(slots / 2); break;
        case 7: {
            uint64_t k = rng_below(5);
            v = k == 0   ? -(int64_t)rng_below(3) - 1
                : k == 1 ? (int64_t)(slots + rng_below(3))
                         : (int64_t)rng_below(slots < 3 ? slots : 3);
            break;
        }
        default: break;
        }
        c->idx[i] = v;
    }
}

typedef struct layout {
    uint32_t rank;
    size_t shape[4];
    int32_t slot_axis;
} layout;

/* Caches: NHD [slots, heads, dim], paged NHD, HND, and narrow rows (word kernel). */
static const layout layouts[] = {
    {3, {7, 3, 8}, -1},   /* NHD: 7 slots, rows of 24 elements */
    {4, {3, 4, 2, 8}, 1}, /* paged NHD: 3 blocks of 4 slots, rows [2, 8] */
    {4, {3, 2, 4, 8}, 2}, /* HND: 3 blocks, 2 heads, 4 slots a block, dim 8 */
    {2, {9, 4}, -1},      /* rows of 4 elements: one word for 1-byte dtypes */
    {4, {2, 3, 5, 4}, 3}, /* the slot split over axes 0 and 3 (the last), runs of 1 x 4 */
};

static const fkc_dtype pairs[][2] = {
    {FKC_DTYPE_F32, FKC_DTYPE_F32},   {FKC_DTYPE_I32, FKC_DTYPE_I32},
    {FKC_DTYPE_U32, FKC_DTYPE_U32},   {FKC_DTYPE_F16, FKC_DTYPE_F16},
    {FKC_DTYPE_BF16, FKC_DTYPE_BF16}, {FKC_DTYPE_F64, FKC_DTYPE_F64},
    {FKC_DTYPE_I64, FKC_DTYPE_I64},   {FKC_DTYPE_U8, FKC_DTYPE_U8},
    {FKC_DTYPE_I8, FKC_DTYPE_I8},     {FKC_DTYPE_F32, FKC_DTYPE_F16},
    {FKC_DTYPE_F32, FKC_DTYPE_BF16},  {FKC_DTYPE_F16, FKC_DTYPE_F32},
    {FKC_DTYPE_BF16, FKC_DTYPE_F32},
};

/* Whether the device kernel takes the cache (its runs whole 32-bit words at a word offset). */
static bool device_takes(const layout *l, fkc_dtype ddt, size_t dst_at)
{
    uint32_t k = l->slot_axis < 0 ? 0 : (uint32_t)l->slot_axis;
    size_t run = fkc_dtype_size(ddt);
    for (uint32_t a = k + 1; a < l->rank; a++)
        run *= l->shape[a];
    return run % 4 == 0 && dst_at % 4 == 0;
}

static void every_pair(bool fuse)
{
    rng_seed(24);
    cur = ctx;
    for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++) {
        fkc_stream *s;
        RT_OK(fkc_stream_create(cur, &s));
        fkc_test_set_fusion(s, fuse);
        for (size_t li = 0; li < sizeof layouts / sizeof layouts[0]; li++)
            for (int ix = 0; ix < 2; ix++)
                for (int p = 0; p < 8; p++) {
                    const layout *l = &layouts[li];
                    sr_case c = {.sdt = pairs[pi][0],
                                 .ddt = pairs[pi][1],
                                 .idt = ix ? FKC_DTYPE_I64 : FKC_DTYPE_I32,
                                 .drank = l->rank,
                                 .slot_axis = l->slot_axis};
                    memcpy(c.dshape, l->shape, sizeof l->shape);
                    size_t slots = l->shape[0] * (l->slot_axis > 0 ? l->shape[l->slot_axis] : 1);
                    /* offsets: aligned (16-byte kernel), word-aligned, an odd source */
                    c.dst_at = (size_t)(p % 3 == 0 ? 0 : p % 3 == 1 ? 16 : 4);
                    c.src_at = (size_t)(p % 4 == 3 ? fkc_dtype_size(c.sdt) : p % 2 ? 32 : 0);
                    if (c.sdt == c.ddt && p == 5)
                        c.src_at = 1; /* a bit copy from any byte */
                    c.idx_at = (size_t)(ix ? 8 * (p % 2) : 4 * (p % 3));
                    pattern(&c, slots, p, p == 6 ? 9 : 3 + (size_t)p * 2);
                    if (!device_takes(l, c.ddt, c.dst_at))
                        continue; /* refused: test_refusals */
                    case_record(s, &c);
                }
        /* fused: fewer dispatches than ops (the buffers share memory blocks' VkBuffers, whose
         * windows only widen over bytes nothing else touched: several dispatches) */
        if (fuse && rt_command_count(s) >= (uint32_t)n_runs)
            fail_msg("%s: %u commands for %d ops fused", runs[0].label, rt_command_count(s),
                     n_runs);
        RT_OK(fkc_stream_submit(s));
        cases_check();
        fkc_stream_destroy(s);
    }
}

static void test_every_pair_unfused(void **state)
{
    (void)state;
    every_pair(false);
}

static void test_every_pair_fused(void **state)
{
    (void)state;
    every_pair(true);
}

/* ---- a decode step: one token into each of 2 x 8 caches, K and V -------------------------- */

enum { NC = 16, BLOCKS = 2, HEADS = 2, BS = 4, DIM = 16, NSLOT = BLOCKS * BS };

/* Modes: 0 unfused; 1 fused (the table host-visible: one command); 2 fused, the table by
 * vkCmdUpdateBuffer (two); 3 fused without push descriptors (descriptor sets). Each step: the
 * 16 ops (F32 rows into F16 HND caches, one I64 index shared by all, one status word shared by
 * all), then the index advanced on the device; replayed; compared with the reference. */
static void decode_step(int mode)
{
    fkc_test_hooks h = {.no_host_tables = mode == 2, .no_push_descriptors = mode == 3};
    cur = mode >= 2 ? rt_context_hooks(0, FKC_COPY_AUTO, &h, NULL) : ctx;
    size_t cbytes = (size_t)NSLOT * HEADS * DIM * 2, xbytes = (size_t)HEADS * DIM * 4;
    rt_buf C[2], X, I, T;
    rt_buf_make(cur, &C[0], NC / 2 * cbytes);
    rt_buf_make(cur, &C[1], NC / 2 * cbytes);
    rt_buf_make(cur, &X, NC * xbytes);
    rt_buf_make(cur, &I, 16);
    rt_buf_make(cur, &T, 16);
    memset(T.host, 0, 16);
    RT_OK(fkc_buffer_upload(T.dev, 0, T.host, 16));
    put_index(I.host, FKC_DTYPE_I64, 0, 5);
    RT_OK(fkc_buffer_upload(I.dev, 0, I.host, 8));
    size_t csh[4] = {BLOCKS, HEADS, BS, DIM}, xsh[3] = {1, HEADS, DIM}, ish[1] = {1};
    fkc_tensor It = rt_tensor(I.dev, 0, FKC_DTYPE_I64, 1, ish);
    fkc_stream *s;
    RT_OK(fkc_stream_create(cur, &s));
    fkc_test_set_fusion(s, mode != 0);
    for (int c = 0; c < NC; c++) {
        fkc_tensor Ct = rt_tensor(C[c % 2].dev, (uint64_t)(c / 2) * cbytes, FKC_DTYPE_F16, 4, csh);
        fkc_tensor Xt = rt_tensor(X.dev, (uint64_t)c * xbytes, FKC_DTYPE_F32, 3, xsh);
        RT_OK(fkc_set_rows(s, &Xt, &It, &Ct, 2, T.dev, 0));
    }
    uint32_t cmds = rt_command_count(s), bars = fkc_test_barrier_count(s);
    uint32_t want = mode == 0 ? NC : mode == 2 ? 2 : 1;
    /* unfused, each op's atomic adds to the shared status word wait for the previous op's */
    if (cmds != want || bars != (mode == 0 ? NC - 1 : 0))
        fail_msg("mode %d: a 16-cache step records %u commands (want %u), %u barriers", mode, cmds,
                 want, bars);
    RT_OK(fkc_stream_advance(s, I.dev, 0, 1));
    assert_int_equal(fkc_test_barrier_count(s), bars + 1);
    uint64_t bad = 0;
    for (int step = 0; step < 5; step++) { /* slots 5, 6, 7, then 8 and 9: past the end */
        fill_tricky(X.host, X.size, 4);
        RT_OK(fkc_buffer_upload(X.dev, 0, X.host, X.size));
        for (int c = 0; c < NC; c++) {
            fkc_host_tensor HS = {X.host + (size_t)c * xbytes, FKC_DTYPE_F32, 3, {1, HEADS, DIM}},
                            HI = {I.host, FKC_DTYPE_I64, 1, {1}},
                            HD = {C[c % 2].host + (size_t)(c / 2) * cbytes,
                                  FKC_DTYPE_F16,
                                  4,
                                  {BLOCKS, HEADS, BS, DIM}};
            RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, 2, &bad));
        }
        put_index(I.host, FKC_DTYPE_I64, 0, 6 + step);
        RT_OK(step == 0 ? fkc_stream_submit(s) : fkc_stream_replay(s));
    }
    assert_int_equal(bad, 2 * NC);
    T.host[0] = (unsigned char)bad;
    rt_buf_check(&C[0], "decode step, K caches");
    rt_buf_check(&C[1], "decode step, V caches");
    rt_buf_check(&I, "decode step, index");
    rt_buf_check(&T, "decode step, status");
    fkc_stream_destroy(s);
    rt_buf_free(&C[0]);
    rt_buf_free(&C[1]);
    rt_buf_free(&X);
    rt_buf_free(&I);
    rt_buf_free(&T);
    if (cur != ctx) {
        rt_no_validation(cur);
        fkc_context_destroy(cur);
    }
    cur = ctx;
}

static void test_decode_step(void **state)
{
    (void)state;
    for (int mode = 0; mode < 4; mode++)
        decode_step(mode);
}

/* set_rows ops fused while other ops come between them: a copy and a write_slice into the bytes
 * between two caches of one buffer (which the fused dispatch's widened window covers) must wait
 * for it, a
 * fused write_slice and a set_rows into one cache keep their order, a download reads the result.
 * Bit-exact, validation and synchronization validation on, fused and unfused. */
static void mixed(bool fuse)
{
    enum { CB = 1024 }; /* three F32 caches [16, 16] of 1 KiB in one buffer: A, B, C */
    rt_buf D, X, I;
    rt_buf_make(ctx, &D, 3 * CB);
    rt_buf_make(ctx, &X, 4096);
    rt_buf_make(ctx, &I, 64);
    int32_t idx[2] = {3, 15};
    memcpy(I.host, idx, sizeof idx);
    RT_OK(fkc_buffer_upload(I.dev, 0, I.host, I.size));
    size_t csh[2] = {16, 16}, rsh[2] = {2, 16}, ish[1] = {2}, wsh[2] = {4, 16}, off[2] = {6, 0};
    fkc_tensor A = rt_tensor(D.dev, 0, FKC_DTYPE_F32, 2, csh);
    fkc_tensor B = rt_tensor(D.dev, CB, FKC_DTYPE_F32, 2, csh);
    fkc_tensor C = rt_tensor(D.dev, 2 * CB, FKC_DTYPE_F32, 2, csh);
    fkc_tensor R = rt_tensor(X.dev, 0, FKC_DTYPE_F32, 2, rsh);
    fkc_tensor Wr = rt_tensor(X.dev, 1024, FKC_DTYPE_F32, 2, wsh);
    fkc_tensor It = rt_tensor(I.dev, 0, FKC_DTYPE_I32, 1, ish);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_test_set_fusion(s, fuse);
    unsigned char got[3 * CB];
    RT_OK(fkc_set_rows(s, &R, &It, &A, -1, NULL, 0));
    RT_OK(fkc_set_rows(s, &R, &It, &C, -1, NULL, 0));            /* the window widens over B */
    RT_OK(fkc_stream_copy(s, D.dev, CB + 64, X.dev, 2048, 256)); /* into B: waits for it */
    RT_OK(fkc_write_slice(s, &Wr, &B, off));
    RT_OK(fkc_write_slice(s, &Wr, &C, off));          /* C's rows 6..9 after set_rows' */
    RT_OK(fkc_set_rows(s, &R, &It, &C, -1, NULL, 0)); /* ... and set_rows' rows 3, 15 again */
    RT_OK(fkc_stream_download(s, D.dev, 0, got, sizeof got));
    RT_OK(fkc_stream_submit(s));
    fkc_host_tensor HR = {X.host, FKC_DTYPE_F32, 2, {2, 16}}, HI = {I.host, FKC_DTYPE_I32, 1, {2}};
    fkc_host_tensor HA = {D.host, FKC_DTYPE_F32, 2, {16, 16}},
                    HC = {D.host + 2 * CB, FKC_DTYPE_F32, 2, {16, 16}};
    RT_OK(fkc_ref_set_rows(&HR, &HI, &HA, -1, NULL));
    RT_OK(fkc_ref_set_rows(&HR, &HI, &HC, -1, NULL));
    memcpy(D.host + CB + 64, X.host + 2048, 256);
    RT_OK(fkc_ref_write_slice(D.host + CB, csh, 2, X.host + 1024, wsh, off, 4));
    RT_OK(fkc_ref_write_slice(D.host + 2 * CB, csh, 2, X.host + 1024, wsh, off, 4));
    RT_OK(fkc_ref_set_rows(&HR, &HI, &HC, -1, NULL));
    rt_buf_check(&D, fuse ? "mixed, fused" : "mixed, unfused");
    assert_memory_equal(got, D.host, sizeof got);
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&X);
    rt_buf_free(&I);
}

static void test_mixed(void **state)
{
    (void)state;
    mixed(false);
    mixed(true);
}

/* An index of every position -1 in turn, on an aligned and a word cache. */
static void test_minus_one_everywhere(void **state)
{
    (void)state;
    cur = ctx;
    fkc_stream *s;
    RT_OK(fkc_stream_create(cur, &s));
    static const size_t widths_[3] = {8, 2, 2600}; /* 16-byte units, a word, 2 x 256 units */
    for (int w = 0; w < 3; w++)
        for (size_t at = 0; at < 12; at++) {
            sr_case c = {.sdt = FKC_DTYPE_F16,
                         .ddt = FKC_DTYPE_F16,
                         .idt = at % 2 ? FKC_DTYPE_I64 : FKC_DTYPE_I32,
                         .drank = 2,
                         .dshape = {12, widths_[w]},
                         .slot_axis = -1,
                         .n = 12};
            for (size_t i = 0; i < 12; i++)
                c.idx[i] = i == at ? -1 : (int64_t)((11 - i + (size_t)w) % 12);
            case_record(s, &c);
        }
    RT_OK(fkc_stream_submit(s));
    cases_check();
    fkc_stream_destroy(s);
}

/* I64 indices that a truncation to 32 bits would turn into real slots: never written, counted. */
static void test_large_indices(void **state)
{
    (void)state;
    cur = ctx;
    fkc_stream *s;
    RT_OK(fkc_stream_create(cur, &s));
    static const int64_t big[] = {(int64_t)1 << 31,
                                  (int64_t)((1ull << 32) + 3),
                                  INT64_MAX,
                                  INT64_MIN,
                                  (int64_t)0xffffffffll,
                                  (int64_t)((1ull << 32) - 8),
                                  (int64_t)1 << 62,
                                  2,
                                  (int64_t)((1ull << 32) + 0),
                                  -((int64_t)1 << 32) + 3,
                                  (int64_t)1 << 40,
                                  7};
    sr_case c = {.sdt = FKC_DTYPE_F32,
                 .ddt = FKC_DTYPE_F32,
                 .idt = FKC_DTYPE_I64,
                 .drank = 2,
                 .dshape = {8, 4},
                 .slot_axis = -1,
                 .n = sizeof big / sizeof big[0]};
    memcpy(c.idx, big, sizeof big);
    case_record(s, &c);
    assert_int_equal(runs[0].want_bad, 8); /* all but INT64_MIN, -2^32 + 3, 2 and 7 */
    /* I32: INT32_MIN and -1 skipped, INT32_MAX past the end */
    sr_case d = c;
    d.idt = FKC_DTYPE_I32;
    d.n = 4;
    d.idx[0] = INT32_MIN, d.idx[1] = -1, d.idx[2] = INT32_MAX, d.idx[3] = 7;
    case_record(s, &d);
    assert_int_equal(runs[1].want_bad, 1);
    RT_OK(fkc_stream_submit(s));
    cases_check();
    fkc_stream_destroy(s);
}

/* A grid of 2 x 2 groups: rows of 150 16-byte units (one group each) go 4 rows a dispatch,
 * rows of 1026 units (two groups of 4 x 256 units) 2 rows a dispatch, duplicates across
 * dispatches; and a storage window too small for the cache is refused. */
static void test_lowered_limits(void **state)
{
    (void)state;
    cur = rt_context(0, FKC_COPY_AUTO, 0, 2);
    fkc_stream *s;
    RT_OK(fkc_stream_create(cur, &s));
    sr_case c = {.sdt = FKC_DTYPE_F32,
                 .ddt = FKC_DTYPE_F32,
                 .idt = FKC_DTYPE_I32,
                 .drank = 2,
                 .dshape = {5, 600},
                 .slot_axis = -1,
                 .n = 9};
    int64_t idx[9] = {4, 0, 4, -1, 2, 9, 0, 3, 4};
    memcpy(c.idx, idx, sizeof idx);
    case_record(s, &c);
    c.sdt = FKC_DTYPE_F16, c.ddt = FKC_DTYPE_F16, c.dshape[1] = 8208; /* vec: 1026 units */
    case_record(s, &c);
    uint32_t cmds = rt_command_count(s);
    RT_OK(fkc_stream_submit(s));
    cases_check();
    assert_int_equal(cmds, 3 + 5); /* 9 rows: 3 dispatches of 4 rows, 5 of 2 */
    fkc_stream_destroy(s);
    rt_no_validation(cur);
    fkc_context_destroy(cur);

    cur = rt_context(0, FKC_COPY_AUTO, 256, 0);
    fkc_buffer *b;
    RT_OK(fkc_buffer_create(cur, 4096, &b));
    size_t dsh[2] = {64, 4}, ssh[2] = {1, 4}, ish[1] = {1};
    fkc_tensor D = rt_tensor(b, 0, FKC_DTYPE_F32, 2, dsh),
               S = rt_tensor(b, 2048, FKC_DTYPE_F32, 2, ssh),
               I = rt_tensor(b, 3072, FKC_DTYPE_I32, 1, ish);
    RT_OK(fkc_stream_create(cur, &s));
    assert_int_equal(fkc_set_rows(s, &S, &I, &D, -1, NULL, 0), FKC_ERR_UNSUPPORTED);
    assert_int_equal(fkc_stream_op_count(s), 0);
    fkc_stream_destroy(s);
    fkc_buffer_destroy(b);
    rt_no_validation(cur);
    fkc_context_destroy(cur);
    cur = ctx;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* A decode step replayed: the I64 index moves on the device (fkc_stream_advance) and the source
 * is rewritten between replays; then the host rewrites the index itself between replays. */
static void test_replay(void **state)
{
    (void)state;
    enum { SLOTS = 6, ROW = 16 }; /* F32 -> F16, rows of 16 */
    rt_buf C, X, I, T;
    rt_buf_make(ctx, &C, SLOTS * ROW * 2);
    rt_buf_make(ctx, &X, ROW * 4);
    rt_buf_make(ctx, &I, 16);
    rt_buf_make(ctx, &T, 16);
    memset(T.host, 0, 16);
    RT_OK(fkc_buffer_upload(T.dev, 0, T.host, 16));
    put_u64(I.host, 4); /* slot 4 first, then 5, then past the end (counted), ... */
    RT_OK(fkc_buffer_upload(I.dev, 0, I.host, 8));
    size_t csh[2] = {SLOTS, ROW}, xsh[2] = {1, ROW}, ish[1] = {1};
    fkc_tensor Ct = rt_tensor(C.dev, 0, FKC_DTYPE_F16, 2, csh);
    fkc_tensor Xt = rt_tensor(X.dev, 0, FKC_DTYPE_F32, 2, xsh);
    fkc_tensor It = rt_tensor(I.dev, 0, FKC_DTYPE_I64, 1, ish);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_set_rows(s, &Xt, &It, &Ct, -1, T.dev, 4));
    RT_OK(fkc_stream_advance(s, I.dev, 0, 1));
    uint64_t bad = 0;
    for (int step = 0; step < 5; step++) {
        fill_tricky(X.host, X.size, 4);
        RT_OK(fkc_buffer_upload(X.dev, 0, X.host, X.size));
        fkc_host_tensor HS = {X.host, FKC_DTYPE_F32, 2, {1, ROW}},
                        HI = {I.host, FKC_DTYPE_I64, 1, {1}},
                        HD = {C.host, FKC_DTYPE_F16, 2, {SLOTS, ROW}};
        RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, -1, &bad));
        put_u64(I.host, 5 + (uint64_t)step);
        RT_OK(step == 0 ? fkc_stream_submit(s) : fkc_stream_replay(s));
    }
    T.host[4] = (unsigned char)bad;
    assert_int_equal(bad, 3); /* slots 6, 7, 8 are past the end */
    rt_buf_check(&C, "replayed, index advanced on the device");
    rt_buf_check(&I, "the advanced index");
    rt_buf_check(&T, "status after the replays");
    /* the host writes the index between replays (duplicates of earlier slots, -1) */
    static const int64_t host_idx[] = {0, -1, 2, 0, 5};
    for (int step = 0; step < 5; step++) {
        put_u64(I.host, (uint64_t)host_idx[step]);
        RT_OK(fkc_buffer_upload(I.dev, 0, I.host, 8));
        fill_tricky(X.host, X.size, 4);
        RT_OK(fkc_buffer_upload(X.dev, 0, X.host, X.size));
        fkc_host_tensor HS = {X.host, FKC_DTYPE_F32, 2, {1, ROW}},
                        HI = {I.host, FKC_DTYPE_I64, 1, {1}},
                        HD = {C.host, FKC_DTYPE_F16, 2, {SLOTS, ROW}};
        RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, -1, &bad));
        RT_OK(fkc_stream_replay_async(s));
        RT_OK(fkc_stream_wait(s, UINT64_MAX));
        put_u64(I.host, (uint64_t)host_idx[step] + 1); /* the recorded advance */
    }
    rt_buf_check(&C, "replayed, index rewritten by the host");
    rt_buf_check(&I, "the index after the host's writes");
    fkc_stream_destroy(s);
    rt_buf_free(&C);
    rt_buf_free(&X);
    rt_buf_free(&I);
    rt_buf_free(&T);
}

/* Two ops on one cache and one status word in one stream (ordered: the second's rows win),
 * submitted asynchronously; and the one-shot call. */
static void test_ordering_async_sync(void **state)
{
    (void)state;
    rt_buf C, X, I, T;
    rt_buf_make(ctx, &C, 8 * 32 * 4);
    rt_buf_make(ctx, &X, 2 * 3 * 32 * 4);
    rt_buf_make(ctx, &I, 64);
    rt_buf_make(ctx, &T, 16);
    memset(T.host, 0, 16);
    RT_OK(fkc_buffer_upload(T.dev, 0, T.host, 16));
    int32_t idx[6] = {1, 3, 8, 3, 1, 99};
    memcpy(I.host, idx, sizeof idx);
    RT_OK(fkc_buffer_upload(I.dev, 0, I.host, sizeof idx));
    size_t csh[2] = {8, 32}, xsh[2] = {3, 32}, ish[1] = {3};
    fkc_tensor Ct = rt_tensor(C.dev, 0, FKC_DTYPE_F32, 2, csh);
    fkc_tensor X0 = rt_tensor(X.dev, 0, FKC_DTYPE_F32, 2, xsh);
    fkc_tensor X1 = rt_tensor(X.dev, 3 * 32 * 4, FKC_DTYPE_F32, 2, xsh);
    fkc_tensor I0 = rt_tensor(I.dev, 0, FKC_DTYPE_I32, 1, ish);
    fkc_tensor I1 = rt_tensor(I.dev, 12, FKC_DTYPE_I32, 1, ish);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_set_rows(s, &X0, &I0, &Ct, -1, T.dev, 0));
    RT_OK(fkc_set_rows(s, &X1, &I1, &Ct, -1, T.dev, 0));
    assert_int_equal(fkc_test_barrier_count(s), 1); /* the cache and the status word */
    RT_OK(fkc_stream_submit_async(s));
    RT_OK(fkc_stream_wait(s, UINT64_MAX));
    uint64_t bad = 0;
    for (int k = 0; k < 2; k++) {
        fkc_host_tensor HS = {X.host + k * 3 * 32 * 4, FKC_DTYPE_F32, 2, {3, 32}},
                        HI = {I.host + 12 * k, FKC_DTYPE_I32, 1, {3}},
                        HD = {C.host, FKC_DTYPE_F32, 2, {8, 32}};
        RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, -1, &bad));
    }
    assert_int_equal(bad, 2);
    T.host[0] = 2;
    rt_buf_check(&C, "two ops");
    rt_buf_check(&T, "two ops' status");
    /* one-shot, without a status word */
    RT_OK(fkc_set_rows_sync(ctx, &X1, &I0, &Ct, -1, NULL, 0));
    fkc_host_tensor HS = {X.host + 3 * 32 * 4, FKC_DTYPE_F32, 2, {3, 32}},
                    HI = {I.host, FKC_DTYPE_I32, 1, {3}}, HD = {C.host, FKC_DTYPE_F32, 2, {8, 32}};
    RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, -1, NULL));
    rt_buf_check(&C, "one-shot");
    fkc_stream_destroy(s);
    rt_buf_free(&C);
    rt_buf_free(&X);
    rt_buf_free(&I);
    rt_buf_free(&T);
}

/* Every refusal records nothing and says why; the reference takes what the device refuses for
 * its word kernel. */
static void test_refusals(void **state)
{
    (void)state;
    fkc_buffer *b, *t;
    RT_OK(fkc_buffer_create(ctx, 8192, &b));
    RT_OK(fkc_buffer_create(ctx, 64, &t));
    size_t dsh[3] = {4, 2, 8}, ssh[3] = {3, 2, 8}, ish[1] = {3};
    fkc_tensor D = rt_tensor(b, 0, FKC_DTYPE_F16, 3, dsh);
    fkc_tensor S = rt_tensor(b, 1024, FKC_DTYPE_F32, 3, ssh);
    fkc_tensor I = rt_tensor(b, 4096, FKC_DTYPE_I32, 1, ish);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_set_rows(s, &S, &I, &D, -1, t, 0)); /* the call the others change */
    struct {
        fkc_tensor S, I, D;
        int32_t axis;
        uint64_t st_off;
        fkc_status want;
        const char *says;
    } bad[16];
    int n = 0;
#define BAD(field, value, axis_, off_, st_, says_)                                                 \
    do {                                                                                           \
        bad[n].S = S, bad[n].I = I, bad[n].D = D, bad[n].axis = (axis_);                           \
        bad[n].st_off = (off_), bad[n].want = (st_), bad[n].says = (says_);                        \
        bad[n].field = (value);                                                                    \
        n++;                                                                                       \
    } while (0)
    BAD(S.dtype, FKC_DTYPE_I32, -1, 0, FKC_ERR_NO_KERNEL, "no kernel for [I32, I32, F16]");
    BAD(S.dtype, FKC_DTYPE_F64, -1, 0, FKC_ERR_NO_KERNEL, "[F64, I32, F16]");
    BAD(I.dtype, FKC_DTYPE_U32, -1, 0, FKC_ERR_DTYPE, "must be I32 or I64");
    BAD(I.shape[0], 2, -1, 0, FKC_ERR_SHAPE, "2 indices for 3 source rows");
    BAD(S.shape[2], 4, -1, 0, FKC_ERR_SHAPE, "rows must match");
    BAD(S.rank, 2, -1, 0, FKC_ERR_RANK, "need rank 3");
    BAD(I.rank, 2, -1, 0, FKC_ERR_RANK, "index has rank 2");
    BAD(D.rank, 0, -1, 0, FKC_ERR_RANK, "outside 1..8");
    BAD(D.shape[0], 4, 0, 0, FKC_ERR_INVALID_ARGUMENT, "slot_axis 0");
    BAD(D.shape[0], 4, 3, 0, FKC_ERR_INVALID_ARGUMENT, "slot_axis 3");
    BAD(D.offset, 1024, -1, 0, FKC_ERR_INVALID_ARGUMENT, "out overlaps src");
    BAD(D.offset, 8190, -1, 0, FKC_ERR_INVALID_ARGUMENT, "do not fit");
    BAD(D.offset, 2, -1, 0, FKC_ERR_UNSUPPORTED, "not whole 32-bit words");
    BAD(I.offset, 4098, -1, 0, FKC_ERR_UNSUPPORTED, "index is not 4-byte aligned");
    BAD(D.shape[0], 4, -1, 62, FKC_ERR_OUT_OF_BOUNDS, "outside its 64-byte buffer");
    BAD(D.shape[0], 4, -1, 2, FKC_ERR_INVALID_ARGUMENT, "not 4-aligned");
    for (int i = 0; i < n; i++) {
        fkc_status st = fkc_set_rows(s, &bad[i].S, &bad[i].I, &bad[i].D, bad[i].axis, t,
                                     bad[i].st_off);
        if (st != bad[i].want || !strstr(fkc_last_error(), bad[i].says))
            fail_msg("case %d: %s (%s), want %s with '%s'", i, fkc_status_name(st),
                     fkc_last_error(), fkc_status_name(bad[i].want), bad[i].says);
    }
    assert_int_equal(fkc_stream_op_count(s), 1);
    /* the status word inside the cache; rows of 3 F16 (not whole words) */
    assert_int_equal(fkc_set_rows(s, &S, &I, &D, -1, b, 8), FKC_ERR_INVALID_ARGUMENT);
    size_t dodd[2] = {4, 3}, sodd[2] = {3, 3};
    fkc_tensor Do = rt_tensor(b, 0, FKC_DTYPE_F16, 2, dodd),
               So = rt_tensor(b, 1024, FKC_DTYPE_F16, 2, sodd);
    assert_int_equal(fkc_set_rows(s, &So, &I, &Do, -1, NULL, 0), FKC_ERR_UNSUPPORTED);
    assert_int_equal(fkc_stream_op_count(s), 1);
    RT_OK(fkc_stream_submit(s));
    uint16_t cache[12] = {0}, src[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    int32_t idx[3] = {3, -1, 0};
    fkc_host_tensor HS = {src, FKC_DTYPE_F16, 2, {3, 3}}, HI = {idx, FKC_DTYPE_I32, 1, {3}},
                    HD = {cache, FKC_DTYPE_F16, 2, {4, 3}};
    RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, -1, NULL));
    assert_int_equal(cache[9], 1);
    assert_int_equal(cache[0], 7);
    assert_int_equal(cache[3], 0);
    fkc_stream_destroy(s);
    fkc_buffer_destroy(b);
    fkc_buffer_destroy(t);
}

/* On a borrowed context, into the host's command buffer (which the host submits). */
static void test_host_command_buffer(void **state)
{
    (void)state;
    rt_host h;
    rt_host_open(&h, false, true);
    fkc_vulkan_device d = rt_host_device(&h);
    RT_OK(fkc_context_create_vulkan(&d, NULL, &cur));
    rng_seed(99);
    rt_host_begin(&h);
    fkc_stream *s;
    RT_OK(fkc_stream_wrap_vulkan(cur, h.cmd, &s));
    sr_case c = {.sdt = FKC_DTYPE_BF16,
                 .ddt = FKC_DTYPE_F32,
                 .idt = FKC_DTYPE_I64,
                 .drank = 4,
                 .dshape = {3, 2, 4, 8},
                 .slot_axis = 2};
    pattern(&c, 12, 7, 20);
    case_record(s, &c);
    RT_OK(fkc_stream_vulkan_barrier_out(s, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                        VK_ACCESS_TRANSFER_READ_BIT));
    rt_host_submit_wait(&h);
    cases_check();
    fkc_stream_destroy(s);
    fkc_context_destroy(cur);
    cur = ctx;
    rt_host_quiet(&h, "set_rows in the host's command buffer");
    rt_host_close(&h);
}

/* The wrappers of fkc_kernels.h that generated bindings of contracts/vulkan/set_rows.md call:
 * each of the 16 on its own key, a duplicate (the last row wins), a -1 and a slot past the end
 * (counted in the status word at a non-zero offset), byte for byte with the reference, guards
 * and the status word's neighbours included; then what each refuses: another key's dtypes
 * (FKC_ERR_DTYPE) and an output that is not the cache (FKC_ERR_INVALID_ARGUMENT). */
static void test_wrappers(void **state)
{
    (void)state;
    static const struct {
        fkc_set_rows_kernel *fn;
        const char *name;
        fkc_dtype s, i, c;
    } w[] = {
        {fkc_set_rows_b4, "b4 F32", FKC_DTYPE_F32, FKC_DTYPE_I32, FKC_DTYPE_F32},
        {fkc_set_rows_b4, "b4 U32", FKC_DTYPE_U32, FKC_DTYPE_I32, FKC_DTYPE_U32},
        {fkc_set_rows_b4_b8_b4, "b4_b8_b4", FKC_DTYPE_I32, FKC_DTYPE_I64, FKC_DTYPE_I32},
        {fkc_set_rows_b2_b4_b2, "b2_b4_b2", FKC_DTYPE_BF16, FKC_DTYPE_I32, FKC_DTYPE_BF16},
        {fkc_set_rows_b2_b8_b2, "b2_b8_b2", FKC_DTYPE_F16, FKC_DTYPE_I64, FKC_DTYPE_F16},
        {fkc_set_rows_b8_b4_b8, "b8_b4_b8", FKC_DTYPE_F64, FKC_DTYPE_I32, FKC_DTYPE_F64},
        {fkc_set_rows_b8, "b8", FKC_DTYPE_I64, FKC_DTYPE_I64, FKC_DTYPE_I64},
        {fkc_set_rows_b1_b4_b1, "b1_b4_b1", FKC_DTYPE_U8, FKC_DTYPE_I32, FKC_DTYPE_U8},
        {fkc_set_rows_b1_b8_b1, "b1_b8_b1", FKC_DTYPE_I8, FKC_DTYPE_I64, FKC_DTYPE_I8},
        {fkc_set_rows_narrow_f32_i32_f16, "narrow_f32_i32_f16", FKC_DTYPE_F32, FKC_DTYPE_I32,
         FKC_DTYPE_F16},
        {fkc_set_rows_narrow_f32_i32_bf16, "narrow_f32_i32_bf16", FKC_DTYPE_F32, FKC_DTYPE_I32,
         FKC_DTYPE_BF16},
        {fkc_set_rows_narrow_f32_i64_f16, "narrow_f32_i64_f16", FKC_DTYPE_F32, FKC_DTYPE_I64,
         FKC_DTYPE_F16},
        {fkc_set_rows_narrow_f32_i64_bf16, "narrow_f32_i64_bf16", FKC_DTYPE_F32, FKC_DTYPE_I64,
         FKC_DTYPE_BF16},
        {fkc_set_rows_widen_f16_i32_f32, "widen_f16_i32_f32", FKC_DTYPE_F16, FKC_DTYPE_I32,
         FKC_DTYPE_F32},
        {fkc_set_rows_widen_f16_i64_f32, "widen_f16_i64_f32", FKC_DTYPE_F16, FKC_DTYPE_I64,
         FKC_DTYPE_F32},
        {fkc_set_rows_widen_bf16_i32_f32, "widen_bf16_i32_f32", FKC_DTYPE_BF16, FKC_DTYPE_I32,
         FKC_DTYPE_F32},
        {fkc_set_rows_widen_bf16_i64_f32, "widen_bf16_i64_f32", FKC_DTYPE_BF16, FKC_DTYPE_I64,
         FKC_DTYPE_F32},
    };
    static const int64_t idx[4] = {5, -1, 6, 5}; /* 6 slots: 6 is past the end; 5 twice */
    for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
        size_t ssz = fkc_dtype_size(w[k].s), csz = fkc_dtype_size(w[k].c);
        size_t isz = fkc_dtype_size(w[k].i);
        rt_buf S, I, D, T;
        rt_buf_make(ctx, &S, 4 * 8 * ssz);
        rt_buf_make(ctx, &I, 4 * isz);
        rt_buf_make(ctx, &D, 64 + 6 * 8 * csz + 64);
        rt_buf_make(ctx, &T, 16);
        for (size_t i = 0; i < 4; i++)
            put_index(I.host, w[k].i, i, idx[i]);
        memset(T.host + 4, 0, 4);
        RT_OK(fkc_buffer_upload(I.dev, 0, I.host, I.size));
        RT_OK(fkc_buffer_upload(T.dev, 0, T.host, T.size));
        size_t ssh[2] = {4, 8}, ish[1] = {4}, dsh[2] = {6, 8};
        fkc_tensor St = rt_tensor(S.dev, 0, w[k].s, 2, ssh),
                   It = rt_tensor(I.dev, 0, w[k].i, 1, ish),
                   Dt = rt_tensor(D.dev, 64, w[k].c, 2, dsh);
        fkc_set_rows_params p = {-1};
        fkc_set_rows_extra x = {T.dev, 4};
        fkc_stream *s;
        RT_OK(fkc_stream_create(ctx, &s));
        RT_OK(w[k].fn(s, &St, &It, &Dt, &Dt, &p, &x));
        RT_OK(fkc_stream_submit(s));
        fkc_host_tensor HS = {S.host, w[k].s, 2, {4, 8}}, HI = {I.host, w[k].i, 1, {4}},
                        HD = {D.host + 64, w[k].c, 2, {6, 8}};
        uint64_t past = 0;
        RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, -1, &past));
        assert_int_equal(past, 1);
        T.host[4] = 1; /* the status word: one index past the end */
        rt_buf_check(&D, w[k].name);
        rt_buf_check(&T, w[k].name);
        /* Another key's dtypes: the src's (a copy's width, a conversion's dtype), the index's. */
        fkc_tensor Sb = St, Ib = It;
        Sb.dtype = w[k].s == FKC_DTYPE_F32 ? FKC_DTYPE_F64 : FKC_DTYPE_F32;
        assert_int_equal(w[k].fn(s, &Sb, &It, &Dt, &Dt, &p, &x), FKC_ERR_DTYPE);
        assert_non_null(strstr(fkc_last_error(), "not this wrapper's"));
        Ib.dtype = w[k].i == FKC_DTYPE_I32 ? FKC_DTYPE_I64 : FKC_DTYPE_I32;
        assert_int_equal(w[k].fn(s, &St, &Ib, &Dt, &Dt, &p, &x), FKC_ERR_DTYPE);
        /* out is not the cache: another offset, another shape. */
        fkc_tensor O = Dt;
        O.offset += 4;
        assert_int_equal(w[k].fn(s, &St, &It, &Dt, &O, &p, &x), FKC_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(fkc_last_error(), "in place"));
        O = Dt;
        O.shape[0] = 5;
        assert_int_equal(w[k].fn(s, &St, &It, &Dt, &O, &p, &x), FKC_ERR_INVALID_ARGUMENT);
        /* No status word: extra NULL is taken. */
        RT_OK(fkc_stream_begin(s));
        RT_OK(w[k].fn(s, &St, &It, &Dt, &Dt, &p, NULL));
        RT_OK(fkc_stream_submit(s));
        rt_buf_check(&D, w[k].name);
        rt_buf_check(&T, w[k].name);
        fkc_stream_destroy(s);
        rt_buf_free(&S);
        rt_buf_free(&I);
        rt_buf_free(&D);
        rt_buf_free(&T);
    }
}

/* ---- duplicates by the scratch pass (more rows than the scan takes) ----------------------- */

/* A context whose set_rows ops of 2 rows or more use the scratch pass; fills: its scratch is
 * device-local, zeroed by a fill in each recording (no_host_tables); groups: the grid limit. */
static fkc_context *linear_context(bool fills, uint32_t groups, uint64_t range)
{
    fkc_test_hooks h = {.set_rows_scan_rows = 1,
                        .no_host_tables = fills,
                        .work_group_count = groups,
                        .storage_buffer_range = range};
    return rt_context_hooks(0, FKC_COPY_AUTO, &h, NULL);
}

static void done_context(void)
{
    rt_no_validation(cur);
    fkc_context_destroy(cur);
    cur = ctx;
}

/* Duplicates first and last (slot 0 by rows 0 and n - 1, slot 1 by every third row), in every
 * layout, I32 and I64, every index pattern, copies, conversions and the word kernel. */
static void linear_patterns(bool fuse)
{
    static const fkc_dtype lp[][2] = {{FKC_DTYPE_F16, FKC_DTYPE_F16},
                                      {FKC_DTYPE_F32, FKC_DTYPE_F16},
                                      {FKC_DTYPE_U8, FKC_DTYPE_U8},
                                      {FKC_DTYPE_BF16, FKC_DTYPE_F32}};
    rng_seed(25);
    for (int fills = 0; fills < 2; fills++) {
        cur = linear_context(fills, 0, 0);
        for (size_t pi = 0; pi < sizeof lp / sizeof lp[0]; pi++) {
            fkc_stream *s;
            RT_OK(fkc_stream_create(cur, &s));
            fkc_test_set_fusion(s, fuse);
            for (size_t li = 0; li < sizeof layouts / sizeof layouts[0]; li++)
                for (int ix = 0; ix < 2; ix++)
                    for (int p = 0; p < 9; p++) {
                        const layout *l = &layouts[li];
                        sr_case c = {.sdt = lp[pi][0],
                                     .ddt = lp[pi][1],
                                     .idt = ix ? FKC_DTYPE_I64 : FKC_DTYPE_I32,
                                     .drank = l->rank,
                                     .slot_axis = l->slot_axis};
                        memcpy(c.dshape, l->shape, sizeof l->shape);
                        size_t slots = l->shape[0] *
                                       (l->slot_axis > 0 ? l->shape[l->slot_axis] : 1);
                        c.dst_at = (size_t)(p % 2 ? 16 : 0);
                        pattern(&c, slots, p == 8 ? 0 : p, 5 + (size_t)p * 3);
                        if (p == 8)
                            for (size_t i = 0; i < c.n; i++)
                                c.idx[i] = i == 0 || i + 1 == c.n ? 0 : i % 3 ? 1 : c.idx[i];
                        if (!device_takes(l, c.ddt, c.dst_at))
                            continue;
                        case_record(s, &c);
                    }
            RT_OK(fkc_stream_submit(s));
            cases_check();
            fkc_stream_destroy(s);
        }
        done_context();
    }
}

static void test_linear_unfused(void **state)
{
    (void)state;
    linear_patterns(false);
}

static void test_linear_fused(void **state)
{
    (void)state;
    linear_patterns(true);
}

/* Many rows (more than the scan takes on the default context, over several 256-row groups of
 * the first pass), most of them duplicates: a slot's rows spread over every group, -1 and past
 * the end among them; one op beside another of fewer rows (the scan) in one fused dispatch. */
static void test_linear_many_rows(void **state)
{
    (void)state;
    cur = ctx;
    for (int fuse = 0; fuse < 2; fuse++)
        for (int ix = 0; ix < 2; ix++) {
            fkc_stream *s;
            RT_OK(fkc_stream_create(cur, &s));
            fkc_test_set_fusion(s, fuse);
            sr_case c = {.sdt = FKC_DTYPE_F32,
                         .ddt = FKC_DTYPE_F16,
                         .idt = ix ? FKC_DTYPE_I64 : FKC_DTYPE_I32,
                         .drank = 4,
                         .dshape = {2, 4, 5, 8}, /* HND: 10 slots */
                         .slot_axis = 2,
                         .n = 1000};
            for (size_t i = 0; i < c.n; i++)
                c.idx[i] = i % 97 == 5   ? -1
                           : i % 89 == 7 ? 10 + (int64_t)(i % 3)
                                         : (int64_t)((i * 7) % 9);
            c.idx[999] = 9; /* slot 9: the last row alone */
            c.idx[257] = 9; /* (and one early row) */
            case_record(s, &c);
            c.n = 300; /* scan: at most 512 rows */
            c.sdt = FKC_DTYPE_F16;
            case_record(s, &c);
            c.n = 1024, c.idt = FKC_DTYPE_I32, c.dshape[3] = 64; /* 16-byte units */
            for (size_t i = 0; i < c.n; i++)
                c.idx[i] = (int64_t)(i % 4);
            case_record(s, &c);
            RT_OK(fkc_stream_submit(s));
            cases_check();
            fkc_stream_destroy(s);
        }
}

/* Rows of 1026 units (two groups a row: the word's count must reach 2 before it resets) with a
 * grid of 2 x 2 groups (one op over many dispatches); then a storage window of 4 KiB: two ops
 * whose scratch does not fit one window go to two fused dispatches. */
static void test_linear_limits(void **state)
{
    (void)state;
    for (int fuse = 0; fuse < 2; fuse++) {
        cur = linear_context(false, 2, 0);
        fkc_stream *s;
        RT_OK(fkc_stream_create(cur, &s));
        fkc_test_set_fusion(s, fuse);
        sr_case c = {.sdt = FKC_DTYPE_F16,
                     .ddt = FKC_DTYPE_F16,
                     .idt = FKC_DTYPE_I32,
                     .drank = 2,
                     .dshape = {5, 8208},
                     .slot_axis = -1,
                     .n = 9};
        int64_t idx[9] = {4, 0, 4, -1, 2, 9, 0, 3, 4};
        memcpy(c.idx, idx, sizeof idx);
        case_record(s, &c);
        RT_OK(fkc_stream_submit(s));
        cases_check();
        fkc_stream_destroy(s);
        done_context();
    }
    cur = linear_context(false, 0, 4096);
    fkc_stream *s;
    RT_OK(fkc_stream_create(cur, &s));
    sr_case c = {.sdt = FKC_DTYPE_F32,
                 .ddt = FKC_DTYPE_F32,
                 .idt = FKC_DTYPE_I32,
                 .drank = 2,
                 .dshape = {600, 1}, /* 2400 bytes: the scratch too */
                 .slot_axis = -1,
                 .n = 20};
    for (size_t i = 0; i < c.n; i++)
        c.idx[i] = (int64_t)(i % 7) * 50;
    case_record(s, &c);
    case_record(s, &c);
    uint32_t cmds = rt_command_count(s);
    RT_OK(fkc_stream_submit(s));
    cases_check();
    assert_int_equal(cmds, 2 * 2); /* two batches: each a first pass and a write pass */
    fkc_stream_destroy(s);
    done_context();
}

/* Replays with new duplicates written by the host between them: each replay's first pass must
 * find the scratch zero (a slot's winner of one replay, row 39, is later than any row naming it
 * in the next), fused and unfused, the scratch host-zeroed and zeroed by a fill. */
static void test_linear_replay(void **state)
{
    (void)state;
    enum { N = 40, SLOTS = 8, ROW = 8 };
    for (int mode = 0; mode < 4; mode++) {
        cur = linear_context(mode >= 2, 0, 0);
        rt_buf C, X, I;
        rt_buf_make(cur, &C, SLOTS * ROW * 4);
        rt_buf_make(cur, &X, N * ROW * 4);
        rt_buf_make(cur, &I, N * 8);
        size_t csh[2] = {SLOTS, ROW}, xsh[2] = {N, ROW}, ish[1] = {N};
        fkc_tensor Ct = rt_tensor(C.dev, 0, FKC_DTYPE_F32, 2, csh);
        fkc_tensor Xt = rt_tensor(X.dev, 0, FKC_DTYPE_F32, 2, xsh);
        fkc_tensor It = rt_tensor(I.dev, 0, FKC_DTYPE_I64, 1, ish);
        fill_tricky(C.host, C.size, 4);
        RT_OK(fkc_buffer_upload(C.dev, 0, C.host, C.size));
        fkc_stream *s;
        RT_OK(fkc_stream_create(cur, &s));
        fkc_test_set_fusion(s, mode % 2);
        RT_OK(fkc_set_rows(s, &Xt, &It, &Ct, -1, NULL, 0));
        for (int step = 0; step < 4; step++) {
            for (size_t i = 0; i < N; i++) /* step 0: slot 0 by row 39; then by rows 0..5 */
                put_u64(I.host + 8 * i, step % 2 == 0 ? (i % 8 == 7 ? 0 : i % 5)
                                                      : (i < 6 ? 0 : 1 + (i + (size_t)step) % 7));
            RT_OK(fkc_buffer_upload(I.dev, 0, I.host, I.size));
            fill_tricky(X.host, X.size, 4);
            RT_OK(fkc_buffer_upload(X.dev, 0, X.host, X.size));
            fkc_host_tensor HS = {X.host, FKC_DTYPE_F32, 2, {N, ROW}},
                            HI = {I.host, FKC_DTYPE_I64, 1, {N}},
                            HD = {C.host, FKC_DTYPE_F32, 2, {SLOTS, ROW}};
            RT_OK(fkc_ref_set_rows(&HS, &HI, &HD, -1, NULL));
            RT_OK(step == 0 ? fkc_stream_submit(s) : fkc_stream_replay(s));
            rt_buf_check(&C, "replayed with new duplicates");
        }
        fkc_stream_destroy(s);
        rt_buf_free(&C);
        rt_buf_free(&X);
        rt_buf_free(&I);
        done_context();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_conversions_reference, no_validation),
        cmocka_unit_test_teardown(test_conversions_device, no_validation),
        cmocka_unit_test_teardown(test_every_pair_unfused, no_validation),
        cmocka_unit_test_teardown(test_every_pair_fused, no_validation),
        cmocka_unit_test_teardown(test_decode_step, no_validation),
        cmocka_unit_test_teardown(test_mixed, no_validation),
        cmocka_unit_test_teardown(test_minus_one_everywhere, no_validation),
        cmocka_unit_test_teardown(test_large_indices, no_validation),
        cmocka_unit_test_teardown(test_lowered_limits, no_validation),
        cmocka_unit_test_teardown(test_replay, no_validation),
        cmocka_unit_test_teardown(test_ordering_async_sync, no_validation),
        cmocka_unit_test_teardown(test_refusals, no_validation),
        cmocka_unit_test_teardown(test_host_command_buffer, no_validation),
        cmocka_unit_test_teardown(test_wrappers, no_validation),
        cmocka_unit_test_teardown(test_linear_unfused, no_validation),
        cmocka_unit_test_teardown(test_linear_fused, no_validation),
        cmocka_unit_test_teardown(test_linear_many_rows, no_validation),
        cmocka_unit_test_teardown(test_linear_limits, no_validation),
        cmocka_unit_test_teardown(test_linear_replay, no_validation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
