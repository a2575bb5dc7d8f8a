/* emit_c.c — the C back end's printers: from the plan (emit_plan.c) one small emitter per
 * output section writes generated/fkc_bindings.{h,c}, in order (banner, types, tables,
 * registration, dispatch, link registry, cost). Every contract string reaches the output
 * through put_cstr (escaped) or put_comment (sanitised); every identifier through put_ident
 * (checked). See docs/generated-code.md. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "emit.h"
#include "fkcgen.h"
#include "internal.h"

/* ---- output primitives (buf.h) ------------------------------------------------------------ */

static inline void put_str(fkcg_buf *b, const char *s)
{
    fkcg_buf_puts(b, s);
}

static inline void put_ch(fkcg_buf *b, char c)
{
    fkcg_buf_putc(b, c);
}

/* The generated code's own names carry the prefix of `fkcgen gen --prefix` (default fkc).
 * The emitter's fixed texts write them as @_name and @@_NAME; put_tpl, the one place that
 * knows the prefix, writes "@" as the prefix and "@@" as the prefix in upper case (fkc_name,
 * FKC_NAME). The runtime's names (fkc_status, FKC_DTYPE_F32, fkc_write_slice_b4, ...) are
 * written as they are. Contract text never goes through put_tpl. */
static struct {
    char lower[FKCG_PREFIX_MAX + 1];
    char upper[FKCG_PREFIX_MAX + 1];
    size_t len;
} prefix;

static void set_prefix(const char *name)
{
    size_t n = strlen(name);
    if (n > FKCG_PREFIX_MAX)
        n = FKCG_PREFIX_MAX; /* checked before: fkcg_prefix_problem */
    for (size_t i = 0; i < n; i++) {
        prefix.lower[i] = name[i];
        prefix.upper[i] = fkcg_upper_byte[(unsigned char)name[i]];
    }
    prefix.lower[n] = prefix.upper[n] = '\0';
    prefix.len = n;
}

static void put_tpl(fkcg_buf *b, const char *s, size_t n)
{
    const char *end = s + n, *at;
    while ((at = memchr(s, '@', (size_t)(end - s))) != NULL) {
        fkcg_buf_put(b, s, (size_t)(at - s));
        bool upper = at + 1 < end && at[1] == '@';
        fkcg_buf_put(b, upper ? prefix.upper : prefix.lower, prefix.len);
        s = at + (upper ? 2 : 1);
    }
    fkcg_buf_put(b, s, (size_t)(end - s));
}

static void put_tpl_str(fkcg_buf *b, const char *s)
{
    put_tpl(b, s, strlen(s));
}

/* The same expansion into dst (cap bytes, NUL-terminated, cut when too long), for the few
 * names that are measured or escaped before they are written. */
static const char *tpl_to(char *dst, size_t cap, const char *tpl)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    put_tpl_str(&b, tpl);
    snprintf(dst, cap, "%s", b.data ? b.data : "");
    fkcg_buf_free(&b);
    return dst;
}

/* A string literal, through put_tpl (the "" makes anything else a compile error). */
#define PUT(b, lit) put_tpl((b), "" lit, sizeof(lit) - 1)


/* A static of the generated source named after a section's index ("cost_3_flops"): such
 * names cannot collide with one another nor with a wrapper (those end in _b1.._b8). */
static void put_sec_name(fkcg_buf *b, const char *prefix, size_t sec, const char *suffix)
{
    put_str(b, prefix);
    fkcg_buf_put_u64(b, sec);
    put_str(b, suffix);
}

/* An identifier built from contract names: written only if it is one (defence in depth:
 * fkcg_emit_c_check rejects such input first), otherwise an #error line breaks the build. */
static void put_ident(fkcg_buf *b, const char *s)
{
    size_t n = fkcg_emit_ident_len(s);
    if (n)
        fkcg_buf_put(b, s, n);
    else
        PUT(b, "\n#error \"fkcgen: invalid identifier\"\n");
}

/* A contract string as a C string literal: printable ASCII stays, except " \ and ? (so no
 * trigraph can form); everything else (newlines, controls, non-ASCII bytes) becomes a
 * three-digit octal escape. NULL becomes the null pointer constant. */
