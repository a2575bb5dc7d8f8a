/* test_cli.c — `fkcgen gen` as a program: the same bytes whatever the file order, locale,
 * time zone or working directory; --check prints a diff and exits 1 on drift (also through
 * `make check-generated`, on temporary copies only); unchanged files keep their mtime; a
 * contract error writes nothing; usage errors exit 2.
 * Usage: test_cli REPO FKCGEN (both absolute). Works in a fresh temporary directory. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>
#include <utime.h>

#include <cmocka.h>

static const char *repo, *fkcgen, *fkcgen_hooks; /* the last: with the test hook */
static const char *tdir; /* build/tests/gen: qsort_reverse.so, qsort_probe */
static char tmp[64];
static char out_text[1 << 16], err_text[1 << 16];
static void load_outputs(void);

/* Runs a shell command; its stdout and stderr land in out_text / err_text. */
static int sh(const char *fmt, ...)
{
    char cmd[4096], full[4600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "( %s ) >%s/out.txt 2>%s/err.txt", cmd, tmp, tmp);
    int st = system(full);
    load_outputs();
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* out_text and err_text from the files sh's commands wrote. */
static void load_outputs(void)
{
    char path[128];
    FILE *f;
    snprintf(path, sizeof path, "%s/out.txt", tmp);
    out_text[0] = '\0';
    if ((f = fopen(path, "rb"))) {
        out_text[fread(out_text, 1, sizeof out_text - 1, f)] = '\0';
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/err.txt", tmp);
    err_text[0] = '\0';
    if ((f = fopen(path, "rb"))) {
        err_text[fread(err_text, 1, sizeof err_text - 1, f)] = '\0';
        fclose(f);
    }
}

/* Up to 1 MiB of a file, NUL-terminated; NULL (and *n = 0) when it cannot be read. */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *p = f ? malloc((1 << 20) + 1) : NULL;
    *n = 0;
    if (p) {
        *n = fread(p, 1, 1 << 20, f);
        p[*n] = '\0';
    }
    if (f)
        fclose(f);
    return p;
}

static void assert_same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    assert_non_null(x);
    assert_non_null(y);
    assert_int_equal(na, nb);
    assert_memory_equal(x, y, na);
    free(x);
    free(y);
}

static bool exists(const char *fmt, const char *arg)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, fmt, tmp, arg);
    return stat(path, &st) == 0;
}

static int setup(void **state)
{
    (void)state;
    strcpy(tmp, "/tmp/fkcg_cli_XXXXXX");
    return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    return system(cmd);
}

static void test_same_bytes_any_order_locale_cwd(void **state)
{
    (void)state;
    const char *a = "tests/gen/cases/split_a.md", *b = "tests/gen/cases/split_b.md";
    assert_int_equal(
        sh("cd %s && LC_ALL=C TZ=UTC %s gen --out-dir %s/o1 %s %s", repo, fkcgen, tmp, a, b), 0);
    assert_int_equal(sh("cd / && LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=Asia/Tokyo %s gen --root %s "
                        "--out-dir %s/o2 %s/%s %s/%s",
                        fkcgen, repo, tmp, repo, b, repo, a),
                     0);
    assert_int_equal(sh("cd %s && LC_ALL=POSIX %s gen --root=%s --out-dir=o3 -- %s/%s %s/%s", tmp,
                        fkcgen, repo, repo, b, repo, a),
                     0);
    char p1[256], p2[256];
    for (int k = 0; k < 2; k++) {
        const char *name = k ? "fkc_bindings.c" : "fkc_bindings.h";
        snprintf(p1, sizeof p1, "%s/o1/%s", tmp, name);
        for (int o = 2; o <= 3; o++) {
            snprintf(p2, sizeof p2, "%s/o%d/%s", tmp, o, name);
            assert_same_file(p1, p2);
        }
    }
    size_t n;
    snprintf(p1, sizeof p1, "%s/o1/fkc_bindings.h", tmp);
    char *h = slurp(p1, &n);
    assert_non_null(h);
    /* Both contracts, in path order; the text hashes are in the source's banner only. */
    const char *line_a = strstr(h, "\n *   tests/gen/cases/split_a.md\n");
    const char *line_b = strstr(h, "\n *   tests/gen/cases/split_b.md\n");
    assert_non_null(line_a);
    assert_non_null(line_b);
    assert_true(line_a < line_b);
    assert_null(strstr(h, "xxh3-128"));
    assert_null(strstr(h, tmp));
    assert_null(strstr(h, repo));
    free(h);
    snprintf(p1, sizeof p1, "%s/o1/fkc_bindings.c", tmp);
    char *c = slurp(p1, &n);
    assert_non_null(c);
    line_a = strstr(c, "\n *   tests/gen/cases/split_a.md (text xxh3-128 ");
    line_b = strstr(c, "\n *   tests/gen/cases/split_b.md (text xxh3-128 ");
    assert_non_null(line_a);
    assert_non_null(line_b);
    assert_true(line_a < line_b);
    free(c);
}

/* A temporary copy of the seed, generated from its own directory. */
static void make_copy(void)
{
    assert_int_equal(sh("mkdir -p %s/c/contracts/vulkan && cp %s/contracts/vulkan/write_slice.md "
                        "%s/c/contracts/vulkan/ && cd %s/c && %s gen --out-dir generated "
                        "contracts/vulkan/write_slice.md",
                        tmp, repo, tmp, tmp, fkcgen),
                     0);
}

static void test_check_prints_diff_on_drift(void **state)
{
    (void)state;
    make_copy();
    const char *check =
        "cd %s/c && %s gen --check --out-dir generated contracts/vulkan/write_slice.md";
    assert_int_equal(sh(check, tmp, fkcgen), 0);
    assert_string_equal(out_text, "");
    assert_int_equal(sh("cp -r %s/c/generated %s/before", tmp, tmp), 0);
    /* one character: the first section's flops "0" -> "8" */
    assert_int_equal(sh("sed -i '0,/^flops: \"0\"/s//flops: \"8\"/' "
                        "%s/c/contracts/vulkan/write_slice.md",
                        tmp),
                     0);
    assert_int_equal(sh(check, tmp, fkcgen), 1);
    assert_non_null(
        strstr(out_text, "--- generated/fkc_bindings.c\n+++ generated/fkc_bindings.c\n@@ -"));
    assert_non_null(strstr(out_text, "\n-/* flops = 0 */\n+/* flops = 8 */\n"));
    assert_non_null(strstr(out_text, "\n-    return 0.0;\n+    return 8.0;\n"));
    assert_non_null(strstr(err_text, "out of date"));
    /* --check wrote nothing */
    assert_int_equal(sh("diff -r %s/before %s/c/generated", tmp, tmp), 0);
    assert_int_equal(sh("ls %s/c/generated | wc -l", tmp), 0);
    assert_string_equal(out_text, "2\n");
}

