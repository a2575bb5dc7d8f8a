/* test_fused.c — issue 15: barriers only where byte ranges meet, small writes fused into one
 * dispatch, replayed streams with the ring position advanced on the device. Every case runs
 * with fusion on and off (fkc_test_set_fusion) and is bit-exact against the CPU reference, each
 * buffer compared whole; the barrier and command counts come from the test hooks; validation
 * and its synchronization validation are on (a missing barrier is a message, and any message
 * fails). */
#include <vulkan/vulkan.h>

#include "rt_harness.h"

#include "fkc/fkc_vulkan.h"

RT_SHARED_CONTEXT(ctx)

/* A stream of ctx with fusion as asked, begun. */
static fkc_stream *stream(bool fuse)
{
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_test_set_fusion(s, fuse);
    RT_OK(fkc_stream_begin(s));
    return s;
}

/* The fused modes of the decode-step tests: 0 unfused, 1 fused (the table in host-visible
 * device memory, written by the host: the dispatch is the only command), 2 fused with the table
 * written by vkCmdUpdateBuffer (the test hook no_host_tables: two commands). Mode 2 runs on a
 * context of its own, swapped in for ctx until mode_end. */
static fkc_context *mode_begin(int mode)
{
    fkc_context *keep = ctx;
    if (mode == 2) {
        fkc_test_hooks h = {.no_host_tables = true};
        ctx = rt_context_hooks(0, FKC_COPY_AUTO, &h, NULL);
    }
    return keep;
}

static void mode_end(int mode, fkc_context *keep)
{
    if (mode == 2) {
        rt_no_validation(ctx);
        fkc_context_destroy(ctx);
    }
    ctx = keep;
}

/* Commands of n > 1 independent aligned writes in each mode (and `extra` more commands). */
static uint32_t mode_commands(int mode, uint32_t n, uint32_t extra)
{
    return (mode == 0 ? n : mode == 1 ? 1 : 2) + extra;
}

static const char *const mode_name[3] = {"unfused", "fused", "fused, table by update"};

/* ---- one write_slice, applied to the device and to the host images ---------------------- */

typedef struct wr {
    rt_buf *src, *dst; /* buffers: the source tensor's and the destination's */
    size_t src_at, dst_at;
    fkc_dtype dt;
    uint32_t rank;
    size_t sshape[4], dshape[4], off[4];
} wr;

static void apply(fkc_stream *s, const wr *w)
{
    size_t e = fkc_dtype_size(w->dt);
    fkc_tensor st = rt_tensor(w->src->dev, w->src_at, w->dt, w->rank, w->sshape);
    fkc_tensor ot = rt_tensor(w->dst->dev, w->dst_at, w->dt, w->rank, w->dshape);
    RT_OK(fkc_write_slice(s, &st, &ot, w->off));
    /* the reference reads the source as it is now in recording order (a copy: the source and
     * destination images may be one buffer) */
    size_t sb = rt_elems(w->rank, w->sshape) * e;
    unsigned char *tmp = malloc(sb);
    assert_non_null(tmp);
    memcpy(tmp, w->src->host + w->src_at, sb);
    assert_int_equal(fkc_ref_write_slice(w->dst->host + w->dst_at, w->dshape, w->rank, tmp,
                                         w->sshape, w->off, e),
                     FKC_OK);
    free(tmp);
}

/* A 2-D f32 write of rows x cols at (r, c) of a [R, C] destination at byte dst_at, from a
 * [rows, cols] source at byte src_at. */
static wr w2(rt_buf *src, size_t src_at, rt_buf *dst, size_t dst_at, size_t rows, size_t cols,
             size_t R, size_t C, size_t r, size_t c)
{
    wr w = {src, dst, src_at, dst_at, FKC_DTYPE_F32, 2, {rows, cols}, {R, C}, {r, c}};
    return w;
}

/* Runs `n` writes on one stream, submits, checks every buffer and returns the barrier count
 * (and the command count in *commands). */
static uint32_t run(bool fuse, const wr *w, uint32_t n, rt_buf *const *bufs, uint32_t nb,
                    uint32_t *commands, const char *what)
{
    fkc_stream *s = stream(fuse);
    for (uint32_t i = 0; i < n; i++)
        apply(s, &w[i]);
    uint32_t barriers = fkc_test_barrier_count(s);
    if (commands)
        *commands = fkc_test_command_count(s);
    RT_OK(fkc_stream_submit(s));
    for (uint32_t i = 0; i < nb; i++)
        rt_buf_check(bufs[i], what);
    fkc_stream_destroy(s);
    rt_no_validation(ctx);
    return barriers;
}

/* The overlap cases, each with the barrier count it must record: one exactly where a later op
 * touches bytes an earlier one wrote, or writes bytes one read. */
