/* load.c — pass 1: reads a contract file and cuts it into YAML chunks. Raw bytes are checked
 * first (size cap, NUL, invalid UTF-8, BOM, CR LF) because cmark silently repairs them; the
 * front matter is taken by lines; the Markdown body goes to cmark, whose AST gives the ```fkc
 * fenced blocks, their source lines and the heading that introduces each one. */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmark.h>

#include "internal.h"

typedef struct lines { /* line index of the normalised text */
    const char *text;
    size_t len;
    size_t *off; /* start of line i (0-based) */
    size_t n;
} lines;

/* Reads the whole file (at most the cap + 1 bytes). 0 ok, else the status reported. */
static int read_file(fkcg_arena *a, fkcg_diag *d, const char *path, char **data, size_t *len)
{
    fkcg_loc where = {path, 0, 0};
    int fd;
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) { /* it could name any file (issue 26) */
        fkcg_error(d, &where,
                   "is a symbolic link; fkcgen reads no contract through a link, which may "
                   "name any file: give the contract file itself");
        return 2;
    }
    int err = fkcg_open_regular(path, &fd, &st);
    if (err == EISDIR)
        fkcg_error(d, &where, "is a directory; give the contract files (*.md) inside it");
    else if (err == FKCG_NOT_REGULAR)
        fkcg_error(d, &where, "not a regular file");
    else if (err)
        fkcg_error(d, &where, "cannot open: %s", strerror(err));
    if (err)
        return 2;
    int rc = 2;
    if ((uintmax_t)st.st_size > FKCG_MAX_FILE_BYTES) {
        fkcg_error(d, &where, "file is larger than the %u-byte limit for a contract; split it",
                   FKCG_MAX_FILE_BYTES);
        rc = 1;
        goto done;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0; /* + 1: notices a file that grew */
    char *buf = fkcg_alloc_raw(a, cap + 1);
    for (;;) {
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            fkcg_error(d, &where, "cannot read: %s", strerror(errno));
            goto done;
        }
        if (got == 0 || (n += (size_t)got) == cap)
            break;
    }
    if (n == cap) {
        fkcg_error(d, &where, "file changed while it was read; run again");
        goto done;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    rc = 0;
done:
    close(fd);
    return rc;
}

/* Length of the valid UTF-8 sequence at p (strict: no overlongs, surrogates or > U+10FFFF),
 * or 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t left)
{
    unsigned char c = p[0];
    size_t n;
    uint32_t min, cp;
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        min = 0x80;
        cp = c & 0x1Fu;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        min = 0x800;
        cp = c & 0x0Fu;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        min = 0x10000;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* The 1-based line:col of byte `at` of the (already normalised) prefix buf[0, at). */
static fkcg_loc where_in(const char *path, const char *buf, size_t at)
{
    fkcg_loc loc = {path, 1, 1};
    for (size_t i = 0; i < at; i++) {
        if (buf[i] == '\n') {
            loc.line++;
            loc.col = 1;
        } else {
            loc.col++;
        }
    }
    return loc;
}

/* Is c a byte kept as it is without a closer look: printable ASCII, tab or LF? */
static bool plain_byte(unsigned char c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n';
}

/* The code point of the valid UTF-8 sequence of k bytes at p. */
static uint32_t utf8_cp(const unsigned char *p, size_t k)
{
    uint32_t cp = k == 1 ? p[0] : k == 2 ? p[0] & 0x1Fu : k == 3 ? p[0] & 0x0Fu : p[0] & 0x07u;
    for (size_t i = 1; i < k; i++)
        cp = (cp << 6) | (p[i] & 0x3Fu);
    return cp;
}

/* A control character (C0 but tab and LF, DEL, C1) or a non-character (U+FDD0..U+FDEF and the
 * last two code points of every plane): libyaml refuses most of them with no line, cmark keeps
 * them, and no contract has a use for them. */
static bool bad_code_point(uint32_t cp)
{
    return (cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7f && cp <= 0x9f) ||
           (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFEu) == 0xFFFEu;
}

enum { PLAIN_BLOCK = 64 };

