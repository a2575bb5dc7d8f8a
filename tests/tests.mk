# tests/tests.mk — test rules shared by the components (fragment of ../Makefile).
