/* json.c — the JSON back end (`fkcgen dump --json`, `gen --lang json`): the plan's rows (the
 * binding table) with their providers and sections, in table order, 2-space indented. Its
 * escape gate is json_str. The format is documented in docs/fkcgen.md. */
#include <string.h>

#include "back.h"
#include "fkcgen.h"
#include "internal.h"

static void json_str(fkcg_buf *out, const char *s)
{
    if (!s) {
        fkcg_buf_puts(out, "null");
        return;
    }
    fkcg_buf_putc(out, '"');
    const char *run = s; /* bytes written as they are, flushed in one piece */
    for (const unsigned char *p = (const unsigned char *)s;; p++) {
        unsigned char c = *p;
        if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7F)
            continue;
        fkcg_buf_put(out, run, (size_t)((const char *)p - run));
        run = (const char *)p + 1;
        switch (c) {
        case '\0': fkcg_buf_putc(out, '"'); return;
        case '"': fkcg_buf_puts(out, "\\\""); break;
        case '\\': fkcg_buf_puts(out, "\\\\"); break;
        case '\n': fkcg_buf_puts(out, "\\n"); break;
        case '\t': fkcg_buf_puts(out, "\\t"); break;
        case '\r': fkcg_buf_puts(out, "\\r"); break;
        default: fkcg_buf_printf(out, "\\u%04x", c);
        }
    }
}

void fkcg_json_str(fkcg_buf *out, const char *s)
{
    json_str(out, s);
}

/* "key": with a leading separator and indentation. */
static void field(fkcg_buf *out, int indent, bool *first, const char *key)
{
    static const char spaces[] = "                ";
    if (!*first)
        fkcg_buf_putc(out, ',');
    fkcg_buf_putc(out, '\n');
    fkcg_buf_put(out, spaces, (size_t)indent < sizeof spaces - 1 ? (size_t)indent : 16);
    fkcg_buf_putc(out, '"');
    fkcg_buf_puts(out, key);
    fkcg_buf_put(out, "\": ", 3);
    *first = false;
}

static void kv_str(fkcg_buf *out, int indent, bool *first, const char *key, const char *val)
{
    field(out, indent, first, key);
    json_str(out, val);
}

static void kv_uint(fkcg_buf *out, int indent, bool *first, const char *key, uint64_t val)
{
    field(out, indent, first, key);
    fkcg_buf_printf(out, "%llu", (unsigned long long)val);
}

static void kv_bool(fkcg_buf *out, int indent, bool *first, const char *key, bool val)
{
    field(out, indent, first, key);
    fkcg_buf_puts(out, val ? "true" : "false");
}

static void kv_double(fkcg_buf *out, int indent, bool *first, const char *key, double val)
{
    field(out, indent, first, key);
    fkcg_buf_printf(out, "%.17g", val);
}

static void expr(fkcg_buf *out, int indent, bool *first, const char *key, const fkcg_expr *e)
{
    field(out, indent, first, key);
    if (!e) {
        fkcg_buf_puts(out, "null");
        return;
    }
    fkcg_buf b;
    fkcg_buf_init(&b);
    fkcg_expr_print(e, &b);
    json_str(out, b.data);
    fkcg_buf_free(&b);
}

static void caps(fkcg_buf *out, const fkcg_caps *c)
{
    bool first = true;
    fkcg_buf_puts(out, "{");
    kv_str(out, 8, &first, "awkward_layout_strategy", c->awkward_layout_strategy);
    field(out, 8, &first, "fast_paths");
    fkcg_buf_puts(out, "[");
    for (size_t i = 0; i < c->n_fast_paths; i++) {
        fkcg_buf_printf(out, "%s{\"when\": ", i ? ", " : "");
        json_str(out, c->fast_paths[i].when);
        fkcg_buf_puts(out, ", \"class\": ");
        json_str(out, c->fast_paths[i].cost_class);
        fkcg_buf_puts(out, "}");
    }
    fkcg_buf_puts(out, "]");
    kv_bool(out, 8, &first, "in_place", c->in_place);
    kv_uint(out, 8, &first, "alignment_bytes", c->alignment_bytes);
    kv_uint(out, 8, &first, "access_granularity_bits", c->access_granularity_bits);
    fkcg_buf_puts(out, "\n      }");
}

static void cost(fkcg_buf *out, const fkcg_cost *c)
{
    if (!c->present) {
        fkcg_buf_puts(out, "null");
        return;
    }
    bool first = true;
    fkcg_buf_puts(out, "{");
    kv_str(out, 8, &first, "provenance", c->provenance);
    kv_str(out, 8, &first, "class", c->cost_class);
    kv_str(out, 8, &first, "flops", c->flops_src);
    kv_str(out, 8, &first, "bytes_moved", c->bytes_moved_src);
    expr(out, 8, &first, "flops_expr", c->flops);
    expr(out, 8, &first, "bytes_moved_expr", c->bytes_moved);
    fkcg_buf_puts(out, "\n      }");
}