/* Are all PLAIN_BLOCK bytes at p plain? No early exit, so the loop vectorises: most blocks of a
 * contract are plain and are passed over whole. */
static bool plain_block(const char *p)
{
    unsigned char odd = 0;
    for (size_t i = 0; i < PLAIN_BLOCK; i++) {
        unsigned char c = (unsigned char)p[i];
        odd |= (unsigned char)(((c < 0x20) & (c != '\t') & (c != '\n')) | (c >= 0x7f));
    }
    return odd == 0;
}

/* Checks the raw bytes and normalises them in place: drops a leading BOM, turns CR LF into LF.
 * Rejects NUL, invalid UTF-8, a CR not followed by LF, other control characters and
 * non-characters (bad_code_point), at their line:col (found by a second
 * pass over the normalised prefix, so the common path is one tight loop over plain bytes that
 * moves nothing until a BOM or a CR has been dropped). */
static int normalise(fkcg_diag *d, const char *path, char *buf, size_t *len)
{
    size_t in = 0, out = 0, n = *len;
    if (n >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        in = 3;
    while (in < n) {
        size_t run = in;
        while (n - run >= PLAIN_BLOCK && plain_block(buf + run))
            run += PLAIN_BLOCK;
        while (run < n && plain_byte((unsigned char)buf[run]))
            run++;
        if (out != in)
            memmove(buf + out, buf + in, run - in);
        out += run - in;
        in = run;
        if (in == n)
            break;
        unsigned char c = (unsigned char)buf[in];
        size_t k = 1;
        uint32_t cp = c;
        bool crlf = c == '\r' && in + 1 < n && buf[in + 1] == '\n';
        if (c >= 0x80 && (k = utf8_len((const unsigned char *)buf + in, n - in)) != 0)
            cp = utf8_cp((const unsigned char *)buf + in, k);
        if (c == 0 || (c == '\r' && !crlf) || k == 0 || (!crlf && bad_code_point(cp))) {
            fkcg_loc at = where_in(path, buf, out);
            if (c == 0)
                fkcg_error(d, &at, "NUL byte in a contract file; it must be UTF-8 text");
            else if (c == '\r')
                fkcg_error(d, &at,
                           "carriage return without a line feed; use LF or CR LF line "
                           "ends");
            else if (k == 0)
                fkcg_error(d, &at, "invalid UTF-8 (byte 0x%02X); save the file as UTF-8", c);
            else
                fkcg_error(d, &at,
                           cp < 0xA0 ? "control character U+%04X in a contract file; "
                                       "remove it (only tabs and line ends may appear)"
                                     : "non-character "
                                       "U+%04X in a contract file; remove it (it is not text)",
                           (unsigned)cp);
            return 1;
        }
        if (c == '\r') { /* CR LF: keep the LF */
            in++;
            continue;
        }
        memmove(buf + out, buf + in, k);
        in += k;
        out += k;
    }
    buf[out] = '\0';
    *len = out;
    return 0;
}

/* Line feeds in text; 64-byte blocks without an early exit, so the loop vectorises. */
static size_t count_lf(const char *text, size_t len)
{
    size_t n = 0, i = 0;
    for (; len - i >= 64; i += 64) {
        unsigned char k = 0;
        for (size_t j = 0; j < 64; j++)
            k += text[i + j] == '\n';
        n += k;
    }
    for (; i < len; i++)
        n += text[i] == '\n';
    return n;
}

static void index_lines(fkcg_arena *a, const char *text, size_t len, lines *l)
{
    const char *end = text + len;
    size_t n = 1 + count_lf(text, len);
    l->off = fkcg_alloc_raw(a, (n + 1) * sizeof *l->off);
    l->n = 0;
    l->off[l->n++] = 0;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        l->off[l->n++] = (size_t)(p - text) + 1;
    l->off[l->n] = len + 1; /* one past the virtual final '\n' */
    l->text = text;
    l->len = len;
}

/* Line i (0-based) without its '\n'. */
static const char *line_at(const lines *l, size_t i, size_t *n)
{
    size_t end = l->off[i + 1] - 1;
    *n = end - l->off[i];
    return l->text + l->off[i];
}

/* Is line i `---` (trailing blanks allowed)? */
static bool is_dashes(const lines *l, size_t i)
{
    size_t n;
    const char *s = line_at(l, i, &n);
    if (n < 3 || memcmp(s, "---", 3) != 0)
        return false;
    for (size_t k = 3; k < n; k++)
        if (s[k] != ' ' && s[k] != '\t')
            return false;
    return true;
}

/* Are the n bytes at s ASCII? Eight at a time: every line of every chunk is tested. */
static bool is_ascii(const char *s, size_t n)
{
    uint64_t any = 0, w;
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        memcpy(&w, s + i, 8);
        any |= w;
    }
    for (; i < n; i++)
        any |= (unsigned char)s[i];
    return (any & 0x8080808080808080u) == 0;
}

