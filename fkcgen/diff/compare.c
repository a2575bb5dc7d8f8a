/* compare.c — compares two revisions' binding tables (fkcgen diff). Bindings are matched by key
 * (op_kind, [T, T], backend) + kernel_source; a key on one side only is a dtype, kernel,
 * binding or backend removed or added; the sections of each matched pair are compared datum
 * by datum (the list of fkcg_section_canonical), once per pair of sections, and each change
 * names every matched binding it concerns. Each change is one row of the rule table. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

#define NONE ((size_t)-1)

typedef struct dctx {
    fkcg_arena *a;
    const fkcg_diff_side *old, *new_;
    fkcg_changes *out;
} dctx;

/* A pair of sections (either may be NULL) and the bindings a change between them concerns. */
typedef struct spair {
    const fkcg_section *so, *sn;
    const fkcg_dkey *keys;
    size_t n_keys;
} spair;

void fkcg_change_push(fkcg_arena *a, fkcg_changes *l, const fkcg_change *c)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 32;
        fkcg_change *more = fkcg_alloc(a, cap * sizeof *more);
        if (l->n)
            memcpy(more, l->v, l->n * sizeof *more);
        l->v = more;
        l->cap = cap;
    }
    l->v[l->n++] = *c;
}

/* ---- places ---- */

/* The place of path in w, else of the nearest key above it ("a.b[2].c" → "a.b[2]" → "a.b"),
 * else dflt: a datum one side does not state is pointed at through what holds it. */
static fkcg_loc where_up(const fkcg_where *w, char *path, fkcg_loc dflt)
{
    for (;;) {
        const fkcg_loc *l = fkcg_where_find(w, path);
        if (l)
            return *l;
        char *cut = strrchr(path, '.'), *br = strrchr(path, '[');
        if (br && (!cut || br > cut))
            cut = br;
        if (!cut)
            return dflt;
        *cut = '\0';
    }
}

static fkcg_loc at(const fkcg_section *s, const char *fmt, ...) FKCG_PRINTF(2, 3);
static fkcg_loc at(const fkcg_section *s, const char *fmt, ...)
{
    char path[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    return where_up(s->where, path, s->loc);
}

static fkcg_loc pat(const fkcg_provider *p, const char *key)
{
    char path[128];
    snprintf(path, sizeof path, "%s", key);
    return where_up(p->where, path, p->loc);
}

static const fkcg_loc no_loc = {NULL, 0, 0};

/* ---- building changes ---- */

static void vchange(dctx *c, fkcg_diff_rule_id rule, const spair *p, fkcg_loc old_loc,
                    fkcg_loc new_loc, const char *was, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *what = fkcg_alloc_chars(c->a, (size_t)(n < 0 ? 0 : n) + 1);
    vsnprintf(what, (size_t)(n < 0 ? 0 : n) + 1, fmt, again);
    va_end(again);
    fkcg_change ch = {.rule = rule,
                      .what = what,
                      .was = was,
                      .old_loc = old_loc,
                      .new_loc = new_loc,
                      .old_kernel = p->so ? p->so->kernel : NULL,
                      .new_kernel = p->sn ? p->sn->kernel : NULL,
                      .keys = p->keys,
                      .n_keys = p->n_keys};
    fkcg_change_push(c->a, c->out, &ch);
}

/* One change: rule, the places on both sides, the old side's note (NULL: none), the headline. */
static void change(dctx *c, fkcg_diff_rule_id rule, const spair *p, fkcg_loc old_loc,
                   fkcg_loc new_loc, const char *was, const char *fmt, ...) FKCG_PRINTF(7, 8);
static void change(dctx *c, fkcg_diff_rule_id rule, const spair *p, fkcg_loc old_loc,
                   fkcg_loc new_loc, const char *was, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vchange(c, rule, p, old_loc, new_loc, was, fmt, ap);
    va_end(ap);
}

static bool same(const char *x, const char *y)
{
    return x == y || (x && y && !strcmp(x, y));
}

static const char *or_unset(const char *s)
{
    return s ? s : "not stated";
}

/* The shortest decimal that reads back as x. */
static const char *num(dctx *c, double x)
{
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    return fkcg_strdup(c->a, buf);
}

static const char *was_str(dctx *c, const char *s)
{
    return s ? fkcg_sprintf(c->a, "was '%s'", s) : "was not stated";
}

/* ---- keys ---- */

static fkcg_dkey key_of(const fkcg_table *t, const fkcg_binding *b)
{
    const fkcg_section *s = b->section;
    fkcg_dkey k = {s->op_kind, b->dtype, s->backend, s->kernel_source, fkcg_binding_n_key(b), {0}};
    for (uint32_t i = 0; i < k.n_key; i++) {
        const fkcg_dtype_info *d = fkcg_table_dtype(t, fkcg_binding_slot(b, i));
        k.names[i] = d ? d->name : "?";
    }
    return k;
}

/* The order of one slot: the vocabulary's dtypes by index, then block dtypes by name (the
 * same in both revisions). */
static int slot_cmp(const fkcg_table *tx, int x, const fkcg_table *ty, int y)
{
    bool bx = x >= FKCG_NDTYPES, by = y >= FKCG_NDTYPES;
    if (!bx && !by)
        return (x > y) - (x < y);
    if (bx != by)
        return bx ? 1 : -1;
    const fkcg_dtype_info *a = fkcg_table_dtype(tx, x), *b = fkcg_table_dtype(ty, y);
    return strcmp(a ? a->name : "", b ? b->name : "");
}

static int key_cmp2(const fkcg_table *tx, const fkcg_binding *x, const fkcg_table *ty,
                    const fkcg_binding *y)
{
    const fkcg_section *a = x->section, *b = y->section;
    int r = strcmp(a->op_kind, b->op_kind);
    if (!r)
        r = strcmp(a->backend, b->backend);
    if (!r)
        r = strcmp(a->kernel_source, b->kernel_source);
    uint32_t nx = fkcg_binding_n_key(x), ny = fkcg_binding_n_key(y);
    if (!r && nx != ny)
        r = nx < ny ? -1 : 1;
    for (uint32_t i = 0; !r && i < nx; i++)
        r = slot_cmp(tx, fkcg_binding_slot(x, i), ty, fkcg_binding_slot(y, i));
    return r;
}

static const fkcg_table *sort_table; /* qsort has no context argument */

static int key_cmp(const fkcg_binding *x, const fkcg_binding *y)
{
    return key_cmp2(sort_table, x, sort_table, y);
}

static const fkcg_binding *sort_base; /* qsort has no context argument */

static int by_key(const void *x, const void *y)
{
    return key_cmp(&sort_base[*(const size_t *)x], &sort_base[*(const size_t *)y]);
}

/* The bindings' indexes in key order. */
static size_t *key_order(fkcg_arena *a, const fkcg_table *t)
{
    size_t *v = fkcg_alloc(a, (t->n_bindings + 1) * sizeof *v);
    for (size_t i = 0; i < t->n_bindings; i++)
        v[i] = i;
    sort_base = t->bindings;
    sort_table = t;
    qsort(v, t->n_bindings, sizeof *v, by_key);
    return v;
}

/* Matches the bindings of two tables by key: mo[i] the new binding of old binding i, mn[j]
 * the old one of new binding j, NONE when the other side has no binding of that key. */
static void match(fkcg_arena *a, const fkcg_table *o, const fkcg_table *n, size_t *mo, size_t *mn)
{
    size_t *ko = key_order(a, o), *kn = key_order(a, n);
    for (size_t i = 0; i < o->n_bindings; i++)
        mo[i] = NONE;
    for (size_t j = 0; j < n->n_bindings; j++)
        mn[j] = NONE;
    for (size_t i = 0, j = 0; i < o->n_bindings && j < n->n_bindings;) {
        int r = key_cmp2(o, &o->bindings[ko[i]], n, &n->bindings[kn[j]]);
        if (r == 0) {
            mo[ko[i]] = kn[j];
            mn[kn[j]] = ko[i];
        }
        i += r <= 0;
        j += r >= 0;
    }
}

void fkcg_dkey_put_source(fkcg_buf *out, const char *ks)
{
    if (*ks && !strpbrk(ks, " \t\"\\")) {
        fkcg_buf_puts(out, ks);
        return;
    }
    fkcg_buf_putc(out, '"');
    for (const char *p = ks; *p; p++) {
        if (*p == '"' || *p == '\\')
            fkcg_buf_putc(out, '\\');
        fkcg_buf_putc(out, *p);
    }
    fkcg_buf_putc(out, '"');
}

static const char *dtype_name(int d)
{
    return d < 0 ? "*" : fkcg_dtypes[d].name;
}

void fkcg_dkeys_put(fkcg_buf *out, const fkcg_dkey *k, size_t n)
{
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1;
             j < n && same(k[j].op_kind, k[i].op_kind) && same(k[j].backend, k[i].backend) &&
             same(k[j].kernel_source, k[i].kernel_source);
             j++) {
        }
        if (i)
            fkcg_buf_puts(out, "; ");
        bool plain = true;
        for (size_t m = i; m < j; m++)
            plain = plain && fkcg_dkey_plain(&k[m]);
        if (!plain) { /* keys over several tensors: each written whole */
            fkcg_buf_printf(out, "(%s, K, %s) + ", k[i].op_kind, k[i].backend);
            fkcg_dkey_put_source(out, k[i].kernel_source);
            for (size_t m = i; m < j; m++) {
                fkcg_buf_puts(out, m == i ? " for K in [" : ", [");
                for (uint32_t s = 0; s < k[m].n_key; s++)
                    fkcg_buf_printf(out, "%s%s", s ? ", " : "", k[m].names[s]);
                fkcg_buf_putc(out, ']');
            }
            continue;
        }
        bool many = j - i > 1;
        fkcg_buf_printf(out, "(%s, [%s, %s], %s) + ", k[i].op_kind,
                        many ? "T" : dtype_name(k[i].dtype), many ? "T" : dtype_name(k[i].dtype),
                        k[i].backend);
        fkcg_dkey_put_source(out, k[i].kernel_source);
        for (size_t m = i; many && m < j; m++)
            fkcg_buf_printf(out, "%s%s", m == i ? " for T in " : ", ", dtype_name(k[m].dtype));
    }
}

/* ---- sections and files ---- */

