/* buf.h — a growable byte buffer for building output text in memory.
 * The generator exits on out-of-memory, so appends never fail. */
#ifndef FKCG_BUF_H
#define FKCG_BUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct fkcg_buf {
    char *data; /* NUL-terminated while len < cap */
    size_t len;
    size_t cap;
} fkcg_buf;

void fkcg_buf_init(fkcg_buf *b);
void fkcg_buf_free(fkcg_buf *b);
void fkcg_buf_put(fkcg_buf *b, const void *bytes, size_t n);
void fkcg_buf_puts(fkcg_buf *b, const char *s);
void fkcg_buf_putc(fkcg_buf *b, char c);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void fkcg_buf_printf(fkcg_buf *b, const char *fmt, ...);

/* Exits with a message: for out-of-memory only. */
_Noreturn void fkcg_oom(void);

#endif /* FKCG_BUF_H */
