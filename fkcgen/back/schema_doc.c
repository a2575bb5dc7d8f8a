/* schema_doc.c — `fkcgen schema --markdown` (docs/contract-format.md): the prose is the template
 * fkcgen/contract-format.md.in, built into the binary as a string (contract_format.inc, made
 * by fkcgen.mk); its {{name}} slots are filled from the schema table and config.h's limits. */
#include <string.h>

#include "internal.h"

static const char template_md[] =
#include "contract_format.inc"
    ;

static void keys(fkcg_buf *out)
{
    const fkcg_schema *all[32];
    size_t n = fkcg_schema_all(all, 32);
    for (size_t i = 0; i < n && i < 32; i++) {
        const fkcg_schema *s = all[i];
        if (s->freeform)
            continue;
        fkcg_buf_printf(out, "\n### `%s`\n\n", s->path);
        fkcg_buf_puts(out, "| key | type | required | description |\n|---|---|---|---|\n");
        for (size_t j = 0; j < s->n_keys; j++) {
            const fkcg_key *k = &s->keys[j];
            fkcg_buf_printf(out, "| `%s` | %s", k->name, fkcg_type_name(k->type));
            if (k->enum_name)
                fkcg_buf_printf(out, " (`%s`)", k->enum_name);
            else if (k->child)
                fkcg_buf_printf(out, " (`%s`)", k->child->path);
            fkcg_buf_printf(out, " | %s | %s |\n", k->required ? "yes" : "no", k->doc);
        }
    }
}

static void vocabularies(fkcg_buf *out)
{
    const fkcg_enum *enums;
    size_t n = fkcg_enums_all(&enums);
    for (size_t i = 0; i < n; i++) {
        fkcg_buf_printf(out, "| `%s` |", enums[i].name);
        for (size_t k = 0; k < enums[i].count; k++)
            fkcg_buf_printf(out, "%s `%s`", k ? "," : "", enums[i].values[k]);
        fkcg_buf_puts(out, " |\n");
    }
}

static void dtypes(fkcg_buf *out)
{
    for (size_t i = 0; i < FKCG_NDTYPES; i++)
        fkcg_buf_printf(out, "| `%s` | `%s` | %u | `<kernel>_b%u` |\n", fkcg_dtypes[i].name,
                        fkcg_dtypes[i].suffix, fkcg_dtypes[i].bytes, fkcg_dtypes[i].bytes);
}

/* The runtime's op kinds and what a section of each states (names.c: runtime_kernels). */
static void runtime_ops(fkcg_buf *out)
{
    size_t n;
    const fkcg_runtime_kernel *rk = fkcg_runtime_kernels(&n);
    for (size_t i = 0; i < n; i++) {
        bool seen = false; /* one op kind of several kernels (SetRows) is listed once */
        for (size_t j = 0; j < i; j++)
            seen |= !strcmp(rk[j].op_kind, rk[i].op_kind);
        if (seen)
            continue;
        fkcg_buf_printf(out, "%s`%s` takes %zu input%s, %zu output%s and the fields", i ? "; " : "",
                        rk[i].op_kind, rk[i].n_inputs, rk[i].n_inputs == 1 ? "" : "s",
                        rk[i].n_outputs, rk[i].n_outputs == 1 ? "" : "s");
        for (size_t k = 0; k < rk[i].n_fields; k++)
            fkcg_buf_printf(out, "%s `%s: %s`", k ? "," : "", rk[i].fields[k].name,
                            rk[i].fields[k].kind);
    }
}

/* The template's slots: a table printer, or a limit. */
static const struct slot {
    const char *name;
    void (*fill)(fkcg_buf *out);
    unsigned value;
} slots[] = {
    {"keys", keys, 0},
    {"vocabularies", vocabularies, 0},
    {"dtypes", dtypes, 0},
    {"runtime_ops", runtime_ops, 0},
    {"max_file_bytes", NULL, FKCG_MAX_FILE_BYTES},
    {"max_depth", NULL, FKCG_MAX_DEPTH},
    {"max_errors", NULL, FKCG_MAX_ERRORS},
    {"ident_max", NULL, FKCG_IDENT_MAX},
    {"max_expr_ops", NULL, FKCG_MAX_EXPR_OPS},
    {"max_expr_depth", NULL, FKCG_MAX_EXPR_DEPTH},
    {"max_text_bytes", NULL, FKCG_MAX_TEXT_BYTES},
};

/* Fills slot name (len bytes); an unknown slot stays as written, so the stale-docs test fails. */
static void fill(const char *name, size_t len, fkcg_buf *out)
{
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        if (strlen(slots[i].name) != len || strncmp(slots[i].name, name, len) != 0)
            continue;
        if (slots[i].fill)
            slots[i].fill(out);
        else
            fkcg_buf_put_u64(out, slots[i].value);
        return;
    }
    fkcg_buf_puts(out, "{{");
    fkcg_buf_put(out, name, len);
    fkcg_buf_puts(out, "}}");
}

void fkcg_schema_markdown(fkcg_buf *out)
{
    const char *p = template_md;
    for (;;) {
        const char *open = strstr(p, "{{");
        const char *close = open ? strstr(open + 2, "}}") : NULL;
        if (!close) {
            fkcg_buf_puts(out, p);
            return;
        }
        fkcg_buf_put(out, p, (size_t)(open - p));
        fill(open + 2, (size_t)(close - open - 2), out);
        p = close + 2;
    }
}
