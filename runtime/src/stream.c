/* stream.c — command streams. An owned stream has its own command pool, command buffer and
 * fence, so streams record and submit from several threads at once; ops are recorded into its
 * command buffer and submitted together (asynchronously, with the host's semaphores or not) and
 * waited for with a timeout. A borrowed stream appends to a command buffer of the host's and
 * never begins, ends or submits it. Commands are ordered by full compute/transfer memory
 * barriers, recorded only where one touches bytes (per VkBuffer) that an earlier one since the
 * last barrier wrote, or writes bytes one read. Small aligned writes of an owned stream are
 * queued and recorded as one fused dispatch over a table (fused.comp); a submitted recording
 * can be replayed as it is. Recorded uploads and downloads go through the stream's own staging
 * chunks; without push descriptors the stream also keeps the descriptor pools of its ops. */
#include "context.h"
#include "buffer.h"
#include "memory.h"
#include "stream.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- life cycle ------------------------------------------------------------------------- */

/* An owned stream: command pool, command buffer, fence, and (timed) a timestamp pool. */
static fkc_status stream_new(fkc_context *ctx, bool timed, fkc_stream **out)
{
    const fkc_vk *vk = &ctx->vk;
    fkc_stream *s = calloc(1, sizeof *s);
    if (!s)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a stream");
    s->ctx = ctx;
    s->device_seconds = -1;
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .queueFamilyIndex = ctx->queue_family};
    VkResult r = vk->vkCreateCommandPool(ctx->device, &pi, ctx->alloc, &s->pool);
    fkc_status st = r == VK_SUCCESS ? FKC_OK : fkc_vk_fail(r, "vkCreateCommandPool");
    if (st == FKC_OK) {
        VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                          .commandPool = s->pool,
                                          .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          .commandBufferCount = 1};
        if ((r = vk->vkAllocateCommandBuffers(ctx->device, &ai, &s->cmd)) != VK_SUCCESS)
            st = fkc_vk_fail(r, "vkAllocateCommandBuffers");
    }
    if (st == FKC_OK) {
        VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        if ((r = vk->vkCreateFence(ctx->device, &fi, ctx->alloc, &s->fence)) != VK_SUCCESS)
            st = fkc_vk_fail(r, "vkCreateFence");
    }
    if (st != FKC_OK) {
        fkc_stream_free(s);
        return st;
    }
    if (timed && ctx->timestamp_bits) { /* timing is a bonus: without a pool it still works */
        VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                    .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                    .queryCount = 2};
        if (vk->vkCreateQueryPool(ctx->device, &qi, ctx->alloc, &s->timer) != VK_SUCCESS)
            s->timer = VK_NULL_HANDLE;
    }
    *out = s;
    return FKC_OK;
}

fkc_status fkc_stream_create(fkc_context *ctx, fkc_stream **out)
{
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_create: out is NULL");
    *out = NULL;
    if (!ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_create: context is NULL");
    fkc_status st = stream_new(ctx, true, out);
    if (st == FKC_OK)
        fkc_context_retain(ctx);
    return st;
}

fkc_status fkc_stream_wrap_vulkan(fkc_context *ctx, VkCommandBuffer cmd, fkc_stream **out)
{
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_wrap_vulkan: out is NULL");
    *out = NULL;
    if (!ctx || !cmd)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_wrap_vulkan: %s is NULL",
                        ctx ? "the command buffer" : "the context");
    fkc_stream *s = calloc(1, sizeof *s);
    if (!s)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a stream");
    s->ctx = ctx;
    s->borrowed = true;
    s->cmd = cmd;
    s->recording = true;
    s->device_seconds = -1;
    fkc_context_retain(ctx);
    *out = s;
    return FKC_OK;
}

fkc_status fkc_stream_take(fkc_context *ctx, fkc_stream **out)
{
    pthread_mutex_lock(&ctx->lock);
    fkc_stream *s = ctx->idle;
    if (s)
        ctx->idle = s->next_idle;
    pthread_mutex_unlock(&ctx->lock);
    if (!s) {
        fkc_status st = stream_new(ctx, false, &s); /* nobody reads its time: no timestamps */
        if (st != FKC_OK)
            return st;
        s->pooled = true;
        pthread_mutex_lock(&ctx->lock);
        s->next_pooled = ctx->pooled;
        ctx->pooled = s;
        pthread_mutex_unlock(&ctx->lock);
    }
    *out = s;
    return FKC_OK;
}

void fkc_stream_give(fkc_stream *s)
{
    fkc_context *ctx = s->ctx;
    pthread_mutex_lock(&ctx->lock);
    s->next_idle = ctx->idle;
    ctx->idle = s;
    pthread_mutex_unlock(&ctx->lock);
}

static void staging_free(fkc_context *ctx, fkc_staging *st)
{
    for (uint32_t i = 0; i < st->n; i++) {
        ctx->vk.vkDestroyBuffer(ctx->device, st->chunks[i].buffer, ctx->alloc);
        fkc_memory_release(ctx, st->chunks[i].memory);
    }
    free(st->chunks);
}

void fkc_stream_free(fkc_stream *s)
{
    fkc_context *ctx = s->ctx;
    const fkc_vk *vk = &ctx->vk;
    if (s->in_flight)
        vk->vkWaitForFences(ctx->device, 1, &s->fence, VK_TRUE, UINT64_MAX);
    staging_free(ctx, &s->up);
    staging_free(ctx, &s->down);
    for (uint32_t i = 0; i < s->n_dpools; i++)
        vk->vkDestroyDescriptorPool(ctx->device, s->dpools[i], ctx->alloc);
    free(s->dpools);
    for (uint32_t i = 0; i < s->n_tables; i++) { /* (unmapped with their memory) */
        vk->vkDestroyBuffer(ctx->device, s->tables[i].buffer, ctx->alloc);
        fkc_memory_release(ctx, s->tables[i].memory);
    }
    free(s->tables);
    for (uint32_t i = 0; i < s->n_scratch; i++) {
        vk->vkDestroyBuffer(ctx->device, s->scratch[i].buffer, ctx->alloc);
        fkc_memory_release(ctx, s->scratch[i].memory);
    }
    free(s->scratch);
    for (int i = 0; i < FKC_BATCHERS; i++)
        if (s->batcher[i])
            s->batcher[i]->release(s);
    free(s->pending);
    if (s->timer)
        vk->vkDestroyQueryPool(ctx->device, s->timer, ctx->alloc);
    if (s->fence)
        vk->vkDestroyFence(ctx->device, s->fence, ctx->alloc);
    if (s->pool) /* frees its command buffer too */
        vk->vkDestroyCommandPool(ctx->device, s->pool, ctx->alloc);
    free(s);
}

