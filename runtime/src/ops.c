/* ops.c — the write-slice ops: the byte-width wrappers fkc_write_slice_b1..b8 /
 * fkc_write_slice_rotating_b1..b8 of fkc_kernels.h (which generated bindings point to), the
 * public calls (op + dtype size → the wrapper of that width) and the one-shot conveniences.
 * Every check goes through the same plan functions as the reference, so the CPU and GPU paths
 * accept and refuse the same calls. No generated code is involved. */
#include "context.h"
#include "buffer.h"
#include "slab.h"
#include "stream.h"

#include <inttypes.h>
#include <stdio.h>

#include "fkc/fkc_kernels.h"

/* The interface version generated code links against (fkc_kernels.h). */
const int fkc_runtime_abi_4 = FKC_RUNTIME_ABI;

/* Byte size of a tensor; `name` prefixes the message of a refusal. */
static fkc_status tensor_bytes(const fkc_tensor *t, const char *name, uint64_t *bytes)
{
    size_t e;
    uint64_t n;
    if (t->rank < 1 || t->rank > FKC_MAX_RANK)
        return fkc_fail(FKC_ERR_RANK, "%s: rank %" PRIu32 " is outside 1..%d", name, t->rank,
                        FKC_MAX_RANK);
    if ((unsigned)t->dtype >= FKC_DTYPE_COUNT || (e = fkc_dtype_size(t->dtype)) == 0)
        return fkc_fail(FKC_ERR_DTYPE, "%s: unknown dtype %d", name, (int)t->dtype);
    if (fkc_shape_elements(t->rank, t->shape, e, &n) != FKC_OK)
        return fkc_fail(FKC_ERR_OVERFLOW, "%s: byte size overflows", name);
    *bytes = n * e;
    return FKC_OK;
}

fkc_status fkc_tensor_bytes(const fkc_tensor *t, uint64_t *bytes)
{
    if (!t || !bytes)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_tensor_bytes: NULL argument");
    return tensor_bytes(t, "tensor", bytes);
}

/* A tensor must lie inside its buffer, on the stream's context; lo and hi get its byte range
 * in the VkBuffer (its buffer's base added: two fkc buffers may share a VkBuffer). */
static fkc_status check_tensor(const fkc_stream *s, const fkc_tensor *t, const char *name,
                               uint64_t *lo, uint64_t *hi)
{
    uint64_t bytes;
    if (!t || !t->buffer)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: tensor or its buffer is NULL", name);
    if (t->buffer->ctx != s->ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: buffer belongs to another context", name);
    fkc_status st = tensor_bytes(t, name, &bytes);
    if (st != FKC_OK)
        return st;
    if (t->offset > t->buffer->size || bytes > t->buffer->size - t->offset)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: %" PRIu64 " bytes at offset %" PRIu64 " do not fit its %" PRIu64
                        "-byte buffer",
                        name, bytes, t->offset, t->buffer->size);
    *lo = t->buffer->base + t->offset;
    *hi = *lo + bytes;
    return FKC_OK;
}

/* Shared checks of both wrappers: stream, dtypes and width, ranks, tensors in their buffers,
 * no overlap between source and destination, dst_shape == out->shape. */
