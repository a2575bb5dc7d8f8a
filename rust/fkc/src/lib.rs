//! fkc from Rust: a safe API over the fkc Vulkan runtime (contexts, buffers, streams, tensors
//! of the nine element types) whose ops go through the bindings fkcgen generates from the
//! crate's contracts: an op looks up its symbol `<entry_point>_<dtype suffix>` in the generated
//! link registry `ENTRY_POINTS`, takes the kernel reference it maps to (a byte-width wrapper of
//! the runtime) and calls it. Errors carry the runtime's own message (fkc_last_error()).
//!
//! ```
//! let ctx = fkc::Context::new().unwrap();
//! let dst = fkc::Tensor::from_slice(&ctx, &[2, 3], &[0i32; 6]).unwrap();
//! let src = fkc::Tensor::from_slice(&ctx, &[1, 2], &[7i32, 8]).unwrap();
//! ctx.write_slice(&src, &dst, &[1, 1]).unwrap();
//! assert_eq!(dst.to_vec().unwrap(), vec![0, 0, 0, 0, 7, 8]);
//! ```
//!
//! **Lifetimes.** Every buffer, tensor and stream keeps its context alive in the runtime
//! (fkc_context_destroy releases the caller's hold; the device is freed with the last object),
//! so no safe program, `mem::forget` included, can destroy a device under live objects: a
//! forgotten tensor leaks its buffer and the context it holds, nothing more. The Rust lifetimes
//! (`Buffer<'c>` borrows its `Context`) say the same for the common case.
//!
//! **Threads** (fkc_runtime.h's model): `Context`, `Buffer`, `Tensor` and `Kernel` are `Send`
//! and `Sync` (any call on them may run on several threads at once); a `Stream` is `Send` but
//! not `Sync` (used by one thread at a time; streams of one context may be recorded and
//! submitted from different threads at once, each by its own thread).
//!
//! **Streams** record ops (and uploads, downloads, copies, device-side position advances) and
//! run them with `submit` (waits), `submit_async` + `wait`, or again as recorded with `replay`
//! / `replay_async`; a stream is reused after any of them (the next op starts a new
//! recording). Everything a recording uses, a stream keeps alive itself (an `Arc` of each
//! buffer and kernel, and the memory its downloads land in) until that recording's work has
//! completed and a new one begins, or the stream is dropped (which waits): so dropping a
//! buffer or tensor while its work runs, or `mem::forget`ting a stream in flight, is safe (the
//! forgotten stream leaks what it holds; nothing is freed under the device), and
//! `submit_async` and `replay_async` are safe.
//!
//! **Borrowed Vulkan objects** (fkc/fkc_vulkan.h): [`Context::from_vulkan`] over the host's
//! instance, device and queue, [`Buffer::from_vulkan`] over a range of the host's VkBuffer and
//! [`Context::stream_over_vulkan`] recording into the host's command buffer are `unsafe`: their
//! docs state what the host must keep true.
#![deny(missing_docs)]

use std::ffi::CStr;
use std::fmt;
use std::marker::PhantomData;
use std::os::raw::{c_char, c_void};
use std::ptr;
use std::sync::Arc;

/// fkc-sys, the C API, which `ffi` re-exports (a module path the test harness can mirror).
use fkc_sys as sys;

#[allow(missing_docs)]
pub mod ffi;
pub mod tables;

/// The bindings fkcgen generated from the crate's contracts (OUT_DIR/fkc_bindings.rs):
/// op kinds, op params, kernel refs, the binding table, `ENTRY_POINTS`, `register_all`, over
/// the types of [`tables`].
#[allow(missing_docs)]
pub mod bindings {
    use crate::ffi as rt;
    include!(concat!(env!("OUT_DIR"), "/fkc_bindings.rs"));
}

pub use bindings::{Backend, DType, OpKind, OpParams};

/// An error of the runtime (its status and message) or of the crate's own checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    status: ffi::fkc_status,
    message: String,
}

/// The crate's results.
pub type Result<T> = std::result::Result<T, Error>;

