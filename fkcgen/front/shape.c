/* shape.c — pass 3: re-nests YAML by the schema, so the flattened form (every key at column 1,
 * as the seed is written) and the canonical nested form give the same tree. A key goes into the
 * innermost open mapping whose schema admits it; a key with an empty value opens its mapping;
 * the last mapping of a block list stays open. A free-form map (op_params.fields) admits any key
 * that no enclosing open mapping admits; an empty-valued field opens its entry (kind, note).
 * Unknown and duplicate keys are reported here. */
#include <string.h>
#include <strings.h>

#include "internal.h"

typedef struct open_map {
    ynode *map; /* the shaped mapping keys are added to */
    const fkcg_schema *schema;
} open_map;

typedef struct shaper {
    fkcg_arena *a;
    fkcg_diag *d;
    open_map stack[4 * FKCG_MAX_DEPTH];
    size_t top; /* open mappings on the stack */
} shaper;

/* Does open mapping i admit key? A free-form one admits what no mapping below it admits.
 * found: the schema's key (NULL for a free-form mapping), so it is not looked up twice. */
static bool admits(const shaper *sh, size_t i, const char *key, const fkcg_key **found)
{
    const fkcg_schema *s = sh->stack[i].schema;
    *found = NULL;
    if (!s->freeform)
        return (*found = fkcg_schema_key(s, key)) != NULL;
    const fkcg_key *below;
    for (size_t j = 0; j < i; j++)
        if (admits(sh, j, key, &below))
            return false;
    return true;
}

/* An unknown key: where it belongs when another mapping has it, else a did-you-mean from the
 * open mappings, else the keys allowed here. */
static void unknown_key(shaper *sh, const ynode *key, size_t base)
{
    const fkcg_schema *s = sh->stack[sh->top - 1].schema;
    const fkcg_schema *all[32];
    size_t n_all = fkcg_schema_all(all, 32);
    const char *owners[32];
    size_t n_owners = 0;
    for (size_t i = 0; i < n_all && i < 32; i++)
        if (fkcg_schema_key(all[i], key->str))
            owners[n_owners++] = all[i]->path;
    fkcg_buf msg;
    fkcg_buf_init(&msg);
    for (size_t i = 0; i < n_owners; i++)
        fkcg_buf_put_listed(&msg, i, n_owners, owners[i]);
    if (msg.len) {
        fkcg_error(sh->d, &key->loc, "key '%s' does not belong in %s; it is a key of %s", key->str,
                   s->path, msg.data);
        fkcg_buf_free(&msg);
        return;
    }
    const char *hint = NULL;
    for (size_t i = sh->top; i-- > base && !hint;)
        hint = fkcg_schema_suggest(sh->stack[i].schema, key->str);
    if (hint && !strcasecmp(hint, key->str)) {
        fkcg_error(sh->d, &key->loc,
                   "unknown key '%s' in %s; keys are case-sensitive: write "
                   "'%s'",
                   key->str, s->path, hint);
        return;
    }
    if (hint) {
        fkcg_error(sh->d, &key->loc, "unknown key '%s' in %s; did you mean '%s'?", key->str,
                   s->path, hint);
        return;
    }
    fkcg_schema_key_list(s, &msg);
    fkcg_error(sh->d, &key->loc, "unknown key '%s' in %s; expected %s", key->str, s->path,
               msg.data ? msg.data : "no keys");
    fkcg_buf_free(&msg);
}

static ynode *shape_map(shaper *sh, ynode *src, const fkcg_schema *s);

/* Opens a mapping. The schema is at most six mappings deep, so the stack cannot fill. */
static void push(shaper *sh, ynode *map, const fkcg_schema *s)
{
    if (sh->top < sizeof sh->stack / sizeof sh->stack[0])
        sh->stack[sh->top++] = (open_map){map, s};
}

