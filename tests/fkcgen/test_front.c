/* test_front.c — fkcgen's front end on the seed and its copies (nested, CRLF, BOM, split),
 * revision-hash independence, the re-nesting ambiguity proof, docs staleness, cost
 * expressions, I/O errors and the command line. Run from the repository root. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "fkcgen.h"
#include "internal.h"

#define SEED "contracts/vulkan/write_slice.md"

typedef struct fixture { /* a run and its captured diagnostics */
    fkcg_run *run;
    FILE *sink;
    char *diag;
    size_t diag_len;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->sink = open_memstream(&f->diag, &f->diag_len);
    f->run = fkcg_run_new(NULL, f->sink);
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
    return 0;
}

/* Loads paths into a fresh run; returns its status; diagnostics in f->diag. */
static int load(fixture *f, const char *const *paths, size_t n)
{
    fkcg_run_free(f->run);
    fclose(f->sink);
    free(f->diag);
    f->diag = NULL;
    f->sink = open_memstream(&f->diag, &f->diag_len);
    f->run = fkcg_run_new(NULL, f->sink);
    int rc = fkcg_run_load(f->run, paths, n);
    fflush(f->sink);
    return rc;
}

static int load_text(fixture *f, const char *text)
{
    fkcg_run_free(f->run);
    fclose(f->sink);
    free(f->diag);
    f->diag = NULL;
    f->sink = open_memstream(&f->diag, &f->diag_len);
    f->run = fkcg_run_new(NULL, f->sink);
    int rc = fkcg_run_load_buffer(f->run, "mem.md", text, strlen(text));
    fflush(f->sink);
    return rc;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    size_t got = fread(p, 1, (size_t)n, fp);
    p[got] = '\0';
    fclose(fp);
    if (len)
        *len = got;
    return p;
}

/* Everything a binding says except where it comes from: key, symbol, wrapper, width, hash
 * and the section's canonical data. */
static char *bindings_text(const fkcg_table *t)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    for (size_t i = 0; i < t->n_bindings; i++) {
        const fkcg_binding *x = &t->bindings[i];
        fkcg_buf_printf(&b, "%s %s [%s] %s %s %s %u %s\n", x->section->kernel, x->section->op_kind,
                        fkcg_dtypes[x->dtype].name, x->section->backend, x->symbol, x->wrapper,
                        x->byte_width, x->section->revision_hash);
        fkcg_section_canonical(x->section, &b);
    }
    return b.data;
}

static char *seed_bindings(void)
{
    void *state;
    setup(&state);
    const char *p[] = {SEED};
    assert_int_equal(load(state, p, 1), 0);
    char *out = bindings_text(fkcg_run_table(((fixture *)state)->run));
    teardown(&state);
    return out;
}

/* ---- the seed ---- */
static void seed_gives_18_bindings(void **state)
{
    fixture *f = *state;
    const char *p[] = {SEED};
    assert_int_equal(load(f, p, 1), 0);
    assert_string_equal(f->diag, "");
    const fkcg_table *t = fkcg_run_table(f->run);
    assert_int_equal(t->n_bindings, 18);
    assert_int_equal(t->n_sections, 2);
    assert_int_equal(t->n_providers, 1);
    static const struct {
        const char *dt;
        unsigned w;
    } widths[] = {
        {"F32", 4}, {"I32", 4}, {"U32", 4}, {"F16", 2}, {"BF16", 2},
        {"F64", 8}, {"I64", 8}, {"U8", 1},  {"I8", 1},
    };
    for (size_t i = 0; i < t->n_bindings; i++) {
        const fkcg_binding *b = &t->bindings[i];
        const char *kernel = i < 9 ? "write_slice" : "write_slice_rotating";
        assert_string_equal(b->section->kernel, kernel);
        assert_string_equal(b->section->op_kind, i < 9 ? "WriteSlice" : "WriteSliceRotating");
        assert_string_equal(fkcg_dtypes[b->dtype].name, widths[i % 9].dt);
        assert_int_equal(b->byte_width, widths[i % 9].w);
        char want[128];
        snprintf(want, sizeof want, "%s_b%u", kernel, widths[i % 9].w);
        assert_string_equal(b->wrapper, want);
        snprintf(want, sizeof want, "fuel_vulkan_backend::fkc::%s_%s", kernel,
                 fkcg_dtypes[b->dtype].suffix);
        assert_string_equal(b->symbol, want);
        assert_string_equal(b->section->backend, "Vulkan");
        assert_string_equal(b->section->kernel_source, "vulkan-slang");
        assert_int_equal(strlen(b->section->revision_hash), 32);
    }
}

