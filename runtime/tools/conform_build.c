/* conform_build.c — how `fkc-run conform` turns contracts into code it can call: a private
 * temp directory, `fkcgen dump --json` (the claims) and `fkcgen gen` (the bindings) run there,
 * the C compiler building one shared object of the bindings, the shim (conform_shim.c, embedded)
 * and the --wrappers files, then dlopen. fkcgen is found beside fkc-run (or --fkcgen, $FKCGEN),
 * fkc's headers relative to fkc-run (build tree or installed tree), the compiler in $CC (else
 * cc). The directory is removed on every exit: by conform_build_end, and otherwise (a signal,
 * SIGKILL included) by a cleaner process that waits until every process holding its pipe
 * (fkc-run, fkcgen, the compiler and its children) is gone. The compiler runs in a process
 * group of its own, killed whole when it runs past --cc-timeout; once it has exited nothing
 * waits for what it left running (a wrapper's daemon: conform_build_end stops the cleaner
 * after removing the directory itself). */
#include "conform.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "conform_shim.inc" /* conform_shim_c[], conform_shim_h[]: runtime/tools/shim/ */

extern char **environ;

/* Where fkc's headers lie relative to fkc-run's directory (runtime/cli.mk sets both). */
#ifndef CLI_BUILD_INCLUDE
#define CLI_BUILD_INCLUDE "../runtime/include"
#endif
#ifndef CLI_INSTALL_INCLUDE
#define CLI_INSTALL_INCLUDE "../include"
#endif

#define MAX_ARGS (80 + 2 * CLI_MAX_WRAPPERS)

/* ---- the directory and its cleaner --------------------------------------------------------- */

/* Removes path and, when it is a directory, everything under it (depth-first). */
static void remove_tree(const char *path, int depth)
{
    DIR *d = depth < 8 ? opendir(path) : NULL;
    struct dirent *e;
    char sub[PATH_MAX];
    if (!d) {
        unlink(path);
        return;
    }
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < (int)sizeof sub)
            remove_tree(sub, depth + 1);
    }
    closedir(d);
    rmdir(path);
}

/* The cleaner: a child made before any thread exists. It holds the read end of a pipe whose
 * write end fkc-run and every process it starts inherit; once they are all gone (normal exit,
 * a signal, SIGKILL) read() returns 0 and it removes the directory. It ignores the signals a
 * terminal or a script sends to the whole process group, so that it outlives them. */
static void run_cleaner(int fd, const char *dir)
{
    char buf[64];
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r == 0 || (r < 0 && errno != EINTR))
            break;
    }
    remove_tree(dir, 0);
    _exit(0);
}

int conform_build_begin(conform_build *b, char err[CLI_ERR_MAX])
{
    const char *tmp = getenv("TMPDIR");
    int fds[2];
    memset(b, 0, sizeof *b);
    b->keep_fd = -1;
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (snprintf(b->dir, sizeof b->dir, "%s/fkc-conform.XXXXXX", tmp) >= (int)sizeof b->dir) {
        b->dir[0] = '\0';
        cli_errf(err, "conform: TMPDIR '%s' is too long", tmp);
        return CLI_EXIT_FAIL;
    }
    if (!mkdtemp(b->dir)) {
        cli_errf(err, "conform: cannot make a temporary directory in %s: %s", tmp, strerror(errno));
        b->dir[0] = '\0';
        return CLI_EXIT_FAIL;
    }
    snprintf(b->json, sizeof b->json, "%s/claims.json", b->dir);
    fflush(NULL); /* nothing buffered is written twice */
    if (pipe(fds) < 0 || (b->cleaner = fork()) < 0) {
        cli_errf(err, "conform: cannot start the process that removes %s: %s", b->dir,
                 strerror(errno));
        remove_tree(b->dir, 0);
        b->dir[0] = '\0';
        b->cleaner = 0;
        return CLI_EXIT_FAIL;
    }
    if (b->cleaner == 0) {
        close(fds[1]);
        run_cleaner(fds[0], b->dir);
    }
    close(fds[0]);
    b->keep_fd = fds[1]; /* inherited by fkcgen and the compiler, on purpose */
    return CLI_EXIT_OK;
}

