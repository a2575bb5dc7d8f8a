/* device.c — Vulkan instance, device enumeration and selection, and the context's life cycle.
 * An owned context: options → instance (+ validation messenger) → choose a physical device →
 * logical device with a compute queue, push descriptors and timeline semaphores where offered.
 * A borrowed one: the host's instance, device and queue, checked for what fkc needs. Both then
 * get the dispatch table, memory blocks and pipelines; the context is freed with its last
 * reference (its creator's, and one per buffer, stream and kernel). */
#include "context.h"
#include "memory.h"
#include "pipeline.h"
#include "stream.h"
#include "user_kernel.h"
#include "vk.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Contexts fkc creates itself are made and torn down one at a time in the process. Vulkan
 * allows creating and destroying distinct instances and devices from several threads at once,
 * but on the H200 with NVIDIA's 580.159.04 driver four threads doing so (test_threads'
 * own-contexts case) hung or crashed in 5 of 20 runs; serialised, 30 of 30 rounds of the same
 * passed (docs/benchmarks.md). Contexts are made rarely, so the lock costs nothing that matters;
 * borrowed contexts never take it (the host's device is the host's). */
static pthread_mutex_t owned_lock = PTHREAD_MUTEX_INITIALIZER;

#define VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"
#define MAX_DEVICES 16u
#define KNOWN_FLAGS                                                                                \
    (FKC_CONTEXT_VALIDATION | FKC_CONTEXT_IGNORE_ENV | FKC_CONTEXT_RING_READBACK |                 \
     FKC_CONTEXT_NO_SHORT_RUNS | FKC_CONTEXT_DEBUG_LIFETIME)

const char *fkc_device_type_name(fkc_device_type type)
{
    switch (type) {
    case FKC_DEVICE_INTEGRATED_GPU: return "integrated-gpu";
    case FKC_DEVICE_DISCRETE_GPU: return "discrete-gpu";
    case FKC_DEVICE_VIRTUAL_GPU: return "virtual-gpu";
    case FKC_DEVICE_CPU: return "cpu";
    default: return "other";
    }
}

void fkc_context_options_init(fkc_context_options *o)
{
    if (!o) /* (a NULL is ignored) */
        return;
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->device_index = -1;
    o->copy_path = FKC_COPY_AUTO;
}

void fkc_vulkan_device_init(fkc_vulkan_device *d)
{
    if (!d) /* (a NULL is ignored) */
        return;
    memset(d, 0, sizeof *d);
    d->size = sizeof *d;
}

static fkc_device_type map_type(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return FKC_DEVICE_INTEGRATED_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return FKC_DEVICE_DISCRETE_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return FKC_DEVICE_VIRTUAL_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return FKC_DEVICE_CPU;
    default: return FKC_DEVICE_OTHER;
    }
}

