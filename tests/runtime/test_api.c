/* test_api.c — the runtime's API around the ops: device enumeration and the default device
 * rule, selection by index/name/FKC_DEVICE, no Vulkan driver at all, the byte-width wrappers of
 * fkc_kernels.h, refused calls (out of bounds, rank mismatch, unbound dtype, bad tensors) with
 * clear messages and nothing written, streams ordering dependent ops. No generated code: the
 * generated dispatch is tested against these wrappers in tests/gen/test_generated.c. */
#include <sys/wait.h>
#include <unistd.h>

#include "rt_harness.h"

#include "fkc/fkc_kernels.h" /* the byte-width wrappers */
#include "fkc/fkc_vulkan.h"

RT_SHARED_CONTEXT(ctx) /* shared by the tests of the group */

static void test_devices(void **state)
{
    (void)state;
    fkc_device_info info[8];
    uint32_t n = 0;
    RT_OK(fkc_enumerate_devices(info, 8, &n));
    assert_true(n >= 1);
    uint32_t n2 = 0;
    RT_OK(fkc_enumerate_devices(NULL, 0, &n2)); /* count only */
    assert_int_equal(n, n2);
    const fkc_device_info *d = fkc_context_device(ctx);
    assert_non_null(d);
    /* The default rule: the first discrete/integrated GPU, else the first CPU device. */
    int want = -1;
    for (uint32_t i = 0; i < n && i < 8 && want < 0; i++)
        if (info[i].type == FKC_DEVICE_DISCRETE_GPU || info[i].type == FKC_DEVICE_INTEGRATED_GPU)
            want = (int)i;
    for (uint32_t i = 0; i < n && i < 8 && want < 0; i++)
        if (info[i].type == FKC_DEVICE_CPU)
            want = (int)i;
    if (!getenv("FKC_DEVICE"))
        assert_int_equal(d->index, want);
    assert_string_equal(d->name, info[d->index].name);
    assert_true(d->max_storage_buffer_range >= 16384);
    assert_true(d->max_compute_work_group_count[0] >= 65535);
    assert_true(d->has_compute_queue);
    assert_string_equal(fkc_device_type_name(FKC_DEVICE_CPU), "cpu");
    assert_true(fkc_test_storage_range(ctx) > 0 && fkc_test_work_group_count(ctx) > 0);
}

static void test_select(void **state)
{
    (void)state;
    fkc_context_options o;
    fkc_context *c = NULL;
    const char *name = fkc_context_device(ctx)->name;
    fkc_context_options_init(&o);
    o.flags = FKC_CONTEXT_IGNORE_ENV;
    o.device_index = 99;
    assert_int_equal(fkc_context_create(&o, &c), FKC_ERR_DEVICE_NOT_FOUND);
    assert_null(c);
    assert_non_null(strstr(fkc_last_error(), "device index 99 is out of range"));
    o.device_index = -1;
    o.device_name = "no-such-device-xyz";
    assert_int_equal(fkc_context_create(&o, &c), FKC_ERR_DEVICE_NOT_FOUND);
    assert_non_null(strstr(fkc_last_error(), "no-such-device-xyz"));
    o.device_name = ""; /* would match every device as a substring: refused */
    assert_int_equal(fkc_context_create(&o, &c), FKC_ERR_INVALID_ARGUMENT);
    assert_null(c);
    assert_non_null(strstr(fkc_last_error(), "empty device name"));
    o.device_name = name; /* exact name */
    RT_OK(fkc_context_create(&o, &c));
    assert_string_equal(fkc_context_device(c)->name, name);
    fkc_context_destroy(c);
    /* FKC_DEVICE: an index or a name; ignored with FKC_CONTEXT_IGNORE_ENV. */
    char *saved = getenv("FKC_DEVICE") ? strdup(getenv("FKC_DEVICE")) : NULL;
    setenv("FKC_DEVICE", "nowhere-gpu", 1);
    fkc_context_options_init(&o);
    assert_int_equal(fkc_context_create(&o, &c), FKC_ERR_DEVICE_NOT_FOUND);
    assert_non_null(strstr(fkc_last_error(), "FKC_DEVICE"));
    o.flags = FKC_CONTEXT_IGNORE_ENV;
    RT_OK(fkc_context_create(&o, &c));
    fkc_context_destroy(c);
    char idx[16];
    snprintf(idx, sizeof idx, "%u", fkc_context_device(ctx)->index);
    setenv("FKC_DEVICE", idx, 1);
    o.flags = 0;
    RT_OK(fkc_context_create(&o, &c));
    assert_int_equal(fkc_context_device(c)->index, fkc_context_device(ctx)->index);
    fkc_context_destroy(c);
    if (saved) {
        setenv("FKC_DEVICE", saved, 1);
        free(saved);
    } else {
        unsetenv("FKC_DEVICE");
    }
}

