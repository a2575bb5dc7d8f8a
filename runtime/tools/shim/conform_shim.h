/* conform_shim.h — the one interface between `fkc-run conform` and the bindings it generates
 * and compiles at run time: a versioned table of functions. conform_shim.c fills it (the only
 * file that names generated symbols); fkc-run finds it with dlsym and reads nothing else of the
 * compiled bindings. Both files are embedded in fkc-run and written beside the bindings.
 * When the generated C surface changes, conform_shim.c is the file to adapt; a change to this
 * table raises FKC_CONFORM_SHIM_VERSION (and the symbol's name with it). */
#ifndef FKC_CONFORM_SHIM_H
#define FKC_CONFORM_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fkc/fkc_kernels.h"

#define FKC_CONFORM_SHIM_VERSION 2
#define FKC_CONFORM_SHIM_SYMBOL "fkc_conform_shim_v2"

typedef struct fkc_conform_shim {
    uint32_t version;     /* FKC_CONFORM_SHIM_VERSION */
    uint32_t size;        /* sizeof (fkc_conform_shim) */
    uint32_t runtime_abi; /* FKC_RUNTIME_ABI of the headers the bindings were compiled with */
    /* The kernel bound to (WriteSlice, [in, out], backend): with kernel_source NULL, what the
     * generated dispatch returns; otherwise the generated binding of that kernel source. FKC_OK
     * and *fn set, or the generated code's status (FKC_ERR_NO_KERNEL) and *fn NULL. Contracts
     * that bind no WriteSlice give FKC_ERR_NO_KERNEL for every key. */
    fkc_status (*write_slice)(fkc_dtype in, fkc_dtype out, fkc_backend backend,
                              const char *kernel_source, fkc_write_slice_kernel **fn);
    /* The same for WriteSliceRotating. */
    fkc_status (*write_slice_rotating)(fkc_dtype in, fkc_dtype out, fkc_backend backend,
                                       const char *kernel_source,
                                       fkc_write_slice_rotating_kernel **fn);
    /* The binding's bytes_moved by its generated cost function: op_kind "WriteSlice" or
     * "WriteSliceRotating", key [dtype, dtype] on backend from kernel_source; n, dtype_bytes
     * and params (the op's params struct) as the cost functions take them. NAN when there is
     * no such binding or its contract states no bytes_moved. */
    double (*bytes_moved)(const char *op_kind, fkc_dtype dtype, fkc_backend backend,
                          const char *kernel_source, uint64_t n, uint64_t dtype_bytes,
                          const void *params);
    /* The kernel bound to (SetRows, the whole key key[0..n_key), backend): [src, index, cache]
     * through the generated fkc_dispatch_key (kernel_source NULL) or fkc_binding_lookup_key
     * (that kernel source). FKC_OK and *fn set, or the generated code's status
     * (FKC_ERR_NO_KERNEL for a key of another length or any other slot) and *fn NULL.
     * Contracts that bind no SetRows give FKC_ERR_NO_KERNEL for every key. (Version 2.) */
    fkc_status (*set_rows)(const fkc_dtype *key, size_t n_key, fkc_backend backend,
                           const char *kernel_source, fkc_set_rows_kernel **fn);
} fkc_conform_shim;

/* Families of a backend's own (issue 25): op kinds that are not the runtime's, whose sections
 * name a `cpu_reference`. fkc-run writes the file that fills this table (conform_generic.c,
 * from the dump: it names the generated dispatch, params type and the references, each
 * declared with the op kind's kernel type, so a reference of another signature fails to
 * compile) and finds it with dlsym when the contracts have such families. The checked shape
 * of op: one input, one output of the input's shape, a key [in, out], scalar op_params. */
#define FKC_CONFORM_GENERIC_VERSION 1
#define FKC_CONFORM_GENERIC_SYMBOL "fkc_conform_generic_v1"

typedef struct fkc_conform_generic_op {
    const char *op_kind;   /* "Scale" */
    const char *reference; /* the cpu_reference's symbol */
    size_t params_size;    /* sizeof the op kind's params struct */
    /* Sets the params struct at out from values[0..n) (one per field, contract order;
     * integer fields take the value truncated, bool fields value != 0). */
    void (*make_params)(const double *values, size_t n, void *out);
    /* The generated dispatch of (op kind, [in, out], backend): FKC_OK or its status. */
    fkc_status (*lookup)(fkc_dtype in, fkc_dtype out, fkc_backend backend);
    /* Calls the kernel the dispatch gives (reference false) or the cpu_reference (true). */
    fkc_status (*call)(bool reference, fkc_dtype in_dt, fkc_dtype out_dt, fkc_backend backend,
                       fkc_stream *stream, const fkc_tensor *in, fkc_tensor *out,
                       const void *params);
} fkc_conform_generic_op;

typedef struct fkc_conform_generic {
    uint32_t version; /* FKC_CONFORM_GENERIC_VERSION */
    uint32_t size;    /* sizeof (fkc_conform_generic) */
    uint32_t n_ops;
    const fkc_conform_generic_op *ops; /* in the order of conform_claim.generic */
} fkc_conform_generic;

#endif /* FKC_CONFORM_SHIM_H */
