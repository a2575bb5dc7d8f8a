/* validate.c — pass 4: checks a shaped tree against the schema (types, required keys, enums,
 * did-you-mean), builds the model (model.h) and checks the rules the contracts state themselves
 * (bitwise determinism, contiguous-only layouts, rule arguments, provider agreement, cost
 * expressions). A section with a type error is not checked further, so errors do not cascade. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fkcgen.h"
#include "internal.h"

typedef struct vctx {
    fkcg_arena *a;
    fkcg_diag *d;
    bool ok;
    const ynode *root;      /* the section's mapping, whose keys are tracked in bad */
    uint64_t bad;           /* root's schema keys missing or with an error, one bit each: the
                         * rules that read them are skipped, the others still run */
    const fkcg_provider *p; /* the section's provider: its block dtypes */
} vctx;

/* Reports an error at loc through diag.c and marks the section invalid; returns false, so a
 * failure is one `return fail(...)`. */
static bool fail(vctx *v, const fkcg_loc *loc, const char *fmt, ...) FKCG_PRINTF(3, 4);
static bool fail(vctx *v, const fkcg_loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fkcg_verror(v->d, loc, fmt, ap);
    va_end(ap);
    v->ok = false;
    return false;
}

static const char *key_of(const ynode *n)
{
    return n->key ? n->key->str : "value";
}

/* Where to point at a value: an empty value has no place of its own, so its key. */
static const fkcg_loc *val_loc(const ynode *n)
{
    return n->is_null && n->key ? &n->key->loc : &n->loc;
}

static const char *describe(const ynode *n)
{
    if (n->kind == YN_MAP)
        return "a mapping";
    if (n->kind == YN_SEQ)
        return "a list";
    return n->is_null ? "an empty value" : "text";
}

static bool need_scalar(vctx *v, const ynode *n, const char *expect)
{
    if (n->kind == YN_SCALAR && !n->is_null)
        return true;
    return fail(v, val_loc(n), "'%s' must be %s, not %s", key_of(n), expect, describe(n));
}

