/* fkc_tables.h — what every set of generated bindings shares, written once as C: the contract
 * schema's vocabularies, the types of the tables' rows and the loops over them (registration,
 * lookups, the link registry, the cost fill). fkcgen's generated code holds only a contract
 * set's own data (op kinds, kernel refs, rows, the dispatch switch) and calls these.
 * A generated header includes this file twice: first for the shared part, then again with
 * FKC_TABLES_PREFIX set to its prefix, after it has defined <prefix>_op_kind and
 * <prefix>_kernel_ref, for the part whose types hold them (<prefix>_kernel_info,
 * <prefix>_binding, <prefix>_link_entry, <prefix>_register_fn and the loops over them). Two
 * binding sets of other prefixes can so meet in one file. Plain C11; knows nothing of Vulkan,
 * YAML or Markdown. */
#ifndef FKC_TABLES_H
#define FKC_TABLES_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fkc/fkc_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the schema's vocabularies ------------------------------------------------------------
 * The values fkcgen's schema (fkcgen/core/schema.c) gives each, in schema order, as
 * X(ENUM, VALUE, "spelling"); tests/gen/test_vocab.c fails when the two disagree. Where a
 * contract may be silent, UNKNOWN = 0 comes first. */
/* clang-format off */
#define FKC_DETERMINISM_MAP(X)                                                                   \
    X(DETERMINISM, BITWISE, "bitwise")                                                           \
    X(DETERMINISM, DETERMINISTIC, "deterministic")                                               \
    X(DETERMINISM, NONDETERMINISTIC, "nondeterministic")
/* clang-format on */
/* clang-format off */
#define FKC_COST_PROVENANCE_MAP(X)                                                               \
    X(COST_PROVENANCE, JUDGE_MEASURED, "judge_measured")                                         \
    X(COST_PROVENANCE, ANALYTIC, "analytic")                                                     \
    X(COST_PROVENANCE, ESTIMATED, "estimated")
/* clang-format on */
/* clang-format off */
#define FKC_COST_CLASS_MAP(X)                                                                    \
    X(COST_CLASS, CHEAP_ELEMENTWISE, "cheap_elementwise")                                        \
    X(COST_CLASS, ELEMENTWISE, "elementwise")                                                    \
    X(COST_CLASS, REDUCTION, "reduction")                                                        \
    X(COST_CLASS, MATMUL, "matmul")                                                              \
    X(COST_CLASS, MEMORY_BOUND, "memory_bound")
/* clang-format on */
/* clang-format off */
#define FKC_LAYOUT_STRATEGY_MAP(X)                                                               \
    X(LAYOUT_STRATEGY, REQUIRES_CONTIGUOUS, "requires_contiguous")                               \
    X(LAYOUT_STRATEGY, NATIVE_STRIDED, "native_strided")                                         \
    X(LAYOUT_STRATEGY, CONTIGUIZE, "contiguize")
/* clang-format on */
/* clang-format off */
#define FKC_LAYOUT_RULE_MAP(X)                                                                   \
    X(LAYOUT_RULE, REQUIRED, "required")                                                         \
    X(LAYOUT_RULE, ACCEPTED, "accepted")                                                         \
    X(LAYOUT_RULE, REJECTED, "rejected")
/* clang-format on */
/* clang-format off */
#define FKC_LAYOUT_GUARANTEE_MAP(X)                                                              \
    X(LAYOUT_GUARANTEE, CONTIGUOUS, "contiguous")                                                \
    X(LAYOUT_GUARANTEE, SAME_AS_INPUT, "same_as_input")
/* clang-format on */
/* clang-format off */
#define FKC_ALIASING_MAP(X)                                                                      \
    X(ALIASING, NONE, "none")                                                                    \
    X(ALIASING, MAY_ALIAS_INPUT, "may_alias_input")                                              \
    X(ALIASING, IN_PLACE, "in_place")
/* clang-format on */
/* clang-format off */
#define FKC_SHAPE_RULE_MAP(X)                                                                    \
    X(SHAPE_RULE, FROM_PARAMS, "from_params")                                                    \
    X(SHAPE_RULE, SAME_AS, "same_as")                                                            \
    X(SHAPE_RULE, BROADCAST, "broadcast")                                                        \
    X(SHAPE_RULE, REDUCE, "reduce")                                                              \
    X(SHAPE_RULE, MATMUL, "matmul")                                                              \
    X(SHAPE_RULE, CONCAT, "concat")                                                              \
    X(SHAPE_RULE, GATHER, "gather")                                                              \
    X(SHAPE_RULE, PERMUTE, "permute")
