/* test_select.c — a selected build (`fkcgen gen --select tests/gen/cases/select/one.txt`: the
 * seed cut down to WriteSlice on F32), compiled with the strict flags by gcc and clang and
 * linked with the runtime's real wrappers (libfkc.a): it holds the one binding, dispatches it
 * onto fkc_write_slice_b4, and refuses every binding left out with FKC_ERR_NO_KERNEL (the other
 * eight dtypes, another backend, WriteSliceRotating, which is no op kind of this build) as do
 * the lookups, the link registry and the registration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fkc_bindings.h"

static const fkc_dtype others[] = {FKC_DTYPE_I32, FKC_DTYPE_U32, FKC_DTYPE_F16, FKC_DTYPE_BF16,
                                   FKC_DTYPE_F64, FKC_DTYPE_I64, FKC_DTYPE_U8,  FKC_DTYPE_I8};

static void test_one_binding(void **state)
{
    (void)state;
    assert_int_equal(FKC_BINDING_COUNT, 1);
    assert_int_equal(FKC_OP_KIND_COUNT, 1);
    assert_int_equal(FKC_KERNEL_COUNT, 1);
    assert_int_equal(FKC_LINK_ENTRY_COUNT, 1);
    assert_string_equal(fkc_op_kind_name(FKC_OP_WRITE_SLICE), "WriteSlice");
    fkc_kernel_ref ref;
    memset(&ref, 0, sizeof ref);
    assert_int_equal(
        fkc_dispatch(FKC_OP_WRITE_SLICE, FKC_DTYPE_F32, FKC_DTYPE_F32, FKC_BACKEND_VULKAN, &ref),
        FKC_OK);
    assert_ptr_equal(ref.write_slice, fkc_write_slice_b4);
    const fkc_binding *b = fkc_binding_lookup(FKC_OP_WRITE_SLICE, FKC_DTYPE_F32, FKC_DTYPE_F32,
                                              FKC_BACKEND_VULKAN, "vulkan-slang");
    assert_non_null(b);
    assert_ptr_equal(b, &fkc_bindings[0]);
    assert_string_equal(b->symbol, "fuel_vulkan_backend::fkc::write_slice_f32");
    assert_ptr_equal(fkc_link_lookup("fuel_vulkan_backend::fkc::write_slice_f32"),
                     &fkc_link_registry[0]);
}

static void test_left_out_refused(void **state)
{
    (void)state;
    fkc_kernel_ref ref;
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        memset(&ref, 0, sizeof ref);
        assert_int_equal(
            fkc_dispatch(FKC_OP_WRITE_SLICE, others[i], others[i], FKC_BACKEND_VULKAN, &ref),
            FKC_ERR_NO_KERNEL);
        assert_null(ref.write_slice);
        assert_null(
            fkc_binding_lookup(FKC_OP_WRITE_SLICE, others[i], others[i], FKC_BACKEND_VULKAN, NULL));
    }
    assert_int_equal(
        fkc_dispatch(FKC_OP_WRITE_SLICE, FKC_DTYPE_F32, FKC_DTYPE_F32, FKC_BACKEND_CPU, &ref),
        FKC_ERR_NO_KERNEL);
    /* WriteSliceRotating (op value 1 of the full seed) is no op kind of this build */
    assert_int_equal(
        fkc_dispatch((fkc_op_kind)1, FKC_DTYPE_F32, FKC_DTYPE_F32, FKC_BACKEND_VULKAN, &ref),
        FKC_ERR_NO_KERNEL);
    assert_null(
        fkc_binding_lookup((fkc_op_kind)1, FKC_DTYPE_F32, FKC_DTYPE_F32, FKC_BACKEND_VULKAN, NULL));
    assert_null(fkc_link_lookup("fuel_vulkan_backend::fkc::write_slice_i8"));
    assert_null(fkc_link_lookup("fuel_vulkan_backend::fkc::write_slice_rotating_f32"));
}

static int registered;
static int record(void *registry, fkc_op_kind op, const fkc_dtype *key, size_t n_key,
                  fkc_backend backend, const char *kernel_source, const fkc_precision *precision,
                  fkc_kernel_ref ref)
{
    (void)registry, (void)kernel_source, (void)precision;
    assert_int_equal(op, FKC_OP_WRITE_SLICE);
    assert_int_equal(n_key, 2);
    assert_int_equal(key[0], FKC_DTYPE_F32);
    assert_int_equal(backend, FKC_BACKEND_VULKAN);
    assert_ptr_equal(ref.write_slice, fkc_write_slice_b4);
    registered++;
    return 0;
}

static void test_registers_one(void **state)
{
    (void)state;
    assert_int_equal(fkc_register_bindings(NULL, record), 0);
    assert_int_equal(registered, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_binding),
        cmocka_unit_test(test_left_out_refused),
        cmocka_unit_test(test_registers_one),
    };
    return cmocka_run_group_tests_name("gen --select", tests, NULL, NULL);
}