static void test_make_check_generated_fails_on_drift(void **state)
{
    (void)state;
    make_copy();
    const char *gen_c =
        "cd %s && %s gen --out-dir %s/c/generated %s/c/contracts/vulkan/write_slice.md";
    const char *gen_rs = "cd %s && %s gen --lang rust --out-dir %s/c/generated "
                         "%s/c/contracts/vulkan/write_slice.md";
    const char *make =
        "cd %s && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "
        "check-generated CONTRACTS=%s/c/contracts/vulkan/write_slice.md "
        "GEN_DIR=%s/c/generated";
    assert_int_equal(sh(gen_c, repo, fkcgen, tmp, tmp), 0);
    /* The Rust module is checked too: missing, it is drift. */
    assert_int_not_equal(sh(make, repo, tmp, tmp), 0);
    assert_non_null(strstr(err_text, "fkc_bindings.rs is missing"));
    assert_int_equal(sh(gen_rs, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(sh(make, repo, tmp, tmp), 0);
    /* One character that changes no binding (a trailing space) still shows as drift: the
     * banner names the hash of each contract's text, so generated/ always matches its bytes. */
    assert_int_equal(
        sh("sed -i '0,/^max_ulp: 0/s//max_ulp: 0 /' %s/c/contracts/vulkan/write_slice.md", tmp), 0);
    assert_int_not_equal(sh(make, repo, tmp, tmp), 0);
    assert_non_null(strstr(out_text, "\n- *   "));
    assert_non_null(strstr(out_text, "\n+ *   "));
    assert_int_equal(sh(gen_c, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(sh(gen_rs, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(sh(make, repo, tmp, tmp), 0);
    assert_int_equal(sh("sed -i '0,/^flops: \"0\"/s//flops: \"4\"/' "
                        "%s/c/contracts/vulkan/write_slice.md",
                        tmp),
                     0);
    assert_int_not_equal(sh(make, repo, tmp, tmp), 0);
    assert_non_null(strstr(out_text, "+++ "));
    assert_non_null(strstr(out_text, "\n-    return 0.0;\n+    return 4.0;\n"));
    /* The C files regenerated, the stale Rust module alone still fails the check. */
    assert_int_equal(sh(gen_c, repo, fkcgen, tmp, tmp), 0);
    assert_int_not_equal(sh(make, repo, tmp, tmp), 0);
    assert_non_null(strstr(err_text, "fkc_bindings.rs is out of date"));
    assert_non_null(strstr(out_text, "\n-        0.0\n+        4.0\n"));
    assert_null(strstr(out_text, "fkc_bindings.c"));
    assert_int_equal(sh(gen_rs, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(sh(make, repo, tmp, tmp), 0);
}

static void test_unchanged_files_keep_mtime(void **state)
{
    (void)state;
    char path[256];
    struct stat st;
    const char *gen =
        "cd %s && %s gen --out-dir %s/m --depfile %s/m.d contracts/vulkan/write_slice.md";
    assert_int_equal(sh(gen, repo, fkcgen, tmp, tmp), 0);
    snprintf(path, sizeof path, "%s/m/fkc_bindings.c", tmp);
    struct utimbuf old = {1000000000, 1000000000};
    assert_int_equal(utime(path, &old), 0);
    assert_int_equal(sh(gen, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mtime, 1000000000);
    /* a changed file is replaced, and no temporary file is left */
    assert_int_equal(sh("echo '/* XYZZY */' >> %s", path), 0);
    assert_int_equal(sh(gen, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_mtime != 1000000000);
    assert_int_equal(sh("grep -c XYZZY %s", path), 1); /* grep finds none */
    assert_int_equal(sh("ls -A %s/m", tmp), 0);
    assert_string_equal(out_text, "fkc_bindings.c\nfkc_bindings.h\n");
    assert_true((st.st_mode & 0644) == 0644);
    /* the depfile names the outputs, the contract and fkcgen */
    assert_int_equal(sh("cat %s/m.d", tmp), 0);
    assert_non_null(strstr(out_text, "/m/fkc_bindings.h "));
    assert_non_null(strstr(out_text, "fkc_bindings.c: \\\n  contracts/vulkan/write_slice.md \\\n"));
    assert_non_null(strstr(out_text, "fkcgen\n\ncontracts/vulkan/write_slice.md:\n"));
}

/* --lang rust: one module, byte-stable (a second run rewrites nothing), its own depfile. */
static void test_rust_module_stable(void **state)
{
    (void)state;
    char path[256];
    struct stat st;
    const char *gen = "cd %s && %s gen --lang rust --out-dir %s/r --depfile %s/r.d "
                      "contracts/vulkan/set_rows.md contracts/vulkan/write_slice.md";
    assert_int_equal(sh(gen, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(sh("cp %s/r/fkc_bindings.rs %s/first.rs", tmp, tmp), 0);
    snprintf(path, sizeof path, "%s/r/fkc_bindings.rs", tmp);
    struct utimbuf old = {1000000000, 1000000000};
    assert_int_equal(utime(path, &old), 0);
    assert_int_equal(sh(gen, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mtime, 1000000000);
    assert_int_equal(sh("cmp %s/first.rs %s/r/fkc_bindings.rs", tmp, tmp), 0);
    assert_int_equal(sh("ls -A %s/r", tmp), 0);
    assert_string_equal(out_text, "fkc_bindings.rs\n");
    assert_int_equal(sh("cat %s/r.d", tmp), 0);
    assert_non_null(strstr(out_text, "/r/fkc_bindings.rs: \\\n  contracts/vulkan/set_rows.md \\\n"
                                     "  contracts/vulkan/write_slice.md \\\n"));
    /* the committed copy is what the repo's contracts (all of them) give */
    assert_int_equal(sh("cmp %s/generated/fkc_bindings.rs %s/r/fkc_bindings.rs", repo, tmp), 0);
    assert_int_equal(sh(gen, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(sh("cd %s && %s gen --lang go --out-dir %s/r contracts/vulkan/write_slice.md",
                        repo, fkcgen, tmp),
                     2);
    assert_non_null(strstr(err_text, "the languages are c, rust or json"));
}

static void test_contract_error_writes_nothing(void **state)
{
    (void)state;
    const char *gen = "cd %s && %s gen --out-dir %s/%s --depfile %s/e.d %s/bad.md";
    assert_int_equal(sh("sed '0,/^max_ulp: 0/s//max_ulp: 3/' %s/contracts/vulkan/write_slice.md "
                        "> %s/bad.md",
                        repo, tmp),
                     0);
    assert_int_equal(sh(gen, tmp, fkcgen, tmp, "fresh", tmp, tmp), 1);
    assert_non_null(strstr(err_text, "bad.md:"));
    assert_non_null(strstr(err_text, ": error: "));
    assert_non_null(strstr(err_text, "nothing written"));
    assert_false(exists("%s/%s", "fresh"));
    assert_false(exists("%s/%s", "e.d"));
    /* existing outputs stay as they are */
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/keep contracts/vulkan/write_slice.md && "
                        "cp -r %s/keep %s/keep0",
                        repo, fkcgen, tmp, tmp, tmp),
                     0);
    assert_int_equal(sh(gen, tmp, fkcgen, tmp, "keep", tmp, tmp), 1);
    assert_int_equal(sh("diff -r %s/keep0 %s/keep", tmp, tmp), 0);
}

static void test_bad_entry_point_rejected(void **state)
{
    (void)state;
    assert_int_equal(sh("sed 's/entry_point: \"fuel_vulkan_backend::fkc::write_slice\"/"
                        "entry_point: \"fuel_vulkan_backend::fkc::write slice\"/' "
                        "%s/contracts/vulkan/write_slice.md > %s/ep.md",
                        repo, tmp),
                     0);
    assert_int_equal(sh("cd %s && %s gen --out-dir o ep.md", tmp, fkcgen), 1);
    assert_non_null(strstr(err_text, "ep.md:"));
    assert_non_null(strstr(err_text, "entry_point"));
    assert_false(exists("%s/%s", "o"));
}

static void test_usage_errors(void **state)
{
    (void)state;
    assert_int_equal(sh("%s gen %s/contracts/vulkan/write_slice.md", fkcgen, repo), 2);
    assert_non_null(strstr(err_text, "--out-dir is required"));
    assert_int_equal(sh("%s gen --out-dir %s/u", fkcgen, tmp), 2);
    assert_non_null(strstr(err_text, "no contract given"));
    assert_int_equal(sh("%s gen --frobnicate --out-dir %s/u x.md", fkcgen, tmp), 2);
    assert_non_null(strstr(err_text, "unknown option '--frobnicate'"));
    assert_int_equal(sh("%s gen --check --depfile d --out-dir %s/u x.md", fkcgen, tmp), 2);
    assert_int_equal(sh("%s gen --out-dir", fkcgen), 2);
    assert_int_equal(sh("%s gen --out-dir %s/u %s/no-such.md", fkcgen, tmp, tmp), 2);
    assert_false(exists("%s/%s", "u"));
    /* --root must be an existing directory */
    assert_int_equal(
        sh("%s gen --root /no/such/dir --out-dir %s/u %s/contracts/vulkan/write_slice.md", fkcgen,
           tmp, repo),
        2);
    assert_non_null(strstr(err_text, "--root '/no/such/dir': No such file or directory"));
    assert_int_equal(sh("%s gen --root=%s/contracts/vulkan/write_slice.md --out-dir %s/u "
                        "%s/contracts/vulkan/write_slice.md",
                        fkcgen, repo, tmp, repo),
                     2);
    assert_non_null(strstr(err_text, "Not a directory"));
    assert_false(exists("%s/%s", "u"));
    assert_int_equal(sh("%s gen --help", fkcgen), 0);
    assert_non_null(strstr(out_text, "usage: fkcgen gen"));
}

/* The back ends' checks report through the run's sink, as the front end does: the contract's
 * line quoted with a caret, and a note at the other place of a clash (the line of a.md kept
 * by the run, the front matter's read again from the file). */
static void test_backend_errors_quoted(void **state)
{
    (void)state;
    static const char want[] =
        "b.md:19:1: error: op_params variant 'WriteSlice' is also the variant of another op "
        "kind; each op kind needs its own OpParams variant\n"
        "kernel: write_slice_rotating\n"
        "^\n"
        "a.md:53:1: note: the other op kind names it here\n"
        "kernel: write_slice\n"
        "^\n"
        "b.md:1:1: error: link_registry 'fuel_vulkan_backend::fkc::BINDINGS' must end in the "
        "name of a Rust static: UPPER_SNAKE_CASE and none of the module's own (BINDINGS, "
        "KERNELS, LINK_REGISTRIES, OP_NAMES, OP_ROWS, PROVIDERS, RUNTIME_ABI, SHARED_COST, "
        "UNKNOWN_COST)\n"
        "---\n"
        "^\n"
        "fkcgen gen: nothing written (contract errors)\n";
    assert_int_equal(sh("cp %s/tests/gen/cases/split_a.md %s/a.md && sed 's/variant: "
                        "WriteSliceRotating/variant: WriteSlice/; s/fkc::ENTRY_POINTS/"
                        "fkc::BINDINGS/' %s/tests/gen/cases/split_b.md > %s/b.md && cd %s && "
                        "%s gen --lang rust --out-dir r a.md b.md",
                        repo, tmp, repo, tmp, tmp, fkcgen),
                     1);
    assert_string_equal(err_text, want);
    assert_false(exists("%s/%s", "r"));
}

/* Two providers whose link registries end in the same static (both ...::ENTRY_POINTS): in one
 * --lang rust run each goes into the module its path names; module names Rust cannot take, or
 * the generated module's own, are refused with the provider's line, nothing written. */
static void test_rust_registries_in_modules(void **state)
{
    (void)state;
    static const char *const gen =
        "cp %s/tests/gen/cases/split_a.md %s/a.md && sed "
        "'s/fuel_vulkan_backend::fkc::ENTRY_POINTS/%s/' "
        "%s/tests/gen/cases/split_b.md > %s/b.md && cd %s && rm -rf r && "
        "%s gen --lang rust --out-dir r a.md b.md";
    assert_int_equal(sh(gen, repo, tmp, "other::fkc::ENTRY_POINTS", repo, tmp, tmp, fkcgen), 0);
    size_t n;
    char path[512];
    snprintf(path, sizeof path, "%s/r/fkc_bindings.rs", tmp);
    char *rs = slurp(path, &n);
    assert_non_null(rs);
    assert_non_null(strstr(rs, "\npub mod fuel_vulkan_backend_fkc {\n    use super::*;\n"));
    assert_non_null(strstr(rs, "\npub mod other_fkc {\n    use super::*;\n"));
    /* LINK_REGISTRIES names each registry by its module's static (the plain-data module) */
    assert_non_null(strstr(rs, "            (\"fuel_vulkan_backend::fkc::ENTRY_POINTS\", "
                               "&super::fuel_vulkan_backend_fkc::ENTRY_POINTS[..]),\n"));
    assert_non_null(strstr(rs, "            (\"other::fkc::ENTRY_POINTS\", "
                               "&super::other_fkc::ENTRY_POINTS[..]),\n"));
    /* each static inside its module, none at the top level */
    assert_non_null(strstr(rs, "pub mod other_fkc {\n    use super::*;\n\n/// Link registry "
                               "`other::fkc::ENTRY_POINTS`: every"));
    const char *at = rs;
    for (int k = 0; k < 2; k++) {
        const char *m = strstr(at, "\npub mod ");
        const char *st = strstr(at, "\npub static ENTRY_POINTS");
        assert_true(m && st && m < st);
        at = st + 1;
    }
    assert_null(strstr(at, "\npub static ENTRY_POINTS"));
    free(rs);
    static const struct {
        const char *registry, *why;
    } bad[] = {
        {"Other::fkc::ENTRY_POINTS", "names a module that is not snake_case"},
        {"ops::ENTRY_POINTS", "names a module of the generated module's own (data, ops)"},
        {"ENTRY_POINTS", "names no module (no path before the static)"},
        {"fuel_vulkan_backend_fkc::ENTRY_POINTS", "names the same module and static as another"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(sh(gen, repo, tmp, bad[i].registry, repo, tmp, tmp, fkcgen), 1);
        if (!strstr(err_text, bad[i].why) || !strstr(err_text, "b.md:1:1: error: link_registry"))
            fail_msg("%s: %s", bad[i].registry, err_text);
        assert_false(exists("%s/%s", "r"));
    }
}

/* A usage error's argument with control characters (ESC, C1 CSI, a newline) is escaped as in
 * every diagnostic (diag.c's fkcg_cli_error), so it cannot move the terminal's cursor or
 * colour it; the message and the usage that follows it are whole. */
static void test_cli_messages_escaped(void **state)
{
    (void)state;
    static const char lang[] = "fkcgen gen: --lang 'c\\x1b[31m\\u009bx\\x0ay': the languages "
                               "are c, rust or json\nusage: fkcgen gen --out-dir";
    static const char cmd[] = "fkcgen: error: unknown command 'z\\x1bz'\nusage: fkcgen check";
    static const char opt[] = "fkcgen check: unknown option '--zz\\x07'\nusage: fkcgen check";
    assert_int_equal(sh("%s gen --lang \"$(printf 'c\\033[31m\\302\\233x\\ny')\" --out-dir %s/u "
                        "x.md",
                        fkcgen, tmp),
                     2);
    assert_memory_equal(err_text, lang, strlen(lang));
    assert_null(strchr(err_text, '\033'));
    assert_int_equal(sh("%s \"$(printf 'z\\033z')\"", fkcgen), 2);
    assert_memory_equal(err_text, cmd, strlen(cmd));
    assert_int_equal(sh("%s check \"$(printf -- '--zz\\007')\" x.md", fkcgen), 2);
    assert_memory_equal(err_text, opt, strlen(opt));
}

/* Every subcommand takes --help (stdout, exit 0), `--opt VALUE` and `--opt=VALUE` alike, and
 * names the closest option to an unknown one; gen --out-dir creates missing parents. */
static void test_subcommand_options(void **state)
{
    (void)state;
    const char *sub[] = {"check", "dump", "schema", "gen"};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(sh("%s %s --help", fkcgen, sub[i]), 0);
        assert_non_null(strstr(out_text, "usage: fkcgen "));
        assert_non_null(strstr(out_text, sub[i]));
        assert_string_equal(err_text, "");
    }
    const char *seed = "contracts/vulkan/write_slice.md";
    assert_int_equal(sh("cd %s && %s check --root=%s %s", repo, fkcgen, repo, seed), 0);
    assert_int_equal(sh("cd %s && %s dump --json --root=%s %s", repo, fkcgen, repo, seed), 0);
    assert_non_null(strstr(out_text, "\"write_slice\""));
    assert_int_equal(sh("cd %s && %s check --rot %s %s", repo, fkcgen, repo, seed), 2);
    assert_non_null(strstr(err_text, "unknown option '--rot'; did you mean '--root'?"));
    assert_int_equal(sh("cd %s && %s gen --out-dri %s/x %s", repo, fkcgen, tmp, seed), 2);
    assert_non_null(strstr(err_text, "unknown option '--out-dri'; did you mean '--out-dir'?"));
    assert_int_equal(sh("cd %s && %s check --json %s", repo, fkcgen, seed), 2);
    assert_non_null(strstr(err_text, "unknown option '--json'"));
    assert_int_equal(sh("cd %s && %s gen --check=yes --out-dir %s/x %s", repo, fkcgen, tmp, seed),
                     2);
    assert_non_null(strstr(err_text, "option '--check' takes no value"));
    assert_int_equal(sh("%s check --root", fkcgen), 2);
    assert_non_null(strstr(err_text, "option '--root' needs a value"));
    assert_int_equal(sh("%s schema --markdown extra.md", fkcgen), 2);
    assert_int_equal(sh("%s chek x.md", fkcgen), 2);
    assert_non_null(strstr(err_text, "unknown command 'chek'; did you mean 'check'?"));
    /* --out-dir a/b/c: the missing parents are made */
    assert_int_equal(sh("cd %s && %s gen --out-dir=%s/p/q/r %s", repo, fkcgen, tmp, seed), 0);
    assert_true(exists("%s/%s", "p/q/r/fkc_bindings.h") && exists("%s/%s", "p/q/r/fkc_bindings.c"));
    /* a depfile in that directory, which does not exist yet, is fine too */
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/s/t --depfile %s/s/t/x.d %s", repo, fkcgen,
                        tmp, tmp, seed),
                     0);
    assert_true(exists("%s/%s", "s/t/x.d") && exists("%s/%s", "s/t/fkc_bindings.c"));
    assert_int_equal(sh("touch %s/plain && cd %s && %s gen --out-dir %s/plain/s %s", tmp, repo,
                        fkcgen, tmp, seed),
                     2);
    assert_non_null(strstr(err_text, "plain/s"));
}

/* --emit-stubs: the skeleton of fill.md's four wrappers compiles under the strict flags (gcc
 * and clang) with the generated header, each stub returns FKC_ERR_UNSUPPORTED; an existing
 * stubs file is never overwritten (exit 2, nothing written, the file unchanged); --check
 * takes no --emit-stubs; a contract error writes no stubs. */
static void test_emit_stubs(void **state)
{
    (void)state;
    const char *fill = "examples/c-backend/fill/fill.md";
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/g --emit-stubs %s/stubs.c %s", repo, fkcgen,
                        tmp, tmp, fill),
                     0);
    assert_true(exists("%s/%s", "stubs.c"));
    assert_true(exists("%s/%s", "g/fkc_bindings.h"));
    size_t n;
    char path[128];
    snprintf(path, sizeof path, "%s/stubs.c", tmp);
    char *text = slurp(path, &n);
    assert_non_null(text);
    for (int w = 1; w <= 8; w *= 2) {
        char fn[96];
        snprintf(fn, sizeof fn, "fkc_status fkc_fill_b%d(fkc_stream *stream, const fkc_tensor *in,",
                 w);
        assert_non_null(strstr(text, fn));
    }
    assert_non_null(strstr(text, "TODO"));
    for (const char *cc = "gcc"; cc; cc = strcmp(cc, "gcc") ? NULL : "clang") {
        /* the stubs and the generated code, strictly, in one program that calls a stub (and
         * defines the interface symbol libfkc would) */
        assert_int_equal(
            sh("cd %s && printf '%%s\n' '#include \"fkc_bindings.h\"' "
               "'const int fkc_runtime_abi_4 = FKC_RUNTIME_ABI;' "
               "'int main(void) { fkc_fill_params p = {0};' "
               "'return fkc_fill_b4(NULL, NULL, NULL, &p, NULL) == FKC_ERR_UNSUPPORTED "
               "? 0 : 1; }' > main.c && %s -std=c11 -Wall -Wextra -Wpedantic -Wshadow "
               "-Wconversion -Wmissing-prototypes -Wstrict-prototypes -Werror "
               "-I%s/runtime/include -Ig stubs.c g/fkc_bindings.c main.c -o stubs.%s "
               "&& ./stubs.%s",
               tmp, cc, repo, cc, cc),
            0);
    }
    /* a back end that declares no stubs refuses the option, naming those that do */
    assert_int_equal(sh("cd %s && %s gen --lang rust --out-dir %s/g3 --emit-stubs %s/stubs3.c %s",
                        repo, fkcgen, tmp, tmp, fill),
                     2);
    assert_non_null(strstr(err_text, "--lang rust has none (the back ends that do: c)"));
    assert_false(exists("%s/%s", "stubs3.c"));
    assert_false(exists("%s/%s", "g3"));
    /* never over an existing file: exit 2, nothing written, the file as it was */
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/g2 --emit-stubs %s/stubs.c %s", repo, fkcgen,
                        tmp, tmp, fill),
                     2);
    assert_non_null(strstr(err_text, "stubs.c' exists; fkcgen never overwrites"));
    assert_non_null(strstr(err_text, "nothing written"));
    assert_false(exists("%s/%s", "g2"));
    size_t n2;
    char *again = slurp(path, &n2);
    assert_int_equal(n, n2);
    assert_memory_equal(text, again, n);
    free(again);
    free(text);
    assert_int_equal(sh("%s gen --check --emit-stubs %s/s2.c --out-dir %s/g %s/%s", fkcgen, tmp,
                        tmp, repo, fill),
                     2);
    assert_non_null(strstr(err_text, "takes no --emit-stubs"));
    assert_int_equal(sh("sed 's/max_ulp: 0/max_ulp: 3/' %s/%s > %s/bad.md", repo, fill, tmp), 0);
    assert_int_equal(sh("cd %s && %s gen --out-dir g3 --emit-stubs s3.c bad.md", tmp, fkcgen), 1);
    assert_false(exists("%s/%s", "s3.c"));
    assert_false(exists("%s/%s", "s2.c"));
}

/* An output or the depfile that is a FIFO or a directory is refused before anything is read
 * or written (a FIFO used to block gen forever); so is a depfile in a missing directory, one
 * that is an output or a contract, and paths a depfile cannot carry. */
static void test_bad_output_paths(void **state)
{
    (void)state;
    const char *seed = "contracts/vulkan/write_slice.md";
    assert_int_equal(sh("mkdir %s/f && mkfifo %s/f/fkc_bindings.h", tmp, tmp), 0);
    for (int check = 0; check < 2; check++) {
        assert_int_equal(sh("cd %s && timeout 20 %s gen %s --out-dir %s/f %s", repo, fkcgen,
                            check ? "--check" : "", tmp, seed),
                         2);
        assert_non_null(strstr(err_text, "/f/fkc_bindings.h' is not a regular file"));
    }
    assert_int_equal(sh("mkdir -p %s/g/fkc_bindings.c", tmp), 0);
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/g %s", repo, fkcgen, tmp, seed), 2);
    assert_non_null(strstr(err_text, "/g/fkc_bindings.c' is a directory; it must be a regular "
                                     "file or absent"));
    assert_false(exists("%s/%s", "g/fkc_bindings.h"));
    /* depfile: FIFO, missing directory, an output (also by another spelling), a contract */
    assert_int_equal(sh("mkfifo %s/dp", tmp), 0);
    assert_int_equal(sh("cd %s && timeout 20 %s gen --out-dir %s/d --depfile %s/dp %s", repo,
                        fkcgen, tmp, tmp, seed),
                     2);
    assert_non_null(strstr(err_text, "/dp' is not a regular file"));
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/d --depfile %s/nodir/x.d %s", repo, fkcgen,
                        tmp, tmp, seed),
                     2);
    assert_non_null(strstr(err_text, "/nodir/x.d' is in a directory that does not exist"));
    assert_false(exists("%s/%s", "d"));
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/e %s && cp -r %s/e %s/e0", repo, fkcgen, tmp,
                        seed, tmp, tmp),
                     0);
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/e --depfile %s/e/fkc_bindings.c %s", repo,
                        fkcgen, tmp, tmp, seed),
                     2);
    assert_non_null(strstr(err_text, "/e/fkc_bindings.c' is an output of gen"));
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/e --depfile %s/e/../e/fkc_bindings.h %s",
                        repo, fkcgen, tmp, tmp, seed),
                     2);
    assert_non_null(strstr(err_text, "is an output of gen"));
    assert_int_equal(sh("diff -r %s/e0 %s/e", tmp, tmp), 0);
    /* a depfile in the output directory gen creates is fine; an output there is not */
    assert_int_equal(
        sh("cd %s && %s gen --out-dir %s/n1/ --depfile %s/n1/x.d %s", repo, fkcgen, tmp, tmp, seed),
        0);
    assert_true(exists("%s/%s", "n1/x.d") && exists("%s/%s", "n1/fkc_bindings.c"));
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/n2 --depfile %s/n2/fkc_bindings.h %s", repo,
                        fkcgen, tmp, tmp, seed),
                     2);
    assert_non_null(strstr(err_text, "/n2/fkc_bindings.h' is an output of gen"));
    assert_false(exists("%s/%s", "n2"));
    assert_int_equal(sh("cp %s/%s %s/c.md && %s gen --out-dir %s/e --depfile %s/c.md %s/c.md", repo,
                        seed, tmp, fkcgen, tmp, tmp, tmp),
                     2);
    assert_non_null(strstr(err_text, "/c.md' is one of the contracts"));
    assert_int_equal(sh("cmp %s/%s %s/c.md", repo, seed, tmp), 0);
    assert_int_equal(sh("touch %s/file && %s gen --out-dir %s/file %s/c.md", tmp, fkcgen, tmp, tmp),
                     2);
    assert_non_null(strstr(err_text, "/file' is not a directory"));
}

