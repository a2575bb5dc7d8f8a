/* test_conform.c — `fkc-run conform` (path in argv[1], its build with the test hooks in argv[2],
 * run from the repository root): over the
 * seed it passes on the default Vulkan device (lavapipe, validation layer on) and on --cpu; it
 * fails, on the row of the kernel and dtype at fault, on a copy of the seed that omits dtypes
 * the runtime runs, on copies whose rules the kernels do not keep, and on a contract of its
 * own whose deliberately wrong wrappers (tests/cli/conform/wrappers.c) each break one claim,
 * while the same wrappers without a fault pass; bad arguments, contracts, wrappers and tools are
 * refused with clear messages; the temp directory is gone after every run, SIGKILL included.
 * Also unit tests of conform's cases, oracle and ULP comparison (conform_cases.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "conform.h"
#include "fkc/fkc_reference.h"

extern char **environ;

static const char *fkc_run;       /* the binary under test */
static const char *fkc_run_hooks; /* its build with the test hooks (FKC_RUN_TEST_*) */
#define TMPDIR_TEMPLATE "/tmp/fkc-conform-test-XXXXXX"
#include "tmpdir.h"

#define SEED "contracts/vulkan/write_slice.md"
#define OWN "tests/cli/conform/own_kernels.md"
#define WRAPPERS "tests/cli/conform/wrappers.c"

/* ---- running fkc-run ---------------------------------------------------------------------- */

static char out_text[1 << 16], err_text[1 << 16]; /* the last run's stdout and stderr */
static char tmp_env[700];                         /* TMPDIR=<tmpdir>/t: conform's temp dirs */

static void read_into(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
}

/* Entries of <tmpdir>/t, where every run makes its temp dir. */
static int temp_entries(void)
{
    char p[600];
    DIR *d;
    struct dirent *e;
    int n = 0;
    path_of("t", p, sizeof p);
    if (!(d = opendir(p)))
        return -1;
    while ((e = readdir(d)))
        n += !is_dot(e->d_name);
    closedir(d);
    return n;
}

