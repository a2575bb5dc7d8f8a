/* set_rows_wrappers.c — the wrappers of own_set_rows.md's kernels, compiled by
 * `fkc-run conform --wrappers` with the generated bindings (tests/cli/conform_claims.py). By
 * default each calls the runtime's wrapper of its key and keeps every claim of the contract.
 * CONFORM_TEST_FAULT names one deliberate fault; a faulty wrapper submits the stream, reads the
 * tensors back, computes its wrong answer on the host with fkc_ref_set_rows on altered inputs
 * and uploads it (a kernel that is wrong in one way only):
 *   ties_up         narrow (F32 -> F16/BF16): a tie rounds away from zero, not to even
 *   writes_skipped  b4: a negative index -k writes slot slots - k (Python's indexing)
 *   first_dup       b2_b4_b2: the first row naming a slot wins, not the last
 *   no_status       b1_b4_b1: indices past the end are not counted in the status word
 *   i64_truncate    b4_b8_b4: I64 indices truncated to their low 32 bits */
#include <stdlib.h>
#include <string.h>

#include "fkc/fkc_reference.h"
#include "fkc/fkc_runtime.h"
#include "fkc_bindings.h"

static int fault(const char *name)
{
    const char *f = getenv("CONFORM_TEST_FAULT");
    return f && strcmp(f, name) == 0;
}

static uint64_t bytes_of(const fkc_tensor *t)
{
    uint64_t b = 0;
    return fkc_tensor_bytes(t, &b) == FKC_OK ? b : 0;
}

static int64_t get_index(const unsigned char *p, int i64, size_t r)
{
    uint64_t v = 0;
    for (int b = (i64 ? 8 : 4); b-- > 0;)
        v = v << 8 | p[r * (i64 ? 8 : 4) + (size_t)b];
    return i64 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
}

static void put_index(unsigned char *p, int i64, size_t r, int64_t v)
{
    for (int b = 0; b < (i64 ? 8 : 4); b++)
        p[r * (i64 ? 8 : 4) + (size_t)b] = (unsigned char)((uint64_t)v >> (8 * b));
}

/* The op on the host with the named fault, its result uploaded into the cache and the status
 * word. Refuses what the reference refuses (and a cache that is not out) as the kernel would. */
