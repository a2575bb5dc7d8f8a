/* test_replay.c — issue 26 item 1: fkc_stream_replay with every op kind on every path. One
 * step of each byte width (a recorded upload, a small fused and a large write_slice, a
 * write_slice_rotating, fkc_stream_advance, fkc_stream_copy, a user kernel and a recorded
 * download) is recorded, submitted and replayed. Where the ring position is read on the device,
 * each replay must equal the CPU reference at the advanced position, every buffer compared
 * whole. Where the rotating op read its position back to the host when it was recorded
 * (FKC_CONTEXT_RING_READBACK, or a ring whose column spans more than the storage window), the
 * recording cannot be right at a later position, so fkc_stream_replay refuses it with
 * FKC_ERR_STATE and changes nothing, and recording the step again is right. Validation and
 * synchronization validation on; any message fails. */
#include "rt_harness.h"

static const uint32_t axpy_spv[] =
#include "axpy.spv.inc"
    ;

typedef struct axpy_push {
    uint32_t n, mul, add, pad;
} axpy_push;

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

/* One path: the context's flags, copy path and storage window, the stream's fusion, and
 * whether the rotating op reads its position back when recorded (then replay is refused). */
typedef struct path {
    const char *name;
    uint32_t flags;
    fkc_copy_path copy;
    uint64_t range; /* 0: the device's storage window */
    bool fuse;
    bool readback;
} path;

static const path paths[] = {
    {"device position, fused", 0, FKC_COPY_AUTO, 0, true, false},
    {"device position, unfused", 0, FKC_COPY_AUTO, 0, false, false},
    {"device position, compute kernels", 0, FKC_COPY_COMPUTE, 0, true, false},
    {"device position, transfer copies", 0, FKC_COPY_TRANSFER, 0, true, false},
    {"FKC_CONTEXT_RING_READBACK", FKC_CONTEXT_RING_READBACK, FKC_COPY_AUTO, 0, true, true},
    {"FKC_CONTEXT_RING_READBACK, transfer", FKC_CONTEXT_RING_READBACK, FKC_COPY_TRANSFER, 0, false,
     true},
    /* a 512-byte window: the ring's 160-byte rows make a column of 4 * 160 + 16 bytes, more
     * than the window, so the default context reads the position back itself */
    {"ring past the storage window", 0, FKC_COPY_AUTO, 512, true, true},
};

enum { CAP = 5, ROWB = 160, TOK = 2, SRC_B = 4096, DST_B = 8192 };

static const fkc_dtype width_dtype[9] = {
    [1] = FKC_DTYPE_U8, [2] = FKC_DTYPE_F16, [4] = FKC_DTYPE_F32, [8] = FKC_DTYPE_F64};

/* The buffers of one step and its host images. */
typedef struct step {
    size_t e;
    fkc_dtype dt;
    rt_buf S, D, R, P;
    unsigned char up[64];      /* what the recorded upload writes into S */
    unsigned char down[DST_B]; /* where the recorded download delivers D */
    axpy_push pc;
    fkc_kernel *k;
} step;

static void step_make(fkc_context *ctx, step *t, size_t e, uint64_t start)
{
    memset(t, 0, sizeof *t);
    t->e = e;
    t->dt = width_dtype[e];
    rt_buf_make(ctx, &t->S, SRC_B);
    rt_buf_make(ctx, &t->D, DST_B);
    rt_buf_make(ctx, &t->R, 32 + CAP * ROWB + 32);
    rt_buf_make(ctx, &t->P, 16);
    put_u64(t->P.host, start);
    RT_OK(fkc_buffer_upload(t->P.dev, 0, t->P.host, 16));
    for (size_t i = 0; i < sizeof t->up; i++)
        t->up[i] = (unsigned char)(rng_next() | 1);
    t->pc = (axpy_push){64, (uint32_t)rng_next() | 1, (uint32_t)rng_next(), 0};
    RT_OK(fkc_kernel_cached(ctx, axpy_spv, sizeof axpy_spv / 4, 2, sizeof t->pc, &t->k));
}

static void step_free(step *t)
{
    rt_buf_free(&t->S);
    rt_buf_free(&t->D);
    rt_buf_free(&t->R);
    rt_buf_free(&t->P);
}

