/* seed_table.c — contracts/vulkan/write_slice.md as a hand-built binding table (see .h). */
#include "seed_table.h"

#include <string.h>

#include "injection_strings.h"

#define SEED "contracts/vulkan/write_slice.md"

static fkcg_provider provider = {.fkc_version = 1,
                                 .name = "fuel-vulkan-kernels",
                                 .backend = "Vulkan",
                                 .kernel_source = "vulkan-slang",
                                 .link_registry = "fuel_vulkan_backend::fkc::ENTRY_POINTS",
                                 .revision_base = "git:f41137b4",
                                 .rel_file = SEED,
                                 .loc = {SEED, 2, 1}};

static fkcg_fast_path fast[2] = {{"all_inputs_contiguous", "cheap_elementwise"},
                                 {"all_inputs_contiguous", "cheap_elementwise"}};

static fkcg_expr e_zero[2] = {{.kind = FKCG_EXPR_INT, .value = 0},
                              {.kind = FKCG_EXPR_INT, .value = 0}};
/* 2 * n * dtype_bytes, parsed left-associatively: ((2 * n) * dtype_bytes) */
static fkcg_expr e_two[2] = {{.kind = FKCG_EXPR_INT, .value = 2},
                             {.kind = FKCG_EXPR_INT, .value = 2}};
static fkcg_expr e_n[2] = {{.kind = FKCG_EXPR_N}, {.kind = FKCG_EXPR_N}};
static fkcg_expr e_db[2] = {{.kind = FKCG_EXPR_DTYPE_BYTES}, {.kind = FKCG_EXPR_DTYPE_BYTES}};
static fkcg_expr e_mul1[2], e_mul2[2];

#define SEED_NDTYPES 9 /* the seed's dtypes, F32 .. I8: the first nine of the vocabulary */
static fkcg_input inputs[2];
static fkcg_output outputs[2];
static fkcg_field fields0[2], fields1[2];
static fkcg_section sections[2];
static const fkcg_section *section_ptrs[2];
static fkcg_binding bindings[18];
static const fkcg_provider *provider_ptrs[1] = {&provider};
static char symbols[18][80];
static char wrappers[18][40];
static fkcg_table table;

