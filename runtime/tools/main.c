/* main.c — fkc-run: arrange for SIGINT/SIGTERM/SIGHUP to remove a half-written output, parse
 * the command line, run one command, print its error. Everything else lives in args.c (the
 * options), ops.c (the commands), npy.c (the files) and conform*.c (`conform`). */
#include <stdio.h>

#include "cli.h"
#include "fkc/fkc_version.h"

int main(int argc, char **argv)
{
    cli_opts o;
    char err[CLI_ERR_MAX] = "";
    int rc;
    if (npy_cleanup_on_signals() < 0) {
        perror("fkc-run: sigaction");
        return CLI_EXIT_FAIL;
    }
    if (cli_parse_args(argc, argv, &o, err) < 0) {
        fprintf(stderr, "fkc-run: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    switch (o.cmd) {
    case CLI_CMD_HELP:
        fputs(cli_command_usage(o.help_of), stdout);
        rc = CLI_EXIT_OK;
        break;
    case CLI_CMD_VERSION:
        printf("fkc-run %s\n", fkc_version());
        rc = CLI_EXIT_OK;
        break;
    case CLI_CMD_DEVICES: rc = cli_run_devices(&o, err); break;
    case CLI_CMD_IOTA: rc = cli_run_iota(&o, err); break;
    case CLI_CMD_SHOW: rc = cli_run_show(&o, err); break;
    case CLI_CMD_CONFORM: rc = cli_run_conform(&o, err); break;
    case CLI_CMD_SET_ROWS: rc = cli_run_set_rows(&o, err); break;
    default: rc = cli_run_op(&o, err); break;
    }
    if (rc != CLI_EXIT_OK)
        fprintf(stderr, "fkc-run: %s\n", err);
    if (fflush(stdout) != 0 && rc == CLI_EXIT_OK) {
        perror("fkc-run: writing the output");
        rc = CLI_EXIT_FAIL;
    }
    return rc;
}
