/* gen.c — the `gen` subcommand: load and validate the contracts, then run the back end that
 * --lang names (back/backends.c: the C sources by default, the Rust module, the JSON) either in
 * memory to compare its outputs with the output directory (--check: a unified diff,
 * exit 1 on drift, never writes) or streamed to temporary files for the outputs that change,
 * renamed over them only once both are complete (and synced), under a lock on the output
 * directory. Nothing is written when any contract has an error; an interrupted run leaves no
 * temporary file, and one a killed run (SIGKILL) left is removed by the next run. */
#define _GNU_SOURCE /* realpath, flock, O_DIRECTORY */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "back.h"
#include "cli.h"
#include "fkcgen.h"
#include "internal.h"
#include "report.h"

typedef struct gen_opts {
    const char *out_dir;    /* --out-dir */
    const char *depfile;    /* --depfile, or NULL */
    const char *root;       /* --root, or NULL (the current directory) */
    const char *prefix;     /* --prefix, FKCG_EMIT_PREFIX by default */
    bool check;             /* --check */
    fkcg_format format;     /* --format: --check's findings (text by default) */
    const char *stubs;      /* --emit-stubs FILE, or NULL */
    const char *select;     /* --select FILE, or NULL (every binding) */
    size_t shards;          /* --shards N: the back end's parts (1 by default) */
    const fkcg_backend *be; /* --lang: the back end (C by default) */
    char **files;           /* the contracts */
    size_t n_files;
} gen_opts;

static const char usage[] =
    "usage: fkcgen gen --out-dir DIR [--prefix NAME] [--lang c|rust|json] [--check]\n"
    "                  [--depfile FILE] [--root DIR] [--emit-stubs FILE] [--select FILE]\n"
    "                  [--shards N] FILE...\n"
    "  Emits DIR/NAME_bindings.h and DIR/NAME_bindings.c from the contracts.\n"
    "  --prefix NAME   of every generated name and of the files (default " FKCG_EMIT_PREFIX ")\n"
    "  --lang rust     emit DIR/NAME_bindings.rs, one Rust module, instead (default: c);\n"
    "  --lang json     DIR/NAME_bindings.json, the binding table (as dump --json)\n"
    "  --check         compare with DIR instead: print a unified diff, exit 1 on drift\n"
    "  --format F      (--check) " FKCG_FORMAT_NAMES ": the findings as text (default),\n"
    "                  or on stdout as JSON, SARIF, JUnit or GitHub (the diff on stderr)\n"
    "  --depfile FILE  also write a make dependency file for the outputs\n"
    "  --root DIR      make contract paths relative to DIR (default: the current directory)\n"
    "  --emit-stubs FILE  also write FILE, a C skeleton of the byte-width wrappers the\n"
    "                  contracts need (never overwrites: FILE must not exist)\n"
    "  --shards N      split the rows and dispatch by op kind over N parts (1 to 64):\n"
    "                  C: DIR/NAME_bindings.c and DIR/NAME_bindings_1.c .. _<N-1>.c, one\n"
    "                  header; Rust: DIR/NAME_bindings.rs, which include!s\n"
    "                  DIR/NAME_bindings_1.rs .. _<N-1>.rs\n"
    "  --select FILE   emit only the bindings FILE names: one `OpKind` (all its dtypes) or\n"
    "                  `OpKind: DTYPE, DTYPE...` a line; the dispatch refuses the others\n"
    "                  with FKC_ERR_NO_KERNEL\n";

/* Parses argv (argv[0] is "gen"). 0 when fine, 2 on a usage error (reported), -1 for --help. */
static int parse_opts(int argc, char **argv, gen_opts *o)
{
    enum { OUT_DIR, DEPFILE, ROOT, STUBS, PREFIX, LANG, CHECK, SELECT, SHARDS, FORMAT };
    static const fkcg_option opts[] = {
        [OUT_DIR] = {"--out-dir", true}, [DEPFILE] = {"--depfile", true},
        [ROOT] = {"--root", true},       [STUBS] = {"--emit-stubs", true},
        [PREFIX] = {"--prefix", true},   [LANG] = {"--lang", true},
        [CHECK] = {"--check", false},    [SELECT] = {"--select", true},
        [SHARDS] = {"--shards", true},   [FORMAT] = {"--format", true},
    };
    memset(o, 0, sizeof *o);
    int i = 1, k;
    const char *v;
    while ((k = fkcg_opt_next("fkcgen gen", usage, opts, sizeof opts / sizeof opts[0], argc, argv,
                              &i, &v)) != FKCG_OPT_END) {
        switch (k) {
        case FKCG_OPT_HELP: return -1;
        case FKCG_OPT_ERROR: return 2; /* reported with the usage */
        case OUT_DIR: o->out_dir = v; break;
        case DEPFILE: o->depfile = v; break;
        case ROOT: o->root = v; break;
        case STUBS: o->stubs = v; break;
        case PREFIX: o->prefix = v; break;
        case CHECK: o->check = true; break;
        case SELECT: o->select = v; break;
        case FORMAT:
            if (fkcg_format_parse(v, &o->format) != 0) {
                fkcg_cli_error("fkcgen gen", usage, "--format takes " FKCG_FORMAT_NAMES);
                return 2;
            }
            break;
        case SHARDS: {
            char *end;
            errno = 0;
            unsigned long n = strtoul(v, &end, 10);
            if (!*v || *end || errno || *v < '1' || *v > '9' || n > FKCG_MAX_SHARDS) {
                fkcg_cli_error("fkcgen gen", usage, "--shards '%s': give a number from 1 to %d", v,
                               FKCG_MAX_SHARDS);
                return 2;
            }
            o->shards = n;
            break;
        }
        case LANG:
            if (!(o->be = fkcg_backend_find(v))) {
                fkcg_cli_error("fkcgen gen", usage, "--lang '%s': the languages are %s", v,
                               fkcg_backend_names());
                return 2;
            }
            break;
        }
    }
    o->files = argv + i;
    o->n_files = (size_t)(argc - i);
    if (!o->prefix)
        o->prefix = FKCG_EMIT_PREFIX;
    if (!o->be)
        o->be = fkcg_backend_default();
    if (!o->shards)
        o->shards = 1;
    if (o->shards > 1 && !o->be->emit_parts) {
        fkcg_cli_error("fkcgen gen", usage,
                       "--shards splits a back end's sources; --lang %s has none to split (the "
                       "back ends that do: %s)",
                       o->be->name, fkcg_backend_names_that(true, false));
        return 2;
    }
    if (!o->out_dir || o->n_files == 0) {
        fkcg_cli_error("fkcgen gen", usage, "%s",
                       o->out_dir ? "no contract given" : "--out-dir is required");
        return 2;
    }
    if (o->root && fkcg_root_check(o->root) != 0) {
        fkcg_cli_error("fkcgen gen", usage, "--root '%s': %s", o->root,
                       strerror(fkcg_root_check(o->root)));
        return 2;
    }
    if (o->format != FKCG_FORMAT_TEXT && !o->check) {
        fkcg_cli_error("fkcgen gen", usage,
                       "--format reports the findings of --check; give --check");
        return 2;
    }
    if (o->check && (o->depfile || o->stubs)) {
        fkcg_cli_error("fkcgen gen", usage, "--check never writes; it takes no %s",
                       o->depfile ? "--depfile" : "--emit-stubs");
        return 2;
    }
    if (o->stubs && !o->be->stubs) {
        fkcg_cli_error("fkcgen gen", usage,
                       "--emit-stubs writes the wrappers' skeleton; --lang %s has none (the back "
                       "ends that do: %s)",
                       o->be->name, fkcg_backend_names_that(false, true));
        return 2;
    }
    return 0;
}

