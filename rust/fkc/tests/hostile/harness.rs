// harness.rs — compiled by tests/hostile.rs with `rustc --test -D warnings`, around the module
// fkcgen generates from hostile.md (FKC_HOSTILE_RS names it): the module must compile without
// a warning, every hostile string must read back byte for byte, and the keyword-named items
// must work. Test-only wrappers stand in for the runtime's. It must build under edition 2021
// (rustc 1.63 and up) and 2024 alike.
#![deny(warnings)]

/// What every generated module shares: the crate's own tables module, as it is.
#[allow(dead_code)]
#[path = "../../src/tables.rs"]
pub mod tables;

/// What the generated module names `rt::...`: the runtime's types, and test-only wrappers for
/// the kernels of hostile.md that return a digest of what they were given.
#[allow(non_camel_case_types, dead_code)]
pub mod rt {
    use std::ffi::c_void;

    #[repr(C)]
    pub struct fkc_stream {
        _opaque: [u8; 0],
    }
    #[repr(C)]
    pub struct fkc_buffer {
        _opaque: [u8; 0],
    }
    #[repr(C)]
    pub struct fkc_tensor {
        pub buffer: *mut fkc_buffer,
        pub offset: u64,
        pub dtype: u32,
        pub rank: u32,
        pub shape: [usize; 8],
    }
    pub type fkc_status = u32;
    pub const FKC_RUNTIME_ABI: i32 = 4;
    pub use crate::tables;

    #[allow(unused_unsafe)] // needed from edition 2024, unused before
    unsafe fn type_wrapper(w: u32, params: *const c_void) -> fkc_status {
        let p = unsafe { &*(params as *const crate::bindings::ops::r#type::Params) };
        let dyn_sum: i64 = unsafe { std::slice::from_raw_parts(p.r#dyn, p.dyn_len) }.iter().sum();
        w * 1000 + p.r#type as u32 * 100 + p.match_len as u32 * 10 + p.r#async as u32
            + (dyn_sum + p.None + p.Some as i64 + p.Vec as i64 + p.rt as i64) as u32
    }

    macro_rules! type_wrappers {
        ($($name:ident = $w:expr),*) => {$(
            #[allow(unused_unsafe)]
            pub unsafe extern "C" fn $name(_s: *mut fkc_stream, _i: *const fkc_tensor,
                                           _o: *mut fkc_tensor, p: *const c_void,
                                           _e: *const c_void) -> fkc_status {
                unsafe { type_wrapper($w, p) }
            }
        )*};
    }
    type_wrappers!(match_b1 = 1, match_b4 = 4, match_b8 = 8);

    pub unsafe extern "C" fn gen_b1(_s: *mut fkc_stream, a: *const fkc_tensor,
                                    b: *const fkc_tensor, _o: *mut fkc_tensor, p: *const c_void,
                                    _e: *const c_void) -> fkc_status {
        (a as usize + b as usize) as u32 + p.is_null() as u32 * 7
    }
}

pub mod bindings {
    use super::rt;
    include!(env!("FKC_HOSTILE_RS"));
}

const SRC: &str = "src \" ` ``` </code> \\u{0} \\\\";

#[test]
fn hostile_strings_read_back() {
    let k = &bindings::KERNELS[1];
    assert_eq!(k.kernel, "match");
    assert_eq!(k.blurb, "blurb \"quoted\" */ #[doc = \"x\"] /* \\ back\\slash\n```\nfn evil() {}\n```\n    indented code\n<b>bold</b> &amp; [x] \u{202e} bidi caf\u{e9} \r end");
    assert_eq!(k.kernel_source, SRC);
    assert_eq!(k.inputs[0].shape_constraint, Some("*/ } #![deny(unsafe_code)] ```\ncode\n```"));
    assert_eq!(k.fields[0].note, Some("note */ #[cfg(x)] \"q\" \\ ``` \n next"));
    assert_eq!(k.precision.notes, Some("notes */ \"); } fn x() { //\\ \u{2066} ```"));
    assert_eq!(k.precision.max_relative, 1.0e-30);
    // the heading as the front end reads it: cmark's text of it (code spans, HTML dropped)
    assert_eq!(k.heading, Some("match rust fn main() {}  alert(1) link */ #[test]"));
    // the paragraphs before the block as the front end reads them: their text, one line each
    assert_eq!(k.prose, Some("Prose with code and fences */ #[test] html a & \\ end, indented on \
                              a continuation line.\nA second paragraph: fn main() {}  --> * ` [ < done"));
    let p = &bindings::PROVIDERS[0];
    assert_eq!(p.name, "evil \"provider\" */ #[cfg(any())] \\ end");
    assert_eq!(p.revision_base, "rev\n#![allow(warnings)]\n*/ }");
    assert_eq!(p.link_registry, "evil::type::ENTRY_POINTS");
    for b in bindings::BINDINGS.iter() {
        assert_eq!(b.kernel_source(), SRC);
    }
}

#[test]
fn keyword_names_work() {
    let params = bindings::OpParams::Box {
        r#type: 2,
        r#match: vec![5, 6, 7],
        r#async: true,
        Some: 1.0,
        None: 10,
        r#dyn: vec![100, 200],
        Vec: 3,
        rt: -4,
    };
    assert_eq!(params.op_kind(), bindings::OpKind::Type);
    assert_eq!(bindings::OpKind::ALL, [bindings::OpKind::Async, bindings::OpKind::Type]);
    let e = bindings::link_lookup_in(&bindings::ENTRY_POINTS, "evil::fkc::match_i64").unwrap();
    assert_eq!(e.binding.wrapper, "match_b8");
    let r = unsafe {
        e.binding.kernel.call(std::ptr::null_mut(), &[std::ptr::null()], &[std::ptr::null_mut()],
                              Some(&params), std::ptr::null())
    };
    // 8000 + type 200 + 3 match elements 30 + async 1 + (300 + 10 + 1 + 3 - 4)
    assert_eq!(r, Some(8000 + 200 + 30 + 1 + 310));
    // the params of another op kind, or other tensor counts: no call
    let r = unsafe { e.binding.kernel.call(std::ptr::null_mut(), &[], &[], Some(&params), std::ptr::null()) };
    assert_eq!(r, None);
    // an op without op_params takes any params, and two inputs
    let g = bindings::dispatch(bindings::OpKind::Async, bindings::DType::I8, bindings::DType::I8,
                               bindings::Backend::Vulkan).unwrap();
    let r = unsafe {
        g.kernel.call(std::ptr::null_mut(), &[8 as *const rt::fkc_tensor, 16 as *const rt::fkc_tensor],
                      &[std::ptr::null_mut()], None, std::ptr::null())
    };
    assert_eq!(r, Some(24 + 7));
    // cost: flops = type * 3 + n; bytes_moved = 2 * n * dtype_bytes / (Vec + 1)
    let c = bindings::KERNELS[1].cost;
    assert_eq!((c.flops.unwrap())(5, 4, Some(&params)), 11.0);
    assert_eq!((c.bytes_moved.unwrap())(5, 4, Some(&params)), 10.0);
    assert!((c.flops.unwrap())(5, 4, None).is_nan());
    assert!(bindings::op_shared_cost(bindings::OpKind::Async).is_none());
}
