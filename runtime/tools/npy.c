/* npy.c — the .npy reader and writer of npy.h. The header is parsed by a small recursive-descent
 * parser over exactly the grammar NumPy writes (a Python dict literal with three keys); anything
 * else is refused with the column where it went wrong. Sizes are overflow-checked and must match
 * the file exactly before a byte of data is allocated. */
#define _GNU_SOURCE /* realpath; O_TMPFILE, linkat AT_EMPTY_PATH, flock, getrandom, mkostemp */
#include "npy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAGIC "\x93NUMPY"
#define MAGIC_LEN 6
#define ALIGN 64         /* NumPy's ARRAY_ALIGN */
#define GROWTH_DIGITS 21 /* NumPy's GROWTH_AXIS_MAX_DIGITS */
#define MAX_BYTES ((uint64_t)INT64_MAX)

static void setf(char err[NPY_ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void setf(char err[NPY_ERR_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, NPY_ERR_MAX, fmt, ap);
    va_end(ap);
}

/* ---- header parser ---------------------------------------------------------------------- */

typedef struct parser {
    const char *s; /* header text */
    size_t len;    /* its length */
    size_t pos;    /* next byte */
    char *err;     /* message buffer (NPY_ERR_MAX) */
} parser;

/* A printable rendering of the byte at pos, for messages. */
static const char *show(const parser *p, char buf[8])
{
    if (p->pos >= p->len)
        return "end of header";
    unsigned char c = (unsigned char)p->s[p->pos];
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, 8, "'%c'", c);
    else
        snprintf(buf, 8, "\\x%02x", c);
    return buf;
}

static int fail(parser *p, const char *what)
{
    char b[8];
    setf(p->err, "column %zu: %s, found %s", p->pos + 1, what, show(p, b));
    return -1;
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
        p->pos++;
}

static int peek(const parser *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int expect(parser *p, char c, const char *what)
{
    if (peek(p) != (unsigned char)c)
        return fail(p, what);
    p->pos++;
    return 0;
}

/* A quoted string without escapes, copied into out (cap bytes with the NUL). */
static int parse_string(parser *p, char *out, size_t cap)
{
    int q = peek(p);
    if (q != '\'' && q != '"')
        return fail(p, "expected a quoted string");
    size_t start = ++p->pos, n = 0;
    for (;;) {
        int c = peek(p);
        if (c == q)
            break;
        if (c < 0x20 || c >= 0x7f || c == '\\')
            return fail(p, "expected a plain ASCII string without escapes");
        if (++n >= cap) {
            p->pos = start - 1;
            return fail(p, "string too long");
        }
        p->pos++;
    }
    memcpy(out, p->s + start, n);
    out[n] = '\0';
    p->pos++;
    return 0;
}

static int is_ident(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int parse_bool(parser *p, int *out)
{
    static const char *const words[2] = {"False", "True"};
    for (int v = 0; v < 2; v++) {
        size_t n = strlen(words[v]);
        if (p->len - p->pos >= n && memcmp(p->s + p->pos, words[v], n) == 0 &&
            !(p->pos + n < p->len && is_ident((unsigned char)p->s[p->pos + n]))) {
            p->pos += n;
            *out = v;
            return 0;
        }
    }
    return fail(p, "expected True or False");
}

/* A non-negative decimal integer that fits in 63 bits (no sign, no leading zeros). */
static int parse_uint(parser *p, uint64_t *out)
{
    int c = peek(p);
    if (c == '-')
        return fail(p, "expected a non-negative extent");
    if (c < '0' || c > '9')
        return fail(p, "expected an integer extent");
    size_t start = p->pos;
    uint64_t v = 0;
    while ((c = peek(p)) >= '0' && c <= '9') {
        unsigned d = (unsigned)(c - '0');
        if (v > (MAX_BYTES - d) / 10) {
            p->pos = start;
            return fail(p, "extent too large");
        }
        v = v * 10 + d;
        p->pos++;
    }
    if (p->pos - start > 1 && p->s[start] == '0') {
        p->pos = start;
        return fail(p, "integer with a leading zero");
    }
    *out = v;
    return 0;
}

/* A Python tuple of extents: (), (n,), (n, m), (n, m,) ... */
static int parse_shape(parser *p, npy_header *h)
{
    if (expect(p, '(', "expected '(' to open the shape tuple") < 0)
        return -1;
    skip_ws(p);
    h->rank = 0;
    while (peek(p) != ')') {
        uint64_t v = 0;
        if (h->rank == NPY_MAX_RANK)
            return fail(p, "too many dimensions (NumPy allows 32)");
        if (parse_uint(p, &v) < 0)
            return -1;
        if (v > SIZE_MAX)
            return fail(p, "extent too large for this machine");
        h->shape[h->rank++] = (size_t)v;
        skip_ws(p);
        if (peek(p) == ',') {
            p->pos++;
            skip_ws(p);
        } else if (peek(p) != ')') {
            return fail(p, "expected ',' or ')' after an extent");
        } else if (h->rank == 1) {
            return fail(p, "a one-element shape needs a trailing comma, as in (5,)");
        }
    }
    p->pos++;
    return 0;
}

enum { KEY_DESCR = 1, KEY_FORTRAN = 2, KEY_SHAPE = 4 };

/* One "key: value" pair; *seen collects the keys met so far. */
static int parse_item(parser *p, npy_header *h, unsigned *seen)
{
    char key[32];
    size_t at = p->pos;
    unsigned bit;
    if (parse_string(p, key, sizeof key) < 0)
        return -1;
    if (strcmp(key, "descr") == 0)
        bit = KEY_DESCR;
    else if (strcmp(key, "fortran_order") == 0)
        bit = KEY_FORTRAN;
    else if (strcmp(key, "shape") == 0)
        bit = KEY_SHAPE;
    else {
        setf(p->err, "column %zu: unknown key '%s' (expected descr, fortran_order, shape)", at + 1,
             key);
        return -1;
    }
    if (*seen & bit) {
        setf(p->err, "column %zu: duplicate key '%s'", at + 1, key);
        return -1;
    }
    *seen |= bit;
    skip_ws(p);
    if (expect(p, ':', "expected ':' after a key") < 0)
        return -1;
    skip_ws(p);
    if (bit == KEY_DESCR) {
        if (peek(p) == '[')
            return fail(p, "structured dtypes are not supported; expected a descr string");
        return parse_string(p, h->descr, sizeof h->descr);
    }
    if (bit == KEY_FORTRAN)
        return parse_bool(p, &h->fortran_order);
    return parse_shape(p, h);
}

int npy_parse_header(const char *text, size_t len, npy_header *out, char err[NPY_ERR_MAX])
{
    parser p = {text, len, 0, err};
    unsigned seen = 0;
    memset(out, 0, sizeof *out);
    skip_ws(&p);
    if (expect(&p, '{', "expected '{' to open the header dict") < 0)
        return -1;
    skip_ws(&p);
    while (peek(&p) != '}') {
        if (parse_item(&p, out, &seen) < 0)
            return -1;
        skip_ws(&p);
        if (peek(&p) == ',') {
            p.pos++;
            skip_ws(&p);
        } else if (peek(&p) != '}') {
            return fail(&p, "expected ',' or '}' after a value");
        }
    }
    p.pos++;
    skip_ws(&p);
    if (p.pos != p.len)
        return fail(&p, "expected only padding after the header dict");
    if (seen != (KEY_DESCR | KEY_FORTRAN | KEY_SHAPE)) {
        setf(err, "missing key '%s'",
             !(seen & KEY_DESCR)     ? "descr"
             : !(seen & KEY_FORTRAN) ? "fortran_order"
                                     : "shape");
        return -1;
    }
    return 0;
}

size_t npy_descr_size(const char *descr, char err[NPY_ERR_MAX])
{
    char order = descr[0], kind = descr[0] ? descr[1] : 0;
    const char *digits = kind ? descr + 2 : "";
    size_t size = 0;
    if (strlen(digits) == 1 && digits[0] >= '1' && digits[0] <= '8')
        size = (size_t)(digits[0] - '0');
    if (!strchr("<>|=", order) || !order || !strchr("biuf", kind) || !kind ||
        !(size == 1 || size == 2 || size == 4 || size == 8) || (kind == 'f' && size == 1) ||
        (kind == 'b' && size != 1)) {
        setf(err, "dtype '%s' is not a plain numeric type (expected e.g. '<f4', '<i8', '|u1')",
             descr);
        return 0;
    }
    if (order == '>' && size > 1) {
        setf(err, "dtype '%s' is big-endian; only little-endian ('<') arrays are supported", descr);
        return 0;
    }
    if ((order == '=' || order == '|') && size > 1) {
        setf(err, "dtype '%s' has no explicit byte order; expected '<'", descr);
        return 0;
    }
    return size;
}

/* ---- sizes -------------------------------------------------------------------------------- */

/* count and count * elem_size, or -1 when they exceed 2^63 - 1. */
static int array_size(uint32_t rank, const size_t *shape, size_t elem_size, size_t *count,
                      size_t *nbytes)
{
    uint64_t n = 1;
    int zero = 0;
    for (uint32_t i = 0; i < rank; i++) {
        if (shape[i] == 0) {
            zero = 1;
            continue;
        }
        if (n > MAX_BYTES / shape[i])
            return -1;
        n *= shape[i];
    }
    if (n > MAX_BYTES / elem_size || n * elem_size > SIZE_MAX)
        return -1;
    *count = zero ? 0 : (size_t)n;
    *nbytes = *count * elem_size;
    return 0;
}

int npy_alloc(npy_array *a, const char *descr, uint32_t rank, const size_t *shape,
              char err[NPY_ERR_MAX])
{
    memset(a, 0, sizeof *a);
    if (rank > NPY_MAX_RANK) {
        setf(err, "rank %u exceeds %d", rank, NPY_MAX_RANK);
        return -1;
    }
    if (!(a->elem_size = npy_descr_size(descr, err)))
        return -1;
    snprintf(a->descr, sizeof a->descr, "%s", descr);
    a->rank = rank;
    memcpy(a->shape, shape, rank * sizeof *shape);
    if (array_size(rank, shape, a->elem_size, &a->count, &a->nbytes) < 0) {
        setf(err, "array size overflows");
        return -1;
    }
    if (!(a->data = calloc(a->nbytes ? a->nbytes : 1, 1))) {
        setf(err, "out of memory allocating %zu bytes", a->nbytes);
        return -1;
    }
    return 0;
}

void npy_free(npy_array *a)
{
    free(a->data);
    a->data = NULL;
}

/* ---- reader ------------------------------------------------------------------------------- */

/* What a file that is not a regular one is, for messages. */
static const char *kind_of(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISLNK(mode)  ? "a symlink"
                            : "not a file";
}

/* Reads exactly n bytes; 0, or -1 on error or early end of file (errno 0 then). */
static int read_full(int fd, void *buf, size_t n)
{
    unsigned char *b = buf;
    while (n) {
        ssize_t r = read(fd, b, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = 0;
            return -1;
        }
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

static void read_error(const char *path, const char *what, char err[NPY_ERR_MAX])
{
    if (errno)
        setf(err, "%s: %s: %s", path, what, strerror(errno));
    else
        setf(err, "%s: %s: file is truncated", path, what);
}

/* Magic, version and header length; *prefix is the byte count before the header text. */
static int read_preamble(int fd, const char *path, size_t *hlen, size_t *prefix,
                         char err[NPY_ERR_MAX])
{
    unsigned char m[12];
    if (read_full(fd, m, 8) < 0) {
        read_error(path, "reading the .npy magic", err);
        return -1;
    }
    if (memcmp(m, MAGIC, MAGIC_LEN) != 0) {
        setf(err, "%s: not a .npy file (bad magic)", path);
        return -1;
    }
    if (m[6] < 1 || m[6] > 3 || m[7] != 0) {
        setf(err, "%s: unsupported .npy version %u.%u (expected 1.0, 2.0 or 3.0)", path, m[6],
             m[7]);
        return -1;
    }
    size_t lenbytes = m[6] == 1 ? 2 : 4;
    if (read_full(fd, m + 8, lenbytes) < 0) {
        read_error(path, "reading the header length", err);
        return -1;
    }
    uint32_t n = (uint32_t)m[8] | (uint32_t)m[9] << 8;
    if (lenbytes == 4)
        n |= (uint32_t)m[10] << 16 | (uint32_t)m[11] << 24;
    if (n > NPY_MAX_HEADER) {
        setf(err, "%s: header length %u exceeds the %u-byte limit", path, n, NPY_MAX_HEADER);
        return -1;
    }
    *hlen = n;
    *prefix = 8 + lenbytes;
    return 0;
}

/* Reads and checks the header; fills a's descr, elem_size, rank, shape, count and nbytes. */
static int read_header(int fd, const char *path, npy_array *a, size_t *total, char err[NPY_ERR_MAX])
{
    size_t hlen, prefix;
    npy_header h;
    char msg[NPY_ERR_MAX];
    if (read_preamble(fd, path, &hlen, &prefix, err) < 0)
        return -1;
    char *text = malloc(hlen ? hlen : 1);
    if (!text) {
        setf(err, "%s: out of memory", path);
        return -1;
    }
    int rc = read_full(fd, text, hlen);
    if (rc < 0)
        read_error(path, "reading the header", err);
    else if ((rc = npy_parse_header(text, hlen, &h, msg)) < 0)
        setf(err, "%s: bad .npy header: %s", path, msg);
    free(text);
    if (rc < 0)
        return -1;
    size_t long_axes = 0; /* axes of extent > 1: with at most one, F order is C order's bytes */
    for (uint32_t i = 0; i < h.rank; i++)
        long_axes += h.shape[i] > 1;
    if (h.fortran_order && long_axes > 1) {
        setf(err, "%s: fortran_order is True; only C-order arrays are supported", path);
        return -1;
    }
    if (!(a->elem_size = npy_descr_size(h.descr, msg))) {
        setf(err, "%s: %s", path, msg);
        return -1;
    }
    memcpy(a->descr, h.descr, sizeof a->descr);
    a->rank = h.rank;
    memcpy(a->shape, h.shape, sizeof a->shape);
    if (array_size(a->rank, a->shape, a->elem_size, &a->count, &a->nbytes) < 0) {
        setf(err, "%s: the shape's byte size overflows", path);
        return -1;
    }
    *total = prefix + hlen;
    return 0;
}

int npy_read(const char *path, npy_array *out, char err[NPY_ERR_MAX])
{
    struct stat st;
    size_t hdr;
    memset(out, 0, sizeof *out);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == ENXIO && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
            setf(err, "%s: not a regular file (%s)", path, kind_of(st.st_mode));
        else
            setf(err, "%s: cannot open: %s", path, strerror(e));
        return -1;
    }
    if (fstat(fd, &st) < 0) {
        setf(err, "%s: cannot stat: %s", path, strerror(errno));
        goto fail;
    }
    if (!S_ISREG(st.st_mode)) {
        setf(err, "%s: not a regular file (%s)", path, kind_of(st.st_mode));
        goto fail;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        setf(err, "%s: cannot open: %s", path, strerror(errno));
        goto fail;
    }
    if (read_header(fd, path, out, &hdr, err) < 0)
        goto fail;
    if ((uint64_t)st.st_size != hdr + (uint64_t)out->nbytes) {
        setf(err,
             "%s: file is %lld bytes but its header describes %llu (%zu of header, %zu of data)",
             path, (long long)st.st_size, (unsigned long long)(hdr + (uint64_t)out->nbytes), hdr,
             out->nbytes);
        goto fail;
    }
    if (!(out->data = malloc(out->nbytes ? out->nbytes : 1))) {
        setf(err, "%s: out of memory allocating %zu bytes", path, out->nbytes);
        goto fail;
    }
    if (read_full(fd, out->data, out->nbytes) < 0) {
        read_error(path, "reading the data", err);
        goto fail;
    }
    close(fd);
    return 0;
fail:
    npy_free(out);
    close(fd);
    return -1;
}

/* ---- writer ------------------------------------------------------------------------------- */

/* The dict text NumPy writes, growth padding included; returns its length or 0. */
static size_t dict_text(const npy_array *a, char *buf, size_t cap)
{
    size_t n = 0;
    int w = snprintf(buf, cap, "{'descr': '%s', 'fortran_order': False, 'shape': (", a->descr);
    if (w < 0 || (size_t)w >= cap)
        return 0;
    n = (size_t)w;
    for (uint32_t i = 0; i < a->rank; i++) {
        w = snprintf(buf + n, cap - n,
                     i + 1 < a->rank ? "%zu, "
                     : a->rank == 1  ? "%zu,"
                                     : "%zu",
                     a->shape[i]);
        if (w < 0 || (size_t)w >= cap - n)
            return 0;
        n += (size_t)w;
    }
    w = snprintf(buf + n, cap - n, "), }");
    if (w < 0 || (size_t)w >= cap - n)
        return 0;
    n += (size_t)w;
    if (a->rank > 0) {
        char d[32];
        int digits = snprintf(d, sizeof d, "%zu", a->shape[0]);
        for (int i = digits; i < GROWTH_DIGITS; i++) {
            if (n + 1 >= cap)
                return 0;
            buf[n++] = ' ';
        }
    }
    return n;
}

size_t npy_format_header(const npy_array *a, unsigned char *buf, size_t cap)
{
    char text[2048];
    size_t n = dict_text(a, text, sizeof text);
    if (!n)
        return 0;
    size_t hlen = n + 1; /* the final newline */
    size_t lenbytes = 2;
    size_t pad = ALIGN - (MAGIC_LEN + 2 + lenbytes + hlen) % ALIGN;
    int major = 1;
    if (hlen + pad > 0xffff) {
        lenbytes = 4;
        major = 2;
        pad = ALIGN - (MAGIC_LEN + 2 + lenbytes + hlen) % ALIGN;
    }
    size_t total = MAGIC_LEN + 2 + lenbytes + hlen + pad;
    if (total > cap)
        return 0;
    size_t body = hlen + pad;
    memcpy(buf, MAGIC, MAGIC_LEN);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    for (size_t i = 0; i < lenbytes; i++)
        buf[8 + i] = (unsigned char)(body >> (8 * i));
    unsigned char *t = buf + 8 + lenbytes;
    memcpy(t, text, n);
    memset(t + n, ' ', pad);
    t[n + pad] = '\n';
    return total;
}

static int write_full(int fd, const void *buf, size_t n)
{
    const unsigned char *b = buf;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

/* ---- the output path ---------------------------------------------------------------------- */

/* The regular file an output replaces: the path itself, or a symlink's final target. */
typedef struct out_target {
    char path[PATH_MAX]; /* what the temp file is renamed over */
    int exists;          /* 1 when there is a file to replace */
    mode_t mode;         /* its permission bits (when exists) */
} out_target;

static int copy_path(const char *path, char *out, size_t cap, char err[NPY_ERR_MAX])
{
    if (strlen(path) >= cap) {
        setf(err, "%s: %s", path, strerror(ENAMETOOLONG));
        return -1;
    }
    memcpy(out, path, strlen(path) + 1);
    return 0;
}

/* Resolves path into t: absent, a regular file, or a symlink (followed to the end) to an
 * existing regular file. Anything else is refused with a message naming path. */
static int resolve_output(const char *path, out_target *t, char err[NPY_ERR_MAX])
{
    static const char *const must = "an output must be a regular file, a symlink to one, or absent";
    struct stat st;
    memset(t, 0, sizeof *t);
    if (lstat(path, &st) < 0) {
        if (errno == ENOENT)
            return copy_path(path, t->path, sizeof t->path, err);
        setf(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        if (!realpath(path, t->path)) {
            if (errno == ENOENT)
                setf(err, "%s: a symlink to a file that does not exist; %s", path, must);
            else
                setf(err, "%s: cannot resolve the symlink: %s", path, strerror(errno));
            return -1;
        }
        if (stat(t->path, &st) < 0) {
            setf(err, "%s: %s", path, strerror(errno));
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            setf(err, "%s: not a regular file (a symlink to %s); %s", path, kind_of(st.st_mode),
                 must);
            return -1;
        }
    } else if (!S_ISREG(st.st_mode)) {
        setf(err, "%s: not a regular file (%s); %s", path, kind_of(st.st_mode), must);
        return -1;
    } else if (copy_path(path, t->path, sizeof t->path, err) < 0) {
        return -1;
    }
    t->exists = 1;
    t->mode = st.st_mode & 07777;
    return 0;
}

int npy_check_output(const char *path, char err[NPY_ERR_MAX])
{
    out_target t;
    return resolve_output(path, &t, err);
}

/* ---- the temp file and signals ------------------------------------------------------------- */

/* An output's temporary file is "<dir>/.<name>.fkc-run.XXXXXX" (six of [A-Za-z0-9]) beside the
 * file it replaces. Where the file system can, it is written unnamed (O_TMPFILE) and has that
 * name only between its link and its rename, with the signals below held; elsewhere it is named
 * from its creation. Its writer holds an flock on it from before it has a name until the name is
 * gone (renamed or unlinked), so a file of that pattern that no process holds locked is stale:
 * its writer was killed (SIGKILL, a crash, power loss). npy_write removes those of its output
 * (remove_stale_temps) before it writes, and nothing else. */
#define TEMP_TAG ".fkc-run."
#define TEMP_RAND 6
static const char temp_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* The one temp file name being used, for the signal handler. It changes only in state BUSY,
 * while the writing thread blocks the signals below; a handler running meanwhile on another
 * thread waits the few instructions until the state is LIVE (remove the file) or IDLE (nothing
 * to remove; an unnamed file goes with the process). */
enum { TEMP_IDLE, TEMP_BUSY, TEMP_LIVE };
static char temp_path[PATH_MAX + 32];
static _Atomic int temp_state = TEMP_IDLE;
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_CLEANUP_SIGNALS (sizeof cleanup_signals / sizeof cleanup_signals[0])

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < N_CLEANUP_SIGNALS; i++)
        sigaddset(&set, cleanup_signals[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

/* The handler: unlink and _exit only (both async-signal-safe). */
static void on_signal(int sig)
{
    int state;
    while ((state = atomic_load(&temp_state)) == TEMP_BUSY)
        ;
    if (state == TEMP_LIVE)
        unlink(temp_path);
    _exit(128 + sig);
}

int npy_cleanup_on_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_CLEANUP_SIGNALS; i++)
        sigaddset(&sa.sa_mask, cleanup_signals[i]);
    for (size_t i = 0; i < N_CLEANUP_SIGNALS; i++) {
        struct sigaction was;
        if (sigaction(cleanup_signals[i], NULL, &was) < 0)
            return -1;
        if (was.sa_handler == SIG_IGN) /* nohup, or a background job of a script: keep it so */
            continue;
        if (sigaction(cleanup_signals[i], &sa, NULL) < 0)
            return -1;
    }
    return 0;
}

int npy_is_temp_name(const char *name, const char *base)
{
    size_t nb = strlen(base), nt = strlen(TEMP_TAG);
    if (strlen(name) != 1 + nb + nt + TEMP_RAND || name[0] != '.' ||
        strncmp(name + 1, base, nb) != 0 || strncmp(name + 1 + nb, TEMP_TAG, nt) != 0)
        return 0;
    for (const char *p = name + 1 + nb + nt; *p; p++)
        if (!strchr(temp_chars, *p))
            return 0;
    return 1;
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Removes the stale temporaries of the output `base` in dir: regular files of this user whose
 * name is exactly the pattern and which no process holds locked; each is checked to be the same
 * file once locked, just before the unlink, so a live writer's temporary is never removed. Best
 * effort: one that cannot be opened, locked or removed stays (and costs nothing but space). */
static void remove_stale_temps(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    int dfd = dirfd(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        struct stat st, now;
        if (!npy_is_temp_name(e->d_name, base) ||
            fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        int fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (fstat(fd, &now) == 0 && same_file(&now, &st) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
            fstatat(dfd, e->d_name, &now, AT_SYMLINK_NOFOLLOW) == 0 && same_file(&now, &st))
            unlinkat(dfd, e->d_name, 0);
        close(fd);
    }
    closedir(d);
}

/* temp_path = "<dir of target>/.<base>.fkc-run." + TEMP_RAND random characters (or, with
 * template set, "XXXXXX" for mkostemp). 0, or -1 (ENAMETOOLONG). */
static int make_temp_name(const char *target, int template)
{
    const char *slash = strrchr(target, '/');
    int dirlen = slash ? (int)(slash - target) + 1 : 0;
    char tail[TEMP_RAND + 1] = "XXXXXX";
    if (!template) {
        unsigned char r[TEMP_RAND];
        static unsigned counter;
        if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
            for (size_t i = 0; i < sizeof r; i++)
                r[i] = (unsigned char)((unsigned)getpid() * 2654435761u + counter++ * 40503u +
                                       (unsigned)time(NULL) + i * 977u);
        for (size_t i = 0; i < sizeof r; i++)
            tail[i] = temp_chars[r[i] % (sizeof temp_chars - 1)];
    }
    int n = snprintf(temp_path, sizeof temp_path, "%.*s.%s" TEMP_TAG "%s", dirlen, target,
                     target + dirlen, tail);
    if (n < 0 || (size_t)n >= sizeof temp_path || strlen(target + dirlen) + 16 > NAME_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

/* An unnamed file in dir, locked; -1 where the file system or the kernel lacks O_TMPFILE (or on
 * any error: the named file tried next reports its own). */
static int open_unnamed(const char *dir)
{
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd >= 0)
        flock(fd, LOCK_EX); /* unnamed: no other process can hold it */
    return fd;
#else
    (void)dir;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

/* The named temp file beside target, created (mode 0600) and locked, its name recorded for the
 * handler: an fd, or -1. A stale-temp removal by another run may take the name between the
 * creation and the lock: then the name is no longer this file's, and another is made. Where
 * flock is not supported it is skipped (and no run can lock, so none removes the file). */
static int create_named(const char *target)
{
    for (int tries = 0; tries < 64; tries++) {
        sigset_t old;
        int fd = -1, e;
        struct stat mine, now;
        block_signals(&old);
        atomic_store(&temp_state, TEMP_BUSY);
        if (make_temp_name(target, 1) == 0)
            fd = mkostemp(temp_path, O_CLOEXEC);
        e = errno;
        if (fd >= 0) {
            flock(fd, LOCK_EX);
            if (fstat(fd, &mine) != 0 || stat(temp_path, &now) != 0 || !same_file(&mine, &now)) {
                close(fd); /* the name is another file's now, or nobody's: not ours to unlink */
                fd = -2;
            }
        }
        atomic_store(&temp_state, fd >= 0 ? TEMP_LIVE : TEMP_IDLE);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (fd >= 0)
            return fd;
        if (fd == -1) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

/* Links the unnamed file fd at path: 0, or -1 with errno (EEXIST when path exists). Without
 * CAP_DAC_READ_SEARCH, AT_EMPTY_PATH is refused; /proc/self/fd then names the file. */
static int link_unnamed(int fd, const char *path)
{
    if (linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0)
        return 0;
    if (errno == EEXIST)
        return -1;
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

/* Puts the complete file fd in place of target, with the signals held: an unnamed file is
 * linked at target directly when target is absent, else linked at a temp name and renamed
 * over target; a named one is renamed. On failure the temp name is removed. 0, or -1 with
 * errno (*relink set when the unnamed file could not be linked at all: /proc missing). */
static int publish(int fd, int unnamed, const char *target, int exists, int *relink)
{
    sigset_t old;
    int rc = 0, e = 0;
    *relink = 0;
    block_signals(&old);
    if (unnamed && !exists) {
        rc = link_unnamed(fd, target);
        e = errno;
        if (rc == 0 || e != EEXIST) {
            *relink = rc != 0;
            goto out;
        }
    }
    for (int tries = 0; unnamed && tries < 64; tries++) {
        atomic_store(&temp_state, TEMP_BUSY);
        rc = make_temp_name(target, 0) == 0 ? link_unnamed(fd, temp_path) : -1;
        e = errno;
        atomic_store(&temp_state, rc == 0 ? TEMP_LIVE : TEMP_IDLE);
        if (rc == 0 || e != EEXIST)
            break;
    }
    if (rc != 0) {
        *relink = e != ENAMETOOLONG;
        goto out;
    }
    atomic_store(&temp_state, TEMP_BUSY);
    rc = rename(temp_path, target);
    e = errno;
    if (rc < 0)
        unlink(temp_path);
    atomic_store(&temp_state, TEMP_IDLE);
out:
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return rc;
}

/* Drops an unfinished temp file: a named one is unlinked (before the close: it stays locked
 * while it has its name), an unnamed one goes with its descriptor. */
static void discard(int fd, int unnamed)
{
    sigset_t old;
    if (!unnamed) {
        block_signals(&old);
        atomic_store(&temp_state, TEMP_BUSY);
        unlink(temp_path);
        atomic_store(&temp_state, TEMP_IDLE);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    close(fd);
}

/* Test hook (docs/runtime.md), compiled only into the tests' build of fkc-run
 * (-DFKC_RUN_TEST_HOOKS, runtime/cli.mk): FKC_RUN_TEST_PAUSE_WRITE=S sleeps S seconds with the
 * temp file holding only the header, so a test can signal a run mid-write without racing it.
 * The shipped fkc-run reads no such variable. */
static void test_pause(void)
{
#ifdef FKC_RUN_TEST_HOOKS
    const char *v = getenv("FKC_RUN_TEST_PAUSE_WRITE");
    struct timespec ts = {v ? strtol(v, NULL, 10) : 0, 0};
    while (ts.tv_sec > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
#endif
}

/* The directory part of path ("." when none) into dir (PATH_MAX bytes). */
static void dir_of(const char *path, char dir[PATH_MAX])
{
    const char *slash = strrchr(path, '/');
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    memcpy(dir, n ? path : ".", n ? n : 1);
    dir[n ? n : 1] = '\0';
}

/* Syncs the directory holding path (the rename's entry); best effort: the output is already
 * complete and in place, so a failure here is not reported. */
static void sync_dir(const char *path)
{
    char dir[PATH_MAX];
    dir_of(path, dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* One attempt of npy_write: the temp file (unnamed unless named is set) written, synced and put
 * in place. 0; -1 with err set; 1 when an unnamed file could not be linked (write it named). */
static int write_through_temp(const char *path, const out_target *t, const unsigned char *hdr,
                              size_t hn, const npy_array *a, int named, char err[NPY_ERR_MAX])
{
    char dir[PATH_MAX];
    dir_of(t->path, dir);
    int unnamed = !named, fd = unnamed ? open_unnamed(dir) : -1;
    if (fd < 0) {
        unnamed = 0;
        fd = create_named(t->path);
    }
    if (fd < 0) {
        setf(err, "%s: cannot create a temporary file beside it: %s", path, strerror(errno));
        return -1;
    }
    mode_t mode = t->mode;
    if (!t->exists) {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    int ok = write_full(fd, hdr, hn) == 0;
    if (ok)
        test_pause();
    ok = ok && write_full(fd, a->data, a->nbytes) == 0 && fchmod(fd, mode) == 0 && fsync(fd) == 0;
    if (!ok) {
        setf(err, "%s: write failed: %s", path, strerror(errno));
        discard(fd, unnamed);
        return -1;
    }
    int relink;
    if (publish(fd, unnamed, t->path, t->exists, &relink) < 0) {
        int e = errno;
        close(fd);
        if (relink)
            return 1;
        setf(err, "%s: cannot write: %s", path, strerror(e));
        return -1;
    }
    close(fd); /* after the rename: the lock covers the temp name while it exists */
    return 0;
}

int npy_write(const char *path, const npy_array *a, char err[NPY_ERR_MAX])
{
    unsigned char hdr[4096];
    out_target t;
    size_t hn = npy_format_header(a, hdr, sizeof hdr);
    if (!hn) {
        setf(err, "%s: cannot format the .npy header", path);
        return -1;
    }
    if (resolve_output(path, &t, err) < 0)
        return -1;
    char dir[PATH_MAX];
    dir_of(t.path, dir);
    const char *slash = strrchr(t.path, '/');
    remove_stale_temps(dir, slash ? slash + 1 : t.path);
    int rc = write_through_temp(path, &t, hdr, hn, a, 0, err);
    if (rc == 1)
        rc = write_through_temp(path, &t, hdr, hn, a, 1, err);
    if (rc == 0)
        sync_dir(t.path);
    return rc;
}
