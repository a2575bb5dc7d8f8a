/* diag.c — the diagnostics sink: `file:line:col: error: message`, the source line and a caret,
 * many per run up to FKCG_MAX_ERRORS, then one "too many errors" line. Tests pass a memory
 * stream as the sink and compare the exact text. Messages with no source location (the
 * command line, I/O) go through fkcg_cli_error: the same escaping, the same one write. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "report.h"

typedef struct kept_line { /* a line kept after its file's text was dropped */
    uint32_t line;
    size_t off, len; /* in the source's kept buffer */
} kept_line;

typedef struct src {
    struct src *next;
    const char *file;
    const char *text; /* NULL once dropped: then only the kept lines can be quoted */
    size_t len;
    const size_t *line_off; /* start of each line (0-based), n_lines + 1 entries; or NULL */
    size_t n_lines;
    uint32_t at_line;   /* without line_off, a cursor: messages mostly come in line order */
    const char *at;     /* start of line at_line */
    fkcg_buf kept_text; /* the kept lines, one after another */
    fkcg_buf reread;    /* a line read again from the file (neither kept nor in text) */
    kept_line *kept;
    size_t n_kept, cap_kept;
} src;

struct fkcg_diag {
    FILE *out;
    size_t errors; /* errors reported, printed or not */
    bool muted;    /* the last error was over the cap: mute its notes too */
    src *srcs;
    fkcg_report *rep; /* fkcg_diag_collect: every message goes there, none is printed */
    const char *rule, *test;
};

fkcg_diag *fkcg_diag_new(FILE *out)
{
    fkcg_diag *d = calloc(1, sizeof *d);
    if (!d)
        fkcg_oom();
    d->out = out;
    return d;
}

void fkcg_diag_free(fkcg_diag *d)
{
    if (!d)
        return;
    for (src *s = d->srcs; s;) {
        src *next = s->next;
        fkcg_buf_free(&s->kept_text);
        fkcg_buf_free(&s->reread);
        free(s->kept);
        free(s);
        s = next;
    }
    free(d);
}

void fkcg_diag_source(fkcg_diag *d, const char *file, const char *text, size_t len)
{
    src *s = calloc(1, sizeof *s);
    if (!s)
        fkcg_oom();
    s->file = file;
    s->text = text;
    s->len = len;
    s->at_line = 1;
    s->at = text;
    s->next = d->srcs;
    d->srcs = s;
}

size_t fkcg_diag_errors(const fkcg_diag *d)
{
    return d->errors;
}

/* The newest source registered for file, or NULL. */
static src *find_src(const fkcg_diag *d, const char *file)
{
    for (src *s = d->srcs; s; s = s->next)
        if (s->file == file || strcmp(s->file, file) == 0)
            return s;
    return NULL;
}

/* Line (1-based) among the lines kept of a dropped text; false when not kept. */
static bool find_kept(const src *s, uint32_t line, const char **start, size_t *n)
{
    for (size_t i = 0; i < s->n_kept; i++)
        if (s->kept[i].line == line) {
            *start = s->kept_text.data + s->kept[i].off;
            *n = s->kept[i].len;
            return true;
        }
    return false;
}

/* Line (1-based) of a dropped text that was not kept, read again from its file (a regular
 * file, as load.c required; a BOM and a CR before the LF removed, as load.c normalised):
 * only error messages need it, so no run keeps every line a message might quote. */
