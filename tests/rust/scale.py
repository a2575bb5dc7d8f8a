#!/usr/bin/python3
"""scale.py FKCGEN [SECTIONS] — the Rust module of a 2,000-section corpus
(scripts/bench-gen-corpus.py: one op kind per section, 9 dtypes each: 18,000 bindings) built by
`cargo test --offline` in a crate over the fkc crate (scripts/rust_lib.py cargo_crate), as a
backend builds it (issue 27: the macro-per-row module took 886 MB of rustc at 1,000 sections
and did not finish at 10,000). Its unit tests pin the built tables to `fkcgen dump --json` of
the same corpus: the count, sampled rows (first, last, 2^k, every 1,000th) field by field, and
for every binding its symbol, link registry entry, whole-key dispatch (a key of another dtype,
another length, another backend: None), wrapper's op kind and byte width. Prints its CPU time.
Run from the repository root with FKC_BUILD_DIR and CARGO_TARGET_DIR set (make check-rust)."""
import json, os, resource, subprocess, sys, tempfile

sys.path.insert(0, "scripts")
import rust_lib  # noqa: E402

FKCGEN = sys.argv[1] if len(sys.argv) > 1 else "build/fkcgen"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
CARGO = os.environ.get("CARGO", "cargo")


def rust_str(s):
    return json.dumps(s)  # the corpus' strings are ASCII: a JSON string is a Rust literal


def sample_checks(bindings):
    idx = sorted({0, len(bindings) - 1} | {2 ** k for k in range(20) if 2 ** k < len(bindings)}
                 | set(range(0, len(bindings), 1000)))
    lines = []
    for i in idx:
        b = bindings[i]
        lines.append("        check(%d, %s, &[%s], %s, %s, %d);"
                     % (i, rust_str(b["op_kind"]), ", ".join("DType::" + d for d in b["dtypes"]),
                        rust_str(b["symbol"]), rust_str(b["wrapper"]), b["byte_width"]))
    return "\n".join(lines)


TEST = r"""    use crate::bindings::*;

    fn check(i: usize, op: &str, key: &[DType], symbol: &str, wrapper: &str, width: u32) {
        let b = &BINDINGS[i];
        assert_eq!((b.op_kind.name(), b.dtypes, b.symbol, b.wrapper, b.byte_width),
                   (op, key, symbol, wrapper, width), "row {}", i);
        assert_eq!(b.backend, Backend::Vulkan);
    }

    #[test]
    fn rows_are_the_dump() {
        assert_eq!(BINDINGS.len(), %(bindings)d);
        assert_eq!(KERNELS.len(), %(sections)d);
%(samples)s
    }

    #[test]
    fn every_binding_is_found_by_its_symbol_and_its_whole_key() {
        for b in BINDINGS.iter() {
            assert!(b.symbol.starts_with(b.info.entry_point), "{}", b.symbol);
            assert_eq!(&b.symbol[b.info.entry_point.len()..],
                       format!("_{}", b.dtypes[0].suffix()));
            assert!(std::ptr::eq(link_lookup(b.symbol).unwrap().binding, b), "{}", b.symbol);
            assert!(std::ptr::eq(dispatch_key(b.op_kind, b.dtypes, b.backend).unwrap(), b));
            assert!(std::ptr::eq(dispatch(b.op_kind, b.dtypes[0], b.dtypes[1], b.backend).unwrap(), b));
            let other = if b.dtypes[0] == DType::F32 { DType::I32 } else { DType::F32 };
            assert!(dispatch_key(b.op_kind, &[other, other][..], b.backend)
                .map_or(true, |o| o.dtypes != b.dtypes && o.op_kind == b.op_kind));
            assert!(dispatch_key(b.op_kind, &[b.dtypes[0], other], b.backend).is_none());
            assert!(dispatch_key(b.op_kind, &[b.dtypes[0]], b.backend).is_none());
            assert!(dispatch_key(b.op_kind, &[b.dtypes[0], b.dtypes[0], b.dtypes[0]], b.backend)
                .is_none());
            assert!(dispatch_key(b.op_kind, b.dtypes, Backend::Cuda).is_none());
            assert_eq!(b.kernel.op_kind(), b.op_kind);
            assert_eq!(b.byte_width as usize, b.dtypes[0].size());
            assert!(std::ptr::eq(b.precision, &b.info.precision));
        }
        assert!(link_lookup("fuel_vulkan_backend::fkc::k99999_f32").is_none());
        assert_eq!(LINK_REGISTRIES.len(), 1);
        assert_eq!(LINK_REGISTRIES[0].1.len(), BINDINGS.len());
    }
"""

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print("ok %s" % name if ok else "FAIL %s: %s" % (name, detail))
    passed += ok
    failed += not ok


with tempfile.TemporaryDirectory() as work:
    corpus = subprocess.run([sys.executable, "scripts/bench-gen-corpus.py",
                             "contracts/vulkan/write_slice.md", str(N), os.path.join(work, "c")],
                            check=True, stdout=subprocess.PIPE, text=True).stdout.split()
    out = os.path.join(work, "out")
    subprocess.run([FKCGEN, "gen", "--lang", "rust", "--out-dir", out] + corpus, check=True)
    dump = json.loads(subprocess.run([FKCGEN, "dump", "--json"] + corpus, check=True,
                                     stdout=subprocess.PIPE).stdout)
    bindings = dump["bindings"]
    module = os.path.join(out, "fkc_bindings.rs")
    body = TEST % {"bindings": len(bindings), "sections": N, "samples": sample_checks(bindings)}
    manifest = rust_lib.cargo_crate(module, work, "scale_%d" % N, body)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([CARGO, "test", "--offline", "--quiet", "--manifest-path", manifest],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(p.stdout[-4000:])
    check("cargo test --offline of the %d-section module (%d bindings, %.1f MiB of Rust)"
          % (N, len(bindings), os.path.getsize(module) / 2**20), p.returncode == 0,
          "exit %d" % p.returncode)
    check("its two table tests ran and passed", "test result: ok. 2 passed" in p.stdout,
          "no 'test result: ok. 2 passed'")
    print("scale.py: cargo test CPU %.1f s (user + system, cargo and its children; the fkc "
          "crates too when the target dir is fresh), peak RSS of the largest %.0f MiB"
          % (cpu, after.ru_maxrss / 1024.0))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
