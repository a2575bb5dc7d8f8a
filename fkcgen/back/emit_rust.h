/* emit_rust.h — fkcgen's Rust back end (emit_rust.c): `fkcgen gen --lang rust` writes one Rust
 * module, fkc_bindings.rs, from the binding table. It shares the plan and the C back end's
 * checks (emit.h) and adds its own (Rust names); see docs/generated-code.md, "## Rust". */
#ifndef FKCG_EMIT_RUST_H
#define FKCG_EMIT_RUST_H

#include <stdbool.h>
#include <stdio.h>

#include "buf.h"
#include "model.h"

/* The one generated file, relative to the output directory. */
#define FKCG_EMIT_RUST "fkc_bindings.rs"

/* Whether s is a Rust keyword (strict, reserved, or reserved by a later edition): such a name
 * is written r#s. */
bool fkcg_rust_keyword(const char *s);

/* The Rust back end's checks on top of the C back end's (fkcg_plan_check): Rust names, one
 * op_params variant per op kind and distinct variants, link registry statics. Returns the
 * number of problems reported to diag (file:line:col: error: ...). */
size_t fkcg_emit_rust_check(const fkcg_table *table, FILE *diag);

struct fkcg_diag; /* diag.c's sink (internal.h) */
/* The checks, then the module when they found nothing (what `fkcgen gen --lang rust` runs),
 * reporting through d: gen passes its run's sink (fkcg_run_diag), so the messages quote the
 * contract's line. Returns the number of errors; nothing is appended when there are any. */
size_t fkcg_emit_rust_checked(const fkcg_table *table, struct fkcg_diag *d, fkcg_buf *out);

/* The module alone, for a table the checks passed (tests). */
void fkcg_emit_rust(const fkcg_table *table, fkcg_buf *out);

#endif /* FKCG_EMIT_RUST_H */
