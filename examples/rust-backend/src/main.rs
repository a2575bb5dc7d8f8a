//! rust-backend — a backend crate with its own contracts: two providers generated in one fkcgen
//! run into one module by fkc-build (build.rs), each with its own link registry, their ops
//! recorded on fkc streams through those registries, every byte checked against a reference.
//!   rb::fuel_vulkan_backend_fkc::ENTRY_POINTS: the runtime's write_slice and
//!         write_slice_rotating (contracts/write_slice.md), kernel references the runtime's
//!         wrappers (fkc::ffi);
//!   rb::rust_backend_fill::ENTRY_POINTS: the Fill family (fill/fill.md), whose wrappers are
//!         this crate's (src/wrappers.rs).
use fkc::{ffi, Context, ContextOptions, DType, Element, Tensor, BF16, F16};
use std::process::ExitCode;

mod wrappers;

/// What the generated module's `rt` names: the runtime's API and this crate's wrappers.
mod rt {
    pub use crate::wrappers::{fill_b1, fill_b2, fill_b4, fill_b8};
    pub use fkc::ffi::*;
}

/// The bindings of contracts/write_slice.md and fill/fill.md.
#[allow(dead_code)]
mod rb {
    use crate::rt;
    include!(concat!(env!("OUT_DIR"), "/rb_bindings.rs"));
}

use rb::fuel_vulkan_backend_fkc::ENTRY_POINTS as WS_ENTRY_POINTS;
use rb::rust_backend_fill::ENTRY_POINTS as FILL_ENTRY_POINTS;

type Result<T> = std::result::Result<T, fkc::Error>;

/// Deterministic bytes (an LCG), `seed` picking the sequence.
fn pattern(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2654435761).wrapping_add(7);
    (0..n).map(|_| { x = x.wrapping_mul(1664525).wrapping_add(1013904223); (x >> 24) as u8 }).collect()
}

fn elements<T: Element>(bytes: &[u8]) -> Vec<T> {
    bytes.chunks(T::DTYPE.size()).map(T::get_le).collect()
}

fn no_symbol(symbol: &str) -> fkc::Error {
    fkc::Error::new(ffi::FKC_ERR_NO_KERNEL, format!("no {} in the link registry", symbol))
}