static bool parse_uint(vctx *v, const ynode *n, uint64_t *out)
{
    if (!need_scalar(v, n, "an unsigned integer"))
        return false;
    const char *s = n->str;
    if (s[0] == '-' && s[1])
        return fail(v, &n->loc, "'%s' must not be negative", key_of(n));
    uint64_t x = 0;
    bool digits = *s != '\0';
    for (const char *p = s; *p && digits; p++) {
        if (*p < '0' || *p > '9')
            digits = false;
        else if (x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return fail(v, &n->loc, "'%s' is too large", key_of(n));
        else
            x = x * 10 + (uint64_t)(*p - '0');
    }
    if (!digits || !n->plain)
        return fail(v, &n->loc, "'%s' must be an unsigned integer without quotes, not '%s'",
                    key_of(n), s);
    *out = x;
    return true;
}

/* A well-formed identifier that is reserved (names.c): reported with the reason, true. */
static bool reserved_name(vctx *v, const fkcg_loc *loc, const char *what, const char *name)
{
    const char *why = fkcg_c_name_why(name);
    if (!why || !fkcg_is_c_ident_shape(name))
        return false;
    fail(v, loc,
         "%s '%s' is %s: the generated C, or a file that includes a C standard header "
         "before it, would not compile; choose another name",
         what, name, why);
    return true;
}

static bool parse_float(vctx *v, const ynode *n, double *out)
{
    if (!need_scalar(v, n, "a number"))
        return false;
    const char *s = n->str;
    char *end;
    double x = strtod(s, &end); /* errno is not read: ERANGE also means a subnormal */
    bool number = n->plain && *s && *end == '\0' && strspn(s, "+-0123456789.eE") == strlen(s);
    if (!number)
        return fail(v, &n->loc, "'%s' must be a number without quotes, not '%s'", key_of(n), s);
    if (!isfinite(x))
        return fail(v, &n->loc,
                    "'%s' is out of range: '%s' is larger than the largest double "
                    "(about 1.8e308)",
                    key_of(n), s);
    if (x < 0 || s[0] == '-')
        return fail(v, &n->loc, "'%s' must not be negative", key_of(n));
    *out = x;
    return true;
}

/* A non-negative decimal, exact: digits, then optionally '.' and 1 to 9 digits (issue 22:
 * "2.5 ulp"). The whole part is parsed as parse_uint does (to 2^64-1), the fraction into
 * billionths; rounded up to whole ulps it must still fit a uint64 (the generated tables). */
static bool parse_ulp(vctx *v, const ynode *n, uint64_t *whole, uint32_t *frac)
{
    if (!need_scalar(v, n, "a non-negative number"))
        return false;
    const char *s = n->str, *dot = strchr(s, '.');
    size_t wlen = dot ? (size_t)(dot - s) : strlen(s);
    if (s[0] == '-' && s[1])
        return fail(v, &n->loc, "'%s' must not be negative", key_of(n));
    bool ok = n->plain && wlen > 0 && strspn(s, "0123456789") == wlen &&
              (!dot || (dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1)));
    if (!ok)
        return fail(v, &n->loc,
                    "'%s' must be a non-negative number without quotes (3, 2.5), not '%s'",
                    key_of(n), s);
    uint64_t x = 0;
    for (size_t i = 0; i < wlen; i++) {
        if (x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
            return fail(v, &n->loc, "'%s' is too large: at most 18446744073709551615, not '%s'",
                        key_of(n), s);
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    uint32_t f = 0;
    if (dot) {
        const char *d = dot + 1;
        size_t dlen = strlen(d);
        if (dlen > 9 && strspn(d + 9, "0") != dlen - 9)
            return fail(v, &n->loc, "'%s' has more than 9 decimals: '%s'", key_of(n), s);
        for (size_t i = 0; i < 9; i++)
            f = f * 10 + (uint32_t)(i < dlen ? d[i] - '0' : 0);
    }
    if (f && x == UINT64_MAX)
        return fail(v, &n->loc,
                    "'%s' is too large: rounded up to whole ulps (the generated tables) it "
                    "passes 18446744073709551615, '%s'",
                    key_of(n), s);
    *whole = x;
    *frac = f;
    return true;
}

static bool parse_bool(vctx *v, const ynode *n, bool *out)
{
    if (!need_scalar(v, n, "true or false"))
        return false;
    if (n->plain && (!strcmp(n->str, "true") || !strcmp(n->str, "false"))) {
        *out = n->str[0] == 't';
        return true;
    }
    return fail(v, &n->loc, "'%s' must be true or false, not '%s'", key_of(n), n->str);
}

/* A value of enum `name`; reports with a suggestion or the list of values. */
static int parse_enum(vctx *v, const ynode *n, const fkcg_enum *e, const char *what)
{
    if (!need_scalar(v, n, "a name"))
        return -1;
    int i = fkcg_enum_index(e, n->str);
    if (i >= 0)
        return i;
    const char *hint = fkcg_enum_suggest(e, n->str);
    if (hint && !strcasecmp(hint, n->str)) {
        fail(v, &n->loc, "%s: unknown value '%s'; values are case-sensitive: write '%s'", what,
             n->str, hint);
        return -1;
    }
    if (hint) {
        fail(v, &n->loc, "%s: unknown value '%s'; did you mean '%s'?", what, n->str, hint);
        return -1;
    }
    fkcg_buf list;
    fkcg_buf_init(&list);
    for (size_t k = 0; k < e->count; k++)
        fkcg_buf_put_listed(&list, k, e->count, e->values[k]);
    fail(v, &n->loc, "%s: unknown value '%s'; expected %s", what, n->str, list.data);
    fkcg_buf_free(&list);
    return -1;
}

/* A dtype's model index: the vocabulary's, or FKCG_NDTYPES + k for the provider's k-th block
 * dtype; -1 after reporting (did-you-mean over both). */
static int parse_dtype(vctx *v, const ynode *n)
{
    if (!need_scalar(v, n, "a dtype"))
        return -1;
    int i = fkcg_enum_index(fkcg_enum_find("dtype"), n->str);
    if (i >= 0)
        return i;
    for (size_t k = 0; v->p && k < v->p->n_block_dtypes; k++)
        if (!strcmp(v->p->block_dtypes[k].name, n->str))
            return FKCG_NDTYPES + (int)k;
    const char *names[FKCG_MAX_DTYPES];
    size_t nn = 0;
    const fkcg_enum *e = fkcg_enum_find("dtype");
    for (size_t k = 0; k < e->count; k++)
        names[nn++] = e->values[k];
    for (size_t k = 0; v->p && k < v->p->n_block_dtypes; k++)
        names[nn++] = v->p->block_dtypes[k].name;
    const char *hint = fkcg_suggest(names, nn, n->str);
    if (hint && !strcasecmp(hint, n->str)) {
        fail(v, &n->loc, "dtype: unknown value '%s'; values are case-sensitive: write '%s'", n->str,
             hint);
        return -1;
    }
    if (hint) {
        fail(v, &n->loc, "dtype: unknown value '%s'; did you mean '%s'?", n->str, hint);
        return -1;
    }
    fkcg_buf list;
    fkcg_buf_init(&list);
    for (size_t k = 0; k < nn; k++)
        fkcg_buf_put_listed(&list, k, nn, names[k]);
    fail(v, &n->loc,
         "dtype: unknown value '%s'; expected %s (a block dtype is declared in the front "
         "matter's provider.block_dtypes)",
         n->str, list.data);
    fkcg_buf_free(&list);
    return -1;
}

static bool check_path(vctx *v, const ynode *n)
{
    if (!need_scalar(v, n, "a path like a::b::c"))
        return false;
    size_t len;
    const char *why;
    const char *bad = fkcg_c_path_bad_segment(n->str, &len, &why);
    if (!bad)
        return true;
    fkcg_loc at = n->loc;
    if (n->val_col >= 0)
        at.col += (uint32_t)n->val_col + (uint32_t)(bad - n->str);
    return fail(v, &at, "'%s' must be a path of C identifiers like a::b::c; '%.*s' is %s",
                key_of(n), (int)(len <= FKCG_IDENT_MAX ? len : FKCG_IDENT_MAX + 1), bad,
                why ? why : "not a C identifier (" FKCG_IDENT_RULE ")");
}

/* fn(arg): fn one value of enum `name`, arg an identifier. */
static bool parse_call(vctx *v, const ynode *n, const char *name, const char **arg)
{
    if (!need_scalar(v, n, "a rule like fn(arg)"))
        return false;
    const char *open = strchr(n->str, '('), *close = strrchr(n->str, ')');
    if (!open || !close || close < open || close[1] != '\0')
        return fail(v, &n->loc, "'%s' must look like %s(<name>), not '%s'", key_of(n),
                    fkcg_enum_find(name)->values[0], n->str);
    ynode fn = *n;
    fn.str = fkcg_strndup(v->a, n->str, (size_t)(open - n->str));
    if (parse_enum(v, &fn, fkcg_enum_find(name), key_of(n)) < 0)
        return false;
    char *a = fkcg_strndup(v->a, open + 1, (size_t)(close - open - 1));
    int kind = parse_enum(v, &fn, fkcg_enum_find(name), key_of(n));
    if (!strcmp(name, "shape_rule") && kind >= FKCG_SR_BROADCAST) {
        *arg = NULL; /* operands of their own: build_outputs reads them (shape_operands) */
        return true;
    }
    /* A name; whether a valid one is for the key it names (else one bad name errs twice). */
    size_t len = strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    if (!*a || a[len] || (*a >= '0' && *a <= '9'))
        return fail(v, &n->loc, "the argument of '%s' must be a name, not '%s'", n->str, a);
    *arg = a;
    return true;
}

static bool check_map(vctx *v, const ynode *n, const fkcg_schema *s, const fkcg_loc *owner);

/* A non-empty list of distinct values of the key's enum. */
static void check_enum_list(vctx *v, const ynode *n, const fkcg_key *k)
{
    if (n->kind != YN_SEQ) {
        fail(v, val_loc(n), "'%s' must be a list like [F32, I32], not %s", k->name, describe(n));
        return;
    }
    if (n->n == 0)
        fail(v, &n->loc, "'%s' is empty; list at least one", k->name);
    const fkcg_enum *e = fkcg_enum_find(k->enum_name);
    bool dtypes = !strcmp(k->enum_name, "dtype");
    for (const ynode *item = n->kids; item; item = item->next) {
        if ((dtypes ? parse_dtype(v, item) : parse_enum(v, item, e, k->enum_name)) < 0)
            continue;
        for (const ynode *prev = n->kids; prev != item; prev = prev->next)
            if (prev->kind == YN_SCALAR && !strcmp(prev->str, item->str)) {
                fail(v, &item->loc, "%s '%s' is listed twice in '%s'", k->enum_name, item->str,
                     k->name);
                fkcg_note(v->d, &prev->loc, "first listed here");
                break;
            }
    }
}

/* A non-empty list of distinct identifiers (key: the tensors of a binding key). */
static void check_name_list(vctx *v, const ynode *n, const fkcg_key *k)
{
    if (n->kind != YN_SEQ) {
        fail(v, val_loc(n), "'%s' must be a list of names like [src, out], not %s", k->name,
             describe(n));
        return;
    }
    if (n->n == 0)
        fail(v, &n->loc, "'%s' is empty; list at least one", k->name);
    if (n->n > FKCG_KEY_MAX)
        fail(v, &n->loc, "'%s' names %zu tensors; a key has at most %d", k->name, n->n,
             FKCG_KEY_MAX);
    for (const ynode *item = n->kids; item; item = item->next) {
        if (!need_scalar(v, item, "a name"))
            continue;
        if (!fkcg_is_c_ident_shape(item->str)) {
            fail(v, &item->loc, "'%s' must list tensor names, not '%s'", k->name, item->str);
            continue;
        }
        for (const ynode *prev = n->kids; prev != item; prev = prev->next)
            if (prev->kind == YN_SCALAR && !strcmp(prev->str, item->str)) {
                fail(v, &item->loc, "'%s' is listed twice in '%s'", item->str, k->name);
                fkcg_note(v->d, &prev->loc, "first listed here");
                break;
            }
    }
}

/* A non-empty list of dtype lists ([F32, F16]); each entry a dtype (the key's length is
 * checked with the key). */
static void check_tuples(vctx *v, const ynode *n, const fkcg_key *k)
{
    if (n->kind != YN_SEQ || n->n == 0) {
        fail(v, val_loc(n),
             "'%s' must be a non-empty list of dtype lists like - [F32, F16], not %s", k->name,
             n->kind == YN_SEQ ? "an empty list" : describe(n));
        return;
    }
    for (const ynode *t = n->kids; t; t = t->next) {
        if (t->kind != YN_SEQ || t->n == 0) {
            fail(v, val_loc(t),
                 "each entry of '%s' must be a list of dtypes like [F32, F16], not %s", k->name,
                 t->kind == YN_SEQ ? "an empty list" : describe(t));
            continue;
        }
        for (const ynode *d = t->kids; d; d = d->next)
            parse_dtype(v, d);
    }
}

/* Two enum values that name one constant: C upper-cases them (FKC_ROPE_MODE_NEOX), Rust
 * camel-cases them (Neox), so case and underscores do not tell them apart. */
static bool same_value_name(const char *a, const char *b)
{
    for (;;) {
        while (*a == '_')
            a++;
        while (*b == '_')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if ((*a | 0x20) != (*b | 0x20))
            return false;
        a++, b++;
    }
}

/* An enum value's code: an integer of int32_t's range, plain. */
static bool parse_code(vctx *v, const ynode *n, int64_t *out)
{
    if (!need_scalar(v, n, "an integer"))
        return false;
    const char *s = n->str, *d = s + (s[0] == '-');
    if (!n->plain || !*d || strspn(d, "0123456789") != strlen(d) || strlen(d) > 10)
        return fail(v, &n->loc,
                    "the code of enum value '%s' must be an integer from -2147483648 to "
                    "2147483647 without quotes, not '%s'",
                    key_of(n), s);
    int64_t x = strtoll(s, NULL, 10);
    if (x < INT32_MIN || x > INT32_MAX)
        return fail(v, &n->loc,
                    "the code of enum value '%s' is out of range: %s is not from -2147483648 to "
                    "2147483647 (the C enum and the int32_t member)",
                    key_of(n), s);
    *out = x;
    return true;
}

/* A non-empty list of C identifiers, distinct as same_value_name (an enum field's values),
 * or a mapping of such names to distinct codes (`{ normal: 0, neox: 2 }`). */
static void check_ident_list(vctx *v, const ynode *n, const fkcg_key *k)
{
    bool map = n->kind == YN_MAP;
    if ((n->kind != YN_SEQ && !map) || n->n == 0) {
        fail(v, val_loc(n),
             "'%s' must be a non-empty list of names like [asc, desc], or a mapping of names "
             "to codes like { normal: 0, neox: 2 }, not %s",
             k->name, n->kind == YN_SEQ || map ? "an empty one" : describe(n));
        return;
    }
    int64_t *codes = map ? fkcg_alloc(v->a, n->n * sizeof *codes) : NULL;
    bool *good = map ? fkcg_alloc(v->a, n->n * sizeof *good) : NULL;
    size_t i = 0;
    for (const ynode *e = n->kids; map && e; e = e->next, i++) {
        good[i] = parse_code(v, e, &codes[i]);
        size_t j = 0;
        for (const ynode *prev = n->kids; good[i] && prev != e; prev = prev->next, j++)
            if (good[j] && codes[j] == codes[i]) {
                fail(v, &e->loc,
                     "'%s' gives code %lld to '%s' and to '%s'; each value needs its own", k->name,
                     (long long)codes[i], prev->key->str, e->key->str);
                fkcg_note(v->d, &prev->loc, "first given here");
                break;
            }
    }
    for (const ynode *it = n->kids; it; it = it->next) {
        const ynode *item = map ? it->key : it;
        if (!need_scalar(v, item, "a name"))
            continue;
        if (!fkcg_is_c_ident_shape(item->str)) {
            fail(v, &item->loc, "'%s' must list C identifiers (" FKCG_IDENT_RULE "), not '%s'",
                 k->name, item->str);
            continue;
        }
        for (const ynode *pv = n->kids; pv != it; pv = pv->next) {
            const ynode *prev = map ? pv->key : pv;
            if (prev->kind == YN_SCALAR && same_value_name(prev->str, item->str)) {
                fail(v, &item->loc,
                     "'%s' lists '%s' after '%s'; the generated C upper-cases values and Rust "
                     "camel-cases them, so the two would be one name: rename one",
                     k->name, item->str, prev->str);
                fkcg_note(v->d, &prev->loc, "first listed here");
                break;
            }
        }
    }
}

/* Checks one value against its key's type. */
static void check_value(vctx *v, const ynode *n, const fkcg_key *k)
{
    uint64_t u;
    uint32_t uf;
    double f;
    bool b;
    const char *arg;
    if (n->kind == YN_SCALAR && n->len > FKCG_MAX_TEXT_BYTES) {
        fail(v, &n->loc,
             "'%s' is %zu bytes long; a value may have at most %u bytes (the "
             "generated C holds it as a string literal)",
             key_of(n), n->len, FKCG_MAX_TEXT_BYTES);
        return;
    }
    switch (k->type) {
    case FT_STRING:
    case FT_EXPR: need_scalar(v, n, "text"); break;
    case FT_IDENT:
        if (!need_scalar(v, n, "an identifier") || fkcg_is_c_ident(n->str))
            break;
        if (reserved_name(v, &n->loc, key_of(n), n->str))
            break;
        fail(v, &n->loc,
             "'%s' must be a C identifier (" FKCG_IDENT_RULE ") that is not a C "
             "keyword nor a name the generated code uses (NULL, SIZE_MAX, fkc_...), "
             "not '%s'",
             key_of(n), n->str);
        break;
    case FT_UINT: parse_uint(v, n, &u); break;
    case FT_FLOAT: parse_float(v, n, &f); break;
    case FT_ULP: parse_ulp(v, n, &u, &uf); break;
    case FT_BOOL: parse_bool(v, n, &b); break;
    case FT_ENUM: parse_enum(v, n, fkcg_enum_find(k->enum_name), k->name); break;
    case FT_PATH: check_path(v, n); break;
    case FT_CALL: parse_call(v, n, k->enum_name, &arg); break;
    case FT_RANK:
        if (need_scalar(v, n, "any or a number") && strcmp(n->str, "any") != 0 &&
            (!n->plain || strspn(n->str, "0123456789") != n->len || n->len > 2))
            fail(v, &n->loc, "'rank' must be any or a number from 0 to 99, not '%s'", n->str);
        break;
    case FT_HASH:
        if (need_scalar(v, n, "auto or 32 hex digits") && strcmp(n->str, "auto") != 0 &&
            (strlen(n->str) != 32 || strspn(n->str, "0123456789abcdef") != 32))
            fail(v, &n->loc, "'%s' must be auto or 32 lower-case hex digits, not '%s'", k->name,
                 n->str);
        break;
    case FT_ENUMSEQ: check_enum_list(v, n, k); break;
    case FT_NAMESEQ: check_name_list(v, n, k); break;
    case FT_TUPLES: check_tuples(v, n, k); break;
    case FT_IDENTSEQ: check_ident_list(v, n, k); break;
    case FT_SCALAR: need_scalar(v, n, "a value"); break;
    case FT_MAP:
        if (n->kind != YN_MAP)
            fail(v, val_loc(n), "'%s' must be a mapping of %s keys, not %s", k->name,
                 k->child->path, describe(n));
        else
            check_map(v, n, k->child, n->key ? &n->key->loc : &n->loc);
        break;
    case FT_SEQMAP:
        if (n->kind == YN_SEQ && n->n == 0 && k->child &&
            !strcmp(k->child->path, "accept.inputs[]"))
            break; /* a zero-input op (issue 22: arange, zeros): its key names its outputs */
        if (n->kind != YN_SEQ || n->n == 0) {
            fail(v, val_loc(n),
                 "'%s' must be a non-empty list of mappings (- key: value), "
                 "not %s",
                 k->name, n->kind == YN_SEQ ? "an empty list" : describe(n));
            break;
        }
        for (const ynode *item = n->kids; item; item = item->next) {
            if (item->kind != YN_MAP)
                fail(v, val_loc(item), "each entry of '%s' must be a mapping, not %s", k->name,
                     describe(item));
            else
                check_map(v, item, k->child, &item->loc);
        }
        break;
    case FT_FREEMAP:
        if (n->kind != YN_MAP) {
            fail(v, val_loc(n), "'%s' must be a mapping of names, not %s", k->name, describe(n));
            break;
        }
        for (const ynode *e = n->kids; e; e = e->next) {
            if (!fkcg_is_c_ident(e->key->str) &&
                !reserved_name(v, &e->key->loc, "field name", e->key->str))
                fail(v, &e->key->loc,
                     "field name '%s' must be a C identifier (" FKCG_IDENT_RULE
                     ") that is not a C keyword nor a name the generated code "
                     "uses (NULL, SIZE_MAX, fkc_...)",
                     e->key->str);
            else if (fkcg_expr_is_variable(e->key->str))
                fail(v, &e->key->loc,
                     "field name '%s' is reserved: cost expressions use it; "
                     "rename the field",
                     e->key->str);
            if (e->kind != YN_MAP)
                fail(v, val_loc(e),
                     "field '%s' must be a mapping like { kind: usize, note: "
                     "\"...\" }, not %s",
                     e->key->str, describe(e));
            else
                check_map(v, e, k->child->entry, &e->key->loc);
        }
        break;
    }
}

/* Which keys of s the mapping n holds, one bit per key (at most 64), when shape placed every
 * value of n by its schema key; else 0 and false: the caller looks each key up by name. */
static bool keys_present(const ynode *n, const fkcg_schema *s, uint64_t *bits)
{
    *bits = 0;
    if (n->kind != YN_MAP || n->schema != s || s->freeform || s->n_keys > 64)
        return false;
    for (const ynode *e = n->kids; e; e = e->next) {
        if (!e->skey)
            return false;
        *bits |= (uint64_t)1 << (e->skey - s->keys);
    }
    return true;
}

/* Checks the keys of a shaped mapping: missing required keys, then each value. */
static bool check_map(vctx *v, const ynode *n, const fkcg_schema *s, const fkcg_loc *owner)
{
    bool was = v->ok;
    v->ok = true;
    const char *missing[32];
    size_t n_missing = 0;
    uint64_t present;
    bool by_skey = keys_present(n, s, &present); /* no name look-up per required key */
    for (size_t i = 0; i < s->n_keys && n_missing < 32; i++)
        if (s->keys[i].required &&
            !(by_skey ? present >> i & 1 : fkcg_map_get(n, s->keys[i].name) != NULL))
            missing[n_missing++] = s->keys[i].name;
    for (size_t i = 0; i < s->n_keys && n == v->root; i++)
        for (size_t j = 0; j < n_missing; j++)
            if (missing[j] == s->keys[i].name)
                v->bad |= (uint64_t)1 << i;
    if (n_missing == 1)
        fail(v, owner, "missing required key '%s' in %s", missing[0], s->path);
    if (n_missing > 1) {
        fkcg_buf list;
        fkcg_buf_init(&list);
        for (size_t i = 0; i < n_missing; i++)
            fkcg_buf_printf(&list, "%s'%s'",
                            i == 0               ? ""
                            : i + 1 == n_missing ? " and "
                                                 : ", ",
                            missing[i]);
        fail(v, owner, "missing required keys %s in %s", list.data, s->path);
        fkcg_buf_free(&list);
    }
    for (const ynode *e = n->kids; e; e = e->next) {
        /* shape found the key in the map's schema already; look it up for another schema */
        const fkcg_key *k = n->schema == s && e->skey ? e->skey : fkcg_schema_key(s, e->key->str);
        bool before = v->ok;
        v->ok = true;
        if (k)
            check_value(v, e, k);
        if (k && !v->ok && n == v->root && k - s->keys < 64)
            v->bad |= (uint64_t)1 << (k - s->keys);
        v->ok = before && v->ok;
    }
    bool ok = v->ok;
    v->ok = was && ok;
    return ok;
}

/* ---- building the model from a checked tree ---- */
/* A scalar's text, copied into the run's arena: the tree lives in a scratch arena. */
static const char *str(vctx *v, const ynode *map, const char *key)
{
    const ynode *n = fkcg_map_get(map, key);
    return n && n->kind == YN_SCALAR ? fkcg_strndup(v->a, n->str, n->len) : NULL;
}

static uint64_t uint_of(vctx *v, const ynode *map, const char *key)
{
    uint64_t x = 0;
    const ynode *n = fkcg_map_get(map, key);
    if (n)
        parse_uint(v, n, &x);
    return x;
}

static double float_of(vctx *v, const ynode *map, const char *key)
{
    double x = 0;
    parse_float(v, fkcg_map_get(map, key), &x);
    return x;
}

static bool bool_of(vctx *v, const ynode *map, const char *key)
{
    bool x = false;
    const ynode *n = fkcg_map_get(map, key);
    if (n)
        parse_bool(v, n, &x);
    return x;
}

/* The argument of a checked fn(arg) rule. */
static const char *call_arg(vctx *v, const ynode *map, const char *key, const char *enum_name)
{
    const char *arg = NULL;
    parse_call(v, fkcg_map_get(map, key), enum_name, &arg);
    return arg;
}

/* stream, params and extra are the wrappers' other parameters. */
static void check_tensor_name(vctx *v, const ynode *item, const char *what)
{
    const ynode *n = fkcg_map_get(item, "name");
    if (fkcg_is_reserved_param(n->str))
        fail(v, &n->loc,
             "%s name '%s' is taken: the kernel's C function has parameters "
             "stream, params and extra; rename the %s",
             what, n->str, what);
}

static bool has_dtype(const int *list, size_t n, int d);

/* The mapping of input k in the section's tree. */
static const ynode *nth_input_node(const ynode *root, size_t k)
{
    const ynode *accept = fkcg_map_get(root, "accept");
    const ynode *seq = accept ? fkcg_map_get(accept, "inputs") : NULL;
    const ynode *e = seq ? seq->kids : NULL;
    while (e && k--)
        e = e->next;
    return e;
}

/* optional and absent_key of an input (issue 22: optional inputs); absent_key -1 when not
 * stated. What needs the key is checked by check_optional, after it. */
static void read_optional(vctx *v, const ynode *item, fkcg_input *in)
{
    const ynode *on = fkcg_map_get(item, "optional"), *ak = fkcg_map_get(item, "absent_key");
    in->optional = bool_of(v, item, "optional");
    in->absent_key = -1;
    in->optional_loc = on ? on->key->loc : ak ? ak->key->loc : in->loc;
    if (!ak)
        return;
    int d = parse_dtype(v, ak);
    if (!in->optional) {
        fail(v, &ak->key->loc,
             "input '%s' states 'absent_key' but is not optional: add 'optional: true', or "
             "drop 'absent_key'",
             in->name);
        return;
    }
    in->absent_key = d;
    if (d >= 0 && !has_dtype(in->dtypes, in->n_dtypes, d))
        fail(v, &ak->loc,
             "absent_key '%s' is not one of input '%s''s dtypes: a call without it must be "
             "served by a binding of its own key",
             ak->str, in->name);
}

static void build_inputs(vctx *v, const ynode *accept, fkcg_section *s)
{
    const ynode *seq = fkcg_map_get(accept, "inputs");
    s->inputs = fkcg_alloc(v->a, seq->n * sizeof *s->inputs);
    for (const ynode *item = seq->kids; item; item = item->next) {
        fkcg_input *in = &s->inputs[s->n_inputs++];
        in->name = str(v, item, "name");
        in->loc = item->loc;
        for (const ynode *d = fkcg_map_get(item, "dtypes")->kids; d; d = d->next)
            in->dtypes[in->n_dtypes++] = parse_dtype(v, d);
        in->same_dtype_as = str(v, item, "same_dtype_as");
        const ynode *layout = fkcg_map_get(item, "layout");
        for (int k = 0; k < FKCG_NLAYOUT; k++)
            in->layout[k] = str(v, layout, fkcg_layout_keys[k]);
        in->rank = str(v, item, "rank");
        while (in->rank && in->rank[0] == '0' && in->rank[1] != '\0')
            in->rank++; /* 01 and 1 are one rank: the hash follows the number, not its spelling */
        in->shape_constraint = str(v, item, "shape_constraint");
        read_optional(v, item, in);
        in->shape_only = bool_of(v, item, "shape_only");
        in->variadic = bool_of(v, item, "variadic");
        check_tensor_name(v, item, "input");
        for (size_t j = 0; j + 1 < s->n_inputs; j++)
            if (!strcmp(s->inputs[j].name, in->name)) {
                fail(v, &fkcg_map_get(item, "name")->loc, "input '%s' is declared twice", in->name);
                fkcg_note(v->d, &s->inputs[j].loc, "first declared here");
            }
    }
}

/* An integer default of a field of kind `kind` ([lo, hi] its C type's range), normalised to
 * decimal without leading zeros. */
static const char *int_default(vctx *v, const ynode *n, const fkcg_field *f, bool sign, uint64_t hi)
{
    const char *s = n->str, *d = s + (s[0] == '-');
    bool neg = s[0] == '-';
    if (!n->plain || !*d || strspn(d, "0123456789") != strlen(d)) {
        fail(v, &n->loc, "default '%s' of field '%s' must be an integer without quotes (%s)", s,
             f->name, f->kind);
        return NULL;
    }
    uint64_t x = 0;
    bool over = false;
    for (const char *p = d; *p; p++) {
        if (x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            over = true;
        else
            x = x * 10 + (uint64_t)(*p - '0');
    }
    if (neg && x == 0)
        neg = false; /* -0 is 0 */
    if (over || (neg && !sign) || (!neg && x > hi) || (neg && x > hi + 1)) {
        if (sign)
            fail(v, &n->loc, "default '%s' of field '%s' is out of range for %s (-%llu to %llu)", s,
                 f->name, f->kind, (unsigned long long)hi + 1, (unsigned long long)hi);
        else
            fail(v, &n->loc, "default '%s' of field '%s' is out of range for %s (0 to %llu)", s,
                 f->name, f->kind, (unsigned long long)hi);
        return NULL;
    }
    return fkcg_sprintf(v->a, "%s%llu", neg ? "-" : "", (unsigned long long)x);
}

/* A number default, normalised so that it is a float literal in C and in Rust alike:
 * no '+', a digit before and after the point (".5" -> "0.5", "1" -> "1.0", "2.e3" -> "2.0e3"). */
static const char *float_default(vctx *v, const ynode *n, const fkcg_field *f, bool single)
{
    const char *s = n->str;
    char *end;
    double x = strtod(s, &end);
    bool number = n->plain && *s && *end == '\0' && strspn(s, "+-0123456789.eE") == strlen(s);
    if (!number) {
        fail(v, &n->loc, "default '%s' of field '%s' must be a number without quotes (%s)", s,
             f->name, f->kind);
        return NULL;
    }
    if (!isfinite(x) || (single && !isfinite(strtof(s, NULL)))) {
        fail(v, &n->loc, "default '%s' of field '%s' is out of range for %s", s, f->name, f->kind);
        return NULL;
    }
    fkcg_buf b;
    fkcg_buf_init(&b);
    const char *p = s[0] == '+' ? s + 1 : s;
    if (*p == '-')
        fkcg_buf_putc(&b, *p++);
    if (*p == '.')
        fkcg_buf_putc(&b, '0');
    size_t mant = strcspn(p, "eE");
    bool dot = memchr(p, '.', mant) != NULL;
    for (size_t i = 0; i < mant; i++) {
        fkcg_buf_putc(&b, p[i]);
        if (p[i] == '.' && i + 1 == mant)
            fkcg_buf_putc(&b, '0');
    }
    if (!dot)
        fkcg_buf_puts(&b, ".0");
    fkcg_buf_puts(&b, p + mant);
    const char *out = fkcg_strdup(v->a, b.data);
    fkcg_buf_free(&b);
    return out;
}

/* The field's `values` and `default` (issue 22 item 3), checked against its kind. */
static void build_field_typing(vctx *v, const ynode *e, fkcg_field *f)
{
    const ynode *vals = fkcg_map_get(e, "values"), *def = fkcg_map_get(e, "default");
    const ynode *kind = fkcg_map_get(e, "kind");
    bool is_enum = fkcg_field_is_enum(f);
    f->def_index = -1;
    if (vals) {
        f->values = fkcg_alloc(v->a, (vals->n + 1) * sizeof *f->values);
        if (vals->kind == YN_MAP)
            f->codes = fkcg_alloc(v->a, (vals->n + 1) * sizeof *f->codes);
        for (const ynode *i = vals->kids; i; i = i->next) {
            const ynode *name = vals->kind == YN_MAP ? i->key : i;
            if (f->codes)
                f->codes[f->n_values] = (int32_t)strtol(i->str, NULL, 10);
            f->values[f->n_values++] = fkcg_strndup(v->a, name->str, name->len);
        }
        bool positional = true; /* codes 0, 1, ..: the list form, said otherwise */
        for (size_t k = 0; f->codes && k < f->n_values; k++)
            positional &= f->codes[k] == (int32_t)k;
        if (positional)
            f->codes = NULL;
    }
    if (is_enum && !vals)
        fail(v, &kind->loc, "field '%s' is an enum: list its values, like 'values: [asc, desc]'",
             f->name);
    if (vals && !is_enum)
        fail(v, &vals->key->loc,
             "field '%s' states 'values' but is of kind %s; 'values' goes with kind: enum", f->name,
             f->kind ? f->kind : "?");
    if (is_enum &&
        (!strcmp(f->name, "params") || !strcmp(f->name, "kernel") || !strcmp(f->name, "fn")))
        fail(v, &f->loc,
             "enum field '%s' would name its C enum <prefix>_<op>_%s, a name the op kind's "
             "own C type has; rename the field",
             f->name, f->name);
    if (!def || !f->kind)
        return;
    f->def_loc = def->loc;
    bool vec;
    const fkcg_kind_spec *ks = fkcg_kind_lookup(f->kind, &vec);
    const char *k = f->kind;
    if (vec || !ks) {
        fail(v, &def->loc, "field '%s' is a %s: a Vec field takes no default", f->name, k);
    } else if (!strcmp(k, "bool")) {
        bool b;
        if (def->plain && (!strcmp(def->str, "true") || !strcmp(def->str, "false")))
            f->def = def->str[0] == 't' ? "true" : "false";
        else
            parse_bool(v, def, &b);
    } else if (!strcmp(k, "f32") || !strcmp(k, "f64")) {
        f->def = float_default(v, def, f, k[1] == '3');
    } else if (!strcmp(k, "u32") || !strcmp(k, "i32")) {
        f->def = int_default(v, def, f, k[0] == 'i', k[0] == 'i' ? INT32_MAX : UINT32_MAX);
    } else if (!strcmp(k, "u64") || !strcmp(k, "usize")) {
        f->def = int_default(v, def, f, false, UINT64_MAX);
    } else if (!strcmp(k, "i64") || !strcmp(k, "isize")) {
        f->def = int_default(v, def, f, true, INT64_MAX);
    } else if (is_enum) {
        for (size_t i = 0; i < f->n_values && f->def_index < 0; i++)
            if (!strcmp(f->values[i], def->str))
                f->def_index = (int)i;
        if (f->def_index >= 0) {
            f->def = f->values[f->def_index];
        } else if (f->n_values) {
            const char *hint = fkcg_suggest(f->values, f->n_values, def->str);
            fkcg_buf list;
            fkcg_buf_init(&list);
            for (size_t i = 0; i < f->n_values; i++)
                fkcg_buf_put_listed(&list, i, f->n_values, f->values[i]);
            if (hint)
                fail(v, &def->loc,
                     "default '%s' of field '%s' is not one of its values; did you mean '%s'?",
                     def->str, f->name, hint);
            else
                fail(v, &def->loc, "default '%s' of field '%s' is not one of its values: %s",
                     def->str, f->name, list.data);
            fkcg_buf_free(&list);
        }
    } else if (fkcg_field_is_dtype(f)) {
        f->def_index = parse_dtype(v, def);
        if (f->def_index >= 0)
            f->def = fkcg_strndup(v->a, def->str, def->len);
    }
}

static void build_op_params(vctx *v, const ynode *accept, fkcg_section *s)
{
    const ynode *op = fkcg_map_get(accept, "op_params");
    if (!op)
        return;
    s->variant = str(v, op, "variant");
    const ynode *fields = fkcg_map_get(op, "fields");
    s->fields = fkcg_alloc(v->a, (fields->n + 1) * sizeof *s->fields);
    for (const ynode *e = fields->kids; e; e = e->next) {
        fkcg_field *f = &s->fields[s->n_fields++];
        f->name = fkcg_strndup(v->a, e->key->str, e->key->len);
        f->kind = str(v, e, "kind");
        f->note = str(v, e, "note");
        f->loc = e->key->loc;
        build_field_typing(v, e, f);
    }
    for (size_t i = 0; i < s->n_fields; i++) {
        const fkcg_field *f = &s->fields[i];
        const fkcg_field *g = fkcg_field_len_clash(s->fields, s->n_fields, f);
        if (!g)
            continue;
        fail(v, &f->loc,
             "field name '%s' is taken: the Vec field '%s' has a length member "
             "'%s' in C; rename the field",
             f->name, g->name, f->name);
        fkcg_note(v->d, &g->loc, "the Vec field is declared here");
    }
}

static bool is_input(const fkcg_section *s, const char *name)
{
    for (size_t i = 0; i < s->n_inputs; i++)
        if (!strcmp(s->inputs[i].name, name))
            return true;
    return false;
}

static const fkcg_field *field_named(const fkcg_section *s, const char *name)
{
    for (size_t i = 0; i < s->n_fields; i++)
        if (!strcmp(s->fields[i].name, name))
            return &s->fields[i];
    return NULL;
}

static bool is_field(const fkcg_section *s, const char *name)
{
    for (size_t i = 0; i < s->n_fields; i++)
        if (!strcmp(s->fields[i].name, name))
            return true;
    return false;
}

/* "a, b or c" of the inputs' or fields' names. */
static const char *names(vctx *v, const fkcg_section *s, bool inputs)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    size_t n = inputs ? s->n_inputs : s->n_fields;
    for (size_t i = 0; i < n; i++)
        fkcg_buf_put_listed(&b, i, n, inputs ? s->inputs[i].name : s->fields[i].name);
    const char *out = fkcg_strdup(v->a, b.data ? b.data : "none");
    fkcg_buf_free(&b);
    return out;
}

/* The operands of a shape rule's text "fn(a, [0, 1], b)", split at the commas outside
 * brackets and trimmed, into o->shape_args; false (reported at at) when there are too many
 * or one is empty. */
static bool split_shape_args(vctx *v, const fkcg_loc *at, fkcg_output *o)
{
    const char *p = strchr(o->shape_rule, '(') + 1, *end = strrchr(o->shape_rule, ')');
    o->n_shape_args = 0;
    while (p <= end) {
        int depth = 0;
        const char *q = p;
        while (q < end && (depth > 0 || *q != ',')) {
            depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
            q++;
        }
        const char *a = p, *b = q;
        while (a < b && *a == ' ')
            a++;
        while (b > a && b[-1] == ' ')
            b--;
        if (a == b)
            return fail(v, at, "shape_rule '%s' has an empty operand", o->shape_rule);
        if (o->n_shape_args == FKCG_SHAPE_ARGS)
            return fail(v, at, "shape_rule '%s' has more than %d operands", o->shape_rule,
                        FKCG_SHAPE_ARGS);
        fkcg_buf op; /* no spaces but one after each comma of a list: one spelling each */
        fkcg_buf_init(&op);
        for (const char *x = a; x < b; x++)
            if (*x != ' ')
                fkcg_buf_put(&op, *x == ',' ? ", " : x, *x == ',' ? 2 : 1);
        o->shape_args[o->n_shape_args++] = fkcg_strdup(v->a, op.data ? op.data : "");
        fkcg_buf_free(&op);
        p = q + 1;
    }
    /* the rule in that spelling, "reduce(x, [0, 2], true)": the table's, the dump's, the
     * revision hash's and the diff's text */
    fkcg_buf rule;
    fkcg_buf_init(&rule);
    fkcg_buf_put(&rule, o->shape_rule, (size_t)(strchr(o->shape_rule, '(') - o->shape_rule) + 1);
    for (size_t k = 0; k < o->n_shape_args; k++)
        fkcg_buf_printf(&rule, "%s%s", k ? ", " : "", o->shape_args[k]);
    fkcg_buf_putc(&rule, ')');
    o->shape_rule = fkcg_strdup(v->a, rule.data);
    fkcg_buf_free(&rule);
    return true;
}

/* Whether text is an integer (an optional '-', then digits). */
static bool is_int_text(const char *t)
{
    t += *t == '-';
    return *t && strspn(t, "0123456789") == strlen(t) && strlen(t) <= 18;
}

/* An axis operand: an integer, or an integer op_params field (vec: a Vec of integers too, or
 * a list [0, 2] of integers). */
static bool shape_axis_ok(const fkcg_section *s, const char *t, bool vec_ok)
{
    if (is_int_text(t))
        return true;
    size_t n = strlen(t);
    if (vec_ok && n >= 2 && t[0] == '[' && t[n - 1] == ']') {
        char item[32];
        const char *p = t + 1;
        for (;;) {
            while (*p == ' ')
                p++;
            size_t len = strcspn(p, ",]");
            while (len > 0 && p[len - 1] == ' ')
                len--;
            if (len == 0 || len >= sizeof item)
                return false;
            memcpy(item, p, len);
            item[len] = '\0';
            if (!is_int_text(item))
                return false;
            p += strcspn(p, ",]");
            if (*p == ']')
                return p[1] == '\0';
            p++;
        }
    }
    for (size_t i = 0; i < s->n_fields; i++) {
        if (strcmp(s->fields[i].name, t) != 0)
            continue;
        bool vec;
        const fkcg_kind_spec *k = fkcg_kind_lookup(s->fields[i].kind, &vec);
        return k && k->integer && (!vec || vec_ok);
    }
    return false;
}

/* An input's name, or a message naming the closest input (did-you-mean) or all of them. */
static bool shape_input_ok(vctx *v, const fkcg_section *s, const fkcg_output *o, const fkcg_loc *at,
                           const char *t, const char *what)
{
    if (is_input(s, t))
        return true;
    const char *cand[64];
    size_t nc = 0;
    for (size_t i = 0; i < s->n_inputs && nc < 64; i++)
        cand[nc++] = s->inputs[i].name;
    const char *hint = fkcg_suggest(cand, nc, t);
    if (hint)
        return fail(v, at, "shape_rule '%s': %s '%s' is not an input; did you mean '%s'?",
                    o->shape_rule, what, t, hint);
    return fail(v, at, "shape_rule '%s': %s '%s' is not an input; name one of: %s", o->shape_rule,
                what, t, names(v, s, true));
}

/* The operands of broadcast, reduce, matmul, concat, gather and permute (issue 22): how many,
 * and each a tensor, an axis or axes of the kind its place takes. */
static void check_shape_rule(vctx *v, const fkcg_section *s, fkcg_output *o, const fkcg_loc *at)
{
    static const struct {
        const char *form; /* its operands, for messages */
        size_t min, max;  /* operand counts */
    } forms[] = {
        [FKCG_SR_BROADCAST] = {"broadcast(<input>, <input>...)", 2, FKCG_SHAPE_ARGS},
        [FKCG_SR_REDUCE] = {"reduce(<input>, <axes>, <keepdim>)", 3, 3},
        [FKCG_SR_MATMUL] = {"matmul(<input>, <input>)", 2, 2},
        [FKCG_SR_CONCAT] = {"concat(<axis>)", 1, 1},
        [FKCG_SR_GATHER] = {"gather(<input>, <index input>, <axis>)", 3, 3},
        [FKCG_SR_PERMUTE] = {"permute(<input>, <perm>)", 2, 2},
    };
    if (!split_shape_args(v, at, o))
        return;
    size_t n = o->n_shape_args;
    if (n < forms[o->shape].min || n > forms[o->shape].max) {
        fail(v, at, "shape_rule '%s' has %zu operand%s; write it as %s", o->shape_rule, n,
             n == 1 ? "" : "s", forms[o->shape].form);
        return;
    }
    const char *const *a = o->shape_args;
    switch (o->shape) {
    case FKCG_SR_BROADCAST:
    case FKCG_SR_MATMUL:
        for (size_t i = 0; i < n; i++)
            shape_input_ok(v, s, o, at, a[i], "operand");
        break;
    case FKCG_SR_REDUCE:
        shape_input_ok(v, s, o, at, a[0], "operand");
        if (!shape_axis_ok(s, a[1], true))
            fail(v, at,
                 "shape_rule '%s': axes '%s' must be an integer, a list like [0, 2] or an integer "
                 "op_params field (a Vec too)",
                 o->shape_rule, a[1]);
        if (strcmp(a[2], "true") != 0 && strcmp(a[2], "false") != 0) {
            bool field = false;
            for (size_t i = 0; i < s->n_fields; i++)
                field = field ||
                        (!strcmp(s->fields[i].name, a[2]) && !strcmp(s->fields[i].kind, "bool"));
            if (!field)
                fail(v, at,
                     "shape_rule '%s': keepdim '%s' must be true, false or a bool op_params "
                     "field",
                     o->shape_rule, a[2]);
        }
        break;
    case FKCG_SR_CONCAT:
        if (!shape_axis_ok(s, a[0], false))
            fail(v, at,
                 "shape_rule '%s': axis '%s' must be an integer or an integer op_params "
                 "field",
                 o->shape_rule, a[0]);
        break;
    case FKCG_SR_GATHER:
        shape_input_ok(v, s, o, at, a[0], "operand");
        shape_input_ok(v, s, o, at, a[1], "index");
        if (!shape_axis_ok(s, a[2], false))
            fail(v, at,
                 "shape_rule '%s': axis '%s' must be an integer or an integer op_params "
                 "field",
                 o->shape_rule, a[2]);
        break;
    case FKCG_SR_PERMUTE:
        shape_input_ok(v, s, o, at, a[0], "operand");
        if (!shape_axis_ok(s, a[1], true))
            fail(v, at,
                 "shape_rule '%s': perm '%s' must be a list like [1, 0, 2] or an integer "
                 "op_params field (a Vec)",
                 o->shape_rule, a[1]);
        break;
    default: break;
    }
    if (o->shape != FKCG_SR_CONCAT) /* the table's shape_rule_arg: its first tensor */
        o->shape_rule_arg = a[0];
}

static void build_outputs(vctx *v, const ynode *ret, fkcg_section *s)
{
    const ynode *seq = fkcg_map_get(ret, "outputs");
    s->outputs = fkcg_alloc(v->a, seq->n * sizeof *s->outputs);
    for (const ynode *item = seq->kids; item; item = item->next) {
        fkcg_output *o = &s->outputs[s->n_outputs++];
        o->name = str(v, item, "name");
        o->loc = item->loc;
        o->dtype_rule = str(v, item, "dtype_rule");
        o->dtype_rule_arg = call_arg(v, item, "dtype_rule", "dtype_rule");
        o->shape_rule = str(v, item, "shape_rule");
        o->shape_rule_arg = call_arg(v, item, "shape_rule", "shape_rule");
        o->layout_guarantee = str(v, item, "layout_guarantee");
        o->aliasing = str(v, item, "aliasing");
        o->in_place = str(v, item, "in_place");
        o->in_place_input = -1;
        o->out_arg = bool_of(v, item, "out_arg");
        const ynode *ip = fkcg_map_get(item, "in_place"), *oa = fkcg_map_get(item, "out_arg");
        o->alias_loc = ip ? ip->loc : oa ? oa->key->loc : item->loc;
        check_tensor_name(v, item, "output");
        for (size_t j = 0; j < s->n_inputs + s->n_outputs - 1; j++) {
            bool in = j < s->n_inputs;
            const char *other = in ? s->inputs[j].name : s->outputs[j - s->n_inputs].name;
            if (strcmp(other, o->name) != 0)
                continue;
            fail(v, &fkcg_map_get(item, "name")->loc,
                 "output '%s' has the name of %s; inputs "
                 "and outputs are parameters of one C function: name each differently",
                 o->name, in ? "an input" : "another output");
            fkcg_note(v->d, in ? &s->inputs[j].loc : &s->outputs[j - s->n_inputs].loc,
                      "first declared here");
            break;
        }
        const ynode *dr = fkcg_map_get(item, "dtype_rule"), *sr = fkcg_map_get(item, "shape_rule");
        const ynode *odt = fkcg_map_get(item, "dtypes");
        o->fixed_dtype = -1;
        o->rule = !o->dtype_rule                           ? FKCG_DR_PASSTHROUGH
                  : !strncmp(o->dtype_rule, "same_as(", 8) ? FKCG_DR_SAME_AS
                  : !strncmp(o->dtype_rule, "fixed(", 6)   ? FKCG_DR_FIXED
                  : !strncmp(o->dtype_rule, "param(", 6)   ? FKCG_DR_PARAM
                                                           : FKCG_DR_PASSTHROUGH;
        if (odt)
            for (const ynode *d = odt->kids; d; d = d->next)
                o->dtypes[o->n_dtypes++] = parse_dtype(v, d);
        if (odt && o->rule != FKCG_DR_PARAM)
            fail(v, &odt->key->loc,
                 "output '%s' states 'dtypes' but its dtype_rule '%s' decides its dtype; "
                 "'dtypes' goes with dtype_rule: param(<field>)",
                 o->name, o->dtype_rule ? o->dtype_rule : "");
        if (o->rule == FKCG_DR_PARAM && !odt && o->dtype_rule_arg)
            fail(v, &dr->loc,
                 "dtype_rule '%s' needs the dtypes the output may have: add 'dtypes: [...]' to "
                 "output '%s'",
                 o->dtype_rule, o->name);
        if (o->rule == FKCG_DR_FIXED && o->dtype_rule_arg) {
            ynode arg = *dr;
            arg.str = o->dtype_rule_arg;
            o->fixed_dtype = parse_dtype(v, &arg);
        } else if (o->rule == FKCG_DR_PARAM && o->dtype_rule_arg) {
            const fkcg_field *f = field_named(s, o->dtype_rule_arg);
            if (!f)
                fail(v, &dr->loc,
                     "dtype_rule '%s' names '%s', which is not an op_params field; name one "
                     "of: %s",
                     o->dtype_rule, o->dtype_rule_arg, names(v, s, false));
            else if (!fkcg_field_is_dtype(f))
                fail(v, &dr->loc,
                     "dtype_rule '%s' names '%s', a field of kind %s; the output's dtype comes "
                     "from a dtype-valued field: declare it 'kind: dtype'",
                     o->dtype_rule, f->name, f->kind ? f->kind : "?");
            else if (f->def_index >= 0 && odt) {
                bool listed = false;
                for (size_t k = 0; k < o->n_dtypes; k++)
                    listed |= o->dtypes[k] == f->def_index;
                if (!listed) {
                    fail(v, &f->def_loc,
                         "default '%s' of field '%s' is not among the dtypes output '%s' may "
                         "have (its dtype_rule is '%s')",
                         f->def, f->name, o->name, o->dtype_rule);
                    fkcg_note(v->d, &odt->key->loc, "the output's dtypes are listed here");
                }
            }
        } else if (o->dtype_rule_arg && !is_input(s, o->dtype_rule_arg))
            fail(v, &dr->loc, "dtype_rule '%s' names '%s', which is not an input; name one of: %s",
                 o->dtype_rule, o->dtype_rule_arg, names(v, s, true));
        bool from_params = o->shape_rule && !strncmp(o->shape_rule, "from_params", 11);
        const fkcg_enum *sre = fkcg_enum_find("shape_rule");
        for (size_t k = 0; o->shape_rule && k < sre->count; k++) {
            size_t len = strlen(sre->values[k]);
            if (!strncmp(o->shape_rule, sre->values[k], len) && o->shape_rule[len] == '(')
                o->shape = (fkcg_shape_rule)k;
        }
        if (o->shape_rule && o->shape >= FKCG_SR_BROADCAST && sr) {
            check_shape_rule(v, s, o, &sr->loc);
            continue;
        }
        if (o->shape_rule_arg && from_params && !is_field(s, o->shape_rule_arg))
            fail(v, &sr->loc,
                 "shape_rule '%s' names '%s', which is not an op_params field; name "
                 "one of: %s",
                 o->shape_rule, o->shape_rule_arg, names(v, s, false));
        if (o->shape_rule_arg && !from_params && !is_input(s, o->shape_rule_arg))
            fail(v, &sr->loc, "shape_rule '%s' names '%s', which is not an input; name one of: %s",
                 o->shape_rule, o->shape_rule_arg, names(v, s, true));
    }
}

/* The tensor of that name: k < n_inputs an input, else output k - n_inputs; -1 when none. */
static int tensor_index(const fkcg_section *s, const char *name)
{
    for (size_t i = 0; i < s->n_inputs; i++)
        if (!strcmp(s->inputs[i].name, name))
            return (int)i;
    for (size_t i = 0; i < s->n_outputs; i++)
        if (!strcmp(s->outputs[i].name, name))
            return (int)(s->n_inputs + i);
    return -1;
}

static const char *tensor_name(const fkcg_section *s, int t)
{
    return (size_t)t < s->n_inputs ? s->inputs[t].name : s->outputs[(size_t)t - s->n_inputs].name;
}

static bool has_dtype(const int *list, size_t n, int d)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == d)
            return true;
    return false;
}