static bool has_extension(const fkc_vk *vk, VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    bool found = false;
    if (vk->vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *e = calloc(n, sizeof *e);
    if (!e)
        return false;
    if (vk->vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(e[i].extensionName, name) == 0;
    free(e);
    return found;
}

/* Whether the 8-bit storage feature struct may be queried: core 1.2 or the extension. */
static bool can_8bit(const fkc_vk *vk, VkPhysicalDevice pd, uint32_t api)
{
    return api >= VK_API_VERSION_1_2 || has_extension(vk, pd, VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
}

/* Fills one fkc_device_info from Vulkan's properties, features, queues and heaps. */
static void describe(const fkc_vk *vk, VkPhysicalDevice pd, uint32_t index, fkc_device_info *info)
{
    VkPhysicalDeviceProperties p;
    VkPhysicalDeviceMemoryProperties m;
    VkPhysicalDevice8BitStorageFeatures f8 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
    VkPhysicalDevice16BitStorageFeatures f16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};

    vk->vkGetPhysicalDeviceProperties(pd, &p);
    memset(info, 0, sizeof *info);
    info->index = index;
    memcpy(info->name, p.deviceName,
           sizeof info->name < sizeof p.deviceName ? sizeof info->name : sizeof p.deviceName);
    info->name[sizeof info->name - 1] = '\0';
    info->type = map_type(p.deviceType);
    info->vendor_id = p.vendorID;
    info->device_id = p.deviceID;
    info->api_version = p.apiVersion;
    info->driver_version = p.driverVersion;
    info->max_storage_buffer_range = p.limits.maxStorageBufferRange;
    for (int i = 0; i < 3; i++) {
        info->max_compute_work_group_count[i] = p.limits.maxComputeWorkGroupCount[i];
        info->max_compute_work_group_size[i] = p.limits.maxComputeWorkGroupSize[i];
    }
    info->max_compute_work_group_invocations = p.limits.maxComputeWorkGroupInvocations;
    info->max_push_constants_size = p.limits.maxPushConstantsSize;
    info->min_storage_buffer_offset_alignment = p.limits.minStorageBufferOffsetAlignment;

    if (p.apiVersion >= VK_API_VERSION_1_1) {
        f2.pNext = &f16;
        if (can_8bit(vk, pd, p.apiVersion))
            f16.pNext = &f8;
        vk->vkGetPhysicalDeviceFeatures2(pd, &f2);
        info->storage_16bit = f16.storageBuffer16BitAccess == VK_TRUE;
        info->storage_8bit = f8.storageBuffer8BitAccess == VK_TRUE;
    }

    uint32_t nq = 0;
    vk->vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties q[32];
    if (nq > 32)
        nq = 32;
    vk->vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
    for (uint32_t i = 0; i < nq; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            info->has_compute_queue = true;

    vk->vkGetPhysicalDeviceMemoryProperties(pd, &m);
    for (uint32_t i = 0; i < m.memoryHeapCount; i++)
        if ((m.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
            m.memoryHeaps[i].size > info->device_local_bytes)
            info->device_local_bytes = m.memoryHeaps[i].size;
}

/* The validation layer's callback: may come from any thread that makes a Vulkan call. */
static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    fkc_context *ctx = user;
    (void)sev; /* (the messenger asks for warnings and errors only) */
    /* The layer's findings only: the loader's own general messages (such as its warning that
     * VK_INSTANCE_LAYERS added a layer, when the environment enables validation) are not. */
    if (!(types & (VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)))
        return VK_FALSE;
    const char *msg = data && data->pMessage ? data->pMessage : "(no text)";
    atomic_fetch_add(&ctx->validation_count, 1);
    pthread_mutex_lock(&ctx->message_lock);
    strncpy(ctx->validation_last, msg, sizeof ctx->validation_last - 1);
    pthread_mutex_unlock(&ctx->message_lock);
    if (ctx->on_validation)
        ctx->on_validation(ctx->on_validation_user, msg);
    return VK_FALSE;
}

static bool layer_present(const fkc_vk *vk, const char *name)
{
    uint32_t n = 0;
    bool found = false;
    if (vk->vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkLayerProperties *l = calloc(n, sizeof *l);
    if (!l)
        return false;
    if (vk->vkEnumerateInstanceLayerProperties(&n, l) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(l[i].layerName, name) == 0;
    free(l);
    return found;
}

static bool layer_has_extension(const fkc_vk *vk, const char *layer, const char *name)
{
    uint32_t n = 0;
    bool found = false;
    if (vk->vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *e = calloc(n, sizeof *e);
    if (!e)
        return false;
    if (vk->vkEnumerateInstanceExtensionProperties(layer, &n, e) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(e[i].extensionName, name) == 0;
    free(e);
    return found;
}

/* The validation messenger of ctx: warnings and errors to on_message. */
static VkDebugUtilsMessengerCreateInfoEXT messenger_info(fkc_context *ctx)
{
    return (VkDebugUtilsMessengerCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = ctx};
}

/* Loads the new instance's functions into vk and (dm: validation) creates ctx's messenger;
 * destroys the instance on failure. */
static fkc_status load_instance(fkc_vk *vk, fkc_context *ctx,
                                const VkDebugUtilsMessengerCreateInfoEXT *dm, VkInstance *out)
{
    const VkAllocationCallbacks *alloc = ctx ? ctx->alloc : NULL;
    fkc_status st = fkc_vk_load_instance(vk, *out);
    VkResult r;
    if (st == FKC_OK && dm) {
        if (!vk->vkCreateDebugUtilsMessengerEXT)
            st = fkc_fail(FKC_ERR_VULKAN, "vkCreateDebugUtilsMessengerEXT is missing");
        else if ((r = vk->vkCreateDebugUtilsMessengerEXT(*out, dm, alloc, &ctx->messenger)) !=
                 VK_SUCCESS)
            st = fkc_vk_fail(r, "vkCreateDebugUtilsMessengerEXT");
    }
    if (st != FKC_OK) {
        PFN_vkDestroyInstance kill = (PFN_vkDestroyInstance)vk->vkGetInstanceProcAddr(
            *out, "vkDestroyInstance");
        if (kill)
            kill(*out, alloc);
        *out = VK_NULL_HANDLE;
    }
    return st;
}

/* Creates the instance and loads its functions into vk; with ctx and FKC_CONTEXT_VALIDATION,
 * also the layer and messenger. */
static fkc_status create_instance(fkc_vk *vk, fkc_context *ctx, uint32_t flags, VkInstance *out)
{
    uint32_t loader = VK_API_VERSION_1_0;
    if (!vk->vkEnumerateInstanceVersion || vk->vkEnumerateInstanceVersion(&loader) != VK_SUCCESS ||
        loader < VK_API_VERSION_1_1)
        return fkc_fail(FKC_ERR_NO_DEVICE, "the Vulkan loader is older than 1.1");
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "fkc",
                             .pEngineName = "fkc",
                             .apiVersion = VK_API_VERSION_1_2};
    VkDebugUtilsMessengerCreateInfoEXT dm = messenger_info(ctx);
    /* Synchronization validation too: a missing barrier between ops is a test failure. */
    VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT vf = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                  .enabledValidationFeatureCount = 1,
                                  .pEnabledValidationFeatures = &sync};
    const char *layers[] = {VALIDATION_LAYER};
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                          VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app};
    bool validate = ctx && (flags & FKC_CONTEXT_VALIDATION);
    if (validate) {
        if (!layer_present(vk, VALIDATION_LAYER))
            return fkc_fail(FKC_ERR_UNSUPPORTED,
                            "validation requested but %s is not installed "
                            "(Debian package vulkan-validationlayers)",
                            VALIDATION_LAYER);
        ci.enabledLayerCount = 1;
        ci.ppEnabledLayerNames = layers;
        ci.enabledExtensionCount = 1;
        ci.ppEnabledExtensionNames = exts;
        ci.pNext = &dm;
        if (layer_has_extension(vk, VALIDATION_LAYER, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
            ci.enabledExtensionCount = 2;
            vf.pNext = &dm;
            ci.pNext = &vf;
        }
    }
    const VkAllocationCallbacks *alloc = ctx ? ctx->alloc : NULL;
    VkResult r = vk->vkCreateInstance(&ci, alloc, out);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED)
        return fkc_fail(FKC_ERR_NO_DEVICE,
                        "no Vulkan driver could be loaded (vkCreateInstance: "
                        "%s); install a driver such as mesa-vulkan-drivers and check "
                        "VK_DRIVER_FILES / VK_ICD_FILENAMES",
                        fkc_vk_result_name(r));
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkCreateInstance");
    return load_instance(vk, ctx, validate ? &dm : NULL, out);
}

/* Physical devices of an instance (at most MAX_DEVICES); FKC_ERR_NO_DEVICE when none. */
static fkc_status list_devices(const fkc_vk *vk, VkInstance inst, VkPhysicalDevice *pd, uint32_t *n)
{
    uint32_t count = MAX_DEVICES;
    VkResult r = vk->vkEnumeratePhysicalDevices(inst, &count, pd);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return fkc_vk_fail(r, "vkEnumeratePhysicalDevices");
    if (count == 0)
        return fkc_fail(FKC_ERR_NO_DEVICE,
                        "the Vulkan loader found no physical device; install "
                        "a driver such as mesa-vulkan-drivers and check VK_DRIVER_FILES");
    *n = count;
    return FKC_OK;
}

fkc_status fkc_enumerate_devices(fkc_device_info *infos, uint32_t capacity, uint32_t *count)
{
    VkInstance inst = VK_NULL_HANDLE;
    VkPhysicalDevice pd[MAX_DEVICES];
    uint32_t n = 0;
    fkc_vk vk;
    if (!count || (capacity && !infos))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_enumerate_devices: NULL output");
    *count = 0;
    void *loader = NULL;
    PFN_vkGetInstanceProcAddr gipa = NULL;
    pthread_mutex_lock(&owned_lock);
    fkc_status st = fkc_vk_open_loader(&loader, &gipa);
    if (st == FKC_OK)
        st = fkc_vk_load_global(&vk, gipa);
    if (st == FKC_OK)
        st = create_instance(&vk, NULL, 0, &inst);
    if (st == FKC_OK && (st = list_devices(&vk, inst, pd, &n)) == FKC_OK) {
        for (uint32_t i = 0; i < n && i < capacity; i++)
            describe(&vk, pd[i], i, &infos[i]);
        *count = n;
    }
    if (inst)
        vk.vkDestroyInstance(inst, NULL);
    fkc_vk_close_loader(loader);
    pthread_mutex_unlock(&owned_lock);
    return st;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* Case-insensitive substring test. */
static bool contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return true;
    return n == 0;
}

static fkc_status pick_by_name(const fkc_device_info *info, uint32_t n, const char *name,
                               const char *origin, uint32_t *out)
{
    if (!*name) /* "" would match every device as a substring */
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: empty device name", origin);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(info[i].name, name) == 0)
            return *out = i, FKC_OK;
    for (uint32_t i = 0; i < n; i++)
        if (contains(info[i].name, name))
            return *out = i, FKC_OK;
    return fkc_fail(FKC_ERR_DEVICE_NOT_FOUND,
                    "%s: no Vulkan device is named like '%s' "
                    "(%u present; `fkc-run devices` lists them)",
                    origin, name, n);
}

static fkc_status pick_by_index(uint32_t n, const char *text, long index, const char *origin,
                                uint32_t *out)
{
    if (index < 0 || (unsigned long)index >= n)
        return fkc_fail(FKC_ERR_DEVICE_NOT_FOUND,
                        "%s: device index %s is out of range "
                        "(%u device%s present)",
                        origin, text, n, n == 1 ? "" : "s");
    *out = (uint32_t)index;
    return FKC_OK;
}

/* The selection rule of fkc_context_options (see fkc_runtime.h). */
static fkc_status select_device(const fkc_context_options *o, const fkc_device_info *info,
                                uint32_t n, uint32_t *out)
{
    char text[32];
    if (o->device_index >= 0) {
        snprintf(text, sizeof text, "%d", (int)o->device_index);
        return pick_by_index(n, text, o->device_index, "device option", out);
    }
    if (o->device_name)
        return pick_by_name(info, n, o->device_name, "device option", out);
    const char *env = (o->flags & FKC_CONTEXT_IGNORE_ENV) ? NULL : getenv("FKC_DEVICE");
    if (env && *env) {
        if (all_digits(env))
            return pick_by_index(n, env, strlen(env) > 6 ? -1 : atol(env), "FKC_DEVICE", out);
        return pick_by_name(info, n, env, "FKC_DEVICE", out);
    }
    for (uint32_t i = 0; i < n; i++) /* the first discrete or integrated GPU */
        if (info[i].has_compute_queue &&
            (info[i].type == FKC_DEVICE_DISCRETE_GPU || info[i].type == FKC_DEVICE_INTEGRATED_GPU))
            return *out = i, FKC_OK;
    for (uint32_t i = 0; i < n; i++) /* else a CPU device such as lavapipe */
        if (info[i].has_compute_queue && info[i].type == FKC_DEVICE_CPU)
            return *out = i, FKC_OK;
    for (uint32_t i = 0; i < n; i++)
        if (info[i].has_compute_queue)
            return *out = i, FKC_OK;
    return fkc_fail(FKC_ERR_NO_DEVICE, "no Vulkan device has a compute queue");
}

/* The queue families of the context's physical device (at most 32). */
static uint32_t queue_families(const fkc_context *ctx, VkQueueFamilyProperties q[32])
{
    uint32_t nq = 0;
    ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &nq, NULL);
    if (nq > 32)
        nq = 32;
    ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &nq, q);
    return nq;
}

/* Timestamp support of the chosen queue family, for fkc_stream_device_seconds. */
static void timestamps(fkc_context *ctx)
{
    VkPhysicalDeviceProperties p;
    VkQueueFamilyProperties q[32];
    uint32_t nq = queue_families(ctx, q);
    ctx->vk.vkGetPhysicalDeviceProperties(ctx->physical, &p);
    ctx->timestamp_bits = ctx->queue_family < nq ? q[ctx->queue_family].timestampValidBits : 0;
    ctx->timestamp_ns = p.limits.timestampPeriod;
    if (ctx->timestamp_ns <= 0)
        ctx->timestamp_bits = 0;
}

/* Whether the device offers timeline semaphores (core 1.2 or the extension). */
static bool offers_timeline(const fkc_context *ctx, uint32_t api)
{
    VkPhysicalDeviceTimelineSemaphoreFeatures tf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                    .pNext = &tf};
    if (api < VK_API_VERSION_1_2 &&
        !has_extension(&ctx->vk, ctx->physical, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME))
        return false;
    ctx->vk.vkGetPhysicalDeviceFeatures2(ctx->physical, &f2);
    return tf.timelineSemaphore == VK_TRUE;
}

/* An owned logical device: one compute queue, push descriptors and timeline semaphores when
 * offered (fkc works without either). */
static fkc_status create_device(fkc_context *ctx, const fkc_hooks *hooks)
{
    const fkc_device_info *in = &ctx->info;
    VkQueueFamilyProperties q[32];
    uint32_t nq = queue_families(ctx, q);
    ctx->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && ctx->queue_family == UINT32_MAX; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            ctx->queue_family = i;
    if (ctx->queue_family == UINT32_MAX)
        return fkc_fail(FKC_ERR_UNSUPPORTED, "device '%s' has no compute queue", in->name);
    uint32_t api = in->api_version < ctx->instance_api ? in->api_version : ctx->instance_api;
    const char *exts[2];
    uint32_t n_ext = 0;
    bool push = has_extension(&ctx->vk, ctx->physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) &&
                !(hooks && hooks->no_push_descriptors);
    if (push)
        exts[n_ext++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkPhysicalDeviceTimelineSemaphoreFeatures tf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
        .timelineSemaphore = VK_TRUE};
    ctx->timeline = offers_timeline(ctx, api);
    if (ctx->timeline && api < VK_API_VERSION_1_2)
        exts[n_ext++] = VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME;
    /* The kernels access memory in 32-bit words or wider: no 8/16-bit storage is enabled. */
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = ctx->queue_family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkDeviceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = ctx->timeline ? &tf : NULL,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .enabledExtensionCount = n_ext,
                             .ppEnabledExtensionNames = exts};
    VkResult r = ctx->vk.vkCreateDevice(ctx->physical, &ci, ctx->alloc, &ctx->device);
    if (r != VK_SUCCESS) {
        ctx->device = VK_NULL_HANDLE;
        return fkc_vk_fail(r, "vkCreateDevice");
    }
    fkc_status st = fkc_vk_load_device(&ctx->vk, ctx->device, push);
    if (st == FKC_OK && push && !ctx->vk.vkCmdPushDescriptorSetKHR)
        st = fkc_fail(FKC_ERR_VULKAN, "vkCmdPushDescriptorSetKHR is missing");
    if (st != FKC_OK) { /* a half-loaded table: destroy the device through the loader's entry */
        PFN_vkDestroyDevice kill = (PFN_vkDestroyDevice)ctx->vk.vkGetDeviceProcAddr(
            ctx->device, "vkDestroyDevice");
        if (kill)
            kill(ctx->device, ctx->alloc);
        ctx->device = VK_NULL_HANDLE;
        return st;
    }
    ctx->vk.vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
    return FKC_OK;
}

