/* slab.c — records one planned box copy (fkc_box) on the device. The box is first coalesced
 * into byte rows (axes contiguous in both tensors merge, so most boxes become one 2-D copy);
 * each 3-D piece then goes either through vkCmdCopyBuffer regions or a compute kernel chosen by
 * alignment (16-byte units where possible). Pieces wider than the storage range are split,
 * grids beyond the work-group limit are walked: large work is never refused. */
#include "internal.h"

#include <string.h>

/* A box in bytes: a contiguous row, then up to FKC_MAX_RANK - 1 outer dims (innermost first). */
typedef struct job {
    uint64_t src, dst;                  /* byte offset of the first byte in each buffer */
    uint64_t row;                       /* bytes per row, contiguous in both */
    uint32_t n;                         /* outer dims */
    uint64_t count[FKC_MAX_RANK];       /* extent of each outer dim */
    uint64_t sstride[FKC_MAX_RANK];     /* source byte stride of each outer dim */
    uint64_t dstride[FKC_MAX_RANK];     /* destination byte stride of each outer dim */
} job;

/* One piece the device copies in one go: planes x rows x row bytes. */
typedef struct piece {
    uint64_t src, dst, row;
    uint64_t rows, s_row, d_row;
    uint64_t planes, s_plane, d_plane;
} piece;

/* Must match the Push block of runtime/shaders/copy*.comp. */
struct push {
    uint32_t base, count, row_units, rows, src_off, dst_off;
    uint32_t s_row, s_plane, d_row, d_plane, word0, planes;
    uint32_t grid, row_base, plane_base, pad;
};