/* What slot i of the key may hold: tie[i] >= 0, the dtype of slot tie[i] (and, for an input,
 * one of its own dtypes); else one of dom[i][0..n_dom[i]). */
typedef struct key_domains {
    int tie[FKCG_KEY_MAX];
    const int *dom[FKCG_KEY_MAX];
    size_t n_dom[FKCG_KEY_MAX];
    const int *own[FKCG_KEY_MAX]; /* an input's own list (a tied slot's filter), or NULL */
    size_t n_own[FKCG_KEY_MAX];
} key_domains;

static int slot_of(const fkcg_section *s, int tensor)
{
    for (size_t i = 0; i < s->n_key; i++)
        if (s->key[i] == tensor)
            return (int)i;
    return -1;
}

static bool tuple_allowed(const fkcg_section *s, const key_domains *kd, const int *t)
{
    for (size_t i = 0; i < s->n_key; i++) {
        if (kd->tie[i] >= 0) {
            if (t[i] != t[kd->tie[i]] || (kd->own[i] && !has_dtype(kd->own[i], kd->n_own[i], t[i])))
                return false;
        } else if (!has_dtype(kd->dom[i], kd->n_dom[i], t[i]))
            return false;
    }
    return true;
}

static bool same_tuple(const int *a, const int *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

/* "[F32, F16]" of a tuple, in the run's arena. */
static const char *tuple_text(vctx *v, const fkcg_section *s, const int *t)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    fkcg_buf_putc(&b, '[');
    for (size_t i = 0; i < s->n_key; i++) {
        const fkcg_dtype_info *d = fkcg_section_dtype(s, t[i]);
        fkcg_buf_printf(&b, "%s%s", i ? ", " : "", d ? d->name : "?");
    }
    fkcg_buf_putc(&b, ']');
    const char *out = fkcg_strdup(v->a, b.data);
    fkcg_buf_free(&b);
    return out;
}

