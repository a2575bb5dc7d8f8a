/* main.c — the fkcgen command line: parses options, then calls the library (fkcgen.h).
 * check and dump run the front-end passes (dump then the JSON back end); schema prints the docs
 * page; gen is its own command (cli/gen.c), diff compares two revisions (cli/diff.c). Exit
 * codes: 0 clean, 1 contract errors, 2 usage or I/O errors. */
#include <stdio.h>
#include <string.h>

#include "back.h"
#include "cli.h"
#include "fkcgen.h"
#include "internal.h"
#include "report.h"

static const char usage[] =
    "usage: fkcgen check [--root DIR] [--format F] FILE...  validate contracts\n"
    "       fkcgen dump --json [--root DIR] FILE... print the binding table as JSON\n"
    "       fkcgen schema --markdown                print the contract format (docs page)\n"
    "       fkcgen gen --out-dir DIR FILE...        emit the C bindings (--help: options)\n"
    "       fkcgen gen --lang rust|json --out-dir DIR FILE...  as a Rust module, or JSON\n"
    "       fkcgen diff OLD NEW | --against-git REV [PATH...]  report changes by rule\n"
    "       fkcgen doc --out-dir DIR [--html] [--results FILE.json]... FILE...  reference pages\n"
    "       fkcgen --help | --version | COMMAND --help\n"
    "Diagnostics go to stderr. Exit: 0 clean, 1 contract errors, 2 usage or I/O errors.\n"
    "--root DIR: contract paths in the output are made relative to DIR (default: .).\n";

static int usage_error(const char *what, const char *arg)
{
    fkcg_cli_error("fkcgen: error", usage, "%s%s%s%s", what, arg ? " '" : "", arg ? arg : "",
                   arg ? "'" : "");
    return 2;
}

static const char usage_read[] =
    "usage: fkcgen check [--root DIR] [--format " FKCG_FORMAT_NAMES "] FILE...\n"
    "       fkcgen dump --json [--root DIR] FILE...\n"
    "  check validates the contracts; dump --json also prints their binding table as JSON.\n"
    "  --root DIR  contract paths in the output are made relative to DIR (default: .)\n"
    "  --format F  (check) the findings as text on stderr (default), or on stdout as JSON,\n"
    "              SARIF 2.1.0, JUnit XML or GitHub workflow commands\n"
    "  --json      (dump) the one format it writes\n"
    "Diagnostics go to stderr. Exit: 0 clean, 1 contract errors, 2 usage or I/O errors.\n";

static const char usage_schema[] =
    "usage: fkcgen schema --markdown\n"
    "  Prints the contract format as Markdown (docs/contract-format.md).\n";

/* A subcommand's usage error: what, then the subcommand's usage. */
static int sub_error(const char *what, const char *usage_text)
{
    fkcg_cli_error("fkcgen: error", usage_text, "%s", what);
    return 2;
}

