/* fs_shim.c — an LD_PRELOAD shim for test_paths.c: a file system without what fkc-run's
 * unnamed temp files need, chosen by FS_SHIM:
 *   no_tmpfile     open/openat with O_TMPFILE fail with EOPNOTSUPP (a file system without it):
 *                  fkc-run falls back to a temp file named from its creation
 *   no_empty_path  linkat with AT_EMPTY_PATH fails with ENOENT (a process without
 *                  CAP_DAC_READ_SEARCH): fkc-run links through /proc/self/fd
 *   no_link        every linkat fails with ENOENT (no /proc either): fkc-run writes the output
 *                  again through a named temp file
 *   no_rename      rename/renameat fail with EIO (a disk failing at the last step): fkc-run
 *                  must fail, the old output and no temp file left
 *   no_rename_no_tmpfile  both no_rename and no_tmpfile */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

int open(const char *path, int flags, ...);
int open64(const char *path, int flags, ...);
int openat(int dir, const char *path, int flags, ...);
int openat64(int dir, const char *path, int flags, ...);
int linkat(int olddir, const char *old, int newdir, const char *new, int flags);
int rename(const char *old, const char *new);
int renameat(int olddir, const char *old, int newdir, const char *new);

static int mode_is(const char *m)
{
    const char *v = getenv("FS_SHIM");
    if (v && !strcmp(v, "no_rename_no_tmpfile")) /* both at once */
        return !strcmp(m, "no_rename") || !strcmp(m, "no_tmpfile");
    return v && !strcmp(v, m);
}

static int refuse_tmpfile(int flags)
{
#ifdef O_TMPFILE
    if ((flags & O_TMPFILE) == O_TMPFILE && mode_is("no_tmpfile")) {
        errno = EOPNOTSUPP;
        return 1;
    }
#endif
    return 0;
}

#define MODE_ARG(flags, mode)                                                                      \
    mode_t mode = 0;                                                                               \
    if ((flags) & (O_CREAT | __O_TMPFILE)) {                                                       \
        va_list ap;                                                                                \
        va_start(ap, flags);                                                                       \
        mode = (mode_t)va_arg(ap, int);                                                            \
        va_end(ap);                                                                                \
    }

#define OPEN_SHIM(name)                                                                            \
    int name(const char *path, int flags, ...)                                                     \
    {                                                                                              \
        MODE_ARG(flags, mode)                                                                      \
        if (refuse_tmpfile(flags))                                                                 \
            return -1;                                                                             \
        int (*next)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT,    \
                                                                                     #name);       \
        return next(path, flags, mode);                                                            \
    }
OPEN_SHIM(open)
OPEN_SHIM(open64)

#define OPENAT_SHIM(name)                                                                          \
    int name(int dir, const char *path, int flags, ...)                                            \
    {                                                                                              \
        MODE_ARG(flags, mode)                                                                      \
        if (refuse_tmpfile(flags))                                                                 \
            return -1;                                                                             \
        int (*next)(int, const char *, int,                                                        \
                    ...) = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, #name);          \
        return next(dir, path, flags, mode);                                                       \
    }
OPENAT_SHIM(openat)
OPENAT_SHIM(openat64)

int linkat(int olddir, const char *old, int newdir, const char *new, int flags)
{
    if (mode_is("no_link") || (mode_is("no_empty_path") && (flags & AT_EMPTY_PATH))) {
        errno = ENOENT;
        return -1;
    }
    int (*next)(int, const char *, int, const char *, int) = (int (*)(
        int, const char *, int, const char *, int))dlsym(RTLD_NEXT, "linkat");
    return next(olddir, old, newdir, new, flags);
}

int rename(const char *old, const char *new)
{
    if (mode_is("no_rename")) {
        errno = EIO;
        return -1;
    }
    int (*next)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT,
                                                                                         "rename");
    return next(old, new);
}

int renameat(int olddir, const char *old, int newdir, const char *new)
{
    if (mode_is("no_rename")) {
        errno = EIO;
        return -1;
    }
    int (*next)(int, const char *, int, const char *) = (int (*)(
        int, const char *, int, const char *))dlsym(RTLD_NEXT, "renameat");
    return next(olddir, old, newdir, new);
}