/* clang-format on */

#define FKC_X_ENUMERATOR(e, value, text) FKC_##e##_##value,

typedef enum fkc_determinism {
    FKC_DETERMINISM_MAP(FKC_X_ENUMERATOR) FKC_DETERMINISM_COUNT
} fkc_determinism;

typedef enum fkc_cost_provenance { /* UNKNOWN: the unknown-cost sentinel (docs/cost.md) */
                                   FKC_COST_PROVENANCE_UNKNOWN,
                                   FKC_COST_PROVENANCE_MAP(FKC_X_ENUMERATOR)
                                       FKC_COST_PROVENANCE_COUNT
} fkc_cost_provenance;

typedef enum fkc_cost_class {
    FKC_COST_CLASS_UNKNOWN,
    FKC_COST_CLASS_MAP(FKC_X_ENUMERATOR) FKC_COST_CLASS_COUNT
} fkc_cost_class;

typedef enum fkc_layout_strategy { /* caps.awkward_layout_strategy */
                                   FKC_LAYOUT_STRATEGY_MAP(FKC_X_ENUMERATOR)
                                       FKC_LAYOUT_STRATEGY_COUNT
} fkc_layout_strategy;

typedef enum fkc_layout_rule { /* an input's layout key; UNKNOWN: not stated */
                               FKC_LAYOUT_RULE_UNKNOWN,
                               FKC_LAYOUT_RULE_MAP(FKC_X_ENUMERATOR) FKC_LAYOUT_RULE_COUNT
} fkc_layout_rule;

typedef enum fkc_layout_guarantee {
    FKC_LAYOUT_GUARANTEE_MAP(FKC_X_ENUMERATOR) FKC_LAYOUT_GUARANTEE_COUNT
} fkc_layout_guarantee;

typedef enum fkc_aliasing { FKC_ALIASING_MAP(FKC_X_ENUMERATOR) FKC_ALIASING_COUNT } fkc_aliasing;

typedef enum fkc_shape_rule { /* return.outputs[].shape_rule's kind; UNKNOWN: not stated */
                              FKC_SHAPE_RULE_UNKNOWN,
                              FKC_SHAPE_RULE_MAP(FKC_X_ENUMERATOR) FKC_SHAPE_RULE_COUNT
} fkc_shape_rule;

/* ---- the rows every binding set shares ------------------------------------------------------ */

/* The most tensors a binding key names (fkcgen's FKCG_KEY_MAX). */
#define FKC_KEY_MAX 8

/* A fast path a kernel takes, and the cost class it then has. */
typedef struct fkc_fast_path {
    const char *when; /* "all_inputs_contiguous" */
    fkc_cost_class cost_class;
} fkc_fast_path;

/* What a kernel can do. */
typedef struct fkc_caps {
    fkc_layout_strategy awkward_layout_strategy;
    const fkc_fast_path *fast_paths; /* NULL when none */
    size_t n_fast_paths;
    bool in_place;
    uint32_t alignment_bytes;
    uint32_t access_granularity_bits;
} fkc_caps;

/* The precision a kernel promises. */
typedef struct fkc_precision {
    bool bit_stable_on_same_hardware;
    uint64_t max_ulp;
    double max_relative;
    double max_absolute;
    bool audited;
    const char *notes; /* NULL when none */
} fkc_precision;

/* A cost function: n = element count of the first input, dtype_bytes its byte width, params
 * the op's params struct (it may be NULL when the expression names no field; NAN when it
 * does and params is NULL). */
typedef double (*fkc_cost_fn)(uint64_t n, uint64_t dtype_bytes, const void *params);

/* A cost. provenance UNKNOWN is the unknown-cost sentinel (docs/cost.md). */
typedef struct fkc_cost {
    fkc_cost_provenance provenance;
    fkc_cost_class cost_class;
    const char *flops_expr;       /* cost.flops as written; NULL when not stated */
    const char *bytes_moved_expr; /* cost.bytes_moved as written; NULL when not stated */
    fkc_cost_fn flops;            /* the expression as a function; NULL when not stated */
    fkc_cost_fn bytes_moved;
} fkc_cost;

/* A tensor as a tensor-term cost function sees it (issue 22: a cost over n(X), dim(X, k),
 * bytes(X); docs/cost.md). dims NULL: an absent optional input, whose n, dims and bytes are 0.
 * block_elems: elements per block (1 for a plain dtype); block_bytes: bytes per block (a plain
 * dtype's byte width). Such a cost's fkc_cost.flops / bytes_moved is NULL (its expression is
 * still there): the generated header has it as <prefix>_cost_<kernel>_flops(t, count, params),
 * t the kernel's inputs then its outputs in signature order. All in double arithmetic: like
 * (double)n, no overflow and no trap (a product past 2^53 is rounded). */