static bool reread_line(src *s, uint32_t line, const char **start, size_t *n)
{
    int fd;
    struct stat st;
    FILE *f = NULL;
    if (fkcg_open_regular(s->file, &fd, &st) == 0)
        f = fdopen(fd, "rb");
    if (!f) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    s->reread.len = 0;
    uint32_t at = 1;
    int c = 0;
    while (at < line && (c = getc(f)) != EOF)
        at += c == '\n';
    while (at == line && (c = getc(f)) != EOF && c != '\n')
        fkcg_buf_putc(&s->reread, (char)c);
    fclose(f);
    if (at != line)
        return false;
    fkcg_buf_putc(&s->reread, '\0'); /* a non-NULL data pointer, even for an empty line */
    size_t len = s->reread.len - 1;
    const char *p = s->reread.data;
    if (line == 1 && len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        p += 3, len -= 3;
    if (len && p[len - 1] == '\r')
        len--;
    *start = p;
    *n = len;
    return true;
}

/* Finds line (1-based) of file's registered text; false when unknown. */
static bool find_line(const fkcg_diag *d, const fkcg_loc *loc, const char **start, size_t *n)
{
    src *s = find_src(d, loc->file);
    if (!s)
        return false;
    if (!s->text)
        return find_kept(s, loc->line, start, n) || reread_line(s, loc->line, start, n);
    if (s->line_off) {
        if (loc->line > s->n_lines)
            return false;
        *start = s->text + s->line_off[loc->line - 1];
        *n = s->line_off[loc->line] - 1 - s->line_off[loc->line - 1];
        return true;
    }
    if (loc->line < s->at_line) {
        s->at_line = 1;
        s->at = s->text;
    }
    const char *p = s->at, *end = s->text + s->len;
    for (uint32_t line = s->at_line; line < loc->line; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return false;
        p = nl + 1;
    }
    s->at_line = loc->line;
    s->at = p;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *start = p;
    *n = (size_t)((nl ? nl : end) - p);
    return true;
}

void fkcg_diag_keep_line(fkcg_diag *d, const fkcg_loc *loc)
{
    const char *line;
    size_t n;
    src *s = find_src(d, loc->file);
    if (!s || !s->text || find_kept(s, loc->line, &line, &n) || !find_line(d, loc, &line, &n))
        return;
    if (s->n_kept == s->cap_kept) {
        s->cap_kept = s->cap_kept ? 2 * s->cap_kept : 16;
        s->kept = realloc(s->kept, s->cap_kept * sizeof *s->kept);
        if (!s->kept)
            fkcg_oom();
    }
    s->kept[s->n_kept++] = (kept_line){loc->line, s->kept_text.len, n};
    fkcg_buf_put(&s->kept_text, line, n);
}

void fkcg_diag_source_lines(fkcg_diag *d, const char *file, const size_t *line_off, size_t n_lines)
{
    src *s = find_src(d, file);
    if (s && s->text) {
        s->line_off = line_off;
        s->n_lines = n_lines;
    }
}

void fkcg_diag_drop_source(fkcg_diag *d, const char *file)
{
    src *s = find_src(d, file);
    if (s) {
        s->text = NULL;
        s->line_off = NULL;
    }
}

/* How many bytes of the escape of the byte at s (n left) put_escaped writes: 0 when it is
 * written as it is. Escaped: C0 controls (tab too, unless keep_tab), DEL, and C1 (U+0080..9F,
 * UTF-8 C2 80..C2 9F), so no byte of a contract can move a terminal's cursor or colour it. */
static size_t escape_width(const unsigned char *s, size_t n, bool keep_tab)
{
    if ((s[0] < 0x20 && !(keep_tab && s[0] == '\t')) || s[0] == 0x7f)
        return 4; /* \xHH */
    if (s[0] == 0xC2 && n > 1 && s[1] >= 0x80 && s[1] <= 0x9F)
        return 6; /* \u00HH */
    return 0;
}

/* Appends n bytes of s with control characters escaped (escape_width). */
static void put_escaped(fkcg_buf *out, const char *s, size_t n, bool keep_tab)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t run = 0; /* start of the bytes not appended yet */
    for (size_t i = 0; i < n; i++) {
        size_t w = escape_width(p + i, n - i, keep_tab);
        if (!w)
            continue;
        fkcg_buf_put(out, s + run, i - run);
        if (w == 4)
            fkcg_buf_printf(out, "\\x%02x", p[i]);
        else
            fkcg_buf_printf(out, "\\u%04x", p[++i]);
        run = i + 1;
    }
    fkcg_buf_put(out, s + run, n - run);
}

