/* ytree.c — pass 2: libyaml's events → a node tree whose every node carries its place in the
 * .md file. Anchors, aliases and tags are rejected (a contract has no use for them, and aliases
 * are how "billion laughs" documents explode), so is nesting deeper than FKCG_MAX_DEPTH. */
#include <string.h>

#include <yaml.h>

#include "internal.h"

ynode *fkcg_ynode_new(fkcg_arena *a, yn_kind kind, fkcg_loc loc)
{
    /* Initialised whole (other fields zero) rather than zeroed then set: one node per YAML
     * scalar and collection, about 1.5 million for 10,000 sections. */
    ynode *n = fkcg_alloc_raw(a, sizeof *n);
    *n = (ynode){.kind = kind, .loc = loc, .val_col = -1};
    return n;
}

void fkcg_ynode_append(ynode *parent, ynode *kid)
{
    kid->next = NULL;
    if (parent->last)
        parent->last->next = kid;
    else
        parent->kids = kid;
    parent->last = kid;
    parent->n++;
}

ynode *fkcg_map_get(const ynode *map, const char *key)
{
    if (!map || map->kind != YN_MAP)
        return NULL;
    for (ynode *v = map->kids; v; v = v->next)
        if (v->key->str[0] == key[0] && strcmp(v->key->str, key) == 0)
            return v;
    return NULL;
}

typedef struct reader {
    fkcg_arena *a;
    fkcg_diag *d;
    const fkcg_chunk *c;
    yaml_parser_t p;
    yaml_event_t ev;
    bool have_ev; /* ev must be deleted */
    bool failed;
} reader;

static fkcg_loc mark_loc(const reader *r, yaml_mark_t m)
{
    return fkcg_chunk_loc(r->c, m.line, m.column);
}

/* Reports an error at `at` and marks the block failed; returns NULL, so a failure is one
 * `return fail(...)`. */
static ynode *fail(reader *r, fkcg_loc at, const char *fmt, ...) FKCG_PRINTF(3, 4);
static ynode *fail(reader *r, fkcg_loc at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fkcg_verror(r->d, &at, fmt, ap);
    va_end(ap);
    r->failed = true;
    return NULL;
}

/* Leading spaces of line i of the chunk, or -1 when it is blank or a comment. */
static long indent_of(const fkcg_chunk *c, size_t i)
{
    const char *s = c->text + c->line_off[i],
               *end = c->text + (i + 1 < c->n_lines ? c->line_off[i + 1] : c->len);
    const char *p = s;
    while (p < end && *p == ' ')
        p++;
    return p == end || *p == '\n' || *p == '#' ? -1 : (long)(p - s);
}

/* libyaml's structure errors (a block sequence or mapping that ends where it should not)
 * follow a change of indentation: the .md line where the indentation changes, at the line
 * libyaml stopped at (0-based in the chunk) or the two lines before it, or 0 when it does not
 * change there. */
static size_t indent_change(const fkcg_chunk *c, size_t line)
{
    if (line >= c->n_lines)
        line = c->n_lines ? c->n_lines - 1 : 0;
    for (size_t i = line + 1, seen = 0; i-- > 0 && seen < 3;) {
        long here = indent_of(c, i);
        if (here < 0)
            continue;
        seen++;
        size_t j = i;
        long before = -1;
        while (j-- > 0 && (before = indent_of(c, j)) < 0)
            ;
        if (before >= 0 && before != here)
            return c->first_line + i;
    }
    return 0;
}