/* Every field of model.h for the seed's first section. */
static void seed_model_is_complete(void **state)
{
    fixture *f = *state;
    const char *p[] = {SEED};
    assert_int_equal(load(f, p, 1), 0);
    const fkcg_table *t = fkcg_run_table(f->run);
    const fkcg_section *s = t->sections[0];
    assert_string_equal(s->kernel, "write_slice");
    assert_string_equal(s->heading, "write_slice (write a source into a slab of a larger "
                                    "destination; 9 dtypes; byte-width-keyed)");
    assert_string_equal(s->entry_point, "fuel_vulkan_backend::fkc::write_slice");
    assert_int_equal(s->loc.line, 53);
    assert_int_equal(s->n_inputs, 1);
    assert_string_equal(s->inputs[0].name, "src");
    assert_int_equal(s->inputs[0].n_dtypes, 9);
    assert_string_equal(s->inputs[0].layout[FKCG_LAYOUT_CONTIGUOUS], "required");
    assert_string_equal(s->inputs[0].layout[FKCG_LAYOUT_REVERSE_STRIDES], "rejected");
    assert_string_equal(s->inputs[0].rank, "any");
    assert_non_null(s->inputs[0].shape_constraint);
    assert_string_equal(s->variant, "WriteSlice");
    assert_int_equal(s->n_fields, 2);
    assert_string_equal(s->fields[0].name, "dst_shape");
    assert_string_equal(s->fields[0].kind, "Vec<usize>");
    assert_string_equal(s->fields[1].name, "offsets");
    assert_int_equal(s->n_outputs, 1);
    assert_string_equal(s->outputs[0].dtype_rule_arg, "src");
    assert_string_equal(s->outputs[0].shape_rule_arg, "dst_shape");
    assert_string_equal(s->outputs[0].layout_guarantee, "contiguous");
    assert_string_equal(s->outputs[0].aliasing, "none");
    assert_string_equal(s->caps.awkward_layout_strategy, "requires_contiguous");
    assert_int_equal(s->caps.n_fast_paths, 1);
    assert_string_equal(s->caps.fast_paths[0].when, "all_inputs_contiguous");
    assert_false(s->caps.in_place);
    assert_int_equal(s->caps.alignment_bytes, 16);
    assert_int_equal(s->caps.access_granularity_bits, 32);
    assert_true(s->cost.present);
    assert_string_equal(s->cost.provenance, "judge_measured");
    assert_int_equal(s->cost.flops->kind, FKCG_EXPR_INT);
    assert_int_equal(s->cost.bytes_moved->kind, FKCG_EXPR_MUL);
    assert_true(s->precision.bit_stable_on_same_hardware);
    assert_true(s->precision.audited);
    assert_string_equal(s->determinism, "bitwise");
    const fkcg_provider *pr = s->provider;
    assert_int_equal(pr->fkc_version, 1);
    assert_string_equal(pr->name, "fuel-vulkan-kernels");
    assert_string_equal(pr->link_registry, "fuel_vulkan_backend::fkc::ENTRY_POINTS");
    assert_string_equal(pr->revision_base, "git:f41137b4");
    assert_string_equal(pr->rel_file, SEED);
    const fkcg_section *r = t->sections[1];
    assert_int_equal(r->n_fields, 2);
    assert_string_equal(r->fields[1].name, "capacity");
    assert_string_equal(r->fields[1].kind, "usize");
}

/* ---- two shapes, one meaning ---- */
static void copy_matches_seed(fixture *f, const char *const *paths, size_t n)
{
    char *want = seed_bindings();
    assert_int_equal(load(f, paths, n), 0);
    assert_string_equal(f->diag, "");
    char *got = bindings_text(fkcg_run_table(f->run));
    assert_string_equal(got, want);
    free(got);
    free(want);
}

static void nested_copy_matches(void **state)
{
    const char *p[] = {"tests/fkcgen/seed/nested.md"};
    copy_matches_seed(*state, p, 1);
}

static void crlf_copy_matches(void **state)
{
    size_t n, m;
    char *seed = slurp(SEED, &n), *crlf = slurp("tests/fkcgen/seed/crlf.md", &m);
    size_t lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += seed[i] == '\n';
    assert_int_equal(m, n + lines); /* the copy is the seed with CR LF, byte for byte */
    assert_non_null(strstr(crlf, "---\r\nfkc_version: 1\r\n"));
    free(seed);
    free(crlf);
    const char *p[] = {"tests/fkcgen/seed/crlf.md"};
    copy_matches_seed(*state, p, 1);
}

static void bom_copy_matches(void **state)
{
    size_t n, m;
    char *seed = slurp(SEED, &n), *bom = slurp("tests/fkcgen/seed/bom.md", &m);
    assert_int_equal(m, n + 3);
    assert_memory_equal(bom, "\xEF\xBB\xBF", 3);
    assert_memory_equal(bom + 3, seed, n);
    free(seed);
    free(bom);
    const char *p[] = {"tests/fkcgen/seed/bom.md"};
    copy_matches_seed(*state, p, 1);
}

static void split_copy_matches(void **state)
{
    const char *p[] = {"tests/fkcgen/seed/split_b.md", "tests/fkcgen/seed/split_a.md"};
    copy_matches_seed(*state, p, 2);
    fixture *f = *state;
    assert_int_equal(fkcg_run_table(f->run)->n_providers, 2);
}

static char *replace(const char *s, const char *old, const char *new);

/* Fences indented by up to three spaces: cmark strips that much from each line, so do we,
 * and columns still point into the .md file. */
static void indented_fences_match(void **state)
{
    fixture *f = *state;
    char *seed = slurp(SEED, NULL);
    fkcg_buf b;
    fkcg_buf_init(&b);
    bool in = false;
    for (char *line = seed, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl)
            nl = line + strlen(line) - 1;
        bool fence = !strncmp(line, "```", 3);
        if (in || fence)
            fkcg_buf_puts(&b, "  ");
        fkcg_buf_put(&b, line, (size_t)(nl - line + 1));
        if (fence)
            in = !in;
    }
    char *want = seed_bindings();
    assert_int_equal(load_text(f, b.data), 0);
    char *got = bindings_text(fkcg_run_table(f->run));
    assert_string_equal(got, want);
    free(got);
    free(want);
    char *bad = replace(b.data, "  alignment_bytes: 16", "  alignment_bytes: 24");
    assert_int_equal(load_text(f, bad), 1);
    assert_non_null(strstr(f->diag, "mem.md:84:20: error: alignment_bytes must be a power of "
                                    "two from 1 to 65536, not 24\n"
                                    "  alignment_bytes: 24\n"
                                    "                   ^\n"));
    free(bad);
    fkcg_buf_free(&b);
    free(seed);
}

