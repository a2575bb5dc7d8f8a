/* render.c — the tables of the plan, walked once for every back end (as cmark's render.c
 * walks one tree for each of its formats): the cells of each table's rows in order, and the
 * walk that prints them: rows with their comments, wrapped under 100 columns. A back end gives
 * the walk its style (back.h): what its language calls each table, its escape gate for the
 * leaves, how a table and a row open and close, and which cells it prints. The walk knows no
 * language. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "back.h"

#define WRAP_COLUMN 100 /* rows wrap before this column */
enum { MAX_CELLS = 48 };

const char *fkcg_buf_str(const fkcg_buf *b)
{
    return b->data ? b->data : "";
}

void fkcg_render_init(fkcg_render *r, fkcg_buf *b, const fkcg_plan *p, const fkcg_style *st,
                      const void *ctx)
{
    *r = (fkcg_render){.b = b, .p = p, .window = NULL, .same = NULL, .st = st, .ctx = ctx};
    fkcg_buf_init(&r->scratch);
}

void fkcg_render_free(fkcg_render *r)
{
    fkcg_buf_free(&r->scratch);
}

/* ---- the cells of each table's rows, in the order of its row type's fields ---- */

typedef struct cells {
    fkcg_cell v[MAX_CELLS];
    size_t n;
} cells;

static fkcg_cell *add(cells *c, fkcg_cell_kind kind)
{
    fkcg_cell *x = &c->v[c->n < MAX_CELLS ? c->n++ : MAX_CELLS - 1];
    *x = (fkcg_cell){.kind = kind, .role = FKCG_ROLE_DATA, .k = FKCG_NONE};
    return x;
}

static void str(cells *c, const char *s)
{
    add(c, FKCG_CELL_STR)->s = s;
}
static void ostr(cells *c, const char *s)
{
    add(c, FKCG_CELL_OSTR)->s = s;
}
static void uint(cells *c, uint64_t u)
{
    fkcg_cell *x = add(c, FKCG_CELL_UINT);
    x->u = u;
    x->which = 32;
}
static void uint64(cells *c, uint64_t u)
{
    fkcg_cell *x = add(c, FKCG_CELL_UINT);
    x->u = u;
    x->which = 64;
}
static void boolean(cells *c, bool v)
{
    add(c, FKCG_CELL_BOOL)->u = v;
}

static void f64(cells *c, double d)
{
    add(c, FKCG_CELL_F64)->d = d;
}

static void vocab(cells *c, int which, const char *value)
{
    fkcg_cell *x = add(c, FKCG_CELL_VOCAB);
    x->which = which;
    x->s = value;
}

static fkcg_cell *ref(cells *c, fkcg_cell_kind kind, int which, uint64_t u)
{
    fkcg_cell *x = add(c, kind);
    x->which = which;
    x->u = u;
    return x;
}

static void slice(cells *c, fkcg_table_id t, size_t sec, size_t k, size_t n)
{
    fkcg_cell *x = add(c, FKCG_CELL_SLICE);
    x->which = (int)t;
    x->u = sec;
    x->k = k;
    x->n = n;
}

static void nest(cells *c, fkcg_table_id t, bool open)
{
    add(c, open ? FKCG_CELL_OPEN : FKCG_CELL_CLOSE)->which = (int)t;
}

static const char *rel_file(const fkcg_section *s)
{
    if (s->provider && s->provider->rel_file)
        return s->provider->rel_file;
    return fkcg_nz(s->loc.file);
}

static void provider_cells(cells *c, const fkcg_provider *pr)
{
    str(c, pr->name);
    vocab(c, FKCG_EN_BACKEND, fkcg_nz(pr->backend));
    str(c, pr->kernel_source);
    str(c, pr->link_registry);
    str(c, pr->revision_base);
    uint(c, pr->fkc_version);
    str(c, pr->rel_file ? pr->rel_file : pr->loc.file);
    ostr(c, pr->text_hash);
}

static void caps_cells(cells *c, const fkcg_section *s, size_t sec)
{
    nest(c, FKCG_T_CAPS, true);
    vocab(c, FKCG_EN_STRATEGY, s->caps.awkward_layout_strategy);
    slice(c, FKCG_T_FAST_PATHS, sec, FKCG_NONE, s->caps.n_fast_paths);
    boolean(c, s->caps.in_place);
    uint(c, s->caps.alignment_bytes);
    uint(c, s->caps.access_granularity_bits);
    nest(c, FKCG_T_CAPS, false);
}

static void precision_fields(cells *c, const fkcg_precision *pr)
{
    boolean(c, pr->bit_stable_on_same_hardware);
    uint64(c, fkcg_ulp_ceil(pr)); /* whole ulps, rounded up: a bound that still holds */
    f64(c, pr->max_relative);
    f64(c, pr->max_absolute);
    boolean(c, pr->audited);
    ostr(c, pr->notes);
}

static void precision_cells(cells *c, const fkcg_precision *pr)
{
    nest(c, FKCG_T_PRECISION, true);
    precision_fields(c, pr);
    nest(c, FKCG_T_PRECISION, false);
}

