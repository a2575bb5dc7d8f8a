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

/* set_rows on host memory (fkc_set_rows in fkc_runtime.h says what it does): a tensor is its
 * data, dtype, rank and shape (contiguous, row-major, little-endian). out is updated in place;
 * *out_of_range (may be NULL) is increased by the number of indices at or past the cache's
 * slot count, which wrote nothing (the device's status word). Refusals as fkc_set_rows', but
 * not its FKC_ERR_UNSUPPORTED ones: the reference takes every alignment and size. */
typedef struct fkc_host_tensor {
    void *data;
    fkc_dtype dtype;
    uint32_t rank;
    size_t shape[FKC_MAX_RANK];
} fkc_host_tensor;
fkc_status fkc_ref_set_rows(const fkc_host_tensor *src, const fkc_host_tensor *index,
                            fkc_host_tensor *out, int32_t slot_axis, uint64_t *out_of_range);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_REFERENCE_H */
