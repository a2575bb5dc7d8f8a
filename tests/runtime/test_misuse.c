/* test_misuse.c — issue 23 item 1: misuse refused, never corrupting. A wrapped range past the
 * end of the host's VkBuffer or at a misaligned offset is refused (FKC_ERR_OUT_OF_BOUNDS /
 * FKC_ERR_INVALID_ARGUMENT) and the last valid range writes only its own bytes; a stream entered
 * by a second thread while a first is inside a call refuses every call with FKC_ERR_STATE and
 * records nothing (made deterministic by holding the first thread inside vkCmdCopyBuffer), and
 * two threads hammering one stream never crash it; FKC_CONTEXT_DEBUG_LIFETIME makes destroying
 * fkc objects that a host's pending submission uses wait for it (no
 * VUID-vkDestroyPipeline-pipeline-00765); the validation count holds the layer's warnings and
 * errors, not the loader's general messages. Validation and synchronization validation on. */
#include <pthread.h>
#include <stdatomic.h>

#include <vulkan/vulkan.h>

#include "rt_harness.h"
#include "rt_host.h"

#include "fkc/fkc_kernels.h"
#include "fkc/fkc_vulkan.h"

static const uint32_t axpy_spv[] =
#include "axpy.spv.inc"
    ;

typedef struct axpy_push {
    uint32_t n, mul, add, pad;
} axpy_push;

#define REFUSED(call, status, text)                                                                \
    do {                                                                                           \
        fkc_status got_ = (call);                                                                  \
        if (got_ != (status) || !strstr(fkc_last_error(), (text)))                                 \
            fail_msg("%s -> %s '%s', want %s with '%s'", #call, fkc_status_name(got_),             \
                     fkc_last_error(), fkc_status_name(status), (text));                           \
    } while (0)

/* ---- a thread held inside vkCmdCopyBuffer ------------------------------------------------ */

static atomic_int hold_copy; /* the next vkCmdCopyBuffer waits until released */
static pthread_mutex_t hold_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cv = PTHREAD_COND_INITIALIZER;
static int held, released;

static VKAPI_ATTR void VKAPI_CALL cmd_copy_buffer(VkCommandBuffer cmd, VkBuffer src, VkBuffer dst,
                                                  uint32_t n, const VkBufferCopy *regions)
{
    if (atomic_exchange(&hold_copy, 0)) {
        pthread_mutex_lock(&hold_m);
        held = 1;
        pthread_cond_broadcast(&hold_cv);
        while (!released)
            pthread_cond_wait(&hold_cv, &hold_m);
        pthread_mutex_unlock(&hold_m);
    }
    vkCmdCopyBuffer(cmd, src, dst, n, regions);
}

/* clang-format off */
#define RT_HOOKS(X) X(vkCmdCopyBuffer, cmd_copy_buffer)
/* clang-format on */
#include "rt_vk_hooks.h"

/* ---- wrapped ranges ------------------------------------------------------------------------ */