static void overlap_cases(bool fuse)
{
    const char *mode = fuse ? "fused" : "unfused";
    for (int c = 0; c < 9; c++) {
        rt_buf S, D, E;
        rt_buf_make(ctx, &S, 4096);
        rt_buf_make(ctx, &D, 8192);
        rt_buf_make(ctx, &E, 4096);
        rt_buf *all[3] = {&S, &D, &E};
        wr w[3];
        uint32_t n = 2, want = 0;
        const char *what = "?";
        switch (c) {
        case 0: /* different rows of one destination: independent */
            what = "disjoint ranges of one buffer";
            w[0] = w2(&S, 0, &D, 0, 2, 8, 16, 16, 0, 0);
            w[1] = w2(&S, 64, &D, 0, 2, 8, 16, 16, 4, 0);
            break;
        case 1: /* write after write, partly the same bytes: ordered, the last one wins */
            what = "write after write, partial overlap";
            w[0] = w2(&S, 0, &D, 0, 4, 8, 16, 16, 2, 4);
            w[1] = w2(&S, 256, &D, 0, 4, 8, 16, 16, 4, 4);
            want = 1;
            break;
        case 2: /* adjacent 16-byte aligned ranges: no byte in common */
            what = "adjacent ranges";
            w[0] = w2(&S, 0, &D, 0, 1, 16, 1, 64, 0, 0);
            w[1] = w2(&S, 64, &D, 0, 1, 16, 1, 64, 0, 16);
            break;
        case 3: /* read after write: the second op's source is the first one's output */
            what = "read after write";
            w[0] = w2(&S, 0, &D, 0, 4, 8, 4, 8, 0, 0);
            w[1] = w2(&D, 0, &E, 0, 4, 8, 16, 16, 3, 8);
            want = 1;
            break;
        case 4: /* write after read: the second op overwrites the first one's source */
            what = "write after read";
            w[0] = w2(&D, 0, &E, 0, 4, 8, 16, 16, 1, 0);
            w[1] = w2(&S, 0, &D, 0, 4, 8, 4, 8, 0, 0);
            want = 1;
            break;
        case 5: /* two reads of one range and disjoint writes: independent */
            what = "two reads of one range";
            w[0] = w2(&D, 0, &E, 0, 2, 8, 16, 16, 0, 0);
            w[1] = w2(&D, 0, &E, 0, 2, 8, 16, 16, 8, 8);
            break;
        case 6: /* misaligned rows sharing a 16-byte unit: the unit-owning kernel rewrites it
                 * whole, so the two are ordered although no byte is in common */
            what = "misaligned writes sharing a unit";
            w[0] = (wr){&S, &D, 0, 0, FKC_DTYPE_F16, 1, {5}, {64}, {0}};
            w[1] = (wr){&S, &D, 32, 0, FKC_DTYPE_F16, 1, {3}, {64}, {5}};
            want = 1;
            break;
        case 7: /* a chain: A -> D, D -> E, then a write into D's read range again */
            what = "a chain of three";
            w[0] = w2(&S, 0, &D, 0, 4, 8, 4, 8, 0, 0);
            w[1] = w2(&D, 0, &E, 0, 4, 8, 16, 16, 0, 0);
            w[2] = w2(&S, 512, &D, 0, 2, 8, 4, 8, 2, 0);
            n = 3, want = 2;
            break;
        default: /* the same destination bytes at two tensor offsets: WAW in the VkBuffer */
            what = "write after write through another tensor offset";
            w[0] = w2(&S, 0, &D, 0, 2, 8, 16, 16, 1, 0);
            w[1] = w2(&S, 128, &D, 64, 2, 8, 8, 8, 0, 0);
            want = 1;
            break;
        }
        uint32_t got = run(fuse, w, n, all, 3, NULL, what);
        if (got != want)
            fail_msg("%s (%s): %u barriers recorded, want %u", what, mode, got, want);
        rt_buf_free(&S);
        rt_buf_free(&D);
        rt_buf_free(&E);
    }
}

static void test_overlap_unfused(void **state)
{
    (void)state;
    overlap_cases(false);
}

static void test_overlap_fused(void **state)
{
    (void)state;
    overlap_cases(true);
}

/* The same bytes through two fkc buffers: an owned one and the host's borrowing of its
 * VkBuffer range. A write through one and a read of the same bytes through the other are
 * ordered; disjoint bytes are not. */
static void test_two_handles(void **state)
{
    (void)state;
    for (int fuse = 0; fuse < 2; fuse++)
        for (int dep = 0; dep < 2; dep++) {
            rt_buf S, D, E, B;
            rt_buf_make(ctx, &S, 1024);
            rt_buf_make(ctx, &D, 4096);
            rt_buf_make(ctx, &E, 4096);
            VkBuffer vb;
            VkDeviceSize at, size;
            RT_OK(fkc_buffer_vulkan(D.dev, &vb, &at, &size));
            B.size = 4096;
            B.host = D.host; /* the same bytes */
            RT_OK(fkc_buffer_wrap_vulkan(ctx, vb, at, 4096, FKC_VULKAN_BUFFER_USAGE, &B.dev));
            /* write D's first 8 rows of [16, 64] f32; then read rows 0..3 (dep) or 8..11
             * through the borrowed handle into E */
            wr w[2] = {w2(&S, 0, &D, 0, 4, 64, 16, 64, 0, 0),
                       w2(&B, dep ? 0 : 8 * 256, &E, 0, 4, 64, 16, 64, 4, 0)};
            rt_buf *all[2] = {&D, &E};
            uint32_t got = run(fuse, w, 2, all, 2, NULL, "two handles");
            if (got != (uint32_t)dep)
                fail_msg("two handles (%s, %s): %u barriers, want %d", fuse ? "fused" : "unfused",
                         dep ? "same bytes" : "disjoint bytes", got, dep);
            fkc_buffer_destroy(B.dev);
            rt_buf_free(&S);
            rt_buf_free(&D);
            rt_buf_free(&E);
        }
}

