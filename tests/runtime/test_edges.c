/* test_edges.c — the kernels' edges, each pinned by a case that a one-line fault in slab.c,
 * ops.c or copy.comp would fail (scripts/mutate_kernels.py applies such faults): rings on the
 * outer and third merged axes, positions from 2^32 to 2^64 - 1, the storage-window limit exactly
 * and a few bytes over, work-group-count splits in each dimension, the kernel each case must
 * take, overlapping and adjacent tensors in one buffer, NULL streams. Every op is bit-exact
 * against the CPU reference, both buffers compared whole (guard bytes included) after it runs;
 * validation layer and synchronization validation on, any message fails.
 *
 * The contexts get a wrapping vkGetInstanceProcAddr (rt_vk_hooks.h) that hands the runtime this
 * binary's Vulkan recording calls (vkCmdDispatch, vkCmdBindPipeline, ..., which pass through to
 * the loader), so each op's recording is traced: the kernel of each dispatch (its shader module's code compared
 * with the kernels the build embeds), work-group counts, push constants, descriptor windows,
 * copy regions and barriers. Every traced dispatch must keep its windows within the (lowered)
 * storage range and its group counts within the (lowered) work-group limit. The streams record
 * each write as its own dispatch (fkc_test_set_fusion off): the fused dispatch of small aligned
 * writes has its own tests (test_fused.c). */
#include <vulkan/vulkan.h>

#include "rt_harness.h"

#include "fkc/fkc_kernels.h" /* the byte-width wrappers */

/* ---- the kernels as built (runtime/runtime.mk embeds the same files in libfkc) ---- */

static const uint32_t spv_u128[] =
#include "copy_u128.spv.inc"
    ;
static const uint32_t spv_wide[] =
#include "copy_wide.spv.inc"
    ;
static const uint32_t spv_wide_in[] =
#include "copy_wide_in.spv.inc"
    ;
static const uint32_t spv_wide_edge[] =
#include "copy_wide_edge.spv.inc"
    ;
static const uint32_t spv_wide_short[] =
#include "copy_wide_short.spv.inc"
    ;
static const uint32_t spv_ring_u128[] =
#include "ring_u128.spv.inc"
    ;
static const uint32_t spv_ring_wide[] =
#include "ring_wide.spv.inc"
    ;

enum { K_U128, K_WIDE, K_WIDE_IN, K_WIDE_EDGE, K_WIDE_SHORT, K_RING_U128, K_RING_WIDE, K_COUNT };
#define K_NONE K_COUNT /* a pipeline that is none of the runtime's kernels */

static const struct {
    const uint32_t *code;
    size_t bytes;
    const char *name;
} kernels[K_COUNT] = {
    {spv_u128, sizeof spv_u128, "copy_u128"},
    {spv_wide, sizeof spv_wide, "copy_wide"},
    {spv_wide_in, sizeof spv_wide_in, "copy_wide_in"},
    {spv_wide_edge, sizeof spv_wide_edge, "copy_wide_edge"},
    {spv_wide_short, sizeof spv_wide_short, "copy_wide_short"},
    {spv_ring_u128, sizeof spv_ring_u128, "ring_u128"},
    {spv_ring_wide, sizeof spv_ring_wide, "ring_wide"},
};

/* The kernels' Push block (runtime/shaders/copy.comp). */
typedef struct push {
    uint32_t base, count, row_units, rows, src_off, dst_off;
    uint32_t s_row, s_plane, d_row, d_plane, slots, planes;
    uint32_t grid, row_base, plane_base, ring;
    uint32_t cap, skip, pos_off, pad;
} push;

/* ---- the trace: what one stream's command buffer recorded ---- */

typedef enum ev_kind { EV_DISPATCH, EV_COPY, EV_BARRIER } ev_kind;

typedef struct event {
    ev_kind kind;
    int kernel;         /* EV_DISPATCH: the bound kernel (K_NONE: not ours) */
    uint32_t groups[3]; /* EV_DISPATCH: work-group counts */
    push pc;            /* EV_DISPATCH: the push constants */
    uint32_t n_win;     /* EV_DISPATCH: descriptor windows pushed */
    VkDeviceSize win_off[3], win_range[3];
    uint32_t regions; /* EV_COPY: regions of the vkCmdCopyBuffer */
} event;

#define MAX_EVENTS 8192
#define MAX_OBJECTS 2048

static struct {
    bool arm;            /* the next vkBeginCommandBuffer's command buffer is traced */
    VkCommandBuffer cmd; /* the traced command buffer (VK_NULL_HANDLE: none) */
    int kernel;          /* bound compute kernel */
    push pc;             /* current push constants */
    uint32_t n_win;      /* current windows */
    VkDeviceSize win_off[3], win_range[3];
    event ev[MAX_EVENTS];
    uint32_t n;           /* events recorded */
    bool overflow;        /* more than MAX_EVENTS, or more objects than the tables hold */
    bool push_fn_differs; /* two devices gave two vkCmdPushDescriptorSetKHR */
} tr;

/* Shader modules and pipelines made by the runtime, with the kernel each one is. */
static struct {
    uint64_t handle;
    int kernel;
} modules[MAX_OBJECTS], pipelines[MAX_OBJECTS];
static uint32_t n_modules, n_pipelines;
static PFN_vkCmdPushDescriptorSetKHR real_push_descriptor;

static void remember(uint64_t handle, int kernel, bool pipeline)
{
    uint32_t *n = pipeline ? &n_pipelines : &n_modules;
    if (*n == MAX_OBJECTS) {
        tr.overflow = true;
        return;
    }
    (pipeline ? pipelines : modules)[*n].handle = handle;
    (pipeline ? pipelines : modules)[(*n)++].kernel = kernel;
}

/* The newest entry wins: a destroyed object's handle may be reused. */
static int kernel_of(uint64_t handle, bool pipeline)
{
    uint32_t n = pipeline ? n_pipelines : n_modules;
    for (uint32_t i = n; i-- > 0;)
        if ((pipeline ? pipelines : modules)[i].handle == handle)
            return (pipeline ? pipelines : modules)[i].kernel;
    return K_NONE;
}

static bool traced(VkCommandBuffer cmd)
{
    return tr.cmd != VK_NULL_HANDLE && cmd == tr.cmd;
}

