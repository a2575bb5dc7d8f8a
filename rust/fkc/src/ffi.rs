//! The C API of the fkc runtime (runtime/include/fkc/*.h) that the crate calls by name: every
//! runtime symbol and struct layout the crate writes by hand is here, in one place, and so are
//! the runtime's byte-width wrappers. The generated module names all of it `rt::...`: its
//! kernel references are `rt::<kernel>_b<width>`, the names the contracts give, so a contract
//! binding a kernel this list lacks fails to compile. The crate calls the wrappers only
//! through the generated link registry. It also names `tables`, the crate's module of what every
//! generated module shares (`crate::tables`), so that the one name `rt` a generated module is
//! given reaches both.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_void};

pub use crate::tables;

/// `fkc_status`: 0 is FKC_OK; fkc_status_name() gives the text of the others.
pub type fkc_status = u32;
/// The runtime interface this module declares (`FKC_RUNTIME_ABI` of fkc/fkc_kernels.h); the
/// generated module refuses to compile beside another (`RUNTIME_ABI`).
pub const FKC_RUNTIME_ABI: i32 = 2;
pub const FKC_OK: fkc_status = 0;
pub const FKC_ERR_INVALID_ARGUMENT: fkc_status = 1;
pub const FKC_ERR_RANK: fkc_status = 2;
pub const FKC_ERR_OUT_OF_BOUNDS: fkc_status = 4;
pub const FKC_ERR_OVERFLOW: fkc_status = 5;
pub const FKC_ERR_NO_KERNEL: fkc_status = 7;

/// FKC_MAX_RANK: ranks 1..8.
pub const FKC_MAX_RANK: usize = 8;
/// FKC_CONTEXT_VALIDATION: enable the Vulkan validation layer.
pub const FKC_CONTEXT_VALIDATION: u32 = 1;

#[repr(C)]
pub struct fkc_context {
    _opaque: [u8; 0],
}
#[repr(C)]
pub struct fkc_buffer {
    _opaque: [u8; 0],
}
#[repr(C)]
pub struct fkc_stream {
    _opaque: [u8; 0],
}

/// `fkc_tensor`: a contiguous row-major tensor in a device buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct fkc_tensor {
    pub buffer: *mut fkc_buffer,
    pub offset: u64,
    pub dtype: u32, // fkc_dtype
    pub rank: u32,
    pub shape: [usize; FKC_MAX_RANK],
}

/// `fkc_write_slice_rotating_extra`: the rotating op's side inputs, which a contract does not
/// model (the ring position on the device, the rotating axis or -1).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct fkc_write_slice_rotating_extra {
    pub position: *const fkc_buffer,
    pub position_offset: u64,
    pub axis: i32,
}

pub type fkc_message_fn = Option<unsafe extern "C" fn(user: *mut c_void, message: *const c_char)>;

/// `fkc_context_options`; fkc_context_options_init sets the defaults.
#[repr(C)]
pub struct fkc_context_options {
    pub size: usize, // sizeof(fkc_context_options), set by fkc_context_options_init
    pub device_index: i32,
    pub device_name: *const c_char,
    pub flags: u32,
    pub copy_path: u32, // fkc_copy_path
    pub on_validation: fkc_message_fn,
    pub on_validation_user: *mut c_void,
}

/// Declares the runtime's byte-width wrappers: Rust name = the contracts' `<kernel>_b<width>`,
/// link name = the C symbol the runtime defines. One signature, the generated `Kernel` type of
/// every op kind: `params` points to that op's generated `Params` struct, `extra` to its side
/// inputs (`fkc_write_slice_rotating_extra`) or is null.
macro_rules! wrappers {
    ($($name:ident = $symbol:literal,)*) => {
        extern "C" {
            $(
                #[link_name = $symbol]
                pub fn $name(stream: *mut fkc_stream, src: *const fkc_tensor, out: *mut fkc_tensor,
                             params: *const c_void, extra: *const c_void) -> fkc_status;
            )*
        }
    };
}

wrappers! {
    write_slice_b1 = "fkc_write_slice_b1",
    write_slice_b2 = "fkc_write_slice_b2",
    write_slice_b4 = "fkc_write_slice_b4",
    write_slice_b8 = "fkc_write_slice_b8",
    write_slice_rotating_b1 = "fkc_write_slice_rotating_b1",
    write_slice_rotating_b2 = "fkc_write_slice_rotating_b2",
    write_slice_rotating_b4 = "fkc_write_slice_rotating_b4",
    write_slice_rotating_b8 = "fkc_write_slice_rotating_b8",
}

extern "C" {
    /// Defined only by a libfkc of interface 2: a library of another fails to link on it.
    pub static fkc_runtime_abi_2: c_int;
    pub fn fkc_last_error() -> *const c_char;
    pub fn fkc_status_name(status: fkc_status) -> *const c_char;
    pub fn fkc_dtype_name(dtype: u32) -> *const c_char;
    pub fn fkc_dtype_size(dtype: u32) -> usize;
    pub fn fkc_backend_name(backend: u32) -> *const c_char;

    pub fn fkc_context_options_init(options: *mut fkc_context_options);
    pub fn fkc_context_create(options: *const fkc_context_options, out: *mut *mut fkc_context)
        -> fkc_status;
    pub fn fkc_context_destroy(ctx: *mut fkc_context);
    pub fn fkc_context_validation_count(ctx: *const fkc_context) -> u64;
    pub fn fkc_context_validation_last(ctx: *const fkc_context) -> *const c_char;

    pub fn fkc_buffer_create(ctx: *mut fkc_context, size: u64, out: *mut *mut fkc_buffer)
        -> fkc_status;
    pub fn fkc_buffer_destroy(buffer: *mut fkc_buffer);
    pub fn fkc_buffer_size(buffer: *const fkc_buffer) -> u64;
    pub fn fkc_buffer_upload(buffer: *mut fkc_buffer, offset: u64, data: *const c_void, size: u64)
        -> fkc_status;
    pub fn fkc_buffer_download(buffer: *const fkc_buffer, offset: u64, data: *mut c_void,
                               size: u64) -> fkc_status;

    pub fn fkc_stream_create(ctx: *mut fkc_context, out: *mut *mut fkc_stream) -> fkc_status;
    pub fn fkc_stream_destroy(stream: *mut fkc_stream);
    pub fn fkc_stream_submit(stream: *mut fkc_stream) -> fkc_status;
    pub fn fkc_stream_op_count(stream: *const fkc_stream) -> u32;
}
