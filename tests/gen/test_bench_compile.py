#!/usr/bin/python3
"""test_bench_compile.py FKCGEN — `make bench-gen`'s compile path (scripts/bench-gen.py's
compile_table: gcc and clang -O2 on the generated C, one source and the sources of
`gen --shards 8`, and rustc -O on the Rust module through scripts/rust_lib.py) run on a tiny
corpus of scripts/bench-gen-corpus.py (4 sections), so that a compile path broken as issue 27
found it (rustc: `unresolved import crate::sys`) fails `make test`, not only a benchmark run.
Also the Rust module of tests/fkcgen/fuzz_accepted/extremes.md (every numeric field at its
extremes) compiled the same way. Run from the repository root (make test-gen)."""
import importlib.util, os, subprocess, sys, tempfile

FKCGEN = sys.argv[1] if len(sys.argv) > 1 else "build/fkcgen"
spec = importlib.util.spec_from_file_location("bench_gen", "scripts/bench-gen.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
sys.path.insert(0, "scripts")
import rust_lib  # noqa: E402

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print("ok %s" % name if ok else "FAIL %s: %s" % (name, detail))
    passed += ok
    failed += not ok


with tempfile.TemporaryDirectory() as work:
    paths = bench.corpus(work, 4)
    subprocess.run([FKCGEN, "gen", "--out-dir", os.path.join(work, "out4"), "--lang", "rust"]
                   + paths, check=True)
    subprocess.run([FKCGEN, "gen", "--out-dir", os.path.join(work, "out4")] + paths, check=True)
    try:
        lines, figures = bench.compile_table(os.path.abspath(FKCGEN), work, [(4, paths)])
        g, c, r, rd = figures[4]
        check("bench compile path: gcc, clang, rustc -O and rustc (debug) on 4 sections",
              g[0] > 0 and c[0] > 0 and r is not None and r[0] > 0 and rd is not None
              and rd[0] > 0, repr(figures[4]))
        check("bench compile path: the shard sources", (4, "shards") in figures, repr(figures))
        check("bench compile path: one table row", sum(l.startswith("| 4 |") for l in lines) == 1,
              "\n".join(lines))
    except SystemExit as e:  # measured() exits on a compiler failure, with its message
        check("bench compile path", False, str(e))
    out = os.path.join(work, "ext")
    subprocess.run([FKCGEN, "gen", "--lang", "rust", "--out-dir", out,
                    "tests/fkcgen/fuzz_accepted/extremes.md"], check=True)
    argv, env = rust_lib.lib_crate(os.path.join(out, "fkc_bindings.rs"), work, "ext_lib")
    p = subprocess.run(argv, env=env, capture_output=True, text=True)
    check("extremes.md's Rust module compiles (rustc -D warnings)", p.returncode == 0,
          p.stderr[-2000:])
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
