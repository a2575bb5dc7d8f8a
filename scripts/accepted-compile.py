#!/usr/bin/python3
"""accepted-compile.py [FKCGEN] — a search for contracts `fkcgen check` accepts whose generated C
does not compile: one-point mutations of small valid contracts (tests/fkcgen/make_cases.py's BASE,
its runtime-op variant and the seed), each name slot given every identifier of their generated
code and of the runtime's header plus a few hostile texts and numbers; every accepted mutation is
generated (`fkcgen gen`) and compiled with gcc and clang under the strict flags. Prints each
failure with its mutation and first compiler error, then a summary grouped by that error.
The bases include non-bitwise ones (deterministic, nondeterministic: their precision may be
non-zero), and every numeric field (fkc_version, rank, alignment_bytes, access_granularity_bits,
max_ulp, max_relative, max_absolute, a cost expression's constant) meets each of EXTREMES.
With --random N it instead draws random contracts (one to three sections of a random base, each
line of a numeric or enum key given a random value, EXTREMES among them) until N are accepted,
and compiles each: the count is the figure docs/reliability.md gives.
Not part of `make test` (minutes); fuzz target emit (`make fuzz`) does the same on random inputs,
and tests/fkcgen/fuzz_accepted/extremes.md (compiled by `make check-fuzz-accepted`) holds the
extremes. Run from the repository root:
scripts/accepted-compile.py [FKCGEN] [--max N] [--bases a,b] [--random N] [--seed S]
[--rust] (bases: base, deterministic, nondeterministic, runtime_op, seed; --max: stop after N
accepted mutations of a base; --rust: the Rust module too, by rustc -D warnings, as
scripts/rust_lib.py builds it)."""
import os, random, re, subprocess, sys, tempfile

sys.path.insert(0, "tests/fkcgen")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_cases  # noqa: E402
import rust_lib  # noqa: E402

args = [a for i, a in enumerate(sys.argv[1:], 1)
        if not a.startswith("--") and sys.argv[i - 1] not in ("--max", "--bases", "--random",
                                                                 "--seed")]
FKCGEN = args[0] if args else "build/fkcgen"
MAX = int(sys.argv[sys.argv.index("--max") + 1]) if "--max" in sys.argv else 0
BASES = sys.argv[sys.argv.index("--bases") + 1].split(",") if "--bases" in sys.argv else None
RANDOM = int(sys.argv[sys.argv.index("--random") + 1]) if "--random" in sys.argv else 0
SEED = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 26
RUST = "--rust" in sys.argv  # also gen --lang rust, compiled by rustc -D warnings
# Every numeric field meets these: 0, 1, 2^31, 2^32, 2^63, 2^64-1.
EXTREMES = ["0", "1", "2147483648", "4294967296", "9223372036854775808", "18446744073709551615"]
NUMERIC = ("fkc_version", "rank", "alignment_bytes", "access_granularity_bits", "max_ulp",
           "max_relative", "max_absolute")
STRICT = ("-std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wmissing-prototypes "
          "-Wstrict-prototypes -Werror -Iruntime/include").split()
IDENT = re.compile(r"\b[A-Za-z][A-Za-z0-9_]*\b")


def camel(snake):
    return "".join(p[:1].upper() + p[1:] for p in snake.split("_") if p)


def harvest(texts):
    """Identifiers of generated code and headers: the names a contract's names can meet."""
    names = set()
    with tempfile.TemporaryDirectory() as d:
        for i, t in enumerate(texts):
            p = os.path.join(d, "c%d.md" % i)
            open(p, "w").write(t)
            out = os.path.join(d, "o%d" % i)
            subprocess.run([FKCGEN, "gen", "--out-dir", out, p], capture_output=True)
            for f in ("fkc_bindings.h", "fkc_bindings.c"):
                if os.path.exists(os.path.join(out, f)):
                    names.update(IDENT.findall(code_of(open(os.path.join(out, f)).read())))
    for h in os.listdir("runtime/include/fkc"):
        names.update(IDENT.findall(code_of(open(os.path.join("runtime/include/fkc", h)).read())))
    return sorted(names)


