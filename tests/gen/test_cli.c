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
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <utime.h>

#include <cmocka.h>

static const char *repo, *fkcgen;
static char tmp[64];
static char out_text[1 << 16], err_text[1 << 16];

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
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
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
    assert_int_equal(sh("cd %s && LC_ALL=C TZ=UTC %s gen --out-dir %s/o1 %s %s", repo, fkcgen,
                        tmp, a, b), 0);
    assert_int_equal(sh("cd / && LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=Asia/Tokyo %s gen --root %s "
                        "--out-dir %s/o2 %s/%s %s/%s", fkcgen, repo, tmp, repo, b, repo, a), 0);
    assert_int_equal(sh("cd %s && LC_ALL=POSIX %s gen --root=%s --out-dir=o3 -- %s/%s %s/%s",
                        tmp, fkcgen, repo, repo, b, repo, a), 0);
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
    /* Both contracts, in path order, each with the hash of its text. */
    const char *line_a = strstr(h, "\n *   tests/gen/cases/split_a.md (text xxh3-128 ");
    const char *line_b = strstr(h, "\n *   tests/gen/cases/split_b.md (text xxh3-128 ");
    assert_non_null(line_a);
    assert_non_null(line_b);
    assert_true(line_a < line_b);
    assert_null(strstr(h, tmp));
    assert_null(strstr(h, repo));
    free(h);
}

/* A temporary copy of the seed, generated from its own directory. */
static void make_copy(void)
{
    assert_int_equal(sh("mkdir -p %s/c/contracts/vulkan && cp %s/contracts/vulkan/write_slice.md "
                        "%s/c/contracts/vulkan/ && cd %s/c && %s gen --out-dir generated "
                        "contracts/vulkan/write_slice.md", tmp, repo, tmp, tmp, fkcgen), 0);
}

