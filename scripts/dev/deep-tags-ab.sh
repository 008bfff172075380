#!/bin/bash
# Before and after "dm-ioband: policy: lower a limit that submitters
# waiting for tags never reach": the policy of the patch before it
# against the series' own, on the device that showed the problem, a
# null_blk of 2,048 tags x 400 ms (scripts/experiments/deep-device.sh,
# two band devices at 3:1, fio at depth 2,048 each, from cold), RUNS
# times each in UML (perf kernel), and the KUnit case that simulates it
# (dm_ioband_deep_tags_block, in user space: kunit/uspace) against both
# policies.  Writes results/deep-tags-ab-RUNTIMEs.txt.  Not a test.
#
#   scripts/dev/deep-tags-ab.sh [RUNS] [RUNTIME]    (default: 3 runs of 16 s)
#
# It puts the older dm-ioband-policy.c and .h into build/linux for the
# "before" kernel and restores them on exit: it refuses to run on a tree
# with uncommitted changes.
set -eu
. "$(dirname "$0")/../lib/common.sh"

runs=${1:-3}
runtime=${2:-16}
out=$TOP/results/deep-tags-ab-${runtime}s.txt
subject="dm-ioband: policy: lower a limit that submitters waiting for tags never reach"

"$TOP/scripts/prepare-tree.sh"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes"
fix=$(git -C "$TREE" log --format=%H --grep="^$subject\$" -1)
[ -n "$fix" ] || die "no commit \"$subject\" in build/linux"
files="drivers/md/dm-ioband-policy.c drivers/md/dm-ioband-policy.h"
restore() {
	# shellcheck disable=SC2086
	git -C "$TREE" checkout -q HEAD -- $files 2>/dev/null || true
	"$TOP/scripts/build-uml.sh" perf >/dev/null 2>&1 || true
}
trap restore EXIT

tmp=$(mktemp)
{
	echo "Made by scripts/dev/deep-tags-ab.sh $runs $runtime on $(date -u +%Y-%m-%d) at commit $(git -C "$TOP" rev-parse --short HEAD)"
	echo "before: the policy of $(git -C "$TREE" rev-parse --short "$fix~1") (the patch before \"$subject\"); after: the series"
	echo "deep-device.sh --tags 2048 --latency-us 400000 --runtime $runtime --devices 2, in UML (perf kernel)"
} >"$tmp"
uspace=$BUILD/uspace
mkdir -p "$uspace"
for v in before after; do
	# shellcheck disable=SC2086
	if [ $v = before ]; then
		git -C "$TREE" checkout -q "$fix~1" -- $files
	else
		git -C "$TREE" checkout -q HEAD -- $files
	fi
	# the simulation: the series' test against this policy, built by
	# kunit/uspace's own rule
	make -s -B -C "$TOP/kunit/uspace" OUT="$uspace/ab-$v" \
		"$uspace/ab-$v/ioband_kunit" ||
		die "the simulation does not build"
	{
		echo
		echo "== $v: KUnit dm_ioband_deep_tags_block (user space)"
		"$uspace/ab-$v/ioband_kunit" 2>&1 | grep -E 'dm_ioband_deep_tags_block' |
			grep -vE 'EXPECTATION|^ *(not )?ok' | sed 's/^ *# //' || true
	} >>"$tmp"
	"$TOP/scripts/build-uml.sh" perf >"$LOGS/deep-tags-ab-build.log" 2>&1 ||
		die "build failed: $LOGS/deep-tags-ab-build.log"
	echo "== $v: deep-device.sh in UML" >>"$tmp"
	for r in $(seq 1 "$runs"); do
		"$TOP/scripts/uml-run.sh" -k perf -t 600 \
			"$TOP/scripts/experiments/deep-device.sh" --runtime "$runtime" \
			--tags 2048 --latency-us 400000 --devices 2 >/dev/null 2>&1 || true
		o=$BUILD/runs/deep-device/output
		[ "$r" = 1 ] && grep -m1 '^devices' "$o" >>"$tmp"
		grep -E '^2 +[0-9]' "$o" >>"$tmp" || echo "run $r: no result ($o)" >>"$tmp"
	done
done
mv "$tmp" "$out"
cat "$out"
