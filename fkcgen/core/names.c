/* names.c — the C names a contract's identifiers become, written once for the front end
 * (validate, bind) and the C back end: the one table of names a contract may not use
 * (C keywords, GNU-mode predefined macros, the macros and types of the C standard headers,
 * the emitter's own), the name families C reserves, and the snake_case form of an op kind. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config.h"
#include "model.h"

/* Where a reserved name comes from: the message says it. */
enum { KEY, GNU, GEN, MAC, TYP, RST };
/* clang-format off */
#define STD_HEADERS(X) \
    X(ASSERT, "assert.h") X(COMPLEX, "complex.h") X(CTYPE, "ctype.h") X(ERRNO, "errno.h") \
    X(FENV, "fenv.h") X(FLOAT, "float.h") X(INTTYPES, "inttypes.h") X(ISO646, "iso646.h") \
    X(LIMITS, "limits.h") X(LOCALE, "locale.h") X(MATH, "math.h") X(SETJMP, "setjmp.h") \
    X(SIGNAL, "signal.h") X(STDALIGN, "stdalign.h") X(STDARG, "stdarg.h") \
    X(STDATOMIC, "stdatomic.h") X(STDBOOL, "stdbool.h") X(STDDEF, "stddef.h") \
    X(STDINT, "stdint.h") X(STDIO, "stdio.h") X(STDLIB, "stdlib.h") \
    X(STDNORETURN, "stdnoreturn.h") X(STRING, "string.h") X(TGMATH, "tgmath.h") \
    X(THREADS, "threads.h") X(TIME, "time.h") X(UCHAR, "uchar.h") X(WCHAR, "wchar.h") \
    X(WCTYPE, "wctype.h")
/* clang-format on */
#define AS_ENUM(e, h) H_##e,
enum { H_NONE, STD_HEADERS(AS_ENUM) };
#define AS_MACRO(e, h) "a macro of <" h ">",
#define AS_TYPE(e, h) "a type of <" h ">",
static const char *const macro_of[] = {NULL, STD_HEADERS(AS_MACRO)};
static const char *const type_of[] = {NULL, STD_HEADERS(AS_TYPE)};

typedef struct reserved_name {
    const char *name;
    unsigned char kind;   /* KEY, GNU, GEN, MAC, TYP or RST */
    unsigned char header; /* MAC, TYP: H_... */
} reserved_name;

/* The one table of names a contract may not give, sorted (strcmp order, checked by the
 * tests): C11 and C23 keywords and GNU asm/typeof; the lower-case macros gcc and clang
 * predefine in GNU mode (-std=gnu11, the default: linux, unix; i386 with -m32); the generated
 * header's own function without a prefix; the four names the Rust back end cannot write even
 * as raw identifiers (Self, crate, self, super; other Rust keywords become r#name there); and every macro and typedef of the C standard
 * headers (listed in STD_HEADERS) under -std=c11 or -std=gnu11 with gcc or clang and glibc
 * (gcc/clang -dM -E and clang's AST, 2026-11-30), with the header that defines it first in
 * the standard's sense. A file that includes any of those headers before the generated one
 * must compile. Names the patterns of c_name_family cover are left out. */