/* No driver: VK_DRIVER_FILES points nowhere (in a child, so this process keeps its driver). */
static void test_no_device(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        setenv("VK_DRIVER_FILES", "/nonexistent", 1);
        setenv("VK_ICD_FILENAMES", "/nonexistent", 1);
        unsetenv("VK_ADD_DRIVER_FILES");
        fkc_context *c = (fkc_context *)1;
        fkc_status st = fkc_context_create(NULL, &c);
        uint32_t n = 7;
        fkc_status st2 = fkc_enumerate_devices(NULL, 0, &n);
        char msg[1100];
        int len = snprintf(msg, sizeof msg, "%d %d %d %u %s", (int)st, (int)st2, c == NULL, n,
                           fkc_last_error());
        if (write(fds[1], msg, (size_t)len) != len)
            _exit(3);
        _exit(0);
    }
    close(fds[1]);
    char buf[1200] = {0};
    size_t got = 0;
    ssize_t r;
    while (got < sizeof buf - 1 && (r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)r;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    int st = -1, st2 = -1, null_out = 0;
    unsigned n = 9;
    assert_int_equal(sscanf(buf, "%d %d %d %u", &st, &st2, &null_out, &n), 4);
    assert_int_equal(st, FKC_ERR_NO_DEVICE);
    assert_int_equal(st2, FKC_ERR_NO_DEVICE);
    assert_int_equal(null_out, 1);
    assert_int_equal(n, 0);
    assert_non_null(strstr(buf, "no Vulkan driver could be loaded"));
}

#define REFUSED(call, status, text)                                                                \
    do {                                                                                           \
        assert_int_equal((call), (status));                                                        \
        if (!strstr(fkc_last_error(), (text)))                                                     \
            fail_msg("message '%s' lacks '%s'", fkc_last_error(), (text));                         \
    } while (0)

/* A wrapper called with a dtype of another byte width refuses (FKC_ERR_DTYPE) rather than
 * moving the wrong number of bytes; a NULL params is refused too. */
static void test_wrapper_widths(void **state)
{
    (void)state;
    rt_buf D, S;
    rt_buf_make(ctx, &D, 64);
    rt_buf_make(ctx, &S, 64);
    const size_t shape[1] = {8}, off[1] = {0};
    fkc_tensor st = rt_tensor(S.dev, 0, FKC_DTYPE_U8, 1, shape);
    fkc_tensor ot = rt_tensor(D.dev, 0, FKC_DTYPE_U8, 1, shape);
    fkc_write_slice_params p = {shape, 1, off, 1};
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    REFUSED(fkc_write_slice_b4(s, &st, &ot, &p, NULL), FKC_ERR_DTYPE, "4-byte kernel");
    fkc_write_slice_rotating_params rp = {shape, 1, 8};
    fkc_write_slice_rotating_extra x = {S.dev, 0, -1};
    REFUSED(fkc_write_slice_rotating_b2(s, &st, &ot, &rp, &x), FKC_ERR_DTYPE, "2-byte kernel");
    REFUSED(fkc_write_slice_b1(s, &st, &ot, NULL, NULL), FKC_ERR_INVALID_ARGUMENT, "params");
    RT_OK(fkc_stream_submit(s));
    fkc_stream_destroy(s);
    rt_buf_check(&D, "refused wrappers write nothing");
    rt_buf_free(&D);
    rt_buf_free(&S);
}

/* Buffers + tensors for the error cases: out (rank 2, [4, 6] f32) and src ([2, 3] f32). */
typedef struct fixture {
    rt_buf D, S, P;
    fkc_tensor out, src;
} fixture;

