/* test_shards.c — `fkcgen gen --shards N` gives the same bindings as one source: a synthetic
 * corpus of 60 sections (10 op kinds, each bound by 6 providers' kernel sources; fkcgen.mk's
 * rule) generated as `a` (one source), `b` (--shards 4) and `c` (--shards 16: six shards hold
 * no op kind), every source compiled with the strict flags, the wrappers from --emit-stubs.
 * For b and c against a: the counts and op names, the registration's calls in order, the
 * dispatch and binding lookup of every (op kind, dtype, backend) and of every binding's kernel
 * source, the link registry, the shared costs and the cost fill, and the refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "a_bindings.h"
#include "b_bindings.h"
#include "c_bindings.h"

/* The interface symbol libfkc defines; this test links no libfkc. */
const int fkc_runtime_abi_4 = FKC_RUNTIME_ABI;

/* One registration call as a comparable record. */
typedef struct call {
    unsigned op;
    fkc_dtype key;
    fkc_backend backend;
    const char *kernel_source;
    double max_relative;
} call;

static call calls[2][A_BINDING_COUNT + 1];
static size_t n_calls[2];

/* clang-format off */
#define RECORDER(X, slot)                                                                       \
    static int record_##X(void *registry, X##_op_kind op, const fkc_dtype *key, size_t n_key, \
                          fkc_backend backend, const char *kernel_source,                       \
                          const fkc_precision *precision, X##_kernel_ref ref)                   \
    {                                                                                           \
        (void)registry, (void)ref, (void)n_key;                                                 \
        if (n_calls[slot] <= A_BINDING_COUNT)                                                   \
            calls[slot][n_calls[slot]++] = (call){ (unsigned)op, key[0], backend, kernel_source, \
                                                   precision->max_relative };                   \
        return 0;                                                                               \
    }
/* clang-format on */
RECORDER(a, 0)
RECORDER(b, 1)
RECORDER(c, 1)

static void same_cost(const fkc_cost *x, const fkc_cost *y)
{
    assert_true((x == NULL) == (y == NULL));
    if (!x)
        return;
    assert_int_equal(x->provenance, y->provenance);
    assert_int_equal(x->cost_class, y->cost_class);
    assert_string_equal(x->flops_expr, y->flops_expr);
    assert_string_equal(x->bytes_moved_expr, y->bytes_moved_expr);
    assert_true(x->bytes_moved(100, 4, NULL) == y->bytes_moved(100, 4, NULL));
}