static void kernel_cells(cells *c, const fkcg_plan *p, size_t i)
{
    const fkcg_plan_sec *ps = &p->secs[i];
    const fkcg_section *s = ps->s;
    str(c, s->kernel);
    ref(c, FKCG_CELL_OP, 0, ps->op);
    vocab(c, FKCG_EN_BACKEND, fkcg_nz(s->backend));
    str(c, s->kernel_source);
    str(c, s->blurb);
    str(c, s->entry_point);
    caps_cells(c, s, i);
    precision_cells(c, &s->precision);
    vocab(c, FKCG_EN_DETERMINISM, s->determinism);
    str(c, s->revision_hash);
    str(c, rel_file(s));
    uint(c, s->loc.line);
    ref(c, FKCG_CELL_ROW, FKCG_T_PROVIDERS, ps->provider);
    slice(c, FKCG_T_INPUTS, i, FKCG_NONE, s->n_inputs);
    slice(c, FKCG_T_OUTPUTS, i, FKCG_NONE, s->n_outputs);
    ostr(c, s->variant);
    slice(c, FKCG_T_FIELDS, i, FKCG_NONE, s->n_fields);
    ref(c, FKCG_CELL_COST, 0, s->cost.present ? i : FKCG_NONE);
    ostr(c, s->heading);
    c->v[c->n - 1].role = FKCG_ROLE_PROSE; /* the Markdown around the block */
    ostr(c, s->prose);
    c->v[c->n - 1].role = FKCG_ROLE_PROSE;
}

/* Row i's cells; template: as the row template of its section, whose parameters (the cells
 * that differ from row to row) are holes. */
static void binding_cells(cells *c, const fkcg_plan *p, size_t i, bool template)
{
    const fkcg_plan_row *row = &p->rows[i];
    ref(c, FKCG_CELL_OP, 0, row->op);
    ref(c, FKCG_CELL_KEY, 0, i)->hole = template;
    vocab(c, FKCG_EN_BACKEND, fkcg_nz(p->secs[row->sec].s->backend));
    ref(c, FKCG_CELL_ROW, FKCG_T_KERNELS, row->sec);
    ref(c, FKCG_CELL_SYMBOL, 0, i)->hole = template;
    ref(c, FKCG_CELL_WRAPPER, 0, i)->hole = template;
    ref(c, FKCG_CELL_KREF, 0, i)->hole = template;
    uint(c, row->b->byte_width);
    c->v[c->n - 1].hole = template;
    ref(c, FKCG_CELL_COST, 0, p->secs[row->sec].s->cost.present ? row->sec : FKCG_NONE);
    ref(c, FKCG_CELL_PREC, 0, i); /* a templated section has no by_dtype: one for all */
}

static void link_cells(cells *c, const fkcg_plan *p, size_t row)
{
    ref(c, FKCG_CELL_SYMBOL, 0, row);
    ref(c, FKCG_CELL_REGISTRY, 0, p->secs[p->rows[row].sec].registry);
    ref(c, FKCG_CELL_ROW, FKCG_T_BINDINGS, row);
}

static void input_cells(cells *c, const fkcg_input *in, size_t sec, size_t k)
{
    str(c, in->name);
    slice(c, FKCG_T_DTYPES, sec, k, in->n_dtypes);
    nest(c, FKCG_T_LAYOUT, true);
    for (int l = 0; l < FKCG_NLAYOUT; l++)
        vocab(c, FKCG_EN_LAYOUT_RULE, in->layout[l]);
    nest(c, FKCG_T_LAYOUT, false);
    ostr(c, in->rank);
    ostr(c, in->shape_constraint);
}

/* The kind of a shape rule as written ("reduce" of "reduce(x, 0, true)"), a schema value;
 * NULL when it is none (a hand-built table's text). */
static const char *shape_kind(const char *rule)
{
    const fkcg_enum *e = fkcg_enum_find("shape_rule");
    for (size_t k = 0; rule && e && k < e->count; k++) {
        size_t len = strlen(e->values[k]);
        if (!strncmp(rule, e->values[k], len) && rule[len] == '(')
            return e->values[k];
    }
    return NULL;
}

/* An output's shape operands: those of the rules that have their own (issue 22). */
static size_t shape_operands(const fkcg_output *o)
{
    return o->shape >= FKCG_SR_BROADCAST ? o->n_shape_args : 0;
}

static void output_cells(cells *c, const fkcg_output *o, size_t sec, size_t k)
{
    str(c, o->name);
    ostr(c, o->dtype_rule);
    ostr(c, o->dtype_rule_arg);
    ostr(c, o->shape_rule);
    ostr(c, o->shape_rule_arg);
    vocab(c, FKCG_EN_GUARANTEE, o->layout_guarantee);
    vocab(c, FKCG_EN_ALIASING, o->aliasing);
    vocab(c, FKCG_EN_SHAPE_RULE, shape_kind(o->shape_rule));
    slice(c, FKCG_T_SHAPE_OPERANDS, sec, k, shape_operands(o));
}

static void cost_cells(cells *c, const fkcg_section *s, size_t sec)
{
    vocab(c, FKCG_EN_PROVENANCE, s->cost.provenance);
    vocab(c, FKCG_EN_COST_CLASS, s->cost.cost_class);
    ostr(c, s->cost.flops ? s->cost.flops_src : NULL);
    ostr(c, s->cost.bytes_moved ? s->cost.bytes_moved_src : NULL);
    ref(c, FKCG_CELL_COSTFN, 0, sec);
    /* a cost over tensor terms: no (n, dtype_bytes) function (the header's per kernel) */
    c->v[c->n - 1].n = s->cost.flops != NULL && !fkcg_expr_uses_tensors(s->cost.flops);
    fkcg_cell *bm = add(c, FKCG_CELL_COSTFN);
    bm->which = 1;
    bm->u = sec;
    bm->n = s->cost.bytes_moved != NULL && !fkcg_expr_uses_tensors(s->cost.bytes_moved);
}