fn c_text(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the runtime returns NUL-terminated strings that live at least until its next call.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

impl Error {
    /// An error with this status and message.
    pub fn new(status: ffi::fkc_status, message: impl Into<String>) -> Error {
        Error { status, message: message.into() }
    }

    /// The runtime's error: `status` and fkc_last_error()'s message, read right after the call.
    fn last(status: ffi::fkc_status) -> Error {
        // SAFETY: no arguments; the message is copied at once.
        Error::new(status, c_text(unsafe { ffi::fkc_last_error() }))
    }

    /// The fkc_status code (FKC_ERR_*; see `ffi`).
    pub fn status(&self) -> ffi::fkc_status {
        self.status
    }

    /// The runtime's text for the status ("rank out of range or ranks disagree").
    pub fn status_name(&self) -> String {
        // SAFETY: fkc_status_name takes any value and returns a static string.
        c_text(unsafe { ffi::fkc_status_name(self.status) })
    }

    /// The message: the runtime's fkc_last_error() for a refused call (which starts with the
    /// status's text).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

fn check(status: ffi::fkc_status) -> Result<()> {
    if status == ffi::FKC_OK {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}

/// How to open a context.
#[derive(Clone, Debug, Default)]
pub struct ContextOptions {
    /// Enable the Vulkan validation layer (see `Context::validation_count`).
    pub validation: bool,
    /// The device by index (None: FKC_DEVICE, else the first GPU, else lavapipe).
    pub device_index: Option<u32>,
}

/// A Vulkan device opened by the runtime, or the host's (`from_vulkan`). Buffers, streams and
/// tensors borrow it, and each keeps it alive in the runtime.
pub struct Context {
    raw: *mut ffi::fkc_context,
}

// SAFETY: fkc_runtime.h's thread model: every call that takes a context is safe from several
// threads at once; nothing of it is bound to the thread that created it.
unsafe impl Send for Context {}
unsafe impl Sync for Context {}

/// The host's Vulkan objects for [`Context::from_vulkan`], as raw handles (a Vulkan crate's
/// handles convert to them: dispatchable ones are pointers, `as_raw()` of ash's and the like).
#[derive(Clone, Copy, Debug)]
pub struct VulkanDevice<'a> {
    /// The host's `vkGetInstanceProcAddr` (its loader's, volk's, ...).
    pub get_instance_proc_addr: unsafe extern "C" fn(ffi::VkInstance, *const c_char)
                                                     -> ffi::PFN_vkVoidFunction,
    /// VkInstance.
    pub instance: ffi::VkInstance,
    /// The apiVersion the instance was created with (at least Vulkan 1.1).
    pub instance_api_version: u32,
    /// VkPhysicalDevice.
    pub physical_device: ffi::VkPhysicalDevice,
    /// VkDevice.
    pub device: ffi::VkDevice,
    /// A queue family with VK_QUEUE_COMPUTE_BIT.
    pub queue_family: u32,
    /// The queue within the family.
    pub queue_index: u32,
    /// The device extensions the host enabled (fkc uses push descriptors and timeline
    /// semaphores when listed here).
    pub enabled_extensions: &'a [&'a CStr],
    /// The pNext chain of feature structs the device was created with, or null.
    pub enabled_features: *const c_void,
    /// Called by fkc around each of its submits to the queue (lock true before, false after),
    /// so that the host's own submits from other threads can take the same lock; None: the
    /// host does not use the queue while fkc may submit (see `from_vulkan`).
    pub queue_lock: ffi::fkc_vulkan_queue_lock_fn,
    /// Passed to `queue_lock`.
    pub queue_lock_user: *mut c_void,
}

/// The Vulkan objects of a context ([`Context::vulkan`]).
#[derive(Clone, Copy, Debug)]
pub struct VulkanHandles {
    /// VkInstance.
    pub instance: ffi::VkInstance,
    /// VkPhysicalDevice.
    pub physical_device: ffi::VkPhysicalDevice,
    /// VkDevice.
    pub device: ffi::VkDevice,
    /// VkQueue (an owned context's is fkc's: submit to it only through fkc).
    pub queue: ffi::VkQueue,
    /// The queue's family.
    pub queue_family: u32,
}

impl Context {
    /// A context on the default device.
    pub fn new() -> Result<Context> {
        Context::with_options(&ContextOptions::default())
    }

    /// A context with options.
    pub fn with_options(options: &ContextOptions) -> Result<Context> {
        Context::open(options, &[])
    }

    /// A context with options and a device-memory budget (VMA's heap size limit, through
    /// fkc_context_create_with_hooks): `heap_limits[i]` is the most bytes fkc keeps allocated
    /// from memory heap i at once (0: no limit; at most 16 heaps). An allocation past it is not
    /// made: the call that needed it (`buffer`, a tensor's upload, ...) returns
    /// FKC_ERR_OUT_OF_MEMORY naming the heap and the budget. [`Context::heap_used`] says what
    /// it counts.
    pub fn with_budget(options: &ContextOptions, heap_limits: &[u64]) -> Result<Context> {
        if heap_limits.is_empty() {
            return Err(Error::new(ffi::FKC_ERR_INVALID_ARGUMENT,
                                  "Context::with_budget: no heap limit given"));
        }
        Context::open(options, heap_limits)
    }

    fn open(options: &ContextOptions, heap_limits: &[u64]) -> Result<Context> {
        // SAFETY: a constant the library defines. Reading it makes the link need the symbol of
        // the interface the crate was written for: a libfkc of another fails to link.
        // (The generated module checks its own interface against ffi's at compile time.)
        let _interface = unsafe { ptr::read_volatile(&ffi::fkc_runtime_abi_4) };
        let mut o = std::mem::MaybeUninit::<ffi::fkc_context_options>::uninit();
        let mut h = std::mem::MaybeUninit::<ffi::fkc_vulkan_hooks>::uninit();
        let mut raw = ptr::null_mut();
        // SAFETY: the _init calls fill the whole structs; create reads them (and the limits,
        // which it copies) during the call and sets raw.
        let status = unsafe {
            ffi::fkc_context_options_init(o.as_mut_ptr());
            let mut o = o.assume_init();
            if options.validation {
                o.flags |= ffi::FKC_CONTEXT_VALIDATION;
            }
            if let Some(i) = options.device_index {
                o.device_index = i32::try_from(i).unwrap_or(i32::MAX);
            }
            if heap_limits.is_empty() {
                ffi::fkc_context_create(&o, &mut raw)
            } else {
                ffi::fkc_vulkan_hooks_init(h.as_mut_ptr());
                let mut h = h.assume_init();
                h.heap_limit = heap_limits.as_ptr();
                h.heap_limit_count = u32::try_from(heap_limits.len()).unwrap_or(u32::MAX);
                ffi::fkc_context_create_with_hooks(&o, &h, &mut raw)
            }
        };
        check(status)?;
        Ok(Context { raw })
    }

    /// Device memory fkc has allocated from memory heap `heap` and not yet freed, in bytes
    /// (what a budget counts; fkc_context_vulkan_heap_used).
    pub fn heap_used(&self, heap: u32) -> u64 {
        // SAFETY: raw is a live context.
        unsafe { ffi::fkc_context_vulkan_heap_used(self.raw, heap) }
    }

    /// A context over the host's Vulkan device (fkc_context_create_vulkan): fkc creates only its
    /// own pipelines, pools, fences and memory on it and never destroys what it borrowed.
    /// Refused with FKC_ERR_UNSUPPORTED (naming what the device lacks) or
    /// FKC_ERR_INVALID_ARGUMENT (a null handle).
    ///
    /// # Safety
    /// The handles are live objects of one instance (the device created from the physical
    /// device, with `queue_family` and `queue_index` among its queues, `enabled_extensions`
    /// and `enabled_features` as it was created with), and the host keeps the device alive
    /// until this context and every buffer, tensor and stream made from it are gone (each
    /// keeps the context alive: a `mem::forget`ten one keeps it forever, so the device must
    /// then never be destroyed). Without a `queue_lock`, the host does not use the queue from
    /// another thread while fkc submits to it (uploads, downloads, `submit`, the one-shot ops):
    /// fkc_vulkan.h's rule; with one, `queue_lock` may be called from any thread, with
    /// `queue_lock_user`, for as long as the context lives.
    pub unsafe fn from_vulkan(host: &VulkanDevice<'_>) -> Result<Context> {
        let names: Vec<*const c_char> = host.enabled_extensions.iter().map(|e| e.as_ptr()).collect();
        let mut d = std::mem::MaybeUninit::<ffi::fkc_vulkan_device>::uninit();
        ffi::fkc_vulkan_device_init(d.as_mut_ptr());
        let mut d = d.assume_init();
        d.get_instance_proc_addr = Some(host.get_instance_proc_addr);
        d.instance = host.instance;
        d.instance_api_version = host.instance_api_version;
        d.physical_device = host.physical_device;
        d.device = host.device;
        d.queue_family = host.queue_family;
        d.queue_index = host.queue_index;
        d.enabled_extensions = if names.is_empty() { ptr::null() } else { names.as_ptr() };
        d.enabled_extension_count = names.len() as u32;
        d.enabled_features = host.enabled_features;
        d.queue_lock = host.queue_lock;
        d.queue_lock_user = host.queue_lock_user;
        let mut raw = ptr::null_mut();
        check(ffi::fkc_context_create_vulkan(&d, ptr::null(), &mut raw))?;
        Ok(Context { raw })
    }

    /// The context's Vulkan objects (owned or borrowed): to create semaphores on its device,
    /// or use its buffers in the host's own commands.
    pub fn vulkan(&self) -> Result<VulkanHandles> {
        let mut h = VulkanHandles { instance: ptr::null_mut(), physical_device: ptr::null_mut(),
                                    device: ptr::null_mut(), queue: ptr::null_mut(),
                                    queue_family: 0 };
        // SAFETY: raw is a live context; the pointers are to locals.
        check(unsafe {
            ffi::fkc_context_vulkan(self.raw, &mut h.instance, &mut h.physical_device,
                                    &mut h.device, &mut h.queue, &mut h.queue_family)
        })?;
        Ok(h)
    }

    /// Whether semaphore values are honoured by [`Stream::submit_with_semaphores`] (timeline
    /// semaphores enabled on the device; fkc_context_vulkan_timeline).
    pub fn vulkan_timeline(&self) -> bool {
        // SAFETY: raw is a live context.
        unsafe { ffi::fkc_context_vulkan_timeline(self.raw) }
    }

    /// The offset alignment of a borrowed buffer range ([`Buffer::from_vulkan`]).
    pub fn vulkan_buffer_alignment(&self) -> u64 {
        // SAFETY: raw is a live context.
        unsafe { ffi::fkc_vulkan_buffer_alignment(self.raw) }
    }

    /// A stream over a command buffer of this context's device that the host has begun
    /// (fkc_stream_wrap_vulkan): ops are appended to it; fkc never begins, ends, submits,
    /// waits for or resets it, and the stream's `submit` is refused (FKC_ERR_STATE): the host
    /// submits the command buffer. The barriers the host owns: [`Stream::vulkan_barrier_in`],
    /// [`Stream::vulkan_barrier_out`] and docs/runtime.md.
    ///
    /// # Safety
    /// `cmd` is a live command buffer of this context's device in the recording state, from a
    /// pool of a queue family with compute, recorded only through this stream while the stream
    /// records (and not while another thread records into a command buffer of its pool). The
    /// host keeps every buffer and kernel that an op recorded here names alive until the
    /// command buffer's work has completed (a Rust borrow ends with the stream, the GPU work later),
    /// and does not submit a command buffer an op failed half-way into (the stream then
    /// refuses further ops with FKC_ERR_STATE). The stream is dropped only once that work has
    /// completed or the command buffer was reset or freed: on a device without push
    /// descriptors it holds the descriptor sets the recorded ops use.
    pub unsafe fn stream_over_vulkan(&self, cmd: ffi::VkCommandBuffer) -> Result<Stream<'_>> {
        let mut raw = ptr::null_mut();
        check(ffi::fkc_stream_wrap_vulkan(self.raw, cmd, &mut raw))?;
        Ok(Stream::new(raw, true))
    }

    /// The runtime's handle, for calls of `ffi` the safe API does not cover (the context
    /// stays the caller's: never pass it to fkc_context_destroy).
    pub fn as_raw(&self) -> *mut ffi::fkc_context {
        self.raw
    }

    /// Validation-layer messages received so far (with `validation`).
    pub fn validation_count(&self) -> u64 {
        // SAFETY: raw is a live context.
        unsafe { ffi::fkc_context_validation_count(self.raw) }
    }

    /// The last validation message, or "".
    pub fn validation_last(&self) -> String {
        // SAFETY: raw is a live context.
        c_text(unsafe { ffi::fkc_context_validation_last(self.raw) })
    }

    /// A device buffer of `size` bytes (> 0), contents undefined.
    pub fn buffer(&self, size: u64) -> Result<Buffer<'_>> {
        let mut raw = ptr::null_mut();
        // SAFETY: raw is a live context; create sets raw or leaves it NULL.
        check(unsafe { ffi::fkc_buffer_create(self.raw, size, &mut raw) })?;
        Ok(Buffer::new(raw))
    }

    /// A compute kernel of the caller's (fkc_kernel_create) from a SPIR-V module: entry point
    /// "main", storage buffers only, at bindings 0..n_buffers-1 of set 0, at most `push_size`
    /// bytes of push constants (a multiple of 4). Recorded with [`Stream::dispatch`], ordered
    /// with the built-in ops. Refusals name what is wrong with the module.
    pub fn kernel(&self, spirv: &[u32], n_buffers: u32, push_size: u32) -> Result<Kernel<'_>> {
        let mut raw = ptr::null_mut();
        // SAFETY: raw is a live context; the words are read during the call only.
        check(unsafe {
            ffi::fkc_kernel_create(self.raw, spirv.as_ptr(), spirv.len(), n_buffers, push_size,
                                   &mut raw)
        })?;
        Ok(Kernel { raw, push_size, hold: Arc::new(RawKernel(raw)), _ctx: PhantomData })
    }

    /// A stream that records ops and runs them on `submit`.
    pub fn stream(&self) -> Result<Stream<'_>> {
        let mut raw = ptr::null_mut();
        // SAFETY: raw is a live context.
        check(unsafe { ffi::fkc_stream_create(self.raw, &mut raw) })?;
        Ok(Stream::new(raw, false))
    }

    /// write_slice on a private stream, submitted and waited for.
    pub fn write_slice<T: Element>(&self, src: &Tensor<'_, T>, out: &Tensor<'_, T>,
                                   offsets: &[usize]) -> Result<()> {
        let mut s = self.stream()?;
        s.write_slice(src, out, offsets)?;
        s.submit()
    }

    /// write_slice_rotating on a private stream, submitted and waited for.
    pub fn write_slice_rotating<T: Element>(&self, src: &Tensor<'_, T>, out: &Tensor<'_, T>,
                                            capacity: usize, position: &Buffer<'_>,
                                            position_offset: u64, axis: Option<usize>)
                                            -> Result<()> {
        let mut s = self.stream()?;
        s.write_slice_rotating(src, out, capacity, position, position_offset, axis)?;
        s.submit()
    }
}

