/* conform_report.c — `fkc-run conform --format json|sarif|junit|github`: the rows conform
 * prints as a table, kept as JSON objects (json-c) and printed at the end as one document for
 * CI (docs/runtime.md, "conform's results for CI"). The table (text) is conform.c's own; every
 * row goes through conform_report_row either way, so a format is a printer, not another run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "conform_report.h"

struct conform_report {
    json_object *doc, *rows;
};

/* The claim classes a note names (conform.c sets them per check) and what each checks. */
static const char *const claim_rules[][2] = {
    {"dtypes", "the declared dtypes run through the generated dispatch; the others are refused"},
    {"precision", "each output element against the CPU reference, within the precision block"},
    {"determinism", "a second run of every case gives identical bytes"},
    {"guard", "no byte outside the declared outputs changes (guard bands around each)"},
    {"aliasing", "the inputs are unchanged; aliasing claims other than none are honoured"},
    {"shape_rule", "the shape rule gives the output's shape"},
    {"dtype_rule", "the dtype rule gives the output's dtype"},
    {"shape_constraint", "calls the reference refuses are refused"},
    {"skipped", "SetRows: a negative or past-the-end index writes nothing"},
    {"duplicates", "SetRows: a slot named by several rows gets the last of them, whole"},
    {"status", "SetRows: the status word counts the indices past the end (mod 2^32)"},
    {"validation", "the Vulkan validation layer reports nothing"},
    {"run", "the cases could run at all (buffers, stream, submit)"},
    {"binding", "the binding as a whole (rank, memory)"},
};
#define N_CLAIM_RULES (sizeof claim_rules / sizeof claim_rules[0])

conform_report *conform_report_new(const cli_opts *o, const char *device)
{
    conform_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->doc = json_object_new_object();
    r->rows = json_object_new_array();
    json_object *contracts = json_object_new_array();
    for (uint32_t i = 0; i < o->n_contracts; i++)
        json_object_array_add(contracts, json_object_new_string(o->contracts[i]));
    json_object_object_add(r->doc, "tool", json_object_new_string("fkc-run conform"));
    json_object_object_add(r->doc, "contracts", contracts);
    json_object_object_add(r->doc, "device", device ? json_object_new_string(device) : NULL);
    json_object_object_add(r->doc, "cpu", json_object_new_boolean(o->cpu));
    json_object_object_add(r->doc, "validate", json_object_new_boolean(o->validate));
    json_object_object_add(r->doc, "cases", json_object_new_int64((int64_t)o->cases));
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    json_object_object_add(r->doc, "seed", json_object_new_string(seed));
    return r;
}

void conform_report_free(conform_report *r)
{
    if (!r)
        return;
    json_object_put(r->doc);
    json_object_put(r->rows);
    free(r);
}

