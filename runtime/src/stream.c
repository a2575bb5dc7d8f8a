/* stream.c — command streams: ops are recorded into one command buffer and submitted together
 * (one submit + one fence wait for many ops). Ops are ordered by full compute/transfer memory
 * barriers, recorded lazily only when something was written since the last one. */
#include "internal.h"

#include <stdlib.h>

fkc_status fkc_stream_create(fkc_context *ctx, fkc_stream **out)
{
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_create: out is NULL");
    *out = NULL;
    if (!ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_create: context is NULL");
    fkc_stream *s = calloc(1, sizeof *s);
    if (!s)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a stream");
    s->ctx = ctx;
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = ctx->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    VkResult r = vkAllocateCommandBuffers(ctx->device, &ai, &s->cmd);
    if (r != VK_SUCCESS) {
        free(s);
        return fkc_vk_fail(r, "vkAllocateCommandBuffers");
    }
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((r = vkCreateFence(ctx->device, &fi, NULL, &s->fence)) != VK_SUCCESS) {
        vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &s->cmd);
        free(s);
        return fkc_vk_fail(r, "vkCreateFence");
    }
    s->device_seconds = -1;
    if (ctx->timestamp_bits) { /* timing is a bonus: without a pool the stream still works */
        VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                    .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                    .queryCount = 2};
        if (vkCreateQueryPool(ctx->device, &qi, NULL, &s->timer) != VK_SUCCESS)
            s->timer = VK_NULL_HANDLE;
    }
    *out = s;
    return FKC_OK;
}

fkc_status fkc_context_one_shot(fkc_context *ctx, fkc_stream **out)
{
    if (!ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "one-shot call: context is NULL");
    if (!ctx->one_shot) {
        fkc_status st = fkc_stream_create(ctx, &ctx->one_shot);
        if (st != FKC_OK)
            return st;
        if (ctx->one_shot->timer) { /* nobody reads its time: no timestamps to wait for */
            vkDestroyQueryPool(ctx->device, ctx->one_shot->timer, NULL);
            ctx->one_shot->timer = VK_NULL_HANDLE;
        }
    }
    *out = ctx->one_shot;
    return FKC_OK;
}

void fkc_stream_destroy(fkc_stream *s)
{
    if (!s)
        return;
    if (s->recording)
        vkEndCommandBuffer(s->cmd);
    vkFreeCommandBuffers(s->ctx->device, s->ctx->pool, 1, &s->cmd);
    vkDestroyFence(s->ctx->device, s->fence, NULL);
    if (s->timer)
        vkDestroyQueryPool(s->ctx->device, s->timer, NULL);
    free(s);
}

/* A full memory barrier between everything recorded before and everything after. */
static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags src_access)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = src_access,
                          .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                           VK_ACCESS_TRANSFER_READ_BIT |
                                           VK_ACCESS_TRANSFER_WRITE_BIT};
    vkCmdPipelineBarrier(cmd, src,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         1, &mb, 0, NULL, 0, NULL);
}

fkc_status fkc_stream_begin(fkc_stream *s)
{
    if (!s)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_begin: stream is NULL");
    VkResult r = vkResetCommandBuffer(s->cmd, 0);
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkResetCommandBuffer");
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    if ((r = vkBeginCommandBuffer(s->cmd, &bi)) != VK_SUCCESS) {
        s->recording = false;
        return fkc_vk_fail(r, "vkBeginCommandBuffer");
    }
    /* Writes of earlier submissions (other streams, uploads) become visible to this one. */
    barrier(s->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT);
    if (s->timer) {
        vkCmdResetQueryPool(s->cmd, s->timer, 0, 2);
        vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s->timer, 0);
    }
    s->recording = true;
    s->ops = 0;
    s->commands = 0;
    s->dirty = false;
    s->rmw_pending = false;
    s->broken = false;
    return FKC_OK;
}

fkc_status fkc_stream_ensure(fkc_stream *s)
{
    return s->recording ? FKC_OK : fkc_stream_begin(s);
}

void fkc_stream_barrier(fkc_stream *s)
{
    if (!s->dirty)
        return;
    barrier(s->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    s->dirty = false;
    s->rmw_pending = false;
}

/* Device time between the two timestamps of the last submit (wrap-around safe). */
static void read_timer(fkc_stream *s)
{
    uint64_t t[2];
    if (!s->timer || vkGetQueryPoolResults(s->ctx->device, s->timer, 0, 2, sizeof t, t,
                                           sizeof t[0], VK_QUERY_RESULT_64_BIT |
                                               VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        return;
    uint32_t bits = s->ctx->timestamp_bits;
    uint64_t mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
    s->device_seconds = (double)((t[1] - t[0]) & mask) * s->ctx->timestamp_ns * 1e-9;
}

fkc_status fkc_stream_submit(fkc_stream *s)
{
    if (!s)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_submit: stream is NULL");
    if (!s->recording)
        return FKC_OK;
    s->recording = false;
    s->device_seconds = -1;
    if (s->timer)
        vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s->timer, 1);
    VkResult r = vkEndCommandBuffer(s->cmd);
    if (s->broken)
        return fkc_fail(FKC_ERR_STATE, "fkc_stream_submit: an op failed half-way while being "
                        "recorded; nothing was submitted (begin the stream again)");
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkEndCommandBuffer");
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &s->cmd};
    if ((r = vkQueueSubmit(s->ctx->queue, 1, &si, s->fence)) != VK_SUCCESS)
        return fkc_vk_fail(r, "vkQueueSubmit");
    r = vkWaitForFences(s->ctx->device, 1, &s->fence, VK_TRUE, UINT64_MAX);
    vkResetFences(s->ctx->device, 1, &s->fence);
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkWaitForFences");
    read_timer(s);
    return FKC_OK;
}

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
    return s ? s->commands : 0;
}

fkc_context *fkc_stream_context(const fkc_stream *s)
{
    return s ? s->ctx : NULL;
}

fkc_status fkc_stream_copy(fkc_stream *s, fkc_buffer *dst, uint64_t dst_offset,
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
    if (src == dst && src_offset < dst_offset + size && dst_offset < src_offset + size)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_stream_copy: ranges overlap");
    fkc_status st = fkc_stream_ensure(s);
    if (st != FKC_OK)
        return st;
    fkc_stream_barrier(s);
    s->ops++;
    if (size == 0)
        return FKC_OK;
    VkBufferCopy region = {.srcOffset = src_offset, .dstOffset = dst_offset, .size = size};
    vkCmdCopyBuffer(s->cmd, src->buffer, dst->buffer, 1, &region);
    s->commands++;
    s->dirty = true;
    return FKC_OK;
}
