/* bare.c — fkc-bench's references straight on Vulkan (see bare.h): its own instance and device,
 * push descriptors, the plain copy shader compiled from runtime/bench/plain_copy.comp. Storage
 * windows are split at maxStorageBufferRange as the runtime splits them. */
#include "bare.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan.h>

static const uint32_t plain_spv[] =
#include "plain_copy.spv.inc"
    ;

struct bare {
    VkInstance inst;
    VkPhysicalDevice pd;
    VkDevice dev;
    VkQueue queue;
    uint32_t family;
    VkPhysicalDeviceMemoryProperties mem;
    uint64_t range, align; /* usable storage window, window offset alignment */
    uint32_t groups;       /* maxComputeWorkGroupCount[0] */
    double ts_ns;          /* timestamp period, 0: none */
    PFN_vkCmdPushDescriptorSetKHR push;
    VkDescriptorSetLayout dsl;
    VkPipelineLayout pl;
    VkPipeline pipe;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool qp;
    VkBuffer buf[2];
    VkDeviceMemory mem_of[2];
};

double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool pick(bare *b, const char *name)
{
    VkPhysicalDevice pd[16];
    uint32_t n = 16;
    if (vkEnumeratePhysicalDevices(b->inst, &n, pd) < 0)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pd[i], &p);
        if (strcmp(p.deviceName, name) != 0)
            continue;
        b->pd = pd[i];
        b->range = p.limits.maxStorageBufferRange;
        if (b->range > (1ull << 31))
            b->range = 1ull << 31;
        b->align = p.limits.minStorageBufferOffsetAlignment < 16
                       ? 16
                       : p.limits.minStorageBufferOffsetAlignment;
        b->groups = p.limits.maxComputeWorkGroupCount[0];
        b->ts_ns = p.limits.timestampComputeAndGraphics ? p.limits.timestampPeriod : 0;
        return true;
    }
    return false;
}

static bool make_device(bare *b)
{
    VkQueueFamilyProperties q[16];
    uint32_t nq = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(b->pd, &nq, q);
    b->family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && b->family == UINT32_MAX; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            b->family = i;
    if (b->family == UINT32_MAX)
        return false;
    if (!q[b->family].timestampValidBits)
        b->ts_ns = 0;
    float prio = 1;
    const char *ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = b->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkDeviceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .enabledExtensionCount = 1,
                             .ppEnabledExtensionNames = &ext};
    if (vkCreateDevice(b->pd, &ci, NULL, &b->dev) != VK_SUCCESS)
        return false;
    vkGetDeviceQueue(b->dev, b->family, 0, &b->queue);
    vkGetPhysicalDeviceMemoryProperties(b->pd, &b->mem);
    b->push = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(b->dev,
                                                                 "vkCmdPushDescriptorSetKHR");
    return b->push != NULL;
}

static bool make_pipeline(bare *b)
{
    VkDescriptorSetLayoutBinding bd[2];
    for (uint32_t i = 0; i < 2; i++)
        bd[i] = (VkDescriptorSetLayoutBinding){.binding = i,
                                               .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                               .descriptorCount = 1,
                                               .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
        .bindingCount = 2,
        .pBindings = bd};
    VkPushConstantRange pr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = 16};
    if (vkCreateDescriptorSetLayout(b->dev, &li, NULL, &b->dsl) != VK_SUCCESS)
        return false;
    VkPipelineLayoutCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 1,
                                     .pSetLayouts = &b->dsl,
                                     .pushConstantRangeCount = 1,
                                     .pPushConstantRanges = &pr};
    if (vkCreatePipelineLayout(b->dev, &pi, NULL, &b->pl) != VK_SUCCESS)
        return false;
    VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = sizeof plain_spv,
                                   .pCode = plain_spv};
    VkShaderModule mod;
    if (vkCreateShaderModule(b->dev, &mi, NULL, &mod) != VK_SUCCESS)
        return false;
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = mod,
                  .pName = "main"},
        .layout = b->pl};
    VkResult r = vkCreateComputePipelines(b->dev, VK_NULL_HANDLE, 1, &ci, NULL, &b->pipe);
    vkDestroyShaderModule(b->dev, mod, NULL);
    return r == VK_SUCCESS;
}

static bool make_commands(bare *b)
{
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = b->family};
    if (vkCreateCommandPool(b->dev, &pi, NULL, &b->pool) != VK_SUCCESS)
        return false;
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = b->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = 2};
    return vkAllocateCommandBuffers(b->dev, &ai, &b->cmd) == VK_SUCCESS &&
           vkCreateFence(b->dev, &fi, NULL, &b->fence) == VK_SUCCESS &&
           vkCreateQueryPool(b->dev, &qi, NULL, &b->qp) == VK_SUCCESS;
}