/* Random writes of every width, aligned and not, between three buffers, so that reads after
 * writes, writes after reads and partial overlaps come in every order: fused and unfused both
 * match the reference applied in recording order. */
static void test_random_both_ways(void **state)
{
    (void)state;
    static const fkc_dtype dts[4] = {FKC_DTYPE_U8, FKC_DTYPE_F16, FKC_DTYPE_F32, FKC_DTYPE_F64};
    for (int round = 0; round < 6; round++) {
        for (int fuse = 0; fuse < 2; fuse++) {
            rng_seed(1000 + (uint64_t)round); /* the same writes both ways */
            rt_buf B[3];
            for (int i = 0; i < 3; i++)
                rt_buf_make(ctx, &B[i], 16384);
            fkc_stream *s = stream(fuse != 0);
            for (int k = 0; k < 40; k++) {
                wr w;
                memset(&w, 0, sizeof w);
                w.dt = dts[rng_below(4)];
                size_t e = fkc_dtype_size(w.dt);
                bool aligned = rng_below(3) != 0;
                w.rank = 1 + (uint32_t)rng_below(3);
                size_t dbytes = e, sbytes = e;
                for (uint32_t a = 0; a < w.rank; a++) {
                    bool last = a + 1 == w.rank;
                    w.dshape[a] = last ? (aligned ? 16 / e * (1 + rng_below(4)) : 1 + rng_below(40))
                                       : 1 + rng_below(6);
                    w.sshape[a] = last && aligned ? w.dshape[a] / (1 + rng_below(2))
                                                  : 1 + rng_below(w.dshape[a]);
                    if (last && aligned && w.sshape[a] % (16 / e))
                        w.sshape[a] = 16 / e;
                    w.off[a] = rng_below(w.dshape[a] - w.sshape[a] + 1);
                    if (last && aligned)
                        w.off[a] = w.off[a] / (16 / e) * (16 / e);
                    dbytes *= w.dshape[a];
                    sbytes *= w.sshape[a];
                }
                int si = (int)rng_below(3), di = (int)rng_below(3);
                w.src = &B[si];
                w.dst = &B[di];
                w.dst_at = aligned ? 16 * rng_below((16384 - dbytes) / 16)
                                   : rng_below(16384 - dbytes);
                w.src_at = aligned ? 16 * rng_below((16384 - sbytes) / 16)
                                   : rng_below(16384 - sbytes);
                if (si == di && w.src_at < w.dst_at + dbytes && w.dst_at < w.src_at + sbytes)
                    continue; /* refused by the op: source and output overlap */
                apply(s, &w);
            }
            RT_OK(fkc_stream_submit(s));
            for (int i = 0; i < 3; i++)
                rt_buf_check(&B[i], fuse ? "random writes, fused" : "random writes, unfused");
            fkc_stream_destroy(s);
            for (int i = 0; i < 3; i++)
                rt_buf_free(&B[i]);
            rt_no_validation(ctx);
        }
    }
}

/* ---- a decode step: 2 x L caches, one token each ---------------------------------------- */

#define L 8 /* layers: K and V each */
#define HEADS 4
#define CAP 12 /* not a power of two: 2^32 mod CAP != 0 */
#define DIM 32 /* f16: 64-byte rows */

typedef struct step {
    rt_buf cache, tok, pos;
    fkc_tensor src[2 * L], out[2 * L];
    size_t cshape[4], tshape[4];
} step;

static void step_make(step *t, size_t batch)
{
    size_t c[4] = {batch, HEADS, CAP, DIM}, k[4] = {batch, HEADS, 1, DIM};
    memcpy(t->cshape, c, sizeof c);
    memcpy(t->tshape, k, sizeof k);
    size_t cb = rt_elems(4, c) * 2, tb = rt_elems(4, k) * 2;
    rt_buf_make(ctx, &t->cache, 2 * L * cb);
    rt_buf_make(ctx, &t->tok, 2 * L * tb);
    rt_buf_make(ctx, &t->pos, 16);
    for (int i = 0; i < 2 * L; i++) {
        t->src[i] = rt_tensor(t->tok.dev, (size_t)i * tb, FKC_DTYPE_F16, 4, k);
        t->out[i] = rt_tensor(t->cache.dev, (size_t)i * cb, FKC_DTYPE_F16, 4, c);
    }
}

