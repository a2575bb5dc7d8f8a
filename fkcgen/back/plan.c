/* emit_plan.c — what the C back end emits, decided before anything is printed: the op kinds
 * (sorted, with their C names and signature section), the section of each binding, the link
 * registry in symbol order, the distinct link registries; and the vocabularies the checks and
 * the printers share (identifiers, schema enums, op_params field kinds). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

/* ---- names -------------------------------------------------------------------- */

static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_lower(int c) { return c >= 'a' && c <= 'z'; }
static int to_upper(int c) { return is_lower(c) ? c - 'a' + 'A' : c; }

/* The classes of byte c, computed by the compiler for the table below. */
#define BC_ALPHA(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z'))
#define BC_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define BC_PRINT(c) ((c) >= 0x20 && (c) < 0x7f)
#define BC(c)                                                                                  \
    ((BC_ALPHA(c) || BC_DIGIT(c) ? FKCG_BC_ALNUM : 0) |                                        \
     (BC_ALPHA(c) || BC_DIGIT(c) || (c) == '_' ? FKCG_BC_IDENT : 0) |                          \
     (BC_ALPHA(c) || (c) == '_' ? FKCG_BC_IDENT_START : 0) |                                   \
     (BC_PRINT(c) && (c) != '"' && (c) != '\\' && (c) != '?' ? FKCG_BC_CSTR : 0) |             \
     (BC_PRINT(c) && (c) != '\\' && (c) != '/' && (c) != '*' && (c) != '?' ? FKCG_BC_COMMENT : 0))
#define BC4(c) BC(c), BC((c) + 1), BC((c) + 2), BC((c) + 3)
#define BC16(c) BC4(c), BC4((c) + 4), BC4((c) + 8), BC4((c) + 12)
#define BC64(c) BC16(c), BC16((c) + 16), BC16((c) + 32), BC16((c) + 48)

const unsigned char fkcg_byte_class[256] = { BC64(0), BC64(64), BC64(128), BC64(192) };

/* Enumerator bytes: letters in upper case, digits, everything else '_'. */
#define UP(c) ((c) >= 'a' && (c) <= 'z' ? (c) - 'a' + 'A' : BC_ALPHA(c) || BC_DIGIT(c) ? (c) : '_')
#define UP4(c) UP(c), UP((c) + 1), UP((c) + 2), UP((c) + 3)
#define UP16(c) UP4(c), UP4((c) + 4), UP4((c) + 8), UP4((c) + 12)
#define UP64(c) UP16(c), UP16((c) + 16), UP16((c) + 32), UP16((c) + 48)

const char fkcg_upper_byte[256] = { UP64(0), UP64(64), UP64(128), UP64(192) };

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
    static const char *const lib_word[] = {"atomic", "cnd", "fe", "lc", "memory", "mtx", "pri",
                                           "scn", "sig", "thrd", "time", "tss"};
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

/* ---- the plan -------------------------------------------------------------------- */


const fkcg_enum_spec fkcg_enum_specs[FKCG_EN_COUNT] = {
    {"determinism", "@_determinism", "@@_DETERMINISM_", false},
    {"cost_provenance", "@_cost_provenance", "@@_COST_PROVENANCE_", true},
    {"cost_class", "@_cost_class", "@@_COST_CLASS_", true},
    {"awkward_layout_strategy", "@_layout_strategy", "@@_LAYOUT_STRATEGY_", false},
    {"layout_req", "@_layout_rule", "@@_LAYOUT_RULE_", true},
    {"layout_guarantee", "@_layout_guarantee", "@@_LAYOUT_GUARANTEE_", false},
    {"aliasing", "@_aliasing", "@@_ALIASING_", false},
};

/* s, or "" for NULL: the fkcg_plan is built before the checks report missing names. */
const char *fkcg_nz(const char *s)
{
    return s ? s : "";
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_link(const void *a, const void *b)
{
    const fkcg_link_row *x = a, *y = b;
    int c = strcmp(x->symbol, y->symbol);
    return c ? c : (x->index < y->index ? -1 : x->index > y->index);
}

void fkcg_sort_rows(void *rows, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    const char *r = rows;
    size_t i = 1;
    while (i < n && cmp(r + (i - 1) * size, r + i * size) < 0)
        i++;
    if (i < n)
        qsort(rows, n, size, cmp);
}

/* Sorts the link rows of each section's bindings (nine at most, contiguous) among
 * themselves, by insertion: the sections mostly follow one another in symbol order, so the
 * whole array is then often in order and fkcg_sort_rows has nothing left to do. */
static void sort_links_by_section(fkcg_plan *p)
{
    fkcg_link_row *l = p->links;
    for (size_t i = 1; i < p->t->n_bindings; i++) {
        fkcg_link_row row = l[i];
        size_t j = i;
        while (j > 0 && p->bind_sec[l[j - 1].index] == p->bind_sec[row.index] &&
               cmp_link(&l[j - 1], &row) > 0) {
            l[j] = l[j - 1];
            j--;
        }
        l[j] = row;
    }
}

void *fkcg_xcalloc(size_t n, size_t size)
{
    void *q = calloc(n ? n : 1, size);
    if (!q)
        fkcg_oom();
    return q;
}

/* Section index of a section pointer: the bindings of one section are contiguous and sections
 * follow in table order, so the previous index or the next one nearly always matches. */
static size_t section_index_of(const fkcg_table *t, const fkcg_section *s, size_t hint)
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

/* A section's op kind with its first 8 bytes as a big-endian integer (zero-padded): integers
 * compare as strcmp compares those bytes, so sorting 10,000 of them mostly reads this array,
 * not names scattered through the run's arena. */
typedef struct op_name {
    uint64_t key;
    const char *name;
    size_t sec;                /* the section's index */
} op_name;

static int cmp_op_name(const void *a, const void *b)
{
    const op_name *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->sec > y->sec) - (x->sec < y->sec);
}


