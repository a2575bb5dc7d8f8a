/* plan.c — the row-level plan every back end prints, decided before anything is printed: the
 * op kinds (sorted, with their C names, signature section, shared cost and row range), each
 * section's op, provider, link registry and rows, each row's section and op, the link registry
 * in symbol order, the dispatch groups, the distinct link registries; every sort in a total
 * order. Also the names the back ends print (byte classes, identifiers, the prefix) and the
 * vocabularies' spellings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "back.h"

/* ---- names -------------------------------------------------------------------- */

static bool is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}
static bool is_lower(int c)
{
    return c >= 'a' && c <= 'z';
}
static int to_upper(int c)
{
    return is_lower(c) ? c - 'a' + 'A' : c;
}

/* The classes of byte c, computed by the compiler for the table below. */
#define BC_ALPHA(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z'))
#define BC_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define BC_PRINT(c) ((c) >= 0x20 && (c) < 0x7f)
#define BC(c)                                                                                      \
    ((BC_ALPHA(c) || BC_DIGIT(c) ? FKCG_BC_ALNUM : 0) |                                            \
     (BC_ALPHA(c) || BC_DIGIT(c) || (c) == '_' ? FKCG_BC_IDENT : 0) |                              \
     (BC_ALPHA(c) || (c) == '_' ? FKCG_BC_IDENT_START : 0) |                                       \
     (BC_PRINT(c) && (c) != '"' && (c) != '\\' && (c) != '?' ? FKCG_BC_CSTR : 0) |                 \
     (BC_PRINT(c) && (c) != '\\' && (c) != '/' && (c) != '*' && (c) != '?' ? FKCG_BC_COMMENT : 0))
#define BC4(c) BC(c), BC((c) + 1), BC((c) + 2), BC((c) + 3)
#define BC16(c) BC4(c), BC4((c) + 4), BC4((c) + 8), BC4((c) + 12)
#define BC64(c) BC16(c), BC16((c) + 16), BC16((c) + 32), BC16((c) + 48)

const unsigned char fkcg_byte_class[256] = {BC64(0), BC64(64), BC64(128), BC64(192)};

/* Enumerator bytes: letters in upper case, digits, everything else '_'. */
#define UP(c) ((c) >= 'a' && (c) <= 'z' ? (c) - 'a' + 'A' : BC_ALPHA(c) || BC_DIGIT(c) ? (c) : '_')
#define UP4(c) UP(c), UP((c) + 1), UP((c) + 2), UP((c) + 3)
#define UP16(c) UP4(c), UP4((c) + 4), UP4((c) + 8), UP4((c) + 12)
#define UP64(c) UP16(c), UP16((c) + 16), UP16((c) + 32), UP16((c) + 48)

const char fkcg_upper_byte[256] = {UP64(0), UP64(64), UP64(128), UP64(192)};

/* A C identifier: [A-Za-z_][A-Za-z0-9_]*, at most FKCG_C_IDENT_MAX bytes. */
size_t fkcg_emit_ident_len(const char *s)
{
    if (!s || !(fkcg_byte_class[(unsigned char)*s] & FKCG_BC_IDENT_START))
        return 0;
    size_t n = 1;
    while (fkcg_byte_class[(unsigned char)s[n]] & FKCG_BC_IDENT)
        n++;
    return s[n] == '\0' && n <= FKCG_C_IDENT_MAX ? n : 0;
}

bool fkcg_emit_is_ident(const char *s)
{
    return fkcg_emit_ident_len(s) != 0;
}

/* "judge_measured" -> "JUDGE_MEASURED"; any byte outside [A-Za-z0-9] becomes '_'. */
static char *upper_of(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    if (!out)
        fkcg_oom();
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        out[i] = (char)(is_alpha(c) || is_digit(c) ? to_upper(c) : '_');
    }
    out[n] = '\0';
    return out;
}

/* entry_point: identifiers joined by "::". One pass: it runs for every symbol of the table. */
bool fkcg_emit_is_path(const char *s)
{
    if (!s || !*s)
        return false;
    for (;;) {
        if (!(fkcg_byte_class[(unsigned char)*s] & FKCG_BC_IDENT_START))
            return false;
        size_t n = 1;
        while (fkcg_byte_class[(unsigned char)s[n]] & FKCG_BC_IDENT)
            n++;
        if (n > FKCG_C_IDENT_MAX)
            return false;
        s += n;
        if (*s == '\0')
            return true;
        if (s[0] != ':' || s[1] != ':')
            return false;
        s += 2;
    }
}


