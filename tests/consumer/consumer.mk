# tests/consumer/consumer.mk — fkc as an installed package (fragment of ../../Makefile), all
# part of `make test`, each in a temporary directory:
#   check-consumer  tests/consumer/check.sh: docs/consumers.md's commands, examples/c-backend
#                   built against a moved DESTDIR install (no-op and contract-edit rebuilds),
#                   stale generated/runtime pairings refused at compile and link time, two
#                   providers in one program
#   check-exports   tests/consumer/exports.sh: libfkc.so.N's SONAME, its exports = the public
#                   headers' declarations, libfkc.a PIC, runtime/abi-history, the version copies
#   check-install   tests/consumer/install.sh: make install's files in Debian's multiarch
#                   layout, the .pc files at work, make uninstall leaving nothing behind
#   check-cmake     tests/consumer/cmake.sh: examples/cmake-backend through find_package(fkc
#                   CONFIG) and fkc_generate with Ninja and Unix Makefiles (no-op and
#                   contract-edit rebuilds), fkc::fkc_static, LANG rust

.PHONY: check-consumer check-exports check-install check-cmake
check-consumer: installable
	@BUILD='$(BUILD)' sh tests/consumer/check.sh "$(CURDIR)"

check-exports: $(LIBFKC) $(LIBFKC_SO) $(LIBFKC_LINK) $(BUILD)/fkcgen $(FKC_RUN)
	@sh tests/consumer/exports.sh "$(CURDIR)" $(BUILD)

check-install: installable
	@BUILD='$(BUILD)' sh tests/consumer/install.sh "$(CURDIR)"

check-cmake: installable
	@BUILD='$(BUILD)' sh tests/consumer/cmake.sh "$(CURDIR)"

TEST_TARGETS += check-consumer check-exports check-install check-cmake
