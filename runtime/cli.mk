# runtime/cli.mk — builds build/fkc-run (runtime/tools/: .npy I/O, arguments, commands) over
# build/libfkc.a, runs the short demo of `make`, and the CLI tests (fragment of ../Makefile,
# included by runtime/runtime.mk).

CLI_SRCS   := $(sort $(wildcard runtime/tools/*.c))
CLI_OBJ    := $(BUILD)/tools
CLI_OBJS   := $(patsubst runtime/tools/%.c,$(CLI_OBJ)/%.o,$(CLI_SRCS))
CLI_HDRS   := $(wildcard runtime/tools/*.h runtime/tools/shim/*.h runtime/include/fkc/*.h)
CLI_CFLAGS  = $(CFLAGS_BASE) -Iruntime/include -Iruntime/tools \
              $(shell $(PKG_CONFIG) --cflags json-c)
CLI_LIBS    = $(shell $(PKG_CONFIG) --libs vulkan json-c) -ldl -lpthread -lm
FKC_RUN    := $(BUILD)/fkc-run
CLI_LIBFKC := $(BUILD)/libfkc.a

BUILD_TARGETS += $(FKC_RUN)
TEST_TARGETS  += check-cli-npy check-cli-errors check-cli-paths check-cli-numpy check-cli-readme \
                 check-cli-conform check-cli-conform-doc check-cli-conform-prefix \
                 check-cli-conform-claims check-cli-conform-backend check-cli-numpy-set-rows

$(CLI_OBJ) $(BUILD)/tests/cli:
	@mkdir -p $@

$(CLI_OBJ)/%.o: runtime/tools/%.c $(CLI_HDRS) | $(CLI_OBJ)
	$(CC) $(CLI_CFLAGS) -c $< -o $@

# The whole of libfkc.a, its fkc_* symbols exported: the bindings `fkc-run conform` compiles
# and dlopens call the runtime's wrappers (and a --wrappers file any public fkc_ function)
# in fkc-run itself, so one runtime serves both.
$(FKC_RUN): $(CLI_OBJS) $(CLI_LIBFKC)
	$(CC) $(LDFLAGS) $(CLI_OBJS) -Wl,--whole-archive $(CLI_LIBFKC) -Wl,--no-whole-archive \
	    -Wl,--export-dynamic-symbol='fkc_*' $(CLI_LIBS) -o $@

# conform's shim (runtime/tools/shim/: the one file naming generated symbols, compiled at run
# time beside the generated bindings) embedded as two byte arrays; and where fkc's headers lie
# relative to fkc-run: the build tree's runtime/include, the installed tree's include.
CLI_SHIM := runtime/tools/shim/conform_shim.c runtime/tools/shim/conform_shim.h
$(CLI_OBJ)/conform_shim.inc: $(CLI_SHIM) | $(CLI_OBJ)
	@for f in $(CLI_SHIM); do echo "static const unsigned char $$(basename $$f | tr . _)[] = {"; \
	  od -An -v -tx1 $$f | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; echo "};"; done > $@
$(CLI_OBJ)/conform_build.o: $(CLI_OBJ)/conform_shim.inc
$(CLI_OBJ)/conform_build.o: CLI_CFLAGS += -I$(CLI_OBJ) \
    -DCLI_BUILD_INCLUDE='"$(shell realpath -m --relative-to=$(BUILD) runtime/include)"' \
    -DCLI_INSTALL_INCLUDE='"../include"'

# ---- the demo `make` runs: default device, or the CPU reference when there is no Vulkan device
.PHONY: demo
demo: $(FKC_RUN)
	@sh runtime/tools/demo.sh $(FKC_RUN) $(BUILD)/demo

# ---- tests: .npy/argument unit tests, CLI error and path runs, byte-for-byte agreement with NumPy
CLI_TEST_CFLAGS = $(CLI_CFLAGS) $(shell $(PKG_CONFIG) --cflags cmocka)
CLI_TEST_LIBS   = $(shell $(PKG_CONFIG) --libs cmocka) -lm
CLI_UNIT_OBJS  := $(CLI_OBJ)/npy.o $(CLI_OBJ)/args.o $(CLI_OBJ)/values.o

$(BUILD)/tests/cli/test_npy: tests/cli/test_npy.c tests/cli/tmpdir.h $(CLI_UNIT_OBJS) $(CLI_LIBFKC) $(CLI_HDRS) | $(BUILD)/tests/cli
	$(CC) $(CLI_TEST_CFLAGS) $< $(CLI_UNIT_OBJS) $(CLI_LIBFKC) -o $@ $(CLI_TEST_LIBS) $(CLI_LIBS)

$(BUILD)/tests/cli/test_errors: tests/cli/test_errors.c tests/cli/tmpdir.h | $(BUILD)/tests/cli
	$(CC) $(CLI_TEST_CFLAGS) $< -o $@ $(CLI_TEST_LIBS)

$(BUILD)/tests/cli/test_paths: tests/cli/test_paths.c tests/cli/tmpdir.h | $(BUILD)/tests/cli
	$(CC) $(CLI_TEST_CFLAGS) $< -o $@ $(CLI_TEST_LIBS)

# An LD_PRELOAD shim whose fsync fails (test_paths: a failed sync must stop the rename).
$(BUILD)/tests/cli/fail_fsync.so: tests/cli/fail_fsync.c | $(BUILD)/tests/cli
	$(CC) -std=c11 -Wall -Wextra -O2 -fPIC -shared $< -o $@

# An LD_PRELOAD shim of a file system without O_TMPFILE or linkat (test_paths: the fallbacks).
$(BUILD)/tests/cli/fs_shim.so: tests/cli/fs_shim.c | $(BUILD)/tests/cli
	$(CC) -std=c11 -Wall -Wextra -O2 -fPIC -shared $< -o $@ -ldl

.PHONY: check-cli-npy check-cli-errors check-cli-paths check-cli-numpy check-cli-readme
check-cli-npy: $(BUILD)/tests/cli/test_npy
	$(COUNT) cmocka cli/test_npy $(BUILD)/tests/cli/test_npy

check-cli-errors: $(BUILD)/tests/cli/test_errors $(FKC_RUN)
	$(COUNT) cmocka cli/test_errors $(BUILD)/tests/cli/test_errors $(FKC_RUN)

# fkc-run with its test hooks (FKC_RUN_TEST_PAUSE_WRITE, FKC_RUN_TEST_PAUSE_CONFORM), for
# test_paths and test_conform only, linked as fkc-run is and beside it (conform finds fkcgen and
# the headers from its own place): the shipped fkc-run is built without them (checked below: it
# does not even hold the variables' names).
FKC_RUN_HOOKS := $(BUILD)/fkc-run-hooks
CLI_HOOKED    := npy conform
$(CLI_OBJ)/%-hooks.o: runtime/tools/%.c $(CLI_HDRS) | $(CLI_OBJ)
	$(CC) $(CLI_CFLAGS) -DFKC_RUN_TEST_HOOKS -c $< -o $@
CLI_HOOK_OBJS = $(filter-out $(patsubst %,$(CLI_OBJ)/%.o,$(CLI_HOOKED)),$(CLI_OBJS)) \
                $(patsubst %,$(CLI_OBJ)/%-hooks.o,$(CLI_HOOKED))
$(FKC_RUN_HOOKS): $(CLI_HOOK_OBJS) $(CLI_LIBFKC)
	$(CC) $(CLI_HOOK_OBJS) -Wl,--whole-archive $(CLI_LIBFKC) -Wl,--no-whole-archive \
	    -Wl,--export-dynamic-symbol='fkc_*' $(CLI_LIBS) -o $@

# Outputs and inputs that are not regular files, symlinks, modes, fsync, SIGINT/SIGTERM.
check-cli-paths: $(BUILD)/tests/cli/test_paths $(BUILD)/tests/cli/fail_fsync.so \
                 $(BUILD)/tests/cli/fs_shim.so $(FKC_RUN) $(FKC_RUN_HOOKS)
	@! grep -q FKC_RUN_TEST_ $(FKC_RUN) || \
	  { echo "check-cli-paths: $(FKC_RUN) reads a test-only environment hook"; exit 1; }
	$(COUNT) cmocka cli/test_paths $(BUILD)/tests/cli/test_paths $(FKC_RUN) \
	  $(BUILD)/tests/cli/fail_fsync.so $(BUILD)/tests/cli/fs_shim.so $(FKC_RUN_HOOKS)

check-cli-numpy: $(FKC_RUN)
	$(COUNT) py cli/numpy_agree.py $(PYTHON) tests/cli/numpy_agree.py $(FKC_RUN)

# fkc-run set_rows against NumPy's cache[idx[keep]] = src[keep].astype(...), byte for byte.
.PHONY: check-cli-numpy-set-rows
check-cli-numpy-set-rows: $(FKC_RUN)
	$(COUNT) py cli/numpy_set_rows.py $(PYTHON) tests/cli/numpy_set_rows.py $(FKC_RUN)

# The README's fkc-run example, run verbatim from a fresh temp dir; two rows it must print.
# (build/fkc-run is read as $(FKC_RUN): `make sanitize` runs it with its own build.)
CLI_README := $(BUILD)/tests/cli/readme_example
check-cli-readme: $(FKC_RUN) | $(BUILD)/tests/cli
	@sed -n '/^<!-- fkc-run example/,/^```$$/p' README.md | \
	 sed -e '1,2d' -e '$$d' -e 's|build/fkc-run|$(FKC_RUN)|g' > $(CLI_README).sh
	@test -s $(CLI_README).sh || { echo "check-cli-readme: no fkc-run example in README.md"; exit 1; }
	@echo 'rm -rf "$$d"' >> $(CLI_README).sh
	@sh -e $(CLI_README).sh > $(CLI_README).out || { cat $(CLI_README).out; exit 1; }
	@grep -qx '  \[6 7 100 101 102 11\]' $(CLI_README).out && \
	 grep -qx '  \[100 101 102 21 22 23\]' $(CLI_README).out && \
	 grep -qx '  \[56 57 58 59 60 61\]' $(CLI_README).out || \
	 { echo "check-cli-readme: unexpected output:"; cat $(CLI_README).out; exit 1; }
	@echo "check-cli-readme: the README's fkc-run example runs and prints the expected rows"

# ---- fkc-run conform: test_conform (the seed on lavapipe and --cpu, omitted dtypes, wrong
# wrappers, rules, errors, SIGKILL; unit tests of conform_cases.c), the shim compiled with the
# strict flags by gcc and clang against generated/ (both op kinds, and one left out), and the
# docs' example block run verbatim.
CLI_CONFORM_UNIT := $(CLI_UNIT_OBJS) $(CLI_OBJ)/conform_cases.o
$(BUILD)/tests/cli/test_conform: tests/cli/test_conform.c tests/cli/tmpdir.h $(CLI_CONFORM_UNIT) $(CLI_LIBFKC) $(CLI_HDRS) | $(BUILD)/tests/cli
	$(CC) $(CLI_TEST_CFLAGS) $< $(CLI_CONFORM_UNIT) $(CLI_LIBFKC) -o $@ $(CLI_TEST_LIBS) $(CLI_LIBS)

CLI_SHIM_DEFS = -DFKC_CONFORM_PREFIX=fkc -DFKC_CONFORM_PREFIX_UC=FKC \
                '-DFKC_CONFORM_HEADER="fkc_bindings.h"' -DFKC_CONFORM_HAS_WRITE_SLICE_ROTATING=1 \
                -DFKC_CONFORM_HAS_SET_ROWS=1
$(BUILD)/tests/cli/conform_shim.%.so: $(CLI_SHIM) generated/fkc_bindings.c generated/fkc_bindings.h | $(BUILD)/tests/cli
	$* $(STRICT) -fPIC -shared -fvisibility=hidden -Iruntime/include -Iruntime/tools/shim \
	    -Igenerated $(CLI_SHIM_DEFS) -DFKC_CONFORM_HAS_WRITE_SLICE=1 $< generated/fkc_bindings.c -o $@
	$* $(STRICT) -fPIC -shared -fvisibility=hidden -Iruntime/include -Iruntime/tools/shim \
	    -Igenerated $(CLI_SHIM_DEFS) -DFKC_CONFORM_HAS_WRITE_SLICE=0 $< generated/fkc_bindings.c -o $@.0.so
CLI_SHIM_CHECK := $(BUILD)/tests/cli/conform_shim.gcc.so $(BUILD)/tests/cli/conform_shim.clang.so

.PHONY: check-cli-conform check-cli-conform-doc check-cli-conform-prefix check-cli-conform-claims \
        check-cli-conform-backend
# Each claim class broken in turn by a wrong wrapper (tests/cli/conform/wrappers.c): exactly the
# rows it breaks fail, each naming binding, dtype and claim (--format json).
check-cli-conform-claims: $(FKC_RUN) $(BUILD)/fkcgen
	$(COUNT) py cli/conform_claims.py $(PYTHON) tests/cli/conform_claims.py $(FKC_RUN) $(BUILD)/fkcgen
# A new user's own WriteSlice/WriteSliceRotating kernels under --prefix t4, from fkcgen's
# --emit-stubs skeletons (issue 25): the skeletons compile and fail, completed they pass.
check-cli-conform-prefix: $(FKC_RUN) $(BUILD)/fkcgen
	$(COUNT) py cli/conform_prefix.py $(PYTHON) tests/cli/conform_prefix.py $(FKC_RUN) $(BUILD)/fkcgen
# A backend's own family (tests/conform-backend/: Scale, its GLSL kernel and its cpu_reference)
# passes conform; each claim class broken in turn fails its rows (issue 25); docs/runtime.md's
# "A family of your own" block run verbatim.
check-cli-conform-backend: $(FKC_RUN) $(BUILD)/fkcgen
	$(COUNT) py cli/conform_backend.py $(PYTHON) tests/cli/conform_backend.py $(FKC_RUN) $(BUILD)/fkcgen
check-cli-conform: $(BUILD)/tests/cli/test_conform $(FKC_RUN) $(FKC_RUN_HOOKS) $(BUILD)/fkcgen \
                   $(CLI_SHIM_CHECK)
	$(COUNT) cmocka cli/test_conform $(BUILD)/tests/cli/test_conform $(FKC_RUN) $(FKC_RUN_HOOKS)

# docs/runtime.md's conform example (the block after its "fkc-run conform example" marker),
# run verbatim with build/ read as $(BUILD); the man page's conform examples must be lines of
# it. Then the same conform from an installed tree (make install into a scratch DESTDIR): it
# finds fkcgen beside itself and the headers in ../include.
CLI_CONFORM_DOC := $(BUILD)/tests/cli/conform_doc
check-cli-conform-doc: $(FKC_RUN) $(BUILD)/fkcgen $(BUILD)/libfkc.a | $(BUILD)/tests/cli
	@sed -n '/^<!-- fkc-run conform example/,/^```$$/p' docs/runtime.md | \
	 sed -e '1,2d' -e '$$d' > $(CLI_CONFORM_DOC).block
	@test -s $(CLI_CONFORM_DOC).block || { echo "check-cli-conform-doc: no example in docs/runtime.md"; exit 1; }
	@sed -n '/^\.SH EXAMPLES/,/^\.SH SEE/p' docs/man/fkc-run.1 | grep 'conform' | sed 's/\\-/-/g' | \
	 while read -r l; do grep -qxF "build/$$l" $(CLI_CONFORM_DOC).block || \
	 { echo "check-cli-conform-doc: the man page's '$$l' is not in docs/runtime.md's example"; exit 1; }; done
	@sed 's|build/|$(BUILD)/|g' $(CLI_CONFORM_DOC).block > $(CLI_CONFORM_DOC).sh
	@sh -e $(CLI_CONFORM_DOC).sh > $(CLI_CONFORM_DOC).out 2>&1 || \
	 { cat $(CLI_CONFORM_DOC).out; echo "check-cli-conform-doc: the example failed"; exit 1; }
	@grep -q 'conform: 18 rows passed, 0 failed' $(CLI_CONFORM_DOC).out && \
	 grep -q 'write_slice  *WriteSlice  *I8 .*FAIL: works but undeclared' $(CLI_CONFORM_DOC).out && \
	 grep -q 'test_write_slice  *WriteSlice  *F32 .*FAIL' $(CLI_CONFORM_DOC).out || \
	 { cat $(CLI_CONFORM_DOC).out; echo "check-cli-conform-doc: unexpected output"; exit 1; }
	@rm -rf $(CLI_CONFORM_DOC).inst
	@$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR=$(CURDIR)/$(CLI_CONFORM_DOC).inst > $(CLI_CONFORM_DOC).install.log 2>&1 || \
	 { cat $(CLI_CONFORM_DOC).install.log; exit 1; }
	@$(CLI_CONFORM_DOC).inst/usr/bin/fkc-run conform --cpu --cases 4 contracts/vulkan/write_slice.md \
	    > $(CLI_CONFORM_DOC).inst.out 2>&1 && grep -q 'conform: 18 rows passed, 0 failed' $(CLI_CONFORM_DOC).inst.out || \
	 { cat $(CLI_CONFORM_DOC).inst.out; echo "check-cli-conform-doc: the installed fkc-run's conform failed"; exit 1; }
	@rm -rf $(CLI_CONFORM_DOC).inst
	@echo "check-cli-conform-doc: docs/runtime.md's conform example runs and prints the expected rows; so does an installed fkc-run"