static fkc_status check_call(const fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                             const size_t *dst_shape, size_t dst_len, size_t width, const char *op)
{
    uint64_t slo, shi, dlo, dhi;
    fkc_status st;
    if (!s || !src || !out || !dst_shape)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: NULL stream, tensor or params", op);
    if (src->dtype != out->dtype || fkc_dtype_size(src->dtype) != width)
        return fkc_fail(FKC_ERR_DTYPE,
                        "%s_b%zu: dtypes [%s, %s] do not match this %zu-byte "
                        "kernel",
                        op, width, fkc_dtype_name(src->dtype) ? fkc_dtype_name(src->dtype) : "?",
                        fkc_dtype_name(out->dtype) ? fkc_dtype_name(out->dtype) : "?", width);
    if (src->rank != out->rank || dst_len != out->rank)
        return fkc_fail(FKC_ERR_RANK,
                        "%s: ranks disagree (src %" PRIu32 ", out %" PRIu32 ", dst_shape %zu)", op,
                        src->rank, out->rank, dst_len);
    if ((st = check_tensor(s, src, "src", &slo, &shi)) != FKC_OK ||
        (st = check_tensor(s, out, "out", &dlo, &dhi)) != FKC_OK)
        return st;
    for (uint32_t i = 0; i < out->rank; i++)
        if (dst_shape[i] != out->shape[i])
            return fkc_fail(FKC_ERR_SHAPE,
                            "%s: dst_shape[%" PRIu32 "] = %zu but out has "
                            "extent %zu",
                            op, i, dst_shape[i], out->shape[i]);
    if (src->buffer->buffer == out->buffer->buffer && slo < dhi && dlo < shi && shi > slo &&
        dhi > dlo)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: src and out overlap in one buffer", op);
    return FKC_OK;
}

/* A readable message for a refused plan, naming the offending axis where there is one. */
static fkc_status plan_fail(fkc_status st, const char *op, uint32_t rank, const size_t *dst,
                            const size_t *src, const size_t *offsets)
{
    if (st == FKC_ERR_OUT_OF_BOUNDS && offsets)
        for (uint32_t i = 0; i < rank; i++)
            if (offsets[i] > dst[i] || src[i] > dst[i] - offsets[i])
                return fkc_fail(st,
                                "%s: axis %" PRIu32 ": offset %zu + source extent %zu "
                                "exceeds destination extent %zu",
                                op, i, offsets[i], src[i], dst[i]);
    return fkc_fail(st, "%s: refused by the shape checks", op);
}

/* Records the boxes of one op (each command after a barrier when it touches what an earlier
 * one since the last barrier wrote, or writes what one read). */
static fkc_status record(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                         const fkc_box *boxes, uint32_t n, size_t width)
{
    fkc_status st = fkc_stream_ensure(s);
    if (st != FKC_OK)
        return st;
    uint64_t before = s->items;
    for (uint32_t k = 0; k < n && st == FKC_OK; k++)
        st = fkc_record_box(s, src, out, &boxes[k], width);
    if (st != FKC_OK && s->items != before)
        s->broken = true; /* part of the op is recorded: the stream must not run */
    s->ops++;
    return st;
}

static fkc_status slice_w(fkc_stream *s, const fkc_tensor *src, fkc_tensor *out,
                          const fkc_write_slice_params *p, size_t width)
{
    fkc_box box;
    if (!p)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "write_slice: params is NULL");
    fkc_status st = check_call(s, src, out, p->dst_shape, p->dst_shape_len, width, "write_slice");
    if (st != FKC_OK)
        return st;
    if (!p->offsets || p->offsets_len != out->rank)
        return fkc_fail(FKC_ERR_RANK, "write_slice: %zu offsets for rank %" PRIu32,
                        p->offsets ? p->offsets_len : 0, out->rank);
    st = fkc_plan_write_slice(out->rank, p->dst_shape, src->shape, p->offsets, width, &box);
    if (st != FKC_OK)
        return plan_fail(st, "write_slice", out->rank, p->dst_shape, src->shape, p->offsets);
    return record(s, src, out, &box, 1, width);
}

/* The position's buffer: given, of this context, 8 bytes inside it, none of them in out (the
 * device path reads the position while the op writes out: each invocation would read it before
 * or after the write; out is already checked). */
