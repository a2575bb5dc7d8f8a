/* bind.c — pass 5: the binding table. One binding per (section × accepted dtype of its first
 * input); kernel names and binding keys (op_kind, [T, T], backend) are unique across all files
 * of a run; `kernel_revision_hash: auto` becomes XXH3-128 (libxxhash) of the section's
 * canonical serialisation folded with the provider's revision_base. */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "internal.h"

/* key=len:value lines: unambiguous whatever the text holds. */
static void put_str(fkcg_buf *out, const char *key, const char *val)
{
    fkcg_buf_puts(out, key);
    if (!val) {
        fkcg_buf_put(out, "=-\n", 3);
        return;
    }
    size_t n = strlen(val);
    char num[24], *p = num + sizeof num;
    *--p = ':';
    size_t x = n;
    do
        *--p = (char)('0' + x % 10);
    while ((x /= 10) != 0);
    *--p = '=';
    fkcg_buf_put(out, p, (size_t)(num + sizeof num - p));
    fkcg_buf_put(out, val, n);
    fkcg_buf_putc(out, '\n');
}

static void put_expr(fkcg_buf *out, const char *key, const fkcg_expr *e)
{
    fkcg_buf_printf(out, "%s=", key);
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
    put_str(out, "kernel", s->kernel);
    put_str(out, "op_kind", s->op_kind);
    put_str(out, "blurb", s->blurb);
    put_str(out, "backend", s->backend);
    put_str(out, "kernel_source", s->kernel_source);
    put_str(out, "entry_point", s->entry_point);
    for (size_t i = 0; i < s->n_inputs; i++) {
        const fkcg_input *in = &s->inputs[i];
        put_str(out, "input", in->name);
        for (size_t k = 0; k < in->n_dtypes; k++)
            put_str(out, " dtype", fkcg_dtypes[in->dtypes[k]].name);
        for (int k = 0; k < FKCG_NLAYOUT; k++)
            put_str(out, fkcg_layout_keys[k], in->layout[k]);
        put_str(out, " rank", in->rank);
        put_str(out, " shape_constraint", in->shape_constraint);
    }
    put_str(out, "variant", s->variant);
    for (size_t i = 0; i < s->n_fields; i++) {
        put_str(out, "field", s->fields[i].name);
        put_str(out, " kind", s->fields[i].kind);
        put_str(out, " note", s->fields[i].note);
    }
    for (size_t i = 0; i < s->n_outputs; i++) {
        const fkcg_output *o = &s->outputs[i];
        put_str(out, "output", o->name);
        put_str(out, " dtype_rule", o->dtype_rule);
        put_str(out, " shape_rule", o->shape_rule);
        put_str(out, " layout_guarantee", o->layout_guarantee);
        put_str(out, " aliasing", o->aliasing);
    }
    const fkcg_caps *c = &s->caps;
    put_str(out, "awkward_layout_strategy", c->awkward_layout_strategy);
    for (size_t i = 0; i < c->n_fast_paths; i++) {
        put_str(out, "fast_path", c->fast_paths[i].when);
        put_str(out, " class", c->fast_paths[i].cost_class);
    }
    fkcg_buf_printf(out, "in_place=%d\nalignment_bytes=%u\naccess_granularity_bits=%u\n",
                    c->in_place, c->alignment_bytes, c->access_granularity_bits);
    fkcg_buf_printf(out, "cost=%d\n", s->cost.present);
    if (s->cost.present) {
        put_str(out, " provenance", s->cost.provenance);
        put_str(out, " class", s->cost.cost_class);
        put_expr(out, " flops", s->cost.flops);
        put_expr(out, " bytes_moved", s->cost.bytes_moved);
    }
    const fkcg_precision *p = &s->precision;
    fkcg_buf_printf(out, "bit_stable=%d\nmax_ulp=%llu\nmax_relative=%.17g\nmax_absolute=%.17g\n"
                         "audited=%d\n", p->bit_stable_on_same_hardware,
                    (unsigned long long)p->max_ulp, p->max_relative, p->max_absolute, p->audited);
    put_str(out, "notes", p->notes);
    put_str(out, "determinism", s->determinism);
}

/* 32 lower-case hex digits of XXH3-128(canonical ‖ "\nrevision_base=" ‖ base). */
static const char *revision_hash(fkcg_arena *a, const fkcg_section *s)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    fkcg_section_canonical(s, &b);
    put_str(&b, "revision_base", s->provider ? s->provider->revision_base : NULL);
    XXH128_hash_t h = XXH3_128bits(b.data, b.len);
    fkcg_buf_free(&b);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, h);
    char *hex = fkcg_alloc(a, 33);
    for (int i = 0; i < 16; i++) {
        hex[2 * i] = "0123456789abcdef"[c.digest[i] >> 4];
        hex[2 * i + 1] = "0123456789abcdef"[c.digest[i] & 15];
    }
    return hex;
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

