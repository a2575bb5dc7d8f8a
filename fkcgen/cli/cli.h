/* cli.h — private to the commands (cli/): each subcommand's entry point, which cli/main.c
 * calls, and the option parser they share. The library API they drive is fkcgen.h's. */
#ifndef FKCG_CLI_H
#define FKCG_CLI_H

#include <stdbool.h>
#include <stddef.h>

/* `fkcgen gen ...`: argv[0] is "gen". Defined by the gen command (cli/gen.c); cli/main.c calls
 * it. Returns the process exit code. */
int fkcg_cmd_gen(int argc, char **argv);
/* `fkcgen diff ...`: argv[0] is "diff" (cli/diff.c; docs/fkcgen.md, ## diff). Returns the
 * process exit code: 0 no breaking change, 1 a breaking change not allowed (or an expired
 * allow entry), 2 usage, I/O, git or contract errors on either side. */
int fkcg_cmd_diff(int argc, char **argv);
/* `fkcgen doc`: each provider's reference page (cli/doc.c, back/doc.c); argv[0] is "doc". */
int fkcg_cmd_doc(int argc, char **argv);

/* ---- opts.c: the option parser of every fkcgen subcommand ---- */
typedef struct fkcg_option {
    const char *name; /* "--out-dir" */
    bool value;       /* takes a value: `--out-dir DIR` or `--out-dir=DIR` */
} fkcg_option;
enum { FKCG_OPT_END = -1, FKCG_OPT_HELP = -2, FKCG_OPT_ERROR = -3 };
/* Reads the option at argv[*i] and moves *i past it (and its value): the index of the option
 * in opts (*value set for one that takes a value), FKCG_OPT_HELP for --help or -h,
 * FKCG_OPT_END at the first operand or after `--`, or FKCG_OPT_ERROR after reporting an
 * unknown option (with a did-you-mean), a missing value or a value given to a flag on stderr
 * as "prog: ...", followed by usage, in one message (diag.c's fkcg_cli_error). */
int fkcg_opt_next(const char *prog, const char *usage, const fkcg_option *opts, size_t n, int argc,
                  char **argv, int *i, const char **value);

#endif /* FKCG_CLI_H */
