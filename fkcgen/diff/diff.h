/* diff.h — what `fkcgen diff`'s files share (private): the rule table, written once, and the
 * changes found between two revisions of a set of contracts. compare.c compares two binding
 * tables, allow.c reads an allow file and applies it, git.c reads a revision through
 * git, cli/diff.c is the command line and the report (text and JSON). */
#ifndef FKCG_DIFF_H
#define FKCG_DIFF_H

#include <string.h>

#include "internal.h"

/* The rules, ONE table: each change fkcgen diff reports is one row's. Per rule: its stable ID
 * (never renamed: allow files and CI scripts name it), its class, what it flags (the docs'
 * table) and why it has that class. It drives the checks' output, --json, `fkcgen diff
 * --rules` and the table in docs/fkcgen.md (a test fails when that table is stale). Order:
 * the docs' and the report's tie-break. A rule whose class depends on a direction is two rows
 * (LOOSENED / TIGHTENED): a row's class never changes. */
/* clang-format off */
#define FKCG_DIFF_RULES(X)                                                                        \
    X(BACKEND_REMOVED, BREAKING, "no binding registers on a backend any more",                  \
      "every caller on that backend loses its kernels")                                          \
    X(BACKEND_ADDED, COMPATIBLE, "bindings register on a backend that had none",                \
      "nothing that worked stops working")                                                       \
    X(KERNEL_REMOVED, BREAKING, "a kernel removed, and its bindings with it",                    \
      "its binding keys are no longer registered")                                               \
    X(KERNEL_ADDED, COMPATIBLE, "a kernel added, with new binding keys", "new keys only")        \
    X(DTYPE_REMOVED, BREAKING, "a dtype removed from an input's dtypes",                        \
      "from the first input: that binding is gone; from another: the kernel refuses a dtype "   \
      "it took")                                                                                 \
    X(DTYPE_ADDED, COMPATIBLE, "a dtype added to an input's dtypes",                            \
      "a new binding, or one more dtype taken")                                                 \
    X(DTYPES_REORDERED, INFORMATIONAL, "an input's dtypes listed in another order",            \
      "no key changes; the generated tables follow the new order")                             \
    X(BINDING_REMOVED, BREAKING, "a kernel no longer binds a key it bound",                     \
      "its op_kind, backend or kernel_source changed: the old key is not registered")           \
    X(BINDING_ADDED, COMPATIBLE, "a kernel binds a key it did not", "new keys only")            \
    X(COMBINATION_REMOVED, BREAKING, "a dtype combination of a key over several tensors "        \
      "removed", "that key is not registered any more")                                          \
    X(COMBINATION_ADDED, COMPATIBLE, "a dtype combination of a key over several tensors added", \
      "a new key only")                                                                         \
    X(KEY_CHANGED, BREAKING, "the tensors a section's key is made of changed",                  \
      "every key it registers has other slots: callers' lookups miss")                          \
    X(FANOUT_CHANGED, BREAKING, "a section's fanout changed",                                    \
      "its wrappers are named by byte widths instead of dtypes, or the other way")              \
    X(KERNEL_MOVED, INFORMATIONAL, "a kernel's bindings moved to another contract file",       \
      "same keys, symbols and registry; only the generated code's contract paths change")      \
    X(WRAPPER_RENAMED, BREAKING, "a binding's kernel renamed: its wrappers `<kernel>_b<width>` " \
      "are renamed", "code that defines or calls the old wrapper symbols no longer links")     \
    X(ENTRY_POINT_RENAMED, BREAKING, "an entry_point renamed: its symbols "                     \
      "`<entry_point>_<suffix>` are renamed", "the link registry no longer has the old symbols")\
    X(BLOCK_DTYPE_CHANGED, BREAKING, "a block dtype's geometry changed",                         \
      "the same name now means other elements or bytes per block: every buffer of it is read "  \
      "otherwise")                                                                               \
    X(LINK_REGISTRY_RENAMED, BREAKING, "a provider's link_registry renamed",                    \
      "the backend links the registry by that name")                                             \
    X(INPUT_RENAMED, INFORMATIONAL, "an input renamed",                                          \
      "tensors are positional parameters: no call changes")                                      \
    X(OUTPUT_RENAMED, INFORMATIONAL, "an output renamed",                                        \
      "tensors are positional parameters: no call changes")                                      \
    X(INPUT_ADDED, BREAKING, "an input added", "the kernel's C signature takes one more tensor") \
    X(INPUT_REMOVED, BREAKING, "an input removed", "the kernel's C signature takes one tensor "  \
      "fewer")                                                                                   \
    X(OUTPUT_ADDED, BREAKING, "an output added", "the kernel's C signature takes one more "     \
      "tensor")                                                                                  \
    X(OUTPUT_REMOVED, BREAKING, "an output removed", "the kernel's C signature takes one "      \
      "tensor fewer")                                                                            \
    X(OP_PARAMS_VARIANT_CHANGED, BREAKING, "the op_params variant changed, added or removed",   \
      "callers build the params of that variant")                                               \
    X(OP_PARAM_ADDED, BREAKING, "an op_params field added",                                      \
      "every caller must now set it (or take its default) and rebuild: the params struct "     \
      "changes")                                                                                 \
    X(OP_PARAM_REMOVED, BREAKING, "an op_params field removed",                                  \
      "callers that set it no longer compile")                                                   \
    X(OP_PARAM_KIND_CHANGED, BREAKING, "an op_params field of another kind",                     \
      "the field's C and Rust type changes")                                                     \
    X(OP_PARAMS_REORDERED, BREAKING, "op_params fields in another order",                        \
      "the field order is the parameter order: the params struct's layout changes")             \
    X(ENUM_VALUE_ADDED, COMPATIBLE, "a value added to an enum field",                           \
      "the values callers pass keep their numbers and meaning")                                \
    X(ENUM_VALUE_REMOVED, BREAKING, "a value removed from an enum field",                       \
      "callers passing it no longer compile (C, Rust) or pass a number the kernel does not "    \
      "know")                                                                                    \
    X(ENUM_VALUE_RENUMBERED, BREAKING, "an enum field's value numbered otherwise",              \
      "a value inserted before it or the list reordered: compiled callers pass the old "        \
      "number, which now means another value")                                                   \
    X(OP_PARAM_DEFAULT_ADDED, COMPATIBLE, "an op_params field's default added",                 \
      "callers set the field before; they may now leave it unset")                              \
    X(OP_PARAM_DEFAULT_REMOVED, BREAKING, "an op_params field's default removed",               \
      "callers that left the field unset (used `<PREFIX>_<OP>_DEFAULT_<FIELD>`) no longer "    \
      "build")                                                                                   \
    X(OP_PARAM_DEFAULT_CHANGED, BREAKING, "an op_params field's default changed",               \
      "callers relying on the default get another behaviour without changing a line")          \
    X(LAYOUT_TIGHTENED, BREAKING, "an input layout key tightened: a layout it took is "          \
      "refused, or its statement removed",                                                       \
      "`accepted` to `required` or `rejected`, `required` to `rejected` or back, or a stated "  \
      "key dropped: callers passing such inputs are refused")                                   \
    X(LAYOUT_RELAXED, COMPATIBLE, "an input layout key relaxed, or stated where it was not",    \
      "`required` or `rejected` to `accepted`, or a key stated: nothing taken before is "      \
      "refused")                                                                                 \
    X(RANK_NARROWED, BREAKING, "an input's rank narrowed or changed",                            \
      "`any` to a number, or another number: inputs of the old rank are refused")              \
    X(RANK_WIDENED, COMPATIBLE, "an input's rank widened to `any`", "every rank taken before "   \
      "still is")                                                                                \
    X(SHAPE_CONSTRAINT_CHANGED, INFORMATIONAL, "an input's shape_constraint changed",            \
      "free text: a reviewer reads it")                                                          \
    X(SAME_DTYPE_AS_CHANGED, BREAKING, "an input's same_dtype_as stated or changed, and a "     \
      "key bound before breaks it", "the keys where the two dtypes differ are not registered "  \
      "any more (COMBINATION_REMOVED lists them; this rule names the cause)")                   \
    X(SAME_DTYPE_AS_STATED, INFORMATIONAL, "an input's same_dtype_as stated or changed, no "    \
      "key bound before breaking it", "every key bound before is bound still (another "         \
      "exclude had left out the same ones)")                                                     \
    X(SAME_DTYPE_AS_REMOVED, COMPATIBLE, "an input's same_dtype_as removed",                     \
      "its dtype is free of the other tensor's: keys only added (COMBINATION_ADDED lists "      \
      "them)")                                                                                   \
    X(INPUT_MADE_OPTIONAL, COMPATIBLE, "an input made optional",                                \
      "callers that pass it still do; they may now pass NULL")                                 \
    X(INPUT_MADE_REQUIRED, BREAKING, "an optional input made required",                         \
      "callers that left it out (NULL) are refused")                                            \
    X(ABSENT_KEY_CHANGED, BREAKING, "the key of a call without an optional input changed",     \
      "its `absent_key` (or tie) is another: such calls are looked up under another key")      \
    X(INPUT_MADE_SHAPE_ONLY, COMPATIBLE, "an input made shape-only",                           \
      "the kernel no longer reads its data: every call that worked still does")                \
    X(INPUT_DATA_READ, BREAKING, "a shape-only input's data now read",                          \
      "callers that passed it unwritten (only its shape and dtype mattered) get other results") \
    X(VARIADIC_CHANGED, BREAKING, "an input made variadic, or no longer variadic",              \
      "the kernel's C signature takes a pointer array and a count there, or one tensor")       \
    X(OUTPUT_DTYPE_RULE_CHANGED, BREAKING, "an output's dtype_rule changed",                     \
      "the output's dtype is another (an input renamed with its rule is no change)")           \
    X(OUTPUT_SHAPE_RULE_CHANGED, BREAKING, "an output's shape_rule changed",                     \
      "the output's shape is another")                                                           \
    X(OUTPUT_LAYOUT_CHANGED, BREAKING, "an output's layout_guarantee changed",                   \
      "callers read the output by that layout")                                                  \
    X(OUTPUT_ALIASING_CHANGED, BREAKING, "an output's aliasing changed",                         \
      "the output may or must now share memory with an input (or no longer does in place)")    \
    X(OUTPUT_ALIASING_NARROWED, COMPATIBLE, "an output's aliasing narrowed from "               \
      "`may_alias_input` to `none`", "callers ready for aliasing are ready for none")           \
    X(OUTPUT_ALIAS_CHANGED, BREAKING, "an output's named alias added, removed or changed",      \
      "`in_place: <input>` or `out_arg`: callers pass another tensor as the output, or no "    \
      "longer the input's")                                                                      \
    X(CAPS_NARROWED, BREAKING, "caps narrowed",                                                  \
      "`in_place` withdrawn, larger `alignment_bytes` or `access_granularity_bits`, or "        \
      "`awkward_layout_strategy` now `requires_contiguous`: the planner's old plans break")    \
    X(CAPS_WIDENED, COMPATIBLE, "caps widened",                                                  \
      "`in_place` granted, smaller alignment or granularity, or no longer "                     \
      "`requires_contiguous`")                                                                   \
    X(CAPS_CHANGED, INFORMATIONAL, "caps changed otherwise",                                     \
      "a fast path added, removed or of another class; `native_strided` and `contiguize` "     \
      "swapped: hints, no promise")                                                              \
    X(PRECISION_LOOSENED, BREAKING, "precision loosened",                                        \
      "a larger `max_ulp`, `max_relative` or `max_absolute`, or `bit_stable_on_same_hardware` " \
      "or `audited` withdrawn: results callers accepted may now be off")                        \
    X(PRECISION_TIGHTENED, COMPATIBLE, "precision tightened",                                    \
      "smaller error bounds, or a promise added")                                                \
    X(PRECISION_BY_DTYPE_LOOSENED, BREAKING, "a binding's own precision loosened",             \
      "a binding with `precision_by_dtype` figures on either side has a larger bound, a "       \
      "promise withdrawn or another `reference` than before: its callers' results may be off") \
    X(PRECISION_BY_DTYPE_TIGHTENED, COMPATIBLE, "a binding's own precision tightened",         \
      "a binding with `precision_by_dtype` figures on either side has smaller bounds or a "     \
      "promise added, nothing looser")                                                          \
    X(PRECISION_REFERENCE_CHANGED, BREAKING, "what the precision is measured against changed",   \
      "the same bounds now promise against another result")                                      \
    X(CPU_REFERENCE_CHANGED, INFORMATIONAL, "the CPU reference changed, added or removed",        \
      "what conform checks the kernel against; callers call the kernel, not the reference")       \
    X(DETERMINISM_WEAKENED, BREAKING, "determinism weakened",                                    \
      "`bitwise` > `deterministic` > `nondeterministic`: callers that compare runs break")     \
    X(DETERMINISM_STRENGTHENED, COMPATIBLE, "determinism strengthened", "a stronger promise")   \
    X(COST_CHANGED, INFORMATIONAL, "cost changed, added or removed",                             \
      "hints for the planner: no caller breaks")                                                 \
    X(COST_FORM_CHANGED, BREAKING, "a cost expression gained or lost its tensor terms",          \
      "`n(X)`, `dim(X, k)`, `bytes(X)` move it from the binding's (n, dtype_bytes) function (NULL "   \
      "now) to the header's `<prefix>_cost_<kernel>_<key>`(t, count, params), or back: a caller " \
      "of the one it had no longer compiles or gets NULL")                                       \
    X(REVISION_HASH_CHANGED, INFORMATIONAL, "a kernel_revision_hash written out changed",        \
      "caches keyed by it are invalidated; an `auto` hash follows the data, whose changes "     \
      "are reported themselves")                                                                 \
    X(REVISION_BASE_CHANGED, INFORMATIONAL, "a provider's revision_base changed",               \
      "the provider was rebuilt: every `auto` hash of the file changes")                       \
    X(BLOCK_DTYPE_DECLARED, INFORMATIONAL, "a block dtype declared or withdrawn",               \
      "the front matter's list; bindings that name it have their own rules")                     \
    X(PROVIDER_RENAMED, INFORMATIONAL, "a provider's name changed", "a label")                  \
    X(DOC_CHANGED, INFORMATIONAL, "a blurb or a note changed", "free text")
