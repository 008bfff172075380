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
# --before COMMIT: the noisy hosts' 30 draws also on the policy of the
# series at this repository's COMMIT (its patches' drivers/md/dm-ioband
# files, applied to the base tree's), the simulator and its tests as they
# are: what a change to the policy moved.
#
#   scripts/dev/matrix-seeds.sh [--before COMMIT]
set -eu
. "$(dirname "$0")/../lib/common.sh"

before=
if [ "${1:-}" = --before ]; then
	before=$(git -C "$TOP" rev-parse --short "$2^{commit}")
	shift 2
fi
state=$(source_state)
rows=$(mktemp)
old=$(mktemp -d)
trap 'rm -rf "$rows" "$old"' EXIT
# the sweep's noisy hosts and the matrix's (the one without a draw of its
# own), one initialiser a line
{
	grep -h '"noisy host' "$TOP"/scripts/dev/matrix-rows/*.rows
	"$TOP/scripts/dev/matrix-rows.py" \
		"$TREE/drivers/md/tests/dm-ioband-estimate_kunit.c" \
		'^noisy host: .*per 20 ms$'
} >"$rows"
if [ -n "$before" ]; then
	# the policy's files at $before: every patch of its series, the
	# dm-ioband files of drivers/md only, onto the base tree's ($old is
	# outside any repository: git apply works as patch there); the
	# simulator and its tests as they are
	git -C "$TREE" archive base drivers/md | tar -x -C "$old"
	for p in $(git -C "$TOP" show "$before:series" | grep -v '^#'); do
		git -C "$TOP" show "$before:patches/$p" >"$old/p"
		(cd "$old" && git apply --include='drivers/md/dm-ioband*' p)
	done
	mkdir -p "$old/drivers/md/tests"
	cp "$TREE"/drivers/md/tests/dm-ioband-*.[ch] "$old/drivers/md/tests/"
fi
{
	echo "# scripts/dev/matrix-seeds.sh at $state"
	for seed in 1 2 3 4 5; do
		"$TOP/scripts/dev/matrix-sweep.sh" --matrix --seed "$seed" 2>/dev/null |
			grep -v '^# dm_ioband_device_matrix'
	done
	"$TOP/scripts/dev/matrix-sweep.sh" --draws 30 "$rows" 2>/dev/null |
		grep -v '^# dm_ioband_device_matrix'
	if [ -n "$before" ]; then
		echo "# the same draws on the policy of the series at $before"
		IOBAND_MD=$old/drivers/md \
			"$TOP/scripts/dev/matrix-sweep.sh" --draws 30 "$rows" 2>/dev/null |
			grep -v '^# dm_ioband_device_matrix'
	fi
} | tee "$TOP/results/matrix-seeds.txt"
