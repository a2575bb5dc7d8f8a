# runtime/runtime.mk — builds libfkc (fragment of ../Makefile): runtime/src/*.c and the SPIR-V
# kernels, compiled from runtime/shaders/ by glslc per unit width, checked by spirv-val and
# embedded as C arrays. No generated code: generated bindings are compiled by whoever generates
# them (tests/gen here, a consumer's own build elsewhere) and link against libfkc.
# One set of objects, compiled once with -fPIC, makes both libraries: build/libfkc.a (for
# plugins, Python extensions and Rust cdylibs too, which need PIC code) and
# build/libfkc.so.N (SONAME libfkc.so.N, N = FKC_SOVERSION of fkc/fkc_version.h) with the
# build/libfkc.so link. PIC costs x86-64 code nothing measurable, and one compile keeps the
# two libraries identical. Only the public API is exported: every object is compiled with
# -fvisibility=hidden, each public header declares its functions under
# `#pragma GCC visibility push(default)`, and runtime/libfkc.map lets nothing but fkc_* names
# out; make check-exports proves that the exports are exactly what the headers declare.
# fkc-bench and fkc-run link libfkc.a, the tests libfkc-test.a (below): the sanitizer builds need
# no library path, and fkc-run runs from build/ and from a package without an rpath. Programs of
# consumers link either (docs/consumers.md).
# Also the runtime tests (check-runtime) and the benchmark binary build/fkc-bench (bench-runtime).
# The CLI and demo live in runtime/cli.mk.