static void step_free(step *t)
{
    rt_buf_free(&t->cache);
    rt_buf_free(&t->tok);
    rt_buf_free(&t->pos);
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The reference of one step at the position the host image holds, then its advance. */
static void step_ref(step *t, bool advance)
{
    uint64_t p = get_u64(t->pos.host);
    size_t cb = rt_elems(4, t->cshape) * 2, tb = rt_elems(4, t->tshape) * 2;
    for (int i = 0; i < 2 * L; i++)
        assert_int_equal(fkc_ref_write_slice_rotating(t->cache.host + (size_t)i * cb, t->cshape, 4,
                                                      t->tok.host + (size_t)i * tb, t->tshape, CAP,
                                                      p, 2, 2),
                         FKC_OK);
    if (advance)
        put_u64(t->pos.host, p + 1);
}

/* 2 x L write_slice at one position: one fused dispatch (with its table update where the
 * table is not host-visible) and no barrier; unfused, one dispatch each and still no barrier. */
static void test_step_write_slice(void **state)
{
    (void)state;
    for (int mode = 0; mode < 3; mode++)
        for (size_t batch = 1; batch <= 3; batch += 2) {
            fkc_context *keep = mode_begin(mode);
            bool fuse = mode > 0;
            step t;
            step_make(&t, batch);
            fkc_stream *s = stream(fuse);
            size_t off[4] = {0, 0, 5, 0}, cb = rt_elems(4, t.cshape) * 2;
            size_t tb = rt_elems(4, t.tshape) * 2;
            for (int i = 0; i < 2 * L; i++) {
                RT_OK(fkc_write_slice(s, &t.src[i], &t.out[i], off));
                assert_int_equal(fkc_ref_write_slice(t.cache.host + (size_t)i * cb, t.cshape, 4,
                                                     t.tok.host + (size_t)i * tb, t.tshape, off, 2),
                                 FKC_OK);
            }
            uint32_t cmds = fkc_test_command_count(s), bars = fkc_test_barrier_count(s);
            RT_OK(fkc_stream_submit(s));
            rt_buf_check(&t.cache, "step of write_slice");
            if (bars != 0 || cmds != mode_commands(mode, 2 * L, 0))
                fail_msg("step (%s, B=%zu): %u commands and %u barriers, want %u and 0",
                         mode_name[mode], batch, cmds, bars, mode_commands(mode, 2 * L, 0));
            fkc_stream_destroy(s);
            step_free(&t);
            rt_no_validation(ctx);
            mode_end(mode, keep);
        }
}

/* The rotating step with the device position and its advance, recorded once and replayed:
 * each replay writes the tokens at the next ring position (across the ring end, from a
 * position near 2^64 whose advance carries into the high word and wraps to 0). */
static void test_step_replay(void **state)
{
    (void)state;
    static const uint64_t starts[3] = {3, 0xffffffffull - 1, UINT64_MAX - 2};
    for (int mode = 0; mode < 3; mode++)
        for (int k = 0; k < 3; k++) {
            fkc_context *keep = mode_begin(mode);
            bool fuse = mode > 0;
            /* fused, the advance is part of the writes' dispatch (no barrier); by update, the
             * table's and the counter's updates come first */
            uint32_t want = mode == 0 ? 2 * L + 1 : mode == 1 ? 1 : 3, want_bars = mode == 0;
            step t;
            step_make(&t, 2);
            put_u64(t.pos.host, starts[k]);
            RT_OK(fkc_buffer_upload(t.pos.dev, 0, t.pos.host, 16));
            fkc_stream *s = stream(fuse);
            for (int i = 0; i < 2 * L; i++)
                RT_OK(fkc_write_slice_rotating(s, &t.src[i], &t.out[i], CAP, t.pos.dev, 0, 2));
            RT_OK(fkc_stream_advance(s, t.pos.dev, 0, 1));
            uint32_t cmds = fkc_test_command_count(s), bars = fkc_test_barrier_count(s);
            if (bars != want_bars || cmds != want)
                fail_msg("rotating step (%s): %u commands and %u barriers, want %u and %u",
                         mode_name[mode], cmds, bars, want, want_bars);
            RT_OK(fkc_stream_submit(s));
            step_ref(&t, true);
            rt_buf_check(&t.cache, "rotating step");
            rt_buf_check(&t.pos, "position after the step");
            for (int r = 0; r < 4; r++) { /* replays: the same recording, the next positions */
                if (r % 2)
                    RT_OK(fkc_stream_replay(s));
                else {
                    RT_OK(fkc_stream_replay_async(s));
                    RT_OK(fkc_stream_wait(s, UINT64_MAX));
                }
                step_ref(&t, true);
                rt_buf_check(&t.cache, "replayed rotating step");
                rt_buf_check(&t.pos, "position after a replay");
            }
            assert_int_equal(fkc_test_command_count(s), want);
            fkc_stream_destroy(s);
            step_free(&t);
            rt_no_validation(ctx);
            mode_end(mode, keep);
        }
}

/* ---- fkc_stream_advance in the fused dispatch (issue 23 item 5) ------------------------- */

enum { ADV_W = 3, ADV_CAP = 7, ADV_HEADS = 8, ADV_ROW = 4096 };

/* A step of nw (ADV_W, or 1) rotating writes of ADV_HEADS rows of ADV_ROW bytes (2048 16-byte
 * units: 8 work groups each, 24 in a dispatch of 3; the third ring on planes, axis 1) and one
 * fkc_stream_advance by `delta`, recorded once and replayed 2 * ADV_CAP + 3 times with a fresh
 * token uploaded before each: every run must put its token at the ring row of the position
 * it started from and advance the position exactly once (wrapping the ring twice), the whole
 * cache bit-exact against the reference after each run. With fusion the advance is part of the
 * writes' dispatch: one command (three with the tables by update), no barrier, even for one
 * write (then through the table, not the lone write's kernel). */
static void advance_replays(int mode, uint64_t start, uint64_t delta, int nw)
{
    size_t c[3][4] = {{1, ADV_HEADS, ADV_CAP, ADV_ROW / 4},
                      {1, ADV_HEADS, ADV_CAP, ADV_ROW / 4},
                      {1, ADV_CAP, ADV_HEADS, ADV_ROW / 4}};
    size_t k[3][4] = {{1, ADV_HEADS, 1, ADV_ROW / 4},
                      {1, ADV_HEADS, 1, ADV_ROW / 4},
                      {1, 1, ADV_HEADS, ADV_ROW / 4}};
    int32_t axis[3] = {2, 2, 1};
    size_t cb = rt_elems(4, c[0]) * 4, tb = rt_elems(4, k[0]) * 4;
    rt_buf cache, tok, pos;
    rt_buf_make(ctx, &cache, (size_t)nw * cb);
    rt_buf_make(ctx, &tok, (size_t)nw * tb);
    rt_buf_make(ctx, &pos, 16);
    put_u64(pos.host, start);
    RT_OK(fkc_buffer_upload(pos.dev, 0, pos.host, 16));
    fkc_stream *s = stream(mode > 0);
    for (int w = 0; w < nw; w++) {
        fkc_tensor st = rt_tensor(tok.dev, (size_t)w * tb, FKC_DTYPE_F32, 4, k[w]);
        fkc_tensor ot = rt_tensor(cache.dev, (size_t)w * cb, FKC_DTYPE_F32, 4, c[w]);
        RT_OK(fkc_write_slice_rotating(s, &st, &ot, ADV_CAP, pos.dev, 0, axis[w]));
    }
    RT_OK(fkc_stream_advance(s, pos.dev, 0, delta));
    uint32_t want = mode == 0 ? (uint32_t)nw + 1 : mode == 1 ? 1 : 3, want_bars = mode == 0;
    uint32_t cmds = fkc_test_command_count(s), bars = fkc_test_barrier_count(s);
    if (cmds != want || bars != want_bars)
        fail_msg("advance step (%s): %u commands and %u barriers, want %u and %u", mode_name[mode],
                 cmds, bars, want, want_bars);
    for (int r = 0; r < 2 * ADV_CAP + 4; r++) {
        if (r > 0) { /* a fresh token for the replay (a replay reads its inputs afresh) */
            fill_tricky(tok.host, tok.size, 4);
            RT_OK(fkc_buffer_upload(tok.dev, 0, tok.host, tok.size));
        }
        RT_OK(r == 0 ? fkc_stream_submit(s) : fkc_stream_replay(s));
        uint64_t p = get_u64(pos.host);
        for (int w = 0; w < nw; w++)
            assert_int_equal(fkc_ref_write_slice_rotating(cache.host + (size_t)w * cb, c[w], 4,
                                                          tok.host + (size_t)w * tb, k[w], ADV_CAP,
                                                          p, axis[w], 4),
                             FKC_OK);
        put_u64(pos.host, p + delta);
        rt_buf_check(&cache, "cache after an advancing step");
        rt_buf_check(&pos, "position after an advancing step");
    }
    assert_int_equal(fkc_test_command_count(s), want);
    fkc_stream_destroy(s);
    rt_buf_free(&cache);
    rt_buf_free(&tok);
    rt_buf_free(&pos);
    rt_no_validation(ctx);
}

static void test_advance_replays(void **state)
{
    (void)state;
    /* low word carrying into the high one; a delta with a high word; u64 wrap-around */
    static const uint64_t starts[3] = {0xffffffffull - 5, 2, UINT64_MAX - 9};
    static const uint64_t deltas[3] = {1, (1ull << 32) + 3, 1};
    for (int mode = 0; mode < 3; mode++)
        for (int i = 0; i < 3; i++) {
            fkc_context *keep = mode_begin(mode);
            advance_replays(mode, starts[i], deltas[i], 3);
            advance_replays(mode, starts[i], deltas[i], 1); /* one write: still the table */
            mode_end(mode, keep);
        }
}

/* Where the advance cannot join the pending dispatch it is its own, behind a barrier: a
 * pending fused write of the position's own bytes (a new position from the host), and a
 * recorded command since the last barrier that read the position (an unfusable rotating
 * write, too large for the table). The position must be the written value + 1, the ring row
 * the one at the position of that time. */
static void test_advance_not_folded(void **state)
{
    (void)state;
    rt_buf pos, val, cache, tok;
    rt_buf_make(ctx, &pos, 16);
    rt_buf_make(ctx, &val, 16);
    put_u64(val.host, 41);
    RT_OK(fkc_buffer_upload(val.dev, 0, val.host, 16));
    size_t one[1] = {16};
    fkc_tensor vt = rt_tensor(val.dev, 0, FKC_DTYPE_U8, 1, one);
    fkc_tensor pt = rt_tensor(pos.dev, 0, FKC_DTYPE_U8, 1, one);
    size_t at[1] = {0};
    fkc_stream *s = stream(true);
    RT_OK(fkc_write_slice(s, &vt, &pt, at)); /* fused: pending */
    RT_OK(fkc_stream_advance(s, pos.dev, 0, 1));
    assert_int_equal(fkc_test_barrier_count(s), 1);
    assert_int_equal(fkc_test_command_count(s), 2);
    RT_OK(fkc_stream_submit(s));
    memcpy(pos.host, val.host, 16);
    put_u64(pos.host, 42);
    rt_buf_check(&pos, "position written, then advanced");
    /* a ring write too large to fuse (2^16 + 256 units) read the position: its own dispatch */
    size_t cs[2] = {3, ((1u << 16) + 256) * 4}, ks[2] = {1, cs[1]}; /* (FKC_FUSE_MAX_UNITS) */
    rt_buf oth;
    rt_buf_make(ctx, &oth, 16);
    fkc_tensor xt = rt_tensor(oth.dev, 0, FKC_DTYPE_U8, 1, one);
    rt_buf_make(ctx, &cache, rt_elems(2, cs) * 4);
    rt_buf_make(ctx, &tok, rt_elems(2, ks) * 4);
    fkc_tensor st = rt_tensor(tok.dev, 0, FKC_DTYPE_F32, 2, ks);
    fkc_tensor ot = rt_tensor(cache.dev, 0, FKC_DTYPE_F32, 2, cs);
    RT_OK(fkc_stream_begin(s));
    RT_OK(fkc_write_slice(s, &vt, &xt, at)); /* a pending fused write elsewhere */
    RT_OK(fkc_write_slice_rotating(s, &st, &ot, 3, pos.dev, 0, 0));
    RT_OK(fkc_stream_advance(s, pos.dev, 0, 1));
    assert_int_equal(fkc_test_barrier_count(s), 1);
    RT_OK(fkc_stream_submit(s));
    assert_int_equal(fkc_ref_write_slice_rotating(cache.host, cs, 2, tok.host, ks, 3, 42, 0, 4),
                     FKC_OK);
    put_u64(pos.host, 43);
    rt_buf_check(&cache, "ring row at the position of that time");
    rt_buf_check(&pos, "position after the unfused ring write");
    memcpy(oth.host, val.host, 16);
    rt_buf_check(&oth, "the fused write beside it");
    fkc_stream_destroy(s);
    rt_buf_free(&oth);
    rt_buf_free(&pos);
    rt_buf_free(&val);
    rt_buf_free(&cache);
    rt_buf_free(&tok);
    rt_no_validation(ctx);
}

/* A dispatch of more work groups than its table's group map holds (FKC_FUSE_MAP_GROUPS, 4096):
 * 17 writes of 256 work groups each (64 rows of 16 KiB), then an advance in the same dispatch;
 * fused.comp finds each group's write by searching the table there, and counts 4352 groups
 * before advancing. One command, bit-exact, the position + 1. */
static void test_past_group_map(void **state)
{
    (void)state;
    enum { NW = 17, ROWS = 64, COLS = 4096 };
    size_t ss[2] = {ROWS, COLS}, ds[2] = {ROWS, COLS + 4}, off[2] = {0, 4};
    size_t sb = ROWS * COLS * 4, db = ROWS * (COLS + 4) * 4;
    rt_buf S, D, P;
    rt_buf_make(ctx, &S, NW * sb);
    rt_buf_make(ctx, &D, NW * db);
    rt_buf_make(ctx, &P, 16);
    put_u64(P.host, 0xffffffffull);
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, 16));
    fkc_stream *s = stream(true);
    for (size_t w = 0; w < NW; w++) {
        fkc_tensor st = rt_tensor(S.dev, w * sb, FKC_DTYPE_F32, 2, ss);
        fkc_tensor ot = rt_tensor(D.dev, w * db, FKC_DTYPE_F32, 2, ds);
        RT_OK(fkc_write_slice(s, &st, &ot, off));
        assert_int_equal(fkc_ref_write_slice(D.host + w * db, ds, 2, S.host + w * sb, ss, off, 4),
                         FKC_OK);
    }
    RT_OK(fkc_stream_advance(s, P.dev, 0, 1));
    assert_int_equal(fkc_test_command_count(s), 1);
    assert_int_equal(fkc_test_barrier_count(s), 0);
    RT_OK(fkc_stream_submit(s));
    put_u64(P.host, 0x100000000ull);
    rt_buf_check(&D, "17 writes past the group map");
    rt_buf_check(&P, "position advanced after 4352 groups");
    fkc_stream_destroy(s);
    rt_buf_free(&S);
    rt_buf_free(&D);
    rt_buf_free(&P);
    rt_no_validation(ctx);
}

