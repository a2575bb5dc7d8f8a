//! Streams from safe Rust (no `unsafe` in this file but the host's semaphores): `submit_async`
//! with the sources dropped while the work may still run, and a stream forgotten in flight; a
//! stream reused after `submit`, `submit_async` and `replay`; a decode step recorded once
//! (rotating write + device-side `advance` + a download) and replayed, waited and not, the ring
//! and the position checked after each against a Rust computation, across the ring end and
//! with an advance of 2^64 - 1; recorded uploads, copies and downloads; a device-memory budget;
//! and the refusals. The
//! validation layer (with synchronization validation) stays silent throughout.
use fkc::{ffi, Context, ContextOptions, Tensor};
use std::mem;

fn context() -> Context {
    Context::with_options(&ContextOptions { validation: true, device_index: None })
        .expect("a Vulkan device (lavapipe will do)")
}

fn quiet(ctx: &Context) {
    assert_eq!(ctx.validation_count(), 0, "{}", ctx.validation_last());
}

#[test]
fn submit_async_keeps_what_it_uses_alive() {
    let ctx = context();
    // 16 MiB sources: each an allocation of its own, which the validation layer watches (a
    // vkFreeMemory of memory a pending submission uses is VUID-vkFreeMemory-memory-00677)
    const ROWS: usize = 4096;
    const COLS: usize = 1024;
    let dst = Tensor::from_slice(&ctx, &[ROWS, 2 * COLS], &vec![0u32; ROWS * 2 * COLS]).unwrap();
    let mut s = ctx.stream().unwrap();
    {
        let src: Vec<u32> = (0..ROWS * COLS).map(|i| i as u32 + 1).collect();
        let src = Tensor::from_slice(&ctx, &[ROWS, COLS], &src).unwrap();
        s.write_slice(&src, &dst, &[0, COLS]).unwrap();
        s.submit_async().unwrap();
        // src is dropped here, its work perhaps still running: the stream holds its buffer
    }
    assert!(s.wait(None).unwrap());
    // forgotten in flight: what it holds leaks with it, nothing is freed under the device
    {
        let src2 = Tensor::from_slice(&ctx, &[ROWS, COLS], &vec![7u32; ROWS * COLS]).unwrap();
        let mut s2 = ctx.stream().unwrap();
        s2.write_slice(&src2, &dst, &[0, 0]).unwrap();
        s2.submit_async().unwrap();
        drop(src2);
        mem::forget(s2);
    }
    // later work on the queue runs after it (fkc orders submissions), so this sees both writes
    let got = dst.to_vec().unwrap();
    for r in 0..ROWS {
        for c in 0..2 * COLS {
            let want = if c < COLS { 7 } else { (r * COLS + c - COLS) as u32 + 1 };
            assert_eq!(got[r * 2 * COLS + c], want, "row {} column {}", r, c);
        }
    }
    quiet(&ctx);
}

#[test]
fn a_stream_is_reused_after_each_kind_of_submit() {
    let ctx = context();
    let dst = Tensor::from_slice(&ctx, &[4, 8], &[0i32; 32]).unwrap();
    let mut s = ctx.stream().unwrap();
    for (k, row) in [0usize, 1, 2, 3].iter().enumerate() {
        let src = Tensor::from_slice(&ctx, &[1, 8], &[k as i32 + 10; 8]).unwrap();
        s.write_slice(&src, &dst, &[*row, 0]).unwrap();
        match k {
            0 => s.submit().unwrap(),
            1 => {
                s.submit_async().unwrap();
                assert!(s.wait(None).unwrap());
            }
            2 => {
                s.submit().unwrap();
                s.replay().unwrap(); // the same write again: row 2 stays 12
            }
            _ => s.submit_async().unwrap(), // in flight when the loop ends
        }
    }
    s.submit().unwrap(); // nothing recorded: waits for the work in flight
    let want: Vec<i32> = (0..32).map(|i| 10 + (i / 8) as i32).collect();
    assert_eq!(dst.to_vec().unwrap(), want);
    quiet(&ctx);
}

/// The ring position as the device holds it.
fn position_of(buf: &fkc::Buffer<'_>) -> u64 {
    let mut b = [0u8; 8];
    buf.download(0, &mut b).unwrap();
    u64::from_le_bytes(b)
}

