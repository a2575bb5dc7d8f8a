# fkcgen/fkcgen.mk — builds build/fkcgen (fragment of ../Makefile). Generation rules and the
# drift check live in fkcgen/gen.mk.
include fkcgen/gen.mk