bare *bare_open(const char *name)
{
    bare *b = calloc(1, sizeof *b);
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "fkc-bench-bare",
                             .apiVersion = VK_API_VERSION_1_2};
    VkInstanceCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app};
    if (!b)
        return NULL;
    if (vkCreateInstance(&ii, NULL, &b->inst) != VK_SUCCESS) {
        free(b);
        return NULL;
    }
    if (!pick(b, name) || !make_device(b) || !make_pipeline(b) || !make_commands(b)) {
        bare_close(b);
        return NULL;
    }
    return b;
}

static void free_buffers(bare *b)
{
    for (int i = 0; i < 2; i++) {
        if (b->buf[i])
            vkDestroyBuffer(b->dev, b->buf[i], NULL);
        if (b->mem_of[i])
            vkFreeMemory(b->dev, b->mem_of[i], NULL);
        b->buf[i] = VK_NULL_HANDLE;
        b->mem_of[i] = VK_NULL_HANDLE;
    }
}

void bare_close(bare *b)
{
    if (!b)
        return;
    if (b->dev) {
        vkDeviceWaitIdle(b->dev);
        free_buffers(b);
        if (b->qp)
            vkDestroyQueryPool(b->dev, b->qp, NULL);
        if (b->fence)
            vkDestroyFence(b->dev, b->fence, NULL);
        if (b->pool)
            vkDestroyCommandPool(b->dev, b->pool, NULL);
        if (b->pipe)
            vkDestroyPipeline(b->dev, b->pipe, NULL);
        if (b->pl)
            vkDestroyPipelineLayout(b->dev, b->pl, NULL);
        if (b->dsl)
            vkDestroyDescriptorSetLayout(b->dev, b->dsl, NULL);
        vkDestroyDevice(b->dev, NULL);
    }
    vkDestroyInstance(b->inst, NULL);
    free(b);
}

int bare_buffers(bare *b, uint64_t src_bytes, uint64_t dst_bytes)
{
    uint64_t size[2] = {(src_bytes + 15) & ~15ull, (dst_bytes + 15) & ~15ull};
    free_buffers(b);
    for (int i = 0; i < 2; i++) {
        VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                 .size = size[i],
                                 .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT};
        VkMemoryRequirements req;
        if (vkCreateBuffer(b->dev, &bi, NULL, &b->buf[i]) != VK_SUCCESS)
            return -1;
        vkGetBufferMemoryRequirements(b->dev, b->buf[i], &req);
        uint32_t type = UINT32_MAX;
        for (uint32_t t = 0; t < b->mem.memoryTypeCount && type == UINT32_MAX; t++)
            if ((req.memoryTypeBits & (1u << t)) &&
                (b->mem.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
                type = t;
        VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                   .allocationSize = req.size,
                                   .memoryTypeIndex = type};
        if (type == UINT32_MAX ||
            vkAllocateMemory(b->dev, &ai, NULL, &b->mem_of[i]) != VK_SUCCESS ||
            vkBindBufferMemory(b->dev, b->buf[i], b->mem_of[i], 0) != VK_SUCCESS)
            return -1;
    }
    return 0;
}

