# tests/man/man.mk — the man pages docs/man/fkcgen.1, docs/man/fkc-run.1 and docs/man/fkc.3
# (fragment of ../../Makefile): `make check-man` renders each with `man -l`, all groff warnings
# on, and checks that every option of the programs' --help is in its page and every function
# of the public headers in fkc.3 (tests/man/check_man.sh).

.PHONY: check-man
check-man: $(FKCGEN_BIN) $(FKC_RUN)
	sh tests/man/check_man.sh $(FKCGEN_BIN) $(FKC_RUN)

TEST_TARGETS += check-man
