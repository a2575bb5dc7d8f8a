# fkcgen/gen.mk — regenerates generated/ and checks drift (fragment of ../Makefile).
