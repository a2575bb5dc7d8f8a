/* buffer.c — fkc buffers: fkc's own (a range of a memory block, or a dedicated allocation:
 * memory.c) and the host's (a VkBuffer range, borrowed), and the synchronous host copies. A
 * synchronous copy takes a stream of the context's pool and records, submits and waits for one
 * staged copy of at most FKC_STAGING_BYTES at a time, so copies from several threads never
 * share a command buffer, fence or staging buffer. */
#include "context.h"
#include "buffer.h"
#include "memory.h"
#include "stream.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY,
                        "a %llu-byte buffer exceeds the device's "
                        "largest allocation (%llu bytes)",
                        (unsigned long long)size, (unsigned long long)ctx->max_allocation);
    fkc_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a buffer handle");
    b->ctx = ctx;
    b->size = size;
    b->vk_size = (size + 15) & ~(uint64_t)15;
    fkc_status st = fkc_memory_alloc(ctx, b->vk_size, b);
    if (st != FKC_OK) {
        free(b);
        return st;
    }
    fkc_context_retain(ctx);
    *out = b;
    return FKC_OK;
}

/* The usage bits fkc needs that `usage` lacks, named. */
static const char *missing_usage(VkBufferUsageFlags usage)
{
    if (!(usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT))
        return "VK_BUFFER_USAGE_STORAGE_BUFFER_BIT";
    if (!(usage & VK_BUFFER_USAGE_TRANSFER_SRC_BIT))
        return "VK_BUFFER_USAGE_TRANSFER_SRC_BIT";
    if (!(usage & VK_BUFFER_USAGE_TRANSFER_DST_BIT))
        return "VK_BUFFER_USAGE_TRANSFER_DST_BIT";
    return NULL;
}

/* Wraps [offset, offset + size) of the host's VkBuffer, which holds buffer_size bytes (stated
 * by the host, or what vkGetBufferMemoryRequirements reports for it: exact = false). */
static fkc_status wrap(fkc_context *ctx, VkBuffer buffer, VkDeviceSize buffer_size, bool exact,
                       VkDeviceSize offset, VkDeviceSize size, VkBufferUsageFlags usage,
                       fkc_buffer **out, const char *what)
{
    const char *lacks = missing_usage(usage);
    if (lacks)
        return fkc_fail(FKC_ERR_UNSUPPORTED,
                        "%s: the buffer's usage lacks %s (fkc needs "
                        "FKC_VULKAN_BUFFER_USAGE)",
                        what, lacks);
    if (offset % ctx->offset_align != 0)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: offset %" PRIu64 " is not a multiple of "
                        "%" PRIu64 " (fkc_vulkan_buffer_alignment)",
                        what, (uint64_t)offset, ctx->offset_align);
    if (size == 0 || size % 16 != 0 || offset > UINT64_MAX - size)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: size %" PRIu64 " is not a non-zero "
                        "multiple of 16",
                        what, (uint64_t)size);
    if (offset > buffer_size || size > buffer_size - offset)
        return fkc_fail(FKC_ERR_OUT_OF_BOUNDS,
                        "%s: bytes [%" PRIu64 ", %" PRIu64 ") are outside the %" PRIu64
                        "-byte VkBuffer%s",
                        what, (uint64_t)offset, (uint64_t)(offset + size), (uint64_t)buffer_size,
                        exact ? "" : " (its size as vkGetBufferMemoryRequirements reports it)");
    fkc_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a buffer handle");
    *b = (fkc_buffer){.ctx = ctx,
                      .buffer = buffer,
                      .base = offset,
                      .size = size,
                      .vk_size = size,
                      .borrowed = true};
    fkc_context_retain(ctx);
    *out = b;
    return FKC_OK;
}

fkc_status fkc_buffer_wrap_vulkan(fkc_context *ctx, VkBuffer buffer, VkDeviceSize offset,
                                  VkDeviceSize size, VkBufferUsageFlags usage, fkc_buffer **out)
{
    const char *what = "fkc_buffer_wrap_vulkan";
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: out is NULL", what);
    *out = NULL;
    if (!ctx || !buffer)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: %s is NULL", what,
                        ctx ? "the VkBuffer" : "the context");
    VkMemoryRequirements mr;
    memset(&mr, 0, sizeof mr);
    ctx->vk.vkGetBufferMemoryRequirements(ctx->device, buffer, &mr);
    return wrap(ctx, buffer, mr.size, false, offset, size, usage, out, what);
}

