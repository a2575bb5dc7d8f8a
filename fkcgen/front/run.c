/* run.c — the library API (fkcgen.h): a run reads every file through the passes in order —
 * load → yaml → shape → validate — then binds all sections together, so duplicates are found
 * across files. The arena owns everything; fkcg_run_free releases it at once. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fkcgen.h"
#include "internal.h"
#include "report.h"

struct fkcg_run {
    fkcg_arena arena;
    fkcg_arena scratch; /* one YAML tree at a time: reset after each block */
    fkcg_arena file;    /* one file's text, line maps and chunks: reset after each
                                  * file (diagnostics keep the lines they may quote later) */
    fkcg_diag *diag;
    fkcg_buf canon; /* the canonical form of one section, for its revision hash */
    char *root;     /* realpath of the root, or NULL */
    fkcg_table table;
    bool keep;         /* keep every file's text and every key's place */
    fkcg_source *kept; /* those texts, in reading order (in the arena) */
    size_t n_kept, cap_kept;
};

fkcg_run *fkcg_run_new(const char *root, FILE *diag)
{
    fkcg_run *run = calloc(1, sizeof *run);
    if (!run)
        fkcg_oom();
    run->diag = fkcg_diag_new(diag);
    fkcg_buf_init(&run->canon);
    run->root = realpath(root ? root : ".", NULL);
    return run;
}

int fkcg_root_check(const char *root)
{
    struct stat st;
    if (stat(root, &st) != 0)
        return errno ? errno : ENOENT;
    return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

void fkcg_run_free(fkcg_run *run)
{
    if (!run)
        return;
    fkcg_diag_free(run->diag);
    fkcg_buf_free(&run->canon);
    fkcg_arena_free(&run->arena);
    fkcg_arena_free(&run->scratch);
    fkcg_arena_free(&run->file);
    free(run->root);
    free(run);
}

const fkcg_table *fkcg_run_table(const fkcg_run *run)
{
    return &run->table;
}

fkcg_diag *fkcg_run_diag(fkcg_run *run)
{
    return run->diag;
}

void fkcg_run_keep_sources(fkcg_run *run)
{
    run->keep = true;
}

size_t fkcg_run_kept(const fkcg_run *run, const fkcg_source **out)
{
    *out = run->kept;
    return run->n_kept;
}

/* Keeps the file's normalised text in the run's arena, registered with the sink in place of
 * the per-file copy load.c registered (dropped here), so any line stays quotable. */
static void keep_text(fkcg_run *run, const fkcg_doc *doc)
{
    char *copy = fkcg_strndup(&run->arena, doc->text, doc->len);
    fkcg_diag_drop_source(run->diag, doc->file);
    fkcg_diag_source(run->diag, doc->file, copy, doc->len);
    if (run->n_kept == run->cap_kept) {
        size_t cap = run->cap_kept ? 2 * run->cap_kept : 16;
        fkcg_source *more = fkcg_alloc(&run->arena, cap * sizeof *more);
        if (run->n_kept)
            memcpy(more, run->kept, run->n_kept * sizeof *more);
        run->kept = more;
        run->cap_kept = cap;
    }
    run->kept[run->n_kept++] = (fkcg_source){doc->file, copy, doc->len};
}

size_t fkcg_run_errors(const fkcg_run *run)
{
    return fkcg_diag_errors(run->diag);
}

/* The path relative to the root when it lies inside it; else as given. */
static const char *rel_path(fkcg_run *run, const char *path)
{
    char *real = realpath(path, NULL);
    const char *out = path;
    size_t n = run->root ? strlen(run->root) : 0;
    if (real && run->root && strncmp(real, run->root, n) == 0 && real[n] == '/')
        out = fkcg_strdup(&run->arena, real + n + 1);
    else if (real && run->root && !strcmp(run->root, "/"))
        out = fkcg_strdup(&run->arena, real + 1);
    free(real);
    while (out[0] == '.' && out[1] == '/')
        out += 2;
    return out;
}

typedef struct list { /* a growable array of pointers in the arena */
    void **items;
    size_t n, cap;
} list;

static void push(fkcg_arena *a, list *l, void *item)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        void **more = fkcg_alloc(a, cap * sizeof *more);
        if (l->n)
            memcpy(more, l->items, l->n * sizeof *more);
        l->items = more;
        l->cap = cap;
    }
    l->items[l->n++] = item;
}

/* One file (read from path, or the bytes given) through load → yaml → shape → validate.
 * Returns the load status (0, 1, 2). */
