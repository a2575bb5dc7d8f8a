#!/usr/bin/python3
"""conform_claims.py FKC_RUN FKCGEN — each claim class conform checks, broken in turn by a
deliberately wrong kernel (tests/cli/conform/wrappers.c, and for SetRows set_rows_wrappers.c,
CONFORM_TEST_FAULT), must fail exactly
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

# SetRows (tests/cli/conform/own_set_rows.md, set_rows_wrappers.c): its edge cases are the first
# 10, so every fault is met in SR_CASES cases; rows are keyed [src, index, cache].
SR, SRN = "test_set_rows", "test_set_rows_narrow"
SR_CASES = 10
SR_FAULTS = {
    "ties_up": ("precision", {(SRN, "F32,I32,F16"), (SRN, "F32,I32,BF16"), (SRN, "F32,I64,F16"),
                              (SRN, "F32,I64,BF16")}),
    "writes_skipped": ("skipped", {(SR, "F32,I32,F32"), (SR, "I32,I32,I32")}),
    "first_dup": ("duplicates", {(SR, "F16,I32,F16"), (SR, "BF16,I32,BF16")}),
    "no_status": ("status", {(SR, "I8,I32,I8")}),
    "i64_truncate": ("skipped", {(SR, "F32,I64,F32"), (SR, "I32,I64,I32")}),
}


def conform_sr(fault, fmt="json", allow=True):
    env = dict(os.environ)
    env.pop("CONFORM_TEST_FAULT", None)
    if fault:
        env["CONFORM_TEST_FAULT"] = fault
    p = subprocess.run([FKC_RUN, "conform", "--validate", "--cases", str(SR_CASES), "--format", fmt,
                        "--fkcgen", FKCGEN, "--wrappers", "tests/cli/conform/set_rows_wrappers.c"] +
                       (["--allow-undeclared"] if allow else []) +
                       ["tests/cli/conform/own_set_rows.md"], cwd=ROOT, env=env,
                       capture_output=True, text=True)
    if fmt != "json":
        return p.returncode, p.stdout, p.stderr
    return p.returncode, json.loads(p.stdout) if p.stdout.startswith("{") else None, p.stderr


rc, doc, err = conform_sr(None)
check("SetRows, no fault: 14 binding rows and the unbound row pass, exit 0",
      rc == 0 and doc and doc["summary"]["failed"] == 0 and len(doc["rows"]) == 15 and
      {r["dtype"] for r in doc["rows"]} >= {"F32,I64,F32", "F32,I32,BF16", "unbound"}, (rc, err))
rc, doc, err = conform_sr(None, allow=False)
bad = [r for r in doc["rows"] if not r["ok"]] if doc else []
check("SetRows without --allow-undeclared: only the unbound row fails (the runtime runs U32 copies "
      "the test contract leaves out), claim dtypes, naming [U32, I32, U32]",
      rc == 1 and len(bad) == 1 and bad[0]["dtype"] == "unbound" and
      bad[0]["result"] == "FAIL: works but undeclared" and
      bad[0]["notes"][0]["claim"] == "dtypes" and "[U32, I32, U32]" in bad[0]["notes"][0]["message"],
      (rc, bad, err[-300:]))
for fault, (claim, rows) in SR_FAULTS.items():
    rc, doc, err = conform_sr(fault)
    if not doc:
        check("SetRows %s: conform ran" % fault, False, (rc, err))
        continue
    failed = {(r["kernel"], r["dtype"]) for r in doc["rows"] if not r["ok"]}
    claims = {(r["kernel"], r["dtype"]): {n["claim"] for n in r["notes"]} for r in doc["rows"] if not r["ok"]}
    named = all(claim in claims[k] and all(n["message"].startswith("%s %s" % k) for n in r["notes"])
                for r in doc["rows"] for k in [(r["kernel"], r["dtype"])] if not r["ok"])
    check("SetRows %s: fails %s with claim %s, each note naming its binding and key; the others pass"
          % (fault, sorted("%s %s" % k for k in rows), claim),
          rc == 1 and failed == rows and named, (failed, claims, err[-500:]))
# the runtime's own contracts: every SetRows binding of set_rows.md, and the whole directory
p = subprocess.run([FKC_RUN, "conform", "--validate", "--fkcgen", FKCGEN, "--cases", "16",
                    "contracts/vulkan/set_rows.md", "contracts/vulkan/write_slice.md"], cwd=ROOT,
                   capture_output=True, text=True)
check("contracts/vulkan/*.md under validation: 45 rows pass (18 write-slice, 26 SetRows, unbound), "
      "each SetRows row saying what its precision claim was checked as",
      p.returncode == 0 and "conform: 45 rows passed, 0 failed (44 bindings;" in p.stdout and
      p.stdout.count("ok: bit copy, 0 ulp, bit-exact") == 18 and
      p.stdout.count("ok: round to nearest even") == 4 and p.stdout.count("ok: exact widening") == 4,
      (p.returncode, p.stdout[-2000:], p.stderr[-500:]))
p = subprocess.run([FKC_RUN, "conform", "--cpu", "--fkcgen", FKCGEN, "contracts/vulkan/set_rows.md"],
                   cwd=ROOT, capture_output=True, text=True)
check("set_rows.md --cpu: fkc_ref_set_rows agrees with conform's oracle on every binding's 64 cases",
      p.returncode == 0 and "conform: 27 rows passed, 0 failed (26 bindings;" in p.stdout,
      (p.returncode, p.stdout[-1500:], p.stderr[-500:]))
# the other formats carry the same failure: SARIF's rule and message, JUnit's failure type
rc, out, err = conform_sr("ties_up", "sarif")
try:
    res = json.loads(out)["runs"][0]["results"]
except (ValueError, KeyError, IndexError):
    res = []
check("SetRows ties_up --format sarif: results of rule conform.precision name each narrow key",
      rc == 1 and all(any(x["ruleId"] == "conform.precision" and
                          x["message"]["text"].find("%s %s" % k) >= 0 for x in res)
                      for k in SR_FAULTS["ties_up"][1]), (rc, out[-1500:], err[-300:]))
rc, out, err = conform_sr("ties_up", "junit")
check("SetRows ties_up --format junit: 4 failures of type conform.precision on the narrow keys",
      rc == 1 and 'failures="4"' in out and
      all(('name="%s %s">' % k) in out for k in SR_FAULTS["ties_up"][1]) and
      out.count('<failure type="conform.precision"') == 4, (rc, out[-1500:], err[-300:]))

print("%d passed, %d failed" % (results.count(True), results.count(False)))
sys.exit(0 if all(results) else 1)
