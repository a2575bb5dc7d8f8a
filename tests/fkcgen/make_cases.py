#!/usr/bin/python3
"""make_cases.py — writes the malformed contracts of the golden corpus (tests/fkcgen/cases/*.md)
from one small valid contract, each with one defect. Run it once when adding a case, then
review and write the expected diagnostics with `make_cases.py --expect` (which runs
build/fkcgen) — every .expected file is read by a person before it is committed."""
import os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")

LEN = 'len: { kind: usize, note: "elements to copy" }'
BASE = """---
fkc_version: 1
provider:
name: demo-kernels
backend: Vulkan
kernel_source: "vulkan-slang"
link_registry: demo::fkc::ENTRY_POINTS
revision_base: "git:0000"
---
# demo — one small kernel
## copy
```fkc
kernel: copy
op_kind: Copy
blurb: "copy a tensor"
backend: Vulkan
kernel_source: "vulkan-slang"
entry_point: "demo::fkc::copy"
kernel_revision_hash: auto
accept:
inputs:
- name: src
dtypes: [F32, U8]
layout: { contiguous: required, strided: rejected }
rank: any
op_params:
variant: Copy
fields:
len: { kind: usize, note: "elements to copy" }
dst: { kind: "Vec<usize>", note: "destination extents" }
return:
outputs:
- name: out
dtype_rule: passthrough(src)
shape_rule: from_params(dst)
layout_guarantee: contiguous
aliasing: none
caps:
awkward_layout_strategy: requires_contiguous
in_place: false
alignment_bytes: 16
access_granularity_bits: 32
cost:
provenance: analytic
class: cheap_elementwise
flops: "0"
bytes_moved: "2 * n * dtype_bytes + len"
precision:
bit_stable_on_same_hardware: true
max_ulp: 0
max_relative: 0.0
max_absolute: 0.0
audited: true
determinism: bitwise
```
"""

SECOND = BASE[BASE.index("## copy"):].replace("## copy", "## copy2").replace(
    "kernel: copy", "kernel: copy2")


def sub(old, new, count=1):
    assert BASE.count(old) >= 1, old
    return BASE.replace(old, new, count)