static void make_section(int k)
{
    static const char *const kernel[2] = {"write_slice", "write_slice_rotating"};
    static const char *const op[2] = {"WriteSlice", "WriteSliceRotating"};
    static const char *const entry[2] = {"fuel_vulkan_backend::fkc::write_slice",
                                         "fuel_vulkan_backend::fkc::write_slice_rotating"};
    static const char *const blurb[2] = {
        "Write a source tensor into a slab of a larger destination; byte-width-keyed "
        "(b1/b2/b4/b8) word move; contiguous-only binding.",
        "Sliding-window KV slab write (position D2H + ring-boundary split, then slab write); "
        "byte-width-keyed; contiguous-only binding."};
    static const char *const notes[2] = {
        "exact byte-width slab write; no arithmetic, bit-identical across any hardware.",
        "exact byte-width slab write (rotating KV window); no arithmetic, bit-identical across "
        "any hardware."};
    static const char *const hash[2] = {"00000000000000000000000000000001",
                                        "00000000000000000000000000000002"};
    static const uint32_t line[2] = {53, 109};
    fkcg_section *s = &sections[k];
    fkcg_input *in = &inputs[k];
    in->name = "src";
    for (int d = 0; d < SEED_NDTYPES; d++) /* the seed's nine: F32 .. I8 */
        in->dtypes[d] = d;
    in->n_dtypes = SEED_NDTYPES;
    in->layout[FKCG_LAYOUT_CONTIGUOUS] = "required";
    for (int l = 1; l < FKCG_NLAYOUT; l++)
        in->layout[l] = "rejected";
    in->rank = "any";
    in->loc = (fkcg_loc){SEED, line[k] + 10, 3};
    outputs[k] = (fkcg_output){.name = "out",
                               .dtype_rule = "passthrough(src)",
                               .dtype_rule_arg = "src",
                               .shape_rule = "from_params(dst_shape)",
                               .shape_rule_arg = "dst_shape",
                               .layout_guarantee = "contiguous",
                               .aliasing = "none",
                               .loc = {SEED, line[k] + 23, 3},
                               .rule = FKCG_DR_PASSTHROUGH,
                               .fixed_dtype = -1,    /* not a fixed(D) rule */
                               .in_place_input = -1, /* aliases no input (model.h) */
                               .shape = FKCG_SR_FROM_PARAMS};
    fkcg_field *f = k == 0 ? fields0 : fields1;
    f[0] = (fkcg_field){.name = "dst_shape",
                        .kind = "Vec<usize>",
                        .note = k == 0 ? "the larger destination extents"
                                       : "the ring-buffer destination extents",
                        .loc = {SEED, line[k] + 18, 1},
                        .def_index = -1};
    f[1] = k == 0 ? (fkcg_field){.name = "offsets",
                                 .kind = "Vec<usize>",
                                 .note = "per-axis slab start offset in dst",
                                 .loc = {SEED, line[k] + 19, 1},
                                 .def_index = -1}
                  : (fkcg_field){.name = "capacity",
                                 .kind = "usize",
                                 .note = "ring window capacity along the rotating axis",
                                 .loc = {SEED, line[k] + 19, 1},
                                 .def_index = -1};
    e_mul1[k] = (fkcg_expr){.kind = FKCG_EXPR_MUL, .lhs = &e_two[k], .rhs = &e_n[k]};
    e_mul2[k] = (fkcg_expr){.kind = FKCG_EXPR_MUL, .lhs = &e_mul1[k], .rhs = &e_db[k]};
    *s = (fkcg_section){0};
    s->heading = kernel[k];
    s->provider = &provider;
    s->kernel = kernel[k];
    s->op_kind = op[k];
    s->blurb = blurb[k];
    s->backend = "Vulkan";
    s->kernel_source = "vulkan-slang";
    s->entry_point = entry[k];
    s->revision_hash = hash[k];
    s->inputs = in;
    s->n_inputs = 1;
    s->outputs = &outputs[k];
    s->n_outputs = 1;
    s->variant = op[k];
    s->fields = f;
    s->n_fields = 2;
    s->caps = (fkcg_caps){"requires_contiguous", &fast[k], 1, false, 16, 32};
    s->cost = (fkcg_cost){.present = true,
                          .provenance = "judge_measured",
                          .cost_class = "cheap_elementwise",
                          .flops_src = "0",
                          .bytes_moved_src = "2 * n * dtype_bytes",
                          .flops = &e_zero[k],
                          .bytes_moved = &e_mul2[k],
                          .loc = {SEED, line[k] + 36, 1}};
    s->precision = (fkcg_precision){
        .bit_stable_on_same_hardware = true, .audited = true, .notes = notes[k]};
    s->determinism = "bitwise";
    s->loc = (fkcg_loc){SEED, line[k], 1};
}

const fkcg_table *seed_table(void)
{
    for (int k = 0; k < 2; k++) {
        make_section(k);
        section_ptrs[k] = &sections[k];
        for (int d = 0; d < SEED_NDTYPES; d++) {
            fkcg_binding *b = &bindings[k * SEED_NDTYPES + d];
            char *sym = symbols[k * SEED_NDTYPES + d], *w = wrappers[k * SEED_NDTYPES + d];
            strcpy(sym, sections[k].entry_point);
            strcat(sym, "_");
            strcat(sym, fkcg_dtypes[d].suffix);
            strcpy(w, sections[k].kernel);
            strcat(w, fkcg_dtypes[d].bytes == 1   ? "_b1"
                      : fkcg_dtypes[d].bytes == 2 ? "_b2"
                      : fkcg_dtypes[d].bytes == 4 ? "_b4"
                                                  : "_b8");
            /* n_key 0: the hand-built key [dtype, dtype] (model.h) */
            *b = (fkcg_binding){.section = &sections[k],
                                .dtype = d,
                                .byte_width = fkcg_dtypes[d].bytes,
                                .symbol = sym,
                                .wrapper = w};
        }
    }
    table = (fkcg_table){.providers = provider_ptrs,
                         .n_providers = 1,
                         .sections = section_ptrs,
                         .n_sections = 2,
                         .bindings = bindings,
                         .n_bindings = 18};
    return &table;
}

const fkcg_table *injection_table(void)
{
    seed_table();
    for (int k = 0; k < 2; k++) {
        sections[k].blurb = INJ_BLURB;
        sections[k].precision.notes = INJ_NOTES;
        sections[k].kernel_source = INJ_SOURCE;
    }
    sections[1].cost.present = false;       /* the unknown-cost sentinel, compiled too */
    inputs[0].shape_constraint = INJ_NOTES; /* the contract tables carry them too */
    fields0[0].note = INJ_BLURB;
    provider.name = INJ_BLURB;
    provider.revision_base = INJ_NOTES;
    provider.kernel_source = INJ_SOURCE;
    provider.rel_file = INJ_FILE;
    return &table;
}
