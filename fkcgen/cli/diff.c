/* diff.c — `fkcgen diff`: reads both revisions through the front end (two runs that keep
 * their sources), compares their binding tables (diff/compare.c), applies the allow file and prints
 * the report: GNU-format diagnostics through a sink that holds both revisions' texts, or JSON.
 * docs/fkcgen.md (## diff) describes it. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "diff.h"
#include "cli.h"
#include "fkcgen.h"
#include "report.h"

static const char usage[] =
    "usage: fkcgen diff [--format F] [--allow FILE] [--today YYYY-MM-DD] OLD NEW\n"
    "       fkcgen diff [--format F] [--allow FILE] [--today YYYY-MM-DD] --against-git REV "
    "[PATH...]\n"
    "       fkcgen diff --rules\n"
    "  Compares two revisions of a set of contracts (each a file, or a directory of *.md\n"
    "  files) and reports every change by its rule: breaking, compatible or informational.\n"
    "  --against-git REV  the old revision is git's REV (read with git show), the new one the\n"
    "                     working tree's PATHs (default: .); REV... (three dots): the merge\n"
    "                     base of REV and HEAD, what a pull request's diff shows\n"
    "  --allow FILE       breaking changes accepted until a date, one a line:\n"
    "                     RULE BINDING YYYY-MM-DD REASON\n"
    "  --today DATE       the day allow entries expire against (default: today, in UTC)\n"
    "  --format F         " FKCG_FORMAT_NAMES ": the report as text (default), JSON,\n"
    "                     SARIF 2.1.0, JUnit XML or GitHub workflow commands, on stdout\n"
    "  --json             the same as --format json\n"
    "  --rules            print the rule table (Markdown)\n"
    "Exit: 0 no breaking change, 1 a breaking change not allowed or an expired allow entry,\n"
    "2 usage, I/O, git or contract errors.\n";

#define CMD "fkcgen diff"

typedef struct opts {
    bool json, rules;
    fkcg_format format;
    const char *allow, *today, *rev;
    int first; /* argv index of the first operand */
} opts;

static int parse(int argc, char **argv, opts *o)
{
    static const fkcg_option table[] = {{"--json", false},  {"--allow", true},
                                        {"--today", true},  {"--against-git", true},
                                        {"--rules", false}, {"--format", true}};
    const char *v;
    int i = 1, k;
    while ((k = fkcg_opt_next(CMD, usage, table, 6, argc, argv, &i, &v)) != FKCG_OPT_END) {
        if (k == FKCG_OPT_HELP) {
            fputs(usage, stdout);
            return fflush(stdout) == 0 ? 0 : 2;
        }
        if (k == FKCG_OPT_ERROR)
            return 2;
        if (k == 0)
            o->json = true;
        else if (k == 1)
            o->allow = v;
        else if (k == 2)
            o->today = v;
        else if (k == 3)
            o->rev = v;
        else if (k == 4)
            o->rules = true;
        else if (fkcg_format_parse(v, &o->format) != 0) {
            fkcg_cli_error(CMD ": error", usage, "--format takes " FKCG_FORMAT_NAMES);
            return 2;
        }
    }
    o->first = i;
    if (o->json)
        o->format = FKCG_FORMAT_JSON;
    o->json = o->format == FKCG_FORMAT_JSON;
    return -1;
}

static int usage_error(const char *fmt, const char *arg)
{
    fkcg_cli_error(CMD ": error", usage, fmt, arg);
    return 2;
}

/* Both sides' contracts, read by two runs that keep their texts. */
typedef struct sides {
    fkcg_file_list old, new_;
    fkcg_run *run_old, *run_new;
} sides;

static int load_side(fkcg_run *run, const fkcg_file_list *l)
{
    fkcg_run_keep_sources(run);
    if (l->n && l->data[0])
        return fkcg_run_load_buffers(run, l->paths, l->data, l->lens, l->n);
    return fkcg_run_load(run, l->paths, l->n);
}

