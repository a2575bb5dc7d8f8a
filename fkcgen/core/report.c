/* report.c — a command's findings and their printers: JSON, SARIF 2.1.0, JUnit XML and GitHub
 * workflow commands (report.h). The findings come from the diagnostics sink (diag.c) or from
 * the command itself (gen --check's drift); text is diag.c's own output and is not printed
 * here. */
#include <stdlib.h>
#include <string.h>

#include "fkcgen.h"
#include "report.h"

typedef struct related {
    char *file, *message;
    uint32_t line, col;
} related;

typedef struct finding {
    char *rule, *level, *file, *message, *test;
    uint32_t line, col;
    related *rel;
    size_t n_rel;
} finding;

typedef struct rule_desc {
    char *id, *desc;
} rule_desc;

struct fkcg_report {
    char *cmd;
    finding *v;
    size_t n, cap;
    rule_desc *rules;
    size_t n_rules, cap_rules;
    char **cases;
    size_t n_cases, cap_cases;
};

static char *dup(const char *s)
{
    if (!s)
        return NULL;
    char *c = strdup(s);
    if (!c)
        fkcg_oom();
    return c;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? 2 * *cap : 16;
    p = realloc(p, *cap * size);
    if (!p)
        fkcg_oom();
    return p;
}

int fkcg_format_parse(const char *name, fkcg_format *f)
{
    static const char *const names[] = {"text", "json", "sarif", "junit", "github"};
    for (int i = 0; i < 5; i++)
        if (name && !strcmp(name, names[i])) {
            *f = (fkcg_format)i;
            return 0;
        }
    return -1;
}

fkcg_report *fkcg_report_new(const char *cmd)
{
    fkcg_report *r = calloc(1, sizeof *r);
    if (!r)
        fkcg_oom();
    r->cmd = dup(cmd);
    return r;
}

void fkcg_report_free(fkcg_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        finding *f = &r->v[i];
        free(f->rule), free(f->level), free(f->file), free(f->message), free(f->test);
        for (size_t k = 0; k < f->n_rel; k++)
            free(f->rel[k].file), free(f->rel[k].message);
        free(f->rel);
    }
    for (size_t i = 0; i < r->n_rules; i++)
        free(r->rules[i].id), free(r->rules[i].desc);
    for (size_t i = 0; i < r->n_cases; i++)
        free(r->cases[i]);
    free(r->v), free(r->rules), free(r->cases), free(r->cmd), free(r);
}

static long rule_index(const fkcg_report *r, const char *id)
{
    for (size_t i = 0; i < r->n_rules; i++)
        if (!strcmp(r->rules[i].id, id))
            return (long)i;
    return -1;
}

void fkcg_report_rule(fkcg_report *r, const char *id, const char *description)
{
    long i = rule_index(r, id);
    if (i >= 0) {
        if (description && !r->rules[i].desc)
            r->rules[i].desc = dup(description);
        return;
    }
    r->rules = grow(r->rules, &r->cap_rules, r->n_rules, sizeof *r->rules);
    r->rules[r->n_rules++] = (rule_desc){dup(id), dup(description)};
}

static long case_index(const fkcg_report *r, const char *name)
{
    for (size_t i = 0; i < r->n_cases; i++)
        if (!strcmp(r->cases[i], name))
            return (long)i;
    return -1;
}

void fkcg_report_case(fkcg_report *r, const char *name)
{
    if (case_index(r, name) >= 0)
        return;
    r->cases = grow(r->cases, &r->cap_cases, r->n_cases, sizeof *r->cases);
    r->cases[r->n_cases++] = dup(name);
}

void fkcg_report_add(fkcg_report *r, const char *rule, const char *level, const fkcg_loc *loc,
                     const char *message, const char *test)
{
    r->v = grow(r->v, &r->cap, r->n, sizeof *r->v);
    bool has_file = loc && loc->file;
    const char *t = test ? test : has_file ? loc->file : r->cmd;
    r->v[r->n++] = (finding){.rule = dup(rule ? rule : "fkc.error"),
                             .level = dup(level),
                             .file = has_file ? dup(loc->file) : NULL,
                             .message = dup(message),
                             .test = dup(t),
                             .line = has_file ? loc->line : 0,
                             .col = has_file ? loc->col : 0};
    fkcg_report_rule(r, rule ? rule : "fkc.error", NULL);
    fkcg_report_case(r, t);
}

void fkcg_report_related(fkcg_report *r, const fkcg_loc *loc, const char *message)
{
    if (r->n == 0 || !loc || !loc->file)
        return;
    finding *f = &r->v[r->n - 1];
    f->rel = realloc(f->rel, (f->n_rel + 1) * sizeof *f->rel);
    if (!f->rel)
        fkcg_oom();
    f->rel[f->n_rel++] = (related){dup(loc->file), dup(message), loc->line, loc->col};
}

