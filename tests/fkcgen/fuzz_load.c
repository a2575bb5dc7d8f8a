/* fuzz_load.c — libFuzzer target over fkcgen's front end: arbitrary bytes as one contract file
 * through load → yaml → shape → validate → bind, and dump when clean. `make fuzz` builds it with
 * clang -fsanitize=fuzzer,address,undefined; it is not part of `make test`. */
#include <stdint.h>
#include <stdio.h>

#include "fkcgen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        return 0;
    fkcg_run *run = fkcg_run_new(NULL, sink);
    if (fkcg_run_load_buffer(run, "fuzz.md", (const char *)data, size) == 0) {
        fkcg_buf out;
        fkcg_buf_init(&out);
        fkcg_dump_json(fkcg_run_table(run), &out);
        fkcg_buf_free(&out);
    }
    fkcg_run_free(run);
    fclose(sink);
    return 0;
}