static event *add_event(ev_kind kind)
{
    if (tr.n == MAX_EVENTS) {
        tr.overflow = true;
        return NULL;
    }
    event *e = &tr.ev[tr.n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    return e;
}

static VKAPI_ATTR VkResult VKAPI_CALL
trace_create_shader_module(VkDevice device, const VkShaderModuleCreateInfo *info,
                           const VkAllocationCallbacks *alloc, VkShaderModule *module)
{
    VkResult r = vkCreateShaderModule(device, info, alloc, module);
    if (r == VK_SUCCESS) {
        int k = K_NONE;
        for (int i = 0; i < K_COUNT && k == K_NONE; i++)
            if (info->codeSize == kernels[i].bytes &&
                memcmp(info->pCode, kernels[i].code, kernels[i].bytes) == 0)
                k = i;
        remember((uint64_t)(uintptr_t)*module, k, false);
    }
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL trace_create_compute_pipelines(
    VkDevice device, VkPipelineCache cache, uint32_t count,
    const VkComputePipelineCreateInfo *infos, const VkAllocationCallbacks *alloc, VkPipeline *pipes)
{
    VkResult r = vkCreateComputePipelines(device, cache, count, infos, alloc, pipes);
    if (r == VK_SUCCESS)
        for (uint32_t i = 0; i < count; i++)
            remember((uint64_t)(uintptr_t)pipes[i],
                     kernel_of((uint64_t)(uintptr_t)infos[i].stage.module, false), true);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL
trace_begin_command_buffer(VkCommandBuffer cmd, const VkCommandBufferBeginInfo *info)
{
    if (tr.arm) {
        tr.cmd = cmd;
        tr.arm = false;
    }
    return vkBeginCommandBuffer(cmd, info);
}

static VKAPI_ATTR void VKAPI_CALL trace_cmd_bind_pipeline(VkCommandBuffer cmd,
                                                          VkPipelineBindPoint point,
                                                          VkPipeline pipe)
{
    if (traced(cmd) && point == VK_PIPELINE_BIND_POINT_COMPUTE)
        tr.kernel = kernel_of((uint64_t)(uintptr_t)pipe, true);
    vkCmdBindPipeline(cmd, point, pipe);
}

static VKAPI_ATTR void VKAPI_CALL trace_cmd_push_constants(VkCommandBuffer cmd,
                                                           VkPipelineLayout layout,
                                                           VkShaderStageFlags stages,
                                                           uint32_t offset, uint32_t size,
                                                           const void *values)
{
    if (traced(cmd) && offset <= sizeof tr.pc && size <= sizeof tr.pc - offset)
        memcpy((unsigned char *)&tr.pc + offset, values, size);
    vkCmdPushConstants(cmd, layout, stages, offset, size, values);
}

static VKAPI_ATTR void VKAPI_CALL trace_push_descriptor(VkCommandBuffer cmd,
                                                        VkPipelineBindPoint point,
                                                        VkPipelineLayout layout, uint32_t set,
                                                        uint32_t count,
                                                        const VkWriteDescriptorSet *writes)
{
    if (traced(cmd)) {
        tr.n_win = 0;
        for (uint32_t i = 0; i < count; i++) {
            uint32_t b = writes[i].dstBinding;
            if (b < 3 && writes[i].pBufferInfo) {
                tr.win_off[b] = writes[i].pBufferInfo->offset;
                tr.win_range[b] = writes[i].pBufferInfo->range;
                tr.n_win = b + 1 > tr.n_win ? b + 1 : tr.n_win;
            }
        }
    }
    real_push_descriptor(cmd, point, layout, set, count, writes);
}

static VKAPI_ATTR void VKAPI_CALL trace_cmd_dispatch(VkCommandBuffer cmd, uint32_t x, uint32_t y,
                                                     uint32_t z)
{
    event *e;
    if (traced(cmd) && (e = add_event(EV_DISPATCH))) {
        e->kernel = tr.kernel;
        e->groups[0] = x, e->groups[1] = y, e->groups[2] = z;
        e->pc = tr.pc;
        e->n_win = tr.n_win;
        memcpy(e->win_off, tr.win_off, sizeof e->win_off);
        memcpy(e->win_range, tr.win_range, sizeof e->win_range);
    }
    vkCmdDispatch(cmd, x, y, z);
}

static VKAPI_ATTR void VKAPI_CALL trace_cmd_copy_buffer(VkCommandBuffer cmd, VkBuffer src,
                                                        VkBuffer dst, uint32_t count,
                                                        const VkBufferCopy *regions)
{
    event *e;
    if (traced(cmd) && (e = add_event(EV_COPY)))
        e->regions = count;
    vkCmdCopyBuffer(cmd, src, dst, count, regions);
}

static VKAPI_ATTR void VKAPI_CALL trace_cmd_pipeline_barrier(
    VkCommandBuffer cmd, VkPipelineStageFlags src, VkPipelineStageFlags dst,
    VkDependencyFlags flags, uint32_t n_mem, const VkMemoryBarrier *mem, uint32_t n_buf,
    const VkBufferMemoryBarrier *buf, uint32_t n_img, const VkImageMemoryBarrier *img)
{
    if (traced(cmd))
        add_event(EV_BARRIER);
    vkCmdPipelineBarrier(cmd, src, dst, flags, n_mem, mem, n_buf, buf, n_img, img);
}

/* The runtime's vkCmdPushDescriptorSetKHR: the device's, kept when rt_gdpa hands out the
 * tracing one. */
static void seen(const char *name, PFN_vkVoidFunction f)
{
    if (strcmp(name, "vkCmdPushDescriptorSetKHR") != 0)
        return;
    PFN_vkCmdPushDescriptorSetKHR real = (PFN_vkCmdPushDescriptorSetKHR)f;
    if (real_push_descriptor && real_push_descriptor != real)
        tr.push_fn_differs = true;
    real_push_descriptor = real;
}

#define RT_HOOK_SEEN(name, real) seen(name, real)
/* clang-format off */
#define RT_HOOKS(X)                                                                           \
    X(vkCreateShaderModule, trace_create_shader_module)                                       \
    X(vkCreateComputePipelines, trace_create_compute_pipelines)                               \
    X(vkBeginCommandBuffer, trace_begin_command_buffer)                                       \
    X(vkCmdBindPipeline, trace_cmd_bind_pipeline)                                             \
    X(vkCmdPushConstants, trace_cmd_push_constants)                                           \
    X(vkCmdPushDescriptorSetKHR, trace_push_descriptor)                                       \
    X(vkCmdDispatch, trace_cmd_dispatch) X(vkCmdCopyBuffer, trace_cmd_copy_buffer)            \
    X(vkCmdPipelineBarrier, trace_cmd_pipeline_barrier)
/* clang-format on */
#include "rt_vk_hooks.h"

/* A context of the test: rt_context's, through the tracing vkGetInstanceProcAddr. */
static fkc_context *edge_context(uint32_t flags, fkc_copy_path path, uint64_t range,
                                 uint32_t groups)
{
    fkc_test_hooks h = {.storage_buffer_range = range, .work_group_count = groups};
    return rt_context_hooks(flags, path, &h, rt_gipa);
}

/* Begins the stream with its command buffer traced; the events start after the begin. */
static void trace_begin(fkc_stream *s)
{
    tr.cmd = VK_NULL_HANDLE;
    tr.arm = true;
    RT_OK(fkc_stream_begin(s));
    tr.arm = false;
    if (tr.cmd == VK_NULL_HANDLE)
        fail_msg("fkc_stream_begin began no command buffer");
    tr.n = 0;
    tr.kernel = K_NONE;
    tr.n_win = 0;
}

/* What a traced recording did. */
typedef struct trace_sum {
    uint32_t dispatches, copies, regions, barriers;
    uint32_t by_kernel[K_COUNT + 1]; /* dispatches of each kernel */
    uint32_t grid, flat;             /* dispatches in grid / flat mode */
    uint32_t rings[8];               /* dispatches by push.ring (ring kernels) */
} trace_sum;

/* The larger of the device's storage-offset alignment and 16 (where windows start). */
static uint64_t window_align(const fkc_context *ctx)
{
    uint64_t a = fkc_context_device(ctx)->min_storage_buffer_offset_alignment;
    return a > 16 ? a : 16;
}

/* Ends the trace of stream s and checks what every dispatch must keep to: one of the runtime's
 * kernels bound, 1..limit work groups in each dimension, each window aligned and within the
 * storage range; the stream's command count is the dispatches and copies traced. */
static trace_sum trace_end(const fkc_context *ctx, const fkc_stream *s, const char *what)
{
    trace_sum t;
    memset(&t, 0, sizeof t);
    uint64_t range = rt_storage_range(ctx), align = window_align(ctx);
    uint32_t lim = rt_group_limit(ctx);
    tr.cmd = VK_NULL_HANDLE;
    if (tr.overflow || tr.push_fn_differs)
        fail_msg("%s: the trace overflowed or saw two push-descriptor functions", what);
    for (uint32_t i = 0; i < tr.n; i++) {
        const event *e = &tr.ev[i];
        if (e->kind == EV_BARRIER) {
            t.barriers++;
            continue;
        }
        if (e->kind == EV_COPY) {
            t.copies++;
            t.regions += e->regions;
            continue;
        }
        t.dispatches++;
        t.by_kernel[e->kernel]++;
        if (e->kernel == K_NONE)
            fail_msg("%s: dispatch %u runs no kernel of the runtime", what, i);
        for (int d = 0; d < 3; d++)
            if (e->groups[d] < 1 || e->groups[d] > lim)
                fail_msg("%s: dispatch %u (%s): %u work groups in dimension %d, limit %u", what, i,
                         kernels[e->kernel].name, e->groups[d], d, lim);
        uint32_t want = e->kernel == K_RING_U128 || e->kernel == K_RING_WIDE ? 3 : 2;
        if (e->n_win != want)
            fail_msg("%s: dispatch %u binds %u windows, not %u", what, i, e->n_win, want);
        for (uint32_t b = 0; b < e->n_win; b++)
            if (e->win_range[b] < 1 || e->win_range[b] > range || e->win_off[b] % align)
                fail_msg("%s: dispatch %u (%s), binding %u: window of %llu bytes at %llu (storage "
                         "range %llu, alignment %llu)",
                         what, i, kernels[e->kernel].name, b, (unsigned long long)e->win_range[b],
                         (unsigned long long)e->win_off[b], (unsigned long long)range,
                         (unsigned long long)align);
        if (e->pc.grid)
            t.grid++;
        else
            t.flat++;
        if (want == 3)
            t.rings[e->pc.ring & 7]++;
    }
    if (t.dispatches + t.copies != rt_command_count(s))
        fail_msg("%s: %u dispatches and %u copies traced, the stream counts %u commands", what,
                 t.dispatches, t.copies, rt_command_count(s));
    return t;
}

/* Fails unless the trace took exactly `n` dispatches, all of kernel k. */
static void expect_kernel(const trace_sum *t, int k, uint32_t n, const char *what)
{
    if (t->dispatches != n || t->by_kernel[k] != n || t->copies != 0)
        fail_msg("%s: %u dispatches (%u of %s, want %u) and %u copies", what, t->dispatches,
                 t->by_kernel[k], kernels[k].name, n, t->copies);
}

/* ---- one op in its own buffers, traced, submitted alone, compared whole ---- */

/* Guard bytes after every tensor in its buffer (before it: dst_at / src_at). */
#define GUARD 40

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* A write_slice of src (at src_at) into out (at dst_at), offsets off. */
static trace_sum slice_one(fkc_context *ctx, fkc_dtype dt, uint32_t rank, const size_t *dst,
                           const size_t *src, const size_t *off, size_t dst_at, size_t src_at,
                           const char *what)
{
    size_t e = fkc_dtype_size(dt);
    rt_buf D, S;
    rt_buf_make(ctx, &D, dst_at + rt_elems(rank, dst) * e + GUARD);
    rt_buf_make(ctx, &S, src_at + rt_elems(rank, src) * e + GUARD);
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    fkc_tensor st = rt_tensor(S.dev, src_at, dt, rank, src);
    fkc_tensor ot = rt_tensor(D.dev, dst_at, dt, rank, dst);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_test_set_fusion(s, false); /* the kernels of one op each (test_fused: fused) */
    trace_begin(s);
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    trace_sum t = trace_end(ctx, s, what);
    RT_OK(fkc_stream_submit(s));
    assert_int_equal(fkc_ref_write_slice(D.host + dst_at, dst, rank, S.host + src_at, src, off, e),
                     FKC_OK);
    rt_buf_check(&D, what);
    rt_buf_check(&S, what);
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(ctx);
    return t;
}

/* A rotating write with the position `pos` at byte pos_at of its own buffer. */
static trace_sum ring_one(fkc_context *ctx, fkc_dtype dt, uint32_t rank, const size_t *dst,
                          const size_t *src, size_t cap, uint64_t pos, int32_t axis, size_t dst_at,
                          size_t src_at, size_t pos_at, const char *what)
{
    size_t e = fkc_dtype_size(dt);
    rt_buf D, S, P;
    rt_buf_make(ctx, &D, dst_at + rt_elems(rank, dst) * e + GUARD);
    rt_buf_make(ctx, &S, src_at + rt_elems(rank, src) * e + GUARD);
    rt_buf_make(ctx, &P, pos_at + 8 + 3);
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    put_u64(P.host + pos_at, pos);
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, P.size));
    fkc_tensor st = rt_tensor(S.dev, src_at, dt, rank, src);
    fkc_tensor ot = rt_tensor(D.dev, dst_at, dt, rank, dst);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_test_set_fusion(s, false); /* the kernels of one op each (test_fused: fused) */
    trace_begin(s);
    RT_OK(fkc_write_slice_rotating(s, &st, &ot, cap, P.dev, pos_at, axis));
    trace_sum t = trace_end(ctx, s, what);
    RT_OK(fkc_stream_submit(s));
    assert_int_equal(fkc_ref_write_slice_rotating(D.host + dst_at, dst, rank, S.host + src_at, src,
                                                  cap, pos, axis, e),
                     FKC_OK);
    char msg[200];
    snprintf(msg, sizeof msg, "%s (cap %zu, position %llu)", what, cap, (unsigned long long)pos);
    rt_buf_check(&D, msg);
    rt_buf_check(&S, msg);
    rt_buf_check(&P, msg);
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_buf_free(&P);
    rt_no_validation(ctx);
    return t;
}

static const fkc_dtype widths[4] = {FKC_DTYPE_U8, FKC_DTYPE_F16, FKC_DTYPE_F32, FKC_DTYPE_F64};

static fkc_context *compute_ctx; /* FKC_COPY_COMPUTE, the device's own limits */

static int setup(void **state)
{
    (void)state;
    compute_ctx = edge_context(0, FKC_COPY_COMPUTE, 0, 0);
    return compute_ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    fkc_context_destroy(compute_ctx);
    return 0;
}


/* ---- rings: the outer axis, the third merged axis, one-token rings ---- */

/* The aligned one-dispatch ring kernel with the ring along the outer axis of a 3-D
 * destination: [5, 3, 2 u] (u: elements per 16 bytes) written from [n, 2, u], so the rows do
 * not merge and the ring is the piece's plane dimension (push.ring 2). No wrap, ending at the
 * ring end, wrapping, one token at the last plane and at the first, longer than the ring,
 * positions past 2^32 and 2^64 - 1: one ring_u128 dispatch each. With the destination rows one
 * element wider (misaligned strides) the same writes take ring_wide, piece A then piece B. */
static void test_ring_outer_axis(void **state)
{
    (void)state;
    static const struct {
        size_t n;
        uint64_t pos;
    } cases[] = {{2, 1},         {3, 2}, {4, 3},  {1, 4},
                 {1, 0},         {7, 2}, {12, 9}, {5, (1ull << 32) + 1},
                 {3, UINT64_MAX}};
    rng_seed(0x0A7E);
    for (int w = 0; w < 4; w++) {
        size_t u = 16 / fkc_dtype_size(widths[w]);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const size_t dst[3] = {5, 3, 2 * u}, src[3] = {cases[i].n, 2, u};
            trace_sum t = ring_one(compute_ctx, widths[w], 3, dst, src, 5, cases[i].pos, 0, 32, 16,
                                   8 * (i % 3), "aligned ring on the outer axis");
            expect_kernel(&t, K_RING_U128, 1, "aligned ring on the outer axis");
            assert_int_equal(t.rings[2], 1);
            const size_t dstm[3] = {5, 3, 2 * u + 1};
            t = ring_one(compute_ctx, widths[w], 3, dstm, src, 5, cases[i].pos, 0, 32, 16, 3,
                         "misaligned ring on the outer axis");
            expect_kernel(&t, K_RING_WIDE, 2, "misaligned ring on the outer axis");
            assert_int_equal(t.rings[2] + t.rings[6], 2);
        }
    }
}

