#!/bin/sh
# rust/test_rerun.sh CARGO BUILD — what reruns the fkc crate's build.rs, on a copy of rust/fkc
# (and its fkc-sys and fkc-build beside it) in BUILD/rust-rerun (the tree is not touched): the first build runs it; a build with nothing
# changed and an edit of the crate's Rust sources do not; touching a contract reruns it and
# regenerates the same bytes; changing a contract reruns it and changes the module; without
# the fkc build (FKC_BUILD_DIR elsewhere) it stops with a message saying to run make.
# Run from the repository root (make check-rust), after `make` built BUILD/libfkc.a and fkcgen.
set -eu
cargo=$1
build=$(cd "$2" && pwd)
work=$build/rust-rerun
rm -rf "$work"
mkdir -p "$work"
for c in fkc fkc-sys fkc-build; do
	cp -R "rust/$c" "$work/$c"
	rm -rf "$work/$c/Cargo.lock" "$work/$c/target"
done
export FKC_BUILD_DIR="$build" CARGO_TARGET_DIR="$work/target"
n=0

fail() {
	echo "test_rerun: $1 (log: $log)" >&2
	exit 1
}

# Builds verbosely into $log; $ran says whether build.rs ran.
build() {
	n=$((n + 1))
	log=$work/build$n.log
	"$cargo" build --offline -v --manifest-path "$work/fkc/Cargo.toml" >"$log" 2>&1 ||
		fail "cargo build failed"
	if grep -q 'Running `[^`]*/build/fkc-[0-9a-f]*/build-script-build' "$log"; then ran=yes; else ran=no; fi
}

module() {
	ls -t "$work"/target/debug/build/fkc-*/out/fkc_bindings.rs | head -n 1
}

build
[ "$ran" = yes ] || fail "the first build did not run build.rs"
cp "$(module)" "$work/first.rs"

build
[ "$ran" = no ] || fail "a build with nothing changed reran build.rs"
grep -q 'Fresh fkc v' "$log" || fail "a build with nothing changed rebuilt the crate"

sleep 1 # coarse file systems: let the next mtime differ
touch "$work/fkc/src/lib.rs"
build
[ "$ran" = no ] || fail "an edit of src/lib.rs reran build.rs"
grep -q 'Compiling fkc v' "$log" || fail "an edit of src/lib.rs did not recompile the crate"

touch "$work/fkc/contracts/write_slice.md"
build
[ "$ran" = yes ] || fail "touching a contract did not rerun build.rs"
cmp -s "$work/first.rs" "$(module)" || fail "regenerating from the same contract changed bytes"

sed -i 's/^flops: "0"/flops: "4"/' "$work/fkc/contracts/write_slice.md"
build
[ "$ran" = yes ] || fail "changing a contract did not rerun build.rs"
if cmp -s "$work/first.rs" "$(module)"; then fail "a contract change left the module as it was"; fi
grep -q '^        4\.0$' "$(module)" || fail "the changed cost is not in the module"

# Without the fkc build, build.rs stops with a message that says what to do.
log=$work/missing.log
if FKC_BUILD_DIR="$work/no-build" "$cargo" build --offline --manifest-path "$work/fkc/Cargo.toml" \
	>"$log" 2>&1; then
	fail "a build without libfkc.a and fkcgen succeeded"
fi
grep -q 'fkc[a-z-]*: fkcgen not found at .*no-build/fkcgen.*: run `make`' "$log" ||
	fail "a build without fkcgen did not say to run make"

echo "test_rerun: build.rs reruns on a contract change only; same contract, same bytes;" \
	"without the fkc build it says to run make"
