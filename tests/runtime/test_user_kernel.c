/* test_user_kernel.c — user compute kernels (fkc_kernel_create / fkc_kernel_cached /
 * fkc_stream_dispatch) on the default device with the validation layer (and its synchronization
 * checks) on: results checked word for word, guard bytes included; dispatches interleaved with
 * built-in ops in one stream run in recording order; every refusal gives its status and a
 * message and records nothing; the driver's refusals (through interposed Vulkan calls) leave
 * nothing behind. The shader is tests/runtime/shaders/axpy.comp. */
#include <vulkan/vulkan.h>

#include "rt_harness.h"

/* The context is made with a wrapping vkGetInstanceProcAddr (rt_vk_hooks.h): the runtime's
 * vkCreateShaderModule and vkCreateComputePipelines are this binary's, which pass through to
 * the loader unless told to fail the next N calls, so a driver's refusal of a module runs on
 * lavapipe. */
static int fail_module, fail_pipeline;

static VKAPI_ATTR VkResult VKAPI_CALL create_shader_module(VkDevice device,
                                                           const VkShaderModuleCreateInfo *info,
                                                           const VkAllocationCallbacks *callbacks,
                                                           VkShaderModule *module)
{
    if (fail_module > 0) {
        fail_module--;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    return vkCreateShaderModule(device, info, callbacks, module);
}

static VKAPI_ATTR VkResult VKAPI_CALL
create_compute_pipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                         const VkComputePipelineCreateInfo *infos,
                         const VkAllocationCallbacks *callbacks, VkPipeline *pipelines)
{
    if (fail_pipeline > 0) {
        fail_pipeline--;
        for (uint32_t i = 0; i < count; i++)
            pipelines[i] = VK_NULL_HANDLE;
        return VK_ERROR_INITIALIZATION_FAILED; /* not a return the spec lists: any failure */
    }
    return vkCreateComputePipelines(device, cache, count, infos, callbacks, pipelines);
}

/* clang-format off */
#define RT_HOOKS(X) X(vkCreateShaderModule, create_shader_module)                               \
    X(vkCreateComputePipelines, create_compute_pipelines)
/* clang-format on */
#include "rt_vk_hooks.h"

static const uint32_t axpy_spv[] =
#include "axpy.spv.inc"
    ;
#define AXPY_WORDS (sizeof axpy_spv / sizeof axpy_spv[0])

typedef struct axpy_push {
    uint32_t n, mul, add, pad;
} axpy_push;

/* shared by the tests of the group; made through rt_gipa */
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
    rt_no_new_validation(ctx);
    return 0;
}

#define REFUSED(call, status, text)                                                                \
    do {                                                                                           \
        fkc_status got_ = (call);                                                                  \
        if (got_ != (status))                                                                      \
            fail_msg("%s -> %s (%s), expected %s", #call, fkc_status_name(got_), fkc_last_error(), \
                     fkc_status_name(status));                                                     \
        if (!strstr(fkc_last_error(), (text)))                                                     \
            fail_msg("message '%s' lacks '%s'", fkc_last_error(), (text));                         \
    } while (0)

/* The host side of one axpy dispatch over words [0, n) of the ranges' starts. */
static void axpy_host(rt_buf *d, uint64_t d_off, const rt_buf *s, uint64_t s_off,
                      const axpy_push *p)
{
    for (uint32_t i = 0; i < p->n; i++) {
        uint32_t x;
        memcpy(&x, s->host + s_off + 4 * i, 4);
        x = x * p->mul + p->add;
        memcpy(d->host + d_off + 4 * i, &x, 4);
    }
}

/* One kernel, several dispatches: exact words, nothing outside the range touched, the local
 * size read from the module, a 2-D grid, an empty grid. */