/* Bytes before the first non-ASCII one (n when there is none). */
static uint32_t ascii_prefix(const char *s, size_t n)
{
    if (is_ascii(s, n))
        return (uint32_t)n;
    size_t i = 0;
    while ((unsigned char)s[i] < 0x80)
        i++;
    return (uint32_t)i;
}

/* Builds a chunk from .md lines [first, end) (0-based), stripping up to `indent` spaces. Every
 * line of the range ends with '\n' (a closing line follows it), so without indentation to
 * strip the chunk's text is the file's own bytes, not a copy. */
static void make_chunk(fkcg_arena *a, const lines *l, size_t first, size_t end, uint32_t indent,
                       const char *file, fkcg_chunk *c)
{
    size_t n = end > first ? end - first : 0, bytes = 0;
    for (size_t i = first; i < end; i++)
        bytes += l->off[i + 1] - l->off[i];
    char *text = indent ? fkcg_alloc_raw(a, bytes + 1) : NULL;
    size_t *off = fkcg_alloc(a, (n + 1) * sizeof *off);
    uint32_t *strip = fkcg_alloc(a, (n + 1) * sizeof *strip);
    uint32_t *ascii = fkcg_alloc(a, (n + 1) * sizeof *ascii);
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = line_at(l, first + i, &len);
        uint32_t k = 0;
        while (k < indent && k < len && s[k] == ' ')
            k++;
        off[i] = pos;
        strip[i] = k;
        ascii[i] = ascii_prefix(s + k, len - k);
        if (text) {
            memcpy(text + pos, s + k, len - k);
            text[pos + len - k] = '\n';
        }
        pos += len - k + 1;
    }
    off[n] = pos;
    if (text)
        text[pos] = '\0';
    c->text = text ? text : l->text + l->off[first];
    c->len = pos;
    c->line_off = off;
    c->strip = strip;
    c->ascii_len = ascii;
    c->n_lines = n;
    c->first_line = (uint32_t)first + 1;
    c->file = file;
    c->loc = (fkcg_loc){file, (uint32_t)first + 1, 1};
}

fkcg_loc fkcg_chunk_loc(const fkcg_chunk *c, size_t line, size_t col)
{
    if (c->n_lines == 0)
        return c->loc;
    if (line >= c->n_lines) { /* end of input: the end of the last line */
        line = c->n_lines - 1;
        col = (size_t)-1;
    }
    const char *s = c->text + c->line_off[line];
    size_t len = c->line_off[line + 1] - c->line_off[line] - 1, prefix = c->ascii_len[line];
    size_t b = col < prefix ? col : prefix; /* one byte per character so far */
    for (size_t chars = b; chars < col && b < len; chars++) {
        b++;
        while (b < len && ((unsigned char)s[b] & 0xC0) == 0x80)
            b++;
    }
    return (fkcg_loc){c->file, c->first_line + (uint32_t)line, (uint32_t)(b + c->strip[line] + 1)};
}

/* Appends the text of a heading's inline descendants (iteratively: nesting can be deep). */
static void heading_text(cmark_node *heading, fkcg_buf *out)
{
    cmark_iter *it = cmark_iter_new(heading);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *k = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(k);
        if (ev != CMARK_EVENT_ENTER)
            continue;
        if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE)
            fkcg_buf_puts(out, cmark_node_get_literal(k));
        else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
            fkcg_buf_putc(out, ' ');
    }
    cmark_iter_free(it);
}

