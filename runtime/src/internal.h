/* internal.h — the runtime's private structures and helpers: the Vulkan dispatch table, the
 * context, buffers and memory blocks, streams, the error setter, pipelines and the slab recorder.
 * Not installed; only runtime/src includes it. */
#ifndef FKC_INTERNAL_H
#define FKC_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include <vulkan/vulkan.h>

#include "fkc/fkc_reference.h"
#include "fkc/fkc_profiling.h"
#include "fkc/fkc_runtime.h"
#include "fkc/fkc_vulkan.h"
#include "fused_table.h"
#include "plan.h"

/* ---- limits and defaults (one place) ---- */
#define FKC_STAGING_BYTES (8u << 20)      /* synchronous copies move at most this much per submit */
#define FKC_STAGING_CHUNK (1u << 20)      /* smallest staging chunk a stream allocates */
#define FKC_BLOCK_BYTES (64ull << 20)     /* device-memory block that small buffers share */
#define FKC_DEDICATED_BYTES (16ull << 20) /* buffers this big get an allocation of their own */
#define FKC_DESCRIPTOR_SETS 128u          /* sets per descriptor pool (no push descriptors) */
#define FKC_LOCAL_SIZE 256u               /* invocations per work group (matches the shaders) */
#define FKC_WINDOW_ALIGN 16u              /* storage windows start at least this aligned */
#define FKC_MAX_WINDOW (1ull << 31)       /* keeps every in-shader index below 2^32 */
#define FKC_MIN_TEST_RANGE 256u           /* smallest storage range the test hook accepts */
#define FKC_TRANSFER_MIN_ROW 64u /* AUTO: rows at least this long go through copy regions */
#define FKC_REGION_BATCH 1024u   /* copy regions per vkCmdCopyBuffer call */
#define FKC_GRID_MIN_UNITS 256u  /* rows of at least this many units use grid mode */
#define FKC_SHORT_MAX_ROW 16u    /* misaligned rows this short: one invocation per row */
#define FKC_SPLIT_MIN_BYTES                                                                        \
    (4u << 20)                        /* misaligned long rows this big: edges and bulk apart
                                          (H200: single kernel faster at 1 MiB, split at 16) */
#define FKC_TRACK_MAX 256u            /* ranges a stream tracks between barriers (then: one) */
#define FKC_FUSE_MAX 256u             /* writes one fused dispatch takes */
#define FKC_FUSE_MAX_UNITS (1u << 16) /* 16-byte units a write may have to be fused */
/* A fused dispatch of at most this many work groups has a byte per group after its entries
 * naming the group's write (fused.comp reads it instead of searching the table). */
#define FKC_FUSE_MAP_GROUPS 4096u
/* Where a fused batch's counter word (fused.comp's ADVANCE variant) lies after its table: past
 * the largest table and map, a multiple of every storage offset alignment (at most 256). */
#define FKC_FUSE_COUNTER (FKC_FUSE_MAX * FKC_FUSE_WORDS * 4u + FKC_FUSE_MAP_GROUPS)
#define FKC_TABLE_BYTES (64u << 10) /* buffer of a stream's fused-write tables */
#define FKC_BIND_MAX 32u            /* storage buffers one of fkc's binds may take */

/* ---- vk.c: every Vulkan function the runtime calls, loaded through vkGetInstanceProcAddr --
 * (the host's or the loader's); the library calls no other Vulkan symbol. */
/* clang-format off */
#define FKC_VK_GLOBAL(X)                                                                       \
    X(vkEnumerateInstanceLayerProperties) X(vkEnumerateInstanceExtensionProperties)            \
    X(vkCreateInstance)
/* clang-format on */
/* clang-format off */
#define FKC_VK_INSTANCE(X)                                                                     \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)        \
    X(vkGetPhysicalDeviceProperties2) X(vkGetPhysicalDeviceFeatures2)                          \
    X(vkGetPhysicalDeviceMemoryProperties) X(vkGetPhysicalDeviceQueueFamilyProperties)         \
    X(vkEnumerateDeviceExtensionProperties) X(vkCreateDevice) X(vkGetDeviceProcAddr)
