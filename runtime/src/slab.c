/* slab.c — records one planned box copy (fkc_box) on the device. The box is first coalesced
 * into byte rows (axes contiguous in both tensors merge, so most boxes become one 2-D copy);
 * each 3-D piece then goes either through vkCmdCopyBuffer regions or a compute kernel: 16-byte
 * units when everything is 16-byte aligned, else the word-granular kernel that owns aligned
 * 16-byte destination units (any alignment, no 8/16-bit storage). Pieces wider than the storage
 * range are split, grids beyond the work-group limit are walked: large work is never refused.
 * A ring write with its position on the device (fkc_record_ring) keeps the rotating axis as its
 * own dimension; the kernel reads the position and splits the write itself. Each command
 * declares the windows it binds (fkc_stream_touch), which decides the barriers; a small aligned
 * piece joins the stream's fused dispatch instead (fkc_stream_fuse). */
#include "context.h"
#include "buffer.h"
#include "fused.h"
#include "pipeline.h"
#include "slab.h"
#include "stream.h"

#include <string.h>

/* A box in bytes: a contiguous row, then up to FKC_MAX_RANK - 1 outer dims (innermost first). */
typedef struct job {
    uint64_t src, dst;              /* byte offset of the first byte in each VkBuffer */
    uint64_t row;                   /* bytes per row, contiguous in both */
    uint32_t n;                     /* outer dims */
    uint64_t count[FKC_MAX_RANK];   /* extent of each outer dim */
    uint64_t sstride[FKC_MAX_RANK]; /* source byte stride of each outer dim */
    uint64_t dstride[FKC_MAX_RANK]; /* destination byte stride of each outer dim */
    int32_t ring;                   /* outer dim of the rotating axis, or -1 */
} job;

/* One piece the device copies in one go: planes x rows x row bytes. */
typedef struct piece {
    uint64_t src, dst, row; /* src, dst: offsets in the VkBuffers (bases added) */
    uint64_t rows, s_row, d_row;
    uint64_t planes, s_plane, d_plane;
    uint32_t ring;         /* 0; 1: ring along rows; 2: along planes; | 4: B */
    uint64_t cap, skip;    /* ring capacity, skipped source rows mod cap */
    const fkc_buffer *pos; /* ring position buffer and the position's offset in */
    uint64_t pos_off;      /* its VkBuffer (the base added) */
} piece;

/* Must match the Push block of runtime/shaders/copy*.comp. */
struct push {
    uint32_t base, count, row_units, rows, src_off, dst_off;
    uint32_t s_row, s_plane, d_row, d_plane, slots, planes;
    uint32_t grid, row_base, plane_base, ring;
    uint32_t cap, skip, pos_off, pad;
};

/* Builds the coalesced byte job of a box; false when the box is empty. */
static bool coalesce(const fkc_tensor *src, const fkc_tensor *out, const fkc_box *box, size_t e,
                     int32_t keep, job *j)
{
    uint32_t r = box->rank;
    uint64_t ss = e, ds = e; /* byte strides of axis i, built innermost first */
    memset(j, 0, sizeof *j);
    j->src = src->buffer->base + src->offset; /* offsets in the VkBuffers from here on */
    j->dst = out->buffer->base + out->offset;
    j->ring = -1;
    for (uint32_t i = 0; i < r; i++)
        if (box->extent[i] == 0)
            return false;
    for (uint32_t k = r; k-- > 0;) {
        uint64_t n = box->extent[k];
        j->src += (uint64_t)box->src_origin[k] * ss;
        j->dst += (uint64_t)box->dst_origin[k] * ds;
        if ((int32_t)k == keep) { /* the rotating axis: its own dim, nothing merges into it */
            if (k == r - 1)
                j->row = e;
            j->count[j->n] = n;
            j->sstride[j->n] = ss;
            j->dstride[j->n] = ds;
            j->ring = (int32_t)j->n++;
        } else if (k == r - 1) {
            j->row = n * e;
        } else if (n > 1) {
            bool ring_last = j->n > 0 && j->ring == (int32_t)j->n - 1;
            bool merge = j->n == 0 ? (j->row == ss && j->row == ds)
                                   : (j->sstride[j->n - 1] * j->count[j->n - 1] == ss &&
                                      j->dstride[j->n - 1] * j->count[j->n - 1] == ds);
            if (ring_last)
                merge = false;
            if (merge && j->n == 0)
                j->row *= n;
            else if (merge)
                j->count[j->n - 1] *= n;
            else {
                j->count[j->n] = n;
                j->sstride[j->n] = ss;
                j->dstride[j->n] = ds;
                j->n++;
            }
        }
        ss *= src->shape[k];
        ds *= out->shape[k];
    }
    return true;
}

