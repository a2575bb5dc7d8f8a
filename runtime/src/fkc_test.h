/* fkc_test.h — test-only hooks of the runtime, for fkc's own tests and fkc-bench: a context that
 * describes a smaller device (so that lavapipe runs the paths that split large work), memory
 * blocks of another size, descriptor pools instead of push descriptors, a wrapping
 * vkGetInstanceProcAddr, and counters. Private: not installed, and defined only by the test
 * build of the library (build/libfkc-test.a, compiled with -DFKC_TEST_HOOKS); the shipped
 * libfkc has none of these symbols. */
#ifndef FKC_TEST_H
#define FKC_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "fkc/fkc_runtime.h"

typedef struct fkc_test_hooks {
    uint64_t storage_buffer_range; /* 0: the device's; else min(device, max(this, 256)) */
    uint32_t work_group_count;     /* 0: the device's; else min(device, this) per dimension */
    uint64_t block_bytes;          /* 0: the default memory block size */
    bool no_push_descriptors;      /* descriptor pools even where push descriptors exist */
    bool no_host_tables;           /* fused writes' tables by vkCmdUpdateBuffer, never mapped */
    uint32_t set_rows_scan_rows;   /* 0: the default; else set_rows ops of more rows than this
                                      find duplicates with the scratch pass, not the scan */
} fkc_test_hooks;

/* fkc_context_create with hooks (NULL: none) and a vkGetInstanceProcAddr (NULL: the loader's).
 * The context's fkc_context_device then reports the lowered limits, as a smaller device would. */
fkc_status fkc_test_context_create(const fkc_context_options *options, const fkc_test_hooks *hooks,
                                   PFN_vkGetInstanceProcAddr gipa, fkc_context **out);
/* The storage window and grid limit the runtime works to. */
uint64_t fkc_test_storage_range(const fkc_context *ctx);
uint32_t fkc_test_work_group_count(const fkc_context *ctx);
/* Device commands (dispatches, copy calls, the fused dispatches' table updates) recorded since
 * the stream's last begin, the pending fused dispatch counted (its update and dispatch): large
 * work split into several dispatches shows here, fused writes as one. */
uint32_t fkc_test_command_count(const fkc_stream *stream);
/* Barriers between ops recorded since the stream's last begin (not the entry barrier of an
 * owned stream, nor the host's entry and exit barriers): one is recorded only where an op
 * touches bytes an earlier op since the last barrier wrote, or writes bytes one read. */
uint32_t fkc_test_barrier_count(const fkc_stream *stream);
/* Whether the stream records small aligned writes into one fused dispatch (the default where
 * the device allows; false: each write its own dispatch, as before issue 15). */
void fkc_test_set_fusion(fkc_stream *stream, bool on);
/* Memory blocks alive now, and the size of a new one. */
uint32_t fkc_test_block_count(fkc_context *ctx);
uint64_t fkc_test_block_bytes(const fkc_context *ctx);

#endif /* FKC_TEST_H */
