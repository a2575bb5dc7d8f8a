/* test_emit.c — the C emitter on hand-built binding tables (no contract parsing): golden
 * text for the seed, identical bytes on every run, the identifier and value checks that
 * guard the output, escaping of hostile strings, and the unified diff of --check.
 * Usage: test_emit DIR (DIR holds golden/; FKCG_UPDATE_GOLDEN=1 rewrites the golden files). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>
#include <regex.h>
#include <stdbool.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <xxhash.h>

#include "back.h"
#include "fkcgen.h"
#include "injection_strings.h"
#include "seed_table.h"
#include "golden.h"

static const char *test_dir = "tests/gen";
static const char *locale_dir = "build/locale"; /* holds de_DE.UTF-8 (localedef; gen.mk) */

static void emit(const fkcg_table *t, fkcg_buf *h, fkcg_buf *c)
{
    fkcg_buf_init(h);
    fkcg_buf_init(c);
    fkcg_emit_c(t, h, c);
}

static void test_seed_golden(void **state)
{
    (void)state;
    fkcg_buf h, c;
    assert_int_equal(fkcg_emit_c_check(seed_table(), stderr), 0);
    emit(seed_table(), &h, &c);
    assert_golden(test_dir, "seed_table.h", &h);
    assert_golden(test_dir, "seed_table.c", &c);
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
}

/* A draining buffer's sink: collects what it is handed. */
static void collect(void *ctx, const char *p, size_t n)
{
    fkcg_buf_put(ctx, p, n);
}

/* FKCG_PAIR_HASH_MACRO under the default prefix (fkc). */
#define PAIR_MACRO "FKC_BINDINGS_PAIR_HASH"

/* The pair hash: the header defines XXH3-64 of its own text without that line, the source
 * checks that value after including it; the same when the header streams through a small
 * draining buffer (as gen writes it) as when it is built whole. */
static void test_pair_hash(void **state)
{
    (void)state;
    fkcg_buf h, c, hs, cs, got;
    emit(seed_table(), &h, &c);
    fkcg_buf_init(&hs);
    fkcg_buf_init(&cs);
    fkcg_buf_init(&got);
    fkcg_buf_drain_to(&hs, collect, &got, 64);
    fkcg_emit_c(seed_table(), &hs, &cs);
    fkcg_buf_drain_all(&hs);
    assert_int_equal(got.len, h.len);
    assert_memory_equal(got.data, h.data, h.len);
    assert_int_equal(cs.len, c.len);
    assert_memory_equal(cs.data, c.data, c.len);
    const char *line = strstr(h.data, "\n#define " PAIR_MACRO " 0x");
    assert_non_null(line);
    line++;
    const char *end = strchr(line, '\n') + 1;
    XXH3_state_t *st = XXH3_createState();
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, h.data, (size_t)(line - h.data));
    XXH3_64bits_update(st, end, h.len - (size_t)(end - h.data));
    char want[128];
    snprintf(want, sizeof want, "#define " PAIR_MACRO " 0x%016llxu\n",
             (unsigned long long)XXH3_64bits_digest(st));
    XXH3_freeState(st);
    assert_int_equal((size_t)(end - line), strlen(want));
    assert_memory_equal(line, want, strlen(want));
    snprintf(want, sizeof want, "#if !defined(" PAIR_MACRO ") || " PAIR_MACRO " != %.*s\n#error \"",
             (int)(end - line - 1 - strlen("#define " PAIR_MACRO " ")),
             line + strlen("#define " PAIR_MACRO " "));
    assert_non_null(strstr(c.data, want));
    /* the contracts' text hashes are in the source's banner, not the header's */
    assert_null(strstr(h.data, "xxh3-128"));
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
    fkcg_buf_free(&hs);
    fkcg_buf_free(&cs);
    fkcg_buf_free(&got);
}

/* ---- checks ---- */

/* A mutable copy of the seed table's first section, bound alone (9 bindings). */
typedef struct one {
    fkcg_section s;
    fkcg_input in;
    fkcg_output out;
    fkcg_field f[2];
    fkcg_provider pr;
    const fkcg_section *sp[1];
    const fkcg_provider *pp[1];
    fkcg_binding b[9];
    fkcg_table t;
} one;

