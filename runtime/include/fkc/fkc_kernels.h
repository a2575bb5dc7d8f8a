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
 * shared fkc_op_extra. */
#define FKC_RUNTIME_ABI 3

/* Defined by libfkc: a stale library lacks it, and linking generated code then fails on
 * this name. Its value is FKC_RUNTIME_ABI. */
extern const int fkc_runtime_abi_3;

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

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_KERNELS_H */
