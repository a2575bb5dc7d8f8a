/* conform_claims.c — the claims `fkc-run conform` checks, read from `fkcgen dump --json`
 * (its format is docs/fkcgen.md's, "dump --json") with json-c: per binding its key, its
 * section's precision, determinism, first input (dtypes, rank), op_params fields and output
 * rules. fkc-run reads JSON, never a contract: the runtime's side knows nothing of YAML or
 * Markdown. A dump that is not what docs/fkcgen.md says is an error naming the binding. */
#include "conform.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_kinds[CONFORM_OP_COUNT] = {"WriteSlice", "WriteSliceRotating",
                                                       "SetRows"};

const char *conform_op_kind(conform_op op)
{
    return op < CONFORM_OP_COUNT ? op_kinds[op] : "?";
}

/* obj[key] of the given type, or NULL. */
static json_object *member(json_object *obj, const char *key, json_type type)
{
    json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, type))
        return NULL;
    return v;
}

static const char *string_of(json_object *obj, const char *key)
{
    json_object *v = member(obj, key, json_type_string);
    return v ? json_object_get_string(v) : NULL;
}

static fkc_backend backend_of(const char *name)
{
    for (int b = 0; b < FKC_BACKEND_COUNT; b++)
        if (name && strcmp(fkc_backend_name((fkc_backend)b), name) == 0)
            return (fkc_backend)b;
    return FKC_BACKEND_COUNT;
}

static fkc_dtype dtype_of(json_object *v)
{
    const char *s = v && json_object_is_type(v, json_type_string) ? json_object_get_string(v)
                                                                  : NULL;
    for (int d = 0; s && d < FKC_DTYPE_COUNT; d++)
        if (strcmp(fkc_dtype_name((fkc_dtype)d), s) == 0)
            return (fkc_dtype)d;
    return FKC_DTYPE_COUNT;
}

static int determinism_of(const char *s, conform_determinism *d)
{
    static const char *const names[] = {"bitwise", "deterministic", "nondeterministic"};
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *d = (conform_determinism)i;
            return 0;
        }
    return -1;
}

/* precision: its four figures. */
static int read_precision(json_object *p, conform_claim *c)
{
    json_object *stable = member(p, "bit_stable_on_same_hardware", json_type_boolean);
    json_object *ulp = member(p, "max_ulp", json_type_int);
    json_object *ulp_frac = member(p, "max_ulp", json_type_double); /* 2.5 (issue 22) */
    json_object *rel, *abs;
    if (!stable || (!ulp && !ulp_frac) || !json_object_object_get_ex(p, "max_relative", &rel) ||
        !json_object_object_get_ex(p, "max_absolute", &abs))
        return -1;
    c->bit_stable = json_object_get_boolean(stable);
    c->max_ulp_stated = json_object_to_json_string_ext(ulp ? ulp : ulp_frac,
                                                       JSON_C_TO_STRING_PLAIN);
    if (ulp)
        c->max_ulp = json_object_get_uint64(ulp);
    else { /* a distance in whole ulps is at most 2.5 when it is at most 2: the whole part, read
            * from the text as written (exact past 2^53, where a double is not) */
        const char *t = c->max_ulp_stated;
        char *end;
        errno = 0;
        unsigned long long w = strtoull(t, &end, 10);
        if (errno || end == t || *end != '.')
            return -1;
        c->max_ulp = w;
    }
    c->max_relative = json_object_get_double(rel);
    c->max_absolute = json_object_get_double(abs);
    return 0;
}

