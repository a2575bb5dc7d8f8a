/* conform.h — `fkc-run conform`'s private interface: the claims read from `fkcgen dump --json`
 * (conform_claims.c), the seeded cases, their element-by-element oracle and the comparison a
 * precision block asks for (conform_cases.c), and the build of the bindings: temp directory,
 * fkcgen, the C compiler, dlopen (conform_build.c). conform.c runs the checks and prints. */
#ifndef FKC_CONFORM_H
#define FKC_CONFORM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cli.h"
#include "fkc/fkc_types.h"
#include "shim/conform_shim.h"

/* The op kinds conform checks: the runtime's kernel families, which have a CPU reference. */
typedef enum conform_op {
    CONFORM_WRITE_SLICE, /* WriteSlice */
    CONFORM_ROTATING,    /* WriteSliceRotating */
    CONFORM_SET_ROWS,    /* SetRows: keyed [src, index, cache] (conform_set_rows.c) */
    CONFORM_OP_COUNT,
    /* An op kind of a backend's own whose section names a cpu_reference (issue 25): checked
     * against that reference through fkc_conform_generic (shim/conform_shim.h). */
    CONFORM_GENERIC = CONFORM_OP_COUNT
} conform_op;

/* "WriteSlice" / "WriteSliceRotating" / "SetRows". */
const char *conform_op_kind(conform_op op);

typedef enum conform_determinism {
    CONFORM_BITWISE,
    CONFORM_DETERMINISTIC,
    CONFORM_NONDETERMINISTIC
} conform_determinism;

#define CONFORM_MAX_FIELDS 8

/* One binding of the dump, with the facts of its section that conform checks. The strings
 * point into the parsed JSON, alive until conform_claims_free. */
typedef struct conform_claim {
    const char *kernel, *op_kind, *kernel_source, *backend_name;
    const char *file; /* source.file, as fkcgen prints it */
    uint32_t line;    /* source.line */
    conform_op op;
    fkc_dtype dtype, out_dtype; /* the key's [in, out]; SetRows: [src, cache] */
    fkc_dtype index_dtype;      /* SetRows: the key's middle slot (I32, I64) */
    fkc_backend backend;
    uint32_t byte_width; /* the dump's byte_width */
    conform_determinism determinism;
    bool bit_stable;            /* precision.bit_stable_on_same_hardware */
    uint64_t max_ulp;           /* whole ulps: a claim of 2.5 checks distances up to 2 */
    const char *max_ulp_stated; /* the claim as the dump wrote it ("2.5", "3") */
    double max_relative, max_absolute;
    uint32_t alignment; /* caps.alignment_bytes */
    uint32_t n_inputs, n_outputs;
    const char *input;                   /* inputs[0].name */
    uint32_t rank;                       /* inputs[0].rank; 0: "any" */
    fkc_dtype declared[FKC_DTYPE_COUNT]; /* inputs[0].dtypes, contract order */
    uint32_t n_declared;
    const char *dtype_rule, *shape_rule, *aliasing; /* outputs[0]'s, as written */
    const char *fields[CONFORM_MAX_FIELDS], *field_kinds[CONFORM_MAX_FIELDS];
    uint32_t n_fields;
    const char *cpu_reference; /* the section's, or NULL */
    uint32_t generic;          /* CONFORM_GENERIC: its op kind's index in fkc_conform_generic */
} conform_claim;

typedef struct conform_claims {
    void *json;           /* the parsed dump (json_object *) */
    conform_claim *items; /* the bindings of conform's op kinds, in dump order */
    size_t n;
    size_t n_generic;            /* bindings of CONFORM_GENERIC among items */
    const char *generic_ops[64]; /* their op kinds, by conform_claim.generic */
    uint32_t n_generic_ops;
    size_t n_other;  /* bindings of other op kinds (not checked) */
    char other[256]; /* their op kinds, "Fill, Gelu" */
} conform_claims;