/* The columns a character of a quoted line takes: its escape's width, else one. */
static size_t char_width(const char *line, size_t i, size_t n)
{
    size_t w = escape_width((const unsigned char *)line + i, n - i, true);
    return w ? w : 1;
}

/* The start of the UTF-8 character after (or before) byte i of line. */
static size_t next_char(const char *line, size_t i, size_t n)
{
    i += ((unsigned char)line[i] == 0xC2 && i + 1 < n &&
          escape_width((const unsigned char *)line + i, n - i, true))
             ? 2
             : 1;
    while (i < n && ((unsigned char)line[i] & 0xC0) == 0x80)
        i++;
    return i;
}

static size_t prev_char(const char *line, size_t i)
{
    while (i > 0 && ((unsigned char)line[--i] & 0xC0) == 0x80) {
    }
    return i;
}

/* The part of a line quoted around byte `at`: [*from, *to), about FKCG_QUOTE_COLUMNS columns,
 * at most half of them before `at`; whole characters, and a line that fits is whole. The
 * walk is bounded by the window, whatever the line's length (a contract may hold a 1 MiB
 * line, and 50 messages on it). */
static void quote_window(const char *line, size_t n, size_t at, size_t *from, size_t *to)
{
    size_t cols = 0, a = at, b = at;
    while (a > 0 && cols < FKCG_QUOTE_COLUMNS / 2) {
        a = prev_char(line, a);
        cols += char_width(line, a, n);
    }
    while (b < n && cols < FKCG_QUOTE_COLUMNS) {
        cols += char_width(line, b, n);
        b = next_char(line, b, n);
    }
    while (a > 0 && cols < FKCG_QUOTE_COLUMNS) { /* near the end: use the rest before */
        size_t c = prev_char(line, a);
        cols += char_width(line, c, n);
        a = c;
    }
    *from = a;
    *to = b;
}

/* The source line, then a caret under col: tabs kept, one space per UTF-8 character (as many
 * as its escape for a control character). A long line is cut to a window around the caret,
 * "..." marking each cut. */
static void quote_source(const fkcg_diag *d, const fkcg_loc *loc, fkcg_buf *out)
{
    const char *line;
    size_t n;
    if (loc->line == 0 || !find_line(d, loc, &line, &n))
        return;
    size_t at = loc->col > 0 && loc->col - 1 < n ? loc->col - 1 : n;
    while (at > 0 && at < n && ((unsigned char)line[at] & 0xC0) == 0x80)
        at--; /* a column inside a character: its first byte */
    size_t from, to;
    quote_window(line, n, at, &from, &to);
    if (from > 0)
        fkcg_buf_puts(out, "...");
    put_escaped(out, line + from, to - from, true);
    fkcg_buf_puts(out, to < n ? "...\n" : "\n");
    if (from > 0)
        fkcg_buf_puts(out, "   ");
    for (size_t i = from; i < at; i = next_char(line, i, n)) {
        size_t w = escape_width((const unsigned char *)line + i, n - i, true);
        if (line[i] == '\t')
            fkcg_buf_putc(out, '\t');
        else
            fkcg_buf_printf(out, "%*s", (int)(w ? w : 1), "");
    }
    fkcg_buf_puts(out, "^\n");
}

/* One message: the location, the kind, the text (contract values in it escaped), the quote;
 * built in memory and written with one fwrite (stderr is unbuffered: byte by byte, a long
 * quoted line was a million writes). */