/* Records the step; the host images are not touched (step_ref does that). */
static void step_record(fkc_stream *s, step *t)
{
    size_t e = t->e;
    RT_OK(fkc_stream_upload(s, t->S.dev, 0, t->up, sizeof t->up));
    /* a small aligned write (fused where the stream fuses): 2 rows of 32 bytes */
    size_t ss[2] = {2, 32 / e}, ds[2] = {8, 64 / e}, off[2] = {1, 16 / e};
    fkc_tensor st = rt_tensor(t->S.dev, 0, t->dt, 2, ss), ot = rt_tensor(t->D.dev, 0, t->dt, 2, ds);
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    /* a large one at a misaligned element offset */
    size_t ls[2] = {4, 200 / e}, ld[2] = {6, 400 / e}, lo[2] = {1, 3};
    st = rt_tensor(t->S.dev, 64, t->dt, 2, ls);
    ot = rt_tensor(t->D.dev, 1024, t->dt, 2, ld);
    RT_OK(fkc_write_slice(s, &st, &ot, lo));
    /* TOK tokens into the ring at the device position, then the position moves on */
    size_t rs[2] = {TOK, ROWB / e}, rd[2] = {CAP, ROWB / e};
    st = rt_tensor(t->S.dev, 1024, t->dt, 2, rs);
    ot = rt_tensor(t->R.dev, 32, t->dt, 2, rd);
    RT_OK(fkc_write_slice_rotating(s, &st, &ot, CAP, t->P.dev, 0, 0));
    RT_OK(fkc_stream_advance(s, t->P.dev, 0, TOK));
    RT_OK(fkc_stream_copy(s, t->D.dev, 6000, t->S.dev, 2048, 300));
    fkc_buffer_range r[2] = {{t->S.dev, 3072, 256}, {t->D.dev, 7168, 256}};
    RT_OK(fkc_stream_dispatch(s, t->k, r, 2, &t->pc, sizeof t->pc, 1, 1, 1));
    RT_OK(fkc_stream_download(s, t->D.dev, 0, t->down, DST_B));
}

/* The step on the host images, at the position P's image holds; then its advance. */
static void step_ref(step *t)
{
    size_t e = t->e;
    memcpy(t->S.host, t->up, sizeof t->up);
    size_t ss[2] = {2, 32 / e}, ds[2] = {8, 64 / e}, off[2] = {1, 16 / e};
    assert_int_equal(fkc_ref_write_slice(t->D.host, ds, 2, t->S.host, ss, off, e), FKC_OK);
    size_t ls[2] = {4, 200 / e}, ld[2] = {6, 400 / e}, lo[2] = {1, 3};
    assert_int_equal(fkc_ref_write_slice(t->D.host + 1024, ld, 2, t->S.host + 64, ls, lo, e),
                     FKC_OK);
    size_t rs[2] = {TOK, ROWB / e}, rd[2] = {CAP, ROWB / e};
    uint64_t pos = get_u64(t->P.host);
    assert_int_equal(
        fkc_ref_write_slice_rotating(t->R.host + 32, rd, 2, t->S.host + 1024, rs, CAP, pos, 0, e),
        FKC_OK);
    put_u64(t->P.host, pos + TOK);
    memcpy(t->D.host + 6000, t->S.host + 2048, 300);
    for (uint32_t i = 0; i < t->pc.n; i++) {
        uint32_t x;
        memcpy(&x, t->S.host + 3072 + 4 * i, 4);
        x = x * t->pc.mul + t->pc.add;
        memcpy(t->D.host + 7168 + 4 * i, &x, 4);
    }
}

static void step_check(const step *t, const char *what)
{
    rt_buf_check(&t->S, what);
    rt_buf_check(&t->D, what);
    rt_buf_check(&t->R, what);
    rt_buf_check(&t->P, what);
    for (size_t i = 0; i < DST_B; i++)
        if (t->down[i] != t->D.host[i])
            fail_msg("%s: byte %zu of the recorded download: 0x%02x, reference 0x%02x", what, i,
                     t->down[i], t->D.host[i]);
}

/* Bytes the host writes between replays: the replay's upload must restore S's first 64, its
 * ops must write over D again, and its download must deliver again. */
