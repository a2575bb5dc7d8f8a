/* backends.c — the table of fkcgen's back ends, which `gen --lang` and `dump` look up, and the
 * one way to run one: plan, checks, outputs. Adding a back end: a file back/NAME.c that defines
 * `const fkcg_backend fkcg_backend_NAME` (back.h) and its row here. */
#include <string.h>

#include "back.h"
#include "fkcgen.h"
#include "internal.h"

/* A build may add a back end of its own without editing a file of fkcgen:
 * -DFKCG_EXTRA_BACKEND=NAME, the `const fkcg_backend NAME` its one file defines, adds its row
 * last (tests/gen/python_backend.c, in build/tests/gen/fkcgen-py). */
#ifdef FKCG_EXTRA_BACKEND
extern const fkcg_backend FKCG_EXTRA_BACKEND;
#endif

static const fkcg_backend *const backends[] = {
    &fkcg_backend_c,
    &fkcg_backend_rust,
    &fkcg_backend_json,
#ifdef FKCG_EXTRA_BACKEND
    &FKCG_EXTRA_BACKEND,
#endif
};
enum { N_BACKENDS = sizeof backends / sizeof backends[0] };

const fkcg_backend *fkcg_backend_find(const char *name)
{
    for (size_t i = 0; name && i < N_BACKENDS; i++)
        if (strcmp(backends[i]->name, name) == 0)
            return backends[i];
    return NULL;
}

const fkcg_backend *fkcg_backend_default(void)
{
    return backends[0];
}

const char *fkcg_backend_names_that(bool can_split, bool can_stub)
{
    static char names[4][128];
    char *out = names[can_split * 2 + can_stub];
    if (!out[0]) {
        const fkcg_backend *v[N_BACKENDS];
        size_t n = 0;
        for (size_t i = 0; i < N_BACKENDS; i++)
            if ((!can_split || backends[i]->emit_parts) && (!can_stub || backends[i]->stubs))
                v[n++] = backends[i];
        fkcg_buf b;
        fkcg_buf_init(&b);
        for (size_t i = 0; i < n; i++)
            fkcg_buf_put_listed(&b, i, n, v[i]->name);
        snprintf(out, sizeof names[0], "%s", n ? fkcg_buf_str(&b) : "none");
        fkcg_buf_free(&b);
    }
    return out;
}

const char *fkcg_backend_names(void)
{
    return fkcg_backend_names_that(false, false);
}

size_t fkcg_backend_count(const fkcg_backend *be)
{
    size_t n = 0;
    while (n < FKCG_MAX_OUTPUTS && be->outputs[n])
        n++;
    return n;
}

size_t fkcg_backend_run(const fkcg_backend *be, const fkcg_table *t, const char *prefix,
                        fkcg_diag *d, fkcg_buf *const outs[])
{
    return fkcg_backend_run_parts(be, t, prefix, 1, d, outs);
}

size_t fkcg_backend_run_parts(const fkcg_backend *be, const fkcg_table *t, const char *prefix,
                              size_t parts, fkcg_diag *d, fkcg_buf *const outs[])
{
    fkcg_plan p;
    fkcg_plan_init(&p, t, prefix);
    size_t errors = be->check ? be->check(&p, d) : 0;
    if (errors == 0 && outs && parts > 1 && be->emit_parts)
        be->emit_parts(&p, parts, outs);
    else if (errors == 0 && outs)
        be->emit(&p, outs);
    fkcg_plan_free(&p);
    return errors;
}

/* ---- the library API (fkcgen.h) and the tests' entry points (back.h) ---- */

/* A run with a sink of its own over diag: no contract text, so no quoted line. */
static size_t run_quoting_nothing(const fkcg_backend *be, const fkcg_table *t, const char *prefix,
                                  FILE *diag, fkcg_buf *const outs[])
{
    fkcg_diag *d = fkcg_diag_new(diag);
    size_t errors = fkcg_backend_run(be, t, prefix, d, outs);
    fkcg_diag_free(d);
    return errors;
}

size_t fkcg_emit_c_check(const fkcg_table *t, FILE *diag)
{
    return run_quoting_nothing(&fkcg_backend_c, t, NULL, diag, NULL);
}

size_t fkcg_emit_rust_check(const fkcg_table *t, FILE *diag)
{
    return run_quoting_nothing(&fkcg_backend_rust, t, NULL, diag, NULL);
}

size_t fkcg_emit_rust_checked(const fkcg_table *t, fkcg_diag *d, fkcg_buf *out)
{
    fkcg_buf *const outs[] = {out};
    return fkcg_backend_run(&fkcg_backend_rust, t, NULL, d, outs);
}

/* The outputs alone, for a table the checks passed. */
static void emit_unchecked(const fkcg_backend *be, const fkcg_table *t, const char *prefix,
                           fkcg_buf *const outs[])
{
    fkcg_plan p;
    fkcg_plan_init(&p, t, prefix);
    be->emit(&p, outs);
    fkcg_plan_free(&p);
}

void fkcg_emit_rust(const fkcg_table *t, fkcg_buf *out)
{
    fkcg_buf *const outs[] = {out};
    emit_unchecked(&fkcg_backend_rust, t, NULL, outs);
}

void fkcg_emit_c_prefixed(const fkcg_table *t, const char *prefix, fkcg_buf *header,
                          fkcg_buf *source)
{
    fkcg_buf *const outs[] = {header, source};
    emit_unchecked(&fkcg_backend_c, t, prefix, outs);
}

void fkcg_emit_c(const fkcg_table *t, fkcg_buf *header, fkcg_buf *source)
{
    fkcg_emit_c_prefixed(t, NULL, header, source);
}