/* clang-format on */

typedef enum fkcg_diff_class {
    FKCG_DIFF_BREAKING,
    FKCG_DIFF_COMPATIBLE,
    FKCG_DIFF_INFORMATIONAL
} fkcg_diff_class;

#define FKCG_DIFF_RULE_ENUM(id, cls, summary, doc) FKCG_R_##id,
typedef enum fkcg_diff_rule_id {
    FKCG_DIFF_RULES(FKCG_DIFF_RULE_ENUM) FKCG_DIFF_NRULES
} fkcg_diff_rule_id;

typedef struct fkcg_diff_rule {
    const char *id; /* "DTYPE_REMOVED" */
    fkcg_diff_class cls;
    const char *summary; /* what it flags */
    const char *doc;     /* why it has its class */
} fkcg_diff_rule;

/* ---- rules.c ---- */
extern const fkcg_diff_rule fkcg_diff_rules[FKCG_DIFF_NRULES];
const char *fkcg_diff_class_name(fkcg_diff_class c); /* "breaking", ... */
/* The rule of that ID, or -1; *hint: the closest ID when there is none (or NULL). */
int fkcg_diff_rule_find(const char *id, const char **hint);
/* The table as Markdown (`fkcgen diff --rules`, the table in docs/fkcgen.md). */
void fkcg_diff_rules_markdown(fkcg_buf *out);