static void barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                         VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
    VkPipelineStageFlags st = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkCmdPipelineBarrier(cmd, st, st, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* One plain copy, split into dispatches whose windows fit the storage range. */
static void record_plain(bare *b, uint64_t row, uint64_t rows, uint64_t s_row, uint64_t d_row)
{
    uint64_t lim = (b->range - b->align) & ~15ull;
    vkCmdBindPipeline(b->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->pipe);
    if (rows == 1) { /* one run: chunks of the window size */
        s_row = d_row = row;
        rows = 1;
    }
    uint64_t per_rows = rows, chunk = row;
    if ((rows - 1) * (s_row > d_row ? s_row : d_row) + row > lim) {
        per_rows = row > lim ? 1 : (lim - row) / (s_row > d_row ? s_row : d_row) + 1;
        chunk = row > lim ? lim : row;
    }
    for (uint64_t r = 0; r < rows; r += per_rows) {
        uint64_t nr = rows - r < per_rows ? rows - r : per_rows;
        for (uint64_t c = 0; c < row; c += chunk) {
            uint64_t n = row - c < chunk ? row - c : chunk;
            VkDescriptorBufferInfo bi[2] = {{b->buf[0], r * s_row + c, (nr - 1) * s_row + n},
                                            {b->buf[1], r * d_row + c, (nr - 1) * d_row + n}};
            VkWriteDescriptorSet w[2];
            for (uint32_t i = 0; i < 2; i++)
                w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                              .dstBinding = i,
                                              .descriptorCount = 1,
                                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                              .pBufferInfo = &bi[i]};
            b->push(b->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->pl, 0, 2, w);
            uint32_t pc[4] = {(uint32_t)(nr * (n / 16)), (uint32_t)(n / 16), (uint32_t)(s_row / 16),
                              (uint32_t)(d_row / 16)};
            if (nr == 1)
                pc[1] = pc[0];
            vkCmdPushConstants(b->cmd, b->pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
            uint64_t groups = (pc[0] + 255) / 256;
            uint64_t gx = groups < b->groups ? groups : b->groups, gy = (groups + gx - 1) / gx;
            vkCmdDispatch(b->cmd, (uint32_t)gx, (uint32_t)gy, 1);
        }
    }
}

static void record_copy(bare *b, uint64_t row, uint64_t rows, uint64_t s_row, uint64_t d_row)
{
    VkBufferCopy reg[256];
    uint32_t n = 0;
    for (uint64_t r = 0; r < rows; r++) {
        reg[n++] = (VkBufferCopy){r * s_row, r * d_row, row};
        if (n == 256 || r + 1 == rows) {
            vkCmdCopyBuffer(b->cmd, b->buf[0], b->buf[1], n, reg);
            n = 0;
        }
    }
}

static int begin(bare *b)
{
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    if (vkResetCommandBuffer(b->cmd, 0) != VK_SUCCESS ||
        vkBeginCommandBuffer(b->cmd, &bi) != VK_SUCCESS)
        return -1;
    return 0;
}

static int submit_wait(bare *b)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &b->cmd};
    if (vkQueueSubmit(b->queue, 1, &si, b->fence) != VK_SUCCESS ||
        vkWaitForFences(b->dev, 1, &b->fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
        return -1;
    vkResetFences(b->dev, 1, &b->fence);
    return 0;
}

int bare_measure(bare *b, int shader, uint64_t row, uint64_t rows, uint64_t s_row, uint64_t d_row,
                 int iters, double warmup, double *dev, double *host)
{
    double until = bench_now() + warmup;
    *dev = *host = -1;
    for (int pass = 0; pass < 2 || bench_now() < until; pass++) { /* best pass after the first */
        if (begin(b))
            return -1;
        if (b->ts_ns) {
            vkCmdResetQueryPool(b->cmd, b->qp, 0, 2);
            vkCmdWriteTimestamp(b->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, b->qp, 0);
        }
        double t0 = bench_now();
        for (int i = 0; i < iters; i++) {
            if (i)
                barrier(b->cmd);
            if (shader)
                record_plain(b, row, rows, s_row, d_row);
            else
                record_copy(b, row, rows, s_row, d_row);
        }
        double h = (bench_now() - t0) / iters;
        if (b->ts_ns)
            vkCmdWriteTimestamp(b->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, b->qp, 1);
        if (vkEndCommandBuffer(b->cmd) != VK_SUCCESS)
            return -1;
        double w0 = bench_now();
        if (submit_wait(b))
            return -1;
        double d = (bench_now() - w0) / iters;
        uint64_t t[2];
        if (b->ts_ns &&
            vkGetQueryPoolResults(b->dev, b->qp, 0, 2, sizeof t, t, sizeof t[0],
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS)
            d = (double)(t[1] - t[0]) * b->ts_ns * 1e-9 / iters;
        if (pass > 0 && (*dev < 0 || d < *dev))
            *dev = d;
        if (pass > 0 && (*host < 0 || h < *host))
            *host = h;
    }
    return 0;
}

int bare_submit_wait(bare *b, uint64_t row, uint64_t rows, uint64_t s_row, uint64_t d_row,
                     int calls, double *wall)
{
    if (begin(b))
        return -1;
    record_plain(b, row, rows, s_row, d_row);
    if (vkEndCommandBuffer(b->cmd) != VK_SUCCESS || submit_wait(b))
        return -1;
    for (int round = 0; round < 3; round++) { /* best of 2 after 1, as the one-shot calls */
        double t0 = bench_now();
        for (int i = 0; i < calls; i++)
            if (submit_wait(b))
                return -1;
        double w = (bench_now() - t0) / calls;
        if (round == 1 || (round == 2 && w < *wall))
            *wall = w;
    }
    return 0;
}

void bare_vulkan(bare *b, VkInstance *instance, VkPhysicalDevice *physical, VkDevice *device,
                 VkQueue *queue, uint32_t *family)
{
    *instance = b->inst;
    *physical = b->pd;
    *device = b->dev;
    *queue = b->queue;
    *family = b->family;
}

void bare_driver(bare *b, char *out, unsigned size)
{
    VkPhysicalDeviceDriverProperties dp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                      .pNext = &dp};
    vkGetPhysicalDeviceProperties2(b->pd, &p2);
    unsigned v = p2.properties.apiVersion;
    snprintf(out, size, "%s %s (Vulkan %u.%u.%u)", dp.driverName, dp.driverInfo,
             VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}
