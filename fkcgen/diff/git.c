/* git.c — the files `fkcgen diff` compares: an operand's contracts (a file, or the *.md
 * files below a directory), and for --against-git a revision's, listed with `git ls-tree` and
 * read with `git show REV:path`. git runs as a child process from an argument vector (never
 * a shell), its stdout and stderr read through pipes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diff.h"

extern char **environ;

void fkcg_file_list_push(fkcg_arena *a, fkcg_file_list *l, const char *path, const char *name,
                         const char *data, size_t len)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        const char **p = fkcg_alloc(a, cap * sizeof *p), **nm = fkcg_alloc(a, cap * sizeof *nm);
        const char **d = fkcg_alloc(a, cap * sizeof *d);
        size_t *ln = fkcg_alloc(a, cap * sizeof *ln);
        if (l->n) {
            memcpy(p, l->paths, l->n * sizeof *p);
            memcpy(nm, l->names, l->n * sizeof *nm);
            memcpy(d, l->data, l->n * sizeof *d);
            memcpy(ln, l->lens, l->n * sizeof *ln);
        }
        l->paths = p, l->names = nm, l->data = d, l->lens = ln;
        l->cap = cap;
    }
    l->paths[l->n] = path;
    l->names[l->n] = name;
    l->data[l->n] = data;
    l->lens[l->n] = len;
    l->n++;
}

static bool is_md(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && !strcmp(name + n - 3, ".md");
}

/* Appends the regular *.md files below dir (shown as shown/..., named prefix...), depth first;
 * names starting with '.' and symbolic links skipped. */
static int walk(fkcg_arena *a, const char *cmd, const char *dir, const char *shown,
                const char *prefix, fkcg_file_list *out, unsigned depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        fkcg_cli_error(cmd, NULL, "cannot read directory '%s': %s", shown, strerror(errno));
        return 2;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        const char *path = fkcg_sprintf(a, "%s/%s", dir, e->d_name);
        const char *sh = *shown ? fkcg_sprintf(a, "%s/%s", shown, e->d_name)
                                : fkcg_strdup(a, e->d_name); /* readdir reuses its buffer */
        const char *name = fkcg_sprintf(a, "%s%s", prefix, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0) {
            fkcg_cli_error(cmd, NULL, "cannot read '%s': %s", sh, strerror(errno));
            rc = 2;
        } else if (S_ISDIR(st.st_mode) && depth < 64) {
            rc = walk(a, cmd, path, sh, fkcg_sprintf(a, "%s/", name), out, depth + 1);
        } else if (S_ISREG(st.st_mode) && is_md(e->d_name)) {
            fkcg_file_list_push(a, out, sh, name, NULL, 0);
        }
    }
    closedir(d);
    return rc;
}

static const fkcg_file_list *sort_list; /* qsort has no context argument */

static int by_name(const void *x, const void *y)
{
    return strcmp(sort_list->names[*(const size_t *)x], sort_list->names[*(const size_t *)y]);
}

/* Sorts l[from..) by name and drops repeated names (operands that overlap). */
static void sort_unique(fkcg_arena *a, fkcg_file_list *l, size_t from)
{
    size_t n = l->n - from;
    size_t *ix = fkcg_alloc(a, (n + 1) * sizeof *ix);
    for (size_t i = 0; i < n; i++)
        ix[i] = from + i;
    sort_list = l;
    qsort(ix, n, sizeof *ix, by_name);
    fkcg_file_list copy = {0};
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(l->names[ix[i]], l->names[ix[i - 1]]) != 0)
            fkcg_file_list_push(a, &copy, l->paths[ix[i]], l->names[ix[i]], l->data[ix[i]],
                                l->lens[ix[i]]);
    l->n = from;
    for (size_t i = 0; i < copy.n; i++)
        fkcg_file_list_push(a, l, copy.paths[i], copy.names[i], copy.data[i], copy.lens[i]);
}

/* A path without "." components, repeated or trailing slashes ("./a//b/" → "a/b"; "" → "."). */
static const char *tidy(fkcg_arena *a, const char *path)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    if (path[0] == '/')
        fkcg_buf_putc(&b, '/');
    for (const char *s = path; *s;) {
        size_t n = strcspn(s, "/");
        if (n && !(n == 1 && s[0] == '.')) {
            if (b.len && b.data[b.len - 1] != '/')
                fkcg_buf_putc(&b, '/');
            fkcg_buf_put(&b, s, n);
        }
        s += n;
        while (*s == '/')
            s++;
    }
    const char *out = fkcg_strdup(a, b.len ? b.data : ".");
    fkcg_buf_free(&b);
    return out;
}

