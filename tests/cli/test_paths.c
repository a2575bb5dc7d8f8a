/* test_paths.c — runs the real build/fkc-run (argv[1]; argv[4], its build with the test hooks, for
 * the runs that set FKC_RUN_TEST_PAUSE_WRITE) on the paths people and scripts hand it:
 * outputs that are FIFOs, sockets, character devices, directories or symlinks; existing outputs
 * whose mode must survive; an fsync that fails (argv[2], an LD_PRELOAD shim); SIGINT/TERM/HUP in
 * the middle of a write; and inputs that are FIFOs, which must fail at once, not block. Every
 * run has a deadline, so a regression that hangs fails the test instead of the suite. */
#define _GNU_SOURCE /* mknod, O_TMPFILE, flock */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *fkc_run;       /* the binary under test */
static const char *fkc_run_hooks; /* the same built with its test hooks (FKC_RUN_TEST_*) */
static const char *fail_fsync;    /* the shim whose fsync fails with EIO */
static const char *fs_shim;       /* the shim of a file system without O_TMPFILE or linkat */
#define TMPDIR_TEMPLATE "/tmp/fkc-paths-test-XXXXXX"
#include "tmpdir.h"

#define DEADLINE_S 20 /* a run longer than this has hung */

static int inherit_sighup; /* 1: the child inherits this process's SIGHUP disposition */

/* ---- running fkc-run ---------------------------------------------------------------------- */

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Starts fkc-run with the space-separated args ('@' is tmpdir + "/") and extra environment
 * entries; stdout and stderr go to files in tmpdir (removed by finish()). */
static pid_t start(const char *args, char *const *env_extra)
{
    static char line[2048];
    char *argv[40], *envp[256], errpath[512], outpath[512];
    int argc = 0, envc = 0;
    size_t n = 0;
    for (const char *p = args; *p && n + 1 < sizeof line; p++)
        n += *p == '@' ? (size_t)snprintf(line + n, sizeof line - n, "%s/", tmpdir)
                       : (size_t)(line[n] = *p, 1);
    line[n] = '\0';
    const char *bin = fkc_run;
    for (char *const *e = env_extra; e && *e; e++)
        if (strncmp(*e, "FKC_RUN_TEST_", 13) == 0)
            bin = fkc_run_hooks;
    argv[argc++] = (char *)bin;
    for (char *t = strtok(line, " "); t && argc < 39; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    for (char *const *e = env_extra; e && *e && envc < 16; e++)
        envp[envc++] = *e;
    int extra = envc;
    for (char **e = environ; *e && envc < 255; e++) {
        /* an extra entry replaces the caller's of that name (ld.so reads the last
         * LD_PRELOAD, so a second one, as under make sanitize, would undo the shim) */
        size_t len = strcspn(*e, "=");
        int dup = 0;
        for (int k = 0; k < extra && !dup; k++)
            dup = strncmp(envp[k], *e, len + 1) == 0;
        if (!dup)
            envp[envc++] = *e;
    }
    envp[envc] = NULL;
    path_of("stderr.txt", errpath, sizeof errpath);
    path_of("stdout.txt", outpath, sizeof outpath);
    /* the child starts with the signals the tests send at their defaults and unblocked, even
     * when this test runs as a background job (which ignores SIGINT) or under nohup */
    posix_spawnattr_t at;
    sigset_t sigs;
    posix_spawnattr_init(&at);
    sigemptyset(&sigs);
    posix_spawnattr_setsigmask(&at, &sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    if (!inherit_sighup)
        sigaddset(&sigs, SIGHUP);
    posix_spawnattr_setsigdefault(&at, &sigs);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, outpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, bin, &fa, &at, argv, envp), 0);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    return pid;
}

/* Waits for pid (killing it at the deadline: a failure), reads its stderr into *err_text and
 * removes the capture files; returns the raw wait status. */
