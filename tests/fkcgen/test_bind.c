/* test_bind.c — pins the binder (fkcgen/bind.c) where an order-dependent or missing check would
 * pass today's other tests: duplicate binding keys whose holders another backend's section
 * sorts between, op kinds whose C names clash but do not sort next to each other, entry points
 * shared with disjoint dtypes (legal) and with a dtype shared by sections that are not
 * neighbours, the table's order on names alike in their first 8 bytes (the sort keys), and
 * kernel revision hashes: the seed's values pinned, every datum of a section moving its hash,
 * formatting not moving it. Every sort runs with a qsort that reverses ties (below). Run from
 * the repository root. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fkcgen.h"
#include "internal.h"

#define SEED "contracts/vulkan/write_slice.md"

/* ---- a qsort that reverses ties ----
 * This program's qsort, which the binder's calls reach (the fkcgen objects are linked in): a
 * valid sort, but elements its comparator calls equal end in the reverse of their input order
 * (glibc's merge sort keeps them in order, which would hide a comparator that lost a
 * tie-break). Every order the binder gives must come from its comparators alone. */
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    char *b = base, *tmp = malloc(size ? size : 1);
    assert_non_null(tmp);
    for (size_t i = 1; i < n; i++) {
        memcpy(tmp, b + i * size, size);
        size_t j = i;
        for (; j > 0 && cmp(b + (j - 1) * size, tmp) >= 0; j--)
            memmove(b + j * size, b + (j - 1) * size, size);
        memcpy(b + j * size, tmp, size);
    }
    free(tmp);
}

/* ---- contracts written for a test ---- */

static const char front_fmt[] = "---\n"
                                "fkc_version: 1\n"
                                "provider:\n"
                                "name: demo-%s\n"
                                "backend: %s\n"
                                "kernel_source: \"%s\"\n"
                                "link_registry: demo::fkc::ENTRY_POINTS\n"
                                "revision_base: \"git:0000\"\n"
                                "---\n"
                                "# demo\n";

/* One section: kernel, op kind, entry point's last segment, dtypes (as in a list), backend and
 * kernel source (those of its file's provider). */
static const char section_fmt[] = "## %s\n"
                                  "```fkc\n"
                                  "kernel: %s\n"
                                  "op_kind: %s\n"
                                  "blurb: \"a kernel\"\n"
                                  "backend: %s\n"
                                  "kernel_source: \"%s\"\n"
                                  "entry_point: \"demo::fkc::%s\"\n"
                                  "kernel_revision_hash: auto\n"
                                  "accept:\n"
                                  "inputs:\n"
                                  "- name: src\n"
                                  "dtypes: [%s]\n"
                                  "layout: { contiguous: required, strided: rejected }\n"
                                  "rank: any\n"
                                  "return:\n"
                                  "outputs:\n"
                                  "- name: out\n"
                                  "dtype_rule: passthrough(src)\n"
                                  "shape_rule: same_as(src)\n"
                                  "layout_guarantee: contiguous\n"
                                  "aliasing: none\n"
                                  "caps:\n"
                                  "awkward_layout_strategy: requires_contiguous\n"
                                  "in_place: false\n"
                                  "alignment_bytes: 16\n"
                                  "access_granularity_bits: 32\n"
                                  "precision:\n"
                                  "bit_stable_on_same_hardware: true\n"
                                  "max_ulp: 0\n"
                                  "max_relative: 0.0\n"
                                  "max_absolute: 0.0\n"
                                  "audited: true\n"
                                  "determinism: bitwise\n"
                                  "```\n";

typedef struct sec {
    const char *kernel, *op_kind, *entry, *dtypes;
} sec;

typedef struct file {
    const char *name, *backend, *source;
    sec secs[4];
} file;

static char dir[] = "/tmp/fkcg-bind-XXXXXX";

/* Writes each file into dir (names as given); paths[i] its path. */
static size_t write_files(const file *files, size_t n, char paths[][256])
{
    for (size_t i = 0; i < n; i++) {
        snprintf(paths[i], 256, "%s/%s", dir, files[i].name);
        FILE *f = fopen(paths[i], "w");
        assert_non_null(f);
        fprintf(f, front_fmt, files[i].name, files[i].backend, files[i].source);
        for (size_t k = 0; k < 4 && files[i].secs[k].kernel; k++) {
            const sec *s = &files[i].secs[k];
            fprintf(f, section_fmt, s->kernel, s->kernel, s->op_kind, files[i].backend,
                    files[i].source, s->entry, s->dtypes);
        }
        assert_int_equal(fclose(f), 0);
    }
    return n;
}

typedef struct fixture {
    fkcg_run *run;
    FILE *sink;
    char *diag;
    size_t diag_len;
} fixture;

