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
} fkc_test_hooks;

/* fkc_context_create with hooks (NULL: none) and a vkGetInstanceProcAddr (NULL: the loader's).
 * The context's fkc_context_device then reports the lowered limits, as a smaller device would. */
fkc_status fkc_test_context_create(const fkc_context_options *options,
                                   const fkc_test_hooks *hooks, PFN_vkGetInstanceProcAddr gipa,
                                   fkc_context **out);
/* The storage window and grid limit the runtime works to. */
uint64_t fkc_test_storage_range(const fkc_context *ctx);
uint32_t fkc_test_work_group_count(const fkc_context *ctx);
/* Device commands (dispatches and copy calls) recorded since the stream's last begin: large
 * work split into several dispatches shows here. */
uint32_t fkc_test_command_count(const fkc_stream *stream);
/* Memory blocks alive now, and the size of a new one. */
uint32_t fkc_test_block_count(fkc_context *ctx);
uint64_t fkc_test_block_bytes(const fkc_context *ctx);

#endif /* FKC_TEST_H */