/* Is the info string's first word `fkc`? */
static bool is_fkc_info(const char *info)
{
    if (!info || strncmp(info, "fkc", 3) != 0)
        return false;
    return info[3] == '\0' || info[3] == ' ' || info[3] == '\t';
}

/* Does the info string name fkc in another spelling (`FKC`, `Fkc`, `{fkc}`, `{.fkc}`)? Such a
 * fence is refused rather than skipped: the kernel in it would be lost without a word. */
static bool is_fkc_lookalike(const char *info)
{
    if (!info || is_fkc_info(info))
        return false;
    const char *w = info;
    size_t n = strcspn(info, " \t");
    if (n && *w == '{') {
        w++, n--;
        if (n && w[n - 1] == '}')
            n--;
        if (n && *w == '.')
            w++, n--;
    }
    if (n != 3)
        return false;
    return (w[0] | 0x20) == 'f' && (w[1] | 0x20) == 'k' && (w[2] | 0x20) == 'c';
}

/* Index of the first line of `text` (a node's literal) that opens a ```fkc or ~~~fkc fence in
 * any spelling, or -1. Used on the literals of HTML blocks and indented code, where cmark does
 * not read a fence (ch 0, min 3), and of fenced code blocks: there only a fence of the outer
 * one's char ch and at least its length min counts (its closing line would end the outer
 * block: a kernel swallowed by mistake, not one quoted on purpose in a longer fence). */
