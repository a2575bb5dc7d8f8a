/* user_kernel.c — user compute kernels: a SPIR-V module becomes a pipeline (its own push-descriptor
 * set of n storage buffers, set 0 bindings 0..n-1, and a push-constant range), created once and
 * dispatched on an fkc_stream like a built-in op (the same barriers order it with the others).
 * The module is read before Vulkan sees it, so that a malformed one is refused with a message
 * rather than handed to the driver. See docs/runtime.md (### User kernels). */
#include "context.h"
#include "buffer.h"
#include "pipeline.h"
#include "stream.h"
#include "user_kernel.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct fkc_kernel {
    fkc_context *ctx;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    uint32_t n_buffers; /* storage buffers, set 0 bindings 0..n_buffers-1 */
    uint32_t push_size; /* bytes of push constants each dispatch passes */
    uint32_t local[3];  /* the module's LocalSize (1, 1, 1 when it states none) */
    bool cached;        /* owned by the context's cache: fkc_kernel_destroy ignores it */
    uint32_t *words;    /* cached kernels: a copy of the module (the cache key) */
    size_t n_words;
    struct fkc_kernel *next; /* the context's cache list */
};

/* ---- reading the module ------------------------------------------------------------------ */

enum { /* SPIR-V opcodes, decorations and storage classes read here (SPIR-V 1.0-1.6) */
       OP_ENTRY_POINT = 15,
       OP_EXECUTION_MODE = 16,
       OP_TYPE_INT = 21,
       OP_TYPE_FLOAT = 22,
       OP_TYPE_VECTOR = 23,
       OP_TYPE_MATRIX = 24,
       OP_TYPE_ARRAY = 28,
       OP_TYPE_STRUCT = 30,
       OP_TYPE_POINTER = 32,
       OP_CONSTANT = 43,
       OP_VARIABLE = 59,
       OP_DECORATE = 71,
       OP_MEMBER_DECORATE = 72,
       DEC_BLOCK = 2,
       DEC_BUFFER_BLOCK = 3,
       DEC_ARRAY_STRIDE = 6,
       DEC_MATRIX_STRIDE = 7,
       DEC_BINDING = 33,
       DEC_SET = 34,
       DEC_OFFSET = 35,
       SC_UNIFORM_CONSTANT = 0,
       SC_UNIFORM = 2,
       SC_PUSH_CONSTANT = 9,
       SC_STORAGE_BUFFER = 12,
       EXEC_GL_COMPUTE = 5,
       MODE_LOCAL_SIZE = 17,
};
#define SPV_MAGIC 0x07230203u
#define SPV_HEADER 5u

/* What fkc_kernel_create needs to know of a module. */
typedef struct module_info {
    uint32_t local[3];
    uint32_t push_bytes; /* end of the push-constant block (0: none) */
} module_info;

/* Words the look-ups below may still visit while one module is read: each look-up scans the
 * module, so a module with very many variables or deeply nested types would take quadratic or
 * worse time; past this budget it is refused instead (a real kernel uses a tiny part of it). */
#define SCAN_BUDGET (1ull << 28)
static _Thread_local uint64_t scan_left;

static bool charge(size_t n)
{
    if (scan_left < n) {
        scan_left = 0;
        return false;
    }
    scan_left -= n;
    return true;
}

/* Position of the instruction defining result id `id` (its first word), or 0. Types and
 * constants are few; a linear scan per look-up keeps this simple. */
static size_t find_def(const uint32_t *w, size_t n, uint32_t id)
{
    if (!charge(n))
        return 0;
    for (size_t i = SPV_HEADER; i < n; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
        if ((op >= OP_TYPE_INT && op <= OP_TYPE_POINTER && len >= 2 && w[i + 1] == id) ||
            (op == OP_CONSTANT && len >= 4 && w[i + 2] == id))
            return i;
    }
    return 0;
}

/* The value of a decoration on id (member < 0) or on one of its members; `found` says whether
 * there is one. */