/* ---- printing: cells through the style, rows wrapped under WRAP_COLUMN ---- */

/* The column where b's last line ends. */
static size_t column(const fkcg_buf *b)
{
    size_t i = b->len;
    while (i > 0 && b->data[i - 1] != '\n')
        i--;
    return b->len - i;
}

void fkcg_render_name(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, size_t sec, size_t k)
{
    const fkcg_window *w = r->window && fkcg_render_windowed(t) ? r->window : NULL;
    const char *name = w && w->names && w->names[t] ? w->names[t] : fkcg_nz(r->st->tables[t].name);
    const char *at = strchr(name, '%');
    if (!at) {
        r->st->tpl(r, out, name);
        if (w) { /* the window's part: <name>_<part> */
            fkcg_buf_putc(out, '_');
            fkcg_buf_put_u64(out, w->part);
        }
        return;
    }
    if (!r->in_section)
        fkcg_buf_puts(out, r->st->section_scope);
    fkcg_buf_put(out, name, (size_t)(at - name));
    fkcg_buf_put_u64(out, sec);
    if (k != FKCG_NONE) {
        fkcg_buf_putc(out, '_');
        fkcg_buf_put_u64(out, k);
    }
    fkcg_buf_puts(out, at + 1);
}

/* "Some(" text ")" or "None" (Rust); the literal or NULL (C). */
static void put_optional(fkcg_render *r, fkcg_buf *out, const char *s)
{
    if (!s) {
        fkcg_buf_puts(out, r->st->none);
        return;
    }
    fkcg_buf_puts(out, r->st->some);
    r->st->str(out, s);
    fkcg_buf_puts(out, r->st->some_end);
}

/* "&name[i]" of a row of table t. */
static void put_row_ref(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, uint64_t i)
{
    if (i == FKCG_NONE) {
        fkcg_buf_puts(out, r->st->none);
        return;
    }
    if (r->window && t == FKCG_T_KERNELS)
        i = r->window->sec_local[i]; /* a row's section is in the row's window */
    else if (r->window && t == FKCG_T_BINDINGS)
        i -= r->window->row_lo;
    fkcg_buf_puts(out, r->st->address);
    fkcg_render_name(r, out, t, FKCG_NONE, FKCG_NONE);
    fkcg_buf_putc(out, '[');
    fkcg_buf_put_u64(out, i);
    fkcg_buf_putc(out, ']');
}

bool fkcg_render_windowed(fkcg_table_id t)
{
    return t == FKCG_T_KERNELS || t == FKCG_T_BINDINGS || t == FKCG_T_LINKS ||
           t == FKCG_T_SHARED_COST;
}

/* The sharing of the per-section tables in force: the render's own (a whole-plan table over
 * sharded sections), the window's, or NULL (the plan's secs[].same_*). */
static const size_t *const *same_of(const fkcg_render *r)
{
    return r->same ? r->same : r->window ? r->window->same : NULL;
}

/* The section whose cost section sec names: same (the first section with that cost), or,
 * when a window is printed, the first in that window (an earlier one's is another part's). */
static size_t in_window(const fkcg_render *r, size_t sec, size_t same)
{
    return same_of(r) ? same_of(r)[FKCG_T_COST][sec] : same;
}

/* Where section sec's table t (of input k, for DTYPES) is printed: at the first section with
 * the same rows (plan.c); *sec and *k are moved there. Returns whether it is sec's own. */
static bool same_table(const fkcg_render *r, fkcg_table_id t, size_t *sec, size_t *k)
{
    const fkcg_plan *p = r->p;
    size_t was = *sec;
    const fkcg_plan_sec *ps = &p->secs[*sec];
    switch (t) {
    case FKCG_T_DTYPES: {
        size_t kk = *k;
        fkcg_plan_input(p,
                        same_of(r) ? same_of(r)[FKCG_T_DTYPES][ps->inputs + *k]
                                   : p->same_dtypes[ps->inputs + *k],
                        sec, k);
        return *sec == was && *k == kk;
    }
    case FKCG_T_FAST_PATHS: *sec = ps->same_fast_paths; break;
    case FKCG_T_INPUTS: *sec = ps->same_inputs; break;
    case FKCG_T_OUTPUTS: *sec = ps->same_outputs; break;
    case FKCG_T_FIELDS: *sec = ps->same_fields; break;
    case FKCG_T_COST: *sec = ps->same_cost; break;
    default: break;
    }
    if (same_of(r) && t <= FKCG_T_COST)
        *sec = same_of(r)[t][was];
    return *sec == was;
}

/* A section's table, referenced: "name, n" or "&name" (NULL, 0 or &[] when it has no rows). */
static void put_slice(fkcg_render *r, fkcg_buf *out, const fkcg_cell *c)
{
    if (c->n == 0) {
        fkcg_buf_puts(out, r->st->empty_slice);
        return;
    }
    size_t sec = c->u, k = c->k;
    same_table(r, (fkcg_table_id)c->which, &sec, &k);
    fkcg_buf_puts(out, r->st->slice_counted ? "" : r->st->address);
    fkcg_render_name(r, out, (fkcg_table_id)c->which, sec, k);
    if (r->st->slice_counted) {
        fkcg_buf_puts(out, ", ");
        fkcg_buf_put_u64(out, c->n);
    }
}