static void test_wrap_range(void **state)
{
    (void)state;
    rt_host h;
    rt_host_open(&h, true, false);
    fkc_vulkan_device d = rt_host_device(&h);
    fkc_context *c;
    RT_OK(fkc_context_create_vulkan(&d, NULL, &c));
    uint64_t a = fkc_vulkan_buffer_alignment(c);
    rt_hbuf H, H2;
    rt_hbuf_make(&h, &H, 4096);
    rt_hbuf_make(&h, &H2, 4100); /* a size the driver may pad */
    fkc_buffer *b = (fkc_buffer *)1;
    const VkBufferUsageFlags u = FKC_VULKAN_BUFFER_USAGE;
    /* the two ranges: past the end of a 4,096-byte buffer, and just after it */
    REFUSED(fkc_buffer_wrap_vulkan(c, H.buffer, 0, 8192, u, &b), FKC_ERR_OUT_OF_BOUNDS,
            "bytes [0, 8192) are outside the 4096-byte VkBuffer");
    assert_null(b);
    REFUSED(fkc_buffer_wrap_vulkan(c, H.buffer, 4096, 16, u, &b), FKC_ERR_OUT_OF_BOUNDS,
            "bytes [4096, 4112) are outside");
    REFUSED(fkc_buffer_wrap_vulkan(c, H.buffer, 4096 - a, 2 * a, u, &b), FKC_ERR_OUT_OF_BOUNDS,
            "outside");
    REFUSED(fkc_buffer_wrap_vulkan(c, H.buffer, (uint64_t)1 << 63, 16, u, &b),
            FKC_ERR_OUT_OF_BOUNDS, "outside");
    REFUSED(fkc_buffer_wrap_vulkan(c, H.buffer, a / 2, 16, u, &b), FKC_ERR_INVALID_ARGUMENT,
            "is not a multiple of");
    /* the host states the size: checked against exactly that */
    REFUSED(fkc_buffer_wrap_vulkan_sized(c, H2.buffer, 4100, 0, 4112, u, &b), FKC_ERR_OUT_OF_BOUNDS,
            "bytes [0, 4112) are outside the 4100-byte VkBuffer");
    REFUSED(fkc_buffer_wrap_vulkan_sized(c, H.buffer, 4096, 4096, 16, u, &b), FKC_ERR_OUT_OF_BOUNDS,
            "outside");
    REFUSED(fkc_buffer_wrap_vulkan_sized(c, H.buffer, 4096, 8, 16, u, &b), FKC_ERR_INVALID_ARGUMENT,
            "is not a multiple of");
    REFUSED(fkc_buffer_wrap_vulkan_sized(c, VK_NULL_HANDLE, 4096, 0, 16, u, &b),
            FKC_ERR_INVALID_ARGUMENT, "the VkBuffer is NULL");
    REFUSED(fkc_buffer_wrap_vulkan_sized(NULL, H.buffer, 4096, 0, 16, u, &b),
            FKC_ERR_INVALID_ARGUMENT, "the context is NULL");
    REFUSED(fkc_buffer_wrap_vulkan_sized(c, H.buffer, 4096, 0, 16, u, NULL),
            FKC_ERR_INVALID_ARGUMENT, "out is NULL");
    assert_null(b);
    RT_OK(fkc_buffer_wrap_vulkan_sized(c, H2.buffer, 4100, 0, 4096, u, &b));
    fkc_buffer_destroy(b);
    /* the last valid range: a write into it changes its bytes and no others */
    memset(H.map, 0x5a, 4096);
    RT_OK(fkc_buffer_wrap_vulkan(c, H.buffer, 4096 - 256, 256, u, &b));
    fkc_buffer *S;
    RT_OK(fkc_buffer_create(c, 256, &S));
    unsigned char src[256];
    for (int i = 0; i < 256; i++)
        src[i] = (unsigned char)(i * 13 + 7);
    RT_OK(fkc_buffer_upload(S, 0, src, 256));
    size_t shape[1] = {256}, off[1] = {0};
    fkc_tensor st = rt_tensor(S, 0, FKC_DTYPE_U8, 1, shape),
               ot = rt_tensor(b, 0, FKC_DTYPE_U8, 1, shape);
    RT_OK(fkc_write_slice_sync(c, &st, &ot, off));
    for (int i = 0; i < 4096 - 256; i++)
        if (H.map[i] != 0x5a)
            fail_msg("byte %d before the wrapped range changed: 0x%02x", i, H.map[i]);
    assert_memory_equal(H.map + 4096 - 256, src, 256);
    fkc_buffer_destroy(S);
    fkc_buffer_destroy(b);
    fkc_context_destroy(c);
    rt_hbuf_free(&h, &H);
    rt_hbuf_free(&h, &H2);
    rt_host_quiet(&h, "wrapped ranges");
    rt_host_close(&h);
}

/* ---- a second thread on one stream -------------------------------------------------------- */

typedef struct holder {
    fkc_stream *s;
    fkc_buffer *dst, *src;
    fkc_status st;
} holder;

static void *hold_inside(void *arg)
{
    holder *x = arg;
    x->st = fkc_stream_copy(x->s, x->dst, 0, x->src, 0, 256);
    return NULL;
}

/* While one thread is inside fkc_stream_copy (held in vkCmdCopyBuffer), every call another
 * thread makes on the same stream is FKC_ERR_STATE and records nothing; afterwards the stream
 * is the first thread's again and runs exactly its copy. */