void fkcg_report_check_rules(fkcg_report *r)
{
    static const char *const rows[][2] = {
        {FKCG_RULE_LOAD, "the file cannot be read, or is not a contract (Markdown, front "
                         "matter, fkc blocks)"},
        {FKCG_RULE_YAML, "a YAML block does not parse"},
        {FKCG_RULE_SCHEMA, "a key, value or type the contract format does not have"},
        {FKCG_RULE_CONTRACT, "a value the contract format refuses (names, rules, costs, the "
                             "runtime's op kinds)"},
        {FKCG_RULE_BINDING, "bindings that clash across sections or files (keys, symbols, "
                            "signatures)"},
        {FKCG_RULE_BACKEND, "what the chosen back end (C, Rust, JSON) cannot emit"},
        {FKCG_RULE_SELECT, "a --select file's line names nothing, or is malformed"},
        {FKCG_RULE_DRIFT, "a generated file differs from what the contracts generate"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        fkcg_report_rule(r, rows[i][0], rows[i][1]);
}

/* ---- printers ---- */

static size_t count_level(const fkcg_report *r, const char *level)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += !strcmp(r->v[i].level, level);
    return n;
}

static void json_loc(fkcg_buf *b, const char *file, uint32_t line, uint32_t col)
{
    if (!file) {
        fkcg_buf_puts(b, "null");
        return;
    }
    fkcg_buf_puts(b, "{\"file\": ");
    fkcg_json_str(b, file);
    fkcg_buf_printf(b, ", \"line\": %u, \"col\": %u}", line, col);
}

static void print_json(const fkcg_report *r, fkcg_buf *b)
{
    fkcg_buf_puts(b, "{\n  \"tool\": ");
    fkcg_json_str(b, r->cmd);
    fkcg_buf_puts(b, ",\n  \"fkcgen_version\": \"" FKCGEN_VERSION "\",\n  \"findings\": [");
    for (size_t i = 0; i < r->n; i++) {
        const finding *f = &r->v[i];
        fkcg_buf_puts(b, i ? ",\n    {\"rule\": " : "\n    {\"rule\": ");
        fkcg_json_str(b, f->rule);
        fkcg_buf_printf(b, ", \"level\": \"%s\", \"location\": ", f->level);
        json_loc(b, f->file, f->line, f->col);
        fkcg_buf_puts(b, ", \"message\": ");
        fkcg_json_str(b, f->message);
        fkcg_buf_puts(b, ", \"related\": [");
        for (size_t k = 0; k < f->n_rel; k++) {
            fkcg_buf_puts(b, k ? ", {\"location\": " : "{\"location\": ");
            json_loc(b, f->rel[k].file, f->rel[k].line, f->rel[k].col);
            fkcg_buf_puts(b, ", \"message\": ");
            fkcg_json_str(b, f->rel[k].message);
            fkcg_buf_putc(b, '}');
        }
        fkcg_buf_puts(b, "]}");
    }
    fkcg_buf_printf(
        b, "%s],\n  \"summary\": {\"errors\": %zu, \"warnings\": %zu, \"notes\": %zu}\n}\n",
        r->n ? "\n  " : "", count_level(r, "error"), count_level(r, "warning"),
        count_level(r, "note"));
}

/* A path as a relative URI reference: unreserved characters and '/' as they are, the rest
 * percent-encoded (RFC 3986). */
static void put_uri(fkcg_buf *b, const char *path)
{
    fkcg_buf u;
    fkcg_buf_init(&u);
    if (path[0] == '/')
        fkcg_buf_puts(&u, "file://"); /* an absolute path: a file URI */
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            fkcg_buf_putc(&u, (char)*p);
        else
            fkcg_buf_printf(&u, "%%%02X", *p);
    }
    fkcg_json_str(b, u.data ? u.data : "");
    fkcg_buf_free(&u);
}

