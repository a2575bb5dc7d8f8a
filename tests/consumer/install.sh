#!/bin/sh
# tests/consumer/install.sh REPO — `make install` and `make uninstall` (make check-install, part
# of `make test`), each into a temporary DESTDIR:
#  - with Debian's layout (PREFIX=/usr, LIBDIR=lib/<multiarch>) it writes exactly the expected
#    files, and fkc.pc and fkc-static.pc name the real directories: a program compiled and
#    linked through them (pkg-config's sysroot pointing into the stage) runs;
#  - make uninstall then leaves no file and no directory behind; installing twice, then
#    uninstalling, too; a directory that was there before (holding a file of the user's) stays;
#  - RELOCATABLE=1 writes a .pc that works after the tree is moved, and is refused when a
#    directory lies outside PREFIX; without it, such a directory is written as it is;
#  - a relative PREFIX, a '..' in LIBDIR and an uninstall with no manifest are refused.
set -eu
REPO=$1
T=$(mktemp -d /tmp/fkc_install_XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }
export LC_ALL=C
unset MAKEFLAGS MFLAGS MAKELEVEL PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR 2>/dev/null || true
export BUILD="${BUILD:-build}"
inst() { make -s -C "$REPO" "$@" > "$T/make.out" 2>&1 || { cat "$T/make.out"; return 1; }; }
# A make install or uninstall that must fail: its output in $T/make.out.
refused() { ! make -s -C "$REPO" "$@" > "$T/make.out" 2>&1; }
H="$REPO/runtime/include/fkc"
N=$(sed -n 's/^#define FKC_SOVERSION \([0-9]*\)$/\1/p' "$H/fkc_version.h")
V=$(for f in MAJOR MINOR PATCH; do sed -n "s/^#define FKC_VERSION_$f \([0-9]*\)\$/\1/p" "$H/fkc_version.h"; done | paste -sd.)
MA=$(${CC:-cc} -print-multiarch 2>/dev/null || true)
MA=${MA:-fkc-multi}

