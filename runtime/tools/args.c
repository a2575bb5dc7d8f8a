/* args.c — fkc-run's command line: one table of commands and one of options (which commands
 * take each, how its value is parsed) drive the parser, the required-option checks and the
 * messages. Numbers are parsed strictly: digits only, overflow-checked. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define BIT(c) (1u << (c))
#define OPS (BIT(CLI_CMD_WRITE_SLICE) | BIT(CLI_CMD_ROTATING) | BIT(CLI_CMD_SET_ROWS))
#define SET_ROWS BIT(CLI_CMD_SET_ROWS)
#define CONFORM BIT(CLI_CMD_CONFORM)

static const struct {
    const char *name;
    cli_cmd cmd;
} commands[] = {
    {"write_slice", CLI_CMD_WRITE_SLICE},
    {"write_slice_rotating", CLI_CMD_ROTATING},
    {"set_rows", CLI_CMD_SET_ROWS},
    {"devices", CLI_CMD_DEVICES},
    {"iota", CLI_CMD_IOTA},
    {"show", CLI_CMD_SHOW},
    {"conform", CLI_CMD_CONFORM},
    {"help", CLI_CMD_HELP},
    {"version", CLI_CMD_VERSION},
};

static const char *command_name(cli_cmd c)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i].cmd == c)
            return commands[i].name;
    return "?";
}

void cli_errf(char err[CLI_ERR_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, CLI_ERR_MAX, fmt, ap);
    va_end(ap);
}

/* ---- value parsers ----------------------------------------------------------------------- */

