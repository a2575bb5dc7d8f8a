/* buffer.h — buffer.c: struct fkc_buffer, fkc's buffers and the host's. */
#ifndef FKC_BUFFER_H
#define FKC_BUFFER_H

#include "memory.h"

struct fkc_buffer {
    fkc_context *ctx;
    VkBuffer buffer;       /* the VkBuffer holding it: a block's, its own, or the host's */
    uint64_t base;         /* offset of its byte 0 in `buffer`; every binding and copy adds it */
    uint64_t size;         /* what the caller asked for */
    uint64_t vk_size;      /* bytes from base fkc may touch: size rounded up to 16 */
    fkc_block *block;      /* sub-allocated from this block, or NULL */
    VkDeviceMemory memory; /* a dedicated allocation, or VK_NULL_HANDLE */
    bool borrowed;         /* the host's VkBuffer range */
};

#endif /* FKC_BUFFER_H */
