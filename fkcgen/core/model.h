/* model.h — the validated contract model and the binding table: what the front end
 * (load → yaml → shape → validate → bind) produces and the back ends (dump, gen) read.
 * Everything here lives in the run's arena and is read-only after fkcg_run_* returns. */
#ifndef FKCG_MODEL_H
#define FKCG_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FKCG_NDTYPES 12 /* F32 I32 U32 F16 BF16 F64 I64 U8 I8 I16 U16 Bool */
/* The first nine are the runtime's (fkc_dtype 0 .. 8, FKC_DTYPE_COUNT); I16, U16 and Bool are
 * fkc_dtype 16 .. 18 (FKC_DTYPE_I16 ..): the runtime's own ops move none of them. */
#define FKCG_NRUNTIME_DTYPES 9
#define FKCG_CONTRACT_DTYPE_FIRST 16
/* Block dtypes a provider may declare (front matter block_dtypes); a model dtype index d is
 * one of the vocabulary's (d < FKCG_NDTYPES) or the (d - FKCG_NDTYPES)-th block dtype of its
 * section's provider. A binding's key holds table-wide codes: FKCG_NDTYPES + the block
 * dtype's rank among the run's block dtype names (fkcg_table.block_dtypes). */
#define FKCG_MAX_BLOCK_DTYPES 32
#define FKCG_MAX_DTYPES (FKCG_NDTYPES + FKCG_MAX_BLOCK_DTYPES)
/* The most tensors a key may name (the runtime's FKC_KEY_MAX, fkc/fkc_tables.h). */
#define FKCG_KEY_MAX 8

/* A place in a contract file: 1-based line and column in the .md file (bytes, after a BOM). */
typedef struct fkcg_loc {
    const char *file; /* the path as given on the command line */
    uint32_t line;
    uint32_t col;
} fkcg_loc;

/* The nine element dtypes, in contract order (schema.c holds the table). */
typedef struct fkcg_dtype_info {
    const char *name;        /* "F32" */
    const char *suffix;      /* "f32": symbol suffix */
    uint32_t bytes;          /* 4; a block dtype's: bytes per block */
    uint32_t block_elements; /* 0; a block dtype's: elements per block */
    fkcg_loc loc;            /* a block dtype's declaration */
} fkcg_dtype_info;
extern const fkcg_dtype_info fkcg_dtypes[FKCG_NDTYPES];

/* A closed vocabulary of the schema (dtype, backend, determinism, cost_class, ...). */
typedef struct fkcg_enum {
    const char *name;          /* "cost_class" */
    const char *const *values; /* "cheap_elementwise", ... in schema order */
    size_t count;
} fkcg_enum;
/* NULL when the schema has no enum of that name. */
const fkcg_enum *fkcg_enum_find(const char *name);
/* Index of value in e, or -1. */
int fkcg_enum_index(const fkcg_enum *e, const char *value);

/* Cost expression tree: integers, n, dtype_bytes, op_params fields, + - * / ( ). */
typedef enum fkcg_expr_kind {
    FKCG_EXPR_INT,         /* value */
    FKCG_EXPR_N,           /* element count of the first input */
    FKCG_EXPR_DTYPE_BYTES, /* its byte width */
    FKCG_EXPR_FIELD,       /* an op_params field (a scalar field) */
    FKCG_EXPR_ADD,
    FKCG_EXPR_SUB,
    FKCG_EXPR_MUL,
    FKCG_EXPR_DIV
} fkcg_expr_kind;

typedef struct fkcg_expr {
    fkcg_expr_kind kind;
    uint64_t value;        /* FKCG_EXPR_INT */
    const char *field;     /* FKCG_EXPR_FIELD: the field's name */
    struct fkcg_expr *lhs; /* binary operators */
    struct fkcg_expr *rhs;
} fkcg_expr;

/* How a printer spells an expression's leaves (expr.c's fkcg_expr_write walks the tree for
 * the canonical form, the C back end and the Rust back end). */
struct fkcg_buf;
typedef struct fkcg_expr_style {
    const char *int_suffix;      /* after an integer ("" or ".0") */
    const char *n, *dtype_bytes; /* the two variables */
    void (*field)(struct fkcg_buf *out, const char *name, const void *ctx); /* a field */
    const void *ctx;
    bool bare_top; /* no parentheses around the whole expression */
} fkcg_expr_style;
/* Appends e, each operation parenthesised ("(a + b)"), its leaves spelled by st. */
void fkcg_expr_write(const fkcg_expr *e, struct fkcg_buf *out, const fkcg_expr_style *st);

