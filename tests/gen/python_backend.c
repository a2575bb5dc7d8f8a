/* python_backend.c — a back end of the tests' own, `gen --lang python`: the plan's tables as one
 * Python module (@_bindings.py), printed through the shared walk (back/render.c) by a style.
 * It is what docs/architecture.md claims a new back end is: this one file and its row (the
 * build adds it with -DFKCG_EXTRA_BACKEND=fkcg_backend_python to back/backends.c); neither the
 * walk, the plan nor cli/gen.c changes. tests/gen/test_python_backend.py runs it and compares
 * the module's rows with `dump --json`. A test back end: it prints the tables and no dispatch,
 * and each cost function is its expression's text (it evaluates none). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "back.h"
#include "fkcgen.h"

/* A Python string literal: printable ASCII as is but \ and ", UTF-8 bytes as they are (the
 * module is UTF-8, as the contracts), every other byte \xNN. */
static void put_pystr(fkcg_buf *out, const char *s)
{
    if (!s) {
        fkcg_buf_puts(out, "None");
        return;
    }
    fkcg_buf_putc(out, '"');
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '\\' || *c == '"')
            fkcg_buf_printf(out, "\\%c", *c);
        else if (*c < 0x20 || *c == 0x7f)
            fkcg_buf_printf(out, "\\x%02x", *c);
        else
            fkcg_buf_putc(out, (char)*c);
    }
    fkcg_buf_putc(out, '"');
}

/* A contract's identifier: only [A-Za-z0-9_] reaches the module. */
static void put_ident(fkcg_buf *out, const char *s)
{
    for (const char *c = fkcg_nz(s); *c; c++)
        fkcg_buf_putc(out, fkcg_byte_class[(unsigned char)*c] & FKCG_BC_IDENT ? *c : '_');
}

/* "# text" on one line: no control byte reaches it. */
static void put_comment(fkcg_buf *out, const char *text)
{
    fkcg_buf_puts(out, "# ");
    for (const unsigned char *c = (const unsigned char *)fkcg_nz(text); *c; c++)
        fkcg_buf_putc(out, *c < 0x20 || *c == 0x7f ? '?' : (char)*c);
}

static void put_tpl(fkcg_render *r, fkcg_buf *out, const char *s)
{
    for (; *s; s++)
        if (*s == '@')
            fkcg_buf_puts(out, r->p->prefix);
        else
            fkcg_buf_putc(out, *s);
}

static void put_f64(fkcg_buf *out, double d)
{
    if (isnan(d) || isinf(d)) {
        fkcg_buf_puts(out, isnan(d) ? "float(\"nan\")"
                           : d > 0  ? "float(\"inf\")"
                                    : "-float(\"inf\")");
        return;
    }
    char text[40];
    snprintf(text, sizeof text, "%.17g", d);
    fkcg_buf_puts(out, text);
    if (!strpbrk(text, ".e"))
        fkcg_buf_puts(out, ".0");
}

/* A vocabulary's value is its schema text ("F32", "bitwise"), or None when unstated. */
static void put_vocab(fkcg_buf *out, int which, const char *value)
{
    (void)which;
    put_pystr(out, value);
}

static void put_op(fkcg_render *r, fkcg_buf *out, size_t op)
{
    put_pystr(out, r->p->ops[op].name);
}

/* A row's wrapper <kernel>_b<width>, as a name (a kernel reference is its name too). */
static void put_wrapper(fkcg_render *r, fkcg_buf *out, size_t row, bool ref)
{
    (void)ref;
    put_pystr(out, r->p->rows[row].b->wrapper);
}

static const fkcg_table_name py_tables[FKCG_T_COUNT] = {
    [FKCG_T_FAST_PATHS] = {NULL, "FAST_PATHS_%", NULL},
    [FKCG_T_DTYPES] = {NULL, "DTYPES_%", NULL},
    [FKCG_T_INPUTS] = {NULL, "INPUTS_%", NULL},
    [FKCG_T_OUTPUTS] = {NULL, "OUTPUTS_%", NULL},
    [FKCG_T_FIELDS] = {NULL, "FIELDS_%", NULL},
    [FKCG_T_COST] = {NULL, "COST_%", NULL},
    [FKCG_T_PRECISION_BY] = {NULL, "PRECISION_BY_%", NULL},
    [FKCG_T_SHAPE_OPERANDS] = {NULL, "SHAPE_OPERANDS_%", NULL},
    [FKCG_T_PROVIDERS] = {NULL, "PROVIDERS", NULL},
    [FKCG_T_KERNELS] = {NULL, "KERNELS", NULL},
    [FKCG_T_BINDINGS] = {NULL, "BINDINGS", NULL},
    [FKCG_T_LINKS] = {NULL, "LINKS", NULL},
    [FKCG_T_REGISTRIES] = {NULL, "REGISTRIES", NULL},
    [FKCG_T_SHARED_COST] = {NULL, "SHARED_COST", NULL},
    [FKCG_T_OP_NAMES] = {NULL, "OP_NAMES", NULL},
    [FKCG_T_OP_ROWS] = {NULL, "OP_ROWS", NULL},
};

/* NAME = [ ... ] (a section's cost: one tuple, NAME = ( ... )). */
static void table_open(fkcg_render *r, fkcg_table_id t, size_t sec, size_t k, size_t n)
{
    (void)n;
    fkcg_render_name(r, r->b, t, sec, k);
    fkcg_buf_puts(r->b, t == FKCG_T_COST                                   ? " = ("
                        : t == FKCG_T_DTYPES || t == FKCG_T_SHAPE_OPERANDS ? " = ["
                                                                           : " = [\n");
}