static int by_kernel_name(const void *key, const void *elem)
{
    return strcmp(key, (*(const fkcg_section *const *)elem)->kernel);
}

/* The index of the section of that kernel name in t (sorted by kernel name), or NONE. */
static size_t section_named(const fkcg_table *t, const char *kernel)
{
    if (!t->n_sections) /* an empty revision's table has no array */
        return NONE;
    const fkcg_section *const *s = bsearch(kernel, t->sections, t->n_sections, sizeof *s,
                                           by_kernel_name);
    return s ? (size_t)(s - t->sections) : NONE;
}

/* The name within its revision of the file a section or provider was read from. */
static const char *name_in(const fkcg_diff_side *side, const char *file)
{
    for (size_t i = 0; i < side->n_files; i++)
        if (side->files[i] == file || !strcmp(side->files[i], file))
            return side->names[i];
    return file;
}

/* The provider of `other`'s revision read from a file of the same name as p's, or NULL. */
static const fkcg_provider *same_file(const fkcg_diff_side *mine, const fkcg_diff_side *other,
                                      const fkcg_provider *p)
{
    const char *name = name_in(mine, p->loc.file);
    for (size_t i = 0; i < other->table->n_providers; i++) {
        const fkcg_provider *q = other->table->providers[i];
        if (!strcmp(name_in(other, q->loc.file), name))
            return q;
    }
    return NULL;
}

static bool same_opkey(const fkcg_section *a, const fkcg_section *b)
{
    return !strcmp(a->op_kind, b->op_kind) && !strcmp(a->backend, b->backend) &&
           !strcmp(a->kernel_source, b->kernel_source);
}

/* ---- one pair of sections, datum by datum ---- */

static void cmp_names(dctx *c, const spair *p)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    if (strcmp(so->kernel, sn->kernel) != 0) {
        fkcg_buf w;
        fkcg_buf_init(&w);
        unsigned seen = 0;
        for (int pass = 0; pass < 2; pass++) {
            if (pass)
                fkcg_buf_puts(&w, " are now ");
            seen = 0;
            for (size_t i = 0; i < p->n_keys; i++) {
                const fkcg_dtype_info *di = fkcg_table_dtype(c->old->table, p->keys[i].dtype);
                unsigned bytes = di ? di->bytes : 0;
                if (seen & bytes)
                    continue;
                fkcg_buf_printf(&w, "%s%s_b%u", seen ? ", " : "", pass ? sn->kernel : so->kernel,
                                bytes);
                seen |= bytes;
            }
        }
        change(c, FKCG_R_WRAPPER_RENAMED, p, so->kernel_loc, sn->kernel_loc, was_str(c, so->kernel),
               "kernel '%s' renamed to '%s': its wrappers %s", so->kernel, sn->kernel, w.data);
        fkcg_buf_free(&w);
    }
    if (strcmp(so->entry_point, sn->entry_point) != 0)
        change(c, FKCG_R_ENTRY_POINT_RENAMED, p, so->entry_point_loc, sn->entry_point_loc,
               was_str(c, so->entry_point),
               "entry_point of kernel '%s' renamed from '%s' to "
               "'%s': its symbols %s_<suffix> are now %s_<suffix>",
               sn->kernel, so->entry_point, sn->entry_point, so->entry_point, sn->entry_point);
}

static void cmp_file(dctx *c, const spair *p)
{
    const char *fo = name_in(c->old, p->so->loc.file), *fn = name_in(c->new_, p->sn->loc.file);
    if (strcmp(fo, fn) == 0) /* two files given alone are both named "" */
        return;
    if (!*fo)
        fo = p->so->loc.file;
    if (!*fn)
        fn = p->sn->loc.file;
    if (!strcmp(p->so->kernel, p->sn->kernel))
        change(c, FKCG_R_KERNEL_MOVED, p, p->so->kernel_loc, p->sn->kernel_loc, "was here",
               "kernel '%s' moved from %s to %s", p->sn->kernel, fo, fn);
    else
        change(c, FKCG_R_KERNEL_MOVED, p, p->so->kernel_loc, p->sn->kernel_loc, "was here",
               "bindings of kernel '%s' in %s moved to kernel '%s' in %s", p->so->kernel, fo,
               p->sn->kernel, fn);
}

static bool has_dtype(const fkcg_input *in, int d)
{
    for (size_t k = 0; k < in->n_dtypes; k++)
        if (in->dtypes[k] == d)
            return true;
    return false;
}

/* A section's dtype d by name: the vocabulary's or one of its provider's block dtypes. */
static const char *section_dtype_name(const fkcg_section *s, int d)
{
    const fkcg_dtype_info *di = fkcg_section_dtype(s, d);
    return di ? di->name : "?";
}

/* Input i's dtypes: for inputs after the first (the first's are the bindings, matched by
 * key), each removed or added; for every input, the common ones listed in another order. */
static void cmp_dtypes(dctx *c, const spair *p, size_t i)
{
    const fkcg_input *io = &p->so->inputs[i], *in = &p->sn->inputs[i];
    for (size_t k = 0; i > 0 && k < io->n_dtypes; k++)
        if (!has_dtype(in, io->dtypes[k]))
            change(c, FKCG_R_DTYPE_REMOVED, p, at(p->so, "accept.inputs[%zu].dtypes[%zu]", i, k),
                   at(p->sn, "accept.inputs[%zu].dtypes", i), "was listed here",
                   "dtype %s removed from input '%s' of kernel '%s'",
                   section_dtype_name(p->so, io->dtypes[k]), in->name, p->sn->kernel);
    for (size_t k = 0; i > 0 && k < in->n_dtypes; k++)
        if (!has_dtype(io, in->dtypes[k]))
            change(c, FKCG_R_DTYPE_ADDED, p, at(p->so, "accept.inputs[%zu].dtypes", i),
                   at(p->sn, "accept.inputs[%zu].dtypes[%zu]", i, k), "was not listed",
                   "dtype %s added to input '%s' of kernel '%s'",
                   section_dtype_name(p->sn, in->dtypes[k]), in->name, p->sn->kernel);
    /* the dtypes both list, in each side's order (block dtypes too: up to FKCG_MAX_DTYPES) */
    int co[FKCG_MAX_DTYPES], cn[FKCG_MAX_DTYPES];
    size_t no = 0, nn = 0;
    for (size_t k = 0; k < io->n_dtypes; k++)
        if (has_dtype(in, io->dtypes[k]))
            co[no++] = io->dtypes[k];
    for (size_t k = 0; k < in->n_dtypes; k++)
        if (has_dtype(io, in->dtypes[k]))
            cn[nn++] = in->dtypes[k];
    if (no == nn && memcmp(co, cn, no * sizeof co[0]) != 0)
        change(c, FKCG_R_DTYPES_REORDERED, p, at(p->so, "accept.inputs[%zu].dtypes", i),
               at(p->sn, "accept.inputs[%zu].dtypes", i), "was in this order",
               "dtypes of input '%s' of kernel '%s' listed in another order", in->name,
               p->sn->kernel);
}

/* A layout key's strictness: accepted takes either, required and rejected one; unstated
 * promises nothing. */
static bool layout_tightened(const char *o, const char *n)
{
    if (!n)
        return true; /* a statement withdrawn */
    if (!o)
        return false;                  /* a statement added */
    return strcmp(n, "accepted") != 0; /* accepted → required/rejected, required ↔ rejected */
}

static void cmp_layout(dctx *c, const spair *p, size_t i)
{
    const fkcg_input *io = &p->so->inputs[i], *in = &p->sn->inputs[i];
    for (int k = 0; k < FKCG_NLAYOUT; k++) {
        const char *o = io->layout[k], *n = in->layout[k];
        if (same(o, n))
            continue;
        bool tight = layout_tightened(o, n);
        change(c, tight ? FKCG_R_LAYOUT_TIGHTENED : FKCG_R_LAYOUT_RELAXED, p,
               at(p->so, "accept.inputs[%zu].layout.%s", i, fkcg_layout_keys[k]),
               at(p->sn, "accept.inputs[%zu].layout.%s", i, fkcg_layout_keys[k]), was_str(c, o),
               "layout %s of input '%s' of kernel '%s' %s from %s to %s", fkcg_layout_keys[k],
               in->name, p->sn->kernel, tight ? "tightened" : "relaxed", or_unset(o), or_unset(n));
    }
}

/* The tensor index of a name in s (input k: k; output k: n_inputs + k), or -1. */
static long tensor_named(const fkcg_section *s, const char *name)
{
    for (size_t k = 0; k < s->n_inputs + s->n_outputs; k++)
        if (!strcmp(k < s->n_inputs ? s->inputs[k].name : s->outputs[k - s->n_inputs].name, name))
            return (long)k;
    return -1;
}

/* How many of so's dtype tuples have input i's dtype differ from that of the tensor x names
 * (by its position in sn, the side that states it): the keys the constraint `same_dtype_as: x`
 * forbids of those bound before. SIZE_MAX when so's key lacks either slot (KEY_CHANGED). */
static size_t keys_split(const fkcg_section *so, const fkcg_section *sn, size_t i, const char *x)
{
    long tx = tensor_named(sn, x);
    int si = -1, sx = -1;
    for (size_t k = 0; k < so->n_key; k++) {
        if (so->key[k] == (int)i)
            si = (int)k;
        if (tx >= 0 && so->key[k] == (int)tx)
            sx = (int)k;
    }
    if (si < 0 || sx < 0)
        return SIZE_MAX;
    size_t n = 0;
    for (size_t j = 0; j < so->n_tuples; j++)
        n += so->tuples[j * so->n_key + (size_t)si] != so->tuples[j * so->n_key + (size_t)sx];
    return n;
}

/* same_dtype_as of input i: stated or changed (breaking when a key bound before breaks it),
 * or removed. The keys themselves are COMBINATION_*'s; this names the cause, at its line. */