/* Layout keys of an input, each "required", "accepted" or "rejected" (NULL: not stated),
 * written once: the schema's layout mapping (schema.c), the model, the JSON dump and the back
 * ends read this list; the runtime's fkc_layout (fkc/fkc_tables.h, tests/gen/test_vocab.c) and
 * the crate's Layout (rust/fkc/src/tables.rs, checked by the generated module) restate it.
 * Per key: its enumerator, name, the schema's doc line, a doc line of its own. */
/* clang-format off */
#define FKCG_LAYOUTS(X)                                                                     \
    X(CONTIGUOUS, "contiguous", "dense row-major input", "Dense row-major.")                 \
    X(STRIDED, "strided", "arbitrary positive strides", "Any strides.")                      \
    X(BROADCAST_STRIDE0, "broadcast_stride0", "zero strides (broadcast views)",              \
      "Broadcast (stride 0) axes.")                                                          \
    X(START_OFFSET, "start_offset", "a non-zero start offset", "A start offset.")           \
    X(REVERSE_STRIDES, "reverse_strides", "negative strides", "Negative strides.")
/* clang-format on */
#define FKCG_LAYOUT_ENUM(e, key, doc, rust_doc) FKCG_LAYOUT_##e,
enum { FKCG_LAYOUTS(FKCG_LAYOUT_ENUM) FKCG_NLAYOUT };
extern const char *const fkcg_layout_keys[FKCG_NLAYOUT];

typedef struct fkcg_input {
    const char *name;            /* "src" */
    int dtypes[FKCG_MAX_DTYPES]; /* model dtype indexes (fkcg_section_dtype), contract order */
    size_t n_dtypes;
    const char *layout[FKCG_NLAYOUT];
    const char *rank;             /* "any" or a decimal number without leading zeros */
    const char *shape_constraint; /* free text or NULL */
    fkcg_loc loc;
    const char *same_dtype_as; /* a tensor of the key this one has the dtype of, or NULL */
    /* optional: the caller may leave it out (the wrapper gets NULL). When the key names it,
     * a call without it is keyed with absent_key in its slot (a model dtype index), or, for
     * an input with same_dtype_as, the tied tensor's dtype (absent_key -1). */
    bool optional;
    bool shape_only; /* the kernel reads its shape (and dtype), never its data */
    bool variadic;   /* the last input only: one or more tensors of one dtype (C: a pointer
                        array and <name>_count) */
    int absent_key;
    fkcg_loc optional_loc; /* where optional (or absent_key) is stated */
} fkcg_input;

/* How an output's dtype follows (return.outputs[].dtype_rule). */
typedef enum fkcg_dtype_rule {
    FKCG_DR_PASSTHROUGH, /* passthrough(X): X's dtype */
    FKCG_DR_SAME_AS,     /* same_as(X): the same */
    FKCG_DR_FIXED,       /* fixed(D): always D */
    FKCG_DR_PARAM        /* param(F): the dtype the op_params field F names; one of `dtypes` */
} fkcg_dtype_rule;

/* How an output's shape follows (return.outputs[].shape_rule), in the schema's order. */
typedef enum fkcg_shape_rule {
    FKCG_SR_FROM_PARAMS, /* from_params(F): an op_params field's extents */
    FKCG_SR_SAME_AS,     /* same_as(X) */
    FKCG_SR_BROADCAST,   /* broadcast(A, B, ...): the inputs' broadcast shape */
    FKCG_SR_REDUCE,      /* reduce(X, axes, keepdim) */
    FKCG_SR_MATMUL,      /* matmul(A, B) */
    FKCG_SR_CONCAT,      /* concat(axis): every input joined along axis */
    FKCG_SR_GATHER,      /* gather(X, index, axis) */
    FKCG_SR_PERMUTE      /* permute(X, perm) */
} fkcg_shape_rule;
#define FKCG_SHAPE_ARGS 8 /* the most operands of a shape rule (broadcast's inputs) */

