#!/usr/bin/python3
"""test_names.py FKCGEN — every name `fkcgen check` accepts gives C that compiles.

The candidates are the names a generated file can meet: every macro, typedef and function of
the headers it includes (gcc's and clang's own, from `-dM -E` and `-E`) and every identifier of
the committed generated/ files. For each place a contract name goes in C (op_params field,
Vec field, input, output, op kind), one contract holds every candidate there; the names
`check` refuses are dropped (by the lines its errors point at) until it passes (contract keys
are left out: a flattened field so named would close the fields map); then `gen`
must pass too and its output must compile under the strict flags with gcc and clang.
Run from the repository root (make test-gen)."""
import os, re, subprocess, sys, tempfile

sys.path.insert(0, "tests/fkcgen")
import make_cases  # noqa: E402  (BASE: the corpus's small valid contract)

FKCGEN = sys.argv[1] if len(sys.argv) > 1 else "build/fkcgen"
STRICT = ("-std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wmissing-prototypes "
          "-Wstrict-prototypes -Werror -Iruntime/include").split()
INCLUDES = "".join("#include %s\n" % h for h in ("<stdbool.h>", "<stddef.h>", "<stdint.h>",
                                                   "<math.h>", "<string.h>", '"fkc/fkc_kernels.h"'))
IDENT = re.compile(r"\b[A-Za-z][A-Za-z0-9_]*\b")
BASE = make_cases.BASE
FIELD = 'len: { kind: usize, note: "elements to copy" }'
SECTION = BASE[BASE.index("## copy"):]


def candidates(tmp):
    src = os.path.join(tmp, "inc.c")
    with open(src, "w") as f:
        f.write(INCLUDES)
    names = set()
    for cc in ("gcc", "clang"):
        for flags in (["-dM", "-E"], ["-E", "-P"]):
            out = subprocess.run([cc, "-std=c11", "-Iruntime/include"] + flags + [src],
                                 capture_output=True, text=True, check=True).stdout
            names.update(IDENT.findall(out))
    for g in ("generated/fkc_bindings.h", "generated/fkc_bindings.c"):
        with open(g) as f:
            names.update(IDENT.findall(f.read()))
    # Contract keys: a flattened field so named would close the fields map (and cascade).
    schema = subprocess.run([FKCGEN, "schema", "--markdown"], capture_output=True, text=True,
                            check=True).stdout
    keys = set(re.findall(r"^\| `([a-z_]+)` \|", schema, re.M))
    taken = {"src", "out", "len", "dst", "copy"}  # BASE's own names
    return sorted(n for n in names if len(n) <= 63 and n not in keys | taken)


def camel(n):
    return "".join(p[:1].upper() + p[1:] for p in n.split("_"))


def units_for(role, names):
    """(text before, [unit text per name], text after); a unit is one or more whole lines."""
    if role == "field":
        head, tail = BASE.split(FIELD + "\n")
        return head, ["%s: { kind: usize }\n" % n for n in names], tail.replace("+ len", "")
    if role == "vec_field":
        head, tail = BASE.split(FIELD + "\n")
        names = [n for n in names if n + "_len" not in names]
        return head, ['%s: { kind: "Vec<usize>" }\n' % n for n in names], tail.replace("+ len", "")
    if role == "input":
        head, tail = BASE.split("- name: src\n")
        return head, ["- { name: %s, dtypes: [F32], layout: { contiguous: required, strided: "
                      "rejected }, rank: any }\n" % n for n in names], \
            "- name: src\n" + tail
    if role == "output":
        head, tail = BASE.split("- name: out\n")
        return head, ["- { name: %s, dtype_rule: passthrough(src), shape_rule: same_as(src), "
                      "layout_guarantee: contiguous, aliasing: none }\n" % n
                      for n in names], "- name: out\n" + tail
    assert role == "op_kind"
    # The runtime's op kinds (fkc/fkc_kernels.h) take the runtime's params struct under the
    # default prefix: a contract stating other fields for them is refused by the compiler
    # (the generated _Static_asserts), by design; tests/consumer checks that refusal.
    runtime_ops = {"write_slice", "write_slice_rotating"}
    ops = [n for n in names if re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", n)
           and n not in runtime_ops]
    return BASE, [SECTION.replace("## copy", "## k%d" % i).replace("kernel: copy", "kernel: k%d"
                  % i).replace("op_kind: Copy", "op_kind: " + camel(n)).replace(
                  "demo::fkc::copy", "demo::fkc::k%d" % i) for i, n in enumerate(ops)], ""


def accepted_contract(tmp, role, names):
    """The contract of the units check accepts, after dropping those its errors point at."""
    head, units, tail = units_for(role, names)
    path = os.path.join(tmp, role + ".md")
    for _ in range(100):  # at most FKCG_MAX_ERRORS errors are printed per run
        with open(path, "w") as f:
            f.write(head + "".join(units) + tail)
        r = subprocess.run([FKCGEN, "check", path], capture_output=True, text=True)
        if r.returncode == 0:
            return path, len(units)
        bad = {int(m) for m in re.findall(r"^[^\n]*?\.md:(\d+):\d+: error:", r.stderr, re.M)}
        first = head.count("\n") + 1
        keep = []
        for u in units:
            last = first + u.count("\n")
            if not any(first <= line < last for line in bad):
                keep.append(u)
            first = last
        if len(keep) == len(units):
            sys.exit("test_names: %s: check fails on no unit's line:\n%s" % (role, r.stderr))
        units = keep
    sys.exit("test_names: %s: check still fails" % role)


def main():
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        names = candidates(tmp)
        for role in ("field", "vec_field", "input", "output", "op_kind"):
            path, n = accepted_contract(tmp, role, names)
            out = os.path.join(tmp, "out_" + role)
            r = subprocess.run([FKCGEN, "gen", "--out-dir", out, path], capture_output=True,
                               text=True)
            if r.returncode != 0:
                print("FAIL %s: check passes, gen refuses:\n%s" % (role, r.stderr))
                failed += 1
                continue
            before = failed
            for cc in ("gcc", "clang"):
                c = subprocess.run([cc] + STRICT + ["-c", os.path.join(out, "fkc_bindings.c"),
                                                    "-o", os.devnull], capture_output=True,
                                   text=True)
                if c.returncode != 0:
                    print("FAIL %s (%s): the generated C does not compile:\n%s"
                          % (role, cc, "\n".join(c.stderr.splitlines()[:30])))
                    failed += 1
            if failed == before:
                print("ok %s: %d of %d candidate names accepted, compiled by gcc and clang"
                      % (role, n, len(names)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