/* Reads a list of tuples (dtype_table or exclude) of n_key dtypes each into an array of the
 * run's arena; reports a tuple of another length. */
static int *read_tuples(vctx *v, const fkcg_section *s, const ynode *seq, size_t *n)
{
    int *out = fkcg_alloc(v->a, (seq->n + 1) * s->n_key * sizeof *out);
    *n = 0;
    for (const ynode *t = seq->kids; t; t = t->next) {
        if (t->n != s->n_key) {
            fkcg_buf kb;
            fkcg_buf_init(&kb);
            for (size_t i = 0; i < s->n_key; i++)
                fkcg_buf_printf(&kb, "%s%s", i ? ", " : "", tensor_name(s, s->key[i]));
            fail(v, &t->loc, "'%s' lists %zu dtypes here; the key [%s] has %zu tensors",
                 seq->key->str, t->n, kb.data, s->n_key);
            fkcg_buf_free(&kb);
            continue;
        }
        size_t k = 0;
        for (const ynode *d = t->kids; d; d = d->next)
            out[*n * s->n_key + k++] = parse_dtype(v, d);
        (*n)++;
    }
    return out;
}

#define FKCG_MAX_TUPLES 4096 /* bindings of one section */

static void build_key_(vctx *v, const ynode *root, fkcg_section *s, bool tables_clean);