/* Paths in a depfile: control characters are refused in every path of gen (a newline or a
 * leading tab would break the depfile), bytes make reads specially are refused with
 * --depfile, and a space, '#' and '$' are escaped so that make reads the path back. */
static void test_depfile_paths(void **state)
{
    (void)state;
    const char *seed = "contracts/vulkan/write_slice.md";
    assert_int_equal(
        sh("cp %s/%s \"%s/a\nb.md\" && cp %s/%s \"%s/\tt.md\"", repo, seed, tmp, repo, seed, tmp),
        0);
    assert_int_equal(sh("cd %s && %s gen --out-dir o \"a\nb.md\"", tmp, fkcgen), 2);
    assert_non_null(strstr(err_text, "contract 'a\\x0ab.md' holds a control character"));
    assert_int_equal(sh("cd %s && %s gen --out-dir o --depfile o.d \"\tt.md\"", tmp, fkcgen), 2);
    assert_non_null(strstr(err_text, "contract '\\x09t.md' holds a control character"));
    assert_false(exists("%s/%s", "o"));
    assert_int_equal(sh("cp %s/%s %s/a:b.md && cd %s && %s gen --out-dir o --depfile o.d a:b.md",
                        repo, seed, tmp, tmp, fkcgen),
                     2);
    assert_non_null(strstr(err_text, "contract 'a:b.md' holds ':', which a make depfile cannot "
                                     "carry"));
    assert_int_equal(sh("cd %s && %s gen --out-dir o a:b.md", tmp, fkcgen), 0);
    /* escaped: make finds the contract, and wants it rebuilt after a touch */
    assert_int_equal(sh("cp %s/%s '%s/a b#$c.md' && cd %s && %s gen --out-dir o --depfile o.d "
                        "'a b#$c.md'",
                        repo, seed, tmp, tmp, fkcgen),
                     0);
    assert_int_equal(sh("cd %s && printf 'o/fkc_bindings.h:\\n\\t@echo remake\\n"
                        "include o.d\\n' > mk && touch -d '2000-01-01' o/* && env -u MAKEFLAGS "
                        "-u MFLAGS -u MAKELEVEL make -s -f mk o/fkc_bindings.h",
                        tmp),
                     0);
    assert_string_equal(out_text, "remake\n");
    assert_int_equal(sh("cd %s && rm 'a b#$c.md' && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "
                        "make -s -f mk o/fkc_bindings.h",
                        tmp),
                     0);
}

