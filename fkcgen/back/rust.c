/* emit_rust.c — the Rust back end: from the plan (emit_plan.c) one small emitter per output
 * section writes fkc_bindings.rs, in order (banner, enums, op params, per-op C interface, kernel
 * refs, tables, registration, dispatch, link registries, cost). Its own escape gate: every
 * contract string reaches the output through put_rstr (a Rust string literal), put_rcomment (a
 * plain comment) or put_rdoc (doc text), every identifier through put_rident (checked; a keyword
 * becomes r#name). The module is thin glue over the fkc crate: it names the runtime's C types as
 * `rt::...`, so it is included into a module where `rt` is the crate's FFI module. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "emit.h"
#include "emit_rust.h"
#include "internal.h"
#include "fkcgen.h"

/* ---- names ------------------------------------------------------------------------------ */

static int cmp_name(const void *key, const void *entry)
{
    return strcmp(key, *(const char *const *)entry);
}

/* Rust's strict and reserved keywords (2015-2024 editions), sorted by strcmp. */
static const char *const rust_keywords[] = {
    "Self", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv",
    "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
};

bool fkcg_rust_keyword(const char *s)
{
    return bsearch(s, rust_keywords, sizeof rust_keywords / sizeof rust_keywords[0],
                   sizeof rust_keywords[0], cmp_name) != NULL;
}

/* The names of the module's own items in the value namespace (statics and functions), which a
 * link registry static may not take; sorted. */
static const char *const own_values[] = {
    "BINDINGS", "KERNELS", "LINK_REGISTRIES", "PROVIDERS", "SHARED_COST", "UNKNOWN_COST",
};

/* ---- output primitives ------------------------------------------------------------------ */

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

