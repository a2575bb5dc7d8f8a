/* rust.c — the Rust back end: from the plan, NAME_bindings.rs, one module of the contracts'
 * own items (op kinds, op params, each op's C interface, kernel refs) and their tables, over
 * the fkc crate's hand-written tables module (rust/fkc/src/tables.rs, named rt::tables), which
 * holds every type and loop that is the same for all contracts. Its own escape gate: every
 * contract string reaches the output through put_rstr (a Rust string literal), put_rcomment (a
 * plain comment) or put_rdoc (doc text), every identifier through put_rident (checked; a
 * keyword becomes r#name). Its own checks: the names Rust cannot take, one op_params variant
 * per op kind, link registry statics. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "back.h"
#include "config.h"
#include "fkcgen.h"
#include "internal.h"

/* ---- names ------------------------------------------------------------------------------ */

static int cmp_name(const void *key, const void *entry)
{
    return strcmp(key, *(const char *const *)entry);
}

/* Rust's strict and reserved keywords (2015-2024 editions), sorted by strcmp. */
static const char *const rust_keywords[] = {
    "Self",     "abstract", "as",     "async",   "await",    "become", "box",    "break", "const",
    "continue", "crate",    "do",     "dyn",     "else",     "enum",   "extern", "false", "final",
    "fn",       "for",      "gen",    "if",      "impl",     "in",     "let",    "loop",  "macro",
    "match",    "mod",      "move",   "mut",     "override", "priv",   "pub",    "ref",   "return",
    "self",     "static",   "struct", "super",   "trait",    "true",   "try",    "type",  "typeof",
    "unsafe",   "unsized",  "use",    "virtual", "where",    "while",  "yield",
};

bool fkcg_rust_keyword(const char *s)
{
    return bsearch(s, rust_keywords, sizeof rust_keywords / sizeof rust_keywords[0],
                   sizeof rust_keywords[0], cmp_name) != NULL;
}

/* The names of the module's own items in the value namespace (statics and functions), which a
 * link registry static may not take; sorted. */
static const char *const own_values[] = {
    "BINDINGS",  "KERNELS",     "LINK_REGISTRIES", "OP_NAMES",     "OP_ROWS",
    "PROVIDERS", "RUNTIME_ABI", "SHARED_COST",     "UNKNOWN_COST",
};
#define OWN_VALUES                                                                                 \
    "BINDINGS, KERNELS, LINK_REGISTRIES, OP_NAMES, OP_ROWS, PROVIDERS, "                           \
    "RUNTIME_ABI, SHARED_COST, UNKNOWN_COST"

/* ---- the escape gate ------------------------------------------------------------------ */

#define PUT(b, lit) fkcg_buf_put((b), "" lit, sizeof(lit) - 1)

static void put_str(fkcg_buf *b, const char *s)
{
    fkcg_buf_puts(b, s);
}

/* What an invalid identifier or string becomes: it cannot compile, and says why. */
#define BROKEN(what) "compile_error!(\"fkcgen: invalid " what "\")"

/* A Rust identifier from a contract name: a C identifier (checked here again), never self,
 * Self, super or crate; a keyword is written as a raw identifier. */
static void put_rident(fkcg_buf *b, const char *s)
{
    size_t n = fkcg_emit_ident_len(s);
    if (!n || fkcg_rust_name_refused(s)) {
        PUT(b, BROKEN("identifier"));
        return;
    }
    if (fkcg_rust_keyword(s))
        PUT(b, "r#");
    fkcg_buf_put(b, s, n);
}

/* put_rident's name followed by a suffix ("_len"): the two make one identifier, never a keyword,
 * so no r# goes before it. */
static void put_rident_suffixed(fkcg_buf *b, const char *s, const char *suffix)
{
    size_t n = fkcg_emit_ident_len(s);
    if (!n || fkcg_rust_name_refused(s)) {
        PUT(b, BROKEN("identifier"));
        return;
    }
    fkcg_buf_put(b, s, n);
    put_str(b, suffix);
}

/* The UTF-8 sequence at s: its code point and length, or 0 when malformed (overlong,
 * surrogate, beyond U+10FFFF, truncated). */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
    size_t n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (n == 0 || s[0] > 0xF4)
        return 0;
    uint32_t c = s[0] & (0x7F >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

/* A contract string as a Rust string literal: printable ASCII stays but " and \ (escaped);
 * newline, tab and CR as \n \t \r, every other byte or code point as \u{HEX}, so the source
 * stays ASCII (no bidirectional control can hide in it). Malformed UTF-8 (the front end refuses
 * it) becomes a compile_error!. */
static void put_rstr(fkcg_buf *b, const char *s)
{
    if (!s)
        s = "";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p >= 0x80) {
            uint32_t cp;
            size_t n = utf8_decode(p, &cp);
            if (!n) {
                PUT(b, BROKEN("UTF-8 in a string"));
                return;
            }
            p += n - 1;
        }
    fkcg_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            fkcg_buf_putc(b, '\\');
            fkcg_buf_putc(b, (char)c);
        } else if (c >= 0x20 && c < 0x7F) {
            fkcg_buf_putc(b, (char)c);
        } else if (c == '\n') {
            PUT(b, "\\n");
        } else if (c == '\t') {
            PUT(b, "\\t");
        } else if (c == '\r') {
            PUT(b, "\\r");
        } else {
            uint32_t cp = c;
            if (c >= 0x80)
                p += utf8_decode(p, &cp) - 1;
            fkcg_buf_printf(b, "\\u{%X}", (unsigned)cp);
        }
    }
    fkcg_buf_putc(b, '"');
}

/* Contract text in a plain `//` comment: printable ASCII only (one '.' per other code point or
 * byte), on one line. Nothing but a newline ends a line comment. */
static void put_rcomment(fkcg_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; s && *p; p++) {
        if (*p >= 0x20 && *p < 0x7F)
            fkcg_buf_putc(b, (char)*p);
        else if (*p < 0x80 || *p >= 0xC0) /* not a UTF-8 continuation byte */
            fkcg_buf_putc(b, '.');
    }
}

/* Contract text in a `///` doc comment: as put_rcomment, and the Markdown that could make
 * rustdoc do more than show text is backslash-escaped: ` (a code span or fence: a doctest
 * runs code), < > & (HTML, entities, autolinks), [ ] (links), ~ and | (fences, tables) and \.
 * The callers start every doc line with their own words, so no contract text begins a line
 * (no heading, list, quote or indented code block can start). */
static void put_rdoc(fkcg_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; s && *p; p++) {
        if (*p >= 0x20 && *p < 0x7F) {
            if (strchr("`<>&[]~|\\", *p))
                fkcg_buf_putc(b, '\\');
            fkcg_buf_putc(b, (char)*p);
        } else if (*p < 0x80 || *p >= 0xC0) {
            fkcg_buf_putc(b, '.');
        }
    }
}

/* A finite double as a Rust f64 literal, the shortest that reads back exactly ('.' whatever
 * the locale). */
static void put_f64(fkcg_buf *b, double v)
{
    char tmp[40];
    if (!isfinite(v)) {
        PUT(b, BROKEN("non-finite number"));
        return;
    }
    if (v == 0.0) {
        put_str(b, signbit(v) ? "-0.0" : "0.0");
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v) /* read back in the locale it was printed in */
            break;
    }
    for (char *p = tmp; *p; p++)
        if (*p == ',')
            *p = '.';
    /* Rust wants digits before an exponent's sign to hold a '.', e.g. 1.0e-5, not 1e-5.0 */
    char *e = strpbrk(tmp, "eE");
    if (e) {
        char mant[40];
        size_t m = (size_t)(e - tmp);
        memcpy(mant, tmp, m);
        mant[m] = '\0';
        fkcg_buf_put(b, mant, m);
        if (!strchr(mant, '.'))
            PUT(b, ".0");
        put_str(b, e);
    } else {
        put_str(b, tmp);
        if (!strchr(tmp, '.'))
            PUT(b, ".0");
    }
}

/* "judge_measured" -> "JudgeMeasured", "Cpu" -> "Cpu": enum variants of schema values. */
static void put_camel(fkcg_buf *b, const char *s)
{
    bool up = true;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
            up = true;
            continue;
        }
        if (up && c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        fkcg_buf_putc(b, c);
        up = false;
    }
}

/* A doc line: `indent/// words text`. */
static void put_doc_line(fkcg_buf *b, const char *indent, const char *words, const char *text)
{
    put_str(b, indent);
    PUT(b, "/// ");
    put_str(b, words);
    put_rdoc(b, text);
    fkcg_buf_putc(b, '\n');
}


/* ---- the style: how the table walk (render.c) writes Rust ---------------------------------- */

#define SIG(p, op) ((p)->t->sections[(op)->sig]) /* an op kind's signature section */

/* The vocabularies' types as rust/fkc/src/tables.rs names them (variants: the value in
 * CamelCase). */
static const char *const vocab_type[FKCG_EN_COUNT] = {
    [FKCG_EN_DETERMINISM] = "Determinism", [FKCG_EN_PROVENANCE] = "CostProvenance",
    [FKCG_EN_COST_CLASS] = "CostClass",    [FKCG_EN_STRATEGY] = "LayoutStrategy",
    [FKCG_EN_LAYOUT_RULE] = "LayoutRule",  [FKCG_EN_GUARANTEE] = "LayoutGuarantee",
    [FKCG_EN_ALIASING] = "Aliasing",       [FKCG_EN_DTYPE] = "DType",
    [FKCG_EN_BACKEND] = "Backend",         [FKCG_EN_SHAPE_RULE] = "ShapeRule",
};

/* What Rust calls each table and the type of its rows (a nested row's: its constructor). */
static const fkcg_table_name rust_tables[FKCG_T_COUNT] = {
    [FKCG_T_FAST_PATHS] = {"FastPath", "FAST_PATHS_%", NULL},
    [FKCG_T_DTYPES] = {"DType", "DTYPES_%", NULL},
    [FKCG_T_INPUTS] = {"Input", "INPUTS_%", NULL},
    [FKCG_T_OUTPUTS] = {"Output", "OUTPUTS_%", NULL},
    [FKCG_T_FIELDS] = {"Field", "FIELDS_%", NULL},
    [FKCG_T_COST] = {"Cost", "COST_%", NULL},
    [FKCG_T_PRECISION_BY] = {"Precision", "PRECISION_BY_%", NULL},
    [FKCG_T_SHAPE_OPERANDS] = {"&str", "SHAPE_OPERANDS_%", NULL},
    [FKCG_T_PROVIDERS] = {"Provider", "PROVIDERS", NULL},
    [FKCG_T_KERNELS] = {"KernelInfo", "KERNELS", NULL},
    [FKCG_T_BINDINGS] = {"Binding", "BINDINGS", NULL},
    [FKCG_T_LINKS] = {"LinkEntry", NULL, NULL},
    [FKCG_T_REGISTRIES] = {NULL, NULL, NULL},
    [FKCG_T_SHARED_COST] = {"&Cost", "SHARED_COST", NULL},
    [FKCG_T_OP_NAMES] = {"&str", "OP_NAMES", NULL},
    [FKCG_T_OP_ROWS] = {"(usize, usize)", "OP_ROWS", NULL},
    [FKCG_T_CAPS] = {"Caps", NULL, NULL},
    [FKCG_T_PRECISION] = {"Precision", NULL, NULL},
    [FKCG_T_LAYOUT] = {"Layout", NULL, NULL},
    [FKCG_T_SPAN] = {"(", NULL, NULL},
};

/* Type::Variant of a vocabulary; Type::Unknown for an unstated value where it has one. */
static void put_vocab(fkcg_buf *b, int which, const char *value)
{
    const fkcg_vocab *v = &fkcg_vocabs[which];
    if (!value && !v->with_unknown) {
        PUT(b, BROKEN("missing value"));
        return;
    }
    if (which == FKCG_EN_DTYPE && value &&
        fkcg_enum_index(fkcg_enum_find("dtype"), value) < 0) { /* a block dtype */
        PUT(b, "block_dtypes::");
        put_rident(b, value);
        return;
    }
    put_str(b, vocab_type[which]);
    PUT(b, "::");
    if (which == FKCG_EN_DTYPE)
        put_rident(b, value);
    else
        put_camel(b, value ? value : "unknown");
}

static void put_op(fkcg_render *r, fkcg_buf *out, size_t op)
{
    PUT(out, "OpKind::");
    put_rident(out, r->p->ops[op].name);
}

/* A row's wrapper: KernelRef::Op(rt::<kernel>_b<width>), or its name as a string. */
static void put_wrapper(fkcg_render *r, fkcg_buf *out, size_t row, bool ref)
{
    const fkcg_plan_row *w = &r->p->rows[row];
    if (!ref) {
        put_rstr(out, w->b->wrapper);
        return;
    }
    PUT(out, "KernelRef::");
    put_rident(out, r->p->ops[w->op].name);
    if (fkcg_emit_ident_len(w->b->wrapper)) {
        PUT(out, "(rt::");
        put_str(out, w->b->wrapper);
        fkcg_buf_putc(out, ')');
    } else {
        PUT(out, "(" BROKEN("wrapper") ")");
    }
}

