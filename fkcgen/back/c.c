/* c.c — the C back end: from the plan, NAME_bindings.h (the contracts' op kinds, params, kernel
 * function types and refs, the wrappers, the tables' declarations) and NAME_bindings.c (the
 * checks of the runtime's params, each section's data and cost functions, the tables, the
 * dispatch switch, and one-line functions over the loops of fkc/fkc_tables.h), one small
 * printer per part, in order. Its escape gate: every contract string reaches the output through
 * put_cstr (escaped) or put_comment (sanitised), every identifier through put_ident (checked);
 * the generated names' prefix through put_tpl alone. See docs/generated-code.md. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "back.h"
#include "fkcgen.h"
#include "internal.h"

/* ---- the escape gate ------------------------------------------------------------------------ */

#define LIT(b, lit) fkcg_buf_put((b), "" lit, sizeof(lit) - 1) /* a literal, as it is */

static inline void put_str(fkcg_buf *b, const char *s)
{
    fkcg_buf_puts(b, s);
}

static inline void put_ch(fkcg_buf *b, char c)
{
    fkcg_buf_putc(b, c);
}

/* An identifier built from contract names: written only if it is one (defence in depth:
 * fkcg_emit_c_check rejects such input first), otherwise an #error line breaks the build. */
static void put_ident(fkcg_buf *b, const char *s)
{
    size_t n = fkcg_emit_ident_len(s);
    if (n)
        fkcg_buf_put(b, s, n);
    else
        LIT(b, "\n#error \"fkcgen: invalid identifier\"\n");
}

/* A contract string as a C string literal: printable ASCII stays, except " \ and ? (so no
 * trigraph can form); everything else (newlines, controls, non-ASCII bytes) becomes a
 * three-digit octal escape. NULL becomes the null pointer constant. */
static void put_cstr(fkcg_buf *b, const char *s)
{
    if (!s) {
        LIT(b, "NULL");
        return;
    }
    put_ch(b, '"');
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (fkcg_byte_class[c] & FKCG_BC_CSTR)
            continue;
        fkcg_buf_put(b, run, (size_t)(s - run));
        run = s + 1;
        if (c == '"' || c == '\\' || c == '?') {
            char esc[2] = {'\\', (char)c};
            fkcg_buf_put(b, esc, 2);
        } else if (c == '\n') {
            LIT(b, "\\n");
        } else {
            char esc[4] = {'\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
                           (char)('0' + (c & 7))};
            fkcg_buf_put(b, esc, 4);
        }
    }
    fkcg_buf_put(b, run, (size_t)(s - run));
    put_ch(b, '"');
}

/* Contract text inside a comment: printable ASCII only (other bytes become '.'), no comment
 * opener or closer, no "??" (trigraphs), no backslash (line splices), on one line. */
static void put_comment(fkcg_buf *b, const char *s)
{
    if (!s)
        return;
    const char *run = s;
    for (char prev = 0; *s; prev = *s++) {
        unsigned char c = (unsigned char)*s;
        if (fkcg_byte_class[c] & FKCG_BC_COMMENT) /* the common case: nothing to look at */
            continue;
        bool plain = c >= 0x20 && c < 0x7f && c != '\\';
        bool split = (prev == '*' && c == '/') || (prev == '/' && c == '*') ||
                     (prev == '?' && c == '?');
        if (plain && !split)
            continue;
        fkcg_buf_put(b, run, (size_t)(s - run));
        run = s + 1;
        if (split)
            put_ch(b, ' ');
        put_ch(b, plain ? (char)c : c == '\\' ? '|' : '.');
    }
    fkcg_buf_put(b, run, (size_t)(s - run));
}

/* A finite double as a C double literal, the shortest that reads back exactly. The
 * decimal separator is forced to '.', whatever the locale. */
static void put_double(fkcg_buf *b, double v)
{
    char tmp[40];
    if (v == 0.0 && !signbit(v)) {
        LIT(b, "0.0");
        return;
    }
    if (!isfinite(v)) {
        LIT(b, "0.0 /* not finite */");
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v || prec == 17) /* read back in the locale it was printed */
            break;
    }
    for (char *p = tmp; *p; p++)
        if (*p == ',')
            *p = '.';
    put_str(b, tmp);
    if (!strpbrk(tmp, ".eEn"))
        LIT(b, ".0");
}


/* s in upper case, every byte outside [A-Za-z0-9] as '_' (enumerator suffixes). */
static void put_upper(fkcg_buf *b, const char *s)
{
    char tmp[64];
    size_t k = 0;
    for (; *s; s++) {
        int c = (unsigned char)*s;
        tmp[k++] = fkcg_upper_byte[c];
        if (k == sizeof tmp) {
            fkcg_buf_put(b, tmp, k);
            k = 0;
        }
    }
    fkcg_buf_put(b, tmp, k);
}


/* The header is hashed as it is written: a draining buffer hands its lines to hash_drain
 * (which passes them on to the real sink); the rest is hashed when the header ends. */
typedef struct pair_hasher {
    XXH3_state_t *state;
    fkcg_drain_fn *fn; /* the header's own sink, or NULL */
    void *ctx;
    size_t from; /* first byte of the header in the buffer (not drained yet) */
} pair_hasher;

static void hash_drain(void *ctx, const char *p, size_t n)
{
    pair_hasher *h = ctx;
    size_t skip = h->from < n ? h->from : n; /* bytes of b before the header began */
    XXH3_64bits_update(h->state, p + skip, n - skip);
    h->from -= skip;
    h->fn(h->ctx, p, n);
}

static void hash_begin(pair_hasher *h, fkcg_buf *b)
{
    h->state = XXH3_createState();
    if (!h->state)
        fkcg_oom();
    XXH3_64bits_reset(h->state);
    h->fn = b->drain;
    h->ctx = b->drain_ctx;
    h->from = b->len;
    if (b->drain) {
        b->drain = hash_drain;
        b->drain_ctx = h;
    }
}

/* The header's hash: its bytes so far, then the epilogue (hashed before it is written). */
static uint64_t hash_end(pair_hasher *h, fkcg_buf *b, const char *epilogue)
{
    XXH3_64bits_update(h->state, b->data + h->from, b->len - h->from);
    XXH3_64bits_update(h->state, epilogue, strlen(epilogue));
    uint64_t hash = XXH3_64bits_digest(h->state);
    XXH3_freeState(h->state);
    if (h->fn) {
        b->drain = h->fn;
        b->drain_ctx = h->ctx;
    }
    return hash;
}

/* "0x0123456789abcdefu": the value the header defines and the source checks. */
static void put_pair_hash(fkcg_buf *b, uint64_t hash)
{
    char hex[24];
    snprintf(hex, sizeof hex, "0x%016llxu", (unsigned long long)hash);
    put_str(b, hex);
}


/* The generated code's own names carry the prefix of `fkcgen gen --prefix` (default fkc). The
 * fixed texts write them as @_name and @@_NAME; put_tpl, the one place that knows the prefix,
 * writes "@" as the prefix and "@@" as the prefix in upper case (fkc_name, FKC_NAME). The
 * runtime's names (fkc_status, FKC_DTYPE_F32, fkc_write_slice_b4, ...) are written as they
 * are. Contract text never goes through put_tpl. */
static void put_tpl(fkcg_buf *b, const fkcg_plan *p, const char *s)
{
    const char *at;
    while ((at = strchr(s, '@')) != NULL) {
        fkcg_buf_put(b, s, (size_t)(at - s));
        bool upper = at[1] == '@';
        put_str(b, upper ? p->prefix_upper : p->prefix);
        s = at + (upper ? 2 : 1);
    }
    put_str(b, s);
}

#define TPL(b, p, lit) put_tpl((b), (p), "" lit) /* a literal, through put_tpl */

/* The escape gate as the table walk uses it (render.c). */
static void style_tpl(fkcg_render *r, fkcg_buf *out, const char *s)
{
    put_tpl(out, r->p, s);
}

static void style_ident(fkcg_buf *out, const char *s)
{
    put_ident(out, s);
}

/* A comment's text, gated, inside its delimiters. */
static void style_comment(fkcg_buf *out, const char *text)
{
    LIT(out, "/* ");
    put_comment(out, text);
    LIT(out, " */");
}

/* The vocabularies as runtime/include/fkc/fkc_tables.h (and fkc_types.h for dtypes and
 * backends) name them: the type and its enumerators' prefix (tests/gen/test_vocab.c). */
const fkcg_vocab_name fkcg_c_vocab[FKCG_EN_COUNT] = {
    [FKCG_EN_DETERMINISM] = {"fkc_determinism", "FKC_DETERMINISM_"},
    [FKCG_EN_PROVENANCE] = {"fkc_cost_provenance", "FKC_COST_PROVENANCE_"},
    [FKCG_EN_COST_CLASS] = {"fkc_cost_class", "FKC_COST_CLASS_"},
    [FKCG_EN_STRATEGY] = {"fkc_layout_strategy", "FKC_LAYOUT_STRATEGY_"},
    [FKCG_EN_LAYOUT_RULE] = {"fkc_layout_rule", "FKC_LAYOUT_RULE_"},
    [FKCG_EN_GUARANTEE] = {"fkc_layout_guarantee", "FKC_LAYOUT_GUARANTEE_"},
    [FKCG_EN_ALIASING] = {"fkc_aliasing", "FKC_ALIASING_"},
    [FKCG_EN_DTYPE] = {"fkc_dtype", "FKC_DTYPE_"},
    [FKCG_EN_BACKEND] = {"fkc_backend", "FKC_BACKEND_"},
    [FKCG_EN_SHAPE_RULE] = {"fkc_shape_rule", "FKC_SHAPE_RULE_"},
};

/* What C calls each table and the type of its rows: templates ("@": the prefix, "@@": in upper
 * case); '%' stands for the section's index (and a per-input suffix) in a per-section table's
 * name. The link registry names are C's alone. */
static const fkcg_table_name c_tables[FKCG_T_COUNT] = {
    [FKCG_T_FAST_PATHS] = {"fkc_fast_path", "fast_paths_%", NULL},
    [FKCG_T_DTYPES] = {"fkc_dtype", "dtypes_%", NULL},
    [FKCG_T_INPUTS] = {"fkc_input_info", "inputs_%", NULL},
    [FKCG_T_OUTPUTS] = {"fkc_output_info", "outputs_%", NULL},
    [FKCG_T_FIELDS] = {"fkc_field_info", "fields_%", NULL},
    [FKCG_T_COST] = {"fkc_cost", "cost_%", NULL},
    [FKCG_T_PRECISION_BY] = {"fkc_precision", "precision_by_%", NULL},
    [FKCG_T_SHAPE_OPERANDS] = {"const char *", "shape_operands_%", NULL},
    [FKCG_T_PROVIDERS] = {"fkc_provider_info", "@_providers", "@@_PROVIDER_COUNT"},
    [FKCG_T_KERNELS] = {"@_kernel_info", "@_kernels", "@@_KERNEL_COUNT"},
    [FKCG_T_BINDINGS] = {"@_binding", "@_bindings", "@@_BINDING_COUNT"},
    [FKCG_T_LINKS] = {"@_link_entry", "@_link_registry", "@@_LINK_ENTRY_COUNT"},
    [FKCG_T_REGISTRIES] = {"const char *", "@_link_registry_names", "@@_LINK_REGISTRY_COUNT"},
    [FKCG_T_SHARED_COST] = {"const fkc_cost *", "shared_cost", "@@_OP_KIND_COUNT"},
    [FKCG_T_OP_NAMES] = {"const char *", "op_names", "@@_OP_KIND_COUNT"},
    [FKCG_T_OP_ROWS] = {"size_t", "op_rows", "@@_OP_KIND_COUNT"},
    [FKCG_T_CAPS] = {"fkc_caps", NULL, NULL},
    [FKCG_T_PRECISION] = {"fkc_precision", NULL, NULL},
    [FKCG_T_LAYOUT] = {"fkc_layout", NULL, NULL},
    [FKCG_T_SPAN] = {"size_t", NULL, NULL},
};

/* PREFIX + VALUE of a vocabulary; PREFIX + UNKNOWN when value is NULL. */
static void put_vocab(fkcg_buf *b, int which, const char *value)
{
    put_str(b, fkcg_c_vocab[which].prefix);
    put_upper(b, value ? value : "UNKNOWN");
}

/* An op kind's enumerator, @@_OP_<UPPER_SNAKE>. */
static void put_op(fkcg_render *r, fkcg_buf *out, size_t op)
{
    TPL(out, r->p, "@@_OP_");
    put_ident(out, r->p->ops[op].upper);
}

