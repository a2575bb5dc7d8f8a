/* check.c — the checks every language back end shares, on the plan (defence in depth: the
 * front end validated already): every contract string that becomes an identifier, field
 * kinds, the signature an op kind's sections share, schema enum values, and the uniqueness of
 * generated names. Problems are reported as file:line:col: error: ..., and then nothing is
 * emitted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "back.h"
#include "internal.h"

typedef struct checker {
    fkcg_diag *d;
} checker;

void fkcg_emit_report(fkcg_diag *d, fkcg_loc loc, const char *what, const char *value,
                      const char *why)
{
    if (!loc.file)
        loc.file = "<input>";
    fkcg_error(d, &loc, "%s '%s' %s", what, value ? value : "(none)", why);
}

void fkcg_emit_note(fkcg_diag *d, fkcg_loc loc, const char *what)
{
    if (!loc.file)
        loc.file = "<input>";
    fkcg_note(d, &loc, "%s", what);
}

static void report(checker *ck, fkcg_loc loc, const char *what, const char *value, const char *why)
{
    fkcg_emit_report(ck->d, loc, what, value, why);
}

#define IDENT_WHY                                                                                  \
    "is not usable as a C name (" FKCG_IDENT_RULE ", no C keyword nor name "                       \
    "the generated code or its headers use)"

/* Inputs, outputs and fields of one section: names and kinds. */
static void check_signature(checker *ck, const fkcg_section *s)
{
    for (size_t i = 0; i < s->n_inputs + s->n_outputs; i++) {
        const char *name = i < s->n_inputs ? s->inputs[i].name : s->outputs[i - s->n_inputs].name;
        fkcg_loc loc = i < s->n_inputs ? s->inputs[i].loc : s->outputs[i - s->n_inputs].loc;
        if (!name || !fkcg_is_c_ident(name) || fkcg_is_reserved_param(name))
            report(ck, loc, "tensor name", name,
                   IDENT_WHY "; 'stream', 'params' and 'extra' are taken");
        for (size_t j = 0; name && j < i; j++) {
            const char *other = j < s->n_inputs ? s->inputs[j].name
                                                : s->outputs[j - s->n_inputs].name;
            if (other && strcmp(name, other) == 0) {
                report(ck, loc, "tensor name", name, "is used twice in this section");
                fkcg_emit_note(ck->d,
                               j < s->n_inputs ? s->inputs[j].loc : s->outputs[j - s->n_inputs].loc,
                               "first used here");
            }
        }
    }
    for (size_t i = 0; i < s->n_fields; i++) {
        const fkcg_field *f = &s->fields[i];
        bool vec;
        if (!f->name || !fkcg_is_c_ident(f->name))
            report(ck, f->loc, "op_params field", f->name, IDENT_WHY);
        if (!fkcg_kind_lookup(f->kind, &vec))
            report(ck, f->loc, "op_params field kind", f->kind,
                   "has no C type: it is not a field kind of the schema");
        for (size_t j = 0; f->name && j < i; j++)
            if (s->fields[j].name && strcmp(f->name, s->fields[j].name) == 0) {
                report(ck, f->loc, "op_params field", f->name, "is named twice");
                fkcg_emit_note(ck->d, s->fields[j].loc, "first named here");
            }
        if (fkcg_field_len_clash(s->fields, s->n_fields, f))
            report(ck, f->loc, "op_params field", f->name,
                   "clashes with the length member generated for a Vec field");
    }
}

/* A cost expression may name n, dtype_bytes and the integer scalar fields of the section;
 * its tree is at most FKCG_MAX_EXPR_OPS deep (the printers recurse, compilers limit bracket
 * nesting). depth: of e in its tree. */