/* ---- revision hashes ---- */
static const char *first_hash(fixture *f, const char *text)
{
    assert_int_equal(load_text(f, text), 0);
    return fkcg_run_table(f->run)->sections[0]->revision_hash;
}

static char *replace(const char *s, const char *old, const char *new)
{
    const char *at = strstr(s, old);
    assert_non_null(at);
    size_t n = strlen(s) - strlen(old) + strlen(new);
    char *out = malloc(n + 1);
    sprintf(out, "%.*s%s%s", (int)(at - s), s, new, at + strlen(old));
    return out;
}

static void hash_follows_data_only(void **state)
{
    fixture *f = *state;
    char *seed = slurp(SEED, NULL);
    char base[33];
    strcpy(base, first_hash(f, seed));
    /* Formatting and comments: same hash. */
    char *t = replace(seed, "flops: \"0\"", "flops: 0 # no arithmetic");
    assert_string_equal(first_hash(f, t), base);
    free(t);
    t = replace(seed, "bytes_moved: \"2 * n * dtype_bytes\"", "bytes_moved: '2*n*dtype_bytes'");
    assert_string_equal(first_hash(f, t), base);
    free(t);
    t = replace(seed, "rank: any\n", "rank: any # any rank\n");
    assert_string_equal(first_hash(f, t), base);
    free(t);
    /* Number spelling: rank 01 is rank 1 (it was hashed as written); 0 and 00 agree too. */
    char rank1[33];
    t = replace(seed, "rank: any\n", "rank: 1\n");
    strcpy(rank1, first_hash(f, t));
    assert_string_not_equal(rank1, base);
    free(t);
    t = replace(seed, "rank: any\n", "rank: 01\n");
    assert_string_equal(first_hash(f, t), rank1);
    free(t);
    t = replace(seed, "rank: any\n", "rank: 0\n");
    strcpy(rank1, first_hash(f, t));
    free(t);
    t = replace(seed, "rank: any\n", "rank: 00\n");
    assert_string_equal(first_hash(f, t), rank1);
    free(t);
    /* Data: another hash. */
    t = replace(seed, "alignment_bytes: 16", "alignment_bytes: 32");
    assert_string_not_equal(first_hash(f, t), base);
    free(t);
    t = replace(seed, "blurb: \"Write a source", "blurb: \"Writes a source");
    assert_string_not_equal(first_hash(f, t), base);
    free(t);
    /* The provider's revision_base is folded in. */
    t = replace(seed, "git:f41137b4", "git:f41137b5");
    assert_string_not_equal(first_hash(f, t), base);
    free(t);
    /* An explicit hash is kept as written. */
    t = replace(seed, "kernel_revision_hash: auto",
                "kernel_revision_hash: "
                "0123456789abcdef0123456789abcdef");
    assert_string_equal(first_hash(f, t), "0123456789abcdef0123456789abcdef");
    free(t);
    free(seed);
}

/* ---- re-nesting ---- */
/* Walks every chain of mappings that can be open together in the flattened form (a mapping
 * opens its MAP / SEQMAP / FREEMAP children) and checks that no key of a mapping is a key of
 * one of its open ancestors: then "the innermost open mapping that admits the key" is the
 * only place the key can go. A free-form map admits only keys no ancestor admits (shape.c);
 * an entry written in block style (an empty-valued field, then its keys) opens, so the entry's
 * schema is walked too: its keys must be no ancestor's either. */
static size_t chains;

static void check_chain(const fkcg_schema **chain, size_t depth)
{
    const fkcg_schema *s = chain[depth - 1];
    chains++;
    for (size_t i = 0; i < s->n_keys && !s->freeform; i++)
        for (size_t a = 0; a + 1 < depth; a++) {
            if (fkcg_schema_key(chain[a], s->keys[i].name))
                fail_msg("key '%s' of %s is also a key of %s, open at the same time",
                         s->keys[i].name, s->path, chain[a]->path);
        }
    if (s->freeform && s->entry) {
        assert_true(depth < 16);
        chain[depth] = s->entry;
        check_chain(chain, depth + 1);
    }
    for (size_t i = 0; i < s->n_keys && !s->freeform; i++) {
        const fkcg_key *k = &s->keys[i];
        if (k->type == FT_MAP || k->type == FT_SEQMAP || k->type == FT_FREEMAP) {
            assert_true(depth < 16);
            chain[depth] = k->child;
            check_chain(chain, depth + 1);
        }
    }
}

static void renesting_is_unambiguous(void **state)
{
    (void)state;
    const fkcg_schema *chain[16];
    chains = 0;
    chain[0] = &fkcg_schema_front;
    check_chain(chain, 1);
    chain[0] = &fkcg_schema_section;
    check_chain(chain, 1);
    assert_true(chains >= 14); /* every mapping of the schema was reached */
}