/* argv and envp of one run: fkc-run + the space-separated args; env_extra entries first. */
static void make_argv(const char *args, char *line, size_t cap, char **argv, char **envp,
                      char *const *env_extra)
{
    int argc = 0, envc = 0;
    snprintf(line, cap, "%s", args);
    argv[argc++] = (char *)fkc_run;
    for (char *t = strtok(line, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    for (char *const *e = env_extra; e && *e && envc < 16; e++)
        envp[envc++] = *e;
    envp[envc++] = tmp_env;
    for (char **e = environ; *e && envc < 255; e++)
        if (strncmp(*e, "TMPDIR=", 7) != 0)
            envp[envc++] = *e;
    envp[envc] = NULL;
}

/* Runs `fkc-run ARGS` with extra environment entries; its exit status, stdout in out_text and
 * stderr in err_text. It must leave no temp dir behind. */
static int run(const char *args, char *const *env_extra)
{
    char line[4096], errpath[600], outpath[600], *argv[64], *envp[256];
    make_argv(args, line, sizeof line, argv, envp, env_extra);
    path_of("stderr.txt", errpath, sizeof errpath);
    path_of("stdout.txt", outpath, sizeof outpath);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, outpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int status = -1;
    assert_int_equal(posix_spawn(&pid, fkc_run, &fa, NULL, argv, envp), 0);
    posix_spawn_file_actions_destroy(&fa);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    read_into(outpath, out_text, sizeof out_text);
    read_into(errpath, err_text, sizeof err_text);
    unlink(errpath);
    unlink(outpath);
    assert_true(WIFEXITED(status)); /* never a crash */
    if (temp_entries() != 0)
        fail_msg("'%s' left its temp dir behind", args);
    return WEXITSTATUS(status);
}

/* The row of kernel and dtype ("write_slice", "I8"): its line, or fails the test. */
static const char *row_of(const char *kernel, const char *dtype, char *buf, size_t cap)
{
    for (const char *l = out_text; *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        char k[64], op[64], dt[16];
        if (sscanf(l, "%63s %63s %15s", k, op, dt) == 3 && strcmp(k, kernel) == 0 &&
            strcmp(dt, dtype) == 0 && l[0] != ' ') {
            snprintf(buf, cap, "%.*s", (int)len, l);
            return buf;
        }
        l += len + (end != NULL);
    }
    fail_msg("no row for %s %s in:\n%s", kernel, dtype, out_text);
    return NULL;
}

static bool row_failed(const char *kernel, const char *dtype)
{
    char row[512];
    return strstr(row_of(kernel, dtype, row, sizeof row), "FAIL") != NULL;
}

/* A detail line "  <kernel> <dtype>: ...<text>..." under the rows. */
static bool has_detail(const char *kernel, const char *dtype, const char *text)
{
    char head[128];
    snprintf(head, sizeof head, "\n  %s %s: ", kernel, dtype);
    for (const char *l = strstr(out_text, head); l; l = strstr(l + 1, head)) {
        const char *end = strchr(l + 1, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)len, l);
        if (strstr(line, text))
            return true;
    }
    return false;
}

static const char *const dtypes[FKC_DTYPE_COUNT] = {"F32", "I32", "U32", "F16", "BF16",
                                                    "F64", "I64", "U8",  "I8"};

/* Every row of the seed's two kernels passes, and the summary says so. */
static void assert_seed_passes(void)
{
    for (int d = 0; d < FKC_DTYPE_COUNT; d++) {
        if (row_failed("write_slice", dtypes[d]) || row_failed("write_slice_rotating", dtypes[d]))
            fail_msg("a row failed:\n%s", out_text);
    }
    assert_non_null(strstr(out_text, "conform: 18 rows passed, 0 failed (18 bindings;"));
}

/* A copy of the seed with edits applied ("old" -> "new", each the first occurrence after the
 * previous one), written to the temp dir as name. */
static void seed_copy(const char *name, const char *const *edits, size_t n)
{
    static char text[1 << 16];
    char path[600];
    read_into(SEED, text, sizeof text);
    assert_true(strlen(text) > 1000);
    char *from = text;
    for (size_t i = 0; i < n; i += 2) {
        char *at = strstr(from, edits[i]);
        if (!at)
            fail_msg("seed_copy: no '%s'", edits[i]);
        size_t ol = strlen(edits[i]), nl = strlen(edits[i + 1]);
        memmove(at + nl, at + ol, strlen(at + ol) + 1);
        memcpy(at, edits[i + 1], nl);
        from = at + nl;
    }
    path_of(name, path, sizeof path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char env_sync[] = "VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_"
                         "VALIDATION_EXT";

/* ---- the seed ----------------------------------------------------------------------------- */

/* lavapipe, validation layer with synchronization validation, a fixed seed: every row passes,
 * and every binding ran its cases and refused the 12 keys it does not bind and 2 bad calls. */
static void test_seed_device(void **state)
{
    (void)state;
    char *env[] = {env_sync, NULL}, row[512];
    int rc = run("conform --validate --cases 16 --seed 7 " SEED, env);
    if (rc != 0)
        fail_msg("exit %d:\n%s\n%s", rc, out_text, err_text);
    assert_seed_passes();
    assert_non_null(strstr(out_text, "(validation layer on); 16 cases a binding, seed 7"));
    row_of("write_slice_rotating", "BF16", row, sizeof row);
    char k[64], op[64], dt[16], result[64];
    unsigned cases, passed, failed, refused;
    assert_int_equal(sscanf(row, "%63s %63s %15s %u %u %u %u %63s", k, op, dt, &cases, &passed,
                            &failed, &refused, result),
                     8);
    assert_string_equal(op, "WriteSliceRotating");
    assert_int_equal(cases, 16);
    assert_int_equal(passed, 16);
    assert_int_equal(failed, 0);
    assert_int_equal(refused, 14);
    assert_string_equal(result, "ok");
}

/* --cpu: the same rows pass without a device. */
static void test_seed_cpu(void **state)
{
    (void)state;
    assert_int_equal(run("conform --cpu --cases 16 --seed 7 " SEED, NULL), 0);
    assert_seed_passes();
    assert_non_null(strstr(out_text, "--cpu: the CPU reference"));
    char *env[] = {"VK_DRIVER_FILES=/nonexistent", NULL};
    assert_int_equal(run("conform --cpu --cases 4 " SEED, env), 0); /* no Vulkan needed */
    assert_int_equal(run("conform --cases 4 " SEED, env), 3);
    assert_non_null(strstr(err_text, "no Vulkan device"));
}

/* Same seed, same cases and rows; another seed, other cases. */
static void test_seed_deterministic(void **state)
{
    (void)state;
    static char first[1 << 16];
    assert_int_equal(run("conform --cpu --cases 24 --seed 99 " SEED, NULL), 0);
    snprintf(first, sizeof first, "%s", out_text);
    assert_int_equal(run("conform --cpu --cases 24 --seed 99 " SEED, NULL), 0);
    assert_string_equal(first, out_text);
    const char *a = strstr(first, "cases digest "), *b;
    assert_non_null(a);
    assert_int_equal(run("conform --cpu --cases 24 --seed 100 " SEED, NULL), 0);
    assert_non_null(b = strstr(out_text, "cases digest "));
    assert_true(strncmp(a, b, 29) != 0);
}

/* ---- a contract that omits dtypes the runtime runs ----------------------------------------- */

/* I8 left out of write_slice and BF16 out of write_slice_rotating: the dispatch refuses them
 * (as it must), the runtime runs them, so both rows fail as "works but undeclared", on the
 * device and on --cpu; every other row passes. --allow-undeclared makes both rows pass. */
static void test_omitted_dtype(void **state)
{
    (void)state;
    static const char *const edits[] = {
        "U8, I8] # 9", "U8] # 9",                                         /* write_slice's dtypes */
        "F16, BF16, F64, I64, U8, I8] # 9", "F16, F64, I64, U8, I8] # 9", /* rotating's */
    };
    char cmd[800], row[512];
    seed_copy("omit.md", edits, 4);
    for (int cpu = 0; cpu < 2; cpu++) {
        snprintf(cmd, sizeof cmd, "conform %s--cases 6 %s/omit.md", cpu ? "--cpu " : "", tmpdir);
        assert_int_equal(run(cmd, NULL), 1);
        assert_non_null(
            strstr(row_of("write_slice", "I8", row, sizeof row), "FAIL: works but undeclared"));
        assert_non_null(strstr(row, "WriteSlice"));
        assert_non_null(strstr(row_of("write_slice_rotating", "BF16", row, sizeof row),
                               "FAIL: works but undeclared"));
        assert_true(has_detail("write_slice", "I8", "the runtime runs WriteSlice I8: declare I8"));
        assert_true(has_detail("write_slice_rotating", "BF16",
                               "omit.md:109), or pass "
                               "--allow-undeclared"));
        for (int d = 0; d < FKC_DTYPE_COUNT; d++) {
            assert_true(strcmp(dtypes[d], "I8") == 0 || !row_failed("write_slice", dtypes[d]));
            assert_true(strcmp(dtypes[d], "BF16") == 0 ||
                        !row_failed("write_slice_rotating", dtypes[d]));
        }
        assert_non_null(strstr(out_text, "16 rows passed, 2 failed (16 bindings;"));
        assert_non_null(strstr(err_text, "conform: 2 of 18 rows failed"));
        snprintf(cmd, sizeof cmd, "conform %s--cases 6 --allow-undeclared %s/omit.md",
                 cpu ? "--cpu " : "", tmpdir);
        assert_int_equal(run(cmd, NULL), 0);
        assert_non_null(strstr(row_of("write_slice", "I8", row, sizeof row),
                               "ok, works but undeclared (--allow-undeclared)"));
    }
}

/* ---- kernels that break a claim ------------------------------------------------------------ */

/* Each fault of wrappers.c, the row it must fail (kernel, dtype), what its detail says, and a
 * row of the same run that must still pass. */
static const struct fault {
    const char *name, *kernel, *dtype, *detail, *ok_kernel, *ok_dtype;
} faults[] = {
    {"off_by_one", "test_write_slice", "F32", "output elements differ", "test_write_slice", "F16"},
    {"wrong_byte", "test_write_slice", "BF16", "output elements differ", "test_write_slice", "F32"},
    {"outside", "test_write_slice", "F64", "before its output, changed", "test_write_slice", "U8"},
    {"input", "test_write_slice", "I8", "the input's buffer changed", "test_write_slice", "I64"},
    {"refuse", "test_write_slice", "BF16",
     "refused a valid call: dtype mismatch or unknown "
     "dtype: test_write_slice_b2: BF16 refused (fault)",
     "test_write_slice", "F16"},
    {"accept_invalid", "test_write_slice", "U32", "accepted an invalid call",
     "test_write_slice_rotating", "U32"},
    {"nondeterministic", "test_write_slice", "I64", "a second run differs from the first",
     "test_write_slice", "F64"},
    {"ring_position", "test_write_slice_rotating", "I32", "output elements differ",
     "test_write_slice", "I32"},
};

/* The wrappers without a fault pass: the failures below are the faults'. */
static void test_own_kernels_pass(void **state)
{
    (void)state;
    char *env[] = {env_sync, NULL};
    int rc = run("conform --validate --cases 6 --wrappers " WRAPPERS " " OWN, env);
    if (rc != 0)
        fail_msg("exit %d:\n%s\n%s", rc, out_text, err_text);
    assert_non_null(strstr(out_text, "conform: 18 rows passed, 0 failed"));
}

static void test_wrong_wrappers(void **state)
{
    (void)state;
    char fault_env[64], *env[] = {fault_env, "CONFORM_TEST_CASES=6", NULL};
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
        const struct fault *f = &faults[i];
        snprintf(fault_env, sizeof fault_env, "CONFORM_TEST_FAULT=%s", f->name);
        int rc = run("conform --cases 6 --wrappers " WRAPPERS " " OWN, env);
        if (rc != 1 || !row_failed(f->kernel, f->dtype) ||
            !has_detail(f->kernel, f->dtype, f->detail) || row_failed(f->ok_kernel, f->ok_dtype))
            fail_msg("fault %s (exit %d): want row %s %s to fail with '%s' and %s %s to pass:\n"
                     "%s\n%s",
                     f->name, rc, f->kernel, f->dtype, f->detail, f->ok_kernel, f->ok_dtype,
                     out_text, err_text);
        assert_non_null(strstr(err_text, "rows failed (see above)"));
    }
}

/* Claims of the seed's contract the runtime's kernels do not keep: an output rule, aliasing.
 * And ones they do: a looser precision (max_ulp 2, or 2.5; deterministic) still passes (the
 * edits anchored at a line's start: unanchored, they changed the file's prose, not its first
 * section, and the looser claim was never made). */
static void test_rules(void **state)
{
    (void)state;
    static const char *const same_as[] = {"shape_rule: from_params(dst_shape)",
                                          "shape_rule: same_as(src)"};
    static const char *const offsets[] = {"shape_rule: from_params(dst_shape)",
                                          "shape_rule: from_params(offsets)"};
    static const char *const alias[] = {"aliasing: none", "aliasing: none", /* the first */
                                        "aliasing: none", "aliasing: may_alias_input"};
    static const char *const loose[] = {"\nmax_ulp: 0", "\nmax_ulp: 2", "\ndeterminism: bitwise",
                                        "\ndeterminism: deterministic"};
    static const char *const fractional[] = {
        "\nmax_ulp: 0", "\nmax_ulp: 2.5", "\ndeterminism: bitwise", "\ndeterminism: deterministic"};
    char cmd[800];
    seed_copy("same_as.md", same_as, 2);
    seed_copy("offsets.md", offsets, 2);
    seed_copy("alias.md", alias, 4); /* the second section's aliasing */
    seed_copy("loose.md", loose, 4);
    snprintf(cmd, sizeof cmd, "conform --cases 6 %s/same_as.md", tmpdir);
    assert_int_equal(run(cmd, NULL), 1);
    assert_true(row_failed("write_slice", "F32") && !row_failed("write_slice_rotating", "F32"));
    assert_true(has_detail("write_slice", "U8",
                           "shape_rule same_as(src) gives (1,), but the "
                           "output is (7,)"));
    snprintf(cmd, sizeof cmd, "conform --cpu --cases 6 %s/offsets.md", tmpdir);
    assert_int_equal(run(cmd, NULL), 1);
    assert_true(has_detail("write_slice", "F64",
                           "shape_rule from_params(offsets) gives (6,), "
                           "but the output is (7,)"));
    snprintf(cmd, sizeof cmd, "conform --cases 6 %s/alias.md", tmpdir);
    assert_int_equal(run(cmd, NULL), 1);
    assert_true(row_failed("write_slice_rotating", "F16"));
    assert_false(row_failed("write_slice", "F16"));
    assert_true(has_detail("write_slice_rotating", "I64",
                           "claims aliasing may_alias_input, "
                           "but a call whose input overlaps its output failed"));
    snprintf(cmd, sizeof cmd, "conform --cases 6 %s/loose.md", tmpdir);
    assert_int_equal(run(cmd, NULL), 0);
    /* issue 22: a fractional max_ulp (dump --json writes 2.5, a JSON double) is a claim conform
     * reads (as 2 whole ulps) and checks */
    seed_copy("fractional.md", fractional, 4);
    snprintf(cmd, sizeof cmd, "conform --cases 6 %s/fractional.md", tmpdir);
    assert_int_equal(run(cmd, NULL), 0);
    snprintf(cmd, sizeof cmd, "conform --cases 2 --format json %s/fractional.md", tmpdir);
    assert_int_equal(run(cmd, NULL), 0); /* the report's claim is the one stated */
    assert_non_null(strstr(out_text, "\"claimed\": {\n"));
    assert_non_null(strstr(out_text, "\"max_ulp\": 2.5"));
}

static void expand(const char *text, char *out, size_t cap);

/* ---- generated code that does not refuse what it must ---------------------------------- */

/* tests/cli/conform/mutating_fkcgen.sh breaks the generated dispatch after the real fkcgen
 * wrote it: conform must name each fault on the row of the binding (or undeclared dtype) it
 * touches. */
static void test_mutated_dispatch(void **state)
{
    (void)state;
    static const char *const omit[] = {"U8, I8] # 9", "U8] # 9"};
    static const struct {
        const char *mutation, *contract, *kernel, *dtype, *detail;
    } m[] = {
        {"keys", SEED, "write_slice", "F32",
         "the dispatch of the unbound key [F32, I32] on Vulkan gives ok, not FKC_ERR_NO_KERNEL"},
        {"backend", SEED, "write_slice_rotating", "U8",
         "the dispatch of [U8, U8] on Cuda, which no contract binds, gives ok"},
        {"width", SEED, "write_slice", "BF16",
         "the generated dispatch and binding lookup return different kernels"},
        {"undeclared", "@omit.md", "write_slice", "I8",
         "no contract binds [I8, I8] on Vulkan, but the dispatch gives ok"},
    };
    char fkcgen[700], mutation[64], cmd[1024], contract[700];
    char *env[] = {fkcgen, mutation, NULL};
    snprintf(fkcgen, sizeof fkcgen, "CONFORM_TEST_FKCGEN=%.*sfkcgen",
             (int)(strrchr(fkc_run, '/') ? strrchr(fkc_run, '/') - fkc_run + 1 : 0), fkc_run);
    seed_copy("omit.md", omit, 2);
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        snprintf(mutation, sizeof mutation, "CONFORM_TEST_MUTATION=%s", m[i].mutation);
        expand(m[i].contract, contract, sizeof contract);
        snprintf(cmd, sizeof cmd,
                 "conform --cpu --cases 3 --allow-undeclared --fkcgen "
                 "tests/cli/conform/mutating_fkcgen.sh %s",
                 contract);
        int rc = run(cmd, env);
        if (rc != 1 || !row_failed(m[i].kernel, m[i].dtype) ||
            !has_detail(m[i].kernel, m[i].dtype, m[i].detail))
            fail_msg("mutation %s (exit %d): want row %s %s to fail with '%s':\n%s\n%s",
                     m[i].mutation, rc, m[i].kernel, m[i].dtype, m[i].detail, out_text, err_text);
    }
}

/* ---- errors ----------------------------------------------------------------------------------- */

static const struct bad {
    const char *args;
    int exit_code;
    const char *message; /* in stderr */
} bad_args[] = {
    {"conform", 2, "fkc-run: conform: missing the contracts (CONTRACT.md...)"},
    {"conform --cases 0 " SEED, 2, "--cases: '0' is not a case count 1..100000"},
    {"conform --cases 100001 " SEED, 2, "--cases: '100001' is not a case count"},
    {"conform --seed x " SEED, 2, "--seed: 'x' is not a non-negative integer"},
    {"conform --cpu --measure " SEED, 2, "--cpu and --measure (a device time) exclude"},
    {"conform --cpu --device 0 " SEED, 2, "--cpu and --device exclude each other"},
    {"conform --sizes 4K " SEED, 2, "--sizes: only with --measure"},
    {"conform --measure --sizes 4Q " SEED, 2, "--sizes: '4Q' is not a size"},
    {"conform --prefix 9a " SEED, 2, "--prefix: '9a' is not a C identifier"},
    {"conform --case 3 " SEED, 2, "unknown option '--case'; did you mean '--cases'?"},
    {"conform --offsets 1 " SEED, 2, "--offsets is not an option of 'conform'"},
    {"conform --fkcgen " SEED, 2, "conform: missing the contracts"}, /* --fkcgen took it */
    {"conform --wrappers @nothere.c " SEED, 1, "--wrappers @nothere.c: No such file"},
    {"conform --wrappers @ " SEED, 1, "not a regular file"},
    {"conform --fkcgen /nonexistent/fkcgen " SEED, 1,
     "--fkcgen /nonexistent/fkcgen: no fkcgen there"},
    {"conform @missing.md", 1, "fkcgen dump refused the contracts"},
    {"conform " OWN, 1, "undefined symbol: fkc_test_write_slice_b"},
    {"conform examples/c-backend/fill/fill.md", 1,
     "the contracts bind no op kind conform can check (WriteSlice, WriteSliceRotating, "
     "SetRows: the runtime's kernel families); they bind Fill"},
};

static void expand(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < cap; p++)
        n += *p == '@' ? (size_t)snprintf(out + n, cap - n, "%s/", tmpdir) : (out[n] = *p, 1);
    out[n < cap ? n : cap - 1] = '\0';
}

