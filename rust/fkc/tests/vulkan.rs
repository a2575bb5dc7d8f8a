//! The borrowed Vulkan objects from Rust (fkc/fkc_vulkan.h): a Context over a device that
//! another owner created (here an fkc context with the validation layer on plays the host:
//! its instance, physical device, device and queue, as raw handles, with the Vulkan loader's
//! vkGetInstanceProcAddr), a Buffer over a range of the host's VkBuffer, ops on it bit-exact
//! and seen by the host; the device outlives the guest's objects, a forgotten one included;
//! refusals carry the runtime's messages; the validation layer (on the host's instance, which
//! sees the guest's commands) stays silent.
use fkc::{ffi, Buffer, Context, ContextOptions, Tensor, VulkanDevice, F16};
use std::os::raw::c_char;

// The Vulkan loader's: this test plays a host that links libvulkan (libfkc does not: it opens
// libvulkan.so.1 at run time).
#[link(name = "vulkan")]
extern "C" {
    fn vkGetInstanceProcAddr(instance: ffi::VkInstance, name: *const c_char) -> ffi::PFN_vkVoidFunction;
}

const VK_API_1_1: u32 = (1 << 22) | (1 << 12);

fn host() -> Context {
    Context::with_options(&ContextOptions { validation: true, device_index: None })
        .expect("a Vulkan device (lavapipe will do)")
}

fn device_of(host: &Context) -> VulkanDevice<'static> {
    let h = host.vulkan().unwrap();
    assert!(!h.instance.is_null() && !h.device.is_null() && !h.queue.is_null());
    VulkanDevice {
        get_instance_proc_addr: vkGetInstanceProcAddr,
        instance: h.instance,
        instance_api_version: VK_API_1_1,
        physical_device: h.physical_device,
        device: h.device,
        queue_family: h.queue_family,
        queue_index: 0,
        enabled_extensions: &[],
        enabled_features: std::ptr::null(),
        queue_lock: None,
        queue_lock_user: std::ptr::null_mut(),
    }
}

/// The host's queue lock: a count of fkc's submits, checked to pair lock and unlock calls on
/// the host's queue.
struct QueueLock {
    queue: ffi::VkQueue,
    held: std::sync::atomic::AtomicBool,
    submits: std::sync::atomic::AtomicUsize,
    misuse: std::sync::atomic::AtomicUsize,
}

unsafe extern "C" fn queue_lock(user: *mut std::os::raw::c_void, queue: ffi::VkQueue, lock: bool) {
    use std::sync::atomic::Ordering::SeqCst;
    let l = &*(user as *const QueueLock);
    if queue != l.queue || l.held.swap(lock, SeqCst) == lock {
        l.misuse.fetch_add(1, SeqCst);
    }
    if lock {
        l.submits.fetch_add(1, SeqCst);
    }
}

#[test]
fn a_borrowed_queue_takes_the_hosts_lock() {
    use std::sync::atomic::Ordering::SeqCst;
    let host = host();
    let lock = QueueLock { queue: host.vulkan().unwrap().queue, held: false.into(),
                           submits: 0.into(), misuse: 0.into() };
    let mut d = device_of(&host);
    d.queue_lock = Some(queue_lock);
    d.queue_lock_user = &lock as *const QueueLock as *mut std::os::raw::c_void;
    // SAFETY: as above; `lock` outlives the guest (dropped after it, below).
    let guest = unsafe { Context::from_vulkan(&d) }.unwrap();
    let before = lock.submits.load(SeqCst);
    let dst = Tensor::from_slice(&guest, &[2, 2], &[0u8; 4]).unwrap(); // an upload: one submit
    let src = Tensor::from_slice(&guest, &[1, 2], &[5u8, 6]).unwrap();
    guest.write_slice(&src, &dst, &[1, 0]).unwrap();
    assert_eq!(dst.to_vec().unwrap(), vec![0, 0, 5, 6]);
    drop((dst, src));
    drop(guest);
    assert!(lock.submits.load(SeqCst) >= before + 4, "{} submits", lock.submits.load(SeqCst));
    assert_eq!(lock.misuse.load(SeqCst), 0);
    assert!(!lock.held.load(SeqCst));
    assert_eq!(host.validation_count(), 0, "{}", host.validation_last());
}

