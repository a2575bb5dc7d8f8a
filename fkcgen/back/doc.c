/* doc.c — the reference page of a provider (`fkcgen doc`): each kernel with its op kind, inputs
 * (dtypes, rank, layout, ties, optional, variadic, shape only), op params (enum values,
 * defaults), outputs (rules, layout, aliasing, in_place, out_arg), its bindings (key,
 * dtype, byte width, wrapper and symbol), caps, cost, precision and determinism; with conform
 * results files (`fkc-run conform --format json`), each binding's result on each device with
 * the worst error measured beside the claim. Markdown of lists and paragraphs only, so cmark
 * (which has no tables) renders all of it as HTML; every contract string is escaped for
 * Markdown. Byte-stable: no date, no path but those given. */
#include <cmark.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "back.h"
#include "doc.h"

/* ---- the results file: JSON (conform's), read with libyaml (JSON is flow YAML) ---- */

static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strlen(key) == k->data.scalar.length &&
            !memcmp(k->data.scalar.value, key, k->data.scalar.length))
            return yaml_document_get_node(d, p->value);
    }
    return NULL;
}

/* A scalar's text (NULL for a missing key, a non-scalar or JSON null). */
static const char *text(fkcg_arena *a, yaml_document_t *d, yaml_node_t *map, const char *key)
{
    yaml_node_t *n = get(d, map, key);
    if (!n || n->type != YAML_SCALAR_NODE)
        return NULL;
    if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && n->data.scalar.length == 4 &&
        !memcmp(n->data.scalar.value, "null", 4))
        return NULL;
    return fkcg_strndup(a, (const char *)n->data.scalar.value, n->data.scalar.length);
}

static long long number(fkcg_arena *a, yaml_document_t *d, yaml_node_t *map, const char *key)
{
    const char *s = text(a, d, map, key);
    return s ? strtoll(s, NULL, 10) : -1;
}

static bool truth(fkcg_arena *a, yaml_document_t *d, yaml_node_t *map, const char *key)
{
    const char *s = text(a, d, map, key);
    return s && !strcmp(s, "true");
}

int fkcg_doc_results_read(fkcg_arena *a, const char *path, fkcg_doc_results *r, const char **why)
{
    memset(r, 0, sizeof *r);
    r->file = path;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *why = "cannot open it";
        return -1;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    int ok = yaml_parser_load(&parser, &doc);
    fclose(f);
    if (!ok) {
        *why = fkcg_sprintf(a, "not JSON: %s at line %zu", parser.problem ? parser.problem : "?",
                            parser.problem_mark.line + 1);
        yaml_parser_delete(&parser);
        return -1;
    }
    yaml_parser_delete(&parser);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    const char *tool = text(a, &doc, root, "tool");
    yaml_node_t *rows = get(&doc, root, "rows"), *sum = get(&doc, root, "summary");
    int rc = 0;
    if (!tool || strcmp(tool, "fkc-run conform") != 0 || !rows ||
        rows->type != YAML_SEQUENCE_NODE || !sum) {
        *why = "not the JSON of `fkc-run conform --format json` (no tool, rows or summary)";
        rc = -1;
    } else {
        r->device = text(a, &doc, root, "device");
        if (!r->device)
            r->device = "CPU reference (--cpu)";
        r->cases = number(a, &doc, root, "cases");
        r->seed = text(a, &doc, root, "seed");
        r->passed = number(a, &doc, sum, "passed");
        r->failed = number(a, &doc, sum, "failed");
        size_t n = (size_t)(rows->data.sequence.items.top - rows->data.sequence.items.start);
        r->rows = fkcg_alloc(a, (n ? n : 1) * sizeof *r->rows);
        for (yaml_node_item_t *it = rows->data.sequence.items.start;
             it < rows->data.sequence.items.top; it++) {
            yaml_node_t *row = yaml_document_get_node(&doc, *it), *m = get(&doc, row, "measured");
            fkcg_doc_row *o = &r->rows[r->n_rows];
            o->kernel = text(a, &doc, row, "kernel");
            o->dtype = text(a, &doc, row, "dtype");
            o->result = text(a, &doc, row, "result");
            if (!o->kernel || !o->dtype || !o->result)
                continue; /* not a row */
            o->declared = truth(a, &doc, row, "declared");
            o->ok = truth(a, &doc, row, "ok");
            o->cases = number(a, &doc, row, "cases");
            o->passed = number(a, &doc, row, "passed");
            if (m) {
                o->measured_ulp = text(a, &doc, m, "max_ulp");
                o->measured_abs = text(a, &doc, m, "max_absolute");
                o->measured_rel = text(a, &doc, m, "max_relative");
            }
            r->n_rows++;
        }
    }
    yaml_document_delete(&doc);
    return rc;
}

