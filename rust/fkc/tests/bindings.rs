//! The generated bindings against their sources: `ENTRY_POINTS` holds exactly the symbols
//! `fkcgen dump --json` lists for the crate's contracts; the enums carry the C runtime's
//! values; register_all fills the crate's registry once per binding; the cost functions.
use std::collections::BTreeSet;
use std::ffi::CStr;
use std::process::Command;

use fkc::bindings::{self, Aliasing, KernelRef, LayoutRule, ENTRY_POINTS};
use fkc::{ffi, Backend, DType, KernelRegistry, OpKind, OpParams};

/// The string values of every `"key": "..."` of a JSON text (fkcgen's dump, one key a line);
/// just enough JSON for this test, no crate needed.
fn json_strings(json: &str, key: &str) -> Vec<String> {
    let needle = format!("\"{}\": \"", key);
    let mut out = Vec::new();
    for line in json.lines() {
        if let Some(at) = line.find(&needle) {
            let rest = &line[at + needle.len()..];
            let mut value = String::new();
            let mut chars = rest.chars();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => value.push(chars.next().expect("an escape")),
                    _ => value.push(c),
                }
            }
            out.push(value);
        }
    }
    out
}

fn contracts() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/contracts");
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".md"))
        .collect();
    v.sort();
    v
}

#[test]
fn entry_points_hold_exactly_the_dumped_symbols() {
    let out = Command::new(env!("FKC_FKCGEN"))
        .args(["dump", "--json"])
        .args(contracts())
        .output()
        .expect("fkcgen runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json = String::from_utf8(out.stdout).unwrap();
    let symbols = json_strings(&json, "symbol");
    let dumped: BTreeSet<String> = symbols.iter().cloned().collect();
    assert!(!dumped.is_empty(), "the contracts bind something");
    assert_eq!(dumped.len(), symbols.len(), "each binding has its own symbol");
    let ours: Vec<&str> = ENTRY_POINTS.iter().map(|e| e.symbol).collect();
    let ours_set: BTreeSet<String> = ours.iter().map(|s| s.to_string()).collect();
    assert_eq!(ours_set, dumped);
    assert!(ours.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicate");
    // each symbol maps to the wrapper of its dtype's byte width, as dump says
    let wrappers = json_strings(&json, "wrapper");
    let symbols = json_strings(&json, "symbol");
    for (sym, wrapper) in symbols.iter().zip(&wrappers) {
        let e = bindings::link_lookup(sym).expect("every dumped symbol resolves");
        assert_eq!(e.binding.wrapper, wrapper.as_str());
        assert_eq!(e.binding.symbol, sym.as_str());
        assert_eq!(e.registry, "fuel_vulkan_backend::fkc::ENTRY_POINTS");
        assert!(std::ptr::eq(bindings::link_lookup_in(&ENTRY_POINTS, sym).unwrap(), e));
    }
    assert!(bindings::link_lookup("fuel_vulkan_backend::fkc::write_slice_f17").is_none());
    assert!(bindings::link_lookup("").is_none());
    assert_eq!(bindings::LINK_REGISTRIES.len(), 1);
}

fn c_str(p: *const std::os::raw::c_char) -> Option<String> {
    if p.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string())
    }
}

#[test]
fn enums_carry_the_c_values() {
    for d in DType::ALL {
        assert_eq!(c_str(unsafe { ffi::fkc_dtype_name(d as u32) }).as_deref(), Some(d.name()));
        assert_eq!(unsafe { ffi::fkc_dtype_size(d as u32) }, d.size());
        assert_eq!(DType::from_name(d.name()), Some(d));
    }
    assert_eq!(c_str(unsafe { ffi::fkc_dtype_name(DType::ALL.len() as u32) }), None);
    for b in Backend::ALL {
        assert_eq!(c_str(unsafe { ffi::fkc_backend_name(b as u32) }).as_deref(), Some(b.name()));
    }
    assert_eq!(c_str(unsafe { ffi::fkc_backend_name(Backend::ALL.len() as u32) }), None);
    assert_eq!(OpKind::ALL, [OpKind::WriteSlice, OpKind::WriteSliceRotating]);
    assert_eq!(OpKind::WriteSliceRotating as u32, 1);
}

