/* internal.h — what fkcgen's passes share privately (never included by the back ends' users):
 * the arena, the diagnostics sink, the loaded document, the YAML node tree and the schema table.
 * One section per pass, in pipeline order: load → yaml → shape → validate → bind. */
#ifndef FKCG_INTERNAL_H
#define FKCG_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "config.h"
#include "model.h"

#if defined(__GNUC__)
#define FKCG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FKCG_PRINTF(a, b)
#endif

/* ---- arena.c: memory by lifetime — everything of a run is freed at once ---- */
typedef struct fkcg_arena {
    struct arena_chunk *head;
} fkcg_arena;
void *fkcg_alloc(fkcg_arena *a, size_t n);       /* zeroed; exits on OOM */
void *fkcg_alloc_raw(fkcg_arena *a, size_t n);   /* not zeroed: for bytes overwritten */
char *fkcg_alloc_chars(fkcg_arena *a, size_t n); /* n bytes for text: packed, unaligned */
char *fkcg_strndup(fkcg_arena *a, const char *s, size_t n);
char *fkcg_strdup(fkcg_arena *a, const char *s);
char *fkcg_sprintf(fkcg_arena *a, const char *fmt, ...) FKCG_PRINTF(2, 3);
void fkcg_arena_free(fkcg_arena *a);
/* Frees all but the newest chunk and empties it: a scratch arena reused per section. */
void fkcg_arena_reset(fkcg_arena *a);

/* ---- diag.c: GNU-format diagnostics through a sink, with source line and caret ---- */
typedef struct fkcg_diag fkcg_diag;
fkcg_diag *fkcg_diag_new(FILE *out); /* out NULL: errors are counted, not printed */
void fkcg_diag_free(fkcg_diag *d);
/* Registers a file's text (normalised: no BOM, no CR) so messages can quote its lines. */
void fkcg_diag_source(fkcg_diag *d, const char *file, const char *text, size_t len);
/* Gives the text registered last for file its line index (line_off[i]: start of line i,
 * 0-based; line_off[n_lines]: one past the end + 1), so quoting a line needs no scan. */
void fkcg_diag_source_lines(fkcg_diag *d, const char *file, const size_t *line_off, size_t n_lines);
/* Keeps a copy of the line at loc of its file's registered text, to quote once it is dropped. */
void fkcg_diag_keep_line(fkcg_diag *d, const fkcg_loc *loc);
/* Forgets the text of the file registered last (it is about to be freed): from then on only
 * its kept lines are quoted. */
void fkcg_diag_drop_source(fkcg_diag *d, const char *file);
/* loc NULL: "fkcgen: error: ..."; loc->line 0: "file: error: ...". */
void fkcg_error(fkcg_diag *d, const fkcg_loc *loc, const char *fmt, ...) FKCG_PRINTF(3, 4);
/* fkcg_error with a va_list: for each pass's variadic `fail` helper. */
void fkcg_verror(fkcg_diag *d, const fkcg_loc *loc, const char *fmt, va_list ap) FKCG_PRINTF(3, 0);
/* A second location for the error just reported ("first defined here"). */
void fkcg_note(fkcg_diag *d, const fkcg_loc *loc, const char *fmt, ...) FKCG_PRINTF(3, 4);
size_t fkcg_diag_errors(const fkcg_diag *d);
/* A message of another kind ("warning", or a report's own "error" and "note" lines: fkcgen
 * diff), in the same form, quote included; neither counted as an error nor capped. */
void fkcg_diag_print(fkcg_diag *d, const fkcg_loc *loc, const char *kind, const char *fmt, ...)
    FKCG_PRINTF(4, 5);
/* The sink of a run (run.c): it holds the contracts' lines, so the back ends' checks report
 * through it with the quoted line and caret, under the run's cap, like the front end. */
struct fkcg_run;
fkcg_diag *fkcg_run_diag(struct fkcg_run *run);
/* A message with no source location (a usage or I/O error) on stderr: "cmd: " then the text
 * with control characters escaped as in every message (a path or argument cannot carry them),
 * a newline, then tail (a usage text, or NULL) as it is; built in memory, one write. */
