/* fill_demo.c — the Fill family used as a caller would (docs/adding-an-op.md): on the default
 * Vulkan device, fill a 3 x 5 F16 tensor with -0.0 (bits 0x8000) and a U8 tensor at an odd byte
 * offset with 0xA5, through the generated dispatch (op + dtypes + backend -> cb_fill_b2 / cb_fill_b1),
 * both recorded on one stream, then read the buffer back and check every byte. Prints one line;
 * exit 0 when every byte is right, 1 when not, 3 when there is no Vulkan device. */
#include <stdio.h>
#include <string.h>

#include "fkc/fkc_runtime.h"
#include "cb_bindings.h" /* generated from fill.md */

static int fail(const char *what)
{
    fprintf(stderr, "fill_demo: %s: %s\n", what, fkc_last_error());
    return 1;
}

/* Records a fill of t with `bits` through the generated dispatch. */
static fkc_status fill(fkc_stream *s, fkc_tensor *t, uint64_t bits)
{
    cb_kernel_ref ref;
    cb_fill_params p = {bits};
    fkc_status st = cb_dispatch(CB_OP_FILL, t->dtype, t->dtype, FKC_BACKEND_VULKAN, &ref);
    return st != FKC_OK ? st : ref.fill(s, t, t, &p, NULL);
}

int main(void)
{
    fkc_context *ctx;
    fkc_stream *s;
    fkc_buffer *buf;
    unsigned char host[64], want[64];
    memset(host, 0x11, sizeof host);
    memcpy(want, host, sizeof want);
    fkc_status st = fkc_context_create(NULL, &ctx);
    if (st == FKC_ERR_NO_DEVICE || st == FKC_ERR_DEVICE_NOT_FOUND) {
        fprintf(stderr, "fill_demo: no Vulkan device: %s\n", fkc_last_error());
        return 3;
    }
    if (st != FKC_OK)
        return fail("fkc_context_create");
    if (fkc_buffer_create(ctx, sizeof host, &buf) != FKC_OK ||
        fkc_buffer_upload(buf, 0, host, sizeof host) != FKC_OK ||
        fkc_stream_create(ctx, &s) != FKC_OK)
        return fail("setting up");
    fkc_tensor half = {buf, 0, FKC_DTYPE_F16, 2, {3, 5}}; /* bytes 0..29 */
    fkc_tensor bytes = {buf, 33, FKC_DTYPE_U8, 1, {7}};   /* bytes 33..39 */
    if (fill(s, &half, 0x8000) != FKC_OK || fill(s, &bytes, 0xA5) != FKC_OK ||
        fkc_stream_submit(s) != FKC_OK || fkc_buffer_download(buf, 0, host, sizeof host) != FKC_OK)
        return fail("fill");
    for (int i = 0; i < 30; i++)
        want[i] = i % 2 ? 0x80 : 0x00; /* little-endian 0x8000 */
    memset(want + 33, 0xA5, 7);
    int ok = memcmp(host, want, sizeof host) == 0;
    printf("fill: %s on %s (15 F16 elements = -0.0, 7 U8 elements = 0xa5, %d bytes around them "
           "untouched)\n",
           ok ? "ok" : "WRONG BYTES", fkc_context_device(ctx)->name, (int)sizeof host - 37);
    fkc_stream_destroy(s);
    fkc_buffer_destroy(buf);
    fkc_context_destroy(ctx);
    return ok ? 0 : 1;
}
