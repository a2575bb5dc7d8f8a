/* schema.c — the contract schema, written once: the dtypes, every closed vocabulary and the key
 * tables of the front matter and of a ```fkc section. Validation, re-nesting (shape.c), the
 * did-you-mean suggestions and `fkcgen schema --markdown` (docs/contract-format.md) read it. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

/* ---- the dtypes ---- */
const fkcg_dtype_info fkcg_dtypes[FKCG_NDTYPES] = {
    {"F32", "f32", 4, 0, {NULL, 0, 0}},   {"I32", "i32", 4, 0, {NULL, 0, 0}},
    {"U32", "u32", 4, 0, {NULL, 0, 0}},   {"F16", "f16", 2, 0, {NULL, 0, 0}},
    {"BF16", "bf16", 2, 0, {NULL, 0, 0}}, {"F64", "f64", 8, 0, {NULL, 0, 0}},
    {"I64", "i64", 8, 0, {NULL, 0, 0}},   {"U8", "u8", 1, 0, {NULL, 0, 0}},
    {"I8", "i8", 1, 0, {NULL, 0, 0}},     {"I16", "i16", 2, 0, {NULL, 0, 0}},
    {"U16", "u16", 2, 0, {NULL, 0, 0}},   {"Bool", "bool", 1, 0, {NULL, 0, 0}},
};

#define LAYOUT_NAME(e, key, doc, rust_doc) key,
const char *const fkcg_layout_keys[FKCG_NLAYOUT] = {FKCG_LAYOUTS(LAYOUT_NAME)};

/* ---- the field kinds (model.h's FKCG_FIELD_KINDS) ---- */
#define KIND_NAME(kind, ctype, integer) kind,
#define VEC_KIND_NAME(kind) "Vec<" kind ">",
#define KIND_SPEC(kind, ctype, integer) {kind, ctype, integer},
#define VEC_KIND(kind) kind,
static const fkcg_kind_spec kinds[] = {FKCG_FIELD_KINDS(KIND_SPEC)};
static const char *const vec_kinds[] = {FKCG_VEC_KINDS(VEC_KIND)};

static const fkcg_kind_spec *scalar_kind(const char *kind, size_t len)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strlen(kinds[i].kind) == len && strncmp(kind, kinds[i].kind, len) == 0)
            return &kinds[i];
    return NULL;
}

const fkcg_kind_spec *fkcg_kind_lookup(const char *kind, bool *vec)
{
    *vec = false;
    if (!kind)
        return NULL;
    size_t n = strlen(kind);
    if (n <= 5 || strncmp(kind, "Vec<", 4) != 0 || kind[n - 1] != '>')
        return scalar_kind(kind, n);
    for (size_t i = 0; i < sizeof vec_kinds / sizeof vec_kinds[0]; i++)
        if (strlen(vec_kinds[i]) == n - 5 && strncmp(kind + 4, vec_kinds[i], n - 5) == 0) {
            *vec = true;
            return scalar_kind(vec_kinds[i], n - 5);
        }
    return NULL;
}

/* ---- closed vocabularies (X-macro: name, values) ----
 * dtype and backend are in the runtime's order (fkc_dtype, fkc_backend in
 * runtime/include/fkc/fkc_types.h): the Rust back end numbers its enums by it, and the crate's
 * tests compare those numbers with the runtime's. */
/* clang-format off */
#define FKCG_ENUMS(X)                                                                          \
    X(dtype, "F32", "I32", "U32", "F16", "BF16", "F64", "I64", "U8", "I8", "I16", "U16",       \
      "Bool")                                                                                   \
    X(backend, "Cpu", "Vulkan", "Cuda", "Metal", "Wgpu")                                        \
    X(layout_req, "required", "accepted", "rejected")                                           \
    X(layout_guarantee, "contiguous", "same_as_input")                                          \
    X(aliasing, "none", "may_alias_input", "in_place")                                          \
    X(awkward_layout_strategy, "requires_contiguous", "native_strided", "contiguize")           \
    X(fast_path_when, "all_inputs_contiguous", "aligned", "single_element")                     \
    X(cost_provenance, "judge_measured", "analytic", "estimated")                               \
    X(cost_class, "cheap_elementwise", "elementwise", "reduction", "matmul", "memory_bound")    \
    X(determinism, "bitwise", "deterministic", "nondeterministic")                              \
    X(field_kind, FKCG_FIELD_KINDS(KIND_NAME) FKCG_VEC_KINDS(VEC_KIND_NAME))                   \
    X(dtype_rule, "passthrough", "same_as", "fixed", "param")                                   \
    X(fanout, "bytes", "dtypes")                                                                \
    X(shape_rule, "from_params", "same_as", "broadcast", "reduce", "matmul", "concat", "gather",  \
      "permute")