/* ---- the pair: never half replaced, never mismatched ---- */

static const char *seed = "contracts/vulkan/write_slice.md";
static const char *split = "tests/gen/cases/split_a.md tests/gen/cases/split_b.md";

/* No "*.tmp.*" file in tmp/dir. */
static bool no_temp_files(const char *dir)
{
    return sh("ls -A %s/%s | grep -c '\\.tmp\\.'", tmp, dir) == 1 && !strcmp(out_text, "0\n");
}

/* The value of the pair hash the header in tmp/dir defines and the one its source expects;
 * both must be found. */
static bool pair_matches(const char *dir)
{
    char path[256], hv[32] = "", cv[32] = "";
    size_t n;
    snprintf(path, sizeof path, "%s/%s/fkc_bindings.h", tmp, dir);
    char *h = slurp(path, &n);
    snprintf(path, sizeof path, "%s/%s/fkc_bindings.c", tmp, dir);
    char *c = slurp(path, &n);
    const char *p = h ? strstr(h, "\n#define FKC_BINDINGS_PAIR_HASH ") : NULL;
    const char *q = c ? strstr(c, "FKC_BINDINGS_PAIR_HASH != ") : NULL;
    if (p)
        sscanf(p, "\n#define FKC_BINDINGS_PAIR_HASH %31s", hv);
    if (q)
        sscanf(q, "FKC_BINDINGS_PAIR_HASH != %31s", cv);
    free(h);
    free(c);
    return *hv && !strcmp(hv, cv);
}

/* A source with a header of another run fails to compile with an #error that says to
 * regenerate; the pair of one run compiles. A prose-only edit of a contract changes the
 * source (its banner holds the contract's text hash) and not the header. */