def code_of(c):
    """C text without its comments, string literals and preprocessor lines' words."""
    c = re.sub(r"/\*.*?\*/", " ", c, flags=re.S)
    c = re.sub(r'"(?:\\.|[^"\\])*"', " ", c)
    return re.sub(r"(?m)^\s*#\s*(?:error|include).*$", " ", c)


def mutations(base, names):
    """(label, text) one-point mutations of base."""
    lower = [n for n in names if re.fullmatch(r"[a-z][a-z0-9_]*", n)]
    stripped = sorted({n[4:] for n in names if n.startswith("fkc_") and len(n) > 4})
    lower = sorted(set(lower + stripped + ["main", "stream", "params", "extra", "p", "n",
                                           "dtype_bytes", "op", "rc", "lo", "hi", "mid", "i",
                                           "s", "b", "x", "kind_count", "register", "cost"]))
    ops = sorted({camel(n) for n in lower if camel(n)})
    slots = []  # (what, regex of the value, candidates)
    for key, cands in (("kernel", lower), ("op_kind", ops), ("variant", ops + lower)):
        slots.append((key, r"(?m)^(%s: )([A-Za-z_][A-Za-z0-9_]*)" % key, cands))
    slots.append(("entry_point", r'(?m)^(entry_point: "?(?:[A-Za-z0-9_]+::)*)([A-Za-z0-9_]+)',
                  lower))
    slots.append(("input", r"(?m)^(- name: )(src)\b", lower))
    slots.append(("output", r"(?m)^(- name: )(out)\b", lower))
    slots.append(("field", r"(?m)^()([a-z_]+)(?=: \{ kind:)", lower))
    out = []
    for what, rx, cands in slots:
        for m in re.finditer(rx, base):
            old = m.group(2)
            for c in cands:
                if c == old:
                    continue
                if what in ("input", "field", "output"):  # its references follow it
                    t = re.sub(r"\b%s\b" % re.escape(old), c, base)
                else:
                    t = base[:m.start(2)] + c + base[m.end(2):]
                out.append(("%s %s -> %s" % (what, old, c), t))
    for k in ("usize", "isize", "u32", "i32", "u64", "i64", "f32", "f64", "bool", "Vec<usize>",
              "Vec<isize>", "Vec<i64>"):
        for m in re.finditer(r"kind: \"?([A-Za-z0-9<>]+)\"?", base):
            out.append(("kind %s -> %s" % (m.group(1), k),
                        base[:m.start()] + 'kind: "%s"' % k + base[m.end():]))
    texts = ['*/ #error x', '??=define', 'a\\\\b', '\\"', '%s%n', 'caf\u00e9 \u2603', "x" * 3000]
    for key in ("blurb", "notes", "shape_constraint"):
        for t in texts:
            out.append(("%s text %r" % (key, t[:12]),
                        re.sub(r'(?m)^(%s: ).*$' % key, lambda m: m.group(1) + '"%s"' % t, base)))
    for key in NUMERIC:
        vals = EXTREMES + {"alignment_bytes": ["65536", "2147483647"],
                           "access_granularity_bits": ["8", "4096", "4294967295"],
                           "max_relative": ["1e308", "0.1", "1e-320"],
                           "max_absolute": ["1e308", "4.9e-324"]}.get(key, [])
        for v in vals:
            out.append(("%s %s" % (key, v), re.sub(r"(?m)^(%s: ).*$" % key,
                                                    lambda m: m.group(1) + v, base)))
    for e in EXTREMES + ["18446744073709551615 * 18446744073709551615", "n / 0", "0 - 1",
                         "((((((((n))))))))", "n * n * n * n * n * n * n * n",
                         "9007199254740993", "1 / 3", "n * 9223372036854775808"]:
        for key in ("flops", "bytes_moved"):
            out.append(("%s %s" % (key, e), re.sub(r'(?m)^(%s: ).*$' % key,
                                                   lambda m: m.group(1) + '"%s"' % e, base)))
    return out


