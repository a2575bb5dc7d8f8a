/* test_alloc.c — small ops stay cheap: recording ops allocates nothing from the library in
 * steady state, and the one-shot calls create no command buffer, fence or query pool per call.
 * This binary defines malloc/calloc/realloc (counting the calls made from its own code, which
 * holds the statically linked libfkc.a; the driver's and the layer's allocations come from
 * their shared objects and are not counted) and, through a wrapping vkGetInstanceProcAddr
 * (rt_vk_hooks.h), the Vulkan creation calls (fence, command buffer, query pool, memory), passing
 * all through. Validation layer on. Under AddressSanitizer (which owns malloc) the counting is off
 * and both tests report themselves skipped. */
#include <vulkan/vulkan.h>

#include "rt_harness.h"

#if defined(__SANITIZE_ADDRESS__)
#define NO_MALLOC_HOOK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_MALLOC_HOOK 1
#endif
#endif

extern char __executable_start, etext; /* this binary's code (linker-provided) */
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

static int counting;             /* count only inside the measured window */
static unsigned long own_allocs; /* allocations called from this binary's code */
static unsigned long creations;  /* fences, command buffers, query pools, memory */

#ifndef NO_MALLOC_HOOK
static void note(const void *caller)
{
    if (counting && (const char *)caller >= &__executable_start && (const char *)caller < &etext)
        own_allocs++;
}

void *malloc(size_t n)
{
    note(__builtin_return_address(0));
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    note(__builtin_return_address(0));
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    note(__builtin_return_address(0));
    return __libc_realloc(p, n);
}
#endif