static void test_second_thread(void **state)
{
    (void)state;
    fkc_context *ctx = rt_context_hooks(0, FKC_COPY_AUTO, NULL, rt_gipa);
    rt_buf S, D, P;
    rt_buf_make(ctx, &S, 4096);
    rt_buf_make(ctx, &D, 4096);
    rt_buf_make(ctx, &P, 16);
    memset(P.host, 0, 16);
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, 16));
    fkc_kernel *k;
    RT_OK(fkc_kernel_create(ctx, axpy_spv, sizeof axpy_spv / 4, 2, sizeof(axpy_push), &k));
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    held = released = 0;
    atomic_store(&hold_copy, 1);
    holder x = {s, D.dev, S.dev, FKC_ERR_VULKAN};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, hold_inside, &x), 0);
    pthread_mutex_lock(&hold_m);
    while (!held)
        pthread_cond_wait(&hold_cv, &hold_m);
    pthread_mutex_unlock(&hold_m);
    /* the first thread is inside a call on s: each call here is refused */
    const char *busy = "another thread is inside a call on this stream";
    unsigned char bytes[64] = {0};
    size_t sh[2] = {4, 16}, dh[2] = {8, 64}, off[2] = {1, 16};
    fkc_tensor st = rt_tensor(S.dev, 1024, FKC_DTYPE_U8, 2, sh);
    fkc_tensor ot = rt_tensor(D.dev, 1024, FKC_DTYPE_U8, 2, dh);
    fkc_write_slice_params wp = {dh, 2, off, 2};
    fkc_write_slice_rotating_params rp = {dh, 2, 8};
    fkc_write_slice_rotating_extra rx = {P.dev, 0, 0};
    axpy_push pc = {16, 3, 1, 0};
    fkc_buffer_range r[2] = {{S.dev, 2048, 64}, {D.dev, 2048, 64}};
    fkc_vulkan_submit vs;
    fkc_vulkan_submit_init(&vs);
    REFUSED(fkc_stream_copy(s, D.dev, 512, S.dev, 512, 64), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_upload(s, D.dev, 512, bytes, 64), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_download(s, D.dev, 512, bytes, 64), FKC_ERR_STATE, busy);
    REFUSED(fkc_write_slice(s, &st, &ot, off), FKC_ERR_STATE, busy);
    REFUSED(fkc_write_slice_b1(s, &st, &ot, &wp, NULL), FKC_ERR_STATE, busy);
    REFUSED(fkc_write_slice_rotating(s, &st, &ot, 8, P.dev, 0, 0), FKC_ERR_STATE, busy);
    REFUSED(fkc_write_slice_rotating_b1(s, &st, &ot, &rp, &rx), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_advance(s, P.dev, 0, 1), FKC_ERR_STATE, busy);
    REFUSED(fkc_set_rows(s, &st, &st, &ot, 0, NULL, 0), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_dispatch(s, k, r, 2, &pc, sizeof pc, 1, 1, 1), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_vulkan_barrier_in(s, VK_PIPELINE_STAGE_TRANSFER_BIT, 0), FKC_ERR_STATE,
            busy);
    REFUSED(fkc_stream_vulkan_barrier_out(s, VK_PIPELINE_STAGE_TRANSFER_BIT, 0), FKC_ERR_STATE,
            busy);
    REFUSED(fkc_stream_begin(s), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_submit(s), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_submit_async(s), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_submit_vulkan(s, &vs), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_wait(s, 0), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_replay(s), FKC_ERR_STATE, busy);
    REFUSED(fkc_stream_replay_async(s), FKC_ERR_STATE, busy);
    pthread_mutex_lock(&hold_m);
    released = 1;
    pthread_cond_broadcast(&hold_cv);
    pthread_mutex_unlock(&hold_m);
    assert_int_equal(pthread_join(t, NULL), 0);
    if (x.st != FKC_OK)
        fail_msg("the first thread's copy: %s", fkc_status_name(x.st));
    /* the stream is free again: only the first thread's copy was recorded */
    assert_int_equal(fkc_stream_op_count(s), 1);
    RT_OK(fkc_stream_submit(s));
    memcpy(D.host, S.host, 256);
    rt_buf_check(&D, "after the second thread was refused");
    rt_buf_check(&P, "position untouched");
    fkc_stream_destroy(s);
    fkc_kernel_destroy(k);
    rt_buf_free(&S);
    rt_buf_free(&D);
    rt_buf_free(&P);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

/* Two threads recording small writes into one stream at once (the crash: a double free
 * in table_reserve under fkc_stream_fuse): each call is recorded whole or refused, never both
 * inside; the writes that were accepted are exactly what runs. */
enum { HAMMER = 300 };

typedef struct hammer {
    fkc_stream *s;
    rt_buf *S, *D;
    int id;
    fkc_status st[HAMMER];
} hammer;