static void test_bad_arguments(void **state)
{
    (void)state;
    char args[1024], msg[1024];
    assert_int_equal(run("conform --help", NULL), 0); /* the command's own usage */
    assert_non_null(strstr(out_text, "usage: fkc-run conform CONTRACT.md... [OPTIONS]"));
    assert_non_null(strstr(out_text, "--allow-undeclared"));
    assert_null(strstr(out_text, "--offsets"));
    for (size_t i = 0; i < sizeof bad_args / sizeof bad_args[0]; i++) {
        expand(bad_args[i].args, args, sizeof args);
        expand(bad_args[i].message, msg, sizeof msg);
        int rc = run(args, NULL);
        if (rc != bad_args[i].exit_code || !strstr(err_text, msg))
            fail_msg("'%s': exit %d (want %d), stderr:\n%s(want '%s')", args, rc,
                     bad_args[i].exit_code, err_text, msg);
        assert_string_equal(out_text, ""); /* nothing printed before the refusal */
    }
}

/* A contract fkcgen refuses: its diagnostics come through with file, line and column. */
static void test_invalid_contract(void **state)
{
    (void)state;
    static const char *const edits[] = {"dtypes: [F32,", "dtypes: [F33,"};
    char cmd[800], want[800];
    seed_copy("bad.md", edits, 2);
    snprintf(cmd, sizeof cmd, "conform %s/bad.md", tmpdir);
    assert_int_equal(run(cmd, NULL), 1);
    snprintf(want, sizeof want,
             "%s/bad.md:63:10: error: dtype: unknown value 'F33'; did you "
             "mean 'F32'?",
             tmpdir);
    assert_non_null(strstr(err_text, want));
    assert_non_null(strstr(err_text, "fkc-run: conform: fkcgen dump refused the contracts (its "
                                     "messages are above)"));
}

