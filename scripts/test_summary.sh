#!/bin/sh
# test_summary.sh RESULTS — the last line of `make test`: the counts of every suite in RESULTS
# (lines "NAME PASSED FAILED SKIPPED", written by test_count.sh and by the check loop of the
# Makefile), summed into one line "N passed, M failed" (", K skipped" when some were). The
# suites with failures are named above it. Exit: 1 when anything failed or nothing was counted.
set -u
results=$1
[ -s "$results" ] || { echo "0 passed, 1 failed (no suite recorded a result)"; exit 1; }
awk '
	{ p += $2; f += $3; s += $4; if ($3 > 0) bad = bad "  " $1 ": " $3 " failed\n" }
	END {
		if (bad != "") printf "failed:\n%s", bad
		printf "%d passed, %d failed%s\n", p, f, s ? sprintf(", %d skipped", s) : ""
		exit f > 0
	}' "$results"