/* clang-format on */
/* clang-format off */
#define FKC_VK_DEVICE(X)                                                                       \
    X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkDeviceWaitIdle) X(vkQueueSubmit)                \
    X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkAllocateMemory)  \
    X(vkFreeMemory) X(vkBindBufferMemory) X(vkMapMemory) X(vkInvalidateMappedMemoryRanges)     \
    X(vkCreateCommandPool) X(vkDestroyCommandPool) X(vkResetCommandPool)                       \
    X(vkAllocateCommandBuffers) X(vkFreeCommandBuffers) X(vkBeginCommandBuffer)                \
    X(vkEndCommandBuffer) X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences)                \
    X(vkResetFences) X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkGetQueryPoolResults)       \
    X(vkCmdResetQueryPool) X(vkCmdWriteTimestamp) X(vkCmdPipelineBarrier) X(vkCmdCopyBuffer)   \
    X(vkCmdBindPipeline) X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdBindDescriptorSets)     \
    X(vkCreateDescriptorSetLayout) X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout)   \
    X(vkDestroyPipelineLayout) X(vkCreateShaderModule) X(vkDestroyShaderModule)                \
    X(vkCreateComputePipelines) X(vkDestroyPipeline) X(vkCreateDescriptorPool)                 \
    X(vkDestroyDescriptorPool) X(vkResetDescriptorPool) X(vkAllocateDescriptorSets)            \
    X(vkUpdateDescriptorSets) X(vkCmdUpdateBuffer)
/* clang-format on */

typedef struct fkc_vk {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion; /* NULL: a 1.0 loader */
#define FKC_VK_FIELD(name) PFN_##name name;
    FKC_VK_GLOBAL(FKC_VK_FIELD)
    FKC_VK_INSTANCE(FKC_VK_FIELD)
    FKC_VK_DEVICE(FKC_VK_FIELD)
#undef FKC_VK_FIELD
    PFN_vkCreateDebugUtilsMessengerEXT vkCreateDebugUtilsMessengerEXT;   /* optional */
    PFN_vkDestroyDebugUtilsMessengerEXT vkDestroyDebugUtilsMessengerEXT; /* optional */
    PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR; /* NULL: descriptor pools */
} fkc_vk;

/* Each loads one level of the table; a missing required function is FKC_ERR_VULKAN naming it. */
fkc_status fkc_vk_load_global(fkc_vk *vk, PFN_vkGetInstanceProcAddr gipa);
fkc_status fkc_vk_load_instance(fkc_vk *vk, VkInstance instance);
fkc_status fkc_vk_load_device(fkc_vk *vk, VkDevice device, bool push_descriptors);
/* Opens the Vulkan loader (dlopen "libvulkan.so.1") and finds its vkGetInstanceProcAddr:
 * FKC_ERR_NO_DEVICE, naming what failed, when it cannot. fkc_vk_close_loader(NULL) is a no-op. */
fkc_status fkc_vk_open_loader(void **handle, PFN_vkGetInstanceProcAddr *gipa);
void fkc_vk_close_loader(void *handle);

/* Test-only knobs (test_hooks.h, compiled into the test library only): a smaller device. */
typedef struct fkc_hooks {
    uint64_t storage_buffer_range; /* bytes (0: the device's); at least FKC_MIN_TEST_RANGE */
    uint32_t work_group_count;     /* groups per grid dimension (0: the device's) */
    uint64_t block_bytes;          /* memory block size (0: FKC_BLOCK_BYTES) */
    bool no_push_descriptors;      /* use descriptor pools even where push descriptors exist */
    bool no_host_tables;           /* fused-write tables through vkCmdUpdateBuffer always */
} fkc_hooks;

/* Kernels (runtime/shaders/copy.comp variants), one pipeline each, created with the context:
 * 16-byte aligned units; any alignment (word-granular): whole, its units inside rows, its edge
 * units, rows of at most 16 bytes; and aligned / any alignment with the device-resident ring
 * position. */
