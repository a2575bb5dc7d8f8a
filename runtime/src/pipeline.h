/* pipeline.h — pipeline.c: the runtime's kernels (one pipeline each) and compute layouts. */
#ifndef FKC_PIPELINE_H
#define FKC_PIPELINE_H

#include "common.h"

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
    KERNEL_SET_ROWS_MARK,  /* the first pass of the linear duplicate rule: each slot's last row */
    KERNEL_SET_ROWS_MARK_FUSED, /* and of the ops of a fused dispatch */
    KERNEL_COUNT
} kernel_id;

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

#endif /* FKC_PIPELINE_H */