static uint32_t decoration(const uint32_t *w, size_t n, uint32_t id, int64_t member, uint32_t dec,
                           bool *found)
{
    *found = false;
    if (!charge(n))
        return 0;
    for (size_t i = SPV_HEADER; i < n; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
        if (member < 0 && op == OP_DECORATE && len >= 3 && w[i + 1] == id && w[i + 2] == dec) {
            *found = true;
            return len >= 4 ? w[i + 3] : 0;
        }
        if (member >= 0 && op == OP_MEMBER_DECORATE && len >= 4 && w[i + 1] == id &&
            w[i + 2] == (uint32_t)member && w[i + 3] == dec) {
            *found = true;
            return len >= 5 ? w[i + 4] : 0;
        }
    }
    return 0;
}

/* Byte size of a type as laid out in a push-constant block; 0 when it cannot be sized. */
static uint64_t type_bytes(const uint32_t *w, size_t n, uint32_t id, int depth)
{
    size_t d = find_def(w, n, id);
    if (!d || depth > 8)
        return 0;
    uint32_t op = w[d] & 0xffff, len = w[d] >> 16;
    bool found;
    switch (op) {
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT: return len >= 3 ? w[d + 2] / 8 : 0;
    case OP_TYPE_VECTOR: return len >= 4 ? type_bytes(w, n, w[d + 2], depth + 1) * w[d + 3] : 0;
    case OP_TYPE_ARRAY: {
        size_t c = len >= 4 ? find_def(w, n, w[d + 3]) : 0;
        if (!c || (w[c] & 0xffff) != OP_CONSTANT)
            return 0;
        uint32_t stride = decoration(w, n, id, -1, DEC_ARRAY_STRIDE, &found);
        uint64_t elem = found ? stride : type_bytes(w, n, w[d + 2], depth + 1);
        return elem * w[c + 3];
    }
    case OP_TYPE_STRUCT: {
        uint64_t end = 0;
        for (uint32_t m = 0; m + 2 < len; m++) {
            uint32_t off = decoration(w, n, id, m, DEC_OFFSET, &found);
            uint64_t size = type_bytes(w, n, w[d + 2 + m], depth + 1);
            if (!found || size == 0)
                return 0;
            if (off + size > end)
                end = off + size;
        }
        return end;
    }
    default: /* matrices, pointers, booleans: not sized here */ return 0;
    }
}

/* Checks one OpVariable: storage buffers in set 0 below n_buffers; the push-constant block's
 * size; anything else that needs a descriptor is refused. */
static fkc_status check_variable(const uint32_t *w, size_t n, size_t i, uint32_t n_buffers,
                                 module_info *mi)
{
    uint32_t ptr = w[i + 1], id = w[i + 2], sc = w[i + 3];
    bool found, has_set, has_binding;
    if (sc == SC_PUSH_CONSTANT) {
        size_t p = find_def(w, n, ptr);
        uint64_t bytes = p && (w[p] >> 16) >= 4 ? type_bytes(w, n, w[p + 3], 0) : 0;
        if (bytes == 0)
            return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                            "fkc_kernel_create: the module's "
                            "push-constant block (id %" PRIu32 ") cannot be sized",
                            id);
        mi->push_bytes = bytes > mi->push_bytes ? (uint32_t)bytes : mi->push_bytes;
        return FKC_OK;
    }
    if (sc != SC_UNIFORM && sc != SC_STORAGE_BUFFER && sc != SC_UNIFORM_CONSTANT)
        return FKC_OK; /* Private, Workgroup, Input (built-ins), Function... */
    uint32_t set = decoration(w, n, id, -1, DEC_SET, &has_set);
    uint32_t binding = decoration(w, n, id, -1, DEC_BINDING, &has_binding);
    if (sc == SC_UNIFORM) { /* old-style storage buffer: a BufferBlock struct */
        size_t p = find_def(w, n, ptr);
        uint32_t pointee = p && (w[p] >> 16) >= 4 ? w[p + 3] : 0;
        (void)decoration(w, n, pointee, -1, DEC_BUFFER_BLOCK, &found);
        if (!found)
            return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                            "fkc_kernel_create: binding %" PRIu32
                            " is a uniform buffer; only storage buffers are supported",
                            binding);
    } else if (sc == SC_UNIFORM_CONSTANT) {
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_kernel_create: binding %" PRIu32
                        " is an image or sampler; only storage buffers are supported",
                        binding);
    }
    if (!has_set || !has_binding || set != 0 || binding >= n_buffers)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_kernel_create: the module uses set %" PRIu32 " binding %" PRIu32
                        "; the kernel declares %" PRIu32
                        " storage buffers (set 0, bindings 0..%" PRIu32 ")",
                        set, binding, n_buffers, n_buffers ? n_buffers - 1 : 0);
    return FKC_OK;
}