static uint64_t span_src(const piece *p)
{
    return (p->planes - 1) * p->s_plane + (p->rows - 1) * p->s_row + p->row;
}

/* The destination span; a ring dim spans its whole capacity (the start is known on the
 * device only), for piece B (ring | 4) as for piece A. */
static uint64_t span_dst(const piece *p)
{
    uint64_t rows = (p->ring & 3) == 1 ? p->cap : p->rows;
    uint64_t planes = (p->ring & 3) == 2 ? p->cap : p->planes;
    return (planes - 1) * p->d_plane + (rows - 1) * p->d_row + p->row;
}

/* The largest power of two (<= 16) dividing every offset and stride the piece uses. */
static uint32_t alignment(const piece *p)
{
    uint64_t bits = p->src | p->dst | p->row | 16;
    if (p->rows > 1 || p->ring == 1)
        bits |= p->s_row | p->d_row;
    if (p->planes > 1 || p->ring == 2)
        bits |= p->s_plane | p->d_plane;
    return (uint32_t)(bits & (~bits + 1));
}

static void record_regions(fkc_stream *s, VkBuffer from, VkBuffer to, const piece *p)
{
    VkBufferCopy regions[FKC_REGION_BATCH];
    uint32_t n = 0;
    fkc_access a[2] = {{from, p->src, p->src + span_src(p), false, false},
                       {to, p->dst, p->dst + span_dst(p), true, false}};
    fkc_stream_touch(s, 2, a);
    for (uint64_t pl = 0; pl < p->planes; pl++) {
        for (uint64_t r = 0; r < p->rows; r++) {
            regions[n].srcOffset = p->src + pl * p->s_plane + r * p->s_row;
            regions[n].dstOffset = p->dst + pl * p->d_plane + r * p->d_row;
            regions[n].size = p->row;
            if (++n == FKC_REGION_BATCH) {
                s->ctx->vk.vkCmdCopyBuffer(s->cmd, from, to, n, regions);
                s->commands++;
                n = 0;
            }
        }
    }
    if (n) {
        s->ctx->vk.vkCmdCopyBuffer(s->cmd, from, to, n, regions);
        s->commands++;
    }
    s->items++;
}

static void push_and_dispatch(fkc_stream *s, const struct push *pc, uint64_t gx, uint64_t gy,
                              uint64_t gz)
{
    s->ctx->vk.vkCmdPushConstants(s->cmd, s->ctx->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                  sizeof *pc, pc);
    s->ctx->vk.vkCmdDispatch(s->cmd, (uint32_t)gx, (uint32_t)gy, (uint32_t)gz);
    s->commands++;
    s->items++;
}

/* Flat mode: one index over the whole piece, in 2-D grids of at most limit x limit groups. */
static void flat_walk(fkc_stream *s, struct push *pc, uint64_t total)
{
    uint64_t lim = s->ctx->group_limit;
    uint64_t per = lim * lim; /* groups one 2-D dispatch may have */
    if (per > (1u << 22))
        per = 1u << 22; /* keeps base + index below 2^31 invocations */
    for (uint64_t done = 0; done < total;) {
        uint64_t cnt = total - done;
        if (cnt > per * FKC_LOCAL_SIZE)
            cnt = per * FKC_LOCAL_SIZE;
        uint64_t groups = (cnt + FKC_LOCAL_SIZE - 1) / FKC_LOCAL_SIZE;
        uint64_t gx = groups < lim ? groups : lim, gy = (groups + gx - 1) / gx;
        pc->base = (uint32_t)done;
        pc->count = (uint32_t)cnt;
        push_and_dispatch(s, pc, gx, gy, 1);
        done += cnt;
    }
}

/* Grid mode for long rows: x = columns, y = rows, z = planes, each walked in chunks of the
 * work-group limit; no division in the shader. */
