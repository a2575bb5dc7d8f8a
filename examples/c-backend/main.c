/* main.c — the c-backend example: a C program that uses fkc as an installed package. Its own
 * contracts (contracts/write_slice.md, a copy of fkc's seed, and fill/fill.md, an op family of
 * its own whose wrappers, fill/fill.c, record a user kernel) are compiled by fkcgen at build
 * time into cb_bindings.{h,c} (prefix cb;
 * Fill sorts first, so its op kinds are numbered unlike fkc's own). For each of the nine dtypes
 * it runs Fill, WriteSlice and WriteSliceRotating on the default device, each looked up through
 * its generated cb_dispatch, and compares every byte with a check computed here on the CPU. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fkc/fkc_runtime.h"
#include "cb_bindings.h"

/* The numbering is this project's, not the runtime's: Fill sorts first. */
_Static_assert(CB_OP_FILL == 0 && CB_OP_WRITE_SLICE == 1 && CB_OP_WRITE_SLICE_ROTATING == 2,
               "cb's op kinds are numbered by name");

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned char rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned char)(rng >> 24);
}

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "c-backend: " __VA_ARGS__);                                            \
            fprintf(stderr, " (%s)\n", fkc_last_error());                                          \
            failures++;                                                                            \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* A device buffer of `bytes` random bytes, and the same bytes on the host. */
static fkc_buffer *random_buffer(fkc_context *ctx, unsigned char *host, size_t bytes)
{
    fkc_buffer *b = NULL;
    for (size_t i = 0; i < bytes; i++)
        host[i] = rnd();
    if (fkc_buffer_create(ctx, bytes, &b) != FKC_OK ||
        fkc_buffer_upload(b, 0, host, bytes) != FKC_OK) {
        fkc_buffer_destroy(b);
        return NULL;
    }
    return b;
}

/* Fill a [4, 6] destination (at byte offset 8 of its buffer), then write a [2, 3] source into
 * its slab at (1, 2), on one stream: the slab holds the source, the rest the fill value, and
 * the buffer's bytes around the tensor are untouched. */
static void fill_then_slice(fkc_context *ctx, fkc_dtype dt)
{
    const size_t e = fkc_dtype_size(dt), dbytes = 24 * e, sbytes = 6 * e, pad = 8;
    unsigned char dh[8 + 24 * 8 + 8], sh[6 * 8], got[sizeof dh], want[sizeof dh];
    fkc_buffer *D = random_buffer(ctx, dh, dbytes + 2 * pad), *S = random_buffer(ctx, sh, sbytes);
    fkc_stream *s = NULL;
    cb_kernel_ref fill, slice;
    CHECK(D && S && fkc_stream_create(ctx, &s) == FKC_OK, "%s: set-up failed", fkc_dtype_name(dt));
    fkc_tensor out = {D, pad, dt, 2, {4, 6}}, src = {S, 0, dt, 2, {2, 3}};
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++)
        bits = bits << 8 | rnd();
    cb_fill_params fp = {bits};
    const size_t offsets[2] = {1, 2};
    fkc_write_slice_params wp = {out.shape, 2, offsets, 2};
    CHECK(cb_dispatch(CB_OP_FILL, dt, dt, FKC_BACKEND_VULKAN, &fill) == FKC_OK &&
              cb_dispatch(CB_OP_WRITE_SLICE, dt, dt, FKC_BACKEND_VULKAN, &slice) == FKC_OK,
          "%s: no binding", fkc_dtype_name(dt));
    CHECK(fill.fill(s, &out, &out, &fp, NULL) == FKC_OK, "%s: fill refused", fkc_dtype_name(dt));
    CHECK(slice.write_slice(s, &src, &out, &wp, NULL) == FKC_OK, "%s: write_slice refused",
          fkc_dtype_name(dt));
    CHECK(fkc_stream_submit(s) == FKC_OK, "%s: submit failed", fkc_dtype_name(dt));
    CHECK(fkc_buffer_download(D, 0, got, dbytes + 2 * pad) == FKC_OK, "download failed");
    memcpy(want, dh, dbytes + 2 * pad);
    for (size_t i = 0; i < 24; i++)
        for (size_t k = 0; k < e; k++)
            want[pad + i * e + k] = (unsigned char)(bits >> (8 * k));
    for (size_t r = 0; r < 2; r++)
        memcpy(want + pad + ((1 + r) * 6 + 2) * e, sh + r * 3 * e, 3 * e);
    CHECK(memcmp(got, want, dbytes + 2 * pad) == 0, "%s: fill + write_slice: wrong bytes",
          fkc_dtype_name(dt));
    fkc_stream_destroy(s);
    fkc_buffer_destroy(D);
    fkc_buffer_destroy(S);
}