#[test]
fn a_decode_step_replayed_with_a_device_side_advance() {
    let ctx = context();
    const CAP: usize = 8;
    const DIM: usize = 6; // u32: 24-byte rows
    let ring = Tensor::from_slice(&ctx, &[CAP, DIM], &[0u32; CAP * DIM]).unwrap();
    let token = Tensor::from_slice(&ctx, &[1, DIM], &[0u32; DIM]).unwrap();
    let pos = ctx.buffer(16).unwrap();
    pos.upload(0, &5u64.to_le_bytes()).unwrap();
    let mut s = ctx.stream().unwrap();
    s.write_slice_rotating(&token, &ring, CAP, &pos, 0, None).unwrap();
    s.advance(&pos, 0, 1).unwrap();
    let seen = s.download(ring.buffer(), 0, CAP * DIM * 4).unwrap();
    assert_eq!(s.downloaded(&seen).unwrap_err().status(), ffi::FKC_ERR_STATE); // not yet run
    // replaying a stream that is recording is refused
    assert_eq!(s.replay().unwrap_err().status(), ffi::FKC_ERR_STATE);

    let mut want = vec![0u32; CAP * DIM];
    let mut at = 5u64;
    for step in 0..12u32 {
        let value: Vec<u32> = (0..DIM as u32).map(|i| step * 100 + i + 1).collect();
        token.write(&value).unwrap(); // a synchronous upload, between submissions
        match step {
            0 => s.submit().unwrap(),
            s_ if s_ % 3 == 1 => {
                s.replay_async().unwrap();
                assert!(s.wait(None).unwrap());
            }
            _ => s.replay().unwrap(),
        }
        let row = (at % CAP as u64) as usize;
        want[row * DIM..(row + 1) * DIM].copy_from_slice(&value);
        at += 1;
        assert_eq!(ring.to_vec().unwrap(), want, "after step {}", step);
        assert_eq!(position_of(&pos), at, "after step {}", step);
        // the recorded download was written again by each run
        let bytes = s.downloaded(&seen).unwrap();
        let got: Vec<u32> =
            bytes.chunks(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        assert_eq!(got, want, "the download of step {}", step);
    }
    // an advance of 2^64 - 1 moves the position back by one (mod 2^64), in a new recording
    s.advance(&pos, 0, u64::MAX).unwrap();
    assert_eq!(s.downloaded(&seen).unwrap_err().status(), ffi::FKC_ERR_STATE); // its recording is gone
    s.submit().unwrap();
    assert_eq!(position_of(&pos), at - 1);
    // a position near 2^64: the ring row is the position mod the capacity
    pos.upload(0, &(u64::MAX - 2).to_le_bytes()).unwrap();
    let last: Vec<u32> = vec![0xdead_beef; DIM];
    token.write(&last).unwrap();
    s.write_slice_rotating(&token, &ring, CAP, &pos, 0, None).unwrap();
    s.advance(&pos, 0, 3).unwrap();
    s.submit().unwrap();
    let row = ((u64::MAX - 2) % CAP as u64) as usize;
    want[row * DIM..(row + 1) * DIM].copy_from_slice(&last);
    assert_eq!(ring.to_vec().unwrap(), want);
    assert_eq!(position_of(&pos), 0); // wrapped past 2^64 - 1
    // refusals: a misaligned advance, one past the buffer
    assert_eq!(s.advance(&pos, 4, 1).unwrap_err().status(), ffi::FKC_ERR_INVALID_ARGUMENT);
    assert_eq!(s.advance(&pos, 16, 1).unwrap_err().status(), ffi::FKC_ERR_OUT_OF_BOUNDS);
    s.submit().unwrap();
    quiet(&ctx);
}

#[test]
fn recorded_uploads_copies_and_downloads() {
    let ctx = context();
    let a = ctx.buffer(4096).unwrap();
    let b = ctx.buffer(4096).unwrap();
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i * 7 + 3) as u8).collect();
    let mut s = ctx.stream().unwrap();
    s.upload(&a, 0, &bytes).unwrap();
    s.copy(&b, 100, &a, 1000, 3000).unwrap();
    let d = s.download(&b, 0, 4096).unwrap();
    let last = s.download(&b, 4095, 1).unwrap(); // the last byte alone
    assert_eq!(s.downloaded(&d).unwrap_err().status(), ffi::FKC_ERR_STATE);
    s.submit_async().unwrap();
    assert!(s.wait(None).unwrap());
    let got = s.downloaded(&d).unwrap();
    assert_eq!(&got[100..3100], &bytes[1000..4000]);
    assert_eq!(s.downloaded(&last).unwrap(), &got[4095..]);
    // refusals record nothing: past the end, overlapping ranges of one buffer
    assert_eq!(s.download(&b, 4090, 7).unwrap_err().status(), ffi::FKC_ERR_OUT_OF_BOUNDS);
    assert_eq!(s.upload(&b, 4096, &[1]).unwrap_err().status(), ffi::FKC_ERR_OUT_OF_BOUNDS);
    assert_eq!(s.copy(&a, 0, &a, 8, 16).unwrap_err().status(), ffi::FKC_ERR_INVALID_ARGUMENT);
    assert_eq!(s.copy(&a, 4000, &b, 0, 97).unwrap_err().status(), ffi::FKC_ERR_OUT_OF_BOUNDS);
    s.submit().unwrap();
    // dropping the buffers first, the stream after: the stream still holds them
    drop(a);
    drop(b);
    drop(s);
    quiet(&ctx);
}