/* A chunk of tokens into a ring (rotating rows wrap at the ring end inside one write), at
 * positions where the high word matters: on rows (axis 2), on planes (axis 1 outside a dim
 * that does not merge), and a chunk longer than the ring (its first rows skipped). */
static void test_ring_chunks(void **state)
{
    (void)state;
    static const uint64_t starts[3] = {10, 0xffffffffull - 2, UINT64_MAX - 1};
    for (int fuse = 0; fuse < 2; fuse++)
        for (int k = 0; k < 3; k++)
            for (int v = 0; v < 3; v++) {
                int32_t axis = v == 1 ? 1 : 2;
                size_t c[4] = {2, axis == 1 ? CAP : 3, axis == 2 ? CAP : 3, 8};
                size_t x[4] = {2, v == 1 ? 5 : 3,
                               v == 0   ? 5
                               : v == 2 ? CAP + 2
                                        : 3,
                               v == 1 ? 4 : 8};
                rt_buf D, S, P; /* two rings in D (two writes: one fused dispatch) */
                size_t rb = rt_elems(4, c) * 4, at[2] = {32, 32 + rb + 32};
                rt_buf_make(ctx, &D, 2 * rb + 96);
                rt_buf_make(ctx, &S, rt_elems(4, x) * 4);
                rt_buf_make(ctx, &P, 16);
                put_u64(P.host, starts[k]);
                RT_OK(fkc_buffer_upload(P.dev, 0, P.host, 16));
                fkc_tensor st = rt_tensor(S.dev, 0, FKC_DTYPE_F32, 4, x);
                fkc_stream *s = stream(fuse != 0);
                for (int r = 0; r < 2; r++) {
                    fkc_tensor ot = rt_tensor(D.dev, at[r], FKC_DTYPE_F32, 4, c);
                    RT_OK(fkc_write_slice_rotating(s, &st, &ot, CAP, P.dev, 0, axis));
                    assert_int_equal(fkc_ref_write_slice_rotating(D.host + at[r], c, 4, S.host, x,
                                                                  CAP, starts[k], axis, 4),
                                     FKC_OK);
                }
                if (fuse && fkc_test_command_count(s) != 1) /* their pieces: one dispatch */
                    fail_msg("ring chunks: %u commands, want 1", fkc_test_command_count(s));
                RT_OK(fkc_stream_submit(s));
                rt_buf_check(&D, "ring chunk");
                fkc_stream_destroy(s);
                rt_buf_free(&D);
                rt_buf_free(&S);
                rt_buf_free(&P);
                rt_no_validation(ctx);
            }
}