CASES_TEXT = {
    # raw bytes and file structure
    "empty_file": "",
    "blank_file": "\n  \n\n",
    "missing_front_matter": BASE[BASE.index("# demo"):],
    "unterminated_front_matter": BASE.replace("---\n# demo", "# demo", 1),
    "unterminated_fence": BASE[:BASE.rindex("```")],
    "no_fkc_block": BASE.replace("```fkc", "```yaml"),
    "fence_info_upper_case": BASE.replace("```fkc", "```FKC"),
    "fence_info_braces": BASE.replace("```fkc", "```{fkc}"),
    "fence_in_html_block": sub("```fkc\n", "<div>\n```fkc\nkernel: other\n```\n</div>\n\n```fkc\n"),
    "fence_in_indented_code": sub("```fkc\n", "    ```fkc\n    kernel: other\n    ```\n\n```fkc\n"),
    # a bare ``` line (after a paragraph line ending in ```, an inline code span opener) opens
    # a code block that swallows the next ```fkc block: refused at its line, not lost
    "fence_swallowed_by_code_block": BASE + "Some text: ```\nx\n```\n" + SECOND,
    "fence_swallowed_by_unclosed_block": BASE + "```\n" + SECOND,
    # a longer fence or another fence char quotes an example on purpose: read as prose; the
    # one defect is reported
    "fence_quoted_in_longer_fence": sub("## copy\n", "````markdown\n```fkc\nkernel: x\n```\n"
                                        "````\n~~~\n```fkc\nkernel: y\n```\n~~~\n## copy\n"
                                        ).replace("rank: any", "rank: many", 1),
    "second_front_matter": sub("# demo", "---\nfkc_version: 2\n---\n# demo"),
    # fine breaks, a kernel hidden in an HTML comment and one defect (every case is malformed):
    # only the defect is reported
    "thematic_breaks_in_prose": sub("## copy\n", "---\n\nProse.\n---\n## copy\n<!--\n```fkc\n"
                                    "kernel: hidden\n```\n-->\n").replace(
        "rank: any", "rank: many", 1),
    "fence_in_list": sub("```fkc\n", "- item\n\n  ```fkc\n  kernel: other\n  ```\n\n```fkc\n"),
    "empty_fkc_block": sub("## copy\n", "## empty\n```fkc\n```\n## copy\n"),
    "nul_byte": sub("copy a tensor", "copy a\0tensor"),
    "invalid_utf8": sub("copy a tensor", "copy a \udcff tensor"),
    "overlong_utf8": sub("copy a tensor", "copy a \udcc0\udcaf tensor"),
    "lone_cr": sub("rank: any\n", "rank: any\rshape_constraint: x\n"),
    # control characters and non-characters: at their own line:col (libyaml gave the block's)
    "control_char_del": sub("copy a tensor", "copy a\x7ftensor"),
    "control_char_vt": sub("rank: any", "rank: any\x0b"),
    "control_char_esc_in_prose": sub("# demo — one", "# demo \x1b[31m— one"),
    "control_char_c1": sub("copy a tensor", "copy a\u0085tensor"),
    "noncharacter_fffe": sub("copy a tensor", "copy a \ufffe tensor"),
    "noncharacter_fdd0": sub("# demo — one", "# demo — \ufdd0one"),
    "tab_in_yaml": sub("rank: any", "rank:\tany"),
    # YAML
    "escape_in_message": sub("rank: any", 'rank: any\n"\\e[31mRED\\e[0m\\rX\\t\\u0085\\x7f": 1'),
    "yaml_syntax_error": sub("dtypes: [F32, U8]", "dtypes: [F32, U8"),
    # structure errors after a change of indentation say so (the YAML is flat)
    "yaml_indented_key": sub("rank: any\n", "rank: any\n  shape_constraint: x\n"),
    "yaml_indented_mapping": sub("caps:\nawkward_layout_strategy: requires_contiguous\n"
                                 "in_place: false\n", "caps:\n  awkward_layout_strategy: "
                                 "requires_contiguous\n in_place: false\n"),
    "yaml_indented_sequence": sub("inputs:\n- name: src\ndtypes: [F32, U8]\n",
                                  "inputs:\n  - name: src\n  dtypes: [F32, U8]\n"),
    "yaml_anchor": sub("dtypes: [F32, U8]", "dtypes: &lol [F32, U8]"),
    "yaml_alias": sub('blurb: "copy a tensor"', "blurb: *lol"),
    "yaml_tag": sub('blurb: "copy a tensor"', 'blurb: !!str "copy a tensor"'),
    "yaml_too_deep": sub('blurb: "copy a tensor"', "blurb: " + "[" * 20 + "x" + "]" * 20),
    "yaml_two_documents": sub("determinism: bitwise\n", "determinism: bitwise\n---\nkernel: x\n"),
    "yaml_not_a_mapping": sub("```fkc\nkernel: copy", "```fkc\n- kernel\n```\n```fkc\nkernel: copy"),
    "yaml_complex_key": sub("rank: any", "[rank]: any"),
    # keys and types
    "key_in_wrong_mapping": sub("caps:\nawkward_layout_strategy", "caps:\ndtypes: [F32]\n"
                                "awkward_layout_strategy"),
    "missing_several_keys": sub("caps:\nawkward_layout_strategy: requires_contiguous\n"
                                "in_place: false\n", "caps:\n"),
    "front_matter_unknown_key": sub("revision_base: \"git:0000\"\n",
                                    "revision_base: \"git:0000\"\nversion: 3\n"),
    "front_matter_missing_provider": sub("provider:\nname: demo-kernels\nbackend: Vulkan\n"
                                         "kernel_source: \"vulkan-slang\"\n"
                                         "link_registry: demo::fkc::ENTRY_POINTS\n"
                                         "revision_base: \"git:0000\"\n", ""),
    "field_block_style_missing_kind": sub('len: { kind: usize, note: "elements to copy" }',
                                          'len:\nnote: "elements to copy"'),
    "field_missing_kind": sub('len: { kind: usize, note: "elements to copy" }',
                              'len: { note: "elements to copy" }'),
    "nested_form_error": sub("caps:\nawkward_layout_strategy: requires_contiguous\n"
                             "in_place: false\nalignment_bytes: 16\n"
                             "access_granularity_bits: 32\n",
                             "caps:\n  awkward_layout_strategy: requires_contiguous\n"
                             "  in_place: false\n  alignment_bytes: 16\n"
                             "  access_granularity_bit: 32\n"),
    "unknown_key_suggestion": sub("dtypes: [F32, U8]", "dtype: [F32, U8]"),
    "unknown_key_list": sub("determinism: bitwise", "determinism: bitwise\ncolour: red"),
    "duplicate_key": sub("kernel: copy\n", "kernel: copy\nkernel: copy_again\n"),
    "missing_required": sub("rank: any\n", "").replace("determinism: bitwise\n", ""),
    "wrong_type_mapping": sub("caps:\nawkward_layout_strategy: requires_contiguous\n"
                              "in_place: false\nalignment_bytes: 16\n"
                              "access_granularity_bits: 32\n", "caps: 5\n"),
    "empty_value": sub('blurb: "copy a tensor"', "blurb:"),
    "seq_of_scalars": sub("inputs:\n- name: src\ndtypes: [F32, U8]\n"
                          "layout: { contiguous: required, strided: rejected }\nrank: any\n",
                          "inputs: [src]\n"),
    "enum_suggestion": sub("backend: Vulkan\nkernel_source: \"vulkan-slang\"\nentry_point",
                           "backend: Vulkn\nkernel_source: \"vulkan-slang\"\nentry_point"),
    # another case of a value or key is what was meant, though another is closer in spelling
    "enum_case_only": sub("dtypes: [F32, U8]", "dtypes: [bf16, U8]").replace(
        "determinism: bitwise", "determinism: Bitwise"),
    "key_case_only": sub("rank: any", "Rank: any"),
    # a section reports every independent error in one run; none that follows from another
    # (bytes_moved names a field of accept, which has an error: not checked)
    "independent_errors": sub("op_kind: Copy", "op_kind: copy_op").replace(
        "in_place: false", "in_place: yes").replace("rank: any", "rank: many").replace(
        '"2 * n * dtype_bytes + len"', "'2 * dst'").replace("max_ulp: 0", "max_ulp: 2"),
    "enum_no_suggestion": sub("determinism: bitwise", "determinism: sometimes"),
    "enum_utf8_column": sub("in_place: false", 'fast_paths: [{ when: "é", class: chaep_elementwise }]\n'
                            "in_place: false"),
    "empty_dtypes": sub("dtypes: [F32, U8]", "dtypes: []"),
    "repeated_dtype": sub("dtypes: [F32, U8]", "dtypes: [F32, U8, F32]"),
    "negative_size": sub("alignment_bytes: 16", "alignment_bytes: -16"),
    # -0.0 compares equal to 0: refused by its sign, in both bounds, under a non-bitwise
    # determinism (issue 26 item 8: only the '-' test refuses it, and no case had it)
    # a rank of one or two characters that is no number (the length test alone let "x" pass)
    "rank_short_not_a_number": sub("rank: any", "rank: x"),
    "negative_zero_precision": sub("max_relative: 0.0", "max_relative: -0.0").replace(
        "max_absolute: 0.0", "max_absolute: -0").replace("determinism: bitwise",
                                                         "determinism: deterministic"),
    "quoted_number": sub("max_ulp: 0", 'max_ulp: "0"'),
    "bad_bool": sub("in_place: false", "in_place: yes"),
    "bad_rank": sub("rank: any", "rank: many"),
    "bad_float": sub("max_absolute: 0.0", "max_absolute: tiny"),
    # any double strtod returns finite is a value (a subnormal too); one that overflows is not
    "float_out_of_range": sub("max_absolute: 0.0", "max_absolute: 4.9e-324").replace(
        "max_relative: 0.0", "max_relative: 1e400"),
    "alignment_not_power_of_two": sub("alignment_bytes: 16", "alignment_bytes: 24"),
    "bad_hash": sub("kernel_revision_hash: auto", "kernel_revision_hash: 1234"),
    # identifiers
    "kernel_not_identifier": sub("kernel: copy", 'kernel: "copy-fast"'),
    "kernel_is_c_keyword": sub("kernel: copy", "kernel: while"),
    "op_kind_not_camel": sub("op_kind: Copy", "op_kind: copy_op"),
    "bad_entry_point": sub('entry_point: "demo::fkc::copy"', 'entry_point: "demo::fkc::9copy"'),
    "bad_link_registry": sub("link_registry: demo::fkc::ENTRY_POINTS",
                             "link_registry: demo:fkc"),
    "field_not_mapping": sub('len: { kind: usize, note: "elements to copy" }', "len: usize"),
    "field_bad_kind": sub('len: { kind: usize, note: "elements to copy" }',
                          'len: { kind: size_t, note: "elements to copy" }'),
    "field_name_not_identifier": sub('len: { kind: usize, note: "elements to copy" }',
                                     '2len: { kind: usize }'),
    "field_named_n": sub('len: { kind: usize, note: "elements to copy" }',
                         'n: { kind: usize, note: "elements to copy" }').replace("+ len", "+ n"),
    "field_named_contract_key": sub("fields:\nlen: { kind: usize, note: \"elements to copy\" }\n"
                                    "dst: { kind: \"Vec<usize>\", note: \"destination extents\" }\n",
                                    "fields:\n  len: { kind: usize }\n  dst: { kind: \"Vec<usize>\" }\n"
                                    "  return: { kind: usize }\n"),
    "duplicate_input": sub("inputs:\n- name: src\n", "inputs:\n- { name: src, dtypes: [F32], "
                           "layout: { strided: rejected }, rank: 2 }\n- name: src\n"),
    # the contracts' own rules
    "unknown_fkc_version": sub("fkc_version: 1", "fkc_version: 2"),
    "backend_mismatch": sub("backend: Vulkan\nkernel_source: \"vulkan-slang\"\nentry_point",
                            "backend: Cuda\nkernel_source: \"cuda-ptx\"\nentry_point"),
    "bitwise_needs_exact": sub("max_ulp: 0", "max_ulp: 2").replace("max_relative: 0.0",
                                                                   "max_relative: 0.5"),
    "contiguous_needs_strided_rejected": sub("strided: rejected", "strided: accepted"),
    "passthrough_not_an_input": sub("passthrough(src)", "passthrough(dst)"),
    "from_params_not_a_field": sub("from_params(dst)", "from_params(shape)"),
    "rule_malformed": sub("passthrough(src)", "passthrough src"),
    "rule_unknown_function": sub("passthrough(src)", "passthru(src)"),
    "expr_unknown_name": sub('bytes_moved: "2 * n * dtype_bytes + len"',
                             'bytes_moved: "2 * n * dtype_byte + len"'),
    "expr_unclosed_paren": sub('bytes_moved: "2 * n * dtype_bytes + len"',
                               'bytes_moved: "2 * (n * dtype_bytes + len"'),
    "expr_trailing_operator": sub('flops: "0"', "flops: n +"),
    "expr_vec_field": sub('bytes_moved: "2 * n * dtype_bytes + len"',
                          "bytes_moved: '2 * dst'"),
    "expr_bad_character": sub('flops: "0"', 'flops: "n ^ 2"'),
    # 65 operators: one past FKCG_MAX_EXPR_OPS (64 still pass); chains of 100,000 terms
    # overflowed the stack of the recursive printers, 300 gave C that clang refuses
    "expr_too_many_operators": sub('flops: "0"', 'flops: "n' + ' + n' * 65 + '"'),
    "expr_long_chain": sub('flops: "0"', 'flops: "(' + '*'.join(['len'] * 150) + ') + ' +
                           '+'.join(['n'] * 150) + '"'),
    # names the generated C could not hold: what `gen` refused while `check` passed
    "op_kind_c_keyword": sub("op_kind: Copy", "op_kind: Int"),
    "op_kind_kind_count": sub("op_kind: Copy", "op_kind: KindCount"),
    "op_kind_generated_type": sub("op_kind: Copy", "op_kind: Cost"),
    # fkc_kernel_fn: the one function pointer type of every binding row (fkc_tables.h)
    "op_kind_generated_type_kernel": sub("op_kind: Copy", "op_kind: Kernel"),
    "field_named_macro": sub('len: { kind: usize, note: "elements to copy" }',
                             'NULL: { kind: usize }\nSIZE_MAX: { kind: usize }\nNAN: { kind: u32 }'
                             ).replace("+ len", "+ n"),
    # names of the C standard headers and of GNU mode: a file including those first breaks
    "field_named_std_macro": sub('len: { kind: usize, note: "elements to copy" }',
                                 "".join("%s: { kind: usize }\n" % n for n in (
                                     "EOF", "BUFSIZ", "RAND_MAX", "CHAR_BIT", "FLT_MAX", "I",
                                     "complex", "and", "or", "not", "noreturn", "EINVAL",
                                     "linux", "unix", "FILE", "jmp_buf", "LC_ALL", "sin"))
                                 ).replace("+ len", "+ n"),
    "op_kind_gnu_macro": sub("op_kind: Copy", "op_kind: Linux"),
    "input_named_std_macro": sub("- name: src", "- name: stdin").replace("(src)", "(stdin)"),
    "output_named_typedef": sub("- name: out", "- name: fkc_tensor"),
    "input_named_typedef": sub("- name: src", "- name: size_t").replace("passthrough(src)",
                                                                        "passthrough(size_t)"),
    "kernel_leading_underscore": sub("kernel: copy", "kernel: _copy"),
    # the runtime's kernel (fkc/fkc_kernels.h) bound to another op kind: its wrappers would be
    # the runtime's, for another signature
    "runtime_kernel_other_op_kind": sub("kernel: copy", "kernel: write_slice"),
    "tensor_named_stream": sub("- name: out", "- name: params"),
    "output_named_like_input": sub("- name: out", "- name: src"),
    "field_len_clash": sub('len: { kind: usize, note: "elements to copy" }',
                           'dst_len: { kind: usize }').replace("+ len", "+ dst_len"),
    # a long line is quoted in a window around the caret, "..." at the cuts, UTF-8 kept whole
    "long_line_utf8": sub("dtypes: [F32, U8]", 'dtypes: [F32, U8, "' + "\u00e9" * 150 + '", BAD1,'
                          + " " * 300 + 'BAD2, "' + "\u00fc" * 100 + '", BAD3]  # ' + "\u00f6" * 200),
    "text_too_long": sub('blurb: "copy a tensor"', 'blurb: "' + "x" * 4001 + '"'),
    "duplicate_entry_point": BASE + SECOND.replace("op_kind: Copy", "op_kind: CopyTwo"),
    "op_kind_signature_mismatch": BASE + SECOND.replace("dtypes: [F32, U8]", "dtypes: [I8]"
        ).replace("demo::fkc::copy", "demo::fkc::copy2").replace("- name: out", "- name: dst2"),
    "op_kind_c_name_clash": sub("op_kind: Copy", "op_kind: GeluTanh") + SECOND.replace(
        "op_kind: Copy", "op_kind: GELUTanh").replace("demo::fkc::copy", "demo::fkc::copy2"),
    "duplicate_binding_key": BASE + SECOND.replace("dtypes: [F32, U8]", "dtypes: [I8, U8]"),
    "too_many_entries": sub('dst: { kind: "Vec<usize>", note: "destination extents" }\n',
                            'dst: { kind: "Vec<usize>", note: "destination extents" }\n' +
                            "".join("f%04d: { kind: usize }\n" % i for i in range(1030))),
    "too_many_errors": sub("determinism: bitwise\n", "determinism: bitwise\n" +
                           "".join("bogus_%02d: 1\n" % i for i in range(55))),
}