/* ---- diff.c: two binding tables → changes ---- */
/* A binding key (op_kind, [dtype, dtype], backend) + kernel_source. dtype -1: any (allow
 * entries only: `[*, *]`). */
typedef struct fkcg_dkey {
    const char *op_kind;
    int dtype;
    const char *backend;
    const char *kernel_source;
    /* the whole key (issue 22), by dtype name (block dtypes' codes differ between revisions);
     * n_key 0 (an allow entry): [dtype, dtype] */
    uint32_t n_key;
    const char *names[FKCG_KEY_MAX];
} fkcg_dkey;

/* Whether k is a key of the seed's form [T, T] (printed "(Op, [T, T], ...) for T in ..."). */
static inline bool fkcg_dkey_plain(const fkcg_dkey *k)
{
    return k->n_key == 0 || (k->n_key == 2 && k->dtype >= 0 && k->dtype < FKCG_NDTYPES &&
                             k->names[0] && k->names[1] && !strcmp(k->names[0], k->names[1]));
}

struct fkcg_allow_entry;

typedef struct fkcg_change {
    fkcg_diff_rule_id rule;
    const char *what;          /* the headline: "max_ulp loosened from 0 to 2 in kernel 'x'" */
    const char *was;           /* the note at the old side, or NULL for none */
    fkcg_loc old_loc, new_loc; /* file NULL: the side has nothing to point at */
    const char *old_kernel, *new_kernel; /* NULL on a side without the kernel */
    const fkcg_dkey *keys;               /* the bindings it concerns, in table order */
    size_t n_keys;
    const struct fkcg_allow_entry *allowed; /* the allow entry that accepts it, or NULL */
} fkcg_change;