/* Builds the coalesced byte job of a box; false when the box is empty. */
static bool coalesce(const fkc_tensor *src, const fkc_tensor *out, const fkc_box *box,
                     size_t e, job *j)
{
    uint32_t r = box->rank;
    uint64_t ss = e, ds = e; /* byte strides of axis i, built innermost first */
    memset(j, 0, sizeof *j);
    j->src = src->offset;
    j->dst = out->offset;
    for (uint32_t i = 0; i < r; i++)
        if (box->extent[i] == 0)
            return false;
    for (uint32_t k = r; k-- > 0;) {
        uint64_t n = box->extent[k];
        j->src += (uint64_t)box->src_origin[k] * ss;
        j->dst += (uint64_t)box->dst_origin[k] * ds;
        if (k == r - 1) {
            j->row = n * e;
        } else if (n > 1) {
            bool merge = j->n == 0 ? (j->row == ss && j->row == ds)
                                   : (j->sstride[j->n - 1] * j->count[j->n - 1] == ss &&
                                      j->dstride[j->n - 1] * j->count[j->n - 1] == ds);
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

static uint64_t span_dst(const piece *p)
{
    return (p->planes - 1) * p->d_plane + (p->rows - 1) * p->d_row + p->row;
}

/* The largest power of two (<= 16) dividing every offset and stride the piece uses. */
static uint32_t alignment(const piece *p)
{
    uint64_t bits = p->src | p->dst | p->row | 16;
    if (p->rows > 1)
        bits |= p->s_row | p->d_row;
    if (p->planes > 1)
        bits |= p->s_plane | p->d_plane;
    return (uint32_t)(bits & (~bits + 1));
}

/* Barriers around word-owning dispatches: they read and rewrite whole words, so every
 * command touching neighbouring bytes must be finished before and after them. */
static void order_before(fkc_stream *s, bool rmw)
{
    if (rmw || s->rmw_pending)
        fkc_stream_barrier(s);
}

static void record_regions(fkc_stream *s, VkBuffer from, VkBuffer to, const piece *p)
{
    VkBufferCopy regions[FKC_REGION_BATCH];
    uint32_t n = 0;
    order_before(s, false);
    for (uint64_t pl = 0; pl < p->planes; pl++) {
        for (uint64_t r = 0; r < p->rows; r++) {
            regions[n].srcOffset = p->src + pl * p->s_plane + r * p->s_row;
            regions[n].dstOffset = p->dst + pl * p->d_plane + r * p->d_row;
            regions[n].size = p->row;
            if (++n == FKC_REGION_BATCH) {
                vkCmdCopyBuffer(s->cmd, from, to, n, regions);
                s->commands++;
                n = 0;
            }
        }
    }
    if (n) {
        vkCmdCopyBuffer(s->cmd, from, to, n, regions);
        s->commands++;
    }
    s->dirty = true;
}

static void push_and_dispatch(fkc_stream *s, const struct push *pc, uint64_t gx, uint64_t gy,
                              uint64_t gz)
{
    vkCmdPushConstants(s->cmd, s->ctx->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       sizeof *pc, pc);
    vkCmdDispatch(s->cmd, (uint32_t)gx, (uint32_t)gy, (uint32_t)gz);
    s->commands++;
}

/* Flat mode: one index over the whole piece, in 2-D grids of at most limit x limit groups. */
static void flat_walk(fkc_stream *s, struct push *pc, uint64_t total)
{
    uint64_t lim = s->ctx->group_limit;
    uint64_t per = lim * lim; /* groups one 2-D dispatch may have */
    if (per > (1u << 22))
        per = 1u << 22;       /* keeps base + index below 2^31 invocations */
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
    uint64_t cols = (pc->row_units + FKC_LOCAL_SIZE - 1) / FKC_LOCAL_SIZE;
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

/* Records the dispatches of one piece that fits the storage range: binds the two windows,
 * then walks the grid in chunks the work-group limit allows. */
static fkc_status dispatch(fkc_stream *s, const fkc_buffer *from, const fkc_buffer *to,
                           const piece *p, kernel_id k, uint32_t unit)
{
    fkc_context *ctx = s->ctx;
    VkPipeline pipe;
    fkc_status st = fkc_pipeline_get(ctx, k, &pipe);
    if (st != FKC_OK)
        return st;
    bool rmw = k == KERNEL_RMW;
    uint64_t a = ctx->offset_align;
    uint64_t sb = p->src / a * a, db = p->dst / a * a;
    uint64_t ssz = (p->src - sb + span_src(p) + 3) & ~(uint64_t)3;
    uint64_t dsz = (p->dst - db + span_dst(p) + 3) & ~(uint64_t)3;
    VkDescriptorBufferInfo bi[2] = {{from->buffer, sb, ssz}, {to->buffer, db, dsz}};
    VkWriteDescriptorSet w[2];
    for (int i = 0; i < 2; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstBinding = (uint32_t)i,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &bi[i]};
    struct push pc = {
        .row_units = (uint32_t)(p->row / unit),
        .rows = (uint32_t)p->rows,
        .src_off = (uint32_t)((p->src - sb) / unit),
        .dst_off = (uint32_t)((p->dst - db) / unit),
        .s_row = p->rows > 1 ? (uint32_t)(p->s_row / unit) : 0,
        .s_plane = p->planes > 1 ? (uint32_t)(p->s_plane / unit) : 0,
        .d_row = p->rows > 1 ? (uint32_t)(p->d_row / unit) : 0,
        .d_plane = p->planes > 1 ? (uint32_t)(p->d_plane / unit) : 0,
        .planes = (uint32_t)p->planes};
    uint64_t total = p->planes * p->rows * (p->row / unit);
    if (rmw) { /* one invocation per destination word the piece touches */
        uint64_t first = (p->dst - db) / 4, end = (p->dst - db + span_dst(p) + 3) / 4;
        pc.word0 = (uint32_t)first;
        total = end - first;
        if (p->rows == 1)
            pc.d_row = UINT32_MAX;
        if (p->planes == 1)
            pc.d_plane = UINT32_MAX;
    }
    order_before(s, rmw);
    vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    ctx->push_descriptor(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ctx->pipeline_layout, 0, 2, w);
    if (!rmw && pc.row_units >= FKC_GRID_MIN_UNITS)
        grid_walk(s, &pc);
    else
        flat_walk(s, &pc, total);
    s->dirty = true;
    s->rmw_pending = s->rmw_pending || rmw;
    return FKC_OK;
}

/* Splits a piece until both spans fit the usable window, then dispatches each part: planes
 * first, then rows, then a single long row in 16-byte-multiple chunks (alignment is kept). */
static fkc_status fit(fkc_stream *s, const fkc_buffer *from, const fkc_buffer *to,
                      const piece *p, kernel_id k, uint32_t unit)
{
    uint64_t lim = (s->ctx->storage_range - s->ctx->offset_align - 16) & ~(uint64_t)15;
    if (span_src(p) <= lim && span_dst(p) <= lim)
        return dispatch(s, from, to, p, k, unit);
    piece q = *p;
    fkc_status st = FKC_OK;
    if (p->planes > 1 || p->rows > 1) {
        bool by_plane = p->planes > 1;
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
            st = fit(s, from, to, &q, k, unit);
        }
        return st;
    }
    uint64_t chunk = lim; /* one long row */
    for (uint64_t off = 0; off < p->row && st == FKC_OK; off += chunk) {
        q.src = p->src + off;
        q.dst = p->dst + off;
        q.row = p->row - off < chunk ? p->row - off : chunk;
        st = fit(s, from, to, &q, k, unit);
    }
    return st;
}

/* Chooses copy regions or a kernel for one piece and records it. */
static fkc_status record_piece(fkc_stream *s, const fkc_buffer *from, const fkc_buffer *to,
                               const piece *p)
{
    fkc_context *ctx = s->ctx;
    if (ctx->copy_path == FKC_COPY_TRANSFER ||
        (ctx->prefer_transfer && p->row >= FKC_TRANSFER_MIN_ROW)) {
        record_regions(s, from->buffer, to->buffer, p);
        return FKC_OK;
    }
    uint32_t a = alignment(p);
    if (a >= 16)
        return fit(s, from, to, p, KERNEL_U128, 16);
    if (a >= 4)
        return fit(s, from, to, p, KERNEL_U32, 4);
    if (a == 2 && ctx->storage_16bit)
        return fit(s, from, to, p, KERNEL_U16, 2);
    if (ctx->storage_8bit)
        return fit(s, from, to, p, KERNEL_U8, 1);
    return fit(s, from, to, p, KERNEL_RMW, 1);
}

fkc_status fkc_record_box(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                          const fkc_box *box, size_t elem_size)
{
    job j;
    if (!coalesce(src, out, box, elem_size, &j))
        return FKC_OK;
    uint64_t idx[FKC_MAX_RANK] = {0};
    piece p = {.row = j.row, .rows = 1, .planes = 1};
    if (j.n > 0) {
        p.rows = j.count[0];
        p.s_row = j.sstride[0];
        p.d_row = j.dstride[0];
    }
    if (j.n > 1) {
        p.planes = j.count[1];
        p.s_plane = j.sstride[1];
        p.d_plane = j.dstride[1];
    }
    /* Outer dims beyond the first two are walked on the host, one piece each. */
    for (;;) {
        p.src = j.src;
        p.dst = j.dst;
        for (uint32_t d = 2; d < j.n; d++) {
            p.src += idx[d] * j.sstride[d];
            p.dst += idx[d] * j.dstride[d];
        }
        fkc_status st = record_piece(s, src->buffer, out->buffer, &p);
        if (st != FKC_OK)
            return st;
        uint32_t d = 2;
        while (d < j.n && ++idx[d] == j.count[d])
            idx[d++] = 0;
        if (d >= j.n)
            return FKC_OK;
    }
}