/* The key (default [input 0, output 0]), each slot's dtypes, and the allowed tuples: the
 * dtype_table, or the cross product less exclude. */
static void build_key(vctx *v, const ynode *root, fkcg_section *s, bool tables_clean)
{
    bool was = v->ok;
    v->ok = true;
    build_key_(v, root, s, tables_clean);
    v->ok = was && v->ok;
}

static void build_key_(vctx *v, const ynode *root, fkcg_section *s, bool tables_clean)
{
    for (size_t i = 0; i < s->n_inputs; i++) /* a dtype reported bad already: no key */
        for (size_t k = 0; k < s->inputs[i].n_dtypes; k++)
            if (s->inputs[i].dtypes[k] < 0)
                return;
    for (size_t i = 0; i < s->n_outputs; i++) {
        const fkcg_output *o = &s->outputs[i];
        if ((o->rule == FKCG_DR_FIXED && o->fixed_dtype < 0) ||
            (o->rule == FKCG_DR_PARAM && o->n_dtypes == 0))
            return;
        for (size_t k = 0; k < o->n_dtypes; k++)
            if (o->dtypes[k] < 0)
                return;
    }
    const ynode *kn = fkcg_map_get(root, "key");
    s->key_loc = kn ? kn->key->loc : s->loc;
    if (kn) {
        s->key_stated = true;
        for (const ynode *e = kn->kids; e && s->n_key < FKCG_KEY_MAX; e = e->next) {
            int t = tensor_index(s, e->str);
            if (t < 0) {
                fkcg_buf all;
                fkcg_buf_init(&all);
                size_t nt = s->n_inputs + s->n_outputs;
                for (size_t i = 0; i < nt; i++)
                    fkcg_buf_put_listed(&all, i, nt, tensor_name(s, (int)i));
                const char *cand[2 * 64];
                size_t nc = 0;
                for (size_t i = 0; i < nt && nc < 128; i++)
                    cand[nc++] = tensor_name(s, (int)i);
                const char *hint = fkcg_suggest(cand, nc, e->str);
                if (hint)
                    fail(v, &e->loc,
                         "key names '%s', which is no input or output; did you mean '%s'?", e->str,
                         hint);
                else
                    fail(v, &e->loc, "key names '%s', which is no input or output; name one of: %s",
                         e->str, all.data);
                fkcg_buf_free(&all);
                continue;
            }
            s->key[s->n_key++] = t;
        }
        if (!v->ok)
            return;
    } else if (s->n_inputs == 0) {
        fail(v, &s->loc,
             "kernel '%s' has no inputs, so the default key [<first input>, <first output>] "
             "has no first input: state its key, e.g. 'key: [%s]'",
             s->kernel ? s->kernel : "?", s->n_outputs ? s->outputs[0].name : "out");
        return;
    } else {
        s->n_key = 2;
        s->key[0] = 0;
        s->key[1] = (int)s->n_inputs;
    }
    const ynode *fo = fkcg_map_get(root, "fanout");
    s->fanout_dtypes = fo && fo->kind == YN_SCALAR && !strcmp(fo->str, "dtypes");
    key_domains kd;
    for (size_t i = 0; i < s->n_key; i++) {
        int t = s->key[i];
        kd.tie[i] = -1;
        kd.own[i] = NULL;
        kd.n_own[i] = 0;
        if ((size_t)t < s->n_inputs) {
            const fkcg_input *in = &s->inputs[t];
            kd.dom[i] = in->dtypes;
            kd.n_dom[i] = in->n_dtypes;
            if (in->same_dtype_as) {
                int x = tensor_index(s, in->same_dtype_as), j = x < 0 ? -1 : slot_of(s, x);
                const ynode *item = nth_input_node(root, (size_t)t);
                const ynode *sd = item ? fkcg_map_get(item, "same_dtype_as") : NULL;
                const fkcg_loc *at = sd ? &sd->loc : &in->loc;
                if (x < 0 || x == t)
                    fail(v, at, "same_dtype_as names '%s', which is no other input or output",
                         in->same_dtype_as);
                else if (j < 0 || j >= (int)i)
                    fail(v, at,
                         "same_dtype_as names '%s', which is not before input '%s' in the key; "
                         "list it earlier in 'key'",
                         in->same_dtype_as, in->name);
                else {
                    kd.tie[i] = j;
                    kd.own[i] = in->dtypes;
                    kd.n_own[i] = in->n_dtypes;
                }
            }
            continue;
        }
        fkcg_output *o = &s->outputs[(size_t)t - s->n_inputs];
        if (o->rule == FKCG_DR_FIXED) {
            kd.dom[i] = &o->fixed_dtype;
            kd.n_dom[i] = 1;
        } else if (o->rule == FKCG_DR_PARAM) {
            kd.dom[i] = o->dtypes;
            kd.n_dom[i] = o->n_dtypes;
        } else {
            int x = o->dtype_rule_arg ? tensor_index(s, o->dtype_rule_arg) : -1;
            int j = x < 0 ? -1 : slot_of(s, x);
            if (x < 0 || (size_t)x >= s->n_inputs) {
                return; /* the rule names no input: reported at the rule */
            } else if (j >= 0 && j < (int)i) {
                kd.tie[i] = j;
            } else {
                kd.dom[i] = s->inputs[x].dtypes;
                kd.n_dom[i] = s->inputs[x].n_dtypes;
            }
        }
    }
    if (!v->ok)
        return;
    const ynode *tab = fkcg_map_get(root, "dtype_table"), *ex = fkcg_map_get(root, "exclude");
    if (!tables_clean)
        return; /* reported where they are */
    if (tab && ex) {
        fail(v, &ex->key->loc,
             "'exclude' beside 'dtype_table': the table lists the allowed tuples itself; "
             "leave the excluded ones out of it");
        return;
    }
    if (tab) {
        size_t n;
        int *t = read_tuples(v, s, tab, &n);
        if (!v->ok)
            return;
        const ynode *row = tab->kids;
        for (size_t r = 0; r < n; r++, row = row->next) {
            if (!tuple_allowed(s, &kd, &t[r * s->n_key]))
                fail(v, &row->loc,
                     "dtype_table row %s is not a key the tensors allow: a dtype is not in its "
                     "tensor's dtypes, or breaks a same_dtype_as or dtype_rule",
                     tuple_text(v, s, &t[r * s->n_key]));
            for (size_t q = 0; q < r; q++)
                if (same_tuple(&t[q * s->n_key], &t[r * s->n_key], s->n_key)) {
                    fail(v, &row->loc, "dtype_table row %s is listed twice",
                         tuple_text(v, s, &t[r * s->n_key]));
                    break;
                }
        }
        s->tuples_stated = true;
        s->tuples = t;
        s->n_tuples = n;
        return;
    }
    size_t n_ex = 0;
    int *exl = ex ? read_tuples(v, s, ex, &n_ex) : NULL;
    if (!v->ok)
        return;
    /* the cross product, by odometer over the free slots, first slot slowest */
    size_t total = 1;
    for (size_t i = 0; i < s->n_key; i++)
        if (kd.tie[i] < 0) {
            if (kd.n_dom[i] == 0) {
                fail(v, &s->key_loc, "key tensor '%s' has no dtype to bind",
                     tensor_name(s, s->key[i]));
                return;
            }
            total *= kd.n_dom[i];
            if (total > FKCG_MAX_TUPLES) {
                fail(v, &s->key_loc,
                     "the key's dtypes make more than %d combinations; state the real ones "
                     "as a dtype_table",
                     FKCG_MAX_TUPLES);
                return;
            }
        }
    int *out = fkcg_alloc(v->a, (total + 1) * s->n_key * sizeof *out);
    bool *used = fkcg_alloc(v->a, (n_ex + 1) * sizeof *used);
    size_t idx[FKCG_KEY_MAX] = {0}, n = 0;
    for (size_t c = 0; c < total; c++) {
        int t[FKCG_KEY_MAX];
        for (size_t i = 0; i < s->n_key; i++)
            t[i] = kd.tie[i] >= 0 ? t[kd.tie[i]] : kd.dom[i][idx[i]];
        bool keep = tuple_allowed(s, &kd, t);
        for (size_t e = 0; keep && e < n_ex; e++)
            if (same_tuple(&exl[e * s->n_key], t, s->n_key))
                keep = false, used[e] = true;
        if (keep)
            memcpy(&out[n++ * s->n_key], t, s->n_key * sizeof *t);
        for (size_t i = s->n_key; i-- > 0;) { /* next combination */
            if (kd.tie[i] >= 0)
                continue;
            if (++idx[i] < kd.n_dom[i])
                break;
            idx[i] = 0;
        }
    }
    const ynode *row = ex ? ex->kids : NULL;
    for (size_t e = 0; e < n_ex; e++, row = row->next)
        if (!used[e])
            fail(v, &row->loc,
                 "exclude row %s is not a key the tensors allow; nothing to leave out",
                 tuple_text(v, s, &exl[e * s->n_key]));
    if (n == 0 && v->ok)
        fail(v, &s->key_loc, "the key allows no dtype combination: the section binds nothing");
    s->excluded = exl;
    s->n_excluded = n_ex;
    s->tuples = out;
    s->n_tuples = n;
}

