/* fkc_runtime.h — the public API of the fkc Vulkan runtime (libfkc): contexts and device
 * selection, device buffers, command streams, and the write-slice ops. The library never
 * prints or exits: every call returns an fkc_status, and fkc_last_error() says why.
 * Plain C11; Vulkan types never appear here (fkc/fkc_vulkan.h has the calls that take the
 * host's own Vulkan objects).
 *
 * Threads. A context may be used from several threads at once: every call that takes an
 * fkc_context (creating and destroying buffers, streams and kernels, fkc_kernel_cached, the
 * one-shot *_sync calls) and the synchronous fkc_buffer_upload / fkc_buffer_download are safe to
 * call concurrently, on the same context or on several. A stream is used by one thread at a
 * time (recording, submitting, waiting, destroying): streams of one context may be recorded and
 * submitted from different threads at once, each stream by its own thread. fkc enforces it: a
 * call on a stream made while another thread is inside a call on the same stream does nothing
 * and returns FKC_ERR_STATE (an atomic owner flag, no lock; fkc_stream_destroy cannot refuse,
 * so destroying a stream another thread uses stays the caller's error). A buffer or kernel
 * may be used by several streams and threads at once (an op reads or writes the device memory
 * when it runs; ops of different streams that touch the same bytes are ordered only by the
 * order of their submissions, see fkc_stream_submit_async); destroying one must not race with
 * any other use of it. fkc_last_error() is per thread. Submissions to the context's queue are
 * serialised inside fkc (for a queue the host lent, fkc/fkc_vulkan.h says the host's rule).
 * In Rust's terms: contexts, buffers and kernels are Send and Sync, streams Send only; and
 * every buffer, stream and kernel keeps its context alive (fkc_context_destroy). */
#ifndef FKC_RUNTIME_H
#define FKC_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fkc/fkc_types.h"
#include "fkc/fkc_version.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* libfkc.so exports what its public headers declare */
#endif

typedef struct fkc_context fkc_context; /* one Vulkan device + compute queue (owned or borrowed) */

/* ---- Errors -------------------------------------------------------------------------- */

/* The message of the last failed call on this thread (never NULL; "" when none yet).
 * Valid until the next fkc call on the same thread. */
const char *fkc_last_error(void);
/* For code outside the library that refuses a call the way the runtime does (a byte-width
 * wrapper of a user op family): sets this thread's last error to "<status text>: <message>"
 * (printf format) and returns status. */