static void reset(fixture *f)
{
    if (f->run)
        fkcg_run_free(f->run);
    if (f->sink)
        fclose(f->sink);
    free(f->diag);
    f->diag = NULL;
    f->sink = open_memstream(&f->diag, &f->diag_len);
    f->run = fkcg_run_new(dir, f->sink);
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!mkdtemp(dir))
        return -1;
    reset(f);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    fkcg_run_free(f->run);
    fclose(f->sink);
    free(f->diag);
    free(f);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    int rc = system(cmd);
    strcpy(dir, "/tmp/fkcg-bind-XXXXXX");
    return rc;
}

/* Loads the files; their diagnostics in f->diag with dir/ removed from the paths. */
static int load_files(fixture *f, const file *files, size_t n)
{
    char paths[8][256];
    const char *p[8];
    write_files(files, n, paths);
    for (size_t i = 0; i < n; i++)
        p[i] = paths[i];
    reset(f);
    int rc = fkcg_run_load(f->run, p, n);
    fflush(f->sink);
    /* drop "<dir>/" from the messages */
    size_t dl = strlen(dir) + 1;
    char *w = f->diag;
    for (const char *r = f->diag; r && *r;) {
        if (!strncmp(r, dir, dl - 1) && r[dl - 1] == '/')
            r += dl;
        else
            *w++ = *r++;
    }
    if (w)
        *w = '\0';
    return rc;
}

static int load_text(fixture *f, const char *text)
{
    reset(f);
    int rc = fkcg_run_load_buffer(f->run, "mem.md", text, strlen(text));
    fflush(f->sink);
    return rc;
}

/* "kernel [DT] symbol wrapper" per binding, in table order. */
static char *bindings_of(const fkcg_table *t)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    for (size_t i = 0; i < t->n_bindings; i++)
        fkcg_buf_printf(&b, "%s %s [%s] %s %s %s\n", t->bindings[i].section->op_kind,
                        t->bindings[i].section->kernel, fkcg_dtypes[t->bindings[i].dtype].name,
                        t->bindings[i].section->backend, t->bindings[i].symbol,
                        t->bindings[i].wrapper);
    return b.data ? b.data : calloc(1, 1);
}

/* ---- duplicate binding keys ---- */

/* k_a and k_c (Vulkan) bind (Copy, [F32, F32], Vulkan) + "s"; k_b, of a Cuda file, sorts
 * between them by kernel name and binds the same op kind and dtype on its own backend: one
 * error, at k_c, noted at k_a, and none for k_b. */
static void dup_key_across_another_backend(void **state)
{
    fixture *f = *state;
    static const file files[] = {
        {"a.md", "Vulkan", "s", {{"k_a", "Copy", "k_a", "F32, U8"}}},
        {"b.md", "Cuda", "s", {{"k_b", "Copy", "k_b", "F32"}}},
        {"c.md", "Vulkan", "s", {{"k_c", "Copy", "k_c", "I8, F32"}}},
    };
    assert_int_equal(load_files(f, files, 3), 1);
    assert_string_equal(
        f->diag,
        "c.md:13:9: error: duplicate binding (Copy, [F32, F32], Vulkan) + kernel_source 's': "
        "kernel 'k_c' registers the key that kernel 'k_a' registers\n"
        "kernel: k_c\n"
        "        ^\n"
        "a.md:13:9: note: first registered here\n"
        "kernel: k_a\n"
        "        ^\n");
    /* the same three without the clash: another kernel source between them is a sibling */
    static const file ok[] = {
        {"a.md", "Vulkan", "s", {{"k_a", "Copy", "k_a", "F32"}}},
        {"b.md", "Vulkan", "t", {{"k_b", "Copy", "k_b", "F32"}}},
        {"c.md", "Vulkan", "s", {{"k_c", "Copy", "k_c", "I8"}}},
        {"d.md", "Cuda", "s", {{"k_bb", "Copy", "k_bb", "F32"}}},
    };
    assert_int_equal(load_files(f, ok, 4), 0);
    assert_string_equal(f->diag, "");
    char *b = bindings_of(fkcg_run_table(f->run));
    assert_string_equal(b, "Copy k_bb [F32] Cuda demo::fkc::k_bb_f32 k_bb_b4\n"
                           "Copy k_a [F32] Vulkan demo::fkc::k_a_f32 k_a_b4\n"
                           "Copy k_c [I8] Vulkan demo::fkc::k_c_i8 k_c_b1\n"
                           "Copy k_b [F32] Vulkan demo::fkc::k_b_f32 k_b_b4\n");
    free(b);
}

/* Three holders of one key, a fourth section of the key's op kind on another backend between
 * each of them: the second and third are each noted against the first, once per pair. */