typedef struct fkcg_output {
    const char *name;             /* "out" */
    const char *dtype_rule;       /* "passthrough(src)", as written */
    const char *dtype_rule_arg;   /* "src" */
    const char *shape_rule;       /* "from_params(dst_shape)", as written */
    const char *shape_rule_arg;   /* "dst_shape" */
    const char *layout_guarantee; /* "contiguous" */
    const char *aliasing;         /* "none" */
    fkcg_loc loc;
    fkcg_dtype_rule rule;        /* the dtype rule's kind */
    int fixed_dtype;             /* FKCG_DR_FIXED: the dtype; else -1 */
    int dtypes[FKCG_MAX_DTYPES]; /* FKCG_DR_PARAM: the dtypes it may have (`dtypes`) */
    size_t n_dtypes;
    /* Aliases (issue 22): in_place, the input whose memory the output is (written over it),
     * or NULL, and its index (-1 when none); out_arg: the output is the caller's out=
     * destination argument (PyTorch's `Tensor(a!) out`), written and returned. */
    const char *in_place;
    int in_place_input;
    bool out_arg;
    fkcg_loc alias_loc;    /* where in_place (or out_arg) is stated */
    fkcg_shape_rule shape; /* the shape rule's kind */
    /* its operands as written, in order: tensor names, field names, integers, lists ("[0, 2]"),
     * true/false (issue 22) */
    const char *shape_args[FKCG_SHAPE_ARGS];
    size_t n_shape_args;
} fkcg_output;

/* The input an output is written over, or -1 (also for a hand-built output, whose
 * in_place_input is 0 but whose in_place is NULL). */
static inline int fkcg_output_in_place(const fkcg_output *o)
{
    return o->in_place ? o->in_place_input : -1;
}

/* The field kinds of op_params, written once: the schema's field_kind enum (schema.c), the
 * cost parser (expr.c), the C plan and the Rust back end read this list. Per kind: its name
 * (also its Rust type), its C type, whether a cost expression may use it. A Vec<T> of the
 * kinds FKCG_VEC_KINDS lists is `const T *x; size_t x_len;` in C, Vec<T> in Rust. Order:
 * the enum's (docs, "expected a, b or c"). */
/* clang-format off */
#define FKCG_FIELD_KINDS(X)                                                                 \
    X("usize", "size_t", true) X("isize", "ptrdiff_t", true) X("u32", "uint32_t", true)       \
    X("i32", "int32_t", true) X("u64", "uint64_t", true) X("i64", "int64_t", true)            \
    X("f32", "float", false) X("f64", "double", false) X("bool", "bool", false)                \
    X("enum", "int32_t", false) X("dtype", "fkc_dtype", false)
/* clang-format on */
#define FKCG_VEC_KINDS(X) X("usize") X("isize") X("i64")

typedef struct fkcg_kind_spec {
    const char *kind;  /* "usize" */
    const char *ctype; /* "size_t" */
    bool integer;      /* usable in a cost expression */
} fkcg_kind_spec;

/* The spec of a field kind (for Vec<T>, T's, with *vec set), or NULL when the schema knows
 * no such kind. */
const fkcg_kind_spec *fkcg_kind_lookup(const char *kind, bool *vec);

typedef struct fkcg_field { /* one op_params field */
    const char *name;       /* "dst_shape" */
    const char *kind;       /* "Vec<usize>", "usize", ... (schema's field_kind enum) */
    const char *note;       /* free text or NULL */
    fkcg_loc loc;
    /* kind enum (issue 22 item 3): its values, C identifiers, numbered 0.. in this order. */
    const char **values;
    size_t n_values;
    int32_t *codes; /* `values` as a mapping: each value's code; NULL: its index */
    /* The default, normalised (an integer in decimal, a number as written, true/false, an
     * enum value, a dtype name), or NULL when none: a caller may leave the field unset. */
    const char *def;
    int def_index;    /* kind enum: the value's index; kind dtype: its model index; else -1 */
    fkcg_loc def_loc; /* the default's value (for messages) */
} fkcg_field;

/* The code of enum value k of f: its stated code, or its index. */
static inline int64_t fkcg_field_code(const struct fkcg_field *f, size_t k)
{
    return f->codes ? f->codes[k] : (int64_t)k;
}

/* Field kinds beyond the C scalars (issue 22 item 3): an enum of the field's values, and a
 * dtype of the vocabulary or a provider block dtype. */
