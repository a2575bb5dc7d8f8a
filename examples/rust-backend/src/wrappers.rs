//! wrappers.rs — the byte-width wrappers of the Fill family (fill/fill.md): fill_b1, fill_b2, fill_b4 and
//! fill_b8, the names the generated module gives them (`rt::fill_b<width>`, of the type
//! `ops::fill::Kernel`). Written in Rust over the runtime's user-kernel API: the shader
//! fill.comp (SPIR-V from build.rs) is a context-cached kernel, and each call records one
//! dispatch on the caller's stream, ordered with every other op there. Like the runtime, a
//! refusal returns a specific status with fkc_last_error() set, and records nothing.
use fkc::ffi::{self, fkc_status, fkc_stream, fkc_tensor};
use std::ffi::CString;
use std::os::raw::c_void;
use std::ptr;

static SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/fill.spv"));

/// Must match the Push block of fill.comp.
#[repr(C)]
struct Push {
    start: u32,
    end: u32,
    word0: u32,
    words: u32,
    width: u32,
    lo: u32,
    hi: u32,
    pad: u32,
}

const LOCAL: u32 = 64; // fill.comp's local_size_x

fn refuse(status: fkc_status, message: &str) -> fkc_status {
    let text = CString::new(message).unwrap_or_default();
    // SAFETY: "%s" with one NUL-terminated string.
    unsafe { ffi::fkc_set_error(status, b"%s\0".as_ptr().cast(), text.as_ptr()) }
}

/// Records out = value_bits on every element (one dispatch over the words of its bytes).
unsafe fn fill(stream: *mut fkc_stream, input: *const fkc_tensor, out: *mut fkc_tensor,
               params: *const c_void, width: u32) -> fkc_status {
    if stream.is_null() || out.is_null() || params.is_null() || (*out).buffer.is_null() {
        return refuse(ffi::FKC_ERR_INVALID_ARGUMENT, "fill: NULL stream, out or params");
    }
    let (out, p) = (&*out, &*(params as *const crate::rb::ops::fill::Params));
    if ffi::fkc_dtype_size(out.dtype) != width as usize {
        return refuse(ffi::FKC_ERR_DTYPE, &format!("fill_b{}: out's dtype is not {} bytes wide", width, width));
    }
    if !input.is_null() && ((*input).dtype != out.dtype || (*input).rank != out.rank
                            || (*input).shape != out.shape) {
        return refuse(ffi::FKC_ERR_SHAPE, "fill: in and out differ in dtype or shape");
    }
    let mut bytes = 0u64;
    let st = ffi::fkc_tensor_bytes(out, &mut bytes);
    if st != ffi::FKC_OK || bytes == 0 {
        return st;
    }
    let ctx = ffi::fkc_stream_context(stream);
    if ffi::fkc_buffer_context(out.buffer) != ctx {
        return refuse(ffi::FKC_ERR_INVALID_ARGUMENT, "fill: out's buffer belongs to another context");
    }
    let size = ffi::fkc_buffer_size(out.buffer);
    if out.offset > size || bytes > size - out.offset {
        return refuse(ffi::FKC_ERR_INVALID_ARGUMENT, "fill: out does not fit in its buffer");
    }
    let device = &*ffi::fkc_context_device(ctx);
    let align = device.min_storage_buffer_offset_alignment.max(4);
    let (start, end) = (out.offset, out.offset + bytes);
    let base = start / align * align;
    let top = (end + 3) & !3;
    if top - base > device.max_storage_buffer_range.min(1 << 31) {
        return refuse(ffi::FKC_ERR_UNSUPPORTED, "fill: the tensor exceeds one storage window");
    }
    let words: Vec<u32> = SPV.chunks(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
    let mut kernel = ptr::null_mut();
    let st = ffi::fkc_kernel_cached(ctx, words.as_ptr(), words.len(), 1,
                                    std::mem::size_of::<Push>() as u32, &mut kernel);
    if st != ffi::FKC_OK {
        return st;
    }
    let word0 = ((start - base) / 4) as u32;
    let push = Push { start: (start - base) as u32, end: (end - base) as u32, word0,
                      words: ((top - base) / 4) as u32 - word0, width,
                      lo: p.value_bits as u32, hi: (p.value_bits >> 32) as u32, pad: 0 };
    let limit = device.max_compute_work_group_count.iter().copied().min().unwrap_or(1).max(1);
    let groups = (push.words + LOCAL - 1) / LOCAL;
    let gx = groups.min(limit);
    let gy = (groups + gx - 1) / gx;
    let range = ffi::fkc_buffer_range { buffer: out.buffer, offset: base, range: top - base };
    ffi::fkc_stream_dispatch(stream, kernel, &range, 1, (&push as *const Push).cast(),
                             std::mem::size_of::<Push>() as u32, gx, gy, 1)
}

macro_rules! wrapper {
    ($name:ident, $width:expr) => {
        /// The Fill wrapper of elements this many bytes wide.
        ///
        /// # Safety
        /// As every wrapper: live runtime objects, `params` a `fill::ops::fill::Params`.
        pub unsafe extern "C" fn $name(stream: *mut fkc_stream, input: *const fkc_tensor,
                                       out: *mut fkc_tensor, params: *const c_void,
                                       _extra: *const c_void) -> fkc_status {
            fill(stream, input, out, params, $width)
        }
    };
}

wrapper!(fill_b1, 1);
wrapper!(fill_b2, 2);
wrapper!(fill_b4, 4);
wrapper!(fill_b8, 8);