static int finish(pid_t pid, char **err_text)
{
    static char buf[8192];
    char errpath[512], outpath[512];
    int status = 0;
    double end = now_s() + DEADLINE_S;
    pid_t r;
    while ((r = waitpid(pid, &status, WNOHANG)) == 0 && now_s() < end)
        sleep_ms(5);
    if (r == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("fkc-run still running after %d s: it hangs", DEADLINE_S);
    }
    path_of("stderr.txt", errpath, sizeof errpath);
    path_of("stdout.txt", outpath, sizeof outpath);
    FILE *f = fopen(errpath, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    *err_text = buf;
    unlink(errpath);
    unlink(outpath);
    return status;
}

/* Runs fkc-run to completion; its exit code (a death by signal fails the test). */
static int run(const char *args, char *const *env_extra, char **err_text)
{
    int status = finish(start(args, env_extra), err_text);
    if (!WIFEXITED(status))
        fail_msg("'%s' died by signal %d", args, WTERMSIG(status));
    return WEXITSTATUS(status);
}

/* stderr is one line "fkc-run: ..." holding want ('@' expanded). */
static void check_message(const char *args, const char *err, const char *want_at)
{
    char want[1024];
    size_t n = 0;
    for (const char *p = want_at; *p && n + 1 < sizeof want; p++)
        n += *p == '@' ? (size_t)snprintf(want + n, sizeof want - n, "%s/", tmpdir)
                       : (size_t)(want[n] = *p, 1);
    want[n] = '\0';
    if (!strstr(err, want) || strncmp(err, "fkc-run: ", 9) != 0 ||
        strchr(err, '\n') != err + strlen(err) - 1)
        fail_msg("'%s': stderr '%s', want one line holding '%s'", args, err, want);
}

/* ---- fixtures ----------------------------------------------------------------------------- */

static void put_text(const char *name, const char *text, mode_t mode)
{
    char p[512];
    path_of(name, p, sizeof p);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    assert_int_equal(fchmod(fd, mode), 0);
    close(fd);
}

static char *text_of(const char *name)
{
    static char buf[4096];
    char p[512];
    path_of(name, p, sizeof p);
    FILE *f = fopen(p, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

static mode_t lmode_of(const char *name)
{
    char p[512];
    struct stat st;
    path_of(name, p, sizeof p);
    assert_int_equal(lstat(p, &st), 0);
    return st.st_mode;
}

static void remove_entry(const char *name)
{
    char p[512];
    path_of(name, p, sizeof p);
    if (rmdir(p) != 0)
        unlink(p);
}

/* A bound Unix socket at name (left as a socket file when the descriptor closes). */
static void make_socket(const char *name)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    path_of(name, sa.sun_path, sizeof sa.sun_path);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(s >= 0);
    assert_int_equal(bind(s, (struct sockaddr *)&sa, sizeof sa), 0);
    close(s);
}

/* A character device node in tmpdir: a copy of /dev/null's numbers (1, 3), which only root may
 * make; 0 when made, -1 when not permitted. /dev/null itself is never handed to fkc-run: a
 * regression would replace the machine's /dev/null. */
static int make_chardev(const char *name)
{
    char p[512];
    path_of(name, p, sizeof p);
    if (mknod(p, S_IFCHR | 0666, makedev(1, 3)) == 0)
        return 0;
    assert_true(errno == EPERM || errno == EACCES);
    return -1;
}

static int setup(void **state)
{
    char *err;
    (void)state;
    if (tmpdir_make() != 0)
        return -1;
    if (run("iota --shape 4,6 --dtype f32 -o @d.npy", NULL, &err) != 0 ||
        run("iota --shape 2,3 --dtype f32 --start 100 -o @s.npy", NULL, &err) != 0) {
        fprintf(stderr, "fixture failed: %s", err);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return tmpdir_remove();
}

/* ---- outputs that are not regular files --------------------------------------------------- */

/* -o at an existing non-regular file: exit 1, a message naming -o and the kind, the node
 * untouched (same type), nothing else left in tmpdir; with iota and with an op. */
static void refuse_output(const char *name, const char *kind, mode_t type)
{
    static const char *const cmds[] = {
        "iota --shape 2,3 --dtype f32 -o @",
        "write_slice --dst @d.npy --src @s.npy --offsets 0,0 --cpu -o @",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char args[512], want[256], *err;
        int before = dir_entries();
        snprintf(args, sizeof args, "%s%s", cmds[i], name);
        snprintf(want, sizeof want, "-o @%s: not a regular file (%s)", name, kind);
        int rc = run(args, NULL, &err);
        if (rc != 1)
            fail_msg("'%s': exit %d, want 1 (stderr '%s')", args, rc, err);
        check_message(args, err, want);
        assert_int_equal(lmode_of(name) & S_IFMT, type);
        assert_int_equal(dir_entries(), before);
    }
}

static void test_output_fifo_refused(void **state)
{
    char p[512];
    (void)state;
    path_of("fifo", p, sizeof p);
    assert_int_equal(mkfifo(p, 0644), 0);
    refuse_output("fifo", "a FIFO", S_IFIFO);
    remove_entry("fifo");
}

static void test_output_socket_refused(void **state)
{
    (void)state;
    make_socket("sock");
    refuse_output("sock", "a socket", S_IFSOCK);
    remove_entry("sock");
}

static void test_output_chardev_refused(void **state)
{
    (void)state;
    if (make_chardev("null") != 0) {
        print_message("not root: cannot make a character device to hand fkc-run; skipped\n");
        skip();
    }
    refuse_output("null", "a character device", S_IFCHR);
    remove_entry("null");
}

static void test_output_directory_refused(void **state)
{
    char p[512];
    (void)state;
    path_of("outdir", p, sizeof p);
    assert_int_equal(mkdir(p, 0755), 0);
    refuse_output("outdir", "a directory", S_IFDIR);
    remove_entry("outdir");
}

/* ---- symlinked outputs: written through, the link kept ------------------------------------ */

static void test_output_symlink_written_through(void **state)
{
    char p[512], q[512], *err;
    struct stat st;
    (void)state;
    put_text("target.npy", "old", 0640);
    path_of("link.npy", p, sizeof p);
    assert_int_equal(symlink("target.npy", p), 0); /* relative, resolved beside the link */
    assert_int_equal(mkdir((path_of("sub", q, sizeof q), q), 0755), 0);
    path_of("sub/link2.npy", q, sizeof q);
    assert_int_equal(symlink("../link.npy", q), 0); /* a chain of two links */
    int rc = run("iota --shape 2,3 --dtype f32 -o @link.npy", NULL, &err);
    if (rc != 0)
        fail_msg("-o symlink: exit %d, stderr '%s'", rc, err);
    assert_int_equal(lmode_of("link.npy") & S_IFMT, S_IFLNK);
    char t[64] = "";
    assert_int_equal(readlink(p, t, sizeof t - 1), 10);
    assert_string_equal(t, "target.npy");
    path_of("target.npy", q, sizeof q);
    assert_int_equal(stat(q, &st), 0);
    assert_int_equal(st.st_size, 128 + 6 * 4);  /* the target holds the new array */
    assert_int_equal(st.st_mode & 07777, 0640); /* with its mode */
    rc = run("iota --shape 3,3 --dtype f32 -o @sub/link2.npy", NULL, &err);
    if (rc != 0)
        fail_msg("-o symlink chain: exit %d, stderr '%s'", rc, err);
    assert_int_equal(lmode_of("sub/link2.npy") & S_IFMT, S_IFLNK);
    assert_int_equal(lmode_of("link.npy") & S_IFMT, S_IFLNK);
    assert_int_equal(stat(q, &st), 0);
    assert_int_equal(st.st_size, 128 + 9 * 4);
    assert_int_equal(dir_entries(), 5); /* d, s, target, link, sub: no temp file */
    remove_entry("sub/link2.npy");
    remove_entry("sub");
    remove_entry("link.npy");
    remove_entry("target.npy");
}

/* A dangling link, or one to a FIFO: refused, the link kept, nothing created. */
static void test_output_symlink_refused(void **state)
{
    char p[512], q[512], *err;
    (void)state;
    path_of("dangling.npy", p, sizeof p);
    assert_int_equal(symlink("missing.npy", p), 0);
    path_of("fifo", q, sizeof q);
    assert_int_equal(mkfifo(q, 0644), 0);
    path_of("tofifo.npy", p, sizeof p);
    assert_int_equal(symlink("fifo", p), 0);
    int before = dir_entries();
    int rc = run("iota --shape 2,3 --dtype f32 -o @dangling.npy", NULL, &err);
    assert_int_equal(rc, 1);
    check_message("-o dangling", err, "-o @dangling.npy: a symlink to a file that does not exist");
    assert_int_equal(lmode_of("dangling.npy") & S_IFMT, S_IFLNK);
    rc = run("iota --shape 2,3 --dtype f32 -o @tofifo.npy", NULL, &err);
    assert_int_equal(rc, 1);
    check_message("-o tofifo", err, "-o @tofifo.npy: not a regular file (a symlink to a FIFO)");
    assert_int_equal(lmode_of("tofifo.npy") & S_IFMT, S_IFLNK);
    assert_int_equal(lmode_of("fifo") & S_IFMT, S_IFIFO);
    assert_int_equal(dir_entries(), before);
    remove_entry("dangling.npy");
    remove_entry("tofifo.npy");
    remove_entry("fifo");
}

/* ---- replaced outputs keep their mode; new ones get the umask's ---------------------------- */

static void test_output_mode_kept(void **state)
{
    static const mode_t modes[] = {0600, 0640, 0755, 0444};
    char p[512], *err;
    struct stat st;
    (void)state;
    path_of("m.npy", p, sizeof p);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        put_text("m.npy", "old", modes[i]);
        int rc = run("iota --shape 2,3 --dtype f32 -o @m.npy", NULL, &err);
        if (rc != 0)
            fail_msg("mode %o: exit %d, stderr '%s'", (unsigned)modes[i], rc, err);
        assert_int_equal(stat(p, &st), 0);
        assert_int_equal(st.st_size, 128 + 6 * 4);
        if ((st.st_mode & 07777) != modes[i])
            fail_msg("an output of mode %o became %o", (unsigned)modes[i],
                     (unsigned)(st.st_mode & 07777));
        unlink(p);
    }
    static const mode_t masks[][2] = {{022, 0644}, {027, 0640}, {077, 0600}};
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        mode_t old = umask(masks[i][0]);
        int rc = run("iota --shape 2,3 --dtype f32 -o @m.npy", NULL, &err);
        umask(old);
        assert_int_equal(rc, 0);
        assert_int_equal(stat(p, &st), 0);
        assert_int_equal(st.st_mode & 07777, masks[i][1]);
        unlink(p);
    }
}

/* ---- a failing fsync: the data is synced before the rename, and a failure stops it --------- */

static void test_output_fsync_failure(void **state)
{
    char pre[600], asan[1200], *err;
    (void)state;
    snprintf(pre, sizeof pre, "LD_PRELOAD=%s", fail_fsync);
    /* under ASan the shim comes before the ASan runtime, which must not refuse to start then */
    const char *opts = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "ASAN_OPTIONS=%s%sverify_asan_link_order=0", opts ? opts : "",
             opts && *opts ? ":" : "");
    char *const env[] = {pre, asan, NULL};
    put_text("keep.npy", "keep me", 0644);
    int before = dir_entries();
    int rc = run("iota --shape 2,3 --dtype f32 -o @keep.npy", env, &err);
    if (rc != 1)
        fail_msg("fsync failing with EIO: exit %d (want 1), stderr '%s'", rc, err);
    check_message("fsync", err, "@keep.npy: write failed: Input/output error");
    assert_string_equal(text_of("keep.npy"), "keep me");
    assert_int_equal(dir_entries(), before);
    rc = run("iota --shape 2,3 --dtype f32 -o @new.npy", env, &err);
    assert_int_equal(rc, 1);
    assert_int_equal(dir_entries(), before); /* no new.npy, no temp file */
    remove_entry("keep.npy");
}

