/* buf.c — growable byte buffer (see buf.h). */
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
