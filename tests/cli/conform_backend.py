#!/usr/bin/python3
"""conform_backend.py FKC_RUN FKCGEN — a backend's own op family outside the runtime, checked by
`fkc-run conform` against its own CPU reference (issue 25): tests/conform-backend/ (Scale over
F32 and I32, max_ulp 1, a GLSL kernel of its own recorded through the user-kernel API, and the
reference cs_scale_ref its section names as `cpu_reference`), built the way docs/runtime.md's
"A family of your own" tells a user (glslc, then --prefix cs --wrappers scale.c, CFLAGS=-I).

1. the untouched backend passes on the default device with the validation layer: both
   declared rows ok, the seven undeclared dtypes refused by the dispatch;
2. each deliberately wrong kernel (CONFORM_SCALE_FAULT) fails exactly the rows it breaks, with
   --format json, each failed row naming the binding and dtype in every note and only the
   claim broken: dtype (I32 refused: dtypes), ulp (3 ulp off on F32: precision),
   nondeterministic (element 0 of every second call: determinism), guard (one element past the
   output: guard, "byte 1 past the output's end");
3. refusals: --cpu names the family and exits 1; a reference of another signature fails to
   compile; a reference the sources do not define fails at load, naming the symbol;
   fkcgen check points at a cpu_reference that is not a C identifier;
4. docs/runtime.md's block of the workflow, run verbatim.
Prints 'ok ...' / 'FAIL ...' lines and 'N passed, M failed'; exit 1 on any failure.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FKC_RUN, FKCGEN = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BACKEND = os.path.join(ROOT, "tests", "conform-backend")
CONTRACT = os.path.join(BACKEND, "scale.md")
SOURCE = os.path.join(BACKEND, "scale.c")
results = []


def check(name, cond, detail=""):
    results.append(bool(cond))
    print(("ok " if cond else "FAIL ") + name + ("" if cond or not detail else "\n" + detail))


def run(args, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(args, capture_output=True, text=True, env=e, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as d:
    rc, _, err = run(["glslc", "--target-env=vulkan1.1", "-O", "-Werror", "-mfmt=c",
                      os.path.join(BACKEND, "scale.comp"), "-o", os.path.join(d, "scale.spv.inc")])
    check("glslc compiles scale.comp", rc == 0, err)
    env = {"CFLAGS": "-I" + d, "FKCGEN": FKCGEN}
    base = [FKC_RUN, "conform", "--prefix", "cs", "--wrappers", SOURCE]

    # 1. the backend as it is
    rc, out, err = run(base + ["--validate", "--cases", "24", CONTRACT], env)
    rows = re.findall(r"^scale +Scale +(\S+) .*  (ok.*|FAIL.*)$", out, re.M)
    check("the untouched backend passes with the validation layer (exit 0)",
          rc == 0 and rows[:2] == [("F32", "ok"), ("I32", "ok")] and len(rows) == 9 and
          all(r[1] == "ok, refused as expected" for r in rows[2:]) and
          "9 rows passed, 0 failed (2 bindings" in out, out + err)
    check("a declared row ran every case", re.search(r"^scale +Scale +F32 +24 +24 +0 ", out, re.M),
          out)

    # 2. each claim class broken in turn
    faults = {"dtype": ({"I32"}, "dtypes", "refused a valid call of a declared combination"),
              "ulp": ({"F32"}, "precision", "3 ulp apart (max_ulp 1"),
              "nondeterministic": ({"F32", "I32"}, "determinism", "a second run differs"),
              "guard": ({"F32", "I32"}, "guard", "byte 1 past the output's end changed")}
    for fault, (dtypes, claim, text) in faults.items():
        rc, out, err = run(base + ["--cases", "8", "--format", "json", CONTRACT],
                           dict(env, CONFORM_SCALE_FAULT=fault))
        try:
            doc = json.loads(out)
        except ValueError as e:
            check("fault %s: the JSON report parses" % fault, False, "%s\n%s%s" % (e, out, err))
            continue
        failed = {r["dtype"] for r in doc["rows"] if not r["ok"]}
        notes = [(r["dtype"], n) for r in doc["rows"] if not r["ok"] for n in r["notes"]]
        check("fault %s: exit 1, exactly the rows %s fail" % (fault, sorted(dtypes)),
              rc == 1 and failed == dtypes, json.dumps(doc["rows"], indent=1)[:3000] + err)
        check("fault %s: every note names the binding and dtype, claim %s" % (fault, claim),
              notes and all(n["claim"] == claim and n["message"].startswith("scale %s: " % dt)
                            for dt, n in notes) and any(text in n["message"] for _, n in notes),
              json.dumps(notes, indent=1)[:3000])

    rc, out, err = run([FKCGEN, "dump", "--json", CONTRACT])
    bs = json.loads(out)["bindings"] if rc == 0 else []
    check("dump --json gives each binding its section's cpu_reference",
          len(bs) == 2 and all(b.get("cpu_reference") == "cs_scale_ref" for b in bs), out + err)
    rc, out, err = run([FKCGEN, "dump", "--json", os.path.join(ROOT, "contracts", "vulkan",
                                                               "write_slice.md")])
    check("... and none where it is not stated", rc == 0 and '"cpu_reference"' not in out, err)

    # 3. refusals
    rc, out, err = run(base + ["--cpu", CONTRACT], env)
    check("--cpu refuses the family, naming it", rc == 1 and
          "scale (Scale, " in err and "cpu_reference cs_scale_ref on a device" in err, out + err)
    wrong = os.path.join(d, "wrong_signature.c")
    with open(wrong, "w") as f:
        f.write(open(SOURCE).read().replace(
            "fkc_status cs_scale_ref(fkc_stream *stream, const fkc_tensor *x, fkc_tensor *y,\n"
            "                        const cs_scale_params *params, const void *extra)",
            "fkc_status cs_scale_ref(fkc_stream *stream, const fkc_tensor *x, fkc_tensor *y,\n"
            "                        const float *params, const void *extra)"))
    rc, out, err = run([FKC_RUN, "conform", "--prefix", "cs", "--wrappers", wrong, CONTRACT], env)
    check("a reference of another signature fails to compile",
          rc == 1 and "the C compiler" in err and "cs_scale_ref" in err, out + err)
    missing = os.path.join(d, "missing_ref.md")
    with open(missing, "w") as f:
        f.write(open(CONTRACT).read().replace("cpu_reference: cs_scale_ref",
                                              "cpu_reference: cs_scale_nowhere"))
    rc, out, err = run(base + [missing], env)
    check("a reference the sources do not define fails at load, naming it",
          rc == 1 and "undefined symbol: cs_scale_nowhere" in err, out + err)
    bad = os.path.join(d, "bad_ref.md")
    with open(bad, "w") as f:
        f.write(open(CONTRACT).read().replace("cpu_reference: cs_scale_ref",
                                              "cpu_reference: cs::scale_ref"))
    rc, out, err = run([FKCGEN, "check", bad])
    line = open(bad).read().split("\n").index("cpu_reference: cs::scale_ref") + 1
    check("fkcgen check locates a cpu_reference that is not a C identifier",
          rc == 1 and "%s:%d:16: error: 'cpu_reference' must be a C identifier" % (bad, line)
          in err, out + err)

    layout = ("layout: { contiguous: required, strided: rejected, broadcast_stride0: rejected, "
              "start_offset: accepted, reverse_strides: rejected }\nrank: any\n")
    for name, old, new, want in [
            ("a dtype outside fkc's nine", "dtypes: [F32, I32]", "dtypes: [F32, I32, I16]",
             "scale (Scale) takes I16; conform checks a family of a backend's own over "
             "fkc's nine dtypes"),
            ("a second input", "inputs:\n- name: x\ndtypes: [F32, I32]\n" + layout,
             "inputs:\n  - name: x\n    dtypes: [F32, I32]\n    " + layout.replace(
                 "\nrank", "\n    rank") + "  - name: w\n    dtypes: [F32, I32]\n    " +
             layout.replace("\nrank", "\n    rank"),
             "has 2 inputs and 1 outputs; conform checks a family of a backend's own with one "
             "input and one output")]:
        path = os.path.join(d, "shape.md")
        text = open(CONTRACT).read()
        with open(path, "w") as f:
            f.write(text.replace(old, new))
        rc, out, err = run(base + [path], env)
        check("refused before compiling, naming the kernel: " + name,
              old in text and rc == 1 and want in err and "compiler" not in err, out + err)

    # 4. the docs' block, verbatim (build/ read as FKC_RUN's directory)
    doc = open(os.path.join(ROOT, "docs", "runtime.md")).read()
    m = re.search(r"<!-- fkc-run conform family example[^\n]*\n```sh\n(.*?)```", doc, re.S)
    check("docs/runtime.md has the family example block", m, "")
    if m:
        block = m.group(1).replace("build/", os.path.dirname(os.path.abspath(FKC_RUN)) + "/")
        rc, out, err = run(["sh", "-e", "-c", block], {"FKCGEN": FKCGEN}, cwd=ROOT)
        check("the docs' block runs: the backend passes, its ulp fault fails (exit 1)",
              rc == 0 and re.search(r"^scale +Scale +F32 +16 +16 +0 +8  ok$", out, re.M) and
              re.search(r"^scale +Scale +F32 +8 .*FAIL$", out, re.M) and "exit 1" in out,
              out + err)
        shown = re.search(r"fails that row:\n```\n(.*?)```", doc[m.end():], re.S)
        check("the rows the docs show are printed as shown",
              shown and all(l in out.split("\n") for l in shown.group(1).strip("\n").split("\n")),
              (shown.group(1) if shown else "no block") + "\n---\n" + out)

print("%d passed, %d failed" % (results.count(True), results.count(False)))
sys.exit(0 if all(results) else 1)
