/* fkc_vulkan.h — fkc as a guest in the host's Vulkan: a context over the host's instance,
 * device and queue, buffers over the host's VkBuffer ranges, streams that record into a command
 * buffer the host began and submits itself, and submissions with the host's semaphores. The only
 * public header with Vulkan types (fkc_runtime.h stays free of them). docs/runtime.md, "Using fkc
 * inside your own Vulkan device", walks through it; examples/vulkan-host/ is a whole program.
 *
 * Owned and borrowed. What a *_vulkan call is given (instance, physical device, device, queue,
 * a VkBuffer, a VkCommandBuffer, semaphores) is borrowed: fkc never destroys, frees, resets,
 * begins, ends or submits it, and the host keeps it alive as long as the fkc objects made over
 * it (the context's objects hold the context, so the device must outlive all of them). What fkc
 * creates (pipelines, layouts, command pools and buffers of its own streams, fences, memory
 * blocks, staging) is fkc's and freed by fkc.
 *
 * Lifetime under the host's submissions. A command buffer fkc recorded into
 * (fkc_stream_wrap_vulkan) uses fkc's objects: the pipelines of the context and of the kernels
 * it dispatched, the stream's descriptor sets, the memory of fkc's buffers. The host must wait
 * for every submission of it (its fence, a semaphore, vkQueueWaitIdle) before it destroys any of
 * them: the kernel (fkc_kernel_destroy), the stream, an fkc buffer it touches, or the context
 * (its last holder), and before fkc_stream_begin_vulkan reuses the stream. Vulkan leaves
 * destroying an object in use undefined (VUID-vkDestroyPipeline-pipeline-00765), and fkc cannot
 * see the host's submissions. FKC_CONTEXT_DEBUG_LIFETIME (in the options of
 * fkc_context_create_vulkan) enforces what fkc can: each of those destroys first waits for the
 * device to be idle (vkDeviceWaitIdle under the queue_lock), so such a destroy waits for the
 * pending work instead of breaking it. A debug mode: the wait costs, and vkDeviceWaitIdle
 * needs the device's other queues left alone by other threads meanwhile.
 *
 * Every Vulkan call fkc makes goes through function pointers loaded with the host's
 * vkGetInstanceProcAddr (a host loading Vulkan through volk or a loader of its own works);
 * libfkc calls no other Vulkan symbol and does not link libvulkan: a context fkc owns opens the
 * loader (dlopen "libvulkan.so.1") at run time unless the host hands it a
 * vkGetInstanceProcAddr, so a host that does links no libvulkan at all.
 *
 * VMA's hooks (fkc_vulkan_hooks): the host's VkAllocationCallbacks for every Vulkan object fkc
 * creates, a callback pair around each device-memory allocation and a budget per memory heap,
 * on owned and borrowed contexts alike. */
#ifndef FKC_VULKAN_H
#define FKC_VULKAN_H

#include <vulkan/vulkan.h>

#include "fkc/fkc_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* libfkc.so exports what its public headers declare */
#endif

/* ---- Contexts ------------------------------------------------------------------------ */

/* Called after each vkAllocateMemory fkc makes succeeded, and before each vkFreeMemory, with the
 * memory type index, the handle and the allocation's size in bytes (like VMA's
 * VmaDeviceMemoryCallbacks). Called from the thread of the fkc call that allocates or frees,
 * possibly several threads at once; it must not call fkc. */
typedef void (*fkc_vulkan_memory_fn)(void *user, uint32_t memory_type, VkDeviceMemory memory,
                                     VkDeviceSize size);

/* What a host hooks into fkc's use of Vulkan (VMA's VmaAllocatorCreateInfo), for
 * fkc_context_create_with_hooks (owned contexts) and fkc_context_create_vulkan_with_hooks
 * (borrowed ones);
 * fkc_vulkan_hooks_init sets `size` and zeroes the rest (growable as the other options).
 * The struct is read during context creation only: fkc copies what it needs. */