/* clang-format off */ /* a packed table, sorted by name */
static const reserved_name reserved[] = {
    {"AIO_PRIO_DELTA_MAX", MAC, H_LIMITS}, {"BC_BASE_MAX", MAC, H_LIMITS},
    {"BC_DIM_MAX", MAC, H_LIMITS}, {"BC_SCALE_MAX", MAC, H_LIMITS},
    {"BC_STRING_MAX", MAC, H_LIMITS}, {"BIG_ENDIAN", MAC, H_STDLIB}, {"BUFSIZ", MAC, H_STDIO},
    {"BUS_ADRALN", MAC, H_SIGNAL}, {"BUS_ADRERR", MAC, H_SIGNAL}, {"BUS_MCEERR_AO", MAC, H_SIGNAL},
    {"BUS_MCEERR_AR", MAC, H_SIGNAL}, {"BUS_OBJERR", MAC, H_SIGNAL}, {"BYTE_ORDER", MAC, H_STDLIB},
    {"CHARCLASS_NAME_MAX", MAC, H_LIMITS}, {"CHAR_BIT", MAC, H_LIMITS},
    {"CHAR_MAX", MAC, H_LIMITS}, {"CHAR_MIN", MAC, H_LIMITS}, {"CLD_CONTINUED", MAC, H_SIGNAL},
    {"CLD_DUMPED", MAC, H_SIGNAL}, {"CLD_EXITED", MAC, H_SIGNAL}, {"CLD_KILLED", MAC, H_SIGNAL},
    {"CLD_STOPPED", MAC, H_SIGNAL}, {"CLD_TRAPPED", MAC, H_SIGNAL},
    {"CLOCKS_PER_SEC", MAC, H_TIME}, {"CLOCK_BOOTTIME", MAC, H_TIME},
    {"CLOCK_BOOTTIME_ALARM", MAC, H_TIME}, {"CLOCK_MONOTONIC", MAC, H_TIME},
    {"CLOCK_MONOTONIC_COARSE", MAC, H_TIME}, {"CLOCK_MONOTONIC_RAW", MAC, H_TIME},
    {"CLOCK_PROCESS_CPUTIME_ID", MAC, H_TIME}, {"CLOCK_REALTIME", MAC, H_TIME},
    {"CLOCK_REALTIME_ALARM", MAC, H_TIME}, {"CLOCK_REALTIME_COARSE", MAC, H_TIME},
    {"CLOCK_TAI", MAC, H_TIME}, {"CLOCK_THREAD_CPUTIME_ID", MAC, H_TIME},
    {"CMPLX", MAC, H_COMPLEX}, {"CMPLXF", MAC, H_COMPLEX}, {"CMPLXL", MAC, H_COMPLEX},
    {"COLL_WEIGHTS_MAX", MAC, H_LIMITS}, {"DBL_DECIMAL_DIG", MAC, H_FLOAT},
    {"DBL_DIG", MAC, H_FLOAT}, {"DBL_EPSILON", MAC, H_FLOAT}, {"DBL_HAS_SUBNORM", MAC, H_FLOAT},
    {"DBL_MANT_DIG", MAC, H_FLOAT}, {"DBL_MAX", MAC, H_FLOAT}, {"DBL_MAX_10_EXP", MAC, H_FLOAT},
    {"DBL_MAX_EXP", MAC, H_FLOAT}, {"DBL_MIN", MAC, H_FLOAT}, {"DBL_MIN_10_EXP", MAC, H_FLOAT},
    {"DBL_MIN_EXP", MAC, H_FLOAT}, {"DBL_TRUE_MIN", MAC, H_FLOAT}, {"DECIMAL_DIG", MAC, H_FLOAT},
    {"DELAYTIMER_MAX", MAC, H_LIMITS}, {"E2BIG", MAC, H_ERRNO}, {"EACCES", MAC, H_ERRNO},
    {"EADDRINUSE", MAC, H_ERRNO}, {"EADDRNOTAVAIL", MAC, H_ERRNO}, {"EADV", MAC, H_ERRNO},
    {"EAFNOSUPPORT", MAC, H_ERRNO}, {"EAGAIN", MAC, H_ERRNO}, {"EALREADY", MAC, H_ERRNO},
    {"EBADE", MAC, H_ERRNO}, {"EBADF", MAC, H_ERRNO}, {"EBADFD", MAC, H_ERRNO},
    {"EBADMSG", MAC, H_ERRNO}, {"EBADR", MAC, H_ERRNO}, {"EBADRQC", MAC, H_ERRNO},
    {"EBADSLT", MAC, H_ERRNO}, {"EBFONT", MAC, H_ERRNO}, {"EBUSY", MAC, H_ERRNO},
    {"ECANCELED", MAC, H_ERRNO}, {"ECHILD", MAC, H_ERRNO}, {"ECHRNG", MAC, H_ERRNO},
    {"ECOMM", MAC, H_ERRNO}, {"ECONNABORTED", MAC, H_ERRNO}, {"ECONNREFUSED", MAC, H_ERRNO},
    {"ECONNRESET", MAC, H_ERRNO}, {"EDEADLK", MAC, H_ERRNO}, {"EDEADLOCK", MAC, H_ERRNO},
    {"EDESTADDRREQ", MAC, H_ERRNO}, {"EDOM", MAC, H_ERRNO}, {"EDOTDOT", MAC, H_ERRNO},
    {"EDQUOT", MAC, H_ERRNO}, {"EEXIST", MAC, H_ERRNO}, {"EFAULT", MAC, H_ERRNO},
    {"EFBIG", MAC, H_ERRNO}, {"EHOSTDOWN", MAC, H_ERRNO}, {"EHOSTUNREACH", MAC, H_ERRNO},
    {"EHWPOISON", MAC, H_ERRNO}, {"EIDRM", MAC, H_ERRNO}, {"EILSEQ", MAC, H_ERRNO},
    {"EINPROGRESS", MAC, H_ERRNO}, {"EINTR", MAC, H_ERRNO}, {"EINVAL", MAC, H_ERRNO},
    {"EIO", MAC, H_ERRNO}, {"EISCONN", MAC, H_ERRNO}, {"EISDIR", MAC, H_ERRNO},
    {"EISNAM", MAC, H_ERRNO}, {"EKEYEXPIRED", MAC, H_ERRNO}, {"EKEYREJECTED", MAC, H_ERRNO},
    {"EKEYREVOKED", MAC, H_ERRNO}, {"EL2HLT", MAC, H_ERRNO}, {"EL2NSYNC", MAC, H_ERRNO},
    {"EL3HLT", MAC, H_ERRNO}, {"EL3RST", MAC, H_ERRNO}, {"ELIBACC", MAC, H_ERRNO},
    {"ELIBBAD", MAC, H_ERRNO}, {"ELIBEXEC", MAC, H_ERRNO}, {"ELIBMAX", MAC, H_ERRNO},
    {"ELIBSCN", MAC, H_ERRNO}, {"ELNRNG", MAC, H_ERRNO}, {"ELOOP", MAC, H_ERRNO},
    {"EMEDIUMTYPE", MAC, H_ERRNO}, {"EMFILE", MAC, H_ERRNO}, {"EMLINK", MAC, H_ERRNO},
    {"EMSGSIZE", MAC, H_ERRNO}, {"EMULTIHOP", MAC, H_ERRNO}, {"ENAMETOOLONG", MAC, H_ERRNO},
    {"ENAVAIL", MAC, H_ERRNO}, {"ENETDOWN", MAC, H_ERRNO}, {"ENETRESET", MAC, H_ERRNO},
    {"ENETUNREACH", MAC, H_ERRNO}, {"ENFILE", MAC, H_ERRNO}, {"ENOANO", MAC, H_ERRNO},
    {"ENOBUFS", MAC, H_ERRNO}, {"ENOCSI", MAC, H_ERRNO}, {"ENODATA", MAC, H_ERRNO},
    {"ENODEV", MAC, H_ERRNO}, {"ENOENT", MAC, H_ERRNO}, {"ENOEXEC", MAC, H_ERRNO},
    {"ENOKEY", MAC, H_ERRNO}, {"ENOLCK", MAC, H_ERRNO}, {"ENOLINK", MAC, H_ERRNO},
    {"ENOMEDIUM", MAC, H_ERRNO}, {"ENOMEM", MAC, H_ERRNO}, {"ENOMSG", MAC, H_ERRNO},
    {"ENONET", MAC, H_ERRNO}, {"ENOPKG", MAC, H_ERRNO}, {"ENOPROTOOPT", MAC, H_ERRNO},
    {"ENOSPC", MAC, H_ERRNO}, {"ENOSR", MAC, H_ERRNO}, {"ENOSTR", MAC, H_ERRNO},
    {"ENOSYS", MAC, H_ERRNO}, {"ENOTBLK", MAC, H_ERRNO}, {"ENOTCONN", MAC, H_ERRNO},
    {"ENOTDIR", MAC, H_ERRNO}, {"ENOTEMPTY", MAC, H_ERRNO}, {"ENOTNAM", MAC, H_ERRNO},
    {"ENOTRECOVERABLE", MAC, H_ERRNO}, {"ENOTSOCK", MAC, H_ERRNO}, {"ENOTSUP", MAC, H_ERRNO},
    {"ENOTTY", MAC, H_ERRNO}, {"ENOTUNIQ", MAC, H_ERRNO}, {"ENXIO", MAC, H_ERRNO},
    {"EOF", MAC, H_STDIO}, {"EOPNOTSUPP", MAC, H_ERRNO}, {"EOVERFLOW", MAC, H_ERRNO},
    {"EOWNERDEAD", MAC, H_ERRNO}, {"EPERM", MAC, H_ERRNO}, {"EPFNOSUPPORT", MAC, H_ERRNO},
    {"EPIPE", MAC, H_ERRNO}, {"EPROTO", MAC, H_ERRNO}, {"EPROTONOSUPPORT", MAC, H_ERRNO},
    {"EPROTOTYPE", MAC, H_ERRNO}, {"ERANGE", MAC, H_ERRNO}, {"EREMCHG", MAC, H_ERRNO},
    {"EREMOTE", MAC, H_ERRNO}, {"EREMOTEIO", MAC, H_ERRNO}, {"ERESTART", MAC, H_ERRNO},
    {"ERFKILL", MAC, H_ERRNO}, {"EROFS", MAC, H_ERRNO}, {"ESHUTDOWN", MAC, H_ERRNO},
    {"ESOCKTNOSUPPORT", MAC, H_ERRNO}, {"ESPIPE", MAC, H_ERRNO}, {"ESRCH", MAC, H_ERRNO},
    {"ESRMNT", MAC, H_ERRNO}, {"ESTALE", MAC, H_ERRNO}, {"ESTRPIPE", MAC, H_ERRNO},
    {"ETIME", MAC, H_ERRNO}, {"ETIMEDOUT", MAC, H_ERRNO}, {"ETOOMANYREFS", MAC, H_ERRNO},
    {"ETXTBSY", MAC, H_ERRNO}, {"EUCLEAN", MAC, H_ERRNO}, {"EUNATCH", MAC, H_ERRNO},
    {"EUSERS", MAC, H_ERRNO}, {"EWOULDBLOCK", MAC, H_ERRNO}, {"EXDEV", MAC, H_ERRNO},
    {"EXFULL", MAC, H_ERRNO}, {"EXIT_FAILURE", MAC, H_STDLIB}, {"EXIT_SUCCESS", MAC, H_STDLIB},
    {"EXPR_NEST_MAX", MAC, H_LIMITS}, {"FD_CLR", MAC, H_STDLIB}, {"FD_ISSET", MAC, H_STDLIB},
    {"FD_SET", MAC, H_STDLIB}, {"FD_SETSIZE", MAC, H_STDLIB}, {"FD_ZERO", MAC, H_STDLIB},
    {"FILE", TYP, H_STDIO}, {"FILENAME_MAX", MAC, H_STDIO}, {"FLT_DECIMAL_DIG", MAC, H_FLOAT},
    {"FLT_DIG", MAC, H_FLOAT}, {"FLT_EPSILON", MAC, H_FLOAT}, {"FLT_EVAL_METHOD", MAC, H_FLOAT},
    {"FLT_HAS_SUBNORM", MAC, H_FLOAT}, {"FLT_MANT_DIG", MAC, H_FLOAT}, {"FLT_MAX", MAC, H_FLOAT},
    {"FLT_MAX_10_EXP", MAC, H_FLOAT}, {"FLT_MAX_EXP", MAC, H_FLOAT}, {"FLT_MIN", MAC, H_FLOAT},
    {"FLT_MIN_10_EXP", MAC, H_FLOAT}, {"FLT_MIN_EXP", MAC, H_FLOAT}, {"FLT_RADIX", MAC, H_FLOAT},
    {"FLT_ROUNDS", MAC, H_FLOAT}, {"FLT_TRUE_MIN", MAC, H_FLOAT}, {"FOPEN_MAX", MAC, H_STDIO},
    {"FPE_CONDTRAP", MAC, H_SIGNAL}, {"FPE_FLTDIV", MAC, H_SIGNAL}, {"FPE_FLTINV", MAC, H_SIGNAL},
    {"FPE_FLTOVF", MAC, H_SIGNAL}, {"FPE_FLTRES", MAC, H_SIGNAL}, {"FPE_FLTSUB", MAC, H_SIGNAL},
    {"FPE_FLTUND", MAC, H_SIGNAL}, {"FPE_FLTUNK", MAC, H_SIGNAL}, {"FPE_INTDIV", MAC, H_SIGNAL},
    {"FPE_INTOVF", MAC, H_SIGNAL}, {"HOST_NAME_MAX", MAC, H_LIMITS}, {"HUGE_VAL", MAC, H_MATH},
    {"HUGE_VALF", MAC, H_MATH}, {"HUGE_VALL", MAC, H_MATH}, {"I", MAC, H_COMPLEX},
    {"ILL_BADIADDR", MAC, H_SIGNAL}, {"ILL_BADSTK", MAC, H_SIGNAL}, {"ILL_COPROC", MAC, H_SIGNAL},
    {"ILL_ILLADR", MAC, H_SIGNAL}, {"ILL_ILLOPC", MAC, H_SIGNAL}, {"ILL_ILLOPN", MAC, H_SIGNAL},
    {"ILL_ILLTRP", MAC, H_SIGNAL}, {"ILL_PRVOPC", MAC, H_SIGNAL}, {"ILL_PRVREG", MAC, H_SIGNAL},
    {"INFINITY", MAC, H_MATH}, {"LDBL_DECIMAL_DIG", MAC, H_FLOAT}, {"LDBL_DIG", MAC, H_FLOAT},
    {"LDBL_EPSILON", MAC, H_FLOAT}, {"LDBL_HAS_SUBNORM", MAC, H_FLOAT},
    {"LDBL_MANT_DIG", MAC, H_FLOAT}, {"LDBL_MAX", MAC, H_FLOAT}, {"LDBL_MAX_10_EXP", MAC, H_FLOAT},
    {"LDBL_MAX_EXP", MAC, H_FLOAT}, {"LDBL_MIN", MAC, H_FLOAT}, {"LDBL_MIN_10_EXP", MAC, H_FLOAT},
    {"LDBL_MIN_EXP", MAC, H_FLOAT}, {"LDBL_TRUE_MIN", MAC, H_FLOAT}, {"LINE_MAX", MAC, H_LIMITS},
    {"LITTLE_ENDIAN", MAC, H_STDLIB}, {"LLONG_MAX", MAC, H_LIMITS}, {"LLONG_MIN", MAC, H_LIMITS},
    {"LOGIN_NAME_MAX", MAC, H_LIMITS}, {"LONG_MAX", MAC, H_LIMITS}, {"LONG_MIN", MAC, H_LIMITS},
    {"L_ctermid", MAC, H_STDIO}, {"L_tmpnam", MAC, H_STDIO}, {"MATH_ERREXCEPT", MAC, H_MATH},
    {"MATH_ERRNO", MAC, H_MATH}, {"MAX_CANON", MAC, H_LIMITS}, {"MAX_INPUT", MAC, H_LIMITS},
    {"MB_CUR_MAX", MAC, H_STDLIB}, {"MB_LEN_MAX", MAC, H_LIMITS}, {"MINSIGSTKSZ", MAC, H_SIGNAL},
    {"MQ_PRIO_MAX", MAC, H_LIMITS}, {"NAME_MAX", MAC, H_LIMITS}, {"NAN", MAC, H_MATH},
    {"NFDBITS", MAC, H_STDLIB}, {"NGREG", MAC, H_SIGNAL}, {"NGROUPS_MAX", MAC, H_LIMITS},
    {"NSIG", MAC, H_SIGNAL}, {"NULL", MAC, H_STDDEF}, {"ONCE_FLAG_INIT", MAC, H_THREADS},
    {"PATH_MAX", MAC, H_LIMITS}, {"PDP_ENDIAN", MAC, H_STDLIB}, {"PIPE_BUF", MAC, H_LIMITS},
    {"POLL_ERR", MAC, H_SIGNAL}, {"POLL_HUP", MAC, H_SIGNAL}, {"POLL_IN", MAC, H_SIGNAL},
    {"POLL_MSG", MAC, H_SIGNAL}, {"POLL_OUT", MAC, H_SIGNAL}, {"POLL_PRI", MAC, H_SIGNAL},
    {"PTHREAD_DESTRUCTOR_ITERATIONS", MAC, H_LIMITS}, {"PTHREAD_KEYS_MAX", MAC, H_LIMITS},
    {"PTHREAD_STACK_MIN", MAC, H_LIMITS}, {"P_tmpdir", MAC, H_STDIO}, {"RAND_MAX", MAC, H_STDLIB},
    {"RE_DUP_MAX", MAC, H_LIMITS}, {"RTSIG_MAX", MAC, H_LIMITS}, {"SA_INTERRUPT", MAC, H_SIGNAL},
    {"SA_NOCLDSTOP", MAC, H_SIGNAL}, {"SA_NOCLDWAIT", MAC, H_SIGNAL},
    {"SA_NODEFER", MAC, H_SIGNAL}, {"SA_NOMASK", MAC, H_SIGNAL}, {"SA_ONESHOT", MAC, H_SIGNAL},
    {"SA_ONSTACK", MAC, H_SIGNAL}, {"SA_RESETHAND", MAC, H_SIGNAL}, {"SA_RESTART", MAC, H_SIGNAL},
    {"SA_SIGINFO", MAC, H_SIGNAL}, {"SA_STACK", MAC, H_SIGNAL}, {"SCHAR_MAX", MAC, H_LIMITS},
    {"SCHAR_MIN", MAC, H_LIMITS}, {"SEEK_CUR", MAC, H_STDIO}, {"SEEK_END", MAC, H_STDIO},
    {"SEEK_SET", MAC, H_STDIO}, {"SEGV_ACCADI", MAC, H_SIGNAL}, {"SEGV_ACCERR", MAC, H_SIGNAL},
    {"SEGV_ADIDERR", MAC, H_SIGNAL}, {"SEGV_ADIPERR", MAC, H_SIGNAL},
    {"SEGV_BNDERR", MAC, H_SIGNAL}, {"SEGV_MAPERR", MAC, H_SIGNAL},
    {"SEGV_MTEAERR", MAC, H_SIGNAL}, {"SEGV_MTESERR", MAC, H_SIGNAL},
    {"SEGV_PKUERR", MAC, H_SIGNAL}, {"SEM_VALUE_MAX", MAC, H_LIMITS}, {"SHRT_MAX", MAC, H_LIMITS},
    {"SHRT_MIN", MAC, H_LIMITS}, {"SIGABRT", MAC, H_SIGNAL}, {"SIGALRM", MAC, H_SIGNAL},
    {"SIGBUS", MAC, H_SIGNAL}, {"SIGCHLD", MAC, H_SIGNAL}, {"SIGCLD", MAC, H_SIGNAL},
    {"SIGCONT", MAC, H_SIGNAL}, {"SIGEV_NONE", MAC, H_SIGNAL}, {"SIGEV_SIGNAL", MAC, H_SIGNAL},
    {"SIGEV_THREAD", MAC, H_SIGNAL}, {"SIGEV_THREAD_ID", MAC, H_SIGNAL}, {"SIGFPE", MAC, H_SIGNAL},
    {"SIGHUP", MAC, H_SIGNAL}, {"SIGILL", MAC, H_SIGNAL}, {"SIGINT", MAC, H_SIGNAL},
    {"SIGIO", MAC, H_SIGNAL}, {"SIGIOT", MAC, H_SIGNAL}, {"SIGKILL", MAC, H_SIGNAL},
    {"SIGPIPE", MAC, H_SIGNAL}, {"SIGPOLL", MAC, H_SIGNAL}, {"SIGPROF", MAC, H_SIGNAL},
    {"SIGPWR", MAC, H_SIGNAL}, {"SIGQUIT", MAC, H_SIGNAL}, {"SIGRTMAX", MAC, H_SIGNAL},
    {"SIGRTMIN", MAC, H_SIGNAL}, {"SIGSEGV", MAC, H_SIGNAL}, {"SIGSTKFLT", MAC, H_SIGNAL},
    {"SIGSTKSZ", MAC, H_SIGNAL}, {"SIGSTOP", MAC, H_SIGNAL}, {"SIGSYS", MAC, H_SIGNAL},
    {"SIGTERM", MAC, H_SIGNAL}, {"SIGTRAP", MAC, H_SIGNAL}, {"SIGTSTP", MAC, H_SIGNAL},
    {"SIGTTIN", MAC, H_SIGNAL}, {"SIGTTOU", MAC, H_SIGNAL}, {"SIGURG", MAC, H_SIGNAL},
    {"SIGUSR1", MAC, H_SIGNAL}, {"SIGUSR2", MAC, H_SIGNAL}, {"SIGVTALRM", MAC, H_SIGNAL},
    {"SIGWINCH", MAC, H_SIGNAL}, {"SIGXCPU", MAC, H_SIGNAL}, {"SIGXFSZ", MAC, H_SIGNAL},
    {"SIG_BLOCK", MAC, H_SIGNAL}, {"SIG_DFL", MAC, H_SIGNAL}, {"SIG_ERR", MAC, H_SIGNAL},
    {"SIG_IGN", MAC, H_SIGNAL}, {"SIG_SETMASK", MAC, H_SIGNAL}, {"SIG_UNBLOCK", MAC, H_SIGNAL},
    {"SI_ASYNCIO", MAC, H_SIGNAL}, {"SI_ASYNCNL", MAC, H_SIGNAL}, {"SI_DETHREAD", MAC, H_SIGNAL},
    {"SI_KERNEL", MAC, H_SIGNAL}, {"SI_MESGQ", MAC, H_SIGNAL}, {"SI_QUEUE", MAC, H_SIGNAL},
    {"SI_SIGIO", MAC, H_SIGNAL}, {"SI_TIMER", MAC, H_SIGNAL}, {"SI_TKILL", MAC, H_SIGNAL},
    {"SI_USER", MAC, H_SIGNAL}, {"SSIZE_MAX", MAC, H_LIMITS}, {"SS_DISABLE", MAC, H_SIGNAL},
    {"SS_ONSTACK", MAC, H_SIGNAL}, {"Self", RST, H_NONE}, {"TIMER_ABSTIME", MAC, H_TIME}, {"TMP_MAX", MAC, H_STDIO},
    {"TSS_DTOR_ITERATIONS", MAC, H_THREADS}, {"TTY_NAME_MAX", MAC, H_LIMITS},
    {"UCHAR_MAX", MAC, H_LIMITS}, {"ULLONG_MAX", MAC, H_LIMITS}, {"ULONG_MAX", MAC, H_LIMITS},
    {"USHRT_MAX", MAC, H_LIMITS}, {"WCONTINUED", MAC, H_STDLIB}, {"WEOF", MAC, H_WCHAR},
    {"WEXITED", MAC, H_STDLIB}, {"WEXITSTATUS", MAC, H_STDLIB}, {"WIFCONTINUED", MAC, H_STDLIB},
    {"WIFEXITED", MAC, H_STDLIB}, {"WIFSIGNALED", MAC, H_STDLIB}, {"WIFSTOPPED", MAC, H_STDLIB},
    {"WNOHANG", MAC, H_STDLIB}, {"WNOWAIT", MAC, H_STDLIB}, {"WSTOPPED", MAC, H_STDLIB},
    {"WSTOPSIG", MAC, H_STDLIB}, {"WTERMSIG", MAC, H_STDLIB}, {"WUNTRACED", MAC, H_STDLIB},
    {"XATTR_LIST_MAX", MAC, H_LIMITS}, {"XATTR_NAME_MAX", MAC, H_LIMITS},
    {"XATTR_SIZE_MAX", MAC, H_LIMITS}, {"acos", MAC, H_TGMATH}, {"acosh", MAC, H_TGMATH},
    {"alignas", KEY, H_NONE}, {"alignof", KEY, H_NONE}, {"alloca", MAC, H_STDLIB},
    {"and", MAC, H_ISO646}, {"and_eq", MAC, H_ISO646}, {"asin", MAC, H_TGMATH},
    {"asinh", MAC, H_TGMATH}, {"asm", KEY, H_NONE}, {"assert", MAC, H_ASSERT},
    {"atan", MAC, H_TGMATH}, {"atan2", MAC, H_TGMATH}, {"atanh", MAC, H_TGMATH},
    {"auto", KEY, H_NONE}, {"be16toh", MAC, H_STDLIB}, {"be32toh", MAC, H_STDLIB},
    {"be64toh", MAC, H_STDLIB}, {"bitand", MAC, H_ISO646}, {"bitor", MAC, H_ISO646},
    {"blkcnt_t", TYP, H_STDLIB}, {"blksize_t", TYP, H_STDLIB}, {"bool", KEY, H_NONE},
    {"break", KEY, H_NONE}, {"caddr_t", TYP, H_STDLIB}, {"carg", MAC, H_TGMATH},
    {"case", KEY, H_NONE}, {"cbrt", MAC, H_TGMATH}, {"ceil", MAC, H_TGMATH}, {"char", KEY, H_NONE},
    {"char16_t", TYP, H_UCHAR}, {"char32_t", TYP, H_UCHAR}, {"cimag", MAC, H_TGMATH},
    {"clock_t", TYP, H_TIME}, {"clockid_t", TYP, H_STDLIB}, {"compl", MAC, H_ISO646},
    {"complex", MAC, H_COMPLEX}, {"conj", MAC, H_TGMATH}, {"const", KEY, H_NONE},
    {"constexpr", KEY, H_NONE}, {"continue", KEY, H_NONE}, {"copysign", MAC, H_TGMATH},
    {"cos", MAC, H_TGMATH}, {"cosh", MAC, H_TGMATH}, {"cproj", MAC, H_TGMATH}, {"crate", RST, H_NONE},
    {"creal", MAC, H_TGMATH}, {"daddr_t", TYP, H_STDLIB}, {"default", KEY, H_NONE},
    {"dev_t", TYP, H_STDLIB}, {"div_t", TYP, H_STDLIB}, {"do", KEY, H_NONE},
    {"double", KEY, H_NONE}, {"double_t", TYP, H_MATH}, {"else", KEY, H_NONE},
    {"enum", KEY, H_NONE}, {"erf", MAC, H_TGMATH}, {"erfc", MAC, H_TGMATH},
    {"errno", MAC, H_ERRNO}, {"exp", MAC, H_TGMATH}, {"exp2", MAC, H_TGMATH},
    {"expm1", MAC, H_TGMATH}, {"extern", KEY, H_NONE}, {"fabs", MAC, H_TGMATH},
    {"false", KEY, H_NONE}, {"fd_mask", TYP, H_STDLIB}, {"fd_set", TYP, H_STDLIB},
    {"fdim", MAC, H_TGMATH}, {"fenv_t", TYP, H_FENV}, {"fexcept_t", TYP, H_FENV},
    {"fill_unset_cost_for_backend", GEN, H_NONE}, {"float", KEY, H_NONE}, {"float_t", TYP, H_MATH},
    {"floor", MAC, H_TGMATH}, {"fma", MAC, H_TGMATH}, {"fmax", MAC, H_TGMATH},
    {"fmin", MAC, H_TGMATH}, {"fmod", MAC, H_TGMATH}, {"for", KEY, H_NONE},
    {"fpclassify", MAC, H_MATH}, {"fpos_t", TYP, H_STDIO}, {"fpregset_t", TYP, H_SIGNAL},
    {"frexp", MAC, H_TGMATH}, {"fsblkcnt_t", TYP, H_STDLIB}, {"fsfilcnt_t", TYP, H_STDLIB},
    {"fsid_t", TYP, H_STDLIB}, {"gid_t", TYP, H_STDLIB}, {"goto", KEY, H_NONE},
    {"greg_t", TYP, H_SIGNAL}, {"gregset_t", TYP, H_SIGNAL}, {"htobe16", MAC, H_STDLIB},
    {"htobe32", MAC, H_STDLIB}, {"htobe64", MAC, H_STDLIB}, {"htole16", MAC, H_STDLIB},
    {"htole32", MAC, H_STDLIB}, {"htole64", MAC, H_STDLIB}, {"hypot", MAC, H_TGMATH},
    {"i386", GNU, H_NONE}, {"id_t", TYP, H_STDLIB}, {"if", KEY, H_NONE}, {"ilogb", MAC, H_TGMATH},
    {"imaginary", MAC, H_COMPLEX}, {"imaxdiv_t", TYP, H_INTTYPES}, {"inline", KEY, H_NONE},
    {"ino_t", TYP, H_STDLIB}, {"int", KEY, H_NONE}, {"isalnum", MAC, H_CTYPE},
    {"isalnum_l", MAC, H_CTYPE}, {"isalpha", MAC, H_CTYPE}, {"isalpha_l", MAC, H_CTYPE},
    {"isascii", MAC, H_CTYPE}, {"isascii_l", MAC, H_CTYPE}, {"isblank", MAC, H_CTYPE},
    {"isblank_l", MAC, H_CTYPE}, {"iscntrl", MAC, H_CTYPE}, {"iscntrl_l", MAC, H_CTYPE},
    {"isdigit", MAC, H_CTYPE}, {"isdigit_l", MAC, H_CTYPE}, {"isfinite", MAC, H_MATH},
    {"isgraph", MAC, H_CTYPE}, {"isgraph_l", MAC, H_CTYPE}, {"isgreater", MAC, H_MATH},
    {"isgreaterequal", MAC, H_MATH}, {"isinf", MAC, H_MATH}, {"isless", MAC, H_MATH},
    {"islessequal", MAC, H_MATH}, {"islessgreater", MAC, H_MATH}, {"islower", MAC, H_CTYPE},
    {"islower_l", MAC, H_CTYPE}, {"isnan", MAC, H_MATH}, {"isnormal", MAC, H_MATH},
    {"isprint", MAC, H_CTYPE}, {"isprint_l", MAC, H_CTYPE}, {"ispunct", MAC, H_CTYPE},
    {"ispunct_l", MAC, H_CTYPE}, {"isspace", MAC, H_CTYPE}, {"isspace_l", MAC, H_CTYPE},
    {"isunordered", MAC, H_MATH}, {"isupper", MAC, H_CTYPE}, {"isupper_l", MAC, H_CTYPE},
    {"isxdigit", MAC, H_CTYPE}, {"isxdigit_l", MAC, H_CTYPE}, {"jmp_buf", TYP, H_SETJMP},
    {"key_t", TYP, H_STDLIB}, {"kill_dependency", MAC, H_STDATOMIC}, {"ldexp", MAC, H_TGMATH},
    {"ldiv_t", TYP, H_STDLIB}, {"le16toh", MAC, H_STDLIB}, {"le32toh", MAC, H_STDLIB},
    {"le64toh", MAC, H_STDLIB}, {"lgamma", MAC, H_TGMATH}, {"linux", GNU, H_NONE},
    {"lldiv_t", TYP, H_STDLIB}, {"llrint", MAC, H_TGMATH}, {"llround", MAC, H_TGMATH},
    {"locale_t", TYP, H_CTYPE}, {"loff_t", TYP, H_STDLIB}, {"log", MAC, H_TGMATH},
    {"log10", MAC, H_TGMATH}, {"log1p", MAC, H_TGMATH}, {"log2", MAC, H_TGMATH},
    {"logb", MAC, H_TGMATH}, {"long", KEY, H_NONE}, {"lrint", MAC, H_TGMATH},
    {"lround", MAC, H_TGMATH}, {"math_errhandling", MAC, H_MATH}, {"max_align_t", TYP, H_STDDEF},
    {"mbstate_t", TYP, H_WCHAR}, {"mcontext_t", TYP, H_SIGNAL}, {"memory_order", TYP, H_STDATOMIC},
    {"mode_t", TYP, H_STDLIB}, {"nearbyint", MAC, H_TGMATH}, {"nextafter", MAC, H_TGMATH},
    {"nexttoward", MAC, H_TGMATH}, {"nlink_t", TYP, H_STDLIB}, {"noreturn", MAC, H_STDNORETURN},
    {"not", MAC, H_ISO646}, {"not_eq", MAC, H_ISO646}, {"nullptr", KEY, H_NONE},
    {"off_t", TYP, H_STDIO}, {"offsetof", MAC, H_STDDEF}, {"once_flag", TYP, H_THREADS},
    {"or", MAC, H_ISO646}, {"or_eq", MAC, H_ISO646}, {"pid_t", TYP, H_SIGNAL},
    {"pow", MAC, H_TGMATH}, {"pthread_attr_t", TYP, H_SIGNAL},
    {"pthread_barrier_t", TYP, H_SIGNAL}, {"pthread_barrierattr_t", TYP, H_SIGNAL},
    {"pthread_cond_t", TYP, H_SIGNAL}, {"pthread_condattr_t", TYP, H_SIGNAL},
    {"pthread_key_t", TYP, H_SIGNAL}, {"pthread_mutex_t", TYP, H_SIGNAL},
    {"pthread_mutexattr_t", TYP, H_SIGNAL}, {"pthread_once_t", TYP, H_SIGNAL},
    {"pthread_rwlock_t", TYP, H_SIGNAL}, {"pthread_rwlockattr_t", TYP, H_SIGNAL},
    {"pthread_spinlock_t", TYP, H_SIGNAL}, {"pthread_t", TYP, H_SIGNAL},
    {"ptrdiff_t", TYP, H_STDDEF}, {"quad_t", TYP, H_STDLIB}, {"register", KEY, H_NONE},
    {"register_t", TYP, H_STDLIB}, {"remainder", MAC, H_TGMATH}, {"remquo", MAC, H_TGMATH},
    {"restrict", KEY, H_NONE}, {"return", KEY, H_NONE}, {"rint", MAC, H_TGMATH},
    {"round", MAC, H_TGMATH}, {"sa_handler", MAC, H_SIGNAL}, {"sa_sigaction", MAC, H_SIGNAL},
    {"scalb", MAC, H_TGMATH}, {"scalbln", MAC, H_TGMATH}, {"scalbn", MAC, H_TGMATH}, {"self", RST, H_NONE},
    {"setjmp", MAC, H_SETJMP}, {"short", KEY, H_NONE}, {"si_addr", MAC, H_SIGNAL},
    {"si_addr_lsb", MAC, H_SIGNAL}, {"si_arch", MAC, H_SIGNAL}, {"si_band", MAC, H_SIGNAL},
    {"si_call_addr", MAC, H_SIGNAL}, {"si_fd", MAC, H_SIGNAL}, {"si_int", MAC, H_SIGNAL},
    {"si_lower", MAC, H_SIGNAL}, {"si_overrun", MAC, H_SIGNAL}, {"si_pid", MAC, H_SIGNAL},
    {"si_pkey", MAC, H_SIGNAL}, {"si_ptr", MAC, H_SIGNAL}, {"si_status", MAC, H_SIGNAL},
    {"si_stime", MAC, H_SIGNAL}, {"si_syscall", MAC, H_SIGNAL}, {"si_timerid", MAC, H_SIGNAL},
    {"si_uid", MAC, H_SIGNAL}, {"si_upper", MAC, H_SIGNAL}, {"si_utime", MAC, H_SIGNAL},
    {"si_value", MAC, H_SIGNAL}, {"sig_atomic_t", TYP, H_SIGNAL}, {"sig_t", TYP, H_SIGNAL},
    {"sigev_notify_attributes", MAC, H_SIGNAL}, {"sigev_notify_function", MAC, H_SIGNAL},
    {"sigevent_t", TYP, H_SIGNAL}, {"siginfo_t", TYP, H_SIGNAL}, {"sigjmp_buf", TYP, H_SETJMP},
    {"sigmask", MAC, H_SIGNAL}, {"signbit", MAC, H_MATH}, {"signed", KEY, H_NONE},
    {"sigset_t", TYP, H_SIGNAL}, {"sigsetjmp", MAC, H_SETJMP}, {"sigval_t", TYP, H_SIGNAL},
    {"sin", MAC, H_TGMATH}, {"sinh", MAC, H_TGMATH}, {"size_t", TYP, H_STDDEF},
    {"sizeof", KEY, H_NONE}, {"sqrt", MAC, H_TGMATH}, {"ssize_t", TYP, H_STDIO},
    {"stack_t", TYP, H_SIGNAL}, {"static", KEY, H_NONE}, {"static_assert", KEY, H_NONE},
    {"stderr", MAC, H_STDIO}, {"stdin", MAC, H_STDIO}, {"stdout", MAC, H_STDIO},
    {"struct", KEY, H_NONE}, {"super", RST, H_NONE}, {"suseconds_t", TYP, H_STDLIB}, {"switch", KEY, H_NONE},
    {"tan", MAC, H_TGMATH}, {"tanh", MAC, H_TGMATH}, {"tgamma", MAC, H_TGMATH},
    {"thread_local", KEY, H_NONE}, {"time_t", TYP, H_TIME}, {"timer_t", TYP, H_STDLIB},
    {"toascii", MAC, H_CTYPE}, {"toascii_l", MAC, H_CTYPE}, {"true", KEY, H_NONE},
    {"trunc", MAC, H_TGMATH}, {"typedef", KEY, H_NONE}, {"typeof", KEY, H_NONE},
    {"typeof_unqual", KEY, H_NONE}, {"u_char", TYP, H_STDLIB}, {"u_int", TYP, H_STDLIB},
    {"u_int16_t", TYP, H_STDLIB}, {"u_int32_t", TYP, H_STDLIB}, {"u_int64_t", TYP, H_STDLIB},
    {"u_int8_t", TYP, H_STDLIB}, {"u_long", TYP, H_STDLIB}, {"u_quad_t", TYP, H_STDLIB},
    {"u_short", TYP, H_STDLIB}, {"ucontext_t", TYP, H_SIGNAL}, {"uid_t", TYP, H_SIGNAL},
    {"uint", TYP, H_STDLIB}, {"ulong", TYP, H_STDLIB}, {"union", KEY, H_NONE},
    {"unix", GNU, H_NONE}, {"unsigned", KEY, H_NONE}, {"ushort", TYP, H_STDLIB},
    {"va_arg", MAC, H_STDARG}, {"va_copy", MAC, H_STDARG}, {"va_end", MAC, H_STDARG},
    {"va_list", TYP, H_STDARG}, {"va_start", MAC, H_STDARG}, {"void", KEY, H_NONE},
    {"volatile", KEY, H_NONE}, {"wchar_t", TYP, H_STDDEF}, {"wctrans_t", TYP, H_WCTYPE},
    {"wctype_t", TYP, H_WCTYPE}, {"while", KEY, H_NONE}, {"wint_t", TYP, H_WCHAR},
    {"xor", MAC, H_ISO646}, {"xor_eq", MAC, H_ISO646},
};
/* clang-format on */

