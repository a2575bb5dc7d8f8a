#!/usr/bin/python3
"""test_examples.py — the example contracts of issue 22 (contracts/examples/*/*.md: ops of
ggml's Vulkan backend and PyTorch native functions) through fkcgen, end to end.

For every binding `fkcgen dump --json` lists, the generated C and Rust dispatch must reach that
binding's own wrapper by the WHOLE key; for keys no binding has (each slot of each real key
swapped for every other dtype the vocabulary or the file names, and keys one slot shorter or
longer) it must refuse: FKC_ERR_NO_KERNEL in C, None in Rust. The C (header, source and the
--emit-stubs skeletons, which define every wrapper) is compiled with gcc and clang under -std=c11
-Wall -Wextra -Wpedantic -Wconversion -Werror and linked with a test program written here from the
dump; the Rust module is compiled with `rustc --test -D warnings` inside a harness whose `rt`
defines every wrapper, and its tests run. Prints one `ok`/`FAIL` line per check and ends with
`N passed, M failed`.

usage: test_examples.py FKCGEN [RUSTC]"""
import atexit, glob, json, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FKCGEN = os.path.abspath(sys.argv[1])
RUSTC = sys.argv[2] if len(sys.argv) > 2 else "rustc"
FILES = sorted(glob.glob(os.path.join(ROOT, "contracts/examples/*/*.md")))
VOCAB = ["F32", "I32", "U32", "F16", "BF16", "F64", "I64", "U8", "I8", "I16", "U16", "Bool"]
passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok " + what)
    else:
        failed += 1
        print("FAIL " + what + ("\n" + detail if detail else ""))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def snake(camel):  # fkcg_snake_case for the plain CamelCase names of the examples
    return re.sub(r"(?<!^)(?=[A-Z])", "_", camel).lower()


tmp = tempfile.mkdtemp(prefix="fkc-examples-")
atexit.register(shutil.rmtree, tmp, True)  # left behind on every run before
rel = [os.path.relpath(f, ROOT) for f in FILES]
r = run([FKCGEN, "check"] + rel, cwd=ROOT)
check(r.returncode == 0, "check: the %d example files are clean" % len(rel), r.stderr)
r = run([FKCGEN, "dump", "--json"] + rel, cwd=ROOT)
dump = json.loads(r.stdout)
rows = dump["bindings"]
blocks = sorted({b["name"] for p in dump["providers"] for b in p.get("block_dtypes", [])})
ops = sorted({b["op_kind"] for b in rows})
check(len(ops) >= 25, "the examples state %d op kinds (at least 25)" % len(ops))
check(any(len(set(b["dtypes"])) > 1 for b in rows), "some binding's slots differ in dtype")
check(any(len(b["dtypes"]) >= 3 for b in rows), "some binding has three or more slots")
check(len({b["source"]["file"] for b in rows}) == len(rel), "every file binds something")
# max_ulp a non-negative number (issue 22): DIV states Vulkan's 2.5 ulp exactly in the dump
div = [b["precision"]["max_ulp"] for b in rows if b["op_kind"] == "Div"]
check(div and all(u == 2.5 for u in div), "dump --json: every DIV binding's max_ulp is 2.5")
# precision per dtype (issue 22): one GELU section, its F16 binding with its own figures
gelu = {tuple(b["dtypes"]): b["precision"] for b in rows if b["op_kind"] == "Gelu"}
check(len({b["kernel"] for b in rows if b["op_kind"] in ("Gelu", "Silu")}) == 2 and
      gelu.get(("F32", "F32"), {}).get("max_ulp") == 4 and
      gelu.get(("F16", "F16"), {}).get("max_ulp") == 2 and
      gelu[("F16", "F16")].get("max_relative") == 0.001 and
      gelu[("F16", "F16")].get("precision_by_dtype") == 0 and
      "precision_by_dtype" not in gelu[("F32", "F32")],
      "dump --json: GELU is one section whose F16 binding has its precision_by_dtype figures",
      str(gelu))
# typed op params (issue 22 item 3): enum values, dtype-valued fields, typed defaults
fields = {}
for b in rows:
    for f in (b["op_params"] or {}).get("fields", []):
        fields[(b["op_kind"], f["name"])] = f
check(fields[("Rope", "mode")].get("values") == ["normal", "neox", "mrope", "vision"] and
      fields[("Rope", "mode")].get("codes") == [0, 2, 8, 24] and "codes" not in fields[("Glu", "op")] and
      fields[("Rope", "mode")].get("default") == "normal", "dump --json: ROPE's mode enum and default")
check(fields[("Glu", "op")].get("values", [None])[3] == "swiglu_oai" and
      fields[("Argsort", "order")].get("default") == "asc", "dump --json: GLU's op, ARGSORT's order")
check(fields[("Cpy", "dst_type")]["kind"] == "dtype" and fields[("ToCopy", "dtype")]["kind"] == "dtype"
      and "default" not in fields[("ToCopy", "dtype")], "dump --json: CPY's and _to_copy's dtype fields")
check(fields[("AddmmOut", "alpha")].get("default") == 1.0 and
      fields[("AddmmOut", "beta")].get("default") == 1.0 and
      fields[("MaxDim", "keepdim")].get("default") is False,
      "dump --json: addmm's beta and alpha default 1, max.dim's keepdim false")
# GLU's swiglu_oai reads op_params[2] and [3]: alpha and limit, f32, after op and swapped
glu = [f["name"] for b in rows if b["op_kind"] == "Glu" for f in b["op_params"]["fields"]][:4]
check(glu == ["op", "swapped", "alpha", "limit"] and
      all(fields[("Glu", n)]["kind"] == "f32" and fields[("Glu", n)].get("default") == 0
          for n in ("alpha", "limit")),
      "dump --json: GLU's fields op, swapped, alpha, limit (f32, default 0) in ggml's order", str(glu))
# An output shape a shape rule gives needs no extents param: only from_params outputs have one
# (FLASH_ATTN_EXT's dst_shape, arange's out_shape).
ext = sorted({(b["op_kind"], f["name"]) for b in rows
              for f in (b["op_params"] or {}).get("fields", []) if f["kind"] == "Vec<usize>"})
from_params = sorted({(b["op_kind"], o["shape_rule"][len("from_params("):-1]) for b in rows
                      for o in b["outputs"] if o["shape_rule"].startswith("from_params(")})
check(ext == from_params == [("Arange", "out_shape"), ("FlashAttnExt", "dst_shape")],
      "dump --json: the only extents params are the two from_params outputs'", str((ext, from_params)))

# The keys of each op kind (on each backend), and the wrong keys to try against them.
keys = {}
for b in rows:
    keys.setdefault((b["op_kind"], b["backend"]), {}).setdefault(tuple(b["dtypes"]), b["wrapper"])
names = VOCAB + blocks
wrong = []
for (op, be), ks in sorted(keys.items()):
    tried = set()
    for k in sorted(ks):
        for i in range(len(k)):
            for d in names:
                w = k[:i] + (d,) + k[i + 1:]
                if w not in ks and w not in tried:
                    tried.add(w)
                    wrong.append((op, be, w))
        for w in (k[:-1], k + (k[-1],)):
            if w and w not in ks and w not in tried:
                tried.add(w)
                wrong.append((op, be, w))
check(len(wrong) > 1000, "%d wrong keys to refuse" % len(wrong))

# Optional inputs (issue 22): a call without one is keyed with its absent_key in its slot (or
# the tied slot's dtype, same_dtype_as); that key must be a binding of the same section, whose
# wrapper the generated dispatch then gives (checked below, from the generated tables).
absent = []  # (binding row, input index, slot or -1, the key without it, its wrapper)
for b in rows:
    for i, inp in enumerate(b["inputs"]):
        if not inp.get("optional"):
            continue
        key = list(b["dtypes"])
        slot = b["key"].index(inp["name"]) if inp["name"] in b["key"] else -1
        if slot >= 0:
            key[slot] = inp["absent_key"] if "absent_key" in inp else \
                key[b["key"].index(inp["same_dtype_as"])]
        absent.append((b, i, slot, tuple(key), keys[(b["op_kind"], b["backend"])].get(tuple(key))))
opt_ops = sorted({b["op_kind"] for b, _, _, _, _ in absent})
check(len(opt_ops) >= 4, "optional inputs in %d op kinds (%s)" % (len(opt_ops), ", ".join(opt_ops)))
check(absent and all(w for _, _, _, _, w in absent),
      "every binding with an optional input has a binding for the call without it",
      [(b["kernel"], k) for b, _, _, k, w in absent if not w])
check(any(s < 0 for _, _, s, _, _ in absent) and any(s >= 0 for _, _, s, _, _ in absent),
      "optional inputs in the key and out of it")
# Outputs aliasing a named input (in_place) or an out= argument, by kernel then output.
alias_rows = []
for k in sorted({b["kernel"] for b in rows}):
    b = next(x for x in rows if x["kernel"] == k)
    for j, o in enumerate(b["outputs"]):
        if "in_place" in o or o.get("out_arg"):
            ip = [i["name"] for i in b["inputs"]].index(o["in_place"]) if "in_place" in o else -1
            alias_rows.append((k, j, o["name"], ip, bool(o.get("out_arg"))))