/* clang-format on */

#define ENUM_VALUES(name, ...) static const char *const enum_##name[] = {__VA_ARGS__};
FKCG_ENUMS(ENUM_VALUES)
#define ENUM_ROW(name, ...) {#name, enum_##name, sizeof enum_##name / sizeof enum_##name[0]},
static const fkcg_enum enums[] = {FKCG_ENUMS(ENUM_ROW)};

const fkcg_enum *fkcg_enum_find(const char *name)
{
    for (size_t i = 0; i < sizeof enums / sizeof enums[0]; i++)
        if (enums[i].name[0] == name[0] && strcmp(enums[i].name, name) == 0)
            return &enums[i];
    return NULL;
}

int fkcg_enum_index(const fkcg_enum *e, const char *value)
{
    for (size_t i = 0; e && i < e->count; i++)
        if (e->values[i][0] == value[0] && strcmp(e->values[i], value) == 0)
            return (int)i;
    return -1;
}

/* ---- key tables: name, type, required, enum, child, doc ---- */
#define REQ true
#define OPT false
#define SCHEMA(var, path_, rows, free_)                                                            \
    const fkcg_schema var = {path_, rows, sizeof rows / sizeof rows[0], free_, NULL}

static const fkcg_key block_dtype_keys[] = {
    {"block", FT_IDENT, REQ, NULL, NULL,
     "the block dtype's name, upper case (`Q4_0`); its symbol suffix is its lower case"},
    {"block_elements", FT_UINT, REQ, NULL, NULL, "elements per block, at least 1"},
    {"block_bytes", FT_UINT, REQ, NULL, NULL, "bytes per block, at least 1"},
};
static SCHEMA(schema_block_dtype, "provider.block_dtypes[]", block_dtype_keys, false);

static const fkcg_key provider_keys[] = {
    {"name", FT_STRING, REQ, NULL, NULL, "the provider (kernel package) name"},
    {"backend", FT_ENUM, REQ, "backend", NULL, "the backend every section registers on"},
    {"kernel_source", FT_STRING, REQ, NULL, NULL, "the BindingEntry.kernel_source tag"},
    {"link_registry", FT_PATH, REQ, NULL, NULL, "symbol → kernel map the backend links, a::b::C"},
    {"revision_base", FT_STRING, REQ, NULL, NULL, "provider build id, folded into `auto` hashes"},
    {"block_dtypes", FT_SEQMAP, OPT, NULL, &schema_block_dtype,
     "block (quantized) dtypes this file's lists may name, beside the vocabulary's"},
};
static SCHEMA(schema_provider, "provider", provider_keys, false);

static const fkcg_key front_keys[] = {
    {"fkc_version", FT_UINT, REQ, NULL, NULL, "contract format version (this fkcgen knows 1)"},
    {"provider", FT_MAP, REQ, NULL, &schema_provider, "who provides the kernels of this file"},
};
SCHEMA(fkcg_schema_front, "front matter", front_keys, false);

#define LAYOUT_KEY(e, key, doc, rust_doc) {key, FT_ENUM, OPT, "layout_req", NULL, doc},
static const fkcg_key layout_keys[] = {FKCG_LAYOUTS(LAYOUT_KEY)};
static SCHEMA(schema_layout, "accept.inputs[].layout", layout_keys, false);