void conform_report_row(conform_report *r, const conform_report_row_t *row)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "kernel", json_object_new_string(row->kernel));
    json_object_object_add(o, "op_kind", json_object_new_string(row->op_kind));
    json_object_object_add(o, "dtype", json_object_new_string(row->dtype));
    json_object_object_add(o, "declared", json_object_new_boolean(row->declared));
    json_object_object_add(o, "file", row->file ? json_object_new_string(row->file) : NULL);
    json_object_object_add(o, "line", json_object_new_int64(row->line));
    json_object_object_add(o, "cases",
                           row->declared ? json_object_new_int64((int64_t)row->cases) : NULL);
    json_object_object_add(o, "passed",
                           row->declared ? json_object_new_int64((int64_t)row->passed) : NULL);
    json_object_object_add(
        o, "failed",
        row->declared ? json_object_new_int64((int64_t)(row->cases - row->passed)) : NULL);
    json_object_object_add(o, "refused", json_object_new_int64((int64_t)row->refused));
    json_object_object_add(o, "ok", json_object_new_boolean(!row->fail));
    json_object_object_add(o, "result", json_object_new_string(row->result));
    json_object *notes = json_object_new_array();
    for (size_t i = 0; i < row->n_notes; i++) {
        json_object *n = json_object_new_object();
        json_object_object_add(n, "claim", json_object_new_string(row->claims[i]));
        json_object_object_add(n, "message", json_object_new_string(row->notes[i]));
        json_object_array_add(notes, n);
    }
    json_object_object_add(o, "notes", notes);
    if (row->claim && row->err) { /* the precision block beside what was measured */
        json_object *claimed = json_object_new_object(), *measured = json_object_new_object();
        const char *stated = row->claim->max_ulp_stated;
        json_object_object_add(claimed, "max_ulp", /* as stated: 2.5 stays 2.5 */
                               stated && strchr(stated, '.')
                                   ? json_object_new_double_s(strtod(stated, NULL), stated)
                                   : json_object_new_int64((int64_t)row->claim->max_ulp));
        json_object_object_add(claimed, "max_relative",
                               json_object_new_double(row->claim->max_relative));
        json_object_object_add(claimed, "max_absolute",
                               json_object_new_double(row->claim->max_absolute));
        json_object_object_add(
            claimed, "determinism",
            json_object_new_string(row->claim->determinism == CONFORM_BITWISE ? "bitwise"
                                   : row->claim->determinism == CONFORM_DETERMINISTIC
                                       ? "deterministic"
                                       : "nondeterministic"));
        char ulp[24];
        snprintf(ulp, sizeof ulp, "%llu", (unsigned long long)row->err->max_ulp);
        /* a string: UINT64_MAX (a NaN against a number) is beyond a JSON number's exactness */
        json_object_object_add(measured, "max_ulp", json_object_new_string(ulp));
        json_object_object_add(measured, "max_relative",
                               json_object_new_double(row->err->max_relative));
        json_object_object_add(measured, "max_absolute",
                               isinf(row->err->max_absolute)
                                   ? json_object_new_string("inf")
                                   : json_object_new_double(row->err->max_absolute));
        json_object_object_add(measured, "elements",
                               json_object_new_int64((int64_t)row->err->elements));
        json_object_object_add(o, "claimed", claimed);
        json_object_object_add(o, "measured", measured);
    }
    json_object_object_add(o, "more_notes", json_object_new_int64((int64_t)row->n_more));
    json_object_array_add(r->rows, o);
}

/* ---- printers ---- */

static const char *str(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && v ? json_object_get_string(v) : NULL;
}

static int64_t num(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && v ? json_object_get_int64(v) : 0;
}

static bool yes(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && v && json_object_get_boolean(v);
}

static json_object *notes_of(json_object *row)
{
    json_object *v = NULL;
    json_object_object_get_ex(row, "notes", &v);
    return v;
}

static int rule_index(const char *claim)
{
    for (size_t i = 0; i < N_CLAIM_RULES; i++)
        if (!strcmp(claim_rules[i][0], claim))
            return (int)i;
    return (int)N_CLAIM_RULES - 1;
}

static void add_result(json_object *results, json_object *row, const char *claim,
                       const char *message)
{
    char rule[64], text[8192];
    snprintf(rule, sizeof rule, "conform.%s", claim);
    snprintf(text, sizeof text, "%s %s (%s): %s: %s", str(row, "kernel"), str(row, "dtype"),
             str(row, "op_kind"), claim, message);
    json_object *res = json_object_new_object();
    json_object_object_add(res, "ruleId", json_object_new_string(rule));
    json_object_object_add(res, "ruleIndex", json_object_new_int(rule_index(claim)));
    json_object_object_add(res, "level", json_object_new_string("error"));
    json_object *msg = json_object_new_object();
    json_object_object_add(msg, "text", json_object_new_string(text));
    json_object_object_add(res, "message", msg);
    json_object *locs = json_object_new_array();
    if (str(row, "file")) {
        json_object *art = json_object_new_object(), *phys = json_object_new_object(),
                    *loc = json_object_new_object(), *region = json_object_new_object();
        const char *f = str(row, "file");
        char uri[4200];
        snprintf(uri, sizeof uri, "%s%s", f[0] == '/' ? "file://" : "", f);
        json_object_object_add(art, "uri", json_object_new_string(uri));
        json_object_object_add(phys, "artifactLocation", art);
        if (num(row, "line") > 0) {
            json_object_object_add(region, "startLine", json_object_new_int64(num(row, "line")));
            json_object_object_add(phys, "region", region);
        } else {
            json_object_put(region);
        }
        json_object_object_add(loc, "physicalLocation", phys);
        json_object_array_add(locs, loc);
    }
    json_object_object_add(res, "locations", locs);
    json_object *props = json_object_new_object();
    json_object_object_add(props, "kernel", json_object_new_string(str(row, "kernel")));
    json_object_object_add(props, "dtype", json_object_new_string(str(row, "dtype")));
    json_object_object_add(props, "claim", json_object_new_string(claim));
    json_object_object_add(res, "properties", props);
    json_object_array_add(results, res);
}