# output shape rules (issue 22): every output's rule kind and operands, as the dump has them
out_shape_rows, out_shape_bad = {}, []
for b in rows:
    for j, o in enumerate(b["outputs"]):
        kind = o["shape_rule"].split("(")[0]
        out_shape_rows[(b["kernel"], j)] = (kind, o.get("shape_operands", []))
        if ("shape" in o) != (kind not in ("from_params", "same_as")) or o.get("shape", kind) != kind:
            out_shape_bad.append((b["kernel"], o["name"]))
out_shape_rows = sorted((k, j, kind, opnds) for (k, j), (kind, opnds) in out_shape_rows.items())
kinds = {kind for _, _, kind, _ in out_shape_rows}
check(not out_shape_bad and {"broadcast", "reduce", "matmul", "concat", "gather"} <= kinds,
      "dump --json: the examples' broadcast, reduce, matmul, concat and gather rules with their "
      "kind and operands (%s)" % sorted(kinds), str(out_shape_bad))
check(any(r[3] >= 0 for r in alias_rows) and any(r[4] for r in alias_rows),
      "an output in place over a named input and an out= argument (%d aliased outputs)" % len(alias_rows))
# Shape-only inputs, by kernel then input; an op with no input tensor (keyed by its output).
shape_rows = []
for k in sorted({b["kernel"] for b in rows}):
    b = next(x for x in rows if x["kernel"] == k)
    shape_rows += [(k, i, inp["name"]) for i, inp in enumerate(b["inputs"]) if inp.get("shape_only")]
check(len({k for k, _, _ in shape_rows}) >= 2, "shape-only inputs in %d kernels" % len(shape_rows))
zero = sorted({b["op_kind"] for b in rows if not b["inputs"]})
check(zero and all(len(b["dtypes"]) == len(b["key"]) and set(b["key"]) <= {o["name"] for o in b["outputs"]}
                   for b in rows if not b["inputs"]),
      "ops with no input, keyed by their outputs: %s" % ", ".join(zero))
opt_rows = []  # the generated table's rows, in its order (by kernel, then input)
for k in sorted({b["kernel"] for b, _, _, _, _ in absent}):
    for b, i, slot, _, _ in absent:
        if b["kernel"] == k:
            inp = b["inputs"][i]
            opt_rows.append((k, i, inp["name"], slot, inp.get("absent_key"),
                             b["key"].index(inp["same_dtype_as"]) if slot >= 0 and
                             "absent_key" not in inp else -1))
            break

gen = os.path.join(tmp, "gen")
r = run([FKCGEN, "gen", "--prefix", "ex", "--out-dir", gen, "--emit-stubs",
         os.path.join(tmp, "stubs.c")] + rel, cwd=ROOT)
check(r.returncode == 0, "gen: C and the wrapper skeletons", r.stderr)
r = run([FKCGEN, "gen", "--lang", "rust", "--prefix", "ex", "--out-dir", gen] + rel, cwd=ROOT)
check(r.returncode == 0, "gen --lang rust", r.stderr)


def cdt(d):
    return "FKC_DTYPE_" + d.upper()


# ---- C: every key reaches its own wrapper, every wrong key is FKC_ERR_NO_KERNEL ----
c = ['#include <stdio.h>', '#include <string.h>', '#include "ex_bindings.h"', "",
     "typedef void (*anyfn)(void); /* function pointers compare as one type */",
     "typedef struct { ex_op_kind op; fkc_backend be; fkc_dtype key[8]; size_t n; "
     "anyfn fn; const char *wrapper; unsigned long long ulp; double rel; } row;",
     "static const row rows[] = {"]