/* The tools: $FKCGEN, $CC (split at blanks), $CFLAGS reaching the wrappers, a compiler that is
 * missing, wrappers that do not compile, a signature conform cannot call. */
static void test_tools(void **state)
{
    (void)state;
    char *bad_fkcgen[] = {"FKCGEN=/nonexistent/fkcgen2", NULL};
    assert_int_equal(run("conform --cpu --cases 2 " SEED, bad_fkcgen), 1);
    assert_non_null(strstr(err_text, "FKCGEN /nonexistent/fkcgen2: no fkcgen there"));
    char *no_cc[] = {"CC=/nonexistent/cc", NULL};
    assert_int_equal(run("conform --cpu --cases 2 " SEED, no_cc), 1);
    assert_non_null(strstr(err_text, "cannot run the C compiler '/nonexistent/cc': No such file"));
    char *cc_words[] = {"CC=cc -O0 -DUNUSED_FLAG", NULL};
    assert_int_equal(run("conform --cpu --cases 2 " SEED, cc_words), 0);
    char *broken[] = {"CFLAGS=-DCONFORM_TEST_BROKEN", NULL};
    assert_int_equal(run("conform --cpu --cases 2 --wrappers " WRAPPERS " " OWN, broken), 1);
    assert_non_null(strstr(err_text, "CFLAGS reached the wrappers"));
    assert_non_null(strstr(err_text, "the C compiler 'cc' failed (exit status 1) on the bindings "
                                     "and the --wrappers files"));
    /* a field the runtime's params lack */
    char path[600], text[1 << 15];
    read_into(OWN, text, sizeof text);
    char *cut = strstr(text, "## test_write_slice_rotating"), *at = strstr(text, "offsets: {");
    assert_non_null(cut);
    assert_non_null(at);
    *cut = '\0';
    path_of("field.md", path, sizeof path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "%.*sstride: { kind: usize }\n%s", (int)(at - text), text, at);
    fclose(f);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "conform --cpu --wrappers %s %s", WRAPPERS, path);
    assert_int_equal(run(cmd, NULL), 1);
    assert_non_null(strstr(err_text,
                           "field.md:33:1: error: field 'stride' of WriteSlice is not "
                           "one of the runtime's: the runtime has 'offsets' (Vec<usize>) here"));
}