static void *hammer_work(void *arg)
{
    hammer *w = arg;
    for (int i = 0; i < HAMMER; i++) {
        size_t sh[1] = {16}, dh[1] = {16 * HAMMER}, off[1] = {16 * (size_t)i};
        fkc_tensor st = rt_tensor(w->S->dev, 16 * (size_t)(i % 64), FKC_DTYPE_U8, 1, sh);
        fkc_tensor ot = rt_tensor(w->D->dev, (size_t)w->id * 16 * HAMMER, FKC_DTYPE_U8, 1, dh);
        w->st[i] = fkc_write_slice(w->s, &st, &ot, off);
    }
    return NULL;
}

static void test_two_threads_hammer(void **state)
{
    (void)state;
    fkc_context *ctx = rt_context(0, FKC_COPY_AUTO, 0, 0);
    rt_buf S, D;
    rt_buf_make(ctx, &S, 1024);
    rt_buf_make(ctx, &D, 2 * 16 * HAMMER);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    static hammer w[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        w[i] = (hammer){.s = s, .S = &S, .D = &D, .id = i};
        assert_int_equal(pthread_create(&t[i], NULL, hammer_work, &w[i]), 0);
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    uint32_t accepted = 0;
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < HAMMER; k++) {
            if (w[i].st[k] != FKC_OK && w[i].st[k] != FKC_ERR_STATE)
                fail_msg("thread %d, write %d: %s", i, k, fkc_status_name(w[i].st[k]));
            if (w[i].st[k] == FKC_OK) {
                memcpy(D.host + (size_t)i * 16 * HAMMER + 16 * (size_t)k, S.host + 16 * (k % 64),
                       16);
                accepted++;
            }
        }
    assert_int_equal(fkc_stream_op_count(s), accepted);
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&D, "two threads on one stream");
    fkc_stream_destroy(s);
    rt_buf_free(&S);
    rt_buf_free(&D);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

/* ---- destroying what a host's pending submission uses ------------------------------------- */

/* The host records a long fill of a 256 MiB buffer of its own, then a user kernel and a
 * write_slice through fkc, into its command buffer, submits it and at once destroys the kernel,
 * the stream, the buffers and the context while the submission is pending. With
 * FKC_CONTEXT_DEBUG_LIFETIME the first destroy waits until the work has completed (the host's
 * fence is signalled when it returns), the layer sees no destroy of an object in use, and the
 * results are right. (An earlier version held the submission behind a timeline semaphore that
 * a thread signalled later; the validation layer 1.3.239 then timed out on its own state now
 * and then while vkDeviceWaitIdle waited, "most likely a validation bug".) */
static void test_destroy_pending_debug(void **state)
{
    (void)state;
    rt_host h;
    rt_host_open(&h, false, true);
    fkc_vulkan_device d = rt_host_device(&h);
    fkc_context_options o;
    fkc_context_options_init(&o);
    o.flags = FKC_CONTEXT_DEBUG_LIFETIME;
    fkc_context *c;
    RT_OK(fkc_context_create_vulkan(&d, &o, &c));
    fkc_kernel *k;
    RT_OK(fkc_kernel_create(c, axpy_spv, sizeof axpy_spv / 4, 2, sizeof(axpy_push), &k));
    fkc_buffer *S, *D;
    RT_OK(fkc_buffer_create(c, 1024, &S));
    RT_OK(fkc_buffer_create(c, 1024, &D));
    unsigned char sb[1024], db[1024], got[1024];
    for (int i = 0; i < 1024; i++)
        sb[i] = (unsigned char)(i * 31 + 5), db[i] = (unsigned char)(i ^ 0x3c);
    RT_OK(fkc_buffer_upload(S, 0, sb, 1024));
    RT_OK(fkc_buffer_upload(D, 0, db, 1024));
    rt_hbuf big;
    rt_hbuf_make(&h, &big, 256u << 20);
    rt_host_begin(&h);
    vkCmdFillBuffer(h.cmd, big.buffer, 0, VK_WHOLE_SIZE, 0x5a5a5a5au); /* keeps the queue busy */
    fkc_stream *s;
    RT_OK(fkc_stream_wrap_vulkan(c, h.cmd, &s));
    axpy_push pc = {64, 7, 9, 0};
    fkc_buffer_range r[2] = {{S, 0, 256}, {D, 0, 256}};
    RT_OK(fkc_stream_dispatch(s, k, r, 2, &pc, sizeof pc, 1, 1, 1));
    size_t sh[1] = {100}, dh[1] = {512}, off[1] = {3};
    fkc_tensor st = rt_tensor(S, 512, FKC_DTYPE_U8, 1, sh),
               ot = rt_tensor(D, 512, FKC_DTYPE_U8, 1, dh);
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    RT_OK(fkc_stream_vulkan_barrier_out(s, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                                        VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT));
    RT_VK(vkEndCommandBuffer(h.cmd));
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &h.cmd};
    RT_VK(vkQueueSubmit(h.queue, 1, &si, h.fence));
    /* pending: the kernel's pipeline is in use until the fill and the dispatch have run */
    fkc_kernel_destroy(k);
    assert_int_equal(vkGetFenceStatus(h.dev, h.fence), VK_SUCCESS);
    fkc_stream_destroy(s);
    RT_OK(fkc_buffer_download(D, 0, got, 1024));
    for (uint32_t i = 0; i < pc.n; i++) {
        uint32_t x;
        memcpy(&x, sb + 4 * i, 4);
        x = x * pc.mul + pc.add;
        memcpy(db + 4 * i, &x, 4);
    }
    memcpy(db + 512 + 3, sb + 512, 100);
    assert_memory_equal(got, db, 1024);
    fkc_buffer_destroy(S);
    fkc_buffer_destroy(D);
    fkc_context_destroy(c);
    RT_VK(vkResetFences(h.dev, 1, &h.fence));
    assert_int_equal(big.map[0] | big.map[(256u << 20) - 1], 0x5a);
    rt_hbuf_free(&h, &big);
    rt_host_quiet(&h, "destroyed while pending, debug mode");
    rt_host_close(&h);
}

