/* test_ops.c — write_slice and write_slice_rotating on the device, bit-exact against the plain-C
 * reference: all 9 dtypes x ranks 1-5 (and a few of 6-8) x seeded random shapes and offsets
 * (zero extents, full overwrites, unaligned sub-word offsets, NaN payloads, -0.0), guard bytes
 * around every slab,
 * under every copy path (auto, compute, copy regions), with descriptor pools instead of push
 * descriptors, and with lowered limits so the storage-range and grid splits run. Validation
 * layer on throughout. */
#include "fkc/fkc_vulkan.h"

#include "rt_harness.h"

#define CASES_PER_RANK 8 /* random write_slice cases per (dtype, rank) */

typedef struct config {
    const char *label;
    uint32_t flags;
    fkc_copy_path path;
    uint64_t range;  /* storage-range test hook (0: device limit) */
    uint32_t groups; /* work-group-count test hook (0: device limit) */
    bool no_push;    /* descriptor sets from the streams' pools, not push descriptors */
} config;

static const config configs[] = {
    {"auto", 0, FKC_COPY_AUTO, 0, 0, false},
    {"compute", 0, FKC_COPY_COMPUTE, 0, 0, false},
    {"transfer", 0, FKC_COPY_TRANSFER, 0, 0, false},
    {"descriptor pools", 0, FKC_COPY_COMPUTE, 0, 0, true},
};

static fkc_context *config_context(const config *cf, uint32_t flags)
{
    fkc_test_hooks h = {.storage_buffer_range = cf->range,
                        .work_group_count = cf->groups,
                        .no_push_descriptors = cf->no_push};
    fkc_context *ctx = rt_context_hooks(cf->flags | flags, cf->path, &h, NULL);
    assert_int_equal(fkc_context_vulkan_push_descriptors(ctx), !cf->no_push);
    return ctx;
}

/* One random write_slice shape: dst, src, offsets of a rank; kind picks special cases. */
static void gen_slice(uint32_t rank, size_t elem, size_t *dst, size_t *src, size_t *off)
{
    int kind = (int)rng_below(8);
    for (uint32_t i = 0; i < rank; i++) {
        size_t hi = i + 1 == rank ? (rank == 1 ? 300 : 40) : (rank >= 6 ? 3 : rank >= 4 ? 5 : 9);
        dst[i] = 1 + rng_below(hi);
        src[i] = rng_below(dst[i] + 1);
        off[i] = rng_below(dst[i] - src[i] + 1);
    }
    if (kind == 0) { /* zero-extent source */
        src[rng_below(rank)] = 0;
        for (uint32_t i = 0; i < rank; i++)
            off[i] = rng_below(dst[i] - src[i] + 1);
    } else if (kind == 1) { /* full overwrite */
        for (uint32_t i = 0; i < rank; i++) {
            src[i] = dst[i];
            off[i] = 0;
        }
    } else if (kind == 2) { /* 16-byte rows: the widest kernel */
        size_t per = 16 / elem;
        dst[rank - 1] = per * (1 + rng_below(6));
        src[rank - 1] = per * rng_below(dst[rank - 1] / per + 1);
        off[rank - 1] = per * rng_below((dst[rank - 1] - src[rank - 1]) / per + 1);
    } else if (kind == 3) { /* full inner axes: rows coalesce into long runs */
        for (uint32_t i = 1; i < rank; i++) {
            src[i] = dst[i];
            off[i] = 0;
        }
    }
}

/* Byte offset of the next tensor: a random gap, 16-aligned half the time. */
static size_t next_offset(size_t cursor, size_t elem)
{
    size_t gap = 1 + rng_below(40);
    size_t at = cursor + gap;
    if (rng_below(2))
        return (at + 15) & ~(size_t)15;
    return rng_below(3) ? (at + elem - 1) / elem * elem : at; /* sometimes not elem-aligned */
}

typedef struct slice_case {
    uint32_t rank;
    size_t dst[FKC_MAX_RANK], src[FKC_MAX_RANK], off[FKC_MAX_RANK];
    size_t dst_at, src_at; /* byte offsets in the batch buffers */
} slice_case;