static int cmp_name(const void *key, const void *entry)
{
    return strcmp(key, ((const reserved_name *)entry)->name);
}

static bool has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static bool has_suffix(const char *s, const char *x)
{
    size_t n = strlen(s), m = strlen(x);
    return n >= m && strcmp(s + n - m, x) == 0;
}

/* s starts with p, and then with a byte of `next` (a class such as "A-Z", "a-z", "0-9A-Z"). */
static bool prefix_then(const char *s, const char *p, const char *next)
{
    if (!has_prefix(s, p))
        return false;
    char c = s[strlen(p)];
    for (; next[0]; next += 3)
        if (c >= next[0] && c <= next[2])
            return true;
    return false;
}

/* <stdint.h>: [u]int*_t typedefs; INT*, UINT*, SIZE, PTRDIFF, SIG_ATOMIC, WCHAR, WINT
 * _MAX/_MIN/_C macros. */
static bool stdint_name(const char *s)
{
    if ((has_prefix(s, "int") || has_prefix(s, "uint")) && has_suffix(s, "_t"))
        return true;
    static const char *const pre[] = {"INT",        "UINT",  "SIZE", "PTRDIFF",
                                      "SIG_ATOMIC", "WCHAR", "WINT"};
    if (!has_suffix(s, "_MAX") && !has_suffix(s, "_MIN") && !has_suffix(s, "_C"))
        return false;
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (has_prefix(s, pre[i]))
            return true;
    return false;
}

