#!/usr/bin/python3
"""test_names.py FKCGEN — every name `fkcgen check` accepts gives C that compiles, also in a file
that includes every C standard header first; every macro and type of those headers is refused.

The candidates are the names a generated file can meet: every macro, typedef and function of
the headers it includes and of the C standard headers (STD_HEADERS; gcc's and clang's own, from
`-dM -E` and `-E`, under -std=c11 and -std=gnu11, plus their GNU-mode predefined lower-case
macros such as `linux`), every identifier of the committed generated/ files and a few ordinary
names. For each place a contract name goes in C (op_params field, Vec field, input, output, op
kind), one contract holds every candidate there; the names `check` refuses are dropped (by the
lines its errors point at) until it passes (contract keys are left out: a flattened field so
named would close the fields map); then `gen` must pass too, and its source (which includes
its header) must compile under the strict flags after `#include` of every standard header,
under -std=c11 and -std=gnu11, with gcc and clang.
Then every macro and typedef those headers define (`-dM -E`, and clang's AST for typedefs; not
the reserved `_X` names) and the GNU-mode predefined macros must be refused by `check` as a field
name: the reserved-name table of fkcgen/names.c is complete for this toolchain.
Run from the repository root (make test-gen)."""
import os, re, subprocess, sys, tempfile

sys.path.insert(0, "tests/fkcgen")
import make_cases  # noqa: E402  (BASE: the corpus's small valid contract)

FKCGEN = sys.argv[1] if len(sys.argv) > 1 else "build/fkcgen"
STRICT = ("-std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wmissing-prototypes "
          "-Wstrict-prototypes -Werror -Iruntime/include").split()
INCLUDES = "".join("#include %s\n" % h for h in ("<stdbool.h>", "<stddef.h>", "<stdint.h>",
                                                   "<math.h>", "<string.h>", '"fkc/fkc_kernels.h"'))
STD_HEADERS = ("assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h "
               "locale.h math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h "
               "stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h string.h tgmath.h threads.h "
               "time.h uchar.h wchar.h wctype.h").split()
STD_INCLUDES = "".join("#include <%s>\n" % h for h in STD_HEADERS)
ORDINARY = ("stride total count scale value offset width height depth alpha beta gamma_ "
            "items rows cols axis start stop step mode flags kind_of window seed tile").split()
CHUNK = 900
IDENT = re.compile(r"\b[A-Za-z][A-Za-z0-9_]*\b")
BASE = make_cases.BASE
FIELD = 'len: { kind: usize, note: "elements to copy" }'
SECTION = BASE[BASE.index("## copy"):]


def run(cmd, text):
    return subprocess.run(cmd, input=text, capture_output=True, text=True, check=True).stdout


def predefined(cc, std):
    return set(re.findall(r"^#define (\w+)", run([cc, "-std=" + std, "-dM", "-E", "-"], ""), re.M))


def std_names():
    """The macros and typedefs of the standard headers (not _X), and the lower-case macros the
    compilers predefine in GNU mode: what `check` must refuse."""
    names = set()
    for cc in ("gcc", "clang"):
        for std in ("c11", "gnu11"):
            pre = predefined(cc, std)
            names.update(n for n in pre if re.fullmatch(r"[a-z][a-z0-9_]*", n))
            out = run([cc, "-std=" + std, "-dM", "-E", "-"], STD_INCLUDES)
            names.update(n for n in re.findall(r"^#define (\w+)", out, re.M) if n not in pre)
    for std in ("c11", "gnu11"):
        ast = run(["clang", "-std=" + std, "-fsyntax-only", "-Xclang", "-ast-dump",
                   "-fno-color-diagnostics", "-x", "c", "-"], STD_INCLUDES)
        names.update(re.findall(r"TypedefDecl 0x\w+ <[^>]*>(?: col:\d+| line:\d+:\d+)?"
                                r"(?: referenced)?(?: implicit)? (\w+) ", ast))
    return sorted(n for n in names if not n.startswith("_"))