/* The limits the runtime works to: the device's (lowered by the test hooks in test builds:
 * the context then describes a smaller device). */
static void set_limits(fkc_context *ctx, const fkc_context_options *o, const fkc_hooks *hooks)
{
    fkc_device_info *in = &ctx->info;
    ctx->sr_scan_rows = FKC_SR_SCAN_ROWS;
#ifdef FKC_TEST_HOOKS
    if (hooks && hooks->storage_buffer_range &&
        hooks->storage_buffer_range < in->max_storage_buffer_range)
        in->max_storage_buffer_range = hooks->storage_buffer_range < FKC_MIN_TEST_RANGE
                                           ? FKC_MIN_TEST_RANGE
                                           : hooks->storage_buffer_range;
    for (int i = 0; i < 3 && hooks && hooks->work_group_count; i++)
        if (hooks->work_group_count < in->max_compute_work_group_count[i])
            in->max_compute_work_group_count[i] = hooks->work_group_count;
    ctx->no_host_tables = hooks && hooks->no_host_tables;
    if (hooks && hooks->set_rows_scan_rows)
        ctx->sr_scan_rows = hooks->set_rows_scan_rows;
#else
    (void)hooks;
#endif
    uint64_t range = in->max_storage_buffer_range;
    if (range > FKC_MAX_WINDOW)
        range = FKC_MAX_WINDOW;
    ctx->offset_align = in->min_storage_buffer_offset_alignment > FKC_WINDOW_ALIGN
                            ? in->min_storage_buffer_offset_alignment
                            : FKC_WINDOW_ALIGN;
    if (range < 4 * ctx->offset_align) /* room for a window after its alignment slack */
        range = 4 * ctx->offset_align;
    ctx->storage_range = range & ~(uint64_t)15;
    uint32_t g = in->max_compute_work_group_count[0];
    for (int i = 1; i < 3; i++)
        if (in->max_compute_work_group_count[i] < g)
            g = in->max_compute_work_group_count[i];
    ctx->group_limit = g ? g : 1;
    ctx->copy_path = o->copy_path;
    ctx->flags = o->flags;
    ctx->prefer_transfer = o->copy_path == FKC_COPY_TRANSFER ||
                           (o->copy_path == FKC_COPY_AUTO && in->type == FKC_DEVICE_CPU);
}

