/* injection_strings.h — contract strings built to break a careless emitter: quotes,
 * backslashes, comment closers, newlines, trigraphs, non-ASCII bytes. Shared by the code
 * that puts them into a binding table and the test that reads them back from compiled code. */
#ifndef TESTS_GEN_INJECTION_STRINGS_H
#define TESTS_GEN_INJECTION_STRINGS_H

#define INJ_BLURB                                                                                  \
    "say \"hi\" */ int evil(void); /* \\ back\\slash\nnew line ?\?/ ?\?= ?\?' caf\xc3\xa9 \t tab"
#define INJ_NOTES "notes */ #include <stdlib.h>\n\"); system(\"rm -rf /\"); //\\\n?\?/\n"
#define INJ_SOURCE "vulkan-\"slang\"\\*/"
#define INJ_FILE "contracts/odd */ name ?\?/.md"

#endif