/* A decimal integer in [0, max]: digits only. */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (d > max || v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* "a,b,c" into list (at most FKC_MAX_RANK values). */
static int parse_list(const char *opt, const char *s, size_t *list, uint32_t *n,
                      char err[CLI_ERR_MAX])
{
    char item[32];
    *n = 0;
    for (const char *p = s;;) {
        size_t len = strcspn(p, ",");
        uint64_t v;
        if (*n == FKC_MAX_RANK) {
            cli_errf(err, "%s: '%s' has more than %d values (ranks 1..%d)", opt, s, FKC_MAX_RANK,
                     FKC_MAX_RANK);
            return -1;
        }
        if (len == 0 || len >= sizeof item) {
            cli_errf(err, "%s: '%s' is not a comma-separated list of non-negative integers", opt,
                     s);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (parse_u64(item, SIZE_MAX, &v) < 0) {
            cli_errf(err, "%s: '%s' in '%s' is not a non-negative integer (or is too large)", opt,
                     item, s);
            return -1;
        }
        list[(*n)++] = (size_t)v;
        if (!p[len])
            return 0;
        p += len + 1;
    }
}

/* A file name: anything but the empty string (which would reach open() as "" and give a
 * message naming no file). */
static int set_path(const char **field, const char *opt, const char *v, char *err)
{
    if (!*v) {
        cli_errf(err, "%s: empty file name", opt);
        return -1;
    }
    *field = v;
    return 0;
}

static int set_dst(cli_opts *o, const char *opt, const char *v, char *err)
{
    return set_path(&o->dst, opt, v, err);
}

static int set_src(cli_opts *o, const char *opt, const char *v, char *err)
{
    return set_path(&o->src, opt, v, err);
}

static int set_out(cli_opts *o, const char *opt, const char *v, char *err)
{
    return set_path(&o->out, opt, v, err);
}

static int set_offsets(cli_opts *o, const char *opt, const char *v, char *err)
{
    return parse_list(opt, v, o->offsets, &o->n_offsets, err);
}

static int set_shape(cli_opts *o, const char *opt, const char *v, char *err)
{
    return parse_list(opt, v, o->shape, &o->n_shape, err);
}

static int set_capacity(cli_opts *o, const char *opt, const char *v, char *err)
{
    uint64_t c;
    if (parse_u64(v, SIZE_MAX, &c) < 0 || c == 0) {
        cli_errf(err, "%s: '%s' is not a positive integer", opt, v);
        return -1;
    }
    o->capacity = (size_t)c;
    o->has_capacity = 1;
    return 0;
}

static int set_position(cli_opts *o, const char *opt, const char *v, char *err)
{
    if (parse_u64(v, UINT64_MAX, &o->position) < 0) {
        cli_errf(err, "%s: '%s' is not a non-negative integer below 2^64", opt, v);
        return -1;
    }
    o->has_position = 1;
    return 0;
}

static int set_axis(cli_opts *o, const char *opt, const char *v, char *err)
{
    uint64_t a;
    if (parse_u64(v, FKC_MAX_RANK - 1, &a) < 0) {
        cli_errf(err, "%s: '%s' is not an axis 0..%d", opt, v, FKC_MAX_RANK - 1);
        return -1;
    }
    o->axis = (int32_t)a;
    return 0;
}

static int set_index(cli_opts *o, const char *opt, const char *v, char *err)
{
    return set_path(&o->index, opt, v, err);
}

static int set_slot_axis(cli_opts *o, const char *opt, const char *v, char *err)
{
    uint64_t a;
    if (parse_u64(v, FKC_MAX_RANK - 1, &a) < 0 || a == 0) {
        cli_errf(err, "%s: '%s' is not an axis 1..%d (the slot's second axis)", opt, v,
                 FKC_MAX_RANK - 1);
        return -1;
    }
    o->slot_axis = (int32_t)a;
    return 0;
}

static int set_src_dtype(cli_opts *o, const char *opt, const char *v, char *err)
{
    o->src_dtype = fkc_dtype_from_name(v);
    if (o->src_dtype == FKC_DTYPE_COUNT) {
        cli_errf(err, "%s: unknown dtype '%s' (f32 i32 u32 f16 bf16 f64 i64 u8 i8)", opt, v);
        return -1;
    }
    return 0;
}

static int set_start(cli_opts *o, const char *opt, const char *v, char *err)
{
    uint64_t m;
    int neg = v[0] == '-';
    if (parse_u64(v + neg, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &m) < 0) {
        cli_errf(err, "%s: '%s' is not a 64-bit integer", opt, v);
        return -1;
    }
    o->start = neg ? (int64_t)(0 - m) : (int64_t)m;
    return 0;
}

static int set_dtype(cli_opts *o, const char *opt, const char *v, char *err)
{
    o->dtype = fkc_dtype_from_name(v);
    if (o->dtype == FKC_DTYPE_COUNT) {
        cli_errf(err, "%s: unknown dtype '%s' (f32 i32 u32 f16 bf16 f64 i64 u8 i8)", opt, v);
        return -1;
    }
    return 0;
}

/* A flag: the option sets its field to 1. */
#define FLAG_SETTER(field)                                                                         \
    static int set_##field(cli_opts *o, const char *opt, const char *v, char *err)                 \
    {                                                                                              \
        (void)opt, (void)v, (void)err;                                                             \
        o->field = 1;                                                                              \
        return 0;                                                                                  \
    }
FLAG_SETTER(cpu)
FLAG_SETTER(validate)
FLAG_SETTER(allow_undeclared)
FLAG_SETTER(measure)

static int set_device(cli_opts *o, const char *opt, const char *v, char *err)
{
    if (!*v) {
        cli_errf(err, "%s: empty device name", opt);
        return -1;
    }
    o->device = v;
    return 0;
}

/* ---- conform's options ---- */

static int set_cases(cli_opts *o, const char *opt, const char *v, char *err)
{
    uint64_t n;
    if (parse_u64(v, 100000, &n) < 0 || n == 0) {
        cli_errf(err, "%s: '%s' is not a case count 1..100000", opt, v);
        return -1;
    }
    o->cases = (size_t)n;
    return 0;
}

static int set_seed(cli_opts *o, const char *opt, const char *v, char *err)
{
    if (parse_u64(v, UINT64_MAX, &o->seed) < 0) {
        cli_errf(err, "%s: '%s' is not a non-negative integer below 2^64", opt, v);
        return -1;
    }
    return 0;
}

static int set_wrappers(cli_opts *o, const char *opt, const char *v, char *err)
{
    if (o->n_wrappers == CLI_MAX_WRAPPERS) {
        cli_errf(err, "%s: more than %d files", opt, CLI_MAX_WRAPPERS);
        return -1;
    }
    return set_path(&o->wrappers[o->n_wrappers++], opt, v, err);
}

static int set_cc_timeout(cli_opts *o, const char *opt, const char *v, char *err)
{
    uint64_t n;
    if (parse_u64(v, 86400, &n) < 0 || n == 0) {
        cli_errf(err, "%s: '%s' is not a number of seconds from 1 to 86400", opt, v);
        return -1;
    }
    o->cc_timeout = (uint32_t)n;
    return 0;
}

static int set_fkcgen(cli_opts *o, const char *opt, const char *v, char *err)
{
    return set_path(&o->fkcgen, opt, v, err);
}

/* A C identifier: the generated names start with it (fkcgen gen --prefix). */
static int set_prefix(cli_opts *o, const char *opt, const char *v, char *err)
{
    size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    if (!*v || v[n] || (*v >= '0' && *v <= '9') || n > 40) {
        cli_errf(err, "%s: '%s' is not a C identifier of at most 40 characters", opt, v);
        return -1;
    }
    o->prefix = v;
    return 0;
}

/* "64K,1M,16M": byte sizes, with an optional K, M or G (powers of 1024). */
static int set_sizes(cli_opts *o, const char *opt, const char *v, char *err)
{
    o->n_sizes = 0;
    for (const char *p = v;;) {
        char item[32];
        size_t len = strcspn(p, ","), shift = 0;
        uint64_t n;
        if (o->n_sizes == CLI_MAX_SIZES || len == 0 || len >= sizeof item) {
            cli_errf(err, "%s: '%s' is not a list of at most %d sizes (64K,1M,16M)", opt, v,
                     CLI_MAX_SIZES);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        const char *u = strchr("KMG", item[len - 1]);
        if (u && item[len - 1]) {
            shift = 10 * (size_t)(u - "KMG" + 1);
            item[len - 1] = '\0';
        }
        if (parse_u64(item, (1ull << 40) >> shift, &n) < 0 || n == 0) {
            cli_errf(err, "%s: '%.*s' is not a size of 1 byte to 1T (64K, 1M, ...)", opt, (int)len,
                     p);
            return -1;
        }
        o->sizes[o->n_sizes++] = n << shift;
        if (!p[len])
            return 0;
        p += len + 1;
    }
}

/* conform's report format: text (the table), or on stdout JSON, SARIF, JUnit or GitHub. */
static int set_format(cli_opts *o, const char *opt, const char *v, char *err)
{
    static const char *const names[] = {"text", "json", "sarif", "junit", "github"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(v, names[i]) == 0) {
            o->format = names[i];
            return 0;
        }
    cli_errf(err, "%s: '%s' is not a format: text, json, sarif, junit or github", opt, v);
    return -1;
}

typedef int (*setter)(cli_opts *o, const char *opt, const char *v, char *err);

/* The options: name, short alias, whether a value follows, the commands taking it, setter,
 * and its line in a command's --help. */
static const struct option {
    const char *name;
    const char *alias;
    int has_value;
    unsigned cmds;
    unsigned required; /* commands that require it */
    setter set;
    const char *arg, *help; /* its value's name and what it does, in a command's --help */
} options[] = {
    {"--dst", NULL, 1, OPS, OPS, set_dst, "D.npy", "the destination array"},
    {"--src", NULL, 1, OPS, OPS, set_src, "S.npy", "the array written into it"},
    {"--out", "-o", 1, OPS | BIT(CLI_CMD_IOTA), OPS | BIT(CLI_CMD_IOTA), set_out, "OUT.npy",
     "the output (-o OUT.npy too)"},
    {"--offsets", NULL, 1, BIT(CLI_CMD_WRITE_SLICE), BIT(CLI_CMD_WRITE_SLICE), set_offsets,
     "O0,O1,...", "where S goes in D: one offset per axis"},
    {"--capacity", NULL, 1, BIT(CLI_CMD_ROTATING), BIT(CLI_CMD_ROTATING), set_capacity, "C",
     "the ring's extent along the rotating axis"},
    {"--position", NULL, 1, BIT(CLI_CMD_ROTATING), BIT(CLI_CMD_ROTATING), set_position, "P",
     "where S's first row goes (mod C)"},
    {"--axis", NULL, 1, BIT(CLI_CMD_ROTATING), 0, set_axis, "A",
     "the rotating axis (default: the one of extent C)"},
    {"--index", NULL, 1, SET_ROWS, SET_ROWS, set_index, "IDX.npy",
     "each row's slot (<i4 or <i8): negative skipped, past\nthe cache counted"},
    {"--slot-axis", NULL, 1, SET_ROWS, 0, set_slot_axis, "K",
     "the slot is split over axes 0 and K (paged NHD: 1,\nHND: 2); default: axis 0 alone"},
    {"--src-dtype", NULL, 1, SET_ROWS, 0, set_src_dtype, "T",
     "the rows' dtype where it differs from --dtype (bf16\nrows are stored as '<u2')"},
    {"--shape", NULL, 1, BIT(CLI_CMD_IOTA), BIT(CLI_CMD_IOTA), set_shape, "N0,N1,...",
     "the array's shape"},
    {"--start", NULL, 1, BIT(CLI_CMD_IOTA), 0, set_start, "S", "the first value (default 0)"},
    {"--dtype", NULL, 1, OPS | BIT(CLI_CMD_IOTA) | BIT(CLI_CMD_SHOW), BIT(CLI_CMD_IOTA), set_dtype,
     "T",
     "f32 i32 u32 f16 bf16 f64 i64 u8 i8; bf16 is stored as '<u2', so\n"
     "bf16 files need --dtype bf16 (else the dtype is the files' descr)"},
    {"--device", NULL, 1, OPS | CONFORM, 0, set_device, "N|NAME",
     "the Vulkan device (index, "
     "or name substring); default:\nFKC_DEVICE, else the first GPU, else a CPU device (lavapipe)"},
    {"--cpu", NULL, 0, OPS | CONFORM, 0, set_cpu, "",
     "the plain-C reference path (no Vulkan "
     "needed)"},
    {"--validate", NULL, 0, OPS | CONFORM, 0, set_validate, "",
     "the Khronos validation layer; any message fails the run"},
    {"--cases", NULL, 1, CONFORM, 0, set_cases, "N",
     "seeded cases per binding (default 64; edge "
     "cases first)"},
    {"--seed", NULL, 1, CONFORM, 0, set_seed, "S",
     "the cases' seed (default 1): same seed, "
     "same cases"},
    {"--allow-undeclared", NULL, 0, CONFORM, 0, set_allow_undeclared, "",
     "a dtype the runtime runs but the contract omits is\nnot a failure"},
    {"--wrappers", NULL, 1, CONFORM, 0, set_wrappers, "FILE.c",
     "compiled with the bindings: "
     "the byte-width wrappers\nof the contracts' own kernels and their cpu_references\n"
     "(repeatable)"},
    {"--fkcgen", NULL, 1, CONFORM, 0, set_fkcgen, "PATH",
     "the fkcgen to run (default: $FKCGEN, "
     "else the one beside\nfkc-run)"},
    {"--cc-timeout", NULL, 1, CONFORM, 0, set_cc_timeout, "SECONDS",
     "the most $CC may take (default 300); past it, it and\nits process group are killed"},
    {"--prefix", NULL, 1, CONFORM, 0, set_prefix, "NAME",
     "the generated names' prefix (default fkc)"},
    {"--measure", NULL, 0, CONFORM, 0, set_measure, "",
     "also each binding's device time and "
     "the bandwidth its\nbytes_moved implies"},
    {"--sizes", NULL, 1, CONFORM, 0, set_sizes, "64K,1M,...",
     "--measure's source sizes "
     "(default 64K,1M,16M)"},
    {"--format", NULL, 1, CONFORM, 0, set_format, "F",
     "text (default), or on stdout json, sarif,\njunit or github: the rows for CI"},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

/* The option named by arg ("--dst" or "--dst=..."); *value points past '=' when present. */
static const struct option *find_option(const char *arg, const char **value)
{
    size_t len = strcspn(arg, "=");
    *value = arg[len] == '=' ? arg + len + 1 : NULL;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const char *n = options[i].name, *a = options[i].alias;
        if ((strlen(n) == len && strncmp(arg, n, len) == 0) ||
            (a && strlen(a) == len && strncmp(arg, a, len) == 0))
            return &options[i];
    }
    return NULL;
}

/* Edit distance between a[0..la) and b, for did-you-mean (options are short: 32 bytes). */
static size_t distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b), row[33];
    if (la > 32 || lb > 32)
        return SIZE_MAX;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The name closest to s[0..len) (the way fkcgen's did-you-mean picks: a name differing only
 * in case wins, else the nearest within 1-3 edits by length), or NULL. */
static const char *closest(const char *const *names, size_t n, const char *s, size_t len)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (strlen(names[i]) == len && !strncasecmp(names[i], s, len))
            return names[i];
        size_t d = distance(s, len, names[i]);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best_d <= (len <= 3 ? 1u : len <= 6 ? 2u : 3u) ? best : NULL;
}

static int parse_command(const char *arg, cli_opts *o, char err[CLI_ERR_MAX])
{
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        o->cmd = CLI_CMD_HELP;
        return 0;
    }
    if (strcmp(arg, "--version") == 0) {
        o->cmd = CLI_CMD_VERSION;
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(arg, commands[i].name) == 0) {
            o->cmd = commands[i].cmd;
            return 0;
        }
    }
    const char *names[sizeof commands / sizeof commands[0]];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        names[i] = commands[i].name;
    const char *hint = closest(names, sizeof names / sizeof names[0], arg, strlen(arg));
    if (hint)
        cli_errf(err, "unknown command '%s'; did you mean '%s'?", arg, hint);
    else
        cli_errf(err, "unknown command '%s' (see fkc-run --help)", arg);
    return -1;
}