/* The opening or end of a row (or nested row) of table t. */
static void put_row_edge(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, bool open)
{
    r->st->row_edge(r, out, t, open);
}

/* A cost function of a section ("cost_3_flops"), or none. */
static void put_cost_fn(fkcg_render *r, fkcg_buf *out, const fkcg_cell *c)
{
    if (!c->n) {
        fkcg_buf_puts(out, r->st->none);
        return;
    }
    fkcg_buf_printf(out, "%scost_%llu_%s%s", r->st->some,
                    (unsigned long long)in_window(r, c->u, r->p->secs[c->u].same_cost),
                    c->which ? "bytes_moved" : "flops", r->st->some_end);
}

void fkcg_render_cell(fkcg_render *r, fkcg_buf *out, const fkcg_cell *c)
{
    const fkcg_style *st = r->st;
    if (c->hole) {
        st->hole(r, out, c);
        return;
    }
    switch (c->kind) {
    case FKCG_CELL_STR: st->str(out, c->s); break;
    case FKCG_CELL_OSTR: put_optional(r, out, c->s); break;
    case FKCG_CELL_UINT:
        if (st->uint)
            st->uint(out, c->u, c->which);
        else
            fkcg_buf_put_u64(out, c->u);
        break;
    case FKCG_CELL_BOOL: fkcg_buf_puts(out, st->truth[c->u != 0]); break;
    case FKCG_CELL_F64: st->f64(out, c->d); break;
    case FKCG_CELL_VOCAB: st->vocab(out, c->which, c->s); break;
    case FKCG_CELL_OP: st->op(r, out, c->u); break;
    case FKCG_CELL_KEY: {
        const fkcg_binding *b = r->p->rows[c->u].b;
        uint32_t n = fkcg_binding_n_key(b);
        fkcg_buf_puts(out, st->key_open);
        for (uint32_t k = 0; k < n; k++) {
            const fkcg_dtype_info *d = fkcg_table_dtype(r->p->t, fkcg_binding_slot(b, k));
            if (k)
                fkcg_buf_puts(out, ", ");
            st->vocab(out, FKCG_EN_DTYPE, d ? d->name : NULL);
        }
        fkcg_buf_puts(out, st->key_end);
        if (st->key_count)
            fkcg_buf_printf(out, ", %u", (unsigned)n);
        break;
    }
    case FKCG_CELL_ROW: put_row_ref(r, out, (fkcg_table_id)c->which, c->u); break;
    case FKCG_CELL_SLICE: put_slice(r, out, c); break;
    case FKCG_CELL_SYMBOL: /* through its section's template when it has one */
        if (r->p->secs[r->p->rows[c->u].sec].templated)
            st->template_call(r, out, c->u, true);
        else
            st->str(out, r->p->rows[c->u].b->symbol);
        break;
    case FKCG_CELL_WRAPPER: st->wrapper(r, out, c->u, false); break;
    case FKCG_CELL_KREF: st->wrapper(r, out, c->u, true); break;
    case FKCG_CELL_COSTFN: put_cost_fn(r, out, c); break;
    case FKCG_CELL_COST:
        if (c->u == FKCG_NONE) {
            fkcg_buf_puts(out, st->unknown_cost);
            break;
        }
        fkcg_buf_puts(out, st->address);
        fkcg_render_name(r, out, FKCG_T_COST, in_window(r, c->u, r->p->secs[c->u].same_cost),
                         FKCG_NONE);
        break;
    case FKCG_CELL_PREC: {
        const fkcg_plan_row *row = &r->p->rows[c->u];
        if (!row->b->precision_by) { /* its kernel row's precision, referenced */
            put_row_ref(r, out, FKCG_T_KERNELS, row->sec);
            st->member(r, out, FKCG_T_KERNELS, row->sec, FKCG_T_PRECISION);
            break;
        }
        fkcg_buf_puts(out, st->address);
        fkcg_render_name(r, out, FKCG_T_PRECISION_BY, row->sec, FKCG_NONE);
        fkcg_buf_printf(out, "[%u]", (unsigned)(row->b->precision_by - 1));
        break;
    }
    case FKCG_CELL_REGISTRY:
        if (st->registry_path)
            st->str(out, r->p->registries[c->u]);
        else
            fkcg_buf_put_u64(out, c->u);
        break;
    case FKCG_CELL_OPEN: put_row_edge(r, out, (fkcg_table_id)c->which, true); break;
    case FKCG_CELL_CLOSE: put_row_edge(r, out, (fkcg_table_id)c->which, false); break;
    }
}

/* Whether the style prints cell c of a row of table t. */
static bool keep(const fkcg_render *r, fkcg_table_id t, const fkcg_cell *c)
{
    return !r->st->cell || r->st->cell(r, t, c);
}

size_t fkcg_render_place(const fkcg_render *r, fkcg_table_id t, size_t row, fkcg_table_id field)
{
    cells c = {.n = 0};
    if (t == FKCG_T_KERNELS)
        kernel_cells(&c, r->p, row);
    size_t place = 0;
    for (size_t i = 0, depth = 0; i < c.n; i++) {
        const fkcg_cell *x = &c.v[i];
        if (depth == 0 && x->kind == FKCG_CELL_OPEN && x->which == (int)field)
            return place;
        depth += x->kind == FKCG_CELL_OPEN;
        depth -= x->kind == FKCG_CELL_CLOSE;
        place += depth == 0 && keep(r, t, x);
    }
    return FKCG_NONE;
}