/* ---- SIGINT / SIGTERM / SIGKILL in the middle of a write ----------------------------------- */

/* The name of fkc-run's named temp file for big.npy in tmpdir (".big.npy.fkc-run.XXXXXX"), or
 * none (0). */
static int find_temp(char *name, size_t cap)
{
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)))
        if (strncmp(e->d_name, ".big.npy.fkc-run.", 17) == 0 && strlen(e->d_name) == 23 && !found++)
            snprintf(name, cap, "%s", e->d_name);
    if (d)
        closedir(d);
    return found;
}

/* Whether process pid has a file of tmpdir open for writing that has no name there (an
 * O_TMPFILE file: /proc shows "<tmpdir>/#<inode> (deleted)"), or one named like its temp file:
 * 1 for unnamed, 2 for named, 0 for neither (it is not writing yet). */
static int writing(pid_t pid)
{
    char fds[64], link[384], target[1024];
    snprintf(fds, sizeof fds, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(fds);
    struct dirent *e;
    int found = 0;
    size_t n = strlen(tmpdir);
    while (d && (e = readdir(d)) && !found) {
        snprintf(link, sizeof link, "%s/%s", fds, e->d_name);
        ssize_t m = readlink(link, target, sizeof target - 1);
        if (m <= 0)
            continue;
        target[m] = '\0';
        if (strncmp(target, tmpdir, n) != 0 || target[n] != '/')
            continue;
        if (target[n + 1] == '#' && strstr(target, " (deleted)"))
            found = 1;
        else if (strncmp(target + n + 1, ".big.npy.fkc-run.", 17) == 0)
            found = 2;
    }
    if (d)
        closedir(d);
    return found;
}

/* Whether the file system of tmpdir has O_TMPFILE (ext4, tmpfs, xfs, btrfs do). */
static int tmpfile_supported(void)
{
    int fd = open(tmpdir, O_TMPFILE | O_WRONLY, 0600);
    if (fd >= 0)
        close(fd);
    return fd >= 0;
}

/* Waits until pid writes its temp file (kills it and fails after the deadline); returns
 * writing()'s answer. */
static int wait_writing(pid_t pid)
{
    double end = now_s() + DEADLINE_S;
    int w;
    while (!(w = writing(pid)) && now_s() < end)
        sleep_ms(5);
    if (!w) {
        char *err;
        kill(pid, SIGKILL);
        finish(pid, &err);
        fail_msg("fkc-run wrote no temp file in %d s (stderr '%s')", DEADLINE_S, err);
    }
    return w;
}

/* An environment entry that preloads the file-system shim in mode m, and ASan's option for it
 * (under ASan the shim comes before the ASan runtime, which must not refuse to start then). */
static char *const *shim_env(const char *m, const char *pause)
{
    static char pre[600], mode[64], asan[1200], pause_env[64];
    static char *env[5];
    snprintf(pre, sizeof pre, "LD_PRELOAD=%s", fs_shim);
    snprintf(mode, sizeof mode, "FS_SHIM=%s", m);
    const char *opts = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "ASAN_OPTIONS=%s%sverify_asan_link_order=0", opts ? opts : "",
             opts && *opts ? ":" : "");
    snprintf(pause_env, sizeof pause_env, "FKC_RUN_TEST_PAUSE_WRITE=%s", pause);
    env[0] = pre;
    env[1] = mode;
    env[2] = asan;
    env[3] = pause ? pause_env : NULL;
    env[4] = NULL;
    return env;
}

