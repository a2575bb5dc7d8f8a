/* conform_cases.c — the calls `fkc-run conform` makes and how it judges their results: seeded
 * cases (the edge cases first: rank 1 and 8, extent 1, the last element, offsets at the end,
 * whole overwrites, empty sources, writes crossing the ring end, sources longer than the ring,
 * positions near 2^64 - 1; then random ones), the CPU reference, an independent element-by-
 * element oracle, and the element comparison a precision block allows (ULPs per dtype). */
#include "conform.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fkc/fkc_reference.h"

uint64_t conform_rng_next(conform_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

uint64_t conform_rng_below(conform_rng *r, uint64_t n)
{
    return conform_rng_next(r) % n;
}

size_t conform_dst_count(const conform_case *c)
{
    size_t n = 1;
    for (uint32_t i = 0; i < c->rank; i++)
        n *= c->dst[i];
    return n;
}

size_t conform_src_count(const conform_case *c)
{
    size_t n = 1;
    for (uint32_t i = 0; i < c->rank; i++)
        n *= c->src[i];
    return n;
}

/* ---- edge cases ------------------------------------------------------------------------- */

#define U64_MAX UINT64_MAX

/* Edge cases, written as rank, dst, src, offsets (write_slice) or rank, dst, src, ring axis,
 * position, axis passed (rotating). */
static const struct edge {
    const char *what;
    uint32_t rank;
    size_t dst[FKC_MAX_RANK], src[FKC_MAX_RANK], offsets[FKC_MAX_RANK];
} slice_edges[] = {
    {"rank 1, the last element", 1, {7}, {1}, {6}},
    {"rank 8, the last element",
     8,
     {2, 2, 2, 2, 2, 2, 2, 2},
     {1, 1, 1, 1, 1, 1, 1, 1},
     {1, 1, 1, 1, 1, 1, 1, 1}},
    {"rank 8, extents 1 and offsets at the end",
     8,
     {1, 3, 1, 2, 1, 4, 1, 5},
     {1, 2, 1, 1, 1, 3, 1, 2},
     {0, 1, 0, 1, 0, 1, 0, 3}},
    {"whole overwrite", 2, {3, 5}, {3, 5}, {0, 0}},
    {"empty source", 3, {2, 4, 3}, {2, 0, 3}, {0, 4, 0}},
    {"extent 1 everywhere", 4, {1, 1, 1, 1}, {1, 1, 1, 1}, {0, 0, 0, 0}},
    {"offsets at the end, rank 3", 3, {4, 5, 6}, {2, 3, 4}, {2, 2, 2}},
    {"a long unaligned row", 1, {1031}, {1021}, {9}},
    {"one middle column", 2, {6, 9}, {6, 1}, {0, 4}},
};

static const struct ring_edge {
    const char *what;
    uint32_t rank;
    size_t dst[FKC_MAX_RANK], src[FKC_MAX_RANK];
    uint32_t ring_axis;
    uint64_t position;
    int32_t axis; /* passed: the ring axis or -1 */
} ring_edges[] = {
    {"no wrap", 2, {8, 3}, {3, 3}, 0, 2, -1},
    {"crossing the ring end", 2, {5, 4}, {3, 4}, 0, 3, -1},
    {"rank 1, crossing the ring end", 1, {6}, {4}, 0, 5, -1},
    {"position 2^64 - 1", 2, {7, 2}, {4, 2}, 0, U64_MAX, -1},
    {"position 2^64 - 3, crossing", 2, {5, 3}, {4, 3}, 0, U64_MAX - 2, 0},
    {"longer than the ring, position 2^63 + 5", 2, {4, 3}, {9, 3}, 0, (1ull << 63) + 5, -1},
    {"source = capacity", 2, {4, 5}, {4, 5}, 0, 6, -1},
    {"ring on the last axis", 2, {3, 5}, {2, 4}, 1, 4, -1},
    {"rank 8, ring on axis 3 of two equal extents",
     8,
     {1, 2, 1, 3, 1, 3, 1, 2},
     {1, 2, 1, 2, 1, 3, 1, 2},
     3,
     2,
     3},
    {"empty source", 2, {4, 3}, {0, 3}, 0, 3, -1},
    {"capacity 1", 2, {1, 4}, {3, 4}, 0, U64_MAX, 0},
    {"ending exactly at the ring end", 3, {2, 6, 3}, {2, 2, 3}, 1, 4, -1},
};

static size_t n_edges(conform_op op)
{
    return op == CONFORM_WRITE_SLICE ? sizeof slice_edges / sizeof slice_edges[0]
                                     : sizeof ring_edges / sizeof ring_edges[0];
}

/* Edge case i as a case; its rank in *rank. */
static void edge_case(conform_op op, size_t i, conform_case *c)
{
    memset(c, 0, sizeof *c);
    if (op == CONFORM_WRITE_SLICE) {
        const struct edge *e = &slice_edges[i];
        c->what = e->what;
        c->rank = e->rank;
        memcpy(c->dst, e->dst, sizeof c->dst);
        memcpy(c->src, e->src, sizeof c->src);
        memcpy(c->offsets, e->offsets, sizeof c->offsets);
        return;
    }
    const struct ring_edge *e = &ring_edges[i];
    c->what = e->what;
    c->rank = e->rank;
    memcpy(c->dst, e->dst, sizeof c->dst);
    memcpy(c->src, e->src, sizeof c->src);
    c->ring_axis = e->ring_axis;
    c->capacity = e->dst[e->ring_axis];
    c->position = e->position;
    c->axis = e->axis;
}

/* ---- random cases ---------------------------------------------------------------------- */

/* The largest extent per axis at each rank: about 2,000 output elements at most. */
static const size_t max_extent[FKC_MAX_RANK + 1] = {0, 1500, 45, 12, 6, 4, 3, 3, 2};

static void random_shape(conform_rng *r, uint32_t rank, conform_case *c)
{
    c->rank = rank;
    for (uint32_t i = 0; i < rank; i++) {
        c->dst[i] = 1 + (size_t)conform_rng_below(r, max_extent[rank]);
        if (conform_rng_below(r, 6) == 0)
            c->dst[i] = 1; /* extent 1 */
    }
}

/* A source extent 0..dst (0 rarely; the whole extent often). */
static size_t src_extent(conform_rng *r, size_t dst)
{
    uint64_t k = conform_rng_below(r, 20);
    return k == 0 ? 0 : k < 5 ? dst : 1 + (size_t)conform_rng_below(r, dst);
}

static void random_slice(conform_rng *r, uint32_t rank, conform_case *c)
{
    random_shape(r, rank, c);
    for (uint32_t i = 0; i < rank; i++) {
        c->src[i] = src_extent(r, c->dst[i]);
        size_t room = c->dst[i] - c->src[i];
        c->offsets[i] = conform_rng_below(r, 3) == 0 ? room
                                                     : (size_t)conform_rng_below(r, room + 1);
    }
}

static void random_ring(conform_rng *r, uint32_t rank, conform_case *c)
{
    random_shape(r, rank, c);
    c->ring_axis = (uint32_t)conform_rng_below(r, rank);
    c->capacity = c->dst[c->ring_axis];
    for (uint32_t i = 0; i < rank; i++)
        c->src[i] = src_extent(r, c->dst[i]);
    c->src[c->ring_axis] = (size_t)conform_rng_below(r, 2 * c->capacity + 2);
    switch (conform_rng_below(r, 3)) {
    case 0: c->position = conform_rng_below(r, 4 * c->capacity); break;
    case 1: c->position = U64_MAX - conform_rng_below(r, 2 * c->capacity + 1); break;
    default: c->position = conform_rng_next(r); break;
    }
    /* the axis is inferred only when it is the one axis of extent capacity, and then only
     * half of the time */
    uint32_t same = 0;
    for (uint32_t i = 0; i < rank; i++)
        same += c->dst[i] == c->capacity;
    c->axis = same == 1 && conform_rng_below(r, 2) ? -1 : (int32_t)c->ring_axis;
}

void conform_make_cases(conform_op op, uint32_t rank, uint64_t seed, size_t n, conform_case *out)
{
    conform_rng r = {seed};
    size_t k = 0;
    for (size_t i = 0; i < n_edges(op) && k < n; i++) {
        edge_case(op, i, &out[k]);
        if (rank == 0 || out[k].rank == rank)
            k++;
    }
    for (; k < n; k++) {
        memset(&out[k], 0, sizeof out[k]);
        uint32_t rk = rank ? rank : 1 + (uint32_t)conform_rng_below(&r, FKC_MAX_RANK);
        if (op == CONFORM_WRITE_SLICE)
            random_slice(&r, rk, &out[k]);
        else
            random_ring(&r, rk, &out[k]);
    }
}

static size_t put_list(char *buf, size_t cap, const char *name, uint32_t rank, const size_t *v)
{
    size_t n = (size_t)snprintf(buf, cap, "%s (", name);
    for (uint32_t i = 0; i < rank && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, i ? ", %zu" : "%zu", v[i]);
    if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, rank == 1 ? ",)" : ")");
    return n < cap ? n : cap;
}

