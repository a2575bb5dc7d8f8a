/* fused.c — the fused-write batcher, above stream.c: small aligned writes of an owned stream
 * are queued (fkc_stream_fuse) and recorded as one dispatch of fused.comp over a table of their
 * entries in the stream's table buffers (fkc_fused_flush), with the windows they read and write
 * bound once; a batch of one write is dispatched alone (slab.c). The stream's barrier flushes
 * the batch, its touch asks whether an access meets it (fkc_fused_hazard). */
#include "context.h"
#include "buffer.h"
#include "fused.h"
#include "stream.h"

#include <stdlib.h>
#include <string.h>

static void fused_flush(fkc_stream *s, bool keep);
static bool fused_hazard(const fkc_stream *s, const fkc_access *a);
static uint32_t fused_pending(const fkc_stream *s);
static void fused_reset(fkc_stream *s);
static void fused_release(fkc_stream *s);
static bool fused_advance(fkc_stream *s, VkBuffer buf, uint64_t lo, uint64_t at, uint64_t delta);
static const fkc_batcher fused_batcher;

/* Span in bytes of a fused write's source and destination (a ring dim at its capacity). */
static uint64_t fused_span(const fkc_fused *w, bool dst)
{
    uint64_t rows = dst && w->ring == 1 ? w->cap : w->rows;
    uint64_t planes = dst && w->ring == 2 ? w->cap : w->planes;
    uint64_t sr = dst ? w->d_row : w->s_row, sp = dst ? w->d_plane : w->s_plane;
    return ((planes - 1) * sp + (rows - 1) * sr + w->row_units) * 16;
}

/* The window of the batch (read or written) holding [lo, hi) of buf, widened or added, as long
 * as the widened window needs no barrier against what is tracked; -1 when none can. */
static int slot_for(fkc_stream *s, fkc_batch *b, VkBuffer buf, uint64_t lo, uint64_t hi, bool write)
{
    uint64_t a = s->ctx->offset_align;
    uint64_t lim = (s->ctx->storage_range - a - 16) & ~(uint64_t)15;
    uint32_t first = write ? FKC_FUSE_READ : 0, n = write ? b->n_write : b->n_read;
    uint32_t max = write ? FKC_FUSE_WRITE : FKC_FUSE_READ;
    lo = lo / a * a;
    hi = (hi + 15) & ~(uint64_t)15;
    for (uint32_t i = 0; i < n; i++) {
        fkc_slot *t = &b->slot[first + i];
        uint64_t l = lo < t->lo ? lo : t->lo, h = hi > t->hi ? hi : t->hi;
        if (t->buffer == buf && h - l <= lim && !fkc_stream_hazard(s, buf, l, h, write, false)) {
            t->lo = l;
            t->hi = h;
            return (int)i;
        }
    }
    if (n == max || hi - lo > lim || fkc_stream_hazard(s, buf, lo, hi, write, false))
        return -1;
    b->slot[first + n] = (fkc_slot){buf, lo, hi};
    if (write)
        b->n_write++;
    else
        b->n_read++;
    return (int)n;
}

/* Starts a batch: reserves its table space and (without push descriptors) its set. */
static fkc_status batch_start(fkc_stream *s, fkc_batch *b)
{
    fkc_status st = fkc_stream_table(s, 16, &b->table, &b->at); /* (16: its counter) */
    b->set = VK_NULL_HANDLE;
    b->adv = false;
    if (st == FKC_OK && !s->ctx->vk.vkCmdPushDescriptorSetKHR)
        st = fkc_stream_alloc_set(s, s->ctx->fused_set_layout, &b->set);
    b->n_read = b->n_write = 0;
    return st;
}

/* Tries to place w in the batch's windows; restores them when it does not fit. */
static bool batch_place(fkc_stream *s, fkc_batch *b, const fkc_fused *w, VkBuffer src, VkBuffer dst,
                        VkBuffer pos)
{
    fkc_slot saved[FKC_FUSE_READ + FKC_FUSE_WRITE];
    uint32_t nr = b->n_read, nw = b->n_write;
    memcpy(saved, b->slot, sizeof saved);
    fkc_fused e = *w;
    int ks = slot_for(s, b, src, w->src, w->src + fused_span(w, false), false);
    int kd = ks < 0 ? -1 : slot_for(s, b, dst, w->dst, w->dst + fused_span(w, true), true);
    int kp = !w->ring || kd < 0 ? 0 : slot_for(s, b, pos, w->pos, w->pos + 8, false);
    if (ks < 0 || kd < 0 || kp < 0) {
        memcpy(b->slot, saved, sizeof saved);
        b->n_read = nr, b->n_write = nw;
        return false;
    }
    e.slot[0] = (uint32_t)ks, e.slot[1] = (uint32_t)kd, e.slot[2] = (uint32_t)kp;
    b->w[b->n++] = e;
    return true;
}