for b in rows:
    m = snake(b["op_kind"])
    ulp = b["precision"]["max_ulp"]  # the tables carry it rounded up to whole ulps
    c.append("    {EX_OP_%s, FKC_BACKEND_%s, {%s}, %d, (anyfn)ex_%s, \"%s\", %dULL, %r}," % (
        m.upper(), b["backend"].upper(), ", ".join(cdt(d) for d in b["dtypes"]),
        len(b["dtypes"]), b["wrapper"], b["wrapper"], -int(-ulp // 1),
        float(b["precision"]["max_relative"])))
c += ["};", "/* each binding with an optional input: its key, and the wrapper of the call without it */",
      "typedef struct { size_t row; size_t input; const char *kernel; anyfn fn; } absent_row;",
      "static const absent_row absent[] = {"]
for b, i, slot, k, w in absent:
    c.append("    {%d, %d, \"%s\", (anyfn)ex_%s}," % (rows.index(b), i, b["kernel"], w))
c += ["};", "typedef struct { const char *kernel; size_t input; const char *name; int slot; "
      "fkc_dtype absent_key; int tie; } opt_row;", "static const opt_row opts[] = {"]
for k, i, name, slot, ak, tie in opt_rows:
    c.append("    {\"%s\", %d, \"%s\", %d, %s, %d}," % (k, i, name, slot,
             cdt(ak) if ak and slot >= 0 else "FKC_DTYPE_COUNT", tie))
c += ["};", "typedef struct { const char *kernel; size_t output; const char *name; int in_place; "
      "int out_arg; } alias_row;", "static const alias_row aliases[] = {"]
for k, j, name, ip, oa in alias_rows:
    c.append("    {\"%s\", %d, \"%s\", %d, %d}," % (k, j, name, ip, int(oa)))
c += ["};", "typedef struct { const char *kernel; size_t input; const char *name; } shape_row;",
      "static const shape_row shapes[] = {"]
for k, i, name in shape_rows:
    c.append("    {\"%s\", %d, \"%s\"}," % (k, i, name))
c += ["};", "typedef struct { const char *kernel; size_t output; fkc_shape_rule shape; size_t n; "
      "const char *ops[8]; } out_shape_row;", "static const out_shape_row out_shapes[] = {"]
for k, j, kind, opnds in out_shape_rows:
    c.append("    {\"%s\", %d, FKC_SHAPE_RULE_%s, %d, {%s}}," % (
        k, j, kind.upper(), len(opnds), ", ".join('"%s"' % x for x in opnds) or "NULL"))
c += ["};", "static const row wrong[] = {"]
for op, be, k in wrong:
    c.append("    {EX_OP_%s, FKC_BACKEND_%s, {%s}, %d, NULL, NULL, 0, 0}," % (
        snake(op).upper(), be.upper(), ", ".join(cdt(d) for d in k), len(k)))
c += ["};", "",
      "/* The wrapper a kernel ref holds, whatever its op kind. */",
      "static anyfn ref_fn(ex_op_kind op, ex_kernel_ref ref)", "{", "    switch (op) {"]
for op in ops:
    m = snake(op)
    c.append("    case EX_OP_%s: return (anyfn)ref.%s;" % (m.upper(), m))
c += ["    default: return NULL;", "    }", "}", "",
      "/* typed op params: the enums number their values in contract order, defaults are",
      " * constants of the field's type, a dtype field is an fkc_dtype */",
      "_Static_assert(EX_ROPE_MODE_NORMAL == 0 && EX_ROPE_MODE_NEOX == 2 && EX_ROPE_MODE_VISION == 24, \"rope mode: ggml's codes\");",
      "_Static_assert(EX_ROPE_DEFAULT_MODE == EX_ROPE_MODE_NORMAL, \"rope default\");",
      "_Static_assert(EX_ARGSORT_DEFAULT_ORDER == 0 && EX_ARGSORT_ORDER_DESC == 1, \"order\");",
      "_Static_assert(EX_GLU_OP_SWIGLU_OAI == 3 && EX_GLU_DEFAULT_OP == EX_GLU_OP_REGLU, \"glu\");",
      "_Static_assert(_Generic(EX_ADDMM_OUT_DEFAULT_ALPHA, double: 1, default: 0), \"addmm\");",
      "_Static_assert(!EX_MAX_DIM_DEFAULT_KEEPDIM, \"keepdim\");",
      "_Static_assert(sizeof(((ex_rope_params *)0)->mode) == 4, \"an enum member is an int32_t\");",
      "_Static_assert(_Generic(((ex_cpy_params *)0)->dst_type, fkc_dtype: 1, default: 0), \"dtype\");",
      "",
      "int main(void)", "{", "    int bad = 0;",
      "    if (sizeof ex_glu_op_names / sizeof ex_glu_op_names[0] != 6 ||",
      "        ex_glu_op_names[EX_GLU_OP_SWIGLU_OAI][6] != '_' || ex_rope_mode_names[3][0] != 'v' ||",
      "        ex_rope_mode_codes[3] != 24 || ex_rope_mode_codes[1] != EX_ROPE_MODE_NEOX ||",
      "        EX_ADDMM_OUT_DEFAULT_ALPHA != 1.0 || EX_ADDMM_OUT_DEFAULT_BETA != 1.0) {",
      "        printf(\"enum name tables or defaults differ\\n\");", "        bad++;", "    }",
      "    /* the optional inputs' table is the contracts' */",
      "    if (EX_OPTIONAL_INPUT_COUNT != sizeof opts / sizeof opts[0]) {",
      "        printf(\"EX_OPTIONAL_INPUT_COUNT %u\\n\", (unsigned)EX_OPTIONAL_INPUT_COUNT);",
      "        bad++;", "    }",
      "    for (size_t i = 0; i < EX_OPTIONAL_INPUT_COUNT && i < sizeof opts / sizeof opts[0]; i++) {",
      "        const ex_optional_input *o = &ex_optional_inputs[i];",
      "        const ex_kernel_info *k = &ex_kernels[o->kernel];",
      "        if (strcmp(k->kernel, opts[i].kernel) || o->input != opts[i].input ||",
      "            strcmp(o->name, opts[i].name) || strcmp(k->inputs[o->input].name, o->name) ||",
      "            o->op != k->op_kind || o->slot != opts[i].slot ||",
      "            o->absent_key != opts[i].absent_key || o->absent_tie != opts[i].tie) {",
      "            printf(\"optional input %zu (%s.%s) differs\\n\", i, opts[i].kernel, opts[i].name);",
      "            bad++;", "        }", "    }",
      "    /* each output's shape rule kind and operands are the contracts' */",
      "    for (size_t i = 0; i < sizeof out_shapes / sizeof out_shapes[0]; i++) {",
      "        const out_shape_row *w = &out_shapes[i];", "        const fkc_output_info *o = NULL;",
      "        for (size_t k = 0; k < EX_KERNEL_COUNT; k++)",
      "            if (!strcmp(ex_kernels[k].kernel, w->kernel))",
      "                o = &ex_kernels[k].outputs[w->output];",
      "        int same = o && o->shape == w->shape && o->n_shape_operands == w->n &&",
      "                   (w->n == 0) == (o->shape_operands == NULL);",
      "        for (size_t k = 0; same && k < w->n; k++)",
      "            same = !strcmp(o->shape_operands[k], w->ops[k]);",
      "        if (!same) {",
      "            printf(\"shape rule of %s output %zu differs\\n\", w->kernel, w->output);",
      "            bad++;", "        }", "    }",
      "    /* the aliased outputs' table is the contracts' */",
      "    if (EX_OUTPUT_ALIAS_COUNT != sizeof aliases / sizeof aliases[0]) {",
      "        printf(\"EX_OUTPUT_ALIAS_COUNT %u\\n\", (unsigned)EX_OUTPUT_ALIAS_COUNT);",
      "        bad++;", "    }",
      "    for (size_t i = 0; i < EX_OUTPUT_ALIAS_COUNT && i < sizeof aliases / sizeof aliases[0]; i++) {",
      "        const ex_output_alias *o = &ex_output_aliases[i];",
      "        const ex_kernel_info *k = &ex_kernels[o->kernel];",
      "        if (strcmp(k->kernel, aliases[i].kernel) || o->output != aliases[i].output ||",
      "            strcmp(o->name, aliases[i].name) || strcmp(k->outputs[o->output].name, o->name) ||",
      "            o->op != k->op_kind || o->in_place != aliases[i].in_place ||",
      "            (int)o->out_arg != aliases[i].out_arg ||",
      "            (o->in_place >= 0 && k->outputs[o->output].aliasing != FKC_ALIASING_IN_PLACE)) {",
      "            printf(\"aliased output %zu (%s.%s) differs\\n\", i, aliases[i].kernel, aliases[i].name);",
      "            bad++;", "        }", "    }",
      "    /* the shape-only inputs' table is the contracts' */",
      "    if (EX_SHAPE_ONLY_INPUT_COUNT != sizeof shapes / sizeof shapes[0]) {",
      "        printf(\"EX_SHAPE_ONLY_INPUT_COUNT %u\\n\", (unsigned)EX_SHAPE_ONLY_INPUT_COUNT);",
      "        bad++;", "    }",
      "    for (size_t i = 0; i < EX_SHAPE_ONLY_INPUT_COUNT && i < sizeof shapes / sizeof shapes[0]; i++) {",
      "        const ex_shape_only_input *o = &ex_shape_only_inputs[i];",
      "        const ex_kernel_info *k = &ex_kernels[o->kernel];",
      "        if (strcmp(k->kernel, shapes[i].kernel) || o->input != shapes[i].input ||",
      "            strcmp(o->name, shapes[i].name) || strcmp(k->inputs[o->input].name, o->name) ||",
      "            o->op != k->op_kind) {",
      "            printf(\"shape-only input %zu (%s.%s) differs\\n\", i, shapes[i].kernel, shapes[i].name);",
      "            bad++;", "        }", "    }",
      "    /* a call without the optional input, keyed from the table, reaches its wrapper */",
      "    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {",
      "        const row *w = &rows[absent[i].row];",
      "        const ex_optional_input *o = NULL;",
      "        for (size_t j = 0; j < EX_OPTIONAL_INPUT_COUNT; j++)",
      "            if (!strcmp(ex_kernels[ex_optional_inputs[j].kernel].kernel, absent[i].kernel) &&",
      "                ex_optional_inputs[j].input == absent[i].input)",
      "                o = &ex_optional_inputs[j];",
      "        fkc_dtype key[8];", "        memcpy(key, w->key, sizeof key);",
      "        if (o && o->slot >= 0)",
      "            key[o->slot] = o->absent_tie >= 0 ? key[o->absent_tie] : o->absent_key;",
      "        ex_kernel_ref ref;",
      "        if (!o || ex_dispatch_key(w->op, key, w->n, w->be, &ref) != FKC_OK ||",
      "            ref_fn(w->op, ref) != absent[i].fn) {",
      "            printf(\"row %zu (%s): the call without input %zu does not reach its wrapper\\n\",",
      "                   absent[i].row, w->wrapper, absent[i].input);",
      "            bad++;", "        }", "    }",
      "    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {",
      "        const row *w = &rows[i];", "        ex_kernel_ref ref;",
      "        fkc_status st = ex_dispatch_key(w->op, w->key, w->n, w->be, &ref);",
      "        const ex_binding *b = ex_binding_lookup_key(w->op, w->key, w->n, w->be, NULL);",
      "        if (st != FKC_OK || ref_fn(w->op, ref) != w->fn || !b || b->ref_dummy_check) {",
      "            printf(\"row %zu (%s): status %d\\n\", i, w->wrapper, (int)st);", "            bad++;",
      "        }",
      "        if (b && (!b->precision || b->precision->max_ulp != w->ulp ||",
      "                  b->precision->max_relative != w->rel)) { /* each row's own precision */",
      "            printf(\"row %zu (%s): precision differs from dump --json\\n\", i, w->wrapper);",
      "            bad++;", "        }", "        if (w->n == 2) { /* the two-slot dispatch agrees */",
      "            ex_kernel_ref r2;",
      "            if (ex_dispatch(w->op, w->key[0], w->key[1], w->be, &r2) != FKC_OK ||",
      "                ref_fn(w->op, r2) != w->fn) {",
      "                printf(\"row %zu (%s): ex_dispatch differs\\n\", i, w->wrapper);",
      "                bad++;", "            }", "        }", "    }",
      "    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {",
      "        const row *w = &wrong[i];", "        ex_kernel_ref ref;",
      "        if (ex_dispatch_key(w->op, w->key, w->n, w->be, &ref) != FKC_ERR_NO_KERNEL ||",
      "            ex_binding_lookup_key(w->op, w->key, w->n, w->be, NULL)) {",
      "            printf(\"wrong key %zu: not refused\\n\", i);", "            bad++;", "        }",
      "        if (w->n == 2 && ex_dispatch(w->op, w->key[0], w->key[1], w->be, &ref) !=",
      "                             FKC_ERR_NO_KERNEL) {",
      "            printf(\"wrong key %zu: ex_dispatch did not refuse it\\n\", i);", "            bad++;",
      "        }", "    }",
      "    printf(\"%zu keys dispatched, %zu wrong keys refused, %d bad\\n\", "
      "sizeof rows / sizeof rows[0], sizeof wrong / sizeof wrong[0], bad);",
      "    return bad != 0;", "}", ""]
src = "\n".join(c).replace(" || !b || b->ref_dummy_check", " || !b || b->wrapper == NULL")
open(os.path.join(tmp, "dispatch.c"), "w").write(src)
inc = os.path.join(ROOT, "runtime/include")
flags = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Wconversion", "-Werror", "-I" + inc,
         "-I" + gen]
for cc in ("gcc", "clang"):
    exe = os.path.join(tmp, "dispatch_" + cc)
    # the runtime's fkc_runtime_abi_4 is libfkc's: the test defines it, as tests/gen does
    abi = os.path.join(tmp, "abi.c")
    open(abi, "w").write('#include "fkc/fkc_kernels.h"\nconst int fkc_runtime_abi_4 = FKC_RUNTIME_ABI;\n')
    r = run([cc] + flags + [os.path.join(gen, "ex_bindings.c"), os.path.join(tmp, "stubs.c"),
                            os.path.join(tmp, "dispatch.c"), abi, "-o", exe])
    check(r.returncode == 0, "%s: the generated C, the skeletons and the test compile strictly" % cc,
          r.stderr[-3000:])
    if r.returncode == 0:
        r = run([exe])
        check(r.returncode == 0, "%s: every key reaches its own wrapper, every wrong key is "
              "FKC_ERR_NO_KERNEL (%s)" % (cc, r.stdout.strip().splitlines()[-1] if r.stdout else ""),
              r.stdout[-3000:])