typedef struct fkc_vulkan_hooks {
    size_t size; /* sizeof, set by _init; checked */
    /* Owned contexts: the loader entry every Vulkan call goes through (NULL: fkc opens
     * "libvulkan.so.1" itself). Borrowed contexts take fkc_vulkan_device's and refuse this one
     * unless it is NULL or the same. */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    /* Passed as pAllocator to every vkCreate*, vkAllocateMemory, vkDestroy* and vkFreeMemory
     * call fkc makes for the context (an owned context's instance, messenger and device too;
     * command buffers and descriptor sets take none in Vulkan); NULL: Vulkan's own. The
     * callbacks must stay callable until the context is freed (fkc_context_destroy and its
     * last object); fkc copies the struct. fkc_enumerate_devices, which has no context, uses
     * Vulkan's own. */
    const VkAllocationCallbacks *allocator;
    fkc_vulkan_memory_fn on_allocate; /* optional: after each successful vkAllocateMemory */
    fkc_vulkan_memory_fn on_free;     /* optional: before each vkFreeMemory */
    void *memory_user;                /* passed to on_allocate and on_free */
    /* A budget: heap_limit[i] is the most bytes of device memory fkc keeps allocated from
     * memory heap i at once (0 or VK_WHOLE_SIZE: no limit), for i < heap_limit_count (at most
     * VK_MAX_MEMORY_HEAPS; copied). Only fkc's own allocations count (a borrowed buffer's
     * memory is the host's). An allocation that would exceed it is not made: the call that
     * needed it returns FKC_ERR_OUT_OF_MEMORY, its message naming the heap and the budget,
     * with nothing allocated or leaked (small buffers then take an allocation of their own
     * size when a whole shared block would not fit). */
    const VkDeviceSize *heap_limit;
    uint32_t heap_limit_count;
} fkc_vulkan_hooks;

void fkc_vulkan_hooks_init(fkc_vulkan_hooks *hooks);

/* Device memory fkc has allocated from memory heap `heap` and not yet freed (what the budget
 * counts), in bytes; 0 for a heap the device lacks. */
uint64_t fkc_context_vulkan_heap_used(const fkc_context *ctx, uint32_t heap);

/* Called by fkc around each vkQueueSubmit to a borrowed queue (lock true before, false after),
 * so that the host's own submissions from other threads can take the same lock: Vulkan requires
 * a queue's submissions to be externally synchronised. */
typedef void (*fkc_vulkan_queue_lock_fn)(void *user, VkQueue queue, bool lock);

/* The host's Vulkan objects for fkc_context_create_vulkan; fkc_vulkan_device_init sets `size`
 * and zeroes the rest. Like every options struct of fkc it can grow: later versions append
 * fields and accept this version's size. Everything is only read during the call. */
typedef struct fkc_vulkan_device {
    size_t size;                                      /* sizeof, set by _init; checked */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr; /* the host's loader entry (required) */
    VkInstance instance;                              /* required */
    uint32_t instance_api_version;                    /* the VkApplicationInfo::apiVersion the
                                                         instance was created with (>= 1.1) */
    VkPhysicalDevice physical_device;                 /* required */
    VkDevice device;                                  /* required */
    uint32_t queue_family;                            /* a family with VK_QUEUE_COMPUTE_BIT */
    uint32_t queue_index;                             /* the queue within the family */
    const char *const *enabled_extensions;            /* the device extensions the host enabled */
    uint32_t enabled_extension_count;
    const void *enabled_features;        /* the pNext chain of feature structs the
                                                         device was created with (e.g. a
                                                         VkPhysicalDeviceFeatures2), or NULL */
    fkc_vulkan_queue_lock_fn queue_lock; /* optional, see above */
    void *queue_lock_user;               /* passed to queue_lock */
} fkc_vulkan_device;

void fkc_vulkan_device_init(fkc_vulkan_device *device);

