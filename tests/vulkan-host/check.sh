#!/bin/sh
# tests/vulkan-host/check.sh REPO — fkc as a guest in a program's own Vulkan, the way
# docs/runtime.md ("Using fkc inside your own Vulkan device") shows it (make check-vulkan-host):
# every command of its marked sh blocks, run in order in one shell from the checkout with HOME in
# a temporary directory (a DESTDIR install found through pkg-config, examples/vulkan-host built
# against it and run on the default device with the validation layer and its synchronization
# validation on: it exits non-zero on any message or wrong byte), and every line of its marked C
# blocks found in examples/vulkan-host/main.c, so the calls the page shows are the ones run.
set -eu
REPO=$1
T=$(mktemp -d /tmp/fkc_vulkan_host_XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "check-vulkan-host: $*" >&2; exit 1; }
unset MAKEFLAGS MFLAGS MAKELEVEL PKG_CONFIG_PATH 2>/dev/null || true
export BUILD="${BUILD:-build}"
DOC="$REPO/docs/runtime.md"

sed -n '/^<!-- vulkan-host-test -->$/,/^```$/p' "$DOC" | grep -v '^<!-- ' | grep -v '^```' \
    > "$T/doc.sh"
[ "$(grep -c . "$T/doc.sh")" -ge 4 ] || fail "docs/runtime.md: its marked sh blocks are missing"
mkdir "$T/home"
(cd "$REPO" && HOME="$T/home" sh -ex "$T/doc.sh") > "$T/doc.out" 2>&1 ||
    { cat "$T/doc.out"; fail "a command of docs/runtime.md failed"; }
grep -q "^vulkan-host: 3072 ring bytes bit-exact after a prompt and 20 rotating steps in one command buffer" "$T/doc.out" ||
    { cat "$T/doc.out"; fail "the example did not report its bytes bit-exact"; }
grep -qx "vulkan-host: 0 validation messages" "$T/doc.out" ||
    { cat "$T/doc.out"; fail "the example did not report a silent validation layer"; }
grep -q "NEEDED.*\[libfkc.so.1\]" "$T/doc.out" ||
    { cat "$T/doc.out"; fail "readelf listed no NEEDED libfkc.so.1 for the example"; }
[ "$(grep -c "NEEDED.*\[libc.so.6\]" "$T/doc.out")" -eq 2 ] ||
    { cat "$T/doc.out"; fail "readelf did not list the NEEDED of both the example and libfkc.so.1"; }
if grep "NEEDED.*libvulkan" "$T/doc.out"; then
    fail "the example or the installed libfkc.so.1 links libvulkan (both load it at run time)"
fi
echo "check-vulkan-host: docs/runtime.md: $(grep -c . "$T/doc.sh") commands run; the example is bit-exact with validation clean; neither it nor libfkc.so.1 has libvulkan in its NEEDED"

sed -n '/^<!-- vulkan-host-code -->$/,/^```$/p' "$DOC" | grep -v '^<!-- ' | grep -v '^```' \
    > "$T/code.c"
[ "$(grep -c . "$T/code.c")" -ge 10 ] || fail "docs/runtime.md: its marked C blocks are missing"
n=0
while IFS= read -r line; do
    l=$(printf '%s' "$line" | sed 's/^ *//; s/ *$//')
    [ -z "$l" ] && continue
    grep -qF -- "$l" "$REPO/examples/vulkan-host/main.c" ||
        fail "docs/runtime.md shows a line examples/vulkan-host/main.c does not run: $l"
    n=$((n + 1))
done < "$T/code.c"
echo "check-vulkan-host: docs/runtime.md: $n lines of C, each found in examples/vulkan-host/main.c"
