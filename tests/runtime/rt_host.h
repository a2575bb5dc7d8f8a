/* rt_host.h — a Vulkan "host" for the runtime tests: what a backend that owns its Vulkan has
 * (an instance with the validation layer and its synchronization validation on, its own
 * messenger counting every validation warning and error, a device on the default rule's physical device with or
 * without push descriptors and timeline semaphores, a queue, a command pool and buffer, a fence,
 * host-visible buffers), written straight to Vulkan, for fkc_context_create_vulkan to borrow. */
#ifndef RT_HOST_H
#define RT_HOST_H

#include <stdatomic.h>

#include <vulkan/vulkan.h>

#include "fkc/fkc_vulkan.h"
#include "rt_harness.h"

typedef struct rt_host {
    VkInstance inst;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice pd;
    VkDevice dev;
    VkQueue queue;
    uint32_t family;
    VkPhysicalDeviceMemoryProperties mem;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    const char *exts[2];
    uint32_t n_ext;
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline; /* the feature chain it enabled */
    atomic_uint_fast64_t messages;                      /* validation messages received */
    char last[1024];
} rt_host;

typedef struct rt_hbuf {
    VkBuffer buffer;
    VkDeviceMemory memory;
    unsigned char *map; /* host-visible, coherent, mapped */
    VkDeviceSize size;
} rt_hbuf;

#define RT_VK(call)                                                                                \
    do {                                                                                           \
        VkResult r_ = (call);                                                                      \
        if (r_ != VK_SUCCESS)                                                                      \
            fail_msg("%s -> %d", #call, (int)r_);                                                  \
    } while (0)

static VKAPI_ATTR VkBool32 VKAPI_CALL rt_host_message(VkDebugUtilsMessageSeverityFlagBitsEXT s,
                                                      VkDebugUtilsMessageTypeFlagsEXT t,
                                                      const VkDebugUtilsMessengerCallbackDataEXT *d,
                                                      void *user)
{
    rt_host *h = user;
    (void)s; /* (the messenger asks for warnings and errors only) */
    /* validation and performance findings; not the loader's general messages (its warning that
     * VK_INSTANCE_LAYERS added a layer, when the environment enables validation) */
    if (!(t & (VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)))
        return VK_FALSE;
    if (atomic_fetch_add(&h->messages, 1) == 0) /* keep the first: it tells what went wrong */
        snprintf(h->last, sizeof h->last, "%s", d && d->pMessage ? d->pMessage : "?");
    return VK_FALSE;
}

/* The instance (API 1.2, validation + synchronization validation), the physical device of the
 * default rule (first discrete/integrated GPU, else first CPU device), a device with one
 * compute queue and the chosen extras. */
static inline void rt_host_open(rt_host *h, bool push, bool timeline)
{
    memset(h, 0, sizeof *h);
    atomic_init(&h->messages, 0);
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "rt_host",
                             .apiVersion = VK_API_VERSION_1_2};
    VkDebugUtilsMessengerCreateInfoEXT dm = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = rt_host_message,
        .pUserData = h};
    VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT vf = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                  .pNext = &dm,
                                  .enabledValidationFeatureCount = 1,
                                  .pEnabledValidationFeatures = &sync};
    const char *layer = "VK_LAYER_KHRONOS_validation";
    const char *iext[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                          VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    VkInstanceCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pNext = &vf,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = 1,
                               .ppEnabledLayerNames = &layer,
                               .enabledExtensionCount = 2,
                               .ppEnabledExtensionNames = iext};
    RT_VK(vkCreateInstance(&ii, NULL, &h->inst));
    PFN_vkCreateDebugUtilsMessengerEXT mk = (PFN_vkCreateDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(h->inst, "vkCreateDebugUtilsMessengerEXT");
    assert_non_null(mk);
    RT_VK(mk(h->inst, &dm, NULL, &h->messenger));
    VkPhysicalDevice pd[16];
    uint32_t n = 16;
    RT_VK(vkEnumeratePhysicalDevices(h->inst, &n, pd));
    for (int pass = 0; pass < 2 && !h->pd; pass++)
        for (uint32_t i = 0; i < n && !h->pd; i++) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(pd[i], &p);
            bool gpu = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
                       p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
            if (pass == 0 ? gpu : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
                h->pd = pd[i];
        }
    assert_non_null(h->pd);
    VkQueueFamilyProperties q[16];
    uint32_t nq = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(h->pd, &nq, q);
    h->family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && h->family == UINT32_MAX; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            h->family = i;
    assert_true(h->family != UINT32_MAX);
    if (push)
        h->exts[h->n_ext++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    h->timeline = (VkPhysicalDeviceTimelineSemaphoreFeatures){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
        .timelineSemaphore = VK_TRUE};
    float prio = 1;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = h->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = timeline ? &h->timeline : NULL,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .enabledExtensionCount = h->n_ext,
                             .ppEnabledExtensionNames = h->exts};
    RT_VK(vkCreateDevice(h->pd, &di, NULL, &h->dev));
    if (!timeline)
        h->timeline.timelineSemaphore = VK_FALSE;
    vkGetDeviceQueue(h->dev, h->family, 0, &h->queue);
    vkGetPhysicalDeviceMemoryProperties(h->pd, &h->mem);
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = h->family};
    RT_VK(vkCreateCommandPool(h->dev, &pi, NULL, &h->pool));
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = h->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    RT_VK(vkAllocateCommandBuffers(h->dev, &ai, &h->cmd));
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    RT_VK(vkCreateFence(h->dev, &fi, NULL, &h->fence));
}