static void test_dispatch(void **state)
{
    (void)state;
    fkc_kernel *k;
    RT_OK(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, 2, sizeof(axpy_push), &k));
    uint32_t local[3];
    fkc_kernel_local_size(k, local);
    assert_int_equal(local[0], 64);
    assert_int_equal(local[1], 1);
    assert_int_equal(local[2], 1);
    rt_buf S, D;
    rt_buf_make(ctx, &S, 4096);
    rt_buf_make(ctx, &D, 4096);
    uint64_t a = fkc_context_device(ctx)->min_storage_buffer_offset_alignment;
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    axpy_push p = {200, 3, 0x9e3779b9u, 0};
    fkc_buffer_range r[2] = {{S.dev, a, 800}, {D.dev, 2 * a, 800}};
    RT_OK(fkc_stream_dispatch(s, k, r, 2, &p, sizeof p, 4, 1, 1)); /* 256 invocations */
    axpy_host(&D, 2 * a, &S, a, &p);
    axpy_push q = {1000, 0xffffffffu, 7, 0}; /* a 2-D grid: 4 x 4 groups of 64 */
    fkc_buffer_range r2[2] = {{S.dev, 0, 4000}, {D.dev, 0, 4000}};
    RT_OK(fkc_stream_dispatch(s, k, r2, 2, &q, sizeof q, 4, 4, 1));
    axpy_host(&D, 0, &S, 0, &q);
    RT_OK(fkc_stream_dispatch(s, k, r2, 2, &q, sizeof q, 0, 1, 1)); /* empty: runs nothing */
    assert_int_equal(fkc_stream_op_count(s), 3);
    assert_int_equal(fkc_test_command_count(s), 2);
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&D, "axpy");
    rt_buf_check(&S, "axpy source untouched");
    fkc_stream_destroy(s);
    fkc_kernel_destroy(k);
    rt_buf_free(&S);
    rt_buf_free(&D);
}

/* Dispatches and built-in ops in one stream run in recording order: each reads what the one
 * before wrote (the synchronization validation would also report a missing barrier). */
static void test_order_with_builtin_ops(void **state)
{
    (void)state;
    fkc_kernel *k;
    RT_OK(fkc_kernel_cached(ctx, axpy_spv, AXPY_WORDS, 2, sizeof(axpy_push), &k));
    rt_buf A, B, C;
    rt_buf_make(ctx, &A, 1024);
    rt_buf_make(ctx, &B, 1024);
    rt_buf_make(ctx, &C, 1024);
    const size_t whole[1] = {256}, part[1] = {64}, off[1] = {32};
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    for (int round = 0; round < 3; round++) {
        /* 1. built-in: C[32..96) = A[0..64) */
        fkc_tensor src = rt_tensor(A.dev, 0, FKC_DTYPE_U32, 1, part);
        fkc_tensor out = rt_tensor(C.dev, 0, FKC_DTYPE_U32, 1, whole);
        RT_OK(fkc_write_slice(s, &src, &out, off));
        fkc_ref_write_slice(C.host, whole, 1, A.host, part, off, 4);
        /* 2. user: B = C * 5 + round (reads what 1 wrote) */
        axpy_push p = {256, 5, (uint32_t)round, 0};
        fkc_buffer_range r[2] = {{C.dev, 0, 1024}, {B.dev, 0, 1024}};
        RT_OK(fkc_stream_dispatch(s, k, r, 2, &p, sizeof p, 4, 1, 1));
        axpy_host(&B, 0, &C, 0, &p);
        /* 3. built-in: A[0..64) = B[32..96) (reads what 2 wrote; 1 read A before) */
        fkc_tensor src2 = rt_tensor(B.dev, 128, FKC_DTYPE_U32, 1, part);
        fkc_tensor out2 = rt_tensor(A.dev, 0, FKC_DTYPE_U32, 1, whole);
        const size_t zero[1] = {0};
        RT_OK(fkc_write_slice(s, &src2, &out2, zero));
        fkc_ref_write_slice(A.host, whole, 1, B.host + 128, part, zero, 4);
        /* 4. user: C = A * 3 + 1 (overwrites what 2 read) */
        axpy_push q = {256, 3, 1, 0};
        fkc_buffer_range r2[2] = {{A.dev, 0, 1024}, {C.dev, 0, 1024}};
        RT_OK(fkc_stream_dispatch(s, k, r2, 2, &q, sizeof q, 4, 1, 1));
        axpy_host(&C, 0, &A, 0, &q);
    }
    assert_int_equal(fkc_stream_op_count(s), 12);
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&A, "order: A");
    rt_buf_check(&B, "order: B");
    rt_buf_check(&C, "order: C");
    fkc_stream_destroy(s);
    rt_buf_free(&A);
    rt_buf_free(&B);
    rt_buf_free(&C);
}

/* The per-context cache: the same module gives the same handle; another count another one;
 * fkc_kernel_destroy leaves cached kernels alone (the context frees them). */