void fkcg_cli_error(const char *cmd, const char *tail, const char *fmt, ...) FKCG_PRINTF(3, 4);

/* ---- front/select.c: `gen --select FILE` ---- */
/* Reads the selection at path (`OpKind` or `OpKind: DTYPE, ...` a line) and, when every name in
 * it matches, fills *out with t cut down to the bindings it selects and the sections that hold
 * one (arrays of its own: fkcg_select_free). Returns 0, 1 after errors reported through d at
 * the file's line:col, 2 when the file cannot be read (reported); then *out is empty. */
int fkcg_select(const fkcg_table *t, const char *path, fkcg_diag *d, fkcg_table *out);
void fkcg_select_free(fkcg_table *out);

/* The texts a run kept (fkcg_run_keep_sources), in the order it read them: a report quotes
 * their lines through a sink of its own (fkcgen diff quotes two runs' files). */
typedef struct fkcg_source {
    const char *file; /* the path (or name) the run read it under */
    const char *text; /* normalised, as load.c left it; in the run's arena */
    size_t len;
} fkcg_source;
size_t fkcg_run_kept(const struct fkcg_run *run, const fkcg_source **out);

/* ---- load.c: raw byte checks, front matter, cmark, ```fkc blocks ---- */
typedef struct fkcg_chunk { /* one YAML region of a .md file */
    const char *text;       /* the YAML text (fence indentation stripped): len bytes, not
                                 * NUL-terminated (without indentation, the file's own bytes) */
    size_t len;
    const size_t *line_off;    /* start of each line in text */
    const uint32_t *strip;     /* bytes stripped from each line (fence indentation) */
    const uint32_t *ascii_len; /* bytes of line i before its first non-ASCII one: character
                                 * columns are byte columns up to there */
    size_t n_lines;
    uint32_t first_line; /* .md line of text's line 0 */
    const char *file;
    const char *heading; /* the heading that introduces the block, or NULL */
    const char *prose;   /* its paragraphs' text (one line each), or NULL */
    fkcg_loc loc;        /* first content line */
} fkcg_chunk;

typedef struct fkcg_doc {
    const char *file; /* as given */
    const char *text; /* normalised text */
    size_t len;
    fkcg_chunk front;   /* the front matter */
    fkcg_chunk *blocks; /* the ```fkc blocks, in file order */
    size_t n_blocks;
} fkcg_doc;

/* Returns 0, 1 (contract error reported) or 2 (I/O error reported). a holds what outlives the
 * file (the headings); tmp the text (registered with d for quoting), the line index, the chunks
 * and their line maps, which the caller drops once the file is read (35 MB that need not stay
 * for 10,000 sections). */
int fkcg_load(fkcg_arena *a, fkcg_arena *tmp, fkcg_diag *d, const char *path, fkcg_doc *doc);
/* The same over bytes already in memory (text: len bytes + 1 writable, in tmp). */
int fkcg_load_bytes(fkcg_arena *a, fkcg_arena *tmp, fkcg_diag *d, const char *path, char *text,
                    size_t len, fkcg_doc *doc);
/* Maps a 0-based (line, char column) of a chunk to a .md location. */
fkcg_loc fkcg_chunk_loc(const fkcg_chunk *c, size_t line, size_t col);

/* ---- ytree.c: libyaml events → a small node tree with .md locations ---- */
typedef enum { YN_SCALAR, YN_MAP, YN_SEQ } yn_kind;
typedef struct ynode {
    yn_kind kind;
    fkcg_loc loc;    /* start of the node (for a map value: of the value) */
    const char *str; /* scalar value, NUL-terminated */
    size_t len;
    bool plain;                /* scalar written without quotes */
    bool is_null;              /* plain empty, ~ or null */
    int val_col;               /* columns from loc to the value's first byte; -1: not exact */
    bool flow;                 /* {..} or [..] */
    struct ynode *key;         /* map entries: the key scalar */
    struct ynode *kids, *last; /* map values (with .key) or sequence items */
    struct ynode *next;
    size_t n;
    const struct fkcg_schema *schema; /* set by shape for maps */
    const struct fkcg_key *skey;      /* set by shape: this value's key in its map's schema */
} ynode;
/* Parses one chunk; NULL after reporting an error. The root is a mapping. */
ynode *fkcg_yaml_parse(fkcg_arena *a, fkcg_diag *d, const fkcg_chunk *c);
ynode *fkcg_ynode_new(fkcg_arena *a, yn_kind kind, fkcg_loc loc);
void fkcg_ynode_append(ynode *parent, ynode *kid);
ynode *fkcg_map_get(const ynode *map, const char *key);