/* fkc-run writing a 4 MiB array, paused by the test hook after its header: where O_TMPFILE
 * works its temp file has no name while it is written; the signal exits 128 + signal, leaves
 * no temp file and the existing big.npy as it was. */
static void interrupt_write(int sig)
{
    static char *const env[] = {"FKC_RUN_TEST_PAUSE_WRITE=30", NULL};
    char name[256], *err;
    put_text("big.npy", "previous", 0644);
    int before = dir_entries();
    pid_t pid = start("iota --shape 1024,1024 --dtype f32 -o @big.npy", env);
    int w = wait_writing(pid);
    if (tmpfile_supported() && (w != 1 || find_temp(name, sizeof name)))
        fail_msg("the temp file has a name while it is written (%s)", w == 2 ? "open" : name);
    assert_int_equal(kill(pid, sig), 0);
    int status = finish(pid, &err);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 128 + sig)
        fail_msg("signal %d: %s %d, want exit %d", sig, WIFEXITED(status) ? "exit" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), 128 + sig);
    if (find_temp(name, sizeof name))
        fail_msg("signal %d left %s behind", sig, name);
    assert_string_equal(text_of("big.npy"), "previous");
    assert_int_equal(dir_entries(), before);
    remove_entry("big.npy");
}

static void test_sigterm_removes_temp(void **state)
{
    (void)state;
    interrupt_write(SIGTERM);
}

