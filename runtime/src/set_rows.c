/* set_rows.c — row-indexed writes (issue 24): for each source row i whose index is >= 0, cache
 * slot index[i] = convert(source row i). The shape checks and the plan are shared by the
 * plain-C reference (fkc_ref_set_rows) and the Vulkan path (fkc_set_rows, set_rows.comp), so
 * both accept the same calls and compute the same bytes; the device path refuses, with
 * FKC_ERR_UNSUPPORTED and nothing recorded, what its 32-bit-word kernel cannot write exactly.
 *
 * The slot. slot_axis -1: the slot is axis 0 of the cache, a row is the trailing box of the
 * other axes (NHD [slots, heads, dim]). slot_axis k >= 1: the slot is split over axes 0 and k,
 * slot = i0 * shape[k] + ik (NHD paged [blocks, block_size, heads, dim]: k = 1; HND
 * [blocks, heads, block_size, dim]: k = 2), and a row is the box of the other axes, in order.
 * The source is [n, the row's axes...]; the index is [n], I32 or I64.
 *
 * Indices: negative ones are skipped; one at or past the slot count writes nothing and adds 1
 * to the status word (a little-endian u32, mod 2^32) when one is given. A slot named by several
 * rows gets the last of them (the highest i), whole. On the device the last row is found by a
 * scan of the later indices (ops of at most ctx->sr_scan_rows rows) or, for more rows, by a
 * first pass writing each slot's last row into a scratch word per slot of the stream's scratch
 * (fkc_stream_scratch), which the write pass reads and leaves zero (set_rows.comp). */
#include "context.h"
#include "buffer.h"
#include "stream.h"

#include "fkc/fkc_kernels.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- the plan: shared by the reference and the device ------------------------------------ */

typedef enum sr_conv {
    SR_COPY,     /* the same dtype: the bits */
    SR_F32_F16,  /* round to nearest even */
    SR_F32_BF16, /* round to nearest even */
    SR_F16_F32,  /* exact */
    SR_BF16_F32  /* exact */
} sr_conv;

typedef struct sr_plan {
    uint64_t n;         /* source rows */
    uint64_t slots;     /* cache slots */
    uint64_t split;     /* slot = outer * split + inner; 1 when the slot is axis 0 alone */
    uint64_t row_elems; /* elements of one row */
    uint64_t run_len;   /* elements of one contiguous piece of a row in the cache */
    uint64_t d_outer, d_inner, d_run; /* element strides in the cache: outer, inner slot, run */
    size_t ssize, dsize;
    sr_conv conv;
} sr_plan;

static sr_conv conv_of(fkc_dtype s, fkc_dtype d, bool *ok)
{
    *ok = true;
    if (s == d)
        return SR_COPY;
    if (s == FKC_DTYPE_F32 && d == FKC_DTYPE_F16)
        return SR_F32_F16;
    if (s == FKC_DTYPE_F32 && d == FKC_DTYPE_BF16)
        return SR_F32_BF16;
    if (s == FKC_DTYPE_F16 && d == FKC_DTYPE_F32)
        return SR_F16_F32;
    if (s == FKC_DTYPE_BF16 && d == FKC_DTYPE_F32)
        return SR_BF16_F32;
    *ok = false;
    return SR_COPY;
}

static const char *dt_name(fkc_dtype d)
{
    const char *n = fkc_dtype_name(d);
    return n ? n : "?";
}

/* The plan's row layout from checked shapes (k: the slot axis, 0 for axis 0). */
static void sr_layout(sr_plan *p, uint32_t k, uint32_t srank, const size_t *sshape, uint32_t drank,
                      const size_t *dshape)
{
    p->n = sshape[0];
    p->run_len = 1;
    for (uint32_t a = k + 1; a < drank; a++)
        p->run_len *= dshape[a];
    p->row_elems = 1;
    for (uint32_t a = 1; a < srank; a++)
        p->row_elems *= sshape[a];
    p->d_outer = p->run_len;
    for (uint32_t a = 1; a <= k; a++)
        p->d_outer *= dshape[a];
    p->split = k ? dshape[k] : 1;
    p->slots = dshape[0] * p->split; /* (inside the checked element count) */
    p->d_inner = p->run_len;
    p->d_run = k ? dshape[k] * p->run_len : 0;
}

/* The checks of both paths: dtypes, ranks, shapes, sizes. Sets fkc_last_error() on refusal. */
static fkc_status sr_check(const char *op, fkc_dtype sdt, uint32_t srank, const size_t *sshape,
                           fkc_dtype idt, uint32_t irank, const size_t *ishape, fkc_dtype ddt,
                           uint32_t drank, const size_t *dshape, int32_t slot_axis, sr_plan *p)
{
    bool ok;
    uint64_t cnt;
    memset(p, 0, sizeof *p);
    if (drank < 1 || drank > FKC_MAX_RANK || srank < 1 || srank > FKC_MAX_RANK)
        return fkc_fail(FKC_ERR_RANK, "%s: ranks (src %" PRIu32 ", out %" PRIu32 ") outside 1..%d",
                        op, srank, drank, FKC_MAX_RANK);
    if ((unsigned)sdt >= FKC_DTYPE_COUNT || (unsigned)ddt >= FKC_DTYPE_COUNT ||
        !fkc_dtype_size(sdt) || !fkc_dtype_size(ddt))
        return fkc_fail(FKC_ERR_DTYPE, "%s: unknown dtype (src %d, out %d)", op, (int)sdt,
                        (int)ddt);
    if (idt != FKC_DTYPE_I32 && idt != FKC_DTYPE_I64)
        return fkc_fail(FKC_ERR_DTYPE, "%s: the index is %s; it must be I32 or I64", op,
                        dt_name(idt));
    p->conv = conv_of(sdt, ddt, &ok);
    if (!ok)
        return fkc_fail(FKC_ERR_NO_KERNEL,
                        "%s: no kernel for [%s, %s, %s] (same dtype, F32 -> F16/BF16, "
                        "F16/BF16 -> F32)",
                        op, dt_name(sdt), dt_name(idt), dt_name(ddt));
    p->ssize = fkc_dtype_size(sdt);
    p->dsize = fkc_dtype_size(ddt);
    if (slot_axis != -1 && (slot_axis < 1 || (uint32_t)slot_axis >= drank))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: slot_axis %" PRId32 " is neither -1 (axis 0) nor an axis "
                        "1..%" PRIu32 " of the rank-%" PRIu32 " cache",
                        op, slot_axis, drank - 1, drank);
    uint32_t k = slot_axis < 0 ? 0 : (uint32_t)slot_axis;
    uint32_t rows_rank = drank - (k ? 2 : 1);
    if (irank != 1)
        return fkc_fail(FKC_ERR_RANK, "%s: the index has rank %" PRIu32 "; it must be 1", op,
                        irank);
    if (srank != 1 + rows_rank)
        return fkc_fail(FKC_ERR_RANK,
                        "%s: src has rank %" PRIu32 "; rows of this cache need rank %" PRIu32
                        " ([n, the cache's axes but the slot's])",
                        op, srank, 1 + rows_rank);
    if (fkc_shape_elements(drank, dshape, p->dsize, &cnt) != FKC_OK ||
        fkc_shape_elements(srank, sshape, p->ssize, &cnt) != FKC_OK ||
        fkc_shape_elements(1, ishape, 8, &cnt) != FKC_OK)
        return fkc_fail(FKC_ERR_OVERFLOW, "%s: a tensor's byte size exceeds 2^63 - 1", op);
    if (ishape[0] != sshape[0])
        return fkc_fail(FKC_ERR_SHAPE, "%s: %zu indices for %zu source rows", op, ishape[0],
                        sshape[0]);
    for (uint32_t a = 1, b = 1; a < drank; a++) {
        if (a == k)
            continue;
        if (sshape[b] != dshape[a])
            return fkc_fail(FKC_ERR_SHAPE,
                            "%s: src axis %" PRIu32 " has extent %zu, the cache's axis %" PRIu32
                            " %zu (rows must match)",
                            op, b, sshape[b], a, dshape[a]);
        b++;
    }
    sr_layout(p, k, srank, sshape, drank, dshape);
    return FKC_OK;
}