static void style_comment(fkcg_buf *out, const char *text)
{
    PUT(out, "// ");
    put_rcomment(out, text);
}

static void style_tpl(fkcg_render *r, fkcg_buf *out, const char *s)
{
    (void)r;
    put_str(out, s);
}

/* What each table is, for rustdoc. */
static const char *const table_doc[FKCG_T_COUNT] = {
    [FKCG_T_PROVIDERS] = "The contract files, sorted by path.",
    [FKCG_T_KERNELS] = "One row per kernel section, sorted by kernel.",
    [FKCG_T_BINDINGS] = "One row per (section x dtype), by op kind, backend, kernel, dtype.",
    [FKCG_T_SHARED_COST] = "Each op kind's shared cost: its first section's (by kernel) that "
                           "states a known one.",
    [FKCG_T_OP_NAMES] = "Each op kind's contract name.",
    [FKCG_T_OP_ROWS] = "Each op kind's rows of BINDINGS: [first, end).",
};

/* `pub static NAME: [Type; n] = [` (a section's: pub(super), in mod data; COST one struct). */
/* The module of link registry k when the name of its static is another registry's too: the
 * path's segments before the static joined by '_' (fuel_vulkan_backend::fkc::ENTRY_POINTS is
 * fuel_vulkan_backend_fkc::ENTRY_POINTS), so two providers' registries live side by side; NULL
 * when its name is its own (the static is then one of the module's own items, as with one
 * provider). The caller frees it. */
static char *registry_module(const char *const *regs, size_t n, size_t k)
{
    const char *reg = regs[k], *name = strrchr(reg, ':') ? strrchr(reg, ':') + 1 : reg;
    bool shared = false;
    for (size_t j = 0; j < n && !shared; j++) {
        const char *other = strrchr(regs[j], ':') ? strrchr(regs[j], ':') + 1 : regs[j];
        shared = j != k && strcmp(other, name) == 0;
    }
    if (!shared)
        return NULL;
    size_t len = name > reg + 1 ? (size_t)(name - reg) - 2 : 0;
    char *m = fkcg_xcalloc(len + 1, 1), *o = m;
    for (size_t i = 0; i < len; i++) {
        if (reg[i] == ':' && reg[i + 1] == ':') {
            *o++ = '_';
            i++;
        } else {
            *o++ = reg[i];
        }
    }
    return m;
}

static const char *registry_static(const char *path);

static void table_open(fkcg_render *r, fkcg_table_id t, size_t sec, size_t k, size_t n)
{
    const fkcg_table_name *d = &rust_tables[t];
    fkcg_buf *b = r->b;
    if (sec != FKCG_NONE) {
        PUT(b, "    pub(super) static ");
        fkcg_render_name(r, b, t, sec, k);
        if (t == FKCG_T_COST) {
            PUT(b, ": Cost = Cost::new(");
            return;
        }
        fkcg_buf_printf(b, ": [%s; %zu] = [%s", d->type, n,
                        t == FKCG_T_DTYPES || t == FKCG_T_SHAPE_OPERANDS ? "" : "\n");
        return;
    }
    if (t == FKCG_T_LINKS) {
        const char *reg = r->p->registries[k];
        const char *name = strrchr(reg, ':') ? strrchr(reg, ':') + 1 : reg;
        PUT(b, "/// Link registry `");
        put_rdoc(b, reg);
        PUT(b, "`: every `<entry_point>_<suffix>` symbol -> its\n/// binding, sorted by symbol "
               "(byte order).\npub static ");
        put_rident(b, name);
        fkcg_buf_printf(b, ": [LinkEntry; %zu] = [\n", n);
        return;
    }
    fkcg_buf_printf(b, "/// %s\n%sstatic %s: [%s; %zu] = [\n", table_doc[t],
                    t < FKCG_T_SHARED_COST ? "pub " : "", d->name, d->type, n);
}

static void table_close(fkcg_render *r, fkcg_table_id t, size_t n)
{
    (void)n;
    put_str(r->b, t == FKCG_T_COST                                   ? ");\n"
                  : t == FKCG_T_DTYPES || t == FKCG_T_SHAPE_OPERANDS ? "];\n"
                  : t <= FKCG_T_PRECISION_BY                         ? "    ];\n"
                                                                     : "];\n\n");
}

/* A templated section's row templates, as macros: symbol_<sec>!(suffix), its symbols, and
 * rows_<sec>!(DTYPE, suffix, wrapper, width), its rows. */
static void template_open(fkcg_render *r, size_t sec, bool symbol)
{
    fkcg_buf_printf(r->b, "macro_rules! %s_%zu {\n    (%s) => {\n        %s",
                    symbol ? "symbol" : "rows", sec,
                    symbol ? "$s:literal" : "$t:ident, $s:literal, $w:ident, $bw:literal",
                    symbol ? "concat!(" : "");
}

static void template_close(fkcg_render *r, bool symbol)
{
    put_str(r->b, symbol ? ", \"_\", $s)\n    };\n}\n" : "\n    };\n}\n");
}

static void put_hole(fkcg_render *r, fkcg_buf *out, const fkcg_cell *c)
{
    const fkcg_plan_row *row = &r->p->rows[c->u];
    switch (c->kind) {
    case FKCG_CELL_KEY: PUT(out, "&[DType::$t, DType::$t]"); break;
    case FKCG_CELL_SYMBOL: fkcg_buf_printf(out, "symbol_%zu!($s)", row->sec); break;
    case FKCG_CELL_KREF:
        PUT(out, "KernelRef::");
        put_rident(out, r->p->ops[row->op].name);
        PUT(out, "(rt::$w)");
        break;
    case FKCG_CELL_WRAPPER: PUT(out, "stringify!($w)"); break;
    default:
        PUT(out, "$bw"); /* the byte width */
        break;
    }
}

/* symbol_<sec>!("suffix") or rows_<sec>!(DTYPE, "suffix", wrapper, width) of row `row`. */
static void template_call(fkcg_render *r, fkcg_buf *out, size_t row, bool symbol)
{
    const fkcg_plan_row *w = &r->p->rows[row];
    const fkcg_dtype_info *d = &fkcg_dtypes[w->b->dtype];
    if (symbol) {
        fkcg_buf_printf(out, "symbol_%zu!(\"%s\")", w->sec, d->suffix);
        return;
    }
    fkcg_buf_printf(out, "rows_%zu!(%s, \"%s\", ", w->sec, d->name, d->suffix);
    if (fkcg_emit_ident_len(w->b->wrapper))
        put_str(out, w->b->wrapper);
    else
        PUT(out, BROKEN("wrapper"));
    fkcg_buf_printf(out, ", %u)", (unsigned)w->b->byte_width);
}

static void style_ident(fkcg_buf *out, const char *s)
{
    put_rident(out, s);
}

/* A row: `Type::new(` ... `)`; a tuple's `(` ... `)`. */
static void row_edge(fkcg_render *r, fkcg_buf *out, fkcg_table_id t, bool open)
{
    (void)r;
    const char *type = fkcg_nz(rust_tables[t].type);
    if (!open)
        fkcg_buf_putc(out, ')');
    else if (type[0] == '(')
        fkcg_buf_putc(out, '(');
    else
        fkcg_buf_printf(out, "%s::new(", type);
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
static const fkcg_style rust_style = {
    .tables = rust_tables, .row_edge = row_edge, .member = member,
    .str = put_rstr, .ident = style_ident, .comment = style_comment,
    .tpl = style_tpl, .f64 = put_f64, .vocab = put_vocab, .op = put_op,
    .wrapper = put_wrapper, .open = table_open, .close = table_close,
    .template_open = template_open, .template_close = template_close, .hole = put_hole,
    .template_call = template_call, .indent = {"    ", "        "}, .cont = 4,
    .section_lead = "    ",
    .none = "None", .some = "Some(", .some_end = ")", .truth = {"false", "true"}, .address = "&",
    .key_open = "&[", .key_end = "]", .empty_slice = "&[]", .slice_counted = false,
    .section_scope = "data::", .unknown_cost = "&UNKNOWN_COST", .registry_path = true,
};
/* clang-format on */

/* ---- the module's own items --------------------------------------------------------------- */

static void emit_banner(fkcg_buf *b, const fkcg_plan *p)
{
    fkcg_buf_printf(b, "// %s_bindings.rs - generated by fkcgen " FKCGEN_VERSION " from:\n",
                    p->prefix);
    for (size_t i = 0; i < p->t->n_providers; i++) {
        const fkcg_provider *pr = p->t->providers[i];
        PUT(b, "//   ");
        put_rcomment(b, pr->rel_file ? pr->rel_file : pr->loc.file);
        if (pr->text_hash) {
            PUT(b, " (text xxh3-128 ");
            put_rcomment(b, pr->text_hash);
            fkcg_buf_putc(b, ')');
        }
        fkcg_buf_putc(b, '\n');
    }
    PUT(b,
        "// Do not edit: change the contracts and run `make` (fkcgen gen --lang rust).\n"
        "// Include it into a module where `rt` names the fkc crate's ffi module (the runtime's C\n"
        "// types, and rt::tables, what every such module shares); see docs/generated-code.md.\n\n");
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* The names this module takes from rt::tables, its interface version, and the checks that
 * the crate it is included in is of that interface and has the schema's vocabularies. */
static void emit_prologue(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b,
        "pub use rt::tables::{Aliasing, Backend, Caps, CostClass, CostProvenance, DType, "
        "Determinism,\n                     FastPath, Field, Input, Layout, LayoutGuarantee, "
        "LayoutRule, LayoutStrategy,\n                     Output, Precision, Provider, "
        "Registry, ShapeRule};\n\n"
        "/// The fkc runtime interface (`FKC_RUNTIME_ABI`) these bindings were generated for.\n"
        "pub const RUNTIME_ABI: i32 = " STR(
            FKCG_RUNTIME_ABI) ";\n"
                              "const _: () = assert!(RUNTIME_ABI == rt::FKC_RUNTIME_ABI,\n"
                              "                      \"these bindings were generated for another fkc runtime "
                              "interface: regenerate them with the fkcgen of this runtime (make)\");\n"
                              "// The schema's vocabularies, which rt::tables must spell as the fkcgen that wrote "
                              "this.\n");
    for (int w = 0; w < FKCG_EN_COUNT; w++) {
        const fkcg_vocab *v = &fkcg_vocabs[w];
        const fkcg_enum *e = fkcg_enum_find(v->schema);
        fkcg_buf_printf(b, "const _: () = assert!(rt::tables::same_names(%s::NAMES, &[%s",
                        vocab_type[w], v->with_unknown ? "\"\"" : "");
        for (size_t i = 0; e && i < e->count; i++) {
            put_str(b, i || v->with_unknown ? ", " : "");
            put_rstr(b, e->values[i]);
        }
        PUT(b, "]), \"rt::tables is of another fkcgen\");\n");
    }
    PUT(b, "const _: () = assert!(rt::tables::same_names(Layout::KEYS, &[");
    for (int l = 0; l < FKCG_NLAYOUT; l++) {
        put_str(b, l ? ", " : "");
        put_rstr(b, fkcg_layout_keys[l]);
    }
    PUT(b, "]), \"rt::tables is of another fkcgen\");\n");
    PUT(b, "const _: () = assert!(rt::tables::same_sizes(DType::SIZES, &[");
    for (int d = 0; d < FKCG_NDTYPES; d++)
        fkcg_buf_printf(b, "%s%u", d ? ", " : "", fkcg_dtypes[d].bytes);
    PUT(b, "]), \"rt::tables is of another fkcgen\");\n\n");
    if (p->t->n_block_dtypes) {
        PUT(b, "/// The block (quantized) dtypes the providers declare, by name.\n"
               "#[allow(non_upper_case_globals)]\npub mod block_dtypes {\n"
               "    use super::DType;\n");
        for (size_t i = 0; i < p->t->n_block_dtypes; i++) {
            const fkcg_dtype_info *d = p->t->block_dtypes[i];
            fkcg_buf_printf(b, "    /// %u elements in %u bytes a block.\n    pub const ",
                            (unsigned)d->block_elements, (unsigned)d->bytes);
            put_rident(b, d->name);
            fkcg_buf_printf(b, ": DType = DType::Block%zu;\n", i);
        }
        PUT(b, "}\n\n");
    }
    PUT(b,
        "/// This module's contract set: the types its rows of rt::tables hold.\n"
        "pub enum Set {}\n\nimpl rt::tables::Contracts for Set {\n    type OpKind = OpKind;\n"
        "    type OpParams = OpParams;\n    type KernelRef = KernelRef;\n"
        "    fn op_index(op: OpKind) -> usize {\n        op as usize\n    }\n}\n\n"
        "/// rt::tables' row types for this contract set.\npub type Cost = rt::tables::Cost<Set>;\n"
        "/// A cost function of this set.\npub type CostFn = rt::tables::CostFn<Set>;\n"
        "/// A kernel section of this set.\npub type KernelInfo = rt::tables::KernelInfo<Set>;\n"
        "/// A binding of this set.\npub type Binding = rt::tables::Binding<Set>;\n"
        "/// A link registry row of this set.\npub type LinkEntry = rt::tables::LinkEntry<Set>;\n\n");
}

/* No derived Debug: its one match arm per op kind grew faster than the op kinds in rustc
 * (issue 27); OpKind's Debug is its name, written below. */
static const char derive_enum[] = "#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n";

static void emit_op_kinds(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/// The op kinds the contracts name, sorted by name; each value is the C side's\n"
           "/// `<PREFIX>_OP_*` enumerator.\n#[allow(non_camel_case_types)]\n");
    put_str(b, derive_enum);
    PUT(b, "#[repr(u32)]\npub enum OpKind {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        put_doc_line(b, "    ", "Contract op kind ", p->ops[i].name);
        PUT(b, "    ");
        put_rident(b, p->ops[i].name);
        fkcg_buf_printf(b, " = %zu,\n", i);
    }
    fkcg_buf_printf(b,
                    "}\n\nimpl OpKind {\n    /// Every op kind, in value order.\n"
                    "    pub const ALL: [OpKind; %zu] = [",
                    p->n_ops);
    for (size_t i = 0; i < p->n_ops; i++) {
        put_str(b, i ? ", OpKind::" : "OpKind::");
        put_rident(b, p->ops[i].name);
    }
    PUT(b, "];\n\n    /// The contract name (\"WriteSlice\").\n"
           "    pub fn name(self) -> &'static str {\n        OP_NAMES[self as usize]\n    }\n}\n\n"
           "impl ::core::fmt::Debug for OpKind {\n"
           "    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {\n"
           "        f.write_str(self.name())\n    }\n}\n\n");
    if (p->n_ops)
        PUT(b,
            "/// The tag of a `#[repr(u32)]` enum's value (`OpParams`, `KernelRef`): its first u32\n"
            "/// (RFC 2195), the variant's place.\n"
            "fn tag<T>(v: &T) -> u32 {\n"
            "    // SAFETY: T is a #[repr(u32)] enum, whose every value begins with its u32 tag.\n"
            "    unsafe { *(v as *const T as *const u32) }\n}\n\n");
}

