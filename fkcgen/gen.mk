# fkcgen/gen.mk — regenerates generated/ and checks drift (fragment of ../Makefile).
# `make` reruns `fkcgen gen` when a contract or fkcgen changed; fkcgen rewrites only the files
# whose bytes change, so an unchanged output keeps its mtime and nothing downstream rebuilds.
# `make check-generated` only compares (fkcgen gen --check): it never regenerates first.
# The tests of the back end (tests/gen/) and `make bench-gen` are here too.

GEN_DIR     := generated
GEN_H       := $(GEN_DIR)/fkc_bindings.h
GEN_C       := $(GEN_DIR)/fkc_bindings.c
GEN_FILES   := $(GEN_H) $(GEN_C)
GEN_STAMP    = $(BUILD)/gen.stamp
GEN_DEPFILE  = $(BUILD)/gen.d
FKCGEN_BIN   = $(BUILD)/fkcgen
GEN_CMD      = $(FKCGEN_BIN) gen --out-dir $(GEN_DIR) --depfile $(GEN_DEPFILE) $(CONTRACTS)
# The Rust module of the same contracts (fkcgen gen --lang rust), beside the C files.
GEN_RS       := $(GEN_DIR)/fkc_bindings.rs
GEN_RS_DEPFILE = $(BUILD)/gen-rs.d
GEN_RS_CMD   = $(FKCGEN_BIN) gen --lang rust --out-dir $(GEN_DIR) --depfile $(GEN_RS_DEPFILE) \
               $(CONTRACTS)

GEN_LIST     = $(BUILD)/gen.contracts

$(GEN_STAMP): $(FKCGEN_BIN) $(CONTRACTS) $(GEN_LIST)
	@mkdir -p $(@D)
	$(GEN_CMD)
	$(GEN_RS_CMD)
	@touch $@

# The list of contracts, rewritten only when it changes: removing a contract regenerates too.
$(GEN_LIST): FORCE
	@mkdir -p $(@D)
	@echo '$(CONTRACTS)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

.PHONY: FORCE
FORCE:

# The outputs come with the stamp; a deleted one is made again.
$(GEN_FILES): $(GEN_STAMP)
	@test -f $@ || $(GEN_CMD)
$(GEN_RS): $(GEN_STAMP)
	@test -f $@ || $(GEN_RS_CMD)

-include $(GEN_DEPFILE) $(GEN_RS_DEPFILE)

BUILD_TARGETS += $(GEN_STAMP)

# The providers' reference pages (fkcgen doc), Markdown and HTML, with the conform results
# recorded on lavapipe beside the claims: committed in docs/generated/ like generated/.
# `make conform-results` records the results again (fkc-run conform on the default device).
# The pages are of the repository's own contracts, whatever CONTRACTS= a caller gives (the
# tests point check-generated at copies of generated/ and its contracts).
DOC_DIR      := docs/generated
DOC_RESULTS  := $(DOC_DIR)/conform-lavapipe.json
DOC_CONTRACTS := $(sort $(wildcard contracts/*.md contracts/*/*.md))
DOC_CMD       = $(FKCGEN_BIN) doc --html --results $(DOC_RESULTS) --out-dir $(DOC_DIR) \
                $(DOC_CONTRACTS)
DOC_STAMP     = $(BUILD)/doc.stamp
$(DOC_STAMP): $(FKCGEN_BIN) $(DOC_CONTRACTS) $(DOC_RESULTS)
	@mkdir -p $(@D)
	$(DOC_CMD)
	@touch $@
BUILD_TARGETS += $(DOC_STAMP)

.PHONY: conform-results
conform-results: $(FKCGEN_BIN) $(BUILD)/fkc-run
	$(BUILD)/fkc-run conform --validate --format json $(DOC_CONTRACTS) > $(DOC_RESULTS).tmp && \
	  mv $(DOC_RESULTS).tmp $(DOC_RESULTS)

.PHONY: check-generated
check-generated: $(FKCGEN_BIN)
	$(FKCGEN_BIN) gen --check --out-dir $(GEN_DIR) $(CONTRACTS)
	$(FKCGEN_BIN) gen --check --lang rust --out-dir $(GEN_DIR) $(CONTRACTS)
	$(FKCGEN_BIN) doc --check --html --results $(DOC_RESULTS) --out-dir $(DOC_DIR) $(DOC_CONTRACTS)