/* dir/name, without doubling a trailing '/' of dir. */
static char *join_path(const char *dir, const char *name)
{
    size_t n = strlen(dir), m = strlen(name);
    while (n > 0 && dir[n - 1] == '/')
        n--;
    char *p = malloc(n + m + 2);
    if (!p)
        fkcg_oom();
    memcpy(p, dir, n);
    p[n] = '/';
    memcpy(p + n + 1, name, m + 1);
    return p;
}

/* A back end's output name: the template tpl, whose '@' is the prefix. */
static void expand_tpl(const char *tpl, const char *prefix, char *name, size_t cap)
{
    size_t n = 0;
    for (const char *c = tpl; *c && n + FKCG_PREFIX_MAX + 1 < cap; c++)
        if (*c == '@')
            n += (size_t)snprintf(name + n, cap - n, "%s", prefix);
        else
            name[n++] = *c;
    name[n] = '\0';
}

/* out_dir/<the back end's output name>, whose '@' is the prefix (malloc'd). */
static char *output_path(const char *out_dir, const char *tpl, const char *prefix)
{
    char name[2 * FKCG_PREFIX_MAX + 32];
    expand_tpl(tpl, prefix, name, sizeof name);
    return join_path(out_dir, name);
}

/* Opens an existing output for reading (fkcg_open_regular). 0 (*f set), ENOENT when missing,
 * NOT_REGULAR when it is not a regular file (a directory too), or another errno. */
#define NOT_REGULAR FKCG_NOT_REGULAR

static int open_regular(const char *path, FILE **f)
{
    *f = NULL;
    int fd;
    struct stat st;
    int err = fkcg_open_regular(path, &fd, &st);
    if (err)
        return err == EISDIR ? NOT_REGULAR : err;
    *f = fdopen(fd, "rb");
    if (!*f) {
        close(fd);
        return ENOMEM;
    }
    return 0;
}

static const char *open_error(int err)
{
    return err == NOT_REGULAR ? "not a regular file" : strerror(err);
}

/* Reads a whole file into b. 0, ENOENT when it does not exist, or another error (open_regular). */
static int read_file(const char *path, fkcg_buf *b)
{
    FILE *f;
    int err0 = open_regular(path, &f);
    if (err0)
        return err0;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        fkcg_buf_put(b, chunk, n);
    int err = ferror(f) ? EIO : 0;
    fclose(f);
    return err;
}

/* ---- temporary files, removed on any exit but success ---- */

/* The temporary files of a run, in static buffers so that the signal handler can unlink them
 * (async-signal-safe: unlink and _exit only). A slot is live while its file exists. */
/* a back end's outputs: the C header and source, or its sources with --shards */
enum { MAX_OUTS = FKCG_MAX_OUTPUTS + FKCG_MAX_SHARDS - 1 };
enum { TMP_SLOTS = MAX_OUTS + 1, TMP_NAME_MAX = PATH_MAX + 16 }; /* the outputs, the depfile */
static char tmp_names[TMP_SLOTS][TMP_NAME_MAX];
static volatile sig_atomic_t tmp_live[TMP_SLOTS];

static void drop_temps(void)
{
    for (int k = 0; k < TMP_SLOTS; k++)
        if (tmp_live[k]) {
            unlink(tmp_names[k]);
            tmp_live[k] = 0;
        }
}

/* SIGINT, SIGTERM, SIGHUP: no temporary file stays; exit 128 + the signal, as a shell does. */
static void on_signal(int sig)
{
    for (int k = 0; k < TMP_SLOTS; k++)
        if (tmp_live[k])
            unlink(tmp_names[k]);
    _exit(128 + sig);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
        sigaction(caught[i], &sa, NULL);
    atexit(drop_temps); /* the generator exits on out of memory: nothing half-written stays */
}

/* Blocks (or unblocks) the caught signals: a temporary file's creation and the renames of
 * the pair happen whole or not at all. */
