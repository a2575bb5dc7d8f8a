/* test_fill.c — the Fill example family (examples/c-backend/fill/) end to end: bindings
 * generated from fill.md into build/, fill.c and the generated code compiled with the strict
 * flags, the shader fill.comp compiled by glslc. On the default device with the validation layer
 * on: all nine dtypes bit-exact (NaN payloads, -0.0, denormals as given) over many lengths and
 * byte offsets, the whole buffer compared so the bytes around each tensor are seen untouched;
 * through the generated dispatch and directly; chunked work under lowered limits; fills ordered
 * with write_slice in one stream; refusals with status and message and nothing written. */
#include "rt_harness.h"

#include "cb_bindings.h" /* generated from examples/c-backend/fill/fill.md */

RT_SHARED_CONTEXT(ctx) /* shared by the tests of the group */

/* The element's bit pattern: random, or one a float path would break. */
static uint64_t pattern(size_t width)
{
    static const uint64_t tricky[] = {
        0x7ff0000000000001ull, 0x8000000000000000ull, 0x000000007fc00001ull, 0x0000000080000000ull,
        0x0000000000007e01ull, 0x0000000000008000ull, 0x0000000000000001ull, 0xffffffffffffffffull};
    (void)width;
    return rng_below(3) == 0 ? tricky[rng_below(8)] : rng_next();
}

/* The host image of a fill: every element's width bytes are value_bits' low bytes. */
static void fill_host(unsigned char *p, size_t elems, size_t width, uint64_t bits)
{
    for (size_t i = 0; i < elems; i++)
        for (size_t b = 0; b < width; b++)
            p[i * width + b] = (unsigned char)(bits >> (8 * b));
}

/* Fills random tensors of every dtype, all in one stream per dtype, through the generated
 * dispatch (op Fill, [T, T], Vulkan) or a wrapper called directly; then compares the buffer. */
static void run_dtypes(fkc_context *c, int cases, const char *label)
{
    static const size_t lengths[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 17, 63, 64, 65, 255, 1000, 4099};
    for (int d = 0; d < FKC_DTYPE_COUNT; d++) {
        fkc_dtype dt = (fkc_dtype)d;
        size_t w = fkc_dtype_size(dt);
        rt_buf B;
        rt_buf_make(c, &B, 110000);
        fkc_stream *s;
        RT_OK(fkc_stream_create(c, &s));
        for (int k = 0; k < cases; k++) {
            size_t n = lengths[rng_below(sizeof lengths / sizeof lengths[0])];
            size_t shape[2] = {n, 1 + rng_below(3)};
            uint32_t rank = 1 + (uint32_t)rng_below(2);
            size_t elems = rt_elems(rank, shape);
            uint64_t off = rng_below(B.size - elems * w + 1);
            if (k % 3 == 0)
                off -= off % w; /* aligned to the element, as well as not */
            fkc_tensor t = rt_tensor(B.dev, off, dt, rank, shape);
            cb_fill_params p = {pattern(w)};
            if (k % 2 == 0) {
                cb_kernel_ref ref;
                RT_OK(cb_dispatch(CB_OP_FILL, dt, dt, FKC_BACKEND_VULKAN, &ref));
                RT_OK(ref.fill(s, &t, &t, &p, NULL)); /* in == out: the contract allows it */
            } else {
                cb_fill_kernel *fn = w == 1   ? cb_fill_b1
                                     : w == 2 ? cb_fill_b2
                                     : w == 4 ? cb_fill_b4
                                              : cb_fill_b8;
                fkc_tensor in = t;
                RT_OK(fn(s, &in, &t, &p, NULL));
            }
            fill_host(B.host + off, elems, w, p.value_bits);
        }
        RT_OK(fkc_stream_submit(s));
        char what[96];
        snprintf(what, sizeof what, "%s: fill %s", label, fkc_dtype_name(dt));
        rt_buf_check(&B, what);
        fkc_stream_destroy(s);
        rt_buf_free(&B);
    }
}

static void test_nine_dtypes(void **state)
{
    (void)state;
    rng_seed(11);
    run_dtypes(ctx, 40, "default limits");
}

/* A 256-byte storage range and a 1-group grid: every fill is cut into many chunks (and the
 * chunks' seams fall inside words and elements). */
static void test_chunked(void **state)
{
    (void)state;
    fkc_context *small = rt_context(0, FKC_COPY_AUTO, 256, 1);
    rng_seed(12);
    run_dtypes(small, 12, "lowered limits");
    rt_no_validation(small);
    fkc_context_destroy(small);
}