def candidates(tmp, std):
    src = os.path.join(tmp, "inc.c")
    with open(src, "w") as f:
        f.write(INCLUDES + STD_INCLUDES)
    names = set(ORDINARY)
    for cc in ("gcc", "clang"):
        for mode in ("c11", "gnu11"):
            for flags in (["-dM", "-E"], ["-E", "-P"]):
                out = subprocess.run([cc, "-std=" + mode, "-Iruntime/include"] + flags + [src],
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
    # The standard-header names are left out: refused_std_names shows check refuses each of
    # them (one function, fkcg_c_name_why, judges every place a name goes).
    return sorted(n for n in names if len(n) <= 63 and n not in keys | taken | set(std)
                  and IDENT.fullmatch(n))


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
    for _ in range(len(units) // 40 + 100):  # at most FKCG_MAX_ERRORS errors are printed a run
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


def compile_after_std_headers(tmp, out, role):
    """The generated source (and so its header) after every standard header: -std=c11 and
    gnu11, gcc and clang."""
    tu = os.path.join(tmp, "std_%s.c" % role)
    with open(tu, "w") as f:
        f.write(STD_INCLUDES + '#include "fkc_bindings.c"\n')
    failed = 0
    for cc in ("gcc", "clang"):
        for std in ("c11", "gnu11"):
            flags = [f.replace("-std=c11", "-std=" + std) for f in STRICT]
            c = subprocess.run([cc] + flags + ["-I" + out, "-c", tu, "-o", os.devnull],
                               capture_output=True, text=True)
            if c.returncode != 0:
                print("FAIL %s (%s -std=%s): the generated C does not compile after the "
                      "standard headers:\n%s" % (role, cc, std, "\n".join(c.stderr.splitlines()[:30])))
                failed += 1
    return failed


def refused_std_names(tmp, std):
    """Every standard-header and GNU-mode name is refused by check, as a field name."""
    path = os.path.join(tmp, "std_names.md")
    # one error per name, at most 50 shown a run: the names go in groups of 40
    missed = []
    for i in range(0, len(std), 40):
        group = std[i:i + 40]
        head, units, tail = units_for("field", group)
        with open(path, "w") as f:
            f.write(head + "".join(units) + tail)
        r = subprocess.run([FKCGEN, "check", path], capture_output=True, text=True)
        bad = {int(m) for m in re.findall(r"^[^\n]*?\.md:(\d+):\d+: error: field name",
                                          r.stderr, re.M)}
        first = head.count("\n") + 1
        missed += [n for k, n in enumerate(group) if first + k not in bad]
    if missed:
        print("FAIL: check accepts %d names of the standard headers / GNU mode: %s"
              % (len(missed), " ".join(missed)))
        return 1
    print("ok: check refuses all %d macros and types of the %d standard headers and GNU mode"
          % (len(std), len(STD_HEADERS)))
    return 0


def main():
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        std = std_names()
        names = candidates(tmp, std)
        failed += refused_std_names(tmp, std)
        # a YAML mapping or list holds at most 1,024 entries: the names go in chunks
        chunks = [names[i:i + CHUNK] for i in range(0, len(names), CHUNK)]
        for role, part in [(r, k) for r in ("field", "vec_field", "input", "output", "op_kind")
                           for k in range(len(chunks))]:
            path, n = accepted_contract(tmp, role, chunks[part])
            out = os.path.join(tmp, "out_%s_%d" % (role, part))
            r = subprocess.run([FKCGEN, "gen", "--out-dir", out, path], capture_output=True,
                               text=True)
            if r.returncode != 0:
                print("FAIL %s: check passes, gen refuses:\n%s" % (role, r.stderr))
                failed += 1
                continue
            before = failed
            failed += compile_after_std_headers(tmp, out, role)
            if failed == before:
                print("ok %s %d/%d: %d of %d candidate names accepted, compiled after every "
                      "standard header by gcc and clang, -std=c11 and gnu11"
                      % (role, part + 1, len(chunks), n, len(chunks[part])))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
