/* emit_c.c — the C back end: turns the binding table into generated/fkc_bindings.{h,c}
 * (placeholder; the real emitter follows). */
#include "fkcgen.h"

void fkcg_emit_c(const fkcg_table *table, fkcg_buf *header, fkcg_buf *source)
{
    (void)table;
    fkcg_buf_puts(header, "/* fkc_bindings.h: not emitted yet */\n");
    fkcg_buf_puts(source, "/* fkc_bindings.c: not emitted yet */\n");
}
