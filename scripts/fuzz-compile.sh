#!/bin/sh
# Compiles what fkcgen emits for accepted contracts under the strict flags, with gcc and clang:
# accepted contracts yield C a consumer can build (`make check-fuzz-accepted`: the contracts and
# tests/fkcgen/fuzz_accepted/; the fuzz target emit, tests/fkcgen/fuzz_emit.c, compiles what it
# accepts itself). Each file is checked alone; it must be accepted, is generated into a temp dir
# and its fkc_bindings.c compiled by each compiler with $STRICT.
#   fuzz-compile.sh --all FKCGEN FILE...
# STRICT must be set (the Makefile passes $(STRICT)); CCS defaults to "gcc clang".
set -eu
mode=$1; shift
[ "$mode" = --all ] || { echo "usage: fuzz-compile.sh --all FKCGEN FILE..." >&2; exit 2; }
fkcgen=$1; shift
: "${STRICT:?set STRICT to the strict compile flags}"
CCS=${CCS:-gcc clang}
inc=$(cd "$(dirname "$0")/../runtime/include" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
done_n=0
for f in "$@"; do
	if ! "$fkcgen" check "$f" >/dev/null 2>&1; then
		echo "fuzz-compile: $f: not accepted by fkcgen check:" >&2
		"$fkcgen" check "$f" >&2 || true
		exit 1
	fi
	rm -rf "$tmp/out"
	"$fkcgen" gen --out-dir "$tmp/out" "$f" >/dev/null
	for cc in $CCS; do
		# shellcheck disable=SC2086
		if ! $cc $STRICT -I"$inc" -c "$tmp/out/fkc_bindings.c" -o "$tmp/out/b.o" 2>"$tmp/err"; then
			echo "fuzz-compile: $f: the generated code does not compile with $cc $STRICT:" >&2
			head -40 "$tmp/err" >&2
			exit 1
		fi
	done
	done_n=$((done_n + 1))
done
if [ "$done_n" = 0 ]; then
	echo "fuzz-compile: no accepted contract among $# files" >&2
	exit 1
fi
echo "fuzz-compile: $done_n accepted contracts generated and compiled with $CCS (strict)"