# ---- C: the costs over tensors (issue 22), with real shapes ----
tc = ['#include <math.h>', '#include <stdio.h>', '#include "ex_bindings.h"', "",
      "static int bad;",
      "static void eq(double got, double want, const char *what)", "{",
      "    if (!(got == want || (isnan(want) && isnan(got)))) {",
      "        printf(\"%s: %.17g, want %.17g\\n\", what, got, want);", "        bad++;", "    }", "}",
      "#define T(e, b, ...) {(const uint64_t[]){__VA_ARGS__}, (uint32_t)(sizeof((uint64_t[]){__VA_ARGS__}) / 8), e, b}",
      "int main(void)", "{",
      "    const fkc_cost_tensor mm[3] = {T(1, 4, 3, 5), T(1, 4, 3, 7), T(1, 4, 5, 7)};",
      "    eq(ex_cost_mul_mat_flops(mm, 3, NULL), 210.0, \"MUL_MAT 2*M*N*K\");",
      "    eq(ex_cost_mul_mat_bytes_moved(mm, 3, NULL), 284.0, \"MUL_MAT bytes\");",
      "    const fkc_cost_tensor q4[3] = {T(32, 18, 64, 2), T(1, 4, 64, 3), T(1, 4, 2, 3)};",
      "    eq(ex_cost_mul_mat_bytes_moved(q4, 3, NULL), 72.0 + 768.0 + 24.0, \"MUL_MAT Q4_0 blocks\");",
      "    const fkc_cost_tensor big[3] = {T(1, 4, 1ull << 32, 1ull << 31), T(1, 4, 1ull << 32, 1), T(1, 4, 1ull << 31, 1)};",
      "    eq(ex_cost_mul_mat_flops(big, 3, NULL), 18446744073709551616.0, \"2^64 exactly\");",
      "    const fkc_cost_tensor max[3] = {T(1, 4, UINT64_MAX, 1), T(1, 4, UINT64_MAX, 1), T(1, 4, 1, 1)};",
      "    eq(ex_cost_mul_mat_flops(max, 3, NULL), 2.0 * 18446744073709551616.0, \"2^64-1 rounds as (double)n\");",
      "    const fkc_cost_tensor half[3] = {T(1, 4, 1ull << 63, 1), T(1, 4, 1ull << 63, 1), T(1, 4, 1, 1)};",
      "    eq(ex_cost_mul_mat_flops(half, 3, NULL), 18446744073709551616.0, \"2^63\");",
      "    eq(ex_cost_mul_mat_flops(mm, 2, NULL), NAN, \"short t\");",
      "    eq(ex_cost_mul_mat_flops(NULL, 3, NULL), NAN, \"NULL t\");",
      "    const fkc_cost_tensor rank1[3] = {T(1, 4, 3), T(1, 4, 3, 7), T(1, 4, 7)};",
      "    eq(ex_cost_mul_mat_flops(rank1, 3, NULL), NAN, \"no axis 1\");",
      "    eq(fkc_cost_tensor_dim(&mm[1], -1), 7.0, \"dim(b, -1): the last axis\");",
      "    eq(fkc_cost_tensor_dim(&mm[1], -2), 3.0, \"dim(b, -2)\");",
      "    eq(fkc_cost_tensor_dim(&mm[1], -3), NAN, \"dim(b, -3): past the rank\");",
      "    eq(fkc_cost_tensor_dim(&mm[1], 2), NAN, \"dim(b, 2): past the rank\");",
      "    const fkc_cost_tensor scalar = {(const uint64_t[]){0}, 0, 1, 4};",
      "    eq(fkc_cost_tensor_n(&scalar), 1.0, \"rank 0: one element\");",
      "    fkc_cost_tensor fa[5] = {T(1, 4, 64, 8, 4, 1), T(1, 2, 64, 16, 4, 1), T(1, 2, 64, 16, 4, 1),",
      "                             {NULL, 0, 1, 2}, T(1, 4, 64, 4, 8, 1)};",
      "    eq(ex_cost_flash_attn_ext_flops(fa, 5, NULL), 131072.0, \"FLASH_ATTN_EXT flops\");",
      "    eq(ex_cost_flash_attn_ext_bytes_moved(fa, 5, NULL), 32768.0, \"absent mask: 0 bytes\");",
      "    const fkc_cost_tensor mask = T(1, 2, 16, 8);", "    fa[3] = mask;",
      "    eq(ex_cost_flash_attn_ext_bytes_moved(fa, 5, NULL), 32768.0 + 256.0, \"with the mask\");",
      "    for (size_t i = 0; i < EX_BINDING_COUNT; i++)",
      "        if (ex_bindings[i].op_kind == EX_OP_MUL_MAT && (ex_bindings[i].cost->flops ||",
      "                                                        !ex_bindings[i].cost->flops_expr)) {",
      "            printf(\"MUL_MAT binding %zu: a (n, dtype_bytes) flops function\\n\", i);",
      "            bad++;", "        }",
      "    printf(\"%d bad\\n\", bad);", "    return bad != 0;", "}", ""]
open(os.path.join(tmp, "tensor_cost.c"), "w").write("\n".join(tc))
for cc in ("gcc", "clang"):
    exe = os.path.join(tmp, "tensor_cost_" + cc)
    r = run([cc] + flags + [os.path.join(tmp, "tensor_cost.c"), os.path.join(gen, "ex_bindings.c"),
                            os.path.join(tmp, "stubs.c"), os.path.join(tmp, "abi.c"), "-o", exe])
    check(r.returncode == 0, "%s: the costs over tensors compile strictly" % cc, r.stderr[-3000:])
    if r.returncode == 0:
        r = run([exe])
        check(r.returncode == 0, "%s: MUL_MAT 2*M*N*K, its Q4_0 bytes, 2^63/2^64-1, FLASH_ATTN_EXT "
              "with and without its mask (%s)" % (cc, r.stdout.strip()), r.stdout[-3000:])

# ---- Rust: the same through the generated module ----
rs = gen and os.path.join(gen, "ex_bindings.rs")
sig = {}  # op kind -> (inputs, outputs)
for b in rows:
    sig[b["op_kind"]] = (len(b["inputs"]), len(b["outputs"]))
# a variadic last input (issue 22): a pointer array and its count in the C signature
variadic = {b["op_kind"] for b in rows if b["inputs"] and b["inputs"][-1].get("variadic")}
check(variadic and all(i == len(b["inputs"]) - 1 for b in rows for i, x in enumerate(b["inputs"])
                       if x.get("variadic")), "variadic inputs, each the last: %s" % ", ".join(sorted(variadic)))
wrappers = {}
for b in rows:
    wrappers.setdefault(b["wrapper"], b["op_kind"])
h = ["#![deny(warnings)]", "#[allow(dead_code)]",
     "#[path = \"%s\"]" % os.path.join(ROOT, "rust/fkc/src/tables.rs"), "pub mod tables;", "",
     "#[allow(non_camel_case_types, dead_code)]", "pub mod rt {", "    use std::ffi::c_void;",
     "    #[repr(C)] pub struct fkc_stream { _opaque: [u8; 0] }",
     "    #[repr(C)] pub struct fkc_buffer { _opaque: [u8; 0] }",
     "    #[repr(C)] pub struct fkc_tensor { pub buffer: *mut fkc_buffer, pub offset: u64, "
     "pub dtype: u32, pub rank: u32, pub shape: [usize; 8] }",
     "    pub type fkc_status = u32;", "    pub const FKC_RUNTIME_ABI: i32 = 4;",
     "    pub use crate::tables;"]
for w, op in sorted(wrappers.items()):
    ni, no = sig[op]
    ps = ["_s: *mut fkc_stream"] + ["_i%d: *const fkc_tensor" % i for i in range(ni)] + \
         ["_o%d: *mut fkc_tensor" % i for i in range(no)] + ["_p: *const c_void", "_e: *const c_void"]
    if op in variadic:  # the status is 2000 + the count of tensors it got
        ps[ni] = "_i%d: *const *const fkc_tensor, _n: usize" % (ni - 1)
    # an op with optional inputs: the status says which inputs arrived null (bit i: input i)
    body = "2000 + _n as u32" if op in variadic else "0" if op not in opt_ops else "1000 + " + " + ".join(
        "((_i%d.is_null() as u32) << %d)" % (i, i) for i in range(ni))
    h.append("    pub unsafe extern \"C\" fn %s(%s) -> fkc_status { %s }" % (w, ", ".join(ps), body))
h += ["}", "", "pub mod bindings {", "    use super::rt;", "    include!(\"%s\");" % rs, "}", "",
      "use bindings::{Backend, DType, OpKind};", ""]


