#!/bin/sh
# tests/rust/doc.sh REPO CARGO — docs/consumers.md's Rust section (make check-rust-doc, part of
# `make test`): its marked sh block run as written, from the fkc checkout, with HOME in a
# temporary directory (it installs fkc there, copies examples/rust-backend and builds it
# offline from the installed crates); the end of its stdout must be exactly the block under
# "It prints" (cargo's own messages go to stderr); every line of each block marked
# `<!-- rust-backend excerpt: FILE -->` must be a line of examples/rust-backend/FILE; then
# `make uninstall` leaves nothing in the temporary HOME's .local.
set -eu
REPO=$1 CARGO=$2
T=$(mktemp -d /tmp/fkc_rust_doc_XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "check-rust-doc: $*" >&2; exit 1; }
unset MAKEFLAGS MFLAGS MAKELEVEL PKG_CONFIG_PATH FKC_BUILD_DIR FKCGEN CARGO_TARGET_DIR 2>/dev/null || true
export BUILD="${BUILD:-build}" # fkc's build directory, for its `make install`
DOC=$REPO/docs/consumers.md
sed -n '/^<!-- rust consumer example/,/^```$/p' "$DOC" | sed -e '1,2d' -e '$d' > "$T/doc.sh"
[ -s "$T/doc.sh" ] || fail "no example in docs/consumers.md"
awk '/^It prints/ { f = 1; next } f && /^```/ { if (o) exit; o = 1; next } f && o' "$DOC" > "$T/want"
[ -s "$T/want" ] || fail "no output block in docs/consumers.md"
mkdir "$T/home"
# a rustup toolchain lives in the real HOME: keep finding it (Debian's cargo needs nothing)
if [ -z "${RUSTUP_HOME:-}" ] && [ -d "$HOME/.rustup" ]; then export RUSTUP_HOME="$HOME/.rustup"; fi
(cd "$REPO" && HOME="$T/home" PATH="$(dirname "$CARGO"):$PATH" sh -e "$T/doc.sh") \
    > "$T/out" 2> "$T/err" || { cat "$T/out" "$T/err"; fail "a command of the Rust section failed"; }
tail -n "$(wc -l < "$T/want")" "$T/out" | diff -u "$T/want" - ||
    { cat "$T/err"; fail "the example printed other lines than the doc says"; }

# The excerpts the section shows are the example's lines.
awk -v dir="$T" '
    /^<!-- rust-backend excerpt: / { file = $4; n++; next }
    file != "" && /^```/ { if (open) { file = ""; open = 0 } else open = 1; next }
    file != "" && open && NF { print > (dir "/excerpt." n "." file_id(file)) ; print file > (dir "/excerpt." n ".file") }
    function file_id(f) { gsub("/", "_", f); return f }
' "$DOC"
k=0
for e in "$T"/excerpt.*.file; do
    [ -e "$e" ] || fail "docs/consumers.md shows no excerpt of examples/rust-backend"
    f=$(head -n 1 "$e")
    lines=${e%.file}.$(echo "$f" | tr / _)
    while IFS= read -r line; do
        grep -qxF -- "$line" "$REPO/examples/rust-backend/$f" ||
            fail "docs/consumers.md shows a line examples/rust-backend/$f does not hold: $line"
        k=$((k + 1))
    done < "$lines"
done

(cd "$REPO" && make -s uninstall PREFIX="$T/home/.local" > /dev/null)
[ ! -e "$T/home/.local" ] || { find "$T/home/.local"; fail "make uninstall left the above"; }
echo "check-rust-doc: docs/consumers.md's Rust section runs and prints what it says; its $k excerpt lines are the example's"