/* ---- the runtime's kernels and the prefix ----------------------------------------- */

const char *fkcg_prefix_problem(const char *name)
{
    /* Prefixes the C library reserves (C11 7.31): a name starting with one of these followed
     * by a lower-case letter, or (atomic, memory, cnd, ...) by '_'; sig/lc/fe/pri/scn/time:
     * the upper-case macros NAME_X would be the library's. */
    static const char *const lib_lower[] = {"is", "mem", "str", "to", "wcs"};
    static const char *const lib_word[] = {"atomic", "cnd", "fe",  "lc",   "memory", "mtx",
                                           "pri",    "scn", "sig", "thrd", "time",   "tss"};
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > FKCG_PREFIX_MAX)
        return "must be 1 to 32 bytes long";
    if (!is_lower(name[0]))
        return "must start with a lower-case letter";
    for (size_t i = 0; i < n; i++)
        if (!is_lower(name[i]) && !is_digit(name[i]) && name[i] != '_')
            return "may hold only lower-case letters, digits and '_'";
    if (strstr(name, "__") || name[n - 1] == '_')
        return "may not hold \"__\" nor end with '_'";
    if (strncmp(name, "fkc_", 4) == 0)
        return "may not start with fkc_ (the fkc runtime's names)";
    if (fkcg_c_name_reserved(name) && strcmp(name, FKCG_EMIT_PREFIX) != 0)
        return "is a C keyword or a name of the headers the generated code includes";
    for (size_t i = 0; i < sizeof lib_lower / sizeof lib_lower[0]; i++) {
        size_t m = strlen(lib_lower[i]);
        if (strncmp(name, lib_lower[i], m) == 0 && (is_lower(name[m]) || name[m] == '\0'))
            return "is reserved by the C library (names starting with is, mem, str, to or "
                   "wcs and a lower-case letter)";
    }
    for (size_t i = 0; i < sizeof lib_word / sizeof lib_word[0]; i++)
        if (strcmp(name, lib_word[i]) == 0)
            return "is a prefix the C library reserves (its NAME_ or NAME_X names)";
    return NULL;
}

/* ---- vocabularies ------------------------------------------------------------------------ */

const fkcg_vocab fkcg_vocabs[FKCG_EN_COUNT] = {
    [FKCG_EN_DETERMINISM] = {"determinism", false},
    [FKCG_EN_PROVENANCE] = {"cost_provenance", true},
    [FKCG_EN_COST_CLASS] = {"cost_class", true},
    [FKCG_EN_STRATEGY] = {"awkward_layout_strategy", false},
    [FKCG_EN_LAYOUT_RULE] = {"layout_req", true},
    [FKCG_EN_GUARANTEE] = {"layout_guarantee", false},
    [FKCG_EN_ALIASING] = {"aliasing", false},
    [FKCG_EN_DTYPE] = {"dtype", false},
    [FKCG_EN_BACKEND] = {"backend", false},
    [FKCG_EN_SHAPE_RULE] = {"shape_rule", true},
};

/* ---- the plan -------------------------------------------------------------------- */

/* s, or "" for NULL: the fkcg_plan is built before the checks report missing names. */
const char *fkcg_nz(const char *s)
{
    return s ? s : "";
}

void *fkcg_xcalloc(size_t n, size_t size)
{
    void *q = calloc(n ? n : 1, size);
    if (!q)
        fkcg_oom();
    return q;
}

static int cmp_size(size_t a, size_t b)
{
    return (a > b) - (a < b);
}

/* qsort, skipped when the rows are in order already (the table comes sorted by op kind and
 * kernel, which the link and dispatch orders mostly follow). cmp must be a total order: the
 * result then does not depend on how the libc's qsort orders equal rows. */
static void sort_rows(void *rows, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    const char *r = rows;
    size_t i = 1;
    while (i < n && cmp(r + (i - 1) * size, r + i * size) < 0)
        i++;
    if (i < n)
        qsort(rows, n, size, cmp);
}

/* A section's op kind with its first 8 bytes as a big-endian integer (zero-padded): integers
 * compare as strcmp compares those bytes, so sorting 10,000 of them mostly reads this array,
 * not names scattered through the run's arena. */
typedef struct op_name {
    uint64_t key;
    const char *name;
    size_t sec; /* the section's index */
} op_name;

