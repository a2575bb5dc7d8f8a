/* select.c — `fkcgen gen --select FILE`, a selective build: the file names the op kinds and
 * dtypes to keep, one `OpKind` (all its dtypes) or `OpKind: DTYPE, DTYPE...` a line (blank
 * lines and `#` comments aside), and the bound table is cut down to those bindings and the
 * sections that still hold one. Every name must match: an op kind no contract binds, a word
 * that is no dtype, a dtype the op kind is not bound for are errors at the file's line:col,
 * with did-you-mean. Linear in the table (one sorted list of op kinds, a bsearch per line and
 * per binding). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fkcgen.h"
#include "internal.h"

enum { ALL_DTYPES = (1u << FKCG_NDTYPES) - 1, SELECT_MAX_BYTES = 1u << 20 };

typedef struct sel_key { /* a whole key `[F32, I32, F16]` a line selects */
    uint32_t n;
    int code[FKCG_KEY_MAX];
} sel_key;

typedef struct sel_op {
    const char *name; /* an op kind of the table */
    uint64_t bound;   /* bit d: the table binds it for a key whose first slot is dtype d */
    uint64_t keep;    /* bit d: the selection keeps it */
    sel_key *keys;    /* whole keys it keeps (malloc'd), n_keys of them */
    size_t n_keys;
} sel_op;

typedef struct selector {
    fkcg_diag *d;
    const char *path;
    const fkcg_table *t;
    sel_op *ops; /* the table's op kinds, sorted by name */
    size_t n_ops;
    const char **names; /* their names, for did-you-mean */
} selector;

static void *xcalloc(size_t n, size_t size)
{
    void *q = calloc(n ? n : 1, size);
    if (!q)
        fkcg_oom();
    return q;
}

static int cmp_sel_op(const void *a, const void *b)
{
    return strcmp(((const sel_op *)a)->name, ((const sel_op *)b)->name);
}

static sel_op *find_op(const selector *s, const char *name)
{
    sel_op key = {name, 0, 0, NULL, 0};
    return bsearch(&key, s->ops, s->n_ops, sizeof *s->ops, cmp_sel_op);
}

/* The distinct op kinds of t with the dtypes they are bound for. */
static void collect_ops(selector *s, const fkcg_table *t)
{
    s->ops = xcalloc(t->n_sections, sizeof *s->ops);
    for (size_t i = 0; i < t->n_sections; i++)
        s->ops[i].name = t->sections[i]->op_kind ? t->sections[i]->op_kind : "";
    qsort(s->ops, t->n_sections, sizeof *s->ops, cmp_sel_op);
    for (size_t i = 0; i < t->n_sections; i++)
        if (s->n_ops == 0 || strcmp(s->ops[i].name, s->ops[s->n_ops - 1].name) != 0)
            s->ops[s->n_ops++] = s->ops[i];
    s->names = xcalloc(s->n_ops, sizeof *s->names);
    for (size_t i = 0; i < s->n_ops; i++)
        s->names[i] = s->ops[i].name;
    for (size_t i = 0; i < t->n_bindings; i++) {
        sel_op *op = find_op(s, t->bindings[i].section->op_kind ? t->bindings[i].section->op_kind
                                                                : "");
        if (op && t->bindings[i].dtype >= 0 && t->bindings[i].dtype < FKCG_NDTYPES)
            op->bound |= (uint64_t)1 << t->bindings[i].dtype;
    }
}

static size_t fail(selector *s, uint32_t line, size_t col, const char *fmt, ...) FKCG_PRINTF(4, 5);
static size_t fail(selector *s, uint32_t line, size_t col, const char *fmt, ...)
{
    fkcg_loc loc = {s->path, line, (uint32_t)col};
    va_list ap;
    va_start(ap, fmt);
    fkcg_verror(s->d, &loc, fmt, ap);
    va_end(ap);
    return 1;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}
/* A name's bytes: ASCII letters, digits, '_', and (so that a misspelt name is reported whole,
 * not cut at its first accent) the bytes of any other UTF-8 character. */
static bool is_word(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           (unsigned char)c >= 0x80;
}

/* The first byte of line that is not text: invalid UTF-8 (a stray, overlong or surrogate
 * sequence), or a control character other than tab; NULL when there is none. */
