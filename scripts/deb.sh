#!/bin/sh
# deb.sh REPO OUT — `make deb` (runtime/install.mk): the Debian packages libfkcN, libfkc-dev and
# fkc-tools, built by `dpkg-buildpackage -b -us -uc` on a copy of the tree in OUT/fkc-VERSION
# (the files git tracks or would track; the whole tree but build/ outside a git checkout), so
# the checkout stays clean and its own build/ is not touched. Then:
#  - lintian on the .changes, which must report no error and no warning (its informational
#    tags are printed);
#  - each package holds what it should (the lists below);
#  - the packages work: unpacked into a temporary root, a program links through their fkc.pc
#    (pkg-config's sysroot pointing there) and runs, and examples/cmake-backend builds through
#    their CMake package and fkcgen and runs.
# The packages are left in OUT.
set -eu
REPO=$1
OUT=$2
fail() { echo "make deb: $*" >&2; exit 1; }
export LC_ALL=C
# (the caller's pkg-config sysroot too: it would prefix the fkc.pc check's /usr/bin/fkcgen)
unset MAKEFLAGS MFLAGS MAKELEVEL PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR \
    CMAKE_PREFIX_PATH 2>/dev/null || true

H="$REPO/runtime/include/fkc"
V=$(for f in MAJOR MINOR PATCH; do sed -n "s/^#define FKC_VERSION_$f \([0-9]*\)\$/\1/p" "$H/fkc_version.h"; done | paste -sd.)
N=$(sed -n 's/^#define FKC_SOVERSION \([0-9]*\)$/\1/p' "$H/fkc_version.h")
dv=$(sed -n '1s/^fkc (\([^)]*\)).*/\1/p' "$REPO/debian/changelog")
[ "$dv" = "$V" ] || fail "debian/changelog's version '$dv' is not fkc_version.h's $V"
grep -q "^Package: libfkc$N\$" "$REPO/debian/control" ||
    fail "debian/control has no package libfkc$N (FKC_SOVERSION is $N): rename libfkc<old> and its .install file"
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)

# ---- the copy --------------------------------------------------------------------------------
rm -rf "$OUT"
SRC="$OUT/fkc-$V"
mkdir -p "$SRC"
OUT=$(cd "$OUT" && pwd)
SRC="$OUT/fkc-$V"
if git -C "$REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$REPO" && git ls-files -z -co --exclude-standard | xargs -0 tar cf - --no-recursion) |
        tar xf - -C "$SRC"
else
    (cd "$REPO" && find . -path ./build -prune -o ! -type d -print | tar cf - -T -) | tar xf - -C "$SRC"
fi
[ -x "$SRC/debian/rules" ] || fail "the copy has no debian/rules"

# ---- the build ---------------------------------------------------------------------------------
echo "make deb: dpkg-buildpackage -b -us -uc in $SRC"
(cd "$SRC" && DEB_BUILD_OPTIONS="parallel=${DEB_JOBS:-2} ${DEB_BUILD_OPTIONS:-}" \
    dpkg-buildpackage -b -us -uc) > "$OUT/build.log" 2>&1 ||
    { tail -n 60 "$OUT/build.log"; fail "dpkg-buildpackage failed (all of it: $OUT/build.log)"; }
changes="$OUT/fkc_${V}_$ARCH.changes"
[ -f "$changes" ] || fail "no $changes"
for p in "libfkc$N" libfkc-dev fkc-tools; do
    [ -f "$OUT/${p}_${V}_$ARCH.deb" ] || fail "no package $p"
done
echo "make deb: built $(cd "$OUT" && ls ./*.deb | sed 's|^\./||' | grep -v dbgsym | tr '\n' ' ')"

# ---- lintian ----------------------------------------------------------------------------------
lintian --display-info --fail-on error,warning "$changes" > "$OUT/lintian.log" 2>&1 ||
    { cat "$OUT/lintian.log"; fail "lintian reports the errors or warnings above"; }
echo "make deb: lintian: no error, no warning$( [ -s "$OUT/lintian.log" ] && printf '; its notes:\n' && cat "$OUT/lintian.log")"

