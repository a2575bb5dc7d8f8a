/* cli.h — fkc-run's private interface: the parsed command line, the .npy <-> fkc dtype mapping,
 * the element helpers of the demo subcommands, and the commands main() runs. Errors are
 * returned as text in a caller's buffer; only main.c prints. */
#ifndef FKC_CLI_H
#define FKC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fkc/fkc_types.h"
#include "npy.h"

#define CLI_ERR_MAX NPY_ERR_MAX

/* Exit codes (documented in docs/runtime.md and --help). */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAIL = 1,     /* a bad file, shape or op, or a runtime failure */
    CLI_EXIT_USAGE = 2,    /* bad command-line arguments */
    CLI_EXIT_NO_DEVICE = 3 /* no Vulkan device (or no Vulkan at all); --cpu still works */
};

typedef enum cli_cmd {
    CLI_CMD_HELP,
    CLI_CMD_VERSION,
    CLI_CMD_DEVICES,
    CLI_CMD_WRITE_SLICE,
    CLI_CMD_ROTATING,
    CLI_CMD_SET_ROWS, /* row-indexed writes into a cache (set_rows.c) */
    CLI_CMD_IOTA,     /* writes start, start+1, ... in a dtype (the demo's inputs) */
    CLI_CMD_SHOW,     /* prints an array */
    CLI_CMD_CONFORM,  /* checks contracts' claims against the kernels (conform.c) */
    CLI_CMD_COUNT
} cli_cmd;

#define CLI_MAX_CONTRACTS 256 /* conform's CONTRACT... */
#define CLI_MAX_WRAPPERS 16   /* conform's --wrappers, each given once */
#define CLI_MAX_SIZES 8       /* conform's --sizes */
#define CLI_CC_TIMEOUT 300    /* conform's --cc-timeout default: seconds the compiler may take */

/* The parsed command line. Pointers point into argv. */
typedef struct cli_opts {
    cli_cmd cmd;
    const char *dst;              /* --dst */
    const char *src;              /* --src */
    const char *out;              /* -o / --out */
    const char *file;             /* show's positional file */
    size_t offsets[FKC_MAX_RANK]; /* --offsets */
    uint32_t n_offsets;           /* 0 when absent */
    size_t shape[FKC_MAX_RANK];   /* iota --shape */
    uint32_t n_shape;             /* 0 when absent */
    size_t capacity;              /* --capacity (has_capacity) */
    uint64_t position;            /* --position (has_position) */
    int has_capacity, has_position;
    int32_t axis;        /* --axis, -1 when absent */
    const char *index;   /* set_rows --index */
    int32_t slot_axis;   /* set_rows --slot-axis, -1 when absent (the slot is axis 0) */
    fkc_dtype src_dtype; /* set_rows --src-dtype, FKC_DTYPE_COUNT when absent */
    int64_t start;       /* iota --start */
    fkc_dtype dtype;     /* --dtype, FKC_DTYPE_COUNT when absent */
    const char *device;  /* --device N|NAME, NULL when absent */
    int cpu;             /* --cpu: the host reference, no Vulkan */
    int validate;        /* --validate: Khronos validation layer; a message fails */
    cli_cmd help_of;     /* CLI_CMD_HELP: whose --help (CLI_CMD_HELP: the global) */
    /* conform */
    const char *contracts[CLI_MAX_CONTRACTS]; /* the positional CONTRACT files */
    uint32_t n_contracts;
    const char *wrappers[CLI_MAX_WRAPPERS]; /* --wrappers FILE.c (repeatable) */
    uint32_t n_wrappers;
    size_t cases;                  /* --cases N (default 64) */
    uint64_t seed;                 /* --seed S (default 1) */
    const char *fkcgen;            /* --fkcgen PATH, NULL when absent */
    uint32_t cc_timeout;           /* --cc-timeout SECONDS (default CLI_CC_TIMEOUT) */
    const char *prefix;            /* --prefix NAME (default "fkc") */
    int allow_undeclared;          /* --allow-undeclared */
    int measure;                   /* --measure */
    uint64_t sizes[CLI_MAX_SIZES]; /* --sizes (default 64K,1M,16M) */
    const char *format;            /* --format text|json|sarif|junit|github (default text) */
    uint32_t n_sizes;
} cli_opts;