static int cmp_op_name(const void *a, const void *b)
{
    const op_name *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    int c = strcmp(x->name, y->name);
    return c ? c : cmp_size(x->sec, y->sec);
}

/* The distinct op kinds, sorted by name, and the op of each section. */
static void plan_ops(fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    op_name *names = fkcg_xcalloc(t->n_sections, sizeof *names);
    for (size_t i = 0; i < t->n_sections; i++) {
        const char *name = fkcg_nz(t->sections[i]->op_kind);
        names[i] = (op_name){fkcg_name_key(name), name, i};
    }
    qsort(names, t->n_sections, sizeof *names, cmp_op_name);
    p->ops = fkcg_xcalloc(t->n_sections, sizeof *p->ops);
    for (size_t i = 0; i < t->n_sections; i++) {
        if (p->n_ops == 0 || strcmp(names[i].name, p->ops[p->n_ops - 1].name) != 0)
            p->ops[p->n_ops++] = (fkcg_plan_op){
                .name = names[i].name, .sig = FKCG_NONE, .cost = FKCG_NONE, .first = FKCG_NONE};
        p->secs[names[i].sec].op = p->n_ops - 1;
    }
    free(names);
    for (size_t i = 0; i < p->n_ops; i++) {
        p->ops[i].snake = fkcg_snake_case(p->ops[i].name);
        p->ops[i].upper = upper_of(p->ops[i].snake);
    }
}

/* Each section: its op's signature, shared cost and runtime family; its provider and link
 * registry. Sections are in table order, so "first" is the first by kernel name. */
static void plan_sections(fkcg_plan *p)
{
    for (size_t i = 0; i < p->t->n_sections; i++) {
        fkcg_plan_sec *ps = &p->secs[i];
        const fkcg_section *s = ps->s = p->t->sections[i];
        fkcg_plan_op *op = &p->ops[ps->op];
        long pv = fkcg_provider_index(p->t, s->provider);
        ps->provider = pv < 0 ? FKCG_NONE : (size_t)pv;
        ps->runtime = fkcg_runtime_kernel_find(s->kernel) != NULL;
        ps->first = ps->end = FKCG_NONE;
        /* <prefix>_<op>_params of a runtime op kind is the runtime's type whatever kernel binds
         * it and whatever the prefix (docs/contract-format.md; check holds the contract's fields
         * to the runtime's), so its kernels have the runtime's kernel type. */
        if (!op->rt)
            op->rt = fkcg_runtime_op_find(s->op_kind);
        if (op->sig == FKCG_NONE)
            op->sig = i;
        if (op->cost == FKCG_NONE && s->cost.present && s->cost.provenance)
            op->cost = i;
    }
}

/* Index of section s: the bindings of one section are contiguous and sections follow in
 * table order, so the previous row's section (hint) or the next one nearly always matches; a
 * hand-built table may need a scan. */
static size_t section_of(const fkcg_table *t, const fkcg_section *s, size_t hint)
{
    if (hint < t->n_sections && t->sections[hint] == s)
        return hint;
    if (hint + 1 < t->n_sections && t->sections[hint + 1] == s)
        return hint + 1;
    for (size_t i = 0; i < t->n_sections; i++)
        if (t->sections[i] == s)
            return i;
    return 0;
}

/* Whether text is a + b + c (b and c short). */
static bool is_joined(const char *text, const char *a, const char *b, const char *c)
{
    size_t n = strlen(a), m = strlen(b);
    return text && strncmp(text, a, n) == 0 && strncmp(text + n, b, m) == 0 &&
           strcmp(text + n + m, c) == 0;
}

/* Whether section sec's rows follow the binder's rule (bind.c, make_bindings): symbol
 * <entry_point>_<dtype suffix>, wrapper <kernel>_b<width>, the dtype's width; a hand-built
 * table may break it, and its rows are then printed whole. */
static bool follows_rule(const fkcg_plan *p, size_t sec)
{
    const fkcg_section *s = p->t->sections[sec];
    if (!s->entry_point || !s->kernel || p->secs[sec].first == p->secs[sec].end ||
        s->n_precision_by) /* the rows' precision differs: no template holds it */
        return false;
    for (size_t i = p->secs[sec].first; i < p->secs[sec].end; i++) {
        const fkcg_binding *b = p->rows[i].b;
        char width[4] = {'b', (char)('0' + (b->byte_width % 10)), '\0', '\0'};
        if (!fkcg_binding_plain(b) || s->fanout_dtypes || b->dtype < 0 ||
            b->dtype >= FKCG_NDTYPES || b->byte_width != fkcg_dtypes[b->dtype].bytes ||
            !is_joined(b->symbol, s->entry_point, "_", fkcg_dtypes[b->dtype].suffix) ||
            !is_joined(b->wrapper, s->kernel, "_", width))
            return false;
    }
    return true;
}

