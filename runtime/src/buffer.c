/* buffer.c — device-local buffers and the synchronous host copies: uploads go through a
 * host-visible staging buffer, downloads through host-cached memory, both in chunks of
 * FKC_STAGING_BYTES, each chunk one recorded copy waited on with the context's fence. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Creates a VkBuffer + memory with the wanted properties (the first type offering `want`,
 * else `fallback`). */
static fkc_status make_buffer(fkc_context *ctx, uint64_t size, VkBufferUsageFlags usage,
                              VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback,
                              VkBuffer *buf, VkDeviceMemory *mem, bool *coherent)
{
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = vkCreateBuffer(ctx->device, &bi, NULL, buf);
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx->device, *buf, &req);
    int type = fkc_memory_type(ctx, req.memoryTypeBits, want);
    if (type < 0)
        type = fkc_memory_type(ctx, req.memoryTypeBits, fallback);
    if (type < 0) {
        vkDestroyBuffer(ctx->device, *buf, NULL);
        *buf = VK_NULL_HANDLE;
        return fkc_fail(FKC_ERR_UNSUPPORTED, "no suitable Vulkan memory type");
    }
    if (coherent)
        *coherent = ctx->mem.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = (uint32_t)type};
    if ((r = vkAllocateMemory(ctx->device, &ai, NULL, mem)) == VK_SUCCESS &&
        (r = vkBindBufferMemory(ctx->device, *buf, *mem, 0)) == VK_SUCCESS)
        return FKC_OK;
    if (*mem)
        vkFreeMemory(ctx->device, *mem, NULL);
    vkDestroyBuffer(ctx->device, *buf, NULL);
    *buf = VK_NULL_HANDLE;
    *mem = VK_NULL_HANDLE;
    return fkc_vk_fail(r, "allocating buffer memory");
}

fkc_status fkc_buffer_create(fkc_context *ctx, uint64_t size, fkc_buffer **out)
{
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_buffer_create: out is NULL");
    *out = NULL;
    if (!ctx || size == 0)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_buffer_create: %s",
                        ctx ? "size is 0" : "context is NULL");
    if (size > UINT64_MAX - 16)
        return fkc_fail(FKC_ERR_OVERFLOW, "buffer size %llu", (unsigned long long)size);
    if (ctx->max_allocation && ((size + 15) & ~(uint64_t)15) > ctx->max_allocation)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "a %llu-byte buffer exceeds the device's "
                        "largest allocation (%llu bytes)", (unsigned long long)size,
                        (unsigned long long)ctx->max_allocation);
    fkc_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a buffer handle");
    b->ctx = ctx;
    b->size = size;
    b->vk_size = (size + 15) & ~(uint64_t)15;
    fkc_status st = make_buffer(ctx, b->vk_size,
                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &b->buffer, &b->memory,
                                NULL);
    if (st != FKC_OK) {
        free(b);
        return st;
    }
    *out = b;
    return FKC_OK;
}

void fkc_buffer_destroy(fkc_buffer *b)
{
    if (!b)
        return;
    vkDestroyBuffer(b->ctx->device, b->buffer, NULL);
    vkFreeMemory(b->ctx->device, b->memory, NULL);
    free(b);
}

uint64_t fkc_buffer_size(const fkc_buffer *b)
{
    return b ? b->size : 0;
}

fkc_context *fkc_buffer_context(const fkc_buffer *b)
{
    return b ? b->ctx : NULL;
}

/* Lazily creates one staging buffer (up: write-combined, down: host-cached) and maps it. */
static fkc_status staging(fkc_context *ctx, bool down)
{
    VkBuffer *buf = down ? &ctx->stage_down : &ctx->stage_up;
    VkDeviceMemory *mem = down ? &ctx->stage_down_mem : &ctx->stage_up_mem;
    void **map = down ? &ctx->stage_down_map : &ctx->stage_up_map;
    if (*buf)
        return FKC_OK;
    VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    bool coherent = true;
    fkc_status st = make_buffer(
        ctx, FKC_STAGING_BYTES, down ? VK_BUFFER_USAGE_TRANSFER_DST_BIT : VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
        host | (down ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : VK_MEMORY_PROPERTY_HOST_COHERENT_BIT),
        host | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, buf, mem, &coherent);
    if (st != FKC_OK)
        return st;
    if (down)
        ctx->stage_down_coherent = coherent;
    VkResult r = vkMapMemory(ctx->device, *mem, 0, VK_WHOLE_SIZE, 0, map);
    if (r != VK_SUCCESS) { /* undo, so that the next call tries again instead of using no map */
        vkDestroyBuffer(ctx->device, *buf, NULL);
        vkFreeMemory(ctx->device, *mem, NULL);
        *buf = VK_NULL_HANDLE;
        *mem = VK_NULL_HANDLE;
        *map = NULL;
        return fkc_vk_fail(r, "vkMapMemory");
    }
    return FKC_OK;
}