/* ---- conversions (the same integer arithmetic as set_rows.comp) --------------------------- */

static uint16_t f32_to_f16(uint32_t x)
{
    uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x477ff000u)
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) {
        uint32_t e = a >> 23;
        if (e < 102u)
            return (uint16_t)sign;
        uint32_t m = (a & 0x7fffffu) | 0x800000u, sh = 126u - e;
        uint32_t r = m >> sh, rem = m & ((1u << sh) - 1u), half = 1u << (sh - 1u);
        if (rem > half || (rem == half && (r & 1u)))
            r++;
        return (uint16_t)(sign | r);
    }
    uint32_t b = a - 0x38000000u, h = b >> 13, rem = b & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;
    return (uint16_t)(sign | h);
}

static uint16_t f32_to_bf16(uint32_t x)
{
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

static uint32_t f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 31u)
        return sign | 0x7f800000u | (m << 13);
    if (e)
        return sign | ((e + 112u) << 23) | (m << 13);
    if (!m)
        return sign;
    uint32_t p = 31u - (uint32_t)__builtin_clz(m);
    return sign | ((p + 103u) << 23) | ((m << (23u - p)) & 0x7fffffu);
}

/* One element, little-endian bytes in and out. */
static void convert(sr_conv c, unsigned char *d, const unsigned char *s, size_t dsize)
{
    uint32_t x;
    uint16_t h;
    switch (c) {
    case SR_COPY: memcpy(d, s, dsize); return;
    case SR_F32_F16:
    case SR_F32_BF16:
        x = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
        h = c == SR_F32_F16 ? f32_to_f16(x) : f32_to_bf16(x);
        d[0] = (unsigned char)h, d[1] = (unsigned char)(h >> 8);
        return;
    case SR_F16_F32:
    case SR_BF16_F32:
        h = (uint16_t)(s[0] | s[1] << 8);
        x = c == SR_F16_F32 ? f16_to_f32(h) : (uint32_t)h << 16;
        for (int i = 0; i < 4; i++)
            d[i] = (unsigned char)(x >> (8 * i));
        return;
    }
}

/* Index i as a signed 64-bit value (little-endian). */
static int64_t index_at(const unsigned char *ix, bool i64, uint64_t i)
{
    uint64_t v = 0;
    unsigned w = i64 ? 8 : 4;
    for (unsigned b = w; b-- > 0;)
        v = v << 8 | ix[i * w + b];
    if (!i64)
        return (int64_t)(int32_t)(uint32_t)v;
    return v >> 63 ? -(int64_t)(~v) - 1 : (int64_t)v;
}

/* ---- the reference ------------------------------------------------------------------------ */

fkc_status fkc_ref_set_rows(const fkc_host_tensor *src, const fkc_host_tensor *index,
                            fkc_host_tensor *out, int32_t slot_axis, uint64_t *out_of_range)
{
    const char *op = "fkc_ref_set_rows";
    sr_plan p;
    if (!src || !index || !out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: NULL tensor", op);
    fkc_status st = sr_check(op, src->dtype, src->rank, src->shape, index->dtype, index->rank,
                             index->shape, out->dtype, out->rank, out->shape, slot_axis, &p);
    if (st != FKC_OK)
        return st;
    if (p.n &&
        (!index->data || (p.row_elems && !src->data) || (p.row_elems && p.slots && !out->data)))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: NULL data", op);
    const unsigned char *s = src->data, *ix = index->data;
    unsigned char *d = out->data;
    bool i64 = index->dtype == FKC_DTYPE_I64;
    uint64_t bad = 0;
    for (uint64_t i = 0; i < p.n; i++) { /* in order: the last row naming a slot wins */
        int64_t v = index_at(ix, i64, i);
        if (v < 0)
            continue;
        if ((uint64_t)v >= p.slots) {
            bad++;
            continue;
        }
        uint64_t slot = (uint64_t)v, outer = slot / p.split, inner = slot % p.split;
        for (uint64_t j = 0; j < p.row_elems; j++) {
            uint64_t r = j / p.run_len, e = j % p.run_len;
            uint64_t at = outer * p.d_outer + inner * p.d_inner + r * p.d_run + e;
            convert(p.conv, d + at * p.dsize, s + (i * p.row_elems + j) * p.ssize, p.dsize);
        }
    }
    if (out_of_range)
        *out_of_range += bad;
    return FKC_OK;
}

/* ---- the device path ---------------------------------------------------------------------- */

/* set_rows.comp's push constants, in its order. */
typedef struct sr_push {
    uint32_t n, row_base, chunks, row_units, d_off, split, d_outer, d_inner, run_units, d_run;
    uint32_t s_off, s_row, i_off, i64, slots, st_word, conv, s_unit, dups, groups, upi;
    uint32_t scr, sbits; /* dups 2: the op's first scratch word in its window, bits of row + 1 */
} sr_push;

/* A tensor of the stream's context inside its buffer: its bytes [lo, hi) in the VkBuffer. */
static fkc_status sr_tensor(const fkc_stream *s, const fkc_tensor *t, const char *name,
                            uint64_t *lo, uint64_t *hi)
{
    uint64_t n;
    if (!t || !t->buffer)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "set_rows: %s or its buffer is NULL", name);
    if (t->buffer->ctx != s->ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "set_rows: %s's buffer belongs to another "
                        "context",
                        name);
    fkc_status st = fkc_tensor_bytes(t, &n);
    if (st != FKC_OK)
        return st;
    if (t->offset > t->buffer->size || n > t->buffer->size - t->offset)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "set_rows: %s: %" PRIu64 " bytes at offset %" PRIu64 " do not fit its "
                        "%" PRIu64 "-byte buffer",
                        name, n, t->offset, t->buffer->size);
    *lo = t->buffer->base + t->offset;
    *hi = *lo + n;
    return FKC_OK;
}

