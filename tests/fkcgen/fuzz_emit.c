/* fuzz_emit.c — libFuzzer target over fkcgen's front end and C back end: arbitrary bytes as one
 * contract. An accepted contract goes through the back end as `gen` runs it (its checks, then
 * the emission) twice: both runs must agree byte for byte (the generated files are
 * byte-stable), the checks must accept what the front end accepted, and the first
 * FUZZ_COMPILE_MAX distinct outputs of the process (default 100) are compiled with the strict
 * flags by gcc and clang: accepted means it compiles. A compile failure aborts (libFuzzer keeps
 * the input as a crash), or, with FUZZ_COMPILE_FAILURES=DIR, is saved there as HASH.md and
 * HASH.err and the run goes on (a search for every class of failure). FUZZ_COMPILE_CCS
 * changes the compilers ("gcc clang"); FUZZ_COMPILE_MAX=0 turns the compiling off. */
#define _GNU_SOURCE /* mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xxhash.h>

#include "back.h"
#include "fkcgen.h"
#include "internal.h"

#ifndef FUZZ_STRICT /* the Makefile passes $(STRICT) and the runtime's include directory */
#define FUZZ_STRICT "-std=c11 -Wall -Wextra -Werror"
#endif
#ifndef FUZZ_INCLUDE
#define FUZZ_INCLUDE "runtime/include"
#endif

extern char **environ;
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct {
    bool ready;
    long max, done;       /* outputs to compile, and compiled so far */
    long failed;          /* of those, saved as failures (FUZZ_COMPILE_FAILURES) */
    char dir[PATH_MAX];   /* the generated files and the compilers' messages */
    const char *ccs;      /* "gcc clang" */
    const char *failures; /* save failing inputs there and go on; NULL: abort */
    uint64_t *seen;       /* XXH3-64 of each output compiled */
    size_t n_seen;
} comp;

static void at_exit(void)
{
    fprintf(stderr,
            "fuzz_emit: compiled %ld distinct accepted outputs with %s (strict); "
            "%ld failed\n",
            comp.done, comp.ccs, comp.failed);
}

static void remove_dir(void)
{
    static const char *const names[] = {FKCG_EMIT_HEADER, FKCG_EMIT_SOURCE, "b.o", "err.txt"};
    char p[PATH_MAX + 32];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", comp.dir, names[i]);
        unlink(p);
    }
    rmdir(comp.dir);
}

static void init_compile(void)
{
    comp.ready = true;
    const char *max = getenv("FUZZ_COMPILE_MAX");
    comp.max = max ? strtol(max, NULL, 10) : 100;
    comp.ccs = getenv("FUZZ_COMPILE_CCS") ? getenv("FUZZ_COMPILE_CCS") : "gcc clang";
    comp.failures = getenv("FUZZ_COMPILE_FAILURES");
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(comp.dir, sizeof comp.dir, "%s/fuzz-emit-XXXXXX", tmp);
    if (comp.max > 0 && !mkdtemp(comp.dir)) {
        fprintf(stderr, "fuzz_emit: cannot create %s: %s\n", comp.dir, strerror(errno));
        abort();
    }
    comp.seen = calloc((size_t)(comp.max > 0 ? comp.max : 1), sizeof *comp.seen);
    if (!comp.seen)
        abort();
    if (comp.max > 0) {
        atexit(remove_dir);
        atexit(at_exit);
    }
}

static void write_file(const char *name, const fkcg_buf *b)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/%s", comp.dir, name);
    FILE *f = fopen(p, "wb");
    if (!f || (b->len && fwrite(b->data, 1, b->len, f) != b->len) || fclose(f) != 0) {
        fprintf(stderr, "fuzz_emit: cannot write %s\n", p);
        abort();
    }
}

/* Runs `cc STRICT -I include -I dir -c dir/fkc_bindings.c -o dir/b.o`, its messages in
 * dir/err.txt; its exit status (-1 when it could not run). */
