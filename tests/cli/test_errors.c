/* test_errors.c — runs the real build/fkc-run (path in argv[1]) on bad files, shapes and
 * arguments: each must exit non-zero with a one-line message naming the file or argument, and
 * leave no output file (nor a temp file) behind; an existing output stays untouched. Op errors
 * are checked on the CPU path and on the Vulkan path alike. Also: with Vulkan pointed nowhere
 * the device path says so (exit 3) while --cpu still works. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *fkc_run; /* the binary under test */
#define TMPDIR_TEMPLATE "/tmp/fkc-cli-test-XXXXXX"
#include "tmpdir.h"

/* ---- helpers ------------------------------------------------------------------------------ */


/* Replaces each '@' in text with tmpdir + "/". */
static void expand(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < cap; p++) {
        if (*p == '@')
            n += (size_t)snprintf(out + n, cap - n, "%s/", tmpdir);
        else
            out[n++] = *p;
    }
    out[n < cap ? n : cap - 1] = '\0';
}

static char *read_text(const char *path)
{
    static char buf[8192];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

static char out_text[8192]; /* the stdout of run's last command */

/* Runs fkc-run with the space-separated args ('@' expanded) and extra environment entries;
 * returns the exit status; stderr's text goes to *err_text. */
static int run(const char *args, char *const *env_extra, char **err_text)
{
    char line[2048], errpath[512], outpath[512];
    char *argv[40], *envp[256];
    int argc = 0, envc = 0;
    expand(args, line, sizeof line);
    argv[argc++] = (char *)fkc_run;
    for (char *t = strtok(line, " "); t && argc < 39; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    for (char *const *e = env_extra; e && *e && envc < 16; e++)
        envp[envc++] = *e;
    for (char **e = environ; *e && envc < 255; e++)
        envp[envc++] = *e;
    envp[envc] = NULL;
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
    snprintf(out_text, sizeof out_text, "%s", read_text(outpath));
    *err_text = read_text(errpath);
    unlink(errpath);
    unlink(outpath);
    assert_true(WIFEXITED(status)); /* never a crash */
    return WEXITSTATUS(status);
}


static void put_bytes(const char *name, const void *bytes, size_t n)
{
    char p[512];
    path_of(name, p, sizeof p);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

/* A v1.0 .npy file with this header dict and `data` zero bytes. */
static void put_npy(const char *name, const char *dict, size_t data)
{
    unsigned char buf[1024] = {0};
    size_t n = strlen(dict), hlen = n + 1;
    hlen += (64 - (10 + hlen) % 64) % 64;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)hlen;
    buf[9] = (unsigned char)(hlen >> 8);
    memset(buf + 10, ' ', hlen);
    memcpy(buf + 10, dict, n);
    buf[10 + hlen - 1] = '\n';
    put_bytes(name, buf, 10 + hlen + data);
}

static int setup(void **state)
{
    char *err;
    (void)state;
    if (tmpdir_make() != 0)
        return -1;
    static const char *const fixtures[] = {
        "iota --shape 4,6 --dtype f32 -o @d.npy",
        "iota --shape 2,3 --dtype f32 --start 100 -o @s.npy",
        "iota --shape 2,3 --dtype i32 -o @s_i32.npy",
        "iota --shape 1,2,3 --dtype f32 -o @s_rank3.npy",
        "iota --shape 2,7 --dtype f32 -o @s_wide.npy",
        "iota --shape 4,4 --dtype f32 -o @square.npy",
        "iota --shape 4,6 --dtype bf16 -o @d_u2.npy",
        "iota --shape 2,3 --dtype bf16 -o @s_u2.npy",
    };
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        if (run(fixtures[i], NULL, &err) != 0) {
            fprintf(stderr, "fixture '%s' failed: %s", fixtures[i], err);
            return -1;
        }
    }
    put_npy("fortran.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24);
    put_npy("bigend.npy", "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", 24);
    put_npy("i2.npy", "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }", 12);
    put_npy("rank0.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4);
    put_npy("rank9.npy",
            "{'descr': '<f4', 'fortran_order': False, 'shape': "
            "(1, 1, 1, 1, 1, 1, 1, 1, 1), }",
            4);
    put_npy("short.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 20);
    put_npy("huge.npy",
            "{'descr': '<f8', 'fortran_order': False, 'shape': "
            "(4294967296, 4294967296), }",
            0);
    put_npy("baddict.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }", 24);
    put_bytes("magic.npy", "PK\x03\x04 not an npy file at all", 28);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return tmpdir_remove();
}

/* ---- bad inputs --------------------------------------------------------------------------- */

typedef struct bad_case {
    const char *args; /* without -o; '@' is the temp dir */
    int exit_code;
    const char *message; /* expected in stderr ('@' expanded) */
} bad_case;

#define WS "write_slice --dst @d.npy --src "
#define ROT "write_slice_rotating --dst @d.npy --src "

/* Op errors, found before any device work: checked with and without --cpu. */
static const bad_case op_cases[] = {
    {WS "@s.npy --offsets 3,0", 1, "on axis 0, offset 3 + @s.npy extent 2 exceeds @d.npy extent 4"},
    {WS "@s.npy --offsets 0,4", 1, "on axis 1, offset 4 + @s.npy extent 3 exceeds @d.npy extent 6"},
    {WS "@s.npy --offsets 18446744073709551615,0", 1, "on axis 0, offset 18446744073709551615"},
    {WS "@s.npy --offsets 1", 1, "--offsets has 1 values but @d.npy has rank 2"},
    {WS "@s_i32.npy --offsets 0,0", 1, "@s_i32.npy is I32 but @d.npy is F32"},
    {WS "@s_rank3.npy --offsets 0,0", 1, "@s_rank3.npy has rank 3 but @d.npy has rank 2"},
    {WS "@missing.npy --offsets 0,0", 1, "@missing.npy: cannot open: No such file"},
    {WS "@magic.npy --offsets 0,0", 1, "@magic.npy: not a .npy file (bad magic)"},
    {WS "@fortran.npy --offsets 0,0", 1, "@fortran.npy: fortran_order is True"},
    {WS "@bigend.npy --offsets 0,0", 1, "@bigend.npy: dtype '>f4' is big-endian"},
    {WS "@i2.npy --offsets 0,0", 1, "@i2.npy: dtype '<i2' is not supported"},
    {WS "@rank0.npy --offsets 0", 1, "@rank0.npy: rank 0 is not supported"},
    {WS "@rank9.npy --offsets 0", 1, "@rank9.npy: rank 9 is not supported"},
    {WS "@short.npy --offsets 0,0", 1,
     "@short.npy: file is 148 bytes but its header describes 152"},
    {WS "@huge.npy --offsets 0,0", 1, "@huge.npy: the shape's byte size overflows"},
    {WS "@baddict.npy --offsets 0,0", 1,
     "@baddict.npy: bad .npy header: column 54: expected ',' or ')' after an extent"},
    {WS "@s_u2.npy --offsets 0,0", 1,
     "@s_u2.npy: dtype '<u2' (uint16) is not an fkc dtype; pass --dtype bf16"},
    {WS "@s.npy --offsets 0,0 --dtype bf16", 1, "@d.npy: dtype '<f4' does not hold BF16"},
    {WS "@s.npy --offsets 0,0 --dtype i32", 1, "@d.npy: dtype '<f4' is F32 but --dtype says I32"},
    {WS "@tmp --offsets 0,0", 1, "not a regular file"},
    {ROT "@s.npy --capacity 5 --position 0", 1,
     "--capacity 5: no axis of @d.npy (4, 6) has that extent"},
    {ROT "@s.npy --capacity 6 --position 0 --axis 0", 1,
     "--axis 0: @d.npy has extent 4 there, not the --capacity 6"},
    {ROT "@s.npy --capacity 4 --position 0 --axis 2", 1,
     "--axis 2 is out of range: @d.npy has rank 2"},
    {ROT "@s_wide.npy --capacity 4 --position 0", 1,
     "on axis 1, @s_wide.npy extent 7 exceeds @d.npy extent 6"},
    {"write_slice_rotating --dst @square.npy --src @s.npy --capacity 4 --position 0", 1,
     "--capacity 4: 2 axes of @square.npy (4, 4) have that extent; pass --axis"},
};

/* Argument errors (exit 2) and output-path errors. */
static const bad_case other_cases[] = {
    {"write_slice --dst @d.npy --src @s.npy --cpu", 2, "write_slice: missing --offsets"},
    {"write_slice --dst @d.npy --src @s.npy --offsets 0,x --cpu", 2, "--offsets: 'x' in '0,x'"},
    {"write_slice_rotating --dst @d.npy --src @s.npy --capacity 4 --position -3 --cpu", 2,
     "--position: '-3' is not"},
    {"write_slice --dst @d.npy --src @s.npy --offsets 0,0 --dtype", 2,
     "--dtype: unknown dtype '-o'"},
    {"write_slice --dst @d.npy --src @s.npy --offsets 0,0 --frob", 2, "unknown option '--frob'"},
    {"bogus", 2, "unknown command 'bogus'"},
    /* did-you-mean: the command's own options first, like fkcgen's */
    {"write_slice --dst @d.npy --src @s.npy --offset 0,0", 2,
     "unknown option '--offset'; did you mean '--offsets'? (see fkc-run write_slice --help)"},
    {"write_slice_rotating --dst @d.npy --src @s.npy --capacty=4", 2,
     "unknown option '--capacty'; did you mean '--capacity'?"},
    {"writ_slice --dst @d.npy", 2, "unknown command 'writ_slice'; did you mean 'write_slice'?"},
};

/* `fkc-run CMD --help` prints that command's usage and options (stdout, exit 0); the global
 * --help lists the commands. */
static void test_command_help(void **state)
{
    (void)state;
    const char *cmds[] = {"write_slice", "write_slice_rotating", "devices", "iota", "show",
                          "version"};
    char args[128], want[128], *err;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        snprintf(args, sizeof args, "%s --help", cmds[i]);
        assert_int_equal(run(args, NULL, &err), 0);
        assert_string_equal(err, "");
        snprintf(want, sizeof want, "usage: fkc-run %s", cmds[i]);
        if (strncmp(out_text, want, strlen(want)) != 0)
            fail_msg("'%s' printed '%.200s'", args, out_text);
        assert_null(strstr(out_text, "commands:")); /* not the global help */
    }
    assert_int_equal(run("write_slice --dst @d.npy -h", NULL, &err), 0);
    assert_non_null(strstr(out_text, "--offsets O0,O1,...  (required)"));
    assert_null(strstr(out_text, "--capacity"));
    assert_int_equal(run("--help", NULL, &err), 0);
    assert_non_null(strstr(out_text, "commands:"));
}

/* --opt=VALUE and --opt VALUE alike; `show` prints rank >= 3 nested like NumPy's, a blank line
 * between planes (two between blocks of planes); rank 2 stays one "  [...]" line a row. */
static void test_show_nested(void **state)
{
    (void)state;
    char *err;
    assert_int_equal(run("iota --shape=2,2,3 --dtype i32 --out=@r3.npy", NULL, &err), 0);
    assert_int_equal(run("show @r3.npy", NULL, &err), 0);
    assert_non_null(strstr(out_text, "I32 (2, 2, 3)\n"
                                     "  [[[0 1 2]\n"
                                     "    [3 4 5]]\n"
                                     "\n"
                                     "   [[6 7 8]\n"
                                     "    [9 10 11]]]\n"));
    assert_int_equal(run("iota --shape 2,2,1,2 --dtype=u8 -o @r4.npy", NULL, &err), 0);
    assert_int_equal(run("show @r4.npy", NULL, &err), 0);
    assert_non_null(strstr(out_text, "U8 (2, 2, 1, 2)\n"
                                     "  [[[[0 1]]\n"
                                     "\n"
                                     "    [[2 3]]]\n"
                                     "\n"
                                     "\n"
                                     "   [[[4 5]]\n"
                                     "\n"
                                     "    [[6 7]]]]\n"));
    assert_int_equal(run("iota --shape 2,3 --dtype i8 -o @r2.npy", NULL, &err), 0);
    assert_int_equal(run("show @r2.npy", NULL, &err), 0);
    assert_non_null(strstr(out_text, "I8 (2, 3)\n  [0 1 2]\n  [3 4 5]\n"));
    char p[512];
    const char *names[] = {"r3.npy", "r4.npy", "r2.npy"};
    for (size_t i = 0; i < 3; i++) {
        path_of(names[i], p, sizeof p);
        unlink(p);
    }
}

/* One bad case: exit code, a single "fkc-run: ..." line with the message, no file left. */
static void check_bad(const bad_case *c, const char *extra_args, const char *out_name)
{
    char args[1024], want[1024], out[512], *err;
    int before = dir_entries();
    snprintf(args, sizeof args, "%s%s -o @%s", c->args, extra_args, out_name);
    expand(c->message, want, sizeof want);
    int rc = run(args, NULL, &err);
    if (rc != c->exit_code || !strstr(err, want) || strncmp(err, "fkc-run: ", 9) != 0 ||
        strchr(err, '\n') != err + strlen(err) - 1)
        fail_msg("'%s': exit %d (want %d), stderr '%s' (want '%s')", args, rc, c->exit_code, err,
                 want);
    path_of(out_name, out, sizeof out);
    struct stat st;
    if (stat(out, &st) == 0)
        fail_msg("'%s' left %s behind", args, out);
    assert_int_equal(dir_entries(), before); /* no temp file either */
}

static void test_op_errors_cpu(void **state)
{
    (void)state;
    char p[512];
    path_of("tmp", p, sizeof p); /* a directory named as an input */
    mkdir(p, 0755);
    for (size_t i = 0; i < sizeof op_cases / sizeof op_cases[0]; i++)
        check_bad(&op_cases[i], " --cpu", "out.npy");
    rmdir(p);
}

static void test_op_errors_device(void **state)
{
    (void)state;
    char p[512];
    path_of("tmp", p, sizeof p);
    mkdir(p, 0755);
    for (size_t i = 0; i < sizeof op_cases / sizeof op_cases[0]; i++)
        check_bad(&op_cases[i], "", "out.npy");
    rmdir(p);
}

static void test_argument_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof other_cases / sizeof other_cases[0]; i++)
        check_bad(&other_cases[i], "", "out.npy");
}

static void test_output_path_errors(void **state)
{
    char *err, p[512];
    (void)state;
    const bad_case nodir = {"write_slice --dst @d.npy --src @s.npy --offsets 0,0 --cpu", 1,
                            "@nodir/out.npy: cannot create a temporary file beside it"};
    check_bad(&nodir, "", "nodir/out.npy");
    /* the output is an existing directory: refused before any work (test_paths: the rest) */
    path_of("outdir", p, sizeof p);
    assert_int_equal(mkdir(p, 0755), 0);
    int before = dir_entries();
    int rc = run("write_slice --dst @d.npy --src @s.npy --offsets 0,0 --cpu -o @outdir", NULL,
                 &err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "outdir: not a regular file (a directory)"));
    assert_int_equal(dir_entries(), before);
    rmdir(p);
}