/* by: 0, the section's precision; k, its precision_by_dtype[k-1] (shown as "precision_by_dtype": k-1). */
static void precision(fkcg_buf *out, const fkcg_precision *p, uint32_t by)
{
    bool first = true;
    fkcg_buf_puts(out, "{");
    kv_bool(out, 8, &first, "bit_stable_on_same_hardware", p->bit_stable_on_same_hardware);
    field(out, 8, &first, "max_ulp"); /* exact: 3, 2.5 (a JSON number) */
    fkcg_buf_put_ulp(out, p->max_ulp, p->max_ulp_frac);
    kv_double(out, 8, &first, "max_relative", p->max_relative);
    kv_double(out, 8, &first, "max_absolute", p->max_absolute);
    kv_bool(out, 8, &first, "audited", p->audited);
    kv_str(out, 8, &first, "notes", p->notes);
    if (p->reference)
        kv_str(out, 8, &first, "reference", p->reference);
    if (by)
        kv_uint(out, 8, &first, "precision_by_dtype", by - 1);
    fkcg_buf_puts(out, "\n      }");
}

static const char *dt_name(const fkcg_section *s, int idx)
{
    const fkcg_dtype_info *d = fkcg_section_dtype(s, idx);
    return d ? d->name : "?";
}

/* accept.inputs: name, dtypes, the stated layout keys, rank, shape_constraint. */
static void inputs(fkcg_buf *out, const fkcg_section *s)
{
    fkcg_buf_puts(out, "[");
    for (size_t i = 0; i < s->n_inputs; i++) {
        const fkcg_input *in = &s->inputs[i];
        bool first = true;
        fkcg_buf_puts(out, i ? ",\n        {" : "\n        {");
        kv_str(out, 10, &first, "name", in->name);
        field(out, 10, &first, "dtypes");
        fkcg_buf_puts(out, "[");
        for (size_t k = 0; k < in->n_dtypes; k++)
            fkcg_buf_printf(out, "%s\"%s\"", k ? ", " : "", dt_name(s, in->dtypes[k]));
        fkcg_buf_puts(out, "]");
        if (in->same_dtype_as)
            kv_str(out, 10, &first, "same_dtype_as", in->same_dtype_as);
        field(out, 10, &first, "layout");
        fkcg_buf_puts(out, "{");
        bool any = false;
        for (int l = 0; l < FKCG_NLAYOUT; l++) {
            if (!in->layout[l])
                continue;
            fkcg_buf_printf(out, "%s\"%s\": ", any ? ", " : "", fkcg_layout_keys[l]);
            json_str(out, in->layout[l]);
            any = true;
        }
        fkcg_buf_puts(out, "}");
        kv_str(out, 10, &first, "rank", in->rank);
        kv_str(out, 10, &first, "shape_constraint", in->shape_constraint);
        if (in->variadic) /* issue 22: only when stated (the seed's dump stays) */
            kv_bool(out, 10, &first, "variadic", true);
        if (in->shape_only) /* issue 22: only when stated (the seed's dump stays) */
            kv_bool(out, 10, &first, "shape_only", true);
        if (in->optional) { /* issue 22: only when stated (the seed's dump stays) */
            kv_bool(out, 10, &first, "optional", true);
            if (in->absent_key >= 0)
                kv_str(out, 10, &first, "absent_key", dt_name(s, in->absent_key));
        }
        fkcg_buf_puts(out, "\n        }");
    }
    fkcg_buf_puts(out, s->n_inputs ? "\n      ]" : "]");
}

/* An enum field's "values" and a field's "default" (issue 22 item 3), only when stated: a
 * number, true/false or a name (an enum value, a dtype) as a string. */
static void field_typing(fkcg_buf *out, const fkcg_field *f)
{
    if (f->n_values) {
        fkcg_buf_puts(out, ", \"values\": [");
        for (size_t k = 0; k < f->n_values; k++) {
            if (k)
                fkcg_buf_puts(out, ", ");
            json_str(out, f->values[k]);
        }
        fkcg_buf_puts(out, "]");
    }
    if (f->codes) {
        fkcg_buf_puts(out, ", \"codes\": [");
        for (size_t k = 0; k < f->n_values; k++)
            fkcg_buf_printf(out, "%s%lld", k ? ", " : "", (long long)f->codes[k]);
        fkcg_buf_puts(out, "]");
    }
    if (!f->def)
        return;
    fkcg_buf_puts(out, ", \"default\": ");
    if (fkcg_field_is_enum(f) || fkcg_field_is_dtype(f))
        json_str(out, f->def);
    else
        fkcg_buf_puts(out, f->def); /* validate.c normalised it to a JSON number or boolean */
}