/* Field kinds: the Rust type of a scalar (the contract's own spelling) and of a Vec element;
 * an enum field is its enum ops::<op snake>::<field> (the C view: i32), a dtype field DType.
 * `from` is the path from where the type is written to the crate's root items. */
static void put_kind(fkcg_buf *b, const fkcg_field *f, bool c_view, const char *snake,
                     const char *from)
{
    bool vec;
    const fkcg_kind_spec *k = fkcg_kind_lookup(f->kind, &vec);
    if (!k) {
        PUT(b, BROKEN("field kind"));
        return;
    }
    if (fkcg_field_is_enum(f)) {
        if (c_view) {
            PUT(b, "i32");
            return;
        }
        put_str(b, from);
        PUT(b, "ops::");
        put_rident(b, snake);
        PUT(b, "::");
        put_rident(b, f->name);
        return;
    }
    if (fkcg_field_is_dtype(f)) {
        put_str(b, from);
        PUT(b, "DType");
        return;
    }
    if (vec)
        put_str(b, c_view ? "*const " : "Vec<");
    put_str(b, k->kind); /* usize, i64, f32, bool, ...: the same names in Rust */
    if (vec && !c_view)
        fkcg_buf_putc(b, '>');
}

static bool op_has_params(const fkcg_plan *p, const fkcg_plan_op *op)
{
    return SIG(p, op)->variant != NULL;
}

/* OpParams is #[repr(u32)] (when it has a variant): its tag is the variant's place, and
 * each variant is laid out as the #[repr(C)] tuple struct (tag, fields...) (RFC 2195), which
 * ops::<op>::Variant spells. Its op kind, Clone, Debug and PartialEq index a table, by tag, of
 * small per-op functions: no function holds one match arm per op kind, whose checking (the
 * derives' matches, and any match with a `_` arm over the enum) grew faster than the op kinds
 * in rustc (issue 27). */
static void emit_op_params(fkcg_buf *b, const fkcg_plan *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n_ops; i++)
        n += op_has_params(p, &p->ops[i]);
    PUT(b, "/// The op_params of every op kind that has some: one variant per contract\n"
           "/// `op_params.variant`, its fields in contract order.\n"
           "#[allow(non_camel_case_types, non_snake_case)]\n");
    /* an enum of no variant can have no repr; its Clone and Debug are trivial */
    put_str(b, n ? "#[repr(u32)]\n" : "#[derive(Clone, Debug)]\n");
    PUT(b, "pub enum OpParams {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        const fkcg_section *s = SIG(p, &p->ops[i]);
        if (!op_has_params(p, &p->ops[i]))
            continue;
        PUT(b, "    /// The parameters of ");
        put_rdoc(b, p->ops[i].name);
        PUT(b, ".\n    ");
        put_rident(b, s->variant);
        PUT(b, " {\n");
        for (size_t k = 0; k < s->n_fields; k++) {
            const fkcg_field *f = &s->fields[k];
            put_doc_line(b, "        ", "Kind ", f->kind);
            if (f->note)
                put_doc_line(b, "        ", "Note: ", f->note);
            PUT(b, "        ");
            put_rident(b, f->name);
            PUT(b, ": ");
            put_kind(b, f, false, p->ops[i].snake, "");
            PUT(b, ",\n");
        }
        PUT(b, "    },\n");
    }
    PUT(b, "}\n\nimpl OpParams {\n    /// The op kind these parameters belong to.\n"
           "    pub fn op_kind(&self) -> OpKind {\n");
    if (n == 0) {
        PUT(b, "        match *self {}\n    }\n}\n\n");
        return;
    }
    PUT(b, "        PARAMS[tag(self) as usize].op\n    }\n}\n\n"
           "/// One variant of `OpParams`: its op kind and its own functions (ops::<op>).\n"
           "struct ParamsFns {\n    op: OpKind,\n"
           "    eq: fn(&OpParams, &OpParams) -> bool,\n    clone: fn(&OpParams) -> OpParams,\n"
           "    fmt: fn(&OpParams, &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result,\n"
           "}\n\n");
    fkcg_buf_printf(
        b, "/// Each variant's ParamsFns, by tag.\nstatic PARAMS: [ParamsFns; %zu] = [\n", n);
    for (size_t i = 0; i < p->n_ops; i++) {
        if (!op_has_params(p, &p->ops[i]))
            continue;
        PUT(b, "    ParamsFns { op: OpKind::");
        put_rident(b, p->ops[i].name);
        PUT(b, ", eq: ops::");
        put_rident(b, p->ops[i].snake);
        PUT(b, "::params_eq, clone: ops::");
        put_rident(b, p->ops[i].snake);
        PUT(b, "::params_clone, fmt: ops::");
        put_rident(b, p->ops[i].snake);
        PUT(b, "::params_fmt },\n");
    }
    PUT(b, "];\n\nimpl PartialEq for OpParams {\n    fn eq(&self, other: &OpParams) -> bool {\n"
           "        (PARAMS[tag(self) as usize].eq)(self, other)\n    }\n}\n\n"
           "impl Clone for OpParams {\n    fn clone(&self) -> OpParams {\n"
           "        (PARAMS[tag(self) as usize].clone)(self)\n    }\n}\n\n"
           "impl ::core::fmt::Debug for OpParams {\n"
           "    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {\n"
           "        (PARAMS[tag(self) as usize].fmt)(self, f)\n    }\n}\n\n");
}

/* ops::<op>::Variant (OpParams' variant as laid out), TAG, variant() and OpParams'
 * PartialEq, Clone and Debug for this op kind's variant (the derived ones' output). */
/* tag: the op's place among OpParams' variants (the op kinds before it that have params),
 * counted by the caller's one pass over the ops (a count here, per op kind, was quadratic). */
static void emit_params_eq(fkcg_buf *b, const fkcg_plan *p, const fkcg_plan_op *op, size_t tag)
{
    const fkcg_section *s = SIG(p, op);
    PUT(b, "        // `OpParams::");
    put_rdoc(b, s->variant);
    PUT(b, "` as laid out: its tag, then its fields (RFC 2195: `OpParams` is\n"
           "        // `#[repr(u32)]`).\n        #[repr(C)]\n        struct Variant(u32");
    for (size_t k = 0; k < s->n_fields; k++) {
        PUT(b, ", ");
        put_kind(b, &s->fields[k], false, op->snake, "super::super::");
    }
    fkcg_buf_printf(b,
                    ");\n        // Its tag: its place among `OpParams`' variants.\n"
                    "        const TAG: u32 = %zu;\n\n"
                    "        // The variant's fields, when `p` is it.\n"
                    "        fn variant(p: &super::super::OpParams) -> Option<&Variant> {\n"
                    "            // SAFETY: Variant lays out variant TAG.\n"
                    "            unsafe { super::super::variant_of(p, TAG) }\n"
                    "        }\n\n",
                    tag);
    PUT(b, "        // `OpParams`' `PartialEq` for this variant.\n"
           "        pub(in super::super) fn params_eq(a: &super::super::OpParams, "
           "b: &super::super::OpParams) -> bool {\n"
           "            match (variant(a), variant(b)) {\n");
    put_str(b, s->n_fields ? "                (Some(a), Some(b)) => "
                           : "                (Some(_), Some(_)) => ");
    for (size_t k = 0; k < s->n_fields; k++)
        fkcg_buf_printf(b, "%sa.%zu == b.%zu", k ? " && " : "", k + 1, k + 1);
    put_str(b, s->n_fields ? ",\n" : "true,\n");
    PUT(b, "                _ => false,\n            }\n        }\n\n");
    PUT(b, "        // `OpParams`' `Clone` for this variant (`p` is it).\n"
           "        pub(in super::super) fn params_clone(p: &super::super::OpParams) -> "
           "super::super::OpParams {\n");
    put_str(b,
            s->n_fields
                ? "            let v = variant(p).expect(\"OpParams: the variant of its tag\");\n"
                : "            variant(p).expect(\"OpParams: the variant of its tag\");\n");
    PUT(b, "            super::super::OpParams::");
    put_rident(b, s->variant);
    PUT(b, " {");
    for (size_t k = 0; k < s->n_fields; k++) {
        put_str(b, k ? ", " : " ");
        put_rident(b, s->fields[k].name);
        fkcg_buf_printf(b, ": v.%zu.clone()", k + 1);
    }
    put_str(b, s->n_fields ? " }\n        }\n\n" : "}\n        }\n\n");
    PUT(b, "        // `OpParams`' `Debug` for this variant (`p` is it), as derived.\n"
           "        pub(in super::super) fn params_fmt(p: &super::super::OpParams, "
           "f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {\n");
    put_str(b,
            s->n_fields
                ? "            let v = variant(p).expect(\"OpParams: the variant of its tag\");\n"
                : "            variant(p).expect(\"OpParams: the variant of its tag\");\n");
    PUT(b, "            f.debug_struct(");
    put_rstr(b, s->variant);
    PUT(b, ")");
    for (size_t k = 0; k < s->n_fields; k++) {
        PUT(b, ".field(");
        put_rstr(b, s->fields[k].name);
        fkcg_buf_printf(b, ", &v.%zu)", k + 1);
    }
    PUT(b, ".finish()\n        }\n\n");
}

/* The type of each C parameter of a wrapper of s's shape, as in the C function type; no
 * names (the type is shared by every op kind of that shape: ops::<op>::Kernel's doc names
 * them). */
static void put_c_types(fkcg_buf *b, const fkcg_section *s)
{
    PUT(b, "    *mut rt::fkc_stream,\n");
    for (size_t i = 0; i < s->n_inputs + s->n_outputs; i++) {
        bool in = i < s->n_inputs;
        if (in && s->inputs[i].variadic) /* issue 22: a pointer array and its count */
            PUT(b, "    *const *const rt::fkc_tensor,\n    usize,\n");
        else
            put_str(b, in ? "    *const rt::fkc_tensor,\n" : "    *mut rt::fkc_tensor,\n");
    }
    PUT(b, "    *const ::core::ffi::c_void,\n    *const ::core::ffi::c_void,\n");
}

