/* back.h — private to fkcgen's back ends (back/) and the `gen` command (cli/gen.c): the
 * back-end interface and its table, the row-level plan every back end prints (plan.c) with the
 * checks they share (check.c), and the walk that prints the plan's tables through a back end's
 * style (render.c). A back end is one file: its escape gate, its style and its printers of what
 * is not a table (c.c, rust.c, json.c); backends.c lists them. fkcgen.h holds the public part. */
#ifndef FKCG_BACK_H
#define FKCG_BACK_H

#include <stdbool.h>
#include <stdio.h>

#include "buf.h"
#include "config.h"
#include "model.h"

struct fkcg_diag; /* diag.c's sink (internal.h): the checks report through it */

#define FKCG_EMIT_PREFIX "fkc" /* the default prefix of the generated names */
#define FKCG_PREFIX_MAX 32     /* longest prefix */
/* The fkc runtime interface (FKC_RUNTIME_ABI of runtime/include/fkc/fkc_kernels.h) the
 * generated code is written for: it refuses to compile against another. */
#define FKCG_RUNTIME_ABI 4
/* The macro the C header defines to its pair hash (XXH3-64 of the header without that line);
 * the source refuses to compile unless it holds the value it was generated with. */
#define FKCG_PAIR_HASH_MACRO "@@_BINDINGS_PAIR_HASH" /* a template: @@ is the prefix, upper-case */
/* The names of the C back end's two outputs for the default prefix (tests). */
#define FKCG_EMIT_HEADER "fkc_bindings.h"
#define FKCG_EMIT_SOURCE "fkc_bindings.c"

/* ---- names (plan.c) ---- */

/* Byte classes of the names and texts the back ends print, as a table (one look-up per byte:
 * 10,000 sections are 75 MiB of output, nearly every byte of it tested). ASCII only, so the
 * locale never changes the output. */
enum {
    FKCG_BC_ALNUM = 1,       /* [A-Za-z0-9] */
    FKCG_BC_IDENT = 2,       /* [A-Za-z0-9_]: inside a C identifier */
    FKCG_BC_IDENT_START = 4, /* [A-Za-z_]: first byte of a C identifier */
    FKCG_BC_CSTR = 8,        /* printable ASCII but " \ ?: as is in a C string literal */
    FKCG_BC_COMMENT = 16,    /* printable ASCII but \ / * ?: as is in a comment */
};
extern const unsigned char fkcg_byte_class[256];
/* The enumerator form of each byte: letters in upper case, digits, everything else '_'. */
extern const char fkcg_upper_byte[256];

/* A C identifier the back ends print: [A-Za-z_][A-Za-z0-9_]*, at most FKCG_C_IDENT_MAX bytes
 * (a contract's own names follow the stricter fkcg_is_c_ident, model.h). */
bool fkcg_emit_is_ident(const char *s);
/* The length of s when it is such an identifier, else 0: the check and the strlen in one pass,
 * for the printers (which re-check every identifier they write). */
size_t fkcg_emit_ident_len(const char *s);
/* entry_point and symbols: identifiers joined by "::". */
bool fkcg_emit_is_path(const char *s);
/* NULL when name is usable as `--prefix`: a C identifier of lower-case letters, digits and
 * '_' starting with a letter, at most FKCG_PREFIX_MAX bytes, no "__" nor trailing '_', not a
 * C keyword nor a name the C library reserves as a prefix (str..., mem..., is..., to...,
 * atomic_...), nor fkc_... (the runtime's: only "fkc" itself). Otherwise why not. */
const char *fkcg_prefix_problem(const char *name);
/* s, or "" for NULL: the plan is built before the checks report missing names. */
const char *fkcg_nz(const char *s);
/* calloc that exits on out-of-memory (as the rest of the generator). */
void *fkcg_xcalloc(size_t n, size_t size);

/* ---- vocabularies: the schema's closed value sets as the generated code spells them ---- */

/* One vocabulary: its schema enum. Each language back end spells its values itself (c.c's
 * fkcg_c_vocab names those of runtime/include/fkc/fkc_tables.h and fkc_types.h, rust.c those of
 * rust/fkc/src/tables.rs); tests/gen/test_vocab.c and the generated Rust's own const check
 * compare both with the schema. UNKNOWN (0) comes first where a contract may be silent. */
