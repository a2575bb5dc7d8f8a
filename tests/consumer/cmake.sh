#!/bin/sh
# tests/consumer/cmake.sh REPO — fkc's CMake package used as a CMake project would (make
# check-cmake, part of `make test`). A DESTDIR install with a multiarch LIBDIR, moved elsewhere,
# is found by find_package(fkc CONFIG) through CMAKE_PREFIX_PATH. A copy of examples/cmake-backend
# is built with each generator, Ninja and Unix Makefiles, and run (nine dtypes bit-exact,
# linked to the moved install's libfkc.so.N); then, with each: a second build does nothing; a
# touched contract reruns fkcgen and compiles nothing; a prose edit and a dtype edit recompile
# exactly the objects that include a changed output; a contract fkcgen refuses fails the build
# with fkcgen's message and the next build, once fixed, works. One more build links
# fkc::fkc_static (no libfkc.so in its NEEDED list); fkc_generate's LANG rust writes the Rust
# module; its bad arguments are refused with a message.
set -eu
REPO=$1
T=$(mktemp -d /tmp/fkc_cmake_XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "check-cmake: $*" >&2; exit 1; }
export LC_ALL=C
unset MAKEFLAGS MFLAGS MAKELEVEL CMAKE_PREFIX_PATH CMAKE_GENERATOR 2>/dev/null || true
export BUILD="${BUILD:-build}" # fkc's build directory, for its `make install`
command -v cmake >/dev/null || fail "cmake is missing (scripts/deps.sh installs it)"
command -v ninja >/dev/null || fail "ninja is missing (scripts/deps.sh installs ninja-build)"

# ---- the install: staged, then moved (the CMake files find everything from their place) ----
MA=$(${CC:-cc} -print-multiarch 2>/dev/null || true)
LIBDIR=lib/${MA:-fkc-multi}
make -s -C "$REPO" install PREFIX=/opt/fkc LIBDIR="$LIBDIR" DESTDIR="$T/stage" >/dev/null
mv "$T/stage/opt/fkc" "$T/fkc"
[ -f "$T/fkc/$LIBDIR/cmake/fkc/fkcConfig.cmake" ] || fail "no $LIBDIR/cmake/fkc/fkcConfig.cmake"
export CMAKE_PREFIX_PATH="$T/fkc"
SO=libfkc.so.$(sed -n 's/^#define FKC_SOVERSION \([0-9]*\)$/\1/p' "$REPO/runtime/include/fkc/fkc_version.h")

GEN=fkc_generated/cmake-backend
# What a build compiled, linked or generated, sorted; the build's output is in $T/last.out.
built() {
    cmake --build b > "$T/last.out" 2>&1 || { cat "$T/last.out"; fail "$G: the build failed"; }
    sed -n -e 's/.*Building C object CMakeFiles\/cmake-backend.dir\/\([^ ]*\).*/\1/p' \
        -e 's/.*Linking C executable \([^ ]*\).*/\1/p' -e 's/.*\(fkcgen\): cm bindings.*/\1/p' \
        "$T/last.out" | sort | tr '\n' ' '
}
nothing_to_do() {
    got=$(built)
    [ -z "$got" ] || { cat "$T/last.out"; fail "$G: $1: the next build did '$got'"; }
    if [ "$G" = Ninja ]; then
        ninja -C b -n | grep -qx 'ninja: no work to do.' || fail "$G: $1: ninja -n has work to do"
    fi
}
# An edit, then: fkcgen reran, and exactly the objects that include a changed output rebuilt.
edit_rebuilds() {
    what=$1
    cp b/$GEN/cm_bindings.h b/$GEN/cm_bindings.c "$T/"
    got=$(built)
    want="fkcgen "
    if ! cmp -s b/$GEN/cm_bindings.h "$T/cm_bindings.h"; then
        want="cmake-backend $GEN/cm_bindings.c.o fkcgen main.c.o reverse/reverse.c.o "
    elif ! cmp -s b/$GEN/cm_bindings.c "$T/cm_bindings.c"; then
        want="cmake-backend $GEN/cm_bindings.c.o fkcgen "
    fi
    [ "$got" = "$want" ] || { cat "$T/last.out"; fail "$G: $what: built '$got', expected '$want'"; }
    nothing_to_do "$what"
    echo "check-cmake: $G: $what: built ${want}"
}