static void check_expr(checker *ck, const fkcg_section *s, const fkcg_expr *e, unsigned depth)
{
    if (!e)
        return;
    if (depth > FKCG_MAX_EXPR_OPS) {
        report(ck, s->cost.loc, "cost expression", s->kernel, "is nested too deeply");
        return;
    }
    if (e->kind == FKCG_EXPR_FIELD) {
        const fkcg_field *f = NULL;
        for (size_t i = 0; i < s->n_fields; i++)
            if (e->field && s->fields[i].name && strcmp(e->field, s->fields[i].name) == 0)
                f = &s->fields[i];
        bool vec = false;
        const fkcg_kind_spec *k = f ? fkcg_kind_lookup(f->kind, &vec) : NULL;
        if (!k || vec || !k->integer)
            report(ck, s->cost.loc, "cost expression variable", e->field,
                   "is not an integer scalar op_params field");
    }
    check_expr(ck, s, e->lhs, depth + 1);
    check_expr(ck, s, e->rhs, depth + 1);
}

static void check_enum(checker *ck, fkcg_loc loc, int which, const char *value, bool optional)
{
    const fkcg_enum *e = fkcg_enum_find(fkcg_vocabs[which].schema);
    if (!e) {
        report(ck, loc, "schema enum", fkcg_vocabs[which].schema, "is missing (internal error)");
        return;
    }
    if (!value && optional)
        return;
    if (!value || fkcg_enum_index(e, value) < 0)
        report(ck, loc, fkcg_vocabs[which].schema, value, "is not a value of the schema");
}

static void check_section(checker *ck, const fkcg_plan *p, size_t i)
{
    const fkcg_section *s = p->t->sections[i];
    const fkcg_plan_op *op = &p->ops[p->secs[i].op];
    const fkcg_section *sig = p->t->sections[op->sig];
    if (!s->kernel || !fkcg_is_c_ident(s->kernel))
        report(ck, s->loc, "kernel", s->kernel, IDENT_WHY);
    if (!fkcg_is_op_kind(s->op_kind))
        report(ck, s->loc, "op_kind", s->op_kind,
               "is not an op kind name (UpperCamelCase: "
               "letters and digits, starting with a capital, at most " FKCG_STR(
                   FKCG_IDENT_MAX) " bytes)");
    const char *clash = op->snake ? fkcg_op_kind_c_clash(op->snake) : NULL;
    if (clash)
        report(ck, s->loc, "op_kind", s->op_kind,
               "has a C name that is a C keyword, a name "
               "of the included headers or one of the generated code's own");
    const fkcg_runtime_kernel *rk = fkcg_runtime_kernel_find(s->kernel);
    if (rk && (!s->op_kind || strcmp(s->op_kind, rk->op_kind) != 0 || !s->backend ||
               strcmp(s->backend, rk->backend) != 0))
        report(ck, s->loc, "kernel", s->kernel,
               "is a kernel of the fkc runtime, which "
               "implements it for another op kind or backend (fkc/fkc_kernels.h); name your own "
               "kernel otherwise");
    if (!fkcg_is_c_path(s->entry_point))
        report(ck, s->loc, "entry_point", s->entry_point,
               "is not a path of identifiers joined by '::' (like a::b::c)");
    if (s->variant && !fkcg_is_c_ident(s->variant))
        report(ck, s->loc, "op_params variant", s->variant, IDENT_WHY);
    check_signature(ck, s);
    if (sig != s && fkcg_signature_diff(sig, s)) {
        report(ck, s->loc, "op_kind", s->op_kind,
               "is also bound by another section with other inputs, outputs or op_params; "
               "the sections of one op kind must share one C signature");
        fkcg_emit_note(ck->d, sig->loc, "the op kind's signature is defined here");
    }
    check_enum(ck, s->loc, FKCG_EN_DETERMINISM, s->determinism, false);
    for (size_t k = 0; k < s->n_inputs; k++)
        for (int l = 0; l < FKCG_NLAYOUT; l++)
            check_enum(ck, s->inputs[k].loc, FKCG_EN_LAYOUT_RULE, s->inputs[k].layout[l], true);
    for (size_t k = 0; k < s->n_outputs; k++) {
        check_enum(ck, s->outputs[k].loc, FKCG_EN_GUARANTEE, s->outputs[k].layout_guarantee, false);
        check_enum(ck, s->outputs[k].loc, FKCG_EN_ALIASING, s->outputs[k].aliasing, false);
    }
    check_enum(ck, s->loc, FKCG_EN_STRATEGY, s->caps.awkward_layout_strategy, false);
    for (size_t k = 0; k < s->caps.n_fast_paths; k++)
        check_enum(ck, s->loc, FKCG_EN_COST_CLASS, s->caps.fast_paths[k].cost_class, true);
    if (s->cost.present) {
        check_enum(ck, s->cost.loc, FKCG_EN_PROVENANCE, s->cost.provenance, true);
        check_enum(ck, s->cost.loc, FKCG_EN_COST_CLASS, s->cost.cost_class, true);
        check_expr(ck, s, s->cost.flops, 0);
        check_expr(ck, s, s->cost.bytes_moved, 0);
    }
    if (!isfinite(s->precision.max_relative) || !isfinite(s->precision.max_absolute))
        report(ck, s->loc, "precision", "max_relative/max_absolute", "must be finite");
}

