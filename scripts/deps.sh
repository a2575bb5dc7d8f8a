#!/bin/sh
# Installs the Debian 12 packages fkc needs, and only those that are missing.
# Run by `make` and `make test`; does nothing (and needs no network) when all are present.
#   deps.sh       what `make` and `make test` need
#   deps.sh deb   that, and what `make deb` needs besides (debhelper, lintian, ...): kept apart
#                 so that a newcomer's first `make` does not install a packaging tool chain
set -eu

# package:kind:probe — kind pc (a pkg-config module), cmd (a command), dpkg (the package itself)
# or cargo (a cargo on PATH or rustup's ~/.cargo/bin/cargo; else Debian's, with its rustc).
PKGS="
libyaml-dev:pc:yaml-0.1
libcmark-dev:pc:libcmark
libcmocka-dev:pc:cmocka
libxxhash-dev:pc:libxxhash
libjson-c-dev:pc:json-c
libvulkan-dev:pc:vulkan
pkg-config:cmd:pkg-config
glslc:cmd:glslc
spirv-tools:cmd:spirv-val
clang:cmd:clang
clang-format:cmd:clang-format
valgrind:cmd:valgrind
mesa-vulkan-drivers:dpkg:-
vulkan-validationlayers:dpkg:-
libclang-rt-14-dev:dpkg:-
libtsan2:dpkg:-
python3-numpy:dpkg:-
git:cmd:git
locales:dpkg:-
man-db:cmd:man
groff-base:cmd:nroff
bsdextrautils:cmd:col
cargo:cargo:-
cmake:cmd:cmake
ninja-build:cmd:ninja
"
# make deb: dpkg-buildpackage (dpkg-dev), dh (debhelper), fakeroot, lintian
if [ "${1:-}" = deb ]; then
	PKGS="$PKGS
dpkg-dev:cmd:dpkg-buildpackage
debhelper:cmd:dh
fakeroot:cmd:fakeroot
lintian:cmd:lintian
"
fi

missing=""
for entry in $PKGS; do
	pkg=${entry%%:*}
	rest=${entry#*:}
	kind=${rest%%:*}
	probe=${rest#*:}
	case $kind in
	pc)   command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$probe" && continue ;;
	cmd)  command -v "$probe" >/dev/null 2>&1 && continue ;;
	cargo) { command -v cargo >/dev/null 2>&1 || [ -x "${HOME:-/nonexistent}/.cargo/bin/cargo" ]; } && continue ;;
	dpkg) dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' && continue ;;
	esac
	missing="$missing $pkg"
done

[ -z "$missing" ] && exit 0

echo "deps: installing missing Debian packages:$missing"
SUDO=""
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO=sudo
	else echo "deps: need root or sudo to install:$missing" >&2; exit 1; fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
