/* fuzz_emit.c — libFuzzer target over fkcgen's front end and C back end: arbitrary bytes as one
 * contract; an accepted contract goes through fkcg_emit_c twice and both runs must agree byte for
 * byte (the generated files are byte-stable). `make fuzz` also compiles a sample of the accepted
 * inputs of its corpus under $(STRICT) with gcc and clang (scripts/fuzz-compile.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fkcgen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const fkcg_buf *a, const fkcg_buf *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        return 0;
    fkcg_run *run = fkcg_run_new(NULL, sink);
    if (fkcg_run_load_buffer(run, "fuzz.md", (const char *)data, size) == 0) {
        fkcg_buf h1, c1, h2, c2;
        fkcg_buf_init(&h1);
        fkcg_buf_init(&c1);
        fkcg_buf_init(&h2);
        fkcg_buf_init(&c2);
        fkcg_emit_c(fkcg_run_table(run), &h1, &c1);
        fkcg_emit_c(fkcg_run_table(run), &h2, &c2);
        if (!same(&h1, &h2) || !same(&c1, &c2) || h1.len == 0 || c1.len == 0) {
            fputs("fuzz_emit: two emissions of one table differ (or are empty)\n", stderr);
            abort();
        }
        fkcg_buf_free(&h1);
        fkcg_buf_free(&c1);
        fkcg_buf_free(&h2);
        fkcg_buf_free(&c2);
    }
    fkcg_run_free(run);
    fclose(sink);
    return 0;
}
