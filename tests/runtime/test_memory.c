/* test_memory.c — fkc's own buffers share device-memory blocks: 10,000 live buffers on one
 * context cost a handful of vkAllocateMemory calls (counted through a wrapping
 * vkGetInstanceProcAddr, rt_vk_hooks.h), never overlap, start at aligned offsets, and keep their
 * bytes; freed space is reused, free neighbours coalesce, empty blocks are released. Buffers at
 * non-zero block offsets as source, destination and ring position on every path (compute
 * kernels, copy regions, the device-resident and read-back ring, stream copies, recorded and
 * synchronous copies, a user kernel's dispatch), with neighbouring buffers in the block
 * untouched. Validation layer on: any message fails. */
#include <vulkan/vulkan.h>

#include "fkc/fkc_vulkan.h"
#include "rt_harness.h"

static unsigned long allocations, frees; /* vkAllocateMemory / vkFreeMemory calls */

static VKAPI_ATTR VkResult VKAPI_CALL allocate_memory(VkDevice device,
                                                      const VkMemoryAllocateInfo *info,
                                                      const VkAllocationCallbacks *cb,
                                                      VkDeviceMemory *memory)
{
    allocations++;
    return vkAllocateMemory(device, info, cb, memory);
}

static VKAPI_ATTR void VKAPI_CALL free_memory(VkDevice device, VkDeviceMemory memory,
                                              const VkAllocationCallbacks *cb)
{
    frees += memory != VK_NULL_HANDLE;
    vkFreeMemory(device, memory, cb);
}

#define RT_HOOKS(X) X(vkAllocateMemory, allocate_memory) X(vkFreeMemory, free_memory)
#include "rt_vk_hooks.h"

static const uint32_t axpy_spv[] =
#include "axpy.spv.inc"
    ;

typedef struct axpy_push {
    uint32_t n, mul, add, pad;
} axpy_push;

typedef struct placed {
    VkBuffer vb;
    VkDeviceSize off, size;
    uint32_t index;
} placed;