void conform_build_end(conform_build *b)
{
    if (b->dl)
        dlclose(b->dl);
    b->dl = NULL;
    b->shim = NULL;
    b->generic = NULL;
    if (b->dir[0])
        remove_tree(b->dir, 0);
    b->dir[0] = '\0';
    if (b->keep_fd >= 0)
        close(b->keep_fd);
    b->keep_fd = -1;
    /* The directory is gone: the cleaner has nothing left to do, and a process the compiler
     * left behind (sccache's server idles for minutes) still holds its pipe. */
    if (b->cleaner > 0)
        kill(b->cleaner, SIGKILL);
    while (b->cleaner > 0 && waitpid(b->cleaner, NULL, 0) < 0 && errno == EINTR)
        ;
    b->cleaner = 0;
}

/* ---- finding the tools ---------------------------------------------------------------------- */

/* fkc-run's own directory ("/usr/local/bin"). */
static int self_dir(char *out, size_t cap, char err[CLI_ERR_MAX])
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n <= 0 || (size_t)n >= cap - 1) {
        cli_errf(err, "conform: cannot find fkc-run's own path (/proc/self/exe): %s",
                 n < 0 ? strerror(errno) : "too long");
        return -1;
    }
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
    return 0;
}

/* fkcgen: --fkcgen, else $FKCGEN, else beside fkc-run. */
static int find_fkcgen(const cli_opts *o, const char *self, char *out, size_t cap,
                       char err[CLI_ERR_MAX])
{
    const char *env = getenv("FKCGEN");
    const char *how = o->fkcgen ? "--fkcgen" : env && *env ? "FKCGEN" : NULL;
    if (how)
        snprintf(out, cap, "%s", o->fkcgen ? o->fkcgen : env);
    else
        snprintf(out, cap, "%s/fkcgen", self);
    if (strchr(out, '/') && access(out, X_OK) != 0) {
        cli_errf(err, "conform: %s%s%s: no fkcgen there (%s); pass --fkcgen PATH or set FKCGEN",
                 how ? how : "", how ? " " : "beside fkc-run, ", out, strerror(errno));
        return -1;
    }
    return 0;
}

/* fkc's headers: the build tree's runtime/include, else the installed tree's include. */
static int find_headers(const char *self, char *out, size_t cap, char err[CLI_ERR_MAX])
{
    static const char *const rel[] = {CLI_BUILD_INCLUDE, CLI_INSTALL_INCLUDE};
    char probe[PATH_MAX + 32];
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        int n = snprintf(out, cap, "%s/%s", self, rel[i]);
        int m = snprintf(probe, sizeof probe, "%s/fkc/fkc_kernels.h", out);
        if (n > 0 && (size_t)n < cap && m > 0 && (size_t)m < sizeof probe &&
            access(probe, R_OK) == 0)
            return 0;
    }
    cli_errf(err, "conform: cannot find fkc's headers (fkc/fkc_kernels.h) in %s/%s or %s/%s", self,
             rel[0], self, rel[1]);
    return -1;
}

/* ---- running a program ------------------------------------------------------------------ */

#define RUN_TIMED_OUT (-2) /* run_program: past its time limit, its process group killed */

/* Waits for pid; with limit_s > 0, at most that many seconds, then kills its process group
 * (pid is its leader) and reaps it. Its wait status, or RUN_TIMED_OUT, or -1 with errno. */
static int wait_limited(pid_t pid, uint32_t limit_s)
{
    struct timespec t0, now, nap = {0, 1000000}; /* 1 ms, doubling to 64 ms */
    int status;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pid_t r = waitpid(pid, &status, limit_s ? WNOHANG : 0);
        if (r == pid)
            return status;
        if (r < 0 && errno != EINTR)
            return -1;
        if (r != 0)
            continue;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - t0.tv_sec) * 1000000000LL + (now.tv_nsec - t0.tv_nsec) >=
            (long long)limit_s * 1000000000LL) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            return RUN_TIMED_OUT;
        }
        nanosleep(&nap, NULL);
        if (nap.tv_nsec < 64000000)
            nap.tv_nsec *= 2;
    }
}

