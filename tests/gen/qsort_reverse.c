/* qsort_reverse.c — a valid qsort that orders equal elements the other way round from glibc's
 * (the last of a run of equal elements first), as musl, the BSDs and macOS may: preloaded
 * (LD_PRELOAD) into fkcgen by tests/gen/test_cli.c, whose output must not change by a byte,
 * which holds only when every sort fkcgen runs has a total order. Test-only. */
#include <stdlib.h>
#include <string.h>

typedef int cmp_fn(const void *, const void *);

/* Stable merge sort of n elements of size bytes at a, through tmp (as large). */
static void merge_sort(char *a, char *tmp, size_t n, size_t size, cmp_fn *cmp)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_sort(a, tmp, h, size, cmp);
    merge_sort(a + h * size, tmp, n - h, size, cmp);
    size_t i = 0, j = h, k = 0;
    while (i < h || j < n) {
        const char *from;
        if (j >= n || (i < h && cmp(a + i * size, a + j * size) <= 0))
            from = a + i++ * size;
        else
            from = a + j++ * size;
        memcpy(tmp + k++ * size, from, size);
    }
    memcpy(a, tmp, n * size);
}

void qsort(void *base, size_t n, size_t size, cmp_fn *cmp)
{
    char *a = base, *tmp = n > 1 ? malloc(n * size) : NULL;
    if (n > 1 && !tmp)
        abort();
    for (size_t i = 0; tmp && i < n / 2; i++) { /* reversed, then sorted stably */
        memcpy(tmp, a + i * size, size);
        memcpy(a + i * size, a + (n - 1 - i) * size, size);
        memcpy(a + (n - 1 - i) * size, tmp, size);
    }
    if (tmp)
        merge_sort(a, tmp, n, size, cmp);
    free(tmp);
}
