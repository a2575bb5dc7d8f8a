//! What every module `fkcgen gen --lang rust` generates shares, written once here (as the C
//! side's `fkc/fkc_tables.h`): the contract schema's vocabularies, the types of the tables'
//! rows and the loops over them (registration, lookups, link registries, the cost fill). A
//! generated module holds only its contracts' data (op kinds, op params, kernel refs, rows) and
//! names this module `rt::tables` (the crate's `ffi` re-exports it). Row types are generic over
//! the contract set's own types through [`Contracts`], which the generated module implements for
//! its `Set`; it names them `Binding`, `KernelInfo`, ... with aliases. Everything here compiles
//! with rustc 1.63 and up, and alone (tests/hostile includes this file into its harness).

/// The schema's vocabularies, in schema order; the generated module refuses to compile when
/// these disagree with the fkcgen that wrote it (its `const _: () = assert!(...)` lines call
/// [`same_names`]).
macro_rules! vocabulary {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $(
                #[doc = concat!("`", $text, "`")]
                $variant,
            )*
        }

        impl $name {
            /// The schema's spellings, in value order.
            pub const NAMES: &'static [&'static str] = &[$($text),*];

            /// The schema's spelling ("" for Unknown).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }
    };
}

vocabulary! {
    /// The schema's determinism values.
    Determinism { Bitwise = "bitwise", Deterministic = "deterministic",
                  Nondeterministic = "nondeterministic", }
}
vocabulary! {
    /// The schema's cost_provenance values; Unknown: the contract states none.
    CostProvenance { Unknown = "", JudgeMeasured = "judge_measured", Analytic = "analytic",
                     Estimated = "estimated", }
}
vocabulary! {
    /// The schema's cost_class values; Unknown: the contract states none.
    CostClass { Unknown = "", CheapElementwise = "cheap_elementwise", Elementwise = "elementwise",
                Reduction = "reduction", Matmul = "matmul", MemoryBound = "memory_bound", }
}
vocabulary! {
    /// The schema's awkward_layout_strategy values.
    LayoutStrategy { RequiresContiguous = "requires_contiguous", NativeStrided = "native_strided",
                     Contiguize = "contiguize", }
}
vocabulary! {
    /// An input's layout key ("layout_req"); Unknown: not stated.
    LayoutRule { Unknown = "", Required = "required", Accepted = "accepted",
                 Rejected = "rejected", }
}
vocabulary! {
    /// The schema's layout_guarantee values.
    LayoutGuarantee { Contiguous = "contiguous", SameAsInput = "same_as_input", }
}
vocabulary! {
    /// The schema's aliasing values.
    Aliasing { None = "none", MayAliasInput = "may_alias_input", InPlace = "in_place", }
}
vocabulary! {
    /// The schema's shape_rule kinds (Unknown: not stated).
    ShapeRule { Unknown = "", FromParams = "from_params", SameAs = "same_as",
                Broadcast = "broadcast", Reduce = "reduce", Matmul = "matmul", Concat = "concat",
                Gather = "gather", Permute = "permute", }
}
vocabulary! {
    /// The backends a contract may name; each value is the C side's `fkc_backend`.
    Backend { Cpu = "Cpu", Vulkan = "Vulkan", Cuda = "Cuda", Metal = "Metal", Wgpu = "Wgpu", }
}
/// The element dtypes, in contract order; each value is the C side's `fkc_dtype`. `Block0`
/// to `Block31` are a contract set's block (quantized) dtypes, `FKC_DTYPE_BLOCK_FIRST` + k on
/// the C side: the generated module names them (`block_dtypes::Q4_0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u32)]
#[allow(missing_docs)]
pub enum DType {
    F32 = 0, I32, U32, F16, BF16, F64, I64, U8, I8, I16 = 16, U16, Bool,
    Block0 = 256, Block1, Block2, Block3, Block4, Block5, Block6, Block7, Block8, Block9,
    Block10, Block11, Block12, Block13, Block14, Block15, Block16, Block17, Block18, Block19,
    Block20, Block21, Block22, Block23, Block24, Block25, Block26, Block27, Block28, Block29,
    Block30, Block31,
}

impl Backend {
    /// Every backend, in schema order.
    pub const ALL: [Backend; 5] =
        [Backend::Cpu, Backend::Vulkan, Backend::Cuda, Backend::Metal, Backend::Wgpu];

