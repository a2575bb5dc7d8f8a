/* vk.c — the Vulkan dispatch table: every function the runtime calls, loaded through the
 * vkGetInstanceProcAddr it was given (the host's, or the loader's for a context fkc owns) and
 * the device's vkGetDeviceProcAddr. The rest of libfkc calls Vulkan only through fkc_vk, so a
 * host loading Vulkan through volk or its own loader works, and tests can wrap any call. */
#include "vk.h"

#include <dlfcn.h>
#include <string.h>

/* The loader's soname: what a program linked with -lvulkan would load (libvulkan1). */
#define FKC_VULKAN_LOADER "libvulkan.so.1"

fkc_status fkc_vk_open_loader(void **handle, PFN_vkGetInstanceProcAddr *gipa)
{
    *handle = NULL;
    *gipa = NULL;
    void *h = dlopen(FKC_VULKAN_LOADER, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        return fkc_fail(FKC_ERR_NO_DEVICE,
                        "the Vulkan loader %s cannot be opened (%s): install it (Debian package "
                        "libvulkan1), or hand fkc a vkGetInstanceProcAddr "
                        "(fkc_context_create_with_loader)",
                        FKC_VULKAN_LOADER, why ? why : "dlopen failed");
    }
    void *f = dlsym(h, "vkGetInstanceProcAddr");
    if (!f) {
        dlclose(h);
        return fkc_fail(FKC_ERR_NO_DEVICE, "the Vulkan loader %s has no vkGetInstanceProcAddr",
                        FKC_VULKAN_LOADER);
    }
    memcpy(gipa, &f, sizeof *gipa); /* POSIX: dlsym's object pointer is the function's */
    *handle = h;
    return FKC_OK;
}

void fkc_vk_close_loader(void *handle)
{
    if (handle)
        dlclose(handle);
}

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