/* check and dump: [--json] [--root DIR] FILE... */
static int cmd_read(int argc, char **argv, bool dump)
{
    static const fkcg_option dump_opts[] = {{"--root", true}, {"--json", false}};
    static const fkcg_option check_opts[] = {{"--root", true}, {"--format", true}};
    const char *root = NULL, *v;
    bool json = false;
    fkcg_format format = FKCG_FORMAT_TEXT;
    int i = 2, k;
    /* check has no --json, dump no --format */
    while ((k = fkcg_opt_next(dump ? "fkcgen dump" : "fkcgen check", usage_read,
                              dump ? dump_opts : check_opts, 2, argc, argv, &i, &v)) !=
           FKCG_OPT_END) {
        if (k == FKCG_OPT_HELP) {
            fputs(usage_read, stdout);
            return fflush(stdout) == 0 ? 0 : 2;
        }
        if (k == FKCG_OPT_ERROR)
            return 2; /* reported with the usage by fkcg_opt_next */
        if (k == 0)
            root = v;
        else if (dump)
            json = true;
        else if (fkcg_format_parse(v, &format) != 0)
            return sub_error("--format takes " FKCG_FORMAT_NAMES, usage_read);
    }
    if (dump && !json)
        return sub_error("dump needs --json (the one format it writes)", usage_read);
    if (i >= argc)
        return sub_error("no contract files given", usage_read);
    if (root && fkcg_root_check(root) != 0) {
        fkcg_cli_error("fkcgen: error", usage_read, "--root '%s': %s", root,
                       strerror(fkcg_root_check(root)));
        return 2;
    }
    fkcg_run *run = fkcg_run_new(root, stderr);
    fkcg_report *rep = NULL;
    if (format != FKCG_FORMAT_TEXT) { /* every message becomes a finding; one test per file */
        rep = fkcg_report_new("fkcgen check");
        fkcg_report_check_rules(rep);
        for (int f = i; f < argc; f++)
            fkcg_report_case(rep, argv[f]);
        fkcg_diag_collect(fkcg_run_diag(run), rep);
    }
    int rc = fkcg_run_load(run, (const char *const *)(argv + i), (size_t)(argc - i));
    if (rep && fkcg_report_print(rep, format, stdout) != 0)
        rc = 2;
    fkcg_report_free(rep);
    if (rc == 0 && dump) {
        fkcg_buf out;
        fkcg_buf_init(&out);
        fkcg_buf *const outs[] = {&out};
        fkcg_backend_run(fkcg_backend_find("json"), fkcg_run_table(run), NULL, fkcg_run_diag(run),
                         outs);
        fwrite(out.data, 1, out.len, stdout);
        fkcg_buf_free(&out);
    }
    fkcg_run_free(run);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fkcg_cli_error("fkcgen: error", NULL, "cannot write to stdout");
        return 2;
    }
    return rc;
}

static int cmd_schema(int argc, char **argv)
{
    static const fkcg_option opts[] = {{"--markdown", false}};
    const char *v;
    bool markdown = false;
    int i = 2, k;
    while ((k = fkcg_opt_next("fkcgen schema", usage_schema, opts, 1, argc, argv, &i, &v)) !=
           FKCG_OPT_END) {
        if (k == FKCG_OPT_HELP) {
            fputs(usage_schema, stdout);
            return fflush(stdout) == 0 ? 0 : 2;
        }
        if (k == FKCG_OPT_ERROR)
            return 2;
        markdown = true;
    }
    if (!markdown || i != argc)
        return sub_error(markdown ? "schema takes no files"
                                  : "schema needs --markdown (the one "
                                    "format it writes)",
                         usage_schema);
    fkcg_buf out;
    fkcg_buf_init(&out);
    fkcg_schema_markdown(&out);
    fwrite(out.data, 1, out.len, stdout);
    fkcg_buf_free(&out);
    return fflush(stdout) == 0 ? 0 : 2;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("no command given", NULL);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        fputs(usage, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        puts("fkcgen " FKCGEN_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "check"))
        return cmd_read(argc, argv, false);
    if (!strcmp(cmd, "dump"))
        return cmd_read(argc, argv, true);
    if (!strcmp(cmd, "schema"))
        return cmd_schema(argc, argv);
    if (!strcmp(cmd, "gen")) /* the back ends' command line: cli/gen.c */
        return fkcg_cmd_gen(argc - 1, argv + 1);
    if (!strcmp(cmd, "diff")) /* two revisions compared: cli/diff.c */
        return fkcg_cmd_diff(argc - 1, argv + 1);
    if (!strcmp(cmd, "doc")) /* the providers' reference pages: cli/doc.c */
        return fkcg_cmd_doc(argc - 1, argv + 1);
    static const char *const commands[] = {"check", "dump", "schema", "gen", "diff", "doc"};
    const char *hint = fkcg_suggest(commands, 6, cmd);
    if (hint) {
        fkcg_cli_error("fkcgen: error", usage, "unknown command '%s'; did you mean '%s'?", cmd,
                       hint);
        return 2;
    }
    return usage_error("unknown command", cmd);
}