static void cmp_same_dtype(dctx *c, const spair *p, size_t i)
{
    const fkcg_input *io = &p->so->inputs[i], *in = &p->sn->inputs[i];
    if (same(io->same_dtype_as, in->same_dtype_as))
        return;
    fkcg_loc lo = at(p->so, "accept.inputs[%zu].same_dtype_as", i);
    fkcg_loc ln = at(p->sn, "accept.inputs[%zu].same_dtype_as", i);
    const char *was = io->same_dtype_as ? was_str(c, io->same_dtype_as) : "was not stated";
    if (!in->same_dtype_as) {
        change(c, FKCG_R_SAME_DTYPE_AS_REMOVED, p, lo, ln, was,
               "same_dtype_as of input '%s' of kernel '%s' removed: its dtype no longer "
               "follows '%s'",
               in->name, p->sn->kernel, io->same_dtype_as);
        return;
    }
    size_t n = keys_split(p->so, p->sn, i, in->same_dtype_as);
    const char *how = io->same_dtype_as ? "changed" : "stated";
    if (n == 0)
        change(c, FKCG_R_SAME_DTYPE_AS_STATED, p, lo, ln, was,
               "same_dtype_as of input '%s' of kernel '%s' %s: '%s'; no key bound before has "
               "their dtypes differ",
               in->name, p->sn->kernel, how, in->same_dtype_as);
    else if (n == SIZE_MAX)
        change(c, FKCG_R_SAME_DTYPE_AS_CHANGED, p, lo, ln, was,
               "same_dtype_as of input '%s' of kernel '%s' %s: '%s' (the key changed too)",
               in->name, p->sn->kernel, how, in->same_dtype_as);
    else
        change(c, FKCG_R_SAME_DTYPE_AS_CHANGED, p, lo, ln, was,
               "same_dtype_as of input '%s' of kernel '%s' %s: '%s'; %zu key%s bound before "
               "had their dtypes differ",
               in->name, p->sn->kernel, how, in->same_dtype_as, n, n == 1 ? "" : "s");
}

/* optional and absent_key (issue 22): made optional is compatible, made required breaking,
 * another absent key (the key a call without it is looked up under) breaking. */
static void cmp_optional(dctx *c, const spair *p, size_t i)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    const fkcg_input *io = &so->inputs[i], *in = &sn->inputs[i];
    if (io->variadic != in->variadic) /* issue 22: variadic inputs */
        change(c, FKCG_R_VARIADIC_CHANGED, p,
               at(so, io->variadic ? "accept.inputs[%zu].variadic" : "accept.inputs[%zu]", i),
               at(sn, in->variadic ? "accept.inputs[%zu].variadic" : "accept.inputs[%zu]", i),
               io->variadic ? "was variadic" : "was one tensor", "input '%s' of kernel '%s' %s",
               in->name, sn->kernel,
               in->variadic ? "made variadic: its C parameter is a pointer array and a count"
                            : "no longer variadic: its C parameter is one tensor");
    if (io->shape_only != in->shape_only) /* issue 22: shape-only inputs */
        change(c, in->shape_only ? FKCG_R_INPUT_MADE_SHAPE_ONLY : FKCG_R_INPUT_DATA_READ, p,
               at(so, io->shape_only ? "accept.inputs[%zu].shape_only" : "accept.inputs[%zu]", i),
               at(sn, in->shape_only ? "accept.inputs[%zu].shape_only" : "accept.inputs[%zu]", i),
               io->shape_only ? "was shape-only" : "was read", "input '%s' of kernel '%s' %s",
               in->name, sn->kernel,
               in->shape_only ? "made shape-only: its data is no longer read"
                              : "is read now: it was shape-only");
    if (io->optional != in->optional) {
        change(c, in->optional ? FKCG_R_INPUT_MADE_OPTIONAL : FKCG_R_INPUT_MADE_REQUIRED, p,
               at(so, io->optional ? "accept.inputs[%zu].optional" : "accept.inputs[%zu]", i),
               at(sn, in->optional ? "accept.inputs[%zu].optional" : "accept.inputs[%zu]", i),
               io->optional ? "was optional" : "was required", "input '%s' of kernel '%s' made %s",
               in->name, sn->kernel,
               in->optional ? "optional: the wrapper may get NULL for it"
                            : "required: a call without it is refused");
        return;
    }
    if (!in->optional)
        return;
    const fkcg_dtype_info *ao = io->absent_key >= 0 ? fkcg_section_dtype(so, io->absent_key) : NULL;
    const fkcg_dtype_info *an = in->absent_key >= 0 ? fkcg_section_dtype(sn, in->absent_key) : NULL;
    if ((ao == NULL) != (an == NULL) || (ao && strcmp(ao->name, an->name) != 0))
        change(c, FKCG_R_ABSENT_KEY_CHANGED, p,
               at(so, ao ? "accept.inputs[%zu].absent_key" : "accept.inputs[%zu]", i),
               at(sn, an ? "accept.inputs[%zu].absent_key" : "accept.inputs[%zu]", i),
               ao ? fkcg_sprintf(c->a, "was %s", ao->name) : "was not stated",
               "absent_key of optional input '%s' of kernel '%s' now %s: a call without it is "
               "keyed otherwise",
               in->name, sn->kernel, an ? an->name : "not stated");
}

static void cmp_input(dctx *c, const spair *p, size_t i)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    const fkcg_input *io = &so->inputs[i], *in = &sn->inputs[i];
    if (strcmp(io->name, in->name) != 0)
        change(c, FKCG_R_INPUT_RENAMED, p, at(so, "accept.inputs[%zu].name", i),
               at(sn, "accept.inputs[%zu].name", i), was_str(c, io->name),
               "input %zu of kernel '%s' renamed from '%s' to '%s'", i + 1, sn->kernel, io->name,
               in->name);
    cmp_dtypes(c, p, i);
    cmp_same_dtype(c, p, i);
    cmp_layout(c, p, i);
    cmp_optional(c, p, i);
    if (strcmp(io->rank, in->rank) != 0) {
        bool wide = !strcmp(in->rank, "any");
        change(c, wide ? FKCG_R_RANK_WIDENED : FKCG_R_RANK_NARROWED, p,
               at(so, "accept.inputs[%zu].rank", i), at(sn, "accept.inputs[%zu].rank", i),
               was_str(c, io->rank), "rank of input '%s' of kernel '%s' %s from %s to %s", in->name,
               sn->kernel,
               wide                      ? "widened"
               : strcmp(io->rank, "any") ? "changed"
                                         : "narrowed",
               io->rank, in->rank);
    }
    if (!same(io->shape_constraint, in->shape_constraint))
        change(c, FKCG_R_SHAPE_CONSTRAINT_CHANGED, p,
               at(so, "accept.inputs[%zu].shape_constraint", i),
               at(sn, "accept.inputs[%zu].shape_constraint", i),
               io->shape_constraint ? "was this" : "was not stated",
               "shape_constraint of input '%s' of kernel '%s' %s", in->name, sn->kernel,
               !in->shape_constraint  ? "removed"
               : io->shape_constraint ? "changed"
                                      : "stated");
}

static void cmp_inputs(dctx *c, const spair *p)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    size_t n = so->n_inputs < sn->n_inputs ? so->n_inputs : sn->n_inputs;
    for (size_t i = 0; i < n; i++)
        cmp_input(c, p, i);
    for (size_t i = n; i < so->n_inputs; i++)
        change(c, FKCG_R_INPUT_REMOVED, p, at(so, "accept.inputs[%zu]", i), at(sn, "accept.inputs"),
               "was declared here",
               "input '%s' removed from kernel '%s': its function takes %zu input%s, not %zu",
               so->inputs[i].name, sn->kernel, sn->n_inputs, sn->n_inputs == 1 ? "" : "s",
               so->n_inputs);
    for (size_t i = n; i < sn->n_inputs; i++)
        change(c, FKCG_R_INPUT_ADDED, p, at(so, "accept.inputs"), at(sn, "accept.inputs[%zu]", i),
               fkcg_sprintf(c->a, "had %zu input%s", so->n_inputs, so->n_inputs == 1 ? "" : "s"),
               "input '%s' added to kernel '%s': its function takes %zu inputs, not %zu",
               sn->inputs[i].name, sn->kernel, sn->n_inputs, so->n_inputs);
}

static const fkcg_field *field_named(const fkcg_section *s, const char *name, size_t *at_i)
{
    for (size_t i = 0; i < s->n_fields; i++)
        if (!strcmp(s->fields[i].name, name)) {
            if (at_i)
                *at_i = i;
            return &s->fields[i];
        }
    return NULL;
}

static long value_index(const fkcg_field *f, const char *v)
{
    for (size_t k = 0; k < f->n_values; k++)
        if (!strcmp(f->values[k], v))
            return (long)k;
    return -1;
}

/* A field of one kind on both sides (issue 22 item 3): its enum values and its default. A
 * value added is compatible (callers' values still mean what they meant); one removed, or one
 * whose number changed (a value inserted before it, or the list reordered), is breaking. A
 * default added is compatible (no caller relied on one), removed or changed is breaking:
 * callers who left the field unset now fail to build, or get another behaviour. */
static void cmp_field_typing(dctx *c, const spair *p, const fkcg_field *f, const fkcg_field *g)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    fkcg_loc lo = at(so, "accept.op_params.fields.%s.values", f->name);
    fkcg_loc ln = at(sn, "accept.op_params.fields.%s.values", f->name);
    for (size_t k = 0; k < f->n_values; k++) {
        long j = value_index(g, f->values[k]);
        if (j < 0)
            change(c, FKCG_R_ENUM_VALUE_REMOVED, p, lo, ln,
                   fkcg_sprintf(c->a, "had '%s' (%lld)", f->values[k],
                                (long long)fkcg_field_code(f, k)),
                   "value '%s' of enum field '%s' of kernel '%s' removed", f->values[k], f->name,
                   sn->kernel);
        else if (fkcg_field_code(g, (size_t)j) != fkcg_field_code(f, k))
            change(c, FKCG_R_ENUM_VALUE_RENUMBERED, p, lo, ln,
                   fkcg_sprintf(c->a, "was %lld", (long long)fkcg_field_code(f, k)),
                   "value '%s' of enum field '%s' of kernel '%s' is numbered %lld, was %lld",
                   f->values[k], f->name, sn->kernel, (long long)fkcg_field_code(g, (size_t)j),
                   (long long)fkcg_field_code(f, k));
    }
    for (size_t k = 0; k < g->n_values; k++)
        if (value_index(f, g->values[k]) < 0)
            change(c, FKCG_R_ENUM_VALUE_ADDED, p, lo, ln, "had no such value",
                   "value '%s' (%lld) added to enum field '%s' of kernel '%s'", g->values[k],
                   (long long)fkcg_field_code(g, k), g->name, sn->kernel);
    if (same(f->def, g->def))
        return;
    fkcg_loc dn = g->def ? g->def_loc : at(sn, "accept.op_params.fields.%s", f->name);
    fkcg_loc dol = f->def ? f->def_loc : at(so, "accept.op_params.fields.%s", f->name);
    if (!f->def)
        change(c, FKCG_R_OP_PARAM_DEFAULT_ADDED, p, dol, dn, "had no default",
               "op_params field '%s' of kernel '%s' has a default now: %s", g->name, sn->kernel,
               g->def);
    else if (!g->def)
        change(c, FKCG_R_OP_PARAM_DEFAULT_REMOVED, p, dol, dn, fkcg_sprintf(c->a, "was %s", f->def),
               "default of op_params field '%s' of kernel '%s' removed: callers must set it",
               g->name, sn->kernel);
    else
        change(c, FKCG_R_OP_PARAM_DEFAULT_CHANGED, p, dol, dn, fkcg_sprintf(c->a, "was %s", f->def),
               "default of op_params field '%s' of kernel '%s' changed from %s to %s", g->name,
               sn->kernel, f->def, g->def);
}