static bool overlap(VkBuffer a, uint64_t alo, uint64_t ahi, VkBuffer b, uint64_t blo, uint64_t bhi)
{
    return a == b && alo < bhi && blo < ahi;
}

/* The window bound for bytes [lo, hi) of buf: from the storage offset alignment below lo to
 * the 16-byte boundary after hi (inside the buffer's padded allocation). */
static VkDescriptorBufferInfo window(const fkc_context *ctx, VkBuffer buf, uint64_t lo, uint64_t hi)
{
    uint64_t a = ctx->offset_align, w = lo / a * a;
    return (VkDescriptorBufferInfo){buf, w, ((hi + 15) & ~(uint64_t)15) - w};
}

/* ---- fusing: the set_rows ops of a stream in one dispatch --------------------------------- */

#define SR_SCRATCH(slots) (((uint64_t)(slots)*4 + 15) & ~(uint64_t)15) /* an op's scratch */
#define SR_FUSE_MAX 128u /* ops one fused dispatch takes (32 words each: 16 KiB of table) */

/* One queued op: its parameters (offsets still in bytes in the VkBuffers), its windows' slots
 * (source, index, cache, status) and its unit. */
typedef struct sr_op {
    sr_push pc;
    uint64_t at[4]; /* VkBuffer byte of the source, the index, the cache, the status word */
    uint32_t slot[4];
    uint32_t unit;                 /* 16 or 4 */
    VkDescriptorBufferInfo status; /* its status word's window (buffer NULL: none) */
    uint64_t scr;                  /* dups 2: its scratch's byte in the batch's scratch buffer */
} sr_op;

struct fkc_sr_batch {
    sr_op op[SR_FUSE_MAX];
    uint32_t n;
    uint64_t groups;
    fkc_slot slot[SR_READ + SR_WRITE]; /* read ones first */
    uint32_t n_read, n_write;
    fkc_table *table;
    uint64_t at;
    VkDescriptorSet set;
    bool self;               /* its own op is being touched: its windows are no hazard to it */
    VkBuffer scr_buf;        /* the scratch of its dups-2 ops (VK_NULL_HANDLE: none) */
    uint64_t scr_lo, scr_hi; /* their bytes in it, one after the other */
    uint32_t mark_groups;    /* the first pass's groups per op: of its op with most rows */
};

static void sr_flush(fkc_stream *s);

static bool sr_hazard(const fkc_stream *s, const fkc_access *a)
{
    const struct fkc_sr_batch *b = s->sr;
    if (!b || !b->n || b->self)
        return false;
    for (uint32_t i = 0; i < b->n_read + b->n_write; i++) {
        uint32_t k = i < b->n_read ? i : SR_READ + i - b->n_read;
        const fkc_slot *t = &b->slot[k];
        if ((k >= SR_READ || a->write) && t->buffer == a->buffer && a->lo < t->hi && t->lo < a->hi)
            return true;
    }
    return false;
}

static uint32_t sr_pending(const fkc_stream *s)
{
    return s->sr && s->sr->n ? 1u + (s->sr->table->map ? 0u : 1u) + (s->sr->scr_buf ? 1u : 0u) : 0u;
}

static void sr_reset(fkc_stream *s)
{
    if (s->sr)
        s->sr->n = 0, s->sr->groups = 0, s->sr->scr_buf = VK_NULL_HANDLE;
}

static void sr_release(fkc_stream *s)
{
    free(s->sr);
    s->sr = NULL;
}

/* Whether [lo, hi) of buf, read or written, meets an access tracked since the last barrier or
 * a window of the pending fused writes (which the validation layer sees as accessed). */
static bool touched(const fkc_stream *s, VkBuffer buf, uint64_t lo, uint64_t hi, bool write)
{
    if (lo >= hi)
        return false;
    for (uint32_t i = 0; i < s->n_track; i++) {
        const fkc_access *t = &s->track[i];
        if ((t->write || write) && t->buffer == buf && lo < t->hi && t->lo < hi)
            return true;
    }
    const fkc_batcher *fused = s->batcher[FKC_BATCHER_FUSED]; /* its windows, through it */
    fkc_access a = {buf, lo, hi, write, false};
    return fused && fused->hazard(s, &a);
}

/* The slot of the batch holding window w (read or written): an existing one of its VkBuffer
 * widened over it when the widened window stays within the storage range and the bytes it adds
 * between the two meet nothing tracked, else a new one; -1 when there is no room. */
static int sr_slot(fkc_stream *s, struct fkc_sr_batch *b, const VkDescriptorBufferInfo *w,
                   bool write)
{
    uint64_t lim = s->ctx->storage_range, lo = w->offset, hi = w->offset + w->range;
    uint32_t first = write ? SR_READ : 0, n = write ? b->n_write : b->n_read;
    for (uint32_t i = 0; i < n; i++) {
        fkc_slot *t = &b->slot[first + i];
        if (t->buffer != w->buffer)
            continue;
        uint64_t l = lo < t->lo ? lo : t->lo, h = hi > t->hi ? hi : t->hi;
        /* the gap between the two, if any, is what widening adds */
        uint64_t glo = hi < t->lo ? hi : t->hi, ghi = hi < t->lo ? t->lo : lo;
        if (h - l <= lim && (ghi <= glo || !touched(s, w->buffer, glo, ghi, write))) {
            t->lo = l, t->hi = h;
            return (int)i;
        }
    }
    if (n == (write ? SR_WRITE : SR_READ))
        return -1;
    b->slot[first + n] = (fkc_slot){w->buffer, lo, hi};
    if (write)
        b->n_write++;
    else
        b->n_read++;
    return (int)n;
}