static void test_sigint_removes_temp(void **state)
{
    (void)state;
    interrupt_write(SIGINT);
}

static void test_sighup_removes_temp(void **state)
{
    (void)state;
    interrupt_write(SIGHUP);
}

/* The same signals where the file system lacks O_TMPFILE (the shim): the named temp file is
 * removed by the handler. */
static void test_signals_remove_named_temp(void **state)
{
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    char name[256], *err;
    (void)state;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        put_text("big.npy", "previous", 0644);
        int before = dir_entries();
        pid_t pid = start("iota --shape 1024,1024 --dtype f32 -o @big.npy",
                          shim_env("no_tmpfile", "30"));
        assert_int_equal(wait_writing(pid), 2);
        assert_int_equal(find_temp(name, sizeof name), 1);
        assert_int_equal(kill(pid, sigs[i]), 0);
        int status = finish(pid, &err);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 128 + sigs[i]);
        assert_int_equal(find_temp(name, sizeof name), 0);
        assert_string_equal(text_of("big.npy"), "previous");
        assert_int_equal(dir_entries(), before);
    }
    remove_entry("big.npy");
}

/* SIGKILL, which nothing can catch, at the pause: with O_TMPFILE nothing is left (the unnamed
 * file goes with the process); big.npy is intact either way. */
