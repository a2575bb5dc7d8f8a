//! A kernel of the caller's from Rust: tests/runtime/shaders/axpy.comp (d[i] = s[i] * mul + add
//! over n words), compiled with glslc here, dispatched on a stream between two built-in ops
//! and ordered with them; refusals (a wrong buffer count, push size) carry the runtime's
//! message; the validation layer stays silent.
use fkc::{BufferRange, Context, ContextOptions, Tensor};
use std::process::Command;

fn spirv() -> Vec<u32> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/runtime/shaders/axpy.comp");
    let out = dir.join("axpy.spv");
    let glslc = std::env::var("GLSLC").unwrap_or_else(|_| "glslc".into());
    let st = Command::new(&glslc)
        .args(["--target-env=vulkan1.1", "-O", "-Werror"])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {} (scripts/deps.sh installs glslc): {}", glslc, e));
    assert!(st.success());
    let bytes = std::fs::read(out).unwrap();
    bytes.chunks(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect()
}

fn push(n: u32, mul: u32, add: u32) -> Vec<u8> {
    [n, mul, add, 0].iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn a_kernel_of_the_callers_between_built_in_ops() {
    let ctx = Context::with_options(&ContextOptions { validation: true, device_index: None })
        .expect("a Vulkan device (lavapipe will do)");
    let k = ctx.kernel(&spirv(), 2, 16).unwrap();
    assert_eq!(k.local_size(), [64, 1, 1]);
    let n = 200u32;
    let s = Tensor::from_slice(&ctx, &[n as usize], &(0..n).collect::<Vec<u32>>()).unwrap();
    let d = Tensor::from_slice(&ctx, &[n as usize], &vec![0u32; n as usize]).unwrap();
    let patch = Tensor::from_slice(&ctx, &[2], &[7u32, 7]).unwrap();
    let mut st = ctx.stream().unwrap();
    // s[10..12] = 7 first; the kernel reads it; then d[0..2] = 7 overwrites its output
    st.write_slice(&patch, &s, &[10]).unwrap();
    let b = [BufferRange { buffer: s.buffer(), offset: 0, range: n as u64 * 4 },
             BufferRange { buffer: d.buffer(), offset: 0, range: n as u64 * 4 }];
    st.dispatch(&k, &b, &push(n, 3, 5), [(n + 63) / 64, 1, 1]).unwrap();
    st.write_slice(&patch, &d, &[0]).unwrap();
    assert_eq!(st.op_count(), 3);
    st.submit().unwrap();
    let want: Vec<u32> = (0..n)
        .map(|i| match i {
            0 | 1 => 7,
            10 | 11 => 7u32.wrapping_mul(3).wrapping_add(5),
            _ => i.wrapping_mul(3).wrapping_add(5),
        })
        .collect();
    assert_eq!(d.to_vec().unwrap(), want);
    // Tensor::write: the same tensor overwritten from the host, at its own offset
    d.write(&vec![9u32; n as usize]).unwrap();
    assert_eq!(d.to_vec().unwrap(), vec![9u32; n as usize]);
    assert!(d.write(&[1u32]).is_err());

    let mut st = ctx.stream().unwrap();
    let e = st.dispatch(&k, &b[..1], &push(n, 1, 0), [1, 1, 1]).err().unwrap();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_INVALID_ARGUMENT, "{}", e);
    let e = st.dispatch(&k, &b, &push(n, 1, 0)[..8], [1, 1, 1]).err().unwrap();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_INVALID_ARGUMENT, "{}", e);
    assert_eq!(st.op_count(), 0);
    drop(st);
    let e = ctx.kernel(&[0x0723_0203, 0], 1, 0).err().unwrap();
    assert_eq!(e.status(), fkc::ffi::FKC_ERR_INVALID_ARGUMENT, "{}", e);
    assert_eq!(ctx.validation_count(), 0, "{}", ctx.validation_last());
}