/* ---- schema.c: the contract schema, written once ---- */
typedef enum fkcg_type {
    FT_STRING,   /* any scalar text */
    FT_IDENT,    /* a C identifier */
    FT_UINT,     /* unsigned decimal integer */
    FT_FLOAT,    /* non-negative decimal number */
    FT_ULP,      /* non-negative decimal, exact: integer part to 2^64-1, up to 9 decimals */
    FT_BOOL,     /* true / false */
    FT_ENUM,     /* one value of .enum_name */
    FT_ENUMSEQ,  /* non-empty sequence of distinct .enum_name values */
    FT_RANK,     /* "any" or an unsigned integer */
    FT_CALL,     /* fn(arg): fn one value of .enum_name, arg an identifier */
    FT_EXPR,     /* a cost expression */
    FT_HASH,     /* "auto" or 32 lower-case hex digits */
    FT_PATH,     /* a::b::c, each segment a C identifier */
    FT_MAP,      /* a mapping of .child */
    FT_SEQMAP,   /* a non-empty sequence of mappings of .child */
    FT_FREEMAP,  /* a mapping from identifiers to mappings of .child */
    FT_NAMESEQ,  /* a non-empty sequence of distinct identifiers */
    FT_TUPLES,   /* a non-empty sequence of dtype lists ([F32, F16]) */
    FT_IDENTSEQ, /* a non-empty sequence of distinct C identifiers (an enum field's values) */
    FT_SCALAR    /* one plain scalar, checked by its owner (a field's default, by its kind) */
} fkcg_type;

typedef struct fkcg_key {
    const char *name;
    fkcg_type type;
    bool required;
    const char *enum_name;           /* FT_ENUM, FT_ENUMSEQ, FT_CALL */
    const struct fkcg_schema *child; /* FT_MAP, FT_SEQMAP, FT_FREEMAP (the entry) */
    const char *doc;                 /* one line for docs/contract-format.md */
} fkcg_key;

typedef struct fkcg_schema {
    const char *path; /* "accept.inputs[]" — used in messages */
    const fkcg_key *keys;
    size_t n_keys;
    bool freeform;                   /* keys are names chosen by the contract (FT_FREEMAP) */
    const struct fkcg_schema *entry; /* freeform: the schema of every entry */
} fkcg_schema;

extern const fkcg_schema fkcg_schema_front;   /* the front matter */
extern const fkcg_schema fkcg_schema_section; /* one ```fkc block */
const fkcg_key *fkcg_schema_key(const fkcg_schema *s, const char *name);
/* The one of names[0..n) closest to name: one that differs only in case, else the nearest by
 * edit distance, or NULL when none is close (did-you-mean for keys, values and options). */
const char *fkcg_suggest(const char *const *names, size_t n, const char *name);
/* The schema key closest to name (fkcg_suggest), or NULL when none is close. */
const char *fkcg_schema_suggest(const fkcg_schema *s, const char *name);
const char *fkcg_enum_suggest(const fkcg_enum *e, const char *value);
/* "a, b or c": the keys of s, for messages. */
void fkcg_schema_key_list(const fkcg_schema *s, fkcg_buf *out);
const char *fkcg_type_name(fkcg_type t);
/* The closed vocabularies, in table order (for the docs page); returns their number. */
size_t fkcg_enums_all(const fkcg_enum **out);
/* docs/contract-format.md: the template fkcgen/contract-format.md.in filled from the tables
 * (schema_doc.c). */