/* A replay sees device inputs afresh and runs its recorded copies again: a recorded upload
 * restores the bytes it had, a recorded download delivers again. */
static void test_replay_copies(void **state)
{
    (void)state;
    rt_buf S, D;
    rt_buf_make(ctx, &S, 256);
    rt_buf_make(ctx, &D, 1024);
    fkc_stream *s = stream(true);
    unsigned char up[256], down[256];
    for (int i = 0; i < 256; i++)
        up[i] = (unsigned char)(i * 7 + 1);
    RT_OK(fkc_stream_upload(s, S.dev, 0, up, 256));
    memcpy(S.host, up, 256);
    wr w = w2(&S, 0, &D, 0, 4, 16, 16, 16, 2, 0);
    apply(s, &w);
    RT_OK(fkc_stream_download(s, D.dev, 128, down, 256));
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&D, "recorded");
    assert_memory_equal(down, D.host + 128, 256);
    memset(down, 0, sizeof down);
    unsigned char junk[256];
    memset(junk, 0x5a, sizeof junk);
    RT_OK(fkc_buffer_upload(S.dev, 0, junk, 256)); /* the replay's upload restores it */
    RT_OK(fkc_stream_replay(s));
    rt_buf_check(&S, "source after the replay");
    rt_buf_check(&D, "replayed");
    assert_memory_equal(down, D.host + 128, 256);
    fkc_stream_destroy(s);
    rt_buf_free(&S);
    rt_buf_free(&D);
}