typedef struct fkcg_changes {
    fkcg_change *v;
    size_t n, cap;
} fkcg_changes;

/* One revision: its table (complete: loaded with fkcg_run_keep_sources, so every section and
 * provider has its `where`) and each file's name within the revision (a path under the
 * directory given, or "" for a file given alone): a kernel whose file has another name moved. */
typedef struct fkcg_diff_side {
    const fkcg_table *table;
    const char *const *files; /* the names the run read them under */
    const char *const *names; /* their names within the revision, parallel to files */
    size_t n_files;
} fkcg_diff_side;

/* Appends the changes from old to new to out, sorted by where they are (the new side's place,
 * else the old side's), then by rule. 0, or 2 after reporting an internal inconsistency. */
int fkcg_diff_tables(fkcg_arena *a, const fkcg_diff_side *old, const fkcg_diff_side *new_,
                     fkcg_changes *out);
void fkcg_change_push(fkcg_arena *a, fkcg_changes *l, const fkcg_change *c);
/* "(Copy, [F32, F32], Vulkan) + vulkan-slang", or for keys that differ only in dtype
 * "(Copy, [T, T], Vulkan) + vulkan-slang for T in F32, U8"; groups joined by "; ". A
 * kernel_source that holds a blank, a quote or a backslash, or is empty, is written quoted. */
