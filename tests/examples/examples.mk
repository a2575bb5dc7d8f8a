# tests/examples/examples.mk — builds and tests the example op family examples/c-backend/fill/
# as a consumer would (fragment of ../../Makefile): bindings generated from fill.md into build/,
# the shader compiled by glslc into a C array, fill.c and the generated code compiled with the
# strict flags by gcc and by clang, linked with build/libfkc.a; the test runs on the default
# device with the validation layer on. docs/adding-an-op.md shows these steps.

EX_DIR      = $(BUILD)/tests/examples
EX_FILL     = examples/c-backend/fill
EX_FILL_GEN = $(EX_DIR)/fill/gen

$(EX_FILL_GEN)/cb_bindings.c: $(EX_FILL)/fill.md $(FKCGEN_BIN)
	@mkdir -p $(@D)
	$(FKCGEN_BIN) gen --prefix cb --out-dir $(@D) $(EX_FILL)/fill.md
$(EX_FILL_GEN)/cb_bindings.h: $(EX_FILL_GEN)/cb_bindings.c

$(EX_DIR)/fill/fill.spv.inc: $(EX_FILL)/fill.comp
	@mkdir -p $(@D)
	$(GLSLC) $(GLSL_FLAGS) $< -o $(@:.inc=)
	$(SPIRV_VAL) --target-env vulkan1.1 $(@:.inc=)
	$(GLSLC) $(GLSL_FLAGS) -mfmt=c $< -o $@

EX_FILL_INC = -Iruntime/include -I$(EX_FILL_GEN) -I$(EX_DIR)/fill

$(EX_DIR)/test_fill_%: tests/examples/test_fill.c $(EX_FILL)/fill.c $(EX_FILL_GEN)/cb_bindings.c \
                       $(EX_FILL_GEN)/cb_bindings.h $(EX_DIR)/fill/fill.spv.inc \
                       tests/runtime/rt_harness.h $(LIBFKC_TEST)
	$* $(STRICT) $(EX_FILL_INC) -c $(EX_FILL_GEN)/cb_bindings.c -o $@.gen.o
	$* $(STRICT) $(EX_FILL_INC) -c $(EX_FILL)/fill.c -o $@.fill.o
	$* $(CFLAGS_BASE) $(EX_FILL_INC) -Itests/runtime -Iruntime/src \
	    $(shell $(PKG_CONFIG) --cflags cmocka) \
	    tests/examples/test_fill.c $@.gen.o $@.fill.o -o $@ $(LIBFKC_TEST) \
	    $(shell $(PKG_CONFIG) --libs cmocka) $(RT_LIBS)

EX_TESTS = $(EX_DIR)/test_fill_gcc $(EX_DIR)/test_fill_clang

.PHONY: check-examples
check-examples: $(EX_TESTS)
	@rc=0; for t in $(EX_TESTS); do echo "== $$t"; \
	 $(COUNT) cmocka examples/$${t##*/} timeout -k 10 $(RT_TEST_TIMEOUT) $$t || \
	 { echo "$$t: failed"; rc=1; }; done; exit $$rc

TEST_TARGETS += check-examples

# docs/adding-an-op.md's example, run verbatim from the repository root: it must print the demo's
# "fill: ok" line.
EX_DOC = $(EX_DIR)/adding_an_op
.PHONY: check-adding-an-op
check-adding-an-op: $(FKCGEN_BIN) $(LIBFKC)
	@mkdir -p $(EX_DIR)
	@sed -n '/^<!-- adding-an-op example/,/^```$$/p' docs/adding-an-op.md | sed -e '1,2d' -e '$$d' \
	    > $(EX_DOC).sh
	@test -s $(EX_DOC).sh || { echo "check-adding-an-op: no example in docs/adding-an-op.md"; exit 1; }
	@echo 'test -s "$$d/fill_stubs.c" && rm -rf "$$d"' >> $(EX_DOC).sh
	@sh -e $(EX_DOC).sh > $(EX_DOC).out 2>&1 || { cat $(EX_DOC).out; exit 1; }
	@grep -q '^fill: ok on ' $(EX_DOC).out || \
	 { echo "check-adding-an-op: unexpected output:"; cat $(EX_DOC).out; exit 1; }
	@echo "check-adding-an-op: docs/adding-an-op.md's example builds the Fill family and its demo prints: $$(grep '^fill: ' $(EX_DOC).out)"

TEST_TARGETS += check-adding-an-op
