/* names.c — the C names a contract's identifiers become, written once for the front end
 * (validate, bind) and the C back end: the one table of names a contract may not use
 * (C keywords, names of the headers the generated code includes, the emitter's own) and the
 * snake_case form of an op kind. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "model.h"

static int cmp_name(const void *key, const void *entry)
{
    return strcmp(key, *(const char *const *)entry);
}

/* Sorted (strcmp order, checked by the tests): C11 and C23 keywords, GNU asm/typeof, and the
 * macros, typedefs and functions of <stdbool.h>, <stddef.h>, <stdint.h>, <math.h> that a name
 * of the generated code could meet (the patterns below cover the rest of <stdint.h>). */
static const char *const reserved[] = {
    "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "INFINITY", "MATH_ERREXCEPT", "MATH_ERRNO", "NAN",
    "NULL", "alignas", "alignof", "asm", "auto", "bool", "break", "case", "char", "const",
    "constexpr", "continue", "default", "do", "double", "double_t", "else", "enum", "errno",
    "extern", "false", "fill_unset_cost_for_backend", "float", "float_t", "for", "fpclassify",
    "goto", "if", "inline", "int", "isfinite", "isgreater", "isgreaterequal", "isinf", "isless",
    "islessequal", "islessgreater", "isnan", "isnormal", "isunordered", "long",
    "math_errhandling", "max_align_t", "nullptr", "offsetof", "ptrdiff_t", "register",
    "restrict", "return", "short", "signbit", "signed", "size_t", "sizeof", "static",
    "static_assert", "struct", "switch", "thread_local", "true", "typedef", "typeof",
    "typeof_unqual", "union", "unsigned", "void", "volatile", "wchar_t", "while",
};

static bool has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static bool has_suffix(const char *s, const char *x)
{
    size_t n = strlen(s), m = strlen(x);
    return n >= m && strcmp(s + n - m, x) == 0;
}

/* <stdint.h>: [u]int*_t typedefs; INT*, UINT*, SIZE, PTRDIFF, SIG_ATOMIC, WCHAR, WINT
 * _MAX/_MIN/_C macros. */
static bool stdint_name(const char *s)
{
    if ((has_prefix(s, "int") || has_prefix(s, "uint")) && has_suffix(s, "_t"))
        return true;
    static const char *const pre[] = { "INT", "UINT", "SIZE", "PTRDIFF", "SIG_ATOMIC", "WCHAR",
                                       "WINT" };
    if (!has_suffix(s, "_MAX") && !has_suffix(s, "_MIN") && !has_suffix(s, "_C"))
        return false;
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (has_prefix(s, pre[i]))
            return true;
    return false;
}

bool fkcg_c_name_reserved(const char *s)
{
    if (s[0] == '_' || has_prefix(s, "fkc_") || has_prefix(s, "FKC_") || has_prefix(s, "FP_") ||
        has_prefix(s, "M_") || stdint_name(s))
        return true; /* _X and __ reserved by C; the runtime's and fkcgen's prefixes; <math.h> */
    return bsearch(s, reserved, sizeof reserved / sizeof reserved[0], sizeof reserved[0],
                   cmp_name) != NULL;
}

bool fkcg_c_names_sorted(void)
{
    for (size_t i = 1; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(reserved[i - 1], reserved[i]) >= 0)
            return false;
    return true;
}

static bool is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static bool is_lower(int c) { return c >= 'a' && c <= 'z'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }

char *fkcg_snake_case(const char *camel)
{
    size_t n = strlen(camel);
    char *out = malloc(2 * n + 1);
    if (!out)
        fkcg_oom();
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)camel[i];
        if (is_upper(c) && i > 0 && camel[i - 1] != '_' &&
            (is_lower(camel[i - 1]) || is_digit(camel[i - 1]) ||
             (is_upper(camel[i - 1]) && is_lower(camel[i + 1]))))
            out[k++] = '_';
        out[k++] = (char)(is_upper(c) ? c - 'A' + 'a' : c);
    }
    out[k] = '\0';
    return out;
}

/* The families runtime/include/fkc/fkc_kernels.h declares. The generated code declares their
 * wrappers again through its own function types, so a mismatch with that header is a compile
 * error of the generated code, never a silent one. */
static const fkcg_runtime_kernel runtime_kernels[] = {
    {"write_slice", "WriteSlice", "Vulkan"},
    {"write_slice_rotating", "WriteSliceRotating", "Vulkan"},
};

const fkcg_runtime_kernel *fkcg_runtime_kernel_find(const char *kernel)
{
    for (size_t i = 0; kernel && i < sizeof runtime_kernels / sizeof runtime_kernels[0]; i++)
        if (strcmp(kernel, runtime_kernels[i].kernel) == 0)
            return &runtime_kernels[i];
    return NULL;
}

bool fkcg_runtime_op_kind(const char *op_kind)
{
    for (size_t i = 0; op_kind && i < sizeof runtime_kernels / sizeof runtime_kernels[0]; i++)
        if (strcmp(op_kind, runtime_kernels[i].op_kind) == 0)
            return true;
    return false;
}

const char *fkcg_op_kind_c_clash(const char *snake)
{
    if (fkcg_c_name_reserved(snake))
        return "a C keyword or a name of the headers the generated code includes";
    if (!strcmp(snake, "kind_count"))
        return "the op kind count FKC_OP_KIND_COUNT";
    if (!strcmp(snake, "cost") || !strcmp(snake, "register"))
        return "a type of the generated header (fkc_cost_fn, fkc_register_fn)";
    return NULL;
}
