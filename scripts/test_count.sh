#!/bin/sh
# test_count.sh RESULTS KIND NAME CMD... — runs one test program CMD (its output shown as it
# comes), counts its tests from its own output and appends "NAME PASSED FAILED SKIPPED" to
# RESULTS, which tests/summary.sh sums at the end of `make test`. KIND says how to count:
#   cmocka  its "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)" lines (every group)
#   cargo   its "test result: ... N passed; M failed; K ignored" lines (every test binary)
#   py      its "N passed, M failed" line, else its "ok ..." and "FAIL ..." lines
# A program that fails with no failure counted, or that counts no test at all, adds one failed
# test: a suite that failed or did not run never reads as passed. Exit: CMD's status.
set -u
results=$1 kind=$2 name=$3
shift 3
log=$(mktemp) rcf=$(mktemp)
export PYTHONUNBUFFERED=1
# (no stdbuf: its LD_PRELOAD would reach the programs under test, some of which set their own)
{ "$@" 2>&1; echo $? > "$rcf"; } | tee "$log"
rc=$(cat "$rcf")
case $kind in
cmocka)
	counts=$(awk '
		function num() { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) return $i; return 0 }
		/^\[ *PASSED *\] [0-9]+ test/ { p += num() }
		/^\[ *FAILED *\] [0-9]+ test/ { f += num() }
		/^\[ *SKIPPED *\] [0-9]+ test/ { s += num() }
		END { print p + 0, f + 0, s + 0 }' "$log") ;;
cargo)
	counts=$(awk '
		/^test result: / {
			for (i = 1; i < NF; i++) {
				n = $i; w = $(i + 1); sub(/[;,.]$/, "", w)
				if (w == "passed") p += n; else if (w == "failed") f += n
				else if (w == "ignored") s += n
			}
		}
		END { print p + 0, f + 0, s + 0 }' "$log") ;;
py)
	counts=$(awk '
		/^[0-9]+ passed, [0-9]+ failed$/ { line = 1; p = $1; f = $3 }
		!line && /^ok[ :]/ { op++ }
		!line && /^FAIL[ :]/ { of++ }
		END { if (line) print p + 0, f + 0, 0; else print op + 0, of + 0, 0 }' "$log") ;;
*)
	echo "test_count.sh: unknown kind '$kind'" >&2
	counts="0 0 0" rc=2 ;;
esac
rm -f "$log" "$rcf"
set -- $counts
passed=$1 failed=$2 skipped=$3
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	echo "$name: exit status $rc with no failed test counted: counted as one failure"
	failed=1
elif [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ]; then
	echo "$name: no test counted in its output: counted as one failure"
	failed=1
fi
echo "$name $passed $failed $skipped" >> "$results"
exit "$rc"
