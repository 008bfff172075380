#!/bin/bash
# What dm-ioband costs per bio (run inside the UML guest, where the CPU is
# the limit): null_blk devices that complete every bio inline (irqmode=0,
# no delay), fio 4 KiB random reads, O_DIRECT, depth 32, one job per
# device.  dm-linear and dm-ioband sit directly on the same null_blk
# devices (one device-mapper layer each):
#   linear/linear  dm-linear against dm-linear: how far two equal
#                  configurations differ (the noise of the measurement)
#   uncontended    one band device, one band group
#   contended      two band devices of one device group, weights 3:1,
#                  one on each null_blk device (against two dm-linear
#                  devices)
#   1000 groups    one band device of type uid with 1,000 band groups
#                  (fio runs as one of them)
#   deep           the deep device of deep-device.sh (1,024 tags x 200 ms),
#                  two band devices at 3:1 on two slices, depth 2,048
#                  each (as in deep-device.sh, which says why more than
#                  the device's tags), from cold, one round
# Each configuration is measured two ways in every round:
#   alternating  dm-linear alone, then dm-ioband alone, one after the
#                other, in turns (dm-ioband first every other round; a
#                change of the machine's load between the two runs shows
#                as a difference);
#   shared CPU   dm-linear's and dm-ioband's jobs at the same time on the
#                guest's one CPU: the scheduler gives each job the same
#                CPU time, so the ratio of their IOPS is the ratio of
#                their costs per bio, and the host's load hits both alike.
# Prints the medians over the rounds (IOPS, and the median of the
# per-round ratios).  A measurement (make bench), not a test.
#
#   overhead.sh [--runtime S] [--rounds N] [--no-deep]
. "$(dirname "$0")/../lib/guest.sh"

runtime=5
rounds=5
deep=1
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=$2; shift ;;
	--rounds) rounds=$2; shift ;;
	--no-deep) deep=0 ;;
	--out) shift ;;
	*) echo "unknown argument $1"; exit 2 ;;
	esac
	shift
done

# iops <depth> <runtime> <dev...>: one fio job per device, all at once;
# prints each job's IOPS, one line per device, in order.
iops() {
	local depth=$1 rt=$2 d args=()
	shift 2
	for d in "$@"; do
		args+=(--name="${d##*/}" --filename="$d")
	done
	fio --ioengine=libaio --direct=1 --rw=randread --bs=4k \
		--iodepth="$depth" --runtime="$rt" --time_based \
		--output-format=json --output=/tmp/oh.json "${args[@]}" || return 1
	python3 -c 'import json
for job in json.load(open("/tmp/oh.json"))["jobs"]:
    print("%.0f" % job["read"]["iops"])'
}

# sum <numbers...>
sum() { echo "$@" | tr ' ' '\n' | awk '{ s += $1 } END { printf "%.0f", s }'; }

fa=$(nullb_create fa size=4096 memory_backed=0 irqmode=0 \
	completion_nsec=0 hw_queue_depth=256) || exit 1
fb=$(nullb_create fb size=4096 memory_backed=0 irqmode=0 \
	completion_nsec=0 hw_queue_depth=256) || exit 1
sz=$(sectors "$fa")
dm_create la "0 $sz linear $fa 0" || exit 1
dm_create lb "0 $sz linear $fb 0" || exit 1
dm_create iu "0 $sz ioband $fa 1 0 0 none weight 0 :100" || exit 1
dm_create ic1 "0 $sz ioband $fa 2 0 0 none weight 0 :300" || exit 1
dm_create ic2 "0 $sz ioband $fb 2 0 0 none weight 0 :100" || exit 1
# Type uid, 1,000 groups: uid 0 (fio) and 999 others.
groups=$(seq 0 999 | sed 's/$/:100/' | tr '\n' ' ')
dm_create ig "0 $sz ioband $fb 3 0 0 uid weight 0 :100 $groups" || exit 1

m=/dev/mapper
# configuration | dm-linear side | dm-ioband side
configs=(
	"aa|$m/la|$m/lb"
	"uncontended|$m/la|$m/iu"
	"contended|$m/la $m/lb|$m/ic1 $m/ic2"
	"groups1000|$m/lb|$m/ig"
)

