/* test_diff.c — `fkcgen diff`: the corpus tests/fkcgen/diff/NAME/ (an old and a new revision,
 * an optional `args` line and allow file; `expected` holds the exit status, stdout and stderr,
 * each read by a person: make_diff_cases.py drafts them), a case for every rule of the table,
 * the rule table of docs/fkcgen.md kept in step with the code, the command line's errors, and
 * --against-git on a scratch git repository. Run from the repository root (FKCGEN: the
 * binary, default build/fkcgen). FKCGEN_DIFF_DRAFT=1 writes what each run printed into its
 * expected file (drafts, read by a person before they are committed), as
 * make_diff_cases.py --expect does for the corpus. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "diff.h"
#include "fkcgen.h"

#define CASES "tests/fkcgen/diff"
#define GIT_CASES "tests/fkcgen/diff_git"

static char fkcgen[PATH_MAX]; /* absolute: cases run in their own directory */
static char root[PATH_MAX];
static char outdir[] = "/tmp/fkcgen-diff-out-XXXXXX"; /* each run's stdout and stderr */

static char *slurp(const char *path)
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
    return p;
}

static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Runs `cmd` (a shell command, in dir), then compares "exit: N\n--- stdout\n...--- stderr\n..."
 * with the file expect. */
static void run_and_compare(const char *name, const char *dir, const char *cmd, const char *expect)
{
    char out[PATH_MAX + 512], err[PATH_MAX + 512];
    snprintf(out, sizeof out, "%s/%s.out", outdir, name);
    snprintf(err, sizeof err, "%s/%s.err", outdir, name);
    int rc = sh("cd '%s' && %s >'%s' 2>'%s'", dir, cmd, out, err);
    char *o = slurp(out), *e = slurp(err);
    assert_non_null(o);
    assert_non_null(e);
    size_t n = strlen(o) + strlen(e) + 64;
    char *got = malloc(n);
    snprintf(got, n, "exit: %d\n--- stdout\n%s--- stderr\n%s", rc, o, e);
    FILE *draft = getenv("FKCGEN_DIFF_DRAFT") ? fopen(expect, "wb") : NULL;
    if (draft) { /* drafting the expected reports, to be read before they are committed */
        fputs(got, draft);
        fclose(draft);
    }
    char *want = slurp(expect);
    if (!want)
        fail_msg("case %s: no %s", name, expect);
    if (strcmp(got, want) != 0)
        print_error("case %s: report differs\n--- expected\n%s--- got\n%s", name, want, got);
    assert_string_equal(got, want);
    free(got);
    free(o);
    free(e);
    free(want);
}

static void run_case(void **state)
{
    const char *name = *state;
    char dir[PATH_MAX + 512], path[PATH_MAX + 600], cmd[PATH_MAX * 3], expect[PATH_MAX + 600];
    snprintf(dir, sizeof dir, "%s/" CASES "/%s", root, name);
    snprintf(path, sizeof path, "%s/args", dir);
    char *args = slurp(path);
    if (args)
        args[strcspn(args, "\n")] = '\0';
    snprintf(path, sizeof path, "%s/old", dir);
    bool dirs = is_dir(path);
    snprintf(cmd, sizeof cmd, "'%s' diff %s %s %s", fkcgen, args ? args : "",
             dirs ? "old" : "old.md", dirs ? "new" : "new.md");
    snprintf(expect, sizeof expect, "%s/expected", dir);
    run_and_compare(name, dir, cmd, expect);
    free(args);
}

static char *names[256];
static size_t n_names;

/* Every rule of the table is what some case reports: no rule without a test. */
static void every_rule_has_a_case(void **state)
{
    (void)state;
    for (int r = 0; r < FKCG_DIFF_NRULES; r++) {
        char tag[96], json[96];
        snprintf(tag, sizeof tag, "[%s, ", fkcg_diff_rules[r].id);
        snprintf(json, sizeof json, "\"rule\": \"%s\"", fkcg_diff_rules[r].id);
        bool seen = false;
        for (size_t i = 0; i < n_names && !seen; i++) {
            char path[PATH_MAX];
            snprintf(path, sizeof path, CASES "/%s/expected", names[i]);
            char *text = slurp(path);
            seen = text && (strstr(text, tag) || strstr(text, json));
            free(text);
        }
        if (!seen)
            fail_msg("rule %s has no case in " CASES, fkcg_diff_rules[r].id);
    }
}

/* docs/fkcgen.md holds the table `fkcgen diff --rules` prints, between its two markers. */
static void docs_rules_current(void **state)
{
    (void)state;
    char *doc = slurp("docs/fkcgen.md");
    assert_non_null(doc);
    const char *begin = strstr(doc, "<!-- diff rules: begin");
    const char *end = strstr(doc, "<!-- diff rules: end");
    if (!begin || !end || end < begin)
        fail_msg("docs/fkcgen.md lacks the diff rules markers");
    begin = strchr(begin, '\n') + 1;
    fkcg_buf b;
    fkcg_buf_init(&b);
    fkcg_diff_rules_markdown(&b);
    if ((size_t)(end - begin) != b.len || memcmp(begin, b.data, b.len) != 0)
        fail_msg("docs/fkcgen.md's rule table is stale: run `make fkcgen-docs` and commit it");
    fkcg_buf_free(&b);
    free(doc);
}