# ---- Debian's layout: the file list, and the .pc files at work ------------------------------
S="$T/stage"
inst install PREFIX=/usr LIBDIR="lib/$MA" DESTDIR="$S" || fail "make install failed"
{
    echo usr/bin/fkcgen; echo usr/bin/fkc-run
    for h in "$H"/*.h; do echo "usr/include/fkc/${h##*/}"; done
    for f in libfkc.a libfkc.so "libfkc.so.$N" pkgconfig/fkc.pc pkgconfig/fkc-static.pc \
             cmake/fkc/fkcConfig.cmake cmake/fkc/fkcConfigVersion.cmake \
             cmake/fkc/fkcGenerate.cmake cmake/fkc/fkcGenerateRun.cmake; do
        echo "usr/lib/$MA/$f"
    done
    for m in "$REPO"/docs/man/*.[0-9]; do echo "usr/share/man/man${m##*.}/${m##*/}"; done
    # the Rust crates' directory source: each crate's sources, Cargo.toml and checksums
    for c in fkc-sys fkc fkc-build; do
        for f in Cargo.toml .cargo-checksum.json; do echo "usr/share/cargo/registry/$c-$V/$f"; done
        (cd "$REPO/rust/$c" && ls build.rs src/*.rs contracts/*.md 2>/dev/null) |
            sed "s|^|usr/share/cargo/registry/$c-$V/|"
    done
    echo usr/share/fkc/install-manifest
} | sort > "$T/want"
(cd "$S" && find . ! -type d | sed 's|^\./||' | sort) > "$T/got"
diff -u "$T/want" "$T/got" || fail "make install wrote other files than those above"
[ "$(readlink "$S/usr/lib/$MA/libfkc.so")" = "libfkc.so.$N" ] || fail "libfkc.so is not a link to libfkc.so.$N"
for f in fkcgen fkc-run; do [ -x "$S/usr/bin/$f" ] || fail "$f is not executable"; done
cmp -s "$S/usr/lib/$MA/libfkc.a" "$REPO/$BUILD/libfkc.a" || fail "libfkc.a differs from the build's"
export PKG_CONFIG_PATH="$S/usr/lib/$MA/pkgconfig"
[ "$(pkg-config --variable=libdir fkc)" = "/usr/lib/$MA" ] || fail "fkc.pc: libdir $(pkg-config --variable=libdir fkc)"
[ "$(pkg-config --variable=includedir fkc)" = /usr/include ] || fail "fkc.pc: includedir"
[ "$(pkg-config --variable=fkcgen fkc)" = /usr/bin/fkcgen ] || fail "fkc.pc: fkcgen"
[ "$(pkg-config --variable=soversion fkc)" = "$N" ] || fail "fkc.pc: soversion"
# pkg-config's sysroot puts the stage in front of every path: the flags are the staged files'.
export PKG_CONFIG_SYSROOT_DIR="$S"
cat > "$T/v.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "fkc/fkc_runtime.h"
int main(void)
{
    printf("%s %s\n", fkc_version(), fkc_dtype_name(FKC_DTYPE_BF16));
    return strcmp(fkc_version(), FKC_VERSION_STRING) != 0;
}
EOF
${CC:-cc} "$T/v.c" -o "$T/v-shared" $(pkg-config --cflags --libs fkc) || fail "no link through fkc.pc"
${CC:-cc} "$T/v.c" -o "$T/v-static" $(pkg-config --cflags --libs fkc-static) || fail "no link through fkc-static.pc"
LD_LIBRARY_PATH="$S/usr/lib/$MA" "$T/v-shared" | grep -qx "$V BF16" ||
    fail "the program linked through fkc.pc did not run"
"$T/v-static" > /dev/null || fail "the program linked through fkc-static.pc did not run"
readelf -d "$T/v-shared" | grep -q "NEEDED.*libfkc.so.$N" || fail "fkc.pc did not link libfkc.so.$N"
if readelf -d "$T/v-static" | grep 'NEEDED.*libfkc'; then fail "fkc-static.pc linked libfkc.so"; fi
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH
echo "check-install: PREFIX=/usr LIBDIR=lib/$MA: $(wc -l < "$T/want") files; fkc.pc links libfkc.so.$N, fkc-static.pc libfkc.a"

# ---- uninstall leaves nothing; twice installed, once uninstalled, too ------------------------
inst uninstall PREFIX=/usr LIBDIR="lib/$MA" DESTDIR="$S" || fail "make uninstall failed"
[ -z "$(find "$S" -mindepth 1)" ] || { find "$S"; fail "make uninstall left the above"; }
inst install PREFIX=/usr LIBDIR="lib/$MA" DESTDIR="$S" && inst install PREFIX=/usr LIBDIR="lib/$MA" DESTDIR="$S" ||
    fail "installing twice failed"
inst uninstall PREFIX=/usr LIBDIR="lib/$MA" DESTDIR="$S" || fail "make uninstall after two installs failed"
[ -z "$(find "$S" -mindepth 1)" ] || { find "$S"; fail "make uninstall after two installs left the above"; }
# A prefix that holds the user's own things: they stay, and so do the directories holding them.
mkdir -p "$T/home/bin" "$T/home/share/man/man1"
echo mine > "$T/home/bin/mine"
inst install PREFIX="$T/home" || fail "make install into a used prefix failed"
inst uninstall PREFIX="$T/home" || fail "make uninstall from a used prefix failed"
(cd "$T/home" && find . | sort | tr '\n' ' ') > "$T/left"
[ "$(cat "$T/left")" = ". ./bin ./bin/mine ./share ./share/man ./share/man/man1 " ] ||
    fail "make uninstall from a used prefix left '$(cat "$T/left")'"
refused uninstall PREFIX="$T/home" || fail "a second uninstall (no manifest) succeeded"
grep -q "no manifest $T/home/share/fkc/install-manifest" "$T/make.out" || { cat "$T/make.out"; fail "no message for a missing manifest"; }
echo "check-install: make uninstall leaves no file or directory of fkc's, keeps the user's, refuses without a manifest"

# ---- relocatable .pc; directories outside PREFIX; refusals -------------------------------------
inst install PREFIX=/opt/fkc LIBDIR=lib64 RELOCATABLE=1 DESTDIR="$T/r" || fail "RELOCATABLE=1 install failed"
mv "$T/r/opt/fkc" "$T/moved"
export PKG_CONFIG_PATH="$T/moved/lib64/pkgconfig"
${CC:-cc} "$T/v.c" -o "$T/v-moved" $(pkg-config --cflags --libs fkc) || fail "no link through a moved fkc.pc"
LD_LIBRARY_PATH="$T/moved/lib64" "$T/v-moved" > /dev/null || fail "the program of a moved install did not run"
[ -x "$(pkg-config --variable=fkcgen fkc)" ] || fail "a moved fkc.pc names no fkcgen"
unset PKG_CONFIG_PATH
refused install PREFIX=/opt/fkc INCLUDEDIR=/usr/include/fkc-0 RELOCATABLE=1 DESTDIR="$T/x" ||
    fail "RELOCATABLE=1 with an INCLUDEDIR outside PREFIX was accepted"
grep -q "'/usr/include/fkc-0' is not below PREFIX '/opt/fkc'" "$T/make.out" || { cat "$T/make.out"; fail "no message for RELOCATABLE=1"; }
inst install PREFIX=/opt/fkc INCLUDEDIR=/usr/include/fkc-0 DESTDIR="$T/y" || fail "INCLUDEDIR outside PREFIX failed"
grep -qx 'includedir=/usr/include/fkc-0' "$T/y/opt/fkc/lib/pkgconfig/fkc.pc" || fail "fkc.pc: an INCLUDEDIR outside PREFIX"
[ -f "$T/y/usr/include/fkc-0/fkc/fkc_runtime.h" ] || fail "INCLUDEDIR outside PREFIX: no headers there"
refused install PREFIX=opt DESTDIR="$T/z" || fail "a relative PREFIX was accepted"
grep -q "PREFIX must be an absolute path, not 'opt'" "$T/make.out" || { cat "$T/make.out"; fail "no message for a relative PREFIX"; }
refused install PREFIX=/opt LIBDIR=lib/../x DESTDIR="$T/z" || fail "LIBDIR with '..' was accepted"
grep -q "no '..' in the directories" "$T/make.out" || { cat "$T/make.out"; fail "no message for '..'"; }
[ ! -e "$T/z" ] || fail "a refused install wrote $(find "$T/z" | head -n 3)"
echo "check-install: RELOCATABLE=1 works moved; directories outside PREFIX, relative PREFIX and '..' handled"
echo "check-install: ok"