#[test]
fn ops_on_a_borrowed_device_and_buffer() {
    let host = host();
    // SAFETY: the handles are the host context's live objects; `host` outlives the guest and
    // everything made from it (declared first, dropped last; the forgotten tensor below is on
    // the guest, and the host's device stays alive for the process: `host` is leaked at the end).
    let guest = unsafe { Context::from_vulkan(&device_of(&host)) }.unwrap();
    assert_eq!(guest.vulkan().unwrap().device, host.vulkan().unwrap().device);

    // guest-owned tensors on the host's device
    let dst = Tensor::from_slice(&guest, &[3, 4], &[0i32; 12]).unwrap();
    let src = Tensor::from_slice(&guest, &[2, 2], &[-1i32, 2, -3, 4]).unwrap();
    guest.write_slice(&src, &dst, &[1, 2]).unwrap();
    assert_eq!(dst.to_vec().unwrap(), vec![0, 0, 0, 0, 0, 0, -1, 2, 0, 0, -3, 4]);

    // a buffer of the host's (its VkBuffer range), borrowed by the guest
    let mine = host.buffer(256).unwrap();
    mine.upload(0, &[0xab; 256]).unwrap();
    let (vk, offset, size) = mine.vulkan().unwrap();
    assert!(vk != 0 && size >= 256);
    assert_eq!(offset % guest.vulkan_buffer_alignment(), 0);
    // SAFETY: [offset, offset + 256) of the host's live VkBuffer, created with fkc's usage;
    // `mine` outlives `lent`.
    let lent = unsafe { Buffer::from_vulkan(&guest, vk, offset, 256, ffi::FKC_VULKAN_BUFFER_USAGE) }.unwrap();
    assert!(lent.borrowed() && !mine.borrowed());
    assert_eq!(lent.vulkan().unwrap(), (vk, offset, 256));
    let ring = Tensor::<u8>::from_buffer(lent, 16, &[4, 8]).unwrap();
    let rows = Tensor::from_slice(&guest, &[2, 8], &[1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]).unwrap();
    let position = guest.buffer(16).unwrap();
    position.upload(0, &3u64.to_le_bytes()).unwrap();
    guest.write_slice_rotating(&rows, &ring, 4, &position, 0, None).unwrap();
    // the host reads its own buffer: rows at ring rows 3 and 0, the rest untouched
    let mut got = vec![0u8; 256];
    mine.download(0, &mut got).unwrap();
    let mut want = vec![0xabu8; 256];
    want[16..24].copy_from_slice(&[9, 10, 11, 12, 13, 14, 15, 16]);
    want[16 + 24..16 + 32].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(got, want);

    // refusals: a range without fkc's usage, a misaligned offset
    // SAFETY: as above (refused calls create nothing).
    let e = unsafe { Buffer::from_vulkan(&guest, vk, offset, 256, 0x20) }.err().unwrap();
    assert_eq!(e.status(), ffi::FKC_ERR_UNSUPPORTED);
    assert!(e.message().contains("TRANSFER"), "{}", e);
    let e = unsafe { Buffer::from_vulkan(&guest, vk, offset + 1, 16, ffi::FKC_VULKAN_BUFFER_USAGE) }
        .err()
        .unwrap();
    assert_eq!(e.status(), ffi::FKC_ERR_INVALID_ARGUMENT, "{}", e);

    // the guest dropped before a forgotten tensor of it: nothing of the host's is destroyed
    let kept = Tensor::from_slice(&guest, &[4], &[1.5f32, 2.5, 3.5, 4.5]).unwrap();
    let kept_raw = kept.as_raw();
    std::mem::forget(kept);
    drop((dst, src, ring, rows, position));
    drop(guest);
    let mut bytes = [0u8; 16];
    // SAFETY: the forgotten tensor's buffer is live, and so is the host's device.
    assert_eq!(unsafe { ffi::fkc_buffer_download(kept_raw.buffer, 0, bytes.as_mut_ptr().cast(), 16) },
               ffi::FKC_OK);
    assert_eq!(&bytes[..4], &1.5f32.to_le_bytes());
    drop(mine);
    assert_eq!(host.validation_count(), 0, "{}", host.validation_last());
    // The device must now outlive the forgotten tensor (from_vulkan's rule): keep the host.
    std::mem::forget(host);
}

