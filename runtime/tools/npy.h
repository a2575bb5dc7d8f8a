/* npy.h — reads and writes NumPy .npy files (format versions 1.0, 2.0 and 3.0): a strict
 * hand-written parser of the header's tiny dict grammar, exact size checks, and an atomic
 * writer (temp file in the output's directory, synced, renamed on success; removed on SIGINT,
 * SIGTERM and SIGHUP). Knows nothing of fkc's
 * dtypes: the header's descr string is handed back as text for the caller to map. */
#ifndef FKC_NPY_H
#define FKC_NPY_H

#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_RANK 32           /* NumPy's own NPY_MAXDIMS */
#define NPY_MAX_HEADER (1u << 20) /* a longer header is refused as suspicious */
#define NPY_DESCR_MAX 16          /* longest descr string kept ("<f8" needs 4 bytes) */
#define NPY_ERR_MAX 512           /* size of an error message buffer */

/* One array: a C-order, little-endian (or 1-byte) block of elements. */
typedef struct npy_array {
    char descr[NPY_DESCR_MAX];  /* e.g. "<f4", "|u1", as written in the header */
    size_t elem_size;           /* bytes per element, from descr */
    uint32_t rank;              /* 0..NPY_MAX_RANK */
    size_t shape[NPY_MAX_RANK]; /* extents, outermost first */
    size_t count;               /* element count (product of shape) */
    size_t nbytes;              /* count * elem_size */
    void *data;                 /* nbytes bytes (malloc'd, at least 1 byte); npy_free frees */
} npy_array;

/* The parsed header fields (exposed for the unit tests). */
typedef struct npy_header {
    char descr[NPY_DESCR_MAX];
    int fortran_order;
    uint32_t rank;
    size_t shape[NPY_MAX_RANK];
} npy_header;

/* Parses a header dict text of len bytes ("{'descr': '<f4', ...}" plus padding). Returns 0,
 * or -1 with a message in err ("column N: ...", N 1-based within the header text). Checks the
 * grammar, the three keys (each exactly once, no others), shape values and fortran_order;
 * it does not judge the descr (npy_descr_size does). */
int npy_parse_header(const char *text, size_t len, npy_header *out, char err[NPY_ERR_MAX]);

/* The element size of a supported descr: little-endian ('<') numeric types b, i, u, f of
 * sizes 1, 2, 4, 8 (and '|' for 1-byte ones). 0 with a message in err otherwise. */
size_t npy_descr_size(const char *descr, char err[NPY_ERR_MAX]);

/* Reads path into *out. Returns 0, or -1 with a message in err that names the file. On failure
 * *out holds nothing to free. The file is opened without blocking and must be a regular file
 * (a FIFO is refused at once, not waited on). */
int npy_read(const char *path, npy_array *out, char err[NPY_ERR_MAX]);

/* Serialises the header exactly as NumPy 1.24's np.save does (sorted keys, the growth-axis
 * padding, 64-byte alignment, version 1.0 unless the header needs 2.0). Returns the header's
 * total byte count (magic included) written into buf (of cap bytes), or 0 when it does not fit. */
size_t npy_format_header(const npy_array *a, unsigned char *buf, size_t cap);

/* Writes a to path atomically: a temp file beside it, written, fsync'ed and put in place only
 * when every byte is on disk (then the directory is synced, best effort). The temp file is
 * unnamed (O_TMPFILE) while it is written, linked at path when path is absent, else named
 * ".NAME.fkc-run.XXXXXX" only to be renamed over path; where the file system lacks O_TMPFILE it
 * has that name from its creation. Its writer locks it (flock) while it has a name, and npy_write
 * first removes the temp files of path's pattern that nobody locks (left by a killed run).
 * path must be absent, a regular file (whose permission bits the new file keeps; a new file gets
 * 0666 minus the umask), or a symlink to an existing regular file, which is written through: the
 * target is replaced, the link kept. Returns 0, or -1 with a message in err naming the file; on
 * failure nothing is left at path that was not there before. One write at a time (the temp
 * file's name is kept for npy_cleanup_on_signals' handler). */
int npy_write(const char *path, const npy_array *a, char err[NPY_ERR_MAX]);

/* Whether name is exactly the name of a temp file of npy_write for an output named base:
 * "." base ".fkc-run." and six of [A-Za-z0-9]; only such files are ever removed as stale. */
int npy_is_temp_name(const char *name, const char *base);

/* Checks that npy_write could replace path (the rules above), writing nothing. Returns 0, or
 * -1 with a message in err naming path ("PATH: not a regular file (a FIFO); ..."). */
int npy_check_output(const char *path, char err[NPY_ERR_MAX]);

/* Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temp file npy_write is
 * writing, if any, and _exit(128 + signal); a signal the process was started ignoring (nohup,
 * a script's background job) stays ignored. 0, or -1 when sigaction fails. */
int npy_cleanup_on_signals(void);

/* Sets a's shape, count and nbytes, and allocates zeroed data. Returns 0, or -1 on overflow
 * or out-of-memory with a message in err. */
int npy_alloc(npy_array *a, const char *descr, uint32_t rank, const size_t *shape,
              char err[NPY_ERR_MAX]);

void npy_free(npy_array *a);

#endif /* FKC_NPY_H */
