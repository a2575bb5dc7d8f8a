/* test_async.c — asynchronous submission on fkc's own streams: fkc_stream_submit_async returns
 * before the work completes and fkc_stream_wait waits for it with a timeout (FKC_ERR_TIMEOUT on
 * work held back by a timeline semaphore the test signals later); recorded uploads and
 * downloads ordered with the ops (a download's host memory written only when the wait
 * completes, a discarded one never); work of several streams ordered by submission; recording
 * on a stream still in flight, and destroying it, wait for it first; a context destroyed before
 * its buffers and streams lives on until they go. Validation layer (and synchronization
 * validation) on: any message fails. */
#include <vulkan/vulkan.h>

#include "fkc/fkc_vulkan.h"
#include "rt_harness.h"

RT_SHARED_CONTEXT(ctx) /* shared by the tests of the group */

/* Upload, write_slice, download in one stream, submitted asynchronously: the download's host
 * memory is untouched until the wait, then equals the reference; device time is known then. */
static void test_submit_async(void **state)
{
    (void)state;
    rng_seed(51);
    rt_buf D, S;
    rt_buf_make(ctx, &D, 8192);
    rt_buf_make(ctx, &S, 3000);
    unsigned char fresh[3000], got[8192];
    fill_tricky(fresh, sizeof fresh, 4);
    const size_t dst[2] = {20, 100}, src[2] = {7, 60}, off[2] = {9, 33};
    fkc_tensor st = rt_tensor(S.dev, 16, FKC_DTYPE_F32, 2, src);
    fkc_tensor ot = rt_tensor(D.dev, 0, FKC_DTYPE_U32, 2, dst);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_stream_upload(s, S.dev, 0, fresh, sizeof fresh)); /* S = fresh, then the op */
    memcpy(S.host, fresh, sizeof fresh);
    memset(fresh, 0, sizeof fresh); /* copied when recorded: the caller may reuse it at once */
    st.dtype = FKC_DTYPE_U32;
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    fkc_ref_write_slice(D.host, dst, 2, S.host + 16, src, off, 4);
    memset(got, 0x5a, sizeof got);
    RT_OK(fkc_stream_download(s, D.dev, 0, got, sizeof got));
    assert_int_equal(fkc_stream_op_count(s), 3);
    RT_OK(fkc_stream_submit_async(s));
    for (size_t i = 0; i < sizeof got; i++) /* written only by the wait */
        assert_int_equal(got[i], 0x5a);
    RT_OK(fkc_stream_wait(s, UINT64_MAX));
    assert_memory_equal(got, D.host, sizeof got);
    assert_true(fkc_stream_device_seconds(s) >= 0);
    RT_OK(fkc_stream_wait(s, 0)); /* nothing in flight: at once */
    rt_buf_check(&D, "async write_slice");
    rt_buf_check(&S, "recorded upload");
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
}

/* A stream held back by a timeline semaphore on the context's own device: the wait times out
 * (with a zero and a non-zero timeout) until the host signals it, then completes. */
static void test_wait_timeout(void **state)
{
    (void)state;
    assert_true(fkc_context_vulkan_timeline(ctx));
    VkDevice dev;
    RT_OK(fkc_context_vulkan(ctx, NULL, NULL, &dev, NULL, NULL));
    VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                    .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
    VkSemaphore tl;
    assert_int_equal(vkCreateSemaphore(dev, &si, NULL, &tl), VK_SUCCESS);
    rng_seed(52);
    rt_buf D, S;
    rt_buf_make(ctx, &D, 256);
    rt_buf_make(ctx, &S, 256);
    unsigned char got[256];
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_stream_copy(s, D.dev, 10, S.dev, 100, 50));
    memcpy(D.host + 10, S.host + 100, 50);
    RT_OK(fkc_stream_download(s, D.dev, 0, got, sizeof got));
    fkc_vulkan_semaphore w = {tl, 5, VK_PIPELINE_STAGE_TRANSFER_BIT};
    fkc_vulkan_submit x;
    fkc_vulkan_submit_init(&x);
    x.wait = &w;
    x.wait_count = 1;
    RT_OK(fkc_stream_submit_vulkan(s, &x));
    assert_int_equal(fkc_stream_wait(s, 0), FKC_ERR_TIMEOUT);
    assert_int_equal(fkc_stream_wait(s, 2000000), FKC_ERR_TIMEOUT);
    assert_non_null(strstr(fkc_last_error(), "still running after 2000000 ns"));
    VkSemaphoreSignalInfo sg = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = tl, .value = 5};
    assert_int_equal(vkSignalSemaphore(dev, &sg), VK_SUCCESS);
    RT_OK(fkc_stream_wait(s, UINT64_MAX));
    assert_memory_equal(got, D.host, sizeof got);
    fkc_stream_destroy(s);
    vkDestroySemaphore(dev, tl, NULL);
    rt_buf_free(&D);
    rt_buf_free(&S);
}

/* Two streams, submitted asynchronously one after the other: the second reads what the first
 * wrote (submission order); a synchronous download after both sees the second's result; a
 * synchronous upload after an asynchronous op that reads the buffer does not overtake it. */
