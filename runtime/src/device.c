/* device.c — Vulkan instance, device enumeration and selection, and the context's life cycle:
 * options → instance (+ validation messenger) → choose a physical device → logical device with a
 * compute queue and 8/16-bit storage where available → command pool → pipeline layouts. */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"
#define MAX_DEVICES 16u

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
    memset(o, 0, sizeof *o);
    o->device_index = -1;
    o->copy_path = FKC_COPY_AUTO;
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

static bool has_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    bool found = false;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *e = calloc(n, sizeof *e);
    if (!e)
        return false;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(e[i].extensionName, name) == 0;
    free(e);
    return found;
}

/* Whether the 8-bit storage feature struct may be queried/enabled: core 1.2 or the extension. */
static bool can_8bit(VkPhysicalDevice pd, uint32_t api)
{
    return api >= VK_API_VERSION_1_2 || has_extension(pd, VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
}

/* Fills one fkc_device_info from Vulkan's properties, features, queues and heaps. */
static void describe(VkPhysicalDevice pd, uint32_t index, fkc_device_info *info)
{
    VkPhysicalDeviceProperties p;
    VkPhysicalDeviceMemoryProperties m;
    VkPhysicalDevice8BitStorageFeatures f8 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
    VkPhysicalDevice16BitStorageFeatures f16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};

    vkGetPhysicalDeviceProperties(pd, &p);
    memset(info, 0, sizeof *info);
    info->index = index;
    memcpy(info->name, p.deviceName, sizeof info->name < sizeof p.deviceName
                                         ? sizeof info->name : sizeof p.deviceName);
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
        if (can_8bit(pd, p.apiVersion))
            f16.pNext = &f8;
        vkGetPhysicalDeviceFeatures2(pd, &f2);
        info->storage_16bit = f16.storageBuffer16BitAccess == VK_TRUE;
        info->storage_8bit = f8.storageBuffer8BitAccess == VK_TRUE;
    }

    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties q[32];
    if (nq > 32)
        nq = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
    for (uint32_t i = 0; i < nq; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            info->has_compute_queue = true;

    vkGetPhysicalDeviceMemoryProperties(pd, &m);
    for (uint32_t i = 0; i < m.memoryHeapCount; i++)
        if ((m.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
            m.memoryHeaps[i].size > info->device_local_bytes)
            info->device_local_bytes = m.memoryHeaps[i].size;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    fkc_context *ctx = user;
    (void)sev;
    (void)types;
    const char *msg = data && data->pMessage ? data->pMessage : "(no text)";
    ctx->validation_count++;
    strncpy(ctx->validation_last, msg, sizeof ctx->validation_last - 1);
    if (ctx->on_validation)
        ctx->on_validation(ctx->on_validation_user, msg);
    return VK_FALSE;
}

static bool layer_present(const char *name)
{
    uint32_t n = 0;
    bool found = false;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkLayerProperties *l = calloc(n, sizeof *l);
    if (!l)
        return false;
    if (vkEnumerateInstanceLayerProperties(&n, l) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(l[i].layerName, name) == 0;
    free(l);
    return found;
}

static bool layer_has_extension(const char *layer, const char *name)
{
    uint32_t n = 0;
    bool found = false;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *e = calloc(n, sizeof *e);
    if (!e)
        return false;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, e) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(e[i].extensionName, name) == 0;
    free(e);
    return found;
}

/* Creates the instance; with ctx and FKC_CONTEXT_VALIDATION, also the layer and messenger. */
static fkc_status create_instance(fkc_context *ctx, uint32_t flags, VkInstance *out)
{
    uint32_t loader = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion(&loader) != VK_SUCCESS || loader < VK_API_VERSION_1_1)
        return fkc_fail(FKC_ERR_NO_DEVICE, "the Vulkan loader is older than 1.1");
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "fkc",
                             .pEngineName = "fkc",
                             .apiVersion = VK_API_VERSION_1_2};
    VkDebugUtilsMessengerCreateInfoEXT dm = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = ctx};
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
        if (!layer_present(VALIDATION_LAYER))
            return fkc_fail(FKC_ERR_UNSUPPORTED, "validation requested but %s is not installed "
                            "(Debian package vulkan-validationlayers)", VALIDATION_LAYER);
        ci.enabledLayerCount = 1;
        ci.ppEnabledLayerNames = layers;
        ci.enabledExtensionCount = 1;
        ci.ppEnabledExtensionNames = exts;
        ci.pNext = &dm;
        if (layer_has_extension(VALIDATION_LAYER, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
            ci.enabledExtensionCount = 2;
            vf.pNext = &dm;
            ci.pNext = &vf;
        }
    }
    VkResult r = vkCreateInstance(&ci, NULL, out);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED)
        return fkc_fail(FKC_ERR_NO_DEVICE, "no Vulkan driver could be loaded (vkCreateInstance: "
                        "%s); install a driver such as mesa-vulkan-drivers and check "
                        "VK_DRIVER_FILES / VK_ICD_FILENAMES", fkc_vk_result_name(r));
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkCreateInstance");
    if (validate) {
        PFN_vkCreateDebugUtilsMessengerEXT make = (PFN_vkCreateDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(*out, "vkCreateDebugUtilsMessengerEXT");
        if (!make || (r = make(*out, &dm, NULL, &ctx->messenger)) != VK_SUCCESS) {
            vkDestroyInstance(*out, NULL);
            *out = VK_NULL_HANDLE;
            return make ? fkc_vk_fail(r, "vkCreateDebugUtilsMessengerEXT")
                        : fkc_fail(FKC_ERR_VULKAN, "vkCreateDebugUtilsMessengerEXT is missing");
        }
    }
    return FKC_OK;
}