/* A map value for a mapping key: shaped when written out, opened when empty. */
static ynode *shape_value(shaper *sh, ynode *v, const fkcg_key *k, const fkcg_schema *entry)
{
    const fkcg_schema *child = entry ? entry : k->child;
    if (!child)
        return v;
    bool seq = !entry && k->type == FT_SEQMAP;
    if (!seq && v->kind == YN_MAP)
        return shape_map(sh, v, child);
    if (!seq && v->is_null) { /* a field's entry too: its kind / note lines follow */
        ynode *m = fkcg_ynode_new(sh->a, YN_MAP, v->key->loc);
        m->schema = child;
        push(sh, m, child);
        return m;
    }
    if (!seq || v->kind != YN_SEQ)
        return v;
    ynode *out = fkcg_ynode_new(sh->a, YN_SEQ, v->loc);
    out->flow = v->flow;
    for (ynode *item = v->kids, *nx; item; item = nx) {
        nx = item->next;
        ynode *shaped = item->kind == YN_MAP ? shape_map(sh, item, child) : item;
        fkcg_ynode_append(out, shaped);
    }
    /* The last mapping of a block list stays open: flattening leaves its keys at column 1. */
    if (!v->flow && out->last && out->last->kind == YN_MAP && !v->last->flow)
        push(sh, out->last, child);
    return out;
}

/* The value already placed under key in a shaped mapping, or NULL. A value placed by schema key
 * k is found by that pointer (no strcmp); other values (free-form fields) by name. */
static ynode *placed(const ynode *map, const char *key, const fkcg_key *k)
{
    for (ynode *v = map->kids; v; v = v->next)
        if (k && v->skey ? v->skey == k : strcmp(v->key->str, key) == 0)
            return v;
    return NULL;
}

/* Places one key/value of a source mapping; base: this mapping's own entry in the stack. */
static void place(shaper *sh, ynode *v, size_t base)
{
    const char *key = v->key->str;
    const fkcg_key *k = NULL;
    size_t i = sh->top;
    while (i-- > base)
        if (admits(sh, i, key, &k))
            break;
    if (i == (size_t)-1 || i < base) {
        if (sh->stack[sh->top - 1].schema->freeform)
            fkcg_error(sh->d, &v->key->loc, "field name '%s' is a contract key; rename the field",
                       key);
        else
            unknown_key(sh, v->key, base);
        return;
    }
    sh->top = i + 1;
    open_map *m = &sh->stack[i];
    ynode *first = placed(m->map, key, k);
    if (first) {
        fkcg_error(sh->d, &v->key->loc, "duplicate key '%s' in %s; remove one", key,
                   m->schema->path);
        fkcg_note(sh->d, &first->key->loc, "first defined here");
        return;
    }
    ynode *keynode = v->key;
    ynode *shaped;
    if (m->schema->freeform)
        shaped = shape_value(sh, v, NULL, m->schema->entry);
    else
        shaped = shape_value(sh, v, k, NULL);
    shaped->key = keynode;
    shaped->skey = k;
    fkcg_ynode_append(m->map, shaped);
}

static ynode *shape_map(shaper *sh, ynode *src, const fkcg_schema *s)
{
    if (sh->top >= sizeof sh->stack / sizeof sh->stack[0]) /* bounded by the schema's depth */
        return src;
    ynode *out = fkcg_ynode_new(sh->a, YN_MAP, src->loc);
    out->flow = src->flow;
    out->schema = s;
    size_t base = sh->top, saved = sh->top;
    sh->stack[sh->top++] = (open_map){out, s};
    for (ynode *v = src->kids, *nx; v; v = nx) {
        nx = v->next;
        place(sh, v, base);
    }
    sh->top = saved;
    return out;
}

ynode *fkcg_shape(fkcg_arena *a, fkcg_diag *d, const ynode *root, const fkcg_schema *s)
{
    shaper sh = {.a = a, .d = d, .top = 0};
    return shape_map(&sh, (ynode *)root, s);
}
