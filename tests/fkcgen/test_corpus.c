/* test_corpus.c — the golden corpus: every tests/fkcgen/cases/X.md (or directory X/ of .md
 * files read in one run) must give exactly the diagnostics and exit status of X.expected
 * ("exit: N" then the text on stderr); a case named two_errors_* holds two unrelated errors,
 * and at least two must be reported. Run from the repository root. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "fkcgen.h"

#define CASES "tests/fkcgen/cases"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    size_t got = fread(p, 1, (size_t)n, f);
    p[got] = '\0';
    fclose(f);
    if (len)
        *len = got;
    return p;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .md paths of a case: the file itself, or the sorted .md files of a directory. */
static size_t case_paths(const char *name, char **paths, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, CASES "/%s", name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        size_t n = 0;
        DIR *d = opendir(path);
        for (struct dirent *e; d && (e = readdir(d)) && n < cap;) {
            size_t l = strlen(e->d_name);
            if (l > 3 && !strcmp(e->d_name + l - 3, ".md")) {
                paths[n] = malloc(strlen(path) + l + 2);
                sprintf(paths[n], "%s/%s", path, e->d_name);
                n++;
            }
        }
        if (d)
            closedir(d);
        qsort(paths, n, sizeof *paths, cmp_str);
        return n;
    }
    paths[0] = malloc(strlen(path) + 4);
    sprintf(paths[0], "%s.md", path);
    return 1;
}

static void run_case(void **state)
{
    const char *name = *state;
    char *paths[16];
    size_t n = case_paths(name, paths, 16);
    char expect_path[512];
    snprintf(expect_path, sizeof expect_path, CASES "/%s.expected", name);
    char *expected = slurp(expect_path, NULL);
    assert_non_null(expected);
    int want = -1;
    assert_int_equal(sscanf(expected, "exit: %d", &want), 1);
    const char *want_text = strchr(expected, '\n') + 1;

    char *got = NULL;
    size_t got_len = 0;
    FILE *sink = open_memstream(&got, &got_len);
    fkcg_run *run = fkcg_run_new(NULL, sink);
    int rc = fkcg_run_load(run, (const char *const *)paths, n);
    fkcg_run_free(run);
    fclose(sink);
    if (strcmp(got, want_text) != 0)
        print_error("case %s: diagnostics differ\n--- expected\n%s--- got\n%s", name, want_text,
                    got);
    assert_string_equal(got, want_text);
    assert_int_equal(rc, want);
    assert_int_not_equal(rc, 0);             /* every case is malformed */
    if (!strncmp(name, "two_errors_", 11)) { /* two unrelated errors: both reported */
        size_t errors = 0;
        for (const char *p = got; (p = strstr(p, ": error: ")); p++)
            errors++;
        if (errors < 2)
            print_error("case %s: %zu error reported, not both\n", name, errors);
        assert_true(errors >= 2);
    }
    free(got);
    free(expected);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
}

int main(void)
{
    DIR *d = opendir(CASES);
    if (!d) {
        fprintf(stderr, "test_corpus: cannot open " CASES " (run from the repository root)\n");
        return 1;
    }
    char *names[512];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 512;) {
        size_t l = strlen(e->d_name);
        if (l > 9 && !strcmp(e->d_name + l - 9, ".expected"))
            names[n++] = strndup(e->d_name, l - 9);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    if (n < 30) {
        fprintf(stderr, "test_corpus: only %zu cases; the corpus must hold at least 30\n", n);
        return 1;
    }
    struct CMUnitTest *tests = calloc(n, sizeof *tests);
    for (size_t i = 0; i < n; i++)
        tests[i] = (struct CMUnitTest){names[i], run_case, NULL, NULL, names[i]};
    int failed = _cmocka_run_group_tests("fkcgen golden corpus", tests, n, NULL, NULL);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(tests);
    return failed;
}