/* Physical devices of an instance (at most MAX_DEVICES); FKC_ERR_NO_DEVICE when none. */
static fkc_status list_devices(VkInstance inst, VkPhysicalDevice *pd, uint32_t *n)
{
    uint32_t count = MAX_DEVICES;
    VkResult r = vkEnumeratePhysicalDevices(inst, &count, pd);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return fkc_vk_fail(r, "vkEnumeratePhysicalDevices");
    if (count == 0)
        return fkc_fail(FKC_ERR_NO_DEVICE, "the Vulkan loader found no physical device; install "
                        "a driver such as mesa-vulkan-drivers and check VK_DRIVER_FILES");
    *n = count;
    return FKC_OK;
}

fkc_status fkc_enumerate_devices(fkc_device_info *infos, uint32_t capacity, uint32_t *count)
{
    VkInstance inst = VK_NULL_HANDLE;
    VkPhysicalDevice pd[MAX_DEVICES];
    uint32_t n = 0;
    if (!count || (capacity && !infos))
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_enumerate_devices: NULL output");
    *count = 0;
    fkc_status st = create_instance(NULL, 0, &inst);
    if (st == FKC_OK && (st = list_devices(inst, pd, &n)) == FKC_OK) {
        for (uint32_t i = 0; i < n && i < capacity; i++)
            describe(pd[i], i, &infos[i]);
        *count = n;
    }
    if (inst)
        vkDestroyInstance(inst, NULL);
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
    return fkc_fail(FKC_ERR_DEVICE_NOT_FOUND, "%s: no Vulkan device is named like '%s' "
                    "(%u present; `fkc-run devices` lists them)", origin, name, n);
}

static fkc_status pick_by_index(uint32_t n, const char *text, long index, const char *origin,
                                uint32_t *out)
{
    if (index < 0 || (unsigned long)index >= n)
        return fkc_fail(FKC_ERR_DEVICE_NOT_FOUND, "%s: device index %s is out of range "
                        "(%u device%s present)", origin, text, n, n == 1 ? "" : "s");
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
        if (info[i].has_compute_queue && (info[i].type == FKC_DEVICE_DISCRETE_GPU ||
                                          info[i].type == FKC_DEVICE_INTEGRATED_GPU))
            return *out = i, FKC_OK;
    for (uint32_t i = 0; i < n; i++) /* else a CPU device such as lavapipe */
        if (info[i].has_compute_queue && info[i].type == FKC_DEVICE_CPU)
            return *out = i, FKC_OK;
    for (uint32_t i = 0; i < n; i++)
        if (info[i].has_compute_queue)
            return *out = i, FKC_OK;
    return fkc_fail(FKC_ERR_NO_DEVICE, "no Vulkan device has a compute queue");
}

