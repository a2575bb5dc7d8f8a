# tests/fuzz.mk — libFuzzer targets (clang -fsanitize=fuzzer,address,undefined; fragment of
# ../Makefile). `make fuzz FUZZ_SECONDS=N` runs each target N seconds (default 60), one after the
# other, with its corpus in $(BUILD)/fuzz/corpus/<target> (kept between runs, never committed):
#   load  tests/fkcgen/fuzz_load.c  fkcgen's front end: load → yaml → shape → validate → bind, dump
#   emit  tests/fkcgen/fuzz_emit.c  the front end + the C back end as gen runs it (two emissions
#                                   must agree, gen's checks must accept what check accepts), and
#                                   the first FUZZ_COMPILE_MAX distinct outputs it accepts compiled
#                                   with $(STRICT) by gcc and clang: any that does not compile is a
#                                   crash (accepted means it compiles)
#   npy   tests/cli/fuzz_npy.c      fkc-run's .npy reader and the CPU reference ops
# The contract targets start from contracts/, the corpora of tests/fkcgen and tests/gen, and read
# a dictionary printed from fkcgen's schema table (tests/fkcgen/fuzz_dict.c); the .npy target's
# seeds are written by NumPy (scripts/fuzz-npy-seeds.py). A crash is saved as
# $(BUILD)/fuzz/crash-<target>-*; reproduce it with `$(BUILD)/fuzz/fuzz_<target> FILE`.
# `make check` compiles the accepted contracts of tests/fkcgen/fuzz_accepted/ the same way.

FUZZ_SECONDS  ?= 60
FUZZ_DIR       = $(BUILD)/fuzz
FUZZ_CC       ?= clang
FUZZ_CFLAGS    = -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L \
                 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_TARGETS  := load emit npy
# max_len: above the largest real contract (contracts/vulkan/write_slice.md, 7,898 bytes).
FUZZ_MAXLEN_load := 65536
FUZZ_MAXLEN_emit := 65536
FUZZ_MAXLEN_npy  := 16384
FUZZ_DICT_load := $(FUZZ_DIR)/contract.dict
FUZZ_DICT_emit := $(FUZZ_DIR)/contract.dict
FUZZ_SEED_CONTRACTS := $(CONTRACTS) $(wildcard tests/fkcgen/cases/*.md tests/fkcgen/cases/*/*.md \
                         tests/fkcgen/seed/*.md \
                         tests/gen/cases/*.md tests/fkcgen/fuzz_accepted/*.md)

FUZZ_FRONT_SRCS := $(filter-out fkcgen/cli/% fkcgen/back/%,$(FKCGEN_SRCS)) fkcgen/back/json.c \
                   fkcgen/back/plan.c
FUZZ_EMIT_SRCS  := $(filter-out fkcgen/cli/main.c fkcgen/back/schema_doc.c,$(FKCGEN_SRCS))
FUZZ_NPY_SRCS   := runtime/tools/npy.c runtime/src/reference.c runtime/src/error.c \
                   runtime/src/types.c

$(FUZZ_DIR)/fuzz_load: tests/fkcgen/fuzz_load.c $(FUZZ_FRONT_SRCS) $(wildcard fkcgen/*.h fkcgen/*/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FKCGEN_INC) $(shell $(PKG_CONFIG) --cflags $(FKCGEN_PKGS)) \
	    -o $@ $(filter %.c,$^) $(FKCGEN_LIBS)

$(FUZZ_DIR)/fuzz_emit: tests/fkcgen/fuzz_emit.c $(FUZZ_EMIT_SRCS) $(wildcard fkcgen/*.h fkcgen/*/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FKCGEN_INC) $(shell $(PKG_CONFIG) --cflags $(FKCGEN_PKGS)) \
	    -DFUZZ_STRICT='"$(STRICT)"' -DFUZZ_INCLUDE='"$(abspath runtime/include)"' \
	    -o $@ $(filter %.c,$^) $(FKCGEN_LIBS)

