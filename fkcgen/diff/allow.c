/* allow.c — `fkcgen diff --allow FILE`: breaking changes a reviewer accepted, each until
 * a date. One entry a line (blank lines and lines starting with # are skipped):
 *     RULE_ID BINDING EXPIRES REASON
 *     DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 U8 moves to ...
 * BINDING is spelled as the report prints it; `[*, *]` names every dtype of the rest of the
 * key. Errors point at their line:col through the diagnostics sink, as a contract's do. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff.h"

typedef struct parser {
    fkcg_arena *a;
    fkcg_diag *d;
    const char *file;
    uint32_t line;
    const char *start; /* the line's first byte */
    const char *p;     /* the cursor */
    const char *end;   /* the line's end ('\n' or the text's end) */
    bool ok;           /* no error in this entry yet */
} parser;

static fkcg_loc here(const parser *ps, const char *at)
{
    return (fkcg_loc){ps->file, ps->line, (uint32_t)(at - ps->start) + 1};
}

static bool fail(parser *ps, const char *at, const char *fmt, ...) FKCG_PRINTF(3, 4);
static bool fail(parser *ps, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fkcg_loc l = here(ps, at);
    fkcg_verror(ps->d, &l, fmt, ap);
    va_end(ap);
    ps->ok = false;
    return false;
}

static void blanks(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
        ps->p++;
}

/* Skips the literal text lit (blanks before it too); reports its absence as expecting what. */
static bool expect(parser *ps, const char *lit, const char *what)
{
    blanks(ps);
    size_t n = strlen(lit);
    if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, lit, n)) {
        ps->p += n;
        return true;
    }
    return fail(ps, ps->p,
                "expected %s in the binding, written as the report prints it: "
                "(OpKind, [T, T], Backend) + kernel_source",
                what);
}

/* A word of letters, digits, '_' and '*', copied. */
static const char *word(parser *ps)
{
    blanks(ps);
    const char *s = ps->p;
    while (ps->p < ps->end &&
           (*ps->p == '_' || *ps->p == '*' || (*ps->p >= 'a' && *ps->p <= 'z') ||
            (*ps->p >= 'A' && *ps->p <= 'Z') || (*ps->p >= '0' && *ps->p <= '9')))
        ps->p++;
    return fkcg_strndup(ps->a, s, (size_t)(ps->p - s));
}

static int dtype_value(parser *ps, bool *ok)
{
    const char *at = (blanks(ps), ps->p);
    const char *w = word(ps);
    *ok = true;
    if (!strcmp(w, "*"))
        return -1;
    const fkcg_enum *e = fkcg_enum_find("dtype");
    int i = fkcg_enum_index(e, w);
    if (i >= 0)
        return i;
    const char *hint = fkcg_enum_suggest(e, w);
    *ok = false;
    if (hint)
        fail(ps, at, "unknown dtype '%s' in the binding; did you mean '%s'?", w, hint);
    else
        fail(ps, at,
             "unknown dtype '%s' in the binding; write a dtype (F32, ..., I8) or * "
             "for every dtype",
             w);
    return -1;
}

/* kernel_source: a word up to the next blank, or "quoted" with \" and \\ escapes. */
static const char *kernel_source(parser *ps)
{
    blanks(ps);
    const char *s = ps->p;
    if (s < ps->end && *s == '"') {
        fkcg_buf b;
        fkcg_buf_init(&b);
        for (ps->p++; ps->p < ps->end && *ps->p != '"'; ps->p++) {
            if (*ps->p == '\\' && ps->p + 1 < ps->end)
                ps->p++;
            fkcg_buf_putc(&b, *ps->p);
        }
        if (ps->p == ps->end) {
            fkcg_buf_free(&b);
            fail(ps, s, "the quoted kernel_source is never closed; end it with \"");
            return NULL;
        }
        ps->p++;
        const char *out = fkcg_strdup(ps->a, b.data ? b.data : "");
        fkcg_buf_free(&b);
        return out;
    }
    while (ps->p < ps->end && *ps->p != ' ' && *ps->p != '\t')
        ps->p++;
    if (ps->p == s) {
        fail(ps, s, "expected the kernel_source after ') + ' in the binding");
        return NULL;
    }
    return fkcg_strndup(ps->a, s, (size_t)(ps->p - s));
}

