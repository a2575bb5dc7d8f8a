/* bind.c — pass 5: the binding table. One binding per (section × accepted dtype of its first
 * input); kernel names and binding keys (op_kind, [T, T], backend) are unique across all files
 * of a run; `kernel_revision_hash: auto` becomes XXH3-128 (libxxhash) of the section's
 * canonical serialisation folded with the provider's revision_base. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "internal.h"

/* key=len:value lines: unambiguous whatever the text holds. */
static void put_text(fkcg_buf *out, const char *key, const char *val)
{
    fkcg_buf_puts(out, key);
    if (!val) {
        fkcg_buf_put(out, "=-\n", 3);
        return;
    }
    size_t n = strlen(val);
    fkcg_buf_putc(out, '=');
    fkcg_buf_put_u64(out, n);
    fkcg_buf_putc(out, ':');
    fkcg_buf_put(out, val, n);
    fkcg_buf_putc(out, '\n');
}

/* key=decimal line. */
static void put_uint(fkcg_buf *out, const char *key, uint64_t v)
{
    fkcg_buf_puts(out, key);
    fkcg_buf_putc(out, '=');
    fkcg_buf_put_u64(out, v);
    fkcg_buf_putc(out, '\n');
}

/* key=%.17g line; +0 (the usual value) without printf, which writes it "0". */
static void put_double(fkcg_buf *out, const char *key, double v)
{
    if (v == 0 && !signbit(v)) {
        fkcg_buf_puts(out, key);
        fkcg_buf_put(out, "=0\n", 3);
        return;
    }
    fkcg_buf_printf(out, "%s=%.17g\n", key, v);
}

static void put_expr(fkcg_buf *out, const char *key, const fkcg_expr *e)
{
    fkcg_buf_puts(out, key);
    fkcg_buf_putc(out, '=');
    if (e)
        fkcg_expr_print(e, out);
    else
        fkcg_buf_putc(out, '-');
    fkcg_buf_putc(out, '\n');
}

/* Every datum of the section in a fixed order, values normalised by type: key order,
 * quoting, comments and flattened vs nested form do not change it. Field order does: it is the
 * order of the op's parameters. The kernel_revision_hash itself is left out. */
void fkcg_section_canonical(const fkcg_section *s, fkcg_buf *out)
{
    fkcg_buf_puts(out, "fkc-section-v1\n");
    put_text(out, "kernel", s->kernel);
    put_text(out, "op_kind", s->op_kind);
    put_text(out, "blurb", s->blurb);
    put_text(out, "backend", s->backend);
    put_text(out, "kernel_source", s->kernel_source);
    put_text(out, "entry_point", s->entry_point);
    for (size_t i = 0; i < s->n_inputs; i++) {
        const fkcg_input *in = &s->inputs[i];
        put_text(out, "input", in->name);
        for (size_t k = 0; k < in->n_dtypes; k++)
            put_text(out, " dtype", fkcg_dtypes[in->dtypes[k]].name);
        for (int k = 0; k < FKCG_NLAYOUT; k++)
            put_text(out, fkcg_layout_keys[k], in->layout[k]);
        put_text(out, " rank", in->rank);
        put_text(out, " shape_constraint", in->shape_constraint);
    }
    put_text(out, "variant", s->variant);
    for (size_t i = 0; i < s->n_fields; i++) {
        put_text(out, "field", s->fields[i].name);
        put_text(out, " kind", s->fields[i].kind);
        put_text(out, " note", s->fields[i].note);
    }
    for (size_t i = 0; i < s->n_outputs; i++) {
        const fkcg_output *o = &s->outputs[i];
        put_text(out, "output", o->name);
        put_text(out, " dtype_rule", o->dtype_rule);
        put_text(out, " shape_rule", o->shape_rule);
        put_text(out, " layout_guarantee", o->layout_guarantee);
        put_text(out, " aliasing", o->aliasing);
    }
    const fkcg_caps *c = &s->caps;
    put_text(out, "awkward_layout_strategy", c->awkward_layout_strategy);
    for (size_t i = 0; i < c->n_fast_paths; i++) {
        put_text(out, "fast_path", c->fast_paths[i].when);
        put_text(out, " class", c->fast_paths[i].cost_class);
    }
    put_uint(out, "in_place", c->in_place);
    put_uint(out, "alignment_bytes", c->alignment_bytes);
    put_uint(out, "access_granularity_bits", c->access_granularity_bits);
    put_uint(out, "cost", s->cost.present);
    if (s->cost.present) {
        put_text(out, " provenance", s->cost.provenance);
        put_text(out, " class", s->cost.cost_class);
        put_expr(out, " flops", s->cost.flops);
        put_expr(out, " bytes_moved", s->cost.bytes_moved);
    }
    const fkcg_precision *p = &s->precision;
    put_uint(out, "bit_stable", p->bit_stable_on_same_hardware);
    put_uint(out, "max_ulp", p->max_ulp);
    put_double(out, "max_relative", p->max_relative);
    put_double(out, "max_absolute", p->max_absolute);
    put_uint(out, "audited", p->audited);
    put_text(out, "notes", p->notes);
    put_text(out, "determinism", s->determinism);
}