static inline bool fkcg_field_is_enum(const fkcg_field *f)
{
    return f->kind && !strcmp(f->kind, "enum");
}
static inline bool fkcg_field_is_dtype(const fkcg_field *f)
{
    return f->kind && !strcmp(f->kind, "dtype");
}

typedef struct fkcg_fast_path {
    const char *when;       /* "all_inputs_contiguous" */
    const char *cost_class; /* "cheap_elementwise" */
} fkcg_fast_path;

typedef struct fkcg_caps {
    const char *awkward_layout_strategy;
    fkcg_fast_path *fast_paths;
    size_t n_fast_paths;
    bool in_place;
    uint32_t alignment_bytes;
    uint32_t access_granularity_bits;
} fkcg_caps;

typedef struct fkcg_cost {
    bool present;           /* false: the section states no cost (the unknown sentinel) */
    const char *provenance; /* "judge_measured" */
    const char *cost_class; /* "cheap_elementwise" */
    const char *flops_src;  /* the expression text, as written */
    const char *bytes_moved_src;
    fkcg_expr *flops; /* parsed; NULL when not stated */
    fkcg_expr *bytes_moved;
    fkcg_loc loc;
} fkcg_cost;

typedef struct fkcg_precision {
    bool bit_stable_on_same_hardware;
    uint64_t max_ulp; /* whole ulps (max_ulp_frac below holds the fraction) */
    double max_relative;
    double max_absolute;
    bool audited;
    const char *notes;     /* free text or NULL */
    const char *reference; /* "correctly_rounded", "implementation:<path>", or NULL */
    uint32_t max_ulp_frac; /* max_ulp's fraction, in billionths (0 .. 999999999) */
} fkcg_precision;

/* max_ulp rounded up to whole ulps (what the generated tables carry; validate refuses a
 * fraction above 2^64-1), and the order of two max_ulp values (-1, 0, 1). */
static inline uint64_t fkcg_ulp_ceil(const fkcg_precision *p)
{
    return p->max_ulp + (p->max_ulp_frac != 0);
}
static inline int fkcg_ulp_cmp(const fkcg_precision *a, const fkcg_precision *b)
{
    if (a->max_ulp != b->max_ulp)
        return a->max_ulp < b->max_ulp ? -1 : 1;
    return a->max_ulp_frac == b->max_ulp_frac ? 0 : a->max_ulp_frac < b->max_ulp_frac ? -1 : 1;
}

/* precision_by_dtype (issue 22): other figures for some dtype tuples of the key. */
typedef struct fkcg_precision_by {
    const int *tuples; /* the key's tuples it covers, n_key model indexes each */
    size_t n_tuples;
    fkcg_precision p; /* the section's precision with this entry's keys laid over it */
    fkcg_loc loc;     /* the entry */
} fkcg_precision_by;

typedef struct fkcg_provider { /* the front matter of one file */
    uint64_t fkc_version;
    fkcg_dtype_info *block_dtypes; /* provider.block_dtypes, in file order; NULL when none */
    size_t n_block_dtypes;
    int *block_codes; /* bind: each one's table-wide code (FKCG_NDTYPES + rank by name) */
    const char *name;
    const char *backend; /* "Vulkan" */
    const char *kernel_source;
    const char *link_registry; /* "fuel_vulkan_backend::fkc::ENTRY_POINTS" */
    const char *revision_base;
    const char *rel_file;  /* repo-relative path (for generated output) */
    const char *text_hash; /* XXH3-128 of the file's text (after BOM and CRLF removal),
                                     32 hex digits: the generated banner names it, so any edit
                                     of a contract shows as drift; NULL in hand-built tables */
    fkcg_loc loc;
    fkcg_loc backend_loc; /* where backend and kernel_source are set (for messages) */
    fkcg_loc kernel_source_loc;
    const struct fkcg_where *where; /* every key's place, or NULL: only a run asked to keep its
                                     * sources records it (fkcg_run_keep_sources; fkcgen diff) */
} fkcg_provider;