/* A key the schema knows in two unrelated places goes where the open mapping says. */
static void renesting_places_keys_by_open_map(void **state)
{
    fixture *f = *state;
    char *seed = slurp(SEED, NULL);
    assert_int_equal(load_text(f, seed), 0);
    const fkcg_section *s = fkcg_run_table(f->run)->sections[0];
    /* `class` exists in caps.fast_paths[] and cost: each went to its own. */
    assert_string_equal(s->caps.fast_paths[0].cost_class, "cheap_elementwise");
    assert_string_equal(s->cost.cost_class, "cheap_elementwise");
    /* A field named after a contract key closes the free-form map: it is reported. */
    char *t = replace(seed, "offsets: {", "variant: {");
    assert_int_equal(load_text(f, t), 1);
    assert_non_null(strstr(f->diag, "duplicate key 'variant' in accept.op_params"));
    free(t);
    /* A field entry in block style (an empty-valued field, then its keys) opens the entry: the
     * same table as the one-line form. */
    char *flow = strdup(first_hash(f, seed));
    t = replace(seed,
                "offsets: { kind: \"Vec<usize>\", note: \"per-axis slab start offset in "
                "dst\" }",
                "offsets:\nkind: \"Vec<usize>\"\nnote: \"per-axis slab start "
                "offset in dst\"");
    assert_string_equal(first_hash(f, t), flow);
    free(t);
    /* The open entry is innermost: a field named `kind` after it goes into it. */
    t = replace(seed,
                "offsets: { kind: \"Vec<usize>\", note: \"per-axis slab start offset in "
                "dst\" }",
                "offsets:\nkind: \"Vec<usize>\"\nkind: { kind: usize }");
    assert_int_equal(load_text(f, t), 1);
    assert_non_null(strstr(f->diag, "duplicate key 'kind' in accept.op_params.fields"));
    free(t);
    free(flow);
    free(seed);
}

/* ---- docs ---- */
static void docs_are_current(void **state)
{
    (void)state;
    fkcg_buf b;
    fkcg_buf_init(&b);
    fkcg_schema_markdown(&b);
    char *doc = slurp("docs/contract-format.md", NULL);
    if (strcmp(doc, b.data) != 0)
        fail_msg("docs/contract-format.md is stale: run `make fkcgen-docs` and commit it");
    free(doc);
    fkcg_buf_free(&b);
}

static void schema_tables(void **state)
{
    (void)state;
    const fkcg_enum *dt = fkcg_enum_find("dtype");
    assert_non_null(dt);
    assert_true(fkcg_c_names_sorted()); /* binary search */
    static const char *const reserved[] = {
        "int",      "NULL",     "SIZE_MAX", "INT32_MAX", "UINT8_C",  "NAN",
        "INFINITY", "HUGE_VAL", "FP_NAN",   "bool",      "true",     "fkc_tensor",
        "FKC_OK",   "_x",       "__y",      "size_t",    "uint16_t", "math_errhandling"};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        assert_true(fkcg_c_name_reserved(reserved[i]));
    assert_false(fkcg_c_name_reserved("dst_shape"));
    assert_false(fkcg_c_name_reserved("Integer"));
    assert_int_equal(dt->count, FKCG_NDTYPES);
    for (int i = 0; i < FKCG_NDTYPES; i++) {
        assert_string_equal(dt->values[i], fkcg_dtypes[i].name);
        assert_int_equal(fkcg_enum_index(dt, fkcg_dtypes[i].name), i);
    }
    assert_int_equal(fkcg_enum_index(dt, "F128"), -1);
    assert_null(fkcg_enum_find("no_such_enum"));
    assert_int_equal(fkcg_enum_index(fkcg_enum_find("backend"), "Vulkan") >= 0, 1);
    const fkcg_enum *lr = fkcg_enum_find("layout_req");
    assert_int_equal(lr->count, 3);
    assert_string_equal(fkcg_layout_keys[FKCG_LAYOUT_BROADCAST_STRIDE0], "broadcast_stride0");
    assert_string_equal(fkcg_schema_suggest(&fkcg_schema_section, "kernal"), "kernel");
    assert_null(fkcg_schema_suggest(&fkcg_schema_section, "zzzzzzzz"));
}