static void hold_signals(bool hold, sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
        sigaddset(&set, caught[i]);
    sigprocmask(hold ? SIG_BLOCK : SIG_SETMASK, hold ? &set : old, hold ? old : NULL);
}

/* ---- outputs: compared, then written to a temporary file, then renamed ---- */

/* An output written while it is emitted, through a small draining buffer: its bytes are
 * compared with the current file while they match it, and go to a temporary file in the same
 * directory from the first difference. out_complete finishes that file (mode, fsync), and
 * out_commit renames it over the output, once every output of the run is complete. A file
 * whose content does not change is not touched (its mtime stays, so make rebuilds nothing). */
typedef struct out_file {
    const char *path;
    FILE *old;    /* the current file while it matches; NULL when missing or different */
    mode_t mode;  /* the current file's permissions, kept by the new one */
    bool had_old; /* the file existed (its mode is known) */
    size_t same;  /* bytes of it matched so far */
    int fd;       /* the temporary file; -1 until the first difference */
    int slot;     /* its name: tmp_names[slot] */
    bool *failed; /* shared by the outputs of one run: after an error nothing more is
                          * written (reported once) */
} out_file;

enum { OUT_DRAIN_AT = 1 << 20 }; /* bytes buffered before complete lines go to the file */

static void out_open(out_file *o, const char *path, int slot, bool *failed)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    open_regular(path, &o->old); /* checked to be regular or missing by check_paths */
    struct stat st;
    if (o->old && fstat(fileno(o->old), &st) == 0) {
        o->had_old = true;
        o->mode = st.st_mode & 07777;
    }
    o->fd = -1;
    o->slot = slot;
    o->failed = failed;
}