typedef struct fkcg_vocab {
    const char *schema; /* the schema's enum name ("cost_class") */
    bool with_unknown;  /* UNKNOWN = 0 first (C ..._UNKNOWN, Rust Unknown) */
} fkcg_vocab;

/* A language's name of a vocabulary: its type ("fkc_cost_class", "CostClass") and the prefix
 * of its enumerators ("FKC_COST_CLASS_"; + the value in upper case), or NULL. */
typedef struct fkcg_vocab_name {
    const char *type;
    const char *prefix;
} fkcg_vocab_name;

enum {
    FKCG_EN_DETERMINISM,
    FKCG_EN_PROVENANCE,
    FKCG_EN_COST_CLASS,
    FKCG_EN_STRATEGY,
    FKCG_EN_LAYOUT_RULE,
    FKCG_EN_GUARANTEE,
    FKCG_EN_ALIASING,
    FKCG_EN_SHAPE_RULE,
    FKCG_EN_DTYPE,
    FKCG_EN_BACKEND,
    FKCG_EN_COUNT
};
extern const fkcg_vocab fkcg_vocabs[FKCG_EN_COUNT];
extern const fkcg_vocab_name fkcg_c_vocab[FKCG_EN_COUNT]; /* the C back end's (c.c) */

/* ---- the plan: every row the back ends print, resolved once (plan.c) ---- */

#define FKCG_NONE ((size_t)-1)

typedef struct fkcg_plan_op {      /* one op kind; the ops are sorted by name (strcmp) */
    const char *name;              /* "WriteSlice" */
    char *snake;                   /* "write_slice" */
    char *upper;                   /* "WRITE_SLICE" */
    size_t sig;                    /* its first section: its signature (sections of one op agree) */
    size_t cost;                   /* its first section stating a known cost (the shared cost), or
                                  FKCG_NONE */
    const fkcg_runtime_kernel *rt; /* the runtime family whose params and side inputs it takes
                                  (a section binds a runtime kernel or, under the default prefix,
                                  the op kind is the runtime's), or NULL */
    size_t first, end;             /* its rows [first, end) */
} fkcg_plan_op;

typedef struct fkcg_plan_sec { /* one section (kernel), in table order (by kernel name) */
    const fkcg_section *s;
    size_t op;         /* index in ops */
    size_t provider;   /* index in t->providers, or FKCG_NONE */
    size_t registry;   /* its provider's link registry: index in registries */
    size_t first, end; /* its rows [first, end) (a section's rows are contiguous) */
    unsigned widths;   /* bit w set: a row of byte width w */
    bool runtime;      /* its kernel is the runtime's: wrappers fkc_<kernel>_b<width> */
    bool templated;    /* its rows follow the binder's rule (symbol <entry_point>_<dtype
                                  suffix>, wrapper <kernel>_b<width>, width the dtype's): the
                                  back ends print them through one row template */
    size_t inputs;     /* its first input in the plan's input list */
    /* The first section (in table order) whose table of that kind holds the same rows as
     * this one's: a table is printed once, at its first section, and named from there.
     * same_cost: the first with the same cost (provenance, class, expressions' text and, when
     * an expression reads a field, op kind): its cost and cost functions serve both. */
    size_t same_fast_paths, same_inputs, same_outputs, same_fields, same_cost;
} fkcg_plan_sec;

typedef struct fkcg_plan_row { /* one binding, in table order */
    const fkcg_binding *b;     /* dtype, byte width, symbol, wrapper (<kernel>_b<width>) */
    size_t sec;
    size_t op;
} fkcg_plan_row;

/* Dispatch: one (op, backend) group and, per dtype it binds, the row that wins (the first in
 * table order). Groups are in (op, backend name) order; a group's cases are ordered by
 * wrapper (cases that share one are adjacent), then by dtype. */
typedef struct fkcg_plan_case {
    int dtype;
    size_t row;
} fkcg_plan_case;

typedef struct fkcg_plan_group {
    size_t op;
    const char *backend;
    size_t first, n; /* cases[first .. first + n) */
} fkcg_plan_group;