/* Walks the module: header, instruction lengths, a GLCompute entry point "main", its local
 * size, and every variable's resource use. */
static fkc_status read_module(const fkc_context *ctx, const uint32_t *w, size_t n,
                              uint32_t n_buffers, module_info *mi)
{
    static const char *const what = "fkc_kernel_create: not a SPIR-V module";
    bool entry = false;
    mi->local[0] = mi->local[1] = mi->local[2] = 1;
    mi->push_bytes = 0;
    scan_left = SCAN_BUDGET;
    if (n < SPV_HEADER || w[0] != SPV_MAGIC)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s (%s)", what,
                        n < SPV_HEADER ? "shorter than its header" : "bad magic number");
    uint32_t version = w[1] >> 8 & 0xffff;              /* 0x0103 for SPIR-V 1.3 */
    uint32_t api = ctx->info.api_version >> 12 & 0x3ff; /* Vulkan minor version */
    uint32_t max_version = api >= 3 ? 0x0106 : api == 2 ? 0x0105 : api == 1 ? 0x0103 : 0x0100;
    if (version > max_version)
        return fkc_fail(FKC_ERR_UNSUPPORTED,
                        "fkc_kernel_create: SPIR-V %u.%u is newer than "
                        "this Vulkan 1.%u device takes (%u.%u)",
                        version >> 8, version & 0xff, api, max_version >> 8, max_version & 0xff);
    for (size_t i = SPV_HEADER; i < n; i += w[i] >> 16)
        if ((w[i] >> 16) == 0 || (w[i] >> 16) > n - i)
            return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                            "%s (instruction at word %zu has a bad "
                            "length)",
                            what, i);
    for (size_t i = SPV_HEADER; i < n; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
        if (op == OP_ENTRY_POINT && len >= 4 && w[i + 1] == EXEC_GL_COMPUTE &&
            memchr(&w[i + 3], '\0', (len - 3) * 4) && strcmp((const char *)&w[i + 3], "main") == 0)
            entry = true;
        if (op == OP_EXECUTION_MODE && len >= 6 && w[i + 2] == MODE_LOCAL_SIZE)
            memcpy(mi->local, &w[i + 3], sizeof mi->local);
        if (op == OP_VARIABLE && len >= 4) {
            fkc_status st = check_variable(w, n, i, n_buffers, mi);
            if (scan_left == 0)
                return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                                "fkc_kernel_create: the module is too "
                                "large or too deeply nested to read (%zu words)",
                                n);
            if (st != FKC_OK)
                return st;
        }
    }
    if (!entry)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_kernel_create: the module has no "
                                                  "GLCompute entry point named \"main\"");
    const fkc_device_info *d = &ctx->info;
    uint64_t inv = (uint64_t)mi->local[0] * mi->local[1] * mi->local[2];
    for (int k = 0; k < 3; k++)
        if (mi->local[k] == 0 || mi->local[k] > d->max_compute_work_group_size[k])
            return fkc_fail(FKC_ERR_UNSUPPORTED,
                            "fkc_kernel_create: local size %" PRIu32
                            " in dimension %d is outside 1..%" PRIu32,
                            mi->local[k], k, d->max_compute_work_group_size[k]);
    if (inv > d->max_compute_work_group_invocations)
        return fkc_fail(FKC_ERR_UNSUPPORTED,
                        "fkc_kernel_create: %" PRIu64 " invocations per "
                        "work group exceed the device's %" PRIu32,
                        inv, d->max_compute_work_group_invocations);
    return FKC_OK;
}