static void test_cache(void **state)
{
    (void)state;
    fkc_kernel *k1, *k2, *k3;
    RT_OK(fkc_kernel_cached(ctx, axpy_spv, AXPY_WORDS, 2, 16, &k1));
    uint32_t *copy = malloc(sizeof axpy_spv);
    assert_non_null(copy);
    memcpy(copy, axpy_spv, sizeof axpy_spv);
    RT_OK(fkc_kernel_cached(ctx, copy, AXPY_WORDS, 2, 16, &k2));
    free(copy);
    assert_ptr_equal(k1, k2);
    RT_OK(fkc_kernel_cached(ctx, axpy_spv, AXPY_WORDS, 3, 16, &k3));
    assert_ptr_not_equal(k1, k3);
    fkc_kernel_destroy(k1); /* ignored: owned by the context */
    fkc_kernel *again;
    RT_OK(fkc_kernel_cached(ctx, axpy_spv, AXPY_WORDS, 2, 16, &again));
    assert_ptr_equal(k1, again);
    fkc_kernel_destroy(NULL);
}

/* Modules and arguments fkc_kernel_create refuses: status, message, *out NULL. */
static void test_create_refusals(void **state)
{
    (void)state;
    fkc_kernel *k = (fkc_kernel *)&k;
    uint32_t bad[AXPY_WORDS];
    REFUSED(fkc_kernel_create(ctx, axpy_spv, 3, 2, 16, &k), FKC_ERR_INVALID_ARGUMENT,
            "shorter than its header");
    assert_null(k);
    memcpy(bad, axpy_spv, sizeof bad);
    bad[0] = 0x12345678u;
    REFUSED(fkc_kernel_create(ctx, bad, AXPY_WORDS, 2, 16, &k), FKC_ERR_INVALID_ARGUMENT,
            "bad magic number");
    memcpy(bad, axpy_spv, sizeof bad);
    bad[5] = 0xffff0011u; /* the first instruction claims 65535 words */
    REFUSED(fkc_kernel_create(ctx, bad, AXPY_WORDS, 2, 16, &k), FKC_ERR_INVALID_ARGUMENT,
            "bad length");
    memcpy(bad, axpy_spv, sizeof bad);
    bad[5] &= 0xffffu; /* a zero-length instruction would loop forever */
    REFUSED(fkc_kernel_create(ctx, bad, AXPY_WORDS, 2, 16, &k), FKC_ERR_INVALID_ARGUMENT,
            "bad length");
    REFUSED(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS - 7, 2, 16, &k), FKC_ERR_INVALID_ARGUMENT,
            "bad length"); /* truncated */
    memcpy(bad, axpy_spv, sizeof bad);
    bad[1] = 0x00010600u; /* SPIR-V 1.6 */
    uint32_t api_minor = fkc_context_device(ctx)->api_version >> 12 & 0x3ff;
    if (api_minor < 3)
        REFUSED(fkc_kernel_create(ctx, bad, AXPY_WORDS, 2, 16, &k), FKC_ERR_UNSUPPORTED,
                "SPIR-V 1.6");
    REFUSED(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, 1, 16, &k), FKC_ERR_INVALID_ARGUMENT,
            "set 0 binding 1");
    REFUSED(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, 2, 8, &k), FKC_ERR_INVALID_ARGUMENT,
            "push constants need 16 bytes");
    REFUSED(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, 2, 18, &k), FKC_ERR_INVALID_ARGUMENT,
            "not a multiple of 4");
    REFUSED(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, 2, 1u << 20, &k), FKC_ERR_INVALID_ARGUMENT,
            "push_size");
    REFUSED(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, FKC_KERNEL_MAX_BUFFERS + 1, 16, &k),
            FKC_ERR_INVALID_ARGUMENT, "storage buffers; at most");
    REFUSED(fkc_kernel_create(NULL, axpy_spv, AXPY_WORDS, 2, 16, &k), FKC_ERR_INVALID_ARGUMENT,
            "NULL");
    REFUSED(fkc_kernel_create(ctx, NULL, 0, 2, 16, &k), FKC_ERR_INVALID_ARGUMENT, "NULL");
    REFUSED(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, 2, 16, NULL), FKC_ERR_INVALID_ARGUMENT,
            "out is NULL");
    REFUSED(fkc_kernel_cached(ctx, bad, 2, 2, 16, &k), FKC_ERR_INVALID_ARGUMENT,
            "shorter than its header");
    assert_null(k);

    /* 100,000 storage-buffer variables: each is looked up in the whole module, which would
     * take minutes; the reader's budget refuses it at once. */
    size_t nv = 100000, n = 5 + 12 * nv;
    uint32_t *big = malloc(n * sizeof *big);
    assert_non_null(big);
    memcpy(big, axpy_spv, 5 * sizeof *big);
    for (size_t i = 0; i < nv; i++) {
        uint32_t *v = big + 5 + 12 * i, id = (uint32_t)(2 + i);
        const uint32_t words[12] = {4u << 16 | 71u, id, 34, 0,   /* OpDecorate DescriptorSet 0 */
                                    4u << 16 | 71u, id, 33, 0,   /* OpDecorate Binding 0 */
                                    4u << 16 | 59u, 1,  id, 12}; /* OpVariable StorageBuffer */
        memcpy(v, words, sizeof words);
    }
    big[3] = (uint32_t)(nv + 10); /* the id bound */
    REFUSED(fkc_kernel_create(ctx, big, n, 2, 16, &k), FKC_ERR_INVALID_ARGUMENT,
            "too large or too deeply nested");
    free(big);
}