/* The fields both sides have, in old order and in new order: the same list, or reordered. */
static void cmp_field_order(dctx *c, const spair *p)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    size_t n = 0, m = 0, first = NONE;
    const char **ov = fkcg_alloc(c->a, (so->n_fields + 1) * sizeof *ov);
    const char **nv = fkcg_alloc(c->a, (sn->n_fields + 1) * sizeof *nv);
    for (size_t i = 0; i < so->n_fields; i++)
        if (field_named(sn, so->fields[i].name, NULL))
            ov[n++] = so->fields[i].name;
    for (size_t i = 0; i < sn->n_fields; i++)
        if (field_named(so, sn->fields[i].name, NULL))
            nv[m++] = sn->fields[i].name;
    for (size_t i = 0; i < n && first == NONE; i++)
        if (strcmp(ov[i], nv[i]) != 0)
            first = i;
    if (first == NONE)
        return;
    fkcg_buf o, w;
    fkcg_buf_init(&o);
    fkcg_buf_init(&w);
    for (size_t i = 0; i < n; i++) {
        fkcg_buf_printf(&o, "%s%s", i ? ", " : "", ov[i]);
        fkcg_buf_printf(&w, "%s%s", i ? ", " : "", nv[i]);
    }
    change(c, FKCG_R_OP_PARAMS_REORDERED, p, field_named(so, nv[first], NULL)->loc,
           field_named(sn, nv[first], NULL)->loc, fkcg_sprintf(c->a, "was in the order %s", o.data),
           "op_params fields of kernel '%s' reordered: (%s) are now (%s)", sn->kernel, o.data,
           w.data);
    fkcg_buf_free(&o);
    fkcg_buf_free(&w);
}

static void cmp_op_params(dctx *c, const spair *p)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    if (!same(so->variant, sn->variant)) {
        fkcg_loc lo = at(so, "accept.op_params.variant"), ln = at(sn, "accept.op_params.variant");
        if (so->variant && sn->variant)
            change(c, FKCG_R_OP_PARAMS_VARIANT_CHANGED, p, lo, ln, was_str(c, so->variant),
                   "op_params variant of kernel '%s' changed from '%s' to '%s'", sn->kernel,
                   so->variant, sn->variant);
        else
            change(c, FKCG_R_OP_PARAMS_VARIANT_CHANGED, p, lo, ln,
                   so->variant ? fkcg_sprintf(c->a, "was variant '%s'", so->variant)
                               : "had no op_params",
                   "op_params %s kernel '%s' (variant '%s')",
                   so->variant ? "removed from" : "added to", sn->kernel,
                   so->variant ? so->variant : sn->variant);
    }
    for (size_t i = 0; i < so->n_fields; i++) {
        const fkcg_field *f = &so->fields[i], *g = field_named(sn, f->name, NULL);
        if (!g) {
            change(c, FKCG_R_OP_PARAM_REMOVED, p, f->loc, at(sn, "accept.op_params.fields"),
                   "was declared here", "op_params field '%s' (%s) removed from kernel '%s'",
                   f->name, f->kind, sn->kernel);
            continue;
        }
        if (strcmp(f->kind, g->kind) != 0)
            change(c, FKCG_R_OP_PARAM_KIND_CHANGED, p,
                   at(so, "accept.op_params.fields.%s.kind", f->name),
                   at(sn, "accept.op_params.fields.%s.kind", f->name), was_str(c, f->kind),
                   "op_params field '%s' of kernel '%s' changed kind from %s to %s", f->name,
                   sn->kernel, f->kind, g->kind);
        else
            cmp_field_typing(c, p, f, g);
        if (!same(f->note, g->note))
            change(c, FKCG_R_DOC_CHANGED, p, at(so, "accept.op_params.fields.%s.note", f->name),
                   at(sn, "accept.op_params.fields.%s.note", f->name),
                   f->note ? "was this" : "was not stated",
                   "note of op_params field '%s' of kernel '%s' %s", f->name, sn->kernel,
                   !g->note  ? "removed"
                   : f->note ? "changed"
                             : "stated");
    }
    for (size_t i = 0; i < sn->n_fields; i++) {
        const fkcg_field *g = &sn->fields[i];
        if (!field_named(so, g->name, NULL))
            change(c, FKCG_R_OP_PARAM_ADDED, p, at(so, "accept.op_params.fields"), g->loc,
                   "had no such field",
                   "op_params field '%s' (%s) added to kernel '%s': every caller must set it "
                   "(or take its default) and rebuild",
                   g->name, g->kind, sn->kernel);
    }
    cmp_field_order(c, p);
}

static long input_index(const fkcg_section *s, const char *name)
{
    for (size_t i = 0; i < s->n_inputs; i++)
        if (!strcmp(s->inputs[i].name, name))
            return (long)i;
    return -1;
}

/* Do two rules `fn(arg)` mean the same? An input argument (passthrough, same_as) is compared
 * by its position (an input renamed along with the rule is no change), any other (a field of
 * from_params or param, the dtype of fixed) as written: a fixed(D) or param(F) rule compared
 * by input position was "changed" against itself. */
static bool same_rule(const fkcg_section *so, const char *ro, const char *ao,
                      const fkcg_section *sn, const char *rn, const char *an)
{
    size_t lo = strcspn(ro, "("), ln = strcspn(rn, "(");
    if (lo != ln || strncmp(ro, rn, lo) != 0)
        return false;
    bool by_input = (lo == 11 && !strncmp(ro, "passthrough", lo)) ||
                    (lo == 7 && !strncmp(ro, "same_as", lo));
    if (!by_input)
        return same(ao, an);
    long io = input_index(so, ao), in = input_index(sn, an);
    return io == in && io >= 0;
}

/* Do the operands of two shape rules with operands of their own (broadcast, reduce, ...; issue
 * 22) mean the same? An input by its position, anything else as validate spells it. */
static bool same_shape_operands(const fkcg_section *so, const fkcg_output *o,
                                const fkcg_section *sn, const fkcg_output *n)
{
    if (o->shape < FKCG_SR_BROADCAST && n->shape < FKCG_SR_BROADCAST)
        return true;
    if (o->shape != n->shape || o->n_shape_args != n->n_shape_args)
        return false;
    for (size_t k = 0; k < o->n_shape_args; k++) {
        const char *a = o->shape_args[k], *b = n->shape_args[k];
        long ia = input_index(so, a), ib = input_index(sn, b);
        if (ia >= 0 || ib >= 0) {
            if (ia != ib)
                return false;
            continue;
        }
        if (strcmp(a, b) != 0) /* one spelling each (validate.c) */
            return false;
    }
    return true;
}

static void cmp_output(dctx *c, const spair *p, size_t i)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    const fkcg_output *o = &so->outputs[i], *n = &sn->outputs[i];
#define OUT_AT(s, key) at(s, "return.outputs[%zu].%s", i, key)
    if (strcmp(o->name, n->name) != 0)
        change(c, FKCG_R_OUTPUT_RENAMED, p, OUT_AT(so, "name"), OUT_AT(sn, "name"),
               was_str(c, o->name), "output %zu of kernel '%s' renamed from '%s' to '%s'", i + 1,
               sn->kernel, o->name, n->name);
    if (!same_rule(so, o->dtype_rule, o->dtype_rule_arg, sn, n->dtype_rule, n->dtype_rule_arg))
        change(c, FKCG_R_OUTPUT_DTYPE_RULE_CHANGED, p, OUT_AT(so, "dtype_rule"),
               OUT_AT(sn, "dtype_rule"), was_str(c, o->dtype_rule),
               "dtype_rule of output '%s' of kernel '%s' changed from %s to %s", n->name,
               sn->kernel, o->dtype_rule, n->dtype_rule);
    if (!same_rule(so, o->shape_rule, o->shape_rule_arg, sn, n->shape_rule, n->shape_rule_arg) ||
        !same_shape_operands(so, o, sn, n))
        change(c, FKCG_R_OUTPUT_SHAPE_RULE_CHANGED, p, OUT_AT(so, "shape_rule"),
               OUT_AT(sn, "shape_rule"), was_str(c, o->shape_rule),
               "shape_rule of output '%s' of kernel '%s' changed from %s to %s", n->name,
               sn->kernel, o->shape_rule, n->shape_rule);
    if (strcmp(o->layout_guarantee, n->layout_guarantee) != 0)
        change(c, FKCG_R_OUTPUT_LAYOUT_CHANGED, p, OUT_AT(so, "layout_guarantee"),
               OUT_AT(sn, "layout_guarantee"), was_str(c, o->layout_guarantee),
               "layout_guarantee of output '%s' of kernel '%s' changed from %s to %s", n->name,
               sn->kernel, o->layout_guarantee, n->layout_guarantee);
    if (strcmp(o->aliasing, n->aliasing) != 0) {
        bool narrowed = !strcmp(o->aliasing, "may_alias_input") && !strcmp(n->aliasing, "none");
        change(c, narrowed ? FKCG_R_OUTPUT_ALIASING_NARROWED : FKCG_R_OUTPUT_ALIASING_CHANGED, p,
               OUT_AT(so, "aliasing"), OUT_AT(sn, "aliasing"), was_str(c, o->aliasing),
               "aliasing of output '%s' of kernel '%s' %s from %s to %s", n->name, sn->kernel,
               narrowed ? "narrowed" : "changed", o->aliasing, n->aliasing);
    }
    /* issue 22: in_place by the input's place (an input renamed with it is no change) */
    if (fkcg_output_in_place(o) != fkcg_output_in_place(n) || o->out_arg != n->out_arg) {
        const char *key_o = o->in_place ? "in_place" : o->out_arg ? "out_arg" : "aliasing";
        const char *key_n = n->in_place ? "in_place" : n->out_arg ? "out_arg" : "aliasing";
        const char *now = n->in_place  ? fkcg_sprintf(c->a, "in place over '%s'", n->in_place)
                          : n->out_arg ? "an out= argument"
                                       : "aliased to no named input";
        change(c, FKCG_R_OUTPUT_ALIAS_CHANGED, p, OUT_AT(so, key_o), OUT_AT(sn, key_n),
               o->in_place  ? fkcg_sprintf(c->a, "was in place over '%s'", o->in_place)
               : o->out_arg ? "was an out= argument"
                            : "had no named alias",
               "output '%s' of kernel '%s' is now %s", n->name, sn->kernel, now);
    }
