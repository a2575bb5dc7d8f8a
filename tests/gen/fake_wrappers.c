/* fake_wrappers.c — test-only definitions of the byte-width wrappers for the synthetic
 * injection tables (tests/gen/test_injection*.c), whose generated code is not the runtime's
 * (their kernels carry the runtime's names, so these stand in for fkc_write_slice_b1, ...).
 * Each returns a status no real wrapper returns for valid input. The seed's generated code is
 * tested against the runtime's real wrappers (test_generated links libfkc.a); `make` never
 * ships this file. */
#include "fkc_bindings.h"

#define FAKE(name, params_t, extra_t)                                                              \
    fkc_status name(fkc_stream *stream, const fkc_tensor *src, fkc_tensor *out,                    \
                    const params_t *params, const extra_t *extra)                                  \
    {                                                                                              \
        (void)stream;                                                                              \
        (void)src;                                                                                 \
        (void)out;                                                                                 \
        (void)params;                                                                              \
        (void)extra;                                                                               \
        return FKC_ERR_UNSUPPORTED;                                                                \
    }

FAKE(fkc_write_slice_b1, fkc_write_slice_params, void)
FAKE(fkc_write_slice_b2, fkc_write_slice_params, void)
FAKE(fkc_write_slice_b4, fkc_write_slice_params, void)
FAKE(fkc_write_slice_b8, fkc_write_slice_params, void)
FAKE(fkc_write_slice_rotating_b1, fkc_write_slice_rotating_params, fkc_write_slice_rotating_extra)
FAKE(fkc_write_slice_rotating_b2, fkc_write_slice_rotating_params, fkc_write_slice_rotating_extra)
FAKE(fkc_write_slice_rotating_b4, fkc_write_slice_rotating_params, fkc_write_slice_rotating_extra)
FAKE(fkc_write_slice_rotating_b8, fkc_write_slice_rotating_params, fkc_write_slice_rotating_extra)

/* The runtime interface symbol the generated source references (libfkc defines it). */
const int fkc_runtime_abi_4 = FKC_RUNTIME_ABI;