/* A field's value as a Rust constant of its type (inside ops::<op snake>). */
static void put_field_value(fkcg_buf *b, const fkcg_section *s, const fkcg_field *f)
{
    if (fkcg_field_is_enum(f)) {
        put_rident(b, f->name);
        PUT(b, "::");
        put_camel(b, f->def);
    } else if (fkcg_field_is_dtype(f)) {
        PUT(b, "super::super::");
        put_vocab(b, FKCG_EN_DTYPE, fkcg_section_dtype(s, f->def_index)->name);
    } else {
        put_str(b, f->def); /* validate.c normalised it: an integer, a float literal, a bool */
    }
}

/* Each enum field's enum (its values in contract order, numbered as the C enum) with its
 * names, and each default's constant DEFAULT_<FIELD> (issue 22 item 3). */
static void emit_field_typing(fkcg_buf *b, const fkcg_section *s)
{
    for (size_t k = 0; k < s->n_fields; k++) {
        const fkcg_field *f = &s->fields[k];
        if (fkcg_field_is_enum(f)) {
            PUT(b, "        /// The values of enum field `");
            put_rdoc(b, f->name);
            PUT(b, "`, numbered as the C enum (its C view is an i32).\n"
                   "        #[allow(non_camel_case_types)]\n"
                   "        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n"
                   "        #[repr(i32)]\n        pub enum ");
            put_rident(b, f->name);
            PUT(b, " {\n");
            for (size_t i = 0; i < f->n_values; i++) {
                PUT(b, "            /// Contract value `");
                put_rdoc(b, f->values[i]);
                PUT(b, "`.\n            ");
                put_camel(b, f->values[i]);
                fkcg_buf_printf(b, " = %lld,\n", (long long)fkcg_field_code(f, i));
            }
            PUT(b, "        }\n\n        impl ");
            put_rident(b, f->name);
            PUT(b, " {\n            /// The contract's names of the values, in order.\n"
                   "            pub const NAMES: [&'static str; ");
            fkcg_buf_printf(b, "%zu] = [", f->n_values);
            for (size_t i = 0; i < f->n_values; i++) {
                put_str(b, i ? ", " : "");
                put_rstr(b, f->values[i]);
            }
            PUT(b, "];\n\n            /// The contract's name of this value.\n"
                   "            pub fn name(self) -> &'static str {\n"
                   "                match self {\n");
            for (size_t i = 0; i < f->n_values; i++) {
                PUT(b, "                    ");
                put_rident(b, f->name);
                PUT(b, "::");
                put_camel(b, f->values[i]);
                fkcg_buf_printf(b, " => Self::NAMES[%zu],\n", i);
            }
            PUT(b, "                }\n            }\n        }\n\n");
        }
        if (f->def) {
            PUT(b, "        /// The value of an unset `");
            put_rdoc(b, f->name);
            PUT(b, "`.\n        pub const DEFAULT_");
            for (const char *c = f->name; *c; c++)
                fkcg_buf_putc(b, (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c));
            PUT(b, ": ");
            if (fkcg_field_is_enum(f))
                put_rident(b, f->name);
            else
                put_kind(b, f, false, NULL, "super::super::");
            PUT(b, " = ");
            put_field_value(b, s, f);
            PUT(b, ";\n");
        }
    }
}

/* A wrapper's shape: its inputs (t a tensor, v a variadic one: pointers and a count; 0 for
 * none), then its number of outputs; `<what>_<shape>` names the function type and the call of it that
 * every op kind of that shape shares (issue 27: not one copy per op kind). */
static void put_shape(fkcg_buf *b, const char *what, const fkcg_section *s)
{
    put_str(b, what);
    fkcg_buf_putc(b, '_');
    for (size_t i = 0; i < s->n_inputs; i++)
        fkcg_buf_putc(b, s->inputs[i].variadic ? 'v' : 't');
    if (!s->n_inputs)
        fkcg_buf_putc(b, '0'); /* no input: call_0_1, never call__1 (not snake case) */
    fkcg_buf_printf(b, "_%zu", s->n_outputs);
}

static bool same_shape(const fkcg_section *a, const fkcg_section *b)
{
    if (a->n_inputs != b->n_inputs || a->n_outputs != b->n_outputs)
        return false;
    for (size_t i = 0; i < a->n_inputs; i++)
        if (a->inputs[i].variadic != b->inputs[i].variadic)
            return false;
    return true;
}

/* Each distinct shape's function type Kernel_<shape> and call_<shape>, which checks the
 * numbers of tensors and calls the wrapper, in the order of the first op kind of each. */
static void emit_shapes(fkcg_buf *b, const fkcg_plan *p)
{
    if (!p->n_ops)
        return;
    PUT(b, "// What KernelRef::call hands to ops::<op>::call.\n"
           "struct CallArgs<'a> {\n    stream: *mut rt::fkc_stream,\n"
           "    inputs: &'a [*const rt::fkc_tensor],\n    outputs: &'a [*mut rt::fkc_tensor],\n"
           "    params: Option<&'a OpParams>,\n    extra: *const ::core::ffi::c_void,\n}\n\n"
           "// The wrapper `k` holds when its tag is `op`. SAFETY (the caller's): variant `op` of\n"
           "// KernelRef holds a K (#[repr(u32)]: laid out as Ref, RFC 2195).\n"
           "#[allow(unused_unsafe)] // the inner block: needed from edition 2024\n"
           "unsafe fn wrapper_of<K: Copy>(k: &KernelRef, op: u32) -> Option<K> {\n"
           "    #[repr(C)]\n    struct Ref<K>(u32, K);\n"
           "    if tag(k) != op {\n        return None;\n    }\n"
           "    Some(unsafe { (*(k as *const KernelRef as *const Ref<K>)).1 })\n}\n\n");
    bool any = false;
    for (size_t i = 0; i < p->n_ops; i++)
        any |= op_has_params(p, &p->ops[i]);
    if (any)
        PUT(b,
            "// The fields of `p` when its tag is `t`. SAFETY (the caller's): V lays out variant\n"
            "// `t` of OpParams (#[repr(u32)]: its tag, then its fields, RFC 2195).\n"
            "#[allow(unused_unsafe)] // the inner block: needed from edition 2024\n"
            "unsafe fn variant_of<V>(p: &OpParams, t: u32) -> Option<&V> {\n"
            "    if tag(p) != t {\n        return None;\n    }\n"
            "    Some(unsafe { &*(p as *const OpParams as *const V) })\n}\n\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        const fkcg_section *s = SIG(p, &p->ops[i]);
        size_t j = 0;
        while (j < i && !same_shape(SIG(p, &p->ops[j]), s))
            j++;
        if (j < i)
            continue;
        bool var = s->n_inputs && s->inputs[s->n_inputs - 1].variadic; /* issue 22 */
        PUT(b,
            "/// The C function type of a wrapper of this shape (inputs: t a tensor, v a variadic\n"
            "/// input; then the number of outputs): `ops::<op>::Kernel`.\n"
            "#[allow(non_camel_case_types)]\npub type ");
        put_shape(b, "Kernel", s);
        PUT(b, " = unsafe extern \"C\" fn(\n");
        put_c_types(b, s);
        PUT(b, ") -> rt::fkc_status;\n\n");
        PUT(b,
            "// Calls a wrapper of this shape with `params` (its C params or null): None (and no\n"
            "// call) when the numbers of tensors are not its own.\n"
            "#[allow(unused_unsafe)] // the inner block: needed from edition 2024\nunsafe fn ");
        put_shape(b, "call", s);
        PUT(b, "(f: ");
        put_shape(b, "Kernel", s);
        PUT(b, ", a: &CallArgs<'_>, params: *const ::core::ffi::c_void)\n"
               "    -> Option<rt::fkc_status> {\n");
        fkcg_buf_printf(b,
                        "    let (inputs, outputs) = (a.inputs, a.outputs);\n"
                        "    if inputs.len() %s %zu || outputs.len() != %zu {\n"
                        "        return None;\n    }\n    Some(unsafe {\n        f(\n"
                        "            a.stream,\n",
                        var ? "<" : "!=", s->n_inputs, s->n_outputs);
        for (size_t k = 0; k < s->n_inputs; k++)
            if (var && k + 1 == s->n_inputs) /* the rest of `inputs`: the variadic tensors */
                fkcg_buf_printf(b,
                                "            inputs[%zu..].as_ptr(),\n"
                                "            inputs.len() - %zu,\n",
                                k, k);
            else
                fkcg_buf_printf(b, "            inputs[%zu],\n", k);
        for (size_t k = 0; k < s->n_outputs; k++)
            fkcg_buf_printf(b, "            outputs[%zu],\n", k);
        PUT(b, "            params,\n            a.extra,\n        )\n    })\n}\n\n");
    }
}

/* One op kind's C interface: its params' C view (a Vec field as pointer + _len) and the
 * wrappers' function type. */
static void emit_op_call(fkcg_buf *b, const fkcg_plan *p, const fkcg_plan_op *op);

static void emit_op_module(fkcg_buf *b, const fkcg_plan *p, const fkcg_plan_op *op, size_t tag)
{
    const fkcg_section *s = SIG(p, op);
    put_doc_line(b, "    ", "The C interface of op kind ", op->name);
    PUT(b, "    #[allow(non_snake_case)]\n    pub mod ");
    put_rident(b, op->snake);
    PUT(b, " {\n");
    emit_field_typing(b, s);
    if (s->variant) {
        PUT(b, "        /// `fkc_");
        put_rdoc(b, op->snake);
        PUT(b, "_params`: the C view of `OpParams::");
        put_rdoc(b, s->variant);
        PUT(b, "` (pointers borrowed from it).\n"
               "        #[repr(C)]\n        #[derive(Clone, Copy)]\n"
               "        pub struct Params {\n");
        for (size_t k = 0; k < s->n_fields; k++) {
            bool vec;
            fkcg_kind_lookup(s->fields[k].kind, &vec);
            PUT(b, "            /// Contract field ");
            put_rdoc(b, s->fields[k].name);
            PUT(b, ".\n            pub ");
            put_rident(b, s->fields[k].name);
            PUT(b, ": ");
            put_kind(b, &s->fields[k], true, op->snake, "super::super::");
            PUT(b, ",\n");
            if (vec) {
                PUT(b, "            /// Elements of the field above.\n            pub ");
                put_rident_suffixed(b, s->fields[k].name, "_len: usize,\n");
            }
        }
        if (s->n_fields == 0)
            PUT(b, "            /// The variant has no fields (C's `char unused`).\n"
                   "            pub unused: ::std::os::raw::c_char,\n");
        PUT(b, "        }\n\n");
    }
    PUT(b,
        "        /// The C function type of every wrapper of this op kind (`rt::<kernel>_b<width>`);\n"
        "        /// `params` points to ");
    put_str(b, s->variant ? "a `Params`" : "nothing (the op has no op_params)");
    PUT(b, ", `extra` to the op's side inputs or is null.\n"
           "        /// Its parameters: `stream`");
    for (size_t i = 0; i < s->n_inputs + s->n_outputs; i++) {
        bool in = i < s->n_inputs;
        PUT(b, ", `");
        put_rdoc(b, in ? s->inputs[i].name : s->outputs[i - s->n_inputs].name);
        put_str(b, in && s->inputs[i].variadic ? "` (pointers and their count)" : "`");
    }
    PUT(b, ", `params`, `extra`.\n"
           "        pub type Kernel = super::super::");
    put_shape(b, "Kernel", s);
    PUT(b, ";\n\n");
    if (s->variant)
        emit_params_eq(b, p, op, tag);
    emit_op_call(b, p, op);
    PUT(b, "    }\n");
}

static void emit_ops(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/// The C interface of each op kind: its parameter struct and its function type; the\n"
           "/// byte-width wrappers themselves are `rt::<kernel>_b<width>` (the runtime's).\n"
           "pub mod ops {\n");
    size_t tag = 0; /* OpParams' variants before ops[i] */
    for (size_t i = 0; i < p->n_ops; i++) {
        if (i)
            fkcg_buf_putc(b, '\n');
        emit_op_module(b, p, &p->ops[i], tag);
        tag += op_has_params(p, &p->ops[i]);
    }
    PUT(b, "}\n\n");
}

/* ops::<op>::call: KernelRef::call for one op kind, reached through the table of `call`
 * (issue 27: one small function per op kind, not one match of as many arms over the pair
 * (KernelRef, OpParams), whose type and borrow checking grew faster than the op kinds). */
