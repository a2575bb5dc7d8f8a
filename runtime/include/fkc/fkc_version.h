/* fkc_version.h — the version of fkc (libfkc, fkcgen, fkc-run and the packages are released
 * together under one number, written only here: the Makefile, fkcgen and debian/ read it) and
 * the ABI number of the shared library, the N of libfkc.so.N. */
#ifndef FKC_VERSION_H
#define FKC_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* libfkc.so exports what its public headers declare */
#endif

#define FKC_VERSION_MAJOR 0
#define FKC_VERSION_MINOR 1
#define FKC_VERSION_PATCH 0
#define FKC_VERSION_XSTR_(x) #x
#define FKC_VERSION_STR_(x) FKC_VERSION_XSTR_(x)
/* "MAJOR.MINOR.PATCH" of these headers ("0.1.0"). */
#define FKC_VERSION_STRING                                                                         \
    FKC_VERSION_STR_(FKC_VERSION_MAJOR)                                                            \
    "." FKC_VERSION_STR_(FKC_VERSION_MINOR) "." FKC_VERSION_STR_(FKC_VERSION_PATCH)

/* The ABI of libfkc as a whole: raised on every change that breaks a program linked to the
 * shared library (a function removed or its signature changed, a public struct or enum laid
 * out anew). It names the file and SONAME libfkc.so.FKC_SOVERSION and the Debian package
 * libfkcFKC_SOVERSION. FKC_RUNTIME_ABI (fkc_kernels.h) counts the changes of the narrower
 * interface generated code is written for; raising it breaks every program whose generated
 * code links fkc_runtime_abi_N, so it raises FKC_SOVERSION too (runtime/abi-history lists the
 * pairs; make check-exports fails on a pair it lacks). FKC_SOVERSION may rise alone. */
#define FKC_SOVERSION 1

/* The version of the library linked at run time ("0.1.0"): compare it with FKC_VERSION_STRING
 * to see that the headers a program was built with match the libfkc it runs with. */
const char *fkc_version(void);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* FKC_VERSION_H */
