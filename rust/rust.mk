# rust/rust.mk — the Rust crate rust/fkc (fragment of ../Makefile). `make check-rust` (part of
# `make test`) runs the crate's `cargo test --offline` against this build's build/libfkc.a and
# build/fkcgen, then rust/test_rerun.sh: on a copy of the crate, a contract change reruns its
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
	$(RUST_ENV) $(CARGO) test --offline --manifest-path rust/fkc/Cargo.toml -- --test-threads=1
	sh rust/test_rerun.sh $(CARGO) $(BUILD)

TEST_TARGETS += check-rust