static void dup_key_three_holders(void **state)
{
    fixture *f = *state;
    static const file files[] = {
        {"a.md", "Vulkan", "s", {{"d1", "Copy", "d1", "U8"}, {"d3", "Copy", "d3", "U8, F32"}}},
        {"b.md", "Metal", "s", {{"d2", "Copy", "d2", "U8"}, {"d4", "Copy", "d4", "I8"}}},
        {"c.md", "Vulkan", "s", {{"d5", "Copy", "d5", "F32, U8"}}},
    };
    assert_int_equal(load_files(f, files, 3), 1);
    assert_int_equal(fkcg_run_errors(f->run), 3);
    assert_non_null(strstr(f->diag, "error: duplicate binding (Copy, [F32, F32], Vulkan) + "
                                    "kernel_source 's': kernel 'd5' registers the key that "
                                    "kernel 'd3' registers"));
    assert_non_null(strstr(f->diag, "error: duplicate binding (Copy, [U8, U8], Vulkan) + "
                                    "kernel_source 's': kernel 'd3' registers the key that "
                                    "kernel 'd1' registers"));
    assert_non_null(strstr(f->diag, "error: duplicate binding (Copy, [U8, U8], Vulkan) + "
                                    "kernel_source 's': kernel 'd5' registers the key that "
                                    "kernel 'd1' registers"));
    assert_null(strstr(f->diag, "'d2'"));
    assert_null(strstr(f->diag, "'d4'"));
}

/* A kernel defined twice in one file (and a third time in another): the later definitions are
 * reported, each noted against the first in file and line order, whatever order a sort leaves
 * equal names in. */
static void dup_kernel_in_one_file(void **state)
{
    fixture *f = *state;
    static const file files[] = {
        {"a.md",
         "Vulkan",
         "s",
         {{"same", "CopyA", "e1", "F32"},
          {"other", "CopyB", "e2", "F32"},
          {"same", "CopyC", "e3", "U8"}}},
        {"b.md", "Vulkan", "s", {{"same", "CopyD", "e4", "I8"}}},
    };
    assert_int_equal(load_files(f, files, 2), 1);
    assert_string_equal(
        f->diag,
        "a.md:83:9: error: duplicate kernel 'same'; kernel names are unique across all contracts\n"
        "kernel: same\n"
        "        ^\n"
        "a.md:13:9: note: first defined here\n"
        "kernel: same\n"
        "        ^\n"
        "b.md:13:9: error: duplicate kernel 'same'; kernel names are unique across all contracts\n"
        "kernel: same\n"
        "        ^\n"
        "a.md:13:9: note: first defined here\n"
        "kernel: same\n"
        "        ^\n");
}

/* ---- op kinds whose C names clash ---- */

/* GELUTanh and GeluTanh are both gelu_tanh in C; Gather sorts between them by op kind (strcmp:
 * 'E' < 'a' < 'e') but not by C name: one error, at the one that sorts second, noted at the
 * other; and the three sections' own op kinds stay apart. */
static void op_kind_clash_not_neighbours(void **state)
{
    fixture *f = *state;
    static const file files[] = {
        {"a.md",
         "Vulkan",
         "s",
         {{"g1", "GELUTanh", "g1", "F32"},
          {"g2", "Gather", "g2", "F32"},
          {"g3", "GeluTanh", "g3", "F32"}}},
    };
    assert_int_equal(load_files(f, files, 1), 1);
    assert_string_equal(
        f->diag, "a.md:84:10: error: op_kind 'GeluTanh' has the C name 'gelu_tanh' of op kind "
                 "'GELUTanh'; rename one\n"
                 "op_kind: GeluTanh\n"
                 "         ^\n"
                 "a.md:14:10: note: op kind 'GELUTanh' is defined here\n"
                 "op_kind: GELUTanh\n"
                 "         ^\n");
    /* the same clash across files, with the two in the other order on the command line */
    static const file two[] = {
        {"x.md", "Vulkan", "s", {{"h3", "GeluTanh", "h3", "F32"}}},
        {"y.md", "Cuda", "s", {{"h2", "Gather", "h2", "U8"}}},
        {"z.md", "Vulkan", "s", {{"h1", "GELUTanh", "h1", "I8"}}},
    };
    assert_int_equal(load_files(f, two, 3), 1);
    assert_int_equal(fkcg_run_errors(f->run), 1);
    assert_non_null(strstr(f->diag, "x.md:14:10: error: op_kind 'GeluTanh' has the C name "
                                    "'gelu_tanh' of op kind 'GELUTanh'; rename one\n"));
    assert_non_null(strstr(f->diag, "z.md:14:10: note: op kind 'GELUTanh' is defined here\n"));
}

/* ---- entry points ---- */

/* Two sections of one entry point with disjoint dtypes: legal, one symbol per dtype, each
 * bound to its own section's wrapper. A third one sharing F32 with the first, the second
 * between them: refused at the third, noted at the first. */