def compile_ok(text, tmp):
    p = os.path.join(tmp, "c.md")
    open(p, "w").write(text)
    if subprocess.run([FKCGEN, "check", p], capture_output=True).returncode != 0:
        return None
    out = os.path.join(tmp, "out")
    g = subprocess.run([FKCGEN, "gen", "--out-dir", out, p], capture_output=True, text=True)
    if g.returncode != 0:
        return "gen refuses what check accepts: " + g.stderr.splitlines()[0]
    for cc in ("gcc", "clang"):
        r = subprocess.run([cc] + STRICT + ["-I" + out, "-c", os.path.join(out, "fkc_bindings.c"),
                            "-o", os.path.join(tmp, "b.o")], capture_output=True, text=True)
        if r.returncode != 0:
            err = [l for l in r.stderr.splitlines() if "error" in l]
            return "%s: %s" % (cc, re.sub(r"^\S+:\d+:\d+: ", "", err[0] if err else r.stderr))
    if RUST:
        g = subprocess.run([FKCGEN, "gen", "--lang", "rust", "--out-dir", out, p],
                           capture_output=True, text=True)
        if g.returncode != 0:
            return "gen --lang rust refuses what check accepts: " + g.stderr.splitlines()[0]
        argv, env = rust_lib.lib_crate(os.path.join(out, "fkc_bindings.rs"), tmp)
        r = subprocess.run(argv, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            err = [l for l in r.stderr.splitlines() if l.startswith("error")]
            return "rustc: %s" % (err[0] if err else r.stderr[:300])
    return ""


def non_bitwise(base, determinism, ulp, stable):
    """base with a non-bitwise determinism and non-zero precision."""
    t = base.replace("determinism: bitwise", "determinism: " + determinism)
    t = re.sub(r"(?m)^max_ulp: .*$", "max_ulp: " + ulp, t)
    t = re.sub(r"(?m)^max_relative: .*$", "max_relative: 1e-06", t)
    t = re.sub(r"(?m)^max_absolute: .*$", "max_absolute: 0.5", t)
    return re.sub(r"(?m)^bit_stable_on_same_hardware: .*$",
                  "bit_stable_on_same_hardware: " + stable, t)


def all_bases():
    return [("base", make_cases.BASE),
            ("deterministic", non_bitwise(make_cases.BASE, "deterministic", "4", "true")),
            ("nondeterministic", non_bitwise(make_cases.BASE, "nondeterministic",
                                             "9223372036854775808", "false")),
            ("runtime_op", make_cases.RUNTIME_OP),
            ("seed", open("contracts/vulkan/write_slice.md").read())]


# --random: the values each key's line may take (EXTREMES among the numbers).
CHOICES = {
    "fkc_version": ["1"] * 6 + EXTREMES,
    "rank": ["any"] * 4 + EXTREMES + ["3"],
    "alignment_bytes": ["16", "1", "65536", "2147483648", "4096"] + EXTREMES,
    "access_granularity_bits": ["32", "8", "4096", "64"] + EXTREMES,
    "max_ulp": EXTREMES + ["4", "1000000"],
    "max_relative": EXTREMES + ["0.0", "1e-06", "1e308", "1e-320", "0.5"],
    "max_absolute": EXTREMES + ["0.0", "1e-06", "1e308", "4.9e-324"],
    "determinism": ["bitwise", "deterministic", "nondeterministic", "deterministic",
                    "nondeterministic"],
    "bit_stable_on_same_hardware": ["true", "false"],
    "audited": ["true", "false"],
    "in_place": ["true", "false"],
    "class": ["cheap_elementwise", "elementwise", "reduction", "matmul", "memory_bound"],
    "provenance": ["judge_measured", "analytic", "estimated"],
    "flops": ['"%s"' % e for e in EXTREMES + ["n * 18446744073709551615", "n / 3", "0"]],
    "bytes_moved": ['"%s"' % e for e in EXTREMES + ["2 * n * dtype_bytes", "n * 4294967296"]],
}
DTYPES = ["F32", "I32", "U32", "F16", "BF16", "F64", "I64", "U8", "I8"]


def random_contract(rng, bases):
    """One to three sections of a random base (copies renamed), random values on its lines."""
    name, base = rng.choice(bases)
    if name != "seed":
        head, sec = base[:base.index("## ")], base[base.index("## "):]
        kernel = re.search(r"(?m)^kernel: (\w+)", sec).group(1)
        secs = [sec] + [re.sub(r"\b%s\b" % kernel, "%s%d" % (kernel, i), sec)
                        for i in range(1, rng.randint(1, 3))]
        base = head + "".join(secs)

    def value(m):
        key = m.group(2)
        if key == "dtypes" and rng.random() < 0.5:
            return m.group(1) + "[%s]" % ", ".join(rng.sample(DTYPES, rng.randint(1, 9)))
        if key in CHOICES and rng.random() < 0.35:
            return m.group(1) + rng.choice(CHOICES[key])
        return m.group(0)
    return name, re.sub(r"(?m)^((\w+): )(.*)$", value, base)


def main_random(names):
    rng = random.Random(SEED)
    bases = all_bases()
    accepted = tried = failed = big_ulp = non_bw = 0
    with tempfile.TemporaryDirectory() as tmp:
        while accepted < RANDOM and tried < 100 * RANDOM:
            tried += 1
            bname, text = random_contract(rng, bases)
            r = compile_ok(text, tmp)
            if r is None:
                continue
            accepted += 1
            big_ulp += bool(re.search(r"(?m)^max_ulp: (9223372036854775808|18446744073709551615)$",
                                      text))
            non_bw += bool(re.search(r"(?m)^determinism: (deterministic|nondeterministic)$", text))
            if r:
                failed += 1
                bad = os.path.join(tmp, "..", "accepted-compile-fail-%d.md" % failed)
                open(bad, "w").write(text)
                print("FAIL random %d (%s): %s\n     saved as %s" % (tried, bname, r,
                                                                   os.path.abspath(bad)))
    print(("random: %d drawn, %d accepted, %d of them compile with gcc and clang (strict)"
           + (" and rustc" if RUST else "") + ", %d do not; %d with max_ulp >= 2^63, "
           "%d not bitwise") % (tried, accepted, accepted - failed, failed, big_ulp, non_bw))
    return 1 if failed or accepted < RANDOM else 0


def main():
    bases = all_bases()
    if RANDOM:
        return main_random(None)
    names = harvest([b for _, b in bases])
    if BASES:
        bases = [b for b in bases if b[0] in BASES]
    accepted = failed = 0
    groups = {}
    with tempfile.TemporaryDirectory() as tmp:
        for bname, base in bases:
            for label, text in mutations(base, names):
                r = compile_ok(text, tmp)
                if r is None:
                    continue
                accepted += 1
                if r:
                    failed += 1
                    key = re.sub(r"'[^']*'|‘[^’]*’", "'X'", r)[:160]
                    groups.setdefault(key, []).append("%s: %s" % (bname, label))
                    print("FAIL %s: %s\n     %s" % (bname, label, r), flush=True)
                if MAX and accepted >= MAX:
                    break
            print("%s: %d accepted so far, %d do not compile" % (bname, accepted, failed),
                  flush=True)
    print("\n%d accepted mutations compiled, %d do not compile, in %d classes:" %
          (accepted, failed, len(groups)))
    for k, v in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print("%4d  %s\n      e.g. %s" % (len(v), k, "; ".join(v[:3])))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