typedef enum kernel_id {
    KERNEL_U128,
    KERNEL_WIDE,
    KERNEL_WIDE_IN,
    KERNEL_WIDE_EDGE,
    KERNEL_WIDE_SHORT,
    KERNEL_RING_U128,
    KERNEL_RING_WIDE,
    KERNEL_FUSED,
    KERNEL_FUSED_ADVANCE, /* fused.comp with a position advance after its writes */
    KERNEL_ADVANCE,
    KERNEL_SET_ROWS_WORD,  /* set_rows.comp: one 32-bit word of a cache row per invocation */
    KERNEL_SET_ROWS_VEC,   /* and one 16-byte unit (rows and offsets 16-aligned) */
    KERNEL_SET_ROWS_FUSED, /* many set_rows ops of a stream in one dispatch, from a table */
    KERNEL_COUNT
} kernel_id;

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
    bool fusion;          /* the device binds enough buffers to fuse writes */
    bool fused_advance;   /* ... and 2 more, pushed: fkc_stream_advance joins a fused dispatch */
    bool no_host_tables;  /* test hook: never host-visible fused tables */
    fkc_memory memory;    /* blocks of the buffers (memory.c) */
    pthread_mutex_t lock; /* the stream pool and the user-kernel cache */
    fkc_stream *idle;     /* pooled streams of one-shot calls and copies */
    fkc_stream *pooled;   /* every pooled stream (freed with the context) */
    struct fkc_kernel *user_kernels; /* fkc_kernel_cached's kernels (user_kernel.c) */
    fkc_message_fn on_validation;
    void *on_validation_user;
    atomic_uint_fast64_t validation_count;
    pthread_mutex_t message_lock; /* validation_last */
    char validation_last[1024];
};

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

/* A host-visible staging chunk of a stream (persistently mapped). */
typedef struct fkc_chunk {
    VkBuffer buffer;
    VkDeviceMemory memory;
    unsigned char *map;
    uint64_t size, used;
    bool coherent;
} fkc_chunk;

typedef struct fkc_staging {
    fkc_chunk *chunks;
    uint32_t n, cap;
} fkc_staging;

/* A byte range [lo, hi) of a VkBuffer that a recorded command reads or writes. */
typedef struct fkc_access {
    VkBuffer buffer;
    uint64_t lo, hi;
    bool write;
    bool pending; /* tracked: a write of the pending fused dispatch (its exact bytes) */
} fkc_access;

/* One write of a pending fused dispatch (fused.comp): a 16-byte-aligned box, offsets in the
 * VkBuffers (made relative to the slot windows when the dispatch is recorded). */
typedef struct fkc_fused {
    uint64_t src, dst, pos; /* byte offsets in the VkBuffers */
    uint32_t slot[3];       /* slot of src (read), dst (written) and the position (read) */
    uint32_t row_units, rows, planes, s_row, d_row, s_plane, d_plane; /* 16-byte units */
    uint32_t ring, cap, skip;
    const struct fkc_buffer *bsrc, *bdst, *bpos; /* the buffers (a lone write is dispatched) */
    /* records it as its own dispatch (slab.c's, given by who queues it): a batch of one */
    void (*alone)(struct fkc_stream *s, const struct fkc_fused *w);
} fkc_fused;

/* A buffer of fused-write tables: host-visible device memory the host writes when it records
 * the dispatch (map), else device-local memory written by vkCmdUpdateBuffer (map NULL). */
typedef struct fkc_table {
    VkBuffer buffer;
    VkDeviceMemory memory;
    unsigned char *map;
} fkc_table;

/* A buffer window a fused dispatch binds. */
typedef struct fkc_slot {
    VkBuffer buffer;
    uint64_t lo, hi; /* lo aligned to the storage offset alignment */
} fkc_slot;

/* The writes waiting to be recorded as one dispatch, with the table space and (without push
 * descriptors) the descriptor set reserved when the first one came, so recording it cannot
 * fail. */
typedef struct fkc_batch {
    fkc_fused w[FKC_FUSE_MAX];
    uint32_t n;
    uint64_t groups;                               /* work groups of its writes */
    fkc_slot slot[FKC_FUSE_READ + FKC_FUSE_WRITE]; /* read ones first, then written ones */
    uint32_t n_read, n_write;
    struct fkc_table *table; /* where its table goes: `table` at byte `at` */
    uint64_t at;             /* (its counter word FKC_FUSE_COUNTER bytes further) */
    VkDescriptorSet set;
    /* fkc_stream_advance folded into the dispatch (fused_advance.comp): the u64 at byte
     * adv_at of adv_buf moves on by adv_delta after the writes, bound as [adv_lo, adv_at + 8) */
    bool adv;
    VkBuffer adv_buf;
    uint64_t adv_lo, adv_at, adv_delta;
} fkc_batch;

/* A recorded download: its bytes land in `dst` when the stream's work has completed. */
typedef struct fkc_pending {
    void *dst;
    uint32_t chunk;    /* index in the stream's download chunks */
    uint64_t at, size; /* bytes [at, at + size) of the chunk */
} fkc_pending;