/* cells v[*i] (one leaf, or a nested row to its CLOSE) into out; *i moves past it. */
static void put_cell(fkcg_render *r, fkcg_table_id t, fkcg_buf *out, const fkcg_cell *v, size_t n,
                     size_t *i)
{
    if (v[*i].kind != FKCG_CELL_OPEN) {
        fkcg_render_cell(r, out, &v[(*i)++]);
        return;
    }
    fkcg_render_cell(r, out, &v[(*i)++]);
    for (bool first = true; *i < n && v[*i].kind != FKCG_CELL_CLOSE;) {
        if (!keep(r, t, &v[*i])) {
            (*i)++;
            continue;
        }
        if (!first)
            fkcg_buf_puts(out, ", ");
        put_cell(r, t, out, v, n, i);
        first = false;
    }
    if (*i < n)
        fkcg_render_cell(r, out, &v[(*i)++]); /* CLOSE */
}

/* A row's cells after its opening: ", " between them, or ",\n" and the alignment `open`
 * (a column) before one that would cross WRAP_COLUMN. */
static void put_cells(fkcg_render *r, fkcg_table_id t, const cells *c, size_t open)
{
    size_t col = column(r->b);
    bool first = true;
    for (size_t i = 0; i < c->n;) {
        if (!keep(r, t, &c->v[i])) {
            i++;
            continue;
        }
        r->scratch.len = 0;
        put_cell(r, t, &r->scratch, c->v, c->n, &i);
        size_t len = r->scratch.len;
        if (!first && col + 2 + len + 2 > WRAP_COLUMN && col > open) {
            fkcg_buf_puts(r->b, ",\n");
            for (size_t k = 0; k < open; k++)
                fkcg_buf_putc(r->b, ' ');
            col = open;
        } else if (!first) {
            fkcg_buf_puts(r->b, ", ");
            col += 2;
        }
        fkcg_buf_put(r->b, r->scratch.data, len);
        col = memchr(r->scratch.data, '\n', len) ? column(r->b) : col + len;
        first = false;
    }
}

/* One row at the style's indentation, with its comment (when given) on the line before or,
 * trailing, after it. */
static void put_row(fkcg_render *r, fkcg_table_id t, const cells *c, const char *comment,
                    bool trailing)
{
    const char *indent = r->st->indent[r->in_section];
    if (comment && !trailing) {
        fkcg_buf_puts(r->b, indent);
        r->st->comment(r->b, comment);
        fkcg_buf_putc(r->b, '\n');
    }
    fkcg_buf_puts(r->b, indent);
    put_row_edge(r, r->b, t, true);
    put_cells(r, t, c, strlen(indent) + r->st->cont);
    put_row_edge(r, r->b, t, false);
    fkcg_buf_putc(r->b, ',');
    if (comment && trailing) {
        fkcg_buf_putc(r->b, ' ');
        r->st->comment(r->b, comment);
    }
    fkcg_buf_putc(r->b, '\n');
}

/* One value a line, with a trailing comment (when given). */
static void put_value(fkcg_render *r, fkcg_table_id t, const cells *c, const char *comment)
{
    fkcg_buf_puts(r->b, r->st->indent[r->in_section]);
    put_cells(r, t, c, column(r->b));
    fkcg_buf_putc(r->b, ',');
    if (comment) {
        fkcg_buf_putc(r->b, ' ');
        r->st->comment(r->b, comment);
    }
    fkcg_buf_putc(r->b, '\n');
}

void fkcg_render_where(fkcg_buf *out, const fkcg_plan *p, size_t sec, bool line)
{
    const fkcg_section *s = p->secs[sec].s;
    fkcg_buf_putc(out, '[');
    fkcg_buf_put_u64(out, sec);
    fkcg_buf_puts(out, "] ");
    fkcg_buf_puts(out, fkcg_nz(s->kernel));
    fkcg_buf_puts(out, " (");
    fkcg_buf_puts(out, rel_file(s));
    if (line) {
        fkcg_buf_putc(out, ':');
        fkcg_buf_put_u64(out, s->loc.line);
    }
    fkcg_buf_putc(out, ')');
}

size_t fkcg_render_links_of(const fkcg_plan *p, size_t reg)
{
    return reg == FKCG_NONE ? p->n_rows : p->reg_first[reg + 1] - p->reg_first[reg];
}

