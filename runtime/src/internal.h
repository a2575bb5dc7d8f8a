/* internal.h — the runtime's private structures and helpers: the context, buffers, streams,
 * the error setter, pipelines and the slab recorder. Not installed; only runtime/src includes it. */
#ifndef FKC_INTERNAL_H
#define FKC_INTERNAL_H

#include <vulkan/vulkan.h>

#include "fkc/fkc_reference.h"
#include "fkc/fkc_runtime.h"
#include "plan.h"

/* ---- limits and defaults (one place) ---- */
#define FKC_STAGING_BYTES (8u << 20)   /* host staging chunk for uploads and downloads */
#define FKC_LOCAL_SIZE 256u            /* invocations per work group (matches the shaders) */
#define FKC_WINDOW_ALIGN 16u           /* storage windows start at least this aligned */
#define FKC_MAX_WINDOW (1ull << 31)    /* keeps every in-shader index below 2^32 */
#define FKC_MIN_TEST_RANGE 256u        /* smallest storage range the test hook accepts */
#define FKC_TRANSFER_MIN_ROW 64u       /* AUTO: rows at least this long go through copy regions */
#define FKC_REGION_BATCH 1024u         /* copy regions per vkCmdCopyBuffer call */
#define FKC_GRID_MIN_UNITS 256u        /* rows of at least this many units use grid mode */
#define FKC_SPLIT_MIN_BYTES (4u << 20) /* misaligned long rows this big: edges and bulk apart
                                          (H200: single kernel faster at 1 MiB, split at 16) */

/* Kernels (runtime/shaders/copy.comp variants), one pipeline each, created with the context:
 * 16-byte aligned units; any alignment (word-granular): whole, its units inside rows, its edge
 * units; and aligned / any alignment with the device-resident ring position. */
typedef enum kernel_id {
    KERNEL_U128, KERNEL_WIDE, KERNEL_WIDE_IN, KERNEL_WIDE_EDGE, KERNEL_RING_U128,
    KERNEL_RING_WIDE, KERNEL_COUNT
} kernel_id;

struct fkc_context {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    fkc_device_info info;                  /* what fkc_context_device returns */
    VkPhysicalDeviceMemoryProperties mem;  /* memory types for allocation */
    uint32_t flags;                        /* FKC_CONTEXT_* it was created with */
    fkc_copy_path copy_path;               /* resolved: never AUTO for "is CPU" decisions */
    bool prefer_transfer;                  /* AUTO chose copy regions for long rows */
    uint64_t storage_range;                /* usable window bytes per binding (after the hook) */
    uint32_t group_limit;                  /* groups per grid dimension (after the hook) */
    uint64_t offset_align;                 /* window start alignment */
    uint64_t max_allocation;               /* maxMemoryAllocationSize (0: not reported) */
    uint32_t timestamp_bits;               /* valid timestamp bits of the queue (0: none) */
    double timestamp_ns;                   /* nanoseconds per timestamp tick */
    PFN_vkCmdPushDescriptorSetKHR push_descriptor;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkPipeline pipelines[KERNEL_COUNT];    /* VK_NULL_HANDLE when the device lacks it */
    VkCommandPool pool;
    VkCommandBuffer xfer_cmd;              /* for synchronous uploads/downloads */
    VkFence xfer_fence;
    fkc_stream *one_shot;                  /* the one-shot calls' stream (lazily created) */
    VkBuffer stage_up, stage_down;         /* lazily created staging buffers */
    VkDeviceMemory stage_up_mem, stage_down_mem;
    void *stage_up_map, *stage_down_map;
    bool stage_down_coherent;
    fkc_message_fn on_validation;
    void *on_validation_user;
    uint64_t validation_count;
    char validation_last[1024];
    struct fkc_kernel *user_kernels;       /* fkc_kernel_cached's kernels (user_kernel.c) */
};

struct fkc_buffer {
    fkc_context *ctx;
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint64_t size;       /* what the caller asked for */
    uint64_t vk_size;    /* allocated size, rounded up to 16 (word-owning kernels may touch it) */
};

struct fkc_stream {
    fkc_context *ctx;
    VkCommandBuffer cmd;
    VkFence fence;
    bool recording;      /* begun and not yet submitted */
    uint32_t ops;        /* ops recorded since begin */
    uint32_t commands;   /* dispatches and copy calls recorded since begin */
    bool dirty;          /* commands recorded since the last barrier */
    bool rmw_pending;    /* a unit-owning (wide) dispatch was recorded since the last barrier */
    bool broken;         /* an op failed half-recorded: submit refuses, begin starts over */
    VkQueryPool timer;   /* two timestamps around the recorded work (VK_NULL_HANDLE: none) */
    double device_seconds; /* device time of the last submit, or -1 */
};

/* ---- error.c ---- */
/* Sets the thread's last error to "text: details" and returns status. */
fkc_status fkc_fail(fkc_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Maps a VkResult to a status (out-of-memory results to FKC_ERR_OUT_OF_MEMORY) and sets the
 * message "<what>: <VkResult name>". */
fkc_status fkc_vk_fail(VkResult r, const char *what);
const char *fkc_vk_result_name(VkResult r);

/* ---- device.c ---- */
/* Finds a memory type with all `want` flags among `bits`; -1 when none. */
int fkc_memory_type(const fkc_context *ctx, uint32_t bits, VkMemoryPropertyFlags want);

/* ---- buffer.c ---- */
void fkc_staging_destroy(fkc_context *ctx);

/* ---- pipeline.c ---- */
fkc_status fkc_pipelines_init(fkc_context *ctx);   /* layouts and every supported pipeline */
void fkc_pipelines_destroy(fkc_context *ctx);
fkc_status fkc_pipeline_get(fkc_context *ctx, kernel_id k, VkPipeline *out);
/* The descriptor-set layout (n_buffers storage buffers at bindings 0..n-1 of set 0, pushed)
 * and pipeline layout (push_size bytes of push constants) of a compute kernel. */
fkc_status fkc_compute_layout(VkDevice dev, uint32_t n_buffers, uint32_t push_size,
                              const char *who, VkDescriptorSetLayout *set,
                              VkPipelineLayout *layout);
/* A compute pipeline of `layout` from a SPIR-V module of `bytes` (entry point "main"; the
 * module is freed at once); *out is VK_NULL_HANDLE on failure, whose message starts with
 * `who` ("" or "fkc_kernel_create: "). The runtime's kernels and user kernels both use it. */
fkc_status fkc_compute_pipeline(VkDevice dev, const uint32_t *code, size_t bytes,
                                VkPipelineLayout layout, const char *who, VkPipeline *out);

/* ---- stream.c ---- */
/* The context's stream for the one-shot calls, created on first use, destroyed with it. */
fkc_status fkc_context_one_shot(fkc_context *ctx, fkc_stream **out);
/* Begins the stream when idle; FKC_ERR_STATE never (it always can). */
fkc_status fkc_stream_ensure(fkc_stream *s);
/* A full compute/transfer memory barrier when anything was recorded since the last one. */
void fkc_stream_barrier(fkc_stream *s);

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
