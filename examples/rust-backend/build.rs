//! build.rs — the crate's bindings, one module per provider, from its own contracts: the
//! runtime's write-slice kernels (OUT_DIR/rb_bindings.rs) and the Fill family
//! (OUT_DIR/fill_bindings.rs), each with its own link registry; then the Fill shader compiled
//! to SPIR-V (OUT_DIR/fill.spv) with glslc (GLSLC overrides it). fkc-build prints the
//! rerun-if-changed lines of the contracts; the shader's is here.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    fkc_build::Config::new().prefix("rb").compile(&["contracts/write_slice.md"])?;
    fkc_build::Config::new().prefix("fill").compile(&["fill/fill.md"])?;

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