static const fkcg_key input_keys[] = {
    {"name", FT_IDENT, REQ, NULL, NULL, "the input's name"},
    {"dtypes", FT_ENUMSEQ, REQ, "dtype", NULL, "accepted element dtypes (one binding each)"},
    {"layout", FT_MAP, REQ, NULL, &schema_layout, "what each layout key is"},
    {"rank", FT_RANK, REQ, NULL, NULL, "`any` or a fixed rank"},
    {"shape_constraint", FT_STRING, OPT, NULL, NULL, "free text"},
    {"same_dtype_as", FT_IDENT, OPT, NULL, NULL,
     "a tensor before it in the key whose dtype this input always has"},
    {"optional", FT_BOOL, OPT, NULL, NULL,
     "`true`: the caller may leave it out; the wrapper then gets NULL (C) or a null pointer "
     "(Rust); default `false`"},
    {"shape_only", FT_BOOL, OPT, NULL, NULL,
     "`true`: the kernel reads only the input's shape and dtype, never its data (PyTorch "
     "`zeros_like`'s self, `expand_as`'s other); default `false`"},
    {"variadic", FT_BOOL, OPT, NULL, NULL,
     "`true` on the last input: the kernel takes one or more tensors there, all of one dtype "
     "(its key slot's), as `const fkc_tensor *const *<name>, size_t <name>_count` (PyTorch "
     "`cat(Tensor[] tensors)`); default `false`"},
    {"absent_key", FT_IDENT, OPT, NULL, NULL,
     "an optional input the key names: the dtype its slot holds in a call without it (one of "
     "its `dtypes`: the binding of that key serves both calls); not stated with "
     "`same_dtype_as` (the slot then holds the tied tensor's dtype)"},
};
static SCHEMA(schema_input, "accept.inputs[]", input_keys, false);

static const fkcg_key field_keys[] = {
    {"kind", FT_ENUM, REQ, "field_kind", NULL,
     "the parameter's type: a C scalar, `Vec<T>`, `enum` (one of `values`) or `dtype` (a "
     "dtype of the vocabulary or a provider block dtype; C `fkc_dtype`, Rust `DType`)"},
    {"note", FT_STRING, OPT, NULL, NULL, "free text"},
    {"values", FT_IDENTSEQ, OPT, NULL, NULL,
     "with `kind: enum` only (and required there): its values, distinct C identifiers "
     "(also when upper-cased), numbered from 0 in this order (`[asc, desc]`), or a mapping "
     "of them to distinct int32 codes (`{ normal: 0, neox: 2 }`); C gets an enum "
     "`<prefix>_<op snake>_<field>` and a name table, Rust an enum "
     "`ops::<op snake>::<field>`"},
    {"default", FT_SCALAR, OPT, NULL, NULL,
     "the value a caller who does not set the field means, of the field's kind: an integer "
     "in the kind's range (u64 to 18446744073709551615, i64 from -9223372036854775808), a "
     "number, `true`/`false`, one of `values`, a dtype; not for `Vec<T>`. C: "
     "`<PREFIX>_<OP>_<FIELD>_DEFAULT`, Rust: `ops::<op snake>::<FIELD>_DEFAULT`"},
};
static SCHEMA(schema_field, "accept.op_params.fields.<name>", field_keys, false);
static const fkcg_schema schema_fields = {"accept.op_params.fields", field_keys, 0, true,
                                          &schema_field};

static const fkcg_key op_params_keys[] = {
    {"variant", FT_IDENT, REQ, NULL, NULL, "the OpParams variant"},
    {"fields", FT_FREEMAP, REQ, NULL, &schema_fields,
     "the op's parameters: `<name>: { kind, note }` (names are C identifiers)"},
};
static SCHEMA(schema_op_params, "accept.op_params", op_params_keys, false);

static const fkcg_key accept_keys[] = {
    {"inputs", FT_SEQMAP, REQ, NULL, &schema_input, "the inputs, in order"},
    {"op_params", FT_MAP, OPT, NULL, &schema_op_params, "the op's parameters"},
};
static SCHEMA(schema_accept, "accept", accept_keys, false);