/* All random cases of one dtype in one stream: one upload, one submit, one full comparison. */
static void slice_batch(fkc_context *ctx, fkc_dtype dt, const char *label)
{
    enum { N = 5 * CASES_PER_RANK + 6 }; /* ranks 1-5, then two cases each of ranks 6-8 */
    size_t e = fkc_dtype_size(dt), dcur = 0, scur = 0;
    slice_case c[N];
    for (int k = 0; k < N; k++) {
        c[k].rank = k < 5 * CASES_PER_RANK ? 1 + (uint32_t)(k / CASES_PER_RANK)
                                           : 6 + (uint32_t)(k - 5 * CASES_PER_RANK) / 2;
        gen_slice(c[k].rank, e, c[k].dst, c[k].src, c[k].off);
        c[k].dst_at = next_offset(dcur, e);
        c[k].src_at = next_offset(scur, e);
        dcur = c[k].dst_at + rt_elems(c[k].rank, c[k].dst) * e;
        scur = c[k].src_at + rt_elems(c[k].rank, c[k].src) * e;
    }
    rt_buf D, S;
    rt_buf_make(ctx, &D, dcur + 32);
    rt_buf_make(ctx, &S, scur + 32);
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    for (int k = 0; k < N; k++) {
        fkc_tensor src = rt_tensor(S.dev, c[k].src_at, dt, c[k].rank, c[k].src);
        fkc_tensor out = rt_tensor(D.dev, c[k].dst_at, dt, c[k].rank, c[k].dst);
        RT_OK(fkc_write_slice(s, &src, &out, c[k].off));
        assert_int_equal(fkc_ref_write_slice(D.host + c[k].dst_at, c[k].dst, c[k].rank,
                                             S.host + c[k].src_at, c[k].src, c[k].off, e),
                         FKC_OK);
    }
    assert_int_equal(fkc_stream_op_count(s), N);
    RT_OK(fkc_stream_submit(s));
    char what[96];
    snprintf(what, sizeof what, "write_slice %s [%s]", fkc_dtype_name(dt), label);
    rt_buf_check(&D, what);
    rt_buf_check(&S, "source untouched");
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(ctx);
}

/* The two contexts of a configuration: the device-resident ring position (the default) and
 * the readback path (FKC_CONTEXT_RING_READBACK); every rotating case runs on both. */
static fkc_context *ring_ctx[2];
static int ring_aligned; /* rotating_path: place both tensors 16-byte aligned */

/* One rotating case in its own buffers: the position lives at a device offset. */
static void rotating_path(fkc_context *ctx, fkc_dtype dt, uint32_t rank, const size_t *dst,
                          const size_t *src, size_t capacity, uint64_t position, int32_t axis);

/* Runs a case on both paths from the same random state: both must equal the reference byte
 * for byte (guards included), so they are bit-identical to each other. */
static void rotating_case(fkc_context *ctx, fkc_dtype dt, uint32_t rank, const size_t *dst,
                          const size_t *src, size_t capacity, uint64_t position, int32_t axis)
{
    (void)ctx;
    uint64_t seed = rng_state;
    rotating_path(ring_ctx[0], dt, rank, dst, src, capacity, position, axis);
    rng_state = seed;
    rotating_path(ring_ctx[1], dt, rank, dst, src, capacity, position, axis);
}

static void rotating_path(fkc_context *ctx, fkc_dtype dt, uint32_t rank, const size_t *dst,
                          const size_t *src, size_t capacity, uint64_t position, int32_t axis)
{
    size_t e = fkc_dtype_size(dt);
    size_t dst_at = 8 + rng_below(9), src_at = 16 * rng_below(3) + rng_below(2);
    size_t pos_at = (size_t[]){0, 3, 8, 13}[rng_below(4)];
    if (ring_aligned)
        dst_at = 16, src_at = 32;
    rt_buf D, S, P;
    rt_buf_make(ctx, &D, dst_at + rt_elems(rank, dst) * e + 8);
    rt_buf_make(ctx, &S, src_at + rt_elems(rank, src) * e + 8);
    rt_buf_make(ctx, &P, 24);
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    for (int i = 0; i < 8; i++)
        P.host[pos_at + (size_t)i] = (unsigned char)(position >> (8 * i));
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, P.size));
    fkc_tensor st = rt_tensor(S.dev, src_at, dt, rank, src);
    fkc_tensor ot = rt_tensor(D.dev, dst_at, dt, rank, dst);
    fkc_status want = fkc_ref_write_slice_rotating(D.host + dst_at, dst, rank, S.host + src_at, src,
                                                   capacity, position, axis, e);
    assert_int_equal(want, FKC_OK);
    RT_OK(fkc_write_slice_rotating_sync(ctx, &st, &ot, capacity, P.dev, pos_at, axis));
    char what[160];
    snprintf(what, sizeof what, "rotating %s cap %zu pos %llu [%s]", fkc_dtype_name(dt), capacity,
             (unsigned long long)position, ctx == ring_ctx[0] ? "device position" : "readback");
    rt_buf_check(&D, what);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_buf_free(&P);
    rt_no_validation(ctx);
}

