//! fkc-sys — the C API of the fkc runtime (runtime/include/fkc/*.h) that Rust calls by name:
//! every runtime symbol and struct layout a Rust crate writes by hand is here, in one place, and
//! so are the runtime's byte-width wrappers (`<kernel>_b<width>`, the names the contracts give).
//! The `fkc` crate re-exports all of it as `fkc::ffi` (beside its `tables` module), which is
//! what generated modules name `rt`. Linking libfkc is this crate's job (build.rs; `links =
//! "fkc"`). The Vulkan handles of fkc/fkc_vulkan.h are raw: dispatchable ones (instance,
//! physical device, device, queue, command buffer) are pointers, the others (buffer, semaphore)
//! u64, as Vulkan's C headers declare them on 64-bit targets; no Vulkan crate is needed.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_void};

/// `fkc_status`: 0 is FKC_OK; fkc_status_name() gives the text of the others.
pub type fkc_status = u32;
/// The runtime interface this crate declares (`FKC_RUNTIME_ABI` of fkc/fkc_kernels.h); a
/// generated module refuses to compile beside another (`RUNTIME_ABI`).
pub const FKC_RUNTIME_ABI: i32 = 4;
/// fkc's version, the crate's (`FKC_VERSION_STRING` of fkc/fkc_version.h).
pub const FKC_VERSION_STRING: &str = env!("CARGO_PKG_VERSION");
pub const FKC_OK: fkc_status = 0;
pub const FKC_ERR_INVALID_ARGUMENT: fkc_status = 1;
pub const FKC_ERR_RANK: fkc_status = 2;
pub const FKC_ERR_SHAPE: fkc_status = 3;
pub const FKC_ERR_OUT_OF_BOUNDS: fkc_status = 4;
pub const FKC_ERR_OVERFLOW: fkc_status = 5;
pub const FKC_ERR_DTYPE: fkc_status = 6;
pub const FKC_ERR_NO_KERNEL: fkc_status = 7;
pub const FKC_ERR_NO_DEVICE: fkc_status = 8;
pub const FKC_ERR_DEVICE_NOT_FOUND: fkc_status = 9;
pub const FKC_ERR_VULKAN: fkc_status = 10;
pub const FKC_ERR_OUT_OF_MEMORY: fkc_status = 11;
pub const FKC_ERR_UNSUPPORTED: fkc_status = 12;
pub const FKC_ERR_STATE: fkc_status = 13;
pub const FKC_ERR_TIMEOUT: fkc_status = 14;

/// FKC_MAX_RANK: ranks 1..8.
pub const FKC_MAX_RANK: usize = 8;
/// FKC_CONTEXT_VALIDATION: enable the Vulkan validation layer.
pub const FKC_CONTEXT_VALIDATION: u32 = 1;
/// FKC_CONTEXT_IGNORE_ENV: do not read FKC_DEVICE.
pub const FKC_CONTEXT_IGNORE_ENV: u32 = 1 << 1;
/// FKC_CONTEXT_RING_READBACK: write_slice_rotating reads its position back when recorded.
pub const FKC_CONTEXT_RING_READBACK: u32 = 1 << 3;
/// FKC_CONTEXT_NO_SHORT_RUNS: misaligned runs of at most 16 bytes take the general kernel.
pub const FKC_CONTEXT_NO_SHORT_RUNS: u32 = 1 << 4;
/// FKC_KERNEL_MAX_BUFFERS: storage buffers one user kernel may bind.
pub const FKC_KERNEL_MAX_BUFFERS: u32 = 16;

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
#[repr(C)]
pub struct fkc_kernel {
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

/// `fkc_buffer_range`: one storage-buffer binding of a user kernel's dispatch.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct fkc_buffer_range {
    pub buffer: *mut fkc_buffer,
    pub offset: u64,
    pub range: u64,
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

/// `fkc_device_info` (fkc_context_device).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fkc_device_info {
    pub index: u32,
    pub name: [c_char; 256],
    pub type_: u32, // fkc_device_type
    pub vendor_id: u32,
    pub device_id: u32,
    pub api_version: u32,
    pub driver_version: u32,
    pub max_storage_buffer_range: u64,
    pub max_compute_work_group_count: [u32; 3],
    pub max_compute_work_group_size: [u32; 3],
    pub max_compute_work_group_invocations: u32,
    pub max_push_constants_size: u32,
    pub min_storage_buffer_offset_alignment: u64,
    pub storage_8bit: bool,
    pub storage_16bit: bool,
    pub has_compute_queue: bool,
    pub device_local_bytes: u64,
}