typedef struct fkcg_plan {
    const fkcg_table *t;
    char prefix[FKCG_PREFIX_MAX + 1];       /* of the generated names, "fkc" by default */
    char prefix_upper[FKCG_PREFIX_MAX + 1]; /* "FKC" */
    fkcg_plan_op *ops;
    size_t n_ops;
    fkcg_plan_sec *secs; /* t->n_sections */
    fkcg_plan_row *rows;
    size_t n_rows;
    size_t *links;           /* row indices by symbol (strcmp), then row index */
    const char **registries; /* the distinct link_registry names, sorted */
    size_t n_registries;
    size_t *reg_links; /* the links grouped by registry, each group in links' order */
    size_t *reg_first; /* registry k's group: reg_links[reg_first[k] .. reg_first[k+1]) */
    fkcg_plan_group *groups;
    size_t n_groups;
    fkcg_plan_case *cases;
    size_t n_cases;
    size_t *same_dtypes; /* each input (secs[i].inputs + k): the first input with the same
                                  dtype list */
    size_t *input_sec;   /* each input: its section */
    size_t n_inputs;
    bool all_plain; /* every row's key is the seed's [T, T] of a vocabulary dtype: the
                     * dispatch by groups is the whole dispatch (fkcg_binding_plain) */
} fkcg_plan;

/* prefix: of the generated names (NULL: FKCG_EMIT_PREFIX); checked by fkcg_prefix_problem. */
void fkcg_plan_init(fkcg_plan *p, const fkcg_table *t, const char *prefix);
void fkcg_plan_free(fkcg_plan *p);
/* The section and index of input flat index i (secs[sec].inputs + k). */
void fkcg_plan_input(const fkcg_plan *p, size_t i, size_t *sec, size_t *k);
/* The prefix of a section's wrappers: "fkc" (the runtime's) or the plan's prefix. */
const char *fkcg_plan_wrapper_prefix(const fkcg_plan *p, size_t sec);

/* ---- the shared checks (check.c) ---- */

/* Every check every language back end relies on, on a plan: identifiers, field kinds, one
 * signature per op kind, schema enum values, unique generated names. Each problem is reported
 * through d as `file:line:col: error: ...`; returns the number found. Starts with the empty
 * table (C and Rust have no empty arrays of these types). */
size_t fkcg_plan_check(const fkcg_plan *p, struct fkcg_diag *d);
/* A back end's report: `<what> '<value>' <why>` at loc, through d. */
void fkcg_emit_report(struct fkcg_diag *d, fkcg_loc loc, const char *what, const char *value,
                      const char *why);
/* The note after such a report: the other place involved ("first bound here"), through d. */
void fkcg_emit_note(struct fkcg_diag *d, fkcg_loc loc, const char *what);

/* ---- the tables, walked once for every back end (render.c) ---- */

/* The tables the plan prints. Per section: FAST_PATHS, DTYPES (per input), INPUTS, OUTPUTS,
 * FIELDS, COST. Whole plan: PROVIDERS, KERNELS, BINDINGS, LINKS, REGISTRIES, SHARED_COST,
 * OP_NAMES, OP_ROWS. CAPS, PRECISION, LAYOUT, SPAN: the nested rows. */
typedef enum fkcg_table_id {
    FKCG_T_FAST_PATHS,
    FKCG_T_DTYPES,
    FKCG_T_INPUTS,
    FKCG_T_OUTPUTS,
    FKCG_T_FIELDS,
    FKCG_T_COST,
    FKCG_T_PRECISION_BY,   /* a section's precision_by_dtype figures (issue 22) */
    FKCG_T_SHAPE_OPERANDS, /* an output's shape rule operands (issue 22), per output */
    FKCG_T_PROVIDERS,
    FKCG_T_KERNELS,
    FKCG_T_BINDINGS,
    FKCG_T_LINKS,
    FKCG_T_REGISTRIES,
    FKCG_T_SHARED_COST,
    FKCG_T_OP_NAMES,
    FKCG_T_OP_ROWS,
    FKCG_T_CAPS,
    FKCG_T_PRECISION,
    FKCG_T_LAYOUT,
    FKCG_T_SPAN,
    FKCG_T_COUNT
} fkcg_table_id;