static void grid_walk(fkc_stream *s, struct push *pc)
{
    uint64_t lim = s->ctx->group_limit;
    uint64_t cols = (pc->slots + FKC_LOCAL_SIZE - 1) / FKC_LOCAL_SIZE;
    pc->grid = 1;
    for (uint64_t z = 0; z < pc->planes; z += lim)
        for (uint64_t y = 0; y < pc->rows; y += lim)
            for (uint64_t x = 0; x < cols; x += lim) {
                pc->base = (uint32_t)(x * FKC_LOCAL_SIZE);
                pc->row_base = (uint32_t)y;
                pc->plane_base = (uint32_t)z;
                push_and_dispatch(s, pc, cols - x < lim ? cols - x : lim,
                                  pc->rows - y < lim ? pc->rows - y : lim,
                                  pc->planes - z < lim ? pc->planes - z : lim);
            }
}

/* Binds a kernel and the piece's windows. Always binds: a stream does not know what other
 * code bound on it since (the host's commands, a user kernel), so skipping a rebind could run
 * the wrong kernel. */
static fkc_status bind(fkc_stream *s, VkPipeline pipe, uint32_t nb,
                       const VkDescriptorBufferInfo *bi)
{
    return fkc_stream_bind(s, pipe, s->ctx->pipeline_layout, s->ctx->set_layout, nb, bi);
}

/* Records one queued fused write as its own copy_u128 / ring_u128 dispatch (a batch of one:
 * no table to update); the batcher calls it through fkc_fused.alone. */
static void record_alone(fkc_stream *s, const fkc_fused *w);

/* The windows one piece binds (bi: source, destination and, for a ring, its position; returns
 * how many) and the push constants of kernel k over them. */
static uint32_t windows(const fkc_stream *s, const fkc_buffer *from, const fkc_buffer *to,
                        const piece *p, kernel_id k, VkDescriptorBufferInfo bi[3], struct push *out)
{
    bool wide = k == KERNEL_WIDE || k == KERNEL_WIDE_SHORT || k == KERNEL_RING_WIDE;
    uint32_t unit = wide ? 1 : 16;
    uint64_t a = s->ctx->offset_align;
    uint64_t sb = p->src / a * a, db = p->dst / a * a;
    /* Windows cover whole 16-byte units (buffers are allocated in multiples of 16). */
    uint64_t ssz = (p->src - sb + span_src(p) + 15) & ~(uint64_t)15;
    uint64_t dsz = (p->dst - db + span_dst(p) + 15) & ~(uint64_t)15;
    bi[0] = (VkDescriptorBufferInfo){from->buffer, sb, ssz};
    bi[1] = (VkDescriptorBufferInfo){to->buffer, db, dsz};
    bi[2] = (VkDescriptorBufferInfo){0};
    struct push pc = {.row_units = (uint32_t)(p->row / unit),
                      .rows = (uint32_t)p->rows,
                      .src_off = (uint32_t)((p->src - sb) / unit),
                      .dst_off = (uint32_t)((p->dst - db) / unit),
                      .s_row = p->rows > 1 || p->ring == 1 ? (uint32_t)(p->s_row / unit) : 0,
                      .s_plane = p->planes > 1 || p->ring == 2 ? (uint32_t)(p->s_plane / unit) : 0,
                      .d_row = p->rows > 1 || p->ring == 1 ? (uint32_t)(p->d_row / unit) : 0,
                      .d_plane = p->planes > 1 || p->ring == 2 ? (uint32_t)(p->d_plane / unit) : 0,
                      .planes = (uint32_t)p->planes};
    /* Slots per row: long rows (grid mode) one per unit the row can touch at any alignment;
     * short rows its length in 16-byte units, rounded up (the last slot takes the one more
     * unit a misaligned row can touch: fewer idle invocations when rows are a unit or two). */
    pc.slots = wide ? (uint32_t)((p->row + 30) / 16) : pc.row_units;
    if (wide && pc.slots < FKC_GRID_MIN_UNITS)
        pc.slots = (uint32_t)((p->row + 15) / 16);
    if (k == KERNEL_WIDE_SHORT)
        pc.slots = 1; /* one invocation per row */
    *out = pc;
    if (!p->ring)
        return 2;
    uint64_t pb = p->pos_off / a * a;
    uint64_t end = p->pos->base + p->pos->vk_size; /* the window stays inside the buffer */
    bi[2] = (VkDescriptorBufferInfo){p->pos->buffer, pb, (p->pos_off - pb + 8 + 7) & ~7ull};
    if (bi[2].offset + bi[2].range > end)
        bi[2].range = end - bi[2].offset;
    out->ring = p->ring;
    out->cap = (uint32_t)p->cap;
    out->skip = (uint32_t)p->skip;
    out->pos_off = (uint32_t)(p->pos_off - pb);
    return 3;
}