/* The named rotating situations of the issue, on a [capacity=8, 3] ring (axis 0) and a
 * rank-3 ring rotating along axis 1. */
static void rotating_named(fkc_context *ctx, fkc_dtype dt)
{
    const size_t ring[2] = {8, 3};
    static const struct {
        size_t len;
        uint64_t pos;
    } cases[] = {
        {2, 1},                /* no wrap */
        {3, 5},                /* ends exactly at the ring end */
        {4, 6},                /* wraps */
        {8, 3},                /* src = capacity */
        {11, 2},               /* src > capacity: last write wins */
        {3, (1ull << 63) + 5}, /* position far beyond capacity */
        {5, UINT64_MAX},       /* the largest position */
        {0, 4},                /* empty source */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t src[2] = {cases[i].len, 3};
        rotating_case(ctx, dt, 2, ring, src, 8, cases[i].pos, -1);
    }
    const size_t ring3[3] = {2, 6, 5}, src3[3] = {2, 4, 3};
    rotating_case(ctx, dt, 3, ring3, src3, 6, 4, -1);
    const size_t sq[2] = {4, 4}, srcsq[2] = {3, 2}; /* two axes match: axis named */
    rotating_case(ctx, dt, 2, sq, srcsq, 4, 3, 1);
    /* Long unaligned rows (interior units and edges), the ring on the innermost axis, and a
     * KV-cache-like ring [2, 3, cap, 20] written one token at a time and several. */
    const size_t wide[2] = {6, 301}, srcw[2] = {4, 299};
    rotating_case(ctx, dt, 2, wide, srcw, 6, 4, 0);
    const size_t inner[2] = {3, 40}, srci[2] = {2, 33};
    rotating_case(ctx, dt, 2, inner, srci, 40, 29, 1);
    const size_t kv[4] = {2, 3, 7, 20}, tok[4] = {2, 3, 1, 20}, many[4] = {2, 3, 5, 19};
    rotating_case(ctx, dt, 4, kv, tok, 7, 6, 2);
    rotating_case(ctx, dt, 4, kv, many, 7, 5, 2);
    /* 16-byte aligned rows (the one-dispatch ring kernel): wrapping, longer than the ring,
     * the ring on planes (axis 0 of a rank-3 ring), a KV-like ring. */
    size_t e = fkc_dtype_size(dt), r16 = 16 / e;
    const size_t al[2] = {8, 2 * r16}, al_w[2] = {4, 2 * r16}, al_l[2] = {11, 2 * r16};
    const size_t pl[3] = {5, 3, r16}, pl_s[3] = {4, 3, r16};
    const size_t kva[4] = {2, 3, 7, r16}, kva_s[4] = {2, 3, 2, r16};
    ring_aligned = 1;
    rotating_case(ctx, dt, 2, al, al_w, 8, 6, 0);
    rotating_case(ctx, dt, 2, al, al_l, 8, 2, 0);
    rotating_case(ctx, dt, 3, pl, pl_s, 5, 3, 0);
    rotating_case(ctx, dt, 4, kva, kva_s, 7, 6, 2);
    ring_aligned = 0;
}

/* Random rotating cases: random rank, axis, extents, positions large and small. */
static void rotating_random(fkc_context *ctx, fkc_dtype dt, int n)
{
    for (int k = 0; k < n; k++) {
        uint32_t rank = 1 + (uint32_t)rng_below(4);
        size_t dst[FKC_MAX_RANK], src[FKC_MAX_RANK];
        uint32_t axis = (uint32_t)rng_below(rank);
        for (uint32_t i = 0; i < rank; i++) {
            dst[i] = 1 + rng_below(i + 1 == rank ? 13 : 5);
            src[i] = rng_below(dst[i] + 1);
        }
        size_t cap = dst[axis];
        src[axis] = rng_below(2 * cap + 2);
        uint64_t pos = rng_below(2) ? rng_next() : rng_below(3 * cap);
        rotating_case(ctx, dt, rank, dst, src, cap, pos, (int32_t)axis);
    }
}