/* Do the next n bytes of the current file equal p? */
static bool old_matches(FILE *old, const char *p, size_t n)
{
    char chunk[65536];
    while (n > 0) {
        size_t want = n < sizeof chunk ? n : sizeof chunk;
        if (fread(chunk, 1, want, old) != want || memcmp(chunk, p, want) != 0)
            return false;
        p += want;
        n -= want;
    }
    return true;
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Reports an error writing o (errno err); from then on nothing more is written. */
static void out_fail(out_file *o, int err)
{
    fkcg_cli_error("fkcgen gen", NULL, "cannot write %s: %s", o->path, strerror(err ? err : EIO));
    *o->failed = true;
}

/* The first difference: creates the temporary file and copies the matched prefix into it. */
static void out_start(out_file *o)
{
    char *name = tmp_names[o->slot];
    if (strlen(o->path) + sizeof ".tmp.XXXXXX" > TMP_NAME_MAX) {
        out_fail(o, ENAMETOOLONG);
        return;
    }
    sprintf(name, "%s.tmp.XXXXXX", o->path);
    sigset_t old;
    hold_signals(true, &old);
    o->fd = mkstemp(name);
    tmp_live[o->slot] = o->fd >= 0;
    int err = errno;
    hold_signals(false, &old);
    if (o->fd < 0) {
        fkcg_cli_error("fkcgen gen", NULL, "cannot create a file next to %s: %s", o->path,
                       strerror(err));
        *o->failed = true;
        return;
    }
    char chunk[65536];
    if (o->same && o->old)
        rewind(o->old);
    for (size_t left = o->same; left > 0;) {
        size_t want = left < sizeof chunk ? left : sizeof chunk;
        if (fread(chunk, 1, want, o->old) != want || !write_all(o->fd, chunk, want)) {
            out_fail(o, errno);
            return;
        }
        left -= want;
    }
}

/* The drain of an output's buffer. */
static void out_write(void *ctx, const char *p, size_t n)
{
    out_file *o = ctx;
    if (*o->failed)
        return;
    if (o->fd < 0 && o->old && old_matches(o->old, p, n)) {
        o->same += n;
        return;
    }
    if (o->fd < 0)
        out_start(o);
    if (!*o->failed && !write_all(o->fd, p, n))
        out_fail(o, errno);
}

/* Completes o's temporary file, when it differs: the current file's mode (or 0666 less the
 * umask for a new one), its bytes on disk (fsync), closed. After an error anywhere in the run
 * the file is removed instead. 0 or 2 (reported). */
static int out_complete(out_file *o)
{
    if (!*o->failed && o->fd < 0 && (!o->old || fgetc(o->old) != EOF))
        out_start(o); /* missing, or longer than the new text */
    if (o->old)
        fclose(o->old);
    o->old = NULL;
    if (o->fd < 0)
        return *o->failed ? 2 : 0;
    mode_t mode = o->mode;
    if (!o->had_old) {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    int err = 0;
    if (!*o->failed && fchmod(o->fd, mode) != 0)
        err = errno;
    if (!*o->failed && !err && fsync(o->fd) != 0 && errno != EINVAL)
        err = errno;
    if (close(o->fd) != 0 && !err)
        err = errno;
    o->fd = -1;
    if (err && !*o->failed)
        out_fail(o, err);
    if (*o->failed) {
        unlink(tmp_names[o->slot]);
        tmp_live[o->slot] = 0;
        return 2;
    }
    return 0;
}

/* Renames the completed temporary files of outs over their outputs, with the signals held,
 * so an interrupt comes before the first rename or after the last. 0 or 2 (reported). */
static int out_commit(out_file *outs, int n)
{
    sigset_t old;
    int rc = 0;
    hold_signals(true, &old);
    for (int k = 0; k < n; k++) {
        if (!tmp_live[outs[k].slot])
            continue;
        if (rc == 0 && rename(tmp_names[outs[k].slot], outs[k].path) != 0) {
            out_fail(&outs[k], errno);
            rc = 2;
        }
        if (rc != 0)
            unlink(tmp_names[outs[k].slot]);
        tmp_live[outs[k].slot] = 0;
    }
    hold_signals(false, &old);
    return rc;
}

/* A test hook, compiled into test builds alone (-DFKCG_TEST_HOOKS: build/tests/gen/fkcgen-hooks,
 * docs/generated-code.md): with FKCGEN_TEST_STOP_BEFORE_RENAME set, gen stops itself (SIGSTOP)
 * once the temporary files are complete, before the first rename, so that a test can signal
 * it at that exact point. The fkcgen `make` builds and installs reads no such variable. */
static void test_stop_before_rename(void)
{
#ifdef FKCG_TEST_HOOKS
    if (getenv("FKCGEN_TEST_STOP_BEFORE_RENAME"))
        raise(SIGSTOP);
#endif
}

/* Writes text to path (through out_file), unless path already holds exactly text. */
static int write_if_changed(const char *path, const fkcg_buf *text, int slot)
{
    bool failed = false;
    out_file o;
    out_open(&o, path, slot, &failed);
    if (text->len)
        out_write(&o, text->data, text->len);
    int rc = out_complete(&o);
    return rc ? rc : out_commit(&o, 1);
}

/* ---- stale temporary files: what a killed run left ---- */

/* Whether name is exactly a temporary file's name of the output called base:
 * "<base>.tmp." and the six characters mkstemp writes ([A-Za-z0-9]). */
static bool is_temp_of(const char *name, const char *base)
{
    size_t n = strlen(base), t = strlen(".tmp.");
    if (strlen(name) != n + t + 6 || strncmp(name, base, n) != 0 ||
        strncmp(name + n, ".tmp.", t) != 0)
        return false;
    for (const char *p = name + n + t; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return false;
    return true;
}

/* Removes from dir the temporary files of the output `base` that a killed run (SIGKILL, a
 * crash, power loss) left: regular files of this user whose name is exactly the pattern.
 * Called with the lock of dir held, so no other gen is writing there; best effort (one that
 * cannot be removed stays, and is reported by nothing: it is not an output). */
static void remove_stale_temps(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    int dfd = dirfd(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        struct stat st;
        if (is_temp_of(e->d_name, base) && fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode) && st.st_uid == geteuid())
            unlinkat(dfd, e->d_name, 0);
    }
    closedir(d);
}

/* ---- stale shard sources: what an earlier gen --shards wrote ---- */

/* Whether the file name in dir_fd is a part the back end wrote under that name: a regular file
 * of this user that opens as the back end's parts do (its own_part: the C sources' banner). A
 * user's file of that name, a link or anything else is not. */
static bool is_own_source(const fkcg_backend *be, int dir_fd, const char *name)
{
    int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    char head[512];
    ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()
                    ? read(fd, head, sizeof head - 1)
                    : -1;
    close(fd);
    if (n <= 0)
        return false;
    head[n] = '\0';
    return be->own_part(name, head);
}

/* Part k's output name: the back end's part_output with % made k (@ stays, the prefix). */
static void part_template(const fkcg_backend *be, size_t k, char *out, size_t cap)
{
    const char *tpl = be->part_output, *at = strchr(tpl, '%');
    snprintf(out, cap, "%.*s%zu%s", (int)(at - tpl), tpl, k, at + 1);
}

/* Removes the parts (C: the shard sources @_bindings_<k>.c), k from `shards` to the most
 * --shards gives,
 * that an earlier gen with more shards left in the output directory (they would fail to
 * compile against the new header): only fkcgen's own (is_own_source). Called with the
 * directory locked, after this run's outputs are in place. */
static void remove_stale_shards(const gen_opts *o, int dir_fd)
{
    for (size_t k = o->shards; k < FKCG_MAX_SHARDS; k++) {
        char tpl[64], name[FKCG_PREFIX_MAX * 2 + 96];
        part_template(o->be, k, tpl, sizeof tpl);
        expand_tpl(tpl, o->prefix, name, sizeof name);
        if (is_own_source(o->be, dir_fd, name))
            unlinkat(dir_fd, name, 0);
    }
}

/* ---- the lock: one gen at a time per output directory ---- */

/* Creates dir and its missing parents (mkdir -p); *made: how many levels it created (the
 * deepest ones: once one is new, those below it are too). 0, or an errno. */
static int make_dirs(const char *dir, size_t *made)
{
    char *p = strdup(dir);
    if (!p)
        fkcg_oom();
    int err = 0;
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (s[-1] != '/' && mkdir(p, 0777) == 0)
            ++*made;
        else if (s[-1] != '/' && errno != EEXIST)
            err = errno;
        *s = c;
        if (err || c == '\0')
            break;
    }
    free(p);
    return err;
}

/* Removes the `made` deepest levels of dir that make_dirs created: only empty directories
 * go (rmdir), so nothing another process put there is lost. */
static void remove_made(const char *dir, size_t made)
{
    char *p = strdup(dir);
    if (!p)
        fkcg_oom();
    for (size_t n = strlen(p); made > 0 && n > 0; made--) {
        while (n > 1 && p[n - 1] == '/')
            p[--n] = '\0';
        if (rmdir(p) != 0)
            break;
        while (n > 0 && p[n - 1] != '/')
            p[--n] = '\0';
    }
    free(p);
}

/* Opens the output directory (created with its missing parents: *created says how many
 * levels, for remove_made) and locks it with
 * flock: gen runs on one directory serialise, so the pair always comes from one run. --check
 * takes a shared lock on a directory that exists. The lock goes with the process. -1 when
 * there is none to take (--check on a missing directory); -2 on an error (reported). */
static int lock_out_dir(const char *dir, bool exclusive, size_t *created)
{
    *created = 0;
    int made = exclusive ? make_dirs(dir, created) : 0;
    if (made) {
        fkcg_cli_error("fkcgen gen", NULL, "cannot create %s: %s", dir, strerror(made));
        return -2;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 && !exclusive && errno == ENOENT)
        return -1;
    int err = fd < 0 ? errno : 0;
    while (!err && flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0)
        if (errno != EINTR)
            err = errno;
    if (err) {
        fkcg_cli_error("fkcgen gen", NULL, "cannot lock %s: %s", dir, strerror(err));
        if (fd >= 0)
            close(fd);
        return -2;
    }
    return fd;
}

/* A path as a make target or prerequisite: spaces and '#' backslash-escaped, '$' doubled.
 * Only bytes make_safe admits reach it. */
static void put_make_path(fkcg_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '#')
            fkcg_buf_putc(b, '\\');
        if (*s == '$')
            fkcg_buf_putc(b, '$');
        fkcg_buf_putc(b, *s);
    }
}