/* A batcher above the stream (fused.c's small writes, set_rows.c's ops): work queued on a
 * stream and recorded later as one dispatch. The stream calls it through this table, which the
 * batcher installs in s->batcher[] when it first queues on the stream, so that stream.c calls
 * nothing above it. flush records what is pending (keep: the windows it binds stay tracked);
 * hazard: whether access a must wait for the pending dispatch; pending: the commands that
 * dispatch will record; reset forgets what is pending, release frees the batcher's state. */
typedef struct fkc_batcher {
    void (*flush)(struct fkc_stream *s, bool keep);
    bool (*hazard)(const struct fkc_stream *s, const fkc_access *a);
    uint32_t (*pending)(const struct fkc_stream *s);
    void (*reset)(struct fkc_stream *s);
    void (*release)(struct fkc_stream *s);
    /* fkc_stream_advance of the u64 at byte `at` of buf (its window bound from `lo`) as part of
     * the pending dispatch, recorded now; false (nothing done) where it cannot be (NULL: never) */
    bool (*advance)(struct fkc_stream *s, VkBuffer buf, uint64_t lo, uint64_t at, uint64_t delta);
} fkc_batcher;

/* The batchers, in the order a barrier flushes them. */
typedef enum fkc_batcher_id {
    FKC_BATCHER_SET_ROWS,
    FKC_BATCHER_FUSED,
    FKC_BATCHERS
} fkc_batcher_id;

struct fkc_stream {
    fkc_context *ctx;
    bool borrowed;      /* records into the host's command buffer (fkc_stream_wrap_vulkan) */
    bool pooled;        /* one of the context's own (one-shot calls, synchronous copies) */
    VkCommandPool pool; /* owned streams: their own pool, so streams record in parallel */
    VkCommandBuffer cmd;
    VkFence fence;
    bool recording;                  /* begun and not yet submitted (borrowed: always) */
    bool in_flight;                  /* submitted, not yet waited for */
    uint32_t ops;                    /* ops recorded since begin */
    uint32_t commands;               /* dispatches and copy calls recorded since begin */
    uint64_t items;                  /* commands and fused writes recorded since begin (never reset
                            inside a recording: tells whether an op recorded something) */
    uint32_t barriers;               /* barriers between ops recorded since begin */
    fkc_access track[FKC_TRACK_MAX]; /* ranges touched since the last barrier */
    uint32_t n_track;
    bool no_fusion;    /* test hook: every write its own dispatch */
    fkc_batch *batch;  /* pending fused writes (owned streams; allocated once) */
    fkc_table *tables; /* buffers of the fused writes' tables */
    uint32_t n_tables, cur_table;
    uint64_t table_used; /* bytes used in tables[cur_table] */
    bool replayable;     /* ended, complete and not begun again: fkc_stream_replay may run it */
    bool host_read;      /* a ring position read back when recorded: replay refuses */
    _Atomic(const void *) owner; /* the thread inside a call on it (its token), or NULL */
    bool broken;                 /* an op failed half-recorded: submit refuses, begin starts over */
    VkQueryPool timer;     /* two timestamps around the recorded work (VK_NULL_HANDLE: none) */
    double device_seconds; /* device time of the last completed work, or -1 */
    fkc_staging up, down;  /* staging of recorded uploads and downloads */
    fkc_pending *pending;  /* recorded downloads waiting for completion */
    uint32_t n_pending, cap_pending;
    VkDescriptorPool *dpools; /* no push descriptors: the sets of the recorded ops */
    uint32_t n_dpools, cur_dpool;
    fkc_stream *next_idle, *next_pooled;      /* the context's pool lists */
    struct fkc_sr_batch *sr;                  /* set_rows ops waiting to be fused (set_rows.c) */
    const fkc_batcher *batcher[FKC_BATCHERS]; /* installed by the batchers above */
};