static one *one_new(void)
{
    const fkcg_table *seed = seed_table();
    one *o = calloc(1, sizeof *o);
    o->s = *seed->sections[0];
    o->in = o->s.inputs[0];
    o->out = o->s.outputs[0];
    memcpy(o->f, o->s.fields, sizeof o->f);
    o->pr = *seed->providers[0];
    o->s.inputs = &o->in;
    o->s.outputs = &o->out;
    o->s.fields = o->f;
    o->s.provider = &o->pr;
    o->sp[0] = &o->s;
    o->pp[0] = &o->pr;
    for (int i = 0; i < 9; i++) {
        o->b[i] = seed->bindings[i];
        o->b[i].section = &o->s;
    }
    o->t = (fkcg_table){.providers = o->pp,
                        .n_providers = 1,
                        .sections = o->sp,
                        .n_sections = 1,
                        .bindings = o->b,
                        .n_bindings = 9};
    return o;
}

/* Runs the check on o, returns the diagnostics (caller frees) and the error count. */
static char *check_text(one *o, size_t *errors)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    *errors = fkcg_emit_c_check(&o->t, f);
    fclose(f);
    return text;
}

static void expect_rejected(one *o, const char *needle)
{
    size_t errors;
    char *text = check_text(o, &errors);
    if (!strstr(text, needle))
        fprintf(stderr, "diagnostics were:\n%s", text);
    assert_true(errors > 0);
    assert_non_null(strstr(text, needle));
    free(text);
    free(o);
}

static void test_check_accepts_seed(void **state)
{
    (void)state;
    one *o = one_new();
    size_t errors;
    char *text = check_text(o, &errors);
    assert_int_equal(errors, 0);
    assert_string_equal(text, "");
    free(text);
    free(o);
}

static void test_bad_entry_point_rejected(void **state)
{
    (void)state;
    /* "a::int" and a 64-byte segment too: the front end's rule (fkcg_is_c_path). */
    static const char *const bad[] = {
        "a::b c",
        "a::",
        "::a",
        "a:::b",
        "1a::b",
        "",
        "x\"); system(\"rm -rf /\"); (\"",
        "a::b-c",
        "a::b::",
        "a::int",
        "a::k123456789012345678901234567890123456789012345678901234567890123"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        one *o = one_new();
        o->s.entry_point = bad[i];
        expect_rejected(o, "contracts/vulkan/write_slice.md:53:1: error: entry_point '");
    }
}

/* A kernel of the runtime (fkc/fkc_kernels.h) bound to another op kind or backend: its
 * wrappers would be the runtime's, for another signature. */
static void test_runtime_kernel_elsewhere_rejected(void **state)
{
    (void)state;
    one *o = one_new();
    o->s.op_kind = "Copy";
    expect_rejected(o, "write_slice.md:53:1: error: kernel 'write_slice' is a kernel of the fkc "
                       "runtime, which implements it for another op kind or backend");
    o = one_new();
    o->s.backend = "Cuda";
    expect_rejected(o, "error: kernel 'write_slice' is a kernel of the fkc runtime");
}