/* Reads the dump at path. 0, or -1 with a message (the dump is not what docs/fkcgen.md says). */
int conform_claims_read(const char *path, conform_claims *c, char err[CLI_ERR_MAX]);
void conform_claims_free(conform_claims *c);

/* ---- cases ------------------------------------------------------------------------------- */

/* One call: shapes, and the op's arguments. */
typedef struct conform_case {
    uint32_t rank;
    size_t dst[FKC_MAX_RANK]; /* the output's shape (= dst_shape) */
    size_t src[FKC_MAX_RANK];
    size_t offsets[FKC_MAX_RANK]; /* WriteSlice */
    size_t capacity;              /* WriteSliceRotating: dst[ring axis] */
    uint64_t position;
    int32_t axis;       /* the axis passed: the ring axis, or -1 (inferred) */
    uint32_t ring_axis; /* the ring axis itself */
    const char *what;   /* an edge case's name; NULL for a random one */
} conform_case;

/* splitmix64: deterministic on every platform. */
typedef struct conform_rng {
    uint64_t state;
} conform_rng;
uint64_t conform_rng_next(conform_rng *r);
/* Uniform in [0, n) (n > 0). */
uint64_t conform_rng_below(conform_rng *r, uint64_t n);

/* n cases of op: the edge cases first (those of rank `rank` only when rank != 0), then random
 * ones drawn from seed. Every case is valid: the reference accepts it. */
void conform_make_cases(conform_op op, uint32_t rank, uint64_t seed, size_t n, conform_case *out);
/* "rank 2, dst (4, 6), src (2, 3), offsets (1, 2)" (and the edge case's name). */
void conform_case_text(conform_op op, const conform_case *c, char *buf, size_t cap);
/* Element counts of the case's output and source. */
size_t conform_dst_count(const conform_case *c);
size_t conform_src_count(const conform_case *c);

/* The CPU reference of fkc (fkc_ref_*) on host memory: dst updated in place. */
fkc_status conform_reference(conform_op op, const conform_case *c, void *dst, const void *src,
                             size_t elem);
/* conform's own oracle, element by element from the op's definition (not from fkc's plans):
 * what --cpu compares the reference with. */
void conform_oracle(conform_op op, const conform_case *c, void *dst, const void *src, size_t elem);

/* What a precision block allows. All zero: byte-identical. */
typedef struct conform_tolerance {
    uint64_t max_ulp;
    double max_absolute, max_relative;
} conform_tolerance;

/* Distance in units in the last place between two elements of dtype: for floats the count of
 * representable values between them (+0 and -0 are 1 apart; a NaN is UINT64_MAX from anything
 * but another NaN, which is 0 from it); for integers the difference of their values. */
uint64_t conform_ulp_distance(fkc_dtype dtype, const void *a, const void *b);
/* Whether element got is within tol of want: the same bytes, or (tol non-zero) within max_ulp
 * units in the last place, or |got - want| <= max_absolute + max_relative * |want|. */
bool conform_element_ok(fkc_dtype dtype, const void *got, const void *want,
                        const conform_tolerance *tol);

/* The worst error measured over the elements compared: the largest ulp distance, and the
 * largest |got - want| and |got - want| / |want| (want != 0) over the elements whose values are
 * finite numbers on both sides (a NaN against a number, or infinities that differ, count as
 * UINT64_MAX ulp and an infinite absolute error). */
typedef struct conform_error {
    uint64_t max_ulp;
    double max_absolute, max_relative;
    uint64_t elements; /* compared */
} conform_error;
/* Folds the error of element got against want into e. */
void conform_element_error(fkc_dtype dtype, const void *got, const void *want, conform_error *e);

/* ---- rows ------------------------------------------------------------------------------ */

#define CONFORM_MAX_NOTES 4 /* failure details printed per row; the rest are counted */

