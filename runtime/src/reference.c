/* reference.c — shape checks, slab plans (plan.h) and the plain-C reference ops (fkc_reference.h).
 * Everything is overflow-checked before any byte moves; nothing here allocates. The plans only
 * return a status (the device ops word their own messages); the reference ops set
 * fkc_last_error() too. */
#include "common.h" /* fkc_fail: the ops' refusals set fkc_last_error() like every other call */

#include <inttypes.h>
#include <string.h>

#define MAX_BYTES ((uint64_t)INT64_MAX) /* no buffer may exceed 2^63 - 1 bytes */

static int valid_elem_size(size_t n)
{
    return n == 1 || n == 2 || n == 4 || n == 8;
}

fkc_status fkc_shape_elements(uint32_t rank, const size_t *shape, size_t elem_size, uint64_t *count)
{
    uint64_t n = 1;
    int zero = 0;
    for (uint32_t i = 0; i < rank; i++) {
        uint64_t e = (uint64_t)shape[i];
        if (e == 0) {
            zero = 1;
            continue;
        }
        if (n > MAX_BYTES / e)
            return FKC_ERR_OVERFLOW;
        n *= e;
    }
    if (elem_size && n > MAX_BYTES / elem_size)
        return FKC_ERR_OVERFLOW;
    *count = zero ? 0 : n;
    return FKC_OK;
}

/* Rank, element size and both shapes' byte sizes. */
static fkc_status check_pair(uint32_t rank, const size_t *dst_shape, const size_t *src_shape,
                             size_t elem_size)
{
    uint64_t n;
    fkc_status st;
    if (rank < 1 || rank > FKC_MAX_RANK)
        return FKC_ERR_RANK;
    if (!dst_shape || !src_shape)
        return FKC_ERR_INVALID_ARGUMENT;
    if (!valid_elem_size(elem_size))
        return FKC_ERR_DTYPE;
    if ((st = fkc_shape_elements(rank, dst_shape, elem_size, &n)) != FKC_OK)
        return st;
    return fkc_shape_elements(rank, src_shape, elem_size, &n);
}

fkc_status fkc_plan_write_slice(uint32_t rank, const size_t *dst_shape, const size_t *src_shape,
                                const size_t *offsets, size_t elem_size, fkc_box *box)
{
    fkc_status st = check_pair(rank, dst_shape, src_shape, elem_size);
    if (st != FKC_OK)
        return st;
    if (!offsets)
        return FKC_ERR_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < rank; i++) {
        if (offsets[i] > dst_shape[i] || src_shape[i] > dst_shape[i] - offsets[i])
            return FKC_ERR_OUT_OF_BOUNDS;
    }
    if (box) {
        memset(box, 0, sizeof *box);
        box->rank = rank;
        for (uint32_t i = 0; i < rank; i++) {
            box->extent[i] = src_shape[i];
            box->dst_origin[i] = offsets[i];
        }
    }
    return FKC_OK;
}

/* The rotating axis: the explicit one, else the single axis of extent capacity. */
static fkc_status resolve_axis(uint32_t rank, const size_t *dst_shape, size_t capacity,
                               int32_t axis, uint32_t *out)
{
    if (axis >= 0) {
        if ((uint32_t)axis >= rank)
            return FKC_ERR_INVALID_ARGUMENT;
        if (dst_shape[axis] != capacity)
            return FKC_ERR_SHAPE;
        *out = (uint32_t)axis;
        return FKC_OK;
    }
    if (axis != -1)
        return FKC_ERR_INVALID_ARGUMENT;
    uint32_t found = 0, which = 0;
    for (uint32_t i = 0; i < rank; i++) {
        if (dst_shape[i] == capacity) {
            found++;
            which = i;
        }
    }
    if (found == 0)
        return FKC_ERR_SHAPE;
    if (found > 1)
        return FKC_ERR_INVALID_ARGUMENT; /* ambiguous: the caller must name the axis */
    *out = which;
    return FKC_OK;
}

fkc_status fkc_plan_rotating(uint32_t rank, const size_t *dst_shape, const size_t *src_shape,
                             size_t capacity, uint64_t position, int32_t axis, size_t elem_size,
                             fkc_box boxes[2], uint32_t *n_boxes, uint32_t *axis_out)
{
    uint32_t a;
    fkc_status st = check_pair(rank, dst_shape, src_shape, elem_size);
    if (st != FKC_OK)
        return st;
    if (capacity == 0 || !boxes || !n_boxes)
        return FKC_ERR_INVALID_ARGUMENT;
    if ((st = resolve_axis(rank, dst_shape, capacity, axis, &a)) != FKC_OK)
        return st;
    for (uint32_t i = 0; i < rank; i++) {
        if (i != a && src_shape[i] > dst_shape[i])
            return FKC_ERR_OUT_OF_BOUNDS;
    }
    if (axis_out)
        *axis_out = a;
    *n_boxes = 0;
    size_t len = src_shape[a];
    for (uint32_t i = 0; i < rank; i++) {
        if (src_shape[i] == 0)
            return FKC_OK; /* nothing to write */
    }
    /* Only the last `capacity` source rows survive: skip the ones they overwrite. */
    size_t skip = len > capacity ? len - capacity : 0;
    len -= skip;
    /* start = (position + skip) mod capacity, without overflowing. */
    uint64_t p = position % capacity, s = (uint64_t)skip % capacity, c = capacity;
    size_t start = (size_t)(p >= c - s ? p - (c - s) : p + s);
    size_t first = len < capacity - start ? len : capacity - start;

    for (uint32_t k = 0; k < 2; k++) {
        memset(&boxes[k], 0, sizeof boxes[k]);
        boxes[k].rank = rank;
        for (uint32_t i = 0; i < rank; i++)
            boxes[k].extent[i] = src_shape[i];
    }
    boxes[0].extent[a] = first;
    boxes[0].src_origin[a] = skip;
    boxes[0].dst_origin[a] = start;
    *n_boxes = 1;
    if (len > first) {
        boxes[1].extent[a] = len - first;
        boxes[1].src_origin[a] = skip + first;
        boxes[1].dst_origin[a] = 0;
        *n_boxes = 2;
    }
    return FKC_OK;
}