/* One option at argv[*i] (with its value, which may be the next argument). */
static int parse_option(int argc, char **argv, int *i, unsigned *seen, cli_opts *o,
                        char err[CLI_ERR_MAX])
{
    const char *arg = argv[*i], *value;
    const struct option *opt = find_option(arg, &value);
    if (!opt) {
        /* the command's own options first: --offset is write_slice's --offsets */
        const char *mine[N_OPTIONS], *any[N_OPTIONS];
        size_t n_mine = 0, len = strcspn(arg, "=");
        for (size_t k = 0; k < N_OPTIONS; k++) {
            any[k] = options[k].name;
            if (options[k].cmds & BIT(o->cmd))
                mine[n_mine++] = options[k].name;
        }
        const char *hint = closest(mine, n_mine, arg, len);
        if (!hint)
            hint = closest(any, N_OPTIONS, arg, len);
        if (hint)
            cli_errf(err, "unknown option '%.*s'; did you mean '%s'? (see fkc-run %s --help)",
                     (int)len, arg, hint, command_name(o->cmd));
        else
            cli_errf(err, "unknown option '%.*s' (see fkc-run %s --help)", (int)len, arg,
                     command_name(o->cmd));
        return -1;
    }
    if (!(opt->cmds & BIT(o->cmd))) {
        cli_errf(err, "%s is not an option of '%s'", opt->name, command_name(o->cmd));
        return -1;
    }
    unsigned bit = 1u << (opt - options);
    if ((*seen & bit) && opt->set != set_wrappers) { /* --wrappers: one file each */
        cli_errf(err, "%s given twice", opt->name);
        return -1;
    }
    *seen |= bit;
    if (!opt->has_value) {
        if (value) {
            cli_errf(err, "%s takes no value", opt->name);
            return -1;
        }
        return opt->set(o, opt->name, NULL, err);
    }
    if (!value) {
        if (*i + 1 >= argc) {
            cli_errf(err, "%s needs a value", opt->name);
            return -1;
        }
        value = argv[++*i];
    }
    return opt->set(o, opt->name, value, err);
}

