/* memory.h — memory.c: device-memory blocks shared by small buffers, the context's
 * allocations and their budget. */
#ifndef FKC_MEMORY_H
#define FKC_MEMORY_H

#include "common.h"

/* ---- memory.c: device-memory blocks shared by small buffers ---- */
typedef struct fkc_range {
    uint64_t offset, size;
} fkc_range;

typedef struct fkc_block {
    VkDeviceMemory memory;
    VkBuffer buffer; /* one VkBuffer over the whole block */
    uint64_t size;
    uint32_t type;   /* memory type index */
    fkc_range *free; /* free ranges, sorted by offset, never adjacent */
    uint32_t n_free, cap_free;
    struct fkc_block *next;
} fkc_block;

/* One vkAllocateMemory of the context: what the budget and on_free need to know of it. */
typedef struct fkc_allocation {
    VkDeviceMemory memory;
    uint64_t size;
    uint32_t type, heap;
} fkc_allocation;

typedef struct fkc_memory {
    pthread_mutex_t lock;
    fkc_block *blocks;
    uint64_t block_bytes;       /* size of a new block */
    uint64_t dedicated_bytes;   /* buffers this big get their own allocation */
    VkBufferUsageFlags usage;   /* of every device buffer */
    uint32_t type_bits;         /* memoryTypeBits of such a buffer (probed once) */
    uint64_t align;             /* sub-allocation alignment (storage windows) */
    pthread_mutex_t alloc_lock; /* the allocations below (taken inside `lock` too) */
    fkc_allocation *allocs;     /* every live vkAllocateMemory of the context */
    uint32_t n_allocs, cap_allocs;
    uint32_t n_reserved; /* list entries promised to allocations in progress (unlocked) */
    uint64_t heap_used[VK_MAX_MEMORY_HEAPS];  /* bytes allocated (and reserved) per heap */
    uint64_t heap_limit[VK_MAX_MEMORY_HEAPS]; /* the budget per heap (0: none) */
    bool budget;                              /* some heap has a limit */
} fkc_memory;

/* ---- memory.c ---- */
/* Sets the budget and callbacks of hooks (NULL: none) before anything is allocated. */
void fkc_memory_hooks(fkc_context *ctx, const fkc_vulkan_hooks *hooks);
fkc_status fkc_memory_init(fkc_context *ctx, uint64_t block_bytes);
/* vkAllocateMemory within the budget, with the host's callbacks (FKC_ERR_OUT_OF_MEMORY naming
 * the heap over budget; a Vulkan failure as fkc_vk_fail(`what`)), and its vkFreeMemory
 * (VK_NULL_HANDLE is a no-op). Every device allocation of the runtime goes through them. */
fkc_status fkc_memory_allocate(fkc_context *ctx, const VkMemoryAllocateInfo *ai,
                               VkDeviceMemory *out, const char *what);
void fkc_memory_release(fkc_context *ctx, VkDeviceMemory memory);
void fkc_memory_destroy(fkc_context *ctx);
/* A device-local range of `size` bytes (a multiple of 16) for b: a block's or dedicated. */
fkc_status fkc_memory_alloc(fkc_context *ctx, uint64_t size, fkc_buffer *b);
void fkc_memory_free(fkc_context *ctx, fkc_buffer *b);
/* A VkBuffer with its own memory of the wanted properties (the first type offering `want`,
 * else `fallback`); *coherent (may be NULL) says whether it is host-coherent. */
fkc_status fkc_memory_dedicated(fkc_context *ctx, uint64_t size, VkBufferUsageFlags usage,
                                VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback,
                                VkBuffer *buf, VkDeviceMemory *mem, bool *coherent);
/* Blocks (and their vkAllocateMemory calls) alive now, for the test hooks. */
uint32_t fkc_memory_block_count(fkc_context *ctx);

#endif /* FKC_MEMORY_H */
