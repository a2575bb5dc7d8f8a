/* main.c — a Vulkan program that owns its device and uses fkc as a guest (fkc/fkc_vulkan.h): it
 * creates its own instance (with the Khronos validation layer, its synchronization validation
 * and a debug messenger of its own counting every message), device, queue and buffers, records
 * its own commands and fkc's into ONE command buffer, and submits it itself: a KV ring of
 * [heads, capacity, dim] f16 values, a prompt written with fkc_write_slice, then decode steps
 * written with fkc_write_slice_rotating at a ring position that lives in the program's own
 * buffer and that its own commands advance on the device between steps (no host round trip).
 * Every byte of the ring is compared with a CPU computation; any validation message fails.
 * It loads Vulkan itself, as volk does: it opens the loader (libvulkan.so.1) at run time, takes
 * every entry point it calls from its vkGetInstanceProcAddr and hands that to fkc, so neither
 * the program nor libfkc links libvulkan (readelf -d shows no libvulkan among their NEEDED).
 *   vulkan-host        exit 0 when every byte matches and the layer said nothing */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VK_NO_PROTOTYPES /* no Vulkan symbol is linked: the pointers below are loaded */
#include <vulkan/vulkan.h>

#include "fkc/fkc_vulkan.h"

/* The program's own loader: every Vulkan function it calls, as a pointer of the same name. */
/* clang-format off */
#define HOST_VK(X)                                                                                 \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)            \
    X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkGetPhysicalDeviceMemoryProperties)             \
    X(vkEnumerateDeviceExtensionProperties) X(vkCreateDevice) X(vkDestroyDevice)                   \
    X(vkGetDeviceQueue) X(vkDeviceWaitIdle) X(vkQueueSubmit) X(vkCreateBuffer) X(vkDestroyBuffer)  \
    X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory) X(vkBindBufferMemory)     \
    X(vkMapMemory) X(vkCreateCommandPool) X(vkDestroyCommandPool) X(vkAllocateCommandBuffers)      \
    X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkCreateFence) X(vkDestroyFence)               \
    X(vkWaitForFences) X(vkCmdPipelineBarrier) X(vkCmdCopyBuffer) X(vkCmdFillBuffer)               \
    X(vkCmdUpdateBuffer)
/* clang-format on */
static PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
static PFN_vkCreateInstance vkCreateInstance;
#define HOST_VK_POINTER(name) static PFN_##name name;
HOST_VK(HOST_VK_POINTER)

/* dlopen("libvulkan.so.1"): its vkGetInstanceProcAddr, and vkCreateInstance through it. */
static bool load_vulkan(void **loader)
{
    *loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    void *gipa = *loader ? dlsym(*loader, "vkGetInstanceProcAddr") : NULL;
    if (!gipa)
        return false;
    memcpy(&vkGetInstanceProcAddr, &gipa, sizeof gipa); /* POSIX: a function's address */
    vkCreateInstance = (PFN_vkCreateInstance)vkGetInstanceProcAddr(NULL, "vkCreateInstance");
    return vkCreateInstance != NULL;
}

/* The rest, from the instance (device functions through the loader's dispatch). */
static bool load_instance(VkInstance instance)
{
    bool ok = true;
#define HOST_VK_LOAD(name)                                                                         \
    ok = ok && (name = (PFN_##name)vkGetInstanceProcAddr(instance, #name)) != NULL;
    HOST_VK(HOST_VK_LOAD)
    return ok;
}

#define HEADS 4
#define CAP 16   /* ring capacity (tokens) */
#define DIM 24   /* f16 values per token and head: 48-byte rows */
#define PROMPT 5 /* prompt tokens, written at ring rows 0..4 */
#define STEPS 20 /* decode steps: the ring wraps */
#define ROW (DIM * 2)
#define RING_BYTES (HEADS * CAP * ROW)
#define TOKENS_BYTES (HEADS * (PROMPT + STEPS) * ROW)

static atomic_uint messages; /* validation messages received */

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    (void)severity; /* (the messenger asks for warnings and errors only) */
    (void)user;
    /* The validation layer's findings; not the loader's general messages, such as its warning
     * that VK_INSTANCE_LAYERS added a layer when the environment enables validation. */
    if (!(types & (VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)))
        return VK_FALSE;
    atomic_fetch_add(&messages, 1);
    fprintf(stderr, "vulkan-host: validation: %s\n", data->pMessage);
    return VK_FALSE;
}

/* The program's Vulkan: everything it owns. */
typedef struct host {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    const char *extensions[1];
    uint32_t n_extensions;
    VkPhysicalDeviceMemoryProperties memory;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
} host;

typedef struct buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    unsigned char *map;
    VkDeviceSize size;
} buffer;

