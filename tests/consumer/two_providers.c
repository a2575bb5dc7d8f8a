/* two_providers.c — two sets of bindings in one program: a_bindings (fkcgen gen --prefix a,
 * from contracts/vulkan/write_slice.md) and b_bindings (--prefix b, from the example's Fill
 * contract and tests/gen/cases/split_b.md), each with its own op-kind numbering, tables,
 * dispatch and link registry, over one libfkc. b's Fill wrappers are defined here; a real
 * write_slice through a_dispatch and a real write_slice_rotating through b_dispatch run on the
 * default device. Exit 0 when every check holds. Built and run by tests/consumer/check.sh. */
#include <stdio.h>
#include <string.h>

#include "fkc/fkc_runtime.h"
#include "a_bindings.h"
#include "b_bindings.h"

/* b's own family: wrappers b_fill_b<width> (these only mark that they were called). */
#define MARK(W)                                                                                    \
    fkc_status b_fill_b##W(fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,              \
                           const b_fill_params *params, const void *extra)                         \
    {                                                                                              \
        (void)stream, (void)in, (void)out, (void)params, (void)extra;                              \
        return (fkc_status)(100 + W);                                                              \
    }
MARK(1)
MARK(2)
MARK(4)
MARK(8)

static int failed;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "two_providers: %s:%d: %s (%s)\n", __FILE__, __LINE__, #c,             \
                    fkc_last_error());                                                             \
            failed = 1;                                                                            \
        }                                                                                          \
    } while (0)

int main(void)
{
    a_kernel_ref ra;
    b_kernel_ref rb;
    CHECK(A_OP_WRITE_SLICE == 0 && A_OP_WRITE_SLICE_ROTATING == 1 && A_OP_KIND_COUNT == 2);
    CHECK(B_OP_FILL == 0 && B_OP_WRITE_SLICE_ROTATING == 1 && B_OP_KIND_COUNT == 2);
    /* each table: one binding per dtype of each kernel's first input, as its contracts say */
    size_t na = 0, nb = 0;
    for (size_t k = 0; k < A_KERNEL_COUNT; k++)
        na += a_kernels[k].n_inputs ? a_kernels[k].inputs[0].n_dtypes : 0;
    for (size_t k = 0; k < B_KERNEL_COUNT; k++)
        nb += b_kernels[k].n_inputs ? b_kernels[k].inputs[0].n_dtypes : 0;
    CHECK(na > 0 && A_BINDING_COUNT == na && nb > 0 && B_BINDING_COUNT == nb);
    CHECK(strcmp(a_op_kind_name(A_OP_WRITE_SLICE), "WriteSlice") == 0);
    CHECK(strcmp(b_op_kind_name(B_OP_FILL), "Fill") == 0);
    /* the same runtime wrapper through both, each under its own op number */
    CHECK(a_dispatch(A_OP_WRITE_SLICE_ROTATING, FKC_DTYPE_F16, FKC_DTYPE_F16, FKC_BACKEND_VULKAN,
                     &ra) == FKC_OK &&
          ra.write_slice_rotating == fkc_write_slice_rotating_b2);
    CHECK(b_dispatch(B_OP_WRITE_SLICE_ROTATING, FKC_DTYPE_F16, FKC_DTYPE_F16, FKC_BACKEND_VULKAN,
                     &rb) == FKC_OK &&
          rb.write_slice_rotating == fkc_write_slice_rotating_b2);
    /* b's own family; a has none */
    CHECK(b_dispatch(B_OP_FILL, FKC_DTYPE_F64, FKC_DTYPE_F64, FKC_BACKEND_VULKAN, &rb) == FKC_OK &&
          rb.fill == b_fill_b8 && rb.fill(NULL, NULL, NULL, NULL, NULL) == (fkc_status)108);
    CHECK(a_dispatch((a_op_kind)2, FKC_DTYPE_F32, FKC_DTYPE_F32, FKC_BACKEND_VULKAN, &ra) ==
          FKC_ERR_NO_KERNEL);
    CHECK(a_link_lookup("fuel_vulkan_backend::fkc::write_slice_f32") != NULL);
    CHECK(b_link_lookup("fuel_vulkan_backend::fkc::write_slice_f32") == NULL);
    CHECK(b_link_lookup("example_backend::fill::fill_u8") != NULL);
    CHECK(a_runtime_abi == b_runtime_abi && *a_runtime_abi == FKC_RUNTIME_ABI);

    /* one real op through each dispatch, on the default device */
    fkc_context *ctx = NULL;
    fkc_buffer *d = NULL, *s = NULL, *pos = NULL;
    fkc_stream *st = NULL;
    const unsigned char src[4] = {1, 2, 3, 4}, zero[8] = {0}, p3[8] = {3};
    unsigned char got[8];
    CHECK(fkc_context_create(NULL, &ctx) == FKC_OK && fkc_buffer_create(ctx, 8, &d) == FKC_OK &&
          fkc_buffer_create(ctx, 4, &s) == FKC_OK && fkc_buffer_create(ctx, 8, &pos) == FKC_OK &&
          fkc_stream_create(ctx, &st) == FKC_OK);
    if (failed)
        return 1;
    CHECK(fkc_buffer_upload(d, 0, zero, 8) == FKC_OK && fkc_buffer_upload(s, 0, src, 4) == FKC_OK &&
          fkc_buffer_upload(pos, 0, p3, 8) == FKC_OK);
    fkc_tensor out = {d, 0, FKC_DTYPE_U8, 1, {8}}, in = {s, 0, FKC_DTYPE_U8, 1, {2}};
    const size_t off[1] = {1};
    a_write_slice_params wp = {out.shape, 1, off, 1};
    b_write_slice_rotating_params rp = {out.shape, 1, 8};
    fkc_write_slice_rotating_extra x = {pos, 0, -1};
    fkc_tensor in2 = {s, 2, FKC_DTYPE_U8, 1, {2}};
    CHECK(a_dispatch(A_OP_WRITE_SLICE, FKC_DTYPE_U8, FKC_DTYPE_U8, FKC_BACKEND_VULKAN, &ra) ==
              FKC_OK &&
          ra.write_slice(st, &in, &out, &wp, NULL) == FKC_OK);
    CHECK(b_dispatch(B_OP_WRITE_SLICE_ROTATING, FKC_DTYPE_U8, FKC_DTYPE_U8, FKC_BACKEND_VULKAN,
                     &rb) == FKC_OK &&
          rb.write_slice_rotating(st, &in2, &out, &rp, &x) == FKC_OK);
    CHECK(fkc_stream_submit(st) == FKC_OK && fkc_buffer_download(d, 0, got, 8) == FKC_OK);
    const unsigned char want[8] = {0, 1, 2, 3, 4, 0, 0, 0};
    CHECK(memcmp(got, want, 8) == 0);
    fkc_stream_destroy(st);
    fkc_buffer_destroy(d);
    fkc_buffer_destroy(s);
    fkc_buffer_destroy(pos);
    fkc_context_destroy(ctx);
    if (!failed)
        puts("two_providers: a_ and b_ bindings in one program: ok");
    return failed;
}