/* The ring on the third and fourth merged axes: dims (innermost first) rows, a walked dim,
 * the ring, so the piece takes the ring's dim as its planes and the host walks the dims in
 * between and beyond; rank 4 (ring at merged dim 2), rank 5 with a dim beyond the ring (ring
 * at dim 2, dims 1 and 3 walked), rank 5 with the ring at merged dim 3. Aligned: one ring_u128
 * dispatch per walked piece; misaligned: two ring_wide each. */
static void test_ring_third_axis(void **state)
{
    (void)state;
    static const uint64_t pos[] = {4, 5, (1ull << 32) + 3, UINT64_MAX - 1};
    static const size_t len[] = {3, 1, 6, 9};
    rng_seed(0x3A1);
    for (int w = 0; w < 4; w++) {
        size_t u = 16 / fkc_dtype_size(widths[w]);
        for (int k = 0; k < 4; k++) {
            for (int al = 0; al < 2; al++) {
                size_t W = 2 * u + (al ? 0 : 1);
                int kern = al ? K_RING_U128 : K_RING_WIDE;
                uint32_t per = al ? 1 : 2;
                const size_t d4[4] = {6, 3, 4, W}, s4[4] = {len[k], 2, 3, u};
                trace_sum t = ring_one(compute_ctx, widths[w], 4, d4, s4, 6, pos[k], 0, 16, 32, 8,
                                       "ring at merged dim 2 (rank 4)");
                expect_kernel(&t, kern, 2 * per, "ring at merged dim 2 (rank 4)");
                const size_t d5[5] = {2, 6, 3, 4, W}, s5[5] = {2, len[k], 2, 3, u};
                t = ring_one(compute_ctx, widths[w], 5, d5, s5, 6, pos[k], 1, 48, 16, 5,
                             "ring at merged dim 2 (rank 5)");
                expect_kernel(&t, kern, 4 * per, "ring at merged dim 2 (rank 5)");
                const size_t d6[5] = {6, 3, 4, 5, W}, s6[5] = {len[k], 2, 3, 4, u};
                t = ring_one(compute_ctx, widths[w], 5, d6, s6, 6, pos[k], 0, 16, 16, 0,
                             "ring at merged dim 3");
                expect_kernel(&t, kern, 6 * per, "ring at merged dim 3");
            }
        }
    }
}

/* One-token rings whose rows are 16-byte aligned but whose ring stride is not ([cap, u + 1]
 * from [1, u]; [cap, 3, u + 1] from [1, 2, u]): the alignment must count the ring's stride
 * even with a single row or plane, so these take ring_wide; and a one-token ring on planes
 * with aligned strides ([cap, 3, 2 u] from [1, 2, u]) takes ring_u128 with its plane stride. */
static void test_ring_one_token(void **state)
{
    (void)state;
    rng_seed(0x70C);
    for (int w = 0; w < 4; w++) {
        size_t u = 16 / fkc_dtype_size(widths[w]);
        for (uint64_t pos = 0; pos < 7; pos += 3) {
            const size_t d1[2] = {7, u + 1}, s1[2] = {1, u};
            trace_sum t = ring_one(compute_ctx, widths[w], 2, d1, s1, 7, pos + (1ull << 33), 0, 16,
                                   16, 0, "one token, misaligned ring stride (rows)");
            expect_kernel(&t, K_RING_WIDE, 2, "one token, misaligned ring stride (rows)");
            const size_t d2[3] = {7, 3, u + 1}, s2[3] = {1, 2, u};
            t = ring_one(compute_ctx, widths[w], 3, d2, s2, 7, pos, 0, 16, 16, 8,
                         "one token, misaligned ring stride (planes)");
            expect_kernel(&t, K_RING_WIDE, 2, "one token, misaligned ring stride (planes)");
            const size_t d3[3] = {7, 3, 2 * u}, s3[3] = {1, 2, u};
            t = ring_one(compute_ctx, widths[w], 3, d3, s3, 7, pos, 0, 16, 16, 8,
                         "one token on planes, aligned");
            expect_kernel(&t, K_RING_U128, 1, "one token on planes, aligned");
        }
    }
}

/* ---- ring positions from 2^32 up and near 2^64 ---- */

/* Positions of a ring of capacity cap: either side of 2^32, far past it, near 2^64, and the
 * largest ones whose residue mod cap is 0 and cap - 1 (below 2^32 and above). */
static uint32_t positions(uint64_t cap, uint64_t *out)
{
    const uint64_t m = UINT64_MAX - UINT64_MAX % cap;      /* the largest multiple of cap */
    const uint64_t above = ((1ull << 32) / cap + 1) * cap; /* the first multiple past 2^32 */
    const uint64_t fixed[] = {m,
                              m - 1,
                              UINT64_MAX,
                              above - 1,
                              above,
                              above + cap - 1,
                              (1ull << 32) - 1,
                              1ull << 32,
                              (1ull << 32) + 1,
                              (1ull << 33) + cap - 1,
                              0xffffffff00000000ull,
                              0x00000001ffffffffull,
                              1ull << 63,
                              (1ull << 63) - 1,
                              UINT64_MAX - 1,
                              0x8000000100000000ull + 7 * cap};
    uint32_t n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        out[n++] = fixed[i];
    return n;
}

/* All positions of one capacity in one stream: each write into its own ring (separated by
 * guard bytes), reading its own position (at 24 k + 0, 3, 8 or 13). Sources of one token, of
 * three, and longer than twice the ring (skipped rows of cap + 1 or more), plus the positions
 * where the skipped rows take the ring's start exactly to cap (it must wrap to 0); at most
 * max_ops writes. Rings [cap, drow] written from [len, row] (elements of dt): kernel `kern`
 * (ring_u128 for aligned rows, ring_wide for the others) must take every write. */
static void positions_of(fkc_context *ctx, fkc_dtype dt, size_t cap, size_t row, size_t drow,
                         size_t max_ops, int kern, const char *what)
{
    enum { MAX_OPS = 64 };
    size_t e = fkc_dtype_size(dt), n_ops = 0;
    if (max_ops > MAX_OPS)
        max_ops = MAX_OPS;
    uint64_t pos[MAX_OPS];
    size_t lens[MAX_OPS], d_at[MAX_OPS], s_at[MAX_OPS], p_at[MAX_OPS];
    uint64_t list[32];
    uint32_t np = positions(cap, list);
    const size_t lens3[3] = {1, cap < 3 ? cap : 3, 2 * cap + 1};
    for (uint32_t i = 0; i < np; i++)
        for (int l = 0; l < 3 && n_ops < max_ops; l++)
            if (l < 2 || i % 3 == 0 || cap < 300) {
                pos[n_ops] = list[i];
                lens[n_ops++] = lens3[l];
            }
    for (size_t len = cap + 1; len < 2 * cap && n_ops + 2 <= max_ops && len <= cap + 4; len++) {
        uint64_t skip = (len - cap) % cap, want = (cap - skip) % cap; /* start lands on cap */
        pos[n_ops] = (1ull << 40) * cap + want;
        lens[n_ops++] = len;
        pos[n_ops] = want;
        lens[n_ops++] = len;
    }
    size_t dcur = 16, scur = 16;
    for (size_t k = 0; k < n_ops; k++) {
        d_at[k] = dcur;
        s_at[k] = scur;
        p_at[k] = 24 * k + (size_t[]){0, 3, 8, 13}[k % 4];
        dcur = (dcur + cap * drow * e + GUARD + 15) & ~(size_t)15;
        scur = (scur + lens[k] * row * e + GUARD + 15) & ~(size_t)15;
    }
    rt_buf D, S, P;
    rt_buf_make(ctx, &D, dcur);
    rt_buf_make(ctx, &S, scur);
    rt_buf_make(ctx, &P, 24 * n_ops + 8);
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    for (size_t k = 0; k < n_ops; k++)
        put_u64(P.host + p_at[k], pos[k]);
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, P.size));
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_test_set_fusion(s, false); /* the kernels of one op each (test_fused: fused) */
    trace_begin(s);
    for (size_t k = 0; k < n_ops; k++) {
        const size_t dst[2] = {cap, drow}, src[2] = {lens[k], row};
        fkc_tensor st = rt_tensor(S.dev, s_at[k], dt, 2, src);
        fkc_tensor ot = rt_tensor(D.dev, d_at[k], dt, 2, dst);
        RT_OK(fkc_write_slice_rotating(s, &st, &ot, cap, P.dev, p_at[k], 0));
        assert_int_equal(fkc_ref_write_slice_rotating(D.host + d_at[k], dst, 2, S.host + s_at[k],
                                                      src, cap, pos[k], 0, e),
                         FKC_OK);
    }
    trace_sum t = trace_end(ctx, s, what);
    RT_OK(fkc_stream_submit(s));
    char msg[160];
    snprintf(msg, sizeof msg, "%s, capacity %zu, %zu positions", what, cap, n_ops);
    rt_buf_check(&D, msg);
    expect_kernel(&t, kern, (uint32_t)n_ops * (kern == K_RING_WIDE ? 2 : 1), msg);
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_buf_free(&P);
    rt_no_validation(ctx);
}