/* The C symbol of a row's wrapper, fkc_ or <prefix>_ then <kernel>_b<width>. */
static void put_wrapper_symbol(fkcg_buf *b, const fkcg_plan *p, size_t row)
{
    const fkcg_plan_row *w = &p->rows[row];
    size_t n = fkcg_emit_ident_len(w->b->wrapper);
    put_str(b, fkcg_plan_wrapper_prefix(p, w->sec));
    put_ch(b, '_');
    if (n)
        fkcg_buf_put(b, w->b->wrapper, n);
    else
        put_ident(b, w->b->wrapper); /* its #error */
}

/* A row's wrapper as its fn, one function pointer type for every op kind
 * ((fkc_kernel_fn)fkc_write_slice_b4: no union of a member per op kind to initialize, whose
 * check costs clang O(op kinds) per row, issue 27), or as its name. */
static void put_wrapper(fkcg_render *r, fkcg_buf *out, size_t row, bool ref)
{
    if (!ref) {
        fkcg_buf sym;
        fkcg_buf_init(&sym);
        put_wrapper_symbol(&sym, r->p, row);
        put_cstr(out, fkcg_buf_str(&sym));
        fkcg_buf_free(&sym);
        return;
    }
    LIT(out, "(fkc_kernel_fn)");
    put_wrapper_symbol(out, r->p, row);
}

/* A table's declaration and its end: public tables have a length macro, section's tables are
 * static (DTYPES and COST take their row on this line). */
static void table_open(fkcg_render *r, fkcg_table_id t, size_t sec, size_t k, size_t n)
{
    const fkcg_table_name *d = &c_tables[t];
    bool pointers = d->type[strlen(d->type) - 1] == '*';
    bool sharded = r->window && fkcg_render_windowed(t); /* shard k's part: exported, sized */
    if (sec != FKCG_NONE || (t >= FKCG_T_SHARED_COST && !sharded))
        LIT(r->b, "static ");
    if (!pointers) /* "const char *" ends "const char *const name" */
        LIT(r->b, "const ");
    put_tpl(r->b, r->p, d->type);
    put_str(r->b, pointers ? "const " : " ");
    fkcg_render_name(r, r->b, t, sec, k);
    if (t != FKCG_T_COST) {
        put_ch(r->b, '[');
        if (sharded)
            fkcg_buf_put_u64(r->b, n);
        else if (d->count)
            put_tpl(r->b, r->p, d->count);
        put_str(r->b, t == FKCG_T_OP_ROWS ? "][2]" : "]");
    }
    put_str(r->b, t == FKCG_T_DTYPES || t == FKCG_T_COST || t == FKCG_T_SHAPE_OPERANDS ? " = {"
                                                                                       : " = {\n");
}

static void table_close(fkcg_render *r, fkcg_table_id t, size_t n)
{
    (void)n;
    put_str(r->b, t <= FKCG_T_SHAPE_OPERANDS ? "};\n" : "};\n\n");
}

/* A templated section's row templates, as macros: @@_SYMBOL_<sec>(_s), its symbols ("entry
 * point_" #_s), and @@_ROWS_<sec>(_t, _s, _w), its rows for dtype FKC_DTYPE_##_t, symbol suffix _s
 * and byte width _w. The parameters start with '_', which no name of a contract may: a
 * contract's name in the row (the kernel's, in its wrapper's symbol) is never replaced by one. */
static void template_open(fkcg_render *r, size_t sec, bool symbol)
{
    put_tpl(r->b, r->p, symbol ? "#define @@_SYMBOL_" : "#define @@_ROWS_");
    fkcg_buf_put_u64(r->b, sec);
    put_str(r->b, symbol ? "(_s) " : "(_t, _s, _w) ");
}

static void template_close(fkcg_render *r, bool symbol)
{
    put_str(r->b, symbol ? " \"_\" #_s\n" : "\n");
}

static void put_hole(fkcg_render *r, fkcg_buf *out, const fkcg_cell *c)
{
    const fkcg_plan_row *row = &r->p->rows[c->u];
    switch (c->kind) {
    case FKCG_CELL_KEY: LIT(out, "{FKC_DTYPE_##_t, FKC_DTYPE_##_t}, 2"); break;
    case FKCG_CELL_SYMBOL: /* as @@_SYMBOL_<sec>, but _s stringified here: never expanded */
        put_cstr(out, r->p->secs[row->sec].s->entry_point);
        LIT(out, " \"_\" #_s");
        break;
    case FKCG_CELL_KREF:
        LIT(out, "(fkc_kernel_fn)");
        /* fall through */
    case FKCG_CELL_WRAPPER: {
        fkcg_buf w;
        fkcg_buf_init(&w);
        put_str(&w, fkcg_plan_wrapper_prefix(r->p, row->sec));
        put_ch(&w, '_');
        put_ident(&w, r->p->secs[row->sec].s->kernel);
        LIT(&w, "_b");
        if (c->kind == FKCG_CELL_KREF) {
            put_str(out, fkcg_buf_str(&w));
            LIT(out, "##_w");
        } else {
            put_cstr(out, fkcg_buf_str(&w));
            LIT(out, " #_w");
        }
        fkcg_buf_free(&w);
        break;
    }
    default:
        LIT(out, "_w##u"); /* the byte width, unsigned as put_uint writes it */
        break;
    }
}

/* A row (or nested row) in braces. */
static void row_edge(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, bool open)
{
    (void)r;
    (void)t;
    put_ch(out, open ? '{' : '}');
}

/* C prints a row's fields; the Markdown around a section is the Rust docs' alone. */
static bool keep_cell(const fkcg_render *r, fkcg_table_id t, const fkcg_cell *c)
{
    (void)r;
    (void)t;
    return c->role != FKCG_ROLE_PROSE;
}

/* An integer into a field of `bits` bits, typed by its suffix: a decimal without one is an int,
 * or from 2^63 on a constant gcc and clang warn "is so large that it is unsigned". */
static void put_uint(fkcg_buf *out, uint64_t u, int bits)
{
    if (bits == 64)
        LIT(out, "UINT64_C(");
    fkcg_buf_put_u64(out, u);
    put_str(out, bits == 64 ? ")" : "u");
}

/* @@_SYMBOL_<sec>(suffix) or @@_ROWS_<sec>(DTYPE, suffix, width) of row `row`. */
static void template_call(fkcg_render *r, fkcg_buf *out, size_t row, bool symbol)
{
    const fkcg_plan_row *w = &r->p->rows[row];
    const fkcg_dtype_info *d = &fkcg_dtypes[w->b->dtype];
    put_tpl(out, r->p, symbol ? "@@_SYMBOL_" : "@@_ROWS_");
    fkcg_buf_put_u64(out, w->sec);
    if (symbol)
        fkcg_buf_printf(out, "(%s)", d->suffix);
    else
        fkcg_buf_printf(out, "(%s, %s, %u)", d->name, d->suffix, (unsigned)w->b->byte_width);
}

/* A referenced row's field: .caps or .precision, the names of the row type's members. */
static void member(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, size_t row, fkcg_table_id field)
{
    (void)r;
    (void)t;
    (void)row;
    fkcg_buf_puts(out, field == FKCG_T_CAPS ? ".caps" : ".precision");
}

/* The escape gate, a few fields a line. */
/* clang-format off */
static const fkcg_style c_style = {
    .tables = c_tables, .cell = keep_cell, .row_edge = row_edge, .member = member,
    .str = put_cstr, .ident = style_ident, .comment = style_comment,
    .tpl = style_tpl, .f64 = put_double, .uint = put_uint, .vocab = put_vocab, .op = put_op,
    .wrapper = put_wrapper, .open = table_open, .close = table_close,
    .template_open = template_open, .template_close = template_close, .hole = put_hole,
    .template_call = template_call, .indent = {"    ", "    "}, .cont = 1, .section_lead = "",
    .none = "NULL", .some = "", .some_end = "", .truth = {"false", "true"}, .address = "&",
    .key_open = "{", .key_end = "}", .key_count = true, .empty_slice = "NULL, 0",
    .slice_counted = true,
    .section_scope = "", .unknown_cost = "&unknown_cost", .registry_path = false,
};
/* clang-format on */

/* ---- shared pieces of the two files --------------------------------------------------------- */

static const char *rel_file(const fkcg_section *s)
{
    if (s->provider && s->provider->rel_file)
        return s->provider->rel_file;
    return fkcg_nz(s->loc.file);
}

/* "(contracts/vulkan/write_slice.md:58)"; the header's comments leave the line out, so that
 * an edit of a contract's prose, which moves its sections, leaves the header as it is. */
static void put_where(fkcg_buf *b, const fkcg_section *s, bool line)
{
    put_ch(b, '(');
    put_comment(b, rel_file(s));
    if (line) {
        put_ch(b, ':');
        fkcg_buf_put_u64(b, s->loc.line);
    }
    put_ch(b, ')');
}

/* The banner. The source's names each contract's text hash (drift detection is exact through
 * it); the header's does not, so a prose-only edit of a contract changes the source alone. */
static void emit_banner(fkcg_buf *b, const fkcg_plan *p, const char *name, bool text_hashes)
{
    LIT(b, "/* ");
    put_tpl(b, p, name);
    LIT(b, " - generated by fkcgen " FKCGEN_VERSION " from:\n");
    for (size_t i = 0; i < p->t->n_providers; i++) {
        const fkcg_provider *pr = p->t->providers[i];
        LIT(b, " *   ");
        put_comment(b, pr->rel_file ? pr->rel_file : pr->loc.file);
        if (text_hashes && pr->text_hash) {
            LIT(b, " (text xxh3-128 ");
            put_comment(b, pr->text_hash);
            put_ch(b, ')');
        }
        put_ch(b, '\n');
    }
    LIT(b, " * Do not edit: change the contracts and run `make` (fkcgen gen).\n"
           " * The API is described in docs/generated-code.md. */\n");
}

#define WRAP_COLUMN 100 /* parameter lists wrap before this column */

/* The column where b's last line ends. */
static size_t column(const fkcg_buf *b)
{
    size_t i = b->len;
    while (i > 0 && b->data[i - 1] != '\n')
        i--;
    return b->len - i;
}

/* One parameter of a list opened at column `open`: ", " then text, or ",\n" and the
 * alignment when text would cross WRAP_COLUMN. first: no separator. */
static void put_param(fkcg_buf *b, size_t open, bool first, const char *text)
{
    size_t n = strlen(text);
    if (!first && column(b) + 2 + n + 2 > WRAP_COLUMN) {
        LIT(b, ",\n");
        for (size_t k = 0; k < open; k++)
            put_ch(b, ' ');
    } else if (!first) {
        LIT(b, ", ");
    }
    put_str(b, text);
}

/* The C parameter list of an op kind's function type, wrapped under its '(': the stream, the
 * inputs (const), the outputs, the params and the side inputs (the runtime family's, or none). */
static void put_params(fkcg_buf *b, const fkcg_plan *p, const fkcg_plan_op *op)
{
    const fkcg_section *s = p->t->sections[op->sig];
    fkcg_buf t;
    fkcg_buf_init(&t);
    put_ch(b, '(');
    size_t open = column(b);
    put_param(b, open, true, "fkc_stream *stream");
    for (size_t i = 0; i < s->n_inputs + s->n_outputs; i++) {
        bool in = i < s->n_inputs;
        t.len = 0;
        bool var = in && s->inputs[i].variadic; /* issue 22: a pointer array and its count */
        put_str(&t, var ? "const fkc_tensor *const *" : in ? "const fkc_tensor *" : "fkc_tensor *");
        put_ident(&t, in ? s->inputs[i].name : s->outputs[i - s->n_inputs].name);
        put_param(b, open, false, fkcg_buf_str(&t));
        if (var) {
            t.len = 0;
            put_str(&t, "size_t ");
            put_ident(&t, s->inputs[i].name);
            put_str(&t, "_count");
            put_param(b, open, false, fkcg_buf_str(&t));
        }
    }
    t.len = 0;
    if (s->variant || op->rt) {
        TPL(&t, p, "const @_");
        put_ident(&t, op->snake);
        put_str(&t, "_params *params");
    } else {
        put_str(&t, "const void *params");
    }
    put_param(b, open, false, fkcg_buf_str(&t));
    t.len = 0;
    if (op->rt && op->rt->extra) {
        put_str(&t, "const fkc_");
        put_ident(&t, op->snake);
        put_str(&t, "_extra *extra");
    } else {
        put_str(&t, "const void *extra");
    }
    put_param(b, open, false, fkcg_buf_str(&t));
    put_ch(b, ')');
    fkcg_buf_free(&t);
}

/* ---- the header ---------------------------------------------------------------------- */

#define STR_(x) #x
#define STR(x) STR_(x)