static void run_config(const config *cf)
{
    fkc_context *ctx = config_context(cf, 0);
    ring_ctx[0] = ctx;
    ring_ctx[1] = config_context(cf, FKC_CONTEXT_RING_READBACK);
    rng_seed(0xF00D + (uint64_t)(cf - configs));
    for (int d = 0; d < FKC_DTYPE_COUNT; d++)
        slice_batch(ctx, (fkc_dtype)d, cf->label);
    static const fkc_dtype widths[] = {FKC_DTYPE_U8, FKC_DTYPE_BF16, FKC_DTYPE_F32, FKC_DTYPE_F64};
    for (int w = 0; w < 4; w++) {
        rotating_named(ctx, widths[w]);
        rotating_random(ctx, widths[w], 6);
    }
    rotating_named(ctx, FKC_DTYPE_I8); /* the other dtypes of each width share the wrapper */
    rotating_random(ctx, FKC_DTYPE_F16, 3);
    rotating_random(ctx, FKC_DTYPE_I32, 3);
    rotating_random(ctx, FKC_DTYPE_U32, 3);
    rotating_random(ctx, FKC_DTYPE_I64, 3);
    rt_no_validation(ctx);
    rt_no_validation(ring_ctx[1]);
    fkc_context_destroy(ring_ctx[1]);
    fkc_context_destroy(ctx);
}

static void test_auto(void **state)
{
    (void)state;
    run_config(&configs[0]);
}
static void test_compute(void **state)
{
    (void)state;
    run_config(&configs[1]);
}
static void test_transfer(void **state)
{
    (void)state;
    run_config(&configs[2]);
}
static void test_descriptor_pools(void **state)
{
    (void)state;
    run_config(&configs[3]);
}

/* One write_slice with its own buffers; returns the number of device commands it took. */
static uint32_t big_case(fkc_context *ctx, fkc_dtype dt, uint32_t rank, const size_t *dst,
                         const size_t *src, const size_t *off, size_t dst_at, size_t src_at)
{
    size_t e = fkc_dtype_size(dt);
    rt_buf D, S;
    rt_buf_make(ctx, &D, dst_at + rt_elems(rank, dst) * e + 40);
    rt_buf_make(ctx, &S, src_at + rt_elems(rank, src) * e + 40);
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    fkc_tensor st = rt_tensor(S.dev, src_at, dt, rank, src);
    fkc_tensor ot = rt_tensor(D.dev, dst_at, dt, rank, dst);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    uint32_t cmds = fkc_test_command_count(s);
    RT_OK(fkc_stream_submit(s));
    assert_int_equal(fkc_ref_write_slice(D.host + dst_at, dst, rank, S.host + src_at, src, off, e),
                     FKC_OK);
    rt_buf_check(&D, "split write_slice");
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(ctx);
    return cmds;
}

/* Large-work paths on lavapipe: a 256-byte storage range forces row, plane and long-row
 * splits; a 2-group grid limit forces the grid walk. Each must take several commands. */
static fkc_context *split_context(bool no_push, uint64_t range, uint32_t groups)
{
    fkc_test_hooks h = {
        .storage_buffer_range = range, .work_group_count = groups, .no_push_descriptors = no_push};
    return rt_context_hooks(0, FKC_COPY_COMPUTE, &h, NULL);
}