/* (OpKind, [T, T], Backend) + kernel_source */
static bool binding(parser *ps, fkcg_dkey *k)
{
    if (!expect(ps, "(", "'('"))
        return false;
    const char *at = (blanks(ps), ps->p);
    k->op_kind = word(ps);
    if (!fkcg_is_op_kind(k->op_kind))
        return fail(ps, at,
                    "expected an op_kind (UpperCamelCase, like WriteSlice) in the "
                    "binding, not '%.*s'",
                    (int)(ps->p > at ? ps->p - at : 1), at);
    bool ok1, ok2;
    if (!expect(ps, ",", "',' after the op_kind") || !expect(ps, "[", "'[' before the dtypes"))
        return false;
    const char *d1 = (blanks(ps), ps->p);
    int t1 = dtype_value(ps, &ok1);
    if (!ok1 || !expect(ps, ",", "',' between the two dtypes"))
        return false;
    int t2 = dtype_value(ps, &ok2);
    if (!ok2 || !expect(ps, "]", "']' after the dtypes"))
        return false;
    if (t1 != t2)
        return fail(ps, d1, "the two dtypes of a binding key are one dtype ([T, T]), not [%s, %s]",
                    t1 < 0 ? "*" : fkcg_dtypes[t1].name, t2 < 0 ? "*" : fkcg_dtypes[t2].name);
    k->dtype = t1;
    if (!expect(ps, ",", "',' after the dtypes"))
        return false;
    at = (blanks(ps), ps->p);
    k->backend = word(ps);
    const fkcg_enum *e = fkcg_enum_find("backend");
    if (fkcg_enum_index(e, k->backend) < 0) {
        const char *hint = fkcg_enum_suggest(e, k->backend);
        return hint ? fail(ps, at, "unknown backend '%s' in the binding; did you mean '%s'?",
                           k->backend, hint)
                    : fail(ps, at, "unknown backend '%s' in the binding", k->backend);
    }
    if (!expect(ps, ")", "')' after the backend") || !expect(ps, "+", "'+ kernel_source'"))
        return false;
    k->kernel_source = kernel_source(ps);
    return k->kernel_source != NULL;
}