static void test_order_between_streams(void **state)
{
    (void)state;
    rng_seed(53);
    rt_buf A, B, C;
    rt_buf_make(ctx, &A, 4096);
    rt_buf_make(ctx, &B, 4096);
    rt_buf_make(ctx, &C, 4096);
    fkc_stream *s1, *s2;
    RT_OK(fkc_stream_create(ctx, &s1));
    RT_OK(fkc_stream_create(ctx, &s2));
    const size_t whole[1] = {4000}, part[1] = {1500}, o1[1] = {100}, o2[1] = {2000};
    for (int round = 0; round < 3; round++) {
        fkc_tensor a = rt_tensor(A.dev, 0, FKC_DTYPE_U8, 1, part);
        fkc_tensor b = rt_tensor(B.dev, 0, FKC_DTYPE_U8, 1, whole);
        RT_OK(fkc_write_slice(s1, &a, &b, o1)); /* B[100..1600) = A */
        fkc_ref_write_slice(B.host, whole, 1, A.host, part, o1, 1);
        fkc_tensor b2 = rt_tensor(B.dev, 50, FKC_DTYPE_U8, 1, part);
        fkc_tensor c = rt_tensor(C.dev, 0, FKC_DTYPE_U8, 1, whole);
        RT_OK(fkc_write_slice(s2, &b2, &c, o2)); /* C[2000..3500) = B[50..1550) */
        fkc_ref_write_slice(C.host, whole, 1, B.host + 50, part, o2, 1);
        RT_OK(fkc_stream_submit_async(s1));
        RT_OK(fkc_stream_submit_async(s2));
        fill_tricky(A.host, A.size, 1); /* a new A: must not reach the op that read the old one */
        RT_OK(fkc_buffer_upload(A.dev, 0, A.host, A.size));
        rt_buf_check(&C, "the second stream read the first one's result");
        rt_buf_check(&B, "the first stream's result");
        RT_OK(fkc_stream_wait(s1, UINT64_MAX));
        RT_OK(fkc_stream_wait(s2, UINT64_MAX));
    }
    fkc_stream_destroy(s1);
    fkc_stream_destroy(s2);
    rt_buf_free(&A);
    rt_buf_free(&B);
    rt_buf_free(&C);
}

/* Recording on a stream in flight waits for it first (the stream has one command buffer);
 * begin discards a recorded download (its memory is never written); destroying a stream in
 * flight waits for it; downloads and uploads larger than a staging chunk. */
static void test_in_flight(void **state)
{
    (void)state;
    rng_seed(54);
    size_t n = (3u << 20) + 5; /* over a 1 MiB staging chunk, so several chunks */
    rt_buf D;
    rt_buf_make(ctx, &D, n);
    unsigned char *up = malloc(n), *got = malloc(n), *never = malloc(64);
    assert_non_null(up);
    assert_non_null(got);
    assert_non_null(never);
    fill_tricky(up, n, 8);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_stream_upload(s, D.dev, 0, up, 1000));
    RT_OK(fkc_stream_upload(s, D.dev, 1000, up + 1000, n - 1000));
    memcpy(D.host, up, n);
    RT_OK(fkc_stream_submit_async(s));
    RT_OK(fkc_stream_download(s, D.dev, 0, got, n)); /* waits for the upload first */
    RT_OK(fkc_stream_submit(s));
    assert_memory_equal(got, up, n);
    memset(never, 0x77, 64);
    RT_OK(fkc_stream_download(s, D.dev, 0, never, 64));
    RT_OK(fkc_stream_begin(s)); /* discards it */
    RT_OK(fkc_stream_submit(s));
    for (int i = 0; i < 64; i++)
        assert_int_equal(never[i], 0x77);
    RT_OK(fkc_stream_copy(s, D.dev, 0, D.dev, 4096, 4096));
    memcpy(D.host, D.host + 4096, 4096);
    RT_OK(fkc_stream_submit_async(s));
    fkc_stream_destroy(s); /* waits */
    rt_buf_check(&D, "uploads, a copy, destroyed in flight");
    free(up);
    free(got);
    free(never);
    rt_buf_free(&D);
}

static int late_messages;

static void count_message(void *user, const char *message)
{
    (void)user;
    (void)message;
    late_messages++;
}

/* fkc_context_destroy first: the buffers and the stream keep the context alive and working;
 * the last one destroyed frees it (validation on: a device destroyed under live objects would
 * be reported through the callback). */
static void test_context_outlived(void **state)
{
    (void)state;
    fkc_context_options o;
    fkc_context_options_init(&o);
    o.flags = FKC_CONTEXT_VALIDATION;
    o.on_validation = count_message;
    fkc_context *c;
    RT_OK(fkc_context_create(&o, &c));
    fkc_buffer *a, *b;
    RT_OK(fkc_buffer_create(c, 64, &a));
    RT_OK(fkc_buffer_create(c, 64, &b));
    fkc_stream *s;
    RT_OK(fkc_stream_create(c, &s));
    fkc_context_destroy(c);
    unsigned char x[64], y[64];
    rng_seed(55);
    fill_tricky(x, 64, 1);
    RT_OK(fkc_buffer_upload(a, 0, x, 64));
    RT_OK(fkc_stream_copy(s, b, 0, a, 0, 64));
    RT_OK(fkc_stream_download(s, b, 0, y, 64));
    RT_OK(fkc_stream_submit(s));
    assert_memory_equal(x, y, 64);
    fkc_stream_destroy(s);
    fkc_buffer_destroy(a);
    fkc_buffer_destroy(b); /* the last one: the context goes with it */
    assert_int_equal(late_messages, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_submit_async, no_validation),
        cmocka_unit_test_teardown(test_wait_timeout, no_validation),
        cmocka_unit_test_teardown(test_order_between_streams, no_validation),
        cmocka_unit_test_teardown(test_in_flight, no_validation),
        cmocka_unit_test(test_context_outlived),
    };
    return cmocka_run_group_tests_name("asynchronous streams", tests, setup, teardown);
}