    /// The contract name ("Vulkan").
    pub fn name(self) -> &'static str {
        self.as_str()
    }
}

impl DType {
    /// Every dtype of the schema's vocabulary, in value order (no block dtype).
    pub const ALL: [DType; 12] = [DType::F32, DType::I32, DType::U32, DType::F16, DType::BF16,
                                  DType::F64, DType::I64, DType::U8, DType::I8, DType::I16,
                                  DType::U16, DType::Bool];
    /// The schema's spellings, in value order.
    pub const NAMES: &'static [&'static str] =
        &["F32", "I32", "U32", "F16", "BF16", "F64", "I64", "U8", "I8", "I16", "U16", "Bool"];
    /// The byte width of each, in value order.
    pub const SIZES: &'static [usize] = &[4, 4, 4, 2, 2, 8, 8, 1, 1, 2, 2, 1];

    /// The index of a vocabulary dtype in ALL (the C side's values 0 .. 8, then I16 .. Bool
    /// at 16 .. 18); None for a block dtype.
    const fn index(self) -> Option<usize> {
        let v = self as u32 as usize;
        if v < 9 {
            Some(v)
        } else if v >= 16 && v < 19 {
            Some(v - 7)
        } else {
            None
        }
    }

    /// The schema's spelling ("BF16"); "" for a block dtype (its module names it).
    pub fn as_str(self) -> &'static str {
        match self.index() {
            Some(i) => DType::NAMES[i],
            None => "",
        }
    }

    /// The contract name ("BF16"); "" for a block dtype.
    pub fn name(self) -> &'static str {
        self.as_str()
    }

    /// The symbol suffix ("bf16"); "" for a block dtype.
    pub fn suffix(self) -> &'static str {
        match self.index() {
            Some(i) => ["f32", "i32", "u32", "f16", "bf16", "f64", "i64", "u8", "i8", "i16", "u16",
                        "bool"][i],
            None => "",
        }
    }

    /// The byte width of one element; 0 for a block dtype (whose blocks its module states).
    pub const fn size(self) -> usize {
        match self.index() {
            Some(i) => [4, 4, 4, 2, 2, 8, 8, 1, 1, 2, 2, 1][i],
            None => 0,
        }
    }

    /// The dtype of a contract name ("F32"), if any.
    pub fn from_name(name: &str) -> Option<DType> {
        DType::ALL.iter().copied().find(|d| d.name() == name)
    }
}