/* What a language calls a table and the type of its rows: each style has one of these a
 * table (fkcg_style.tables). The C back end's are templates ("@_bindings": the prefix; "@@_":
 * in upper case, through its tpl); a per-section table's name carries the section's suffix
 * where '%' stands. */
typedef struct fkcg_table_name {
    const char *type;  /* its rows' type ("@_binding", "Binding"); a nested row's constructor */
    const char *name;  /* "@_bindings", "BINDINGS"; NULL: a nested row's type, or not printed */
    const char *count; /* its length macro ("@@_BINDING_COUNT"), or NULL */
} fkcg_table_name;

/* The value of one cell of a row, as the plan gives it; a back end's style prints it. */
typedef enum fkcg_cell_kind {
    FKCG_CELL_STR,      /* text (s); a C string literal or a Rust &str */
    FKCG_CELL_OSTR,     /* text or absent (s NULL): C NULL, Rust None / Some(...) */
    FKCG_CELL_UINT,     /* u, into a field of which bits (32: uint32_t or size_t, 64: uint64_t) */
    FKCG_CELL_BOOL,     /* u */
    FKCG_CELL_F64,      /* d */
    FKCG_CELL_VOCAB,    /* a value s of vocabulary which (NULL: UNKNOWN; for a Rust Option) */
    FKCG_CELL_OP,       /* op kind u */
    FKCG_CELL_KEY,      /* the whole key of row u (C: "{A, B}, n"; Rust: &[A, B]) */
    FKCG_CELL_ROW,      /* &row u of table which */
    FKCG_CELL_SLICE,    /* section u's table which (of input k), n rows: C "name, n", Rust &name */
    FKCG_CELL_WRAPPER,  /* row u's wrapper, as a string (C its symbol, Rust <kernel>_b<width>) */
    FKCG_CELL_KREF,     /* row u's kernel reference */
    FKCG_CELL_COSTFN,   /* section u's flops (which 0) or bytes_moved (1) function; n: stated */
    FKCG_CELL_COST,     /* &section u's cost, or the unknown sentinel (u FKCG_NONE) */
    FKCG_CELL_REGISTRY, /* link registry u (C its index, Rust its path) */
    FKCG_CELL_SYMBOL,   /* row u's symbol (a row template's hole when the section is templated) */
    FKCG_CELL_PREC,     /* &row u's precision: its kernel's, or its precision_by_dtype row */
    FKCG_CELL_OPEN,     /* a nested row of table which begins */
    FKCG_CELL_CLOSE,    /* ... and ends */
} fkcg_cell_kind;

/* What a cell is to a reader beyond its value: the style's cell callback may leave a role
 * out. */
typedef enum fkcg_cell_role {
    FKCG_ROLE_DATA,  /* a field of the row */
    FKCG_ROLE_PROSE, /* the contract's Markdown around a section (its heading, its prose) */
} fkcg_cell_role;

typedef struct fkcg_cell {
    fkcg_cell_kind kind;
    fkcg_cell_role role;
    int which;
    const char *s;
    uint64_t u;
    size_t n;
    size_t k;  /* SLICE of DTYPES: the input; else FKCG_NONE */
    bool hole; /* a row template's parameter (KEY, SYMBOL, WRAPPER, KREF, the
                                  byte width) */
    double d;
} fkcg_cell;

/* A back end as the walk sees it: its language, its escape gate for the leaves (every
 * contract string and name reaches its output through str, ident or comment), and its syntax:
 * how a table opens and closes, and the few words in which the languages differ. The walk
 * (render.c) composes everything else. */