static void emit_op_call(fkcg_buf *b, const fkcg_plan *p, const fkcg_plan_op *op)
{
    const fkcg_section *s = SIG(p, op);
    fkcg_buf_printf(
        b,
        "        // `KernelRef::call` for this op kind (see there): None unless `k` is its\n"
        "        // wrapper and `a.params` its variant.\n"
        "        pub(in super::super) unsafe fn call(k: &super::super::KernelRef, "
        "a: &super::super::CallArgs<'_>)\n"
        "            -> Option<super::super::rt::fkc_status> {\n"
        "            // SAFETY: variant %zu of KernelRef holds a Kernel.\n"
        "            let f: Kernel = unsafe { super::super::wrapper_of(k, %zu)? };\n",
        (size_t)(op - p->ops), (size_t)(op - p->ops));
    if (s->variant) {
        put_str(b, s->n_fields
                       ? "            let v = variant(a.params?)?;\n            let c = Params {"
                       : "            variant(a.params?)?;\n            let c = Params {");
        for (size_t k = 0; k < s->n_fields; k++) {
            bool vec;
            fkcg_kind_lookup(s->fields[k].kind, &vec);
            put_str(b, k ? ",\n                " : "\n                ");
            put_rident(b, s->fields[k].name);
            if (vec) {
                fkcg_buf_printf(b, ": v.%zu.as_ptr(),\n                ", k + 1);
                put_rident_suffixed(b, s->fields[k].name, "_len");
                fkcg_buf_printf(b, ": v.%zu.len()", k + 1);
            } else {
                fkcg_buf_printf(b, fkcg_field_is_enum(&s->fields[k]) ? ": v.%zu as i32" : ": v.%zu",
                                k + 1);
            }
        }
        put_str(b, s->n_fields ? ",\n            };\n" : " unused: 0 };\n");
    }
    PUT(b, "            unsafe { super::super::");
    put_shape(b, "call", s);
    put_str(b, s->variant ? "(f, a, &c as *const Params as *const ::core::ffi::c_void) }\n"
                          : "(f, a, ::core::ptr::null()) }\n");
    PUT(b, "        }\n");
}

static void emit_kernel_ref(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/// A kernel reference: a byte-width wrapper of the runtime, by op kind.\n"
           "#[allow(non_camel_case_types)]\n#[derive(Clone, Copy)]\n");
    /* #[repr(u32)]: its tag is the op kind's value (every op kind has its variant, in order),
     * so op_kind() is no match of one arm per op kind (issue 27); ops::<op>::call reads the
     * function pointer as laid out. An enum of no variant can have no repr. */
    put_str(b, p->n_ops ? "#[repr(u32)]\npub enum KernelRef {\n" : "pub enum KernelRef {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        put_doc_line(b, "    ", "A wrapper of op kind ", p->ops[i].name);
        PUT(b, "    ");
        put_rident(b, p->ops[i].name);
        PUT(b, "(ops::");
        put_rident(b, p->ops[i].snake);
        PUT(b, "::Kernel),\n");
    }
    PUT(b, "}\n\nimpl KernelRef {\n    /// The op kind of the wrapper.\n"
           "    pub fn op_kind(&self) -> OpKind {\n");
    if (p->n_ops)
        PUT(b, "        // SAFETY: the tag of a KernelRef is its op kind's value (variant i is op\n"
               "        // kind i), a valid OpKind (#[repr(u32)] both).\n"
               "        unsafe { ::core::mem::transmute::<u32, OpKind>(tag(self)) }\n");
    else
        PUT(b, "        match *self {}\n");
    PUT(b,
        "    }\n\n"
        "    /// Calls the wrapper: `params` is lent to it as the op's C params struct. None\n"
        "    /// (and no call) when `params` is not this op kind's variant or the numbers of\n"
        "    /// inputs and outputs differ from the contract's; else the wrapper's status.\n"
        "    ///\n    /// # Safety\n"
        "    /// `stream`, the tensors and `extra` must be what the C wrapper accepts: valid\n"
        "    /// pointers to live runtime objects (see fkc_runtime.h); `extra` the op's side\n"
        "    /// inputs (fkc_kernels.h: `fkc_<op>_extra`), or null for an op without any.\n"
        "    #[allow(unused_unsafe)] // the inner block: needed from edition 2024, unused before\n"
        "    pub unsafe fn call(\n        &self,\n        stream: *mut rt::fkc_stream,\n"
        "        inputs: &[*const rt::fkc_tensor],\n        outputs: &[*mut rt::fkc_tensor],\n"
        "        params: Option<&OpParams>,\n        extra: *const ::core::ffi::c_void,\n"
        "    ) -> Option<rt::fkc_status> {\n");
    if (p->n_ops == 0) {
        PUT(b, "        match *self {}\n    }\n}\n\n");
    } else {
        PUT(b,
            "        type Call = unsafe fn(&KernelRef, &CallArgs<'_>) -> Option<rt::fkc_status>;\n");
        fkcg_buf_printf(b,
                        "        /// ops::<op>::call, by op kind value.\n"
                        "        static CALLS: [Call; %zu] = [\n",
                        p->n_ops);
        for (size_t i = 0; i < p->n_ops; i++) {
            PUT(b, "            ops::");
            put_rident(b, p->ops[i].snake);
            PUT(b, "::call,\n");
        }
        PUT(b, "        ];\n"
               "        let a = CallArgs { stream, inputs, outputs, params, extra };\n"
               "        unsafe { CALLS[self.op_kind() as usize](self, &a) }\n"
               "    }\n}\n\n");
    }
    PUT(b, "impl ::core::fmt::Debug for KernelRef {\n"
           "    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {\n"
           "        write!(f, \"KernelRef::{}\", self.op_kind().name())\n    }\n}\n\n");
}

static bool expr_uses(const fkcg_expr *e, fkcg_expr_kind kind)
{
    return e && (e->kind == kind || expr_uses(e->lhs, kind) || expr_uses(e->rhs, kind));
}

/* The index of field `name` in s, or s->n_fields. */
static size_t field_index(const fkcg_section *s, const char *name)
{
    size_t k = 0;
    while (k < s->n_fields && (!name || strcmp(s->fields[k].name, name) != 0))
        k++;
    return k;
}

/* A field as the match binding p<k> of its index in the section (ctx). */
static void put_field_f64(fkcg_buf *b, const char *name, const void *ctx)
{
    fkcg_buf_printf(b, "*p%zu as f64", field_index(ctx, name));
}

/* A tensor term over the tensor-cost function's argument t (the crate's CostTensor). */
static void put_tensor_f64(fkcg_buf *b, const fkcg_expr *e, const void *ctx)
{
    (void)ctx;
    if (e->kind == FKCG_EXPR_TENSOR_DIM)
        fkcg_buf_printf(b, "t[%d].dim(%lld)", e->slot, (long long)e->axis);
    else
        fkcg_buf_printf(b, "t[%d].%s()", e->slot, e->kind == FKCG_EXPR_TENSOR_N ? "n" : "bytes");
}

/* The expression in f64 arithmetic, without parentheses around the whole (rustc's
 * unused_parens). */
static void put_expr(fkcg_buf *b, const fkcg_section *s, const fkcg_expr *e)
{
    const fkcg_expr_style rust_f64 = {".0", "n as f64", "dtype_bytes as f64", put_field_f64,
                                      s,    true,       put_tensor_f64};
    fkcg_expr_write(e, b, &rust_f64);
}

/* Whether e names field `name` (its depth is bounded by the checks). */
static bool expr_names(const fkcg_expr *e, const char *name)
{
    return e && ((e->kind == FKCG_EXPR_FIELD && e->field && !strcmp(e->field, name)) ||
                 expr_names(e->lhs, name) || expr_names(e->rhs, name));
}

/* The fields an expression names, bound as p<k> in the match pattern. */
static void put_field_bindings(fkcg_buf *b, const fkcg_section *s, const fkcg_expr *e)
{
    bool first = true;
    for (size_t k = 0; k < s->n_fields; k++) {
        if (!expr_names(e, s->fields[k].name))
            continue;
        put_str(b, first ? " " : ", ");
        put_rident(b, s->fields[k].name);
        fkcg_buf_printf(b, ": p%zu", k);
        first = false;
    }
    PUT(b, ", .. }");
}

/* A cost function's body and closing brace: the expression, or, when it reads op params
 * (uses_fields), a match that binds them (NaN without them). */
static void put_cost_body(fkcg_buf *b, const fkcg_section *s, const fkcg_expr *e, bool uses_fields)
{
    if (uses_fields) {
        PUT(b, "        match params {\n            Some(OpParams::");
        put_rident(b, s->variant);
        PUT(b, " {");
        put_field_bindings(b, s, e);
        PUT(b, ") => ");
        put_expr(b, s, e);
        PUT(b, ",\n            _ => f64::NAN,\n        }\n");
    } else {
        PUT(b, "        ");
        put_expr(b, s, e);
        fkcg_buf_putc(b, '\n');
    }
    PUT(b, "    }\n");
}

static void emit_cost_fn(fkcg_buf *b, const fkcg_section *s, size_t sec, const char *what,
                         const fkcg_expr *e, const char *src)
{
    bool n = expr_uses(e, FKCG_EXPR_N), db = expr_uses(e, FKCG_EXPR_DTYPE_BYTES);
    bool f = expr_uses(e, FKCG_EXPR_FIELD);
    fkcg_buf_printf(b, "    // %s = ", what);
    put_rcomment(b, src);
    fkcg_buf_printf(b,
                    "\n    fn cost_%zu_%s(%sn: u64, %sdtype_bytes: u64, "
                    "%sparams: Option<&OpParams>) -> f64 {\n",
                    sec, what, n ? "" : "_", db ? "" : "_", f ? "" : "_");
    put_cost_body(b, s, e, f);
}

static void emit_cost_fns(fkcg_render *r, size_t sec)
{
    const fkcg_section *s = r->p->secs[sec].s;
    if (s->cost.flops && !fkcg_expr_uses_tensors(s->cost.flops))
        emit_cost_fn(r->b, s, sec, "flops", s->cost.flops, s->cost.flops_src);
    if (s->cost.bytes_moved && !fkcg_expr_uses_tensors(s->cost.bytes_moved))
        emit_cost_fn(r->b, s, sec, "bytes_moved", s->cost.bytes_moved, s->cost.bytes_moved_src);
}

/* One tensor-term cost of a section: pub fn <kernel>_<what>(t, params) in mod tensor_costs. */
static void emit_tensor_cost(fkcg_buf *b, const fkcg_section *s, const char *what,
                             const fkcg_expr *e, const char *src)
{
    bool f = expr_uses(e, FKCG_EXPR_FIELD);
    fkcg_buf_printf(b, "    /// `%s`: %s = `", s->kernel, what);
    put_rdoc(b, src);
    PUT(b, "`\n    pub fn ");
    put_rident(b, s->kernel);
    fkcg_buf_printf(b,
                    "_%s(t: &[rt::tables::CostTensor<'_>], %sparams: Option<&OpParams>) -> f64 {\n"
                    "        if t.len() < %zu {\n            return f64::NAN;\n        }\n",
                    what, f ? "" : "_", s->n_inputs + s->n_outputs);
    put_cost_body(b, s, e, f);
}

/* The costs over tensor terms, by kernel, in mod tensor_costs (none without them). */
static void emit_tensor_costs(fkcg_buf *b, const fkcg_plan *p)
{
    bool any = false;
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->secs[i].s;
        if (!fkcg_expr_uses_tensors(s->cost.flops) && !fkcg_expr_uses_tensors(s->cost.bytes_moved))
            continue;
        if (!any)
            PUT(b,
                "/// The costs over tensors (cost.flops / bytes_moved naming n(X), dim(X, k),\n"
                "/// bytes(X)), by kernel: `t` is the kernel's inputs then its outputs, in\n"
                "/// signature order; NaN when it is short, or when the expression names a field\n"
                "/// and `params` is None or of another op. The binding's Cost has None for them.\n"
                "pub mod tensor_costs {\n    use super::*;\n\n");
        any = true;
        if (fkcg_expr_uses_tensors(s->cost.flops))
            emit_tensor_cost(b, s, "flops", s->cost.flops, s->cost.flops_src);
        if (fkcg_expr_uses_tensors(s->cost.bytes_moved))
            emit_tensor_cost(b, s, "bytes_moved", s->cost.bytes_moved, s->cost.bytes_moved_src);
    }
    if (any)
        PUT(b, "}\n\n");
}


/* ---- the bindings as plain data -------------------------------------------------------- */

/* A set of byte strings, each with the index of its first insertion (open addressing, FNV-1a):
 * the distinct keys and wrappers of the rows, found in time linear in the rows. */
typedef struct interned {
    char *bytes;
    size_t len, index;
} interned;

typedef struct interner {
    interned *slot;
    size_t cap, n;
} interner;

static size_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return (size_t)h;
}

static void intern_grow(interner *in)
{
    interner big = {fkcg_xcalloc(in->cap ? in->cap * 2 : 64, sizeof(interned)),
                    in->cap ? in->cap * 2 : 64, in->n};
    for (size_t i = 0; i < in->cap; i++) {
        if (!in->slot[i].bytes)
            continue;
        size_t j = fnv1a(in->slot[i].bytes, in->slot[i].len) & (big.cap - 1);
        while (big.slot[j].bytes)
            j = (j + 1) & (big.cap - 1);
        big.slot[j] = in->slot[i];
    }
    free(in->slot);
    *in = big;
}