static bool next(reader *r)
{
    if (r->have_ev)
        yaml_event_delete(&r->ev);
    r->have_ev = false;
    if (!yaml_parser_parse(&r->p, &r->ev)) {
        fkcg_loc at = mark_loc(r, r->p.problem_mark);
        const char *why = r->p.problem ? r->p.problem : "";
        bool structure = strstr(why, "expected key") || strstr(why, "'-' indicator") ||
                         strstr(why, "are not allowed") || strstr(why, "<document start>");
        size_t changed = structure ? indent_change(r->c, r->p.problem_mark.line) : 0;
        /* libyaml often notices a problem a line late: say where else to look. */
        if (changed)
            fkcg_error(r->d, &at,
                       "YAML syntax error: %s%s%s; the indentation changes on line "
                       "%zu, and a contract's YAML is flat (every key at column 1): an indented "
                       "line among unindented ones is the usual cause",
                       r->p.problem ? r->p.problem : "?", r->p.context ? " " : "",
                       r->p.context ? r->p.context : "", changed);
        else
            fkcg_error(r->d, &at,
                       "YAML syntax error: %s%s%s; check the brackets, quotes and "
                       "'key: value' form here and on the line above",
                       r->p.problem ? r->p.problem : "?", r->p.context ? " " : "",
                       r->p.context ? r->p.context : "");
        r->failed = true;
        return false;
    }
    r->have_ev = true;
    return true;
}

/* Rejects an anchor or a tag on the current node event. */
static bool plain_node(reader *r, const yaml_char_t *anchor, const yaml_char_t *tag)
{
    if (!anchor && !tag) /* the common case: no location to compute */
        return true;
    fkcg_loc at = mark_loc(r, r->ev.start_mark);
    if (anchor)
        fail(r, at, "YAML anchor '&%s' is not allowed in a contract; write the value out",
             (const char *)anchor);
    else
        fail(r, at, "YAML tag '%s' is not allowed in a contract; remove it", (const char *)tag);
    return false;
}