static int by_file(const void *x, const void *y)
{
    const fkcg_provider *a = *(const fkcg_provider *const *)x;
    const fkcg_provider *b = *(const fkcg_provider *const *)y;
    return strcmp(a->rel_file, b->rel_file);
}

/* Key order for duplicates: (op_kind, backend, dtype), then the defining section. */
static int by_key(const void *x, const void *y)
{
    const fkcg_binding *a = x, *b = y;
    int c = strcmp(a->section->op_kind, b->section->op_kind);
    if (!c)
        c = strcmp(a->section->backend, b->section->backend);
    if (!c)
        c = (a->dtype > b->dtype) - (a->dtype < b->dtype);
    return c ? c : by_kernel(&a->section, &b->section);
}

/* Table order: (op_kind, backend, kernel, dtype order). */
static int by_table(const void *x, const void *y)
{
    const fkcg_binding *a = x, *b = y;
    int c = strcmp(a->section->op_kind, b->section->op_kind);
    if (!c)
        c = strcmp(a->section->backend, b->section->backend);
    if (!c)
        c = by_kernel(&a->section, &b->section);
    return c ? c : (a->dtype > b->dtype) - (a->dtype < b->dtype);
}

size_t fkcg_bind(fkcg_arena *a, fkcg_diag *d, fkcg_section **sections, size_t n_sections,
                 fkcg_provider **providers, size_t n_providers, fkcg_table *out)
{
    size_t errors = 0, n = 0;
    qsort(sections, n_sections, sizeof *sections, by_kernel);
    qsort(providers, n_providers, sizeof *providers, by_file);
    for (size_t i = 1; i < n_sections; i++)
        if (!strcmp(sections[i]->kernel, sections[i - 1]->kernel)) {
            fkcg_error(d, &sections[i]->kernel_loc, "duplicate kernel '%s'; kernel names are "
                       "unique across all contracts", sections[i]->kernel);
            fkcg_note(d, &sections[i - 1]->kernel_loc, "first defined here");
            errors++;
        }
    for (size_t i = 0; i < n_sections; i++)
        n += sections[i]->n_inputs ? sections[i]->inputs[0].n_dtypes : 0;
    fkcg_binding *b = fkcg_alloc(a, (n + 1) * sizeof *b);
    n = 0;
    for (size_t i = 0; i < n_sections; i++) {
        fkcg_section *s = sections[i];
        if (!strcmp(s->revision_hash, "auto"))
            s->revision_hash = revision_hash(a, s);
        for (size_t k = 0; s->n_inputs && k < s->inputs[0].n_dtypes; k++) {
            const fkcg_dtype_info *dt = &fkcg_dtypes[s->inputs[0].dtypes[k]];
            b[n] = (fkcg_binding){ s, s->inputs[0].dtypes[k], dt->bytes,
                                   fkcg_sprintf(a, "%s_%s", s->entry_point, dt->suffix),
                                   fkcg_sprintf(a, "%s_b%u", s->kernel, dt->bytes) };
            n++;
        }
    }
    qsort(b, n, sizeof *b, by_key);
    const fkcg_section **seen = fkcg_alloc(a, 2 * (n + 1) * sizeof *seen); /* reported pairs */
    size_t n_seen = 0;
    for (size_t i = 1; i < n; i++) {
        const fkcg_binding *p = &b[i - 1], *q = &b[i];
        if (strcmp(p->section->op_kind, q->section->op_kind) || p->dtype != q->dtype ||
            strcmp(p->section->backend, q->section->backend) ||
            !strcmp(p->section->kernel, q->section->kernel)) /* reported as a kernel above */
            continue;
        size_t k = 0;
        while (k < n_seen && !(seen[2 * k] == p->section && seen[2 * k + 1] == q->section))
            k++;
        if (k < n_seen)
            continue; /* one message per pair of sections, at their first shared dtype */
        seen[2 * n_seen] = p->section;
        seen[2 * n_seen++ + 1] = q->section;
        const char *dt = fkcg_dtypes[q->dtype].name;
        fkcg_error(d, &q->section->kernel_loc, "duplicate binding (%s, [%s, %s], %s): kernel "
                   "'%s' registers the key that kernel '%s' registers", q->section->op_kind, dt,
                   dt, q->section->backend, q->section->kernel, p->section->kernel);
        fkcg_note(d, &p->section->kernel_loc, "first registered here");
        errors++;
    }
    qsort(b, n, sizeof *b, by_table);
    out->providers = (const fkcg_provider *const *)providers;
    out->n_providers = n_providers;
    out->sections = (const fkcg_section *const *)sections;
    out->n_sections = n_sections;
    out->bindings = b;
    out->n_bindings = n;
    return errors;
}