static void put_cstr(fkcg_buf *b, const char *s)
{
    if (!s) {
        PUT(b, "NULL");
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
            PUT(b, "\\n");
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
        PUT(b, "0.0");
        return;
    }
    if (!isfinite(v)) {
        PUT(b, "0.0 /* not finite */");
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
        PUT(b, ".0");
}

/* ---- emitters: shared pieces --------------------------------------------------------- */

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

/* PREFIX + VALUE of a schema enum; PREFIX + UNKNOWN when value is NULL. */
static void put_enum(fkcg_buf *b, int which, const char *value)
{
    put_tpl_str(b, fkcg_enum_specs[which].prefix);
    put_upper(b, value ? value : "UNKNOWN");
}

static void put_dtype(fkcg_buf *b, int dtype)
{
    PUT(b, "FKC_DTYPE_");
    put_upper(b, fkcg_dtypes[dtype].name);
}

static void put_backend(fkcg_buf *b, const char *backend)
{
    PUT(b, "FKC_BACKEND_");
    put_upper(b, backend);
}

static const char *rel_file(const fkcg_section *s)
{
    if (s->provider && s->provider->rel_file)
        return s->provider->rel_file;
    return s->loc.file ? s->loc.file : "";
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

/* Where a kernel's byte-width wrappers come from: the runtime (fkc_<kernel>_b<width>, declared
 * by fkc/fkc_kernels.h) or the code that links the bindings (<prefix>_<kernel>_b<width>). */
static const char *wrapper_prefix(const fkcg_section *s)
{
    return fkcg_runtime_kernel_find(s->kernel) ? "fkc_" : "@_";
}

/* The C symbol of a binding's wrapper ("fkc_write_slice_b4"). */
static void put_wrapper(fkcg_buf *b, const fkcg_binding *bd)
{
    put_tpl_str(b, wrapper_prefix(bd->section));
    put_ident(b, bd->wrapper);
}

/* "[3] write_slice F16 -> write_slice_b2" */
static void put_binding_label(fkcg_buf *b, const fkcg_binding *bd, size_t index)
{
    put_ch(b, '[');
    fkcg_buf_put_u64(b, index);
    PUT(b, "] ");
    put_comment(b, bd->section->kernel);
    put_ch(b, ' ');
    put_comment(b, fkcg_dtypes[bd->dtype].name);
    PUT(b, " -> ");
    put_tpl_str(b, wrapper_prefix(bd->section));
    put_comment(b, bd->wrapper);
}

/* The same as a C string literal. */
static void put_wrapper_cstr(fkcg_buf *b, const fkcg_binding *bd)
{
    char pre[FKCG_PREFIX_MAX + 2], sym[FKCG_PREFIX_MAX + FKCG_C_IDENT_MAX + 8];
    snprintf(sym, sizeof sym, "%s%s", tpl_to(pre, sizeof pre, wrapper_prefix(bd->section)),
             fkcg_nz(bd->wrapper));
    put_cstr(b, sym);
}

static void put_ref(fkcg_buf *b, const fkcg_op_info *op, const fkcg_binding *bd)
{
    PUT(b, "{.");
    put_ident(b, op->snake);
    PUT(b, " = ");
    put_wrapper(b, bd);
    put_ch(b, '}');
}

/* The banner. The source's names each contract's text hash (drift detection is exact through
 * it); the header's does not, so a prose-only edit of a contract changes the source alone. */
static void emit_banner(fkcg_buf *b, const fkcg_table *t, const char *name, bool text_hashes)
{
    PUT(b, "/* ");
    put_tpl_str(b, name);
    PUT(b, " - generated by fkcgen " FKCGEN_VERSION " from:\n");
    for (size_t i = 0; i < t->n_providers; i++) {
        const fkcg_provider *pr = t->providers[i];
        PUT(b, " *   ");
        put_comment(b, pr->rel_file ? pr->rel_file : pr->loc.file);
        if (text_hashes && pr->text_hash) {
            PUT(b, " (text xxh3-128 ");
            put_comment(b, pr->text_hash);
            put_ch(b, ')');
        }
        put_ch(b, '\n');
    }
    PUT(b, " * Do not edit: change the contracts and run `make` (fkcgen gen).\n"
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
 * alignment when text would cross WRAP_COLUMN. first: no separator. *col: the column b's
 * last line ends at, kept up to date (rather than found again by a scan per parameter). */
static void put_param(fkcg_buf *b, size_t open, size_t *col, bool first, const char *a,
                      const char *c, const char *d)
{
    size_t n = strlen(a) + strlen(c) + strlen(d);
    if (!first) {
        if (*col + 2 + n + 2 > WRAP_COLUMN) {
            PUT(b, ",\n");
            for (size_t k = 0; k < open; k++)
                put_ch(b, ' ');
            *col = open;
        } else {
            PUT(b, ", ");
            *col += 2;
        }
    }
    put_str(b, a);
    put_str(b, c);
    put_str(b, d);
    *col += n;
    if (strchr(a, '\n') || strchr(c, '\n') || strchr(d, '\n')) /* an #error line */
        *col = column(b);
}

/* The C parameter list of an op kind's function type, wrapped under its '('. */
static void put_params(fkcg_buf *b, const fkcg_op_info *op)
{
    const fkcg_section *s = op->sig;
    put_ch(b, '(');
    size_t open = column(b), col = open;
    put_param(b, open, &col, true, "fkc_stream *stream", "", "");
    for (size_t i = 0; i < s->n_inputs; i++)
        put_param(b, open, &col, false, "const fkc_tensor *",
                  fkcg_emit_is_ident(s->inputs[i].name) ? s->inputs[i].name
                  : "\n#error \"fkcgen: invalid identifier\"\n", "");
    for (size_t i = 0; i < s->n_outputs; i++)
        put_param(b, open, &col, false, "fkc_tensor *",
                  fkcg_emit_is_ident(s->outputs[i].name) ? s->outputs[i].name
                  : "\n#error \"fkcgen: invalid identifier\"\n", "");
    char lead[FKCG_PREFIX_MAX + 8];
    tpl_to(lead, sizeof lead, "const @_");
    if (s->variant || op->runtime)
        put_param(b, open, &col, false, lead, op->snake, "_params *params");
    else
        put_param(b, open, &col, false, "const void *params", "", "");
    put_param(b, open, &col, false, "const fkc_op_extra *extra", "", "");
    put_ch(b, ')');
}

/* ---- the header ---------------------------------------------------------------------- */

#define STR_(x) #x
#define STR(x) STR_(x)

/* The include guard, the headers, and the check of the runtime interface version: generated
 * for FKCG_RUNTIME_ABI, refused by the compiler against fkc headers of another. */
static void emit_h_prologue(fkcg_buf *b)
{
    PUT(b, "#ifndef @@_BINDINGS_H\n#define @@_BINDINGS_H\n\n"
           "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
           "#include \"fkc/fkc_kernels.h\"\n\n"
           "/* Generated for the fkc runtime interface " STR(FKCG_RUNTIME_ABI) " (FKC_RUNTIME_ABI): "
           "another runtime's headers are\n * refused here, and its library at link time "
           "(fkc_runtime_abi_" STR(FKCG_RUNTIME_ABI) "). */\n"
           "#if !defined(FKC_RUNTIME_ABI)\n"
           "#error \"@_bindings.h was generated for fkc runtime ABI " STR(FKCG_RUNTIME_ABI)
           ", these fkc headers have none: regenerate it with the fkcgen of the fkc you build "
           "with (make)\"\n"
           "#elif FKC_RUNTIME_ABI != " STR(FKCG_RUNTIME_ABI) "\n"
           "#define @@_BINDINGS_ABI_STR_(x) #x\n"
           "#define @@_BINDINGS_ABI_STR(x) @@_BINDINGS_ABI_STR_(x)\n"
           "_Static_assert(0, \"@_bindings.h was generated for fkc runtime ABI "
           STR(FKCG_RUNTIME_ABI) ", this runtime is ABI \"\n"
           "               @@_BINDINGS_ABI_STR(FKC_RUNTIME_ABI) \": regenerate it with the "
           "fkcgen of this runtime (make)\");\n"
           "#endif\n\n"
           "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
}

static void emit_h_op_kinds(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/* Op kinds named by the contracts, sorted by name. */\n"
                     "typedef enum @_op_kind {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        PUT(b, "    @@_OP_");
        put_ident(b, p->ops[i].upper);
        PUT(b, " = ");
        fkcg_buf_put_u64(b, i);
        PUT(b, ", /* ");
        put_comment(b, p->ops[i].name);
        PUT(b, " */\n");
    }
    PUT(b, "    @@_OP_KIND_COUNT = ");
    fkcg_buf_put_u64(b, p->n_ops);
    PUT(b, "\n} @_op_kind;\n\n"
                     "/* The contract name of an op kind (\"WriteSlice\"); NULL when unknown. */\n"
                     "const char *@_op_kind_name(@_op_kind op);\n\n");
}

static void emit_h_enums(fkcg_buf *b)
{
    for (int w = 0; w < FKCG_EN_COUNT; w++) {
        const fkcg_enum_spec *sp = &fkcg_enum_specs[w];
        const fkcg_enum *e = fkcg_enum_find(sp->schema);
        PUT(b, "/* The schema's ");
        put_str(b, sp->schema);
        put_str(b, sp->with_unknown ? " values; UNKNOWN: the contract states none. */\n"
                                          : " values. */\n");
        PUT(b, "typedef enum ");
        put_tpl_str(b, sp->ctype);
        PUT(b, " {\n");
        unsigned v = 0;
        if (sp->with_unknown) {
            PUT(b, "    ");
            put_enum(b, w, NULL);
            PUT(b, " = 0,\n");
            v++;
        }
        for (size_t i = 0; e && i < e->count; i++) {
            PUT(b, "    ");
            put_enum(b, w, e->values[i]);
            PUT(b, " = ");
            fkcg_buf_put_u64(b, v++);
            PUT(b, ", /* ");
            put_comment(b, e->values[i]);
            PUT(b, " */\n");
        }
        PUT(b, "    ");
        put_enum(b, w, "COUNT");
        PUT(b, " = ");
        fkcg_buf_put_u64(b, v);
        PUT(b, "\n} ");
        put_tpl_str(b, sp->ctype);
        PUT(b, ";\n\n");
    }
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
        PUT(b, "; /* ");
        put_comment(b, f->kind);
        if (f->note) {
            PUT(b, ": ");
            put_comment(b, f->note);
        }
        PUT(b, " */\n");
        if (vec) {
            PUT(b, "    size_t ");
            put_ident(b, f->name);
            PUT(b, "_len; /* number of elements of ");
            put_comment(b, f->name);
            PUT(b, " */\n");
        }
    }
    if (s->n_fields == 0)
        PUT(b, "    char unused; /* the variant has no fields */\n");
}

/* One params struct per op kind; an op kind the runtime implements takes the runtime's struct
 * (the generated source checks it against the contract's fields: emit_c_runtime_params). */
static void emit_h_params(fkcg_buf *b, const fkcg_plan *p)
{
    for (size_t i = 0; i < p->n_ops; i++) {
        const fkcg_op_info *op = &p->ops[i];
        const fkcg_section *s = op->sig;
        if (!s->variant && !op->runtime)
            continue;
        PUT(b, "/* OpParams::");
        put_comment(b, s->variant);
        PUT(b, ": the parameters of ");
        put_comment(b, op->name);
        put_ch(b, ' ');
        put_where(b, s, false);
        if (op->runtime) {
            PUT(b, ",\n * the fkc runtime's (fkc/fkc_kernels.h); @_bindings.c checks them against "
                   "the contract. */\ntypedef fkc_");
            put_ident(b, op->snake);
            PUT(b, "_params @_");
            put_ident(b, op->snake);
            PUT(b, "_params;\n\n");
            continue;
        }
        PUT(b, " */\ntypedef struct @_");
        put_ident(b, op->snake);
        PUT(b, "_params {\n");
        put_fields(b, s);
        PUT(b, "} @_");
        put_ident(b, op->snake);
        PUT(b, "_params;\n\n");
    }
}

static void emit_h_fn_types(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/* One function type per op kind: the stream, the inputs (const), the outputs,\n"
                     " * the op's params and the runtime's extras; @_<op>_fn points to one. */\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        PUT(b, "typedef fkc_status @_");
        put_ident(b, p->ops[i].snake);
        PUT(b, "_kernel");
        put_params(b, &p->ops[i]);
        PUT(b, ";\ntypedef @_");
        put_ident(b, p->ops[i].snake);
        PUT(b, "_kernel *@_");
        put_ident(b, p->ops[i].snake);
        PUT(b, "_fn;\n");
    }
    PUT(b, "\n/* A kernel reference: the member named after the op kind is the one set. */\n"
                     "typedef union @_kernel_ref {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        PUT(b, "    @_");
        put_ident(b, p->ops[i].snake);
        PUT(b, "_fn ");
        put_ident(b, p->ops[i].snake);
        PUT(b, "; /* ");
        put_comment(b, p->ops[i].name);
        PUT(b, " */\n");
    }
    PUT(b, "} @_kernel_ref;\n\n");
}

/* Bit set of the byte widths a section's bindings use (bit w for width w). */
static unsigned section_widths(const fkcg_plan *p, size_t sec, const size_t *first, size_t count)
{
    unsigned mask = 0;
    for (size_t k = first[sec]; k < count && p->bind_sec[k] == sec; k++)
        mask |= 1u << p->t->bindings[k].byte_width;
    return mask;
}

static void emit_h_wrappers(fkcg_buf *b, const fkcg_plan *p, const size_t *first)
{
    PUT(b, "/* Byte-width wrappers, one per byte width a kernel's dtypes use, declared through\n"
           " * the op's function type: fkc_<kernel>_b<width> for a kernel of the fkc runtime\n"
           " * (declared by fkc/fkc_kernels.h too: a contract that disagrees with it does not\n"
           " * compile), <prefix>_<kernel>_b<width> for the others (prefix: that of these\n"
           " * bindings), defined by the code that links them. */\n");
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->t->sections[i];
        const fkcg_op_info *op = &p->ops[p->sec_op[i]];
        unsigned mask = section_widths(p, i, first, p->t->n_bindings);
        PUT(b, "/* ");
        put_comment(b, s->kernel);
        put_ch(b, ' ');
        put_where(b, s, false);
        PUT(b, " */\n@_");
        put_ident(b, op->snake);
        PUT(b, "_kernel ");
        size_t open = column(b), col = open;
        bool lead = true;
        char pre[FKCG_PREFIX_MAX + 2];
        tpl_to(pre, sizeof pre, wrapper_prefix(s));
        for (unsigned w = 1; w <= 8; w *= 2) {
            if (!(mask & (1u << w)))
                continue;
            static const char *const suffix[9] = {"", "_b1", "_b2", "", "_b4", "", "", "", "_b8"};
            put_param(b, open, &col, lead, pre,
                      fkcg_emit_is_ident(s->kernel) ? s->kernel : "#error", suffix[w]);
            lead = false;
        }
        PUT(b, ";\n");
    }
    put_ch(b, '\n');
}

static const char h_tables[] =
    "/* A fast path a kernel takes, and the cost class it then has. */\n"
    "typedef struct @_fast_path {\n"
    "    const char *when;           /* \"all_inputs_contiguous\" */\n"
    "    @_cost_class cost_class;\n"
    "} @_fast_path;\n\n"
    "typedef struct @_caps {\n"
    "    @_layout_strategy awkward_layout_strategy;\n"
    "    const @_fast_path *fast_paths; /* NULL when none */\n"
    "    size_t n_fast_paths;\n"
    "    bool in_place;\n"
    "    uint32_t alignment_bytes;\n"
    "    uint32_t access_granularity_bits;\n"
    "} @_caps;\n\n"
    "/* A cost function: n = element count of the first input, dtype_bytes its byte width,\n"
    " * params the op's params struct (it may be NULL when the expression names no field;\n"
    " * NAN when it does and params is NULL). */\n"
    "typedef double (*@_cost_fn)(uint64_t n, uint64_t dtype_bytes, const void *params);\n\n"
    "/* A cost. provenance UNKNOWN is the unknown-cost sentinel (docs/cost.md). */\n"
    "typedef struct @_cost {\n"
    "    @_cost_provenance provenance;\n"
    "    @_cost_class cost_class;\n"
    "    @_cost_fn flops;          /* NULL when not stated */\n"
    "    @_cost_fn bytes_moved;    /* NULL when not stated */\n"
    "} @_cost;\n\n"
    "typedef struct @_precision {\n"
    "    bool bit_stable_on_same_hardware;\n"
    "    uint64_t max_ulp;\n"
    "    double max_relative;\n"
    "    double max_absolute;\n"
    "    bool audited;\n"
    "    const char *notes;          /* NULL when none */\n"
    "} @_precision;\n\n"
    "/* One kernel section of a contract: what its bindings share. */\n"
    "typedef struct @_kernel_info {\n"
    "    const char *kernel;         /* contract kernel name */\n"
    "    @_op_kind op_kind;\n"
    "    fkc_backend backend;\n"
    "    const char *kernel_source;\n"
    "    const char *blurb;\n"
    "    const char *entry_point;    /* the base symbol, fanned over the dtypes */\n"
    "    @_caps caps;\n"
    "    @_precision precision;\n"
    "    @_determinism determinism;\n"
    "    const char *revision_hash;  /* 32 hex digits */\n"
    "    const char *source_file;    /* repo-relative */\n"
    "    uint32_t source_line;       /* first line of the fkc block */\n"
    "} @_kernel_info;\n\n"
    "/* One binding: key (op_kind, [in, out], backend) + kernel_source -> kernel. What the\n"
    " * bindings of one section share (kernel_source, caps, precision, determinism, revision\n"
    " * hash, source file and line) is in *info. */\n"
    "typedef struct @_binding {\n"
    "    @_op_kind op_kind;\n"
    "    fkc_dtype dtypes[2];        /* [in, out] */\n"
    "    fkc_backend backend;\n"
    "    const @_kernel_info *info; /* its section, in @_kernels */\n"
    "    const char *symbol;         /* <entry_point>_<dtype suffix> */\n"
    "    const char *wrapper;        /* its C symbol, \"fkc_write_slice_b4\" */\n"
    "    @_kernel_ref ref;\n"
    "    uint32_t byte_width;\n"
    "    const @_cost *cost;       /* never NULL; @_fill_unset_cost_for_backend upgrades it */\n"
    "} @_binding;\n\n";

static const char h_functions[] =
    "/* The caller's registry: called once per binding, in table order; a non-zero return\n"
    " * stops the registration. */\n"
    "typedef int (*@_register_fn)(void *registry, @_op_kind op, const fkc_dtype key[2],\n"
    "                               fkc_backend backend, const char *kernel_source,\n"
    "                               const @_precision *precision, @_kernel_ref ref);\n"
    "/* Registers every binding with one call each; returns 0, the first non-zero value\n"
    " * register_with_precision returned, or FKC_ERR_INVALID_ARGUMENT when it is NULL. */\n"
    "int @_register_bindings(void *registry, @_register_fn register_with_precision);\n\n"
    "/* Dispatch: op + [in, out] dtypes + backend -> the byte-width wrapper. FKC_OK and *ref\n"
    " * set; FKC_ERR_NO_KERNEL when no binding has that key; FKC_ERR_INVALID_ARGUMENT when\n"
    " * ref is NULL. */\n"
    "fkc_status @_dispatch(@_op_kind op, fkc_dtype in, fkc_dtype out, fkc_backend backend,\n"
    "                        @_kernel_ref *ref);\n\n"
    "/* The link registry: every <entry_point>_<suffix> symbol -> its wrapper. */\n"
    "typedef struct @_link_entry {\n"
    "    const char *symbol;         /* \"fuel_vulkan_backend::fkc::write_slice_f32\" */\n"
    "    uint32_t registry;          /* index in @_link_registry_names */\n"
    "    const @_binding *binding; /* its row: op_kind, ref, wrapper, ... */\n"
    "} @_link_entry;\n\n";

static const char h_functions2[] =
    "/* The link registry names (the providers' link_registry), sorted. */\n"
    "extern const char *const @_link_registry_names[@@_LINK_REGISTRY_COUNT];\n"
    "/* Sorted by symbol (strcmp order). */\n"
    "extern const @_link_entry @_link_registry[@@_LINK_ENTRY_COUNT];\n"
    "/* Binary search by symbol; NULL when unknown (or symbol is NULL). */\n"
    "const @_link_entry *@_link_lookup(const char *symbol);\n\n"
    "/* &fkc_runtime_abi_<N>: the reference that makes linking with a libfkc of another\n"
    " * interface fail (fkc/fkc_kernels.h). */\n"
    "extern const int *const @_runtime_abi;\n\n"
    "/* The shared cost of an op kind (docs/cost.md); NULL when unknown or none. */\n"
    "const @_cost *@_op_shared_cost(@_op_kind op);\n"
    "/* Upgrades every binding of `backend` whose cost is the unknown sentinel to its op\n"
    " * kind's shared cost, when the op kind has one. Works on a caller's mutable copy of\n"
    " * the table; returns the number of bindings upgraded. */\n"
    "size_t @_fill_unset_cost_for_backend(@_binding *bindings, size_t count,\n"
    "                                       fkc_backend backend);\n\n";

/* The pair hash (docs/generated-code.md): the source compares it with its own copy. */
static const char h_pair_hash_comment[] =
    "/* XXH3-64 of this header without the next line: @_bindings.c refuses to compile\n"
    " * beside a header from another fkcgen run. */\n";

static const char h_epilogue[] =
    "\n#ifdef __cplusplus\n}\n#endif\n#endif /* @@_BINDINGS_H */\n";

static void emit_h_facts(fkcg_buf *b, const fkcg_plan *p);

static void emit_h_tables(fkcg_buf *b, const fkcg_plan *p)
{
    put_tpl_str(b, h_tables);
    PUT(b, "#define @@_KERNEL_COUNT ");
    fkcg_buf_put_u64(b, p->t->n_sections);
    PUT(b, "\nextern const @_kernel_info @_kernels[@@_KERNEL_COUNT]; "
                     "/* sorted by kernel */\n#define @@_BINDING_COUNT ");
    fkcg_buf_put_u64(b, p->t->n_bindings);
    PUT(b, "\nextern const @_binding @_bindings[@@_BINDING_COUNT]; "
                     "/* by op kind, backend, kernel, dtype */\n\n");
    put_tpl_str(b, h_functions);
    PUT(b, "#define @@_LINK_REGISTRY_COUNT ");
    fkcg_buf_put_u64(b, p->n_registries);
    PUT(b, "\n#define @@_LINK_ENTRY_COUNT ");
    fkcg_buf_put_u64(b, p->t->n_bindings);
    put_ch(b, '\n');
    put_tpl_str(b, h_functions2);
    emit_h_facts(b, p);
}

/* ---- every contract fact: the contract tables (docs/generated-code.md) ---------------------- */

#define C_LAYOUT_FIELD(e, key, doc, rust_doc) "    @_layout_rule " key ";\n"
static const char h_facts[] =
    "/* ---- The rest of each section's contract: every fact it states. ---- */\n\n"
    "/* An input (accept.inputs): layout keys UNKNOWN when the contract does not state them. */\n"
    "typedef struct @_input_info {\n"
    "    const char *name;             /* \"src\" */\n"
    "    const fkc_dtype *dtypes;      /* the accepted dtypes, in contract order */\n"
    "    size_t n_dtypes;\n"
    FKCG_LAYOUTS(C_LAYOUT_FIELD)
    "    const char *rank;             /* \"any\" or a decimal number */\n"
    "    const char *shape_constraint; /* NULL when none */\n"
    "} @_input_info;\n\n"
    "/* An output (return.outputs): the rules as written, and their argument. */\n"
    "typedef struct @_output_info {\n"
    "    const char *name;             /* \"out\" */\n"
    "    const char *dtype_rule;       /* \"passthrough(src)\" */\n"
    "    const char *dtype_rule_arg;   /* \"src\": an input */\n"
    "    const char *shape_rule;       /* \"from_params(dst_shape)\" or \"same_as(src)\" */\n"
    "    const char *shape_rule_arg;   /* \"dst_shape\": a field, or an input */\n"
    "    @_layout_guarantee layout_guarantee;\n"
    "    @_aliasing aliasing;\n"
    "} @_output_info;\n\n"
    "/* An op_params field, in contract (parameter) order. */\n"
    "typedef struct @_field_info {\n"
    "    const char *name;             /* \"dst_shape\" */\n"
    "    const char *kind;             /* \"Vec<usize>\", \"usize\", ... */\n"
    "    const char *note;             /* NULL when none */\n"
    "} @_field_info;\n\n"
    "/* A provider: the front matter of one contract file. */\n"
    "typedef struct @_provider_info {\n"
    "    const char *name;\n"
    "    fkc_backend backend;\n"
    "    const char *kernel_source;\n"
    "    const char *link_registry;\n"
    "    const char *revision_base;\n"
    "    uint32_t fkc_version;\n"
    "    const char *source_file;      /* repo-relative */\n"
    "} @_provider_info;\n\n"
    "/* What @_kernels[i] does not hold of section i's contract. */\n"
    "typedef struct @_contract_info {\n"
    "    const @_provider_info *provider; /* its file's provider */\n"
    "    const @_input_info *inputs;\n"
    "    size_t n_inputs;\n"
    "    const @_output_info *outputs;  /* NULL when none */\n"
    "    size_t n_outputs;\n"
    "    const char *variant;          /* op_params.variant; NULL: the section has no op_params */\n"
    "    const @_field_info *fields;    /* NULL when none */\n"
    "    size_t n_fields;\n"
    "    const @_cost *cost;         /* the section's own cost (the unknown sentinel: none) */\n"
    "    const char *flops;            /* cost.flops as written; NULL when not stated */\n"
    "    const char *bytes_moved;      /* cost.bytes_moved as written; NULL when not stated */\n"
    "} @_contract_info;\n\n";

static const char h_facts2[] =
    "extern const @_provider_info @_providers[@@_PROVIDER_COUNT]; /* sorted by source file */\n"
    "extern const @_contract_info @_contracts[@@_KERNEL_COUNT]; /* [i]: @_kernels[i]'s */\n\n"
    "/* The binding of a key (op, [in, out], backend) + kernel_source, or NULL when none;\n"
    " * kernel_source NULL matches any (the first in table order: the one @_dispatch picks). */\n"
    "const @_binding *@_binding_lookup(@_op_kind op, fkc_dtype in, fkc_dtype out,\n"
    "                                      fkc_backend backend, const char *kernel_source);\n\n";

static void emit_h_facts(fkcg_buf *b, const fkcg_plan *p)
{
    put_tpl_str(b, h_facts);
    PUT(b, "#define @@_PROVIDER_COUNT ");
    fkcg_buf_put_u64(b, p->t->n_providers);
    put_ch(b, '\n');
    put_tpl_str(b, h_facts2);
}

/* ---- the pair hash: XXH3-64 of the header's bytes, but for its own line ---------------- */

/* The header is hashed as it is written: a draining buffer hands its lines to hash_drain
 * (which passes them on to the real sink); the rest is hashed when the header ends. */
typedef struct pair_hasher {
    XXH3_state_t *state;
    fkcg_drain_fn *fn;     /* the header's own sink, or NULL */
    void *ctx;
    size_t from;           /* first byte of the header in the buffer (not drained yet) */
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

/* Ends the header: the hash line, then the epilogue (hashed before it is written). */
static uint64_t hash_end(pair_hasher *h, fkcg_buf *b)
{
    XXH3_64bits_update(h->state, b->data + h->from, b->len - h->from);
    char epilogue[sizeof h_epilogue + 2 * FKCG_PREFIX_MAX];
    tpl_to(epilogue, sizeof epilogue, h_epilogue); /* as put_tpl_str will write it */
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

static void emit_h_pair_hash(fkcg_buf *b, pair_hasher *h, uint64_t *hash)
{
    put_tpl_str(b, h_pair_hash_comment);
    *hash = hash_end(h, b);
    PUT(b, "#define " FKCG_PAIR_HASH_MACRO " ");
    put_pair_hash(b, *hash);
    put_ch(b, '\n');
    put_tpl_str(b, h_epilogue);
}

/* ---- the source ---------------------------------------------------------------------- */

static void emit_c_names(fkcg_buf *b, const fkcg_plan *p, uint64_t pair_hash)
{
    PUT(b, "#include \"@_bindings.h\"\n\n#if !defined(" FKCG_PAIR_HASH_MACRO ") || "
           FKCG_PAIR_HASH_MACRO " != ");
    put_pair_hash(b, pair_hash);
    PUT(b, "\n#error \"@_bindings.c and @_bindings.h come from different fkcgen "
           "runs: regenerate both (make, or fkcgen gen)\"\n#endif\n\n"
           "#include <math.h>\n#include <string.h>\n\n"
           "const char *@_op_kind_name(@_op_kind op)\n{\n    switch (op) {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        PUT(b, "    case @@_OP_");
        put_ident(b, p->ops[i].upper);
        PUT(b, ":\n        return ");
        put_cstr(b, p->ops[i].name);
        PUT(b, ";\n");
    }
    PUT(b, "    default:\n        return NULL;\n    }\n}\n\n");
}

/* The runtime link check (a stale libfkc lacks fkc_runtime_abi_<N>), and for each op kind
 * whose params are the runtime's, the contract's fields checked against them: each field
 * with its C type (a _Generic without a matching association does not compile) at the place
 * it has in the struct the contract states (restated here), and no other field. */
static void emit_c_runtime_params(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/* Links only with an fkc runtime of the interface this file was generated for. */\n"
           "const int *const @_runtime_abi = &fkc_runtime_abi_" STR(FKCG_RUNTIME_ABI) ";\n\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        const fkcg_op_info *op = &p->ops[i];
        const fkcg_section *s = op->sig;
        if (!op->runtime)
            continue;
        PUT(b, "/* ");
        put_comment(b, op->name);
        PUT(b, ": the params as the contract states them ");
        put_where(b, s, true);
        PUT(b, ". A compile\n * error below: the fkc runtime's fkc_");
        put_ident(b, op->snake);
        PUT(b, "_params (fkc/fkc_kernels.h) differ; fix the\n"
               " * contract, or regenerate with the fkcgen of this runtime (make). */\n"
               "struct @_");
        put_ident(b, op->snake);
        PUT(b, "_params_stated {\n");
        put_fields(b, s);
        PUT(b, "};\n");
        for (size_t k = 0; k < s->n_fields; k++) {
            const fkcg_field *f = &s->fields[k];
            bool vec;
            const fkcg_kind_spec *ks = fkcg_kind_lookup(f->kind, &vec);
            for (int len = 0; len <= (vec ? 1 : 0); len++) {
                PUT(b, "_Static_assert(_Generic(((fkc_");
                put_ident(b, op->snake);
                PUT(b, "_params *)0)->");
                put_ident(b, f->name);
                put_str(b, len ? "_len, size_t: 1" : vec ? ", const " : ", ");
                if (!len) {
                    put_str(b, ks ? ks->ctype : "int");
                    put_str(b, vec ? " *: 1" : ": 1");
                }
                PUT(b, ") &&\n               offsetof(fkc_");
                put_ident(b, op->snake);
                PUT(b, "_params, ");
                put_ident(b, f->name);
                put_str(b, len ? "_len" : "");
                PUT(b, ") == offsetof(struct @_");
                put_ident(b, op->snake);
                PUT(b, "_params_stated, ");
                put_ident(b, f->name);
                put_str(b, len ? "_len" : "");
                PUT(b, "),\n               \"");
                put_comment(b, op->name);
                PUT(b, ": the runtime's params differ in field ");
                put_comment(b, f->name);
                put_str(b, len ? "_len" : "");
                PUT(b, "\");\n");
            }
        }
        PUT(b, "_Static_assert(sizeof(fkc_");
        put_ident(b, op->snake);
        PUT(b, "_params) == sizeof(struct @_");
        put_ident(b, op->snake);
        PUT(b, "_params_stated),\n               \"");
        put_comment(b, op->name);
        PUT(b, ": the runtime's params have fields the contract does not state\");\n\n");
    }
}

static bool expr_uses_field(const fkcg_expr *e)
{
    return e && (e->kind == FKCG_EXPR_FIELD || expr_uses_field(e->lhs) ||
                 expr_uses_field(e->rhs));
}

static void put_field_double(fkcg_buf *b, const char *name, const void *ctx)
{
    (void)ctx;
    PUT(b, "(double)p->");
    put_ident(b, name);
}

/* The expression in double arithmetic, fully parenthesised. */
static void put_expr(fkcg_buf *b, const fkcg_expr *e)
{
    static const fkcg_expr_style c_double = { ".0", "(double)n", "(double)dtype_bytes",
                                              put_field_double, NULL, false };
    fkcg_expr_write(e, b, &c_double);
}

static void emit_cost_fn(fkcg_buf *b, const fkcg_op_info *op, const fkcg_section *s, size_t sec,
                         const char *what, const fkcg_expr *e, const char *src)
{
    PUT(b, "/* ");
    put_comment(b, s->kernel);
    put_ch(b, ' ');
    put_str(b, what);
    PUT(b, " = ");
    put_comment(b, src);
    PUT(b, " */\nstatic double ");
    put_sec_name(b, "cost_", sec, "_");
    put_str(b, what);
    PUT(b, "(uint64_t n, uint64_t dtype_bytes, const void *params)\n{\n");
    if (expr_uses_field(e)) {
        PUT(b, "    const @_");
        put_ident(b, op->snake);
        PUT(b, "_params *p = params;\n    (void)n;\n    (void)dtype_bytes;\n"
                         "    if (!p)\n        return (double)NAN;\n    return ");
    } else {
        PUT(b, "    (void)n;\n    (void)dtype_bytes;\n    (void)params;\n    return ");
    }
    put_expr(b, e);
    PUT(b, ";\n}\n\n");
}

static void put_cost(fkcg_buf *b, const fkcg_section *s, size_t sec)
{
    if (!s || !s->cost.present) {
        PUT(b, "{@@_COST_PROVENANCE_UNKNOWN, @@_COST_CLASS_UNKNOWN, NULL, NULL}");
        return;
    }
    put_ch(b, '{');
    put_enum(b, FKCG_EN_PROVENANCE, s->cost.provenance);
    PUT(b, ", ");
    put_enum(b, FKCG_EN_COST_CLASS, s->cost.cost_class);
    PUT(b, ", ");
    if (s->cost.flops) {
        put_sec_name(b, "cost_", sec, "_flops, ");
    } else {
        PUT(b, "NULL, ");
    }
    if (s->cost.bytes_moved) {
        put_sec_name(b, "cost_", sec, "_bytes_moved}");
    } else {
        PUT(b, "NULL}");
    }
}

static void emit_c_sections(fkcg_buf *b, const fkcg_plan *p)
{
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->t->sections[i];
        const fkcg_op_info *op = &p->ops[p->sec_op[i]];
        if (s->caps.n_fast_paths) {
            PUT(b, "/* ");
            put_comment(b, s->kernel);
            PUT(b, " */\nstatic const @_fast_path ");
            put_sec_name(b, "fast_paths_", i, "[] = {\n");
            for (size_t k = 0; k < s->caps.n_fast_paths; k++) {
                PUT(b, "    {");
                put_cstr(b, s->caps.fast_paths[k].when);
                PUT(b, ", ");
                put_enum(b, FKCG_EN_COST_CLASS, s->caps.fast_paths[k].cost_class);
                PUT(b, "},\n");
            }
            PUT(b, "};\n\n");
        }
        if (!s->cost.present)
            continue;
        if (s->cost.flops)
            emit_cost_fn(b, op, s, i, "flops", s->cost.flops, s->cost.flops_src);
        if (s->cost.bytes_moved)
            emit_cost_fn(b, op, s, i, "bytes_moved", s->cost.bytes_moved, s->cost.bytes_moved_src);
        PUT(b, "/* ");
        put_comment(b, s->kernel);
        PUT(b, " */\nstatic const @_cost ");
        put_sec_name(b, "cost_", i, " = ");
        put_cost(b, s, i);
        PUT(b, ";\n\n");
    }
}

static void put_caps(fkcg_buf *b, const fkcg_section *s, size_t sec)
{
    put_ch(b, '{');
    put_enum(b, FKCG_EN_STRATEGY, s->caps.awkward_layout_strategy);
    if (s->caps.n_fast_paths) {
        put_sec_name(b, ", fast_paths_", sec, ", ");
        fkcg_buf_put_u64(b, s->caps.n_fast_paths);
    } else {
        PUT(b, ", NULL, 0");
    }
    put_str(b, s->caps.in_place ? ", true, " : ", false, ");
    fkcg_buf_put_u64(b, s->caps.alignment_bytes);
    PUT(b, ", ");
    fkcg_buf_put_u64(b, s->caps.access_granularity_bits);
    put_ch(b, '}');
}

static void put_precision(fkcg_buf *b, const fkcg_section *s)
{
    put_str(b, s->precision.bit_stable_on_same_hardware ? "{true, " : "{false, ");
    fkcg_buf_put_u64(b, s->precision.max_ulp);
    PUT(b, ", ");
    put_double(b, s->precision.max_relative);
    PUT(b, ", ");
    put_double(b, s->precision.max_absolute);
    put_str(b, s->precision.audited ? ", true, " : ", false, ");
    put_cstr(b, s->precision.notes);
    put_ch(b, '}');
}

static void emit_c_kernels(fkcg_buf *b, const fkcg_plan *p)
{
    bool need_unknown = false; /* emitted only when used: no unused static in the output */
    for (size_t i = 0; i < p->t->n_sections; i++)
        need_unknown |= !p->t->sections[i]->cost.present;
    for (size_t i = 0; i < p->n_ops; i++)
        need_unknown |= p->ops[i].cost == NULL;
    if (need_unknown)
        PUT(b, "/* The unknown-cost sentinel (docs/cost.md). */\n"
                         "static const @_cost unknown_cost = "
                         "{@@_COST_PROVENANCE_UNKNOWN, @@_COST_CLASS_UNKNOWN, NULL, NULL};\n\n");
    PUT(b, "const @_kernel_info @_kernels[@@_KERNEL_COUNT] = {\n");
    for (size_t i = 0; i < p->t->n_sections; i++) {
        const fkcg_section *s = p->t->sections[i];
        PUT(b, "    /* [");
        fkcg_buf_put_u64(b, i);
        PUT(b, "] ");
        put_comment(b, s->kernel);
        put_ch(b, ' ');
        put_where(b, s, true);
        PUT(b, " */\n    {");
        put_cstr(b, s->kernel);
        PUT(b, ", @@_OP_");
        put_ident(b, p->ops[p->sec_op[i]].upper);
        PUT(b, ", ");
        put_backend(b, s->backend);
        PUT(b, ", ");
        put_cstr(b, s->kernel_source);
        PUT(b, ",\n     ");
        put_cstr(b, s->blurb);
        PUT(b, ",\n     ");
        put_cstr(b, s->entry_point);
        PUT(b, ",\n     ");
        put_caps(b, s, i);
        PUT(b, ",\n     ");
        put_precision(b, s);
        PUT(b, ",\n     ");
        put_enum(b, FKCG_EN_DETERMINISM, s->determinism);
        PUT(b, ", ");
        put_cstr(b, s->revision_hash);
        PUT(b, ", ");
        put_cstr(b, rel_file(s));
        PUT(b, ", ");
        fkcg_buf_put_u64(b, s->loc.line);
        PUT(b, "},\n");
    }
    PUT(b, "};\n\n");
}

/* &cost_<section index>, or the unknown sentinel. */
static void put_cost_ref(fkcg_buf *b, const fkcg_section *s, size_t sec)
{
    if (!s || !s->cost.present) {
        PUT(b, "&unknown_cost");
        return;
    }
    put_sec_name(b, "&cost_", sec, "");
}

static void put_binding_row(fkcg_buf *b, const fkcg_plan *p, size_t i)
{
    const fkcg_binding *bd = &p->t->bindings[i];
    const fkcg_section *s = bd->section;
    const fkcg_op_info *op = &p->ops[p->sec_op[p->bind_sec[i]]];
    PUT(b, "    /* ");
    put_binding_label(b, bd, i);
    PUT(b, " */\n    {@@_OP_");
    put_ident(b, op->upper);
    PUT(b, ", {");
    put_dtype(b, bd->dtype);
    PUT(b, ", ");
    put_dtype(b, bd->dtype);
    PUT(b, "}, ");
    put_backend(b, s->backend);
    PUT(b, ", &@_kernels[");
    fkcg_buf_put_u64(b, p->bind_sec[i]);
    PUT(b, "],\n     ");
    put_cstr(b, bd->symbol);
    PUT(b, ", ");
    put_wrapper_cstr(b, bd);
    PUT(b, ", ");
    put_ref(b, op, bd);
    PUT(b, ", ");
    fkcg_buf_put_u64(b, bd->byte_width);
    PUT(b, ", ");
    put_cost_ref(b, s, p->bind_sec[i]);
    PUT(b, "},\n");
}

static void emit_c_bindings(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "const @_binding @_bindings[@@_BINDING_COUNT] = {\n");
    for (size_t i = 0; i < p->t->n_bindings; i++)
        put_binding_row(b, p, i);
    PUT(b, "};\n\n");
}