static void report(fkcg_diag *d, const fkcg_loc *loc, const char *kind, bool related,
                   const char *fmt, va_list ap)
{
    char small[512], *msg = small;
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    if (len >= (int)sizeof small && (msg = malloc((size_t)len + 1)) != NULL)
        vsnprintf(msg, (size_t)len + 1, fmt, again);
    va_end(again);
    if (!msg)
        fkcg_oom();
    fkcg_buf out;
    fkcg_buf_init(&out);
    if (d->rep) { /* a finding: the message escaped as the text form escapes it */
        put_escaped(&out, msg, len < 0 ? 0 : (size_t)len, false);
        fkcg_buf_putc(&out, '\0');
        fkcg_loc at = loc ? *loc : (fkcg_loc){0};
        fkcg_buf file;
        fkcg_buf_init(&file);
        if (loc && loc->file) {
            put_escaped(&file, loc->file, strlen(loc->file), false);
            fkcg_buf_putc(&file, '\0');
            at.file = file.data;
        }
        if (related)
            fkcg_report_related(d->rep, &at, out.data);
        else
            fkcg_report_add(d->rep, d->rule, kind, &at, out.data, d->test);
        fkcg_buf_free(&file);
        fkcg_buf_free(&out);
        if (msg != small)
            free(msg);
        return;
    }
    if (!loc) {
        fkcg_buf_printf(&out, "fkcgen: %s: ", kind);
    } else {
        put_escaped(&out, loc->file, strlen(loc->file), false);
        if (loc->line == 0)
            fkcg_buf_printf(&out, ": %s: ", kind);
        else
            fkcg_buf_printf(&out, ":%u:%u: %s: ", loc->line, loc->col, kind);
    }
    put_escaped(&out, msg, len < 0 ? 0 : (size_t)len, false);
    fkcg_buf_putc(&out, '\n');
    if (msg != small)
        free(msg);
    if (loc)
        quote_source(d, loc, &out);
    if (d->out)
        fwrite(out.data, 1, out.len, d->out);
    fkcg_buf_free(&out);
}

void fkcg_verror(fkcg_diag *d, const fkcg_loc *loc, const char *fmt, va_list ap)
{
    d->errors++;
    d->muted = d->errors > FKCG_MAX_ERRORS;
    if (d->errors == FKCG_MAX_ERRORS + 1 && d->rep)
        fkcg_report_add(d->rep, d->rule, "error", NULL, "too many errors; only the first are shown",
                        d->test);
    else if (d->errors == FKCG_MAX_ERRORS + 1 && d->out)
        fprintf(d->out, "fkcgen: error: too many errors; only the first %u are shown\n",
                FKCG_MAX_ERRORS);
    if (!d->muted)
        report(d, loc, "error", false, fmt, ap);
}

void fkcg_error(fkcg_diag *d, const fkcg_loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fkcg_verror(d, loc, fmt, ap);
    va_end(ap);
}

void fkcg_note(fkcg_diag *d, const fkcg_loc *loc, const char *fmt, ...)
{
    if (d->muted)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "note", true, fmt, ap);
    va_end(ap);
}

void fkcg_diag_print(fkcg_diag *d, const fkcg_loc *loc, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, kind, false, fmt, ap);
    va_end(ap);
}

void fkcg_diag_collect(fkcg_diag *d, fkcg_report *r)
{
    d->rep = r;
}

void fkcg_diag_rule(fkcg_diag *d, const char *rule, const char *test)
{
    d->rule = rule;
    d->test = test;
}

void fkcg_diag_related(fkcg_diag *d, const fkcg_loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "note", true, fmt, ap);
    va_end(ap);
}

void fkcg_cli_error(const char *cmd, const char *tail, const char *fmt, ...)
{
    char small[512], *msg = small;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof small && (msg = malloc((size_t)len + 1)) != NULL) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    if (!msg)
        fkcg_oom();
    fkcg_buf out;
    fkcg_buf_init(&out);
    fkcg_buf_printf(&out, "%s: ", cmd);
    put_escaped(&out, msg, len < 0 ? 0 : (size_t)len, false);
    fkcg_buf_putc(&out, '\n');
    if (tail)
        fkcg_buf_puts(&out, tail);
    if (msg != small)
        free(msg);
    fwrite(out.data, 1, out.len, stderr); /* stderr is unbuffered: one write */
    fkcg_buf_free(&out);
}
