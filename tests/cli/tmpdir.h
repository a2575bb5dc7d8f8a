/* tmpdir.h — the temporary directory the CLI tests write into: made by a group setup, its
 * entries counted (a temp file left behind shows up), and removed with what it holds. Shared by
 * test_npy.c and test_errors.c; each defines TMPDIR_TEMPLATE before including it. */
#ifndef FKC_TESTS_TMPDIR_H
#define FKC_TESTS_TMPDIR_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = TMPDIR_TEMPLATE; /* "/tmp/NAME-XXXXXX", filled in by tmpdir_make */

static int tmpdir_make(void)
{
    return mkdtemp(tmpdir) ? 0 : -1;
}

static void path_of(const char *name, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", tmpdir, name);
}

static int is_dot(const char *name)
{
    return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* Number of entries in tmpdir. */
static int dir_entries(void)
{
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += !is_dot(e->d_name);
    if (d)
        closedir(d);
    return n;
}

/* Removes tmpdir and its entries (files and empty directories); 0 on success. */
static int tmpdir_remove(void)
{
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d))) {
        if (is_dot(e->d_name))
            continue;
        path_of(e->d_name, p, sizeof p);
        if (rmdir(p) != 0)
            unlink(p);
    }
    if (d)
        closedir(d);
    return rmdir(tmpdir);
}

#endif /* FKC_TESTS_TMPDIR_H */
