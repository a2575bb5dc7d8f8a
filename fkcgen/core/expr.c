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
    const fkcg_section *sec; /* its tensors, for n(X), dim(X, k), bytes(X); NULL: none */
    unsigned depth;          /* open parentheses */
    unsigned ops;            /* operators read so far (at most FKCG_MAX_EXPR_OPS) */
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

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The tensor terms: n(X), dim(X, k), bytes(X). */
static const struct {
    const char *name;
    fkcg_expr_kind kind;
} tensor_terms[] = {
    {"n", FKCG_EXPR_TENSOR_N},
    {"dim", FKCG_EXPR_TENSOR_DIM},
    {"bytes", FKCG_EXPR_TENSOR_BYTES},
};

/* The tensor named at ps->p (an input or output of the section), its slot in *slot. */
static const char *tensor_name(parser *ps, const char *fn, int *slot)
{
    skip_space(ps);
    const char *start = ps->p;
    while (is_ident_char(*ps->p))
        ps->p++;
    if (ps->p == start) {
        fail(ps, start, "%s() needs a tensor name: an input or output of the section", fn);
        return NULL;
    }
    char *id = fkcg_strndup(ps->a, start, (size_t)(ps->p - start));
    const fkcg_section *s = ps->sec;
    size_t n_in = s ? s->n_inputs : 0, n_out = s ? s->n_outputs : 0;
    const char **names = fkcg_alloc(ps->a, (n_in + n_out + 1) * sizeof *names);
    for (size_t i = 0; i < n_in + n_out; i++) {
        names[i] = i < n_in ? s->inputs[i].name : s->outputs[i - n_in].name;
        if (strcmp(names[i], id) != 0)
            continue;
        if (i < n_in && s->inputs[i].variadic) {
            fail(ps, start,
                 "%s(%s): '%s' is a variadic input (several tensors); a cost expression can "
                 "name only a single tensor",
                 fn, id, id);
            return NULL;
        }
        if (i < n_in && s->inputs[i].shape_only && !strcmp(fn, "bytes")) {
            fail(ps, start,
                 "bytes(%s): '%s' is a shape-only input (its data is never read); use n(%s) or "
                 "dim(%s, k)",
                 id, id, id, id);
            return NULL;
        }
        *slot = (int)i;
        return names[i];
    }
    const char *hint = fkcg_suggest(names, n_in + n_out, id);
    if (hint)
        fail(ps, start, "unknown tensor '%s' in %s(); did you mean '%s'?", id, fn, hint);
    else
        fail(ps, start, "unknown tensor '%s' in %s(); name an input or output of the section", id,
             fn);
    return NULL;
}

/* n(X), dim(X, k) or bytes(X), after its name (ps->p at the '('). */
static fkcg_expr *tensor_term(parser *ps, const char *fn, fkcg_expr_kind kind)
{
    ps->p++; /* ( */
    fkcg_expr *e = node(ps, kind);
    e->tensor = tensor_name(ps, fn, &e->slot);
    if (!e->tensor)
        return NULL;
    skip_space(ps);
    if (kind == FKCG_EXPR_TENSOR_DIM) {
        if (*ps->p != ',')
            return fail(ps, ps->p, "dim() takes two arguments: dim(%s, k), k an axis", e->tensor);
        ps->p++;
        skip_space(ps);
        const char *at = ps->p;
        bool neg = *ps->p == '-';
        if (neg)
            ps->p++;
        if (!(*ps->p >= '0' && *ps->p <= '9'))
            return fail(ps, at,
                        "dim(%s, k): k must be an integer literal (an axis; negative counts "
                        "from the end)",
                        e->tensor);
        int64_t k = 0;
        while (*ps->p >= '0' && *ps->p <= '9') {
            k = k * 10 + (*ps->p++ - '0');
            if (k >= FKCG_MAX_EXPR_AXIS)
                return fail(ps, at, "dim(%s, k): axis %s%lld... is out of range (|k| < %d)",
                            e->tensor, neg ? "-" : "", (long long)k, FKCG_MAX_EXPR_AXIS);
        }
        e->axis = neg ? -k : k;
        skip_space(ps);
    }
    if (*ps->p == ',')
        return fail(ps, ps->p, "%s() takes %s", fn,
                    kind == FKCG_EXPR_TENSOR_DIM ? "two arguments: dim(X, k)"
                                                 : "one argument: a tensor name");
    if (*ps->p != ')')
        return fail(ps, ps->p, "missing ')' after %s(%s", fn, e->tensor);
    ps->p++;
    return e;
}

/* A name: n, dtype_bytes, an integer op_params field, or a tensor term (name then '('). */
static fkcg_expr *name(parser *ps)
{
    const char *start = ps->p;
    while (is_ident_char(*ps->p))
        ps->p++;
    size_t len = (size_t)(ps->p - start);
    char *id = fkcg_strndup(ps->a, start, len);
    if (*ps->p == '(') {
        for (size_t i = 0; i < sizeof tensor_terms / sizeof tensor_terms[0]; i++)
            if (!strcmp(id, tensor_terms[i].name))
                return tensor_term(ps, id, tensor_terms[i].kind);
        return fail(ps, start,
                    "unknown function '%s' in cost expression; use n(X), dim(X, k) or "
                    "bytes(X)",
                    id);
    }
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
                           const fkcg_field *fields, size_t n_fields, const fkcg_section *sec)
{
    parser ps = {a, d, src, src, loc, val_col, fields, n_fields, sec, 0, 0, false};
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
    case FKCG_EXPR_TENSOR_N:
    case FKCG_EXPR_TENSOR_DIM:
    case FKCG_EXPR_TENSOR_BYTES:
        if (st->tensor) {
            st->tensor(out, e, st->ctx);
            return;
        }
        fkcg_buf_puts(out, e->kind == FKCG_EXPR_TENSOR_N     ? "n("
                           : e->kind == FKCG_EXPR_TENSOR_DIM ? "dim("
                                                             : "bytes(");
        fkcg_buf_puts(out, e->tensor);
        if (e->kind == FKCG_EXPR_TENSOR_DIM)
            fkcg_buf_printf(out, ", %lld", (long long)e->axis);
        fkcg_buf_putc(out, ')');
        return;
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

bool fkcg_expr_uses_tensors(const fkcg_expr *e)
{
    return e && (e->kind == FKCG_EXPR_TENSOR_N || e->kind == FKCG_EXPR_TENSOR_DIM ||
                 e->kind == FKCG_EXPR_TENSOR_BYTES || fkcg_expr_uses_tensors(e->lhs) ||
                 fkcg_expr_uses_tensors(e->rhs));
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
    static const fkcg_expr_style canonical = {"", "n", "dtype_bytes", put_name, NULL, false, NULL};
    fkcg_expr_write(e, out, &canonical);
}