static void test_bad_identifiers_rejected(void **state)
{
    (void)state;
    one *o = one_new();
    o->s.kernel = "int";
    expect_rejected(o, "error: kernel 'int' is not usable as a C name");
    o = one_new();
    o->s.kernel = "a-b";
    expect_rejected(o, "error: kernel 'a-b'");
    /* Back-end messages go through diag.c: a control byte of a value is escaped, never
     * written to the terminal as it is. */
    o = one_new();
    o->s.kernel = "a\033[2Jb";
    expect_rejected(o, "error: kernel 'a\\x1b[2Jb' is not usable as a C name");
    o = one_new();
    o->s.kernel = "_Hidden";
    expect_rejected(o, "error: kernel '_Hidden'");
    o = one_new();
    o->s.op_kind = "Write Slice";
    expect_rejected(o, "error: op_kind 'Write Slice'");
    /* The front end's rules, asserted again by the back end through the same predicates:
     * a name of 64 bytes (FKCG_IDENT_MAX is 63) and an op kind not in UpperCamelCase. */
    o = one_new();
    o->s.kernel = "k123456789012345678901234567890123456789012345678901234567890123";
    expect_rejected(o, "is not usable as a C name (letters, digits and _, not starting with "
                       "a digit or _, at most 63 bytes");
    o = one_new();
    o->s.op_kind = "write_slice_op";
    expect_rejected(o, "error: op_kind 'write_slice_op' is not an op kind name (UpperCamelCase");
    o = one_new();
    o->in.name = "params";
    expect_rejected(o, "write_slice.md:63:3: error: tensor name 'params'");
    o = one_new();
    o->out.name = "src";
    expect_rejected(o, "error: tensor name 'src' is used twice");
    o = one_new();
    o->f[1].name = "dst_shape_len";
    o->f[1].kind = "usize";
    expect_rejected(o, "error: op_params field 'dst_shape_len' clashes");
    o = one_new();
    o->f[1].kind = "Vec<String>";
    expect_rejected(o, "error: op_params field kind 'Vec<String>' has no C type");
    /* The schema's field kinds, not a wider list (u8 and Vec<f32> the schema refuses). */
    o = one_new();
    o->f[1].kind = "u8";
    expect_rejected(o, "error: op_params field kind 'u8' has no C type");
    o = one_new();
    o->f[1].kind = "Vec<f32>";
    expect_rejected(o, "error: op_params field kind 'Vec<f32>' has no C type");
    o = one_new();
    o->f[0].name = "x */ y";
    expect_rejected(o, "error: op_params field 'x */ y'");
    o = one_new();
    o->s.determinism = "sometimes";
    expect_rejected(o, "error: determinism 'sometimes' is not a value of the schema");
    o = one_new();
    o->b[4].symbol = o->b[3].symbol;
    expect_rejected(o, "is bound twice in the link registry");
    /* Names of the headers the generated code includes, and op kinds whose C names clash
     * with keywords or the emitter's own names (QA: gen wrote C that did not compile). */
    static const char *const reserved[] = {"NULL",     "SIZE_MAX", "INT32_MAX",  "NAN", "INFINITY",
                                           "HUGE_VAL", "FP_NAN",   "fkc_tensor", "bool"};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
        o = one_new();
        o->f[0].name = reserved[i];
        expect_rejected(o, "error: op_params field '");
        o = one_new();
        o->in.name = reserved[i];
        expect_rejected(o, "error: tensor name '");
    }
    static const char *const ops[] = {"Int", "Bool", "Switch", "KindCount", "Cost"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        o = one_new();
        o->s.op_kind = ops[i];
        expect_rejected(o, "has a C name that is a C keyword");
    }
    /* A cost tree deeper than the front end's 64 operators. */
    static fkcg_expr chain[70];
    chain[0] = (fkcg_expr){.kind = FKCG_EXPR_N};
    for (int i = 1; i < 70; i++)
        chain[i] = (fkcg_expr){.kind = FKCG_EXPR_ADD, .lhs = &chain[i - 1], .rhs = &chain[0]};
    o = one_new();
    o->s.cost.flops = &chain[69];
    expect_rejected(o, "is nested too deeply");
}

/* Compiles o's generated source with cc (-Iruntime/include, from the repo's root) in a fresh
 * directory: the compiler's exit status, its messages in *err (caller frees). */
static int compile_emitted(one *o, const char *cc, char **err)
{
    char dir[] = "/tmp/fkcg_emit_XXXXXX", path[256], cmd[1024];
    assert_non_null(mkdtemp(dir));
    fkcg_buf h, c;
    emit(&o->t, &h, &c);
    const fkcg_buf *files[2] = {&h, &c};
    const char *names[2] = {FKCG_EMIT_HEADER, FKCG_EMIT_SOURCE};
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(files[k]->data, 1, files[k]->len, f), files[k]->len);
        assert_int_equal(fclose(f), 0);
    }
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
    snprintf(cmd, sizeof cmd, "%s -std=c11 -Iruntime/include -c %s/%s -o %s/x.o 2> %s/err", cc, dir,
             FKCG_EMIT_SOURCE, dir, dir);
    int rc = system(cmd);
    size_t n;
    snprintf(path, sizeof path, "%s/err", dir);
    *err = read_all(path, &n);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    return rc;
}

/* The params of an op kind the runtime implements, stated otherwise by a contract (a field
 * renamed, of another kind, out of order): the compiler stops at fkcgen's own message naming
 * the field and the runtime's fields, never first at a `no member named` or `_Generic` error. */