/* ---- the report ---- */

static void put_keys(fkcg_buf *b, const fkcg_change *c)
{
    fkcg_dkeys_put(b, c->keys, c->n_keys);
}

/* "[RULE, class]", or for an allowed change the entry that allows it. */
static void put_tag(fkcg_buf *b, const fkcg_change *c)
{
    const fkcg_diff_rule *r = &fkcg_diff_rules[c->rule];
    fkcg_buf_printf(b, "[%s, %s", r->id, fkcg_diff_class_name(r->cls));
    if (c->allowed)
        fkcg_buf_printf(b, ", allowed by %s:%u until %s", c->allowed->loc.file,
                        c->allowed->loc.line, c->allowed->expires);
    fkcg_buf_putc(b, ']');
}

static void print_text(fkcg_diag *rep, const fkcg_changes *ch)
{
    fkcg_buf keys, tag, test;
    fkcg_buf_init(&keys);
    fkcg_buf_init(&tag);
    fkcg_buf_init(&test);
    for (size_t i = 0; i < ch->n; i++) {
        const fkcg_change *c = &ch->v[i];
        keys.len = tag.len = 0;
        put_keys(&keys, c);
        put_tag(&tag, c);
        bool breaking = fkcg_diff_rules[c->rule].cls == FKCG_DIFF_BREAKING;
        const char *kind = !breaking ? "note" : c->allowed ? "warning" : "error";
        bool both = c->new_loc.file && c->old_loc.file;
        /* a report's test case: the change, by its rule and bindings */
        test.len = 0;
        fkcg_buf_printf(&test, "%s %s", fkcg_diff_rules[c->rule].id, keys.data ? keys.data : "");
        fkcg_diag_rule(rep, fkcg_diff_rules[c->rule].id, test.data);
        fkcg_diag_print(rep, c->new_loc.file ? &c->new_loc : &c->old_loc, kind, "%s: %s %s",
                        c->what, keys.data ? keys.data : "", tag.data);
        if (both)
            fkcg_diag_related(rep, &c->old_loc, "%s", c->was ? c->was : "was here");
    }
    fkcg_buf_free(&keys);
    fkcg_buf_free(&tag);
    fkcg_buf_free(&test);
}

typedef struct counts {
    size_t breaking, allowed, compatible, informational;
} counts;

static counts count(const fkcg_changes *ch)
{
    counts n = {0};
    for (size_t i = 0; i < ch->n; i++) {
        fkcg_diff_class c = fkcg_diff_rules[ch->v[i].rule].cls;
        if (c == FKCG_DIFF_BREAKING && ch->v[i].allowed)
            n.allowed++;
        else if (c == FKCG_DIFF_BREAKING)
            n.breaking++;
        else if (c == FKCG_DIFF_COMPATIBLE)
            n.compatible++;
        else
            n.informational++;
    }
    return n;
}

static void json_loc(fkcg_buf *b, const fkcg_loc *l)
{
    if (!l->file) {
        fkcg_buf_puts(b, "null");
        return;
    }
    fkcg_buf_puts(b, "{\"file\": ");
    fkcg_json_str(b, l->file);
    fkcg_buf_printf(b, ", \"line\": %u, \"col\": %u}", l->line, l->col);
}

static void json_key(fkcg_buf *b, const fkcg_dkey *k)
{
    const char *d = k->dtype < 0 ? "*" : k->n_key ? k->names[0] : fkcg_dtypes[k->dtype].name;
    fkcg_buf_puts(b, "{\"op_kind\": ");
    fkcg_json_str(b, k->op_kind);
    if (k->n_key) {
        fkcg_buf_puts(b, ", \"dtypes\": [");
        for (uint32_t i = 0; i < k->n_key; i++)
            fkcg_buf_printf(b, "%s\"%s\"", i ? ", " : "", k->names[i]);
        fkcg_buf_puts(b, "], \"backend\": ");
    } else
        fkcg_buf_printf(b, ", \"dtypes\": [\"%s\", \"%s\"], \"backend\": ", d, d);
    fkcg_json_str(b, k->backend);
    fkcg_buf_puts(b, ", \"kernel_source\": ");
    fkcg_json_str(b, k->kernel_source);
    fkcg_buf_putc(b, '}');
}