/* The index of bytes s[0..n) in the set, inserting it (as index in->n) when new; *added
 * says which. */
static size_t intern(interner *in, const char *s, size_t n, bool *added)
{
    if (2 * (in->n + 1) > in->cap)
        intern_grow(in);
    size_t j = fnv1a(s, n) & (in->cap - 1);
    for (; in->slot[j].bytes; j = (j + 1) & (in->cap - 1))
        if (in->slot[j].len == n && memcmp(in->slot[j].bytes, s, n) == 0) {
            *added = false;
            return in->slot[j].index;
        }
    char *copy = fkcg_xcalloc(n + 1, 1);
    memcpy(copy, s, n);
    in->slot[j] = (interned){copy, n, in->n};
    *added = true;
    return in->n++;
}

static void intern_free(interner *in)
{
    for (size_t i = 0; i < in->cap; i++)
        free(in->slot[i].bytes);
    free(in->slot);
}

/* Where each row's key starts in KEY_DTYPES and which WRAPPERS row it calls; the first row
 * of each distinct wrapper, in WRAPPERS order; the pool's length. */
typedef struct row_index {
    size_t lo, hi; /* the rows indexed: key[i - lo], wrapper[i - lo] */
    size_t *key, *wrapper, *wrapper_row;
    size_t n_pool, n_wrappers;
} row_index;

/* The rows [lo, hi) (a shard's; all of them unsharded), indexed from lo. */
static void index_rows(const fkcg_plan *p, size_t lo, size_t hi, row_index *x)
{
    interner keys = {0}, wrappers = {0};
    size_t *pool_at = fkcg_xcalloc(hi - lo + 1, sizeof *pool_at); /* by distinct key */
    x->key = fkcg_xcalloc(hi - lo + 1, sizeof *x->key);
    x->wrapper = fkcg_xcalloc(hi - lo + 1, sizeof *x->wrapper);
    x->wrapper_row = fkcg_xcalloc(hi - lo + 1, sizeof *x->wrapper_row);
    x->lo = lo;
    x->hi = hi;
    x->n_pool = 0;
    fkcg_buf name;
    fkcg_buf_init(&name);
    for (size_t i = lo; i < hi; i++) {
        const fkcg_binding *b = p->rows[i].b;
        int code[FKCG_KEY_MAX + 1];
        uint32_t n = fkcg_binding_n_key(b);
        for (uint32_t k = 0; k < n; k++)
            code[k] = fkcg_binding_slot(b, k);
        bool added;
        size_t at = intern(&keys, (const char *)code, n * sizeof code[0], &added);
        if (added) { /* a new key: its run starts at the pool's end */
            pool_at[at] = x->n_pool;
            x->n_pool += n;
        }
        x->key[i - lo] = pool_at[at];
        name.len = 0; /* one wrapper of one op kind: its name is a function of that op's type */
        fkcg_buf_printf(&name, "%zu:%s", p->rows[i].op, fkcg_nz(b->wrapper));
        x->wrapper[i - lo] = intern(&wrappers, name.data, name.len, &added);
        if (added)
            x->wrapper_row[x->wrapper[i - lo]] = i;
    }
    x->n_wrappers = wrappers.n;
    fkcg_buf_free(&name);
    free(pool_at);
    intern_free(&keys);
    intern_free(&wrappers);
}

static void row_index_free(row_index *x)
{
    free(x->key);
    free(x->wrapper);
    free(x->wrapper_row);
}

/* The comment of binding row i: "[i] kernel DTYPE ...". */
static void put_row_comment(fkcg_buf *b, const fkcg_plan *p, size_t i)
{
    const fkcg_plan_row *row = &p->rows[i];
    fkcg_buf_printf(b, " // [%zu] ", i);
    put_rcomment(b, p->secs[row->sec].s->kernel);
    for (uint32_t k = 0; k < fkcg_binding_n_key(row->b); k++) {
        const fkcg_dtype_info *d = fkcg_table_dtype(p->t, fkcg_binding_slot(row->b, k));
        fkcg_buf_putc(b, ' ');
        put_rcomment(b, d ? d->name : "?");
    }
    fkcg_buf_putc(b, '\n');
}

/* A shard's name suffix of its binding tables ("_<k>"), or "" unsharded. */
static void put_part(fkcg_buf *b, const fkcg_render *r)
{
    if (r->window)
        fkcg_buf_printf(b, "_%zu", r->window->part);
}

/* Whether section sec is printed through r (its window's, or every one unsharded). */
static bool in_part(const fkcg_render *r, size_t sec)
{
    return !r->window || r->window->sec_part[sec] == r->window->part;
}

/* In mod data: the bindings as rows of plain types (rt::tables::BindingRow: integers that index
 * KERNELS, KEY_DTYPES and WRAPPERS) and SYMBOLS, one string literal a row; no macro, no
 * constructor call per row, so rustc's cost stays a small constant per row. Sharded (r's
 * window), a shard's rows [x->lo, x->hi), in tables of its own (KEY_DTYPES_<k>, ...). */
static void emit_binding_rows(fkcg_render *r, const row_index *x)
{
    const fkcg_plan *p = r->p;
    fkcg_buf *b = r->b;
    PUT(b, "\n    /// The dtypes of the bindings' keys: each key is a run of them "
           "(BindingRow::key, n_key).\n"
           "    pub(super) static KEY_DTYPES");
    put_part(b, r);
    fkcg_buf_printf(b, ": [DType; %zu] = [\n", x->n_pool);
    for (size_t i = x->lo, at = 0; i < x->hi; i++) {
        if (x->key[i - x->lo] != at)
            continue; /* a key met before: its run is in the pool already */
        const fkcg_binding *bd = p->rows[i].b;
        PUT(b, "        ");
        for (uint32_t k = 0; k < fkcg_binding_n_key(bd); k++) {
            const fkcg_dtype_info *d = fkcg_table_dtype(p->t, fkcg_binding_slot(bd, k));
            put_vocab(b, FKCG_EN_DTYPE, d ? d->name : NULL);
            PUT(b, ", ");
        }
        fkcg_buf_printf(b, "// [%zu]\n", at);
        at += fkcg_binding_n_key(bd);
    }
    PUT(b, "    ];\n    /// The wrappers the bindings call (BindingRow::wrapper): name, "
           "reference.\n"
           "    pub(super) static WRAPPERS");
    put_part(b, r);
    fkcg_buf_printf(b, ": [(&str, KernelRef); %zu] = [\n", x->n_wrappers);
    for (size_t w = 0; w < x->n_wrappers; w++) {
        PUT(b, "        (");
        put_wrapper(r, b, x->wrapper_row[w], false);
        PUT(b, ", ");
        put_wrapper(r, b, x->wrapper_row[w], true);
        fkcg_buf_printf(b, "), // [%zu]\n", w);
    }
    PUT(b, "    ];\n    /// Each binding's symbol (`<entry_point>_<suffix>`), in table "
           "order.\n    pub(super) static SYMBOLS");
    put_part(b, r);
    fkcg_buf_printf(b, ": [&str; %zu] = [\n", x->hi - x->lo);
    for (size_t i = x->lo; i < x->hi; i++) {
        PUT(b, "        ");
        put_rstr(b, p->rows[i].b->symbol);
        PUT(b, ",\n");
    }
    size_t *prec_base = fkcg_xcalloc(p->t->n_sections + 1, sizeof *prec_base), n_prec = 0;
    for (size_t s = 0; s < p->t->n_sections; s++) {
        prec_base[s] = n_prec;
        n_prec += in_part(r, s) ? p->t->sections[s]->n_precision_by : 0;
    }
    PUT(b, "    ];\n    /// The bindings' own precisions (precision_by_dtype), by section "
           "(BindingRow::precision - 1).\n"
           "    pub(super) static PRECISIONS");
    put_part(b, r);
    fkcg_buf_printf(b, ": [&Precision; %zu] = [\n", n_prec);
    for (size_t s = 0; s < p->t->n_sections; s++)
        for (size_t k = 0; in_part(r, s) && k < p->t->sections[s]->n_precision_by; k++) {
            PUT(b, "        &");
            fkcg_render_name(r, b, FKCG_T_PRECISION_BY, s, FKCG_NONE);
            fkcg_buf_printf(b, "[%zu],\n", k);
        }
    PUT(b,
        "    ];\n    /// BINDINGS as plain data, in table order: [kernel, key, n_key, wrapper, width,\n"
        "    /// precision] (rt::tables::BindingRow).\n"
        "    pub(super) static BINDING_ROWS");
    put_part(b, r);
    fkcg_buf_printf(b, ": [rt::tables::BindingRow; %zu] = [\n", x->hi - x->lo);
    for (size_t i = x->lo; i < x->hi; i++) {
        const fkcg_plan_row *row = &p->rows[i];
        fkcg_buf_printf(b, "        [%zu, %zu, %u, %zu, %u, %zu],", row->sec, x->key[i - x->lo],
                        (unsigned)fkcg_binding_n_key(row->b), x->wrapper[i - x->lo],
                        (unsigned)row->b->byte_width,
                        row->b->precision_by ? prec_base[row->sec] + row->b->precision_by : 0);
        put_row_comment(b, p, i);
    }
    PUT(b, "    ];\n");
    free(prec_base);
}

/* In mod data: BINDINGS' builder, from the rows (sharded: every shard's with rows, in order). */
static void emit_bindings_fn(fkcg_buf *b, const fkcg_shards *sp)
{
    if (!sp) {
        PUT(b, "\n    pub(super) fn bindings() -> Vec<Binding> {\n"
               "        rt::tables::bindings(&BINDING_ROWS, &SYMBOLS, &KERNELS, &KEY_DTYPES, "
               "&WRAPPERS,\n                             &PRECISIONS)\n    }\n");
        return;
    }
    PUT(b, "\n    pub(super) fn bindings() -> Vec<Binding> {\n"
           "        let mut rows = Vec::with_capacity(BINDINGS_LEN);\n");
    for (size_t k = 0; k < sp->n; k++) {
        if (sp->w[k].row_lo == sp->w[k].row_hi)
            continue;
        fkcg_buf_printf(b,
                        "        rows.extend(rt::tables::bindings(&BINDING_ROWS_%zu, &SYMBOLS_%zu, "
                        "&KERNELS, &KEY_DTYPES_%zu,\n"
                        "                                         &WRAPPERS_%zu, "
                        "&PRECISIONS_%zu));\n",
                        k, k, k, k, k);
    }
    PUT(b, "        rows\n    }\n");
}

/* In mod data: each link registry's rows, its bindings' indices by symbol, and its builder. */
static void emit_link_rows(fkcg_render *r)
{
    const fkcg_plan *p = r->p;
    fkcg_buf *b = r->b;
    for (size_t k = 0; k < p->n_registries; k++) {
        size_t n = fkcg_render_links_of(p, k);
        const size_t *links = p->reg_links + p->reg_first[k];
        PUT(b, "\n    /// Link registry `");
        put_rdoc(b, p->registries[k]);
        fkcg_buf_printf(b,
                        "`: its rows of BINDINGS, by symbol (byte order).\n"
                        "    pub(super) static LINKS_%zu: [u32; %zu] = [",
                        k, n);
        for (size_t i = 0; i < n; i++)
            fkcg_buf_printf(b, "%s%zu,", i % 16 ? " " : "\n        ", links[i]);
        fkcg_buf_printf(b,
                        "\n    ];\n    pub(super) fn links_%zu() -> Vec<LinkEntry> {\n"
                        "        rt::tables::links(",
                        k);
        put_rstr(b, p->registries[k]);
        fkcg_buf_printf(b, ", &BINDINGS, &LINKS_%zu)\n    }\n", k);
    }
    PUT(b, "\n    pub(super) fn registries() -> Vec<(&'static str, &'static [LinkEntry])> {\n"
           "        vec![\n");
    for (size_t k = 0; k < p->n_registries; k++) {
        const char *reg = p->registries[k];
        char *mod = registry_module((const char *const *)p->registries, p->n_registries, k);
        PUT(b, "            (");
        put_rstr(b, reg);
        PUT(b, ", &super::"); /* data's own names would shadow a registry's */
        if (mod)
            fkcg_buf_printf(b, "%s::", mod);
        put_rident(b, registry_static(reg));
        PUT(b, "[..]),\n");
        free(mod);
    }
    PUT(b, "        ]\n    }\n");
}

/* The tables: each section's data and the bindings' rows in mod data, then the whole plan's
 * tables; BINDINGS, the link registries and LINK_REGISTRIES are built from the rows on first
 * use (rt::tables::Lazy). */