/* The families of names C reserves for its headers ("future library directions", C11 7.31),
 * and the prefixes of fkc itself; NULL when s is in none. */
static const char *c_name_family(const char *s)
{
    if (s[0] == '_')
        return "reserved by C (a name starting with _)";
    if (has_prefix(s, "fkc_") || has_prefix(s, "FKC_"))
        return "in the prefix of the runtime and the generated code (fkc_, FKC_)";
    if (has_prefix(s, "FP_") || has_prefix(s, "M_"))
        return "in a macro family of <math.h> (FP_, M_)";
    if (stdint_name(s))
        return "in a name family of <stdint.h> ([u]int*_t, INT*_MAX, ...)";
    if (prefix_then(s, "FE_", "A-Z"))
        return "reserved for the macros of <fenv.h> (FE_)";
    if (prefix_then(s, "PRI", "a-zX-X") || prefix_then(s, "SCN", "a-zX-X"))
        return "reserved for the macros of <inttypes.h> (PRI, SCN)";
    if (prefix_then(s, "LC_", "A-Z"))
        return "reserved for the macros of <locale.h> (LC_)";
    if (prefix_then(s, "ATOMIC_", "A-Z") || prefix_then(s, "atomic_", "a-z") ||
        prefix_then(s, "memory_order_", "a-z"))
        return "reserved for <stdatomic.h> (ATOMIC_, atomic_, memory_order_)";
    if (prefix_then(s, "TIME_", "A-Z"))
        return "reserved for the macros of <time.h> (TIME_)";
    if (prefix_then(s, "cnd_", "a-z") || prefix_then(s, "mtx_", "a-z") ||
        prefix_then(s, "thrd_", "a-z") || prefix_then(s, "tss_", "a-z"))
        return "reserved for <threads.h> (cnd_, mtx_, thrd_, tss_)";
    return NULL;
}

