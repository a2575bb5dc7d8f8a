/* context.h — the context (struct fkc_context), what its objects call on it (context.c) and
 * how it is made (device.c). */
#ifndef FKC_CONTEXT_H
#define FKC_CONTEXT_H

#include "memory.h"
#include "pipeline.h"
#include "vk.h"

/* Test-only knobs (test_hooks.h, compiled into the test library only): a smaller device. */
typedef struct fkc_hooks {
    uint64_t storage_buffer_range; /* bytes (0: the device's); at least FKC_MIN_TEST_RANGE */
    uint32_t work_group_count;     /* groups per grid dimension (0: the device's) */
    uint64_t block_bytes;          /* memory block size (0: FKC_BLOCK_BYTES) */
    bool no_push_descriptors;      /* use descriptor pools even where push descriptors exist */
    bool no_host_tables;           /* fused-write tables through vkCmdUpdateBuffer always */
    uint32_t set_rows_scan_rows;   /* 0: FKC_SR_SCAN_ROWS; else ops of more rows use the scratch */
} fkc_hooks;

struct fkc_context {
    fkc_vk vk;    /* every Vulkan call goes through it */
    void *loader; /* the libvulkan.so.1 fkc opened (owned contexts without a gipa), or NULL */
    const VkAllocationCallbacks
        *alloc; /* pAllocator of every create/destroy: &alloc_copy or NULL */
    VkAllocationCallbacks alloc_copy;
    fkc_vulkan_memory_fn on_allocate, on_free; /* the host's device-memory callbacks */
    void *memory_user;
    atomic_uint refs;                          /* the creator's + one per buffer, stream, kernel */
    void (*teardown)(struct fkc_context *ctx); /* device.c's: frees it at the last release */
    bool borrowed;                             /* instance, device and queue are the host's */
    VkInstance instance;
    uint32_t instance_api; /* the instance's API version */
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family, queue_index;
    fkc_vulkan_queue_lock_fn queue_lock; /* borrowed queue: the host's lock, or NULL */
    void *queue_lock_user;
    pthread_mutex_t submit_lock;          /* serialises fkc's submissions without queue_lock */
    fkc_device_info info;                 /* what fkc_context_device returns */
    VkPhysicalDeviceMemoryProperties mem; /* memory types for allocation */
    uint32_t flags;                       /* FKC_CONTEXT_* it was created with */
    fkc_copy_path copy_path;              /* resolved: never AUTO for "is CPU" decisions */
    bool prefer_transfer;                 /* AUTO chose copy regions for long rows */
    bool timeline;                        /* timeline semaphores enabled on the device */
    uint64_t storage_range;               /* usable window bytes per binding */
    uint32_t group_limit;                 /* groups per grid dimension (the lowest) */
    uint64_t offset_align;                /* window start alignment */
    uint64_t max_allocation;              /* maxMemoryAllocationSize (0: not reported) */
    uint32_t max_push_buffers;            /* storage buffers one user kernel may bind */
    uint32_t max_bindings;   /* storage buffers one of the runtime's kernels may bind */
    uint32_t timestamp_bits; /* valid timestamp bits of the queue (0: none) */
    double timestamp_ns;     /* nanoseconds per timestamp tick */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkPipeline pipelines[KERNEL_COUNT];
    VkDescriptorSetLayout fused_set_layout; /* fused.comp: the table and its windows */
    VkPipelineLayout fused_layout;
    VkDescriptorSetLayout fused_advance_set_layout; /* and its counter and position windows */
    VkPipelineLayout fused_advance_layout;
    VkDescriptorSetLayout advance_set_layout; /* advance.comp: one buffer */
    VkPipelineLayout advance_layout;
    VkDescriptorSetLayout set_rows_set_layout; /* set_rows.comp: source, index, cache, status */
    VkPipelineLayout set_rows_layout;
    VkDescriptorSetLayout set_rows_fused_set_layout; /* the table, 4 read and 8 written windows */
    VkPipelineLayout set_rows_fused_layout;
    bool fusion;           /* the device binds enough buffers to fuse writes */
    bool fused_advance;    /* ... and 2 more, pushed: fkc_stream_advance joins a fused dispatch */
    bool no_host_tables;   /* test hook: never host-visible fused tables (nor set_rows scratch) */
    uint32_t sr_scan_rows; /* set_rows ops of at most this many rows scan for duplicates */
    fkc_memory memory;     /* blocks of the buffers (memory.c) */
    pthread_mutex_t lock;  /* the stream pool and the user-kernel cache */
    fkc_stream *idle;      /* pooled streams of one-shot calls and copies */
    fkc_stream *pooled;    /* every pooled stream (freed with the context) */
    struct fkc_kernel *user_kernels; /* fkc_kernel_cached's kernels (user_kernel.c) */
    fkc_message_fn on_validation;
    void *on_validation_user;
    atomic_uint_fast64_t validation_count;
    pthread_mutex_t message_lock; /* validation_last */
    char validation_last[1024];
};

/* ---- context.c ---- */
/* The context's life: every buffer, stream and kernel holds it; the last release frees it
 * (ctx->teardown). */
void fkc_context_retain(fkc_context *ctx);
void fkc_context_release(fkc_context *ctx);
/* FKC_CONTEXT_DEBUG_LIFETIME: waits for the device to be idle (under the queue's lock) before a
 * destroy; nothing without the flag. */
void fkc_debug_lifetime_wait(fkc_context *ctx);
/* vkQueueSubmit under the queue's lock (fkc's mutex, or the host's queue_lock). */
fkc_status fkc_queue_submit(fkc_context *ctx, const VkSubmitInfo *submit, VkFence fence);
/* ---- device.c ---- */
/* Creates a context: owned (host NULL; gipa NULL: vh's, else the loader's, opened at run time)
 * or over the host's device; vh may be NULL. */
fkc_status fkc_context_open(const fkc_context_options *options, const fkc_vulkan_device *host,
                            PFN_vkGetInstanceProcAddr gipa, const fkc_vulkan_hooks *vh,
                            const fkc_hooks *hooks, fkc_context **out);

#endif /* FKC_CONTEXT_H */