typedef struct fkc_cost_tensor {
    const uint64_t *dims;
    uint32_t rank;
    uint32_t block_elems;
    uint64_t block_bytes;
} fkc_cost_tensor;

/* n(X): the product of X's extents (1 for rank 0; 0 when absent). */
static inline double fkc_cost_tensor_n(const fkc_cost_tensor *t)
{
    if (!t->dims)
        return 0.0;
    double n = 1.0;
    for (uint32_t k = 0; k < t->rank; k++)
        n *= (double)t->dims[k];
    return n;
}

/* dim(X, k): X's extent on axis k (k < 0 counts from the end: -1 is the last axis); NAN when
 * X has no axis k; 0 when absent. */
static inline double fkc_cost_tensor_dim(const fkc_cost_tensor *t, long long k)
{
    if (!t->dims)
        return 0.0;
    long long r = (long long)t->rank, a = k < 0 ? r + k : k;
    return a >= 0 && a < r ? (double)t->dims[a] : (double)NAN;
}

/* bytes(X): its blocks (n over block_elems: a block dtype's extents hold whole blocks) times
 * block_bytes; NAN when block_elems is 0; 0 when absent. */
static inline double fkc_cost_tensor_bytes(const fkc_cost_tensor *t)
{
    if (!t->dims)
        return 0.0;
    if (!t->block_elems)
        return (double)NAN;
    return fkc_cost_tensor_n(t) / (double)t->block_elems * (double)t->block_bytes;
}

/* An input's layout keys (accept.inputs[].layout), in the schema's order (tests/gen/test_vocab.c
 * compares them); each UNKNOWN when the contract does not state it. */
/* clang-format off */
#define FKC_LAYOUT_KEYS(X) X(contiguous) X(strided) X(broadcast_stride0) X(start_offset) \
    X(reverse_strides)
/* clang-format on */
#define FKC_X_LAYOUT_FIELD(key) fkc_layout_rule key;
typedef struct fkc_layout {
    FKC_LAYOUT_KEYS(FKC_X_LAYOUT_FIELD)
} fkc_layout;

/* An input (accept.inputs). */
typedef struct fkc_input_info {
    const char *name;        /* "src" */
    const fkc_dtype *dtypes; /* the accepted dtypes, in contract order */
    size_t n_dtypes;
    fkc_layout layout;
    const char *rank;             /* "any" or a decimal number */
    const char *shape_constraint; /* NULL when none */
} fkc_input_info;

/* An output (return.outputs): the rules as written, and their argument. */
typedef struct fkc_output_info {
    const char *name;           /* "out" */
    const char *dtype_rule;     /* "passthrough(src)" */
    const char *dtype_rule_arg; /* "src": an input */
    const char *shape_rule;     /* "from_params(dst_shape)" or "same_as(src)" */
    const char *shape_rule_arg; /* "dst_shape": a field, or an input */
    fkc_layout_guarantee layout_guarantee;
    fkc_aliasing aliasing;
    fkc_shape_rule shape; /* the shape rule's kind (issue 22) */
    /* its operands as written ("a", "[0, 2]", "true"), for broadcast, reduce, matmul, concat,
     * gather and permute; NULL and 0 for from_params and same_as (shape_rule_arg) */
    const char *const *shape_operands;
    size_t n_shape_operands;
} fkc_output_info;

/* An op_params field, in contract (parameter) order. */
typedef struct fkc_field_info {
    const char *name; /* "dst_shape" */
    const char *kind; /* "Vec<usize>", "usize", ... */
    const char *note; /* NULL when none */
} fkc_field_info;

/* A provider: the front matter of one contract file. */
typedef struct fkc_provider_info {
    const char *name;
    fkc_backend backend;
    const char *kernel_source;
    const char *link_registry; /* "fuel_vulkan_backend::fkc::ENTRY_POINTS" */
    const char *revision_base;
    uint32_t fkc_version;
    const char *source_file; /* repo-relative */
    const char *text_hash;   /* XXH3-128 of its text, 32 hex digits; NULL when unknown */
} fkc_provider_info;

/* A wrapper of any op kind as a binding row holds it: one function pointer type for every row,
 * so a row's initializer is one cast (a union of a member per op kind costs clang O(op kinds)
 * to check in every row, issue 27). Never called as it is: <prefix>_binding_ref gives it back
 * as the op kind's member of <prefix>_kernel_ref (C11 6.3.2.3p8: a function pointer converted
 * to another function pointer type and back compares equal to the original). */
