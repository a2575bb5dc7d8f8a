/* pipeline.c — the embedded SPIR-V kernels (compiled from runtime/shaders/ at build time) and
 * their pipelines: one descriptor-set layout (pushed, or allocated from the streams' pools where
 * the device has no push descriptors) and one pipeline layout for all, and one pipeline per
 * kernel, all created with the context and read-only afterwards. */
#include "context.h"
#include "pipeline.h"

#include <stdio.h>

/* glslc -mfmt=c output: a brace-enclosed list of 32-bit words. */
static const uint32_t spv_u128[] =
#include "copy_u128.spv.inc"
    ;
static const uint32_t spv_wide[] =
#include "copy_wide.spv.inc"
    ;
static const uint32_t spv_wide_in[] =
#include "copy_wide_in.spv.inc"
    ;
static const uint32_t spv_wide_edge[] =
#include "copy_wide_edge.spv.inc"
    ;
static const uint32_t spv_wide_short[] =
#include "copy_wide_short.spv.inc"
    ;
static const uint32_t spv_ring_u128[] =
#include "ring_u128.spv.inc"
    ;
static const uint32_t spv_ring_wide[] =
#include "ring_wide.spv.inc"
    ;
static const uint32_t spv_fused[] =
#include "fused.spv.inc"
    ;
static const uint32_t spv_fused_advance[] =
#include "fused_advance.spv.inc"
    ;
static const uint32_t spv_advance[] =
#include "advance.spv.inc"
    ;
static const uint32_t spv_set_rows_word[] =
#include "set_rows_word.spv.inc"
    ;
static const uint32_t spv_set_rows_vec[] =
#include "set_rows_vec.spv.inc"
    ;
static const uint32_t spv_set_rows_fused[] =
#include "set_rows_fused.spv.inc"
    ;
static const uint32_t spv_set_rows_mark[] =
#include "set_rows_mark.spv.inc"
    ;
static const uint32_t spv_set_rows_mark_fused[] =
#include "set_rows_mark_fused.spv.inc"
    ;

static const struct {
    const uint32_t *code;
    size_t bytes;
    const char *name;
} kernels[KERNEL_COUNT] = {
    [KERNEL_U128] = {spv_u128, sizeof spv_u128, "copy_u128"},
    [KERNEL_WIDE] = {spv_wide, sizeof spv_wide, "copy_wide"},
    [KERNEL_WIDE_IN] = {spv_wide_in, sizeof spv_wide_in, "copy_wide_in"},
    [KERNEL_WIDE_EDGE] = {spv_wide_edge, sizeof spv_wide_edge, "copy_wide_edge"},
    [KERNEL_WIDE_SHORT] = {spv_wide_short, sizeof spv_wide_short, "copy_wide_short"},
    [KERNEL_RING_U128] = {spv_ring_u128, sizeof spv_ring_u128, "ring_u128"},
    [KERNEL_RING_WIDE] = {spv_ring_wide, sizeof spv_ring_wide, "ring_wide"},
    [KERNEL_FUSED] = {spv_fused, sizeof spv_fused, "fused"},
    [KERNEL_FUSED_ADVANCE] = {spv_fused_advance, sizeof spv_fused_advance, "fused_advance"},
    [KERNEL_ADVANCE] = {spv_advance, sizeof spv_advance, "advance"},
    [KERNEL_SET_ROWS_WORD] = {spv_set_rows_word, sizeof spv_set_rows_word, "set_rows_word"},
    [KERNEL_SET_ROWS_VEC] = {spv_set_rows_vec, sizeof spv_set_rows_vec, "set_rows_vec"},
    [KERNEL_SET_ROWS_FUSED] = {spv_set_rows_fused, sizeof spv_set_rows_fused, "set_rows_fused"},
    [KERNEL_SET_ROWS_MARK] = {spv_set_rows_mark, sizeof spv_set_rows_mark, "set_rows_mark"},
    [KERNEL_SET_ROWS_MARK_FUSED] = {spv_set_rows_mark_fused, sizeof spv_set_rows_mark_fused,
                                    "set_rows_mark_fused"},
};

