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
#![deny(missing_docs)]

use std::ffi::CStr;
use std::fmt;
use std::marker::PhantomData;
use std::os::raw::{c_char, c_void};
use std::ptr;

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

/// A Vulkan device opened by the runtime. Buffers, streams and tensors borrow it.
pub struct Context {
    raw: *mut ffi::fkc_context,
}

impl Context {
    /// A context on the default device.
    pub fn new() -> Result<Context> {
        Context::with_options(&ContextOptions::default())
    }

    /// A context with options.
    pub fn with_options(options: &ContextOptions) -> Result<Context> {
        // SAFETY: a constant the library defines. Reading it makes the link need the symbol of
        // the interface the crate was written for: a libfkc of another fails to link.
        // (The generated module checks its own interface against ffi's at compile time.)
        let _interface = unsafe { ptr::read_volatile(&ffi::fkc_runtime_abi_2) };
        let mut o = std::mem::MaybeUninit::<ffi::fkc_context_options>::uninit();
        let mut raw = ptr::null_mut();
        // SAFETY: options_init fills the whole struct; create reads it and sets raw.
        let status = unsafe {
            ffi::fkc_context_options_init(o.as_mut_ptr());
            let mut o = o.assume_init();
            if options.validation {
                o.flags |= ffi::FKC_CONTEXT_VALIDATION;
            }
            if let Some(i) = options.device_index {
                o.device_index = i32::try_from(i).unwrap_or(i32::MAX);
            }
            ffi::fkc_context_create(&o, &mut raw)
        };
        check(status)?;
        Ok(Context { raw })
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
        Ok(Buffer { raw, _ctx: PhantomData })
    }

    /// A stream that records ops and runs them on `submit`.
    pub fn stream(&self) -> Result<Stream<'_>> {
        let mut raw = ptr::null_mut();
        // SAFETY: raw is a live context.
        check(unsafe { ffi::fkc_stream_create(self.raw, &mut raw) })?;
        Ok(Stream { raw, _borrows: PhantomData })
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

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: buffers and streams borrow the context, so they are gone.
        unsafe { ffi::fkc_context_destroy(self.raw) }
    }
}

/// Device memory of a context.
pub struct Buffer<'c> {
    raw: *mut ffi::fkc_buffer,
    _ctx: PhantomData<&'c Context>,
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

impl Drop for Buffer<'_> {
    fn drop(&mut self) {
        // SAFETY: streams that recorded work on it borrow it, so that work was submitted or
        // dropped.
        unsafe { ffi::fkc_buffer_destroy(self.raw) }
    }
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

impl<'c, T: Element> Tensor<'c, T> {
    /// A tensor of `shape` (rank 1..8) holding `data` (row-major, as many elements).
    pub fn from_slice(ctx: &'c Context, shape: &[usize], data: &[T]) -> Result<Tensor<'c, T>> {
        if shape.is_empty() || shape.len() > ffi::FKC_MAX_RANK {
            return Err(Error::new(ffi::FKC_ERR_RANK,
                                  format!("tensor: rank {} is outside 1..8", shape.len())));
        }
        let count = shape.iter().try_fold(1usize, |n, &e| n.checked_mul(e));
        let bytes = count.and_then(|n| n.checked_mul(T::DTYPE.size()));
        let bytes = match bytes {
            Some(b) => b,
            None => return Err(Error::new(ffi::FKC_ERR_OVERFLOW, "tensor: byte size overflows")),
        };
        if count != Some(data.len()) {
            return Err(Error::new(ffi::FKC_ERR_INVALID_ARGUMENT,
                                  format!("tensor: shape {:?} holds {} elements, data has {}",
                                          shape, count.unwrap_or(0), data.len())));
        }
        let mut le = Vec::with_capacity(bytes);
        for &v in data {
            v.put_le(&mut le);
        }
        let buffer = ctx.buffer(bytes.max(1) as u64)?;
        buffer.upload(0, &le)?;
        let mut dims = [0usize; ffi::FKC_MAX_RANK];
        dims[..shape.len()].copy_from_slice(shape);
        let raw = ffi::fkc_tensor {
            buffer: buffer.raw,
            offset: 0,
            dtype: T::DTYPE as u32,
            rank: shape.len() as u32,
            shape: dims,
        };
        Ok(Tensor { buffer, raw, shape: shape.to_vec(), _t: PhantomData })
    }

    /// Its extents, outermost first.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Its elements' bytes, as the device holds them (little-endian).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let n = self.shape.iter().product::<usize>() * T::DTYPE.size();
        let mut bytes = vec![0u8; n];
        self.buffer.download(0, &mut bytes)?;
        Ok(bytes)
    }

