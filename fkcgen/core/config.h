/* config.h — fkcgen's limits and defaults, in one place (documented in docs/contract-format.md).
 * Every limit here protects the front end from hostile input: size, depth, error floods. */
#ifndef FKCG_CONFIG_H
#define FKCG_CONFIG_H

#define FKCG_MAX_FILE_BYTES                                                                        \
    (1u << 20)               /* larger contract files are rejected (1 MiB): cmark
                                             * needs up to ~200 bytes of memory per input byte */
#define FKCG_MAX_ITEMS 1024u /* entries of one YAML mapping or list */
#define FKCG_MAX_DEPTH 16u   /* YAML nesting (mappings + sequences) */
#define FKCG_MAX_TEXT_BYTES                                                                        \
    4000u                   /* a scalar value: text becomes C string literals,
                                             * which C compilers need accept only up to 4,095 */
#define FKCG_MAX_ERRORS 50u /* diagnostics printed per run, then one line */
#define FKCG_QUOTE_COLUMNS                                                                         \
    120u                        /* a quoted source line longer than this is cut to
                                             * a window around the caret, "..." at each cut */
#define FKCG_MAX_EXPR_DEPTH 32u /* parentheses nesting in cost exprs */
#define FKCG_MAX_EXPR_AXIS 64   /* dim(X, k): |k| below this */
#define FKCG_MAX_EXPR_OPS                                                                          \
    64u                                 /* operators in one cost expression: bounds the tree
                                             * depth (recursive printers) and the generated C's
                                             * bracket nesting (compilers stop at 256) */
#define FKCG_MAX_EXPR_VALUE 0xFFFFFFFFu /* largest integer literal in a cost expression */
#define FKCG_FKC_VERSIONS                                                                          \
    {                                                                                              \
        1u                                                                                         \
    } /* fkc_version values this fkcgen understands */
#define FKCG_IDENT_MAX                                                                             \
    63 /* bytes of a name a contract gives (kernel, field,
                                             * tensor, op kind, path segment): C guarantees 63
                                             * significant characters of an internal name */
#define FKCG_C_IDENT_MAX                                                                           \
    128 /* bytes of an identifier the back ends print: a
                                             * contract's name with fkcgen's prefixes and
                                             * suffixes, or its snake_case form */
#define FKCG_STR_(x) #x
#define FKCG_STR(x) FKCG_STR_(x) /* a limit as text, for messages */
/* The rule of a name a contract gives, as messages state it. */
#define FKCG_IDENT_RULE                                                                            \
    "letters, digits and _, not starting with a digit or _, at most " FKCG_STR(                    \
        FKCG_IDENT_MAX) " bytes"

#endif /* FKCG_CONFIG_H */