/* The include guard, the runtime's kernels, the check of the runtime interface version
 * (generated for FKCG_RUNTIME_ABI, refused by the compiler against fkc headers of another),
 * then the tables' shared part. */
static void emit_h_prologue(fkcg_buf *b, const fkcg_plan *p)
{
    TPL(b, p,
        "#ifndef @@_BINDINGS_H\n#define @@_BINDINGS_H\n\n"
        "#include \"fkc/fkc_kernels.h\"\n\n"
        "/* Generated for the fkc runtime interface " STR(
            FKCG_RUNTIME_ABI) " (FKC_RUNTIME_ABI): another runtime's headers are\n * refused here, and its "
                              "library at link time (fkc_runtime_abi_" STR(
                                  FKCG_RUNTIME_ABI) "). */\n"
                                                    "#if !defined(FKC_RUNTIME_ABI)\n"
                                                    "#error \"@_bindings.h was generated for fkc runtime ABI " STR(
                                                        FKCG_RUNTIME_ABI) ", these fkc headers have none: regenerate it with the fkcgen of the fkc you build "
                                                                          "with (make)\"\n"
                                                                          "#elif FKC_RUNTIME_ABI != " STR(
                                                                              FKCG_RUNTIME_ABI) "\n"
                                                                                                "#define @@_BINDINGS_ABI_STR_(x) #x\n"
                                                                                                "#define @@_BINDINGS_ABI_STR(x) @@_BINDINGS_ABI_STR_(x)\n"
                                                                                                "_Static_assert(0, \"@_bindings.h was generated for fkc runtime ABI " STR(
                                                                                                    FKCG_RUNTIME_ABI) ", this runtime is ABI \"\n"
                                                                                                                      "               @@_BINDINGS_ABI_STR(FKC_RUNTIME_ABI) \": regenerate it with the "
                                                                                                                      "fkcgen of this runtime (make)\");\n"
                                                                                                                      "#else\n#include \"fkc/fkc_tables.h\"\n#endif\n\n"
                                                                                                                      "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
}

static void emit_h_op_kinds(fkcg_buf *b, const fkcg_plan *p)
{
    TPL(b, p, "/* Op kinds named by the contracts, sorted by name. */\ntypedef enum @_op_kind {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        TPL(b, p, "    @@_OP_");
        put_ident(b, p->ops[i].upper);
        LIT(b, " = ");
        fkcg_buf_put_u64(b, i);
        LIT(b, ", /* ");
        put_comment(b, p->ops[i].name);
        LIT(b, " */\n");
    }
    TPL(b, p, "    @@_OP_KIND_COUNT = ");
    fkcg_buf_put_u64(b, p->n_ops);
    TPL(b, p,
        "\n} @_op_kind;\n"
        "const char *@_op_kind_name(@_op_kind op); /* \"WriteSlice\"; NULL when unknown */\n\n");
}

/* The members of an op's params struct, from its op_params fields in contract order. */
static void put_fields(fkcg_buf *b, const fkcg_section *s)
{
    for (size_t k = 0; k < s->n_fields; k++) {
        const fkcg_field *f = &s->fields[k];
        bool vec;
        const fkcg_kind_spec *ks = fkcg_kind_lookup(f->kind, &vec);
        put_str(b, vec ? "    const " : "    ");
        put_str(b, ks ? ks->ctype : "int");
        put_str(b, vec ? " *" : " ");
        put_ident(b, f->name);
        LIT(b, "; /* ");
        put_comment(b, f->kind);
        if (f->note) {
            LIT(b, ": ");
            put_comment(b, f->note);
        }
        LIT(b, " */\n");
        if (vec) {
            LIT(b, "    size_t ");
            put_ident(b, f->name);
            LIT(b, "_len;\n");
        }
    }
    if (s->n_fields == 0)
        LIT(b, "    char unused; /* the variant has no fields */\n");
}

/* @@_<OP>_<FIELD>_<VALUE>, @@_<OP>_DEFAULT_<FIELD> (value NULL: no suffix). */
static void put_field_const(fkcg_buf *b, const fkcg_plan *p, const fkcg_plan_op *op,
                            const char *mid, const char *field, const char *value)
{
    TPL(b, p, "@@_");
    put_upper(b, op->snake);
    put_ch(b, '_');
    put_str(b, mid);
    put_upper(b, field);
    if (value) {
        put_ch(b, '_');
        put_upper(b, value);
    }
}

/* A field's value as a C constant expression of its type: an enum value's or a dtype's
 * constant, a cast integer (the most negative one as -MAX - 1: its literal would not fit),
 * a float, true or false. */
static void put_field_value(fkcg_buf *b, const fkcg_plan *p, const fkcg_plan_op *op,
                            const fkcg_section *s, const fkcg_field *f)
{
    bool vec;
    const fkcg_kind_spec *ks = fkcg_kind_lookup(f->kind, &vec);
    if (fkcg_field_is_enum(f)) {
        put_field_const(b, p, op, "", f->name, f->def);
    } else if (fkcg_field_is_dtype(f)) {
        put_vocab(b, FKCG_EN_DTYPE, fkcg_section_dtype(s, f->def_index)->name);
    } else if (!strcmp(f->kind, "bool")) {
        put_str(b, f->def);
    } else if (!strcmp(f->kind, "f32") || !strcmp(f->kind, "f64")) {
        LIT(b, "((");
        put_str(b, ks->ctype);
        LIT(b, ")");
        put_str(b, f->def);
        LIT(b, ")");
    } else {
        LIT(b, "((");
        put_str(b, ks ? ks->ctype : "int");
        LIT(b, ")");
        if (f->def[0] == '-') { /* -(x - 1) - 1: x - 1 fits whatever x is */
            uint64_t x = strtoull(f->def + 1, NULL, 10);
            fkcg_buf_printf(b, "(-%lluLL - 1)", (unsigned long long)(x - 1));
        } else {
            fkcg_buf_printf(b, "%sULL", f->def);
        }
        LIT(b, ")");
    }
}

/* Before an op's params struct: each enum field's C enum and name table, each default's
 * macro (issue 22 item 3). The struct's member stays a fixed-width integer (int32_t), the
 * enum names its values. */
static void put_field_typing(fkcg_buf *b, const fkcg_plan *p, const fkcg_plan_op *op,
                             const fkcg_section *s)
{
    for (size_t k = 0; k < s->n_fields; k++) {
        const fkcg_field *f = &s->fields[k];
        if (fkcg_field_is_enum(f)) {
            TPL(b, p, "/* The values of ");
            put_comment(b, op->name);
            LIT(b, "'s enum field ");
            put_comment(b, f->name);
            TPL(b, p, " (its int32_t member); their contract names in @_");
            put_ident(b, op->snake);
            put_ch(b, '_');
            put_ident(b, f->name);
            LIT(b, "_names");
            if (f->codes) {
                TPL(b, p, ", name k's code in @_");
                put_ident(b, op->snake);
                put_ch(b, '_');
                put_ident(b, f->name);
                LIT(b, "_codes[k]");
            }
            LIT(b, ". */\n");
            TPL(b, p, "typedef enum @_");
            put_ident(b, op->snake);
            put_ch(b, '_');
            put_ident(b, f->name);
            LIT(b, " {\n");
            for (size_t i = 0; i < f->n_values; i++) {
                LIT(b, "    ");
                put_field_const(b, p, op, "", f->name, f->values[i]);
                fkcg_buf_printf(b, " = %lld,\n", (long long)fkcg_field_code(f, i));
            }
            TPL(b, p, "} @_");
            put_ident(b, op->snake);
            put_ch(b, '_');
            put_ident(b, f->name);
            TPL(b, p, ";\nstatic const char *const @_");
            put_ident(b, op->snake);
            put_ch(b, '_');
            put_ident(b, f->name);
            fkcg_buf_printf(b, "_names[%zu] = {", f->n_values);
            for (size_t i = 0; i < f->n_values; i++) {
                put_str(b, i ? ", " : "");
                put_cstr(b, f->values[i]);
            }
            LIT(b, "};\n");
            if (f->codes) { /* stated codes: the value with name k has code k here */
                TPL(b, p, "static const int32_t @_");
                put_ident(b, op->snake);
                put_ch(b, '_');
                put_ident(b, f->name);
                fkcg_buf_printf(b, "_codes[%zu] = {", f->n_values);
                for (size_t i = 0; i < f->n_values; i++)
                    fkcg_buf_printf(b, "%s%lld", i ? ", " : "", (long long)f->codes[i]);
                LIT(b, "};\n");
            }
        }
        if (f->def) {
            LIT(b, "#define ");
            put_field_const(b, p, op, "DEFAULT_", f->name, NULL);
            put_ch(b, ' ');
            put_field_value(b, p, op, s, f);
            LIT(b, " /* the value of an unset ");
            put_comment(b, f->name);
            LIT(b, " */\n");
        }
    }
}

/* One params struct per op kind; an op kind the runtime implements takes the runtime's struct
 * (the generated source checks it against the contract's fields: emit_c_runtime_params). */
static void emit_h_params(fkcg_buf *b, const fkcg_plan *p)
{
    for (size_t i = 0; i < p->n_ops; i++) {
        const fkcg_plan_op *op = &p->ops[i];
        const fkcg_section *s = p->t->sections[op->sig];
        if (!s->variant && !op->rt)
            continue;
        LIT(b, "/* ");
        put_comment(b, op->name);
        LIT(b, "'s params ");
        put_where(b, s, false);
        if (op->rt) {
            TPL(b, p,
                ",\n * the fkc runtime's (fkc/fkc_kernels.h); @_bindings.c checks them. */\n"
                "typedef fkc_");
            put_ident(b, op->snake);
            TPL(b, p, "_params @_");
            put_ident(b, op->snake);
            LIT(b, "_params;\n");
            continue;
        }
        LIT(b, " */\n");
        put_field_typing(b, p, op, s);
        TPL(b, p, "typedef struct @_");
        put_ident(b, op->snake);
        LIT(b, "_params {\n");
        put_fields(b, s);
        TPL(b, p, "} @_");
        put_ident(b, op->snake);
        LIT(b, "_params;\n");
    }
    put_ch(b, '\n');
}

static void emit_h_fn_types(fkcg_buf *b, const fkcg_plan *p)
{
    TPL(b, p, "/* One function type per op kind; @_<op>_fn points to one. */\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        TPL(b, p, "typedef fkc_status @_");
        put_ident(b, p->ops[i].snake);
        LIT(b, "_kernel");
        put_params(b, p, &p->ops[i]);
        TPL(b, p, ";\ntypedef @_");
        put_ident(b, p->ops[i].snake);
        TPL(b, p, "_kernel *@_");
        put_ident(b, p->ops[i].snake);
        LIT(b, "_fn;\n");
    }
    TPL(b, p,
        "\n/* A kernel reference: the member named after the op kind is the one set. */\n"
        "typedef union @_kernel_ref {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        TPL(b, p, "    @_");
        put_ident(b, p->ops[i].snake);
        LIT(b, "_fn ");
        put_ident(b, p->ops[i].snake);
        LIT(b, "; /* ");
        put_comment(b, p->ops[i].name);
        LIT(b, " */\n");
    }
    TPL(b, p, "} @_kernel_ref;\n\n");
}

/* The byte-width wrappers each section binds, declared through its op's function type. */
/* Whether row k is the first of its section with its wrapper (a section that does not follow
 * the byte-width rule names its wrappers per key: each is declared, and stubbed, once). */
static bool first_of_wrapper(const fkcg_plan *p, size_t k)
{
    const fkcg_plan_sec *ps = &p->secs[p->rows[k].sec];
    for (size_t j = ps->first; j < k; j++)
        if (!strcmp(p->rows[j].b->wrapper, p->rows[k].b->wrapper))
            return false;
    return true;
}

/* The block dtypes of the contracts, as fkc_dtype values from FKC_DTYPE_BLOCK_FIRST. */
static void emit_h_block_dtypes(fkcg_buf *b, const fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    if (!t->n_block_dtypes)
        return;
    LIT(b, "/* The block (quantized) dtypes the providers declare, by name: fkc_dtype values from\n"
           " * FKC_DTYPE_BLOCK_FIRST (elements per block, bytes per block). */\n");
    for (size_t i = 0; i < t->n_block_dtypes; i++) {
        const fkcg_dtype_info *d = t->block_dtypes[i];
        LIT(b, "#define ");
        put_vocab(b, FKCG_EN_DTYPE, d->name);
        fkcg_buf_printf(b, " ((fkc_dtype)(FKC_DTYPE_BLOCK_FIRST + %zu)) /* %u, %u */\n", i,
                        (unsigned)d->block_elements, (unsigned)d->bytes);
    }
    put_ch(b, '\n');
}

/* ---- optional inputs (issue 22): data only when a contract has one (the seed's output
 * stays as it was) ---- */
static size_t n_optional_inputs(const fkcg_plan *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->t->n_sections; i++)
        for (size_t k = 0; k < p->t->sections[i]->n_inputs; k++)
            n += p->t->sections[i]->inputs[k].optional;
    return n;
}