/* The rule table's own promises: IDs upper snake case and unique, every row documented. */
static void rule_table(void **state)
{
    (void)state;
    for (int i = 0; i < FKCG_DIFF_NRULES; i++) {
        const fkcg_diff_rule *r = &fkcg_diff_rules[i];
        assert_true(strspn(r->id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == strlen(r->id));
        assert_true(*r->summary && *r->doc);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(r->id, fkcg_diff_rules[j].id);
        assert_int_equal(fkcg_diff_rule_find(r->id, NULL), i);
    }
    const char *hint = NULL;
    assert_int_equal(fkcg_diff_rule_find("DTYPE_REMOVD", &hint), -1);
    assert_string_equal(hint, "DTYPE_REMOVED");
    assert_true(fkcg_is_date("2028-02-29", 10));
    assert_false(fkcg_is_date("2027-02-29", 10));
    assert_false(fkcg_is_date("1900-02-29", 10));
    assert_true(fkcg_is_date("2000-02-29", 10));
    assert_false(fkcg_is_date("2027-13-01", 10));
    assert_false(fkcg_is_date("2027-1-01", 9));
}

static void command_line(void **state)
{
    (void)state;
    const char *c = CASES "/dtype_added";
    assert_int_equal(sh("'%s' diff --help | grep -q -- --against-git", fkcgen), 0);
    assert_int_equal(sh("'%s' diff %s/old.md 2>/dev/null", fkcgen, c), 2);
    assert_int_equal(sh("'%s' diff %s/old.md %s/new.md %s/new.md 2>/dev/null", fkcgen, c, c, c), 2);
    assert_int_equal(sh("'%s' diff --today 2027-02-30 %s/old.md %s/new.md 2>&1 | grep -q "
                        "\"^fkcgen diff: error: --today '2027-02-30' is not a date YYYY-MM-DD\"",
                        fkcgen, c, c),
                     0);
    assert_int_equal(sh("'%s' diff --rules %s/old.md 2>/dev/null", fkcgen, c), 2);
    assert_int_equal(sh("'%s' diff --jsn %s/old.md %s/new.md 2>&1 | grep -q \"did you mean "
                        "'--json'\"",
                        fkcgen, c, c),
                     0);
    assert_int_equal(sh("'%s' diff %s/old.md /no/such.md 2>&1 | grep -q \"^fkcgen diff: error: "
                        "'/no/such.md': No such file\"",
                        fkcgen, c),
                     0);
    assert_int_equal(sh("'%s' diff %s/old.md /no/such.md 2>/dev/null", fkcgen, c), 2);
    assert_int_equal(
        sh("'%s' diff --allow /no/allow %s/old.md %s/new.md 2>/dev/null", fkcgen, c, c), 2);
    assert_int_equal(sh("'%s' diff --against-git=-x 2>/dev/null", fkcgen), 2);
    /* the same revision twice: no change, exit 0; an empty directory on both sides: 2 */
    assert_int_equal(
        sh("'%s' diff %s/old.md %s/old.md | grep -qx 'fkcgen diff: no change'", fkcgen, c, c), 0);
    assert_int_equal(sh("d=$(mktemp -d) && '%s' diff $d $d 2>/dev/null; rc=$?; rmdir $d; "
                        "exit $rc",
                        fkcgen),
                     2);
    /* the JSON parses, and names the rule */
    assert_int_equal(sh("'%s' diff --json " CASES "/json_allow/old.md " CASES "/json_allow/new.md"
                        " | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); "
                        "assert d[\"changes\"][0][\"rule\"]==\"DTYPE_REMOVED\"'",
                        fkcgen),
                     0);
}

/* ---- --against-git on a scratch repository ---- */

static char repo[PATH_MAX];

/* git with no user configuration, so the test does not depend on the machine's. */
#define GIT                                                                                        \
    "GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t "                         \
    "GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t git"

/* main: one (copy.md, dtypes F32 U8), two (U8 dropped); branch side from one changes the blurb;
 * the working tree adds more.md (untracked) to main's two. */
static int git_setup(void **state)
{
    (void)state;
    snprintf(repo, sizeof repo, "/tmp/fkcgen-diff-git-XXXXXX");
    if (!mkdtemp(repo))
        return -1;
    const char *base = CASES "/dtype_added/old.md";  /* the small contract */
    const char *more = CASES "/kernel_added/new.md"; /* the same with a second kernel */
    return sh("cd '%s' && " GIT " init -q -b main && mkdir contracts && cp '%s/%s' "
              "contracts/copy.md && " GIT " add . && " GIT " commit -qm one && " GIT
              " branch side && sed -i 's/dtypes: \\[F32, U8\\]/dtypes: [F32]/' "
              "contracts/copy.md && " GIT " commit -qam two && " GIT " checkout -q side && "
              "sed -i 's/copy a tensor/copy one tensor/' contracts/copy.md && " GIT
              " commit -qam side && " GIT " checkout -q main && "
              "head -n 10 contracts/copy.md > contracts/more.md && "
              "sed -n '/^## copy2/,$p' '%s/%s' >> contracts/more.md",
              repo, root, base, root, more);
}

static int git_teardown(void **state)
{
    (void)state;
    return sh("rm -rf '%s'", repo);
}

/* One run in the scratch repository (or its subdirectory sub), compared with
 * tests/fkcgen/diff_git/NAME.expected. */
static void git_case(const char *name, const char *sub, const char *args)
{
    char dir[PATH_MAX * 2], cmd[PATH_MAX * 2], expect[PATH_MAX + 512];
    snprintf(dir, sizeof dir, "%s%s%s", repo, *sub ? "/" : "", sub);
    snprintf(cmd, sizeof cmd, "GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 '%s' diff %s",
             fkcgen, args);
    snprintf(expect, sizeof expect, "%s/" GIT_CASES "/%s.expected", root, name);
    run_and_compare(name, dir, cmd, expect);
}

static void git_head_1(void **state)
{
    (void)state;
    /* HEAD~1 has U8 in copy.md; the working tree adds more.md: both reported, exit 1 */
    git_case("head_1", "", "--against-git HEAD~1");
    git_case("head_1_json", "", "--json --against-git HEAD~1 contracts");
}

static void git_head(void **state)
{
    (void)state;
    git_case("head", "", "--against-git HEAD contracts"); /* only the untracked file: exit 0 */
    git_case("head_subdir", "contracts", "--against-git HEAD~1 copy.md ./");
}

static void git_merge_base(void **state)
{
    (void)state;
    /* side's tip changed the blurb after main branched: against `side` that change shows
     * (reversed); against `side...`, the merge base, only main's own change */
    git_case("against_side", "", "--against-git side contracts/copy.md");
    git_case("against_side_base", "", "--against-git side... contracts/copy.md");
}

static void git_removed_and_errors(void **state)
{
    (void)state;
    assert_int_equal(sh("mv '%s/contracts/copy.md' '%s/copy.md.away'", repo, repo), 0);
    git_case("removed", "", "--against-git HEAD contracts");
    git_case("removed_file", "", "--against-git HEAD contracts/copy.md");
    assert_int_equal(sh("mv '%s/copy.md.away' '%s/contracts/copy.md'", repo, repo), 0);
    git_case("bad_rev", "", "--against-git nosuch contracts");
    git_case("bad_path", "", "--against-git HEAD nosuch");
    git_case("absolute_path", "", "--against-git HEAD /tmp");
    assert_int_equal(sh("d=$(mktemp -d) && cd $d && GIT_CEILING_DIRECTORIES=$d '%s' diff "
                        "--against-git HEAD 2>&1 | grep -q 'not a git repository'; rc=$?; "
                        "cd / && rmdir $d; exit $rc",
                        fkcgen),
                     0);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    const char *bin = getenv("FKCGEN") ? getenv("FKCGEN") : "build/fkcgen";
    if (!realpath(bin, fkcgen) || !getcwd(root, sizeof root)) {
        fprintf(stderr, "test_diff: cannot find %s (run from the repository root)\n", bin);
        return 1;
    }
    if (!mkdtemp(outdir)) {
        perror("test_diff: mkdtemp");
        return 1;
    }
    DIR *d = opendir(CASES);
    if (!d) {
        fprintf(stderr, "test_diff: cannot open " CASES "\n");
        return 1;
    }
    for (struct dirent *e; (e = readdir(d)) && n_names < 256;) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, CASES "/%s/expected", e->d_name);
        if (e->d_name[0] != '.' && access(path, R_OK) == 0)
            names[n_names++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n_names, sizeof *names, cmp_str);
    if (n_names < FKCG_DIFF_NRULES) {
        fprintf(stderr, "test_diff: only %zu cases for %d rules\n", n_names, FKCG_DIFF_NRULES);
        return 1;
    }
    struct CMUnitTest *corpus = calloc(n_names, sizeof *corpus);
    for (size_t i = 0; i < n_names; i++)
        corpus[i] = (struct CMUnitTest){names[i], run_case, NULL, NULL, names[i]};
    int failed = _cmocka_run_group_tests("fkcgen diff corpus", corpus, n_names, NULL, NULL);
    const struct CMUnitTest unit[] = {
        cmocka_unit_test(every_rule_has_a_case),
        cmocka_unit_test(docs_rules_current),
        cmocka_unit_test(rule_table),
        cmocka_unit_test(command_line),
    };
    failed += cmocka_run_group_tests_name("fkcgen diff", unit, NULL, NULL);
    const struct CMUnitTest git[] = {
        cmocka_unit_test(git_head_1),
        cmocka_unit_test(git_head),
        cmocka_unit_test(git_merge_base),
        cmocka_unit_test(git_removed_and_errors),
    };
    failed += cmocka_run_group_tests_name("fkcgen diff --against-git", git, git_setup,
                                          git_teardown);
    for (size_t i = 0; i < n_names; i++)
        free(names[i]);
    free(corpus);
    sh("rm -rf '%s'", outdir);
    return failed;
}
