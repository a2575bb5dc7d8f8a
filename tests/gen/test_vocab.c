/* test_vocab.c — the vocabularies the runtime's headers restate from fkcgen's schema
 * (fkcgen/core/schema.c) agree with it: each X-map of fkc/fkc_tables.h (enumerator, value,
 * spelling, in order, UNKNOWN first where fkcgen's back ends expect it, and the count), the
 * layout keys of fkc_layout, and the dtypes and backends of fkc_types.h (names and byte widths,
 * as libfkc reports them). The C back
 * end writes enumerators from the schema (back/plan.c, fkcg_vocabs): a disagreement would break
 * or, worse, silently renumber the generated tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "back.h"
#include "fkc/fkc_tables.h"

typedef struct entry {
    const char *vocab; /* "COST_CLASS" */
    const char *value; /* "CHEAP_ELEMENTWISE" */
    const char *text;  /* "cheap_elementwise" */
    int number;        /* FKC_COST_CLASS_CHEAP_ELEMENTWISE */
} entry;

#define ENTRY(e, v, t) {#e, #v, t, FKC_##e##_##v},
static const entry determinism[] = {FKC_DETERMINISM_MAP(ENTRY)};
static const entry provenance[] = {FKC_COST_PROVENANCE_MAP(ENTRY)};
static const entry cost_class[] = {FKC_COST_CLASS_MAP(ENTRY)};
static const entry strategy[] = {FKC_LAYOUT_STRATEGY_MAP(ENTRY)};
static const entry layout_rule[] = {FKC_LAYOUT_RULE_MAP(ENTRY)};
static const entry guarantee[] = {FKC_LAYOUT_GUARANTEE_MAP(ENTRY)};
static const entry aliasing[] = {FKC_ALIASING_MAP(ENTRY)};
static const entry shape_rule[] = {FKC_SHAPE_RULE_MAP(ENTRY)};

#define MAP(which, v, count)                                                                       \
    {                                                                                              \
        which, v, sizeof v / sizeof v[0], count                                                    \
    }
static const struct {
    int which; /* fkcg_vocabs index */
    const entry *v;
    size_t n;
    int count; /* the header's FKC_<E>_COUNT */
} maps[] = {
    MAP(FKCG_EN_DETERMINISM, determinism, FKC_DETERMINISM_COUNT),
    MAP(FKCG_EN_PROVENANCE, provenance, FKC_COST_PROVENANCE_COUNT),
    MAP(FKCG_EN_COST_CLASS, cost_class, FKC_COST_CLASS_COUNT),
    MAP(FKCG_EN_STRATEGY, strategy, FKC_LAYOUT_STRATEGY_COUNT),
    MAP(FKCG_EN_LAYOUT_RULE, layout_rule, FKC_LAYOUT_RULE_COUNT),
    MAP(FKCG_EN_GUARANTEE, guarantee, FKC_LAYOUT_GUARANTEE_COUNT),
    MAP(FKCG_EN_ALIASING, aliasing, FKC_ALIASING_COUNT),
    MAP(FKCG_EN_SHAPE_RULE, shape_rule, FKC_SHAPE_RULE_COUNT),
};

/* s in upper case (the C back end's enumerator form of a value). */
static void upper(char *out, size_t cap, const char *s)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        out[i] = fkcg_upper_byte[(unsigned char)s[i]];
    out[i] = '\0';
}

static void test_tables_h_vocabularies_are_the_schemas(void **state)
{
    (void)state;
    assert_int_equal(sizeof maps / sizeof maps[0], FKCG_EN_DTYPE); /* every one but two below */
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        const fkcg_vocab *v = &fkcg_vocabs[maps[m].which];
        const fkcg_enum *e = fkcg_enum_find(v->schema);
        assert_non_null(e);
        assert_int_equal(maps[m].n, e->count);
        assert_int_equal(maps[m].count, (int)e->count + v->with_unknown);
        for (size_t i = 0; i < e->count; i++) {
            const entry *x = &maps[m].v[i];
            char prefix[64], want[64];
            snprintf(prefix, sizeof prefix, "FKC_%s_", x->vocab);
            upper(want, sizeof want, e->values[i]);
            assert_string_equal(prefix, fkcg_c_vocab[maps[m].which].prefix);
            assert_string_equal(x->value, want);
            assert_string_equal(x->text, e->values[i]);
            assert_int_equal(x->number, (int)i + v->with_unknown);
        }
    }
}