/* What a replay and an advance refuse. */
static void test_refusals(void **state)
{
    (void)state;
    rt_buf P;
    rt_buf_make(ctx, &P, 16);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    assert_int_equal(fkc_stream_replay(s), FKC_ERR_STATE); /* nothing submitted */
    assert_int_equal(fkc_stream_replay(NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_advance(s, P.dev, 4, 1), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_advance(s, P.dev, 16, 1), FKC_ERR_OUT_OF_BOUNDS);
    assert_int_equal(fkc_stream_advance(NULL, P.dev, 0, 1), FKC_ERR_INVALID_ARGUMENT);
    RT_OK(fkc_stream_advance(s, P.dev, 8, 5));
    assert_int_equal(fkc_stream_replay(s), FKC_ERR_STATE); /* recording: submit first */
    RT_OK(fkc_stream_submit(s));
    put_u64(P.host + 8, get_u64(P.host + 8) + 5);
    rt_buf_check(&P, "advanced by 5");
    RT_OK(fkc_stream_replay(s));
    put_u64(P.host + 8, get_u64(P.host + 8) + 5);
    rt_buf_check(&P, "advanced by 5 again");
    RT_OK(fkc_stream_begin(s)); /* a new recording: nothing to replay until submitted */
    assert_int_equal(fkc_stream_replay(s), FKC_ERR_STATE);
    fkc_stream_destroy(s);
    rt_buf_free(&P);
    rt_no_validation(ctx);
}

/* Many writes, over the batch size and the fused dispatch's windows: several fused dispatches
 * (one per batch), still no barrier, bit-exact. */
static void test_many_writes(void **state)
{
    (void)state;
    enum { NBUF = 12, NW = 600 };
    /* memory blocks of 16 KiB: each buffer its own VkBuffer, more than one dispatch binds */
    fkc_test_hooks h = {.block_bytes = 16384};
    fkc_context *keep = ctx;
    ctx = rt_context_hooks(0, FKC_COPY_AUTO, &h, NULL);
    rt_buf D[NBUF], S;
    rt_buf_make(ctx, &S, 64 * 16);
    for (int i = 0; i < NBUF; i++)
        rt_buf_make(ctx, &D[i], NW * 16);
    fkc_stream *s = stream(true);
    for (int k = 0; k < NW; k++) {
        wr w = w2(&S, 16 * (size_t)(k % 64), &D[k % NBUF], 0, 1, 4, 1, 4 * NW, 0,
                  4 * (size_t)(k / NBUF));
        apply(s, &w);
    }
    uint32_t bars = fkc_test_barrier_count(s), cmds = fkc_test_command_count(s);
    RT_OK(fkc_stream_submit(s));
    for (int i = 0; i < NBUF; i++)
        rt_buf_check(&D[i], "many writes");
    /* 12 destination VkBuffers, 8 written windows a dispatch: a new one at least every 8
     * writes (the tables host-visible: one command a dispatch) */
    if (bars != 0 || cmds < NW / 8 || cmds > NW / 4)
        fail_msg("%d writes: %u commands, %u barriers", NW, cmds, bars);
    fkc_stream_destroy(s);
    for (int i = 0; i < NBUF; i++)
        rt_buf_free(&D[i]);
    rt_buf_free(&S);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
    ctx = keep;
}

/* Issue 26 item 8: more than FKC_FUSE_MAX (256) small writes into one buffer: the full batch
 * goes out as its own dispatch and a new one begins (without that flush, 300 writes into one
 * buffer crashed the library), still no barrier, bit-exact. */
static void test_full_batch(void **state)
{
    (void)state;
    enum { NW = 300 };
    rt_buf D, S;
    rt_buf_make(ctx, &S, 64 * 16);
    rt_buf_make(ctx, &D, NW * 16);
    fkc_stream *s = stream(true);
    wr w = w2(&S, 0, &D, 0, 1, 4, 1, 4 * NW, 0, 0);
    apply(s, &w);
    w = w2(&S, 16, &D, 0, 1, 4, 1, 4 * NW, 0, 4);
    apply(s, &w);
    uint32_t one = fkc_test_command_count(s); /* commands of one fused dispatch */
    for (int k = 2; k < NW; k++) {
        w = w2(&S, 16 * (size_t)(k % 64), &D, 0, 1, 4, 1, 4 * NW, 0, 4 * (size_t)k);
        apply(s, &w);
    }
    uint32_t bars = fkc_test_barrier_count(s), cmds = fkc_test_command_count(s);
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&D, "300 writes into one buffer");
    if (bars != 0 || cmds != 2 * one)
        fail_msg("%d writes into one buffer: %u commands and %u barriers, want %u and 0", NW, cmds,
                 bars, 2 * one);
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(ctx);
}