#undef OUT_AT
}

static void cmp_outputs(dctx *c, const spair *p)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    size_t n = so->n_outputs < sn->n_outputs ? so->n_outputs : sn->n_outputs;
    for (size_t i = 0; i < n; i++)
        cmp_output(c, p, i);
    for (size_t i = n; i < so->n_outputs; i++)
        change(c, FKCG_R_OUTPUT_REMOVED, p, at(so, "return.outputs[%zu]", i),
               at(sn, "return.outputs"), "was declared here",
               "output '%s' removed from kernel '%s': its function takes %zu output%s, not %zu",
               so->outputs[i].name, sn->kernel, sn->n_outputs, sn->n_outputs == 1 ? "" : "s",
               so->n_outputs);
    for (size_t i = n; i < sn->n_outputs; i++)
        change(c, FKCG_R_OUTPUT_ADDED, p, at(so, "return.outputs"),
               at(sn, "return.outputs[%zu]", i),
               fkcg_sprintf(c->a, "had %zu output%s", so->n_outputs, so->n_outputs == 1 ? "" : "s"),
               "output '%s' added to kernel '%s': its function takes %zu outputs, not %zu",
               sn->outputs[i].name, sn->kernel, sn->n_outputs, so->n_outputs);
}

/* A cap that is a number the planner must meet: larger is narrower. */
static void cmp_cap_number(dctx *c, const spair *p, const char *key, uint32_t o, uint32_t n)
{
    if (o == n)
        return;
    change(c, n > o ? FKCG_R_CAPS_NARROWED : FKCG_R_CAPS_WIDENED, p, at(p->so, "caps.%s", key),
           at(p->sn, "caps.%s", key), fkcg_sprintf(c->a, "was %u", o),
           "caps %s of kernel '%s' %s from %u to %u", key, p->sn->kernel,
           n > o ? "raised" : "lowered", o, n);
}

static long fast_path_named(const fkcg_caps *c, const char *when, const bool *taken)
{
    for (size_t i = 0; i < c->n_fast_paths; i++)
        if (!taken[i] && !strcmp(c->fast_paths[i].when, when))
            return (long)i;
    return -1;
}

/* Fast paths are hints: each removed, added, of another class or reordered is CAPS_CHANGED.
 * Paired by `when`, first with first, so a repeated condition pairs in order. */
static void cmp_fast_paths(dctx *c, const spair *p)
{
    const fkcg_caps *o = &p->so->caps, *n = &p->sn->caps;
    bool *taken = fkcg_alloc(c->a, n->n_fast_paths + 1);
    long *pair = fkcg_alloc(c->a, (o->n_fast_paths + 1) * sizeof *pair);
    const char *k = p->sn->kernel;
    for (size_t i = 0; i < o->n_fast_paths; i++) {
        const fkcg_fast_path *f = &o->fast_paths[i];
        long j = pair[i] = fast_path_named(n, f->when, taken);
        if (j < 0) {
            change(c, FKCG_R_CAPS_CHANGED, p, at(p->so, "caps.fast_paths[%zu]", i),
                   at(p->sn, "caps.fast_paths"), "was here",
                   "fast path '%s' of kernel '%s' removed", f->when, k);
            continue;
        }
        taken[j] = true;
        if (strcmp(f->cost_class, n->fast_paths[j].cost_class) != 0)
            change(c, FKCG_R_CAPS_CHANGED, p, at(p->so, "caps.fast_paths[%zu].class", i),
                   at(p->sn, "caps.fast_paths[%ld].class", j), was_str(c, f->cost_class),
                   "fast path '%s' of kernel '%s' changed class from %s to %s", f->when, k,
                   f->cost_class, n->fast_paths[j].cost_class);
    }
    for (size_t j = 0; j < n->n_fast_paths; j++)
        if (!taken[j])
            change(c, FKCG_R_CAPS_CHANGED, p, at(p->so, "caps.fast_paths"),
                   at(p->sn, "caps.fast_paths[%zu]", j), "had no such fast path",
                   "fast path '%s' added to kernel '%s'", n->fast_paths[j].when, k);
    long last = -1;
    for (size_t i = 0; i < o->n_fast_paths; i++) {
        if (pair[i] < 0)
            continue;
        if (pair[i] < last) {
            change(c, FKCG_R_CAPS_CHANGED, p, at(p->so, "caps.fast_paths"),
                   at(p->sn, "caps.fast_paths"), "was in this order",
                   "fast paths of kernel '%s' listed in another order", k);
            break;
        }
        last = pair[i];
    }
}

static void cmp_caps(dctx *c, const spair *p)
{
    const fkcg_caps *o = &p->so->caps, *n = &p->sn->caps;
    const char *k = p->sn->kernel;
    if (strcmp(o->awkward_layout_strategy, n->awkward_layout_strategy) != 0) {
        bool to = !strcmp(n->awkward_layout_strategy, "requires_contiguous");
        bool from = !strcmp(o->awkward_layout_strategy, "requires_contiguous");
        change(c,
               to     ? FKCG_R_CAPS_NARROWED
               : from ? FKCG_R_CAPS_WIDENED
                      : FKCG_R_CAPS_CHANGED,
               p, at(p->so, "caps.awkward_layout_strategy"),
               at(p->sn, "caps.awkward_layout_strategy"), was_str(c, o->awkward_layout_strategy),
               "caps awkward_layout_strategy of kernel '%s' changed from %s to %s", k,
               o->awkward_layout_strategy, n->awkward_layout_strategy);
    }
    if (o->in_place != n->in_place)
        change(c, n->in_place ? FKCG_R_CAPS_WIDENED : FKCG_R_CAPS_NARROWED, p,
               at(p->so, "caps.in_place"), at(p->sn, "caps.in_place"),
               o->in_place ? "was true" : "was false", "caps in_place of kernel '%s' %s", k,
               n->in_place ? "granted (false to true)" : "withdrawn (true to false)");
    cmp_cap_number(c, p, "alignment_bytes", o->alignment_bytes, n->alignment_bytes);
    cmp_cap_number(c, p, "access_granularity_bits", o->access_granularity_bits,
                   n->access_granularity_bits);
    cmp_fast_paths(c, p);
}

static const char *expr_text(dctx *c, const fkcg_expr *e)
{
    if (!e)
        return NULL;
    fkcg_buf b;
    fkcg_buf_init(&b);
    fkcg_expr_print(e, &b);
    const char *s = fkcg_strdup(c->a, b.data ? b.data : "");
    fkcg_buf_free(&b);
    return s;
}

/* A cost expression: compared in its canonical form (spacing and redundant parentheses are no
 * change), reported as written. */
static void cmp_cost_expr(dctx *c, const spair *p, const char *key, const fkcg_expr *eo,
                          const char *so_src, const fkcg_expr *en, const char *sn_src)
{
    if (same(expr_text(c, eo), expr_text(c, en)))
        return;
    change(c, FKCG_R_COST_CHANGED, p, at(p->so, "cost.%s", key), at(p->sn, "cost.%s", key),
           was_str(c, so_src), "cost %s of kernel '%s' %s%s%s%s%s", key, p->sn->kernel,
           !en  ? "removed"
           : eo ? "changed from '"
                : "stated: '",
           eo && en ? so_src : "", eo && en ? "' to '" : "", en ? sn_src : "", en ? "'" : "");
    if (eo && en && fkcg_expr_uses_tensors(eo) != fkcg_expr_uses_tensors(en))
        change(c, FKCG_R_COST_FORM_CHANGED, p, at(p->so, "cost.%s", key), at(p->sn, "cost.%s", key),
               was_str(c, so_src),
               "cost %s of kernel '%s' %s tensor terms: its generated function is now %s", key,
               p->sn->kernel, fkcg_expr_uses_tensors(en) ? "gained" : "lost",
               fkcg_expr_uses_tensors(en) ? "the header's <prefix>_cost_<kernel>_<key>(t, count, "
                                            "params) (the binding's is NULL)"
                                          : "the binding's (n, dtype_bytes) one");
}

static void cmp_cost(dctx *c, const spair *p)
{
    const fkcg_cost *o = &p->so->cost, *n = &p->sn->cost;
    const char *k = p->sn->kernel;
    if (o->present != n->present) {
        change(c, FKCG_R_COST_CHANGED, p, at(p->so, "cost"), at(p->sn, "cost"),
               o->present ? "was stated here" : "had no cost", "cost of kernel '%s' %s", k,
               n->present ? "stated (it had the unknown-cost "
                            "sentinel)"
                          : "removed: the unknown-cost sentinel now");
        return;
    }
    if (!o->present)
        return;
    if (strcmp(o->provenance, n->provenance) != 0)
        change(c, FKCG_R_COST_CHANGED, p, at(p->so, "cost.provenance"),
               at(p->sn, "cost.provenance"), was_str(c, o->provenance),
               "cost provenance of kernel '%s' changed from %s to %s", k, o->provenance,
               n->provenance);
    if (strcmp(o->cost_class, n->cost_class) != 0)
        change(c, FKCG_R_COST_CHANGED, p, at(p->so, "cost.class"), at(p->sn, "cost.class"),
               was_str(c, o->cost_class), "cost class of kernel '%s' changed from %s to %s", k,
               o->cost_class, n->cost_class);
    cmp_cost_expr(c, p, "flops", o->flops, o->flops_src, n->flops, n->flops_src);
    cmp_cost_expr(c, p, "bytes_moved", o->bytes_moved, o->bytes_moved_src, n->bytes_moved,
                  n->bytes_moved_src);
}