typedef void (*fkc_kernel_fn)(void);

/* ---- loops that need no binding set's types ---- */

/* The cost at shared[op] (one per op kind, count of them), or NULL when op is out of range or
 * that cost is the unknown sentinel. */
static inline const fkc_cost *fkc_tables_shared_cost(const fkc_cost *const *shared, size_t count,
                                                     size_t op)
{
    if (op >= count || !shared[op] || shared[op]->provenance == FKC_COST_PROVENANCE_UNKNOWN)
        return NULL;
    return shared[op];
}

/* names[op] (count of them), or NULL when op is out of range. */
static inline const char *fkc_tables_name(const char *const *names, size_t count, size_t op)
{
    return op < count ? names[op] : NULL;
}

#ifdef __cplusplus
}
#endif
#endif /* FKC_TABLES_H */

/* ---- the part of one binding set: its rows and the loops over them ---------------------------
 * Read once per inclusion with FKC_TABLES_PREFIX defined (the generated header's prefix, after
 * it has defined <prefix>_op_kind and <prefix>_kernel_ref); FKC_TABLES_PREFIX is undefined at
 * the end, so the next set's header can include this file again. */
#ifdef FKC_TABLES_PREFIX
#define FKC_TABLES_NAME_(p, n) p##_##n
#define FKC_TABLES_NAME(p, n) FKC_TABLES_NAME_(p, n)
#define FKC_T(n) FKC_TABLES_NAME(FKC_TABLES_PREFIX, n) /* FKC_T(binding): fkc_binding */

