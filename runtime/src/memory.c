/* memory.c — device memory for fkc's own buffers. Small buffers are ranges of large blocks (one
 * vkAllocateMemory and one VkBuffer per block; Vulkan guarantees only 4,096 live allocations),
 * each range aligned for storage windows (max(16, minStorageBufferOffsetAlignment)); a block
 * keeps its free ranges sorted and coalesced, and an empty block is released unless it is the
 * last one. Large buffers get an allocation of their own. Thread-safe (one mutex). */
#include "context.h"
#include "buffer.h"
#include "memory.h"

#include <stdlib.h>
#include <string.h>

void fkc_memory_hooks(fkc_context *ctx, const fkc_vulkan_hooks *hooks)
{
    fkc_memory *m = &ctx->memory;
    pthread_mutex_init(&m->alloc_lock, NULL);
    if (!hooks)
        return;
    ctx->on_allocate = hooks->on_allocate;
    ctx->on_free = hooks->on_free;
    ctx->memory_user = hooks->memory_user;
    for (uint32_t i = 0; hooks->heap_limit && i < hooks->heap_limit_count; i++) {
        VkDeviceSize l = hooks->heap_limit[i];
        m->heap_limit[i] = l == VK_WHOLE_SIZE ? 0 : l;
        m->budget = m->budget || m->heap_limit[i];
    }
}

/* Reserves `size` bytes of heap `heap` under the budget; false when they do not fit. */
static bool reserve(fkc_memory *m, uint32_t heap, uint64_t size)
{
    uint64_t limit = m->heap_limit[heap], used = m->heap_used[heap];
    if (limit && (size > limit || used > limit - size))
        return false;
    m->heap_used[heap] = used + size;
    return true;
}

fkc_status fkc_memory_allocate(fkc_context *ctx, const VkMemoryAllocateInfo *ai,
                               VkDeviceMemory *out, const char *what)
{
    fkc_memory *m = &ctx->memory;
    uint32_t type = ai->memoryTypeIndex, heap = ctx->mem.memoryTypes[type].heapIndex;
    uint64_t size = ai->allocationSize;
    *out = VK_NULL_HANDLE;
    pthread_mutex_lock(&m->alloc_lock);
    /* the entry is reserved now (n_reserved): threads allocating at once between the two locked
     * parts each have theirs, so the list never overflows */
    bool room = m->n_allocs + m->n_reserved < m->cap_allocs;
    if (!room) {
        uint32_t cap = m->cap_allocs ? 2 * m->cap_allocs : 16;
        fkc_allocation *a = realloc(m->allocs, cap * sizeof *a);
        if (a) {
            m->allocs = a;
            m->cap_allocs = cap;
            room = true;
        }
    }
    bool fits = room && reserve(m, heap, size);
    if (fits)
        m->n_reserved++;
    uint64_t used = m->heap_used[heap], limit = m->heap_limit[heap];
    pthread_mutex_unlock(&m->alloc_lock);
    if (!room)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "%s: allocating the allocation list", what);
    if (!fits)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY,
                        "%s: %llu bytes of memory heap %u would exceed its budget of %llu bytes "
                        "(%llu allocated by fkc)",
                        what, (unsigned long long)size, heap, (unsigned long long)limit,
                        (unsigned long long)used);
    VkResult r = ctx->vk.vkAllocateMemory(ctx->device, ai, ctx->alloc, out);
    pthread_mutex_lock(&m->alloc_lock);
    m->n_reserved--;
    if (r == VK_SUCCESS)
        m->allocs[m->n_allocs++] = (fkc_allocation){*out, size, type, heap};
    else
        m->heap_used[heap] -= size;
    pthread_mutex_unlock(&m->alloc_lock);
    if (r != VK_SUCCESS) {
        *out = VK_NULL_HANDLE;
        return fkc_vk_fail(r, what);
    }
    if (ctx->on_allocate)
        ctx->on_allocate(ctx->memory_user, type, *out, size);
    return FKC_OK;
}