/* The pid a test compiler wrote to path, or 0. */
static pid_t read_pid(const char *path)
{
    char text[32] = "";
    read_into(path, text, sizeof text);
    unlink(path);
    return (pid_t)strtol(text, NULL, 10);
}

/* Whether pid is gone, or a zombie (killed, not yet reaped by whoever inherited it). */
static bool is_dead(pid_t pid)
{
    char path[64], text[512] = "";
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *paren = strrchr(text, ')'); /* "pid (comm) S ..." */
    return !paren || paren[1] != ' ' || paren[2] == 'Z' || paren[2] == 'X';
}

/* Dead within about 5 s: a SIGKILLed process still exits and is reaped asynchronously. */
static bool dies(pid_t pid)
{
    struct timespec nap = {0, 10000000};
    for (int i = 0; i < 500 && !is_dead(pid); i++)
        nanosleep(&nap, NULL);
    return is_dead(pid);
}

/* --cc-timeout: a compiler that never finishes is killed with its whole process group (its
 * sleeping child too: killing the shell alone would leave it), conform fails saying so, and
 * its temp dir is gone (run checks). Without the limit conform waited forever. */
static void test_cc_timeout(void **state)
{
    (void)state;
    char pidfile[600], env_pid[700];
    path_of("cc.pid", pidfile, sizeof pidfile);
    snprintf(env_pid, sizeof env_pid, "CONFORM_TEST_PIDFILE=%s", pidfile);
    char *extra[] = {"CC=sh tests/cli/conform/cc_hang.sh", env_pid, NULL};
    assert_int_equal(run("conform --cpu --cases 2 --cc-timeout 1 " SEED, extra), 1);
    assert_non_null(strstr(err_text, "conform: the C compiler 'sh' did not finish in 1 s "
                                     "(--cc-timeout); it and its process group were killed"));
    pid_t child = read_pid(pidfile);
    assert_true(child > 0);
    assert_true(dies(child));
    assert_int_equal(run("conform --cpu --cc-timeout 0 " SEED, NULL), 2);
    assert_non_null(strstr(err_text, "--cc-timeout: '0' is not a number of seconds from 1 to "
                                     "86400"));
}

