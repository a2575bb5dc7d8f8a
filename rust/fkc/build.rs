//! build.rs — generates the crate's bindings from its own contracts and links the fkc runtime.
//!
//! 1. Runs `fkcgen gen --lang rust` on `contracts/*.md` into OUT_DIR (fkc_bindings.rs, which
//!    src/lib.rs includes), with a depfile.
//! 2. Turns the depfile's prerequisites (the contracts and fkcgen itself) into
//!    `cargo:rerun-if-changed` lines, plus the contracts directory (a contract added or removed)
//!    and the runtime library: only those rerun this script, not an edit of the crate's sources.
//! 3. Links build/libfkc.a (the repo's `make`), Vulkan and pthread.
//!
//! Where the repo's build lives: FKC_BUILD_DIR (default: ../../build from this crate, as the
//! repo's Makefile lays it out); fkcgen: FKCGEN (default: FKC_BUILD_DIR/fkcgen).
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-env-changed=FKC_BUILD_DIR");
    println!("cargo:rerun-if-env-changed=FKCGEN");
    let build_dir = match env::var_os("FKC_BUILD_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => manifest.join("../../build"),
    };
    let fkcgen = match env::var_os("FKCGEN") {
        Some(path) => PathBuf::from(path),
        None => build_dir.join("fkcgen"),
    };
    let lib = build_dir.join("libfkc.a");
    for (what, path) in [("fkcgen", &fkcgen), ("the runtime library", &lib)] {
        if !path.is_file() {
            panic!(
                "fkc: {} not found at {}: run `make` in the fkc repository first (it builds \
                 build/fkcgen and build/libfkc.a), or set FKC_BUILD_DIR to the directory that \
                 holds them (FKCGEN for fkcgen alone)",
                what,
                path.display()
            );
        }
    }
    let fkcgen = fkcgen.canonicalize().expect("fkcgen's path");
    let build_dir = build_dir.canonicalize().expect("FKC_BUILD_DIR's path");

    let contracts = contracts(&manifest);
    println!("cargo:rerun-if-changed=contracts");
    let depfile = out_dir.join("fkc_bindings.d");
    let status = Command::new(&fkcgen)
        .current_dir(&manifest)
        .args(["gen", "--lang", "rust", "--out-dir"])
        .arg(&out_dir)
        .arg("--depfile")
        .arg(&depfile)
        .args(&contracts)
        .status()
        .unwrap_or_else(|e| panic!("fkc: cannot run {}: {}", fkcgen.display(), e));
    if !status.success() {
        panic!("fkc: fkcgen refused the crate's contracts (its messages are above); nothing generated");
    }
    let text = fs::read_to_string(&depfile).expect("fkcgen writes the depfile");
    for dep in depfile_prerequisites(&text) {
        let path = Path::new(&dep);
        let path = if path.is_absolute() { path.to_path_buf() } else { manifest.join(path) };
        println!("cargo:rerun-if-changed={}", path.display());
    }
    println!("cargo:rerun-if-changed={}", build_dir.join("libfkc.a").display());

    println!("cargo:rustc-link-search=native={}", build_dir.display());
    println!("cargo:rustc-link-lib=static=fkc");
    println!("cargo:rustc-link-lib=dylib=vulkan");
    println!("cargo:rustc-link-lib=dylib=pthread");
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

/// The prerequisites of the first rule of a make depfile as fkcgen writes it: `\ ` and `\#`
/// stand for a space and '#', `$$` for '$', a backslash-newline continues the line.
fn depfile_prerequisites(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some(' ') | Some('#')) => word.push(chars.next().unwrap_or(' ')),
            '\\' if chars.peek() == Some(&'\n') => {
                chars.next();
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            '$' if chars.peek() == Some(&'$') => {
                chars.next();
                word.push('$');
            }
            ' ' | '\t' | '\n' => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                if c == '\n' {
                    break; // the end of the first rule
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    match words.iter().position(|w| w.ends_with(':')) {
        Some(i) => words.split_off(i + 1),
        None => panic!("fkc: the depfile fkcgen wrote has no rule:\n{}", text),
    }
}
