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
#   spread       16 ms + U[0, 16 ms): latency spread, 100 % of the mean
#   depth        16 ms + 400 us per request in progress: latency rising
#                with the depth (32 deep: 28.8 ms), an SSD-like curve
#   write-cache  reads 32 ms, writes 3.2 ms, half and half
#   slow-writes  reads 3.2 ms, writes 32 ms, half and half
# Each serves 1,100 to 1,800 I/Os a second, to leave the guest's one CPU
# room: it must never be the bottleneck, or the shares drift towards
# 50/50 whatever dm-ioband does (the scheduler gives the two fio
# processes the same CPU time, and the 3 of 3:1 needs three times as
# much).  At half these latencies (2,200 to 3,600 I/Os a second, until
# 2026-12-05) the guest's CPU was 68-75 % busy on slow-writes, a clean
# clone's CI once saw 72.9/27.1 and 72.8/27.2, and with a busy loop on
# one of the host's two CPUs the slow-writes class gave 71.5/28.5 and
# 70.3/29.7 (the CPU 86 % busy; at these latencies under the same load,
# 75.9/24.1 and 74.5/25.5 with the CPU 54-63 % busy).  The rows say how
# busy the guest's CPU was (cpu%) over the steady part.
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
	spread) args=(--latency-us 16000 --nullb "completion_spread_nsec=16000000") ;;
	depth) args=(--latency-us 16000 --nullb "completion_depth_nsec=400000") ;;
	write-cache) args=(--latency-us 32000 --nullb "completion_write_nsec=3200000" --rw randrw) ;;
	slow-writes) args=(--latency-us 3200 --nullb "completion_write_nsec=32000000" --rw randrw) ;;
	*) echo "unknown class $c"; exit 2 ;;
	esac
	echo "# class $c"
	"$(dirname "$0")/deep-device.sh" --runtime "$runtime" --devices 2 \
		--depth 64 --tags 32 --min-ratio 95 --share-points 2 \
		"${args[@]}" "${extra[@]}" || rc=1
done
exit $rc