typedef struct fkcg_render fkcg_render;
typedef struct fkcg_style {
    const fkcg_table_name *tables; /* [FKCG_T_COUNT]: what the language calls each table */
    /* Each cell of a row, before it is printed: whether to print it (NULL: every cell). */
    bool (*cell)(const fkcg_render *r, fkcg_table_id t, const fkcg_cell *c);
    void (*str)(fkcg_buf *out, const char *s);        /* a string literal (s NULL: C NULL) */
    void (*ident)(fkcg_buf *out, const char *s);      /* an identifier from a contract */
    void (*comment)(fkcg_buf *out, const char *text); /* a comment: the delimiters, text */
    void (*tpl)(fkcg_render *r, fkcg_buf *out, const char *s); /* fixed text (C: @ = prefix) */
    void (*f64)(fkcg_buf *out, double d);                      /* a double literal */
    void (*uint)(fkcg_buf *out, uint64_t u, int bits); /* an integer for a field of that many
                                                  bits (NULL: the bare decimal) */
    void (*vocab)(fkcg_buf *out, int which, const char *value); /* value of fkcg_vocabs[which] */
    void (*row_edge)(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, bool open); /* a row's
                                                 (or nested row's) opening or end */
    /* after a row referenced (row `row` of table t), its field that is a nested row of table
     * `field` (KERNELS' PRECISION): C and Rust ".precision"; a language whose rows have no
     * field names by its place (fkcg_render_place) */
    void (*member)(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, size_t row, fkcg_table_id field);
    void (*op)(fkcg_render *r, fkcg_buf *out, size_t op); /* an op kind's enumerator */
    void (*wrapper)(fkcg_render *r, fkcg_buf *out, size_t row, bool ref); /* a row's wrapper:
                                                             its kernel ref, or its name */
    /* a table of n rows: sec (FKCG_NONE: not a section's) and k (its input, for DTYPES) name a
     * section's; for LINKS k is the registry (FKCG_NONE: all of them) */
    void (*open)(fkcg_render *r, fkcg_table_id t, size_t sec, size_t k, size_t n);
    void (*close)(fkcg_render *r, fkcg_table_id t, size_t n);
    /* A templated section's row template: its opening (the template of section sec, named
     * rows_<sec> with the symbol's template symbol_<sec>) and end; a hole of it; a call of it
     * for row `row` (of template `t`: ROWS or SYMBOL). */
    void (*template_open)(fkcg_render *r, size_t sec, bool symbol);
    void (*template_close)(fkcg_render *r, bool symbol);
    void (*hole)(fkcg_render *r, fkcg_buf *out, const fkcg_cell *c);
    void (*template_call)(fkcg_render *r, fkcg_buf *out, size_t row, bool symbol);
    const char *indent[2];    /* of a row: of a whole-plan table, of a section's table */
    size_t cont;              /* a wrapped row's next lines: this many columns past its indent */
    const char *section_lead; /* before a section's tables' comment line */
    const char *none, *some, *some_end; /* an absent value; around a present optional one */
    const char *truth[2];               /* false, true */
    const char *address;                /* before a row or table referenced ("&") */
    const char *key_open, *key_end;     /* around a key [T, T] */
    bool key_count;                     /* the key's length follows it (C: ", 2") */
    const char *empty_slice;            /* a slice of no rows */
    bool slice_counted;                 /* a slice is "name, n" (C), else address name ("&name") */
    const char *section_scope;          /* before a section's table named from outside it */
    const char *unknown_cost;           /* the unknown-cost sentinel, referenced */
    bool registry_path;                 /* a link registry by its path (Rust), not by index */
} fkcg_style;

/* A window of the plan a back end may hand the walk (fkcg_render.window), to print a part of
 * it: the op kinds [op_lo, op_hi) and so the rows [row_lo, row_hi) (rows are sorted by op
 * kind) and the sections of those op kinds. The walk then prints only the window's rows of the
 * kernels, bindings, link registry and shared costs (fkcg_render_windowed), names those tables
 * as the style does (or as `names` says, where it has one) with "_<part>" after the name,
 * indexes them from 0, and
 * shares a section's table with an earlier section only within the window. (The C back end's
 * `gen --shards N` prints each source through one.) */
typedef struct fkcg_window {
    size_t part;              /* its index among the back end's parts */
    const char *const *names; /* [FKCG_T_COUNT] or NULL: a windowed table's own name (a
                                 template as the style's), NULL where the style's serves */
    size_t op_lo, op_hi, row_lo, row_hi;
    const size_t *sec_part;  /* every section's window (of the back end's parts) */
    const size_t *sec_local; /* every section's index among its window's sections */
    size_t n_secs;           /* the sections of this window */
    size_t n_links;          /* its link rows (= its rows) */
    /* For the per-section tables FAST_PATHS .. COST: each section's (DTYPES: each input's,
     * by the plan's flat input index) first alike in its own window, as secs[].same_* is in
     * the whole plan: a table is printed at that one, and named from there. */
    const size_t *same[FKCG_T_COST + 1];
} fkcg_window;

