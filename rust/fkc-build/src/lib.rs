//! fkc-build — generates a crate's Rust bindings from its own fkc contracts, at build time.
//! Call it from the crate's `build.rs` (fkc-build is a build-dependency):
//!
//! ```no_run
//! fkc_build::Config::new().prefix("cb").compile(&["contracts/fill.md"]).unwrap();
//! ```
//!
//! runs `fkcgen gen --lang rust --prefix cb` on the contracts (paths relative to the crate's
//! root, which is also fkcgen's `--root`) into `OUT_DIR/cb_bindings.rs`, with a depfile, and
//! prints `cargo:rerun-if-changed` for every contract and fkcgen itself (from the depfile), so
//! that a contract edit reruns the build script and nothing else does. fkcgen rewrites only an
//! output whose bytes change. Include the module where `rt` names `fkc::ffi` (with your own
//! wrappers beside it, for an op family of your own; docs/consumers.md, "## 11"):
//!
//! ```ignore
//! mod cb {
//!     use fkc::ffi as rt;
//!     include!(concat!(env!("OUT_DIR"), "/cb_bindings.rs"));
//! }
//! ```
//!
//! `Config::shards(n)` writes the module in n parts (`fkcgen gen --shards n`) that the module
//! `include!`s from beside itself; the `include!` above stays as it is:
//!
//! ```no_run
//! fkc_build::Config::new().prefix("cb").shards(4).compile(&["contracts/fill.md"]).unwrap();
//! ```
//!
//! Several providers, each compiled with its own prefix, build into one crate: one module each,
//! each with its own link registry. fkcgen is the one of the fkc this crate belongs to, found
//! (first match) by `Config::fkcgen`, the FKCGEN variable, FKC_BUILD_DIR/fkcgen (an fkc build
//! tree), or `pkg-config --variable=fkcgen fkc` (an installed fkc; PKG_CONFIG_PATH), the same
//! order fkc-sys finds libfkc in; its version must be this crate's.
use std::env;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// This crate's version: fkc's (fkc_version.h), which the fkcgen found must report.
pub const FKC_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why nothing was generated; its text says what to do.
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn err<T>(msg: String) -> Result<T, Error> {
    Err(Error(msg))
}

/// What to generate: the prefix of the generated names and file, where, with which fkcgen.
#[derive(Clone, Debug, Default)]
pub struct Config {
    prefix: Option<String>,
    out_dir: Option<PathBuf>,
    fkcgen: Option<PathBuf>,
    root: Option<PathBuf>,
    shards: Option<usize>,
    quiet: bool,
}

impl Config {
    /// The defaults: prefix `fkc`, OUT_DIR, fkcgen as the crate docs say, the crate's root.
    pub fn new() -> Config {
        Config::default()
    }

    /// The prefix of the generated file (`<prefix>_bindings.rs`) and names; fkcgen checks it
    /// (lower-case letters, digits and `_`; docs/consumers.md, "Two providers").
    pub fn prefix(&mut self, prefix: &str) -> &mut Config {
        self.prefix = Some(prefix.to_string());
        self
    }