static void fixture_make(fixture *f)
{
    const size_t dst[2] = {4, 6}, src[2] = {2, 3};
    rt_buf_make(ctx, &f->D, 4 * 6 * 4);
    rt_buf_make(ctx, &f->S, 64);
    rt_buf_make(ctx, &f->P, 8);
    memset(f->P.host, 0, 8);
    f->P.host[0] = 3;
    RT_OK(fkc_buffer_upload(f->P.dev, 0, f->P.host, 8));
    f->out = rt_tensor(f->D.dev, 0, FKC_DTYPE_F32, 2, dst);
    f->src = rt_tensor(f->S.dev, 0, FKC_DTYPE_F32, 2, src);
}

static void fixture_free(fixture *f)
{
    rt_buf_check(&f->D, "refused calls write nothing");
    rt_buf_free(&f->D);
    rt_buf_free(&f->S);
    rt_buf_free(&f->P);
}

static void test_errors(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    const size_t ok_off[2] = {1, 2}, oob[2] = {3, 2}, oob2[2] = {0, 4};
    REFUSED(fkc_write_slice(s, &f.src, &f.out, oob), FKC_ERR_OUT_OF_BOUNDS, "axis 0");
    REFUSED(fkc_write_slice(s, &f.src, &f.out, oob2), FKC_ERR_OUT_OF_BOUNDS,
            "axis 1: offset 4 + source extent 3 exceeds destination extent 6");
    fkc_tensor r1 = f.src;
    r1.rank = 1;
    REFUSED(fkc_write_slice(s, &r1, &f.out, ok_off), FKC_ERR_RANK, "ranks disagree");
    fkc_tensor bad = f.src;
    bad.dtype = FKC_DTYPE_I32; /* [I32, F32]: no binding */
    REFUSED(fkc_write_slice(s, &bad, &f.out, ok_off), FKC_ERR_NO_KERNEL, "[I32, F32]");
    bad.dtype = FKC_DTYPE_COUNT;
    REFUSED(fkc_write_slice(s, &bad, &f.out, ok_off), FKC_ERR_NO_KERNEL, "no kernel");
    fkc_tensor far = f.src;
    far.offset = 48; /* 24 bytes at 48 in a 64-byte buffer */
    REFUSED(fkc_write_slice(s, &far, &f.out, ok_off), FKC_ERR_INVALID_ARGUMENT, "do not fit");
    fkc_tensor r9 = f.out, s9 = f.src;
    r9.rank = s9.rank = 9;
    REFUSED(fkc_write_slice(s, &s9, &r9, ok_off), FKC_ERR_RANK, "src: rank 9 is outside 1..8");
    fkc_tensor huge = f.out, hs = f.src;
    huge.shape[0] = hs.shape[0] = SIZE_MAX / 2;
    REFUSED(fkc_write_slice(s, &hs, &huge, ok_off), FKC_ERR_OVERFLOW, "src: byte size overflows");
    fkc_tensor alias = f.out; /* src overlapping out */
    alias.shape[0] = 2;
    alias.shape[1] = 3;
    REFUSED(fkc_write_slice(s, &alias, &f.out, ok_off), FKC_ERR_INVALID_ARGUMENT, "overlap");
    REFUSED(fkc_write_slice(s, NULL, &f.out, ok_off), FKC_ERR_INVALID_ARGUMENT, "NULL");
    REFUSED(fkc_write_slice(s, &f.src, &f.out, NULL), FKC_ERR_RANK, "offsets");
    /* Rotating: capacity matching no axis, a named axis out of range or of another extent,
     * two axes matching without a named axis, a source too wide off the rotating axis. */
    REFUSED(fkc_write_slice_rotating(s, &f.src, &f.out, 5, f.P.dev, 0, -1), FKC_ERR_SHAPE,
            "no axis has the capacity 5 as its extent");
    REFUSED(fkc_write_slice_rotating(s, &f.src, &f.out, 4, f.P.dev, 0, 2), FKC_ERR_INVALID_ARGUMENT,
            "axis 2 is out of range for rank 2");
    REFUSED(fkc_write_slice_rotating(s, &f.src, &f.out, 4, f.P.dev, 0, 1), FKC_ERR_SHAPE,
            "axis 1 has extent 6, not the capacity 4");
    REFUSED(fkc_write_slice_rotating(s, &f.src, &f.out, 4, f.P.dev, 0, -2),
            FKC_ERR_INVALID_ARGUMENT, "axis -2 is neither an axis nor -1");
    REFUSED(fkc_write_slice_rotating(s, &f.src, &f.out, 4, NULL, 0, -1), FKC_ERR_INVALID_ARGUMENT,
            "position");
    REFUSED(fkc_write_slice_rotating(s, &f.src, &f.out, 4, f.P.dev, 4, -1), FKC_ERR_OUT_OF_BOUNDS,
            "the position's 8 bytes at offset 4 are outside its 8-byte");
    REFUSED(fkc_write_slice_rotating(s, &f.src, &f.out, 4, f.P.dev, UINT64_MAX - 3, -1),
            FKC_ERR_OUT_OF_BOUNDS, "the position's 8 bytes at offset 18446744073709551612");
    const size_t sq[2] = {4, 4};
    fkc_tensor sqo = rt_tensor(f.D.dev, 0, FKC_DTYPE_F32, 2, sq);
    REFUSED(fkc_write_slice_rotating(s, &f.src, &sqo, 4, f.P.dev, 0, -1), FKC_ERR_INVALID_ARGUMENT,
            "several match");
    fkc_tensor wide = rt_tensor(f.S.dev, 0, FKC_DTYPE_F32, 2, (size_t[]){1, 7});
    REFUSED(fkc_write_slice_rotating(s, &wide, &f.out, 4, f.P.dev, 0, -1), FKC_ERR_OUT_OF_BOUNDS,
            "axis 1: source extent 7 exceeds destination extent 6 (off "
            "the rotating axis 0 the source does not fit the ring)");
    /* The axis named is the one that does not fit, not an earlier one that fits exactly (a
     * mutation sample: `>` as `>=` in the messages' search named axis 0 here). */
    const size_t exact0[2] = {2, 4};
    REFUSED(fkc_write_slice(s, &f.src, &f.out, exact0), FKC_ERR_OUT_OF_BOUNDS,
            "axis 1: offset 4 + source extent 3 exceeds destination extent 6");
    fkc_tensor o3 = rt_tensor(f.D.dev, 0, FKC_DTYPE_F32, 3, (size_t[]){4, 2, 3});
    fkc_tensor s3 = rt_tensor(f.S.dev, 0, FKC_DTYPE_F32, 3, (size_t[]){1, 2, 4});
    REFUSED(fkc_write_slice_rotating(s, &s3, &o3, 4, f.P.dev, 0, 0), FKC_ERR_OUT_OF_BOUNDS,
            "axis 2: source extent 4 exceeds destination extent 3");
    assert_int_equal(fkc_stream_op_count(s), 0); /* nothing was recorded */
    RT_OK(fkc_stream_submit(s));
    fkc_stream_destroy(s);
    fixture_free(&f);
    /* Buffers: zero size, out-of-range host copies. */
    fkc_buffer *b = (fkc_buffer *)1;
    REFUSED(fkc_buffer_create(ctx, 0, &b), FKC_ERR_INVALID_ARGUMENT, "size is 0");
    assert_null(b);
    REFUSED(fkc_buffer_create(ctx, 1ull << 62, &b), FKC_ERR_OUT_OF_MEMORY, "largest allocation");
    assert_null(b);
    RT_OK(fkc_buffer_create(ctx, 10, &b));
    unsigned char tmp[16] = {0};
    REFUSED(fkc_buffer_upload(b, 4, tmp, 7), FKC_ERR_OUT_OF_BOUNDS, "outside the 10-byte");
    REFUSED(fkc_buffer_download(b, 11, tmp, 0), FKC_ERR_OUT_OF_BOUNDS, "outside");
    fkc_buffer_destroy(b);
}