impl Context {
    /// set_rows on a private stream, submitted and waited for (Stream::set_rows).
    pub fn set_rows<S: Element, I: Element, D: Element>(&self, src: &Tensor<'_, S>,
                                                         index: &Tensor<'_, I>,
                                                         out: &Tensor<'_, D>,
                                                         slot_axis: Option<usize>,
                                                         status: Option<(&Buffer<'_>, u64)>)
                                                         -> Result<()> {
        let mut s = self.stream()?;
        s.set_rows(src, index, out, slot_axis, status)?;
        s.submit()
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: raw is the caller's hold on a live context; releasing it frees the context
        // (and an owned device) only once every buffer, stream and kernel of it is destroyed,
        // so a forgotten one keeps the device alive.
        unsafe { ffi::fkc_context_destroy(self.raw) }
    }
}

/// The runtime's buffer, destroyed when the last holder lets go: its `Buffer`, and each stream
/// whose recording uses it (so work in flight never outlives it).
struct RawBuffer(*mut ffi::fkc_buffer);

// SAFETY: fkc_runtime.h: a buffer may be used from several threads at once; it is destroyed
// once, by the last Arc (which no other holder can race with).
unsafe impl Send for RawBuffer {}
unsafe impl Sync for RawBuffer {}

impl Drop for RawBuffer {
    fn drop(&mut self) {
        // SAFETY: the last holder: every stream that recorded work with it has dropped its hold,
        // which it does only once that work has completed (or was never submitted).
        unsafe { ffi::fkc_buffer_destroy(self.0) }
    }
}

/// The runtime's kernel, as RawBuffer.
struct RawKernel(*mut ffi::fkc_kernel);

// SAFETY: fkc_runtime.h: a kernel may be used by several streams and threads at once.
unsafe impl Send for RawKernel {}
unsafe impl Sync for RawKernel {}

impl Drop for RawKernel {
    fn drop(&mut self) {
        // SAFETY: as RawBuffer's: no work that uses it can still run.
        unsafe { ffi::fkc_kernel_destroy(self.0) }
    }
}

/// What a stream's recording keeps alive (held, never read: dropping it lets go).
#[allow(dead_code)]
enum Hold {
    Buffer(Arc<RawBuffer>),
    Kernel(Arc<RawKernel>),
}

/// Device memory of a context (fkc's, or a range of the host's VkBuffer). Streams that record
/// work with it hold it too: dropping a `Buffer` frees the device memory only once no
/// recording that uses it can still run.
pub struct Buffer<'c> {
    raw: *mut ffi::fkc_buffer,
    hold: Arc<RawBuffer>,
    _ctx: PhantomData<&'c Context>,
}

// SAFETY: fkc_runtime.h: a buffer may be used by several threads at once (its synchronous
// uploads and downloads too); destroying it (Drop, which takes it by value) cannot race.
unsafe impl Send for Buffer<'_> {}
unsafe impl Sync for Buffer<'_> {}

impl<'c> Buffer<'c> {
    /// An fkc buffer over [offset, offset + size) of the host's VkBuffer
    /// (fkc_buffer_wrap_vulkan): the memory stays the host's; dropping it frees only the
    /// handle. `usage` is what the VkBuffer was created with; it must include
    /// [`ffi::FKC_VULKAN_BUFFER_USAGE`] (else FKC_ERR_UNSUPPORTED); `offset` a multiple of
    /// [`Context::vulkan_buffer_alignment`] and `size` a non-zero multiple of 16 (else
    /// FKC_ERR_INVALID_ARGUMENT).
    ///
    /// # Safety
    /// `buffer` is a live VkBuffer of the context's device, bound to memory, of at least
    /// offset + size bytes, created with `usage`; the host keeps it and its memory alive while
    /// this buffer (and any work recorded with it) lives, and orders its own accesses to the
    /// range with fkc's (docs/runtime.md, "Using fkc inside your own Vulkan device").
    pub unsafe fn from_vulkan(ctx: &'c Context, buffer: ffi::VkBuffer, offset: u64, size: u64,
                              usage: u32) -> Result<Buffer<'c>> {
        let mut raw = ptr::null_mut();
        check(ffi::fkc_buffer_wrap_vulkan(ctx.raw, buffer, offset, size, usage, &mut raw))?;
        Ok(Buffer::new(raw))
    }

