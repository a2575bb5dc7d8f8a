"""rust_lib.py — a generated Rust module compiled by rustc alone, as rust/fkc compiles it: a
library crate holding the module beside the fkc crate's `tables` and `ffi` modules and the
fkc-sys crate's C API as `sys` (what `ffi` re-exports), with the module's own wrappers
(`<kernel>_b<width>`) declared in its `rt`. Used by scripts/bench-gen.py (rustc's time) and
scripts/accepted-compile.py (accepted means its Rust compiles too)."""
import os
import re

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def wrapper_decls(text, define=False):
    """The extern declarations, in an `rt` module's body, of the wrappers (`<kernel>_b<width>`)
    a generated module's text names that fkc-sys does not declare; with define, stand-ins
    defined in Rust instead (a linked program has no such C functions), each returning
    FKC_ERR_NO_KERNEL."""
    sys_src = os.path.join(ROOT, "rust/fkc-sys/src/lib.rs")
    declared = set(re.findall(r"(?m)^\s*([a-z][a-z0-9_]*_b[1248]) = \"", open(sys_src).read()))
    wrappers = sorted(set(re.findall(r"\b[a-z][a-z0-9_]*_b[1248]\b", text)) - declared)
    decls = "".join("        pub fn %s(stream: *mut fkc_stream, src: *const fkc_tensor, "
                    "out: *mut fkc_tensor, params: *const c_void, extra: *const c_void) "
                    "-> fkc_status;\n" % w for w in wrappers)
    if define:
        return "    use std::os::raw::c_void;\n" + "".join(
            "    pub unsafe extern \"C\" fn %s(_: *mut fkc_stream, _: *const fkc_tensor, "
            "_: *mut fkc_tensor, _: *const c_void, _: *const c_void) -> fkc_status {\n"
            "        FKC_ERR_NO_KERNEL\n    }\n" % w for w in wrappers) if wrappers else ""
    if decls:
        decls = "    use std::os::raw::c_void;\n    extern \"C\" {\n%s    }\n" % decls
    return decls


def cargo_crate(module, workdir, name, test_body=""):
    """Writes a Cargo package WORKDIR/NAME whose library includes MODULE as `bindings` over the
    fkc crate (a path dependency on rust/fkc: what a backend crate does), the wrappers the
    module names declared in its `rt`, and TEST_BODY as its unit tests; returns its manifest."""
    root = os.path.join(workdir, name)
    os.makedirs(os.path.join(root, "src"), exist_ok=True)
    with open(os.path.join(root, "Cargo.toml"), "w", encoding="utf-8") as fh:
        fh.write("[package]\nname = \"%s\"\nversion = \"0.0.0\"\nedition = \"2021\"\n"
                 "publish = false\n\n[dependencies]\nfkc = { path = \"%s\" }\n\n[workspace]\n"
                 % (name, os.path.join(ROOT, "rust/fkc")))
    text = open(module, encoding="utf-8").read()
    with open(os.path.join(root, "src/lib.rs"), "w", encoding="utf-8") as fh:
        fh.write("#![deny(warnings)]\n#![allow(dead_code)]\npub mod rt {\n    pub use fkc::ffi::*;\n%s}\n"
                 "pub mod bindings {\n    use crate::rt;\n    include!(\"%s\");\n}\n"
                 "#[cfg(test)]\nmod tests {\n%s}\n"
                 % (wrapper_decls(text, define=True), os.path.abspath(module), test_body))
    return os.path.join(root, "Cargo.toml")


def lib_crate(module, workdir, name="gen_lib", extra=()):
    """Writes WORKDIR/NAME.rs around MODULE; returns (rustc argv without -O, environment).
    EXTRA: the other files of a sharded module (`gen --lang rust --shards N`), which MODULE
    includes: the wrappers they name are declared too."""
    src = os.path.join(ROOT, "rust/fkc/src")
    sys_src = os.path.join(ROOT, "rust/fkc-sys/src/lib.rs")
    decls = wrapper_decls("".join(open(f, encoding="utf-8").read() for f in [module] + list(extra)))
    lib = os.path.join(workdir, name + ".rs")
    with open(lib, "w", encoding="utf-8") as fh:
        fh.write("#![allow(dead_code)]\n#[path = \"%s\"] pub mod sys;\n"
                 "#[path = \"%s/tables.rs\"] pub mod tables;\n"
                 "#[path = \"%s/ffi.rs\"] pub mod ffi;\n"
                 "pub mod rt {\n    pub use crate::ffi::*;\n%s}\n"
                 "pub mod bindings {\n    use crate::rt;\n    include!(\"%s\");\n}\n"
                 % (sys_src, src, src, decls, os.path.abspath(module)))
    env = dict(os.environ, CARGO_PKG_VERSION="0.0.0")  # fkc-sys reads it (env!)
    argv = ["rustc", "--edition", "2021", "--crate-type", "rlib", "-D", "warnings", lib,
            "-o", os.path.join(workdir, name + ".rlib")]
    return argv, env