/* ---- the page ---- */

/* Free text as Markdown that reads literally: ASCII punctuation Markdown gives a meaning
 * backslash-escaped, line breaks as spaces, control characters as \xHH. */
static void put_text(fkcg_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '\n' || *p == '\r' || *p == '\t')
            fkcg_buf_putc(b, ' ');
        else if (*p < 0x20 || *p == 0x7f)
            fkcg_buf_printf(b, "\\\\x%02x", *p);
        else if (strchr("\\`*_[]<>|&!", *p))
            fkcg_buf_printf(b, "\\%c", *p);
        else
            fkcg_buf_putc(b, (char)*p);
    }
}

/* Code: `s` with a fence longer than any run of backticks in it. */
static void put_code(fkcg_buf *b, const char *s)
{
    size_t run = 0, longest = 0;
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    for (size_t i = 0; i <= longest; i++)
        fkcg_buf_putc(b, '`');
    bool pad = s[0] == '`' || (*s && s[strlen(s) - 1] == '`');
    if (pad)
        fkcg_buf_putc(b, ' ');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fkcg_buf_putc(b, *p == '\n' || *p < 0x20 ? ' ' : (char)*p);
    if (pad)
        fkcg_buf_putc(b, ' ');
    for (size_t i = 0; i <= longest; i++)
        fkcg_buf_putc(b, '`');
}