static void test_ring_positions(void **state)
{
    (void)state;
    static const size_t caps[] = {1, 2, 3, 5, 7, 8, 255, 256, 1000, 65537};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        rng_seed(0x9051 + i);
        positions_of(compute_ctx, FKC_DTYPE_F32, caps[i], 4, 4, 64, K_RING_U128,
                     "aligned ring positions");
        positions_of(compute_ctx, FKC_DTYPE_U8, caps[i], 5, 6, 64, K_RING_WIDE,
                     "misaligned ring positions");
    }
    /* A ring of 2^20 + 7 one-byte rows: the position arithmetic with a large capacity (a few
     * positions: each op has a 1 MiB ring of its own). */
    rng_seed(0x9052);
    positions_of(compute_ctx, FKC_DTYPE_U8, (1u << 20) + 7, 1, 1, 6, K_RING_WIDE, "a large ring");
}

/* ---- the storage-window limit, exactly and a few bytes over ---- */

/* The span one storage window may cover: the range less the slack of a window start rounded
 * down to the offset alignment and of its end rounded up to 16 bytes, a multiple of 16
 * (slab.c's limit). Work whose span is exactly this goes in one dispatch; a byte more splits. */
static uint64_t window_limit(const fkc_context *ctx)
{
    return (rt_storage_range(ctx) - window_align(ctx) - 16) & ~(uint64_t)15;
}

/* Fails unless the trace took n dispatches of kernel k. */
#define EXPECT(t, k, n, what) expect_kernel(&(t), (k), (n), (what))

/* The cases at one limit L (224 or 992 bytes: both 32 mod 48 and 32 mod 64, so every shape
 * below lands exactly on it), u8 on the compute path. */
static void window_cases(fkc_context *ctx, size_t L)
{
    const fkc_dtype u8 = FKC_DTYPE_U8;
    trace_sum t;
    /* One row: exactly L (aligned, and misaligned by its destination), a unit over, a few bytes
     * over, one byte under; the split parts of a long row go in 16-byte multiples. */
    const size_t d1[1] = {L + 64}, o16[1] = {16}, o17[1] = {17};
    const size_t r_l[1] = {L}, r_l16[1] = {L + 16}, r_l1[1] = {L + 1}, r_l3[1] = {L + 3},
                 r_m1[1] = {L - 1};
    t = slice_one(ctx, u8, 1, d1, r_l, o16, 0, 16, "one aligned row of exactly the limit");
    EXPECT(t, K_U128, 1, "one aligned row of exactly the limit");
    t = slice_one(ctx, u8, 1, d1, r_l16, o16, 0, 16, "one aligned row a unit over the limit");
    EXPECT(t, K_U128, 2, "one aligned row a unit over the limit");
    t = slice_one(ctx, u8, 1, d1, r_l, o17, 0, 16, "one misaligned row of exactly the limit");
    EXPECT(t, K_WIDE, 1, "one misaligned row of exactly the limit");
    t = slice_one(ctx, u8, 1, d1, r_l1, o16, 0, 16, "one row a byte over the limit");
    EXPECT(t, K_WIDE, 2, "one row a byte over the limit");
    t = slice_one(ctx, u8, 1, d1, r_l3, o17, 0, 3, "one row three bytes over the limit");
    EXPECT(t, K_WIDE, 2, "one row three bytes over the limit");
    t = slice_one(ctx, u8, 1, d1, r_m1, o17, 0, 3, "one row a byte under the limit");
    EXPECT(t, K_WIDE, 1, "one row a byte under the limit");
    /* Rows: five rows of 32 bytes at a stride of D = (L - 32) / 4 span exactly L; seven go in
     * two dispatches (5 + 2); rows of 48 (16 over) take four per dispatch; of 33, a byte over. */
    size_t D = (L - 32) / 4;
    const size_t d5[2] = {5, D}, d7[2] = {7, D}, z2[2] = {0, 0};
    const size_t s5[2] = {5, 32}, s7[2] = {7, 32}, s48[2] = {5, 48}, s33[2] = {5, 33};
    t = slice_one(ctx, u8, 2, d5, s5, z2, 16, 0, "rows spanning exactly the limit");
    EXPECT(t, K_U128, 1, "rows spanning exactly the limit");
    t = slice_one(ctx, u8, 2, d7, s7, z2, 16, 0, "rows past the limit");
    EXPECT(t, K_U128, 2, "rows past the limit");
    t = slice_one(ctx, u8, 2, d5, s48, z2, 16, 0, "rows 16 bytes over the limit");
    EXPECT(t, K_U128, 2, "rows 16 bytes over the limit");
    t = slice_one(ctx, u8, 2, d5, s33, z2, 16, 0, "rows a byte over the limit");
    EXPECT(t, K_WIDE, 2, "rows a byte over the limit");
    /* Planes: [5, 2, 32] into [5, R, 48] with R = (L - 80) / 48: two planes span exactly L,
     * so three dispatches; [5, 2, 33] is a byte over: one plane per dispatch. */
    size_t R = (L - 80) / 48;
    const size_t dp[3] = {5, R, 48}, sp[3] = {5, 2, 32}, sp1[3] = {5, 2, 33}, z3[3] = {0};
    t = slice_one(ctx, u8, 3, dp, sp, z3, 0, 16, "two planes spanning exactly the limit");
    EXPECT(t, K_U128, 3, "two planes spanning exactly the limit");
    t = slice_one(ctx, u8, 3, dp, sp1, z3, 0, 16, "planes a byte over the limit");
    EXPECT(t, K_WIDE, 5, "planes a byte over the limit");
    /* Rings (device position): [L / 32, 32] spans exactly L, one dispatch; a row longer and
     * the ring no longer fits the device path's bound ((cap - 1) x stride + 32 <= L): the
     * position is read back and plain kernels write the boxes. [(L - 32) / 64 + 1, 64] meets
     * that bound exactly and goes in two 32-byte columns. [2, L] from [1, L]: one stride of
     * the ring is the whole limit, refused on the device (a chunk of zero bytes would never
     * end): read back. */
    const size_t c1 = L / 32, c3 = (L - 32) / 64 + 1;
    const size_t rd1[2] = {c1, 32}, rs1[2] = {2, 32}, rd2[2] = {c1 + 1, 32};
    const size_t rd3[2] = {c3, 64}, rs3[2] = {3, 64}, rd4[2] = {2, L}, rs4[2] = {1, L};
    t = ring_one(ctx, u8, 2, rd1, rs1, c1, c1 - 1, 0, 16, 16, 0, "ring of exactly the limit");
    EXPECT(t, K_RING_U128, 1, "ring of exactly the limit");
    t = ring_one(ctx, u8, 2, rd2, rs1, c1 + 1, c1, 0, 16, 16, 0, "ring over the device bound");
    if (t.by_kernel[K_RING_U128] + t.by_kernel[K_RING_WIDE] != 0 || t.by_kernel[K_U128] != 2)
        fail_msg("ring over the device bound: %u ring dispatches, %u copy_u128",
                 t.by_kernel[K_RING_U128] + t.by_kernel[K_RING_WIDE], t.by_kernel[K_U128]);
    t = ring_one(ctx, u8, 2, rd3, rs3, c3, (1ull << 32) + 1, 0, 16, 16, 8,
                 "ring at exactly the device bound");
    EXPECT(t, K_RING_U128, 2, "ring at exactly the device bound");
    t = ring_one(ctx, u8, 2, rd4, rs4, 2, 1, 0, 16, 16, 0, "ring stride of the whole limit");
    if (t.by_kernel[K_RING_U128] + t.by_kernel[K_RING_WIDE] != 0)
        fail_msg("ring stride of the whole limit: recorded on the device path");
    if (L != 224)
        return;
    /* A ring on planes within the device bound ((cap - 1) x plane stride + 32 <= L) whose whole
     * span is over L: [4, 2, 32] from [3, 2, 16] (span 240) is split along its rows (one per
     * dispatch), never along the ring. */
    const size_t pd[3] = {4, 2, 32}, ps[3] = {3, 2, 16};
    t = ring_one(ctx, u8, 3, pd, ps, 4, 3, 0, 16, 16, 0, "ring on planes over the limit");
    EXPECT(t, K_RING_U128, 2, "ring on planes over the limit");
    assert_int_equal(t.rings[2], 2);
    /* The same for the two pieces of a misaligned ring (ring_wide): piece B (after the wrap)
     * is split along the rows like piece A, never along the ring, whose whole capacity its
     * window spans. [4, 4, 16] from [3, 3, 8] (span 232: two rows, then one, for each piece);
     * from [4, 3, 8] and, ring on rows, [4, 64] from [4, 60], piece B alone is over the limit
     * (a regression: B was split along the ring and wrote nothing). */
    const size_t pdm[3] = {4, 4, 16}, psm[3] = {3, 3, 8}, psm4[3] = {4, 3, 8};
    const size_t rdm[2] = {4, 64}, rsm[2] = {4, 60};
    t = ring_one(ctx, u8, 3, pdm, psm, 4, 2, 0, 16, 16, 0, "misaligned ring on planes, split");
    EXPECT(t, K_RING_WIDE, 4, "misaligned ring on planes, split");
    assert_int_equal(t.rings[2] + t.rings[6], 4);
    t = ring_one(ctx, u8, 3, pdm, psm4, 4, 2, 0, 16, 16, 0, "piece B on planes over the limit");
    EXPECT(t, K_RING_WIDE, 4, "piece B on planes over the limit");
    t = ring_one(ctx, u8, 2, rdm, rsm, 4, (1ull << 32) + 2, 0, 16, 16, 0,
                 "piece B on rows over the limit");
    EXPECT(t, K_RING_WIDE, 4, "piece B on rows over the limit");
}