static void json_change(fkcg_buf *b, const fkcg_change *c)
{
    const fkcg_diff_rule *r = &fkcg_diff_rules[c->rule];
    fkcg_buf_printf(b,
                    "    {\n      \"rule\": \"%s\",\n      \"class\": \"%s\",\n"
                    "      \"allowed\": ",
                    r->id, fkcg_diff_class_name(r->cls));
    if (c->allowed) {
        fkcg_buf_puts(b, "{\"file\": ");
        fkcg_json_str(b, c->allowed->loc.file);
        fkcg_buf_printf(b,
                        ", \"line\": %u, \"expires\": \"%s\", \"reason\": ", c->allowed->loc.line,
                        c->allowed->expires);
        fkcg_json_str(b, c->allowed->reason);
        fkcg_buf_putc(b, '}');
    } else {
        fkcg_buf_puts(b, "false");
    }
    fkcg_buf_puts(b, ",\n      \"message\": ");
    fkcg_json_str(b, c->what);
    fkcg_buf_puts(b, ",\n      \"kernel\": {\"old\": ");
    fkcg_json_str(b, c->old_kernel);
    fkcg_buf_puts(b, ", \"new\": ");
    fkcg_json_str(b, c->new_kernel);
    fkcg_buf_puts(b, "},\n      \"bindings\": [");
    for (size_t k = 0; k < c->n_keys; k++) {
        fkcg_buf_puts(b, k ? ",\n        " : "\n        ");
        json_key(b, &c->keys[k]);
    }
    fkcg_buf_puts(b, c->n_keys ? "\n      ],\n      \"old\": " : "],\n      \"old\": ");
    json_loc(b, &c->old_loc);
    fkcg_buf_puts(b, ",\n      \"new\": ");
    json_loc(b, &c->new_loc);
    fkcg_buf_puts(b, "\n    }");
}

static void print_json(const fkcg_changes *ch, const fkcg_allow *allow, const char *old_name,
                       const char *new_name)
{
    fkcg_buf b;
    fkcg_buf_init(&b);
    fkcg_buf_puts(&b, "{\n  \"fkcgen_version\": \"" FKCGEN_VERSION "\",\n  \"old\": ");
    fkcg_json_str(&b, old_name);
    fkcg_buf_puts(&b, ",\n  \"new\": ");
    fkcg_json_str(&b, new_name);
    fkcg_buf_puts(&b, ",\n  \"changes\": [");
    for (size_t i = 0; i < ch->n; i++) {
        fkcg_buf_puts(&b, i ? ",\n" : "\n");
        json_change(&b, &ch->v[i]);
    }
    fkcg_buf_puts(&b, ch->n ? "\n  ],\n  \"allow\": [" : "],\n  \"allow\": [");
    for (size_t i = 0; i < allow->n; i++) {
        const fkcg_allow_entry *e = &allow->v[i];
        fkcg_buf_puts(&b, i ? ",\n    {\"file\": " : "\n    {\"file\": ");
        fkcg_json_str(&b, e->loc.file);
        fkcg_buf_printf(&b, ", \"line\": %u, \"rule\": \"%s\", \"binding\": ", e->loc.line,
                        fkcg_diff_rules[e->rule].id);
        json_key(&b, &e->key);
        fkcg_buf_printf(&b, ", \"expires\": \"%s\", \"status\": \"%s\"}", e->expires,
                        e->expired ? "expired"
                        : e->used  ? "used"
                                   : "unused");
    }
    counts n = count(ch);
    fkcg_buf_printf(&b,
                    "%s],\n  \"summary\": {\"breaking\": %zu, \"allowed\": %zu, "
                    "\"compatible\": %zu, \"informational\": %zu}\n}\n",
                    allow->n ? "\n  " : "", n.breaking, n.allowed, n.compatible, n.informational);
    fwrite(b.data, 1, b.len, stdout);
    fkcg_buf_free(&b);
}