comma      := ,
RT_OBJ     := $(BUILD)/runtime/obj
RT_SPV     := $(BUILD)/runtime/shaders
RT_SRCS    := $(sort $(wildcard runtime/src/*.c))
RT_OBJS    := $(patsubst runtime/src/%.c,$(RT_OBJ)/%.o,$(RT_SRCS))
RT_HDRS    := $(wildcard runtime/include/fkc/*.h runtime/src/*.h)
# The runtime's own sources also take the strict warning set (not -Werror: a newer compiler's new
# warning must not break a build); generated code is held to STRICT by the generator's tests.
RT_WARN    := -Wpedantic -Wshadow -Wconversion -Wmissing-prototypes -Wstrict-prototypes
RT_CFLAGS   = $(CFLAGS_BASE) -fPIC -fvisibility=hidden -Iruntime/include -I$(RT_SPV) $(RT_SAN)
# libfkc links no libvulkan: it opens libvulkan.so.1 at run time (dlopen, in libc since glibc
# 2.34; -ldl for older ones, dropped by --as-needed) unless the host hands it a loader entry.
# The tests and fkc-bench call Vulkan themselves: they link it (RT_VK_LIBS).
RT_LIBS     = -ldl -lpthread
RT_VK_LIBS  = $(shell $(PKG_CONFIG) --libs vulkan)
GLSLC      ?= glslc
SPIRV_VAL  ?= spirv-val
GLSL_FLAGS := --target-env=vulkan1.1 -O -Werror

# name:defines (comma-separated) — one SPIR-V variant of copy.comp each.
RT_KERNELS := copy_u128:-DWIDE=0 copy_wide:-DWIDE=1 copy_wide_in:-DWIDE=1,-DPART=1 \
              copy_wide_edge:-DWIDE=1,-DPART=2 \
              copy_wide_short:-DWIDE=1,-DPART=3 ring_u128:-DWIDE=0,-DRING=1 \
              ring_wide:-DWIDE=1,-DRING=1
RT_INCS    := $(foreach k,$(RT_KERNELS),$(RT_SPV)/$(firstword $(subst :, ,$(k))).spv.inc)
# Kernels of their own file: the fused small writes and the device position advance.
RT_SHADERS := fused advance
RT_INCS    += $(foreach k,$(RT_SHADERS),$(RT_SPV)/$(k).spv.inc)
# fused.comp again with the position advance folded in (fkc_stream_advance after fused writes).
RT_INCS    += $(RT_SPV)/fused_advance.spv.inc
# set_rows.comp (row-indexed writes) in three variants: 32-bit words, 16-byte units, and many
# ops of a stream in one dispatch; and its first pass finding each slot's last row (MARK), of one
# op and of many.
RT_SET_ROWS := set_rows_word:-DVEC=0,-DFUSED=0,-DMARK=0 set_rows_vec:-DVEC=1,-DFUSED=0,-DMARK=0 \
               set_rows_fused:-DVEC=0,-DFUSED=1,-DMARK=0 \
               set_rows_mark:-DVEC=0,-DFUSED=0,-DMARK=1 set_rows_mark_fused:-DVEC=0,-DFUSED=1,-DMARK=1
RT_INCS    += $(foreach k,$(RT_SET_ROWS),$(RT_SPV)/$(firstword $(subst :, ,$(k))).spv.inc)

# The fused tables' word layout, which fused.comp and set_rows.comp include as C does.
$(RT_INCS): runtime/src/fused_table.h

# The version (FKC_VERSION_MAJOR.MINOR.PATCH) and the library's ABI number, from the one header.
FKC_VERSION_H := runtime/include/fkc/fkc_version.h
fkc_version_field = $(shell sed -n 's/^\#define FKC_$(1) \([0-9][0-9]*\)$$/\1/p' $(FKC_VERSION_H))
FKC_VERSION   := $(call fkc_version_field,VERSION_MAJOR).$(call fkc_version_field,VERSION_MINOR).$(call fkc_version_field,VERSION_PATCH)
FKC_SOVERSION := $(call fkc_version_field,SOVERSION)

LIBFKC      := $(BUILD)/libfkc.a
LIBFKC_SO   := $(BUILD)/libfkc.so.$(FKC_SOVERSION)
LIBFKC_LINK := $(BUILD)/libfkc.so
# The test build of the library: the same sources with -DFKC_TEST_HOOKS, which adds the hooks of
# runtime/src/fkc_test.h (a smaller device, block size, no push descriptors, counters). Only the
# tests link it; the shipped libfkc.so, libfkc.a, fkc-run and fkc-bench have none of it.
RT_TOBJ      := $(BUILD)/runtime/obj-test
LIBFKC_TEST  := $(BUILD)/libfkc-test.a
BUILD_TARGETS += $(LIBFKC) $(LIBFKC_SO) $(LIBFKC_LINK) $(BUILD)/fkc-bench
TEST_TARGETS  += check-runtime check-bench-short
BENCH_TARGETS += bench-runtime

# The object list, rewritten only when it changes: a source removed makes both libraries again.
RT_OBJ_LIST = $(RT_OBJ)/objects
$(RT_OBJ_LIST): rt-objects-force | $(RT_OBJ)
	@echo '$(RT_OBJS)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
.PHONY: rt-objects-force
rt-objects-force:

$(LIBFKC): $(RT_OBJS) $(RT_OBJ_LIST)
	@rm -f $@
	ar rcs $@ $(RT_OBJS)

# -z defs: every symbol the library uses is defined by it or the libraries it names (pthread
# and dl, which --as-needed drops where libc has them; no Vulkan: see RT_LIBS). LDFLAGS: the packager's (debian/rules).
$(LIBFKC_SO): $(RT_OBJS) $(RT_OBJ_LIST) runtime/libfkc.map
	$(CC) -shared -Wl,-soname,$(notdir $@) -Wl,--version-script=runtime/libfkc.map -Wl,-z,defs \
	    -Wl,--as-needed $(LDFLAGS) $(RT_OBJS) -o $@ $(RT_LIBS)

$(LIBFKC_LINK): $(LIBFKC_SO)
	ln -sf $(notdir $<) $@

# (runtime.mk too: objects of another flag set, such as the non-PIC objects of an older tree,
# are compiled again)
$(RT_OBJ)/%.o: runtime/src/%.c $(RT_HDRS) runtime/runtime.mk | $(RT_OBJ)
	$(CC) $(RT_CFLAGS) $(RT_WARN) -c $< -o $@

$(RT_OBJ)/pipeline.o: $(RT_INCS)

$(LIBFKC_TEST): $(patsubst $(RT_OBJ)/%,$(RT_TOBJ)/%,$(RT_OBJS))
	@rm -f $@
	ar rcs $@ $^

$(RT_TOBJ)/%.o: runtime/src/%.c $(RT_HDRS) runtime/runtime.mk | $(RT_TOBJ)
	$(CC) $(RT_CFLAGS) -DFKC_TEST_HOOKS $(RT_WARN) -c $< -o $@

$(RT_TOBJ)/pipeline.o: $(RT_INCS)

$(RT_OBJ) $(RT_TOBJ) $(RT_SPV) $(BUILD)/tests/runtime:
	@mkdir -p $@

# Each variant: compile to .spv, validate it, then emit the same compilation as a C array.
define rt_kernel
$(RT_SPV)/$(1).spv.inc: runtime/shaders/copy.comp | $(RT_SPV)
	$(GLSLC) $(GLSL_FLAGS) $(2) $$< -o $(RT_SPV)/$(1).spv
	$(SPIRV_VAL) --target-env vulkan1.1 $(RT_SPV)/$(1).spv
	$(GLSLC) $(GLSL_FLAGS) $(2) -mfmt=c $$< -o $$@
endef
$(foreach k,$(RT_KERNELS),$(eval $(call rt_kernel,$(firstword $(subst :, ,$(k))),$(subst $(comma), ,$(word 2,$(subst :, ,$(k)))))))
define rt_set_rows
$(RT_SPV)/$(1).spv.inc: runtime/shaders/set_rows.comp | $(RT_SPV)
	$(GLSLC) $(GLSL_FLAGS) $(2) $$< -o $(RT_SPV)/$(1).spv
	$(SPIRV_VAL) --target-env vulkan1.1 $(RT_SPV)/$(1).spv
	$(GLSLC) $(GLSL_FLAGS) $(2) -mfmt=c $$< -o $$@
endef
$(foreach k,$(RT_SET_ROWS),$(eval $(call rt_set_rows,$(firstword $(subst :, ,$(k))),$(subst $(comma), ,$(word 2,$(subst :, ,$(k)))))))

$(RT_SPV)/fused_advance.spv.inc: runtime/shaders/fused.comp | $(RT_SPV)
	$(GLSLC) $(GLSL_FLAGS) -DADVANCE=1 $< -o $(RT_SPV)/fused_advance.spv
	$(SPIRV_VAL) --target-env vulkan1.1 $(RT_SPV)/fused_advance.spv
	$(GLSLC) $(GLSL_FLAGS) -DADVANCE=1 -mfmt=c $< -o $@

$(RT_SPV)/%.spv.inc: runtime/shaders/%.comp | $(RT_SPV)
	$(GLSLC) $(GLSL_FLAGS) $< -o $(RT_SPV)/$*.spv
	$(SPIRV_VAL) --target-env vulkan1.1 $(RT_SPV)/$*.spv
	$(GLSLC) $(GLSL_FLAGS) -mfmt=c $< -o $@

# ---- tests (cmocka, lavapipe, validation layer on) ----
RT_TESTS := $(BUILD)/tests/runtime/test_api $(BUILD)/tests/runtime/test_ops \
            $(BUILD)/tests/runtime/test_faults $(BUILD)/tests/runtime/test_alloc
RT_TESTS += $(BUILD)/tests/runtime/test_user_kernel $(BUILD)/tests/runtime/test_vulkan \
            $(BUILD)/tests/runtime/test_async $(BUILD)/tests/runtime/test_memory \
            $(BUILD)/tests/runtime/test_threads
RT_TESTS += $(BUILD)/tests/runtime/test_edges
RT_TESTS += $(BUILD)/tests/runtime/test_fused
RT_TESTS += $(BUILD)/tests/runtime/test_hooks
RT_TESTS += $(BUILD)/tests/runtime/test_replay $(BUILD)/tests/runtime/test_misuse
RT_TESTS += $(BUILD)/tests/runtime/test_set_rows
RT_TEST_CFLAGS = $(RT_CFLAGS) $(TEST_WERROR) -Itests/runtime -Iruntime/src $(shell $(PKG_CONFIG) --cflags cmocka)
RT_TEST_LIBS   = $(shell $(PKG_CONFIG) --libs cmocka) $(RT_VK_LIBS) $(RT_LIBS)

$(BUILD)/tests/runtime/%: tests/runtime/%.c tests/runtime/rt_harness.h tests/runtime/rt_vk_hooks.h tests/runtime/rt_host.h \
                          $(LIBFKC_TEST) | $(BUILD)/tests/runtime
	$(CC) $(RT_TEST_CFLAGS) $(RT_WARN) $< -o $@ $(LIBFKC_TEST) $(RT_TEST_LIBS)

# The user-kernel test's shaders (tests/runtime/shaders/), compiled, validated and embedded.
$(BUILD)/tests/runtime/%.spv.inc: tests/runtime/shaders/%.comp | $(BUILD)/tests/runtime
	$(GLSLC) $(GLSL_FLAGS) $< -o $(@:.inc=)
	$(SPIRV_VAL) --target-env vulkan1.1 $(@:.inc=)
	$(GLSLC) $(GLSL_FLAGS) -mfmt=c $< -o $@
$(BUILD)/tests/runtime/test_user_kernel: $(BUILD)/tests/runtime/axpy.spv.inc
$(BUILD)/tests/runtime/test_user_kernel: RT_TEST_CFLAGS += -I$(BUILD)/tests/runtime
$(BUILD)/tests/runtime/test_memory $(BUILD)/tests/runtime/test_threads \
$(BUILD)/tests/runtime/test_replay $(BUILD)/tests/runtime/test_misuse: \
    $(BUILD)/tests/runtime/axpy.spv.inc
$(BUILD)/tests/runtime/test_memory $(BUILD)/tests/runtime/test_threads \
$(BUILD)/tests/runtime/test_replay $(BUILD)/tests/runtime/test_misuse: \
    RT_TEST_CFLAGS += -I$(BUILD)/tests/runtime

.PHONY: check-runtime bench-runtime
# Each binary under a time limit: a test that corrupts the heap can leave cmocka's signal
# handler deadlocked in malloc, which would hang `make test` instead of failing it.
RT_TEST_TIMEOUT ?= 300
check-runtime: $(RT_TESTS)
	@rc=0; for t in $(RT_TESTS); do echo "== $$t"; \
	 $(COUNT) cmocka runtime/$${t##*/} timeout -k 10 $(RT_TEST_TIMEOUT) $$t || \
	 { echo "$$t: failed"; rc=1; }; done; exit $$rc

# The same tests with the validation layer enabled the usual way, from the environment (issue
# 23): the loader then says "env var 'VK_INSTANCE_LAYERS' defined and adding layers" through
# every messenger, a general message the tests must not count (only the layer's warnings and
# errors fail them). Part of `make test`; tests/vulkan-host/vulkan_host.mk does the same for the
# vulkan-host example.
# Under `make sanitize` (SANITIZE=1) only the programs whose C differs with the environment's
# layer: the messenger's callback (runtime/src/device.c on_message: the loader's general message
# dropped, the layer's findings counted: test_api, test_misuse) and the host's own device and
# messenger (rt_host.h: test_vulkan, test_misuse). The other twelve run the same fkc code either
# way, and check-runtime runs them under the sanitizers; `make test` runs all fifteen here.
RT_ENV_LAYERS := VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
                 VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
RT_ENV_TESTS   = $(if $(SANITIZE),$(filter %/test_api %/test_misuse %/test_vulkan,$(RT_TESTS)),$(RT_TESTS))
.PHONY: check-runtime-env
check-runtime-env: $(RT_ENV_TESTS)
	@rc=0; for t in $(RT_ENV_TESTS); do echo "== $$t (validation from the environment)"; \
	 $(COUNT) cmocka runtime-env/$${t##*/} env $(RT_ENV_LAYERS) \
	   timeout -k 10 $(RT_TEST_TIMEOUT) $$t || { echo "$$t: failed"; rc=1; }; done; exit $$rc
TEST_TARGETS += check-runtime-env

# The runtime's layering (issue 23): scripts/runtime-layers.py prints runtime/src's file-level
# call graph, read from the objects' symbols with nm, and fails on a call circle or a function
# over 60 lines; over the test build's objects too (the FKC_TEST_HOOKS code), quietly unless it
# fails. docs/runtime.md (### Layers) shows its output. tests/runtime/layers/check.sh first
# proves the checker fails on a circle and a 61-line function (and passes 60 lines).
.PHONY: check-runtime-layers
check-runtime-layers: $(RT_OBJS) $(patsubst $(RT_OBJ)/%,$(RT_TOBJ)/%,$(RT_OBJS)) \
                      scripts/runtime-layers.py tests/runtime/layers/check.sh
	@sh tests/runtime/layers/check.sh '$(CC)' $(BUILD)
	@$(PYTHON) scripts/runtime-layers.py runtime/src $(RT_OBJS) > $(BUILD)/runtime-layers.txt || \
	    { cat $(BUILD)/runtime-layers.txt; exit 1; }
	@cat $(BUILD)/runtime-layers.txt
	@awk '/^<!-- runtime-layers:/ { on = 1; next } on && /^```$$/ { if (++n == 2) exit; next } \
	    on && n == 1' docs/runtime.md | diff -u - $(BUILD)/runtime-layers.txt || \
	    { echo "check-runtime-layers: docs/runtime.md (### Layers) differs from the output above"; \
	    exit 1; }
	@$(PYTHON) scripts/runtime-layers.py runtime/src $(patsubst $(RT_OBJ)/%,$(RT_TOBJ)/%,$(RT_OBJS)) \
	    > $(BUILD)/runtime-layers-test.txt || { cat $(BUILD)/runtime-layers-test.txt; \
	    echo "check-runtime-layers: the test build's objects (FKC_TEST_HOOKS)"; exit 1; }
TEST_TARGETS += check-runtime-layers

# ---- benchmark: build/fkc-bench prints a Markdown table; never a timed assertion ----
# (fkc_bench.c + bare.c, the references straight on Vulkan, with their own plain copy shader)
$(RT_SPV)/plain_copy.spv.inc: runtime/bench/plain_copy.comp | $(RT_SPV)
	$(GLSLC) $(GLSL_FLAGS) $< -o $(RT_SPV)/plain_copy.spv
	$(SPIRV_VAL) --target-env vulkan1.1 $(RT_SPV)/plain_copy.spv
	$(GLSLC) $(GLSL_FLAGS) -mfmt=c $< -o $@

$(BUILD)/fkc-bench: runtime/bench/fkc_bench.c runtime/bench/bare.c runtime/bench/bare.h \
                    $(RT_SPV)/plain_copy.spv.inc $(LIBFKC)
	$(CC) $(RT_CFLAGS) $(RT_WARN) runtime/bench/fkc_bench.c runtime/bench/bare.c -o $@ \
	    $(LIBFKC) $(RT_VK_LIBS) $(RT_LIBS)

# `make bench-runtime BENCH_SHORT=1` runs the short mode (a few seconds on lavapipe), which
# check-bench-short runs in `make test` so that the benchmark cannot rot: it must finish and
# print every section. It checks no figure (speed targets live in docs/benchmarks.md).
BENCH_ARGS ?= $(if $(BENCH_SHORT),--short,)
bench-runtime: $(BUILD)/fkc-bench
	$(BUILD)/fkc-bench $(BENCH_ARGS)

.PHONY: check-bench-short bench-plot
check-bench-short: $(BUILD)/fkc-bench
	@timeout -k 10 $(RT_TEST_TIMEOUT) $(MAKE) --no-print-directory bench-runtime BENCH_SHORT=1 \
	    > $(BUILD)/bench-short.md 2>&1 || { cat $(BUILD)/bench-short.md; \
	    echo "check-bench-short: fkc-bench --short failed"; exit 1; }
	@for s in '### Bandwidth' 'plain compute copy (reference)' 'vkCmdCopyBuffer (reference)' \
	          '| b1    | unaligned' '| b8    | aligned' '4-D, 12-byte runs' '### KV decode' \
	          'rotating, device position' 'rotating, readback' '### One-shot calls' \
	          '### set_rows' 'set_rows x 64 + advance, replayed' 'set_rows x 64, f32 -> f16 |' \
	          'fkc_write_slice_sync' '### Host command buffers' 'the host'"'"'s command buffer |' \
	          'fkc_stream_submit_async, one op' '### Decode step' '64 x write_slice |' \
	          '64 x rotating + advance, replayed |' '64 x rotating, no advance |' \
	          'rotating [r,n] into a ring'; do \
	    grep -qF -- "$$s" $(BUILD)/bench-short.md || { cat $(BUILD)/bench-short.md; \
	    echo "check-bench-short: no '$$s' in the output"; exit 1; }; done
	@awk -F'|' '/^\| 64 x / { n++; if ($$6 + 0 > 4 || $$6 + 0 < 1) { print "check-bench-short: " \
	    "a 64-write decode step records " $$6 + 0 " commands (at most 4):"; print; bad = 1 } } \
	    END { if (n != 8) { print "check-bench-short: " n + 0 " decode-step rows, not 8"; bad = 1 } \
	    exit bad }' $(BUILD)/bench-short.md || { cat $(BUILD)/bench-short.md; exit 1; }
	@echo "check-bench-short: fkc-bench --short ran and printed every section; a 64-write decode step records at most 4 commands"

# runtime/bench/torch_decode.py (the decode step in PyTorch, run where PyTorch is: the H200)
# compiles, answers --help without PyTorch, and has the shapes of fkc-bench's decode step.
TEST_TARGETS += check-bench-torch
.PHONY: check-bench-torch
check-bench-torch:
	@PYTHONPYCACHEPREFIX=$(BUILD)/pycache python3 -m py_compile runtime/bench/torch_decode.py
	@PYTHONPYCACHEPREFIX=$(BUILD)/pycache python3 runtime/bench/torch_decode.py --help > /dev/null
	@for k in CACHES HEADS SEQ DIM; do \
	  c=$$(sed -n "s/^#define DECODE_$$k \([0-9]*\)u$$/\1/p" runtime/bench/fkc_bench.c); \
	  p=$$(sed -n "s/^\(HEAD_\)\{0,1\}$$k = \([0-9]*\).*/\2/p" runtime/bench/torch_decode.py); \
	  [ -n "$$c" ] && [ "$$c" = "$$p" ] || { echo "check-bench-torch: $$k is '$$c' in" \
	    "fkc_bench.c, '$$p' in torch_decode.py"; exit 1; }; done
	@PYTHONPYCACHEPREFIX=$(BUILD)/pycache python3 -m py_compile runtime/bench/torch_set_rows.py
	@PYTHONPYCACHEPREFIX=$(BUILD)/pycache python3 runtime/bench/torch_set_rows.py --help > /dev/null
	@echo "check-bench-torch: torch_decode.py compiles and has fkc-bench's decode-step shapes; torch_set_rows.py compiles"

# PNG plots of bandwidth against size from `fkc-bench --csv` files (needs gnuplot:
# apt-get install gnuplot-nox). BENCH_CSV: the CSV; BENCH_PNG: the image.
BENCH_CSV ?= $(BUILD)/bench.csv
BENCH_PNG ?= $(BUILD)/bench.png
BENCH_TITLE ?= fkc write_slice
bench-plot:
	gnuplot -e "csv='$(BENCH_CSV)'; png='$(BENCH_PNG)'; title='$(BENCH_TITLE)'" scripts/bench-plot.gp

include runtime/cli.mk
include runtime/install.mk