static fkc_status check_position(const fkc_stream *s, const fkc_write_slice_rotating_extra *x,
                                 const fkc_tensor *out)
{
    if (!x || !x->position)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "write_slice_rotating: no position buffer");
    if (x->position->ctx != s->ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "write_slice_rotating: position buffer "
                                                  "belongs to another context");
    uint64_t size = fkc_buffer_size(x->position), at = x->position_offset;
    if (at > size || size - at < 8)
        return fkc_fail(FKC_ERR_OUT_OF_BOUNDS,
                        "write_slice_rotating: the position's 8 bytes at "
                        "offset %" PRIu64 " are outside its %" PRIu64 "-byte buffer",
                        at, size);
    uint64_t bytes;
    /* in the VkBuffer (two fkc buffers may be ranges of one: the host's, or a memory block) */
    uint64_t pa = x->position->base + at, oa = out->buffer->base + out->offset;
    if (x->position->buffer == out->buffer->buffer && tensor_bytes(out, "out", &bytes) == FKC_OK &&
        bytes && pa < oa + bytes && oa < pa + 8) {
        if (x->position == out->buffer)
            return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                            "write_slice_rotating: the position's 8 "
                            "bytes at offset %" PRIu64 " overlap out (bytes %" PRIu64 "..%" PRIu64
                            " of the same buffer)",
                            at, out->offset, out->offset + bytes - 1);
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "write_slice_rotating: the position's 8 bytes "
                        "overlap out in the VkBuffer both are ranges of (its bytes %" PRIu64
                        "..%" PRIu64 ", out's %" PRIu64 "..%" PRIu64 ")",
                        pa, pa + 7, oa, oa + bytes - 1);
    }
    return FKC_OK;
}

/* Reads the little-endian u64 ring position from its device buffer (the contract's D2H): the
 * readback path, a hidden submit + wait when the op is recorded. */
static fkc_status read_position(const fkc_write_slice_rotating_extra *x, uint64_t *pos)
{
    unsigned char b[8];
    fkc_status st = fkc_buffer_download(x->position, x->position_offset, b, 8);
    if (st != FKC_OK)
        return st;
    *pos = 0;
    for (int i = 7; i >= 0; i--)
        *pos = *pos << 8 | b[i];
    return FKC_OK;
}

/* A readable message for a refused rotating plan: which axis, and why. */
static fkc_status rotating_fail(fkc_status st, uint32_t rank, const size_t *dst, const size_t *src,
                                size_t capacity, int32_t axis)
{
    const char *op = "write_slice_rotating";
    uint32_t matches = 0, ring = 0;
    for (uint32_t i = 0; i < rank; i++)
        if (dst[i] == capacity)
            matches++, ring = matches == 1 ? i : ring;
    if (axis >= 0 && (uint32_t)axis >= rank)
        return fkc_fail(st, "%s: axis %" PRId32 " is out of range for rank %" PRIu32, op, axis,
                        rank);
    if (axis >= 0 && dst[axis] != capacity)
        return fkc_fail(st, "%s: axis %" PRId32 " has extent %zu, not the capacity %zu", op, axis,
                        dst[axis], capacity);
    if (axis < -1)
        return fkc_fail(st, "%s: axis %" PRId32 " is neither an axis nor -1 (infer it)", op, axis);
    if (axis == -1 && matches == 0)
        return fkc_fail(st, "%s: no axis has the capacity %zu as its extent", op, capacity);
    if (axis == -1 && matches > 1)
        return fkc_fail(st,
                        "%s: %" PRIu32 " axes have the capacity %zu as their extent; several "
                        "match, so name the rotating axis",
                        op, matches, capacity);
    if (axis >= 0)
        ring = (uint32_t)axis;
    if (st == FKC_ERR_OUT_OF_BOUNDS)
        for (uint32_t i = 0; i < rank; i++)
            if (i != ring && src[i] > dst[i])
                return fkc_fail(st,
                                "%s: axis %" PRIu32 ": source extent %zu exceeds destination "
                                "extent %zu (off the rotating axis %" PRIu32 " the source does "
                                "not fit the ring)",
                                op, i, src[i], dst[i], ring);
    return fkc_fail(st, "%s: refused by the shape checks", op);
}

/* The device-resident path: the plan at position 0 gives the whole write (its boxes joined,
 * ring origin 0); the kernel adds the position it reads from the device and splits the write
 * at the ring end itself. Refuses (FKC_ERR_UNSUPPORTED, nothing recorded) what it cannot take. */