void fkc_stream_destroy(fkc_stream *s)
{
    if (!s || s->pooled)
        return;
    fkc_context *ctx = s->ctx;
    fkc_debug_lifetime_wait(ctx); /* (a borrowed stream's descriptor pools may be in use) */
    fkc_stream_free(s);
    fkc_context_release(ctx);
}

/* ---- recording -------------------------------------------------------------------------- */

static fkc_status alloc_set(fkc_stream *s, VkDescriptorSetLayout layout, VkDescriptorSet *set);

/* A memory barrier from (src, src_access) to (dst, dst_access). */
static void barrier(fkc_stream *s, VkPipelineStageFlags src, VkAccessFlags src_access,
                    VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = src_access,
                          .dstAccessMask = dst_access};
    s->ctx->vk.vkCmdPipelineBarrier(s->cmd, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* Forgets what was recorded: staging, pending downloads, descriptor sets, counters. */
static fkc_status reset_recording(fkc_stream *s)
{
    for (uint32_t i = 0; i < s->up.n; i++)
        s->up.chunks[i].used = 0;
    for (uint32_t i = 0; i < s->down.n; i++)
        s->down.chunks[i].used = 0;
    s->n_pending = 0;
    for (uint32_t i = 0; i < s->n_dpools; i++) {
        VkResult r = s->ctx->vk.vkResetDescriptorPool(s->ctx->device, s->dpools[i], 0);
        if (r != VK_SUCCESS)
            return fkc_vk_fail(r, "vkResetDescriptorPool");
    }
    s->cur_dpool = 0;
    s->ops = 0;
    s->commands = 0;
    s->items = 0;
    s->barriers = 0;
    s->n_track = 0;
    s->cur_table = 0;
    s->table_used = 0;
    s->cur_scratch = 0;
    s->scratch_used = 0;
    for (int i = 0; i < FKC_BATCHERS; i++)
        if (s->batcher[i])
            s->batcher[i]->reset(s);
    s->broken = false;
    s->replayable = false;
    s->host_read = false;
    return FKC_OK;
}

static fkc_status begin_body(fkc_stream *s)
{
    if (!s)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_begin: stream is NULL");
    if (s->borrowed)
        return fkc_stream_begin_vulkan(s, s->cmd);
    const fkc_vk *vk = &s->ctx->vk;
    fkc_status st;
    if (s->in_flight && (st = fkc_stream_wait(s, UINT64_MAX)) != FKC_OK)
        return st;
    s->recording = false;
    VkResult r = vk->vkResetCommandPool(s->ctx->device, s->pool, 0);
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkResetCommandPool");
    if ((st = reset_recording(s)) != FKC_OK)
        return st;
    /* not one-time: fkc_stream_replay may submit the recording again */
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    if ((r = vk->vkBeginCommandBuffer(s->cmd, &bi)) != VK_SUCCESS)
        return fkc_vk_fail(r, "vkBeginCommandBuffer");
    /* Writes of earlier submissions (other streams, copies, the host's) become visible. */
    barrier(s, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, FKC_VULKAN_STAGES,
            FKC_VULKAN_ACCESS_READ | FKC_VULKAN_ACCESS_WRITE);
    if (s->timer) {
        vk->vkCmdResetQueryPool(s->cmd, s->timer, 0, 2);
        vk->vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s->timer, 0);
    }
    s->recording = true;
    return FKC_OK;
}

static fkc_status begin_vulkan_body(fkc_stream *s, VkCommandBuffer cmd)
{
    if (!s || !cmd)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_begin_vulkan: %s is NULL",
                        s ? "the command buffer" : "the stream");
    if (!s->borrowed)
        return fkc_fail(FKC_ERR_STATE,
                        "fkc_stream_begin_vulkan: the stream records into its "
                        "own command buffer (fkc_stream_create); use fkc_stream_begin");
    s->cmd = cmd;
    return reset_recording(s);
}

fkc_status fkc_stream_ensure(fkc_stream *s)
{
    if (s->borrowed)
        return s->broken
                   ? fkc_fail(FKC_ERR_STATE, "an op failed half-way while being recorded "
                                             "into the host's command buffer; reset it and call "
                                             "fkc_stream_begin_vulkan")
                   : FKC_OK;
    return s->recording ? FKC_OK : fkc_stream_begin(s);
}

/* Records the pending work of every batcher (fkc_batcher: set_rows' ops, then the fused
 * writes). */
static void flush_batchers(fkc_stream *s, bool keep)
{
    for (int i = 0; i < FKC_BATCHERS; i++)
        if (s->batcher[i])
            s->batcher[i]->flush(s, keep);
}

/* Whether access a must wait for a batcher's pending dispatch. */
static bool batch_hazard(const fkc_stream *s, const fkc_access *a)
{
    for (int i = 0; i < FKC_BATCHERS; i++)
        if (s->batcher[i] && s->batcher[i]->hazard(s, a))
            return true;
    return false;
}

uint32_t fkc_stream_pending(const fkc_stream *s, fkc_batcher_id id)
{
    return s->batcher[id] ? s->batcher[id]->pending(s) : 0;
}

void fkc_stream_barrier(fkc_stream *s)
{
    bool any = s->n_track > 0; /* pending fused writes are tracked too */
    flush_batchers(s, false);  /* (set_rows' windows are tracked: they stay until the barrier) */
    if (!any)
        return;
    barrier(s, FKC_VULKAN_STAGES, FKC_VULKAN_ACCESS_WRITE, FKC_VULKAN_STAGES,
            FKC_VULKAN_ACCESS_READ | FKC_VULKAN_ACCESS_WRITE);
    s->n_track = 0;
    s->barriers++;
}

void fkc_stream_flush(fkc_stream *s)
{
    flush_batchers(s, true);
}

/* Whether two accesses must be ordered: the same buffer, overlapping bytes, one a write. */
bool fkc_access_conflict(const fkc_access *t, VkBuffer buf, uint64_t lo, uint64_t hi, bool write)
{
    return (t->write || write) && t->buffer == buf && lo < t->hi && t->lo < hi;
}