/* inputs[0] (name, dtypes, rank), outputs[0] (rules, aliasing) and op_params' fields. */
static int read_signature(json_object *b, conform_claim *c)
{
    json_object *ins = member(b, "inputs", json_type_array);
    json_object *outs = member(b, "outputs", json_type_array);
    json_object *params = member(b, "op_params", json_type_object);
    json_object *fields = member(params, "fields", json_type_array);
    json_object *in0 = ins ? json_object_array_get_idx(ins, 0) : NULL;
    json_object *out0 = outs ? json_object_array_get_idx(outs, 0) : NULL;
    json_object *dts = member(in0, "dtypes", json_type_array);
    const char *rank = string_of(in0, "rank");
    if (!in0 || !out0 || !dts || !rank)
        return -1;
    c->n_inputs = (uint32_t)json_object_array_length(ins);
    c->n_outputs = (uint32_t)json_object_array_length(outs);
    c->input = string_of(in0, "name");
    c->rank = strcmp(rank, "any") == 0 ? 0 : (uint32_t)strtoul(rank, NULL, 10);
    if (strcmp(rank, "any") != 0 && c->rank == 0)
        c->rank = UINT32_MAX; /* "0": no rank fkc takes */
    for (size_t i = 0; i < json_object_array_length(dts) && i < FKC_DTYPE_COUNT; i++)
        if ((c->declared[c->n_declared++] = dtype_of(json_object_array_get_idx(dts, i))) ==
            FKC_DTYPE_COUNT)
            return -1;
    c->dtype_rule = string_of(out0, "dtype_rule");
    c->shape_rule = string_of(out0, "shape_rule");
    c->aliasing = string_of(out0, "aliasing");
    for (size_t i = 0; fields && i < json_object_array_length(fields); i++) {
        json_object *f = json_object_array_get_idx(fields, i);
        if (c->n_fields == CONFORM_MAX_FIELDS)
            break;
        c->fields[c->n_fields] = string_of(f, "name");
        c->field_kinds[c->n_fields++] = string_of(f, "kind");
    }
    return c->input && c->dtype_rule && c->shape_rule && c->aliasing ? 0 : -1;
}

/* One binding of conform's op kinds. */
static int read_binding(json_object *b, conform_op op, conform_claim *c)
{
    json_object *dts = member(b, "dtypes", json_type_array);
    json_object *width = member(b, "byte_width", json_type_int);
    json_object *src = member(b, "source", json_type_object);
    json_object *line = member(src, "line", json_type_int);
    json_object *caps = member(b, "caps", json_type_object);
    json_object *align = member(caps, "alignment_bytes", json_type_int);
    memset(c, 0, sizeof *c);
    c->op = op;
    c->kernel = string_of(b, "kernel");
    c->op_kind = op == CONFORM_GENERIC ? string_of(b, "op_kind") : op_kinds[op];
    c->cpu_reference = string_of(b, "cpu_reference");
    c->kernel_source = string_of(b, "kernel_source");
    c->backend_name = string_of(b, "backend");
    c->backend = backend_of(c->backend_name);
    c->file = string_of(src, "file");
    c->line = line ? (uint32_t)json_object_get_int(line) : 0;
    size_t n_key = op == CONFORM_SET_ROWS ? 3 : 2; /* SetRows: [src, index, cache] */
    if (!c->kernel || !c->kernel_source || c->backend == FKC_BACKEND_COUNT || !dts ||
        json_object_array_length(dts) != n_key || !width || !c->file || !align)
        return -1;
    c->dtype = dtype_of(json_object_array_get_idx(dts, 0));
    c->out_dtype = dtype_of(json_object_array_get_idx(dts, n_key - 1));
    c->index_dtype = n_key == 3 ? dtype_of(json_object_array_get_idx(dts, 1)) : FKC_DTYPE_COUNT;
    if (n_key == 3 && c->index_dtype == FKC_DTYPE_COUNT)
        return -1;
    c->byte_width = (uint32_t)json_object_get_int(width);
    c->alignment = (uint32_t)json_object_get_int(align);
    if (c->dtype == FKC_DTYPE_COUNT || c->out_dtype == FKC_DTYPE_COUNT ||
        determinism_of(string_of(b, "determinism"), &c->determinism) < 0 ||
        read_precision(member(b, "precision", json_type_object), c) < 0)
        return -1;
    return read_signature(b, c);
}

