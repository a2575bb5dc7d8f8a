/* test_hooks.c — VMA's hooks (fkc_vulkan_hooks): the host's VkAllocationCallbacks reach every
 * vkCreate*, vkAllocateMemory, vkDestroy* and vkFreeMemory fkc makes, on owned and borrowed
 * contexts, and every object created through them is destroyed through them; the device-memory
 * callbacks see each allocation and its free; a heap budget refuses what would exceed it with
 * FKC_ERR_OUT_OF_MEMORY and leaks nothing; the hooks' own refusals. Every creation and
 * destruction call is wrapped (rt_vk_hooks.h): the wrapper checks the pAllocator fkc passed and
 * counts the live objects of each kind. Validation layer and synchronization validation on. */
#include <stdalign.h>
#include <stdatomic.h>

#include <vulkan/vulkan.h>

#include "fkc/fkc_vulkan.h"
#include "rt_harness.h"
#include "rt_host.h"

/* ---- a counting allocator ---- */
typedef struct counter {
    atomic_long live;  /* blocks allocated and not freed */
    atomic_long calls; /* pfnAllocation + pfnReallocation calls */
} counter;

static counter cnt;
static int tag; /* pUserData of our callbacks: &tag */

/* Each block: [padding][header][user bytes], header just before the user bytes. */
typedef struct header {
    void *base;
    size_t size;
} header;

static void *VKAPI_CALL c_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope s)
{
    (void)s;
    assert_ptr_equal(user, &tag);
    if (align < alignof(max_align_t))
        align = alignof(max_align_t);
    unsigned char *base = malloc(size + align + sizeof(header));
    if (!base)
        return NULL;
    uintptr_t p = ((uintptr_t)base + sizeof(header) + align - 1) & ~(uintptr_t)(align - 1);
    header *h = (header *)p - 1;
    h->base = base;
    h->size = size;
    atomic_fetch_add(&cnt.live, 1);
    atomic_fetch_add(&cnt.calls, 1);
    return (void *)p;
}

static void VKAPI_CALL c_free(void *user, void *mem)
{
    assert_ptr_equal(user, &tag);
    if (!mem)
        return;
    atomic_fetch_sub(&cnt.live, 1);
    free(((header *)mem - 1)->base);
}

static void *VKAPI_CALL c_realloc(void *user, void *old, size_t size, size_t align,
                                  VkSystemAllocationScope s)
{
    if (!old)
        return c_alloc(user, size, align, s);
    if (!size) {
        c_free(user, old);
        return NULL;
    }
    void *p = c_alloc(user, size, align, s);
    if (!p)
        return NULL;
    size_t keep = ((header *)old - 1)->size;
    memcpy(p, old, keep < size ? keep : size);
    c_free(user, old);
    return p;
}

static const VkAllocationCallbacks callbacks = {
    .pUserData = &tag, .pfnAllocation = c_alloc, .pfnReallocation = c_realloc, .pfnFree = c_free};

/* ---- every creation and destruction fkc makes, wrapped ---- */
/* clang-format off */
#define KINDS(X) X(Buffer) X(CommandPool) X(Fence) X(QueryPool) X(DescriptorSetLayout)            \
    X(PipelineLayout) X(ShaderModule) X(DescriptorPool)
/* clang-format on */
enum {
#define K_ENUM(T) K_##T,
    KINDS(K_ENUM)
#undef K_ENUM
        K_Pipeline,
    K_Memory,
    K_Device,
    K_Instance,
    K_Messenger,
    K_COUNT
};
static const char *const kind_name[K_COUNT] = {
#define K_NAME(T) #T,
    KINDS(K_NAME)
#undef K_NAME
        "Pipeline",
    "Memory", "Device", "Instance", "Messenger"};

static atomic_long created[K_COUNT], destroyed[K_COUNT];
static atomic_long foreign; /* calls whose pAllocator was not ours (or NULL) */
static bool expect_ours;    /* whether the current context has our callbacks */

static void seen(const VkAllocationCallbacks *a)
{
    bool ours = a && a->pUserData == &tag && a->pfnAllocation == c_alloc && a->pfnFree == c_free;
    if (ours != expect_ours)
        atomic_fetch_add(&foreign, 1);
}

