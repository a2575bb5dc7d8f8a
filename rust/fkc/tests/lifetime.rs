//! No safe program destroys a device under live objects: a tensor, a buffer and a stream
//! `mem::forget`ten, then the Context dropped, leave the device alive; the forgotten objects
//! still work (a download returns the bytes, the stream submits), the validation layer stays
//! silent (VUID-vkDestroyDevice-device-00378 would be its message), and destroying the last of
//! them then frees the context.
use fkc::{ffi, Context, ContextOptions, Tensor};
use std::mem;

#[test]
fn forgotten_objects_keep_the_device_alive() {
    let ctx = Context::with_options(&ContextOptions { validation: true, device_index: None })
        .expect("a Vulkan device (lavapipe will do)");
    let dst = Tensor::from_slice(&ctx, &[2, 4], &[0u32; 8]).unwrap();
    let src = Tensor::from_slice(&ctx, &[1, 2], &[11u32, 12]).unwrap();
    let spare = ctx.buffer(64).unwrap();
    let (dst_raw, src_raw, spare_raw) = (dst.as_raw(), src.as_raw(), spare.as_raw());
    let mut stream = ctx.stream().unwrap();
    let stream_raw = stream.as_raw();
    mem::forget(spare);
    mem::forget(src);
    mem::forget(dst);
    mem::forget(stream);
    drop(ctx);

    // SAFETY: the forgotten objects are live (nothing destroyed them); the context they hold
    // is alive through them, which is what this test checks.
    unsafe {
        let c = ffi::fkc_buffer_context(dst_raw.buffer);
        assert!(!c.is_null());
        let mut out = dst_raw;
        let offsets = [1usize, 2];
        assert_eq!(ffi::fkc_write_slice(stream_raw, &src_raw, &mut out, offsets.as_ptr()), ffi::FKC_OK);
        assert_eq!(ffi::fkc_stream_submit(stream_raw), ffi::FKC_OK);
        let mut bytes = [0u8; 32];
        assert_eq!(ffi::fkc_buffer_download(dst_raw.buffer, 0, bytes.as_mut_ptr().cast(), 32),
                   ffi::FKC_OK);
        let got: Vec<u32> = bytes.chunks(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        assert_eq!(got, vec![0, 0, 0, 0, 0, 0, 11, 12]);
        assert_eq!(ffi::fkc_buffer_size(spare_raw), 64);
        assert_eq!(ffi::fkc_context_validation_count(c), 0);
        // the last holds go; the context and its device with the last one
        ffi::fkc_stream_destroy(stream_raw);
        ffi::fkc_buffer_destroy(spare_raw);
        ffi::fkc_buffer_destroy(src_raw.buffer);
        assert_eq!(ffi::fkc_context_validation_count(c), 0);
        ffi::fkc_buffer_destroy(dst_raw.buffer);
    }
}
