/* expr.c — cost expressions (`flops`, `bytes_moved`): a recursive-descent parser over
 * integers, + - * / ( ), the variables n and dtype_bytes and the op's scalar op_params fields.
 * Errors point at the column inside the YAML string. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

typedef struct parser {
    fkcg_arena *a;
    fkcg_diag *d;
    const char *src;
    const char *p; /* next character */
    fkcg_loc loc;  /* the scalar */
    int val_col;   /* columns from loc to src[0]; -1: unknown */
    const fkcg_field *fields;
    size_t n_fields;
    unsigned depth; /* open parentheses */
    unsigned ops;   /* operators read so far (at most FKCG_MAX_EXPR_OPS) */
    bool failed;
} parser;

/* Reports an error at the byte `at` of the expression (once: the first error ends the parse)
 * and returns NULL, so a failure is one `return fail(...)`. */
static fkcg_expr *fail(parser *ps, const char *at, const char *fmt, ...) FKCG_PRINTF(3, 4);
static fkcg_expr *fail(parser *ps, const char *at, const char *fmt, ...)
{
    if (ps->failed)
        return NULL;
    ps->failed = true;
    fkcg_loc where = ps->loc;
    if (ps->val_col >= 0)
        where.col += (uint32_t)ps->val_col + (uint32_t)(at - ps->src);
    va_list ap;
    va_start(ap, fmt);
    fkcg_verror(ps->d, &where, fmt, ap);
    va_end(ap);
    return NULL;
}

static void skip_space(parser *ps)
{
    while (*ps->p == ' ')
        ps->p++;
}

static fkcg_expr *node(parser *ps, fkcg_expr_kind kind)
{
    fkcg_expr *e = fkcg_alloc(ps->a, sizeof *e);
    e->kind = kind;
    return e;
}

static fkcg_expr *sum(parser *ps);


/* The variables a cost expression knows besides the op_params fields, which no field may be
 * named after. */
static const struct {
    const char *name;
    fkcg_expr_kind kind;
} variables[] = {
    {"n", FKCG_EXPR_N},
    {"dtype_bytes", FKCG_EXPR_DTYPE_BYTES},
};

bool fkcg_expr_is_variable(const char *name)
{
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++)
        if (!strcmp(name, variables[i].name))
            return true;
    return false;
}

/* A name: n, dtype_bytes or an integer op_params field. */
static fkcg_expr *name(parser *ps)
{
    const char *start = ps->p;
    while ((*ps->p >= 'a' && *ps->p <= 'z') || (*ps->p >= 'A' && *ps->p <= 'Z') ||
           (*ps->p >= '0' && *ps->p <= '9') || *ps->p == '_')
        ps->p++;
    size_t len = (size_t)(ps->p - start);
    char *id = fkcg_strndup(ps->a, start, len);
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++)
        if (!strcmp(id, variables[i].name))
            return node(ps, variables[i].kind);
    for (size_t i = 0; i < ps->n_fields; i++) {
        if (strcmp(ps->fields[i].name, id) != 0)
            continue;
        bool vec;
        const fkcg_kind_spec *k = fkcg_kind_lookup(ps->fields[i].kind, &vec);
        if (k && k->integer && !vec) {
            fkcg_expr *e = node(ps, FKCG_EXPR_FIELD);
            e->field = ps->fields[i].name;
            return e;
        }
        return fail(ps, start,
                    "op_params field '%s' is not an integer; a cost expression can "
                    "use only integer fields",
                    id);
    }
    return fail(ps, start,
                "unknown name '%s' in cost expression; use n, dtype_bytes or an "
                "integer op_params field",
                id);
}

static fkcg_expr *factor(parser *ps)
{
    skip_space(ps);
    const char *start = ps->p;
    if (*ps->p >= '0' && *ps->p <= '9') {
        uint64_t v = 0;
        while (*ps->p >= '0' && *ps->p <= '9') {
            v = v * 10 + (uint64_t)(*ps->p++ - '0');
            if (v > FKCG_MAX_EXPR_VALUE)
                return fail(ps, start, "integer too large in cost expression");
        }
        fkcg_expr *e = node(ps, FKCG_EXPR_INT);
        e->value = v;
        return e;
    }
    if ((*ps->p >= 'a' && *ps->p <= 'z') || (*ps->p >= 'A' && *ps->p <= 'Z') || *ps->p == '_')
        return name(ps);
    if (*ps->p == '(') {
        if (++ps->depth > FKCG_MAX_EXPR_DEPTH)
            return fail(ps, start, "cost expression nested too deeply");
        ps->p++;
        fkcg_expr *e = sum(ps);
        skip_space(ps);
        if (!e)
            return NULL;
        if (*ps->p != ')')
            return fail(ps, ps->p, "missing ')' in cost expression");
        ps->p++;
        ps->depth--;
        return e;
    }
    if (*ps->p == '\0')
        return fail(ps, start,
                    "cost expression ends too early; expected a number, a name or "
                    "'('");
    return fail(ps, start,
                "unexpected '%.1s' in cost expression; expected a number, a name or "
                "'('",
                start);
}