/* ---- creating and destroying ------------------------------------------------------------- */

/* The most storage buffers a kernel may bind: the device's push-descriptor and per-stage limits,
 * at most FKC_KERNEL_MAX_BUFFERS (read with the context). */
static uint32_t max_buffers(const fkc_context *ctx)
{
    return ctx->max_push_buffers;
}

static void kernel_free(fkc_kernel *k)
{
    VkDevice dev = k->ctx->device;
    const fkc_vk *vk = &k->ctx->vk;
    if (k->pipeline)
        vk->vkDestroyPipeline(dev, k->pipeline, k->ctx->alloc);
    if (k->layout)
        vk->vkDestroyPipelineLayout(dev, k->layout, k->ctx->alloc);
    if (k->set_layout)
        vk->vkDestroyDescriptorSetLayout(dev, k->set_layout, k->ctx->alloc);
    free(k->words);
    free(k);
}

/* The Vulkan objects of a kernel: set layout, pipeline layout, pipeline. */
static fkc_status build(fkc_kernel *k, const uint32_t *words, size_t n_words)
{
    fkc_status st = fkc_compute_layout(k->ctx, k->n_buffers, k->push_size,
                                       "fkc_kernel_create: ", &k->set_layout, &k->layout);
    if (st != FKC_OK)
        return st;
    return fkc_compute_pipeline(k->ctx, words, n_words * 4, k->layout,
                                "fkc_kernel_create: ", &k->pipeline);
}

/* Argument checks, the module's reading and the Vulkan objects. */
static fkc_status kernel_new(fkc_context *ctx, const uint32_t *words, size_t n_words,
                             uint32_t n_buffers, uint32_t push_size, fkc_kernel **out)
{
    module_info mi;
    if (!ctx || !words)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_kernel_create: NULL context or module");
    uint32_t most = max_buffers(ctx);
    if (n_buffers > most)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_kernel_create: %" PRIu32 " storage "
                        "buffers; at most %" PRIu32 " on this device",
                        n_buffers, most);
    if (push_size % 4 != 0 || push_size > ctx->info.max_push_constants_size)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_kernel_create: push_size %" PRIu32
                        " is not a multiple of 4 in 0..%" PRIu32,
                        push_size, ctx->info.max_push_constants_size);
    fkc_status st = read_module(ctx, words, n_words, n_buffers, &mi);
    if (st != FKC_OK)
        return st;
    if (mi.push_bytes > push_size)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_kernel_create: the module's push "
                        "constants need %" PRIu32 " bytes; push_size is %" PRIu32,
                        mi.push_bytes, push_size);
    fkc_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a kernel");
    k->ctx = ctx;
    k->n_buffers = n_buffers;
    k->push_size = push_size;
    memcpy(k->local, mi.local, sizeof k->local);
    if ((st = build(k, words, n_words)) != FKC_OK) {
        kernel_free(k);
        return st;
    }
    *out = k;
    return FKC_OK;
}

fkc_status fkc_kernel_create(fkc_context *ctx, const uint32_t *words, size_t n_words,
                             uint32_t n_buffers, uint32_t push_size, fkc_kernel **out)
{
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_kernel_create: out is NULL");
    *out = NULL;
    fkc_status st = kernel_new(ctx, words, n_words, n_buffers, push_size, out);
    if (st == FKC_OK)
        fkc_context_retain(ctx); /* a kernel of its own holds the context */
    return st;
}

/* The cached kernel of these words, buffer count and push size, or NULL (under ctx->lock). */
static fkc_kernel *cache_find(fkc_context *ctx, const uint32_t *words, size_t n_words,
                              uint32_t n_buffers, uint32_t push_size)
{
    for (fkc_kernel *k = ctx->user_kernels; k; k = k->next)
        if (k->n_words == n_words && k->n_buffers == n_buffers && k->push_size == push_size &&
            memcmp(k->words, words, n_words * 4) == 0)
            return k;
    return NULL;
}