/* Device properties beyond fkc_device_info: the largest allocation, the user kernels' buffer
 * limit (push descriptors and per-stage), memory types, timestamps. */
static void read_properties(fkc_context *ctx)
{
    VkPhysicalDeviceMaintenance3Properties m3 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
    VkPhysicalDevicePushDescriptorPropertiesKHR pd = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR, .pNext = &m3};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                      .pNext = ctx->vk.vkCmdPushDescriptorSetKHR ? (void *)&pd
                                                                                 : (void *)&m3};
    ctx->vk.vkGetPhysicalDeviceProperties2(ctx->physical, &p2);
    ctx->max_allocation = m3.maxMemoryAllocationSize;
    uint32_t m = UINT32_MAX;
    if (ctx->vk.vkCmdPushDescriptorSetKHR && pd.maxPushDescriptors < m)
        m = pd.maxPushDescriptors;
    if (p2.properties.limits.maxPerStageDescriptorStorageBuffers < m)
        m = p2.properties.limits.maxPerStageDescriptorStorageBuffers;
    ctx->max_bindings = m;
    ctx->max_push_buffers = m < FKC_KERNEL_MAX_BUFFERS ? m : FKC_KERNEL_MAX_BUFFERS;
    ctx->vk.vkGetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->mem);
    timestamps(ctx);
}