/* The node of key `rule` of output k in the section's tree, or NULL. */
static const ynode *nth_output_rule(const ynode *root, size_t k, const char *rule)
{
    const ynode *ret = fkcg_map_get(root, "return");
    const ynode *seq = ret ? fkcg_map_get(ret, "outputs") : NULL;
    const ynode *e = seq ? seq->kids : NULL;
    while (e && k--)
        e = e->next;
    return e ? fkcg_map_get(e, rule) : NULL;
}

/* A variadic input (issue 22): the last input, required, not the runtime's, its C count
 * parameter <name>_count no other parameter's name, and no output's shape taken from it (it
 * is several tensors). */
static void check_variadic(vctx *v, const ynode *root, const fkcg_section *s, size_t i)
{
    const fkcg_input *in = &s->inputs[i];
    const ynode *item = nth_input_node(root, i);
    const ynode *vn = item ? fkcg_map_get(item, "variadic") : NULL;
    const fkcg_loc *at = vn ? &vn->key->loc : &in->loc;
    if (i + 1 != s->n_inputs)
        fail(v, at,
             "input '%s' is variadic but not the last input: only the last may be (its tensors "
             "end the C parameter list's inputs)",
             in->name);
    if (in->optional)
        fail(v, at,
             "input '%s' is variadic and optional: a variadic input takes at least one tensor",
             in->name);
    if (s->op_kind && fkcg_runtime_op_kind(s->op_kind))
        fail(v, at,
             "input '%s' is variadic, but the fkc runtime's %s takes one tensor each; "
             "drop 'variadic'",
             in->name, s->op_kind);
    size_t len = strlen(in->name);
    for (size_t t = 0; t < s->n_inputs + s->n_outputs + s->n_fields; t++) {
        const char *other = t < s->n_inputs ? s->inputs[t].name
                            : t < s->n_inputs + s->n_outputs
                                ? s->outputs[t - s->n_inputs].name
                                : s->fields[t - s->n_inputs - s->n_outputs].name;
        if (!strncmp(other, in->name, len) && !strcmp(other + len, "_count"))
            fail(v, at,
                 "variadic input '%s' has a C count parameter '%s_count', the name of another "
                 "tensor or field; rename one",
                 in->name, in->name);
    }
    for (size_t k = 0; k < s->n_outputs; k++) {
        const fkcg_output *o = &s->outputs[k];
        if (o->shape_rule && !strncmp(o->shape_rule, "same_as(", 8) && o->shape_rule_arg &&
            !strcmp(o->shape_rule_arg, in->name)) {
            const ynode *rn = nth_output_rule(root, k, "shape_rule");
            fail(v, rn ? &rn->loc : &o->loc,
                 "shape_rule '%s' takes output '%s''s shape from variadic input '%s', which is "
                 "several tensors; state the shape from a field (from_params)",
                 o->shape_rule, o->name, in->name);
        }
    }
}

static const char *dt_first(const fkcg_section *s, const fkcg_input *in)
{
    const fkcg_dtype_info *d = in->n_dtypes ? fkcg_section_dtype(s, in->dtypes[0]) : NULL;
    return d ? d->name : "F32";
}

/* Optional inputs against the rest of the section: no rule takes its dtype or shape from one
 * (an absent input has neither), a key that names one says what its slot holds without it
 * (absent_key, or the tie of same_dtype_as), and some allowed key has that there. */
static void check_optional(vctx *v, const ynode *root, fkcg_section *s)
{
    for (size_t i = 0; i < s->n_inputs; i++) {
        const fkcg_input *in = &s->inputs[i];
        if (in->shape_only && s->op_kind && fkcg_runtime_op_kind(s->op_kind)) {
            const ynode *item = nth_input_node(root, i);
            const ynode *so = item ? fkcg_map_get(item, "shape_only") : NULL;
            fail(v, so ? &so->key->loc : &in->loc,
                 "input '%s' is shape_only, but the fkc runtime's %s reads every input's data; "
                 "drop 'shape_only'",
                 in->name, s->op_kind);
        }
        if (in->variadic)
            check_variadic(v, root, s, i);
        if (!in->optional)
            continue;
        if (s->op_kind && fkcg_runtime_op_kind(s->op_kind))
            fail(v, &in->optional_loc,
                 "input '%s' is optional, but the fkc runtime's %s takes every input it has; "
                 "drop 'optional'",
                 in->name, s->op_kind);
        for (size_t k = 0; k < s->n_outputs; k++) {
            const fkcg_output *o = &s->outputs[k];
            bool dr = o->dtype_rule_arg && o->rule != FKCG_DR_FIXED && o->rule != FKCG_DR_PARAM &&
                      !strcmp(o->dtype_rule_arg, in->name);
            bool sr = o->shape_rule_arg && o->shape_rule && !strncmp(o->shape_rule, "same_as", 7) &&
                      !strcmp(o->shape_rule_arg, in->name);
            for (int r = 0; r < 2; r++) {
                bool d = r == 0;
                if (!(d ? dr : sr))
                    continue;
                const ynode *rn = nth_output_rule(root, k, d ? "dtype_rule" : "shape_rule");
                fail(v, rn ? &rn->loc : &o->loc,
                     "%s '%s' takes output '%s''s %s from input '%s', which is optional: a call "
                     "may leave it out; name a required input",
                     d ? "dtype_rule" : "shape_rule", d ? o->dtype_rule : o->shape_rule, o->name,
                     d ? "dtype" : "shape", in->name);
            }
        }
        for (size_t k = 0; k < s->n_inputs; k++)
            if (s->inputs[k].same_dtype_as && !strcmp(s->inputs[k].same_dtype_as, in->name)) {
                const ynode *item = nth_input_node(root, k);
                const ynode *sd = item ? fkcg_map_get(item, "same_dtype_as") : NULL;
                fail(v, sd ? &sd->loc : &s->inputs[k].loc,
                     "same_dtype_as names '%s', which is optional: a call may leave it out; "
                     "tie '%s' to a required input",
                     in->name, s->inputs[k].name);
            }
        if (!v->ok || !s->n_key)
            continue;
        int slot = slot_of(s, (int)i);
        const ynode *item = nth_input_node(root, i);
        const ynode *ak = item ? fkcg_map_get(item, "absent_key") : NULL;
        if (slot < 0 && ak) {
            fail(v, &ak->key->loc,
                 "input '%s' states 'absent_key' but the key does not name it; drop "
                 "'absent_key'",
                 in->name);
            continue;
        }
        if (slot < 0)
            continue;
        if (in->same_dtype_as && ak) {
            fail(v, &ak->key->loc,
                 "input '%s' has same_dtype_as '%s': without it, its key slot holds that "
                 "tensor's dtype; drop 'absent_key'",
                 in->name, in->same_dtype_as);
            continue;
        }
        if (in->same_dtype_as)
            continue;
        if (!ak) {
            fail(v, &in->optional_loc,
                 "optional input '%s' is in the key: say which dtype its slot holds in a call "
                 "without it, e.g. 'absent_key: %s' (that key's binding then serves both calls)",
                 in->name, dt_first(s, in));
            continue;
        }
        bool served = false;
        for (size_t t = 0; t < s->n_tuples && !served; t++)
            served = s->tuples[t * s->n_key + (size_t)slot] == in->absent_key;
        if (in->absent_key >= 0 && !served && s->n_tuples)
            fail(v, &ak->loc,
                 "no allowed key has %s in input '%s''s slot: nothing serves a call without it",
                 ak->str, in->name);
    }
}

/* Outputs aliasing a named input (issue 22): in_place names a required input, the output
 * takes its dtype and shape (same_as), says `aliasing: in_place`, the caps allow writing in
 * place, and no two outputs are written over one input; out_arg is not also in place. */
static void check_aliases(vctx *v, const ynode *root, fkcg_section *s, bool caps_clean)
{
    for (size_t k = 0; k < s->n_outputs; k++) {
        fkcg_output *o = &s->outputs[k];
        if (!o->in_place)
            continue;
        int x = -1;
        for (size_t i = 0; i < s->n_inputs; i++)
            if (!strcmp(s->inputs[i].name, o->in_place))
                x = (int)i;
        if (x < 0) {
            const char *cand[64];
            size_t nc = 0;
            for (size_t i = 0; i < s->n_inputs && nc < 64; i++)
                cand[nc++] = s->inputs[i].name;
            const char *hint = fkcg_suggest(cand, nc, o->in_place);
            if (hint)
                fail(v, &o->alias_loc, "in_place names '%s', which is no input; did you mean '%s'?",
                     o->in_place, hint);
            else
                fail(v, &o->alias_loc, "in_place names '%s', which is no input; name one of: %s",
                     o->in_place, names(v, s, true));
            continue;
        }
        o->in_place_input = x;
        const fkcg_input *in = &s->inputs[x];
        if (in->optional)
            fail(v, &o->alias_loc,
                 "output '%s' is written in place over input '%s', which is optional: a call "
                 "may leave it out",
                 o->name, in->name);
        if (o->out_arg)
            fail(v, &o->alias_loc,
                 "output '%s' is both in place over '%s' and an out= argument: state one", o->name,
                 in->name);
        if (in->variadic)
            fail(v, &o->alias_loc,
                 "output '%s' is written in place over input '%s', which is variadic (several "
                 "tensors)",
                 o->name, in->name);
        bool same_dtype = (o->rule == FKCG_DR_PASSTHROUGH || o->rule == FKCG_DR_SAME_AS) &&
                          o->dtype_rule_arg && !strcmp(o->dtype_rule_arg, in->name);
        if (!same_dtype) {
            const ynode *rn = nth_output_rule(root, k, "dtype_rule");
            fail(v, rn ? &rn->loc : &o->loc,
                 "output '%s' is written in place over input '%s', so it has its dtype: its "
                 "dtype_rule must be same_as(%s), not '%s'",
                 o->name, in->name, in->name, o->dtype_rule ? o->dtype_rule : "");
        }
        bool same_shape = o->shape_rule && !strncmp(o->shape_rule, "same_as(", 8) &&
                          o->shape_rule_arg && !strcmp(o->shape_rule_arg, in->name);
        if (!same_shape) {
            const ynode *rn = nth_output_rule(root, k, "shape_rule");
            fail(v, rn ? &rn->loc : &o->loc,
                 "output '%s' is written in place over input '%s', so it has its shape: its "
                 "shape_rule must be same_as(%s), not '%s'",
                 o->name, in->name, in->name, o->shape_rule ? o->shape_rule : "");
        }
        if (o->aliasing && strcmp(o->aliasing, "in_place") != 0) {
            const ynode *an = nth_output_rule(root, k, "aliasing");
            fail(v, an ? &an->loc : &o->loc,
                 "output '%s' is written in place over input '%s': its aliasing is in_place, "
                 "not '%s'",
                 o->name, in->name, o->aliasing);
        }
        if (caps_clean && !s->caps.in_place) {
            const ynode *caps = fkcg_map_get(root, "caps");
            const ynode *cn = caps ? fkcg_map_get(caps, "in_place") : NULL;
            fail(v, cn ? &cn->loc : &o->alias_loc,
                 "output '%s' is written in place over input '%s', but caps.in_place is false; "
                 "set it true",
                 o->name, in->name);
        }
        for (size_t j = 0; j < k; j++)
            if (s->outputs[j].in_place_input == x) {
                fail(v, &o->alias_loc,
                     "outputs '%s' and '%s' are both written in place over input '%s'",
                     s->outputs[j].name, o->name, in->name);
                fkcg_note(v->d, &s->outputs[j].alias_loc, "the first is here");
            }
    }
}