/* Parses argv (argv[0] is the program). 0, or -1 with a message naming the argument in err. */
/* Formats a one-line error message into err (the commands' common error channel). */
void cli_errf(char err[CLI_ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int cli_parse_args(int argc, char **argv, cli_opts *o, char err[CLI_ERR_MAX]);

/* The usage text printed by --help. */
const char *cli_usage(void);
/* `fkc-run CMD --help`: that command's usage and options (cli_usage() for CLI_CMD_HELP). */
const char *cli_command_usage(cli_cmd cmd);

/* The fkc dtype of an .npy descr: `forced` is --dtype (FKC_DTYPE_COUNT when absent); '<u2' is
 * BF16 only when forced. FKC_DTYPE_COUNT with a message in err when unsupported. */
fkc_dtype cli_dtype_of_descr(const char *descr, fkc_dtype forced, char err[CLI_ERR_MAX]);
/* The descr fkc-run writes for a dtype ("<u2" for BF16). */
const char *cli_descr_of_dtype(fkc_dtype dtype);

/* Element i of an iota array in dtype, written at p: start + i converted (integers wrap, floats
 * round to nearest even). */
void cli_iota_element(fkc_dtype dtype, int64_t start, size_t i, void *p);
/* Formats the element at p ("1.5", "-0", "nan", "-7") into buf. */
void cli_format_element(fkc_dtype dtype, const void *p, char *buf, size_t cap);
/* IEEE binary16 and bfloat16 bits from a float, round to nearest even; and back. */
uint16_t cli_f16_from_float(float f);
float cli_float_from_f16(uint16_t h);
uint16_t cli_bf16_from_float(float f);
float cli_float_from_bf16(uint16_t b);

/* The commands: each returns a CLI_EXIT_* code, with a message in err when non-zero.
 * Output (devices, show) goes to stdout. */
int cli_run_op(const cli_opts *o, char err[CLI_ERR_MAX]);
int cli_run_devices(const cli_opts *o, char err[CLI_ERR_MAX]);
int cli_run_iota(const cli_opts *o, char err[CLI_ERR_MAX]);
int cli_run_show(const cli_opts *o, char err[CLI_ERR_MAX]);
int cli_run_conform(const cli_opts *o, char err[CLI_ERR_MAX]);
int cli_run_set_rows(const cli_opts *o, char err[CLI_ERR_MAX]);

struct fkc_context;
struct fkc_buffer;
struct fkc_tensor;
/* An operand from an .npy file (fkc-run's ops, ops.c): reads path into a, its dtype
 * cli_dtype_of_descr(descr, forced), '<u2' BF16 also when u2_is_bf16, and checks the rank is
 * one fkc ops take. Messages name the file, and `what` after it when not NULL ("x.npy (the
 * index): ..."); on failure a is freed. */
int cli_load_npy(const char *path, const char *what, fkc_dtype forced, bool u2_is_bf16,
                 npy_array *a, fkc_dtype *dt, char err[CLI_ERR_MAX]);
/* A device buffer of `size` bytes (at least a's) holding a's bytes, and t its tensor of dtype
 * dt and a's shape. */
fkc_status cli_upload_npy(struct fkc_context *ctx, const npy_array *a, fkc_dtype dt, uint64_t size,
                          struct fkc_buffer **buf, struct fkc_tensor *t);

/* Creates the context --device (or the default) names, with the validation layer under
 * --validate. A CLI_EXIT_* code (CLI_EXIT_NO_DEVICE without a device), a message in err. */
int cli_open_device(const cli_opts *o, struct fkc_context **ctx, char err[CLI_ERR_MAX]);

#endif /* FKC_CLI_H */