    /// Where it lives: its VkBuffer, the offset of its byte 0 there and its size (an owned
    /// buffer may share its VkBuffer with others: use exactly that range).
    pub fn vulkan(&self) -> Result<(ffi::VkBuffer, u64, u64)> {
        let (mut b, mut o, mut n) = (0, 0, 0);
        // SAFETY: raw is a live buffer; the pointers are to locals.
        check(unsafe { ffi::fkc_buffer_vulkan(self.raw, &mut b, &mut o, &mut n) })?;
        Ok((b, o, n))
    }

    /// Whether its memory is the host's (`from_vulkan`).
    pub fn borrowed(&self) -> bool {
        // SAFETY: raw is a live buffer.
        unsafe { ffi::fkc_buffer_borrowed(self.raw) }
    }

    /// The runtime's handle (the buffer stays this value's: never destroy it).
    pub fn as_raw(&self) -> *mut ffi::fkc_buffer {
        self.raw
    }
}

impl Buffer<'_> {
    /// Its size in bytes.
    pub fn size(&self) -> u64 {
        // SAFETY: raw is a live buffer.
        unsafe { ffi::fkc_buffer_size(self.raw) }
    }

    /// Copies `data` to `offset` (synchronous).
    pub fn upload(&self, offset: u64, data: &[u8]) -> Result<()> {
        // SAFETY: data is valid for its length; the runtime checks the range.
        check(unsafe {
            ffi::fkc_buffer_upload(self.raw, offset, data.as_ptr() as *const c_void,
                                   data.len() as u64)
        })
    }

    /// Copies `data.len()` bytes from `offset` into `data` (synchronous).
    pub fn download(&self, offset: u64, data: &mut [u8]) -> Result<()> {
        // SAFETY: data is valid for its length; the runtime checks the range.
        check(unsafe {
            ffi::fkc_buffer_download(self.raw, offset, data.as_mut_ptr() as *mut c_void,
                                     data.len() as u64)
        })
    }
}

impl<'c> Buffer<'c> {
    fn new(raw: *mut ffi::fkc_buffer) -> Buffer<'c> {
        Buffer { raw, hold: Arc::new(RawBuffer(raw)), _ctx: PhantomData }
    }
}

/// A compute kernel of the caller's on a context ([`Context::kernel`]).
pub struct Kernel<'c> {
    raw: *mut ffi::fkc_kernel,
    push_size: u32,
    hold: Arc<RawKernel>,
    _ctx: PhantomData<&'c Context>,
}

// SAFETY: fkc_runtime.h: a kernel may be used by several streams and threads at once;
// destroying it (Drop) cannot race with a use, which borrows it.
unsafe impl Send for Kernel<'_> {}
unsafe impl Sync for Kernel<'_> {}

impl Kernel<'_> {
    /// The module's work-group size.
    pub fn local_size(&self) -> [u32; 3] {
        let mut size = [0u32; 3];
        // SAFETY: raw is a live kernel; size holds three words.
        unsafe { ffi::fkc_kernel_local_size(self.raw, size.as_mut_ptr()) };
        size
    }

    /// The bytes of push constants each dispatch passes.
    pub fn push_size(&self) -> u32 {
        self.push_size
    }
}


/// One storage-buffer binding of a dispatch: `range` bytes at `offset` of `buffer`.
#[derive(Clone, Copy)]
pub struct BufferRange<'b, 'c> {
    /// The buffer.
    pub buffer: &'b Buffer<'c>,
    /// Bytes from its start (a multiple of the device's min_storage_buffer_offset_alignment).
    pub offset: u64,
    /// Bytes bound (> 0).
    pub range: u64,
}

mod sealed {
    pub trait Sealed {}
}

/// An IEEE half-precision value, as its bits (the runtime only moves bytes).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F16(pub u16);

/// A bfloat16 value, as its bits.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BF16(pub u16);

/// The nine element types: f32, i32, u32, F16, BF16, f64, i64, u8, i8.
pub trait Element: Copy + fmt::Debug + sealed::Sealed {
    /// Its dtype.
    const DTYPE: DType;
    /// Appends its little-endian bytes (the device's order).
    fn put_le(self, out: &mut Vec<u8>);
    /// Reads it from little-endian bytes (exactly its size).
    fn get_le(bytes: &[u8]) -> Self;
}

macro_rules! element {
    ($t:ty, $d:ident, $bits:expr, $wrap:expr) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            fn put_le(self, out: &mut Vec<u8>) {
                #[allow(clippy::redundant_closure_call)]
                out.extend_from_slice(&($bits)(self).to_le_bytes());
            }
            fn get_le(bytes: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(bytes);
                ($wrap)(a)
            }
        }
    };
}

element!(f32, F32, |v: f32| v, f32::from_le_bytes);
element!(i32, I32, |v: i32| v, i32::from_le_bytes);
element!(u32, U32, |v: u32| v, u32::from_le_bytes);
element!(F16, F16, |v: F16| v.0, |a| F16(u16::from_le_bytes(a)));
element!(BF16, BF16, |v: BF16| v.0, |a| BF16(u16::from_le_bytes(a)));
element!(f64, F64, |v: f64| v, f64::from_le_bytes);
element!(i64, I64, |v: i64| v, i64::from_le_bytes);
element!(u8, U8, |v: u8| v, u8::from_le_bytes);
element!(i8, I8, |v: i8| v, i8::from_le_bytes);

/// A contiguous row-major tensor of `T` in its own device buffer.
pub struct Tensor<'c, T: Element> {
    buffer: Buffer<'c>,
    raw: ffi::fkc_tensor,
    shape: Vec<usize>,
    _t: PhantomData<T>,
}

// SAFETY: a tensor is a buffer (Send + Sync) and its descriptor, whose raw pointer is that
// buffer's; T is one of the nine plain element types.
unsafe impl<T: Element> Send for Tensor<'_, T> {}
unsafe impl<T: Element> Sync for Tensor<'_, T> {}

/// The element count and byte size of a shape (rank 1..8), checked.
fn shape_bytes(shape: &[usize], size: usize) -> Result<(usize, usize)> {
    if shape.is_empty() || shape.len() > ffi::FKC_MAX_RANK {
        return Err(Error::new(ffi::FKC_ERR_RANK,
                              format!("tensor: rank {} is outside 1..8", shape.len())));
    }
    let count = shape.iter().try_fold(1usize, |n, &e| n.checked_mul(e));
    match count.and_then(|n| n.checked_mul(size).map(|b| (n, b))) {
        Some(nb) => Ok(nb),
        None => Err(Error::new(ffi::FKC_ERR_OVERFLOW, "tensor: byte size overflows")),
    }
}

