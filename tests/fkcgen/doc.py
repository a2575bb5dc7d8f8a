#!/usr/bin/python3
"""doc.py FKCGEN FKC_RUN — `fkcgen doc` (issue 25): the reference page of each provider.
  - the seed's page holds every kernel, its op kind, input (dtypes, rank, the five layout
    keys), op params, output rules, each binding's key, byte width, wrapper and symbol, caps,
    cost, precision and determinism, each as the contract states it (compared with
    `fkcgen dump --json`, not with the page's own code);
  - with conform results (`fkc-run conform --format json`), a wrong kernel's rows read FAILED and
    the others passed, with the worst error measured; an undeclared dtype conform ran is listed;
  - the HTML (through cmark) parses and says the same; contract text is escaped (a blurb with
    `<script>` and `*` is shown literally, never as markup);
  - byte-stable (the same bytes twice, from another directory with --root); --check exits 0 on
    an up-to-date page and 1 with a diff on a changed one, writing nothing; errors (a bad
    results file, two providers of one page name, a contract error) exit non-zero, nothing
    written.
Prints 'ok ...' / 'FAIL ...' and 'N passed, M failed'."""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

FKCGEN, FKC_RUN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = "contracts/vulkan/write_slice.md"
OWN = "tests/cli/conform/own_kernels.md"
results = []


def check(name, cond, detail=""):
    results.append(bool(cond))
    print(("ok " if cond else "FAIL ") + name + ("" if cond or not detail else "\n" + str(detail)[:3000]))


def run(*args, cwd=ROOT, env=None):
    p = subprocess.run(list(args), capture_output=True, text=True, cwd=cwd, env=env)
    return p.returncode, p.stdout, p.stderr


class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def section(page, kernel):
    return page.split("\n## %s\n" % kernel, 1)[1].split("\n## ", 1)[0]


