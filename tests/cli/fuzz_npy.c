/* fuzz_npy.c — libFuzzer target over fkc-run's .npy reader (runtime/tools/npy.c) and the CPU
 * reference ops (runtime/src/reference.c). The input is 24 control bytes followed by a .npy file:
 * the file is read by npy_read (through a memfd, so the real open/fstat/read path runs); a valid
 * array of rank 1..8 becomes the destination of write_slice or write_slice_rotating with a source
 * shape, offsets, capacity, position and axis taken from the control bytes. When the op accepts,
 * the result is compared with a naive element-by-element copy, and a written-back header must
 * parse again. `make fuzz` builds it with clang -fsanitize=fuzzer,address,undefined. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fkc/fkc_reference.h"
#include "plan.h" /* the runtime's private plans (-Iruntime/src) */
#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CTL = 24, MAX_SRC_BYTES = 1 << 22 };

/* Advances idx (row-major over shape); 0 when it wrapped around. */
static int next_index(size_t *idx, const size_t *shape, uint32_t rank)
{
    for (uint32_t i = rank; i-- > 0;) {
        if (++idx[i] < shape[i])
            return 1;
        idx[i] = 0;
    }
    return 0;
}

static size_t linear(const size_t *idx, const size_t *shape, uint32_t rank)
{
    size_t at = 0;
    for (uint32_t i = 0; i < rank; i++)
        at = at * shape[i] + idx[i];
    return at;
}

/* The naive op: every source element, in row-major order (so the last write wins), copied to
 * its place in expect. rot: the rotating op on axis `axis`, else write_slice at offsets. */
static void naive(unsigned char *expect, const size_t *dst_shape, const unsigned char *src,
                  const size_t *src_shape, uint32_t rank, size_t es, const size_t *offsets, int rot,
                  uint32_t axis, size_t capacity, uint64_t position)
{
    size_t idx[FKC_MAX_RANK] = {0}, at[FKC_MAX_RANK];
    for (uint32_t i = 0; i < rank; i++)
        if (src_shape[i] == 0)
            return;
    do {
        for (uint32_t i = 0; i < rank; i++)
            at[i] = rot ? idx[i] : idx[i] + offsets[i];
        if (rot)
            at[axis] = (size_t)((position % capacity + idx[axis] % capacity) % capacity);
        memcpy(expect + linear(at, dst_shape, rank) * es, src + linear(idx, src_shape, rank) * es,
               es);
    } while (next_index(idx, src_shape, rank));
}

static void run_op(const uint8_t *ctl, npy_array *dst)
{
    uint32_t rank = dst->rank;
    size_t src_shape[FKC_MAX_RANK], offsets[FKC_MAX_RANK], es = dst->elem_size;
    int rot = ctl[0] & 1;
    int32_t axis = (int32_t)(ctl[1] % (rank + 1)) - 1; /* -1: find the axis by capacity */
    for (uint32_t i = 0; i < rank; i++) {
        src_shape[i] = ctl[2 + i] % (dst->shape[i] + 2);
        offsets[i] = ctl[10 + i] % (dst->shape[i] + 2);
    }
    size_t cap_base = axis >= 0 ? dst->shape[axis] : dst->shape[ctl[18] % rank];
    size_t capacity = ctl[19] & 0x80 ? (size_t)(ctl[19] & 0x7f) : cap_base;
    uint64_t position = 0;
    memcpy(&position, ctl + 20, 4);
    if (ctl[0] & 2)
        position = ~position; /* near UINT64_MAX: the modular arithmetic's edge */

    uint64_t n_src;
    if (fkc_shape_elements(rank, src_shape, es, &n_src) != FKC_OK || n_src * es > MAX_SRC_BYTES)
        return;
    unsigned char *src = malloc(n_src * es + 1), *expect = malloc(dst->nbytes + 1);
    if (!src || !expect)
        abort();
    for (size_t i = 0; i < n_src * es; i++)
        src[i] = (unsigned char)(i * 131 + 7);
    memcpy(expect, dst->data, dst->nbytes);

    fkc_status st;
    uint32_t axis_out = 0;
    if (rot) {
        fkc_box boxes[2];
        uint32_t n_boxes;
        fkc_status plan = fkc_plan_rotating(rank, dst->shape, src_shape, capacity, position, axis,
                                            es, boxes, &n_boxes, &axis_out);
        st = fkc_ref_write_slice_rotating(dst->data, dst->shape, rank, src, src_shape, capacity,
                                          position, axis, es);
        if (st != plan)
            abort(); /* the op and its plan must agree */
    } else {
        st = fkc_ref_write_slice(dst->data, dst->shape, rank, src, src_shape, offsets, es);
    }
    if (st == FKC_OK) {
        naive(expect, dst->shape, src, src_shape, rank, es, offsets, rot, axis_out, capacity,
              position);
        if (memcmp(expect, dst->data, dst->nbytes) != 0) {
            fprintf(stderr, "fuzz_npy: %s differs from the naive copy\n",
                    rot ? "write_slice_rotating" : "write_slice");
            abort();
        }
    }
    free(src);
    free(expect);
}

/* A header written for the array must parse back to the same descr and shape. */
static void round_trip(const npy_array *a)
{
    static unsigned char buf[NPY_MAX_HEADER];
    char err[NPY_ERR_MAX];
    size_t n = npy_format_header(a, buf, sizeof buf);
    if (n == 0)
        return;
    size_t pre = buf[6] == 1 ? 10 : 12, hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
    if (buf[6] != 1)
        hlen |= (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
    npy_header h;
    if (pre + hlen != n || npy_parse_header((const char *)buf + pre, hlen, &h, err) != 0 ||
        strcmp(h.descr, a->descr) != 0 || h.rank != a->rank ||
        memcmp(h.shape, a->shape, a->rank * sizeof a->shape[0]) != 0) {
        fprintf(stderr, "fuzz_npy: the written header does not read back\n");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (size < CTL)
        return 0;
    if (fd < 0) {
        if ((fd = memfd_create("fuzz.npy", 0)) < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data + CTL, size - CTL, 0) != (ssize_t)(size - CTL))
        abort();
    npy_array a;
    char err[NPY_ERR_MAX];
    if (npy_read(path, &a, err) != 0)
        return 0;
    round_trip(&a);
    if (a.rank >= 1 && a.rank <= FKC_MAX_RANK)
        run_op(data, &a);
    npy_free(&a);
    return 0;
}