static int by_place(const void *a, const void *b)
{
    const placed *x = a, *y = b;
    if (x->vb != y->vb)
        return (uintptr_t)x->vb < (uintptr_t)y->vb ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Every live buffer: aligned, and no two of one VkBuffer overlapping (sizes rounded to 16). */
static void check_places(fkc_buffer **b, uint32_t n, uint64_t align)
{
    placed *p = malloc(n * sizeof *p);
    assert_non_null(p);
    for (uint32_t i = 0; i < n; i++) {
        RT_OK(fkc_buffer_vulkan(b[i], &p[i].vb, &p[i].off, &p[i].size));
        p[i].index = i;
        if (p[i].off % align)
            fail_msg("buffer %u at offset %llu: not %llu-aligned", i, (unsigned long long)p[i].off,
                     (unsigned long long)align);
    }
    qsort(p, n, sizeof *p, by_place);
    for (uint32_t i = 1; i < n; i++)
        if (p[i].vb == p[i - 1].vb && p[i - 1].off + ((p[i - 1].size + 15) & ~15ull) > p[i].off)
            fail_msg("buffers %u and %u overlap", p[i - 1].index, p[i].index);
    free(p);
}

/* 10,000 live buffers of 1 byte to 4 KiB: far fewer allocations than buffers; 300 of them
 * written and read back exactly after all are made; half freed and as many made again without
 * a single new allocation; all freed: every block but one released. */
static void test_many_buffers(void **state)
{
    (void)state;
    enum { N = 10000 };
    fkc_context *ctx = rt_context_hooks(0, FKC_COPY_AUTO, NULL, rt_gipa);
    uint64_t align = fkc_vulkan_buffer_alignment(ctx);
    static fkc_buffer *b[N];
    static uint32_t size[N];
    rng_seed(61);
    unsigned long before = allocations;
    for (uint32_t i = 0; i < N; i++) {
        size[i] = 1 + (uint32_t)rng_below(i % 10 == 0 ? 4096 : 256);
        RT_OK(fkc_buffer_create(ctx, size[i], &b[i]));
    }
    unsigned long made = allocations - before;
    uint32_t blocks = fkc_test_block_count(ctx);
    print_message("10000 buffers: %lu vkAllocateMemory calls, %u blocks of %llu bytes\n", made,
                  blocks, (unsigned long long)fkc_test_block_bytes(ctx));
    assert_true(made <= 4 && made == blocks);
    check_places(b, N, align);
    /* 300 buffers written, then all read back after every other upload */
    static unsigned char img[300][4096];
    for (uint32_t k = 0; k < 300; k++) {
        uint32_t i = k * 33;
        fill_tricky(img[k], size[i], 1);
        RT_OK(fkc_buffer_upload(b[i], 0, img[k], size[i]));
    }
    unsigned char got[4096];
    for (uint32_t k = 0; k < 300; k++) {
        uint32_t i = k * 33;
        RT_OK(fkc_buffer_download(b[i], 0, got, size[i]));
        if (memcmp(got, img[k], size[i]) != 0)
            fail_msg("buffer %u (%u bytes) did not keep its bytes", i, size[i]);
    }
    /* half freed, as many again: the space is reused */
    for (uint32_t i = 0; i < N; i += 2)
        fkc_buffer_destroy(b[i]);
    before = allocations;
    for (uint32_t i = 0; i < N; i += 2)
        RT_OK(fkc_buffer_create(ctx, size[i], &b[i]));
    assert_int_equal(allocations - before, 0);
    assert_int_equal(fkc_test_block_count(ctx), blocks);
    check_places(b, N, align);
    for (uint32_t k = 1; k < 300; k += 2) { /* the odd survivors are intact */
        uint32_t i = k * 33;
        RT_OK(fkc_buffer_download(b[i], 0, got, size[i]));
        assert_memory_equal(got, img[k], size[i]);
    }
    unsigned long freed_before = frees;
    for (uint32_t i = 0; i < N; i++)
        fkc_buffer_destroy(b[i]);
    assert_int_equal(fkc_test_block_count(ctx), 1); /* the last block is kept */
    assert_int_equal(frees - freed_before, blocks - 1);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

/* 64 KiB blocks (buffers of 16 KiB and up get their own allocation): eight 8 KiB buffers fill a
 * block; two neighbours freed leave one 16 KiB hole a 12 KiB buffer fits; one lone 8 KiB hole
 * does not take it (a new block); 16 KiB and more: a dedicated allocation each. */
static void test_coalescing(void **state)
{
    (void)state;
    fkc_test_hooks h = {.block_bytes = 64u << 10};
    fkc_context *ctx = rt_context_hooks(0, FKC_COPY_AUTO, &h, rt_gipa);
    fkc_buffer *b[8], *x, *y, *big;
    VkDeviceSize off[8], at;
    VkBuffer vb0, vb;
    unsigned long before = allocations;
    for (int i = 0; i < 8; i++) {
        RT_OK(fkc_buffer_create(ctx, 8192, &b[i]));
        RT_OK(fkc_buffer_vulkan(b[i], i ? &vb : &vb0, &off[i], NULL));
        if (i)
            assert_ptr_equal(vb, vb0);
    }
    assert_int_equal(allocations - before, 1);
    assert_int_equal(fkc_test_block_count(ctx), 1);
    fkc_buffer_destroy(b[2]);
    fkc_buffer_destroy(b[3]);
    RT_OK(fkc_buffer_create(ctx, 12288, &x));
    RT_OK(fkc_buffer_vulkan(x, &vb, &at, NULL));
    assert_ptr_equal(vb, vb0);
    assert_int_equal(at, off[2] < off[3] ? off[2] : off[3]); /* in the coalesced hole */
    assert_int_equal(fkc_test_block_count(ctx), 1);
    fkc_buffer_destroy(b[5]);
    RT_OK(fkc_buffer_create(ctx, 12288, &y));
    assert_int_equal(fkc_test_block_count(ctx), 2);
    RT_OK(fkc_buffer_vulkan(y, &vb, NULL, NULL));
    assert_ptr_not_equal(vb, vb0);
    before = allocations;
    RT_OK(fkc_buffer_create(ctx, 16384, &big));
    assert_int_equal(allocations - before, 1);
    assert_int_equal(fkc_test_block_count(ctx), 2);
    fkc_buffer_destroy(big);
    fkc_buffer_destroy(y); /* its block empties and goes */
    assert_int_equal(fkc_test_block_count(ctx), 1);
    fkc_buffer_destroy(x);
    for (int i = 0; i < 8; i++)
        if (i != 2 && i != 3 && i != 5)
            fkc_buffer_destroy(b[i]);
    assert_int_equal(fkc_test_block_count(ctx), 1);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

/* A buffer between two neighbours in one block, all three with host images: the middle one at
 * a non-zero offset; the neighbours must come out untouched after each path wrote the middle. */
typedef struct trio {
    rt_buf lo, mid, hi;
} trio;

static void trio_make(fkc_context *ctx, trio *t, size_t size)
{
    rt_buf_make(ctx, &t->lo, 48);
    rt_buf_make(ctx, &t->mid, size);
    rt_buf_make(ctx, &t->hi, 48);
    VkBuffer a, b, c;
    VkDeviceSize oa, ob, oc;
    RT_OK(fkc_buffer_vulkan(t->lo.dev, &a, &oa, NULL));
    RT_OK(fkc_buffer_vulkan(t->mid.dev, &b, &ob, NULL));
    RT_OK(fkc_buffer_vulkan(t->hi.dev, &c, &oc, NULL));
    assert_true(a == b && b == c && ob != 0 && oa < ob && ob < oc);
}

static void trio_check(trio *t, const char *what)
{
    rt_buf_check(&t->lo, "the neighbour before");
    rt_buf_check(&t->mid, what);
    rt_buf_check(&t->hi, "the neighbour after");
}

static void trio_free(trio *t)
{
    rt_buf_free(&t->lo);
    rt_buf_free(&t->mid);
    rt_buf_free(&t->hi);
}

/* write_slice and both rotating paths with source, destination and position each at a
 * non-zero block offset between neighbours, on one context's path. */
static void offsets_on(fkc_context *ctx, const char *label)
{
    trio S, D, P;
    rng_seed(62);
    trio_make(ctx, &S, 2000);
    trio_make(ctx, &D, 4000);
    trio_make(ctx, &P, 24);
    const size_t dst[2] = {9, 200}, src[2] = {5, 150}, off[2] = {3, 41};
    fkc_tensor st = rt_tensor(S.mid.dev, 3, FKC_DTYPE_F16, 2, src);
    fkc_tensor ot = rt_tensor(D.mid.dev, 1, st.dtype, 2, dst);
    size_t e = fkc_dtype_size(st.dtype);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    fkc_ref_write_slice(D.mid.host + 1, dst, 2, S.mid.host + 3, src, off, e);
    RT_OK(fkc_stream_submit(s));
    trio_check(&D, label);
    uint64_t pos = 0x123456789ull;
    for (int i = 0; i < 8; i++)
        P.mid.host[5 + i] = (unsigned char)(pos >> (8 * i));
    RT_OK(fkc_buffer_upload(P.mid.dev, 0, P.mid.host, 24));
    const size_t ring[2] = {9, 200}, tok[2] = {4, 200};
    fkc_tensor rs = rt_tensor(S.mid.dev, 16, FKC_DTYPE_U32, 2, (size_t[]){4, 100});
    fkc_tensor ro = rt_tensor(D.mid.dev, 32, FKC_DTYPE_U32, 2, (size_t[]){9, 100});
    RT_OK(fkc_write_slice_rotating(s, &rs, &ro, 9, P.mid.dev, 5, 0));
    fkc_ref_write_slice_rotating(D.mid.host + 32, (size_t[]){9, 100}, 2, S.mid.host + 16,
                                 (size_t[]){4, 100}, 9, pos, 0, 4);
    fkc_tensor rs2 = rt_tensor(S.mid.dev, 7, FKC_DTYPE_U8, 2, tok);
    fkc_tensor ro2 = rt_tensor(D.mid.dev, 3, FKC_DTYPE_U8, 2, ring);
    RT_OK(fkc_write_slice_rotating(s, &rs2, &ro2, 9, P.mid.dev, 5, 0));
    fkc_ref_write_slice_rotating(D.mid.host + 3, ring, 2, S.mid.host + 7, tok, 9, pos, 0, 1);
    RT_OK(fkc_stream_copy(s, D.mid.dev, 3999, S.mid.dev, 1999, 1)); /* the last bytes */
    D.mid.host[3999] = S.mid.host[1999];
    unsigned char up[40], down[40];
    fill_tricky(up, sizeof up, 1);
    RT_OK(fkc_stream_upload(s, D.mid.dev, 3950, up, 40));
    memcpy(D.mid.host + 3950, up, 40);
    RT_OK(fkc_stream_download(s, D.mid.dev, 3950, down, 40));
    RT_OK(fkc_stream_submit(s));
    assert_memory_equal(up, down, 40);
    trio_check(&D, label);
    trio_check(&S, "sources untouched");
    trio_check(&P, "position untouched");
    fkc_stream_destroy(s);
    trio_free(&S);
    trio_free(&D);
    trio_free(&P);
    rt_no_validation(ctx);
}

static void test_offsets(void **state)
{
    (void)state;
    static const struct {
        uint32_t flags;
        fkc_copy_path path;
        const char *label;
    } paths[] = {
        {0, FKC_COPY_COMPUTE, "compute, device position"},
        {FKC_CONTEXT_RING_READBACK, FKC_COPY_COMPUTE, "compute, readback"},
        {0, FKC_COPY_TRANSFER, "copy regions"},
    };
    for (int i = 0; i < 3; i++) {
        fkc_context *ctx = rt_context(paths[i].flags, paths[i].path, 0, 0);
        offsets_on(ctx, paths[i].label);
        fkc_context_destroy(ctx);
    }
}

/* A user kernel's dispatch binds ranges of buffers at non-zero block offsets: the results and
 * the neighbours must show the bases were added. */
static void test_dispatch_offsets(void **state)
{
    (void)state;
    fkc_context *ctx = rt_context(0, FKC_COPY_AUTO, 0, 0);
    fkc_kernel *k;
    RT_OK(fkc_kernel_create(ctx, axpy_spv, sizeof axpy_spv / 4, 2, sizeof(axpy_push), &k));
    rng_seed(63);
    trio S, D;
    trio_make(ctx, &S, 1024);
    trio_make(ctx, &D, 1024);
    uint64_t a = fkc_context_device(ctx)->min_storage_buffer_offset_alignment;
    axpy_push p = {100, 7, 3, 0};
    fkc_buffer_range r[2] = {{S.mid.dev, a, 400}, {D.mid.dev, 2 * a, 400}};
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    RT_OK(fkc_stream_dispatch(s, k, r, 2, &p, sizeof p, 2, 1, 1));
    RT_OK(fkc_stream_submit(s));
    for (uint32_t i = 0; i < p.n; i++) {
        uint32_t x;
        memcpy(&x, S.mid.host + a + 4 * i, 4);
        x = x * p.mul + p.add;
        memcpy(D.mid.host + 2 * a + 4 * i, &x, 4);
    }
    trio_check(&D, "axpy at block offsets");
    trio_check(&S, "axpy source untouched");
    fkc_stream_destroy(s);
    fkc_kernel_destroy(k);
    trio_free(&S);
    trio_free(&D);
    rt_no_validation(ctx);
    fkc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_buffers),
        cmocka_unit_test(test_coalescing),
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_dispatch_offsets),
    };
    return cmocka_run_group_tests_name("memory blocks", tests, NULL, NULL);
}