static void test_runtime_params_mismatch_message(void **state)
{
    (void)state;
    static const char runtime[] = "; the fkc runtime has dst_shape: Vec<usize>, "
                                  "offsets: Vec<usize>";
    static const struct {
        const char *name, *kind;
        bool swap;
        const char *want;
    } cases[] = {
        {NULL, NULL, false, NULL}, /* as the runtime has them: compiles */
        {"offsetz", NULL, false, "WriteSlice: the contract states no field offsets"},
        {NULL, "Vec<i64>", false, "WriteSlice: the contract states another kind for field offsets"},
        {NULL, NULL, true, "WriteSlice: the params of the fkc runtime differ in field dst_shape"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (const char *cc = "gcc"; cc; cc = strcmp(cc, "gcc") ? NULL : "clang") {
            one *o = one_new();
            if (cases[i].name)
                o->f[1].name = cases[i].name;
            if (cases[i].kind)
                o->f[1].kind = cases[i].kind;
            if (cases[i].swap) {
                fkcg_field f = o->f[0];
                o->f[0] = o->f[1];
                o->f[1] = f;
            }
            char *err;
            int rc = compile_emitted(o, cc, &err);
            if (!cases[i].want) {
                if (rc != 0)
                    fprintf(stderr, "%s:\n%s", cc, err);
                assert_int_equal(rc, 0);
            } else {
                char want[256];
                snprintf(want, sizeof want, "%s%s", cases[i].want, runtime);
                /* the first error is fkcgen's, and the compiler reports none of its own */
                const char *first = strstr(err, "error");
                const char *eol = first ? strchr(first, '\n') : NULL;
                bool ok = first && eol && strstr(first, want) && strstr(first, want) < eol &&
                          !strstr(err, "no member named") && !strstr(err, "not compatible");
                if (!ok)
                    fprintf(stderr, "%s, case %zu:\n%s", cc, i, err);
                assert_int_not_equal(rc, 0);
                assert_true(ok);
            }
            free(err);
            free(o);
        }
}

static void test_cost_field_must_be_integer_scalar(void **state)
{
    (void)state;
    one *o = one_new();
    static fkcg_expr field = {.kind = FKCG_EXPR_FIELD, .field = "dst_shape"};
    o->s.cost.bytes_moved = &field;
    expect_rejected(o, "error: cost expression variable 'dst_shape' is not an integer scalar");
}

static void test_empty_table_rejected(void **state)
{
    (void)state;
    one *o = one_new();
    o->t.n_bindings = 0;
    o->t.n_sections = 0;
    expect_rejected(o, "bind no kernel");
}

/* ---- escaping ---- */

static void test_hostile_strings_are_escaped(void **state)
{
    (void)state;
    one *o = one_new();
    o->s.blurb = INJ_BLURB;
    o->s.precision.notes = INJ_NOTES;
    o->s.kernel_source = INJ_SOURCE;
    o->pr.rel_file = INJ_FILE;
    fkcg_buf h, c;
    size_t errors;
    free(check_text(o, &errors));
    assert_int_equal(errors, 0);
    emit(&o->t, &h, &c);
    assert_non_null(strstr(c.data, "\"say \\\"hi\\\" */ int evil(void); /* \\\\ back\\\\slash\\n"
                                   "new line \\?\\?/ \\?\\?= \\?\\?' caf\\303\\251 \\011 tab\""));
    assert_non_null(strstr(c.data, "\"vulkan-\\\"slang\\\"\\\\*/\""));
    /* in comments the file name is defused */
    assert_non_null(strstr(h.data, " *   contracts/odd * / name ? ?/.md\n"));
    assert_null(strstr(h.data, "odd */"));
    /* no raw newline, quote or trigraph from a contract string in any output line */
    assert_null(strstr(c.data, "??"));
    assert_null(strstr(h.data, "??"));
    assert_null(strstr(c.data, "\nnew line"));
    assert_null(strstr(c.data, "\n#include <stdlib.h>"));
    for (size_t i = 0; i < c.len; i++)
        assert_true((unsigned char)c.data[i] < 0x80);
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
    free(o);
}

/* Two providers with different link registries: the names are sorted and each link entry
 * points at its own provider's registry. */
static void test_two_link_registries(void **state)
{
    (void)state;
    const fkcg_table *seed = seed_table();
    static fkcg_provider pr[2];
    static fkcg_section sec[2];
    static const fkcg_section *sp[2];
    static const fkcg_provider *pp[2];
    static fkcg_binding b[18];
    for (int k = 0; k < 2; k++) {
        pr[k] = *seed->providers[0];
        sec[k] = *seed->sections[k];
        sec[k].provider = &pr[k];
        sp[k] = &sec[k];
        pp[k] = &pr[k];
    }
    pr[1].link_registry = "a::REG";
    pr[1].rel_file = "contracts/b.md";
    for (int i = 0; i < 18; i++) {
        b[i] = seed->bindings[i];
        b[i].section = &sec[i / 9];
    }
    fkcg_table t = {.providers = pp,
                    .n_providers = 2,
                    .sections = sp,
                    .n_sections = 2,
                    .bindings = b,
                    .n_bindings = 18};
    fkcg_buf h, c;
    assert_int_equal(fkcg_emit_c_check(&t, stderr), 0);
    emit(&t, &h, &c);
    assert_non_null(strstr(h.data, "#define FKC_LINK_REGISTRY_COUNT 2\n"));
    assert_non_null(strstr(
        c.data, "= {\n    \"a::REG\",\n    \"fuel_vulkan_backend::fkc::ENTRY_POINTS\",\n};"));
    assert_non_null(strstr(c.data, "    {FKC_SYMBOL_1(bf16), 0, &fkc_bindings[13]},\n"));
    assert_non_null(strstr(c.data, "    {FKC_SYMBOL_0(bf16), 1, &fkc_bindings[4]},\n"));
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
}

/* Doubles: the shortest text that reads back exactly, always a double literal. */
static void test_doubles(void **state)
{
    (void)state;
    static const struct {
        double v;
        const char *text;
    } cases[] = {
        {0.0, "0.0"},
        {1.0, "1.0"},
        {0.25, "0.25"},
        {1e-6, "1e-06"},
        {0.1, "0.1"},
        {3e20, "3e+20"},
        {1.0 / 3.0, "0.3333333333333333"},
        {-2.5, "-2.5"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        one *o = one_new();
        o->s.precision.max_relative = cases[i].v;
        fkcg_buf h, c;
        emit(&o->t, &h, &c);
        char want[96];
        snprintf(want, sizeof want, "{true, UINT64_C(0), %s, 0.0, true, ", cases[i].text);
        if (!strstr(c.data, want))
            fprintf(stderr, "missing: %s\n", want);
        assert_non_null(strstr(c.data, want));
        fkcg_buf_free(&h);
        fkcg_buf_free(&c);
        free(o);
    }
}

/* Every integer goes into its typed field with its type: max_ulp (uint64_t) through UINT64_C
 * at 0, 1, 2^31, 2^32, 2^63 and 2^64-1 (a bare 2^63 is "so large that it is unsigned", issue
 * 26), the uint32_t fields with a u suffix. */
static void test_integer_literals(void **state)
{
    (void)state;
    static const uint64_t ulps[] = {0, 1, 1ull << 31, 1ull << 32, 1ull << 63, UINT64_MAX};
    for (size_t i = 0; i < sizeof ulps / sizeof ulps[0]; i++) {
        one *o = one_new();
        o->s.precision.max_ulp = ulps[i];
        fkcg_buf h, c;
        emit(&o->t, &h, &c);
        char want[96];
        snprintf(want, sizeof want, "{true, UINT64_C(%llu), 0.0, 0.0, true, ",
                 (unsigned long long)ulps[i]);
        assert_non_null(strstr(c.data, want));
        assert_non_null(strstr(c.data, ", false, 16u, 32u},"));
        fkcg_buf_free(&h);
        fkcg_buf_free(&c);
        free(o);
    }
}

/* A fractional max_ulp (issue 22: 2.5) goes into the table rounded up to whole ulps, a bound
 * that still holds: 0.5 -> 1, 2.5 -> 3, 2.000000001 -> 3, (2^64-2).5 -> 2^64-1; a whole one
 * stays as it is. */
static void test_fractional_ulp_rounds_up(void **state)
{
    (void)state;
    static const struct {
        uint64_t whole;
        uint32_t frac;
        uint64_t want;
    } cases[] = {{0, 500000000u, 1},
                 {2, 500000000u, 3},
                 {2, 1u, 3},
                 {7, 0, 7},
                 {UINT64_MAX - 1, 500000000u, UINT64_MAX}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        one *o = one_new();
        o->s.precision.max_ulp = cases[i].whole;
        o->s.precision.max_ulp_frac = cases[i].frac;
        fkcg_buf h, c;
        emit(&o->t, &h, &c);
        char want[96];
        snprintf(want, sizeof want, "{true, UINT64_C(%llu), 0.0, 0.0, true, ",
                 (unsigned long long)cases[i].want);
        assert_non_null(strstr(c.data, want));
        fkcg_buf_free(&h);
        fkcg_buf_free(&c);
        free(o);
    }
}

/* The seed's header and source, then those of a section whose precision has doubles that
 * need digits (1/3, 1e-06, 0.1): a locale whose decimal point is ',' must not change them. */
static void emit_all(fkcg_buf *all)
{
    fkcg_buf h, c;
    fkcg_buf_init(all);
    emit(seed_table(), &h, &c);
    fkcg_buf_put(all, h.data, h.len);
    fkcg_buf_put(all, c.data, c.len);
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
    one *o = one_new();
    o->s.precision.max_relative = 1.0 / 3.0;
    o->s.precision.max_absolute = 1e-6;
    o->s.precision.max_ulp = 1;
    emit(&o->t, &h, &c);
    fkcg_buf_put(all, h.data, h.len);
    fkcg_buf_put(all, c.data, c.len);
    assert_non_null(strstr(c.data, "0.3333333333333333, 1e-06"));
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
    free(o);
}

/* The child of test_same_bytes_every_run: sets the locale and time zone its environment
 * names (as a program embedding the emitter might), emits the seed and writes header and source
 * to stdout. Exit 3 when the locale is not the one asked for: the test must not pass vacuously. */
static int emit_seed_child(void)
{
    const char *want = getenv("FKCG_TEST_DECIMAL_POINT");
    if (!setlocale(LC_ALL, "") || (want && strcmp(localeconv()->decimal_point, want) != 0))
        return 3;
    tzset();
    fkcg_buf all;
    emit_all(&all);
    fwrite(all.data, 1, all.len, stdout);
    fkcg_buf_free(&all);
    return fflush(stdout) == 0 ? 0 : 1;
}

/* Runs this program as emit_seed_child with env (NULL-ended) added; its output in *out. */
static void emit_in_process(char *const *env, fkcg_buf *out)
{
    char path[512];
    snprintf(path, sizeof path, "%s/emit_seed.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd, 1);
        for (char *const *e = env; *e; e++) {
            char *eq = strchr(*e, '=');
            *eq = '\0';
            setenv(*e, eq + 1, 1);
        }
        char *argv[] = {"test_emit", "--emit-seed", NULL};
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    close(fd);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the emitting child (%s ...) exited %d: 3 is a missing locale (build/locale "
                 "is made by localedef)",
                 env[0], WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    size_t n;
    char *text = read_all(path, &n);
    unlink(path);
    assert_non_null(text);
    fkcg_buf_init(out);
    fkcg_buf_put(out, text, n);
    free(text);
}

/* Matches the POSIX extended regex re anywhere in text? */
static bool matches(const char *text, const char *re)
{
    regex_t r;
    assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NOSUB | REG_NEWLINE), 0);
    bool m = regexec(&r, text, 0, NULL, 0) == 0;
    regfree(&r);
    return m;
}

/* Identical bytes from two processes in different locales (one whose decimal point is ',')
 * and time zones (one 12:45 ahead of UTC), equal to this process's; and nothing that looks
 * like a date or a time of day in them, so no build time can creep in. */
static void test_same_bytes_every_run(void **state)
{
    (void)state;
    static char loc_c[] = "LC_ALL=C", tz_utc[] = "TZ=UTC", dot[] = "FKCG_TEST_DECIMAL_POINT=.";
    static char loc_de[] = "LC_ALL=de_DE.UTF-8", tz_far[] = "TZ=XYZ-12:45",
                comma[] = "FKCG_TEST_DECIMAL_POINT=,", locpath[600];
    snprintf(locpath, sizeof locpath, "LOCPATH=%s", locale_dir);
    char *env1[] = {loc_c, tz_utc, dot, NULL}, *env2[] = {loc_de, tz_far, comma, locpath, NULL};
    fkcg_buf one, two, here, h, c;
    emit_in_process(env1, &one);
    emit_in_process(env2, &two);
    emit_all(&here);
    assert_int_equal(one.len, here.len);
    assert_memory_equal(one.data, here.data, here.len);
    assert_int_equal(one.len, two.len);
    assert_memory_equal(one.data, two.data, one.len);
    /* no absolute path, no date, no time of day */
    emit(seed_table(), &h, &c);
    assert_null(strstr(h.data, "/work/"));
    assert_null(strstr(c.data, "/tmp/"));
    fkcg_buf_putc(&one, '\0');
    const char *year = "(^|[^0-9A-Za-z_.])(19|20)[0-9][0-9]([^0-9A-Za-z_]|$)";
    const char *clock = "(^|[^0-9])[0-9]{1,2}:[0-5][0-9]([^0-9]|$)";
    const char *month = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* [0-9 ]?[0-9]";
    assert_false(matches(one.data, year));
    assert_false(matches(one.data, clock));
    assert_false(matches(one.data, month));
    /* the patterns do catch what they are for */
    assert_true(matches("/* generated 2026-11-30 */", year));
    assert_true(matches("// at 13:05:59", clock));
    assert_true(matches("built Nov 30 2026", month));
    assert_non_null(strstr(h.data, "generated by fkcgen " FKCGEN_VERSION));
    assert_non_null(strstr(h.data, "Do not edit"));
    fkcg_buf_free(&one);
    fkcg_buf_free(&two);
    fkcg_buf_free(&here);
    fkcg_buf_free(&h);
    fkcg_buf_free(&c);
}

/* ---- the unified diff ---- */

static void expect_diff(const char *a, const char *b, const char *want)
{
    fkcg_buf d;
    fkcg_buf_init(&d);
    fkcg_unified_diff("old", a, strlen(a), "new", b, strlen(b), &d);
    assert_string_equal(d.data ? d.data : "", want);
    fkcg_buf_free(&d);
}

static void test_unified_diff(void **state)
{
    (void)state;
    expect_diff("a\nb\n", "a\nb\n", "");
    expect_diff("a\nb\nc\n", "a\nB\nc\n", "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    expect_diff("", "x\n", "--- old\n+++ new\n@@ -0,0 +1,1 @@\n+x\n");
    expect_diff("x\n", "", "--- old\n+++ new\n@@ -1,1 +0,0 @@\n-x\n");
    expect_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\n5\n6\n7\n8\nnine\n",
                "--- old\n+++ new\n@@ -6,4 +6,4 @@\n 6\n 7\n 8\n-9\n+nine\n");
    expect_diff("a\n", "a",
                "--- old\n+++ new\n@@ -1,1 +1,1 @@\n-a\n+a\n\\ No newline at end of file\n");
    /* two changes far apart make two hunks */
    expect_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n",
                "--- old\n+++ new\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n"
                "@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n");
    /* an insertion in the middle aligns the rest */
    expect_diff("a\nb\nc\nd\n", "a\nb\nnew\nc\nd\n",
                "--- old\n+++ new\n@@ -1,4 +1,5 @@\n a\n b\n+new\n c\n d\n");
}

/* Applies a unified diff made by fkcg_unified_diff to old (the test's own small reader of the
 * format): the result must be the new text. NULL on a malformed diff or a context mismatch. */
static char *apply_diff(const char *old, const char *diff)
{
    size_t cap = strlen(old) + strlen(diff) + 1, n = 0;
    char *out = malloc(cap);
    const char *o = old; /* next unread line of old */
    size_t oline = 1;
    const char *d = strchr(diff, '\n') + 1;
    d = strchr(d, '\n') + 1; /* skip --- and +++ */
    while (*d == '@') {
        size_t a_start, a_len, b_start, b_len;
        if (sscanf(d, "@@ -%zu,%zu +%zu,%zu @@", &a_start, &a_len, &b_start, &b_len) != 4)
            goto bad;
        size_t first = a_len ? a_start : a_start + 1;
        for (; oline < first; oline++) { /* copy unchanged lines up to the hunk */
            const char *e = strchr(o, '\n');
            size_t len = e ? (size_t)(e - o) + 1 : strlen(o);
            memcpy(out + n, o, len);
            n += len;
            o += len;
        }
        d = strchr(d, '\n') + 1;
        while (*d == ' ' || *d == '-' || *d == '+') {
            const char *e = strchr(d, '\n');
            size_t len = (size_t)(e - d); /* without the '\n' */
            bool no_nl = strncmp(e + 1, "\\ No newline", 12) == 0;
            if (*d != '+') { /* must match old */
                if (strncmp(o, d + 1, len - 1) != 0)
                    goto bad;
                o += len - 1 + (no_nl ? 0 : 1);
                oline++;
            }
            if (*d != '-') {
                memcpy(out + n, d + 1, len - 1);
                n += len - 1;
                if (!no_nl)
                    out[n++] = '\n';
            }
            d = e + 1;
            if (no_nl)
                d = strchr(d, '\n') + 1;
        }
    }
    memcpy(out + n, o, strlen(o));
    n += strlen(o);
    out[n] = '\0';
    return out;
bad:
    free(out);
    return NULL;
}

/* Random line edits (fixed seed): the diff of every pair applies back to the new text. */
static void test_unified_diff_applies(void **state)
{
    (void)state;
    unsigned seed = 12345;
    for (int round = 0; round < 300; round++) {
        fkcg_buf a, b, d;
        fkcg_buf_init(&a);
        fkcg_buf_init(&b);
        fkcg_buf_init(&d);
        int lines = round < 290 ? 1 + round % 40 : 2500; /* the last ones pass the LCS cap */
        for (int i = 0; i < lines; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % 10;
            fkcg_buf_printf(&a, "line %d\n", i % 7);
            if (lines > 100)
                fkcg_buf_printf(&b, "other %d\n", i);
            else if (r == 0)
                continue; /* deleted */
            else if (r == 1)
                fkcg_buf_printf(&b, "new %u\nline %d\n", seed % 5, i % 7); /* inserted */
            else if (r == 2)
                fkcg_buf_printf(&b, "changed %d\n", i); /* replaced */
            else
                fkcg_buf_printf(&b, "line %d\n", i % 7); /* kept */
        }
        if (round % 3 == 0 && b.len)
            b.len--, b.data[b.len] = '\0'; /* no newline at the end */
        fkcg_buf_puts(&b, "");             /* b may have no line at all */
        fkcg_unified_diff("old", a.data, a.len, "new", b.data, b.len, &d);
        if (d.len) {
            char *got = apply_diff(a.data, d.data);
            assert_non_null(got);
            assert_string_equal(got, b.data);
            free(got);
        } else {
            assert_string_equal(a.data, b.data);
        }
        fkcg_buf_free(&a);
        fkcg_buf_free(&b);
        fkcg_buf_free(&d);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--emit-seed"))
        return emit_seed_child();
    if (argc > 1)
        test_dir = argv[1];
    if (argc > 2)
        locale_dir = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_golden),
        cmocka_unit_test(test_pair_hash),
        cmocka_unit_test(test_same_bytes_every_run),
        cmocka_unit_test(test_check_accepts_seed),
        cmocka_unit_test(test_bad_entry_point_rejected),
        cmocka_unit_test(test_bad_identifiers_rejected),
        cmocka_unit_test(test_runtime_kernel_elsewhere_rejected),
        cmocka_unit_test(test_runtime_params_mismatch_message),
        cmocka_unit_test(test_cost_field_must_be_integer_scalar),
        cmocka_unit_test(test_empty_table_rejected),
        cmocka_unit_test(test_hostile_strings_are_escaped),
        cmocka_unit_test(test_two_link_registries),
        cmocka_unit_test(test_doubles),
        cmocka_unit_test(test_integer_literals),
        cmocka_unit_test(test_fractional_ulp_rounds_up),
        cmocka_unit_test(test_unified_diff),
        cmocka_unit_test(test_unified_diff_applies),
    };
    return cmocka_run_group_tests_name("emit", tests, NULL, NULL);
}