$(FUZZ_DIR)/fuzz_npy: tests/cli/fuzz_npy.c $(FUZZ_NPY_SRCS) $(wildcard runtime/tools/npy.h \
                      runtime/include/fkc/*.h runtime/src/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Iruntime/include -Iruntime/tools -Iruntime/src \
	    -o $@ $(filter %.c,$^)

# The dictionary, printed from the schema table by a plain build of tests/fkcgen/fuzz_dict.c.
$(FUZZ_DIR)/fuzz_dict: tests/fkcgen/fuzz_dict.c $(FKCGEN_LIBOBJS)
	@mkdir -p $(@D)
	$(CC) $(FKCGEN_CFLAGS) -o $@ $< $(FKCGEN_LIBOBJS) $(FKCGEN_LIBS)

$(FUZZ_DIR)/contract.dict: $(FUZZ_DIR)/fuzz_dict
	$(FUZZ_DIR)/fuzz_dict > $@.tmp && mv $@.tmp $@

# Seeds: the contract files (copied, so libFuzzer reads no .expected file) and NumPy's .npy files.
$(FUZZ_DIR)/seed/contracts: $(FUZZ_SEED_CONTRACTS)
	@rm -rf $@ && mkdir -p $@
	@for f in $(FUZZ_SEED_CONTRACTS); do cp $$f $@/$$(echo $$f | tr / _); done

$(FUZZ_DIR)/seed/npy: scripts/fuzz-npy-seeds.py
	@rm -rf $@
	$(PYTHON) scripts/fuzz-npy-seeds.py $@

FUZZ_SEED_load := $(FUZZ_DIR)/seed/contracts
FUZZ_SEED_emit := $(FUZZ_DIR)/seed/contracts
FUZZ_SEED_npy  := $(FUZZ_DIR)/seed/npy

.PHONY: fuzz fuzz-build $(FUZZ_TARGETS:%=fuzz-%) check-fuzz-accepted
fuzz: $(FUZZ_TARGETS:%=fuzz-%)

# Everything the fuzz-% runs need, and no run: CI builds it with -j2 first, then runs `make
# fuzz` without -j, so that each target still has the machine for its FUZZ_SECONDS.
fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) $(FUZZ_DIR)/contract.dict \
            $(FUZZ_DIR)/seed/contracts $(FUZZ_DIR)/seed/npy $(FKCGEN_BIN)

# One target: fuzz for FUZZ_SECONDS into its corpus, reading the seeds too; libFuzzer's final
# statistics are kept in $(FUZZ_DIR)/<target>.log. FUZZ_FLAGS adds options (e.g. -jobs).
$(FUZZ_TARGETS:%=fuzz-%): fuzz-%: $(FUZZ_DIR)/fuzz_% $(FUZZ_DIR)/contract.dict $(FUZZ_DIR)/seed/contracts \
                                  $(FUZZ_DIR)/seed/npy $(FKCGEN_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus/$*
	$(FUZZ_ENV_$*) $(FUZZ_DIR)/fuzz_$* -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAXLEN_$*) -timeout=10 \
	    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/crash-$*- \
	    $(if $(FUZZ_DICT_$*),-dict=$(FUZZ_DICT_$*)) $(FUZZ_FLAGS) \
	    $(FUZZ_DIR)/corpus/$* $(FUZZ_SEED_$*) > $(FUZZ_DIR)/$*.log 2>&1 || \
	    { tail -60 $(FUZZ_DIR)/$*.log; exit 1; }
	@grep -E 'DONE|stat::number_of_executed_units|stat::peak_rss|^fuzz_emit: compiled' \
	    $(FUZZ_DIR)/$*.log | sed 's/^/fuzz-$*: /'
	@echo "fuzz-$*: corpus $$(ls $(FUZZ_DIR)/corpus/$* | wc -l) files"

# The emitter compiles the first FUZZ_COMPILE_MAX distinct outputs it accepts (seeds and
# mutations alike, in the order it runs them), within its FUZZ_SECONDS; the count is in its log.
FUZZ_COMPILE_MAX ?= 100
FUZZ_ENV_emit = FUZZ_COMPILE_MAX=$(FUZZ_COMPILE_MAX)

# In `make check`: the checked-in accepted inputs (fuzz-found and hand-picked) and the real
# contracts, generated one by one and compiled under the strict flags by gcc and clang.
check-fuzz-accepted: $(FKCGEN_BIN)
	@STRICT='$(STRICT)' sh scripts/fuzz-compile.sh --all $(FKCGEN_BIN) $(CONTRACTS) \
	    $(wildcard tests/fkcgen/fuzz_accepted/*.md)

TEST_TARGETS += check-fuzz-accepted
