/* test_faults.c — Vulkan calls that fail: this binary defines vkMapMemory, vkAllocateMemory and
 * vkQueueSubmit itself (the static libfkc.a links to these definitions, which pass through to the
 * loader unless told to fail), so the runtime's failure paths run on lavapipe. Each failure must
 * give a specific status and message, leave nothing half-made behind, and the same objects must
 * work again afterwards. Validation layer on: any message fails the test. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>

#include <vulkan/vulkan.h>

#include "rt_harness.h"

static int fail_map, fail_alloc, fail_submit; /* fail the next N calls of each */

/* Stores the loader's definition of name into *fn (a function pointer; copied, as ISO C has no
 * conversion from dlsym's object pointer). */
static void next_symbol(const char *name, void *fn)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f)
        fail_msg("dlsym(RTLD_NEXT, %s) found nothing", name);
    memcpy(fn, &f, sizeof f);
}

VKAPI_ATTR VkResult VKAPI_CALL vkMapMemory(VkDevice device, VkDeviceMemory memory,
                                           VkDeviceSize offset, VkDeviceSize size,
                                           VkMemoryMapFlags flags, void **data)
{
    if (fail_map > 0) {
        fail_map--;
        return VK_ERROR_MEMORY_MAP_FAILED;
    }
    PFN_vkMapMemory next;
    next_symbol("vkMapMemory", &next);
    return next(device, memory, offset, size, flags, data);
}

VKAPI_ATTR VkResult VKAPI_CALL vkAllocateMemory(VkDevice device,
                                                const VkMemoryAllocateInfo *info,
                                                const VkAllocationCallbacks *callbacks,
                                                VkDeviceMemory *memory)
{
    if (fail_alloc > 0) {
        fail_alloc--;
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    PFN_vkAllocateMemory next;
    next_symbol("vkAllocateMemory", &next);
    return next(device, info, callbacks, memory);
}

VKAPI_ATTR VkResult VKAPI_CALL vkQueueSubmit(VkQueue queue, uint32_t count,
                                             const VkSubmitInfo *submits, VkFence fence)
{
    if (fail_submit > 0) {
        fail_submit--;
        return VK_ERROR_DEVICE_LOST;
    }
    PFN_vkQueueSubmit next;
    next_symbol("vkQueueSubmit", &next);
    return next(queue, count, submits, fence);
}

static fkc_context *ctx;

static int setup(void **state)
{
    (void)state;
    ctx = rt_context(0, FKC_COPY_AUTO, 0, 0);
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

#define REFUSED(call, status, text)                                                           \
    do {                                                                                      \
        fkc_status got_ = (call);                                                             \
        if (got_ != (status) || !strstr(fkc_last_error(), (text)))                            \
            fail_msg("%s -> %s '%s', want %s with '%s'", #call, fkc_status_name(got_),        \
                     fkc_last_error(), fkc_status_name(status), (text));                     \
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

/* Out of device memory: the buffer is refused as such, and the context keeps working. */
static void test_alloc_failure(void **state)
{
    (void)state;
    fkc_buffer *buf = (fkc_buffer *)1;
    fail_alloc = 1;
    REFUSED(fkc_buffer_create(ctx, 256, &buf), FKC_ERR_OUT_OF_MEMORY, "allocating buffer memory");
    assert_null(buf);
    RT_OK(fkc_buffer_create(ctx, 256, &buf));
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
    };
    return cmocka_run_group_tests_name("runtime faults", tests, setup, teardown);
}