/// Whether two lists of names are the same, in order: the generated module's compile-time
/// check that this module's vocabularies are those of the schema it was generated from.
pub const fn same_names(have: &[&str], want: &[&str]) -> bool {
    if have.len() != want.len() {
        return false;
    }
    let mut i = 0;
    while i < have.len() {
        let (a, b) = (have[i].as_bytes(), want[i].as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut k = 0;
        while k < a.len() {
            if a[k] != b[k] {
                return false;
            }
            k += 1;
        }
        i += 1;
    }
    true
}

/// Whether two lists of numbers are the same, in order (the check of `DType::SIZES`).
pub const fn same_sizes(have: &[usize], want: &[usize]) -> bool {
    if have.len() != want.len() {
        return false;
    }
    let mut i = 0;
    while i < have.len() {
        if have[i] != want[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A contract set's own types, which its rows hold: the generated module's `Set` implements it.
pub trait Contracts: 'static {
    /// Its op kinds (`OpKind`).
    type OpKind: Copy + Eq + core::fmt::Debug + 'static;
    /// Its op params (`OpParams`).
    type OpParams: 'static;
    /// Its kernel references (`KernelRef`).
    type KernelRef: Copy + 'static;
    /// An op kind's index (its value).
    fn op_index(op: Self::OpKind) -> usize;
}

/// A cost function: `n` is the element count of the first input, `dtype_bytes` its byte width,
/// `params` the op's params (NaN when the expression names a field and they are None or of
/// another op kind).
pub type CostFn<S> = fn(n: u64, dtype_bytes: u64, params: Option<&<S as Contracts>::OpParams>) -> f64;

/// A cost; provenance Unknown is the unknown-cost sentinel (docs/cost.md).
pub struct Cost<S: Contracts> {
    /// Where the figures come from.
    pub provenance: CostProvenance,
    /// The cost class.
    pub class: CostClass,
    /// The flops expression, as written.
    pub flops_expr: Option<&'static str>,
    /// The bytes_moved expression, as written.
    pub bytes_moved_expr: Option<&'static str>,
    /// The flops expression as a function.
    pub flops: Option<CostFn<S>>,
    /// The bytes_moved expression as a function.
    pub bytes_moved: Option<CostFn<S>>,
}

impl<S: Contracts> Cost<S> {
    /// The unknown-cost sentinel.
    pub const UNKNOWN: Self = Cost { provenance: CostProvenance::Unknown, class: CostClass::Unknown,
                                     flops_expr: None, bytes_moved_expr: None, flops: None,
                                     bytes_moved: None };

    /// A row, its fields in order.
    pub const fn new(provenance: CostProvenance, class: CostClass, flops_expr: Option<&'static str>,
                     bytes_moved_expr: Option<&'static str>, flops: Option<CostFn<S>>,
                     bytes_moved: Option<CostFn<S>>) -> Self {
        Cost { provenance, class, flops_expr, bytes_moved_expr, flops, bytes_moved }
    }
}

impl<S: Contracts> Clone for Cost<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Contracts> Copy for Cost<S> {}

/// A tensor as a tensor-term cost function sees it (issue 22: a cost over `n(X)`, `dim(X, k)`,
/// `bytes(X)`; docs/cost.md): `dims` None is an absent optional input (its n, dims and bytes
/// are 0); `block_elems` elements per block (1 for a plain dtype), `block_bytes` bytes per
/// block (a plain dtype's byte width). The C runtime's `fkc_cost_tensor`, in f64 arithmetic.
#[derive(Clone, Copy, Debug)]
pub struct CostTensor<'a> {
    /// The extents, axis 0 first; None: absent.
    pub dims: Option<&'a [u64]>,
    /// Elements per block (1 for a plain dtype).
    pub block_elems: u32,
    /// Bytes per block (a plain dtype's byte width).
    pub block_bytes: u64,
}

impl CostTensor<'_> {
    /// n(X): the product of the extents (1 for rank 0; 0 when absent).
    pub fn n(&self) -> f64 {
        match self.dims {
            None => 0.0,
            Some(d) => d.iter().fold(1.0, |a, &x| a * x as f64),
        }
    }

    /// dim(X, k): the extent on axis k (k < 0 from the end); NaN when there is no axis k; 0
    /// when absent.
    pub fn dim(&self, k: i64) -> f64 {
        match self.dims {
            None => 0.0,
            Some(d) => {
                let r = d.len() as i64;
                let a = if k < 0 { r + k } else { k };
                if a >= 0 && a < r { d[a as usize] as f64 } else { f64::NAN }
            }
        }
    }

    /// bytes(X): n over block_elems, times block_bytes; NaN when block_elems is 0; 0 when
    /// absent.
    pub fn bytes(&self) -> f64 {
        match self.dims {
            None => 0.0,
            Some(_) if self.block_elems == 0 => f64::NAN,
            Some(_) => self.n() / self.block_elems as f64 * self.block_bytes as f64,
        }
    }
}

/// A fast path a kernel takes, and the cost class it then has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastPath {
    /// When it applies ("all_inputs_contiguous").
    pub when: &'static str,
    /// Its cost class.
    pub class: CostClass,
}

impl FastPath {
    /// A row, its fields in order.
    pub const fn new(when: &'static str, class: CostClass) -> Self {
        FastPath { when, class }
    }
}

/// What a kernel can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// How it treats awkward layouts.
    pub awkward_layout_strategy: LayoutStrategy,
    /// Its fast paths.
    pub fast_paths: &'static [FastPath],
    /// Whether it may run in place.
    pub in_place: bool,
    /// Alignment it needs, in bytes.
    pub alignment_bytes: u32,
    /// Granularity of its accesses, in bits.
    pub access_granularity_bits: u32,
}

impl Caps {
    /// A row, its fields in order.
    pub const fn new(awkward_layout_strategy: LayoutStrategy, fast_paths: &'static [FastPath],
                     in_place: bool, alignment_bytes: u32, access_granularity_bits: u32) -> Self {
        Caps { awkward_layout_strategy, fast_paths, in_place, alignment_bytes,
               access_granularity_bits }
    }
}

