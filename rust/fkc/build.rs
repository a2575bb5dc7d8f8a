//! build.rs — generates the crate's bindings from its own contracts (contracts/*.md) with
//! fkc-build: `fkcgen gen --lang rust` into OUT_DIR/fkc_bindings.rs (which src/lib.rs
//! includes), `cargo:rerun-if-changed` for each contract and fkcgen (from its depfile) and for
//! the contracts directory (a contract added or removed): only those rerun this script, not an
//! edit of the crate's sources. fkcgen is the one fkc-build finds (FKCGEN, FKC_BUILD_DIR, or
//! an installed fkc's through pkg-config), else build/fkcgen of the fkc checkout the crate sits
//! in; fkc-sys links the runtime library.
use std::env;
use std::fs;
use std::path::Path;

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let contracts = contracts(Path::new(&manifest));
    println!("cargo:rerun-if-changed=contracts");
    // fkc-build's order (FKCGEN, FKC_BUILD_DIR, pkg-config), then the build/ of the fkc
    // checkout this crate sits in, as fkc-sys finds libfkc.
    let checkout = Path::new(&manifest).join("../../build/fkcgen");
    let fkcgen = match fkc_build::find_fkcgen() {
        Ok(f) => f,
        Err(_) if env::var_os("FKC_BUILD_DIR").is_none() && env::var_os("FKCGEN").is_none()
                  && checkout.is_file() => checkout,
        Err(e) => panic!("{}", e),
    };
    if let Err(e) = fkc_build::Config::new().fkcgen(&fkcgen).compile(&contracts) {
        panic!("{}", e);
    }
    // For the tests: the fkcgen that made the bindings, and the compiler (hostile-names test).
    println!("cargo:rustc-env=FKC_FKCGEN={}", fkcgen.display());
    println!("cargo:rustc-env=FKC_RUSTC={}", env::var("RUSTC").unwrap_or_else(|_| "rustc".into()));
}

/// The crate's contracts: contracts/*.md, sorted, relative to the crate.
fn contracts(manifest: &Path) -> Vec<String> {
    let dir = manifest.join("contracts");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("fkc: cannot read {}: {}", dir.display(), e))
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("contracts/{}", name))
        .collect();
    names.sort();
    if names.is_empty() {
        panic!("fkc: {} holds no contract (*.md)", dir.display());
    }
    names
}