fkc_status fkc_kernel_cached(fkc_context *ctx, const uint32_t *words, size_t n_words,
                             uint32_t n_buffers, uint32_t push_size, fkc_kernel **out)
{
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_kernel_cached: out is NULL");
    *out = NULL;
    if (!ctx || !words)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_kernel_cached: NULL context or module");
    pthread_mutex_lock(&ctx->lock);
    fkc_kernel *found = cache_find(ctx, words, n_words, n_buffers, push_size);
    pthread_mutex_unlock(&ctx->lock);
    if (found) {
        *out = found;
        return FKC_OK;
    }
    /* Made outside the lock (building a pipeline is slow); a thread that made the same kernel
     * meanwhile wins, and this one is freed. */
    uint32_t *copy = malloc(n_words ? n_words * 4 : 1);
    if (!copy)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a kernel");
    memcpy(copy, words, n_words * 4);
    fkc_kernel *k;
    fkc_status st = kernel_new(ctx, words, n_words, n_buffers, push_size, &k);
    if (st != FKC_OK) {
        free(copy);
        return st;
    }
    k->cached = true;
    k->words = copy;
    k->n_words = n_words;
    pthread_mutex_lock(&ctx->lock);
    found = cache_find(ctx, words, n_words, n_buffers, push_size);
    if (!found) {
        k->next = ctx->user_kernels;
        ctx->user_kernels = k;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (found)
        kernel_free(k);
    *out = found ? found : k;
    return FKC_OK;
}

void fkc_kernel_destroy(fkc_kernel *k)
{
    if (!k || k->cached)
        return;
    fkc_context *ctx = k->ctx;
    fkc_debug_lifetime_wait(ctx);
    kernel_free(k);
    fkc_context_release(ctx);
}

void fkc_user_kernels_destroy(fkc_context *ctx)
{
    while (ctx->user_kernels) {
        fkc_kernel *k = ctx->user_kernels;
        ctx->user_kernels = k->next;
        kernel_free(k);
    }
}

void fkc_kernel_local_size(const fkc_kernel *k, uint32_t size[3])
{
    for (int i = 0; size && i < 3; i++) /* (a NULL kernel: 0, 0, 0; a NULL size: nothing) */
        size[i] = k ? k->local[i] : 0;
}

/* ---- dispatching ------------------------------------------------------------------------- */

/* One binding's range: on the stream's context, aligned, inside the buffer's allocation. */
static fkc_status check_range(const fkc_stream *s, const fkc_buffer_range *r, uint32_t i)
{
    const fkc_context *ctx = s->ctx;
    if (!r->buffer)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_dispatch: buffer %" PRIu32 " is NULL",
                        i);
    if (r->buffer->ctx != ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_stream_dispatch: buffer %" PRIu32 " belongs to another context", i);
    uint64_t align = ctx->info.min_storage_buffer_offset_alignment;
    if (align > 1 && r->offset % align != 0)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_stream_dispatch: buffer %" PRIu32 ": offset %" PRIu64
                        " is not a multiple of the device's storage "
                        "offset alignment %" PRIu64,
                        i, r->offset, ctx->info.min_storage_buffer_offset_alignment);
    uint64_t size = r->buffer->vk_size;
    if (r->range == 0 || r->offset > size || r->range > size - r->offset)
        return fkc_fail(FKC_ERR_OUT_OF_BOUNDS,
                        "fkc_stream_dispatch: buffer %" PRIu32 ": %" PRIu64
                        " bytes at offset %" PRIu64 " are empty or outside its %" PRIu64
                        "-byte allocation",
                        i, r->range, r->offset, size);
    if (r->range > ctx->info.max_storage_buffer_range)
        return fkc_fail(FKC_ERR_OUT_OF_BOUNDS,
                        "fkc_stream_dispatch: buffer %" PRIu32 ": range %" PRIu64
                        " exceeds the device's storage range %" PRIu64,
                        i, r->range, ctx->info.max_storage_buffer_range);
    return FKC_OK;
}