# ---- tests (tests/gen/) ----------------------------------------------------------------------
GEN_TDIR        = $(BUILD)/tests/gen
CMOCKA_CFLAGS   = $(shell $(PKG_CONFIG) --cflags cmocka)
CMOCKA_LIBS     = $(shell $(PKG_CONFIG) --libs cmocka)
GEN_TEST_CFLAGS = $(CFLAGS_BASE) $(TEST_WERROR) -Iruntime/include $(CMOCKA_CFLAGS)
# The emitter hashes the header (the pair hash) with libxxhash.
GEN_XXH_CFLAGS  = $(shell $(PKG_CONFIG) --cflags libxxhash)
GEN_XXH_LIBS    = $(shell $(PKG_CONFIG) --libs libxxhash)
# The emitter alone, on a hand-built table: no contract parsing involved.
GEN_BACK_SRCS   = fkcgen/back/c.c fkcgen/back/rust.c fkcgen/back/json.c fkcgen/back/plan.c \
                  fkcgen/back/check.c fkcgen/back/render.c fkcgen/back/backends.c fkcgen/cli/udiff.c \
                  fkcgen/core/arena.c fkcgen/core/buf.c fkcgen/core/diag.c fkcgen/core/report.c fkcgen/core/expr.c \
                  fkcgen/core/schema.c fkcgen/core/model.c fkcgen/core/names.c
# Their objects as build/fkcgen's are compiled (the same flags): the test programs link them
# rather than compiling the sources again, each.
GEN_BACK_OBJS   = $(patsubst fkcgen/%.c,$(BUILD)/obj/fkcgen/%.o,$(GEN_BACK_SRCS))
GEN_EMIT_SRCS   = tests/gen/test_emit.c tests/gen/seed_table.c

$(GEN_TDIR):
	@mkdir -p $@

# generated/ compiled with the strict flags, by each compiler, then linked with the test
# registry and the runtime's real byte-width wrappers (libfkc.a holds no generated code).
$(GEN_TDIR)/fkc_bindings.%.o: $(GEN_C) $(GEN_H) | $(GEN_TDIR)
	$* $(STRICT) -Iruntime/include -c $(GEN_C) -o $@
.SECONDARY: $(GEN_TDIR)/fkc_bindings.gcc.o $(GEN_TDIR)/fkc_bindings.clang.o # kept between runs

$(GEN_TDIR)/test_generated_%: tests/gen/test_generated.c $(GEN_TDIR)/fkc_bindings.%.o \
                              $(GEN_H) $(BUILD)/libfkc.a | $(GEN_TDIR)
	$* $(GEN_TEST_CFLAGS) -I$(GEN_DIR) tests/gen/test_generated.c \
	    $(GEN_TDIR)/fkc_bindings.$*.o -o $@ $(LIBFKC) $(CMOCKA_LIBS) $(RT_LIBS)

# The headers the test programs that compile fkcgen's back-end sources themselves read: a
# change of the model's structs must rebuild them (a stale emit_fixture read new fields wrong).
GEN_BACK_HDRS = fkcgen/back/back.h fkcgen/core/model.h fkcgen/core/config.h fkcgen/core/buf.h \
                fkcgen/core/internal.h fkcgen/core/report.h

$(GEN_TDIR)/test_emit: $(GEN_EMIT_SRCS) $(GEN_BACK_OBJS) $(GEN_BACK_HDRS) tests/gen/seed_table.h \
                       tests/gen/golden.h | $(GEN_TDIR)
	$(CC) $(GEN_TEST_CFLAGS) $(GEN_XXH_CFLAGS) $(FKCGEN_INC) -Itests/gen $(GEN_EMIT_SRCS) \
	    $(GEN_BACK_OBJS) -o $@ $(CMOCKA_LIBS) $(GEN_XXH_LIBS)