/* Whether [lo, hi) of buf (written or read) must wait for the tracked accesses of recorded
 * commands (pending = false) or of the pending fused writes' exact bytes (pending = true). */
bool fkc_stream_hazard(const fkc_stream *s, VkBuffer buf, uint64_t lo, uint64_t hi, bool write,
                       bool pending)
{
    for (uint32_t i = 0; i < s->n_track; i++)
        if (s->track[i].pending == pending && fkc_access_conflict(&s->track[i], buf, lo, hi, write))
            return true;
    return false;
}

/* Tracks a, merged into a tracked range of the same kind and buffer that it touches. */
void fkc_stream_track(fkc_stream *s, const fkc_access *a)
{
    if (a->lo >= a->hi)
        return;
    for (uint32_t i = 0; i < s->n_track; i++) {
        fkc_access *t = &s->track[i];
        if (t->buffer == a->buffer && t->write == a->write && t->pending == a->pending &&
            a->lo <= t->hi && t->lo <= a->hi) {
            t->lo = a->lo < t->lo ? a->lo : t->lo;
            t->hi = a->hi > t->hi ? a->hi : t->hi;
            return;
        }
    }
    s->track[s->n_track++] = *a;
}

void fkc_stream_touch(fkc_stream *s, uint32_t n, const fkc_access *a)
{
    bool wait = s->n_track + n > FKC_TRACK_MAX; /* too many ranges: one barrier forgets them */
    for (uint32_t i = 0; i < n && !wait; i++)
        wait = a[i].lo < a[i].hi &&
               (fkc_stream_hazard(s, a[i].buffer, a[i].lo, a[i].hi, a[i].write, false) ||
                batch_hazard(s, &a[i]));
    if (wait)
        fkc_stream_barrier(s);
    for (uint32_t i = 0; i < n; i++) {
        fkc_access t = a[i];
        t.pending = false;
        fkc_stream_track(s, &t);
    }
}

bool fkc_stream_fusing(const fkc_stream *s, uint64_t units)
{
    return !s->borrowed && !s->no_fusion && s->ctx->fusion && units <= FKC_FUSE_MAX_UNITS;
}

/* ---- fused-write tables (fused.c and set_rows.c write them) ---------------------------- */

/* A table buffer: host-visible device-local memory where there is some (written by the host,
 * read by the dispatch: no command), else device-local (written by vkCmdUpdateBuffer). */
static fkc_status table_new(fkc_stream *s, fkc_table *t)
{
    fkc_context *ctx = s->ctx;
    VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    VkMemoryPropertyFlags mapped = local | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    bool coherent = false;
    fkc_status st = fkc_memory_dedicated(
        ctx, FKC_TABLE_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        ctx->no_host_tables ? local : mapped, local, &t->buffer, &t->memory, &coherent);
    if (st != FKC_OK)
        return st;
    void *map = NULL;
    t->map = NULL;
    if (coherent && !ctx->no_host_tables && /* (coherent memory is host-visible) */
        ctx->vk.vkMapMemory(ctx->device, t->memory, 0, VK_WHOLE_SIZE, 0, &map) == VK_SUCCESS)
        t->map = map; /* (a map failure leaves the update path) */
    return FKC_OK;
}

/* Table space for one batch (FKC_FUSE_MAX entries) in the stream's table buffers, and `extra`
 * bytes FKC_FUSE_COUNTER bytes after its start. */
static fkc_status table_reserve(fkc_stream *s, uint64_t extra, fkc_table **tab, uint64_t *at)
{
    uint64_t need = FKC_FUSE_COUNTER + extra;
    uint64_t a = s->ctx->offset_align;
    for (;;) {
        if (s->cur_table < s->n_tables) {
            uint64_t u = (s->table_used + a - 1) / a * a;
            if (u + need <= FKC_TABLE_BYTES) {
                *tab = &s->tables[s->cur_table];
                *at = u;
                s->table_used = u + need;
                return FKC_OK;
            }
            s->cur_table++;
            s->table_used = 0;
            continue;
        }
        fkc_table *t = realloc(s->tables, (s->n_tables + 1) * sizeof *t);
        if (!t)
            return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a fused-write table list");
        s->tables = t;
        fkc_status st = table_new(s, &s->tables[s->n_tables]);
        if (st != FKC_OK)
            return st;
        s->n_tables++;
    }
}

fkc_status fkc_stream_table(fkc_stream *s, uint64_t extra, fkc_table **tab, uint64_t *at)
{
    return table_reserve(s, extra, tab, at);
}

/* A scratch chunk of `size` bytes, all zero: host-visible memory zeroed by the host, else
 * device-local memory zeroed by a fill at each recording's first use (scratch_zero). */
static fkc_status scratch_new(fkc_stream *s, uint64_t size, fkc_scratch *c)
{
    fkc_context *ctx = s->ctx;
    VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    VkMemoryPropertyFlags mapped = local | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    bool coherent = false;
    fkc_status st = fkc_memory_dedicated(
        ctx, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        ctx->no_host_tables ? local : mapped, local, &c->buffer, &c->memory, &coherent);
    if (st != FKC_OK)
        return st;
    void *map = NULL;
    c->size = size;
    c->fill = true;
    if (coherent && !ctx->no_host_tables &&
        ctx->vk.vkMapMemory(ctx->device, c->memory, 0, VK_WHOLE_SIZE, 0, &map) == VK_SUCCESS) {
        memset(map, 0, size); /* coherent: seen by every later submit (unmapped when freed) */
        c->fill = false;
    }
    return FKC_OK;
}

/* Zeroes a device-local chunk at its first use in this recording: a fill, and a barrier from it
 * to the compute shaders (only the ops after it use the chunk). */
