/* test_siblings.c — two providers bind the same key (Copy, [T, T], Vulkan) with different
 * kernel sources (tests/gen/cases/siblings/: "vulkan-slang" and "vulkan-glsl"):
 * legal, since kernel_source is part of the binding key. Their generated code (compiled with the
 * strict flags) keeps both: fkc_binding_lookup finds each by its kernel source, and without one
 * (and fkc_dispatch) gives the first in table order. This test defines the four wrappers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fkc_bindings.h"

#define WRAPPER(name)                                                                              \
    fkc_status name(fkc_stream *stream, const fkc_tensor *src, fkc_tensor *out,                    \
                    const fkc_copy_params *params, const void *extra)                              \
    {                                                                                              \
        (void)stream, (void)src, (void)out, (void)params, (void)extra;                             \
        return FKC_OK;                                                                             \
    }

/* The interface symbol libfkc defines; this test links no libfkc. */
const int fkc_runtime_abi_4 = FKC_RUNTIME_ABI;

WRAPPER(fkc_copy_b1)
WRAPPER(fkc_copy_b4)
WRAPPER(fkc_copy_glsl_b1)
WRAPPER(fkc_copy_glsl_b4)

static void test_both_siblings(void **state)
{
    (void)state;
    assert_int_equal(FKC_BINDING_COUNT, 4);
    assert_int_equal(FKC_PROVIDER_COUNT, 2);
    const fkc_binding *slang = fkc_binding_lookup(FKC_OP_COPY, FKC_DTYPE_F32, FKC_DTYPE_F32,
                                                  FKC_BACKEND_VULKAN, "vulkan-slang");
    const fkc_binding *glsl = fkc_binding_lookup(FKC_OP_COPY, FKC_DTYPE_F32, FKC_DTYPE_F32,
                                                 FKC_BACKEND_VULKAN, "vulkan-glsl");
    assert_non_null(slang);
    assert_non_null(glsl);
    assert_ptr_equal(fkc_binding_ref(slang).copy, fkc_copy_b4);
    assert_ptr_equal(fkc_binding_ref(glsl).copy, fkc_copy_glsl_b4);
    assert_string_equal(slang->info->kernel, "copy");
    assert_string_equal(glsl->info->kernel, "copy_glsl");
    /* each kernel's contract names its own provider */
    assert_string_equal(slang->info->provider->kernel_source, "vulkan-slang");
    assert_string_equal(glsl->info->provider->kernel_source, "vulkan-glsl");
    assert_ptr_equal(fkc_binding_ref(fkc_binding_lookup(FKC_OP_COPY, FKC_DTYPE_U8, FKC_DTYPE_U8,
                                                        FKC_BACKEND_VULKAN, "vulkan-glsl"))
                         .copy,
                     fkc_copy_glsl_b1);
    assert_null(fkc_binding_lookup(FKC_OP_COPY, FKC_DTYPE_I32, FKC_DTYPE_I32, FKC_BACKEND_VULKAN,
                                   "vulkan-glsl"));
    assert_null(fkc_binding_lookup(FKC_OP_COPY, FKC_DTYPE_F32, FKC_DTYPE_F32, FKC_BACKEND_VULKAN,
                                   "vulkan-spirv"));
    /* no kernel source: the first in table order ("vulkan-glsl" < "vulkan-slang") */
    assert_ptr_equal(
        fkc_binding_lookup(FKC_OP_COPY, FKC_DTYPE_F32, FKC_DTYPE_F32, FKC_BACKEND_VULKAN, NULL),
        glsl);
    fkc_kernel_ref ref;
    assert_int_equal(
        fkc_dispatch(FKC_OP_COPY, FKC_DTYPE_F32, FKC_DTYPE_F32, FKC_BACKEND_VULKAN, &ref), FKC_OK);
    assert_ptr_equal(ref.copy, fkc_copy_glsl_b4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_both_siblings)};
    return cmocka_run_group_tests_name("kernel_source siblings", tests, NULL, NULL);
}