/// vkCreateSemaphore and vkDestroySemaphore: the host's own Vulkan (this test plays the host).
#[repr(C)]
struct SemaphoreCreateInfo {
    s_type: u32,
    p_next: *const std::os::raw::c_void,
    flags: u32,
}

#[link(name = "vulkan")]
extern "C" {
    fn vkCreateSemaphore(device: ffi::VkDevice, info: *const SemaphoreCreateInfo,
                         allocator: *const std::os::raw::c_void, out: *mut u64) -> i32;
    fn vkDestroySemaphore(device: ffi::VkDevice, s: u64, allocator: *const std::os::raw::c_void);
}

#[test]
fn streams_ordered_by_the_hosts_semaphore() {
    let ctx = context();
    let device = ctx.vulkan().unwrap().device;
    let info = SemaphoreCreateInfo { s_type: 9, p_next: std::ptr::null(), flags: 0 };
    let mut sem = 0u64;
    // SAFETY: a live device; the semaphore is destroyed below after both streams completed.
    assert_eq!(unsafe { vkCreateSemaphore(device, &info, std::ptr::null(), &mut sem) }, 0);
    let a = Tensor::from_slice(&ctx, &[2, 4], &[0i64; 8]).unwrap();
    let b = Tensor::from_slice(&ctx, &[2, 4], &[0i64; 8]).unwrap();
    let row = Tensor::from_slice(&ctx, &[1, 4], &[-1i64, 2, i64::MIN, i64::MAX]).unwrap();
    let mut first = ctx.stream().unwrap();
    let mut second = ctx.stream().unwrap();
    first.write_slice(&row, &a, &[1, 0]).unwrap();
    second.copy(b.buffer(), 0, a.buffer(), 0, 64).unwrap();
    let one = ffi::fkc_vulkan_semaphore { semaphore: sem, value: 0, stages: 0 };
    // SAFETY: `sem` is live until both have completed (waited below); the wait is on a
    // semaphore the first submission signals. (fkc orders its own submissions anyway: what
    // this checks is the plumbing, which the validation layer would fault on a wait for an
    // unsignalled binary semaphore.)
    unsafe {
        first.submit_with_semaphores(&[], &[one]).unwrap();
        second.submit_with_semaphores(&[one], &[]).unwrap();
    }
    assert!(second.wait(None).unwrap());
    assert!(first.wait(None).unwrap());
    // SAFETY: no submission uses it any more.
    unsafe { vkDestroySemaphore(device, sem, std::ptr::null()) };
    assert_eq!(b.to_vec().unwrap(), vec![0, 0, 0, 0, -1, 2, i64::MIN, i64::MAX]);
    quiet(&ctx);
}

#[test]
fn a_budget_refuses_what_would_exceed_it() {
    const LIMIT: u64 = 24 << 20;
    let options = ContextOptions { validation: true, device_index: None };
    let ctx = Context::with_budget(&options, &[LIMIT; 16]).unwrap();
    let used = |c: &Context| (0..16).map(|h| c.heap_used(h)).sum::<u64>();
    assert_eq!(used(&ctx), 0);
    let e = ctx.buffer(LIMIT + 16).err().unwrap();
    assert_eq!(e.status(), ffi::FKC_ERR_OUT_OF_MEMORY);
    assert!(e.message().contains("budget"), "{}", e.message());
    assert_eq!(used(&ctx), 0, "nothing allocated by the refused buffer");
    let a = ctx.buffer(9 << 20).unwrap();
    let b = ctx.buffer(9 << 20).unwrap();
    assert!(used(&ctx) >= 18 << 20 && used(&ctx) <= LIMIT);
    assert_eq!(ctx.buffer(9 << 20).err().unwrap().status(), ffi::FKC_ERR_OUT_OF_MEMORY);
    drop(b);
    let c = ctx.buffer(9 << 20).unwrap(); // room again
    a.upload(0, &[1, 2, 3]).unwrap();
    let mut back = [0u8; 3];
    a.download(0, &mut back).unwrap();
    assert_eq!(back, [1, 2, 3]);
    drop((a, c));
    assert_eq!(Context::with_budget(&options, &[]).err().unwrap().status(),
               ffi::FKC_ERR_INVALID_ARGUMENT);
    assert_eq!(Context::with_budget(&options, &[1; 17]).err().unwrap().status(),
               ffi::FKC_ERR_INVALID_ARGUMENT);
    quiet(&ctx);
}