static void test_mismatched_pair_fails_to_compile(void **state)
{
    (void)state;
    const char *cc = "cd %s && cc -std=c11 -Iruntime/include -c %s/%s/fkc_bindings.c -o %s/x.o";
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/a %s && %s gen --out-dir %s/b %s", repo,
                        fkcgen, tmp, seed, fkcgen, tmp, split),
                     0);
    assert_true(pair_matches("a") && pair_matches("b"));
    assert_int_equal(sh(cc, repo, tmp, "a", tmp), 0);
    assert_int_equal(sh("mkdir %s/mix && cp %s/a/fkc_bindings.c %s/b/fkc_bindings.h %s/mix/", tmp,
                        tmp, tmp, tmp),
                     0);
    assert_int_not_equal(sh(cc, repo, tmp, "mix", tmp), 0);
    assert_non_null(strstr(err_text, "fkc_bindings.c and fkc_bindings.h come from different "
                                     "fkcgen runs: regenerate both (make, or fkcgen gen)"));
    /* a prose-only edit: the header keeps its bytes and its mtime */
    assert_int_equal(sh("cp %s/%s %s/p.md && cd %s && %s gen --out-dir p p.md && "
                        "cp -p p/fkc_bindings.h h0 && cp p/fkc_bindings.c c0 && "
                        "sed -i '0,/^## /s//Some more prose.\\n\\n## /' p.md && "
                        "touch -d 2000-01-01 p/fkc_bindings.h && %s gen --out-dir p p.md",
                        repo, seed, tmp, tmp, fkcgen, fkcgen),
                     0);
    assert_int_equal(sh("cd %s && cmp p/fkc_bindings.h h0 && ! cmp -s p/fkc_bindings.c c0 && "
                        "test ! p/fkc_bindings.h -nt h0",
                        tmp),
                     0);
    assert_int_equal(sh(cc, repo, tmp, "p", tmp), 0);
}

/* Runs `fkcgen gen --out-dir tmp/dir ARGS` (from repo) in a child whose largest file is
 * limit bytes, SIGXFSZ ignored: a write past it fails with EFBIG, as on a full disk. */
static int gen_with_file_limit(rlim_t limit, const char *dir, const char *args)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl = {limit, limit};
        signal(SIGXFSZ, SIG_IGN);
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "cd %s && exec %s gen --out-dir %s/%s %s 2>%s/err.txt", repo,
                 fkcgen, tmp, dir, args, tmp);
        /* the limit after the shell opened err.txt: only gen's own files meet it */
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(99);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(98);
    }
    int st;
    waitpid(pid, &st, 0);
    load_outputs();
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* A write that fails (the new header fits under the limit, the new source does not) renames
 * neither file: the old pair stays whole, no temporary file is left; in a fresh directory
 * nothing stays at all. */
static void test_write_failure_keeps_pair(void **state)
{
    (void)state;
    struct stat h_st, c_st;
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/new %s && %s gen --out-dir %s/w %s && "
                        "cp -r %s/w %s/w0",
                        repo, fkcgen, tmp, split, fkcgen, tmp, seed, tmp, tmp),
                     0);
    char path[256];
    snprintf(path, sizeof path, "%s/new/fkc_bindings.h", tmp);
    assert_int_equal(stat(path, &h_st), 0);
    snprintf(path, sizeof path, "%s/new/fkc_bindings.c", tmp);
    assert_int_equal(stat(path, &c_st), 0);
    assert_true(c_st.st_size > h_st.st_size + 2);
    rlim_t limit = (rlim_t)(h_st.st_size + c_st.st_size) / 2;
    assert_int_equal(gen_with_file_limit(limit, "w", split), 2);
    assert_non_null(strstr(err_text, "fkc_bindings.c: File too large"));
    assert_int_equal(sh("diff -r %s/w0 %s/w", tmp, tmp), 0);
    assert_true(no_temp_files("w"));
    assert_true(pair_matches("w"));
    assert_int_equal(gen_with_file_limit(limit, "fresh", split), 2);
    assert_false(exists("%s/%s", "fresh"));
    /* every level of the output directory the run made goes, not only the last */
    assert_int_equal(sh("mkdir %s/kept", tmp), 0);
    assert_int_equal(gen_with_file_limit(limit, "kept/fresh/a/b", split), 2);
    assert_false(exists("%s/%s", "kept/fresh"));
    assert_true(exists("%s/%s", "kept"));
    /* and with room, the same run replaces both */
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/w %s && diff -r %s/new %s/w", repo, fkcgen,
                        tmp, split, tmp, tmp),
                     0);
}

/* Replaced outputs keep their mode (600 stays 600). */
static void test_replaced_outputs_keep_mode(void **state)
{
    (void)state;
    char path[256];
    struct stat st;
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/m %s && chmod 600 %s/m/fkc_bindings.h && "
                        "chmod 640 %s/m/fkc_bindings.c && %s gen --out-dir %s/m %s",
                        repo, fkcgen, tmp, seed, tmp, tmp, fkcgen, tmp, split),
                     0);
    assert_true(pair_matches("m"));
    snprintf(path, sizeof path, "%s/m/fkc_bindings.h", tmp);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    snprintf(path, sizeof path, "%s/m/fkc_bindings.c", tmp);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
}

/* 8 gen runs at once on one output directory, 4 with each of two inputs, 20 rounds: they
 * serialise on the directory's lock, so every round ends with a matching pair (the one of
 * the last run) and no temporary file. */
static void test_concurrent_runs_keep_pair(void **state)
{
    (void)state;
    for (int round = 0; round < 20; round++) {
        assert_int_equal(sh("cd %s && for i in 1 2 3 4; do %s gen --out-dir %s/cc %s & "
                            "%s gen --out-dir %s/cc %s & done; fails=0; for j in 1 2 3 4 5 6 "
                            "7 8; do wait %%$j || fails=$((fails+1)); done; exit $fails",
                            repo, fkcgen, tmp, seed, fkcgen, tmp, split),
                         0);
        assert_true(pair_matches("cc"));
        assert_true(no_temp_files("cc"));
    }
}

/* gen with the test hook FKCGEN_TEST_STOP_BEFORE_RENAME (a test build's: fkcgen_hooks) stops
 * itself once both temporary files are complete; sig then removes them, and gen exits
 * 128 + sig; the old pair stays. */
static void interrupt_before_rename(int sig)
{
    assert_int_equal(sh("rm -rf %s/s %s/s0 && cd %s && %s gen --out-dir %s/s %s && "
                        "cp -r %s/s %s/s0",
                        tmp, tmp, repo, fkcgen, tmp, seed, tmp, tmp),
                     0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char out[256];
        snprintf(out, sizeof out, "%s/s", tmp);
        setenv("FKCGEN_TEST_STOP_BEFORE_RENAME", "1", 1);
        if (chdir(repo) == 0)
            execl(fkcgen_hooks, fkcgen_hooks, "gen", "--out-dir", out, "tests/gen/cases/split_a.md",
                  "tests/gen/cases/split_b.md", (char *)NULL);
        _exit(98);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
    assert_true(WIFSTOPPED(st));
    assert_int_equal(sh("ls %s/s | grep -c '\\.tmp\\.'", tmp), 0);
    assert_string_equal(out_text, "2\n"); /* both temporary files are there */
    kill(pid, sig);
    kill(pid, SIGCONT);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 128 + sig);
    assert_true(no_temp_files("s"));
    assert_int_equal(sh("diff -r %s/s0 %s/s", tmp, tmp), 0);
}

static void test_signal_removes_temp_files(void **state)
{
    (void)state;
    interrupt_before_rename(SIGTERM);
    interrupt_before_rename(SIGINT);
    /* the shipped fkcgen has no test hook: with the variable set it runs to its end, where the
     * test build stops (which waitpid would see, and this test then kills) */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char out[256];
        snprintf(out, sizeof out, "%s/h", tmp);
        setenv("FKCGEN_TEST_STOP_BEFORE_RENAME", "1", 1);
        if (chdir(repo) == 0)
            execl(fkcgen, fkcgen, "gen", "--out-dir", out, "contracts/vulkan/write_slice.md",
                  (char *)NULL);
        _exit(98);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
    if (WIFSTOPPED(st)) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        fail_msg("the shipped fkcgen stopped at the test hook");
    }
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* SIGKILL at the same point, which nothing can catch: both complete temporary files stay,
 * the old pair is intact; the next gen into that directory removes them (and a stale
 * temporary of its depfile there) before it writes, and nothing else: files of near names,
 * of another prefix's outputs, a directory and a symlink of the pattern, and a depfile's
 * temporary in a directory gen does not lock all stay. */