/* The reference ops (the CPU path) set fkc_last_error() when they refuse, naming the axis at
 * fault, rather than leaving an earlier call's message in place. */
static void test_reference_messages(void **state)
{
    (void)state;
    const size_t dst[2] = {4, 6}, src[2] = {2, 3}, wide[2] = {7, 7}, oob[2] = {0, 4};
    unsigned char d[96] = {0}, s[64] = {0};
    fkc_buffer *b;
    REFUSED(fkc_buffer_create(ctx, 0, &b), FKC_ERR_INVALID_ARGUMENT, "size is 0"); /* stale */
    REFUSED(fkc_ref_write_slice(d, dst, 2, s, src, oob, 4), FKC_ERR_OUT_OF_BOUNDS,
            "fkc_ref_write_slice: axis 1: offset 4 + source extent 3 exceeds destination "
            "extent 6");
    REFUSED(fkc_ref_write_slice(d, dst, 9, s, src, oob, 4), FKC_ERR_RANK, "rank 9 is outside");
    REFUSED(fkc_ref_write_slice(d, dst, 2, s, src, oob + 1, 3), FKC_ERR_DTYPE, "element size 3");
    REFUSED(fkc_ref_write_slice(NULL, dst, 2, s, src, (size_t[]){0, 0}, 4),
            FKC_ERR_INVALID_ARGUMENT, "NULL data");
    /* rotating: axis 0 (extent 4) rotates, so 7 > 4 there is fine; axis 1 is at fault */
    REFUSED(fkc_ref_write_slice_rotating(d, dst, 2, s, wide, 4, 1, -1, 4), FKC_ERR_OUT_OF_BOUNDS,
            "fkc_ref_write_slice_rotating: axis 1: offset 0 + source extent 7 exceeds "
            "destination extent 6");
    REFUSED(fkc_ref_write_slice_rotating(d, dst, 2, s, wide, 6, 1, 1, 4), FKC_ERR_OUT_OF_BOUNDS,
            "axis 0: offset 0 + source extent 7 exceeds destination extent 4");
    REFUSED(fkc_ref_write_slice_rotating(d, dst, 2, s, src, 5, 1, -1, 4), FKC_ERR_SHAPE,
            "no axis of the destination has the capacity");
}

