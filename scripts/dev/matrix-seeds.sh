#!/bin/bash
# The simulator's device matrix on other draws of its generator: one draw
# of each spread, tail and noise is one sample.  For seeds 1 to 5 (0 is
# the KUnit run's), the matrix's own classes (scripts/dev/matrix-sweep.sh
# --matrix --seed N; the matrix's classes with a draw of their own keep
# it), then the noisy hosts (the sweep's two and the
# matrix's) on draws 0 to 29 (--draws 30), into results/matrix-seeds.txt.
# A measurement, not a test: the matrix's checks ("not ok") are printed,
# not counted, but for the noisy hosts' count of draws off.  A few
# minutes.
#
#   scripts/dev/matrix-seeds.sh
set -eu
. "$(dirname "$0")/../lib/common.sh"

state=$(source_state)
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
# the sweep's noisy hosts and the matrix's (its first, the draw of its own
# classes left out), one initialiser a line
{
	grep -h '"noisy host' "$TOP"/scripts/dev/matrix-rows/*.rows
	python3 - "$TREE/drivers/md/tests/dm-ioband-estimate_kunit.c" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
m = re.search(r'\t\{ \.name = "noisy host: [^"]*per 20 ms",.*?\},\n', src, re.S)
print('\t' + ' '.join(m.group(0).split()))
PY
} >"$rows"
{
	echo "# scripts/dev/matrix-seeds.sh at $state"
	for seed in 1 2 3 4 5; do
		"$TOP/scripts/dev/matrix-sweep.sh" --matrix --seed "$seed" 2>/dev/null |
			grep -v '^# dm_ioband_device_matrix'
	done
	"$TOP/scripts/dev/matrix-sweep.sh" --draws 30 "$rows" 2>/dev/null |
		grep -v '^# dm_ioband_device_matrix'
} | tee "$TOP/results/matrix-seeds.txt"