static void scratch_zero(fkc_stream *s, const fkc_scratch *c)
{
    if (!c->fill)
        return;
    s->ctx->vk.vkCmdFillBuffer(s->cmd, c->buffer, 0, c->size, 0);
    s->commands++;
    barrier(s, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

fkc_status fkc_stream_scratch(fkc_stream *s, uint64_t bytes, VkBuffer *buf, uint64_t *at)
{
    uint64_t a = s->ctx->offset_align;
    bytes = (bytes + a - 1) / a * a;
    for (;;) {
        if (s->cur_scratch < s->n_scratch) {
            fkc_scratch *c = &s->scratch[s->cur_scratch];
            if (s->scratch_used + bytes <= c->size) {
                if (s->scratch_used == 0)
                    scratch_zero(s, c);
                *buf = c->buffer;
                *at = s->scratch_used;
                s->scratch_used += bytes;
                return FKC_OK;
            }
            s->cur_scratch++;
            s->scratch_used = 0;
            continue;
        }
        fkc_scratch *c = realloc(s->scratch, (s->n_scratch + 1) * sizeof *c);
        if (!c)
            return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a scratch chunk list");
        s->scratch = c;
        /* a chunk an op needs more than: a chunk of its own, placed last */
        uint64_t size = bytes > FKC_SCRATCH_BYTES ? bytes : FKC_SCRATCH_BYTES;
        fkc_status st = scratch_new(s, size, &s->scratch[s->n_scratch]);
        if (st != FKC_OK)
            return st;
        s->n_scratch++;
    }
}

fkc_status fkc_stream_alloc_set(fkc_stream *s, VkDescriptorSetLayout layout, VkDescriptorSet *set)
{
    return alloc_set(s, layout, set);
}

void fkc_stream_memory_barrier(fkc_stream *s, VkPipelineStageFlags src, VkAccessFlags src_access,
                               VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
    barrier(s, src, src_access, dst, dst_access);
}

static fkc_status vulkan_barrier_in_body(fkc_stream *s, VkPipelineStageFlags src_stages,
                                         VkAccessFlags src_access)
{
    if (!s || !src_stages)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_vulkan_barrier_in: %s",
                        s ? "no source stages" : "stream is NULL");
    fkc_status st = fkc_stream_ensure(s);
    if (st == FKC_OK) {
        fkc_stream_barrier(s); /* fkc's own earlier work first, then the host's */
        barrier(s, src_stages, src_access, FKC_VULKAN_STAGES,
                FKC_VULKAN_ACCESS_READ | FKC_VULKAN_ACCESS_WRITE);
    }
    return st;
}

static fkc_status vulkan_barrier_out_body(fkc_stream *s, VkPipelineStageFlags dst_stages,
                                          VkAccessFlags dst_access)
{
    if (!s || !dst_stages)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_vulkan_barrier_out: %s",
                        s ? "no destination stages" : "stream is NULL");
    fkc_status st = fkc_stream_ensure(s);
    if (st == FKC_OK) {
        fkc_stream_flush(s);
        barrier(s, FKC_VULKAN_STAGES, FKC_VULKAN_ACCESS_WRITE, dst_stages, dst_access);
        s->n_track = 0; /* (a full barrier from fkc's stages: later ops wait for these too) */
    }
    return st;
}

/* A descriptor set of the stream's pools (a new pool when the current ones are full). */
static fkc_status alloc_set(fkc_stream *s, VkDescriptorSetLayout layout, VkDescriptorSet *set)
{
    const fkc_vk *vk = &s->ctx->vk;
    VkDevice dev = s->ctx->device;
    for (;;) {
        if (s->cur_dpool == s->n_dpools) {
            VkDescriptorPool *p = realloc(s->dpools, (s->n_dpools + 1) * sizeof *p);
            if (!p)
                return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a descriptor pool list");
            s->dpools = p;
            VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                         4 * FKC_DESCRIPTOR_SETS};
            VkDescriptorPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                             .maxSets = FKC_DESCRIPTOR_SETS,
                                             .poolSizeCount = 1,
                                             .pPoolSizes = &size};
            VkResult r = vk->vkCreateDescriptorPool(dev, &ci, s->ctx->alloc,
                                                    &s->dpools[s->n_dpools]);
            if (r != VK_SUCCESS)
                return fkc_vk_fail(r, "vkCreateDescriptorPool");
            s->n_dpools++;
        }
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = s->dpools[s->cur_dpool],
                                          .descriptorSetCount = 1,
                                          .pSetLayouts = &layout};
        VkResult r = vk->vkAllocateDescriptorSets(dev, &ai, set);
        if (r == VK_SUCCESS)
            return FKC_OK;
        if (r != VK_ERROR_OUT_OF_POOL_MEMORY && r != VK_ERROR_FRAGMENTED_POOL)
            return fkc_vk_fail(r, "vkAllocateDescriptorSets");
        s->cur_dpool++; /* this pool is full: the next one */
    }
}

fkc_status fkc_stream_bind(fkc_stream *s, VkPipeline pipe, VkPipelineLayout layout,
                           VkDescriptorSetLayout set_layout, uint32_t n,
                           const VkDescriptorBufferInfo *buffers)
{
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (n && !s->ctx->vk.vkCmdPushDescriptorSetKHR) {
        fkc_status st = alloc_set(s, set_layout, &set);
        if (st != FKC_OK)
            return st;
    }
    fkc_stream_bind_set(s, pipe, layout, set, n, buffers);
    return FKC_OK;
}

void fkc_stream_bind_set(fkc_stream *s, VkPipeline pipe, VkPipelineLayout layout,
                         VkDescriptorSet set, uint32_t n, const VkDescriptorBufferInfo *buffers)
{
    const fkc_vk *vk = &s->ctx->vk;
    VkWriteDescriptorSet w[FKC_BIND_MAX];
    for (uint32_t i = 0; i < n; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = set,
                                      .dstBinding = i,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &buffers[i]};
    vk->vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    if (n && vk->vkCmdPushDescriptorSetKHR) {
        vk->vkCmdPushDescriptorSetKHR(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, n, w);
    } else if (n) {
        vk->vkUpdateDescriptorSets(s->ctx->device, n, w, 0, NULL);
        vk->vkCmdBindDescriptorSets(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0,
                                    NULL);
    }
}

void fkc_stream_write_table(fkc_stream *s, const fkc_table *tab, uint64_t at, const uint32_t *words,
                            uint64_t bytes, VkAccessFlags also)
{
    if (tab->map) { /* host-visible: written now, seen by the submit that runs it */
        memcpy(tab->map + at, words, bytes);
        return;
    }
    s->ctx->vk.vkCmdUpdateBuffer(s->cmd, tab->buffer, at, bytes, words);
    s->commands++;
    /* the table's bytes are this batch's alone: only the update must finish before the
     * dispatch reads it (earlier work keeps running) */
    barrier(s, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | also);
}