static const fkcg_key output_keys[] = {
    {"name", FT_IDENT, REQ, NULL, NULL, "the output's name"},
    {"dtype_rule", FT_CALL, REQ, "dtype_rule", NULL,
     "`passthrough(<input>)` or `same_as(<input>)` (its dtype), `fixed(<dtype>)`, "
     "`param(<field>)` (the dtype an op_params field names: one of `dtypes`)"},
    {"dtypes", FT_ENUMSEQ, OPT, "dtype", NULL,
     "with `param(<field>)` only: the dtypes the output may have"},
    {"shape_rule", FT_CALL, REQ, "shape_rule", NULL,
     "`from_params(<field>)`, `same_as(<input>)`, `broadcast(<input>, <input>...)`, "
     "`reduce(<input>, <axes>, <keepdim>)`, `matmul(<input>, <input>)`, `concat(<axis>)` (of "
     "every input), `gather(<input>, <index input>, <axis>)` or `permute(<input>, <perm>)`; an "
     "axis is an integer or an integer op_params field, axes and perm an integer, a list "
     "`[0, 2]` or such a field (a Vec too), keepdim `true`, `false` or a bool field"},
    {"layout_guarantee", FT_ENUM, REQ, "layout_guarantee", NULL, "the output's layout"},
    {"aliasing", FT_ENUM, REQ, "aliasing", NULL, "may the output alias an input"},
    {"in_place", FT_IDENT, OPT, NULL, NULL,
     "the input whose memory the output is (written over it): its dtype and shape rules are "
     "`same_as(<input>)`, `aliasing: in_place`, `caps.in_place: true`"},
    {"out_arg", FT_BOOL, OPT, NULL, NULL,
     "`true`: the output is the caller's out= destination argument (PyTorch `Tensor(a!) "
     "out`), written and returned; default `false`"},
};
static SCHEMA(schema_output, "return.outputs[]", output_keys, false);

static const fkcg_key return_keys[] = {
    {"outputs", FT_SEQMAP, REQ, NULL, &schema_output, "the outputs, in order"},
};
static SCHEMA(schema_return, "return", return_keys, false);

static const fkcg_key fast_path_keys[] = {
    {"when", FT_ENUM, REQ, "fast_path_when", NULL, "the condition"},
    {"class", FT_ENUM, REQ, "cost_class", NULL, "the cost class on that path"},
};
static SCHEMA(schema_fast_path, "caps.fast_paths[]", fast_path_keys, false);

static const fkcg_key caps_keys[] = {
    {"awkward_layout_strategy", FT_ENUM, REQ, "awkward_layout_strategy", NULL,
     "what happens to inputs the kernel cannot read"},
    {"fast_paths", FT_SEQMAP, OPT, NULL, &schema_fast_path, "special-cased conditions"},
    {"in_place", FT_BOOL, REQ, NULL, NULL, "may write its output over an input"},
    {"alignment_bytes", FT_UINT, REQ, NULL, NULL, "buffer alignment, a power of two"},
    {"access_granularity_bits", FT_UINT, REQ, NULL, NULL, "memory access width, a multiple of 8"},
};
static SCHEMA(schema_caps, "caps", caps_keys, false);

static const fkcg_key cost_keys[] = {
    {"provenance", FT_ENUM, REQ, "cost_provenance", NULL, "where the figures come from"},
    {"class", FT_ENUM, REQ, "cost_class", NULL, "the cost class"},
    {"flops", FT_EXPR, OPT, NULL, NULL,
     "cost expression: integers, + - * / ( ), n, "
     "dtype_bytes and scalar op_params fields"},
    {"bytes_moved", FT_EXPR, OPT, NULL, NULL, "cost expression, as flops"},
};
static SCHEMA(schema_cost, "cost", cost_keys, false);

static const fkcg_key precision_by_keys[] = {
    {"dtypes", FT_TUPLES, REQ, NULL, NULL,
     "the key's dtype tuples this entry is for (`[[F16, F16]]`), each a binding of the section, "
     "each in one entry at most"},
    {"bit_stable_on_same_hardware", FT_BOOL, OPT, NULL, NULL, "as `precision`'s; default: its"},
    {"max_ulp", FT_ULP, OPT, NULL, NULL, "as `precision`'s; default: its"},
    {"max_relative", FT_FLOAT, OPT, NULL, NULL, "as `precision`'s; default: its"},
    {"max_absolute", FT_FLOAT, OPT, NULL, NULL, "as `precision`'s; default: its"},
    {"audited", FT_BOOL, OPT, NULL, NULL, "as `precision`'s; default: its"},
    {"notes", FT_STRING, OPT, NULL, NULL, "as `precision`'s; default: its"},
    {"reference", FT_STRING, OPT, NULL, NULL, "as `precision`'s; default: its"},
};
static SCHEMA(schema_precision_by, "precision_by_dtype[]", precision_by_keys, false);