fkc_status fkc_set_error(fkc_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- Devices ------------------------------------------------------------------------- */

typedef enum fkc_device_type {
    FKC_DEVICE_OTHER,
    FKC_DEVICE_INTEGRATED_GPU,
    FKC_DEVICE_DISCRETE_GPU,
    FKC_DEVICE_VIRTUAL_GPU,
    FKC_DEVICE_CPU
} fkc_device_type;

/* "discrete-gpu", "integrated-gpu", "virtual-gpu", "cpu", "other". */
const char *fkc_device_type_name(fkc_device_type type);

/* What `fkc-run devices` lists about one Vulkan physical device. */
typedef struct fkc_device_info {
    uint32_t index;                    /* position in Vulkan's enumeration order */
    char name[256];                    /* VkPhysicalDeviceProperties::deviceName */
    fkc_device_type type;              /* discrete / integrated / cpu ... */
    uint32_t vendor_id;                /* PCI vendor id */
    uint32_t device_id;                /* PCI device id */
    uint32_t api_version;              /* packed Vulkan version (major<<22|minor<<12|patch) */
    uint32_t driver_version;           /* vendor-specific packing */
    uint64_t max_storage_buffer_range; /* bytes one storage-buffer binding may span */
    uint32_t max_compute_work_group_count[3]; /* grid limit per dimension */
    uint32_t max_compute_work_group_size[3];  /* local size limit per dimension */
    uint32_t max_compute_work_group_invocations;
    uint32_t max_push_constants_size; /* bytes */
    uint64_t min_storage_buffer_offset_alignment;
    bool storage_8bit;           /* storageBuffer8BitAccess available */
    bool storage_16bit;          /* storageBuffer16BitAccess available */
    bool has_compute_queue;      /* a queue family with VK_QUEUE_COMPUTE_BIT */
    uint64_t device_local_bytes; /* size of the largest device-local heap */
} fkc_device_info;

/* Lists the Vulkan devices: fills up to `capacity` entries of `infos` (may be NULL when
 * capacity is 0) and sets *count to the number of devices present. FKC_ERR_NO_DEVICE when
 * Vulkan cannot be loaded or has no device. */
fkc_status fkc_enumerate_devices(fkc_device_info *infos, uint32_t capacity, uint32_t *count);

/* ---- Contexts ------------------------------------------------------------------------ */

/* How ops move bytes. AUTO picks per device (vkCmdCopyBuffer regions for long rows on CPU
 * devices such as lavapipe, compute shaders elsewhere); results are bit-identical either way. */
typedef enum fkc_copy_path {
    FKC_COPY_AUTO,
    FKC_COPY_COMPUTE, /* always the compute kernels */
    FKC_COPY_TRANSFER /* always vkCmdCopyBuffer regions */
} fkc_copy_path;

/* Called with each Vulkan validation-layer message (only with FKC_CONTEXT_VALIDATION). */
typedef void (*fkc_message_fn)(void *user, const char *message);

enum {
    FKC_CONTEXT_VALIDATION = 1u << 0, /* enable VK_LAYER_KHRONOS_validation + a messenger */
    FKC_CONTEXT_IGNORE_ENV = 1u << 1, /* do not read FKC_DEVICE */
    /* 1u << 2 was FKC_CONTEXT_NO_SMALL_STORAGE, which did nothing; it is refused now */
    FKC_CONTEXT_RING_READBACK = 1u << 3, /* write_slice_rotating reads the position back to the
                                           host when the op is recorded (a submit + wait)
                                           instead of on the device when it runs */
    /* 1u << 4 is FKC_CONTEXT_NO_SHORT_RUNS, a benchmark's flag: fkc/fkc_profiling.h */
    FKC_CONTEXT_DEBUG_LIFETIME = 1u << 5 /* a debug mode: each destroy of a kernel, stream,
                                           buffer or the context first waits for the device to
                                           be idle (vkDeviceWaitIdle), so work still pending
                                           that uses the object (a host's submission, see
                                           fkc_vulkan.h) completes first instead of using a
                                           destroyed object */
};

/* Options of fkc_context_create; fkc_context_options_init sets the defaults, `size` among
 * them. Device choice, first match wins: device_index >= 0; device_name != NULL (exact name,
 * else a case-insensitive substring; "" is refused); the FKC_DEVICE environment variable (an
 * index or a name, same rules); else the first discrete or integrated GPU, else the first CPU
 * device (lavapipe), else any device. The struct can grow: later versions of fkc append fields
 * and accept this version's size, so always start from fkc_context_options_init. */
typedef struct fkc_context_options {
    size_t size;                  /* sizeof(fkc_context_options), set by _init; checked */
    int32_t device_index;         /* -1: not chosen by index */
    const char *device_name;      /* NULL: not chosen by name */
    uint32_t flags;               /* FKC_CONTEXT_* */
    fkc_copy_path copy_path;      /* FKC_COPY_AUTO by default */
    fkc_message_fn on_validation; /* optional; see fkc_context_validation_count too */
    void *on_validation_user;     /* passed to on_validation */
} fkc_context_options;

void fkc_context_options_init(fkc_context_options *options); /* (NULL: ignored) */

/* Creates a context on the chosen device: fkc creates and owns its Vulkan instance, device and
 * one compute queue (options may be NULL: defaults). *out is NULL on failure:
 * FKC_ERR_NO_DEVICE (no Vulkan / no device), FKC_ERR_DEVICE_NOT_FOUND (the index or name
 * matches nothing), FKC_ERR_INVALID_ARGUMENT (options not from fkc_context_options_init, an
 * unknown flag or copy path), FKC_ERR_UNSUPPORTED, FKC_ERR_VULKAN, FKC_ERR_OUT_OF_MEMORY. */
fkc_status fkc_context_create(const fkc_context_options *options, fkc_context **out);
/* Releases the caller's hold on the context; NULL is a no-op. Every buffer, stream and kernel
 * holds the context too: the context, and its device when fkc owns it, are freed when the last
 * of them is destroyed (after waiting for the device; what fkc borrowed is never destroyed).
 * So destroying a context before its objects is safe: they keep working until destroyed. Do
 * not pass ctx itself to any call after this one. */
void fkc_context_destroy(fkc_context *ctx);
/* The device the context runs on. */
const fkc_device_info *fkc_context_device(const fkc_context *ctx);
/* Validation messages received so far (FKC_CONTEXT_VALIDATION): the validation layer's
 * warnings and errors (validation and performance messages); the loader's general messages,
 * such as its warning that VK_INSTANCE_LAYERS added a layer, are not counted nor passed to
 * on_validation. Tests fail when non-zero. */
uint64_t fkc_context_validation_count(const fkc_context *ctx);
/* The last validation message, or "" when none. */
const char *fkc_context_validation_last(const fkc_context *ctx);

/* ---- Buffers ------------------------------------------------------------------------- */

/* A device-local buffer of `size` bytes (size > 0), contents undefined, owned by fkc. Small
 * buffers share large device-memory blocks (one vkAllocateMemory serves many buffers, and
 * destroying a buffer returns its space); large ones get an allocation of their own. */
fkc_status fkc_buffer_create(fkc_context *ctx, uint64_t size, fkc_buffer **out);
/* Destroys the buffer handle; NULL is a no-op. Memory fkc owns is returned; a borrowed buffer's
 * memory (fkc_buffer_wrap_vulkan) is left to the host. Work using it must have completed
 * (fkc_stream_submit, or fkc_stream_wait after fkc_stream_submit_async). The behaviour is
 * undefined (no status can report it) when a buffer is destroyed twice, or used after it is
 * destroyed: passed to any call, or named by a tensor or a recording replayed later. */
void fkc_buffer_destroy(fkc_buffer *buffer);
uint64_t fkc_buffer_size(const fkc_buffer *buffer);
fkc_context *fkc_buffer_context(const fkc_buffer *buffer);
/* Whether the buffer is the host's (fkc_buffer_wrap_vulkan) rather than fkc's. */
bool fkc_buffer_borrowed(const fkc_buffer *buffer);
/* Synchronous copies between host memory and [offset, offset + size) of the buffer, through
 * host-visible staging (uploads) and host-cached memory (downloads); they wait for completion.
 * They run after everything submitted before them on the context's queue.
 * FKC_ERR_OUT_OF_BOUNDS when the range is not inside the buffer. */
fkc_status fkc_buffer_upload(fkc_buffer *buffer, uint64_t offset, const void *data, uint64_t size);
fkc_status fkc_buffer_download(const fkc_buffer *buffer, uint64_t offset, void *data,
                               uint64_t size);

/* ---- Streams ------------------------------------------------------------------------- */

/* A stream records ops into a command buffer and submits them together. Ops recorded in one
 * stream run in recording order (a barrier separates them). A stream fkc_stream_create makes
 * owns its command pool, command buffer and fence; fkc/fkc_vulkan.h also has streams over a
 * command buffer of the host's, which the host submits. */
fkc_status fkc_stream_create(fkc_context *ctx, fkc_stream **out);
/* Frees the stream, first waiting for its submitted work; NULL is a no-op. */
void fkc_stream_destroy(fkc_stream *stream);
/* Starts recording, discarding anything recorded and not submitted (recorded downloads
 * included: their host memory is not written). Optional: recording an op on an idle stream
 * begins it. A stream whose submitted work has not completed first waits for it: a stream has
 * one command buffer (use a second stream to record while the first runs). */
fkc_status fkc_stream_begin(fkc_stream *stream);
/* Submits what was recorded and waits for it (fkc_stream_submit_async, then fkc_stream_wait
 * without a timeout); the stream is then idle and reusable. Submitting an idle stream
 * (nothing recorded) is FKC_OK and does nothing. A refused op records nothing; should an op
 * fail after part of it was recorded (a Vulkan failure), submit runs nothing and returns
 * FKC_ERR_STATE, and the stream is idle again. */
fkc_status fkc_stream_submit(fkc_stream *stream);
/* Submits what was recorded and returns without waiting. Work submitted on a context's queue
 * runs after everything submitted there before it (each stream's work starts behind a barrier
 * covering all earlier submissions), whichever stream or thread submitted it. Until the work
 * has completed (fkc_stream_wait), the buffers it uses must stay alive and recorded uploads'
 * host memory is already copied (recording copies it), recorded downloads' is not yet written.
 * Same refusals as fkc_stream_submit. */
fkc_status fkc_stream_submit_async(fkc_stream *stream);
/* Waits at most timeout_ns nanoseconds (UINT64_MAX: no limit; 0: only looks) for the stream's
 * submitted work: FKC_OK once it has completed (then recorded downloads have written their host
 * memory, and fkc_stream_device_seconds is set), FKC_ERR_TIMEOUT when it is still running (the
 * stream stays in flight: wait again), FKC_OK at once on a stream with nothing in flight. */
fkc_status fkc_stream_wait(fkc_stream *stream, uint64_t timeout_ns);
/* Recorded copies between host memory and [offset, offset + size) of a buffer, in stream
 * order with the ops (FKC_ERR_OUT_OF_BOUNDS outside the buffer). The upload copies `data`
 * into the stream's staging memory now (the caller may reuse it at once); the download writes
 * `data` when the stream's work completes (fkc_stream_submit, or fkc_stream_wait returning
 * FKC_OK), so `data` must stay valid until then. Streams over a host's command buffer refuse
 * both (FKC_ERR_STATE): the host knows when its work completes, fkc does not. */
fkc_status fkc_stream_upload(fkc_stream *stream, fkc_buffer *buffer, uint64_t offset,
                             const void *data, uint64_t size);
fkc_status fkc_stream_download(fkc_stream *stream, const fkc_buffer *buffer, uint64_t offset,
                               void *data, uint64_t size);
/* Submits the stream's last submitted recording again, as it was recorded: no recording, no
 * allocation and no descriptor update (fkc_stream_replay waits for it, as fkc_stream_submit
 * does; fkc_stream_replay_async does not). Its ops read their device inputs afresh (a ring
 * position a recorded fkc_stream_advance moved on), recorded uploads copy the bytes they
 * copied when recorded, and recorded downloads write their host memory again when the replay
 * completes. A stream in flight is first waited for. FKC_ERR_STATE when the stream is
 * recording (submit first), has nothing submitted since its last begin, or records into a
 * host's command buffer (the host resubmits its own), and when the recording holds a
 * write_slice_rotating whose position was read back to the host when it was recorded
 * (FKC_CONTEXT_RING_READBACK, or a ring the device kernels cannot take: see
 * fkc_write_slice_rotating): its rows are placed at that position, so a replay after the
 * position moved would write the old rows; fkc refuses it rather than re-read, and nothing is
 * submitted. Record such a step again for each position instead. */
fkc_status fkc_stream_replay(fkc_stream *stream);
fkc_status fkc_stream_replay_async(fkc_stream *stream);
/* Records a small op adding `delta` (mod 2^64) to the little-endian u64 at `offset` of
 * `position` on the device, in stream order: after the ops recorded before it that read those
 * bytes, before the ops recorded after it. With fkc_stream_replay, a decode step's rotating
 * writes then land at successive ring positions with no host upload. After fused writes (an
 * owned stream's small aligned ones) it is part of their dispatch, else a dispatch of its own
 * (docs/runtime.md, Replay). offset: a multiple of 8
 * (FKC_ERR_INVALID_ARGUMENT otherwise); FKC_ERR_OUT_OF_BOUNDS outside the buffer. */
fkc_status fkc_stream_advance(fkc_stream *stream, fkc_buffer *position, uint64_t offset,
                              uint64_t delta);
/* Device time, in seconds, between the start and the end of the last completed work, from
 * Vulkan timestamps (excludes the submit and the wait); negative when the queue has no
 * timestamps, nothing completed yet, or the stream records into a host's command buffer.
 * For benchmarks. */
double fkc_stream_device_seconds(const fkc_stream *stream);
/* Ops recorded since the last begin. */
uint32_t fkc_stream_op_count(const fkc_stream *stream);
fkc_context *fkc_stream_context(const fkc_stream *stream);
/* (The command and barrier counters and fkc_stream_copy, for benchmarks: fkc/fkc_profiling.h.) */

/* ---- Ops ----------------------------------------------------------------------------- */

/* Tensor byte size (elements * dtype size), overflow-checked. */
fkc_status fkc_tensor_bytes(const fkc_tensor *t, uint64_t *bytes);

/* write_slice: `out` holds the destination (out->shape = dst_shape) and its slab at `offsets`
 * (out->rank entries) is overwritten in place with `src` (same rank and dtype). Recorded into
 * `stream`; calls the wrapper of the dtype's byte width, fkc_write_slice_b<width>
 * (fkc_kernels.h). Checks are those
 * of fkc_plan_write_slice (identical to the reference): FKC_ERR_RANK, FKC_ERR_OUT_OF_BOUNDS,
 * FKC_ERR_OVERFLOW, FKC_ERR_NO_KERNEL (dtype pair not bound), FKC_ERR_INVALID_ARGUMENT
 * (tensor outside its buffer, buffers of another context). */
fkc_status fkc_write_slice(fkc_stream *stream, const fkc_tensor *src, fkc_tensor *out,
                           const size_t *offsets);

/* write_slice_rotating: out->shape is the ring (one axis of extent `capacity`); the ring
 * position is the little-endian u64 at `position_offset` in `position` (any fkc buffer, a
 * host's borrowed one too). By default the kernel reads it on the device when the op runs, so
 * a position written earlier in the same stream is seen and recording waits for nothing. With
 * FKC_CONTEXT_RING_READBACK, and for rings the device kernels cannot take (a capacity of 2^31
 * or more, a ring whose one 16-byte column exceeds a storage window), it is read back to the
 * host when the op is recorded instead (the contract's D2H: a submit + wait; ops still
 * unsubmitted in this stream are not seen), and fkc_stream_replay refuses the recording
 * (FKC_ERR_STATE). Source element i along the rotating axis lands at
 * (position + i) mod capacity, the last write winning; a write crossing the ring end is split
 * in two. axis: the rotating axis, or -1 to infer it (the single axis of extent capacity).
 * Checks as fkc_plan_rotating. */
fkc_status fkc_write_slice_rotating(fkc_stream *stream, const fkc_tensor *src, fkc_tensor *out,
                                    size_t capacity, const fkc_buffer *position,
                                    uint64_t position_offset, int32_t axis);

/* One-shot conveniences: record the op in a stream of the context's own, submit and wait
 * (safe from several threads at once: each call takes a stream of its own from a pool). */
fkc_status fkc_write_slice_sync(fkc_context *ctx, const fkc_tensor *src, fkc_tensor *out,
                                const size_t *offsets);
fkc_status fkc_write_slice_rotating_sync(fkc_context *ctx, const fkc_tensor *src, fkc_tensor *out,
                                         size_t capacity, const fkc_buffer *position,
                                         uint64_t position_offset, int32_t axis);

/* set_rows (row-indexed writes, a paged KV cache's): for each source row i whose index[i] >= 0,
 * slot index[i] of `out` (the cache) becomes convert(source row i). Recorded into `stream`;
 * the indices are read on the device when the op runs (a replay sees indices written since).
 * - The slot: slot_axis -1: axis 0 of out ([slots, heads, dim]); k >= 1: the slot is split
 *   over axes 0 and k, slot = i0 * out->shape[k] + ik (NHD paged [blocks, block_size, heads,
 *   dim]: k = 1; HND [blocks, heads, block_size, dim]: k = 2). A row is the box of the other
 *   axes of out, in order; src is [n, those axes] and index is [n], I32 or I64.
 * - Indices: negative ones are skipped; one at or past the slot count (I64 ones of 2^31 and
 *   more included: never truncated) writes nothing and, when `status` is not NULL, adds 1
 *   (mod 2^32) to the little-endian u32 at `status_offset` (4-aligned) of `status`: the
 *   caller zeroes it and reads it back. A slot named by several rows gets the last of them
 *   (highest i), whole: never a mix.
 * - [src, out] dtypes: the same dtype (a bit copy, any width); F32 -> F16 and F32 -> BF16,
 *   rounded to nearest even (overflow to +-Inf, subnormals kept, NaN stays a quiet NaN with its
 *   top payload bits: F16 sign|0x7e00|payload>>13, BF16 bits>>16|0x40); F16 -> F32 and
 *   BF16 -> F32, exact. Other pairs: FKC_ERR_NO_KERNEL. No FP8: fkc has no FP8 dtype.
 * Refusals record nothing: FKC_ERR_RANK, FKC_ERR_SHAPE, FKC_ERR_DTYPE (the index not I32/I64),
 * FKC_ERR_OVERFLOW, FKC_ERR_INVALID_ARGUMENT (tensors outside their buffers or on another
 * context, out overlapping src, the index or the status word, a bad slot_axis),
 * FKC_ERR_OUT_OF_BOUNDS (the status word outside its buffer), FKC_ERR_UNSUPPORTED (the
 * cache's contiguous runs or its offset not whole 32-bit words, the index not 4-aligned, a
 * 16-bit source not 2-aligned, a tensor over one storage window, 2^31 slots or more). */
fkc_status fkc_set_rows(fkc_stream *stream, const fkc_tensor *src, const fkc_tensor *index,
                        fkc_tensor *out, int32_t slot_axis, fkc_buffer *status,
                        uint64_t status_offset);
/* The same, one-shot (recorded in a stream of the context's own, submitted and waited for). */
fkc_status fkc_set_rows_sync(fkc_context *ctx, const fkc_tensor *src, const fkc_tensor *index,
                             fkc_tensor *out, int32_t slot_axis, fkc_buffer *status,
                             uint64_t status_offset);

/* ---- User kernels ------------------------------------------------------------------- */

/* A compute kernel of the caller's: a SPIR-V module turned into a pipeline once, then recorded
 * on streams with fkc_stream_dispatch, ordered with the built-in ops by the same barriers. The
 * module's interface: a GLCompute entry point "main"; only storage buffers, in descriptor set 0
 * at bindings 0..n_buffers-1 (each dispatch binds all of them); at most push_size bytes of push
 * constants. See docs/runtime.md (### User kernels) and docs/adding-an-op.md. */
typedef struct fkc_kernel fkc_kernel;

#define FKC_KERNEL_MAX_BUFFERS                                                                     \
    16 /* storage buffers one kernel may bind (the device may allow fewer) */

/* One storage-buffer binding of a dispatch: `range` bytes (> 0) at `offset` of `buffer`. The
 * offset must be a multiple of the device's min_storage_buffer_offset_alignment; the range may
 * reach into the padding that rounds a buffer's allocation up to a multiple of 16 bytes (so a
 * kernel may own whole 32-bit words), and at most max_storage_buffer_range. */
typedef struct fkc_buffer_range {
    fkc_buffer *buffer;
    uint64_t offset; /* bytes */
    uint64_t range;  /* bytes */
} fkc_buffer_range;

/* Creates a kernel from a SPIR-V module of n_words 32-bit words (copied; the caller may free
 * them). The module is read first: a malformed one, a binding outside set 0 / 0..n_buffers-1,
 * a uniform buffer, image or sampler, or push constants larger than push_size are
 * FKC_ERR_INVALID_ARGUMENT; a SPIR-V version or local size the device cannot take is
 * FKC_ERR_UNSUPPORTED; n_buffers over the device's limit (at most FKC_KERNEL_MAX_BUFFERS) or a
 * push_size that is not a multiple of 4 within max_push_constants_size is
 * FKC_ERR_INVALID_ARGUMENT; a refusal by the driver is FKC_ERR_VULKAN. *out is NULL on failure.
 * The caller destroys it with fkc_kernel_destroy, before the context. */
fkc_status fkc_kernel_create(fkc_context *ctx, const uint32_t *words, size_t n_words,
                             uint32_t n_buffers, uint32_t push_size, fkc_kernel **out);
/* The same, owned by the context: the first call creates the kernel, later calls with the same
 * module words, n_buffers and push_size return it (a per-context cache, freed with the
 * context; safe from several threads at once). For wrappers that only see a stream:
 * fkc_stream_context gives its context. */
fkc_status fkc_kernel_cached(fkc_context *ctx, const uint32_t *words, size_t n_words,
                             uint32_t n_buffers, uint32_t push_size, fkc_kernel **out);
/* Frees a kernel of fkc_kernel_create (work recorded with it must have completed); NULL and
 * kernels of fkc_kernel_cached are ignored. */
void fkc_kernel_destroy(fkc_kernel *kernel);
/* The module's work-group size (LocalSize; 1, 1, 1 when it states none; 0, 0, 0 for a NULL
 * kernel; a NULL size is ignored). */
void fkc_kernel_local_size(const fkc_kernel *kernel, uint32_t size[3]);

/* Records one dispatch of `kernel` on the stream: n_buffers ranges (exactly the kernel's count,
 * bound to bindings 0..n-1), push_size bytes of push constants (exactly the kernel's
 * push_size; push may be NULL when it is 0) and a grid of groups_x * groups_y * groups_z work
 * groups. It runs after every op recorded before it on the stream and before every op recorded
 * after it (a barrier separates them, as between built-in ops). A grid with a zero dimension
 * records nothing but counts as an op. Refusals record nothing: FKC_ERR_INVALID_ARGUMENT (NULL
 * arguments, a count that differs from the kernel's, a buffer or kernel of another context, a
 * misaligned offset, more groups in a dimension than the device allows), FKC_ERR_OUT_OF_BOUNDS
 * (a range empty or outside its buffer, or over the storage range). */
fkc_status fkc_stream_dispatch(fkc_stream *stream, const fkc_kernel *kernel,
                               const fkc_buffer_range *buffers, uint32_t n_buffers,
                               const void *push, uint32_t push_size, uint32_t groups_x,
                               uint32_t groups_y, uint32_t groups_z);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_RUNTIME_H */