#[test]
fn a_borrowed_device_is_checked() {
    let host = host();
    let mut d = device_of(&host);
    d.instance_api_version = 1 << 22; // Vulkan 1.0: refused
    // SAFETY: live handles of the host; the call is refused and creates nothing.
    let e = unsafe { Context::from_vulkan(&d) }.err().unwrap();
    assert_eq!(e.status(), ffi::FKC_ERR_UNSUPPORTED, "{}", e);
    assert!(e.message().contains("1.1"), "{}", e);
    let mut d = device_of(&host);
    d.device = std::ptr::null_mut();
    // SAFETY: a null handle, refused before any use.
    let e = unsafe { Context::from_vulkan(&d) }.err().unwrap();
    assert_eq!(e.status(), ffi::FKC_ERR_INVALID_ARGUMENT, "{}", e);
    assert_eq!(host.validation_count(), 0, "{}", host.validation_last());
}

// ---- recording into the host's command buffer: raw Vulkan, the loader's exports ----------

#[repr(C)]
struct CommandPoolCreateInfo {
    s_type: u32, // VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
    p_next: *const std::os::raw::c_void,
    flags: u32,
    queue_family_index: u32,
}
#[repr(C)]
struct CommandBufferAllocateInfo {
    s_type: u32, // VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
    p_next: *const std::os::raw::c_void,
    command_pool: u64,
    level: u32, // VK_COMMAND_BUFFER_LEVEL_PRIMARY
    count: u32,
}
#[repr(C)]
struct CommandBufferBeginInfo {
    s_type: u32, // VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
    p_next: *const std::os::raw::c_void,
    flags: u32,
    p_inheritance_info: *const std::os::raw::c_void,
}
#[repr(C)]
struct SubmitInfo {
    s_type: u32, // VK_STRUCTURE_TYPE_SUBMIT_INFO
    p_next: *const std::os::raw::c_void,
    wait_count: u32,
    p_wait: *const u64,
    p_wait_stages: *const u32,
    command_buffer_count: u32,
    p_command_buffers: *const ffi::VkCommandBuffer,
    signal_count: u32,
    p_signal: *const u64,
}

#[link(name = "vulkan")]
extern "C" {
    fn vkCreateCommandPool(device: ffi::VkDevice, info: *const CommandPoolCreateInfo,
                           allocator: *const std::os::raw::c_void, pool: *mut u64) -> i32;
    fn vkDestroyCommandPool(device: ffi::VkDevice, pool: u64, allocator: *const std::os::raw::c_void);
    fn vkAllocateCommandBuffers(device: ffi::VkDevice, info: *const CommandBufferAllocateInfo,
                                out: *mut ffi::VkCommandBuffer) -> i32;
    fn vkBeginCommandBuffer(cmd: ffi::VkCommandBuffer, info: *const CommandBufferBeginInfo) -> i32;
    fn vkEndCommandBuffer(cmd: ffi::VkCommandBuffer) -> i32;
    fn vkQueueSubmit(queue: ffi::VkQueue, count: u32, submits: *const SubmitInfo, fence: u64) -> i32;
    fn vkQueueWaitIdle(queue: ffi::VkQueue) -> i32;
}

const STAGE_TRANSFER: u32 = 0x1000;
const ACCESS_TRANSFER_READ: u32 = 0x800;
const ACCESS_TRANSFER_WRITE: u32 = 0x1000;