static void put_key_name(fkcg_buf *b, int dtype)
{
    PUT(b, "key_");
    put_str(b, fkcg_dtypes[dtype].suffix);
}

static void emit_c_register(fkcg_buf *b, const fkcg_plan *p)
{
    bool used[FKCG_NDTYPES] = {false};
    for (size_t i = 0; i < p->t->n_bindings; i++)
        used[p->t->bindings[i].dtype] = true;
    PUT(b, "/* The [in, out] dtype keys of the registrations. */\n");
    for (int d = 0; d < FKCG_NDTYPES; d++) {
        if (!used[d])
            continue;
        PUT(b, "static const fkc_dtype ");
        put_key_name(b, d);
        PUT(b, "[2] = {");
        put_dtype(b, d);
        PUT(b, ", ");
        put_dtype(b, d);
        PUT(b, "};\n");
    }
    PUT(b, "\nint @_register_bindings(void *registry, "
                     "@_register_fn register_with_precision)\n{\n    int rc;\n\n"
                     "    if (!register_with_precision)\n"
                     "        return (int)FKC_ERR_INVALID_ARGUMENT;\n");
    for (size_t i = 0; i < p->t->n_bindings; i++) {
        const fkcg_binding *bd = &p->t->bindings[i];
        const fkcg_section *s = bd->section;
        const fkcg_op_info *op = &p->ops[p->sec_op[p->bind_sec[i]]];
        PUT(b, "    rc = register_with_precision(registry, @@_OP_");
        put_ident(b, op->upper);
        PUT(b, ", ");
        put_key_name(b, bd->dtype);
        PUT(b, ", ");
        put_backend(b, s->backend);
        PUT(b, ", ");
        put_cstr(b, s->kernel_source);
        PUT(b, ",\n        &@_kernels[");
        fkcg_buf_put_u64(b, p->bind_sec[i]);
        PUT(b, "].precision, (@_kernel_ref)");
        put_ref(b, op, bd);
        PUT(b, ");\n    if (rc != 0)\n        return rc;\n");
    }
    PUT(b, "    return 0;\n}\n\n");
}

