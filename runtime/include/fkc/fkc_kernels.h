/* fkc_kernels.h — the runtime's kernel families as the code fkcgen generates sees them: the
 * interface version (FKC_RUNTIME_ABI), and for each family the runtime implements its params
 * struct, its kernel function type and its byte-width wrappers fkc_<kernel>_b<width>.
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

/* The interface between generated bindings and this runtime: these headers' types and the
 * wrappers' signatures. Raised whenever either changes; generated headers refuse to compile
 * against another value, and generated sources reference fkc_runtime_abi_<N>, which only a
 * libfkc of that interface defines. */
#define FKC_RUNTIME_ABI 1

/* Defined by libfkc: a stale library lacks it, and linking generated code then fails on
 * this name. Its value is FKC_RUNTIME_ABI. */
extern const int fkc_runtime_abi_1;

/* ---- WriteSlice: write `src` into the slab of `out` at `offsets` ------------------------ */

typedef struct fkc_write_slice_params {
    const size_t *dst_shape;     /* Vec<usize>: the larger destination extents (= out->shape) */
    size_t dst_shape_len;        /* number of elements of dst_shape (= out->rank) */
    const size_t *offsets;       /* Vec<usize>: per-axis slab start offset in dst */
    size_t offsets_len;          /* number of elements of offsets (= out->rank) */
} fkc_write_slice_params;

/* The wrappers' type: record the op on `stream` (checks as fkc_write_slice in
 * fkc_runtime.h); `extra` is unused. */
typedef fkc_status fkc_write_slice_kernel(fkc_stream *stream, const fkc_tensor *src,
                                          fkc_tensor *out, const fkc_write_slice_params *params,
                                          const fkc_op_extra *extra);
/* One per element byte width; a tensor of another width is refused (FKC_ERR_DTYPE). */
fkc_write_slice_kernel fkc_write_slice_b1, fkc_write_slice_b2, fkc_write_slice_b4,
                       fkc_write_slice_b8;

/* ---- WriteSliceRotating: the ring-buffer variant ---------------------------------------- */

typedef struct fkc_write_slice_rotating_params {
    const size_t *dst_shape;     /* Vec<usize>: the ring-buffer destination extents */
    size_t dst_shape_len;        /* number of elements of dst_shape (= out->rank) */
    size_t capacity;             /* usize: ring window capacity along the rotating axis */
} fkc_write_slice_rotating_params;

/* extra->position / position_offset: the ring position (a little-endian u64 on the device);
 * extra->axis: the rotating axis or -1. Checks as fkc_write_slice_rotating. */
typedef fkc_status fkc_write_slice_rotating_kernel(fkc_stream *stream, const fkc_tensor *src,
                                                   fkc_tensor *out,
                                                   const fkc_write_slice_rotating_params *params,
                                                   const fkc_op_extra *extra);
fkc_write_slice_rotating_kernel fkc_write_slice_rotating_b1, fkc_write_slice_rotating_b2,
                                fkc_write_slice_rotating_b4, fkc_write_slice_rotating_b8;

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_KERNELS_H */