typedef struct fkcg_section { /* one ```fkc block: one kernel */
    const char *heading;      /* text of the heading that introduces it, or NULL */
    const char *prose;        /* the top-level paragraphs between that heading (or the
                                   * previous block) and the fence, one line each, or NULL */
    const fkcg_provider *provider;
    const char *kernel;  /* "write_slice": a C identifier */
    const char *op_kind; /* "WriteSlice" */
    const char *blurb;
    const char *backend;
    const char *kernel_source;
    const char *entry_point;   /* "fuel_vulkan_backend::fkc::write_slice" */
    const char *revision_hash; /* "auto" resolved: 32 lower-case hex digits */
    fkcg_input *inputs;
    size_t n_inputs;
    fkcg_output *outputs;
    size_t n_outputs;
    const char *variant; /* op_params.variant, or NULL when no op_params */
    fkcg_field *fields;
    size_t n_fields;
    fkcg_caps caps;
    fkcg_cost cost;
    fkcg_precision precision;              /* the default of its bindings */
    const fkcg_precision_by *precision_by; /* precision_by_dtype, in file order; NULL: none */
    size_t n_precision_by;
    const char *determinism;   /* "bitwise" */
    const char *cpu_reference; /* a C identifier, or NULL when not stated */
    /* The key (issue 22): the tensors it is made of, as tensor indexes (k < n_inputs: input
     * k; else output k - n_inputs); key_stated false: the seed's default [input 0, output 0]. */
    bool key_stated;
    size_t n_key;
    int key[FKCG_KEY_MAX];
    bool fanout_dtypes; /* fanout: dtypes (a wrapper per dtype combination), else bytes */
    bool tuples_stated; /* dtype_table given (else the cross product, less `exclude`) */
    size_t n_excluded;  /* exclude's tuples (n_key each) */
    const int *excluded;
    /* The allowed dtype tuples over the key, n_key model indexes each, in binding order. */
    size_t n_tuples;
    const int *tuples;
    fkcg_loc key_loc;     /* where key (or the section) is */
    fkcg_loc loc;         /* the fence's first content line */
    fkcg_loc kernel_loc;  /* the kernel name's value (for duplicate messages) */
    fkcg_loc op_kind_loc; /* the op_kind's and entry_point's values (bind's messages) */
    fkcg_loc entry_point_loc;
    const struct fkcg_where *where; /* every key's place, or NULL (as the provider's) */
    bool invalid; /* validate reported errors: bind checks only its kernel name, then drops it */
} fkcg_section;

/* One binding per (section × allowed dtype tuple of its key). */
typedef struct fkcg_binding {
    const fkcg_section *section;
    int dtype;             /* key[0]'s code (fkcg_table_dtype) */
    uint32_t byte_width;   /* its byte width: 1, 2, 4, 8 (a block dtype's bytes per block) */
    const char *symbol;    /* "<entry_point>_<suffix>" ("_<s1>_<s2>.." when the slots differ) */
    const char *wrapper;   /* "<kernel>_b<width>" ("_b<w1>_b<w2>..", or by dtype suffixes) */
    uint32_t n_key;        /* the key's slots; 0 in a hand-built table: [dtype, dtype] */
    int key[FKCG_KEY_MAX]; /* table-wide dtype codes */
    uint32_t precision_by; /* 0: its section's precision; k: the section's precision_by[k-1] */
} fkcg_binding;

/* The precision b promises: its section's, or the precision_by_dtype entry of its key. */
static inline const fkcg_precision *fkcg_binding_precision(const fkcg_binding *b)
{
    return b->precision_by ? &b->section->precision_by[b->precision_by - 1].p
                           : &b->section->precision;
}

/* The slots of b's key (a hand-built table's n_key 0: [dtype, dtype]). */
static inline uint32_t fkcg_binding_n_key(const fkcg_binding *b)
{
    return b->n_key ? b->n_key : 2;
}
static inline int fkcg_binding_slot(const fkcg_binding *b, uint32_t k)
{
    return b->n_key ? b->key[k] : b->dtype;
}

/* The result of a run over all files: sorted by (op_kind, backend, kernel_source, kernel, dtype
 * order). */
typedef struct fkcg_table {
    const fkcg_provider *const *providers; /* one per file, sorted by rel_file */
    size_t n_providers;
    const fkcg_section *const *sections; /* sorted by kernel name */
    size_t n_sections;
    const fkcg_binding *bindings;
    size_t n_bindings;
    const fkcg_dtype_info *const *block_dtypes; /* the run's block dtypes by name (code
                                                  * FKCG_NDTYPES + index); NULL when none */
    size_t n_block_dtypes;
} fkcg_table;

