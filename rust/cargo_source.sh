#!/bin/sh
# rust/cargo_source.sh OUT CRATE VERSION FILE... — the generated files of one crate of the Cargo
# directory source `make install` writes under DATADIR/cargo/registry/CRATE-VERSION/ (the way
# Debian's librust-*-dev packages ship crates), into OUT/CRATE-VERSION/:
#   Cargo.toml            the crate's, its dependencies' `path = "..."` removed (in a directory
#                         source a dependency is found by name and version, like a registry's)
#   .cargo-checksum.json  {"files": {PATH: sha256, ...}, "package": null}: the sha256 of every
#                         file installed (FILE... as relative paths below rust/CRATE, and the
#                         Cargo.toml above), which cargo checks before it builds the crate
# The crate's version must be VERSION, fkc's (fkc_version.h), and so must every `version = "="`
# pin on another fkc crate: else nothing is written and it fails.
set -eu
out=$1 crate=$2 version=$3
shift 3
src=rust/$crate
fail() { echo "install: rust/$crate: $*" >&2; exit 2; }
got=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$src/Cargo.toml" | head -n 1)
[ "$got" = "$version" ] || fail "Cargo.toml's version is '$got', fkc_version.h's $version"
if grep -n '^fkc[a-z-]* = {.*version = "' "$src/Cargo.toml" | grep -v "version = \"=$version\""; then
	fail "the fkc crates it depends on above are not pinned to =$version"
fi
dir=$out/$crate-$version
mkdir -p "$dir"
# Each file is written beside its place and renamed into it: an install reading it at the same
# time sees the old or the new one whole (their bytes do not depend on the install's variables).
tmp=$dir/.tmp.$$
trap 'rm -f "$tmp.toml" "$tmp.json"' EXIT
sed 's/, *path = "[^"]*"//' "$src/Cargo.toml" > "$tmp.toml"
if grep -n 'path = ' "$tmp.toml" >&2; then fail "a path dependency is left in Cargo.toml"; fi
{
	printf '{"files":{'
	sep=
	for f in Cargo.toml "$@"; do
		case $f in Cargo.toml) p=$tmp.toml ;; *) p=$src/$f ;; esac
		[ -f "$p" ] || fail "$f: no such file"
		case $f in *[\"\\]*) fail "$f: a name JSON would need to escape" ;; esac
		printf '%s"%s":"%s"' "$sep" "$f" "$(sha256sum "$p" | cut -d' ' -f1)"
		sep=,
	done
	printf '},"package":null}\n'
} > "$tmp.json"
mv -f "$tmp.toml" "$dir/Cargo.toml"
mv -f "$tmp.json" "$dir/.cargo-checksum.json"