fkc_status fkc_buffer_wrap_vulkan_sized(fkc_context *ctx, VkBuffer buffer, VkDeviceSize buffer_size,
                                        VkDeviceSize offset, VkDeviceSize size,
                                        VkBufferUsageFlags usage, fkc_buffer **out)
{
    const char *what = "fkc_buffer_wrap_vulkan_sized";
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: out is NULL", what);
    *out = NULL;
    if (!ctx || !buffer)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: %s is NULL", what,
                        ctx ? "the VkBuffer" : "the context");
    return wrap(ctx, buffer, buffer_size, true, offset, size, usage, out, what);
}

uint64_t fkc_vulkan_buffer_alignment(const fkc_context *ctx)
{
    return ctx ? ctx->offset_align : 0;
}

fkc_status fkc_buffer_vulkan(const fkc_buffer *b, VkBuffer *buffer, VkDeviceSize *offset,
                             VkDeviceSize *size)
{
    if (!b)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_buffer_vulkan: buffer is NULL");
    if (buffer)
        *buffer = b->buffer;
    if (offset)
        *offset = b->base;
    if (size)
        *size = b->size;
    return FKC_OK;
}

void fkc_buffer_destroy(fkc_buffer *b)
{
    if (!b)
        return;
    fkc_context *ctx = b->ctx;
    fkc_debug_lifetime_wait(ctx);
    if (!b->borrowed)
        fkc_memory_free(ctx, b);
    free(b);
    fkc_context_release(ctx);
}

uint64_t fkc_buffer_size(const fkc_buffer *b)
{
    return b ? b->size : 0;
}

fkc_context *fkc_buffer_context(const fkc_buffer *b)
{
    return b ? b->ctx : NULL;
}

bool fkc_buffer_borrowed(const fkc_buffer *b)
{
    return b && b->borrowed;
}

/* Synchronous copies: one pooled stream, a staged copy per FKC_STAGING_BYTES, each waited for. */
static fkc_status copy_sync(const fkc_buffer *b, uint64_t offset, void *down, const void *up,
                            uint64_t size)
{
    fkc_stream *s;
    fkc_status st = fkc_stream_take(b->ctx, &s);
    if (st != FKC_OK)
        return st;
    for (uint64_t done = 0; done < size && st == FKC_OK;) {
        uint64_t n = size - done < FKC_STAGING_BYTES ? size - done : FKC_STAGING_BYTES;
        st = fkc_stream_begin(s);
        if (st == FKC_OK)
            st = up ? fkc_stream_upload(s, (fkc_buffer *)b, offset + done,
                                        (const unsigned char *)up + done, n)
                    : fkc_stream_download(s, b, offset + done, (unsigned char *)down + done, n);
        if (st == FKC_OK)
            st = fkc_stream_submit(s);
        done += n;
    }
    if (st != FKC_OK)
        fkc_stream_begin(s); /* drop whatever is left recorded; the message stays */
    fkc_stream_give(s);
    return st;
}

static fkc_status check_range(const fkc_buffer *b, uint64_t offset, const void *data, uint64_t size,
                              const char *what)
{
    if (!b)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: buffer is NULL", what);
    if (size && !data)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: data is NULL", what);
    if (offset > b->size || size > b->size - offset)
        return fkc_fail(FKC_ERR_OUT_OF_BOUNDS,
                        "%s: bytes [%llu, +%llu) are outside the "
                        "%llu-byte buffer",
                        what, (unsigned long long)offset, (unsigned long long)size,
                        (unsigned long long)b->size);
    return FKC_OK;
}

fkc_status fkc_buffer_upload(fkc_buffer *b, uint64_t offset, const void *data, uint64_t size)
{
    fkc_status st = check_range(b, offset, data, size, "fkc_buffer_upload");
    if (st != FKC_OK || size == 0)
        return st;
    return copy_sync(b, offset, NULL, data, size);
}

fkc_status fkc_buffer_download(const fkc_buffer *b, uint64_t offset, void *data, uint64_t size)
{
    fkc_status st = check_range(b, offset, data, size, "fkc_buffer_download");
    if (st != FKC_OK || size == 0)
        return st;
    return copy_sync(b, offset, data, NULL, size);
}