static void test_sigkill_leaves_nothing(void **state)
{
    static char *const env[] = {"FKC_RUN_TEST_PAUSE_WRITE=30", NULL};
    char *err;
    (void)state;
    if (!tmpfile_supported()) {
        print_message("%s has no O_TMPFILE: skipped (test_sigkill_stale_temp_removed covers "
                      "the named temp file)\n",
                      tmpdir);
        skip();
    }
    put_text("big.npy", "previous", 0644);
    int before = dir_entries();
    pid_t pid = start("iota --shape 1024,1024 --dtype f32 -o @big.npy", env);
    assert_int_equal(wait_writing(pid), 1);
    assert_int_equal(kill(pid, SIGKILL), 0);
    int status = finish(pid, &err);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    assert_int_equal(dir_entries(), before);
    assert_string_equal(text_of("big.npy"), "previous");
    remove_entry("big.npy");
}

/* Files only a person or another tool would have: fkc-run must never remove them. */
static const char *const decoys[] = {
    ".big.npy.fkc-run.abc",     /* too short */
    ".big.npy.fkc-run.abcdefg", /* too long */
    ".big.npy.fkc-run.abc-ef",  /* a character mkstemp never writes */
    ".big.npy.backup",          /* the name of an older fkc-run's temp file, and a user's */
    /* one character off the pattern, its length kept (issue 26 item 8: each test of the
     * pattern removed, one of these was deleted as a stale temporary and no test saw it) */
    "xbig.npy.fkc-run.abcdef",   /* no leading dot */
    ".bog.npy.fkc-run.abcdef",   /* another output's name */
    ".big.npy.fkc-rux.abcdef",   /* the tag */
    ".big.npy_fkc-run.abcdef",   /* the tag's dot */
    "big.npy.fkc-run.abcdef",    /* no leading dot */
    ".other.npy.fkc-run.abcdef", /* the temp file of another output */
    ".big.npy.fkc-run.dirdir",   /* a directory */
    ".big.npy.fkc-run.lnklnk",   /* a symlink (to a file of the pattern) */
    ".big.npy.fkc-run.fifofi",   /* a FIFO */
};

#define N_DECOYS (sizeof decoys / sizeof decoys[0])
#define N_REGULAR_DECOYS (N_DECOYS - 3) /* then a directory, a symlink and a FIFO */

static void put_decoys(void)
{
    char p[512], q[512];
    for (size_t i = 0; i < N_REGULAR_DECOYS; i++)
        put_text(decoys[i], "mine", 0644);
    path_of(decoys[N_REGULAR_DECOYS], p, sizeof p);
    assert_int_equal(mkdir(p, 0755), 0);
    path_of(decoys[N_REGULAR_DECOYS + 1], p, sizeof p);
    path_of(".big.npy.fkc-run.target", q, sizeof q);
    assert_int_equal(symlink(q, p), 0);
    path_of(decoys[N_REGULAR_DECOYS + 2], p, sizeof p);
    assert_int_equal(mkfifo(p, 0644), 0);
}

static void check_and_remove_decoys(void)
{
    char p[512];
    struct stat st;
    for (size_t i = 0; i < N_DECOYS; i++) {
        path_of(decoys[i], p, sizeof p);
        if (lstat(p, &st) != 0)
            fail_msg("fkc-run removed %s, which is not its temp file", decoys[i]);
        if (i < N_REGULAR_DECOYS)
            assert_string_equal(text_of(decoys[i]), "mine");
        remove_entry(decoys[i]);
    }
}

/* SIGKILL where the file system lacks O_TMPFILE leaves the named temp file (nothing can catch
 * SIGKILL) and big.npy intact; the next run writing big.npy removes it, and only it: files of
 * near names, of other outputs, a directory, a symlink, a FIFO and a temp file that a live
 * process holds locked all stay. */
