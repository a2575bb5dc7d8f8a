#!/bin/sh
# tests/consumer/check.sh REPO — fkc used as an installed package, as a C project would
# (make check-consumer): every command of docs/consumers.md, run in order with HOME in a
# temporary directory; then a DESTDIR install (RELOCATABLE=1), moved elsewhere, used through pkg-config by a copy
# of examples/c-backend: it builds and runs (nine dtypes bit-exact), a second make does nothing,
# a contract edit recompiles exactly what includes a changed generated file; a stale
# generated/runtime pairing fails to build with its message (other ABI in the headers, a library
# without fkc_runtime_abi_4, a wrapper of another signature, a contract disagreeing with the
# runtime's params); two providers (--prefix a and b) link into one program.
set -eu
REPO=$1
T=$(mktemp -d /tmp/fkc_consumer_XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "check-consumer: $*" >&2; exit 1; }
STRICT="-std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wmissing-prototypes -Wstrict-prototypes -Werror"
export LC_ALL=C # the compilers' messages in ASCII quotes
unset MAKEFLAGS MFLAGS MAKELEVEL PKG_CONFIG_PATH 2>/dev/null || true
export BUILD="${BUILD:-build}" # fkc's build directory, for its `make install`

# ---- 1. docs/consumers.md, every marked block, in one shell, as a new user runs them ------
# (a line calling cc calls make's $CC when it has one: make sanitize's carries the sanitizers
# its instrumented libfkc needs)
sed -n '/^<!-- consumers-test -->$/,/^```$/p' "$REPO/docs/consumers.md" |
    grep -v '^<!-- consumers-test -->$' | grep -v '^```' |
    sed 's/^cc /${CC:-cc} /' > "$T/doc.sh"
[ "$(grep -c . "$T/doc.sh")" -ge 40 ] || fail "docs/consumers.md: its marked blocks are missing"
mkdir "$T/home"
(cd "$REPO" && HOME="$T/home" sh -ex "$T/doc.sh") > "$T/doc.out" 2>&1 ||
    { cat "$T/doc.out"; fail "a command of docs/consumers.md failed"; }
V=$(for f in MAJOR MINOR PATCH; do
    sed -n "s/^#define FKC_VERSION_$f \([0-9]*\)\$/\1/p" "$REPO/runtime/include/fkc/fkc_version.h"; done | paste -sd.)
expect() { grep -q "$1" "$T/doc.out" || { cat "$T/doc.out"; fail "the doc's run printed no '$1' ($2)"; }; }
grep -qx "$V" "$T/doc.out" || fail "pkg-config --modversion fkc: not $V"
expect "^-L$T/home/.local/lib -lfkc *\$" "pkg-config --libs fkc"
expect "^$T/home/.local/lib/libfkc.a -lpthread -ldl *\$" "pkg-config --libs fkc-static"
[ "$(grep -c "^hello: libfkc $V, headers $V: [1-9][0-9]* Vulkan device(s) (ok)$" "$T/doc.out")" -eq 3 ] ||
    { cat "$T/doc.out"; fail "hello, hello-rpath and hello-static did not all run"; }
expect "NEEDED.*\[libfkc.so.1\]" "readelf -d hello-rpath"
if grep "NEEDED.*libvulkan" "$T/doc.out"; then
    fail "hello-rpath or hello-static has libvulkan in its NEEDED (libfkc opens it at run time)"
fi
expect "RUNPATH.*\[$T/home/.local/lib\]" "readelf -d hello-rpath"
expect "^[0-9a-f]* T plugin_runtime_version$" "nm -D plugin.so"
if grep -q "^[0-9a-f]* [A-Za-z] fkc_" "$T/doc.out"; then fail "plugin.so exports fkc_ names"; fi
expect "^host: the plugin carries fkc $V$" "./host ./plugin.so"
grep -q "9 dtypes through cb_dispatch: all bit-exact" "$T/doc.out" || { cat "$T/doc.out"; fail "the doc's make example did not run"; }
[ "$(grep -c "^make: Nothing to be done for 'all'.$" "$T/doc.out")" -eq 2 ] ||
    { cat "$T/doc.out"; fail "the doc's second makes were not no-ops"; }
