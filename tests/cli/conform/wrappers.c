/* wrappers.c — the byte-width wrappers of own_kernels.md's kernels, compiled by
 * `fkc-run conform --wrappers` with the generated bindings. By default each calls the runtime's
 * wrapper of its width and keeps every claim of the contract. CONFORM_TEST_FAULT names one
 * deliberate fault (tests/cli/test_conform.c checks conform catches each, on the row of the
 * kernel and dtype it breaks):
 *   off_by_one        b4 write_slice: the source's last row is not written
 *   wrong_byte        b2 write_slice: the output's last byte is rewritten
 *   outside           b8 write_slice: the byte before the output is written
 *   input             b1 write_slice: a byte of the input is written
 *   past_end          b1 write_slice: the byte after the output is written
 *   refuse            b2 write_slice: BF16 refused
 *   accept_invalid    b4 write_slice: a call out of bounds "succeeds" (records nothing)
 *   nondeterministic  b8 write_slice: I64 calls after the first CONFORM_TEST_CASES go wrong
 *   ring_position     b4 write_slice_rotating: the ring position is taken as 0
 * (CONFORM_TEST_BROKEN, from $CFLAGS, makes the file fail to compile.) */
#include <stdlib.h>
#include <string.h>

#ifdef CONFORM_TEST_BROKEN /* test_conform: $CFLAGS reaches the wrappers' compile line */
#error "CFLAGS reached the wrappers"
#endif

#include "fkc/fkc_profiling.h" /* fkc_stream_copy */
#include "fkc/fkc_runtime.h"
#include "fkc_bindings.h"

static int fault(const char *name)
{
    const char *f = getenv("CONFORM_TEST_FAULT");
    return f && strcmp(f, name) == 0;
}

/* A byte of `from` (at from_off) copied over a byte of `to` (at to_off), after the op. */
static fkc_status poke(fkc_stream *s, fkc_status st, fkc_buffer *to, uint64_t to_off,
                       const fkc_buffer *from, uint64_t from_off)
{
    return st != FKC_OK ? st : fkc_stream_copy(s, to, to_off, from, from_off, 1);
}

/* A source of extents src fits in dst at off, rank `rank` (the runtime's planning is private to
 * it: fkc_write_slice refuses what does not). */
static int fits_at(size_t rank, const size_t *dst, const size_t *src, const size_t *off)
{
    if (rank == 0 || rank > FKC_MAX_RANK || !dst || !src || !off)
        return 0;
    for (size_t i = 0; i < rank; i++)
        if (off[i] > dst[i] || src[i] > dst[i] - off[i])
            return 0;
    return 1;
}

static uint64_t bytes_of(const fkc_tensor *t)
{
    uint64_t b = 0;
    return fkc_tensor_bytes(t, &b) == FKC_OK ? b : 0;
}

fkc_status fkc_test_write_slice_b1(fkc_stream *s, const fkc_tensor *src, fkc_tensor *out,
                                   const fkc_write_slice_params *p, const void *x)
{
    fkc_status st = fkc_write_slice_b1(s, src, out, p, x);
    if (fault("input") && bytes_of(src))
        st = poke(s, st, src->buffer, src->offset, out->buffer, out->offset);
    if (fault("past_end") && bytes_of(src))
        st = poke(s, st, out->buffer, out->offset + bytes_of(out), src->buffer, src->offset);
    return st;
}

fkc_status fkc_test_write_slice_b2(fkc_stream *s, const fkc_tensor *src, fkc_tensor *out,
                                   const fkc_write_slice_params *p, const void *x)
{
    if (fault("refuse") && src && src->dtype == FKC_DTYPE_BF16)
        return fkc_set_error(FKC_ERR_DTYPE, "test_write_slice_b2: BF16 refused (fault)");
    fkc_status st = fkc_write_slice_b2(s, src, out, p, x);
    if (fault("wrong_byte"))
        st = poke(s, st, out->buffer, out->offset + bytes_of(out) - 1, src->buffer, src->offset);
    return st;
}

fkc_status fkc_test_write_slice_b4(fkc_stream *s, const fkc_tensor *src, fkc_tensor *out,
                                   const fkc_write_slice_params *p, const void *x)
{
    if (fault("accept_invalid") && src && p &&
        !(p->dst_shape_len == src->rank && p->offsets_len == src->rank &&
          fits_at(src->rank, p->dst_shape, src->shape, p->offsets)))
        return FKC_OK;
    if (fault("off_by_one") && src && src->shape[0] > 1) {
        fkc_tensor shorter = *src;
        shorter.shape[0]--;
        return fkc_write_slice_b4(s, &shorter, out, p, x);
    }
    return fkc_write_slice_b4(s, src, out, p, x);
}

fkc_status fkc_test_write_slice_b8(fkc_stream *s, const fkc_tensor *src, fkc_tensor *out,
                                   const fkc_write_slice_params *p, const void *x)
{
    static unsigned long i64_calls;
    fkc_status st = fkc_write_slice_b8(s, src, out, p, x);
    if (fault("outside"))
        st = poke(s, st, out->buffer, out->offset - 1, src->buffer, src->offset);
    if (fault("nondeterministic") && src && src->dtype == FKC_DTYPE_I64) {
        const char *n = getenv("CONFORM_TEST_CASES");
        if (i64_calls++ >= strtoul(n ? n : "0", NULL, 10))
            st = poke(s, st, out->buffer, out->offset + bytes_of(out) - 1, src->buffer,
                      src->offset);
    }
    return st;
}

#define ROTATING(W)                                                                                \
    fkc_status fkc_test_write_slice_rotating_b##W(                                                 \
        fkc_stream *s, const fkc_tensor *src, fkc_tensor *out,                                     \
        const fkc_write_slice_rotating_params *p, const fkc_write_slice_rotating_extra *x)         \
    {                                                                                              \
        return fkc_write_slice_rotating_b##W(s, src, out, p, x);                                   \
    }
ROTATING(1)
ROTATING(2)
ROTATING(8)

/* ring_position: a ring write that fits at row 0 is written there, whatever the position. */
fkc_status fkc_test_write_slice_rotating_b4(fkc_stream *s, const fkc_tensor *src, fkc_tensor *out,
                                            const fkc_write_slice_rotating_params *p,
                                            const fkc_write_slice_rotating_extra *x)
{
    size_t zeros[FKC_MAX_RANK] = {0};
    if (fault("ring_position") && src && out && p && p->dst_shape_len == out->rank &&
        src->rank == out->rank && fits_at(out->rank, p->dst_shape, src->shape, zeros)) {
        fkc_write_slice_params q = {p->dst_shape, p->dst_shape_len, zeros, out->rank};
        return fkc_write_slice_b4(s, src, out, &q, x);
    }
    return fkc_write_slice_rotating_b4(s, src, out, p, x);
}