static uint32_t compute_family(VkPhysicalDevice pd)
{
    uint32_t nq = 0;
    VkQueueFamilyProperties q[32];
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    if (nq > 32)
        nq = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
    for (uint32_t i = 0; i < nq; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            return i;
    return UINT32_MAX;
}

/* Timestamp support of the chosen queue family, for fkc_stream_device_seconds. */
static void timestamps(fkc_context *ctx)
{
    VkPhysicalDeviceProperties p;
    VkQueueFamilyProperties q[32];
    uint32_t nq = 32;
    vkGetPhysicalDeviceProperties(ctx->physical, &p);
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &nq, q);
    ctx->timestamp_bits = ctx->queue_family < nq ? q[ctx->queue_family].timestampValidBits : 0;
    ctx->timestamp_ns = p.limits.timestampPeriod;
    if (ctx->timestamp_ns <= 0)
        ctx->timestamp_bits = 0;
}

/* Logical device: one compute queue, push descriptors, 8/16-bit storage when offered. */
static fkc_status create_device(fkc_context *ctx, uint32_t flags)
{
    const fkc_device_info *in = &ctx->info;
    if (in->api_version < VK_API_VERSION_1_1)
        return fkc_fail(FKC_ERR_UNSUPPORTED, "device '%s' supports only Vulkan %u.%u; 1.1 is "
                        "needed", in->name, VK_API_VERSION_MAJOR(in->api_version),
                        VK_API_VERSION_MINOR(in->api_version));
    if (!has_extension(ctx->physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
        return fkc_fail(FKC_ERR_UNSUPPORTED, "device '%s' lacks %s", in->name,
                        VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    ctx->queue_family = compute_family(ctx->physical);
    if (ctx->queue_family == UINT32_MAX)
        return fkc_fail(FKC_ERR_UNSUPPORTED, "device '%s' has no compute queue", in->name);

    /* The kernels access memory in 32-bit words or wider: no 8/16-bit storage is enabled. */
    (void)flags;
    const char *exts[1] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    uint32_t n_ext = 1;
    const void *chain = NULL;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = ctx->queue_family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkDeviceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = chain,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .enabledExtensionCount = n_ext,
                             .ppEnabledExtensionNames = exts};
    VkResult r = vkCreateDevice(ctx->physical, &ci, NULL, &ctx->device);
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkCreateDevice");
    vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
    timestamps(ctx);
    ctx->push_descriptor = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(
        ctx->device, "vkCmdPushDescriptorSetKHR");
    if (!ctx->push_descriptor)
        return fkc_fail(FKC_ERR_VULKAN, "vkCmdPushDescriptorSetKHR is missing");
    return FKC_OK;
}

/* The limits the runtime works to: device limits, lowered by the options' test hooks. */
static void set_limits(fkc_context *ctx, const fkc_context_options *o)
{
    const fkc_device_info *in = &ctx->info;
    uint64_t range = in->max_storage_buffer_range;
    if (range > FKC_MAX_WINDOW)
        range = FKC_MAX_WINDOW;
    if (o->limit_storage_buffer_range && o->limit_storage_buffer_range < range)
        range = o->limit_storage_buffer_range < FKC_MIN_TEST_RANGE ? FKC_MIN_TEST_RANGE
                                                                   : o->limit_storage_buffer_range;
    ctx->offset_align = in->min_storage_buffer_offset_alignment > FKC_WINDOW_ALIGN
                            ? in->min_storage_buffer_offset_alignment : FKC_WINDOW_ALIGN;
    if (range < 4 * ctx->offset_align) /* room for a window after its alignment slack */
        range = 4 * ctx->offset_align;
    ctx->storage_range = range & ~(uint64_t)15;
    uint32_t g = in->max_compute_work_group_count[0];
    for (int i = 1; i < 3; i++)
        if (in->max_compute_work_group_count[i] < g)
            g = in->max_compute_work_group_count[i];
    if (o->limit_work_group_count && o->limit_work_group_count < g)
        g = o->limit_work_group_count;
    ctx->group_limit = g ? g : 1;
    ctx->copy_path = o->copy_path;
    ctx->flags = o->flags;
    ctx->prefer_transfer = o->copy_path == FKC_COPY_TRANSFER ||
                           (o->copy_path == FKC_COPY_AUTO && in->type == FKC_DEVICE_CPU);
}

/* Command pool, the synchronous-transfer command buffer and its fence. */
static fkc_status create_pool(fkc_context *ctx)
{
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = ctx->queue_family};
    VkResult r = vkCreateCommandPool(ctx->device, &pi, NULL, &ctx->pool);
    if (r != VK_SUCCESS)
        return fkc_vk_fail(r, "vkCreateCommandPool");
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = ctx->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    if ((r = vkAllocateCommandBuffers(ctx->device, &ai, &ctx->xfer_cmd)) != VK_SUCCESS)
        return fkc_vk_fail(r, "vkAllocateCommandBuffers");
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((r = vkCreateFence(ctx->device, &fi, NULL, &ctx->xfer_fence)) != VK_SUCCESS)
        return fkc_vk_fail(r, "vkCreateFence");
    return FKC_OK;
}

/* Instance, device choice, logical device (the steps that need the instance alive). */
static fkc_status open_device(fkc_context *ctx, const fkc_context_options *o)
{
    VkPhysicalDevice pd[MAX_DEVICES];
    fkc_device_info info[MAX_DEVICES];
    uint32_t n = 0, chosen = 0;
    fkc_status st = create_instance(ctx, o->flags, &ctx->instance);
    if (st != FKC_OK)
        return st;
    if ((st = list_devices(ctx->instance, pd, &n)) != FKC_OK)
        return st;
    for (uint32_t i = 0; i < n; i++)
        describe(pd[i], i, &info[i]);
    if ((st = select_device(o, info, n, &chosen)) != FKC_OK)
        return st;
    ctx->physical = pd[chosen];
    ctx->info = info[chosen];
    VkPhysicalDeviceMaintenance3Properties m3 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                      .pNext = &m3};
    if (ctx->info.api_version >= VK_API_VERSION_1_1) {
        vkGetPhysicalDeviceProperties2(ctx->physical, &p2);
        ctx->max_allocation = m3.maxMemoryAllocationSize;
    }
    vkGetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->mem);
    set_limits(ctx, o);
    return create_device(ctx, o->flags);
}

