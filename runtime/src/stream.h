/* stream.h — stream.c: command streams, their access tracking and barriers, the fused tables'
 * space and the batcher interface the batchers above install (fkc_batcher). */
#ifndef FKC_STREAM_H
#define FKC_STREAM_H

#include "common.h"

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
    bool no_fusion;          /* test hook: every write its own dispatch */
    struct fkc_batch *batch; /* pending fused writes (owned streams; allocated once) */
    fkc_table *tables;       /* buffers of the fused writes' tables */
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
    fkc_stream *next_idle, *next_pooled; /* the context's pool lists */
    struct fkc_sr_batch *sr;             /* set_rows ops waiting to be fused (set_rows.c) */
    struct fkc_scratch *scratch;         /* device scratch chunks (fkc_stream_scratch) */
    uint32_t n_scratch, cur_scratch;
    uint64_t scratch_used;                    /* bytes used in scratch[cur_scratch] */
    const fkc_batcher *batcher[FKC_BATCHERS]; /* installed by the batchers above */
};

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
/* A chunk of a stream's device scratch: zero whenever no recorded op is using it. */
typedef struct fkc_scratch {
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint64_t size;
    bool fill; /* not host-visible: zeroed by a fill at its first use in every recording */
} fkc_scratch;

/* `bytes` of device scratch for one op of this recording, at byte *at of *buf (aligned to the
 * storage offset alignment), all zero when the op's commands start, and left zero by them (the
 * op's duty: a replay finds it zero too). Regions of one recording never overlap; the next
 * recording (begin) reuses them. Chunks are host-visible memory zeroed by the host once, else
 * zeroed by a vkCmdFillBuffer and a barrier recorded now, at their first use in a recording. */
fkc_status fkc_stream_scratch(fkc_stream *s, uint64_t bytes, VkBuffer *buf, uint64_t *at);
/* A memory barrier (stream.c's one place recording vkCmdPipelineBarrier). */
void fkc_stream_memory_barrier(fkc_stream *s, VkPipelineStageFlags src, VkAccessFlags src_access,
                               VkPipelineStageFlags dst, VkAccessFlags dst_access);

#endif /* FKC_STREAM_H */