/* The rows, in table order, with their section and op; each section's and op's range. */
static void plan_rows(fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    p->n_rows = t->n_bindings;
    p->rows = fkcg_xcalloc(p->n_rows, sizeof *p->rows);
    size_t sec = 0;
    for (size_t i = 0; i < p->n_rows; i++) {
        sec = section_of(t, t->bindings[i].section, sec);
        fkcg_plan_sec *ps = &p->secs[sec];
        fkcg_plan_op *op = &p->ops[ps->op];
        p->rows[i] = (fkcg_plan_row){&t->bindings[i], sec, ps->op};
        if (ps->first == FKCG_NONE)
            ps->first = i;
        ps->end = i + 1;
        ps->widths |= 1u << (t->bindings[i].byte_width & 15);
        if (op->first == FKCG_NONE)
            op->first = i;
        op->end = i + 1;
    }
    for (size_t i = 0; i < p->t->n_sections; i++)
        if (p->secs[i].first == FKCG_NONE)
            p->secs[i].first = p->secs[i].end = 0;
    for (size_t i = 0; i < p->t->n_sections; i++)
        p->secs[i].templated = follows_rule(p, i);
    for (size_t i = 0; i < p->n_ops; i++)
        if (p->ops[i].first == FKCG_NONE)
            p->ops[i].first = p->ops[i].end = 0;
}

/* ---- the link registry: rows by symbol ---- */

typedef struct link_key {
    const char *symbol;
    size_t row;
} link_key;

static int cmp_link(const void *a, const void *b)
{
    const link_key *x = a, *y = b;
    int c = strcmp(x->symbol, y->symbol);
    return c ? c : cmp_size(x->row, y->row);
}

/* The rows by symbol. Each section's rows (nine at most, contiguous) are first sorted among
 * themselves by insertion: the sections mostly follow one another in symbol order, so the
 * whole array is then often in order and sort_rows has nothing left to do. */
static void plan_links(fkcg_plan *p)
{
    link_key *l = fkcg_xcalloc(p->n_rows, sizeof *l);
    for (size_t i = 0; i < p->n_rows; i++) {
        link_key row = {fkcg_nz(p->rows[i].b->symbol), i};
        size_t j = i;
        while (j > 0 && p->rows[l[j - 1].row].sec == p->rows[i].sec &&
               cmp_link(&l[j - 1], &row) > 0) {
            l[j] = l[j - 1];
            j--;
        }
        l[j] = row;
    }
    sort_rows(l, p->n_rows, sizeof *l, cmp_link);
    p->links = fkcg_xcalloc(p->n_rows, sizeof *p->links);
    for (size_t i = 0; i < p->n_rows; i++)
        p->links[i] = l[i].row;
    free(l);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Index of a link_registry name in the sorted, distinct names (0 when absent). */
static size_t registry_index(const fkcg_plan *p, const char *name)
{
    size_t lo = 0, hi = p->n_registries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, p->registries[mid]);
        if (c == 0)
            return mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return 0;
}

/* The distinct link registries, sorted (equal names are the same name: any order of them is
 * the same array), and each section's. */
static void plan_registries(fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    p->registries = fkcg_xcalloc(t->n_providers, sizeof *p->registries);
    for (size_t i = 0; i < t->n_providers; i++)
        p->registries[i] = fkcg_nz(t->providers[i]->link_registry);
    qsort(p->registries, t->n_providers, sizeof *p->registries, cmp_str);
    for (size_t i = 0; i < t->n_providers; i++)
        if (p->n_registries == 0 || strcmp(p->registries[i], p->registries[p->n_registries - 1]))
            p->registries[p->n_registries++] = p->registries[i];
    for (size_t i = 0; i < t->n_sections; i++) {
        const fkcg_provider *pr = t->sections[i]->provider;
        p->secs[i].registry = registry_index(p, fkcg_nz(pr ? pr->link_registry : NULL));
    }
}

