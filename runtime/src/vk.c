/* vk.c — the Vulkan dispatch table: every function the runtime calls, loaded through the
 * vkGetInstanceProcAddr it was given (the host's, or the loader's for a context fkc owns) and
 * the device's vkGetDeviceProcAddr. The rest of libfkc calls Vulkan only through fkc_vk, so a
 * host loading Vulkan through volk or its own loader works, and tests can wrap any call. */
#include "internal.h"

#include <string.h>

/* Stores the entry point `name` (from gipa or gdpa) into *slot; a NULL one is refused. */
static fkc_status need(PFN_vkVoidFunction f, const char *name, void *slot)
{
    if (!f)
        return fkc_fail(FKC_ERR_VULKAN, "the Vulkan loader has no entry point for %s", name);
    memcpy(slot, &f, sizeof f);
    return FKC_OK;
}

fkc_status fkc_vk_load_global(fkc_vk *vk, PFN_vkGetInstanceProcAddr gipa)
{
    fkc_status st = FKC_OK;
    memset(vk, 0, sizeof *vk);
    vk->vkGetInstanceProcAddr = gipa;
    vk->vkEnumerateInstanceVersion = (PFN_vkEnumerateInstanceVersion)gipa(
        VK_NULL_HANDLE, "vkEnumerateInstanceVersion");
#define LOAD(name)                                                                                 \
    if (st == FKC_OK)                                                                              \
        st = need(gipa(VK_NULL_HANDLE, #name), #name, &vk->name);
    FKC_VK_GLOBAL(LOAD)
#undef LOAD
    return st;
}

fkc_status fkc_vk_load_instance(fkc_vk *vk, VkInstance instance)
{
    fkc_status st = FKC_OK;
    PFN_vkGetInstanceProcAddr gipa = vk->vkGetInstanceProcAddr;
#define LOAD(name)                                                                                 \
    if (st == FKC_OK)                                                                              \
        st = need(gipa(instance, #name), #name, &vk->name);
    FKC_VK_INSTANCE(LOAD)
#undef LOAD
    vk->vkCreateDebugUtilsMessengerEXT = (PFN_vkCreateDebugUtilsMessengerEXT)gipa(
        instance, "vkCreateDebugUtilsMessengerEXT");
    vk->vkDestroyDebugUtilsMessengerEXT = (PFN_vkDestroyDebugUtilsMessengerEXT)gipa(
        instance, "vkDestroyDebugUtilsMessengerEXT");
    return st;
}

fkc_status fkc_vk_load_device(fkc_vk *vk, VkDevice device, bool push_descriptors)
{
    fkc_status st = FKC_OK;
    PFN_vkGetDeviceProcAddr gdpa = vk->vkGetDeviceProcAddr;
#define LOAD(name)                                                                                 \
    if (st == FKC_OK)                                                                              \
        st = need(gdpa(device, #name), #name, &vk->name);
    FKC_VK_DEVICE(LOAD)
#undef LOAD
    vk->vkCmdPushDescriptorSetKHR = push_descriptors ? (PFN_vkCmdPushDescriptorSetKHR)gdpa(
                                                           device, "vkCmdPushDescriptorSetKHR")
                                                     : NULL;
    return st;
}
