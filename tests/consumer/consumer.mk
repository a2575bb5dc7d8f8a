# tests/consumer/consumer.mk — fkc as an installed package (fragment of ../../Makefile):
# `make check-consumer` (part of `make test`) runs tests/consumer/check.sh: docs/consumers.md's
# commands, examples/c-backend built against a moved DESTDIR install (no-op and contract-edit
# rebuilds), stale generated/runtime pairings refused at compile and link time, two providers
# in one program. Everything happens in a temporary directory.

.PHONY: check-consumer
check-consumer: $(BUILD)/fkcgen $(BUILD)/fkc-run $(BUILD)/libfkc.a
	@BUILD='$(BUILD)' sh tests/consumer/check.sh "$(CURDIR)"

TEST_TARGETS += check-consumer