/* The links of each registry, in symbol order: one counting pass over the links (a back end
 * that prints a table per registry walks only its rows, so many providers cost no more). */
static void plan_registry_links(fkcg_plan *p)
{
    /* + 2: a hand-built table may have rows and no registry (each section's is then 0) */
    p->reg_first = fkcg_xcalloc(p->n_registries + 2, sizeof *p->reg_first);
    p->reg_links = fkcg_xcalloc(p->n_rows, sizeof *p->reg_links);
    for (size_t i = 0; i < p->n_rows; i++)
        p->reg_first[p->secs[p->rows[i].sec].registry + 1]++;
    for (size_t k = 0; k <= p->n_registries; k++)
        p->reg_first[k + 1] += p->reg_first[k];
    size_t *at = fkcg_xcalloc(p->n_registries + 2, sizeof *at);
    memcpy(at, p->reg_first, (p->n_registries + 2) * sizeof *at);
    for (size_t i = 0; i < p->n_rows; i++)
        p->reg_links[at[p->secs[p->rows[p->links[i]].sec].registry]++] = p->links[i];
    free(at);
}

/* ---- dispatch: per (op, backend), per dtype, the first row in table order ---- */

typedef struct disp_key {
    size_t op;
    const char *backend;
    int dtype;
    size_t row;
} disp_key;

/* (op, backend, dtype, row): a total order, so the winner of a dtype (the first of its rows)
 * does not depend on how qsort orders ties. */
static int cmp_disp(const void *x, const void *y)
{
    const disp_key *a = x, *b = y;
    if (a->op != b->op)
        return cmp_size(a->op, b->op);
    int c = strcmp(a->backend, b->backend);
    if (c)
        return c;
    if (a->dtype != b->dtype)
        return a->dtype < b->dtype ? -1 : 1;
    return cmp_size(a->row, b->row);
}

/* The winners of one group (cases[0..n), by dtype) reordered so that the dtypes of one wrapper
 * are adjacent: wrappers in the order of their first dtype, dtypes in order within one. */
static void group_by_wrapper(const fkcg_plan *p, fkcg_plan_case *cases, size_t n)
{
    fkcg_plan_case tmp[FKCG_NDTYPES];
    bool done[FKCG_NDTYPES] = {false};
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        const fkcg_plan_row *w = &p->rows[cases[i].row];
        for (size_t j = i; j < n; j++) {
            const fkcg_plan_row *o = &p->rows[cases[j].row];
            if (!done[j] && o->sec == w->sec && o->b->byte_width == w->b->byte_width) {
                done[j] = true;
                tmp[k++] = cases[j];
            }
        }
    }
    memcpy(cases, tmp, n * sizeof *cases);
}

static void plan_dispatch(fkcg_plan *p)
{
    size_t n = p->n_rows;
    disp_key *k = fkcg_xcalloc(n, sizeof *k);
    size_t m = 0; /* the groups hold the rows of the seed's form [T, T] (the rest:
                   * <prefix>_dispatch_key's loop) */
    p->all_plain = true;
    for (size_t i = 0; i < n; i++) {
        if (!fkcg_binding_plain(p->rows[i].b)) {
            p->all_plain = false;
            continue;
        }
        k[m++] = (disp_key){p->rows[i].op, fkcg_nz(p->secs[p->rows[i].sec].s->backend),
                            p->rows[i].b->dtype, i};
    }
    n = m;
    sort_rows(k, n, sizeof *k, cmp_disp);
    p->groups = fkcg_xcalloc(n, sizeof *p->groups);
    p->cases = fkcg_xcalloc(n, sizeof *p->cases);
    for (size_t i = 0; i < n; i++) {
        fkcg_plan_group *g = p->n_groups ? &p->groups[p->n_groups - 1] : NULL;
        if (!g || g->op != k[i].op || strcmp(g->backend, k[i].backend) != 0) {
            g = &p->groups[p->n_groups++];
            *g = (fkcg_plan_group){k[i].op, k[i].backend, p->n_cases, 0};
        }
        if (g->n && p->cases[p->n_cases - 1].dtype == k[i].dtype)
            continue; /* a later row of a key already bound: the first one wins */
        if (k[i].dtype < 0 || k[i].dtype >= FKCG_NDTYPES || g->n == FKCG_NDTYPES)
            continue; /* malformed (the checks report it) */
        p->cases[p->n_cases++] = (fkcg_plan_case){k[i].dtype, k[i].row};
        g->n++;
    }
    for (size_t i = 0; i < p->n_groups; i++)
        group_by_wrapper(p, &p->cases[p->groups[i].first], p->groups[i].n);
    free(k);
}