static const char *not_text(const char *line)
{
    for (const unsigned char *p = (const unsigned char *)line; *p;) {
        size_t k = *p < 0x80             ? 1
                   : (*p & 0xE0) == 0xC0 ? 2
                   : (*p & 0xF0) == 0xE0 ? 3
                   : (*p & 0xF8) == 0xF0 ? 4
                                         : 0;
        if (!k || (k == 1 && ((*p < 0x20 && *p != '\t') || *p == 0x7f)) || (k == 2 && *p < 0xC2) ||
            (k == 4 && *p > 0xF4))
            return (const char *)p;
        for (size_t i = 1; i < k; i++)
            if ((p[i] & 0xC0) != 0x80)
                return (const char *)p;
        if ((k == 3 && *p == 0xE0 && p[1] < 0xA0) || (k == 3 && *p == 0xED && p[1] >= 0xA0) ||
            (k == 4 && *p == 0xF0 && p[1] < 0x90) || (k == 4 && *p == 0xF4 && p[1] >= 0x90))
            return (const char *)p;
        p += k;
    }
    return NULL;
}

/* "F32, I8" of op at line: each a dtype the op is bound for. */
static bool same_sel_key(const fkcg_binding *b, const sel_key *k)
{
    if (fkcg_binding_n_key(b) != k->n)
        return false;
    for (uint32_t i = 0; i < k->n; i++)
        if (fkcg_binding_slot(b, i) != k->code[i])
            return false;
    return true;
}

/* `[DTYPE, DTYPE, ...]` at p (at '['): one whole key op is bound for; *end past the ']'. */
static size_t select_key(selector *s, sel_op *op, const char *text, const char *p, uint32_t line,
                         const char **end)
{
    sel_key k = {0, {0}};
    const char *open = p++;
    for (;;) {
        while (is_space(*p))
            p++;
        const char *w = p;
        while (is_word(*p))
            p++;
        size_t col = (size_t)(w - text) + 1;
        char word[32];
        snprintf(word, sizeof word, "%.*s", (int)(p - w), w);
        int code = -1;
        for (int c = 0;
             (size_t)(p - w) < sizeof word && c < FKCG_NDTYPES + (int)s->t->n_block_dtypes; c++)
            if (fkcg_table_dtype(s->t, c) && !strcmp(fkcg_table_dtype(s->t, c)->name, word))
                code = c;
        if (p == w || code < 0)
            return fail(s, line, col, "expected a dtype of the contracts in the key, not '%s'",
                        word);
        if (k.n == FKCG_KEY_MAX)
            return fail(s, line, col, "a key has at most %d dtypes", FKCG_KEY_MAX);
        k.code[k.n++] = code;
        while (is_space(*p))
            p++;
        if (*p == ']')
            break;
        if (*p != ',')
            return fail(s, line, (size_t)(p - text) + 1, "expected ',' or ']' in the key");
        p++;
    }
    *end = p + 1;
    bool bound = false;
    for (size_t i = 0; !bound && i < s->t->n_bindings; i++)
        bound = !strcmp(s->t->bindings[i].section->op_kind, op->name) &&
                same_sel_key(&s->t->bindings[i], &k);
    if (!bound)
        return fail(s, line, (size_t)(open - text) + 1,
                    "op kind %s is bound for no key %.*s (a key names one dtype per tensor of "
                    "its section's key)",
                    op->name, (int)(p + 1 - open), open);
    sel_key *v = realloc(op->keys, (op->n_keys + 1) * sizeof *v);
    if (!v)
        fkcg_oom();
    op->keys = v;
    op->keys[op->n_keys++] = k;
    return 0;
}