/* Expired entries are errors, entries that allowed nothing warnings; returns the errors. */
static size_t report_allow(fkcg_diag *d, const fkcg_allow *allow, const char *today)
{
    size_t errors = 0;
    for (size_t i = 0; i < allow->n; i++) {
        const fkcg_allow_entry *e = &allow->v[i];
        fkcg_buf key;
        fkcg_buf_init(&key);
        fkcg_dkeys_put(&key, &e->key, 1);
        fkcg_diag_rule(d, e->expired ? "ALLOW_EXPIRED" : "ALLOW_UNUSED", NULL);
        if (e->expired) {
            fkcg_error(d, &e->date_loc,
                       "allow entry for %s %s expired on %s (today is %s): "
                       "its change is breaking again; fix it, or renew the entry with a new "
                       "date and reason",
                       fkcg_diff_rules[e->rule].id, key.data, e->expires, today);
            errors++;
        } else if (!e->used) {
            fkcg_diag_print(d, &e->loc, "warning",
                            "allow entry for %s %s matches no breaking "
                            "change; remove it",
                            fkcg_diff_rules[e->rule].id, key.data);
        }
        fkcg_buf_free(&key);
    }
    return errors;
}

/* Today's date in UTC, YYYY-MM-DD. */
static const char *utc_today(char *buf, size_t n)
{
    time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || strftime(buf, n, "%Y-%m-%d", &tm) != 10)
        snprintf(buf, n, "1970-01-01");
    return buf;
}

/* The files of both revisions: the two operands, or git's revision and the working tree. */
static int list_sides(fkcg_arena *a, const opts *o, int argc, char **argv, sides *s)
{
    if (!o->rev)
        return fkcg_list_operand(a, CMD ": error", argv[o->first], &s->old) |
               fkcg_list_operand(a, CMD ": error", argv[o->first + 1], &s->new_);
    static const char *const here[] = {"."};
    const char *const *paths = o->first < argc ? (const char *const *)argv + o->first : here;
    size_t n = o->first < argc ? (size_t)(argc - o->first) : 1;
    return fkcg_git_sides(a, CMD ": error", o->rev, paths, n, &s->old, &s->new_);
}