static fkc_status sr_start(fkc_stream *s, struct fkc_sr_batch *b)
{
    fkc_status st = fkc_stream_table(s, 0, &b->table, &b->at);
    b->set = VK_NULL_HANDLE;
    if (st == FKC_OK && !s->ctx->vk.vkCmdPushDescriptorSetKHR)
        st = fkc_stream_alloc_set(s, s->ctx->set_rows_fused_set_layout, &b->set);
    b->n_read = b->n_write = 0;
    b->groups = 0;
    b->scr_buf = VK_NULL_HANDLE;
    b->mark_groups = 0;
    return st;
}

/* The op's scratch (dups 2), right after the batch's: false when it lies elsewhere (a new chunk,
 * or another op's between), so that the batch binds one window of it. */
static fkc_status sr_place_scratch(fkc_stream *s, struct fkc_sr_batch *b, const sr_push *pc,
                                   bool *fits, VkBuffer *buf, uint64_t *at)
{
    uint64_t a = s->ctx->offset_align;
    *fits = true;
    if (pc->dups != 2)
        return FKC_OK;
    fkc_status st = fkc_stream_scratch(s, SR_SCRATCH(pc->slots), buf, at);
    if (st == FKC_OK && b->scr_buf &&
        (*buf != b->scr_buf || *at != (b->scr_hi + a - 1) / a * a ||
         *at + SR_SCRATCH(pc->slots) - b->scr_lo > s->ctx->storage_range))
        *fits = false;
    return st;
}

/* Queues an op (its accesses `acc` touched already) into the stream's batch. */
static fkc_status sr_queue(fkc_stream *s, const sr_push *pc, const uint64_t at[4], uint32_t unit,
                           const VkDescriptorBufferInfo bi[4], bool status, uint64_t groups)
{
    uint64_t glim = s->ctx->group_limit, sat = 0;
    struct fkc_sr_batch *b = s->sr;
    VkBuffer sbuf = VK_NULL_HANDLE;
    bool sfits = true;
    fkc_status st = sr_place_scratch(s, b, pc, &sfits, &sbuf, &sat);
    if (st != FKC_OK)
        return st;
    for (int pass = 0; pass < 2; pass++) {
        if (b->n && (b->n == SR_FUSE_MAX || b->groups + groups > glim * glim || !sfits))
            sr_flush(s);
        sfits = true;
        if (b->n == 0 && (st = sr_start(s, b)) != FKC_OK)
            return st;
        fkc_slot saved[SR_READ + SR_WRITE];
        uint32_t nr = b->n_read, nw = b->n_write;
        memcpy(saved, b->slot, sizeof saved);
        int k[4];
        for (int r = 0; r < 4; r++)
            k[r] = sr_slot(s, b, &bi[r], r >= 2);
        if (k[0] < 0 || k[1] < 0 || k[2] < 0 || k[3] < 0) {
            memcpy(b->slot, saved, sizeof saved);
            b->n_read = nr, b->n_write = nw;
            sr_flush(s); /* a new batch: its windows are the op's own */
            continue;
        }
        sr_op *o = &b->op[b->n++];
        o->pc = *pc;
        o->pc.groups = (uint32_t)groups;
        memcpy(o->at, at, sizeof o->at);
        for (int r = 0; r < 4; r++)
            o->slot[r] = (uint32_t)k[r];
        o->unit = unit;
        o->status = status ? bi[3] : (VkDescriptorBufferInfo){VK_NULL_HANDLE, 0, 0};
        o->scr = sat;
        if (pc->dups == 2) { /* its scratch joins the batch's window */
            uint32_t mg = (pc->n + FKC_LOCAL_SIZE - 1) / FKC_LOCAL_SIZE;
            if (!b->scr_buf)
                b->scr_buf = sbuf, b->scr_lo = sat;
            b->scr_hi = sat + SR_SCRATCH(pc->slots);
            b->mark_groups = mg > b->mark_groups ? mg : b->mark_groups;
        }
        b->groups += groups;
        s->items++;
        /* (its exact windows are tracked; later commands meeting the widened ones find them
         * through sr_hazard) */
        return FKC_OK;
    }
    return fkc_fail(FKC_ERR_STATE, "set_rows: the op's windows fit no fused batch");
}

/* Whether an op of the pending batch counts into the same status window: then the new op's
 * atomic adds go into the same dispatch, and its status word needs no barrier (whatever else
 * touched that word since the batch began has flushed it). */
static bool shares_status(const fkc_stream *s, const VkDescriptorBufferInfo *w)
{
    const struct fkc_sr_batch *b = s->sr;
    for (uint32_t i = 0; b && i < b->n; i++)
        if (b->op[i].status.buffer == w->buffer && b->op[i].status.offset == w->offset &&
            b->op[i].status.range == w->range)
            return true;
    return false;
}

/* Binds the batch's windows with the first pass (when an op of it has dups 2: it is recorded,
 * and a barrier from it to the write pass) and then the write pass's pipeline. */
static void sr_mark_fused(fkc_stream *s, const struct fkc_sr_batch *b, uint32_t nb,
                          const VkDescriptorBufferInfo *bi)
{
    fkc_context *ctx = s->ctx;
    const fkc_vk *vk = &ctx->vk;
    if (!b->scr_buf) {
        fkc_stream_bind_set(s, ctx->pipelines[KERNEL_SET_ROWS_FUSED], ctx->set_rows_fused_layout,
                            b->set, nb, bi);
        return;
    }
    fkc_stream_bind_set(s, ctx->pipelines[KERNEL_SET_ROWS_MARK_FUSED], ctx->set_rows_fused_layout,
                        b->set, nb, bi);
    uint32_t push[2] = {b->n, b->mark_groups}, groups = b->n * b->mark_groups;
    vk->vkCmdPushConstants(s->cmd, ctx->set_rows_fused_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           sizeof push, push);
    uint32_t lim = ctx->group_limit, gx = groups < lim ? groups : lim;
    vk->vkCmdDispatch(s->cmd, gx, (groups + gx - 1) / gx, 1);
    s->commands++;
    fkc_stream_memory_barrier(s, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    /* (the same layout: the windows stay bound) */
    vk->vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                          ctx->pipelines[KERNEL_SET_ROWS_FUSED]);
}

