/* fill.c — the byte-width wrappers of the Fill family (fill.md): cb_fill_b1, cb_fill_b2, cb_fill_b4 and
 * cb_fill_b8, declared by the header fkcgen generates from fill.md and defined here, outside the
 * runtime, over its public user-kernel API: the shader fill.comp (compiled by glslc into
 * fill.spv.inc) is a context-cached fkc_kernel, and each call records its dispatches on the
 * caller's stream, ordered with every other op there. The library's rules hold: nothing is
 * printed, a refusal returns a specific status with fkc_last_error() set, and records nothing. */
#include <inttypes.h>
#include <string.h>

#include "fkc/fkc_runtime.h"
#include "cb_bindings.h" /* generated from fill.md: cb_fill_params, the fill_b* declarations */

static const uint32_t fill_spv[] =
#include "fill.spv.inc"
    ;

/* Must match the Push block of fill.comp. */
struct fill_push {
    uint32_t start, end, word0, words, width, lo, hi, pad;
};

#define FILL_LOCAL 64u /* fill.comp's local_size_x */

/* The checks of every width: the contract's rules (out has in's dtype and shape), the wrapper's
 * width, the tensor inside its buffer on the stream's context. *bytes: out's byte size. */
static fkc_status check(fkc_stream *s, const fkc_tensor *in, const fkc_tensor *out,
                        const cb_fill_params *p, uint32_t width, uint64_t *bytes)
{
    if (!s || !out || !out->buffer || !p)
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT, "fill: NULL stream, out or params");
    if (fkc_dtype_size(out->dtype) != width)
        return fkc_set_error(
            FKC_ERR_DTYPE, "cb_fill_b%" PRIu32 ": out's dtype %s is not %" PRIu32 " bytes wide",
            width, fkc_dtype_name(out->dtype) ? fkc_dtype_name(out->dtype) : "?", width);
    if (in && in->dtype != out->dtype) /* dtype_rule: passthrough(in) */
        return fkc_set_error(FKC_ERR_DTYPE, "fill: in and out dtypes differ");
    if (in && (in->rank != out->rank ||
               memcmp(in->shape, out->shape, out->rank * sizeof out->shape[0]) != 0))
        return fkc_set_error(FKC_ERR_SHAPE, "fill: out's shape is not in's (shape_rule: "
                                            "same_as(in))");
    fkc_status st = fkc_tensor_bytes(out, bytes);
    if (st != FKC_OK)
        return st;
    if (fkc_buffer_context(out->buffer) != fkc_stream_context(s))
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT, "fill: out's buffer belongs to another "
                                                       "context");
    uint64_t size = fkc_buffer_size(out->buffer);
    if (out->offset > size || *bytes > size - out->offset)
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT,
                             "fill: %" PRIu64 " bytes at offset %" PRIu64
                             " do not fit out's %" PRIu64 "-byte buffer",
                             *bytes, out->offset, size);
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

/* The largest chunk one dispatch fills: its window within the device's storage range (at most
 * 2 GiB, so the shader's 32-bit word indices stay in range), its words within a 2-D grid of the
 * work-group limit; a multiple of 8 bytes, so that every chunk starts on an element boundary.
 * 0 when the limits leave no room. */
static uint64_t chunk_bytes(const fkc_context *ctx, uint64_t align)
{
    const fkc_device_info *d = fkc_context_device(ctx);
    uint64_t range = d->max_storage_buffer_range, g = group_limit(d);
    if (range > (1ull << 31))
        range = 1ull << 31;
    uint64_t by_range = range > align + 16 ? range - align - 16 : 0;
    uint64_t by_grid = g * g * FILL_LOCAL * 4 - 8;
    uint64_t c = by_range < by_grid ? by_range : by_grid;
    return c & ~(uint64_t)7;
}

/* Records out = value_bits on every element, one dispatch per chunk. */
static fkc_status fill_w(fkc_stream *s, const fkc_tensor *in, fkc_tensor *out,
                         const cb_fill_params *p, uint32_t width)
{
    uint64_t bytes;
    fkc_status st = check(s, in, out, p, width, &bytes);
    if (st != FKC_OK || bytes == 0)
        return st;
    fkc_context *ctx = fkc_stream_context(s);
    fkc_kernel *k;
    if ((st = fkc_kernel_cached(ctx, fill_spv, sizeof fill_spv / 4, 1, sizeof(struct fill_push),
                                &k)) != FKC_OK)
        return st;
    uint64_t align = fkc_context_device(ctx)->min_storage_buffer_offset_alignment;
    if (align < 4)
        align = 4; /* windows start on a word: the shader's words are the window's */
    uint64_t chunk = chunk_bytes(ctx, align);
    uint32_t lim = group_limit(fkc_context_device(ctx));
    if (chunk == 0)
        return fkc_set_error(FKC_ERR_UNSUPPORTED, "fill: the device's limits leave no room");
    for (uint64_t done = 0; done < bytes && st == FKC_OK; done += chunk) {
        uint64_t cs = out->offset + done;
        uint64_t ce = cs + (bytes - done < chunk ? bytes - done : chunk);
        uint64_t base = cs / align * align, top = (ce + 3) & ~(uint64_t)3;
        struct fill_push pc = {(uint32_t)(cs - base),
                               (uint32_t)(ce - base),
                               (uint32_t)((cs - base) / 4),
                               0,
                               width,
                               (uint32_t)p->value_bits,
                               (uint32_t)(p->value_bits >> 32),
                               0};
        pc.words = (uint32_t)((top - base) / 4 - pc.word0);
        uint32_t groups = (pc.words + FILL_LOCAL - 1) / FILL_LOCAL;
        uint32_t gx = groups < lim ? groups : lim, gy = (groups + gx - 1) / gx;
        fkc_buffer_range r = {out->buffer, base, top - base};
        st = fkc_stream_dispatch(s, k, &r, 1, &pc, sizeof pc, gx, gy, 1);
    }
    return st;
}

fkc_status cb_fill_b1(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,
                      const cb_fill_params *params, const void *extra)
{
    (void)extra;
    return fill_w(stream, in, out, params, 1);
}

fkc_status cb_fill_b2(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,
                      const cb_fill_params *params, const void *extra)
{
    (void)extra;
    return fill_w(stream, in, out, params, 2);
}

fkc_status cb_fill_b4(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,
                      const cb_fill_params *params, const void *extra)
{
    (void)extra;
    return fill_w(stream, in, out, params, 4);
}

fkc_status cb_fill_b8(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,
                      const cb_fill_params *params, const void *extra)
{
    (void)extra;
    return fill_w(stream, in, out, params, 8);
}
