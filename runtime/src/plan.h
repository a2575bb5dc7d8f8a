/* plan.h — the write-slice family's shape checks and slab plans, shared by the Vulkan path
 * (ops.c, slab.c) and the plain-C reference (reference.c), so both accept and refuse exactly
 * the same calls. Private to the runtime (not installed); its tests and fuzz targets include it
 * with -Iruntime/src. The reference ops themselves are public: fkc/fkc_reference.h. */
#ifndef FKC_PLAN_H
#define FKC_PLAN_H

#include "fkc/fkc_types.h"

/* A box copy: the extent-sized block at src_origin in src lands at dst_origin in dst.
 * Both arrays are contiguous row-major of the same rank. */
typedef struct fkc_box {
    uint32_t rank;
    size_t extent[FKC_MAX_RANK];
    size_t src_origin[FKC_MAX_RANK];
    size_t dst_origin[FKC_MAX_RANK];
} fkc_box;

/* Element count of shape, or FKC_ERR_OVERFLOW when count * elem_size does not fit in 63 bits. */
fkc_status fkc_shape_elements(uint32_t rank, const size_t *shape, size_t elem_size,
                              uint64_t *count);

/* Checks write_slice: rank 1..FKC_MAX_RANK, elem_size 1/2/4/8, sizes overflow-safe, and
 * offsets[i] + src_shape[i] <= dst_shape[i] on every axis. On FKC_OK, *box (if not NULL) is
 * the one box copy the op performs. */
fkc_status fkc_plan_write_slice(uint32_t rank, const size_t *dst_shape, const size_t *src_shape,
                                const size_t *offsets, size_t elem_size, fkc_box *box);

/* Plans write_slice_rotating: the rotating axis is `axis` (>= 0) or, with axis == -1, the one
 * axis whose extent equals capacity (FKC_ERR_INVALID_ARGUMENT when several do). On every other
 * axis src starts at 0 and must fit. Source element i along the axis lands at
 * (position + i) mod capacity, the last write winning; a write crossing the ring end becomes
 * two boxes. On FKC_OK: *n_boxes is 0, 1 or 2 and *axis_out the resolved axis. */
fkc_status fkc_plan_rotating(uint32_t rank, const size_t *dst_shape, const size_t *src_shape,
                             size_t capacity, uint64_t position, int32_t axis, size_t elem_size,
                             fkc_box boxes[2], uint32_t *n_boxes, uint32_t *axis_out);

/* Copies one planned box on the host. */
void fkc_ref_copy_box(void *dst, const size_t *dst_shape, const void *src, const size_t *src_shape,
                      const fkc_box *box, size_t elem_size);

#endif /* FKC_PLAN_H */
