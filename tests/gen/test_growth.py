#!/usr/bin/python3
"""test_growth.py FKCGEN — fkcgen grows linearly with its input (issue 16 item 1), measured by
instruction counts (valgrind's cachegrind, `I refs`: the same on any machine load, unlike
time), never by the clock.

For three corpus shapes (scripts/bench-gen-corpus.py) at N and 4N sections:
  unique     one provider per file of 100 sections, one op kind per section (the default);
  providers  a provider (own kernel_source and link registry) per file of 10 sections, so
             N/10 link registries;
  shared     as providers, but the sections share 10 op kinds: every op kind is bound by N/10
             sections of as many kernel sources (dispatch groups, one signature per op kind);
each of `check`, `gen` (C), `gen --lang rust`, `gen --shards 4`, `gen --lang rust --shards 4`
and `dump --json` is counted
at both sizes. A linear pass gives a ratio of 4 (a little less: the start-up is fixed); a
quadratic part that is p of the count at N gives 4 + 12 p. The test fails when a command's
ratio passes MAX_RATIO, or when the back end's own part (the command's count minus that of
`check`, which runs the same front end) passes MAX_BACK_RATIO: a quadratic pass over link
registries that took 1/3 of the Rust back end at 200 sections gave 6.4 there.
Run from the repository root (make test-gen); prints one row per shape and command."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FKCGEN = sys.argv[1] if len(sys.argv) > 1 else "build/fkcgen"
SEED = "contracts/vulkan/write_slice.md"
N = 200
MAX_RATIO = 4.4
MAX_BACK_RATIO = 4.6
SHAPES = (("unique", ["100"]), ("providers", ["10", "--providers"]),
          ("shared", ["10", "--providers", "--ops", "10"]))
COMMANDS = (("check", ["check"]), ("gen c", ["gen", "--out-dir", "@c"]),
            ("gen rust", ["gen", "--lang", "rust", "--out-dir", "@r"]),
            ("gen --shards 4", ["gen", "--shards", "4", "--out-dir", "@s"]),
            ("gen rust --shards 4", ["gen", "--lang", "rust", "--shards", "4", "--out-dir", "@t"]),
            ("dump --json", ["dump", "--json"]))


def corpus(work, shape, n, args):
    out = os.path.join(work, "%s-%d" % (shape, n))
    p = subprocess.run([sys.executable, "scripts/bench-gen-corpus.py", SEED, str(n), out] + args,
                       check=True, stdout=subprocess.PIPE)
    return out, p.stdout.decode().split()


def irefs(argv):
    """The instructions argv runs (cachegrind's I refs); exits on a failed command."""
    p = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                        "--cachegrind-out-file=/dev/null"] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.decode()
    m = re.search(r"I\s+refs:\s+([\d,]+)", err)
    if p.returncode != 0 or not m:
        sys.exit("test_growth: %s failed (%d):\n%s" % (" ".join(argv[:3]), p.returncode, err[-2000:]))
    return int(m.group(1).replace(",", ""))


def count(work, shape, n, args):
    out, files = corpus(work, shape, n, args)
    counts = {}
    for name, cmd in COMMANDS:
        argv = [FKCGEN] + [os.path.join(out, c[1:]) if c.startswith("@") else c for c in cmd]
        counts[name] = irefs(argv + files)
    shutil.rmtree(out)
    return counts


def main():
    if not shutil.which("valgrind"):
        print("FAIL: valgrind is not installed (scripts/deps.sh installs it)")
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    work = tempfile.mkdtemp(prefix="fkcg_growth_")
    try:
        print("%-10s %-20s %14s %14s %6s %6s" % ("shape", "command", "I refs at %d" % N,
                                                  "at %d" % (4 * N), "ratio", "back"))
        for shape, args in SHAPES:
            small, big = count(work, shape, N, args), count(work, shape, 4 * N, args)
            for name, _ in COMMANDS:
                ratio = big[name] / small[name]
                back = None
                if name != "check":
                    back = (big[name] - big["check"]) / max(1, small[name] - small["check"])
                ok = ratio <= MAX_RATIO and (back is None or back <= MAX_BACK_RATIO)
                print("%-10s %-20s %14d %14d %6.2f %6s" % (shape, name, small[name], big[name],
                      ratio, "-" if back is None else "%.2f" % back))
                print("%s %s %s: ratio %.2f (at most %.1f)%s" % (
                    "ok" if ok else "FAIL", shape, name, ratio, MAX_RATIO,
                    "" if back is None else ", back end %.2f (at most %.1f)" % (back, MAX_BACK_RATIO)))
                passed += ok
                failed += not ok
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