static json_object *sarif(const conform_report *r)
{
    json_object *doc = json_object_new_object(), *runs = json_object_new_array(),
                *run = json_object_new_object(), *tool = json_object_new_object(),
                *driver = json_object_new_object(), *rules = json_object_new_array(),
                *results = json_object_new_array();
    json_object_object_add(doc, "$schema",
                           json_object_new_string("https://json.schemastore.org/sarif-2.1.0.json"));
    json_object_object_add(doc, "version", json_object_new_string("2.1.0"));
    json_object_object_add(driver, "name", json_object_new_string("fkc-run conform"));
    json_object_object_add(driver, "version", json_object_new_string(FKC_VERSION_STRING));
    for (size_t i = 0; i < N_CLAIM_RULES; i++) {
        char id[64];
        snprintf(id, sizeof id, "conform.%s", claim_rules[i][0]);
        json_object *rule = json_object_new_object(), *d = json_object_new_object();
        json_object_object_add(rule, "id", json_object_new_string(id));
        json_object_object_add(d, "text", json_object_new_string(claim_rules[i][1]));
        json_object_object_add(rule, "shortDescription", d);
        json_object_array_add(rules, rule);
    }
    json_object_object_add(driver, "rules", rules);
    json_object_object_add(tool, "driver", driver);
    json_object_object_add(run, "tool", tool);
    for (size_t i = 0; i < json_object_array_length(r->rows); i++) {
        json_object *row = json_object_array_get_idx(r->rows, i), *notes = notes_of(row);
        if (yes(row, "ok"))
            continue;
        size_t n = notes ? json_object_array_length(notes) : 0;
        for (size_t k = 0; k < n; k++) {
            json_object *nt = json_object_array_get_idx(notes, k);
            add_result(results, row, str(nt, "claim"), str(nt, "message"));
        }
        if (n == 0)
            add_result(results, row, "binding", str(row, "result"));
    }
    json_object_object_add(run, "results", results);
    json_object_array_add(runs, run);
    json_object_object_add(doc, "runs", runs);
    return doc;
}

static void put_xml(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default:
            if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
                fprintf(out, "\\x%02x", (unsigned char)*s);
            else
                fputc(*s, out);
        }
    }
}

static void junit(const conform_report *r, FILE *out)
{
    size_t n = json_object_array_length(r->rows), failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += !yes(json_object_array_get_idx(r->rows, i), "ok");
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"fkc-run conform\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n"
            "  <testsuite name=\"fkc-run conform\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
            "skipped=\"0\">\n",
            n, failed, n, failed);
    for (size_t i = 0; i < n; i++) {
        json_object *row = json_object_array_get_idx(r->rows, i), *notes = notes_of(row);
        fputs("    <testcase classname=\"fkc-run conform.", out);
        put_xml(out, str(row, "op_kind"));
        fputs("\" name=\"", out);
        put_xml(out, str(row, "kernel"));
        fputc(' ', out);
        put_xml(out, str(row, "dtype"));
        fputc('"', out);
        if (yes(row, "ok")) {
            fputs("/>\n", out);
            continue;
        }
        fputs(">\n      <failure type=\"", out);
        json_object *first = notes && json_object_array_length(notes)
                                 ? json_object_array_get_idx(notes, 0)
                                 : NULL;
        fputs("conform.", out);
        put_xml(out, first ? str(first, "claim") : "binding");
        fputs("\" message=\"", out);
        put_xml(out, str(row, "result"));
        fputs("\">", out);
        if (str(row, "file"))
            fprintf(out, "%s:%lld: ", str(row, "file"), (long long)num(row, "line"));
        put_xml(out, str(row, "result"));
        fputc('\n', out);
        for (size_t k = 0; notes && k < json_object_array_length(notes); k++) {
            json_object *nt = json_object_array_get_idx(notes, k);
            fputc('[', out);
            put_xml(out, str(nt, "claim"));
            fputs("] ", out);
            put_xml(out, str(nt, "message"));
            fputc('\n', out);
        }
        if (num(row, "more_notes"))
            fprintf(out, "... and %lld more\n", (long long)num(row, "more_notes"));
        fputs("</failure>\n    </testcase>\n", out);
    }
    fputs("  </testsuite>\n</testsuites>\n", out);
}