/* The comment of row i of table t: "[i] kernel ..." (built in a buffer of its own). */
static const char *row_comment(fkcg_buf *cm, const fkcg_plan *p, fkcg_table_id t, size_t i)
{
    cm->len = 0;
    if (t == FKCG_T_KERNELS) {
        fkcg_render_where(cm, p, i, true);
    } else if (t == FKCG_T_PROVIDERS) {
        const fkcg_provider *pr = p->t->providers[i];
        fkcg_buf_printf(cm, "[%zu] %s", i, fkcg_nz(pr->rel_file ? pr->rel_file : pr->loc.file));
    } else {
        const fkcg_plan_row *row = &p->rows[i];
        if (t == FKCG_T_BINDINGS)
            fkcg_buf_printf(cm, "[%zu] ", i);
        fkcg_buf_puts(cm, fkcg_nz(p->secs[row->sec].s->kernel));
        fkcg_buf_putc(cm, ' ');
        for (uint32_t k = 0; k < (fkcg_binding_plain(row->b) ? 1 : fkcg_binding_n_key(row->b));
             k++) {
            const fkcg_dtype_info *d = fkcg_table_dtype(p->t, fkcg_binding_slot(row->b, k));
            if (k)
                fkcg_buf_putc(cm, ' ');
            fkcg_buf_puts(cm, d ? d->name : "?");
        }
        if (t == FKCG_T_LINKS)
            fkcg_buf_printf(cm, " [%zu]", i);
    }
    return fkcg_buf_str(cm);
}

/* The row templates of the templated sections: the rows of a section differ only in their
 * dtype, symbol suffix and wrapper width, so each row is a call of its section's template
 * (a C macro, a Rust macro_rules!), and the link registry names its symbols the same way. */
static void put_templates(fkcg_render *r)
{
    const fkcg_plan *p = r->p;
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_plan_sec *ps = &p->secs[i];
        if (!ps->templated || (r->window && r->window->sec_part[i] != r->window->part))
            continue;
        r->st->template_open(r, i, true);
        r->st->str(r->b, ps->s->entry_point);
        r->st->template_close(r, true);
        cells c = {.n = 0};
        binding_cells(&c, p, ps->first, true);
        r->st->template_open(r, i, false);
        put_row_edge(r, r->b, FKCG_T_BINDINGS, true);
        put_cells(r, FKCG_T_BINDINGS, &c, (size_t)-1); /* on one line */
        put_row_edge(r, r->b, FKCG_T_BINDINGS, false);
        r->st->template_close(r, false);
    }
}

/* Row k of a templated section: a call of its template, with its index as the comment. */
static void put_template_row(fkcg_render *r, size_t k)
{
    fkcg_buf_puts(r->b, r->st->indent[0]);
    r->st->template_call(r, r->b, k, false);
    fkcg_buf_puts(r->b, ", ");
    char index[32];
    snprintf(index, sizeof index, "[%zu]", k);
    r->st->comment(r->b, index);
    fkcg_buf_putc(r->b, '\n');
}

void fkcg_render_table(fkcg_render *r, fkcg_table_id t, size_t registry)
{
    const fkcg_plan *p = r->p;
    const fkcg_window *w = fkcg_render_windowed(t) ? r->window : NULL;
    size_t n = t == FKCG_T_PROVIDERS          ? p->t->n_providers
               : t == FKCG_T_KERNELS          ? (w ? w->n_secs : p->t->n_sections)
               : t == FKCG_T_BINDINGS         ? (w ? w->row_hi - w->row_lo : p->n_rows)
               : t == FKCG_T_LINKS            ? (w ? w->n_links : fkcg_render_links_of(p, registry))
               : t == FKCG_T_REGISTRIES       ? p->n_registries
               : t == FKCG_T_SHARED_COST && w ? w->op_hi - w->op_lo
                                              : p->n_ops;
    /* a window's rows: [lo, hi) of the whole table's (its links and kernels by a filter) */
    size_t lo = 0, hi = n;
    if (w && t == FKCG_T_BINDINGS)
        lo = w->row_lo, hi = w->row_hi;
    else if (w && t == FKCG_T_SHARED_COST)
        lo = w->op_lo, hi = w->op_hi;
    else if (w && t == FKCG_T_LINKS)
        hi = p->n_rows;
    else if (w && t == FKCG_T_KERNELS)
        hi = p->t->n_sections;
    fkcg_buf cm;
    fkcg_buf_init(&cm);
    if (t == FKCG_T_BINDINGS)
        put_templates(r);
    r->st->open(r, t, FKCG_NONE, registry, n);
    /* one registry's links: its group of reg_links; every link: links */
    const size_t *links = t != FKCG_T_LINKS       ? NULL
                          : registry == FKCG_NONE ? p->links
                                                  : p->reg_links + p->reg_first[registry];
    for (size_t k = lo; k < hi; k++) {
        cells c = {.n = 0};
        size_t row = links ? links[k] : k;
        if (w && t == FKCG_T_LINKS && (row < w->row_lo || row >= w->row_hi))
            continue;
        if (w && t == FKCG_T_KERNELS && w->sec_part[k] != w->part)
            continue;
        switch (t) {
        case FKCG_T_PROVIDERS: provider_cells(&c, p->t->providers[k]); break;
        case FKCG_T_KERNELS: kernel_cells(&c, p, k); break;
        case FKCG_T_BINDINGS:
            if (p->secs[p->rows[k].sec].templated) {
                put_template_row(r, k);
                continue;
            }
            binding_cells(&c, p, k, false);
            break;
        case FKCG_T_LINKS: link_cells(&c, p, row); break;
        case FKCG_T_REGISTRIES: str(&c, p->registries[k]); break;
        case FKCG_T_SHARED_COST: ref(&c, FKCG_CELL_COST, 0, p->ops[k].cost); break;
        case FKCG_T_OP_NAMES: str(&c, p->ops[k].name); break;
        case FKCG_T_OP_ROWS:
            nest(&c, FKCG_T_SPAN, true);
            uint(&c, p->ops[k].first);
            uint(&c, p->ops[k].end);
            nest(&c, FKCG_T_SPAN, false);
            break;
        default: break;
        }
        if (t <= FKCG_T_LINKS)
            put_row(r, t, &c, t == FKCG_T_LINKS ? NULL : row_comment(&cm, p, t, row), false);
        else
            put_value(r, t, &c,
                      t == FKCG_T_SHARED_COST || t == FKCG_T_OP_ROWS ? p->ops[k].name : NULL);
    }
    r->st->close(r, t, n);
    fkcg_buf_free(&cm);
}