uint32_t fkc_table_windows(VkDescriptorBufferInfo *bi, VkDescriptorBufferInfo table,
                           const fkc_slot *slot, uint32_t n_read, uint32_t max_read,
                           uint32_t n_write, uint32_t max_write)
{
    bi[0] = table;
    for (uint32_t i = 0; i < max_read + max_write; i++) {
        bool write = i >= max_read;
        uint32_t k = write ? i - max_read : i;
        const fkc_slot *sl = &slot[i];
        if (k < (write ? n_write : n_read))
            bi[i + 1] = (VkDescriptorBufferInfo){sl->buffer, sl->lo, sl->hi - sl->lo};
        else /* unused: read ones see the table, written ones the first written window */
            bi[i + 1] = write ? bi[1 + max_read] : bi[0];
    }
    return 1 + max_read + max_write;
}

/* ---- submitting and waiting ------------------------------------------------------------- */

/* Device time between the two timestamps of the last completed work (wrap-around safe). */
static void read_timer(fkc_stream *s)
{
    uint64_t t[2];
    if (!s->timer || s->ctx->vk.vkGetQueryPoolResults(
                         s->ctx->device, s->timer, 0, 2, sizeof t, t, sizeof t[0],
                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        return;
    uint32_t bits = s->ctx->timestamp_bits;
    uint64_t mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
    s->device_seconds = (double)((t[1] - t[0]) & mask) * s->ctx->timestamp_ns * 1e-9;
}

/* Copies the recorded downloads' bytes to their host memory (after the work completed). */
static fkc_status deliver(fkc_stream *s)
{
    for (uint32_t i = 0; i < s->down.n; i++) {
        const fkc_chunk *c = &s->down.chunks[i];
        if (c->coherent || !c->used)
            continue;
        VkMappedMemoryRange mr = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
                                  .memory = c->memory,
                                  .size = VK_WHOLE_SIZE};
        VkResult r = s->ctx->vk.vkInvalidateMappedMemoryRanges(s->ctx->device, 1, &mr);
        if (r != VK_SUCCESS)
            return fkc_vk_fail(r, "vkInvalidateMappedMemoryRanges");
    }
    for (uint32_t i = 0; i < s->n_pending; i++) {
        const fkc_pending *p = &s->pending[i];
        memcpy(p->dst, s->down.chunks[p->chunk].map + p->at, p->size);
    }
    return FKC_OK; /* (kept: a replay of the recording delivers them again) */
}

static fkc_status wait_body(fkc_stream *s, uint64_t timeout_ns)
{
    if (!s)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_wait: stream is NULL");
    if (s->borrowed)
        return fkc_fail(FKC_ERR_STATE, "fkc_stream_wait: the stream records into the host's "
                                       "command buffer; the host waits for its own submission");
    if (!s->in_flight)
        return FKC_OK;
    const fkc_vk *vk = &s->ctx->vk;
    VkResult r = vk->vkWaitForFences(s->ctx->device, 1, &s->fence, VK_TRUE, timeout_ns);
    if (r == VK_TIMEOUT)
        return fkc_fail(FKC_ERR_TIMEOUT,
                        "fkc_stream_wait: the stream's work is still running "
                        "after %" PRIu64 " ns",
                        timeout_ns);
    s->in_flight = false;
    VkResult rr = vk->vkResetFences(s->ctx->device, 1, &s->fence);
    if (r != VK_SUCCESS) {
        s->n_pending = 0;
        return fkc_vk_fail(r, "vkWaitForFences");
    }
    if (rr != VK_SUCCESS)
        return fkc_vk_fail(rr, "vkResetFences");
    read_timer(s);
    return deliver(s);
}

/* Refuses the semaphores of x (NULL: none) that the submission cannot take. */
static fkc_status check_semaphores(const fkc_stream *s, const fkc_vulkan_submit *x,
                                   const char *what)
{
    uint32_t nw = x ? x->wait_count : 0, ns = x ? x->signal_count : 0;
    if ((nw && !x->wait) || (ns && !x->signal))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: a semaphore count without its array", what);
    for (uint32_t i = 0; i < nw + ns; i++) {
        const fkc_vulkan_semaphore *m = i < nw ? &x->wait[i] : &x->signal[i - nw];
        if (!m->semaphore)
            return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: %s semaphore %u is NULL", what,
                            i < nw ? "wait" : "signal", i < nw ? i : i - nw);
        if (m->value && !s->ctx->timeline)
            return fkc_fail(FKC_ERR_UNSUPPORTED,
                            "%s: semaphore value %" PRIu64 ": the device "
                            "has no timeline semaphores enabled (binary semaphores take 0)",
                            what, m->value);
    }
    return FKC_OK;
}

/* Ends the recording: the pending batches, the closing timestamp, vkEndCommandBuffer. */
static fkc_status end_recording(fkc_stream *s, const char *what)
{
    fkc_stream_flush(s);
    if (s->timer)
        s->ctx->vk.vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s->timer, 1);
    VkResult r = s->ctx->vk.vkEndCommandBuffer(s->cmd);
    if (s->broken)
        return fkc_fail(FKC_ERR_STATE,
                        "%s: an op failed half-way while being recorded; "
                        "nothing was submitted (begin the stream again)",
                        what);
    return r == VK_SUCCESS ? FKC_OK : fkc_vk_fail(r, "vkEndCommandBuffer");
}

/* Submits the stream's command buffer (recorded) or none, with x's semaphores (at most 32 of
 * each kind), fenced. */
