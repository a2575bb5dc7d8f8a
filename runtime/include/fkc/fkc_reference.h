/* fkc_reference.h — the plain-C reference of the write-slice family, on host memory. It is the
 * tests' oracle and the CPU path (fkc-run --cpu); the Vulkan path runs the same shape checks
 * and slab plans (private to the runtime), so both accept and refuse exactly the same calls. */
#ifndef FKC_REFERENCE_H
#define FKC_REFERENCE_H

#include "fkc/fkc_types.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* libfkc.so exports what its public headers declare */
#endif

/* The reference ops on host memory: dst is updated in place (out = dst with the slab written).
 * A refusal returns the plan's status and sets fkc_last_error() (fkc_runtime.h), naming the
 * axis at fault where there is one. */
fkc_status fkc_ref_write_slice(void *dst, const size_t *dst_shape, uint32_t rank, const void *src,
                               const size_t *src_shape, const size_t *offsets, size_t elem_size);
fkc_status fkc_ref_write_slice_rotating(void *dst, const size_t *dst_shape, uint32_t rank,
                                        const void *src, const size_t *src_shape, size_t capacity,
                                        uint64_t position, int32_t axis, size_t elem_size);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_REFERENCE_H */