# One result file per configuration and way: a "linear ioband" line per
# round.
res=/tmp/overhead
rm -rf $res
mkdir -p $res
for r in $(seq 1 "$rounds"); do
	log "# round $r of $rounds"
	for c in "${configs[@]}"; do
		IFS='|' read -r name lin ib <<<"$c"
		# dm-linear first in odd rounds, dm-ioband first in even ones
		if [ $((r % 2)) = 1 ]; then
			# shellcheck disable=SC2086
			a=$(iops 32 "$runtime" $lin) || exit 1
			# shellcheck disable=SC2086
			b=$(iops 32 "$runtime" $ib) || exit 1
		else
			# shellcheck disable=SC2086
			b=$(iops 32 "$runtime" $ib) || exit 1
			# shellcheck disable=SC2086
			a=$(iops 32 "$runtime" $lin) || exit 1
		fi
		# shellcheck disable=SC2086
		echo "$(sum $a) $(sum $b)" >>$res/alt-$name
		# shellcheck disable=SC2086
		both=($(iops 32 "$runtime" $lin $ib)) || exit 1
		# shellcheck disable=SC2086
		n=$(echo $lin | wc -w)
		echo "$(sum "${both[@]:0:n}") $(sum "${both[@]:n}")" \
			>>$res/shared-$name
	done
done
for d in ig ic2 ic1 iu; do
	$DMSETUP remove "$d" || exit 1
done

if [ "$deep" = 1 ]; then
	disk=$(nullb_create deep size=1024 memory_backed=0 hw_queue_depth=1024 \
		completion_nsec=200000000) || exit 1
	dm_linear_slices "$disk" 2 d || exit 1
	dsz=$(sectors /dev/mapper/d1)
	# shellcheck disable=SC2046
	x=$(iops 2048 10 /dev/mapper/d1 /dev/mapper/d2) || exit 1
	# shellcheck disable=SC2086
	lin=$(sum $x)
	dm_create ib_d1 "0 $dsz ioband /dev/mapper/d1 4 0 0 none weight 0 :300" || exit 1
	dm_create ib_d2 "0 $dsz ioband /dev/mapper/d2 4 0 0 none weight 0 :100" || exit 1
	# shellcheck disable=SC2046
	x=$(iops 2048 10 /dev/mapper/ib_d1 /dev/mapper/ib_d2) || exit 1
	# shellcheck disable=SC2086
	ib=$(sum $x)
	echo "$lin $ib" >$res/alt-deep
	$DMSETUP remove ib_d2 && $DMSETUP remove ib_d1 || exit 1
fi

echo "Per-bio cost: fio 4 KiB random reads, depth 32, null_blk irqmode=0 (inline"
echo "completion), dm-linear and dm-ioband each directly on the null_blk devices,"
echo "${runtime} s per run, $rounds rounds; medians.  Alternating: one after the other;"
echo "shared CPU: both at once on the guest's one CPU (ratio = ratio of costs)."
echo "Deep: 1,024 tags x 200 ms, two slices at depth 2,048, 10 s from cold, one round."
echo
printf '%-28s %-27s   %s\n' "" "alternating" "shared CPU"
printf '%-28s %9s %9s %7s   %9s %9s %7s\n' configuration linear ioband ratio \
	linear ioband ratio
for c in aa uncontended contended groups1000 deep; do
	case $c in
	aa) label="dm-linear against dm-linear" ;;
	uncontended) label="uncontended (1 device)" ;;
	contended) label="contended (2 devices, 3:1)" ;;
	groups1000) label="1,000 band groups" ;;
	deep) label="deep device (2 devices, 3:1)" ;;
	esac
	python3 - "$label" $res/alt-$c $res/shared-$c <<'PY'
import os, statistics, sys

def cols(path):
    if not os.path.exists(path):
        return "%9s %9s %7s" % ("-", "-", "-")
    rows = [[float(x) for x in l.split()] for l in open(path) if l.strip()]
    lin = statistics.median(r[0] for r in rows)
    ib = statistics.median(r[1] for r in rows)
    ratio = statistics.median(r[1] / r[0] for r in rows)
    return "%9.0f %9.0f %6.1f%%" % (lin, ib, 100 * ratio)

print("%-28s %s   %s" % (sys.argv[1], cols(sys.argv[2]), cols(sys.argv[3])))
PY
done
echo
echo "Per round (ioband/linear, %):"
for f in $res/*; do
	printf '  %-20s' "${f##*/}"
	awk '{ printf " %.1f", 100 * $2 / $1 } END { print "" }' "$f"
done