static void test_check_prints_diff_on_drift(void **state)
{
    (void)state;
    make_copy();
    const char *check = "cd %s/c && %s gen --check --out-dir generated contracts/vulkan/write_slice.md";
    assert_int_equal(sh(check, tmp, fkcgen), 0);
    assert_string_equal(out_text, "");
    assert_int_equal(sh("cp -r %s/c/generated %s/before", tmp, tmp), 0);
    /* one character: the first section's flops "0" -> "8" */
    assert_int_equal(sh("sed -i '0,/^flops: \"0\"/s//flops: \"8\"/' "
                        "%s/c/contracts/vulkan/write_slice.md", tmp), 0);
    assert_int_equal(sh(check, tmp, fkcgen), 1);
    assert_non_null(strstr(out_text, "--- generated/fkc_bindings.c\n+++ generated/fkc_bindings.c\n@@ -"));
    assert_non_null(strstr(out_text, "\n-/* write_slice flops = 0 */\n+/* write_slice flops = 8 */\n"));
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
    const char *gen = "cd %s && %s gen --out-dir %s/c/generated %s/c/contracts/vulkan/write_slice.md";
    const char *make = "cd %s && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "
                       "check-generated CONTRACTS=%s/c/contracts/vulkan/write_slice.md "
                       "GEN_DIR=%s/c/generated";
    assert_int_equal(sh(gen, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(sh(make, repo, tmp, tmp), 0);
    /* One character that changes no binding (a trailing space) still shows as drift: the
     * banner names the hash of each contract's text, so generated/ always matches its bytes. */
    assert_int_equal(sh("sed -i '0,/^max_ulp: 0/s//max_ulp: 0 /' %s/c/contracts/vulkan/write_slice.md",
                        tmp), 0);
    assert_int_not_equal(sh(make, repo, tmp, tmp), 0);
    assert_non_null(strstr(out_text, "\n- *   "));
    assert_non_null(strstr(out_text, "\n+ *   "));
    assert_int_equal(sh(gen, repo, fkcgen, tmp, tmp), 0);
    assert_int_equal(sh(make, repo, tmp, tmp), 0);
    assert_int_equal(sh("sed -i '0,/^flops: \"0\"/s//flops: \"4\"/' "
                        "%s/c/contracts/vulkan/write_slice.md", tmp), 0);
    assert_int_not_equal(sh(make, repo, tmp, tmp), 0);
    assert_non_null(strstr(out_text, "+++ "));
    assert_non_null(strstr(out_text, "\n-    return 0.0;\n+    return 4.0;\n"));
}

static void test_unchanged_files_keep_mtime(void **state)
{
    (void)state;
    char path[256];
    struct stat st;
    const char *gen = "cd %s && %s gen --out-dir %s/m --depfile %s/m.d contracts/vulkan/write_slice.md";
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

static void test_contract_error_writes_nothing(void **state)
{
    (void)state;
    const char *gen = "cd %s && %s gen --out-dir %s/%s --depfile %s/e.d %s/bad.md";
    assert_int_equal(sh("sed '0,/^max_ulp: 0/s//max_ulp: 3/' %s/contracts/vulkan/write_slice.md "
                        "> %s/bad.md", repo, tmp), 0);
    assert_int_equal(sh(gen, tmp, fkcgen, tmp, "fresh", tmp, tmp), 1);
    assert_non_null(strstr(err_text, "bad.md:"));
    assert_non_null(strstr(err_text, ": error: "));
    assert_non_null(strstr(err_text, "nothing written"));
    assert_false(exists("%s/%s", "fresh"));
    assert_false(exists("%s/%s", "e.d"));
    /* existing outputs stay as they are */
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/keep contracts/vulkan/write_slice.md && "
                        "cp -r %s/keep %s/keep0", repo, fkcgen, tmp, tmp, tmp), 0);
    assert_int_equal(sh(gen, tmp, fkcgen, tmp, "keep", tmp, tmp), 1);
    assert_int_equal(sh("diff -r %s/keep0 %s/keep", tmp, tmp), 0);
}

static void test_bad_entry_point_rejected(void **state)
{
    (void)state;
    assert_int_equal(sh("sed 's/entry_point: \"fuel_vulkan_backend::fkc::write_slice\"/"
                        "entry_point: \"fuel_vulkan_backend::fkc::write slice\"/' "
                        "%s/contracts/vulkan/write_slice.md > %s/ep.md", repo, tmp), 0);
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
    assert_int_equal(sh("%s gen --root /no/such/dir --out-dir %s/u %s/contracts/vulkan/write_slice.md",
                        fkcgen, tmp, repo), 2);
    assert_non_null(strstr(err_text, "--root '/no/such/dir': No such file or directory"));
    assert_int_equal(sh("%s gen --root=%s/contracts/vulkan/write_slice.md --out-dir %s/u "
                        "%s/contracts/vulkan/write_slice.md", fkcgen, repo, tmp, repo), 2);
    assert_non_null(strstr(err_text, "Not a directory"));
    assert_false(exists("%s/%s", "u"));
    assert_int_equal(sh("%s gen --help", fkcgen), 0);
    assert_non_null(strstr(out_text, "usage: fkcgen gen"));
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
                            check ? "--check" : "", tmp, seed), 2);
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
                        fkcgen, tmp, tmp, seed), 2);
    assert_non_null(strstr(err_text, "/dp' is not a regular file"));
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/d --depfile %s/nodir/x.d %s", repo, fkcgen,
                        tmp, tmp, seed), 2);
    assert_non_null(strstr(err_text, "/nodir/x.d' is in a directory that does not exist"));
    assert_false(exists("%s/%s", "d"));
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/e %s && cp -r %s/e %s/e0", repo, fkcgen,
                        tmp, seed, tmp, tmp), 0);
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/e --depfile %s/e/fkc_bindings.c %s", repo,
                        fkcgen, tmp, tmp, seed), 2);
    assert_non_null(strstr(err_text, "/e/fkc_bindings.c' is an output of gen"));
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/e --depfile %s/e/../e/fkc_bindings.h %s",
                        repo, fkcgen, tmp, tmp, seed), 2);
    assert_non_null(strstr(err_text, "is an output of gen"));
    assert_int_equal(sh("diff -r %s/e0 %s/e", tmp, tmp), 0);
    /* a depfile in the output directory gen creates is fine; an output there is not */
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/n1/ --depfile %s/n1/x.d %s", repo, fkcgen,
                        tmp, tmp, seed), 0);
    assert_true(exists("%s/%s", "n1/x.d") && exists("%s/%s", "n1/fkc_bindings.c"));
    assert_int_equal(sh("cd %s && %s gen --out-dir %s/n2 --depfile %s/n2/fkc_bindings.h %s", repo,
                        fkcgen, tmp, tmp, seed), 2);
    assert_non_null(strstr(err_text, "/n2/fkc_bindings.h' is an output of gen"));
    assert_false(exists("%s/%s", "n2"));
    assert_int_equal(sh("cp %s/%s %s/c.md && %s gen --out-dir %s/e --depfile %s/c.md %s/c.md",
                        repo, seed, tmp, fkcgen, tmp, tmp, tmp), 2);
    assert_non_null(strstr(err_text, "/c.md' is one of the contracts"));
    assert_int_equal(sh("cmp %s/%s %s/c.md", repo, seed, tmp), 0);
    assert_int_equal(sh("touch %s/file && %s gen --out-dir %s/file %s/c.md", tmp, fkcgen, tmp,
                        tmp), 2);
    assert_non_null(strstr(err_text, "/file' is not a directory"));
}