# The schema's vocabularies as the runtime's headers restate them (tests/gen/test_vocab.c),
# against fkcgen's schema and libfkc's names.
$(GEN_TDIR)/test_vocab: tests/gen/test_vocab.c $(GEN_BACK_OBJS) $(GEN_BACK_HDRS) \
                        runtime/include/fkc/fkc_tables.h $(BUILD)/libfkc.a | $(GEN_TDIR)
	$(CC) $(GEN_TEST_CFLAGS) $(GEN_XXH_CFLAGS) $(FKCGEN_INC) tests/gen/test_vocab.c \
	    $(GEN_BACK_OBJS) -o $@ $(LIBFKC) $(CMOCKA_LIBS) $(GEN_XXH_LIBS) $(RT_LIBS)

# The Rust back end on the same hand-built tables (golden tests/gen/golden/seed_table.rs).
GEN_EMIT_RUST_SRCS = tests/gen/test_emit_rust.c tests/gen/seed_table.c

$(GEN_TDIR)/test_emit_rust: $(GEN_EMIT_RUST_SRCS) $(GEN_BACK_OBJS) $(GEN_BACK_HDRS) \
                            tests/gen/seed_table.h tests/gen/golden.h tests/gen/injection_strings.h | $(GEN_TDIR)
	$(CC) $(GEN_TEST_CFLAGS) $(GEN_XXH_CFLAGS) $(FKCGEN_INC) -Itests/gen $(GEN_EMIT_RUST_SRCS) \
	    $(GEN_BACK_OBJS) -o $@ $(CMOCKA_LIBS) $(GEN_XXH_LIBS)

# The injection table (tests/gen/injection_strings.h) through the emitter, compiled strictly:
# every hostile string must read back byte for byte.
GEN_FIX_SRCS = tests/gen/emit_fixture.c tests/gen/seed_table.c

$(GEN_TDIR)/emit_fixture: $(GEN_FIX_SRCS) $(GEN_BACK_OBJS) $(GEN_BACK_HDRS) tests/gen/seed_table.h \
                          tests/gen/injection_strings.h | $(GEN_TDIR)
	$(CC) $(CFLAGS_BASE) $(TEST_WERROR) $(GEN_XXH_CFLAGS) $(FKCGEN_INC) -Itests/gen $(GEN_FIX_SRCS) \
	    $(GEN_BACK_OBJS) -o $@ $(GEN_XXH_LIBS)

$(GEN_TDIR)/inj/fkc_bindings.c: $(GEN_TDIR)/emit_fixture
	@mkdir -p $(@D)
	$(GEN_TDIR)/emit_fixture injection $(@D)

$(GEN_TDIR)/test_injection_%: tests/gen/test_injection.c tests/gen/fake_wrappers.c \
                              $(GEN_TDIR)/inj/fkc_bindings.c
	$* $(STRICT) -Iruntime/include -c $(GEN_TDIR)/inj/fkc_bindings.c -o $@.gen.o
	$* $(GEN_TEST_CFLAGS) -I$(GEN_TDIR)/inj -Itests/gen tests/gen/test_injection.c \
	    tests/gen/fake_wrappers.c $@.gen.o -o $@ $(CMOCKA_LIBS)

# The injection contract (tests/gen/cases/injection.md) through the whole of fkcgen.
$(GEN_TDIR)/injc/fkc_bindings.c: tests/gen/cases/injection.md $(FKCGEN_BIN)
	@mkdir -p $(@D)
	$(FKCGEN_BIN) gen --out-dir $(@D) tests/gen/cases/injection.md

$(GEN_TDIR)/test_injc_%: tests/gen/test_injection_contract.c tests/gen/fake_wrappers.c \
                         $(GEN_TDIR)/injc/fkc_bindings.c
	$* $(STRICT) -Iruntime/include -c $(GEN_TDIR)/injc/fkc_bindings.c -o $@.gen.o
	$* $(GEN_TEST_CFLAGS) -I$(GEN_TDIR)/injc tests/gen/test_injection_contract.c \
	    tests/gen/fake_wrappers.c $@.gen.o -o $@ $(CMOCKA_LIBS)