/* A failed run leaves an existing output file exactly as it was. */
static void test_existing_output_untouched(void **state)
{
    char *err, p[512];
    (void)state;
    put_bytes("keep.npy", "keep me", 7);
    int rc = run("write_slice --dst @d.npy --src @s.npy --offsets 9,9 --cpu -o @keep.npy", NULL,
                 &err);
    assert_int_equal(rc, 1);
    path_of("keep.npy", p, sizeof p);
    assert_string_equal(read_text(p), "keep me");
    unlink(p);
}

/* Vulkan pointed at no driver: the device path fails clearly (exit 3), --cpu still works. */
static void test_no_vulkan_device(void **state)
{
    static char *const env[] = {"VK_DRIVER_FILES=/nonexistent/fkc-no-icd.json",
                                "VK_ICD_FILENAMES=/nonexistent/fkc-no-icd.json", NULL};
    char *err, p[512];
    struct stat st;
    (void)state;
    int rc = run("write_slice --dst @d.npy --src @s.npy --offsets 1,2 -o @gpu.npy", env, &err);
    if (rc != 3 || !strstr(err, "no Vulkan device"))
        fail_msg("exit %d, stderr '%s'", rc, err);
    path_of("gpu.npy", p, sizeof p);
    assert_int_not_equal(stat(p, &st), 0);
    rc = run("devices", env, &err);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(err, "no Vulkan device"));
    rc = run("write_slice --dst @d.npy --src @s.npy --offsets 1,2 --cpu -o @cpu.npy", env, &err);
    if (rc != 0)
        fail_msg("--cpu without Vulkan: exit %d, stderr '%s'", rc, err);
    path_of("cpu.npy", p, sizeof p);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 128 + 24 * 4);
    unlink(p);
}