/* A context over the host's device: fkc uses the host's instance, physical device, device and
 * queue, creates only its own pipelines, layouts, pools, fences and memory, and never destroys
 * what it borrowed (fkc_context_destroy frees fkc's objects only). `options` may be NULL; its
 * device choice must be left unset (the host chose), FKC_CONTEXT_VALIDATION is refused (the
 * validation layer is the host instance's: install your own messenger), the copy path and
 * FKC_CONTEXT_RING_READBACK apply.
 * What fkc needs of the device, checked here: Vulkan 1.1 (instance and device), a queue family
 * with compute. What it uses when the host enabled it, else works without: VK_KHR_push_descriptor
 * (without it, fkc allocates descriptor sets from pools of its own), timeline semaphores
 * (Vulkan 1.2's timelineSemaphore or VK_KHR_timeline_semaphore: values in
 * fkc_stream_submit_vulkan). Refusals: FKC_ERR_INVALID_ARGUMENT (a NULL handle, size not from
 * _init, options that choose a device), FKC_ERR_UNSUPPORTED naming what the device lacks,
 * FKC_ERR_VULKAN (the loader gave no entry point for a core command). *out is NULL on failure.
 * The queue: fkc submits to it only in fkc_stream_submit, fkc_stream_submit_async,
 * fkc_stream_submit_vulkan, fkc_buffer_upload, fkc_buffer_download, the *_sync calls and a
 * rotating write that reads its position back; it takes queue_lock around each submit. Without
 * a queue_lock, the host must not use the queue in another thread while one of those runs. */
fkc_status fkc_context_create_vulkan(const fkc_vulkan_device *host,
                                     const fkc_context_options *options, fkc_context **out);
/* The same with the host's hooks (hooks may be NULL: none; see fkc_vulkan_hooks). Its
 * get_instance_proc_addr must be NULL or host->get_instance_proc_addr (FKC_ERR_INVALID_ARGUMENT
 * otherwise, as for hooks fkc_context_create_with_hooks refuses). (A function of its own rather
 * than a field of fkc_vulkan_device: a larger struct would make fkc_vulkan_device_init write
 * past the struct of a program built with the older header.) */
fkc_status fkc_context_create_vulkan_with_hooks(const fkc_vulkan_device *host,
                                                const fkc_vulkan_hooks *hooks,
                                                const fkc_context_options *options,
                                                fkc_context **out);

/* fkc_context_create (fkc owns instance, device and queue) with every Vulkan call made through
 * get_instance_proc_addr instead of the loader's (a volk or custom loader; a test's wrapper):
 * libvulkan is then never opened by fkc. */
fkc_status fkc_context_create_with_loader(const fkc_context_options *options,
                                          PFN_vkGetInstanceProcAddr get_instance_proc_addr,
                                          fkc_context **out);
/* fkc_context_create with the host's hooks (hooks may be NULL: none; see fkc_vulkan_hooks).
 * Besides fkc_context_create's refusals: FKC_ERR_INVALID_ARGUMENT for hooks not from
 * fkc_vulkan_hooks_init or more than VK_MAX_MEMORY_HEAPS heap limits. */
fkc_status fkc_context_create_with_hooks(const fkc_context_options *options,
                                         const fkc_vulkan_hooks *hooks, fkc_context **out);

/* The Vulkan objects of a context (owned or borrowed; each pointer may be NULL): the host can
 * create semaphores on the device for fkc_stream_submit_vulkan, or use fkc's buffers in its own
 * commands. The queue of an owned context is fkc's: submit to it only through fkc. */
fkc_status fkc_context_vulkan(const fkc_context *ctx, VkInstance *instance,
                              VkPhysicalDevice *physical_device, VkDevice *device, VkQueue *queue,
                              uint32_t *queue_family);
/* Whether semaphore values are honoured by fkc_stream_submit_vulkan (timeline semaphores
 * enabled on the device: Vulkan 1.2's feature or VK_KHR_timeline_semaphore). */
bool fkc_context_vulkan_timeline(const fkc_context *ctx);
/* Whether fkc records push descriptors on this device (else descriptor sets of its own pools). */
bool fkc_context_vulkan_push_descriptors(const fkc_context *ctx);

