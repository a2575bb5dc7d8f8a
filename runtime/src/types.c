/* types.c — names and sizes for the shared vocabulary of fkc_types.h. */
#include "fkc/fkc_types.h"

#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    size_t size;
} dtypes[FKC_DTYPE_COUNT] = {
    [FKC_DTYPE_F32] = {"F32", 4}, [FKC_DTYPE_I32] = {"I32", 4},   [FKC_DTYPE_U32] = {"U32", 4},
    [FKC_DTYPE_F16] = {"F16", 2}, [FKC_DTYPE_BF16] = {"BF16", 2}, [FKC_DTYPE_F64] = {"F64", 8},
    [FKC_DTYPE_I64] = {"I64", 8}, [FKC_DTYPE_U8] = {"U8", 1},     [FKC_DTYPE_I8] = {"I8", 1},
};

/* The contract dtypes the runtime's ops do not move (fkc_types.h), from FKC_DTYPE_I16 on. */
static const struct {
    const char *name;
    size_t size;
} contract_dtypes[FKC_DTYPE_CONTRACT_END - FKC_DTYPE_I16] = {
    {"I16", 2},
    {"U16", 2},
    {"Bool", 1},
};

static const char *const backends[FKC_BACKEND_COUNT] = {
    [FKC_BACKEND_CPU] = "Cpu",     [FKC_BACKEND_VULKAN] = "Vulkan", [FKC_BACKEND_CUDA] = "Cuda",
    [FKC_BACKEND_METAL] = "Metal", [FKC_BACKEND_WGPU] = "Wgpu",
};

static const char *const statuses[FKC_STATUS_COUNT] = {
#define FKC_X_TEXT(name, text) text,
    FKC_STATUS_MAP(FKC_X_TEXT)
#undef FKC_X_TEXT
};

size_t fkc_dtype_size(fkc_dtype dtype)
{
    if ((unsigned)dtype < FKC_DTYPE_COUNT)
        return dtypes[dtype].size;
    if (dtype >= FKC_DTYPE_I16 && dtype < FKC_DTYPE_CONTRACT_END)
        return contract_dtypes[dtype - FKC_DTYPE_I16].size;
    return 0;
}

const char *fkc_dtype_name(fkc_dtype dtype)
{
    if ((unsigned)dtype < FKC_DTYPE_COUNT)
        return dtypes[dtype].name;
    if (dtype >= FKC_DTYPE_I16 && dtype < FKC_DTYPE_CONTRACT_END)
        return contract_dtypes[dtype - FKC_DTYPE_I16].name;
    return NULL;
}

fkc_dtype fkc_dtype_from_name(const char *name)
{
    for (int i = 0; name && i < FKC_DTYPE_COUNT; i++)
        if (strcasecmp(name, dtypes[i].name) == 0)
            return (fkc_dtype)i;
    return FKC_DTYPE_COUNT;
}

const char *fkc_backend_name(fkc_backend backend)
{
    return (unsigned)backend < FKC_BACKEND_COUNT ? backends[backend] : NULL;
}

const char *fkc_status_name(fkc_status status)
{
    return (unsigned)status < FKC_STATUS_COUNT ? statuses[status] : "unknown status";
}