def rdt(d):
    return "bindings::block_dtypes::" + d if d in blocks else "DType::" + d


h += ["#[test]", "fn every_key_reaches_its_wrapper() {"]
for b in rows:
    h.append("    assert_eq!(bindings::dispatch_key(OpKind::%s, &[%s], Backend::%s).map(|b| b.wrapper), "
             "Some(\"%s\"));" % (b["op_kind"], ", ".join(rdt(d) for d in b["dtypes"]), b["backend"],
                                 b["wrapper"]))
h += ["}", "", "#[test]", "fn the_optional_inputs_table_is_the_contracts() {",
      "    assert_eq!(bindings::OPTIONAL_INPUTS.len(), %d);" % len(opt_rows)]
for n, (k, i, name, slot, ak, tie) in enumerate(opt_rows):
    h.append("    let o = &bindings::OPTIONAL_INPUTS[%d];" % n)
    h.append("    assert_eq!((bindings::KERNELS[o.kernel].kernel, o.input, o.name, o.slot, o.absent_key, "
             "o.absent_tie), (\"%s\", %d, \"%s\", %s, %s, %s));" % (
                 k, i, name, "Some(%d)" % slot if slot >= 0 else "None",
                 "Some(%s)" % rdt(ak) if ak and slot >= 0 else "None",
                 "Some(%d)" % tie if tie >= 0 else "None"))
h += ["}", "", "#[test]", "fn every_output_has_its_shape_rule() {",
      "    let find = |k: &str| bindings::KERNELS.iter().find(|x| x.kernel == k).unwrap();"]
for k, j, kind, opnds in out_shape_rows:
    h.append("    assert_eq!((find(\"%s\").outputs[%d].shape, find(\"%s\").outputs[%d].shape_operands), "
             "(rt::tables::ShapeRule::%s, &[%s][..]));" % (
                 k, j, k, j, "".join(w.capitalize() for w in kind.split("_")),
                 ", ".join('"%s"' % x for x in opnds)))
h += ["}", "", "#[test]", "fn the_output_aliases_table_is_the_contracts() {",
      "    assert_eq!(bindings::OUTPUT_ALIASES.len(), %d);" % len(alias_rows)]
for n, (k, j, name, ip, oa) in enumerate(alias_rows):
    h.append("    let o = &bindings::OUTPUT_ALIASES[%d];" % n)
    h.append("    assert_eq!((bindings::KERNELS[o.kernel].kernel, o.output, o.name, o.in_place, o.out_arg), "
             "(\"%s\", %d, \"%s\", %s, %s));" % (k, j, name, "Some(%d)" % ip if ip >= 0 else "None",
                                                  "true" if oa else "false"))
h += ["}", "", "#[test]", "fn the_shape_only_inputs_table_is_the_contracts() {",
      "    assert_eq!(bindings::SHAPE_ONLY_INPUTS.len(), %d);" % len(shape_rows)]
for n, (k, i, name) in enumerate(shape_rows):
    h.append("    let o = &bindings::SHAPE_ONLY_INPUTS[%d];" % n)
    h.append("    assert_eq!((bindings::KERNELS[o.kernel].kernel, o.input, o.name), (\"%s\", %d, \"%s\"));"
             % (k, i, name))
h += ["}", ""]
# a call without an optional input: its key (from the table) reaches the wrapper, which gets
# a null pointer for it and non-null ones for the others
RVAL = {"f32": "0.0", "f64": "0.0", "bool": "false"}
called = 0
h += ["#[test]", "fn a_null_optional_input_reaches_the_wrapper() {",
      "    let t = rt::fkc_tensor { buffer: std::ptr::null_mut(), offset: 0, dtype: 0, rank: 0, "
      "shape: [0; 8] };", "    let mut o = rt::fkc_tensor { buffer: std::ptr::null_mut(), "
      "offset: 0, dtype: 0, rank: 0, shape: [0; 8] };"]
for b, i, slot, k, w in absent:
    op = b["op_kind"]
    fields = (b["op_params"] or {}).get("fields", [])
    vals = []
    for f in fields:
        kd = f["kind"]
        v = RVAL.get(kd) or ("0" if kd in ("usize", "isize", "u32", "i32", "u64", "i64") else
                             "Vec::new()" if kd.startswith("Vec<") else None)
        vals.append(v)
    if None in vals:
        continue  # a field kind this test cannot make a value of
    called += 1
    params = "None" if not b["op_params"] else "Some(&bindings::OpParams::%s { %s })" % (
        b["op_params"]["variant"], ", ".join("r#%s: %s" % (f["name"], v) if f["name"] in ("type", "mod", "fn") else "%s: %s" % (f["name"], v)
                                              for f, v in zip(fields, vals)))
    ni = len(b["inputs"])
    ins = ", ".join("std::ptr::null()" if j == i else "&t as *const rt::fkc_tensor" for j in range(ni))
    h.append("    let b = bindings::dispatch_key(OpKind::%s, &[%s], Backend::%s).unwrap();" % (
        op, ", ".join(rdt(d) for d in k), b["backend"]))
    h.append("    assert_eq!(b.wrapper, \"%s\");" % w)
    h.append("    assert_eq!(unsafe { b.kernel.call(std::ptr::null_mut(), &[%s], &[&mut o as *mut rt::fkc_tensor], "
             "%s, std::ptr::null()) }, Some(%d));" % (ins, params, 1000 + (1 << i)))