# A section of an op kind the fkc runtime implements (fkc/fkc_kernels.h), here bound to the
# contract's own kernel: the generated code takes the runtime's params struct and kernel type
# for it, so its op_params are the runtime's, field for field (names.c: runtime_kernels).
RUNTIME_OP = sub("op_kind: Copy", "op_kind: WriteSliceRotating").replace(
    "variant: Copy", "variant: WriteSliceRotating").replace(
    'len: { kind: usize, note: "elements to copy" }\ndst: { kind: "Vec<usize>", note: '
    '"destination extents" }', 'dst_shape: { kind: "Vec<usize>" }\ncapacity: { kind: usize }'
    ).replace("from_params(dst)", "from_params(dst_shape)").replace(" + len", " + capacity")
assert RUNTIME_OP.count("capacity") == 2


def rt_sub(old, new):
    assert RUNTIME_OP.count(old) == 1, old
    return RUNTIME_OP.replace(old, new)


RUNTIME_CASES = {
    # each way the fields can differ from the runtime's, reported at the contract's field with
    # what the runtime has there (the C would otherwise fail inside fkc_bindings.c)
    "runtime_field_renamed": rt_sub("capacity: { kind: usize }", "capacty: { kind: usize }"
                                    ).replace(" + capacity", " + capacty"),
    "runtime_field_kind": rt_sub("capacity: { kind: usize }", "capacity: { kind: u32 }"),
    "runtime_field_vec_kind": rt_sub('dst_shape: { kind: "Vec<usize>" }',
                                     'dst_shape: { kind: "Vec<i64>" }'),
    "runtime_field_order": rt_sub('dst_shape: { kind: "Vec<usize>" }\ncapacity: { kind: usize }',
                                  'capacity: { kind: usize }\ndst_shape: { kind: "Vec<usize>" }'),
    "runtime_field_missing": rt_sub("capacity: { kind: usize }\n", "").replace(" + capacity", ""),
    "runtime_field_missing_first": rt_sub('dst_shape: { kind: "Vec<usize>" }\n', "").replace(
        "from_params(dst_shape)", "from_params(capacity)"),
    "runtime_field_extra": rt_sub("capacity: { kind: usize }",
                                  "capacity: { kind: usize }\nstride: { kind: usize }"),
    "runtime_field_extra_between": rt_sub("capacity: { kind: usize }",
                                          "stride: { kind: usize }\ncapacity: { kind: usize }"),
    "runtime_no_op_params": rt_sub('op_params:\nvariant: WriteSliceRotating\nfields:\n'
                                   'dst_shape: { kind: "Vec<usize>" }\ncapacity: { kind: usize }\n',
                                   "").replace("from_params(dst_shape)", "same_as(src)").replace(
                                       " + capacity", ""),
    # the runtime's kernel type takes one input and one output
    # (a list's items but the last are flow mappings: the flattened form closes a block item)
    # an error inside accept of a runtime op's section: reported alone, the runtime's fields not
    # checked against op_params that were never built (issue 26's mutation sample of validate.c)
    "runtime_op_accept_error": rt_sub("rank: any", "rank: many"),
    "runtime_op_two_inputs": rt_sub("- name: src\n", "- { name: pos, dtypes: [U8], layout: "
                                    "{ contiguous: required, strided: rejected }, rank: any }\n"
                                    "- name: src\n"),
    "runtime_op_two_outputs": rt_sub("- name: out\n", "- { name: out2, dtype_rule: "
                                     "passthrough(src), shape_rule: same_as(src), "
                                     "layout_guarantee: contiguous, aliasing: none }\n"
                                     "- name: out\n"),
}
CASES_TEXT.update(RUNTIME_CASES)