impl<'c, T: Element> Tensor<'c, T> {
    /// A tensor of `shape` over `buffer` (any fkc buffer, a borrowed one too) from byte
    /// `offset`; the buffer's contents are not touched. FKC_ERR_INVALID_ARGUMENT when it does
    /// not fit in the buffer.
    pub fn from_buffer(buffer: Buffer<'c>, offset: u64, shape: &[usize]) -> Result<Tensor<'c, T>> {
        let (_, bytes) = shape_bytes(shape, T::DTYPE.size())?;
        let size = buffer.size();
        if offset > size || bytes as u64 > size - offset {
            return Err(Error::new(ffi::FKC_ERR_INVALID_ARGUMENT,
                                  format!("tensor: {} bytes at offset {} do not fit the {}-byte \
                                           buffer", bytes, offset, size)));
        }
        let mut dims = [0usize; ffi::FKC_MAX_RANK];
        dims[..shape.len()].copy_from_slice(shape);
        let raw = ffi::fkc_tensor { buffer: buffer.raw, offset, dtype: T::DTYPE as u32,
                                    rank: shape.len() as u32, shape: dims };
        Ok(Tensor { buffer, raw, shape: shape.to_vec(), _t: PhantomData })
    }

    /// Its buffer.
    pub fn buffer(&self) -> &Buffer<'c> {
        &self.buffer
    }

    /// The runtime's descriptor (its buffer stays this tensor's: never destroy it).
    pub fn as_raw(&self) -> ffi::fkc_tensor {
        self.raw
    }

    /// A tensor of `shape` (rank 1..8) holding `data` (row-major, as many elements).
    pub fn from_slice(ctx: &'c Context, shape: &[usize], data: &[T]) -> Result<Tensor<'c, T>> {
        let (count, bytes) = shape_bytes(shape, T::DTYPE.size())?;
        if count != data.len() {
            return Err(Error::new(ffi::FKC_ERR_INVALID_ARGUMENT,
                                  format!("tensor: shape {:?} holds {} elements, data has {}",
                                          shape, count, data.len())));
        }
        let mut le = Vec::with_capacity(bytes);
        for &v in data {
            v.put_le(&mut le);
        }
        let buffer = ctx.buffer(bytes.max(1) as u64)?;
        buffer.upload(0, &le)?;
        Tensor::from_buffer(buffer, 0, shape)
    }

    /// Overwrites its elements with `data` (as many; synchronous).
    pub fn write(&self, data: &[T]) -> Result<()> {
        let count = self.shape.iter().product::<usize>();
        if count != data.len() {
            return Err(Error::new(ffi::FKC_ERR_INVALID_ARGUMENT,
                                  format!("tensor: it holds {} elements, data has {}", count,
                                          data.len())));
        }
        let mut le = Vec::with_capacity(count * T::DTYPE.size());
        for &v in data {
            v.put_le(&mut le);
        }
        self.buffer.upload(self.raw.offset, &le)
    }

    /// Its extents, outermost first.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Its elements' bytes, as the device holds them (little-endian).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let n = self.shape.iter().product::<usize>() * T::DTYPE.size();
        let mut bytes = vec![0u8; n];
        self.buffer.download(self.raw.offset, &mut bytes)?;
        Ok(bytes)
    }

    /// Its elements.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let bytes = self.to_bytes()?;
        Ok(bytes.chunks(T::DTYPE.size()).map(T::get_le).collect())
    }
}

/// Ops recorded on a device, run by `submit` (or `submit_async`, `replay`, `replay_async`);
/// reusable after each: the next op recorded starts a new recording (which first waits for
/// the stream's work in flight). The stream holds every buffer and kernel its recording uses,
/// and the host memory of its downloads, until that work has completed and a new recording
/// begins (or it is dropped, which waits), so nothing it names is freed under the device,
/// whatever happens to the stream or to the caller's values.
pub struct Stream<'r> {
    raw: *mut ffi::fkc_stream,
    borrowed: bool,   // records into the host's command buffer (stream_over_vulkan)
    recording: bool,  // a recording was begun and not yet submitted
    in_flight: bool,  // submitted without waiting, not yet seen complete
    completed: bool,  // the last submitted work of this recording has completed
    generation: u64,  // which recording: a Download names the one it was made in
    holds: Vec<Hold>, // what the recording uses
    downloads: Vec<Box<[u8]>>, // where its downloads land (the runtime writes them on completion)
    _borrows: PhantomData<&'r Context>,
}

// SAFETY: fkc_runtime.h: a stream may be used from any thread, by one thread at a time: so
// Send, and not Sync (two threads holding a &Stream could call it at once). What it holds is
// Send (Arcs of Send + Sync handles, boxed bytes).
unsafe impl Send for Stream<'_> {}

/// A download recorded on a stream ([`Stream::download`]): its bytes, once the recording's
/// work has completed, are [`Stream::downloaded`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Download {
    generation: u64,
    index: usize,
}

/// The link registry entry of (op, dtype) on Vulkan: the contract's entry_point for the op,
/// `_<dtype suffix>`, looked up in the generated `ENTRY_POINTS`.
fn entry_point(op: OpKind, dtype: DType) -> Result<&'static bindings::LinkEntry> {
    let info = bindings::KERNELS
        .iter()
        .find(|k| k.op_kind == op && k.backend == Backend::Vulkan)
        .ok_or_else(|| Error::new(ffi::FKC_ERR_NO_KERNEL,
                                  format!("{}: no Vulkan kernel in the contracts", op.name())))?;
    let symbol = format!("{}_{}", info.entry_point, dtype.suffix());
    bindings::link_lookup_in(&bindings::ENTRY_POINTS, &symbol).ok_or_else(|| {
        Error::new(ffi::FKC_ERR_NO_KERNEL, format!("{}: ENTRY_POINTS has no {}", op.name(), symbol))
    })
}