bool fkc_stream_fuse(fkc_stream *s, const fkc_fused *w, const fkc_buffer *src,
                     const fkc_buffer *dst, const fkc_buffer *pos, fkc_status *st)
{
    *st = FKC_OK;
    uint64_t units = (uint64_t)w->row_units * w->rows * w->planes;
    if (!fkc_stream_fusing(s, units))
        return false;
    /* the kernel reads the position as a whole 16-byte unit: it must lie in the buffer */
    if (w->ring && ((w->pos + 8 + 15) & ~(uint64_t)15) > pos->base + pos->vk_size)
        return false;
    if (!s->batch && !(s->batch = calloc(1, sizeof *s->batch))) {
        *st = fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating the fused-write batch");
        return false;
    }
    s->batcher[FKC_BATCHER_FUSED] = &fused_batcher;
    if (fkc_stream_pending(
            s, FKC_BATCHER_SET_ROWS)) /* its windows and these must not meet unordered */
        fkc_stream_barrier(s);
    fkc_batch *b = s->batch;
    fkc_access ex[3] = {{src->buffer, w->src, w->src + fused_span(w, false), false, true},
                        {dst->buffer, w->dst, w->dst + fused_span(w, true), true, true},
                        {pos ? pos->buffer : VK_NULL_HANDLE, w->pos, w->pos + 8, false, true}};
    uint32_t nex = w->ring ? 3 : 2;
    /* a write that depends on one of the batch's (or on a recorded command) waits */
    bool wait = s->n_track + nex + FKC_FUSE_READ + FKC_FUSE_WRITE > FKC_TRACK_MAX;
    for (uint32_t i = 0; i < nex && !wait; i++)
        wait = fkc_stream_hazard(s, ex[i].buffer, ex[i].lo, ex[i].hi, ex[i].write, true) ||
               fkc_stream_hazard(s, ex[i].buffer, ex[i].lo, ex[i].hi, ex[i].write, false);
    if (wait)
        fkc_stream_barrier(s);
    uint64_t lim = s->ctx->group_limit, groups = (units + FKC_LOCAL_SIZE - 1) / FKC_LOCAL_SIZE;
    if (groups > lim * lim)
        return false;
    for (int pass = 0; pass < 3; pass++) {
        if (b->n == FKC_FUSE_MAX || b->groups + groups > lim * lim)
            fused_flush(s, true);
        if (b->n == 0 && (*st = batch_start(s, b)) != FKC_OK)
            return false;
        if (batch_place(s, b, w, src->buffer, dst->buffer, pos ? pos->buffer : VK_NULL_HANDLE)) {
            for (uint32_t i = 0; i < nex; i++)
                fkc_stream_track(s, &ex[i]);
            b->groups += groups;
            s->items++;
            return true;
        }
        /* no room for its windows, or they would cover what a recorded command touches */
        if (b->n)
            fused_flush(s, true);
        else
            fkc_stream_barrier(s);
    }
    return false; /* cannot happen: alone after a barrier, a write fitting the window fits */
}

/* The batch's table entries into t (fused_table.h's layout); returns its work groups. */
static uint32_t fused_entries(const fkc_batch *b, uint32_t *t)
{
    uint32_t group = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        const fkc_fused *w = &b->w[i];
        uint32_t *e = &t[i * FKC_FUSE_WORDS];
        uint32_t units = w->row_units * w->rows * w->planes;
        memset(e, 0, FKC_FUSE_WORDS * 4);
        e[FUSED_GROUP] = group;
        e[FUSED_UNITS] = units;
        e[FUSED_SLOTS] = w->slot[0] | w->slot[1] << 4 | w->slot[2] << 8;
        e[FUSED_SRC] = (uint32_t)((w->src - b->slot[w->slot[0]].lo) / 16);
        e[FUSED_DST] = (uint32_t)((w->dst - b->slot[FKC_FUSE_READ + w->slot[1]].lo) / 16);
        e[FUSED_ROW_UNITS] = w->row_units, e[FUSED_ROWS] = w->rows;
        e[FUSED_S_ROW] = w->s_row, e[FUSED_D_ROW] = w->d_row;
        e[FUSED_S_PLANE] = w->s_plane, e[FUSED_D_PLANE] = w->d_plane;
        e[FUSED_RING] = w->ring, e[FUSED_CAP] = w->cap, e[FUSED_SKIP] = w->skip;
        e[FUSED_POS] = w->ring ? (uint32_t)(w->pos - b->slot[w->slot[2]].lo) : 0;
        if ((w->row_units & (w->row_units - 1)) == 0) /* a power of two: the shader shifts */
            e[FUSED_SHIFT] = 1 + (uint32_t)__builtin_ctz(w->row_units);
        group += (units + FKC_LOCAL_SIZE - 1) / FKC_LOCAL_SIZE;
    }
    return group;
}

