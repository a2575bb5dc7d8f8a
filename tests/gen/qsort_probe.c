/* qsort_probe.c — sorts two elements of equal key and prints their order ("a b" or "b a"):
 * tests/gen/test_cli.c runs it with and without tests/gen/qsort_reverse.so preloaded, to show
 * the preloaded qsort is the one a program calls. Test-only. */
#include <stdio.h>
#include <stdlib.h>

typedef struct item {
    int key;
    char name;
} item;

static int by_key(const void *a, const void *b)
{
    return ((const item *)a)->key - ((const item *)b)->key;
}

int main(void)
{
    item v[2] = {{1, 'a'}, {1, 'b'}};
    qsort(v, 2, sizeof v[0], by_key);
    printf("%c %c\n", v[0].name, v[1].name);
    return 0;
}