int cli_parse_args(int argc, char **argv, cli_opts *o, char err[CLI_ERR_MAX])
{
    unsigned seen = 0;
    memset(o, 0, sizeof *o);
    o->help_of = CLI_CMD_HELP;
    o->axis = -1;
    o->slot_axis = -1;
    o->dtype = FKC_DTYPE_COUNT;
    o->src_dtype = FKC_DTYPE_COUNT;
    o->cases = 64;
    o->seed = 1;
    o->prefix = "fkc";
    o->cc_timeout = CLI_CC_TIMEOUT;
    if (argc < 2) {
        cli_errf(err, "missing command (see fkc-run --help)");
        return -1;
    }
    if (parse_command(argv[1], o, err) < 0)
        return -1;
    for (int i = 2, dashes = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!dashes && strcmp(a, "--") == 0) { /* the rest are files */
            dashes = 1;
            continue;
        }
        if (o->cmd == CLI_CMD_CONFORM && (dashes || a[0] != '-' || !a[1])) {
            if (o->n_contracts == CLI_MAX_CONTRACTS) {
                cli_errf(err, "conform: more than %d contracts", CLI_MAX_CONTRACTS);
                return -1;
            }
            if (set_path(&o->contracts[o->n_contracts++], "conform", a, err) < 0)
                return -1;
            continue;
        }
        if (!dashes && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            o->help_of = o->cmd; /* that command's help, not the global one */
            o->cmd = CLI_CMD_HELP;
            return 0;
        }
        if (!dashes && a[0] == '-' && a[1]) {
            if (parse_option(argc, argv, &i, &seen, o, err) < 0)
                return -1;
        } else if (o->cmd == CLI_CMD_SHOW && !o->file) {
            if (set_path(&o->file, "show", a, err) < 0)
                return -1;
        } else {
            cli_errf(err, "unexpected argument '%s'", a);
            return -1;
        }
    }
    for (size_t k = 0; k < N_OPTIONS; k++) {
        if ((options[k].required & BIT(o->cmd)) && !(seen & (1u << k))) {
            cli_errf(err, "%s: missing %s", command_name(o->cmd), options[k].name);
            return -1;
        }
    }
    if (o->cmd == CLI_CMD_SHOW && !o->file) {
        cli_errf(err, "show: missing the .npy file to print");
        return -1;
    }
    if (o->cpu && (o->device || o->validate || o->measure)) {
        cli_errf(err, "--cpu and %s exclude each other",
                 o->device     ? "--device"
                 : o->validate ? "--validate"
                               : "--measure (a device time)");
        return -1;
    }
    if (o->cmd == CLI_CMD_CONFORM && o->n_contracts == 0) {
        cli_errf(err, "conform: missing the contracts (CONTRACT.md...)");
        return -1;
    }
    if (o->n_sizes && !o->measure) {
        cli_errf(err, "--sizes: only with --measure");
        return -1;
    }
    if (o->measure && !o->n_sizes) {
        static const uint64_t sizes[] = {64u << 10, 1u << 20, 16u << 20};
        memcpy(o->sizes, sizes, sizeof sizes);
        o->n_sizes = 3;
    }
    return 0;
}