/* Storage ranges lowered so that the limit is 224 and 992 bytes (whatever the device's
 * alignment); a range not a multiple of 16 is rounded down. */
static void test_window_limit(void **state)
{
    (void)state;
    static const size_t limits[] = {224, 992};
    rng_seed(0x11A1);
    for (int i = 0; i < 2; i++) {
        uint64_t a = window_align(compute_ctx);
        fkc_context *ctx = edge_context(0, FKC_COPY_COMPUTE, limits[i] + a + 16 + 8, 0);
        assert_int_equal(rt_storage_range(ctx), limits[i] + a + 16);
        assert_int_equal(window_limit(ctx), limits[i]);
        window_cases(ctx, limits[i]);
        fkc_context_destroy(ctx);
    }
}

/* ---- work-group-count splits in each dimension ---- */

static uint32_t ceil_div(uint64_t a, uint64_t b)
{
    return (uint32_t)((a + b - 1) / b);
}

/* With the work-group limit lowered to 1, 2 and 3: flat walks (one index, in 2-D grids of at
 * most lim x lim groups per dispatch), grid walks split along x (columns), y (rows) and z
 * (planes), and both ring kernels; aligned and misaligned. The dispatch counts are what the
 * limit allows, no more; each dispatch within the limit in every dimension (trace_end). */
static void test_group_splits(void **state)
{
    (void)state;
    const fkc_dtype u8 = FKC_DTYPE_U8;
    rng_seed(0x6A0);
    for (uint32_t lim = 1; lim <= 3; lim++) {
        fkc_context *ctx = edge_context(0, FKC_COPY_COMPUTE, 0, lim);
        assert_int_equal(rt_group_limit(ctx), lim);
        uint64_t per = (uint64_t)lim * lim * 256; /* slots of one flat dispatch */
        trace_sum t;
        /* Flat: 1200 rows of 2 units (aligned) or 3 slots (33-byte rows). */
        const size_t fd[2] = {1200, 48}, fs[2] = {1200, 32}, fs33[2] = {1200, 33}, z2[2] = {0};
        t = slice_one(ctx, u8, 2, fd, fs, z2, 16, 0, "flat walk, aligned");
        EXPECT(t, K_U128, ceil_div(2400, per), "flat walk, aligned");
        t = slice_one(ctx, u8, 2, fd, fs33, z2, 16, 0, "flat walk, misaligned");
        EXPECT(t, K_WIDE, ceil_div(3600, per), "flat walk, misaligned");
        /* Grid: rows of 8272 bytes (517 units: 3 columns of groups), 5 rows, 3 planes. */
        const size_t gd[3] = {4, 6, 8288}, gs[3] = {3, 5, 8272}, go[3] = {1, 1, 16};
        uint32_t grid = ceil_div(3, lim) * ceil_div(5, lim) * ceil_div(3, lim);
        t = slice_one(ctx, u8, 3, gd, gs, go, 0, 0, "grid walk, aligned");
        EXPECT(t, K_U128, grid, "grid walk, aligned");
        assert_int_equal(t.grid, grid);
        t = slice_one(ctx, u8, 3, gd, gs, go, 1, 0, "grid walk, misaligned");
        EXPECT(t, K_WIDE, grid, "grid walk, misaligned");
        assert_int_equal(t.grid, grid);
        /* Rings: 600 one-unit rows into a ring of 700 (aligned: one walk; misaligned, 16-byte
         * rows at a 17-byte stride: pieces A and B, each walked over one slot per row). */
        const size_t rd[2] = {700, 16}, rs[2] = {600, 16}, rdm[2] = {700, 17};
        t = ring_one(ctx, u8, 2, rd, rs, 700, 650, 0, 16, 16, 0, "ring walk, aligned");
        EXPECT(t, K_RING_U128, ceil_div(600, per), "ring walk, aligned");
        t = ring_one(ctx, u8, 2, rdm, rs, 700, 650, 0, 16, 16, 0, "ring walk, misaligned");
        EXPECT(t, K_RING_WIDE, 2 * ceil_div(600, per), "ring walk, misaligned");
        fkc_context_destroy(ctx);
    }
}

/* ---- the kernel each case must take ---- */

/* On the compute path: 16-byte aligned slabs take copy_u128, others copy_wide; misaligned long
 * rows of 4 MiB and more go in two dispatches (copy_wide_edge, then copy_wide_in), a row less
 * stays one copy_wide; rows of 256 units and more use grid mode (copy_u128: 4096 bytes; wide:
 * 4066 bytes, the units a row can touch at any alignment), shorter ones flat mode. */
static void test_kernel_choice(void **state)
{
    (void)state;
    fkc_context *ctx = compute_ctx;
    const fkc_dtype u8 = FKC_DTYPE_U8;
    trace_sum t;
    rng_seed(0xC401);
    const size_t d[2] = {3, 80}, s[2] = {2, 48}, o[2] = {1, 16}, o1[2] = {1, 17};
    t = slice_one(ctx, u8, 2, d, s, o, 16, 32, "aligned slab");
    EXPECT(t, K_U128, 1, "aligned slab");
    t = slice_one(ctx, u8, 2, d, s, o1, 16, 32, "misaligned slab");
    EXPECT(t, K_WIDE, 1, "misaligned slab");
    /* 1024 rows of 4096 bytes, misaligned: exactly 4 MiB; 1023 rows: just under. */
    const size_t bd[2] = {1024, 4112}, bs[2] = {1024, 4096}, bs1[2] = {1023, 4096};
    const size_t bo[2] = {0, 1};
    t = slice_one(ctx, u8, 2, bd, bs, bo, 0, 0, "4 MiB of misaligned long rows");
    if (t.by_kernel[K_WIDE_EDGE] != 1 || t.by_kernel[K_WIDE_IN] != 1 || t.dispatches != 2)
        fail_msg("4 MiB of misaligned long rows: %u edge, %u inner, %u dispatches in all",
                 t.by_kernel[K_WIDE_EDGE], t.by_kernel[K_WIDE_IN], t.dispatches);
    t = slice_one(ctx, u8, 2, bd, bs1, bo, 0, 0, "just under 4 MiB of misaligned long rows");
    EXPECT(t, K_WIDE, 1, "just under 4 MiB of misaligned long rows");
    /* Grid mode against flat mode at the threshold. */
    static const struct {
        size_t row, off;
        int kernel;
        bool grid;
    } g[] = {{4080, 16, K_U128, false},
             {4096, 16, K_U128, true},
             {4065, 17, K_WIDE, false},
             {4066, 17, K_WIDE, true},
             {4066, 31, K_WIDE, true}};
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        const size_t gd[2] = {2, 4128}, gs[2] = {2, g[i].row}, go[2] = {0, g[i].off};
        t = slice_one(ctx, u8, 2, gd, gs, go, 0, 0, "grid threshold");
        EXPECT(t, g[i].kernel, 1, "grid threshold");
        if (t.grid != (g[i].grid ? 1u : 0u))
            fail_msg("rows of %zu bytes at offset %zu: %s mode", g[i].row, g[i].off,
                     t.grid ? "grid" : "flat");
    }
}

/* The copy path: AUTO on a CPU device (lavapipe) copies rows of 64 bytes and more with copy
 * regions and shorter ones with kernels; COMPUTE never uses copy regions, TRANSFER always
 * (1024 regions per vkCmdCopyBuffer); the device-position ring is a kernel on every path. The
 * same slabs give the same bytes on each path (each equal to the reference). */
static void test_copy_paths(void **state)
{
    (void)state;
    fkc_context *ctxs[3] = {edge_context(0, FKC_COPY_AUTO, 0, 0), compute_ctx,
                            edge_context(0, FKC_COPY_TRANSFER, 0, 0)};
    bool cpu = fkc_context_device(ctxs[0])->type == FKC_DEVICE_CPU;
    const fkc_dtype u8 = FKC_DTYPE_U8;
    for (int c = 0; c < 3; c++) {
        trace_sum t;
        rng_seed(0xC0B1); /* the same bytes on each path */
        const size_t d[2] = {4, 100}, s63[2] = {3, 63}, s64[2] = {3, 64}, o[2] = {1, 5};
        t = slice_one(ctxs[c], u8, 2, d, s63, o, 3, 1, "63-byte rows");
        bool copy63 = c == 2, copy64 = c == 2 || (c == 0 && cpu);
        if (copy63 ? t.copies != 1 || t.dispatches != 0 : t.copies != 0 || t.dispatches != 1)
            fail_msg("63-byte rows, path %d: %u copies, %u dispatches", c, t.copies, t.dispatches);
        t = slice_one(ctxs[c], u8, 2, d, s64, o, 3, 1, "64-byte rows");
        if (copy64 ? t.copies != 1 || t.dispatches != 0 || t.regions != 3
                   : t.copies != 0 || t.dispatches != 1)
            fail_msg("64-byte rows, path %d: %u copies (%u regions), %u dispatches", c, t.copies,
                     t.regions, t.dispatches);
        const size_t rd[2] = {6, 64}, rs[2] = {4, 64};
        t = ring_one(ctxs[c], u8, 2, rd, rs, 6, 4, 0, 16, 16, 0, "ring on each path");
        EXPECT(t, K_RING_U128, 1, "ring on each path");
    }
    /* TRANSFER: 1024 rows in one vkCmdCopyBuffer, 1025 in two; even 1-byte rows. */
    const size_t d1[2] = {1025, 3}, s1024[2] = {1024, 1}, s1025[2] = {1025, 1}, o1[2] = {0, 1};
    trace_sum t = slice_one(ctxs[2], u8, 2, d1, s1024, o1, 0, 0, "1024 copy regions");
    assert_int_equal(t.copies, 1);
    assert_int_equal(t.regions, 1024);
    t = slice_one(ctxs[2], u8, 2, d1, s1025, o1, 0, 0, "1025 copy regions");
    assert_int_equal(t.copies, 2);
    assert_int_equal(t.regions, 1025);
    assert_int_equal(t.dispatches, 0);
    fkc_context_destroy(ctxs[0]);
    fkc_context_destroy(ctxs[2]);
}

/* ---- source and output in one buffer ---- */

#define REFUSED(call, status, text)                                                                \
    do {                                                                                           \
        fkc_status got_ = (call);                                                                  \
        if (got_ != (status))                                                                      \
            fail_msg("%s -> %s, want %s (%s)", #call, fkc_status_name(got_),                       \
                     fkc_status_name(status), fkc_last_error());                                   \
        if (!strstr(fkc_last_error(), (text)))                                                     \
            fail_msg("message '%s' lacks '%s'", fkc_last_error(), (text));                         \
    } while (0)