/* Some("...") or None. */
static void put_ropt(fkcg_buf *b, const char *s)
{
    if (!s) {
        PUT(b, "None");
        return;
    }
    PUT(b, "Some(");
    put_rstr(b, s);
    fkcg_buf_putc(b, ')');
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

/* ---- the vocabulary: dtypes, backends, schema enums -------------------------------------- */

/* The C runtime's fkc_backend value of a schema backend: its index in the schema's vocabulary,
 * which is in the runtime's order (schema.c); -1 when unknown. The crate's tests compare the
 * Rust enum's values with fkc_backend_name(). */
static int backend_value(const char *value)
{
    return fkcg_enum_index(fkcg_enum_find("backend"), value);
}

/* The Rust type of each schema enum of the table (fkcg_enum_specs order). */
static const char *const enum_rtype[FKCG_EN_COUNT] = {
    "Determinism", "CostProvenance", "CostClass", "LayoutStrategy",
    "LayoutRule",  "LayoutGuarantee", "Aliasing"};

static void put_enum_value(fkcg_buf *b, int which, const char *value)
{
    put_str(b, enum_rtype[which]);
    PUT(b, "::");
    put_camel(b, value ? value : "unknown");
}

static void put_dtype(fkcg_buf *b, int dtype)
{
    PUT(b, "DType::");
    put_rident(b, fkcg_dtypes[dtype].name);
}

static void put_backend(fkcg_buf *b, const char *backend)
{
    PUT(b, "Backend::");
    put_camel(b, backend ? backend : "");
}

static const char *rel_file(const fkcg_section *s)
{
    if (s->provider && s->provider->rel_file)
        return s->provider->rel_file;
    return s->loc.file ? s->loc.file : "";
}

static void put_where(fkcg_buf *b, const fkcg_section *s, void (*put_text)(fkcg_buf *, const char *))
{
    fkcg_buf_putc(b, '(');
    put_text(b, rel_file(s));
    fkcg_buf_printf(b, ":%u)", (unsigned)s->loc.line);
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

/* A doc line per line of text, each `indent/// words line`, a blank doc line between. */
static void put_doc_lines(fkcg_buf *b, const char *indent, const char *words, const char *text)
{
    for (const char *line = text; line && *line;) {
        size_t n = strcspn(line, "\n");
        char *one = malloc(n + 1);
        if (!one)
            fkcg_oom();
        memcpy(one, line, n);
        one[n] = '\0';
        if (line != text) {
            put_str(b, indent);
            PUT(b, "///\n");
        }
        put_doc_line(b, indent, words, one);
        free(one);
        line += n + (line[n] == '\n');
    }
}

/* ---- emitters ---------------------------------------------------------------------------- */

static void emit_banner(fkcg_buf *b, const fkcg_table *t)
{
    PUT(b, "// " FKCG_EMIT_RUST " - generated by fkcgen " FKCGEN_VERSION " from:\n");
    for (size_t i = 0; i < t->n_providers; i++) {
        const fkcg_provider *pr = t->providers[i];
        PUT(b, "//   ");
        put_rcomment(b, pr->rel_file ? pr->rel_file : pr->loc.file);
        if (pr->text_hash) {
            PUT(b, " (text xxh3-128 ");
            put_rcomment(b, pr->text_hash);
            fkcg_buf_putc(b, ')');
        }
        fkcg_buf_putc(b, '\n');
    }
    PUT(b, "// Do not edit: change the contracts and run `make` (fkcgen gen --lang rust).\n"
           "// Include it into a module where `rt` names the fkc runtime's C types (the fkc\n"
           "// crate's ffi module); see docs/generated-code.md, \"## Rust\".\n\n");
}

static const char derive_enum[] =
    "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n";

static void emit_op_kinds(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/// The op kinds the contracts name, sorted by name; each value is the C side's\n"
           "/// `FKC_OP_*` enumerator.\n#[allow(non_camel_case_types)]\n");
    put_str(b, derive_enum);
    PUT(b, "#[repr(u32)]\npub enum OpKind {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        put_doc_line(b, "    ", "Contract op kind ", p->ops[i].name);
        put_doc_line(b, "    ", "First kernel: ", p->ops[i].sig->blurb);
        PUT(b, "    ");
        put_rident(b, p->ops[i].name);
        fkcg_buf_printf(b, " = %zu,\n", i);
    }
    fkcg_buf_printf(b, "}\n\nimpl OpKind {\n    /// Every op kind, in value order.\n"
                    "    pub const ALL: [OpKind; %zu] = [", p->n_ops);
    for (size_t i = 0; i < p->n_ops; i++) {
        put_str(b, i ? ", OpKind::" : "OpKind::");
        put_rident(b, p->ops[i].name);
    }
    PUT(b, "];\n\n    /// The contract name (\"WriteSlice\").\n"
           "    pub fn name(self) -> &'static str {\n        match self {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        PUT(b, "            OpKind::");
        put_rident(b, p->ops[i].name);
        PUT(b, " => ");
        put_rstr(b, p->ops[i].name);
        PUT(b, ",\n");
    }
    PUT(b, "        }\n    }\n}\n\n");
}

static void emit_dtypes(fkcg_buf *b)
{
    PUT(b, "/// The element dtypes, in contract order; each value is the C side's `fkc_dtype`.\n");
    put_str(b, derive_enum);
    PUT(b, "#[repr(u32)]\npub enum DType {\n");
    for (int d = 0; d < FKCG_NDTYPES; d++) {
        fkcg_buf_printf(b, "    /// %u-byte elements.\n    ", fkcg_dtypes[d].bytes);
        put_rident(b, fkcg_dtypes[d].name);
        fkcg_buf_printf(b, " = %d,\n", d);
    }
    fkcg_buf_printf(b, "}\n\nimpl DType {\n    /// Every dtype, in value order.\n"
                    "    pub const ALL: [DType; %d] = [", FKCG_NDTYPES);
    for (int d = 0; d < FKCG_NDTYPES; d++) {
        put_str(b, d ? ", " : "");
        put_dtype(b, d);
    }
    static const char *const what[3] = {"name", "suffix", "size"};
    static const char *const doc[3] = {"The contract name (\"BF16\").",
                                       "The symbol suffix (\"bf16\").",
                                       "The byte width of one element."};
    PUT(b, "];\n");
    for (int k = 0; k < 3; k++) {
        fkcg_buf_printf(b, "\n    /// %s\n    pub fn %s(self) -> %s {\n        match self {\n",
                        doc[k], what[k], k == 2 ? "usize" : "&'static str");
        for (int d = 0; d < FKCG_NDTYPES; d++) {
            PUT(b, "            ");
            put_dtype(b, d);
            PUT(b, " => ");
            if (k == 2)
                fkcg_buf_put_u64(b, fkcg_dtypes[d].bytes);
            else
                put_rstr(b, k ? fkcg_dtypes[d].suffix : fkcg_dtypes[d].name);
            PUT(b, ",\n");
        }
        PUT(b, "        }\n    }\n");
    }
    PUT(b, "\n    /// The dtype of a contract name (\"F32\"), if any.\n"
           "    pub fn from_name(name: &str) -> Option<DType> {\n"
           "        DType::ALL.iter().copied().find(|d| d.name() == name)\n    }\n}\n\n");
}

static void emit_backends(fkcg_buf *b)
{
    const fkcg_enum *e = fkcg_enum_find("backend");
    PUT(b, "/// The backends a contract may name; each value is the C side's `fkc_backend`.\n");
    put_str(b, derive_enum);
    PUT(b, "#[repr(u32)]\npub enum Backend {\n");
    for (size_t i = 0; e && i < e->count; i++) {
        PUT(b, "    /// Contract backend ");
        put_rdoc(b, e->values[i]);
        PUT(b, ".\n    ");
        put_camel(b, e->values[i]);
        int v = backend_value(e->values[i]);
        if (v < 0)
            PUT(b, " = " BROKEN("backend without a C value"));
        else
            fkcg_buf_printf(b, " = %d", v);
        PUT(b, ",\n");
    }
    fkcg_buf_printf(b, "}\n\nimpl Backend {\n    /// Every backend, in schema order.\n"
                    "    pub const ALL: [Backend; %zu] = [", e ? e->count : 0);
    for (size_t i = 0; e && i < e->count; i++) {
        put_str(b, i ? ", " : "");
        put_backend(b, e->values[i]);
    }
    PUT(b, "];\n\n    /// The contract name (\"Vulkan\").\n"
           "    pub fn name(self) -> &'static str {\n        match self {\n");
    for (size_t i = 0; e && i < e->count; i++) {
        PUT(b, "            ");
        put_backend(b, e->values[i]);
        PUT(b, " => ");
        put_rstr(b, e->values[i]);
        PUT(b, ",\n");
    }
    PUT(b, "        }\n    }\n}\n\n");
}

static void emit_schema_enums(fkcg_buf *b)
{
    for (int w = 0; w < FKCG_EN_COUNT; w++) {
        const fkcg_enum_spec *sp = &fkcg_enum_specs[w];
        const fkcg_enum *e = fkcg_enum_find(sp->schema);
        fkcg_buf_printf(b, "/// The schema's %s values%s\n", sp->schema,
                        sp->with_unknown ? "; Unknown: the contract states none." : ".");
        put_str(b, derive_enum);
        fkcg_buf_printf(b, "pub enum %s {\n", enum_rtype[w]);
        if (sp->with_unknown)
            PUT(b, "    /// Not stated.\n    Unknown,\n");
        for (size_t i = 0; e && i < e->count; i++) {
            PUT(b, "    /// `");
            put_rdoc(b, e->values[i]);
            PUT(b, "`\n    ");
            put_camel(b, e->values[i]);
            PUT(b, ",\n");
        }
        fkcg_buf_printf(b, "}\n\nimpl %s {\n    /// The schema's spelling (\"\" for Unknown).\n"
                        "    pub fn as_str(self) -> &'static str {\n        match self {\n",
                        enum_rtype[w]);
        if (sp->with_unknown)
            fkcg_buf_printf(b, "            %s::Unknown => \"\",\n", enum_rtype[w]);
        for (size_t i = 0; e && i < e->count; i++) {
            PUT(b, "            ");
            put_enum_value(b, w, e->values[i]);
            PUT(b, " => ");
            put_rstr(b, e->values[i]);
            PUT(b, ",\n");
        }
        PUT(b, "        }\n    }\n}\n\n");
    }
}

/* Field kinds: the Rust type of a scalar (the contract's own spelling) and of a Vec element. */
static void put_kind(fkcg_buf *b, const fkcg_field *f, bool c_view)
{
    bool vec;
    const fkcg_kind_spec *k = fkcg_kind_lookup(f->kind, &vec);
    if (!k) {
        PUT(b, BROKEN("field kind"));
        return;
    }
    if (vec)
        put_str(b, c_view ? "*const " : "Vec<");
    put_str(b, k->kind); /* usize, i64, f32, bool, ...: the same names in Rust */
    if (vec && !c_view)
        fkcg_buf_putc(b, '>');
}

static bool op_has_params(const fkcg_op_info *op)
{
    return op->sig->variant != NULL;
}

static void emit_op_params(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/// The op_params of every op kind that has some: one variant per contract\n"
           "/// `op_params.variant`, its fields in contract order.\n"
           "#[allow(non_camel_case_types, non_snake_case)]\n"
           "#[derive(Clone, Debug, PartialEq)]\npub enum OpParams {\n");
    size_t n = 0;
    for (size_t i = 0; i < p->n_ops; i++) {
        const fkcg_section *s = p->ops[i].sig;
        if (!op_has_params(&p->ops[i]))
            continue;
        n++;
        PUT(b, "    /// The parameters of ");
        put_rdoc(b, p->ops[i].name);
        fkcg_buf_putc(b, ' ');
        put_where(b, s, put_rdoc);
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
            put_kind(b, f, false);
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
    PUT(b, "        match self {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        if (!op_has_params(&p->ops[i]))
            continue;
        PUT(b, "            OpParams::");
        put_rident(b, p->ops[i].sig->variant);
        PUT(b, " { .. } => OpKind::");
        put_rident(b, p->ops[i].name);
        PUT(b, ",\n");
    }
    PUT(b, "        }\n    }\n}\n\n");
}

/* `name: type` of each C parameter of an op's wrappers, as in the C function type. */
static void put_c_params(fkcg_buf *b, const fkcg_section *s, const char *rt, const char *indent)
{
    fkcg_buf_printf(b, "%sstream: *mut %sfkc_stream,\n", indent, rt);
    for (size_t i = 0; i < s->n_inputs + s->n_outputs; i++) {
        bool in = i < s->n_inputs;
        put_str(b, indent);
        put_rident(b, in ? s->inputs[i].name : s->outputs[i - s->n_inputs].name);
        fkcg_buf_printf(b, ": *%s %sfkc_tensor,\n", in ? "const" : "mut", rt);
    }
    fkcg_buf_printf(b, "%sparams: *const ::core::ffi::c_void,\n%sextra: *const %sfkc_op_extra,\n",
                    indent, indent, rt);
}

/* The sections grouped by op kind, and where each section's bindings start (a section's
 * bindings are contiguous in the table): so that nothing is quadratic in the table's size. */
typedef struct rindex {
    size_t *first;    /* first binding of each section (n_bindings when none) */
    size_t *op_start; /* op i's sections are op_secs[op_start[i] .. op_start[i + 1]) */
    size_t *op_secs;  /* section indexes, by op kind, then in table order */
} rindex;

static void rindex_init(rindex *x, const fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    x->first = fkcg_xcalloc(t->n_sections, sizeof *x->first);
    x->op_start = fkcg_xcalloc(p->n_ops + 1, sizeof *x->op_start);
    x->op_secs = fkcg_xcalloc(t->n_sections, sizeof *x->op_secs);
    for (size_t i = 0; i < t->n_sections; i++)
        x->first[i] = t->n_bindings;
    for (size_t k = t->n_bindings; k-- > 0;)
        x->first[p->bind_sec[k]] = k;
    for (size_t i = 0; i < t->n_sections; i++)
        x->op_start[p->sec_op[i] + 1]++;
    for (size_t i = 0; i < p->n_ops; i++)
        x->op_start[i + 1] += x->op_start[i];
    size_t *fill = fkcg_xcalloc(p->n_ops + 1, sizeof *fill);
    for (size_t i = 0; i < t->n_sections; i++)
        x->op_secs[x->op_start[p->sec_op[i]] + fill[p->sec_op[i]]++] = i;
    free(fill);
}

static void rindex_free(rindex *x)
{
    free(x->first);
    free(x->op_start);
    free(x->op_secs);
}

/* Bit set of the byte widths a section's bindings use (bit w for width w). */
static unsigned section_widths(const fkcg_plan *p, const rindex *x, size_t sec)
{
    unsigned mask = 0;
    for (size_t k = x->first[sec]; k < p->t->n_bindings && p->bind_sec[k] == sec; k++)
        mask |= 1u << p->t->bindings[k].byte_width;
    return mask;
}

/* The dtype names of a section bound to one byte width ("F32, I32, U32"). */
static void put_width_dtypes(fkcg_buf *b, const fkcg_plan *p, const rindex *x, size_t sec,
                             unsigned w)
{
    bool first = true;
    for (size_t k = x->first[sec]; k < p->t->n_bindings && p->bind_sec[k] == sec; k++)
        if (p->t->bindings[k].byte_width == w) {
            put_str(b, first ? "" : ", ");
            put_str(b, fkcg_dtypes[p->t->bindings[k].dtype].name);
            first = false;
        }
}

static void emit_op_module(fkcg_buf *b, const fkcg_plan *p, const rindex *x, size_t i)
{
    const fkcg_op_info *op = &p->ops[i];
    const fkcg_section *s = op->sig;
    const char *rt = "super::super::rt::";
    put_doc_line(b, "    ", "The C interface of op kind ", op->name);
    if (s->heading) {
        PUT(b, "    ///\n");
        put_doc_line(b, "    ", "Section: ", s->heading);
    }
    PUT(b, "    ///\n");
    put_doc_line(b, "    ", "Blurb: ", s->blurb);
    if (s->prose) {
        PUT(b, "    ///\n");
        put_doc_lines(b, "    ", "Prose: ", s->prose);
    }
    PUT(b, "    #[allow(non_snake_case)]\n    pub mod ");
    put_rident(b, op->snake);
    PUT(b, " {\n");
    if (s->variant) {
        PUT(b, "        /// `fkc_");
        put_rdoc(b, op->snake);
        PUT(b, "_params`: the C view of `OpParams::");
        put_rdoc(b, s->variant);
        PUT(b, "` (pointers borrowed from it).\n"
               "        #[repr(C)]\n        #[derive(Clone, Copy, Debug)]\n"
               "        pub struct Params {\n");
        for (size_t k = 0; k < s->n_fields; k++) {
            bool vec;
            fkcg_kind_lookup(s->fields[k].kind, &vec);
            PUT(b, "            /// Contract field ");
            put_rdoc(b, s->fields[k].name);
            PUT(b, ".\n            pub ");
            put_rident(b, s->fields[k].name);
            PUT(b, ": ");
            put_kind(b, &s->fields[k], true);
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
    PUT(b, "        /// The C function type of every wrapper of this op kind (`fkc_");
    put_rdoc(b, op->snake);
    PUT(b, "_fn`); `params` points to\n        /// ");
    put_str(b, s->variant ? "a `Params`." : "nothing (the op has no op_params).");
    PUT(b, " The wrappers come from `rt`:\n");
    for (size_t k = x->op_start[i]; k < x->op_start[i + 1]; k++) {
        size_t sec = x->op_secs[k];
        unsigned mask = section_widths(p, x, sec);
        for (unsigned w = 1; w <= 8; w *= 2) {
            if (!(mask & (1u << w)))
                continue;
            PUT(b, "        /// - `");
            put_rdoc(b, p->t->sections[sec]->kernel);
            fkcg_buf_printf(b, "_b%u`: ", w);
            put_width_dtypes(b, p, x, sec, w);
            fkcg_buf_putc(b, '\n');
        }
    }
    PUT(b, "        pub type Kernel = unsafe extern \"C\" fn(\n");
    put_c_params(b, s, rt, "            ");
    fkcg_buf_printf(b, "        ) -> %sfkc_status;\n    }\n", rt);
}

static void emit_ops(fkcg_buf *b, const fkcg_plan *p)
{
    rindex x;
    rindex_init(&x, p);
    PUT(b, "/// The C interface of each op kind: its parameter struct and its function type; the\n"
           "/// byte-width wrappers themselves are `rt::<kernel>_b<width>` (the runtime's).\n"
           "pub mod ops {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        if (i)
            fkcg_buf_putc(b, '\n');
        emit_op_module(b, p, &x, i);
    }
    PUT(b, "}\n\n");
    rindex_free(&x);
}

/* One arm of KernelRef::call. */
static void emit_call_arm(fkcg_buf *b, const fkcg_op_info *op)
{
    const fkcg_section *s = op->sig;
    PUT(b, "            (KernelRef::");
    put_rident(b, op->name);
    PUT(b, "(f), ");
    if (s->variant) {
        PUT(b, "Some(OpParams::");
        put_rident(b, s->variant);
        PUT(b, " {");
        for (size_t k = 0; k < s->n_fields; k++) {
            put_str(b, k ? ", " : " ");
            put_rident(b, s->fields[k].name);
            fkcg_buf_printf(b, ": p%zu", k);
        }
        PUT(b, " })");
    } else {
        fkcg_buf_putc(b, '_');
    }
    fkcg_buf_printf(b, ") => {\n                if inputs.len() != %zu || outputs.len() != %zu {\n"
                    "                    return None;\n                }\n",
                    s->n_inputs, s->n_outputs);
    if (s->variant) {
        PUT(b, "                let c = ops::");
        put_rident(b, op->snake);
        PUT(b, "::Params {");
        for (size_t k = 0; k < s->n_fields; k++) {
            bool vec;
            fkcg_kind_lookup(s->fields[k].kind, &vec);
            put_str(b, k ? ",\n                    " : "\n                    ");
            put_rident(b, s->fields[k].name);
            if (vec) {
                fkcg_buf_printf(b, ": p%zu.as_ptr(),\n                    ", k);
                put_rident_suffixed(b, s->fields[k].name, "_len");
                fkcg_buf_printf(b, ": p%zu.len()", k);
            } else {
                fkcg_buf_printf(b, ": *p%zu", k);
            }
        }
        put_str(b, s->n_fields ? ",\n                };\n" : " unused: 0 };\n");
    }
    PUT(b, "                Some(unsafe {\n                    f(\n                        stream,\n");
    for (size_t i = 0; i < s->n_inputs; i++)
        fkcg_buf_printf(b, "                        inputs[%zu],\n", i);
    for (size_t i = 0; i < s->n_outputs; i++)
        fkcg_buf_printf(b, "                        outputs[%zu],\n", i);
    put_str(b, s->variant ? "                        &c as *const _ as *const ::core::ffi::c_void,\n"
                          : "                        ::core::ptr::null(),\n");
    PUT(b, "                        extra,\n                    )\n                })\n"
           "            }\n");
}

static void emit_kernel_ref(fkcg_buf *b, const fkcg_plan *p)
{
    bool any_params = false;
    PUT(b, "/// A kernel reference: a byte-width wrapper of the runtime, by op kind.\n"
           "#[allow(non_camel_case_types)]\n#[derive(Clone, Copy)]\npub enum KernelRef {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        any_params |= op_has_params(&p->ops[i]);
        put_doc_line(b, "    ", "A wrapper of op kind ", p->ops[i].name);
        PUT(b, "    ");
        put_rident(b, p->ops[i].name);
        PUT(b, "(ops::");
        put_rident(b, p->ops[i].snake);
        PUT(b, "::Kernel),\n");
    }
    PUT(b, "}\n\nimpl KernelRef {\n    /// The op kind of the wrapper.\n"
           "    pub fn op_kind(&self) -> OpKind {\n        match self {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        PUT(b, "            KernelRef::");
        put_rident(b, p->ops[i].name);
        PUT(b, "(_) => OpKind::");
        put_rident(b, p->ops[i].name);
        PUT(b, ",\n");
    }
    PUT(b, "        }\n    }\n\n"
           "    /// Calls the wrapper: `params` is lent to it as the op's C params struct. None\n"
           "    /// (and no call) when `params` is not this op kind's variant or the numbers of\n"
           "    /// inputs and outputs differ from the contract's; else the wrapper's status.\n"
           "    ///\n    /// # Safety\n"
           "    /// `stream`, the tensors and `extra` must be what the C wrapper accepts: valid\n"
           "    /// pointers to live runtime objects (see fkc_runtime.h).\n"
           "    #[allow(unused_unsafe)] // the inner block: needed from edition 2024, unused before\n"
           "    pub unsafe fn call(\n        &self,\n        stream: *mut rt::fkc_stream,\n"
           "        inputs: &[*const rt::fkc_tensor],\n        outputs: &[*mut rt::fkc_tensor],\n"
           "        params: Option<&OpParams>,\n        extra: *const rt::fkc_op_extra,\n"
           "    ) -> Option<rt::fkc_status> {\n        match (*self, params) {\n");
    for (size_t i = 0; i < p->n_ops; i++)
        emit_call_arm(b, &p->ops[i]);
    if (any_params)
        PUT(b, "            _ => None,\n");
    PUT(b, "        }\n    }\n}\n\n"
           "impl ::core::fmt::Debug for KernelRef {\n"
           "    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {\n"
           "        write!(f, \"KernelRef::{}\", self.op_kind().name())\n    }\n}\n\n");
}

/* The fixed types of the tables: written once here, the same for every contract. */
#define RUST_LAYOUT_FIELD(e, key, doc, rust_doc) \
    "    /// " rust_doc "\n    pub " key ": Option<&'static str>,\n"
static const char table_types[] =
    "/// A cost function: `n` is the element count of the first input, `dtype_bytes` its byte\n"
    "/// width, `params` the op's params (NaN when the expression names a field and they are\n"
    "/// None or of another op kind).\n"
    "pub type CostFn = fn(n: u64, dtype_bytes: u64, params: Option<&OpParams>) -> f64;\n\n"
    "/// A cost; provenance Unknown is the unknown-cost sentinel (docs/cost.md).\n"
    "#[derive(Clone, Copy)]\npub struct Cost {\n"
    "    /// Where the figures come from.\n    pub provenance: CostProvenance,\n"
    "    /// The cost class.\n    pub class: CostClass,\n"
    "    /// The flops expression, as written.\n    pub flops_expr: Option<&'static str>,\n"
    "    /// The bytes_moved expression, as written.\n"
    "    pub bytes_moved_expr: Option<&'static str>,\n"
    "    /// The flops expression as a function.\n    pub flops: Option<CostFn>,\n"
    "    /// The bytes_moved expression as a function.\n    pub bytes_moved: Option<CostFn>,\n"
    "}\n\n"
    "/// A fast path a kernel takes, and the cost class it then has.\n"
    "#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct FastPath {\n"
    "    /// When it applies (\"all_inputs_contiguous\").\n    pub when: &'static str,\n"
    "    /// Its cost class.\n    pub class: CostClass,\n}\n\n"
    "/// What a kernel can do.\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct Caps {\n"
    "    /// How it treats awkward layouts (None: not stated).\n"
    "    pub awkward_layout_strategy: Option<LayoutStrategy>,\n"
    "    /// Its fast paths.\n    pub fast_paths: &'static [FastPath],\n"
    "    /// Whether it may run in place.\n    pub in_place: bool,\n"
    "    /// Alignment it needs, in bytes.\n    pub alignment_bytes: u32,\n"
    "    /// Granularity of its accesses, in bits.\n    pub access_granularity_bits: u32,\n}\n\n"
    "/// The precision a kernel promises.\n#[derive(Clone, Copy, Debug, PartialEq)]\n"
    "pub struct Precision {\n"
    "    /// Bit-identical results on the same hardware.\n"
    "    pub bit_stable_on_same_hardware: bool,\n"
    "    /// Largest error in units in the last place.\n    pub max_ulp: u64,\n"
    "    /// Largest relative error.\n    pub max_relative: f64,\n"
    "    /// Largest absolute error.\n    pub max_absolute: f64,\n"
    "    /// Whether the figures were audited.\n    pub audited: bool,\n"
    "    /// Free text.\n    pub notes: Option<&'static str>,\n}\n\n"
    "/// The layout keys of an input: \"required\", \"accepted\" or \"rejected\" (None: not\n"
    "/// stated).\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct Layout {\n"
    FKCG_LAYOUTS(RUST_LAYOUT_FIELD) "}\n\n"
    "/// An input tensor of a kernel.\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\n"
    "pub struct Input {\n"
    "    /// Its name (\"src\").\n    pub name: &'static str,\n"
    "    /// The dtypes it accepts, in contract order.\n    pub dtypes: &'static [DType],\n"
    "    /// The layouts it accepts.\n    pub layout: Layout,\n"
    "    /// \"any\" or a number, as written.\n    pub rank: Option<&'static str>,\n"
    "    /// Free text.\n    pub shape_constraint: Option<&'static str>,\n}\n\n"
    "/// An output tensor of a kernel; the rules as written.\n"
    "#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct Output {\n"
    "    /// Its name (\"out\").\n    pub name: &'static str,\n"
    "    /// \"passthrough(src)\".\n    pub dtype_rule: Option<&'static str>,\n"
    "    /// \"from_params(dst_shape)\".\n    pub shape_rule: Option<&'static str>,\n"
    "    /// \"contiguous\".\n    pub layout_guarantee: Option<&'static str>,\n"
    "    /// \"none\".\n    pub aliasing: Option<&'static str>,\n}\n\n"
    "/// An op_params field of a kernel.\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\n"
    "pub struct Field {\n"
    "    /// Its name (\"dst_shape\").\n    pub name: &'static str,\n"
    "    /// Its kind (\"Vec<usize>\").\n    pub kind: &'static str,\n"
    "    /// Free text.\n    pub note: Option<&'static str>,\n}\n\n"
    "/// The front matter of one contract file.\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\n"
    "pub struct Provider {\n"
    "    /// The contract's repo-relative path.\n    pub file: &'static str,\n"
    "    /// XXH3-128 of its text, 32 hex digits.\n    pub text_hash: Option<&'static str>,\n"
    "    /// The contract format version.\n    pub fkc_version: u64,\n"
    "    /// The provider (kernel package) name.\n    pub name: &'static str,\n"
    "    /// The backend every section registers on.\n    pub backend: Backend,\n"
    "    /// The BindingEntry.kernel_source tag.\n    pub kernel_source: &'static str,\n"
    "    /// The link registry path (\"a::b::ENTRY_POINTS\").\n"
    "    pub link_registry: &'static str,\n"
    "    /// The provider build id.\n    pub revision_base: &'static str,\n}\n\n"
    "/// One kernel section of a contract: what its bindings share.\n#[derive(Clone, Copy)]\n"
    "pub struct KernelInfo {\n"
    "    /// The kernel name.\n    pub kernel: &'static str,\n"
    "    /// Its op kind.\n    pub op_kind: OpKind,\n"
    "    /// Its backend.\n    pub backend: Backend,\n"
    "    /// Its kernel_source tag.\n    pub kernel_source: &'static str,\n"
    "    /// The heading that introduces its section.\n    pub heading: Option<&'static str>,\n"
    "    /// The paragraphs before its block, one line each.\n"
    "    pub prose: Option<&'static str>,\n"
    "    /// One line on what it does.\n    pub blurb: &'static str,\n"
    "    /// The base symbol, fanned over the dtypes.\n    pub entry_point: &'static str,\n"
    "    /// Its contract file.\n    pub provider: &'static Provider,\n"
    "    /// Its inputs.\n    pub inputs: &'static [Input],\n"
    "    /// Its outputs.\n    pub outputs: &'static [Output],\n"
    "    /// Its op_params variant, if any.\n    pub variant: Option<&'static str>,\n"
    "    /// Its op_params fields.\n    pub fields: &'static [Field],\n"
    "    /// Its caps.\n    pub caps: Caps,\n"
    "    /// Its cost (the unknown sentinel when it states none).\n"
    "    pub cost: &'static Cost,\n"
    "    /// Its precision.\n    pub precision: Precision,\n"
    "    /// Its determinism.\n    pub determinism: Determinism,\n"
    "    /// Its revision hash, 32 hex digits.\n    pub revision_hash: &'static str,\n"
    "    /// The repo-relative contract path.\n    pub source_file: &'static str,\n"
    "    /// The first line of its fkc block.\n    pub source_line: u32,\n}\n\n"
    "/// One binding: key (op_kind, [in, out], backend) + kernel_source -> a wrapper.\n"
    "#[derive(Clone, Copy)]\npub struct Binding {\n"
    "    /// The key's op kind.\n    pub op_kind: OpKind,\n"
    "    /// The key's [in, out] dtypes.\n    pub dtypes: [DType; 2],\n"
    "    /// The key's backend.\n    pub backend: Backend,\n"
    "    /// The key's kernel_source tag.\n    pub kernel_source: &'static str,\n"
    "    /// Its section.\n    pub info: &'static KernelInfo,\n"
    "    /// `<entry_point>_<dtype suffix>`.\n    pub symbol: &'static str,\n"
    "    /// `<kernel>_b<byte width>`.\n    pub wrapper: &'static str,\n"
    "    /// The wrapper.\n    pub kernel: KernelRef,\n"
    "    /// The dtype's byte width.\n    pub byte_width: u32,\n"
    "    /// Its cost: fill_unset_cost_for_backend upgrades the unknown sentinel.\n"
    "    pub cost: &'static Cost,\n}\n\n"
    "/// A row of a link registry: a symbol and its binding.\n#[derive(Clone, Copy)]\n"
    "pub struct LinkEntry {\n"
    "    /// `<entry_point>_<dtype suffix>`.\n    pub symbol: &'static str,\n"
    "    /// The registry's path.\n    pub registry: &'static str,\n"
    "    /// Its binding (the kernel ref is `binding.kernel`).\n"
    "    pub binding: &'static Binding,\n}\n\n"
    "/// The unknown-cost sentinel (docs/cost.md).\n"
    "pub static UNKNOWN_COST: Cost = Cost {\n    provenance: CostProvenance::Unknown,\n"
    "    class: CostClass::Unknown,\n    flops_expr: None,\n    bytes_moved_expr: None,\n"
    "    flops: None,\n    bytes_moved: None,\n};\n\n";

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

/* The expression in f64 arithmetic, without parentheses around the whole (rustc's
 * unused_parens). */
static void put_expr(fkcg_buf *b, const fkcg_section *s, const fkcg_expr *e)
{
    const fkcg_expr_style rust_f64 = { ".0", "n as f64", "dtype_bytes as f64", put_field_f64,
                                       s, true };
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

static void emit_cost_fn(fkcg_buf *b, const fkcg_section *s, size_t sec, const char *what,
                         const fkcg_expr *e, const char *src)
{
    bool n = expr_uses(e, FKCG_EXPR_N), db = expr_uses(e, FKCG_EXPR_DTYPE_BYTES);
    bool f = expr_uses(e, FKCG_EXPR_FIELD);
    PUT(b, "    // ");
    put_rcomment(b, s->kernel);
    fkcg_buf_printf(b, " %s = ", what);
    put_rcomment(b, src);
    fkcg_buf_printf(b, "\n    pub(super) fn cost_%zu_%s(%sn: u64, %sdtype_bytes: u64, "
                    "%sparams: Option<&OpParams>) -> f64 {\n", sec, what, n ? "" : "_",
                    db ? "" : "_", f ? "" : "_");
    if (f) {
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
    PUT(b, "    }\n\n");
}

static void put_layout(fkcg_buf *b, const fkcg_input *in)
{
    PUT(b, "Layout {");
    for (int k = 0; k < FKCG_NLAYOUT; k++) {
        fkcg_buf_printf(b, "%s%s: ", k ? ", " : " ", fkcg_layout_keys[k]);
        put_ropt(b, in->layout[k]);
    }
    PUT(b, " }");
}

/* mod data: each section's inputs, outputs, fields, fast paths, cost functions and cost. */
static void emit_section_data(fkcg_buf *b, const fkcg_section *s, size_t i)
{
    PUT(b, "    // [");
    fkcg_buf_put_u64(b, i);
    PUT(b, "] ");
    put_rcomment(b, s->kernel);
    fkcg_buf_putc(b, ' ');
    put_where(b, s, put_rcomment);
    fkcg_buf_putc(b, '\n');
    for (size_t k = 0; k < s->n_inputs; k++) {
        fkcg_buf_printf(b, "    pub(super) static DTYPES_%zu_%zu: [DType; %zu] = [", i, k,
                        s->inputs[k].n_dtypes);
        for (size_t d = 0; d < s->inputs[k].n_dtypes; d++) {
            put_str(b, d ? ", " : "");
            put_dtype(b, s->inputs[k].dtypes[d]);
        }
        PUT(b, "];\n");
    }
    fkcg_buf_printf(b, "    pub(super) static INPUTS_%zu: [Input; %zu] = [\n", i, s->n_inputs);
    for (size_t k = 0; k < s->n_inputs; k++) {
        const fkcg_input *in = &s->inputs[k];
        PUT(b, "        Input {\n            name: ");
        put_rstr(b, in->name);
        fkcg_buf_printf(b, ",\n            dtypes: &DTYPES_%zu_%zu,\n            layout: ", i, k);
        put_layout(b, in);
        PUT(b, ",\n            rank: ");
        put_ropt(b, in->rank);
        PUT(b, ",\n            shape_constraint: ");
        put_ropt(b, in->shape_constraint);
        PUT(b, ",\n        },\n");
    }
    fkcg_buf_printf(b, "    ];\n    pub(super) static OUTPUTS_%zu: [Output; %zu] = [\n", i,
                    s->n_outputs);
    for (size_t k = 0; k < s->n_outputs; k++) {
        const fkcg_output *o = &s->outputs[k];
        PUT(b, "        Output {\n            name: ");
        put_rstr(b, o->name);
        PUT(b, ",\n            dtype_rule: ");
        put_ropt(b, o->dtype_rule);
        PUT(b, ",\n            shape_rule: ");
        put_ropt(b, o->shape_rule);
        PUT(b, ",\n            layout_guarantee: ");
        put_ropt(b, o->layout_guarantee);
        PUT(b, ",\n            aliasing: ");
        put_ropt(b, o->aliasing);
        PUT(b, ",\n        },\n");
    }
    fkcg_buf_printf(b, "    ];\n    pub(super) static FIELDS_%zu: [Field; %zu] = [\n", i,
                    s->n_fields);
    for (size_t k = 0; k < s->n_fields; k++) {
        PUT(b, "        Field { name: ");
        put_rstr(b, s->fields[k].name);
        PUT(b, ", kind: ");
        put_rstr(b, s->fields[k].kind);
        PUT(b, ", note: ");
        put_ropt(b, s->fields[k].note);
        PUT(b, " },\n");
    }
    fkcg_buf_printf(b, "    ];\n    pub(super) static FAST_PATHS_%zu: [FastPath; %zu] = [\n", i,
                    s->caps.n_fast_paths);
    for (size_t k = 0; k < s->caps.n_fast_paths; k++) {
        PUT(b, "        FastPath { when: ");
        put_rstr(b, s->caps.fast_paths[k].when);
        PUT(b, ", class: ");
        put_enum_value(b, FKCG_EN_COST_CLASS, s->caps.fast_paths[k].cost_class);
        PUT(b, " },\n");
    }
    PUT(b, "    ];\n\n");
    if (!s->cost.present)
        return;
    if (s->cost.flops)
        emit_cost_fn(b, s, i, "flops", s->cost.flops, s->cost.flops_src);
    if (s->cost.bytes_moved)
        emit_cost_fn(b, s, i, "bytes_moved", s->cost.bytes_moved, s->cost.bytes_moved_src);
    fkcg_buf_printf(b, "    pub(super) static COST_%zu: Cost = Cost {\n        provenance: ", i);
    put_enum_value(b, FKCG_EN_PROVENANCE, s->cost.provenance);
    PUT(b, ",\n        class: ");
    put_enum_value(b, FKCG_EN_COST_CLASS, s->cost.cost_class);
    PUT(b, ",\n        flops_expr: ");
    put_ropt(b, s->cost.flops ? s->cost.flops_src : NULL);
    PUT(b, ",\n        bytes_moved_expr: ");
    put_ropt(b, s->cost.bytes_moved ? s->cost.bytes_moved_src : NULL);
    if (s->cost.flops)
        fkcg_buf_printf(b, ",\n        flops: Some(cost_%zu_flops)", i);
    else
        PUT(b, ",\n        flops: None");
    if (s->cost.bytes_moved)
        fkcg_buf_printf(b, ",\n        bytes_moved: Some(cost_%zu_bytes_moved),\n", i);
    else
        PUT(b, ",\n        bytes_moved: None,\n");
    PUT(b, "    };\n\n");
}

static void emit_data(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/// The tables' parts, one group per kernel section (by index in KERNELS).\n"
           "mod data {\n    use super::*;\n\n");
    for (size_t i = 0; i < p->t->n_sections; i++)
        emit_section_data(b, p->t->sections[i], i);
    PUT(b, "}\n\n");
}

static void put_cost_ref(fkcg_buf *b, const fkcg_section *s, size_t sec)
{
    if (!s || !s->cost.present)
        PUT(b, "&UNKNOWN_COST");
    else
        fkcg_buf_printf(b, "&data::COST_%zu", sec);
}

/* The provider's row in PROVIDERS (always found in a bound table; 0 otherwise). */
static size_t rust_provider_index(const fkcg_table *t, const fkcg_provider *pr)
{
    long i = fkcg_provider_index(t, pr);
    return i < 0 ? 0 : (size_t)i;
}

static void emit_providers(fkcg_buf *b, const fkcg_table *t)
{
    fkcg_buf_printf(b, "/// The contract files, sorted by path.\n"
                    "pub static PROVIDERS: [Provider; %zu] = [\n", t->n_providers);
    for (size_t i = 0; i < t->n_providers; i++) {
        const fkcg_provider *pr = t->providers[i];
        PUT(b, "    Provider {\n        file: ");
        put_rstr(b, pr->rel_file ? pr->rel_file : pr->loc.file);
        PUT(b, ",\n        text_hash: ");
        put_ropt(b, pr->text_hash);
        PUT(b, ",\n        fkc_version: ");
        fkcg_buf_put_u64(b, pr->fkc_version);
        PUT(b, ",\n        name: ");
        put_rstr(b, pr->name);
        PUT(b, ",\n        backend: ");
        put_backend(b, pr->backend);
        PUT(b, ",\n        kernel_source: ");
        put_rstr(b, pr->kernel_source);
        PUT(b, ",\n        link_registry: ");
        put_rstr(b, pr->link_registry);
        PUT(b, ",\n        revision_base: ");
        put_rstr(b, pr->revision_base);
        PUT(b, ",\n    },\n");
    }
    PUT(b, "];\n\n");
}

static void emit_kernels(fkcg_buf *b, const fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    fkcg_buf_printf(b, "/// One row per kernel section, sorted by kernel.\n"
                    "pub static KERNELS: [KernelInfo; %zu] = [\n", t->n_sections);
    for (size_t i = 0; i < t->n_sections; i++) {
        const fkcg_section *s = t->sections[i];
        fkcg_buf_printf(b, "    // [%zu] ", i);
        put_rcomment(b, s->kernel);
        fkcg_buf_putc(b, ' ');
        put_where(b, s, put_rcomment);
        PUT(b, "\n    KernelInfo {\n        kernel: ");
        put_rstr(b, s->kernel);
        PUT(b, ",\n        op_kind: OpKind::");
        put_rident(b, p->ops[p->sec_op[i]].name);
        PUT(b, ",\n        backend: ");
        put_backend(b, s->backend);
        PUT(b, ",\n        kernel_source: ");
        put_rstr(b, s->kernel_source);
        PUT(b, ",\n        heading: ");
        put_ropt(b, s->heading);
        PUT(b, ",\n        prose: ");
        put_ropt(b, s->prose);
        PUT(b, ",\n        blurb: ");
        put_rstr(b, s->blurb);
        PUT(b, ",\n        entry_point: ");
        put_rstr(b, s->entry_point);
        fkcg_buf_printf(b, ",\n        provider: &PROVIDERS[%zu],\n", rust_provider_index(t, s->provider));
        fkcg_buf_printf(b, "        inputs: &data::INPUTS_%zu,\n        outputs: &data::OUTPUTS_%zu,\n"
                        "        variant: ", i, i);
        put_ropt(b, s->variant);
        fkcg_buf_printf(b, ",\n        fields: &data::FIELDS_%zu,\n        caps: Caps {\n"
                        "            awkward_layout_strategy: ", i);
        if (s->caps.awkward_layout_strategy) {
            PUT(b, "Some(");
            put_enum_value(b, FKCG_EN_STRATEGY, s->caps.awkward_layout_strategy);
            PUT(b, ")");
        } else {
            PUT(b, "None");
        }
        fkcg_buf_printf(b, ",\n            fast_paths: &data::FAST_PATHS_%zu,\n"
                        "            in_place: %s,\n            alignment_bytes: %u,\n"
                        "            access_granularity_bits: %u,\n        },\n        cost: ",
                        i, s->caps.in_place ? "true" : "false", (unsigned)s->caps.alignment_bytes,
                        (unsigned)s->caps.access_granularity_bits);
        put_cost_ref(b, s, i);
        fkcg_buf_printf(b, ",\n        precision: Precision {\n"
                        "            bit_stable_on_same_hardware: %s,\n            max_ulp: ",
                        s->precision.bit_stable_on_same_hardware ? "true" : "false");
        fkcg_buf_put_u64(b, s->precision.max_ulp);
        PUT(b, ",\n            max_relative: ");
        put_f64(b, s->precision.max_relative);
        PUT(b, ",\n            max_absolute: ");
        put_f64(b, s->precision.max_absolute);
        fkcg_buf_printf(b, ",\n            audited: %s,\n            notes: ",
                        s->precision.audited ? "true" : "false");
        put_ropt(b, s->precision.notes);
        PUT(b, ",\n        },\n        determinism: ");
        put_enum_value(b, FKCG_EN_DETERMINISM, s->determinism);
        PUT(b, ",\n        revision_hash: ");
        put_rstr(b, s->revision_hash);
        PUT(b, ",\n        source_file: ");
        put_rstr(b, rel_file(s));
        fkcg_buf_printf(b, ",\n        source_line: %u,\n    },\n", (unsigned)s->loc.line);
    }
    PUT(b, "];\n\n");
}

static void put_kernel_ref(fkcg_buf *b, const fkcg_op_info *op, const fkcg_binding *bd)
{
    PUT(b, "KernelRef::");
    put_rident(b, op->name);
    fkcg_buf_putc(b, '(');
    if (fkcg_emit_ident_len(bd->wrapper)) {
        PUT(b, "rt::");
        put_str(b, bd->wrapper);
    } else {
        PUT(b, BROKEN("wrapper"));
    }
    fkcg_buf_putc(b, ')');
}

static void emit_bindings(fkcg_buf *b, const fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    fkcg_buf_printf(b, "/// One row per (section x dtype), by op kind, backend, kernel, dtype.\n"
                    "pub static BINDINGS: [Binding; %zu] = [\n", t->n_bindings);
    for (size_t i = 0; i < t->n_bindings; i++) {
        const fkcg_binding *bd = &t->bindings[i];
        const fkcg_section *s = bd->section;
        const fkcg_op_info *op = &p->ops[p->sec_op[p->bind_sec[i]]];
        fkcg_buf_printf(b, "    // [%zu] ", i);
        put_rcomment(b, s->kernel);
        fkcg_buf_printf(b, " %s -> ", fkcg_dtypes[bd->dtype].name);
        put_rcomment(b, bd->wrapper);
        PUT(b, "\n    Binding {\n        op_kind: OpKind::");
        put_rident(b, op->name);
        PUT(b, ",\n        dtypes: [");
        put_dtype(b, bd->dtype);
        PUT(b, ", ");
        put_dtype(b, bd->dtype);
        PUT(b, "],\n        backend: ");
        put_backend(b, s->backend);
        PUT(b, ",\n        kernel_source: ");
        put_rstr(b, s->kernel_source);
        fkcg_buf_printf(b, ",\n        info: &KERNELS[%zu],\n        symbol: ", p->bind_sec[i]);
        put_rstr(b, bd->symbol);
        PUT(b, ",\n        wrapper: ");
        put_rstr(b, bd->wrapper);
        PUT(b, ",\n        kernel: ");
        put_kernel_ref(b, op, bd);
        fkcg_buf_printf(b, ",\n        byte_width: %u,\n        cost: ", (unsigned)bd->byte_width);
        put_cost_ref(b, s, p->bind_sec[i]);
        PUT(b, ",\n    },\n");
    }
    PUT(b, "];\n\n");
}

static const char registry_fns[] =
    "/// The caller's registry: `register_all` calls it once per binding, in table order.\n"
    "pub trait Registry {\n"
    "    /// What a refused registration returns; it stops `register_all`.\n"
    "    type Error;\n"
    "    /// Registers `kernel` under the key (op, [in, out], backend) + kernel_source.\n"
    "    fn register_with_precision(\n        &mut self,\n        op: OpKind,\n"
    "        key: &[DType; 2],\n        backend: Backend,\n"
    "        kernel_source: &'static str,\n        precision: &'static Precision,\n"
    "        kernel: KernelRef,\n    ) -> Result<(), Self::Error>;\n}\n\n";

static void emit_register(fkcg_buf *b, const fkcg_plan *p)
{
    put_str(b, registry_fns);
    PUT(b, "/// Registers every binding with one call each, in table order; stops at the first\n"
           "/// error and returns it.\n"
           "pub fn register_all<R: Registry>(registry: &mut R) -> Result<(), R::Error> {\n");
    for (size_t i = 0; i < p->t->n_bindings; i++) {
        const fkcg_binding *bd = &p->t->bindings[i];
        const fkcg_op_info *op = &p->ops[p->sec_op[p->bind_sec[i]]];
        PUT(b, "    registry.register_with_precision(\n        OpKind::");
        put_rident(b, op->name);
        PUT(b, ",\n        &[");
        put_dtype(b, bd->dtype);
        PUT(b, ", ");
        put_dtype(b, bd->dtype);
        PUT(b, "],\n        ");
        put_backend(b, bd->section->backend);
        PUT(b, ",\n        ");
        put_rstr(b, bd->section->kernel_source);
        fkcg_buf_printf(b, ",\n        &KERNELS[%zu].precision,\n        ", p->bind_sec[i]);
        put_kernel_ref(b, op, bd);
        PUT(b, ",\n    )?;\n");
    }
    PUT(b, "    Ok(())\n}\n\n");
}

static const char lookup_fns[] =
    "/// The binding of (op, [in, out], backend), the first in table order; None when no\n"
    "/// binding has that key (every contract key is [T, T]).\n"
    "pub fn dispatch(op: OpKind, input: DType, output: DType, backend: Backend)\n"
    "    -> Option<&'static Binding> {\n"
    "    if input != output {\n        return None;\n    }\n"
    "    BINDINGS\n        .iter()\n"
    "        .find(|b| b.op_kind == op && b.dtypes[0] == input && b.backend == backend)\n}\n\n"
    "/// The binding of the full key (op, [in, out], backend) + kernel_source.\n"
    "pub fn binding_lookup(op: OpKind, key: [DType; 2], backend: Backend, kernel_source: &str)\n"
    "    -> Option<&'static Binding> {\n"
    "    BINDINGS.iter().find(|b| {\n"
    "        b.op_kind == op && b.dtypes == key && b.backend == backend\n"
    "            && b.kernel_source == kernel_source\n    })\n}\n\n"
    "/// Binary search of one link registry (sorted by symbol) for a symbol.\n"
    "pub fn link_lookup_in(registry: &'static [LinkEntry], symbol: &str)\n"
    "    -> Option<&'static LinkEntry> {\n"
    "    match registry.binary_search_by(|e| e.symbol.cmp(symbol)) {\n"
    "        Ok(i) => Some(&registry[i]),\n        Err(_) => None,\n    }\n}\n\n"
    "/// A symbol's row in any link registry; None when no registry holds it.\n"
    "pub fn link_lookup(symbol: &str) -> Option<&'static LinkEntry> {\n"
    "    LINK_REGISTRIES.iter().find_map(|r| link_lookup_in(r.1, symbol))\n}\n\n";

/* The static a registry path names: its last segment. */
static const char *registry_static(const char *path)
{
    const char *last = strrchr(path, ':');
    return last ? last + 1 : path;
}

static void emit_link(fkcg_buf *b, const fkcg_plan *p)
{
    for (size_t r = 0; r < p->n_registries; r++) {
        const char *reg = p->registries[r];
        size_t n = 0;
        for (size_t i = 0; i < p->t->n_bindings; i++) {
            const fkcg_provider *pr = p->links[i].b->section->provider;
            n += pr && pr->link_registry && !strcmp(pr->link_registry, reg);
        }
        PUT(b, "/// Link registry `");
        put_rdoc(b, reg);
        PUT(b, "`: every `<entry_point>_<suffix>` symbol -> its\n/// byte-width wrapper, "
               "sorted by symbol (byte order).\npub static ");
        put_rident(b, registry_static(reg));
        fkcg_buf_printf(b, ": [LinkEntry; %zu] = [\n", n);
        for (size_t i = 0; i < p->t->n_bindings; i++) {
            const fkcg_link_row *l = &p->links[i];
            const fkcg_provider *pr = l->b->section->provider;
            if (!pr || !pr->link_registry || strcmp(pr->link_registry, reg))
                continue;
            PUT(b, "    // -> ");
            put_rcomment(b, l->b->wrapper);
            PUT(b, "\n    LinkEntry {\n        symbol: ");
            put_rstr(b, l->b->symbol);
            PUT(b, ",\n        registry: ");
            put_rstr(b, reg);
            fkcg_buf_printf(b, ",\n        binding: &BINDINGS[%zu],\n    },\n", l->index);
        }
        PUT(b, "];\n\n");
    }
    fkcg_buf_printf(b, "/// Every link registry: its path and its rows, sorted by path.\n"
                    "pub static LINK_REGISTRIES: [(&str, &[LinkEntry]); %zu] = [\n",
                    p->n_registries);
    for (size_t r = 0; r < p->n_registries; r++) {
        PUT(b, "    (");
        put_rstr(b, p->registries[r]);
        PUT(b, ", &");
        put_rident(b, registry_static(p->registries[r]));
        PUT(b, "),\n");
    }
    PUT(b, "];\n\n");
    put_str(b, lookup_fns);
}

static void emit_cost(fkcg_buf *b, const fkcg_plan *p)
{
    fkcg_buf_printf(b, "/// The shared cost of each op kind (by value): the cost of its first "
                    "section\n/// (by kernel name) that states one with a known provenance.\n"
                    "static SHARED_COST: [&Cost; %zu] = [\n", p->n_ops);
    for (size_t i = 0; i < p->n_ops; i++) {
        PUT(b, "    ");
        put_cost_ref(b, p->ops[i].cost, p->ops[i].cost_sec);
        PUT(b, ", // ");
        put_rcomment(b, p->ops[i].name);
        fkcg_buf_putc(b, '\n');
    }
    put_str(b,
        "];\n\n"
        "/// The shared cost of an op kind (docs/cost.md); None when it has none.\n"
        "pub fn op_shared_cost(op: OpKind) -> Option<&'static Cost> {\n"
        "    let c = SHARED_COST[op as usize];\n"
        "    if c.provenance == CostProvenance::Unknown {\n        None\n    } else {\n"
        "        Some(c)\n    }\n}\n\n"
        "/// Upgrades every binding of `backend` whose cost is the unknown sentinel to its op\n"
        "/// kind's shared cost, when it has one; works on a caller's copy of the table (e.g.\n"
        "/// `BINDINGS.to_vec()`). Returns the number of bindings upgraded.\n"
        "pub fn fill_unset_cost_for_backend(bindings: &mut [Binding], backend: Backend) -> usize {\n"
        "    let mut filled = 0;\n"
        "    for b in bindings.iter_mut() {\n"
        "        if b.backend != backend || b.cost.provenance != CostProvenance::Unknown {\n"
        "            continue;\n        }\n"
        "        if let Some(shared) = op_shared_cost(b.op_kind) {\n"
        "            b.cost = shared;\n            filled += 1;\n        }\n"
        "    }\n    filled\n}\n");
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* The runtime interface the module is written for: it refuses to compile beside an rt (the
 * crate's declarations of the runtime's C API) of another, as the C header does. */
static void emit_abi(fkcg_buf *b)
{
    PUT(b, "/// The fkc runtime interface (`FKC_RUNTIME_ABI`) these bindings were generated for.\n"
           "pub const RUNTIME_ABI: i32 = " STR(FKCG_RUNTIME_ABI) ";\n"
           "const _: () = assert!(RUNTIME_ABI == rt::FKC_RUNTIME_ABI,\n"
           "                      \"these bindings were generated for another fkc runtime "
           "interface: regenerate them with the fkcgen of this runtime (make)\");\n\n");
}

static void emit_all(const fkcg_plan *p, fkcg_buf *out)
{
    emit_banner(out, p->t);
    emit_abi(out);
    emit_op_kinds(out, p);
    emit_dtypes(out);
    emit_backends(out);
    emit_schema_enums(out);
    emit_op_params(out, p);
    emit_ops(out, p);
    emit_kernel_ref(out, p);
    put_str(out, table_types);
    emit_data(out, p);
    emit_providers(out, p->t);
    emit_kernels(out, p);
    emit_bindings(out, p);
    emit_register(out, p);
    emit_link(out, p);
    emit_cost(out, p);
}

void fkcg_emit_rust(const fkcg_table *table, fkcg_buf *out)
{
    fkcg_plan p;
    fkcg_plan_init(&p, table, NULL);
    emit_all(&p, out);
    fkcg_plan_free(&p);
}

/* ---- checks ---------------------------------------------------------------------------- */

typedef struct rchecker {
    fkcg_diag *d;
} rchecker;

static void report(rchecker *ck, fkcg_loc loc, const char *what, const char *value,
                   const char *why)
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

static void check_registries(rchecker *ck, const fkcg_plan *p)
{
    const fkcg_table *t = p->t;
    for (size_t i = 0; i < t->n_providers; i++) {
        const fkcg_provider *pr = t->providers[i];
        const char *reg = pr->link_registry;
        const char *name = reg ? registry_static(reg) : NULL;
        if (!reg || !fkcg_is_c_path(reg) || !upper_snake(name) ||
            bsearch(name, own_values, sizeof own_values / sizeof own_values[0],
                    sizeof own_values[0], cmp_name)) {
            report(ck, pr->loc, "link_registry", reg, "must end in the name of a Rust static: "
                   "UPPER_SNAKE_CASE and none of the module's own (BINDINGS, KERNELS, "
                   "LINK_REGISTRIES, PROVIDERS, SHARED_COST, UNKNOWN_COST)");
            continue;
        }
        for (size_t j = 0; j < i; j++) {
            const char *other = t->providers[j]->link_registry;
            if (other && strcmp(other, reg) && !strcmp(registry_static(other), name)) {
                report(ck, pr->loc, "link_registry", reg, "ends in the same Rust static as "
                       "another provider's link_registry; the statics would clash");
                fkcg_emit_note(ck->d, t->providers[j]->loc, "the other provider is here");
            }
        }
    }
}

static void check_section_names(rchecker *ck, const fkcg_plan *p, size_t i)
{
    const fkcg_section *s = p->t->sections[i];
    const fkcg_op_info *op = &p->ops[p->sec_op[i]];
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
    if (s->backend && backend_value(s->backend) < 0)
        report(ck, s->loc, "backend", s->backend, "has no value in the runtime's fkc_backend");
    /* The sections of one op kind share its OpParams variant; op kinds do not share one. */
    if (op->sig != s && (s->variant == NULL) == (op->sig->variant == NULL) && s->variant &&
        strcmp(s->variant, op->sig->variant)) {
        report(ck, s->loc, "op_params variant", s->variant, "differs from the variant another "
               "section of this op kind names; an op kind has one OpParams variant");
        fkcg_emit_note(ck->d, op->sig->loc, "the op kind's variant is named here");
    }
    for (size_t j = 0; s->variant && op->sig == s && j < p->n_ops; j++) {
        const fkcg_section *o = p->ops[j].sig;
        if (&p->ops[j] != op && o->variant && !strcmp(o->variant, s->variant) &&
            j < p->sec_op[i]) {
            report(ck, s->loc, "op_params variant", s->variant, "is also the variant of "
                   "another op kind; each op kind needs its own OpParams variant");
            fkcg_emit_note(ck->d, o->loc, "the other op kind names it here");
        }
    }
}

/* The checks through the diagnostics sink d; then, when out is given and they found
 * nothing, the module. */
static size_t check_then_emit(const fkcg_table *t, fkcg_diag *d, fkcg_buf *out)
{
    size_t errors = 1;
    if (!fkcg_emit_empty(t, d)) {
        fkcg_plan p;
        fkcg_plan_init(&p, t, NULL);
        size_t before = fkcg_diag_errors(d);
        fkcg_plan_check(&p, d);
        rchecker ck = {d};
        for (size_t i = 0; i < p.t->n_sections; i++)
            check_section_names(&ck, &p, i);
        check_registries(&ck, &p);
        errors = fkcg_diag_errors(d) - before;
        if (errors == 0 && out)
            emit_all(&p, out);
        fkcg_plan_free(&p);
    }
    return errors;
}

/* A sink of its own over diag: no contract text, so no quoted line. */
size_t fkcg_emit_rust_check(const fkcg_table *t, FILE *diag)
{
    fkcg_diag *d = fkcg_diag_new(diag);
    size_t errors = check_then_emit(t, d, NULL);
    fkcg_diag_free(d);
    return errors;
}

size_t fkcg_emit_rust_checked(const fkcg_table *t, struct fkcg_diag *d, fkcg_buf *out)
{
    return check_then_emit(t, d, out);
}