/* Binding order for dispatch: by op kind, backend, dtype. */
typedef struct disp_row {
    size_t op;
    const fkcg_binding *b;
} disp_row;

static int cmp_disp(const void *x, const void *y)
{
    const disp_row *a = x, *c = y;
    if (a->op != c->op)
        return a->op < c->op ? -1 : 1;
    int r = strcmp(a->b->section->backend, c->b->section->backend);
    if (r)
        return r;
    return (a->b->dtype > c->b->dtype) - (a->b->dtype < c->b->dtype);
}

/* One `if (backend == ...) switch (in)` of one op kind: rows[0..n) share op and backend.
 * The dtypes bound to one wrapper are the cases of one assignment and return. */
static void emit_dispatch_backend(fkcg_buf *b, const fkcg_op_info *op, const disp_row *rows, size_t n)
{
    PUT(b, "        if (backend == ");
    put_backend(b, rows[0].b->section->backend);
    PUT(b, ") {\n            switch (in) {\n");
    bool done[FKCG_NDTYPES] = {false};
    for (size_t i = 0; i < n; i++) {
        if (done[rows[i].b->dtype])
            continue;
        const fkcg_binding *wb = rows[i].b;
        const char *w = wb->wrapper;
        for (size_t k = i; k < n; k++) {
            if (done[rows[k].b->dtype] || strcmp(rows[k].b->wrapper, w) != 0)
                continue;
            done[rows[k].b->dtype] = true;
            PUT(b, "            case ");
            put_dtype(b, rows[k].b->dtype);
            PUT(b, ":\n");
        }
        PUT(b, "                ref->");
        put_ident(b, op->snake);
        PUT(b, " = ");
        put_wrapper(b, wb);
        PUT(b, ";\n                return FKC_OK;\n");
    }
    PUT(b, "            default:\n                break;\n            }\n        }\n");
}