/* One buffer holding both tensors: every partial overlap of a 16-byte source with the 64-byte
 * out (one byte in at either end, inside, the same start) is refused with nothing recorded or
 * written; a source ending exactly where out starts, or starting exactly where it ends, is
 * accepted and bit-exact, at every width, with the source in the 16-byte units the
 * word-owning kernel rewrites at out's edges; an empty source inside out, and an empty tensor
 * at the very end of its buffer, are accepted and write nothing. The same for rotating writes. */
static void test_overlap(void **state)
{
    (void)state;
    fkc_context *ctx = compute_ctx;
    rng_seed(0x0E1A);
    rt_buf B, P;
    rt_buf_make(ctx, &B, 512);
    rt_buf_make(ctx, &P, 16);
    put_u64(P.host, 5);
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, 16));
    const size_t od[2] = {4, 16}, sd[2] = {2, 8}, off[2] = {1, 4}, ring[2] = {4, 16},
                 rsrc[2] = {1, 16};
    fkc_tensor out = rt_tensor(B.dev, 128, FKC_DTYPE_U8, 2, od);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_test_set_fusion(s, false); /* the kernels of one op each (test_fused: fused) */
    static const uint64_t bad[] = {113, 120, 128, 140, 176, 180, 191};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fkc_tensor src = rt_tensor(B.dev, bad[i], FKC_DTYPE_U8, 2, sd);
        REFUSED(fkc_write_slice(s, &src, &out, off), FKC_ERR_INVALID_ARGUMENT, "overlap");
        fkc_tensor rs = rt_tensor(B.dev, bad[i], FKC_DTYPE_U8, 2, rsrc);
        REFUSED(fkc_write_slice_rotating(s, &rs, &out, 4, P.dev, 0, 0), FKC_ERR_INVALID_ARGUMENT,
                "overlap");
    }
    const size_t empty[2] = {0, 8};
    fkc_tensor hollow = rt_tensor(B.dev, 130, FKC_DTYPE_U8, 2, empty);
    RT_OK(fkc_write_slice(s, &hollow, &out, off));
    fkc_tensor at_end = rt_tensor(B.dev, 512, FKC_DTYPE_U8, 2, empty);
    RT_OK(fkc_write_slice(s, &at_end, &out, off));
    assert_int_equal(fkc_stream_op_count(s), 2);
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&B, "refused overlaps and empty sources write nothing");
    /* Adjacent on either side: write_slice and rotating. */
    static const uint64_t good[] = {112, 192};
    for (int i = 0; i < 2; i++) {
        fkc_tensor src = rt_tensor(B.dev, good[i], FKC_DTYPE_U8, 2, sd);
        RT_OK(fkc_write_slice_sync(ctx, &src, &out, off));
        assert_int_equal(fkc_ref_write_slice(B.host + 128, od, 2, B.host + good[i], sd, off, 1),
                         FKC_OK);
        rt_buf_check(&B, "adjacent source and out");
        fkc_tensor rs = rt_tensor(B.dev, good[i], FKC_DTYPE_U8, 2, rsrc);
        RT_OK(fkc_write_slice_rotating_sync(ctx, &rs, &out, 4, P.dev, 0, 0));
        assert_int_equal(
            fkc_ref_write_slice_rotating(B.host + 128, ring, 2, B.host + good[i], rsrc, 4, 5, 0, 1),
            FKC_OK);
        rt_buf_check(&B, "adjacent source and ring");
    }
    /* Every width: out [3, 5] at a misaligned offset, written whole by a source right before
     * it and right after it, so the edge units of out hold source bytes. */
    for (int w = 0; w < 4; w++) {
        size_t e = fkc_dtype_size(widths[w]), o = 256 + e;
        const size_t full[2] = {3, 5}, z[2] = {0, 0};
        uint64_t at[2] = {o - 15 * e, o + 15 * e};
        for (int i = 0; i < 2; i++) {
            fkc_tensor src = rt_tensor(B.dev, at[i], widths[w], 2, full);
            fkc_tensor dst = rt_tensor(B.dev, o, widths[w], 2, full);
            RT_OK(fkc_write_slice_sync(ctx, &src, &dst, z));
            assert_int_equal(fkc_ref_write_slice(B.host + o, full, 2, B.host + at[i], full, z, e),
                             FKC_OK);
            rt_buf_check(&B, "adjacent source and out, misaligned, whole out");
        }
    }
    fkc_stream_destroy(s);
    rt_buf_free(&B);
    rt_buf_free(&P);
    rt_no_validation(ctx);
}

/* A rotating write's position in out's buffer: any of its 8 bytes inside out is refused on
 * both paths (the device path reads the position while the op writes out: a regression, a
 * full ring of 4096 rows over its own position came out wrong one run in three, with FKC_OK);
 * a position right before or right after out, or inside the source, is fine and bit-exact. */
static void test_position_overlap(void **state)
{
    (void)state;
    for (int path = 0; path < 2; path++) {
        fkc_context *ctx = path ? edge_context(FKC_CONTEXT_RING_READBACK, FKC_COPY_COMPUTE, 0, 0)
                                : compute_ctx;
        rng_seed(0x905);
        rt_buf B;
        rt_buf_make(ctx, &B, 512);
        const size_t ring[2] = {4, 16}, tok[2] = {2, 16};
        fkc_tensor out = rt_tensor(B.dev, 128, FKC_DTYPE_U8, 2, ring); /* bytes 128..191 */
        fkc_tensor src = rt_tensor(B.dev, 300, FKC_DTYPE_U8, 2, tok);  /* bytes 300..331 */
        fkc_stream *s;
        RT_OK(fkc_stream_create(ctx, &s));
        fkc_test_set_fusion(s, false); /* the kernels of one op each (test_fused: fused) */
        static const uint64_t bad[] = {121, 128, 150, 184, 191};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
            REFUSED(fkc_write_slice_rotating(s, &src, &out, 4, B.dev, bad[i], 0),
                    FKC_ERR_INVALID_ARGUMENT, "overlap out");
        assert_int_equal(fkc_stream_op_count(s), 0);
        RT_OK(fkc_stream_submit(s));
        fkc_stream_destroy(s);
        rt_buf_check(&B, "a position overlapping out is refused");
        static const uint64_t good[] = {120, 192, 305};
        for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
            uint64_t pos = 0;
            for (int b = 7; b >= 0; b--)
                pos = pos << 8 | B.host[good[i] + (size_t)b];
            RT_OK(fkc_write_slice_rotating_sync(ctx, &src, &out, 4, B.dev, good[i], 0));
            assert_int_equal(fkc_ref_write_slice_rotating(B.host + 128, ring, 2, B.host + 300, tok,
                                                          4, pos, 0, 1),
                             FKC_OK);
            rt_buf_check(&B, "a position beside out or in the source");
        }
        rt_buf_free(&B);
        rt_no_validation(ctx);
        if (path)
            fkc_context_destroy(ctx);
    }
}

/* ---- NULL streams and malformed params given to the wrappers ---- */

/* Every wrapper given a NULL stream refuses (FKC_ERR_INVALID_ARGUMENT) and crashes nothing; so
 * do the public calls. Params that disagree with the tensors' rank (a longer dst_shape, fewer
 * offsets) and a missing position are refused; nothing is recorded or written. */
static void test_wrapper_arguments(void **state)
{
    (void)state;
    fkc_context *ctx = compute_ctx;
    rng_seed(0xA46);
    rt_buf D, S;
    rt_buf_make(ctx, &D, 256);
    rt_buf_make(ctx, &S, 256);
    static fkc_write_slice_kernel *const ws[4] = {fkc_write_slice_b1, fkc_write_slice_b2,
                                                  fkc_write_slice_b4, fkc_write_slice_b8};
    static fkc_write_slice_rotating_kernel *const wr[4] = {
        fkc_write_slice_rotating_b1, fkc_write_slice_rotating_b2, fkc_write_slice_rotating_b4,
        fkc_write_slice_rotating_b8};
    const size_t dst[2] = {4, 4}, src[2] = {2, 4}, off[3] = {1, 0, 0}, dst3[3] = {4, 4, 1};
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_test_set_fusion(s, false); /* the kernels of one op each (test_fused: fused) */
    for (int w = 0; w < 4; w++) {
        fkc_tensor st = rt_tensor(S.dev, 0, widths[w], 2, src);
        fkc_tensor ot = rt_tensor(D.dev, 0, widths[w], 2, dst);
        fkc_write_slice_params p = {dst, 2, off, 2};
        fkc_write_slice_rotating_params rp = {dst, 2, 4};
        fkc_write_slice_rotating_extra x = {S.dev, 128, -1};
        REFUSED(ws[w](NULL, &st, &ot, &p, NULL), FKC_ERR_INVALID_ARGUMENT, "NULL stream");
        REFUSED(wr[w](NULL, &st, &ot, &rp, &x), FKC_ERR_INVALID_ARGUMENT, "NULL stream");
        REFUSED(ws[w](s, NULL, &ot, &p, NULL), FKC_ERR_INVALID_ARGUMENT, "NULL");
        REFUSED(ws[w](s, &st, NULL, &p, NULL), FKC_ERR_INVALID_ARGUMENT, "NULL");
        REFUSED(wr[w](s, &st, &ot, NULL, &x), FKC_ERR_INVALID_ARGUMENT, "params");
        REFUSED(wr[w](s, &st, &ot, &rp, NULL), FKC_ERR_INVALID_ARGUMENT, "position");
        fkc_write_slice_params few = {dst, 2, off, 1}, longer = {dst3, 3, off, 3},
                               no_shape = {NULL, 2, off, 2};
        REFUSED(ws[w](s, &st, &ot, &few, NULL), FKC_ERR_RANK, "1 offsets for rank 2");
        REFUSED(ws[w](s, &st, &ot, &longer, NULL), FKC_ERR_RANK, "dst_shape 3");
        REFUSED(ws[w](s, &st, &ot, &no_shape, NULL), FKC_ERR_INVALID_ARGUMENT, "NULL");
        fkc_write_slice_rotating_params rlong = {dst3, 3, 4};
        REFUSED(wr[w](s, &st, &ot, &rlong, &x), FKC_ERR_RANK, "dst_shape 3");
        REFUSED(fkc_write_slice(NULL, &st, &ot, off), FKC_ERR_INVALID_ARGUMENT, "NULL stream");
        REFUSED(fkc_write_slice_rotating(NULL, &st, &ot, 4, S.dev, 128, -1),
                FKC_ERR_INVALID_ARGUMENT, "NULL stream");
        REFUSED(fkc_write_slice_sync(NULL, &st, &ot, off), FKC_ERR_INVALID_ARGUMENT, "NULL");
    }
    assert_int_equal(fkc_stream_op_count(s), 0);
    RT_OK(fkc_stream_submit(s));
    fkc_stream_destroy(s);
    rt_buf_check(&D, "refused wrapper calls write nothing");
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(ctx);
}