void conform_case_text(conform_op op, const conform_case *c, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "rank %u, ", c->rank);
    n += put_list(buf + n, cap - n, "dst", c->rank, c->dst);
    n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, ", ");
    if (n < cap)
        n += put_list(buf + n, cap - n, "src", c->rank, c->src);
    if (n < cap && op == CONFORM_WRITE_SLICE) {
        n += (size_t)snprintf(buf + n, cap - n, ", ");
        if (n < cap)
            n += put_list(buf + n, cap - n, "offsets", c->rank, c->offsets);
    } else if (n < cap) {
        n += (size_t)snprintf(buf + n, cap - n, ", capacity %zu on axis %u%s, position %llu",
                              c->capacity, c->ring_axis, c->axis < 0 ? " (inferred)" : "",
                              (unsigned long long)c->position);
    }
    if (n < cap && c->what)
        snprintf(buf + n, cap - n, ": %s", c->what);
}

/* ---- reference and oracle ------------------------------------------------------------- */

fkc_status conform_reference(conform_op op, const conform_case *c, void *dst, const void *src,
                             size_t elem)
{
    if (op == CONFORM_WRITE_SLICE)
        return fkc_ref_write_slice(dst, c->dst, c->rank, src, c->src, c->offsets, elem);
    return fkc_ref_write_slice_rotating(dst, c->dst, c->rank, src, c->src, c->capacity, c->position,
                                        c->axis, elem);
}