const char *fkcg_c_name_why(const char *s)
{
    const char *family = c_name_family(s);
    if (family)
        return family;
    const reserved_name *r = bsearch(s, reserved, sizeof reserved / sizeof reserved[0],
                                     sizeof reserved[0], cmp_name);
    if (!r)
        return NULL;
    switch (r->kind) {
    case KEY: return "a C keyword";
    case GNU: return "a macro gcc and clang predefine in GNU mode (-std=gnu11, their default)";
    case GEN: return "a function of the generated header";
    case RST:
        return "a name the Rust back end cannot write, even as r#name (Self, self, super, crate)";
    case MAC: return macro_of[r->header];
    default: return type_of[r->header];
    }
}

bool fkcg_rust_name_refused(const char *s)
{
    const reserved_name *r = bsearch(s, reserved, sizeof reserved / sizeof reserved[0],
                                     sizeof reserved[0], cmp_name);
    return (r && r->kind == RST) || !strcmp(s, "_");
}

bool fkcg_c_name_reserved(const char *s)
{
    return fkcg_c_name_why(s) != NULL;
}

bool fkcg_c_names_sorted(void)
{
    for (size_t i = 1; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(reserved[i - 1].name, reserved[i].name) >= 0)
            return false;
    return true;
}

static bool is_upper(int c)
{
    return c >= 'A' && c <= 'Z';
}
static bool is_lower(int c)
{
    return c >= 'a' && c <= 'z';
}
static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

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

