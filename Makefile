# fkc — top-level build. A newcomer needs two commands:
#   make        installs missing packages, builds fkcgen, regenerates generated/, builds the
#               runtime and runs a short demo on the default Vulkan device
#   make test   the same set-up, then every test
# Also: make check-generated (fails when generated/ drifts from contracts/; never regenerates),
# make bench (runtime figures, build/fkc-bench), make bench-gen (fkcgen on 1,000 and 10,000
# sections), make fuzz [FUZZ_SECONDS=N] (libFuzzer: three targets, tests/fuzz.mk),
# make sanitize (the whole suite under ASan + UBSan) and make valgrind (tests/sanitize.mk),
# make install PREFIX=... LIBDIR=... DESTDIR=... and make uninstall (docs/consumers.md), make deb
# (the Debian packages: debian/, runtime/install.mk), make check-format (the C files
# clang-format would change), make clean.
# Each component adds its rules in its own fragment: fkcgen/fkcgen.mk (+ gen.mk),
# runtime/runtime.mk (+ cli.mk, install.mk), rust/rust.mk (the Rust crate's cargo test),
# tests/examples/examples.mk, tests/man/man.mk, tests/consumer/consumer.mk, tests/fuzz.mk and
# tests/sanitize.mk. Flags from pkg-config are expanded lazily, after `deps` has run.

.DEFAULT_GOAL := all
.SUFFIXES:
SHELL := /bin/sh

BUILD      ?= build
CC         ?= cc
PKG_CONFIG ?= pkg-config
PYTHON     ?= /usr/bin/python3
OPT        ?= -O2 -g
WARN       := -Wall -Wextra
# The strict set that generated code must compile under (gcc and clang).
STRICT     := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wmissing-prototypes \
              -Wstrict-prototypes -Werror
CFLAGS_BASE = -std=c11 $(WARN) $(OPT) -D_POSIX_C_SOURCE=200809L
# The test programs' own sources compile warning-free (-Wall -Wextra, the runtime's tests with its
# strict set too): a warning there fails the build. `make TEST_WERROR=` for a newer compiler.
TEST_WERROR ?= -Werror

CONTRACTS := $(sort $(wildcard contracts/*.md contracts/*/*.md))

# Each test program's counts go to $(TEST_RESULTS) through $(COUNT) KIND NAME CMD... (KIND:
# cmocka, cargo or py: scripts/test_count.sh); `make check` sums them.
TEST_RESULTS = $(BUILD)/test-results
COUNT        = sh scripts/test_count.sh $(TEST_RESULTS)

# Targets every fragment appends to.
BUILD_TARGETS :=   # what `make build` produces
TEST_TARGETS  :=   # phony targets `make check` runs, in order
BENCH_TARGETS :=   # phony targets `make bench` runs

.PHONY: all test deps build check demo bench clean
all:
	@sh scripts/deps.sh
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory demo

test:
	@sh scripts/deps.sh
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory check

deps:
	@sh scripts/deps.sh

$(BUILD):
	@mkdir -p $@

include fkcgen/fkcgen.mk
include runtime/runtime.mk
include tests/examples/examples.mk
include tests/man/man.mk
include rust/rust.mk
include tests/consumer/consumer.mk
include tests/vulkan-host/vulkan_host.mk
include tests/fuzz.mk
include tests/sanitize.mk
include tests/tsan.mk


build: $(BUILD_TARGETS)
bench: $(BENCH_TARGETS)

# `make check` runs every test target, each even when one before it failed, and ends with one
# line "N passed, M failed" (scripts/test_summary.sh) summed over every suite: each test
# program's own counts (cmocka's, cargo's, the Python checks' lines: scripts/test_count.sh,
# through $(COUNT) in the fragments' recipes), and one test for each target that counts
# nothing itself (a shell check). A target that fails without a failed test counted adds one
# failed test. The exit status is non-zero when anything failed.
check:
	@mkdir -p $(BUILD); rm -f $(TEST_RESULTS); rc=0; \
	for t in $(TEST_TARGETS); do \
	  n=$$(cat $(TEST_RESULTS) 2>/dev/null | wc -l); \
	  if $(MAKE) --no-print-directory $$t; then ok=1; else ok=0; rc=1; fi; \
	  new=$$(tail -n +$$((n + 1)) $(TEST_RESULTS) 2>/dev/null); \
	  if [ -z "$$new" ]; then echo "$$t $$ok $$((1 - ok)) 0" >> $(TEST_RESULTS); \
	  elif [ $$ok = 0 ] && ! echo "$$new" | awk '$$3 > 0 { f = 1 } END { exit !f }'; then \
	    echo "$$t 0 1 0" >> $(TEST_RESULTS); fi; \
	done; \
	sh scripts/test_summary.sh $(TEST_RESULTS) && [ $$rc = 0 ]

clean:
	rm -rf $(BUILD)

# The C files clang-format (.clang-format: 100 columns, the tree's style) would change, one a
# line; exit 1 when there is any. Generated code and golden files are left out. Part of
# `make test`. Tables laid out by hand (the X-macro lists, names.c's packed table) sit between
# /* clang-format off */ and /* clang-format on */.
FORMAT_FILES = $(filter-out generated/% tests/gen/golden/%,\
                 $(shell git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]'))
.PHONY: check-format
check-format:
	@sh scripts/deps.sh
	@rc=0; for f in $(FORMAT_FILES); do \
	  clang-format --style=file "$$f" | cmp -s "$$f" - || { echo "check-format: $$f"; rc=1; }; \
	done; [ $$rc = 0 ] && echo "check-format: $(words $(FORMAT_FILES)) C files as clang-format writes them"; \
	exit $$rc
TEST_TARGETS += check-format

# `make sanitize` (SANITIZE=1) runs every test target but those of SAN_ONCE (tests/sanitize.mk
# says why each runs once, in `make test`).
ifneq ($(SANITIZE),)
TEST_TARGETS := $(filter-out $(SAN_ONCE),$(TEST_TARGETS))
endif
