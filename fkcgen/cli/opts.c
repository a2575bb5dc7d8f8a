/* opts.c — the one option parser of fkcgen's subcommands: `--opt VALUE` and `--opt=VALUE` for
 * every option that takes a value, `--` ends the options, `--help`/`-h` everywhere, and an
 * unknown option is reported with the closest known one (fkcg_suggest). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fkcgen.h"
#include "internal.h"

int fkcg_opt_next(const char *prog, const char *usage, const fkcg_option *opts, size_t n, int argc,
                  char **argv, int *i, const char **value)
{
    *value = NULL;
    if (*i >= argc || argv[*i][0] != '-' || argv[*i][1] == '\0')
        return FKCG_OPT_END;
    const char *a = argv[(*i)++];
    if (!strcmp(a, "--"))
        return FKCG_OPT_END;
    if (!strcmp(a, "--help") || !strcmp(a, "-h"))
        return FKCG_OPT_HELP;
    size_t len = strcspn(a, "=");
    for (size_t k = 0; k < n; k++) {
        if (strlen(opts[k].name) != len || strncmp(a, opts[k].name, len) != 0)
            continue;
        if (!opts[k].value && a[len] == '=') {
            fkcg_cli_error(prog, usage, "option '%s' takes no value", opts[k].name);
            return FKCG_OPT_ERROR;
        }
        if (opts[k].value) {
            *value = a[len] == '=' ? a + len + 1 : *i < argc ? argv[(*i)++] : NULL;
            if (!*value || !**value) {
                fkcg_cli_error(prog, usage, "option '%s' needs a value", opts[k].name);
                return FKCG_OPT_ERROR;
            }
        }
        return (int)k;
    }
    const char *names[32];
    size_t m = 0;
    for (size_t k = 0; k < n && m < 31; k++)
        names[m++] = opts[k].name;
    names[m++] = "--help";
    char given[64];
    snprintf(given, sizeof given, "%.*s", (int)(len < 63 ? len : 63), a);
    const char *hint = fkcg_suggest(names, m, given);
    if (hint)
        fkcg_cli_error(prog, usage, "unknown option '%s'; did you mean '%s'?", a, hint);
    else
        fkcg_cli_error(prog, usage, "unknown option '%s'", a);
    return FKCG_OPT_ERROR;
}