const char *cli_usage(void)
{
    return "usage: fkc-run COMMAND [OPTIONS]\n"
           "\n"
           "Runs the fkc write-slice ops on NumPy .npy files, on a Vulkan device or the CPU.\n"
           "\n"
           "commands:\n"
           "  write_slice --dst D.npy --src S.npy --offsets O0,O1,... -o OUT.npy\n"
           "      OUT = D with S written at the per-axis offsets.\n"
           "  write_slice_rotating --dst D.npy --src S.npy --capacity C --position P [--axis A]\n"
           "                       -o OUT.npy\n"
           "      OUT = D with S[..., i, ...] written at (P + i) mod C along the rotating axis\n"
           "      (the one of extent C, or --axis A); the last write wins.\n"
           "  set_rows --dst C.npy --src R.npy --index I.npy [--slot-axis K] -o OUT.npy\n"
           "      OUT = C with row i of R written at slot I[i] (I[i] >= 0; past the cache:\n"
           "      counted, nothing written; a slot named twice: the last row), converted to\n"
           "      C's dtype (same dtype; f32 -> f16/bf16 round to nearest even; f16/bf16 -> f32)\n"
           "  devices            list the Vulkan devices and their limits\n"
           "  iota --shape N0,N1,... --dtype T [--start S] -o OUT.npy\n"
           "      write S, S+1, ... (integers wrap, floats round) in dtype T\n"
           "  show FILE.npy [--dtype bf16]   print an array\n"
           "  conform CONTRACT.md... [--cases N] [--seed S] [--wrappers FILE.c]...\n"
           "      check that the kernels the contracts bind keep their claims: seeded cases\n"
           "      through the generated dispatch against the CPU reference (WriteSlice,\n"
           "      WriteSliceRotating, SetRows; a cpu_reference of the contracts' own)\n"
           "      (docs/runtime.md)\n"
           "  help, --help, -h   this text; COMMAND --help: that command's usage and options\n"
           "  version, --version\n"
           "\n"
           "options of write_slice, write_slice_rotating and set_rows:\n"
           "  --dtype T        f32 i32 u32 f16 bf16 f64 i64 u8 i8; needed only for bf16, which\n"
           "                   is stored as '<u2' (otherwise the dtype is the files' descr)\n"
           "  --device N|NAME  the Vulkan device (index, or name substring); default: FKC_DEVICE,\n"
           "                   else the first GPU, else a CPU device such as lavapipe\n"
           "  --cpu            the plain-C reference path (no Vulkan needed)\n"
           "  --validate       enable the Khronos validation layer; any message fails the run\n"
           "\n"
           "options of conform (and --device, --cpu, --validate):\n"
           "  --cases N        seeded cases per binding (default 64)   --seed S  (default 1)\n"
           "  --allow-undeclared  an omitted dtype the runtime runs is no failure\n"
           "  --wrappers FILE.c   wrappers and cpu_references of the contracts' own kernels\n"
           "                      (repeatable)\n"
           "  --fkcgen PATH    (default: $FKCGEN, else beside fkc-run)  --prefix NAME (fkc)\n"
           "  --cc-timeout SECONDS  the most $CC may take (default 300), then its process\n"
           "                   group is killed\n"
           "  --measure [--sizes 64K,1M,...]   device time and bandwidth of each binding\n"
           "  --format F       text, or json|sarif|junit|github on stdout (for CI)\n"
           "\n"
           ".npy files: versions 1.0/2.0/3.0, C order, little-endian <f4 <i4 <u4 <f2 <f8 <i8 |u1\n"
           "|i1, and <u2 with --dtype bf16. The output is written to a temporary file beside it,\n"
           "synced and renamed on success: on any error or SIGINT/SIGTERM no output file is left.\n"
           "-o must be absent, a regular file (its mode is kept) or a symlink to one (written\n"
           "through); a FIFO, device or directory is refused. Inputs must be regular files.\n"
           "\n"
           "exit status: 0 ok, 1 bad file/shape/op or runtime failure, 2 bad arguments,\n"
           "3 no Vulkan device (try --cpu).\n";
}