/// One dtype: Fill a [5, 7] tensor, write_slice a [2, 3] source into it at (3, 4), then
/// write_slice_rotating two rows into a ring of 4 from position 3, all on one stream, each op
/// looked up by its symbol in its provider's link registry. Checks every byte.
fn dtype<T: Element>(ctx: &Context, seed: u32) -> Result<bool> {
    let w = T::DTYPE.size();
    let suffix = T::DTYPE.suffix();
    let value = u64::from_le_bytes(pattern(8, seed).try_into().unwrap());
    let dst = Tensor::from_slice(ctx, &[5, 7], &elements::<T>(&pattern(35 * w, seed + 1)))?;
    let src_bytes = pattern(6 * w, seed + 2);
    let src = Tensor::from_slice(ctx, &[2, 3], &elements::<T>(&src_bytes))?;
    let ring_bytes = pattern(4 * 3 * w, seed + 3);
    let ring = Tensor::from_slice(ctx, &[4, 3], &elements::<T>(&ring_bytes))?;
    let rows_bytes = pattern(2 * 3 * w, seed + 4);
    let rows = Tensor::from_slice(ctx, &[2, 3], &elements::<T>(&rows_bytes))?;
    let position = ctx.buffer(16)?;
    position.upload(0, &3u64.to_le_bytes())?;
    let extra = ffi::fkc_write_slice_rotating_extra { position: position.as_raw(),
                                                      position_offset: 0, axis: -1 };

    let fill_sym = format!("rust_backend::fill::fill_{}", suffix);
    let fill_entry = rb::link_lookup_in(&FILL_ENTRY_POINTS, &fill_sym).ok_or_else(|| no_symbol(&fill_sym))?;
    let ws_sym = format!("fuel_vulkan_backend::fkc::write_slice_{}", suffix);
    let ws = rb::link_lookup_in(&WS_ENTRY_POINTS, &ws_sym).ok_or_else(|| no_symbol(&ws_sym))?;
    let rot_sym = format!("fuel_vulkan_backend::fkc::write_slice_rotating_{}", suffix);
    let rot = rb::link_lookup_in(&WS_ENTRY_POINTS, &rot_sym).ok_or_else(|| no_symbol(&rot_sym))?;

    let mut s = ctx.stream()?;
    let p = rb::OpParams::Fill { value_bits: value };
    // SAFETY (each call): the stream and tensors are live and borrowed by the stream; `extra`
    // is the op's side inputs or null, alive across the call.
    s.record_with(&[&dst], &[&dst], |st, i, o| unsafe {
        fill_entry.binding.kernel.call(st, i, o, Some(&p), std::ptr::null())
    })?;
    let p = rb::OpParams::WriteSlice { dst_shape: vec![5, 7], offsets: vec![3, 4] };
    s.record_with(&[&src], &[&dst], |st, i, o| unsafe {
        ws.binding.kernel.call(st, i, o, Some(&p), std::ptr::null())
    })?;
    let p = rb::OpParams::WriteSliceRotating { dst_shape: vec![4, 3], capacity: 4 };
    s.record_with(&[&rows], &[&ring], |st, i, o| unsafe {
        rot.binding.kernel.call(st, i, o, Some(&p), (&extra as *const ffi::fkc_write_slice_rotating_extra).cast())
    })?;
    s.submit()?;

    // the reference: every element the pattern's low w bytes, then the slab, then the ring rows
    let mut want: Vec<u8> = (0..35).flat_map(|_| value.to_le_bytes()[..w].to_vec()).collect();
    for i in 0..2 {
        let at = ((3 + i) * 7 + 4) * w;
        want[at..at + 3 * w].copy_from_slice(&src_bytes[i * 3 * w..(i + 1) * 3 * w]);
    }
    let mut ring_want = ring_bytes;
    for (i, row) in [3usize, 0].iter().enumerate() {
        ring_want[row * 3 * w..(row + 1) * 3 * w].copy_from_slice(&rows_bytes[i * 3 * w..(i + 1) * 3 * w]);
    }
    Ok(dst.to_bytes()? == want && ring.to_bytes()? == ring_want)
}

fn run() -> Result<bool> {
    let ctx = Context::with_options(&ContextOptions { validation: true, device_index: None })?;
    let results = [
        dtype::<f32>(&ctx, 1)?, dtype::<i32>(&ctx, 2)?, dtype::<u32>(&ctx, 3)?,
        dtype::<F16>(&ctx, 4)?, dtype::<BF16>(&ctx, 5)?, dtype::<f64>(&ctx, 6)?,
        dtype::<i64>(&ctx, 7)?, dtype::<u8>(&ctx, 8)?, dtype::<i8>(&ctx, 9)?,
    ];
    let bad: Vec<&str> = DType::ALL.iter().zip(&results).filter(|(_, ok)| !**ok).map(|(d, _)| d.name()).collect();
    if !bad.is_empty() {
        println!("rust-backend: wrong bytes for {}", bad.join(", "));
    }
    if ctx.validation_count() != 0 {
        println!("rust-backend: validation: {}", ctx.validation_last());
        return Ok(false);
    }
    Ok(bad.is_empty())
}

fn main() -> ExitCode {
    println!("rust-backend: providers {} ({} symbols) and {} ({} symbols)",
             rb::PROVIDERS[0].link_registry, WS_ENTRY_POINTS.len(),
             rb::PROVIDERS[1].link_registry, FILL_ENTRY_POINTS.len());
    match run() {
        Ok(true) => {
            println!("rust-backend: Fill, WriteSlice, WriteSliceRotating on 9 dtypes through two link registries: all bit-exact");
            ExitCode::SUCCESS
        }
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            println!("rust-backend: {}", e);
            ExitCode::FAILURE
        }
    }
}