/* ---- cost expressions ---- */
static void expressions(void **state)
{
    fixture *f = *state;
    static const struct {
        const char *src, *want;
    } ok[] = {
        {"0", "0"},
        {"2 * n * dtype_bytes", "((2 * n) * dtype_bytes)"},
        {"n + 2 * capacity", "(n + (2 * capacity))"},
        {"(n - 1) / 2", "((n - 1) / 2)"},
        {" ( ( n ) ) ", "n"},
        {"n - 1 - 2", "((n - 1) - 2)"},
    };
    fkcg_field fields[] = {{.name = "capacity", .kind = "usize", .def_index = -1},
                           {.name = "shape", .kind = "Vec<usize>", .def_index = -1}};
    fkcg_arena a = {0};
    FILE *sink = f->sink;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        fkcg_diag *d = fkcg_diag_new(sink);
        fkcg_loc at = {"x.md", 1, 1};
        fkcg_expr *e = fkcg_expr_parse(&a, d, ok[i].src, at, 0, fields, 2, NULL);
        assert_non_null(e);
        fkcg_buf b;
        fkcg_buf_init(&b);
        fkcg_expr_print(e, &b);
        assert_string_equal(b.data, ok[i].want);
        fkcg_buf_free(&b);
        fkcg_diag_free(d);
    }
    static const struct {
        const char *src;
        unsigned col;
    } bad[] = {
        {"", 1},  {"n +", 4},   {"2 * (n", 7},      {"n)", 2}, {"shape * 2", 1},
        {"m", 1}, {"n ^ 2", 3}, {"99999999999", 1}, {"-n", 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *s = open_memstream(&text, &len);
        fkcg_diag *d = fkcg_diag_new(s);
        fkcg_loc at = {"x.md", 7, 10};
        assert_null(fkcg_expr_parse(&a, d, bad[i].src, at, 1, fields, 2, NULL));
        assert_int_equal(fkcg_diag_errors(d), 1);
        fkcg_diag_free(d);
        fclose(s);
        char want[32];
        snprintf(want, sizeof want, "x.md:7:%u: error: ", 10 + 1 + bad[i].col - 1);
        if (strncmp(text, want, strlen(want)) != 0)
            fail_msg("'%s': expected '%s...', got '%s'", bad[i].src, want, text);
        free(text);
    }
    /* Deep nesting is refused, not recursed into. */
    char deep[400];
    memset(deep, '(', 200);
    strcpy(deep + 200, "n");
    memset(deep + 201, ')', 198);
    deep[399] = '\0';
    fkcg_diag *d = fkcg_diag_new(sink);
    fkcg_loc at = {"x.md", 1, 1};
    assert_null(fkcg_expr_parse(&a, d, deep, at, 0, fields, 2, NULL));
    fkcg_diag_free(d);
    /* A chain of FKCG_MAX_EXPR_OPS operators parses; one more is refused (a chain of
     * 100,000 terms overflowed the stack of the recursive printers). */
    static char chain[3 * 100000 + 2];
    static const size_t n_ops[] = {FKCG_MAX_EXPR_OPS, FKCG_MAX_EXPR_OPS + 1, 100000};
    for (size_t t = 0; t < sizeof n_ops / sizeof n_ops[0]; t++) {
        size_t ops = n_ops[t], k = 0;
        chain[k++] = 'n';
        for (size_t i = 0; i < ops; i++) {
            chain[k++] = i % 2 ? '*' : '+';
            chain[k++] = 'n';
        }
        chain[k] = '\0';
        d = fkcg_diag_new(sink);
        fkcg_expr *e = fkcg_expr_parse(&a, d, chain, at, 0, fields, 2, NULL);
        assert_true(ops == FKCG_MAX_EXPR_OPS ? e != NULL : e == NULL);
        fkcg_diag_free(d);
    }
    fkcg_arena_free(&a);
}

/* ---- I/O errors ---- */
static void io_errors(void **state)
{
    fixture *f = *state;
    const char *dir[] = {"tests/fkcgen"};
    assert_int_equal(load(f, dir, 1), 2);
    assert_string_equal(f->diag, "tests/fkcgen: error: is a directory; give the contract files "
                                 "(*.md) inside it\n");
    const char *missing[] = {"tests/fkcgen/no/such.md"};
    assert_int_equal(load(f, missing, 1), 2);
    assert_string_equal(f->diag, "tests/fkcgen/no/such.md: error: cannot open: No such file or "
                                 "directory\n");
    /* I/O errors win over contract errors in the exit status; both are reported. */
    const char *mixed[] = {"tests/fkcgen/cases/empty_file.md", "tests/fkcgen/no/such.md"};
    assert_int_equal(load(f, mixed, 2), 2);
    /* Errors of one file do not hide duplicates across the others. */
    const char *dups[] = {"tests/fkcgen/cases/bad_bool.md", SEED, "tests/fkcgen/seed/bom.md"};
    assert_int_equal(load(f, dups, 3), 1);
    assert_non_null(strstr(f->diag, "bad_bool.md:40:11: error: 'in_place' must be true or "
                                    "false, not 'yes'"));
    assert_non_null(strstr(f->diag, "duplicate kernel 'write_slice'"));
    assert_non_null(strstr(f->diag, "duplicate kernel 'write_slice_rotating'"));
    assert_int_equal(fkcg_run_table(f->run)->n_bindings, 0);
    /* One file given twice (by paths with one realpath) is read once and refused with one
     * message, not reported kernel by kernel as its own duplicate. */
    const char *twice[] = {SEED, "./" SEED, "contracts/../" SEED};
    assert_int_equal(load(f, twice, 3), 2);
    assert_string_equal(f->diag, "./" SEED ": error: the same file as '" SEED
                                 "', given before it; give each contract "
                                 "once\n"
                                 "contracts/../" SEED ": error: the same file as '" SEED
                                 "', given before it; give each "
                                 "contract once\n");
    /* Over the size cap: refused before parsing. */
    char path[] = "/tmp/fkcgen-big-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)FKCG_MAX_FILE_BYTES + 1), 0); /* sparse */
    close(fd);
    const char *p[] = {path};
    char want[160];
    snprintf(want, sizeof want,
             "%s: error: file is larger than the %u-byte limit for a "
             "contract; split it\n",
             path, FKCG_MAX_FILE_BYTES);
    assert_int_equal(load(f, p, 1), 1);
    assert_string_equal(f->diag, want);
    unlink(path);
    /* The same limit for bytes in memory (checked before they are touched). */
    char *big = malloc((size_t)FKCG_MAX_FILE_BYTES + 1);
    fkcg_run_free(f->run);
    f->run = fkcg_run_new(NULL, f->sink);
    assert_int_equal(fkcg_run_load_buffer(f->run, "big.md", big, (size_t)FKCG_MAX_FILE_BYTES + 1),
                     1);
    free(big);
    /* The cap bounds cmark's memory (~200 bytes per input byte for 1 MiB of '[': 200 MB;
     * 20 MB of it, under the old 64 MiB cap, took 3.8 GB): 2 MiB of '[' in the prose of the
     * seed is refused before it is parsed. */
    char *seed = slurp(SEED, NULL);
    size_t n = strlen(seed), fill = (size_t)2 << 20;
    char *brackets = malloc(n + fill + 2);
    char *body = strstr(seed + 4, "\n---\n") + 5;
    size_t head = (size_t)(body - seed);
    memcpy(brackets, seed, head);
    memset(brackets + head, '[', fill);
    brackets[head + fill] = '\n';
    strcpy(brackets + head + fill + 1, body);
    assert_int_equal(load_text(f, brackets), 1);
    assert_string_equal(f->diag, "mem.md: error: file is larger than the 1048576-byte limit for "
                                 "a contract; split it\n");
    free(brackets);
    free(seed);
    /* A file just under the limit but without front matter is read and rejected for that. */
    assert_int_equal(load_text(f, "# no front matter\n"), 1);
    assert_non_null(strstr(f->diag, "mem.md:1:1: error: missing front matter"));
}