/* Queues a piece of 16-byte units into the stream's fused dispatch: true when it joined (or
 * failed, *st set), false when the caller dispatches it. */
static bool fuse(fkc_stream *s, const fkc_buffer *from, const fkc_buffer *to, const piece *p,
                 const struct push *pc, fkc_status *st)
{
    fkc_fused w = {.src = p->src,
                   .dst = p->dst,
                   .pos = p->pos_off,
                   .row_units = pc->row_units,
                   .rows = pc->rows,
                   .planes = pc->planes,
                   .s_row = pc->s_row,
                   .d_row = pc->d_row,
                   .s_plane = pc->s_plane,
                   .d_plane = pc->d_plane,
                   .ring = p->ring,
                   .cap = pc->cap,
                   .skip = pc->skip,
                   .bsrc = from,
                   .bdst = to,
                   .bpos = p->ring ? p->pos : NULL,
                   .alone = record_alone};
    return fkc_stream_fuse(s, &w, from, to, p->ring ? p->pos : NULL, st) || *st != FKC_OK;
}

/* Records the dispatches of one piece that fits the storage range: binds the windows (and the
 * ring position), then walks the grid in chunks the work-group limit allows. */
static fkc_status dispatch(fkc_stream *s, const fkc_buffer *from, const fkc_buffer *to,
                           const piece *p, kernel_id k)
{
    fkc_context *ctx = s->ctx;
    fkc_status st = FKC_OK;
    VkDescriptorBufferInfo bi[3];
    struct push pc;
    uint32_t nb = windows(s, from, to, p, k, bi, &pc);
    bool wide = k == KERNEL_WIDE || k == KERNEL_WIDE_SHORT || k == KERNEL_RING_WIDE;
    if (!wide && fuse(s, from, to, p, &pc, &st)) /* a small one joins the fused dispatch */
        return st;
    /* What the dispatch binds is what it touches (the validation layer sees the windows);
     * a unit-owning (wide) kernel also reads and rewrites the destination's edge units. */
    fkc_access acc[3] = {{bi[0].buffer, bi[0].offset, bi[0].offset + bi[0].range, false, false},
                         {bi[1].buffer, bi[1].offset, bi[1].offset + bi[1].range, true, false},
                         {p->ring ? bi[2].buffer : VK_NULL_HANDLE, bi[2].offset,
                          bi[2].offset + bi[2].range, false, false}};
    fkc_stream_touch(s, nb, acc);
    if (k == KERNEL_WIDE && pc.slots >= FKC_GRID_MIN_UNITS &&
        p->planes * p->rows * p->row >= FKC_SPLIT_MIN_BYTES) {
        /* Big pieces of long rows: the edge units (two slots per row), then the units inside
         * rows with a kernel free of the edge code (its presence costs ~7% of the bandwidth,
         * the second dispatch ~1-2 µs: worth it from a few MiB). No barrier between: a unit is either inside one row or an
         * edge unit, so the two dispatches read and write disjoint units. */
        struct push ep = pc; /* the edges first: their few latency-bound groups then overlap
                              * the bulk instead of trailing it */
        ep.slots = 2;
        if ((st = bind(s, fkc_pipeline_get(ctx, KERNEL_WIDE_EDGE), nb, bi)) != FKC_OK)
            return st;
        flat_walk(s, &ep, p->planes * p->rows * 2);
        if ((st = bind(s, fkc_pipeline_get(ctx, KERNEL_WIDE_IN), nb, bi)) != FKC_OK)
            return st;
        grid_walk(s, &pc);
    } else {
        if ((st = bind(s, fkc_pipeline_get(ctx, k), nb, bi)) != FKC_OK)
            return st;
        if (pc.slots >= FKC_GRID_MIN_UNITS)
            grid_walk(s, &pc);
        else
            flat_walk(s, &pc, p->planes * p->rows * pc.slots);
    }
    return FKC_OK;
}

/* Whether both spans of the piece (a ring dim at its whole capacity) fit the window `lim`. */
static bool fits(const piece *p, uint64_t lim)
{
    return span_src(p) <= lim && span_dst(p) <= lim;
}

