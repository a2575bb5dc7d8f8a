/* main.c — the cmake-backend example: a CMake project that uses an installed fkc through
 * find_package(fkc CONFIG). Its contracts (contracts/write_slice.md, a copy of fkc's seed, and
 * reverse/reverse.md, an op family of its own whose wrappers, reverse/reverse.c, record a user
 * kernel) become cm_bindings.{h,c} at build time through fkc_generate (prefix cm). For each of
 * the nine dtypes it reverses a [3, 5] tensor, then writes a [1, 2] slab into the result, both
 * on one stream and both looked up through the generated cm_dispatch, and compares every byte
 * (the tensor's and the buffer's bytes around it) with a check computed here on the CPU. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fkc/fkc_runtime.h"
#include "cm_bindings.h"

/* The numbering is this project's: Reverse sorts first. */
_Static_assert(CM_OP_REVERSE == 0 && CM_OP_WRITE_SLICE == 1, "cm's op kinds are numbered by name");

static uint64_t rng = 0x2545f4914f6cdd1du;

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
            fprintf(stderr, "cmake-backend: " __VA_ARGS__);                                        \
            fprintf(stderr, " (%s)\n", fkc_last_error());                                          \
            failures++;                                                                            \
            goto done;                                                                             \
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

/* in: [3, 5] at byte offset 3 of its buffer; out: [3, 5] at byte offset 5 of another, so both
 * start off a word boundary; src: [1, 2]. On one stream: out = reverse(in), then src written
 * into out's slab at (1, 3). */
static void reverse_then_slice(fkc_context *ctx, fkc_dtype dt)
{
    enum { N = 15, IN_PAD = 3, OUT_PAD = 5 };
    const size_t e = fkc_dtype_size(dt), bytes = N * e;
    unsigned char ih[IN_PAD + N * 8], oh[OUT_PAD + N * 8 + 7], sh[2 * 8];
    unsigned char got[sizeof oh], want[sizeof oh];
    const size_t obytes = OUT_PAD + bytes + 7;
    fkc_buffer *I = random_buffer(ctx, ih, IN_PAD + bytes), *O = random_buffer(ctx, oh, obytes);
    fkc_buffer *S = random_buffer(ctx, sh, 2 * e);
    fkc_stream *s = NULL;
    cm_kernel_ref rev, slice;
    CHECK(I && O && S && fkc_stream_create(ctx, &s) == FKC_OK, "%s: set-up failed",
          fkc_dtype_name(dt));
    fkc_tensor in = {I, IN_PAD, dt, 2, {3, 5}}, out = {O, OUT_PAD, dt, 2, {3, 5}};
    fkc_tensor src = {S, 0, dt, 2, {1, 2}};
    const size_t offsets[2] = {1, 3};
    fkc_write_slice_params wp = {out.shape, 2, offsets, 2};
    CHECK(cm_dispatch(CM_OP_REVERSE, dt, dt, FKC_BACKEND_VULKAN, &rev) == FKC_OK &&
              cm_dispatch(CM_OP_WRITE_SLICE, dt, dt, FKC_BACKEND_VULKAN, &slice) == FKC_OK,
          "%s: no binding", fkc_dtype_name(dt));
    CHECK(rev.reverse(s, &in, &out, NULL, NULL) == FKC_OK, "%s: reverse refused",
          fkc_dtype_name(dt));
    CHECK(slice.write_slice(s, &src, &out, &wp, NULL) == FKC_OK, "%s: write_slice refused",
          fkc_dtype_name(dt));
    CHECK(fkc_stream_submit(s) == FKC_OK, "%s: submit failed", fkc_dtype_name(dt));
    CHECK(fkc_buffer_download(O, 0, got, obytes) == FKC_OK, "download failed");
    memcpy(want, oh, obytes);
    for (size_t i = 0; i < N; i++)
        memcpy(want + OUT_PAD + i * e, ih + IN_PAD + (N - 1 - i) * e, e);
    memcpy(want + OUT_PAD + (1 * 5 + 3) * e, sh, 2 * e);
    CHECK(memcmp(got, want, obytes) == 0, "%s: reverse + write_slice: wrong bytes",
          fkc_dtype_name(dt));
    /* The contract's rules are the wrappers' too: out may not overlap in. */
    fkc_tensor head = {I, IN_PAD, dt, 1, {4}}, shifted = {I, IN_PAD + e, dt, 1, {4}};
    uint32_t ops = fkc_stream_op_count(s);
    CHECK(rev.reverse(s, &head, &shifted, NULL, NULL) == FKC_ERR_INVALID_ARGUMENT &&
              strstr(fkc_last_error(), "overlaps") && fkc_stream_op_count(s) == ops,
          "%s: an overlapping out was not refused", fkc_dtype_name(dt));
done:
    fkc_stream_destroy(s);
    fkc_buffer_destroy(I);
    fkc_buffer_destroy(O);
    fkc_buffer_destroy(S);
}

int main(void)
{
    /* The library this program runs with is the one its headers describe. */
    if (strcmp(fkc_version(), FKC_VERSION_STRING) != 0) {
        fprintf(stderr, "cmake-backend: built with fkc %s headers, runs with libfkc %s\n",
                FKC_VERSION_STRING, fkc_version());
        return 1;
    }
    fkc_context *ctx;
    if (fkc_context_create(NULL, &ctx) != FKC_OK) {
        fprintf(stderr, "cmake-backend: no device: %s\n", fkc_last_error());
        return 1;
    }
    for (int d = 0; d < FKC_DTYPE_COUNT; d++)
        reverse_then_slice(ctx, (fkc_dtype)d);
    printf("cmake-backend: fkc %s, %s: Reverse, WriteSlice on %d dtypes through cm_dispatch: "
           "%s\n",
           fkc_version(), fkc_context_device(ctx)->name, (int)FKC_DTYPE_COUNT,
           failures ? "FAILED" : "all bit-exact");
    fkc_context_destroy(ctx);
    return failures ? 1 : 0;
}