static void sr_flush(fkc_stream *s)
{
    struct fkc_sr_batch *b = s->sr;
    if (!b || !b->n)
        return;
    fkc_context *ctx = s->ctx;
    const fkc_vk *vk = &ctx->vk;
    uint32_t t[SR_FUSE_MAX * SR_WORDS];
    uint32_t group = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        const sr_op *o = &b->op[i];
        uint32_t *e = &t[i * SR_WORDS];
        const fkc_slot *rs = &b->slot[o->slot[0]], *ri = &b->slot[o->slot[1]],
                       *wd = &b->slot[SR_READ + o->slot[2]], *wt = &b->slot[SR_READ + o->slot[3]];
        memset(e, 0, SR_WORDS * 4);
        e[SR_E_GROUP] = group;
        e[SR_E_SLOTS] = o->slot[0] | o->slot[1] << 4 | o->slot[2] << 8 | o->slot[3] << 12;
        e[SR_E_VEC] = o->unit == 16;
        sr_push p = o->pc;
        if (p.row_units)
            p.d_off = (uint32_t)((o->at[2] - wd->lo) / o->unit);
        p.s_off = (uint32_t)(o->at[0] - rs->lo);
        p.i_off = (uint32_t)((o->at[1] - ri->lo) / 4);
        if (p.st_word != 0xffffffffu)
            p.st_word = (uint32_t)((o->at[3] - wt->lo) / 4);
        if (p.dups == 2)
            p.scr = (uint32_t)((o->scr - b->scr_lo) / 4);
        memcpy(&e[SR_E_PARAMS], &p, sizeof p);
        group += o->pc.groups;
    }
    uint64_t bytes = (uint64_t)b->n * SR_WORDS * 4;
    fkc_stream_write_table(s, b->table, b->at, t, bytes, 0);
    VkDescriptorBufferInfo bi[2 + SR_READ + SR_WRITE];
    uint32_t nb = fkc_table_windows(bi, (VkDescriptorBufferInfo){b->table->buffer, b->at, bytes},
                                    b->slot, b->n_read, SR_READ, b->n_write, SR_WRITE);
    /* the scratch (unused: the first written window again) */
    bi[nb++] = b->scr_buf ? (VkDescriptorBufferInfo){b->scr_buf, b->scr_lo, b->scr_hi - b->scr_lo}
                          : bi[1 + SR_READ];
    sr_mark_fused(s, b, nb, bi);
    uint32_t push[2] = {b->n, b->op[0].pc.groups}; /* every op as many groups: no search */
    for (uint32_t i = 1; i < b->n && push[1]; i++)
        if (b->op[i].pc.groups != push[1])
            push[1] = 0;
    vk->vkCmdPushConstants(s->cmd, ctx->set_rows_fused_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           sizeof push, push);
    uint32_t lim = ctx->group_limit, gx = group < lim ? group : lim;
    vk->vkCmdDispatch(s->cmd, gx, (group + gx - 1) / gx, 1);
    s->commands++;
    b->n = 0;
    b->groups = 0;
    b->scr_buf = VK_NULL_HANDLE;
    b->mark_groups = 0;
}

static void sr_flush_keep(fkc_stream *s, bool keep)
{
    (void)keep; /* (its windows stay tracked until the barrier either way) */
    sr_flush(s);
}

static const fkc_batcher sr_batcher = {sr_flush_keep, sr_hazard,  sr_pending,
                                       sr_reset,      sr_release, NULL};

/* One set_rows call on the device: its plan, operands (bytes [lo, hi) of their VkBuffers; the
 * status word's when `status`), bindings, accesses and push constants. */
typedef struct sr_call {
    sr_plan p;
    VkBuffer sb, ib, db, tb;
    uint64_t slo, shi, ilo, ihi, dlo, dhi, tlo, thi;
    bool status, rows, vec; /* rows: cache rows with bytes (something may be written) */
    uint64_t run_bytes, unit, chunks, per;
    VkDescriptorBufferInfo bi[5]; /* source, index, cache, status, scratch */
    fkc_access acc[4];
    uint32_t nacc;
    sr_push pc;
} sr_call;

/* The operands in their buffers, the status word checked, none of them overlapping out. */
static fkc_status sr_operands(const fkc_stream *s, const fkc_tensor *src, const fkc_tensor *index,
                              const fkc_tensor *out, const fkc_buffer *status,
                              uint64_t status_offset, sr_call *c)
{
    fkc_status st;
    if ((st = sr_tensor(s, src, "src", &c->slo, &c->shi)) != FKC_OK ||
        (st = sr_tensor(s, index, "index", &c->ilo, &c->ihi)) != FKC_OK ||
        (st = sr_tensor(s, out, "out", &c->dlo, &c->dhi)) != FKC_OK)
        return st;
    c->sb = src->buffer->buffer, c->ib = index->buffer->buffer, c->db = out->buffer->buffer;
    c->tb = VK_NULL_HANDLE;
    c->tlo = c->thi = 0;
    c->status = status != NULL;
    if (status) {
        if (status->ctx != s->ctx)
            return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "set_rows: the status buffer belongs to "
                                                      "another context");
        if (status_offset > status->size || status->size - status_offset < 4)
            return fkc_fail(FKC_ERR_OUT_OF_BOUNDS,
                            "set_rows: the status word's 4 bytes at offset %" PRIu64
                            " are outside its %" PRIu64 "-byte buffer",
                            status_offset, status->size);
        c->tb = status->buffer;
        c->tlo = status->base + status_offset;
        c->thi = c->tlo + 4;
        if (c->tlo % 4)
            return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                            "set_rows: the status word at offset %" PRIu64 " is not 4-aligned",
                            status_offset);
    }
    bool s_out = overlap(c->sb, c->slo, c->shi, c->db, c->dlo, c->dhi);
    if (s_out || overlap(c->ib, c->ilo, c->ihi, c->db, c->dlo, c->dhi))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "set_rows: out overlaps %s in one buffer",
                        s_out ? "src" : "the index");
    if (status && (overlap(c->tb, c->tlo, c->thi, c->db, c->dlo, c->dhi) ||
                   overlap(c->tb, c->tlo, c->thi, c->sb, c->slo, c->shi) ||
                   overlap(c->tb, c->tlo, c->thi, c->ib, c->ilo, c->ihi)))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "set_rows: the status word overlaps src, the index or out");
    return FKC_OK;
}