/* The running fkcgen, relative to the current directory when below it; NULL if unknown. */
static char *self_path(void)
{
    char exe[PATH_MAX], cwd[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    const char *p = exe;
    if (getcwd(cwd, sizeof cwd)) {
        size_t c = strlen(cwd);
        if (strncmp(exe, cwd, c) == 0 && exe[c] == '/')
            p = exe + c + 1;
    }
    char *r = malloc(strlen(p) + 1);
    if (!r)
        fkcg_oom();
    strcpy(r, p);
    return r;
}

/* "OUT_H OUT_C: contracts... fkcgen" and an empty rule per prerequisite (as gcc -MP). */
static void make_depfile(const gen_opts *o, char *const outs[], int n_outs, fkcg_buf *b)
{
    char *self = self_path();
    for (int k = 0; k < n_outs; k++) {
        if (k)
            fkcg_buf_putc(b, ' ');
        put_make_path(b, outs[k]);
    }
    fkcg_buf_putc(b, ':');
    for (size_t i = 0; i < o->n_files; i++) {
        fkcg_buf_puts(b, " \\\n  ");
        put_make_path(b, o->files[i]);
    }
    if (o->select) {
        fkcg_buf_puts(b, " \\\n  ");
        put_make_path(b, o->select);
    }
    if (self) {
        fkcg_buf_puts(b, " \\\n  ");
        put_make_path(b, self);
    }
    fkcg_buf_puts(b, "\n");
    for (size_t i = 0; i < o->n_files; i++) {
        fkcg_buf_putc(b, '\n');
        put_make_path(b, o->files[i]);
        fkcg_buf_puts(b, ":\n");
    }
    if (o->select) {
        fkcg_buf_putc(b, '\n');
        put_make_path(b, o->select);
        fkcg_buf_puts(b, ":\n");
    }
    free(self);
}

/* ---- paths, checked before anything is read or written ---- */

/* "what 'path' why": diag.c escapes the path's control bytes, so a message cannot carry them. */
static void path_error(const char *what, const char *path, const char *why)
{
    fkcg_cli_error("fkcgen gen", NULL, "%s '%s' %s", what, path, why);
}

/* A byte make reads literally in a depfile (put_make_path escapes ' ', '#' and '$'); others
 * (':', '=', ';', '%', '\', wildcards, '~', '(', quotes, ...) mean something to make. */
static bool make_safe(unsigned char c)
{
    return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || (c && strchr("._-+,@/ #$", c));
}

/* No control character in any path; with a depfile, only bytes make reads literally. */
static int check_chars(const char *what, const char *path, bool for_make)
{
    for (const char *p = path; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c == 0x7f) {
            path_error(what, path, "holds a control character; rename it");
            return 2;
        }
        if (for_make && !make_safe(c)) {
            char why[160];
            snprintf(why, sizeof why,
                     "holds '%c', which a make depfile cannot carry; with "
                     "--depfile, paths use letters, digits, UTF-8 and ._-+,@/ #$ only",
                     c);
            path_error(what, path, why);
            return 2;
        }
    }
    return 0;
}

/* An output (or the depfile) must be a regular file or absent: opening a FIFO blocks, a
 * directory cannot be replaced. 0 (*exists says which) or 2 (reported). */
static int check_output(const char *what, const char *path, struct stat *st, bool *exists)
{
    *exists = false;
    if (stat(path, st) != 0) {
        if (errno == ENOENT)
            return 0;
        path_error(what, path, strerror(errno));
        return 2;
    }
    if (!S_ISREG(st->st_mode)) {
        path_error(what, path,
                   S_ISDIR(st->st_mode) ? "is a directory; it must be a regular "
                                          "file or absent"
                                        : "is not a regular file (a FIFO, socket or device); it "
                                          "must be a regular file or absent");
        return 2;
    }
    *exists = true;
    return 0;
}

/* The directory part of path ("." when none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 2);
    if (!d)
        fkcg_oom();
    memcpy(d, n ? path : ".", n ? n : 1);
    d[n ? n : 1] = '\0';
    return d;
}

/* A directory's canonical path: its realpath, or, when it does not exist (the output
 * directory gen creates, with its missing parents), its parent's canonical path and its name;
 * NULL when no ancestor exists or a missing level is '.' or '..'. */
static char *canon_dir(const char *path)
{
    char *r = realpath(path, NULL);
    if (r)
        return r;
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    char *trimmed = malloc(n + 1);
    if (!trimmed)
        fkcg_oom();
    memcpy(trimmed, path, n);
    trimmed[n] = '\0';
    const char *base = strrchr(trimmed, '/') ? strrchr(trimmed, '/') + 1 : trimmed;
    char *parent = dir_of(trimmed);
    bool named = *base && strcmp(base, ".") && strcmp(base, "..");
    char *rp = named && strcmp(parent, trimmed) ? canon_dir(parent) : NULL;
    if (rp) {
        r = malloc(strlen(rp) + strlen(base) + 2);
        if (!r)
            fkcg_oom();
        sprintf(r, "%s/%s", strcmp(rp, "/") ? rp : "", base);
    }
    free(rp);
    free(parent);
    free(trimmed);
    return r;
}

