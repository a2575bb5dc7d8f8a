/* emit_fixture.c — writes the emitter's output for a hand-built table to a directory, for
 * the tests that compile it: `emit_fixture seed|injection DIR`. Test-only. */
#include <stdio.h>
#include <string.h>

#include "back.h"
#include "fkcgen.h"
#include "seed_table.h"

static int write_file(const char *dir, const char *name, const fkcg_buf *b)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->data, 1, b->len, f) != b->len) {
        fprintf(stderr, "emit_fixture: cannot write %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "seed") && strcmp(argv[1], "injection"))) {
        fputs("usage: emit_fixture seed|injection DIR\n", stderr);
        return 2;
    }
    const fkcg_table *t = strcmp(argv[1], "seed") == 0 ? seed_table() : injection_table();
    if (fkcg_emit_c_check(t, stderr) != 0)
        return 1;
    fkcg_buf h, c;
    fkcg_buf_init(&h);
    fkcg_buf_init(&c);
    fkcg_emit_c(t, &h, &c);
    int rc = write_file(argv[2], FKCG_EMIT_HEADER, &h) | write_file(argv[2], FKCG_EMIT_SOURCE, &c);
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
    return rc;
}
