/* emit_main.c — the `gen` subcommand: load and validate the contracts, emit the C sources in
 * memory, then either compare them with the output directory (--check: a unified diff, exit 1
 * on drift, never writes) or replace the files that changed, each atomically (temp + rename).
 * Nothing is written when any contract has an error. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "fkcgen.h"

int fkcg_cmd_gen(int argc, char **argv);

typedef struct gen_opts {
    const char *out_dir;  /* --out-dir */
    const char *depfile;  /* --depfile, or NULL */
    const char *root;     /* --root, or NULL (the current directory) */
    bool check;           /* --check */
    char **files;         /* the contracts */
    size_t n_files;
} gen_opts;

static const char usage[] =
    "usage: fkcgen gen --out-dir DIR [--check] [--depfile FILE] [--root DIR] FILE...\n"
    "  Emits DIR/" FKCG_EMIT_HEADER " and DIR/" FKCG_EMIT_SOURCE " from the contracts.\n"
    "  --check         compare with DIR instead: print a unified diff, exit 1 on drift\n"
    "  --depfile FILE  also write a make dependency file for the outputs\n"
    "  --root DIR      make contract paths relative to DIR (default: the current directory)\n";

/* Takes the value of option `name` ("--name VALUE" or "--name=VALUE"); 1 when matched. */
static int take_value(const char *name, int argc, char **argv, int *i, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return 0;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        *value = NULL;
        return 1;
    }
    *value = argv[++*i];
    return 1;
}