/* The families runtime/include/fkc/fkc_kernels.h declares, with the fields of each params
 * struct fkc_<op snake>_params in order (a Vec<T> field is `const T *x; size_t x_len;`) and
 * the tensors of its kernel type fkc_<op snake>_kernel: the one table the front end checks
 * contracts against (validate.c) and the back end writes its checks from. `make test`
 * compiles a check of this table against that header (tests/fkcgen/runtime_table.c), so the
 * two cannot disagree unnoticed. The generated code declares the wrappers again through its
 * own function types, so a mismatch that got past the front end is still a compile error. */
static const fkcg_runtime_field write_slice_fields[] = {
    {"dst_shape", "Vec<usize>"},
    {"offsets", "Vec<usize>"},
};
static const fkcg_runtime_field write_slice_rotating_fields[] = {
    {"dst_shape", "Vec<usize>"},
    {"capacity", "usize"},
};
static const fkcg_runtime_field set_rows_fields[] = {
    {"slot_axis", "i32"},
};
/* Wrappers of a family keyed over more than [T, T] (NULL: fkc_<kernel>_b1, _b2, _b4, _b8). */
static const char *const set_rows_wrappers[] = {
    "b4", "b4_b8_b4", "b2_b4_b2", "b2_b8_b2", "b8_b4_b8", "b8", "b1_b4_b1", "b1_b8_b1", NULL};