/// The precision a kernel promises.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    /// Bit-identical results on the same hardware.
    pub bit_stable_on_same_hardware: bool,
    /// Largest error in units in the last place.
    pub max_ulp: u64,
    /// Largest relative error.
    pub max_relative: f64,
    /// Largest absolute error.
    pub max_absolute: f64,
    /// Whether the figures were audited.
    pub audited: bool,
    /// Free text.
    pub notes: Option<&'static str>,
}

impl Precision {
    /// A row, its fields in order.
    pub const fn new(bit_stable_on_same_hardware: bool, max_ulp: u64, max_relative: f64,
                     max_absolute: f64, audited: bool, notes: Option<&'static str>) -> Self {
        Precision { bit_stable_on_same_hardware, max_ulp, max_relative, max_absolute, audited,
                    notes }
    }
}

/// The layout keys of an input (Unknown: not stated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Dense row-major.
    pub contiguous: LayoutRule,
    /// Any strides.
    pub strided: LayoutRule,
    /// Broadcast (stride 0) axes.
    pub broadcast_stride0: LayoutRule,
    /// A start offset.
    pub start_offset: LayoutRule,
    /// Negative strides.
    pub reverse_strides: LayoutRule,
}

impl Layout {
    /// The layout keys, in field order (the schema's: the generated module checks them).
    pub const KEYS: &'static [&'static str] =
        &["contiguous", "strided", "broadcast_stride0", "start_offset", "reverse_strides"];

    /// A row, its fields in order.
    pub const fn new(contiguous: LayoutRule, strided: LayoutRule, broadcast_stride0: LayoutRule,
                     start_offset: LayoutRule, reverse_strides: LayoutRule) -> Self {
        Layout { contiguous, strided, broadcast_stride0, start_offset, reverse_strides }
    }
}

/// An input tensor of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    /// Its name ("src").
    pub name: &'static str,
    /// The dtypes it accepts, in contract order.
    pub dtypes: &'static [DType],
    /// The layouts it accepts.
    pub layout: Layout,
    /// "any" or a number, as written.
    pub rank: Option<&'static str>,
    /// Free text.
    pub shape_constraint: Option<&'static str>,
}

impl Input {
    /// A row, its fields in order.
    pub const fn new(name: &'static str, dtypes: &'static [DType], layout: Layout,
                     rank: Option<&'static str>, shape_constraint: Option<&'static str>) -> Self {
        Input { name, dtypes, layout, rank, shape_constraint }
    }
}

/// An output tensor of a kernel; the rules as written, and their arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    /// Its name ("out").
    pub name: &'static str,
    /// "passthrough(src)".
    pub dtype_rule: Option<&'static str>,
    /// "src": an input.
    pub dtype_rule_arg: Option<&'static str>,
    /// "from_params(dst_shape)".
    pub shape_rule: Option<&'static str>,
    /// "dst_shape": a field, or an input.
    pub shape_rule_arg: Option<&'static str>,
    /// Its layout.
    pub layout_guarantee: LayoutGuarantee,
    /// May it alias an input.
    pub aliasing: Aliasing,
    /// The shape rule's kind.
    pub shape: ShapeRule,
    /// Its operands as written, for broadcast, reduce, matmul, concat, gather and permute
    /// (empty for from_params and same_as: `shape_rule_arg`).
    pub shape_operands: &'static [&'static str],
}

impl Output {
    /// A row, its fields in order.
    pub const fn new(name: &'static str, dtype_rule: Option<&'static str>,
                     dtype_rule_arg: Option<&'static str>, shape_rule: Option<&'static str>,
                     shape_rule_arg: Option<&'static str>, layout_guarantee: LayoutGuarantee,
                     aliasing: Aliasing, shape: ShapeRule,
                     shape_operands: &'static [&'static str]) -> Self {
        Output { name, dtype_rule, dtype_rule_arg, shape_rule, shape_rule_arg, layout_guarantee,
                 aliasing, shape, shape_operands }
    }
}

/// An op_params field of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name ("dst_shape").
    pub name: &'static str,
    /// Its kind ("Vec<usize>").
    pub kind: &'static str,
    /// Free text.
    pub note: Option<&'static str>,
}

impl Field {
    /// A row, its fields in order.
    pub const fn new(name: &'static str, kind: &'static str, note: Option<&'static str>) -> Self {
        Field { name, kind, note }
    }
}