static void perturb(step *t)
{
    fill_tricky(t->S.host, 64, 1);
    RT_OK(fkc_buffer_upload(t->S.dev, 0, t->S.host, 64));
    fill_tricky(t->D.host, DST_B, 4);
    RT_OK(fkc_buffer_upload(t->D.dev, 0, t->D.host, DST_B));
    memset(t->down, 0, sizeof t->down);
}

/* Every width on one path: record, submit, then three replays (synchronous and not). */
static void run_path(const path *p)
{
    fkc_context *ctx = rt_context(p->flags, p->copy, p->range, 0);
    static const size_t widths[4] = {1, 2, 4, 8};
    static const uint64_t starts[4] = {3, 0xffffffffull - 2, 0, UINT64_MAX - 3};
    char what[160];
    for (int wi = 0; wi < 4; wi++) {
        step t;
        rng_seed(1000 + (uint64_t)wi);
        step_make(ctx, &t, widths[wi], starts[wi]);
        fkc_stream *s;
        RT_OK(fkc_stream_create(ctx, &s));
        fkc_test_set_fusion(s, p->fuse);
        step_record(s, &t);
        RT_OK(fkc_stream_submit(s));
        step_ref(&t);
        snprintf(what, sizeof what, "%s, %zu-byte step", p->name, t.e);
        step_check(&t, what);
        for (int r = 0; r < 3; r++) {
            perturb(&t);
            snprintf(what, sizeof what, "%s, %zu-byte step, replay %d", p->name, t.e, r + 1);
            fkc_status st = r == 1 ? fkc_stream_replay_async(s) : fkc_stream_replay(s);
            if (p->readback) {
                /* refused: the recording holds a position read when it was recorded */
                if (st != FKC_ERR_STATE)
                    fail_msg("%s: fkc_stream_replay returned %s, want FKC_ERR_STATE", what,
                             fkc_status_name(st));
                assert_non_null(strstr(fkc_last_error(), "read back"));
                RT_OK(fkc_stream_wait(s, UINT64_MAX));
                /* nothing ran: the buffers hold what the host wrote, the download nothing */
                memset(t.down, 0, sizeof t.down);
                rt_buf_check(&t.S, what);
                rt_buf_check(&t.D, what);
                rt_buf_check(&t.R, what);
                rt_buf_check(&t.P, what);
                for (size_t i = 0; i < DST_B; i++)
                    if (t.down[i])
                        fail_msg("%s: a refused replay delivered its download", what);
                /* what the caller does instead: record the step again, at the new position */
                RT_OK(fkc_stream_begin(s));
                step_record(s, &t);
                RT_OK(fkc_stream_submit(s));
            } else {
                if (st != FKC_OK)
                    fail_msg("%s: %s: %s", what, fkc_status_name(st), fkc_last_error());
                RT_OK(fkc_stream_wait(s, UINT64_MAX));
            }
            step_ref(&t);
            step_check(&t, what);
        }
        fkc_stream_destroy(s);
        step_free(&t);
        rt_no_validation(ctx);
    }
    fkc_context_destroy(ctx);
}

static void test_paths(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        run_path(&paths[i]);
}

/* The reproducer: a [3, 64] u8 ring under FKC_CONTEXT_RING_READBACK, a rotating write
 * and fkc_stream_advance(+1), submitted, then replayed twice. The replays wrote row 0 again
 * (the position recorded) with FKC_OK while the position moved to 1 and 2; now they are refused
 * and leave the ring and the position as the submit left them. */