static const char *const set_rows_narrow_wrappers[] = {"f32_i32_f16", "f32_i32_bf16", "f32_i64_f16",
                                                       "f32_i64_bf16", NULL};
static const char *const set_rows_widen_wrappers[] = {"f16_i32_f32", "f16_i64_f32", "bf16_i32_f32",
                                                      "bf16_i64_f32", NULL};
#define FIELDS(f) f, sizeof f / sizeof f[0]
static const fkcg_runtime_kernel runtime_kernels[] = {
    {"write_slice", "WriteSlice", "Vulkan", FIELDS(write_slice_fields), 1, 1, false, NULL},
    {"write_slice_rotating", "WriteSliceRotating", "Vulkan", FIELDS(write_slice_rotating_fields), 1,
     1, true, NULL},
    /* SetRows: three kernels of one op kind (copies, narrowing, widening: contracts/vulkan/
     * set_rows.md), each keyed [src, index, cache]; cache is also the output (in place). */
    {"set_rows", "SetRows", "Vulkan", FIELDS(set_rows_fields), 3, 1, true, set_rows_wrappers},
    {"set_rows_narrow", "SetRows", "Vulkan", FIELDS(set_rows_fields), 3, 1, true,
     set_rows_narrow_wrappers},
    {"set_rows_widen", "SetRows", "Vulkan", FIELDS(set_rows_fields), 3, 1, true,
     set_rows_widen_wrappers},
};
#undef FIELDS
enum { N_RUNTIME_KERNELS = sizeof runtime_kernels / sizeof runtime_kernels[0] };

const fkcg_runtime_kernel *fkcg_runtime_kernels(size_t *n)
{
    *n = N_RUNTIME_KERNELS;
    return runtime_kernels;
}

const fkcg_runtime_kernel *fkcg_runtime_kernel_find(const char *kernel)
{
    for (size_t i = 0; kernel && i < N_RUNTIME_KERNELS; i++)
        if (strcmp(kernel, runtime_kernels[i].kernel) == 0)
            return &runtime_kernels[i];
    return NULL;
}

const fkcg_runtime_kernel *fkcg_runtime_op_find(const char *op_kind)
{
    for (size_t i = 0; op_kind && i < N_RUNTIME_KERNELS; i++)
        if (strcmp(op_kind, runtime_kernels[i].op_kind) == 0)
            return &runtime_kernels[i];
    return NULL;
}

bool fkcg_runtime_op_kind(const char *op_kind)
{
    return fkcg_runtime_op_find(op_kind) != NULL;
}

/* Index of the runtime's field called name, or -1. */
static long runtime_field_index(const fkcg_runtime_kernel *rk, const char *name)
{
    for (size_t i = 0; i < rk->n_fields; i++)
        if (!strcmp(rk->fields[i].name, name))
            return (long)i;
    return -1;
}

static bool stated(const fkcg_field *f, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (f[i].name && !strcmp(f[i].name, name))
            return true;
    return false;
}

/* "'capacity' (usize)" */
static void put_runtime_field(fkcg_buf *b, const fkcg_runtime_field *r)
{
    fkcg_buf_printf(b, "'%s' (%s)", r->name, r->kind);
}

