/* fkc_profiling.h — what benchmarks and profilers use, apart from the API proper (fkc_runtime.h):
 * a context flag that keeps one kernel choice out (to measure a kernel beside the one that
 * replaced it), the counts of the device commands and barriers a recording holds, and a plain
 * vkCmdCopyBuffer (the baseline a copy's bandwidth is measured against). Part of libfkc's ABI
 * like the rest (exported, versioned, in fkc(3)), but not what a program needs to run ops: fkc's
 * own fkc-bench, its tests and docs/benchmarks.md use it. Plain C11, no Vulkan types. */
#ifndef FKC_PROFILING_H
#define FKC_PROFILING_H

#include <stdint.h>

#include "fkc/fkc_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* libfkc.so exports what its public headers declare */
#endif

/* A flag of fkc_context_options.flags: misaligned runs of at most 16 bytes take the general
 * unit-owning kernel, not the short-run one (to measure one beside the other; same results). */
#define FKC_CONTEXT_NO_SHORT_RUNS (1u << 4)

/* Device commands recorded since the stream's last begin: dispatches, copy calls and the table
 * updates of fused dispatches, the pending fused dispatch counted (its update and dispatch);
 * and the barriers recorded between them (one only where a command touches bytes an earlier
 * one since the last barrier wrote, or writes bytes one read; not the barrier that begins an
 * owned stream, nor fkc_stream_vulkan_barrier_in/out). What a step costs. */
uint32_t fkc_stream_command_count(const fkc_stream *stream);
uint32_t fkc_stream_barrier_count(const fkc_stream *stream);
/* Records a plain vkCmdCopyBuffer of `size` bytes from [src_offset, +size) of src to
 * [dst_offset, +size) of dst, in stream order (a barrier where it overlaps what earlier ops
 * touched): the baseline of the bandwidth tables. FKC_ERR_OUT_OF_BOUNDS outside a buffer,
 * FKC_ERR_INVALID_ARGUMENT for overlapping ranges of one VkBuffer. */
fkc_status fkc_stream_copy(fkc_stream *stream, fkc_buffer *dst, uint64_t dst_offset,
                           const fkc_buffer *src, uint64_t src_offset, uint64_t size);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_PROFILING_H */