/* A precision promise that is a flag: withdrawing it loosens the precision. */
static void cmp_prec_flag(dctx *c, const spair *p, const char *key, bool o, bool n)
{
    if (o == n)
        return;
    change(c, n ? FKCG_R_PRECISION_TIGHTENED : FKCG_R_PRECISION_LOOSENED, p,
           at(p->so, "precision.%s", key), at(p->sn, "precision.%s", key),
           o ? "was true" : "was false", "precision %s of kernel '%s' %s", key, p->sn->kernel,
           n ? "promised (false to true)" : "withdrawn (true to false)");
}

/* An error bound: larger is looser. */
static void cmp_prec_bound(dctx *c, const spair *p, const char *key, double o, double n)
{
    if (o == n)
        return;
    const char *so = num(c, o), *sn = num(c, n);
    change(c, n > o ? FKCG_R_PRECISION_LOOSENED : FKCG_R_PRECISION_TIGHTENED, p,
           at(p->so, "precision.%s", key), at(p->sn, "precision.%s", key),
           fkcg_sprintf(c->a, "was %s", so), "precision %s of kernel '%s' %s from %s to %s", key,
           p->sn->kernel, n > o ? "loosened" : "tightened", so, sn);
}

static void cmp_precision(dctx *c, const spair *p)
{
    const fkcg_precision *o = &p->so->precision, *n = &p->sn->precision;
    cmp_prec_flag(c, p, "bit_stable_on_same_hardware", o->bit_stable_on_same_hardware,
                  n->bit_stable_on_same_hardware);
    int ulp = fkcg_ulp_cmp(n, o);
    if (ulp != 0) { /* exact (whole ulps and billionths), printed exactly */
        char so[FKCG_ULP_TEXT], sn[FKCG_ULP_TEXT];
        fkcg_ulp_format(so, o->max_ulp, o->max_ulp_frac);
        fkcg_ulp_format(sn, n->max_ulp, n->max_ulp_frac);
        bool loose = ulp > 0;
        change(c, loose ? FKCG_R_PRECISION_LOOSENED : FKCG_R_PRECISION_TIGHTENED, p,
               at(p->so, "precision.max_ulp"), at(p->sn, "precision.max_ulp"),
               fkcg_sprintf(c->a, "was %s", so),
               "precision max_ulp of kernel '%s' %s from %s to %s", p->sn->kernel,
               loose ? "loosened" : "tightened", so, sn);
    }
    cmp_prec_bound(c, p, "max_relative", o->max_relative, n->max_relative);
    cmp_prec_bound(c, p, "max_absolute", o->max_absolute, n->max_absolute);
    cmp_prec_flag(c, p, "audited", o->audited, n->audited);
    if (!same(p->so->cpu_reference, p->sn->cpu_reference))
        change(c, FKCG_R_CPU_REFERENCE_CHANGED, p, at(p->so, "cpu_reference"),
               at(p->sn, "cpu_reference"), was_str(c, p->so->cpu_reference),
               "cpu_reference of kernel '%s' changed from %s to %s", p->sn->kernel,
               p->so->cpu_reference ? p->so->cpu_reference : "none",
               p->sn->cpu_reference ? p->sn->cpu_reference : "none");
    if (!same(o->reference, n->reference))
        change(c, FKCG_R_PRECISION_REFERENCE_CHANGED, p, at(p->so, "precision.reference"),
               at(p->sn, "precision.reference"), was_str(c, o->reference),
               "precision reference of kernel '%s' changed from %s to %s", p->sn->kernel,
               o->reference ? o->reference : "none", n->reference ? n->reference : "none");
    if (!same(o->notes, n->notes))
        change(c, FKCG_R_DOC_CHANGED, p, at(p->so, "precision.notes"), at(p->sn, "precision.notes"),
               o->notes ? "was this" : "was not stated", "precision notes of kernel '%s' %s",
               p->sn->kernel,
               !n->notes  ? "removed"
               : o->notes ? "changed"
                          : "stated");
}

/* precision_by_dtype (issue 22): each matched binding whose precision is a by_dtype entry's on
 * either side, compared as a whole (the section's figures are compared by cmp_precision);
 * v[0..n): the pair's matched bindings, mo: old binding -> new. */
static void cmp_precision_by(dctx *c, const spair *p, const size_t *ob, size_t n, const size_t *mo)
{
    const fkcg_table *ot = c->old->table, *nt = c->new_->table;
    for (size_t i = 0; i < n; i++) {
        const fkcg_binding *bo = &ot->bindings[ob[i]], *bn = &nt->bindings[mo[ob[i]]];
        if (!bo->precision_by && !bn->precision_by)
            continue;
        const fkcg_precision *o = fkcg_binding_precision(bo), *nw = fkcg_binding_precision(bn);
        fkcg_buf what;
        fkcg_buf_init(&what);
        bool looser = false, other = false;
        char so[FKCG_ULP_TEXT], sn[FKCG_ULP_TEXT];
        fkcg_ulp_format(so, o->max_ulp, o->max_ulp_frac);
        fkcg_ulp_format(sn, nw->max_ulp, nw->max_ulp_frac);
        struct {
            const char *key;
            int cmp; /* > 0: looser */
            const char *was, *now;
        } f[] = {
            {"max_ulp", fkcg_ulp_cmp(nw, o), so, sn},
            {"max_relative",
             (nw->max_relative > o->max_relative) - (nw->max_relative < o->max_relative),
             num(c, o->max_relative), num(c, nw->max_relative)},
            {"max_absolute",
             (nw->max_absolute > o->max_absolute) - (nw->max_absolute < o->max_absolute),
             num(c, o->max_absolute), num(c, nw->max_absolute)},
            {"bit_stable_on_same_hardware",
             (int)o->bit_stable_on_same_hardware - (int)nw->bit_stable_on_same_hardware,
             o->bit_stable_on_same_hardware ? "true" : "false",
             nw->bit_stable_on_same_hardware ? "true" : "false"},
            {"audited", (int)o->audited - (int)nw->audited, o->audited ? "true" : "false",
             nw->audited ? "true" : "false"},
            {"reference", same(o->reference, nw->reference) ? 0 : 1, or_unset(o->reference),
             or_unset(nw->reference)},
        };
        for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) {
            if (!f[k].cmp)
                continue;
            fkcg_buf_printf(&what, "%s%s %s to %s", what.len ? ", " : "", f[k].key, f[k].was,
                            f[k].now);
            looser = looser || f[k].cmp > 0;
            other = true;
        }
        if (other) {
            fkcg_dkey *key = fkcg_alloc(c->a, sizeof *key); /* the change keeps it */
            *key = key_of(ot, bo);
            spair one = {p->so, p->sn, key, 1};
            fkcg_loc lo = bo->precision_by ? p->so->precision_by[bo->precision_by - 1].loc
                                           : at(p->so, "precision");
            fkcg_loc ln = bn->precision_by ? p->sn->precision_by[bn->precision_by - 1].loc
                                           : at(p->sn, "precision");
            change(c,
                   looser ? FKCG_R_PRECISION_BY_DTYPE_LOOSENED
                          : FKCG_R_PRECISION_BY_DTYPE_TIGHTENED,
                   &one, lo, ln, bo->precision_by ? "was this by_dtype entry" : "was the section's",
                   "precision of kernel '%s' for this key %s (%s)", p->sn->kernel,
                   looser ? "loosened" : "tightened", what.data);
        }
        fkcg_buf_free(&what);
    }
}

/* Determinism from strongest to weakest (the schema's determinism vocabulary). */
static int determinism_strength(const char *d)
{
    static const char *const order[] = {"nondeterministic", "deterministic", "bitwise"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(order[i], d))
            return i;
    return -1;
}

static const char *tensor_of(const fkcg_section *s, int t)
{
    return (size_t)t < s->n_inputs ? s->inputs[t].name : s->outputs[(size_t)t - s->n_inputs].name;
}

/* "src, index, cache": a section's key tensors. */
static const char *key_names(dctx *c, const fkcg_section *s)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    for (size_t i = 0; i < s->n_key; i++)
        fkcg_buf_printf(&b, "%s%s", i ? ", " : "", tensor_of(s, s->key[i]));
    const char *out = fkcg_strdup(c->a, b.data ? b.data : "");
    fkcg_buf_free(&b);
    return out;
}

static void cmp_misc(dctx *c, const spair *p)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    if (strcmp(so->determinism, sn->determinism) != 0) {
        bool weaker = determinism_strength(sn->determinism) < determinism_strength(so->determinism);
        change(c, weaker ? FKCG_R_DETERMINISM_WEAKENED : FKCG_R_DETERMINISM_STRENGTHENED, p,
               at(so, "determinism"), at(sn, "determinism"), was_str(c, so->determinism),
               "determinism of kernel '%s' %s from %s to %s", sn->kernel,
               weaker ? "weakened" : "strengthened", so->determinism, sn->determinism);
    }
    if (strcmp(so->blurb, sn->blurb) != 0)
        change(c, FKCG_R_DOC_CHANGED, p, at(so, "blurb"), at(sn, "blurb"), "was this",
               "blurb of kernel '%s' changed", sn->kernel);
    bool key_same = (!so->key_stated && !sn->key_stated) || so->n_key == sn->n_key;
    for (size_t i = 0; key_same && (so->key_stated || sn->key_stated) && i < so->n_key; i++) {
        /* by place: a renamed tensor is the same slot; an output by its place among the
         * outputs (an input added or removed shifts its tensor index, not the key) */
        bool oo = (size_t)so->key[i] >= so->n_inputs, on = (size_t)sn->key[i] >= sn->n_inputs;
        key_same = oo == on &&
                   (oo ? (size_t)so->key[i] - so->n_inputs == (size_t)sn->key[i] - sn->n_inputs
                       : so->key[i] == sn->key[i]);
    }
    if (!key_same)
        change(c, FKCG_R_KEY_CHANGED, p, at(so, "key"), at(sn, "key"),
               fkcg_sprintf(c->a, "was [%s]", key_names(c, so)),
               "key of kernel '%s' changed from [%s] to [%s]", sn->kernel, key_names(c, so),
               key_names(c, sn));
    if (so->fanout_dtypes != sn->fanout_dtypes)
        change(c, FKCG_R_FANOUT_CHANGED, p, at(so, "fanout"), at(sn, "fanout"),
               so->fanout_dtypes ? "was 'dtypes'" : "was 'bytes'",
               "fanout of kernel '%s' changed from %s to %s: its wrappers are named otherwise",
               sn->kernel, so->fanout_dtypes ? "dtypes" : "bytes",
               sn->fanout_dtypes ? "dtypes" : "bytes");
}