with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "out")
    os.mkdir(out)
    rc, _, err = run(FKCGEN, "doc", "--html", "--out-dir", out, SEED)
    check("doc writes the seed's page, Markdown and HTML", rc == 0 and
          sorted(os.listdir(out)) == ["fuel-vulkan-kernels.html", "fuel-vulkan-kernels.md"], (rc, err))
    page = open(os.path.join(out, "fuel-vulkan-kernels.md")).read()
    dump = json.loads(run(FKCGEN, "dump", "--json", SEED)[1])
    def bindings_missing(page, dump):
        missing = []
        for b in dump["bindings"]:
            s = section(page, b["kernel"])
            key = "`(%s, [%s], %s) + %s`" % (b["op_kind"], ", ".join(b["dtypes"]), b["backend"],
                                            b["kernel_source"])
            line = next((x for x in s.split("\n") if x.startswith("- " + key)), None)
            if not line or "%d-byte" % b["byte_width"] not in line or "`%s`" % b["wrapper"] not in line \
                    or "`%s`" % b["symbol"] not in line:
                missing.append((key, line))
        return missing
    missing = bindings_missing(page, dump)
    check("each of the 18 bindings: key, byte width, wrapper, symbol", len(dump["bindings"]) == 18 and
          not missing, missing)
    # a key over two tensors (tests/fkcgen/diff/combination_added/new.md: [src, idx]), each
    # combination its own binding, wrapper and symbol
    two = os.path.join(d, "two")
    os.mkdir(two)
    ck = "tests/fkcgen/diff/combination_added/new.md"
    rc, _, err = run(FKCGEN, "doc", "--out-dir", two, ck)
    dump2 = json.loads(run(FKCGEN, "dump", "--json", ck)[1])
    page2 = open(os.path.join(two, "demo-kernels.md")).read() if rc == 0 else ""
    check("a two-slot key: every combination with its whole key, wrapper and symbol",
          rc == 0 and any(len(set(b["dtypes"])) > 1 for b in dump2["bindings"]) and
          not bindings_missing(page2, dump2), (rc, err, bindings_missing(page2, dump2)[:3]))
    ws = section(page, "write_slice")
    want = ["Op kind `WriteSlice`", "`src`: dtypes `F32`, `I32`, `U32`, `F16`, `BF16`, `F64`, `I64`, `U8`, `I8`",
            "rank any", "contiguous required, strided rejected, broadcast_stride0 rejected",
            "`dst_shape`: `Vec<usize>`", "`offsets`: `Vec<usize>`",
            "`out`: dtype `passthrough(src)`, shape `from_params(dst_shape)`, layout `contiguous`, aliasing `none`",
            "awkward layout strategy `requires_contiguous`", "alignment: 16 bytes",
            "provenance `judge_measured`", "bytes moved `2 * n * dtype_bytes`",
            "determinism `bitwise`", "max ulp 0, max relative 0.0, max absolute 0.0"]
    check("write_slice: inputs, layout, op params, output rules, caps, cost, precision, determinism",
          all(w in ws for w in want), [w for w in want if w not in ws])

    # conform results: the seed on the CPU, and own_kernels with a wrong b8 wrapper on the device
    cpu = os.path.join(d, "cpu.json")
    with open(cpu, "w") as f:
        f.write(run(FKC_RUN, "conform", "--cpu", "--cases", "4", "--format", "json", SEED)[1])
    dev = os.path.join(d, "dev.json")
    env = dict(os.environ, CONFORM_TEST_FAULT="outside")
    with open(dev, "w") as f:
        f.write(run(FKC_RUN, "conform", "--cases", "4", "--format", "json", "--wrappers",
                    "tests/cli/conform/wrappers.c", OWN, env=env)[1])
    own = os.path.join(d, "own")
    os.mkdir(own)
    rc, _, err = run(FKCGEN, "doc", "--results", dev, "--results", cpu, "--out-dir", own, OWN)
    p2 = open(os.path.join(own, "conform-test.md")).read()
    t = section(p2, "test_write_slice")
    line = {x.split("`")[1].split(",")[0][1:] + x.split("[")[1].split(",")[0]: x
            for x in t.split("\n") if x.startswith("- `(")}
    f64, f32 = line.get("WriteSliceF64", ""), line.get("WriteSliceF32", "")
    check("results: the wrong b8 kernel's F64 row FAILED on the device, F32 passed, 4 of 4 cases",
          rc == 0 and "**FAILED**" in f64 and "**passed**, 4 of 4 cases" in f32 and
          "llvmpipe" in f32, (rc, err, f64, f32))
    check("results: the worst error measured beside the claim", "worst error measured: 0 ulp" in f32 and
          "- max ulp 0" in t, f32)
    check("results: a file whose rows name other kernels is 'not run' there",
          "CPU reference (--cpu): not run" in f32, f32)
    seedres = os.path.join(d, "seedres")
    os.mkdir(seedres)
    no_i8 = os.path.join(d, "no_i8.md")
    with open(no_i8, "w") as f:
        f.write(open(os.path.join(ROOT, SEED)).read().replace("U8, I8] # 9", "U8] # 9"))
    res = os.path.join(d, "no_i8.json")
    with open(res, "w") as f:
        f.write(run(FKC_RUN, "conform", "--cpu", "--cases", "2", "--format", "json", no_i8)[1])
    rc, _, err = run(FKCGEN, "doc", "--results", res, "--out-dir", seedres, no_i8)
    p3 = open(os.path.join(seedres, "fuel-vulkan-kernels.md")).read()
    check("results: an undeclared dtype conform ran is listed (works but undeclared)",
          rc == 0 and "- `I8` on CPU reference (--cpu): **FAILED** (FAIL: works but undeclared)" in
          section(p3, "write_slice"), section(p3, "write_slice")[-1500:])

    # a three-slot key (SetRows' [src, index, cache]): conform's row names the whole key
    srres = os.path.join(d, "set_rows.json")
    with open(srres, "w") as f:
        f.write(run(FKC_RUN, "conform", "--cpu", "--cases", "2", "--format", "json",
                    "contracts/vulkan/set_rows.md")[1])
    srdir = os.path.join(d, "srdoc")
    os.mkdir(srdir)
    rc, _, err = run(FKCGEN, "doc", "--results", srres, "--out-dir", srdir, "contracts/vulkan/set_rows.md")
    p4 = open(os.path.join(srdir, "fkc-runtime-set-rows.md")).read()
    lines = [x for x in p4.split("\n") if x.startswith("- `(SetRows, [")]
    narrow = [x for x in lines if x.startswith("- `(SetRows, [F32, I64, BF16]")]
    check("results: each of the 26 SetRows bindings (keys of 3 slots) shows its own row, passed",
          rc == 0 and len(lines) == 26 and all("**passed**" in x and "2 of 2 cases" in x for x in lines) and
          len(narrow) == 1 and "round to nearest even" in narrow[0], (rc, err, lines[:3]))

    # issue 22's tensor facts and typed params, on the example contracts: each input line says
    # its dtype tie, optional (and the key of a call without it), variadic, shape only; each
    # output line its in_place input or out= argument; each enum field its values and default
    ex = ["contracts/examples/ggml-vulkan/ops.md", "contracts/examples/pytorch/native.md"]
    exdir = os.path.join(d, "exdoc")
    os.mkdir(exdir)
    rc, _, err = run(FKCGEN, "doc", "--out-dir", exdir, *ex)
    exdump = json.loads(run(FKCGEN, "dump", "--json", *ex)[1])
    pages = {f: open(os.path.join(exdir, f)).read() for f in sorted(os.listdir(exdir))}
    def line_of(kernel, name):
        s = next(section(p, kernel) for p in pages.values() if "\n## %s\n" % kernel in p)
        return next((x for x in s.split("\n") if x.startswith("- `%s`: " % name)), "")
    bad, seen = [], set()
    for bd in exdump["bindings"]:
        if bd["kernel"] in seen:
            continue
        seen.add(bd["kernel"])
        for i in bd["inputs"]:
            ln = line_of(bd["kernel"], i["name"])
            want = [("; the dtype of `%s`" % i["same_dtype_as"]) if "same_dtype_as" in i else None,
                    "; optional (the wrapper gets NULL without it" if i.get("optional") else None,
                    ("keyed `%s` in its slot" % i["absent_key"]) if "absent_key" in i else None,
                    "; variadic: one or more tensors of one dtype" if i.get("variadic") else None,
                    "; shape only: its shape and dtype are read, never its data"
                    if i.get("shape_only") else None]
            for w, key in zip(want, ("same_dtype_as", "optional", "absent_key", "variadic",
                                     "shape_only")):
                if (w is not None) != (key in i and i[key] is not False) or (w and w not in ln):
                    bad.append((bd["kernel"], i["name"], key, ln[-200:]))
        for o in bd["outputs"]:
            ln = line_of(bd["kernel"], o["name"])
            ip = ", in place over `%s` (pass that tensor as the output too)" % o.get("in_place")
            oa = ", the caller's out= argument (written and returned)"
            if ("in_place" in o) != (ip in ln) or bool(o.get("out_arg")) != (oa in ln):
                bad.append((bd["kernel"], o["name"], ln[-200:]))
        for f in (bd["op_params"] or {}).get("fields", []):
            ln = line_of(bd["kernel"], f["name"])
            codes = f.get("codes", [None] * len(f.get("values", [])))
            vals = " of " + ", ".join("`%s`" % v + ("" if c is None else " (%d)" % c)
                                      for v, c in zip(f.get("values", []), codes))
            if ("values" in f and vals not in ln) or ("default" in f) != (", default `" in ln):
                bad.append((bd["kernel"], f["name"], ln[-200:]))
    check("doc on the examples: every input's dtype tie, optional (absent key), variadic and "
          "shape-only, every output's in_place or out=, every enum's values and default, as the dump",
          rc == 0 and len(seen) == 31 and not bad, (rc, err, bad[:5]))
    glu = line_of("glu", "b")
    check("doc: GLU's optional b, keyed with a's dtype without it; SET_ROWS' dst over the cache; "
          "cat's variadic tensors",
          glu.endswith("; the dtype of `a`; optional (the wrapper gets NULL without it, a call "
                       "without it keyed with `a`'s dtype in its slot)") and
          line_of("ggml_set_rows", "dst").endswith(", in place over `cache` (pass that tensor as the "
                                                  "output too)") and
          line_of("cat", "tensors").endswith("; variadic: one or more tensors of one dtype"),
          (glu, line_of("ggml_set_rows", "dst"), line_of("cat", "tensors")))

    # HTML: parses, same facts, contract text escaped
    h = Text()
    h.feed(open(os.path.join(out, "fuel-vulkan-kernels.html")).read())
    text = "".join(h.text)
    check("HTML parses; it has the kernels as headings and the bindings as list items",
          "h2" in h.tags and h.tags.count("li") > 18 and "fuel_vulkan_backend::fkc::write_slice_f32" in text,
          h.tags[:20])
    ev = os.path.join(d, "evil.md")
    with open(ev, "w") as f:
        f.write(open(os.path.join(ROOT, SEED)).read().replace(
            'blurb: "Write a source tensor', 'blurb: "<script>alert(1)</script> *bold* [x](y) Write a source tensor', 1))
    evo = os.path.join(d, "evo")
    os.mkdir(evo)
    rc, _, err = run(FKCGEN, "doc", "--html", "--out-dir", evo, ev)
    eh = open(os.path.join(evo, "fuel-vulkan-kernels.html")).read()
    em = open(os.path.join(evo, "fuel-vulkan-kernels.md")).read()
    check("contract text is escaped: no <script>, no emphasis or link, the text shown literally",
          rc == 0 and "<script>" not in eh and "&lt;script&gt;alert(1)&lt;/script&gt; *bold* [x](y)" in eh
          and "<em>" not in eh and "<a " not in eh and "\\<script\\>" in em, (rc, err, eh[eh.find("alert") - 200:][:400]))

    # byte-stable, --root, --check
    again = os.path.join(d, "again")
    os.mkdir(again)
    rc, _, _ = run(FKCGEN, "doc", "--html", "--root", ROOT, "--out-dir", again,
                   os.path.join(ROOT, SEED), cwd=d)
    check("the same bytes twice, from another directory with --root",
          rc == 0 and all(open(os.path.join(out, n), "rb").read() == open(os.path.join(again, n), "rb").read()
                          for n in os.listdir(out)), rc)
    rc, so, _ = run(FKCGEN, "doc", "--check", "--html", "--out-dir", out, SEED)
    check("--check: up to date, exit 0, nothing printed", rc == 0 and not so, so)
    with open(os.path.join(out, "fuel-vulkan-kernels.md"), "a") as f:
        f.write("edited\n")
    before = open(os.path.join(out, "fuel-vulkan-kernels.md")).read()
    rc, so, err = run(FKCGEN, "doc", "--check", "--html", "--out-dir", out, SEED)
    check("--check: an edited page is drift, exit 1 with a diff, the page left as it was",
          rc == 1 and "-edited" in so and "out of date" in err and
          open(os.path.join(out, "fuel-vulkan-kernels.md")).read() == before, (rc, so[-300:], err))

    # errors: nothing written
    empty = os.path.join(d, "empty")
    os.mkdir(empty)
    bad = os.path.join(d, "bad.json")
    with open(bad, "w") as f:
        f.write('{"tool": "something else"}\n')
    rc, _, err = run(FKCGEN, "doc", "--results", bad, "--out-dir", empty, SEED)
    check("a results file that is not conform's: exit 2, named, nothing written",
          rc == 2 and "bad.json" in err and not os.listdir(empty), err)
    twin = os.path.join(d, "twin.md")
    with open(twin, "w") as f:
        f.write(open(os.path.join(ROOT, OWN)).read().replace("name: conform-test", "name: fuel-vulkan-kernels"))
    rc, _, err = run(FKCGEN, "doc", "--out-dir", empty, SEED, twin)
    check("two providers of one page name: exit 2, nothing written",
          rc == 2 and "one page name" in err and not os.listdir(empty), err)
    broken = os.path.join(d, "broken.md")
    with open(broken, "w") as f:
        f.write(open(os.path.join(ROOT, SEED)).read().replace("alignment_bytes: 16", "alignment_bytes: x", 1))
    rc, _, err = run(FKCGEN, "doc", "--out-dir", empty, broken)
    check("a contract error: its file:line:col, exit 1, nothing written",
          rc == 1 and "broken.md:84:" in err and not os.listdir(empty), err)

    # the committed page of the seed is what doc writes now (make check-generated checks it too)
    rc, so, err = run(FKCGEN, "doc", "--check", "--html", "--results", "docs/generated/conform-lavapipe.json",
                      "--out-dir", "docs/generated", SEED)
    check("docs/generated/ holds the seed's page as doc writes it", rc == 0, (so[-1000:], err))

print("%d passed, %d failed" % (results.count(True), results.count(False)))
sys.exit(0 if all(results) else 1)