/* Splits a piece until both spans fit the usable window, then dispatches each part: planes
 * first, then rows, then a single long row in 16-byte-multiple chunks (alignment is kept).
 * A ring dim is never split (the kernel splits it at the ring end). */
static fkc_status fit(fkc_stream *s, const fkc_buffer *from, const fkc_buffer *to, const piece *p,
                      kernel_id k)
{
    uint64_t lim = (s->ctx->storage_range - s->ctx->offset_align - 16) & ~(uint64_t)15;
    if (fits(p, lim))
        return dispatch(s, from, to, p, k);
    piece q = *p;
    fkc_status st = FKC_OK;
    bool split_planes = p->planes > 1 && (p->ring & 3) != 2;
    bool split_rows = p->rows > 1 && (p->ring & 3) != 1;
    if (split_planes || split_rows) {
        bool by_plane = split_planes;
        uint64_t n = by_plane ? p->planes : p->rows;
        uint64_t ss = by_plane ? p->s_plane : p->s_row, ds = by_plane ? p->d_plane : p->d_row;
        if (by_plane) /* the span of one step: one plane, or one row */
            q.planes = 1;
        else
            q.rows = 1;
        uint64_t in_s = span_src(&q), in_d = span_dst(&q), per = 1;
        if (in_s <= lim && in_d <= lim) {
            uint64_t ks = (lim - in_s) / ss + 1, kd = (lim - in_d) / ds + 1;
            per = ks < kd ? ks : kd;
        }
        for (uint64_t i = 0; i < n && st == FKC_OK; i += per) {
            q.src = p->src + i * ss;
            q.dst = p->dst + i * ds;
            if (by_plane)
                q.planes = n - i < per ? n - i : per;
            else
                q.rows = n - i < per ? n - i : per;
            st = fit(s, from, to, &q, k);
        }
        return st;
    }
    /* One long row (or a ring of short ones): columns in 16-byte-multiple chunks. */
    q.row = 16;
    uint64_t over = span_dst(&q) > span_src(&q) ? span_dst(&q) : span_src(&q);
    uint64_t chunk = (lim - (over - 16)) & ~(uint64_t)15;
    for (uint64_t off = 0; off < p->row && st == FKC_OK; off += chunk) {
        q.src = p->src + off;
        q.dst = p->dst + off;
        q.row = p->row - off < chunk ? p->row - off : chunk;
        st = fit(s, from, to, &q, k);
    }
    return st;
}

/* Chooses copy regions or a kernel for one piece and records it. */
static fkc_status record_piece(fkc_stream *s, const fkc_buffer *from, const fkc_buffer *to,
                               const piece *p)
{
    fkc_context *ctx = s->ctx;
    bool aligned = alignment(p) >= 16;
    if (p->ring && aligned) /* one dispatch; the kernel reads the position and wraps */
        return fit(s, from, to, p, KERNEL_RING_U128);
    if (p->ring) { /* piece A then piece B (after a barrier: order_before) */
        piece b = *p;
        b.ring |= 4;
        fkc_status st = fit(s, from, to, p, KERNEL_RING_WIDE);
        return st != FKC_OK ? st : fit(s, from, to, &b, KERNEL_RING_WIDE);
    }
    /* AUTO's copy regions for long rows (CPU devices), but not for a small aligned write the
     * stream fuses: one dispatch for many writes beats a copy call each */
    bool fused = aligned && fkc_stream_fusing(s, p->planes * p->rows * p->row / 16);
    if (ctx->copy_path == FKC_COPY_TRANSFER ||
        (ctx->prefer_transfer && p->row >= FKC_TRANSFER_MIN_ROW && !fused)) {
        record_regions(s, from->buffer, to->buffer, p);
        return FKC_OK;
    }
    /* misaligned short rows: one invocation per row (FKC_CONTEXT_NO_SHORT_RUNS: the general
     * kernel, to measure it beside) */
    bool short_rows = p->row <= FKC_SHORT_MAX_ROW && !(ctx->flags & FKC_CONTEXT_NO_SHORT_RUNS);
    return fit(s, from, to, p,
               aligned      ? KERNEL_U128
               : short_rows ? KERNEL_WIDE_SHORT
                            : KERNEL_WIDE);
}

