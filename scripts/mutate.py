#!/usr/bin/python3
"""mutate.py — a sample of one-line faults in one C file, each run against a test command: a
mutant the command passes on "survives" (no test noticed the fault). Not part of `make test`.

    scripts/mutate.py FILE [--sample N] [--seed S] [--lines A-B] [--list] -- CMD...

FILE is changed in place one mutant at a time and restored after each (and on any exit); CMD
runs from the current directory (exit 0: the mutant survived). Run it in a copy of the tree,
not in a worktree you are building in. The faults, one line each, at lines with code (not
comments, not the file's tables of data): a comparison flipped (== !=, < >, > <) or moved by one (< <=, > >=, <= <, >= >),
a logical operator swapped (&& ||), a negation dropped (!strcmp), a tie-break dropped
(`return c ? c : x;` -> `return c;`), a sort's direction reversed (-1 : 1), an off-by-one
(`= 1;` <-> `= 0;` in a for, `+ 1`/`- 1` dropped), a check skipped (a `continue;`, `break;`,
`errors++`/`errors +=`, `return 0;`, or a `put_*` line of a serialisation removed). The sample
is N of all candidates (seeded, spread over the file; --lines A-B: only those on lines A..B, to
sample one part of a file), listed with its line before it runs.
Prints each mutant's result and, at the end, the survivors and the count."""
import random, re, signal, subprocess, sys

OPS = [
    ("flip ==", r"(?<![=!<>])==(?!=)", "!="),
    ("flip !=", r"!=", "=="),
    ("flip <", r"(?<![<-])<(?![<=])", ">"),
    ("flip >", r"(?<![->])>(?![>=])", "<"),
    ("boundary <", r"(?<![<-])<(?![<=])", "<="),
    ("boundary >", r"(?<![->])>(?![>=])", ">="),
    ("boundary <=", r"<=", "<"),
    ("boundary >=", r">=", ">"),
    ("&& to ||", r"&&", "||"),
    ("|| to &&", r"\|\|", "&&"),
    ("drop !", r"!(?=str|\()", ""),
    ("drop tie-break", r"return c \? c : [^;]+;", "return c;"),
    ("reverse order", r"-1 : 1", "1 : -1"),
    ("off-by-one = 1", r"= 1;", "= 0;"),
    ("off-by-one = 0", r"(?<=for \(size_t [a-z] )= 0;", "= 1;"),
    ("drop + 1", r" \+ 1(?=[;)\]])", ""),
    ("drop - 1", r" - 1(?=[;)\]])", ""),
]
# statements removed whole (the line becomes empty)
DROPS = [
    ("skip continue", r"^\s*continue;\s*$"),
    ("skip break", r"^\s*break;\s*$"),
    ("skip count", r"^\s*errors(\+\+| \+= .*);\s*$"),
    ("skip serialised datum", r"^\s*put_(text|uint|double|expr)\(out, .*\);\s*$"),
    ("skip return 0", r"^\s*return 0;\s*$"),
]


def candidates(lines):
    out = []
    in_comment = False
    for i, line in enumerate(lines):
        code = line
        if in_comment:
            if "*/" not in line:
                continue
            code, in_comment = line[line.index("*/") + 2:], False
        if "/*" in code and "*/" not in code[code.index("/*"):]:
            in_comment = True
            code = code[:code.index("/*")]
        code = re.sub(r"/\*.*?\*/", "", code)
        code = re.sub(r'"(\\.|[^"\\])*"', lambda m: " " * len(m.group(0)), code)
        if not code.strip() or code.lstrip().startswith(("#", "*", "//")):
            continue
        for name, rx, rep in OPS:
            for m in re.finditer(rx, code):
                new = line[:m.start()] + re.sub(rx, rep, line[m.start():m.end()]) + line[m.end():]
                if new != line:
                    out.append((i, name, new))
        for name, rx in DROPS:
            if re.match(rx, code):
                out.append((i, name, "\n"))
    return out


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit(__doc__)
    cmd = argv[argv.index("--") + 1:]
    opts = argv[:argv.index("--")]
    path = opts[0]
    n = int(opts[opts.index("--sample") + 1]) if "--sample" in opts else 40
    seed = int(opts[opts.index("--seed") + 1]) if "--seed" in opts else 1
    original = open(path).read()
    lines = original.splitlines(keepends=True)
    cands = candidates(lines)
    if "--lines" in opts:
        lo, hi = (int(x) for x in opts[opts.index("--lines") + 1].split("-"))
        cands = [c for c in cands if lo <= c[0] + 1 <= hi]
    rng = random.Random(seed)
    sample = sorted(rng.sample(cands, min(n, len(cands))), key=lambda c: (c[0], c[1]))
    print("%s: %d candidate mutants, %d sampled (seed %d)" % (path, len(cands), len(sample), seed))
    if "--list" in opts:
        for i, name, new in sample:
            print("  %s:%d %s: %s" % (path, i + 1, name, new.strip()))
        return 0

    def restore(*_):
        open(path, "w").write(original)
        sys.exit(130)
    signal.signal(signal.SIGINT, restore)
    signal.signal(signal.SIGTERM, restore)
    survivors = []
    try:
        for k, (i, name, new) in enumerate(sample):
            mutated = lines[:i] + [new] + lines[i + 1:]
            open(path, "w").write("".join(mutated))
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            verdict = "SURVIVED" if r.returncode == 0 else "killed"
            print("%2d %s:%d %-22s %-8s %s" % (k + 1, path, i + 1, name, verdict, new.strip()),
                  flush=True)
            if r.returncode == 0:
                survivors.append((i, name, new))
    finally:
        open(path, "w").write(original)
    print("\n%d of %d mutants survived" % (len(survivors), len(sample)))
    for i, name, new in survivors:
        print("  %s:%d %s: %s" % (path, i + 1, name, new.strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