/// The front matter of one contract file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provider {
    /// The provider (kernel package) name.
    pub name: &'static str,
    /// The backend every section registers on.
    pub backend: Backend,
    /// The BindingEntry.kernel_source tag.
    pub kernel_source: &'static str,
    /// The link registry path ("a::b::ENTRY_POINTS").
    pub link_registry: &'static str,
    /// The provider build id.
    pub revision_base: &'static str,
    /// The contract format version.
    pub fkc_version: u64,
    /// The contract's repo-relative path.
    pub file: &'static str,
    /// XXH3-128 of its text, 32 hex digits.
    pub text_hash: Option<&'static str>,
}

impl Provider {
    /// A row, its fields in order.
    #[allow(clippy::too_many_arguments)]
    pub const fn new(name: &'static str, backend: Backend, kernel_source: &'static str,
                     link_registry: &'static str, revision_base: &'static str, fkc_version: u64,
                     file: &'static str, text_hash: Option<&'static str>) -> Self {
        Provider { name, backend, kernel_source, link_registry, revision_base, fkc_version, file,
                   text_hash }
    }
}

/// One kernel section of a contract: every fact it states.
pub struct KernelInfo<S: Contracts> {
    /// The kernel name.
    pub kernel: &'static str,
    /// Its op kind.
    pub op_kind: S::OpKind,
    /// Its backend.
    pub backend: Backend,
    /// Its kernel_source tag.
    pub kernel_source: &'static str,
    /// One line on what it does.
    pub blurb: &'static str,
    /// The base symbol, fanned over the dtypes.
    pub entry_point: &'static str,
    /// Its caps.
    pub caps: Caps,
    /// Its precision.
    pub precision: Precision,
    /// Its determinism.
    pub determinism: Determinism,
    /// Its revision hash, 32 hex digits.
    pub revision_hash: &'static str,
    /// The repo-relative contract path.
    pub source_file: &'static str,
    /// The first line of its fkc block.
    pub source_line: u32,
    /// Its contract file.
    pub provider: &'static Provider,
    /// Its inputs.
    pub inputs: &'static [Input],
    /// Its outputs.
    pub outputs: &'static [Output],
    /// Its op_params variant, if any.
    pub variant: Option<&'static str>,
    /// Its op_params fields.
    pub fields: &'static [Field],
    /// Its cost (the unknown sentinel when it states none).
    pub cost: &'static Cost<S>,
    /// The heading that introduces its section.
    pub heading: Option<&'static str>,
    /// The paragraphs before its block, one line each.
    pub prose: Option<&'static str>,
}

impl<S: Contracts> KernelInfo<S> {
    /// A row, its fields in order.
    #[allow(clippy::too_many_arguments)]
    pub const fn new(kernel: &'static str, op_kind: S::OpKind, backend: Backend,
                     kernel_source: &'static str, blurb: &'static str, entry_point: &'static str,
                     caps: Caps, precision: Precision, determinism: Determinism,
                     revision_hash: &'static str, source_file: &'static str, source_line: u32,
                     provider: &'static Provider, inputs: &'static [Input],
                     outputs: &'static [Output], variant: Option<&'static str>,
                     fields: &'static [Field], cost: &'static Cost<S>,
                     heading: Option<&'static str>, prose: Option<&'static str>) -> Self {
        KernelInfo { kernel, op_kind, backend, kernel_source, blurb, entry_point, caps, precision,
                     determinism, revision_hash, source_file, source_line, provider, inputs,
                     outputs, variant, fields, cost, heading, prose }
    }
}

impl<S: Contracts> Clone for KernelInfo<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Contracts> Copy for KernelInfo<S> {}

/// One binding: key (op_kind, [in, out], backend) + `info.kernel_source` -> a wrapper.
pub struct Binding<S: Contracts> {
    /// The key's op kind.
    pub op_kind: S::OpKind,
    /// The key: one dtype per tensor its section's key names (default [in, out]).
    pub dtypes: &'static [DType],
    /// The key's backend.
    pub backend: Backend,
    /// Its section (its kernel_source is the key's).
    pub info: &'static KernelInfo<S>,
    /// `<entry_point>_<dtype suffix>`.
    pub symbol: &'static str,
    /// `<kernel>_b<byte width>`.
    pub wrapper: &'static str,
    /// The wrapper.
    pub kernel: S::KernelRef,
    /// The dtype's byte width.
    pub byte_width: u32,
    /// Its cost: fill_unset_cost_for_backend upgrades the unknown sentinel.
    pub cost: &'static Cost<S>,
    /// Its precision: its section's, or the `precision_by_dtype` entry of its key.
    pub precision: &'static Precision,
}