static fkc_status queue_fenced(fkc_stream *s, const fkc_vulkan_submit *x, bool recorded)
{
    uint32_t nw = x ? x->wait_count : 0, ns = x ? x->signal_count : 0;
    VkSemaphore sem[2 * 32];
    uint64_t val[2 * 32];
    VkPipelineStageFlags stages[32];
    for (uint32_t i = 0; i < nw; i++) {
        sem[i] = x->wait[i].semaphore;
        val[i] = x->wait[i].value;
        stages[i] = x->wait[i].stages ? x->wait[i].stages : FKC_VULKAN_STAGES;
    }
    for (uint32_t i = 0; i < ns; i++) {
        sem[32 + i] = x->signal[i].semaphore;
        val[32 + i] = x->signal[i].value;
    }
    VkTimelineSemaphoreSubmitInfo ti = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                        .waitSemaphoreValueCount = nw,
                                        .pWaitSemaphoreValues = val,
                                        .signalSemaphoreValueCount = ns,
                                        .pSignalSemaphoreValues = val + 32};
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .pNext = s->ctx->timeline && nw + ns ? &ti : NULL,
                       .waitSemaphoreCount = nw,
                       .pWaitSemaphores = sem,
                       .pWaitDstStageMask = stages,
                       .commandBufferCount = recorded ? 1 : 0,
                       .pCommandBuffers = &s->cmd,
                       .signalSemaphoreCount = ns,
                       .pSignalSemaphores = sem + 32};
    return fkc_queue_submit(s->ctx, &si, s->fence);
}

/* Ends the recording (if any) and submits it with the semaphores, fenced. */
static fkc_status submit(fkc_stream *s, const fkc_vulkan_submit *x, const char *what)
{
    if (!s)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: stream is NULL", what);
    if (s->borrowed)
        return fkc_fail(FKC_ERR_STATE,
                        "%s: the stream records into the host's command buffer; "
                        "the host submits it",
                        what);
    fkc_status st = check_semaphores(s, x, what);
    if (st != FKC_OK)
        return st;
    if (!s->recording && (x ? x->wait_count + x->signal_count : 0) == 0)
        return FKC_OK; /* nothing recorded, nothing to signal */
    if (s->in_flight && (st = fkc_stream_wait(s, UINT64_MAX)) != FKC_OK)
        return st; /* (an empty batch on a stream still running: wait for it first) */
    bool recorded = s->recording;
    s->recording = false;
    s->device_seconds = -1;
    if (recorded && (st = end_recording(s, what)) != FKC_OK)
        return st;
    if (x && (x->wait_count > 32 || x->signal_count > 32))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: more than 32 wait or signal semaphores",
                        what);
    if ((st = queue_fenced(s, x, recorded)) != FKC_OK) {
        s->n_pending = 0; /* nothing ran: the downloads never land */
        s->replayable = false;
        return st;
    }
    s->replayable = s->replayable || recorded;
    s->in_flight = true;
    return FKC_OK;
}

/* Submits the last recording again, as it is (no recording, allocation or descriptor update). */
static fkc_status replay(fkc_stream *s, const char *what)
{
    if (!s)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: stream is NULL", what);
    if (s->borrowed)
        return fkc_fail(FKC_ERR_STATE,
                        "%s: the stream records into the host's command buffer; "
                        "the host submits it",
                        what);
    if (s->recording)
        return fkc_fail(FKC_ERR_STATE,
                        "%s: the stream is recording; submit it first (a replay "
                        "runs the last submitted recording)",
                        what);
    if (!s->replayable)
        return fkc_fail(FKC_ERR_STATE,
                        "%s: no submitted recording to replay (record ops and "
                        "submit them first)",
                        what);
    if (s->host_read) /* its rows were placed at the position of that time: refuse, not redo */
        return fkc_fail(FKC_ERR_STATE,
                        "%s: the recording holds a write_slice_rotating whose ring position "
                        "was read back to the host when it was recorded "
                        "(FKC_CONTEXT_RING_READBACK, or a ring the device kernels cannot take); "
                        "a replay would write the same rows again: record the step again",
                        what);
    if (s->in_flight) {
        fkc_status st = fkc_stream_wait(s, UINT64_MAX);
        if (st != FKC_OK)
            return st;
    }
    s->device_seconds = -1;
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &s->cmd};
    fkc_status st = fkc_queue_submit(s->ctx, &si, s->fence);
    if (st != FKC_OK)
        return st;
    s->in_flight = true;
    return FKC_OK;
}

static fkc_status replay_async_body(fkc_stream *s)
{
    return replay(s, "fkc_stream_replay_async");
}

static fkc_status replay_body(fkc_stream *s)
{
    fkc_status st = replay(s, "fkc_stream_replay");
    return st == FKC_OK ? fkc_stream_wait(s, UINT64_MAX) : st;
}

static fkc_status advance_body(fkc_stream *s, fkc_buffer *position, uint64_t offset, uint64_t delta)
{
    if (!s || !position)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_advance: NULL stream or buffer");
    if (position->ctx != s->ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_advance: buffer of another "
                                                  "context");
    if (offset > position->size || position->size - offset < 8)
        return fkc_fail(FKC_ERR_OUT_OF_BOUNDS,
                        "fkc_stream_advance: the position's 8 bytes at "
                        "offset %" PRIu64 " are outside its %" PRIu64 "-byte buffer",
                        offset, position->size);
    uint64_t at = position->base + offset, a = s->ctx->offset_align, lo = at / a * a;
    if (offset % 8 || at % 4)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_stream_advance: offset %" PRIu64 " is "
                        "not a multiple of 8 (in a 4-byte aligned place of its VkBuffer)",
                        offset);
    fkc_status st = fkc_stream_ensure(s);
    if (st != FKC_OK)
        return st;
    const fkc_batcher *fb = s->batcher[FKC_BATCHER_FUSED]; /* one dispatch with the writes */
    if (fb && fb->advance && fb->advance(s, position->buffer, lo, at, delta)) {
        s->items++;
        s->ops++;
        return FKC_OK;
    }
    VkDescriptorBufferInfo bi = {position->buffer, lo, at + 8 - lo};
    fkc_access acc = {position->buffer, lo, at + 8, true, false};
    fkc_stream_touch(s, 1, &acc); /* after the ops reading the position, before later ones */
    fkc_context *ctx = s->ctx;
    if ((st = fkc_stream_bind(s, ctx->pipelines[KERNEL_ADVANCE], ctx->advance_layout,
                              ctx->advance_set_layout, 1, &bi)) != FKC_OK)
        return st;
    uint32_t push[4] = {(uint32_t)((at - lo) / 4), (uint32_t)delta, (uint32_t)(delta >> 32), 0};
    ctx->vk.vkCmdPushConstants(s->cmd, ctx->advance_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                               sizeof push, push);
    ctx->vk.vkCmdDispatch(s->cmd, 1, 1, 1);
    s->commands++;
    s->items++;
    s->ops++;
    return FKC_OK;
}

