# rust/rust.mk — the Rust crates rust/fkc-sys (the C API, the link), rust/fkc (the safe API)
# and rust/fkc-build (fkcgen from a build script) (fragment of ../Makefile). `make check-rust`
# (part of `make test`) runs `cargo test --offline` of fkc and fkc-build against this build's
# build/libfkc.a and build/fkcgen, then rust/test_rerun.sh: on a copy of the crate, a contract change reruns its
# build.rs and nothing else does, and regenerating changes no byte, and tests/rust/scale.py:
# the Rust module of a 2,000-section corpus built and tested by cargo (issue 27). Cargo's target dirs live
# under build/. Cargo: `cargo` on PATH, else ~/.cargo/bin/cargo (rustup), else Debian's
# (scripts/deps.sh installs it); CARGO=... overrides.

CARGO ?= $(shell command -v cargo 2>/dev/null || \
                 { test -x "$$HOME/.cargo/bin/cargo" && echo "$$HOME/.cargo/bin/cargo"; })
RUST_TARGET_DIR = $(CURDIR)/$(BUILD)/cargo
RUST_ENV        = FKC_BUILD_DIR=$(CURDIR)/$(BUILD) CARGO_TARGET_DIR=$(RUST_TARGET_DIR)

.PHONY: check-rust
# One test at a time: the tests share the one Vulkan device (lavapipe) and its validation layer.
check-rust: $(LIBFKC) $(FKCGEN_BIN)
	@test -n "$(CARGO)" || { echo "check-rust: no cargo found (scripts/deps.sh installs Debian's)"; exit 1; }
	$(RUST_ENV) $(COUNT) cargo rust/cargo-test \
	  $(CARGO) test --offline --manifest-path rust/fkc/Cargo.toml -- --test-threads=1
	$(RUST_ENV) $(CARGO) test --offline --quiet --manifest-path rust/fkc-build/Cargo.toml
	sh rust/test_rerun.sh $(CARGO) $(BUILD)
	FKC_BUILD_DIR=$(CURDIR)/$(BUILD) CARGO_TARGET_DIR=$(RUST_TARGET_DIR)-scale CARGO=$(CARGO) \
	  $(COUNT) py rust/scale.py $(PYTHON) tests/rust/scale.py $(FKCGEN_BIN) 2000
	@$(MAKE) --no-print-directory check-rust-shared

# fkc-sys's shared link (FKC_LINK=shared): the stream and op tests built against
# build/libfkc.so in a target dir of their own, run with it on LD_LIBRARY_PATH, and the op
# tests' binary has libfkc.so.1 and no libvulkan in its NEEDED (libfkc opens it at run time;
# the stream tests link libvulkan themselves, for the host's semaphores).
.PHONY: check-rust-shared
check-rust-shared: $(LIBFKC_SO) $(LIBFKC_LINK) $(FKCGEN_BIN)
	FKC_LINK=shared FKC_BUILD_DIR=$(CURDIR)/$(BUILD) CARGO_TARGET_DIR=$(RUST_TARGET_DIR)-shared \
	  LD_LIBRARY_PATH=$(CURDIR)/$(BUILD) $(COUNT) cargo rust/cargo-test-shared \
	  $(CARGO) test --offline --manifest-path rust/fkc/Cargo.toml --test streams --test ops -- --test-threads=1
	@t=$$(ls -t $(RUST_TARGET_DIR)-shared/debug/deps/ops-* | grep -v '\.d$$' | head -n 1); \
	 readelf -d "$$t" | grep -q 'NEEDED.*\[libfkc\.so\.1\]' || \
	   { echo "check-rust-shared: $$t does not link libfkc.so.1"; exit 1; }; \
	 if readelf -d "$$t" | grep 'NEEDED.*libvulkan'; then \
	   echo "check-rust-shared: $$t links libvulkan"; exit 1; fi; \
	 echo "check-rust-shared: FKC_LINK=shared: the stream and op tests pass linked to libfkc.so.1 (no libvulkan in NEEDED)"

# Not under `make sanitize` (SANITIZE=1): stable rustc cannot instrument Rust code, and a Rust
# test program linked with the ASan-built libfkc would need the ASan runtime loaded before
# everything else; the C the crate calls runs under the sanitizers in the C suites.
ifeq ($(SANITIZE),)
TEST_TARGETS += check-rust check-rust-doc check-rust-backend
endif

# The crates installed (a Cargo directory source) and examples/rust-backend built offline
# against a moved DESTDIR install: tests/rust/backend.sh. Its cargo target dirs are fresh ones
# in a temporary directory: a registry crate's fingerprint is its name and version, so a
# reused one would keep crates built from an older install of the same version.
.PHONY: check-rust-backend
check-rust-backend: installable
	@test -n "$(CARGO)" || { echo "check-rust-backend: no cargo found"; exit 1; }
	@sh tests/rust/backend.sh "$(CURDIR)" "$(CARGO)"

# docs/consumers.md's Rust section, run as written with HOME in a temporary directory (it
# installs fkc there and builds examples/rust-backend from the installed crates):
# tests/rust/doc.sh.
.PHONY: check-rust-doc
check-rust-doc: installable
	@test -n "$(CARGO)" || { echo "check-rust-doc: no cargo found"; exit 1; }
	@BUILD='$(BUILD)' sh tests/rust/doc.sh "$(CURDIR)" "$(CARGO)"
