//! Both ops on the default Vulkan device (lavapipe in CI) for all nine dtypes, through the
//! generated link registry, bit-exact against a pure-Rust reference; errors carry the
//! runtime's messages; the validation layer stays silent.
use fkc::{Buffer, Context, ContextOptions, Element, Tensor, BF16, F16};

fn context() -> Context {
    Context::with_options(&ContextOptions { validation: true, device_index: None })
        .expect("a Vulkan device (lavapipe will do)")
}

/// Deterministic bytes (an LCG), `seed` picking the sequence.
fn pattern(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2654435761).wrapping_add(12345);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1664525).wrapping_add(1013904223);
            (x >> 24) as u8
        })
        .collect()
}

fn elements<T: Element>(bytes: &[u8]) -> Vec<T> {
    bytes.chunks(T::DTYPE.size()).map(T::get_le).collect()
}

fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// Every multi-index of a shape, row-major order.
fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let total: usize = shape.iter().product();
    (0..total)
        .map(|mut flat| {
            let mut idx = vec![0; shape.len()];
            for a in (0..shape.len()).rev() {
                idx[a] = flat % shape[a];
                flat /= shape[a];
            }
            idx
        })
        .collect()
}

/// The reference: element bytes copied to dst index `place(src index)`, in source order.
fn reference(dst: &[u8], dst_shape: &[usize], src: &[u8], src_shape: &[usize], width: usize,
             place: impl Fn(&[usize]) -> Vec<usize>) -> Vec<u8> {
    let mut out = dst.to_vec();
    let (ds, ss) = (strides(dst_shape), strides(src_shape));
    for idx in indices(src_shape) {
        let at: usize = idx.iter().zip(&ss).map(|(i, s)| i * s).sum();
        let to: usize = place(&idx).iter().zip(&ds).map(|(i, s)| i * s).sum();
        out[to * width..(to + 1) * width].copy_from_slice(&src[at * width..(at + 1) * width]);
    }
    out
}

fn write_slice_case<T: Element>(ctx: &Context) {
    let (dst_shape, src_shape, offsets) = ([4usize, 5, 6], [2usize, 3, 4], [1usize, 2, 1]);
    let w = T::DTYPE.size();
    let dst_bytes = pattern(120 * w, 1);
    let src_bytes = pattern(24 * w, 2);
    let dst = Tensor::from_slice(ctx, &dst_shape, &elements::<T>(&dst_bytes)).unwrap();
    let src = Tensor::from_slice(ctx, &src_shape, &elements::<T>(&src_bytes)).unwrap();
    let mut s = ctx.stream().unwrap();
    s.write_slice(&src, &dst, &offsets).unwrap();
    assert_eq!(s.op_count(), 1);
    s.submit().unwrap();
    let want = reference(&dst_bytes, &dst_shape, &src_bytes, &src_shape, w, |i| {
        i.iter().zip(&offsets).map(|(a, o)| a + o).collect()
    });
    assert_eq!(dst.to_bytes().unwrap(), want, "write_slice {:?}", T::DTYPE);
    assert_eq!(src.to_bytes().unwrap(), src_bytes, "the source is left alone");
}

fn position(ctx: &Context, pos: u64) -> Buffer<'_> {
    let b = ctx.buffer(16).unwrap();
    let mut bytes = vec![0xEEu8; 4];
    bytes.extend_from_slice(&pos.to_le_bytes());
    bytes.extend_from_slice(&[0xEE; 4]);
    b.upload(0, &bytes).unwrap();
    b
}

fn rotating_case<T: Element>(ctx: &Context) {
    // A ring of 8 along axis 1; 5 rows written from position 6 wrap: 6, 7, 0, 1, 2.
    let (dst_shape, src_shape, cap, pos) = ([3usize, 8, 2], [3usize, 5, 2], 8usize, 6u64);
    let w = T::DTYPE.size();
    let dst_bytes = pattern(48 * w, 3);
    let src_bytes = pattern(30 * w, 4);
    let dst = Tensor::from_slice(ctx, &dst_shape, &elements::<T>(&dst_bytes)).unwrap();
    let src = Tensor::from_slice(ctx, &src_shape, &elements::<T>(&src_bytes)).unwrap();
    let p = position(ctx, pos);
    for axis in [Some(1), None] {
        ctx.write_slice_rotating(&src, &dst, cap, &p, 4, axis).unwrap();
    }
    let want = reference(&dst_bytes, &dst_shape, &src_bytes, &src_shape, w, |i| {
        vec![i[0], (pos as usize + i[1]) % cap, i[2]]
    });
    assert_eq!(dst.to_bytes().unwrap(), want, "write_slice_rotating {:?}", T::DTYPE);
}