static void entry_point_disjoint_dtypes(void **state)
{
    fixture *f = *state;
    static const file ok[] = {
        {"a.md",
         "Vulkan",
         "s",
         {{"e_float", "Copy", "shared", "F32, F64"}, {"e_int", "CopyInt", "shared", "I32, U8"}}},
    };
    assert_int_equal(load_files(f, ok, 1), 0);
    assert_string_equal(f->diag, "");
    char *b = bindings_of(fkcg_run_table(f->run));
    assert_string_equal(b, "Copy e_float [F32] Vulkan demo::fkc::shared_f32 e_float_b4\n"
                           "Copy e_float [F64] Vulkan demo::fkc::shared_f64 e_float_b8\n"
                           "CopyInt e_int [I32] Vulkan demo::fkc::shared_i32 e_int_b4\n"
                           "CopyInt e_int [U8] Vulkan demo::fkc::shared_u8 e_int_b1\n");
    free(b);
    /* the generated C binds each symbol of the link registry to its own wrapper */
    fkcg_buf h, c;
    fkcg_buf_init(&h);
    fkcg_buf_init(&c);
    fkcg_emit_c(fkcg_run_table(f->run), &h, &c);
    /* (the symbols are spelt through one macro per section: base "_" suffix) */
    assert_non_null(strstr(c.data, "#define FKC_SYMBOL_0(_s) \"demo::fkc::shared\" \"_\" #_s"));
    assert_non_null(strstr(c.data, "#define FKC_SYMBOL_1(_s) \"demo::fkc::shared\" \"_\" #_s"));
    /* (each section's op kind, and its wrapper as the row's fkc_kernel_fn) */
    assert_non_null(strstr(c.data, "#define FKC_ROWS_0(_t, _s, _w) {FKC_OP_COPY, "));
    assert_non_null(strstr(c.data, "#define FKC_ROWS_1(_t, _s, _w) {FKC_OP_COPY_INT, "));
    assert_non_null(strstr(c.data, "(fkc_kernel_fn)fkc_e_float_b##_w,"));
    assert_non_null(strstr(c.data, "(fkc_kernel_fn)fkc_e_int_b##_w,"));
    assert_non_null(strstr(c.data, "FKC_ROWS_0(F32, f32, 4), /* [0] */"));
    assert_non_null(strstr(c.data, "FKC_ROWS_1(U8, u8, 1), /* [3] */"));
    assert_non_null(strstr(c.data, "{FKC_SYMBOL_0(f32), 0, &fkc_bindings[0]}"));
    assert_non_null(strstr(c.data, "{FKC_SYMBOL_1(u8), 0, &fkc_bindings[3]}"));
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
    static const file bad[] = {
        {"a.md",
         "Vulkan",
         "s",
         {{"e_a", "Copy", "shared", "F32, F64"},
          {"e_b", "CopyInt", "shared", "I32, U8"},
          {"e_c", "CopyMore", "shared", "I8, F32"}}},
    };
    assert_int_equal(load_files(f, bad, 1), 1);
    assert_string_equal(
        f->diag,
        "a.md:88:14: error: entry_point 'demo::fkc::shared' of kernel 'e_c' is also kernel "
        "'e_a''s, and both bind F32: symbol 'demo::fkc::shared_f32' would be bound twice\n"
        "entry_point: \"demo::fkc::shared\"\n"
        "             ^\n"
        "a.md:18:14: note: first defined here\n"
        "entry_point: \"demo::fkc::shared\"\n"
        "             ^\n");
}

/* ---- the table's order ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Op kinds and kernels alike in their first 8 bytes (the integer sort key of bind.c), and
 * names of 8 bytes exactly: the sections come sorted by kernel (strcmp), the bindings by
 * (op kind, backend, kernel source, kernel), each section's by dtype order. */
static void table_order_past_the_key(void **state)
{
    fixture *f = *state;
    static const file files[] = {
        {"a.md",
         "Vulkan",
         "s",
         {{"kernel_aaab", "GatherRowsX", "p1", "U8, F32"},
          {"kernel_aaaa", "GatherRows", "p2", "I8"},
          {"kernel_a", "GatherRowsB", "p3", "F16"},
          {"kernel_aa", "GatherRow", "p4", "BF16"}}},
        {"b.md",
         "Vulkan",
         "t",
         {{"kernel_aaa", "GatherRowsX", "p5", "I64"}, {"kernel_", "GatherRowsB", "p6", "F64"}}},
    };
    assert_int_equal(load_files(f, files, 2), 0);
    const fkcg_table *t = fkcg_run_table(f->run);
    assert_int_equal(t->n_sections, 6);
    const char *names[6];
    for (size_t i = 0; i < 6; i++)
        names[i] = t->sections[i]->kernel;
    const char *sorted[6];
    memcpy(sorted, names, sizeof names);
    qsort(sorted, 6, sizeof *sorted, cmp_str);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(names[i], sorted[i]);
    char *b = bindings_of(t);
    assert_string_equal(b, "GatherRow kernel_aa [BF16] Vulkan demo::fkc::p4_bf16 kernel_aa_b2\n"
                           "GatherRows kernel_aaaa [I8] Vulkan demo::fkc::p2_i8 kernel_aaaa_b1\n"
                           "GatherRowsB kernel_a [F16] Vulkan demo::fkc::p3_f16 kernel_a_b2\n"
                           "GatherRowsB kernel_ [F64] Vulkan demo::fkc::p6_f64 kernel__b8\n"
                           "GatherRowsX kernel_aaab [F32] Vulkan demo::fkc::p1_f32 kernel_aaab_b4\n"
                           "GatherRowsX kernel_aaab [U8] Vulkan demo::fkc::p1_u8 kernel_aaab_b1\n"
                           "GatherRowsX kernel_aaa [I64] Vulkan demo::fkc::p5_i64 kernel_aaa_b8\n");
    free(b);
}