/* Runs argv (searched in PATH when argv[0] has no '/'), stdout to out_path when not NULL, with
 * TMPDIR pointing into the build's directory (a compiler killed mid-run leaves its temporaries
 * there); with limit_s > 0 in a process group of its own, killed whole after limit_s seconds.
 * Its exit status; -1 with errno when it could not start; 256 + N when signal N ended it;
 * RUN_TIMED_OUT. */
static int run_program(const conform_build *b, char *const argv[], const char *out_path,
                       uint32_t limit_s)
{
    static char tmpdir_env[PATH_MAX + 8];
    char *envp[1024];
    size_t n = 0;
    snprintf(tmpdir_env, sizeof tmpdir_env, "TMPDIR=%s", b->dir);
    envp[n++] = tmpdir_env;
    for (char **e = environ; *e && n < sizeof envp / sizeof envp[0] - 1; e++)
        if (strncmp(*e, "TMPDIR=", 7) != 0)
            envp[n++] = *e;
    envp[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (out_path)
        posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (limit_s) { /* its own process group (pgid = its pid): what a timeout kills */
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attr, 0);
    }
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    int status = wait_limited(pid, limit_s);
    if (status < 0)
        return status;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 256 + WTERMSIG(status);
}

/* A program's end as a message: "exit 2", "signal 9". */
static const char *ended(int rc, char *buf, size_t cap)
{
    snprintf(buf, cap, rc >= 256 ? "killed by signal %d" : "exit status %d",
             rc >= 256 ? rc - 256 : rc);
    return buf;
}

/* `fkcgen COMMAND ARGS... -- CONTRACTS...` (stdout to out_path when not NULL). */
static int run_fkcgen(const conform_build *b, const cli_opts *o, const char *fkcgen,
                      const char *const *args, size_t n_args, const char *out_path,
                      char err[CLI_ERR_MAX])
{
    char *argv[MAX_ARGS + CLI_MAX_CONTRACTS];
    char why[64];
    size_t n = 0;
    argv[n++] = (char *)fkcgen;
    for (size_t i = 0; i < n_args; i++)
        argv[n++] = (char *)args[i];
    argv[n++] = "--";
    for (uint32_t i = 0; i < o->n_contracts; i++)
        argv[n++] = (char *)o->contracts[i];
    argv[n] = NULL;
    int rc = run_program(b, argv, out_path, 0);
    if (rc == 0)
        return CLI_EXIT_OK;
    if (rc < 0)
        cli_errf(err, "conform: cannot run fkcgen (%s): %s", fkcgen, strerror(errno));
    else if (rc == 1 || rc == 2)
        cli_errf(err, "conform: fkcgen %s refused the contracts (its messages are above)", args[0]);
    else
        cli_errf(err, "conform: fkcgen %s failed: %s", args[0], ended(rc, why, sizeof why));
    return CLI_EXIT_FAIL;
}

int conform_build_dump(conform_build *b, const cli_opts *o, char err[CLI_ERR_MAX])
{
    char self[PATH_MAX], fkcgen[2 * PATH_MAX];
    static const char *const args[] = {"dump", "--json"};
    if (self_dir(self, sizeof self, err) < 0 ||
        find_fkcgen(o, self, fkcgen, sizeof fkcgen, err) < 0)
        return CLI_EXIT_FAIL;
    return run_fkcgen(b, o, fkcgen, args, 2, b->json, err);
}

/* ---- compiling and loading ------------------------------------------------------------------ */