void fkc_memory_release(fkc_context *ctx, VkDeviceMemory memory)
{
    fkc_memory *m = &ctx->memory;
    fkc_allocation a = {VK_NULL_HANDLE, 0, 0, 0};
    if (!memory)
        return;
    pthread_mutex_lock(&m->alloc_lock);
    for (uint32_t i = 0; i < m->n_allocs; i++)
        if (m->allocs[i].memory == memory) {
            a = m->allocs[i];
            m->allocs[i] = m->allocs[--m->n_allocs];
            m->heap_used[a.heap] -= a.size;
            break;
        }
    pthread_mutex_unlock(&m->alloc_lock);
    if (ctx->on_free && a.memory)
        ctx->on_free(ctx->memory_user, a.type, memory, a.size);
    ctx->vk.vkFreeMemory(ctx->device, memory, ctx->alloc);
}

uint64_t fkc_context_vulkan_heap_used(const fkc_context *ctx, uint32_t heap)
{
    if (!ctx || heap >= VK_MAX_MEMORY_HEAPS)
        return 0;
    fkc_memory *m = (fkc_memory *)&ctx->memory;
    pthread_mutex_lock(&m->alloc_lock);
    uint64_t used = m->heap_used[heap];
    pthread_mutex_unlock(&m->alloc_lock);
    return used;
}