/* ---- kernel revision hashes ---- */

/* The seed's hashes: a change of the canonical form, of its hash function or of the seed moves
 * them (and generated/ then drifts too). */
static void seed_hashes_pinned(void **state)
{
    fixture *f = *state;
    const char *p[] = {SEED};
    reset(f);
    assert_int_equal(fkcg_run_load(f->run, p, 1), 0);
    const fkcg_table *t = fkcg_run_table(f->run);
    assert_int_equal(t->n_sections, 2);
    assert_string_equal(t->sections[0]->kernel, "write_slice");
    assert_string_equal(t->sections[0]->revision_hash, "5bf4a359f327a3a2c8588641ae442f29");
    assert_string_equal(t->sections[1]->kernel, "write_slice_rotating");
    assert_string_equal(t->sections[1]->revision_hash, "5fa826ccf857ac0610f5e0bff58ec8e9");
}

/* A contract with every optional datum present, so that each can be changed. */
static const char hashed[] =
    "---\n"
    "fkc_version: 1\n"
    "provider:\n"
    "name: demo-kernels\n"
    "backend: Vulkan\n"
    "kernel_source: \"vulkan-slang\"\n"
    "link_registry: demo::fkc::ENTRY_POINTS\n"
    "revision_base: \"git:0000\"\n"
    "---\n"
    "# demo\n"
    "```fkc\n"
    "kernel: copy\n"
    "op_kind: Copy\n"
    "blurb: \"copy a tensor\"\n"
    "backend: Vulkan\n"
    "kernel_source: \"vulkan-slang\"\n"
    "entry_point: \"demo::fkc::copy\"\n"
    "kernel_revision_hash: auto\n"
    "accept:\n"
    "inputs:\n"
    "- name: src\n"
    "dtypes: [F32, U8]\n"
    "layout: { contiguous: required, strided: rejected, broadcast_stride0: rejected, "
    "start_offset: rejected, reverse_strides: rejected }\n"
    "rank: any\n"
    "shape_constraint: \"fits\"\n"
    "op_params:\n"
    "variant: Copy\n"
    "fields:\n"
    "len: { kind: usize, note: \"elements\" }\n"
    "dst: { kind: \"Vec<usize>\", note: \"extents\" }\n"
    "stride: { kind: isize }\n"
    "return:\n"
    "outputs:\n"
    "- name: out\n"
    "dtype_rule: passthrough(src)\n"
    "shape_rule: from_params(dst)\n"
    "layout_guarantee: contiguous\n"
    "aliasing: none\n"
    "caps:\n"
    "awkward_layout_strategy: requires_contiguous\n"
    "fast_paths:\n"
    "- { when: all_inputs_contiguous, class: cheap_elementwise }\n"
    "in_place: false\n"
    "alignment_bytes: 16\n"
    "access_granularity_bits: 32\n"
    "cost:\n"
    "provenance: analytic\n"
    "class: cheap_elementwise\n"
    "flops: \"0\"\n"
    "bytes_moved: \"2 * n * dtype_bytes + len\"\n"
    "precision:\n"
    "bit_stable_on_same_hardware: true\n"
    "max_ulp: 0\n"
    "max_relative: 0.0\n"
    "max_absolute: 0.0\n"
    "audited: true\n"
    "notes: \"exact\"\n"
    "determinism: bitwise\n"
    "```\n";

static char *replace(const char *s, const char *old, const char *new)
{
    const char *at = strstr(s, old);
    if (!at)
        fail_msg("'%s' is not in the contract", old);
    size_t n = strlen(s) - strlen(old) + strlen(new);
    char *out = malloc(n + 1);
    sprintf(out, "%.*s%s%s", (int)(at - s), s, new, at + strlen(old));
    return out;
}

/* The hash of the contract above with its optional values absent (shape_constraint, notes,
 * a field's note, fast_paths), pinned: how an absent value is serialised cannot change
 * silently (issue 26 item 8: only the seed's hashes were pinned, and the seed states every
 * key). */
