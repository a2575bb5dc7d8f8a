# fkcgen/fkcgen.mk — builds build/fkcgen and regenerates generated/ (fragment of ../Makefile).