static void emit_h_optional(fkcg_buf *b, const fkcg_plan *p)
{
    size_t n = n_optional_inputs(p);
    if (!n)
        return;
    TPL(b, p,
        "/* The optional inputs (accept.inputs[].optional), by kernel: a wrapper gets NULL for an\n"
        " * absent one. A call without it is keyed with absent_key in its key slot, or, when\n"
        " * absent_tie >= 0 (same_dtype_as), with the dtype of key slot absent_tie; slot -1: the\n"
        " * key does not name it (absent_key is then FKC_DTYPE_COUNT, as with a tie). */\n"
        "typedef struct @_optional_input {\n"
        "    size_t kernel;         /* its section: @_kernels[kernel] */\n"
        "    @_op_kind op;\n"
        "    size_t input;          /* its place among the kernel's inputs */\n"
        "    const char *name;      /* the input's name */\n"
        "    int slot;              /* its slot in the key, or -1 */\n"
        "    fkc_dtype absent_key;  /* what that slot holds in a call without it */\n"
        "    int absent_tie;        /* or the slot whose dtype it holds then, or -1 */\n"
        "} @_optional_input;\n"
        "#define @@_OPTIONAL_INPUT_COUNT ");
    fkcg_buf_put_u64(b, n);
    TPL(b, p, "\nextern const @_optional_input @_optional_inputs[@@_OPTIONAL_INPUT_COUNT];\n\n");
}

static int key_slot(const fkcg_section *s, int tensor)
{
    for (size_t i = 0; i < s->n_key; i++)
        if (s->key[i] == tensor)
            return (int)i;
    return -1;
}

static void emit_c_optional(fkcg_buf *b, const fkcg_plan *p)
{
    if (!n_optional_inputs(p))
        return;
    TPL(b, p, "const @_optional_input @_optional_inputs[@@_OPTIONAL_INPUT_COUNT] = {\n");
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->t->sections[i];
        for (size_t k = 0; k < s->n_inputs; k++) {
            const fkcg_input *in = &s->inputs[k];
            if (!in->optional)
                continue;
            int slot = key_slot(s, (int)k);
            int tie = -1;
            if (slot >= 0 && in->same_dtype_as)
                for (size_t j = 0; j < s->n_key; j++)
                    if (!strcmp(s->key[j] < (int)s->n_inputs
                                    ? s->inputs[s->key[j]].name
                                    : s->outputs[(size_t)s->key[j] - s->n_inputs].name,
                                in->same_dtype_as))
                        tie = (int)j;
            fkcg_buf_printf(b, "    {%zu, ", i);
            TPL(b, p, "@@_OP_");
            put_ident(b, p->ops[p->secs[i].op].upper);
            fkcg_buf_printf(b, ", %zu, ", k);
            put_cstr(b, in->name);
            fkcg_buf_printf(b, ", %d, ", slot);
            const fkcg_dtype_info *d = slot >= 0 && in->absent_key >= 0
                                           ? fkcg_section_dtype(s, in->absent_key)
                                           : NULL;
            if (d)
                put_vocab(b, FKCG_EN_DTYPE, d->name);
            else
                LIT(b, "FKC_DTYPE_COUNT");
            fkcg_buf_printf(b, ", %d}, /* ", tie);
            put_comment(b, s->kernel);
            LIT(b, " */\n");
        }
    }
    LIT(b, "};\n\n");
}

/* ---- shape-only inputs (issue 22): data only when a contract states one ---- */
static size_t n_shape_only(const fkcg_plan *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->t->n_sections; i++)
        for (size_t k = 0; k < p->t->sections[i]->n_inputs; k++)
            n += p->t->sections[i]->inputs[k].shape_only;
    return n;
}

static void emit_h_shape_only(fkcg_buf *b, const fkcg_plan *p)
{
    size_t n = n_shape_only(p);
    if (!n)
        return;
    TPL(b, p,
        "/* The shape-only inputs (accept.inputs[].shape_only), by kernel: the wrapper reads their\n"
        " * shape and dtype, never their data (a caller need not have written it). */\n"
        "typedef struct @_shape_only_input {\n"
        "    size_t kernel;    /* its section: @_kernels[kernel] */\n"
        "    @_op_kind op;\n"
        "    size_t input;     /* its place among the kernel's inputs */\n"
        "    const char *name; /* the input's name */\n"
        "} @_shape_only_input;\n"
        "#define @@_SHAPE_ONLY_INPUT_COUNT ");
    fkcg_buf_put_u64(b, n);
    TPL(b, p,
        "\nextern const @_shape_only_input @_shape_only_inputs[@@_SHAPE_ONLY_INPUT_COUNT];\n\n");
}

static void emit_c_shape_only(fkcg_buf *b, const fkcg_plan *p)
{
    if (!n_shape_only(p))
        return;
    TPL(b, p, "const @_shape_only_input @_shape_only_inputs[@@_SHAPE_ONLY_INPUT_COUNT] = {\n");
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->t->sections[i];
        for (size_t k = 0; k < s->n_inputs; k++) {
            if (!s->inputs[k].shape_only)
                continue;
            fkcg_buf_printf(b, "    {%zu, ", i);
            TPL(b, p, "@@_OP_");
            put_ident(b, p->ops[p->secs[i].op].upper);
            fkcg_buf_printf(b, ", %zu, ", k);
            put_cstr(b, s->inputs[k].name);
            LIT(b, "}, /* ");
            put_comment(b, s->kernel);
            LIT(b, " */\n");
        }
    }
    LIT(b, "};\n\n");
}

/* ---- outputs aliasing a named input (issue 22): data only when a contract states one ---- */
static size_t n_output_aliases(const fkcg_plan *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->t->n_sections; i++)
        for (size_t k = 0; k < p->t->sections[i]->n_outputs; k++)
            n += fkcg_output_in_place(&p->t->sections[i]->outputs[k]) >= 0 ||
                 p->t->sections[i]->outputs[k].out_arg;
    return n;
}

static void emit_h_aliases(fkcg_buf *b, const fkcg_plan *p)
{
    size_t n = n_output_aliases(p);
    if (!n)
        return;
    TPL(b, p,
        "/* The outputs that alias a named input or are an out= argument (return.outputs[]\n"
        " * .in_place, .out_arg), by kernel: pass input in_place's tensor as the output too. */\n"
        "typedef struct @_output_alias {\n"
        "    size_t kernel;    /* its section: @_kernels[kernel] */\n"
        "    @_op_kind op;\n"
        "    size_t output;    /* its place among the kernel's outputs */\n"
        "    const char *name; /* the output's name */\n"
        "    int in_place;     /* the input it is written over (its place), or -1 */\n"
        "    bool out_arg;     /* the caller's out= destination argument */\n"
        "} @_output_alias;\n"
        "#define @@_OUTPUT_ALIAS_COUNT ");
    fkcg_buf_put_u64(b, n);
    TPL(b, p, "\nextern const @_output_alias @_output_aliases[@@_OUTPUT_ALIAS_COUNT];\n\n");
}

static void emit_c_aliases(fkcg_buf *b, const fkcg_plan *p)
{
    if (!n_output_aliases(p))
        return;
    TPL(b, p, "const @_output_alias @_output_aliases[@@_OUTPUT_ALIAS_COUNT] = {\n");
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->t->sections[i];
        for (size_t k = 0; k < s->n_outputs; k++) {
            const fkcg_output *o = &s->outputs[k];
            if (fkcg_output_in_place(o) < 0 && !o->out_arg)
                continue;
            fkcg_buf_printf(b, "    {%zu, ", i);
            TPL(b, p, "@@_OP_");
            put_ident(b, p->ops[p->secs[i].op].upper);
            fkcg_buf_printf(b, ", %zu, ", k);
            put_cstr(b, o->name);
            fkcg_buf_printf(b, ", %d, %s}, /* ", fkcg_output_in_place(o),
                            o->out_arg ? "true" : "false");
            put_comment(b, s->kernel);
            LIT(b, " */\n");
        }
    }
    LIT(b, "};\n\n");
}

static bool expr_uses(const fkcg_expr *e, fkcg_expr_kind kind)
{
    return e && (e->kind == kind || expr_uses(e->lhs, kind) || expr_uses(e->rhs, kind));
}

static void put_field_double(fkcg_buf *b, const char *name, const void *ctx)
{
    (void)ctx;
    LIT(b, "(double)p->");
    put_ident(b, name);
}

/* A tensor term over the tensor-cost function's argument t (fkc_tables.h's fkc_cost_tensor
 * helpers; an absent optional input: 0). */
static void put_tensor_double(fkcg_buf *b, const fkcg_expr *e, const void *ctx)
{
    (void)ctx;
    if (e->kind == FKCG_EXPR_TENSOR_DIM)
        fkcg_buf_printf(b, "fkc_cost_tensor_dim(&t[%d], %lld)", e->slot, (long long)e->axis);
    else
        fkcg_buf_printf(b, "fkc_cost_tensor_%s(&t[%d])",
                        e->kind == FKCG_EXPR_TENSOR_N ? "n" : "bytes", e->slot);
}

/* One tensor-term cost of section sec, as a static inline function of the tensors. */
static void emit_h_tensor_cost(fkcg_buf *b, const fkcg_plan *p, size_t sec, const char *what,
                               const fkcg_expr *e, const char *src)
{
    static const fkcg_expr_style c_tensor = {
        ".0", "(double)n", "(double)dtype_bytes", put_field_double, NULL, false, put_tensor_double};
    const fkcg_section *s = p->secs[sec].s;
    bool field = expr_uses(e, FKCG_EXPR_FIELD);
    LIT(b, "/* ");
    put_str(b, s->kernel);
    LIT(b, ": ");
    put_str(b, what);
    LIT(b, " = ");
    put_comment(b, src);
    TPL(b, p, " */\nstatic inline double @_cost_");
    put_ident(b, s->kernel);
    fkcg_buf_printf(b, "_%s(const fkc_cost_tensor *t, size_t count, const void *params)\n{\n",
                    what);
    if (field) {
        TPL(b, p, "    const @_");
        put_ident(b, p->ops[p->secs[sec].op].snake);
        LIT(b, "_params *p = params;\n");
    } else {
        LIT(b, "    (void)params;\n");
    }
    fkcg_buf_printf(b, "    if (!t || count < %zu%s)\n        return (double)NAN;\n    return ",
                    s->n_inputs + s->n_outputs, field ? " || !p" : "");
    fkcg_expr_write(e, b, &c_tensor);
    LIT(b, ";\n}\n");
}

/* The costs over tensor terms, by kernel (none in a contract without them). */
static void emit_h_tensor_costs(fkcg_buf *b, const fkcg_plan *p)
{
    bool any = false;
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_cost *c = &p->secs[i].s->cost;
        if (!fkcg_expr_uses_tensors(c->flops) && !fkcg_expr_uses_tensors(c->bytes_moved))
            continue;
        if (!any)
            LIT(b,
                "/* The costs over tensors (cost.flops / bytes_moved naming n(X), dim(X, k),\n"
                " * bytes(X)), by kernel: t is the kernel's inputs then its outputs, in signature\n"
                " * order (fkc_cost_tensor; an absent optional input has dims NULL); NAN when t\n"
                " * is NULL or short, or params is NULL where the expression names a field. The\n"
                " * binding's fkc_cost has NULL for these functions. */\n");
        any = true;
        if (fkcg_expr_uses_tensors(c->flops))
            emit_h_tensor_cost(b, p, i, "flops", c->flops, c->flops_src);
        if (fkcg_expr_uses_tensors(c->bytes_moved))
            emit_h_tensor_cost(b, p, i, "bytes_moved", c->bytes_moved, c->bytes_moved_src);
    }
    if (any)
        fkcg_buf_putc(b, '\n');
}

