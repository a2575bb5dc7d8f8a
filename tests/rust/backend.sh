#!/bin/sh
# tests/rust/backend.sh REPO CARGO — the Rust crates as an installed package (make
# check-rust-backend, part of `make test`): a DESTDIR install (RELOCATABLE=1), moved elsewhere,
# whose DATADIR/cargo/registry is a Cargo directory source (each crate's .cargo-checksum.json
# matching its files, no path dependency left); examples/rust-backend, copied out of the tree,
# builds offline against it (fkc, fkc-sys and fkc-build by version from that source, libfkc and
# fkcgen through pkg-config) and runs bit-exact; a second build does nothing, touching a
# contract reruns only the crate's build script, a contract fkcgen refuses fails the build with
# its file:line:col message; a tampered installed file, and an installed fkc of another version
# than the crates', are refused.
set -eu
REPO=$1 CARGO=$2
T=$(mktemp -d /tmp/fkc_rust_backend_XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "check-rust-backend: $*" >&2; exit 1; }
unset MAKEFLAGS MFLAGS MAKELEVEL FKC_BUILD_DIR FKCGEN 2>/dev/null || true
V=$(for f in MAJOR MINOR PATCH; do
    sed -n "s/^#define FKC_VERSION_$f \([0-9]*\)\$/\1/p" "$REPO/runtime/include/fkc/fkc_version.h"; done | paste -sd.)

# ---- the install, moved: a directory source of three crates ------------------------------
make -s -C "$REPO" install PREFIX=/opt/fkc DESTDIR="$T/stage" RELOCATABLE=1 >/dev/null
mv "$T/stage" "$T/moved"
REG=$T/moved/opt/fkc/share/cargo/registry
[ "$(ls "$REG")" = "$(printf 'fkc-%s\nfkc-build-%s\nfkc-sys-%s' "$V" "$V" "$V")" ] ||
    fail "the registry holds '$(ls "$REG" | tr '\n' ' ')', not fkc, fkc-build, fkc-sys $V"
for c in "$REG"/*; do
    sum=$c/.cargo-checksum.json
    [ -f "$sum" ] || fail "${c##*/}: no .cargo-checksum.json"
    # every file but the checksum itself is listed with its sha256
    (cd "$c" && find . -type f ! -name .cargo-checksum.json | sed 's|^\./||' | sort) > "$T/files"
    tr '{,}' '\n\n\n' < "$sum" | sed -n 's/^"\([^"]*\)":"\([0-9a-f]\{64\}\)"$/\1 \2/p' | sort > "$T/listed"
    [ "$(cut -d' ' -f1 "$T/listed")" = "$(cat "$T/files")" ] ||
        { diff "$T/files" "$T/listed"; fail "${c##*/}: the checksums list other files than the crate holds"; }
    while read -r f h; do
        [ "$(sha256sum "$c/$f" | cut -d' ' -f1)" = "$h" ] || fail "${c##*/}/$f: its checksum differs"
    done < "$T/listed"
    if grep -n 'path *=' "$c/Cargo.toml"; then fail "${c##*/}/Cargo.toml keeps a path dependency"; fi
    grep -qx "version = \"$V\"" "$c/Cargo.toml" || fail "${c##*/}/Cargo.toml is not version $V"
done

# ---- examples/rust-backend against it ----------------------------------------------------
cp -r "$REPO/examples/rust-backend" "$T/proj"
cd "$T/proj"
rm -rf target Cargo.lock .cargo
mkdir .cargo
printf '[source.crates-io]\nreplace-with = "fkc-installed"\n\n[source.fkc-installed]\ndirectory = "%s"\n' \
    "$REG" > .cargo/config.toml
export PKG_CONFIG_PATH="$T/moved/opt/fkc/lib/pkgconfig" CARGO_TARGET_DIR="$T/target"
n=0
build() { # build [cargo args]: into $T/build$n.log; $ran: whether the crate's build script ran
    n=$((n + 1)); log=$T/build$n.log
    "$CARGO" build --offline -v "$@" > "$log" 2>&1
    st=$?
    if grep -q 'Running `[^`]*/build/rust-backend-[0-9a-f]*/build-script-build' "$log"; then ran=yes; else ran=no; fi
    return $st
}
build || { cat "$log"; fail "the first build failed"; }
[ "$ran" = yes ] || fail "the first build did not run build.rs"
for c in fkc fkc-sys fkc-build; do
    grep -q "Compiling $c v$V\$" "$log" || { cat "$log"; fail "$c $V was not built from the installed source"; }
    sed -n "/^name = \"$c\"\$/,/^\$/p" Cargo.lock | grep -q '^source = "registry+' ||
        fail "Cargo.lock: $c does not come from the (replaced) registry"
