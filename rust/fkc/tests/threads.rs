//! fkc_runtime.h's thread model from Rust: one Context shared by several threads (Sync), each
//! recording and submitting its own streams on its own tensors; a stream and tensors made on
//! the main thread and moved into another (Send); a tensor read from several threads at once
//! (Sync); streams of several threads submitted asynchronously and waited for. Every result
//! bit-exact, the validation layer silent. (The compile-time half, which
//! types are Send and Sync, is src/lib.rs's thread_model module.)
use fkc::{Context, ContextOptions, Tensor};
use std::thread;

const THREADS: usize = 4;
const ROUNDS: usize = 6;

fn context() -> Context {
    Context::with_options(&ContextOptions { validation: true, device_index: None })
        .expect("a Vulkan device (lavapipe will do)")
}

/// Thread `t`'s round `r`: a [4, 8] u32 destination of t*1000 + i and a [2, 3] source of
/// values that name (t, r), written at offsets (r % 3, r % 6); returns (result, expected).
fn round(ctx: &Context, t: usize, r: usize) -> (Vec<u32>, Vec<u32>) {
    let base: Vec<u32> = (0..32).map(|i| (t * 1000 + i) as u32).collect();
    let src: Vec<u32> = (0..6).map(|i| (t * 100_000 + r * 100 + i) as u32).collect();
    let dst = Tensor::from_slice(ctx, &[4, 8], &base).unwrap();
    let s = Tensor::from_slice(ctx, &[2, 3], &src).unwrap();
    let (o0, o1) = (r % 3, r % 6);
    let mut stream = ctx.stream().unwrap();
    stream.write_slice(&s, &dst, &[o0, o1]).unwrap();
    stream.submit().unwrap();
    let mut want = base;
    for i in 0..2 {
        for j in 0..3 {
            want[(o0 + i) * 8 + o1 + j] = src[i * 3 + j];
        }
    }
    (dst.to_vec().unwrap(), want)
}

#[test]
fn threads_share_one_context_each_with_its_own_streams() {
    let ctx = context();
    thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let ctx = &ctx;
                scope.spawn(move || {
                    for r in 0..ROUNDS {
                        let (got, want) = round(ctx, t, r);
                        assert_eq!(got, want, "thread {} round {}", t, r);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    });
    assert_eq!(ctx.validation_count(), 0, "{}", ctx.validation_last());
}

#[test]
fn streams_and_tensors_move_between_threads() {
    let ctx = context();
    let src = Tensor::from_slice(&ctx, &[1, 4], &[9u8, 8, 7, 6]).unwrap();
    let dst = Tensor::from_slice(&ctx, &[3, 4], &[0u8; 12]).unwrap();
    let mut stream = ctx.stream().unwrap();
    stream.write_slice(&src, &dst, &[2, 0]).unwrap();
    // recorded here, submitted on another thread (Stream: Send)
    thread::scope(|scope| {
        scope.spawn(move || stream.submit().unwrap()).join().unwrap();
    });
    let want = vec![0u8, 0, 0, 0, 0, 0, 0, 0, 9, 8, 7, 6];
    // one tensor read by several threads at once (Tensor: Sync)
    thread::scope(|scope| {
        let readers: Vec<_> = (0..THREADS).map(|_| scope.spawn(|| dst.to_vec().unwrap())).collect();
        for r in readers {
            assert_eq!(r.join().unwrap(), want);
        }
    });
    // the whole context moved to another thread and dropped there (Context: Send)
    let ctx2 = context();
    let t = Tensor::from_slice(&ctx2, &[2], &[5i64, -5]).unwrap();
    let got = t.to_vec().unwrap();
    drop(t);
    thread::spawn(move || {
        assert_eq!(ctx2.validation_count(), 0);
        drop(ctx2)
    })
    .join()
    .unwrap();
    assert_eq!(got, vec![5, -5]);
    assert_eq!(ctx.validation_count(), 0, "{}", ctx.validation_last());
}

#[test]
fn asynchronous_submits_from_several_threads() {
    let ctx = context();
    thread::scope(|scope| {
        for t in 0..THREADS {
            let ctx = &ctx;
            scope.spawn(move || {
                let base: Vec<i32> = (0..64).map(|i| -(i + 64 * t as i32)).collect();
                let dst = Tensor::from_slice(ctx, &[8, 8], &base).unwrap();
                let rows = Tensor::from_slice(ctx, &[1, 8], &[t as i32; 8]).unwrap();
                let mut s = ctx.stream().unwrap();
                for r in 0..8 {
                    if r % 2 == 0 {
                        s.write_slice(&rows, &dst, &[r, 0]).unwrap();
                    }
                }
                s.submit_async().unwrap(); // safe: the stream holds dst and rows
                assert!(s.wait(None).unwrap());
                assert!(s.wait(Some(std::time::Duration::from_nanos(0))).unwrap()); // idle
                let mut want = base;
                for r in (0..8).step_by(2) {
                    want[r * 8..r * 8 + 8].copy_from_slice(&[t as i32; 8]);
                }
                assert_eq!(dst.to_vec().unwrap(), want, "thread {}", t);
            });
        }
    });
    assert_eq!(ctx.validation_count(), 0, "{}", ctx.validation_last());
}