impl<S: Contracts> Binding<S> {
    /// A row, its fields in order.
    #[allow(clippy::too_many_arguments)]
    pub const fn new(op_kind: S::OpKind, dtypes: &'static [DType], backend: Backend,
                     info: &'static KernelInfo<S>, symbol: &'static str, wrapper: &'static str,
                     kernel: S::KernelRef, byte_width: u32, cost: &'static Cost<S>,
                     precision: &'static Precision) -> Self {
        Binding { op_kind, dtypes, backend, info, symbol, wrapper, kernel, byte_width, cost,
                  precision }
    }

    /// The key's kernel_source tag.
    pub fn kernel_source(&self) -> &'static str {
        self.info.kernel_source
    }
}

impl<S: Contracts> Clone for Binding<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Contracts> Copy for Binding<S> {}

/// A row of a link registry: a symbol and its binding.
pub struct LinkEntry<S: Contracts> {
    /// `<entry_point>_<dtype suffix>`.
    pub symbol: &'static str,
    /// The registry's path.
    pub registry: &'static str,
    /// Its binding (the kernel ref is `binding.kernel`).
    pub binding: &'static Binding<S>,
}

impl<S: Contracts> LinkEntry<S> {
    /// A row, its fields in order.
    pub const fn new(symbol: &'static str, registry: &'static str,
                     binding: &'static Binding<S>) -> Self {
        LinkEntry { symbol, registry, binding }
    }
}

impl<S: Contracts> Clone for LinkEntry<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Contracts> Copy for LinkEntry<S> {}

/// A value built on its first use, once, whichever thread comes first: the generated module's
/// `BINDINGS`, link registries and `LINK_REGISTRIES`, which it builds from plain rows
/// ([`BindingRow`]) rather than having rustc evaluate a constructor call per binding (std's
/// `LazyLock` is Rust 1.80; this is 1.63's `Once`). For statics: the value is never dropped.
pub struct Lazy<T> {
    once: std::sync::Once,
    init: fn() -> T,
    value: core::cell::UnsafeCell<core::mem::MaybeUninit<T>>,
}

// SAFETY: the value is written once, inside `call_once`, before any reader sees it; after that
// it is only read (shared), so sharing a Lazy is sharing a T, which another thread may have built.
unsafe impl<T: Send + Sync> Sync for Lazy<T> {}

impl<T> Lazy<T> {
    /// A value that `init` builds on the first dereference.
    pub const fn new(init: fn() -> T) -> Self {
        Lazy { once: std::sync::Once::new(), init,
               value: core::cell::UnsafeCell::new(core::mem::MaybeUninit::uninit()) }
    }
}

impl<T> core::ops::Deref for Lazy<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: call_once runs the write at most once and every return from it (here or on
        // another thread) happens after the write completed; a panic in init poisons the Once,
        // so no reader ever sees the uninitialised value.
        self.once.call_once(|| unsafe {
            (*self.value.get()).as_mut_ptr().write((self.init)());
        });
        unsafe { &*(*self.value.get()).as_ptr() }
    }
}

/// One binding as plain data, a row of the generated `BINDING_ROWS`: six integers, indices
/// into its module's tables, `[kernel, key, n_key, wrapper, width, precision]`: its section's
/// row of `KERNELS` (which gives its op kind, backend, cost and kernel_source), where its key
/// starts in `KEY_DTYPES` and its number of slots, its wrapper's row of `WRAPPERS`, the
/// dtype's byte width, and 0 for its section's precision or p for `PRECISIONS[p - 1]` (a
/// `precision_by_dtype` entry). Its symbol is the same row of `SYMBOLS`. An array literal per
/// binding, not a struct literal: the fewest tokens for rustc to read and type (issue 27).
pub type BindingRow = [u32; 6];

