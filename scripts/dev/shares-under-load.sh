#!/bin/bash
# The share checks of make check, three times in a row, while a parallel
# kernel build (make -j$(nproc), ccache off, x86-64 defconfig of the
# patched tree in its own build directory, over and over) keeps every host
# CPU busy: do the checks hold whatever the machine's load?  Writes the
# step results and the load averages to results/shares-under-load.txt.
#
#   scripts/dev/shares-under-load.sh [RUNS]
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/load-build.sh"

runs=${1:-3}
out=$TOP/results/shares-under-load.txt
load_build_start 60
{
	echo "Made by scripts/dev/shares-under-load.sh on $(date -u +%Y-%m-%d) at $(source_state)"
	echo "make check's share steps, $runs times in a row, under make -j$(nproc) of a kernel (ccache off) on $(nproc) CPUs"
} >"$out"
fail=0
for r in $(seq 1 "$runs"); do
	l0=$(cut -d' ' -f1 /proc/loadavg)
	CHECK_ONLY=shares "$TOP/scripts/check.sh" >"$BUILD/logs/shares-under-load-$r.log" 2>&1 ||
		fail=$((fail + 1))
	l1=$(cut -d' ' -f1 /proc/loadavg)
	load_build_alive "during run $r"
	{
		echo
		echo "run $r: load average $l0 at the start, $l1 at the end"
		grep -E '^(PASS|FAIL) ' "$BUILD/logs/shares-under-load-$r.log"
		grep -E '^[0-9]+ passed' "$BUILD/logs/shares-under-load-$r.log"
	} >>"$out"
done
cat "$out"
[ "$fail" = 0 ]
