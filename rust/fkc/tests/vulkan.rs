//! The borrowed Vulkan objects from Rust (fkc/fkc_vulkan.h): a Context over a device that
//! another owner created (here an fkc context with the validation layer on plays the host:
//! its instance, physical device, device and queue, as raw handles, with the Vulkan loader's
//! vkGetInstanceProcAddr), a Buffer over a range of the host's VkBuffer, ops on it bit-exact
//! and seen by the host; the device outlives the guest's objects, a forgotten one included;
//! refusals carry the runtime's messages; the validation layer (on the host's instance, which
//! sees the guest's commands) stays silent.
use fkc::{ffi, Buffer, Context, ContextOptions, Tensor, VulkanDevice};
use std::os::raw::c_char;

extern "C" {
    // The Vulkan loader's (libvulkan, which fkc-sys links).
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
    }
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