/* A compiler wrapper that leaves a daemon holding the descriptors it inherited (as sccache
 * starts its server): conform passes and returns while the daemon still runs; before, it
 * waited for the daemon to exit (its cleaner waited for every holder of its pipe). */
static void test_cc_daemon(void **state)
{
    (void)state;
    char pidfile[600], env_pid[700];
    path_of("daemon.pid", pidfile, sizeof pidfile);
    snprintf(env_pid, sizeof env_pid, "CONFORM_TEST_PIDFILE=%s", pidfile);
    char *extra[] = {"CC=sh tests/cli/conform/cc_daemon.sh", env_pid,
                     "CONFORM_TEST_DAEMON_SECONDS=120", NULL};
    assert_int_equal(run("conform --cpu --cases 2 " SEED, extra), 0);
    pid_t daemon = read_pid(pidfile);
    assert_true(daemon > 0);
    bool alive = !is_dead(daemon);
    kill(daemon, SIGTERM); /* ours: the wrapper started it for this test */
    assert_true(alive);
    assert_true(dies(daemon));
}

/* --measure: a row per binding and size, with the bandwidth bytes_moved and the time imply. */
static void test_measure(void **state)
{
    (void)state;
    assert_int_equal(run("conform --cases 2 --measure --sizes 4K,16K " SEED, NULL), 0);
    assert_non_null(strstr(out_text, "\nmeasure: device time of one op"));
    int rows = 0;
    for (const char *l = strstr(out_text, "\nmeasure:"); (l = strchr(l + 1, '\n'));) {
        char k[64], dt[16], unit[8], gbs[32];
        unsigned size;
        double moved, us;
        if (sscanf(l + 1, "%63s %15s %u %7s %lf %lf %31s", k, dt, &size, unit, &moved, &us, gbs) ==
            7) {
            rows++;
            assert_true(moved == 2.0 * size * 1024); /* 2 * n * dtype_bytes */
            assert_true(us > 0);
            /* the bandwidth printed is the one moved and the time imply (both printed rounded:
             * the time to 0.1 us, the bandwidth to 0.01 GB/s), not a speed the machine must
             * reach: on a loaded machine 8 KiB can take long enough to print 0.00 */
            double g = strtod(gbs, NULL), lo_us = us - 0.05 > 0.001 ? us - 0.05 : 0.001;
            assert_true(g >= moved / ((us + 0.05) * 1e3) - 0.0051);
            assert_true(g <= moved / (lo_us * 1e3) + 0.0051);
        }
    }
    assert_int_equal(rows, 18 * 2);
}

/* ---- the temp dir on every exit ---------------------------------------------------------- */

/* A run paused with its temp dir full (FKC_RUN_TEST_PAUSE_CONFORM), killed with sig: no temp
 * dir is left once its cleaner is done (the cleaner holds stdout: EOF there means done). */