/* One part's sections' data and its binding rows, in mod data: the whole plan's (r's window
 * NULL), or a shard's. */
static void emit_part_data(fkcg_render *r)
{
    const fkcg_plan *p = r->p;
    const fkcg_window *w = r->window;
    row_index x;
    index_rows(p, w ? w->row_lo : 0, w ? w->row_hi : p->n_rows, &x);
    for (size_t i = 0, first = 1; i < p->t->n_sections; i++) {
        if (!in_part(r, i))
            continue;
        if (!first)
            fkcg_buf_putc(r->b, '\n');
        first = 0;
        fkcg_render_section(r, i, emit_cost_fns);
    }
    if (!w || w->row_lo < w->row_hi)
        emit_binding_rows(r, &x);
    row_index_free(&x);
}

/* The file name of part k (k >= 1) of a sharded module: @_bindings_<k>.rs. */
static void put_part_file(fkcg_buf *b, const fkcg_plan *p, size_t k)
{
    fkcg_buf_printf(b, "%s_bindings_%zu.rs", p->prefix, k);
}

static void emit_tables(fkcg_render *r, const fkcg_shards *sp)
{
    const fkcg_plan *p = r->p;
    fkcg_buf *b = r->b;
    PUT(b, "/// The tables' parts, one group per kernel section (by index in KERNELS), then the\n"
           "/// bindings as plain rows.\nmod data {\n    use super::*;\n\n");
    if (sp) {
        fkcg_buf_printf(b,
                        "    // gen --shards %zu: shard 0's sections and rows here, shard k's in "
                        "the part\n    // %s_bindings_<k>.rs beside this file (included below).\n"
                        "    const BINDINGS_LEN: usize = %zu;\n\n",
                        sp->n, p->prefix, p->n_rows);
        r->window = &sp->w[0];
    }
    emit_part_data(r);
    r->window = NULL;
    for (size_t k = 1; sp && k < sp->n; k++) {
        PUT(b, "\n    include!(\"");
        put_part_file(b, p, k);
        PUT(b, "\");\n");
    }
    emit_bindings_fn(b, sp);
    emit_link_rows(r);
    r->same = sp ? (const size_t *const *)sp->same : NULL; /* KERNELS and SHARED_COST name the
                                                              shards' tables */
    PUT(b, "}\n\n/// The unknown-cost sentinel (docs/cost.md).\n"
           "pub static UNKNOWN_COST: Cost = Cost::UNKNOWN;\n\n");
    emit_tensor_costs(b, p);
    fkcg_render_table(r, FKCG_T_PROVIDERS, FKCG_NONE);
    fkcg_render_table(r, FKCG_T_KERNELS, FKCG_NONE);
    fkcg_buf_printf(b,
                    "/// %s Built from data::BINDING_ROWS on first use (%zu rows).\n"
                    "pub static BINDINGS: rt::tables::Lazy<Vec<Binding>> = "
                    "rt::tables::Lazy::new(data::bindings);\n\n",
                    table_doc[FKCG_T_BINDINGS], p->n_rows);
    for (size_t k = 0; k < p->n_registries; k++) {
        const char *reg = p->registries[k];
        char *mod = registry_module((const char *const *)p->registries, p->n_registries, k);
        if (mod) { /* the path is fkcg_is_c_path's: nothing to escape */
            PUT(b, "/// Link registry `");
            put_rdoc(b, reg);
            fkcg_buf_printf(b,
                            "` in a module of its own (another registry's static has its "
                            "name).\npub mod %s {\n    use super::*;\n\n",
                            mod);
        }
        PUT(b, "/// Link registry `");
        put_rdoc(b, reg);
        fkcg_buf_printf(b,
                        "`: every `<entry_point>_<suffix>` symbol -> its\n/// binding, sorted "
                        "by symbol (byte order); %zu rows, built on first use.\npub static ",
                        fkcg_render_links_of(p, k));
        put_rident(b, registry_static(reg));
        fkcg_buf_printf(b,
                        ": rt::tables::Lazy<Vec<LinkEntry>> = "
                        "rt::tables::Lazy::new(%sdata::links_%zu);\n",
                        mod ? "super::" : "", k);
        if (mod)
            PUT(b, "}\n");
        fkcg_buf_putc(b, '\n');
        free(mod);
    }
    PUT(b, "/// Every link registry: its path and its rows, sorted by path; built on first use.\n"
           "pub static LINK_REGISTRIES: rt::tables::Lazy<Vec<(&str, &[LinkEntry])>> =\n"
           "    rt::tables::Lazy::new(data::registries);\n\n");
    fkcg_render_table(r, FKCG_T_SHARED_COST, FKCG_NONE);
    fkcg_render_table(r, FKCG_T_OP_NAMES, FKCG_NONE);
    fkcg_render_table(r, FKCG_T_OP_ROWS, FKCG_NONE);
}

/* The module's functions: one line each over rt::tables' loops. */
static const char functions[] =
    "/// Registers every binding with one call each, in table order; stops at the first\n"
    "/// error and returns it.\n"
    "pub fn register_all<R: Registry<Set>>(registry: &mut R) -> Result<(), R::Error> {\n"
    "    rt::tables::register_all(&BINDINGS, registry)\n}\n\n"
    "/// The binding of (op, [in, out], backend), the first in table order; None when no\n"
    "/// binding has that two-slot key.\n"
    "pub fn dispatch(op: OpKind, input: DType, output: DType, backend: Backend)\n"
    "    -> Option<&'static Binding> {\n"
    "    rt::tables::find(&BINDINGS, OP_ROWS[op as usize], op, &[input, output], backend, None)\n"
    "}\n\n"
    "/// The binding of the whole key (op, key, backend), the first in table order; None when\n"
    "/// no binding has that key (another length, any other slot).\n"
    "pub fn dispatch_key(op: OpKind, key: &[DType], backend: Backend) -> Option<&'static Binding> {\n"
    "    rt::tables::find(&BINDINGS, OP_ROWS[op as usize], op, key, backend, None)\n"
    "}\n\n"
    "/// The binding of the whole key (op, key, backend) + kernel_source.\n"
    "pub fn binding_lookup(op: OpKind, key: &[DType], backend: Backend, kernel_source: &str)\n"
    "    -> Option<&'static Binding> {\n"
    "    rt::tables::find(&BINDINGS, OP_ROWS[op as usize], op, key, backend, Some(kernel_source))\n"
    "}\n\n"
    "/// Binary search of one link registry (sorted by symbol) for a symbol.\n"
    "pub fn link_lookup_in(registry: &'static [LinkEntry], symbol: &str)\n"
    "    -> Option<&'static LinkEntry> {\n"
    "    rt::tables::link_lookup_in(registry, symbol)\n}\n\n"
    "/// A symbol's row in any link registry; None when no registry holds it.\n"
    "pub fn link_lookup(symbol: &str) -> Option<&'static LinkEntry> {\n"
    "    LINK_REGISTRIES.iter().find_map(|r| link_lookup_in(r.1, symbol))\n}\n\n"
    "/// The shared cost of an op kind (docs/cost.md); None when it has none.\n"
    "pub fn op_shared_cost(op: OpKind) -> Option<&'static Cost> {\n"
    "    rt::tables::shared_cost(&SHARED_COST, op)\n}\n\n"
    "/// Upgrades every binding of `backend` whose cost is the unknown sentinel to its op\n"
    "/// kind's shared cost, when it has one; works on a caller's copy of the table (e.g.\n"
    "/// `BINDINGS.to_vec()`). Returns the number of bindings upgraded.\n"
    "pub fn fill_unset_cost_for_backend(bindings: &mut [Binding], backend: Backend) -> usize {\n"
    "    rt::tables::fill_cost(bindings, backend, &SHARED_COST)\n}\n";

/* The optional inputs (issue 22), as the C back end's @_optional_inputs: only when a contract
 * has one (the seed's module stays as it was). */
static void emit_optional(fkcg_buf *b, const fkcg_plan *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->t->n_sections; i++)
        for (size_t k = 0; k < p->t->sections[i]->n_inputs; k++)
            n += p->t->sections[i]->inputs[k].optional;
    if (!n)
        return;
    PUT(b,
        "\n/// An optional input (accept.inputs[].optional): a wrapper gets a null pointer for an\n"
        "/// absent one. A call without it is keyed with `absent_key` in its key slot, or, when\n"
        "/// `absent_tie` is set (same_dtype_as), with the dtype of that key slot; `slot` None:\n"
        "/// the key does not name it (`absent_key` is then None, as with a tie).\n"
        "#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct OptionalInput {\n"
        "    /// Its section: `KERNELS[kernel]`.\n    pub kernel: usize,\n"
        "    /// The op kind.\n    pub op: OpKind,\n"
        "    /// Its place among the kernel's inputs.\n    pub input: usize,\n"
        "    /// The input's name.\n    pub name: &'static str,\n"
        "    /// Its slot in the key.\n    pub slot: Option<usize>,\n"
        "    /// What that slot holds in a call without it.\n    pub absent_key: Option<DType>,\n"
        "    /// Or the slot whose dtype it holds then.\n    pub absent_tie: Option<usize>,\n"
        "}\n\n/// The optional inputs, by kernel.\n");
    fkcg_buf_printf(b, "pub static OPTIONAL_INPUTS: [OptionalInput; %zu] = [\n", n);
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->t->sections[i];
        for (size_t k = 0; k < s->n_inputs; k++) {
            const fkcg_input *in = &s->inputs[k];
            if (!in->optional)
                continue;
            int slot = -1, tie = -1;
            for (size_t j = 0; j < s->n_key; j++) {
                const char *nm = (size_t)s->key[j] < s->n_inputs
                                     ? s->inputs[s->key[j]].name
                                     : s->outputs[(size_t)s->key[j] - s->n_inputs].name;
                if (s->key[j] == (int)k)
                    slot = (int)j;
                if (in->same_dtype_as && !strcmp(nm, in->same_dtype_as))
                    tie = (int)j;
            }
            if (slot < 0)
                tie = -1;
            fkcg_buf_printf(b, "    OptionalInput { kernel: %zu, op: OpKind::", i);
            put_rident(b, p->ops[p->secs[i].op].name);
            fkcg_buf_printf(b, ", input: %zu, name: ", k);
            put_rstr(b, in->name);
            if (slot >= 0)
                fkcg_buf_printf(b, ", slot: Some(%d), absent_key: ", slot);
            else
                PUT(b, ", slot: None, absent_key: ");
            const fkcg_dtype_info *d = slot >= 0 && in->absent_key >= 0
                                           ? fkcg_section_dtype(s, in->absent_key)
                                           : NULL;
            if (d) {
                PUT(b, "Some(");
                put_vocab(b, FKCG_EN_DTYPE, d->name);
                PUT(b, ")");
            } else {
                PUT(b, "None");
            }
            if (tie >= 0)
                fkcg_buf_printf(b, ", absent_tie: Some(%d) },\n", tie);
            else
                PUT(b, ", absent_tie: None },\n");
        }
    }
    PUT(b, "];\n");
}

/* The shape-only inputs (issue 22), as the C back end's @_shape_only_inputs. */
static void emit_shape_only(fkcg_buf *b, const fkcg_plan *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->t->n_sections; i++)
        for (size_t k = 0; k < p->t->sections[i]->n_inputs; k++)
            n += p->t->sections[i]->inputs[k].shape_only;
    if (!n)
        return;
    PUT(b,
        "\n/// A shape-only input (accept.inputs[].shape_only): the wrapper reads its shape and\n"
        "/// dtype, never its data.\n"
        "#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct ShapeOnlyInput {\n"
        "    /// Its section: `KERNELS[kernel]`.\n    pub kernel: usize,\n"
        "    /// The op kind.\n    pub op: OpKind,\n"
        "    /// Its place among the kernel's inputs.\n    pub input: usize,\n"
        "    /// The input's name.\n    pub name: &'static str,\n"
        "}\n\n/// The shape-only inputs, by kernel.\n");
    fkcg_buf_printf(b, "pub static SHAPE_ONLY_INPUTS: [ShapeOnlyInput; %zu] = [\n", n);
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->t->sections[i];
        for (size_t k = 0; k < s->n_inputs; k++) {
            if (!s->inputs[k].shape_only)
                continue;
            fkcg_buf_printf(b, "    ShapeOnlyInput { kernel: %zu, op: OpKind::", i);
            put_rident(b, p->ops[p->secs[i].op].name);
            fkcg_buf_printf(b, ", input: %zu, name: ", k);
            put_rstr(b, s->inputs[k].name);
            PUT(b, " },\n");
        }
    }
    PUT(b, "];\n");
}