// ---- fkc/fkc_vulkan.h's Vulkan types, raw ---------------------------------------------------

pub type VkInstance = *mut c_void;
pub type VkPhysicalDevice = *mut c_void;
pub type VkDevice = *mut c_void;
pub type VkQueue = *mut c_void;
pub type VkCommandBuffer = *mut c_void;
pub type VkBuffer = u64;
pub type VkSemaphore = u64;
pub type VkDeviceSize = u64;
pub type VkFlags = u32;
pub type PFN_vkVoidFunction = Option<unsafe extern "C" fn()>;
pub type PFN_vkGetInstanceProcAddr =
    Option<unsafe extern "C" fn(instance: VkInstance, name: *const c_char) -> PFN_vkVoidFunction>;
pub type fkc_vulkan_queue_lock_fn = Option<unsafe extern "C" fn(user: *mut c_void, queue: VkQueue, lock: bool)>;

/// VK_BUFFER_USAGE_TRANSFER_SRC_BIT | _DST_BIT | STORAGE_BUFFER_BIT: FKC_VULKAN_BUFFER_USAGE.
pub const FKC_VULKAN_BUFFER_USAGE: VkFlags = 0x1 | 0x2 | 0x20;
/// VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT: FKC_VULKAN_STAGES.
pub const FKC_VULKAN_STAGES: VkFlags = 0x800 | 0x1000;
/// VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT: FKC_VULKAN_ACCESS_READ.
pub const FKC_VULKAN_ACCESS_READ: VkFlags = 0x20 | 0x800;
/// VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT: FKC_VULKAN_ACCESS_WRITE.
pub const FKC_VULKAN_ACCESS_WRITE: VkFlags = 0x40 | 0x1000;

/// `fkc_vulkan_device`; fkc_vulkan_device_init sets `size` and zeroes the rest.
#[repr(C)]
pub struct fkc_vulkan_device {
    pub size: usize,
    pub get_instance_proc_addr: PFN_vkGetInstanceProcAddr,
    pub instance: VkInstance,
    pub instance_api_version: u32,
    pub physical_device: VkPhysicalDevice,
    pub device: VkDevice,
    pub queue_family: u32,
    pub queue_index: u32,
    pub enabled_extensions: *const *const c_char,
    pub enabled_extension_count: u32,
    pub enabled_features: *const c_void,
    pub queue_lock: fkc_vulkan_queue_lock_fn,
    pub queue_lock_user: *mut c_void,
}

/// `fkc_vulkan_memory_fn`: after each vkAllocateMemory fkc makes, before each vkFreeMemory.
pub type fkc_vulkan_memory_fn = Option<unsafe extern "C" fn(user: *mut c_void, memory_type: u32,
                                                            memory: u64, size: VkDeviceSize)>;

/// `fkc_vulkan_hooks`; fkc_vulkan_hooks_init sets `size` and zeroes the rest. `allocator` is
/// a `const VkAllocationCallbacks *` (null: Vulkan's own).
#[repr(C)]
pub struct fkc_vulkan_hooks {
    pub size: usize,
    pub get_instance_proc_addr: PFN_vkGetInstanceProcAddr,
    pub allocator: *const c_void,
    pub on_allocate: fkc_vulkan_memory_fn,
    pub on_free: fkc_vulkan_memory_fn,
    pub memory_user: *mut c_void,
    pub heap_limit: *const VkDeviceSize,
    pub heap_limit_count: u32,
}

/// `fkc_vulkan_semaphore`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct fkc_vulkan_semaphore {
    pub semaphore: VkSemaphore,
    pub value: u64,
    pub stages: VkFlags,
}