#[test]
fn register_all_fills_the_registry_once_per_binding() {
    let r = KernelRegistry::with_bindings().unwrap();
    assert_eq!(r.entries().len(), bindings::BINDINGS.len());
    for (e, b) in r.entries().iter().zip(bindings::BINDINGS.iter()) {
        assert_eq!((e.op, e.key, e.backend, e.kernel_source),
                   (b.op_kind, b.dtypes, b.backend, b.kernel_source()));
        assert_eq!(e.kernel.op_kind(), b.op_kind);
        assert!(std::ptr::eq(e.precision, &b.info.precision));
        assert_eq!(e.precision.max_ulp, 0);
    }
    let e = r.get(OpKind::WriteSlice, &[DType::BF16, DType::BF16], Backend::Vulkan, "vulkan-slang")
        .unwrap();
    assert!(matches!(e.kernel, KernelRef::WriteSlice(_)));
    assert!(r.get(OpKind::WriteSlice, &[DType::BF16, DType::BF16], Backend::Vulkan, "other").is_none());
    // a second registration of the same keys is refused, with the runtime's status
    let mut twice = KernelRegistry::with_bindings().unwrap();
    let err = bindings::register_all(&mut twice).unwrap_err();
    assert_eq!(err.status(), ffi::FKC_ERR_INVALID_ARGUMENT);
    assert_eq!(twice.entries().len(), bindings::BINDINGS.len());
    // dispatch agrees with the table
    let b = bindings::dispatch(OpKind::WriteSliceRotating, DType::I8, DType::I8, Backend::Vulkan)
        .unwrap();
    assert_eq!(b.wrapper, "write_slice_rotating_b1");
    assert!(bindings::dispatch(OpKind::WriteSlice, DType::I8, DType::U8, Backend::Vulkan).is_none());
    assert!(bindings::dispatch(OpKind::WriteSlice, DType::I8, DType::I8, Backend::Cuda).is_none());
}

#[test]
fn kernel_ref_refuses_another_ops_params() {
    let e = bindings::link_lookup("fuel_vulkan_backend::fkc::write_slice_f32").unwrap();
    let other = OpParams::WriteSliceRotating { dst_shape: vec![1], capacity: 1 };
    // SAFETY: refused before anything is called, so the null pointers are never read.
    let r = unsafe { e.binding.kernel.call(std::ptr::null_mut(), &[], &[], Some(&other), std::ptr::null()) };
    assert_eq!(r, None);
    assert_eq!(other.op_kind(), OpKind::WriteSliceRotating);
}

/// `OpParams`' `PartialEq` (a table of per-op-kind functions, not derived: issue 27) compares
/// the variant and every field; `OpKind`'s `Debug` is its contract name.
#[test]
fn op_params_equality_and_op_kind_debug() {
    let a = OpParams::WriteSlice { dst_shape: vec![4, 8], offsets: vec![0, 2] };
    assert_eq!(a, a.clone());
    assert_ne!(a, OpParams::WriteSlice { dst_shape: vec![4, 8], offsets: vec![0, 3] });
    assert_ne!(a, OpParams::WriteSlice { dst_shape: vec![4, 9], offsets: vec![0, 2] });
    let r = OpParams::WriteSliceRotating { dst_shape: vec![4, 8], capacity: 2 };
    assert_eq!(r, r.clone());
    assert_ne!(r, OpParams::WriteSliceRotating { dst_shape: vec![4, 8], capacity: 3 });
    assert_ne!(a, r);
    assert_ne!(r, a);
    assert_eq!(format!("{:?}", OpKind::WriteSliceRotating), "WriteSliceRotating");
    assert_eq!(format!("{:?}", OpKind::WriteSlice), OpKind::WriteSlice.name());
}

#[test]
fn tables_carry_every_contract_field() {
    let k = &bindings::KERNELS[1];
    assert_eq!(k.kernel, "write_slice_rotating");
    assert_eq!(k.variant, Some("WriteSliceRotating"));
    assert_eq!(k.fields[1].name, "capacity");
    assert_eq!(k.fields[1].kind, "usize");
    assert_eq!(k.fields[1].note, Some("ring window capacity along the rotating axis"));
    assert_eq!(k.inputs[0].name, "src");
    assert_eq!(k.inputs[0].dtypes.len(), 9);
    assert_eq!(k.inputs[0].layout.contiguous, LayoutRule::Required);
    assert_eq!(k.inputs[0].layout.strided.as_str(), "rejected");
    assert_eq!(k.inputs[0].rank, Some("any"));
    assert_eq!(k.outputs[0].shape_rule, Some("from_params(dst_shape)"));
    assert_eq!(k.outputs[0].aliasing, Aliasing::None);
    assert_eq!(k.outputs[0].dtype_rule_arg, Some("src"));
    assert_eq!(k.caps.alignment_bytes, 16);
    assert_eq!(k.caps.fast_paths[0].when, "all_inputs_contiguous");
    assert_eq!(k.provider.name, "fuel-vulkan-kernels");
    assert_eq!(k.provider.revision_base, "git:f41137b4");
    assert_eq!(k.source_file, "contracts/write_slice.md");
    assert_eq!(k.revision_hash.len(), 32);
    assert!(k.heading.unwrap().starts_with("write_slice_rotating (sliding-window"));
    assert!(k.prose.unwrap().starts_with("The sliding-window (rotating KV-cache) variant of write_slice"));
}