/* What the device kernels can do: whole 32-bit words of the cache (addressed in 32-bit
 * arithmetic), aligned indices and 16-bit sources, each tensor inside one storage window. */
static fkc_status sr_fits(const fkc_context *ctx, sr_call *c)
{
    const sr_plan *p = &c->p;
    uint64_t lim = ctx->storage_range, a = ctx->offset_align;
    c->run_bytes = p->run_len * p->dsize;
    c->rows = p->row_elems && p->slots;
    if (c->rows && (c->run_bytes % 4 || c->dlo % 4))
        return fkc_fail(FKC_ERR_UNSUPPORTED,
                        "set_rows: the cache's contiguous runs (%" PRIu64 " bytes at byte %" PRIu64
                        ") are not whole 32-bit words, which the device kernel writes",
                        c->run_bytes, c->dlo);
    if (p->n && (c->ilo % 4))
        return fkc_fail(FKC_ERR_UNSUPPORTED, "set_rows: the index is not 4-byte aligned");
    if (c->rows && (p->conv == SR_F16_F32 || p->conv == SR_BF16_F32) && c->slo % 2)
        return fkc_fail(FKC_ERR_UNSUPPORTED, "set_rows: the 16-bit source is not 2-byte aligned");
    if (p->slots >= (1ull << 31) || c->dhi - c->dlo / a * a + 16 > lim ||
        c->shi - c->slo / a * a + 16 > lim || c->ihi - c->ilo / a * a + 16 > lim)
        return fkc_fail(FKC_ERR_UNSUPPORTED,
                        "set_rows: a tensor spans more than one %" PRIu64 "-byte storage window "
                        "(or the cache has 2^31 slots or more)",
                        lim);
    return FKC_OK;
}

/* The unit (16-byte units where the cache runs and source rows allow, else words), the
 * windows bound and the accesses they make. */
static void sr_bindings(const fkc_context *ctx, sr_call *c)
{
    const sr_plan *p = &c->p;
    c->vec = c->rows && c->run_bytes % 16 == 0 && c->dlo % 16 == 0;
    c->unit = c->vec ? 16 : 4;
    uint64_t s_unit = c->unit * p->ssize / p->dsize, s_al = s_unit < 16 ? s_unit : 16;
    if (c->vec && (c->slo % s_al || (p->row_elems * p->ssize) % s_al))
        c->vec = false, c->unit = 4;
    VkDescriptorBufferInfo *bi = c->bi;
    bi[1] = window(ctx, c->ib, c->ilo, c->ihi);
    bi[0] = c->rows ? window(ctx, c->sb, c->slo, c->shi) : bi[1];
    bi[3] = c->status ? window(ctx, c->tb, c->tlo, c->thi) : bi[1];
    bi[2] = c->rows ? window(ctx, c->db, c->dlo, c->dhi) : bi[3];
    if (!c->status)
        bi[3] = bi[2];
    bi[4] = bi[2]; /* the scratch's, when the op has one (sr_direct); else never used */
    /* the accesses: the windows, as bound (the status word is read and written) */
    for (uint32_t i = 0; i < 4; i++)
        c->acc[i] = (fkc_access){bi[i].buffer, bi[i].offset, bi[i].offset + bi[i].range, i >= 2,
                                 false};
    c->nacc = c->status && c->rows ? 4 : 3; /* without a status, binding 3 is the cache's */
    if (!c->rows) /* nothing written but the status word: binding 2 is the status window too */
        c->acc[2] = c->acc[3], c->nacc = 3;
}

static uint32_t bits_of(uint64_t v) /* bits of v: 0 for 0 */
{
    uint32_t b = 0;
    for (; v; v >>= 1)
        b++;
    return b;
}

/* Duplicates by the scratch pass (dups 2) instead of the scan, for more rows than the scan is
 * for, where one scratch word a slot holds row + 1 (its low bits) and the count of the row's
 * work groups (its high bits) and the op's scratch stays within FKC_SR_SCRATCH_MAX (else the
 * scan: slower, as right). */
static void sr_linear(const fkc_context *ctx, sr_call *c)
{
    uint32_t rb = bits_of(c->p.n), cb = bits_of(c->chunks);
    if (c->pc.dups && c->p.n > ctx->sr_scan_rows && rb + cb <= 32 &&
        SR_SCRATCH(c->p.slots) <= FKC_SR_SCRATCH_MAX &&
        SR_SCRATCH(c->p.slots) <= ctx->storage_range)
        c->pc.dups = 2, c->pc.sbits = rb;
}

/* The push constants; FKC_ERR_UNSUPPORTED when one row needs more groups than a dispatch. */
static fkc_status sr_params(const fkc_context *ctx, sr_call *c, bool i64)
{
    const sr_plan *p = &c->p;
    uint64_t unit = c->unit, row_units = c->rows ? p->row_elems * p->dsize / unit : 0;
    /* with several rows (a duplicate scan each group), a group writes up to 4 x 256 units */
    uint64_t upi = p->n > 1 && row_units > FKC_LOCAL_SIZE
                       ? (row_units + FKC_LOCAL_SIZE - 1) / FKC_LOCAL_SIZE
                       : 1;
    upi = upi > 4 ? 4 : upi;
    uint64_t span = FKC_LOCAL_SIZE * upi, glim = ctx->group_limit;
    c->chunks = row_units ? (row_units + span - 1) / span : 1;
    if ((c->per = glim * glim / c->chunks) == 0)
        return fkc_fail(FKC_ERR_UNSUPPORTED, "set_rows: one row needs more work groups than a "
                                             "dispatch may have");
    c->pc = (sr_push){
        .n = (uint32_t)p->n,
        .chunks = (uint32_t)c->chunks,
        .row_units = (uint32_t)row_units,
        .d_off = c->rows ? (uint32_t)((c->dlo - c->bi[2].offset) / unit) : 0,
        .split = (uint32_t)p->split,
        .d_outer = (uint32_t)(p->d_outer * p->dsize / unit),
        .d_inner = (uint32_t)(p->d_inner * p->dsize / unit),
        .run_units = (uint32_t)(c->rows ? c->run_bytes / unit : 1),
        .d_run = (uint32_t)(p->d_run * p->dsize / unit),
        .s_off = (uint32_t)(c->rows ? c->slo - c->bi[0].offset : 0),
        .s_row = (uint32_t)(p->row_elems * p->ssize),
        .i_off = (uint32_t)((c->ilo - c->bi[1].offset) / 4),
        .i64 = i64,
        .slots = (uint32_t)p->slots,
        .st_word = c->status ? (uint32_t)((c->tlo - c->bi[3].offset) / 4) : 0xffffffffu,
        .conv = (uint32_t)p->conv,
        .s_unit = (uint32_t)(unit * p->ssize / p->dsize),
        .dups = p->n > 1 && c->rows,
        .upi = (uint32_t)upi,
    };
    sr_linear(ctx, c);
    return FKC_OK;
}