static void split_paths(bool no_push)
{
    fkc_context *ctx = split_context(no_push, 256, 0);
    assert_int_equal(fkc_test_storage_range(ctx), 256);
    const size_t d1[2] = {3, 700}, s1[2] = {3, 650}, o1[2] = {0, 37}; /* long rows (u8) */
    assert_true(big_case(ctx, FKC_DTYPE_U8, 2, d1, s1, o1, 5, 3) > 3);
    const size_t d2[2] = {40, 33}, s2[2] = {37, 30}, o2[2] = {2, 1}; /* many rows (f16) */
    assert_true(big_case(ctx, FKC_DTYPE_F16, 2, d2, s2, o2, 2, 6) > 1);
    const size_t d3[3] = {5, 20, 17}, s3[3] = {4, 19, 16}, o3[3] = {1, 1, 1}; /* planes (f32) */
    assert_true(big_case(ctx, FKC_DTYPE_F32, 3, d3, s3, o3, 16, 32) > 1);
    const size_t d4[1] = {2000}, s4[1] = {1999}, o4[1] = {1}; /* one long row (f64) */
    assert_true(big_case(ctx, FKC_DTYPE_F64, 1, d4, s4, o4, 8, 0) > 1);
    fkc_context_destroy(ctx);

    ctx = split_context(no_push, 0, 2);
    assert_int_equal(fkc_test_work_group_count(ctx), 2);
    const size_t d5[1] = {9000}, s5[1] = {8999}, o5[1] = {1}; /* grid walk (u8) */
    assert_true(big_case(ctx, FKC_DTYPE_U8, 1, d5, s5, o5, 3, 1) > 1);
    const size_t d6[2] = {60, 200}, s6[2] = {59, 196}, o6[2] = {1, 4}; /* 2-D grid walk */
    assert_true(big_case(ctx, FKC_DTYPE_I32, 2, d6, s6, o6, 16, 16) > 1);
    /* long rows (grid mode) with more columns, rows and planes than the limit: x, y and z walked */
    const size_t d8[3] = {5, 4, 9000}, s8[3] = {4, 3, 8999}, o8[3] = {1, 1, 1};
    assert_true(big_case(ctx, FKC_DTYPE_U8, 3, d8, s8, o8, 3, 1) > 1);
    fkc_context_destroy(ctx);

    ctx = split_context(no_push, 300, 1); /* both at once */
    const size_t d7[3] = {3, 9, 130}, s7[3] = {3, 7, 129}, o7[3] = {0, 2, 1};
    assert_true(big_case(ctx, FKC_DTYPE_U8, 3, d7, s7, o7, 1, 2) > 1);
    fkc_context_destroy(ctx);
}

static void test_splits(void **state)
{
    (void)state;
    split_paths(false);
    split_paths(true); /* many binds in one op: descriptor sets from the stream's pools */
}

/* Without push descriptors a stream allocates a descriptor set per bound kernel: 600 ops in
 * one stream outgrow a pool (128 sets) several times, and a second round on the same stream
 * reuses the pools; every byte equals the reference. */
static void test_descriptor_pool_growth(void **state)
{
    (void)state;
    fkc_context *ctx = split_context(true, 0, 0);
    rt_buf D, S;
    rt_buf_make(ctx, &D, 4096);
    rt_buf_make(ctx, &S, 4096);
    const size_t dst[1] = {4000}, src[1] = {37};
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    rng_seed(0xD5);
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < 600; k++) {
            size_t off[1] = {rng_below(4000 - 37)};
            uint64_t at = rng_below(3000);
            fkc_tensor st = rt_tensor(S.dev, at, FKC_DTYPE_U8, 1, src);
            fkc_tensor ot = rt_tensor(D.dev, 3, FKC_DTYPE_U8, 1, dst);
            RT_OK(fkc_write_slice(s, &st, &ot, off));
            fkc_ref_write_slice(D.host + 3, dst, 1, S.host + at, src, off, 1);
        }
        assert_true(fkc_test_command_count(s) >= 600); /* a dispatch (and a set) per op */
        RT_OK(fkc_stream_submit(s));
        rt_buf_check(&D, "600 ops with descriptor sets of the stream's pools");
    }
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}


/* Every (source, destination) alignment pair mod 16 at each width: a [2, L] slab written into
 * [3, L + k] rows at [1, o], the source's first byte at sa mod 16 and the destination's at da
 * mod 16 (the second rows fall on other alignments). Short rows (edge units only, flat mode)
 * and, for a spread of pairs, rows over 4 KiB (interior units, grid mode). One stream per width
 * on the compute path; the whole buffers, guards included, must equal the reference. */