/* Parses argv (argv[0] is "gen"). 0 when fine, 2 on a usage error (reported), -1 for --help. */
static int parse_opts(int argc, char **argv, gen_opts *o)
{
    memset(o, 0, sizeof *o);
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
        const char *v = NULL, *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            return -1;
        } else if (strcmp(a, "--check") == 0) {
            o->check = true;
            continue;
        } else if (take_value("--out-dir", argc, argv, &i, &v)) {
            o->out_dir = v;
        } else if (take_value("--depfile", argc, argv, &i, &v)) {
            o->depfile = v;
        } else if (take_value("--root", argc, argv, &i, &v)) {
            o->root = v;
        } else {
            fprintf(stderr, "fkcgen gen: unknown option '%s'\n%s", a, usage);
            return 2;
        }
        if (!v || !*v) {
            fprintf(stderr, "fkcgen gen: option '%s' needs a value\n%s", a, usage);
            return 2;
        }
    }
    o->files = argv + i;
    o->n_files = (size_t)(argc - i);
    if (!o->out_dir || o->n_files == 0) {
        fprintf(stderr, "fkcgen gen: %s\n%s",
                o->out_dir ? "no contract given" : "--out-dir is required", usage);
        return 2;
    }
    if (o->check && o->depfile) {
        fprintf(stderr, "fkcgen gen: --check never writes; it takes no --depfile\n%s", usage);
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

/* Reads a whole file into b. 0, ENOENT when it does not exist, or another errno. */
static int read_file(const char *path, fkcg_buf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno ? errno : EIO;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        fkcg_buf_put(b, chunk, n);
    int err = ferror(f) ? EIO : 0;
    fclose(f);
    return err;
}

/* Writes text to path through a temporary file in the same directory and a rename, unless
 * path already holds exactly text (then it is not touched). 0 or 2 (reported). */
static int write_if_changed(const char *path, const fkcg_buf *text)
{
    fkcg_buf old;
    fkcg_buf_init(&old);
    int rc = read_file(path, &old);
    bool same = rc == 0 && old.len == text->len && memcmp(old.data, text->data, text->len) == 0;
    fkcg_buf_free(&old);
    if (same)
        return 0;
    char *tmp = malloc(strlen(path) + 16);
    if (!tmp)
        fkcg_oom();
    sprintf(tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "fkcgen gen: cannot create a file next to %s: %s\n", path, strerror(errno));
        free(tmp);
        return 2;
    }
    mode_t mask = umask(0);
    umask(mask);
    size_t done = 0;
    while (done < text->len) {
        ssize_t w = write(fd, text->data + done, text->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int err = done == text->len ? 0 : errno ? errno : EIO;
    if (!err && fchmod(fd, 0666 & ~mask) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err) {
        fprintf(stderr, "fkcgen gen: cannot write %s: %s\n", path, strerror(err));
        unlink(tmp);
    }
    free(tmp);
    return err ? 2 : 0;
}

/* A path as a make target or prerequisite: spaces, '#' and '$' escaped. */
static void put_make_path(fkcg_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '#' || *s == '\\')
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
static void make_depfile(const gen_opts *o, char *const outs[2], fkcg_buf *b)
{
    char *self = self_path();
    put_make_path(b, outs[0]);
    fkcg_buf_putc(b, ' ');
    put_make_path(b, outs[1]);
    fkcg_buf_putc(b, ':');
    for (size_t i = 0; i < o->n_files; i++) {
        fkcg_buf_puts(b, " \\\n  ");
        put_make_path(b, o->files[i]);
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
    free(self);
}

/* --check: diff each output against DIR; 0 up to date, 1 drift, 2 unreadable. */
static int check_outputs(char *const outs[2], fkcg_buf *const texts[2])
{
    int rc = 0;
    fkcg_buf diff;
    fkcg_buf_init(&diff);
    for (int k = 0; k < 2 && rc != 2; k++) {
        fkcg_buf old;
        fkcg_buf_init(&old);
        int err = read_file(outs[k], &old);
        if (err && err != ENOENT) {
            fprintf(stderr, "fkcgen gen: cannot read %s: %s\n", outs[k], strerror(err));
            rc = 2;
        } else {
            size_t before = diff.len;
            fkcg_unified_diff(err ? "/dev/null" : outs[k], old.data ? old.data : "", old.len,
                              outs[k], texts[k]->data ? texts[k]->data : "", texts[k]->len, &diff);
            if (diff.len != before) {
                fprintf(stderr, "fkcgen gen: %s is %s the contracts\n", outs[k],
                        err ? "missing; it is generated from" : "out of date with");
                rc = 1;
            }
        }
        fkcg_buf_free(&old);
    }
    if (diff.len)
        fwrite(diff.data, 1, diff.len, stdout);
    if (rc == 1)
        fputs("fkcgen gen: regenerate with `make` (fkcgen gen) and commit generated/\n", stderr);
    fkcg_buf_free(&diff);
    return rc;
}

/* Writes both outputs (creating DIR when missing) and the depfile. */
static int write_outputs(const gen_opts *o, char *const outs[2], fkcg_buf *const texts[2])
{
    if (mkdir(o->out_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "fkcgen gen: cannot create %s: %s\n", o->out_dir, strerror(errno));
        return 2;
    }
    for (int k = 0; k < 2; k++)
        if (write_if_changed(outs[k], texts[k]) != 0)
            return 2;
    if (!o->depfile)
        return 0;
    fkcg_buf dep;
    fkcg_buf_init(&dep);
    make_depfile(o, outs, &dep);
    int rc = write_if_changed(o->depfile, &dep);
    fkcg_buf_free(&dep);
    return rc;
}

int fkcg_cmd_gen(int argc, char **argv)
{
    gen_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc != 0) {
        if (rc < 0)
            fputs(usage, stdout);
        return rc < 0 ? 0 : rc;
    }
    fkcg_run *run = fkcg_run_new(o.root, stderr);
    rc = fkcg_run_load(run, (const char *const *)o.files, o.n_files);
    fkcg_buf h, c;
    fkcg_buf_init(&h);
    fkcg_buf_init(&c);
    if (rc == 0 && fkcg_emit_c_checked(fkcg_run_table(run), stderr, &h, &c) != 0)
        rc = 1;
    if (rc != 0) {
        fprintf(stderr, "fkcgen gen: nothing written%s\n", rc == 1 ? " (contract errors)" : "");
        fkcg_buf_free(&h);
        fkcg_buf_free(&c);
        fkcg_run_free(run);
        return rc;
    }
    char *outs[2] = {join_path(o.out_dir, FKCG_EMIT_HEADER), join_path(o.out_dir, FKCG_EMIT_SOURCE)};
    fkcg_buf *texts[2] = {&h, &c};
    rc = o.check ? check_outputs(outs, texts) : write_outputs(&o, outs, texts);
    free(outs[0]);
    free(outs[1]);
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
    fkcg_run_free(run);
    return rc;
}