static int write_file(const char *path, const unsigned char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(bytes, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

/* fkcgen's C name of an op kind (core/names.c, fkcg_snake_case): "GELUTanh" -> "gelu_tanh". */
static void snake_case(const char *camel, char *out, size_t cap)
{
    size_t k = 0, n = strlen(camel);
    for (size_t i = 0; i < n && k + 3 < cap; i++) {
        int c = (unsigned char)camel[i];
        if (isupper(c) && i > 0 && camel[i - 1] != '_' &&
            (islower((unsigned char)camel[i - 1]) || isdigit((unsigned char)camel[i - 1]) ||
             (isupper((unsigned char)camel[i - 1]) && islower((unsigned char)camel[i + 1]))))
            out[k++] = '_';
        out[k++] = (char)tolower(c);
    }
    out[k] = '\0';
}

/* The C type of a scalar op_params field kind; NULL for another (Vec<T>). */
static const char *field_ctype(const char *kind)
{
    static const char *const m[][2] = {
        {"usize", "size_t"}, {"isize", "ptrdiff_t"}, {"u8", "uint8_t"}, {"u16", "uint16_t"},
        {"u32", "uint32_t"}, {"u64", "uint64_t"},    {"i8", "int8_t"},  {"i16", "int16_t"},
        {"i32", "int32_t"},  {"i64", "int64_t"},     {"f32", "float"},  {"f64", "double"},
        {"bool", "bool"}};
    for (size_t i = 0; kind && i < sizeof m / sizeof m[0]; i++)
        if (strcmp(kind, m[i][0]) == 0)
            return m[i][1];
    return NULL;
}

int conform_generic_check(const conform_claim *c, char err[CLI_ERR_MAX])
{
    if (c->n_inputs != 1 || c->n_outputs != 1) {
        cli_errf(err,
                 "conform: %s (%s:%u) has %u inputs and %u outputs; conform checks a family of "
                 "a backend's own with one input and one output",
                 c->kernel, c->file, c->line, c->n_inputs, c->n_outputs);
        return -1;
    }
    char want[96];
    snprintf(want, sizeof want, "same_as(%s)", c->input);
    if (strcmp(c->shape_rule, want) != 0) {
        cli_errf(err,
                 "conform: %s (%s:%u) has shape_rule %s; conform checks a family of a "
                 "backend's own whose output has the input's shape (%s)",
                 c->kernel, c->file, c->line, c->shape_rule, want);
        return -1;
    }
    for (uint32_t i = 0; i < c->n_fields; i++)
        if (!field_ctype(c->field_kinds[i])) {
            cli_errf(err,
                     "conform: %s (%s:%u): op_params field %s is a %s; conform sets scalar "
                     "fields only (usize, i32, f32, bool, ...)",
                     c->kernel, c->file, c->line, c->fields[i],
                     c->field_kinds[i] ? c->field_kinds[i] : "?");
            return -1;
        }
    return 0;
}

/* dir/conform_generic.c: the table of shim/conform_shim.h's fkc_conform_generic for the op
 * kinds with a cpu_reference, from the claims (one op kind: the fields of its first binding;
 * fkcgen checks that every section of an op kind has the same signature). */
static int write_generic(const conform_build *b, const cli_opts *o, const conform_claims *c)
{
    char path[PATH_MAX + 32], sn[160];
    snprintf(path, sizeof path, "%s/conform_generic.c", b->dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    const char *p = o->prefix;
    char uc[64];
    size_t k = 0;
    for (; p[k] && k + 1 < sizeof uc; k++)
        uc[k] = (char)toupper((unsigned char)p[k]);
    uc[k] = '\0';
    fprintf(f,
            "/* written by fkc-run conform from the dump: families with a cpu_reference */\n"
            "#include <string.h>\n#include \"conform_shim.h\"\n#include \"%s_bindings.h\"\n",
            p);
    fprintf(f,
            "static int op_of(const char *name, %s_op_kind *op)\n{\n"
            "    for (int k = 0; k < (int)%s_OP_KIND_COUNT; k++) {\n"
            "        const char *n = %s_op_kind_name((%s_op_kind)k);\n"
            "        if (n && strcmp(n, name) == 0) { *op = (%s_op_kind)k; return 0; }\n"
            "    }\n    return -1;\n}\n",
            p, uc, p, p, p);
    for (uint32_t g = 0; g < c->n_generic_ops; g++) {
        const conform_claim *cl = NULL;
        for (size_t i = 0; i < c->n && !cl; i++)
            if (c->items[i].op == CONFORM_GENERIC && c->items[i].generic == g)
                cl = &c->items[i];
        snake_case(cl->op_kind, sn, sizeof sn);
        /* every distinct reference of the op kind is declared with its kernel type */
        fprintf(f, "/* %s */\n", cl->op_kind);
        for (size_t i = 0; i < c->n; i++) {
            const conform_claim *x = &c->items[i];
            bool first = x->op == CONFORM_GENERIC && x->generic == g;
            for (size_t j = 0; j < i && first; j++)
                first = !(c->items[j].op == CONFORM_GENERIC && c->items[j].generic == g &&
                          strcmp(c->items[j].cpu_reference, x->cpu_reference) == 0);
            if (first)
                fprintf(f, "%s_%s_kernel %s;\n", p, sn, x->cpu_reference);
        }
        fprintf(f, "static void mp_%u(const double *v, size_t n, void *out)\n{\n", g);
        if (cl->n_fields)
            fprintf(f, "    %s_%s_params *p = out;\n    memset(p, 0, sizeof *p);\n", p, sn);
        else
            fprintf(f, "    (void)out;\n");
        fprintf(f, "    (void)v;\n    (void)n;\n");
        for (uint32_t i = 0; i < cl->n_fields; i++) {
            const char *t = field_ctype(cl->field_kinds[i]);
            if (strcmp(t, "bool") == 0)
                fprintf(f, "    if (n > %u) p->%s = v[%u] != 0;\n", i, cl->fields[i], i);
            else
                fprintf(f, "    if (n > %u) p->%s = (%s)v[%u];\n", i, cl->fields[i], t, i);
        }
        fprintf(f, "}\n");
        fprintf(f,
                "static fkc_status lk_%u(fkc_dtype in, fkc_dtype out, fkc_backend be)\n{\n"
                "    %s_op_kind op;\n    %s_kernel_ref r;\n"
                "    if (op_of(\"%s\", &op) < 0) return FKC_ERR_NO_KERNEL;\n"
                "    return %s_dispatch(op, in, out, be, &r);\n}\n",
                g, p, p, cl->op_kind, p);
        fprintf(f,
                "static fkc_status call_%u(bool ref, fkc_dtype in_dt, fkc_dtype out_dt, "
                "fkc_backend be, fkc_stream *s, const fkc_tensor *in, fkc_tensor *out, "
                "const void *params)\n{\n",
                g);
        /* the reference of the binding's own section: by key */
        fprintf(f, "    if (ref) {\n");
        for (size_t i = 0; i < c->n; i++) {
            const conform_claim *x = &c->items[i];
            if (x->op == CONFORM_GENERIC && x->generic == g)
                fprintf(f,
                        "        if (in_dt == (fkc_dtype)%d && out_dt == (fkc_dtype)%d && be == "
                        "(fkc_backend)%d) return %s(s, in, out, params, NULL);\n",
                        (int)x->dtype, (int)x->out_dtype, (int)x->backend, x->cpu_reference);
        }
        fprintf(f,
                "        return FKC_ERR_NO_KERNEL;\n    }\n"
                "    %s_op_kind op;\n    %s_kernel_ref r;\n"
                "    if (op_of(\"%s\", &op) < 0) return FKC_ERR_NO_KERNEL;\n"
                "    fkc_status st = %s_dispatch(op, in_dt, out_dt, be, &r);\n"
                "    return st != FKC_OK ? st : r.%s(s, in, out, params, NULL);\n}\n",
                p, p, cl->op_kind, p, sn);
    }
    fprintf(f, "static const fkc_conform_generic_op ops[%u] = {\n", c->n_generic_ops);
    for (uint32_t g = 0; g < c->n_generic_ops; g++) {
        const conform_claim *cl = NULL;
        for (size_t i = 0; i < c->n && !cl; i++)
            if (c->items[i].op == CONFORM_GENERIC && c->items[i].generic == g)
                cl = &c->items[i];
        snake_case(cl->op_kind, sn, sizeof sn);
        char size[256];
        snprintf(size, sizeof size, cl->n_fields ? "sizeof(%s_%s_params)" : "0", p, sn);
        fprintf(f, "    {\"%s\", \"%s\", %s, mp_%u, lk_%u, call_%u},\n", cl->op_kind,
                cl->cpu_reference, size, g, g, g);
    }
    fprintf(f,
            "};\n__attribute__((visibility(\"default\"))) extern const fkc_conform_generic "
            "fkc_conform_generic_v1;\n"
            "const fkc_conform_generic fkc_conform_generic_v1 = "
            "{FKC_CONFORM_GENERIC_VERSION, sizeof(fkc_conform_generic), %u, ops};\n",
            c->n_generic_ops);
    return fclose(f) == 0 ? 0 : -1;
}

/* The environment variable var split at blanks (as make passes CC="cc -fsanitize=address"),
 * else dflt (NULL: nothing), into argv; the number of words. */
static size_t env_words(const char *var, const char *dflt, char *buf, size_t cap, char **argv,
                        size_t max)
{
    const char *v = getenv(var);
    size_t n = 0;
    if (!v || strspn(v, " \t") == strlen(v))
        v = dflt;
    if (!v)
        return 0;
    snprintf(buf, cap, "%s", v);
    for (char *t = strtok(buf, " \t"); t && n < max; t = strtok(NULL, " \t"))
        argv[n++] = t;
    return n;
}

/* Compiles the shim, the generated source and the wrappers into dir/conform.so. */
static int compile(const conform_build *b, const cli_opts *o, const char *include,
                   const bool has[CONFORM_OP_COUNT], bool generic, char err[CLI_ERR_MAX])
{
    char ccbuf[1024], flagbuf[2048], defs[8][PATH_MAX + 64], why[64];
    char *argv[MAX_ARGS];
    char prefix_uc[64];
    size_t n = env_words("CC", "cc", ccbuf, sizeof ccbuf, argv, 16);
    for (size_t i = 0; o->prefix[i] && i + 1 < sizeof prefix_uc; i++)
        prefix_uc[i] = (char)toupper((unsigned char)o->prefix[i]), prefix_uc[i + 1] = '\0';
    if (snprintf(defs[0], sizeof defs[0], "-I%s", include) >= (int)sizeof defs[0]) {
        cli_errf(err, "conform: the path of fkc's headers is too long: %s", include);
        return CLI_EXIT_FAIL;
    }
    snprintf(defs[1], sizeof defs[1], "-I%s", b->dir);
    snprintf(defs[2], sizeof defs[2], "-DFKC_CONFORM_PREFIX=%s", o->prefix);
    snprintf(defs[3], sizeof defs[3], "-DFKC_CONFORM_PREFIX_UC=%s", prefix_uc);
    snprintf(defs[4], sizeof defs[4], "-DFKC_CONFORM_HEADER=\"%s_bindings.h\"", o->prefix);
    snprintf(defs[5], sizeof defs[5], "-DFKC_CONFORM_HAS_WRITE_SLICE=%d", has[CONFORM_WRITE_SLICE]);
    snprintf(defs[6], sizeof defs[6], "-DFKC_CONFORM_HAS_WRITE_SLICE_ROTATING=%d",
             has[CONFORM_ROTATING]);
    snprintf(defs[7], sizeof defs[7], "-DFKC_CONFORM_HAS_SET_ROWS=%d", has[CONFORM_SET_ROWS]);
    static char src_shim[PATH_MAX + 32], src_gen[PATH_MAX + 80], so[PATH_MAX + 32],
        src_generic[PATH_MAX + 32];
    snprintf(src_generic, sizeof src_generic, "%s/conform_generic.c", b->dir);
    snprintf(src_shim, sizeof src_shim, "%s/conform_shim.c", b->dir);
    snprintf(src_gen, sizeof src_gen, "%s/%s_bindings.c", b->dir, o->prefix);
    snprintf(so, sizeof so, "%s/conform.so", b->dir);
    static const char *const flags[] = {"-std=c11", "-O1", "-fPIC", "-shared",
                                        "-fvisibility=hidden"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        argv[n++] = (char *)flags[i];
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        argv[n++] = defs[i];
    n += env_words("CFLAGS", NULL, flagbuf, sizeof flagbuf, argv + n, 24); /* -I for wrappers */
    argv[n++] = src_shim;
    argv[n++] = src_gen;
    if (generic)
        argv[n++] = src_generic;
    for (uint32_t i = 0; i < o->n_wrappers; i++)
        argv[n++] = (char *)o->wrappers[i];
    argv[n++] = "-o";
    argv[n++] = so;
    argv[n++] = "-lm";
    argv[n] = NULL;
    int rc = run_program(b, argv, NULL, o->cc_timeout);
    if (rc == 0)
        return CLI_EXIT_OK;
    if (rc == RUN_TIMED_OUT)
        cli_errf(err,
                 "conform: the C compiler '%s' did not finish in %u s (--cc-timeout); it and "
                 "its process group were killed",
                 argv[0], (unsigned)o->cc_timeout);
    else if (rc < 0)
        cli_errf(err, "conform: cannot run the C compiler '%s': %s (set CC to one)", argv[0],
                 strerror(errno));
    else
        cli_errf(err,
                 "conform: the C compiler '%s' failed (%s) on the bindings%s (its "
                 "messages are above)",
                 argv[0], ended(rc, why, sizeof why),
                 o->n_wrappers ? " and the --wrappers files" : "");
    return CLI_EXIT_FAIL;
}

/* dlopen + the table, checked against this fkc-run. */
static int load(conform_build *b, bool generic, char err[CLI_ERR_MAX])
{
    char so[PATH_MAX + 32];
    snprintf(so, sizeof so, "%s/conform.so", b->dir);
    b->dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!b->dl) {
        const char *why = dlerror();
        cli_errf(err, "conform: cannot load the compiled bindings: %s%s", why ? why : "?",
                 why && strstr(why, "undefined symbol")
                     ? " (the byte-width wrappers of the contracts' own kernels are defined "
                       "by the --wrappers files)"
                     : "");
        return CLI_EXIT_FAIL;
    }
    const fkc_conform_shim *s = dlsym(b->dl, FKC_CONFORM_SHIM_SYMBOL);
    if (!s || s->version != FKC_CONFORM_SHIM_VERSION || s->size != sizeof *s ||
        s->runtime_abi != FKC_RUNTIME_ABI) {
        cli_errf(err,
                 "conform: the compiled bindings' table %s is %s (this fkc-run: version "
                 "%d, runtime interface %d)",
                 FKC_CONFORM_SHIM_SYMBOL, s ? "of another version or runtime interface" : "missing",
                 FKC_CONFORM_SHIM_VERSION, FKC_RUNTIME_ABI);
        return CLI_EXIT_FAIL;
    }
    b->shim = s;
    if (!generic)
        return CLI_EXIT_OK;
    const fkc_conform_generic *g = dlsym(b->dl, FKC_CONFORM_GENERIC_SYMBOL);
    if (!g || g->version != FKC_CONFORM_GENERIC_VERSION || g->size != sizeof *g) {
        cli_errf(err, "conform: the compiled bindings' table %s is %s", FKC_CONFORM_GENERIC_SYMBOL,
                 g ? "of another version" : "missing");
        return CLI_EXIT_FAIL;
    }
    b->generic = g;
    return CLI_EXIT_OK;
}

int conform_build_compile(conform_build *b, const cli_opts *o, const bool has[CONFORM_OP_COUNT],
                          const conform_claims *c, char err[CLI_ERR_MAX])
{
    char self[PATH_MAX], fkcgen[2 * PATH_MAX], include[PATH_MAX], path[PATH_MAX + 32];
    const char *args[] = {"gen", "--out-dir", b->dir, "--prefix", o->prefix};
    int rc;
    if (self_dir(self, sizeof self, err) < 0 ||
        find_fkcgen(o, self, fkcgen, sizeof fkcgen, err) < 0 ||
        find_headers(self, include, sizeof include, err) < 0)
        return CLI_EXIT_FAIL;
    if ((rc = run_fkcgen(b, o, fkcgen, args, 5, NULL, err)) != CLI_EXIT_OK)
        return rc;
    snprintf(path, sizeof path, "%s/conform_shim.c", b->dir);
    int w = write_file(path, conform_shim_c, sizeof conform_shim_c);
    snprintf(path, sizeof path, "%s/conform_shim.h", b->dir);
    if (w < 0 || write_file(path, conform_shim_h, sizeof conform_shim_h) < 0) {
        cli_errf(err, "conform: cannot write %s: %s", path, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    bool generic = c->n_generic > 0;
    if (generic && write_generic(b, o, c) < 0) {
        cli_errf(err, "conform: cannot write %s/conform_generic.c: %s", b->dir, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    if ((rc = compile(b, o, include, has, generic, err)) != CLI_EXIT_OK)
        return rc;
    return load(b, generic, err);
}
