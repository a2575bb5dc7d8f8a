# runtime/cli.mk — builds build/fkc-run (runtime/tools/: .npy I/O, arguments, commands) over
# build/libfkc.a, runs the short demo of `make`, and the CLI tests (fragment of ../Makefile,
# included by runtime/runtime.mk).

CLI_SRCS   := $(sort $(wildcard runtime/tools/*.c))
CLI_OBJ    := $(BUILD)/tools
CLI_OBJS   := $(patsubst runtime/tools/%.c,$(CLI_OBJ)/%.o,$(CLI_SRCS))
CLI_HDRS   := $(wildcard runtime/tools/*.h runtime/include/fkc/*.h)
CLI_CFLAGS  = $(CFLAGS_BASE) -Iruntime/include -Iruntime/tools
CLI_LIBS    = $(shell $(PKG_CONFIG) --libs vulkan) -lpthread -lm
FKC_RUN    := $(BUILD)/fkc-run
CLI_LIBFKC := $(BUILD)/libfkc.a

BUILD_TARGETS += $(FKC_RUN)
TEST_TARGETS  += check-cli-npy check-cli-errors check-cli-paths check-cli-numpy check-cli-readme

$(CLI_OBJ) $(BUILD)/tests/cli:
	@mkdir -p $@

$(CLI_OBJ)/%.o: runtime/tools/%.c $(CLI_HDRS) | $(CLI_OBJ)
	$(CC) $(CLI_CFLAGS) -c $< -o $@

$(FKC_RUN): $(CLI_OBJS) $(CLI_LIBFKC)
	$(CC) $(CLI_OBJS) $(CLI_LIBFKC) $(CLI_LIBS) -o $@

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

.PHONY: check-cli-npy check-cli-errors check-cli-paths check-cli-numpy check-cli-readme
check-cli-npy: $(BUILD)/tests/cli/test_npy
	$(COUNT) cmocka cli/test_npy $(BUILD)/tests/cli/test_npy

check-cli-errors: $(BUILD)/tests/cli/test_errors $(FKC_RUN)
	$(COUNT) cmocka cli/test_errors $(BUILD)/tests/cli/test_errors $(FKC_RUN)

# fkc-run with its test hooks (FKC_RUN_TEST_PAUSE_WRITE), for test_paths only: the shipped
# fkc-run is built without them (checked below: it does not even hold the variable's name).
FKC_RUN_HOOKS := $(BUILD)/tests/cli/fkc-run-hooks
$(CLI_OBJ)/npy-hooks.o: runtime/tools/npy.c $(CLI_HDRS) | $(CLI_OBJ)
	$(CC) $(CLI_CFLAGS) -DFKC_RUN_TEST_HOOKS -c $< -o $@
$(FKC_RUN_HOOKS): $(filter-out $(CLI_OBJ)/npy.o,$(CLI_OBJS)) $(CLI_OBJ)/npy-hooks.o $(CLI_LIBFKC) | $(BUILD)/tests/cli
	$(CC) $(filter-out $(CLI_LIBFKC),$^) $(CLI_LIBFKC) $(CLI_LIBS) -o $@

# Outputs and inputs that are not regular files, symlinks, modes, fsync, SIGINT/SIGTERM.
check-cli-paths: $(BUILD)/tests/cli/test_paths $(BUILD)/tests/cli/fail_fsync.so $(FKC_RUN) \
                 $(FKC_RUN_HOOKS)
	@! grep -q FKC_RUN_TEST_ $(FKC_RUN) || \
	  { echo "check-cli-paths: $(FKC_RUN) reads a test-only environment hook"; exit 1; }
	$(COUNT) cmocka cli/test_paths $(BUILD)/tests/cli/test_paths $(FKC_RUN) \
	  $(BUILD)/tests/cli/fail_fsync.so $(FKC_RUN_HOOKS)

check-cli-numpy: $(FKC_RUN)
	$(COUNT) py cli/numpy_agree.py $(PYTHON) tests/cli/numpy_agree.py $(FKC_RUN)

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
	 grep -qx '  \[100 101 102 21 22 23\]' $(CLI_README).out || \
	 { echo "check-cli-readme: unexpected output:"; cat $(CLI_README).out; exit 1; }
	@echo "check-cli-readme: the README's fkc-run example runs and prints the expected rows"
