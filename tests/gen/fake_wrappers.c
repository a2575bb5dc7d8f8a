/* fake_wrappers.c — test-only definitions of the seed's byte-width wrappers, so that
 * generated/fkc_bindings.c links without the Vulkan runtime. Each returns a status no real
 * wrapper returns for valid input, so a test can tell that the call reached it. Only the
 * tests of tests/gen/ link this file; `make` never ships it. */
#include "fkc_bindings.h"

#define FAKE(name, params_t)                                                                \
    fkc_status name(fkc_stream *stream, const fkc_tensor *src, fkc_tensor *out,             \
                    const params_t *params, const fkc_op_extra *extra)                      \
    {                                                                                       \
        (void)stream;                                                                       \
        (void)src;                                                                          \
        (void)out;                                                                          \
        (void)params;                                                                       \
        (void)extra;                                                                        \
        return FKC_ERR_UNSUPPORTED;                                                         \
    }

FAKE(write_slice_b1, fkc_write_slice_params)
FAKE(write_slice_b2, fkc_write_slice_params)
FAKE(write_slice_b4, fkc_write_slice_params)
FAKE(write_slice_b8, fkc_write_slice_params)
FAKE(write_slice_rotating_b1, fkc_write_slice_rotating_params)
FAKE(write_slice_rotating_b2, fkc_write_slice_rotating_params)
FAKE(write_slice_rotating_b4, fkc_write_slice_rotating_params)
FAKE(write_slice_rotating_b8, fkc_write_slice_rotating_params)