/* ---- rows shorter than 16 bytes, strides of every alignment class ---- */

/* Rows of e..15 bytes (whole elements) at every destination alignment, with row gaps of 0 to
 * 20 bytes, in 2-D and in 3-D boxes whose planes lie close enough for a plane's last row and
 * the next plane's first to share a 16-byte unit (the word-owning kernel's edge units: one
 * owner per unit, rows ending inside a word, a row ending on a unit boundary). One stream per
 * width, every slab behind guard bytes no op writes; each op's dispatches are traced. */
static void short_rows(fkc_dtype dt)
{
    enum { N = 96 };
    size_t e = fkc_dtype_size(dt), dcur = 0, scur = 0;
    struct {
        uint32_t rank;
        size_t dst[3], src[3], off[3], d_at, s_at;
    } c[N];
    for (int k = 0; k < N; k++) {
        size_t len = 1 + rng_below(15 / e), gap = rng_below(21 / e + 1);
        uint32_t rank = k % 2 ? 3 : 2;
        c[k].rank = rank;
        c[k].src[rank - 1] = len;
        c[k].dst[rank - 1] = len + gap;
        c[k].off[rank - 1] = rng_below(gap + 1);
        c[k].src[rank - 2] = 2 + rng_below(5);
        c[k].dst[rank - 2] = c[k].src[rank - 2] + rng_below(2);
        c[k].off[rank - 2] = rng_below(c[k].dst[rank - 2] - c[k].src[rank - 2] + 1);
        if (rank == 3) {
            c[k].src[0] = 2 + rng_below(3);
            c[k].dst[0] = c[k].src[0] + 1;
            c[k].off[0] = rng_below(2);
        }
        c[k].d_at = ((dcur + 32 + 15) & ~(size_t)15) + (size_t)k % 16; /* every alignment */
        c[k].s_at = ((scur + 32 + 15) & ~(size_t)15) + rng_below(16);
        dcur = c[k].d_at + rt_elems(rank, c[k].dst) * e;
        scur = c[k].s_at + rt_elems(rank, c[k].src) * e;
    }
    rt_buf D, S;
    rt_buf_make(compute_ctx, &D, dcur + 32);
    rt_buf_make(compute_ctx, &S, scur + 32);
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    fkc_stream *s;
    RT_OK(fkc_stream_create(compute_ctx, &s));
    fkc_test_set_fusion(s, false); /* the kernels of one op each (test_fused: fused) */
    trace_begin(s);
    for (int k = 0; k < N; k++) {
        fkc_tensor st = rt_tensor(S.dev, c[k].s_at, dt, c[k].rank, c[k].src);
        fkc_tensor ot = rt_tensor(D.dev, c[k].d_at, dt, c[k].rank, c[k].dst);
        RT_OK(fkc_write_slice(s, &st, &ot, c[k].off));
        assert_int_equal(fkc_ref_write_slice(D.host + c[k].d_at, c[k].dst, c[k].rank,
                                             S.host + c[k].s_at, c[k].src, c[k].off, e),
                         FKC_OK);
    }
    trace_sum t = trace_end(compute_ctx, s, "short rows");
    RT_OK(fkc_stream_submit(s));
    char what[64];
    snprintf(what, sizeof what, "short rows of %s", fkc_dtype_name(dt));
    rt_buf_check(&D, what);
    rt_buf_check(&S, what);
    /* rows under 16 bytes (misaligned: at least half): the short-row kernel; gapless ones
     * merge into long rows */
    assert_true(t.by_kernel[K_WIDE_SHORT] >= N / 2);
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(compute_ctx);
}

static void test_short_rows(void **state)
{
    (void)state;
    for (int w = 0; w < 4; w++) {
        rng_seed(0x5407 + (uint64_t)w);
        short_rows(widths[w]);
    }
}

/* ---- short runs: one invocation per row (copy_wide_short) ---- */

/* One write_slice case: src [rank] into dst [rank] at off, the tensors at byte d_at / s_at of
 * their buffers. */
typedef struct run_case {
    uint32_t rank;
    size_t dst[4], src[4], off[4], d_at, s_at;
} run_case;

/* The cases in one stream (placed one after another in two buffers, or where d_at / s_at say
 * when `placed`), submitted once, each bit-exact against the CPU reference, both buffers
 * compared whole; `want` must take every dispatch. The buffers end where the last case's
 * tensors end (the last element is the buffer's last byte), or GUARD bytes after. */
static trace_sum run_cases(fkc_context *ctx, fkc_dtype dt, run_case *c, int n, bool placed,
                           bool guard, int want, const char *what)
{
    size_t e = fkc_dtype_size(dt), dcur = 0, scur = 0;
    for (int k = 0; k < n; k++) {
        if (!placed) {
            c[k].d_at += (dcur + 15) & ~(size_t)15;
            c[k].s_at += (scur + 15) & ~(size_t)15;
        }
        size_t de = c[k].d_at + rt_elems(c[k].rank, c[k].dst) * e;
        size_t se = c[k].s_at + rt_elems(c[k].rank, c[k].src) * e;
        dcur = de > dcur ? de : dcur;
        scur = se > scur ? se : scur;
    }
    rt_buf D, S;
    rt_buf_make(ctx, &D, dcur + (guard ? GUARD : 0));
    rt_buf_make(ctx, &S, scur + (guard ? GUARD : 0));
    fill_tricky(S.host, S.size, e);
    RT_OK(fkc_buffer_upload(S.dev, 0, S.host, S.size));
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_test_set_fusion(s, false);
    trace_begin(s);
    for (int k = 0; k < n; k++) {
        fkc_tensor st = rt_tensor(S.dev, c[k].s_at, dt, c[k].rank, c[k].src);
        fkc_tensor ot = rt_tensor(D.dev, c[k].d_at, dt, c[k].rank, c[k].dst);
        RT_OK(fkc_write_slice(s, &st, &ot, c[k].off));
        assert_int_equal(fkc_ref_write_slice(D.host + c[k].d_at, c[k].dst, c[k].rank,
                                             S.host + c[k].s_at, c[k].src, c[k].off, e),
                         FKC_OK);
    }
    trace_sum t = trace_end(ctx, s, what);
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&D, what);
    rt_buf_check(&S, what);
    if (t.copies != 0 || t.by_kernel[want] != t.dispatches)
        fail_msg("%s: %u of %u dispatches took %s (%u copies)", what, t.by_kernel[want],
                 t.dispatches, kernels[want].name, t.copies);
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    rt_no_validation(ctx);
    return t;
}

/* Runs of 1..15 bytes (whole elements) of one width at every destination offset mod 16 (the
 * source's offset varies too): rows 16 bytes apart (each unit one run's: the single store),
 * one element more than the run apart (units shared by neighbouring rows: the first owns),
 * and a unit and a bit apart (two units per run); [3, 4, n] into [3, 5, p] (three planes) and
 * into [3, 4, p] (rows and planes merged: one plane). */
static void short_runs(fkc_context *ctx, fkc_dtype dt, int want, const char *what)
{
    size_t e = fkc_dtype_size(dt);
    int n_cases = (int)(15 / e) * 16 * 3, k = 0;
    run_case *c = calloc((size_t)n_cases, sizeof *c);
    assert_non_null(c);
    for (size_t n = 1; n * e <= 15; n++)
        for (size_t o = 0; o < 16; o++)
            for (int pk = 0; pk < 3; pk++, k++) {
                size_t pitch = pk == 0 ? 16 / e : pk == 1 ? n + 1 : n + 16 / e + 1;
                bool planes = (o + (size_t)pk) % 2 == 0;
                c[k] = (run_case){.rank = 3,
                                  .src = {3, 4, n},
                                  .dst = {3, planes ? 5 : 4, pitch},
                                  .off = {0, planes ? 1 : 0, pitch - n},
                                  .d_at = o,
                                  .s_at = (o * 7 + n) % 16};
                /* every offset mod 16: the run starts at d_at + (pitch - n) * e of each row */
                c[k].d_at = (o + 32 - ((pitch - n) * e) % 16) % 16;
            }
    run_cases(ctx, dt, c, n_cases, false, true, want, what);
    free(c);
}

static void test_short_runs(void **state)
{
    (void)state;
    for (int w = 0; w < 4; w++)
        short_runs(compute_ctx, widths[w], K_WIDE_SHORT, "short runs");
    /* FKC_CONTEXT_NO_SHORT_RUNS: the same runs through the general kernel (the bench's old
     * row) */
    fkc_context *old = edge_context(FKC_CONTEXT_NO_SHORT_RUNS, FKC_COPY_COMPUTE, 0, 0);
    assert_non_null(old);
    short_runs(old, FKC_DTYPE_F16, K_WIDE, "short runs, general kernel");
    fkc_context_destroy(old);
}

/* Short runs at the edges: the last element of both buffers (the run's last unit partly past
 * the buffer's end, the source's last unit too); three merged outer axes (the bench's slab
 * [k, 16, 64, 6] f16 into [k, 16, 64, 8] at [0, 0, 0, 1], small) and three that do not
 * merge; a lowered storage window that splits the rows (a window edge inside the box), and a
 * lowered work-group limit (flat walks from a base past 0). */
