/* bench-gen-parse.c — the baseline of `make bench-gen`: a bare cmark + libyaml parse of the
 * same contract files fkcgen reads, with no validation, no binding and no output. Each file is
 * read whole; its front matter (between the opening `---` lines) and every ```fkc block that
 * cmark finds are loaded into libyaml document trees, then freed.
 * usage: bench-gen-parse FILE...   (prints the number of YAML documents it loaded) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark.h>
#include <yaml.h>

static int load_yaml(const char *text, size_t len)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser))
        return -1;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int ok = yaml_parser_load(&parser, &doc);
    if (ok)
        yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return ok ? 1 : -1;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Documents loaded from one file, or -1 on an error. */
static long parse_one(const char *path)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        return -1;
    long docs = 0;
    size_t body = 0;
    if (len >= 4 && memcmp(text, "---\n", 4) == 0) {
        const char *end = strstr(text + 4, "\n---\n");
        if (end) {
            docs += load_yaml(text + 4, (size_t)(end - text) - 3) > 0;
            body = (size_t)(end - text) + 5;
        }
    }
    cmark_node *root = cmark_parse_document(text + body, len - body, CMARK_OPT_DEFAULT);
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *node = cmark_iter_get_node(it);
        if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_CODE_BLOCK)
            continue;
        const char *info = cmark_node_get_fence_info(node);
        if (!info || strncmp(info, "fkc", 3) != 0)
            continue;
        const char *lit = cmark_node_get_literal(node);
        if (load_yaml(lit, strlen(lit)) > 0)
            docs++;
        else
            docs = -1000000;
    }
    cmark_iter_free(it);
    cmark_node_free(root);
    free(text);
    return docs;
}

int main(int argc, char **argv)
{
    long total = 0;
    for (int i = 1; i < argc; i++) {
        long n = parse_one(argv[i]);
        if (n < 0) {
            fprintf(stderr, "bench-gen-parse: %s: cannot read or parse\n", argv[i]);
            return 1;
        }
        total += n;
    }
    printf("%ld\n", total);
    return 0;
}