static long fkc_fence_line(const char *text, char ch, size_t min)
{
    long line = 0;
    for (const char *s = text; s && *s; line++) {
        const char *p = s + strspn(s, " \t");
        size_t run = *p == '`' || *p == '~' ? strspn(p, *p == '`' ? "`" : "~") : 0;
        if (run >= min && (!ch || *p == ch)) {
            p += run;
            p += strspn(p, " \t");
            size_t n = strcspn(p, " \t\n"); /* the info string's first word */
            char word[8];
            if (n < sizeof word) {
                memcpy(word, p, n);
                word[n] = '\0';
                if (is_fkc_info(word) || is_fkc_lookalike(word))
                    return line;
            }
        }
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    return -1;
}

/* Location of .md line `line` (1-based) at its first non-blank byte. */
static fkcg_loc line_loc(const lines *l, const char *file, size_t line)
{
    size_t n, i = 0;
    const char *s = line_at(l, line - 1, &n);
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return (fkcg_loc){file, (uint32_t)line, (uint32_t)i + 1};
}

/* Refuses what would otherwise drop a kernel without a word: a ```fkc fence that cmark reads as
 * part of an HTML block (not an HTML comment, the way to hide one on purpose), an indented
 * code block or another fenced code block that its closing fence would end, a fence whose
 * info string spells fkc in another way, and a second front matter: a `---` thematic break directly followed by a
 * setext heading underlined with `---` (the shape `---` / keys / `---`; a thematic break
 * between sections of prose is followed by a blank line or an ATX heading, and stays fine).
 * Returns 1 after an error. */
static int check_lost_block(fkcg_diag *d, const lines *l, size_t skip, const char *file,
                            cmark_node *n)
{
    cmark_node_type t = cmark_node_get_type(n);
    size_t start = (size_t)cmark_node_get_start_line(n) + skip;
    const char *info = t == CMARK_NODE_CODE_BLOCK ? cmark_node_get_fence_info(n) : NULL;
    if (t == CMARK_NODE_CODE_BLOCK && is_fkc_lookalike(info)) {
        fkcg_loc at = line_loc(l, file, start);
        fkcg_error(d, &at,
                   "info string '%.*s' is not 'fkc' (lower case); kernel blocks are "
                   "fenced with ```fkc",
                   (int)strcspn(info, " \t"), info);
        return 1;
    }
    bool indented = t == CMARK_NODE_CODE_BLOCK && info && !*info &&
                    line_loc(l, file, start).col > 4;
    if (t == CMARK_NODE_CODE_BLOCK && !indented && !is_fkc_info(info)) {
        size_t len, col = (size_t)cmark_node_get_start_column(n); /* its fence, in a list too */
        const char *s = line_at(l, start - 1, &len);
        while (col <= len && s[col - 1] == ' ')
            col++;
        char ch = col <= len ? s[col - 1] : '`';
        size_t flen = 0;
        while (col + flen <= len && s[col - 1 + flen] == ch)
            flen++;
        const char *lit = cmark_node_get_literal(n);
        long k = lit ? fkc_fence_line(lit, ch, flen) : -1;
        if (k < 0)
            return 0;
        fkcg_loc at = line_loc(l, file, start + 1 + (size_t)k);
        fkcg_error(d, &at,
                   "this ```fkc block is swallowed by the code block opened at line %zu "
                   "and is not read; close that block first (a %.*s line opens a code "
                   "block even inside a paragraph)",
                   start, (int)(flen < 16 ? flen : 16),
                   ch == '~' ? "~~~~~~~~~~~~~~~~" : "````````````````");
        fkcg_note(d, &(fkcg_loc){file, (uint32_t)start, (uint32_t)col},
                  "the code block "
                  "opened here");
        return 1;
    }
    if (t == CMARK_NODE_HTML_BLOCK || indented) {
        const char *lit = cmark_node_get_literal(n);
        if (!lit || (!indented && !strncmp(lit + strspn(lit, " "), "<!--", 4)))
            return 0; /* an HTML comment hides a kernel on purpose */
        long k = fkc_fence_line(lit, 0, 3);
        if (k < 0)
            return 0;
        fkcg_loc at = line_loc(l, file, start + (size_t)k);
        if (indented)
            fkcg_error(d, &at,
                       "an indented code block holds a ```fkc fence; fences must start "
                       "at column 1-4 of a top-level block");
        else
            fkcg_error(d, &at,
                       "a ```fkc fence inside an HTML block is not read; move it out "
                       "of the HTML block");
        return 1;
    }
    cmark_node *next = t == CMARK_NODE_THEMATIC_BREAK ? cmark_node_next(n) : NULL;
    size_t head = next ? (size_t)cmark_node_get_start_line(next) + skip : 0;
    /* Level 2 and no '#' at its start: a setext heading, underlined with '-'. (cmark's end
     * line for a setext heading is not its underline's, so the underline is not read.) */
    if (next && cmark_node_get_type(next) == CMARK_NODE_HEADING &&
        cmark_node_get_heading_level(next) == 2 && is_dashes(l, start - 1) && head == start + 1 &&
        l->text[l->off[head - 1] + line_loc(l, file, head).col - 1] != '#') {
        fkcg_loc at = {file, (uint32_t)start, 1};
        fkcg_error(d, &at,
                   "a second front matter ('---' ... '---') is not allowed; the "
                   "provider's keys go in the one at the top of the file");
        return 1;
    }
    return 0;
}

/* Reads the opening fence at .md line `line` (1-based): indent, char and length. */
static void fence_shape(const lines *l, size_t line, uint32_t *indent, char *ch, size_t *len)
{
    size_t n;
    const char *s = line_at(l, line - 1, &n);
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    *indent = (uint32_t)i;
    *ch = i < n ? s[i] : '`';
    size_t k = i;
    while (k < n && s[k] == *ch)
        k++;
    *len = k - i;
}

/* Is .md line `line` a closing fence for (ch, len)? */
static bool closes_fence(const lines *l, size_t line, char ch, size_t len)
{
    if (line < 1 || line > l->n)
        return false;
    size_t n;
    const char *s = line_at(l, line - 1, &n);
    size_t i = 0, k;
    while (i < n && i < 4 && s[i] == ' ')
        i++;
    if (i > 3)
        return false;
    for (k = i; k < n && s[k] == ch; k++)
        ;
    if (k - i < len)
        return false;
    for (; k < n; k++)
        if (s[k] != ' ' && s[k] != '\t')
            return false;
    return true;
}

/* What find_blocks carries from node to node. */
typedef struct walker {
    fkcg_arena *a, *tmp; /* what outlives the file (headings, prose); the chunks */
    fkcg_diag *d;
    const lines *l;
    size_t skip; /* .md lines before cmark's line 1 */
    fkcg_doc *doc;
    size_t cap;          /* doc->blocks allocated */
    const char *heading; /* the latest heading */
    fkcg_buf prose;      /* top-level paragraphs since it or the previous block */
} walker;

static void take_heading(walker *w, cmark_node *n)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    heading_text(n, &b);
    w->heading = fkcg_strndup(w->a, b.data ? b.data : "", b.len);
    fkcg_buf_free(&b);
    w->prose.len = 0;
}