/* One command's usage line and what it does; its options come from the table. */
static const struct {
    cli_cmd cmd;
    const char *usage;
} command_usage[] = {
    {CLI_CMD_WRITE_SLICE, "write_slice --dst D.npy --src S.npy --offsets O0,O1,... -o OUT.npy\n"
                          "  OUT = D with S written at the per-axis offsets.\n"},
    {CLI_CMD_ROTATING, "write_slice_rotating --dst D.npy --src S.npy --capacity C --position P\n"
                       "                    [--axis A] -o OUT.npy\n"
                       "  OUT = D with S[..., i, ...] written at (P + i) mod C along the rotating\n"
                       "  axis (the one of extent C, or --axis A); the last write wins.\n"},
    {CLI_CMD_SET_ROWS,
     "set_rows --dst C.npy --src R.npy --index I.npy [--slot-axis K] -o OUT.npy\n"
     "  OUT = C with row i of R written at slot I[i] of the cache C (a row: C's\n"
     "  axes but the slot's): negative indices are skipped; one at or past the\n"
     "  slots writes nothing and is counted on stderr; a slot named twice gets\n"
     "  the last row. Rows convert to C's dtype: the same dtype (the bits), f32 ->\n"
     "  f16 or bf16 (round to nearest even), f16 or bf16 -> f32 (exact).\n"},
    {CLI_CMD_DEVICES, "devices\n  Lists the Vulkan devices and their limits.\n"},
    {CLI_CMD_IOTA, "iota --shape N0,N1,... --dtype T [--start S] -o OUT.npy\n"
                   "  Writes S, S+1, ... (integers wrap, floats round) in dtype T.\n"},
    {CLI_CMD_SHOW, "show FILE.npy [--dtype bf16]\n"
                   "  Prints an array: its dtype and shape, then its rows (rank 3 and more\n"
                   "  nested like NumPy's, a blank line between planes); long ones elided.\n"},
    {CLI_CMD_CONFORM,
     "conform CONTRACT.md... [OPTIONS]\n"
     "  Generates and compiles the contracts' bindings (fkcgen, $CC), then checks\n"
     "  every binding of WriteSlice and WriteSliceRotating: seeded cases through\n"
     "  the generated dispatch against the CPU reference as the precision block\n"
     "  says, determinism, shape_rule and dtype_rule, untouched inputs and guard\n"
     "  bytes, refused invalid calls and undeclared keys. One row per binding;\n"
     "  a dtype the runtime runs but the contract omits fails (works but\n"
     "  undeclared). SetRows bindings ([src, index, cache] keys, one row each)\n"
     "  run through the whole-key dispatch against fkc_ref_set_rows bit for bit:\n"
     "  negative and past-the-end indices (the status word), duplicates, NHD/HND\n"
     "  slot axes, NaN/Inf/subnormal/tie sources; a row \"unbound\" checks every\n"
     "  other key is FKC_ERR_NO_KERNEL. A family of the contracts' own whose\n"
     "  sections name a cpu_reference (defined by the --wrappers files) is\n"
     "  checked against it.\n"
     "  Exit 1 on any failure.\n"},
    {CLI_CMD_VERSION, "version\n  Prints fkc-run's version.\n"},
};