static void emit_c_dispatch(fkcg_buf *b, const fkcg_plan *p)
{
    size_t n = p->t->n_bindings;
    disp_row *rows = fkcg_xcalloc(n, sizeof *rows);
    for (size_t i = 0; i < n; i++) {
        rows[i].op = p->sec_op[p->bind_sec[i]];
        rows[i].b = &p->t->bindings[i];
    }
    fkcg_sort_rows(rows, n, sizeof *rows, cmp_disp);
    PUT(b, "fkc_status @_dispatch(@_op_kind op, fkc_dtype in, fkc_dtype out, "
                     "fkc_backend backend,\n                        @_kernel_ref *ref)\n{\n"
                     "    if (!ref)\n        return FKC_ERR_INVALID_ARGUMENT;\n"
                     "    if (in != out)\n        return FKC_ERR_NO_KERNEL; "
                     "/* every contract key is [T, T] */\n    switch (op) {\n");
    for (size_t i = 0; i < n;) {
        const fkcg_op_info *op = &p->ops[rows[i].op];
        PUT(b, "    case @@_OP_");
        put_ident(b, op->upper);
        PUT(b, ":\n");
        while (i < n && &p->ops[rows[i].op] == op) {
            size_t j = i;
            while (j < n && rows[j].op == rows[i].op &&
                   strcmp(rows[j].b->section->backend, rows[i].b->section->backend) == 0)
                j++;
            emit_dispatch_backend(b, op, rows + i, j - i);
            i = j;
        }
        PUT(b, "        break;\n");
    }
    PUT(b, "    default:\n        break;\n    }\n    return FKC_ERR_NO_KERNEL;\n}\n\n");
    free(rows);
}