static void test_sigkill_stale_temps_removed(void **state)
{
    (void)state;
    assert_int_equal(sh("rm -rf %s/k %s/k0 %s/kd && mkdir %s/kd && cd %s && %s gen --out-dir "
                        "%s/k %s && cp -r %s/k %s/k0",
                        tmp, tmp, tmp, tmp, repo, fkcgen, tmp, seed, tmp, tmp),
                     0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char out[256];
        snprintf(out, sizeof out, "%s/k", tmp);
        setenv("FKCGEN_TEST_STOP_BEFORE_RENAME", "1", 1);
        if (chdir(repo) == 0)
            execl(fkcgen_hooks, fkcgen_hooks, "gen", "--out-dir", out, "tests/gen/cases/split_a.md",
                  "tests/gen/cases/split_b.md", (char *)NULL);
        _exit(98);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
    assert_true(WIFSTOPPED(st));
    kill(pid, SIGKILL);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    assert_int_equal(sh("ls %s/k | grep -c '^fkc_bindings\\.[ch]\\.tmp\\.......$'", tmp), 0);
    assert_string_equal(out_text, "2\n"); /* left: SIGKILL cannot be caught */
    assert_int_equal(sh("ls %s/k | grep '\\.tmp\\.' | tr '\\n' ' '", tmp), 0);
    char stale[256]; /* the two names ls printed, whole: a cut list would check fewer */
    int n_stale = snprintf(stale, sizeof stale, "%s", out_text);
    assert_true(n_stale > 0 && (size_t)n_stale < sizeof stale);
    assert_int_equal(
        sh("diff -r %s/k0 %s/k | grep -v '^Only in %s/k: fkc_bindings'", tmp, tmp, tmp),
        1); /* the pair is intact */
    static const char *const decoys[] = {
        "fkc_bindings.h.tmp.abc",     "fkc_bindings.h.tmp.abcdefg", "fkc_bindings.c.tmp.abc-ef",
        "xfkc_bindings.h.tmp.abcdef", "ab_bindings.h.tmp.abcdef",   "fkc_bindings.h.tmp",
        "fkc_bindings.rs.tmp.abcdef",
    };
    for (size_t i = 0; i < sizeof decoys / sizeof decoys[0]; i++)
        assert_int_equal(sh("echo mine > %s/k/%s", tmp, decoys[i]), 0);
    assert_int_equal(sh("mkdir %s/k/fkc_bindings.h.tmp.dirdir && ln -s fkc_bindings.h "
                        "%s/k/fkc_bindings.c.tmp.lnklnk && echo old > %s/k/fkc.d.tmp.Stale1 && "
                        "echo mine > %s/kd/fkc.d.tmp.Stale2",
                        tmp, tmp, tmp, tmp),
                     0);
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/k --depfile %s/k/fkc.d %s && "
                        "echo mine > %s/k/fkc.d.tmp.Stale3 && "
                        "%s gen --out-dir %s/k --depfile %s/kd/fkc.d %s",
                        repo, fkcgen, tmp, tmp, split, tmp, fkcgen, tmp, tmp, split),
                     0);
    /* the second run's depfile is kd/fkc.d: k/fkc.d's temporaries are not its own */
    assert_int_equal(sh("grep -qx mine %s/k/fkc.d.tmp.Stale3", tmp), 0);
    assert_int_equal(sh("cd %s/k && for f in %s; do test ! -e $f || exit 1; done", tmp, stale),
                     0); /* the two stale temporaries are gone */
    assert_false(exists("%s/%s", "k/fkc.d.tmp.Stale1"));
    for (size_t i = 0; i < sizeof decoys / sizeof decoys[0]; i++)
        assert_int_equal(sh("grep -qx mine %s/k/%s", tmp, decoys[i]), 0);
    assert_true(exists("%s/%s", "k/fkc_bindings.h.tmp.dirdir"));
    assert_int_equal(sh("test -L %s/k/fkc_bindings.c.tmp.lnklnk", tmp), 0);
    assert_int_equal(sh("grep -qx mine %s/kd/fkc.d.tmp.Stale2", tmp), 0);
    assert_true(pair_matches("k"));
}

/* A FIFO given as a contract is refused as not a regular file, at once (never opened
 * blocking), by every command that reads contracts. */
static void test_fifo_contract_refused(void **state)
{
    (void)state;
    assert_int_equal(sh("mkfifo %s/k.md", tmp), 0);
    const char *cmds[] = {"check", "dump --json", "gen --out-dir o", "gen --check --out-dir o"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        assert_int_equal(sh("cd %s && timeout 20 %s %s k.md", tmp, fkcgen, cmds[i]), 2);
        assert_non_null(strstr(err_text, "k.md: error: not a regular file"));
    }
    assert_false(exists("%s/%s", "o"));
}

/* Every double strtod returns finite is a value: the subnormal 4.9e-324 (strtod sets ERANGE
 * for it) and 1e-400 (0 after underflow) pass check and gen, and the C compiles strictly. */
static void test_subnormal_doubles(void **state)
{
    (void)state;
    assert_int_equal(sh("sed 's/^max_absolute: .*/max_absolute: 4.9e-324/; s/^max_relative: "
                        ".*/max_relative: 1e-400/; s/^determinism: bitwise/determinism: "
                        "deterministic/' %s/%s > %s/sub.md && %s gen --out-dir %s/sub %s/sub.md",
                        repo, seed, tmp, fkcgen, tmp, tmp),
                     0);
    assert_int_equal(sh("grep -c '0.0, 5e-324, true' %s/sub/fkc_bindings.c", tmp), 0);
    assert_string_equal(out_text, "2\n");
    for (int k = 0; k < 2; k++)
        assert_int_equal(sh("cd %s && %s -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Werror "
                            "-Iruntime/include -c %s/sub/fkc_bindings.c -o %s/sub.o",
                            repo, k ? "clang" : "gcc", tmp, tmp),
                         0);
}

/* --prefix NAME: the files and every generated name follow it; the default is fkc; a bad
 * NAME is a usage error (exit 2) that writes nothing. */
static void test_prefix(void **state)
{
    (void)state;
    const char *seed = "contracts/vulkan/write_slice.md";
    assert_int_equal(sh("cd %s && %s gen --prefix ab --out-dir %s/p %s && ls %s/p", repo, fkcgen,
                        tmp, seed, tmp),
                     0);
    assert_string_equal(out_text, "ab_bindings.c\nab_bindings.h\n");
    assert_int_equal(
        sh("grep -c 'ab_dispatch\\|AB_OP_WRITE_SLICE\\|ab_fill_unset_cost_for_backend' "
           "%s/p/ab_bindings.h",
           tmp),
        0);
    assert_string_equal(out_text, "5\n"); /* two op kinds, three declarations (dispatch_key) */
    /* no name of the default prefix is left, but the runtime's own: every fkc_ or FKC_ name
     * its public headers declare (preprocessed, so comments are left out and enumerators made
     * by X-macros are in), their files' names, and FKC_TABLES_PREFIX, which fkc_tables.h reads */
    assert_int_equal(
        sh("cd %s && for h in runtime/include/fkc/*.h; do echo \"#include <$h>\"; "
           "done | cpp -I. -Iruntime/include -dD -P | grep -o '\\bfkc_[a-z0-9_]*\\|\\bFKC_[A-Z0-9_]*' "
           "| sort -u > %s/runtime.names && ls runtime/include/fkc | sed 's/\\.h$//' "
           ">> %s/runtime.names",
           repo, tmp, tmp),
        0);
    assert_int_equal(sh("grep -o '\\bfkc_[a-z0-9_]*\\|\\bFKC_[A-Z0-9_]*' %s/p/ab_bindings.h "
                        "%s/p/ab_bindings.c | sed 's/^[^:]*://' | sort -u | grep -vxF -f "
                        "%s/runtime.names | grep -vx 'fkc_\\|fkc_runtime_abi_\\|fkc_version\\|"
                        "FKC_TABLES_PREFIX\\|FKC_DTYPE_\\|fkc_write_slice\\(_rotating\\)\\?_b'",
                        tmp, tmp, tmp),
                     1); /* the last two: pasted by the row templates */
    assert_string_equal(out_text, "");
    static const char *const bad[] = {"Ab",   "1a",     "a-b", "fkc_x",
                                      "a__b", "a_",     "str", "strip",
                                      "int",  "atomic", "",    "abcdefghijklmnopqrstuvwxyz0123456"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(
            sh("cd %s && %s gen --prefix '%s' --out-dir %s/q %s", repo, fkcgen, bad[i], tmp, seed),
            2);
        if (!strstr(err_text, "--prefix") || !strstr(err_text, "usage:"))
            fail_msg("--prefix '%s': %s", bad[i], err_text);
        assert_false(exists("%s/%s", "q"));
    }
    assert_non_null(strstr(err_text, "must be 1 to 32 bytes long"));
    assert_int_equal(sh("cd %s && %s gen --prefix str --out-dir %s/q %s", repo, fkcgen, tmp, seed),
                     2);
    assert_non_null(strstr(err_text, "fkcgen gen: --prefix 'str' is reserved by the C library"));
}

/* A tensor named <prefix>_<op>_params hides the op's params type in its function type, so the
 * header would not compile: `check` (no prefix) accepts the contract, `gen --prefix zz` refuses
 * it at each tensor's file:line:col, an input and an output, and writes nothing; under another
 * prefix the same contract generates C that compiles with gcc and clang. */
