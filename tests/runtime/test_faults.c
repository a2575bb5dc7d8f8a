/* test_faults.c — Vulkan calls that fail: the context is made with a wrapping
 * vkGetInstanceProcAddr (rt_vk_hooks.h), so the runtime's vkMapMemory, vkAllocateMemory and
 * vkQueueSubmit are this binary's functions, which pass through to the loader unless told to
 * fail; the runtime's failure paths then run on lavapipe. Each failure must give a specific
 * status and message, leave nothing half-made behind, and the same objects must work again
 * afterwards. Validation layer on: any message fails the test. */
#include <vulkan/vulkan.h>

#include "rt_harness.h"

#include "fkc/fkc_vulkan.h"

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

/* Descriptor pools as a driver may run them: lavapipe allocates sets past a pool's maxSets,
 * but Vulkan lets a driver refuse with VK_ERROR_OUT_OF_POOL_MEMORY, which these hooks do, so
 * fkc's way to a new pool runs here too. */
static int pools_made; /* vkCreateDescriptorPool calls */
static struct {
    VkDescriptorPool pool;
    uint32_t max, used;
} pools[64];

static VKAPI_ATTR VkResult VKAPI_CALL create_descriptor_pool(VkDevice device,
                                                             const VkDescriptorPoolCreateInfo *info,
                                                             const VkAllocationCallbacks *callbacks,
                                                             VkDescriptorPool *pool)
{
    VkResult r = vkCreateDescriptorPool(device, info, callbacks, pool);
    for (int i = 0; r == VK_SUCCESS && i < 64; i++)
        if (!pools[i].pool) {
            pools[i].pool = *pool, pools[i].max = info->maxSets, pools[i].used = 0;
            break;
        }
    pools_made++;
    return r;
}

static int pool_slot(VkDescriptorPool pool)
{
    for (int i = 0; i < 64; i++)
        if (pools[i].pool == pool)
            return i;
    return -1;
}

static VKAPI_ATTR void VKAPI_CALL destroy_descriptor_pool(VkDevice device, VkDescriptorPool pool,
                                                          const VkAllocationCallbacks *callbacks)
{
    int i = pool_slot(pool);
    if (i >= 0 && pool)
        pools[i].pool = VK_NULL_HANDLE;
    vkDestroyDescriptorPool(device, pool, callbacks);
}

static VKAPI_ATTR VkResult VKAPI_CALL reset_descriptor_pool(VkDevice device, VkDescriptorPool pool,
                                                            VkDescriptorPoolResetFlags flags)
{
    int i = pool_slot(pool);
    if (i >= 0)
        pools[i].used = 0;
    return vkResetDescriptorPool(device, pool, flags);
}

static int fail_set_at; /* > 0: the fail_set_at-th vkAllocateDescriptorSets from now fails */

static VKAPI_ATTR VkResult VKAPI_CALL allocate_descriptor_sets(
    VkDevice device, const VkDescriptorSetAllocateInfo *info, VkDescriptorSet *sets)
{
    if (fail_set_at > 0 && --fail_set_at == 0)
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    int i = pool_slot(info->descriptorPool);
    if (i >= 0 && pools[i].used + info->descriptorSetCount > pools[i].max)
        return VK_ERROR_OUT_OF_POOL_MEMORY;
    VkResult r = vkAllocateDescriptorSets(device, info, sets);
    if (i >= 0 && r == VK_SUCCESS)
        pools[i].used += info->descriptorSetCount;
    return r;
}

/* clang-format off */
#define RT_HOOKS(X) X(vkMapMemory, map_memory) X(vkAllocateMemory, allocate_memory)            \
    X(vkQueueSubmit, queue_submit) X(vkCreateDescriptorPool, create_descriptor_pool)           \
    X(vkDestroyDescriptorPool, destroy_descriptor_pool)                                        \
    X(vkResetDescriptorPool, reset_descriptor_pool)                                            \
    X(vkAllocateDescriptorSets, allocate_descriptor_sets)
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
    fail_map = fail_alloc = fail_submit = fail_set_at = 0;
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

/* Issue 26 item 8: a recorded download whose submit failed never writes its host memory, not
 * even later: the idle stream submitted as an empty batch with a semaphore
 * (fkc_stream_submit_vulkan) and waited for delivers nothing stale from its staging chunk, which
 * still holds the bytes of the previous, successful download. */
static void test_download_after_failed_submit(void **state)
{
    (void)state;
    rt_buf D;
    rt_buf_make(ctx, &D, 256);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    unsigned char got[256], mine[256];
    RT_OK(fkc_stream_download(s, D.dev, 0, got, 256));
    RT_OK(fkc_stream_submit(s)); /* the staging chunk holds D's bytes now */
    assert_memory_equal(got, D.host, 256);
    memset(mine, 0xee, sizeof mine);
    RT_OK(fkc_stream_download(s, D.dev, 0, mine, 256)); /* the same staging bytes */
    fail_submit = 1;
    REFUSED(fkc_stream_submit(s), FKC_ERR_VULKAN, "vkQueueSubmit failed");
    VkDevice dev;
    RT_OK(fkc_context_vulkan(ctx, NULL, NULL, &dev, NULL, NULL));
    VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore sem;
    assert_int_equal(vkCreateSemaphore(dev, &si, NULL, &sem), VK_SUCCESS);
    fkc_vulkan_submit x;
    fkc_vulkan_submit_init(&x);
    fkc_vulkan_semaphore one = {sem, 0, 0};
    x.signal = &one;
    x.signal_count = 1;
    RT_OK(fkc_stream_submit_vulkan(s, &x)); /* idle: an empty batch */
    RT_OK(fkc_stream_wait(s, UINT64_MAX));
    for (int i = 0; i < 256; i++)
        if (mine[i] != 0xee)
            fail_msg("byte %d of the failed submit's download was written: 0x%02x", i, mine[i]);
    assert_int_equal(fkc_stream_replay(s), FKC_ERR_STATE); /* nothing ran: nothing to replay */
    vkDestroySemaphore(dev, sem, NULL);
    fkc_stream_destroy(s);
    rt_buf_free(&D);
}