/* The `auto` hash the section would have: a written-out hash equal to it says nothing more. */
static bool hash_is_auto(dctx *c, const fkcg_section *s)
{
    fkcg_section copy = *s;
    fkcg_buf b;
    fkcg_buf_init(&b);
    copy.revision_hash = "auto";
    fkcg_resolve_revision(c->a, &copy, &b);
    fkcg_buf_free(&b);
    return !strcmp(copy.revision_hash, s->revision_hash);
}

static void cmp_revision(dctx *c, const spair *p)
{
    const fkcg_section *so = p->so, *sn = p->sn;
    if (strcmp(so->revision_hash, sn->revision_hash) != 0 &&
        (!hash_is_auto(c, so) || !hash_is_auto(c, sn)))
        change(c, FKCG_R_REVISION_HASH_CHANGED, p, at(so, "kernel_revision_hash"),
               at(sn, "kernel_revision_hash"), was_str(c, so->revision_hash),
               "kernel_revision_hash of kernel '%s' changed from %s to %s", sn->kernel,
               so->revision_hash, sn->revision_hash);
}

/* Every datum of fkcg_section_canonical, in its order (op_kind, backend and kernel_source
 * are the key: equal in a matched pair). */
static void cmp_sections(dctx *c, const spair *p)
{
    cmp_names(c, p);
    cmp_file(c, p);
    cmp_misc(c, p);
    cmp_inputs(c, p);
    cmp_op_params(c, p);
    cmp_outputs(c, p);
    cmp_caps(c, p);
    cmp_cost(c, p);
    cmp_precision(c, p);
    cmp_revision(c, p);
}

/* The front matter of two files whose bindings matched. */
static void cmp_providers(dctx *c, const fkcg_provider *po, const fkcg_provider *pn, const spair *p)
{
    if (strcmp(po->link_registry, pn->link_registry) != 0)
        change(c, FKCG_R_LINK_REGISTRY_RENAMED, p, pat(po, "provider.link_registry"),
               pat(pn, "provider.link_registry"), was_str(c, po->link_registry),
               "link_registry renamed from '%s' to '%s'", po->link_registry, pn->link_registry);
    if (strcmp(po->revision_base, pn->revision_base) != 0)
        change(c, FKCG_R_REVISION_BASE_CHANGED, p, pat(po, "provider.revision_base"),
               pat(pn, "provider.revision_base"), was_str(c, po->revision_base),
               "revision_base changed from '%s' to '%s'", po->revision_base, pn->revision_base);
    if (strcmp(po->name, pn->name) != 0)
        change(c, FKCG_R_PROVIDER_RENAMED, p, pat(po, "provider.name"), pat(pn, "provider.name"),
               was_str(c, po->name), "provider renamed from '%s' to '%s'", po->name, pn->name);
    /* block dtypes (issue 22): one declared on both sides with another geometry. One added or
     * removed shows in the bindings that name it. */
    for (size_t i = 0; i < pn->n_block_dtypes; i++) {
        const fkcg_dtype_info *bn = &pn->block_dtypes[i];
        for (size_t j = 0; j < po->n_block_dtypes; j++) {
            const fkcg_dtype_info *bo = &po->block_dtypes[j];
            if (strcmp(bo->name, bn->name) != 0)
                continue;
            if (bo->block_elements != bn->block_elements || bo->bytes != bn->bytes)
                change(c, FKCG_R_BLOCK_DTYPE_CHANGED, p, bo->loc, bn->loc,
                       fkcg_sprintf(c->a, "was %u elements in %u bytes", bo->block_elements,
                                    bo->bytes),
                       "block dtype %s changed from %u elements in %u bytes to %u in %u", bn->name,
                       bo->block_elements, bo->bytes, bn->block_elements, bn->bytes);
            break;
        }
    }
    for (int side = 0; side < 2; side++) { /* declared on one side only */
        const fkcg_provider *x = side ? po : pn, *y = side ? pn : po;
        for (size_t i = 0; i < x->n_block_dtypes; i++) {
            bool both = false;
            for (size_t j = 0; j < y->n_block_dtypes && !both; j++)
                both = !strcmp(x->block_dtypes[i].name, y->block_dtypes[j].name);
            if (!both)
                change(c, FKCG_R_BLOCK_DTYPE_DECLARED, p,
                       side ? x->block_dtypes[i].loc : pat(po, "provider.block_dtypes"),
                       side ? pat(pn, "provider.block_dtypes") : x->block_dtypes[i].loc,
                       side ? "declared here" : NULL, "block dtype %s %s", x->block_dtypes[i].name,
                       side ? "withdrawn" : "declared");
        }
    }
    /* fkc_version: this fkcgen reads one version (1); a second one brings its own rule. */
}

/* ---- the whole tables ---- */

typedef struct mpair { /* a matched binding, by its sections' and providers' places */
    size_t oi, ni;     /* section indexes (or provider indexes) */
    size_t ob;         /* the old binding */
} mpair;

static int by_mpair(const void *x, const void *y)
{
    const mpair *a = x, *b = y;
    if (a->oi != b->oi)
        return a->oi < b->oi ? -1 : 1;
    if (a->ni != b->ni)
        return a->ni < b->ni ? -1 : 1;
    return (a->ob > b->ob) - (a->ob < b->ob);
}

static size_t section_index(const fkcg_table *t, const fkcg_section *s)
{
    return section_named(t, s->kernel);
}

/* The keys of the bindings v[i..j) (old bindings, by index). */
static const fkcg_dkey *keys_of(dctx *c, const mpair *v, size_t i, size_t j)
{
    fkcg_dkey *k = fkcg_alloc(c->a, (j - i) * sizeof *k);
    for (size_t m = i; m < j; m++)
        k[m - i] = key_of(c->old->table, &c->old->table->bindings[v[m].ob]);
    return k;
}

/* Each pair of sections with matched bindings, compared once; then each pair of providers. */
static void cmp_matched(dctx *c, const size_t *mo)
{
    const fkcg_table *o = c->old->table, *n = c->new_->table;
    mpair *v = fkcg_alloc(c->a, (o->n_bindings + 1) * sizeof *v);
    size_t nv = 0;
    for (size_t i = 0; i < o->n_bindings; i++)
        if (mo[i] != NONE)
            v[nv++] = (mpair){section_index(o, o->bindings[i].section),
                              section_index(n, n->bindings[mo[i]].section), i};
    qsort(v, nv, sizeof *v, by_mpair);
    for (size_t i = 0, j; i < nv; i = j) {
        for (j = i + 1; j < nv && v[j].oi == v[i].oi && v[j].ni == v[i].ni; j++) {
        }
        spair p = {o->sections[v[i].oi], n->sections[v[i].ni], keys_of(c, v, i, j), j - i};
        cmp_sections(c, &p);
        size_t *ob = fkcg_alloc(c->a, (j - i) * sizeof *ob);
        for (size_t m = i; m < j; m++)
            ob[m - i] = v[m].ob;
        cmp_precision_by(c, &p, ob, j - i, mo);
    }
    for (size_t i = 0; i < nv; i++) {
        const fkcg_binding *b = &o->bindings[v[i].ob];
        v[i].oi = (size_t)fkcg_provider_index(o, b->section->provider);
        v[i].ni = (size_t)fkcg_provider_index(n, n->bindings[mo[v[i].ob]].section->provider);
    }
    qsort(v, nv, sizeof *v, by_mpair);
    for (size_t i = 0, j; i < nv; i = j) {
        for (j = i + 1; j < nv && v[j].oi == v[i].oi && v[j].ni == v[i].ni; j++) {
        }
        spair p = {NULL, NULL, keys_of(c, v, i, j), j - i};
        cmp_providers(c, o->providers[v[i].oi], n->providers[v[i].ni], &p);
    }
}

static bool has_backend(const fkcg_table *t, const char *backend)
{
    for (size_t i = 0; i < t->n_providers; i++)
        if (!strcmp(t->providers[i]->backend, backend))
            return true;
    return false;
}

/* The other side's section that a section's bindings went to (or came from): that of its
 * first matched binding, else the section of the same kernel name, else NONE. */
static size_t *counterparts(dctx *c, const fkcg_table *mine, const fkcg_table *other,
                            const size_t *m)
{
    size_t *cp = fkcg_alloc(c->a, (mine->n_sections + 1) * sizeof *cp);
    for (size_t i = 0; i < mine->n_sections; i++)
        cp[i] = NONE;
    for (size_t i = 0; i < mine->n_bindings; i++) {
        size_t si = section_index(mine, mine->bindings[i].section);
        if (m[i] != NONE && cp[si] == NONE)
            cp[si] = section_index(other, other->bindings[m[i]].section);
    }
    for (size_t i = 0; i < mine->n_sections; i++)
        if (cp[i] == NONE)
            cp[i] = section_named(other, mine->sections[i]->kernel);
    return cp;
}

typedef struct lone { /* a binding on one side only, by rule and group */
    fkcg_diff_rule_id rule;
    size_t group; /* provider (BACKEND_*), section (KERNEL_*, BINDING_*) or
                                    binding (DTYPE_*) index */
    size_t b;     /* the binding */
} lone;