/* A workflow command's data (property: also ':' and ','). */
static void put_gh(FILE *out, const char *s, bool property)
{
    for (; s && *s; s++) {
        if (*s == '%')
            fputs("%25", out);
        else if (*s == '\r')
            fputs("%0D", out);
        else if (*s == '\n')
            fputs("%0A", out);
        else if (property && *s == ':')
            fputs("%3A", out);
        else if (property && *s == ',')
            fputs("%2C", out);
        else
            fputc(*s, out);
    }
}

static void github(const conform_report *r, FILE *out, size_t passed, size_t failed)
{
    for (size_t i = 0; i < json_object_array_length(r->rows); i++) {
        json_object *row = json_object_array_get_idx(r->rows, i), *notes = notes_of(row);
        if (yes(row, "ok"))
            continue;
        size_t n = notes ? json_object_array_length(notes) : 0;
        for (size_t k = 0; k < (n ? n : 1); k++) {
            json_object *nt = n ? json_object_array_get_idx(notes, k) : NULL;
            fputs("::error ", out);
            if (str(row, "file")) {
                fputs("file=", out);
                put_gh(out, str(row, "file"), true);
                fprintf(out, ",line=%lld,", (long long)num(row, "line"));
            }
            fputs("title=", out);
            char title[160];
            snprintf(title, sizeof title, "conform.%s %s %s", nt ? str(nt, "claim") : "binding",
                     str(row, "kernel"), str(row, "dtype"));
            put_gh(out, title, true);
            fputs("::", out);
            put_gh(out, nt ? str(nt, "message") : str(row, "result"), false);
            fputc('\n', out);
        }
    }
    fprintf(out, "fkc-run conform: %zu rows passed, %zu failed\n", passed, failed);
}

int conform_report_print(conform_report *r, const char *format, const conform_report_summary *s,
                         FILE *out)
{
    if (!strcmp(format, "json")) {
        json_object *sum = json_object_new_object();
        char digest[24];
        snprintf(digest, sizeof digest, "%016llx", (unsigned long long)s->digest);
        json_object_object_add(sum, "passed", json_object_new_int64((int64_t)s->passed));
        json_object_object_add(sum, "failed", json_object_new_int64((int64_t)s->failed));
        json_object_object_add(sum, "bindings", json_object_new_int64((int64_t)s->bindings));
        json_object_object_add(sum, "refused_as_expected",
                               json_object_new_int64((int64_t)s->refused_undeclared));
        json_object_object_add(sum, "works_but_undeclared",
                               json_object_new_int64((int64_t)s->works_undeclared));
        json_object_object_add(
            sum, "not_checked",
            s->not_checked && *s->not_checked ? json_object_new_string(s->not_checked) : NULL);
        json_object_object_add(sum, "cases_digest", json_object_new_string(digest));
        json_object_object_add(r->doc, "rows", json_object_get(r->rows));
        json_object_object_add(r->doc, "summary", sum);
        fputs(json_object_to_json_string_ext(r->doc, JSON_C_TO_STRING_PRETTY |
                                                         JSON_C_TO_STRING_SPACED |
                                                         JSON_C_TO_STRING_NOSLASHESCAPE),
              out);
        fputc('\n', out);
    } else if (!strcmp(format, "sarif")) {
        json_object *doc = sarif(r);
        fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
                                                      JSON_C_TO_STRING_SPACED |
                                                      JSON_C_TO_STRING_NOSLASHESCAPE),
              out);
        fputc('\n', out);
        json_object_put(doc);
    } else if (!strcmp(format, "junit")) {
        junit(r, out);
    } else if (!strcmp(format, "github")) {
        github(r, out, s->passed, s->failed);
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