done
"$CARGO" run --offline --quiet > "$T/run.out" 2> "$T/run.err" || { cat "$T/run.out" "$T/run.err"; fail "the example failed"; }
grep -qx "rust-backend: providers fuel_vulkan_backend::fkc::ENTRY_POINTS (18 symbols) and rust_backend::fill::ENTRY_POINTS (9 symbols)" "$T/run.out" &&
grep -qx "rust-backend: Fill, WriteSlice, WriteSliceRotating on 9 dtypes through two link registries: all bit-exact" "$T/run.out" ||
    { cat "$T/run.out" "$T/run.err"; fail "the example did not print what it should"; }

build || fail "the second build failed"
[ "$ran" = no ] || fail "a build with nothing changed reran build.rs"
grep -q 'Fresh rust-backend' "$log" || { cat "$log"; fail "a build with nothing changed rebuilt the crate"; }
sleep 1 # coarse file systems: let the next mtime differ
touch fill/fill.md
build || fail "the build after touching fill/fill.md failed"
[ "$ran" = yes ] || fail "touching a contract did not rerun build.rs"
grep -q 'Compiling fkc v\|Running `[^`]*/build/fkc-sys-' "$log" && fail "touching a contract rebuilt fkc or reran fkc-sys's build.rs"
sed -i 's/^op_kind: Fill$/op_kind: Fill\nbogus_key: 1/' fill/fill.md
if build; then fail "a contract fkcgen refuses built"; fi
grep -q 'fill/fill.md:[0-9]*:[0-9]*: error: ' "$log" || { cat "$log"; fail "no file:line:col message for the refused contract"; }
grep -q 'fkc-build: fkcgen refused the contracts' "$log" || { cat "$log"; fail "fkc-build did not say fkcgen refused"; }
cp "$REPO/examples/rust-backend/fill/fill.md" fill/fill.md

# ---- refusals: a tampered installed crate, an fkc of another version ------------------------
echo '// edited' >> "$REG/fkc-$V/src/lib.rs"
if CARGO_TARGET_DIR="$T/target2" build; then fail "a tampered installed crate built"; fi
grep -q "the listed checksum of .*fkc-$V/src/lib.rs. has changed" "$log" || { cat "$log"; fail "no checksum message"; }
sed -i '$d' "$REG/fkc-$V/src/lib.rs"
mkdir "$T/pc"
sed "s/^Version: .*/Version: 9.9.9/" "$PKG_CONFIG_PATH/fkc.pc" > "$T/pc/fkc.pc"
sed -i "s|^prefix=.*|prefix=$T/moved/opt/fkc|" "$T/pc/fkc.pc"
if PKG_CONFIG_PATH="$T/pc" build; then fail "an installed fkc 9.9.9 was accepted by the $V crates"; fi
grep -q "fkc-sys: pkg-config's fkc .* is fkc 9.9.9, this crate is for fkc $V" "$log" ||
    { cat "$log"; fail "no message for an fkc of another version"; }
# the crates' versions are fkc_version.h's: rust/cargo_source.sh (make install) refuses others
if (cd "$REPO" && sh rust/cargo_source.sh "$T/vcheck" fkc 9.9.9 src/lib.rs) 2> "$T/v.err"; then
    fail "cargo_source.sh installed fkc $V's crate as 9.9.9"
fi
grep -q "rust/fkc: Cargo.toml's version is '$V', fkc_version.h's 9.9.9" "$T/v.err" || { cat "$T/v.err"; fail "no message for a crate of another version"; }
[ ! -e "$T/vcheck/fkc-9.9.9/Cargo.toml" ] || fail "a refused crate was written"
echo "check-rust-backend: the $V crates install as a directory source; examples/rust-backend builds offline against it and runs bit-exact; rebuilds and refusals as they should be"
