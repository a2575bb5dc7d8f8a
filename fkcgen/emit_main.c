/* emit_main.c — the `gen` subcommand: load contracts, emit generated/ (minimal first version;
 * atomic writes, --check and --depfile follow). */
#include <stdio.h>
#include <string.h>

#include "fkcgen.h"

int fkcg_cmd_gen(int argc, char **argv);

int fkcg_cmd_gen(int argc, char **argv)
{
    const char *out_dir = NULL;
    int first = 1;
    while (first < argc && strncmp(argv[first], "--", 2) == 0) {
        if (strcmp(argv[first], "--out-dir") == 0 && first + 1 < argc) {
            out_dir = argv[first + 1];
            first += 2;
        } else {
            fprintf(stderr, "fkcgen gen: unknown option '%s'\n", argv[first]);
            return 2;
        }
    }
    if (!out_dir || first >= argc) {
        fputs("usage: fkcgen gen --out-dir DIR FILE...\n", stderr);
        return 2;
    }
    fkcg_run *run = fkcg_run_new(NULL, stderr);
    int rc = fkcg_run_load(run, (const char *const *)(argv + first), (size_t)(argc - first));
    if (rc == 0) {
        fkcg_buf h, c;
        fkcg_buf_init(&h);
        fkcg_buf_init(&c);
        fkcg_emit_c(fkcg_run_table(run), &h, &c);
        fkcg_buf_free(&h);
        fkcg_buf_free(&c);
    }
    fkcg_run_free(run);
    return rc;
}