/* op_params: null when the section has none, else the variant and its fields in order. */
static void op_params(fkcg_buf *out, const fkcg_section *s)
{
    if (!s->variant) {
        fkcg_buf_puts(out, "null");
        return;
    }
    bool first = true;
    fkcg_buf_puts(out, "{");
    kv_str(out, 8, &first, "variant", s->variant);
    field(out, 8, &first, "fields");
    fkcg_buf_puts(out, "[");
    for (size_t i = 0; i < s->n_fields; i++) {
        fkcg_buf_puts(out, i ? ",\n          {\"name\": " : "\n          {\"name\": ");
        json_str(out, s->fields[i].name);
        fkcg_buf_puts(out, ", \"kind\": ");
        json_str(out, s->fields[i].kind);
        fkcg_buf_puts(out, ", \"note\": ");
        json_str(out, s->fields[i].note);
        field_typing(out, &s->fields[i]);
        fkcg_buf_puts(out, "}");
    }
    fkcg_buf_puts(out, s->n_fields ? "\n        ]\n      }" : "]\n      }");
}

/* return.outputs: name, the rules as written, layout_guarantee, aliasing. */
static void outputs(fkcg_buf *out, const fkcg_section *s)
{
    fkcg_buf_puts(out, "[");
    for (size_t i = 0; i < s->n_outputs; i++) {
        const fkcg_output *o = &s->outputs[i];
        bool first = true;
        fkcg_buf_puts(out, i ? ",\n        {" : "\n        {");
        kv_str(out, 10, &first, "name", o->name);
        kv_str(out, 10, &first, "dtype_rule", o->dtype_rule);
        if (o->n_dtypes) {
            field(out, 10, &first, "dtypes");
            fkcg_buf_puts(out, "[");
            for (size_t k = 0; k < o->n_dtypes; k++)
                fkcg_buf_printf(out, "%s\"%s\"", k ? ", " : "", dt_name(s, o->dtypes[k]));
            fkcg_buf_puts(out, "]");
        }
        kv_str(out, 10, &first, "shape_rule", o->shape_rule);
        if (o->shape >= FKCG_SR_BROADCAST) { /* issue 22: the rule's kind and operands */
            kv_str(out, 10, &first, "shape", fkcg_enum_find("shape_rule")->values[o->shape]);
            field(out, 10, &first, "shape_operands");
            fkcg_buf_puts(out, "[");
            for (size_t k = 0; k < o->n_shape_args; k++) {
                fkcg_buf_puts(out, k ? ", " : "");
                json_str(out, o->shape_args[k]);
            }
            fkcg_buf_puts(out, "]");
        }
        kv_str(out, 10, &first, "layout_guarantee", o->layout_guarantee);
        kv_str(out, 10, &first, "aliasing", o->aliasing);
        if (o->in_place) /* issue 22: only when stated (the seed's dump stays) */
            kv_str(out, 10, &first, "in_place", o->in_place);
        if (o->out_arg)
            kv_bool(out, 10, &first, "out_arg", true);
        fkcg_buf_puts(out, "\n        }");
    }
    fkcg_buf_puts(out, s->n_outputs ? "\n      ]" : "]");
}