/* Text from a contract is escaped in the JSON: quotes, backslashes, control characters. */
static void json_escapes(void **state)
{
    fixture *f = *state;
    char *seed = slurp(SEED, NULL);
    char *t = replace(seed,
                      "notes: \"exact byte-width slab write; no arithmetic, bit-identical "
                      "across any hardware.\"",
                      "notes: \"say \\\"hi\\\" \\\\ */ tab\\there\\nnew\\x01 é\"");
    assert_int_equal(load_text(f, t), 0);
    fkcg_buf out;
    fkcg_buf_init(&out);
    fkcg_dump_json(fkcg_run_table(f->run), &out);
    assert_non_null(strstr(out.data, "\"notes\": \"say \\\"hi\\\" \\\\ */ tab\\there\\nnew"
                                     "\\u0001 é\""));
    fkcg_buf_free(&out);
    free(t);
    free(seed);
}

/* Control characters from a contract or its path never reach the terminal raw: they are
 * printed as \xHH (C1 as \u00HH) in diagnostics. */
static void diag_escapes(void **state)
{
    fixture *f = *state;
    fkcg_run_free(f->run);
    f->run = fkcg_run_new(NULL, f->sink);
    const char *text = "# no front matter\n";
    long before = ftell(f->sink);
    assert_int_equal(fkcg_run_load_buffer(f->run, "a\x1b[2J\tb.md", text, strlen(text)), 1);
    fflush(f->sink);
    assert_string_equal(f->diag + before,
                        "a\\x1b[2J\\x09b.md:1:1: error: missing front matter: "
                        "a contract starts with a '---' line, the provider's keys, then another "
                        "'---' line (this file does not, so none of it is quoted)\n");
}

