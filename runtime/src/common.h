/* common.h — what every file of runtime/src shares: the public headers, the limits and defaults
 * (one place), and error.c's error setters. Each module has its own private header beside it
 * (vk.h, context.h, memory.h, buffer.h, pipeline.h, stream.h, fused.h, slab.h, user_kernel.h);
 * none is installed. */
#ifndef FKC_COMMON_H
#define FKC_COMMON_H

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
#define FKC_TABLE_BYTES (64u << 10)  /* buffer of a stream's fused-write tables */
#define FKC_BIND_MAX 32u             /* storage buffers one of fkc's binds may take */
#define FKC_SCRATCH_BYTES (4u << 20) /* a stream's scratch chunk (more when one op needs it) */
#define FKC_SR_SCAN_ROWS                                                                           \
    512u /* set_rows ops of at most this many rows scan for duplicates;
                                        more: the scratch pass (4 bytes a slot) */
#define FKC_SR_SCRATCH_MAX (64u << 20) /* the most scratch one set_rows op takes (else: the scan) */

/* ---- error.c ---- */
/* Sets the thread's last error to "text: details" and returns status. */
fkc_status fkc_fail(fkc_status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Maps a VkResult to a status (out-of-memory results to FKC_ERR_OUT_OF_MEMORY) and sets the
 * message "<what> failed: <VkResult name>". */
fkc_status fkc_vk_fail(VkResult r, const char *what);
const char *fkc_vk_result_name(VkResult r);

#endif /* FKC_COMMON_H */
