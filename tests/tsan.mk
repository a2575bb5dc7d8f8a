# tests/tsan.mk — the runtime's threads under ThreadSanitizer (fragment of ../Makefile).
#   make tsan              libfkc's test build and the threaded tests rebuilt in $(TSAN_BUILD)
#                          with gcc's -fsanitize=thread (libtsan2, which gcc-12 depends on),
#                          then run on lavapipe with the validation layer; any report is fatal
#                          (halt_on_error). tests/tsan.supp justifies each suppression: none is
#                          for fkc's code.
#   make check-threads-20  the threaded test (the normal build) 20 times in a row.
# Why gcc's TSan: the suite's compiler is gcc (make sanitize instruments with it too), its
# runtime is the shared libtsan.so.2, which intercepts the pthread and libc calls of the
# uninstrumented shared objects the Vulkan loader opens (lavapipe, the validation layer) as
# well as ours, and it needs no package beyond gcc's. clang-14's TSan works here too
# (`make tsan TSAN_CC=clang`), and reports the same.
# CI (.ci/run) runs both.

TSAN_BUILD ?= build/tsan
TSAN_CC    ?= gcc
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
TSAN_TESTS := test_threads test_async test_misuse
TSAN_ENV    = LD_PRELOAD=$(CURDIR)/$(SAN_KEEP) TSAN_OPTIONS=suppressions=$(CURDIR)/tests/tsan.supp:halt_on_error=1:exitcode=66:second_deadlock_stack=1:print_suppressions=0

.PHONY: tsan check-threads-20
tsan: $(SAN_KEEP)
	@sh scripts/deps.sh
	@$(MAKE) --no-print-directory BUILD=$(TSAN_BUILD) CC='$(TSAN_CC) $(TSAN_FLAGS)' \
	    OPT='-O1 -g $(TSAN_FLAGS)' $(addprefix $(TSAN_BUILD)/tests/runtime/,$(TSAN_TESTS))
	@for t in $(TSAN_TESTS); do echo "== tsan: $$t"; \
	  $(TSAN_ENV) timeout -k 10 $(RT_TEST_TIMEOUT) $(TSAN_BUILD)/tests/runtime/$$t || \
	  { echo "tsan: $$t failed"; exit 1; }; done
	@echo "tsan: $(TSAN_TESTS) passed under ThreadSanitizer ($(TSAN_CC), $(TSAN_BUILD))"

check-threads-20: $(BUILD)/tests/runtime/test_threads
	@for i in $$(seq 1 20); do \
	  timeout -k 10 $(RT_TEST_TIMEOUT) $(BUILD)/tests/runtime/test_threads > $(BUILD)/threads-run.log 2>&1 || \
	  { cat $(BUILD)/threads-run.log; echo "check-threads-20: run $$i of 20 failed"; exit 1; }; \
	done
	@echo "check-threads-20: the threaded test passed 20 runs in a row"
