/* rules.c — `fkcgen diff`'s rule table (FKCG_DIFF_RULES in diff.h) as data: the rows the
 * checks report by, the IDs the allow file names, and the Markdown table of docs/fkcgen.md
 * (`fkcgen diff --rules`). */
#include <string.h>

#include "diff.h"

#define FKCG_DIFF_RULE_ROW(id, cls, summary, doc) {#id, FKCG_DIFF_##cls, summary, doc},
const fkcg_diff_rule fkcg_diff_rules[FKCG_DIFF_NRULES] = {FKCG_DIFF_RULES(FKCG_DIFF_RULE_ROW)};

const char *fkcg_diff_class_name(fkcg_diff_class c)
{
    switch (c) {
    case FKCG_DIFF_BREAKING: return "breaking";
    case FKCG_DIFF_COMPATIBLE: return "compatible";
    case FKCG_DIFF_INFORMATIONAL: return "informational";
    }
    return "?";
}

int fkcg_diff_rule_find(const char *id, const char **hint)
{
    const char *ids[FKCG_DIFF_NRULES];
    for (int i = 0; i < FKCG_DIFF_NRULES; i++) {
        if (!strcmp(fkcg_diff_rules[i].id, id))
            return i;
        ids[i] = fkcg_diff_rules[i].id;
    }
    if (hint)
        *hint = fkcg_suggest(ids, FKCG_DIFF_NRULES, id);
    return -1;
}

void fkcg_diff_rules_markdown(fkcg_buf *out)
{
    fkcg_buf_puts(out, "| rule | class | flags | why |\n|---|---|---|---|\n");
    for (int i = 0; i < FKCG_DIFF_NRULES; i++) {
        const fkcg_diff_rule *r = &fkcg_diff_rules[i];
        fkcg_buf_printf(out, "| `%s` | %s | %s | %s |\n", r->id, fkcg_diff_class_name(r->cls),
                        r->summary, r->doc);
    }
}