static size_t select_dtypes(selector *s, sel_op *op, const char *text, const char *p, uint32_t line)
{
    size_t errors = 0, n = 0;
    for (;;) {
        while (is_space(*p))
            p++;
        if (*p == '[') { /* a whole key */
            size_t e = select_key(s, op, text, p, line, &p);
            if (e)
                return errors + e;
            n++;
            while (is_space(*p))
                p++;
            if (*p == '\0' || *p == '#')
                return errors;
            if (*p != ',')
                return errors + fail(s, line, (size_t)(p - text) + 1,
                                     "expected ',' or the end of the line after a key");
            p++;
            continue;
        }
        const char *w = p;
        while (is_word(*p))
            p++;
        size_t col = (size_t)(w - text) + 1;
        if (p == w)
            return errors + fail(s, line, col, "expected a dtype (%s)",
                                 "F32, I32, U32, F16, BF16, F64, I64, U8 or I8");
        char word[32];
        snprintf(word, sizeof word, "%.*s", (int)(p - w), w);
        int dt = -1;
        const char *names[FKCG_NDTYPES];
        for (int k = 0; k < FKCG_NDTYPES; k++) {
            names[k] = fkcg_dtypes[k].name;
            if ((size_t)(p - w) < sizeof word && strcmp(word, names[k]) == 0)
                dt = k;
        }
        if (dt < 0) {
            const char *hint = fkcg_suggest(names, FKCG_NDTYPES, word);
            errors += hint
                          ? fail(s, line, col, "unknown dtype '%s'; did you mean '%s'?", word, hint)
                          : fail(s, line, col, "unknown dtype '%s'", word);
        } else if (!(op->bound & ((uint64_t)1 << dt))) {
            fkcg_buf have;
            fkcg_buf_init(&have);
            size_t m = (size_t)__builtin_popcountll(op->bound), j = 0;
            for (int k = 0; k < FKCG_NDTYPES; k++)
                if (op->bound & ((uint64_t)1 << k))
                    fkcg_buf_put_listed(&have, j++, m, fkcg_dtypes[k].name);
            fkcg_buf_putc(&have, '\0');
            errors += fail(s, line, col,
                           "op kind %s is bound for no dtype %s (the contracts "
                           "bind it for %s)",
                           op->name, word, have.data);
            fkcg_buf_free(&have);
        } else {
            op->keep |= (uint64_t)1 << dt;
        }
        n++;
        while (is_space(*p))
            p++;
        if (*p == '\0' || *p == '#')
            return errors;
        if (*p != ',')
            return errors + fail(s, line, (size_t)(p - text) + 1,
                                 "expected ',' or the end of the line after a dtype");
        p++;
    }
}

/* One line of the file (NUL-terminated, no newline; a CR before it is dropped by the caller). */
static size_t select_line(selector *s, const char *text, uint32_t line)
{
    const char *bad = not_text(text);
    if (bad) {
        unsigned char c = (unsigned char)*bad;
        return fail(s, line, (size_t)(bad - text) + 1,
                    c < 0x80 ? "control character 0x%02X in the selection; only text and tabs "
                               "may appear"
                             : "invalid UTF-8 in the selection (byte 0x%02X)",
                    c);
    }
    const char *p = text;
    while (is_space(*p))
        p++;
    if (*p == '\0' || *p == '#')
        return 0;
    const char *w = p;
    while (is_word(*p))
        p++;
    size_t col = (size_t)(w - text) + 1;
    if (p == w)
        return fail(s, line, col, "expected an op kind, as `OpKind` or `OpKind: DTYPE, ...`");
    char name[FKCG_IDENT_MAX + 2];
    snprintf(name, sizeof name, "%.*s", (int)(p - w), w);
    sel_op *op = (size_t)(p - w) <= FKCG_IDENT_MAX ? find_op(s, name) : NULL;
    while (is_space(*p))
        p++;
    if (!op) {
        const char *hint = fkcg_suggest(s->names, s->n_ops, name);
        return hint ? fail(s, line, col,
                           "op kind '%s' is bound by no contract; did you mean "
                           "'%s'?",
                           name, hint)
                    : fail(s, line, col, "op kind '%s' is bound by no contract", name);
    }
    if (*p == '\0' || *p == '#') {
        op->keep = op->bound;
        return 0;
    }
    if (*p != ':')
        return fail(s, line, (size_t)(p - text) + 1,
                    "expected ':' and dtypes, or the end of the line, after the op kind");
    return select_dtypes(s, op, text, p + 1, line);
}

/* Reads path whole (a regular file of at most SELECT_MAX_BYTES), NUL-terminated; NULL after
 * reporting. */