/* The group map after the n entries of t (at most FKC_FUSE_MAP_GROUPS groups): a byte per
 * work group, its write's index, padded to a word. Its bytes. */
static uint64_t fused_map(const fkc_batch *b, uint32_t *t, uint32_t groups)
{
    unsigned char *m = (unsigned char *)&t[b->n * FKC_FUSE_WORDS];
    for (uint32_t i = 0; i < b->n; i++) {
        uint32_t first = t[i * FKC_FUSE_WORDS + FUSED_GROUP];
        uint32_t end = i + 1 < b->n ? t[(i + 1) * FKC_FUSE_WORDS + FUSED_GROUP] : groups;
        memset(m + first, (int)i, end - first);
    }
    memset(m + groups, 0, (4 - groups % 4) % 4);
    return (groups + 3) / 4 * 4;
}

/* Tracks the windows the recorded dispatch bound (and the advanced position's), as no barrier
 * follows. */
static void fused_track(fkc_stream *s, const fkc_batch *b)
{
    for (uint32_t i = 0; i < FKC_FUSE_READ + FKC_FUSE_WRITE; i++) {
        bool write = i >= FKC_FUSE_READ;
        if ((write ? i - FKC_FUSE_READ : i) < (write ? b->n_write : b->n_read)) {
            fkc_access a = {b->slot[i].buffer, b->slot[i].lo, b->slot[i].hi, write, false};
            fkc_stream_track(s, &a);
        }
    }
    if (b->adv) { /* (room: fused_advance checked it) */
        fkc_access a = {b->adv_buf, b->adv_lo, b->adv_at + 8, true, false};
        fkc_stream_track(s, &a);
    }
}

/* Records the pending fused writes as one dispatch: the table (vkCmdUpdateBuffer into the
 * stream's table buffer), then the dispatch. keep: the windows it binds stay tracked (no
 * barrier follows); the pending writes' exact ranges are dropped either way. */
static void fused_flush(fkc_stream *s, bool keep)
{
    fkc_batch *b = s->batch;
    if (!b || !b->n)
        return;
    fkc_context *ctx = s->ctx;
    const fkc_vk *vk = &ctx->vk;
    uint32_t kept = 0; /* the pending writes' exact ranges go; the windows stay (keep) */
    for (uint32_t i = 0; i < s->n_track; i++)
        if (!s->track[i].pending)
            s->track[kept++] = s->track[i];
    s->n_track = kept;
    if (b->n == 1 && !b->adv) { /* one write: its own kernel, without the table and update */
        b->n = 0;
        b->groups = 0;
        b->w[0].alone(s, &b->w[0]); /* tracks its windows itself */
        return;
    }
    uint32_t t[FKC_FUSE_MAX * FKC_FUSE_WORDS + FKC_FUSE_MAP_GROUPS / 4];
    uint32_t group = fused_entries(b, t);
    uint32_t map = group <= FKC_FUSE_MAP_GROUPS ? group : 0; /* a byte per group: its write */
    uint64_t bytes = (uint64_t)b->n * FKC_FUSE_WORDS * 4 + (map ? fused_map(b, t, group) : 0);
    uint64_t coff = b->at + FKC_FUSE_COUNTER; /* the advance's counter */
    if (b->adv && b->table->map) { /* 0 at the start; the dispatch leaves it 0 for a replay */
        memset(b->table->map + coff, 0, 4);
    } else if (b->adv) {
        static const uint32_t zero[4];
        vk->vkCmdUpdateBuffer(s->cmd, b->table->buffer, coff, sizeof zero, zero);
        s->commands++;
    }
    /* (with an advance the dispatch also writes the counter the update may have written) */
    fkc_stream_write_table(s, b->table, b->at, t, bytes, b->adv ? VK_ACCESS_SHADER_WRITE_BIT : 0);
    enum { NB = 1 + FKC_FUSE_READ + FKC_FUSE_WRITE };
    VkDescriptorBufferInfo bi[NB + 2];
    uint32_t nb = fkc_table_windows(bi, (VkDescriptorBufferInfo){b->table->buffer, b->at, bytes},
                                    b->slot, b->n_read, FKC_FUSE_READ, b->n_write, FKC_FUSE_WRITE);
    if (b->adv) { /* its counter, and the position's window (bound [adv_lo, adv_at + 8)) */
        bi[nb++] = (VkDescriptorBufferInfo){b->table->buffer, coff, 16};
        bi[nb++] = (VkDescriptorBufferInfo){b->adv_buf, b->adv_lo, b->adv_at + 8 - b->adv_lo};
    }
    /* (pushed, always, with an advance: ctx->fused_advance) */
    VkPipelineLayout layout = b->adv ? ctx->fused_advance_layout : ctx->fused_layout;
    fkc_stream_bind_set(s, ctx->pipelines[b->adv ? KERNEL_FUSED_ADVANCE : KERNEL_FUSED], layout,
                        b->set, nb, bi);
    uint32_t push[5] = {b->n, map, (uint32_t)((b->adv_at - b->adv_lo) / 4), (uint32_t)b->adv_delta,
                        (uint32_t)(b->adv_delta >> 32)};
    vk->vkCmdPushConstants(s->cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, b->adv ? 20 : 8, push);
    uint32_t lim = ctx->group_limit, gx = group < lim ? group : lim;
    vk->vkCmdDispatch(s->cmd, gx, (group + gx - 1) / gx, 1);
    s->commands++;
    b->n = 0;
    b->groups = 0;
    if (keep)
        fused_track(s, b);
    b->adv = false;
}