n=0
for G in Ninja "Unix Makefiles"; do
    n=$((n + 1))
    cp -r "$REPO/examples/cmake-backend" "$T/proj$n"
    cd "$T/proj$n"
    rm -rf b
    cmake -S . -B b -G "$G" > "$T/conf.out" 2>&1 || { cat "$T/conf.out"; fail "$G: configure"; }
    cmake --build b > "$T/b1.out" 2>&1 || { cat "$T/b1.out"; fail "$G: the example does not build"; }
    ./b/cmake-backend > "$T/run.out" 2>&1 || { cat "$T/run.out"; fail "$G: the example failed"; }
    grep -q "Reverse, WriteSlice on 9 dtypes through cm_dispatch: all bit-exact" "$T/run.out" ||
        { cat "$T/run.out"; fail "$G: unexpected output"; }
    ldd b/cmake-backend | grep -q "$SO => $T/fkc/$LIBDIR/$SO" ||
        { ldd b/cmake-backend; fail "$G: not linked to the moved install's $SO"; }
    nothing_to_do "a build"
    echo "check-cmake: $G: built, ran bit-exact against $T/fkc's $SO; a second build did nothing"
    sleep 1 # mtimes: the edits below must be newer than the build
    touch reverse/reverse.md
    edit_rebuilds "a touched contract"
    echo "A line of prose." >> reverse/reverse.md
    edit_rebuilds "a prose edit"
    sed -i 's/dtypes: \[F32, I32, U32, F16, BF16, F64, I64, U8, I8\] # 9 dtypes/dtypes: [F32, I32, U32, F16, BF16, F64, I64, U8] # 8 dtypes/' reverse/reverse.md
    edit_rebuilds "I8 dropped from Reverse"
    grep -q "define CM_BINDING_COUNT 26" b/$GEN/cm_bindings.h || fail "$G: the dtype edit had no effect"
    ./b/cmake-backend > "$T/run.out" 2>&1 && fail "$G: the example still ran I8 through Reverse"
    # A contract fkcgen refuses: the build fails with its message, and runs it again when fixed.
    sed -i 's/^op_kind: Reverse$/op_kind: reverse/' reverse/reverse.md
    cmake --build b > "$T/bad.out" 2>&1 && fail "$G: a build with a refused contract succeeded"
    grep -q "reverse.md:[0-9]*:[0-9]*: error: " "$T/bad.out" || { cat "$T/bad.out"; fail "$G: no fkcgen message"; }
    cmake --build b > "$T/bad.out" 2>&1 && fail "$G: the second build with a refused contract succeeded"
    cp "$REPO/examples/cmake-backend/reverse/reverse.md" reverse/reverse.md
    cmake --build b > "$T/b2.out" 2>&1 && ./b/cmake-backend > "$T/run.out" 2>&1 ||
        { cat "$T/b2.out" "$T/run.out"; fail "$G: the restored example does not build and run"; }
    nothing_to_do "the restored contract"
    echo "check-cmake: $G: a refused contract fails the build with fkcgen's message; fixed, it builds"
done

# ---- fkc::fkc_static ------------------------------------------------------------------------
cd "$T/proj1"
cmake -S . -B bs -G Ninja -DCM_STATIC=ON > "$T/conf.out" 2>&1 || { cat "$T/conf.out"; fail "static: configure"; }
cmake --build bs > "$T/bs.out" 2>&1 || { cat "$T/bs.out"; fail "static: the example does not build"; }
./bs/cmake-backend | grep -q "all bit-exact" || fail "static: the example failed"
if readelf -d bs/cmake-backend | grep 'NEEDED.*libvulkan'; then fail "static: libvulkan NEEDED (libfkc opens it at run time)"; fi
if readelf -d bs/cmake-backend | grep 'NEEDED.*libfkc'; then fail "static: linked to libfkc.so"; fi
echo "check-cmake: fkc::fkc_static: built and ran, libfkc.a linked in (NEEDED: no libfkc.so)"

# ---- LANG rust, and fkc_generate's refusals ---------------------------------------------------
mkdir "$T/rs"
cp "$REPO/examples/cmake-backend/reverse/reverse.md" "$T/rs/"
cat > "$T/rs/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(rs C) # C: find_package then searches the multiarch LIBDIR
find_package(fkc CONFIG REQUIRED)
add_custom_target(rsgen ALL)
fkc_generate(TARGET rsgen LANG rust PREFIX rv OUT_DIR gen CONTRACTS reverse.md)
EOF
cmake -S "$T/rs" -B "$T/rs/b" -G Ninja > "$T/conf.out" 2>&1 || { cat "$T/conf.out"; fail "rust: configure"; }
cmake --build "$T/rs/b" > "$T/rs.out" 2>&1 || { cat "$T/rs.out"; fail "rust: build"; }
grep -q "^// .* - generated by fkcgen" "$T/rs/b/gen/rv_bindings.rs" || fail "rust: no module"
ninja -C "$T/rs/b" -n | grep -qx 'ninja: no work to do.' || fail "rust: a second build has work to do"
bad() {
    sed -i '$d' "$T/rs/CMakeLists.txt"
    echo "$1" >> "$T/rs/CMakeLists.txt"
    rm -rf "$T/rs/b"
    cmake -S "$T/rs" -B "$T/rs/b" > "$T/conf.out" 2>&1 && fail "fkc_generate accepted: $1"
    # (CMake wraps messages: compared with blanks and line ends squeezed to one space)
    tr -s ' \n' '  ' < "$T/conf.out" | grep -qF "$2" || { cat "$T/conf.out"; fail "no message '$2' for: $1"; }
}
bad "fkc_generate(TARGET rsgen LANG go CONTRACTS reverse.md)" "LANG must be c or rust, not 'go'"
bad "fkc_generate(TARGET nosuch CONTRACTS reverse.md)" "'nosuch' is not a target"
bad "fkc_generate(TARGET rsgen)" "CONTRACTS <file>... is required"
bad "fkc_generate(TARGET rsgen PREFIX Bad CONTRACTS reverse.md)" "PREFIX 'Bad' is not"
bad "fkc_generate(BOGUS TARGET rsgen CONTRACTS reverse.md)" "unknown arguments: BOGUS"
echo "check-cmake: LANG rust writes the module; fkc_generate refuses bad arguments with a message"
echo "check-cmake: ok"
