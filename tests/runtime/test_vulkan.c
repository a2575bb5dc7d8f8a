/* test_vulkan.c — fkc as a guest in the host's Vulkan (fkc/fkc_vulkan.h): a context over a device
 * the test made itself (rt_host.h: validation and synchronization validation on, its own
 * messenger; any message fails), with and without push descriptors; fkc buffers over ranges of
 * one host VkBuffer (source, destination and ring position at non-zero offsets) and fkc's own
 * buffers used by host commands; ops recorded into the host's command buffer between host
 * commands, behind the documented entry/exit barriers, submitted by the host; every byte of the
 * host buffer compared with the reference, those outside the wrapped ranges included. Then what
 * a borrowed context refuses, never destroying the host's objects, and the host's semaphores
 * (timeline and binary) and queue lock on fkc's own streams. */
#include "rt_host.h"

/* Bytes of the host buffer and its ranges; every offset is a multiple of 256 (fkc's alignment
 * is at most that on the devices we run), none is 0. */
enum { HOST_BYTES = 65536, SRC_AT = 4096, DST_AT = 16384, POS_AT = 512, OUT_AT = 49152 };

/* The host's image of its buffer: what every byte must be after the host's submission. */
typedef struct scene {
    rt_host h;
    rt_hbuf H;
    unsigned char *img;
    fkc_context *ctx;
    fkc_buffer *src, *dst, *pos;
} scene;

static void scene_open(scene *sc, bool push)
{
    rt_host_open(&sc->h, push, true);
    fkc_vulkan_device d = rt_host_device(&sc->h);
    RT_OK(fkc_context_create_vulkan(&d, NULL, &sc->ctx));
    assert_int_equal(fkc_context_vulkan_push_descriptors(sc->ctx), push);
    assert_true(fkc_context_vulkan_timeline(sc->ctx));
    VkDevice dev;
    VkQueue q;
    uint32_t family;
    RT_OK(fkc_context_vulkan(sc->ctx, NULL, NULL, &dev, &q, &family));
    assert_ptr_equal(dev, sc->h.dev);
    assert_ptr_equal(q, sc->h.queue);
    assert_int_equal(family, sc->h.family);
    assert_true(fkc_vulkan_buffer_alignment(sc->ctx) <= 256);
    rt_hbuf_make(&sc->h, &sc->H, HOST_BYTES);
    sc->img = malloc(HOST_BYTES);
    assert_non_null(sc->img);
    fill_tricky(sc->img, HOST_BYTES, 2);
    memcpy(sc->H.map, sc->img, HOST_BYTES);
    RT_OK(fkc_buffer_wrap_vulkan(sc->ctx, sc->H.buffer, SRC_AT, 8192, FKC_VULKAN_BUFFER_USAGE,
                                 &sc->src));
    RT_OK(fkc_buffer_wrap_vulkan(sc->ctx, sc->H.buffer, DST_AT, 16384, FKC_VULKAN_BUFFER_USAGE,
                                 &sc->dst));
    RT_OK(fkc_buffer_wrap_vulkan(sc->ctx, sc->H.buffer, POS_AT, 16, FKC_VULKAN_BUFFER_USAGE,
                                 &sc->pos));
    assert_true(fkc_buffer_borrowed(sc->src));
    VkBuffer vb;
    VkDeviceSize off, size;
    RT_OK(fkc_buffer_vulkan(sc->dst, &vb, &off, &size));
    assert_ptr_equal(vb, sc->H.buffer);
    assert_int_equal(off, DST_AT);
    assert_int_equal(size, 16384);
}