/* ---- Buffers ------------------------------------------------------------------------- */

/* The usage a host's VkBuffer needs for fkc_buffer_wrap_vulkan: ops bind storage windows and
 * record copies (which ones depends on the op, the device and the copy path). */
#define FKC_VULKAN_BUFFER_USAGE                                                                    \
    (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |                       \
     VK_BUFFER_USAGE_TRANSFER_DST_BIT)

/* An fkc buffer over [offset, offset + size) of the host's VkBuffer (borrowed: memory and
 * VkBuffer stay the host's; fkc_buffer_destroy frees only the handle). `usage` is what the
 * VkBuffer was created with; it must include FKC_VULKAN_BUFFER_USAGE (else FKC_ERR_UNSUPPORTED
 * naming the missing bit). The offset must be a multiple of fkc_vulkan_buffer_alignment(ctx),
 * the size a non-zero multiple of 16 (FKC_ERR_INVALID_ARGUMENT otherwise): fkc's commands then
 * read and write only bytes inside the range. The range must lie inside the VkBuffer
 * (FKC_ERR_OUT_OF_BOUNDS otherwise): fkc_buffer_wrap_vulkan checks it against the size
 * vkGetBufferMemoryRequirements reports for the buffer, which may exceed the size it was created
 * with by the driver's padding; fkc_buffer_wrap_vulkan_sized takes the VkBufferCreateInfo::size
 * from the host and checks against exactly that (use it when the size is at hand). Tensors may
 * start at any byte of the range. The ring position of write_slice_rotating may live in such a
 * buffer (16 bytes hold it). */
fkc_status fkc_buffer_wrap_vulkan(fkc_context *ctx, VkBuffer buffer, VkDeviceSize offset,
                                  VkDeviceSize size, VkBufferUsageFlags usage, fkc_buffer **out);
fkc_status fkc_buffer_wrap_vulkan_sized(fkc_context *ctx, VkBuffer buffer, VkDeviceSize buffer_size,
                                        VkDeviceSize offset, VkDeviceSize size,
                                        VkBufferUsageFlags usage, fkc_buffer **out);
/* The offset alignment of a wrapped range: max(16, minStorageBufferOffsetAlignment). */
uint64_t fkc_vulkan_buffer_alignment(const fkc_context *ctx);
/* Where any fkc buffer lives: the VkBuffer, the offset of its byte 0 in it and its size (each
 * pointer may be NULL). An owned buffer may share its VkBuffer with other fkc buffers (a memory
 * block): use exactly [offset, offset + size). */
fkc_status fkc_buffer_vulkan(const fkc_buffer *b, VkBuffer *buffer, VkDeviceSize *offset,
                             VkDeviceSize *size);

/* ---- Recording into the host's command buffer ---------------------------------------- */

/* The pipeline stages and accesses of fkc's commands in a command buffer: every op, copy and
 * dispatch fkc records runs in FKC_VULKAN_STAGES and reads (FKC_VULKAN_ACCESS_READ) and writes
 * (FKC_VULKAN_ACCESS_WRITE) buffer memory there, nothing else. The entry/exit contract of a
 * borrowed stream:
 *   entry: before the first fkc op that touches memory the host's earlier commands wrote (or
 *          read), the host records a barrier from its stages/accesses to FKC_VULKAN_STAGES and
 *          FKC_VULKAN_ACCESS_READ | FKC_VULKAN_ACCESS_WRITE (fkc_stream_vulkan_barrier_in);
 *   between fkc ops recorded on the same stream, fkc records its own barriers;
 *   exit:  before host commands that use what fkc wrote (or overwrite what it read), the host
 *          records a barrier from FKC_VULKAN_STAGES and FKC_VULKAN_ACCESS_WRITE to its own
 *          stages/accesses (fkc_stream_vulkan_barrier_out).
 * After an fkc op, the command buffer's compute pipeline, descriptor set 0 and push constants
 * are fkc's: the host binds its own again before its next dispatch. */
