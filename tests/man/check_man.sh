#!/bin/sh
# check_man.sh FKCGEN FKC_RUN — the man pages docs/man/fkcgen.1, docs/man/fkc-run.1 and
# docs/man/fkc.3 (the C API) render with `man -l` (every groff warning on: --warnings=w, at 80
# and 60 columns) without a single warning; every option the programs' --help texts name
# (fkcgen --help, fkcgen gen --help, fkcgen diff --help, fkc-run --help) appears in its rendered
# page, and every function and variable the runtime's public headers declare
# (scripts/public_api.py, with clang) in fkc.3 (fkc_runtime_abi_<N> as fkc_runtime_abi_N). Run
# by `make check-man` (part of `make test`).
set -eu
fkcgen=$1
fkc_run=$2
command -v man >/dev/null || { echo "check-man: man is missing (scripts/deps.sh installs man-db)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# page, then the --help texts whose options it must cover
check() {
	page=$1
	shift
	for width in 80 60; do
		MANWIDTH=$width man -l --warnings=w "$page" >"$tmp/out" 2>"$tmp/err" || {
			echo "check-man: $page: man -l failed"; cat "$tmp/err"; fail=1; }
		if [ -s "$tmp/err" ]; then
			echo "check-man: $page: warnings at $width columns:"; cat "$tmp/err"; fail=1
		fi
	done
	MANWIDTH=200 man -l "$page" 2>/dev/null | col -b >"$tmp/page"
	grep -q '^NAME' "$tmp/page" || { echo "check-man: $page: rendered without NAME"; fail=1; }
	for help in "$@"; do
		for opt in $(grep -oE -- '(^|[][ (|,])--?[a-z][a-z0-9-]*' "$help" | sed 's/^[^-]*//' |
		             sort -u); do
			grep -qE -- "(^|[^a-z0-9-])$opt([^a-z0-9-]|\$)" "$tmp/page" || {
				echo "check-man: $page lacks $opt (from $(basename "$help"))"; fail=1; }
		done
	done
}

"$fkcgen" --help >"$tmp/fkcgen.help"
"$fkcgen" gen --help >"$tmp/fkcgen-gen.help"
"$fkcgen" diff --help >"$tmp/fkcgen-diff.help"
"$fkc_run" --help >"$tmp/fkc-run.help"
for h in "$tmp"/*.help; do
	[ -s "$h" ] || { echo "check-man: empty $h"; fail=1; }
done
check docs/man/fkcgen.1 "$tmp/fkcgen.help" "$tmp/fkcgen-gen.help" "$tmp/fkcgen-diff.help"
check docs/man/fkc-run.1 "$tmp/fkc-run.help"
check docs/man/fkc.3
python3 scripts/public_api.py clang runtime/include > "$tmp/api"
for name in $(sed 's/^fkc_runtime_abi_[0-9][0-9]*$/fkc_runtime_abi_N/' "$tmp/api"); do
	grep -qE -- "(^|[^a-z0-9_])$name([^a-z0-9_]|\$)" "$tmp/page" || {
		echo "check-man: docs/man/fkc.3 lacks $name (declared in runtime/include/fkc/)"; fail=1; }
done
[ $fail -eq 0 ] && echo "check-man: the three pages render without warnings; fkcgen.1 and fkc-run.1 cover every --help option, fkc.3 the $(wc -l < "$tmp/api") functions and variables of the public headers"
exit $fail