struct fkcg_render {
    fkcg_buf *b;
    const fkcg_plan *p;
    const fkcg_window *window; /* NULL: the whole plan */
    /* NULL, or the per-section tables' sharing (as fkcg_window.same) for a whole-plan table
     * printed over sections that are printed through windows (the Rust back end's shards) */
    const size_t *const *same;
    const fkcg_style *st;
    const void *ctx;  /* the back end's own */
    bool in_section;  /* printing a section's tables (render_section) */
    fkcg_buf scratch; /* one cell rendered before it is placed (line wrapping) */
};

/* gen --shards N: the plan's op kinds in order over n parts, each up to its share of the rows
 * (an op kind starting before the share's end joins it; the last takes the rest; parts may be
 * empty when op kinds are fewer, or one op kind holds most rows), and the window each part is
 * printed through (names: fkcg_window.names of all of them). The C and Rust back ends' parts. */
typedef struct fkcg_shards {
    size_t n;       /* the parts */
    fkcg_window *w; /* n of them */
    size_t *sec_part, *sec_local;
    size_t *same[FKCG_T_COST + 1]; /* each part's same[t] (one array for all parts) */
} fkcg_shards;
void fkcg_shards_init(fkcg_shards *sp, const fkcg_plan *p, size_t n, const char *const *names);
void fkcg_shards_free(fkcg_shards *sp);

void fkcg_render_init(fkcg_render *r, fkcg_buf *b, const fkcg_plan *p, const fkcg_style *st,
                      const void *ctx);
void fkcg_render_free(fkcg_render *r);
/* Prints a whole-plan table (PROVIDERS .. OP_ROWS). LINKS: registry FKCG_NONE is every row,
 * else that registry's rows only (in link order both). */
void fkcg_render_table(fkcg_render *r, fkcg_table_id t, size_t registry);
/* Prints section sec's tables (FAST_PATHS .. COST) that have rows, in that order; empty: the
 * style's choice (C prints none, so its cells name NULL). cost_fns: called between the FIELDS
 * and the COST table (the back end's cost functions), may be NULL. */
void fkcg_render_section(fkcg_render *r, size_t sec, void (*cost_fns)(fkcg_render *r, size_t sec));
/* The number of rows of registry reg (FKCG_NONE: all) in the link table. */
size_t fkcg_render_links_of(const fkcg_plan *p, size_t reg);
/* Whether a whole-plan table is cut to a window (kernels, bindings, links, shared cost). */
bool fkcg_render_windowed(fkcg_table_id t);
/* A table's name as the style's language writes it (a section's: '%' is sec, or sec_k for an
 * input's dtypes; from outside the section with the style's section_scope first). */
void fkcg_render_name(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, size_t sec, size_t k);
/* The place of row `row` of table t's field that is a nested row of table `field`, among the
 * cells the style prints (0 first), or FKCG_NONE: for a style's member. */
size_t fkcg_render_place(const fkcg_render *r, fkcg_table_id t, size_t row, fkcg_table_id field);
/* A cell, nested rows whole, through the style. */
void fkcg_render_cell(fkcg_render *r, fkcg_buf *out, const fkcg_cell *c);
/* "[i] kernel (file:line)": the comment of a section's row; line false leaves ":line" out. */
void fkcg_render_where(fkcg_buf *out, const fkcg_plan *p, size_t sec, bool line);
/* The string of a buffer (never NULL). */
const char *fkcg_buf_str(const fkcg_buf *b);

/* ---- the back-end interface (backends.c) ---- */

/* A back end: `fkcgen gen --lang NAME` (and `dump --json`, the "json" one) find it by name.
 * Its outputs are templates of file names under --out-dir ("@_bindings.h": @ is --prefix).
 * check: its own checks on top of the plan's (NULL: none), returning the number of errors.
 * emit: prints the plan into outs (one buffer per output, in outputs' order). The gen options
 * that only some back ends take are capabilities a back end declares (gen refuses the option
 * for one that does not): parts (gen --shards N, its output split over N sources: outputs,
 * then part_output for k = 1 .. N - 1) and stubs (gen --emit-stubs FILE). Adding one: a file
 * back/NAME.c defining `const fkcg_backend fkcg_backend_NAME`, and its row in backends.c. */