static int fail(const char *what)
{
    fprintf(stderr, "vulkan-host: %s\n", what);
    return 1;
}

#define VK_TRY(call)                                                                               \
    do {                                                                                           \
        if ((call) != VK_SUCCESS)                                                                  \
            return fail(#call);                                                                    \
    } while (0)

/* Instance with validation + synchronization validation and our messenger; the first GPU,
 * else the first CPU device (lavapipe); a device with one compute queue and push descriptors
 * when the device has them (fkc works without them too). */
static int open_host(host *h)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "vulkan-host",
                             .apiVersion = VK_API_VERSION_1_2};
    VkDebugUtilsMessengerCreateInfoEXT dm = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message};
    VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                        .pNext = &dm,
                                        .enabledValidationFeatureCount = 1,
                                        .pEnabledValidationFeatures = &sync};
    const char *layer = "VK_LAYER_KHRONOS_validation";
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                          VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    VkInstanceCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pNext = &features,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = 1,
                               .ppEnabledLayerNames = &layer,
                               .enabledExtensionCount = 2,
                               .ppEnabledExtensionNames = exts};
    VK_TRY(vkCreateInstance(&ii, NULL, &h->instance));
    if (!load_instance(h->instance))
        return fail("the loader lacks a Vulkan 1.1 entry point");
    PFN_vkCreateDebugUtilsMessengerEXT make_messenger = (PFN_vkCreateDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(h->instance, "vkCreateDebugUtilsMessengerEXT");
    if (!make_messenger)
        return fail("no vkCreateDebugUtilsMessengerEXT");
    VK_TRY(make_messenger(h->instance, &dm, NULL, &h->messenger));
    VkPhysicalDevice pd[16];
    uint32_t n = 16;
    VK_TRY(vkEnumeratePhysicalDevices(h->instance, &n, pd));
    for (int pass = 0; pass < 2 && !h->physical; pass++)
        for (uint32_t i = 0; i < n && !h->physical; i++) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(pd[i], &p);
            bool gpu = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
                       p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
            if (pass == 0 ? gpu : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
                h->physical = pd[i];
        }
    if (!h->physical)
        return fail("no GPU or CPU Vulkan device");
    VkQueueFamilyProperties q[16];
    uint32_t nq = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical, &nq, q);
    h->family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && h->family == UINT32_MAX; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            h->family = i;
    if (h->family == UINT32_MAX)
        return fail("no compute queue");
    VkExtensionProperties ext[256];
    uint32_t ne = 256;
    vkEnumerateDeviceExtensionProperties(h->physical, NULL, &ne, ext);
    for (uint32_t i = 0; i < ne; i++)
        if (strcmp(ext[i].extensionName, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0)
            h->extensions[h->n_extensions++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    float prio = 1;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = h->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .enabledExtensionCount = h->n_extensions,
                             .ppEnabledExtensionNames = h->extensions};
    VK_TRY(vkCreateDevice(h->physical, &di, NULL, &h->device));
    vkGetDeviceQueue(h->device, h->family, 0, &h->queue);
    vkGetPhysicalDeviceMemoryProperties(h->physical, &h->memory);
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .queueFamilyIndex = h->family};
    VK_TRY(vkCreateCommandPool(h->device, &pi, NULL, &h->pool));
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = h->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    VK_TRY(vkAllocateCommandBuffers(h->device, &ai, &h->cmd));
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_TRY(vkCreateFence(h->device, &fi, NULL, &h->fence));
    return 0;
}

/* A buffer of the program's own: device-local for the ring and the tokens, host-visible for
 * the result it reads back. Its usage includes what fkc needs (FKC_VULKAN_BUFFER_USAGE). */
static int make_buffer(host *h, buffer *b, VkDeviceSize size, bool host_visible)
{
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = FKC_VULKAN_BUFFER_USAGE};
    VK_TRY(vkCreateBuffer(h->device, &bi, NULL, &b->buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, b->buffer, &req);
    VkMemoryPropertyFlags want = host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                              : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t t = 0; t < h->memory.memoryTypeCount && type == UINT32_MAX; t++)
        if ((req.memoryTypeBits & (1u << t)) &&
            (h->memory.memoryTypes[t].propertyFlags & want) == want)
            type = t;
    if (type == UINT32_MAX)
        return fail("no memory type");
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
    VK_TRY(vkAllocateMemory(h->device, &ai, NULL, &b->memory));
    VK_TRY(vkBindBufferMemory(h->device, b->buffer, b->memory, 0));
    b->size = size;
    if (host_visible) {
        void *map;
        VK_TRY(vkMapMemory(h->device, b->memory, 0, VK_WHOLE_SIZE, 0, &map));
        b->map = map;
    }
    return 0;
}