impl<'r> Stream<'r> {
    fn new(raw: *mut ffi::fkc_stream, borrowed: bool) -> Stream<'r> {
        Stream { raw, borrowed, recording: borrowed, in_flight: false, completed: false,
                 generation: 0, holds: Vec::new(), downloads: Vec::new(), _borrows: PhantomData }
    }

    /// Before an op: an idle owned stream begins a new recording (fkc_stream_begin, which first
    /// waits for the work in flight), and only then lets go of the last recording's holds.
    fn start(&mut self) -> Result<()> {
        if self.recording {
            return Ok(());
        }
        self.begin()
    }

    /// Starts a new recording now, discarding anything recorded and not submitted (its
    /// downloads are never written); waits for the stream's work in flight first. Optional:
    /// an op recorded on an idle stream begins one. A stream over the host's command buffer
    /// refuses (FKC_ERR_STATE: only the host knows when its work has completed).
    pub fn begin(&mut self) -> Result<()> {
        if self.borrowed {
            return Err(Error::new(ffi::FKC_ERR_STATE,
                                  "Stream::begin: the stream records into the host's command \
                                   buffer (the host knows when its work completes)"));
        }
        // SAFETY: raw is a live owned stream; begin waits for its submitted work.
        check(unsafe { ffi::fkc_stream_begin(self.raw) })?;
        // the stream's earlier work has completed: nothing the device runs uses these now
        self.holds.clear();
        self.downloads.clear();
        self.generation += 1;
        self.recording = true;
        self.in_flight = false;
        self.completed = false;
        Ok(())
    }

    fn hold_buffer(&mut self, b: &Buffer<'_>) {
        if !self.holds.iter().any(|h| matches!(h, Hold::Buffer(x) if Arc::ptr_eq(x, &b.hold))) {
            self.holds.push(Hold::Buffer(Arc::clone(&b.hold)));
        }
    }

    /// Records op through its generated link-registry entry and calls the wrapper.
    fn record<T: Element>(&mut self, op: OpKind, src: &Tensor<'_, T>, out: &Tensor<'_, T>,
                          params: OpParams, extra: *const c_void) -> Result<()> {
        let entry = entry_point(op, T::DTYPE)?;
        self.start()?;
        self.hold_buffer(&src.buffer);
        self.hold_buffer(&out.buffer);
        let src_raw = src.raw;
        let mut out_raw = out.raw;
        // SAFETY: the stream, the tensors' buffers and the position buffer are live and held by
        // the stream until the work has completed; the descriptors, and the op's side inputs `extra` points to (or
        // null for an op without any), live across the call.
        let status = unsafe {
            entry.binding.kernel.call(self.raw, &[&src_raw as *const ffi::fkc_tensor],
                                      &[&mut out_raw as *mut ffi::fkc_tensor], Some(&params),
                                      extra)
        };
        match status {
            Some(s) => check(s),
            None => Err(Error::new(ffi::FKC_ERR_INVALID_ARGUMENT,
                                   format!("{}: the kernel of {} takes other params or tensors",
                                           op.name(), entry.symbol))),
        }
    }

    /// write_slice: `src` lands in `out` at `offsets` (one per axis), `out` keeping the rest.
    pub fn write_slice<T: Element>(&mut self, src: &Tensor<'_, T>, out: &Tensor<'_, T>,
                                   offsets: &[usize]) -> Result<()> {
        let params = OpParams::WriteSlice { dst_shape: out.shape.clone(), offsets: offsets.to_vec() };
        self.record(OpKind::WriteSlice, src, out, params, ptr::null())
    }

    /// write_slice_rotating: `out` is a ring of `capacity` along `axis` (None: the one axis
    /// of that extent); source element i along it lands at (position + i) mod capacity, where
    /// position is the little-endian u64 at `position_offset` in `position`, read on the
    /// device when the op runs (so a position written earlier in this stream is seen; see
    /// `fkc_write_slice_rotating` in fkc_runtime.h for when it is read back instead).
    pub fn write_slice_rotating<T: Element>(&mut self, src: &Tensor<'_, T>,
                                            out: &Tensor<'_, T>, capacity: usize,
                                            position: &Buffer<'_>, position_offset: u64,
                                            axis: Option<usize>) -> Result<()> {
        let params = OpParams::WriteSliceRotating { dst_shape: out.shape.clone(), capacity };
        let axis = match axis {
            Some(a) => i32::try_from(a).unwrap_or(i32::MAX),
            None => -1,
        };
        self.start()?;
        self.hold_buffer(position);
        let extra = ffi::fkc_write_slice_rotating_extra { position: position.raw, position_offset,
                                                          axis };
        self.record(OpKind::WriteSliceRotating, src, out, params,
                    &extra as *const ffi::fkc_write_slice_rotating_extra as *const c_void)
    }

    /// set_rows (fkc_set_rows in fkc_runtime.h): for each source row i whose index is >= 0,
    /// slot index[i] of the cache `out` becomes src[i] converted to `out`'s dtype (the same
    /// dtype; F32 -> F16/BF16 rounded to nearest even; F16/BF16 -> F32). The slot is axis 0
    /// (`slot_axis` None) or split over axes 0 and k (`Some(k)`: slot = i0 * extent(k) + ik,
    /// HND caches `[blocks, heads, block_size, dim]` take `Some(2)`). `index` is `[n]` of i32
    /// or i64, read on the device when the op runs; negative indices are skipped, the last row
    /// naming a slot wins, and each index at or past the slots adds 1 to the little-endian u32
    /// at `status.1` of `status.0` (when given) instead of writing.
    pub fn set_rows<S: Element, I: Element, D: Element>(&mut self, src: &Tensor<'_, S>,
                                                         index: &Tensor<'_, I>,
                                                         out: &Tensor<'_, D>,
                                                         slot_axis: Option<usize>,
                                                         status: Option<(&Buffer<'_>, u64)>)
                                                         -> Result<()> {
        self.start()?;
        self.hold_buffer(&src.buffer);
        self.hold_buffer(&index.buffer);
        self.hold_buffer(&out.buffer);
        if let Some((b, _)) = status {
            self.hold_buffer(b);
        }
        let axis = match slot_axis {
            Some(a) => i32::try_from(a).unwrap_or(i32::MAX),
            None => -1,
        };
        let (sb, so) = match status {
            Some((b, o)) => (b.raw, o),
            None => (ptr::null_mut(), 0),
        };
        let mut o = out.raw;
        // SAFETY: the stream, the tensors' buffers and the status buffer are live and held by
        // the stream until its work has completed; the descriptors are read during the call.
        check(unsafe { ffi::fkc_set_rows(self.raw, &src.raw, &index.raw, &mut o, axis, sb, so) })
    }

    /// Records an op of any contract set (a family of the caller's, through its own generated
    /// module): `f` gets the stream and the tensors' descriptors and calls a kernel reference
    /// (`KernelRef::call` of that module) or a wrapper; its status becomes the result (None:
    /// the kernel takes other params or tensors). The stream holds the tensors' buffers, as
    /// for the built-in ops (what else the closure records is the closure's to keep alive).
    pub fn record_with<T, F>(&mut self, inputs: &[&Tensor<'_, T>], outputs: &[&Tensor<'_, T>],
                             f: F) -> Result<()>
    where
        T: Element,
        F: FnOnce(*mut ffi::fkc_stream, &[*const ffi::fkc_tensor], &[*mut ffi::fkc_tensor])
                  -> Option<ffi::fkc_status>,
    {
        self.start()?;
        for t in inputs.iter().chain(outputs.iter()) {
            self.hold_buffer(&t.buffer);
        }
        let ins: Vec<ffi::fkc_tensor> = inputs.iter().map(|t| t.raw).collect();
        let mut outs: Vec<ffi::fkc_tensor> = outputs.iter().map(|t| t.raw).collect();
        let in_ptrs: Vec<*const ffi::fkc_tensor> = ins.iter().map(|t| t as *const _).collect();
        let out_ptrs: Vec<*mut ffi::fkc_tensor> = outs.iter_mut().map(|t| t as *mut _).collect();
        match f(self.raw, &in_ptrs, &out_ptrs) {
            Some(s) => check(s),
            None => Err(Error::new(ffi::FKC_ERR_INVALID_ARGUMENT,
                                   "record_with: the kernel takes other params or tensors")),
        }
    }

    /// Records one dispatch of a kernel of the caller's (fkc_stream_dispatch): `buffers` bound
    /// to bindings 0..n-1 (exactly the kernel's count), `push` its push constants (exactly
    /// its push_size bytes), a grid of `groups` work groups. It runs after every op recorded
    /// before it on the stream and before every op after it. The stream holds the kernel and
    /// buffers until the work has completed.
    pub fn dispatch(&mut self, kernel: &Kernel<'_>, buffers: &[BufferRange<'_, '_>], push: &[u8],
                    groups: [u32; 3]) -> Result<()> {
        self.start()?;
        self.holds.push(Hold::Kernel(Arc::clone(&kernel.hold)));
        for b in buffers {
            self.hold_buffer(b.buffer);
        }
        let ranges: Vec<ffi::fkc_buffer_range> = buffers
            .iter()
            .map(|b| ffi::fkc_buffer_range { buffer: b.buffer.raw, offset: b.offset, range: b.range })
            .collect();
        let push_size = u32::try_from(push.len()).unwrap_or(u32::MAX);
        // SAFETY: the stream, kernel and buffers are live and held by the stream; the ranges and
        // push bytes are read during the call (the runtime checks counts and sizes).
        check(unsafe {
            ffi::fkc_stream_dispatch(self.raw, kernel.raw, ranges.as_ptr(), ranges.len() as u32,
                                     push.as_ptr() as *const c_void, push_size, groups[0],
                                     groups[1], groups[2])
        })
    }

    /// The entry barrier of a borrowed command buffer (fkc_stream_vulkan_barrier_in): from
    /// the host's stages and accesses to fkc's.
    pub fn vulkan_barrier_in(&mut self, src_stages: u32, src_access: u32) -> Result<()> {
        // SAFETY: raw is a live stream.
        check(unsafe { ffi::fkc_stream_vulkan_barrier_in(self.raw, src_stages, src_access) })
    }

    /// The exit barrier (fkc_stream_vulkan_barrier_out): from fkc's writes to the host's
    /// stages and accesses.
    pub fn vulkan_barrier_out(&mut self, dst_stages: u32, dst_access: u32) -> Result<()> {
        // SAFETY: raw is a live stream.
        check(unsafe { ffi::fkc_stream_vulkan_barrier_out(self.raw, dst_stages, dst_access) })
    }

    /// The runtime's handle (the stream stays this value's: never destroy it). What is
    /// recorded through it is not known to this value: the caller keeps the buffers and
    /// kernels it names alive until the work has completed, and records through it only while
    /// a recording begun here is open (after [`Stream::begin`] or an op of this API, before a
    /// submit), since the next op of an idle stream begins a new recording (fkc_stream_begin),
    /// which discards what was recorded behind its back. ([`Stream::record_with`] does both.)
    pub fn as_raw(&mut self) -> *mut ffi::fkc_stream {
        self.raw
    }

    /// Ops recorded since the last begin (the current or the last submitted recording).
    pub fn op_count(&self) -> u32 {
        // SAFETY: raw is a live stream.
        unsafe { ffi::fkc_stream_op_count(self.raw) }
    }

    /// Records a copy of `data` into [offset, offset + data.len()) of `buffer`, in stream
    /// order with the ops (fkc_stream_upload: the bytes are copied now, `data` may be reused at
    /// once). FKC_ERR_OUT_OF_BOUNDS outside the buffer.
    pub fn upload(&mut self, buffer: &Buffer<'_>, offset: u64, data: &[u8]) -> Result<()> {
        self.start()?;
        self.hold_buffer(buffer);
        // SAFETY: the stream and buffer are live (held); data is read during the call only.
        check(unsafe {
            ffi::fkc_stream_upload(self.raw, buffer.raw, offset, data.as_ptr() as *const c_void,
                                   data.len() as u64)
        })
    }

    /// Records a download of `len` bytes from `offset` of `buffer`, in stream order with the
    /// ops (fkc_stream_download): its bytes are [`Stream::downloaded`] once the recording's work
    /// has completed (`submit`, `replay`, or `wait` returning true), until the next recording
    /// begins. The stream owns the memory they land in. FKC_ERR_OUT_OF_BOUNDS outside the
    /// buffer; a stream over the host's command buffer refuses (FKC_ERR_STATE).
    pub fn download(&mut self, buffer: &Buffer<'_>, offset: u64, len: usize) -> Result<Download> {
        self.start()?;
        self.hold_buffer(buffer);
        let mut bytes = vec![0u8; len].into_boxed_slice();
        let at = bytes.as_mut_ptr();
        // kept whatever the call returns: a runtime that recorded part of it may write there
        self.downloads.push(bytes);
        // SAFETY: the stream and buffer are live (held); the bytes are the stream's until the
        // next recording begins (after the work has completed) or it is dropped (which waits).
        check(unsafe {
            ffi::fkc_stream_download(self.raw, buffer.raw, offset, at as *mut c_void, len as u64)
        })?;
        Ok(Download { generation: self.generation, index: self.downloads.len() - 1 })
    }

    /// The bytes of a download of this recording, once its work has completed; FKC_ERR_STATE
    /// before (recorded and not yet submitted, or still in flight) or for a download of an
    /// earlier recording (whose bytes went with it).
    pub fn downloaded(&self, d: &Download) -> Result<&[u8]> {
        if d.generation != self.generation || d.index >= self.downloads.len() {
            return Err(Error::new(ffi::FKC_ERR_STATE,
                                  "Stream::downloaded: the download is of an earlier recording"));
        }
        if !self.completed {
            return Err(Error::new(ffi::FKC_ERR_STATE,
                                  "Stream::downloaded: the recording's work has not completed \
                                   (submit it, or wait until Stream::wait returns true)"));
        }
        Ok(&self.downloads[d.index])
    }

    /// Records a plain copy of `size` bytes from [src_offset, +size) of `src` to
    /// [dst_offset, +size) of `dst` (fkc_stream_copy), in stream order with the ops.
    /// FKC_ERR_OUT_OF_BOUNDS outside a buffer, FKC_ERR_INVALID_ARGUMENT for overlapping ranges.
    pub fn copy(&mut self, dst: &Buffer<'_>, dst_offset: u64, src: &Buffer<'_>, src_offset: u64,
                size: u64) -> Result<()> {
        self.start()?;
        self.hold_buffer(dst);
        self.hold_buffer(src);
        // SAFETY: the stream and both buffers are live (held).
        check(unsafe { ffi::fkc_stream_copy(self.raw, dst.raw, dst_offset, src.raw, src_offset, size) })
    }

    /// Records adding `delta` (mod 2^64) on the device to the little-endian u64 at `offset` (a
    /// multiple of 8) of `position` (fkc_stream_advance), in stream order: with `replay`, a
    /// decode step's rotating writes land at successive ring positions with no upload.
    pub fn advance(&mut self, position: &Buffer<'_>, offset: u64, delta: u64) -> Result<()> {
        self.start()?;
        self.hold_buffer(position);
        // SAFETY: the stream and buffer are live (held).
        check(unsafe { ffi::fkc_stream_advance(self.raw, position.raw, offset, delta) })
    }

    /// Submits what was recorded and returns without waiting (fkc_stream_submit_async); the
    /// stream is then in flight until [`Stream::wait`] returns true (a new recording, `submit`,
    /// `replay` and dropping the stream wait for it first). Work submitted on the context's
    /// queue runs after everything submitted there before it. Safe: the stream holds what the
    /// work uses (a stream `mem::forget`ten in flight leaks it instead of freeing it).
    pub fn submit_async(&mut self) -> Result<()> {
        // SAFETY: raw is a live stream; what its recording uses is held by it.
        let r = check(unsafe { ffi::fkc_stream_submit_async(self.raw) });
        self.submitted(r.is_ok(), false);
        r
    }

    /// Submits with the host's semaphores (fkc_stream_submit_vulkan): the work waits for `wait`
    /// and signals `signal` (timeline values where [`Context::vulkan_timeline`]; 0 for binary
    /// semaphores), and runs as `submit_async` does ([`Stream::wait`] waits for it).
    ///
    /// # Safety
    /// Every semaphore is a live VkSemaphore of the context's device, kept alive by the host
    /// until the work has completed, each wait one that a submission signals (or has signalled),
    /// as Vulkan's rules for vkQueueSubmit require.
    pub unsafe fn submit_with_semaphores(&mut self, wait: &[ffi::fkc_vulkan_semaphore],
                                         signal: &[ffi::fkc_vulkan_semaphore]) -> Result<()> {
        let mut sub = std::mem::MaybeUninit::<ffi::fkc_vulkan_submit>::uninit();
        ffi::fkc_vulkan_submit_init(sub.as_mut_ptr());
        let mut sub = sub.assume_init();
        sub.wait = if wait.is_empty() { ptr::null() } else { wait.as_ptr() };
        sub.wait_count = wait.len() as u32;
        sub.signal = if signal.is_empty() { ptr::null() } else { signal.as_ptr() };
        sub.signal_count = signal.len() as u32;
        let r = check(ffi::fkc_stream_submit_vulkan(self.raw, &sub));
        self.submitted(r.is_ok(), false);
        r
    }

    /// Waits at most `timeout` (None: without a limit) for the stream's submitted work: true
    /// once it has completed (also when nothing is in flight), false when it is still running.
    pub fn wait(&mut self, timeout: Option<std::time::Duration>) -> Result<bool> {
        let ns = timeout.map_or(u64::MAX, |t| u64::try_from(t.as_nanos()).unwrap_or(u64::MAX - 1));
        // SAFETY: raw is a live stream.
        match unsafe { ffi::fkc_stream_wait(self.raw, ns) } {
            ffi::FKC_ERR_TIMEOUT => Ok(false),
            st => {
                check(st)?;
                if self.in_flight {
                    self.in_flight = false;
                    self.completed = true;
                }
                Ok(true)
            }
        }
    }

    /// Runs everything recorded and waits for it (fkc_stream_submit); the stream is then idle
    /// and reusable (a stream over the host's command buffer refuses: FKC_ERR_STATE). With
    /// nothing recorded, it waits for the work in flight, if any.
    pub fn submit(&mut self) -> Result<()> {
        if !self.recording && self.in_flight {
            return self.wait(None).map(|_| ());
        }
        // SAFETY: raw is a live stream; what its recording uses is held by it.
        let r = check(unsafe { ffi::fkc_stream_submit(self.raw) });
        self.submitted(r.is_ok(), true);
        r
    }

    /// Submits the last submitted recording again, as it was recorded (fkc_stream_replay): no
    /// recording, allocation or descriptor update; its ops read their device inputs afresh (a
    /// position a recorded `advance` moved on) and its downloads are written again; waits for
    /// it. FKC_ERR_STATE while recording (submit first), with nothing submitted since the last
    /// begin, or for a stream over the host's command buffer.
    pub fn replay(&mut self) -> Result<()> {
        // SAFETY: raw is a live stream; what the recording uses is still held by it.
        let r = check(unsafe { ffi::fkc_stream_replay(self.raw) });
        if r.is_ok() {
            self.in_flight = false;
            self.completed = true;
        }
        r
    }

    /// `replay` without waiting (fkc_stream_replay_async): in flight until [`Stream::wait`]
    /// returns true.
    pub fn replay_async(&mut self) -> Result<()> {
        // SAFETY: as replay's.
        let r = check(unsafe { ffi::fkc_stream_replay_async(self.raw) });
        if r.is_ok() {
            self.in_flight = true;
            self.completed = false;
        }
        r
    }

    /// After a submit: the recording is over (the runtime's stream is idle again whether the
    /// submit ran or was refused); `waited`: it has completed.
    fn submitted(&mut self, ok: bool, waited: bool) {
        if self.borrowed {
            return;
        }
        self.recording = false;
        self.in_flight = ok && !waited;
        self.completed = ok && waited;
    }

    /// Device time, in seconds, of the last completed work (Vulkan timestamps); None when the
    /// queue has none or nothing has completed (fkc_stream_device_seconds).
    pub fn device_seconds(&self) -> Option<f64> {
        // SAFETY: raw is a live stream.
        let t = unsafe { ffi::fkc_stream_device_seconds(self.raw) };
        if t < 0.0 {
            None
        } else {
            Some(t)
        }
    }

    /// Device commands and barriers recorded since the last begin (fkc/fkc_profiling.h's
    /// counters: what a step costs).
    pub fn command_count(&self) -> (u32, u32) {
        // SAFETY: raw is a live stream.
        unsafe { (ffi::fkc_stream_command_count(self.raw), ffi::fkc_stream_barrier_count(self.raw)) }
    }
}

impl Drop for Stream<'_> {
    fn drop(&mut self) {
        // SAFETY: raw is a live stream; destroying waits for its submitted work, and only then
        // are the holds (buffers, kernels, download memory) let go, after this body.
        unsafe { ffi::fkc_stream_destroy(self.raw) }
    }
}