void fkcg_doc_page_name(const fkcg_provider *p, fkcg_buf *out)
{
    for (const unsigned char *c = (const unsigned char *)p->name; *c; c++)
        fkcg_buf_putc(out, (char)((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
                                          *c == '.' || *c == '_' || *c == '-'
                                      ? *c
                                  : (*c >= 'A' && *c <= 'Z') ? *c - 'A' + 'a'
                                                             : '-'));
}

static const char *or_dash(const char *s)
{
    return s ? s : "not stated";
}

static void put_dtypes(fkcg_buf *b, const fkcg_section *s, const fkcg_input *in)
{
    for (size_t k = 0; k < in->n_dtypes; k++) {
        const fkcg_dtype_info *dt = fkcg_section_dtype(s, in->dtypes[k]);
        fkcg_buf_printf(b, "%s`%s`", k ? ", " : "", dt ? dt->name : "?");
    }
}

/* A binding's dtype in slot k of its key (table-wide code: block dtypes included). */
static const char *slot_name(const fkcg_table *t, const fkcg_binding *bd, uint32_t k)
{
    const fkcg_dtype_info *dt = fkcg_table_dtype(t, fkcg_binding_slot(bd, k));
    return dt ? dt->name : "?";
}

/* A double as the contract would write it: the shortest %g that reads back the same. */
static void put_real(fkcg_buf *b, double v)
{
    char s[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(s, sizeof s, "%.*g", prec, v);
        if (strtod(s, NULL) == v)
            break;
    }
    fkcg_buf_puts(b, s);
    if (!strpbrk(s, ".eEn"))
        fkcg_buf_puts(b, ".0");
}

static const fkcg_doc_row *find_row(const fkcg_doc_results *r, const char *kernel,
                                    const char *dtype)
{
    for (size_t i = 0; i < r->n_rows; i++)
        if (!strcmp(r->rows[i].kernel, kernel) && !strcmp(r->rows[i].dtype, dtype))
            return &r->rows[i];
    return NULL;
}

/* "ok, 64 of 64 cases; worst error 0 ulp, absolute 0, relative 0" on a device. */
static void put_result(fkcg_buf *b, const fkcg_doc_results *r, const fkcg_doc_row *row)
{
    fkcg_buf_puts(b, "on ");
    put_text(b, r->device);
    fkcg_buf_puts(b, ": ");
    if (!row) {
        fkcg_buf_puts(b, "not run");
        return;
    }
    fkcg_buf_puts(b, row->ok ? "**passed**" : "**FAILED**");
    if (strcmp(row->result, "ok") != 0 && strcmp(row->result, "FAIL") != 0) {
        fkcg_buf_puts(b, " (");
        put_text(b, row->result);
        fkcg_buf_putc(b, ')');
    }
    if (row->declared && row->cases >= 0)
        fkcg_buf_printf(b, ", %lld of %lld cases", row->passed, row->cases);
    if (row->measured_ulp)
        fkcg_buf_printf(b, "; worst error measured: %s ulp, absolute %s, relative %s",
                        row->measured_ulp, row->measured_abs ? row->measured_abs : "?",
                        row->measured_rel ? row->measured_rel : "?");
}

/* Whether input in is a slot of s's key (the seed's default key: input 0, output 0). */
static bool in_key(const fkcg_section *s, const fkcg_input *in)
{
    int i = (int)(in - s->inputs);
    if (!s->key_stated)
        return i == 0;
    for (size_t k = 0; k < s->n_key; k++)
        if (s->key[k] == i)
            return true;
    return false;
}

/* An input's facts beyond its dtypes and layouts (issue 22): its dtype tie, whether a call may
 * leave it out (and the key such a call has in its slot), a variadic or shape-only input. */
static void put_input_facts(fkcg_buf *b, const fkcg_section *s, const fkcg_input *in)
{
    if (in->same_dtype_as)
        fkcg_buf_printf(b, "; the dtype of `%s`", in->same_dtype_as);
    if (in->optional) {
        const fkcg_dtype_info *dt = in->absent_key >= 0 ? fkcg_section_dtype(s, in->absent_key)
                                                        : NULL;
        fkcg_buf_puts(b, "; optional (the wrapper gets NULL without it");
        if (dt)
            fkcg_buf_printf(b, ", a call without it keyed `%s` in its slot", dt->name);
        else if (in->same_dtype_as && in_key(s, in))
            fkcg_buf_printf(b, ", a call without it keyed with `%s`'s dtype in its slot",
                            in->same_dtype_as);
        fkcg_buf_puts(b, ")");
    }
    if (in->variadic)
        fkcg_buf_puts(b, "; variadic: one or more tensors of one dtype");
    if (in->shape_only)
        fkcg_buf_puts(b, "; shape only: its shape and dtype are read, never its data");
}

static void put_section(fkcg_buf *b, const fkcg_table *t, const fkcg_section *s,
                        const fkcg_doc_results *res, size_t n_res)
{
    fkcg_buf_printf(b, "## %s\n\n", s->kernel);
    fkcg_buf_puts(b, "Op kind `");
    fkcg_buf_puts(b, s->op_kind);
    fkcg_buf_puts(b, "` on ");
    put_code(b, s->backend);
    fkcg_buf_puts(b, ", kernel source ");
    put_code(b, s->kernel_source);
    fkcg_buf_puts(b, ", entry point ");
    put_code(b, s->entry_point);
    fkcg_buf_printf(b, " (%s:%u).",
                    s->provider && s->provider->rel_file ? s->provider->rel_file : s->loc.file,
                    s->loc.line);
    if (s->blurb) {
        fkcg_buf_puts(b, " ");
        put_text(b, s->blurb);
    }
    fkcg_buf_puts(b, "\n\n### Inputs\n\n");
    for (size_t i = 0; i < s->n_inputs; i++) {
        const fkcg_input *in = &s->inputs[i];
        fkcg_buf_printf(b, "- `%s`: dtypes ", in->name);
        put_dtypes(b, s, in);
        fkcg_buf_printf(b, "; rank %s; layout:", in->rank);
        for (int k = 0; k < FKCG_NLAYOUT; k++)
            fkcg_buf_printf(b, "%s %s %s", k ? "," : "", fkcg_layout_keys[k],
                            or_dash(in->layout[k]));
        if (in->shape_constraint) {
            fkcg_buf_puts(b, "; shape constraint: ");
            put_text(b, in->shape_constraint);
        }
        put_input_facts(b, s, in);
        fkcg_buf_puts(b, "\n");
    }
    fkcg_buf_puts(b, "\n### Op params\n\n");
    if (!s->variant)
        fkcg_buf_puts(b, "None.\n");
    else
        fkcg_buf_printf(b, "Variant `%s`%s\n\n", s->variant, s->n_fields ? ":" : ", no fields.");
    for (size_t i = 0; i < s->n_fields; i++) {
        fkcg_buf_printf(b, "- `%s`: ", s->fields[i].name);
        put_code(b, s->fields[i].kind);
        const fkcg_field *f = &s->fields[i];
        for (size_t k = 0; k < f->n_values; k++) { /* issue 22: an enum's values, its default */
            fkcg_buf_puts(b, k ? ", " : " of ");
            put_code(b, f->values[k]);
            if (f->codes)
                fkcg_buf_printf(b, " (%lld)", (long long)f->codes[k]);
        }
        if (f->def) {
            fkcg_buf_puts(b, ", default ");
            put_code(b, f->def);
        }
        if (s->fields[i].note) {
            fkcg_buf_puts(b, ", ");
            put_text(b, s->fields[i].note);
        }
        fkcg_buf_puts(b, "\n");
    }
    fkcg_buf_puts(b, "\n### Outputs\n\n");
    for (size_t i = 0; i < s->n_outputs; i++) {
        const fkcg_output *o = &s->outputs[i];
        fkcg_buf_printf(b, "- `%s`: dtype ", o->name);
        put_code(b, or_dash(o->dtype_rule));
        fkcg_buf_puts(b, ", shape ");
        put_code(b, or_dash(o->shape_rule));
        fkcg_buf_puts(b, ", layout ");
        put_code(b, or_dash(o->layout_guarantee));
        fkcg_buf_puts(b, ", aliasing ");
        put_code(b, or_dash(o->aliasing));
        if (fkcg_output_in_place(o) >= 0) /* issue 22: the input it is written over */
            fkcg_buf_printf(b, ", in place over `%s` (pass that tensor as the output too)",
                            s->inputs[fkcg_output_in_place(o)].name);
        if (o->out_arg)
            fkcg_buf_puts(b, ", the caller's out= argument (written and returned)");
        fkcg_buf_puts(b, "\n");
    }
    fkcg_buf_puts(b, "\n### Bindings\n\n");
    fkcg_buf_puts(b, "One per combination of the key's dtypes, keyed `(op kind, [dtypes], backend) "
                     "+ kernel source`; the wrapper's C name under the default prefix `fkc`.\n\n");
    for (size_t i = 0; i < t->n_bindings; i++) {
        const fkcg_binding *bd = &t->bindings[i];
        if (bd->section != s)
            continue;
        /* conform's rows name a two-slot key by its first slot, a longer one (SetRows'
         * [src, index, cache]) by all of them: "F32,I32,F16" */
        char dt[160];
        size_t n = 0;
        for (uint32_t k = 0; k < fkcg_binding_n_key(bd) && (k == 0 || fkcg_binding_n_key(bd) > 2);
             k++)
            n += (size_t)snprintf(dt + n, n < sizeof dt ? sizeof dt - n : 0, "%s%s", k ? "," : "",
                                  slot_name(t, bd, k));
        fkcg_buf_printf(b, "- `(%s, [", s->op_kind);
        for (uint32_t k = 0; k < fkcg_binding_n_key(bd); k++)
            fkcg_buf_printf(b, "%s%s", k ? ", " : "", slot_name(t, bd, k));
        fkcg_buf_printf(b, "], %s) + ", s->backend);
        fkcg_buf_puts(b, s->kernel_source);
        fkcg_buf_printf(b, "`: %u-byte elements, wrapper `%s` (C `fkc_%s`), symbol ",
                        bd->byte_width, bd->wrapper, bd->wrapper);
        put_code(b, bd->symbol);
        for (size_t r = 0; r < n_res; r++) {
            fkcg_buf_puts(b, r ? "; " : "; conform ");
            put_result(b, &res[r], find_row(&res[r], s->kernel, dt));
        }
        fkcg_buf_puts(b, "\n");
    }
    bool undeclared = false;
    for (size_t r = 0; r < n_res; r++)
        for (size_t k = 0; k < res[r].n_rows; k++)
            undeclared |= !res[r].rows[k].declared && !strcmp(res[r].rows[k].kernel, s->kernel);
    if (undeclared) {
        fkcg_buf_puts(b, "\nThe dtypes it does not declare, as conform found them:\n\n");
        for (size_t r = 0; r < n_res; r++)
            for (size_t k = 0; k < res[r].n_rows; k++) {
                const fkcg_doc_row *row = &res[r].rows[k];
                if (row->declared || strcmp(row->kernel, s->kernel) != 0)
                    continue;
                fkcg_buf_printf(b, "- `%s` ", row->dtype);
                put_result(b, &res[r], row);
                fkcg_buf_puts(b, "\n");
            }
    }
    const fkcg_caps *c = &s->caps;
    fkcg_buf_puts(b, "\n### Layout and caps\n\n- awkward layout strategy ");
    put_code(b, or_dash(c->awkward_layout_strategy));
    fkcg_buf_printf(b, "\n- in place: %s\n- alignment: %u bytes\n- access granularity: %u bits\n",
                    c->in_place ? "yes" : "no", c->alignment_bytes, c->access_granularity_bits);
    for (size_t i = 0; i < c->n_fast_paths; i++) {
        fkcg_buf_puts(b, "- fast path when ");
        put_code(b, or_dash(c->fast_paths[i].when));
        fkcg_buf_puts(b, ": ");
        put_code(b, or_dash(c->fast_paths[i].cost_class));
        fkcg_buf_puts(b, "\n");
    }
    fkcg_buf_puts(b, "\n### Cost\n\n");
    if (!s->cost.present) {
        fkcg_buf_puts(b, "Not stated (the unknown-cost sentinel).\n");
    } else {
        fkcg_buf_puts(b, "- provenance ");
        put_code(b, or_dash(s->cost.provenance));
        fkcg_buf_puts(b, ", class ");
        put_code(b, or_dash(s->cost.cost_class));
        fkcg_buf_puts(b, "\n- flops ");
        put_code(b, or_dash(s->cost.flops_src));
        fkcg_buf_puts(b, "\n- bytes moved ");
        put_code(b, or_dash(s->cost.bytes_moved_src));
        fkcg_buf_puts(b, "\n");
    }
    const fkcg_precision *p = &s->precision;
    fkcg_buf_printf(b, "\n### Precision and determinism\n\n- determinism `%s`\n- max ulp ",
                    or_dash(s->determinism));
    fkcg_buf_put_ulp(b, p->max_ulp, p->max_ulp_frac);
    fkcg_buf_puts(b, ", max relative ");
    put_real(b, p->max_relative);
    fkcg_buf_puts(b, ", max absolute ");
    put_real(b, p->max_absolute);
    fkcg_buf_printf(b, "\n- bit stable on the same hardware: %s; audited: %s\n",
                    p->bit_stable_on_same_hardware ? "yes" : "no", p->audited ? "yes" : "no");
    if (p->notes) {
        fkcg_buf_puts(b, "- notes: ");
        put_text(b, p->notes);
        fkcg_buf_puts(b, "\n");
    }
    for (size_t e = 0; e < s->n_precision_by; e++) { /* issue 22: a binding's own figures */
        const fkcg_precision_by *pb = &s->precision_by[e];
        fkcg_buf_puts(b, "- for");
        for (size_t i = 0; i < pb->n_tuples; i++) {
            fkcg_buf_puts(b, i ? ", `[" : " `[");
            for (size_t k = 0; k < s->n_key; k++) {
                const fkcg_dtype_info *d = fkcg_section_dtype(s, pb->tuples[i * s->n_key + k]);
                fkcg_buf_printf(b, "%s%s", k ? ", " : "", d ? d->name : "?");
            }
            fkcg_buf_puts(b, "]`");
        }
        fkcg_buf_puts(b, ": max ulp ");
        fkcg_buf_put_ulp(b, pb->p.max_ulp, pb->p.max_ulp_frac);
        fkcg_buf_puts(b, ", max relative ");
        put_real(b, pb->p.max_relative);
        fkcg_buf_puts(b, ", max absolute ");
        put_real(b, pb->p.max_absolute);
        fkcg_buf_printf(b, "; bit stable: %s; audited: %s\n",
                        pb->p.bit_stable_on_same_hardware ? "yes" : "no",
                        pb->p.audited ? "yes" : "no");
    }
    fkcg_buf_puts(b, "\n");
}

void fkcg_doc_page(const fkcg_table *t, const fkcg_provider *p, const fkcg_doc_results *res,
                   size_t n_res, fkcg_buf *out)
{
    const char *file = p->rel_file ? p->rel_file : p->loc.file;
    fkcg_buf_puts(out, "<!-- Generated by fkcgen doc from ");
    fkcg_buf path;
    fkcg_buf_init(&path);
    put_text(&path, file);
    for (size_t i = 0; i < path.len; i++) { /* no "--" inside the comment */
        if (path.data[i] == '-' && i > 0 && path.data[i - 1] == '-')
            fkcg_buf_putc(out, '\\');
        fkcg_buf_putc(out, path.data[i]);
    }
    fkcg_buf_free(&path);
    fkcg_buf_puts(out, ": do not edit. -->\n\n# ");
    put_text(out, p->name);
    fkcg_buf_puts(out, "\n\nThe kernel reference of provider ");
    put_code(out, p->name);
    fkcg_buf_puts(out, ", written by `fkcgen doc` from ");
    put_code(out, file);
    fkcg_buf_puts(out, ".\n\n- backend ");
    put_code(out, or_dash(p->backend));
    fkcg_buf_puts(out, ", kernel source ");
    put_code(out, or_dash(p->kernel_source));
    fkcg_buf_puts(out, "\n- link registry ");
    put_code(out, or_dash(p->link_registry));
    fkcg_buf_puts(out, "\n- revision base ");
    put_code(out, or_dash(p->revision_base));
    fkcg_buf_printf(out, "\n- contract format version %llu\n", (unsigned long long)p->fkc_version);
    fkcg_buf_puts(out, "- kernels:");
    size_t n = 0;
    for (size_t i = 0; i < t->n_sections; i++)
        if (t->sections[i]->provider == p)
            fkcg_buf_printf(out, "%s `%s` (`%s`)", n++ ? "," : "", t->sections[i]->kernel,
                            t->sections[i]->op_kind);
    fkcg_buf_puts(out, "\n");
    if (n_res) {
        fkcg_buf_puts(out, "\nConform results shown beside each binding:\n\n");
        for (size_t r = 0; r < n_res; r++) {
            fkcg_buf_puts(out, "- ");
            put_code(out, res[r].file);
            fkcg_buf_puts(out, ": ");
            put_text(out, res[r].device);
            fkcg_buf_printf(out, ", %lld cases a binding, seed %s: %lld rows passed, %lld failed\n",
                            res[r].cases, res[r].seed ? res[r].seed : "?", res[r].passed,
                            res[r].failed);
        }
    }
    fkcg_buf_puts(out, "\n");
    for (size_t i = 0; i < t->n_sections; i++)
        if (t->sections[i]->provider == p)
            put_section(out, t, t->sections[i], res, n_res);
}

void fkcg_doc_html(const char *title, const char *md, size_t len, fkcg_buf *out)
{
    /* the page's own first line, "<!-- Generated ... -->", as the HTML's comment (cmark's
     * safe mode would drop it as raw HTML) */
    const char *end = len > 5 && !strncmp(md, "<!-- ", 5) ? strstr(md, " -->\n\n") : NULL;
    size_t head = end ? (size_t)(end - md) + 6 : 0;
    char *html = cmark_markdown_to_html(md + head, len - head, CMARK_OPT_DEFAULT);
    if (!html)
        fkcg_oom();
    fkcg_buf_puts(out, "<!DOCTYPE html>\n");
    if (end) /* our text: a path whose "--" would end the comment has it as "-\-" */
        fkcg_buf_put(out, md, head - 1);
    fkcg_buf_puts(out, "<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    fkcg_buf_put_xml(out, title);
    fkcg_buf_puts(out, "</title>\n</head>\n<body>\n");
    fkcg_buf_puts(out, html);
    fkcg_buf_puts(out, "</body>\n</html>\n");
    free(html);
}