/* Paths in a depfile: control characters are refused in every path of gen (a newline or a
 * leading tab would break the depfile), bytes make reads specially are refused with
 * --depfile, and a space, '#' and '$' are escaped so that make reads the path back. */
static void test_depfile_paths(void **state)
{
    (void)state;
    const char *seed = "contracts/vulkan/write_slice.md";
    assert_int_equal(sh("cp %s/%s \"%s/a\nb.md\" && cp %s/%s \"%s/\tt.md\"", repo, seed, tmp,
                        repo, seed, tmp), 0);
    assert_int_equal(sh("cd %s && %s gen --out-dir o \"a\nb.md\"", tmp, fkcgen), 2);
    assert_non_null(strstr(err_text, "contract 'a\\x0ab.md' holds a control character"));
    assert_int_equal(sh("cd %s && %s gen --out-dir o --depfile o.d \"\tt.md\"", tmp, fkcgen), 2);
    assert_non_null(strstr(err_text, "contract '\\x09t.md' holds a control character"));
    assert_false(exists("%s/%s", "o"));
    assert_int_equal(sh("cp %s/%s %s/a:b.md && cd %s && %s gen --out-dir o --depfile o.d a:b.md",
                        repo, seed, tmp, tmp, fkcgen), 2);
    assert_non_null(strstr(err_text, "contract 'a:b.md' holds ':', which a make depfile cannot "
                                     "carry"));
    assert_int_equal(sh("cd %s && %s gen --out-dir o a:b.md", tmp, fkcgen), 0);
    /* escaped: make finds the contract, and wants it rebuilt after a touch */
    assert_int_equal(sh("cp %s/%s '%s/a b#$c.md' && cd %s && %s gen --out-dir o --depfile o.d "
                        "'a b#$c.md'", repo, seed, tmp, tmp, fkcgen), 0);
    assert_int_equal(sh("cd %s && printf 'o/fkc_bindings.h:\\n\\t@echo remake\\n"
                        "include o.d\\n' > mk && touch -d '2000-01-01' o/* && env -u MAKEFLAGS "
                        "-u MFLAGS -u MAKELEVEL make -s -f mk o/fkc_bindings.h", tmp), 0);
    assert_string_equal(out_text, "remake\n");
    assert_int_equal(sh("cd %s && rm 'a b#$c.md' && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "
                        "make -s -f mk o/fkc_bindings.h", tmp), 0);
}

