/* reverse.c — the byte-width wrappers of the Reverse family (reverse.md): cm_reverse_b1 .. _b8,
 * declared by the header fkc_generate makes from reverse.md and defined here, over the runtime's
 * public user-kernel API: the shader reverse.comp (compiled by glslc into reverse.spv.inc) is a
 * context-cached fkc_kernel, and each call records its dispatches on the caller's stream,
 * ordered with every other op there. As in the runtime: nothing is printed, a refusal returns a
 * specific status with fkc_last_error() set and records nothing. */
#include <inttypes.h>
#include <string.h>

#include "fkc/fkc_runtime.h"
#include "cm_bindings.h" /* generated from reverse.md: the cm_reverse_b* declarations */

static const uint32_t reverse_spv[] =
#include "reverse.spv.inc"
    ;

/* Must match the Push block of reverse.comp. */
struct reverse_push {
    uint32_t start, end, word0, words, width, src_end, pad0, pad1;
};

#define REVERSE_LOCAL 64u /* reverse.comp's local_size_x */

/* t's byte size, checked to lie inside its buffer on the stream's context. */
static fkc_status tensor_span(fkc_stream *s, const fkc_tensor *t, const char *name, uint64_t *bytes)
{
    fkc_status st = fkc_tensor_bytes(t, bytes);
    if (st != FKC_OK)
        return st;
    if (fkc_buffer_context(t->buffer) != fkc_stream_context(s))
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT,
                             "reverse: %s's buffer belongs to another "
                             "context",
                             name);
    uint64_t size = fkc_buffer_size(t->buffer);
    if (t->offset > size || *bytes > size - t->offset)
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT,
                             "reverse: %s: %" PRIu64 " bytes at offset %" PRIu64
                             " do not fit its %" PRIu64 "-byte buffer",
                             name, *bytes, t->offset, size);
    return FKC_OK;
}

/* The contract's rules: out has in's dtype and shape (passthrough, same_as), of the wrapper's
 * width, and does not overlap in (aliasing: none). *bytes: the tensors' byte size. */
static fkc_status check(fkc_stream *s, const fkc_tensor *in, const fkc_tensor *out, uint32_t width,
                        uint64_t *bytes)
{
    if (!s || !in || !out || !in->buffer || !out->buffer)
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT, "reverse: NULL stream, in or out");
    if (fkc_dtype_size(out->dtype) != width || in->dtype != out->dtype)
        return fkc_set_error(FKC_ERR_DTYPE,
                             "cm_reverse_b%" PRIu32 ": in and out must both be "
                             "of one %" PRIu32 "-byte dtype",
                             width, width);
    if (in->rank != out->rank ||
        memcmp(in->shape, out->shape, out->rank * sizeof out->shape[0]) != 0)
        return fkc_set_error(FKC_ERR_SHAPE, "reverse: out's shape is not in's (shape_rule: "
                                            "same_as(in))");
    uint64_t in_bytes;
    fkc_status st = tensor_span(s, in, "in", &in_bytes);
    if (st == FKC_OK)
        st = tensor_span(s, out, "out", bytes);
    if (st != FKC_OK)
        return st;
    if (in->buffer == out->buffer && *bytes > 0 && in->offset < out->offset + *bytes &&
        out->offset < in->offset + *bytes)
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT, "reverse: out overlaps in (aliasing: "
                                                       "none)");
    return FKC_OK;
}

/* The lowest grid limit of the device's three dimensions. */
static uint32_t group_limit(const fkc_device_info *d)
{
    uint32_t g = d->max_compute_work_group_count[0];
    for (int i = 1; i < 3; i++)
        if (d->max_compute_work_group_count[i] < g)
            g = d->max_compute_work_group_count[i];
    return g;
}

/* The largest chunk one dispatch reverses: each of its two windows within the device's storage
 * range (at most 2 GiB, so the shader's 32-bit word indices stay in range), its words within a
 * 2-D grid of the work-group limit; a multiple of 8 bytes, so that every chunk holds whole
 * elements. 0 when the limits leave no room. */