# Siblings that differ only in kernel_source (tests/gen/cases/siblings/): both
# bindings generated, compiled strictly, each found by fkc_binding_lookup.
GEN_SIB_CASE = $(sort $(wildcard tests/gen/cases/siblings/*.md))
$(GEN_TDIR)/sib/fkc_bindings.c: $(GEN_SIB_CASE) $(FKCGEN_BIN)
	@mkdir -p $(@D)
	$(FKCGEN_BIN) gen --out-dir $(@D) $(GEN_SIB_CASE)

$(GEN_TDIR)/test_siblings_%: tests/gen/test_siblings.c $(GEN_TDIR)/sib/fkc_bindings.c
	$* $(STRICT) -Iruntime/include -c $(GEN_TDIR)/sib/fkc_bindings.c -o $@.gen.o
	$* $(GEN_TEST_CFLAGS) -I$(GEN_TDIR)/sib tests/gen/test_siblings.c $@.gen.o -o $@ \
	    $(CMOCKA_LIBS)

# A selected build (gen --select, tests/gen/cases/select/one.txt: WriteSlice on F32), compiled
# strictly and linked with the runtime's wrappers: one binding, the others refused.
GEN_SEL_CASE = tests/gen/cases/select/one.txt
$(GEN_TDIR)/sel/fkc_bindings.c: $(GEN_SEL_CASE) contracts/vulkan/write_slice.md $(FKCGEN_BIN)
	@mkdir -p $(@D)
	$(FKCGEN_BIN) gen --select $(GEN_SEL_CASE) --out-dir $(@D) contracts/vulkan/write_slice.md

$(GEN_TDIR)/test_select_%: tests/gen/test_select.c $(GEN_TDIR)/sel/fkc_bindings.c $(BUILD)/libfkc.a
	$* $(STRICT) -Iruntime/include -c $(GEN_TDIR)/sel/fkc_bindings.c -o $@.gen.o
	$* $(GEN_TEST_CFLAGS) -I$(GEN_TDIR)/sel tests/gen/test_select.c $@.gen.o -o $@ \
	    $(LIBFKC) $(CMOCKA_LIBS) $(RT_LIBS)

# gen --shards (tests/gen/test_shards.c): a corpus of 60 sections, 10 op kinds bound by 6 kernel
# sources each, generated as one source (prefix a), 4 shards (b) and 16 shards (c, six empty),
# every source and the --emit-stubs wrappers compiled strictly, linked into one test.
GEN_SH = $(GEN_TDIR)/shards
$(GEN_SH)/stamp: scripts/bench-gen-corpus.py contracts/vulkan/write_slice.md $(FKCGEN_BIN)
	rm -rf $(GEN_SH) && mkdir -p $(GEN_SH)
	$(PYTHON) scripts/bench-gen-corpus.py contracts/vulkan/write_slice.md 60 $(GEN_SH)/corpus 10 \
	    --providers --ops 10 > $(GEN_SH)/files
	$(FKCGEN_BIN) gen --prefix a --out-dir $(GEN_SH)/a --emit-stubs $(GEN_SH)/a_stubs.c \
	    $$(cat $(GEN_SH)/files)
	$(FKCGEN_BIN) gen --prefix b --shards 4 --out-dir $(GEN_SH)/b --emit-stubs $(GEN_SH)/b_stubs.c \
	    $$(cat $(GEN_SH)/files)
	$(FKCGEN_BIN) gen --prefix c --shards 16 --out-dir $(GEN_SH)/c --emit-stubs $(GEN_SH)/c_stubs.c \
	    $$(cat $(GEN_SH)/files)
	touch $@

$(GEN_TDIR)/test_shards_%: tests/gen/test_shards.c $(GEN_SH)/stamp
	rm -rf $@.o && mkdir -p $@.o
	for s in a b c; do for f in $(GEN_SH)/$$s/*.c $(GEN_SH)/$${s}_stubs.c; do \
	    $* $(STRICT) -Iruntime/include -I$(GEN_SH)/$$s -c $$f -o $@.o/$$s-$$(basename $$f .c).o || exit 1; \
	done; done
	$* $(GEN_TEST_CFLAGS) -I$(GEN_SH)/a -I$(GEN_SH)/b -I$(GEN_SH)/c tests/gen/test_shards.c \
	    $@.o/*.o -o $@ $(CMOCKA_LIBS)

# fkcgen gen as a program (order, locale, cwd, --check, make check-generated, mtimes, errors).
$(GEN_TDIR)/test_cli: tests/gen/test_cli.c | $(GEN_TDIR)
	$(CC) $(CFLAGS_BASE) $(TEST_WERROR) $(CMOCKA_CFLAGS) tests/gen/test_cli.c -o $@ $(CMOCKA_LIBS)

# A qsort that orders ties the other way (tests/gen/qsort_reverse.c), preloaded by test_cli into
# gen, whose output must not change; and a program that shows the preload takes effect.
$(GEN_TDIR)/qsort_reverse.so: tests/gen/qsort_reverse.c | $(GEN_TDIR)
	$(CC) -shared -fPIC -O2 -o $@ $<
$(GEN_TDIR)/qsort_probe: tests/gen/qsort_probe.c | $(GEN_TDIR)
	$(CC) $(CFLAGS_BASE) $(TEST_WERROR) -o $@ $<

# fkcgen with its test hook (cli/gen.c, FKCG_TEST_HOOKS), for test_cli alone: the fkcgen that
# `make` builds and installs has none.
$(GEN_TDIR)/gen-hooks.o: fkcgen/cli/gen.c | $(GEN_TDIR)
	$(CC) $(FKCGEN_CFLAGS) -DFKCG_TEST_HOOKS -c $< -o $@
$(GEN_TDIR)/fkcgen-hooks: $(GEN_TDIR)/gen-hooks.o $(filter-out %/cli/gen.o,$(FKCGEN_OBJS))
	$(CC) $(FKCGEN_CFLAGS) -o $@ $^ $(FKCGEN_LIBS)

# A back end of the test's own (tests/gen/python_backend.c: Python tables through the walk), in
# one file, with its row added by FKCG_EXTRA_BACKEND: fkcgen's other objects as they are.
$(GEN_TDIR)/backends-py.o: fkcgen/back/backends.c | $(GEN_TDIR)
	$(CC) $(FKCGEN_CFLAGS) -DFKCG_EXTRA_BACKEND=fkcg_backend_python -c $< -o $@
$(GEN_TDIR)/python_backend.o: tests/gen/python_backend.c | $(GEN_TDIR)
	$(CC) $(FKCGEN_CFLAGS) -c $< -o $@
$(GEN_TDIR)/fkcgen-py: $(GEN_TDIR)/backends-py.o $(GEN_TDIR)/python_backend.o \
                       $(filter-out %/back/backends.o,$(FKCGEN_OBJS))
	$(CC) $(FKCGEN_CFLAGS) -o $@ $^ $(FKCGEN_LIBS)
-include $(GEN_TDIR)/backends-py.d $(GEN_TDIR)/python_backend.d

GEN_TESTS = $(GEN_TDIR)/fkcgen-py $(GEN_TDIR)/test_emit $(GEN_TDIR)/test_emit_rust $(GEN_TDIR)/test_vocab $(GEN_TDIR)/test_generated_gcc $(GEN_TDIR)/test_generated_clang \
            $(GEN_TDIR)/test_injection_gcc $(GEN_TDIR)/test_injection_clang \
            $(GEN_TDIR)/test_injc_gcc $(GEN_TDIR)/test_injc_clang $(GEN_TDIR)/test_cli \
            $(GEN_TDIR)/fkcgen-hooks $(GEN_TDIR)/qsort_reverse.so $(GEN_TDIR)/qsort_probe \
            $(GEN_TDIR)/test_siblings_gcc $(GEN_TDIR)/test_siblings_clang \
            $(GEN_TDIR)/test_select_gcc $(GEN_TDIR)/test_select_clang \
            $(GEN_TDIR)/test_shards_gcc $(GEN_TDIR)/test_shards_clang

# A locale whose decimal point is ',' (test_emit emits in it): compiled from the locales
# package's sources into build/, no root needed.
GEN_LOCALE := $(BUILD)/locale/de_DE.UTF-8
$(GEN_LOCALE):
	@mkdir -p $(@D)
	localedef -c -i de_DE -f UTF-8 $@ || test -d $@

.PHONY: test-gen
test-gen: $(GEN_TESTS) $(FKCGEN_BIN) $(GEN_LOCALE)
	$(COUNT) cmocka gen/test_emit $(GEN_TDIR)/test_emit tests/gen $(BUILD)/locale
	$(COUNT) cmocka gen/test_emit_rust $(GEN_TDIR)/test_emit_rust tests/gen $(BUILD)/locale
	$(COUNT) cmocka gen/test_vocab $(GEN_TDIR)/test_vocab
	$(COUNT) cmocka gen/test_generated_gcc $(GEN_TDIR)/test_generated_gcc
	$(COUNT) cmocka gen/test_generated_clang $(GEN_TDIR)/test_generated_clang
	$(COUNT) cmocka gen/test_injection_gcc $(GEN_TDIR)/test_injection_gcc
	$(COUNT) cmocka gen/test_injection_clang $(GEN_TDIR)/test_injection_clang
	$(COUNT) cmocka gen/test_injc_gcc $(GEN_TDIR)/test_injc_gcc
	$(COUNT) cmocka gen/test_injc_clang $(GEN_TDIR)/test_injc_clang
	$(COUNT) cmocka gen/test_siblings_gcc $(GEN_TDIR)/test_siblings_gcc
	$(COUNT) cmocka gen/test_siblings_clang $(GEN_TDIR)/test_siblings_clang
	$(COUNT) cmocka gen/test_select_gcc $(GEN_TDIR)/test_select_gcc
	$(COUNT) cmocka gen/test_select_clang $(GEN_TDIR)/test_select_clang
	$(COUNT) cmocka gen/test_shards_gcc $(GEN_TDIR)/test_shards_gcc
	$(COUNT) cmocka gen/test_shards_clang $(GEN_TDIR)/test_shards_clang
	$(COUNT) cmocka gen/test_cli $(GEN_TDIR)/test_cli $(CURDIR) $(CURDIR)/$(FKCGEN_BIN) \
	    $(CURDIR)/$(GEN_TDIR)/fkcgen-hooks $(CURDIR)/$(GEN_TDIR)
	$(COUNT) py gen/test_names.py $(PYTHON) tests/gen/test_names.py $(FKCGEN_BIN)
	$(COUNT) py gen/test_bench_compile.py $(PYTHON) tests/gen/test_bench_compile.py $(FKCGEN_BIN) \
	    $(GEN_BENCH_DIR)/bench-gen-parse
	$(COUNT) py gen/test_examples.py $(PYTHON) tests/gen/test_examples.py $(FKCGEN_BIN)
	$(COUNT) py gen/test_python_backend.py $(PYTHON) tests/gen/test_python_backend.py \
	    $(FKCGEN_BIN) $(GEN_TDIR)/fkcgen-py
ifeq ($(SANITIZE),)
	$(COUNT) py gen/test_growth.py $(PYTHON) tests/gen/test_growth.py $(FKCGEN_BIN)
endif

# test_growth.py counts instructions under valgrind (cachegrind), which cannot run an ASan build:
# `make sanitize` (SANITIZE=1) leaves it out, `make test` runs it on the plain build.
TEST_TARGETS += test-gen

# ---- benchmark (not a test): `make bench-gen` -----------------------------------------------
GEN_BENCH_DIR = $(BUILD)/bench-gen
GEN_YAML_CMARK = libcmark yaml-0.1

$(GEN_BENCH_DIR)/bench-gen-parse: scripts/bench-gen-parse.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(shell $(PKG_CONFIG) --cflags $(GEN_YAML_CMARK)) $< -o $@ \
	    $(shell $(PKG_CONFIG) --libs $(GEN_YAML_CMARK))

.PHONY: bench-gen
bench-gen: $(FKCGEN_BIN) $(GEN_BENCH_DIR)/bench-gen-parse
	$(PYTHON) scripts/bench-gen.py $(FKCGEN_BIN) $(GEN_BENCH_DIR)/bench-gen-parse \
	    $(GEN_BENCH_DIR) docs/benchmarks.md

BENCH_TARGETS += bench-gen

# tests/gen/test_bench_compile.py runs the bench whole on tiny corpora (test-gen above).
test-gen: $(GEN_BENCH_DIR)/bench-gen-parse