/* Queues the op into the stream's fused set_rows batch (an op of the stream either way but
 * when the batch cannot be allocated). */
static fkc_status sr_fused(fkc_stream *s, sr_call *c)
{
    uint64_t at[4] = {c->rows ? c->slo : c->ilo, c->ilo, c->rows ? c->dlo : c->tlo,
                      c->status ? c->tlo : c->dlo};
    c->pc.row_base = 0;
    /* a barrier (and the batch before it) if it must wait; the status word (acc's last)
     * not, when the batch's ops count into it already */
    if (!s->sr && !(s->sr = calloc(1, sizeof *s->sr)))
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating the fused set_rows batch");
    s->batcher[FKC_BATCHER_SET_ROWS] = &sr_batcher;
    bool shared = c->status && shares_status(s, &c->bi[3]);
    s->sr->self = true;
    fkc_stream_touch(s, c->nacc - (shared ? 1 : 0), c->acc);
    if (shared && !shares_status(s, &c->bi[3])) /* the touch flushed the batch */
        fkc_stream_touch(s, 1, &c->acc[c->nacc - 1]);
    s->sr->self = false;
    fkc_status st = sr_queue(s, &c->pc, at, (uint32_t)c->unit, c->bi, c->status,
                             c->p.n * c->chunks);
    s->ops++;
    return st;
}

/* The first pass of a dups-2 op, all its rows, and a barrier from it to the write pass. */
static fkc_status sr_mark(fkc_stream *s, sr_call *c)
{
    fkc_context *ctx = s->ctx;
    uint64_t glim = ctx->group_limit, groups = (c->p.n + FKC_LOCAL_SIZE - 1) / FKC_LOCAL_SIZE;
    fkc_status st = fkc_stream_bind(s, ctx->pipelines[KERNEL_SET_ROWS_MARK], ctx->set_rows_layout,
                                    ctx->set_rows_set_layout, 5, c->bi);
    if (st != FKC_OK)
        return st;
    uint64_t gx = groups < glim ? groups : glim;
    ctx->vk.vkCmdPushConstants(s->cmd, ctx->set_rows_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                               sizeof c->pc, &c->pc);
    ctx->vk.vkCmdDispatch(s->cmd, (uint32_t)gx, (uint32_t)((groups + gx - 1) / gx), 1);
    s->commands++;
    s->items++;
    fkc_stream_memory_barrier(s, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    return FKC_OK;
}

/* Records the op as its own dispatches, c->per rows' groups each (an op of the stream). */
static fkc_status sr_direct(fkc_stream *s, sr_call *c)
{
    fkc_context *ctx = s->ctx;
    fkc_status st = FKC_OK;
    uint64_t before = s->items, glim = ctx->group_limit;
    kernel_id k = c->vec ? KERNEL_SET_ROWS_VEC : KERNEL_SET_ROWS_WORD;
    if (c->pc.dups == 2) { /* its scratch (left zero by the op's write pass) */
        uint64_t at;
        VkBuffer buf;
        if ((st = fkc_stream_scratch(s, SR_SCRATCH(c->p.slots), &buf, &at)) != FKC_OK)
            return st;
        c->bi[4] = (VkDescriptorBufferInfo){buf, at, SR_SCRATCH(c->p.slots)};
        c->pc.scr = 0;
    }
    for (uint64_t base = 0; base < c->p.n; base += c->per) {
        uint64_t nr = c->p.n - base < c->per ? c->p.n - base : c->per, groups = nr * c->chunks;
        fkc_stream_touch(s, c->nacc, c->acc);
        if (base == 0 && c->pc.dups == 2 && (st = sr_mark(s, c)) != FKC_OK)
            break;
        st = fkc_stream_bind(s, ctx->pipelines[k], ctx->set_rows_layout, ctx->set_rows_set_layout,
                             5, c->bi);
        if (st != FKC_OK)
            break;
        c->pc.row_base = (uint32_t)base;
        c->pc.groups = (uint32_t)groups;
        uint64_t gx = groups < glim ? groups : glim;
        ctx->vk.vkCmdPushConstants(s->cmd, ctx->set_rows_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                   sizeof c->pc, &c->pc);
        ctx->vk.vkCmdDispatch(s->cmd, (uint32_t)gx, (uint32_t)((groups + gx - 1) / gx), 1);
        s->commands++;
        s->items++;
    }
    if (st != FKC_OK && s->items != before)
        s->broken = true;
    s->ops++;
    return st;
}

static fkc_status set_rows_body(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *index,
                                fkc_tensor *out, int32_t slot_axis, fkc_buffer *status,
                                uint64_t status_offset)
{
    sr_call c;
    fkc_status st;
    if (!s || !src || !index || !out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "set_rows: NULL stream or tensor");
    if ((st = sr_check("set_rows", src->dtype, src->rank, src->shape, index->dtype, index->rank,
                       index->shape, out->dtype, out->rank, out->shape, slot_axis, &c.p)) !=
            FKC_OK ||
        (st = sr_operands(s, src, index, out, status, status_offset, &c)) != FKC_OK ||
        (st = sr_fits(s->ctx, &c)) != FKC_OK || (st = fkc_stream_ensure(s)) != FKC_OK)
        return st;
    if (c.p.n == 0 || (!c.rows && !status)) {
        s->ops++; /* nothing to write or count */
        return FKC_OK;
    }
    sr_bindings(s->ctx, &c);
    if ((st = sr_params(s->ctx, &c, index->dtype == FKC_DTYPE_I64)) != FKC_OK)
        return st;
    uint64_t glim = s->ctx->group_limit;
    return fkc_stream_fusing(s, 0) && c.p.n * c.chunks <= glim * glim ? sr_fused(s, &c)
                                                                      : sr_direct(s, &c);
}

fkc_status fkc_set_rows(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *index,
                        fkc_tensor *out, int32_t slot_axis, fkc_buffer *status,
                        uint64_t status_offset)
{
    FKC_STREAM_GUARDED(s, "fkc_set_rows",
                       set_rows_body(s, src, index, out, slot_axis, status, status_offset));
}

fkc_status fkc_set_rows_sync(fkc_context *ctx, const fkc_tensor *src, const fkc_tensor *index,
                             fkc_tensor *out, int32_t slot_axis, fkc_buffer *status,
                             uint64_t status_offset)
{
    fkc_stream *s;
    if (!ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_set_rows_sync: context is NULL");
    fkc_status st = fkc_stream_take(ctx, &s);
    if (st != FKC_OK)
        return st;
    if ((st = fkc_stream_begin(s)) == FKC_OK) {
        st = fkc_set_rows(s, src, index, out, slot_axis, status, status_offset);
        if (st == FKC_OK)
            st = fkc_stream_submit(s);
    }
    fkc_stream_give(s);
    return st;
}

/* The wrappers of fkc_kernels.h that generated bindings of contracts/vulkan/set_rows.md point
 * to: each takes only its own [src, index, cache] dtypes (by byte width for the bit copies, by
 * dtype for the conversions) and the cache as the output, in place. sw/iw/cw: the byte widths
 * of a copy (sdt FKC_DTYPE_COUNT); sdt/idt/cdt: a conversion's dtypes. */
static fkc_status sr_wrapper(const char *name, fkc_stream *stream, const fkc_tensor *src,
                             const fkc_tensor *index, const fkc_tensor *cache, fkc_tensor *out,
                             const fkc_set_rows_params *params, const fkc_set_rows_extra *extra,
                             size_t sw, size_t iw, fkc_dtype sdt, fkc_dtype idt, fkc_dtype cdt)
{
    if (!src || !index || !cache || !out || !params)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: src, index, cache, out or params is NULL",
                        name);
    bool ok;
    if (sdt == FKC_DTYPE_COUNT) /* a bit copy of width sw, indices of width iw */
        ok = src->dtype == cache->dtype && fkc_dtype_size(src->dtype) == sw &&
             (iw == 4 ? index->dtype == FKC_DTYPE_I32 : index->dtype == FKC_DTYPE_I64);
    else
        ok = src->dtype == sdt && index->dtype == idt && cache->dtype == cdt;
    if (!ok)
        return fkc_fail(FKC_ERR_DTYPE,
                        "%s: [src, index, cache] is [%s, %s, %s], not this wrapper's", name,
                        dt_name(src->dtype), dt_name(index->dtype), dt_name(cache->dtype));
    bool same = cache->buffer == out->buffer && cache->offset == out->offset &&
                cache->dtype == out->dtype && cache->rank == out->rank &&
                cache->rank <= FKC_MAX_RANK;
    for (uint32_t k = 0; same && k < cache->rank; k++)
        same = cache->shape[k] == out->shape[k];
    if (!same)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: cache and out are different tensors (set_rows writes the cache in "
                        "place: pass the cache as both)",
                        name);
    return fkc_set_rows(stream, src, index, out, params->slot_axis, extra ? extra->status : NULL,
                        extra ? extra->status_offset : 0);
}

#define SR_BITS(SUFFIX, SW, IW)                                                                    \
    fkc_status fkc_set_rows_##SUFFIX(fkc_stream *stream, const fkc_tensor *src,                    \
                                     const fkc_tensor *index, const fkc_tensor *cache,             \
                                     fkc_tensor *out, const fkc_set_rows_params *params,           \
                                     const fkc_set_rows_extra *extra)                              \
    {                                                                                              \
        return sr_wrapper("fkc_set_rows_" #SUFFIX, stream, src, index, cache, out, params, extra,  \
                          SW, IW, FKC_DTYPE_COUNT, FKC_DTYPE_COUNT, FKC_DTYPE_COUNT);              \
    }