#define K_WRAP(T)                                                                                  \
    static VKAPI_ATTR VkResult VKAPI_CALL create_##T(VkDevice d, const Vk##T##CreateInfo *i,       \
                                                     const VkAllocationCallbacks *a, Vk##T *o)     \
    {                                                                                              \
        seen(a);                                                                                   \
        VkResult r = vkCreate##T(d, i, a, o);                                                      \
        if (r == VK_SUCCESS)                                                                       \
            atomic_fetch_add(&created[K_##T], 1);                                                  \
        return r;                                                                                  \
    }                                                                                              \
    static VKAPI_ATTR void VKAPI_CALL destroy_##T(VkDevice d, Vk##T o,                             \
                                                  const VkAllocationCallbacks *a)                  \
    {                                                                                              \
        if (o) {                                                                                   \
            seen(a);                                                                               \
            atomic_fetch_add(&destroyed[K_##T], 1);                                                \
        }                                                                                          \
        vkDestroy##T(d, o, a);                                                                     \
    }
KINDS(K_WRAP)
#undef K_WRAP

static VKAPI_ATTR VkResult VKAPI_CALL create_pipelines(VkDevice d, VkPipelineCache c, uint32_t n,
                                                       const VkComputePipelineCreateInfo *i,
                                                       const VkAllocationCallbacks *a,
                                                       VkPipeline *o)
{
    seen(a);
    VkResult r = vkCreateComputePipelines(d, c, n, i, a, o);
    if (r == VK_SUCCESS)
        atomic_fetch_add(&created[K_Pipeline], (long)n);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL destroy_pipeline(VkDevice d, VkPipeline o,
                                                   const VkAllocationCallbacks *a)
{
    if (o) {
        seen(a);
        atomic_fetch_add(&destroyed[K_Pipeline], 1);
    }
    vkDestroyPipeline(d, o, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL allocate_memory(VkDevice d, const VkMemoryAllocateInfo *i,
                                                      const VkAllocationCallbacks *a,
                                                      VkDeviceMemory *o)
{
    seen(a);
    VkResult r = vkAllocateMemory(d, i, a, o);
    if (r == VK_SUCCESS)
        atomic_fetch_add(&created[K_Memory], 1);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL free_memory(VkDevice d, VkDeviceMemory o,
                                              const VkAllocationCallbacks *a)
{
    if (o) {
        seen(a);
        atomic_fetch_add(&destroyed[K_Memory], 1);
    }
    vkFreeMemory(d, o, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL create_device(VkPhysicalDevice p, const VkDeviceCreateInfo *i,
                                                    const VkAllocationCallbacks *a, VkDevice *o)
{
    seen(a);
    VkResult r = vkCreateDevice(p, i, a, o);
    if (r == VK_SUCCESS)
        atomic_fetch_add(&created[K_Device], 1);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL destroy_device(VkDevice o, const VkAllocationCallbacks *a)
{
    if (o) {
        seen(a);
        atomic_fetch_add(&destroyed[K_Device], 1);
    }
    vkDestroyDevice(o, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL create_instance(const VkInstanceCreateInfo *i,
                                                      const VkAllocationCallbacks *a, VkInstance *o)
{
    seen(a);
    VkResult r = vkCreateInstance(i, a, o);
    if (r == VK_SUCCESS)
        atomic_fetch_add(&created[K_Instance], 1);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL destroy_instance(VkInstance o, const VkAllocationCallbacks *a)
{
    if (o) {
        seen(a);
        atomic_fetch_add(&destroyed[K_Instance], 1);
    }
    vkDestroyInstance(o, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL create_messenger(VkInstance inst,
                                                       const VkDebugUtilsMessengerCreateInfoEXT *i,
                                                       const VkAllocationCallbacks *a,
                                                       VkDebugUtilsMessengerEXT *o)
{
    seen(a);
    PFN_vkCreateDebugUtilsMessengerEXT f = (PFN_vkCreateDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(inst, "vkCreateDebugUtilsMessengerEXT");
    VkResult r = f(inst, i, a, o);
    if (r == VK_SUCCESS)
        atomic_fetch_add(&created[K_Messenger], 1);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL destroy_messenger(VkInstance inst, VkDebugUtilsMessengerEXT o,
                                                    const VkAllocationCallbacks *a)
{
    if (o) {
        seen(a);
        atomic_fetch_add(&destroyed[K_Messenger], 1);
    }
    PFN_vkDestroyDebugUtilsMessengerEXT f = (PFN_vkDestroyDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(inst, "vkDestroyDebugUtilsMessengerEXT");
    f(inst, o, a);
}

/* clang-format off */
#define K_HOOK(T) X(vkCreate##T, create_##T) X(vkDestroy##T, destroy_##T)
#define RT_HOOKS(X)                                                                                \
    X(vkCreateBuffer, create_Buffer) X(vkDestroyBuffer, destroy_Buffer)                            \
    X(vkCreateCommandPool, create_CommandPool) X(vkDestroyCommandPool, destroy_CommandPool)        \
    X(vkCreateFence, create_Fence) X(vkDestroyFence, destroy_Fence)                                \
    X(vkCreateQueryPool, create_QueryPool) X(vkDestroyQueryPool, destroy_QueryPool)                \
    X(vkCreateDescriptorSetLayout, create_DescriptorSetLayout)                                     \
    X(vkDestroyDescriptorSetLayout, destroy_DescriptorSetLayout)                                   \
    X(vkCreatePipelineLayout, create_PipelineLayout)                                               \
    X(vkDestroyPipelineLayout, destroy_PipelineLayout)                                             \
    X(vkCreateShaderModule, create_ShaderModule) X(vkDestroyShaderModule, destroy_ShaderModule)    \
    X(vkCreateDescriptorPool, create_DescriptorPool)                                               \
    X(vkDestroyDescriptorPool, destroy_DescriptorPool)                                             \
    X(vkCreateComputePipelines, create_pipelines) X(vkDestroyPipeline, destroy_pipeline)           \
    X(vkAllocateMemory, allocate_memory) X(vkFreeMemory, free_memory)                              \
    X(vkCreateDevice, create_device) X(vkDestroyDevice, destroy_device)                            \
    X(vkCreateInstance, create_instance) X(vkDestroyInstance, destroy_instance)                    \
    X(vkCreateDebugUtilsMessengerEXT, create_messenger)                                            \
    X(vkDestroyDebugUtilsMessengerEXT, destroy_messenger)
/* clang-format on */
#include "rt_vk_hooks.h"

static void reset_counts(bool ours)
{
    for (int k = 0; k < K_COUNT; k++) {
        atomic_store(&created[k], 0);
        atomic_store(&destroyed[k], 0);
    }
    atomic_store(&foreign, 0);
    atomic_store(&cnt.live, 0);
    atomic_store(&cnt.calls, 0);
    expect_ours = ours;
}

/* Every kind created was destroyed as often, through the callbacks; returns the objects made. */
static long check_balanced(const char *what)
{
    long total = 0;
    for (int k = 0; k < K_COUNT; k++) {
        long c = atomic_load(&created[k]), d = atomic_load(&destroyed[k]);
        if (c != d)
            fail_msg("%s: %ld Vk%s created, %ld destroyed", what, c, kind_name[k], d);
        total += c;
    }
    if (atomic_load(&foreign))
        fail_msg("%s: %ld create/destroy calls without the host's allocation callbacks", what,
                 (long)atomic_load(&foreign));
    return total;
}

/* Some work that creates every kind of object fkc makes: buffers (a block and a dedicated
 * one), a stream (pool, fence, query pool, staging), fused writes (tables), a write_slice. */
static void exercise(fkc_context *ctx)
{
    fkc_buffer *a = NULL, *b = NULL, *big = NULL;
    RT_OK(fkc_buffer_create(ctx, 4096, &a));
    RT_OK(fkc_buffer_create(ctx, 4096, &b));
    RT_OK(fkc_buffer_create(ctx, 32u << 20, &big));
    unsigned char src[4096], got[4096], want[4096];
    for (size_t i = 0; i < sizeof src; i++) {
        src[i] = (unsigned char)(i * 7 + 1);
        want[i] = (unsigned char)(i * 3);
    }
    RT_OK(fkc_buffer_upload(b, 0, want, sizeof want));
    fkc_stream *s = NULL;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_stream_upload(s, a, 0, src, sizeof src));
    size_t shape[2] = {4, 256}, sub[2] = {2, 256}, off[2] = {1, 0}; /* u32: rows of 1 KiB */
    fkc_tensor t_src = rt_tensor(a, 0, FKC_DTYPE_U32, 2, sub);
    fkc_tensor t_out = rt_tensor(b, 0, FKC_DTYPE_U32, 2, shape);
    RT_OK(fkc_write_slice(s, &t_src, &t_out, off));
    RT_OK(fkc_stream_download(s, b, 0, got, sizeof got));
    RT_OK(fkc_stream_submit(s));
    memcpy(want + 1024, src, 2048); /* rows 1 and 2 */
    assert_memory_equal(got, want, sizeof want);
    fkc_stream_destroy(s);
    fkc_buffer_destroy(big);
    fkc_buffer_destroy(b);
    fkc_buffer_destroy(a);
}

static fkc_vulkan_hooks hooks_with_callbacks(void)
{
    fkc_vulkan_hooks h;
    fkc_vulkan_hooks_init(&h);
    h.get_instance_proc_addr = rt_gipa;
    h.allocator = &callbacks;
    return h;
}

static fkc_context_options validating(void)
{
    fkc_context_options o;
    fkc_context_options_init(&o);
    o.flags = FKC_CONTEXT_VALIDATION;
    return o;
}

/* Owned: the instance, messenger, device and every object fkc makes go through the callbacks,
 * and each is destroyed through them by the time the context is freed. */
static void owned_allocation_callbacks(void **state)
{
    (void)state;
    reset_counts(true);
    fkc_vulkan_hooks h = hooks_with_callbacks();
    fkc_context_options o = validating();
    fkc_context *ctx = NULL;
    RT_OK(fkc_context_create_with_hooks(&o, &h, &ctx));
    exercise(ctx);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
    long objects = check_balanced("owned context");
    assert_int_equal(atomic_load(&created[K_Instance]), 1);
    assert_int_equal(atomic_load(&created[K_Device]), 1);
    assert_int_equal(atomic_load(&created[K_Messenger]), 1);
    assert_true(atomic_load(&created[K_Memory]) >= 2); /* a block and the dedicated buffer */
    assert_true(atomic_load(&created[K_Pipeline]) >= 8);
    assert_true(atomic_load(&created[K_CommandPool]) >= 1);
    assert_true(objects > 20);
    /* the driver allocated through them, and gave everything back */
    assert_true(atomic_load(&cnt.calls) > 0);
    assert_int_equal(atomic_load(&cnt.live), 0);
}

/* Without callbacks every call passes NULL (the wrapper counts any other pointer). */
static void owned_without_callbacks(void **state)
{
    (void)state;
    reset_counts(false);
    fkc_vulkan_hooks h;
    fkc_vulkan_hooks_init(&h);
    h.get_instance_proc_addr = rt_gipa;
    fkc_context_options o = validating();
    fkc_context *ctx = NULL;
    RT_OK(fkc_context_create_with_hooks(&o, &h, &ctx));
    exercise(ctx);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
    check_balanced("owned context, no callbacks");
    assert_int_equal(atomic_load(&cnt.calls), 0);
}

/* Borrowed: fkc's objects on the host's device go through the host's callbacks (the host's own
 * instance and device are not fkc's and are made without them). */
static void borrowed_allocation_callbacks(void **state)
{
    (void)state;
    rt_host host;
    rt_host_open(&host, true, true);
    reset_counts(true);
    fkc_vulkan_hooks h = hooks_with_callbacks();
    h.get_instance_proc_addr = NULL; /* the device's */
    fkc_vulkan_device d = rt_host_device(&host);
    d.get_instance_proc_addr = rt_gipa;
    fkc_context *ctx = NULL;
    RT_OK(fkc_context_create_vulkan_with_hooks(&d, &h, NULL, &ctx));
    exercise(ctx);
    fkc_context_destroy(ctx);
    long objects = check_balanced("borrowed context");
    assert_int_equal(atomic_load(&created[K_Instance]), 0);
    assert_int_equal(atomic_load(&created[K_Device]), 0);
    assert_true(atomic_load(&created[K_Memory]) >= 2);
    assert_true(objects > 15);
    assert_true(atomic_load(&cnt.calls) > 0);
    assert_int_equal(atomic_load(&cnt.live), 0);
    rt_host_quiet(&host, "borrowed context with callbacks");
    rt_host_close(&host);
}

/* ---- device-memory callbacks and the budget ---- */
#define MAX_MEMS 64
typedef struct mem_log {
    long allocs, frees;
    uint64_t bytes; /* allocated and not freed, by the callbacks' account */
    VkDeviceMemory live[MAX_MEMS];
    uint64_t size[MAX_MEMS];
    uint32_t n;
    bool bad; /* a free of memory not allocated, or a size that differs */
} mem_log;

static void on_alloc(void *user, uint32_t type, VkDeviceMemory m, VkDeviceSize size)
{
    mem_log *l = user;
    (void)type;
    l->allocs++;
    l->bytes += size;
    if (l->n < MAX_MEMS) {
        l->live[l->n] = m;
        l->size[l->n++] = size;
    } else {
        l->bad = true;
    }
}

static void on_free(void *user, uint32_t type, VkDeviceMemory m, VkDeviceSize size)
{
    mem_log *l = user;
    (void)type;
    l->frees++;
    for (uint32_t i = 0; i < l->n; i++)
        if (l->live[i] == m) {
            l->bad = l->bad || l->size[i] != size;
            l->bytes -= size;
            l->live[i] = l->live[--l->n];
            l->size[i] = l->size[l->n];
            return;
        }
    l->bad = true;
}

static VkDeviceSize limits[VK_MAX_MEMORY_HEAPS];

static fkc_vulkan_hooks budget_hooks(mem_log *log, VkDeviceSize limit)
{
    fkc_vulkan_hooks h;
    fkc_vulkan_hooks_init(&h);
    for (uint32_t i = 0; i < VK_MAX_MEMORY_HEAPS; i++)
        limits[i] = limit;
    h.on_allocate = on_alloc;
    h.on_free = on_free;
    h.memory_user = log;
    h.heap_limit = limits;
    h.heap_limit_count = VK_MAX_MEMORY_HEAPS;
    return h;
}

static uint64_t used_all(const fkc_context *ctx)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < VK_MAX_MEMORY_HEAPS; i++)
        n += fkc_context_vulkan_heap_used(ctx, i);
    return n;
}

/* Buffers up to the budget, the one past it refused with nothing allocated, room again once
 * one is destroyed; ops still bit-exact within it. */
static void budget_checks(fkc_context *ctx, mem_log *log, uint64_t limit)
{
    fkc_buffer *over = (fkc_buffer *)&log; /* must come back NULL */
    assert_int_equal(fkc_buffer_create(ctx, limit + 16, &over), FKC_ERR_OUT_OF_MEMORY);
    assert_null(over);
    assert_non_null(strstr(fkc_last_error(), "budget"));
    assert_int_equal(log->allocs, 0);
    assert_int_equal(used_all(ctx), 0);
    /* two buffers of 3/8 of the budget fit (each its own allocation: a 64 MiB block would not),
     * a third does not */
    uint64_t part = (limit * 3 / 8) & ~(uint64_t)15;
    fkc_buffer *a = NULL, *b = NULL, *c = NULL;
    RT_OK(fkc_buffer_create(ctx, part, &a));
    RT_OK(fkc_buffer_create(ctx, part, &b));
    assert_int_equal(log->allocs, 2);
    assert_int_equal(used_all(ctx), log->bytes);
    assert_true(used_all(ctx) <= limit);
    assert_int_equal(fkc_buffer_create(ctx, part, &c), FKC_ERR_OUT_OF_MEMORY);
    assert_null(c);
    assert_int_equal(log->allocs, 2);
    /* the ops within what is left: an upload's staging fits or is refused, never corrupts */
    unsigned char in[256], out[256];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (unsigned char)(i ^ 0x5a);
    RT_OK(fkc_buffer_upload(a, 0, in, sizeof in));
    RT_OK(fkc_buffer_download(a, 0, out, sizeof out));
    assert_memory_equal(in, out, sizeof in);
    assert_int_equal(used_all(ctx), log->bytes);
    assert_true(used_all(ctx) <= limit);
    fkc_buffer_destroy(b);
    RT_OK(fkc_buffer_create(ctx, part, &c)); /* room again */
    assert_int_equal(used_all(ctx), log->bytes);
    fkc_buffer_destroy(c);
    fkc_buffer_destroy(a);
    assert_false(log->bad);
}

static void owned_budget(void **state)
{
    (void)state;
    mem_log log = {0};
    uint64_t limit = 24u << 20;
    fkc_vulkan_hooks h = budget_hooks(&log, limit);
    fkc_context_options o = validating();
    fkc_context *ctx = NULL;
    RT_OK(fkc_context_create_with_hooks(&o, &h, &ctx));
    budget_checks(ctx, &log, limit);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
    /* every allocation the callbacks saw was freed, with its own size */
    assert_false(log.bad);
    assert_true(log.allocs >= 3);
    assert_int_equal(log.allocs, log.frees);
    assert_int_equal(log.bytes, 0);
}

static void borrowed_budget(void **state)
{
    (void)state;
    rt_host host;
    rt_host_open(&host, false, false);
    mem_log log = {0};
    uint64_t limit = 24u << 20;
    fkc_vulkan_hooks h = budget_hooks(&log, limit);
    fkc_vulkan_device d = rt_host_device(&host);
    fkc_context *ctx = NULL;
    RT_OK(fkc_context_create_vulkan_with_hooks(&d, &h, NULL, &ctx));
    budget_checks(ctx, &log, limit);
    fkc_context_destroy(ctx);
    assert_false(log.bad);
    assert_int_equal(log.allocs, log.frees);
    assert_int_equal(log.bytes, 0);
    rt_host_quiet(&host, "borrowed context with a budget");
    rt_host_close(&host);
}

/* The hooks' refusals, each with nothing created. */
static void hooks_refused(void **state)
{
    (void)state;
    fkc_context *ctx = (fkc_context *)&ctx;
    fkc_vulkan_hooks h;
    fkc_vulkan_hooks_init(&h);
    h.size--;
    assert_int_equal(fkc_context_create_with_hooks(NULL, &h, &ctx), FKC_ERR_INVALID_ARGUMENT);
    assert_null(ctx);
    assert_non_null(strstr(fkc_last_error(), "fkc_vulkan_hooks_init"));
    fkc_vulkan_hooks_init(&h);
    h.heap_limit = limits;
    h.heap_limit_count = VK_MAX_MEMORY_HEAPS + 1;
    assert_int_equal(fkc_context_create_with_hooks(NULL, &h, &ctx), FKC_ERR_INVALID_ARGUMENT);
    h.heap_limit = NULL;
    h.heap_limit_count = 1;
    assert_int_equal(fkc_context_create_with_hooks(NULL, &h, &ctx), FKC_ERR_INVALID_ARGUMENT);
    fkc_vulkan_hooks_init(&h);
    VkAllocationCallbacks half = callbacks;
    half.pfnFree = NULL;
    h.allocator = &half;
    assert_int_equal(fkc_context_create_with_hooks(NULL, &h, &ctx), FKC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(fkc_last_error(), "pfnFree"));
    /* a borrowed context takes the device's loader entry: another one in the hooks is refused */
    rt_host host;
    rt_host_open(&host, false, false);
    fkc_vulkan_hooks_init(&h);
    h.get_instance_proc_addr = rt_gipa;
    fkc_vulkan_device d = rt_host_device(&host);
    assert_int_equal(fkc_context_create_vulkan_with_hooks(&d, &h, NULL, &ctx),
                     FKC_ERR_INVALID_ARGUMENT);
    assert_null(ctx);
    assert_non_null(strstr(fkc_last_error(), "get_instance_proc_addr"));
    /* the same loader entry is fine, and NULL hooks are none */
    h.get_instance_proc_addr = d.get_instance_proc_addr;
    RT_OK(fkc_context_create_vulkan_with_hooks(&d, &h, NULL, &ctx));
    fkc_context_destroy(ctx);
    RT_OK(fkc_context_create_vulkan_with_hooks(&d, NULL, NULL, &ctx));
    fkc_context_destroy(ctx);
    rt_host_quiet(&host, "hooks refused");
    rt_host_close(&host);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(owned_allocation_callbacks),
        cmocka_unit_test(owned_without_callbacks),
        cmocka_unit_test(borrowed_allocation_callbacks),
        cmocka_unit_test(owned_budget),
        cmocka_unit_test(borrowed_budget),
        cmocka_unit_test(hooks_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
