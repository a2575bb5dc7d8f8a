/* emit.h — private to fkcgen's C back end (emit_c.c, emit_main.c, emit_diff.c).
 * The checks that guard the emitter, the unified diff of --check, and file helpers. */
#ifndef FKCG_EMIT_H
#define FKCG_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "buf.h"
#include "model.h"

/* Names of the two generated files, relative to the output directory. */
#define FKCG_EMIT_HEADER "fkc_bindings.h"
#define FKCG_EMIT_SOURCE "fkc_bindings.c"

/* Checks, before anything is emitted, every contract string that becomes a C identifier
 * (kernel, op kind, inputs, outputs, op_params fields, entry_point), the field kinds, the
 * agreement of the sections of one op kind and the uniqueness of every generated name.
 * Reports each problem to diag as `file:line:col: error: ...`; returns the number found. */
size_t fkcg_emit_c_check(const fkcg_table *table, FILE *diag);

/* fkcg_emit_c_check, then fkcg_emit_c when it found nothing, on one shared plan (what
 * `fkcgen gen` runs). Returns the number of errors; nothing is appended when there are any. */
size_t fkcg_emit_c_checked(const fkcg_table *table, FILE *diag, fkcg_buf *header,
                           fkcg_buf *source);

/* Appends to out a unified diff (3 lines of context) turning old into new, with the
 * labels a_label / b_label. Appends nothing when the texts are equal. */
void fkcg_unified_diff(const char *a_label, const char *old_text, size_t old_len,
                       const char *b_label, const char *new_text, size_t new_len, fkcg_buf *out);

#endif /* FKCG_EMIT_H */