/* --device by index picks device 0 (lavapipe here) and agrees with --cpu; an index or a name
 * that matches nothing is a clear error naming the argument, with no output. */
static void test_device_selection(void **state)
{
    char *err, a[512], b[512];
    (void)state;
    int rc = run("write_slice_rotating --dst @d.npy --src @s.npy --capacity 4 --position 7 "
                 "--device 0 -o @dev0.npy",
                 NULL, &err);
    if (rc != 0)
        fail_msg("--device 0: exit %d, stderr '%s'", rc, err);
    rc = run("write_slice_rotating --dst @d.npy --src @s.npy --capacity 4 --position 7 --cpu "
             "-o @cpu.npy",
             NULL, &err);
    assert_int_equal(rc, 0);
    path_of("dev0.npy", a, sizeof a);
    path_of("cpu.npy", b, sizeof b);
    char *ta = strdup(read_text(a));
    assert_string_equal(ta, read_text(b)); /* headers are ASCII; data compared below */
    free(ta);
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    unsigned char ba[512], bb[512];
    size_t na = fread(ba, 1, sizeof ba, fa), nb = fread(bb, 1, sizeof bb, fb);
    fclose(fa);
    fclose(fb);
    assert_int_equal(na, 128 + 24 * 4);
    assert_int_equal(na, nb);
    assert_memory_equal(ba, bb, na);
    unlink(a);
    unlink(b);
    const bad_case cases[] = {
        {"write_slice --dst @d.npy --src @s.npy --offsets 0,0 --device 99", 1, "--device 99: "},
        {"write_slice --dst @d.npy --src @s.npy --offsets 0,0 --device no-such-gpu-xyz", 1,
         "--device no-such-gpu-xyz: "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_bad(&cases[i], "", "out.npy");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH/TO/fkc-run\n", argv[0]);
        return 2;
    }
    fkc_run = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_op_errors_cpu),
        cmocka_unit_test(test_op_errors_device),
        cmocka_unit_test(test_argument_errors),
        cmocka_unit_test(test_output_path_errors),
        cmocka_unit_test(test_existing_output_untouched),
        cmocka_unit_test(test_no_vulkan_device),
        cmocka_unit_test(test_device_selection),
        cmocka_unit_test(test_command_help),
        cmocka_unit_test(test_show_nested),
    };
    return cmocka_run_group_tests_name("cli-errors", tests, setup, teardown);
}