fkcg_rt_diff fkcg_runtime_fields_diff(const fkcg_runtime_kernel *rk, const fkcg_field *f, size_t n,
                                      size_t *at, fkcg_buf *msg)
{
    size_t i = 0;
    while (i < n && i < rk->n_fields && !strcmp(f[i].name, rk->fields[i].name) &&
           !strcmp(f[i].kind, rk->fields[i].kind))
        i++;
    *at = i;
    const fkcg_runtime_field *want = i < rk->n_fields ? &rk->fields[i] : NULL;
    fkcg_rt_diff d;
    if (i == n && !want)
        return FKCG_RT_SAME;
    if (i == n)
        d = FKCG_RT_MISSING;
    else if (!want || runtime_field_index(rk, f[i].name) < 0)
        d = want && !stated(f, n, want->name) ? FKCG_RT_NAME : FKCG_RT_EXTRA;
    else if (!strcmp(f[i].name, want->name))
        d = FKCG_RT_KIND;
    else
        d = stated(f, n, want->name) ? FKCG_RT_ORDER : FKCG_RT_MISSING;
    const char *op = rk->op_kind;
    switch (d) {
    case FKCG_RT_NAME:
        fkcg_buf_printf(msg, "field '%s' of %s: the runtime has ", f[i].name, op);
        put_runtime_field(msg, want);
        fkcg_buf_puts(msg, " here");
        break;
    case FKCG_RT_KIND:
        fkcg_buf_printf(msg, "field '%s' of %s is %s: the runtime has ", f[i].name, op, f[i].kind);
        put_runtime_field(msg, want);
        fkcg_buf_puts(msg, " here");
        break;
    case FKCG_RT_ORDER:
        fkcg_buf_printf(msg, "field '%s' of %s is out of the runtime's order: the runtime has ",
                        f[i].name, op);
        put_runtime_field(msg, want);
        fkcg_buf_printf(msg, " here, and '%s' as field %ld of %zu", f[i].name,
                        runtime_field_index(rk, f[i].name) + 1, rk->n_fields);
        break;
    case FKCG_RT_EXTRA:
        fkcg_buf_printf(msg, "field '%s' of %s is not one of the runtime's: ", f[i].name, op);
        if (want) {
            fkcg_buf_puts(msg, "the runtime has ");
            put_runtime_field(msg, want);
            fkcg_buf_puts(msg, " here");
        } else if (i) {
            fkcg_buf_printf(msg, "the runtime's params end after '%s'", rk->fields[i - 1].name);
        } else {
            fkcg_buf_puts(msg, "the runtime's params have no fields");
        }
        break;
    default: /* FKCG_RT_MISSING */
        fkcg_buf_printf(msg, "op_params of %s lack the runtime's field ", op);
        put_runtime_field(msg, want);
        if (i < n)
            fkcg_buf_printf(msg, ": the runtime has it here, before '%s'", f[i].name);
        else if (i > 0)
            fkcg_buf_printf(msg, ": the runtime has it after '%s'", f[i - 1].name);
        else
            fkcg_buf_puts(msg, ": the runtime has it first");
        break;
    }
    return d;
}

void fkcg_runtime_fields_list(const fkcg_runtime_kernel *rk, fkcg_buf *out)
{
    for (size_t i = 0; i < rk->n_fields; i++) {
        if (i)
            fkcg_buf_puts(out, i + 1 == rk->n_fields ? " and " : ", ");
        put_runtime_field(out, &rk->fields[i]);
    }
    if (!rk->n_fields)
        fkcg_buf_puts(out, "none");
}

const char *fkcg_op_kind_c_clash(const char *snake)
{
    const char *why = fkcg_c_name_why(snake);
    if (why)
        return why;
    if (!strcmp(snake, "kind_count"))
        return "the op kind count FKC_OP_KIND_COUNT";
    if (!strcmp(snake, "cost") || !strcmp(snake, "register") || !strcmp(snake, "kernel"))
        return "a type of the generated header (fkc_cost_fn, fkc_register_fn, fkc_kernel_fn)";
    return NULL;
}

/* ---- the rules of a contract's names: the front end checks them, the back ends assert them
 * through the same predicates ---- */

static bool is_alnum(int c)
{
    return is_upper(c) || is_lower(c) || is_digit(c);
}

bool fkcg_is_c_ident_shape(const char *s)
{
    if (!s || !(is_upper(*s) || is_lower(*s) || *s == '_'))
        return false;
    size_t n = 1;
    while (is_alnum((unsigned char)s[n]) || s[n] == '_')
        n++;
    return s[n] == '\0' && n <= FKCG_IDENT_MAX;
}

bool fkcg_is_c_ident(const char *s)
{
    return fkcg_is_c_ident_shape(s) && !fkcg_c_name_reserved(s);
}

const char *fkcg_c_path_bad_segment(const char *s, size_t *len, const char **why)
{
    char seg[FKCG_IDENT_MAX + 1];
    for (;;) {
        const char *sep = strstr(s, "::");
        *len = sep ? (size_t)(sep - s) : strlen(s);
        *why = NULL;
        if (*len >= sizeof seg)
            return s;
        memcpy(seg, s, *len);
        seg[*len] = '\0';
        if (!fkcg_is_c_ident(seg)) {
            *why = fkcg_c_name_why(seg);
            return s;
        }
        if (!sep)
            return NULL;
        s = sep + 2;
    }
}

bool fkcg_is_c_path(const char *s)
{
    size_t len;
    const char *why;
    return s && !fkcg_c_path_bad_segment(s, &len, &why);
}

bool fkcg_is_op_kind(const char *s)
{
    if (!s || !is_upper(*s))
        return false;
    size_t n = 1;
    while (is_alnum((unsigned char)s[n]))
        n++;
    return s[n] == '\0' && n <= FKCG_IDENT_MAX;
}

bool fkcg_is_reserved_param(const char *s)
{
    return !strcmp(s, "stream") || !strcmp(s, "params") || !strcmp(s, "extra");
}

const fkcg_field *fkcg_field_len_clash(const fkcg_field *fields, size_t n, const fkcg_field *f)
{
    for (size_t j = 0; j < n; j++) {
        const fkcg_field *g = &fields[j];
        bool vec;
        size_t len = g->name ? strlen(g->name) : 0;
        if (g->name && f->name && fkcg_kind_lookup(g->kind, &vec) && vec &&
            strncmp(f->name, g->name, len) == 0 && strcmp(f->name + len, "_len") == 0)
            return g;
    }
    return NULL;
}

/* An enum's values and a default are the op kind's (one C enum, one default macro). */
static bool same_field_typing(const fkcg_field *a, const fkcg_field *b)
{
    if (a->n_values != b->n_values || (a->def == NULL) != (b->def == NULL) ||
        (a->def && strcmp(a->def, b->def) != 0))
        return false;
    for (size_t k = 0; k < a->n_values; k++)
        if (strcmp(a->values[k], b->values[k]) != 0 ||
            fkcg_field_code(a, k) != fkcg_field_code(b, k))
            return false;
    return true;
}

const char *fkcg_signature_diff(const fkcg_section *a, const fkcg_section *b)
{
    if (a->n_inputs != b->n_inputs)
        return "inputs";
    for (size_t i = 0; i < a->n_inputs; i++)
        if (strcmp(a->inputs[i].name, b->inputs[i].name) ||
            a->inputs[i].optional != b->inputs[i].optional ||
            a->inputs[i].shape_only != b->inputs[i].shape_only ||
            a->inputs[i].variadic != b->inputs[i].variadic)
            return "inputs";
    if (a->n_outputs != b->n_outputs)
        return "outputs";
    for (size_t i = 0; i < a->n_outputs; i++)
        if (strcmp(a->outputs[i].name, b->outputs[i].name) ||
            fkcg_output_in_place(&a->outputs[i]) != fkcg_output_in_place(&b->outputs[i]) ||
            a->outputs[i].out_arg != b->outputs[i].out_arg)
            return "outputs";
    if ((a->variant == NULL) != (b->variant == NULL) || a->n_fields != b->n_fields)
        return "op_params";
    for (size_t i = 0; i < a->n_fields; i++)
        if (strcmp(a->fields[i].name, b->fields[i].name) ||
            strcmp(a->fields[i].kind, b->fields[i].kind) ||
            !same_field_typing(&a->fields[i], &b->fields[i]))
            return "op_params";
    return NULL;
}