/* ---- the command line ---- */
/* Runs cmd through sh with $FKCGEN set to the binary under test (default build/fkcgen). */
static int sh(const char *cmd)
{
    if (!getenv("FKCGEN"))
        setenv("FKCGEN", "build/fkcgen", 1);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void command_line(void **state)
{
    (void)state;
    assert_int_equal(sh("$FKCGEN --help >/dev/null"), 0);
    assert_int_equal(sh("$FKCGEN --version | grep -qx 'fkcgen " FKCGEN_VERSION "'"), 0);
    assert_int_equal(sh("$FKCGEN 2>/dev/null"), 2);
    assert_int_equal(sh("$FKCGEN frobnicate 2>/dev/null"), 2);
    assert_int_equal(sh("$FKCGEN check 2>/dev/null"), 2);
    assert_int_equal(sh("$FKCGEN check --bogus " SEED " 2>/dev/null"), 2);
    assert_int_equal(sh("$FKCGEN dump " SEED " >/dev/null 2>&1"), 2);
    assert_int_equal(sh("$FKCGEN check " SEED), 0);
    assert_int_equal(sh("$FKCGEN check tests/fkcgen/cases/bad_bool.md 2>/dev/null"), 1);
    assert_int_equal(sh("$FKCGEN check tests/fkcgen 2>/dev/null"), 2);
    /* --root must name an existing directory (else the banner held an absolute path) */
    assert_int_equal(sh("$FKCGEN check --root /no/such/dir " SEED " 2>&1 | "
                        "grep -q \"^fkcgen: error: --root '/no/such/dir': No such file\""),
                     0);
    assert_int_equal(sh("$FKCGEN check --root /no/such/dir " SEED " 2>/dev/null"), 2);
    assert_int_equal(sh("$FKCGEN dump --json --root " SEED " " SEED " >/dev/null 2>&1"), 2);
    assert_int_equal(sh("$FKCGEN check --root / " SEED), 0);
    /* dump writes JSON on stdout only when clean; the 18 bindings are there. */
    assert_int_equal(sh("test $($FKCGEN dump --json " SEED " | grep -c '\"wrapper\"') = 18"), 0);
    assert_int_equal(sh("test -z \"$($FKCGEN dump --json tests/fkcgen/cases/bad_bool.md "
                        "2>/dev/null)\""),
                     0);
    assert_int_equal(sh("$FKCGEN schema --markdown | cmp -s - docs/contract-format.md"), 0);
    /* The JSON parses (python3 comes with deps.sh's python3-numpy: its absence is a failure,
     * not a reason to skip the check). */
    if (access("/usr/bin/python3", X_OK) != 0)
        fail_msg("/usr/bin/python3 is missing: run the deps step (it installs python3-numpy)");
    assert_int_equal(sh("$FKCGEN dump --json " SEED " | /usr/bin/python3 -c "
                        "'import json,sys; d=json.load(sys.stdin); "
                        "assert len(d[\"bindings\"])==18'"),
                     0);
    /* Every fact of every section reaches the JSON (docs/fkcgen.md lists the keys). */
    assert_int_equal(
        sh("$FKCGEN dump --json " SEED " | /usr/bin/python3 -c '"
           "import json,sys; d=json.load(sys.stdin)\n"
           "keys=[\"kernel\",\"op_kind\",\"dtypes\",\"backend\",\"kernel_source\","
           "\"entry_point\",\"symbol\",\"wrapper\",\"byte_width\",\"revision_hash\","
           "\"determinism\",\"caps\",\"cost\",\"precision\",\"blurb\",\"inputs\","
           "\"op_params\",\"outputs\",\"provider\",\"source\"]\n"
           "for b in d[\"bindings\"]:\n"
           " assert list(b)==keys, list(b)\n"
           " i=b[\"inputs\"][0]; assert list(i)==[\"name\",\"dtypes\",\"layout\",\"rank\","
           "\"shape_constraint\"]\n"
           " assert len(i[\"dtypes\"])==9 and i[\"layout\"][\"contiguous\"]==\"required\"\n"
           " assert len(i[\"layout\"])==5 and i[\"rank\"]==\"any\"\n"
           " o=b[\"outputs\"][0]; assert o==dict(name=\"out\",dtype_rule=\"passthrough(src)\","
           "shape_rule=\"from_params(dst_shape)\",layout_guarantee=\"contiguous\","
           "aliasing=\"none\"), o\n"
           " f=b[\"op_params\"][\"fields\"]; assert f[0][\"kind\"]==\"Vec<usize>\"\n"
           " assert b[\"op_params\"][\"variant\"]==b[\"op_kind\"]\n"
           " p=d[\"providers\"][b[\"provider\"]]\n"
           " assert p[\"kernel_source\"]==b[\"kernel_source\"]==\"vulkan-slang\"\n"
           "'"),
        0);
}

/* An unreadable contract (permission denied) is an I/O error: exit 2 and a clear message.
 * root reads any file, so as root fkcgen runs as nobody through setpriv; without setpriv, or
 * when nobody cannot reach fkcgen, the test is skipped, never passed. */
/* A contract path that is a symbolic link is refused, whatever it names (a link added by a
 * change could name a credentials file: its first line was quoted in the error); a file that
 * does not open as a contract ('---') is refused without a byte of it in the message, even
 * when a later line holds what load's checks would quote (a NUL, a control character). Both
 * for check and gen, which writes nothing (issue 26 item 6). */
static void symlink_and_non_contract(void **state)
{
    (void)state;
    char dir[] = "/tmp/fkcgen-link-XXXXXX", cmd[2048];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "cd %s && printf 'aws_secret_access_key=SECRET1\\nline two SECRET2\\001\\n' > creds "
             "&& ln -s creds link.md && ln -s %s/" SEED " seed_link.md && cp creds plain.md && "
             "printf '\\357\\273\\277key: SECRET3\\000\\n' > bom.md",
             dir, getenv("PWD") ? getenv("PWD") : ".");
    assert_int_equal(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "$FKCGEN check %s/link.md %s/seed_link.md > %s/out 2>&1", dir, dir,
             dir);
    assert_int_equal(sh(cmd), 2);
    snprintf(cmd, sizeof cmd,
             "grep -qx '%s/link.md: error: is a symbolic link; fkcgen reads no contract through "
             "a link, which may name any file: give the contract file itself' %s/out && "
             "grep -q '^%s/seed_link.md: error: is a symbolic link' %s/out && "
             "! grep -q SECRET %s/out",
             dir, dir, dir, dir, dir);
    assert_int_equal(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "$FKCGEN gen --out-dir %s/o %s/link.md > %s/out 2>&1", dir, dir, dir);
    assert_int_equal(sh(cmd), 2);
    snprintf(cmd, sizeof cmd, "! grep -q SECRET %s/out && test ! -e %s/o", dir, dir);
    assert_int_equal(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "$FKCGEN check %s/plain.md %s/bom.md > %s/out 2>&1", dir, dir, dir);
    assert_int_equal(sh(cmd), 1);
    snprintf(cmd, sizeof cmd,
             "test $(grep -c 'error: missing front matter' %s/out) = 2 && test $(wc -l < %s/out) "
             "= 2 && ! grep -q SECRET %s/out",
             dir, dir, dir);
    assert_int_equal(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
}

static void unreadable_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/fkcgen-perm-XXXXXX", path[64], cmd[1024];
    char *bin = realpath(getenv("FKCGEN") ? getenv("FKCGEN") : "build/fkcgen", NULL);
    assert_non_null(bin);
    assert_non_null(mkdtemp(dir));
    assert_int_equal(chmod(dir, 0755), 0);
    snprintf(path, sizeof path, "%s/locked.md", dir);
    snprintf(cmd, sizeof cmd, "cp " SEED " %s && chmod 000 %s", path, path);
    assert_int_equal(sh(cmd), 0);
    const char *as = "";
    bool skipped = false;
    if (geteuid() == 0) {
        as = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
        snprintf(cmd, sizeof cmd, "command -v setpriv >/dev/null && %s%s --version >/dev/null", as,
                 bin);
        skipped = sh(cmd) != 0;
    }
    int rc = -1;
    if (!skipped) {
        snprintf(cmd, sizeof cmd,
                 "%s%s check %s 2>&1 | grep -qx '%s: error: cannot open: "
                 "Permission denied'",
                 as, bin, path, path);
        assert_int_equal(sh(cmd), 0);
        snprintf(cmd, sizeof cmd, "%s%s check %s 2>/dev/null", as, bin, path);
        rc = sh(cmd);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
    free(bin);
    if (skipped) {
        print_message("skipped: running as root, and setpriv cannot run fkcgen as nobody\n");
        skip();
    }
    assert_int_equal(rc, 2);
}

/* A message quoting a line of a file whose text was dropped reads the line again; when the
 * file has become a FIFO meanwhile it is opened without blocking and not quoted (an alarm
 * fails the test if it blocks). */
static void diag_reread_fifo(void **state)
{
    (void)state;
    char dir[] = "/tmp/fkcgen-fifo-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/x.md", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&text, &len);
    fkcg_diag *d = fkcg_diag_new(s);
    fkcg_diag_source(d, path, "a\nb\n", 4);
    fkcg_diag_drop_source(d, path);
    fkcg_loc at = {path, 2, 1};
    alarm(20);
    fkcg_error(d, &at, "boom");
    alarm(0);
    fkcg_diag_free(d);
    fclose(s);
    char want[128];
    snprintf(want, sizeof want, "%s:2:1: error: boom\n", path);
    assert_string_equal(text, want);
    free(text);
    unlink(path);
    rmdir(dir);
}