static void take_prose(walker *w, cmark_node *n)
{
    if (w->prose.len)
        fkcg_buf_putc(&w->prose, '\n');
    heading_text(n, &w->prose);
}

/* A ```fkc code block: a chunk when it stands at the top level and is closed; else 1, after
 * reporting why. */
static int add_block(walker *w, cmark_node *n)
{
    fkcg_doc *doc = w->doc;
    size_t start = (size_t)cmark_node_get_start_line(n) + w->skip;
    size_t end = (size_t)cmark_node_get_end_line(n) + w->skip;
    fkcg_loc fence = {doc->file, (uint32_t)start, (uint32_t)cmark_node_get_start_column(n)};
    if (cmark_node_get_type(cmark_node_parent(n)) != CMARK_NODE_DOCUMENT) {
        fkcg_error(w->d, &fence,
                   "a ```fkc block must stand at the top level of the document, "
                   "not inside a list or quote");
        return 1;
    }
    uint32_t indent;
    char ch;
    size_t flen;
    fence_shape(w->l, start, &indent, &ch, &flen);
    if (end <= start || !closes_fence(w->l, end, ch, flen)) {
        fkcg_error(w->d, &fence, "this ```fkc block is never closed; end it with a %.*s line",
                   (int)(flen < 16 ? flen : 16),
                   ch == '~' ? "~~~~~~~~~~~~~~~~" : "````````````````");
        return 1;
    }
    if (doc->n_blocks == w->cap) {
        fkcg_chunk *more = fkcg_alloc(w->tmp, 2 * w->cap * sizeof *more);
        memcpy(more, doc->blocks, w->cap * sizeof *more);
        doc->blocks = more;
        w->cap *= 2;
    }
    fkcg_chunk *c = &doc->blocks[doc->n_blocks++];
    make_chunk(w->tmp, w->l, start, end - 1, indent, doc->file, c);
    c->heading = w->heading;
    c->prose = w->prose.len ? fkcg_strndup(w->a, w->prose.data, w->prose.len) : NULL;
    w->prose.len = 0;
    return 0;
}

/* Walks cmark's AST for ```fkc blocks; each keeps the latest heading before it and the text of
 * the top-level paragraphs since that heading or the previous block (its prose, one line per
 * paragraph). md starts at .md line skip + 1 (1-based): cmark's line numbers are shifted by
 * skip. */
static int find_blocks(fkcg_arena *a, fkcg_arena *tmp, fkcg_diag *d, const lines *l, const char *md,
                       size_t md_len, size_t skip, fkcg_doc *doc)
{
    cmark_node *root = cmark_parse_document(md, md_len, CMARK_OPT_DEFAULT);
    if (!root)
        fkcg_oom();
    walker w = {.a = a, .tmp = tmp, .d = d, .l = l, .skip = skip, .doc = doc, .cap = 4};
    doc->blocks = fkcg_alloc(tmp, w.cap * sizeof *doc->blocks);
    fkcg_buf_init(&w.prose);
    int rc = 0;
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        if (ev != CMARK_EVENT_ENTER)
            continue;
        if (t == CMARK_NODE_HEADING) {
            take_heading(&w, n);
            continue;
        }
        if (t == CMARK_NODE_PARAGRAPH &&
            cmark_node_get_type(cmark_node_parent(n)) == CMARK_NODE_DOCUMENT)
            take_prose(&w, n);
        if (check_lost_block(d, l, skip, doc->file, n))
            rc = 1;
        else if (t == CMARK_NODE_CODE_BLOCK && is_fkc_info(cmark_node_get_fence_info(n)))
            rc |= add_block(&w, n);
    }
    fkcg_buf_free(&w.prose);
    cmark_iter_free(it);
    cmark_node_free(root);
    return rc;
}

