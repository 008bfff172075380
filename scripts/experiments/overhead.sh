#!/bin/bash
# What dm-ioband costs per bio (run inside the UML guest, where the CPU is
# the limit): a null_blk that completes every bio inline (irqmode=0, no
# delay), fio 4 KiB random reads, O_DIRECT, depth 32, one job per device,
# each configuration next to dm-linear on the same slices, measured in
# turns (linear, ioband, linear, ioband...) so that a change of the
# machine's load hits both:
#   uncontended  one band device, one band group
#   contended    two band devices of one device group, weights 3:1
#   1000 groups  one band device of type uid with 1,000 band groups
#                (fio runs as one of them)
#   deep         the deep device of deep-device.sh (1,024 tags x 200 ms),
#                two band devices at 3:1, depth 1,024 each, from cold
# Prints the median IOPS of each over the rounds and the median of the
# per-round ratios to dm-linear.  A measurement (make bench), not a test.
#
#   overhead.sh [--runtime S] [--rounds N] [--no-deep]
. "$(dirname "$0")/../lib/guest.sh"

runtime=5
rounds=3
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

# iops <depth> <runtime> <dev...>: total IOPS of fio on the devices.
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
j = json.load(open("/tmp/oh.json"))
print("%.0f" % sum(job["read"]["iops"] for job in j["jobs"]))'
}

fast=$(nullb_create fast size=4096 memory_backed=0 irqmode=0 \
	completion_nsec=0 hw_queue_depth=256) || exit 1
dm_linear_slices "$fast" 2 f || exit 1
sz=$(sectors /dev/mapper/f1)
dm_create ib_u "0 $sz ioband /dev/mapper/f1 1 0 0 none weight 0 :100" || exit 1
dm_create ib_c1 "0 $sz ioband /dev/mapper/f1 2 0 0 none weight 0 :300" || exit 1
dm_create ib_c2 "0 $sz ioband /dev/mapper/f2 2 0 0 none weight 0 :100" || exit 1
# Type uid, 1,000 groups: uid 0 (fio) and 999 others.
groups=$(seq 0 999 | sed 's/$/:100/' | tr '\n' ' ')
dm_create ib_g "0 $sz ioband /dev/mapper/f2 3 0 0 uid weight 0 :100 $groups" ||
	exit 1

# One result file per configuration: one "linear ioband" line per round.
res=/tmp/overhead
rm -rf $res
mkdir -p $res
for r in $(seq 1 "$rounds"); do
	log "# round $r of $rounds"
	echo "$(iops 32 "$runtime" /dev/mapper/f1) $(iops 32 "$runtime" /dev/mapper/ib_u)" >>$res/uncontended
	echo "$(iops 32 "$runtime" /dev/mapper/f1 /dev/mapper/f2) $(iops 32 "$runtime" /dev/mapper/ib_c1 /dev/mapper/ib_c2)" >>$res/contended
	echo "$(iops 32 "$runtime" /dev/mapper/f2) $(iops 32 "$runtime" /dev/mapper/ib_g)" >>$res/groups1000
done
for d in ib_g ib_c2 ib_c1 ib_u; do
	$DMSETUP remove "$d" || exit 1
done

if [ "$deep" = 1 ]; then
	disk=$(nullb_create deep size=1024 memory_backed=0 hw_queue_depth=1024 \
		completion_nsec=200000000) || exit 1
	dm_linear_slices "$disk" 2 d || exit 1
	dsz=$(sectors /dev/mapper/d1)
	lin=$(iops 1024 10 /dev/mapper/d1 /dev/mapper/d2) || exit 1
	dm_create ib_d1 "0 $dsz ioband /dev/mapper/d1 4 0 0 none weight 0 :300" || exit 1
	dm_create ib_d2 "0 $dsz ioband /dev/mapper/d2 4 0 0 none weight 0 :100" || exit 1
	ib=$(iops 1024 10 /dev/mapper/ib_d1 /dev/mapper/ib_d2) || exit 1
	echo "$lin $ib" >$res/deep
	$DMSETUP remove ib_d2 && $DMSETUP remove ib_d1 || exit 1
fi

echo "Per-bio cost: fio 4 KiB random reads, depth 32, null_blk irqmode=0 (inline"
echo "completion), ${runtime} s per run, $rounds rounds in turns; medians.  Deep: 1,024 tags"
echo "x 200 ms, two devices at depth 1,024, 10 s from cold, one round."
echo
printf '%-28s %12s %12s %8s\n' configuration "dm-linear" "dm-ioband" ratio
for c in uncontended contended groups1000 deep; do
	[ -f $res/$c ] || continue
	case $c in
	uncontended) label="uncontended (1 device)" ;;
	contended) label="contended (2 devices, 3:1)" ;;
	groups1000) label="1,000 band groups" ;;
	deep) label="deep device (2 devices, 3:1)" ;;
	esac
	python3 - "$label" $res/$c <<'PY'
import statistics, sys
rows = [[float(x) for x in l.split()] for l in open(sys.argv[2]) if l.strip()]
lin = statistics.median(r[0] for r in rows)
ib = statistics.median(r[1] for r in rows)
ratio = statistics.median(r[1] / r[0] for r in rows)
print("%-28s %12.0f %12.0f %7.1f%%   rounds: %s" % (sys.argv[1], lin, ib,
      100 * ratio, ", ".join("%.0f/%.0f" % (r[1], r[0]) for r in rows)))
PY
done
