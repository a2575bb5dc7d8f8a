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
            put_text(out, " dtype", fkcg_section_dtype(s, in->dtypes[k])->name);
        for (int k = 0; k < FKCG_NLAYOUT; k++)
            put_text(out, fkcg_layout_keys[k], in->layout[k]);
        put_text(out, " rank", in->rank);
        put_text(out, " shape_constraint", in->shape_constraint);
        if (in->same_dtype_as) /* fields issue 22 added: only when stated (old hashes stay) */
            put_text(out, " same_dtype_as", in->same_dtype_as);
        if (in->variadic) /* issue 22: only when stated (old hashes stay) */
            put_text(out, " variadic", "true");
        if (in->shape_only) /* issue 22: only when stated (old hashes stay) */
            put_text(out, " shape_only", "true");
        if (in->optional) { /* issue 22: only when stated (old hashes stay) */
            put_text(out, " optional", "true");
            if (in->absent_key >= 0)
                put_text(out, " absent_key", fkcg_section_dtype(s, in->absent_key)->name);
        }
    }
    put_text(out, "variant", s->variant);
    for (size_t i = 0; i < s->n_fields; i++) {
        put_text(out, "field", s->fields[i].name);
        put_text(out, " kind", s->fields[i].kind);
        put_text(out, " note", s->fields[i].note);
        for (size_t k = 0; k < s->fields[i].n_values; k++) /* issue 22: only when stated */
            put_text(out, " value", s->fields[i].values[k]);
        for (size_t k = 0; s->fields[i].codes && k < s->fields[i].n_values; k++)
            put_uint(out, " code", (uint64_t)(int64_t)s->fields[i].codes[k]);
        if (s->fields[i].def)
            put_text(out, " default", s->fields[i].def);
    }
    for (size_t i = 0; i < s->n_outputs; i++) {
        const fkcg_output *o = &s->outputs[i];
        put_text(out, "output", o->name);
        put_text(out, " dtype_rule", o->dtype_rule);
        for (size_t k = 0; k < o->n_dtypes; k++)
            put_text(out, " dtype", fkcg_section_dtype(s, o->dtypes[k])->name);
        put_text(out, " shape_rule", o->shape_rule);
        put_text(out, " layout_guarantee", o->layout_guarantee);
        put_text(out, " aliasing", o->aliasing);
        if (o->in_place) /* issue 22: only when stated (old hashes stay) */
            put_text(out, " in_place", o->in_place);
        if (o->out_arg)
            put_text(out, " out_arg", "true");
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
    if (p->max_ulp_frac) /* issue 22: only a fraction adds a line, so whole-ulp hashes stay */
        put_uint(out, "max_ulp_billionths", p->max_ulp_frac);
    put_double(out, "max_relative", p->max_relative);
    put_double(out, "max_absolute", p->max_absolute);
    put_uint(out, "audited", p->audited);
    put_text(out, "notes", p->notes);
    if (p->reference) /* issue 22: only when stated, so older hashes stay */
        put_text(out, "reference", p->reference);
    for (size_t e = 0; e < s->n_precision_by; e++) { /* issue 22: only when stated */
        const fkcg_precision_by *pb = &s->precision_by[e];
        for (size_t i = 0; i < pb->n_tuples; i++)
            for (size_t k = 0; k < s->n_key; k++)
                put_text(out, k ? " dtype" : "precision_by",
                         fkcg_section_dtype(s, pb->tuples[i * s->n_key + k])->name);
        put_uint(out, " bit_stable", pb->p.bit_stable_on_same_hardware);
        put_uint(out, " max_ulp", pb->p.max_ulp);
        put_uint(out, " max_ulp_billionths", pb->p.max_ulp_frac);
        put_double(out, " max_relative", pb->p.max_relative);
        put_double(out, " max_absolute", pb->p.max_absolute);
        put_uint(out, " audited", pb->p.audited);
        put_text(out, " notes", pb->p.notes);
        put_text(out, " reference", pb->p.reference);
    }
    put_text(out, "determinism", s->determinism);
    if (s->cpu_reference) /* issue 25: only when stated, so older hashes stay */
        put_text(out, "cpu_reference", s->cpu_reference);
    if (s->key_stated)
        for (size_t i = 0; i < s->n_key; i++)
            put_uint(out, "key", (uint64_t)s->key[i]);
    if (s->fanout_dtypes)
        put_text(out, "fanout", "dtypes");
    for (size_t i = 0; (s->tuples_stated || s->n_excluded) && i < s->n_tuples; i++)
        for (size_t k = 0; k < s->n_key; k++)
            put_text(out, k ? " dtype" : "tuple",
                     fkcg_section_dtype(s, s->tuples[i * s->n_key + k])->name);
    if (s->provider)
        for (size_t i = 0; i < s->provider->n_block_dtypes; i++) {
            const fkcg_dtype_info *b = &s->provider->block_dtypes[i];
            put_text(out, "block_dtype", b->name);
            put_uint(out, " block_elements", b->block_elements);
            put_uint(out, " block_bytes", b->bytes);
        }
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

/* A section's tuple t as table-wide codes (its provider's block dtypes by their codes). */
static int code_of(const fkcg_section *s, int idx)
{
    if (idx < FKCG_NDTYPES || !s->provider || !s->provider->block_codes)
        return idx;
    return s->provider->block_codes[idx - FKCG_NDTYPES];
}

typedef struct key_entry { /* one binding key of a group of sections, for sorting */
    const fkcg_section *s;
    size_t order; /* the section's place in the group */
    size_t n;
    int code[FKCG_KEY_MAX];
} key_entry;

static int by_key_entry(const void *x, const void *y)
{
    const key_entry *a = x, *b = y;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (size_t i = 0; i < a->n; i++)
        if (a->code[i] != b->code[i])
            return a->code[i] < b->code[i] ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

typedef struct dup_pairs {      /* pairs of sections already reported as duplicate bindings */
    const fkcg_section **pairs; /* 2 per pair */
    size_t n, cap;
} dup_pairs;

static void key_text(fkcg_buf *b, const fkcg_table *t, const key_entry *e)
{
    fkcg_buf_putc(b, '[');
    for (size_t i = 0; i < e->n; i++) {
        const fkcg_dtype_info *d = fkcg_table_dtype(t, e->code[i]);
        fkcg_buf_printf(b, "%s%s", i ? ", " : "", d ? d->name : "?");
    }
    fkcg_buf_putc(b, ']');
}

/* Reports that q registers the key e that p registers, once per pair of sections. */
static size_t report_dup(fkcg_arena *a, fkcg_diag *d, dup_pairs *seen, const fkcg_section *p,
                         const fkcg_section *q, const key_entry *e, const fkcg_table *t)
{
    if (!strcmp(p->kernel, q->kernel)) /* reported as a duplicate kernel */
        return 0;
    for (size_t k = 0; k < seen->n; k++)
        if (seen->pairs[2 * k] == p && seen->pairs[2 * k + 1] == q)
            return 0;
    if (seen->n == seen->cap) {
        size_t cap = seen->cap ? 2 * seen->cap : 8;
        const fkcg_section **np = fkcg_alloc(a, 2 * cap * sizeof *np);
        if (seen->n)
            memcpy(np, seen->pairs, 2 * seen->n * sizeof *np);
        seen->pairs = np;
        seen->cap = cap;
    }
    seen->pairs[2 * seen->n] = p;
    seen->pairs[2 * seen->n++ + 1] = q;
    fkcg_buf k;
    fkcg_buf_init(&k);
    key_text(&k, t, e);
    fkcg_error(d, &q->kernel_loc,
               "duplicate binding (%s, %s, %s) + kernel_source "
               "'%s': kernel '%s' registers the key that kernel '%s' registers",
               q->op_kind, k.data, q->backend, q->kernel_source, q->kernel, p->kernel);
    fkcg_buf_free(&k);
    fkcg_note(d, &p->kernel_loc, "first registered here");
    return 1;
}

/* Duplicate binding keys (op_kind, key, backend) + kernel_source: within each group of
 * sections of one (op_kind, backend, kernel_source), every key sorted, so equal keys meet as
 * neighbours. order: the sections sorted by by_op. */
static size_t find_dup_keys(fkcg_arena *a, fkcg_diag *d, const fkcg_section *const *order, size_t n,
                            const fkcg_table *t)
{
    size_t errors = 0;
    dup_pairs seen = {NULL, 0, 0};
    for (size_t g = 0, end; g < n; g = end) {
        for (end = g + 1; end < n && same_key(order[g], order[end]); end++)
            ;
        if (end - g < 2)
            continue;
        size_t m = 0;
        for (size_t i = g; i < end; i++)
            m += order[i]->n_tuples;
        key_entry *e = malloc((m + 1) * sizeof *e);
        if (!e)
            fkcg_oom();
        m = 0;
        for (size_t i = g; i < end; i++)
            for (size_t r = 0; r < order[i]->n_tuples; r++) {
                key_entry *k = &e[m++];
                k->s = order[i];
                k->order = i;
                k->n = order[i]->n_key;
                for (size_t j = 0; j < k->n; j++)
                    k->code[j] = code_of(order[i], order[i]->tuples[r * k->n + j]);
            }
        qsort(e, m, sizeof *e, by_key_entry);
        for (size_t i = 1, first = 0; i < m; i++) {
            key_entry x = e[i], y = e[first];
            x.order = y.order = 0;
            if (by_key_entry(&x, &y) != 0) {
                first = i;
                continue;
            }
            errors += report_dup(a, d, &seen, e[first].s, e[i].s, &e[i], t);
        }
        free(e);
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
            if (!what && (order[g]->n_key != order[end]->n_key ||
                          memcmp(order[g]->key, order[end]->key,
                                 order[g]->n_key * sizeof order[g]->key[0]) != 0))
                what = "key tensors";
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

static int by_symbol(const void *x, const void *y)
{
    const fkcg_binding *a = *(const fkcg_binding *const *)x, *b = *(const fkcg_binding *const *)y;
    int c = strcmp(a->symbol, b->symbol);
    return c ? c : strcmp(a->section->kernel, b->section->kernel);
}

/* Symbols are unique: two sections of one entry_point must not bind one symbol (the same
 * key suffix). b: the table's bindings. */
static size_t check_symbols(fkcg_diag *d, const fkcg_table *t, const fkcg_binding *b, size_t n)
{
    size_t errors = 0;
    const fkcg_binding **v = malloc((n + 1) * sizeof *v);
    if (!v)
        fkcg_oom();
    for (size_t i = 0; i < n; i++)
        v[i] = &b[i];
    if (n)
        qsort(v, n, sizeof *v, by_symbol);
    const fkcg_section *last_a = NULL, *last_b = NULL;
    for (size_t i = 1; i < n; i++) {
        const fkcg_section *p = v[i - 1]->section, *q = v[i]->section;
        if (strcmp(v[i - 1]->symbol, v[i]->symbol) != 0 || !strcmp(p->kernel, q->kernel))
            continue; /* a duplicate kernel is reported as such */
        if (p == last_a && q == last_b)
            continue;
        last_a = p, last_b = q;
        fkcg_buf k;
        fkcg_buf_init(&k);
        for (uint32_t j = 0; j < v[i]->n_key; j++) {
            const fkcg_dtype_info *di = fkcg_table_dtype(t, v[i]->key[j]);
            if (fkcg_binding_plain(v[i]) && j)
                break;
            fkcg_buf_printf(&k, "%s%s", j ? ", " : "", di ? di->name : "?");
        }
        fkcg_error(d, &q->entry_point_loc,
                   "entry_point '%s' of kernel '%s' is also kernel '%s''s, and both bind %s%s%s: "
                   "symbol '%s' would be bound twice",
                   q->entry_point, q->kernel, p->kernel, fkcg_binding_plain(v[i]) ? "" : "[",
                   k.data, fkcg_binding_plain(v[i]) ? "" : "]", v[i]->symbol);
        fkcg_buf_free(&k);
        fkcg_note(d, &p->entry_point_loc, "first defined here");
        errors++;
    }
    free(v);
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
        n_bindings += s->n_tuples;
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

static const fkcg_section *order_sec; /* qsort has no context argument */

static int by_tuple(const void *x, const void *y)
{
    size_t i = *(const size_t *)x, j = *(const size_t *)y, n = order_sec->n_key;
    for (size_t k = 0; k < n; k++) {
        int a = code_of(order_sec, order_sec->tuples[i * n + k]);
        int b = code_of(order_sec, order_sec->tuples[j * n + k]);
        if (a != b)
            return a < b ? -1 : 1;
    }
    return (i > j) - (i < j);
}

/* The section's tuples in key order (the table's "dtype order": by code, slot by slot). */
static size_t *tuple_order(const fkcg_section *s)
{
    size_t *v = malloc((s->n_tuples + 1) * sizeof *v);
    if (!v)
        fkcg_oom();
    for (size_t i = 0; i < s->n_tuples; i++)
        v[i] = i;
    order_sec = s;
    if (s->n_tuples)
        qsort(v, s->n_tuples, sizeof *v, by_tuple);
    return v;
}

/* The name part of a key: the parts of its slots joined by "_", one part when all agree. */
static const char *join_parts(fkcg_arena *a, const char *base, const char *const *part, size_t n)
{
    bool same = true;
    for (size_t i = 1; i < n; i++)
        same = same && !strcmp(part[i], part[0]);
    fkcg_buf b;
    fkcg_buf_init(&b);
    fkcg_buf_puts(&b, base);
    for (size_t i = 0; i < (same ? 1 : n); i++) {
        fkcg_buf_putc(&b, '_');
        fkcg_buf_puts(&b, part[i]);
    }
    const char *out = fkcg_strdup(a, b.data);
    fkcg_buf_free(&b);
    return out;
}

/* The bindings of the sections in order: one per (section, allowed tuple), symbol
 * <entry_point>_<suffixes>, wrapper <kernel>_<b<width> parts> (or dtype suffixes with
 * fanout: dtypes). n: their number (resolve_revisions). */
static fkcg_binding *make_bindings(fkcg_arena *a, const fkcg_section *const *order,
                                   size_t n_sections, size_t n)
{
    fkcg_binding *b = fkcg_alloc(a, (n + 1) * sizeof *b);
    n = 0;
    for (size_t i = 0; i < n_sections; i++) {
        const fkcg_section *s = order[i];
        /* the seed's form shares its four wrapper names (by byte width) */
        const char *plain_wrapper[9] = {NULL};
        size_t *ord = tuple_order(s);
        for (size_t r = 0; r < s->n_tuples; r++) {
            const int *t = &s->tuples[ord[r] * s->n_key];
            fkcg_binding *x = &b[n++];
            x->section = s;
            x->n_key = (uint32_t)s->n_key;
            const char *suf[FKCG_KEY_MAX], *wpart[FKCG_KEY_MAX];
            char widths[FKCG_KEY_MAX][16];
            for (size_t k = 0; k < s->n_key; k++) {
                const fkcg_dtype_info *di = fkcg_section_dtype(s, t[k]);
                x->key[k] = code_of(s, t[k]);
                suf[k] = di->suffix;
                snprintf(widths[k], sizeof widths[k], "b%u", (unsigned)di->bytes);
                wpart[k] = s->fanout_dtypes || di->block_elements ? di->suffix : widths[k];
            }
            for (size_t e = 0; !x->precision_by && e < s->n_precision_by; e++)
                for (size_t q = 0; q < s->precision_by[e].n_tuples; q++)
                    if (!memcmp(&s->precision_by[e].tuples[q * s->n_key], t, s->n_key * sizeof *t))
                        x->precision_by = (uint32_t)e + 1;
            const fkcg_dtype_info *d0 = fkcg_section_dtype(s, t[0]);
            x->dtype = x->key[0];
            x->byte_width = d0->bytes;
            bool plain = s->n_key == 2 && t[0] == t[1] && t[0] < FKCG_NDTYPES && !s->fanout_dtypes;
            if (plain && d0->bytes < 9 && plain_wrapper[d0->bytes]) {
                x->wrapper = plain_wrapper[d0->bytes];
            } else {
                x->wrapper = join_parts(a, s->kernel, wpart, s->n_key);
                if (plain && d0->bytes < 9)
                    plain_wrapper[d0->bytes] = x->wrapper;
            }
            x->symbol = plain ? concat(a, s->entry_point, "_", d0->suffix)
                              : join_parts(a, s->entry_point, suf, s->n_key);
        }
        free(ord);
    }
    return b;
}

/* The run's block dtypes, by name, one per name (two files may declare one alike); each
 * provider's codes. Two declarations of one name that differ are an error. */
static size_t bind_block_dtypes(fkcg_arena *a, fkcg_diag *d, fkcg_provider **providers, size_t np,
                                fkcg_table *out)
{
    size_t m = 0, errors = 0;
    for (size_t i = 0; i < np; i++)
        m += providers[i]->n_block_dtypes;
    if (!m)
        return 0;
    const fkcg_dtype_info **v = fkcg_alloc(a, (m + 1) * sizeof *v);
    m = 0;
    for (size_t i = 0; i < np; i++)
        for (size_t k = 0; k < providers[i]->n_block_dtypes; k++)
            v[m++] = &providers[i]->block_dtypes[k];
    for (size_t i = 1; i < m; i++) /* insertion sort: a few dozen names */
        for (size_t j = i; j > 0 && strcmp(v[j]->name, v[j - 1]->name) < 0; j--) {
            const fkcg_dtype_info *tmp = v[j];
            v[j] = v[j - 1];
            v[j - 1] = tmp;
        }
    size_t u = 0;
    for (size_t i = 0; i < m; i++) {
        if (u && !strcmp(v[u - 1]->name, v[i]->name)) {
            if (v[u - 1]->bytes != v[i]->bytes ||
                v[u - 1]->block_elements != v[i]->block_elements) {
                fkcg_error(d, &v[i]->loc,
                           "block dtype '%s' is declared with %u elements in %u bytes here and "
                           "%u in %u elsewhere; one name is one dtype in a run",
                           v[i]->name, v[i]->block_elements, v[i]->bytes, v[u - 1]->block_elements,
                           v[u - 1]->bytes);
                fkcg_note(d, &v[u - 1]->loc, "declared here");
                errors++;
            }
            continue;
        }
        v[u++] = v[i];
    }
    if (u > FKCG_MAX_BLOCK_DTYPES) {
        fkcg_error(d, &v[FKCG_MAX_BLOCK_DTYPES]->loc,
                   "the run declares %zu block dtypes; at most %d fit the runtime's range", u,
                   FKCG_MAX_BLOCK_DTYPES);
        errors++;
    }
    for (size_t i = 0; i < np; i++)
        for (size_t k = 0; k < providers[i]->n_block_dtypes; k++)
            for (size_t j = 0; j < u; j++)
                if (!strcmp(v[j]->name, providers[i]->block_dtypes[k].name))
                    providers[i]->block_codes[k] = FKCG_NDTYPES + (int)j;
    out->block_dtypes = v;
    out->n_block_dtypes = u;
    return errors;
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
    errors += bind_block_dtypes(a, d, providers, n_providers, out);
    size_t n = resolve_revisions(a, sections, n_sections);
    const fkcg_section *const *all = (const fkcg_section *const *)sections;
    const fkcg_section **order = copy_sections(a, all, n_sections, true);
    errors += find_dup_keys(a, d, order, n_sections, out);
    errors += check_op_kinds(d, order, n_sections);
    out->providers = (const fkcg_provider *const *)providers;
    out->n_providers = n_providers;
    out->sections = all;
    out->n_sections = n_sections;
    out->bindings = make_bindings(a, order, n_sections, n);
    out->n_bindings = n;
    errors += check_symbols(d, out, out->bindings, n);
    return errors;
}
