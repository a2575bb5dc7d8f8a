# fkcgen/fkcgen.mk — builds build/fkcgen and runs fkcgen's tests (fragment of ../Makefile).
# Generation rules and the drift check live in fkcgen/gen.mk.
#   make build/fkcgen      the compiler (every fkcgen/*.c, the emitter's emit*.c included)
#   make fkcgen-test       unit tests + the golden corpus of malformed contracts (cmocka)
#   make fkcgen-docs       regenerates docs/contract-format.md from the schema
#   make fuzz              libFuzzer over the loader (clang; not part of `make test`)

FKCGEN_PKGS    := yaml-0.1 libcmark libxxhash
FKCGEN_CFLAGS   = $(CFLAGS_BASE) -MMD -MP $(shell $(PKG_CONFIG) --cflags $(FKCGEN_PKGS))
FKCGEN_LIBS     = $(shell $(PKG_CONFIG) --libs $(FKCGEN_PKGS))
FKCGEN_SRCS    := $(sort $(wildcard fkcgen/*.c))
FKCGEN_OBJS    := $(FKCGEN_SRCS:fkcgen/%.c=$(BUILD)/obj/fkcgen/%.o)
# The library: everything but main (tests link it).
FKCGEN_LIBOBJS := $(filter-out $(BUILD)/obj/fkcgen/main.o,$(FKCGEN_OBJS))

$(BUILD)/obj/fkcgen/%.o: fkcgen/%.c | $(BUILD)/obj/fkcgen/
	$(CC) $(FKCGEN_CFLAGS) -c $< -o $@

$(BUILD)/obj/fkcgen/: ; @mkdir -p $@

# The docs page's prose (fkcgen/contract-format.md.in) as a C string literal, for schema_doc.c.
$(BUILD)/obj/fkcgen/contract_format.inc: fkcgen/contract-format.md.in | $(BUILD)/obj/fkcgen/
	awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); print "\"" $$0 "\\n\"" }' $< > $@
$(BUILD)/obj/fkcgen/schema_doc.o: $(BUILD)/obj/fkcgen/contract_format.inc
$(BUILD)/obj/fkcgen/schema_doc.o: FKCGEN_CFLAGS += -I$(BUILD)/obj/fkcgen

$(BUILD)/fkcgen: $(FKCGEN_OBJS)
	$(CC) $(FKCGEN_CFLAGS) -o $@ $(FKCGEN_OBJS) $(FKCGEN_LIBS)

-include $(FKCGEN_OBJS:.o=.d)

BUILD_TARGETS += $(BUILD)/fkcgen

# ---- tests ----
FKCGEN_TEST_CFLAGS = $(FKCGEN_CFLAGS) -Ifkcgen $(shell $(PKG_CONFIG) --cflags cmocka)
FKCGEN_TEST_LIBS   = $(FKCGEN_LIBS) $(shell $(PKG_CONFIG) --libs cmocka)
FKCGEN_TESTS := $(patsubst tests/fkcgen/%.c,$(BUILD)/tests/fkcgen/%,\
                  $(sort $(wildcard tests/fkcgen/test_*.c)))

$(BUILD)/tests/fkcgen/%: tests/fkcgen/%.c $(FKCGEN_LIBOBJS) | $(BUILD)/tests/fkcgen/
	$(CC) $(FKCGEN_TEST_CFLAGS) -o $@ $< $(FKCGEN_LIBOBJS) $(FKCGEN_TEST_LIBS)

$(BUILD)/tests/fkcgen/: ; @mkdir -p $@

-include $(FKCGEN_TESTS:=.d)

.PHONY: fkcgen-test fkcgen-docs fuzz
fkcgen-test: $(FKCGEN_TESTS) $(BUILD)/fkcgen
	@rc=0; for t in $(FKCGEN_TESTS); do \
	  FKCGEN=$(BUILD)/fkcgen $(COUNT) cmocka fkcgen/$${t##*/} $$t || rc=1; done; exit $$rc

fkcgen-docs: $(BUILD)/fkcgen
	$(BUILD)/fkcgen schema --markdown > docs/contract-format.md

TEST_TARGETS += fkcgen-test

# ---- fuzzing (clang's libFuzzer + ASan/UBSan over load → yaml → shape → validate) ----
FUZZ_SECONDS ?= 60
FKCGEN_FUZZ_SRCS := $(filter-out fkcgen/main.c fkcgen/emit% fkcgen/schema_doc.c,$(FKCGEN_SRCS))
$(BUILD)/fuzz/fkcgen_fuzz: tests/fkcgen/fuzz_load.c $(FKCGEN_FUZZ_SRCS)
	@mkdir -p $(@D)
	clang -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -fsanitize=fuzzer,address,undefined \
	  -Ifkcgen $(shell $(PKG_CONFIG) --cflags $(FKCGEN_PKGS)) -o $@ $^ $(FKCGEN_LIBS)

fuzz: $(BUILD)/fuzz/fkcgen_fuzz
	@mkdir -p $(BUILD)/fuzz/corpus
	@cp -n contracts/*/*.md tests/fkcgen/cases/*.md $(BUILD)/fuzz/corpus/ 2>/dev/null || true
	$(BUILD)/fuzz/fkcgen_fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
	  -timeout=5 $(BUILD)/fuzz/corpus

include fkcgen/gen.mk