#define FKC_VULKAN_STAGES (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT)
#define FKC_VULKAN_ACCESS_READ (VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT)
#define FKC_VULKAN_ACCESS_WRITE (VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT)

/* A stream over a command buffer of the context's device that the host has begun (primary or
 * secondary, from a pool whose queue family has compute). Ops, copies and dispatches recorded on
 * it are appended to `cmd`; fkc never begins, ends, submits, waits for or resets it, and the
 * host submits it when it likes. The host's rules: record on the stream only while `cmd` is in
 * the recording state, from one thread at a time, and not while another thread records into a
 * command buffer of the same VkCommandPool (Vulkan's external synchronisation of the pool).
 * fkc_stream_submit*, fkc_stream_wait, fkc_stream_upload and fkc_stream_download refuse such a
 * stream (FKC_ERR_STATE). Without push descriptors, fkc keeps the descriptor sets of the
 * recorded ops in pools of the stream until fkc_stream_begin_vulkan or fkc_stream_destroy. */
fkc_status fkc_stream_wrap_vulkan(fkc_context *ctx, VkCommandBuffer cmd, fkc_stream **out);
/* Points a borrowed stream at `cmd` (the same command buffer begun again, or another one) and
 * starts afresh: the host promises that whatever it recorded through the stream before has
 * completed or was discarded (its command buffer reset or freed), so fkc may reuse the
 * descriptor sets of those ops. fkc_stream_begin does the same with the current command buffer.
 * An op that failed half-recorded leaves the stream refusing ops (FKC_ERR_STATE) until then:
 * the host's command buffer holds part of that op, so the host must not submit it. */
fkc_status fkc_stream_begin_vulkan(fkc_stream *stream, VkCommandBuffer cmd);
/* The entry and exit barriers of the contract above, recorded into the stream's command
 * buffer: from the host's (src_stages, src_access) to fkc's stages and accesses, and from fkc's
 * writes to the host's (dst_stages, dst_access). Also on fkc's own streams. */
fkc_status fkc_stream_vulkan_barrier_in(fkc_stream *stream, VkPipelineStageFlags src_stages,
                                        VkAccessFlags src_access);
fkc_status fkc_stream_vulkan_barrier_out(fkc_stream *stream, VkPipelineStageFlags dst_stages,
                                         VkAccessFlags dst_access);

/* ---- Submitting fkc's own streams with the host's semaphores ------------------------- */

/* One semaphore of a submission: the semaphore (of the context's device), its value (timeline
 * semaphores: the value to wait for or to signal; binary semaphores: 0) and, for a wait, the
 * stages of fkc's work that wait (0: FKC_VULKAN_STAGES). */
typedef struct fkc_vulkan_semaphore {
    VkSemaphore semaphore;
    uint64_t value;
    VkPipelineStageFlags stages;
} fkc_vulkan_semaphore;

/* What fkc_stream_submit_vulkan waits on and signals; fkc_vulkan_submit_init sets `size` and
 * zeroes the rest (growable as fkc_vulkan_device). */
typedef struct fkc_vulkan_submit {
    size_t size;                      /* sizeof, set by _init; checked */
    const fkc_vulkan_semaphore *wait; /* waited on before the stream's work starts */
    uint32_t wait_count;
    const fkc_vulkan_semaphore *signal; /* signalled when it has completed */
    uint32_t signal_count;
} fkc_vulkan_submit;

void fkc_vulkan_submit_init(fkc_vulkan_submit *submit);

/* fkc_stream_submit_async with semaphores: the stream's work waits for `wait` and signals
 * `signal` (submit may be NULL: none). A non-zero value needs timeline semaphores
 * (fkc_context_vulkan_timeline; else FKC_ERR_UNSUPPORTED). An idle stream is submitted as an
 * empty batch, so the semaphores still wait and signal. fkc_stream_wait, fkc_stream_submit's
 * rules and the ordering of fkc_stream_submit_async apply. */
fkc_status fkc_stream_submit_vulkan(fkc_stream *stream, const fkc_vulkan_submit *submit);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_VULKAN_H */
