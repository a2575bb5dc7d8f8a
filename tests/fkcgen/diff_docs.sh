#!/bin/sh
# diff_docs.sh FKCGEN — runs the two command blocks of docs/fkcgen.md's `## diff` section
# verbatim (build/fkcgen replaced by FKCGEN) and checks what they print: the example, from the
# repository root; the CI block, in a scratch repository with an `origin` whose main the pull
# request branched from, once with the pull request's allow file accepting its break (exit 0)
# and once without (exit 1); and the `gen --select` / `--shards` example block of its selective
# builds section. Run by `make check-diff-docs` (part of `make test`).
set -eu
fkcgen=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The block after the marker line $1 of docs/fkcgen.md, build/fkcgen replaced.
block() {
	sed -n "/^<!-- $1/,/^\`\`\`\$/p" docs/fkcgen.md | sed -e '1,2d' -e '$d' \
		-e "s|build/fkcgen|$fkcgen|g"
}

expect() { # file, fixed string it must hold
	grep -qF -- "$2" "$1" || { echo "check-diff-docs: $1 lacks: $2"; fail=1; }
}

block "fkcgen select example" > "$tmp/select.sh"
[ -s "$tmp/select.sh" ] || { echo "check-diff-docs: no select block in docs/fkcgen.md"; exit 1; }
sh -e "$tmp/select.sh" > "$tmp/select.out" 2>&1 || { cat "$tmp/select.out"; exit 1; }
out=$tmp/select.out
expect "$out" "#define FKC_BINDING_COUNT 1"
expect "$out" "bad.sel:1:1: error: op kind 'WriteSlise' is bound by no contract; did you mean 'WriteSlice'?"
expect "$out" "fkcgen gen: nothing written (contract errors)"
expect "$out" "exit 1"
for f in fkc_bindings.h fkc_bindings.c fkc_bindings_1.c fkc_bindings_2.c fkc_bindings_3.c \
	fkc_bindings.rs fkc_bindings_1.rs; do
	grep -qx "$f" "$out" || { echo "check-diff-docs: the --shards 4 example did not list $f"; fail=1; }
done

block "fkcgen diff example" > "$tmp/example.sh"
block "fkcgen diff in CI" > "$tmp/ci.sh"
for s in example ci; do
	[ -s "$tmp/$s.sh" ] || { echo "check-diff-docs: no $s block in docs/fkcgen.md"; exit 1; }
done

sh -e "$tmp/example.sh" > "$tmp/example.out" 2>&1 || { cat "$tmp/example.out"; exit 1; }
out=$tmp/example.out
expect "$out" "error: dtype I8 removed from input 'src' of kernel 'write_slice': (WriteSlice, [I8, I8], Vulkan) + vulkan-slang [DTYPE_REMOVED, breaking]"
expect "$out" "error: dtype I8 removed from input 'src' of kernel 'write_slice_rotating': (WriteSliceRotating, [I8, I8], Vulkan) + vulkan-slang [DTYPE_REMOVED, breaking]"
expect "$out" "[DTYPE_REMOVED, breaking, allowed by "
expect "$out" "expired on 2027-06-30 (today is 2027-07-01)"
expect "$out" "| \`DTYPE_REMOVED\` | breaking |"
[ "$(grep -c '^exit 1$' "$out")" = 3 ] || { echo "check-diff-docs: the example's three runs do not each exit 1"; fail=1; }

# The CI block: main has the contract; the pull request drops U8.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
git init -q --bare -b main "$tmp/origin.git"
git clone -q "$tmp/origin.git" "$tmp/pr" 2>/dev/null
mkdir "$tmp/pr/contracts"
cp tests/fkcgen/diff/dtype_added/old.md "$tmp/pr/contracts/copy.md"
: > "$tmp/pr/contracts/diff-allow.txt"
(cd "$tmp/pr" && git add . && git commit -qm one && git push -q origin main &&
 git checkout -q -b pr && sed -i 's/dtypes: \[F32, U8\]/dtypes: [F32]/' contracts/copy.md &&
 git commit -qam "drop U8")
rc=0
(cd "$tmp/pr" && sh -e "$tmp/ci.sh") > "$tmp/ci.out" 2>&1 || rc=$?
[ $rc = 1 ] || { echo "check-diff-docs: the CI block exited $rc, not 1, on an unaccepted break"; cat "$tmp/ci.out"; fail=1; }
expect "$tmp/ci.out" "origin/main...:contracts/copy.md:23:15: note: was listed here"
# The pull request's allow file accepts it, a year ahead (the date moves with the clock).
until=$(date -u -d '+365 days' +%Y-%m-%d)
echo "DTYPE_REMOVED (Copy, [U8, U8], Vulkan) + vulkan-slang $until U8 moves" \
	> "$tmp/pr/contracts/diff-allow.txt"
rc=0
(cd "$tmp/pr" && sh -e "$tmp/ci.sh") > "$tmp/ci2.out" 2>&1 || rc=$?
[ $rc = 0 ] || { echo "check-diff-docs: the CI block exited $rc, not 0, with the break allowed"; cat "$tmp/ci2.out"; fail=1; }
expect "$tmp/ci2.out" "warning: dtype U8 removed from input 'src' of kernel 'copy'"

[ $fail = 0 ] && echo "check-diff-docs: docs/fkcgen.md's diff example and CI block run and print what they say"
exit $fail
