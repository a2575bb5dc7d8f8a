/* test_threads.c — one context, several threads at once, as fkc_runtime.h's thread model allows:
 * each thread its own streams and buffers, recording and submitting (synchronously and not) at
 * the same time as the others, with synchronous uploads and downloads, one-shot calls, the
 * shared kernel cache and buffers created and destroyed while the others run; every result
 * bit-exact against the CPU reference. Validation layer on (its thread-safety checks report a
 * Vulkan object used from two threads without the external synchronisation Vulkan demands);
 * any message fails. `make tsan` runs it under ThreadSanitizer, `make check-threads-20` 20
 * times in a row. The replay harness (issue 26) runs 8 threads that also record a rotating step
 * and replay it, on the default context (each replay at the next ring position) and on a
 * FKC_CONTEXT_RING_READBACK one (each replay refused with FKC_ERR_STATE, the step recorded
 * again). Worker threads never call cmocka (it is not thread-safe): they return a
 * message, which the main thread fails the test with. */
#include <pthread.h>
#include <stdatomic.h>

#include "rt_harness.h"

#define THREADS 4
#define ROUNDS 40
#define REPLAY_THREADS 8 /* the replay harness (issue 26): 8 threads, fewer rounds */
#define REPLAY_ROUNDS 12

static const uint32_t axpy_spv[] =
#include "axpy.spv.inc"
    ;

typedef struct axpy_push {
    uint32_t n, mul, add, pad;
} axpy_push;

static fkc_context *ctx;
static atomic_int go; /* released together, so that the threads overlap */
static bool readback; /* ctx has FKC_CONTEXT_RING_READBACK: replays of rotating steps refused */
static int rounds;    /* rounds per thread */
static bool replays;  /* each round also records a rotating step and replays it */

typedef struct worker {
    int id;
    uint64_t rng;
    char error[512];
} worker;

static uint64_t next(worker *w)
{
    w->rng ^= w->rng >> 12;
    w->rng ^= w->rng << 25;
    w->rng ^= w->rng >> 27;
    return w->rng * 2685821657736338717ull;
}

static size_t below(worker *w, size_t n)
{
    return n ? (size_t)(next(w) % n) : 0;
}

static void fill(worker *w, unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)next(w);
}