/* Issue 26 item 8: without push descriptors each dispatch takes a set from the stream's pools
 * (FKC_DESCRIPTOR_SETS, 128, each): 300 unfused dispatches in one recording fill two pools and
 * take a third, bit-exact; recording again reuses the three. */
static void test_descriptor_pools_full(void **state)
{
    (void)state;
    enum { NW = 300 };
    fkc_test_hooks h = {.no_push_descriptors = true};
    fkc_context *c = rt_context_hooks(0, FKC_COPY_COMPUTE, &h, rt_gipa);
    rt_buf D, S;
    rt_buf_make(c, &D, NW * 8);
    rt_buf_make(c, &S, 64);
    fkc_stream *s;
    RT_OK(fkc_stream_create(c, &s));
    fkc_test_set_fusion(s, false);
    for (int round = 0; round < 2; round++) {
        pools_made = 0;
        for (int k = 0; k < NW; k++) {
            size_t sh[1] = {5}, dh[1] = {NW * 8}, off[1] = {8 * (size_t)k + (size_t)(k % 3)};
            fkc_tensor st = rt_tensor(S.dev, (size_t)(k % 50), FKC_DTYPE_U8, 1, sh);
            fkc_tensor ot = rt_tensor(D.dev, 0, FKC_DTYPE_U8, 1, dh);
            RT_OK(fkc_write_slice(s, &st, &ot, off));
            fkc_ref_write_slice(D.host, dh, 1, S.host + k % 50, sh, off, 1);
        }
        assert_int_equal(fkc_test_command_count(s), NW);
        RT_OK(fkc_stream_submit(s));
        rt_buf_check(&D, "300 dispatches without push descriptors");
        if (pools_made != (round == 0 ? 3 : 0))
            fail_msg("round %d: %d descriptor pools made, want %d", round, pools_made,
                     round == 0 ? 3 : 0);
    }
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(c);
    fkc_context_destroy(c);
}

/* A one-shot call whose op fails half-recorded (its second dispatch gets no descriptor set)
 * returns the failure and gives its pooled stream back broken; the next one-shot call on that
 * stream begins it afresh and runs right (a mutation sample's survivor: one_shot not beginning
 * the stream made that next call FKC_ERR_STATE). */
static void test_one_shot_after_broken(void **state)
{
    (void)state;
    fkc_test_hooks h = {.no_push_descriptors = true, .storage_buffer_range = 256};
    fkc_context *c = rt_context_hooks(0, FKC_COPY_COMPUTE, &h, rt_gipa);
    rt_buf D, S;
    rt_buf_make(c, &D, 4096);
    rt_buf_make(c, &S, 2048);
    size_t sh[1] = {2048}, dh[1] = {4096}, first[1] = {2048}, next[1] = {0};
    fkc_tensor st = rt_tensor(S.dev, 0, FKC_DTYPE_U8, 1, sh);
    fkc_tensor ot = rt_tensor(D.dev, 0, FKC_DTYPE_U8, 1, dh);
    fail_set_at = 2; /* the op's second dispatch */
    fkc_status rc = fkc_write_slice_sync(c, &st, &ot, first);
    assert_int_equal(fail_set_at, 0); /* the failure was reached: the op has several dispatches */
    if (rc != FKC_ERR_OUT_OF_MEMORY)  /* (VK_ERROR_OUT_OF_DEVICE_MEMORY's status) */
        fail_msg("half-recorded one-shot op: %s (%s)", fkc_status_name(rc), fkc_last_error());
    /* no synchronous copy in between: it would take the same pooled stream and begin it */
    RT_OK(fkc_write_slice_sync(c, &st, &ot, next));
    fkc_ref_write_slice(D.host, dh, 1, S.host, sh, next, 1);
    rt_buf_check(&D, "the next one-shot call, and nothing of the failed one");
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(c);
    fkc_context_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_map_failure, no_validation),
        cmocka_unit_test_teardown(test_alloc_failure, no_validation),
        cmocka_unit_test_teardown(test_submit_failure, no_validation),
        cmocka_unit_test_teardown(test_copy_submit_failure, no_validation),
        cmocka_unit_test_teardown(test_download_after_failed_submit, no_validation),
        cmocka_unit_test_teardown(test_descriptor_pools_full, no_validation),
        cmocka_unit_test_teardown(test_one_shot_after_broken, no_validation),
    };
    return cmocka_run_group_tests_name("runtime faults", tests, setup, teardown);
}