int fkcg_list_operand(fkcg_arena *a, const char *cmd, const char *path, fkcg_file_list *out)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fkcg_cli_error(cmd, NULL, "'%s': %s", path, strerror(errno));
        return 2;
    }
    if (S_ISREG(st.st_mode)) {
        fkcg_file_list_push(a, out, path, "", NULL, 0);
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        fkcg_cli_error(cmd, NULL, "'%s': not a regular file or a directory", path);
        return 2;
    }
    const char *dir = tidy(a, path);
    size_t from = out->n;
    int rc = walk(a, cmd, dir, !strcmp(dir, ".") ? "" : dir, "", out, 0);
    sort_unique(a, out, from);
    return rc;
}

/* ---- git ---- */

typedef struct child_out {
    fkcg_buf out, err; /* stdout (at most cap bytes kept) and stderr */
    size_t out_total;  /* stdout's bytes, kept or not */
    size_t cap;
} child_out;

/* Reads both pipes to their ends (poll: a child filling one while we wait on the other
 * would never finish). */
static void drain(int fo, int fe, child_out *r)
{
    struct pollfd p[2] = {{fo, POLLIN, 0}, {fe, POLLIN, 0}};
    char buf[65536];
    while (p[0].fd >= 0 || p[1].fd >= 0) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(p[i].fd, buf, sizeof buf);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                close(p[i].fd);
                p[i].fd = -1;
                continue;
            }
            if (i == 1) {
                if (r->err.len < 4096)
                    fkcg_buf_put(&r->err, buf, (size_t)got);
                continue;
            }
            size_t keep = r->out_total < r->cap ? r->cap - r->out_total : 0;
            fkcg_buf_put(&r->out, buf, (size_t)got < keep ? (size_t)got : keep);
            r->out_total += (size_t)got;
        }
    }
}

/* Runs argv (argv[0] "git", found on PATH) with stdin from /dev/null: its exit status, or -1
 * when it could not be started (errno in *err_no). */