static void absent_values_hash_pinned(void **state)
{
    fixture *f = *state;
    char *a = replace(hashed, "shape_constraint: \"fits\"\n", "");
    char *b = replace(a, "notes: \"exact\"\n", "");
    char *c = replace(b, "len: { kind: usize, note: \"elements\" }", "len: { kind: usize }");
    char *d = replace(
        c, "fast_paths:\n- { when: all_inputs_contiguous, class: cheap_elementwise }\n", "");
    assert_int_equal(load_text(f, d), 0);
    const fkcg_table *t = fkcg_run_table(f->run);
    assert_int_equal(t->n_sections, 1);
    assert_null(t->sections[0]->precision.notes);
    assert_string_equal(t->sections[0]->revision_hash, "6ca93160315785c0b70ad85678c96d6b");
    free(a);
    free(b);
    free(c);
    free(d);
}

/* Each change is of one datum of the canonical form (fkcg_section_canonical), the section
 * still valid: every one moves the hash, and no two give the same one. */
static const struct {
    const char *old, *new;
} data_changes[] = {
    {"kernel: copy", "kernel: copy2"},
    {"op_kind: Copy", "op_kind: CopyTwo"},
    {"\"copy a tensor\"", "\"copy a tensor.\""},
    {"backend: Vulkan\nkernel_source: \"vulkan-slang\"\nlink_registry",
     "backend: Cuda\nkernel_source: \"vulkan-slang\"\nlink_registry"}, /* + the section's: below */
    {"kernel_source: \"vulkan-slang\"\nlink_registry",
     "kernel_source: \"cuda\"\nlink_registry"}, /* + the section's: below */
    {"\"demo::fkc::copy\"", "\"demo::fkc::copy_v2\""},
    {"- name: src", "- name: source"},
    {"dtypes: [F32, U8]", "dtypes: [F32, I8]"}, /* a dtype */
    {"dtypes: [F32, U8]", "dtypes: [F32]"},     /* one dtype fewer */
    {"dtypes: [F32, U8]", "dtypes: [U8, F32]"}, /* their order (the bindings') */
    {"contiguous: required,", "contiguous: accepted,"},
    {"broadcast_stride0: rejected", "broadcast_stride0: accepted"},
    {"start_offset: rejected", "start_offset: accepted"},
    {"reverse_strides: rejected", "reverse_strides: accepted"},
    {"rank: any", "rank: 3"},
    {"shape_constraint: \"fits\"", "shape_constraint: \"fits!\""},
    {"shape_constraint: \"fits\"\n", ""},                      /* absent */
    {"shape_constraint: \"fits\"", "shape_constraint: \"-\""}, /* "-", not absent */
    {"variant: Copy", "variant: CopyV"},
    {"stride: { kind: isize }", "step: { kind: isize }"},                /* a field's name */
    {"stride: { kind: isize }", "stride: { kind: i64 }"},                /* its kind */
    {"stride: { kind: isize }", "stride: { kind: isize, note: \"x\" }"}, /* a note, absent */
    {"len: { kind: usize,", "len: { kind: u64,"},
    {"note: \"elements\"", "note: \"elements.\""},
    {"len: { kind: usize, note: \"elements\" }\ndst: { kind: \"Vec<usize>\", note: \"extents\" }",
     "dst: { kind: \"Vec<usize>\", note: \"extents\" }\nlen: { kind: usize, note: \"elements\" }"},
    {"- name: out", "- name: dst_out"},
    {"shape_rule: from_params(dst)", "shape_rule: same_as(src)"},
    {"layout_guarantee: contiguous", "layout_guarantee: same_as_input"},
    {"aliasing: none", "aliasing: may_alias_input"},
    {"awkward_layout_strategy: requires_contiguous\n", "awkward_layout_strategy: contiguize\n"},
    {"- { when: all_inputs_contiguous, class: cheap_elementwise }",
     "- { when: all_inputs_contiguous, class: memory_bound }"},
    {"fast_paths:\n- { when: all_inputs_contiguous, class: cheap_elementwise }\n", ""},
    {"in_place: false", "in_place: true"},
    {"alignment_bytes: 16", "alignment_bytes: 32"},
    {"access_granularity_bits: 32", "access_granularity_bits: 64"},
    {"provenance: analytic", "provenance: judge_measured"},
    {"class: cheap_elementwise\nflops", "class: memory_bound\nflops"},
    {"flops: \"0\"", "flops: \"1\""}, /* a cost expression */
    {"flops: \"0\"\n", ""},
    {"\"2 * n * dtype_bytes + len\"", "\"2 * dtype_bytes * n + len\""},
    {"cost:\nprovenance: analytic\nclass: cheap_elementwise\nflops: \"0\"\n"
     "bytes_moved: \"2 * n * dtype_bytes + len\"\n",
     ""}, /* no cost: the sentinel */
    {"max_ulp: 0\nmax_relative: 0.0\nmax_absolute: 0.0\naudited: true\nnotes: \"exact\"\n"
     "determinism: bitwise",
     "max_ulp: 0\nmax_relative: 0.0\nmax_absolute: 0.0\naudited: true\n"
     "notes: \"exact\"\ndeterminism: deterministic"},
    {"bit_stable_on_same_hardware: true", "bit_stable_on_same_hardware: false\nx_: 0"},
    {"max_ulp: 0", "max_ulp: 1\nx_: 0"},
    {"max_relative: 0.0", "max_relative: 0.5\nx_: 0"},
    {"max_absolute: 0.0", "max_absolute: 0.5\nx_: 0"},
    {"audited: true", "audited: false"},
    {"notes: \"exact\"", "notes: \"exact.\""},
    {"notes: \"exact\"\n", ""},
    {"notes: \"exact\"", "notes: \"-\""},
    {"revision_base: \"git:0000\"", "revision_base: \"git:0001\""},
};

