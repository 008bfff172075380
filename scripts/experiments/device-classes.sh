#!/bin/bash
# The in-flight estimate on devices that are not null_blk's constant
# latency (run inside the UML guest; the rig's null_blk patch,
# scripts/rig/0002, gives it the latencies): for each device class, two
# band devices at weights 3:1 on a 32-tag null_blk, fio 4 KiB random I/O
# at depth 64 on each (more than the device's depth: the device is the
# bottleneck), from cold, next to the same load on dm-linear slices in
# the same run (deep-device.sh does each class).
#
#   device-classes.sh [--runtime S] [--classes "spread ..."]
#                     [--on-slices | --also-slices]
#                     [--control [--min-floor PCT]] [--assert]
#
# Classes (the issue 25 list that the rig can make):
#   spread       8 ms + U[0, 8 ms): latency spread, 100 % of the mean
#   depth        8 ms + 200 us per request in progress: latency rising
#                with the depth (32 deep: 14.4 ms), an SSD-like curve
#   write-cache  reads 16 ms, writes 1.6 ms, half and half
#   slow-writes  reads 1.6 ms, writes 16 ms, half and half
# Each serves 2,200 to 3,600 I/Os a second: UML's CPU, not the device,
# is the bottleneck above about 10,000 (a class of 32 tags x 1 ms gave
# dm-ioband 115 % of dm-linear and no weights: nothing was held), and
# near 4,000 fio itself falls behind now and then (the depth class at
# 4 ms + 100 us a request once gave 87 % and 71.2/28.8).
#
# --on-slices puts the band devices on dm-linear slices, where dm-ioband
# cannot see the tags (its estimate alone keeps the bios within them);
# --also-slices runs them on the disk, then on the slices, between the
# same dm-linear runs.
# --assert (2 checks per class and placement): dm-ioband does at least
# 95 % of dm-linear's I/Os in the same run, and its steady shares are
# within 2 points of 75/25.  With IOBAND_CONTROLLER_OFF=1 the shares fail.
# --control runs dm-linear again after dm-ioband and asks 95 % of their
# mean less how far the two are apart (UML's own noise), never below
# --min-floor (deep-device.sh's --control): make check's
# shares:device-classes, on the disk and the slices (--also-slices).
. "$(dirname "$0")/../lib/guest.sh"

runtime=10
classes="spread depth write-cache slow-writes"
extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=$2; shift ;;
	--classes) classes=$2; shift ;;
	--on-slices) extra+=(--on-slices) ;;
	--also-slices) extra+=(--also-slices) ;;
	--control) extra+=(--control) ;;
	--min-floor) extra+=(--min-floor "$2"); shift ;;
	--assert) extra+=(--assert) ;;
	--out) shift ;;
	*) echo "unknown argument $1"; exit 2 ;;
	esac
	shift
done

rc=0
for c in $classes; do
	case $c in
	spread) args=(--latency-us 8000 --nullb "completion_spread_nsec=8000000") ;;
	depth) args=(--latency-us 8000 --nullb "completion_depth_nsec=200000") ;;
	write-cache) args=(--latency-us 16000 --nullb "completion_write_nsec=1600000" --rw randrw) ;;
	slow-writes) args=(--latency-us 1600 --nullb "completion_write_nsec=16000000" --rw randrw) ;;
	*) echo "unknown class $c"; exit 2 ;;
	esac
	echo "# class $c"
	"$(dirname "$0")/deep-device.sh" --runtime "$runtime" --devices 2 \
		--depth 64 --tags 32 --min-ratio 95 --share-points 2 \
		"${args[@]}" "${extra[@]}" || rc=1
done
exit $rc