static void test_readback_reproducer(void **state)
{
    (void)state;
    fkc_context *ctx = rt_context(FKC_CONTEXT_RING_READBACK, FKC_COPY_AUTO, 0, 0);
    rt_buf R, S, P;
    rt_buf_make(ctx, &R, 3 * 64);
    rt_buf_make(ctx, &S, 64);
    rt_buf_make(ctx, &P, 16);
    put_u64(P.host, 0);
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, 16));
    size_t rs[2] = {1, 64}, rd[2] = {3, 64};
    fkc_tensor st = rt_tensor(S.dev, 0, FKC_DTYPE_U8, 2, rs);
    fkc_tensor ot = rt_tensor(R.dev, 0, FKC_DTYPE_U8, 2, rd);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_write_slice_rotating(s, &st, &ot, 3, P.dev, 0, 0));
    RT_OK(fkc_stream_advance(s, P.dev, 0, 1));
    RT_OK(fkc_stream_submit(s));
    memcpy(R.host, S.host, 64);
    put_u64(P.host, 1);
    rt_buf_check(&R, "submitted");
    rt_buf_check(&P, "submitted");
    for (int r = 0; r < 2; r++) {
        assert_int_equal(fkc_stream_replay(s), FKC_ERR_STATE);
        assert_int_equal(fkc_stream_replay_async(s), FKC_ERR_STATE);
        rt_buf_check(&R, "after a refused replay");
        rt_buf_check(&P, "after a refused replay");
    }
    /* recorded again it lands at rows 1 and 2 */
    for (uint64_t row = 1; row < 3; row++) {
        RT_OK(fkc_write_slice_rotating(s, &st, &ot, 3, P.dev, 0, 0));
        RT_OK(fkc_stream_advance(s, P.dev, 0, 1));
        RT_OK(fkc_stream_submit(s));
        memcpy(R.host + 64 * row, S.host, 64);
        put_u64(P.host, row + 1);
        rt_buf_check(&R, "recorded again");
        rt_buf_check(&P, "recorded again");
    }
    fkc_stream_destroy(s);
    rt_buf_free(&R);
    rt_buf_free(&S);
    rt_buf_free(&P);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

/* The second reproducer at its real size on the default context: a [3, 65 MiB] u8 ring
 * under a 128 MiB storage window (lavapipe's; set by the test hook so every device works to
 * it) has a 16-byte column spanning more than the window, so the op reads the position back;
 * its replay is refused. A recording without that op on the same context still replays. */
static void test_ring_past_window(void **state)
{
    (void)state;
    enum { ROW = 65u << 20 };
    fkc_context *ctx = rt_context(0, FKC_COPY_AUTO, 128u << 20, 0);
    assert_true(rt_storage_range(ctx) <= 128u << 20);
    rt_buf R, S, P;
    rt_buf_make(ctx, &R, 3ull * ROW);
    rt_buf_make(ctx, &S, ROW);
    rt_buf_make(ctx, &P, 16);
    put_u64(P.host, 2);
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, 16));
    size_t rs[2] = {1, ROW}, rd[2] = {3, ROW};
    fkc_tensor st = rt_tensor(S.dev, 0, FKC_DTYPE_U8, 2, rs);
    fkc_tensor ot = rt_tensor(R.dev, 0, FKC_DTYPE_U8, 2, rd);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_write_slice_rotating(s, &st, &ot, 3, P.dev, 0, 0));
    RT_OK(fkc_stream_advance(s, P.dev, 0, 1));
    RT_OK(fkc_stream_submit(s));
    memcpy(R.host + 2ull * ROW, S.host, ROW);
    put_u64(P.host, 3);
    rt_buf_check(&R, "65 MiB rows: submitted");
    rt_buf_check(&P, "65 MiB rows: submitted");
    assert_int_equal(fkc_stream_replay(s), FKC_ERR_STATE);
    rt_buf_check(&R, "65 MiB rows: after a refused replay");
    rt_buf_check(&P, "65 MiB rows: after a refused replay");
    /* recorded again: row (3 mod 3) = 0 */
    RT_OK(fkc_write_slice_rotating(s, &st, &ot, 3, P.dev, 0, 0));
    RT_OK(fkc_stream_submit(s));
    memcpy(R.host, S.host, ROW);
    rt_buf_check(&R, "65 MiB rows: recorded again");
    /* the refusal is the recording's, not the stream's: an advance alone replays */
    RT_OK(fkc_stream_advance(s, P.dev, 0, 5));
    RT_OK(fkc_stream_submit(s));
    RT_OK(fkc_stream_replay(s));
    put_u64(P.host, 13);
    rt_buf_check(&P, "advance replayed");
    fkc_stream_destroy(s);
    rt_buf_free(&R);
    rt_buf_free(&S);
    rt_buf_free(&P);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_readback_reproducer),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_ring_past_window),
    };
    return cmocka_run_group_tests_name("replay", tests, NULL, NULL);
}