static void test_short_run_edges(void **state)
{
    (void)state;
    const fkc_dtype f16 = FKC_DTYPE_F16;
    for (int w = 0; w < 4; w++) {
        size_t e = fkc_dtype_size(widths[w]);
        for (size_t n = 1; n * e <= 15; n++) {
            /* [5, n] into [5, n + 1] at [0, 1]: the last row's last element is the buffer's
             * last byte; destination and source at odd offsets */
            run_case c = {.rank = 2,
                          .src = {5, n},
                          .dst = {5, n + 1},
                          .off = {0, 1},
                          .d_at = 16 + n % 16,
                          .s_at = 32 + (3 * n) % 16};
            run_cases(compute_ctx, widths[w], &c, 1, true, false, K_WIDE_SHORT, "last element");
        }
    }
    run_case m[2] = {{.rank = 4, .src = {3, 16, 8, 6}, .dst = {3, 16, 8, 8}, .off = {0, 0, 0, 1}},
                     {.rank = 4,
                      .src = {2, 3, 4, 5},
                      .dst = {3, 4, 5, 8},
                      .off = {1, 1, 1, 2},
                      .d_at = 6,
                      .s_at = 10}};
    trace_sum t = run_cases(compute_ctx, f16, m, 2, false, true, K_WIDE_SHORT, "merged axes");
    assert_int_equal(t.dispatches, 1 + 2); /* the merged slab one; the other a plane each */
    fkc_context *win = edge_context(0, FKC_COPY_COMPUTE, 256, 0);
    fkc_context *few = edge_context(0, FKC_COPY_COMPUTE, 0, 1);
    assert_non_null(win);
    assert_non_null(few);
    for (int w = 0; w < 4; w++) {
        size_t e = fkc_dtype_size(widths[w]);
        /* [40, 12 / e] into [40, 16 / e] and [2, 20, 12 / e] into [2, 21, 16 / e]: 640 bytes
         * through windows of 256 */
        run_case c[2] = {{.rank = 2,
                          .src = {40, 12 / e},
                          .dst = {40, 16 / e},
                          .off = {0, 4 / e},
                          .d_at = 2,
                          .s_at = 5},
                         {.rank = 3,
                          .src = {2, 20, 12 / e},
                          .dst = {2, 21, 16 / e},
                          .off = {0, 1, 2 / e},
                          .d_at = 2,
                          .s_at = 9}};
        t = run_cases(win, widths[w], c, 2, false, true, K_WIDE_SHORT, "short runs, windows");
        assert_true(t.dispatches >= 2 * 3);
        /* 700 rows through dispatches of one work group (256 invocations) */
        run_case g = {.rank = 2,
                      .src = {700, 12 / e},
                      .dst = {700, 16 / e},
                      .off = {0, 2 / e},
                      .d_at = 3,
                      .s_at = 1};
        t = run_cases(few, widths[w], &g, 1, false, true, K_WIDE_SHORT, "short runs, groups");
        assert_int_equal(t.dispatches, 3);
    }
    fkc_context_destroy(win);
    fkc_context_destroy(few);
}

/* Each width, 16- and 48-byte rows: the source's offset, the destination's offset and the
 * destination's row stride each 16-byte aligned or one element off. Only the all-aligned
 * class takes copy_u128 (a misaligned stride alone must not); each is bit-exact. */
static void test_alignment_classes(void **state)
{
    (void)state;
    rng_seed(0xA1C);
    for (int w = 0; w < 4; w++) {
        size_t e = fkc_dtype_size(widths[w]);
        for (int cls = 0; cls < 16; cls++) {
            bool sm = cls & 1, dm = cls & 2, stride_m = cls & 4;
            size_t row = cls & 8 ? 48 : 16;
            const size_t src[2] = {3, row / e}, dst[2] = {4, (row + 16) / e + (stride_m ? 1 : 0)};
            const size_t off[2] = {0, 0}; /* the box starts where out does */
            trace_sum t = slice_one(compute_ctx, widths[w], 2, dst, src, off, 16 + (dm ? e : 0),
                                    16 + (sm ? e : 0), "alignment class");
            bool aligned = !sm && !dm && !stride_m;
            EXPECT(t, aligned ? K_U128 : row == 16 ? K_WIDE_SHORT : K_WIDE, 1, "alignment class");
        }
    }
}

/* ---- ops that depend on each other in one stream ---- */

/* One stream, each op depending on the one before: a write over a write (partial overlap:
 * the last wins), a write reading what the previous one wrote, a write into what the previous
 * one read, a position written by fkc_stream_copy and by a write_slice and then read by a
 * device-position ring, for aligned kernels, the word-owning kernel and copy regions. The bytes
 * follow recording order, and the trace shows a barrier before each op that depends on the one
 * before it. The synchronization validation cannot be the only check: the layer we test with
 * (Debian 12's 1.3.239, on lavapipe) reports read-after-write and write-after-read hazards but
 * not two dispatches writing the same bytes unsynchronized (write after write). */
static void dependent_ops(fkc_context *ctx, size_t mis, const char *what)
{
    const fkc_dtype f32 = FKC_DTYPE_F32;
    rt_buf A, B, C, P;
    rt_buf_make(ctx, &A, 1024);
    rt_buf_make(ctx, &B, 1024);
    rt_buf_make(ctx, &C, 1024);
    rt_buf_make(ctx, &P, 64);
    put_u64(P.host + 32, 3);
    put_u64(P.host + 40, (1ull << 36) + 6);
    RT_OK(fkc_buffer_upload(P.dev, 0, P.host, 64));
    const size_t big[2] = {8, 24}, part[2] = {4, 20}, o1[2] = {1, 2}, o2[2] = {3, 4};
    const size_t z[2] = {0, 0}, ring[2] = {8, 16}, tok[2] = {2, 16}, p8[1] = {8}, o0[1] = {0};
    fkc_tensor a_big = rt_tensor(A.dev, 16 + mis, f32, 2, big);
    fkc_tensor b_big = rt_tensor(B.dev, 16 + mis, f32, 2, big);
    fkc_tensor c_part = rt_tensor(C.dev, 32, f32, 2, part);
    fkc_tensor a_part = rt_tensor(A.dev, 32 + mis, f32, 2, part);
    fkc_tensor b_ring = rt_tensor(B.dev, 0, f32, 2, ring);
    fkc_tensor c_tok = rt_tensor(C.dev, 512, f32, 2, tok);
    fkc_tensor p_src = rt_tensor(P.dev, 40, FKC_DTYPE_U8, 1, p8);
    fkc_tensor p_dst = rt_tensor(P.dev, 48, FKC_DTYPE_U8, 1, p8);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    fkc_test_set_fusion(s, false); /* the kernels of one op each (test_fused: fused) */
    trace_begin(s);
    uint32_t at[10]; /* events before each op */
    at[0] = tr.n;
    RT_OK(fkc_write_slice(s, &c_part, &a_big, o1)); /* 1: A <- C */
    at[1] = tr.n;
    RT_OK(fkc_write_slice(s, &c_part, &a_big, o2)); /* 2: A <- C, overlapping 1: WAW */
    at[2] = tr.n;
    RT_OK(fkc_write_slice(s, &a_big, &b_big, z)); /* 3: B <- A: RAW on 2 */
    at[3] = tr.n;
    RT_OK(fkc_write_slice(s, &c_part, &a_big, z)); /* 4: A <- C: WAR on 3 */
    at[4] = tr.n;
    RT_OK(fkc_stream_copy(s, P.dev, 0, P.dev, 32, 8)); /* 5: position 3 */
    at[5] = tr.n;
    RT_OK(fkc_write_slice_rotating(s, &c_tok, &b_ring, 8, P.dev, 0, 0)); /* 6: RAW on 5 */
    at[6] = tr.n;
    RT_OK(fkc_write_slice(s, &p_src, &p_dst, o0)); /* 7: position 2^36 + 6 */
    at[7] = tr.n;
    RT_OK(fkc_write_slice_rotating(s, &c_tok, &b_ring, 8, P.dev, 48, 0)); /* 8: RAW on 7 */
    at[8] = tr.n;
    RT_OK(fkc_write_slice(s, &a_part, &b_big, o1)); /* 9: B <- A: WAW on 8 */
    at[9] = tr.n;
    trace_end(ctx, s, what);
    /* An op that depends on the one before it starts with a barrier. */
    static const int dependent[] = {2, 3, 4, 6, 8, 9};
    for (size_t i = 0; i < sizeof dependent / sizeof dependent[0]; i++) {
        int k = dependent[i];
        if (at[k - 1] == at[k] || tr.ev[at[k - 1]].kind != EV_BARRIER)
            fail_msg("%s: op %d depends on op %d but no barrier separates them", what, k, k - 1);
    }
    RT_OK(fkc_stream_submit(s));
    size_t e = 4;
    fkc_ref_write_slice(A.host + 16 + mis, big, 2, C.host + 32, part, o1, e);
    fkc_ref_write_slice(A.host + 16 + mis, big, 2, C.host + 32, part, o2, e);
    fkc_ref_write_slice(B.host + 16 + mis, big, 2, A.host + 16 + mis, big, z, e);
    fkc_ref_write_slice(A.host + 16 + mis, big, 2, C.host + 32, part, z, e);
    memcpy(P.host, P.host + 32, 8);
    fkc_ref_write_slice_rotating(B.host, ring, 2, C.host + 512, tok, 8, 3, 0, e);
    memcpy(P.host + 48, P.host + 40, 8);
    fkc_ref_write_slice_rotating(B.host, ring, 2, C.host + 512, tok, 8, (1ull << 36) + 6, 0, e);
    fkc_ref_write_slice(B.host + 16 + mis, big, 2, A.host + 32 + mis, part, o1, e);
    rt_buf_check(&A, what);
    rt_buf_check(&B, what);
    rt_buf_check(&C, what);
    rt_buf_check(&P, what);
    fkc_stream_destroy(s);
    rt_buf *all[] = {&A, &B, &C, &P};
    for (int i = 0; i < 4; i++)
        rt_buf_free(all[i]);
    rt_no_validation(ctx);
}

static void test_dependent_ops(void **state)
{
    (void)state;
    rng_seed(0xDE9);
    dependent_ops(compute_ctx, 0, "dependent ops, aligned kernels");
    dependent_ops(compute_ctx, 4, "dependent ops, word-owning kernel");
    fkc_context *ctx = edge_context(0, FKC_COPY_TRANSFER, 0, 0);
    dependent_ops(ctx, 4, "dependent ops, copy regions");
    fkc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_outer_axis),   cmocka_unit_test(test_ring_third_axis),
        cmocka_unit_test(test_ring_one_token),    cmocka_unit_test(test_ring_positions),
        cmocka_unit_test(test_window_limit),      cmocka_unit_test(test_group_splits),
        cmocka_unit_test(test_kernel_choice),     cmocka_unit_test(test_copy_paths),
        cmocka_unit_test(test_overlap),           cmocka_unit_test(test_position_overlap),
        cmocka_unit_test(test_wrapper_arguments), cmocka_unit_test(test_short_rows),
        cmocka_unit_test(test_short_runs),        cmocka_unit_test(test_short_run_edges),
        cmocka_unit_test(test_alignment_classes), cmocka_unit_test(test_dependent_ops),
    };
    return cmocka_run_group_tests_name("runtime kernel edges", tests, setup, teardown);
}