void fkcg_schema_markdown(fkcg_buf *out);
/* Every mapping schema reachable from the two roots (for tests). */
size_t fkcg_schema_all(const fkcg_schema **out, size_t cap);

/* ---- shape.c: re-nests flattened YAML by the schema ---- */
/* Returns the canonical nested tree (maps carry their schema); reports unknown and duplicate
 * keys. owner: the location to report missing keys of the root at. */
ynode *fkcg_shape(fkcg_arena *a, fkcg_diag *d, const ynode *root, const fkcg_schema *s);

/* ---- where.c: the place of every key of a shaped tree (for runs that keep their sources) ---- */
/* Paths name keys as the canonical nested form does: "precision.max_ulp",
 * "accept.inputs[0].dtypes[2]", "accept.op_params.fields.len.kind". A scalar's place is its
 * value's, a flow mapping's or list's its opening bracket, a block one's its key. */
typedef struct fkcg_where fkcg_where;
const fkcg_where *fkcg_where_record(fkcg_arena *a, const ynode *root);
/* The place of path, or NULL when the tree has no such key (w may be NULL). */
const fkcg_loc *fkcg_where_find(const fkcg_where *w, const char *path);

/* ---- expr.c: cost expressions ---- */
/* Parses src (a scalar at loc, whose text starts val_col columns after loc.col, -1 unknown).
 * fields: op_params field names usable as variables (n_fields of them); NULL after an error. */
fkcg_expr *fkcg_expr_parse(fkcg_arena *a, fkcg_diag *d, const char *src, fkcg_loc loc, int val_col,
                           const fkcg_field *fields, size_t n_fields, const fkcg_section *sec);
void fkcg_expr_print(const fkcg_expr *e, fkcg_buf *out); /* canonical, fully parenthesised */
/* n and dtype_bytes: a cost expression's own variables, names no op_params field may take. */
bool fkcg_expr_is_variable(const char *name);

/* ---- dump.c ---- */
/* s as a JSON string ("null" for NULL): the JSON printers' one escape gate. */
void fkcg_json_str(fkcg_buf *out, const char *s);

/* ---- validate.c: shaped tree → model ---- */
/* NULL when the front matter has errors (reported). */
fkcg_provider *fkcg_validate_provider(fkcg_arena *a, fkcg_diag *d, const ynode *front,
                                      const fkcg_chunk *c);
/* The section; s->invalid when it has errors (reported): then only its kernel name (when
 * s->kernel_loc has a line) is to be used, by fkcg_bind's duplicate-kernel check. */
fkcg_section *fkcg_validate_section(fkcg_arena *a, fkcg_diag *d, const ynode *root,
                                    const fkcg_chunk *c, const fkcg_provider *p);

/* ---- bind.c: sections → sorted binding table, cross-file checks, revision hashes ---- */
/* Canonical serialisation of a section's data (what `auto` hashes). */
void fkcg_section_canonical(const fkcg_section *s, fkcg_buf *out);
/* Resolves `kernel_revision_hash: auto` of s: XXH3-128 of its canonical form and its
 * provider's revision_base. scratch: a buffer reused from call to call. The run calls it as
 * each section is validated, while the section is still in cache; fkcg_bind resolves any left. */
void fkcg_resolve_revision(fkcg_arena *a, fkcg_section *s, fkcg_buf *scratch);
/* 32 lower-case hex digits of XXH3-128(data), in a. */
const char *fkcg_hash_hex(fkcg_arena *a, const void *data, size_t len);
/* Returns the number of errors found (duplicates). */
/* sections may hold invalid ones (s->invalid) that have a kernel name (s->kernel_loc): their
 * names are checked for duplicates with the others' (an error of its own), then they are left
 * out of the table. */
size_t fkcg_bind(fkcg_arena *a, fkcg_diag *d, fkcg_section **sections, size_t n_sections,
                 fkcg_provider **providers, size_t n_providers, fkcg_table *out);

#endif /* FKCG_INTERNAL_H */
