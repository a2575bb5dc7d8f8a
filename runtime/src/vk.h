/* vk.h — vk.c: the Vulkan dispatch table, every Vulkan function the runtime calls. */
#ifndef FKC_VK_H
#define FKC_VK_H

#include "common.h"

/* ---- vk.c: every Vulkan function the runtime calls, loaded through vkGetInstanceProcAddr --
 * (the host's or the loader's); the library calls no other Vulkan symbol. */
/* clang-format off */
#define FKC_VK_GLOBAL(X)                                                                       \
    X(vkEnumerateInstanceLayerProperties) X(vkEnumerateInstanceExtensionProperties)            \
    X(vkCreateInstance)
/* clang-format on */
/* clang-format off */
#define FKC_VK_INSTANCE(X)                                                                     \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)        \
    X(vkGetPhysicalDeviceProperties2) X(vkGetPhysicalDeviceFeatures2)                          \
    X(vkGetPhysicalDeviceMemoryProperties) X(vkGetPhysicalDeviceQueueFamilyProperties)         \
    X(vkEnumerateDeviceExtensionProperties) X(vkCreateDevice) X(vkGetDeviceProcAddr)
/* clang-format on */
/* clang-format off */
#define FKC_VK_DEVICE(X)                                                                       \
    X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkDeviceWaitIdle) X(vkQueueSubmit)                \
    X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkAllocateMemory)  \
    X(vkFreeMemory) X(vkBindBufferMemory) X(vkMapMemory) X(vkInvalidateMappedMemoryRanges)     \
    X(vkCreateCommandPool) X(vkDestroyCommandPool) X(vkResetCommandPool)                       \
    X(vkAllocateCommandBuffers) X(vkFreeCommandBuffers) X(vkBeginCommandBuffer)                \
    X(vkEndCommandBuffer) X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences)                \
    X(vkResetFences) X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkGetQueryPoolResults)       \
    X(vkCmdResetQueryPool) X(vkCmdWriteTimestamp) X(vkCmdPipelineBarrier) X(vkCmdCopyBuffer)   \
    X(vkCmdBindPipeline) X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdBindDescriptorSets)     \
    X(vkCreateDescriptorSetLayout) X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout)   \
    X(vkDestroyPipelineLayout) X(vkCreateShaderModule) X(vkDestroyShaderModule)                \
    X(vkCreateComputePipelines) X(vkDestroyPipeline) X(vkCreateDescriptorPool)                 \
    X(vkDestroyDescriptorPool) X(vkResetDescriptorPool) X(vkAllocateDescriptorSets)            \
    X(vkUpdateDescriptorSets) X(vkCmdUpdateBuffer) X(vkCmdFillBuffer)
/* clang-format on */

typedef struct fkc_vk {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion; /* NULL: a 1.0 loader */
#define FKC_VK_FIELD(name) PFN_##name name;
    FKC_VK_GLOBAL(FKC_VK_FIELD)
    FKC_VK_INSTANCE(FKC_VK_FIELD)
    FKC_VK_DEVICE(FKC_VK_FIELD)
#undef FKC_VK_FIELD
    PFN_vkCreateDebugUtilsMessengerEXT vkCreateDebugUtilsMessengerEXT;   /* optional */
    PFN_vkDestroyDebugUtilsMessengerEXT vkDestroyDebugUtilsMessengerEXT; /* optional */
    PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR; /* NULL: descriptor pools */
} fkc_vk;

/* Each loads one level of the table; a missing required function is FKC_ERR_VULKAN naming it. */
fkc_status fkc_vk_load_global(fkc_vk *vk, PFN_vkGetInstanceProcAddr gipa);
fkc_status fkc_vk_load_instance(fkc_vk *vk, VkInstance instance);
fkc_status fkc_vk_load_device(fkc_vk *vk, VkDevice device, bool push_descriptors);
/* Opens the Vulkan loader (dlopen "libvulkan.so.1") and finds its vkGetInstanceProcAddr:
 * FKC_ERR_NO_DEVICE, naming what failed, when it cannot. fkc_vk_close_loader(NULL) is a no-op. */
fkc_status fkc_vk_open_loader(void **handle, PFN_vkGetInstanceProcAddr *gipa);
void fkc_vk_close_loader(void *handle);

#endif /* FKC_VK_H */
