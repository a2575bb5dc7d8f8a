/* test_faults.c — Vulkan calls that fail: the context is made with a wrapping
 * vkGetInstanceProcAddr (rt_vk_hooks.h), so the runtime's vkMapMemory, vkAllocateMemory and
 * vkQueueSubmit are this binary's functions, which pass through to the loader unless told to
 * fail; the runtime's failure paths then run on lavapipe. Each failure must give a specific
 * status and message, leave nothing half-made behind, and the same objects must work again
 * afterwards. Validation layer on: any message fails the test. */
#include <vulkan/vulkan.h>

#include "rt_harness.h"

static int fail_map, fail_alloc, fail_submit; /* fail the next N calls of each */

static VKAPI_ATTR VkResult VKAPI_CALL map_memory(VkDevice device, VkDeviceMemory memory,
                                                 VkDeviceSize offset, VkDeviceSize size,
                                                 VkMemoryMapFlags flags, void **data)
{
    if (fail_map > 0) {
        fail_map--;
        return VK_ERROR_MEMORY_MAP_FAILED;
    }
    return vkMapMemory(device, memory, offset, size, flags, data);
}

static VKAPI_ATTR VkResult VKAPI_CALL allocate_memory(VkDevice device,
                                                      const VkMemoryAllocateInfo *info,
                                                      const VkAllocationCallbacks *callbacks,
                                                      VkDeviceMemory *memory)
{
    if (fail_alloc > 0) {
        fail_alloc--;
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    return vkAllocateMemory(device, info, callbacks, memory);
}

static VKAPI_ATTR VkResult VKAPI_CALL queue_submit(VkQueue queue, uint32_t count,
                                                   const VkSubmitInfo *submits, VkFence fence)
{
    if (fail_submit > 0) {
        fail_submit--;
        return VK_ERROR_DEVICE_LOST;
    }
    return vkQueueSubmit(queue, count, submits, fence);
}

/* clang-format off */
#define RT_HOOKS(X) X(vkMapMemory, map_memory) X(vkAllocateMemory, allocate_memory)            \
    X(vkQueueSubmit, queue_submit)
/* clang-format on */
#include "rt_vk_hooks.h"

static fkc_context *ctx;

static int setup(void **state)
{
    (void)state;
    ctx = rt_context_hooks(0, FKC_COPY_AUTO, NULL, rt_gipa);
    return ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    fkc_context_destroy(ctx);
    return 0;
}

static int no_validation(void **state)
{
    (void)state;
    fail_map = fail_alloc = fail_submit = 0;
    rt_no_new_validation(ctx);
    return 0;
}

#define REFUSED(call, status, text)                                                                \
    do {                                                                                           \
        fkc_status got_ = (call);                                                                  \
        if (got_ != (status) || !strstr(fkc_last_error(), (text)))                                 \
            fail_msg("%s -> %s '%s', want %s with '%s'", #call, fkc_status_name(got_),             \
                     fkc_last_error(), fkc_status_name(status), (text));                           \
    } while (0)

/* The staging buffers are made (and mapped) on first use: a failed map must not leave a staging
 * buffer without a mapping behind, or the next copy writes through a NULL pointer. */
static void test_map_failure(void **state)
{
    (void)state;
    unsigned char a[100], b[100];
    rng_seed(11);
    fill_tricky(a, sizeof a, 4);
    fkc_buffer *buf;
    RT_OK(fkc_buffer_create(ctx, sizeof a, &buf));
    fail_map = 1;
    REFUSED(fkc_buffer_upload(buf, 0, a, sizeof a), FKC_ERR_VULKAN, "vkMapMemory failed");
    RT_OK(fkc_buffer_upload(buf, 0, a, sizeof a)); /* tries again, and works */
    fail_map = 1;
    REFUSED(fkc_buffer_download(buf, 0, b, sizeof b), FKC_ERR_VULKAN, "vkMapMemory failed");
    memset(b, 0, sizeof b);
    RT_OK(fkc_buffer_download(buf, 0, b, sizeof b));
    assert_memory_equal(a, b, sizeof a);
    fkc_buffer_destroy(buf);
}

/* Out of device memory: the buffer is refused as such, and the context keeps working. Three
 * allocations can fail: a large buffer's own, a new memory block's (the context keeps one
 * block; a second context with 64 KiB blocks needs a new one soon), and a staging chunk's. */
static void test_alloc_failure(void **state)
{
    (void)state;
    fkc_buffer *buf = (fkc_buffer *)1;
    fail_alloc = 1;
    REFUSED(fkc_buffer_create(ctx, 32u << 20, &buf), FKC_ERR_OUT_OF_MEMORY,
            "allocating buffer memory");
    assert_null(buf);
    RT_OK(fkc_buffer_create(ctx, 32u << 20, &buf));
    fkc_buffer_destroy(buf);

    fkc_test_hooks small = {.block_bytes = 64u << 10};
    fkc_context *c = rt_context_hooks(0, FKC_COPY_AUTO, &small, rt_gipa);
    fkc_buffer *a, *b = (fkc_buffer *)1;
    RT_OK(fkc_buffer_create(c, 10000, &a)); /* the first block */
    assert_int_equal(fkc_test_block_count(c), 1);
    unsigned char bytes[10000], back[10000];
    rng_seed(12);
    fill_tricky(bytes, sizeof bytes, 1);
    RT_OK(fkc_buffer_upload(a, 0, bytes, sizeof bytes));
    fkc_buffer *more[6];
    for (int i = 0; i < 6; i++) /* six more fill the block: 7 x 10000 > 64 KiB */
        RT_OK(fkc_buffer_create(c, 10000, &more[i]));
    assert_int_equal(fkc_test_block_count(c), 2);
    fail_alloc = 1;
    int refused = 0, kept = 0;
    fkc_buffer *extra[8];
    for (int i = 0; i < 8 && !refused; i++) { /* until a third block is needed */
        fkc_status st = fkc_buffer_create(c, 10000, &b);
        if (st == FKC_OK) {
            extra[kept++] = b;
            continue;
        }
        assert_int_equal(st, FKC_ERR_OUT_OF_MEMORY);
        assert_non_null(strstr(fkc_last_error(), "allocating buffer memory"));
        assert_null(b);
        refused = 1;
    }
    assert_true(refused);
    assert_int_equal(fail_alloc, 0); /* the refusal was the new block's allocation */
    assert_int_equal(fkc_test_block_count(c), 2);
    while (kept > 0)
        fkc_buffer_destroy(extra[--kept]);
    RT_OK(fkc_buffer_download(a, 0, back, sizeof back)); /* the first buffer is intact */
    assert_memory_equal(bytes, back, sizeof bytes);
    for (int i = 0; i < 6; i++)
        fkc_buffer_destroy(more[i]);
    fkc_buffer_destroy(a);
    rt_no_validation(c);
    fkc_context_destroy(c);

    /* A staging chunk: a fresh context has none yet. */
    c = rt_context_hooks(0, FKC_COPY_AUTO, NULL, rt_gipa);
    RT_OK(fkc_buffer_create(c, sizeof bytes, &a));
    fail_alloc = 1;
    REFUSED(fkc_buffer_upload(a, 0, bytes, sizeof bytes), FKC_ERR_OUT_OF_MEMORY,
            "allocating buffer memory");
    RT_OK(fkc_buffer_upload(a, 0, bytes, sizeof bytes));
    RT_OK(fkc_buffer_download(a, 0, back, sizeof back));
    assert_memory_equal(bytes, back, sizeof bytes);
    fkc_buffer_destroy(a);
    rt_no_validation(c);
    fkc_context_destroy(c);
}

/* A synchronous copy whose submit the queue refuses: the status says so, the context's pooled
 * stream is given back and the next copy works. */
static void test_copy_submit_failure(void **state)
{
    (void)state;
    unsigned char a[300], b[300];
    rng_seed(13);
    fill_tricky(a, sizeof a, 2);
    fkc_buffer *buf;
    RT_OK(fkc_buffer_create(ctx, sizeof a, &buf));
    fail_submit = 1;
    REFUSED(fkc_buffer_upload(buf, 0, a, sizeof a), FKC_ERR_VULKAN, "vkQueueSubmit failed");
    RT_OK(fkc_buffer_upload(buf, 0, a, sizeof a));
    fail_submit = 1;
    memset(b, 0, sizeof b);
    REFUSED(fkc_buffer_download(buf, 0, b, sizeof b), FKC_ERR_VULKAN, "vkQueueSubmit failed");
    assert_int_equal(b[0] | b[100] | b[299], 0); /* nothing was written */
    RT_OK(fkc_buffer_download(buf, 0, b, sizeof b));
    assert_memory_equal(a, b, sizeof a);
    fkc_buffer_destroy(buf);
}

/* A submit the queue refuses: the status says so, and the same stream records and runs the next
 * ops correctly. */
static void test_submit_failure(void **state)
{
    (void)state;
    rt_buf D, S;
    rt_buf_make(ctx, &D, 96);
    rt_buf_make(ctx, &S, 64);
    const size_t dst[2] = {4, 6}, src[2] = {2, 3}, off[2] = {1, 2};
    fkc_tensor st = rt_tensor(S.dev, 0, FKC_DTYPE_F32, 2, src);
    fkc_tensor ot = rt_tensor(D.dev, 0, FKC_DTYPE_F32, 2, dst);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    fail_submit = 1;
    REFUSED(fkc_stream_submit(s), FKC_ERR_VULKAN, "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST");
    rt_buf_check(&D, "nothing ran");
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    RT_OK(fkc_stream_submit(s));
    fkc_ref_write_slice(D.host, dst, 2, S.host, src, off, 4);
    rt_buf_check(&D, "the stream works again");
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_map_failure, no_validation),
        cmocka_unit_test_teardown(test_alloc_failure, no_validation),
        cmocka_unit_test_teardown(test_submit_failure, no_validation),
        cmocka_unit_test_teardown(test_copy_submit_failure, no_validation),
    };
    return cmocka_run_group_tests_name("runtime faults", tests, setup, teardown);
}