/* The dtype of a table-wide code (a binding's key), or NULL when out of range. */
const fkcg_dtype_info *fkcg_table_dtype(const fkcg_table *t, int code);
/* The dtype of a model index of section s (its inputs' and outputs' lists), or NULL. */
const fkcg_dtype_info *fkcg_section_dtype(const fkcg_section *s, int idx);
/* The table-wide code of a model index of section s (its provider's block dtypes by the codes
 * bind gave them). */
int fkcg_section_code(const fkcg_section *s, int idx);
/* Whether a binding's key is the seed's form: two slots of one dtype of the vocabulary. */
static inline bool fkcg_binding_plain(const fkcg_binding *b)
{
    return fkcg_binding_n_key(b) == 2 && fkcg_binding_slot(b, 0) == fkcg_binding_slot(b, 1) &&
           b->dtype >= 0 && b->dtype < FKCG_NRUNTIME_DTYPES;
}

/* ---- model.c ---- */
/* Index of a provider in t->providers (bind sorts them by rel_file), or -1: the dump and both
 * back ends point to a section's provider by it. */
long fkcg_provider_index(const fkcg_table *t, const fkcg_provider *pr);

/* ---- names.c: the C names identifiers become (front end and C back end) ---- */
/* A name a contract may not give (it would break or change the generated C, or a file that
 * includes a C standard header before it): a C keyword (C11, C23), a name starting with '_',
 * fkc_ or FKC_, a macro gcc or clang predefine in GNU mode (linux, unix), a macro or typedef of
 * a C standard header (NULL, EOF, BUFSIZ, CHAR_BIT, I, complex, and, noreturn, size_t, ...) or
 * of a family C reserves for them (E[0-9A-Z]..., SIG..., PRI..., INT*_MAX, ...). The one such
 * table of fkcgen. */
bool fkcg_c_name_reserved(const char *s);
/* Why s is reserved ("a macro of <stdio.h>", "a C keyword", ...), or NULL when it is not. */
const char *fkcg_c_name_why(const char *s);
bool fkcg_c_names_sorted(void); /* for the tests: the table is sorted (binary search) */
/* A name Rust cannot take even as a raw identifier (self, Self, super, crate: the table's
 * Rust rows) or "_"; the Rust back end asserts it. Keywords r# makes usable are not refused. */
bool fkcg_rust_name_refused(const char *s);
/* "WriteSliceRotating" -> "write_slice_rotating", "GELUTanh" -> "gelu_tanh" (malloc'd). */
char *fkcg_snake_case(const char *camel);
/* Why an op kind of snake form `snake` cannot be emitted (its C names fkc_<snake>_fn,
 * FKC_OP_<SNAKE>, the union member <snake> would clash), or NULL when it can. */
const char *fkcg_op_kind_c_clash(const char *snake);

/* The rules of a contract's names, for the front end (validate, bind), which reports a
 * broken one with its location, and the back ends, which assert them before they print. */
/* A name a contract may give: [A-Za-z][A-Za-z0-9_]*, at most FKCG_IDENT_MAX bytes
 * (config.h), not reserved (fkcg_c_name_reserved). */
bool fkcg_is_c_ident(const char *s);
/* The same without the reserved names: [A-Za-z_][A-Za-z0-9_]*, at most FKCG_IDENT_MAX bytes
 * (a reserved name of that shape is reported with why it is reserved). */
bool fkcg_is_c_ident_shape(const char *s);
/* entry_point and link_registry: such names joined by "::" (a::b::c). */
bool fkcg_is_c_path(const char *s);
/* The first segment of path s that is no such name, or NULL when there is none; *len: its
 * length; *why: why, when it is reserved (fkcg_c_name_why), else NULL. */
const char *fkcg_c_path_bad_segment(const char *s, size_t *len, const char **why);
/* An op kind: UpperCamelCase, [A-Z][A-Za-z0-9]*, at most FKCG_IDENT_MAX bytes. */
bool fkcg_is_op_kind(const char *s);
/* stream, params and extra: the other parameters of a kernel's C function, no tensor's name. */
bool fkcg_is_reserved_param(const char *s);
/* The Vec field g of fields[0..n) whose length member g_len is f's name, or NULL: a Vec field
 * x becomes `const T *x; size_t x_len;` in C. */
