# fkcgen/fkcgen.mk — builds build/fkcgen and runs fkcgen's tests (fragment of ../Makefile).
# Generation rules and the drift check live in fkcgen/gen.mk.
#   make build/fkcgen      the compiler (every fkcgen/*/*.c: core/, front/, back/, cli/)
#   make fkcgen-test       unit tests + the golden corpus of malformed contracts (cmocka)
#   make fkcgen-docs       regenerates docs/contract-format.md from the schema, and the table
#                          of `fkcgen diff`'s rules in docs/fkcgen.md
#   make check-diff-docs   runs docs/fkcgen.md's diff example and CI block verbatim

FKCGEN_PKGS    := yaml-0.1 libcmark libxxhash
# The folders that hold headers: the library API (fkcgen.h), the core's and the back ends'.
FKCGEN_INC     := -Ifkcgen -Ifkcgen/core -Ifkcgen/back -Ifkcgen/diff
FKCGEN_CFLAGS   = $(CFLAGS_BASE) -MMD -MP $(FKCGEN_INC) $(shell $(PKG_CONFIG) --cflags $(FKCGEN_PKGS))
FKCGEN_LIBS     = $(shell $(PKG_CONFIG) --libs $(FKCGEN_PKGS))
FKCGEN_SRCS    := $(sort $(wildcard fkcgen/*.c fkcgen/*/*.c))
FKCGEN_OBJS    := $(FKCGEN_SRCS:fkcgen/%.c=$(BUILD)/obj/fkcgen/%.o)
# The library: everything but main (tests link it).
FKCGEN_LIBOBJS := $(filter-out $(BUILD)/obj/fkcgen/cli/main.o,$(FKCGEN_OBJS))

$(BUILD)/obj/fkcgen/%.o: fkcgen/%.c | $(BUILD)/obj/fkcgen/
	@mkdir -p $(@D)
	$(CC) $(FKCGEN_CFLAGS) -c $< -o $@

$(BUILD)/obj/fkcgen/: ; @mkdir -p $@

# The docs page's prose (fkcgen/contract-format.md.in) as a C string literal, for schema_doc.c.
$(BUILD)/obj/fkcgen/contract_format.inc: fkcgen/contract-format.md.in | $(BUILD)/obj/fkcgen/
	awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); print "\"" $$0 "\\n\"" }' $< > $@
$(BUILD)/obj/fkcgen/back/schema_doc.o: $(BUILD)/obj/fkcgen/contract_format.inc
$(BUILD)/obj/fkcgen/back/schema_doc.o: FKCGEN_CFLAGS += -I$(BUILD)/obj/fkcgen

$(BUILD)/fkcgen: $(FKCGEN_OBJS)
	$(CC) $(FKCGEN_CFLAGS) $(LDFLAGS) -o $@ $(FKCGEN_OBJS) $(FKCGEN_LIBS)

-include $(FKCGEN_OBJS:.o=.d)

BUILD_TARGETS += $(BUILD)/fkcgen

# ---- tests ----
FKCGEN_TEST_CFLAGS = $(FKCGEN_CFLAGS) $(TEST_WERROR) $(shell $(PKG_CONFIG) --cflags cmocka)
FKCGEN_TEST_LIBS   = $(FKCGEN_LIBS) $(shell $(PKG_CONFIG) --libs cmocka)
FKCGEN_TESTS := $(patsubst tests/fkcgen/%.c,$(BUILD)/tests/fkcgen/%,\
                  $(sort $(wildcard tests/fkcgen/test_*.c)))

$(BUILD)/tests/fkcgen/%: tests/fkcgen/%.c $(FKCGEN_LIBOBJS) | $(BUILD)/tests/fkcgen/
	$(CC) $(FKCGEN_TEST_CFLAGS) -o $@ $< $(FKCGEN_LIBOBJS) $(FKCGEN_TEST_LIBS)

$(BUILD)/tests/fkcgen/: ; @mkdir -p $@

-include $(FKCGEN_TESTS:=.d)

.PHONY: fkcgen-test fkcgen-docs
fkcgen-test: $(FKCGEN_TESTS) $(BUILD)/fkcgen
	@rc=0; for t in $(FKCGEN_TESTS); do \
	  FKCGEN=$(BUILD)/fkcgen $(COUNT) cmocka fkcgen/$${t##*/} $$t || rc=1; done; exit $$rc

fkcgen-docs: $(BUILD)/fkcgen
	$(BUILD)/fkcgen schema --markdown > docs/contract-format.md
	$(BUILD)/fkcgen diff --rules > $(BUILD)/diff-rules.md
	awk -v t=$(BUILD)/diff-rules.md '/^<!-- diff rules: end/ { while ((getline l < t) > 0) \
	  print l; skip = 0 } !skip { print } /^<!-- diff rules: begin/ { skip = 1 }' \
	  docs/fkcgen.md > $(BUILD)/fkcgen.md.new && mv $(BUILD)/fkcgen.md.new docs/fkcgen.md

.PHONY: check-diff-docs
check-diff-docs: $(BUILD)/fkcgen
	sh tests/fkcgen/diff_docs.sh $(BUILD)/fkcgen

# The runtime's families as fkcgen knows them (names.c, what `check` compares contracts with),
# printed as a C check by tests/fkcgen/runtime_table.c and compiled against
# runtime/include/fkc/fkc_kernels.h by gcc and clang: it fails when the two disagree.
$(BUILD)/tests/fkcgen/runtime_table: tests/fkcgen/runtime_table.c $(FKCGEN_LIBOBJS) | $(BUILD)/tests/fkcgen/
	$(CC) $(FKCGEN_CFLAGS) -Ifkcgen -o $@ $< $(FKCGEN_LIBOBJS) $(FKCGEN_LIBS)

.PHONY: check-runtime-table
check-runtime-table: $(BUILD)/tests/fkcgen/runtime_table
	@$< > $(BUILD)/tests/fkcgen/runtime_table_check.c
	@for cc in gcc clang; do \
	  $$cc $(STRICT) -Iruntime/include -c $(BUILD)/tests/fkcgen/runtime_table_check.c \
	    -o $(BUILD)/tests/fkcgen/runtime_table_check.o || { echo "check-runtime-table:" \
	    "fkcgen/names.c (runtime_kernels) and fkc/fkc_kernels.h disagree ($$cc)"; exit 1; }; \
	done; echo "check-runtime-table: fkcgen/names.c's runtime families match fkc/fkc_kernels.h"

# --format of check, diff, gen --check and fkc-run conform, each parsed (SARIF's required
# properties, JUnit by xml.etree, GitHub workflow commands), and docs/fkcgen.md's CI step run.
.PHONY: check-formats
check-formats: $(BUILD)/fkcgen $(BUILD)/fkc-run
	$(COUNT) py fkcgen/formats.py $(PYTHON) tests/fkcgen/formats.py $(BUILD)/fkcgen $(BUILD)/fkc-run

# fkcgen doc: the seed's page against dump --json, conform results beside the claims, HTML
# through cmark, escaping, --check, errors; and docs/generated/ up to date.
.PHONY: check-doc
check-doc: $(BUILD)/fkcgen $(BUILD)/fkc-run
	$(COUNT) py fkcgen/doc.py $(PYTHON) tests/fkcgen/doc.py $(BUILD)/fkcgen $(BUILD)/fkc-run

TEST_TARGETS += fkcgen-test check-runtime-table check-diff-docs check-formats check-doc

include fkcgen/gen.mk