/* ---- more semaphores than a submission takes -------------------------------------------- */

/* fkc_stream_submit_vulkan takes at most 32 wait and 32 signal semaphores: 33 of either alone
 * is FKC_ERR_INVALID_ARGUMENT before any Vulkan call (the handles are never used; a mutation
 * sample found "33 waits, no signal" accepted, which overflows the submission's arrays). */
static void test_too_many_semaphores(void **state)
{
    (void)state;
    fkc_context *ctx = rt_context(0, FKC_COPY_AUTO, 0, 0);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_vulkan_semaphore many[33];
    for (int i = 0; i < 33; i++)
        many[i] = (fkc_vulkan_semaphore){(VkSemaphore)(uintptr_t)(0x1000 + 16 * i), 0, 0};
    fkc_vulkan_submit x;
    fkc_vulkan_submit_init(&x);
    x.wait = many;
    x.wait_count = 33;
    REFUSED(fkc_stream_submit_vulkan(s, &x), FKC_ERR_INVALID_ARGUMENT,
            "more than 32 wait or signal semaphores");
    fkc_vulkan_submit_init(&x);
    x.signal = many;
    x.signal_count = 33;
    REFUSED(fkc_stream_submit_vulkan(s, &x), FKC_ERR_INVALID_ARGUMENT,
            "more than 32 wait or signal semaphores");
    RT_OK(fkc_stream_wait(s, 0)); /* nothing went in flight */
    fkc_stream_destroy(s);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

/* ---- what the validation count counts ---------------------------------------------------- */

/* The validation layer's errors are counted (a VkBufferCreateInfo without usage bits, made on
 * the context's own device); the loader's general messages are not (this test, like all of
 * them, also runs with VK_INSTANCE_LAYERS set: make check-runtime-env). */
static void test_validation_counted(void **state)
{
    (void)state;
    fkc_context *ctx = rt_context(0, FKC_COPY_AUTO, 0, 0);
    assert_int_equal(fkc_context_validation_count(ctx), 0);
    VkDevice dev;
    RT_OK(fkc_context_vulkan(ctx, NULL, NULL, &dev, NULL, NULL));
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 64};
    VkBuffer b = VK_NULL_HANDLE;
    VkResult r = vkCreateBuffer(dev, &bi, NULL, &b);
    if (r == VK_SUCCESS)
        vkDestroyBuffer(dev, b, NULL);
    if (fkc_context_validation_count(ctx) == 0)
        fail_msg("a VkBufferCreateInfo with usage 0 went uncounted");
    assert_non_null(strstr(fkc_context_validation_last(ctx), "usage"));
    fkc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap_range),          cmocka_unit_test(test_second_thread),
        cmocka_unit_test(test_two_threads_hammer),  cmocka_unit_test(test_destroy_pending_debug),
        cmocka_unit_test(test_too_many_semaphores), cmocka_unit_test(test_validation_counted),
    };
    return cmocka_run_group_tests_name("misuse", tests, NULL, NULL);
}