static fkc_status submit_async_body(fkc_stream *s)
{
    return submit(s, NULL, "fkc_stream_submit_async");
}

static fkc_status submit_body(fkc_stream *s)
{
    fkc_status st = submit(s, NULL, "fkc_stream_submit");
    return st == FKC_OK ? fkc_stream_wait(s, UINT64_MAX) : st;
}

void fkc_vulkan_submit_init(fkc_vulkan_submit *x)
{
    if (!x) /* (a NULL is ignored) */
        return;
    memset(x, 0, sizeof *x);
    x->size = sizeof *x;
}

static fkc_status submit_vulkan_body(fkc_stream *s, const fkc_vulkan_submit *x)
{
    if (x && x->size != sizeof *x)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "fkc_stream_submit_vulkan: "
                        "fkc_vulkan_submit.size is %zu, not %zu: set it up with "
                        "fkc_vulkan_submit_init (headers of another fkc?)",
                        x->size, sizeof *x);
    return submit(s, x, "fkc_stream_submit_vulkan");
}

/* ---- copies ----------------------------------------------------------------------------- */

/* `size` bytes of the stream's staging (uploads or downloads), 16-byte aligned in a chunk. */
static fkc_status staging_alloc(fkc_stream *s, bool down, uint64_t size, uint32_t *chunk,
                                uint64_t *at)
{
    fkc_staging *st = down ? &s->down : &s->up;
    for (uint32_t i = 0; i < st->n; i++) {
        fkc_chunk *c = &st->chunks[i];
        uint64_t u = (c->used + 15) & ~(uint64_t)15;
        if (u <= c->size && size <= c->size - u) {
            *chunk = i;
            *at = u;
            c->used = u + size;
            return FKC_OK;
        }
    }
    if (st->n == st->cap) {
        uint32_t cap = st->cap ? 2 * st->cap : 2;
        fkc_chunk *c = realloc(st->chunks, cap * sizeof *c);
        if (!c)
            return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating staging bookkeeping");
        st->chunks = c;
        st->cap = cap;
    }
    fkc_context *ctx = s->ctx;
    fkc_chunk c = {.size = size < FKC_STAGING_CHUNK ? FKC_STAGING_CHUNK
                                                    : (size + 0xfffff) & ~(uint64_t)0xfffff};
    VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    fkc_status rc = fkc_memory_dedicated(
        ctx, c.size, down ? VK_BUFFER_USAGE_TRANSFER_DST_BIT : VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
        host | (down ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : VK_MEMORY_PROPERTY_HOST_COHERENT_BIT),
        host | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &c.buffer, &c.memory, &c.coherent);
    if (rc != FKC_OK)
        return rc;
    void *map = NULL;
    VkResult r = ctx->vk.vkMapMemory(ctx->device, c.memory, 0, VK_WHOLE_SIZE, 0, &map);
    if (r != VK_SUCCESS) { /* undone: the next copy tries again */
        ctx->vk.vkDestroyBuffer(ctx->device, c.buffer, ctx->alloc);
        fkc_memory_release(ctx, c.memory);
        return fkc_vk_fail(r, "vkMapMemory");
    }
    c.map = map;
    c.used = size;
    *chunk = st->n;
    *at = 0;
    st->chunks[st->n++] = c;
    return FKC_OK;
}