static void emit_c_link(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "const char *const @_link_registry_names[@@_LINK_REGISTRY_COUNT] = {\n");
    for (size_t i = 0; i < p->n_registries; i++) {
        PUT(b, "    ");
        put_cstr(b, p->registries[i]);
        PUT(b, ",\n");
    }
    PUT(b, "};\n\nconst @_link_entry @_link_registry[@@_LINK_ENTRY_COUNT] = {\n");
    for (size_t i = 0; i < p->t->n_bindings; i++) {
        const fkcg_link_row *l = &p->links[i];
        const fkcg_section *s = l->b->section;
        const char *reg = s->provider && s->provider->link_registry ? s->provider->link_registry : "";
        PUT(b, "    {");
        put_cstr(b, l->b->symbol);
        PUT(b, ", ");
        fkcg_buf_put_u64(b, fkcg_plan_registry(p, reg));
        PUT(b, ", &@_bindings[");
        fkcg_buf_put_u64(b, l->index);
        PUT(b, "]}, /* -> ");
        put_tpl_str(b, wrapper_prefix(l->b->section));
        put_comment(b, l->b->wrapper);
        PUT(b, " */\n");
    }
    PUT(b,
        "};\n\n"
        "const @_link_entry *@_link_lookup(const char *symbol)\n{\n"
        "    size_t lo = 0, hi = @@_LINK_ENTRY_COUNT;\n\n"
        "    if (!symbol)\n        return NULL;\n"
        "    while (lo < hi) {\n"
        "        size_t mid = lo + (hi - lo) / 2;\n"
        "        int c = strcmp(symbol, @_link_registry[mid].symbol);\n\n"
        "        if (c == 0)\n            return &@_link_registry[mid];\n"
        "        if (c < 0)\n            hi = mid;\n        else\n            lo = mid + 1;\n"
        "    }\n    return NULL;\n}\n\n");
}