/* Finds a memory type with all `want` flags among `bits`; -1 when none. */
static int memory_type(const fkc_context *ctx, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < ctx->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (ctx->mem.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

fkc_status fkc_memory_dedicated(fkc_context *ctx, uint64_t size, VkBufferUsageFlags usage,
                                VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback,
                                VkBuffer *buf, VkDeviceMemory *mem, bool *coherent)
{
    const fkc_vk *vk = &ctx->vk;
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    *mem = VK_NULL_HANDLE;
    VkResult r = vk->vkCreateBuffer(ctx->device, &bi, ctx->alloc, buf);
    if (r != VK_SUCCESS) {
        *buf = VK_NULL_HANDLE;
        return fkc_vk_fail(r, "vkCreateBuffer");
    }
    VkMemoryRequirements req;
    vk->vkGetBufferMemoryRequirements(ctx->device, *buf, &req);
    int type = memory_type(ctx, req.memoryTypeBits, want);
    if (type < 0)
        type = memory_type(ctx, req.memoryTypeBits, fallback);
    if (type < 0) {
        vk->vkDestroyBuffer(ctx->device, *buf, ctx->alloc);
        *buf = VK_NULL_HANDLE;
        return fkc_fail(FKC_ERR_UNSUPPORTED, "no suitable Vulkan memory type");
    }
    if (coherent)
        *coherent = ctx->mem.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = (uint32_t)type};
    fkc_status st = fkc_memory_allocate(ctx, &ai, mem, "allocating buffer memory");
    if (st == FKC_OK && (r = vk->vkBindBufferMemory(ctx->device, *buf, *mem, 0)) == VK_SUCCESS)
        return FKC_OK;
    if (st == FKC_OK)
        st = fkc_vk_fail(r, "vkBindBufferMemory");
    fkc_memory_release(ctx, *mem);
    vk->vkDestroyBuffer(ctx->device, *buf, ctx->alloc);
    *buf = VK_NULL_HANDLE;
    *mem = VK_NULL_HANDLE;
    return st;
}

fkc_status fkc_memory_init(fkc_context *ctx, uint64_t block_bytes)
{
    fkc_memory *m = &ctx->memory;
    pthread_mutex_init(&m->lock, NULL);
    m->usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    m->align = ctx->offset_align;
    /* memoryTypeBits is the same for every buffer of one usage: probe it once */
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = 16,
                             .usage = m->usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkBuffer probe;
    VkResult r = ctx->vk.vkCreateBuffer(ctx->device, &bi, ctx->alloc, &probe);
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkCreateBuffer");
    VkMemoryRequirements req;
    ctx->vk.vkGetBufferMemoryRequirements(ctx->device, probe, &req);
    ctx->vk.vkDestroyBuffer(ctx->device, probe, ctx->alloc);
    m->type_bits = req.memoryTypeBits;
    /* Blocks: FKC_BLOCK_BYTES, at most an eighth of the heap and the largest allocation. */
    uint64_t block = block_bytes ? block_bytes : FKC_BLOCK_BYTES;
    int type = memory_type(ctx, m->type_bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0)
        type = memory_type(ctx, m->type_bits, 0);
    if (type >= 0 && !block_bytes) {
        uint64_t heap = ctx->mem.memoryHeaps[ctx->mem.memoryTypes[type].heapIndex].size;
        while (block > (1u << 20) && block > heap / 8)
            block /= 2;
    }
    if (ctx->max_allocation && block > ctx->max_allocation)
        block = ctx->max_allocation & ~(uint64_t)15;
    m->block_bytes = block;
    m->dedicated_bytes = block / 4 < FKC_DEDICATED_BYTES ? block / 4 : FKC_DEDICATED_BYTES;
    return FKC_OK;
}

static void block_free(fkc_context *ctx, fkc_block *b)
{
    ctx->vk.vkDestroyBuffer(ctx->device, b->buffer, ctx->alloc);
    fkc_memory_release(ctx, b->memory);
    free(b->free);
    free(b);
}

void fkc_memory_destroy(fkc_context *ctx)
{
    fkc_memory *m = &ctx->memory;
    if (m->usage) { /* initialised */
        while (m->blocks) {
            fkc_block *b = m->blocks;
            m->blocks = b->next;
            block_free(ctx, b);
        }
        pthread_mutex_destroy(&m->lock);
    }
    free(m->allocs);
    m->allocs = NULL;
    pthread_mutex_destroy(&m->alloc_lock);
}

/* A new block of `size` bytes with one free range over all of it. */
static fkc_status block_new(fkc_context *ctx, uint64_t size, fkc_block **out)
{
    fkc_block *b = calloc(1, sizeof *b);
    if (!b || !(b->free = malloc(4 * sizeof *b->free))) {
        free(b);
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating a memory block's bookkeeping");
    }
    fkc_status st = fkc_memory_dedicated(ctx, size, ctx->memory.usage,
                                         VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &b->buffer,
                                         &b->memory, NULL);
    if (st != FKC_OK) {
        free(b->free);
        free(b);
        return st;
    }
    b->size = size;
    b->cap_free = 4;
    b->n_free = 1;
    b->free[0] = (fkc_range){0, size};
    *out = b;
    return FKC_OK;
}

/* Room for one more free range. */
static bool grow(fkc_block *b)
{
    if (b->n_free < b->cap_free)
        return true;
    fkc_range *f = realloc(b->free, 2 * b->cap_free * sizeof *f);
    if (!f)
        return false;
    b->free = f;
    b->cap_free *= 2;
    return true;
}

/* First fit: carves an aligned range of `size` bytes out of a free range; false when none
 * fits (or the bookkeeping cannot grow). */
static bool carve(fkc_block *b, uint64_t size, uint64_t align, uint64_t *offset)
{
    for (uint32_t i = 0; i < b->n_free; i++) {
        fkc_range r = b->free[i];
        uint64_t at = (r.offset + align - 1) & ~(align - 1);
        if (at < r.offset || at - r.offset > r.size || size > r.size - (at - r.offset))
            continue;
        uint64_t head = at - r.offset, tail = r.size - head - size;
        if (head && tail) { /* one range becomes two */
            if (!grow(b))
                return false;
            memmove(&b->free[i + 2], &b->free[i + 1], (b->n_free - i - 1) * sizeof *b->free);
            b->n_free++;
            b->free[i] = (fkc_range){r.offset, head};
            b->free[i + 1] = (fkc_range){at + size, tail};
        } else if (head || tail) {
            b->free[i] = head ? (fkc_range){r.offset, head} : (fkc_range){at + size, tail};
        } else {
            memmove(&b->free[i], &b->free[i + 1], (b->n_free - i - 1) * sizeof *b->free);
            b->n_free--;
        }
        *offset = at;
        return true;
    }
    return false;
}

/* Returns [offset, offset + size) to the block, merging it with its free neighbours; false
 * when the bookkeeping cannot grow (the range is then lost until the block is freed). */
static bool give_back(fkc_block *b, uint64_t offset, uint64_t size)
{
    uint32_t lo = 0, hi = b->n_free; /* the first free range after offset */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (b->free[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    bool join_prev = lo > 0 && b->free[lo - 1].offset + b->free[lo - 1].size == offset;
    bool join_next = lo < b->n_free && offset + size == b->free[lo].offset;
    if (join_prev && join_next) {
        b->free[lo - 1].size += size + b->free[lo].size;
        memmove(&b->free[lo], &b->free[lo + 1], (b->n_free - lo - 1) * sizeof *b->free);
        b->n_free--;
    } else if (join_prev) {
        b->free[lo - 1].size += size;
    } else if (join_next) {
        b->free[lo].offset = offset;
        b->free[lo].size += size;
    } else {
        if (!grow(b))
            return false;
        memmove(&b->free[lo + 1], &b->free[lo], (b->n_free - lo) * sizeof *b->free);
        b->free[lo] = (fkc_range){offset, size};
        b->n_free++;
    }
    return true;
}

fkc_status fkc_memory_alloc(fkc_context *ctx, uint64_t size, fkc_buffer *b)
{
    fkc_memory *m = &ctx->memory;
    if (size >= m->dedicated_bytes)
        return fkc_memory_dedicated(ctx, size, m->usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0,
                                    &b->buffer, &b->memory, NULL);
    fkc_status st = FKC_OK;
    uint64_t at = 0;
    pthread_mutex_lock(&m->lock);
    fkc_block *blk = m->blocks;
    while (blk && !carve(blk, size, m->align, &at))
        blk = blk->next;
    if (!blk && (st = block_new(ctx, m->block_bytes, &blk)) == FKC_OK) {
        blk->next = m->blocks;
        m->blocks = blk;
        if (!carve(blk, size, m->align, &at)) /* cannot happen: size < block / 4 */
            st = fkc_fail(FKC_ERR_OUT_OF_MEMORY, "a %llu-byte buffer does not fit a new block",
                          (unsigned long long)size);
    }
    if (!blk && st == FKC_ERR_OUT_OF_MEMORY && m->budget) { /* a block over budget: its own */
        pthread_mutex_unlock(&m->lock);
        return fkc_memory_dedicated(ctx, size, m->usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0,
                                    &b->buffer, &b->memory, NULL);
    }
    if (st == FKC_OK) {
        b->block = blk;
        b->buffer = blk->buffer;
        b->base = at;
    }
    pthread_mutex_unlock(&m->lock);
    return st;
}

void fkc_memory_free(fkc_context *ctx, fkc_buffer *b)
{
    fkc_memory *m = &ctx->memory;
    if (!b->block) {
        if (b->buffer)
            ctx->vk.vkDestroyBuffer(ctx->device, b->buffer, ctx->alloc);
        fkc_memory_release(ctx, b->memory);
        return;
    }
    fkc_block *blk = b->block, *dead = NULL;
    pthread_mutex_lock(&m->lock);
    give_back(blk, b->base, b->vk_size);
    bool empty = blk->n_free == 1 && blk->free[0].size == blk->size;
    if (empty && (m->blocks != blk || blk->next)) { /* keep the last block for the next buffer */
        fkc_block **p = &m->blocks;
        while (*p != blk)
            p = &(*p)->next;
        *p = blk->next;
        dead = blk;
    }
    pthread_mutex_unlock(&m->lock);
    if (dead)
        block_free(ctx, dead);
}

#ifdef FKC_TEST_HOOKS
uint32_t fkc_memory_block_count(fkc_context *ctx)
{
    uint32_t n = 0;
    pthread_mutex_lock(&ctx->memory.lock);
    for (const fkc_block *b = ctx->memory.blocks; b; b = b->next)
        n++;
    pthread_mutex_unlock(&ctx->memory.lock);
    return n;
}
#endif