    /// Its elements.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let bytes = self.to_bytes()?;
        Ok(bytes.chunks(T::DTYPE.size()).map(T::get_le).collect())
    }
}

/// Ops recorded on a device, run together by `submit`. Everything an op reads or writes is
/// borrowed until the stream is submitted or dropped ('r), so nothing it names is freed first.
pub struct Stream<'r> {
    raw: *mut ffi::fkc_stream,
    _borrows: PhantomData<&'r Context>,
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
    /// Records op through its generated link-registry entry and calls the wrapper.
    fn record<T: Element>(&mut self, op: OpKind, src: &Tensor<'_, T>, out: &Tensor<'_, T>,
                          params: OpParams, extra: *const c_void) -> Result<()> {
        let entry = entry_point(op, T::DTYPE)?;
        let src_raw = src.raw;
        let mut out_raw = out.raw;
        // SAFETY: the stream, the tensors' buffers and the position buffer are live and
        // borrowed for 'r; the descriptors, and the op's side inputs `extra` points to (or
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
    pub fn write_slice<T: Element>(&mut self, src: &'r Tensor<'_, T>, out: &'r Tensor<'_, T>,
                                   offsets: &[usize]) -> Result<()> {
        let params = OpParams::WriteSlice { dst_shape: out.shape.clone(), offsets: offsets.to_vec() };
        self.record(OpKind::WriteSlice, src, out, params, ptr::null())
    }

    /// write_slice_rotating: `out` is a ring of `capacity` along `axis` (None: the one axis
    /// of that extent); source element i along it lands at (position + i) mod capacity, where
    /// position is the little-endian u64 at `position_offset` in `position`, read on the
    /// device when the op runs (so a position written earlier in this stream is seen; see
    /// `fkc_write_slice_rotating` in fkc_runtime.h for when it is read back instead).
    pub fn write_slice_rotating<T: Element>(&mut self, src: &'r Tensor<'_, T>,
                                            out: &'r Tensor<'_, T>, capacity: usize,
                                            position: &'r Buffer<'_>, position_offset: u64,
                                            axis: Option<usize>) -> Result<()> {
        let params = OpParams::WriteSliceRotating { dst_shape: out.shape.clone(), capacity };
        let axis = match axis {
            Some(a) => i32::try_from(a).unwrap_or(i32::MAX),
            None => -1,
        };
        let extra = ffi::fkc_write_slice_rotating_extra { position: position.raw, position_offset,
                                                          axis };
        self.record(OpKind::WriteSliceRotating, src, out, params,
                    &extra as *const ffi::fkc_write_slice_rotating_extra as *const c_void)
    }

    /// Ops recorded since the last submit.
    pub fn op_count(&self) -> u32 {
        // SAFETY: raw is a live stream.
        unsafe { ffi::fkc_stream_op_count(self.raw) }
    }

    /// Runs everything recorded and waits for it.
    pub fn submit(self) -> Result<()> {
        // SAFETY: raw is a live stream; Drop destroys it afterwards.
        check(unsafe { ffi::fkc_stream_submit(self.raw) })
    }
}

impl Drop for Stream<'_> {
    fn drop(&mut self) {
        // SAFETY: raw is a live stream; destroying waits for submitted work.
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
    /// The key's [in, out] dtypes.
    pub key: [DType; 2],
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
    pub fn get(&self, op: OpKind, key: [DType; 2], backend: Backend, kernel_source: &str)
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

    fn register_with_precision(&mut self, op: OpKind, key: &[DType; 2], backend: Backend,
                               kernel_source: &'static str,
                               precision: &'static bindings::Precision,
                               kernel: bindings::KernelRef) -> Result<()> {
        if self.get(op, *key, backend, kernel_source).is_some() {
            return Err(Error::new(ffi::FKC_ERR_INVALID_ARGUMENT,
                                  format!("{} [{}, {}] on {} ({}) is registered twice", op.name(),
                                          key[0].name(), key[1].name(), backend.name(),
                                          kernel_source)));
        }
        self.entries.push(RegistryEntry { op, key: *key, backend, kernel_source, precision, kernel });
        Ok(())
    }
}