/* Dispatches fkc_stream_dispatch refuses record nothing: the stream stays empty and the
 * destination keeps its bytes. */
static void test_dispatch_refusals(void **state)
{
    (void)state;
    fkc_kernel *k;
    RT_OK(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, 2, 16, &k));
    rt_buf S, D;
    rt_buf_make(ctx, &S, 1000);
    rt_buf_make(ctx, &D, 1000);
    axpy_push p = {10, 1, 1, 0};
    fkc_buffer_range r[2] = {{S.dev, 0, 1000}, {D.dev, 0, 1000}};
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    const fkc_device_info *dev = fkc_context_device(ctx);
    REFUSED(fkc_stream_dispatch(s, k, r, 1, &p, 16, 1, 1, 1), FKC_ERR_INVALID_ARGUMENT,
            "1 buffers given; the kernel takes 2");
    REFUSED(fkc_stream_dispatch(s, k, r, 2, &p, 12, 1, 1, 1), FKC_ERR_INVALID_ARGUMENT,
            "12 bytes of push constants");
    REFUSED(fkc_stream_dispatch(s, k, r, 2, NULL, 16, 1, 1, 1), FKC_ERR_INVALID_ARGUMENT,
            "0 bytes of push constants");
    REFUSED(
        fkc_stream_dispatch(s, k, r, 2, &p, 16, dev->max_compute_work_group_count[0] + 1u, 1, 1),
        FKC_ERR_INVALID_ARGUMENT, "in dimension 0 exceed the limit");
    REFUSED(
        fkc_stream_dispatch(s, k, r, 2, &p, 16, 1, 1, dev->max_compute_work_group_count[2] + 1u),
        FKC_ERR_INVALID_ARGUMENT, "in dimension 2 exceed the limit");
    fkc_buffer_range bad[2] = {{S.dev, 0, 1000}, {D.dev, 0, 1009}}; /* allocation: 1008 */
    REFUSED(fkc_stream_dispatch(s, k, bad, 2, &p, 16, 1, 1, 1), FKC_ERR_OUT_OF_BOUNDS,
            "buffer 1: 1009 bytes at offset 0");
    bad[1].range = 0;
    REFUSED(fkc_stream_dispatch(s, k, bad, 2, &p, 16, 1, 1, 1), FKC_ERR_OUT_OF_BOUNDS, "empty");
    bad[1] = (fkc_buffer_range){D.dev, 4, 100};
    if (dev->min_storage_buffer_offset_alignment > 4)
        REFUSED(fkc_stream_dispatch(s, k, bad, 2, &p, 16, 1, 1, 1), FKC_ERR_INVALID_ARGUMENT,
                "not a multiple of the device's storage offset alignment");
    bad[1] = (fkc_buffer_range){NULL, 0, 100};
    REFUSED(fkc_stream_dispatch(s, k, bad, 2, &p, 16, 1, 1, 1), FKC_ERR_INVALID_ARGUMENT,
            "buffer 1 is NULL");
    REFUSED(fkc_stream_dispatch(NULL, k, r, 2, &p, 16, 1, 1, 1), FKC_ERR_INVALID_ARGUMENT,
            "NULL stream or kernel");
    REFUSED(fkc_stream_dispatch(s, NULL, r, 2, &p, 16, 1, 1, 1), FKC_ERR_INVALID_ARGUMENT,
            "NULL stream or kernel");

    /* Buffers and kernels of another context. */
    fkc_context *other = rt_context(0, FKC_COPY_AUTO, 0, 0);
    fkc_buffer *ob;
    RT_OK(fkc_buffer_create(other, 1000, &ob));
    fkc_buffer_range mixed[2] = {{S.dev, 0, 1000}, {ob, 0, 1000}};
    REFUSED(fkc_stream_dispatch(s, k, mixed, 2, &p, 16, 1, 1, 1), FKC_ERR_INVALID_ARGUMENT,
            "buffer 1 belongs to another context");
    fkc_kernel *ok;
    RT_OK(fkc_kernel_create(other, axpy_spv, AXPY_WORDS, 2, 16, &ok));
    REFUSED(fkc_stream_dispatch(s, ok, r, 2, &p, 16, 1, 1, 1), FKC_ERR_INVALID_ARGUMENT,
            "the kernel belongs to another context");
    fkc_kernel_destroy(ok);
    fkc_buffer_destroy(ob);
    rt_no_validation(other);
    fkc_context_destroy(other);

    assert_int_equal(fkc_stream_op_count(s), 0);
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&D, "refused dispatches wrote nothing");
    fkc_stream_destroy(s);
    fkc_kernel_destroy(k);
    rt_buf_free(&S);
    rt_buf_free(&D);
}