static uint64_t chunk_bytes(const fkc_context *ctx, uint64_t align)
{
    const fkc_device_info *d = fkc_context_device(ctx);
    uint64_t range = d->max_storage_buffer_range, g = group_limit(d);
    if (range > (1ull << 31))
        range = 1ull << 31;
    uint64_t by_range = range > align + 16 ? range - align - 16 : 0;
    uint64_t by_grid = g * g * REVERSE_LOCAL * 4 - 8;
    uint64_t c = by_range < by_grid ? by_range : by_grid;
    return c & ~(uint64_t)7;
}

/* Records out = reverse(in), one dispatch per chunk: output bytes [done, done + n) are the
 * input bytes [bytes - done - n, bytes - done), element by element in the opposite order. */
static fkc_status reverse_w(fkc_stream *s, const fkc_tensor *in, fkc_tensor *out, uint32_t width)
{
    uint64_t bytes;
    fkc_status st = check(s, in, out, width, &bytes);
    if (st != FKC_OK || bytes == 0)
        return st;
    fkc_context *ctx = fkc_stream_context(s);
    fkc_kernel *k;
    if ((st = fkc_kernel_cached(ctx, reverse_spv, sizeof reverse_spv / 4, 2,
                                sizeof(struct reverse_push), &k)) != FKC_OK)
        return st;
    uint64_t align = fkc_context_device(ctx)->min_storage_buffer_offset_alignment;
    if (align < 4)
        align = 4; /* windows start on a word: the shader's words are the window's */
    uint64_t chunk = chunk_bytes(ctx, align);
    uint32_t lim = group_limit(fkc_context_device(ctx));
    if (chunk == 0)
        return fkc_set_error(FKC_ERR_UNSUPPORTED, "reverse: the device's limits leave no room");
    for (uint64_t done = 0; done < bytes && st == FKC_OK; done += chunk) {
        uint64_t n = bytes - done < chunk ? bytes - done : chunk;
        uint64_t os = out->offset + done, oe = os + n;
        uint64_t obase = os / align * align, otop = (oe + 3) & ~(uint64_t)3;
        uint64_t is = in->offset + bytes - done - n, ie = is + n;
        uint64_t ibase = is / align * align, itop = (ie + 3) & ~(uint64_t)3;
        struct reverse_push pc = {(uint32_t)(os - obase),
                                  (uint32_t)(oe - obase),
                                  (uint32_t)((os - obase) / 4),
                                  0,
                                  width,
                                  (uint32_t)(ie - ibase),
                                  0,
                                  0};
        pc.words = (uint32_t)((otop - obase) / 4 - pc.word0);
        uint32_t groups = (pc.words + REVERSE_LOCAL - 1) / REVERSE_LOCAL;
        uint32_t gx = groups < lim ? groups : lim, gy = (groups + gx - 1) / gx;
        fkc_buffer_range r[2] = {{out->buffer, obase, otop - obase},
                                 {in->buffer, ibase, itop - ibase}};
        st = fkc_stream_dispatch(s, k, r, 2, &pc, sizeof pc, gx, gy, 1);
    }
    return st;
}

fkc_status cm_reverse_b1(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,
                         const void *params, const void *extra)
{
    (void)params, (void)extra;
    return reverse_w(stream, in, out, 1);
}

fkc_status cm_reverse_b2(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,
                         const void *params, const void *extra)
{
    (void)params, (void)extra;
    return reverse_w(stream, in, out, 2);
}

fkc_status cm_reverse_b4(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,
                         const void *params, const void *extra)
{
    (void)params, (void)extra;
    return reverse_w(stream, in, out, 4);
}

fkc_status cm_reverse_b8(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,
                         const void *params, const void *extra)
{
    (void)params, (void)extra;
    return reverse_w(stream, in, out, 8);
}