expect "Reverse, WriteSlice on 9 dtypes through cm_dispatch: all bit-exact" "./build/cmake-backend"
[ "$(grep -c "^ninja: no work to do.$" "$T/doc.out")" -eq 2 ] ||
    { cat "$T/doc.out"; fail "the doc's second cmake builds were not no-ops"; }
# the prose edit: fkcgen, then cm_bindings.c alone recompiled, and the link
sed -n '/^+ echo A note on this family/,/^ninja: no work to do.$/p' "$T/doc.out" |
    grep -o 'Building C object [^ ]*\|fkcgen: cm bindings\|Linking C executable [^ ]*' | tr '\n' ' ' > "$T/prose"
[ "$(cat "$T/prose")" = "fkcgen: cm bindings Building C object CMakeFiles/cmake-backend.dir/fkc_generated/cmake-backend/cm_bindings.c.o Linking C executable cmake-backend " ] ||
    { cat "$T/doc.out"; fail "the doc's prose edit built '$(cat "$T/prose")'"; }
[ ! -e "$T/home/.local" ] || { find "$T/home/.local"; fail "make uninstall left the above"; }
echo "check-consumer: docs/consumers.md: $(grep -c . "$T/doc.sh") commands run"

# ---- 2. a DESTDIR install (RELOCATABLE=1), moved: found through pkg-config where it lies -----
make -s -C "$REPO" install PREFIX=/opt/fkc DESTDIR="$T/stage" RELOCATABLE=1 >/dev/null
for m in "$REPO"/docs/man/*.1; do # the man pages, when the checkout has them
    [ -f "$m" ] || continue
    cmp -s "$m" "$T/stage/opt/fkc/share/man/man1/${m##*/}" || fail "${m##*/} not installed"
done
mv "$T/stage" "$T/moved"
export PKG_CONFIG_PATH="$T/moved/opt/fkc/lib/pkgconfig"
[ "$(pkg-config --variable=fkcgen fkc)" = "$T/moved/opt/fkc/lib/pkgconfig/../../bin/fkcgen" ] ||
    fail "fkc.pc does not follow a moved install: $(pkg-config --variable=fkcgen fkc)"
# The library: no generated code in it, and every symbol it exports is fkc_-prefixed.
nm -g --defined-only "$T/moved/opt/fkc/lib/libfkc.a" | awk 'NF == 3 { print $3 }' > "$T/syms"
[ -s "$T/syms" ] || fail "nm listed no symbol of libfkc.a"
# (__odr_asan.*: AddressSanitizer's one-definition-rule markers, under make sanitize only)
if grep -v '^fkc_' "$T/syms" | grep -v '^__odr_asan\.fkc_'; then
    fail "libfkc.a exports the names above, not fkc_-prefixed"
fi
if grep -x 'fkc_dispatch\|fkc_bindings\|fkc_register_bindings' "$T/syms"; then
    fail "libfkc.a holds generated code"
fi
if grep -l 'bindings\.h' "$REPO"/runtime/src/*; then fail "runtime/src includes generated code"; fi
cp -r "$REPO/examples/c-backend" "$T/proj"
cd "$T/proj"
rm -rf build
make > "$T/b1.out" 2>&1 || { cat "$T/b1.out"; fail "the example does not build"; }
./build/c-backend | grep -q "9 dtypes through cb_dispatch: all bit-exact" || fail "example run"
[ "$(make 2>&1)" = "make: Nothing to be done for 'all'." ] || fail "a second make did something"
make -q || fail "make -q: out of date right after a build"

# What a make run compiled or linked: its "-o FILE" arguments, sorted.
built() { make 2>&1 | tee "$T/last.out" | sed -n 's/.* -o \([^ ]*\).*/\1/p' | sort | tr '\n' ' '; }
# An edit, then: fkcgen reran; exactly the objects including a changed output recompiled.
edit_rebuilds() {
    what=$1
    cp build/gen/cb_bindings.h build/gen/cb_bindings.c "$T/"
    got=$(built)
    grep -q "fkcgen gen --prefix cb" "$T/last.out" || fail "$what: fkcgen did not run again"
    want=""
    cmp -s build/gen/cb_bindings.h "$T/cb_bindings.h" || want="build/c-backend build/cb_bindings.o build/fill.o build/main.o "
    if [ -z "$want" ] && ! cmp -s build/gen/cb_bindings.c "$T/cb_bindings.c"; then
        want="build/c-backend build/cb_bindings.o "
    fi
    [ "$got" = "$want" ] || fail "$what: rebuilt '$got', expected '$want'"
    [ "$(make 2>&1)" = "make: Nothing to be done for 'all'." ] || fail "$what: make after it did something"
    # make -q agrees when fkcgen rewrote both files (after one it left alone, make -q and -n
    # cannot know that the file's empty recipe changes nothing: docs/consumers.md)
    if ! cmp -s build/gen/cb_bindings.h "$T/cb_bindings.h" &&
       ! cmp -s build/gen/cb_bindings.c "$T/cb_bindings.c"; then
        make -q || fail "$what: make -q says out of date"
    fi
    echo "check-consumer: $what: rebuilt ${want:-nothing}"
}
sleep 1 # mtimes: the edits below must be newer than the build
touch contracts/write_slice.md
edit_rebuilds "a touched contract"
echo "A line of prose." >> fill/fill.md
edit_rebuilds "a prose edit"
sed -i 's/dtypes: \[F32, I32, U32, F16, BF16, F64, I64, U8, I8\] # 9 dtypes/dtypes: [F32, I32, U32, F16, BF16, F64, I64, U8] # 8 dtypes/' contracts/write_slice.md
edit_rebuilds "I8 dropped from both write-slice kernels"
grep -q "define CB_BINDING_COUNT 25" build/gen/cb_bindings.h || fail "the dtype edit had no effect"
./build/c-backend >/dev/null 2>&1 && fail "the example still ran I8 through write_slice"
cp "$REPO/examples/c-backend/contracts/write_slice.md" contracts/write_slice.md
make >/dev/null 2>&1 && ./build/c-backend >/dev/null || fail "the restored example does not run"

# ---- 3. a stale generated/runtime pairing fails to build, saying what to regenerate -------
INC="$T/moved/opt/fkc/include"
LIBS=$(pkg-config --static --libs fkc)
mkdir "$T/abi5" && cp -r "$INC/fkc" "$T/abi5/"
sed -i 's/^#define FKC_RUNTIME_ABI 4$/#define FKC_RUNTIME_ABI 5/' "$T/abi5/fkc/fkc_kernels.h"
grep -q "FKC_RUNTIME_ABI 5" "$T/abi5/fkc/fkc_kernels.h" || fail "no ABI define to change"
for cc in gcc clang; do
    $cc -std=c11 -I"$T/abi5" -c build/gen/cb_bindings.c -o "$T/x.o" 2> "$T/err" &&
        fail "$cc: bindings compiled against ABI 5 headers"
    grep -q "cb_bindings.h was generated for fkc runtime ABI 4, this runtime is ABI 5: regenerate it with the fkcgen of this runtime (make)" "$T/err" ||
        { cat "$T/err"; fail "$cc: no ABI message"; }
done
sed -i '/^#define FKC_RUNTIME_ABI 5$/d' "$T/abi5/fkc/fkc_kernels.h" # headers older than the ABI
gcc -std=c11 -I"$T/abi5" -c build/gen/cb_bindings.c -o "$T/x.o" 2> "$T/err" &&
    fail "bindings compiled against headers without FKC_RUNTIME_ABI"
grep -q "cb_bindings.h was generated for fkc runtime ABI 4, these fkc headers have none: regenerate it with the fkcgen of the fkc you build with (make)" "$T/err" ||
    { cat "$T/err"; fail "no message for headers without an ABI"; }
mkdir "$T/oldlib" && cp "$T/moved/opt/fkc/lib/libfkc.a" "$T/oldlib/"
objcopy --redefine-sym fkc_runtime_abi_4=fkc_runtime_abi_0 "$T/oldlib/libfkc.a"
cc build/main.o build/fill.o build/cb_bindings.o -o "$T/stale" -L"$T/oldlib" $LIBS 2> "$T/err" &&
    fail "linked against a library without fkc_runtime_abi_4"
grep -q "undefined reference to \`fkc_runtime_abi_4'" "$T/err" || { cat "$T/err"; fail "no link message"; }
mkdir "$T/sig" && cp -r "$INC/fkc" "$T/sig/"
sed -i 's/^typedef fkc_status fkc_write_slice_kernel(fkc_stream \*stream, const fkc_tensor \*src,$/typedef fkc_status fkc_write_slice_kernel(fkc_stream *stream, const fkc_tensor *src, int added,/' "$T/sig/fkc/fkc_kernels.h"
grep -q "int added" "$T/sig/fkc/fkc_kernels.h" || fail "no wrapper type to change"
gcc -std=c11 -I"$T/sig" -c build/gen/cb_bindings.c -o "$T/x.o" 2> "$T/err" &&
    fail "bindings compiled against another wrapper signature"
grep -q "conflicting types for 'fkc_write_slice_b1'" "$T/err" || { cat "$T/err"; fail "no signature message"; }
# a contract disagreeing with the runtime's params: gen refuses it at the field (nothing written)
sed 's/offsets: { kind: "Vec<usize>"/offsets: { kind: "Vec<i64>"/' contracts/write_slice.md > "$T/ws32.md"
grep -q 'Vec<i64>' "$T/ws32.md" || fail "no field to change"
"$(pkg-config --variable=fkcgen fkc)" gen --prefix cb --out-dir "$T/g32" "$T/ws32.md" 2> "$T/err" &&
    fail "gen accepted a contract disagreeing with the runtime's params"
grep -q "ws32.md:[0-9]*:[0-9]*: error: field 'offsets' of WriteSlice is Vec<i64>: the runtime has 'offsets' (Vec<usize>) here" "$T/err" ||
    { cat "$T/err"; fail "no field message from gen"; }
test ! -e "$T/g32/cb_bindings.c" || fail "gen wrote a refused contract's bindings"
# runtime headers whose params have a field of another type than the generated code states
mkdir "$T/f64" && cp -r "$INC/fkc" "$T/f64/"
sed -i 's/^    const size_t \*offsets; /    const int64_t *offsets;/' "$T/f64/fkc/fkc_kernels.h"
grep -q "const int64_t \*offsets;" "$T/f64/fkc/fkc_kernels.h" || fail "no header field to change"
for cc in gcc clang; do
    $cc -std=c11 -I"$T/f64" -c build/gen/cb_bindings.c -o "$T/x.o" 2> "$T/err" &&
        fail "$cc: bindings compiled against runtime params of another field type"
    grep -q "WriteSlice: the params of the fkc runtime differ in field offsets; the fkc runtime has" "$T/err" ||
        { cat "$T/err"; fail "$cc: no field message"; }
done
echo "check-consumer: stale pairings refused: ABI 5 (gcc, clang), no ABI, link, wrapper signature, params fields"

# ---- 4. two providers, --prefix a and --prefix b, in one program --------------------------
FKCGEN=$(pkg-config --variable=fkcgen fkc)
mkdir "$T/two"
"$FKCGEN" gen --prefix a --out-dir "$T/two" --root "$REPO" "$REPO/contracts/vulkan/write_slice.md"
"$FKCGEN" gen --prefix b --out-dir "$T/two" --root "$REPO" \
    "$REPO/examples/c-backend/fill/fill.md" "$REPO/tests/gen/cases/split_b.md"
for p in a b; do
    gcc $STRICT $(pkg-config --cflags fkc) -c "$T/two/${p}_bindings.c" -o "$T/two/$p.o"
done
# linked by make's $CC when it has one: make sanitize's carries the sanitizers, which its
# instrumented libfkc needs at link time
${CC:-gcc} $STRICT $(pkg-config --cflags fkc) -I"$T/two" "$REPO/tests/consumer/two_providers.c" \
    "$T/two/a.o" "$T/two/b.o" -o "$T/two/tp" $(pkg-config --libs fkc-static)
"$T/two/tp"
echo "check-consumer: ok"