/* Left-associative chain of operators ops over operands next. */
static fkcg_expr *chain(parser *ps, fkcg_expr *(*next)(parser *), const char *ops)
{
    fkcg_expr *lhs = next(ps);
    for (;;) {
        if (!lhs)
            return NULL;
        skip_space(ps);
        char op = *ps->p;
        if (!op || !strchr(ops, op))
            return lhs;
        if (++ps->ops > FKCG_MAX_EXPR_OPS) { /* the tree's depth, which printers recurse */
            return fail(ps, ps->p,
                        "cost expression too long: at most %u operators (+ - * /); "
                        "simplify it",
                        FKCG_MAX_EXPR_OPS);
        }
        ps->p++;
        fkcg_expr *rhs = next(ps);
        if (!rhs)
            return NULL;
        fkcg_expr *e = node(ps, op == '+'   ? FKCG_EXPR_ADD
                                : op == '-' ? FKCG_EXPR_SUB
                                : op == '*' ? FKCG_EXPR_MUL
                                            : FKCG_EXPR_DIV);
        e->lhs = lhs;
        e->rhs = rhs;
        lhs = e;
    }
}

static fkcg_expr *product(parser *ps)
{
    return chain(ps, factor, "*/");
}

static fkcg_expr *sum(parser *ps)
{
    return chain(ps, product, "+-");
}

fkcg_expr *fkcg_expr_parse(fkcg_arena *a, fkcg_diag *d, const char *src, fkcg_loc loc, int val_col,
                           const fkcg_field *fields, size_t n_fields)
{
    parser ps = {a, d, src, src, loc, val_col, fields, n_fields, 0, 0, false};
    fkcg_expr *e = sum(&ps);
    skip_space(&ps);
    if (e && *ps.p) {
        if (*ps.p == ')')
            fail(&ps, ps.p, "unmatched ')' in cost expression");
        else
            fail(&ps, ps.p,
                 "unexpected '%.1s' in cost expression; expected an operator "
                 "(+ - * /)",
                 ps.p);
    }
    return ps.failed ? NULL : e;
}


static void write_node(const fkcg_expr *e, fkcg_buf *out, const fkcg_expr_style *st, bool top)
{
    static const char ops[] = "+-*/";
    switch (e->kind) {
    case FKCG_EXPR_INT:
        fkcg_buf_put_u64(out, e->value);
        fkcg_buf_puts(out, st->int_suffix);
        return;
    case FKCG_EXPR_N: fkcg_buf_puts(out, st->n); return;
    case FKCG_EXPR_DTYPE_BYTES: fkcg_buf_puts(out, st->dtype_bytes); return;
    case FKCG_EXPR_FIELD: st->field(out, e->field, st->ctx); return;
    default: break;
    }
    if (!top)
        fkcg_buf_putc(out, '(');
    write_node(e->lhs, out, st, false);
    char op[3] = {' ', ops[e->kind - FKCG_EXPR_ADD], ' '};
    fkcg_buf_put(out, op, 3);
    write_node(e->rhs, out, st, false);
    if (!top)
        fkcg_buf_putc(out, ')');
}

void fkcg_expr_write(const fkcg_expr *e, fkcg_buf *out, const fkcg_expr_style *st)
{
    write_node(e, out, st, st->bare_top);
}

static void put_name(fkcg_buf *out, const char *name, const void *ctx)
{
    (void)ctx;
    fkcg_buf_puts(out, name);
}

void fkcg_expr_print(const fkcg_expr *e, fkcg_buf *out)
{
    static const fkcg_expr_style canonical = {"", "n", "dtype_bytes", put_name, NULL, false};
    fkcg_expr_write(e, out, &canonical);
}