macro_rules! all_dtypes {
    ($f:ident, $ctx:expr) => {
        $f::<f32>($ctx);
        $f::<i32>($ctx);
        $f::<u32>($ctx);
        $f::<F16>($ctx);
        $f::<BF16>($ctx);
        $f::<f64>($ctx);
        $f::<i64>($ctx);
        $f::<u8>($ctx);
        $f::<i8>($ctx);
    };
}

#[test]
fn write_slice_nine_dtypes_bit_exact() {
    let ctx = context();
    all_dtypes!(write_slice_case, &ctx);
    assert_eq!(ctx.validation_count(), 0, "{}", ctx.validation_last());
}

#[test]
fn write_slice_rotating_nine_dtypes_bit_exact() {
    let ctx = context();
    all_dtypes!(rotating_case, &ctx);
    assert_eq!(ctx.validation_count(), 0, "{}", ctx.validation_last());
}

#[test]
fn one_stream_runs_ops_in_order() {
    let ctx = context();
    let dst = Tensor::from_slice(&ctx, &[6], &[0u8; 6]).unwrap();
    let a = Tensor::from_slice(&ctx, &[3], &[1u8, 2, 3]).unwrap();
    let b = Tensor::from_slice(&ctx, &[2], &[9u8, 8]).unwrap();
    let mut s = ctx.stream().unwrap();
    s.write_slice(&a, &dst, &[1]).unwrap();
    s.write_slice(&b, &dst, &[2]).unwrap();
    assert_eq!(s.op_count(), 2);
    s.submit().unwrap();
    assert_eq!(dst.to_vec().unwrap(), vec![0, 1, 9, 8, 0, 0]);
    assert_eq!(ctx.validation_count(), 0, "{}", ctx.validation_last());
}

#[test]
fn refusals_carry_the_runtime_message() {
    let ctx = context();
    let dst = Tensor::from_slice(&ctx, &[4, 4], &[0i32; 16]).unwrap();
    let src = Tensor::from_slice(&ctx, &[2, 3], &[1i32; 6]).unwrap();
    let e = ctx.write_slice(&src, &dst, &[1, 2]).unwrap_err();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_OUT_OF_BOUNDS);
    assert_eq!(e.message(),
               "source does not fit in the destination at the offsets: write_slice: axis 1: \
                offset 2 + source extent 3 exceeds destination extent 4");
    assert_eq!(e.status_name(), "source does not fit in the destination at the offsets");
    let e = ctx.write_slice(&src, &dst, &[1]).unwrap_err();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_RANK);
    assert_eq!(e.message(), "rank out of range or ranks disagree: write_slice: 1 offsets for rank 2");
    let p = position(&ctx, 0);
    let e = ctx.write_slice_rotating(&src, &dst, 4, &p, 4, None).unwrap_err();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_INVALID_ARGUMENT);
    assert!(e.message().contains("2 axes have the capacity 4"), "{}", e);
    let e = ctx.write_slice_rotating(&src, &dst, 4, &p, 12, Some(1)).unwrap_err();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_OUT_OF_BOUNDS);
    assert!(e.message().contains("outside its 16-byte buffer"), "{}", e);
    // the crate's own checks
    let e = Tensor::from_slice(&ctx, &[2, 2], &[0u8; 3]).err().unwrap();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_INVALID_ARGUMENT);
    assert!(Tensor::<u8>::from_slice(&ctx, &[1; 9], &[0u8]).is_err());
    assert_eq!(dst.to_vec().unwrap(), vec![0; 16], "a refused op writes nothing");
    assert_eq!(ctx.validation_count(), 0, "{}", ctx.validation_last());
}