/* An owned context: instance, device choice, logical device. */
static fkc_status open_owned_locked(fkc_context *ctx, const fkc_context_options *o,
                                    PFN_vkGetInstanceProcAddr gipa, const fkc_hooks *hooks);

static fkc_status open_owned(fkc_context *ctx, const fkc_context_options *o,
                             PFN_vkGetInstanceProcAddr gipa, const fkc_hooks *hooks)
{
    pthread_mutex_lock(&owned_lock);
    fkc_status st = open_owned_locked(ctx, o, gipa, hooks);
    pthread_mutex_unlock(&owned_lock);
    return st;
}

static fkc_status open_owned_locked(fkc_context *ctx, const fkc_context_options *o,
                                    PFN_vkGetInstanceProcAddr gipa, const fkc_hooks *hooks)
{
    VkPhysicalDevice pd[MAX_DEVICES];
    fkc_device_info info[MAX_DEVICES];
    uint32_t n = 0, chosen = 0;
    fkc_status st = gipa ? FKC_OK : fkc_vk_open_loader(&ctx->loader, &gipa);
    if (st == FKC_OK)
        st = fkc_vk_load_global(&ctx->vk, gipa);
    if (st == FKC_OK)
        st = create_instance(&ctx->vk, ctx, o->flags, &ctx->instance);
    if (st != FKC_OK || (st = list_devices(&ctx->vk, ctx->instance, pd, &n)) != FKC_OK)
        return st;
    ctx->instance_api = VK_API_VERSION_1_2;
    for (uint32_t i = 0; i < n; i++)
        describe(&ctx->vk, pd[i], i, &info[i]);
    if ((st = select_device(o, info, n, &chosen)) != FKC_OK)
        return st;
    ctx->physical = pd[chosen];
    ctx->info = info[chosen];
    if (ctx->info.api_version < VK_API_VERSION_1_1)
        return fkc_fail(FKC_ERR_UNSUPPORTED,
                        "device '%s' supports only Vulkan %u.%u; 1.1 is "
                        "needed",
                        ctx->info.name, VK_API_VERSION_MAJOR(ctx->info.api_version),
                        VK_API_VERSION_MINOR(ctx->info.api_version));
    if ((st = create_device(ctx, hooks)) != FKC_OK)
        return st;
    read_properties(ctx);
    set_limits(ctx, o, hooks);
    return FKC_OK;
}