/* A [5, 3] ring at position 4 (a little-endian u64 on the device): source rows 0, 1, 2 land in
 * ring rows 4, 0, 1; the other rows keep their bytes. */
static void rotating(fkc_context *ctx, fkc_dtype dt)
{
    const size_t e = fkc_dtype_size(dt), rbytes = 15 * e, sbytes = 9 * e;
    unsigned char rh[15 * 8], sh[9 * 8], got[15 * 8], want[15 * 8];
    const unsigned char pos[8] = {4, 0, 0, 0, 0, 0, 0, 0};
    fkc_buffer *R = random_buffer(ctx, rh, rbytes), *S = random_buffer(ctx, sh, sbytes), *P = NULL;
    fkc_stream *s = NULL;
    cb_kernel_ref ref;
    CHECK(R && S && fkc_buffer_create(ctx, 8, &P) == FKC_OK &&
              fkc_buffer_upload(P, 0, pos, 8) == FKC_OK && fkc_stream_create(ctx, &s) == FKC_OK,
          "%s: set-up failed", fkc_dtype_name(dt));
    fkc_tensor ring = {R, 0, dt, 2, {5, 3}}, src = {S, 0, dt, 2, {3, 3}};
    fkc_write_slice_rotating_params rp = {ring.shape, 2, 5};
    fkc_write_slice_rotating_extra x = {P, 0, -1};
    CHECK(cb_dispatch(CB_OP_WRITE_SLICE_ROTATING, dt, dt, FKC_BACKEND_VULKAN, &ref) == FKC_OK,
          "%s: no binding", fkc_dtype_name(dt));
    CHECK(ref.write_slice_rotating(s, &src, &ring, &rp, &x) == FKC_OK &&
              fkc_stream_submit(s) == FKC_OK,
          "%s: write_slice_rotating failed", fkc_dtype_name(dt));
    CHECK(fkc_buffer_download(R, 0, got, rbytes) == FKC_OK, "download failed");
    memcpy(want, rh, rbytes);
    for (size_t i = 0; i < 3; i++)
        memcpy(want + ((4 + i) % 5) * 3 * e, sh + i * 3 * e, 3 * e);
    CHECK(memcmp(got, want, rbytes) == 0, "%s: write_slice_rotating: wrong bytes",
          fkc_dtype_name(dt));
    fkc_stream_destroy(s);
    fkc_buffer_destroy(R);
    fkc_buffer_destroy(S);
    fkc_buffer_destroy(P);
}

int main(void)
{
    fkc_context *ctx;
    if (fkc_context_create(NULL, &ctx) != FKC_OK) {
        fprintf(stderr, "c-backend: no device: %s\n", fkc_last_error());
        return 1;
    }
    for (int d = 0; d < FKC_DTYPE_COUNT; d++) {
        fill_then_slice(ctx, (fkc_dtype)d);
        rotating(ctx, (fkc_dtype)d);
    }
    printf("c-backend: %s: Fill, WriteSlice, WriteSliceRotating on %d dtypes through cb_dispatch: "
           "%s\n",
           fkc_context_device(ctx)->name, (int)FKC_DTYPE_COUNT,
           failures ? "FAILED" : "all bit-exact");
    fkc_context_destroy(ctx);
    return failures ? 1 : 0;
}