/* The GPU path accepts and refuses exactly what the reference does, on random calls that are
 * often invalid (offsets past the end, capacities matching no or several axes). */
static void test_same_verdicts(void **state)
{
    (void)state;
    rt_buf D, S, P;
    rt_buf_make(ctx, &D, 4096);
    rt_buf_make(ctx, &S, 4096);
    rt_buf_make(ctx, &P, 8 * 300); /* one position slot per call: they are read when run */
    rng_seed(77);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    int accepted = 0, refused = 0;
    for (int k = 0; k < 300; k++) {
        uint32_t rank = 1 + (uint32_t)rng_below(4);
        size_t dst[4], src[4], off[4];
        for (uint32_t i = 0; i < rank; i++) {
            dst[i] = 1 + rng_below(5);
            src[i] = rng_below(dst[i] + 2);
            off[i] = rng_below(dst[i] + 1);
        }
        fkc_dtype dt = (fkc_dtype)rng_below(FKC_DTYPE_COUNT);
        size_t e = fkc_dtype_size(dt);
        fkc_tensor st = rt_tensor(S.dev, 0, dt, rank, src);
        fkc_tensor ot = rt_tensor(D.dev, 0, dt, rank, dst);
        fkc_status want, got;
        if (k % 2) {
            want = fkc_ref_write_slice(D.host, dst, rank, S.host, src, off, e);
            got = fkc_write_slice(s, &st, &ot, off);
        } else {
            size_t cap = 1 + rng_below(5);
            int32_t axis = rng_below(3) ? -1 : (int32_t)rng_below(rank + 1);
            uint64_t pos = rng_next();
            for (int i = 0; i < 8; i++)
                P.host[8 * k + i] = (unsigned char)(pos >> (8 * i));
            RT_OK(fkc_buffer_upload(P.dev, 8 * (uint64_t)k, P.host + 8 * k, 8));
            want = fkc_ref_write_slice_rotating(D.host, dst, rank, S.host, src, cap, pos, axis, e);
            got = fkc_write_slice_rotating(s, &st, &ot, cap, P.dev, 8 * (uint64_t)k, axis);
        }
        if (got != want)
            fail_msg("case %d: device %s, reference %s (%s)", k, fkc_status_name(got),
                     fkc_status_name(want), fkc_last_error());
        if (want == FKC_OK)
            accepted++;
        else
            refused++;
    }
    assert_true(accepted > 30 && refused > 30); /* both verdicts were exercised */
    RT_OK(fkc_stream_submit(s));
    fkc_stream_destroy(s);
    rt_buf_check(&D, "same verdicts: accepted ops applied in order");
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_buf_free(&P);
}