void fkcg_dkeys_put(fkcg_buf *out, const fkcg_dkey *keys, size_t n);
void fkcg_dkey_put_source(fkcg_buf *out, const char *kernel_source);

/* ---- allow.c: the allow file ---- */
typedef struct fkcg_allow_entry {
    fkcg_diff_rule_id rule;
    fkcg_dkey key;       /* dtype -1: `[*, *]`, every dtype */
    const char *expires; /* "YYYY-MM-DD", the last day it applies */
    const char *reason;
    fkcg_loc loc, key_loc, date_loc; /* the entry (its rule), its binding, its date */
    bool expired;                    /* set by fkcg_allow_apply */
    size_t used;                     /* bindings of changes it allowed */
} fkcg_allow_entry;

typedef struct fkcg_allow {
    fkcg_allow_entry *v;
    size_t n;
} fkcg_allow;

/* Reads an allow file (docs/fkcgen.md, ## diff): 0, or 2 after reporting its errors (at
 * their line:col) through d. */
int fkcg_allow_read(fkcg_arena *a, fkcg_diag *d, const char *path, fkcg_allow *out);
/* Marks the expired entries (today "YYYY-MM-DD" is past their date), then lets each breaking
 * change whose every binding an unexpired entry of its rule names be allowed; a change only
 * some of whose bindings are named is split in two, the allowed part and the rest. */
void fkcg_allow_apply(fkcg_arena *a, fkcg_allow *allow, const char *today, fkcg_changes *ch);
/* Whether s is a date YYYY-MM-DD of the Gregorian calendar (for --today and the allow file). */
bool fkcg_is_date(const char *s, size_t len);

/* ---- git.c: a revision from git, and the files of a directory ---- */
typedef struct fkcg_file_list {
    const char **paths; /* what a run reads (the path, or for git "REV:path") */
    const char **names; /* the name within the revision (fkcg_diff_side.names) */
    const char **data;  /* git: the bytes; else NULL */
    size_t *lens;
    size_t n, cap;
} fkcg_file_list;

void fkcg_file_list_push(fkcg_arena *a, fkcg_file_list *l, const char *path, const char *name,
                         const char *data, size_t len);
/* The contracts of one operand: a file (its name ""), or the regular *.md files below a
 * directory, in name order (names relative to it; names starting with '.' and symbolic links
 * skipped). 0, or 2 after reporting why not (on stderr, prefixed by cmd). */
int fkcg_list_operand(fkcg_arena *a, const char *cmd, const char *path, fkcg_file_list *out);
/* The files of PATHS (relative paths) in the working tree (new) and at git revision rev (old),
 * the old ones read through `git show`, each side's names comparable. rev "X..." means the
 * merge base of X and HEAD. 0, or 2 after reporting git's error or a bad path. */
int fkcg_git_sides(fkcg_arena *a, const char *cmd, const char *rev, const char *const *paths,
                   size_t n_paths, fkcg_file_list *old, fkcg_file_list *new_);

#endif /* FKCG_DIFF_H */
