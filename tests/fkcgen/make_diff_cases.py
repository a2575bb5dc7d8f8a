#!/usr/bin/python3
"""make_diff_cases.py — writes the `fkcgen diff` corpus (tests/fkcgen/diff/NAME/): each case is
an old and a new revision (old.md and new.md, or directories old/ and new/) made from the small
contract of make_cases.py with a few edits, an optional `args` line (options before the two
revisions) and an optional allow file. Run it once when adding a case, then draft the expected
reports with `make_diff_cases.py --expect` (which runs build/fkcgen from each case's directory)
and read every `expected` file before committing it: test_diff.c compares them byte for byte."""
import os, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_cases import BASE, SECOND  # noqa: E402

DIFF = os.path.join(HERE, "diff")
HEADER = BASE[:BASE.index("## copy")]
# A second kernel beside copy: its own op kind and symbols.
K2 = SECOND.replace("op_kind: Copy", "op_kind: Copy2").replace("demo::fkc::copy", "demo::fkc::copy2")


LEN = 'len: { kind: usize, note: "elements to copy" }'


def sibling(name, dtype):
    """A kernel of op kind Copy binding one dtype, its own entry point."""
    return SECOND.replace("copy2", name).replace("demo::fkc::copy", "demo::fkc::" + name).replace(
        "dtypes: [F32, U8]", "dtypes: [%s]" % dtype)


SIB_ZETA, SIB_ALPHA = sibling("zeta", "F32"), sibling("alpha", "I8")


def sub(text, *pairs):
    """text with each (old, new) replaced once; each old must be there."""
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def base(*pairs):
    return sub(BASE, *pairs)


# The kernel with a second input (idx), written nested inside the flattened contract.
TWO = base(("""inputs:
- name: src
dtypes: [F32, U8]
layout: { contiguous: required, strided: rejected }
rank: any
""", """inputs:
  - name: src
    dtypes: [F32, U8]
    layout: { contiguous: required, strided: rejected }
    rank: any
  - name: idx
    dtypes: [U32, I32, I64]
    layout: { contiguous: required, strided: rejected }
    rank: 1
"""))

# Two outputs (count added), nested as TWO's inputs.
TWO_OUT = """outputs:
  - name: out
    dtype_rule: passthrough(src)
    shape_rule: from_params(dst)
    layout_guarantee: contiguous
    aliasing: none
  - name: count
    dtype_rule: passthrough(src)
    shape_rule: same_as(src)
    layout_guarantee: contiguous
    aliasing: none
"""

# Not exact: precision may move both ways (bitwise demands all zero).
LOOSE = base(("determinism: bitwise", "determinism: deterministic"), ("max_ulp: 0", "max_ulp: 4"),
             ("max_relative: 0.0", "max_relative: 1e-6"), ("audited: true", "audited: false"))

PBY = base(("determinism: bitwise", "determinism: deterministic"), ("max_ulp: 0", "max_ulp: 4"),
           ("max_relative: 0.0", "max_relative: 0.000001"))

NINE = base(("dtypes: [F32, U8]", "dtypes: [F32, I32, U32, F16, BF16, F64, I64, U8, I8]"))

# The key [src]: out's dtype always F32.
FIXED = sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src]"),
            ("dtype_rule: passthrough(src)", "dtype_rule: fixed(F32)"))

BLOCKS = ('revision_base: "git:0000"\nblock_dtypes:\n- { block: Q8_0, block_elements: 32, '
          'block_bytes: 34 }\n- { block: Q4_0, block_elements: 32, block_bytes: 18 }')
ALL12 = "F32, I32, U32, F16, BF16, F64, I64, U8, I8, I16, U16, Bool"

# Two inputs of the same dtypes in the key [src, idx]: every pair of them, or (SAME_NEW) idx
# with src's dtype.
SAME_OLD = sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]"),
               ("dtypes: [U32, I32, I64]", "dtypes: [F32, U8]"))
SAME_NEW = sub(SAME_OLD, ("    rank: 1\n", "    rank: 1\n    same_dtype_as: src\n"))

# The output of a dtype field's dtype (param(to); issue 22's dtype rules).
TWO_OUT_PARAM = base(("dst: { kind: \"Vec<usize>\", note: \"destination extents\" }",
                      "dst: { kind: \"Vec<usize>\", note: \"destination extents\" }\n"
                      "to: { kind: dtype, note: \"the output's dtype\" }"),
                     ("dtype_rule: passthrough(src)", "dtype_rule: param(to)\ndtypes: [F32, U8]"),
                     ("determinism: bitwise", "determinism: bitwise\nkey: [src, out]"))