/* The creation calls, counted (through rt_gipa: the runtime loads them from it). */
static VKAPI_ATTR VkResult VKAPI_CALL create_fence(VkDevice device, const VkFenceCreateInfo *info,
                                                   const VkAllocationCallbacks *cb, VkFence *fence)
{
    creations += counting != 0;
    return vkCreateFence(device, info, cb, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL allocate_command_buffers(
    VkDevice device, const VkCommandBufferAllocateInfo *info, VkCommandBuffer *cmd)
{
    creations += counting != 0;
    return vkAllocateCommandBuffers(device, info, cmd);
}

static VKAPI_ATTR VkResult VKAPI_CALL create_query_pool(VkDevice device,
                                                        const VkQueryPoolCreateInfo *info,
                                                        const VkAllocationCallbacks *cb,
                                                        VkQueryPool *pool)
{
    creations += counting != 0;
    return vkCreateQueryPool(device, info, cb, pool);
}

static VKAPI_ATTR VkResult VKAPI_CALL allocate_memory(VkDevice device,
                                                      const VkMemoryAllocateInfo *info,
                                                      const VkAllocationCallbacks *cb,
                                                      VkDeviceMemory *memory)
{
    creations += counting != 0;
    return vkAllocateMemory(device, info, cb, memory);
}

/* clang-format off */
#define RT_HOOKS(X) X(vkCreateFence, create_fence)                                             \
    X(vkAllocateCommandBuffers, allocate_command_buffers) X(vkCreateQueryPool, create_query_pool) \
    X(vkAllocateMemory, allocate_memory)
/* clang-format on */
#include "rt_vk_hooks.h"

typedef struct fixture {
    fkc_context *ctx;
    rt_buf D, S, P;
} fixture;

/* One round of small ops: a KV-like token at each width, aligned and not, and a rotating
 * write with the position on the device. */
static void record_round(fixture *f, fkc_stream *s)
{
    static const fkc_dtype dts[] = {FKC_DTYPE_U8, FKC_DTYPE_F16, FKC_DTYPE_F32, FKC_DTYPE_F64};
    const size_t ring[3] = {4, 16, 32}, tok[3] = {4, 1, 32}, at[3] = {0, 5, 0};
    for (int i = 0; i < 4; i++) {
        fkc_tensor src = rt_tensor(f->S.dev, 3, dts[i], 3, tok);
        fkc_tensor out = rt_tensor(f->D.dev, (uint64_t)(16 * i), dts[i], 3, ring);
        RT_OK(fkc_write_slice(s, &src, &out, at));
        RT_OK(fkc_write_slice_rotating(s, &src, &out, 16, f->P.dev, 0, 1));
    }
}

static void test_recording_allocates_nothing(void **state)
{
    (void)state;
#ifdef NO_MALLOC_HOOK
    skip();
#endif
    fixture f;
    memset(&f, 0, sizeof f);
    f.ctx = rt_context_hooks(0, FKC_COPY_COMPUTE, NULL, rt_gipa);
    rt_buf_make(f.ctx, &f.D, 4 * 16 * 32 * 8 + 64);
    rt_buf_make(f.ctx, &f.S, 4 * 32 * 8 + 8);
    rt_buf_make(f.ctx, &f.P, 8);
    fkc_stream *s;
    RT_OK(fkc_stream_create(f.ctx, &s));
    record_round(&f, s); /* first use: anything lazily made is made now */
    RT_OK(fkc_stream_submit(s));
    counting = 1;
    for (int k = 0; k < 25; k++) /* 200 ops */
        record_round(&f, s);
    counting = 0;
    RT_OK(fkc_stream_submit(s));
    assert_int_equal(own_allocs, 0);
    assert_int_equal(creations, 0);
    fkc_stream_destroy(s);
    rt_buf_free(&f.D);
    rt_buf_free(&f.S);
    rt_buf_free(&f.P);
    rt_no_validation(f.ctx);
    fkc_context_destroy(f.ctx);
}

static void test_one_shot_reuses(void **state)
{
    (void)state;
#ifdef NO_MALLOC_HOOK
    skip();
#endif
    fixture f;
    memset(&f, 0, sizeof f);
    f.ctx = rt_context_hooks(0, FKC_COPY_AUTO, NULL, rt_gipa);
    rt_buf_make(f.ctx, &f.D, 256);
    rt_buf_make(f.ctx, &f.S, 64);
    rt_buf_make(f.ctx, &f.P, 8);
    memset(f.P.host, 0, 8); /* position 0 for the 20 rotating calls */
    RT_OK(fkc_buffer_upload(f.P.dev, 0, f.P.host, 8));
    const size_t d[1] = {200}, a[1] = {30}, o[1] = {7};
    fkc_tensor src = rt_tensor(f.S.dev, 1, FKC_DTYPE_U8, 1, a);
    fkc_tensor out = rt_tensor(f.D.dev, 3, FKC_DTYPE_U8, 1, d);
    RT_OK(fkc_write_slice_sync(f.ctx, &src, &out, o)); /* first call makes the stream */
    counting = 1;
    for (int k = 0; k < 20; k++) {
        RT_OK(fkc_write_slice_sync(f.ctx, &src, &out, o));
        RT_OK(fkc_write_slice_rotating_sync(f.ctx, &src, &out, 200, f.P.dev, 0, 0));
    }
    counting = 0;
    assert_int_equal(own_allocs, 0);
    assert_int_equal(creations, 0);
    /* Still correct after all that reuse: one more of each, checked. */
    uint64_t pos = 190;
    for (int i = 0; i < 8; i++)
        f.P.host[i] = (unsigned char)(pos >> (8 * i));
    RT_OK(fkc_buffer_upload(f.P.dev, 0, f.P.host, 8));
    RT_OK(fkc_write_slice_rotating_sync(f.ctx, &src, &out, 200, f.P.dev, 0, 0));
    assert_int_equal(fkc_ref_write_slice(f.D.host + 3, d, 1, f.S.host + 1, a, o, 1), FKC_OK);
    assert_int_equal(
        fkc_ref_write_slice_rotating(f.D.host + 3, d, 1, f.S.host + 1, a, 200, 0, 0, 1),
        FKC_OK); /* the 20 calls at 0 */
    assert_int_equal(
        fkc_ref_write_slice_rotating(f.D.host + 3, d, 1, f.S.host + 1, a, 200, pos, 0, 1), FKC_OK);
    rt_buf_check(&f.D, "one-shot calls on the reused stream");
    rt_buf_free(&f.D);
    rt_buf_free(&f.S);
    rt_buf_free(&f.P);
    rt_no_validation(f.ctx);
    fkc_context_destroy(f.ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recording_allocates_nothing),
        cmocka_unit_test(test_one_shot_reuses),
    };
    return cmocka_run_group_tests_name("runtime allocations (small ops)", tests, NULL, NULL);
}
