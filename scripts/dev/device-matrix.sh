#!/bin/bash
# Work conservation and shares from cold on other devices than make
# check's: scripts/experiments/deep-device.sh (two or eight band devices
# at 3:1:1..., against dm-linear in the same run) on null_blk devices of
# other depths and latencies, in UML (perf kernel).  Writes the table rows
# to results/device-matrix.txt.  A measurement, not a test: one run per
# row, and rows where the CPU, not the device, is the limit are there on
# purpose (the shares then follow the submitters; see the rst, "Design").
#
#   scripts/dev/device-matrix.sh ["TAGS LATENCY_US DEVICES" ...]
#
# Each run lasts 40 of the device's latencies, at least 15 s: the
# automatic in-flight limit grows eightfold per busy period from cold, so
# a device of 4,096 tags x 800 ms needs seconds, where one of 8 tags x
# 4 ms needs milliseconds.  fio's depth per device is 2,048, or the
# device's tags if more.
set -eu
. "$(dirname "$0")/../lib/common.sh"

out=$TOP/results/device-matrix.txt
if [ $# = 0 ]; then
	set -- "1024 200000 2 8" "4096 800000 2" "2048 400000 2" \
		"256 20000 2 8" "64 5000 2 8" "16 2000 2" "1 1000 2" \
		"32 100 2"
fi
"$TOP/scripts/build-uml.sh" perf >/dev/null
tmp=$(mktemp)
{
	echo "Made by scripts/dev/device-matrix.sh on $(date -u +%Y-%m-%d) at $(source_state) (UML perf kernel, $(nproc) host CPUs)"
	echo "deep-device.sh on null_blk devices of TAGS tags x LATENCY, weights 3:1:1..., from cold; ratio = dm-ioband / dm-linear IOPS in the same run"
	echo
	printf '%-6s %-9s %5s %-6s %s\n' tags latency depth time \
		"devices   linear   ioband   ratio  shares (whole run) / shares (steady) / target / io_limit / guest cpu %"
} >"$tmp"
for p in "$@"; do
	# shellcheck disable=SC2086
	set -- $p
	tags=$1 lat=$2
	shift 2
	rt=$((lat * 40 / 1000000))
	[ "$rt" -ge 15 ] || rt=15
	depth=$((tags > 2048 ? tags : 2048))
	"$TOP/scripts/uml-run.sh" -k perf -t $((rt * 8 + 300)) \
		"$TOP/scripts/experiments/deep-device.sh" --runtime "$rt" \
		--tags "$tags" --latency-us "$lat" --depth "$depth" \
		--devices "$*" >/dev/null 2>&1 || true
	o=$BUILD/runs/deep-device/output
	if [ "$lat" -ge 1000 ]; then
		l="$((lat / 1000)) ms"
	else
		l="$lat us"
	fi
	grep -E '^[0-9]+ +[0-9]+ +[0-9]+ ' "$o" | while read -r line; do
		printf '%-6s %-9s %5s %-6s %s\n' "$tags" "$l" "$depth" "${rt}s" "$line"
	done >>"$tmp"
	grep -qE '^[0-9]+ +[0-9]+ +[0-9]+ ' "$o" ||
		printf '%-6s %-9s %5s %-6s %s\n' "$tags" "$l" "$depth" "${rt}s" \
			"no result: see $o" >>"$tmp"
done
mv "$tmp" "$out"
cat "$out"