/* Issue 26 item 8: the fused ring kernel with each position in a buffer of its own at an odd
 * byte offset (1, 13, 27: fused.comp's position read joins two words), high words set, three
 * rings in one fused dispatch. */
static void test_ring_odd_position(void **state)
{
    (void)state;
    static const uint64_t offs[3] = {1, 13, 27};
    static const uint64_t starts[3] = {0x0000000100000003ull, UINT64_MAX - 1,
                                       0x0102030405060708ull};
    enum { RCAP = 6 };
    size_t c[2] = {RCAP, 8}, x[2] = {2, 8};
    size_t rb = rt_elems(2, c) * 4;
    rt_buf D, S, P;
    rt_buf_make(ctx, &D, 3 * rb + 64);
    rt_buf_make(ctx, &S, rt_elems(2, x) * 4);
    rt_buf_make(ctx, &P, 48);
    for (int i = 0; i < 3; i++)
        put_u64(P.host + offs[i], starts[i]);
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, 48));
    fkc_tensor st = rt_tensor(S.dev, 0, FKC_DTYPE_F32, 2, x);
    fkc_stream *s = stream(true);
    for (int i = 0; i < 3; i++) {
        size_t at = 16 + (size_t)i * (rb + 16);
        fkc_tensor ot = rt_tensor(D.dev, at, FKC_DTYPE_F32, 2, c);
        RT_OK(fkc_write_slice_rotating(s, &st, &ot, RCAP, P.dev, offs[i], 0));
        assert_int_equal(
            fkc_ref_write_slice_rotating(D.host + at, c, 2, S.host, x, RCAP, starts[i], 0, 4),
            FKC_OK);
    }
    if (fkc_test_command_count(s) != 1) /* the three writes: one fused dispatch */
        fail_msg("odd positions: %u commands, want 1", fkc_test_command_count(s));
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&D, "rings at positions of odd byte offsets");
    rt_buf_check(&P, "positions untouched");
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_buf_free(&P);
    rt_no_validation(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_overlap_unfused, no_validation),
        cmocka_unit_test_teardown(test_overlap_fused, no_validation),
        cmocka_unit_test_teardown(test_two_handles, no_validation),
        cmocka_unit_test_teardown(test_random_both_ways, no_validation),
        cmocka_unit_test_teardown(test_step_write_slice, no_validation),
        cmocka_unit_test_teardown(test_step_replay, no_validation),
        cmocka_unit_test_teardown(test_ring_chunks, no_validation),
        cmocka_unit_test_teardown(test_replay_copies, no_validation),
        cmocka_unit_test_teardown(test_refusals, no_validation),
        cmocka_unit_test_teardown(test_many_writes, no_validation),
        cmocka_unit_test_teardown(test_full_batch, no_validation),
        cmocka_unit_test_teardown(test_ring_odd_position, no_validation),
        cmocka_unit_test_teardown(test_advance_replays, no_validation),
        cmocka_unit_test_teardown(test_advance_not_folded, no_validation),
        cmocka_unit_test_teardown(test_past_group_map, no_validation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