const fkcg_field *fkcg_field_len_clash(const fkcg_field *fields, size_t n, const fkcg_field *f);
/* Which part of the C signature ("inputs", "outputs", "op_params") two sections of one op
 * kind give differently, or NULL when they agree: one op kind has one C signature. */
const char *fkcg_signature_diff(const fkcg_section *a, const fkcg_section *b);

/* A field of a runtime family's params struct, in a contract's terms. */
typedef struct fkcg_runtime_field {
    const char *name; /* "capacity" */
    const char *kind; /* "usize", "Vec<usize>": a value of the schema's field_kind */
} fkcg_runtime_field;

/* A kernel family the fkc runtime implements (runtime/include/fkc/fkc_kernels.h): generated
 * bindings point to its byte-width wrappers fkc_<kernel>_b<width> and take its params struct
 * fkc_<op snake>_params, whose fields (name, kind, in order) are listed here, and its side
 * inputs fkc_<op snake>_extra when it has some. A contract may bind such a kernel only to its
 * op kind and backend, and a section of its op kind (whatever its kernel) states its params and
 * tensors. The one description of the runtime's families in fkcgen: the front end compares a
 * contract's op_params with it, the C back end writes its checks from it. */
typedef struct fkcg_runtime_kernel {
    const char *kernel;               /* "write_slice" */
    const char *op_kind;              /* "WriteSlice" */
    const char *backend;              /* "Vulkan" */
    const fkcg_runtime_field *fields; /* fkc_<op snake>_params, in order */
    size_t n_fields;
    size_t n_inputs; /* tensors of fkc_<op snake>_kernel: const inputs, then outputs */
    size_t n_outputs;
    bool extra; /* side inputs fkc_<op snake>_extra; else `const void *extra` */
    /* the wrappers' suffixes fkc_<kernel>_<suffix>, NULL-ended, for a family keyed over more
     * than [T, T]; NULL: b1, b2, b4 and b8 */
    const char *const *wrappers;
} fkcg_runtime_kernel;

/* The runtime's families (names.c's table), *n of them. */
const fkcg_runtime_kernel *fkcg_runtime_kernels(size_t *n);
/* The runtime's family of that kernel name, or NULL (also for NULL). */
const fkcg_runtime_kernel *fkcg_runtime_kernel_find(const char *kernel);
/* The runtime's family of that op kind, or NULL (also for NULL). */
const fkcg_runtime_kernel *fkcg_runtime_op_find(const char *op_kind);
/* Whether op_kind is the op kind of one of the runtime's families. */
bool fkcg_runtime_op_kind(const char *op_kind);

/* How a contract's op_params fields differ from a runtime family's, at the first place they
 * differ (*at: the index of the contract's field there; n when they end first). */
typedef enum fkcg_rt_diff {
    FKCG_RT_SAME,   /* the runtime's fields, names and kinds, in its order */
    FKCG_RT_NAME,   /* field at has another name, which the runtime has nowhere */
    FKCG_RT_KIND,   /* field at has the runtime's name there, another kind */
    FKCG_RT_ORDER,  /* field at is the runtime's, at another place */
    FKCG_RT_EXTRA,  /* field at is none of the runtime's */
    FKCG_RT_MISSING /* the runtime's field there is not stated (at: the field after) */
} fkcg_rt_diff;
/* Compares fields[0..n) with rk's and, when they differ, appends to msg the message (one
 * line: "field 'capacty' of WriteSliceRotating: the runtime has 'capacity' (usize) here"),
 * the one text the front end reports and a back end's check may print. */
fkcg_rt_diff fkcg_runtime_fields_diff(const fkcg_runtime_kernel *rk, const fkcg_field *fields,
                                      size_t n, size_t *at, struct fkcg_buf *msg);
/* "'dst_shape' (Vec<usize>) and 'capacity' (usize)": rk's fields, for messages. */
void fkcg_runtime_fields_list(const fkcg_runtime_kernel *rk, struct fkcg_buf *out);

/* The first 8 bytes of a name as a big-endian number: sorting by it, then by strcmp on ties,
 * gives strcmp order with most comparisons on one integer (bind and the back end sort
 * tens of thousands of names). */
static inline uint64_t fkcg_name_key(const char *name)
{
    uint64_t k = 0;
    for (int i = 0; i < 8; i++) {
        k <<= 8;
        if (*name)
            k |= (unsigned char)*name++;
    }
    return k;
}

#endif /* FKCG_MODEL_H */
