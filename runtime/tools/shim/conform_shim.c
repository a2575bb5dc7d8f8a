/* conform_shim.c — compiled by `fkc-run conform` into one shared object with the bindings
 * fkcgen generated from the contracts under test (and the --wrappers files); fills the table of
 * conform_shim.h from the generated dispatch, binding lookup and cost functions. The only file
 * of fkc that names generated symbols at run time: adapt it when the generated C changes.
 * conform passes -DFKC_CONFORM_PREFIX=fkc -DFKC_CONFORM_PREFIX_UC=FKC (gen --prefix),
 * -DFKC_CONFORM_HEADER="fkc_bindings.h" and FKC_CONFORM_HAS_<OP>=0|1 for the three op kinds
 * WRITE_SLICE, WRITE_SLICE_ROTATING, SET_ROWS (a kernel_ref member exists only for an op kind
 * the contracts name). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "conform_shim.h"
#include FKC_CONFORM_HEADER

#define SHIM_CAT_(a, b) a##_##b
#define SHIM_CAT(a, b) SHIM_CAT_(a, b)
#define G(name) SHIM_CAT(FKC_CONFORM_PREFIX, name)     /* fkc_dispatch, fkc_binding, ... */
#define GU(name) SHIM_CAT(FKC_CONFORM_PREFIX_UC, name) /* FKC_OP_WRITE_SLICE, ... */

/* The generated op kind named `name`; 0 and *op set, or -1 when the contracts name none. */
static int op_of(const char *name, G(op_kind) * op)
{
    for (int k = 0; k < (int)GU(OP_KIND_COUNT); k++) {
        const char *n = G(op_kind_name)((G(op_kind))k);
        if (n && strcmp(n, name) == 0) {
            *op = (G(op_kind))k;
            return 0;
        }
    }
    return -1;
}

/* The kernel reference of a key: the dispatch's (kernel_source NULL) or the lookup's. */
static fkc_status find(G(op_kind) op, fkc_dtype in, fkc_dtype out, fkc_backend backend,
                       const char *kernel_source, G(kernel_ref) * ref)
{
    if (!kernel_source)
        return G(dispatch)(op, in, out, backend, ref);
    const G(binding) *b = G(binding_lookup)(op, in, out, backend, kernel_source);
    if (!b)
        return FKC_ERR_NO_KERNEL;
    *ref = G(binding_ref)(b);
    return FKC_OK;
}

/* conform calls the kernels as the runtime's types: the contracts' op kinds must have them. */
#if FKC_CONFORM_HAS_WRITE_SLICE
_Static_assert(_Generic(((G(kernel_ref) *)0)->write_slice, fkc_write_slice_kernel * : 1,
                        default : 0),
               "WriteSlice: the contracts' kernel type is not fkc_write_slice_kernel");
#endif
#if FKC_CONFORM_HAS_WRITE_SLICE_ROTATING
_Static_assert(_Generic(((G(kernel_ref) *)0)->write_slice_rotating,
                        fkc_write_slice_rotating_kernel * : 1, default : 0),
               "WriteSliceRotating: the contracts' kernel type is not "
               "fkc_write_slice_rotating_kernel");
#endif
#if FKC_CONFORM_HAS_SET_ROWS
_Static_assert(_Generic(((G(kernel_ref) *)0)->set_rows, fkc_set_rows_kernel * : 1, default : 0),
               "SetRows: the contracts' kernel type is not fkc_set_rows_kernel");
#endif

static fkc_status write_slice(fkc_dtype in, fkc_dtype out, fkc_backend backend,
                              const char *kernel_source, fkc_write_slice_kernel **fn)
{
    *fn = NULL;
#if FKC_CONFORM_HAS_WRITE_SLICE
    G(kernel_ref) ref;
    fkc_status st = find(GU(OP_WRITE_SLICE), in, out, backend, kernel_source, &ref);
    if (st == FKC_OK)
        *fn = ref.write_slice;
    return st;
#else
    (void)in, (void)out, (void)backend, (void)kernel_source;
    return FKC_ERR_NO_KERNEL;
#endif
}

static fkc_status write_slice_rotating(fkc_dtype in, fkc_dtype out, fkc_backend backend,
                                       const char *kernel_source,
                                       fkc_write_slice_rotating_kernel **fn)
{
    *fn = NULL;
#if FKC_CONFORM_HAS_WRITE_SLICE_ROTATING
    G(kernel_ref) ref;
    fkc_status st = find(GU(OP_WRITE_SLICE_ROTATING), in, out, backend, kernel_source, &ref);
    if (st == FKC_OK)
        *fn = ref.write_slice_rotating;
    return st;
#else
    (void)in, (void)out, (void)backend, (void)kernel_source;
    return FKC_ERR_NO_KERNEL;
#endif
}

/* SetRows is keyed over all three tensors: the whole-key dispatch and lookup. */
static fkc_status set_rows(const fkc_dtype *key, size_t n_key, fkc_backend backend,
                           const char *kernel_source, fkc_set_rows_kernel **fn)
{
    *fn = NULL;
#if FKC_CONFORM_HAS_SET_ROWS
    G(kernel_ref) ref;
    fkc_status st = FKC_OK;
    if (!kernel_source) {
        st = G(dispatch_key)(GU(OP_SET_ROWS), key, n_key, backend, &ref);
    } else {
        const G(binding) *b = G(binding_lookup_key)(GU(OP_SET_ROWS), key, n_key, backend,
                                                    kernel_source);
        if (!b)
            return FKC_ERR_NO_KERNEL;
        ref = G(binding_ref)(b);
    }
    if (st == FKC_OK)
        *fn = ref.set_rows;
    return st;
#else
    (void)key, (void)n_key, (void)backend, (void)kernel_source;
    return FKC_ERR_NO_KERNEL;
#endif
}

static double bytes_moved(const char *op_kind, fkc_dtype dtype, fkc_backend backend,
                          const char *kernel_source, uint64_t n, uint64_t dtype_bytes,
                          const void *params)
{
    G(op_kind) op;
    if (op_of(op_kind, &op) < 0)
        return NAN;
    const G(binding) *b = G(binding_lookup)(op, dtype, dtype, backend, kernel_source);
    if (!b || !b->cost || !b->cost->bytes_moved)
        return NAN;
    return b->cost->bytes_moved(n, dtype_bytes, params);
}

/* The one exported symbol (the shared object is built with -fvisibility=hidden). */
__attribute__((visibility("default"))) extern const fkc_conform_shim fkc_conform_shim_v2;
const fkc_conform_shim fkc_conform_shim_v2 = {
    FKC_CONFORM_SHIM_VERSION,
    sizeof(fkc_conform_shim),
    FKC_RUNTIME_ABI,
    write_slice,
    write_slice_rotating,
    bytes_moved,
    set_rows,
};