# ---- what each package holds ----------------------------------------------------------------
has() { # PACKAGE PATH...: each PATH is in the package
    p=$1; shift
    dpkg-deb -c "$OUT/${p}_${V}_$ARCH.deb" | awk '{ print $6 }' | sed 's|^\./|/|' > "$OUT/$p.files"
    for f in "$@"; do grep -qx "$f" "$OUT/$p.files" || fail "$p lacks $f"; done
}
L=/usr/lib/$MA
has "libfkc$N" "$L/libfkc.so.$N"
has libfkc-dev "$L/libfkc.so" "$L/libfkc.a" "$L/pkgconfig/fkc.pc" "$L/pkgconfig/fkc-static.pc" \
    "$L/cmake/fkc/fkcConfig.cmake" "$L/cmake/fkc/fkcConfigVersion.cmake" \
    "$L/cmake/fkc/fkcGenerate.cmake" "$L/cmake/fkc/fkcGenerateRun.cmake" \
    /usr/share/man/man3/fkc.3.gz $(cd "$H" && for h in *.h; do echo "/usr/include/fkc/$h"; done)
has fkc-tools /usr/bin/fkcgen /usr/bin/fkc-run /usr/share/man/man1/fkcgen.1.gz \
    /usr/share/man/man1/fkc-run.1.gz
if grep -q "libfkc\.so\|/usr/include" "$OUT/fkc-tools.files"; then fail "fkc-tools holds library files"; fi
[ "$(grep -c '^/usr/lib/.*\.so' "$OUT/libfkc$N.files")" -eq 1 ] || fail "libfkc$N holds more than the library"
dpkg-deb -f "$OUT/libfkc-dev_${V}_$ARCH.deb" Depends | grep -q "libfkc$N (= $V)" ||
    fail "libfkc-dev does not depend on libfkc$N (= $V)"
echo "make deb: libfkc$N, libfkc-dev and fkc-tools hold what they should"

# ---- the packages at work ----------------------------------------------------------------------
R="$OUT/root"
rm -rf "$R"
for p in "libfkc$N" libfkc-dev fkc-tools; do dpkg-deb -x "$OUT/${p}_${V}_$ARCH.deb" "$R"; done
cat > "$OUT/v.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "fkc/fkc_runtime.h"
int main(void)
{
    printf("fkc %s\n", fkc_version());
    return strcmp(fkc_version(), FKC_VERSION_STRING) != 0;
}
EOF
flags=$(PKG_CONFIG_PATH="$R$L/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$R" pkg-config --cflags --libs fkc)
${CC:-cc} "$OUT/v.c" -o "$OUT/v" $flags || fail "no link through the package's fkc.pc ($flags)"
LD_LIBRARY_PATH="$R$L" "$OUT/v" | grep -qx "fkc $V" || fail "the program linked to libfkc$N did not run"
[ "$(PKG_CONFIG_PATH="$R$L/pkgconfig" pkg-config --variable=fkcgen fkc)" = /usr/bin/fkcgen ] ||
    fail "the package's fkc.pc does not name /usr/bin/fkcgen"
cp -r "$REPO/examples/cmake-backend" "$OUT/cmb"
cmake -S "$OUT/cmb" -B "$OUT/cmb/b" -G Ninja -DCMAKE_PREFIX_PATH="$R/usr" > "$OUT/cmake.log" 2>&1 &&
    cmake --build "$OUT/cmb/b" >> "$OUT/cmake.log" 2>&1 ||
    { cat "$OUT/cmake.log"; fail "examples/cmake-backend does not build against the packages"; }
grep -q "$R/usr/bin/fkcgen" "$OUT/cmb/b/build.ninja" || fail "the CMake build did not use the package's fkcgen"
LD_LIBRARY_PATH="$R$L" "$OUT/cmb/b/cmake-backend" > "$OUT/run.log" 2>&1 &&
    grep -q "all bit-exact" "$OUT/run.log" || { cat "$OUT/run.log"; fail "cmake-backend against the packages"; }
rm -rf "$R" "$OUT/cmb" "$OUT/v" "$OUT/v.c" "$SRC"
echo "make deb: the unpacked packages work: a program through fkc.pc, examples/cmake-backend through fkcConfig.cmake"
echo "make deb: ok: $OUT"