/* Applies change i (the backend and kernel_source ones to the section too; the precision ones
 * that bitwise forbids with determinism: deterministic instead of the marker x_). */
static char *changed(size_t i)
{
    char *t = replace(hashed, data_changes[i].old, data_changes[i].new), *u;
    if (strstr(data_changes[i].new, "backend: Cuda")) {
        u = replace(t, "backend: Vulkan", "backend: Cuda");
        free(t);
        t = u;
    }
    if (strstr(data_changes[i].new, "kernel_source: \"cuda\"")) {
        u = replace(t, "kernel_source: \"vulkan-slang\"", "kernel_source: \"cuda\"");
        free(t);
        t = u;
    }
    if (strstr(data_changes[i].new, "- name: source")) {
        u = replace(t, "passthrough(src)", "passthrough(source)");
        free(t);
        t = u;
    }
    if (strstr(t, "\nx_: 0")) {
        u = replace(t, "\nx_: 0", "");
        free(t);
        t = replace(u, "determinism: bitwise", "determinism: deterministic");
        free(u);
    }
    return t;
}

static void every_datum_moves_the_hash(void **state)
{
    fixture *f = *state;
    size_t n = sizeof data_changes / sizeof data_changes[0];
    char(*hashes)[33] = calloc(n + 1, sizeof *hashes); /* hashes[n]: the base's */
    if (load_text(f, hashed) != 0)
        fail_msg("the base contract is refused:\n%s", f->diag);
    strcpy(hashes[n], fkcg_run_table(f->run)->sections[0]->revision_hash);
    for (size_t i = 0; i < n; i++) {
        char *t = changed(i);
        if (load_text(f, t) != 0)
            fail_msg("change %zu ('%s' -> '%s') is refused:\n%s", i, data_changes[i].old,
                     data_changes[i].new, f->diag);
        strcpy(hashes[i], fkcg_run_table(f->run)->sections[0]->revision_hash);
        free(t);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k <= n; k++)
            if (!strcmp(hashes[i], hashes[k]))
                fail_msg("change %zu ('%s' -> '%s') gives the hash of %s", i, data_changes[i].old,
                         data_changes[i].new, k == n ? "the base contract" : data_changes[k].new);
    free(hashes);
}

/* What is not data leaves the hash alone: key order, quoting, comments, flow or block form,
 * blank lines; and an explicit hash is kept as written, not resolved. */
static void formatting_keeps_the_hash(void **state)
{
    fixture *f = *state;
    assert_int_equal(load_text(f, hashed), 0);
    char base[33];
    strcpy(base, fkcg_run_table(f->run)->sections[0]->revision_hash);
    static const struct {
        const char *old, *new;
    } same[] = {
        {"kernel: copy\nop_kind: Copy\n", "op_kind: Copy\nkernel: copy\n"},
        {"blurb: \"copy a tensor\"", "blurb: 'copy a tensor'"},
        {"blurb: \"copy a tensor\"", "blurb: copy a tensor # a comment"},
        {"alignment_bytes: 16", "alignment_bytes: 016"},
        {"flops: \"0\"", "flops: 0"},
        {"\"2 * n * dtype_bytes + len\"", "\"2*n*dtype_bytes+len\""},
        {"\"2 * n * dtype_bytes + len\"", "\"((2 * n) * dtype_bytes) + (len)\""},
        {"len: { kind: usize, note: \"elements\" }", "len:\nkind: usize\nnote: \"elements\""},
        {"dtypes: [F32, U8]", "dtypes:\n- F32\n- U8"},
        {"max_relative: 0.0", "max_relative: 0"},
        {"rank: any\n", "rank: any\n\n"},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char *t = replace(hashed, same[i].old, same[i].new);
        if (load_text(f, t) != 0)
            fail_msg("'%s' -> '%s' is refused:\n%s", same[i].old, same[i].new, f->diag);
        if (strcmp(fkcg_run_table(f->run)->sections[0]->revision_hash, base) != 0)
            fail_msg("'%s' -> '%s' moved the hash", same[i].old, same[i].new);
        free(t);
    }
    char *t = replace(hashed, "kernel_revision_hash: auto",
                      "kernel_revision_hash: 00112233445566778899aabbccddeeff");
    assert_int_equal(load_text(f, t), 0);
    assert_string_equal(fkcg_run_table(f->run)->sections[0]->revision_hash,
                        "00112233445566778899aabbccddeeff");
    free(t);
}