# issue 22: keys over every tensor, dtype tables, output dtype rules, block dtypes
BLOCK = 'revision_base: "git:0000"\nblock_dtypes:\n'
CASES_TEXT.update({
    "key_unknown_tensor": sub("determinism: bitwise", "determinism: bitwise\nkey: [src, outt]"),
    "key_tensor_twice": sub("determinism: bitwise", "determinism: bitwise\nkey: [src, src]"),
    "fanout_unknown": sub("determinism: bitwise", "determinism: bitwise\nfanout: dtype"),
    "dtype_table_row_not_allowed": sub("determinism: bitwise",
                                       "determinism: bitwise\ndtype_table:\n- [F32, F32]\n- [F32, U8]"),
    "dtype_table_row_length": sub("determinism: bitwise",
                                  "determinism: bitwise\ndtype_table:\n- [F32]\n- [U8, U8]"),
    "dtype_table_row_twice": sub("determinism: bitwise",
                                 "determinism: bitwise\ndtype_table:\n- [U8, U8]\n- [U8, U8]"),
    "dtype_table_unknown_dtype": sub("determinism: bitwise",
                                     "determinism: bitwise\ndtype_table:\n- [F32, F23]"),
    "exclude_row_not_in_product": sub("determinism: bitwise",
                                      "determinism: bitwise\nexclude:\n- [F32, U8]"),
    "exclude_beside_dtype_table": sub("determinism: bitwise",
                                      "determinism: bitwise\ndtype_table:\n- [U8, U8]\n"
                                      "exclude:\n- [F32, F32]"),
    "exclude_everything": sub("determinism: bitwise",
                              "determinism: bitwise\nexclude:\n- [F32, F32]\n- [U8, U8]"),
    "same_dtype_as_unknown": sub("rank: any\n", "rank: any\nsame_dtype_as: dts\n"),
    "same_dtype_as_not_earlier": sub("rank: any\n", "rank: any\nsame_dtype_as: out\n"),
    "dtype_rule_fixed_unknown_dtype": sub("dtype_rule: passthrough(src)", "dtype_rule: fixed(F23)"),
    "dtype_rule_param_no_dtypes": sub(LEN, LEN + "\nto: { kind: dtype }").replace(
        "dtype_rule: passthrough(src)", "dtype_rule: param(to)"),
    "dtype_rule_param_not_field": sub("dtype_rule: passthrough(src)",
                                      "dtype_rule: param(lenn)\ndtypes: [F32]"),
    "dtype_rule_unknown": sub("dtype_rule: passthrough(src)", "dtype_rule: fixd(F32)"),
    "output_dtypes_without_param": sub("dtype_rule: passthrough(src)",
                                       "dtype_rule: passthrough(src)\ndtypes: [F16]"),
    "block_dtype_lower_case": sub('revision_base: "git:0000"', BLOCK +
                                  '- { block: q4_0, block_elements: 32, block_bytes: 18 }'),
    "block_dtype_zero_elements": sub('revision_base: "git:0000"', BLOCK +
                                     '- { block: Q4_0, block_elements: 0, block_bytes: 18 }'),
    "block_dtype_is_vocabulary": sub('revision_base: "git:0000"', BLOCK +
                                     '- { block: F16, block_elements: 1, block_bytes: 2 }'),
    "block_dtype_twice": sub('revision_base: "git:0000"', BLOCK +
                             '- { block: Q8_0, block_elements: 32, block_bytes: 34 }\n'
                             '- { block: Q8_0, block_elements: 32, block_bytes: 34 }'),
    "block_dtype_misspelt_in_list": sub('revision_base: "git:0000"', BLOCK +
                                        '- { block: Q4_0, block_elements: 32, block_bytes: 18 }'
                                        ).replace("dtypes: [F32, U8]", "dtypes: [F32, Q4_1]"),
    "cpu_reference_not_ident": sub("determinism: bitwise", 'determinism: bitwise\ncpu_reference: "demo::ref"'),
    "precision_reference_unknown": sub("audited: true", 'audited: true\nreference: "correctly_rounde"'),
    "precision_reference_bad_path": sub("audited: true", 'audited: true\nreference: "implementation:9x"'),
    # max_ulp a non-negative number (issue 22 item 5): a fraction is exact to 9 decimals and
    # must still round up within a uint64; a misspelt key is named with its suggestion
    "ulp_too_many_decimals": sub("max_ulp: 0", "max_ulp: 2.0000000001").replace(
        "determinism: bitwise", "determinism: deterministic"),
    "ulp_fraction_past_max": sub("max_ulp: 0", "max_ulp: 18446744073709551615.5").replace(
        "determinism: bitwise", "determinism: deterministic"),
    "ulp_bad_form": sub("max_ulp: 0", "max_ulp: 2.5e0").replace(
        "determinism: bitwise", "determinism: deterministic"),
    "ulp_misspelt_key": sub("max_ulp: 0", "max_ulps: 2.5").replace(
        "determinism: bitwise", "determinism: deterministic"),
    # a fraction under bitwise is still not exact
    "ulp_fraction_not_bitwise": sub("max_ulp: 0", "max_ulp: 0.5"),
    # two unrelated errors of the new keys in one section: both reported
    "key_and_fanout_errors": sub("determinism: bitwise",
                                 "determinism: bitwise\nkey: [src, outt]\nfanout: dtype"),
    # typed op params (issue 22 item 3): enum values, dtype-valued fields, typed defaults
    "field_enum_no_values": sub(LEN, LEN + "\nmode: { kind: enum }"),
    "field_kind_misspelt": sub(LEN, LEN + "\nmode: { kind: enun, values: [a, b] }"),
    "field_values_not_enum": sub(LEN, LEN + "\nmode: { kind: u32, values: [a, b] }"),
    "field_enum_values_collide": sub(LEN, LEN + "\nop: { kind: enum, values: [swiglu, swi_glu] }"),
    "field_enum_value_not_ident": sub(LEN, LEN + "\nop: { kind: enum, values: [reglu, 2x] }"),
    "field_enum_default_misspelt": sub(LEN, LEN +
                                       "\norder: { kind: enum, values: [asc, desc], default: descc }"),
    "field_enum_default_unknown": sub(LEN, LEN +
                                      "\norder: { kind: enum, values: [asc, desc], default: sideways }"),
    "field_enum_code_twice": sub(LEN, LEN + "\nmode: { kind: enum, values: { normal: 0, neox: 2, mrope: 02 } }"),
    "field_enum_code_past_i32": sub(LEN, LEN + "\nmode: { kind: enum, values: { normal: 0, neox: 2147483648 } }"),
    "field_enum_code_not_int": sub(LEN, LEN + "\nmode: { kind: enum, values: { normal: 0, neox: two } }"),
    "field_enum_codes_names_collide": sub(LEN, LEN + "\nmode: { kind: enum, values: { neox: 0, NEOX: 1 } }"),
    "field_enum_named_params": sub(LEN, LEN + "\nparams: { kind: enum, values: [a, b] }"),
    "field_default_u64_past_max": sub(LEN, LEN + "\ncount: { kind: u64, default: 18446744073709551616 }"),
    "field_default_i64_past_min": sub(LEN, LEN + "\ncount: { kind: i64, default: -9223372036854775809 }"),
    "field_default_i64_past_max": sub(LEN, LEN + "\ncount: { kind: i64, default: 9223372036854775808 }"),
    "field_default_u32_negative": sub(LEN, LEN + "\ncount: { kind: u32, default: -1 }"),
    "field_default_i32_past_max": sub(LEN, LEN + "\ncount: { kind: i32, default: 2147483648 }"),
    "field_default_quoted_int": sub(LEN, LEN + '\ncount: { kind: u32, default: "7" }'),
    "field_default_f32_out_of_range": sub(LEN, LEN + "\nx: { kind: f32, default: 1e39 }"),
    "field_default_bool_bad": sub(LEN, LEN + "\nkeep: { kind: bool, default: yes }"),
    "field_default_vec": sub('dst: { kind: "Vec<usize>", note: "destination extents" }',
                             'dst: { kind: "Vec<usize>", default: 0, note: "destination extents" }'),
    "field_default_dtype_misspelt": sub(LEN, LEN + "\nto: { kind: dtype, default: F32x }"),
    "field_default_misspelt_key": sub(LEN, LEN + "\ncount: { kind: u32, defualt: 1 }"),
    "dtype_rule_param_not_dtype": sub("dtype_rule: passthrough(src)",
                                      "dtype_rule: param(len)\ndtypes: [F32]"),
    "dtype_rule_param_default_not_listed": sub(LEN, LEN + "\nto: { kind: dtype, default: F64 }").replace(
        "dtype_rule: passthrough(src)", "dtype_rule: param(to)\ndtypes: [F32, U8]"),
    # two unrelated errors of the typed fields in one section: both reported
    "field_typing_two_errors": sub(LEN, LEN + "\norder: { kind: enum, values: [asc, desc], default: ascc }"
                                   "\ncount: { kind: u64, default: 18446744073709551616 }"),
})
SRC2 = ("inputs:\n- { name: src2, dtypes: %s, layout: { contiguous: required, strided: rejected }, "
        "rank: any }\n")