/* The grid limit of dimension d (a test build's smaller device lowers it). */
static uint32_t grid_limit(const fkc_context *ctx, int d)
{
    return ctx->info.max_compute_work_group_count[d];
}

static fkc_status check_dispatch(const fkc_stream *s, const fkc_kernel *k,
                                 const fkc_buffer_range *buffers, uint32_t n_buffers,
                                 const void *push, uint32_t push_size, const uint32_t g[3])
{
    if (!s || !k)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_dispatch: NULL stream or kernel");
    if (k->ctx != s->ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_dispatch: the kernel belongs to "
                                                  "another context");
    if (n_buffers != k->n_buffers || (n_buffers && !buffers))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_stream_dispatch: %" PRIu32 " buffers "
                        "given; the kernel takes %" PRIu32,
                        buffers ? n_buffers : 0, k->n_buffers);
    if (push_size != k->push_size || (push_size && !push))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_stream_dispatch: %" PRIu32 " bytes of "
                        "push constants given; the kernel takes %" PRIu32,
                        push ? push_size : 0, k->push_size);
    for (uint32_t i = 0; i < n_buffers; i++) {
        fkc_status st = check_range(s, &buffers[i], i);
        if (st != FKC_OK)
            return st;
    }
    for (int d = 0; d < 3; d++)
        if (g[d] > grid_limit(s->ctx, d))
            return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                            "fkc_stream_dispatch: %" PRIu32 " work "
                            "groups in dimension %d exceed the limit %" PRIu32,
                            g[d], d, grid_limit(s->ctx, d));
    return FKC_OK;
}

static fkc_status dispatch_body(fkc_stream *s, const fkc_kernel *k, const fkc_buffer_range *buffers,
                                uint32_t n_buffers, const void *push, uint32_t push_size,
                                uint32_t groups_x, uint32_t groups_y, uint32_t groups_z)
{
    const uint32_t g[3] = {groups_x, groups_y, groups_z};
    fkc_status st = check_dispatch(s, k, buffers, n_buffers, push, push_size, g);
    if (st != FKC_OK || (st = fkc_stream_ensure(s)) != FKC_OK)
        return st;
    s->ops++;
    if (!groups_x || !groups_y || !groups_z)
        return FKC_OK; /* an empty grid runs nothing */
    VkDescriptorBufferInfo bi[FKC_KERNEL_MAX_BUFFERS];
    fkc_access acc[FKC_KERNEL_MAX_BUFFERS];
    for (uint32_t i = 0; i < n_buffers; i++) { /* offsets in the VkBuffer: the base added */
        bi[i] = (VkDescriptorBufferInfo){buffers[i].buffer->buffer,
                                         buffers[i].buffer->base + buffers[i].offset,
                                         buffers[i].range};
        /* a user kernel is taken to read and write every range it binds */
        acc[i] = (fkc_access){bi[i].buffer, bi[i].offset, bi[i].offset + bi[i].range, true, false};
    }
    /* ordered after the ops recorded before that touch its ranges */
    fkc_stream_touch(s, n_buffers, acc);
    st = fkc_stream_bind(s, k->pipeline, k->layout, k->set_layout, n_buffers, bi);
    if (st != FKC_OK) { /* no descriptor set: nothing was recorded */
        s->ops--;
        return st;
    }
    if (push_size)
        s->ctx->vk.vkCmdPushConstants(s->cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size,
                                      push);
    s->ctx->vk.vkCmdDispatch(s->cmd, groups_x, groups_y, groups_z);
    s->commands++;
    s->items++;
    return FKC_OK;
}

fkc_status fkc_stream_dispatch(fkc_stream *s, const fkc_kernel *k, const fkc_buffer_range *buffers,
                               uint32_t n_buffers, const void *push, uint32_t push_size,
                               uint32_t groups_x, uint32_t groups_y, uint32_t groups_z)
{
    FKC_STREAM_GUARDED(
        s, "fkc_stream_dispatch",
        dispatch_body(s, k, buffers, n_buffers, push, push_size, groups_x, groups_y, groups_z));
}