static void build_caps(vctx *v, const ynode *caps, fkcg_section *s)
{
    fkcg_caps *c = &s->caps;
    c->awkward_layout_strategy = str(v, caps, "awkward_layout_strategy");
    const ynode *fp = fkcg_map_get(caps, "fast_paths");
    if (fp) {
        c->fast_paths = fkcg_alloc(v->a, fp->n * sizeof *c->fast_paths);
        for (const ynode *item = fp->kids; item; item = item->next) {
            fkcg_fast_path *p = &c->fast_paths[c->n_fast_paths++];
            p->when = str(v, item, "when");
            p->cost_class = str(v, item, "class");
        }
    }
    c->in_place = bool_of(v, caps, "in_place");
    uint64_t align = uint_of(v, caps, "alignment_bytes");
    uint64_t bits = uint_of(v, caps, "access_granularity_bits");
    const ynode *an = fkcg_map_get(caps, "alignment_bytes");
    const ynode *bn = fkcg_map_get(caps, "access_granularity_bits");
    if (align == 0 || (align & (align - 1)) != 0 || align > 65536)
        fail(v, &an->loc, "alignment_bytes must be a power of two from 1 to 65536, not %s",
             an->str);
    if (bits == 0 || bits % 8 != 0 || bits > 4096)
        fail(v, &bn->loc,
             "access_granularity_bits must be a multiple of 8 from 8 to 4096, "
             "not %s",
             bn->str);
    c->alignment_bytes = (uint32_t)align;
    c->access_granularity_bits = (uint32_t)bits;
    /* requires_contiguous means the binding never sees a strided input. */
    if (c->awkward_layout_strategy && !strcmp(c->awkward_layout_strategy, "requires_contiguous"))
        for (size_t i = 0; i < s->n_inputs; i++) {
            const char *st = s->inputs[i].layout[FKCG_LAYOUT_STRIDED];
            if (st && !strcmp(st, "rejected"))
                continue;
            fail(v, &s->inputs[i].loc,
                 "input '%s' must state 'strided: rejected' in its layout: "
                 "the section's awkward_layout_strategy is requires_contiguous",
                 s->inputs[i].name);
            fkcg_note(v->d, &fkcg_map_get(caps, "awkward_layout_strategy")->loc,
                      "awkward_layout_strategy is set here");
        }
}

static bool expr_has(const fkcg_expr *e, fkcg_expr_kind kind)
{
    return e && (e->kind == kind || expr_has(e->lhs, kind) || expr_has(e->rhs, kind));
}

/* A zero-input op's cost cannot use n or dtype_bytes (the first input's). */
static void check_cost_inputs(vctx *v, const ynode *n, const fkcg_expr *e, const fkcg_section *s)
{
    if (!n || !e || s->n_inputs)
        return;
    bool un = expr_has(e, FKCG_EXPR_N), ub = expr_has(e, FKCG_EXPR_DTYPE_BYTES);
    if (un || ub)
        fail(v, &n->loc,
             "cost uses '%s', the first input's %s, but kernel '%s' has no inputs; use its "
             "op_params fields",
             un ? "n" : "dtype_bytes", un ? "element count" : "byte width",
             s->kernel ? s->kernel : "?");
}

static void build_cost(vctx *v, const ynode *cost, fkcg_section *s)
{
    fkcg_cost *c = &s->cost;
    if (!cost)
        return;
    c->present = true;
    c->loc = cost->key ? cost->key->loc : cost->loc;
    c->provenance = str(v, cost, "provenance");
    c->cost_class = str(v, cost, "class");
    const ynode *fl = fkcg_map_get(cost, "flops"), *bm = fkcg_map_get(cost, "bytes_moved");
    if (fl) {
        c->flops_src = fkcg_strndup(v->a, fl->str, fl->len);
        c->flops = fkcg_expr_parse(v->a, v->d, fl->str, fl->loc, fl->val_col, s->fields,
                                   s->n_fields);
        v->ok = v->ok && c->flops;
    }
    if (bm) {
        c->bytes_moved_src = fkcg_strndup(v->a, bm->str, bm->len);
        c->bytes_moved = fkcg_expr_parse(v->a, v->d, bm->str, bm->loc, bm->val_col, s->fields,
                                         s->n_fields);
        v->ok = v->ok && c->bytes_moved;
    }
    check_cost_inputs(v, fl, c->flops, s);
    check_cost_inputs(v, bm, c->bytes_moved, s);
}

/* The precision keys prec states, over *p (a by_dtype entry's over the section's). */
static void read_precision(vctx *v, const ynode *prec, fkcg_precision *p)
{
    if (fkcg_map_get(prec, "bit_stable_on_same_hardware"))
        p->bit_stable_on_same_hardware = bool_of(v, prec, "bit_stable_on_same_hardware");
    if (fkcg_map_get(prec, "max_ulp")) {
        p->max_ulp_frac = 0;
        parse_ulp(v, fkcg_map_get(prec, "max_ulp"), &p->max_ulp, &p->max_ulp_frac);
    }
    if (fkcg_map_get(prec, "max_relative"))
        p->max_relative = float_of(v, prec, "max_relative");
    if (fkcg_map_get(prec, "max_absolute"))
        p->max_absolute = float_of(v, prec, "max_absolute");
    if (fkcg_map_get(prec, "audited"))
        p->audited = bool_of(v, prec, "audited");
    if (fkcg_map_get(prec, "notes"))
        p->notes = str(v, prec, "notes");
    if (!fkcg_map_get(prec, "reference"))
        return;
    p->reference = str(v, prec, "reference");
    const ynode *rn = fkcg_map_get(prec, "reference");
    if (p->reference && strcmp(p->reference, "correctly_rounded") != 0) {
        const char *impl = !strncmp(p->reference, "implementation:", 15) ? p->reference + 15 : NULL;
        static const char *const forms[] = {"correctly_rounded", "implementation"};
        const char *hint = fkcg_suggest(forms, 2, p->reference);
        if (impl && !fkcg_is_c_path(impl))
            fail(v, &rn->loc,
                 "reference '%s' must name its implementation as a path of C identifiers, like "
                 "implementation:ggml::cpu::gelu",
                 p->reference);
        else if (!impl && hint && !strcmp(hint, "correctly_rounded"))
            fail(v, &rn->loc, "reference: unknown value '%s'; did you mean 'correctly_rounded'?",
                 p->reference);
        else if (!impl)
            fail(v, &rn->loc,
                 "reference '%s' must be correctly_rounded or implementation:<a::b::c>",
                 p->reference);
    }
}

/* determinism: bitwise promises exact results: each precision (the section's, each by_dtype
 * entry's) must say so; prec: the mapping that states p (a key it does not state is reported
 * at the mapping). */
static void check_bitwise(vctx *v, const ynode *prec, const ynode *det, const fkcg_precision *p)
{
    if (strcmp(det->str, "bitwise") != 0)
        return;
    struct {
        const char *key;
        bool bad;
        const char *want;
    } rules[] = {
        {"bit_stable_on_same_hardware", !p->bit_stable_on_same_hardware, "true"},
        {"max_ulp", p->max_ulp != 0 || p->max_ulp_frac != 0, "0"},
        {"max_relative", p->max_relative != 0, "0"},
        {"max_absolute", p->max_absolute != 0, "0"},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        if (!rules[i].bad)
            continue;
        const ynode *k = fkcg_map_get(prec, rules[i].key);
        fail(v, k ? &k->loc : &prec->loc, "determinism: bitwise requires %s: %s", rules[i].key,
             rules[i].want);
        fkcg_note(v->d, &det->loc, "determinism is set here");
    }
}

/* precision_by_dtype: each entry's tuples are bindings of the section, each in one entry;
 * each entry's figures are precision's with its own keys over them. keyed: the key and its
 * tuples were built (else the entries are not matched). */
static void build_precision_by(vctx *v, const ynode *by, const ynode *det, fkcg_section *s,
                               bool keyed)
{
    fkcg_precision_by *out = fkcg_alloc(v->a, (by->n + 1) * sizeof *out);
    size_t n = 0;
    for (const ynode *e = by->kids; e; e = e->next) {
        fkcg_precision_by *pb = &out[n++];
        pb->loc = e->loc;
        pb->p = s->precision;
        read_precision(v, e, &pb->p);
        if (e->n == 1 && fkcg_diag_errors(v->d) == 0) /* after any error (a misspelt key
                                                        * shape dropped): not said */
            fail(v, &e->loc,
                 "this precision_by_dtype entry states only its dtypes; give the figures that "
                 "differ from precision's (max_ulp, max_relative, ...)");
        check_bitwise(v, e, det, &pb->p);
        const ynode *dt = fkcg_map_get(e, "dtypes");
        if (!keyed || !dt)
            continue;
        bool was = v->ok;
        v->ok = true;
        pb->tuples = read_tuples(v, s, dt, &pb->n_tuples);
        const ynode *row = dt->kids;
        for (size_t r = 0; v->ok && r < pb->n_tuples; r++, row = row->next) {
            const int *t = &pb->tuples[r * s->n_key];
            bool bound = false;
            for (size_t q = 0; !bound && q < s->n_tuples; q++)
                bound = same_tuple(&s->tuples[q * s->n_key], t, s->n_key);
            if (!bound) {
                fkcg_buf all;
                fkcg_buf_init(&all);
                for (size_t q = 0; q < s->n_tuples; q++)
                    fkcg_buf_put_listed(&all, q, s->n_tuples,
                                        tuple_text(v, s, &s->tuples[q * s->n_key]));
                fail(v, &row->loc,
                     "precision_by_dtype names %s, which is no binding of kernel '%s'; its keys "
                     "are %s",
                     tuple_text(v, s, t), s->kernel ? s->kernel : "?", all.data);
                fkcg_buf_free(&all);
                continue;
            }
            for (size_t pe = 0; pe + 1 < n; pe++) /* an earlier entry */
                for (size_t q = 0; q < out[pe].n_tuples; q++)
                    if (same_tuple(&out[pe].tuples[q * s->n_key], t, s->n_key)) {
                        fail(v, &row->loc, "precision_by_dtype gives %s figures twice",
                             tuple_text(v, s, t));
                        fkcg_note(v->d, &out[pe].loc, "first given here");
                    }
            for (size_t q = 0; q < r; q++)
                if (same_tuple(&pb->tuples[q * s->n_key], t, s->n_key)) {
                    fail(v, &row->loc, "precision_by_dtype gives %s figures twice",
                         tuple_text(v, s, t));
                    break;
                }
        }
        v->ok = was && v->ok;
    }
    s->precision_by = out;
    s->n_precision_by = n;
}

static void build_precision(vctx *v, const ynode *prec, const ynode *det, fkcg_section *s,
                            bool by_clean, bool keyed)
{
    read_precision(v, prec, &s->precision);
    check_bitwise(v, prec, det, &s->precision);
    const ynode *by = fkcg_map_get(v->root, "precision_by_dtype");
    if (by && by_clean)
        build_precision_by(v, by, det, s, keyed);
}