const char *cli_command_usage(cli_cmd cmd)
{
    static char text[8192];
    size_t n = 0;
    if (cmd == CLI_CMD_HELP)
        return cli_usage();
    for (size_t i = 0; i < sizeof command_usage / sizeof command_usage[0]; i++)
        if (command_usage[i].cmd == cmd)
            n += (size_t)snprintf(text, sizeof text, "usage: fkc-run %s", command_usage[i].usage);
    for (size_t k = 0, first = 1; k < N_OPTIONS && n < sizeof text; k++) {
        if (!(options[k].cmds & BIT(cmd)))
            continue;
        char opt[40];
        snprintf(opt, sizeof opt, "%s %s", options[k].name, options[k].arg);
        n += (size_t)snprintf(text + n, sizeof text - n, "%s  %-20s %s",
                              first ? "\noptions:\n" : "", opt,
                              options[k].required & BIT(cmd) ? "(required) " : "");
        for (const char *h = options[k].help; *h && n < sizeof text; h++) /* lines aligned */
            n += *h == '\n' ? (size_t)snprintf(text + n, sizeof text - n, "\n%23s", "")
                            : (size_t)snprintf(text + n, sizeof text - n, "%c", *h);
        if (n < sizeof text)
            n += (size_t)snprintf(text + n, sizeof text - n, "\n");
        if (n > sizeof text)
            n = sizeof text;
        first = 0;
    }
    if (n < sizeof text)
        snprintf(text + n, sizeof text - n,
                 "  --help, -h           this text\n"
                 "\nexit status: 0 ok, 1 bad file/shape/op or runtime failure, 2 bad arguments,\n"
                 "3 no Vulkan device (try --cpu).\n");
    return text;
}
