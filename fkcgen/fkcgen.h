/* fkcgen.h — fkcgen's library API: the one header the commands (cli/, whose own declarations
 * are cli/cli.h's) and the tests include.
 * A run reads contracts into a validated model and a binding table (model.h, the front end:
 * front/); the back ends (back/, one table of them in back/backends.c) turn that table into C
 * sources, a Rust module or JSON; the commands (cli/) drive both. */
#ifndef FKCGEN_H
#define FKCGEN_H

#include <stdio.h>

#include "buf.h"
#include "model.h"
#include "../runtime/include/fkc/fkc_version.h"

/* fkcgen is released with the runtime, under its version (one number for both). */
#define FKCGEN_VERSION FKC_VERSION_STRING

typedef struct fkcg_run fkcg_run;

/* A new run. Diagnostics go to diag (GNU format, many per run, up to a cap).
 * root: the directory contract paths are made relative to for generated output
 * (NULL: the current directory). Exits on out-of-memory. */
fkcg_run *fkcg_run_new(const char *root, FILE *diag);
void fkcg_run_free(fkcg_run *run);
/* Whether root (a --root value) names an existing directory: 0, or an errno (ENOTDIR when it
 * is something else). The command lines refuse any other root with a usage error. */
int fkcg_root_check(const char *root);

/* Reads, validates and binds every file together (duplicates are checked across files).
 * Returns 0 when clean, 1 when a contract has errors, 2 on I/O errors (unreadable path,
 * a directory). The table is complete only when it returns 0. */
int fkcg_run_load(fkcg_run *run, const char *const *paths, size_t n_paths);
/* The same for one contract held in memory (tests, fuzzing); name is used in messages. */
int fkcg_run_load_buffer(fkcg_run *run, const char *name, const char *data, size_t len);
/* The same for n contracts held in memory, read in one run: names[i] (used in messages, and
 * unique) holds the lens[i] bytes at data[i] (never NULL). fkcgen diff reads a git revision so. */
int fkcg_run_load_buffers(fkcg_run *run, const char *const *names, const char *const *data,
                          const size_t *lens, size_t n);
/* Asks a new run, before it loads, to keep every file's text and the place of every key of
 * every valid section and front matter (model.h's `where`), so that a report can quote any
 * line of any file the run read, a git revision's included (fkcgen diff). Costs memory. */
void fkcg_run_keep_sources(fkcg_run *run);
const fkcg_table *fkcg_run_table(const fkcg_run *run);
/* Number of errors reported so far. */
size_t fkcg_run_errors(const fkcg_run *run);

/* Back ends, on a table the front end accepted. Each appends to its buffers; none writes files.
 * The JSON of `fkcgen dump --json` (docs/fkcgen.md). */
void fkcg_dump_json(const fkcg_table *table, fkcg_buf *out);
/* The C header and source (default prefix; see docs/generated-code.md), without the back end's
 * checks (back/back.h has the rest of the back ends' interface). */
void fkcg_emit_c(const fkcg_table *table, fkcg_buf *header, fkcg_buf *source);

#endif /* FKCGEN_H */