    /// Where to write (default: OUT_DIR).
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Config {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The fkcgen to run (default: see the crate docs).
    pub fn fkcgen(&mut self, path: impl AsRef<Path>) -> &mut Config {
        self.fkcgen = Some(path.as_ref().to_path_buf());
        self
    }

    /// The directory relative contracts are found in and named from in the generated banner
    /// (default: CARGO_MANIFEST_DIR).
    pub fn root(&mut self, dir: impl AsRef<Path>) -> &mut Config {
        self.root = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Writes the module in `n` parts (`fkcgen gen --shards n`, 1 to 64; default one file):
    /// `<prefix>_bindings.rs`, which `include!`s `<prefix>_bindings_1.rs` ..
    /// `<prefix>_bindings_<n-1>.rs` from beside itself, so the crate includes the one file as
    /// before; the same module, each part smaller (docs/generated-code.md, "Rust shards").
    /// fkcgen removes the parts an earlier run with more shards left.
    pub fn shards(&mut self, n: usize) -> &mut Config {
        self.shards = Some(n);
        self
    }

    /// Prints no cargo: lines (for use outside a build script).
    pub fn quiet(&mut self, quiet: bool) -> &mut Config {
        self.quiet = quiet;
        self
    }

    /// Runs fkcgen on the contracts; returns the generated module's path. fkcgen's messages
    /// (file:line:col) go to stderr, which cargo shows when the build script fails.
    pub fn compile<P: AsRef<Path>>(&self, contracts: &[P]) -> Result<PathBuf, Error> {
        let say = |line: String| {
            if !self.quiet {
                println!("{}", line);
            }
        };
        if contracts.is_empty() {
            return err("fkc-build: no contract given to compile".into());
        }
        let root = match &self.root {
            Some(r) => r.clone(),
            None => match env::var_os("CARGO_MANIFEST_DIR") {
                Some(d) => PathBuf::from(d),
                None => env::current_dir().map_err(|e| Error(format!("fkc-build: {}", e)))?,
            },
        };
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => match env::var_os("OUT_DIR") {
                Some(d) => PathBuf::from(d),
                None => return err("fkc-build: OUT_DIR is not set (call compile from a build \
                                    script, or give Config::out_dir)".into()),
            },
        };
        let prefix = self.prefix.clone().unwrap_or_else(|| "fkc".into());
        for var in ["FKCGEN", "FKC_BUILD_DIR", "PKG_CONFIG", "PKG_CONFIG_PATH"] {
            say(format!("cargo:rerun-if-env-changed={}", var));
        }
        let fkcgen = match &self.fkcgen {
            Some(f) => f.clone(),
            None => find_fkcgen()?,
        };
        check_version(&fkcgen)?;
        fs::create_dir_all(&out_dir)
            .map_err(|e| Error(format!("fkc-build: cannot create {}: {}", out_dir.display(), e)))?;
        if let Some(n) = self.shards {
            if !(1..=64).contains(&n) {
                return err(format!("fkc-build: shards({}): give a number from 1 to 64", n));
            }
        }
        let depfile = out_dir.join(format!("{}_bindings.d", prefix));
        let shards = self.shards.map(|n| n.to_string());
        let status = Command::new(&fkcgen)
            .current_dir(&root)
            .args(["gen", "--lang", "rust", "--prefix", &prefix, "--root"])
            .arg(&root)
            .args(shards.iter().flat_map(|n| ["--shards", n.as_str()]))
            .arg("--out-dir")
            .arg(&out_dir)
            .arg("--depfile")
            .arg(&depfile)
            .args(contracts.iter().map(|c| c.as_ref()))
            .status()
            .map_err(|e| Error(format!("fkc-build: cannot run {}: {}", fkcgen.display(), e)))?;
        // Every contract given, even when fkcgen refused it: an edit then reruns the script.
        for c in contracts {
            say(format!("cargo:rerun-if-changed={}", root.join(c.as_ref()).display()));
        }
        if !status.success() {
            return err(format!("fkc-build: fkcgen refused the contracts (its messages are \
                                above); nothing generated for prefix {}", prefix));
        }
        let text = fs::read_to_string(&depfile)
            .map_err(|e| Error(format!("fkc-build: {}: {}", depfile.display(), e)))?;
        // The rule's targets are the module and every part (--shards): one run wrote them all
        // from these prerequisites, so the same lines rerun the script for all of them.
        for dep in depfile_prerequisites(&text)? {
            let path = Path::new(&dep);
            let path = if path.is_absolute() { path.to_path_buf() } else { root.join(path) };
            say(format!("cargo:rerun-if-changed={}", path.display()));
        }
        Ok(out_dir.join(format!("{}_bindings.rs", prefix)))
    }
}

/// The fkcgen of the fkc in use: FKCGEN, FKC_BUILD_DIR/fkcgen, or pkg-config's.
pub fn find_fkcgen() -> Result<PathBuf, Error> {
    if let Some(f) = env::var_os("FKCGEN") {
        return Ok(PathBuf::from(f));
    }
    if let Some(dir) = env::var_os("FKC_BUILD_DIR") {
        let f = Path::new(&dir).join("fkcgen");
        if !f.is_file() {
            return err(format!("fkc-build: fkcgen not found at {}: run `make` in the fkc \
                                repository first, or point FKC_BUILD_DIR at its build/",
                               f.display()));
        }
        return Ok(f);
    }
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    match Command::new(&program).args(["--variable=fkcgen", "fkc"]).output() {
        Ok(out) if out.status.success() && !out.stdout.is_empty() => {
            Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
        }
        _ => err("fkc-build: fkcgen not found: `pkg-config --variable=fkcgen fkc` names none \
                  (install fkc and set PKG_CONFIG_PATH to its lib/pkgconfig), and neither \
                  FKCGEN nor FKC_BUILD_DIR is set".into()),
    }
}

/// Refuses an fkcgen of another version than this crate's.
fn check_version(fkcgen: &Path) -> Result<(), Error> {
    let out = Command::new(fkcgen)
        .arg("--version")
        .output()
        .map_err(|e| Error(format!("fkc-build: cannot run {}: {}", fkcgen.display(), e)))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.trim().strip_prefix("fkcgen ").unwrap_or("");
    if version != FKC_VERSION {
        return err(format!("fkc-build: {} is fkcgen {:?}, this fkc-build is of fkc {}: use the \
                            crates of the fkc you build with", fkcgen.display(), text.trim(),
                           FKC_VERSION));
    }
    Ok(())
}

/// The prerequisites of the first rule of a make depfile as fkcgen writes it: `\ ` and `\#`
/// stand for a space and '#', `$$` for '$', a backslash-newline continues the line.
pub fn depfile_prerequisites(text: &str) -> Result<Vec<String>, Error> {
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
        Some(i) => Ok(words.split_off(i + 1)),
        None => err(format!("fkc-build: the depfile fkcgen wrote has no rule:\n{}", text)),
    }
}

#[cfg(test)]
mod tests {
    use super::depfile_prerequisites;

    #[test]
    fn depfile_words() {
        let d = "out/a_bindings.rs: contracts/x\\ y.md c/\\#h.md \\\n  /usr/bin/fkc$$gen\n\nc/x:\n";
        assert_eq!(depfile_prerequisites(d).unwrap(), ["contracts/x y.md", "c/#h.md", "/usr/bin/fkc$gen"]);
        assert!(depfile_prerequisites("no rule").is_err());
        // gen --shards: the module and its parts are the rule's targets
        let d = "o/a_bindings.rs o/a_bindings_1.rs o/a_bindings_2.rs: \\\n  c/x.md \\\n  /f/fkcgen\n";
        assert_eq!(depfile_prerequisites(d).unwrap(), ["c/x.md", "/f/fkcgen"]);
    }
}