static char *read_select(fkcg_diag *d, const char *path, size_t *len)
{
    fkcg_loc where = {path, 0, 0};
    int fd;
    struct stat st;
    int err = fkcg_open_regular(path, &fd, &st);
    if (err) {
        fkcg_error(d, &where, "--select: %s",
                   err == EISDIR             ? "is a directory"
                   : err == FKCG_NOT_REGULAR ? "not a regular file"
                                             : strerror(err));
        return NULL;
    }
    char *buf = NULL;
    if ((uintmax_t)st.st_size > SELECT_MAX_BYTES) {
        fkcg_error(d, &where, "--select: the file is larger than %u bytes", SELECT_MAX_BYTES);
        goto done;
    }
    buf = malloc((size_t)st.st_size + 2);
    if (!buf)
        fkcg_oom();
    size_t n = 0;
    for (;;) {
        ssize_t got = read(fd, buf + n, (size_t)st.st_size + 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0 || (n += (size_t)got) > (size_t)st.st_size)
            break;
    }
    if (n != (size_t)st.st_size || memchr(buf, '\0', n)) {
        fkcg_error(d, &where, "--select: %s",
                   n != (size_t)st.st_size ? "the file changed while it was read"
                                           : "the file holds a NUL byte");
        free(buf);
        buf = NULL;
        goto done;
    }
    buf[n] = '\0';
    *len = n;
done:
    close(fd);
    return buf;
}

/* The bindings of t that the selection keeps, and the sections that hold one, in t's order. */
static void apply(const selector *s, const fkcg_table *t, fkcg_table *out)
{
    fkcg_binding *rows = xcalloc(t->n_bindings, sizeof *rows);
    const fkcg_section **secs = xcalloc(t->n_sections, sizeof *secs);
    size_t n = 0, m = 0;
    for (size_t i = 0; i < t->n_bindings; i++) {
        const fkcg_binding *b = &t->bindings[i];
        const sel_op *op = find_op(s, b->section->op_kind ? b->section->op_kind : "");
        bool keep = op && b->dtype >= 0 && b->dtype < 64 && (op->keep & ((uint64_t)1 << b->dtype));
        for (size_t k = 0; op && !keep && k < op->n_keys; k++)
            keep = same_sel_key(b, &op->keys[k]);
        if (keep)
            rows[n++] = *b;
    }
    /* a section holds a kept binding when one of its bindings is kept (sections are sorted
     * by kernel name, which is unique) */
    bool *held = xcalloc(t->n_sections + 1, sizeof *held);
    for (size_t i = 0; i < n; i++) {
        size_t lo = 0, hi = t->n_sections;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            int c = strcmp(rows[i].section->kernel, t->sections[mid]->kernel);
            if (c == 0) {
                held[mid] = true;
                break;
            }
            if (c < 0)
                hi = mid;
            else
                lo = mid + 1;
        }
    }
    for (size_t i = 0; i < t->n_sections; i++)
        if (held[i])
            secs[m++] = t->sections[i];
    free(held);
    *out = *t;
    out->bindings = rows;
    out->n_bindings = n;
    out->sections = secs;
    out->n_sections = m;
}

int fkcg_select(const fkcg_table *t, const char *path, fkcg_diag *d, fkcg_table *out)
{
    size_t len = 0;
    memset(out, 0, sizeof *out);
    char *text = read_select(d, path, &len);
    if (!text)
        return 2;
    fkcg_diag_source(d, path, text, len);
    selector s = {d, path, t, NULL, 0, NULL};
    collect_ops(&s, t);
    size_t errors = 0;
    uint32_t line = 1;
    for (const char *p = text; *p; line++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *one = xcalloc(n + 1, 1); /* the line alone, NUL-terminated, without a CR ending it */
        memcpy(one, p, n - (nl && n && p[n - 1] == '\r'));
        errors += select_line(&s, one, line);
        free(one);
        p += n + (nl != NULL);
    }
    bool any = false;
    for (size_t i = 0; i < s.n_ops; i++)
        any = any || s.ops[i].keep;
    if (!errors && !any)
        errors += fail(&s, 0, 0, "--select: the file selects no binding");
    if (!errors)
        apply(&s, t, out);
    fkcg_diag_drop_source(d, path);
    for (size_t i = 0; i < s.n_ops; i++)
        free(s.ops[i].keys);
    free(s.ops);
    free(s.names);
    free(text);
    return errors ? 1 : 0;
}

void fkcg_select_free(fkcg_table *t)
{
    free((void *)t->bindings);
    free((void *)t->sections);
    memset(t, 0, sizeof *t);
}