const char *fkcg_hash_hex(fkcg_arena *a, const void *data, size_t len)
{
    XXH128_hash_t h = XXH3_128bits(data, len);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, h);
    char *hex = fkcg_alloc(a, 33); /* zeroed: the 33rd byte ends the string */
    for (int i = 0; i < 16; i++) {
        hex[2 * i] = "0123456789abcdef"[c.digest[i] >> 4];
        hex[2 * i + 1] = "0123456789abcdef"[c.digest[i] & 15];
    }
    return hex;
}

/* XXH3-128(canonical ‖ "\nrevision_base=" ‖ base) in hex. b: a scratch buffer, reused from
 * section to section. */
static const char *revision_hash(fkcg_arena *a, const fkcg_section *s, fkcg_buf *b)
{
    b->len = 0;
    fkcg_section_canonical(s, b);
    put_text(b, "revision_base", s->provider ? s->provider->revision_base : NULL);
    return fkcg_hash_hex(a, b->data, b->len);
}

void fkcg_resolve_revision(fkcg_arena *a, fkcg_section *s, fkcg_buf *scratch)
{
    if (!strcmp(s->revision_hash, "auto"))
        s->revision_hash = revision_hash(a, s, scratch);
}

/* x ‖ y ‖ z in the arena: the symbol and wrapper names, without a printf per binding. */
static const char *concat(fkcg_arena *a, const char *x, const char *y, const char *z)
{
    size_t nx = strlen(x), ny = strlen(y), nz = strlen(z);
    char *p = fkcg_alloc_chars(a, nx + ny + nz + 1); /* packed like other strings */
    memcpy(p, x, nx);
    memcpy(p + nx, y, ny);
    memcpy(p + nx + ny, z, nz + 1);
    return p;
}

static int by_kernel(const void *x, const void *y)
{
    const fkcg_section *a = *(const fkcg_section *const *)x, *b = *(const fkcg_section *const *)y;
    int c = strcmp(a->kernel, b->kernel);
    if (c)
        return c;
    c = strcmp(a->loc.file, b->loc.file);
    return c ? c : (a->loc.line > b->loc.line) - (a->loc.line < b->loc.line);
}

/* A section with its first 8 name bytes as a big-endian integer (zero-padded): integers
 * compare as strcmp compares those bytes, so most comparisons of a sort read only this
 * array, not two sections and two names scattered through the arena. */
typedef struct keyed_section {
    uint64_t key;
    const fkcg_section *s;
} keyed_section;


static int by_op(const void *x, const void *y);

static int by_keyed_kernel(const void *x, const void *y)
{
    const keyed_section *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return by_kernel(&a->s, &b->s);
}

static int by_keyed_op(const void *x, const void *y)
{
    const keyed_section *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return by_op(&a->s, &b->s);
}

/* Sorts sections by by_op (op_first) or by_kernel, whose first criterion is the op kind or
 * the kernel name. */
static void sort_sections(const fkcg_section **v, size_t n, bool op_first)
{
    keyed_section *k = malloc((n + 1) * sizeof *k);
    if (!k)
        fkcg_oom();
    for (size_t i = 0; i < n; i++)
        k[i] = (keyed_section){fkcg_name_key(op_first ? v[i]->op_kind : v[i]->kernel), v[i]};
    qsort(k, n, sizeof *k, op_first ? by_keyed_op : by_keyed_kernel);
    for (size_t i = 0; i < n; i++)
        v[i] = k[i].s;
    free(k);
}

/* By repo-relative path, then by the path as given: a total order (two files a run keeps are
 * never one path). */
