/* rt_vk_hooks.h — a wrapping vkGetInstanceProcAddr for the runtime tests: the runtime calls
 * Vulkan only through the function pointers it loads, so a test hands it rt_gipa (through
 * fkc_test_context_create) and replaces the entry points it names in rt_hooks with its own
 * functions, which count calls or fail on purpose and otherwise call the loader's. Include it
 * once per test program, after defining RT_HOOKS as a list of X(name, replacement). */
#ifndef RT_VK_HOOKS_H
#define RT_VK_HOOKS_H

#include <string.h>

#include <vulkan/vulkan.h>

static PFN_vkGetDeviceProcAddr rt_real_gdpa;

/* The replacement of `name`, or NULL when the test replaces nothing of that name. */
static PFN_vkVoidFunction rt_hooked(const char *name)
{
#define RT_HOOK_CASE(fn, repl)                                                                     \
    if (strcmp(name, #fn) == 0)                                                                    \
        return (PFN_vkVoidFunction)repl;
    RT_HOOKS(RT_HOOK_CASE)
#undef RT_HOOK_CASE
    return NULL;
}

/* A test may define RT_HOOK_SEEN(name, real) to keep the real entry point of a replaced name
 * (one the loader does not export, such as vkCmdPushDescriptorSetKHR). */
#ifndef RT_HOOK_SEEN
#define RT_HOOK_SEEN(name, real) ((void)(name), (void)(real))
#endif

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL rt_gdpa(VkDevice device, const char *name)
{
    PFN_vkVoidFunction f = rt_real_gdpa(device, name), h = rt_hooked(name);
    if (f && h)
        RT_HOOK_SEEN(name, f);
    return f && h ? h : f;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL rt_gipa(VkInstance instance, const char *name)
{
    PFN_vkVoidFunction f = vkGetInstanceProcAddr(instance, name), h = rt_hooked(name);
    if (f && strcmp(name, "vkGetDeviceProcAddr") == 0) {
        rt_real_gdpa = (PFN_vkGetDeviceProcAddr)f;
        return (PFN_vkVoidFunction)rt_gdpa;
    }
    return f && h ? h : f;
}

#endif /* RT_VK_HOOKS_H */