/* The depfile: its directory exists and is writable (or is the output directory, which gen
 * creates), it is a regular file or absent, and it is neither an output nor a contract.
 * 0 or 2 (reported). */
static int check_depfile(const gen_opts *o, char *const outs[], int n_outs,
                         const struct stat out_st[], const bool out_exists[])
{
    const char *dep = o->depfile, *base = strrchr(dep, '/') ? strrchr(dep, '/') + 1 : dep;
    struct stat st, cst;
    bool exists = false;
    char *dir = dir_of(dep), *cdir = canon_dir(dir), *cout = canon_dir(o->out_dir);
    bool in_out_dir = cdir && cout && !strcmp(cdir, cout);
    int rc = 2;
    if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
        path_error("--depfile", dep, "names a directory; give a file");
    else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        rc = in_out_dir ? 0
                        : (path_error("--depfile", dep,
                                      "is in a directory that does not "
                                      "exist"),
                           2);
    else if (access(dir, W_OK | X_OK) != 0)
        path_error("--depfile", dep, "is in a directory this user cannot write");
    else if (check_output("--depfile", dep, &st, &exists) == 0)
        rc = 0;
    for (int k = 0; k < n_outs && rc == 0; k++) {
        const char *name = strrchr(outs[k], '/') + 1; /* join_path put one there */
        if ((in_out_dir && !strcmp(base, name)) ||
            (exists && out_exists[k] && st.st_dev == out_st[k].st_dev &&
             st.st_ino == out_st[k].st_ino)) {
            path_error("--depfile", dep, "is an output of gen; give another file");
            rc = 2;
        }
    }
    for (size_t i = 0; i < o->n_files && rc == 0 && exists; i++)
        if (stat(o->files[i], &cst) == 0 && cst.st_dev == st.st_dev && cst.st_ino == st.st_ino) {
            path_error("--depfile", dep, "is one of the contracts; give another file");
            rc = 2;
        }
    free(cdir);
    free(cout);
    free(dir);
    return rc;
}

/* --emit-stubs FILE: no control character, and no file of that name (a skeleton is written
 * once, then edited by hand: it is never overwritten). 0 or 2 (reported). */
static int check_stubs(const char *path)
{
    struct stat st;
    int rc = check_chars("--emit-stubs", path, false);
    if (!rc && lstat(path, &st) == 0) {
        path_error("--emit-stubs", path,
                   "exists; fkcgen never overwrites a stubs file (it is "
                   "yours to edit): remove it or name another");
        rc = 2;
    }
    return rc;
}

/* Writes the wrapper skeletons to a new file (O_EXCL: never over one that appeared since the
 * check). 0 or 2 (reported, nothing left behind). */
static int write_stubs(const fkcg_backend *be, const char *path, const char *prefix,
                       const fkcg_table *t)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    be->stubs(t, prefix, &b);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666), rc = 0;
    if (fd < 0 || !write_all(fd, b.data, b.len)) {
        path_error("--emit-stubs", path, strerror(errno));
        if (fd >= 0)
            unlink(path);
        rc = 2;
    }
    if (fd >= 0 && close(fd) != 0 && rc == 0) {
        path_error("--emit-stubs", path, strerror(errno));
        unlink(path);
        rc = 2;
    }
    fkcg_buf_free(&b);
    return rc;
}

/* Every path of the run, before anything is read or written: no control characters (and, with
 * --depfile, only what make reads literally); the outputs and the depfile are regular files or
 * absent; the depfile can be written and is not an output. 0 or 2 (reported). */
static int check_paths(const gen_opts *o, char *const outs[], int n_outs)
{
    bool make = o->depfile != NULL;
    int rc = check_chars("--out-dir", o->out_dir, false);
    for (int k = 0; k < n_outs && !rc; k++)
        rc = check_chars("output", outs[k], make);
    for (size_t i = 0; i < o->n_files && !rc; i++)
        rc = check_chars("contract", o->files[i], make);
    if (!rc && o->select)
        rc = check_chars("--select", o->select, make);
    if (!rc && make)
        rc = check_chars("--depfile", o->depfile, false);
    char *self = make && !rc ? self_path() : NULL;
    if (self)
        rc = check_chars("fkcgen's own path", self, true);
    free(self);
    struct stat st[MAX_OUTS];
    bool exists[MAX_OUTS] = {false, false};
    if (!rc && stat(o->out_dir, &st[0]) == 0 && !S_ISDIR(st[0].st_mode)) {
        path_error("--out-dir", o->out_dir, "is not a directory");
        rc = 2;
    }
    for (int k = 0; k < n_outs && !rc; k++)
        rc = check_output("output", outs[k], &st[k], &exists[k]);
    if (!rc && make)
        rc = check_depfile(o, outs, n_outs, st, exists);
    if (!rc && o->stubs)
        rc = check_stubs(o->stubs);
    return rc;
}

/* The first line (1-based) where a and b differ. */
static uint32_t first_diff_line(const char *a, size_t na, const char *b, size_t nb)
{
    uint32_t line = 1;
    for (size_t i = 0; i < na && i < nb && a[i] == b[i]; i++)
        line += a[i] == '\n';
    return line;
}

/* --check: diff each output against DIR; 0 up to date, 1 drift, 2 unreadable. With a report
 * (--format), each drifted output is a finding at its first changed line, and the diff goes to
 * stderr. */
