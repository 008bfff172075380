#!/bin/bash
# latency-change.sh --assert --trace, RUNS times in a row, under the same
# parallel kernel build as shares-under-load.sh (make -j$(nproc), ccache
# off, over and over): how often does the in-flight limit lose the
# device when the guest is short of CPU?  Each run's table, checks and
# once-a-second `show` trace go to build/logs/latency-change-load-<n>.txt;
# a line per run to standard output.
#
#   scripts/dev/latency-change-under-load.sh [RUNS]
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/load-build.sh"

runs=${1:-5}
load_build_start 45
fail=0
for r in $(seq 1 "$runs"); do
	l0=$(cut -d' ' -f1 /proc/loadavg)
	rc=0
	"$TOP/scripts/uml-run.sh" -k perf -t 600 -m 1536M \
		"$TOP/scripts/experiments/latency-change.sh" --assert --trace \
		>/dev/null 2>&1 || rc=$?
	out=$BUILD/logs/latency-change-load-$r.txt
	cp "$BUILD/runs/latency-change/output" "$out"
	[ "$rc" = 0 ] || fail=$((fail + 1))
	load_build_alive "during run $r"
	echo "run $r (load average $l0): $([ "$rc" = 0 ] && echo PASS || echo FAIL)," \
		"highest io_limit $(sed -n 's/.* io_limit=\([0-9]*\) .*/\1/p' "$out" | sort -n | tail -1)," \
		"phase 3: $(sed -n 's/^3 .*%  *\([0-9.\/]*\) .*/shares \1/p' "$out")"
done
echo "$fail of $runs failed"
[ "$fail" = 0 ]