/* ---- tables of equal rows: printed once ---- */

/* A table's rows as bytes (key), and whose table it is. */
typedef struct same_key {
    const char *key;
    size_t len;
    size_t item;
} same_key;

static int cmp_same(const void *a, const void *b)
{
    const same_key *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->key, y->key, n);
    if (c == 0 && x->len != y->len)
        c = x->len < y->len ? -1 : 1;
    return c ? c : cmp_size(x->item, y->item);
}

/* Appends a text and its end (a NUL: texts cannot hold one) to a key; NULL as a lone 0x01. */
static void key_str(fkcg_buf *b, const char *s)
{
    if (s)
        fkcg_buf_put(b, s, strlen(s) + 1);
    else
        fkcg_buf_put(b, "\1", 2);
}

static void key_num(fkcg_buf *b, uint64_t v)
{
    fkcg_buf_put_u64(b, v);
    fkcg_buf_putc(b, '\0');
}

/* A table's key: its rows' values, each written the same for equal values. */
typedef void key_fn(const fkcg_plan *p, size_t item, fkcg_buf *out);

static void key_dtypes(const fkcg_plan *p, size_t i, fkcg_buf *out)
{
    size_t sec, k;
    fkcg_plan_input(p, i, &sec, &k);
    const fkcg_input *in = &p->t->sections[sec]->inputs[k];
    for (size_t d = 0; d < in->n_dtypes; d++)
        key_num(out, (uint64_t)fkcg_section_code(p->t->sections[sec], in->dtypes[d]));
}

static void key_fast_paths(const fkcg_plan *p, size_t sec, fkcg_buf *out)
{
    const fkcg_caps *c = &p->t->sections[sec]->caps;
    for (size_t k = 0; k < c->n_fast_paths; k++) {
        key_str(out, c->fast_paths[k].when);
        key_str(out, c->fast_paths[k].cost_class);
    }
}

static void key_inputs(const fkcg_plan *p, size_t sec, fkcg_buf *out)
{
    const fkcg_section *s = p->t->sections[sec];
    for (size_t k = 0; k < s->n_inputs; k++) {
        key_str(out, s->inputs[k].name);
        key_num(out, p->same_dtypes[p->secs[sec].inputs + k]);
        key_num(out, s->inputs[k].n_dtypes);
        for (int l = 0; l < FKCG_NLAYOUT; l++)
            key_str(out, s->inputs[k].layout[l]);
        key_str(out, s->inputs[k].rank);
        key_str(out, s->inputs[k].shape_constraint);
    }
}

static void key_outputs(const fkcg_plan *p, size_t sec, fkcg_buf *out)
{
    const fkcg_section *s = p->t->sections[sec];
    for (size_t k = 0; k < s->n_outputs; k++) {
        const fkcg_output *o = &s->outputs[k];
        const char *v[] = {o->name,           o->dtype_rule,       o->dtype_rule_arg, o->shape_rule,
                           o->shape_rule_arg, o->layout_guarantee, o->aliasing};
        for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
            key_str(out, v[j]);
    }
}

static void key_fields(const fkcg_plan *p, size_t sec, fkcg_buf *out)
{
    const fkcg_section *s = p->t->sections[sec];
    for (size_t k = 0; k < s->n_fields; k++) {
        key_str(out, s->fields[k].name);
        key_str(out, s->fields[k].kind);
        key_str(out, s->fields[k].note);
    }
}

static bool uses_field(const fkcg_expr *e)
{
    return e && (e->kind == FKCG_EXPR_FIELD || uses_field(e->lhs) || uses_field(e->rhs));
}

/* A cost's printed form: a section without one has a key of its own (its index), a cost that
 * reads a field names its op kind (the function casts params to that op's type). */
static void key_cost(const fkcg_plan *p, size_t sec, fkcg_buf *out)
{
    const fkcg_cost *c = &p->t->sections[sec]->cost;
    bool field = uses_field(c->flops) || uses_field(c->bytes_moved);
    fkcg_buf_putc(out, !c->present ? 'n' : field ? 'f' : 'c');
    if (!c->present || field)
        key_num(out, c->present ? p->secs[sec].op : sec);
    const char *v[] = {c->provenance, c->cost_class, c->flops ? c->flops_src : NULL,
                       c->bytes_moved ? c->bytes_moved_src : NULL};
    for (size_t j = 0; c->present && j < sizeof v / sizeof v[0]; j++)
        key_str(out, v[j]);
}