/// write_slice and the device-resident rotating write appended to a command buffer the test
/// (the host) allocated and began, between the host's own entry and exit barriers; the host
/// ends and submits it itself; fkc refuses to submit such a stream; every byte checked.
#[test]
fn ops_recorded_into_the_hosts_command_buffer() {
    let host = host();
    let h = host.vulkan().unwrap();
    // SAFETY: as in ops_on_a_borrowed_device_and_buffer; `host` is leaked at the end.
    let guest = unsafe { Context::from_vulkan(&device_of(&host)) }.unwrap();
    let dst = Tensor::from_slice(&guest, &[4, 4], &[F16(0); 16]).unwrap();
    let src = Tensor::from_slice(&guest, &[2, 2], &[1u16, 2, 3, 4].map(F16)).unwrap();
    let ring = Tensor::from_slice(&guest, &[3, 2], &[0i64; 6]).unwrap();
    let rows = Tensor::from_slice(&guest, &[2, 2], &[-1i64, -2, -3, -4]).unwrap();
    let position = guest.buffer(16).unwrap();
    position.upload(0, &2u64.to_le_bytes()).unwrap();
    // SAFETY (the raw calls): valid create infos on the host's live device; this test is the
    // only user of the queue while it submits (one thread, no fkc call in flight).
    unsafe {
        let mut pool = 0u64;
        let info = CommandPoolCreateInfo { s_type: 39, p_next: std::ptr::null(), flags: 0,
                                           queue_family_index: h.queue_family };
        assert_eq!(vkCreateCommandPool(h.device, &info, std::ptr::null(), &mut pool), 0);
        let mut cmd: ffi::VkCommandBuffer = std::ptr::null_mut();
        let alloc = CommandBufferAllocateInfo { s_type: 40, p_next: std::ptr::null(),
                                                command_pool: pool, level: 0, count: 1 };
        assert_eq!(vkAllocateCommandBuffers(h.device, &alloc, &mut cmd), 0);
        let begin = CommandBufferBeginInfo { s_type: 42, p_next: std::ptr::null(), flags: 1,
                                             p_inheritance_info: std::ptr::null() };
        assert_eq!(vkBeginCommandBuffer(cmd, &begin), 0);
        {
            // SAFETY: cmd is recording, of the guest's device, from a compute family's pool;
            // the tensors and the stream outlive the submission below (waited for).
            let mut s = guest.stream_over_vulkan(cmd).unwrap();
            s.vulkan_barrier_in(STAGE_TRANSFER, ACCESS_TRANSFER_WRITE).unwrap();
            s.write_slice(&src, &dst, &[2, 1]).unwrap();
            s.write_slice_rotating(&rows, &ring, 3, &position, 0, None).unwrap();
            s.vulkan_barrier_out(STAGE_TRANSFER, ACCESS_TRANSFER_READ).unwrap();
            assert_eq!(s.op_count(), 2);
            assert_eq!(vkEndCommandBuffer(cmd), 0);
            let submit = SubmitInfo { s_type: 4, p_next: std::ptr::null(), wait_count: 0,
                                      p_wait: std::ptr::null(), p_wait_stages: std::ptr::null(),
                                      command_buffer_count: 1, p_command_buffers: &cmd,
                                      signal_count: 0, p_signal: std::ptr::null() };
            assert_eq!(vkQueueSubmit(h.queue, 1, &submit, 0), 0);
            assert_eq!(vkQueueWaitIdle(h.queue), 0);
            // the command buffer is the host's to submit: fkc refuses
            let e = s.submit().err().unwrap();
            assert_eq!(e.status(), ffi::FKC_ERR_STATE, "{}", e);
        }
        vkDestroyCommandPool(h.device, pool, std::ptr::null());
    }
    let want: Vec<u16> = vec![0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0];
    assert_eq!(dst.to_vec().unwrap().iter().map(|v| v.0).collect::<Vec<_>>(), want);
    assert_eq!(ring.to_vec().unwrap(), vec![-3, -4, 0, 0, -1, -2]);
    drop((dst, src, ring, rows, position));
    drop(guest);
    assert_eq!(host.validation_count(), 0, "{}", host.validation_last());
    std::mem::forget(host);
}
