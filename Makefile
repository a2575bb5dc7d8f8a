# fkc — top-level build. A newcomer needs two commands:
#   make        installs missing packages, builds fkcgen, regenerates generated/, builds the
#               runtime and runs a short demo on the default Vulkan device
#   make test   the same set-up, then every test
# Also: make check-generated (fails when generated/ drifts from contracts/; never regenerates),
# make bench (runtime figures, build/fkc-bench), make bench-gen (fkcgen on 1,000 and 10,000
# sections), make fuzz [FUZZ_SECONDS=N] (libFuzzer: three targets, tests/fuzz.mk),
# make sanitize (the whole suite under ASan + UBSan) and make valgrind (tests/sanitize.mk),
# make clean.
# Each component adds its rules in its own fragment: fkcgen/fkcgen.mk (+ gen.mk),
# runtime/runtime.mk (+ cli.mk), tests/fuzz.mk and tests/sanitize.mk. Flags from pkg-config are
# expanded lazily, after `deps` has run.

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

CONTRACTS := $(sort $(wildcard contracts/*.md contracts/*/*.md))

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
include tests/fuzz.mk
include tests/sanitize.mk


build: $(BUILD_TARGETS)
check: $(TEST_TARGETS)
bench: $(BENCH_TARGETS)

clean:
	rm -rf $(BUILD)
