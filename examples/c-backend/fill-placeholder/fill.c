/* fill.c — the byte-width wrappers of the Fill family (fill.md): cb_fill_b1, cb_fill_b2,
 * cb_fill_b4 and cb_fill_b8, declared by the cb_bindings.h that fkcgen generates from fill.md
 * (prefix cb) and defined here, outside the runtime, with its public calls only (a placeholder
 * for the shader version): the value's bit pattern is written over the tensor's bytes in a
 * scratch buffer, uploaded now, and copied onto the tensor by a copy recorded on the caller's
 * stream, so the fill is ordered with the other ops there. */
#include <stdlib.h>
#include <string.h>

#include "fkc/fkc_runtime.h"
#include "cb_bindings.h" /* generated: cb_fill_params, cb_fill_b1 ... */
#include "fill.h"

#define MAX_SCRATCH 64 /* fills recorded between two cb_fill_release calls */

static fkc_buffer *scratch[MAX_SCRATCH];
static size_t n_scratch;

void cb_fill_release(void)
{
    while (n_scratch > 0)
        fkc_buffer_destroy(scratch[--n_scratch]);
}

/* Records out = value_bits (low `width` bytes, little-endian) on every element. */
static fkc_status fill_w(fkc_stream *s, const fkc_tensor *in, fkc_tensor *out,
                         const cb_fill_params *p, size_t width)
{
    uint64_t bytes;
    if (!s || !out || !out->buffer || !p)
        return FKC_ERR_INVALID_ARGUMENT;
    if (fkc_dtype_size(out->dtype) != width || (in && in->dtype != out->dtype))
        return FKC_ERR_DTYPE;
    fkc_status st = fkc_tensor_bytes(out, &bytes);
    if (st != FKC_OK || bytes == 0)
        return st;
    if (n_scratch == MAX_SCRATCH)
        return FKC_ERR_STATE;
    unsigned char *host = malloc(bytes);
    if (!host)
        return FKC_ERR_OUT_OF_MEMORY;
    for (uint64_t i = 0; i < bytes; i++)
        host[i] = (unsigned char)(p->value_bits >> (8 * (i % width)));
    fkc_buffer *tmp = NULL;
    st = fkc_buffer_create(fkc_stream_context(s), bytes, &tmp);
    if (st == FKC_OK)
        st = fkc_buffer_upload(tmp, 0, host, bytes);
    if (st == FKC_OK)
        st = fkc_stream_copy(s, out->buffer, out->offset, tmp, 0, bytes);
    free(host);
    if (st != FKC_OK) {
        fkc_buffer_destroy(tmp);
        return st;
    }
    scratch[n_scratch++] = tmp;
    return FKC_OK;
}

#define FILL_WRAPPER(W)                                                                       \
    fkc_status cb_fill_b##W(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,        \
                            const cb_fill_params *params, const fkc_op_extra *extra)          \
    {                                                                                         \
        (void)extra;                                                                          \
        return fill_w(stream, in, out, params, W);                                            \
    }
FILL_WRAPPER(1)
FILL_WRAPPER(2)
FILL_WRAPPER(4)
FILL_WRAPPER(8)