/* Ops in one stream run in recording order: overlapping writes, last one wins; a stream is
 * reusable after submit; fkc_stream_copy moves plain bytes. */
static void test_stream_order(void **state)
{
    (void)state;
    rt_buf D, S;
    rt_buf_make(ctx, &D, 256);
    rt_buf_make(ctx, &S, 256);
    const size_t dst[1] = {200}, a[1] = {50};
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    for (int round = 0; round < 2; round++) {
        RT_OK(fkc_stream_begin(s));
        for (int k = 0; k < 20; k++) {
            size_t off[1] = {(size_t)(k * 7)};
            fkc_tensor st = rt_tensor(S.dev, (uint64_t)(k * 3), FKC_DTYPE_U8, 1, a);
            fkc_tensor ot = rt_tensor(D.dev, 3, FKC_DTYPE_U8, 1, dst);
            RT_OK(fkc_write_slice(s, &st, &ot, off));
            fkc_ref_write_slice(D.host + 3, dst, 1, S.host + k * 3, a, off, 1);
        }
        RT_OK(fkc_stream_copy(s, D.dev, 210, S.dev, 5, 40));
        memcpy(D.host + 210, S.host + 5, 40);
        assert_int_equal(fkc_stream_op_count(s), 21);
        RT_OK(fkc_stream_submit(s));
        double t = fkc_stream_device_seconds(s); /* timestamps: lavapipe has them */
        assert_true(t == -1 || (t >= 0 && t < 60));
        rt_buf_check(&D, "stream order");
    }
    RT_OK(fkc_stream_submit(s)); /* idle: nothing to do */
    REFUSED(fkc_stream_copy(s, D.dev, 0, D.dev, 10, 20), FKC_ERR_INVALID_ARGUMENT, "overlap");
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
}

/* A stream destroyed while recording, and a one-shot op, leave nothing behind. */
static void test_sync_and_abandon(void **state)
{
    (void)state;
    rt_buf D, S;
    rt_buf_make(ctx, &D, 64);
    rt_buf_make(ctx, &S, 64);
    const size_t dst[2] = {4, 8}, src[2] = {2, 8}, off[2] = {1, 0};
    fkc_tensor st = rt_tensor(S.dev, 0, FKC_DTYPE_BF16, 2, src);
    fkc_tensor ot = rt_tensor(D.dev, 0, FKC_DTYPE_BF16, 2, dst);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    fkc_stream_destroy(s); /* never submitted: nothing happens */
    rt_buf_check(&D, "abandoned stream");
    RT_OK(fkc_write_slice_sync(ctx, &st, &ot, off));
    fkc_ref_write_slice(D.host, dst, 2, S.host, src, off, 2);
    rt_buf_check(&D, "one-shot write_slice");
    rt_buf_free(&D);
    rt_buf_free(&S);
}

/* Host copies larger than the 8 MiB staging chunk, at unaligned offsets, round-trip exactly;
 * a rotating position read from an unaligned offset. */
static void test_big_copies(void **state)
{
    (void)state;
    size_t n = (20u << 20) + 13;
    unsigned char *a = malloc(n), *b = malloc(n);
    assert_non_null(a);
    assert_non_null(b);
    rng_seed(5);
    fill_tricky(a, n, 8);
    fkc_buffer *buf;
    RT_OK(fkc_buffer_create(ctx, n + 7, &buf));
    RT_OK(fkc_buffer_upload(buf, 7, a, n));
    memset(b, 0, n);
    RT_OK(fkc_buffer_download(buf, 7, b, n));
    assert_memory_equal(a, b, n);
    RT_OK(fkc_buffer_download(buf, 7 + (9u << 20), b, 1000));
    assert_memory_equal(a + (9u << 20), b, 1000);
    fkc_buffer_destroy(buf);
    free(a);
    free(b);

    rt_buf D, S, P;
    rt_buf_make(ctx, &D, 96);
    rt_buf_make(ctx, &S, 64);
    rt_buf_make(ctx, &P, 16);
    uint64_t pos = 0x0123456789abcdefull;
    for (int i = 0; i < 8; i++)
        P.host[3 + i] = (unsigned char)(pos >> (8 * i));
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, 16));
    const size_t ring[2] = {5, 4}, src[2] = {3, 4};
    fkc_tensor st = rt_tensor(S.dev, 0, FKC_DTYPE_I32, 2, src);
    fkc_tensor ot = rt_tensor(D.dev, 0, FKC_DTYPE_I32, 2, ring);
    RT_OK(fkc_write_slice_rotating_sync(ctx, &st, &ot, 5, P.dev, 3, -1));
    assert_int_equal(fkc_ref_write_slice_rotating(D.host, ring, 2, S.host, src, 5, pos, -1, 4),
                     FKC_OK);
    rt_buf_check(&D, "position at an unaligned offset");
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_buf_free(&P);
}