void fkc_staging_destroy(fkc_context *ctx)
{
    if (ctx->stage_up) {
        vkDestroyBuffer(ctx->device, ctx->stage_up, NULL);
        vkFreeMemory(ctx->device, ctx->stage_up_mem, NULL);
    }
    if (ctx->stage_down) {
        vkDestroyBuffer(ctx->device, ctx->stage_down, NULL);
        vkFreeMemory(ctx->device, ctx->stage_down_mem, NULL);
    }
}

/* One synchronous copy on the context's transfer command buffer, fenced with barriers so
 * that earlier submissions' writes are visible and the result is visible to the host. */
static fkc_status copy_and_wait(fkc_context *ctx, VkBuffer dst, uint64_t dst_off, VkBuffer src,
                                uint64_t src_off, uint64_t size)
{
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkResult r = vkBeginCommandBuffer(ctx->xfer_cmd, &bi);
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkBeginCommandBuffer");
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
                                           VK_ACCESS_TRANSFER_WRITE_BIT};
    vkCmdPipelineBarrier(ctx->xfer_cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
    VkBufferCopy region = {.srcOffset = src_off, .dstOffset = dst_off, .size = size};
    vkCmdCopyBuffer(ctx->xfer_cmd, src, dst, 1, &region);
    VkMemoryBarrier after = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                             .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                             .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_MEMORY_READ_BIT |
                                              VK_ACCESS_MEMORY_WRITE_BIT};
    vkCmdPipelineBarrier(ctx->xfer_cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                         &after, 0, NULL, 0, NULL);
    if ((r = vkEndCommandBuffer(ctx->xfer_cmd)) != VK_SUCCESS)
        return fkc_vk_fail(r, "vkEndCommandBuffer");
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &ctx->xfer_cmd};
    if ((r = vkQueueSubmit(ctx->queue, 1, &si, ctx->xfer_fence)) != VK_SUCCESS)
        return fkc_vk_fail(r, "vkQueueSubmit");
    r = vkWaitForFences(ctx->device, 1, &ctx->xfer_fence, VK_TRUE, UINT64_MAX);
    vkResetFences(ctx->device, 1, &ctx->xfer_fence);
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkWaitForFences");
    return FKC_OK;
}

static fkc_status check_range(const fkc_buffer *b, uint64_t offset, const void *data,
                              uint64_t size, const char *what)
{
    if (!b)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: buffer is NULL", what);
    if (size && !data)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: data is NULL", what);
    if (offset > b->size || size > b->size - offset)
        return fkc_fail(FKC_ERR_OUT_OF_BOUNDS, "%s: bytes [%llu, +%llu) are outside the "
                        "%llu-byte buffer", what, (unsigned long long)offset,
                        (unsigned long long)size, (unsigned long long)b->size);
    return FKC_OK;
}

fkc_status fkc_buffer_upload(fkc_buffer *b, uint64_t offset, const void *data, uint64_t size)
{
    fkc_status st = check_range(b, offset, data, size, "fkc_buffer_upload");
    if (st != FKC_OK || size == 0 || (st = staging(b->ctx, false)) != FKC_OK)
        return st;
    for (uint64_t done = 0; done < size;) {
        uint64_t n = size - done < FKC_STAGING_BYTES ? size - done : FKC_STAGING_BYTES;
        memcpy(b->ctx->stage_up_map, (const unsigned char *)data + done, n);
        st = copy_and_wait(b->ctx, b->buffer, offset + done, b->ctx->stage_up, 0, n);
        if (st != FKC_OK)
            return st;
        done += n;
    }
    return FKC_OK;
}

fkc_status fkc_buffer_download(const fkc_buffer *b, uint64_t offset, void *data, uint64_t size)
{
    fkc_status st = check_range(b, offset, data, size, "fkc_buffer_download");
    if (st != FKC_OK || size == 0 || (st = staging(b->ctx, true)) != FKC_OK)
        return st;
    fkc_context *ctx = b->ctx;
    for (uint64_t done = 0; done < size;) {
        uint64_t n = size - done < FKC_STAGING_BYTES ? size - done : FKC_STAGING_BYTES;
        st = copy_and_wait(ctx, ctx->stage_down, 0, b->buffer, offset + done, n);
        if (st != FKC_OK)
            return st;
        if (!ctx->stage_down_coherent) {
            VkMappedMemoryRange mr = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
                                      .memory = ctx->stage_down_mem,
                                      .size = VK_WHOLE_SIZE};
            VkResult r = vkInvalidateMappedMemoryRanges(ctx->device, 1, &mr);
            if (r != VK_SUCCESS)
                return fkc_vk_fail(r, "vkInvalidateMappedMemoryRanges");
        }
        memcpy((unsigned char *)data + done, ctx->stage_down_map, n);
        done += n;
    }
    return FKC_OK;
}
