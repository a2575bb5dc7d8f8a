/* user_kernel.h — user_kernel.c: what the context's teardown calls. */
#ifndef FKC_USER_KERNEL_H
#define FKC_USER_KERNEL_H

#include "common.h"

/* ---- user_kernel.c ---- */
void fkc_user_kernels_destroy(fkc_context *ctx); /* the context's cached kernels */

#endif /* FKC_USER_KERNEL_H */