static int by_file(const void *x, const void *y)
{
    const fkcg_provider *a = *(const fkcg_provider *const *)x;
    const fkcg_provider *b = *(const fkcg_provider *const *)y;
    int c = strcmp(a->rel_file, b->rel_file);
    return c ? c : strcmp(a->loc.file, b->loc.file);
}

/* Do two sections register keys of the same (op_kind, backend) + kernel_source? (Siblings
 * that differ only in kernel_source are legal: the kernel source is part of the key.) */
static bool same_key(const fkcg_section *a, const fkcg_section *b)
{
    return !strcmp(a->op_kind, b->op_kind) && !strcmp(a->backend, b->backend) &&
           !strcmp(a->kernel_source, b->kernel_source);
}

/* Section order of the table: (op_kind, backend, kernel_source), then by_kernel. The table's
 * bindings are these sections' in this order, each section's by dtype, so 10,000 section
 * pointers are sorted rather than 90,000 bindings. */
static int by_op(const void *x, const void *y)
{
    const fkcg_section *a = *(const fkcg_section *const *)x, *b = *(const fkcg_section *const *)y;
    int c = strcmp(a->op_kind, b->op_kind);
    if (!c)
        c = strcmp(a->backend, b->backend);
    if (!c)
        c = strcmp(a->kernel_source, b->kernel_source);
    return c ? c : by_kernel(x, y);
}

/* Bit d set when the section binds dtype d (the dtypes of its first input, distinct). */
static unsigned dtype_mask(const fkcg_section *s)
{
    unsigned m = 0;
    for (size_t k = 0; s->n_inputs && k < s->inputs[0].n_dtypes; k++)
        m |= 1u << s->inputs[0].dtypes[k];
    return m;
}

typedef struct dup_pairs {      /* pairs of sections already reported as duplicate bindings */
    const fkcg_section **pairs; /* 2 per pair, allocated at the first one */
    size_t n, cap;
} dup_pairs;

/* Reports that q registers dtype dt of the key p registers, once per pair of sections (at
 * their first shared dtype). Returns 1 when reported. */
static size_t report_dup(fkcg_arena *a, fkcg_diag *d, dup_pairs *seen, const fkcg_section *p,
                         const fkcg_section *q, int dt_index)
{
    if (!strcmp(p->kernel, q->kernel)) /* reported as a duplicate kernel */
        return 0;
    for (size_t k = 0; k < seen->n; k++)
        if (seen->pairs[2 * k] == p && seen->pairs[2 * k + 1] == q)
            return 0;
    if (!seen->pairs)
        seen->pairs = fkcg_alloc(a, 2 * seen->cap * sizeof *seen->pairs);
    seen->pairs[2 * seen->n] = p;
    seen->pairs[2 * seen->n++ + 1] = q;
    const char *dt = fkcg_dtypes[dt_index].name;
    fkcg_error(d, &q->kernel_loc,
               "duplicate binding (%s, [%s, %s], %s) + kernel_source "
               "'%s': kernel '%s' registers the key that kernel '%s' registers",
               q->op_kind, dt, dt, q->backend, q->kernel_source, q->kernel, p->kernel);
    fkcg_note(d, &p->kernel_loc, "first registered here");
    return 1;
}

/* Duplicate binding keys (op_kind, [T, T], backend) + kernel_source, in key order: by (op_kind,
 * backend, kernel_source), then dtype, then by_kernel; two sections that share a key meet as neighbours in that order.
 * order: the sections sorted by by_op. */
static size_t find_dup_keys(fkcg_arena *a, fkcg_diag *d, const fkcg_section *const *order, size_t n,
                            size_t n_bindings)
{
    size_t errors = 0;
    dup_pairs seen = {NULL, 0, n_bindings + 1};
    for (size_t g = 0, end; g < n; g = end) {
        for (end = g + 1; end < n && same_key(order[g], order[end]); end++)
            ;
        if (end - g < 2)
            continue;
        for (int dt = 0; dt < FKCG_NDTYPES; dt++) {
            const fkcg_section *first = NULL; /* every later one is noted against the first */
            for (size_t i = g; i < end; i++) {
                if (!(dtype_mask(order[i]) & (1u << dt)))
                    continue;
                if (first)
                    errors += report_dup(a, d, &seen, first, order[i], dt);
                else
                    first = order[i];
            }
        }
    }
    return errors;
}