static fkc_status rotating_device(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                                  const fkc_write_slice_rotating_params *p,
                                  const fkc_write_slice_rotating_extra *x, const fkc_box *boxes,
                                  uint32_t n, uint32_t axis, size_t width)
{
    fkc_box whole = boxes[0];
    if (n == 0)
        return record(s, src, out, boxes, 0, width);
    if (n == 2)
        whole.extent[axis] += boxes[1].extent[axis];
    whole.dst_origin[axis] = 0;
    fkc_status st = fkc_stream_ensure(s);
    if (st != FKC_OK)
        return st;
    uint64_t before = s->items;
    st = fkc_record_ring(s, src, out, &whole, width, axis, p->capacity, whole.src_origin[axis],
                         x->position, x->position_offset);
    if (st == FKC_ERR_UNSUPPORTED && s->items == before)
        return st; /* nothing recorded: the caller reads the position back instead */
    if (st != FKC_OK && s->items != before)
        s->broken = true;
    s->ops++;
    return st;
}

static fkc_status rotating_w(fkc_stream *s, const fkc_tensor *src, fkc_tensor *out,
                             const fkc_write_slice_rotating_params *p,
                             const fkc_write_slice_rotating_extra *x, size_t width)
{
    fkc_box boxes[2];
    uint32_t n = 0, axis = 0;
    uint64_t pos = 0;
    if (!p)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "write_slice_rotating: params is NULL");
    fkc_status st = check_call(s, src, out, p->dst_shape, p->dst_shape_len, width,
                               "write_slice_rotating");
    if (st != FKC_OK || (st = check_position(s, x, out)) != FKC_OK)
        return st;
    if (p->capacity == 0)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "write_slice_rotating: capacity is 0");
    /* The checks do not depend on the position: plan at 0 first. */
    st = fkc_plan_rotating(out->rank, p->dst_shape, src->shape, p->capacity, 0, x->axis, width,
                           boxes, &n, &axis);
    if (st != FKC_OK)
        return rotating_fail(st, out->rank, p->dst_shape, src->shape, p->capacity, x->axis);
    st = rotating_device(s, src, out, p, x, boxes, n, axis, width);
    if (st != FKC_ERR_UNSUPPORTED)
        return st;
    if ((st = read_position(x, &pos)) != FKC_OK)
        return st;
    st = fkc_plan_rotating(out->rank, p->dst_shape, src->shape, p->capacity, pos, x->axis, width,
                           boxes, &n, &axis);
    if (st != FKC_OK)
        return rotating_fail(st, out->rank, p->dst_shape, src->shape, p->capacity, x->axis);
    if ((st = record(s, src, out, boxes, n, width)) == FKC_OK)
        s->host_read = true; /* placed at this position: fkc_stream_replay refuses the recording */
    return st;
}

/* The byte-width wrappers of fkc_kernels.h. */
#define WRAPPERS(W)                                                                                \
    fkc_status fkc_write_slice_b##W(fkc_stream *stream, const fkc_tensor *src, fkc_tensor *out,    \
                                    const fkc_write_slice_params *params, const void *extra)       \
    {                                                                                              \
        (void)extra;                                                                               \
        FKC_STREAM_GUARDED(stream, "fkc_write_slice", slice_w(stream, src, out, params, W));       \
    }                                                                                              \
    fkc_status fkc_write_slice_rotating_b##W(fkc_stream *stream, const fkc_tensor *src,            \
                                             fkc_tensor *out,                                      \
                                             const fkc_write_slice_rotating_params *params,        \
                                             const fkc_write_slice_rotating_extra *extra)          \
    {                                                                                              \
        FKC_STREAM_GUARDED(stream, "fkc_write_slice_rotating",                                     \
                           rotating_w(stream, src, out, params, extra, W));                        \
    }
WRAPPERS(1)
WRAPPERS(2)
WRAPPERS(4)
WRAPPERS(8)

/* The byte width of the op's dtype pair: the wrapper to call. Every dtype pair [T, T] of a
 * known dtype has one (what the seed contract binds); others are FKC_ERR_NO_KERNEL. */