/* Row-major strides in elements. */
static void strides(uint32_t rank, const size_t *shape, size_t *out)
{
    size_t s = 1;
    for (uint32_t i = rank; i-- > 0;) {
        out[i] = s;
        s *= shape[i];
    }
}

void fkc_ref_copy_box(void *dst, const size_t *dst_shape, const void *src, const size_t *src_shape,
                      const fkc_box *box, size_t elem_size)
{
    size_t ds[FKC_MAX_RANK], ss[FKC_MAX_RANK], idx[FKC_MAX_RANK] = {0};
    uint32_t r = box->rank;
    for (uint32_t i = 0; i < r; i++)
        if (box->extent[i] == 0)
            return;
    strides(r, dst_shape, ds);
    strides(r, src_shape, ss);
    size_t row = box->extent[r - 1] * elem_size; /* innermost run, contiguous in both */
    for (;;) {
        size_t so = 0, d = 0;
        for (uint32_t i = 0; i < r; i++) {
            so += (box->src_origin[i] + idx[i]) * ss[i];
            d += (box->dst_origin[i] + idx[i]) * ds[i];
        }
        memcpy((unsigned char *)dst + d * elem_size, (const unsigned char *)src + so * elem_size,
               row);
        /* odometer over every axis but the innermost */
        uint32_t i = r - 1;
        for (;;) {
            if (i == 0)
                return;
            i--;
            if (++idx[i] < box->extent[i])
                break;
            idx[i] = 0;
        }
    }
}

/* The message of a refused reference op: the axis at fault where there is one. offsets is NULL
 * for the rotating op, whose source starts at 0 on every axis but the rotating one (`ring`). */
static fkc_status ref_fail(fkc_status st, const char *op, uint32_t rank, const size_t *dst,
                           const size_t *src, const size_t *offsets, uint32_t ring,
                           size_t elem_size)
{
    bool shapes = dst && src && rank >= 1 && rank <= FKC_MAX_RANK;
    if (st == FKC_ERR_OUT_OF_BOUNDS && shapes)
        for (uint32_t i = 0; i < rank; i++)
            if (offsets ? offsets[i] > dst[i] || src[i] > dst[i] - offsets[i]
                        : i != ring && src[i] > dst[i])
                return fkc_fail(st,
                                "%s: axis %" PRIu32 ": offset %zu + source extent %zu "
                                "exceeds destination extent %zu",
                                op, i, offsets ? offsets[i] : 0, src[i], dst[i]);
    if (st == FKC_ERR_RANK)
        return fkc_fail(st, "%s: rank %" PRIu32 " is outside 1..%d", op, rank, FKC_MAX_RANK);
    if (st == FKC_ERR_DTYPE)
        return fkc_fail(st, "%s: element size %zu is not 1, 2, 4 or 8", op, elem_size);
    if (st == FKC_ERR_OVERFLOW)
        return fkc_fail(st, "%s: a shape's byte size exceeds 2^63 - 1", op);
    if (st == FKC_ERR_SHAPE)
        return fkc_fail(st, "%s: no axis of the destination has the capacity as its extent", op);
    return fkc_fail(st,
                    "%s: NULL data, shape or offsets, a zero capacity, or an axis that is "
                    "out of range or ambiguous",
                    op);
}

fkc_status fkc_ref_write_slice(void *dst, const size_t *dst_shape, uint32_t rank, const void *src,
                               const size_t *src_shape, const size_t *offsets, size_t elem_size)
{
    fkc_box box;
    fkc_status st = fkc_plan_write_slice(rank, dst_shape, src_shape, offsets, elem_size, &box);
    if (st == FKC_OK && (!dst || !src) && box.extent[0] != 0)
        st = FKC_ERR_INVALID_ARGUMENT;
    if (st != FKC_OK)
        return ref_fail(st, "fkc_ref_write_slice", rank, dst_shape, src_shape, offsets, 0,
                        elem_size);
    if (dst && src)
        fkc_ref_copy_box(dst, dst_shape, src, src_shape, &box, elem_size);
    return FKC_OK;
}

fkc_status fkc_ref_write_slice_rotating(void *dst, const size_t *dst_shape, uint32_t rank,
                                        const void *src, const size_t *src_shape, size_t capacity,
                                        uint64_t position, int32_t axis, size_t elem_size)
{
    fkc_box boxes[2];
    uint32_t n = 0, a = 0;
    fkc_status st = fkc_plan_rotating(rank, dst_shape, src_shape, capacity, position, axis,
                                      elem_size, boxes, &n, &a);
    if (st == FKC_OK && n && (!dst || !src))
        st = FKC_ERR_INVALID_ARGUMENT;
    if (st == FKC_ERR_OUT_OF_BOUNDS) /* the axis resolved: the given one, or the one match */
        resolve_axis(rank, dst_shape, capacity, axis, &a);
    if (st != FKC_OK)
        return ref_fail(st, "fkc_ref_write_slice_rotating", rank, dst_shape, src_shape, NULL, a,
                        elem_size);
    for (uint32_t k = 0; k < n; k++)
        fkc_ref_copy_box(dst, dst_shape, src, src_shape, &boxes[k], elem_size);
    return FKC_OK;
}