static void alignment_pairs(fkc_context *ctx, fkc_dtype dt)
{
    enum { N = 256 };
    size_t e = fkc_dtype_size(dt), dcur = 0, scur = 0;
    static slice_case c[N];
    for (int k = 0; k < N; k++) {
        size_t sa = (size_t)k / 16, da = (size_t)k % 16;
        size_t bytes = (k % 23 == 0 || sa == da) ? 4100 + rng_below(200) : 33 + rng_below(40);
        size_t len = bytes / e, pad = 1 + rng_below(3), o = rng_below(pad + 1);
        c[k].rank = 2;
        c[k].src[0] = 2, c[k].src[1] = len;
        c[k].dst[0] = 3, c[k].dst[1] = len + pad;
        c[k].off[0] = 1, c[k].off[1] = o;
        size_t first = ((len + pad) + o) * e; /* byte of the box's first element in out */
        c[k].src_at = ((scur + 31) & ~(size_t)15) + sa;
        c[k].dst_at = ((dcur + 31) & ~(size_t)15) + ((da + 16 * 64 - first % 16) % 16);
        dcur = c[k].dst_at + rt_elems(2, c[k].dst) * e;
        scur = c[k].src_at + rt_elems(2, c[k].src) * e;
    }
    rt_buf D, S;
    rt_buf_make(ctx, &D, dcur + 32);
    rt_buf_make(ctx, &S, scur + 32);
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    for (int k = 0; k < N; k++) {
        fkc_tensor src = rt_tensor(S.dev, c[k].src_at, dt, 2, c[k].src);
        fkc_tensor out = rt_tensor(D.dev, c[k].dst_at, dt, 2, c[k].dst);
        assert_int_equal((c[k].dst_at + (c[k].dst[1] + c[k].off[1]) * e) % 16, (size_t)k % 16);
        RT_OK(fkc_write_slice(s, &src, &out, c[k].off));
        assert_int_equal(fkc_ref_write_slice(D.host + c[k].dst_at, c[k].dst, 2,
                                             S.host + c[k].src_at, c[k].src, c[k].off, e),
                         FKC_OK);
    }
    RT_OK(fkc_stream_submit(s));
    char what[96];
    snprintf(what, sizeof what, "alignment pairs %s", fkc_dtype_name(dt));
    rt_buf_check(&D, what);
    rt_buf_check(&S, "source untouched");
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(ctx);
}

/* Slabs big enough (over FKC_SPLIT_MIN_BYTES, 4 MiB) for long misaligned rows to go in two
 * dispatches (edge units, then the units inside rows): [260, n] into [261, n + 1] at [1, 1],
 * the source one byte past a 16-byte boundary, at each width. */
static void big_misaligned(fkc_context *ctx, fkc_dtype dt)
{
    size_t e = fkc_dtype_size(dt), n = 16400 / e;
    const size_t src[2] = {260, n}, dst[2] = {261, n + 1}, off[2] = {1, 1};
    rt_buf D, S;
    rt_buf_make(ctx, &D, 261 * (n + 1) * e + 48);
    rt_buf_make(ctx, &S, 260 * n * e + 48);
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    fkc_tensor st = rt_tensor(S.dev, 17, dt, 2, src), ot = rt_tensor(D.dev, 5, dt, 2, dst);
    RT_OK(fkc_write_slice_sync(ctx, &st, &ot, off));
    assert_int_equal(fkc_ref_write_slice(D.host + 5, dst, 2, S.host + 17, src, off, e), FKC_OK);
    rt_buf_check(&D, "big misaligned slab (edges and bulk in two dispatches)");
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(ctx);
}

static void test_alignment_pairs(void **state)
{
    (void)state;
    fkc_context *ctx = rt_context(0, FKC_COPY_COMPUTE, 0, 0);
    rng_seed(0xA11C);
    static const fkc_dtype widths[] = {FKC_DTYPE_U8, FKC_DTYPE_F16, FKC_DTYPE_F32, FKC_DTYPE_F64};
    for (int w = 0; w < 4; w++) {
        alignment_pairs(ctx, widths[w]);
        big_misaligned(ctx, widths[w]);
    }
    fkc_context_destroy(ctx);
}

/* Stream order of the device-resident position: in one stream, a copy writes the position, a
 * rotating write uses it, a write_slice writes a new position, a second rotating write uses
 * that. Both writes must land where the positions written before them say. */