static int check_outputs(char *const outs[], fkcg_buf *const texts[], int n_outs, fkcg_report *rep)
{
    int rc = 0;
    fkcg_buf diff;
    fkcg_buf_init(&diff);
    for (int k = 0; k < n_outs && rc != 2; k++) {
        fkcg_buf old;
        fkcg_buf_init(&old);
        int err = read_file(outs[k], &old);
        if (err && err != ENOENT) {
            fkcg_cli_error("fkcgen gen", NULL, "cannot read %s: %s", outs[k], open_error(err));
            rc = 2;
        } else {
            size_t before = diff.len;
            fkcg_unified_diff(err ? "/dev/null" : outs[k], old.data ? old.data : "", old.len,
                              outs[k], texts[k]->data ? texts[k]->data : "", texts[k]->len, &diff);
            if (rep)
                fkcg_report_case(rep, outs[k]);
            if (diff.len != before && rep) {
                fkcg_buf msg;
                fkcg_buf_init(&msg);
                fkcg_buf_printf(&msg,
                                "%s is %s the contracts: regenerate with `make` (fkcgen gen) "
                                "and commit it",
                                outs[k],
                                err ? "missing; it is generated from" : "out of date with");
                fkcg_loc at = {outs[k],
                               err ? 0
                                   : first_diff_line(old.data ? old.data : "", old.len,
                                                     texts[k]->data ? texts[k]->data : "",
                                                     texts[k]->len),
                               err ? 0 : 1};
                fkcg_report_add(rep, FKCG_RULE_DRIFT, "error", &at, msg.data, NULL);
                fkcg_buf_free(&msg);
                rc = 1;
            } else if (diff.len != before) {
                fkcg_cli_error("fkcgen gen", NULL, "%s is %s the contracts", outs[k],
                               err ? "missing; it is generated from" : "out of date with");
                rc = 1;
            }
        }
        fkcg_buf_free(&old);
    }
    if (diff.len)
        fwrite(diff.data, 1, diff.len, rep ? stderr : stdout);
    if (rc == 1 && !rep)
        fkcg_cli_error("fkcgen gen", NULL,
                       "regenerate with `make` (fkcgen gen) and commit generated/");
    fkcg_buf_free(&diff);
    return rc;
}

/* --check: the parts an earlier gen with more --shards left in DIR (this gen would remove
 * them: remove_stale_shards), each reported as an extra output. 0, or 1 when there is one. */
static int check_extra_parts(const gen_opts *o, int dir_fd, fkcg_report *rep)
{
    int rc = 0;
    for (size_t k = o->shards; dir_fd >= 0 && o->be->emit_parts && k < FKCG_MAX_SHARDS; k++) {
        char tpl[64], name[FKCG_PREFIX_MAX * 2 + 96];
        part_template(o->be, k, tpl, sizeof tpl);
        expand_tpl(tpl, o->prefix, name, sizeof name);
        if (!is_own_source(o->be, dir_fd, name))
            continue;
        char *path = output_path(o->out_dir, tpl, o->prefix);
        fkcg_buf msg;
        fkcg_buf_init(&msg);
        fkcg_buf_printf(&msg,
                        "%s is a part of an earlier gen --shards that this one (%zu part%s) does "
                        "not write: regenerate with `make` (fkcgen gen removes it)",
                        path, o->shards, o->shards == 1 ? "" : "s");
        if (rep) {
            fkcg_loc at = {path, 0, 0};
            fkcg_report_case(rep, path);
            fkcg_report_add(rep, FKCG_RULE_DRIFT, "error", &at, msg.data, NULL);
        } else {
            fkcg_cli_error("fkcgen gen", NULL, "%s", msg.data);
        }
        fkcg_buf_free(&msg);
        free(path);
        rc = 1;
    }
    return rc;
}

/* Completes both outputs (streamed while emitted); only when both are complete are they
 * renamed, so the pair is never half replaced. Then writes the depfile. dir_fd: the locked
 * output directory, synced after the renames. */
static int write_outputs(const gen_opts *o, char *const outs[], fkcg_buf *const texts[],
                         out_file files[], int n_outs, int dir_fd)
{
    int rc = 0;
    for (int k = 0; k < n_outs; k++) {
        fkcg_buf_drain_all(texts[k]);
        if (out_complete(&files[k]) != 0)
            rc = 2; /* the other output is dropped too, without a second message */
    }
    if (rc != 0) {
        drop_temps(); /* the header's complete file too, when only the source failed */
        return rc;
    }
    test_stop_before_rename();
    rc = out_commit(files, n_outs);
    if (rc == 0 && o->be->emit_parts)
        remove_stale_shards(o, dir_fd);
    if (rc == 0)
        fsync(dir_fd); /* the renames (and removals) on disk too (best effort) */
    if (rc != 0 || !o->depfile)
        return rc;
    fkcg_buf dep;
    fkcg_buf_init(&dep);
    make_depfile(o, outs, n_outs, &dep);
    rc = write_if_changed(o->depfile, &dep, MAX_OUTS);
    fkcg_buf_free(&dep);
    return rc;
}

/* The output names of the prefix and their paths under --out-dir (malloc'd): 0, or 2 after
 * saying why (a bad prefix, an output path that cannot be written). */
static int name_outputs(gen_opts *o, char *outs[MAX_OUTS], int *n_outs)
{
    const char *bad = fkcg_prefix_problem(o->prefix);
    if (bad) {
        fkcg_cli_error("fkcgen gen", usage, "--prefix '%s' %s", o->prefix, bad);
        return 2;
    }
    *n_outs = (int)fkcg_backend_count(o->be);
    for (int k = 0; k < MAX_OUTS; k++)
        outs[k] = k < *n_outs ? output_path(o->out_dir, o->be->outputs[k], o->prefix) : NULL;
    for (size_t k = 1; k < o->shards; k++) { /* --shards: part k (@_bindings_<k>.c) after them */
        char tpl[64];
        part_template(o->be, k, tpl, sizeof tpl);
        outs[(*n_outs)++] = output_path(o->out_dir, tpl, o->prefix);
    }
    if (check_paths(o, outs, *n_outs) != 0) {
        fkcg_cli_error("fkcgen gen", NULL, "nothing written");
        for (int k = 0; k < MAX_OUTS; k++)
            free(outs[k]);
        return 2;
    }
    return 0;
}

