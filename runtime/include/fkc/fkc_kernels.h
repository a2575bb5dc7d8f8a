/* fkc_kernels.h — the runtime's kernel families as the code fkcgen generates sees them: the
 * interface version (FKC_RUNTIME_ABI), and for each family the runtime implements its params
 * struct, its side inputs (fkc_<op>_extra, for a family that has any), its kernel function type
 * and its byte-width wrappers fkc_<kernel>_b<width>. fkcgen knows these families' params and
 * side inputs by one table (fkcgen/core/names.c, runtime_kernels), which the repo's tests
 * compare with this header.
 * Generated bindings include this header and declare these wrappers again through their own
 * function types, so a contract that disagrees with the runtime does not compile.
 * Plain C11; knows nothing of Vulkan, YAML or Markdown. */
#ifndef FKC_KERNELS_H
#define FKC_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "fkc/fkc_types.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* libfkc.so exports what its public headers declare */
#endif

/* The interface between generated bindings and this runtime: these headers' types (this one,
 * fkc_types.h and fkc_tables.h) and the wrappers' signatures. Raised whenever either changes;
 * generated headers refuse to compile against another value, and generated sources reference
 * fkc_runtime_abi_<N>, which only a libfkc of that interface defines. 2: the tables' row types
 * and loops in fkc_tables.h, side inputs per op (fkc_write_slice_rotating_extra) instead of one
 * shared fkc_op_extra. 4: a binding row's wrapper is one fkc_kernel_fn (fkc_binding.fn), not
 * the per-op-kind union, and its precision and fkc_output_info's shape members are part of it. */
#define FKC_RUNTIME_ABI 4

/* Defined by libfkc: a stale library lacks it, and linking generated code then fails on
 * this name. Its value is FKC_RUNTIME_ABI. */
extern const int fkc_runtime_abi_4;

/* ---- WriteSlice: write `src` into the slab of `out` at `offsets` ------------------------ */

typedef struct fkc_write_slice_params {
    const size_t *dst_shape; /* Vec<usize>: the larger destination extents (= out->shape) */
    size_t dst_shape_len;    /* number of elements of dst_shape (= out->rank) */
    const size_t *offsets;   /* Vec<usize>: per-axis slab start offset in dst */
    size_t offsets_len;      /* number of elements of offsets (= out->rank) */
} fkc_write_slice_params;

/* The wrappers' type: record the op on `stream` (checks as fkc_write_slice in
 * fkc_runtime.h). The op has no side inputs: `extra` is unused (pass NULL). */
typedef fkc_status fkc_write_slice_kernel(fkc_stream *stream, const fkc_tensor *src,
                                          fkc_tensor *out, const fkc_write_slice_params *params,
                                          const void *extra);
/* One per element byte width; a tensor of another width is refused (FKC_ERR_DTYPE). */
fkc_write_slice_kernel fkc_write_slice_b1, fkc_write_slice_b2, fkc_write_slice_b4,
    fkc_write_slice_b8;

/* ---- WriteSliceRotating: the ring-buffer variant ---------------------------------------- */

typedef struct fkc_write_slice_rotating_params {
    const size_t *dst_shape; /* Vec<usize>: the ring-buffer destination extents */
    size_t dst_shape_len;    /* number of elements of dst_shape (= out->rank) */
    size_t capacity;         /* usize: ring window capacity along the rotating axis */
} fkc_write_slice_rotating_params;

/* The op's side inputs, which a contract does not model as tensors or op params. */
typedef struct fkc_write_slice_rotating_extra {
    const fkc_buffer *position; /* the ring position: a little-endian u64 on the device */
    uint64_t position_offset;   /* byte offset of that u64 in position */
    int32_t axis;               /* the rotating axis, or -1 to infer it */
} fkc_write_slice_rotating_extra;

/* Checks as fkc_write_slice_rotating (fkc_runtime.h); extra must not be NULL. */
typedef fkc_status fkc_write_slice_rotating_kernel(fkc_stream *stream, const fkc_tensor *src,
                                                   fkc_tensor *out,
                                                   const fkc_write_slice_rotating_params *params,
                                                   const fkc_write_slice_rotating_extra *extra);
fkc_write_slice_rotating_kernel fkc_write_slice_rotating_b1, fkc_write_slice_rotating_b2,
    fkc_write_slice_rotating_b4, fkc_write_slice_rotating_b8;

/* ---- SetRows: row-indexed writes into a (paged) cache ----------------------------------- */

typedef struct fkc_set_rows_params {
    int32_t slot_axis; /* i32: -1, the slot is axis 0 of the cache; k >= 1, split over 0 and k */
} fkc_set_rows_params;

/* The op's side inputs: the status word (fkc_set_rows in fkc_runtime.h). */
typedef struct fkc_set_rows_extra {
    fkc_buffer *status;     /* counts indices past the slot count (a little-endian u32), or NULL */
    uint64_t status_offset; /* byte offset of that u32 in status, 4-aligned */
} fkc_set_rows_extra;

/* Record fkc_set_rows(stream, src, index, out, params->slot_axis, extra->status,
 * extra->status_offset) (checks as that; extra may be NULL: no status word). The cache is
 * written in place: `cache` and `out` must be the same tensor (buffer, offset, dtype, rank,
 * shape), else FKC_ERR_INVALID_ARGUMENT. Each wrapper takes only its own [src, index, cache]
 * dtypes (the contract's key, contracts/vulkan/set_rows.md): others are FKC_ERR_DTYPE. */
typedef fkc_status fkc_set_rows_kernel(fkc_stream *stream, const fkc_tensor *src,
                                       const fkc_tensor *index, const fkc_tensor *cache,
                                       fkc_tensor *out, const fkc_set_rows_params *params,
                                       const fkc_set_rows_extra *extra);
/* Bit copies, by byte width (src = cache dtype; one b<w> when the three widths agree):
 * b<src>_b<index>_b<cache>, the index I32 (4) or I64 (8). */
fkc_set_rows_kernel fkc_set_rows_b4, fkc_set_rows_b4_b8_b4, fkc_set_rows_b2_b4_b2,
    fkc_set_rows_b2_b8_b2, fkc_set_rows_b8_b4_b8, fkc_set_rows_b8, fkc_set_rows_b1_b4_b1,
    fkc_set_rows_b1_b8_b1;
/* F32 -> F16 / BF16, round to nearest even. */
fkc_set_rows_kernel fkc_set_rows_narrow_f32_i32_f16, fkc_set_rows_narrow_f32_i32_bf16,
    fkc_set_rows_narrow_f32_i64_f16, fkc_set_rows_narrow_f32_i64_bf16;
/* F16 / BF16 -> F32, exact. */
fkc_set_rows_kernel fkc_set_rows_widen_f16_i32_f32, fkc_set_rows_widen_f16_i64_f32,
    fkc_set_rows_widen_bf16_i32_f32, fkc_set_rows_widen_bf16_i64_f32;

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_KERNELS_H */