/* One per-section table of n rows (of input `input`, for DTYPES): fill(c, k) gives row k's
 * cells. */
static void section_table(fkcg_render *r, fkcg_table_id t, size_t sec, size_t input, size_t n,
                          const void *items,
                          void (*fill)(cells *c, const void *items, size_t k, size_t sec))
{
    size_t at = sec, k = input;
    if (!same_table(r, t, &at, &k))
        return; /* an earlier section's table has these rows: it is named instead */
    r->st->open(r, t, sec, input, n);
    bool inline_ = t == FKCG_T_DTYPES || t == FKCG_T_COST || t == FKCG_T_SHAPE_OPERANDS;
    if (inline_) { /* a list of values / one struct: inline */
        cells c = {.n = 0};
        for (size_t k = 0; k < n; k++)
            fill(&c, items, k, sec);
        put_cells(r, t, &c, column(r->b));
    }
    for (size_t k = 0; !inline_ && k < n; k++) {
        cells c = {.n = 0};
        fill(&c, items, k, sec);
        put_row(r, t, &c, NULL, false);
    }
    r->st->close(r, t, n);
}

static void fill_fast_path(cells *c, const void *items, size_t k, size_t sec)
{
    const fkcg_fast_path *f = &((const fkcg_fast_path *)items)[k];
    (void)sec;
    str(c, f->when);
    vocab(c, FKCG_EN_COST_CLASS, f->cost_class);
}

static void fill_dtype(cells *c, const void *items, size_t k, size_t sec)
{
    (void)sec;
    vocab(c, FKCG_EN_DTYPE, ((const char *const *)items)[k]);
}

static void fill_operand(cells *c, const void *items, size_t k, size_t sec)
{
    (void)sec;
    str(c, ((const char *const *)items)[k]);
}

static void fill_input(cells *c, const void *items, size_t k, size_t sec)
{
    input_cells(c, &((const fkcg_input *)items)[k], sec, k);
}

static void fill_output(cells *c, const void *items, size_t k, size_t sec)
{
    (void)sec;
    output_cells(c, &((const fkcg_output *)items)[k], sec, k);
}

static void fill_field(cells *c, const void *items, size_t k, size_t sec)
{
    const fkcg_field *f = &((const fkcg_field *)items)[k];
    (void)sec;
    str(c, f->name);
    str(c, f->kind);
    ostr(c, f->note);
}

static void fill_precision_by(cells *c, const void *items, size_t k, size_t sec)
{
    (void)sec;
    precision_fields(c, &((const fkcg_precision_by *)items)[k].p);
}

static void fill_cost(cells *c, const void *items, size_t k, size_t sec)
{
    (void)k;
    cost_cells(c, items, sec);
}

void fkcg_render_section(fkcg_render *r, size_t sec, void (*cost_fns)(fkcg_render *r, size_t sec))
{
    const fkcg_section *s = r->p->secs[sec].s;
    r->in_section = true;
    fkcg_buf cm;
    fkcg_buf_init(&cm);
    fkcg_buf_puts(r->b, r->st->section_lead);
    fkcg_render_where(&cm, r->p, sec, true);
    r->st->comment(r->b, fkcg_buf_str(&cm));
    fkcg_buf_putc(r->b, '\n');
    fkcg_buf_free(&cm);
    if (s->caps.n_fast_paths)
        section_table(r, FKCG_T_FAST_PATHS, sec, FKCG_NONE, s->caps.n_fast_paths,
                      s->caps.fast_paths, fill_fast_path);
    for (size_t k = 0; k < s->n_inputs; k++) {
        const char *names[FKCG_MAX_DTYPES];
        for (size_t d = 0; d < s->inputs[k].n_dtypes && d < FKCG_MAX_DTYPES; d++) {
            const fkcg_dtype_info *di = fkcg_section_dtype(s, s->inputs[k].dtypes[d]);
            names[d] = di ? di->name : NULL;
        }
        section_table(r, FKCG_T_DTYPES, sec, k, s->inputs[k].n_dtypes, names, fill_dtype);
    }
    if (s->n_inputs)
        section_table(r, FKCG_T_INPUTS, sec, FKCG_NONE, s->n_inputs, s->inputs, fill_input);
    size_t own = sec, none = FKCG_NONE; /* an earlier section's outputs: its operands too */
    bool outputs_own = s->n_outputs && same_table(r, FKCG_T_OUTPUTS, &own, &none);
    for (size_t k = 0; outputs_own && k < s->n_outputs; k++)
        if (shape_operands(&s->outputs[k]))
            section_table(r, FKCG_T_SHAPE_OPERANDS, sec, k, shape_operands(&s->outputs[k]),
                          s->outputs[k].shape_args, fill_operand);
    if (s->n_outputs)
        section_table(r, FKCG_T_OUTPUTS, sec, FKCG_NONE, s->n_outputs, s->outputs, fill_output);
    if (s->n_fields)
        section_table(r, FKCG_T_FIELDS, sec, FKCG_NONE, s->n_fields, s->fields, fill_field);
    if (cost_fns && s->cost.present && in_window(r, sec, r->p->secs[sec].same_cost) == sec)
        cost_fns(r, sec); /* else an earlier section's are the same functions */
    if (s->cost.present)
        section_table(r, FKCG_T_COST, sec, FKCG_NONE, 1, s, fill_cost);
    if (s->n_precision_by)
        section_table(r, FKCG_T_PRECISION_BY, sec, FKCG_NONE, s->n_precision_by, s->precision_by,
                      fill_precision_by);
    r->in_section = false;
}

