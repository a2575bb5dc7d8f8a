/* conform_report.h — conform's rows kept for `--format json|sarif|junit|github`
 * (conform_report.c). */
#ifndef FKC_CONFORM_REPORT_H
#define FKC_CONFORM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "conform.h"
#include "fkc/fkc_version.h"

/* One row as the table prints it, with the claim each note is about. */
typedef struct conform_report_row_t {
    const char *kernel, *op_kind, *dtype, *file;
    uint32_t line;
    bool declared, fail;
    size_t cases, passed, refused;
    const char *result; /* the result column */
    const char *const *notes, *const *claims;
    size_t n_notes, n_more;
    const conform_claim *claim; /* the binding's claims (precision), NULL for an undeclared row */
    const conform_error *err;   /* the worst error measured over its outputs */
} conform_report_row_t;

typedef struct conform_report_summary {
    size_t passed, failed, bindings, refused_undeclared, works_undeclared;
    uint64_t digest;
    const char *not_checked; /* op kinds with no CPU reference, or NULL */
} conform_report_summary;

typedef struct conform_report conform_report;

/* device: the device's name, NULL with --cpu. NULL when out of memory. */
conform_report *conform_report_new(const cli_opts *o, const char *device);
void conform_report_row(conform_report *r, const conform_report_row_t *row);
/* format: "json", "sarif", "junit" or "github". 0, or -1 when out failed. */
int conform_report_print(conform_report *r, const char *format, const conform_report_summary *s,
                         FILE *out);
void conform_report_free(conform_report *r);

#endif