/* A row's verdict and the details of what failed. */
typedef struct conform_row {
    size_t cases, passed, refused;
    bool fail;
    char notes[CONFORM_MAX_NOTES][CLI_ERR_MAX];
    const char *claims[CONFORM_MAX_NOTES]; /* the claim each note is about (--format's rule) */
    const char *claim;                     /* the claim being checked: the next notes' */
    size_t n_notes, n_more;
    const char *result; /* the result column when not "ok" / "FAIL" */
    conform_error err;  /* the worst error measured over the outputs (precision) */
} conform_row;

/* Fails the row with a note about r->claim (printf format). */
void conform_note(conform_row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- SetRows (conform_set_rows.c) --------------------------------------------------------- */

/* What the SetRows checks need of the run. */
typedef struct conform_sr_env {
    struct fkc_context *ctx;      /* the device; NULL with --cpu (the reference is the kernel) */
    const fkc_conform_shim *shim; /* the compiled bindings' table */
    const conform_claims *claims;
    uint64_t seed;
    size_t cases;
    uint64_t *digest; /* FNV-1a over every case made */
} conform_sr_env;

/* One SetRows binding: its cases through the whole-key dispatch against fkc_ref_set_rows (with
 * --cpu: the reference against conform's own oracle), the status word, guards, inputs,
 * determinism, refusals and the dispatch of its neighbouring keys. */
void conform_sr_binding(const conform_sr_env *e, const conform_claim *cl, conform_row *r);
/* Every [src, index, cache] key of the vocabulary no contract binds on backend be (and keys of
 * 2 and 4 slots): FKC_ERR_NO_KERNEL from the dispatch and the binding lookups (failures noted
 * in r). Returns how many of them the runtime's own op (fkc_set_rows; --cpu: fkc_ref_set_rows)
 * runs nonetheless ("works but undeclared"), the first in example ("[U32, I32, U32]"). */
size_t conform_sr_unbound(const conform_sr_env *e, fkc_backend be, conform_row *r, char *example,
                          size_t cap);
/* The key as the rows print it: "F32,I32,F16". */
const char *conform_sr_key(const conform_claim *cl, char *buf, size_t cap);
/* What a passing row checked, for its result column: "ok: bit copy, 0 ulp". */
const char *conform_sr_checked(const conform_claim *cl, char *buf, size_t cap);

/* ---- the build --------------------------------------------------------------------------- */

/* The private temp directory, its cleaner, and the compiled bindings. */
typedef struct conform_build {
    char dir[PATH_MAX];                 /* $TMPDIR/fkc-conform.XXXXXX; "" before it exists */
    char json[PATH_MAX + 16];           /* dir/claims.json: fkcgen dump --json */
    int keep_fd;                        /* write end of the cleaner's pipe; -1 when none */
    pid_t cleaner;                      /* removes dir once every holder of the pipe is gone */
    void *dl;                           /* the compiled bindings (dlopen) */
    const fkc_conform_shim *shim;       /* their table (conform_shim.h) */
    const fkc_conform_generic *generic; /* families of the backend's own, or NULL */
} conform_build;

/* Makes the temp directory and starts its cleaner (before any thread exists). A CLI_EXIT_*. */
int conform_build_begin(conform_build *b, char err[CLI_ERR_MAX]);
/* Runs `fkcgen dump --json` on the contracts into b->json; fkcgen's messages pass through. */
int conform_build_dump(conform_build *b, const cli_opts *o, char err[CLI_ERR_MAX]);
/* Generates the C bindings, compiles them with the shim and the --wrappers files into one
 * shared object, loads it and finds its table. has[op]: the contracts bind that op kind. */
int conform_build_compile(conform_build *b, const cli_opts *o, const bool has[CONFORM_OP_COUNT],
                          const conform_claims *c, char err[CLI_ERR_MAX]);
/* Whether conform can check claim c of a family of a backend's own (CONFORM_GENERIC): one
 * input, one output of its shape, scalar op_params. 0, or -1 with a message naming it. */
int conform_generic_check(const conform_claim *c, char err[CLI_ERR_MAX]);
/* Unloads, removes the directory, ends the cleaner. Safe on a partly begun build. */
void conform_build_end(conform_build *b);

#endif /* FKC_CONFORM_H */
