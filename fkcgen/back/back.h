/* emit.h — private to fkcgen's C back end: the plan (emit_plan.c), the checks
 * (emit_check.c), the printers (emit_c.c), the unified diff (emit_diff.c) and the `gen`
 * subcommand (emit_main.c). fkcgen.h holds the public part (fkcg_emit_c). */
#ifndef FKCG_EMIT_H
#define FKCG_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "buf.h"
#include "config.h"
#include "model.h"

/* Names of the two generated files, relative to the output directory, for the default
 * prefix; with `--prefix NAME` they are NAME_bindings.h and NAME_bindings.c. */
#define FKCG_EMIT_HEADER "fkc_bindings.h"
#define FKCG_EMIT_SOURCE "fkc_bindings.c"
/* The macro the header defines to its pair hash (XXH3-64 of the header without that line);
 * the source refuses to compile unless it holds the value it was generated with. */
#define FKCG_PAIR_HASH_MACRO "@@_BINDINGS_PAIR_HASH" /* a template: @@ is the prefix, upper-case */
#define FKCG_EMIT_PREFIX "fkc"     /* the default prefix of the generated names */
#define FKCG_PREFIX_MAX 32         /* longest prefix */
/* The fkc runtime interface (FKC_RUNTIME_ABI of runtime/include/fkc/fkc_kernels.h) the
 * generated code is written for: its header refuses to compile against another. */
#define FKCG_RUNTIME_ABI 1


/* ---- vocabularies (emit_plan.c) ---- */

/* Byte classes of the names and texts the back end prints, as a table (one look-up per byte:
 * 10,000 sections are 75 MiB of output, nearly every byte of it tested). ASCII only, so the
 * locale never changes the output. */