static void binding(fkcg_buf *out, const fkcg_table *t, const fkcg_binding *b)
{
    const fkcg_section *s = b->section;
    bool first = true;
    fkcg_buf_puts(out, "    {");
    kv_str(out, 6, &first, "kernel", s->kernel);
    kv_str(out, 6, &first, "op_kind", s->op_kind);
    field(out, 6, &first, "dtypes");
    fkcg_buf_puts(out, "[");
    for (uint32_t k = 0; k < fkcg_binding_n_key(b); k++) {
        const fkcg_dtype_info *d = fkcg_table_dtype(t, fkcg_binding_slot(b, k));
        fkcg_buf_printf(out, "%s\"%s\"", k ? ", " : "", d ? d->name : "?");
    }
    fkcg_buf_puts(out, "]");
    if (s->key_stated) { /* issue 22's keys: only when the section states them */
        field(out, 6, &first, "key");
        fkcg_buf_puts(out, "[");
        for (size_t k = 0; k < s->n_key; k++) {
            fkcg_buf_puts(out, k ? ", " : "");
            json_str(out, (size_t)s->key[k] < s->n_inputs
                              ? s->inputs[s->key[k]].name
                              : s->outputs[(size_t)s->key[k] - s->n_inputs].name);
        }
        fkcg_buf_puts(out, "]");
    }
    if (s->fanout_dtypes)
        kv_str(out, 6, &first, "fanout", "dtypes");
    kv_str(out, 6, &first, "backend", s->backend);
    kv_str(out, 6, &first, "kernel_source", s->kernel_source);
    kv_str(out, 6, &first, "entry_point", s->entry_point);
    kv_str(out, 6, &first, "symbol", b->symbol);
    kv_str(out, 6, &first, "wrapper", b->wrapper);
    kv_uint(out, 6, &first, "byte_width", b->byte_width);
    kv_str(out, 6, &first, "revision_hash", s->revision_hash);
    kv_str(out, 6, &first, "determinism", s->determinism);
    if (s->cpu_reference)
        kv_str(out, 6, &first, "cpu_reference", s->cpu_reference);
    field(out, 6, &first, "caps");
    caps(out, &s->caps);
    field(out, 6, &first, "cost");
    cost(out, &s->cost);
    field(out, 6, &first, "precision");
    precision(out, fkcg_binding_precision(b), b->precision_by);
    kv_str(out, 6, &first, "blurb", s->blurb);
    field(out, 6, &first, "inputs");
    inputs(out, s);
    field(out, 6, &first, "op_params");
    op_params(out, s);
    field(out, 6, &first, "outputs");
    outputs(out, s);
    long pv = fkcg_provider_index(t, s->provider);
    field(out, 6, &first, "provider");
    if (pv >= 0)
        fkcg_buf_printf(out, "%ld", pv);
    else
        fkcg_buf_puts(out, "null");
    field(out, 6, &first, "source");
    fkcg_buf_puts(out, "{\"file\": ");
    json_str(out, s->provider ? s->provider->rel_file : s->loc.file);
    fkcg_buf_printf(out, ", \"line\": %u}\n    }", s->loc.line);
}

static void provider(fkcg_buf *out, const fkcg_provider *p)
{
    bool first = true;
    fkcg_buf_puts(out, "    {");
    kv_str(out, 6, &first, "file", p->rel_file);
    kv_uint(out, 6, &first, "fkc_version", p->fkc_version);
    kv_str(out, 6, &first, "name", p->name);
    kv_str(out, 6, &first, "backend", p->backend);
    kv_str(out, 6, &first, "kernel_source", p->kernel_source);
    kv_str(out, 6, &first, "link_registry", p->link_registry);
    kv_str(out, 6, &first, "revision_base", p->revision_base);
    if (p->n_block_dtypes) {
        field(out, 6, &first, "block_dtypes");
        fkcg_buf_puts(out, "[");
        for (size_t i = 0; i < p->n_block_dtypes; i++) {
            const fkcg_dtype_info *d = &p->block_dtypes[i];
            fkcg_buf_puts(out, i ? ", {\"name\": " : "{\"name\": ");
            json_str(out, d->name);
            fkcg_buf_printf(out, ", \"block_elements\": %u, \"block_bytes\": %u}",
                            (unsigned)d->block_elements, (unsigned)d->bytes);
        }
        fkcg_buf_puts(out, "]");
    }
    fkcg_buf_puts(out, "\n    }");
}

static void emit_json(const fkcg_plan *p, fkcg_buf *const outs[])
{
    const fkcg_table *t = p->t;
    fkcg_buf *out = outs[0];
    fkcg_buf_puts(out, "{\n  \"fkcgen_version\": \"" FKCGEN_VERSION "\",\n  \"providers\": [");
    for (size_t i = 0; i < t->n_providers; i++) {
        fkcg_buf_puts(out, i ? ",\n" : "\n");
        provider(out, t->providers[i]);
    }
    fkcg_buf_puts(out, t->n_providers ? "\n  ],\n  \"bindings\": [" : "],\n  \"bindings\": [");
    for (size_t i = 0; i < p->n_rows; i++) {
        fkcg_buf_puts(out, i ? ",\n" : "\n");
        binding(out, t, p->rows[i].b);
    }
    fkcg_buf_puts(out, p->n_rows ? "\n  ]\n}\n" : "]\n}\n");
}

/* No checks: JSON can carry any text. */
const fkcg_backend fkcg_backend_json = {
    .name = "json",
    .outputs = {"@_bindings.json"},
    .check = NULL,
    .emit = emit_json,
};

/* dump --json (fkcgen.h); here, not in backends.c, so that the front end's fuzz target links
 * the JSON back end and the plan alone. JSON has no checks to pass. */
void fkcg_dump_json(const fkcg_table *t, fkcg_buf *out)
{
    fkcg_plan p;
    fkcg_buf *const outs[] = {out};
    fkcg_plan_init(&p, t, NULL);
    emit_json(&p, outs);
    fkcg_plan_free(&p);
}
