#!/usr/bin/python3
"""conform_claims.py FKC_RUN FKCGEN — each claim class conform checks, broken in turn by a
deliberately wrong kernel (tests/cli/conform/wrappers.c, CONFORM_TEST_FAULT), must fail exactly
the rows of the bindings it breaks, each row naming its binding, its dtype and the claim
(`fkc-run conform --format json`: the row's kernel and dtype, its notes' claim), while every
other row passes. Run on the default device (lavapipe) with the validation layer.
Prints 'ok ...' / 'FAIL ...' and 'N passed, M failed'."""
import json
import os
import subprocess
import sys

FKC_RUN, FKCGEN = sys.argv[1], sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = 8
results = []

# fault -> (claim, the (kernel, dtype) rows it must fail)
WS, ROT = "test_write_slice", "test_write_slice_rotating"
FAULTS = {
    "off_by_one": ("precision", {(WS, "F32"), (WS, "I32"), (WS, "U32")}),
    "wrong_byte": ("precision", {(WS, "F16"), (WS, "BF16")}),
    "outside": ("guard", {(WS, "F64"), (WS, "I64")}),
    "past_end": ("guard", {(WS, "U8"), (WS, "I8")}),
    "input": ("aliasing", {(WS, "U8"), (WS, "I8")}),
    "refuse": ("dtypes", {(WS, "BF16")}),
    "accept_invalid": ("shape_constraint", {(WS, "F32"), (WS, "I32"), (WS, "U32")}),
    "nondeterministic": ("determinism", {(WS, "I64")}),
    "ring_position": ("precision", {(ROT, "F32"), (ROT, "I32"), (ROT, "U32")}),
}


def check(name, cond, detail=""):
    results.append(bool(cond))
    print(("ok " if cond else "FAIL ") + name + ("" if cond or not detail else "\n" + str(detail)[:3000]))


def conform(fault):
    env = dict(os.environ, CONFORM_TEST_CASES=str(CASES))
    if fault:
        env["CONFORM_TEST_FAULT"] = fault
    p = subprocess.run([FKC_RUN, "conform", "--validate", "--cases", str(CASES), "--format", "json",
                        "--fkcgen", FKCGEN, "--wrappers", "tests/cli/conform/wrappers.c",
                        "tests/cli/conform/own_kernels.md"], cwd=ROOT, env=env,
                       capture_output=True, text=True)
    return p.returncode, json.loads(p.stdout) if p.stdout.startswith("{") else None, p.stderr


rc, doc, err = conform(None)
check("no fault: all 18 rows pass, exit 0", rc == 0 and doc and doc["summary"]["failed"] == 0 and
      len(doc["rows"]) == 18, (rc, err))
for fault, (claim, rows) in FAULTS.items():
    rc, doc, err = conform(fault)
    if not doc:
        check("%s: conform ran" % fault, False, (rc, err))
        continue
    failed = {(r["kernel"], r["dtype"]) for r in doc["rows"] if not r["ok"]}
    claims = {(r["kernel"], r["dtype"]): {n["claim"] for n in r["notes"]} for r in doc["rows"] if not r["ok"]}
    named = all(claim in claims[k] and all(n["message"].startswith("%s %s" % k) for n in r["notes"])
                for r in doc["rows"] for k in [(r["kernel"], r["dtype"])] if not r["ok"])
    check("%s: fails %s with claim %s, each note naming its binding and dtype; the others pass"
          % (fault, sorted("%s %s" % k for k in rows), claim),
          rc == 1 and failed == rows and named, (failed, claims, err[-500:]))

print("%d passed, %d failed" % (results.count(True), results.count(False)))
sys.exit(0 if all(results) else 1)