/// `fkc_vulkan_submit`; fkc_vulkan_submit_init sets `size` and zeroes the rest.
#[repr(C)]
pub struct fkc_vulkan_submit {
    pub size: usize,
    pub wait: *const fkc_vulkan_semaphore,
    pub wait_count: u32,
    pub signal: *const fkc_vulkan_semaphore,
    pub signal_count: u32,
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

/// The same for the SetRows family (contracts/vulkan/set_rows.md: keyed `[src, index, cache]`,
/// the cache also the output, written in place): its wrappers take three inputs.
macro_rules! set_rows_wrappers {
    ($($name:ident = $symbol:literal,)*) => {
        extern "C" {
            $(
                #[link_name = $symbol]
                pub fn $name(stream: *mut fkc_stream, src: *const fkc_tensor,
                             index: *const fkc_tensor, cache: *const fkc_tensor,
                             out: *mut fkc_tensor, params: *const c_void, extra: *const c_void)
                    -> fkc_status;
            )*
        }
    };
}

set_rows_wrappers! {
    set_rows_b4 = "fkc_set_rows_b4",
    set_rows_b4_b8_b4 = "fkc_set_rows_b4_b8_b4",
    set_rows_b2_b4_b2 = "fkc_set_rows_b2_b4_b2",
    set_rows_b2_b8_b2 = "fkc_set_rows_b2_b8_b2",
    set_rows_b8_b4_b8 = "fkc_set_rows_b8_b4_b8",
    set_rows_b8 = "fkc_set_rows_b8",
    set_rows_b1_b4_b1 = "fkc_set_rows_b1_b4_b1",
    set_rows_b1_b8_b1 = "fkc_set_rows_b1_b8_b1",
    set_rows_narrow_f32_i32_f16 = "fkc_set_rows_narrow_f32_i32_f16",
    set_rows_narrow_f32_i32_bf16 = "fkc_set_rows_narrow_f32_i32_bf16",
    set_rows_narrow_f32_i64_f16 = "fkc_set_rows_narrow_f32_i64_f16",
    set_rows_narrow_f32_i64_bf16 = "fkc_set_rows_narrow_f32_i64_bf16",
    set_rows_widen_f16_i32_f32 = "fkc_set_rows_widen_f16_i32_f32",
    set_rows_widen_f16_i64_f32 = "fkc_set_rows_widen_f16_i64_f32",
    set_rows_widen_bf16_i32_f32 = "fkc_set_rows_widen_bf16_i32_f32",
    set_rows_widen_bf16_i64_f32 = "fkc_set_rows_widen_bf16_i64_f32",
}

extern "C" {
    /// Defined only by a libfkc of interface 4: a library of another fails to link on it.
    pub static fkc_runtime_abi_4: c_int;
    pub fn fkc_version() -> *const c_char;
    pub fn fkc_last_error() -> *const c_char;
    /// fkc_set_error(status, fmt, ...): pass "%s" and one NUL-terminated message.
    pub fn fkc_set_error(status: fkc_status, fmt: *const c_char, ...) -> fkc_status;
    pub fn fkc_status_name(status: fkc_status) -> *const c_char;
    pub fn fkc_dtype_name(dtype: u32) -> *const c_char;
    pub fn fkc_dtype_size(dtype: u32) -> usize;
    pub fn fkc_backend_name(backend: u32) -> *const c_char;

    pub fn fkc_context_options_init(options: *mut fkc_context_options);
    pub fn fkc_context_create(options: *const fkc_context_options, out: *mut *mut fkc_context)
        -> fkc_status;
    pub fn fkc_context_destroy(ctx: *mut fkc_context);
    pub fn fkc_context_device(ctx: *const fkc_context) -> *const fkc_device_info;
    pub fn fkc_context_validation_count(ctx: *const fkc_context) -> u64;
    pub fn fkc_context_validation_last(ctx: *const fkc_context) -> *const c_char;

    pub fn fkc_buffer_create(ctx: *mut fkc_context, size: u64, out: *mut *mut fkc_buffer)
        -> fkc_status;
    pub fn fkc_buffer_destroy(buffer: *mut fkc_buffer);
    pub fn fkc_buffer_size(buffer: *const fkc_buffer) -> u64;
    pub fn fkc_buffer_context(buffer: *const fkc_buffer) -> *mut fkc_context;
    pub fn fkc_buffer_borrowed(buffer: *const fkc_buffer) -> bool;
    pub fn fkc_buffer_upload(buffer: *mut fkc_buffer, offset: u64, data: *const c_void, size: u64)
        -> fkc_status;
    pub fn fkc_buffer_download(buffer: *const fkc_buffer, offset: u64, data: *mut c_void,
                               size: u64) -> fkc_status;

    pub fn fkc_stream_create(ctx: *mut fkc_context, out: *mut *mut fkc_stream) -> fkc_status;
    pub fn fkc_stream_destroy(stream: *mut fkc_stream);
    pub fn fkc_stream_begin(stream: *mut fkc_stream) -> fkc_status;
    pub fn fkc_stream_submit(stream: *mut fkc_stream) -> fkc_status;
    pub fn fkc_stream_submit_async(stream: *mut fkc_stream) -> fkc_status;
    pub fn fkc_stream_wait(stream: *mut fkc_stream, timeout_ns: u64) -> fkc_status;
    pub fn fkc_stream_upload(stream: *mut fkc_stream, buffer: *mut fkc_buffer, offset: u64,
                             data: *const c_void, size: u64) -> fkc_status;
    pub fn fkc_stream_download(stream: *mut fkc_stream, buffer: *const fkc_buffer, offset: u64,
                               data: *mut c_void, size: u64) -> fkc_status;
    pub fn fkc_stream_replay(stream: *mut fkc_stream) -> fkc_status;
    pub fn fkc_stream_replay_async(stream: *mut fkc_stream) -> fkc_status;
    pub fn fkc_stream_advance(stream: *mut fkc_stream, position: *mut fkc_buffer, offset: u64,
                              delta: u64) -> fkc_status;
    pub fn fkc_stream_device_seconds(stream: *const fkc_stream) -> f64;
    pub fn fkc_stream_op_count(stream: *const fkc_stream) -> u32;
    pub fn fkc_stream_context(stream: *const fkc_stream) -> *mut fkc_context;
    // fkc/fkc_profiling.h
    pub fn fkc_stream_command_count(stream: *const fkc_stream) -> u32;
    pub fn fkc_stream_barrier_count(stream: *const fkc_stream) -> u32;
    pub fn fkc_stream_copy(stream: *mut fkc_stream, dst: *mut fkc_buffer, dst_offset: u64,
                           src: *const fkc_buffer, src_offset: u64, size: u64) -> fkc_status;

    pub fn fkc_tensor_bytes(t: *const fkc_tensor, bytes: *mut u64) -> fkc_status;
    pub fn fkc_write_slice(stream: *mut fkc_stream, src: *const fkc_tensor, out: *mut fkc_tensor,
                           offsets: *const usize) -> fkc_status;
    pub fn fkc_write_slice_rotating(stream: *mut fkc_stream, src: *const fkc_tensor,
                                    out: *mut fkc_tensor, capacity: usize,
                                    position: *const fkc_buffer, position_offset: u64,
                                    axis: i32) -> fkc_status;
    pub fn fkc_write_slice_sync(ctx: *mut fkc_context, src: *const fkc_tensor,
                                out: *mut fkc_tensor, offsets: *const usize) -> fkc_status;
    pub fn fkc_write_slice_rotating_sync(ctx: *mut fkc_context, src: *const fkc_tensor,
                                         out: *mut fkc_tensor, capacity: usize,
                                         position: *const fkc_buffer, position_offset: u64,
                                         axis: i32) -> fkc_status;
    pub fn fkc_set_rows(stream: *mut fkc_stream, src: *const fkc_tensor,
                        index: *const fkc_tensor, out: *mut fkc_tensor, slot_axis: i32,
                        status: *mut fkc_buffer, status_offset: u64) -> fkc_status;
    pub fn fkc_set_rows_sync(ctx: *mut fkc_context, src: *const fkc_tensor,
                             index: *const fkc_tensor, out: *mut fkc_tensor, slot_axis: i32,
                             status: *mut fkc_buffer, status_offset: u64) -> fkc_status;

    pub fn fkc_kernel_create(ctx: *mut fkc_context, words: *const u32, n_words: usize,
                             n_buffers: u32, push_size: u32, out: *mut *mut fkc_kernel)
        -> fkc_status;
    pub fn fkc_kernel_cached(ctx: *mut fkc_context, words: *const u32, n_words: usize,
                             n_buffers: u32, push_size: u32, out: *mut *mut fkc_kernel)
        -> fkc_status;
    pub fn fkc_kernel_destroy(kernel: *mut fkc_kernel);
    pub fn fkc_kernel_local_size(kernel: *const fkc_kernel, size: *mut u32);
    pub fn fkc_stream_dispatch(stream: *mut fkc_stream, kernel: *const fkc_kernel,
                               buffers: *const fkc_buffer_range, n_buffers: u32,
                               push: *const c_void, push_size: u32, groups_x: u32,
                               groups_y: u32, groups_z: u32) -> fkc_status;

    // fkc/fkc_vulkan.h
    pub fn fkc_vulkan_device_init(device: *mut fkc_vulkan_device);
    pub fn fkc_context_create_vulkan(host: *const fkc_vulkan_device,
                                     options: *const fkc_context_options,
                                     out: *mut *mut fkc_context) -> fkc_status;
    pub fn fkc_context_create_with_loader(options: *const fkc_context_options,
                                          get_instance_proc_addr: PFN_vkGetInstanceProcAddr,
                                          out: *mut *mut fkc_context) -> fkc_status;
    pub fn fkc_vulkan_hooks_init(hooks: *mut fkc_vulkan_hooks);
    pub fn fkc_context_create_with_hooks(options: *const fkc_context_options,
                                         hooks: *const fkc_vulkan_hooks,
                                         out: *mut *mut fkc_context) -> fkc_status;
    pub fn fkc_context_create_vulkan_with_hooks(host: *const fkc_vulkan_device,
                                                hooks: *const fkc_vulkan_hooks,
                                                options: *const fkc_context_options,
                                                out: *mut *mut fkc_context) -> fkc_status;
    pub fn fkc_context_vulkan_heap_used(ctx: *const fkc_context, heap: u32) -> u64;
    pub fn fkc_context_vulkan(ctx: *const fkc_context, instance: *mut VkInstance,
                              physical_device: *mut VkPhysicalDevice, device: *mut VkDevice,
                              queue: *mut VkQueue, queue_family: *mut u32) -> fkc_status;
    pub fn fkc_context_vulkan_timeline(ctx: *const fkc_context) -> bool;
    pub fn fkc_context_vulkan_push_descriptors(ctx: *const fkc_context) -> bool;
    pub fn fkc_buffer_wrap_vulkan(ctx: *mut fkc_context, buffer: VkBuffer, offset: VkDeviceSize,
                                  size: VkDeviceSize, usage: VkFlags, out: *mut *mut fkc_buffer)
        -> fkc_status;
    pub fn fkc_vulkan_buffer_alignment(ctx: *const fkc_context) -> u64;
    pub fn fkc_buffer_vulkan(b: *const fkc_buffer, buffer: *mut VkBuffer,
                             offset: *mut VkDeviceSize, size: *mut VkDeviceSize) -> fkc_status;
    pub fn fkc_stream_wrap_vulkan(ctx: *mut fkc_context, cmd: VkCommandBuffer,
                                  out: *mut *mut fkc_stream) -> fkc_status;
    pub fn fkc_stream_begin_vulkan(stream: *mut fkc_stream, cmd: VkCommandBuffer) -> fkc_status;
    pub fn fkc_stream_vulkan_barrier_in(stream: *mut fkc_stream, src_stages: VkFlags,
                                        src_access: VkFlags) -> fkc_status;
    pub fn fkc_stream_vulkan_barrier_out(stream: *mut fkc_stream, dst_stages: VkFlags,
                                         dst_access: VkFlags) -> fkc_status;
    pub fn fkc_vulkan_submit_init(submit: *mut fkc_vulkan_submit);
    pub fn fkc_stream_submit_vulkan(stream: *mut fkc_stream, submit: *const fkc_vulkan_submit)
        -> fkc_status;
}
