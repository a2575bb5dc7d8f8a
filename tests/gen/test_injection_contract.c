/* test_injection_contract.c — the contract tests/gen/cases/injection.md (the seed with a
 * hostile blurb and notes in its first section) through the whole of fkcgen: YAML escapes
 * decoded by the front end, C escapes written by the emitter, the strict compile, then the
 * strings read back here byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fkc_bindings.h"

/* What the YAML double-quoted scalars of injection.md mean. */
#define WANT_BLURB                                                                                 \
    "say \"hi\" */ int evil(void); /* \\ back\\slash\nnew line ?\?/ ?\?= caf\xc3\xa9 end"
#define WANT_NOTES "notes */ #include <stdlib.h>\n\"); system(\"rm -rf /\"); //\\"

static void test_blurb_and_notes_round_trip(void **state)
{
    (void)state;
    assert_string_equal(fkc_kernels[0].kernel, "write_slice");
    assert_string_equal(fkc_kernels[0].blurb, WANT_BLURB);
    int n = 0;
    for (int i = 0; i < FKC_BINDING_COUNT; i++)
        if (fkc_bindings[i].op_kind == FKC_OP_WRITE_SLICE) {
            assert_string_equal(fkc_bindings[i].info->precision.notes, WANT_NOTES);
            n++;
        }
    assert_int_equal(n, 9);
    assert_string_equal(fkc_kernels[0].source_file, "tests/gen/cases/injection.md");
}

static void test_rest_untouched(void **state)
{
    (void)state;
    fkc_kernel_ref ref;
    assert_int_equal(FKC_BINDING_COUNT, 18);
    assert_non_null(strstr(fkc_kernels[1].blurb, "Sliding-window KV slab write"));
    assert_int_equal(fkc_dispatch(FKC_OP_WRITE_SLICE_ROTATING, FKC_DTYPE_I64, FKC_DTYPE_I64,
                                  FKC_BACKEND_VULKAN, &ref),
                     FKC_OK);
    assert_ptr_equal((void *)ref.write_slice_rotating, (void *)fkc_write_slice_rotating_b8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blurb_and_notes_round_trip),
        cmocka_unit_test(test_rest_untouched),
    };
    return cmocka_run_group_tests_name("injection contract", tests, NULL, NULL);
}
