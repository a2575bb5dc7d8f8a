//! set_rows (issue 24) through the Rust API on the default Vulkan device (lavapipe in CI), the
//! validation layer on: F32 rows into an F16 HND cache (rounding ties to even, overflow to Inf),
//! -1 skipped, a slot named twice getting the last row, indices past the end counted in the
//! status word; the same dtype with I32 indices on a stream, and the refusals' statuses.
use fkc::{Context, ContextOptions, Tensor, F16};

fn context() -> Context {
    Context::with_options(&ContextOptions { validation: true, device_index: None })
        .expect("a Vulkan device (lavapipe will do)")
}

#[test]
fn f32_rows_into_an_f16_hnd_cache() {
    let ctx = context();
    // cache [blocks 2, heads 2, block_size 3, dim 4]: 6 slots, a row is [2, 4]
    let cache: Tensor<F16> = Tensor::from_slice(&ctx, &[2, 2, 3, 4], &[F16(0x5555); 48]).unwrap();
    // rows: 1.0, 65520 (the tie above 65504: to even is Inf), 1 + 2^-11 (a tie: to even 1.0),
    // 2^-25 (the tie below the smallest subnormal: 0)
    let vals = [1.0f32, 65520.0, 1.0 + 2f32.powi(-11), 2f32.powi(-25)];
    let want = [0x3c00u16, 0x7c00, 0x3c00, 0x0000];
    let n = 5;
    let mut data = Vec::new();
    for i in 0..n {
        for k in 0..8 {
            data.push(if i == 4 { -2.0 } else { vals[(i + k) % 4] });
        }
    }
    let rows: Tensor<f32> = Tensor::from_slice(&ctx, &[n, 2, 4], &data).unwrap();
    // row 0 -> slot 4, row 1 skipped, row 2 -> slot 6 (past the end), row 3 -> slot 4 again
    // (it wins), row 4 -> slot 2**40 (past the end, never truncated)
    let idx: Tensor<i64> = Tensor::from_slice(&ctx, &[n], &[4, -1, 6, 4, 1 << 40]).unwrap();
    let status = ctx.buffer(16).unwrap();
    status.upload(0, &[0u8; 16]).unwrap();
    ctx.set_rows(&rows, &idx, &cache, Some(2), Some((&status, 8))).unwrap();
    let got = cache.to_vec().unwrap();
    // slot 4 = block 1, offset 1: element [1, h, 1, d] = (1 * 2 + h) * 12 + 1 * 4 + d
    for (e, v) in got.iter().enumerate() {
        let (blk, h, off, d) = (e / 24, e / 12 % 2, e / 4 % 3, e % 4);
        let expect = if blk == 1 && off == 1 { want[(3 + h * 4 + d) % 4] } else { 0x5555 };
        assert_eq!(v.0, expect, "element {} (block {}, head {}, slot {}, dim {})", e, blk, h,
                   off, d);
    }
    let mut word = [0u8; 16];
    status.download(0, &mut word).unwrap();
    assert_eq!(&word[8..12], &[2, 0, 0, 0], "two indices past the end");
    assert_eq!(ctx.validation_count(), 0);
}

#[test]
fn same_dtype_on_a_stream_and_refusals() {
    let ctx = context();
    let cache: Tensor<u32> = Tensor::from_slice(&ctx, &[4, 3], &[7; 12]).unwrap();
    let rows: Tensor<u32> = Tensor::from_slice(&ctx, &[2, 3], &[1, 2, 3, 4, 5, 6]).unwrap();
    let idx: Tensor<i32> = Tensor::from_slice(&ctx, &[2], &[3, 0]).unwrap();
    let mut s = ctx.stream().unwrap();
    s.set_rows(&rows, &idx, &cache, None, None).unwrap();
    s.submit().unwrap();
    assert_eq!(cache.to_vec().unwrap(), vec![4, 5, 6, 7, 7, 7, 7, 7, 7, 1, 2, 3]);
    // an F32 index, a wrong row shape, a pair without a kernel
    let fidx: Tensor<f32> = Tensor::from_slice(&ctx, &[2], &[0.0, 1.0]).unwrap();
    let e = ctx.set_rows(&rows, &fidx, &cache, None, None).unwrap_err();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_DTYPE, "{}", e);
    let wide: Tensor<u32> = Tensor::from_slice(&ctx, &[2, 4], &[0; 8]).unwrap();
    let e = ctx.set_rows(&wide, &idx, &cache, None, None).unwrap_err();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_SHAPE, "{}", e);
    let f: Tensor<f32> = Tensor::from_slice(&ctx, &[2, 3], &[0.0; 6]).unwrap();
    let e = ctx.set_rows(&f, &idx, &cache, None, None).unwrap_err();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_NO_KERNEL, "{}", e);
    assert_eq!(cache.to_vec().unwrap(), vec![4, 5, 6, 7, 7, 7, 7, 7, 7, 1, 2, 3]);
    assert_eq!(ctx.validation_count(), 0);
}
