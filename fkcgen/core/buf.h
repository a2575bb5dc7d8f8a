/* buf.h — a growable byte buffer for building output text in memory.
 * The generator exits on out-of-memory, so appends never fail. */
#ifndef FKCG_BUF_H
#define FKCG_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A sink for a draining buffer: receives bytes in order (see fkcg_buf_drain_to). */
typedef void fkcg_drain_fn(void *ctx, const char *bytes, size_t n);

typedef struct fkcg_buf {
    char *data; /* NUL-terminated while len < cap */
    size_t len;
    size_t cap;
    fkcg_drain_fn *drain; /* NULL: the buffer only grows */
    void *drain_ctx;
    size_t drain_at; /* drain rather than grow past this many bytes */
} fkcg_buf;

void fkcg_buf_init(fkcg_buf *b);
/* Makes b drain: when an append would take it past `at` bytes, its complete lines are passed to
 * fn and dropped, so a large output streams through a small buffer. The unfinished last line
 * stays, so printers can still read back the current line. */
void fkcg_buf_drain_to(fkcg_buf *b, fkcg_drain_fn *fn, void *ctx, size_t at);
/* Passes everything left in a draining buffer to its sink. */
void fkcg_buf_drain_all(fkcg_buf *b);
void fkcg_buf_free(fkcg_buf *b);
/* Appends with growth (or draining): the slow path of the appends below. */
void fkcg_buf_put_grow(fkcg_buf *b, const void *bytes, size_t n);

/* Appends n bytes. Inline for the common case, when they fit: builders append a few bytes at a
 * time (tens of millions of appends for 10,000 sections). */
static inline void fkcg_buf_put(fkcg_buf *b, const void *bytes, size_t n)
{
    if (b->len + n < b->cap) {
        memcpy(b->data + b->len, bytes, n);
        b->len += n;
        b->data[b->len] = '\0';
    } else {
        fkcg_buf_put_grow(b, bytes, n);
    }
}

static inline void fkcg_buf_puts(fkcg_buf *b, const char *s)
{
    fkcg_buf_put(b, s, strlen(s));
}

static inline void fkcg_buf_putc(fkcg_buf *b, char c)
{
    fkcg_buf_put(b, &c, 1);
}
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void fkcg_buf_printf(fkcg_buf *b, const char *fmt, ...);

/* Appends v in decimal, without printf (no locale; printers write millions of numbers). */
void fkcg_buf_put_u64(fkcg_buf *b, uint64_t v);
/* Appends whole + frac/10^9 exactly, "2.5", "3" (no trailing zeros, no point for a whole). */
void fkcg_buf_put_ulp(fkcg_buf *b, uint64_t whole, uint32_t frac);
#define FKCG_ULP_TEXT 32 /* 20 digits, '.', 9 decimals, NUL */
void fkcg_ulp_format(char out[FKCG_ULP_TEXT], uint64_t whole, uint32_t frac);
/* Appends item i of an n-item list in prose, "a, b or c": the separator, then item. */
void fkcg_buf_put_listed(fkcg_buf *b, size_t i, size_t n, const char *item);
/* Appends s as XML (or HTML) character data or an attribute value: & < > " ' as entities, a
 * line break as &#10; (report.c's JUnit XML, doc.c's HTML title). */
void fkcg_buf_put_xml(fkcg_buf *b, const char *s);

/* Opens path for reading, without blocking (a FIFO would block open forever), and only when it
 * is a regular file: 0 with *fd open and *st filled, or an errno (EISDIR for a directory) or
 * FKCG_NOT_REGULAR, with nothing left open. The one such door of fkcgen (load, diag, gen). */
struct stat;
enum { FKCG_NOT_REGULAR = -1 };
int fkcg_open_regular(const char *path, int *fd, struct stat *st);

/* Exits with a message: for out-of-memory only. */
_Noreturn void fkcg_oom(void);

#endif /* FKCG_BUF_H */