typedef struct op_head { /* the first section of an op kind, and its C name */
    char *snake;
    const fkcg_section *s;
} op_head;

static int by_snake(const void *x, const void *y)
{
    const op_head *a = x, *b = y;
    int c = strcmp(a->snake, b->snake);
    return c ? c : strcmp(a->s->op_kind, b->s->op_kind);
}

/* The sections of one op kind share one C signature (fkc_<op>_kernel), and two op kinds
 * never share a C name. order: the sections sorted by by_op. */
static size_t check_op_kinds(fkcg_diag *d, const fkcg_section *const *order, size_t n)
{
    size_t errors = 0, n_heads = 0;
    op_head *heads = malloc((n + 1) * sizeof *heads);
    if (!heads)
        fkcg_oom();
    for (size_t g = 0, end; g < n; g = end) {
        for (end = g + 1; end < n && !strcmp(order[g]->op_kind, order[end]->op_kind); end++) {
            const char *what = fkcg_signature_diff(order[g], order[end]);
            if (!what)
                continue;
            fkcg_error(d, &order[end]->op_kind_loc,
                       "op_kind '%s': kernel '%s' declares other "
                       "%s than kernel '%s'; the kernels of one op kind share one C signature",
                       order[end]->op_kind, order[end]->kernel, what, order[g]->kernel);
            fkcg_note(d, &order[g]->op_kind_loc, "first defined here");
            errors++;
        }
        heads[n_heads++] = (op_head){fkcg_snake_case(order[g]->op_kind), order[g]};
    }
    qsort(heads, n_heads, sizeof *heads, by_snake);
    for (size_t i = 1; i < n_heads; i++)
        if (!strcmp(heads[i].snake, heads[i - 1].snake)) {
            fkcg_error(d, &heads[i].s->op_kind_loc,
                       "op_kind '%s' has the C name '%s' of op "
                       "kind '%s'; rename one",
                       heads[i].s->op_kind, heads[i].snake, heads[i - 1].s->op_kind);
            fkcg_note(d, &heads[i - 1].s->op_kind_loc, "op kind '%s' is defined here",
                      heads[i - 1].s->op_kind);
            errors++;
        }
    for (size_t i = 0; i < n_heads; i++)
        free(heads[i].snake);
    free(heads);
    return errors;
}

static int by_entry_point(const void *x, const void *y)
{
    const fkcg_section *a = *(const fkcg_section *const *)x, *b = *(const fkcg_section *const *)y;
    int c = strcmp(a->entry_point, b->entry_point);
    return c ? c : by_kernel(x, y);
}

/* Symbols <entry_point>_<suffix> are unique: two sections of one entry_point must not share
 * a dtype. v: a copy of the sections, sorted here. */
static size_t check_symbols(fkcg_diag *d, const fkcg_section **v, size_t n)
{
    size_t errors = 0;
    if (n)
        qsort(v, n, sizeof *v, by_entry_point);
    for (size_t g = 0, end; g < n; g = end) {
        for (end = g + 1; end < n && !strcmp(v[g]->entry_point, v[end]->entry_point); end++)
            for (size_t k = g; k < end; k++) {
                unsigned common = dtype_mask(v[k]) & dtype_mask(v[end]);
                if (!common || !strcmp(v[k]->kernel, v[end]->kernel)) /* a duplicate kernel */
                    continue;
                int dt = 0;
                while (!(common & (1u << dt)))
                    dt++;
                fkcg_error(d, &v[end]->entry_point_loc,
                           "entry_point '%s' of kernel '%s' is "
                           "also kernel '%s''s, and both bind %s: symbol '%s_%s' would be bound "
                           "twice",
                           v[end]->entry_point, v[end]->kernel, v[k]->kernel, fkcg_dtypes[dt].name,
                           v[end]->entry_point, fkcg_dtypes[dt].suffix);
                fkcg_note(d, &v[k]->entry_point_loc, "first defined here");
                errors++;
                break;
            }
    }
    return errors;
}

/* Kernel names are unique across all contracts. sections: sorted by kernel. */
static size_t check_kernels(fkcg_diag *d, fkcg_section *const *sections, size_t n)
{
    size_t errors = 0;
    for (size_t i = 1, first = 0; i < n; i++) {
        if (strcmp(sections[i]->kernel, sections[first]->kernel) != 0) {
            first = i; /* a third definition is noted against the first, not the second */
            continue;
        }
        fkcg_error(d, &sections[i]->kernel_loc,
                   "duplicate kernel '%s'; kernel names are "
                   "unique across all contracts",
                   sections[i]->kernel);
        fkcg_note(d, &sections[first]->kernel_loc, "first defined here");
        errors++;
    }
    return errors;
}