static int run_cc(const char *cc)
{
    char flags[] = FUZZ_STRICT, src[PATH_MAX + 32], obj[PATH_MAX + 32], err[PATH_MAX + 32];
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)cc;
    for (char *t = strtok(flags, " "); t && argc < 54; t = strtok(NULL, " "))
        argv[argc++] = t;
    snprintf(src, sizeof src, "%s/" FKCG_EMIT_SOURCE, comp.dir);
    snprintf(obj, sizeof obj, "%s/b.o", comp.dir);
    snprintf(err, sizeof err, "%s/err.txt", comp.dir);
    argv[argc++] = "-I" FUZZ_INCLUDE;
    argv[argc++] = "-I";
    argv[argc++] = comp.dir;
    argv[argc++] = "-c";
    argv[argc++] = src;
    argv[argc++] = "-o";
    argv[argc++] = obj;
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, cc, &fa, NULL, argv, environ), status = 0;
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void copy_out(const char *from, const char *to_dir, const char *name)
{
    char to[PATH_MAX + 64];
    snprintf(to, sizeof to, "%s/%s", to_dir, name);
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char chunk[4096];
    size_t n;
    while (in && out && (n = fread(chunk, 1, sizeof chunk, in)) > 0)
        fwrite(chunk, 1, n, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
}

/* A finding: the compilers' messages on stderr, then abort (or saved, with FUZZ_COMPILE_FAILURES). */
static void compile_failed(const char *cc, const uint8_t *data, size_t size)
{
    char err[PATH_MAX + 32], name[64];
    snprintf(err, sizeof err, "%s/err.txt", comp.dir);
    if (comp.failures) {
        comp.failed++;
        uint64_t h = XXH3_64bits(data, size);
        snprintf(name, sizeof name, "%016llx.md", (unsigned long long)h);
        char p[PATH_MAX + 64];
        snprintf(p, sizeof p, "%s/%s", comp.failures, name);
        FILE *f = fopen(p, "wb");
        if (f) {
            fwrite(data, 1, size, f);
            fclose(f);
        }
        snprintf(name, sizeof name, "%016llx.err", (unsigned long long)h);
        copy_out(err, comp.failures, name);
        return;
    }
    fprintf(stderr,
            "fuzz_emit: an accepted contract whose generated C does not compile with "
            "%s %s:\n",
            cc, FUZZ_STRICT);
    FILE *f = fopen(err, "rb");
    char line[1024];
    for (int i = 0; f && i < 40 && fgets(line, sizeof line, f); i++)
        fputs(line, stderr);
    if (f)
        fclose(f);
    remove_dir();
    abort();
}

/* Compiles h and c when they are among the first comp.max distinct outputs. */
static void compile_output(const fkcg_buf *h, const fkcg_buf *c, const uint8_t *data, size_t size)
{
    if (!comp.ready)
        init_compile();
    if (comp.done >= comp.max)
        return;
    XXH3_state_t *st = XXH3_createState();
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, h->data, h->len);
    XXH3_64bits_update(st, c->data, c->len);
    uint64_t key = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    for (size_t i = 0; i < comp.n_seen; i++)
        if (comp.seen[i] == key)
            return;
    comp.seen[comp.n_seen++] = key;
    comp.done++;
    write_file(FKCG_EMIT_HEADER, h);
    write_file(FKCG_EMIT_SOURCE, c);
    char ccs[256];
    snprintf(ccs, sizeof ccs, "%s", comp.ccs);
    char *save = NULL;
    for (char *cc = strtok_r(ccs, " ", &save); cc; cc = strtok_r(NULL, " ", &save))
        if (run_cc(cc) != 0) {
            compile_failed(cc, data, size);
            return;
        }
}

static int same(const fkcg_buf *a, const fkcg_buf *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        return 0;
    fkcg_run *run = fkcg_run_new(NULL, sink);
    if (fkcg_run_load_buffer(run, "fuzz.md", (const char *)data, size) == 0) {
        const fkcg_table *t = fkcg_run_table(run);
        /* The file's text hash, in a banner comment and the pair hash, makes every input's
         * output distinct; without it, inputs that differ only in comments or key order
         * give one output, compiled once. */
        for (size_t i = 0; i < t->n_providers; i++)
            ((fkcg_provider *)t->providers[i])->text_hash = NULL;
        fkcg_buf h1, c1, h2, c2;
        fkcg_buf_init(&h1);
        fkcg_buf_init(&c1);
        fkcg_buf_init(&h2);
        fkcg_buf_init(&c2);
        fkcg_buf *const o1[] = {&h1, &c1}, *const o2[] = {&h2, &c2};
        size_t e1 = fkcg_backend_run(&fkcg_backend_c, t, NULL, fkcg_run_diag(run), o1);
        size_t e2 = fkcg_backend_run(&fkcg_backend_c, t, NULL, fkcg_run_diag(run), o2);
        if (e1 || e2) {
            fputs("fuzz_emit: the front end accepted a contract that gen's checks refuse\n",
                  stderr);
            abort();
        }
        if (!same(&h1, &h2) || !same(&c1, &c2) || h1.len == 0 || c1.len == 0) {
            fputs("fuzz_emit: two emissions of one table differ (or are empty)\n", stderr);
            abort();
        }
        compile_output(&h1, &c1, data, size);
        fkcg_buf_free(&h1);
        fkcg_buf_free(&c1);
        fkcg_buf_free(&h2);
        fkcg_buf_free(&c2);
    }
    fkcg_run_free(run);
    fclose(sink);
    return 0;
}
