#!/usr/bin/python3
"""conform_prefix.py FKC_RUN FKCGEN — a new user's own WriteSlice and WriteSliceRotating kernels
under `--prefix t4`, checked by `fkc-run conform` from fkcgen's own `--emit-stubs` skeletons
(issue 25: this once stopped at a static assertion, because fkcgen emitted a separate
`t4_write_slice_params` where docs/contract-format.md says the runtime's is used).

1. `fkcgen gen --prefix t4 --emit-stubs` on tests/cli/conform/own_kernels.md renamed to t4:
   the header's params types are the runtime's (a translation unit that assigns a
   `t4_write_slice_fn` to an `fkc_write_slice_kernel *` compiles with -Werror);
2. conform on the untouched skeletons compiles them (no static assertion) and fails every row
   of the device run on "refused a valid call" (the skeletons return FKC_ERR_UNSUPPORTED), exit 1;
3. the skeletons completed as docs/runtime.md says (each calls the runtime's wrapper of its
   width) pass conform on the default device with the validation layer, and with --cpu.
Prints 'ok ...' / 'FAIL ...' lines and 'N passed, M failed'; exit 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile

FKC_RUN, FKCGEN = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
results = []


def check(name, cond, detail=""):
    results.append(bool(cond))
    print(("ok " if cond else "FAIL ") + name + ("" if cond or not detail else "\n" + detail))


def run(*args, env=None):
    p = subprocess.run(list(args), capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


with tempfile.TemporaryDirectory() as d:
    src = open(os.path.join(HERE, "conform", "own_kernels.md")).read()
    contract = os.path.join(d, "t4_kernels.md")
    with open(contract, "w") as f:
        f.write(src.replace("conform-test", "t4-kernels").replace("conform_test::", "t4::")
                .replace("test_write_slice", "t4_ws"))
    stubs = os.path.join(d, "t4_stubs.c")
    gen = os.path.join(d, "gen")
    os.mkdir(gen)
    rc, out = run(FKCGEN, "gen", "--prefix", "t4", "--out-dir", gen, "--emit-stubs", stubs,
                  contract)
    check("gen --prefix t4 --emit-stubs", rc == 0 and os.path.exists(stubs), out)
    header = open(os.path.join(gen, "t4_bindings.h")).read()
    check("the header takes the runtime's params types",
          "typedef fkc_write_slice_params t4_write_slice_params;" in header and
          "typedef fkc_write_slice_rotating_params t4_write_slice_rotating_params;" in header and
          "struct t4_write_slice_params" not in header, header[:3000])
    probe = os.path.join(d, "probe.c")
    with open(probe, "w") as f:
        f.write('#include "fkc/fkc_kernels.h"\n#include "t4_bindings.h"\n'
                "fkc_write_slice_kernel *a(t4_write_slice_fn f);\n"
                "fkc_write_slice_kernel *a(t4_write_slice_fn f) { return f; }\n"
                "fkc_write_slice_rotating_kernel *b(t4_write_slice_rotating_fn f);\n"
                "fkc_write_slice_rotating_kernel *b(t4_write_slice_rotating_fn f) { return f; }\n")
    rc, out = run("cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", "-I" + ROOT +
                  "/runtime/include", "-I" + gen, probe, "-o", os.path.join(d, "probe.o"))
    check("t4's kernel types are the runtime's (compiled with -Werror)", rc == 0, out)

    conform = [FKC_RUN, "conform", "--prefix", "t4", "--cases", "6", "--fkcgen", FKCGEN]
    rc, out = run(*conform, "--wrappers", stubs, contract)
    check("conform compiles the untouched skeletons", "static assertion" not in out and
          "compiler" not in out and re.search(r"^t4_ws +WriteSlice +F32 ", out, re.M), out)
    rows = re.findall(r"^(t4_ws\S*) +(WriteSlice\S*) +(\S+) .*  (ok|FAIL.*)$", out, re.M)
    check("every skeleton row fails, on a refused valid call, exit 1",
          rc == 1 and len(rows) == 18 and all(r[3] == "FAIL" for r in rows) and
          "t4_ws F32: case 0" in out and "refused a valid call" in out, out)

    body = open(stubs).read()
    done = re.sub(r"(fkc_status t4_(t4_ws(?:_rotating)?)_b(\d)\(.*?)return FKC_ERR_UNSUPPORTED;",
                  lambda m: m.group(1) + "return fkc_%s_b%s(stream, src, out, params, extra);" %
                  (m.group(2).replace("t4_ws", "write_slice"), m.group(3)), body, flags=re.S)
    check("the skeleton has a TODO body per wrapper (8)", done.count("return fkc_write_slice") == 8,
          done)
    completed = os.path.join(d, "t4_wrappers.c")
    with open(completed, "w") as f:
        f.write('#include "fkc/fkc_kernels.h"\n' + done)
    rc, out = run(*conform, "--validate", "--wrappers", completed, contract)
    check("the completed wrappers pass conform on the device, validation on",
          rc == 0 and "conform: 18 rows passed, 0 failed" in out, out)
    rc, out = run(*conform, "--cpu", "--wrappers", completed, contract)
    check("and with --cpu", rc == 0 and "conform: 18 rows passed, 0 failed" in out, out)

print("%d passed, %d failed" % (results.count(True), results.count(False)))
sys.exit(0 if all(results) else 1)