/* ---- gen --shards N: the plan's op kinds over N parts, each printed through a window ---- */

/* same[i] (a section's, or for DTYPES an input's, first alike in the plan) made the first
 * alike in i's shard: the items bucketed by shard (a counting sort, table order kept), then
 * each shard's in order, keeping the first of each group (stamp: the shard that saw it last).
 * A table is then printed at the first item of its group in the shard, as in the whole plan,
 * so the dtypes a printed input table names are printed too. */
static size_t *same_in_shards(const fkcg_plan *p, const fkcg_shards *sp, size_t n,
                              const size_t *same, size_t stride, bool inputs)
{
    size_t ns = sp->n;
    size_t *local = fkcg_xcalloc(n, sizeof *local), *first = fkcg_xcalloc(n, sizeof *first);
    size_t *stamp = fkcg_xcalloc(n, sizeof *stamp), *order = fkcg_xcalloc(n, sizeof *order);
    size_t *at = fkcg_xcalloc(ns + 1, sizeof *at);
    for (size_t i = 0; i < n; i++)
        at[sp->sec_part[inputs ? p->input_sec[i] : i] + 1]++;
    for (size_t k = 0; k < ns; k++)
        at[k + 1] += at[k];
    for (size_t i = 0; i < n; i++)
        order[at[sp->sec_part[inputs ? p->input_sec[i] : i]]++] = i;
    for (size_t j = 0; j < n; j++) {
        size_t i = order[j], g = *(const size_t *)(const void *)((const char *)same + i * stride);
        size_t k = sp->sec_part[inputs ? p->input_sec[i] : i] + 1;
        if (stamp[g] != k) {
            stamp[g] = k;
            first[g] = i;
        }
        local[i] = first[g];
    }
    free(at);
    free(order);
    free(first);
    free(stamp);
    return local;
}

void fkcg_shards_init(fkcg_shards *sp, const fkcg_plan *p, size_t n, const char *const *names)
{
    sp->n = n;
    sp->w = fkcg_xcalloc(n, sizeof *sp->w);
    sp->sec_part = fkcg_xcalloc(p->t->n_sections, sizeof *sp->sec_part);
    sp->sec_local = fkcg_xcalloc(p->t->n_sections, sizeof *sp->sec_local);
    size_t *op_shard = fkcg_xcalloc(p->n_ops, sizeof *op_shard);
    size_t op = 0, row = 0;
    for (size_t k = 0; k < n; k++) {
        fkcg_window *w = &sp->w[k];
        size_t goal = p->n_rows / n * (k + 1) + p->n_rows % n * (k + 1) / n;
        w->part = k;
        w->names = names;
        w->sec_part = sp->sec_part;
        w->sec_local = sp->sec_local;
        w->op_lo = op;
        w->row_lo = row;
        while (op < p->n_ops && (k + 1 == n || p->ops[op].first < goal)) {
            op_shard[op] = k;
            row = p->ops[op++].end;
        }
        w->op_hi = op;
        w->row_hi = row;
        w->n_links = w->row_hi - w->row_lo;
    }
    for (size_t i = 0; i < p->t->n_sections; i++) {
        fkcg_window *w = &sp->w[op_shard[p->secs[i].op]];
        sp->sec_part[i] = w->part;
        sp->sec_local[i] = w->n_secs++;
    }
    free(op_shard);
    size_t stride = sizeof *p->secs;
    n = p->t->n_sections;
    sp->same[FKCG_T_FAST_PATHS] = same_in_shards(p, sp, n, &p->secs[0].same_fast_paths, stride,
                                                 false);
    sp->same[FKCG_T_DTYPES] = same_in_shards(p, sp, p->n_inputs, p->same_dtypes, sizeof(size_t),
                                             true);
    sp->same[FKCG_T_INPUTS] = same_in_shards(p, sp, n, &p->secs[0].same_inputs, stride, false);
    sp->same[FKCG_T_OUTPUTS] = same_in_shards(p, sp, n, &p->secs[0].same_outputs, stride, false);
    sp->same[FKCG_T_FIELDS] = same_in_shards(p, sp, n, &p->secs[0].same_fields, stride, false);
    sp->same[FKCG_T_COST] = same_in_shards(p, sp, n, &p->secs[0].same_cost, stride, false);
    for (size_t k = 0; k < sp->n; k++)
        for (int t = 0; t <= FKCG_T_COST; t++)
            sp->w[k].same[t] = sp->same[t];
}

void fkcg_shards_free(fkcg_shards *sp)
{
    free(sp->w);
    free(sp->sec_part);
    free(sp->sec_local);
    for (int t = 0; t <= FKCG_T_COST; t++)
        free(sp->same[t]);
}
