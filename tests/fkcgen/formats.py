#!/usr/bin/python3
"""formats.py FKCGEN FKC_RUN — the results CI reads (issue 25): `--format
text|json|sarif|junit|github` of `fkcgen check`, `fkcgen diff`, `fkcgen gen --check` and
`fkc-run conform`, each parsed from what is printed:
  json    json.loads, the findings/rows and the summary;
  sarif   the SARIF 2.1.0 properties a consumer needs: version, $schema, runs[].tool.driver.name
          and .rules[].id, results[].ruleId (and ruleIndex naming that rule), level, message.text,
          locations[].physicalLocation.artifactLocation.uri and region.startLine >= 1;
  junit   xml.etree: testsuites/testsuite/testcase, counts equal to the cases, failures where
          the errors are;
  github  every line a workflow command `::error file=F,line=L,col=C,title=R::message` (or
          ::warning/::notice), then one summary line.
Each input holds two unrelated errors where the command can see two. The text form must stay
what it was: `--format text` prints what no --format prints, byte for byte.
Prints 'ok ...' / 'FAIL ...' and 'N passed, M failed'; exit 1 on any failure."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

FKCGEN, FKC_RUN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(ROOT, "contracts", "vulkan", "write_slice.md")
# generated/ is made from every contract of contracts/vulkan/ (the Makefile's CONTRACTS)
VULKAN = sorted("contracts/vulkan/" + n for n in os.listdir(os.path.join(ROOT, "contracts", "vulkan"))
                if n.endswith(".md"))
results = []


def check(name, cond, detail=""):
    results.append(bool(cond))
    print(("ok " if cond else "FAIL ") + name + ("" if cond or not detail else "\n" + str(detail)[:4000]))


def run(*args, cwd=None, env=None):
    p = subprocess.run(list(args), capture_output=True, text=True, cwd=cwd, env=env)
    return p.returncode, p.stdout, p.stderr


GH = re.compile(r"^::(error|warning|notice) (?:file=([^,:]+)(?:,line=(\d+)(?:,col=(\d+))?)?,)?"
                r"title=([^:]+)::(.+)$")


def sarif_problems(doc):
    """What a SARIF 2.1.0 consumer needs and this document lacks (empty: valid)."""
    bad = []
    if doc.get("version") != "2.1.0":
        bad.append("version")
    if not isinstance(doc.get("$schema"), str) or "sarif" not in doc["$schema"]:
        bad.append("$schema")
    runs = doc.get("runs")
    if not isinstance(runs, list) or not runs:
        return bad + ["runs"]
    for r in runs:
        driver = r.get("tool", {}).get("driver", {})
        if not isinstance(driver.get("name"), str) or not driver["name"]:
            bad.append("tool.driver.name")
        rules = driver.get("rules", [])
        if not all(isinstance(x.get("id"), str) for x in rules):
            bad.append("rules[].id")
        if not isinstance(r.get("results"), list):
            bad.append("results")
            continue
        for res in r["results"]:
            if not isinstance(res.get("ruleId"), str):
                bad.append("ruleId")
            if "ruleIndex" in res and rules[res["ruleIndex"]]["id"] != res.get("ruleId"):
                bad.append("ruleIndex %r" % res.get("ruleId"))
            if res.get("level", "warning") not in ("none", "note", "warning", "error"):
                bad.append("level")
            if not isinstance(res.get("message", {}).get("text"), str):
                bad.append("message.text")
            for loc in res.get("locations", []) + res.get("relatedLocations", []):
                phys = loc.get("physicalLocation", {})
                if not isinstance(phys.get("artifactLocation", {}).get("uri"), str):
                    bad.append("artifactLocation.uri")
                reg = phys.get("region")
                if reg is not None and not (isinstance(reg.get("startLine"), int) and reg["startLine"] >= 1):
                    bad.append("region.startLine")
    return bad


def junit_cases(text):
    root = ET.fromstring(text)
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    cases = [c for s in suites for c in s.iter("testcase")]
    n = sum(int(s.get("tests")) for s in suites)
    f = sum(int(s.get("failures")) for s in suites)
    failing = [c.get("name") for c in cases if c.find("failure") is not None]
    return root, cases, n, f, failing


def formats(label, argv, cwd, want_rc, want_rules, want_failing, want_cases, locate):
    """Runs argv with each format (given after the command word: before the operands);
    checks them against the rules, failing cases and cases."""
    rc_text, out_text, err_text = run(*argv, cwd=cwd)
    cmd, rest = argv[:2], argv[2:]

    def runf(*fmt, cwd=None):  # the format's option first, then the operands
        return run(*cmd, *fmt, *rest, cwd=cwd)

    rc, out, err = runf("--format", "text", cwd=cwd)
    check("%s: --format text is the default output, byte for byte" % label,
          (rc, out, err) == (rc_text, out_text, err_text) and rc == want_rc, (rc, out, err))
    rc, out, err = runf("--format", "sarif", cwd=cwd)
    try:
        doc = json.loads(out)
        bad = sarif_problems(doc)
        res = doc["runs"][0]["results"]
        rules = sorted({r["ruleId"] for r in res})
        located = all(r["locations"] and "region" in r["locations"][0]["physicalLocation"]
                      for r in res if r["ruleId"] in locate)
        check("%s: SARIF 2.1.0 with the required properties, rules %s, exit %d" % (label, want_rules, want_rc),
              not bad and rules == sorted(want_rules) and rc == want_rc and located,
              (bad, rules, rc, out[:3000], err))
    except (ValueError, KeyError, IndexError) as e:
        check("%s: SARIF parses" % label, False, (e, out[:2000], err))
    rc, out, err = runf("--format", "junit", cwd=cwd)
    try:
        root, cases, n, f, failing = junit_cases(out)
        names = [c.get("name") for c in cases]
        check("%s: JUnit read by xml.etree: %d cases, failing %s" % (label, len(want_cases), want_failing),
              n == len(cases) and f == len(failing) and sorted(failing) == sorted(want_failing) and
              sorted(names) == sorted(want_cases) and rc == want_rc, (names, failing, rc, out[:3000]))
    except ET.ParseError as e:
        check("%s: JUnit parses" % label, False, (e, out[:2000]))
    rc, out, err = runf("--format", "github", cwd=cwd)
    lines = out.splitlines()
    ann = [GH.match(x) for x in lines[:-1]]
    titles = sorted({m.group(5).split(" ")[0] for m in ann if m})
    check("%s: GitHub workflow commands, one per finding, then a summary" % label,
          lines and all(ann) and titles == sorted(want_rules) and rc == want_rc and
          all(m.group(3) for m in ann if m.group(5).split(" ")[0] in locate), (lines, err))
    rc, out, err = runf("--format", "json", cwd=cwd)
    try:
        json.loads(out)
        check("%s: JSON parses, exit %d" % (label, want_rc), rc == want_rc, (rc, err))
    except ValueError as e:
        check("%s: JSON parses" % label, False, (e, out[:2000]))
    return out


with tempfile.TemporaryDirectory() as d:
    # ---- check: two files, one with two unrelated errors, one clean ----
    seed = open(SEED).read()
    bad = seed.replace("dtypes: [F32, I32, U32, F16, BF16, F64, I64, U8, I8]", "dtypes: [F32, Q8]", 1)
    head, sep, tail = bad.rpartition("alignment_bytes: 16")  # the second section's: YAML
    bad = head + "alignment_bytes: [16" + tail
    os.makedirs(os.path.join(d, "c"))
    with open(os.path.join(d, "c", "bad.md"), "w") as f:
        f.write(bad)
    shutil.copy(os.path.join(ROOT, "tests/cli/conform/own_kernels.md"), os.path.join(d, "c", "good.md"))
    rc, _, err = run(FKCGEN, "check", "bad.md", cwd=os.path.join(d, "c"))
    n_err = len(re.findall(r"^bad\.md:\d+:\d+: error:", err, re.M))
    check("check: the bad contract has two errors (text)", rc == 1 and n_err == 2, err)
    out = formats("check", [FKCGEN, "check", "bad.md", "good.md"], os.path.join(d, "c"), 1,
                  ["fkc.contract", "fkc.yaml"], ["bad.md"], ["bad.md", "good.md"],
                  ["fkc.contract", "fkc.yaml"])
    doc = json.loads(out)
    check("check: JSON findings at bad.md's lines, summary 2 errors",
          doc["summary"]["errors"] == 2 and all(x["location"]["file"] == "bad.md" and x["location"]["line"] > 0
                                                for x in doc["findings"]), doc)
    rc, out, err = run(FKCGEN, "check", "--format", "yaml", "good.md", cwd=os.path.join(d, "c"))
    check("check: an unknown --format is a usage error", rc == 2 and "--format" in err and not out, err)

    # ---- diff: two breaking changes (the two I8 bindings), one allowed ----
    os.makedirs(os.path.join(d, "d"))
    shutil.copy(SEED, os.path.join(d, "d", "old.md"))
    with open(os.path.join(d, "d", "new.md"), "w") as f:
        f.write(seed.replace(", I8]", "]"))
    with open(os.path.join(d, "d", "allow.txt"), "w") as f:
        f.write("DTYPE_REMOVED (WriteSlice, [I8, I8], Vulkan) + vulkan-slang 2027-06-30 I8 moves\n")
    argv = [FKCGEN, "diff", "--allow", "allow.txt", "--today", "2027-01-15", "old.md", "new.md"]
    ws = "DTYPE_REMOVED (WriteSlice, [I8, I8], Vulkan) + vulkan-slang"
    rot = "DTYPE_REMOVED (WriteSliceRotating, [I8, I8], Vulkan) + vulkan-slang"
    formats("diff", argv, os.path.join(d, "d"), 1, ["DTYPE_REMOVED"], [rot], [ws, rot], ["DTYPE_REMOVED"])
    rc, out, _ = run(*argv[:2], "--format", "sarif", *argv[2:], cwd=os.path.join(d, "d"))
    res = json.loads(out)["runs"][0]["results"]
    check("diff: SARIF levels warning (allowed) and error, each with the old place as related",
          sorted(r["level"] for r in res) == ["error", "warning"] and
          all(r["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "old.md" for r in res), res)
    argv_x = argv[:5] + ["2027-07-15"] + argv[6:]
    rc, out, _ = run(*argv_x[:2], "--format", "junit", *argv_x[2:], cwd=os.path.join(d, "d"))
    _, cases, n, f, failing = junit_cases(out)
    check("diff: an expired allow entry is its own failing case (ALLOW_EXPIRED)",
          rc == 1 and "allow.txt" in failing and ws in failing and rot in failing, out)
    rc, out, err = run(FKCGEN, "diff", "--format", "json", "old.md", "new.md", cwd=os.path.join(d, "d"))
    rc2, out2, _ = run(FKCGEN, "diff", "--json", "old.md", "new.md", cwd=os.path.join(d, "d"))
    check("diff: --format json is --json", rc == rc2 == 1 and out == out2 and '"DTYPE_REMOVED"' in out, out)

    # ---- gen --check: the seed's generated/ copy with one changed line ----
    g = os.path.join(d, "g")
    shutil.copytree(os.path.join(ROOT, "generated"), g)
    src = open(os.path.join(g, "fkc_bindings.c")).read().split("\n")
    src[9] += " /* drift */"
    with open(os.path.join(g, "fkc_bindings.c"), "w") as f:
        f.write("\n".join(src))
    argv = [FKCGEN, "gen", "--check", "--out-dir", g] + VULKAN
    out = formats("gen --check", argv, ROOT, 1, ["fkc.drift"], [g + "/fkc_bindings.c"],
                  VULKAN + [g + "/fkc_bindings.h", g + "/fkc_bindings.c"],
                  ["fkc.drift"])
    rc, out, err = run(*argv[:2], "--format", "sarif", *argv[2:], cwd=ROOT)
    r0 = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    check("gen --check: the drift's region is the first changed line (10); the diff on stderr",
          r0["region"]["startLine"] == 10 and "+++ " in err and "/* drift */" in err, (r0, err[:500]))
    rc, out, err = run(FKCGEN, "gen", "--format", "sarif", "--out-dir", g, *VULKAN, cwd=ROOT)
    check("gen: --format without --check is a usage error", rc == 2 and "--check" in err, err)

    # ---- fkc-run conform: I8 removed from the seed (works but undeclared, two rows) ----
    os.makedirs(os.path.join(d, "k"))
    with open(os.path.join(d, "k", "no_i8.md"), "w") as f:
        f.write(seed.replace("U8, I8] # 9", "U8] # 9"))
    argv = [FKC_RUN, "conform", "--cpu", "--cases", "4", "--fkcgen", FKCGEN, "no_i8.md"]
    names = ["%s %s" % (k, t) for k in ("write_slice", "write_slice_rotating")
             for t in ("F32", "I32", "U32", "F16", "BF16", "F64", "I64", "U8", "I8")]
    out = formats("conform", argv, os.path.join(d, "k"), 1, ["conform.dtypes"],
                  ["write_slice I8", "write_slice_rotating I8"], names, ["conform.dtypes"])
    doc = json.loads(out)
    rows = {(r["kernel"], r["dtype"]): r for r in doc["rows"]}
    check("conform: JSON rows name binding, dtype and claim; the summary counts them",
          len(rows) == 18 and not rows[("write_slice", "I8")]["ok"] and
          rows[("write_slice", "I8")]["notes"][0]["claim"] == "dtypes" and
          rows[("write_slice", "I8")]["result"] == "FAIL: works but undeclared" and
          rows[("write_slice", "F32")]["ok"] and doc["summary"]["failed"] == 2 and
          doc["summary"]["passed"] == 16, doc["summary"])
    # a wrong kernel on the device: its claim class names the SARIF rule
    argv = [FKC_RUN, "conform", "--cases", "8", "--fkcgen", FKCGEN, "--wrappers",
            os.path.join(ROOT, "tests/cli/conform/wrappers.c"),
            os.path.join(ROOT, "tests/cli/conform/own_kernels.md")]
    env = dict(os.environ, CONFORM_TEST_FAULT="outside")
    rc, out, err = run(*argv[:2], "--format", "sarif", *argv[2:], env=env)
    res = json.loads(out)["runs"][0]["results"]
    check("conform: a write before the output is conform.guard on test_write_slice F64 and I64",
          rc == 1 and {r["ruleId"] for r in res} == {"conform.guard"} and
          {(r["properties"]["kernel"], r["properties"]["dtype"]) for r in res} ==
          {("test_write_slice", "F64"), ("test_write_slice", "I64")} and
          all("before its output, changed" in r["message"]["text"] for r in res), (rc, res[:2], err))
    rc, out, err = run(FKC_RUN, "conform", "--format", "xml", "no_i8.md", cwd=os.path.join(d, "k"))
    check("conform: an unknown --format is a usage error", rc == 2 and "--format" in err, err)


def ci_step():
    """The `run:` lines of docs/fkcgen.md's GitHub Actions step, build/ read as the build."""
    doc = open(os.path.join(ROOT, "docs", "fkcgen.md")).read()
    block = doc.split("<!-- fkcgen formats in CI:", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    lines = block.split("\n")
    at = next(i for i, x in enumerate(lines) if x.strip() == "run: |")
    indent = len(lines[at + 1]) - len(lines[at + 1].lstrip())
    run_lines = []
    for x in lines[at + 1:]:
        if x.strip() and len(x) - len(x.lstrip()) < indent:
            break
        run_lines.append(x[indent:])
    build = os.path.dirname(FKCGEN)
    return "\n".join(run_lines).replace("build/", build + "/") + "\n"


# conform checks every binding of contracts/vulkan/ (write_slice's 18, set_rows' 26, ...): the
# JUnit file has one row each, counted from the table itself, not written down here
# (named "<kernel> <key>": the dtype alone for the seed's [T, T], else the whole key)
VULKAN_ROWS = sorted(
    b["kernel"] + " " + (b["dtypes"][0] if len(b["dtypes"]) == 2 and b["dtypes"][0] == b["dtypes"][1]
                         else ",".join(b["dtypes"]))
    for b in json.loads(subprocess.run([FKCGEN, "dump", "--json"] + [os.path.join(ROOT, c) for c in VULKAN],
                                       check=True, capture_output=True, text=True).stdout)["bindings"])
N_VULKAN = len(VULKAN_ROWS)

with tempfile.TemporaryDirectory() as d:
    # docs/fkcgen.md's CI step in a repository of the seed's contract and generated code, whose
    # origin/main is the same: clean it exits 0, with a valid SARIF document and a JUnit file
    script = ci_step()
    check("docs: the CI step runs all four commands with a format",
          all(c in script for c in ("fkcgen check --format", "gen --check --format",
                                    "diff --format", "conform --format")), script)
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    repo = os.path.join(d, "pr")
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", os.path.join(d, "origin.git")], check=True, env=env)
    subprocess.run(["git", "clone", "-q", os.path.join(d, "origin.git"), repo], check=True, env=env,
                   capture_output=True)
    os.makedirs(os.path.join(repo, "contracts", "vulkan"))
    for c in VULKAN:
        shutil.copy(os.path.join(ROOT, c), os.path.join(repo, "contracts", "vulkan"))
    shutil.copytree(os.path.join(ROOT, "generated"), os.path.join(repo, "generated"))
    for c in (["add", "."], ["commit", "-qm", "seed"], ["push", "-q", "origin", "main"],
              ["checkout", "-q", "-b", "pr"]):
        subprocess.run(["git"] + c, cwd=repo, check=True, env=env, capture_output=True)
    with open(os.path.join(d, "step.sh"), "w") as f:
        f.write(script)
    p = subprocess.run(["sh", "-e", os.path.join(d, "step.sh")], cwd=repo, env=env,
                       capture_output=True, text=True)
    try:
        sarif = json.load(open(os.path.join(repo, "reports", "check.sarif")))
        _, cases, n, f, failing = junit_cases(open(os.path.join(repo, "reports", "conform.xml")).read())
        passing = {c.get("name") for c in cases if c.find("failure") is None and c.find("skipped") is None}
        missing = [r for r in VULKAN_ROWS if r not in passing]
        ok = p.returncode == 0 and not sarif_problems(sarif) and not missing and f == 0
    except (OSError, ValueError, ET.ParseError) as e:
        ok, sarif, n, missing = False, e, 0, None
    check("docs: the CI step passes on a clean tree; SARIF valid, JUnit with a passing row for "
          "each of the %d bindings of contracts/vulkan/" % N_VULKAN, ok,
          (n, missing, p.returncode, p.stdout[-2000:], p.stderr[-2000:]))
    gen = os.path.join(repo, "generated", "fkc_bindings.h")
    text = open(gen).read().split("\n")
    text[19] += " /* edited */"
    with open(gen, "w") as f:
        f.write("\n".join(text))
    p = subprocess.run(["sh", "-e", os.path.join(d, "step.sh")], cwd=repo, env=env,
                       capture_output=True, text=True)
    ann = [GH.match(x) for x in p.stdout.splitlines()]
    check("docs: with generated/ edited the step fails at gen --check, an ::error at line 20",
          p.returncode == 1 and any(m and m.group(1) == "error" and m.group(5) == "fkc.drift" and
                                    m.group(2) == "generated/fkc_bindings.h" and m.group(3) == "20"
                                    for m in ann) and "conform" not in p.stdout,
          (p.returncode, p.stdout[-2000:], p.stderr[-1500:]))

print("%d passed, %d failed" % (results.count(True), results.count(False)))
sys.exit(0 if all(results) else 1)