static void emit_h_wrappers(fkcg_buf *b, const fkcg_plan *p)
{
    LIT(b, "/* Byte-width wrappers: fkc_<kernel>_b<width> for the fkc runtime's kernels (which\n"
           " * fkc/fkc_kernels.h declares too), <prefix>_<kernel>_b<width> for the others. */\n");
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_plan_sec *ps = &p->secs[i];
        LIT(b, "/* ");
        put_comment(b, ps->s->kernel);
        put_ch(b, ' ');
        put_where(b, ps->s, false);
        TPL(b, p, " */\n@_");
        put_ident(b, p->ops[ps->op].snake);
        LIT(b, "_kernel ");
        size_t open = column(b);
        bool first = true;
        for (size_t k = ps->first; !ps->templated && k < ps->end; k++) {
            if (!first_of_wrapper(p, k))
                continue;
            fkcg_buf name;
            fkcg_buf_init(&name);
            put_wrapper_symbol(&name, p, k);
            put_param(b, open, first, fkcg_buf_str(&name));
            fkcg_buf_free(&name);
            first = false;
        }
        for (unsigned w = 1; ps->templated && w <= 8; w *= 2) {
            if (!(ps->widths & (1u << w)))
                continue;
            fkcg_buf name;
            fkcg_buf_init(&name);
            put_str(&name, fkcg_plan_wrapper_prefix(p, i));
            put_ch(&name, '_');
            put_ident(&name, ps->s->kernel);
            fkcg_buf_printf(&name, "_b%u", w);
            put_param(b, open, first, fkcg_buf_str(&name));
            fkcg_buf_free(&name);
            first = false;
        }
        LIT(b, ";\n");
    }
    put_ch(b, '\n');
}

/* The row types of fkc/fkc_tables.h for these bindings, the tables, the functions. */
/* ---- gen --shards N: the rows over N sources, by op kind ---- */

/* A shard's tables are named as the whole plan's, with _<k> after the name; its shared costs
 * are exported (the first source's functions read them), so they take the prefix. */
static const char *const shard_names[FKCG_T_COUNT] = {[FKCG_T_SHARED_COST] = "@_shared_cost"};

typedef struct shard_plan {
    size_t n;       /* the shards (gen --shards N) */
    fkcg_window *w; /* n of them: the window each source is printed through */
    size_t *sec_shard, *sec_local;
    size_t *same[FKCG_T_COST + 1]; /* each shard's same[t] (one array for all shards) */
} shard_plan;

/* same[i] (a section's, or for DTYPES an input's, first alike in the plan) made the first
 * alike in i's shard: the items bucketed by shard (a counting sort, table order kept), then
 * each shard's in order, keeping the first of each group (stamp: the shard that saw it last).
 * A table is then printed at the first item of its group in the shard, as in the whole plan,
 * so the dtypes a printed input table names are printed too. */