/* Walks every source element in row-major order, each written where the op's definition puts
 * it: at offsets + index (write_slice), or with index i along the ring axis at
 * (position + i) mod capacity (rotating; a later row overwrites an earlier one). */
void conform_oracle(conform_op op, const conform_case *c, void *dst, const void *src, size_t elem)
{
    size_t idx[FKC_MAX_RANK] = {0}, n = conform_src_count(c);
    unsigned char *d = dst;
    const unsigned char *s = src;
    uint64_t base = op == CONFORM_ROTATING ? c->position % c->capacity : 0;
    for (size_t e = 0; e < n; e++) {
        size_t at = 0;
        for (uint32_t k = 0; k < c->rank; k++) {
            size_t pos = idx[k] + (op == CONFORM_WRITE_SLICE ? c->offsets[k] : 0);
            if (op == CONFORM_ROTATING && k == c->ring_axis)
                pos = (size_t)((base + idx[k] % c->capacity) % c->capacity);
            at = at * c->dst[k] + pos;
        }
        memcpy(d + at * elem, s + e * elem, elem);
        for (uint32_t k = c->rank; k-- > 0;) /* the next index, row-major */
            if (++idx[k] < c->src[k])
                break;
            else
                idx[k] = 0;
    }
}

/* ---- comparing ---------------------------------------------------------------------------- */

static uint64_t load_bits(const void *p, size_t n)
{
    uint64_t v = 0;
    memcpy(&v, p, n); /* little-endian hosts (as the .npy files fkc-run writes) */
    return v;
}

/* A float's bits as an integer that orders like the value (-0 just below +0). */
static uint64_t ordered(uint64_t bits, unsigned width)
{
    uint64_t sign = 1ull << (width - 1), mask = width == 64 ? UINT64_MAX : (1ull << width) - 1;
    return bits & sign ? (~bits & mask) : bits | sign;
}

static bool is_nan(uint64_t bits, unsigned width, unsigned mant)
{
    uint64_t exp = ((1ull << (width - 1 - mant)) - 1) << mant;
    return (bits & exp) == exp && (bits & ((1ull << mant) - 1)) != 0;
}