fkc_status fkc_context_create(const fkc_context_options *options, fkc_context **out)
{
    fkc_context_options defaults;
    if (!out)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "fkc_context_create: out is NULL");
    *out = NULL;
    if (!options) {
        fkc_context_options_init(&defaults);
        options = &defaults;
    }
    if ((unsigned)options->copy_path > FKC_COPY_TRANSFER)
        return fkc_fail(FKC_ERR_INVALID_ARGUMENT, "unknown copy path %d", (int)options->copy_path);
    fkc_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return fkc_fail(FKC_ERR_OUT_OF_MEMORY, "allocating the context");
    ctx->on_validation = options->on_validation;
    ctx->on_validation_user = options->on_validation_user;
    fkc_status st = open_device(ctx, options);
    if (st == FKC_OK)
        st = create_pool(ctx);
    if (st == FKC_OK)
        st = fkc_pipelines_init(ctx);
    if (st != FKC_OK) {
        fkc_context_destroy(ctx);
        return st;
    }
    *out = ctx;
    return FKC_OK;
}

void fkc_context_destroy(fkc_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->device) {
        vkDeviceWaitIdle(ctx->device);
        fkc_stream_destroy(ctx->one_shot);
        fkc_staging_destroy(ctx);
        fkc_user_kernels_destroy(ctx);
        fkc_pipelines_destroy(ctx);
        if (ctx->xfer_fence)
            vkDestroyFence(ctx->device, ctx->xfer_fence, NULL);
        if (ctx->pool)
            vkDestroyCommandPool(ctx->device, ctx->pool, NULL);
        vkDestroyDevice(ctx->device, NULL);
    }
    if (ctx->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT kill = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(ctx->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (kill)
            kill(ctx->instance, ctx->messenger, NULL);
    }
    if (ctx->instance)
        vkDestroyInstance(ctx->instance, NULL);
    free(ctx);
}

const fkc_device_info *fkc_context_device(const fkc_context *ctx)
{
    return ctx ? &ctx->info : NULL;
}

uint64_t fkc_context_validation_count(const fkc_context *ctx)
{
    return ctx ? ctx->validation_count : 0;
}

const char *fkc_context_validation_last(const fkc_context *ctx)
{
    return ctx ? ctx->validation_last : "";
}

uint64_t fkc_context_storage_range(const fkc_context *ctx)
{
    return ctx ? ctx->storage_range : 0;
}

uint32_t fkc_context_work_group_count(const fkc_context *ctx)
{
    return ctx ? ctx->group_limit : 0;
}

int fkc_memory_type(const fkc_context *ctx, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < ctx->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (ctx->mem.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}