/* fkc_types.h's dtypes and backends, as libfkc names them, are the schema's too. */
static void test_types_h_dtypes_and_backends_are_the_schemas(void **state)
{
    (void)state;
    const fkcg_enum *dt = fkcg_enum_find("dtype"), *be = fkcg_enum_find("backend");
    /* the runtime's nine (0 .. FKC_DTYPE_COUNT), then the contract dtypes from FKC_DTYPE_I16 */
    assert_int_equal(dt->count, FKC_DTYPE_COUNT + (FKC_DTYPE_CONTRACT_END - FKC_DTYPE_I16));
    assert_int_equal(FKCG_NDTYPES, dt->count);
    assert_int_equal(FKCG_NRUNTIME_DTYPES, FKC_DTYPE_COUNT);
    assert_int_equal(FKCG_CONTRACT_DTYPE_FIRST, FKC_DTYPE_I16);
    for (int i = 0; i < FKCG_NDTYPES; i++) {
        fkc_dtype c = (fkc_dtype)(i < FKC_DTYPE_COUNT ? i : FKC_DTYPE_I16 + (i - FKC_DTYPE_COUNT));
        assert_string_equal(fkc_dtype_name(c), dt->values[i]);
        assert_string_equal(fkcg_dtypes[i].name, dt->values[i]);
        assert_int_equal(fkc_dtype_size(c), fkcg_dtypes[i].bytes);
    }
    assert_null(fkc_dtype_name(FKC_DTYPE_COUNT));
    assert_null(fkc_dtype_name(FKC_DTYPE_CONTRACT_END));
    assert_int_equal(fkc_dtype_size(FKC_DTYPE_BLOCK_FIRST), 0);
    assert_int_equal(be->count, FKC_BACKEND_COUNT);
    for (int i = 0; i < FKC_BACKEND_COUNT; i++)
        assert_string_equal(fkc_backend_name((fkc_backend)i), be->values[i]);
    assert_string_equal(fkcg_c_vocab[FKCG_EN_DTYPE].prefix, "FKC_DTYPE_");
    assert_string_equal(fkcg_c_vocab[FKCG_EN_BACKEND].prefix, "FKC_BACKEND_");
}

/* fkc_layout's fields are the schema's layout keys, in order (the rows give them by place). */
static void test_layout_keys_are_the_schemas(void **state)
{
    (void)state;
#define KEY(k) #k,
    static const char *const keys[] = {FKC_LAYOUT_KEYS(KEY)};
#define PLACE(k) offsetof(fkc_layout, k),
    static const size_t places[] = {FKC_LAYOUT_KEYS(PLACE)};
    assert_int_equal(sizeof keys / sizeof keys[0], FKCG_NLAYOUT);
    assert_int_equal(sizeof(fkc_layout), FKCG_NLAYOUT * sizeof(fkc_layout_rule));
    for (int i = 0; i < FKCG_NLAYOUT; i++) {
        assert_string_equal(keys[i], fkcg_layout_keys[i]);
        assert_int_equal(places[i], (size_t)i * sizeof(fkc_layout_rule));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_h_vocabularies_are_the_schemas),
        cmocka_unit_test(test_types_h_dtypes_and_backends_are_the_schemas),
        cmocka_unit_test(test_layout_keys_are_the_schemas),
    };
    return cmocka_run_group_tests_name("vocabularies", tests, NULL, NULL);
}