/* --prefix NAME: the files and every generated name follow it; the default is fkc; a bad
 * NAME is a usage error (exit 2) that writes nothing. */
static void test_prefix(void **state)
{
    (void)state;
    const char *seed = "contracts/vulkan/write_slice.md";
    assert_int_equal(sh("cd %s && %s gen --prefix ab --out-dir %s/p %s && ls %s/p", repo, fkcgen,
                        tmp, seed, tmp), 0);
    assert_string_equal(out_text, "ab_bindings.c\nab_bindings.h\n");
    assert_int_equal(sh("grep -c 'ab_dispatch\\|AB_OP_WRITE_SLICE\\|ab_fill_unset_cost_for_backend' "
                        "%s/p/ab_bindings.h", tmp), 0);
    assert_string_equal(out_text, "5\n"); /* two op kinds, a comment, two declarations */
    /* no name of the default prefix is left, but the runtime's own (fkc_status, ...) and
     * fkc_kernels.h, fkc_<kernel>_b<width>, fkc_runtime_abi_<N> in comments */
    assert_int_equal(sh("grep -o '\\bfkc_[a-z0-9_]*\\|\\bFKC_[A-Z0-9_]*' %s/p/ab_bindings.h "
                        "%s/p/ab_bindings.c | sed 's/^[^:]*://' | sort -u | grep -v "
                        "'^fkc_write_slice\\(_rotating\\)\\?_\\(b[1248]\\|params\\|kernel\\)$' | "
                        "grep -v '^\\(fkc_status\\|fkc_stream\\|fkc_tensor\\|fkc_op_extra\\|"
                        "fkc_dtype\\|fkc_backend\\|fkc_runtime_abi_1\\|FKC_OK\\|FKC_ERR_[A-Z_]*\\|"
                        "FKC_DTYPE_[A-Z0-9]*\\|FKC_BACKEND_[A-Z]*\\|FKC_RUNTIME_ABI\\|"
                        "fkc_\\|fkc_kernels\\|fkc_runtime_abi_\\)$'", tmp, tmp),
                     1);
    assert_string_equal(out_text, "");
    static const char *const bad[] = {"Ab", "1a", "a-b", "fkc_x", "a__b", "a_", "str", "strip",
                                      "int", "atomic", "", "abcdefghijklmnopqrstuvwxyz0123456"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(sh("cd %s && %s gen --prefix '%s' --out-dir %s/q %s", repo, fkcgen,
                            bad[i], tmp, seed), 2);
        if (!strstr(err_text, "--prefix") || !strstr(err_text, "usage:"))
            fail_msg("--prefix '%s': %s", bad[i], err_text);
        assert_false(exists("%s/%s", "q"));
    }
    assert_non_null(strstr(err_text, "must be 1 to 32 bytes long"));
    assert_int_equal(sh("cd %s && %s gen --prefix str --out-dir %s/q %s", repo, fkcgen, tmp, seed),
                     2);
    assert_non_null(strstr(err_text, "fkcgen gen: --prefix 'str' is reserved by the C library"));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: test_cli REPO FKCGEN\n", stderr);
        return 2;
    }
    repo = argv[1];
    fkcgen = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_same_bytes_any_order_locale_cwd, setup, teardown),
        cmocka_unit_test_setup_teardown(test_check_prints_diff_on_drift, setup, teardown),
        cmocka_unit_test_setup_teardown(test_make_check_generated_fails_on_drift, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unchanged_files_keep_mtime, setup, teardown),
        cmocka_unit_test_setup_teardown(test_contract_error_writes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_entry_point_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_usage_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_output_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_depfile_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefix, setup, teardown),
    };
    return cmocka_run_group_tests_name("fkcgen gen", tests, NULL, NULL);
}
