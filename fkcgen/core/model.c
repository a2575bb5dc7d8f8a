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
