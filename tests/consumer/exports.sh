#!/bin/sh
# tests/consumer/exports.sh REPO BUILD — libfkc as a library (make check-exports, part of
# `make test`): build/libfkc.so.N has the SONAME libfkc.so.N (N = FKC_SOVERSION) and the
# build/libfkc.so link; its dynamic symbols are exactly the functions and variables the public
# headers declare (scripts/public_api.py reads them with clang), so a declaration added to any
# header, or a helper that leaks, fails here; every object of libfkc.a is position-independent
# (the whole archive links into a shared object); the (SOVERSION, FKC_RUNTIME_ABI) pair is the
# last of runtime/abi-history; and every copy of the version agrees with fkc/fkc_version.h.
set -eu
REPO=$1
B=$2
T=$(mktemp -d /tmp/fkc_exports_XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "check-exports: $*" >&2; exit 1; }
H="$REPO/runtime/include/fkc"
field() { sed -n "s/^#define FKC_$1 \([0-9][0-9]*\)\$/\1/p" "$H/$2"; }
N=$(field SOVERSION fkc_version.h)
ABI=$(field RUNTIME_ABI fkc_kernels.h)
V="$(field VERSION_MAJOR fkc_version.h).$(field VERSION_MINOR fkc_version.h).$(field VERSION_PATCH fkc_version.h)"
[ -n "$N" ] && [ -n "$ABI" ] || fail "no FKC_SOVERSION or FKC_RUNTIME_ABI in the headers"
SO="$B/libfkc.so.$N"

# ---- the shared library's name -------------------------------------------------------------
[ -f "$SO" ] || fail "no $SO"
[ "$(readlink "$B/libfkc.so")" = "libfkc.so.$N" ] || fail "$B/libfkc.so does not link to libfkc.so.$N"
soname=$(readelf -d "$SO" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libfkc.so.$N" ] || fail "SONAME of $SO is '$soname', not libfkc.so.$N"
echo "check-exports: $SO: SONAME $soname"

# ---- the exports are the headers' declarations ------------------------------------------------
python3 "$REPO/scripts/public_api.py" clang "$REPO/runtime/include" > "$T/declared"
nm -D --defined-only "$SO" | awk 'NF == 3 { print $3 }' | sed 's/@.*//' | sort -u > "$T/exported"
comm -23 "$T/declared" "$T/exported" > "$T/missing"
comm -13 "$T/declared" "$T/exported" > "$T/extra"
if [ -s "$T/missing" ]; then
    cat "$T/missing"
    fail "declared in runtime/include/fkc/*.h but not exported by $SO (a header without the visibility pragma, or not defined): the names above"
fi
if [ -s "$T/extra" ]; then
    cat "$T/extra"
    fail "exported by $SO but declared in no public header: the names above"
fi
echo "check-exports: $SO exports exactly the $(wc -l < "$T/declared") functions and variables the public headers declare"

# ---- libfkc.a is position-independent: all of it links into a shared object ----------------
${CC:-cc} -shared -o "$T/whole.so" -Wl,--whole-archive "$B/libfkc.a" -Wl,--no-whole-archive \
    -lpthread -ldl 2> "$T/err" || { cat "$T/err"; fail "libfkc.a does not link into a shared object (not PIC?)"; }
echo "check-exports: every object of libfkc.a links into a shared object"

# ---- the ABI pair, and the copies of the version ------------------------------------------------
last=$(grep -v '^#' "$REPO/runtime/abi-history" | grep . | tail -n 1)
[ "$last" = "$N $ABI" ] || fail "FKC_SOVERSION $N with FKC_RUNTIME_ABI $ABI is not the last line of runtime/abi-history ('$last'): a new FKC_RUNTIME_ABI takes a new FKC_SOVERSION (fkc_version.h says why)"
grep -v '^#' "$REPO/runtime/abi-history" | grep . | awk -v f="$REPO/runtime/abi-history" '
    NR > 1 && ($1 <= so || $2 < abi) { print f ": line \"" $0 "\" does not follow \"" so " " abi "\""; bad = 1 }
    { so = $1; abi = $2 } END { exit bad }' || fail "runtime/abi-history is out of order"
[ "$("$B/fkcgen" --version)" = "fkcgen $V" ] || fail "fkcgen --version is not $V"
[ "$("$B/fkc-run" --version)" = "fkc-run $V" ] || fail "fkc-run --version is not $V"
if [ -f "$REPO/debian/changelog" ]; then
    dv=$(sed -n '1s/^fkc (\([^)]*\)).*/\1/p' "$REPO/debian/changelog")
    [ "$dv" = "$V" ] || fail "debian/changelog's version is '$dv', not fkc_version.h's $V (add an entry: dch -v $V)"
fi
for m in "$REPO"/docs/man/*.[13]; do
    grep -q "^\.TH .* \"[a-z-]* $V\"" "$m" || fail "${m#"$REPO"/}: its .TH line does not name version $V"
done
echo "check-exports: FKC_SOVERSION $N, FKC_RUNTIME_ABI $ABI (runtime/abi-history); version $V in fkcgen, fkc-run, the man pages${dv:+ and debian/changelog}"
