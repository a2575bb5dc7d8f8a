# rust/rust.mk — the Rust crates rust/fkc-sys (the C API, the link), rust/fkc (the safe API)
# and rust/fkc-build (fkcgen from a build script) (fragment of ../Makefile). `make check-rust`
# (part of `make test`) runs `cargo test --offline` of fkc and fkc-build against this build's
# build/libfkc.a and build/fkcgen, then rust/test_rerun.sh: on a copy of the crate, a contract change reruns its
# build.rs and nothing else does, and regenerating changes no byte. Cargo's target dirs live
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

# docs/consumers.md's example, run as written from a fresh temporary directory (cargo's
# target dir kept under build/); its stdout must be exactly the block under "It prints:" (cargo's
# own messages go to stderr, shown when it fails).
RUST_DOC = $(BUILD)/tests/rust/consumer
.PHONY: check-rust-doc
check-rust-doc: $(LIBFKC) $(FKCGEN_BIN)
	@test -n "$(CARGO)" || { echo "check-rust-doc: no cargo found"; exit 1; }
	@mkdir -p $(dir $(RUST_DOC))
	@sed -n '/^<!-- rust consumer example/,/^```$$/p' docs/consumers.md | \
	 sed -e '1,2d' -e '$$d' > $(RUST_DOC).sh
	@test -s $(RUST_DOC).sh || { echo "check-rust-doc: no example in docs/consumers.md"; exit 1; }
	@echo 'case $$PWD in /tmp/*/mybackend) rm -rf "$${PWD%/mybackend}";; esac' >> $(RUST_DOC).sh
	@awk '/^It prints:/ { f = 1; next } f && /^```/ { if (o) exit; o = 1; next } f && o' \
	 docs/consumers.md > $(RUST_DOC).want
	@test -s $(RUST_DOC).want || { echo "check-rust-doc: no output block in docs/consumers.md"; exit 1; }
	@PATH="$(dir $(CARGO)):$$PATH" FKC="$(CURDIR)" CARGO_TARGET_DIR="$(CURDIR)/$(BUILD)/cargo-doc" \
	 sh -e $(RUST_DOC).sh > $(RUST_DOC).out 2> $(RUST_DOC).err || \
	 { cat $(RUST_DOC).out $(RUST_DOC).err; exit 1; }
	@diff -u $(RUST_DOC).want $(RUST_DOC).out || \
	 { cat $(RUST_DOC).err; echo "check-rust-doc: unexpected output"; exit 1; }
	@echo "check-rust-doc: docs/consumers.md's example runs and prints what it says"