h += ["}", "", "#[test]", "fn every_binding_has_its_own_precision() {"]
for b in rows:
    pr = b["precision"]
    h.append("    assert_eq!(bindings::dispatch_key(OpKind::%s, &[%s], Backend::%s).map(|b| "
             "(b.precision.max_ulp, b.precision.max_relative)), Some((%d, %r)));" % (
                 b["op_kind"], ", ".join(rdt(d) for d in b["dtypes"]), b["backend"],
                 -int(-pr["max_ulp"] // 1), float(pr["max_relative"])))
# a variadic input's tensors reach the wrapper as one array: its count is theirs
h += ["}", "", "#[test]", "fn a_variadic_input_reaches_the_wrapper_as_one_array() {",
      "    let t = rt::fkc_tensor { buffer: std::ptr::null_mut(), offset: 0, dtype: 0, rank: 0, "
      "shape: [0; 8] };", "    let mut o = rt::fkc_tensor { buffer: std::ptr::null_mut(), "
      "offset: 0, dtype: 0, rank: 0, shape: [0; 8] };", "    let p = &t as *const rt::fkc_tensor;"]
nvar = 0
for b in rows:
    if b["op_kind"] not in variadic or b["op_kind"] != "Cat":
        continue
    nvar += 1
    h.append("    let b = bindings::dispatch_key(OpKind::Cat, &[%s], Backend::%s).unwrap();" % (
        ", ".join(rdt(d) for d in b["dtypes"]), b["backend"]))
    for n in (1, 3):
        h.append("    assert_eq!(unsafe { b.kernel.call(std::ptr::null_mut(), &[%s], &[&mut o as *mut "
                 "rt::fkc_tensor], Some(&bindings::OpParams::Cat { dim: 0 }), "
                 "std::ptr::null()) }, Some(%d));" % (", ".join(["p"] * n), 2000 + n))
    h.append("    assert_eq!(unsafe { b.kernel.call(std::ptr::null_mut(), &[], &[&mut o as *mut "
             "rt::fkc_tensor], Some(&bindings::OpParams::Cat { dim: 0 }), "
             "std::ptr::null()) }, None);")
    break
check(nvar == 1, "Rust: Cat's wrapper called with one and three tensors, and refused none")
h += ["}", "", "#[test]", "fn every_wrong_key_is_refused() {"]
for op, be, k in wrong:
    h.append("    assert!(bindings::dispatch_key(OpKind::%s, &[%s], Backend::%s).is_none());" % (
        op, ", ".join(rdt(d) for d in k), be))
h += ["}", "", "#[test]", "fn typed_op_params() {",
      "    use bindings::ops::{addmm_out, argsort, glu, max_dim, rope};",
      "    assert_eq!(rope::DEFAULT_MODE, rope::mode::Normal);",
      "    assert_eq!(rope::mode::Vision as i32, 24);",
      "    assert_eq!(rope::mode::Neox as i32, 2);",
      "    assert_eq!(rope::mode::Neox.name(), \"neox\");",
      "    assert_eq!(rope::mode::Vision.name(), \"vision\");",
      "    assert_eq!(glu::op::GegluQuick.name(), \"geglu_quick\");",
      "    assert_eq!(argsort::DEFAULT_ORDER, argsort::order::Asc);",
      "    assert_eq!(glu::op::SwigluOai as i32, 3);",
      "    assert_eq!(glu::op::NAMES, [\"reglu\", \"geglu\", \"swiglu\", \"swiglu_oai\", \"geglu_erf\", \"geglu_quick\"]);",
      "    assert_eq!(addmm_out::DEFAULT_ALPHA, 1.0f64);",
      "    assert_eq!(addmm_out::DEFAULT_BETA, 1.0f64);",
      "    assert!(!max_dim::DEFAULT_KEEPDIM);",
      "    let p = bindings::OpParams::Cpy { dst_type: DType::F16 };",
      "    assert_eq!(p.op_kind(), OpKind::Cpy);",
      "}", ""]
# cost over tensors (issue 22): MUL_MAT's 2*M*N*K and FLASH_ATTN_EXT's over q/k/v, with real shapes
h += ["#[test]", "fn tensor_costs() {", "    use bindings::tensor_costs::*;",
      "    use rt::tables::CostTensor;",
      "    let t = |d: &'static [u64], e: u32, b: u64| CostTensor { dims: Some(d), block_elems: e, block_bytes: b };",
      "    let mm = [t(&[3, 5], 1, 4), t(&[3, 7], 1, 4), t(&[5, 7], 1, 4)];",
      "    assert_eq!(mul_mat_flops(&mm, None), 210.0);",
      "    assert_eq!(mul_mat_bytes_moved(&mm, None), 284.0);",
      "    let q4 = [t(&[64, 2], 32, 18), t(&[64, 3], 1, 4), t(&[2, 3], 1, 4)];",
      "    assert_eq!(mul_mat_bytes_moved(&q4, None), 72.0 + 768.0 + 24.0);",
      "    let big = [t(&[1 << 32, 1 << 31], 1, 4), t(&[1 << 32, 1], 1, 4), t(&[1 << 31, 1], 1, 4)];",
      "    assert_eq!(mul_mat_flops(&big, None), 18446744073709551616.0);",
      "    let max = [t(&[u64::MAX, 1], 1, 4), t(&[u64::MAX, 1], 1, 4), t(&[1, 1], 1, 4)];",
      "    assert_eq!(mul_mat_flops(&max, None), 2.0 * 18446744073709551616.0);",
      "    let half = [t(&[1 << 63, 1], 1, 4), t(&[1 << 63, 1], 1, 4), t(&[1, 1], 1, 4)];",
      "    assert_eq!(mul_mat_flops(&half, None), 18446744073709551616.0);",
      "    assert!(mul_mat_flops(&mm[..2], None).is_nan());",
      "    let rank1 = [t(&[3], 1, 4), t(&[3, 7], 1, 4), t(&[7], 1, 4)];",
      "    assert!(mul_mat_flops(&rank1, None).is_nan());",
      "    assert_eq!(mm[1].dim(-1), 7.0);", "    assert_eq!(mm[1].dim(-2), 3.0);",
      "    assert!(mm[1].dim(-3).is_nan() && mm[1].dim(2).is_nan());",
      "    assert_eq!(t(&[], 1, 4).n(), 1.0);",
      "    let none = CostTensor { dims: None, block_elems: 1, block_bytes: 2 };",
      "    let fa = [t(&[64, 8, 4, 1], 1, 4), t(&[64, 16, 4, 1], 1, 2), t(&[64, 16, 4, 1], 1, 2), none,",
      "              t(&[64, 4, 8, 1], 1, 4)];",
      "    assert_eq!(flash_attn_ext_flops(&fa, None), 131072.0);",
      "    assert_eq!(flash_attn_ext_bytes_moved(&fa, None), 32768.0);",
      "    let mut fm = fa;", "    fm[3] = t(&[16, 8], 1, 2);",
      "    assert_eq!(flash_attn_ext_bytes_moved(&fm, None), 32768.0 + 256.0);",
      "    let b = bindings::BINDINGS.iter().find(|b| b.op_kind == OpKind::MulMat).unwrap();",
      "    assert!(b.cost.flops.is_none() && b.cost.flops_expr == Some(\"2 * dim(a, 1) * dim(b, 1) * dim(a, 0)\"));",
      "}", ""]
check(called >= 4, "Rust: %d calls without an optional input" % called)
harness = os.path.join(tmp, "harness.rs")
open(harness, "w").write("\n".join(h))
have_rustc = run(["sh", "-c", "command -v " + RUSTC]).returncode == 0
check(have_rustc, "rustc is installed (%s)" % RUSTC)
if have_rustc:
    exe = os.path.join(tmp, "harness")
    r = run([RUSTC, "--edition", "2021", "--test", "-D", "warnings", "-C", "opt-level=0", harness,
             "-o", exe])
    check(r.returncode == 0, "rustc: the generated module compiles under -D warnings",
          r.stderr[-3000:])
    if r.returncode == 0:
        r = run([exe])
        check(r.returncode == 0 and "11 passed" in r.stdout,
              "rustc: every key reaches its wrapper with its own precision, every wrong key is None, "
              "the typed params' enums and defaults, the aliased outputs, the outputs' shape rules and shape-only inputs, a variadic "
              "input's tensors as one array, the costs over tensors",
              r.stdout[-3000:])

# ---- Rust shards (issue 27): gen --lang rust --shards 4 is the same module in parts ----
gen4 = os.path.join(tmp, "gen4")
r = run([FKCGEN, "gen", "--lang", "rust", "--prefix", "ex", "--shards", "4", "--out-dir", gen4]
        + rel, cwd=ROOT)
parts = sorted(os.listdir(gen4)) if r.returncode == 0 else []
check(parts == ["ex_bindings.rs", "ex_bindings_1.rs", "ex_bindings_2.rs", "ex_bindings_3.rs"],
      "gen --lang rust --shards 4: the module and its parts 1 to 3 (%s)" % ", ".join(parts),
      r.stderr)
SHARDS_TEST = r"""
pub mod sharded {
    use super::rt;
    include!("%s");
}

// Every table of the sharded module against the one-file module (checked above), row by row:
// both are one plan, so the rows are in the same order; the types are each module's own.
fn cost_eq(x: &bindings::Cost, y: &sharded::Cost) -> bool {
    let args = [(0u64, 1u64), (1, 4), (1 << 31, 2), (1 << 32, 8), (1 << 63, 1), (u64::MAX, 4)];
    let fx = |f: Option<bindings::CostFn>| args.map(|(n, d)| f.map(|f| f(n, d, None).to_bits()));
    let fy = |f: Option<sharded::CostFn>| args.map(|(n, d)| f.map(|f| f(n, d, None).to_bits()));
    (x.provenance, x.class, x.flops_expr, x.bytes_moved_expr) ==
        (y.provenance, y.class, y.flops_expr, y.bytes_moved_expr) &&
        fx(x.flops) == fy(y.flops) && fx(x.bytes_moved) == fy(y.bytes_moved)
}

fn kernel_of(b: &bindings::Binding) -> usize {
    (b.info as *const bindings::KernelInfo as usize - bindings::KERNELS.as_ptr() as usize)
        / std::mem::size_of::<bindings::KernelInfo>()
}
fn kernel_of_sharded(b: &sharded::Binding) -> usize {
    (b.info as *const sharded::KernelInfo as usize - sharded::KERNELS.as_ptr() as usize)
        / std::mem::size_of::<sharded::KernelInfo>()
}
fn row_of(b: Option<&bindings::Binding>) -> Option<usize> {
    b.map(|b| (b as *const bindings::Binding as usize - bindings::BINDINGS.as_ptr() as usize)
          / std::mem::size_of::<bindings::Binding>())
}
fn row_of_sharded(b: Option<&sharded::Binding>) -> Option<usize> {
    b.map(|b| (b as *const sharded::Binding as usize - sharded::BINDINGS.as_ptr() as usize)
          / std::mem::size_of::<sharded::Binding>())
}

#[test]
fn shards_are_the_module() {
    use bindings as a;
    use sharded as s;
    assert_eq!(a::OpKind::ALL.len(), s::OpKind::ALL.len());
    for (x, y) in a::OpKind::ALL.iter().zip(s::OpKind::ALL.iter()) {
        assert_eq!((x.name(), *x as u32), (y.name(), *y as u32));
        match (a::op_shared_cost(*x), s::op_shared_cost(*y)) {
            (None, None) => {}
            (Some(cx), Some(cy)) => assert!(cost_eq(cx, cy), "{}'s shared cost", x.name()),
            _ => panic!("{}'s shared cost: one module has none", x.name()),
        }
    }
    assert_eq!(a::PROVIDERS[..], s::PROVIDERS[..]);
    assert_eq!(a::KERNELS.len(), s::KERNELS.len());
    for (x, y) in a::KERNELS.iter().zip(s::KERNELS.iter()) {
        assert_eq!((x.kernel, x.op_kind.name(), x.backend, x.kernel_source, x.blurb, x.entry_point),
                   (y.kernel, y.op_kind.name(), y.backend, y.kernel_source, y.blurb, y.entry_point));
        assert_eq!((x.caps, x.precision, x.determinism, x.revision_hash, x.source_file, x.source_line),
                   (y.caps, y.precision, y.determinism, y.revision_hash, y.source_file, y.source_line));
        assert_eq!((x.provider, x.inputs, x.outputs, x.variant, x.fields, x.heading, x.prose),
                   (y.provider, y.inputs, y.outputs, y.variant, y.fields, y.heading, y.prose));
        assert!(cost_eq(x.cost, y.cost), "{}'s cost", x.kernel);
    }
    assert_eq!(a::BINDINGS.len(), s::BINDINGS.len());
    for (i, (x, y)) in a::BINDINGS.iter().zip(s::BINDINGS.iter()).enumerate() {
        assert_eq!((x.op_kind.name(), x.dtypes, x.backend, kernel_of(x), x.symbol, x.wrapper),
                   (y.op_kind.name(), y.dtypes, y.backend, kernel_of_sharded(y), y.symbol, y.wrapper),
                   "binding {}", i);
        assert_eq!((x.kernel.op_kind().name(), x.byte_width, x.precision),
                   (y.kernel.op_kind().name(), y.byte_width, y.precision), "binding {}", i);
        assert!(cost_eq(x.cost, y.cost), "binding {}'s cost", i);
        let (ox, oy) = (x.op_kind, y.op_kind);
        assert_eq!(row_of(a::dispatch_key(ox, x.dtypes, x.backend)),
                   row_of_sharded(s::dispatch_key(oy, y.dtypes, y.backend)), "binding {}", i);
        assert_eq!(row_of(a::binding_lookup(ox, x.dtypes, x.backend, x.info.kernel_source)),
                   row_of_sharded(s::binding_lookup(oy, y.dtypes, y.backend, y.info.kernel_source)));
        if x.dtypes.len() == 2 {
            assert_eq!(row_of(a::dispatch(ox, x.dtypes[0], x.dtypes[1], x.backend)),
                       row_of_sharded(s::dispatch(oy, y.dtypes[0], y.dtypes[1], y.backend)));
        }
        assert_eq!(row_of(a::dispatch_key(ox, &x.dtypes[1..], x.backend)),
                   row_of_sharded(s::dispatch_key(oy, &y.dtypes[1..], y.backend)));
        assert_eq!(row_of(a::link_lookup(x.symbol).map(|e| e.binding)),
                   row_of_sharded(s::link_lookup(y.symbol).map(|e| e.binding)));
    }
    assert_eq!(a::LINK_REGISTRIES.len(), s::LINK_REGISTRIES.len());
    for (x, y) in a::LINK_REGISTRIES.iter().zip(s::LINK_REGISTRIES.iter()) {
        assert_eq!((x.0, x.1.len()), (y.0, y.1.len()));
        for (ex, ey) in x.1.iter().zip(y.1.iter()) {
            assert_eq!((ex.symbol, ex.registry, row_of(Some(ex.binding))),
                       (ey.symbol, ey.registry, row_of_sharded(Some(ey.binding))));
        }
    }
    assert!(a::link_lookup("no_such_symbol").is_none() && s::link_lookup("no_such_symbol").is_none());
    for be in [a::Backend::Vulkan, a::Backend::Cpu, a::Backend::Cuda] {
        let (mut vx, mut vy) = (a::BINDINGS.to_vec(), s::BINDINGS.to_vec());
        assert_eq!(a::fill_unset_cost_for_backend(&mut vx, be),
                   s::fill_unset_cost_for_backend(&mut vy, be));
        assert!(vx.iter().zip(vy.iter()).all(|(x, y)| cost_eq(x.cost, y.cost)));
    }
    assert_eq!(a::OPTIONAL_INPUTS.len(), s::OPTIONAL_INPUTS.len());
    assert_eq!(a::OUTPUT_ALIASES.len(), s::OUTPUT_ALIASES.len());
    assert_eq!(a::SHAPE_ONLY_INPUTS.len(), s::SHAPE_ONLY_INPUTS.len());
}
"""
if have_rustc and len(parts) == 4:
    sharness = os.path.join(tmp, "sharded.rs")
    open(sharness, "w").write("\n".join(h) + SHARDS_TEST % os.path.join(gen4, "ex_bindings.rs"))
    exe = os.path.join(tmp, "sharded")
    r = run([RUSTC, "--edition", "2021", "--test", "-D", "warnings", "-C", "opt-level=0", sharness,
             "-o", exe])
    check(r.returncode == 0, "rustc: the module and its --shards 4 parts compile under -D warnings",
          r.stderr[-3000:])
    if r.returncode == 0:
        r = run([exe])
        check(r.returncode == 0 and "12 passed" in r.stdout,
              "rustc: the sharded module's op kinds, providers, kernels, bindings, costs (shared "
              "ones too), dispatch, lookups, link registries and cost filling are the one-file "
              "module's", r.stdout[-3000:])

# ---- permute (no example states one): the SUM_ROWS section with permute rules, checked ----
src = open(os.path.join(ROOT, "contracts/examples/ggml-vulkan/ops.md")).read()
a = src.index("## sum_rows\n")
sec = src[a:src.index("\n## ", a + 1)]
head = src[:src.index("\n## ")]
# (SUM_ROWS states no op_params: the field-operand case adds a Vec field perm for the rule)
perm = ("  op_params:\n    variant: SumRows\n    fields:\n"
        "      perm: { kind: \"Vec<usize>\", note: \"the axes' order\" }\nreturn:")
for rule, want, fields_in in (("permute(src, [1, 0, 2])", ["src", "[1, 0, 2]"], False),
                              ("permute(src, perm)", ["src", "perm"], True)):
    pm = os.path.join(tmp, "permute.md")
    ps = sec.replace("reduce(src, 0, true)", rule)
    if fields_in:
        ps = ps.replace("return:", perm, 1)
    open(pm, "w").write(head + "\n" + ps + "\n")
    r = run([FKCGEN, "dump", "--json", pm])
    outs = json.loads(r.stdout)["bindings"][0]["outputs"] if r.returncode == 0 else []
    check(r.returncode == 0 and outs[0].get("shape") == "permute" and
          outs[0].get("shape_operands") == want, "shape_rule %s is checked and dumped" % rule,
          r.stderr)
pm = os.path.join(tmp, "permute.md")
open(pm, "w").write(head + "\n" + sec.replace("reduce(src, 0, true)", "permute(src, 0.5)") + "\n")
r = run([FKCGEN, "check", pm])
check(r.returncode == 1 and "perm '0.5' must be a list" in r.stderr, "permute(src, 0.5) is refused",
      r.stderr)

# ---- gen --select by whole keys ----
sel = os.path.join(tmp, "select.txt")
open(sel, "w").write("SetRows: [F32, I64, F16]\nCpy: F16, [Q4_0, F32]\nMaxDim\n")
r = run([FKCGEN, "gen", "--select", sel, "--out-dir", os.path.join(tmp, "sel")] + rel, cwd=ROOT)
want = 1 + sum(1 for b in rows if b["op_kind"] == "Cpy" and b["dtypes"] in (["F16", "F32"], ["F16", "F16"], ["Q4_0", "F32"])) + \
    sum(1 for b in rows if b["op_kind"] == "MaxDim")
got = open(os.path.join(tmp, "sel", "fkc_bindings.c")).read().count("    {FKC_OP_") if r.returncode == 0 else -1
check(r.returncode == 0 and got == want, "gen --select: a whole key, a first slot and an op kind keep "
      "%d bindings (%d)" % (want, got), r.stderr)
open(sel, "w").write("SetRows: [F32, I64, F16]\nCpy: [F32], [F32, Q9]\n")
r = run([FKCGEN, "gen", "--select", sel, "--out-dir", os.path.join(tmp, "sel2")] + rel, cwd=ROOT)
check(r.returncode == 1 and "select.txt:2:6: error: op kind Cpy is bound for no key [F32]" in r.stderr
      and not os.path.exists(os.path.join(tmp, "sel2")), "gen --select: a key no binding has is "
      "an error at its line:col, nothing written", r.stderr)

# ---- fkcgen doc: a field's enum values (with codes) and default on the page ----
dd = os.path.join(tmp, "doc")
os.makedirs(dd)
r = run([FKCGEN, "doc", "--out-dir", dd] + rel, cwd=ROOT)
page = "".join(open(os.path.join(dp, fn)).read() for dp, _, fns in os.walk(dd) for fn in fns)
check(r.returncode == 0 and "- `mode`: `enum` of `normal` (0), `neox` (2), `mrope` (8), `vision` (24), "
      "default `normal`," in page and "- `keepdim`: `bool`, default `false`," in page,
      "doc: ROPE's mode values with their codes and default, max.dim's keepdim default", r.stderr)

# ---- typed defaults at the edges of their kinds: 2^31, 2^32-1, 2^63, 2^64-1, -2^63 ----
EDGE = """---
fkc_version: 1
provider:
  name: edge
  backend: Cpu
  kernel_source: "edge"
  link_registry: edge::fkc::ENTRY_POINTS
  revision_base: "edge"
---
# edge
## edge
```fkc
kernel: edge
op_kind: Edge
blurb: "defaults at the edges"
backend: Cpu
kernel_source: "edge"
entry_point: "edge::fkc::edge"
kernel_revision_hash: auto
accept:
  inputs:
  - { name: src, dtypes: [F32], layout: { contiguous: required, strided: rejected }, rank: any }
  op_params:
    variant: Edge
    fields:
      u64_max: { kind: u64, default: 18446744073709551615 }
      u64_2_63: { kind: u64, default: 9223372036854775808 }
      usize_max: { kind: usize, default: 18446744073709551615 }
      i64_max: { kind: i64, default: 9223372036854775807 }
      i64_min: { kind: i64, default: -9223372036854775808 }
      isize_min: { kind: isize, default: -9223372036854775808 }
      u32_max: { kind: u32, default: 4294967295 }
      i32_min: { kind: i32, default: -2147483648 }
      i32_lead: { kind: i32, default: -007 }
      half: { kind: f32, default: .5 }
      big: { kind: f64, default: 2.e3 }
      to: { kind: dtype, default: BF16 }
      how: { kind: enum, values: [a, b_c], default: b_c }
      span: { kind: enum, values: { lo: -2147483648, mid: 0, hi: 2147483647 }, default: hi }
return:
  outputs:
  - { name: out, dtype_rule: param(to), dtypes: [F32, BF16], shape_rule: same_as(src), layout_guarantee: contiguous, aliasing: none }
caps: { awkward_layout_strategy: requires_contiguous, in_place: false, alignment_bytes: 16, access_granularity_bits: 32 }
precision: { bit_stable_on_same_hardware: true, max_ulp: 0, max_relative: 0.0, max_absolute: 0.0, audited: false }
determinism: deterministic
```
"""
edge = os.path.join(tmp, "edge.md")
open(edge, "w").write(EDGE)
r = run([FKCGEN, "dump", "--json", edge])
got = {}
if r.returncode == 0:
    got = {f["name"]: f.get("default") for b in json.loads(r.stdout)["bindings"][:1]
           for f in b["op_params"]["fields"]}
check(got == {"u64_max": 2**64 - 1, "u64_2_63": 2**63, "usize_max": 2**64 - 1, "i64_max": 2**63 - 1,
              "i64_min": -2**63, "isize_min": -2**63, "u32_max": 2**32 - 1, "i32_min": -2**31,
              "i32_lead": -7, "half": 0.5, "big": 2000.0, "to": "BF16", "how": "b_c", "span": "hi"},
      "dump --json: defaults at the edges of their kinds, exact", r.stderr + str(got))
egen = os.path.join(tmp, "edge_gen")
r = run([FKCGEN, "gen", "--prefix", "ed", "--out-dir", egen, edge])
check(r.returncode == 0, "gen: the edge defaults", r.stderr)
open(os.path.join(tmp, "edge_check.c"), "w").write("\n".join([
    '#include "ed_bindings.h"',
    "_Static_assert(ED_EDGE_DEFAULT_U64_MAX == UINT64_MAX, \"2^64-1\");",
    "_Static_assert(ED_EDGE_DEFAULT_U64_2_63 == (uint64_t)1 << 63, \"2^63\");",
    "_Static_assert(ED_EDGE_DEFAULT_USIZE_MAX == (size_t)UINT64_MAX, \"usize\");",
    "_Static_assert(ED_EDGE_DEFAULT_I64_MAX == INT64_MAX, \"2^63-1\");",
    "_Static_assert(ED_EDGE_DEFAULT_I64_MIN == INT64_MIN, \"-2^63\");",
    "_Static_assert(ED_EDGE_DEFAULT_ISIZE_MIN == (ptrdiff_t)INT64_MIN, \"isize\");",
    "_Static_assert(ED_EDGE_DEFAULT_U32_MAX == UINT32_MAX, \"2^32-1\");",
    "_Static_assert(ED_EDGE_DEFAULT_I32_MIN == INT32_MIN, \"-2^31\");",
    "_Static_assert(ED_EDGE_DEFAULT_I32_LEAD == -7, \"-007\");",
    "_Static_assert(_Generic(ED_EDGE_DEFAULT_U64_MAX, uint64_t: 1, default: 0), \"u64 type\");",
    "_Static_assert(_Generic(ED_EDGE_DEFAULT_I32_MIN, int32_t: 1, default: 0), \"i32 type\");",
    "_Static_assert(_Generic(ED_EDGE_DEFAULT_HALF, float: 1, default: 0), \"f32 type\");",
    "_Static_assert(ED_EDGE_DEFAULT_TO == FKC_DTYPE_BF16, \"dtype\");",
    "_Static_assert(ED_EDGE_DEFAULT_HOW == ED_EDGE_HOW_B_C && ED_EDGE_HOW_B_C == 1, \"enum\");",
    "_Static_assert(ED_EDGE_SPAN_LO == INT32_MIN && ED_EDGE_DEFAULT_SPAN == INT32_MAX, \"codes\");",
    "int edge_half_is_half(void);",
    "int edge_half_is_half(void) { return ED_EDGE_DEFAULT_HALF == 0.5f && ED_EDGE_DEFAULT_BIG == 2000.0; }",
    ""]))
for cc in ("gcc", "clang"):
    r = run([cc] + flags + ["-I" + egen, "-c", os.path.join(tmp, "edge_check.c"), "-o",
                            os.path.join(tmp, "edge_%s.o" % cc)])
    check(r.returncode == 0, "%s: the edge defaults are constants of their C types" % cc,
          r.stderr[-3000:])
r = run([FKCGEN, "gen", "--lang", "rust", "--prefix", "ed", "--out-dir", egen, edge])
rsrc = open(os.path.join(egen, "ed_bindings.rs")).read() if r.returncode == 0 else ""
for line in ("pub const DEFAULT_U64_MAX: u64 = 18446744073709551615;",
             "pub const DEFAULT_I64_MIN: i64 = -9223372036854775808;",
             "pub const DEFAULT_HALF: f32 = 0.5;", "pub const DEFAULT_BIG: f64 = 2.0e3;",
             "pub const DEFAULT_TO: super::super::DType = super::super::DType::BF16;",
             "pub const DEFAULT_HOW: how = how::BC;", "Lo = -2147483648,", "Hi = 2147483647,"):
    check(line in rsrc, "rust: " + line, r.stderr)
if have_rustc and rsrc:
    eh = [l for l in h[:h.index("pub mod rt {") + 1]] + [
        "    use std::ffi::c_void;",
        "    #[repr(C)] pub struct fkc_stream { _opaque: [u8; 0] }",
        "    #[repr(C)] pub struct fkc_buffer { _opaque: [u8; 0] }",
        "    #[repr(C)] pub struct fkc_tensor { pub buffer: *mut fkc_buffer, pub offset: u64, "
        "pub dtype: u32, pub rank: u32, pub shape: [usize; 8] }",
        "    pub type fkc_status = u32;", "    pub const FKC_RUNTIME_ABI: i32 = 4;",
        "    pub use crate::tables;"]
    for w in sorted(set(re.findall(r"rt::(edge_b[0-9_b]+)", rsrc))):
        eh.append("    pub unsafe extern \"C\" fn %s(_s: *mut fkc_stream, _i0: *const fkc_tensor, "
                  "_o0: *mut fkc_tensor, _p: *const c_void, _e: *const c_void) -> fkc_status { 0 }" % w)
    eh += ["}", "", "pub mod bindings {", "    use super::rt;",
           "    include!(\"%s\");" % os.path.join(egen, "ed_bindings.rs"), "}", "",
           "#[test]", "fn edge_defaults() {", "    use bindings::ops::edge::*;",
           "    assert_eq!(DEFAULT_U64_MAX, u64::MAX);", "    assert_eq!(DEFAULT_U64_2_63, 1u64 << 63);",
           "    assert_eq!(DEFAULT_USIZE_MAX, usize::MAX);", "    assert_eq!(DEFAULT_I64_MAX, i64::MAX);",
           "    assert_eq!(DEFAULT_I64_MIN, i64::MIN);", "    assert_eq!(DEFAULT_ISIZE_MIN, isize::MIN);",
           "    assert_eq!(DEFAULT_U32_MAX, u32::MAX);", "    assert_eq!(DEFAULT_I32_MIN, i32::MIN);",
           "    assert_eq!(DEFAULT_I32_LEAD, -7);", "    assert_eq!(DEFAULT_HALF, 0.5f32);",
           "    assert_eq!(DEFAULT_BIG, 2000.0f64);", "    assert_eq!(DEFAULT_TO, bindings::DType::BF16);",
           "    assert_eq!(DEFAULT_HOW, how::BC);", "    assert_eq!(DEFAULT_SPAN as i32, i32::MAX);",
           "    assert_eq!(span::Lo as i32, i32::MIN);", "    assert_eq!(span::Hi.name(), \"hi\");",
           "}", ""]
    eharness = os.path.join(tmp, "edge_harness.rs")
    open(eharness, "w").write("\n".join(eh))
    exe = os.path.join(tmp, "edge_harness")
    r = run([RUSTC, "--edition", "2021", "--test", "-D", "warnings", "-C", "opt-level=0", eharness,
             "-o", exe])
    check(r.returncode == 0, "rustc: the edge defaults' module compiles under -D warnings",
          r.stderr[-3000:])
    if r.returncode == 0:
        r = run([exe])
        check(r.returncode == 0 and "1 passed" in r.stdout,
              "rustc: the edge defaults are the constants of their Rust types", r.stdout[-3000:])

print("%d passed, %d failed" % (passed, failed))
sys.exit(failed != 0)