bool fkcg_is_date(const char *s, size_t len)
{
    if (len != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (size_t i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return false;
    int y = atoi(s), m = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1)
        return false;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= days[m - 1] + (m == 2 && leap);
}

static bool same_key(const fkcg_dkey *a, const fkcg_dkey *b)
{
    return a->dtype == b->dtype && !strcmp(a->op_kind, b->op_kind) &&
           !strcmp(a->backend, b->backend) && !strcmp(a->kernel_source, b->kernel_source);
}

/* One entry: RULE BINDING EXPIRES REASON. */
static void entry(parser *ps, fkcg_allow_entry *e)
{
    const char *s = ps->p;
    while (ps->p < ps->end &&
           ((*ps->p >= 'A' && *ps->p <= 'Z') || *ps->p == '_' || (*ps->p >= '0' && *ps->p <= '9')))
        ps->p++;
    e->loc = here(ps, s);
    const char *id = fkcg_strndup(ps->a, s, (size_t)(ps->p - s));
    if (!*id || (ps->p < ps->end && *ps->p != ' ' && *ps->p != '\t')) {
        fail(ps, s,
             "expected a rule ID (like DTYPE_REMOVED) at the start of an allow entry: "
             "RULE BINDING YYYY-MM-DD REASON");
        return;
    }
    const char *hint;
    int r = fkcg_diff_rule_find(id, &hint);
    if (r < 0) {
        if (hint)
            fail(ps, s, "unknown rule '%s'; did you mean '%s'?", id, hint);
        else
            fail(ps, s, "unknown rule '%s' (`fkcgen diff --rules` lists them)", id);
        return;
    }
    if (fkcg_diff_rules[r].cls != FKCG_DIFF_BREAKING) {
        fail(ps, s, "rule %s is %s: only breaking changes need an allow entry", id,
             fkcg_diff_class_name(fkcg_diff_rules[r].cls));
        return;
    }
    e->rule = (fkcg_diff_rule_id)r;
    blanks(ps);
    e->key_loc = here(ps, ps->p);
    if (!binding(ps, &e->key))
        return;
    blanks(ps);
    const char *date = ps->p;
    while (ps->p < ps->end && *ps->p != ' ' && *ps->p != '\t')
        ps->p++;
    e->date_loc = here(ps, date);
    if (!fkcg_is_date(date, (size_t)(ps->p - date))) {
        fail(ps, date,
             ps->p == date ? "expected the expiry date YYYY-MM-DD after the binding"
                           : "expected the expiry date YYYY-MM-DD after the binding, not '%.*s'",
             (int)(ps->p - date), date);
        return;
    }
    e->expires = fkcg_strndup(ps->a, date, 10);
    blanks(ps);
    const char *r_end = ps->end;
    while (r_end > ps->p && (r_end[-1] == ' ' || r_end[-1] == '\t'))
        r_end--;
    if (r_end == ps->p) {
        fail(ps, ps->p, "give the reason after the date: why the break is accepted");
        return;
    }
    e->reason = fkcg_strndup(ps->a, ps->p, (size_t)(r_end - ps->p));
}

/* Reads the file's bytes (a regular file, at most the contract size limit), CR LF as LF.
 * NULL after reporting why not. */
static char *read_text(fkcg_arena *a, fkcg_diag *d, const char *path, size_t *len)
{
    fkcg_loc where = {path, 0, 0};
    int fd;
    struct stat st;
    int err = fkcg_open_regular(path, &fd, &st);
    if (err) {
        fkcg_error(d, &where, "cannot read the allow file: %s",
                   err == FKCG_NOT_REGULAR ? "not a regular file" : strerror(err));
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0;
    if ((uintmax_t)st.st_size > FKCG_MAX_FILE_BYTES) {
        fkcg_error(d, &where, "the allow file is larger than %u bytes", FKCG_MAX_FILE_BYTES);
        goto done;
    }
    buf = fkcg_alloc_raw(a, (size_t)st.st_size + 2);
    for (ssize_t got; n < (size_t)st.st_size + 1; n += (size_t)got) {
        got = read(fd, buf + n, (size_t)st.st_size + 1 - n);
        if (got < 0 && errno == EINTR) {
            got = 0;
            continue;
        }
        if (got < 0) {
            fkcg_error(d, &where, "cannot read the allow file: %s", strerror(errno));
            buf = NULL;
            goto done;
        }
        if (got == 0)
            break;
    }
    size_t out = 0, bom = n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0; /* as a contract's */
    for (size_t i = bom; i < n; i++)
        if (!(buf[i] == '\r' && i + 1 < n && buf[i + 1] == '\n'))
            buf[out++] = buf[i];
    buf[out] = '\0';
    *len = out;
done:
    close(fd);
    return buf;
}

/* Length of the valid UTF-8 sequence at p (n bytes left), 0 when invalid. */
static size_t utf8_ok(const unsigned char *p, size_t n)
{
    size_t k = p[0] < 0x80             ? 1
               : (p[0] & 0xE0) == 0xC0 ? 2
               : (p[0] & 0xF0) == 0xE0 ? 3
               : (p[0] & 0xF8) == 0xF0 ? 4
                                       : 0;
    if (!k || k > n || (k == 2 && p[0] < 0xC2) || (k == 4 && p[0] > 0xF4))
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((k == 3 && p[0] == 0xE0 && p[1] < 0xA0) || (k == 3 && p[0] == 0xED && p[1] >= 0xA0) ||
        (k == 4 && p[0] == 0xF0 && p[1] < 0x90) || (k == 4 && p[0] == 0xF4 && p[1] >= 0x90))
        return 0;
    return k;
}

/* A line's bytes are text: UTF-8, no control character but tab. */
static bool text_line(parser *ps)
{
    for (const char *q = ps->start; q < ps->end;) {
        unsigned char c = (unsigned char)*q;
        size_t k = utf8_ok((const unsigned char *)q, (size_t)(ps->end - q));
        if (!k || (c < 0x20 && c != '\t') || c == 0x7f)
            return fail(ps, q,
                        k ? "control character in the allow file; only text and tabs "
                            "may appear"
                          : "invalid UTF-8 in the allow file (byte 0x%02X)",
                        c);
        q += k;
    }
    return true;
}

int fkcg_allow_read(fkcg_arena *a, fkcg_diag *d, const char *path, fkcg_allow *out)
{
    size_t len = 0;
    char *text = read_text(a, d, path, &len);
    memset(out, 0, sizeof *out);
    if (!text)
        return 2;
    fkcg_diag_source(d, path, text, len);
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += text[i] == '\n';
    out->v = fkcg_alloc(a, cap * sizeof *out->v);
    parser ps = {.a = a, .d = d, .file = path};
    bool bad = false;
    for (const char *s = text, *nl; s < text + len; s = nl + 1) {
        nl = memchr(s, '\n', (size_t)(text + len - s));
        if (!nl)
            nl = text + len;
        ps.line++;
        ps.start = ps.p = s;
        ps.end = nl;
        ps.ok = true;
        if (text_line(&ps)) {
            blanks(&ps);
            if (ps.p < ps.end && *ps.p != '#') {
                fkcg_allow_entry *e = &out->v[out->n];
                memset(e, 0, sizeof *e);
                entry(&ps, e);
                for (size_t i = 0; ps.ok && i < out->n; i++)
                    if (out->v[i].rule == e->rule && same_key(&out->v[i].key, &e->key)) {
                        fail(&ps, ps.start + (e->loc.col - 1),
                             "this rule and binding are listed "
                             "twice; keep one entry");
                        fkcg_note(d, &out->v[i].loc, "first listed here");
                        break;
                    }
                if (ps.ok)
                    out->n++;
            }
        }
        bad |= !ps.ok;
    }
    return bad ? 2 : 0;
}

static bool key_matches(const fkcg_dkey *entry, const fkcg_dkey *k)
{
    return (entry->dtype < 0 || (entry->dtype == k->dtype && fkcg_dkey_plain(k))) &&
           !strcmp(entry->op_kind, k->op_kind) && !strcmp(entry->backend, k->backend) &&
           !strcmp(entry->kernel_source, k->kernel_source);
}

/* The first unexpired entry that allows rule for key k, or -1. */
static long allowing(const fkcg_allow *allow, fkcg_diff_rule_id rule, const fkcg_dkey *k)
{
    for (size_t i = 0; i < allow->n; i++)
        if (!allow->v[i].expired && allow->v[i].rule == rule && key_matches(&allow->v[i].key, k))
            return (long)i;
    return -1;
}

void fkcg_allow_apply(fkcg_arena *a, fkcg_allow *allow, const char *today, fkcg_changes *ch)
{
    for (size_t i = 0; i < allow->n; i++)
        allow->v[i].expired = strcmp(today, allow->v[i].expires) > 0;
    fkcg_changes out = {0};
    for (size_t i = 0; i < ch->n; i++) {
        const fkcg_change *c = &ch->v[i];
        if (fkcg_diff_rules[c->rule].cls != FKCG_DIFF_BREAKING || !c->n_keys) {
            fkcg_change_push(a, &out, c);
            continue;
        }
        long *by = fkcg_alloc(a, c->n_keys * sizeof *by);
        for (size_t k = 0; k < c->n_keys; k++)
            by[k] = allowing(allow, c->rule, &c->keys[k]);
        /* one change per allowing entry (in the order the keys meet them), then the rest */
        bool *done = fkcg_alloc(a, c->n_keys);
        for (size_t k = 0; k <= c->n_keys; k++) {
            long e = k < c->n_keys ? by[k] : -1;
            if (k < c->n_keys && (done[k] || e < 0))
                continue;
            fkcg_dkey *keys = fkcg_alloc(a, c->n_keys * sizeof *keys);
            size_t n = 0;
            for (size_t m = 0; m < c->n_keys; m++)
                if (!done[m] && by[m] == e) {
                    keys[n++] = c->keys[m];
                    done[m] = true;
                }
            if (!n)
                continue;
            fkcg_change part = *c;
            part.keys = keys;
            part.n_keys = n;
            part.allowed = e >= 0 ? &allow->v[e] : NULL;
            if (e >= 0)
                allow->v[e].used += n;
            fkcg_change_push(a, &out, &part);
        }
    }
    *ch = out;
}
