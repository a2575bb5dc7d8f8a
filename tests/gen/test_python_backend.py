#!/usr/bin/python3
"""test_python_backend.py FKCGEN FKCGEN_PY — a new back end is one file and one row.

FKCGEN_PY is fkcgen with one back end more, `python` (tests/gen/python_backend.c: a style and
an emit over the shared walk), its row added by -DFKCG_EXTRA_BACKEND (fkcgen/gen.mk); no other
file of fkcgen differs. For the seed contracts and contracts/examples/: the module it writes
runs under python3, and its rows are the binding table `dump --json` prints (op kind, the
whole key, backend, kernel, symbol, wrapper, byte width, precision, in table order), its link registry is
every symbol in byte order naming its binding, its op rows cover each op kind's bindings;
`gen --check` works on it (0 unchanged, 1 on drift); the capabilities it does not declare are
refused (--shards, --emit-stubs), naming the back ends that do; and the C that FKCGEN_PY writes
is byte for byte FKCGEN's. Run from the repository root (make test-gen)."""
import glob, json, math, os, runpy, subprocess, sys, tempfile

FKCGEN = sys.argv[1] if len(sys.argv) > 1 else "build/fkcgen"
FKCGEN_PY = sys.argv[2] if len(sys.argv) > 2 else "build/tests/gen/fkcgen-py"
SEED = sorted(glob.glob("contracts/vulkan/*.md"))
EXAMPLES = sorted(glob.glob("contracts/examples/**/*.md", recursive=True))
passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok " + what)
    else:
        failed += 1
        print("FAIL " + what + (": " + detail if detail else ""))


def run(*cmd):
    return subprocess.run(list(cmd), capture_output=True, text=True)


def rows_agree(name, files, tmp):
    out = os.path.join(tmp, name)
    r = run(FKCGEN_PY, "gen", "--lang", "python", "--out-dir", out, *files)
    check(r.returncode == 0, "%s: gen --lang python" % name, r.stderr)
    if r.returncode:
        return
    path = os.path.join(out, "fkc_bindings.py")
    try:
        m = runpy.run_path(path)
    except Exception as e:  # noqa: BLE001 (any error is the failure reported)
        check(False, "%s: the module runs under python3" % name, repr(e))
        return
    check(True, "%s: the module runs under python3" % name)
    dump = json.loads(run(FKCGEN, "dump", "--json", *files).stdout)["bindings"]
    def prec(p):
        return (p["bit_stable_on_same_hardware"], math.ceil(p["max_ulp"]), p["max_relative"],
                p["max_absolute"], p["audited"])
    want = [(b["op_kind"], b["dtypes"], b["backend"], b["kernel"], b["symbol"], b["wrapper"],
             b["byte_width"], prec(b["precision"])) for b in dump]
    # a row: op, key, backend, kernel, symbol, wrapper, its kernel ref, byte width, cost, and
    # its precision (its kernel's, or its precision_by_dtype row)
    got = [(b[0], b[1], b[2], b[3][0], b[4], b[5], b[7], tuple(b[9][:5])) for b in m["BINDINGS"]]
    first = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), None)
    check(len(got) == len(want) and first is None and len(want) > 0,
          "%s: its %d binding rows are dump --json's" % (name, len(want)),
          "%d vs %d rows; first difference at %s: %r vs %r" % (
              len(got), len(want), first, got[first] if first is not None else None,
              want[first] if first is not None else None))
    links = m["LINKS"]
    symbols = [s for s, _reg, _row in links]
    check(symbols == sorted(symbols, key=lambda s: s.encode()) and
          all(row[4] == s for s, _reg, row in links) and
          sorted(symbols) == sorted(b["symbol"] for b in dump),
          "%s: the link registry is every symbol, in byte order, naming its binding" % name)
    ok = True
    for k, (lo, hi) in enumerate(m["OP_ROWS"]):
        ok &= lo < hi and all(b[0] == m["OP_NAMES"][k] for b in m["BINDINGS"][lo:hi])
    check(ok and sum(hi - lo for lo, hi in m["OP_ROWS"]) == len(m["BINDINGS"]),
          "%s: OP_ROWS spans each op kind's bindings, all of them" % name)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        rows_agree("seed", SEED, tmp)
        rows_agree("examples", EXAMPLES, tmp)
        out = os.path.join(tmp, "seed")
        r = run(FKCGEN_PY, "gen", "--check", "--lang", "python", "--out-dir", out, *SEED)
        check(r.returncode == 0, "gen --check --lang python: 0 when up to date", r.stderr)
        with open(os.path.join(out, "fkc_bindings.py"), "a") as f:
            f.write("# drift\n")
        r = run(FKCGEN_PY, "gen", "--check", "--lang", "python", "--out-dir", out, *SEED)
        check(r.returncode == 1 and "+# drift" in r.stdout + r.stderr or
              r.returncode == 1 and "-# drift" in r.stdout + r.stderr,
              "gen --check --lang python: 1 and a diff on drift", r.stdout + r.stderr)
        r = run(FKCGEN_PY, "gen", "--shards", "2", "--lang", "python", "--out-dir",
                os.path.join(tmp, "s"), *SEED)
        check(r.returncode == 2 and "--lang python has none to split (the back ends that do: c or rust)"
              in r.stderr and not os.path.exists(os.path.join(tmp, "s")),
              "--shards with a back end that declares no parts: exit 2, nothing written",
              r.stderr)
        r = run(FKCGEN_PY, "gen", "--lang", "python", "--emit-stubs",
                os.path.join(tmp, "stubs.c"), "--out-dir", os.path.join(tmp, "t"), *SEED)
        check(r.returncode == 2 and "--lang python has none (the back ends that do: c)"
              in r.stderr and not os.path.exists(os.path.join(tmp, "stubs.c")),
              "--emit-stubs with a back end that declares no stubs: exit 2", r.stderr)
        r = run(FKCGEN_PY, "gen", "--lang", "pyhton", "--out-dir", os.path.join(tmp, "u"),
                *SEED)
        check(r.returncode == 2 and "c, rust, json or python" in r.stderr,
              "--lang names the added back end among the languages", r.stderr)
        same = True
        for lang, files in (("c", ["fkc_bindings.h", "fkc_bindings.c"]),
                            ("rust", ["fkc_bindings.rs"])):
            for prog, d in ((FKCGEN, "a_" + lang), (FKCGEN_PY, "b_" + lang)):
                r = run(prog, "gen", "--lang", lang, "--out-dir", os.path.join(tmp, d), *SEED)
                same &= r.returncode == 0
            for f in files:
                with open(os.path.join(tmp, "a_" + lang, f), "rb") as x, \
                        open(os.path.join(tmp, "b_" + lang, f), "rb") as y:
                    same &= x.read() == y.read()
        check(same, "the C and Rust of fkcgen with the added back end are fkcgen's, byte for byte")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
