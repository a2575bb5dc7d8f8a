//! build.rs — finds libfkc and links it (the `links = "fkc"` crate: only one in a build).
//!
//! Where fkc is, first match wins:
//! 1. FKC_BUILD_DIR: a build directory of the fkc repository (`make` puts libfkc.a and fkcgen
//!    in build/);
//! 2. the `pkg-config` program (PKG_CONFIG overrides it) finding `fkc` (PKG_CONFIG_PATH for a
//!    prefix of your own): its libdir's libfkc.a and the libraries `--static --libs` lists;
//! 3. build/ of the fkc checkout this crate sits in (rust/fkc-sys/../../build), when it holds
//!    libfkc.a.
//! The fkc found must be this crate's version (fkc_version.h's, which the crate's is): else
//! the build stops, naming both.
//! How it links, first match wins: the environment variable FKC_LINK (`static` or `shared`;
//! anything else stops the build), the crate feature `shared`, else static. Static links
//! libfkc.a (position-independent, so a cdylib works too) and what it needs (pthread, dl): a
//! program runs without libfkc.so on its library path. Shared links libfkc.so (`-lfkc`, from
//! the same directory): the program then needs libfkc.so.N at run time, from a system
//! directory, LD_LIBRARY_PATH or an rpath of its own (cargo passes none for a dependency).
//! Neither links libvulkan: libfkc opens libvulkan.so.1 at run time.
//! For the build scripts of crates that depend on this one: DEP_FKC_FKCGEN (the fkcgen of the
//! same fkc), DEP_FKC_LIBDIR, DEP_FKC_INCLUDE (the headers' directory, when known).
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=FKC_BUILD_DIR");
    println!("cargo:rerun-if-env-changed=FKC_LINK");
    let shared = match env::var("FKC_LINK").ok().as_deref() {
        Some("shared") => true,
        Some("static") => false,
        Some(other) => panic!("fkc-sys: FKC_LINK is '{}': use 'static' (libfkc.a) or 'shared' \
                               (libfkc.so)", other),
        None => env::var_os("CARGO_FEATURE_SHARED").is_some(),
    };
    println!("cargo:rerun-if-env-changed=PKG_CONFIG");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let want = env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let found = match env::var_os("FKC_BUILD_DIR") {
        Some(dir) => build_tree(Path::new(&dir), "FKC_BUILD_DIR"),
        None => match pkg_config() {
            Some(found) => found,
            None => {
                let dir = manifest.join("../../build");
                if dir.join("libfkc.a").is_file() {
                    build_tree(&dir, "the checkout's build/")
                } else {
                    panic!(
                        "fkc-sys: fkc not found: `pkg-config fkc` finds no fkc.pc (install fkc \
                         with `make install` and set PKG_CONFIG_PATH to its lib/pkgconfig), and \
                         FKC_BUILD_DIR is not set (the build/ of an fkc checkout, after `make`)"
                    )
                }
            }
        },
    };
    if found.version != want {
        panic!(
            "fkc-sys: {} is fkc {}, this crate is for fkc {}: use the crates of that fkc \
             (its share/cargo/registry), or build against fkc {}",
            found.what, found.version, want, want
        );
    }
    println!("cargo:rustc-link-search=native={}", found.libdir.display());
    if shared {
        let so = found.libdir.join("libfkc.so");
        if !so.exists() {
            panic!("fkc-sys: FKC_LINK=shared (or the `shared` feature) but {} is missing: \
                    the fkc found has no shared library", so.display());
        }
        println!("cargo:rerun-if-changed={}", so.display());
        println!("cargo:rustc-link-lib=dylib=fkc");
    } else {
        println!("cargo:rerun-if-changed={}", found.libdir.join("libfkc.a").display());
        println!("cargo:rustc-link-lib=static=fkc");
        for lib in &found.libs {
            println!("cargo:rustc-link-lib=dylib={}", lib);
        }
    }
    println!("cargo:link={}", if shared { "shared" } else { "static" });
    println!("cargo:fkcgen={}", found.fkcgen.display());
    println!("cargo:libdir={}", found.libdir.display());
    if let Some(include) = &found.include {
        println!("cargo:include={}", include.display());
    }
}

/// An fkc found: where its library and fkcgen are, its version and the libraries libfkc needs.
struct Found {
    what: String,
    libdir: PathBuf,
    fkcgen: PathBuf,
    include: Option<PathBuf>,
    version: String,
    libs: Vec<String>,
}

/// A build tree: DIR/libfkc.a and DIR/fkcgen (whose `--version` gives the version).
fn build_tree(dir: &Path, what: &str) -> Found {
    for name in ["fkcgen", "libfkc.a"] {
        if !dir.join(name).is_file() {
            panic!(
                "fkc-sys: {} not found at {} ({}): run `make` in the fkc repository first (it \
                 builds build/fkcgen and build/libfkc.a), or point FKC_BUILD_DIR at the \
                 directory that holds them",
                name,
                dir.join(name).display(),
                what
            );
        }
    }
    let dir = dir.canonicalize().expect("the fkc build directory's path");
    let fkcgen = dir.join("fkcgen");
    let out = Command::new(&fkcgen)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| panic!("fkc-sys: cannot run {}: {}", fkcgen.display(), e));
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.trim().strip_prefix("fkcgen ").unwrap_or("(unknown)").to_string();
    let include = dir.join("../runtime/include");
    Found {
        what: format!("the fkc build in {}", dir.display()),
        libdir: dir.clone(),
        fkcgen,
        include: if include.is_dir() { include.canonicalize().ok() } else { None },
        version,
        libs: vec!["pthread".into(), "dl".into()],
    }
}

/// pkg-config's fkc, or None when pkg-config or fkc.pc is missing.
fn pkg_config() -> Option<Found> {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let run = |args: &[&str]| -> Option<String> {
        let out = Command::new(&program).args(args).output().ok()?;
        if !out.status.success() {
            return None;
        }
        Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let version = run(&["--modversion", "fkc"])?;
    let libdir = PathBuf::from(run(&["--variable=libdir", "fkc"])?);
    let fkcgen = PathBuf::from(run(&["--variable=fkcgen", "fkc"])?);
    let include = run(&["--variable=includedir", "fkc"]).map(PathBuf::from);
    // `--static --libs`: -L<libdir> -lfkc and what libfkc.a needs (Vulkan, pthread).
    let libs = run(&["--static", "--libs", "fkc"])?
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("-l"))
        .filter(|l| *l != "fkc")
        .map(String::from)
        .collect();
    if !libdir.join("libfkc.a").is_file() {
        panic!("fkc-sys: pkg-config's fkc {} has no libfkc.a in {}", version, libdir.display());
    }
    Some(Found { what: format!("pkg-config's fkc ({})", libdir.display()), libdir, fkcgen, include,
                 version, libs })
}