CASES = {
    # ---- bindings and keys ----
    "backend_removed": {  # the only file moves from Vulkan to Cuda: one backend gone, one new
        "old": BASE,
        "new": base(("backend: Vulkan", "backend: Cuda"), ("backend: Vulkan", "backend: Cuda"))},
    "kernel_removed": {"old": BASE + K2, "new": BASE},
    "kernel_added": {"old": BASE, "new": BASE + K2},
    # a dtype removed in the middle of nine: its binding alone, the caret on it
    "dtype_removed_middle": {
        "old": NINE, "new": sub(NINE, ("F16, BF16, F64", "F16, F64"))},
    "dtype_added": {"old": BASE, "new": base(("dtypes: [F32, U8]", "dtypes: [F32, I8, U8]"))},
    "dtype_removed_second_input": {  # not the bindings' input: every binding refuses it
        "old": TWO, "new": sub(TWO, ("dtypes: [U32, I32, I64]", "dtypes: [U32, I64]"))},
    "dtype_added_second_input": {
        "old": TWO, "new": sub(TWO, ("dtypes: [U32, I32, I64]", "dtypes: [U32, I32, I64, U8]"))},
    "dtypes_reordered": {"old": BASE, "new": base(("dtypes: [F32, U8]", "dtypes: [U8, F32]"))},
    "op_kind_changed": {  # same kernel, another key: its old keys removed, new ones added
        "old": BASE, "new": base(("op_kind: Copy", "op_kind: CopyAll"),
                                 ("variant: Copy", "variant: CopyAll"))},
    "kernel_source_changed": {  # one file of two changes kernel_source: Vulkan still has keys
        "old": {"a.md": BASE, "b.md": HEADER + K2},
        "new": {"a.md": base(('kernel_source: "vulkan-slang"', 'kernel_source: "vulkan glsl"'),
                             ('kernel_source: "vulkan-slang"', 'kernel_source: "vulkan glsl"')),
                "b.md": HEADER + K2}},
    # a kernel moved to another file with the same keys, symbols and registry: informational
    "kernel_moved": {
        "old": {"a.md": BASE + K2},
        "new": {"a.md": BASE,
                "more/b.md": HEADER + K2}},
    # one binding (U8) moved to a new kernel in another file: its wrapper, symbol and file
    "binding_moved_to_other_kernel": {
        "old": {"a.md": BASE},
        "new": {"a.md": base(("dtypes: [F32, U8]", "dtypes: [F32]")),
                "u8.md": base(("dtypes: [F32, U8]", "dtypes: [U8]"), ("kernel: copy", "kernel: copy_u8"),
                              ("demo::fkc::copy", "demo::fkc::copy_u8"))}},
    # ---- names ----
    "wrapper_renamed": {"old": BASE, "new": base(("kernel: copy", "kernel: copy_v2"))},
    "entry_point_renamed": {"old": BASE, "new": base(("demo::fkc::copy", "demo::kernels::copy"))},
    "link_registry_renamed": {"old": BASE + K2, "new": sub(BASE + K2,
                              ("demo::fkc::ENTRY_POINTS", "demo::fkc::REGISTRY"))},
    # the input renamed with the rules that name it: one rename, no rule change
    "input_renamed": {"old": BASE, "new": base(("name: src", "name: source"),
                                               ("passthrough(src)", "passthrough(source)"))},
    "output_renamed": {"old": BASE, "new": base(("name: out", "name: result"))},
    # ---- the signature ----
    "input_added": {"old": BASE, "new": TWO},
    "input_removed": {"old": TWO, "new": BASE},
    "output_added": {"old": BASE, "new": base(("""outputs:\n- name: out\ndtype_rule: passthrough(src)\nshape_rule: from_params(dst)\nlayout_guarantee: contiguous\naliasing: none\n""", TWO_OUT))},
    "output_removed": {"old": base(("""outputs:\n- name: out\ndtype_rule: passthrough(src)\nshape_rule: from_params(dst)\nlayout_guarantee: contiguous\naliasing: none\n""", TWO_OUT)), "new": BASE},
    "op_params_variant_changed": {"old": BASE, "new": base(("variant: Copy", "variant: CopyV2"))},
    # op_params removed whole: the variant and both fields; the shape rule no longer names a field
    "op_params_removed": {"old": BASE, "new": base(("""op_params:
variant: Copy
fields:
len: { kind: usize, note: "elements to copy" }
dst: { kind: "Vec<usize>", note: "destination extents" }
""", ""), ("from_params(dst)", "same_as(src)"), (" + len", ""))},
    "op_param_added": {"old": BASE, "new": base(("""dst: { kind: "Vec<usize>", note: "destination extents" }
""", """dst: { kind: "Vec<usize>", note: "destination extents" }
stride: { kind: usize }
"""))},
    "op_param_removed": {"old": BASE, "new": base(('len: { kind: usize, note: "elements to copy" }\n', ""),
                                                  (" + len", ""))},
    "op_param_kind_changed": {"old": BASE, "new": base(("len: { kind: usize", "len: { kind: u32"))},
    # typed op params (issue 22 item 3): enum values and defaults
    "enum_value_added": {"old": base((LEN, LEN + "\norder: { kind: enum, values: [asc, desc] }")),
                         "new": base((LEN, LEN + "\norder: { kind: enum, values: [asc, desc, stable] }"))},
    "enum_value_removed": {"old": base((LEN, LEN + "\norder: { kind: enum, values: [asc, desc, stable] }")),
                           "new": base((LEN, LEN + "\norder: { kind: enum, values: [asc, desc] }"))},
    # a value inserted before desc: desc's number changes (and the new value is reported added)
    "enum_value_renumbered": {"old": base((LEN, LEN + "\norder: { kind: enum, values: [asc, desc] }")),
                              "new": base((LEN, LEN + "\norder: { kind: enum, values: [asc, stable, desc] }"))},
    # a stated code changed (ggml's NEOX 2 -> 3): compiled callers pass the old number
    "enum_value_code_changed": {"old": base((LEN, LEN + "\nmode: { kind: enum, values: { normal: 0, neox: 2 } }")),
                                "new": base((LEN, LEN + "\nmode: { kind: enum, values: { normal: 0, neox: 3 } }"))},
    # the list form and a mapping of the same codes: no change
    "enum_values_as_mapping_same": {"old": base((LEN, LEN + "\nmode: { kind: enum, values: [normal, neox] }")),
                                    "new": base((LEN, LEN + "\nmode: { kind: enum, values: { normal: 0, neox: 1 } }"))},
    "enum_kind_changed": {"old": base((LEN, LEN + "\norder: { kind: i32 }")),
                          "new": base((LEN, LEN + "\norder: { kind: enum, values: [asc, desc] }"))},
    "op_param_default_added": {"old": base((LEN, LEN + "\nkeep: { kind: bool }")),
                               "new": base((LEN, LEN + "\nkeep: { kind: bool, default: false }"))},
    "op_param_default_removed": {"old": base((LEN, LEN + "\nalpha: { kind: f64, default: 1 }")),
                                 "new": base((LEN, LEN + "\nalpha: { kind: f64 }"))},
    "op_param_default_changed": {"old": base((LEN, LEN + "\norder: { kind: enum, values: [asc, desc], default: asc }")),
                                 "new": base((LEN, LEN + "\norder: { kind: enum, values: [asc, desc], default: desc }"))},
    # the same default spelt otherwise (1, 1.0): no change
    "op_param_default_same": {"old": base((LEN, LEN + "\nalpha: { kind: f64, default: 1 }")),
                              "new": base((LEN, LEN + "\nalpha: { kind: f64, default: 1.0 }"))},
    "op_params_reordered": {"old": BASE, "new": base(
        ('len: { kind: usize, note: "elements to copy" }\ndst: { kind: "Vec<usize>", note: '
         '"destination extents" }', 'dst: { kind: "Vec<usize>", note: "destination extents" }\n'
         'len: { kind: usize, note: "elements to copy" }'))},
    # ---- inputs ----
    "layout_tightened": {  # accepted → rejected, and a stated key dropped
        "old": base(("strided: rejected }", "strided: rejected, broadcast_stride0: accepted, "
                     "start_offset: accepted }")),
        "new": base(("strided: rejected }", "strided: rejected, broadcast_stride0: rejected }"))},
    "layout_relaxed": {  # required → accepted, and a key stated that was not
        "old": BASE,
        "new": base(("contiguous: required, strided: rejected }",
                     "contiguous: accepted, strided: rejected, reverse_strides: rejected }"))},
    "rank_narrowed": {"old": BASE, "new": base(("rank: any", "rank: 2"))},
    "rank_changed": {"old": base(("rank: any", "rank: 2")), "new": base(("rank: any", "rank: 3"))},
    "rank_widened": {"old": base(("rank: any", "rank: 2")), "new": BASE},
    "shape_constraint_changed": {
        "old": base(("rank: any\n", "rank: any\nshape_constraint: \"len <= n\"\n")),
        "new": base(("rank: any\n", "rank: any\nshape_constraint: \"len < n\"\n"))},
    # ---- outputs ----
    # the key [src] alone: the bindings stay, the output's dtype follows another input
    "output_dtype_rule_changed": {
        "old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src]")),
        "new": sub(TWO, ("passthrough(src)", "passthrough(idx)"),
                   ("determinism: bitwise", "determinism: bitwise\nkey: [src]"))},
    # the default key [src, out]: out's dtype is idx's now, so every key changed
    "output_dtype_rule_changed_key": {"old": TWO,
                                      "new": sub(TWO, ("passthrough(src)", "passthrough(idx)"))},
    # fixed(D) is compared by its dtype: the same rule is no change (only the blurb changed),
    # another dtype is breaking
    "output_dtype_rule_fixed_same": {
        "old": sub(FIXED, ('blurb: "copy a tensor"', 'blurb: "copy a tensor"')),
        "new": sub(FIXED, ('blurb: "copy a tensor"', 'blurb: "copy a tensor, as F32"'))},
    "output_dtype_rule_fixed_changed": {
        "old": FIXED, "new": sub(FIXED, ("dtype_rule: fixed(F32)", "dtype_rule: fixed(F16)"))},
    "output_shape_rule_changed": {"old": BASE, "new": base(("from_params(dst)", "same_as(src)"))},
    # issue 22: keys over several tensors
    "key_changed": {  # the same tuples, the slots swapped: every key matches, the key changed
        "old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]"),
                   ("dtypes: [U32, I32, I64]", "dtypes: [F32, U8]")),
        "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [idx, src]"),
                   ("dtypes: [U32, I32, I64]", "dtypes: [F32, U8]"))},
    "key_changed_tuples": {"old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]")),
                           "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [idx, src]"))},
    # issue 22: optional inputs (idx optional, keyed as I32 without it)
    "input_made_optional": {
        "old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]")),
        "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]"),
                   ("    rank: 1\n", "    rank: 1\n    optional: true\n    absent_key: I32\n"))},
    "input_made_required": {
        "old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]"),
                   ("    rank: 1\n", "    rank: 1\n    optional: true\n    absent_key: I32\n")),
        "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]"))},
    "absent_key_changed": {
        "old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]"),
                   ("    rank: 1\n", "    rank: 1\n    optional: true\n    absent_key: I32\n")),
        "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]"),
                   ("    rank: 1\n", "    rank: 1\n    optional: true\n    absent_key: I64\n"))},
    # issue 22: outputs aliasing a named input
    "output_alias_changed": {
        "old": sub(TWO, ("aliasing: none", "aliasing: in_place"), ("in_place: false", "in_place: true"),
                   ("shape_rule: from_params(dst)", "shape_rule: same_as(src)"),
                   ("aliasing: in_place", "aliasing: in_place\nin_place: src")),
        "new": sub(TWO, ("aliasing: none", "aliasing: in_place"), ("in_place: false", "in_place: true"),
                   ("shape_rule: from_params(dst)", "shape_rule: same_as(src)"))},
    # fixed(D) and param(F) dtype rules unchanged: no change (they were compared by input
    # position, which they have none of, and reported as changed against themselves)
    "output_fixed_param_rule_unchanged": {
        "old": sub(TWO_OUT_PARAM, ("determinism: bitwise", "determinism: bitwise")),
        "new": sub(TWO_OUT_PARAM, ("copy a tensor", "copy a tensor, as is"))},
    "output_fixed_rule_unchanged": {
        "old": base(("dtype_rule: passthrough(src)", "dtype_rule: fixed(F32)"),
                    ("determinism: bitwise", "determinism: bitwise\nkey: [src, out]")),
        "new": base(("dtype_rule: passthrough(src)", "dtype_rule: fixed(F32)"),
                    ("determinism: bitwise", "determinism: bitwise\nkey: [src, out]"),
                    ("copy a tensor", "copy a tensor, as is"))},
    # an input added before a key's output: the output's tensor index moves, the key does not
    # (KEY_CHANGED "from [src, out] to [src, out]" was reported beside INPUT_ADDED)
    "input_added_key_output_kept": {
        "old": base(("determinism: bitwise", "determinism: bitwise\nkey: [src, out]")),
        "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, out]"))},
    # issue 22: variadic inputs
    "variadic_changed": {
        "old": TWO,
        "new": sub(TWO, ("    rank: 1\n", "    rank: 1\n    variadic: true\n"))},
    # issue 22: shape-only inputs
    "input_made_shape_only": {
        "old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, out]")),
        "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, out]"),
                   ("    rank: 1\n", "    rank: 1\n    shape_only: true\n"))},
    "input_data_read": {
        "old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, out]"),
                   ("    rank: 1\n", "    rank: 1\n    shape_only: true\n")),
        "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, out]"))},
    "cpu_reference_changed": {
        "old": base(("determinism: bitwise", "determinism: bitwise\ncpu_reference: copy_ref")),
        "new": base(("determinism: bitwise", "determinism: bitwise\ncpu_reference: copy_ref2"))},
    "precision_reference_changed": {
        "old": base(("audited: true", 'audited: true\nreference: "correctly_rounded"')),
        "new": base(("audited: true", 'audited: true\nreference: "implementation:demo::cpu::copy"'))},
    "fanout_changed": {"old": BASE, "new": base(("determinism: bitwise",
                                                 "determinism: bitwise\nfanout: dtypes"))},
    "combination_removed": {
        "old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]")),
        "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]\n"
                         "exclude:\n- [F32, I64]\n- [U8, I64]"))},
    "combination_added": {
        "old": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]\n"
                         "exclude:\n- [U8, I64]")),
        "new": sub(TWO, ("determinism: bitwise", "determinism: bitwise\nkey: [src, idx]"))},
    # same_dtype_as (issue 22): idx takes src's dtype, so the keys where they differ go
    "same_dtype_as_added": {"old": SAME_OLD, "new": SAME_NEW},
    "same_dtype_as_removed": {"old": SAME_NEW, "new": SAME_OLD},
    # the old exclude removed the same keys: the constraint drops no key that was bound
    "same_dtype_as_no_key_lost": {
        "old": sub(SAME_OLD, ("key: [src, idx]", "key: [src, idx]\nexclude:\n- [F32, U8]\n"
                              "- [U8, F32]")),
        "new": SAME_NEW},
    "output_layout_changed": {"old": BASE, "new": base(("layout_guarantee: contiguous",
                                                        "layout_guarantee: same_as_input"))},
    "output_aliasing_changed": {"old": BASE, "new": base(("aliasing: none", "aliasing: may_alias_input"))},
    "output_aliasing_narrowed": {"old": base(("aliasing: none", "aliasing: may_alias_input")),
                                 "new": BASE},
    # ---- caps ----
    "caps_narrowed": {"old": base(("in_place: false", "in_place: true")),
                      "new": base(("alignment_bytes: 16", "alignment_bytes: 64"),
                                  ("access_granularity_bits: 32", "access_granularity_bits: 128"))},
    "caps_widened": {"old": BASE,
                     "new": base(("awkward_layout_strategy: requires_contiguous",
                                  "awkward_layout_strategy: native_strided"),
                                 ("in_place: false", "in_place: true"),
                                 ("alignment_bytes: 16", "alignment_bytes: 4"))},
    "caps_changed": {  # fast paths are hints: one added, one of another class, one removed
        "old": base(("in_place: false", "fast_paths:\n- { when: aligned, class: elementwise }\n"
                     "- { when: single_element, class: cheap_elementwise }\nin_place: false")),
        "new": base(("in_place: false", "fast_paths:\n- { when: aligned, class: memory_bound }\n"
                     "- { when: all_inputs_contiguous, class: cheap_elementwise }\nin_place: false"))},
    # ---- precision, determinism, cost ----
    # several changes in one binding pair: each its own line, in file order
    "precision_loosened": {"old": BASE, "new": base(
        ("determinism: bitwise", "determinism: deterministic"), ("max_ulp: 0", "max_ulp: 2"),
        ("bit_stable_on_same_hardware: true", "bit_stable_on_same_hardware: false"),
        ("max_relative: 0.0", "max_relative: 0.5"))},
    "precision_tightened": {"old": LOOSE, "new": sub(LOOSE, ("max_ulp: 4", "max_ulp: 1"),
                                                     ("audited: false", "audited: true"))},
    # max_ulp a non-negative number (issue 22): 2.5 -> 3 loosens, 2.5 -> 2.25 tightens (exact,
    # printed as written); 2.50 is 2.5 (no change)
    "precision_ulp_fraction_loosened": {"old": sub(LOOSE, ("max_ulp: 4", "max_ulp: 2.5")),
                                        "new": sub(LOOSE, ("max_ulp: 4", "max_ulp: 3"))},
    "precision_ulp_fraction_tightened": {"old": sub(LOOSE, ("max_ulp: 4", "max_ulp: 2.5")),
                                         "new": sub(LOOSE, ("max_ulp: 4", "max_ulp: 2.25"))},
    "precision_ulp_fraction_same": {"old": sub(LOOSE, ("max_ulp: 4", "max_ulp: 2.5")),
                                    "new": sub(LOOSE, ("max_ulp: 4", "max_ulp: 2.50"))},
    # shape rules with operands (issue 22): reduce's keepdim changed is a shape_rule changed
    "output_shape_rule_operands_changed": {
        "old": base(("shape_rule: from_params(dst)", "shape_rule: reduce(src, 0, true)")),
        "new": base(("shape_rule: from_params(dst)", "shape_rule: reduce(src, 0, false)"))},
    # precision_by_dtype (issue 22): a binding's own figures, compared binding by binding; U8's
    # looser is breaking for [U8, U8] alone, an entry added that tightens U8 is compatible
    "precision_by_dtype_loosened": {
        "old": sub(PBY, ("audited: true", "audited: true\nprecision_by_dtype:\n- dtypes: [[U8, U8]]\n"
                                          "  max_ulp: 2")),
        "new": sub(PBY, ("audited: true", "audited: true\nprecision_by_dtype:\n- dtypes: [[U8, U8]]\n"
                                          "  max_ulp: 3\n  audited: false"))},
    "precision_by_dtype_tightened": {
        "old": PBY,
        "new": sub(PBY, ("audited: true", "audited: true\nprecision_by_dtype:\n- dtypes: [[U8, U8]]\n"
                                          "  max_ulp: 2\n  max_relative: 0.0"))},
    # a block dtype's geometry changed (issue 22): breaking, at its declaration; the section
    # that names it also changes revision hash (its hash folds the geometry in)
    "block_dtype_geometry_changed": {
        "old": base(('revision_base: "git:0000"', 'revision_base: "git:0000"\nblock_dtypes:\n'
                     '- { block: Q8_0, block_elements: 32, block_bytes: 34 }'),
                    ("dtypes: [F32, U8]", "dtypes: [F32, U8, Q8_0]")),
        "new": base(('revision_base: "git:0000"', 'revision_base: "git:0000"\nblock_dtypes:\n'
                     '- { block: Q8_0, block_elements: 32, block_bytes: 36 }'),
                    ("dtypes: [F32, U8]", "dtypes: [F32, U8, Q8_0]"))},
    # more dtypes than the vocabulary's twelve on a second input (block dtypes): Q4_0 added
    "dtype_added_block_second_input": {
        "old": sub(TWO, ('revision_base: "git:0000"', BLOCKS),
                   ("dtypes: [U32, I32, I64]", "dtypes: [" + ALL12 + ", Q8_0]")),
        "new": sub(TWO, ('revision_base: "git:0000"', BLOCKS),
                   ("dtypes: [U32, I32, I64]", "dtypes: [" + ALL12 + ", Q8_0, Q4_0]"))},
    # one declared (unused), one withdrawn (unused): informational, no binding changes
    "block_dtype_declared": {
        "old": base(('revision_base: "git:0000"', 'revision_base: "git:0000"\nblock_dtypes:\n'
                     '- { block: Q8_0, block_elements: 32, block_bytes: 34 }')),
        "new": base(('revision_base: "git:0000"', 'revision_base: "git:0000"\nblock_dtypes:\n'
                     '- { block: Q4_0, block_elements: 32, block_bytes: 18 }'))},
    "determinism_weakened": {"old": LOOSE, "new": sub(LOOSE, ("determinism: deterministic",
                                                              "determinism: nondeterministic"))},
    "determinism_strengthened": {"old": sub(LOOSE, ("determinism: deterministic",
                                                    "determinism: nondeterministic")), "new": LOOSE},
    "cost_changed": {"old": BASE, "new": base(('bytes_moved: "2 * n * dtype_bytes + len"',
                                               'bytes_moved: "2 * n * dtype_bytes + 2 * len"'),
                                              ("provenance: analytic", "provenance: judge_measured"))},
    "cost_removed": {"old": BASE, "new": base(("""cost:
provenance: analytic
class: cheap_elementwise
flops: "0"
bytes_moved: "2 * n * dtype_bytes + len"
""", ""))},
    # ---- metadata ----
    "revision_hash_changed": {
        "old": base(("kernel_revision_hash: auto", "kernel_revision_hash: " + "1" * 32)),
        "new": base(("kernel_revision_hash: auto", "kernel_revision_hash: " + "2" * 32))},
    "revision_base_changed": {"old": BASE, "new": base(('revision_base: "git:0000"',
                                                        'revision_base: "git:0001"'))},
    "provider_renamed": {"old": BASE, "new": base(("name: demo-kernels", "name: demo-kernels-2"))},
    "doc_changed": {"old": BASE, "new": base(('blurb: "copy a tensor"', 'blurb: "copy one tensor"'),
                                             ('note: "elements to copy"', 'note: "how many to copy"'))},
    # ---- no change ----
    # the same data written otherwise: nested, other key order, quotes, comments, spacing
    "no_change_rewritten": {"old": BASE, "new": base(
        ("kernel: copy\nop_kind: Copy", "op_kind: Copy # the op\nkernel: 'copy'"),
        ('bytes_moved: "2 * n * dtype_bytes + len"', 'bytes_moved: "(2*n)*dtype_bytes + (len)"'),
        ("max_relative: 0.0", "max_relative: 0"),
        ("""caps:
awkward_layout_strategy: requires_contiguous
in_place: false
alignment_bytes: 16
access_granularity_bits: 32
""", """caps:
  in_place: false
  access_granularity_bits: 32
  awkward_layout_strategy: "requires_contiguous"
  alignment_bytes: 16
"""))},
    # ---- two kernels, one report, in file order ----
    "two_kernels": {"old": BASE + K2,
                    "new": base(('blurb: "copy a tensor"', 'blurb: "copy the tensor"')) + K2.replace(
                        "rank: any", "rank: 4").replace("dtypes: [F32, U8]", "dtypes: [F32]")},
    # sibling kernels of one op kind whose names sort against their dtypes (zeta binds F32,
    # alpha I8; alpha becomes zulu, after zeta): each binding is paired by its whole key (the
    # bindings sorted by it, dtype included, not taken in the table's kernel order),
    # so the report is the kernel's rename, not a false "dtype removed" between siblings (issue
    # 26 item 8: every other case names siblings in dtype order)
    "siblings_against_dtypes": {
        "old": HEADER + SIB_ZETA + SIB_ALPHA,
        "new": HEADER + SIB_ZETA + SIB_ALPHA.replace("alpha", "zulu")},
    # ---- bad input ----
    "invalid_new_side": {"old": BASE, "new": base(("max_ulp: 0", "max_ulp: -1"))},
    # ---- JSON ----
    "json_dtype_removed": {"old": BASE, "new": base(("dtypes: [F32, U8]", "dtypes: [F32]")),
                           "args": "--json"},
    "json_no_change": {"old": BASE, "new": BASE, "args": "--json"},
    # ---- the allow file ----
    # each of two breaking changes allowed (a wildcard entry and an exact one): exit 0
    "allow_match": {
        "old": BASE, "new": base(("dtypes: [F32, U8]", "dtypes: [F32]"),
                                 ("demo::fkc::copy", "demo::fkc::copy2")),
        "allow": "# accepted breaks of this change\n"
                 "DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 U8 moves to "
                 "the byte kernels\n\n"
                 "ENTRY_POINT_RENAMED (Copy, [*, *], Vulkan) + vulkan-slang 2027-01-31 "
                 "symbols renamed with the library\n",
        "args": "--allow allow.txt --today 2027-01-31"},
    # an entry for one dtype of a change of two: the change splits, the rest still breaks
    "allow_partial": {
        "old": BASE, "new": base(("max_ulp: 0", "max_ulp: 1"), ("determinism: bitwise",
                                                                  "determinism: deterministic")),
        "allow": "PRECISION_LOOSENED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 U8 "
                 "callers tolerate 1 ulp\n",
        "args": "--allow allow.txt --today 2026-12-01"},
    "allow_expired": {
        "old": BASE, "new": base(("dtypes: [F32, U8]", "dtypes: [F32]")),
        "allow": "DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 U8 moves\n",
        "args": "--allow allow.txt --today 2027-02-01"},
    "allow_unmatched": {
        "old": BASE, "new": base(("dtypes: [F32, U8]", "dtypes: [F32]")),
        "allow": "DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 U8 moves\n"
                 "DTYPE_REMOVED (Copy, [I8, I8], Vulkan) + vulkan-slang 2027-01-31 no such binding\n"
                 "KERNEL_REMOVED (Copy, [*, *], Vulkan) + vulkan-slang 2027-01-31 wrong rule\n",
        "args": "--allow allow.txt --today 2027-01-01"},
    # every malformation at its line:col; a repeat two lines apart; nothing compared (exit 2)
    "allow_malformed": {
        "old": BASE, "new": base(("dtypes: [F32, U8]", "dtypes: [F32]")),
        "allow": "DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 fine\n"
                 "DTYPE_REMOVD (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 typo\n"
                 "DTYPE_ADDED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 not breaking\n"
                 "DTYPE_REMOVED (Copy, [U8, F32], Vulkan) + vulkan-slang 2027-01-31 two dtypes\n"
                 "DTYPE_REMOVED (Copy, [u8, u8], Vulkan) + vulkan-slang 2027-01-31 case\n"
                 "DTYPE_REMOVED (Copy, [U8, U8], Vulcan) + vulkan-slang 2027-01-31 backend\n"
                 "DTYPE_REMOVED (Copy, [U8, U8] Vulkan) + vulkan-slang 2027-01-31 comma\n"
                 "DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-02-30 no such day\n"
                 "DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31\n"
                 "  DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-03-01 repeat\n"
                 "dtype_removed (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 lower case\n",
        "args": "--allow allow.txt --today 2027-01-01"},
    # an allow file an editor saved with a UTF-8 BOM and CR LF line ends: read as without them
    # (issue 26 item 7: the BOM was read as part of the first entry's rule)
    "allow_bom": {
        "old": BASE, "new": base(("dtypes: [F32, U8]", "dtypes: [F32]")),
        "allow": "\ufeffDTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 U8 "
                 "moves\r\n# a comment\r\n",
        "args": "--allow allow.txt --today 2027-01-31"},
    "json_allow": {
        "old": BASE, "new": base(("dtypes: [F32, U8]", "dtypes: [F32]")),
        "allow": "DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang 2027-01-31 U8 moves\n"
                 "DTYPE_REMOVED (Copy, [I8, I8], Vulkan) + vulkan-slang 2027-01-31 stale\n",
        "args": "--json --allow allow.txt --today 2027-01-31"},
}