static int killed_run(int sig)
{
    char line[1024], *argv[64], *envp[256];
    char *extra[] = {"FKC_RUN_TEST_PAUSE_CONFORM=600", NULL};
    int out[2], err[2], status;
    make_argv("conform --cpu --cases 2 " SEED, line, sizeof line, argv, envp, extra);
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(err), 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    posix_spawn_file_actions_addclose(&fa, err[0]);
    pid_t pid;
    argv[0] = (char *)fkc_run_hooks; /* the shipped fkc-run has no pause hook */
    assert_int_equal(posix_spawn(&pid, fkc_run_hooks, &fa, NULL, argv, envp), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    close(err[1]);
    char buf[4096];
    size_t n = 0;
    ssize_t r;
    while (!memchr(buf, '\n', n) && (r = read(err[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)r;
    buf[n] = '\0';
    if (!strstr(buf, "conform: test pause in "))
        fail_msg("no pause line: %s", buf);
    assert_int_equal(temp_entries(), 1); /* the temp dir exists while it runs */
    assert_int_equal(kill(pid, sig), 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    while ((r = read(out[0], buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR))
        ;
    close(out[0]);
    close(err[0]);
    assert_int_equal(temp_entries(), 0);
    return status;
}

static void test_killed(void **state)
{
    (void)state;
    int st = killed_run(SIGKILL);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    st = killed_run(SIGTERM);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGTERM);
}

/* ---- unit tests of conform_cases.c ------------------------------------------------------------ */

static uint64_t ulp32(uint32_t a, uint32_t b)
{
    return conform_ulp_distance(FKC_DTYPE_F32, &a, &b);
}

static void test_ulp_distance(void **state)
{
    (void)state;
    assert_true(ulp32(0x3f800000, 0x3f800001) == 1);
    assert_true(ulp32(0x3f800001, 0x3f800000) == 1);
    assert_true(ulp32(0x00000000, 0x80000000) == 1); /* +0, -0 */
    assert_true(ulp32(0x80000001, 0x00000001) == 3); /* -min, -0, +0, +min */
    assert_true(ulp32(0x3f800000, 0xbf800000) == 2 * (uint64_t)0x3f800000 + 1);
    assert_true(ulp32(0x7f7fffff, 0x7f800000) == 1); /* max finite, inf */
    assert_true(ulp32(0x7fc00000, 0x7fc00001) == 0); /* NaN, NaN */
    assert_true(ulp32(0x7fc00000, 0x3f800000) == UINT64_MAX);
    uint16_t h[2] = {0x3c00, 0x3c01}, bf[2] = {0x3f80, 0x3f81}, hn[2] = {0x7e00, 0x3c00};
    assert_true(conform_ulp_distance(FKC_DTYPE_F16, &h[0], &h[1]) == 1);
    assert_true(conform_ulp_distance(FKC_DTYPE_BF16, &bf[0], &bf[1]) == 1);
    assert_true(conform_ulp_distance(FKC_DTYPE_F16, &hn[0], &hn[1]) == UINT64_MAX);
    double d[2] = {1.0, nextafter(1.0, 2.0)};
    assert_true(conform_ulp_distance(FKC_DTYPE_F64, &d[0], &d[1]) == 1);
    int8_t i8[2] = {-128, 127};
    uint8_t u8[2] = {0, 255};
    int64_t i64[2] = {INT64_MIN, INT64_MAX};
    int32_t i32[2] = {-1, 1};
    uint64_t u64 = 5;
    assert_true(conform_ulp_distance(FKC_DTYPE_I8, &i8[0], &i8[1]) == 255);
    assert_true(conform_ulp_distance(FKC_DTYPE_U8, &u8[0], &u8[1]) == 255);
    assert_true(conform_ulp_distance(FKC_DTYPE_I64, &i64[0], &i64[1]) == UINT64_MAX);
    assert_true(conform_ulp_distance(FKC_DTYPE_I32, &i32[0], &i32[1]) == 2);
    (void)u64;
}

static void test_element_ok(void **state)
{
    (void)state;
    conform_tolerance exact = {0, 0, 0}, one = {1, 0, 0}, abs_half = {0, 0.5, 0}, rel = {0, 0, 0.1},
                      abs2 = {0, 2, 0};
    float f[] = {1.0f,
                 nextafterf(1.0f, 2.0f),
                 nextafterf(nextafterf(1.0f, 2.0f), 2.0f),
                 1.25f,
                 1.75f,
                 10.0f,
                 10.9f,
                 11.5f};
    uint32_t nan1 = 0x7fc00000, nan2 = 0x7fc00001;
    assert_true(conform_element_ok(FKC_DTYPE_F32, &f[0], &f[0], &exact));
    assert_false(conform_element_ok(FKC_DTYPE_F32, &f[1], &f[0], &exact));
    assert_false(conform_element_ok(FKC_DTYPE_F32, &nan2, &nan1, &exact)); /* bytes */
    assert_true(conform_element_ok(FKC_DTYPE_F32, &f[1], &f[0], &one));
    assert_false(conform_element_ok(FKC_DTYPE_F32, &f[2], &f[0], &one));
    assert_true(conform_element_ok(FKC_DTYPE_F32, &nan2, &nan1, &one));
    assert_false(conform_element_ok(FKC_DTYPE_F32, &nan1, &f[0], &one));
    assert_true(conform_element_ok(FKC_DTYPE_F32, &f[3], &f[0], &abs_half));
    assert_false(conform_element_ok(FKC_DTYPE_F32, &f[4], &f[0], &abs_half));
    assert_true(conform_element_ok(FKC_DTYPE_F32, &f[6], &f[5], &rel));
    assert_false(conform_element_ok(FKC_DTYPE_F32, &f[7], &f[5], &rel));
    int32_t i[] = {5, 7, 8};
    assert_true(conform_element_ok(FKC_DTYPE_I32, &i[1], &i[0], &abs2));
    assert_false(conform_element_ok(FKC_DTYPE_I32, &i[2], &i[0], &abs2));
    uint16_t h[] = {0x3c00, 0x3c01, 0x3c02}; /* F16 1.0 and the next two */
    assert_true(conform_element_ok(FKC_DTYPE_F16, &h[1], &h[0], &one));
    assert_false(conform_element_ok(FKC_DTYPE_F16, &h[2], &h[0], &one));
}

/* Every case is valid, and conform's oracle agrees with the reference byte for byte on the
 * edge cases and 3,000 random ones of each op (so --cpu's comparison means something). */
static void test_oracle_agrees(void **state)
{
    (void)state;
    enum { N = 3000 };
    static conform_case cs[N];
    static unsigned char d1[1 << 16], d2[1 << 16], src[1 << 16];
    conform_rng r = {42};
    for (int op = 0; op < CONFORM_SET_ROWS; op++) { /* SetRows: conform_set_rows.c's own cases */
        conform_make_cases((conform_op)op, 0, 7, N, cs);
        assert_non_null(cs[0].what); /* the edge cases come first */
        for (size_t i = 0; i < N; i++) {
            size_t elem = (size_t)1 << conform_rng_below(&r, 4);
            size_t nd = conform_dst_count(&cs[i]) * elem, ns = conform_src_count(&cs[i]) * elem;
            assert_true(nd <= sizeof d1 && ns <= sizeof src);
            for (size_t k = 0; k < nd; k++)
                d1[k] = d2[k] = (unsigned char)conform_rng_next(&r);
            for (size_t k = 0; k < ns; k++)
                src[k] = (unsigned char)conform_rng_next(&r);
            char text[512];
            conform_case_text((conform_op)op, &cs[i], text, sizeof text);
            if (conform_reference((conform_op)op, &cs[i], d1, src, elem) != FKC_OK)
                fail_msg("the reference refuses case %zu: %s", i, text);
            conform_oracle((conform_op)op, &cs[i], d2, src, elem);
            if (memcmp(d1, d2, nd) != 0)
                fail_msg("oracle and reference differ on case %zu: %s", i, text);
        }
    }
}

/* Cases depend on the seed alone; a fixed rank gives only that rank; the edge cases cover rank
 * 1 and 8, extent 1, a write crossing the ring end and positions near 2^64 - 1. */
static void test_cases(void **state)
{
    (void)state;
    static conform_case a[64], b[64];
    conform_make_cases(CONFORM_ROTATING, 0, 5, 64, a);
    conform_make_cases(CONFORM_ROTATING, 0, 5, 64, b);
    assert_memory_equal(a, b, sizeof a);
    conform_make_cases(CONFORM_ROTATING, 0, 6, 64, b);
    assert_memory_not_equal(a + 20, b + 20, sizeof a - 20 * sizeof a[0]);
    bool rank1 = false, rank8 = false, near_max = false, crossing = false;
    for (int i = 0; i < 64; i++) {
        rank1 |= a[i].rank == 1;
        rank8 |= a[i].rank == 8;
        near_max |= a[i].position >= UINT64_MAX - 16;
        crossing |= a[i].src[a[i].ring_axis] < a[i].capacity &&
                    a[i].position % a[i].capacity + a[i].src[a[i].ring_axis] > a[i].capacity;
    }
    assert_true(rank1 && rank8 && near_max && crossing);
    conform_make_cases(CONFORM_WRITE_SLICE, 3, 5, 64, a);
    for (int i = 0; i < 64; i++)
        assert_int_equal(a[i].rank, 3);
}

static int setup(void **state)
{
    char p[600];
    (void)state;
    if (tmpdir_make() != 0)
        return -1;
    path_of("t", p, sizeof p);
    snprintf(tmp_env, sizeof tmp_env, "TMPDIR=%s", p);
    (void)dir_entries; /* tmpdir.h's; this file counts <tmpdir>/t instead */
    return mkdir(p, 0700);
}

static int teardown(void **state)
{
    char p[600];
    (void)state;
    path_of("t", p, sizeof p);
    rmdir(p);
    return tmpdir_remove();
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr,
                "usage: %s PATH/TO/fkc-run PATH/TO/fkc-run-hooks (from the repository "
                "root)\n",
                argv[0]);
        return 2;
    }
    fkc_run = argv[1];
    fkc_run_hooks = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ulp_distance),
        cmocka_unit_test(test_element_ok),
        cmocka_unit_test(test_oracle_agrees),
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_seed_device),
        cmocka_unit_test(test_seed_cpu),
        cmocka_unit_test(test_seed_deterministic),
        cmocka_unit_test(test_omitted_dtype),
        cmocka_unit_test(test_own_kernels_pass),
        cmocka_unit_test(test_wrong_wrappers),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_mutated_dispatch),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_invalid_contract),
        cmocka_unit_test(test_tools),
        cmocka_unit_test(test_cc_timeout),
        cmocka_unit_test(test_cc_daemon),
        cmocka_unit_test(test_measure),
        cmocka_unit_test(test_killed),
    };
    return cmocka_run_group_tests_name("cli-conform", tests, setup, teardown);
}