static void emit_c_cost(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "/* The shared cost of each op kind: the cost of its first section (by kernel\n"
                     " * name) that states one with a known provenance (docs/cost.md). */\n"
                     "static const @_cost *const shared_cost[@@_OP_KIND_COUNT] = {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        PUT(b, "    ");
        put_cost_ref(b, p->ops[i].cost, p->ops[i].cost_sec);
        PUT(b, ", /* ");
        put_comment(b, p->ops[i].name);
        PUT(b, " */\n");
    }
    PUT(b,
        "};\n\n"
        "const @_cost *@_op_shared_cost(@_op_kind op)\n{\n"
        "    if ((size_t)op >= (size_t)@@_OP_KIND_COUNT ||\n"
        "        shared_cost[op]->provenance == @@_COST_PROVENANCE_UNKNOWN)\n"
        "        return NULL;\n"
        "    return shared_cost[op];\n}\n\n"
        "size_t @_fill_unset_cost_for_backend(@_binding *bindings, size_t count,\n"
        "                                       fkc_backend backend)\n{\n"
        "    size_t filled = 0;\n\n"
        "    if (!bindings)\n        return 0;\n"
        "    for (size_t i = 0; i < count; i++) {\n"
        "        @_binding *b = &bindings[i];\n"
        "        const @_cost *shared;\n\n"
        "        if (b->backend != backend ||\n"
        "            (b->cost && b->cost->provenance != @@_COST_PROVENANCE_UNKNOWN))\n"
        "            continue;\n"
        "        shared = @_op_shared_cost(b->op_kind);\n"
        "        if (!shared)\n            continue;\n"
        "        b->cost = shared;\n"
        "        filled++;\n"
        "    }\n    return filled;\n}\n");
}

static void put_input(fkcg_buf *b, const fkcg_input *in, size_t sec, size_t k)
{
    PUT(b, "    {");
    put_cstr(b, in->name);
    put_sec_name(b, ", dtypes_", sec, "_");
    fkcg_buf_put_u64(b, k);
    PUT(b, ", ");
    fkcg_buf_put_u64(b, in->n_dtypes);
    PUT(b, ",\n     ");
    size_t col = 5;
    for (int l = 0; l < FKCG_NLAYOUT; l++) {
        char v[64];
        fkcg_buf e; /* the enumerator, to wrap the list under WRAP_COLUMN */
        fkcg_buf_init(&e);
        put_enum(&e, FKCG_EN_LAYOUT_RULE, in->layout[l]);
        snprintf(v, sizeof v, "%s", e.data);
        fkcg_buf_free(&e);
        put_param(b, 5, &col, l == 0, v, "", "");
    }
    PUT(b, ",\n     ");
    put_cstr(b, in->rank);
    PUT(b, ", ");
    put_cstr(b, in->shape_constraint);
    PUT(b, "},\n");
}

static void put_output(fkcg_buf *b, const fkcg_output *o)
{
    PUT(b, "    {");
    put_cstr(b, o->name);
    PUT(b, ", ");
    put_cstr(b, o->dtype_rule);
    PUT(b, ", ");
    put_cstr(b, o->dtype_rule_arg);
    PUT(b, ", ");
    put_cstr(b, o->shape_rule);
    PUT(b, ", ");
    put_cstr(b, o->shape_rule_arg);
    PUT(b, ",\n     ");
    put_enum(b, FKCG_EN_GUARANTEE, o->layout_guarantee);
    PUT(b, ", ");
    put_enum(b, FKCG_EN_ALIASING, o->aliasing);
    PUT(b, "},\n");
}

/* Section i's inputs (with their dtype lists), outputs and op_params fields. */
static void emit_c_section_facts(fkcg_buf *b, const fkcg_section *s, size_t i)
{
    for (size_t k = 0; k < s->n_inputs; k++) {
        const fkcg_input *in = &s->inputs[k];
        PUT(b, "/* ");
        put_comment(b, s->kernel);
        PUT(b, ": the dtypes of input ");
        put_comment(b, in->name);
        PUT(b, " */\nstatic const fkc_dtype ");
        put_sec_name(b, "dtypes_", i, "_");
        fkcg_buf_put_u64(b, k);
        PUT(b, "[] = {");
        size_t open = column(b), col = open;
        for (size_t d = 0; d < in->n_dtypes; d++)
            put_param(b, open, &col, d == 0, "FKC_DTYPE_", fkcg_dtypes[in->dtypes[d]].name, "");
        PUT(b, "};\n");
    }
    PUT(b, "static const ");
    PUT(b, "@_input_info ");
    put_sec_name(b, "inputs_", i, "[] = {\n");
    for (size_t k = 0; k < s->n_inputs; k++)
        put_input(b, &s->inputs[k], i, k);
    PUT(b, "};\n");
    if (s->n_outputs) {
        PUT(b, "static const ");
        PUT(b, "@_output_info ");
        put_sec_name(b, "outputs_", i, "[] = {\n");
        for (size_t k = 0; k < s->n_outputs; k++)
            put_output(b, &s->outputs[k]);
        PUT(b, "};\n");
    }
    if (s->n_fields) {
        PUT(b, "static const ");
        PUT(b, "@_field_info ");
        put_sec_name(b, "fields_", i, "[] = {\n");
        for (size_t k = 0; k < s->n_fields; k++) {
            PUT(b, "    {");
            put_cstr(b, s->fields[k].name);
            PUT(b, ", ");
            put_cstr(b, s->fields[k].kind);
            PUT(b, ", ");
            put_cstr(b, s->fields[k].note);
            PUT(b, "},\n");
        }
        PUT(b, "};\n");
    }
    put_ch(b, '\n');
}

static void put_provider_row(fkcg_buf *b, const fkcg_provider *pr, size_t i)
{
    PUT(b, "    /* [");
    fkcg_buf_put_u64(b, i);
    PUT(b, "] ");
    put_comment(b, pr->rel_file ? pr->rel_file : pr->loc.file);
    PUT(b, " */\n    {");
    put_cstr(b, pr->name);
    PUT(b, ", ");
    put_backend(b, pr->backend ? pr->backend : "");
    PUT(b, ", ");
    put_cstr(b, pr->kernel_source);
    PUT(b, ",\n     ");
    put_cstr(b, pr->link_registry);
    PUT(b, ", ");
    put_cstr(b, pr->revision_base);
    PUT(b, ", ");
    fkcg_buf_put_u64(b, pr->fkc_version);
    PUT(b, ", ");
    put_cstr(b, pr->rel_file ? pr->rel_file : pr->loc.file);
    PUT(b, "},\n");
}

static void put_contract_row(fkcg_buf *b, const fkcg_plan *p, size_t i)
{
    const fkcg_section *s = p->t->sections[i];
    long pv = fkcg_provider_index(p->t, s->provider);
    PUT(b, "    /* [");
    fkcg_buf_put_u64(b, i);
    PUT(b, "] ");
    put_comment(b, s->kernel);
    PUT(b, " */\n    {");
    if (pv >= 0) {
        PUT(b, "&@_providers[");
        fkcg_buf_put_u64(b, (uint64_t)pv);
        PUT(b, "], ");
    } else {
        PUT(b, "NULL, ");
    }
    put_sec_name(b, "inputs_", i, ", ");
    fkcg_buf_put_u64(b, s->n_inputs);
    if (s->n_outputs)
        put_sec_name(b, ", outputs_", i, ", ");
    else
        PUT(b, ", NULL, ");
    fkcg_buf_put_u64(b, s->n_outputs);
    PUT(b, ", ");
    put_cstr(b, s->variant);
    if (s->n_fields)
        put_sec_name(b, ", fields_", i, ", ");
    else
        PUT(b, ", NULL, ");
    fkcg_buf_put_u64(b, s->n_fields);
    PUT(b, ",\n     ");
    put_cost_ref(b, s, i);
    PUT(b, ", ");
    put_cstr(b, s->cost.present ? s->cost.flops_src : NULL);
    PUT(b, ", ");
    put_cstr(b, s->cost.present ? s->cost.bytes_moved_src : NULL);
    PUT(b, "},\n");
}

/* The first and one-past-last binding index of each op kind (the table is sorted by op kind;
 * the range is checked row by row anyway). */
static void emit_c_op_ranges(fkcg_buf *b, const fkcg_plan *p)
{
    size_t *lo = fkcg_xcalloc(p->n_ops + 1, sizeof *lo), *hi = fkcg_xcalloc(p->n_ops + 1, sizeof *hi);
    for (size_t i = 0; i < p->n_ops; i++)
        lo[i] = p->t->n_bindings;
    for (size_t i = 0; i < p->t->n_bindings; i++) {
        size_t op = p->sec_op[p->bind_sec[i]];
        lo[op] = i < lo[op] ? i : lo[op];
        hi[op] = i + 1 > hi[op] ? i + 1 : hi[op];
    }
    PUT(b, "/* The bindings of each op kind lie in [first, end) of ");
    PUT(b, "@_bindings. */\nstatic const size_t op_bindings[@@_OP_KIND_COUNT][2] = {\n");
    for (size_t i = 0; i < p->n_ops; i++) {
        PUT(b, "    {");
        fkcg_buf_put_u64(b, lo[i] < hi[i] ? lo[i] : 0);
        PUT(b, ", ");
        fkcg_buf_put_u64(b, hi[i]);
        PUT(b, "}, /* ");
        put_comment(b, p->ops[i].name);
        PUT(b, " */\n");
    }
    PUT(b, "};\n\n");
    free(lo);
    free(hi);
}