SR_BITS(b4, 4, 4)
SR_BITS(b4_b8_b4, 4, 8)
SR_BITS(b2_b4_b2, 2, 4)
SR_BITS(b2_b8_b2, 2, 8)
SR_BITS(b8_b4_b8, 8, 4)
SR_BITS(b8, 8, 8)
SR_BITS(b1_b4_b1, 1, 4)
SR_BITS(b1_b8_b1, 1, 8)

#define SR_CONV(KERNEL, S, I, C, SDT, IDT, CDT)                                                    \
    fkc_status fkc_##KERNEL##_##S##_##I##_##C(fkc_stream *stream, const fkc_tensor *src,           \
                                              const fkc_tensor *index, const fkc_tensor *cache,    \
                                              fkc_tensor *out, const fkc_set_rows_params *params,  \
                                              const fkc_set_rows_extra *extra)                     \
    {                                                                                              \
        return sr_wrapper("fkc_" #KERNEL "_" #S "_" #I "_" #C, stream, src, index, cache, out,     \
                          params, extra, 0, 0, SDT, IDT, CDT);                                     \
    }
SR_CONV(set_rows_narrow, f32, i32, f16, FKC_DTYPE_F32, FKC_DTYPE_I32, FKC_DTYPE_F16)
SR_CONV(set_rows_narrow, f32, i32, bf16, FKC_DTYPE_F32, FKC_DTYPE_I32, FKC_DTYPE_BF16)
SR_CONV(set_rows_narrow, f32, i64, f16, FKC_DTYPE_F32, FKC_DTYPE_I64, FKC_DTYPE_F16)
SR_CONV(set_rows_narrow, f32, i64, bf16, FKC_DTYPE_F32, FKC_DTYPE_I64, FKC_DTYPE_BF16)
SR_CONV(set_rows_widen, f16, i32, f32, FKC_DTYPE_F16, FKC_DTYPE_I32, FKC_DTYPE_F32)
SR_CONV(set_rows_widen, f16, i64, f32, FKC_DTYPE_F16, FKC_DTYPE_I64, FKC_DTYPE_F32)
SR_CONV(set_rows_widen, bf16, i32, f32, FKC_DTYPE_BF16, FKC_DTYPE_I32, FKC_DTYPE_F32)
SR_CONV(set_rows_widen, bf16, i64, f32, FKC_DTYPE_BF16, FKC_DTYPE_I64, FKC_DTYPE_F32)