static bool listed(const char *const *names, uint32_t n, const char *name)
{
    for (uint32_t i = 0; names && i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* Whether the host's feature chain enables timeline semaphores. */
static bool chain_has_timeline(const void *chain)
{
    for (const VkBaseInStructure *s = chain; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES &&
            ((const VkPhysicalDeviceVulkan12Features *)s)->timelineSemaphore)
            return true;
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES &&
            ((const VkPhysicalDeviceTimelineSemaphoreFeatures *)s)->timelineSemaphore)
            return true;
    }
    return false;
}

/* The host's objects: checked for what fkc needs before fkc uses them. */
static fkc_status check_host(const fkc_vulkan_device *h, const fkc_context_options *o)
{
    const char *what = "fkc_context_create_vulkan";
    if (!h)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: the host's device is NULL", what);
    if (h->size != sizeof *h)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: fkc_vulkan_device.size is %zu, not %zu: "
                        "set it up with fkc_vulkan_device_init (headers of another fkc?)",
                        what, h->size, sizeof *h);
    const char *missing = !h->get_instance_proc_addr ? "get_instance_proc_addr"
                          : !h->instance             ? "instance"
                          : !h->physical_device      ? "physical_device"
                          : !h->device               ? "device"
                                                     : NULL;
    if (missing)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: %s is NULL", what, missing);
    if (h->enabled_extension_count && !h->enabled_extensions)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: %u enabled extensions but the list is "
                        "NULL",
                        what, h->enabled_extension_count);
    if (o->device_index >= 0 || o->device_name)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: the options choose a device; the host "
                        "gave its own",
                        what);
    if (o->flags & FKC_CONTEXT_VALIDATION)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: FKC_CONTEXT_VALIDATION: the validation "
                        "layer belongs to the host's instance (install your own messenger)",
                        what);
    if (h->instance_api_version < VK_API_VERSION_1_1)
        return fkc_fail(FKC_ERR_UNSUPPORTED,
                        "%s: the host's instance was created for Vulkan "
                        "%u.%u; fkc needs 1.1 (VkApplicationInfo::apiVersion)",
                        what, VK_API_VERSION_MAJOR(h->instance_api_version),
                        VK_API_VERSION_MINOR(h->instance_api_version));
    return FKC_OK;
}

/* A context over the host's device: its queue family checked, push descriptors and timeline
 * semaphores used when the host enabled them. */
