/* doc.h — `fkcgen doc`: a reference page per provider from its contracts (back/doc.c), with
 * the results of `fkc-run conform --format json` runs beside the claims (docs/fkcgen.md,
 * "doc"). */
#ifndef FKCG_DOC_H
#define FKCG_DOC_H

#include "internal.h"

/* One row of a conform results file: a binding (or an undeclared dtype) on one device. */
typedef struct fkcg_doc_row {
    const char *kernel, *dtype, *result;
    bool declared, ok;
    long long cases, passed;
    const char *measured_ulp, *measured_abs, *measured_rel; /* NULL when not measured */
} fkcg_doc_row;

/* One results file. */
typedef struct fkcg_doc_results {
    const char *file;   /* as given */
    const char *device; /* the device's name, or "CPU reference (--cpu)" */
    long long cases, passed, failed;
    const char *seed;
    fkcg_doc_row *rows;
    size_t n_rows;
} fkcg_doc_results;

/* Reads a results file (conform's JSON) into r, its strings in a. 0, or -1 with why (static
 * text or in a) set. */
int fkcg_doc_results_read(fkcg_arena *a, const char *path, fkcg_doc_results *r, const char **why);

/* The Markdown page of provider p (its sections of t), the results beside it. */
void fkcg_doc_page(const fkcg_table *t, const fkcg_provider *p, const fkcg_doc_results *res,
                   size_t n_res, fkcg_buf *out);
/* The file name of p's page without extension: its name, every byte but [a-z0-9._-] as '-'. */
void fkcg_doc_page_name(const fkcg_provider *p, fkcg_buf *out);
/* md as a whole HTML page through cmark (raw HTML in md is not passed through). */
void fkcg_doc_html(const char *title, const char *md, size_t len, fkcg_buf *out);

#endif
