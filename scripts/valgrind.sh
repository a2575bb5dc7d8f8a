#!/bin/sh
# valgrind.sh FKCGEN FKC_RUN DIR — `make valgrind` (tests/sanitize.mk): fkc's programs under
# memcheck. fkcgen check, dump --json and gen over every contract and every corpus case (the
# malformed ones included: their error paths are what a fuzzer finds least), fkcgen diff over
# its corpus; fkc-run's commands
# on the CPU reference (--cpu) and on the default Vulkan device (lavapipe here), its error paths
# too. Any memcheck error or definite/indirect leak fails the run (exit 99 from valgrind);
# tests/valgrind.supp holds the only suppressions, each justified. Runs two at a time.
set -eu
fkcgen=$1
run=$2
dir=$3
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$dir"
mkdir -p "$dir/gen" "$dir/npy" "$dir/log"
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite,indirect --track-fds=no --keep-debuginfo=yes
    --suppressions=$root/tests/valgrind.supp"
export VG dir fkcgen run

# One checked run: "$@" under memcheck, its log kept. It must exit as the same run does again
# without valgrind (a bad input's status 1 or 2 included: that is the error path being checked); 99
# (memcheck's status) or a signal fails.
cat > "$dir/one.sh" <<'ONE'
#!/bin/sh
log=$dir/log/$(echo "$*" | tr -c 'A-Za-z0-9_.-' _ | cut -c1-150).log
# shellcheck disable=SC2086
$VG --log-file="$log" "$@" >/dev/null 2>>"$log.err"
rc=$?
"$@" >/dev/null 2>&1   # after: gen's first run is the one that writes
want=$?
if [ $rc != "$want" ] || [ $rc -ge 99 ]; then
	echo "valgrind: FAILED (status $rc, $want without valgrind): $*" >&2
	cat "$log" >&2
	exit 255
fi
ONE

files=$(ls "$root"/contracts/*/*.md "$root"/tests/fkcgen/cases/*.md "$root"/tests/fkcgen/seed/*.md \
        "$root"/tests/gen/cases/*.md)
n=0
{
	for f in $files; do
		echo "$fkcgen check $f"
		echo "$fkcgen dump --json $f"
		echo "$fkcgen gen --out-dir $dir/gen/$(basename "$f" .md) $f"
		echo "$fkcgen gen --lang rust --out-dir $dir/gen/$(basename "$f" .md) $f"
	done
	# contracts read together: the split pair, and the corpus cases that are directories
	echo "$fkcgen gen --out-dir $dir/gen/split $root/tests/gen/cases/split_a.md $root/tests/gen/cases/split_b.md"
	for d in "$root"/tests/fkcgen/cases/*/; do
		set -- "$d"*.md
		echo "$fkcgen check $*"
		echo "$fkcgen gen --out-dir $dir/gen/$(basename "$d") $*"
	done
	# fkcgen diff over its corpus: two revisions, options from the case's args line
	for d in "$root"/tests/fkcgen/diff/*/; do
		args=$(sed "s|allow.txt|${d}allow.txt|" "${d}args" 2>/dev/null || true)
		if [ -d "${d}old" ]; then o=${d}old n=${d}new; else o=${d}old.md n=${d}new.md; fi
		echo "$fkcgen diff $args $o $n"
	done
} > "$dir/fkcgen.cmds"

# fkc-run: inputs first (plain runs), then each command under memcheck.
"$run" iota --shape 4,6 --dtype f32 -o "$dir/npy/dst.npy"
"$run" iota --shape 2,3 --dtype f32 --start 100 -o "$dir/npy/src.npy"
"$run" iota --shape 3,5,2 --dtype i64 -o "$dir/npy/d3.npy"
"$run" iota --shape 7,5,2 --dtype i64 --start 9 -o "$dir/npy/s3.npy"
printf 'not an npy file\n' > "$dir/npy/bad.npy"
N=$dir/npy
{
	for p in --cpu ""; do
		echo "$run write_slice --dst $N/dst.npy --src $N/src.npy --offsets 1,2 -o $N/o1$p.npy $p"
		echo "$run write_slice_rotating --dst $N/dst.npy --src $N/src.npy --capacity 4 --position 3 -o $N/o2$p.npy $p"
		echo "$run write_slice_rotating --dst $N/d3.npy --src $N/s3.npy --capacity 3 --position 5 --axis 0 -o $N/o3$p.npy $p"
		echo "$run write_slice --dst $N/dst.npy --src $N/src.npy --offsets 3,4 -o $N/bad$p.npy $p"
		echo "$run write_slice --dst $N/bad.npy --src $N/src.npy --offsets 0,0 -o $N/bad$p.npy $p"
	done
	echo "$run iota --shape 2,3,4 --dtype bf16 -o $N/bf.npy"
	echo "$run show $N/dst.npy"
	echo "$run show $N/bad.npy"
	echo "$run devices"
	echo "$run write_slice --dst $N/dst.npy --offsets x -o $N/bad.npy"
	echo "$run --help"
	# conform: its whole path (fkcgen, cc, dlopen) on the CPU reference, and a failed load
	echo "$run conform --cpu --cases 4 $root/contracts/vulkan/write_slice.md"
	echo "$run conform --cpu --cases 4 $root/tests/cli/conform/own_kernels.md"
} > "$dir/fkc-run.cmds"

start=$(date +%s)
cat "$dir/fkcgen.cmds" "$dir/fkc-run.cmds" | xargs -P 2 -L 1 sh "$dir/one.sh"
runs=$(cat "$dir/fkcgen.cmds" "$dir/fkc-run.cmds" | wc -l)
# Each log must be empty: -q prints only errors and leaks (a suppressed one prints nothing).
bad=$(find "$dir/log" -name '*.log' -size +0 | head -5)
if [ -n "$bad" ]; then
	echo "valgrind: memcheck reported (see $dir/log):" >&2
	for l in $bad; do cat "$l" >&2; done
	exit 1
fi
echo "valgrind: $runs runs of fkcgen and fkc-run under memcheck in $(( $(date +%s) - start )) s:" \
     "no error, no definite or indirect leak"