static fkc_status open_borrowed(fkc_context *ctx, const fkc_vulkan_device *h,
                                const fkc_context_options *o, const fkc_hooks *hooks)
{
    const char *what = "fkc_context_create_vulkan";
    ctx->borrowed = true;
    ctx->vk.vkGetInstanceProcAddr = h->get_instance_proc_addr;
    fkc_status st = fkc_vk_load_instance(&ctx->vk, h->instance);
    if (st != FKC_OK)
        return st;
    ctx->instance = h->instance;
    ctx->instance_api = h->instance_api_version;
    ctx->physical = h->physical_device;
    VkPhysicalDevice pd[MAX_DEVICES];
    uint32_t n = 0, index = 0;
    if (list_devices(&ctx->vk, ctx->instance, pd, &n) == FKC_OK) /* its enumeration index */
        for (uint32_t i = 0; i < n; i++)
            if (pd[i] == ctx->physical)
                index = i;
    describe(&ctx->vk, ctx->physical, index, &ctx->info);
    uint32_t api = ctx->info.api_version < ctx->instance_api ? ctx->info.api_version
                                                             : ctx->instance_api;
    if (ctx->info.api_version < VK_API_VERSION_1_1)
        return fkc_fail(FKC_ERR_UNSUPPORTED,
                        "%s: device '%s' supports only Vulkan %u.%u; fkc "
                        "needs 1.1",
                        what, ctx->info.name, VK_API_VERSION_MAJOR(ctx->info.api_version),
                        VK_API_VERSION_MINOR(ctx->info.api_version));
    VkQueueFamilyProperties q[32];
    uint32_t nq = queue_families(ctx, q);
    if (h->queue_family >= nq || h->queue_index >= q[h->queue_family].queueCount)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: device '%s' has no queue %u of family %u",
                        what, ctx->info.name, h->queue_index, h->queue_family);
    if (!(q[h->queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        return fkc_fail(FKC_ERR_UNSUPPORTED,
                        "%s: queue family %u of '%s' has no "
                        "VK_QUEUE_COMPUTE_BIT; fkc records compute dispatches",
                        what, h->queue_family, ctx->info.name);
    ctx->queue_family = h->queue_family;
    ctx->queue_index = h->queue_index;
    ctx->queue_lock = h->queue_lock;
    ctx->queue_lock_user = h->queue_lock_user;
    bool push = listed(h->enabled_extensions, h->enabled_extension_count,
                       VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) &&
                !(hooks && hooks->no_push_descriptors);
    ctx->timeline = chain_has_timeline(h->enabled_features) &&
                    (api >= VK_API_VERSION_1_2 ||
                     listed(h->enabled_extensions, h->enabled_extension_count,
                            VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME));
    if ((st = fkc_vk_load_device(&ctx->vk, h->device, push)) != FKC_OK)
        return st;
    ctx->device = h->device; /* from here on, teardown frees fkc's objects on it */
    ctx->vk.vkGetDeviceQueue(ctx->device, ctx->queue_family, ctx->queue_index, &ctx->queue);
    read_properties(ctx);
    set_limits(ctx, o, hooks);
    return FKC_OK;
}

/* Frees what the context made (and, when fkc owns it, the device and instance). Safe on a
 * context that failed half-way through creation. */
static void teardown(fkc_context *ctx)
{
    if (!ctx->borrowed)
        pthread_mutex_lock(&owned_lock);
    if (ctx->device) {
        if (!ctx->borrowed) /* the host's queues are the host's: fkc's work is all waited for */
            ctx->vk.vkDeviceWaitIdle(ctx->device);
        else
            fkc_debug_lifetime_wait(ctx); /* the debug mode waits for the host's work too */
        while (ctx->pooled) {
            fkc_stream *s = ctx->pooled;
            ctx->pooled = s->next_pooled;
            fkc_stream_free(s);
        }
        fkc_user_kernels_destroy(ctx);
        fkc_pipelines_destroy(ctx);
        fkc_memory_destroy(ctx);
        if (!ctx->borrowed)
            ctx->vk.vkDestroyDevice(ctx->device, ctx->alloc);
    } else {
        fkc_memory_destroy(ctx); /* only the allocation list and its lock exist yet */
    }
    if (!ctx->borrowed && ctx->instance) {
        if (ctx->messenger && ctx->vk.vkDestroyDebugUtilsMessengerEXT)
            ctx->vk.vkDestroyDebugUtilsMessengerEXT(ctx->instance, ctx->messenger, ctx->alloc);
        ctx->vk.vkDestroyInstance(ctx->instance, ctx->alloc);
    }
    fkc_vk_close_loader(ctx->loader);
    if (!ctx->borrowed)
        pthread_mutex_unlock(&owned_lock);
    pthread_mutex_destroy(&ctx->lock);
    pthread_mutex_destroy(&ctx->submit_lock);
    pthread_mutex_destroy(&ctx->message_lock);
    free(ctx);
}

static fkc_status check_options(const fkc_context_options *o, const char *what)
{
    if (o->size != sizeof *o)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: fkc_context_options.size is %zu, not %zu: "
                        "set the options up with fkc_context_options_init (headers of another "
                        "fkc?)",
                        what, o->size, sizeof *o);
    if (o->flags & ~(uint32_t)KNOWN_FLAGS)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: unknown context flags 0x%x", what,
                        (unsigned)(o->flags & ~(uint32_t)KNOWN_FLAGS));
    if ((unsigned)o->copy_path > FKC_COPY_TRANSFER)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: unknown copy path %d", what,
                        (int)o->copy_path);
    return FKC_OK;
}

/* The host's hooks: checked, and the allocation callbacks copied into the context. */
static fkc_status check_hooks(const fkc_vulkan_hooks *vh, const fkc_vulkan_device *host,
                              const char *what)
{
    if (!vh)
        return FKC_OK;
    if (vh->size != sizeof *vh)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: fkc_vulkan_hooks.size is %zu, not %zu: set the hooks up with "
                        "fkc_vulkan_hooks_init (headers of another fkc?)",
                        what, vh->size, sizeof *vh);
    if (vh->heap_limit_count > VK_MAX_MEMORY_HEAPS || (vh->heap_limit_count && !vh->heap_limit))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: fkc_vulkan_hooks: %u heap limits %s (at most %u, VK_MAX_MEMORY_HEAPS)",
                        what, vh->heap_limit_count,
                        vh->heap_limit ? "given" : "but the list is NULL", VK_MAX_MEMORY_HEAPS);
    if (host && vh->get_instance_proc_addr &&
        vh->get_instance_proc_addr != host->get_instance_proc_addr)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: fkc_vulkan_hooks.get_instance_proc_addr differs from the host "
                        "device's (leave it NULL: a borrowed context uses the device's)",
                        what);
    const VkAllocationCallbacks *a = vh->allocator;
    if (a && (!a->pfnAllocation || !a->pfnReallocation || !a->pfnFree))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT,
                        "%s: fkc_vulkan_hooks.allocator lacks pfnAllocation, pfnReallocation or "
                        "pfnFree (Vulkan requires all three)",
                        what);
    return FKC_OK;
}