static int by_lone(const void *x, const void *y)
{
    const lone *a = x, *b = y;
    if (a->rule != b->rule)
        return a->rule < b->rule ? -1 : 1;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

/* The first of the key parts op_kind, backend, kernel_source in which two sections differ. */
static const char *key_part(const fkcg_section *a, const fkcg_section *b, const char **va,
                            const char **vb)
{
    const char *k = strcmp(a->op_kind, b->op_kind)   ? "op_kind"
                    : strcmp(a->backend, b->backend) ? "backend"
                                                     : "kernel_source";
    *va = k[0] == 'o' ? a->op_kind : k[0] == 'b' ? a->backend : a->kernel_source;
    *vb = k[0] == 'o' ? b->op_kind : k[0] == 'b' ? b->backend : b->kernel_source;
    return k;
}

static size_t dtype_pos(const fkcg_section *s, int d)
{
    for (size_t k = 0; k < s->inputs[0].n_dtypes; k++)
        if (s->inputs[0].dtypes[k] == d)
            return k;
    return 0;
}

/* One group of bindings on one side only. removed: the old side's (else the new side's);
 * s: their section (the first's), cp: the other side's counterpart section or NULL. */
static void lone_change(dctx *c, bool removed, fkcg_diff_rule_id rule, const fkcg_section *s,
                        const fkcg_section *cp, const fkcg_dkey *keys, size_t n_keys)
{
    spair p = {removed ? s : cp, removed ? cp : s, keys, n_keys};
    const fkcg_diff_side *mine = removed ? c->old : c->new_, *other = removed ? c->new_ : c->old;
    fkcg_loc here, there = no_loc;
    const char *va, *vb;
    if (rule == FKCG_R_BACKEND_REMOVED || rule == FKCG_R_BACKEND_ADDED) {
        const fkcg_provider *q = same_file(mine, other, s->provider);
        here = pat(s->provider, "provider.backend");
        if (q)
            there = pat(q, "provider.backend");
        p.so = p.sn = NULL;
        if (removed)
            change(c, rule, &p, here, there, q ? was_str(c, s->backend) : NULL,
                   "backend %s removed: no binding registers on it now", s->backend);
        else
            change(c, rule, &p, there, here, q ? was_str(c, q->backend) : NULL, "backend %s added",
                   s->backend);
        return;
    }
    if (rule == FKCG_R_KERNEL_REMOVED || rule == FKCG_R_KERNEL_ADDED) {
        change(c, rule, &p, removed ? s->kernel_loc : no_loc, removed ? no_loc : s->kernel_loc,
               NULL, "kernel '%s' %s", s->kernel, removed ? "removed" : "added");
        return;
    }
    if (rule == FKCG_R_BINDING_REMOVED || rule == FKCG_R_BINDING_ADDED) {
        const char *k = key_part(s, cp, &va, &vb);
        here = at(s, "%s", k);
        there = at(cp, "%s", k);
        if (removed)
            change(c, rule, &p, here, there, fkcg_sprintf(c->a, "was '%s'", va),
                   "kernel '%s' no longer binds these keys: its %s is now '%s'", s->kernel, k, vb);
        else
            change(c, rule, &p, there, here, fkcg_sprintf(c->a, "was '%s'", vb),
                   "kernel '%s' binds new keys: its %s was '%s'", s->kernel, k, vb);
        return;
    }
    if (rule == FKCG_R_COMBINATION_REMOVED || rule == FKCG_R_COMBINATION_ADDED) {
        const char *where = s->tuples_stated ? "dtype_table" : s->key_stated ? "key" : "accept";
        here = at(s, "%s", where);
        there = at(cp, "%s", where);
        if (removed)
            change(c, rule, &p, here, there, "was bound", "kernel '%s' no longer binds %zu key%s",
                   s->kernel, n_keys, n_keys == 1 ? "" : "s");
        else
            change(c, rule, &p, there, here, "was not bound", "kernel '%s' binds %zu new key%s",
                   s->kernel, n_keys, n_keys == 1 ? "" : "s");
        return;
    }
    /* DTYPE_REMOVED, DTYPE_ADDED: one binding of the first input's dtypes */
    here = at(s, "accept.inputs[0].dtypes[%zu]", dtype_pos(s, keys[0].dtype));
    there = at(cp, "accept.inputs[0].dtypes");
    if (removed)
        change(c, rule, &p, here, there, "was listed here",
               "dtype %s removed from input '%s' of kernel '%s'", keys[0].names[0],
               cp->inputs[0].name, cp->kernel);
    else
        change(c, rule, &p, there, here, "was not listed",
               "dtype %s added to input '%s' of kernel '%s'", keys[0].names[0], s->inputs[0].name,
               s->kernel);
}

/* The bindings of one side that the other lacks, classified, grouped and reported. */
static void cmp_lone(dctx *c, bool removed, const size_t *m)
{
    const fkcg_table *t = removed ? c->old->table : c->new_->table;
    const fkcg_table *u = removed ? c->new_->table : c->old->table;
    size_t *cp = counterparts(c, t, u, m);
    lone *v = fkcg_alloc(c->a, (t->n_bindings + 1) * sizeof *v);
    size_t nv = 0;
    for (size_t i = 0; i < t->n_bindings; i++) {
        if (m[i] != NONE)
            continue;
        const fkcg_section *s = t->bindings[i].section;
        size_t si = section_index(t, s), o = cp[si];
        if (!has_backend(u, s->backend))
            v[nv++] = (lone){removed ? FKCG_R_BACKEND_REMOVED : FKCG_R_BACKEND_ADDED,
                             (size_t)fkcg_provider_index(t, s->provider), i};
        else if (o != NONE && same_opkey(s, u->sections[o]) && !fkcg_binding_plain(&t->bindings[i]))
            v[nv++] = (lone){removed ? FKCG_R_COMBINATION_REMOVED : FKCG_R_COMBINATION_ADDED, si,
                             i};
        else if (o != NONE && same_opkey(s, u->sections[o]))
            v[nv++] = (lone){removed ? FKCG_R_DTYPE_REMOVED : FKCG_R_DTYPE_ADDED, i, i};
        else if (o != NONE)
            v[nv++] = (lone){removed ? FKCG_R_BINDING_REMOVED : FKCG_R_BINDING_ADDED, si, i};
        else
            v[nv++] = (lone){removed ? FKCG_R_KERNEL_REMOVED : FKCG_R_KERNEL_ADDED, si, i};
    }
    qsort(v, nv, sizeof *v, by_lone);
    for (size_t i = 0, j; i < nv; i = j) {
        for (j = i + 1; j < nv && v[j].rule == v[i].rule && v[j].group == v[i].group; j++) {
        }
        fkcg_dkey *keys = fkcg_alloc(c->a, (j - i) * sizeof *keys);
        for (size_t k = i; k < j; k++)
            keys[k - i] = key_of(t, &t->bindings[v[k].b]);
        const fkcg_section *s = t->bindings[v[i].b].section;
        size_t o = cp[section_index(t, s)];
        lone_change(c, removed, v[i].rule, s, o == NONE ? NULL : u->sections[o], keys, j - i);
    }
}

static int loc_cmp(const fkcg_loc *a, const fkcg_loc *b)
{
    int r = strcmp(a->file, b->file);
    if (!r)
        r = (a->line > b->line) - (a->line < b->line);
    return r ? r : (a->col > b->col) - (a->col < b->col);
}

static const fkcg_loc *primary(const fkcg_change *c)
{
    return c->new_loc.file ? &c->new_loc : &c->old_loc;
}

static int by_place(const void *x, const void *y)
{
    const fkcg_change *a = x, *b = y;
    int r = loc_cmp(primary(a), primary(b));
    if (!r)
        r = (a->rule > b->rule) - (a->rule < b->rule);
    if (!r)
        r = strcmp(a->what, b->what);
    if (!r && a->old_loc.file && b->old_loc.file)
        r = loc_cmp(&a->old_loc, &b->old_loc);
    return r;
}

/* Whether two sections of a matched pair differ in any datum, and some change names them:
 * a datum no rule compares (one added to the model but not here) must not go silent. */
static int check_covered(dctx *c, const size_t *mo, size_t first)
{
    const fkcg_table *o = c->old->table, *n = c->new_->table;
    fkcg_buf bo, bn;
    fkcg_buf_init(&bo);
    fkcg_buf_init(&bn);
    int rc = 0;
    for (size_t i = 0; i < o->n_bindings && rc == 0; i++) {
        if (mo[i] == NONE)
            continue;
        const fkcg_section *so = o->bindings[i].section, *sn = n->bindings[mo[i]].section;
        bo.len = bn.len = 0;
        fkcg_section_canonical(so, &bo);
        fkcg_section_canonical(sn, &bn);
        if (bo.len == bn.len && !memcmp(bo.data, bn.data, bo.len))
            continue;
        bool named = false;
        for (size_t k = first; k < c->out->n && !named; k++)
            named = same(c->out->v[k].old_kernel, so->kernel) ||
                    same(c->out->v[k].new_kernel, sn->kernel) ||
                    /* the front matter's block dtypes, folded into every section's data */
                    ((c->out->v[k].rule == FKCG_R_BLOCK_DTYPE_CHANGED ||
                      c->out->v[k].rule == FKCG_R_BLOCK_DTYPE_DECLARED) &&
                     (same(c->out->v[k].new_loc.file, sn->loc.file) ||
                      same(c->out->v[k].old_loc.file, so->loc.file)));
        if (!named) {
            fkcg_cli_error("fkcgen diff: internal error", NULL,
                           "kernels '%s' and '%s' differ "
                           "in a datum no rule compares; please report it",
                           so->kernel, sn->kernel);
            rc = 2;
        }
    }
    fkcg_buf_free(&bo);
    fkcg_buf_free(&bn);
    return rc;
}

int fkcg_diff_tables(fkcg_arena *a, const fkcg_diff_side *old, const fkcg_diff_side *new_,
                     fkcg_changes *out)
{
    dctx c = {a, old, new_, out};
    size_t first = out->n;
    size_t *mo = fkcg_alloc(a, (old->table->n_bindings + 1) * sizeof *mo);
    size_t *mn = fkcg_alloc(a, (new_->table->n_bindings + 1) * sizeof *mn);
    match(a, old->table, new_->table, mo, mn);
    cmp_matched(&c, mo);
    cmp_lone(&c, true, mo);
    cmp_lone(&c, false, mn);
    if (out->n > first)
        qsort(out->v + first, out->n - first, sizeof *out->v, by_place);
    return check_covered(&c, mo, first);
}
