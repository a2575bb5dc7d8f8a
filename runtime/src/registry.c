/* registry.c — the runtime's kernel registry, keyed (op kind, [in, out] dtypes, backend). The
 * generated fkc_register_bindings fills it once, on first use; a duplicate key or a full table
 * is refused (FKC_ERR_REGISTRY). Ops themselves go through the generated fkc_dispatch. */
#include "internal.h"

#include <pthread.h>

#include "fkc_bindings.h"

#define REGISTRY_CAP 256 /* bindings the registry can hold */

typedef struct entry {
    fkc_op_kind op;
    fkc_dtype key[2];              /* [in, out] */
    fkc_backend backend;
    const char *kernel_source;     /* the contract's tag, e.g. "vulkan-slang" */
    const fkc_precision *precision;
    fkc_kernel_ref ref;
} entry;

static struct {
    entry e[REGISTRY_CAP];
    size_t n;
    int refused;                   /* 0, or why registration stopped: 1 duplicate, 2 full */
} reg;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static const entry *find(int op, fkc_dtype in, fkc_dtype out, fkc_backend backend)
{
    for (size_t i = 0; i < reg.n; i++)
        if ((int)reg.e[i].op == op && reg.e[i].key[0] == in && reg.e[i].key[1] == out &&
            reg.e[i].backend == backend)
            return &reg.e[i];
    return NULL;
}

/* The fkc_register_fn the generated code calls once per binding. */
static int add(void *registry, fkc_op_kind op, const fkc_dtype key[2], fkc_backend backend,
               const char *kernel_source, const fkc_precision *precision, fkc_kernel_ref ref)
{
    (void)registry;
    if (find((int)op, key[0], key[1], backend))
        return 1;
    if (reg.n == REGISTRY_CAP)
        return 2;
    reg.e[reg.n++] = (entry){op, {key[0], key[1]}, backend, kernel_source, precision, ref};
    return 0;
}

static void fill(void)
{
    reg.refused = fkc_register_bindings(&reg, add);
}

fkc_status fkc_registry_init(void)
{
    pthread_once(&once, fill);
    if (reg.refused)
        return fkc_fail(FKC_ERR_REGISTRY, "registering the generated bindings stopped at "
                        "binding %zu: %s", reg.n,
                        reg.refused == 1 ? "duplicate key" : "registry full");
    return FKC_OK;
}

size_t fkc_registry_size(void)
{
    return fkc_registry_init() == FKC_OK ? reg.n : 0;
}

bool fkc_registry_has(int op_kind, fkc_dtype in, fkc_dtype out, fkc_backend backend,
                      const char **kernel_source)
{
    if (fkc_registry_init() != FKC_OK)
        return false;
    const entry *e = find(op_kind, in, out, backend);
    if (e && kernel_source)
        *kernel_source = e->kernel_source;
    return e != NULL;
}