#[test]
fn cost_functions_and_fill_unset_cost() {
    let c = bindings::op_shared_cost(OpKind::WriteSlice).unwrap();
    assert_eq!(c.bytes_moved_expr, Some("2 * n * dtype_bytes"));
    assert_eq!((c.bytes_moved.unwrap())(10, 4, None), 80.0);
    assert_eq!((c.flops.unwrap())(10, 4, None), 0.0);
    let mut table = bindings::BINDINGS.to_vec();
    assert_eq!(bindings::fill_unset_cost_for_backend(&mut table, Backend::Vulkan), 0);
    table[3].cost = &bindings::UNKNOWN_COST;
    table[12].cost = &bindings::UNKNOWN_COST;
    assert_eq!(bindings::fill_unset_cost_for_backend(&mut table, Backend::Cuda), 0);
    assert_eq!(bindings::fill_unset_cost_for_backend(&mut table, Backend::Vulkan), 2);
    assert!(std::ptr::eq(table[12].cost, bindings::op_shared_cost(OpKind::WriteSliceRotating).unwrap()));
}

/// The committed generated/fkc_bindings.rs (from the repo's contracts/) compiles with
/// `-D warnings` against the crate's own ffi.rs (over fkc-sys) and tables.rs, as the crate's
/// OUT_DIR copy does in the crate.
#[test]
fn committed_module_compiles_strictly() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let module = repo.join("generated/fkc_bindings.rs").canonicalize().unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("committed");
    std::fs::create_dir_all(&dir).unwrap();
    let lib = dir.join("lib.rs");
    let sys = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fkc-sys/src/lib.rs");
    std::fs::write(&lib, format!(
        "#![deny(warnings)]\n#[allow(dead_code)]\n#[path = {:?}]\npub mod sys;\n\
         #[allow(dead_code)]\n#[path = {:?}]\npub mod rt;\n\
         #[path = {:?}]\npub mod tables;\n\
         pub mod bindings {{\n    use super::rt;\n    include!({:?});\n}}\n",
        sys.display().to_string(), src.join("ffi.rs").display().to_string(),
        src.join("tables.rs").display().to_string(), module.display().to_string())).unwrap();
    let out = Command::new(env!("FKC_RUSTC"))
        .args(["--edition", "2021", "--crate-type", "lib", "--emit", "metadata", "-D", "warnings",
               "--out-dir"])
        .arg(&dir)
        .arg(&lib)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The generated module refuses to compile beside an `rt` of another runtime interface, with a
/// message that says to regenerate (as the C header does against other fkc headers).
#[test]
fn module_of_another_interface_fails_to_compile() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let module = repo.join("generated/fkc_bindings.rs").canonicalize().unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sys = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fkc-sys/src/lib.rs");
    let ffi = std::fs::read_to_string(sys).unwrap();
    let stale = ffi.replace("pub const FKC_RUNTIME_ABI: i32 = 4;",
                            "pub const FKC_RUNTIME_ABI: i32 = 5;");
    assert_ne!(stale, ffi, "fkc-sys no longer states FKC_RUNTIME_ABI = 4");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("stale");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("sys.rs"), stale).unwrap();
    let lib = dir.join("lib.rs");
    std::fs::write(&lib, format!(
        "#[allow(dead_code)]\n#[path = \"sys.rs\"]\npub mod sys;\n\
         #[allow(dead_code)]\n#[path = {:?}]\npub mod rt;\n#[path = {:?}]\npub mod tables;\n\
         pub mod bindings {{\n    use super::rt;\n    include!({:?});\n}}\n",
        src.join("ffi.rs").display().to_string(), src.join("tables.rs").display().to_string(),
        module.display().to_string())).unwrap();
    let out = Command::new(env!("FKC_RUSTC"))
        .args(["--edition", "2021", "--crate-type", "lib", "--emit", "metadata", "--out-dir"])
        .arg(&dir)
        .arg(&lib)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("these bindings were generated for another fkc runtime interface: \
                          regenerate them with the fkcgen of this runtime (make)"), "{}", err);
}