/* Set X against a. skip: the prefix's length in the wrappers' names ("b_" = 2). */
/* clang-format off */
#define CHECK_SET(X, XX)                                                                        \
    static void check_##X(void)                                                                 \
    {                                                                                           \
        assert_int_equal(XX##_OP_KIND_COUNT, A_OP_KIND_COUNT);                                  \
        assert_int_equal(XX##_BINDING_COUNT, A_BINDING_COUNT);                                  \
        assert_int_equal(XX##_KERNEL_COUNT, A_KERNEL_COUNT);                                    \
        assert_int_equal(XX##_LINK_ENTRY_COUNT, A_LINK_ENTRY_COUNT);                            \
        for (unsigned op = 0; op < A_OP_KIND_COUNT; op++)                                       \
            assert_string_equal(X##_op_kind_name((X##_op_kind)op), a_op_kind_name((a_op_kind)op)); \
        assert_null(X##_op_kind_name((X##_op_kind)A_OP_KIND_COUNT));                            \
        n_calls[0] = n_calls[1] = 0;                                                            \
        assert_int_equal(a_register_bindings(NULL, record_a), 0);                               \
        assert_int_equal(X##_register_bindings(NULL, record_##X), 0);                           \
        assert_int_equal(n_calls[0], A_BINDING_COUNT);                                          \
        assert_int_equal(n_calls[1], A_BINDING_COUNT);                                          \
        for (size_t i = 0; i < A_BINDING_COUNT; i++) {                                          \
            assert_int_equal(calls[0][i].op, calls[1][i].op);                                   \
            assert_int_equal(calls[0][i].key, calls[1][i].key);                                 \
            assert_int_equal(calls[0][i].backend, calls[1][i].backend);                         \
            assert_string_equal(calls[0][i].kernel_source, calls[1][i].kernel_source);          \
        }                                                                                       \
        assert_int_equal(X##_register_bindings(NULL, NULL), FKC_ERR_INVALID_ARGUMENT);          \
        size_t found = 0;                                                                       \
        for (unsigned op = 0; op <= A_OP_KIND_COUNT; op++)                                      \
            for (int d = 0; d < FKC_DTYPE_COUNT; d++)                                           \
                for (int be = 0; be < FKC_BACKEND_COUNT; be++) {                                \
                    a_kernel_ref ar;                                                            \
                    X##_kernel_ref xr;                                                          \
                    fkc_dtype t = (fkc_dtype)d;                                                 \
                    fkc_status sa = a_dispatch((a_op_kind)op, t, t, (fkc_backend)be, &ar);     \
                    fkc_status sx = X##_dispatch((X##_op_kind)op, t, t, (fkc_backend)be, &xr); \
                    assert_int_equal(sa, sx);                                                   \
                    const a_binding *ab = a_binding_lookup((a_op_kind)op, t, t, (fkc_backend)be, NULL); \
                    const X##_binding *xb =                                                     \
                        X##_binding_lookup((X##_op_kind)op, t, t, (fkc_backend)be, NULL);       \
                    assert_true((ab == NULL) == (xb == NULL));                                  \
                    assert_true((sa == FKC_OK) == (ab != NULL));                                \
                    if (!ab)                                                                    \
                        continue;                                                               \
                    found++;                                                                    \
                    assert_string_equal(ab->symbol, xb->symbol);                                \
                    assert_string_equal(ab->wrapper + 2, xb->wrapper + 2);                      \
                    assert_string_equal(ab->info->kernel, xb->info->kernel);                    \
                    assert_memory_equal(&xr, &xb->fn, sizeof xr);                               \
                    assert_int_equal(xb->op_kind, op);                                          \
                }                                                                               \
        assert_true(found > 0);                                                                 \
        for (size_t i = 0; i < A_LINK_ENTRY_COUNT; i++) {                                       \
            const a_link_entry *ae = &a_link_registry[i];                                       \
            const X##_link_entry *xe = X##_link_lookup(ae->symbol);                             \
            assert_non_null(xe);                                                                \
            assert_string_equal(xe->symbol, ae->symbol);                                        \
            assert_int_equal(xe->registry, ae->registry);                                       \
            assert_string_equal(xe->binding->info->kernel, ae->binding->info->kernel);          \
            assert_int_equal(xe->binding->dtypes[0], ae->binding->dtypes[0]);                   \
            const a_binding *bb = ae->binding;                                                  \
            const X##_binding *xs = X##_binding_lookup((X##_op_kind)bb->op_kind, bb->dtypes[0], \
                                                       bb->dtypes[1], bb->backend,              \
                                                       bb->info->kernel_source);                \
            assert_non_null(xs);                                                                \
            assert_string_equal(xs->symbol, bb->symbol);                                        \
        }                                                                                       \
        assert_null(X##_link_lookup("no::such::symbol"));                                       \
        assert_null(X##_link_lookup(NULL));                                                     \
        for (unsigned op = 0; op <= A_OP_KIND_COUNT; op++)                                      \
            same_cost(a_op_shared_cost((a_op_kind)op), X##_op_shared_cost((X##_op_kind)op));    \
        static a_binding acopy[A_BINDING_COUNT];                                                \
        static X##_binding xcopy[A_BINDING_COUNT];                                              \
        for (size_t i = 0; i < A_BINDING_COUNT; i++) {                                          \
            const a_binding *bb = a_link_registry[i].binding;                                   \
            acopy[i] = *bb;                                                                     \
            xcopy[i] = *X##_link_lookup(bb->symbol)->binding;                                   \
            acopy[i].cost = xcopy[i].cost = NULL;                                               \
        }                                                                                       \
        size_t fa = a_fill_unset_cost_for_backend(acopy, A_BINDING_COUNT, FKC_BACKEND_VULKAN);  \
        size_t fx = X##_fill_unset_cost_for_backend(xcopy, A_BINDING_COUNT, FKC_BACKEND_VULKAN); \
        assert_int_equal(fa, fx);                                                               \
        assert_int_equal(fa, A_BINDING_COUNT);                                                  \
        for (size_t i = 0; i < A_BINDING_COUNT; i++)                                            \
            same_cost(acopy[i].cost, xcopy[i].cost);                                            \
        X##_kernel_ref r;                                                                       \
        assert_int_equal(X##_dispatch((X##_op_kind)0, FKC_DTYPE_F32, FKC_DTYPE_F32,             \
                                      FKC_BACKEND_VULKAN, NULL), FKC_ERR_INVALID_ARGUMENT);     \
        assert_int_equal(X##_dispatch((X##_op_kind)0, FKC_DTYPE_F32, FKC_DTYPE_I32,             \
                                      FKC_BACKEND_VULKAN, &r), FKC_ERR_NO_KERNEL);              \
        assert_int_equal(X##_dispatch((X##_op_kind)0, (fkc_dtype)FKC_DTYPE_COUNT,               \
                                      (fkc_dtype)FKC_DTYPE_COUNT, FKC_BACKEND_VULKAN, &r),      \
                         FKC_ERR_NO_KERNEL);                                                    \
    }
/* clang-format on */
CHECK_SET(b, B)
CHECK_SET(c, C)

static void test_four_shards(void **state)
{
    (void)state;
    assert_int_equal(B_SHARD_COUNT, 4);
    check_b();
}

static void test_sixteen_shards_some_empty(void **state)
{
    (void)state;
    assert_int_equal(C_SHARD_COUNT, 16);
    check_c();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_shards),
        cmocka_unit_test(test_sixteen_shards_some_empty),
    };
    return cmocka_run_group_tests_name("gen --shards", tests, NULL, NULL);
}
