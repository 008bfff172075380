#!/bin/bash
# The simulator's device matrix on other draws of its generator: one draw
# of each spread, tail and noise is one sample.  For seeds 1 to 5 (0 is
# the KUnit run's), the matrix's own classes and the sweep's noisy host
# (scripts/dev/matrix-sweep.sh --matrix --seed N, and --seed N on that
# row), into results/matrix-seeds.txt.  A measurement, not a test: the
# matrix's checks ("not ok") are printed, not counted.  A few minutes.
#
#   scripts/dev/matrix-seeds.sh
set -eu
. "$(dirname "$0")/../lib/common.sh"

state=$(source_state)
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
grep -h '"noisy host 32 x 1 ms speed 30 %"' "$TOP"/scripts/dev/matrix-rows/*.rows >"$rows"
{
	echo "# scripts/dev/matrix-seeds.sh at $state"
	for seed in 0 1 2 3 4 5; do
		if [ "$seed" = 0 ]; then
			echo "# seed 0: the noisy host (the matrix at seed 0 is make kunit's)"
		else
			"$TOP/scripts/dev/matrix-sweep.sh" --matrix --seed "$seed" 2>/dev/null |
				grep -v '^# dm_ioband_device_matrix'
		fi
		"$TOP/scripts/dev/matrix-sweep.sh" --seed "$seed" "$rows" 2>/dev/null |
			grep -v '^#'
	done
} | tee "$TOP/results/matrix-seeds.txt"