/* Generated names that must stay distinct: op kinds by their snake form (then by name, a
 * total order: the one reported is the later by name), symbols. */
static int cmp_op_snake(const void *a, const void *b)
{
    const fkcg_plan_op *x = *(const fkcg_plan_op *const *)a, *y = *(const fkcg_plan_op *const *)b;
    int c = strcmp(x->snake, y->snake);
    return c ? c : strcmp(x->name, y->name);
}

static void check_unique(checker *ck, const fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    const fkcg_plan_op **by_snake = fkcg_xcalloc(p->n_ops, sizeof *by_snake);
    for (size_t i = 0; i < p->n_ops; i++)
        by_snake[i] = &p->ops[i];
    qsort(by_snake, p->n_ops, sizeof *by_snake, cmp_op_snake);
    for (size_t i = 1; i < p->n_ops; i++)
        if (strcmp(by_snake[i]->snake, by_snake[i - 1]->snake) == 0) {
            report(ck, t->sections[by_snake[i]->sig]->loc, "op_kind", by_snake[i]->name,
                   "gives the same C name as another op kind");
            fkcg_emit_note(ck->d, t->sections[by_snake[i - 1]->sig]->loc,
                           "the other op kind is defined here");
        }
    free(by_snake);
    for (size_t i = 1; i < p->n_rows; i++) {
        const fkcg_binding *b = p->rows[p->links[i]].b, *a = p->rows[p->links[i - 1]].b;
        if (strcmp(fkcg_nz(b->symbol), fkcg_nz(a->symbol)) == 0) {
            report(ck, b->section->loc, "symbol", b->symbol, "is bound twice in the link registry");
            fkcg_emit_note(ck->d, a->section->loc, "first bound here");
        }
    }
}

/* Every check, on a plan; returns the number of errors reported. An empty table is one: there
 * is nothing to generate (and C has no empty arrays). */
size_t fkcg_plan_check(const fkcg_plan *p, fkcg_diag *d)
{
    const fkcg_table *t = p->t;
    size_t before = fkcg_diag_errors(d);
    if (t->n_sections == 0 || t->n_bindings == 0) {
        fkcg_error(d, NULL, "the contracts bind no kernel; nothing to generate");
        return fkcg_diag_errors(d) - before;
    }
    checker ck = {d};
    for (size_t i = 0; i < t->n_sections; i++)
        check_section(&ck, p, i);
    for (size_t i = 0; i < t->n_bindings; i++) {
        const fkcg_binding *b = &t->bindings[i];
        bool key_ok = fkcg_binding_n_key(b) >= 1 && fkcg_binding_n_key(b) <= FKCG_KEY_MAX;
        for (uint32_t k = 0; key_ok && k < fkcg_binding_n_key(b); k++)
            key_ok = fkcg_table_dtype(t, fkcg_binding_slot(b, k)) != NULL;
        if (!fkcg_emit_is_path(b->symbol) || !fkcg_emit_is_ident(b->wrapper) || !key_ok)
            report(&ck, b->section->loc, "binding symbol", b->symbol, "is malformed");
    }
    for (size_t i = 0; i < t->n_providers; i++)
        if (!t->providers[i]->backend || !fkcg_emit_is_ident(t->providers[i]->backend))
            report(&ck, t->providers[i]->loc, "backend", t->providers[i]->backend, IDENT_WHY);
    if (fkcg_diag_errors(d) == before)
        check_unique(&ck, p);
    return fkcg_diag_errors(d) - before;
}
