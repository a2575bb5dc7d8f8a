/* where.c — the place of every key of a shaped tree, by its path in the canonical nested form
 * ("precision.max_ulp", "accept.inputs[0].dtypes[2]"). Recorded only for runs that keep their
 * sources (fkcgen diff), whose reports point at any datum of either revision; the model keeps
 * only the few places the front end's own messages need. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

typedef struct where_entry {
    const char *path;
    fkcg_loc loc;
} where_entry;

struct fkcg_where {
    where_entry *v;
    size_t n, cap;
};

static void add(fkcg_arena *a, fkcg_where *w, const fkcg_buf *path, fkcg_loc loc)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 64;
        where_entry *more = fkcg_alloc(a, cap * sizeof *more);
        if (w->n)
            memcpy(more, w->v, w->n * sizeof *more);
        w->v = more;
        w->cap = cap;
    }
    w->v[w->n++] = (where_entry){fkcg_strndup(a, path->data, path->len), loc};
}

/* Records n's children under path (n is at most FKCG_MAX_DEPTH deep: ytree refused deeper). */
static void walk(fkcg_arena *a, fkcg_where *w, fkcg_buf *path, const ynode *n)
{
    size_t i = 0, base = path->len;
    for (const ynode *k = n->kids; k; k = k->next, i++) {
        path->len = base;
        if (n->kind == YN_MAP) {
            if (base)
                fkcg_buf_putc(path, '.');
            fkcg_buf_puts(path, k->key->str);
        } else {
            fkcg_buf_printf(path, "[%zu]", i);
        }
        bool keyed = n->kind == YN_MAP && k->kind != YN_SCALAR && !k->flow;
        add(a, w, path, keyed ? k->key->loc : k->loc);
        if (k->kind != YN_SCALAR)
            walk(a, w, path, k);
    }
    path->len = base;
}

const fkcg_where *fkcg_where_record(fkcg_arena *a, const ynode *root)
{
    fkcg_where *w = fkcg_alloc(a, sizeof *w);
    fkcg_buf path;
    fkcg_buf_init(&path);
    if (root && root->kind == YN_MAP)
        walk(a, w, &path, root);
    fkcg_buf_free(&path);
    return w;
}

const fkcg_loc *fkcg_where_find(const fkcg_where *w, const char *path)
{
    for (size_t i = 0; w && i < w->n; i++)
        if (!strcmp(w->v[i].path, path))
            return &w->v[i].loc;
    return NULL;
}