/* Two sections alike but for their kernel, in one file and in two: each has its own hash, and
 * the one of a section does not depend on the file's other sections or on the order of files. */
static void hash_is_per_section(void **state)
{
    fixture *f = *state;
    static const file one[] = {
        {"a.md", "Vulkan", "s", {{"h_a", "Copy", "h_a", "F32"}, {"h_b", "CopyB", "h_b", "F32"}}},
    };
    static const file two[] = {
        {"b.md", "Vulkan", "s", {{"h_b", "CopyB", "h_b", "F32"}}},
        {"a.md", "Vulkan", "s", {{"h_a", "Copy", "h_a", "F32"}}},
    };
    assert_int_equal(load_files(f, one, 1), 0);
    char ha[33], hb[33];
    strcpy(ha, fkcg_run_table(f->run)->sections[0]->revision_hash);
    strcpy(hb, fkcg_run_table(f->run)->sections[1]->revision_hash);
    assert_string_not_equal(ha, hb);
    assert_int_equal(load_files(f, two, 2), 0);
    const fkcg_table *t = fkcg_run_table(f->run);
    assert_string_equal(t->sections[0]->kernel, "h_a");
    assert_string_equal(t->sections[0]->revision_hash, ha);
    assert_string_equal(t->sections[1]->revision_hash, hb);
}

/* fkcg_bind returns the number of errors it reported: each file valid alone, bound together. */
static void bind_counts_its_errors(void **state)
{
    fixture *f = *state;
    static const file files[] = {
        {"a.md",
         "Vulkan",
         "s",
         {{"c_a", "GELUTanh", "shared", "F32"}, {"c_b", "Copy", "c_b", "U8"}}},
        {"b.md",
         "Vulkan",
         "s",
         {{"c_c", "GeluTanh", "shared", "F32"}, {"c_d", "Copy", "c_d", "U8"}}},
        {"c.md", "Vulkan", "s", {{"c_a", "CopyA", "c_e", "I8"}}},
    };
    char paths[3][256];
    write_files(files, 3, paths);
    fkcg_run *runs[3];
    fkcg_section *secs[8];
    fkcg_provider *provs[3];
    size_t n = 0;
    for (size_t i = 0; i < 3; i++) {
        const char *p[] = {paths[i]};
        runs[i] = fkcg_run_new(dir, NULL);
        assert_int_equal(fkcg_run_load(runs[i], p, 1), 0);
        const fkcg_table *t = fkcg_run_table(runs[i]);
        for (size_t k = 0; k < t->n_sections; k++)
            secs[n++] = (fkcg_section *)t->sections[k];
        provs[i] = (fkcg_provider *)t->providers[0];
    }
    fkcg_arena a = {0};
    fkcg_diag *d = fkcg_diag_new(f->sink);
    fkcg_table out;
    size_t errors = fkcg_bind(&a, d, secs, n, provs, 3, &out);
    /* the duplicate kernel c_a, the key (Copy, [U8, U8], Vulkan) of c_b and c_d, the C name
     * gelu_tanh, the symbol shared_f32 */
    assert_int_equal(fkcg_diag_errors(d), 4);
    assert_int_equal(errors, 4);
    fkcg_diag_free(d);
    fkcg_arena_free(&a);
    for (size_t i = 0; i < 3; i++)
        fkcg_run_free(runs[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(dup_key_across_another_backend, setup, teardown),
        cmocka_unit_test_setup_teardown(dup_key_three_holders, setup, teardown),
        cmocka_unit_test_setup_teardown(dup_kernel_in_one_file, setup, teardown),
        cmocka_unit_test_setup_teardown(op_kind_clash_not_neighbours, setup, teardown),
        cmocka_unit_test_setup_teardown(entry_point_disjoint_dtypes, setup, teardown),
        cmocka_unit_test_setup_teardown(table_order_past_the_key, setup, teardown),
        cmocka_unit_test_setup_teardown(seed_hashes_pinned, setup, teardown),
        cmocka_unit_test_setup_teardown(absent_values_hash_pinned, setup, teardown),
        cmocka_unit_test_setup_teardown(every_datum_moves_the_hash, setup, teardown),
        cmocka_unit_test_setup_teardown(formatting_keeps_the_hash, setup, teardown),
        cmocka_unit_test_setup_teardown(hash_is_per_section, setup, teardown),
        cmocka_unit_test_setup_teardown(bind_counts_its_errors, setup, teardown),
    };
    return cmocka_run_group_tests_name("fkcgen binder", tests, NULL, NULL);
}