/* Fills and write_slice in one stream run in recording order. */
static void test_order(void **state)
{
    (void)state;
    rt_buf A, B;
    rt_buf_make(ctx, &A, 512);
    rt_buf_make(ctx, &B, 512);
    const size_t whole[1] = {100}, part[1] = {30}, off[1] = {10};
    fkc_tensor a = rt_tensor(A.dev, 8, FKC_DTYPE_F32, 1, whole);
    fkc_tensor b = rt_tensor(B.dev, 4, FKC_DTYPE_F32, 1, part);
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    cb_fill_params p1 = {0x7fc00001u}, p2 = {0x80000000u};
    RT_OK(cb_fill_b4(s, &a, &a, &p1, NULL)); /* A = NaN payload */
    fill_host(A.host + 8, 100, 4, p1.value_bits);
    RT_OK(cb_fill_b4(s, &b, &b, &p2, NULL)); /* B = -0.0 */
    fill_host(B.host + 4, 30, 4, p2.value_bits);
    RT_OK(fkc_stream_copy(s, A.dev, 8 + 4 * 10, B.dev, 4, 4 * 30)); /* A[10..40) = B */
    memcpy(A.host + 8 + 40, B.host + 4, 120);
    fkc_tensor a2 = rt_tensor(A.dev, 8 + 4 * 20, FKC_DTYPE_F32, 1, off);
    cb_fill_params p3 = {0x00000001u};
    RT_OK(cb_fill_b4(s, &a2, &a2, &p3, NULL)); /* A[20..30) = denormal, over the copy */
    fill_host(A.host + 8 + 80, 10, 4, p3.value_bits);
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&A, "fill, copy, fill in order");
    rt_buf_check(&B, "fill");
    fkc_stream_destroy(s);
    rt_buf_free(&A);
    rt_buf_free(&B);
}

#define REFUSED(call, status, text)                                                                \
    do {                                                                                           \
        fkc_status got_ = (call);                                                                  \
        if (got_ != (status))                                                                      \
            fail_msg("%s -> %s (%s)", #call, fkc_status_name(got_), fkc_last_error());             \
        if (!strstr(fkc_last_error(), (text)))                                                     \
            fail_msg("message '%s' lacks '%s'", fkc_last_error(), (text));                         \
    } while (0)

/* The generated table and dispatch of fill.md, and the wrappers' refusals. */
static void test_bindings_and_refusals(void **state)
{
    (void)state;
    assert_int_equal(CB_BINDING_COUNT, 9);
    for (int i = 0; i < CB_BINDING_COUNT; i++) {
        assert_int_equal(cb_bindings[i].op_kind, CB_OP_FILL);
        assert_string_equal(cb_bindings[i].info->kernel_source, "fkc-example-glsl");
    }
    cb_kernel_ref ref;
    assert_int_equal(
        cb_dispatch(CB_OP_FILL, FKC_DTYPE_F16, FKC_DTYPE_BF16, FKC_BACKEND_VULKAN, &ref),
        FKC_ERR_NO_KERNEL);
    RT_OK(cb_dispatch(CB_OP_FILL, FKC_DTYPE_BF16, FKC_DTYPE_BF16, FKC_BACKEND_VULKAN, &ref));
    assert_ptr_equal(ref.fill, cb_fill_b2);

    rt_buf B;
    rt_buf_make(ctx, &B, 64);
    const size_t shape[1] = {8}, other[1] = {7};
    fkc_tensor t = rt_tensor(B.dev, 0, FKC_DTYPE_F16, 1, shape);
    fkc_tensor u = rt_tensor(B.dev, 0, FKC_DTYPE_F16, 1, other);
    fkc_tensor big = rt_tensor(B.dev, 40, FKC_DTYPE_F32, 1, shape);
    cb_fill_params p = {0x1234};
    fkc_stream *s;
    RT_OK(fkc_stream_create(ctx, &s));
    REFUSED(cb_fill_b4(s, &t, &t, &p, NULL), FKC_ERR_DTYPE, "cb_fill_b4: out's dtype F16");
    REFUSED(cb_fill_b2(s, &u, &t, &p, NULL), FKC_ERR_SHAPE, "same_as(in)");
    REFUSED(cb_fill_b4(s, &big, &big, &p, NULL), FKC_ERR_INVALID_ARGUMENT, "do not fit");
    REFUSED(cb_fill_b2(s, &t, &t, NULL, NULL), FKC_ERR_INVALID_ARGUMENT, "NULL");
    assert_int_equal(fkc_stream_op_count(s), 0);
    RT_OK(fkc_stream_submit(s));
    rt_buf_check(&B, "refused fills wrote nothing");
    fkc_stream_destroy(s);
    rt_buf_free(&B);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_nine_dtypes, no_validation),
        cmocka_unit_test_teardown(test_chunked, no_validation),
        cmocka_unit_test_teardown(test_order, no_validation),
        cmocka_unit_test_teardown(test_bindings_and_refusals, no_validation),
    };
    return cmocka_run_group_tests_name("Fill example family", tests, setup, teardown);
}