/* Whether text opens as a contract does: an optional UTF-8 BOM, then a line of "---" (blanks
 * and a CR after it allowed). A file that does not is no contract, and no message quotes it. */
static bool opens_as_contract(const char *text, size_t len)
{
    size_t i = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (len - i < 3 || memcmp(text + i, "---", 3) != 0)
        return false;
    for (i += 3; i < len && text[i] != '\n'; i++)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
            return false;
    return true;
}

int fkcg_load(fkcg_arena *a, fkcg_arena *tmp, fkcg_diag *d, const char *path, fkcg_doc *doc)
{
    memset(doc, 0, sizeof *doc);
    doc->file = path;
    char *text;
    size_t len;
    int rc = read_file(tmp, d, path, &text, &len);
    if (rc)
        return rc;
    return fkcg_load_bytes(a, tmp, d, path, text, len, doc);
}

int fkcg_load_bytes(fkcg_arena *a, fkcg_arena *tmp, fkcg_diag *d, const char *path, char *text,
                    size_t len, fkcg_doc *doc)
{
    int rc;
    memset(doc, 0, sizeof *doc);
    doc->file = path;
    if (!text || len > FKCG_MAX_FILE_BYTES) {
        fkcg_loc where = {path, 0, 0};
        fkcg_error(d, &where, "file is larger than the %u-byte limit for a contract; split it",
                   FKCG_MAX_FILE_BYTES);
        return 1;
    }
    if (!opens_as_contract(text, len)) { /* not a contract: none of its bytes is quoted */
        fkcg_loc top = {path, 1, 1};
        size_t i = 0;
        while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r'))
            i++;
        if (i == len)
            fkcg_error(d, &(fkcg_loc){path, 0, 0},
                       "file is empty; a contract starts with '---' front matter");
        else
            fkcg_error(d, &top,
                       "missing front matter: a contract starts with a '---' line, the "
                       "provider's keys, then another '---' line (this file does not, so none "
                       "of it is quoted)");
        return 1;
    }
    if (normalise(d, path, text, &len))
        return 1;
    doc->text = text;
    doc->len = len;
    fkcg_diag_source(d, path, text, len);
    fkcg_loc top = {path, 1, 1};
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t'))
        i++;
    if (i == len) {
        fkcg_loc file = {path, 0, 0};
        fkcg_error(d, &file, "file is empty; a contract starts with '---' front matter");
        return 1;
    }
    lines l;
    index_lines(tmp, text, len, &l);
    fkcg_diag_source_lines(d, path, l.off, l.n);
    if (!is_dashes(&l, 0)) {
        fkcg_error(d, &top,
                   "missing front matter: a contract starts with a '---' line, the "
                   "provider's keys, then another '---' line");
        return 1;
    }
    size_t close = 1;
    while (close < l.n && !is_dashes(&l, close))
        close++;
    if (close == l.n) {
        fkcg_error(d, &top, "front matter is never closed; add a '---' line after its keys");
        return 1;
    }
    make_chunk(tmp, &l, 1, close, 0, path, &doc->front);
    /* cmark reads the body only: the lines after the closing '---', in place (blank lines in
     * their stead would not change its parse); its line numbers are shifted back by them. */
    size_t body = close + 1 < l.n ? l.off[close + 1] : len;
    rc = find_blocks(a, tmp, d, &l, text + body, len - body, close + 1, doc);
    if (rc == 0 && doc->n_blocks == 0) {
        fkcg_loc file = {path, 0, 0};
        fkcg_error(d, &file,
                   "no ```fkc block: declare each kernel in a fenced block whose info "
                   "string is fkc");
        rc = 1;
    }
    return rc;
}