static const fkcg_key precision_keys[] = {
    {"bit_stable_on_same_hardware", FT_BOOL, REQ, NULL, NULL, "same bits on every run"},
    {"max_ulp", FT_ULP, REQ, NULL, NULL,
     "largest error in units in the last place: a non-negative number (`3`, `2.5`; up to "
     "18446744073709551615, at most 9 decimals); the generated tables carry it rounded up to "
     "whole ulps, `dump --json` exactly"},
    {"max_relative", FT_FLOAT, REQ, NULL, NULL, "largest relative error, ≥ 0"},
    {"max_absolute", FT_FLOAT, REQ, NULL, NULL, "largest absolute error, ≥ 0"},
    {"audited", FT_BOOL, REQ, NULL, NULL, "the figures were checked"},
    {"notes", FT_STRING, OPT, NULL, NULL, "free text"},
    {"reference", FT_STRING, OPT, NULL, NULL,
     "what the bounds are measured against: `correctly_rounded` (the exact result, rounded "
     "once) or `implementation:<a::b::c>` (a named reference implementation); shown by "
     "`dump --json`, not yet carried by the generated tables"},
};
static SCHEMA(schema_precision, "precision", precision_keys, false);

static const fkcg_key section_keys[] = {
    {"kernel", FT_IDENT, REQ, NULL, NULL,
     "the kernel's name, unique across files; names the "
     "wrappers `<kernel>_b<width>`"},
    {"op_kind", FT_IDENT, REQ, NULL, NULL, "the OpKind, UpperCamelCase"},
    {"blurb", FT_STRING, REQ, NULL, NULL, "one line on what the kernel does"},
    {"backend", FT_ENUM, REQ, "backend", NULL, "must be the provider's backend"},
    {"kernel_source", FT_STRING, REQ, NULL, NULL, "must be the provider's kernel_source"},
    {"entry_point", FT_PATH, REQ, NULL, NULL,
     "BASE symbol path a::b::c; bindings are "
     "`<last segment>_<dtype suffix>`"},
    {"kernel_revision_hash", FT_HASH, REQ, NULL, NULL,
     "`auto` (XXH3-128 of the section's "
     "data and revision_base) or 32 hex digits"},
    {"accept", FT_MAP, REQ, NULL, &schema_accept, "what the kernel accepts"},
    {"return", FT_MAP, REQ, NULL, &schema_return, "what it returns"},
    {"caps", FT_MAP, REQ, NULL, &schema_caps, "capabilities"},
    {"cost", FT_MAP, OPT, NULL, &schema_cost, "cost hints; absent: the unknown-cost sentinel"},
    {"precision", FT_MAP, REQ, NULL, &schema_precision, "numerical precision"},
    {"precision_by_dtype", FT_SEQMAP, OPT, NULL, &schema_precision_by,
     "other figures for some of the key's dtype tuples, each entry's keys over `precision`'s: "
     "every binding of the generated tables (and of `dump --json`) carries its own precision"},
    {"determinism", FT_ENUM, REQ, "determinism", NULL, "`bitwise` requires exact precision"},
    {"key", FT_NAMESEQ, OPT, NULL, NULL,
     "the tensors the binding key is made of (inputs and outputs, in signature order); "
     "default `[<first input>, <first output>]`"},
    {"fanout", FT_ENUM, OPT, "fanout", NULL,
     "`bytes` (default: a wrapper per combination of byte widths) or `dtypes` (a wrapper "
     "per dtype combination)"},
    {"dtype_table", FT_TUPLES, OPT, NULL, NULL,
     "the allowed dtype tuples over `key`, one list each, instead of the cross product"},
    {"exclude", FT_TUPLES, OPT, NULL, NULL, "dtype tuples over `key` the cross product leaves out"},
    {"cpu_reference", FT_IDENT, OPT, NULL, NULL,
     "the C symbol of the op's CPU reference, of the op kind's kernel signature "
     "(`<prefix>_<op snake>_fn`), defined by the backend's sources like its wrappers: "
     "`fkc-run conform` checks every binding of the section against it (docs/runtime.md)"},
};
SCHEMA(fkcg_schema_section, "section", section_keys, false);

