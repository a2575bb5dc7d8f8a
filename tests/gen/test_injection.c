/* test_injection.c — linked with the emitter's output for the hand-built injection table
 * (tests/gen/emit_fixture, compiled with the strict flags): every hostile contract string
 * reads back byte for byte, and the code around it still works. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fkc_bindings.h"
#include "injection_strings.h"

static void test_strings_round_trip(void **state)
{
    (void)state;
    for (int k = 0; k < FKC_KERNEL_COUNT; k++) {
        assert_string_equal(fkc_kernels[k].blurb, INJ_BLURB);
        assert_string_equal(fkc_kernels[k].precision.notes, INJ_NOTES);
        assert_string_equal(fkc_kernels[k].kernel_source, INJ_SOURCE);
        assert_string_equal(fkc_kernels[k].source_file, INJ_FILE);
    }
    for (int i = 0; i < FKC_BINDING_COUNT; i++) {
        assert_string_equal(fkc_bindings[i].info->precision.notes, INJ_NOTES);
        assert_string_equal(fkc_bindings[i].info->kernel_source, INJ_SOURCE);
        assert_string_equal(fkc_bindings[i].info->source_file, INJ_FILE);
    }
}

/* ... and so do the contract tables (the rest of fkc_kernels, fkc_providers). */
static void test_contract_tables_round_trip(void **state)
{
    (void)state;
    assert_string_equal(fkc_kernels[0].inputs[0].shape_constraint, INJ_NOTES);
    assert_string_equal(fkc_kernels[0].fields[0].note, INJ_BLURB);
    assert_string_equal(fkc_providers[0].name, INJ_BLURB);
    assert_string_equal(fkc_providers[0].revision_base, INJ_NOTES);
    assert_string_equal(fkc_providers[0].kernel_source, INJ_SOURCE);
    assert_string_equal(fkc_providers[0].source_file, INJ_FILE);
    assert_ptr_equal(fkc_kernels[1].provider, &fkc_providers[0]);
    assert_null(fkc_kernels[1].cost->flops_expr); /* no cost stated: no expressions */
    assert_int_equal(fkc_kernels[1].cost->provenance, FKC_COST_PROVENANCE_UNKNOWN);
}

static void test_code_still_works(void **state)
{
    (void)state;
    fkc_kernel_ref ref;
    assert_int_equal(FKC_BINDING_COUNT, 18);
    assert_int_equal(
        fkc_dispatch(FKC_OP_WRITE_SLICE, FKC_DTYPE_BF16, FKC_DTYPE_BF16, FKC_BACKEND_VULKAN, &ref),
        FKC_OK);
    assert_ptr_equal((void *)ref.write_slice, (void *)fkc_write_slice_b2);
    assert_non_null(fkc_link_lookup("fuel_vulkan_backend::fkc::write_slice_rotating_u8"));
}

static void test_unknown_cost_sentinel(void **state)
{
    (void)state;
    static fkc_binding copy[FKC_BINDING_COUNT];
    memcpy(copy, fkc_bindings, sizeof copy);
    for (int i = 0; i < FKC_BINDING_COUNT; i++)
        assert_int_equal(copy[i].cost->provenance, copy[i].op_kind == FKC_OP_WRITE_SLICE
                                                       ? FKC_COST_PROVENANCE_JUDGE_MEASURED
                                                       : FKC_COST_PROVENANCE_UNKNOWN);
    /* WriteSliceRotating has no section stating a cost: nothing to upgrade to */
    assert_null(fkc_op_shared_cost(FKC_OP_WRITE_SLICE_ROTATING));
    assert_non_null(fkc_op_shared_cost(FKC_OP_WRITE_SLICE));
    assert_int_equal(fkc_fill_unset_cost_for_backend(copy, FKC_BINDING_COUNT, FKC_BACKEND_VULKAN),
                     0);
    assert_null(copy[FKC_BINDING_COUNT - 1].cost->bytes_moved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strings_round_trip),
        cmocka_unit_test(test_contract_tables_round_trip),
        cmocka_unit_test(test_code_still_works),
        cmocka_unit_test(test_unknown_cost_sentinel),
    };
    return cmocka_run_group_tests_name("injection", tests, NULL, NULL);
}