enum {
    FKCG_BC_ALNUM = 1,        /* [A-Za-z0-9] */
    FKCG_BC_IDENT = 2,        /* [A-Za-z0-9_]: inside a C identifier */
    FKCG_BC_IDENT_START = 4,  /* [A-Za-z_]: first byte of a C identifier */
    FKCG_BC_CSTR = 8,         /* printable ASCII but " \ ?: as is in a C string literal */
    FKCG_BC_COMMENT = 16,     /* printable ASCII but \ / * ?: as is in a comment */
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

/* The schema enums the binding table uses. UNKNOWN (0) is added where a contract may be
 * silent (the unknown-cost sentinel). */
typedef struct fkcg_enum_spec {
    const char *schema;   /* the schema's enum name */
    const char *ctype;    /* C type name, a template of put_tpl ("@_determinism") */
    const char *prefix;   /* enumerator prefix, a template ("@@_DETERMINISM_") */
    bool with_unknown;    /* add <PREFIX>UNKNOWN = 0 */
} fkcg_enum_spec;

enum { FKCG_EN_DETERMINISM, FKCG_EN_PROVENANCE, FKCG_EN_COST_CLASS, FKCG_EN_STRATEGY,
       FKCG_EN_LAYOUT_RULE, FKCG_EN_GUARANTEE, FKCG_EN_ALIASING, FKCG_EN_COUNT };
extern const fkcg_enum_spec fkcg_enum_specs[FKCG_EN_COUNT];

/* NULL when name is usable as `--prefix`: a C identifier of lower-case letters, digits and
 * '_' starting with a letter, at most FKCG_PREFIX_MAX bytes, no "__" nor trailing '_', not a
 * C keyword nor a name the C library reserves as a prefix (str..., mem..., is..., to...,
 * atomic_...), nor fkc_... (the runtime's: only "fkc" itself). Otherwise why not. */
const char *fkcg_prefix_problem(const char *name);

/* ---- the plan: what to emit (emit_plan.c) ---- */

typedef struct fkcg_op_info {
    const char *name;          /* "WriteSlice" */
    bool runtime;              /* a section binds a runtime kernel: its params are the runtime's */
    char *snake;               /* "write_slice" */
    char *upper;               /* "WRITE_SLICE" */
    const fkcg_section *sig;   /* first section of this op kind: its signature */
    const fkcg_section *cost;  /* first section stating a known cost: the shared cost */
    size_t cost_sec;           /* its index */
} fkcg_op_info;

/* A row of the link registry: a binding, and its index in the binding table. */
typedef struct fkcg_link_row {
    const fkcg_binding *b;
    const char *symbol;        /* b->symbol, or "" (here, so that sorting reads this array) */
    size_t index;
} fkcg_link_row;

typedef struct fkcg_plan {
    const fkcg_table *t;
    const char *prefix;        /* of the generated names, "fkc" by default */
    bool *sec_runtime;         /* each section: a runtime kernel (fkcg_runtime_kernel_find) */
    fkcg_op_info *ops;         /* distinct op kinds, sorted by name */
    size_t n_ops;
    size_t *sec_op;            /* op index of each section */
    size_t *bind_sec;          /* section index of each binding */
    fkcg_link_row *links;      /* bindings sorted by symbol (strcmp) */
    const char **registries;   /* distinct link_registry names, sorted */
    size_t n_registries;
} fkcg_plan;

/* prefix: of the generated names (NULL: FKCG_EMIT_PREFIX); checked by fkcg_prefix_problem. */
void fkcg_plan_init(fkcg_plan *p, const fkcg_table *t, const char *prefix);
void fkcg_plan_free(fkcg_plan *p);
/* Index of a link_registry name in p->registries (0 when absent). */
size_t fkcg_plan_registry(const fkcg_plan *p, const char *name);
/* s, or "" for NULL: the plan is built before the checks report missing names. */
const char *fkcg_nz(const char *s);
/* qsort, skipped when the rows are in order already: the binding table comes sorted by op
 * kind and kernel, which the link and dispatch orders mostly follow. */
void fkcg_sort_rows(void *rows, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* calloc that exits on out-of-memory (as the rest of the generator). */
void *fkcg_xcalloc(size_t n, size_t size);

/* ---- checks (emit_check.c) ---- */

struct fkcg_diag; /* diag.c's sink (internal.h): the checks report through it */

/* True, with a message, when the table binds nothing (C has no empty arrays). */
bool fkcg_emit_empty(const fkcg_table *t, struct fkcg_diag *d);
/* Every check on a plan; each problem is reported through d (diag.c) as
 * `file:line:col: error: ...`. Returns the number found. */
size_t fkcg_plan_check(const fkcg_plan *p, struct fkcg_diag *d);
/* A back end's report: `<what> '<value>' <why>` at loc, through d. */
void fkcg_emit_report(struct fkcg_diag *d, fkcg_loc loc, const char *what, const char *value,
                      const char *why);
/* The note after such a report: the other place involved ("first bound here"), through d. */
void fkcg_emit_note(struct fkcg_diag *d, fkcg_loc loc, const char *what);

/* Checks, before anything is emitted, every contract string that becomes a C identifier
 * (kernel, op kind, inputs, outputs, op_params fields, entry_point), the field kinds, the
 * agreement of the sections of one op kind and the uniqueness of every generated name.
 * Returns the number of problems reported. */
size_t fkcg_emit_c_check(const fkcg_table *table, FILE *diag);
/* The same checks, for the generated names of `prefix` (NULL: the default). */
size_t fkcg_emit_c_check_prefixed(const fkcg_table *table, const char *prefix, FILE *diag);

/* ---- printing (emit_c.c) ---- */

/* fkcg_emit_c_check, then fkcg_emit_c when it found nothing, on one shared plan (what
 * `fkcgen gen` runs), reporting through d: gen passes its run's sink (fkcg_run_diag), so
 * the messages quote the contract's line. Returns the number of errors; nothing is appended
 * when there are any. header and source NULL: the checks alone. */
size_t fkcg_emit_c_checked(const fkcg_table *table, const char *prefix, struct fkcg_diag *d,
                           fkcg_buf *header, fkcg_buf *source);
/* fkcg_emit_c with the generated names of `prefix` (NULL: the default). */
void fkcg_emit_c_prefixed(const fkcg_table *table, const char *prefix, fkcg_buf *header,
                          fkcg_buf *source);

/* The C skeleton of every byte-width wrapper the table binds (`gen --emit-stubs`): one
 * function per <kernel>_b<width> with the op's signature, returning FKC_ERR_UNSUPPORTED until
 * its TODO is done. Assumes a table fkcg_emit_c_checked accepted. */
void fkcg_emit_stubs(const fkcg_table *table, const char *prefix, fkcg_buf *out);

/* ---- emit_diff.c ---- */

/* Appends to out a unified diff (3 lines of context) turning old into new, with the
 * labels a_label / b_label. Appends nothing when the texts are equal. */
void fkcg_unified_diff(const char *a_label, const char *old_text, size_t old_len,
                       const char *b_label, const char *new_text, size_t new_len, fkcg_buf *out);

#endif /* FKCG_EMIT_H */
