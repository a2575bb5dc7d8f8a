/* golden.h — shared by the emitters' tests (test_emit.c, test_emit_rust.c): read a whole file,
 * and compare emitted text with DIR/golden/NAME, printing a unified diff when they differ
 * (FKCG_UPDATE_GOLDEN=1 rewrites the golden file first). Include after <cmocka.h> and emit.h. */
#ifndef FKCG_TEST_GOLDEN_H
#define FKCG_TEST_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's bytes, NUL-terminated (*len: their count); NULL when it cannot be read. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    if (p)
        p[n] = '\0';
    *len = (size_t)n;
    return p;
}

static void assert_golden(const char *dir, const char *name, const fkcg_buf *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/golden/%s", dir, name);
    const char *update = getenv("FKCG_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fwrite(text->data, 1, text->len, f);
        fclose(f);
    }
    size_t n = 0;
    char *want = read_all(path, &n);
    assert_non_null(want);
    fkcg_buf diff;
    fkcg_buf_init(&diff);
    fkcg_unified_diff(path, want, n, "emitted", text->data, text->len, &diff);
    if (diff.len)
        fprintf(stderr, "%s", diff.data);
    assert_int_equal(diff.len, 0);
    fkcg_buf_free(&diff);
    free(want);
}

#endif /* FKCG_TEST_GOLDEN_H */