/* Notes an op kind conform does not check, once, in c->other. */
static void note_other(conform_claims *c, const char *kind)
{
    size_t len = strlen(c->other), k = strlen(kind);
    c->n_other++;
    for (const char *p = c->other; (p = strstr(p, kind)); p += k)
        if ((p == c->other || p[-1] == ' ') && (p[k] == ',' || p[k] == '\0'))
            return;
    snprintf(c->other + len, sizeof c->other - len, "%s%s", len ? ", " : "", kind);
}

int conform_claims_read(const char *path, conform_claims *c, char err[CLI_ERR_MAX])
{
    memset(c, 0, sizeof *c);
    json_object *root = json_object_from_file(path);
    json_object *bs = member(root, "bindings", json_type_array);
    c->json = root;
    if (!bs) {
        cli_errf(err, "conform: fkcgen dump --json printed no \"bindings\" list: %s",
                 root ? "not the format of docs/fkcgen.md" : json_util_get_last_err());
        return -1;
    }
    size_t n = json_object_array_length(bs);
    c->items = calloc(n ? n : 1, sizeof *c->items);
    if (!c->items) {
        cli_errf(err, "conform: out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *b = json_object_array_get_idx(bs, i);
        const char *kind = string_of(b, "op_kind");
        int op = 0;
        while (op < CONFORM_OP_COUNT && (!kind || strcmp(kind, op_kinds[op]) != 0))
            op++;
        if (op == CONFORM_OP_COUNT && !string_of(b, "cpu_reference")) {
            note_other(c, kind ? kind : "?");
            continue;
        }
        json_object *key = member(b, "dtypes", json_type_array);
        if (op == CONFORM_OP_COUNT && key && json_object_array_length(key) != 2) {
            cli_errf(err,
                     "conform: %s (%s) has a key of %zu dtypes; conform checks a family of a "
                     "backend's own keyed [in, out]",
                     string_of(b, "kernel") ? string_of(b, "kernel") : "?", kind ? kind : "?",
                     json_object_array_length(key));
            return -1;
        }
        json_object *ins = member(b, "inputs", json_type_array);
        json_object *dts = member(ins ? json_object_array_get_idx(ins, 0) : NULL, "dtypes",
                                  json_type_array);
        for (size_t k = 0;
             op == CONFORM_OP_COUNT && key && k < 2 + (dts ? json_object_array_length(dts) : 0);
             k++) {
            json_object *v = json_object_array_get_idx(k < 2 ? key : dts, k < 2 ? k : k - 2);
            if (dtype_of(v) == FKC_DTYPE_COUNT) {
                cli_errf(err,
                         "conform: %s (%s) takes %s; conform checks a family of a backend's "
                         "own over fkc's nine dtypes (F32 ... I8)",
                         string_of(b, "kernel") ? string_of(b, "kernel") : "?", kind ? kind : "?",
                         v ? json_object_get_string(v) : "?");
                return -1;
            }
        }
        if (read_binding(b, (conform_op)op, &c->items[c->n]) < 0) {
            cli_errf(err,
                     "conform: binding %zu of fkcgen's dump (%s) lacks a field "
                     "docs/fkcgen.md describes",
                     i, string_of(b, "kernel") ? string_of(b, "kernel") : "?");
            return -1;
        }
        conform_claim *cl = &c->items[c->n++];
        if (cl->op != CONFORM_GENERIC)
            continue;
        c->n_generic++;
        uint32_t g = 0;
        while (g < c->n_generic_ops && strcmp(c->generic_ops[g], cl->op_kind) != 0)
            g++;
        if (g == sizeof c->generic_ops / sizeof c->generic_ops[0]) {
            cli_errf(err, "conform: more than %zu op kinds with a cpu_reference",
                     sizeof c->generic_ops / sizeof c->generic_ops[0]);
            return -1;
        }
        if (g == c->n_generic_ops)
            c->generic_ops[c->n_generic_ops++] = cl->op_kind;
        cl->generic = g;
    }
    return 0;
}

void conform_claims_free(conform_claims *c)
{
    json_object_put(c->json);
    free(c->items);
    memset(c, 0, sizeof *c);
}