/* Issue 26 item 8: NULL arguments of every public call are refused (FKC_ERR_INVALID_ARGUMENT,
 * *out NULL) or ignored where the header says so, never dereferenced. */
static void test_null_arguments(void **state)
{
    (void)state;
    fkc_buffer *b = NULL;
    fkc_stream *s = NULL;
    fkc_kernel *k;
    fkc_context *c;
    uint32_t n = 0;
    unsigned char bytes[16] = {0};
    const uint32_t word = 0x07230203u;
    size_t shape[1] = {16}, off[1] = {0};
    fkc_tensor t = rt_tensor(b, 0, FKC_DTYPE_U8, 1, shape);
    fkc_buffer_range r = {b, 0, 16};
    /* contexts and devices */
    assert_int_equal(fkc_enumerate_devices(NULL, 0, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_enumerate_devices(NULL, 4, &n), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_context_create(NULL, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_context_create_vulkan(NULL, NULL, NULL), FKC_ERR_INVALID_ARGUMENT);
    c = (fkc_context *)1;
    assert_int_equal(fkc_context_create_vulkan(NULL, NULL, &c), FKC_ERR_INVALID_ARGUMENT);
    assert_null(c);
    fkc_context_options_init(NULL);
    fkc_vulkan_device_init(NULL);
    fkc_vulkan_submit_init(NULL);
    assert_null(fkc_context_device(NULL));
    assert_int_equal(fkc_context_validation_count(NULL), 0);
    assert_string_equal(fkc_context_validation_last(NULL), "");
    assert_int_equal(fkc_context_vulkan(NULL, NULL, NULL, NULL, NULL, NULL),
                     FKC_ERR_INVALID_ARGUMENT);
    assert_false(fkc_context_vulkan_timeline(NULL));
    assert_false(fkc_context_vulkan_push_descriptors(NULL));
    fkc_context_destroy(NULL);
    /* buffers */
    assert_int_equal(fkc_buffer_create(NULL, 16, &b), FKC_ERR_INVALID_ARGUMENT);
    assert_null(b);
    RT_OK(fkc_buffer_create(ctx, 64, &b));
    t.buffer = b, r.buffer = b;
    assert_int_equal(fkc_buffer_create(ctx, 16, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_buffer_upload(NULL, 0, bytes, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_buffer_upload(b, 0, NULL, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_buffer_download(NULL, 0, bytes, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_buffer_download(b, 0, NULL, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_buffer_vulkan(NULL, NULL, NULL, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_buffer_size(NULL), 0);
    assert_null(fkc_buffer_context(NULL));
    assert_false(fkc_buffer_borrowed(NULL));
    fkc_buffer_destroy(NULL);
    assert_int_equal(fkc_tensor_bytes(NULL, NULL), FKC_ERR_INVALID_ARGUMENT);
    /* kernels */
    assert_int_equal(fkc_kernel_create(NULL, &word, 1, 1, 0, &k), FKC_ERR_INVALID_ARGUMENT);
    assert_null(k);
    assert_int_equal(fkc_kernel_create(ctx, NULL, 1, 1, 0, &k), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_kernel_create(ctx, &word, 1, 1, 0, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_kernel_cached(NULL, &word, 1, 1, 0, &k), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_kernel_cached(ctx, NULL, 1, 1, 0, &k), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_kernel_cached(ctx, &word, 1, 1, 0, NULL), FKC_ERR_INVALID_ARGUMENT);
    uint32_t ls[3] = {9, 9, 9};
    fkc_kernel_local_size(NULL, ls);
    assert_true(ls[0] == 0 && ls[1] == 0 && ls[2] == 0);
    fkc_kernel_local_size(NULL, NULL);
    fkc_kernel_destroy(NULL);
    /* streams */
    assert_int_equal(fkc_stream_create(NULL, &s), FKC_ERR_INVALID_ARGUMENT);
    assert_null(s);
    RT_OK(fkc_stream_create(ctx, &s));
    assert_int_equal(fkc_stream_create(ctx, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_wrap_vulkan(NULL, NULL, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_begin(NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_begin_vulkan(NULL, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_submit(NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_submit_async(NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_submit_vulkan(NULL, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_wait(NULL, 0), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_replay(NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_replay_async(NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_upload(NULL, b, 0, bytes, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_upload(s, NULL, 0, bytes, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_upload(s, b, 0, NULL, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_download(NULL, b, 0, bytes, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_download(s, NULL, 0, bytes, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_download(s, b, 0, NULL, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_copy(NULL, b, 0, b, 16, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_copy(s, NULL, 0, b, 16, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_copy(s, b, 0, NULL, 16, 16), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_advance(NULL, b, 0, 1), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_advance(s, NULL, 0, 1), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_dispatch(NULL, NULL, &r, 1, NULL, 0, 1, 1, 1),
                     FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_dispatch(s, NULL, &r, 1, NULL, 0, 1, 1, 1),
                     FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_vulkan_barrier_in(NULL, 1, 0), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_vulkan_barrier_out(NULL, 1, 0), FKC_ERR_INVALID_ARGUMENT);
    assert_true(fkc_stream_device_seconds(NULL) < 0);
    assert_int_equal(fkc_stream_op_count(NULL), 0);
    assert_int_equal(fkc_stream_command_count(NULL), 0);
    assert_int_equal(fkc_stream_barrier_count(NULL), 0);
    assert_null(fkc_stream_context(NULL));
    fkc_stream_destroy(NULL);
    /* ops */
    fkc_write_slice_params wp = {shape, 1, off, 1};
    fkc_write_slice_rotating_params rp = {shape, 1, 16};
    fkc_write_slice_rotating_extra rx = {b, 32, 0};
    assert_int_equal(fkc_write_slice(NULL, &t, &t, off), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice(s, NULL, &t, off), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice(s, &t, NULL, off), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_b1(NULL, &t, &t, &wp, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_b1(s, NULL, &t, &wp, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_rotating(NULL, &t, &t, 16, b, 32, 0),
                     FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_rotating(s, &t, NULL, 16, b, 32, 0), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_rotating_b1(NULL, &t, &t, &rp, &rx), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_rotating_b1(s, &t, &t, &rp, NULL), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_rotating_b1(s, &t, &t, NULL, &rx), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_sync(NULL, &t, &t, off), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_sync(ctx, NULL, &t, off), FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_rotating_sync(NULL, &t, &t, 16, b, 32, 0),
                     FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_write_slice_rotating_sync(ctx, &t, &t, 16, NULL, 32, 0),
                     FKC_ERR_INVALID_ARGUMENT);
    assert_int_equal(fkc_stream_op_count(s), 0); /* nothing was recorded */
    RT_OK(fkc_stream_submit(s));
    fkc_stream_destroy(s);
    fkc_buffer_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_devices, no_validation),
        cmocka_unit_test_teardown(test_select, no_validation),
        cmocka_unit_test_teardown(test_no_device, no_validation),
        cmocka_unit_test_teardown(test_wrapper_widths, no_validation),
        cmocka_unit_test_teardown(test_errors, no_validation),
        cmocka_unit_test_teardown(test_reference_messages, no_validation),
        cmocka_unit_test_teardown(test_same_verdicts, no_validation),
        cmocka_unit_test_teardown(test_stream_order, no_validation),
        cmocka_unit_test_teardown(test_sync_and_abandon, no_validation),
        cmocka_unit_test_teardown(test_big_copies, no_validation),
        cmocka_unit_test_teardown(test_null_arguments, no_validation),
    };
    return cmocka_run_group_tests_name("runtime API", tests, setup, teardown);
}