KEY3 = "determinism: bitwise\nkey: [src, src2, out]"
# Two unrelated errors in one input, across the checks that run in sequence (schema: shape and
# validate; the runtime's fields; cross-section: bind): both must be reported (test_corpus.c
# also counts at least two "error:" lines in each two_errors_* expectation). Issue 26 item 3: a
# section with an error of its own that also redefines a kernel reported only the first.
RT_SECTION = RUNTIME_OP[RUNTIME_OP.index("## copy"):]
RING = RT_SECTION.replace("## copy", "## ring").replace("kernel: copy", "kernel: ring").replace(
    "demo::fkc::copy", "demo::fkc::ring")


def sec_sub(text, *pairs):
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return text


COPY3 = sec_sub(SECOND, ("## copy2", "## copy3"), ("kernel: copy2", "kernel: copy3"),
                ("op_kind: Copy", "op_kind: CopyThree"), ("variant: Copy", "variant: CopyThree"),
                ("demo::fkc::copy", "demo::fkc::copy3"))
TWO_ERROR_CASES = {
    # the case: a runtime op's fields mismatched, in a section redefining a kernel
    "two_errors_duplicate_kernel_and_runtime_field": BASE + sec_sub(
        RT_SECTION, ("## copy", "## copy again"), ("capacity: { kind: usize }",
                                                   "capacty: { kind: usize }"),
        (" + capacity", " + capacty")),
    # a schema error (an enum) in a section redefining a kernel
    "two_errors_bad_enum_and_duplicate_kernel": BASE + sec_sub(
        SECOND, ("kernel: copy2", "kernel: copy"), ("op_kind: Copy", "op_kind: CopyTwo"),
        ("variant: Copy", "variant: CopyTwo"), ("demo::fkc::copy", "demo::fkc::copy2"),
        ("determinism: bitwise", "determinism: bitwis")),
    # a schema error (an unknown key) in one section, a runtime field's kind in another
    "two_errors_unknown_key_and_runtime_field": sub("in_place: false", "in_plac: false") +
    sec_sub(RING, ("capacity: { kind: usize }", "capacity: { kind: u32 }")),
    # a duplicate binding key between two valid sections, a type error in a third
    "two_errors_duplicate_binding_and_bad_type": BASE + sec_sub(
        SECOND, ("demo::fkc::copy", "demo::fkc::copy2")) + sec_sub(
        COPY3, ("alignment_bytes: 16", "alignment_bytes: sixteen")),
    # one op kind with two signatures (cross-section), a runtime field missing in another section
    "two_errors_op_signature_and_runtime_field": BASE + sec_sub(
        SECOND, ("demo::fkc::copy", "demo::fkc::copy2"), ("dtypes: [F32, U8]", "dtypes: [I32]"),
        ("len: { kind: usize,", "len: { kind: u64,")) + sec_sub(
        RING, ("capacity: { kind: usize }\n", ""), (" + capacity", "")),
    # a duplicate symbol (a shared entry point and dtype), a cost expression's error elsewhere
    "two_errors_duplicate_symbol_and_cost": BASE + sec_sub(
        SECOND, ("op_kind: Copy", "op_kind: CopyTwo"), ("variant: Copy", "variant: CopyTwo"),
        ("dtypes: [F32, U8]", "dtypes: [U8]")) + sec_sub(COPY3, ('flops: "0"', 'flops: "n +"')),
    # the front matter's version and a section's rank
    "two_errors_front_matter_and_section": sub("fkc_version: 1", "fkc_version: 2").replace(
        "rank: any", "rank: many"),
}
CASES_TEXT.update(TWO_ERROR_CASES)

