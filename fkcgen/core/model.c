/* model.c — look-ups over the model and the binding table (model.h) that the dump and both
 * back ends share. */
#include <string.h>

#include "model.h"

long fkcg_provider_index(const fkcg_table *t, const fkcg_provider *pr)
{
    size_t lo = 0, hi = t->n_providers;
    if (!pr || !pr->rel_file)
        return -1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *f = t->providers[mid]->rel_file ? t->providers[mid]->rel_file : "";
        int c = strcmp(pr->rel_file, f);
        if (c == 0)
            return t->providers[mid] == pr ? (long)mid : -1;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

const fkcg_dtype_info *fkcg_table_dtype(const fkcg_table *t, int code)
{
    if (code >= 0 && code < FKCG_NDTYPES)
        return &fkcg_dtypes[code];
    if (t && code >= FKCG_NDTYPES && (size_t)(code - FKCG_NDTYPES) < t->n_block_dtypes)
        return t->block_dtypes[code - FKCG_NDTYPES];
    return NULL;
}

const fkcg_dtype_info *fkcg_section_dtype(const fkcg_section *s, int idx)
{
    if (idx >= 0 && idx < FKCG_NDTYPES)
        return &fkcg_dtypes[idx];
    const fkcg_provider *p = s ? s->provider : NULL;
    if (p && idx >= FKCG_NDTYPES && (size_t)(idx - FKCG_NDTYPES) < p->n_block_dtypes)
        return &p->block_dtypes[idx - FKCG_NDTYPES];
    return NULL;
}

int fkcg_section_code(const fkcg_section *s, int idx)
{
    if (idx < FKCG_NDTYPES || !s || !s->provider || !s->provider->block_codes ||
        (size_t)(idx - FKCG_NDTYPES) >= s->provider->n_block_dtypes)
        return idx;
    return s->provider->block_codes[idx - FKCG_NDTYPES];
}
