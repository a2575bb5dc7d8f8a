/* udiff.c — the unified diff `fkcgen gen --check` prints when generated/ drifted.
 * Lines common to both ends are trimmed first (a one-character change costs nothing);
 * the rest is aligned by a longest-common-subsequence table while it stays small, and
 * printed as a plain delete-then-insert beyond that. Output is `diff -u` compatible. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "back.h"

#define DIFF_CONTEXT 3
#define DIFF_LCS_CELLS ((size_t)4 << 20) /* largest LCS table; beyond it no alignment */

typedef struct line {
    const char *s;
    size_t n; /* bytes, with the '\n' when there is one */
} line;

typedef struct edit {
    char op;     /* ' ', '-' or '+' */
    size_t a, b; /* line index in old (for ' ' and '-') and new (for ' ' and '+') */
} edit;

static line *split_lines(const char *s, size_t len, size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    n += len && s[len - 1] != '\n';
    line *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        fkcg_oom();
    size_t k = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - s) + 1 : len;
        v[k].s = s + i;
        v[k].n = end - i;
        k++;
        i = end;
    }
    *count = n;
    return v;
}

static bool same(const line *x, const line *y)
{
    return x->n == y->n && memcmp(x->s, y->s, x->n) == 0;
}

/* Edits for the middle parts a[0..na) and b[0..nb) (offsets oa, ob), appended to e. */
static size_t diff_middle(const line *a, size_t na, const line *b, size_t nb, size_t oa, size_t ob,
                          edit *e, size_t k)
{
    if (na == 0 || nb == 0 || na > DIFF_LCS_CELLS / nb) {
        for (size_t i = 0; i < na; i++)
            e[k++] = (edit){'-', oa + i, ob};
        for (size_t j = 0; j < nb; j++)
            e[k++] = (edit){'+', oa + na, ob + j};
        return k;
    }
    /* L[i][j] = LCS length of a[i..] and b[j..]. */
    size_t w = nb + 1;
    uint32_t *L = calloc((na + 1) * w, sizeof *L);
    if (!L)
        fkcg_oom();
    for (size_t i = na; i-- > 0;)
        for (size_t j = nb; j-- > 0;)
            L[i * w + j] = same(&a[i], &b[j])                       ? L[(i + 1) * w + j + 1] + 1
                           : L[(i + 1) * w + j] >= L[i * w + j + 1] ? L[(i + 1) * w + j]
                                                                    : L[i * w + j + 1];
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        if (i < na && j < nb && same(&a[i], &b[j])) {
            e[k++] = (edit){' ', oa + i++, ob + j++};
        } else if (j == nb || (i < na && L[(i + 1) * w + j] >= L[i * w + j + 1])) {
            e[k++] = (edit){'-', oa + i++, ob + j};
        } else {
            e[k++] = (edit){'+', oa + i, ob + j++};
        }
    }
    free(L);
    return k;
}

static void put_line(fkcg_buf *out, char op, const line *l)
{
    fkcg_buf_putc(out, op);
    fkcg_buf_put(out, l->s, l->n);
    if (l->n == 0 || l->s[l->n - 1] != '\n')
        fkcg_buf_puts(out, "\n\\ No newline at end of file\n");
}

/* "-start,count" as diff -u writes it (an empty range names the line before it). */
static void put_range(fkcg_buf *out, char sign, size_t first, size_t count)
{
    fkcg_buf_printf(out, "%c%zu,%zu", sign, count ? first + 1 : first, count);
}

/* Prints the hunks of the edit script e[0..n). */
static void put_hunks(fkcg_buf *out, const edit *e, size_t n, const line *a, const line *b)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && e[i].op == ' ')
            i++;
        if (i == n)
            break;
        size_t start = i >= DIFF_CONTEXT ? i - DIFF_CONTEXT : 0;
        size_t end = i; /* one past the last change of the hunk */
        for (size_t j = i; j < n; j++) {
            if (e[j].op != ' ')
                end = j + 1;
            else if (j - end >= 2 * DIFF_CONTEXT)
                break;
        }
        size_t stop = end + DIFF_CONTEXT < n ? end + DIFF_CONTEXT : n;
        size_t na = 0, nb = 0;
        for (size_t j = start; j < stop; j++) {
            na += e[j].op != '+';
            nb += e[j].op != '-';
        }
        fkcg_buf_puts(out, "@@ ");
        put_range(out, '-', e[start].a, na);
        fkcg_buf_putc(out, ' ');
        put_range(out, '+', e[start].b, nb);
        fkcg_buf_puts(out, " @@\n");
        for (size_t j = start; j < stop; j++)
            put_line(out, e[j].op, e[j].op == '+' ? &b[e[j].b] : &a[e[j].a]);
        i = stop;
    }
}

void fkcg_unified_diff(const char *a_label, const char *old_text, size_t old_len,
                       const char *b_label, const char *new_text, size_t new_len, fkcg_buf *out)
{
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0)
        return;
    size_t na, nb;
    line *a = split_lines(old_text, old_len, &na);
    line *b = split_lines(new_text, new_len, &nb);
    size_t pre = 0, suf = 0;
    while (pre < na && pre < nb && same(&a[pre], &b[pre]))
        pre++;
    while (suf < na - pre && suf < nb - pre && same(&a[na - 1 - suf], &b[nb - 1 - suf]))
        suf++;
    edit *e = malloc((na + nb + 1) * sizeof *e);
    if (!e)
        fkcg_oom();
    size_t k = 0;
    for (size_t i = 0; i < pre; i++)
        e[k++] = (edit){' ', i, i};
    k = diff_middle(a + pre, na - pre - suf, b + pre, nb - pre - suf, pre, pre, e, k);
    for (size_t i = 0; i < suf; i++)
        e[k++] = (edit){' ', na - suf + i, nb - suf + i};
    fkcg_buf_printf(out, "--- %s\n+++ %s\n", a_label, b_label);
    put_hunks(out, e, k, a, b);
    free(e);
    free(a);
    free(b);
}