static void test_prefix_params_clash(void **state)
{
    (void)state;
    const char *c = "tests/gen/cases/prefix_clash.md";
    assert_int_equal(sh("cd %s && %s check %s", repo, fkcgen, c), 0);
    assert_int_equal(sh("cd %s && %s gen --prefix zz --out-dir %s/z %s", repo, fkcgen, tmp, c), 1);
    static const char *const want[] = {
        "tests/gen/cases/prefix_clash.md:25:3: error: input name 'zz_copy_params' is the C name "
        "of the params type of op kind Copy under --prefix zz, which the tensors precede in its "
        "function type: the generated C would not compile; choose another tensor name\n"
        "- name: zz_copy_params\n  ^\n",
        "tests/gen/cases/prefix_clash.md:81:3: error: output name 'zz_move_params' is the C name "
        "of the params type of op kind Move under --prefix zz",
        "fkcgen gen: nothing written (contract errors)\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(err_text, want[i]))
            fail_msg("missing:\n%s\nin:\n%s", want[i], err_text);
    assert_false(exists("%s/%s", "z"));
    assert_int_equal(sh("cd %s && %s gen --prefix yy --out-dir %s/y %s", repo, fkcgen, tmp, c), 0);
    for (int k = 0; k < 2; k++)
        assert_int_equal(sh("cd %s && %s -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Werror "
                            "-Iruntime/include -c %s/y/yy_bindings.c -o %s/y.o",
                            repo, k ? "clang" : "gcc", tmp, tmp),
                         0);
}

/* gen --select FILE: every name must match (an op kind no contract binds, a word that is no
 * dtype, a dtype the op kind is not bound for, a malformed line: each at the file's line:col,
 * with did-you-mean where one is close, all in one run), a file that selects nothing is an
 * error, an unreadable one exits 2, and each writes nothing; lines of one op kind add up; the
 * selection is a prerequisite in the depfile. (tests/gen/test_select.c runs a selected build.) */
static void test_select(void **state)
{
    (void)state;
    const char *in = "contracts/vulkan/write_slice.md tests/gen/cases/prefix_clash.md";
    assert_int_equal(sh("cd %s && %s gen --select tests/gen/cases/select/bad.txt --out-dir %s/s %s",
                        repo, fkcgen, tmp, in),
                     1);
    assert_string_equal(
        err_text,
        "tests/gen/cases/select/bad.txt:2:1: error: op kind 'WriteSlise' is bound by no contract; did you mean 'WriteSlice'?\n"
        "WriteSlise\n"
        "^\n"
        "tests/gen/cases/select/bad.txt:3:18: error: unknown dtype 'F33'; did you mean 'F32'?\n"
        "WriteSlice: F32, F33\n"
        "                 ^\n"
        "tests/gen/cases/select/bad.txt:5:11: error: op kind Copy is bound for no dtype I8 (the contracts bind it for F32 or U8)\n"
        "Copy: U8, I8\n"
        "          ^\n"
        "tests/gen/cases/select/bad.txt:6:25: error: expected ',' or the end of the line after a dtype\n"
        "WriteSliceRotating: F32 I8\n"
        "                        ^\n"
        "tests/gen/cases/select/bad.txt:7:20: error: expected ':' and dtypes, or the end of the line, after the op kind\n"
        "WriteSliceRotating F32\n"
        "                   ^\n"
        "tests/gen/cases/select/bad.txt:8:1: error: expected an op kind, as `OpKind` or `OpKind: DTYPE, ...`\n"
        ": F32\n"
        "^\n"
        "fkcgen gen: nothing written (contract errors)\n");
    assert_false(exists("%s/%s", "s"));
    /* bytes that are not text are named at their column, not read as the end of a cut name
     * (issue 26 item 7: 'Write\xffSlice' said "op kind 'Write' is bound by no contract"); a
     * name with a UTF-8 accent is named whole; a CR LF line end is a line end */
    assert_int_equal(sh("cd %s && %s gen --select tests/gen/cases/select/bytes.txt --out-dir %s/s "
                        "%s",
                        repo, fkcgen, tmp, in),
                     1);
    static const char *const bytes_errors[] = {
        "bytes.txt:1:6: error: invalid UTF-8 in the selection (byte 0xFF)\n",
        "bytes.txt:2:14: error: invalid UTF-8 in the selection (byte 0xC3)\n",
        "bytes.txt:3:1: error: op kind 'Writ\xc3\xa9' is bound by no contract\n",
        "bytes.txt:5:9: error: control character 0x01 in the selection; only text and tabs may "
        "appear\n"};
    for (size_t i = 0; i < sizeof bytes_errors / sizeof bytes_errors[0]; i++)
        if (!strstr(err_text, bytes_errors[i]))
            fail_msg("missing %s in:\n%s", bytes_errors[i], err_text);
    assert_null(strstr(err_text, "bytes.txt:4:"));
    assert_false(exists("%s/%s", "s"));
    assert_int_equal(
        sh("cd %s && %s gen --select tests/gen/cases/select/empty.txt --out-dir %s/s %s", repo,
           fkcgen, tmp, in),
        1);
    assert_string_equal(err_text,
                        "tests/gen/cases/select/empty.txt: error: --select: the file "
                        "selects no binding\nfkcgen gen: nothing written (contract errors)\n");
    assert_int_equal(
        sh("cd %s && %s gen --select %s/none.txt --out-dir %s/s %s", repo, fkcgen, tmp, tmp, in),
        2);
    assert_non_null(strstr(err_text, "none.txt: error: --select: No such file or directory\n"));
    assert_false(exists("%s/%s", "s"));
    /* Copy: F32, then U8 on a later line; Move whole: 4 of the 20 bindings */
    assert_int_equal(
        sh("cd %s && %s gen --select tests/gen/cases/select/union.txt --out-dir %s/s "
           "--depfile %s/s.d %s && grep -c 'FKC_BINDING_COUNT 4$\\|FKC_OP_KIND_COUNT = 2$\\|"
           "FKC_OP_COPY = 0, \\|FKC_OP_MOVE = 1, ' %s/s/fkc_bindings.h && grep -c "
           "'^  tests/gen/cases/select/union.txt\\|^tests/gen/cases/select/union.txt:$' %s/s.d",
           repo, fkcgen, tmp, tmp, in, tmp, tmp),
        0);
    assert_string_equal(out_text, "4\n2\n");
}

/* gen --shards N: N from 1 to 64 and the C or Rust back end, else a usage error that writes
 * nothing; N sources and one header, all in the depfile; --check of them up to date, then
 * drift when one shard is gone; the same header and sources for the same N every run.
 * (tests/gen/test_shards.c checks what sharded code does.) */
static void test_shards_cli(void **state)
{
    (void)state;
    const char *seed = "contracts/vulkan/write_slice.md";
    static const char *const bad[] = {"0", "65", "x", "", "-1", "3x", "08"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(
            sh("cd %s && %s gen --shards '%s' --out-dir %s/q %s", repo, fkcgen, bad[i], tmp, seed),
            2);
        if (!strstr(err_text, "--shards") || (bad[i][0] && !strstr(err_text, "from 1 to 64")))
            fail_msg("--shards '%s': %s", bad[i], err_text);
    }
    assert_int_equal(
        sh("cd %s && %s gen --shards 2 --lang json --out-dir %s/q %s", repo, fkcgen, tmp, seed), 2);
    assert_non_null(strstr(err_text,
                           "--shards splits a back end's sources; --lang json has none to "
                           "split (the back ends that do: c or rust)"));
    assert_false(exists("%s/%s", "q"));
    assert_int_equal(sh("cd %s && %s gen --shards 3 --out-dir %s/s --depfile %s/s.d %s && ls %s/s "
                        "&& head -1 %s/s.d",
                        repo, fkcgen, tmp, tmp, seed, tmp, tmp),
                     0);
    char want[512];
    snprintf(want, sizeof want,
             "fkc_bindings.c\nfkc_bindings.h\nfkc_bindings_1.c\n"
             "fkc_bindings_2.c\n%s/s/fkc_bindings.h %s/s/fkc_bindings.c %s/s/fkc_bindings_1.c "
             "%s/s/fkc_bindings_2.c: \\\n",
             tmp, tmp, tmp, tmp);
    assert_string_equal(out_text, want);
    assert_int_equal(
        sh("cd %s && %s gen --shards 3 --check --out-dir %s/s %s", repo, fkcgen, tmp, seed), 0);
    assert_int_equal(sh("rm %s/s/fkc_bindings_2.c && cd %s && %s gen --shards 3 --check "
                        "--out-dir %s/s %s",
                        tmp, repo, fkcgen, tmp, seed),
                     1);
    assert_non_null(strstr(err_text, "fkc_bindings_2.c is missing"));
    assert_int_equal(sh("cd %s && %s gen --shards 3 --out-dir %s/t %s && diff -r %s/s %s/t", repo,
                        fkcgen, tmp, seed, tmp, tmp),
                     1); /* _2.c only in t */
    assert_int_equal(sh("cd %s && %s gen --shards 3 --out-dir %s/s %s && diff -r %s/s %s/t", repo,
                        fkcgen, tmp, seed, tmp, tmp),
                     0);
    /* the rows are balanced over the shards by op kind: the seed's two op kinds (9 rows each)
     * over 2 shards is one each (a fault in the balance that put every op kind in the last
     * shard passed every other test: this round's mutation sample of c.c) */
    assert_int_equal(sh("cd %s && %s gen --shards 2 --out-dir %s/two %s && grep '^/\\* shard ' "
                        "%s/two/fkc_bindings.h",
                        repo, fkcgen, tmp, seed, tmp),
                     0);
    assert_string_equal(out_text,
                        "/* shard 0: op kinds 0 to 0 */\n/* shard 1: op kinds 1 to 1 */\n");
}

/* gen --lang rust --shards N (issue 27): the module and its parts 1 .. N-1, all in the depfile,
 * each with its "Do not edit" banner, the module include!ing each; the same bytes every run;
 * --check up to date, then drift when a part is gone, and (C too) when a part an earlier gen
 * with more shards left is there; gen with fewer shards (or none) removes those, only its
 * own. (tests/gen/test_examples.py compiles and compares the sharded module's tables.) */
static void test_rust_shards_cli(void **state)
{
    (void)state;
    const char *seed = "contracts/vulkan/write_slice.md";
    assert_int_equal(sh("cd %s && %s gen --lang rust --shards 3 --out-dir %s/s --depfile %s/s.d "
                        "%s && ls %s/s && head -1 %s/s.d && grep -c '^// Do not edit' %s/s/*.rs && "
                        "grep -c '^    include!(\"fkc_bindings_[12].rs\");$' %s/s/fkc_bindings.rs",
                        repo, fkcgen, tmp, tmp, seed, tmp, tmp, tmp, tmp),
                     0);
    char want[1024];
    snprintf(want, sizeof want,
             "fkc_bindings.rs\nfkc_bindings_1.rs\nfkc_bindings_2.rs\n%s/s/fkc_bindings.rs "
             "%s/s/fkc_bindings_1.rs %s/s/fkc_bindings_2.rs: \\\n%s/s/fkc_bindings.rs:1\n"
             "%s/s/fkc_bindings_1.rs:1\n%s/s/fkc_bindings_2.rs:1\n2\n",
             tmp, tmp, tmp, tmp, tmp, tmp);
    assert_string_equal(out_text, want);
    /* the seed's two op kinds over 3 shards: one each, the last holds none */
    assert_int_equal(
        sh("sed -n 2p %s/s/fkc_bindings_1.rs && sed -n 2p %s/s/fkc_bindings_2.rs", tmp, tmp), 0);
    assert_string_equal(out_text, "// Shard 1: op kinds 1 to 1, bindings 9 to 17.\n"
                                  "// Shard 2 holds no op kind.\n");
    assert_int_equal(sh("cd %s && %s gen --lang rust --shards 3 --check --out-dir %s/s %s", repo,
                        fkcgen, tmp, seed),
                     0);
    assert_int_equal(sh("cd %s && %s gen --lang rust --shards 3 --out-dir %s/t %s && diff -r %s/s "
                        "%s/t",
                        repo, fkcgen, tmp, seed, tmp, tmp),
                     0);
    assert_int_equal(sh("rm %s/t/fkc_bindings_1.rs && cd %s && %s gen --lang rust --shards 3 "
                        "--check --out-dir %s/t %s",
                        tmp, repo, fkcgen, tmp, seed),
                     1);
    assert_non_null(strstr(err_text, "fkc_bindings_1.rs is missing"));
    /* fewer shards: the part left over is reported by --check, removed by gen */
    assert_int_equal(sh("cd %s && %s gen --lang rust --shards 2 --check --out-dir %s/s %s", repo,
                        fkcgen, tmp, seed),
                     1);
    snprintf(want, sizeof want,
             "%s/s/fkc_bindings_2.rs is a part of an earlier gen --shards that this one (2 parts) "
             "does not write",
             tmp);
    assert_non_null(strstr(err_text, want));
    assert_int_equal(sh("cd %s && %s gen --lang rust --shards 2 --check --format json --out-dir "
                        "%s/s %s | grep -c 'is a part of an earlier gen --shards'",
                        repo, fkcgen, tmp, seed),
                     0);
    assert_string_equal(out_text, "1\n");
    assert_int_equal(sh("cd %s/s && echo '// fkc_bindings_5.rs - mine' > fkc_bindings_5.rs && "
                        "cd %s && %s gen --lang rust --shards 2 --out-dir %s/s %s && ls %s/s",
                        tmp, repo, fkcgen, tmp, seed, tmp),
                     0);
    assert_string_equal(out_text, "fkc_bindings.rs\nfkc_bindings_1.rs\nfkc_bindings_5.rs\n");
    assert_int_equal(sh("cd %s && %s gen --lang rust --shards 2 --check --out-dir %s/s %s", repo,
                        fkcgen, tmp, seed),
                     0);
    assert_int_equal(
        sh("cd %s && %s gen --lang rust --out-dir %s/s %s && ls %s/s && %s gen --lang "
           "rust --out-dir %s/one %s && cmp %s/s/fkc_bindings.rs %s/one/fkc_bindings.rs",
           repo, fkcgen, tmp, seed, tmp, fkcgen, tmp, seed, tmp, tmp),
        0);
    assert_string_equal(out_text, "fkc_bindings.rs\nfkc_bindings_5.rs\n");
    /* C alike: --check reports the source an earlier gen with more shards left */
    assert_int_equal(sh("cd %s && %s gen --shards 3 --out-dir %s/c %s && %s gen --shards 2 --check "
                        "--out-dir %s/c %s",
                        repo, fkcgen, tmp, seed, fkcgen, tmp, seed),
                     1);
    assert_non_null(strstr(err_text, "fkc_bindings_2.c is a part of an earlier gen --shards"));
}

/* gen with fewer shards (or none) removes the shard sources an earlier gen --shards left (they
 * would fail with "#error ... regenerate both"), under the directory lock, and only its own:
 * a user's file of a shard's name, a link to one, another prefix's shards and a copy of a
 * shard under another shard's name (its banner names the original) stay (issue 26 item 5). */
static void test_stale_shards_removed(void **state)
{
    (void)state;
    const char *seed = "contracts/vulkan/write_slice.md";
    assert_int_equal(sh("cd %s && %s gen --shards 8 --out-dir %s/s %s && %s gen --shards 2 "
                        "--prefix other --out-dir %s/s %s",
                        repo, fkcgen, tmp, seed, fkcgen, tmp, seed),
                     0);
    assert_int_equal(sh("cd %s/s && echo '/* fkc_bindings_6.c - mine, not generated */' > "
                        "fkc_bindings_6.c && ln -s fkc_bindings_1.c fkc_bindings_9.c && "
                        "cp fkc_bindings_2.c fkc_bindings_12.c",
                        tmp),
                     0);
    assert_int_equal(
        sh("cd %s && %s gen --shards 3 --out-dir %s/s %s && ls %s/s", repo, fkcgen, tmp, seed, tmp),
        0);
    assert_string_equal(out_text,
                        "fkc_bindings.c\nfkc_bindings.h\nfkc_bindings_1.c\nfkc_bindings_12.c\n"
                        "fkc_bindings_2.c\nfkc_bindings_6.c\nfkc_bindings_9.c\nother_bindings.c\n"
                        "other_bindings.h\nother_bindings_1.c\n");
    assert_int_equal(
        sh("cd %s && %s gen --out-dir %s/s %s && ls %s/s", repo, fkcgen, tmp, seed, tmp), 0);
    assert_string_equal(out_text, "fkc_bindings.c\nfkc_bindings.h\nfkc_bindings_12.c\n"
                                  "fkc_bindings_6.c\nfkc_bindings_9.c\nother_bindings.c\n"
                                  "other_bindings.h\nother_bindings_1.c\n");
    assert_int_equal(sh("head -1 %s/s/fkc_bindings_6.c", tmp), 0);
    assert_string_equal(out_text, "/* fkc_bindings_6.c - mine, not generated */\n");
    /* what remains of the default prefix compiles: no stale source beside the header */
    assert_int_equal(sh("cd %s && cc -std=c11 -Iruntime/include -I%s/s -c %s/s/fkc_bindings.c "
                        "-o %s/b.o",
                        repo, tmp, tmp, tmp),
                     0);
}

/* Every sort gen runs has a total order: with a valid qsort that orders ties the other way
 * (tests/gen/qsort_reverse.so, preloaded: the order musl, the BSDs or macOS may give), gen's
 * outputs are the same bytes, C, Rust and JSON, for the seed, two providers split across files,
 * two kernel sources binding one key (the dispatch picks the first in table order) and a
 * synthetic corpus of 60 sections in 3 files (symbols that tie in their first 8 bytes). */
static void test_total_order_under_reversed_qsort(void **state)
{
    (void)state;
    /* the preload takes effect: glibc's qsort keeps the two equal elements in order here */
    assert_int_equal(
        sh("%s/qsort_probe && LD_PRELOAD=%s/qsort_reverse.so %s/qsort_probe", tdir, tdir, tdir), 0);
    assert_string_equal(out_text, "a b\nb a\n");
    assert_int_equal(sh("cd %s && %s scripts/bench-gen-corpus.py contracts/vulkan/write_slice.md "
                        "60 %s/corpus 20 > /dev/null",
                        repo, "python3", tmp),
                     0);
    const char *sets[] = {"contracts/vulkan/write_slice.md",
                          "tests/gen/cases/split_b.md tests/gen/cases/split_a.md",
                          "tests/gen/cases/siblings/*.md", NULL};
    char corpus[512];
    snprintf(corpus, sizeof corpus, "%s/corpus/*.md", tmp);
    sets[3] = corpus;
    for (size_t i = 0; i < 4; i++)
        for (const char *lang = "c"; lang; lang = !strcmp(lang, "c")      ? "rust"
                                                  : !strcmp(lang, "rust") ? "json"
                                                                          : NULL) {
            assert_int_equal(
                sh("cd %s && rm -rf %s/t1 %s/t2 && %s gen --lang %s --out-dir %s/t1 %s "
                   "&& LD_PRELOAD=%s/qsort_reverse.so %s gen --lang %s --out-dir "
                   "%s/t2 %s && diff -r %s/t1 %s/t2",
                   repo, tmp, tmp, fkcgen, lang, tmp, sets[i], tdir, fkcgen, lang, tmp, sets[i],
                   tmp, tmp),
                0);
            assert_string_equal(out_text, "");
        }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fputs("usage: test_cli REPO FKCGEN FKCGEN_WITH_TEST_HOOKS BUILD/tests/gen\n", stderr);
        return 2;
    }
    repo = argv[1];
    fkcgen = argv[2];
    fkcgen_hooks = argv[3];
    tdir = argv[4];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_same_bytes_any_order_locale_cwd, setup, teardown),
        cmocka_unit_test_setup_teardown(test_check_prints_diff_on_drift, setup, teardown),
        cmocka_unit_test_setup_teardown(test_make_check_generated_fails_on_drift, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unchanged_files_keep_mtime, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rust_module_stable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_contract_error_writes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_entry_point_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_usage_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_subcommand_options, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli_messages_escaped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backend_errors_quoted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rust_registries_in_modules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_output_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_depfile_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mismatched_pair_fails_to_compile, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_failure_keeps_pair, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replaced_outputs_keep_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_runs_keep_pair, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sigkill_stale_temps_removed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_signal_removes_temp_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_total_order_under_reversed_qsort, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fifo_contract_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_subnormal_doubles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_emit_stubs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefix, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefix_params_clash, setup, teardown),
        cmocka_unit_test_setup_teardown(test_select, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shards_cli, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_shards_removed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rust_shards_cli, setup, teardown),
    };
    return cmocka_run_group_tests_name("fkcgen gen", tests, NULL, NULL);
}