#define PUSH_BYTES 80u /* 20 x uint, the Push block of the shaders */

fkc_status fkc_compute_layout(fkc_context *ctx, uint32_t n_buffers, uint32_t push_size,
                              const char *who, VkDescriptorSetLayout *set, VkPipelineLayout *layout)
{
    char what[64];
    VkDescriptorSetLayoutBinding b[32]; /* user kernels: FKC_KERNEL_MAX_BUFFERS; fused: 17 */
    if (n_buffers > 32)
        return fkc_fail(FKC_ERR_UNSUPPORTED, "%s%u bindings in one layout", who, n_buffers);
    for (uint32_t i = 0; i < n_buffers; i++)
        b[i] = (VkDescriptorSetLayoutBinding){.binding = i,
                                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                              .descriptorCount = 1,
                                              .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = ctx->vk.vkCmdPushDescriptorSetKHR
                     ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR
                     : 0,
        .bindingCount = n_buffers,
        .pBindings = b};
    VkResult r = ctx->vk.vkCreateDescriptorSetLayout(ctx->device, &li, ctx->alloc, set);
    if (r != VK_SUCCESS) {
        *set = VK_NULL_HANDLE;
        snprintf(what, sizeof what, "%svkCreateDescriptorSetLayout", who);
        return fkc_vk_fail(r, what);
    }
    VkPushConstantRange pr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = push_size};
    VkPipelineLayoutCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 1,
                                     .pSetLayouts = set,
                                     .pushConstantRangeCount = push_size ? 1u : 0u,
                                     .pPushConstantRanges = &pr};
    r = ctx->vk.vkCreatePipelineLayout(ctx->device, &pi, ctx->alloc, layout);
    if (r != VK_SUCCESS) {
        *layout = VK_NULL_HANDLE;
        snprintf(what, sizeof what, "%svkCreatePipelineLayout", who);
        return fkc_vk_fail(r, what);
    }
    return FKC_OK;
}

fkc_status fkc_pipelines_init(fkc_context *ctx)
{
    /* bindings: source, destination, ring position */
    fkc_status st = fkc_compute_layout(ctx, 3, PUSH_BYTES, "", &ctx->set_layout,
                                       &ctx->pipeline_layout);
    /* fused.comp binds its table and FKC_FUSE_READ + FKC_FUSE_WRITE windows: devices binding fewer storage
     * buffers per stage record every write as its own dispatch. */
    ctx->fusion = ctx->max_push_buffers >= 1 + FKC_FUSE_READ + FKC_FUSE_WRITE;
    if (st == FKC_OK && ctx->fusion)
        st = fkc_compute_layout(ctx, 1 + FKC_FUSE_READ + FKC_FUSE_WRITE, 8, "",
                                &ctx->fused_set_layout, &ctx->fused_layout);
    /* its advancing variant binds 2 more (its counter, the position's window) and is used with
     * push descriptors only (the set is chosen when the advance comes, after the writes) */
    ctx->fused_advance = ctx->fusion && ctx->vk.vkCmdPushDescriptorSetKHR &&
                         ctx->max_bindings >= 3 + FKC_FUSE_READ + FKC_FUSE_WRITE;
    if (st == FKC_OK && ctx->fused_advance)
        st = fkc_compute_layout(ctx, 3 + FKC_FUSE_READ + FKC_FUSE_WRITE, 20, "",
                                &ctx->fused_advance_set_layout, &ctx->fused_advance_layout);
    if (st == FKC_OK)
        st = fkc_compute_layout(ctx, 1, 16, "", &ctx->advance_set_layout, &ctx->advance_layout);
    if (st == FKC_OK) /* set_rows.comp: source, index, cache, status, scratch; 23 words of push */
        st = fkc_compute_layout(ctx, 5, 92, "", &ctx->set_rows_set_layout, &ctx->set_rows_layout);
    if (st == FKC_OK && ctx->fusion) /* fused: its table, 4 read, 8 written windows, scratch */
        st = fkc_compute_layout(ctx, 14, 8, "", &ctx->set_rows_fused_set_layout,
                                &ctx->set_rows_fused_layout);
    /* Every kernel is built now, so that recording an op never fails half-way (an op either
     * records completely or not at all), and the pipelines are read-only afterwards. */
    for (int k = 0; k < KERNEL_COUNT && st == FKC_OK; k++) {
        VkPipelineLayout layout = k == KERNEL_FUSED                 ? ctx->fused_layout
                                  : k == KERNEL_FUSED_ADVANCE       ? ctx->fused_advance_layout
                                  : k == KERNEL_ADVANCE             ? ctx->advance_layout
                                  : k == KERNEL_SET_ROWS_FUSED      ? ctx->set_rows_fused_layout
                                  : k == KERNEL_SET_ROWS_MARK_FUSED ? ctx->set_rows_fused_layout
                                  : k >= KERNEL_SET_ROWS_WORD       ? ctx->set_rows_layout
                                                                    : ctx->pipeline_layout;
        if (((k == KERNEL_FUSED || k == KERNEL_SET_ROWS_FUSED || k == KERNEL_SET_ROWS_MARK_FUSED) &&
             !ctx->fusion) ||
            (k == KERNEL_FUSED_ADVANCE && !ctx->fused_advance))
            continue;
        st = fkc_compute_pipeline(ctx, kernels[k].code, kernels[k].bytes, layout, "",
                                  &ctx->pipelines[k]);
    }
    return st;
}