/* What fkc_context_create_vulkan is given. */
static inline fkc_vulkan_device rt_host_device(const rt_host *h)
{
    fkc_vulkan_device d;
    fkc_vulkan_device_init(&d);
    d.get_instance_proc_addr = vkGetInstanceProcAddr;
    d.instance = h->inst;
    d.instance_api_version = VK_API_VERSION_1_2;
    d.physical_device = h->pd;
    d.device = h->dev;
    d.queue_family = h->family;
    d.queue_index = 0;
    d.enabled_extensions = h->exts;
    d.enabled_extension_count = h->n_ext;
    d.enabled_features = h->timeline.timelineSemaphore ? &h->timeline : NULL;
    return d;
}

/* Fails the test when the host's messenger received anything. */
static inline void rt_host_quiet(rt_host *h, const char *when)
{
    uint64_t n = atomic_load(&h->messages);
    if (n)
        fail_msg("%s: %llu validation message(s); first: %s", when, (unsigned long long)n, h->last);
}

/* Destroys the host's objects; the validation layer reports any child object still alive on
 * the device (one fkc failed to free) as a message, which fails the test. */
static inline void rt_host_close(rt_host *h)
{
    vkDeviceWaitIdle(h->dev);
    vkDestroyFence(h->dev, h->fence, NULL);
    vkDestroyCommandPool(h->dev, h->pool, NULL);
    vkDestroyDevice(h->dev, NULL);
    PFN_vkDestroyDebugUtilsMessengerEXT kill = (PFN_vkDestroyDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(h->inst, "vkDestroyDebugUtilsMessengerEXT");
    uint64_t n = atomic_load(&h->messages);
    char last[1024];
    snprintf(last, sizeof last, "%s", h->last);
    kill(h->inst, h->messenger, NULL);
    vkDestroyInstance(h->inst, NULL);
    if (n)
        fail_msg("host: %llu validation message(s); first: %s", (unsigned long long)n, last);
}

/* A host-visible, coherent, mapped buffer with fkc's usage (the host's, not fkc's). */
static inline void rt_hbuf_make(rt_host *h, rt_hbuf *b, VkDeviceSize size)
{
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = FKC_VULKAN_BUFFER_USAGE};
    RT_VK(vkCreateBuffer(h->dev, &bi, NULL, &b->buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->dev, b->buffer, &req);
    uint32_t type = UINT32_MAX,
             want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t t = 0; t < h->mem.memoryTypeCount && type == UINT32_MAX; t++)
        if ((req.memoryTypeBits & (1u << t)) &&
            (h->mem.memoryTypes[t].propertyFlags & want) == want)
            type = t;
    assert_true(type != UINT32_MAX);
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
    RT_VK(vkAllocateMemory(h->dev, &ai, NULL, &b->memory));
    RT_VK(vkBindBufferMemory(h->dev, b->buffer, b->memory, 0));
    void *map;
    RT_VK(vkMapMemory(h->dev, b->memory, 0, VK_WHOLE_SIZE, 0, &map));
    b->map = map;
    b->size = size;
}

static inline void rt_hbuf_free(rt_host *h, rt_hbuf *b)
{
    vkDestroyBuffer(h->dev, b->buffer, NULL);
    vkFreeMemory(h->dev, b->memory, NULL);
}

static inline void rt_host_begin(rt_host *h)
{
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    RT_VK(vkResetCommandBuffer(h->cmd, 0));
    RT_VK(vkBeginCommandBuffer(h->cmd, &bi));
}

/* A barrier making everything before visible to the host, then end, submit, wait. */
static inline void rt_host_submit_wait(rt_host *h)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(h->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                         1, &mb, 0, NULL, 0, NULL);
    RT_VK(vkEndCommandBuffer(h->cmd));
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &h->cmd};
    RT_VK(vkQueueSubmit(h->queue, 1, &si, h->fence));
    RT_VK(vkWaitForFences(h->dev, 1, &h->fence, VK_TRUE, UINT64_MAX));
    RT_VK(vkResetFences(h->dev, 1, &h->fence));
}

#endif /* RT_HOST_H */