static void scene_close(scene *sc)
{
    fkc_buffer_destroy(sc->src);
    fkc_buffer_destroy(sc->dst);
    fkc_buffer_destroy(sc->pos);
    fkc_context_destroy(sc->ctx);
    /* fkc destroyed nothing of the host's: its buffer still works after the context is gone */
    rt_host_begin(&sc->h);
    vkCmdFillBuffer(sc->h.cmd, sc->H.buffer, 0, 256, 0x01020304u);
    rt_host_submit_wait(&sc->h);
    for (int i = 0; i < 256; i += 4)
        assert_int_equal(sc->H.map[i] | sc->H.map[i + 1] << 8, 0x0304);
    rt_hbuf_free(&sc->h, &sc->H);
    free(sc->img);
    rt_host_close(&sc->h); /* any object fkc left on the device is reported here */
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Host commands and fkc ops in one host command buffer, twice (the second recording through
 * fkc_stream_begin_vulkan on the command buffer begun again): the host fills part of the
 * source, fkc writes a slab and two ring writes (position in the host buffer, written by the
 * host's vkCmdUpdateBuffer in the same command buffer), an fkc-owned buffer takes a slab too,
 * and the host copies fkc's results elsewhere in its buffer. */
static void guest_round(scene *sc, fkc_stream *s, fkc_buffer *own, int round)
{
    rt_host *h = &sc->h;
    VkBuffer own_vb;
    VkDeviceSize own_off, own_size;
    RT_OK(fkc_buffer_vulkan(own, &own_vb, &own_off, &own_size));
    /* 1. the host's own commands: part of the source, and the ring position */
    uint32_t word = 0xA5000000u + (uint32_t)round;
    vkCmdFillBuffer(h->cmd, sc->H.buffer, SRC_AT + 256, 512, word);
    for (int i = 0; i < 512; i += 4)
        memcpy(sc->img + SRC_AT + 256 + i, &word, 4);
    unsigned char p8[16];
    uint64_t position = round ? (1ull << 40) + 5 : 13; /* ring of 8: 5 and 5 */
    memset(p8, 0, sizeof p8);
    put_u64(p8 + 3, position); /* at byte 3 of the position range */
    vkCmdUpdateBuffer(h->cmd, sc->H.buffer, POS_AT, 16, p8);
    memcpy(sc->img + POS_AT, p8, 16);
    /* 2. entry barrier: the host's transfer writes, before fkc reads them */
    RT_OK(fkc_stream_vulkan_barrier_in(s, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                       VK_ACCESS_TRANSFER_WRITE_BIT));
    /* 3. fkc's ops */
    const size_t d1[2] = {6, 40}, s1[2] = {4, 30}, o1[2] = {1, 5};
    fkc_tensor st = rt_tensor(sc->src, 250, FKC_DTYPE_F16, 2, s1);
    fkc_tensor ot = rt_tensor(sc->dst, 7, FKC_DTYPE_F16, 2, d1);
    RT_OK(fkc_write_slice(s, &st, &ot, o1));
    fkc_ref_write_slice(sc->img + DST_AT + 7, d1, 2, sc->img + SRC_AT + 250, s1, o1, 2);
    const size_t ring[3] = {2, 8, 48}, tok[3] = {2, 3, 48}; /* 16-byte rows: the aligned kernel */
    fkc_tensor rs = rt_tensor(sc->src, 1024, FKC_DTYPE_U8, 3, tok);
    fkc_tensor ro = rt_tensor(sc->dst, 2048, FKC_DTYPE_U8, 3, ring);
    RT_OK(fkc_write_slice_rotating(s, &rs, &ro, 8, sc->pos, 3, 1));
    fkc_ref_write_slice_rotating(sc->img + DST_AT + 2048, ring, 3, sc->img + SRC_AT + 1024, tok, 8,
                                 position, 1, 1);
    const size_t ring2[2] = {8, 13}, tok2[2] = {5, 13}; /* odd rows: the unit-owning kernel */
    fkc_tensor rs2 = rt_tensor(sc->src, 3001, FKC_DTYPE_U8, 2, tok2);
    fkc_tensor ro2 = rt_tensor(sc->dst, 5003, FKC_DTYPE_U8, 2, ring2);
    RT_OK(fkc_write_slice_rotating(s, &rs2, &ro2, 8, sc->pos, 3, 0));
    fkc_ref_write_slice_rotating(sc->img + DST_AT + 5003, ring2, 2, sc->img + SRC_AT + 3001, tok2,
                                 8, position, 0, 1);
    const size_t od[1] = {1000}, os[1] = {300}, oo[1] = {11};
    fkc_tensor ws = rt_tensor(sc->src, 5, FKC_DTYPE_U8, 1, os);
    fkc_tensor wo = rt_tensor(own, 0, FKC_DTYPE_U8, 1, od);
    RT_OK(fkc_write_slice(s, &ws, &wo, oo));
    /* 4. exit barrier, then the host copies fkc's results (a slab of dst, the owned buffer) */
    RT_OK(fkc_stream_vulkan_barrier_out(s, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                        VK_ACCESS_TRANSFER_READ_BIT));
    VkBufferCopy c1 = {DST_AT + 2048, OUT_AT, 2 * 8 * 48};
    vkCmdCopyBuffer(h->cmd, sc->H.buffer, sc->H.buffer, 1, &c1);
    VkBufferCopy c2 = {own_off, OUT_AT + 1024, 1000};
    vkCmdCopyBuffer(h->cmd, own_vb, sc->H.buffer, 1, &c2);
    rt_host_submit_wait(h);
    memcpy(sc->img + OUT_AT, sc->img + DST_AT + 2048, 2 * 8 * 48);
    /* the owned buffer: its first bytes were never written; compare the slab written */
    unsigned char got[1000];
    RT_OK(fkc_buffer_download(own, 0, got, sizeof got));
    assert_memory_equal(got + 11, sc->img + SRC_AT + 5, 300);
    assert_memory_equal(sc->H.map + OUT_AT + 1024, got, 1000);
    memcpy(sc->img + OUT_AT + 1024, got, 1000);
    for (size_t i = 0; i < HOST_BYTES; i++)
        if (sc->H.map[i] != sc->img[i])
            fail_msg("round %d: host byte %zu: device 0x%02x, reference 0x%02x", round, i,
                     sc->H.map[i], sc->img[i]);
}

static void guest(bool push)
{
    scene sc;
    scene_open(&sc, push);
    rng_seed(push ? 41 : 42);
    fkc_buffer *pad, *own; /* one buffer before `own` in its block: `own` is not at offset 0 */
    RT_OK(fkc_buffer_create(sc.ctx, 100, &pad));
    RT_OK(fkc_buffer_create(sc.ctx, 1000, &own));
    VkDeviceSize off;
    RT_OK(fkc_buffer_vulkan(own, NULL, &off, NULL));
    assert_true(off != 0);
    rt_host_begin(&sc.h);
    fkc_stream *s;
    RT_OK(fkc_stream_wrap_vulkan(sc.ctx, sc.h.cmd, &s));
    guest_round(&sc, s, own, 0);
    rt_host_begin(&sc.h); /* the same command buffer, begun again */
    RT_OK(fkc_stream_begin_vulkan(s, sc.h.cmd));
    guest_round(&sc, s, own, 1);
    assert_int_equal(fkc_stream_op_count(s), 4);
    assert_true(fkc_stream_device_seconds(s) < 0);
    fkc_stream_destroy(s);
    fkc_buffer_destroy(own);
    fkc_buffer_destroy(pad);
    rt_host_quiet(&sc.h, "guest ops");
    scene_close(&sc);
}

static void test_guest_push_descriptors(void **state)
{
    (void)state;
    guest(true);
}

static void test_guest_descriptor_pools(void **state)
{
    (void)state;
    guest(false);
}

#define REFUSED(call, status, text)                                                                \
    do {                                                                                           \
        fkc_status got_ = (call);                                                                  \
        if (got_ != (status) || !strstr(fkc_last_error(), (text)))                                 \
            fail_msg("%s -> %s '%s', want %s with '%s'", #call, fkc_status_name(got_),             \
                     fkc_last_error(), fkc_status_name(status), (text));                           \
    } while (0)

/* What a borrowed context, its buffers and its streams refuse, each with *out NULL. */
static void test_refusals(void **state)
{
    (void)state;
    rt_host h;
    rt_host_open(&h, true, false);
    fkc_vulkan_device d = rt_host_device(&h), bad;
    fkc_context *c = (fkc_context *)1;
    bad = d;
    bad.size = 0;
    REFUSED(fkc_context_create_vulkan(&bad, NULL, &c), FKC_ERR_INVALID_ARGUMENT,
            "fkc_vulkan_device.size is 0");
    assert_null(c);
    REFUSED(fkc_context_create_vulkan(NULL, NULL, &c), FKC_ERR_INVALID_ARGUMENT, "NULL");
    bad = d;
    bad.device = VK_NULL_HANDLE;
    REFUSED(fkc_context_create_vulkan(&bad, NULL, &c), FKC_ERR_INVALID_ARGUMENT, "device is NULL");
    bad = d;
    bad.get_instance_proc_addr = NULL;
    REFUSED(fkc_context_create_vulkan(&bad, NULL, &c), FKC_ERR_INVALID_ARGUMENT,
            "get_instance_proc_addr is NULL");
    bad = d;
    bad.instance_api_version = VK_API_VERSION_1_0;
    REFUSED(fkc_context_create_vulkan(&bad, NULL, &c), FKC_ERR_UNSUPPORTED,
            "created for Vulkan 1.0; fkc needs 1.1");
    bad = d;
    bad.queue_family = 99;
    REFUSED(fkc_context_create_vulkan(&bad, NULL, &c), FKC_ERR_INVALID_ARGUMENT,
            "has no queue 0 of family 99");
    /* just past the last family and the last queue (a mutation sample took `>=` as `>`) */
    VkQueueFamilyProperties qf[16];
    uint32_t nqf = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(h.pd, &nqf, qf);
    bad = d;
    bad.queue_family = nqf;
    REFUSED(fkc_context_create_vulkan(&bad, NULL, &c), FKC_ERR_INVALID_ARGUMENT, "has no queue 0");
    bad = d;
    bad.queue_index = qf[d.queue_family].queueCount;
    REFUSED(fkc_context_create_vulkan(&bad, NULL, &c), FKC_ERR_INVALID_ARGUMENT, "has no queue");
    assert_null(c);
    bad = d;
    bad.enabled_extensions = NULL;
    REFUSED(fkc_context_create_vulkan(&bad, NULL, &c), FKC_ERR_INVALID_ARGUMENT,
            "1 enabled extensions but the list is NULL");
    fkc_context_options o;
    fkc_context_options_init(&o);
    o.device_index = 0;
    REFUSED(fkc_context_create_vulkan(&d, &o, &c), FKC_ERR_INVALID_ARGUMENT, "choose a device");
    fkc_context_options_init(&o);
    o.flags = FKC_CONTEXT_VALIDATION;
    REFUSED(fkc_context_create_vulkan(&d, &o, &c), FKC_ERR_INVALID_ARGUMENT,
            "install your own messenger");
    fkc_context_options_init(&o);
    o.size = sizeof o - 8; /* headers of another version */
    REFUSED(fkc_context_create_vulkan(&d, &o, &c), FKC_ERR_INVALID_ARGUMENT,
            "fkc_context_options.size is");
    fkc_context_options_init(&o);
    o.flags = 1u << 2; /* was FKC_CONTEXT_NO_SMALL_STORAGE */
    REFUSED(fkc_context_create(&o, &c), FKC_ERR_INVALID_ARGUMENT, "unknown context flags 0x4");
    assert_null(c);
    REFUSED(fkc_context_create_with_loader(NULL, NULL, &c), FKC_ERR_INVALID_ARGUMENT,
            "get_instance_proc_addr is NULL");
    RT_OK(fkc_context_create_with_loader(NULL, vkGetInstanceProcAddr, &c)); /* owned, our loader */
    fkc_context_destroy(c);
    rt_host_quiet(&h, "refused contexts");

    /* fkc uses push descriptors only when they are among the first enabled_extension_count
     * names (two survivors of a mutation sample: one name read past the count, and any name
     * taken as a match); the device has them, the host does not say so */
    const char *other_then_push[2] = {"VK_KHR_maintenance1", VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    bad = d;
    bad.enabled_extensions = other_then_push;
    bad.enabled_extension_count = 1;
    RT_OK(fkc_context_create_vulkan(&bad, NULL, &c));
    assert_false(fkc_context_vulkan_push_descriptors(c));
    fkc_context_destroy(c);
    RT_OK(fkc_context_create_vulkan(&d, NULL, &c));
    assert_false(fkc_context_vulkan_timeline(c)); /* the host did not enable the feature */
    rt_hbuf H;
    rt_hbuf_make(&h, &H, 4096);
    fkc_buffer *b = (fkc_buffer *)1;
    REFUSED(fkc_buffer_wrap_vulkan(
                c, H.buffer, 0, 256,
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, &b),
            FKC_ERR_UNSUPPORTED, "lacks VK_BUFFER_USAGE_TRANSFER_SRC_BIT");
    assert_null(b);
    REFUSED(fkc_buffer_wrap_vulkan(c, H.buffer, 8, 256, FKC_VULKAN_BUFFER_USAGE, &b),
            FKC_ERR_INVALID_ARGUMENT, "offset 8 is not a multiple of");
    REFUSED(fkc_buffer_wrap_vulkan(c, H.buffer, 0, 20, FKC_VULKAN_BUFFER_USAGE, &b),
            FKC_ERR_INVALID_ARGUMENT, "size 20 is not a non-zero multiple of 16");
    REFUSED(fkc_buffer_wrap_vulkan(c, H.buffer, 0, 0, FKC_VULKAN_BUFFER_USAGE, &b),
            FKC_ERR_INVALID_ARGUMENT, "size 0");
    REFUSED(fkc_buffer_wrap_vulkan(c, VK_NULL_HANDLE, 0, 16, FKC_VULKAN_BUFFER_USAGE, &b),
            FKC_ERR_INVALID_ARGUMENT, "the VkBuffer is NULL");
    RT_OK(fkc_buffer_wrap_vulkan(c, H.buffer, 0, 256, FKC_VULKAN_BUFFER_USAGE, &b));

    fkc_stream *s = (fkc_stream *)1, *own;
    REFUSED(fkc_stream_wrap_vulkan(c, VK_NULL_HANDLE, &s), FKC_ERR_INVALID_ARGUMENT,
            "the command buffer is NULL");
    assert_null(s);
    rt_host_begin(&h);
    RT_OK(fkc_stream_wrap_vulkan(c, h.cmd, &s));
    unsigned char bytes[16] = {0};
    REFUSED(fkc_stream_submit(s), FKC_ERR_STATE, "the host submits it");
    REFUSED(fkc_stream_submit_async(s), FKC_ERR_STATE, "the host submits it");
    REFUSED(fkc_stream_submit_vulkan(s, NULL), FKC_ERR_STATE, "the host submits it");
    REFUSED(fkc_stream_wait(s, 0), FKC_ERR_STATE, "the host waits");
    REFUSED(fkc_stream_upload(s, b, 0, bytes, 16), FKC_ERR_STATE, "whose completion only the host");
    REFUSED(fkc_stream_download(s, b, 0, bytes, 16), FKC_ERR_STATE, "whose completion");
    REFUSED(fkc_stream_vulkan_barrier_in(s, 0, 0), FKC_ERR_INVALID_ARGUMENT, "no source stages");
    RT_OK(fkc_stream_create(c, &own));
    REFUSED(fkc_stream_begin_vulkan(own, h.cmd), FKC_ERR_STATE, "use fkc_stream_begin");
    /* two fkc buffers over overlapping ranges of one VkBuffer: overlaps are found there */
    fkc_buffer *b2;
    RT_OK(fkc_buffer_wrap_vulkan(c, H.buffer, 0, 512, FKC_VULKAN_BUFFER_USAGE, &b2));
    const size_t ring[2] = {4, 16}, tok[2] = {1, 16};
    fkc_tensor ro = rt_tensor(b, 96, FKC_DTYPE_U8, 2, ring);  /* VkBuffer bytes 96..159 */
    fkc_tensor rs = rt_tensor(b2, 300, FKC_DTYPE_U8, 2, tok); /* bytes 300..315 */
    REFUSED(fkc_write_slice_rotating(own, &rs, &ro, 4, b2, 100, 0), FKC_ERR_INVALID_ARGUMENT,
            "overlap out in the VkBuffer both are ranges of (its bytes 100..107, out's 96..159)");
    RT_OK(fkc_write_slice_rotating(own, &rs, &ro, 4, b2, 160, 0)); /* adjacent: fine */
    fkc_tensor ov = rt_tensor(b2, 150, FKC_DTYPE_U8, 2, tok);      /* bytes 150..165 */
    REFUSED(fkc_write_slice_rotating(own, &ov, &ro, 4, b2, 200, 0), FKC_ERR_INVALID_ARGUMENT,
            "src and out overlap in one buffer");
    RT_OK(fkc_stream_submit(own));
    fkc_buffer_destroy(b2);
    fkc_vulkan_submit x;
    fkc_vulkan_submit_init(&x);
    VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore sem;
    RT_VK(vkCreateSemaphore(h.dev, &si, NULL, &sem));
    fkc_vulkan_semaphore one = {sem, 1, 0};
    x.signal = &one;
    x.signal_count = 1;
    REFUSED(fkc_stream_submit_vulkan(own, &x), FKC_ERR_UNSUPPORTED,
            "no timeline semaphores enabled");
    x.signal_count = 2;
    x.signal = NULL;
    REFUSED(fkc_stream_submit_vulkan(own, &x), FKC_ERR_INVALID_ARGUMENT, "without its array");
    x.size = 4;
    REFUSED(fkc_stream_submit_vulkan(own, &x), FKC_ERR_INVALID_ARGUMENT,
            "fkc_vulkan_submit.size is 4");
    assert_int_equal(fkc_stream_op_count(s), 0);
    RT_VK(vkEndCommandBuffer(h.cmd));
    vkDestroySemaphore(h.dev, sem, NULL);
    fkc_stream_destroy(own);
    fkc_stream_destroy(s);
    fkc_buffer_destroy(b);
    fkc_context_destroy(c);
    rt_hbuf_free(&h, &H);
    rt_host_quiet(&h, "refusals");
    rt_host_close(&h);
}

static atomic_int locks, unlocks, lock_depth;

static void queue_lock(void *user, VkQueue queue, bool lock)
{
    rt_host *h = user;
    assert_ptr_equal(queue, h->queue);
    if (lock) {
        atomic_fetch_add(&locks, 1);
        assert_int_equal(atomic_fetch_add(&lock_depth, 1), 0);
    } else {
        atomic_fetch_add(&unlocks, 1);
        assert_int_equal(atomic_fetch_sub(&lock_depth, 1), 1);
    }
}

/* fkc's own stream on the host's queue: it waits on a timeline value the host signals from the
 * CPU later (so the first fkc_stream_wait times out), signals another, and signals a binary
 * semaphore the host's own submission waits on; every submit went through the host's lock. */
static void test_semaphores(void **state)
{
    (void)state;
    rt_host h;
    rt_host_open(&h, true, true);
    fkc_vulkan_device d = rt_host_device(&h);
    d.queue_lock = queue_lock;
    d.queue_lock_user = &h;
    fkc_context *c;
    RT_OK(fkc_context_create_vulkan(&d, NULL, &c));
    VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                    .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
    VkSemaphore tl, bin;
    RT_VK(vkCreateSemaphore(h.dev, &si, NULL, &tl));
    si.pNext = NULL;
    RT_VK(vkCreateSemaphore(h.dev, &si, NULL, &bin));
    rng_seed(43);
    rt_buf D, S;
    rt_buf_make(c, &D, 512);
    rt_buf_make(c, &S, 512);
    const size_t dst[1] = {500}, src[1] = {123}, off[1] = {77};
    fkc_tensor st = rt_tensor(S.dev, 9, FKC_DTYPE_U8, 1, src);
    fkc_tensor ot = rt_tensor(D.dev, 1, FKC_DTYPE_U8, 1, dst);
    fkc_stream *s;
    RT_OK(fkc_stream_create(c, &s));
    RT_OK(fkc_write_slice(s, &st, &ot, off));
    fkc_ref_write_slice(D.host + 1, dst, 1, S.host + 9, src, off, 1);
    fkc_vulkan_semaphore w = {tl, 1, 0}, sig[2] = {{tl, 2, 0}, {bin, 0, 0}};
    fkc_vulkan_submit x;
    fkc_vulkan_submit_init(&x);
    x.wait = &w;
    x.wait_count = 1;
    x.signal = sig;
    x.signal_count = 2;
    RT_OK(fkc_stream_submit_vulkan(s, &x));
    REFUSED(fkc_stream_wait(s, 1000000), FKC_ERR_TIMEOUT, "still running after 1000000 ns");
    REFUSED(fkc_stream_wait(s, 0), FKC_ERR_TIMEOUT, "still running");
    VkSemaphoreSignalInfo sg = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = tl, .value = 1};
    RT_VK(vkSignalSemaphore(h.dev, &sg));
    RT_OK(fkc_stream_wait(s, UINT64_MAX));
    uint64_t value = 0;
    RT_VK(vkGetSemaphoreCounterValue(h.dev, tl, &value));
    assert_int_equal(value, 2);
    /* the host's submission waits on the binary semaphore fkc signalled */
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    rt_host_begin(&h);
    RT_VK(vkEndCommandBuffer(h.cmd));
    VkSubmitInfo hs = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .waitSemaphoreCount = 1,
                       .pWaitSemaphores = &bin,
                       .pWaitDstStageMask = &stage,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &h.cmd};
    queue_lock(&h, h.queue, true); /* the host takes the same lock for its own submits */
    RT_VK(vkQueueSubmit(h.queue, 1, &hs, h.fence));
    queue_lock(&h, h.queue, false);
    RT_VK(vkWaitForFences(h.dev, 1, &h.fence, VK_TRUE, UINT64_MAX));
    RT_VK(vkResetFences(h.dev, 1, &h.fence));
    rt_buf_check(&D, "after the semaphores");
    /* an idle stream with semaphores: an empty batch that still signals */
    fkc_vulkan_semaphore three = {tl, 3, 0};
    x.wait_count = 0;
    x.signal = &three;
    x.signal_count = 1;
    RT_OK(fkc_stream_submit_vulkan(s, &x));
    RT_OK(fkc_stream_wait(s, UINT64_MAX));
    RT_VK(vkGetSemaphoreCounterValue(h.dev, tl, &value));
    assert_int_equal(value, 3);
    assert_true(atomic_load(&locks) >= 4);
    assert_int_equal(atomic_load(&locks), atomic_load(&unlocks));
    fkc_stream_destroy(s);
    rt_buf_free(&D);
    rt_buf_free(&S);
    fkc_context_destroy(c);
    vkDestroySemaphore(h.dev, tl, NULL);
    vkDestroySemaphore(h.dev, bin, NULL);
    rt_host_quiet(&h, "semaphores");
    rt_host_close(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guest_push_descriptors),
        cmocka_unit_test(test_guest_descriptor_pools),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_semaphores),
    };
    return cmocka_run_group_tests_name("fkc inside the host's Vulkan", tests, NULL, NULL);
}