/* The grid test hook lowers the limit a dispatch is checked against. */
static void test_grid_hook(void **state)
{
    (void)state;
    fkc_context *small = rt_context(0, FKC_COPY_AUTO, 0, 3);
    fkc_kernel *k;
    RT_OK(fkc_kernel_cached(small, axpy_spv, AXPY_WORDS, 2, 16, &k));
    fkc_buffer *b;
    RT_OK(fkc_buffer_create(small, 4096, &b));
    fkc_buffer_range r[2] = {{b, 0, 2048}, {b, 2048, 2048}};
    axpy_push p = {0, 1, 1, 0};
    fkc_stream *s;
    RT_OK(fkc_stream_create(small, &s));
    RT_OK(fkc_stream_dispatch(s, k, r, 2, &p, 16, 3, 3, 3));
    REFUSED(fkc_stream_dispatch(s, k, r, 2, &p, 16, 1, 4, 1), FKC_ERR_INVALID_ARGUMENT,
            "4 work groups in dimension 1 exceed the limit 3");
    RT_OK(fkc_stream_submit(s));
    fkc_stream_destroy(s);
    fkc_buffer_destroy(b);
    rt_no_validation(small);
    fkc_context_destroy(small); /* frees the cached kernel */
}

/* The driver refuses the module or the pipeline: a specific status and message, *out NULL,
 * nothing half-made left (the cache keeps no entry), and the next call works. */
static void test_driver_refusals(void **state)
{
    (void)state;
    fkc_kernel *k = (fkc_kernel *)&k;
    fail_module = 1;
    REFUSED(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, 2, 16, &k), FKC_ERR_OUT_OF_MEMORY,
            "vkCreateShaderModule failed");
    assert_null(k);
    fail_pipeline = 1;
    REFUSED(fkc_kernel_cached(ctx, axpy_spv, AXPY_WORDS, 2, 20, &k), FKC_ERR_VULKAN,
            "vkCreateComputePipelines failed");
    assert_null(k);
    RT_OK(fkc_kernel_cached(ctx, axpy_spv, AXPY_WORDS, 2, 20, &k)); /* made this time */
    fkc_kernel *again;
    RT_OK(fkc_kernel_cached(ctx, axpy_spv, AXPY_WORDS, 2, 20, &again));
    assert_ptr_equal(k, again);
    RT_OK(fkc_kernel_create(ctx, axpy_spv, AXPY_WORDS, 2, 16, &k));
    fkc_kernel_destroy(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_dispatch, no_validation),
        cmocka_unit_test_teardown(test_order_with_builtin_ops, no_validation),
        cmocka_unit_test_teardown(test_cache, no_validation),
        cmocka_unit_test_teardown(test_create_refusals, no_validation),
        cmocka_unit_test_teardown(test_dispatch_refusals, no_validation),
        cmocka_unit_test_teardown(test_grid_hook, no_validation),
        cmocka_unit_test_teardown(test_driver_refusals, no_validation),
    };
    return cmocka_run_group_tests_name("user kernels", tests, setup, teardown);
}