static int run_child(const char *const *argv, child_out *r, int *err_no)
{
    int po[2], pe[2];
    if (pipe(po) != 0) {
        *err_no = errno;
        return -1;
    }
    if (pipe(pe) != 0) {
        *err_no = errno;
        close(po[0]), close(po[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    pid_t pid;
    int e = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (e != 0) {
        close(po[0]), close(pe[0]);
        *err_no = e;
        return -1;
    }
    drain(po[0], pe[0], r);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            *err_no = errno;
            return -1;
        }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* 0 for git's status st 0, else 2 after reporting its failure (what: the command, for the
 * message; git's first line of stderr quoted). */
static int git_status(const char *cmd, const char *what, int st, int err_no, const child_out *r)
{
    if (st == 0)
        return 0;
    if (st < 0) {
        fkcg_cli_error(cmd, NULL, "cannot run git (%s): %s", what, strerror(err_no));
        return 2;
    }
    const char *e = r->err.data ? r->err.data : "";
    fkcg_cli_error(cmd, NULL, "%s failed (git exit %d)%s%.*s", what, st, *e ? ": " : "",
                   (int)strcspn(e, "\n"), e);
    return 2;
}

static int git(const char *cmd, const char *const *argv, const char *what, child_out *r)
{
    int err_no = 0;
    int st = run_child(argv, r, &err_no);
    return git_status(cmd, what, st, err_no, r);
}

static void child_free(child_out *r)
{
    fkcg_buf_free(&r->out);
    fkcg_buf_free(&r->err);
}

/* The commit rev names (rev "X..." the merge base of X and HEAD), 40 or 64 hex digits. */
static const char *resolve(fkcg_arena *a, const char *cmd, const char *rev)
{
    size_t n = strlen(rev);
    bool base = n > 3 && !strcmp(rev + n - 3, "...");
    child_out r = {.cap = 256};
    const char *spec = base ? fkcg_strndup(a, rev, n - 3) : fkcg_sprintf(a, "%s^{commit}", rev);
    const char *const mb[] = {"git", "merge-base", spec, "HEAD", NULL};
    const char *const rp[] = {"git", "rev-parse", "--verify", "--quiet", spec, NULL};
    const char *what = base ? fkcg_sprintf(a, "git merge-base %s HEAD", spec)
                            : fkcg_sprintf(a, "git rev-parse --verify %s", spec);
    const char *out = NULL;
    int err_no = 0, rc;
    if (base) {
        rc = git(cmd, mb, what, &r);
    } else { /* --quiet: an unknown revision fails with nothing on stderr */
        int st = run_child(rp, &r, &err_no);
        rc = st == 0 ? 0 : 2;
        if (st == 1 && !r.err.len)
            fkcg_cli_error(cmd, NULL, "'%s' names no commit", rev);
        else
            rc = git_status(cmd, what, st, err_no, &r);
    }
    if (rc == 0 && r.out.data) {
        size_t len = strspn(r.out.data, "0123456789abcdef");
        if (len >= 40)
            out = fkcg_strndup(a, r.out.data, len);
    }
    if (rc == 0 && !out)
        fkcg_cli_error(cmd, NULL, "%s printed no commit", what);
    child_free(&r);
    return out;
}

/* Does name lie below dir ("." holds everything) without a component starting with '.' under
 * it? */
static bool listed_below(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    const char *rest = name;
    if (strcmp(dir, ".") != 0) {
        if (strncmp(name, dir, n) != 0 || name[n] != '/')
            return false;
        rest = name + n + 1;
    }
    for (const char *s = rest; *s; s += strcspn(s, "/"), s += *s == '/')
        if (*s == '.')
            return false;
    return is_md(rest);
}

/* The files of one path at the commit: `git ls-tree -r -z COMMIT -- PATH` (names relative to
 * the current directory, as PATH is). The path itself when it names a file there. */
static int list_at(fkcg_arena *a, const char *cmd, const char *rev, const char *commit,
                   const char *path, fkcg_file_list *out, bool *found)
{
    child_out r = {.cap = (size_t)64 << 20};
    const char *const argv[] = {
        "git", "--literal-pathspecs", "ls-tree", "-r", "-z", commit, "--", path, NULL};
    int rc = git(cmd, argv, fkcg_sprintf(a, "git ls-tree %s -- %s", rev, path), &r);
    for (size_t at = 0; rc == 0 && at < r.out.len;) {
        const char *rec = r.out.data + at, *tab = memchr(rec, '\t', r.out.len - at);
        size_t len = strnlen(rec, r.out.len - at);
        at += len + 1;
        if (!tab || tab > rec + len)
            continue;
        const char *name = fkcg_strndup(a, tab + 1, (size_t)(rec + len - tab - 1));
        bool self = !strcmp(name, path);
        bool blob = !strncmp(rec, "100644 blob ", 12) || !strncmp(rec, "100755 blob ", 12);
        *found = true;
        if (self && !blob) {
            fkcg_cli_error(cmd, NULL,
                           "'%s' at %s is not a regular file (a symbolic link or a "
                           "submodule)",
                           path, rev);
            rc = 2;
        } else if (blob && (self || listed_below(path, name))) {
            fkcg_file_list_push(a, out, fkcg_sprintf(a, "%s:%s", rev, name), name, NULL, 0);
        }
    }
    child_free(&r);
    return rc;
}

/* Reads each file of l[from..) with `git show --no-textconv COMMIT:./path`. */
static int read_at(fkcg_arena *a, const char *cmd, const char *commit, fkcg_file_list *l,
                   size_t from)
{
    for (size_t i = from; i < l->n; i++) {
        const char *name = l->names[i];
        const char *spec = fkcg_sprintf(a, "%s:%s%s", commit, strncmp(name, "../", 3) ? "./" : "",
                                        name);
        const char *const argv[] = {"git", "show", "--no-textconv", spec, NULL};
        child_out r = {.cap = FKCG_MAX_FILE_BYTES + 1};
        int rc = git(cmd, argv, fkcg_sprintf(a, "git show %s", l->paths[i]), &r);
        if (rc == 0) {
            l->data[i] = fkcg_strndup(a, r.out.data ? r.out.data : "", r.out.len);
            l->lens[i] = r.out_total; /* over the limit: the run reports the size */
        }
        child_free(&r);
        if (rc)
            return rc;
    }
    return 0;
}

int fkcg_git_sides(fkcg_arena *a, const char *cmd, const char *rev, const char *const *paths,
                   size_t n_paths, fkcg_file_list *old, fkcg_file_list *new_)
{
    const char *commit = resolve(a, cmd, rev);
    if (!commit)
        return 2;
    int rc = 0;
    for (size_t i = 0; i < n_paths && rc == 0; i++) {
        if (paths[i][0] == '/') {
            fkcg_cli_error(cmd, NULL,
                           "'%s': with --against-git, give paths relative to the "
                           "current directory (git and the working tree are compared by them)",
                           paths[i]);
            return 2;
        }
        const char *p = tidy(a, paths[i]);
        bool at_rev = false, here = false;
        rc = list_at(a, cmd, rev, commit, p, old, &at_rev);
        struct stat st;
        if (rc == 0 && stat(p, &st) == 0) {
            here = true;
            if (S_ISREG(st.st_mode))
                fkcg_file_list_push(a, new_, p, p, NULL, 0);
            else if (S_ISDIR(st.st_mode))
                rc = walk(a, cmd, p, strcmp(p, ".") ? p : "",
                          strcmp(p, ".") ? fkcg_sprintf(a, "%s/", p) : "", new_, 0);
            else {
                fkcg_cli_error(cmd, NULL, "'%s': not a regular file or a directory", p);
                rc = 2;
            }
        } else if (rc == 0 && errno != ENOENT) {
            fkcg_cli_error(cmd, NULL, "'%s': %s", p, strerror(errno));
            rc = 2;
        }
        if (rc == 0 && !at_rev && !here) {
            fkcg_cli_error(cmd, NULL, "'%s' is neither in the working tree nor at %s", p, rev);
            rc = 2;
        }
    }
    if (rc == 0) {
        sort_unique(a, old, 0);
        sort_unique(a, new_, 0);
        rc = read_at(a, cmd, commit, old, 0);
    }
    return rc;
}
