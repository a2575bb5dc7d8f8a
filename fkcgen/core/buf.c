/* buf.c — growable byte buffer and the small shared printers and file door (see buf.h). */
#include "buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Out of memory: a direct write, not diag.c's fkcg_cli_error, which builds each message in
 * a buffer that needs memory (and reports its own failure to get it here). */
_Noreturn void fkcg_oom(void)
{
    fputs("fkcgen: out of memory\n", stderr);
    exit(2);
}

void fkcg_buf_init(fkcg_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->drain = NULL;
    b->drain_ctx = NULL;
    b->drain_at = 0;
}

void fkcg_buf_drain_to(fkcg_buf *b, fkcg_drain_fn *fn, void *ctx, size_t at)
{
    b->drain = fn;
    b->drain_ctx = ctx;
    b->drain_at = at;
}

/* Passes the complete lines to the sink and keeps the unfinished one. */
static void drain_lines(fkcg_buf *b)
{
    size_t n = b->len;
    while (n > 0 && b->data[n - 1] != '\n')
        n--;
    if (n == 0)
        return;
    b->drain(b->drain_ctx, b->data, n);
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

void fkcg_buf_drain_all(fkcg_buf *b)
{
    if (b->drain && b->len)
        b->drain(b->drain_ctx, b->data, b->len);
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void fkcg_buf_free(fkcg_buf *b)
{
    free(b->data);
    fkcg_buf_init(b);
}

/* Makes room for n more bytes and the terminating NUL. */
static void reserve(fkcg_buf *b, size_t n)
{
    if (n >= (size_t)-1 / 2 - b->len)
        fkcg_oom();
    if (b->len + n + 1 <= b->cap)
        return;
    if (b->drain && b->len + n + 1 > b->drain_at) {
        drain_lines(b);
        if (b->len + n + 1 <= b->cap)
            return;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p)
        fkcg_oom();
    b->data = p;
    b->cap = cap;
}

void fkcg_buf_put_grow(fkcg_buf *b, const void *bytes, size_t n)
{
    reserve(b, n);
    if (n)
        memcpy(b->data + b->len, bytes, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void fkcg_buf_printf(fkcg_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    b->len += (size_t)n;
}

/* Two digits per division: indexes, lines and widths are printed about a million times for
 * 10,000 sections, and revision hashes print every cost expression. */
void fkcg_buf_put_u64(fkcg_buf *b, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    char tmp[24];
    size_t k = sizeof tmp;
    while (v >= 100) {
        const char *p = pairs + 2 * (v % 100);
        v /= 100;
        tmp[--k] = p[1];
        tmp[--k] = p[0];
    }
    if (v >= 10) {
        tmp[--k] = pairs[2 * v + 1];
        tmp[--k] = pairs[2 * v];
    } else {
        tmp[--k] = (char)('0' + v);
    }
    fkcg_buf_put(b, tmp + k, sizeof tmp - k);
}

void fkcg_buf_put_listed(fkcg_buf *b, size_t i, size_t n, const char *item)
{
    if (i > 0)
        fkcg_buf_puts(b, i + 1 == n ? " or " : ", ");
    fkcg_buf_puts(b, item);
}

void fkcg_buf_put_xml(fkcg_buf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fkcg_buf_puts(b, "&amp;"); break;
        case '<': fkcg_buf_puts(b, "&lt;"); break;
        case '>': fkcg_buf_puts(b, "&gt;"); break;
        case '"': fkcg_buf_puts(b, "&quot;"); break;
        case '\'': fkcg_buf_puts(b, "&apos;"); break;
        case '\n': fkcg_buf_puts(b, "&#10;"); break;
        default: fkcg_buf_putc(b, *s);
        }
    }
}

int fkcg_open_regular(const char *path, int *fd, struct stat *st)
{
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0)
        return errno ? errno : EIO;
    int err = fstat(*fd, st) != 0     ? errno
              : S_ISDIR(st->st_mode)  ? EISDIR
              : !S_ISREG(st->st_mode) ? FKCG_NOT_REGULAR
                                      : 0;
    if (err) {
        close(*fd);
        *fd = -1;
    }
    return err;
}

void fkcg_ulp_format(char out[FKCG_ULP_TEXT], uint64_t whole, uint32_t frac)
{
    char d[10];
    for (int i = 8; i >= 0; i--, frac /= 10)
        d[i] = (char)('0' + frac % 10);
    int n = 9;
    while (n > 0 && d[n - 1] == '0')
        n--;
    d[n] = '\0';
    snprintf(out, FKCG_ULP_TEXT, "%llu%s%s", (unsigned long long)whole, n ? "." : "", d);
}

void fkcg_buf_put_ulp(fkcg_buf *b, uint64_t whole, uint32_t frac)
{
    char t[FKCG_ULP_TEXT];
    fkcg_ulp_format(t, whole, frac);
    fkcg_buf_puts(b, t);
}