/* The distinct op kinds, sorted by name, and the op of each section. */
static void plan_ops(fkcg_plan *p, const fkcg_table *t)
{
    op_name *names = fkcg_xcalloc(t->n_sections, sizeof *names);
    for (size_t i = 0; i < t->n_sections; i++) {
        const char *name = fkcg_nz(t->sections[i]->op_kind);
        names[i] = (op_name){ fkcg_name_key(name), name, i };
    }
    qsort(names, t->n_sections, sizeof *names, cmp_op_name);
    p->ops = fkcg_xcalloc(t->n_sections, sizeof *p->ops);
    p->sec_op = fkcg_xcalloc(t->n_sections, sizeof *p->sec_op);
    for (size_t i = 0; i < t->n_sections; i++) {
        if (p->n_ops == 0 || strcmp(names[i].name, p->ops[p->n_ops - 1].name) != 0)
            p->ops[p->n_ops++].name = names[i].name;
        p->sec_op[names[i].sec] = p->n_ops - 1;
    }
    free(names);
}

void fkcg_plan_init(fkcg_plan *p, const fkcg_table *t, const char *prefix)
{
    memset(p, 0, sizeof *p);
    p->t = t;
    p->prefix = prefix ? prefix : FKCG_EMIT_PREFIX;
    plan_ops(p, t);
    for (size_t i = 0; i < p->n_ops; i++) {
        p->ops[i].snake = fkcg_snake_case(p->ops[i].name);
        p->ops[i].upper = upper_of(p->ops[i].snake);
    }
    p->sec_runtime = fkcg_xcalloc(t->n_sections, sizeof *p->sec_runtime);
    for (size_t i = 0; i < t->n_sections; i++) {
        const fkcg_section *s = t->sections[i];
        fkcg_op_info *op = &p->ops[p->sec_op[i]];
        p->sec_runtime[i] = fkcg_runtime_kernel_find(s->kernel) != NULL;
        op->runtime |= p->sec_runtime[i];
        /* With the runtime's own prefix, fkc_<op>_params of a runtime op kind is the runtime's
         * type whatever kernel binds it: the contract must then agree with it. */
        op->runtime |= strcmp(p->prefix, FKCG_EMIT_PREFIX) == 0 &&
                       fkcg_runtime_op_kind(s->op_kind);
        if (!op->sig)
            op->sig = s;
        if (!op->cost && s->cost.present && s->cost.provenance) {
            op->cost = s;
            op->cost_sec = i;
        }
    }
    p->bind_sec = fkcg_xcalloc(t->n_bindings, sizeof *p->bind_sec);
    p->links = fkcg_xcalloc(t->n_bindings, sizeof *p->links);
    size_t hint = 0;
    for (size_t i = 0; i < t->n_bindings; i++) {
        hint = section_index_of(t, t->bindings[i].section, hint);
        p->bind_sec[i] = hint;
        p->links[i].b = &t->bindings[i];
        p->links[i].symbol = fkcg_nz(t->bindings[i].symbol);
        p->links[i].index = i;
    }
    sort_links_by_section(p);
    fkcg_sort_rows(p->links, t->n_bindings, sizeof *p->links, cmp_link);
    p->registries = fkcg_xcalloc(t->n_providers, sizeof *p->registries);
    for (size_t i = 0; i < t->n_providers; i++)
        p->registries[i] = t->providers[i]->link_registry ? t->providers[i]->link_registry : "";
    qsort(p->registries, t->n_providers, sizeof *p->registries, cmp_str);
    for (size_t i = 0; i < t->n_providers; i++)
        if (p->n_registries == 0 || strcmp(p->registries[i], p->registries[p->n_registries - 1]))
            p->registries[p->n_registries++] = p->registries[i];
}

void fkcg_plan_free(fkcg_plan *p)
{
    for (size_t i = 0; i < p->n_ops; i++) {
        free(p->ops[i].snake);
        free(p->ops[i].upper);
    }
    free(p->ops);
    free(p->sec_op);
    free(p->sec_runtime);
    free(p->bind_sec);
    free(p->links);
    free(p->registries);
}

/* Index of a link_registry name in the sorted, distinct names. */
size_t fkcg_plan_registry(const fkcg_plan *p, const char *name)
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