static int run_diff(fkcg_arena *a, const opts *o, int argc, char **argv)
{
    sides s = {0};
    char today_buf[16];
    const char *today = o->today ? o->today : utc_today(today_buf, sizeof today_buf);
    if (list_sides(a, o, argc, argv, &s) != 0)
        return 2;
    if (s.old.n == 0 && s.new_.n == 0) {
        fkcg_cli_error(CMD ": error", NULL, "no contract files (*.md) on either side");
        return 2;
    }
    fkcg_diag *ad = fkcg_diag_new(stderr);
    fkcg_report *R = NULL; /* --format sarif|junit|github: every message is a finding of R */
    if (o->format != FKCG_FORMAT_TEXT && o->format != FKCG_FORMAT_JSON) {
        R = fkcg_report_new(CMD);
        for (int i = 0; i < FKCG_DIFF_NRULES; i++)
            fkcg_report_rule(R, fkcg_diff_rules[i].id, fkcg_diff_rules[i].summary);
        fkcg_report_rule(R, "ALLOW_EXPIRED", "an allow entry's date has passed");
        fkcg_report_rule(R, "ALLOW_UNUSED", "an allow entry matches no breaking change");
        fkcg_report_check_rules(R);
        fkcg_diag_collect(ad, R);
    }
    fkcg_diag_rule(ad, "fkc.allow", NULL);
    fkcg_allow allow = {0};
    int rc = o->allow ? fkcg_allow_read(a, ad, o->allow, &allow) : 0;
    s.run_old = fkcg_run_new(NULL, stderr);
    s.run_new = fkcg_run_new(NULL, stderr);
    if (R) {
        fkcg_diag_collect(fkcg_run_diag(s.run_old), R);
        fkcg_diag_collect(fkcg_run_diag(s.run_new), R);
    }
    if (load_side(s.run_old, &s.old) != 0 || rc != 0)
        rc = 2;
    if (load_side(s.run_new, &s.new_) != 0)
        rc = 2;
    fkcg_changes ch = {0};
    if (rc == 0) {
        fkcg_diff_side so = {fkcg_run_table(s.run_old), s.old.paths, s.old.names, s.old.n};
        fkcg_diff_side sn = {fkcg_run_table(s.run_new), s.new_.paths, s.new_.names, s.new_.n};
        rc = fkcg_diff_tables(a, &so, &sn, &ch);
    }
    if (rc == 0) {
        fkcg_allow_apply(a, &allow, today, &ch);
        if (o->json) {
            print_json(&ch, &allow, o->rev ? o->rev : argv[o->first],
                       o->rev ? "working tree" : argv[o->first + 1]);
        } else {
            fkcg_diag *rep = fkcg_diag_new(stdout);
            if (R)
                fkcg_diag_collect(rep, R);
            const fkcg_source *src;
            fkcg_run *runs[] = {s.run_old, s.run_new};
            for (int r = 0; r < 2; r++)
                for (size_t i = 0, n = fkcg_run_kept(runs[r], &src); i < n; i++)
                    fkcg_diag_source(rep, src[i].file, src[i].text, src[i].len);
            print_text(rep, &ch);
            fkcg_diag_free(rep);
            counts n = count(&ch);
            if (!R && ch.n) /* with a report, the summary is the report's */
                printf("fkcgen diff: %zu change%s: %zu breaking, %zu allowed, %zu compatible, "
                       "%zu informational\n",
                       ch.n, ch.n == 1 ? "" : "s", n.breaking, n.allowed, n.compatible,
                       n.informational);
            else if (!R)
                puts("fkcgen diff: no change");
        }
        fflush(stdout);
        size_t expired = report_allow(ad, &allow, today);
        rc = count(&ch).breaking || expired ? 1 : 0;
    }
    if (R && fkcg_report_print(R, o->format, stdout) != 0)
        rc = 2;
    fkcg_report_free(R);
    fkcg_run_free(s.run_old);
    fkcg_run_free(s.run_new);
    fkcg_diag_free(ad);
    return rc;
}

int fkcg_cmd_diff(int argc, char **argv)
{
    opts o = {0};
    int rc = parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (o.rules) {
        if (o.first != argc || o.format != FKCG_FORMAT_TEXT || o.allow || o.today || o.rev)
            return usage_error("%s", "--rules takes no other option or operand");
        fkcg_buf b;
        fkcg_buf_init(&b);
        fkcg_diff_rules_markdown(&b);
        fwrite(b.data, 1, b.len, stdout);
        fkcg_buf_free(&b);
        return fflush(stdout) == 0 ? 0 : 2;
    }
    if (o.today && !fkcg_is_date(o.today, strlen(o.today)))
        return usage_error("--today '%s' is not a date YYYY-MM-DD", o.today);
    if (o.rev && (!*o.rev || o.rev[0] == '-'))
        return usage_error("--against-git '%s' is not a revision", o.rev);
    if (!o.rev && argc - o.first != 2)
        return usage_error("%s", argc - o.first < 2 ? "give two revisions: OLD NEW (files or "
                                                      "directories), or --against-git REV"
                                                    : "give two revisions: OLD NEW");
    fkcg_arena a = {0};
    rc = run_diff(&a, &o, argc, argv);
    fkcg_arena_free(&a);
    if (ferror(stdout)) {
        fkcg_cli_error(CMD ": error", NULL, "cannot write to stdout");
        return 2;
    }
    return rc;
}