static fkc_status emulate(const char *f, fkc_stream *s, const fkc_tensor *src,
                          const fkc_tensor *index, const fkc_tensor *cache, fkc_tensor *out,
                          const fkc_set_rows_params *p, const fkc_set_rows_extra *x)
{
    if (cache->buffer != out->buffer || cache->offset != out->offset)
        return fkc_set_error(FKC_ERR_INVALID_ARGUMENT, "test_set_rows: cache is not out");
    fkc_status st = FKC_OK;
    (void)s;
    uint64_t sb = bytes_of(src), ib = bytes_of(index), cb = bytes_of(cache);
    unsigned char *hs = malloc(sb + 1), *hi = malloc(ib + 1), *hc = malloc(cb + 1), w[4] = {0};
    if (!hs || !hi || !hc)
        st = fkc_set_error(FKC_ERR_OUT_OF_MEMORY, "test_set_rows: out of memory");
    if (st == FKC_OK && sb)
        st = fkc_buffer_download(src->buffer, src->offset, hs, sb);
    if (st == FKC_OK && ib)
        st = fkc_buffer_download(index->buffer, index->offset, hi, ib);
    if (st == FKC_OK && cb)
        st = fkc_buffer_download(cache->buffer, cache->offset, hc, cb);
    if (st == FKC_OK && x && x->status)
        st = fkc_buffer_download(x->status, x->status_offset, w, 4);
    fkc_host_tensor ts = {hs, src->dtype, src->rank, {0}},
                    ti = {hi, index->dtype, index->rank, {0}};
    fkc_host_tensor tc = {hc, cache->dtype, cache->rank, {0}};
    memcpy(ts.shape, src->shape, sizeof ts.shape);
    memcpy(ti.shape, index->shape, sizeof ti.shape);
    memcpy(tc.shape, cache->shape, sizeof tc.shape);
    int i64 = index->dtype == FKC_DTYPE_I64;
    size_t n = index->rank == 1 ? index->shape[0] : 0;
    uint64_t slots = cache->rank ? cache->shape[0] : 0;
    if (p->slot_axis > 0 && (uint32_t)p->slot_axis < cache->rank)
        slots *= cache->shape[p->slot_axis];
    for (size_t r = 0; st == FKC_OK && r < n; r++) {
        int64_t v = get_index(hi, i64, r);
        if (strcmp(f, "writes_skipped") == 0 && v < 0 && v + (int64_t)slots >= 0)
            put_index(hi, i64, r, v + (int64_t)slots);
        if (strcmp(f, "i64_truncate") == 0 && i64)
            put_index(hi, i64, r, (int64_t)(uint32_t)v);
        for (size_t q = 0; strcmp(f, "first_dup") == 0 && v >= 0 && q < r; q++)
            if (get_index(hi, i64, q) == v) /* an earlier row names it: this one is dropped */
                put_index(hi, i64, r, -1);
    }
    if (strcmp(f, "ties_up") == 0 && src->dtype == FKC_DTYPE_F32) /* a tie nudged outwards */
        for (uint64_t e = 0; e + 4 <= sb; e += 4) {
            uint32_t b;
            memcpy(&b, hs + e, 4);
            uint32_t ex = (b >> 23) & 0xff;
            int tie = cache->dtype == FKC_DTYPE_F16
                          ? ex >= 113 && ex < 143 && (b & 0x1fff) == 0x1000
                          : ex < 255 && (b & 0xffff) == 0x8000;
            if (tie)
                b++, memcpy(hs + e, &b, 4);
        }
    uint64_t past = 0;
    if (st == FKC_OK)
        st = fkc_ref_set_rows(&ts, &ti, &tc, p->slot_axis, &past);
    if (st == FKC_OK && cb)
        st = fkc_buffer_upload(cache->buffer, cache->offset, hc, cb);
    if (st == FKC_OK && x && x->status && strcmp(f, "no_status") != 0) {
        uint32_t v = (uint32_t)(w[0] | w[1] << 8 | w[2] << 16 | (uint32_t)w[3] << 24) +
                     (uint32_t)past;
        for (int b = 0; b < 4; b++)
            w[b] = (unsigned char)(v >> (8 * b));
        st = fkc_buffer_upload(x->status, x->status_offset, w, 4);
    }
    free(hs);
    free(hi);
    free(hc);
    return st;
}

#define WRAP(NAME, FAULT)                                                                          \
    fkc_status fkc_test_##NAME(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *index,      \
                               const fkc_tensor *cache, fkc_tensor *out,                           \
                               const fkc_set_rows_params *p, const fkc_set_rows_extra *x)          \
    {                                                                                              \
        if (fault(FAULT) && src && index && cache && out && p) {                                   \
            fkc_status st = fkc_stream_submit(s); /* what was recorded before runs first */        \
            if (st == FKC_OK) /* the runtime's checks: it refuses what the kernel must */          \
                st = fkc_##NAME(s, src, index, cache, out, p, x);                                  \
            if (st != FKC_OK)                                                                      \
                return st;                                                                         \
            fkc_stream_begin(s); /* drops what it recorded */                                      \
            return emulate(FAULT, s, src, index, cache, out, p, x);                                \
        }                                                                                          \
        return fkc_##NAME(s, src, index, cache, out, p, x);                                        \
    }
WRAP(set_rows_b4, "writes_skipped")
WRAP(set_rows_b4_b8_b4, "i64_truncate")
WRAP(set_rows_b2_b4_b2, "first_dup")
WRAP(set_rows_b2_b8_b2, "-")
WRAP(set_rows_b1_b4_b1, "no_status")
WRAP(set_rows_b1_b8_b1, "-")
WRAP(set_rows_narrow_f32_i32_f16, "ties_up")
WRAP(set_rows_narrow_f32_i32_bf16, "ties_up")
WRAP(set_rows_narrow_f32_i64_f16, "ties_up")
WRAP(set_rows_narrow_f32_i64_bf16, "ties_up")