static size_t *same_in_shards(const fkcg_plan *p, const shard_plan *sp, size_t n,
                              const size_t *same, size_t stride, bool inputs)
{
    size_t ns = sp->n;
    size_t *local = fkcg_xcalloc(n, sizeof *local), *first = fkcg_xcalloc(n, sizeof *first);
    size_t *stamp = fkcg_xcalloc(n, sizeof *stamp), *order = fkcg_xcalloc(n, sizeof *order);
    size_t *at = fkcg_xcalloc(ns + 1, sizeof *at);
    for (size_t i = 0; i < n; i++)
        at[sp->sec_shard[inputs ? p->input_sec[i] : i] + 1]++;
    for (size_t k = 0; k < ns; k++)
        at[k + 1] += at[k];
    for (size_t i = 0; i < n; i++)
        order[at[sp->sec_shard[inputs ? p->input_sec[i] : i]]++] = i;
    for (size_t j = 0; j < n; j++) {
        size_t i = order[j], g = *(const size_t *)(const void *)((const char *)same + i * stride);
        size_t k = sp->sec_shard[inputs ? p->input_sec[i] : i] + 1;
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

/* Op kinds in order, each shard up to its share of the rows (an op kind starting before the
 * share's end joins it; the last takes the rest): shards may be empty when op kinds are fewer,
 * or one op kind holds most rows. */
static void shard_plan_init(shard_plan *sp, const fkcg_plan *p, size_t n)
{
    sp->n = n;
    sp->w = fkcg_xcalloc(n, sizeof *sp->w);
    sp->sec_shard = fkcg_xcalloc(p->t->n_sections, sizeof *sp->sec_shard);
    sp->sec_local = fkcg_xcalloc(p->t->n_sections, sizeof *sp->sec_local);
    size_t *op_shard = fkcg_xcalloc(p->n_ops, sizeof *op_shard);
    size_t op = 0, row = 0;
    for (size_t k = 0; k < n; k++) {
        fkcg_window *w = &sp->w[k];
        size_t goal = p->n_rows / n * (k + 1) + p->n_rows % n * (k + 1) / n;
        w->part = k;
        w->names = shard_names;
        w->sec_part = sp->sec_shard;
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
        sp->sec_shard[i] = w->part;
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

static void shard_plan_free(shard_plan *sp)
{
    free(sp->w);
    free(sp->sec_shard);
    free(sp->sec_local);
    for (int t = 0; t <= FKCG_T_COST; t++)
        free(sp->same[t]);
}

/* The header's declarations of each shard's tables and dispatch (what the first source's
 * functions read; a shard without rows has none). */
static void emit_h_shards(fkcg_buf *b, const fkcg_plan *p, const shard_plan *sp)
{
    fkcg_buf_printf(b,
                    "\n/* gen --shards %zu: the kernels, bindings, link registry rows and "
                    "shared costs of the op\n * kinds of shard k, in ",
                    sp->n);
    TPL(b, p,
        "@_bindings.c (k = 0) or @_bindings_<k>.c; the functions below\n"
        " * read them all. */\n#define @@_SHARD_COUNT ");
    fkcg_buf_put_u64(b, sp->n);
    put_ch(b, '\n');
    for (size_t k = 0; k < sp->n; k++) {
        const fkcg_window *w = &sp->w[k];
        if (w->row_lo == w->row_hi)
            continue;
        fkcg_buf_printf(b, "/* shard %zu: op kinds %zu to %zu */\n", k, w->op_lo, w->op_hi - 1);
        TPL(b, p, "extern const @_kernel_info @_kernels_");
        fkcg_buf_printf(b, "%zu[%zu];\n", k, w->n_secs);
        TPL(b, p, "extern const @_binding @_bindings_");
        fkcg_buf_printf(b, "%zu[%zu];\n", k, w->row_hi - w->row_lo);
        TPL(b, p, "extern const @_link_entry @_link_registry_");
        fkcg_buf_printf(b, "%zu[%zu];\n", k, w->n_links);
        TPL(b, p, "extern const fkc_cost *const @_shared_cost_");
        fkcg_buf_printf(b, "%zu[%zu];\n", k, w->op_hi - w->op_lo);
        TPL(b, p, "fkc_status @_dispatch_");
        fkcg_buf_printf(b, "%zu", k);
        TPL(b, p, "(@_op_kind op, fkc_dtype in, fkc_backend backend, @_kernel_ref *ref);\n");
    }
}

static void emit_h_tables(fkcg_buf *b, const fkcg_plan *p, const shard_plan *shards)
{
    TPL(b, p,
        "/* fkc/fkc_tables.h's rows and loops for these bindings: @_kernel_info, @_binding,\n"
        " * @_link_entry, @_register_fn. */\n#define FKC_TABLES_PREFIX @\n"
        "#include \"fkc/fkc_tables.h\"\n\n");
    const size_t counts[] = {p->t->n_providers, p->t->n_sections, p->n_rows, p->n_registries,
                             p->n_rows};
    const char *const names[] = {"PROVIDER", "KERNEL", "BINDING", "LINK_REGISTRY", "LINK_ENTRY"};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        TPL(b, p, "#define @@_");
        put_str(b, names[i]);
        LIT(b, "_COUNT ");
        fkcg_buf_put_u64(b, counts[i]);
        put_ch(b, '\n');
    }
    TPL(b, p,
        "extern const fkc_provider_info @_providers[@@_PROVIDER_COUNT]; /* by source file */\n");
    if (!shards)
        TPL(b, p,
            "extern const @_kernel_info @_kernels[@@_KERNEL_COUNT]; /* one per section, by kernel */\n"
            "extern const @_binding @_bindings[@@_BINDING_COUNT]; /* op kind, backend, kernel, dtype */\n");
    TPL(b, p,
        "extern const char *const @_link_registry_names[@@_LINK_REGISTRY_COUNT]; /* sorted */\n");
    if (!shards)
        TPL(b, p,
            "extern const @_link_entry @_link_registry[@@_LINK_ENTRY_COUNT]; /* by symbol (strcmp) */\n");
    else
        emit_h_shards(b, p, shards);
    TPL(b, p,
        "/* &fkc_runtime_abi_<N>: linking with a libfkc of another interface fails on it. */\n"
        "extern const int *const @_runtime_abi;\n\n"
        "/* Calls register_with_precision once per binding, in table order: 0, the first non-zero\n"
        " * value it returned (which stops it), or FKC_ERR_INVALID_ARGUMENT when it is NULL. */\n"
        "int @_register_bindings(void *registry, @_register_fn register_with_precision);\n"
        "/* The wrapper of op + [in, out] + backend (the first binding in table order): FKC_OK and\n"
        " * *ref set; FKC_ERR_NO_KERNEL when none; FKC_ERR_INVALID_ARGUMENT when ref is NULL. */\n"
        "fkc_status @_dispatch(@_op_kind op, fkc_dtype in, fkc_dtype out, fkc_backend backend,\n"
        "                        @_kernel_ref *ref);\n"
        "/* The wrapper of op + the whole key key[0..n_key) + backend (the first binding in table\n"
        " * order): FKC_OK and *ref set; FKC_ERR_NO_KERNEL when no binding has that key (another\n"
        " * length, any other slot); FKC_ERR_INVALID_ARGUMENT when ref is NULL. */\n"
        "fkc_status @_dispatch_key(@_op_kind op, const fkc_dtype *key, size_t n_key,\n"
        "                            fkc_backend backend, @_kernel_ref *ref);\n"
        "/* The binding of a key + kernel_source (NULL: any, the first in table order), or NULL. */\n"
        "const @_binding *@_binding_lookup(@_op_kind op, fkc_dtype in, fkc_dtype out,\n"
        "                                      fkc_backend backend, const char *kernel_source);\n"
        "/* The same for the whole key key[0..n_key). */\n"
        "const @_binding *@_binding_lookup_key(@_op_kind op, const fkc_dtype *key, size_t n_key,\n"
        "                                          fkc_backend backend, const char *kernel_source);\n"
        "/* Binary search by symbol; NULL when unknown (or symbol is NULL). */\n"
        "const @_link_entry *@_link_lookup(const char *symbol);\n"
        "/* The shared cost of an op kind (docs/cost.md); NULL when unknown or none. */\n"
        "const fkc_cost *@_op_shared_cost(@_op_kind op);\n"
        "/* Gives every binding of `backend` in a caller's copy of the table whose cost is the\n"
        " * unknown sentinel its op kind's shared cost, when it has one; returns how many. */\n"
        "size_t @_fill_unset_cost_for_backend(@_binding *bindings, size_t count,\n"
        "                                       fkc_backend backend);\n\n");
}

/* The pair hash (docs/generated-code.md): the source compares it with its own copy. */
static const char h_pair_hash_comment[] =
    "/* XXH3-64 of this header without the next line: @_bindings.c refuses to compile\n"
    " * beside a header from another fkcgen run. */\n";

static const char h_epilogue[] = "\n#ifdef __cplusplus\n}\n#endif\n#endif /* @@_BINDINGS_H */\n";

static void emit_h_pair_hash(fkcg_buf *b, const fkcg_plan *p, pair_hasher *h, uint64_t *hash)
{
    put_tpl(b, p, h_pair_hash_comment);
    fkcg_buf epilogue;
    fkcg_buf_init(&epilogue);
    put_tpl(&epilogue, p, h_epilogue); /* as it will be written */
    *hash = hash_end(h, b, fkcg_buf_str(&epilogue));
    TPL(b, p, "#define " FKCG_PAIR_HASH_MACRO " ");
    put_pair_hash(b, *hash);
    put_ch(b, '\n');
    put_str(b, fkcg_buf_str(&epilogue));
    fkcg_buf_free(&epilogue);
}

/* ---- the source ---------------------------------------------------------------------- */

static void emit_c_prologue(fkcg_buf *b, const fkcg_plan *p, uint64_t pair_hash)
{
    TPL(b, p,
        "#include \"@_bindings.h\"\n\n#if !defined(" FKCG_PAIR_HASH_MACRO
        ") || " FKCG_PAIR_HASH_MACRO " != ");
    put_pair_hash(b, pair_hash);
    TPL(b, p,
        "\n#error \"@_bindings.c and @_bindings.h come from different fkcgen "
        "runs: regenerate both (make, or fkcgen gen)\"\n#endif\n\n#include <math.h>\n\n");
}

static void emit_c_abi(fkcg_buf *b, const fkcg_plan *p)
{
    TPL(b, p,
        "/* Links only with an fkc runtime of the interface this file was generated for. */\n"
        "const int *const @_runtime_abi = &fkc_runtime_abi_" STR(FKCG_RUNTIME_ABI) ";\n\n");
    TPL(b, p,
        "/* A row holds its wrapper as an fkc_kernel_fn; @_binding_ref gives its bytes back as\n"
        " * @_kernel_ref, a union of the op kinds' function pointers (fkc/fkc_tables.h). */\n"
        "_Static_assert(sizeof(@_kernel_ref) == sizeof(fkc_kernel_fn),\n"
        "               \"@_kernel_ref: a function pointer type of another size than fkc_kernel_fn\");\n\n");
}

/* The runtime's field name's C type ("const size_t *", its _len "size_t") is the contract's. */
static const fkcg_field *stated_field(const fkcg_section *s, const char *name)
{
    for (size_t k = 0; k < s->n_fields; k++)
        if (s->fields[k].name && strcmp(s->fields[k].name, name) == 0)
            return &s->fields[k];
    return NULL;
}

/* "WriteSlice: the params of the fkc runtime differ in field capacity; ..." as a
 * _Static_assert's message, naming the runtime's fields (names.c) so the compiler shows what to
 * write (no quote in it: compilers print quotes of the message escaped). */
static void put_params_message(fkcg_buf *b, const fkcg_plan_op *op, const char *what,
                               const char *field, const char *len)
{
    LIT(b, "\"");
    put_comment(b, op->name);
    put_str(b, what);
    put_comment(b, field);
    put_str(b, len);
    LIT(b, "; the fkc runtime has");
    for (size_t k = 0; k < op->rt->n_fields; k++) {
        put_str(b, k ? ", " : " ");
        put_comment(b, op->rt->fields[k].name);
        LIT(b, ": ");
        put_comment(b, op->rt->fields[k].kind);
    }
    LIT(b, "\"");
}

/* One field of the runtime's struct (and its _len for a Vec): its C type and place are the
 * contract's. Written from names.c's list of the runtime's fields and the contract's, so that
 * every assertion is well-formed C: a field the contract lacks or states with another kind is
 * a plain false assertion with its message, never a `no member named` error. */
static void put_params_field(fkcg_buf *b, const fkcg_plan *p, const fkcg_plan_op *op,
                             const fkcg_runtime_field *rf, const fkcg_field *f)
{
    bool vec = false;
    const fkcg_kind_spec *ks = f ? fkcg_kind_lookup(f->kind, &vec) : NULL;
    if (!f || !ks || strcmp(fkcg_nz(f->kind), rf->kind) != 0) {
        LIT(b, "_Static_assert(0, ");
        put_params_message(b, op,
                           f ? ": the contract states another kind for field "
                             : ": the contract states no field ",
                           rf->name, "");
        LIT(b, ");\n");
        return;
    }
    for (int len = 0; len <= (vec ? 1 : 0); len++) {
        const char *suffix = len ? "_len" : "";
        LIT(b, "_Static_assert(_Generic(((fkc_");
        put_ident(b, op->snake);
        LIT(b, "_params *)0)->");
        put_ident(b, f->name);
        put_str(b, suffix);
        put_str(b, len ? ", size_t" : vec ? ", const " : ", ");
        if (!len)
            put_str(b, ks->ctype);
        put_str(b, vec && !len ? " *: 1, default: 0) &&\n" : ": 1, default: 0) &&\n");
        LIT(b, "               offsetof(fkc_");
        put_ident(b, op->snake);
        LIT(b, "_params, ");
        put_ident(b, f->name);
        put_str(b, suffix);
        TPL(b, p, ") ==\n                   offsetof(struct @_");
        put_ident(b, op->snake);
        LIT(b, "_params_stated, ");
        put_ident(b, f->name);
        put_str(b, suffix);
        LIT(b, "),\n               ");
        put_params_message(b, op, ": the params of the fkc runtime differ in field ", f->name,
                           suffix);
        LIT(b, ");\n");
    }
}

/* For each op kind whose params are the runtime's, the contract's fields checked against them
 * (docs/architecture.md, "The boundary"): the contract's struct restated, each runtime field
 * (its C type by _Generic, its place by offsetof), a contract field the runtime lacks, and the
 * sizes. A mismatch stops the build with these messages. */
static void emit_c_runtime_params(fkcg_buf *b, const fkcg_plan *p)
{
    for (size_t i = 0; i < p->n_ops; i++) {
        const fkcg_plan_op *op = &p->ops[i];
        const fkcg_section *s = p->t->sections[op->sig];
        if (!op->rt)
            continue;
        LIT(b, "/* ");
        put_comment(b, op->name);
        LIT(b, "'s params as the contract states them ");
        put_where(b, s, true);
        LIT(b, ",\n * checked against the fkc runtime's fkc_");
        put_ident(b, op->snake);
        TPL(b, p, "_params (fkc/fkc_kernels.h). */\nstruct @_");
        put_ident(b, op->snake);
        LIT(b, "_params_stated {\n");
        put_fields(b, s);
        LIT(b, "};\n");
        for (size_t k = 0; k < op->rt->n_fields; k++)
            put_params_field(b, p, op, &op->rt->fields[k], stated_field(s, op->rt->fields[k].name));
        for (size_t k = 0; k < s->n_fields; k++) {
            bool known = false;
            for (size_t j = 0; j < op->rt->n_fields; j++)
                known |= s->fields[k].name && !strcmp(s->fields[k].name, op->rt->fields[j].name);
            if (known)
                continue;
            LIT(b, "_Static_assert(0, ");
            put_params_message(b, op, ": the contract states a field the fkc runtime lacks, ",
                               s->fields[k].name, "");
            LIT(b, ");\n");
        }
        LIT(b, "_Static_assert(sizeof(fkc_");
        put_ident(b, op->snake);
        TPL(b, p, "_params) == sizeof(struct @_");
        put_ident(b, op->snake);
        LIT(b, "_params_stated),\n               ");
        put_params_message(
            b, op, ": the params of the fkc runtime have fields the contract does not state", "",
            "");
        LIT(b, ");\n\n");
    }
}

/* One cost expression of section sec as a function, in double arithmetic. */
static void emit_cost_fn(fkcg_buf *b, const fkcg_plan *p, size_t sec, const char *what,
                         const fkcg_expr *e, const char *src)
{
    static const fkcg_expr_style c_double = {
        ".0", "(double)n", "(double)dtype_bytes", put_field_double, NULL, false, put_tensor_double};
    bool field = expr_uses(e, FKCG_EXPR_FIELD);
    LIT(b, "/* ");
    put_str(b, what);
    LIT(b, " = ");
    put_comment(b, src);
    fkcg_buf_printf(b,
                    " */\nstatic double cost_%zu_%s(uint64_t n, uint64_t dtype_bytes, "
                    "const void *params)\n{\n",
                    sec, what);
    if (field) {
        TPL(b, p, "    const @_");
        put_ident(b, p->ops[p->secs[sec].op].snake);
        LIT(b, "_params *p = params;\n");
    }
    if (!expr_uses(e, FKCG_EXPR_N))
        LIT(b, "    (void)n;\n");
    if (!expr_uses(e, FKCG_EXPR_DTYPE_BYTES))
        LIT(b, "    (void)dtype_bytes;\n");
    put_str(b, field ? "    return p ? " : "    (void)params;\n    return ");
    fkcg_expr_write(e, b, &c_double);
    put_str(b, field ? " : (double)NAN;\n}\n" : ";\n}\n");
}

static void emit_cost_fns(fkcg_render *r, size_t sec)
{
    const fkcg_section *s = r->p->secs[sec].s;
    if (s->cost.flops && !fkcg_expr_uses_tensors(s->cost.flops))
        emit_cost_fn(r->b, r->p, sec, "flops", s->cost.flops, s->cost.flops_src);
    if (s->cost.bytes_moved && !fkcg_expr_uses_tensors(s->cost.bytes_moved))
        emit_cost_fn(r->b, r->p, sec, "bytes_moved", s->cost.bytes_moved, s->cost.bytes_moved_src);
}

/* Each section's data, then the tables. The unknown-cost sentinel comes only when used (no
 * unused static in the output). */
static void emit_c_tables(fkcg_render *r)
{
    const fkcg_plan *p = r->p;
    const fkcg_window *w = r->window; /* NULL: one source holds everything */
    size_t op_lo = w ? w->op_lo : 0, op_hi = w ? w->op_hi : p->n_ops;
    bool unknown = false;
    for (size_t i = 0; i < p->t->n_sections; i++)
        if (!w || w->sec_part[i] == w->part)
            unknown |= !p->t->sections[i]->cost.present;
    for (size_t i = op_lo; i < op_hi; i++)
        unknown |= p->ops[i].cost == FKCG_NONE;
    if (unknown)
        LIT(r->b, "/* The unknown-cost sentinel (docs/cost.md). */\n"
                  "static const fkc_cost unknown_cost = {FKC_COST_PROVENANCE_UNKNOWN, "
                  "FKC_COST_CLASS_UNKNOWN, NULL, NULL, NULL, NULL};\n\n");
    for (size_t i = 0; i < p->t->n_sections; i++) {
        if (w && w->sec_part[i] != w->part)
            continue;
        fkcg_render_section(r, i, emit_cost_fns);
        put_ch(r->b, '\n');
    }
    static const fkcg_table_id order[] = {FKCG_T_OP_NAMES,    FKCG_T_PROVIDERS,  FKCG_T_KERNELS,
                                          FKCG_T_BINDINGS,    FKCG_T_REGISTRIES, FKCG_T_LINKS,
                                          FKCG_T_SHARED_COST, FKCG_T_OP_ROWS};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        bool part = fkcg_render_windowed(order[i]);
        /* sharded: the first source holds the whole-plan tables (its own op_rows, below),
         * each source its part of the others, when it has rows */
        if (w && ((part && w->row_lo == w->row_hi) || (!part && w->part != 0) ||
                  order[i] == FKCG_T_OP_ROWS))
            continue;
        fkcg_render_table(r, order[i], FKCG_NONE);
    }
}

/* The dispatch as data: per (op kind, backend) group of the plan, the row each dtype
 * dispatches to (the first in table order), as row + 1 (0: none), and each op kind's groups;
 * @_dispatch reads them (a loop over the op's backends). A switch of one case per op kind and
 * dtype was most of the compiler's time at 1,000 op kinds (docs/benchmarks.md). */
static void emit_dispatch_data(fkcg_buf *b, const fkcg_plan *p, size_t op_lo, size_t op_hi,
                               size_t row_lo)
{
    size_t g_lo = 0, g_hi = 0, n;
    while (g_lo < p->n_groups && p->groups[g_lo].op < op_lo)
        g_lo++;
    for (g_hi = g_lo; g_hi < p->n_groups && p->groups[g_hi].op < op_hi;)
        g_hi++;
    TPL(b, p,
        "/* The dispatch: per (op kind, backend), the row + 1 of each dtype (the first binding "
        "in\n * table order; 0: none), and each op kind's groups. */\n"
        "static const struct {\n    fkc_backend backend;\n"
        "    uint32_t row[FKC_DTYPE_COUNT];\n} dispatch_groups[");
    /* ISO C has no empty array: when no op kind here has a [T, T] key (every key of more
     * slots or a block dtype), one group no op_groups range reaches */
    fkcg_buf_put_u64(b, g_hi > g_lo ? g_hi - g_lo : 1);
    LIT(b, "] = {\n");
    if (g_hi == g_lo)
        LIT(b, "    {(fkc_backend)0, {0}}, /* none: no [T, T] key */\n");
    for (size_t i = g_lo; i < g_hi; i++) {
        const fkcg_plan_group *g = &p->groups[i];
        LIT(b, "    {");
        put_vocab(b, FKCG_EN_BACKEND, g->backend);
        LIT(b, ", {");
        for (size_t k = 0; k < g->n; k++) {
            const fkcg_plan_case *c = &p->cases[g->first + k];
            put_str(b, k ? ", [" : "[");
            put_vocab(b, FKCG_EN_DTYPE, fkcg_dtypes[c->dtype].name);
            LIT(b, "] = ");
            fkcg_buf_put_u64(b, c->row - row_lo + 1);
        }
        LIT(b, "}}, /* ");
        put_comment(b, p->ops[g->op].name);
        LIT(b, " */\n");
    }
    LIT(b, "};\n\nstatic const size_t op_groups[");
    fkcg_buf_put_u64(b, op_hi - op_lo);
    LIT(b, "][2] = {\n");
    n = g_lo;
    for (size_t op = op_lo; op < op_hi; op++) {
        size_t first = n;
        while (n < g_hi && p->groups[n].op == op)
            n++;
        fkcg_buf_printf(b, "    {%zu, %zu}, /* ", first - g_lo, n - g_lo);
        put_comment(b, p->ops[op].name);
        LIT(b, " */\n");
    }
    LIT(b, "};\n\n");
}

/* The loop over op's groups (op_groups indexed by op - op_lo), dispatching from rows. */
static void emit_dispatch_loop(fkcg_buf *b, const fkcg_plan *p, size_t op_lo, const char *rows)
{
    LIT(b, "    for (size_t g = op_groups[(size_t)op");
    if (op_lo)
        fkcg_buf_printf(b, " - %zu", op_lo);
    LIT(b, "][0]; g < op_groups[(size_t)op");
    if (op_lo)
        fkcg_buf_printf(b, " - %zu", op_lo);
    LIT(b, "][1]; g++) {\n"
           "        uint32_t row = dispatch_groups[g].row[in];\n"
           "        if (dispatch_groups[g].backend == backend && row) {\n            *ref = ");
    TPL(b, p, "@_binding_ref(&");
    put_tpl(b, p, rows);
    LIT(b, "[row - 1]);\n            return FKC_OK;\n        }\n    }\n"
           "    return FKC_ERR_NO_KERNEL;\n}\n\n");
}

static const char dispatch_head[] =
    "fkc_status @_dispatch(@_op_kind op, fkc_dtype in, fkc_dtype out, fkc_backend backend,\n"
    "                        @_kernel_ref *ref)\n{\n"
    "    if (!ref)\n        return FKC_ERR_INVALID_ARGUMENT;\n"
    "    /* every contract key is [T, T] */\n"
    "    if (in != out || (size_t)op >= (size_t)@@_OP_KIND_COUNT ||\n"
    "        (size_t)in >= (size_t)FKC_DTYPE_COUNT)\n"
    "        return FKC_ERR_NO_KERNEL;\n";

/* The head when some key is not the seed's [T, T]: a key [in, out] of two dtypes goes to the
 * whole-key loop. */
static const char dispatch_head_keyed[] =
    "fkc_status @_dispatch(@_op_kind op, fkc_dtype in, fkc_dtype out, fkc_backend backend,\n"
    "                        @_kernel_ref *ref)\n{\n"
    "    if (!ref)\n        return FKC_ERR_INVALID_ARGUMENT;\n"
    "    if ((size_t)op >= (size_t)@@_OP_KIND_COUNT)\n        return FKC_ERR_NO_KERNEL;\n"
    "    if (in != out || (size_t)in >= (size_t)FKC_DTYPE_COUNT) { /* a key of two dtypes */\n"
    "        const fkc_dtype key[2] = {in, out};\n"
    "        return @_dispatch_key(op, key, 2, backend, ref);\n    }\n";

/* @_dispatch_key and @_binding_lookup_key over rows (op_rows: the op's range in them). */
static void emit_key_functions(fkcg_buf *b, const fkcg_plan *p, const char *rows)
{
    TPL(b, p,
        "fkc_status @_dispatch_key(@_op_kind op, const fkc_dtype *key, size_t n_key,\n"
        "                            fkc_backend backend, @_kernel_ref *ref)\n{\n"
        "    if (!ref)\n        return FKC_ERR_INVALID_ARGUMENT;\n"
        "    if ((size_t)op >= (size_t)@@_OP_KIND_COUNT)\n        return FKC_ERR_NO_KERNEL;\n"
        "    const @_binding *b = @_tables_find_key(");
    put_tpl(b, p, rows);
    TPL(b, p,
        ", op_rows[op][0], op_rows[op][1], op, key,\n"
        "                                             n_key, backend, NULL);\n"
        "    if (!b)\n        return FKC_ERR_NO_KERNEL;\n    *ref = @_binding_ref(b);\n    return FKC_OK;\n}\n\n"
        "const @_binding *@_binding_lookup_key(@_op_kind op, const fkc_dtype *key, size_t n_key,\n"
        "                                          fkc_backend backend, const char *kernel_source)\n{\n"
        "    if ((size_t)op >= (size_t)@@_OP_KIND_COUNT)\n        return NULL;\n"
        "    return @_tables_find_key(");
    put_tpl(b, p, rows);
    LIT(b, ", op_rows[op][0], op_rows[op][1], op, key, n_key,\n"
           "                             backend, kernel_source);\n}\n\n");
}

static void emit_c_dispatch(fkcg_buf *b, const fkcg_plan *p)
{
    emit_dispatch_data(b, p, 0, p->n_ops, 0);
    put_tpl(b, p, p->all_plain ? dispatch_head : dispatch_head_keyed);
    emit_dispatch_loop(b, p, 0, "@_bindings");
    emit_key_functions(b, p, "@_bindings");
}

/* The header's functions over the tables: one line each over fkc/fkc_tables.h's loops. */
static const char c_functions[] =
    "const char *@_op_kind_name(@_op_kind op)\n{\n"
    "    return fkc_tables_name(op_names, @@_OP_KIND_COUNT, (size_t)op);\n}\n\n"
    "int @_register_bindings(void *registry, @_register_fn register_with_precision)\n{\n"
    "    return @_tables_register(@_bindings, @@_BINDING_COUNT, registry, "
    "register_with_precision);\n}\n\n"
    "const @_binding *@_binding_lookup(@_op_kind op, fkc_dtype in, fkc_dtype out,\n"
    "                                      fkc_backend backend, const char *kernel_source)\n{\n"
    "    if ((size_t)op >= (size_t)@@_OP_KIND_COUNT)\n        return NULL;\n"
    "    return @_tables_find(@_bindings, op_rows[op][0], op_rows[op][1], op, in, out, "
    "backend,\n                         kernel_source);\n}\n\n"
    "const @_link_entry *@_link_lookup(const char *symbol)\n{\n"
    "    return @_tables_link(@_link_registry, @@_LINK_ENTRY_COUNT, symbol);\n}\n\n"
    "const fkc_cost *@_op_shared_cost(@_op_kind op)\n{\n"
    "    return fkc_tables_shared_cost(shared_cost, @@_OP_KIND_COUNT, (size_t)op);\n}\n\n"
    "size_t @_fill_unset_cost_for_backend(@_binding *bindings, size_t count,\n"
    "                                       fkc_backend backend)\n{\n"
    "    return @_tables_fill_cost(bindings, count, backend, shared_cost, @@_OP_KIND_COUNT);\n}\n";

/* The first source's functions under --shards: each over the shards' tables (op_shard,
 * op_rows (rows within the op's shard) and shards, above). */
static const char sharded_functions[] =
    "const char *@_op_kind_name(@_op_kind op)\n{\n"
    "    return fkc_tables_name(op_names, @@_OP_KIND_COUNT, (size_t)op);\n}\n\n"
    "int @_register_bindings(void *registry, @_register_fn register_with_precision)\n{\n"
    "    if (!register_with_precision)\n        return FKC_ERR_INVALID_ARGUMENT;\n"
    "    for (size_t k = 0; k < @@_SHARD_COUNT; k++) {\n"
    "        int rc = @_tables_register(shards[k].rows, shards[k].n_rows, registry,\n"
    "                                   register_with_precision);\n"
    "        if (rc)\n            return rc;\n    }\n    return 0;\n}\n\n"
    "const @_binding *@_binding_lookup(@_op_kind op, fkc_dtype in, fkc_dtype out,\n"
    "                                      fkc_backend backend, const char *kernel_source)\n{\n"
    "    if ((size_t)op >= (size_t)@@_OP_KIND_COUNT)\n        return NULL;\n"
    "    return @_tables_find(shards[op_shard[op]].rows, op_rows[op][0], op_rows[op][1], op, in,\n"
    "                         out, backend, kernel_source);\n}\n\n"
    "const @_link_entry *@_link_lookup(const char *symbol)\n{\n"
    "    for (size_t k = 0; k < @@_SHARD_COUNT; k++) {\n"
    "        const @_link_entry *e = @_tables_link(shards[k].links, shards[k].n_rows, symbol);\n"
    "        if (e)\n            return e;\n    }\n    return NULL;\n}\n\n"
    "const fkc_cost *@_op_shared_cost(@_op_kind op)\n{\n"
    "    if ((size_t)op >= (size_t)@@_OP_KIND_COUNT)\n        return NULL;\n"
    "    size_t k = op_shard[op];\n"
    "    return fkc_tables_shared_cost(shards[k].shared_cost, shards[k].n_ops,\n"
    "                                  (size_t)op - shards[k].op_lo);\n}\n\n"
    "/* fkc_tables_fill_cost's loop, over the shards' shared costs. */\n"
    "size_t @_fill_unset_cost_for_backend(@_binding *bindings, size_t count,\n"
    "                                       fkc_backend backend)\n{\n"
    "    size_t filled = 0;\n"
    "    for (size_t i = 0; bindings && i < count; i++) {\n"
    "        const fkc_cost *c = @_op_shared_cost(bindings[i].op_kind);\n"
    "        if (bindings[i].backend != backend || !c ||\n"
    "            (bindings[i].cost && bindings[i].cost->provenance != FKC_COST_PROVENANCE_UNKNOWN))\n"
    "            continue;\n"
    "        bindings[i].cost = c;\n        filled++;\n    }\n    return filled;\n}\n";

/* The first source's tables of the shards: each op kind's shard and rows there, and each
 * shard's tables (NULL for an empty one). */
static void emit_c_shard_index(fkcg_buf *b, const fkcg_plan *p, const shard_plan *sp)
{
    TPL(b, p,
        "/* Each op kind's shard and its rows there. */\n"
        "static const unsigned char op_shard[@@_OP_KIND_COUNT] = {");
    for (size_t i = 0; i < p->n_ops; i++)
        fkcg_buf_printf(b, "%s%zu", i ? ", " : "", sp->w[sp->sec_shard[p->ops[i].sig]].part);
    TPL(b, p, "};\nstatic const size_t op_rows[@@_OP_KIND_COUNT][2] = {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        const fkcg_window *w = &sp->w[sp->sec_shard[p->ops[i].sig]];
        fkcg_buf_printf(b, "    {%zu, %zu}, /* ", p->ops[i].first - w->row_lo,
                        p->ops[i].end - w->row_lo);
        put_comment(b, p->ops[i].name);
        LIT(b, " */\n");
    }
    TPL(b, p,
        "};\n\n/* Each shard's tables. */\nstatic const struct {\n"
        "    const @_binding *rows;\n    size_t n_rows;\n    const @_link_entry *links;\n"
        "    const fkc_cost *const *shared_cost;\n    size_t op_lo, n_ops;\n"
        "    fkc_status (*dispatch)(@_op_kind op, fkc_dtype in, fkc_backend backend,\n"
        "                           @_kernel_ref *ref);\n} shards[@@_SHARD_COUNT] = {\n");
    for (size_t k = 0; k < sp->n; k++) {
        const fkcg_window *w = &sp->w[k];
        if (w->row_lo == w->row_hi) {
            LIT(b, "    {NULL, 0, NULL, NULL, 0, 0, NULL},\n");
            continue;
        }
        TPL(b, p, "    {@_bindings_");
        fkcg_buf_printf(b, "%zu, %zu, ", k, w->row_hi - w->row_lo);
        TPL(b, p, "@_link_registry_");
        fkcg_buf_printf(b, "%zu, ", k);
        TPL(b, p, "@_shared_cost_");
        fkcg_buf_printf(b, "%zu, %zu, %zu, ", k, w->op_lo, w->op_hi - w->op_lo);
        TPL(b, p, "@_dispatch_");
        fkcg_buf_printf(b, "%zu},\n", k);
    }
    LIT(b, "};\n\n");
}

/* Source k of --shards: its sections' data, its part of the tables and of the dispatch; the
 * first one also the runtime interface, the params checks, the whole-plan tables and the
 * functions. */
static void emit_c_shard(const fkcg_plan *p, const shard_plan *sp, size_t k, uint64_t pair_hash,
                         fkcg_buf *c)
{
    const fkcg_window *w = &sp->w[k];
    fkcg_render r;
    fkcg_render_init(&r, c, p, &c_style, NULL);
    r.window = w;
    fkcg_buf name;
    fkcg_buf_init(&name);
    if (k)
        fkcg_buf_printf(&name, "@_bindings_%zu.c", k);
    else
        fkcg_buf_puts(&name, "@_bindings.c");
    emit_banner(c, p, fkcg_buf_str(&name), true);
    fkcg_buf_free(&name);
    emit_c_prologue(c, p, pair_hash);
    if (k == 0) {
        emit_c_abi(c, p);
        emit_c_runtime_params(c, p);
    }
    emit_c_tables(&r);
    if (k == 0) {
        emit_c_optional(c, p);
        emit_c_aliases(c, p);
        emit_c_shape_only(c, p);
    }
    if (w->row_lo < w->row_hi) {
        emit_dispatch_data(c, p, w->op_lo, w->op_hi, w->row_lo);
        TPL(c, p, "fkc_status @_dispatch_");
        fkcg_buf_printf(c, "%zu", k);
        TPL(c, p, "(@_op_kind op, fkc_dtype in, fkc_backend backend, @_kernel_ref *ref)\n{\n");
        fkcg_buf name_rows;
        fkcg_buf_init(&name_rows);
        fkcg_buf_printf(&name_rows, "@_bindings_%zu", k);
        emit_dispatch_loop(c, p, w->op_lo, fkcg_buf_str(&name_rows));
        fkcg_buf_free(&name_rows);
    } else {
        fkcg_buf_printf(c, "/* shard %zu holds no op kind */\n", k);
    }
    if (k == 0) {
        emit_c_shard_index(c, p, sp);
        put_tpl(c, p, p->all_plain ? dispatch_head : dispatch_head_keyed);
        put_tpl(c, p, "    return shards[op_shard[op]].dispatch(op, in, backend, ref);\n}\n\n");
        emit_key_functions(c, p, "shards[op_shard[op]].rows");
        put_tpl(c, p, sharded_functions);
    }
    fkcg_render_free(&r);
}

/* The header and the source(s), part by part, in order: outs[0] the header, outs[1 + k] source
 * k (of `shards`: one unless gen --shards). */
static void emit_c_parts(const fkcg_plan *p, size_t shards, fkcg_buf *const outs[])
{
    fkcg_buf *h = outs[0], *c = outs[1];
    shard_plan sp = {0, NULL, NULL, NULL, {NULL}};
    if (shards > 1)
        shard_plan_init(&sp, p, shards);
    pair_hasher ph;
    uint64_t pair_hash;
    hash_begin(&ph, h);
    emit_banner(h, p, "@_bindings.h", false);
    emit_h_prologue(h, p);
    emit_h_op_kinds(h, p);
    emit_h_params(h, p);
    emit_h_fn_types(h, p);
    emit_h_block_dtypes(h, p);
    emit_h_optional(h, p);
    emit_h_aliases(h, p);
    emit_h_shape_only(h, p);
    emit_h_tensor_costs(h, p);
    emit_h_wrappers(h, p);
    emit_h_tables(h, p, shards > 1 ? &sp : NULL);
    emit_h_pair_hash(h, p, &ph, &pair_hash);

    if (shards > 1) {
        for (size_t k = 0; k < shards; k++)
            emit_c_shard(p, &sp, k, pair_hash, outs[1 + k]);
        shard_plan_free(&sp);
        return;
    }
    fkcg_render r;
    fkcg_render_init(&r, c, p, &c_style, NULL);
    emit_banner(c, p, "@_bindings.c", true);
    emit_c_prologue(c, p, pair_hash);
    emit_c_abi(c, p);
    emit_c_runtime_params(c, p);
    emit_c_tables(&r);
    emit_c_optional(c, p);
    emit_c_aliases(c, p);
    emit_c_shape_only(c, p);
    emit_c_dispatch(c, p);
    put_tpl(c, p, c_functions);
    fkcg_render_free(&r);
}

/* The C back end's own check, after the shared ones: an op kind's function type names its
 * tensors as parameters before its params type (`const fkc_tensor *src, ..., const
 * <prefix>_<op>_params *params`), so a tensor called <prefix>_<op>_params hides that type
 * for the rest of the list and the header does not compile. The front end cannot see it
 * (it knows no prefix; the default's fkc_ names it refuses already). One name per op kind
 * that has a params type, built once, against its signature section's tensors. */
static size_t check_c(const fkcg_plan *p, fkcg_diag *d)
{
    size_t before = fkcg_diag_errors(d);
    size_t errors = fkcg_plan_check(p, d);
    fkcg_buf name;
    fkcg_buf_init(&name);
    for (size_t i = 0; errors == 0 && i < p->n_ops; i++) {
        const fkcg_section *s = p->t->sections[p->ops[i].sig];
        if (!s->variant && !p->ops[i].rt)
            continue; /* no params type: its params are `const void *params` */
        name.len = 0;
        fkcg_buf_printf(&name, "%s_%s_params", p->prefix, p->ops[i].snake);
        for (size_t k = 0; k < s->n_inputs + s->n_outputs; k++) {
            bool in = k < s->n_inputs;
            const char *tensor = in ? s->inputs[k].name : s->outputs[k - s->n_inputs].name;
            fkcg_loc loc = in ? s->inputs[k].loc : s->outputs[k - s->n_inputs].loc;
            if (strcmp(tensor, fkcg_buf_str(&name)) != 0)
                continue;
            fkcg_buf why;
            fkcg_buf_init(&why);
            fkcg_buf_printf(&why,
                            "is the C name of the params type of op kind %s under "
                            "--prefix %s, which the tensors precede in its function type: the "
                            "generated C would not compile; choose another tensor name",
                            p->ops[i].name, p->prefix);
            fkcg_emit_report(d, loc, in ? "input name" : "output name", tensor, fkcg_buf_str(&why));
            fkcg_buf_free(&why);
        }
    }
    fkcg_buf_free(&name);
    return fkcg_diag_errors(d) - before;
}

static void emit_c(const fkcg_plan *p, fkcg_buf *const outs[])
{
    emit_c_parts(p, 1, outs);
}

/* Whether a file `name` that opens with head is a source this back end wrote under that name:
 * its banner ("/" "* NAME - generated by fkcgen ", then the "Do not edit" line in it). */
static bool own_part(const char *name, const char *head)
{
    char want[320];
    int w = snprintf(want, sizeof want, "/* %s - generated by fkcgen ", name);
    const char *end = strstr(head, "*/");
    const char *keep = strstr(head, "\n * Do not edit: change the contracts");
    return w > 0 && (size_t)w < sizeof want && strncmp(head, want, (size_t)w) == 0 && keep && end &&
           keep < end;
}

const fkcg_backend fkcg_backend_c = {
    .name = "c",
    .outputs = {"@_bindings.h", "@_bindings.c"},
    .check = check_c,
    .emit = emit_c,
    .emit_parts = emit_c_parts,
    .part_output = "@_bindings_%.c",
    .own_part = own_part,
    .stubs = fkcg_emit_stubs,
};

/* ---- gen --emit-stubs -------------------------------------------------------------------- */

/* One wrapper's skeleton: the signature of the op's function type, each parameter used, a
 * TODO and FKC_ERR_UNSUPPORTED. */
/* A wrapper of a section named per key (not by the byte-width rule): row k's, with the keys of
 * its rows that share it. */
static void emit_keyed_stub(fkcg_buf *b, const fkcg_plan *p, size_t k)
{
    const fkcg_plan_row *row = &p->rows[k];
    const fkcg_plan_sec *ps = &p->secs[row->sec];
    const fkcg_plan_op *op = &p->ops[ps->op];
    const fkcg_section *sig = p->t->sections[op->sig];
    LIT(b, "/* ");
    put_comment(b, ps->s->kernel);
    put_ch(b, ' ');
    put_where(b, ps->s, true);
    LIT(b, ": ");
    put_comment(b, op->name);
    LIT(b, " on");
    for (size_t j = ps->first, n = 0; j < ps->end; j++) {
        if (strcmp(p->rows[j].b->wrapper, row->b->wrapper) != 0)
            continue;
        put_str(b, n++ ? ", [" : " [");
        for (uint32_t s = 0; s < fkcg_binding_n_key(p->rows[j].b); s++) {
            const fkcg_dtype_info *d = fkcg_table_dtype(p->t, fkcg_binding_slot(p->rows[j].b, s));
            fkcg_buf_printf(b, "%s%s", s ? ", " : "", d ? d->name : "?");
        }
        put_ch(b, ']');
    }
    LIT(b, " */\nfkc_status ");
    put_wrapper_symbol(b, p, k);
    put_params(b, p, op);
    LIT(b, "\n{\n    (void)stream;\n");
    for (size_t i = 0; i < sig->n_inputs + sig->n_outputs; i++) {
        LIT(b, "    (void)");
        put_ident(b,
                  i < sig->n_inputs ? sig->inputs[i].name : sig->outputs[i - sig->n_inputs].name);
        LIT(b, ";\n");
        if (i < sig->n_inputs && sig->inputs[i].variadic) {
            LIT(b, "    (void)");
            put_ident(b, sig->inputs[i].name);
            LIT(b, "_count;\n");
        }
    }
    LIT(b,
        "    (void)params;\n    (void)extra;\n"
        "    /* TODO: check the call, then record the kernel on stream for these keys\n"
        "     * (fkc_kernel_cached + fkc_stream_dispatch: docs/adding-an-op.md) and return FKC_OK;\n"
        "     * refuse with fkc_set_error(status, ...). */\n"
        "    return FKC_ERR_UNSUPPORTED;\n}\n\n");
}

static void emit_stub(fkcg_buf *b, const fkcg_plan *p, size_t sec, unsigned width)
{
    const fkcg_plan_sec *ps = &p->secs[sec];
    const fkcg_plan_op *op = &p->ops[ps->op];
    const fkcg_section *sig = p->t->sections[op->sig];
    LIT(b, "/* ");
    put_comment(b, ps->s->kernel);
    put_ch(b, ' ');
    put_where(b, ps->s, true);
    LIT(b, ": ");
    put_comment(b, op->name);
    LIT(b, " on [");
    for (size_t k = ps->first, n = 0; k < ps->end; k++)
        if (p->rows[k].b->byte_width == width)
            fkcg_buf_printf(b, "%s%s", n++ ? ", " : "", fkcg_dtypes[p->rows[k].b->dtype].name);
    LIT(b, "] */\nfkc_status ");
    put_str(b, fkcg_plan_wrapper_prefix(p, sec));
    put_ch(b, '_');
    put_ident(b, ps->s->kernel);
    fkcg_buf_printf(b, "_b%u", width);
    put_params(b, p, op);
    LIT(b, "\n{\n    (void)stream;\n");
    for (size_t i = 0; i < sig->n_inputs + sig->n_outputs; i++) {
        LIT(b, "    (void)");
        put_ident(b,
                  i < sig->n_inputs ? sig->inputs[i].name : sig->outputs[i - sig->n_inputs].name);
        LIT(b, ";\n");
        if (i < sig->n_inputs && sig->inputs[i].variadic) {
            LIT(b, "    (void)");
            put_ident(b, sig->inputs[i].name);
            LIT(b, "_count;\n");
        }
    }
    LIT(b, "    (void)params;\n    (void)extra;\n"
           "    /* TODO: check the call, then record the kernel on stream for ");
    fkcg_buf_put_u64(b, width);
    LIT(b, "-byte elements\n     * (fkc_kernel_cached + fkc_stream_dispatch: docs/adding-an-op.md) "
           "and return FKC_OK;\n     * refuse with fkc_set_error(status, ...). */\n"
           "    return FKC_ERR_UNSUPPORTED;\n}\n\n");
}

void fkcg_emit_stubs(const fkcg_table *t, const char *prefix, fkcg_buf *b)
{
    fkcg_plan p;
    fkcg_plan_init(&p, t, prefix);
    LIT(b, "/* Wrapper skeletons - written once by fkcgen " FKCGEN_VERSION " (gen --emit-stubs) "
           "from:\n");
    for (size_t i = 0; i < t->n_providers; i++) {
        LIT(b, " *   ");
        put_comment(b, t->providers[i]->rel_file ? t->providers[i]->rel_file
                                                 : t->providers[i]->loc.file);
        put_ch(b, '\n');
    }
    TPL(b, &p,
        " * Yours to edit (fkcgen never overwrites it): each function is a byte-width "
        "wrapper\n * <prefix>_<kernel>_b<width> that @_bindings.h declares; until its TODO "
        "is done it refuses\n * with FKC_ERR_UNSUPPORTED. The fkc runtime's own kernels "
        "need none. */\n#include \"@_bindings.h\"\n\n");
    for (size_t i = 0; i < t->n_sections; i++) {
        if (p.secs[i].runtime)
            continue; /* fkc_<kernel>_b<width> are the runtime's */
        if (!p.secs[i].templated) {
            for (size_t k = p.secs[i].first; k < p.secs[i].end; k++)
                if (first_of_wrapper(&p, k))
                    emit_keyed_stub(b, &p, k);
            continue;
        }
        for (unsigned w = 1; w <= 8; w *= 2)
            if (p.secs[i].widths & (1u << w))
                emit_stub(b, &p, i, w);
    }
    fkcg_plan_free(&p);
}