/* Float layout of a dtype: width and mantissa bits; 0 for integers. */
static unsigned float_mant(fkc_dtype dt, unsigned *width)
{
    switch (dt) {
    case FKC_DTYPE_F32: *width = 32; return 23;
    case FKC_DTYPE_F64: *width = 64; return 52;
    case FKC_DTYPE_F16: *width = 16; return 10;
    case FKC_DTYPE_BF16: *width = 16; return 7;
    default: *width = (unsigned)(8 * fkc_dtype_size(dt)); return 0;
    }
}

/* An integer element's value (sign-extended for the signed dtypes). */
static double int_value(fkc_dtype dt, uint64_t bits, int64_t *sv, uint64_t *uv)
{
    unsigned w = (unsigned)(8 * fkc_dtype_size(dt));
    bool sgn = dt == FKC_DTYPE_I32 || dt == FKC_DTYPE_I64 || dt == FKC_DTYPE_I8;
    *uv = bits;
    *sv = sgn && w < 64 && (bits >> (w - 1)) ? (int64_t)(bits | ~((1ull << w) - 1)) : (int64_t)bits;
    return sgn ? (double)*sv : (double)*uv;
}

uint64_t conform_ulp_distance(fkc_dtype dt, const void *a, const void *b)
{
    unsigned width;
    unsigned mant = float_mant(dt, &width);
    uint64_t x = load_bits(a, width / 8), y = load_bits(b, width / 8);
    if (mant) {
        bool nx = is_nan(x, width, mant), ny = is_nan(y, width, mant);
        if (nx || ny)
            return nx && ny ? 0 : UINT64_MAX;
        uint64_t ox = ordered(x, width), oy = ordered(y, width);
        return ox > oy ? ox - oy : oy - ox;
    }
    int64_t sx, sy;
    uint64_t ux, uy;
    int_value(dt, x, &sx, &ux);
    int_value(dt, y, &sy, &uy);
    if (dt == FKC_DTYPE_I32 || dt == FKC_DTYPE_I64 || dt == FKC_DTYPE_I8)
        return sx > sy ? (uint64_t)sx - (uint64_t)sy : (uint64_t)sy - (uint64_t)sx;
    return ux > uy ? ux - uy : uy - ux;
}

/* An element's value as a double (NaN stays NaN). */
static double value_of(fkc_dtype dt, const void *p)
{
    unsigned width;
    unsigned mant = float_mant(dt, &width);
    uint64_t bits = load_bits(p, width / 8);
    int64_t sv;
    uint64_t uv;
    if (dt == FKC_DTYPE_F32) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    if (dt == FKC_DTYPE_F64) {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    if (mant) /* F16 / BF16 */
        return dt == FKC_DTYPE_F16 ? cli_float_from_f16((uint16_t)bits)
                                   : cli_float_from_bf16((uint16_t)bits);
    return int_value(dt, bits, &sv, &uv);
}

bool conform_element_ok(fkc_dtype dt, const void *got, const void *want,
                        const conform_tolerance *tol)
{
    size_t w = fkc_dtype_size(dt);
    if (memcmp(got, want, w) == 0)
        return true;
    if (tol->max_ulp && conform_ulp_distance(dt, got, want) <= tol->max_ulp)
        return true;
    if (tol->max_absolute > 0 || tol->max_relative > 0) {
        double g = value_of(dt, got), x = value_of(dt, want);
        if (isnan(g) || isnan(x))
            return isnan(g) && isnan(x);
        if (isinf(g) || isinf(x))
            return g == x;
        return fabs(g - x) <= tol->max_absolute + tol->max_relative * fabs(x);
    }
    return false;
}

void conform_element_error(fkc_dtype dt, const void *got, const void *want, conform_error *e)
{
    e->elements++;
    if (memcmp(got, want, fkc_dtype_size(dt)) == 0)
        return;
    uint64_t u = conform_ulp_distance(dt, got, want);
    if (u > e->max_ulp)
        e->max_ulp = u;
    double g = value_of(dt, got), x = value_of(dt, want);
    if (isnan(g) || isnan(x) || isinf(g) || isinf(x)) {
        if (!(isnan(g) && isnan(x)) && g != x)
            e->max_absolute = INFINITY;
        return;
    }
    double a = fabs(g - x);
    if (a > e->max_absolute)
        e->max_absolute = a;
    if (x != 0 && a / fabs(x) > e->max_relative)
        e->max_relative = a / fabs(x);
}