# Two sections sharing an entry point and a dtype, with a third section whose op kind sorts
# between theirs (Alpha, Beta, Gamma): the symbol check must sort by entry point itself, not
# meet only neighbours in the table's (op kind) order (issue 26 item 8: with its sort removed,
# check exited 0).
def op_section(kernel, op, entry):
    return sec_sub(SECOND, ("## copy2", "## " + kernel), ("kernel: copy2", "kernel: " + kernel),
                   ("op_kind: Copy", "op_kind: " + op), ("variant: Copy", "variant: " + op),
                   ('entry_point: "demo::fkc::copy"', 'entry_point: "demo::fkc::%s"' % entry))


CASES_TEXT["duplicate_symbol_op_kind_between"] = (
    BASE[:BASE.index("## copy")] + op_section("gamma", "Gamma", "shared") +
    op_section("beta", "Beta", "other") + op_section("alpha", "Alpha", "shared"))

# Multi-file cases: a directory whose *.md files are read in one run.
DIR_CASES = {
    "duplicate_kernel_across_files": {"a.md": BASE, "b.md": BASE.replace(
        "dtypes: [F32, U8]", "dtypes: [I32]").replace("op_kind: Copy", "op_kind: CopyInt")},
    # bind's messages quote lines of files already dropped, read again (BOM and CR removed)
    "duplicate_entry_point_crlf": {
        "a.md": "\ufeff" + BASE.replace("\n", "\r\n"),
        "b.md": BASE[:BASE.index("## copy")] + SECOND.replace("op_kind: Copy", "op_kind: CopyTwo")},
    # a third definition is noted against the first (it was noted against the second)
    "duplicate_kernel_three_files": {"a.md": BASE, "b.md": BASE.replace(
        "dtypes: [F32, U8]", "dtypes: [I32]").replace("op_kind: Copy", "op_kind: CopyInt"),
        "c.md": BASE.replace("dtypes: [F32, U8]", "dtypes: [I8]").replace(
            "op_kind: Copy", "op_kind: CopyByte")},
    # issue 22: a three-slot key bound twice; one block dtype name with two geometries
    "duplicate_three_slot_key": {
        "a.md": sub("determinism: bitwise", KEY3).replace("inputs:\n", SRC2 % "[I32, I64]", 1),
        "b.md": sub("determinism: bitwise", KEY3).replace("inputs:\n", SRC2 % "[I64]", 1).replace(
            "kernel: copy", "kernel: copy_b").replace("demo::fkc::copy", "demo::fkc::copy_b")},
    "block_dtype_two_geometries": {
        "a.md": sub('revision_base: "git:0000"', BLOCK +
                    '- { block: Q4_0, block_elements: 32, block_bytes: 18 }').replace(
            "dtypes: [F32, U8]", "dtypes: [Q4_0]"),
        "b.md": sub('revision_base: "git:0000"', BLOCK +
                    '- { block: Q4_0, block_elements: 32, block_bytes: 20 }').replace(
            "dtypes: [F32, U8]", "dtypes: [Q4_0]").replace("kernel: copy", "kernel: copy_b").replace(
            "demo::fkc::copy", "demo::fkc::copy_b").replace("op_kind: Copy", "op_kind: CopyB")},
    # two files: a schema error in one, and its other section a duplicate kernel of the other's
    "two_errors_across_files": {"a.md": BASE, "b.md": BASE[:BASE.index("## copy")] + sec_sub(
        SECOND, ("determinism: bitwise", "determinism: sometimes")) + sec_sub(
        SECOND, ("## copy2", "## copy again"), ("kernel: copy2", "kernel: copy"),
        ("op_kind: Copy", "op_kind: CopyAgain"), ("variant: Copy", "variant: CopyAgain"),
        ("demo::fkc::copy", "demo::fkc::copy_again"))},
    "duplicate_binding_three_files": {"a.md": BASE, "b.md": BASE.replace(
        "kernel: copy", "kernel: copy_b").replace("demo::fkc::copy", "demo::fkc::copy_b"),
        "c.md": BASE.replace("kernel: copy", "kernel: copy_c").replace(
            "demo::fkc::copy", "demo::fkc::copy_c")},
}


