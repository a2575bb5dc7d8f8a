//! build.rs — the crate's bindings from its own contracts, in one fkcgen run and one module
//! (OUT_DIR/rb_bindings.rs, in two parts: `shards(2)` writes rb_bindings_1.rs beside it, which
//! it includes; a crate of thousands of sections is where that helps): two providers, the runtime's write-slice kernels and the Fill
//! family, each with its own link registry (both end in ENTRY_POINTS: each lives in the module
//! its path names, fuel_vulkan_backend_fkc and rust_backend_fill); then the Fill shader compiled
//! to SPIR-V (OUT_DIR/fill.spv) with glslc (GLSLC overrides it). fkc-build prints the
//! rerun-if-changed lines of the contracts; the shader's is here.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    fkc_build::Config::new()
        .prefix("rb")
        .shards(2)
        .compile(&["contracts/write_slice.md", "fill/fill.md"])?;

    let out = PathBuf::from(env::var("OUT_DIR")?);
    let glslc = env::var("GLSLC").unwrap_or_else(|_| "glslc".into());
    println!("cargo:rerun-if-changed=fill/fill.comp");
    println!("cargo:rerun-if-env-changed=GLSLC");
    let ok = Command::new(&glslc)
        .args(["--target-env=vulkan1.1", "-O", "-Werror", "fill/fill.comp", "-o"])
        .arg(out.join("fill.spv"))
        .status()
        .map_err(|e| format!("cannot run {} (Debian: apt-get install glslc): {}", glslc, e))?
        .success();
    if !ok {
        return Err("glslc refused fill/fill.comp (its messages are above)".into());
    }
    Ok(())
}