/* Keeps the valid sections, in order (the invalid ones were there for check_kernels). */
static size_t drop_invalid(fkcg_section **sections, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!sections[i]->invalid)
            sections[k++] = sections[i];
    return k;
}

/* Resolves the `auto` revision hashes the run left; returns the number of bindings (one per
 * section and dtype of its first input). */
static size_t resolve_revisions(fkcg_arena *a, fkcg_section *const *sections, size_t n)
{
    size_t n_bindings = 0;
    fkcg_buf canon;
    fkcg_buf_init(&canon);
    for (size_t i = 0; i < n; i++) {
        fkcg_section *s = sections[i];
        fkcg_resolve_revision(a, s, &canon); /* any left: the run resolved its own already */
        n_bindings += s->n_inputs ? s->inputs[0].n_dtypes : 0;
    }
    fkcg_buf_free(&canon);
    return n_bindings;
}

/* A copy of the n sections in a, sorted by binding key when by_key, else kept in order. */
static const fkcg_section **copy_sections(fkcg_arena *a, const fkcg_section *const *v, size_t n,
                                          bool by_key)
{
    const fkcg_section **out = fkcg_alloc_raw(a, (n + 1) * sizeof *out);
    if (n)
        memcpy(out, v, n * sizeof *out);
    if (by_key)
        sort_sections(out, n, true);
    return out;
}

/* The bindings of the sections in order: one per (section, dtype), symbol
 * <entry_point>_<suffix>, wrapper <kernel>_b<width>. n: their number (resolve_revisions). */
static fkcg_binding *make_bindings(fkcg_arena *a, const fkcg_section *const *order,
                                   size_t n_sections, size_t n)
{
    fkcg_binding *b = fkcg_alloc(a, (n + 1) * sizeof *b);
    n = 0;
    for (size_t i = 0; i < n_sections; i++) {
        const fkcg_section *s = order[i];
        unsigned mask = dtype_mask(s);
        /* A section's dtypes share its four wrappers (by byte width): each name is made once,
         * not once per dtype (9 dtypes, 4 names). */
        const char *wrapper[9] = {NULL};
        for (int dt = 0; dt < FKCG_NDTYPES; dt++) {
            if (!(mask & (1u << dt)))
                continue;
            const fkcg_dtype_info *info = &fkcg_dtypes[dt];
            if (!wrapper[info->bytes]) {
                char width[2] = {(char)('0' + info->bytes), '\0'}; /* 1, 2, 4 or 8 */
                wrapper[info->bytes] = concat(a, s->kernel, "_b", width);
            }
            b[n++] = (fkcg_binding){s, dt, info->bytes,
                                    concat(a, s->entry_point, "_", info->suffix),
                                    wrapper[info->bytes]};
        }
    }
    return b;
}

/* The cross-file pass, as a list of named steps: sort, unique kernels, revision hashes,
 * unique binding keys, one signature per op kind, unique symbols, then the table. */
size_t fkcg_bind(fkcg_arena *a, fkcg_diag *d, fkcg_section **sections, size_t n_sections,
                 fkcg_provider **providers, size_t n_providers, fkcg_table *out)
{
    sort_sections((const fkcg_section **)sections, n_sections, false);
    if (n_providers) /* qsort takes no null array, even empty */
        qsort(providers, n_providers, sizeof *providers, by_file);
    size_t errors = check_kernels(d, sections, n_sections);
    n_sections = drop_invalid(sections, n_sections);
    size_t n = resolve_revisions(a, sections, n_sections);
    const fkcg_section *const *all = (const fkcg_section *const *)sections;
    const fkcg_section **order = copy_sections(a, all, n_sections, true);
    errors += find_dup_keys(a, d, order, n_sections, n);
    errors += check_op_kinds(d, order, n_sections);
    errors += check_symbols(d, copy_sections(a, order, n_sections, false), n_sections);
    out->providers = (const fkcg_provider *const *)providers;
    out->n_providers = n_providers;
    out->sections = all;
    out->n_sections = n_sections;
    out->bindings = make_bindings(a, order, n_sections, n);
    out->n_bindings = n;
    return errors;
}
