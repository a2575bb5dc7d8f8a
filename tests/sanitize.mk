# tests/sanitize.mk — the whole suite under sanitizers, and fkc's programs under valgrind
# (fragment of ../Makefile).
#   make sanitize   `make check` (cmocka programs, python checks, the README example) rebuilt in
#                   $(SAN_BUILD) with ASan + UBSan, every finding fatal (-fno-sanitize-recover=all,
#                   LeakSanitizer on at exit). The Vulkan tests run on lavapipe with the validation
#                   layer, as in `make check`; the layer's own leaks are suppressed by
#                   tests/lsan.supp, justified there. All of `make check` but the Rust crate's
#                   cargo tests (rust/rust.mk says why: SANITIZE=1 leaves them out).
#   make valgrind   the normal build's fkcgen (check, dump --json, gen) over every contract and
#                   corpus case, and fkc-run on the CPU reference and on lavapipe, under memcheck:
#                   no error and no definite or indirect leak (tests/valgrind.supp: one report
#                   inside glibc's dynamic loader, justified there). scripts/valgrind.sh runs it.
# Neither is part of `make test`; CI (.ci/run) runs `make sanitize`.

SAN_BUILD  ?= build/sanitize
SAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_KEEP    = $(SAN_BUILD)/keep_libs.so
# verify_asan_link_order=0: SAN_KEEP is preloaded before the ASan runtime; it defines dlclose only.
SAN_ENV     = LD_PRELOAD=$(CURDIR)/$(SAN_KEEP) \
              ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:verify_asan_link_order=0 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
              LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

# The checks `make sanitize` leaves out (SANITIZE=1, the Makefile's end), run by `make test`
# only: none runs a program of this build, so a second run could only repeat the first.
#   check-format          clang-format over the sources (the build is not read)
#   check-bench-torch     python3 -m py_compile and --help of runtime/bench/torch_*.py, and their
#                         shapes against fkc_bench.c's text (no program of fkc's runs)
#   check-runtime-layers  runtime/src's call graph from nm of the objects' global symbols and its
#                         functions' lengths from the sources: both properties of the sources (a
#                         call between files is a symbol whatever the flags), the same under ASan
# (The Rust suites are left out by rust/rust.mk, test_growth.py by fkcgen/gen.mk: see there.)
SAN_ONCE := check-format check-bench-torch check-runtime-layers

.PHONY: sanitize valgrind
# The same rules as `make check`, with other variables: the build directory, and the sanitizer
# flags in both CC (so every link line has them) and OPT (so every compile line has them).
sanitize: $(SAN_KEEP)
	@sh scripts/deps.sh
	@$(SAN_ENV) $(MAKE) --no-print-directory BUILD=$(SAN_BUILD) SANITIZE=1 \
	    CC='$(CC) $(SAN_FLAGS)' OPT='-O1 -g $(SAN_FLAGS)' check
	@echo "sanitize: the whole suite passed under ASan + UBSan ($(SAN_BUILD))"

# Built without sanitizers: it is preloaded into every process of the run (compilers, python).
$(SAN_KEEP): tests/sanitize_keep_libs.c
	@mkdir -p $(@D)
	$(CC) -shared -fPIC -O2 -o $@ $<

VALGRIND_DIR = $(BUILD)/valgrind
valgrind: $(BUILD)/fkcgen $(FKC_RUN)
	@sh scripts/deps.sh
	@sh scripts/valgrind.sh $(BUILD)/fkcgen $(FKC_RUN) $(VALGRIND_DIR)