static const char c_lookup[] =
    "const @_binding *@_binding_lookup(@_op_kind op, fkc_dtype in, fkc_dtype out,\n"
    "                                      fkc_backend backend, const char *kernel_source)\n{\n"
    "    if ((size_t)op >= (size_t)@@_OP_KIND_COUNT || in != out)\n"
    "        return NULL;\n"
    "    for (size_t i = op_bindings[op][0]; i < op_bindings[op][1]; i++) {\n"
    "        const @_binding *b = &@_bindings[i];\n\n"
    "        if (b->op_kind == op && b->dtypes[0] == in && b->backend == backend &&\n"
    "            (!kernel_source || strcmp(b->info->kernel_source, kernel_source) == 0))\n"
    "            return b;\n"
    "    }\n    return NULL;\n}\n";

static void emit_c_facts(fkcg_buf *b, const fkcg_plan *p)
{
    PUT(b, "\n/* ---- The rest of each section's contract (");
    PUT(b, "@_contracts, @_providers). ---- */\n\n");
    for (size_t i = 0; i < p->t->n_sections; i++)
        emit_c_section_facts(b, p->t->sections[i], i);
    PUT(b, "const ");
    PUT(b, "@_provider_info @_providers[@@_PROVIDER_COUNT] = {\n");
    for (size_t i = 0; i < p->t->n_providers; i++)
        put_provider_row(b, p->t->providers[i], i);
    PUT(b, "};\n\nconst ");
    PUT(b, "@_contract_info @_contracts[@@_KERNEL_COUNT] = {\n");
    for (size_t i = 0; i < p->t->n_sections; i++)
        put_contract_row(b, p, i);
    PUT(b, "};\n\n");
    emit_c_op_ranges(b, p);
    put_tpl_str(b, c_lookup);
}

/* First binding index of each section (bindings of one section are contiguous). */
static size_t *section_first(const fkcg_plan *p)
{
    size_t *first = fkcg_xcalloc(p->t->n_sections, sizeof *first);
    for (size_t i = 0; i < p->t->n_sections; i++)
        first[i] = p->t->n_bindings;
    for (size_t i = p->t->n_bindings; i-- > 0;)
        first[p->bind_sec[i]] = i;
    return first;
}

/* The two files, section by section, in order. */
static void emit_plan(const fkcg_plan *pp, fkcg_buf *header, fkcg_buf *source)
{
    const fkcg_plan p = *pp;
    const fkcg_table *table = p.t;
    size_t *first = section_first(&p);
    set_prefix(p.prefix);
    pair_hasher ph;
    uint64_t pair_hash;
    hash_begin(&ph, header);
    emit_banner(header, table, "@_bindings.h", false);
    emit_h_prologue(header);
    emit_h_op_kinds(header, &p);
    emit_h_enums(header);
    emit_h_params(header, &p);
    emit_h_fn_types(header, &p);
    emit_h_wrappers(header, &p, first);
    emit_h_tables(header, &p);
    emit_h_pair_hash(header, &ph, &pair_hash);

    emit_banner(source, table, "@_bindings.c", true);
    emit_c_names(source, &p, pair_hash);
    emit_c_runtime_params(source, &p);
    emit_c_sections(source, &p);
    emit_c_kernels(source, &p);
    emit_c_bindings(source, &p);
    emit_c_register(source, &p);
    emit_c_dispatch(source, &p);
    emit_c_link(source, &p);
    emit_c_cost(source, &p);
    emit_c_facts(source, &p);
    free(first);
}

/* One wrapper's skeleton: the signature of the op's function type, each parameter used, a
 * TODO and FKC_ERR_UNSUPPORTED. */
static void emit_stub(fkcg_buf *b, const fkcg_plan *p, size_t sec, unsigned width,
                      const char *dtypes)
{
    const fkcg_section *s = p->t->sections[sec];
    const fkcg_op_info *op = &p->ops[p->sec_op[sec]];
    const fkcg_section *sig = op->sig;
    PUT(b, "/* ");
    put_comment(b, s->kernel);
    put_ch(b, ' ');
    put_where(b, s, true);
    PUT(b, ": ");
    put_comment(b, op->name);
    PUT(b, " on ");
    put_str(b, dtypes);
    PUT(b, " */\nfkc_status ");
    put_tpl_str(b, wrapper_prefix(s));
    put_ident(b, s->kernel);
    PUT(b, "_b");
    fkcg_buf_put_u64(b, width);
    put_params(b, op);
    PUT(b, "\n{\n    (void)stream;\n");
    for (size_t i = 0; i < sig->n_inputs; i++) {
        PUT(b, "    (void)");
        put_ident(b, sig->inputs[i].name);
        PUT(b, ";\n");
    }
    for (size_t i = 0; i < sig->n_outputs; i++) {
        PUT(b, "    (void)");
        put_ident(b, sig->outputs[i].name);
        PUT(b, ";\n");
    }
    PUT(b, "    (void)params;\n    (void)extra;\n"
           "    /* TODO: check the call, then record the kernel on stream for ");
    fkcg_buf_put_u64(b, width);
    PUT(b, "-byte elements\n     * (fkc_kernel_cached + fkc_stream_dispatch: docs/adding-an-op.md) "
           "and return FKC_OK;\n     * refuse with fkc_set_error(status, ...). */\n"
           "    return FKC_ERR_UNSUPPORTED;\n}\n\n");
}

void fkcg_emit_stubs(const fkcg_table *t, const char *prefix, fkcg_buf *b)
{
    fkcg_plan p;
    fkcg_plan_init(&p, t, prefix);
    set_prefix(p.prefix);
    size_t *first = section_first(&p);
    PUT(b, "/* Wrapper skeletons - written once by fkcgen " FKCGEN_VERSION " (gen --emit-stubs) "
           "from:\n");
    for (size_t i = 0; i < t->n_providers; i++) {
        PUT(b, " *   ");
        put_comment(b, t->providers[i]->rel_file ? t->providers[i]->rel_file
                                                 : t->providers[i]->loc.file);
        put_ch(b, '\n');
    }
    PUT(b, " * Yours to edit (fkcgen never overwrites it): each function is a byte-width wrapper\n"
           " * <prefix>_<kernel>_b<width> that @_bindings.h declares; until its TODO is done it "
           "refuses\n * with FKC_ERR_UNSUPPORTED. The fkc runtime's own kernels need none. */\n"
           "#include \"@_bindings.h\"\n\n");
    for (size_t i = 0; i < t->n_sections; i++) {
        if (fkcg_runtime_kernel_find(t->sections[i]->kernel))
            continue; /* fkc_<kernel>_b<width> are the runtime's */
        unsigned mask = section_widths(&p, i, first, t->n_bindings);
        for (unsigned w = 1; w <= 8; w *= 2) {
            if (!(mask & (1u << w)))
                continue;
            char dtypes[64] = "[";
            for (size_t k = first[i]; k < t->n_bindings && p.bind_sec[k] == i; k++)
                if (t->bindings[k].byte_width == w)
                    snprintf(dtypes + strlen(dtypes), sizeof dtypes - strlen(dtypes), "%s%s",
                             dtypes[1] ? ", " : "", fkcg_dtypes[t->bindings[k].dtype].name);
            strcat(dtypes, "]");
            emit_stub(b, &p, i, w, dtypes);
        }
    }
    free(first);
    fkcg_plan_free(&p);
}

void fkcg_emit_c(const fkcg_table *table, fkcg_buf *header, fkcg_buf *source)
{
    fkcg_emit_c_prefixed(table, NULL, header, source);
}

void fkcg_emit_c_prefixed(const fkcg_table *table, const char *name, fkcg_buf *header,
                          fkcg_buf *source)
{
    fkcg_plan p;
    fkcg_plan_init(&p, table, name);
    emit_plan(&p, header, source);
    fkcg_plan_free(&p);
}

size_t fkcg_emit_c_checked(const fkcg_table *table, const char *name, fkcg_diag *d,
                           fkcg_buf *header, fkcg_buf *source)
{
    size_t errors = 1;
    if (!fkcg_emit_empty(table, d)) {
        fkcg_plan p;
        fkcg_plan_init(&p, table, name);
        errors = fkcg_plan_check(&p, d);
        if (errors == 0 && header && source)
            emit_plan(&p, header, source);
        fkcg_plan_free(&p);
    }
    return errors;
}