#ifdef __cplusplus
extern "C" {
#endif

/* One kernel section of a contract: every fact it states. */
typedef struct FKC_T(kernel_info) {
    const char *kernel; /* contract kernel name */
    FKC_T(op_kind) op_kind;
    fkc_backend backend;
    const char *kernel_source;
    const char *blurb;
    const char *entry_point; /* the base symbol, fanned over the dtypes */
    fkc_caps caps;
    fkc_precision precision;
    fkc_determinism determinism;
    const char *revision_hash;         /* 32 hex digits */
    const char *source_file;           /* repo-relative */
    uint32_t source_line;              /* first line of the fkc block */
    const fkc_provider_info *provider; /* its file's */
    const fkc_input_info *inputs;
    size_t n_inputs;
    const fkc_output_info *outputs; /* NULL when none */
    size_t n_outputs;
    const char *variant;          /* op_params.variant; NULL: the section has no op_params */
    const fkc_field_info *fields; /* NULL when none */
    size_t n_fields;
    const fkc_cost *cost; /* the section's own (the unknown sentinel: none stated) */
} FKC_T(kernel_info);

/* One binding: key (op_kind, dtypes[0..n_key), backend) + info->kernel_source -> a wrapper.
 * The key holds one dtype per tensor the section's key names (its default: [in, out]).
 * What the bindings of one section share is in *info. */
typedef struct FKC_T(binding) {
    FKC_T(op_kind) op_kind;
    fkc_dtype dtypes[FKC_KEY_MAX]; /* the key; the slots from n_key on are 0 */
    uint32_t n_key;                /* 2 for the default [in, out] */
    fkc_backend backend;
    const FKC_T(kernel_info) * info; /* its section */
    const char *symbol;              /* <entry_point>_<dtype suffix> */
    const char *wrapper;             /* its C symbol, "fkc_write_slice_b4" */
    fkc_kernel_fn fn;                /* the wrapper, as (fkc_kernel_fn)fkc_write_slice_b4; read
                                      * it typed through <prefix>_binding_ref */
    uint32_t byte_width;
    const fkc_cost *cost;           /* never NULL; the cost fill upgrades it in a copy */
    const fkc_precision *precision; /* never NULL: its section's (&info->precision), or the
                                     * precision_by_dtype figures of its key (issue 22) */
} FKC_T(binding);

/* A row of the link registry: an <entry_point>_<suffix> symbol -> its binding. */
typedef struct FKC_T(link_entry) {
    const char *symbol;             /* "fuel_vulkan_backend::fkc::write_slice_f32" */
    uint32_t registry;              /* index in <prefix>_link_registry_names */
    const FKC_T(binding) * binding; /* its row: op_kind, ref, wrapper, ... */
} FKC_T(link_entry);

/* The caller's registry: called once per binding, in table order, with its whole key
 * (key[0..n_key)); a non-zero return stops the registration. */
typedef int (*FKC_T(register_fn))(void *registry, FKC_T(op_kind) op, const fkc_dtype *key,
                                  size_t n_key, fkc_backend backend, const char *kernel_source,
                                  const fkc_precision *precision, FKC_T(kernel_ref) ref);

/* A row's wrapper as a kernel reference: the member named after its op kind (b->op_kind) is
 * the one set, ref.write_slice(...). The kernel reference is a union of function pointers;
 * its bytes are the row's fn: this relies on every function pointer type sharing one
 * representation (as on every ABI gcc and clang target; the generated source asserts that the
 * union is the size of fkc_kernel_fn), where C itself only promises the round trip through a
 * cast. */
static inline FKC_T(kernel_ref) FKC_T(binding_ref)(const FKC_T(binding) * b)
{
    FKC_T(kernel_ref) ref;
    memcpy(&ref, &b->fn, sizeof ref);
    return ref;
}

/* Registers rows[0..n) in order: 0, the first non-zero value fn returned, or
 * FKC_ERR_INVALID_ARGUMENT when fn is NULL. */
static inline int FKC_T(tables_register)(const FKC_T(binding) * rows, size_t n, void *registry,
                                         FKC_T(register_fn) fn)
{
    if (!fn)
        return (int)FKC_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++) {
        const FKC_T(binding) *b = &rows[i];
        int rc = fn(registry, b->op_kind, b->dtypes, b->n_key, b->backend, b->info->kernel_source,
                    b->precision, FKC_T(binding_ref)(b));
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* The first of rows[first..end) with the whole key (op, key[0..n_key), backend) and
 * kernel_source (NULL matches any), or NULL: a key of another length or any other slot
 * matches no row. */
static inline const FKC_T(binding) *
    FKC_T(tables_find_key)(const FKC_T(binding) * rows, size_t first, size_t end, FKC_T(op_kind) op,
                           const fkc_dtype *key, size_t n_key, fkc_backend backend,
                           const char *kernel_source)
{
    if (!key || n_key == 0 || n_key > FKC_KEY_MAX)
        return NULL;
    for (size_t i = first; i < end; i++) {
        const FKC_T(binding) *b = &rows[i];
        bool same = b->op_kind == op && b->n_key == n_key && b->backend == backend;
        for (size_t k = 0; same && k < n_key; k++)
            same = b->dtypes[k] == key[k];
        if (same && (!kernel_source || strcmp(b->info->kernel_source, kernel_source) == 0))
            return b;
    }
    return NULL;
}

/* The first of rows[first..end) with key (op, [in, out], backend) and kernel_source (NULL
 * matches any), or NULL. */
static inline const FKC_T(binding) *
    FKC_T(tables_find)(const FKC_T(binding) * rows, size_t first, size_t end, FKC_T(op_kind) op,
                       fkc_dtype in, fkc_dtype out, fkc_backend backend, const char *kernel_source)
{
    const fkc_dtype key[2] = {in, out};
    return FKC_T(tables_find_key)(rows, first, end, op, key, 2, backend, kernel_source);
}

/* Binary search of rows[0..n), sorted by symbol (strcmp); NULL when absent or symbol is NULL. */
static inline const FKC_T(link_entry) *
    FKC_T(tables_link)(const FKC_T(link_entry) * rows, size_t n, const char *symbol)
{
    size_t lo = 0, hi = n;
    while (symbol && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(symbol, rows[mid].symbol);
        if (c == 0)
            return &rows[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* Upgrades every row of `backend` whose cost is the unknown sentinel to its op kind's shared
 * cost (shared[op], count of them), when it has one; returns the number upgraded. */
static inline size_t FKC_T(tables_fill_cost)(FKC_T(binding) * rows, size_t n, fkc_backend backend,
                                             const fkc_cost *const *shared, size_t count)
{
    size_t filled = 0;
    for (size_t i = 0; rows && i < n; i++) {
        FKC_T(binding) *b = &rows[i];
        const fkc_cost *c = fkc_tables_shared_cost(shared, count, (size_t)b->op_kind);
        if (b->backend != backend || !c ||
            (b->cost && b->cost->provenance != FKC_COST_PROVENANCE_UNKNOWN))
            continue;
        b->cost = c;
        filled++;
    }
    return filled;
}

#ifdef __cplusplus
}
#endif

#undef FKC_T
#undef FKC_TABLES_NAME
#undef FKC_TABLES_NAME_
#undef FKC_TABLES_PREFIX
#endif /* FKC_TABLES_PREFIX */
