/* doc.c — `fkcgen doc`: the reference page of each provider (back/doc.c) written into a
 * directory as DIR/<provider>.md (and .html with --html), or compared with it (--check: a
 * unified diff, exit 1 on drift, nothing written). docs/fkcgen.md, "doc". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "back.h"
#include "doc.h"
#include "cli.h"
#include "fkcgen.h"
#include "internal.h"

#define CMD "fkcgen doc"
#define MAX_RESULTS 32

static const char usage[] =
    "usage: fkcgen doc --out-dir DIR [--html] [--results FILE.json]... [--check] [--root DIR]\n"
    "                  FILE...\n"
    "  Writes DIR/<provider>.md, the reference page of each provider of the contracts: each\n"
    "  kernel's inputs, op params, outputs, bindings (key, wrapper, symbol), caps, cost,\n"
    "  precision and determinism.\n"
    "  --html             also DIR/<provider>.html (the page through cmark)\n"
    "  --results FILE     a `fkc-run conform --format json` result: each binding's result on\n"
    "                     its device, the worst error measured beside the claim (repeatable)\n"
    "  --check            compare with DIR instead: print a unified diff, exit 1 on drift\n"
    "  --root DIR         make contract paths relative to DIR (default: the current directory)\n"
    "Exit: 0 written (or up to date), 1 contract errors or drift, 2 usage or I/O errors.\n";

static int read_file(const char *path, fkcg_buf *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        fkcg_buf_put(out, chunk, n);
    int err = ferror(f) ? EIO : 0;
    fclose(f);
    return err;
}

/* Writes text to path when its bytes differ (through a temporary file renamed over it). */
static int write_changed(const char *path, const fkcg_buf *text)
{
    fkcg_buf old;
    fkcg_buf_init(&old);
    int same = read_file(path, &old) == 0 && old.len == text->len &&
               (!text->len || !memcmp(old.data, text->data, text->len));
    fkcg_buf_free(&old);
    if (same)
        return 0;
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        fkcg_oom();
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    bool ok = f && (!text->len || fwrite(text->data, 1, text->len, f) == text->len);
    ok = f ? (fclose(f) == 0) && ok : false;
    if (fd >= 0 && !f)
        close(fd);
    if (ok)
        ok = chmod(tmp, 0644) == 0 && rename(tmp, path) == 0;
    if (!ok) {
        fkcg_cli_error(CMD ": error", NULL, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return ok ? 0 : 2;
}

static int out_file(const char *dir, const char *name, const char *ext, bool check,
                    const fkcg_buf *text, fkcg_buf *diff)
{
    fkcg_buf path;
    fkcg_buf_init(&path);
    fkcg_buf_printf(&path, "%s/%s%s", dir, name, ext);
    int rc = 0;
    if (check) {
        fkcg_buf old;
        fkcg_buf_init(&old);
        int err = read_file(path.data, &old);
        size_t before = diff->len;
        fkcg_unified_diff(err ? "/dev/null" : path.data, old.data ? old.data : "", old.len,
                          path.data, text->data ? text->data : "", text->len, diff);
        if (diff->len != before) {
            fkcg_cli_error(CMD, NULL, "%s is %s the contracts", path.data,
                           err ? "missing; it is generated from" : "out of date with");
            rc = 1;
        }
        fkcg_buf_free(&old);
    } else {
        rc = write_changed(path.data, text);
    }
    fkcg_buf_free(&path);
    return rc;
}

int fkcg_cmd_doc(int argc, char **argv)
{
    static const fkcg_option opts[] = {{"--out-dir", true},
                                       {"--html", false},
                                       {"--results", true},
                                       {"--check", false},
                                       {"--root", true}};
    const char *out_dir = NULL, *root = NULL, *v, *results[MAX_RESULTS];
    size_t n_results = 0;
    bool html = false, check = false;
    int i = 1, k;
    while ((k = fkcg_opt_next(CMD, usage, opts, 5, argc, argv, &i, &v)) != FKCG_OPT_END) {
        if (k == FKCG_OPT_HELP) {
            fputs(usage, stdout);
            return fflush(stdout) == 0 ? 0 : 2;
        }
        if (k == FKCG_OPT_ERROR)
            return 2;
        if (k == 0)
            out_dir = v;
        else if (k == 1)
            html = true;
        else if (k == 2 && n_results == MAX_RESULTS) {
            fkcg_cli_error(CMD ": error", usage, "more than %d --results files", MAX_RESULTS);
            return 2;
        } else if (k == 2)
            results[n_results++] = v;
        else if (k == 3)
            check = true;
        else
            root = v;
    }
    if (!out_dir || i >= argc) {
        fkcg_cli_error(CMD ": error", usage, "%s",
                       out_dir ? "no contract files given" : "--out-dir is required");
        return 2;
    }
    struct stat st;
    if (stat(out_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fkcg_cli_error(CMD ": error", NULL, "--out-dir '%s': not a directory", out_dir);
        return 2;
    }
    if (root && fkcg_root_check(root) != 0) {
        fkcg_cli_error(CMD ": error", usage, "--root '%s': %s", root,
                       strerror(fkcg_root_check(root)));
        return 2;
    }
    fkcg_arena a = {0};
    fkcg_doc_results res[MAX_RESULTS];
    int rc = 0;
    for (size_t r = 0; r < n_results; r++) {
        const char *why = NULL;
        if (fkcg_doc_results_read(&a, results[r], &res[r], &why) != 0) {
            fkcg_cli_error(CMD ": error", NULL, "--results %s: %s", results[r], why);
            rc = 2;
        }
    }
    fkcg_run *run = fkcg_run_new(root, stderr);
    int lrc = fkcg_run_load(run, (const char *const *)(argv + i), (size_t)(argc - i));
    if (lrc != 0 || rc != 0) {
        fkcg_run_free(run);
        fkcg_arena_free(&a);
        fkcg_cli_error(CMD, NULL, "nothing written");
        return lrc ? lrc : rc;
    }
    const fkcg_table *t = fkcg_run_table(run);
    fkcg_buf name, md, page, diff;
    fkcg_buf_init(&name);
    fkcg_buf_init(&md);
    fkcg_buf_init(&page);
    fkcg_buf_init(&diff);
    for (size_t p = 0; p < t->n_providers && rc != 2; p++) { /* two providers, one page name */
        name.len = 0;
        fkcg_doc_page_name(t->providers[p], &name);
        for (size_t q = 0; q < p; q++) {
            page.len = 0;
            fkcg_doc_page_name(t->providers[q], &page);
            if (!strcmp(page.data, name.data)) {
                fkcg_cli_error(CMD ": error", NULL,
                               "providers '%s' (%s) and '%s' (%s) have one page name, %s.md: "
                               "give them other names or run doc on each alone",
                               t->providers[q]->name, t->providers[q]->rel_file,
                               t->providers[p]->name, t->providers[p]->rel_file, name.data);
                rc = 2;
            }
        }
    }
    for (size_t p = 0; p < t->n_providers && rc != 2; p++) {
        const fkcg_provider *pr = t->providers[p];
        name.len = md.len = page.len = 0;
        fkcg_doc_page_name(pr, &name);
        fkcg_doc_page(t, pr, res, n_results, &md);
        int r1 = out_file(out_dir, name.data, ".md", check, &md, &diff);
        int r2 = 0;
        if (html) {
            fkcg_doc_html(pr->name, md.data, md.len, &page);
            r2 = out_file(out_dir, name.data, ".html", check, &page, &diff);
        }
        rc = r1 > rc ? r1 : rc;
        rc = r2 > rc ? r2 : rc;
    }
    if (diff.len)
        fwrite(diff.data, 1, diff.len, stdout);
    if (rc == 1)
        fkcg_cli_error(CMD, NULL, "regenerate with `make` (fkcgen doc) and commit the pages");
    fkcg_buf_free(&name);
    fkcg_buf_free(&md);
    fkcg_buf_free(&page);
    fkcg_buf_free(&diff);
    fkcg_run_free(run);
    fkcg_arena_free(&a);
    if (fflush(stdout) != 0 && rc == 0) {
        fkcg_cli_error(CMD ": error", NULL, "cannot write to stdout");
        rc = 2;
    }
    return rc;
}