/// A registry the generated `register_all` fills: one entry per binding, keyed
/// (op, [in, out], backend) + kernel_source; a second registration of a key is refused.
#[derive(Debug, Default)]
pub struct KernelRegistry {
    entries: Vec<RegistryEntry>,
}

/// One registered kernel.
#[derive(Clone, Copy, Debug)]
pub struct RegistryEntry {
    /// The key's op kind.
    pub op: OpKind,
    /// The key's dtypes (one per tensor of its section's key; the default [in, out]).
    pub key: &'static [DType],
    /// The key's backend.
    pub backend: Backend,
    /// The key's kernel_source tag.
    pub kernel_source: &'static str,
    /// The contract's precision.
    pub precision: &'static bindings::Precision,
    /// The wrapper.
    pub kernel: bindings::KernelRef,
}

impl KernelRegistry {
    /// Every binding of the crate's contracts, through `register_all`.
    pub fn with_bindings() -> Result<KernelRegistry> {
        let mut r = KernelRegistry::default();
        bindings::register_all(&mut r)?;
        Ok(r)
    }

    /// The entry of a key, if registered.
    pub fn get(&self, op: OpKind, key: &[DType], backend: Backend, kernel_source: &str)
               -> Option<&RegistryEntry> {
        self.entries.iter().find(|e| {
            e.op == op && e.key == key && e.backend == backend && e.kernel_source == kernel_source
        })
    }