/* Before anything is written, under the lock of the output directory: the temporary files a
 * killed gen left there, of this run's outputs, and of its depfile when it lies there too (a
 * depfile elsewhere has no lock to say that no other gen writes it). */
static void remove_stale(const gen_opts *o, char *const outs[], int n_outs)
{
    for (int k = 0; k < n_outs; k++)
        remove_stale_temps(o->out_dir, strrchr(outs[k], '/') + 1); /* join_path put one there */
    if (!o->depfile)
        return;
    char *dir = dir_of(o->depfile), *cdir = canon_dir(dir), *cout = canon_dir(o->out_dir);
    const char *base = strrchr(o->depfile, '/') ? strrchr(o->depfile, '/') + 1 : o->depfile;
    if (cdir && cout && !strcmp(cdir, cout))
        remove_stale_temps(o->out_dir, base);
    free(cdir);
    free(cout);
    free(dir);
}

/* Opens the outputs (not with --check), then checks the table and emits it into texts, which
 * stream to their files while they are emitted (75 MiB for 10,000 sections need not sit in
 * memory; --check keeps them whole for the diff). 0, or 1 when the back end's checks found
 * errors: then nothing was emitted, *failed is set and the outputs are closed. failed: the
 * flag the outputs' writers share (it outlives this call). */
static int emit_outputs(const gen_opts *o, fkcg_run *run, const fkcg_table *t, char *const outs[],
                        fkcg_buf *const texts[], out_file files[], int n_outs, bool *failed)
{
    if (!o->check) {
        catch_signals();
        remove_stale(o, outs, n_outs);
    }
    for (int k = 0; k < n_outs && !o->check; k++) {
        out_open(&files[k], outs[k], k, failed);
        fkcg_buf_drain_to(texts[k], out_write, &files[k], OUT_DRAIN_AT);
    }
    /* the run's sink: the checks' messages quote the contract's line, as the front end's */
    size_t errors = fkcg_backend_run_parts(o->be, t, o->prefix, o->shards, fkcg_run_diag(run),
                                           texts);
    if (errors == 0)
        return 0;
    *failed = true; /* nothing was emitted, so nothing was written: close the outputs */
    for (int k = 0; k < n_outs && !o->check; k++)
        out_complete(&files[k]);
    return 1;
}

/* `fkcgen gen`: options, output names, the run (load, validate, bind), the locked output
 * directory, the back end, then the diff (--check) or the files, and the stubs. */
int fkcg_cmd_gen(int argc, char **argv)
{
    gen_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc != 0) {
        if (rc < 0)
            fputs(usage, stdout);
        return rc < 0 ? 0 : rc;
    }
    int n_outs;
    char *outs[MAX_OUTS];
    if (name_outputs(&o, outs, &n_outs) != 0)
        return 2;
    fkcg_run *run = fkcg_run_new(o.root, stderr);
    fkcg_report *rep = NULL;
    if (o.format != FKCG_FORMAT_TEXT) {
        rep = fkcg_report_new("fkcgen gen --check");
        fkcg_report_check_rules(rep);
        for (size_t f = 0; f < o.n_files; f++)
            fkcg_report_case(rep, o.files[f]);
        fkcg_diag_collect(fkcg_run_diag(run), rep);
    }
    rc = fkcg_run_load(run, (const char *const *)o.files, o.n_files);
    fkcg_buf bufs[MAX_OUTS];
    fkcg_buf *texts[MAX_OUTS];
    for (int k = 0; k < MAX_OUTS; k++) {
        fkcg_buf_init(&bufs[k]);
        texts[k] = &bufs[k];
    }
    out_file files[MAX_OUTS];
    bool failed = false;
    size_t created = 0; /* levels of the output directory this run made */
    /* From here to the end the output directory is locked: gen runs on it serialise. */
    int dir_fd = rc == 0 ? lock_out_dir(o.out_dir, !o.check, &created) : -1;
    if (dir_fd == -2)
        rc = 2;
    /* --select: the table cut down to the bindings the file names (errors: contract errors) */
    fkcg_table selected = {0};
    const fkcg_table *t = fkcg_run_table(run);
    if (rc == 0 && o.select) {
        fkcg_diag_rule(fkcg_run_diag(run), FKCG_RULE_SELECT, NULL);
        rc = fkcg_select(t, o.select, fkcg_run_diag(run), &selected);
        t = &selected;
    }
    fkcg_diag_rule(fkcg_run_diag(run), FKCG_RULE_BACKEND, NULL);
    if (rc == 0)
        rc = emit_outputs(&o, run, t, outs, texts, files, n_outs, &failed);
    if (rc != 0 && !rep)
        fkcg_cli_error("fkcgen gen", NULL, "nothing written%s",
                       rc == 1 ? " (contract errors)" : "");
    else if (rc == 0 && o.check) {
        rc = check_outputs(outs, texts, n_outs, rep);
        if (rc != 2 && check_extra_parts(&o, dir_fd, rep) != 0)
            rc = 1;
    } else if (rc == 0)
        rc = write_outputs(&o, outs, texts, files, n_outs, dir_fd);
    if (rep && fkcg_report_print(rep, o.format, stdout) != 0)
        rc = 2;
    fkcg_report_free(rep);
    if (rc == 0 && o.stubs)
        rc = write_stubs(o.be, o.stubs, o.prefix, t);
    if (rc != 0 && created)
        remove_made(o.out_dir, created); /* made for this run, which wrote nothing in it */
    if (dir_fd >= 0)
        close(dir_fd); /* the lock goes with it */
    for (int k = 0; k < MAX_OUTS; k++)
        free(outs[k]);
    for (int k = 0; k < MAX_OUTS; k++)
        fkcg_buf_free(&bufs[k]);
    fkcg_select_free(&selected);
    fkcg_run_free(run);
    return rc;
}