static void test_sigkill_stale_temp_removed(void **state)
{
    char name[256], p[512], *err;
    (void)state;
    put_text("big.npy", "previous", 0644);
    int before = dir_entries();
    pid_t pid = start("iota --shape 1024,1024 --dtype f32 -o @big.npy",
                      shim_env("no_tmpfile", "30"));
    assert_int_equal(wait_writing(pid), 2);
    assert_int_equal(kill(pid, SIGKILL), 0);
    finish(pid, &err);
    assert_int_equal(find_temp(name, sizeof name), 1); /* left: SIGKILL cannot be caught */
    assert_string_equal(text_of("big.npy"), "previous");
    assert_int_equal(dir_entries(), before + 1);
    put_decoys();
    put_text(".big.npy.fkc-run.lockdd", "live", 0600); /* a live writer's: locked */
    path_of(".big.npy.fkc-run.lockdd", p, sizeof p);
    int lock = open(p, O_RDONLY);
    assert_true(lock >= 0);
    assert_int_equal(flock(lock, LOCK_EX), 0);
    assert_int_equal(run("iota --shape 2,3 --dtype f32 -o @big.npy", NULL, &err), 0);
    char stale[512];
    path_of(name, stale, sizeof stale);
    if (access(stale, F_OK) == 0)
        fail_msg("the next run left the stale %s", name);
    assert_string_equal(text_of(".big.npy.fkc-run.lockdd"), "live");
    close(lock);
    unlink(p);
    check_and_remove_decoys();
    struct stat st;
    path_of("big.npy", p, sizeof p);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 128 + 6 * 4);
    assert_int_equal(dir_entries(), before);
    remove_entry("big.npy");
}

/* Two runs writing big.npy at once, the first paused with a named temp file (no O_TMPFILE):
 * the second completes without touching the first's temp file (it is locked), then the first
 * completes too; big.npy is the whole output of the one that renamed last. */
static void test_concurrent_writers(void **state)
{
    char name[256], p[512], *err;
    struct stat st;
    (void)state;
    int before = dir_entries();
    pid_t a = start("iota --shape 1024,1024 --dtype f32 -o @big.npy", shim_env("no_tmpfile", "2"));
    assert_int_equal(wait_writing(a), 2);
    assert_int_equal(find_temp(name, sizeof name), 1);
    assert_int_equal(run("iota --shape 2,3 --dtype f32 -o @big.npy", NULL, &err), 0);
    path_of("big.npy", p, sizeof p);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 128 + 6 * 4);
    if (find_temp(name, sizeof name) != 1)
        fail_msg("the second run removed the first's live temp file");
    int status = finish(a, &err);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the first run failed: status 0x%x, stderr '%s'", status, err);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 128 + 1024 * 1024 * 4);
    assert_int_equal(find_temp(name, sizeof name), 0);
    assert_int_equal(dir_entries(), before + 1);
    remove_entry("big.npy");
}

/* Where the unnamed file cannot be linked by AT_EMPTY_PATH (an unprivileged process), it is
 * linked through /proc/self/fd; where it cannot be linked at all, the output is written again
 * through a named temp file. Either way: the output, its mode, no temp file. */
static void test_link_fallbacks(void **state)
{
    static const char *const modes[] = {"no_empty_path", "no_link", "no_tmpfile"};
    char p[512], *err;
    struct stat st;
    (void)state;
    int before = dir_entries();
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        for (int existing = 0; existing < 2; existing++) {
            if (existing)
                put_text("big.npy", "old", 0640);
            int rc = run("iota --shape 2,3 --dtype f32 -o @big.npy", shim_env(modes[i], NULL),
                         &err);
            if (rc != 0)
                fail_msg("%s: exit %d, stderr '%s'", modes[i], rc, err);
            path_of("big.npy", p, sizeof p);
            assert_int_equal(stat(p, &st), 0);
            assert_int_equal(st.st_size, 128 + 6 * 4);
            if (existing)
                assert_int_equal(st.st_mode & 07777, 0640);
            assert_int_equal(dir_entries(), before + 1);
            remove_entry("big.npy");
        }
    }
}

/* The final rename fails (the shim: EIO): fkc-run fails saying so, the existing output is as
 * it was and no temp file is left, with O_TMPFILE (linked at a temp name, then renamed) and
 * without it (named from its creation). Issue 26 item 8: a rename whose failure was dropped
 * counted as success and no test saw it. */
static void test_failed_rename(void **state)
{
    static const char *const modes[] = {"no_rename", "no_rename_no_tmpfile"};
    char name[256], *err;
    (void)state;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        put_text("big.npy", "previous", 0644);
        int before = dir_entries();
        int rc = run("iota --shape 2,3 --dtype f32 -o @big.npy", shim_env(modes[i], NULL), &err);
        if (rc != 1 || !strstr(err, "big.npy: cannot write: Input/output error"))
            fail_msg("%s: exit %d, stderr '%s'", modes[i], rc, err);
        assert_string_equal(text_of("big.npy"), "previous");
        assert_int_equal(find_temp(name, sizeof name), 0);
        assert_int_equal(dir_entries(), before);
        remove_entry("big.npy");
    }
}