def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def write():
    for name, case in CASES.items():
        d = os.path.join(DIFF, name)
        for side in ("old", "new"):
            for stale in (side + ".md", side):
                p = os.path.join(d, stale)
                if os.path.isdir(p):
                    shutil.rmtree(p)
                elif os.path.exists(p):
                    os.remove(p)
            if isinstance(case[side], dict):
                for fn, text in case[side].items():
                    put(os.path.join(d, side, fn), text)
            else:
                put(os.path.join(d, side + ".md"), case[side])
        for extra in ("args", "allow"):
            p = os.path.join(d, "args" if extra == "args" else "allow.txt")
            if extra in case:
                put(p, case[extra] + ("\n" if extra == "args" else ""))
            elif os.path.exists(p):
                os.remove(p)


def operands(d):
    return [s if os.path.isdir(os.path.join(d, s)) else s + ".md" for s in ("old", "new")]


def expect():
    root = os.path.dirname(os.path.dirname(HERE))
    fkcgen = os.path.join(root, "build/fkcgen")
    for name in sorted(os.listdir(DIFF)):
        d = os.path.join(DIFF, name)
        if not os.path.isdir(d):
            continue
        args = []
        if os.path.exists(os.path.join(d, "args")):
            args = open(os.path.join(d, "args")).read().split()
        r = subprocess.run([fkcgen, "diff"] + args + operands(d), cwd=d, capture_output=True)
        with open(os.path.join(d, "expected"), "wb") as f:
            f.write(b"exit: %d\n--- stdout\n%s--- stderr\n%s" % (r.returncode, r.stdout, r.stderr))


if __name__ == "__main__":
    write() if "--expect" not in sys.argv else expect()