/* A buffer range of a copy: on the stream's context and inside the buffer. */
static fkc_status check_copy(const fkc_stream *s, const fkc_buffer *b, uint64_t offset,
                             const void *data, uint64_t size, const char *what)
{
    if (!s || !b)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: NULL stream or buffer", what);
    if (b->ctx != s->ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: buffer of another context", what);
    if (size && !data)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: data is NULL", what);
    if (offset > b->size || size > b->size - offset)
        return fkc_fail(FKC_ERR_OUT_OF_BOUNDS,
                        "%s: bytes [%" PRIu64 ", +%" PRIu64 ") are "
                        "outside the %" PRIu64 "-byte buffer",
                        what, offset, size, b->size);
    if (s->borrowed)
        return fkc_fail(FKC_ERR_STATE,
                        "%s: the stream records into the host's command buffer, "
                        "whose completion only the host knows; record a copy into a buffer of "
                        "your own instead",
                        what);
    return FKC_OK;
}

static fkc_status upload_body(fkc_stream *s, fkc_buffer *b, uint64_t offset, const void *data,
                              uint64_t size)
{
    uint32_t chunk;
    uint64_t at;
    fkc_status st = check_copy(s, b, offset, data, size, "fkc_stream_upload");
    if (st != FKC_OK || (st = fkc_stream_ensure(s)) != FKC_OK)
        return st;
    if (size && (st = staging_alloc(s, false, size, &chunk, &at)) != FKC_OK)
        return st;
    s->ops++;
    if (size == 0)
        return FKC_OK;
    /* (the staging bytes are this copy's alone: only the destination is tracked) */
    fkc_access a = {b->buffer, b->base + offset, b->base + offset + size, true, false};
    fkc_stream_touch(s, 1, &a);
    memcpy(s->up.chunks[chunk].map + at, data, size);
    VkBufferCopy region = {.srcOffset = at, .dstOffset = b->base + offset, .size = size};
    s->ctx->vk.vkCmdCopyBuffer(s->cmd, s->up.chunks[chunk].buffer, b->buffer, 1, &region);
    s->commands++;
    s->items++;
    return FKC_OK;
}

static fkc_status download_body(fkc_stream *s, const fkc_buffer *b, uint64_t offset, void *data,
                                uint64_t size)
{
    uint32_t chunk;
    uint64_t at;
    fkc_status st = check_copy(s, b, offset, data, size, "fkc_stream_download");
    if (st != FKC_OK || (st = fkc_stream_ensure(s)) != FKC_OK)
        return st;
    if (size && s->n_pending == s->cap_pending) {
        uint32_t cap = s->cap_pending ? 2 * s->cap_pending : 4;
        fkc_pending *p = realloc(s->pending, cap * sizeof *p);
        if (!p)
            return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a download record");
        s->pending = p;
        s->cap_pending = cap;
    }
    if (size && (st = staging_alloc(s, true, size, &chunk, &at)) != FKC_OK)
        return st;
    s->ops++;
    if (size == 0)
        return FKC_OK;
    fkc_access a = {b->buffer, b->base + offset, b->base + offset + size, false, false};
    fkc_stream_touch(s, 1, &a);
    VkBufferCopy region = {.srcOffset = b->base + offset, .dstOffset = at, .size = size};
    s->ctx->vk.vkCmdCopyBuffer(s->cmd, b->buffer, s->down.chunks[chunk].buffer, 1, &region);
    barrier(s, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT); /* visible to the host */
    s->pending[s->n_pending++] = (fkc_pending){data, chunk, at, size};
    s->commands++;
    s->items++;
    return FKC_OK;
}

static fkc_status copy_body(fkc_stream *s, fkc_buffer *dst, uint64_t dst_offset,
                            const fkc_buffer *src, uint64_t src_offset, uint64_t size)
{
    if (!s || !dst || !src)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_copy: NULL stream or buffer");
    if (dst->ctx != s->ctx || src->ctx != s->ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_copy: buffer of another context");
    if (src_offset > src->size || size > src->size - src_offset || dst_offset > dst->size ||
        size > dst->size - dst_offset)
        return fkc_fail(FKC_ERR_OUT_OF_BOUNDS, "fkc_stream_copy: %llu bytes do not fit",
                        (unsigned long long)size);
    /* Overlap in memory: the same VkBuffer (a block's or the host's) at overlapping bytes. */
    uint64_t sa = src->base + src_offset, da = dst->base + dst_offset;
    if (src->buffer == dst->buffer && sa < da + size && da < sa + size)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_copy: ranges overlap");
    fkc_status st = fkc_stream_ensure(s);
    if (st != FKC_OK)
        return st;
    s->ops++;
    if (size == 0)
        return FKC_OK;
    fkc_access a[2] = {{src->buffer, sa, sa + size, false, false},
                       {dst->buffer, da, da + size, true, false}};
    fkc_stream_touch(s, 2, a);
    VkBufferCopy region = {.srcOffset = sa, .dstOffset = da, .size = size};
    s->ctx->vk.vkCmdCopyBuffer(s->cmd, src->buffer, dst->buffer, 1, &region);
    s->commands++;
    s->items++;
    return FKC_OK;
}

/* ---- accessors -------------------------------------------------------------------------- */

double fkc_stream_device_seconds(const fkc_stream *s)
{
    return s ? s->device_seconds : -1;
}

uint32_t fkc_stream_op_count(const fkc_stream *s)
{
    return s ? s->ops : 0;
}

uint32_t fkc_stream_command_count(const fkc_stream *s)
{
    if (!s)
        return 0;
    uint32_t n = s->commands; /* and the pending batches' dispatches (and table updates) */
    for (int i = 0; i < FKC_BATCHERS; i++)
        n += fkc_stream_pending(s, (fkc_batcher_id)i);
    return n;
}

uint32_t fkc_stream_barrier_count(const fkc_stream *s)
{
    return s ? s->barriers : 0;
}

fkc_context *fkc_stream_context(const fkc_stream *s)
{
    return s ? s->ctx : NULL;
}

/* ---- the public calls, each inside the stream (FKC_STREAM_GUARDED) ------------------------ */

/* This thread's token: its address differs between threads, live ones at least. */
static _Thread_local char thread_token;

int fkc_stream_enter(fkc_stream *s, const char *what)
{
    if (!s)
        return 0;
    const void *seen = NULL, *me = &thread_token;
    if (atomic_compare_exchange_strong_explicit(&s->owner, &seen, me, memory_order_acquire,
                                                memory_order_relaxed))
        return 1;
    if (seen == me)
        return 0;
    fkc_fail(FKC_ERR_STATE,
             "%s: another thread is inside a call on this stream (a stream is used by one "
             "thread at a time; nothing was done)",
             what);
    return -1;
}

void fkc_stream_leave(fkc_stream *s, int entered)
{
    if (entered > 0)
        atomic_store_explicit(&s->owner, NULL, memory_order_release);
}

fkc_status fkc_stream_begin(fkc_stream *s)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_begin", begin_body(s));
}

fkc_status fkc_stream_begin_vulkan(fkc_stream *s, VkCommandBuffer cmd)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_begin_vulkan", begin_vulkan_body(s, cmd));
}

fkc_status fkc_stream_wait(fkc_stream *s, uint64_t timeout_ns)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_wait", wait_body(s, timeout_ns));
}

fkc_status fkc_stream_replay_async(fkc_stream *s)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_replay_async", replay_async_body(s));
}

fkc_status fkc_stream_replay(fkc_stream *s)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_replay", replay_body(s));
}

fkc_status fkc_stream_advance(fkc_stream *s, fkc_buffer *position, uint64_t offset, uint64_t delta)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_advance", advance_body(s, position, offset, delta));
}

fkc_status fkc_stream_submit_async(fkc_stream *s)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_submit_async", submit_async_body(s));
}

fkc_status fkc_stream_submit(fkc_stream *s)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_submit", submit_body(s));
}

fkc_status fkc_stream_submit_vulkan(fkc_stream *s, const fkc_vulkan_submit *x)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_submit_vulkan", submit_vulkan_body(s, x));
}

fkc_status fkc_stream_upload(fkc_stream *s, fkc_buffer *b, uint64_t offset, const void *data,
                             uint64_t size)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_upload", upload_body(s, b, offset, data, size));
}

fkc_status fkc_stream_download(fkc_stream *s, const fkc_buffer *b, uint64_t offset, void *data,
                               uint64_t size)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_download", download_body(s, b, offset, data, size));
}

fkc_status fkc_stream_copy(fkc_stream *s, fkc_buffer *dst, uint64_t dst_offset,
                           const fkc_buffer *src, uint64_t src_offset, uint64_t size)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_copy", copy_body(s, dst, dst_offset, src, src_offset, size));
}

fkc_status fkc_stream_vulkan_barrier_in(fkc_stream *s, VkPipelineStageFlags src_stages,
                                        VkAccessFlags src_access)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_vulkan_barrier_in",
                       vulkan_barrier_in_body(s, src_stages, src_access));
}

fkc_status fkc_stream_vulkan_barrier_out(fkc_stream *s, VkPipelineStageFlags dst_stages,
                                         VkAccessFlags dst_access)
{
    FKC_STREAM_GUARDED(s, "fkc_stream_vulkan_barrier_out",
                       vulkan_barrier_out_body(s, dst_stages, dst_access));
}