/* Started ignoring SIGHUP (as under nohup), fkc-run keeps ignoring it: the write completes. */
static void test_ignored_sighup_stays_ignored(void **state)
{
    static char *const env[] = {"FKC_RUN_TEST_PAUSE_WRITE=1", NULL};
    char name[256], *err;
    (void)state;
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ign.sa_mask);
    assert_int_equal(sigaction(SIGHUP, &ign, &old), 0);
    inherit_sighup = 1;
    pid_t pid = start("iota --shape 4,4 --dtype f32 -o @big.npy", env);
    inherit_sighup = 0;
    sigaction(SIGHUP, &old, NULL);
    wait_writing(pid);
    assert_int_equal(kill(pid, SIGHUP), 0);
    int status = finish(pid, &err);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("an ignored SIGHUP stopped the run (status 0x%x, stderr '%s')", status, err);
    assert_int_equal(find_temp(name, sizeof name), 0);
    char p[512];
    struct stat st;
    path_of("big.npy", p, sizeof p);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 128 + 16 * 4);
    unlink(p);
}

/* ---- inputs that are not regular files: refused at once, never a blocking open ------------ */

static void test_input_not_regular(void **state)
{
    char p[512];
    (void)state;
    path_of("in.fifo", p, sizeof p);
    assert_int_equal(mkfifo(p, 0644), 0);
    make_socket("in.sock");
    int have_dev = make_chardev("in.dev") == 0;
    static const struct {
        const char *args, *message;
        int needs_dev;
    } cases[] = {
        {"show @in.fifo", "@in.fifo: not a regular file (a FIFO)", 0},
        {"show @in.fifo --dtype bf16", "@in.fifo: not a regular file (a FIFO)", 0},
        {"write_slice --dst @in.fifo --src @s.npy --offsets 0,0 --cpu -o @o.npy",
         "@in.fifo: not a regular file (a FIFO)", 0},
        {"write_slice_rotating --dst @d.npy --src @in.fifo --capacity 4 --position 0 --cpu "
         "-o @o.npy",
         "@in.fifo: not a regular file (a FIFO)", 0},
        {"write_slice --dst @in.fifo --src @s.npy --offsets 0,0 -o @o.npy",
         "@in.fifo: not a regular file (a FIFO)", 0},
        {"show @in.sock", "@in.sock: not a regular file (a socket)", 0},
        {"show @in.dev", "@in.dev: not a regular file (a character device)", 1},
        {"show @", "not a regular file (a directory)", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *err;
        if (cases[i].needs_dev && !have_dev) {
            print_message("not root: '%s' skipped\n", cases[i].args);
            continue;
        }
        int before = dir_entries();
        int rc = run(cases[i].args, NULL, &err);
        if (rc != 1)
            fail_msg("'%s': exit %d, want 1 (stderr '%s')", cases[i].args, rc, err);
        check_message(cases[i].args, err, cases[i].message);
        assert_int_equal(dir_entries(), before);
    }
    remove_entry("in.fifo");
    remove_entry("in.sock");
    remove_entry("in.dev");
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr,
                "usage: %s PATH/TO/fkc-run PATH/TO/fail_fsync.so PATH/TO/fs_shim.so "
                "PATH/TO/fkc-run-hooks\n",
                argv[0]);
        return 2;
    }
    fkc_run = argv[1];
    fail_fsync = argv[2];
    fs_shim = argv[3];
    fkc_run_hooks = argv[4];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_fifo_refused),
        cmocka_unit_test(test_output_socket_refused),
        cmocka_unit_test(test_output_chardev_refused),
        cmocka_unit_test(test_output_directory_refused),
        cmocka_unit_test(test_output_symlink_written_through),
        cmocka_unit_test(test_output_symlink_refused),
        cmocka_unit_test(test_output_mode_kept),
        cmocka_unit_test(test_output_fsync_failure),
        cmocka_unit_test(test_sigterm_removes_temp),
        cmocka_unit_test(test_sigint_removes_temp),
        cmocka_unit_test(test_sighup_removes_temp),
        cmocka_unit_test(test_ignored_sighup_stays_ignored),
        cmocka_unit_test(test_signals_remove_named_temp),
        cmocka_unit_test(test_sigkill_leaves_nothing),
        cmocka_unit_test(test_sigkill_stale_temp_removed),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_link_fallbacks),
        cmocka_unit_test(test_failed_rename),
        cmocka_unit_test(test_input_not_regular),
    };
    return cmocka_run_group_tests_name("cli-paths", tests, setup, teardown);
}