/* ---- error.c ---- */
/* Sets the thread's last error to "text: details" and returns status. */
fkc_status fkc_fail(fkc_status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Maps a VkResult to a status (out-of-memory results to FKC_ERR_OUT_OF_MEMORY) and sets the
 * message "<what> failed: <VkResult name>". */
fkc_status fkc_vk_fail(VkResult r, const char *what);
const char *fkc_vk_result_name(VkResult r);

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

/* ---- pipeline.c ---- */
fkc_status fkc_pipelines_init(fkc_context *ctx); /* layouts and every kernel's pipeline */
void fkc_pipelines_destroy(fkc_context *ctx);
VkPipeline fkc_pipeline_get(const fkc_context *ctx, kernel_id k);
/* The descriptor-set layout (n_buffers storage buffers at bindings 0..n-1 of set 0, pushed
 * when the context has push descriptors) and pipeline layout (push_size bytes of push
 * constants) of a compute kernel. */
fkc_status fkc_compute_layout(fkc_context *ctx, uint32_t n_buffers, uint32_t push_size,
                              const char *who, VkDescriptorSetLayout *set,
                              VkPipelineLayout *layout);
/* A compute pipeline of `layout` from a SPIR-V module of `bytes` (entry point "main"; the
 * module is freed at once); *out is VK_NULL_HANDLE on failure, whose message starts with
 * `who` ("" or "fkc_kernel_create: "). The runtime's kernels and user kernels both use it. */
fkc_status fkc_compute_pipeline(fkc_context *ctx, const uint32_t *code, size_t bytes,
                                VkPipelineLayout layout, const char *who, VkPipeline *out);

/* ---- stream.c ---- */
/* Takes an idle stream of the context's pool (made when none is idle) and gives it back. */
fkc_status fkc_stream_take(fkc_context *ctx, fkc_stream **out);
void fkc_stream_give(fkc_stream *s);
void fkc_stream_free(fkc_stream *s); /* frees a stream's Vulkan objects and memory */
/* Begins an owned stream when idle, or checks a borrowed one can take an op. */
fkc_status fkc_stream_ensure(fkc_stream *s);
/* The one-thread-at-a-time rule of a stream, checked without a lock: each public call on a
 * stream enters it (an atomic compare-exchange of its owner from NULL to this thread's token)
 * and leaves it. fkc_stream_enter returns 1 when the call entered, 0 when this thread is already
 * inside (a call made by another fkc call) or s is NULL, -1 when another thread is inside (then
 * this thread's last error says so: FKC_ERR_STATE). FKC_STREAM_GUARDED returns `call`'s status
 * run inside the stream, or FKC_ERR_STATE. */
int fkc_stream_enter(fkc_stream *s, const char *what);
void fkc_stream_leave(fkc_stream *s, int entered);
#define FKC_STREAM_GUARDED(s, what, call)                                                          \
    do {                                                                                           \
        int in_ = fkc_stream_enter((s), (what));                                                   \
        if (in_ < 0)                                                                               \
            return FKC_ERR_STATE;                                                                  \
        fkc_status guarded_ = (call);                                                              \
        fkc_stream_leave((s), in_);                                                                \
        return guarded_;                                                                           \
    } while (0)
/* A full compute/transfer memory barrier when anything was recorded since the last one
 * (pending fused writes are recorded first). */
void fkc_stream_barrier(fkc_stream *s);
/* Declares the ranges the next command reads and writes: records a barrier first when one of
 * them overlaps a range an earlier command since the last barrier wrote (or, for a write, read
 * or wrote), then tracks them. */
void fkc_stream_touch(fkc_stream *s, uint32_t n, const fkc_access *a);
/* Whether two accesses must be ordered: the same buffer, overlapping bytes, one a write. */
bool fkc_access_conflict(const fkc_access *t, VkBuffer buf, uint64_t lo, uint64_t hi, bool write);
/* Whether [lo, hi) of buf (written or read) must wait for the tracked accesses of recorded
 * commands (pending = false) or of the pending fused writes' exact bytes (pending = true). */
bool fkc_stream_hazard(const fkc_stream *s, VkBuffer buf, uint64_t lo, uint64_t hi, bool write,
                       bool pending);
/* Tracks a, merged into a tracked range of the same kind and buffer that it touches. */
void fkc_stream_track(fkc_stream *s, const fkc_access *a);

/* Whether the stream fuses an aligned write of this many 16-byte units. */
bool fkc_stream_fusing(const fkc_stream *s, uint64_t units);
/* Commands the pending dispatch of batcher `id` will record (0: nothing pending). */
uint32_t fkc_stream_pending(const fkc_stream *s, fkc_batcher_id id);

/* ---- fused.c: the fused-write batcher ---- */
/* Queues one aligned box write into the stream's pending fused dispatch (its ranges already
 * touched); false when the stream does not fuse or the box cannot be fused (then the caller
 * dispatches it), or on failure with *st set. */
bool fkc_stream_fuse(fkc_stream *s, const fkc_fused *w, const fkc_buffer *src,
                     const fkc_buffer *dst, const fkc_buffer *pos, fkc_status *st);

/* ---- stream.c ---- */
/* Records the pending fused writes and set_rows ops, if any, as their dispatches. */
void fkc_stream_flush(fkc_stream *s);
/* Binds a compute pipeline and its storage buffers (push descriptors, or a set of the
 * stream's pools): what every dispatch, the runtime's and user kernels', goes through. */
fkc_status fkc_stream_bind(fkc_stream *s, VkPipeline pipe, VkPipelineLayout layout,
                           VkDescriptorSetLayout set_layout, uint32_t n,
                           const VkDescriptorBufferInfo *buffers);

/* Binds a compute pipeline and its n storage buffers: pushed, or written into `set` (a set of
 * the stream's pools the caller reserved) and bound. What fkc_stream_bind does once it has
 * the set; the batchers reserve theirs when a batch starts, so recording it cannot fail. */
void fkc_stream_bind_set(fkc_stream *s, VkPipeline pipe, VkPipelineLayout layout,
                         VkDescriptorSet set, uint32_t n, const VkDescriptorBufferInfo *buffers);
/* Writes a batch's table, `bytes` at byte `at` of tab: by the host into host-visible table
 * memory (seen by the submit that runs it), else as vkCmdUpdateBuffer and a barrier from the
 * updates recorded so far to the compute shaders' reads and `also` (only the dispatch reading
 * the table waits for it). */
void fkc_stream_write_table(fkc_stream *s, const fkc_table *tab, uint64_t at, const uint32_t *words,
                            uint64_t bytes, VkAccessFlags also);
/* The bindings of a batch's dispatch into bi (returns their count, 1 + max_read + max_write):
 * 0 the table, then the read windows slot[0..max_read), then the written ones
 * slot[max_read..); of each kind the first n_read (n_write) are used, the rest bind the table
 * (read) or the first written window. */
uint32_t fkc_table_windows(VkDescriptorBufferInfo *bi, VkDescriptorBufferInfo table,
                           const fkc_slot *slot, uint32_t n_read, uint32_t max_read,
                           uint32_t n_write, uint32_t max_write);

/* Table space for one fused batch (FKC_FUSE_MAX * FKC_FUSE_WORDS words) in the stream's table
 * buffers, and (without push descriptors) a descriptor set of the stream's pools. */
fkc_status fkc_stream_table(fkc_stream *s, uint64_t extra, fkc_table **tab, uint64_t *at);
fkc_status fkc_stream_alloc_set(fkc_stream *s, VkDescriptorSetLayout layout, VkDescriptorSet *set);
/* A memory barrier (stream.c's one place recording vkCmdPipelineBarrier). */
void fkc_stream_memory_barrier(fkc_stream *s, VkPipelineStageFlags src, VkAccessFlags src_access,
                               VkPipelineStageFlags dst, VkAccessFlags dst_access);

/* ---- slab.c ---- */
/* Records one planned box copy from src into out (shapes from the tensors). */
fkc_status fkc_record_box(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                          const fkc_box *box, size_t elem_size);
/* Records a rotating write of `box` (the whole write, ring origin 0 on `axis`) with the
 * position read on the device from `pos` at `pos_off` (a little-endian u64): source row i
 * (after `skip` skipped rows) lands at ring row (position + skip + i) mod cap, the kernel
 * splitting at the ring end. FKC_ERR_UNSUPPORTED, with nothing recorded, when the context has
 * FKC_CONTEXT_RING_READBACK, the capacity is 2^31 or more, or one 16-byte column of the whole
 * ring does not fit a storage window: the caller then reads the position back. */
fkc_status fkc_record_ring(fkc_stream *s, const fkc_tensor *src, const fkc_tensor *out,
                           const fkc_box *box, size_t elem_size, uint32_t axis, uint64_t cap,
                           uint64_t skip, const fkc_buffer *pos, uint64_t pos_off);

/* ---- user_kernel.c ---- */
void fkc_user_kernels_destroy(fkc_context *ctx); /* the context's cached kernels */

#endif /* FKC_INTERNAL_H */