static fkc_status width_of(const char *op, const fkc_tensor *src, const fkc_tensor *out,
                           size_t *width)
{
    if (!src || !out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: src or out is NULL", op);
    *width = fkc_dtype_size(src->dtype);
    if (src->dtype != out->dtype || *width == 0 || *width > 8)
        return fkc_fail(FKC_ERR_NO_KERNEL, "%s: no kernel is bound for [%s, %s] on Vulkan", op,
                        fkc_dtype_name(src->dtype) ? fkc_dtype_name(src->dtype) : "?",
                        fkc_dtype_name(out->dtype) ? fkc_dtype_name(out->dtype) : "?");
    return FKC_OK;
}

fkc_status fkc_write_slice(fkc_stream *stream, const fkc_tensor *src, fkc_tensor *out,
                           const size_t *offsets)
{
    static fkc_write_slice_kernel *const by_width[9] = {
        NULL, fkc_write_slice_b1, fkc_write_slice_b2, NULL, fkc_write_slice_b4, NULL, NULL,
        NULL, fkc_write_slice_b8};
    size_t w;
    fkc_status st = width_of("write_slice", src, out, &w);
    if (st != FKC_OK)
        return st;
    fkc_write_slice_params p = {out->shape, out->rank, offsets, out->rank};
    return by_width[w](stream, src, out, &p, NULL);
}

fkc_status fkc_write_slice_rotating(fkc_stream *stream, const fkc_tensor *src, fkc_tensor *out,
                                    size_t capacity, const fkc_buffer *position,
                                    uint64_t position_offset, int32_t axis)
{
    static fkc_write_slice_rotating_kernel *const by_width[9] = {NULL,
                                                                 fkc_write_slice_rotating_b1,
                                                                 fkc_write_slice_rotating_b2,
                                                                 NULL,
                                                                 fkc_write_slice_rotating_b4,
                                                                 NULL,
                                                                 NULL,
                                                                 NULL,
                                                                 fkc_write_slice_rotating_b8};
    size_t w;
    fkc_status st = width_of("write_slice_rotating", src, out, &w);
    if (st != FKC_OK)
        return st;
    fkc_write_slice_rotating_params p = {out->shape, out->rank, capacity};
    fkc_write_slice_rotating_extra x = {position, position_offset, axis};
    return by_width[w](stream, src, out, &p, &x);
}

/* The one-shot calls run on a stream of the context's pool (made once, reused: no command
 * buffer, fence or query pool is made per call; one per thread calling at once), begun afresh
 * for each call and given back after it. */
static fkc_status one_shot(fkc_context *ctx, fkc_stream **s)
{
    if (!ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "one-shot call: context is NULL");
    fkc_status st = fkc_stream_take(ctx, s);
    if (st == FKC_OK && (st = fkc_stream_begin(*s)) != FKC_OK)
        fkc_stream_give(*s);
    return st;
}

/* Runs `rc` (the op's status after recording) to completion and gives the stream back. */
static fkc_status finish(fkc_stream *s, fkc_status rc)
{
    fkc_status st = rc == FKC_OK ? fkc_stream_submit(s) : rc;
    fkc_stream_give(s); /* a refused op's recording is dropped by the next call's begin */
    return st;
}

fkc_status fkc_write_slice_sync(fkc_context *ctx, const fkc_tensor *src, fkc_tensor *out,
                                const size_t *offsets)
{
    fkc_stream *s;
    fkc_status st = one_shot(ctx, &s);
    return st != FKC_OK ? st : finish(s, fkc_write_slice(s, src, out, offsets));
}

fkc_status fkc_write_slice_rotating_sync(fkc_context *ctx, const fkc_tensor *src, fkc_tensor *out,
                                         size_t capacity, const fkc_buffer *position,
                                         uint64_t position_offset, int32_t axis)
{
    fkc_stream *s;
    fkc_status st = one_shot(ctx, &s);
    return st != FKC_OK ? st
                        : finish(s, fkc_write_slice_rotating(s, src, out, capacity, position,
                                                             position_offset, axis));
}