def write():
    os.makedirs(CASES, exist_ok=True)
    for name, text in CASES_TEXT.items():
        with open(os.path.join(CASES, name + ".md"), "wb") as f:
            f.write(text.encode("utf-8", "surrogateescape"))  # \udcXX: the raw byte XX
    for name, files in DIR_CASES.items():
        os.makedirs(os.path.join(CASES, name), exist_ok=True)
        for fn, text in files.items():
            with open(os.path.join(CASES, name, fn), "w") as f:
                f.write(text)


def expect():
    root = os.path.dirname(os.path.dirname(HERE))
    for entry in sorted(os.listdir(CASES)):
        path = os.path.join("tests/fkcgen/cases", entry)
        if entry.endswith(".md"):
            args = [path]
        elif os.path.isdir(os.path.join(CASES, entry)):
            args = sorted(os.path.join(path, f) for f in os.listdir(os.path.join(CASES, entry)))
        else:
            continue
        r = subprocess.run([os.path.join(root, "build/fkcgen"), "check"] + args, cwd=root,
                           capture_output=True)
        base = entry[:-3] if entry.endswith(".md") else entry
        with open(os.path.join(CASES, base + ".expected"), "wb") as f:
            f.write(b"exit: %d\n" % r.returncode + r.stderr)


if __name__ == "__main__":
    write() if "--expect" not in sys.argv else expect()