/* The value of head h, token t, element i: a pattern with NaN payloads and -0.0 among them
 * (f16 bits, never computed with: fkc moves bits). */
static uint16_t token_value(int head, int token, int i)
{
    uint32_t x = (uint32_t)(head * 131071 + token * 8191 + i * 127) * 2654435761u;
    uint16_t v = (uint16_t)(x >> 16);
    return i % 7 == 0 ? (uint16_t)(0x7e00u | (v & 0x1ff)) : i % 11 == 0 ? 0x8000u : v;
}

/* Byte offset of token t of head h in the tokens buffer: the prompt block [HEADS, PROMPT, DIM]
 * first, then one [HEADS, 1, DIM] block per step. */
static size_t token_at(int head, int t)
{
    if (t < PROMPT)
        return ((size_t)head * PROMPT + (size_t)t) * ROW;
    return ((size_t)HEADS * PROMPT + (size_t)(t - PROMPT) * HEADS + (size_t)head) * ROW;
}

static void put16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

/* The ring a CPU computes: zeros, the prompt at rows 0..PROMPT-1, then step s at row
 * (PROMPT + s) mod CAP, the last write winning. */
static void expected_ring(unsigned char *ring)
{
    memset(ring, 0, RING_BYTES);
    for (int t = 0; t < PROMPT + STEPS; t++)
        for (int hd = 0; hd < HEADS; hd++)
            for (int i = 0; i < DIM; i++)
                put16(ring + ((size_t)(hd * CAP + t % CAP) * DIM + (size_t)i) * 2,
                      token_value(hd, t, i));
}