static void table_close(fkcg_render *r, fkcg_table_id t, size_t n)
{
    (void)n;
    fkcg_buf_puts(r->b, t == FKCG_T_COST ? ")\n" : t <= FKCG_T_SHAPE_OPERANDS ? "]\n" : "]\n\n");
}

static void row_edge(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, bool open)
{
    (void)r;
    (void)t;
    fkcg_buf_putc(out, open ? '(' : ')');
}

/* A referenced row's field: its place in the tuple. */
static void member(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, size_t row, fkcg_table_id field)
{
    fkcg_buf_printf(out, "[%zu]", fkcg_render_place(r, t, row, field));
}

/* A templated section's rows: def symbol_<sec>(s) (its symbols) and def rows_<sec>(t, s, w,
 * bw) (its rows of dtype t, symbol suffix s, wrapper w, byte width bw). */
static void template_open(fkcg_render *r, size_t sec, bool symbol)
{
    fkcg_buf_printf(r->b, "def %s_%zu(%s):\n    return ", symbol ? "symbol" : "rows", sec,
                    symbol ? "s" : "t, s, w, bw");
}

static void template_close(fkcg_render *r, bool symbol)
{
    fkcg_buf_puts(r->b, symbol ? " + \"_\" + s\n\n" : "\n\n");
}

static void put_hole(fkcg_render *r, fkcg_buf *out, const fkcg_cell *c)
{
    switch (c->kind) {
    case FKCG_CELL_KEY: fkcg_buf_puts(out, "[t, t]"); break;
    case FKCG_CELL_SYMBOL: fkcg_buf_printf(out, "symbol_%zu(s)", r->p->rows[c->u].sec); break;
    case FKCG_CELL_WRAPPER:
    case FKCG_CELL_KREF: fkcg_buf_puts(out, "w"); break;
    default: fkcg_buf_puts(out, "bw"); break; /* the byte width */
    }
}

static void template_call(fkcg_render *r, fkcg_buf *out, size_t row, bool symbol)
{
    const fkcg_plan_row *w = &r->p->rows[row];
    const fkcg_dtype_info *d = &fkcg_dtypes[w->b->dtype];
    fkcg_buf_printf(out, "%s_%zu(", symbol ? "symbol" : "rows", w->sec);
    put_pystr(out, symbol ? d->suffix : d->name);
    if (!symbol) {
        fkcg_buf_puts(out, ", ");
        put_pystr(out, d->suffix);
        fkcg_buf_puts(out, ", ");
        put_pystr(out, w->b->wrapper);
        fkcg_buf_printf(out, ", %u", (unsigned)w->b->byte_width);
    }
    fkcg_buf_putc(out, ')');
}

/* clang-format off */
static const fkcg_style py_style = {
    .tables = py_tables, .row_edge = row_edge, .member = member,
    .str = put_pystr, .ident = put_ident, .comment = put_comment, .tpl = put_tpl, .f64 = put_f64,
    .vocab = put_vocab, .op = put_op, .wrapper = put_wrapper, .open = table_open,
    .close = table_close, .template_open = template_open, .template_close = template_close,
    .hole = put_hole, .template_call = template_call, .indent = {"    ", "    "}, .cont = 1,
    .section_lead = "", .none = "None", .some = "", .some_end = "",
    .truth = {"False", "True"}, .address = "", .key_open = "[", .key_end = "]",
    .empty_slice = "[]", .section_scope = "", .unknown_cost = "UNKNOWN_COST",
    .registry_path = true,
};
/* clang-format on */

/* A section's cost functions: the expressions' text (this back end evaluates none). */
static void cost_fns(fkcg_render *r, size_t sec)
{
    const fkcg_section *s = r->p->secs[sec].s;
    for (int k = 0; k < 2; k++) {
        if (!(k ? s->cost.bytes_moved : s->cost.flops))
            continue;
        fkcg_buf_printf(r->b, "cost_%zu_%s = ", sec, k ? "bytes_moved" : "flops");
        put_pystr(r->b, k ? s->cost.bytes_moved_src : s->cost.flops_src);
        fkcg_buf_putc(r->b, '\n');
    }
}

static void emit_python(const fkcg_plan *p, fkcg_buf *const outs[])
{
    fkcg_buf *b = outs[0];
    fkcg_buf_printf(b,
                    "# %s_bindings.py - generated by fkcgen's test back end (--lang python)\n"
                    "# Do not edit: change the contracts.\n\nUNKNOWN_COST = None\n\n",
                    p->prefix);
    fkcg_render r;
    fkcg_render_init(&r, b, p, &py_style, NULL);
    for (size_t i = 0; i < p->t->n_sections; i++) {
        fkcg_render_section(&r, i, cost_fns);
        fkcg_buf_putc(b, '\n');
    }
    static const fkcg_table_id order[] = {FKCG_T_OP_NAMES,    FKCG_T_PROVIDERS,  FKCG_T_KERNELS,
                                          FKCG_T_BINDINGS,    FKCG_T_REGISTRIES, FKCG_T_LINKS,
                                          FKCG_T_SHARED_COST, FKCG_T_OP_ROWS};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        fkcg_render_table(&r, order[i], FKCG_NONE);
    fkcg_render_free(&r);
}

const fkcg_backend fkcg_backend_python = {
    .name = "python",
    .outputs = {"@_bindings.py"},
    .check = fkcg_plan_check,
    .emit = emit_python,
};