/* One error line of ~1 MiB with an error every 1,000 columns (the cap's 50 shown): each quote
 * is a window of FKCG_QUOTE_COLUMNS around its caret, so the output stays small (it was 50
 * copies of the line, 51 MB, written byte by byte: 81 s), and every caret stands under the
 * value it points at. */
static void long_error_line(void **state)
{
    fixture *f = *state;
    char *seed = slurp(SEED, NULL);
    char *at = strstr(seed, "dtypes: [") + strlen("dtypes: [");
    size_t head = (size_t)(at - seed), items = 1000, pad = 1000;
    char *text = malloc(strlen(seed) + items * (pad + 8) + 1), *p = text;
    memcpy(p, seed, head);
    p += head;
    for (size_t i = 0; i < items; i++)
        p += sprintf(p, "Q%zu,%*s", i, (int)pad, "");
    strcpy(p, at);
    assert_true(strlen(text) > (size_t)1000000 && strlen(text) < FKCG_MAX_FILE_BYTES);
    assert_int_equal(load_text(f, text), 1);
    assert_true(f->diag_len < 32 * 1024);
    size_t messages = 0;
    for (const char *m = f->diag; (m = strstr(m, ": error: dtype: unknown value 'Q")); m++) {
        const char *quote = strchr(m, '\n') + 1, *caret = strchr(quote, '\n') + 1;
        const char *hat = strchr(caret, '^');
        assert_true((size_t)(caret - quote) <= FKCG_QUOTE_COLUMNS + 8);
        assert_int_equal(quote[hat - caret], 'Q');
        messages++;
    }
    assert_int_equal(messages, FKCG_MAX_ERRORS);
    assert_non_null(strstr(f->diag, "\n...                                                      "
                                    "      Q1,         "));
    free(text);
    free(seed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(seed_gives_18_bindings, setup, teardown),
        cmocka_unit_test_setup_teardown(seed_model_is_complete, setup, teardown),
        cmocka_unit_test_setup_teardown(nested_copy_matches, setup, teardown),
        cmocka_unit_test_setup_teardown(crlf_copy_matches, setup, teardown),
        cmocka_unit_test_setup_teardown(bom_copy_matches, setup, teardown),
        cmocka_unit_test_setup_teardown(split_copy_matches, setup, teardown),
        cmocka_unit_test_setup_teardown(indented_fences_match, setup, teardown),
        cmocka_unit_test_setup_teardown(hash_follows_data_only, setup, teardown),
        cmocka_unit_test(renesting_is_unambiguous),
        cmocka_unit_test_setup_teardown(renesting_places_keys_by_open_map, setup, teardown),
        cmocka_unit_test(docs_are_current),
        cmocka_unit_test(schema_tables),
        cmocka_unit_test_setup_teardown(expressions, setup, teardown),
        cmocka_unit_test_setup_teardown(io_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(json_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(diag_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(long_error_line, setup, teardown),
        cmocka_unit_test(diag_reread_fifo),
        cmocka_unit_test(command_line),
        cmocka_unit_test(unreadable_file),
        cmocka_unit_test(symlink_and_non_contract),
    };
    return cmocka_run_group_tests_name("fkcgen front end", tests, NULL, NULL);
}