static void test_ring_stream_order(void **state)
{
    (void)state;
    fkc_context *ctx = rt_context(0, FKC_COPY_AUTO, 0, 0);
    rng_seed(0x0DE2);
    const size_t ring[2] = {8, 5}, s1[2] = {3, 5}, s2[2] = {2, 5}, p8[1] = {8}, o0[1] = {0};
    const uint64_t pos1 = 6, pos2 = (1ull << 40) + 3; /* 2^40 + 3 = 3 mod 8 */
    rt_buf D, A, B, P, Q;
    rt_buf_make(ctx, &D, 80 + 8);
    rt_buf_make(ctx, &A, 30);
    rt_buf_make(ctx, &B, 20);
    rt_buf_make(ctx, &P, 16); /* the position, at offset 4 */
    rt_buf_make(ctx, &Q, 16); /* pos1 then pos2, little-endian */
    for (int i = 0; i < 8; i++) {
        Q.host[i] = (unsigned char)(pos1 >> (8 * i));
        Q.host[8 + i] = (unsigned char)(pos2 >> (8 * i));
    }
    RT_OK(fkc_buffer_upload(Q.dev, 0, Q.host, 16));
    fkc_tensor t_out = rt_tensor(D.dev, 4, FKC_DTYPE_F16, 2, ring);
    fkc_tensor t_a = rt_tensor(A.dev, 0, FKC_DTYPE_F16, 2, s1);
    fkc_tensor t_b = rt_tensor(B.dev, 0, FKC_DTYPE_F16, 2, s2);
    fkc_tensor t_q = rt_tensor(Q.dev, 8, FKC_DTYPE_U8, 1, p8);
    fkc_tensor t_p = rt_tensor(P.dev, 4, FKC_DTYPE_U8, 1, p8);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_stream_copy(s, P.dev, 4, Q.dev, 0, 8));
    RT_OK(fkc_write_slice_rotating(s, &t_a, &t_out, 8, P.dev, 4, 0));
    RT_OK(fkc_write_slice(s, &t_q, &t_p, o0));
    RT_OK(fkc_write_slice_rotating(s, &t_b, &t_out, 8, P.dev, 4, 0));
    RT_OK(fkc_stream_submit(s));
    assert_int_equal(fkc_ref_write_slice_rotating(D.host + 4, ring, 2, A.host, s1, 8, pos1, 0, 2),
                     FKC_OK);
    assert_int_equal(fkc_ref_write_slice_rotating(D.host + 4, ring, 2, B.host, s2, 8, pos2, 0, 2),
                     FKC_OK);
    rt_buf_check(&D, "rotating writes after position writes in one stream");
    fkc_stream_destroy(s);
    rt_buf *all[] = {&D, &A, &B, &P, &Q};
    for (int i = 0; i < 5; i++)
        rt_buf_free(all[i]);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

/* Ring writes too wide for a 256-byte storage window: split along the dims that are not the
 * ring (planes, rows, long rows), on both paths, each equal to the reference. */
static void test_ring_splits(void **state)
{
    (void)state;
    for (int path = 0; path < 2; path++) {
        uint32_t flags = path ? FKC_CONTEXT_RING_READBACK : 0;
        ring_ctx[0] = ring_ctx[1] = rt_context(flags, FKC_COPY_COMPUTE, 256, 0);
        rng_seed(0x5917);
        const size_t d1[3] = {20, 4, 3}, s1[3] = {20, 3, 3}; /* ring on rows, 20 planes */
        rotating_path(ring_ctx[0], FKC_DTYPE_F32, 3, d1, s1, 4, 2, 1);
        const size_t d2[3] = {4, 30, 5}, s2[3] = {3, 30, 5}; /* ring on planes, 30 rows */
        rotating_path(ring_ctx[0], FKC_DTYPE_U8, 3, d2, s2, 4, 7, 0);
        const size_t d3[2] = {3, 500}, s3[2] = {2, 499}; /* long rows, 16-byte chunks */
        rotating_path(ring_ctx[0], FKC_DTYPE_U8, 2, d3, s3, 3, 5, 0);
        const size_t d4[2] = {40, 30}, s4[2] = {9, 29}; /* a ring wider than a window */
        rotating_path(ring_ctx[0], FKC_DTYPE_F16, 2, d4, s4, 40, 37, 0);
        fkc_context_destroy(ring_ctx[0]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto),
        cmocka_unit_test(test_compute),
        cmocka_unit_test(test_transfer),
        cmocka_unit_test(test_descriptor_pools),
        cmocka_unit_test(test_splits),
        cmocka_unit_test(test_descriptor_pool_growth),
        cmocka_unit_test(test_alignment_pairs),
        cmocka_unit_test(test_ring_stream_order),
        cmocka_unit_test(test_ring_splits),
    };
    return cmocka_run_group_tests_name("runtime ops (bit-exact vs reference)", tests, NULL, NULL);
}