    /// The entries, in registration order.
    pub fn entries(&self) -> &[RegistryEntry] {
        &self.entries
    }
}

impl tables::Registry<bindings::Set> for KernelRegistry {
    type Error = Error;

    fn register_with_precision(&mut self, op: OpKind, key: &'static [DType], backend: Backend,
                               kernel_source: &'static str,
                               precision: &'static bindings::Precision,
                               kernel: bindings::KernelRef) -> Result<()> {
        if self.get(op, key, backend, kernel_source).is_some() {
            let names: Vec<&str> = key.iter().map(|d| d.name()).collect();
            return Err(Error::new(ffi::FKC_ERR_INVALID_ARGUMENT,
                                  format!("{} [{}] on {} ({}) is registered twice", op.name(),
                                          names.join(", "), backend.name(), kernel_source)));
        }
        self.entries.push(RegistryEntry { op, key, backend, kernel_source, precision, kernel });
        Ok(())
    }
}

/// Compile-time checks of the thread model: Context, Buffer, Tensor (and Error) are Send and
/// Sync, Stream is Send and not Sync. A change that breaks one fails to compile the crate.
#[allow(dead_code)]
mod thread_model {
    use super::*;

    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    const _: fn() = || {
        send_sync::<Context>();
        send_sync::<Buffer<'static>>();
        send_sync::<Tensor<'static, f32>>();
        send_sync::<Tensor<'static, BF16>>();
        send_sync::<Error>();
        send_sync::<Kernel<'static>>();
        send::<Stream<'static>>();
    };

    // Stream is not Sync: `_` below has one candidate impl unless Stream is Sync, when it has
    // two and the call is ambiguous (a compile error). (static_assertions' assert_not_impl_any.)
    trait AmbiguousIfSync<A> {
        fn some_item() {}
    }
    impl<T: ?Sized> AmbiguousIfSync<()> for T {}
    struct Invalid;
    impl<T: ?Sized + Sync> AmbiguousIfSync<Invalid> for T {}
    const _: fn() = || {
        let _ = <Stream<'static> as AmbiguousIfSync<_>>::some_item;
    };
}
