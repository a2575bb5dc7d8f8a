#!/usr/bin/python3
"""test_bench_compile.py FKCGEN PARSE — `make bench-gen` (scripts/bench-gen.py) run whole on tiny
corpora of scripts/bench-gen-corpus.py (BENCH_GEN_SIZES=2,4 sections, two compiles at a time),
into a copy of docs/benchmarks.md, so that a path of the bench broken as issue 27 found it
(rustc: `unresolved import crate::sys`), or a script error, fails `make test`, not only a
benchmark run. Every compile the bench makes is pinned to have run and to have a row of figures:
gcc -O2 and clang -O2 on the one source and on every source of `gen --shards 8`, rustc (debug)
and rustc -O on the Rust module and on the module of `gen --lang rust --shards 8`; no cell says "not run"; the issue's targets are all listed; the rest of the doc is
left byte for byte. Also the Rust module of tests/fkcgen/fuzz_accepted/extremes.md (every
numeric field at its extremes) compiled as the bench compiles it, with -D warnings.
Run from the repository root (make test-gen)."""
import importlib.util, os, re, subprocess, sys, tempfile, time

FKCGEN = sys.argv[1] if len(sys.argv) > 1 else "build/fkcgen"
PARSE = sys.argv[2] if len(sys.argv) > 2 else "build/bench-gen/bench-gen-parse"
spec = importlib.util.spec_from_file_location("bench_gen", "scripts/bench-gen.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
sys.path.insert(0, "scripts")
import rust_lib  # noqa: E402

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    print("ok %s" % name if ok else "FAIL %s: %s" % (name, detail[-3000:]))
    passed += ok
    failed += not ok


def section(text):
    """The `## fkcgen` section of a doc, and the doc without it."""
    start = text.index("\n## fkcgen\n") + 1
    end = text.find("\n## ", start)
    end = len(text) if end < 0 else end + 1
    return text[start:end], text[:start] + text[end:]


t0 = time.perf_counter()
with tempfile.TemporaryDirectory() as work:
    doc = os.path.join(work, "benchmarks.md")
    orig = open("docs/benchmarks.md", encoding="utf-8").read()
    with open(doc, "w", encoding="utf-8") as fh:
        fh.write(orig)
    env = dict(os.environ, BENCH_GEN_SIZES="2,4", BENCH_GEN_JOBS="2")
    env.pop("BENCH_GEN_RUSTC_MAX", None)
    env.pop("BENCH_GEN_BIG", None)
    p = subprocess.run([sys.executable, "scripts/bench-gen.py", FKCGEN, PARSE,
                        os.path.join(work, "bench"), doc], env=env, capture_output=True,
                       text=True)
    check("bench-gen.py runs to the end on 2 and 4 sections", p.returncode == 0, p.stderr)
    new = open(doc, encoding="utf-8").read()
    sec, rest = section(new)
    _, orig_rest = section(orig)
    check("the doc outside `## fkcgen` is left as it was", rest == orig_rest)
    check("the section written is the one printed", sec.rstrip("\n") in p.stdout, sec[:500])
    check("bytes per binding of every output (C, Rust, with and without shards, JSON)",
          re.search(r"(?m)^\| 4 \| 36 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$",
                    sec) is not None, sec)
    check("the section says it is a trial (sizes picked)", "BENCH_GEN_SIZES=2,4" in sec, sec[:500])
    rust_shards = bench.has_rust_shards(os.path.abspath(FKCGEN), work)
    # fkcgen has `gen --lang rust --shards` (issue 27): a probe that stopped seeing it would drop
    # the Rust shard rows from the bench without a word
    check("the bench sees `gen --lang rust --shards`", rust_shards)
    want = [label for _, label in bench.COMPILES]
    cell = r"\d+\.\d s \| \d+ MiB"
    for label in want:
        rows = [l for l in sec.splitlines() if l.startswith("| %s |" % label)]
        ok = (len(rows) == 1
              and re.fullmatch(r"\| %s \| %s \| %s \| \d+\.\dx, \d+\.\dx \|"
                               % (re.escape(label), cell, cell), rows[0]) is not None)
        check("a row of figures for %s at both sizes, and its growth" % label, ok,
              "\n".join(rows) or sec)
    check("no cell says \"not run\"", "not run" not in sec, sec)
    for target in ("rustc -O on the 1,000-section module", "rustc -O on the 10,000-section module",
                   "clang -O2 on the 10,000-section C", "gcc -O2 on the 10,000-section C",
                   "100,000 sections: gen within 1.5x of check", "Growth of every compile's CPU"):
        check("the targets list: %s" % target, ("- " + target) in sec, sec)
    # the growth line names every compile of the table
    growth = [l for l in sec.splitlines() if l.startswith("- Growth")]
    check("the growth line names every compile", len(growth) == 1
          and all(label + " " in growth[0] for label in want), "\n".join(growth))
    # each compile's figures, as the bench reads them (the same corpus, called directly)
    paths = bench.corpus(work, 2)
    try:
        lines, figures = bench.compile_table(os.path.abspath(FKCGEN), work, [(2, paths)])
        keys = [k for k, _ in bench.COMPILES]
        check("compile_table: CPU > 0 and RSS > 0 for every compile",
              all(k in figures[2] and figures[2][k][0] > 0 and figures[2][k][1] > 0
                  for k in keys), repr(figures))
        check("compile_table: the shard set's CPU is at least its longest source's",
              all(figures[2][cc + "-sh"][0] >= figures[2][cc + "-sh-max"][0]
                  for cc in ("gcc", "clang")), repr(figures))
    except SystemExit as e:  # measured() exits on a compiler failure, with its message
        check("compile_table on 2 sections", False, str(e))
    # a compile that fails (a clang that exits 3, first on PATH): its cells say FAILED, the rest
    # of the table is there, the doc is written and the run exits non-zero
    fake = os.path.join(work, "fakebin")
    os.makedirs(fake)
    with open(os.path.join(fake, "clang"), "w") as fh:
        fh.write("#!/bin/sh\necho 'fake clang: refused' >&2\nexit 3\n")
    os.chmod(os.path.join(fake, "clang"), 0o755)
    doc2 = os.path.join(work, "benchmarks2.md")
    with open(doc2, "w", encoding="utf-8") as fh:
        fh.write(orig)
    env2 = dict(env, BENCH_GEN_SIZES="2", PATH=fake + os.pathsep + os.environ["PATH"])
    p = subprocess.run([sys.executable, "scripts/bench-gen.py", FKCGEN, PARSE,
                        os.path.join(work, "bench2"), doc2], env=env2, capture_output=True,
                       text=True)
    sec2, _ = section(open(doc2, encoding="utf-8").read())
    check("a failed compile: the run exits 1 and names it", p.returncode == 1
          and "compile(s) FAILED" in p.stderr and "fake clang: refused" in p.stderr, p.stderr)
    rows = {l.split(" | ")[0][2:]: l for l in sec2.splitlines() if l.startswith("| ")}
    check("a failed compile: clang's three rows say FAILED, gcc's and rustc's have figures",
          all("**FAILED**" in rows.get(label, "") for _, label in bench.COMPILES[3:6])
          and all(re.search(cell, rows.get(label, "")) for _, label in
                  bench.COMPILES[:3] + bench.COMPILES[6:]), sec2)
    out = os.path.join(work, "ext")
    subprocess.run([FKCGEN, "gen", "--lang", "rust", "--out-dir", out,
                    "tests/fkcgen/fuzz_accepted/extremes.md"], check=True)
    argv, env = rust_lib.lib_crate(os.path.join(out, "fkc_bindings.rs"), work, "ext_lib")
    p = subprocess.run(argv, env=env, capture_output=True, text=True)
    check("extremes.md's Rust module compiles (rustc -D warnings)", p.returncode == 0,
          p.stderr[-2000:])
print("test_bench_compile: %.0f s of wall time" % (time.perf_counter() - t0))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