void fkc_pipelines_destroy(fkc_context *ctx)
{
    for (int k = 0; k < KERNEL_COUNT; k++)
        if (ctx->pipelines[k])
            ctx->vk.vkDestroyPipeline(ctx->device, ctx->pipelines[k], ctx->alloc);
    VkPipelineLayout layouts[6] = {ctx->pipeline_layout,      ctx->fused_layout,
                                   ctx->fused_advance_layout, ctx->advance_layout,
                                   ctx->set_rows_layout,      ctx->set_rows_fused_layout};
    VkDescriptorSetLayout sets[5] = {ctx->fused_set_layout, ctx->fused_advance_set_layout,
                                     ctx->advance_set_layout, ctx->set_rows_set_layout,
                                     ctx->set_rows_fused_set_layout};
    for (int i = 0; i < 6; i++)
        if (layouts[i])
            ctx->vk.vkDestroyPipelineLayout(ctx->device, layouts[i], ctx->alloc);
    for (int i = 0; i < 5; i++)
        if (sets[i])
            ctx->vk.vkDestroyDescriptorSetLayout(ctx->device, sets[i], ctx->alloc);
    if (ctx->set_layout)
        ctx->vk.vkDestroyDescriptorSetLayout(ctx->device, ctx->set_layout, ctx->alloc);
}

fkc_status fkc_compute_pipeline(fkc_context *ctx, const uint32_t *code, size_t bytes,
                                VkPipelineLayout layout, const char *who, VkPipeline *out)
{
    char what[64];
    VkShaderModuleCreateInfo mi = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = bytes, .pCode = code};
    VkShaderModule mod;
    *out = VK_NULL_HANDLE;
    VkResult r = ctx->vk.vkCreateShaderModule(ctx->device, &mi, ctx->alloc, &mod);
    if (r != VK_SUCCESS) {
        snprintf(what, sizeof what, "%svkCreateShaderModule", who);
        return fkc_vk_fail(r, what);
    }
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = mod,
                  .pName = "main"},
        .layout = layout};
    r = ctx->vk.vkCreateComputePipelines(ctx->device, VK_NULL_HANDLE, 1, &ci, ctx->alloc, out);
    ctx->vk.vkDestroyShaderModule(ctx->device, mod, ctx->alloc);
    if (r != VK_SUCCESS) {
        *out = VK_NULL_HANDLE;
        snprintf(what, sizeof what, "%svkCreateComputePipelines", who);
        return fkc_vk_fail(r, what);
    }
    return FKC_OK;
}

VkPipeline fkc_pipeline_get(const fkc_context *ctx, kernel_id k)
{
    return ctx->pipelines[k];
}