/* Records every piece of a coalesced job: the piece takes dims 0 and 1 (the ring's dim
 * instead of dim 1 when the ring is further out); the other dims are walked on the host. */
static fkc_status record_job(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                             const job *j, piece p)
{
    uint32_t second = j->ring >= 2 ? (uint32_t)j->ring : 1;
    uint64_t idx[FKC_MAX_RANK] = {0};
    p.row = j->row;
    p.rows = p.planes = 1;
    if (j->n > 0) {
        p.rows = j->count[0];
        p.s_row = j->sstride[0];
        p.d_row = j->dstride[0];
    }
    if (j->n > second) {
        p.planes = j->count[second];
        p.s_plane = j->sstride[second];
        p.d_plane = j->dstride[second];
    }
    p.ring = j->ring < 0 ? 0 : j->ring == 0 ? 1 : 2;
    for (;;) {
        p.src = j->src;
        p.dst = j->dst;
        for (uint32_t d = 1; d < j->n; d++) {
            if (d == second)
                continue;
            p.src += idx[d] * j->sstride[d];
            p.dst += idx[d] * j->dstride[d];
        }
        fkc_status st = record_piece(s, src->buffer, out->buffer, &p);
        if (st != FKC_OK)
            return st;
        uint32_t d = 1;
        for (; d < j->n; d++) {
            if (d == second)
                continue;
            if (++idx[d] < j->count[d])
                break;
            idx[d] = 0;
        }
        if (d >= j->n)
            return FKC_OK;
    }
}

fkc_status fkc_record_box(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                          const fkc_box *box, size_t elem_size)
{
    job j;
    if (!coalesce(src, out, box, elem_size, -1, &j))
        return FKC_OK;
    return record_job(s, src, out, &j, (piece){0});
}

/* Whether the splitter can take a ring job: capacity below 2^31 (32-bit ring arithmetic in the
 * shader) and one 16-byte column of the whole ring fitting a storage window. */
static bool ring_fits(const fkc_stream *s, const job *j, uint64_t cap)
{
    uint64_t lim = (s->ctx->storage_range - s->ctx->offset_align - 16) & ~(uint64_t)15;
    uint64_t ss = j->sstride[j->ring], ds = j->dstride[j->ring];
    return cap <= (1u << 31) && (cap - 1) * ds + 32 <= lim &&
           (j->count[j->ring] - 1) * ss + 32 <= lim;
}

fkc_status fkc_record_ring(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                           const fkc_box *box, size_t elem_size, uint32_t axis, uint64_t cap,
                           uint64_t skip, const fkc_buffer *pos, uint64_t pos_off)
{
    job j;
    if (s->ctx->flags & FKC_CONTEXT_RING_READBACK)
        return FKC_ERR_UNSUPPORTED;
    if (!coalesce(src, out, box, elem_size, (int32_t)axis, &j))
        return FKC_OK;
    if (!ring_fits(s, &j, cap))
        return FKC_ERR_UNSUPPORTED;
    piece p = {.cap = cap, .skip = skip % cap, .pos = pos, .pos_off = pos->base + pos_off};
    return record_job(s, src, out, &j, p);
}

static void record_alone(fkc_stream *s, const fkc_fused *w)
{
    piece p = {.src = w->src,
               .dst = w->dst,
               .row = (uint64_t)w->row_units * 16,
               .rows = w->rows,
               .s_row = (uint64_t)w->s_row * 16,
               .d_row = (uint64_t)w->d_row * 16,
               .planes = w->planes,
               .s_plane = (uint64_t)w->s_plane * 16,
               .d_plane = (uint64_t)w->d_plane * 16,
               .ring = w->ring,
               .cap = w->cap,
               .skip = w->skip,
               .pos = w->bpos,
               .pos_off = w->pos};
    if (!w->ring && s->ctx->prefer_transfer && p.row >= FKC_TRANSFER_MIN_ROW) {
        record_regions(s, w->bsrc->buffer, w->bdst->buffer, &p); /* AUTO's choice when alone */
        return;
    }
    bool fuse = s->no_fusion;
    s->no_fusion = true; /* (it was queued: the dispatch must not queue it again) */
    if (dispatch(s, w->bsrc, w->bdst, &p, w->ring ? KERNEL_RING_U128 : KERNEL_U128) != FKC_OK)
        s->broken = true; /* (no descriptor set: a write is missing, so nothing may run) */
    s->no_fusion = fuse;
}