/* fkc_stream_advance of the u64 at byte `at` of buf (bound from `lo`) as part of the pending
 * fused dispatch: the dispatch's last work group advances it once every group is done with it
 * (fused.comp, ADVANCE), and the dispatch is recorded now, so no later write joins it. Only
 * where that is the same as an advance recorded after the dispatch: no pending fused write
 * writes the position's bytes, and nothing recorded since the last barrier touches its window
 * (else the advance needs a barrier of its own, and is recorded as its own dispatch). */
static bool fused_advance(fkc_stream *s, VkBuffer buf, uint64_t lo, uint64_t at, uint64_t delta)
{
    fkc_batch *b = s->batch;
    if (!s->ctx->fused_advance || !b || !b->n || fkc_stream_pending(s, FKC_BATCHER_SET_ROWS) ||
        s->n_track + FKC_FUSE_READ + FKC_FUSE_WRITE + 1 > FKC_TRACK_MAX ||
        fkc_stream_hazard(s, buf, lo, at + 8, true, false))
        return false;
    for (uint32_t i = 0; i < s->n_track; i++) {
        const fkc_access *t = &s->track[i];
        if (t->pending && t->write && t->buffer == buf && t->lo < at + 8 && at < t->hi)
            return false;
    }
    b->adv = true;
    b->adv_buf = buf;
    b->adv_lo = lo;
    b->adv_at = at;
    b->adv_delta = delta;
    fused_flush(s, true);
    return true;
}

/* Whether access a must wait for the pending fused dispatch: it will bind whole windows,
 * which is what the validation layer sees it touch. */
static bool fused_hazard(const fkc_stream *s, const fkc_access *a)
{
    const fkc_batch *b = s->batch;
    if (!b || !b->n)
        return false;
    for (uint32_t i = 0; i < b->n_read + b->n_write; i++) {
        uint32_t k = i < b->n_read ? i : FKC_FUSE_READ + i - b->n_read;
        fkc_access t = {b->slot[k].buffer, b->slot[k].lo, b->slot[k].hi, k >= FKC_FUSE_READ, false};
        if (fkc_access_conflict(&t, a->buffer, a->lo, a->hi, a->write))
            return true;
    }
    return false;
}

static uint32_t fused_pending(const fkc_stream *s)
{
    const fkc_batch *b = s->batch; /* its dispatch (and table update) */
    return !b || !b->n ? 0 : b->n == 1 || b->table->map ? 1 : 2;
}

static void fused_reset(fkc_stream *s)
{
    if (s->batch)
        s->batch->n = 0, s->batch->groups = 0;
}

static void fused_release(fkc_stream *s)
{
    free(s->batch);
    s->batch = NULL;
}

static const fkc_batcher fused_batcher = {fused_flush, fused_hazard,  fused_pending,
                                          fused_reset, fused_release, fused_advance};
