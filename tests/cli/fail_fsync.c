/* fail_fsync.c — an LD_PRELOAD shim for test_paths.c: every fsync and fdatasync fails with EIO,
 * as on a disk that lost the data, so the test sees fkc-run sync its output before the rename
 * and give up (no output, no temp file, the old output kept) when the sync fails. */
#include <errno.h>

int fsync(int fd);
int fdatasync(int fd);

int fsync(int fd)
{
    (void)fd;
    errno = EIO;
    return -1;
}

int fdatasync(int fd)
{
    (void)fd;
    errno = EIO;
    return -1;
}