/* A section's backend and kernel_source must be its provider's. */
static void check_provider(vctx *v, const ynode *root, const fkcg_section *s,
                           const fkcg_provider *p)
{
    if (!p)
        return;
    if (strcmp(s->backend, p->backend) != 0) {
        fail(v, &fkcg_map_get(root, "backend")->loc,
             "backend '%s' is not the provider's "
             "backend '%s'; a file registers on its provider's backend",
             s->backend, p->backend);
        fkcg_note(v->d, &p->backend_loc, "the provider's backend is set here");
    }
    if (strcmp(s->kernel_source, p->kernel_source) != 0) {
        fail(v, &fkcg_map_get(root, "kernel_source")->loc,
             "kernel_source '%s' is not the "
             "provider's kernel_source '%s'",
             s->kernel_source, p->kernel_source);
        fkcg_note(v->d, &p->kernel_source_loc, "the provider's kernel_source is set here");
    }
}

/* The n-th entry of a mapping. */
static const ynode *nth_kid(const ynode *map, size_t n)
{
    const ynode *e = map->kids;
    while (e && n--)
        e = e->next;
    return e;
}

/* "1 input", "2 outputs" */
static const char *count_of(vctx *v, size_t n, const char *what)
{
    return fkcg_sprintf(v->a, "%zu %s%s", n, what, n == 1 ? "" : "s");
}

/* A section of an op kind the fkc runtime implements (names.c's runtime_kernels), whatever its
 * kernel: the generated code takes the runtime's params struct and kernel type for that op
 * kind, so the section states the runtime's tensors and exactly its op_params fields (names,
 * kinds, order). The first difference is reported at the contract's field, with what the
 * runtime has there, and a note at the op kind lists the runtime's fields. */
static void check_runtime_op(vctx *v, const ynode *root, const fkcg_section *s, bool outputs)
{
    const fkcg_runtime_kernel *rk = fkcg_runtime_op_find(s->op_kind);
    if (!rk)
        return;
    const fkcg_loc *op_loc = &fkcg_map_get(root, "op_kind")->loc;
    const ynode *accept = fkcg_map_get(root, "accept"), *ret = fkcg_map_get(root, "return");
    if (s->n_inputs != rk->n_inputs)
        fail(v,
             s->n_inputs > rk->n_inputs ? &s->inputs[rk->n_inputs].loc
                                        : &fkcg_map_get(accept, "inputs")->key->loc,
             "op_kind '%s' is the fkc runtime's (fkc/fkc_kernels.h), whose kernels take %s, "
             "not %zu",
             s->op_kind, count_of(v, rk->n_inputs, "input"), s->n_inputs);
    if (outputs && s->n_outputs != rk->n_outputs)
        fail(v,
             s->n_outputs > rk->n_outputs ? &s->outputs[rk->n_outputs].loc
                                          : &fkcg_map_get(ret, "outputs")->key->loc,
             "op_kind '%s' is the fkc runtime's (fkc/fkc_kernels.h), whose kernels take %s, "
             "not %zu",
             s->op_kind, count_of(v, rk->n_outputs, "output"), s->n_outputs);
    fkcg_buf msg, list;
    fkcg_buf_init(&msg);
    fkcg_buf_init(&list);
    fkcg_runtime_fields_list(rk, &list);
    size_t at;
    const ynode *op = fkcg_map_get(accept, "op_params");
    const ynode *fields = op ? fkcg_map_get(op, "fields") : NULL;
    fkcg_rt_diff d = fkcg_runtime_fields_diff(rk, s->fields, s->n_fields, &at, &msg);
    if (d != FKCG_RT_SAME && !fields) {
        fail(v, op_loc,
             "op_kind '%s' is the fkc runtime's (fkc/fkc_kernels.h), whose params "
             "are %s; state them as op_params fields",
             s->op_kind, list.data);
    } else if (d != FKCG_RT_SAME) {
        const ynode *entry = at < s->n_fields ? nth_kid(fields, at) : NULL;
        const fkcg_loc *loc = !entry              ? &fields->key->loc
                              : d == FKCG_RT_KIND ? &fkcg_map_get(entry, "kind")->loc
                                                  : &s->fields[at].loc;
        fail(v, loc, "%s", msg.data);
        fkcg_note(v->d, op_loc,
                  "op kind %s is the fkc runtime's (fkc/fkc_kernels.h), whose "
                  "params are %s",
                  s->op_kind, list.data);
    }
    fkcg_buf_free(&msg);
    fkcg_buf_free(&list);
}

/* Are the section's keys (a NULL-ended list) all present (when required) and well-typed? */
static bool clean(const vctx *v, ...)
{
    va_list ap;
    va_start(ap, v);
    bool ok = true;
    for (const char *key; ok && (key = va_arg(ap, const char *)) != NULL;) {
        const fkcg_key *k = fkcg_schema_key(&fkcg_schema_section, key);
        ok = !(v->bad >> (k - fkcg_schema_section.keys) & 1);
    }
    va_end(ap);
    return ok;
}

/* The section's rules, each run when the keys it reads are clean: a mistake in one key never
 * hides one in an independent key, and never cascades into a rule that reads it. */
fkcg_section *fkcg_validate_section(fkcg_arena *a, fkcg_diag *d, const ynode *root,
                                    const fkcg_chunk *c, const fkcg_provider *p)
{
    vctx ctx = {a, d, true, root, 0, p}, *v = &ctx;
    check_map(v, root, &fkcg_schema_section, &c->loc);
    fkcg_section *s = fkcg_alloc(a, sizeof *s);
    s->heading = c->heading;
    s->prose = c->prose;
    s->provider = p;
    s->loc = c->loc;
    s->kernel = str(v, root, "kernel");
    if (clean(v, "kernel", NULL))
        s->kernel_loc = fkcg_map_get(root, "kernel")->loc;
    s->op_kind = str(v, root, "op_kind");
    s->blurb = str(v, root, "blurb");
    s->backend = str(v, root, "backend");
    s->kernel_source = str(v, root, "kernel_source");
    s->entry_point = str(v, root, "entry_point");
    s->revision_hash = str(v, root, "kernel_revision_hash");
    s->determinism = str(v, root, "determinism");
    s->cpu_reference = str(v, root, "cpu_reference");
    if (!clean(v, "op_kind", NULL))
        ;
    else if (!fkcg_is_op_kind(s->op_kind))
        fail(v, &fkcg_map_get(root, "op_kind")->loc,
             "op_kind '%s' must be UpperCamelCase "
             "(like WriteSlice: letters and digits, starting with a capital)",
             s->op_kind);
    else {
        char *snake = fkcg_snake_case(s->op_kind);
        const char *why = fkcg_op_kind_c_clash(snake);
        if (why)
            fail(v, &fkcg_map_get(root, "op_kind")->loc,
                 "op_kind '%s' has the C name '%s', "
                 "which is %s; choose another name",
                 s->op_kind, snake, why);
        free(snake);
    }
    const fkcg_runtime_kernel *rk = clean(v, "kernel", "op_kind", "backend", NULL)
                                        ? fkcg_runtime_kernel_find(s->kernel)
                                        : NULL;
    if (rk && s->op_kind && s->backend &&
        (strcmp(s->op_kind, rk->op_kind) != 0 || strcmp(s->backend, rk->backend) != 0))
        fail(v, &s->kernel_loc,
             "kernel '%s' is a kernel of the fkc runtime (fkc/fkc_kernels.h), "
             "which implements it as op_kind %s on %s; bind it as that, or name your own kernel",
             s->kernel, rk->op_kind, rk->backend);
    if (clean(v, "op_kind", NULL))
        s->op_kind_loc = fkcg_map_get(root, "op_kind")->loc;
    if (clean(v, "entry_point", NULL))
        s->entry_point_loc = fkcg_map_get(root, "entry_point")->loc;
    if (clean(v, "backend", "kernel_source", NULL))
        check_provider(v, root, s, p);
    const ynode *accept = fkcg_map_get(root, "accept");
    bool accepted = clean(v, "accept", NULL); /* outputs, caps and cost name its inputs, fields */
    if (accepted) {
        build_inputs(v, accept, s);
        build_op_params(v, accept, s);
    }
    if (accepted && clean(v, "return", NULL))
        build_outputs(v, fkcg_map_get(root, "return"), s);
    if (accepted && clean(v, "return", "key", NULL))
        build_key(v, root, s, clean(v, "dtype_table", "exclude", NULL));
    if (accepted && clean(v, "return", "key", NULL))
        check_optional(v, root, s);
    if (accepted && clean(v, "op_kind", NULL))
        check_runtime_op(v, root, s, clean(v, "return", NULL));
    if (clean(v, "caps", NULL))
        build_caps(v, fkcg_map_get(root, "caps"), s);
    if (accepted && clean(v, "cost", NULL))
        build_cost(v, fkcg_map_get(root, "cost"), s);
    if (accepted && clean(v, "return", NULL))
        check_aliases(v, root, s, clean(v, "caps", NULL));
    if (clean(v, "precision", "determinism", NULL))
        build_precision(v, fkcg_map_get(root, "precision"), fkcg_map_get(root, "determinism"), s,
                        clean(v, "precision_by_dtype", NULL), accepted && s->n_tuples > 0);
    s->invalid = !v->ok;
    return s;
}

fkcg_provider *fkcg_validate_provider(fkcg_arena *a, fkcg_diag *d, const ynode *front,
                                      const fkcg_chunk *c)
{
    vctx ctx = {a, d, true, NULL, 0, NULL}, *v = &ctx;
    fkcg_loc top = {c->file, 1, 1};
    if (!check_map(v, front, &fkcg_schema_front, &top))
        return NULL;
    fkcg_provider *p = fkcg_alloc(a, sizeof *p);
    const ynode *ver = fkcg_map_get(front, "fkc_version");
    p->fkc_version = uint_of(v, front, "fkc_version");
    static const unsigned known[] = FKCG_FKC_VERSIONS;
    bool ok = false;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        ok = ok || p->fkc_version == known[i];
    if (!ok)
        fail(v, &ver->loc, "fkc_version %s is not one this fkcgen (%s) knows; it reads version 1",
             ver->str, FKCGEN_VERSION);
    const ynode *prov = fkcg_map_get(front, "provider");
    p->name = str(v, prov, "name");
    p->backend = str(v, prov, "backend");
    p->kernel_source = str(v, prov, "kernel_source");
    p->link_registry = str(v, prov, "link_registry");
    p->revision_base = str(v, prov, "revision_base");
    const ynode *bd = fkcg_map_get(prov, "block_dtypes");
    if (bd) {
        p->block_dtypes = fkcg_alloc(a, (bd->n + 1) * sizeof *p->block_dtypes);
        p->block_codes = fkcg_alloc(a, (bd->n + 1) * sizeof *p->block_codes);
        if (bd->n > FKCG_MAX_BLOCK_DTYPES)
            fail(v, &bd->key->loc,
                 "block_dtypes declares %zu dtypes; a file may declare at most %d", bd->n,
                 FKCG_MAX_BLOCK_DTYPES);
        for (const ynode *e = bd->kids; e && p->n_block_dtypes < FKCG_MAX_BLOCK_DTYPES;
             e = e->next) {
            fkcg_dtype_info *di = &p->block_dtypes[p->n_block_dtypes++];
            const ynode *nm = fkcg_map_get(e, "block");
            di->name = str(v, e, "block");
            di->loc = nm->loc;
            char *suf = fkcg_strdup(a, di->name);
            for (char *q = suf; *q; q++)
                *q = (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
            di->suffix = suf;
            di->block_elements = (uint32_t)uint_of(v, e, "block_elements");
            di->bytes = (uint32_t)uint_of(v, e, "block_bytes");
            const ynode *be = fkcg_map_get(e, "block_elements"),
                        *bb = fkcg_map_get(e, "block_bytes");
            if (di->block_elements == 0 || uint_of(v, e, "block_elements") > 65536)
                fail(v, &be->loc, "block_elements must be from 1 to 65536, not %s", be->str);
            if (di->bytes == 0 || uint_of(v, e, "block_bytes") > 65536)
                fail(v, &bb->loc, "block_bytes must be from 1 to 65536, not %s", bb->str);
            bool upper = di->name[0] >= 'A' && di->name[0] <= 'Z';
            for (const char *q = di->name; *q; q++)
                upper = upper && !(*q >= 'a' && *q <= 'z');
            if (!upper)
                fail(v, &nm->loc,
                     "block dtype '%s' must be upper case (letters, digits, _), like Q4_0: "
                     "its symbol suffix is its lower case",
                     di->name);
            else if (fkcg_enum_index(fkcg_enum_find("dtype"), di->name) >= 0)
                fail(v, &nm->loc, "block dtype '%s' is a dtype of the vocabulary already",
                     di->name);
            for (size_t k = 0; k + 1 < p->n_block_dtypes; k++)
                if (!strcmp(p->block_dtypes[k].name, di->name)) {
                    fail(v, &nm->loc, "block dtype '%s' is declared twice", di->name);
                    fkcg_note(v->d, &p->block_dtypes[k].loc, "first declared here");
                }
        }
    }
    p->backend_loc = fkcg_map_get(prov, "backend")->loc;
    p->kernel_source_loc = fkcg_map_get(prov, "kernel_source")->loc;
    p->loc = top;
    return v->ok ? p : NULL;
}