static const fkcg_schema *const all_schemas[] = {
    &fkcg_schema_front,   &schema_provider,  &schema_block_dtype, &fkcg_schema_section,
    &schema_accept,       &schema_input,     &schema_layout,      &schema_op_params,
    &schema_fields,       &schema_field,     &schema_return,      &schema_output,
    &schema_caps,         &schema_fast_path, &schema_cost,        &schema_precision,
    &schema_precision_by,
};

size_t fkcg_schema_all(const fkcg_schema **out, size_t cap)
{
    size_t n = sizeof all_schemas / sizeof all_schemas[0];
    for (size_t i = 0; i < n && i < cap; i++)
        out[i] = all_schemas[i];
    return n;
}

const fkcg_key *fkcg_schema_key(const fkcg_schema *s, const char *name)
{
    if (s->freeform)
        return NULL;
    for (size_t i = 0; i < s->n_keys; i++)
        if (s->keys[i].name[0] == name[0] && strcmp(s->keys[i].name, name) == 0)
            return &s->keys[i];
    return NULL;
}

/* Levenshtein distance between names (at most FKCG_IDENT_MAX bytes; a longer one is far from
 * every name). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > FKCG_IDENT_MAX || lb > FKCG_IDENT_MAX)
        return FKCG_IDENT_MAX + 1;
    size_t row[FKCG_IDENT_MAX + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *fkcg_suggest(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) /* another case of a name wins over any closer spelling */
        if (!strcasecmp(name, names[i]))
            return names[i];
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        size_t dist = distance(name, names[i]);
        if (dist < best_d) {
            best_d = dist;
            best = names[i];
        }
    }
    size_t len = strlen(name);
    size_t limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    return best_d <= limit ? best : NULL;
}

const char *fkcg_schema_suggest(const fkcg_schema *s, const char *name)
{
    const char *names[32];
    size_t n = 0;
    for (size_t i = 0; i < s->n_keys && n < 32; i++)
        names[n++] = s->keys[i].name;
    return fkcg_suggest(names, n, name);
}

const char *fkcg_enum_suggest(const fkcg_enum *e, const char *value)
{
    return fkcg_suggest(e->values, e->count, value);
}

void fkcg_schema_key_list(const fkcg_schema *s, fkcg_buf *out)
{
    for (size_t i = 0; i < s->n_keys; i++)
        fkcg_buf_put_listed(out, i, s->n_keys, s->keys[i].name);
}

const char *fkcg_type_name(fkcg_type t)
{
    switch (t) {
    case FT_STRING: return "string";
    case FT_IDENT: return "identifier";
    case FT_UINT: return "unsigned integer";
    case FT_FLOAT: return "number";
    case FT_ULP: return "non-negative number";
    case FT_BOOL: return "boolean";
    case FT_ENUM: return "enum";
    case FT_ENUMSEQ: return "list of enum";
    case FT_RANK: return "rank";
    case FT_CALL: return "rule";
    case FT_EXPR: return "cost expression";
    case FT_HASH: return "hash";
    case FT_PATH: return "path";
    case FT_MAP: return "mapping";
    case FT_SEQMAP: return "list of mappings";
    case FT_FREEMAP: return "mapping of names";
    case FT_NAMESEQ: return "list of names";
    case FT_TUPLES: return "list of dtype lists";
    case FT_IDENTSEQ: return "list of identifiers";
    case FT_SCALAR: return "value";
    }
    return "?";
}

size_t fkcg_enums_all(const fkcg_enum **out)
{
    *out = enums;
    return sizeof enums / sizeof enums[0];
}