fkc_status fkc_context_open(const fkc_context_options *options, const fkc_vulkan_device *host,
                            PFN_vkGetInstanceProcAddr gipa, const fkc_vulkan_hooks *vh,
                            const fkc_hooks *hooks, fkc_context **out)
{
    const char *what = host ? "fkc_context_create_vulkan" : "fkc_context_create";
    fkc_context_options defaults;
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "%s: out is NULL", what);
    *out = NULL;
    if (!options) {
        fkc_context_options_init(&defaults);
        options = &defaults;
    }
    fkc_status st = check_options(options, what);
    if (st != FKC_OK || (host && (st = check_host(host, options)) != FKC_OK))
        return st;
    if ((st = check_hooks(vh, host, what)) != FKC_OK)
        return st;
    if (!host && vh && vh->get_instance_proc_addr)
        gipa = vh->get_instance_proc_addr;
    fkc_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating the context");
    atomic_init(&ctx->refs, 1);
    ctx->teardown = teardown;
    atomic_init(&ctx->validation_count, 0);
    pthread_mutex_init(&ctx->lock, NULL);
    pthread_mutex_init(&ctx->submit_lock, NULL);
    pthread_mutex_init(&ctx->message_lock, NULL);
    fkc_memory_hooks(ctx, vh);
    if (vh && vh->allocator) {
        ctx->alloc_copy = *vh->allocator;
        ctx->alloc = &ctx->alloc_copy;
    }
    ctx->on_validation = options->on_validation;
    ctx->on_validation_user = options->on_validation_user;
    st = host ? open_borrowed(ctx, host, options, hooks) : open_owned(ctx, options, gipa, hooks);
    if (st == FKC_OK)
        st = fkc_memory_init(ctx, hooks ? hooks->block_bytes : 0);
    if (st == FKC_OK)
        st = fkc_pipelines_init(ctx);
    if (st != FKC_OK) {
        teardown(ctx);
        return st;
    }
    *out = ctx;
    return FKC_OK;
}

fkc_status fkc_context_create(const fkc_context_options *options, fkc_context **out)
{
    return fkc_context_open(options, NULL, NULL, NULL, NULL, out);
}

void fkc_vulkan_hooks_init(fkc_vulkan_hooks *hooks)
{
    if (hooks) {
        memset(hooks, 0, sizeof *hooks);
        hooks->size = sizeof *hooks;
    }
}

fkc_status fkc_context_create_with_hooks(const fkc_context_options *options,
                                         const fkc_vulkan_hooks *hooks, fkc_context **out)
{
    return fkc_context_open(options, NULL, NULL, hooks, NULL, out);
}

fkc_status fkc_context_create_with_loader(const fkc_context_options *options,
                                          PFN_vkGetInstanceProcAddr get_instance_proc_addr,
                                          fkc_context **out)
{
    if (!get_instance_proc_addr) {
        if (out)
            *out = NULL;
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_context_create_with_loader: "
                                                  "get_instance_proc_addr is NULL");
    }
    return fkc_context_open(options, NULL, get_instance_proc_addr, NULL, NULL, out);
}

fkc_status fkc_context_create_vulkan(const fkc_vulkan_device *host,
                                     const fkc_context_options *options, fkc_context **out)
{
    if (!host) {
        if (out)
            *out = NULL;
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_context_create_vulkan: the host's device "
                                                  "is NULL");
    }
    return fkc_context_open(options, host, NULL, NULL, NULL, out);
}

fkc_status fkc_context_create_vulkan_with_hooks(const fkc_vulkan_device *host,
                                                const fkc_vulkan_hooks *hooks,
                                                const fkc_context_options *options,
                                                fkc_context **out)
{
    if (!host) {
        if (out)
            *out = NULL;
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_context_create_vulkan: the host's device "
                                                  "is NULL");
    }
    return fkc_context_open(options, host, NULL, hooks, NULL, out);
}

void fkc_context_destroy(fkc_context *ctx)
{
    if (ctx)
        fkc_context_release(ctx);
}

const fkc_device_info *fkc_context_device(const fkc_context *ctx)
{
    return ctx ? &ctx->info : NULL;
}

uint64_t fkc_context_validation_count(const fkc_context *ctx)
{
    return ctx ? atomic_load(&((fkc_context *)ctx)->validation_count) : 0;
}

const char *fkc_context_validation_last(const fkc_context *ctx)
{
    return ctx ? ctx->validation_last : "";
}

fkc_status fkc_context_vulkan(const fkc_context *ctx, VkInstance *instance,
                              VkPhysicalDevice *physical_device, VkDevice *device, VkQueue *queue,
                              uint32_t *queue_family)
{
    if (!ctx)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_context_vulkan: context is NULL");
    if (instance)
        *instance = ctx->instance;
    if (physical_device)
        *physical_device = ctx->physical;
    if (device)
        *device = ctx->device;
    if (queue)
        *queue = ctx->queue;
    if (queue_family)
        *queue_family = ctx->queue_family;
    return FKC_OK;
}

bool fkc_context_vulkan_timeline(const fkc_context *ctx)
{
    return ctx && ctx->timeline;
}

bool fkc_context_vulkan_push_descriptors(const fkc_context *ctx)
{
    return ctx && ctx->vk.vkCmdPushDescriptorSetKHR;
}