/// The bindings of plain `rows` (row i's symbol is `symbols[i]`), built once (a generated
/// module's `BINDINGS`). Panics when an index is out of range, which fkcgen never writes.
pub fn bindings<S: Contracts>(rows: &'static [BindingRow], symbols: &'static [&'static str],
                              kernels: &'static [KernelInfo<S>], keys: &'static [DType],
                              wrappers: &'static [(&'static str, S::KernelRef)],
                              precisions: &'static [&'static Precision]) -> Vec<Binding<S>> {
    assert_eq!(rows.len(), symbols.len(), "one symbol per binding row");
    rows.iter().zip(symbols).map(|(r, &symbol)| {
        let [kernel, key, n_key, wrapper, width, precision] = *r;
        let info = &kernels[kernel as usize];
        let (wrapper, kernel) = wrappers[wrapper as usize];
        let key = key as usize;
        let precision = match precision {
            0 => &info.precision,
            p => precisions[p as usize - 1],
        };
        Binding { op_kind: info.op_kind, dtypes: &keys[key..key + n_key as usize],
                  backend: info.backend, info, symbol, wrapper, kernel, byte_width: width,
                  cost: info.cost, precision }
    }).collect()
}

/// The rows of link registry `registry`: `bindings[i]` for each i of `rows` (sorted by symbol).
pub fn links<S: Contracts>(registry: &'static str, bindings: &'static [Binding<S>],
                           rows: &'static [u32]) -> Vec<LinkEntry<S>> {
    rows.iter().map(|&i| {
        let binding = &bindings[i as usize];
        LinkEntry { symbol: binding.symbol, registry, binding }
    }).collect()
}

/// The caller's registry: `register_all` calls it once per binding, in table order.
pub trait Registry<S: Contracts> {
    /// What a refused registration returns; it stops `register_all`.
    type Error;
    /// Registers `kernel` under the whole key (op, key, backend) + kernel_source.
    fn register_with_precision(&mut self, op: S::OpKind, key: &'static [DType], backend: Backend,
                               kernel_source: &'static str, precision: &'static Precision,
                               kernel: S::KernelRef) -> Result<(), Self::Error>;
}

/// Registers every row, in order; stops at the first error and returns it.
pub fn register_all<S: Contracts, R: Registry<S>>(rows: &'static [Binding<S>], registry: &mut R)
                                                  -> Result<(), R::Error> {
    for b in rows {
        registry.register_with_precision(b.op_kind, b.dtypes, b.backend, b.info.kernel_source,
                                         b.precision, b.kernel)?;
    }
    Ok(())
}

/// The first of `rows` with the whole key (op, key, backend) and, when given, kernel_source
/// (a key of another length or any other slot matches none); the rows of op lie in `span`
/// (its `OP_ROWS` entry).
pub fn find<S: Contracts>(rows: &'static [Binding<S>], span: (usize, usize), op: S::OpKind,
                          key: &[DType], backend: Backend, kernel_source: Option<&str>)
                          -> Option<&'static Binding<S>> {
    rows.get(span.0..span.1)?.iter().find(|b| {
        b.op_kind == op && b.dtypes == key && b.backend == backend
            && kernel_source.map_or(true, |k| b.info.kernel_source == k)
    })
}

/// Binary search of one link registry (sorted by symbol) for a symbol.
pub fn link_lookup_in<S: Contracts>(registry: &'static [LinkEntry<S>], symbol: &str)
                                    -> Option<&'static LinkEntry<S>> {
    match registry.binary_search_by(|e| e.symbol.cmp(symbol)) {
        Ok(i) => Some(&registry[i]),
        Err(_) => None,
    }
}

/// The shared cost of op (`shared[op]`) unless it is the unknown sentinel.
pub fn shared_cost<S: Contracts>(shared: &'static [&'static Cost<S>], op: S::OpKind)
                                 -> Option<&'static Cost<S>> {
    let c = *shared.get(S::op_index(op))?;
    if c.provenance == CostProvenance::Unknown {
        None
    } else {
        Some(c)
    }
}

/// Upgrades every binding of `backend` whose cost is the unknown sentinel to its op kind's
/// shared cost, when it has one; works on a caller's copy of the table. Returns how many.
pub fn fill_cost<S: Contracts>(bindings: &mut [Binding<S>], backend: Backend,
                               shared: &'static [&'static Cost<S>]) -> usize {
    let mut filled = 0;
    for b in bindings.iter_mut() {
        if b.backend != backend || b.cost.provenance != CostProvenance::Unknown {
            continue;
        }
        if let Some(c) = shared_cost(shared, b.op_kind) {
            b.cost = c;
            filled += 1;
        }
    }
    filled
}
