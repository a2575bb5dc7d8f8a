/* fkc_types.h — the vocabulary shared by the runtime and the code fkcgen generates:
 * status codes, element dtypes, backends, tensors. An op's own side inputs are in
 * fkc/fkc_kernels.h, with its params. Plain C11; knows nothing of Vulkan,
 * YAML or Markdown. Generated bindings include it through fkc/fkc_kernels.h. */
#ifndef FKC_TYPES_H
#define FKC_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* libfkc.so exports what its public headers declare */
#endif

#define FKC_MAX_RANK 8 /* ranks 1..8 are supported by every op */

/* Status codes: one X-macro gives the enum and the strings (fkc_status_name). */
/* clang-format off */
#define FKC_STATUS_MAP(X)                                                          \
    X(OK, "ok")                                                                    \
    X(ERR_INVALID_ARGUMENT, "invalid argument")                                    \
    X(ERR_RANK, "rank out of range or ranks disagree")                             \
    X(ERR_SHAPE, "shapes disagree")                                                \
    X(ERR_OUT_OF_BOUNDS, "source does not fit in the destination at the offsets")  \
    X(ERR_OVERFLOW, "size arithmetic overflows")                                   \
    X(ERR_DTYPE, "dtype mismatch or unknown dtype")                                \
    X(ERR_NO_KERNEL, "no kernel bound for this key")                               \
    X(ERR_NO_DEVICE, "no Vulkan device found")                                     \
    X(ERR_DEVICE_NOT_FOUND, "the requested Vulkan device does not exist")          \
    X(ERR_VULKAN, "a Vulkan call failed")                                          \
    X(ERR_OUT_OF_MEMORY, "out of memory")                                          \
    X(ERR_UNSUPPORTED, "the device lacks a feature this op needs")                 \
    X(ERR_STATE, "call made in the wrong state")                                   \
    X(ERR_TIMEOUT, "the work did not complete within the timeout")
/* clang-format on */

typedef enum fkc_status {
#define FKC_X_ENUM(name, text) FKC_##name,
    FKC_STATUS_MAP(FKC_X_ENUM)
#undef FKC_X_ENUM
        FKC_STATUS_COUNT
} fkc_status;

/* Element dtypes, in the contracts' order. fkcgen's schema names the same twelve; the
 * generated code refers to them as FKC_DTYPE_<NAME>. FKC_DTYPE_COUNT counts the nine the
 * runtime's own ops move (0 .. 8: loops over the runtime's dtypes stop there); I16, U16 and
 * Bool, which came with interface 3 (issue 22), are contract dtypes the runtime's ops refuse
 * (FKC_ERR_DTYPE), at 16 .. 18 (fkc_dtype_size and fkc_dtype_name know them). A contract set's
 * block (quantized) dtypes, which its providers declare, take the values FKC_DTYPE_BLOCK_FIRST
 * .. FKC_DTYPE_BLOCK_LAST in the generated header (FKC_DTYPE_<NAME>); fkc_dtype_size and
 * fkc_dtype_name know none of them. */
typedef enum fkc_dtype {
    FKC_DTYPE_F32,
    FKC_DTYPE_I32,
    FKC_DTYPE_U32,
    FKC_DTYPE_F16,
    FKC_DTYPE_BF16,
    FKC_DTYPE_F64,
    FKC_DTYPE_I64,
    FKC_DTYPE_U8,
    FKC_DTYPE_I8,
    FKC_DTYPE_COUNT,
    FKC_DTYPE_I16 = 16,
    FKC_DTYPE_U16 = 17,
    FKC_DTYPE_BOOL = 18,    /* one byte, 0 or 1 */
    FKC_DTYPE_CONTRACT_END, /* one past the last dtype of the vocabulary */
    FKC_DTYPE_BLOCK_FIRST = 256,
    FKC_DTYPE_BLOCK_LAST = 256 + 31
} fkc_dtype;

/* Backends a contract may name; generated code refers to FKC_BACKEND_<NAME>. */
typedef enum fkc_backend {
    FKC_BACKEND_CPU,
    FKC_BACKEND_VULKAN,
    FKC_BACKEND_CUDA,
    FKC_BACKEND_METAL,
    FKC_BACKEND_WGPU,
    FKC_BACKEND_COUNT
} fkc_backend;

/* Byte width of one element; 0 for an unknown dtype. */
size_t fkc_dtype_size(fkc_dtype dtype);
/* "F32", "BF16", ...; NULL for an unknown dtype. */
const char *fkc_dtype_name(fkc_dtype dtype);
/* Parses "F32"/"f32"...; returns FKC_DTYPE_COUNT when unknown. */
fkc_dtype fkc_dtype_from_name(const char *name);
const char *fkc_backend_name(fkc_backend backend);
/* A short text for a status ("ok", "invalid argument", ...). */
const char *fkc_status_name(fkc_status status);

typedef struct fkc_buffer fkc_buffer; /* device memory, owned by a context */
typedef struct fkc_stream fkc_stream; /* recorded ops, submitted together */

/* A contiguous row-major tensor living in a device buffer. */
typedef struct fkc_tensor {
    fkc_buffer *buffer;         /* holds the elements */
    uint64_t offset;            /* byte offset of element 0 in buffer */
    fkc_dtype dtype;            /* element type */
    uint32_t rank;              /* 1..FKC_MAX_RANK */
    size_t shape[FKC_MAX_RANK]; /* extents, outermost first */
} fkc_tensor;

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_TYPES_H */
