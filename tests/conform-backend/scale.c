/* scale.c — the Scale family of tests/conform-backend/scale.md, a backend's own op outside the
 * runtime: the byte-width wrapper cs_scale_b4 (declared by the header fkcgen generates from
 * scale.md under --prefix cs) records scale.comp through the runtime's public user-kernel API,
 * and cs_scale_ref is the CPU reference the section names (cpu_reference), of the op kind's own
 * kernel type cs_scale_kernel. `fkc-run conform --prefix cs --wrappers scale.c scale.md`
 * checks the one against the other (docs/runtime.md, "A family of your own").
 *
 * The reference is called by conform with stream NULL on idle buffers: it reads x with
 * fkc_buffer_download, computes on the host and writes y with fkc_buffer_upload.
 *
 * CONFORM_SCALE_FAULT makes the kernel deliberately wrong, one claim at a time, for
 * tests/cli/conform_backend.py: "dtype" refuses I32 (a declared dtype), "ulp" is 3 ulp off on
 * F32, "nondeterministic" is off by one on element 0 of every second call, "guard" writes one
 * element past the output. A real backend reads no such variable. */
#include <stdlib.h>
#include <string.h>

#include "fkc/fkc_runtime.h"
#include "cs_bindings.h" /* generated from scale.md (--prefix cs) */

static const uint32_t scale_spv[] =
#include "scale.spv.inc"
    ;

/* Must match the Push block of scale.comp. */
struct scale_push {
    uint32_t in0, out0, n, is_int;
    float factor;
    int32_t ifactor;
    uint32_t fault, pad;
};

#define SCALE_LOCAL 64u

static uint32_t fault_of(void)
{
    const char *f = getenv("CONFORM_SCALE_FAULT");
    static const char *const names[] = {"", "ulp", "nondeterministic", "guard", "dtype"};
    for (uint32_t i = 1; f && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(f, names[i]) == 0)
            return i;
    return 0;
}

/* The contract's rules: x and y F32 or I32 alike, of one shape, inside their buffers. */
static fkc_status check(const fkc_tensor *x, const fkc_tensor *y, const cs_scale_params *p,
                        uint64_t *bytes)
{
    if (!x || !y || !p || !x->buffer || !y->buffer)
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT, "scale: NULL x, y or params");
    if ((x->dtype != FKC_DTYPE_F32 && x->dtype != FKC_DTYPE_I32) || y->dtype != x->dtype)
        return fkc_set_error(FKC_ERR_DTYPE, "scale: x and y must both be F32 or both I32");
    if (x->rank != y->rank || memcmp(x->shape, y->shape, x->rank * sizeof x->shape[0]) != 0)
        return fkc_set_error(FKC_ERR_SHAPE, "scale: y's shape is not x's (same_as(x))");
    if (x->offset % 4 || y->offset % 4)
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT, "scale: tensors must start on 4 bytes");
    fkc_status st = fkc_tensor_bytes(x, bytes);
    if (st != FKC_OK)
        return st;
    if (x->offset > fkc_buffer_size(x->buffer) || *bytes > fkc_buffer_size(x->buffer) - x->offset ||
        y->offset > fkc_buffer_size(y->buffer) || *bytes > fkc_buffer_size(y->buffer) - y->offset)
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT, "scale: a tensor does not fit its buffer");
    if (*bytes / 4 > 65535ull * 65535ull * SCALE_LOCAL)
        return fkc_set_error(FKC_ERR_UNSUPPORTED, "scale: more elements than one dispatch holds");
    return FKC_OK;
}

fkc_status cs_scale_b4(fkc_stream *stream, const fkc_tensor *x, fkc_tensor *y,
                       const cs_scale_params *params, const void *extra)
{
    static unsigned calls;
    uint64_t bytes;
    (void)extra;
    uint32_t fault = fault_of();
    fkc_status st = stream ? check(x, y, params, &bytes)
                           : fkc_set_error(FKC_ERR_INVALID_ARGUMENT, "scale: NULL stream");
    if (st != FKC_OK || bytes == 0)
        return st;
    if (fault == 4 && x->dtype == FKC_DTYPE_I32)
        return fkc_set_error(FKC_ERR_DTYPE, "scale (CONFORM_SCALE_FAULT=dtype): no I32");
    if (fault == 2 && calls++ % 2 == 0)
        fault = 0; /* every second call only */
    fkc_context *ctx = fkc_stream_context(stream);
    fkc_kernel *k;
    if ((st = fkc_kernel_cached(ctx, scale_spv, sizeof scale_spv / 4, 2, sizeof(struct scale_push),
                                &k)) != FKC_OK)
        return st;
    uint64_t align = fkc_context_device(ctx)->min_storage_buffer_offset_alignment;
    if (align < 4)
        align = 4;
    uint64_t xb = x->offset / align * align, yb = y->offset / align * align;
    uint64_t extra_out = fault == 3 ? 4 : 0; /* the fault's element past the end */
    struct scale_push pc = {(uint32_t)((x->offset - xb) / 4),
                            (uint32_t)((y->offset - yb) / 4),
                            (uint32_t)(bytes / 4),
                            x->dtype == FKC_DTYPE_I32,
                            params->factor,
                            (int32_t)params->factor,
                            fault,
                            0};
    fkc_buffer_range r[2] = {{x->buffer, xb, x->offset - xb + bytes},
                             {y->buffer, yb, y->offset - yb + bytes + extra_out}};
    uint32_t groups = (uint32_t)((bytes / 4 + SCALE_LOCAL - 1) / SCALE_LOCAL);
    uint32_t gx = groups < 65535 ? groups : 65535, gy = (groups + gx - 1) / gx;
    return fkc_stream_dispatch(stream, k, r, 2, &pc, sizeof pc, gx, gy, 1);
}

fkc_status cs_scale_ref(fkc_stream *stream, const fkc_tensor *x, fkc_tensor *y,
                        const cs_scale_params *params, const void *extra)
{
    uint64_t bytes;
    (void)stream;
    (void)extra;
    fkc_status st = check(x, y, params, &bytes);
    if (st != FKC_OK || bytes == 0)
        return st;
    unsigned char *h = malloc(bytes);
    if (!h)
        return fkc_set_error(FKC_ERR_OUT_OF_MEMORY, "scale: out of host memory");
    st = fkc_buffer_download(x->buffer, x->offset, h, bytes);
    for (uint64_t i = 0; st == FKC_OK && i < bytes; i += 4) {
        if (x->dtype == FKC_DTYPE_F32) {
            float f;
            memcpy(&f, h + i, 4);
            f *= params->factor;
            memcpy(h + i, &f, 4);
        } else {
            uint32_t v;
            memcpy(&v, h + i, 4);
            v *= (uint32_t)(int32_t)params->factor; /* wraps, as the shader's int multiply */
            memcpy(h + i, &v, 4);
        }
    }
    if (st == FKC_OK)
        st = fkc_buffer_upload(y->buffer, y->offset, h, bytes);
    free(h);
    return st;
}