static void sarif_location(fkcg_buf *b, long id, const char *file, uint32_t line, uint32_t col,
                           const char *message)
{
    fkcg_buf_puts(b, "{");
    if (id >= 0)
        fkcg_buf_printf(b, "\"id\": %ld, ", id);
    if (message) {
        fkcg_buf_puts(b, "\"message\": {\"text\": ");
        fkcg_json_str(b, message);
        fkcg_buf_puts(b, "}, ");
    }
    fkcg_buf_puts(b, "\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    put_uri(b, file);
    fkcg_buf_putc(b, '}');
    if (line > 0) {
        fkcg_buf_printf(b, ", \"region\": {\"startLine\": %u", line);
        if (col > 0)
            fkcg_buf_printf(b, ", \"startColumn\": %u", col);
        fkcg_buf_putc(b, '}');
    }
    fkcg_buf_puts(b, "}}");
}

static void print_sarif(const fkcg_report *r, fkcg_buf *b)
{
    fkcg_buf_puts(b, "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
                     "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": {\n"
                     "        \"driver\": {\n          \"name\": \"fkcgen\",\n"
                     "          \"version\": \"" FKCGEN_VERSION "\",\n"
                     "          \"informationUri\": \"https://github.com/fkc/fkc\",\n"
                     "          \"rules\": [");
    for (size_t i = 0; i < r->n_rules; i++) {
        fkcg_buf_puts(b, i ? ",\n            {\"id\": " : "\n            {\"id\": ");
        fkcg_json_str(b, r->rules[i].id);
        if (r->rules[i].desc) {
            fkcg_buf_puts(b, ", \"shortDescription\": {\"text\": ");
            fkcg_json_str(b, r->rules[i].desc);
            fkcg_buf_putc(b, '}');
        }
        fkcg_buf_putc(b, '}');
    }
    fkcg_buf_puts(b, r->n_rules ? "\n          ]\n        }\n      },\n      \"invocations\": "
                                : "]\n        }\n      },\n      \"invocations\": ");
    fkcg_buf_printf(b, "[{\"executionSuccessful\": %s, \"commandLine\": ",
                    count_level(r, "error") ? "false" : "true");
    fkcg_json_str(b, r->cmd);
    fkcg_buf_puts(b, "}],\n      \"results\": [");
    for (size_t i = 0; i < r->n; i++) {
        const finding *f = &r->v[i];
        fkcg_buf_puts(b, i ? ",\n        {\"ruleId\": " : "\n        {\"ruleId\": ");
        fkcg_json_str(b, f->rule);
        fkcg_buf_printf(b, ", \"ruleIndex\": %ld, \"level\": \"%s\", \"message\": {\"text\": ",
                        rule_index(r, f->rule), f->level);
        fkcg_json_str(b, f->message);
        fkcg_buf_puts(b, "}, \"locations\": [");
        if (f->file)
            sarif_location(b, -1, f->file, f->line, f->col, NULL);
        fkcg_buf_putc(b, ']');
        if (f->n_rel) {
            fkcg_buf_puts(b, ", \"relatedLocations\": [");
            for (size_t k = 0; k < f->n_rel; k++) {
                if (k)
                    fkcg_buf_puts(b, ", ");
                sarif_location(b, (long)k, f->rel[k].file, f->rel[k].line, f->rel[k].col,
                               f->rel[k].message);
            }
            fkcg_buf_putc(b, ']');
        }
        fkcg_buf_putc(b, '}');
    }
    fkcg_buf_puts(b, r->n ? "\n      ]\n    }\n  ]\n}\n" : "]\n    }\n  ]\n}\n");
}


static void put_where(fkcg_buf *b, const char *file, uint32_t line, uint32_t col)
{
    if (!file)
        return;
    fkcg_buf_put_xml(b, file);
    if (line)
        fkcg_buf_printf(b, ":%u:%u", line, col);
    fkcg_buf_puts(b, ": ");
}

static void print_junit(const fkcg_report *r, fkcg_buf *b)
{
    size_t failing = 0;
    for (size_t c = 0; c < r->n_cases; c++) {
        bool fails = false;
        for (size_t i = 0; i < r->n && !fails; i++)
            fails = !strcmp(r->v[i].test, r->cases[c]) && !strcmp(r->v[i].level, "error");
        failing += fails;
    }
    fkcg_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
    fkcg_buf_put_xml(b, r->cmd);
    fkcg_buf_printf(b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n  <testsuite name=\"",
                    r->n_cases, failing);
    fkcg_buf_put_xml(b, r->cmd);
    fkcg_buf_printf(b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
                    r->n_cases, failing);
    for (size_t c = 0; c < r->n_cases; c++) {
        fkcg_buf_puts(b, "    <testcase classname=\"");
        fkcg_buf_put_xml(b, r->cmd);
        fkcg_buf_puts(b, "\" name=\"");
        fkcg_buf_put_xml(b, r->cases[c]);
        fkcg_buf_puts(b, "\"");
        fkcg_buf fail, out;
        fkcg_buf_init(&fail);
        fkcg_buf_init(&out);
        const char *first_rule = NULL, *first_msg = NULL;
        for (size_t i = 0; i < r->n; i++) {
            const finding *f = &r->v[i];
            if (strcmp(f->test, r->cases[c]) != 0)
                continue;
            bool err = !strcmp(f->level, "error");
            fkcg_buf *to = err ? &fail : &out;
            if (err && !first_rule)
                first_rule = f->rule, first_msg = f->message;
            put_where(to, f->file, f->line, f->col);
            fkcg_buf_printf(to, "%s: ", f->level);
            fkcg_buf_put_xml(to, f->message);
            fkcg_buf_puts(to, " [");
            fkcg_buf_put_xml(to, f->rule);
            fkcg_buf_puts(to, "]\n");
            for (size_t k = 0; k < f->n_rel; k++) {
                put_where(to, f->rel[k].file, f->rel[k].line, f->rel[k].col);
                fkcg_buf_puts(to, "note: ");
                fkcg_buf_put_xml(to, f->rel[k].message);
                fkcg_buf_putc(to, '\n');
            }
        }
        if (!fail.len && !out.len) {
            fkcg_buf_puts(b, "/>\n");
        } else {
            fkcg_buf_puts(b, ">\n");
            if (fail.len) {
                fkcg_buf_puts(b, "      <failure type=\"");
                fkcg_buf_put_xml(b, first_rule);
                fkcg_buf_puts(b, "\" message=\"");
                fkcg_buf_put_xml(b, first_msg);
                fkcg_buf_puts(b, "\">");
                fkcg_buf_put(b, fail.data, fail.len);
                fkcg_buf_puts(b, "</failure>\n");
            }
            if (out.len) {
                fkcg_buf_puts(b, "      <system-out>");
                fkcg_buf_put(b, out.data, out.len);
                fkcg_buf_puts(b, "</system-out>\n");
            }
            fkcg_buf_puts(b, "    </testcase>\n");
        }
        fkcg_buf_free(&fail);
        fkcg_buf_free(&out);
    }
    fkcg_buf_puts(b, "  </testsuite>\n</testsuites>\n");
}

/* A workflow command's data (property: also ':' and ','), escaped as GitHub's toolkit does. */
static void put_gh(fkcg_buf *b, const char *s, bool property)
{
    for (; s && *s; s++) {
        if (*s == '%')
            fkcg_buf_puts(b, "%25");
        else if (*s == '\r')
            fkcg_buf_puts(b, "%0D");
        else if (*s == '\n')
            fkcg_buf_puts(b, "%0A");
        else if (property && *s == ':')
            fkcg_buf_puts(b, "%3A");
        else if (property && *s == ',')
            fkcg_buf_puts(b, "%2C");
        else
            fkcg_buf_putc(b, *s);
    }
}

static void print_github(const fkcg_report *r, fkcg_buf *b)
{
    for (size_t i = 0; i < r->n; i++) {
        const finding *f = &r->v[i];
        const char *cmd = !strcmp(f->level, "error")     ? "error"
                          : !strcmp(f->level, "warning") ? "warning"
                                                         : "notice";
        fkcg_buf_printf(b, "::%s ", cmd);
        if (f->file) {
            fkcg_buf_puts(b, "file=");
            put_gh(b, f->file, true);
            if (f->line)
                fkcg_buf_printf(b, ",line=%u,col=%u", f->line, f->col);
            fkcg_buf_putc(b, ',');
        }
        fkcg_buf_puts(b, "title=");
        put_gh(b, f->rule, true);
        fkcg_buf_puts(b, "::");
        put_gh(b, f->message, false);
        for (size_t k = 0; k < f->n_rel; k++) {
            fkcg_buf_puts(b, "%0A"); /* a second line of the annotation: the note */
            put_gh(b, f->rel[k].file, false);
            fkcg_buf_printf(b, ":%u:%u: note: ", f->rel[k].line, f->rel[k].col);
            put_gh(b, f->rel[k].message, false);
        }
        fkcg_buf_putc(b, '\n');
    }
    size_t e = count_level(r, "error"), w = count_level(r, "warning");
    fkcg_buf_printf(b, "%s: %zu error%s, %zu warning%s\n", r->cmd, e, e == 1 ? "" : "s", w,
                    w == 1 ? "" : "s");
}

int fkcg_report_print(const fkcg_report *r, fkcg_format f, FILE *out)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    switch (f) {
    case FKCG_FORMAT_JSON: print_json(r, &b); break;
    case FKCG_FORMAT_SARIF: print_sarif(r, &b); break;
    case FKCG_FORMAT_JUNIT: print_junit(r, &b); break;
    case FKCG_FORMAT_GITHUB: print_github(r, &b); break;
    case FKCG_FORMAT_TEXT: break;
    }
    size_t n = b.len ? fwrite(b.data, 1, b.len, out) : 0;
    bool ok = n == b.len && fflush(out) == 0;
    fkcg_buf_free(&b);
    return ok ? 0 : -1;
}