static bool is_null_text(const char *s, size_t len)
{
    if (len > 4 || (len > 0 && s[0] != '~' && s[0] != 'n' && s[0] != 'N'))
        return false; /* the common case: not a spelling of null, by length or first byte */
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

static ynode *scalar(reader *r)
{
    yaml_event_t *e = &r->ev;
    ynode *n = fkcg_ynode_new(r->a, YN_SCALAR, mark_loc(r, e->start_mark));
    n->str = fkcg_strndup(r->a, (const char *)e->data.scalar.value, e->data.scalar.length);
    n->len = e->data.scalar.length;
    n->plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    n->is_null = n->plain && is_null_text(n->str, n->len);
    if (!n->plain && memchr(n->str, '\0', n->len)) /* an escaped \0 (quoted scalars only) */
        fail(r, n->loc, "NUL character in a YAML string");
    /* Columns of the value are exact when it is written out on one line, unescaped. */
    yaml_mark_t s = e->start_mark, t = e->end_mark;
    size_t width = t.index - s.index;
    bool quoted = e->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                  e->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    if (s.line == t.line && (n->plain || quoted) && width == n->len + (quoted ? 2 : 0) &&
        memcmp(r->c->text + r->c->line_off[s.line] + (n->loc.col - 1 - r->c->strip[s.line]) +
                   (quoted ? 1 : 0),
               n->str, n->len) == 0) /* n->loc: fkcg_chunk_loc of s */
        n->val_col = quoted ? 1 : 0;
    return n;
}

static ynode *node(reader *r, unsigned depth);

/* The events of a mapping or a sequence, after its start event. */
static ynode *collection(reader *r, yn_kind kind, unsigned depth)
{
    yaml_event_t *e = &r->ev;
    bool flow = kind == YN_MAP ? e->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                               : e->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
    ynode *n = fkcg_ynode_new(r->a, kind, mark_loc(r, e->start_mark));
    n->flow = flow;
    if (depth > FKCG_MAX_DEPTH)
        return fail(r, n->loc, "YAML nested deeper than %u levels", FKCG_MAX_DEPTH);
    yaml_event_type_t end = kind == YN_MAP ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
    for (;;) {
        if (!next(r))
            return NULL;
        if (r->ev.type == end)
            return n;
        if (n->n == FKCG_MAX_ITEMS)
            return fail(r, mark_loc(r, r->ev.start_mark),
                        "more than %u entries in one YAML %s; "
                        "split the contract",
                        FKCG_MAX_ITEMS, kind == YN_MAP ? "mapping" : "list");
        ynode *key = NULL;
        if (kind == YN_MAP) {
            if (r->ev.type != YAML_SCALAR_EVENT)
                return fail(r, mark_loc(r, r->ev.start_mark),
                            "a mapping key must be a plain "
                            "word, not a %s",
                            r->ev.type == YAML_ALIAS_EVENT ? "YAML alias" : "collection");
            if (!plain_node(r, r->ev.data.scalar.anchor, r->ev.data.scalar.tag))
                return NULL;
            key = scalar(r);
            if (!next(r))
                return NULL;
        }
        ynode *kid = node(r, depth + 1);
        if (!kid)
            return NULL;
        kid->key = key;
        fkcg_ynode_append(n, kid);
    }
}

/* One node from the current event. */
static ynode *node(reader *r, unsigned depth)
{
    yaml_event_t *e = &r->ev;
    switch (e->type) {
    case YAML_SCALAR_EVENT:
        if (!plain_node(r, e->data.scalar.anchor, e->data.scalar.tag))
            return NULL;
        return scalar(r);
    case YAML_MAPPING_START_EVENT:
        if (!plain_node(r, e->data.mapping_start.anchor, e->data.mapping_start.tag))
            return NULL;
        return collection(r, YN_MAP, depth);
    case YAML_SEQUENCE_START_EVENT:
        if (!plain_node(r, e->data.sequence_start.anchor, e->data.sequence_start.tag))
            return NULL;
        return collection(r, YN_SEQ, depth);
    case YAML_ALIAS_EVENT:
        return fail(r, mark_loc(r, e->start_mark),
                    "YAML alias '*%s' is not allowed in a "
                    "contract; write the value out",
                    (const char *)e->data.alias.anchor);
    default: return fail(r, mark_loc(r, e->start_mark), "unexpected YAML event");
    }
}

/* Reports the first tab of the chunk: YAML indentation is spaces only. */
static bool has_tab(fkcg_diag *d, const fkcg_chunk *c)
{
    const char *t = memchr(c->text, '\t', c->len);
    if (!t)
        return false;
    size_t off = (size_t)(t - c->text), line = 0;
    while (line + 1 < c->n_lines && c->line_off[line + 1] <= off)
        line++;
    fkcg_loc at = {c->file, c->first_line + (uint32_t)line,
                   (uint32_t)(off - c->line_off[line] + c->strip[line] + 1)};
    fkcg_error(d, &at, "tab character in YAML; indent and separate with spaces");
    return true;
}

ynode *fkcg_yaml_parse(fkcg_arena *a, fkcg_diag *d, const fkcg_chunk *c)
{
    if (has_tab(d, c))
        return NULL;
    reader r = {.a = a, .d = d, .c = c};
    if (!yaml_parser_initialize(&r.p))
        fkcg_oom();
    yaml_parser_set_input_string(&r.p, (const unsigned char *)c->text, c->len);
    yaml_parser_set_encoding(&r.p, YAML_UTF8_ENCODING);
    ynode *root = NULL;
    if (!next(&r) || !next(&r)) /* stream start, then document start or stream end */
        goto done;
    if (r.ev.type == YAML_STREAM_END_EVENT) { /* point at the opening fence or '---' line */
        fail(&r, (fkcg_loc){c->file, c->first_line - 1, 1},
             "empty YAML block; it must hold "
             "the %s keys",
             c->first_line > 2 ? "section's" : "provider's");
        goto done;
    }
    if (!next(&r))
        goto done;
    root = node(&r, 1);
    if (!root)
        goto done;
    if (!next(&r) || !next(&r)) /* document end, then stream end */
        goto done;
    if (r.ev.type != YAML_STREAM_END_EVENT)
        fail(&r, mark_loc(&r, r.ev.start_mark),
             "a second YAML document in one block; one block "
             "holds one mapping");
    else if (root->kind != YN_MAP || root->is_null)
        fail(&r, root->loc, "expected a mapping of contract keys (key: value lines)");
done:
    if (r.have_ev)
        yaml_event_delete(&r.ev);
    yaml_parser_delete(&r.p);
    return r.failed ? NULL : root;
}