static int read_one(fkcg_run *run, const char *path, const char *data, size_t len, list *providers,
                    list *sections)
{
    fkcg_arena *a = &run->arena;
    fkcg_diag *d = run->diag;
    fkcg_doc doc;
    int rc;
    fkcg_diag_rule(d, FKCG_RULE_LOAD, NULL); /* each pass's class (report.h) */
    if (data && len > FKCG_MAX_FILE_BYTES)
        rc = fkcg_load_bytes(a, &run->file, d, path, NULL, len, &doc); /* reports the size */
    else if (data)
        rc = fkcg_load_bytes(a, &run->file, d, path, fkcg_strndup(&run->file, data, len), len,
                             &doc);
    else
        rc = fkcg_load(a, &run->file, d, path, &doc);
    if (run->keep && doc.text)
        keep_text(run, &doc);
    if (rc == 2 || (rc == 1 && !doc.front.text))
        return rc;
    fkcg_arena *t = &run->scratch; /* the trees; validate copies what the model keeps */
    fkcg_provider *p = NULL;
    fkcg_diag_rule(d, FKCG_RULE_YAML, NULL);
    ynode *front = fkcg_yaml_parse(t, d, &doc.front), *shaped = NULL;
    if (front) {
        fkcg_diag_rule(d, FKCG_RULE_SCHEMA, NULL);
        shaped = fkcg_shape(t, d, front, &fkcg_schema_front);
        fkcg_diag_rule(d, FKCG_RULE_CONTRACT, NULL);
        p = fkcg_validate_provider(a, d, shaped, &doc.front);
    }
    if (p && run->keep)
        p->where = fkcg_where_record(a, shaped);
    fkcg_arena_reset(t);
    if (p) {
        p->rel_file = rel_path(run, path);
        p->text_hash = fkcg_hash_hex(a, doc.text, doc.len);
        push(a, providers, p);
    }
    for (size_t i = 0; i < doc.n_blocks; i++) {
        fkcg_diag_rule(d, FKCG_RULE_YAML, NULL);
        ynode *tree = fkcg_yaml_parse(t, d, &doc.blocks[i]);
        fkcg_section *s = NULL;
        if (tree) {
            fkcg_diag_rule(d, FKCG_RULE_SCHEMA, NULL);
            shaped = fkcg_shape(t, d, tree, &fkcg_schema_section);
            fkcg_diag_rule(d, FKCG_RULE_CONTRACT, NULL);
            s = fkcg_validate_section(a, d, shaped, &doc.blocks[i], p);
        }
        if (s && s->invalid) { /* its kernel name still meets the others' (an error of its own) */
            if (s->kernel_loc.line) {
                push(a, sections, s);
                fkcg_diag_keep_line(d, &s->kernel_loc);
            }
            s = NULL;
        }
        if (s && run->keep)
            s->where = fkcg_where_record(a, shaped);
        if (s) {
            fkcg_resolve_revision(a, s, &run->canon);
            push(a, sections, s);
            fkcg_diag_keep_line(d, &s->kernel_loc); /* binding errors quote it later */
        }
        fkcg_arena_reset(t);
    }
    return rc;
}

typedef struct named { /* a path given, by the file it names */
    char *real;        /* its realpath, or NULL when it has none (reported later) */
    size_t i;          /* its index on the command line */
} named;

static int by_real(const void *x, const void *y)
{
    const named *a = x, *b = y;
    int c = a->real && b->real ? strcmp(a->real, b->real) : (a->real != NULL) - (b->real != NULL);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* first[i]: the index of an earlier path naming the same file as paths[i] (same realpath),
 * or n when there is none. Sorted, not compared pairwise: 10,000 files stay cheap. */
static void find_repeats(const char *const *paths, size_t n, size_t *first)
{
    named *v = malloc((n + 1) * sizeof *v);
    if (!v)
        fkcg_oom();
    for (size_t i = 0; i < n; i++) {
        v[i] = (named){realpath(paths[i], NULL), i};
        first[i] = n;
    }
    qsort(v, n, sizeof *v, by_real);
    for (size_t i = 1, g = 0; i < n; i++) {
        if (!v[i].real || !v[g].real || strcmp(v[g].real, v[i].real) != 0)
            g = i;
        else
            first[v[i].i] = v[g].i;
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].real);
    free(v);
}

/* Reads the files (or, with data, file i's bytes data[i], lens[i] long) and binds them
 * together. */
static int load(fkcg_run *run, const char *const *paths, size_t n_paths, const char *const *data,
                const size_t *lens)
{
    list providers = {0}, sections = {0};
    bool io = false;
    size_t *first = fkcg_alloc_raw(&run->arena, (n_paths + 1) * sizeof *first);
    if (!data)
        find_repeats(paths, n_paths, first);
    for (size_t i = 0; i < n_paths; i++) {
        if (!data && first[i] != n_paths) { /* read once: not every kernel its own duplicate */
            fkcg_diag_rule(run->diag, FKCG_RULE_LOAD, NULL);
            fkcg_error(run->diag, &(fkcg_loc){paths[i], 0, 0},
                       "the same file as '%s', given "
                       "before it; give each contract once",
                       paths[first[i]]);
            io = true;
            continue;
        }
        io |= read_one(run, paths[i], data ? data[i] : NULL, data ? lens[i] : 0, &providers,
                       &sections) == 2;
        if (!run->keep)
            fkcg_diag_drop_source(run->diag, paths[i]);
        fkcg_arena_reset(&run->file);
    }
    /* The valid sections are bound even when others have errors: duplicates are reported in
     * the same run. The table is kept only when everything is clean. */
    fkcg_diag_rule(run->diag, FKCG_RULE_BINDING, NULL);
    fkcg_bind(&run->arena, run->diag, (fkcg_section **)sections.items, sections.n,
              (fkcg_provider **)providers.items, providers.n, &run->table);
    if (io)
        return 2;
    if (fkcg_diag_errors(run->diag)) {
        memset(&run->table, 0, sizeof run->table);
        return 1;
    }
    return 0;
}

int fkcg_run_load(fkcg_run *run, const char *const *paths, size_t n_paths)
{
    return load(run, paths, n_paths, NULL, NULL);
}

int fkcg_run_load_buffer(fkcg_run *run, const char *name, const char *data, size_t len)
{
    const char *bytes = data ? data : "";
    return load(run, &name, 1, &bytes, &len);
}

int fkcg_run_load_buffers(fkcg_run *run, const char *const *names, const char *const *data,
                          const size_t *lens, size_t n)
{
    return load(run, names, n, data, lens);
}