enum { FKCG_MAX_OUTPUTS = 2 };
/* gen --shards N: at most this many sources. */
enum { FKCG_MAX_SHARDS = 64 };
typedef struct fkcg_backend {
    const char *name;                      /* "c" */
    const char *outputs[FKCG_MAX_OUTPUTS]; /* NULL after the last */
    size_t (*check)(const fkcg_plan *p, struct fkcg_diag *d);
    void (*emit)(const fkcg_plan *p, fkcg_buf *const outs[]);
    /* gen --shards N: emit over `parts` sources (NULL: it takes no --shards); part k's output
     * for k >= 1, after outputs: "@_bindings_%.c" (% is k); own_part: whether a file of that
     * name opening with head (its first bytes, NUL-terminated) is one it wrote (gen removes the
     * stale parts an earlier run with more left, only those) */
    void (*emit_parts)(const fkcg_plan *p, size_t parts, fkcg_buf *const outs[]);
    const char *part_output;
    bool (*own_part)(const char *name, const char *head);
    /* gen --emit-stubs FILE: the skeleton of what the generated code calls (NULL: none) */
    void (*stubs)(const fkcg_table *t, const char *prefix, fkcg_buf *out);
} fkcg_backend;

extern const fkcg_backend fkcg_backend_c, fkcg_backend_rust, fkcg_backend_json;
/* The back end of that name, or NULL; fkcg_backend_names: "c, rust or json", for messages
 * (can_split: only those with emit_parts; can_stub: only those with stubs). The default
 * back end (gen without --lang) is the table's first. */
const fkcg_backend *fkcg_backend_find(const char *name);
const char *fkcg_backend_names(void);
const char *fkcg_backend_names_that(bool can_split, bool can_stub);
const fkcg_backend *fkcg_backend_default(void);
size_t fkcg_backend_count(const fkcg_backend *be); /* its outputs */
/* One run of a back end on a table: the plan, its checks, then (when they found nothing and
 * outs is not NULL) its outputs; parts > 1 (gen --shards, at most FKCG_MAX_SHARDS) through
 * its emit_parts. Returns the number of errors reported through d. */
size_t fkcg_backend_run_parts(const fkcg_backend *be, const fkcg_table *t, const char *prefix,
                              size_t parts, struct fkcg_diag *d, fkcg_buf *const outs[]);
size_t fkcg_backend_run(const fkcg_backend *be, const fkcg_table *t, const char *prefix,
                        struct fkcg_diag *d, fkcg_buf *const outs[]);

/* The C back end's other output (`gen --emit-stubs`, its stubs): the C skeleton of every
 * byte-width wrapper the table binds, one function per <kernel>_b<width> with the op's
 * signature, returning FKC_ERR_UNSUPPORTED until its TODO is done. For a table the C checks
 * accepted. */
void fkcg_emit_stubs(const fkcg_table *table, const char *prefix, fkcg_buf *out);

/* The tests' entry points (tests/gen): a back end on a hand-built table with a sink of its own
 * over diag (no contract text, so no quoted line). */
size_t fkcg_emit_c_check(const fkcg_table *table, FILE *diag);
size_t fkcg_emit_rust_check(const fkcg_table *table, FILE *diag);
size_t fkcg_emit_rust_checked(const fkcg_table *table, struct fkcg_diag *d, fkcg_buf *out);
void fkcg_emit_rust(const fkcg_table *table, fkcg_buf *out);
void fkcg_emit_c_prefixed(const fkcg_table *table, const char *prefix, fkcg_buf *header,
                          fkcg_buf *source);
/* Whether s is a Rust keyword (strict, reserved, or reserved by a later edition): such a name
 * is written r#s. */
bool fkcg_rust_keyword(const char *s);

/* ---- cli/udiff.c: the unified diff of `gen --check` ---- */

/* Appends to out a unified diff (3 lines of context) turning old into new, with the
 * labels a_label / b_label. Appends nothing when the texts are equal. */
void fkcg_unified_diff(const char *a_label, const char *old_text, size_t old_len,
                       const char *b_label, const char *new_text, size_t new_len, fkcg_buf *out);

#endif /* FKCG_BACK_H */