static int run(host *h)
{
    buffer ring, tokens, pos, out;
    if (make_buffer(h, &ring, RING_BYTES, false) || make_buffer(h, &tokens, TOKENS_BYTES, false) ||
        make_buffer(h, &pos, 16, false) || make_buffer(h, &out, RING_BYTES, true))
        return 1;

    /* 1. fkc over the program's device, and fkc buffers over its buffers (borrowed) */
    fkc_vulkan_device dev;
    fkc_vulkan_device_init(&dev);
    dev.get_instance_proc_addr = vkGetInstanceProcAddr;
    dev.instance = h->instance;
    dev.instance_api_version = VK_API_VERSION_1_2;
    dev.physical_device = h->physical;
    dev.device = h->device;
    dev.queue_family = h->family;
    dev.queue_index = 0;
    dev.enabled_extensions = h->extensions;
    dev.enabled_extension_count = h->n_extensions;
    fkc_context *ctx;
    if (fkc_context_create_vulkan(&dev, NULL, &ctx) != FKC_OK)
        return fail(fkc_last_error());
    fkc_buffer *f_ring, *f_tokens, *f_pos;
    if (fkc_buffer_wrap_vulkan(ctx, ring.buffer, 0, RING_BYTES, FKC_VULKAN_BUFFER_USAGE, &f_ring) !=
            FKC_OK ||
        fkc_buffer_wrap_vulkan(ctx, tokens.buffer, 0, TOKENS_BYTES, FKC_VULKAN_BUFFER_USAGE,
                               &f_tokens) != FKC_OK ||
        fkc_buffer_wrap_vulkan(ctx, pos.buffer, 0, 16, FKC_VULKAN_BUFFER_USAGE, &f_pos) != FKC_OK)
        return fail(fkc_last_error());

    /* 2. one command buffer: the program's commands and fkc's */
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK_TRY(vkBeginCommandBuffer(h->cmd, &bi));
    fkc_stream *s;
    if (fkc_stream_wrap_vulkan(ctx, h->cmd, &s) != FKC_OK)
        return fail(fkc_last_error());
    /* the program's own commands: a zeroed ring; the tokens: the prompt [HEADS, PROMPT, DIM],
     * then each step's token [HEADS, 1, DIM] */
    vkCmdFillBuffer(h->cmd, ring.buffer, 0, RING_BYTES, 0);
    static unsigned char tok[TOKENS_BYTES];
    for (int t = 0; t < PROMPT + STEPS; t++)
        for (int hd = 0; hd < HEADS; hd++)
            for (int i = 0; i < DIM; i++)
                put16(tok + token_at(hd, t) + (size_t)i * 2, token_value(hd, t, i));
    for (VkDeviceSize at = 0; at < TOKENS_BYTES; at += 65536) /* vkCmdUpdateBuffer: 64 KiB max */
        vkCmdUpdateBuffer(h->cmd, tokens.buffer, at,
                          TOKENS_BYTES - at < 65536 ? TOKENS_BYTES - at : 65536, tok + at);
    /* entry: fkc's commands read and write after the program's transfer writes */
    fkc_stream_vulkan_barrier_in(s, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    /* the prompt into ring rows 0..PROMPT-1 of every head */
    fkc_tensor prompt = {f_tokens, 0, FKC_DTYPE_F16, 3, {HEADS, PROMPT, DIM}};
    fkc_tensor kv = {f_ring, 0, FKC_DTYPE_F16, 3, {HEADS, CAP, DIM}};
    if (fkc_write_slice(s, &prompt, &kv, (size_t[]){0, 0, 0}) != FKC_OK)
        return fail(fkc_last_error());
    /* the decode steps: the position (a u64 in the program's buffer) is written by the
     * program's own command on the device before each step; fkc's kernel reads it there */
    for (int step = 0; step < STEPS; step++) {
        uint64_t p64[2] = {PROMPT + (uint64_t)step, 0};
        fkc_stream_vulkan_barrier_out(s, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                      VK_ACCESS_TRANSFER_WRITE_BIT);
        vkCmdUpdateBuffer(h->cmd, pos.buffer, 0, 16, p64);
        fkc_stream_vulkan_barrier_in(s, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                     VK_ACCESS_TRANSFER_WRITE_BIT);
        fkc_tensor token = {
            f_tokens, token_at(0, PROMPT + step), FKC_DTYPE_F16, 3, {HEADS, 1, DIM}};
        if (fkc_write_slice_rotating(s, &token, &kv, CAP, f_pos, 0, 1) != FKC_OK)
            return fail(fkc_last_error());
    }
    /* exit: the program copies the ring into its host-visible buffer after fkc's writes */
    fkc_stream_vulkan_barrier_out(s, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferCopy region = {0, 0, RING_BYTES};
    vkCmdCopyBuffer(h->cmd, ring.buffer, out.buffer, 1, &region);
    VkMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(h->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &to_host, 0, NULL, 0, NULL);
    VK_TRY(vkEndCommandBuffer(h->cmd));

    /* 3. the program submits and waits itself */
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &h->cmd};
    VK_TRY(vkQueueSubmit(h->queue, 1, &si, h->fence));
    VK_TRY(vkWaitForFences(h->device, 1, &h->fence, VK_TRUE, UINT64_MAX));

    /* 4. every byte against the CPU */
    static unsigned char want[RING_BYTES];
    expected_ring(want);
    size_t bad = 0;
    for (size_t i = 0; i < RING_BYTES; i++)
        if (out.map[i] != want[i] && bad++ < 5)
            fprintf(stderr, "vulkan-host: ring byte %zu: device 0x%02x, CPU 0x%02x\n", i,
                    out.map[i], want[i]);

    fkc_stream_destroy(s);
    fkc_buffer_destroy(f_ring);
    fkc_buffer_destroy(f_tokens);
    fkc_buffer_destroy(f_pos);
    fkc_context_destroy(ctx); /* fkc's objects only: the device and buffers stay the program's */
    buffer *all_buffers[4] = {&ring, &tokens, &pos, &out};
    for (int i = 0; i < 4; i++) {
        vkDestroyBuffer(h->device, all_buffers[i]->buffer, NULL);
        vkFreeMemory(h->device, all_buffers[i]->memory, NULL);
    }
    if (bad)
        return fprintf(stderr, "vulkan-host: %zu of %d ring bytes differ\n", bad, RING_BYTES), 1;
    printf("vulkan-host: %d ring bytes bit-exact after a prompt and %d rotating steps in one "
           "command buffer (%s)\n",
           RING_BYTES, STEPS, h->n_extensions ? "push descriptors" : "descriptor pools");
    return 0;
}

static void close_host(host *h)
{
    if (h->device) {
        vkDeviceWaitIdle(h->device);
        if (h->fence)
            vkDestroyFence(h->device, h->fence, NULL);
        if (h->pool)
            vkDestroyCommandPool(h->device, h->pool, NULL);
        vkDestroyDevice(h->device, NULL); /* the layer reports any object left on it */
    }
    if (h->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT kill = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(h->instance, "vkDestroyDebugUtilsMessengerEXT");
        kill(h->instance, h->messenger, NULL);
    }
    if (h->instance && vkDestroyInstance)
        vkDestroyInstance(h->instance, NULL);
}

int main(void)
{
    host h;
    memset(&h, 0, sizeof h);
    void *loader = NULL;
    if (!load_vulkan(&loader)) {
        fprintf(stderr, "vulkan-host: cannot load libvulkan.so.1: %s\n", dlerror());
        return 1;
    }
    int rc = open_host(&h);
    if (rc == 0)
        rc = run(&h);
    close_host(&h);
    dlclose(loader);
    unsigned n = atomic_load(&messages);
    if (n) {
        fprintf(stderr, "vulkan-host: %u validation message(s)\n", n);
        rc = 1;
    }
    if (rc == 0)
        printf("vulkan-host: 0 validation messages\n");
    return rc;
}