/* The outputs aliasing a named input (issue 22), as the C back end's @_output_aliases. */
static void emit_aliases(fkcg_buf *b, const fkcg_plan *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->t->n_sections; i++)
        for (size_t k = 0; k < p->t->sections[i]->n_outputs; k++)
            n += fkcg_output_in_place(&p->t->sections[i]->outputs[k]) >= 0 ||
                 p->t->sections[i]->outputs[k].out_arg;
    if (!n)
        return;
    PUT(b, "\n/// An output that aliases a named input or is an out= argument (return.outputs[]\n"
           "/// .in_place, .out_arg): pass input `in_place`'s tensor as the output too.\n"
           "#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct OutputAlias {\n"
           "    /// Its section: `KERNELS[kernel]`.\n    pub kernel: usize,\n"
           "    /// The op kind.\n    pub op: OpKind,\n"
           "    /// Its place among the kernel's outputs.\n    pub output: usize,\n"
           "    /// The output's name.\n    pub name: &'static str,\n"
           "    /// The input it is written over (its place).\n    pub in_place: Option<usize>,\n"
           "    /// The caller's out= destination argument.\n    pub out_arg: bool,\n"
           "}\n\n/// The aliased outputs, by kernel.\n");
    fkcg_buf_printf(b, "pub static OUTPUT_ALIASES: [OutputAlias; %zu] = [\n", n);
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->t->sections[i];
        for (size_t k = 0; k < s->n_outputs; k++) {
            const fkcg_output *o = &s->outputs[k];
            if (fkcg_output_in_place(o) < 0 && !o->out_arg)
                continue;
            fkcg_buf_printf(b, "    OutputAlias { kernel: %zu, op: OpKind::", i);
            put_rident(b, p->ops[p->secs[i].op].name);
            fkcg_buf_printf(b, ", output: %zu, name: ", k);
            put_rstr(b, o->name);
            if (fkcg_output_in_place(o) >= 0)
                fkcg_buf_printf(b, ", in_place: Some(%d)", fkcg_output_in_place(o));
            else
                PUT(b, ", in_place: None");
            fkcg_buf_printf(b, ", out_arg: %s },\n", o->out_arg ? "true" : "false");
        }
    }
    PUT(b, "];\n");
}

/* Part k (k >= 1) of a sharded module: shard k's sections' data and binding rows, items of
 * the top's mod data, which include!s it. */
static void emit_rust_part(const fkcg_plan *p, const fkcg_shards *sp, size_t k, fkcg_buf *b)
{
    fkcg_render r;
    fkcg_render_init(&r, b, p, &rust_style, NULL);
    PUT(b, "// ");
    put_part_file(b, p, k);
    PUT(b, " - generated by fkcgen " FKCGEN_VERSION ": part of ");
    fkcg_buf_printf(b, "%s_bindings.rs (gen --shards %zu).\n", p->prefix, sp->n);
    const fkcg_window *w = &sp->w[k];
    if (w->row_lo < w->row_hi)
        fkcg_buf_printf(b, "// Shard %zu: op kinds %zu to %zu, bindings %zu to %zu.\n", k, w->op_lo,
                        w->op_hi - 1, w->row_lo, w->row_hi - 1);
    else
        fkcg_buf_printf(b, "// Shard %zu holds no op kind.\n", k);
    fkcg_buf_printf(
        b,
        "// Do not edit: change the contracts and run `make` (fkcgen gen --lang rust).\n"
        "// %s_bindings.rs include!s it into its mod data; see docs/generated-code.md.\n",
        p->prefix);
    r.window = w;
    emit_part_data(&r);
    fkcg_render_free(&r);
}

/* The module, outs[0], and with shards > 1 (gen --shards) its parts 1 .. shards - 1, outs[k]. */
static void emit_rust_parts(const fkcg_plan *p, size_t shards, fkcg_buf *const outs[])
{
    fkcg_buf *b = outs[0];
    fkcg_shards sp;
    if (shards > 1)
        fkcg_shards_init(&sp, p, shards, NULL);
    fkcg_render r;
    fkcg_render_init(&r, b, p, &rust_style, NULL);
    emit_banner(b, p);
    emit_prologue(b, p);
    emit_op_kinds(b, p);
    emit_op_params(b, p);
    emit_shapes(b, p);
    emit_ops(b, p);
    emit_kernel_ref(b, p);
    emit_tables(&r, shards > 1 ? &sp : NULL);
    put_str(b, functions);
    emit_optional(b, p);
    emit_aliases(b, p);
    emit_shape_only(b, p);
    fkcg_render_free(&r);
    for (size_t k = 1; k < shards; k++)
        emit_rust_part(p, &sp, k, outs[k]);
    if (shards > 1)
        fkcg_shards_free(&sp);
}

static void emit_rust(const fkcg_plan *p, fkcg_buf *const outs[])
{
    emit_rust_parts(p, 1, outs);
}

/* Whether a file `name` that opens with head is a part this back end wrote under that name:
 * its banner ("// NAME - generated by fkcgen ", then the "Do not edit" line in it). */
static bool own_part(const char *name, const char *head)
{
    char want[320];
    int w = snprintf(want, sizeof want, "// %s - generated by fkcgen ", name);
    const char *keep = strstr(head, "\n// Do not edit: change the contracts");
    return w > 0 && (size_t)w < sizeof want && strncmp(head, want, (size_t)w) == 0 && keep;
}

/* ---- checks ---------------------------------------------------------------------------- */

typedef struct rchecker {
    fkcg_diag *d;
} rchecker;

static void report(rchecker *ck, fkcg_loc loc, const char *what, const char *value, const char *why)
{
    fkcg_emit_report(ck->d, loc, what, value, why);
}

#define RUST_WHY "cannot be a Rust name (self, Self, super and crate cannot, even as r#name)"

static void check_rname(rchecker *ck, fkcg_loc loc, const char *what, const char *s)
{
    if (s && fkcg_rust_name_refused(s))
        report(ck, loc, what, s, RUST_WHY);
}

/* An UPPER_SNAKE name: [A-Z][A-Z0-9_]*. */
static bool upper_snake(const char *s)
{
    if (!(*s >= 'A' && *s <= 'Z'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* The static a registry path names: its last segment. */
static const char *registry_static(const char *path)
{
    const char *last = strrchr(path, ':');
    return last ? last + 1 : path;
}

/* A name and the index of what holds it, sorted by (name, index): names shared by two
 * holders become adjacent, and the first holder comes first (a total order). */
typedef struct held {
    const char *name;
    size_t index;
} held;

static int cmp_held(const void *a, const void *b)
{
    const held *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Each link_registry ends in an UPPER_SNAKE name, none of the module's own statics; two
 * registries ending in the same name each go into the module their path names
 * (registry_module), which must then be a name Rust takes, none of the module's own modules,
 * and no other such registry's. */
static void check_registries(rchecker *ck, const fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    const char **regs = fkcg_xcalloc(t->n_providers + 1, sizeof *regs);
    const fkcg_provider **by = fkcg_xcalloc(t->n_providers + 1, sizeof *by);
    size_t n = 0;
    for (size_t i = 0; i < t->n_providers; i++) {
        const fkcg_provider *pr = t->providers[i];
        const char *reg = pr->link_registry;
        const char *name = reg ? registry_static(reg) : NULL;
        if (!reg || !fkcg_is_c_path(reg) || !upper_snake(name) ||
            bsearch(name, own_values, sizeof own_values / sizeof own_values[0],
                    sizeof own_values[0], cmp_name)) {
            report(ck, pr->loc, "link_registry", reg,
                   "must end in the name of a Rust static: "
                   "UPPER_SNAKE_CASE and none of the module's own (" OWN_VALUES ")");
            continue;
        }
        size_t j = 0;
        while (j < n && strcmp(regs[j], reg) != 0)
            j++;
        if (j == n) { /* one registry, named by two files, is one */
            regs[n] = reg;
            by[n++] = pr;
        }
    }
    char **mods = fkcg_xcalloc(n + 1, sizeof *mods);
    for (size_t k = 0; k < n; k++) {
        mods[k] = registry_module(regs, n, k);
        if (!mods[k])
            continue;
        bool snake = *mods[k] != 0;
        for (const char *c = mods[k]; *c; c++)
            snake = snake && ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_');
        const char *why = !*mods[k] ? "names no module (no path before the static) while "
                                      "another registry's static has its name"
                          : !snake  ? "names a module that is not snake_case"
                          : fkcg_rust_name_refused(mods[k]) ? "names a module Rust cannot take"
                          : strcmp(mods[k], "data") == 0 || strcmp(mods[k], "ops") == 0
                              ? "names a module of the generated module's own (data, ops)"
                              : NULL;
        size_t other = k;
        for (size_t j = 0; j < k && !why; j++)
            if (mods[j] && strcmp(mods[j], mods[k]) == 0 &&
                strcmp(registry_static(regs[j]), registry_static(regs[k])) == 0) {
                why = "names the same module and static as another provider's link_registry";
                other = j;
            }
        if (why) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s (the module of a registry is its path with '_' for '::')",
                     why);
            report(ck, by[k]->loc, "link_registry", regs[k], msg);
            if (other != k)
                fkcg_emit_note(ck->d, by[other]->loc, "the other provider is here");
        }
    }
    for (size_t k = 0; k < n; k++)
        free(mods[k]);
    free(mods);
    free(by);
    free(regs);
}

/* The names of one section that become Rust names; its variant is its op kind's. */
static void check_section_names(rchecker *ck, const fkcg_plan *p, size_t i)
{
    const fkcg_section *s = p->t->sections[i];
    const fkcg_plan_op *op = &p->ops[p->secs[i].op];
    const fkcg_section *sig = SIG(p, op);
    check_rname(ck, s->loc, "op_kind", s->op_kind);
    if (op->snake && fkcg_rust_name_refused(op->snake))
        report(ck, s->loc, "op_kind", s->op_kind, "has a snake_case form that " RUST_WHY);
    check_rname(ck, s->loc, "op_params variant", s->variant);
    for (size_t k = 0; k < s->n_inputs; k++)
        check_rname(ck, s->inputs[k].loc, "tensor name", s->inputs[k].name);
    for (size_t k = 0; k < s->n_outputs; k++)
        check_rname(ck, s->outputs[k].loc, "tensor name", s->outputs[k].name);
    for (size_t k = 0; k < s->n_fields; k++)
        check_rname(ck, s->fields[k].loc, "op_params field", s->fields[k].name);
    if (s->backend && fkcg_enum_index(fkcg_enum_find("backend"), s->backend) < 0)
        report(ck, s->loc, "backend", s->backend, "has no value in the runtime's fkc_backend");
    if (sig != s && s->variant && sig->variant && strcmp(s->variant, sig->variant)) {
        report(ck, s->loc, "op_params variant", s->variant,
               "differs from the variant another "
               "section of this op kind names; an op kind has one OpParams variant");
        fkcg_emit_note(ck->d, sig->loc, "the op kind's variant is named here");
    }
}

/* No two op kinds name one OpParams variant: sorted by (variant, op), so a clash is adjacent
 * (linear, not one comparison per pair of op kinds). */
static void check_variants(rchecker *ck, const fkcg_plan *p)
{
    held *h = fkcg_xcalloc(p->n_ops, sizeof *h);
    size_t n = 0;
    for (size_t i = 0; i < p->n_ops; i++)
        if (SIG(p, &p->ops[i])->variant)
            h[n++] = (held){SIG(p, &p->ops[i])->variant, i};
    qsort(h, n, sizeof *h, cmp_held);
    for (size_t i = 1, g = 0; i < n; i++) {
        if (strcmp(h[i].name, h[g].name) != 0) {
            g = i;
            continue;
        }
        const fkcg_section *s = SIG(p, &p->ops[h[i].index]);
        report(ck, s->loc, "op_params variant", s->variant,
               "is also the variant of "
               "another op kind; each op kind needs its own OpParams variant");
        fkcg_emit_note(ck->d, SIG(p, &p->ops[h[g].index])->loc, "the other op kind names it here");
    }
    free(h);
}

/* The shared checks, then Rust's own (when the shared ones found nothing to stop at). */
static size_t check_rust(const fkcg_plan *p, fkcg_diag *d)
{
    size_t before = fkcg_diag_errors(d);
    fkcg_plan_check(p, d);
    if (p->t->n_sections == 0 || p->t->n_bindings == 0)
        return fkcg_diag_errors(d) - before;
    rchecker ck = {d};
    for (size_t i = 0; i < p->t->n_sections; i++)
        check_section_names(&ck, p, i);
    check_variants(&ck, p);
    check_registries(&ck, p);
    return fkcg_diag_errors(d) - before;
}

const fkcg_backend fkcg_backend_rust = {
    .name = "rust",
    .outputs = {"@_bindings.rs"},
    .check = check_rust,
    .emit = emit_rust,
    .emit_parts = emit_rust_parts,
    .part_output = "@_bindings_%.rs",
    .own_part = own_part,
};