#define TRY(call)                                                                                  \
    do {                                                                                           \
        fkc_status st_ = (call);                                                                   \
        if (st_ != FKC_OK) {                                                                       \
            snprintf(w->error, sizeof w->error, "thread %d: %s -> %s", w->id, #call,               \
                     fkc_last_error());                                                            \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            int n_ = snprintf(w->error, sizeof w->error, "thread %d: ", w->id);                    \
            snprintf(w->error + n_, sizeof w->error - (size_t)n_, __VA_ARGS__);                    \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

enum { DST_BYTES = 24576, SRC_BYTES = 8192 };

/* One thread's work: ROUNDS rounds of random ops on its own buffers through two streams (one
 * submitted asynchronously, one synchronously), one-shot calls, a user kernel from the shared
 * cache, short-lived buffers; after each round the destination is downloaded and compared. */
static void *work(void *arg)
{
    worker *w = arg;
    fkc_buffer *D = NULL, *S = NULL, *P = NULL, *Q = NULL, *tmp = NULL;
    fkc_stream *a = NULL, *b = NULL, *c = NULL;
    unsigned char *dh = malloc(DST_BYTES), *sh = malloc(SRC_BYTES), *got = malloc(DST_BYTES);
    while (!atomic_load(&go))
        ;
    CHECK(dh && sh && got, "out of host memory");
    TRY(fkc_buffer_create(ctx, DST_BYTES, &D));
    TRY(fkc_buffer_create(ctx, SRC_BYTES, &S));
    TRY(fkc_buffer_create(ctx, 16, &P));
    TRY(fkc_stream_create(ctx, &a));
    TRY(fkc_stream_create(ctx, &b));
    TRY(fkc_stream_create(ctx, &c));
    TRY(fkc_buffer_create(ctx, 16, &Q));
    uint64_t qpos = next(w); /* the replayed step's ring position, in Q */
    unsigned char q8[16] = {0};
    for (int i = 0; i < 8; i++)
        q8[i] = (unsigned char)(qpos >> (8 * i));
    TRY(fkc_buffer_upload(Q, 0, q8, 16));
    fill(w, dh, DST_BYTES);
    fill(w, sh, SRC_BYTES);
    TRY(fkc_buffer_upload(D, 0, dh, DST_BYTES));
    TRY(fkc_buffer_upload(S, 0, sh, SRC_BYTES));
    fkc_kernel *k;
    TRY(fkc_kernel_cached(ctx, axpy_spv, sizeof axpy_spv / 4, 2, sizeof(axpy_push), &k));
    for (int round = 0; round < rounds; round++) {
        /* stream a: write_slice ops of a random dtype, submitted asynchronously */
        fkc_dtype dt = (fkc_dtype)below(w, FKC_DTYPE_COUNT);
        size_t e = fkc_dtype_size(dt);
        for (int op = 0; op < 4; op++) {
            size_t dst[2] = {1 + below(w, 20), 1 + below(w, 60)}, src[2], off[2];
            for (int i = 0; i < 2; i++) {
                src[i] = below(w, dst[i] + 1);
                off[i] = below(w, dst[i] - src[i] + 1);
            }
            uint64_t dat = below(w, DST_BYTES - dst[0] * dst[1] * e);
            uint64_t sat = below(w, SRC_BYTES - src[0] * src[1] * e);
            fkc_tensor st = rt_tensor(S, sat, dt, 2, src), ot = rt_tensor(D, dat, dt, 2, dst);
            TRY(fkc_write_slice(a, &st, &ot, off));
            fkc_ref_write_slice(dh + dat, dst, 2, sh + sat, src, off, e);
        }
        TRY(fkc_stream_submit_async(a));
        /* a one-shot rotating write with the position in P, after a's work (queue order) */
        uint64_t pos = next(w);
        unsigned char p8[16] = {0};
        for (int i = 0; i < 8; i++)
            p8[i] = (unsigned char)(pos >> (8 * i));
        TRY(fkc_buffer_upload(P, 0, p8, 16));
        size_t ring[2] = {7, 1 + below(w, 40)}, tok[2] = {1 + below(w, 9), ring[1]};
        uint64_t rat = 8192 + below(w, 8192), rsat = below(w, 4096);
        fkc_tensor rs = rt_tensor(S, rsat, FKC_DTYPE_U8, 2, tok);
        fkc_tensor ro = rt_tensor(D, rat, FKC_DTYPE_U8, 2, ring);
        TRY(fkc_write_slice_rotating_sync(ctx, &rs, &ro, 7, P, 0, 0));
        fkc_ref_write_slice_rotating(dh + rat, ring, 2, sh + rsat, tok, 7, pos, 0, 1);
        TRY(fkc_stream_wait(a, UINT64_MAX));
        /* stream b: a user kernel from the shared cache, a copy, a recorded upload */
        axpy_push pc = {64, (uint32_t)next(w) | 1, (uint32_t)next(w), 0};
        fkc_buffer_range r[2] = {{S, 4096, 256}, {D, 20480, 256}};
        TRY(fkc_stream_dispatch(b, k, r, 2, &pc, sizeof pc, 1, 1, 1));
        for (uint32_t i = 0; i < pc.n; i++) {
            uint32_t x;
            memcpy(&x, sh + 4096 + 4 * i, 4);
            x = x * pc.mul + pc.add;
            memcpy(dh + 20480 + 4 * i, &x, 4);
        }
        uint64_t cs = below(w, SRC_BYTES - 300), cd = below(w, DST_BYTES - 300);
        TRY(fkc_stream_copy(b, D, cd, S, cs, 300));
        memcpy(dh + cd, sh + cs, 300);
        unsigned char up[100];
        fill(w, up, sizeof up);
        uint64_t ua = below(w, SRC_BYTES - 100);
        TRY(fkc_stream_upload(b, S, ua, up, sizeof up));
        memcpy(sh + ua, up, sizeof up);
        TRY(fkc_stream_submit(b));
        /* stream c: a rotating step (write + advance) submitted, then replayed twice: on the
         * device path each replay lands at the next position; where the position is read back
         * when recorded, the replay is refused (nothing runs) and the step recorded again */
        size_t qring[2] = {5, 32}, qtok[2] = {1 + below(w, 3), 32};
        uint64_t qat = below(w, DST_BYTES - 160), qsat = below(w, SRC_BYTES - 96);
        fkc_tensor qs = rt_tensor(S, qsat, FKC_DTYPE_U8, 2, qtok);
        fkc_tensor qo = rt_tensor(D, qat, FKC_DTYPE_U8, 2, qring);
        for (int rep = 0; replays && rep < 3; rep++) {
            fkc_status rst = rep == 0 ? FKC_ERR_STATE : fkc_stream_replay(c);
            if (rep > 0)
                CHECK(rst == (readback ? FKC_ERR_STATE : FKC_OK), "replay %d: %s (%s)", rep,
                      fkc_status_name(rst), fkc_last_error());
            if (rst != FKC_OK) { /* the first time, or refused: record the step */
                TRY(fkc_write_slice_rotating(c, &qs, &qo, 5, Q, 0, 0));
                TRY(fkc_stream_advance(c, Q, 0, qtok[0]));
                TRY(fkc_stream_submit(c));
            }
            fkc_ref_write_slice_rotating(dh + qat, qring, 2, sh + qsat, qtok, 5, qpos, 0, 1);
            qpos += qtok[0];
        }
        /* buffers made and freed while the other threads allocate theirs */
        TRY(fkc_buffer_create(ctx, 1 + below(w, 5000), &tmp));
        fkc_buffer_destroy(tmp);
        tmp = NULL;
        TRY(fkc_buffer_download(D, 0, got, DST_BYTES));
        for (size_t i = 0; i < DST_BYTES; i++)
            CHECK(got[i] == dh[i], "round %d: byte %zu: device 0x%02x, reference 0x%02x", round, i,
                  got[i], dh[i]);
    }
out:
    fkc_stream_destroy(a);
    fkc_stream_destroy(b);
    fkc_stream_destroy(c);
    fkc_buffer_destroy(D);
    fkc_buffer_destroy(S);
    fkc_buffer_destroy(P);
    fkc_buffer_destroy(Q);
    fkc_buffer_destroy(tmp);
    free(dh);
    free(sh);
    free(got);
    return NULL;
}

/* n threads on one context of the given flags, each `r` rounds of work(). */
static void run_threads(uint32_t flags, int n, int r, bool with_replays)
{
    ctx = rt_context(flags, FKC_COPY_AUTO, 0, 0);
    readback = (flags & FKC_CONTEXT_RING_READBACK) != 0;
    rounds = r;
    replays = with_replays;
    pthread_t t[REPLAY_THREADS > THREADS ? REPLAY_THREADS : THREADS];
    worker w[REPLAY_THREADS > THREADS ? REPLAY_THREADS : THREADS];
    atomic_store(&go, 0);
    for (int i = 0; i < n; i++) {
        w[i] = (worker){.id = i, .rng = 0x9E3779B97F4A7C15ull * (uint64_t)(unsigned)(i + 1)};
        assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    atomic_store(&go, 1);
    for (int i = 0; i < n; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < n; i++)
        if (w[i].error[0])
            fail_msg("%s", w[i].error);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

static void test_threads_one_context(void **state)
{
    (void)state;
    run_threads(0, THREADS, ROUNDS, false);
}

/* Issue 26: 8 threads replaying rotating steps, on the device path and on a read-back context
 * (whose replays wrote stale rows with FKC_OK: 342 bytes wrong in 3 runs). */
static void test_threads_replay_device(void **state)
{
    (void)state;
    run_threads(0, REPLAY_THREADS, REPLAY_ROUNDS, true);
}

static void test_threads_replay_readback(void **state)
{
    (void)state;
    run_threads(FKC_CONTEXT_RING_READBACK, REPLAY_THREADS, REPLAY_ROUNDS, true);
}

/* Contexts made and destroyed by several threads at once, each with a quick op. */
static void *context_work(void *arg)
{
    worker *w = arg;
    fkc_context *c = NULL;
    fkc_buffer *b = NULL;
    fkc_context_options o;
    fkc_context_options_init(&o);
    while (!atomic_load(&go))
        ;
    TRY(fkc_context_create(&o, &c));
    TRY(fkc_buffer_create(c, 64, &b));
    unsigned char x[64], y[64];
    fill(w, x, sizeof x);
    TRY(fkc_buffer_upload(b, 0, x, sizeof x));
    TRY(fkc_buffer_download(b, 0, y, sizeof y));
    CHECK(memcmp(x, y, sizeof x) == 0, "a round trip changed the bytes");
out:
    fkc_buffer_destroy(b);
    fkc_context_destroy(c);
    return NULL;
}

static void test_threads_own_contexts(void **state)
{
    (void)state;
    pthread_t t[THREADS];
    worker w[THREADS];
    atomic_store(&go, 0);
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){.id = i, .rng = 77 + (uint64_t)i};
        assert_int_equal(pthread_create(&t[i], NULL, context_work, &w[i]), 0);
    }
    atomic_store(&go, 1);
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < THREADS; i++)
        if (w[i].error[0])
            fail_msg("%s", w[i].error);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_one_context),
        cmocka_unit_test(test_threads_replay_device),
        cmocka_unit_test(test_threads_replay_readback),
        cmocka_unit_test(test_threads_own_contexts),
    };
    return cmocka_run_group_tests_name("threads", tests, NULL, NULL);
}