/* same[i]: the first of items 0..n whose key equals item i's (by sorting the keys with the
 * item's index as the tie-break: a total order, and the first of a run is the smallest). */
static void find_same(const fkcg_plan *p, size_t n, key_fn *key, size_t *same, size_t stride)
{
    fkcg_buf keys;
    fkcg_buf_init(&keys);
    size_t *at = fkcg_xcalloc(n + 1, sizeof *at);
    for (size_t i = 0; i < n; i++) {
        at[i] = keys.len;
        key(p, i, &keys);
    }
    at[n] = keys.len;
    same_key *k = fkcg_xcalloc(n, sizeof *k);
    for (size_t i = 0; i < n; i++)
        k[i] = (same_key){keys.data ? keys.data + at[i] : "", at[i + 1] - at[i], i};
    sort_rows(k, n, sizeof *k, cmp_same);
    for (size_t i = 0, g = 0; i < n; i++) {
        if (cmp_same(&(same_key){k[g].key, k[g].len, k[i].item}, &k[i]) != 0)
            g = i;
        *(size_t *)((char *)same + k[i].item * stride) = k[g].item;
    }
    free(k);
    free(at);
    fkcg_buf_free(&keys);
}

void fkcg_plan_input(const fkcg_plan *p, size_t i, size_t *sec, size_t *k)
{
    *sec = p->input_sec[i];
    *k = i - p->secs[*sec].inputs;
}

/* Which of the sections' tables are the same as an earlier one's. */
static void plan_same(fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    for (size_t i = 0; i < t->n_sections; i++) {
        p->secs[i].inputs = p->n_inputs;
        p->n_inputs += t->sections[i]->n_inputs;
    }
    p->input_sec = fkcg_xcalloc(p->n_inputs, sizeof *p->input_sec);
    p->same_dtypes = fkcg_xcalloc(p->n_inputs, sizeof *p->same_dtypes);
    for (size_t i = 0; i < t->n_sections; i++)
        for (size_t k = 0; k < t->sections[i]->n_inputs; k++)
            p->input_sec[p->secs[i].inputs + k] = i;
    find_same(p, p->n_inputs, key_dtypes, p->same_dtypes, sizeof *p->same_dtypes);
    size_t n = t->n_sections, stride = sizeof *p->secs;
    find_same(p, n, key_fast_paths, &p->secs[0].same_fast_paths, stride);
    find_same(p, n, key_inputs, &p->secs[0].same_inputs, stride);
    find_same(p, n, key_outputs, &p->secs[0].same_outputs, stride);
    find_same(p, n, key_fields, &p->secs[0].same_fields, stride);
    find_same(p, n, key_cost, &p->secs[0].same_cost, stride);
}

void fkcg_plan_init(fkcg_plan *p, const fkcg_table *t, const char *prefix)
{
    memset(p, 0, sizeof *p);
    p->t = t;
    snprintf(p->prefix, sizeof p->prefix, "%s", prefix ? prefix : FKCG_EMIT_PREFIX);
    for (size_t i = 0; p->prefix[i]; i++)
        p->prefix_upper[i] = fkcg_upper_byte[(unsigned char)p->prefix[i]];
    p->secs = fkcg_xcalloc(t->n_sections, sizeof *p->secs);
    plan_ops(p);
    plan_sections(p);
    plan_rows(p);
    plan_links(p);
    plan_registries(p);
    plan_registry_links(p);
    plan_dispatch(p);
    plan_same(p);
}

void fkcg_plan_free(fkcg_plan *p)
{
    for (size_t i = 0; i < p->n_ops; i++) {
        free(p->ops[i].snake);
        free(p->ops[i].upper);
    }
    free(p->ops);
    free(p->secs);
    free(p->rows);
    free(p->links);
    free(p->registries);
    free(p->reg_links);
    free(p->reg_first);
    free(p->groups);
    free(p->cases);
    free(p->input_sec);
    free(p->same_dtypes);
}

const char *fkcg_plan_wrapper_prefix(const fkcg_plan *p, size_t sec)
{
    return p->secs[sec].runtime ? "fkc" : p->prefix;
}
