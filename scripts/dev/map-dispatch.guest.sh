#!/bin/bash
# Guest half of scripts/dev/map-dispatch.sh: should ioband_map() dispatch
# held bios (its own band device's or another's) from the submitting task,
# or leave every held bio to the pool's worker?  Needs a kernel with the
# map_dispatch module parameter of scripts/dev/map-dispatch-knob.diff
# (not part of the series).
#
# A saturated device (null_blk, 8 tags x 1 ms: 8,000 IOPS, about half of
# what the pinned UML guest's CPU can submit to it, so that bios are held
# and the CPU time they cost shows as "busy"), two band devices of one
# device group at 3:1 on two slices of it, fio 4 KiB random reads at depth
# 32 on each.  Per round: dm-linear, then dm-ioband with map_dispatch=1 and =0.
# Prints, per mode: total IOPS, the first device's share, guest CPU busy
# and context switches per I/O.
. "$(dirname "$0")/../lib/guest.sh"

runtime=5
rounds=5
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=$2; shift ;;
	--rounds) rounds=$2; shift ;;
	--out) shift ;;
	*) echo "unknown argument $1"; exit 2 ;;
	esac
	shift
done
param=/sys/module/dm_ioband/parameters/map_dispatch
[ -w $param ] || { log "no $param: build the kernel with map-dispatch-knob.diff"; exit 2; }

disk=$(nullb_create sat size=2048 memory_backed=0 irqmode=2 \
	completion_nsec=1000000 hw_queue_depth=8) || exit 1
dm_linear_slices "$disk" 2 s || exit 1
sz=$(sectors /dev/mapper/s1)
dm_create b1 "0 $sz ioband /dev/mapper/s1 1 0 0 none weight 0 :300" || exit 1
dm_create b2 "0 $sz ioband /dev/mapper/s2 1 0 0 none weight 0 :100" || exit 1

# stat: "busy idle ctxt" from /proc/stat (jiffies, switches)
stat() {
	awk '$1 == "cpu" { b = $2 + $3 + $4 + $7 + $8; i = $5 + $6 }
	     $1 == "ctxt" { c = $2 } END { print b, i, c }' /proc/stat
}

# run <label> <dev1> <dev2>: one line "label iops share busy% switches"
run() {
	local label=$1 s0 s1
	s0=$(stat)
	fio --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=32 \
		--runtime="$runtime" --time_based --output-format=json \
		--output=/tmp/md.json --name=a --filename="$2" \
		--name=b --filename="$3" || return 1
	s1=$(stat)
	python3 - "$label" "$s0" "$s1" <<'PY'
import json, sys
j = json.load(open("/tmp/md.json"))["jobs"]
a, b = (x["read"]["iops"] for x in j)
b0, i0, c0 = map(int, sys.argv[2].split())
b1, i1, c1 = map(int, sys.argv[3].split())
busy = 100.0 * (b1 - b0) / max(1, (b1 - b0) + (i1 - i0))
print("%s %.0f %.1f %.1f %.0f" % (sys.argv[1], a + b, 100.0 * a / (a + b),
                                  busy, c1 - c0))
PY
}

for r in $(seq 1 "$rounds"); do
	log "# round $r of $rounds"
	run linear /dev/mapper/s1 /dev/mapper/s2 || exit 1
	for m in 1 0; do
		echo $m >$param
		run "map_dispatch=$m" /dev/mapper/b1 /dev/mapper/b2 || exit 1
	done
done | tee /tmp/md.out
echo 1 >$param
echo
echo "8 tags x 1 ms, two devices at 3:1, depth 32 each, ${runtime} s x $rounds rounds; medians"
printf '%-16s %8s %7s %6s %10s\n' mode IOPS share busy "ctxt/I/O"
for l in linear map_dispatch=1 map_dispatch=0; do
	grep "^$l " /tmp/md.out | python3 -c '
import statistics, sys
rows = [l.split() for l in sys.stdin]
med = lambda k: statistics.median(float(r[k]) for r in rows)
ctx = statistics.median(float(r[4]) / (float(r[1]) * '"$runtime"') for r in rows)
print("%-16s %8.0f %6.1f%% %5.1f%% %10.2f" % (rows[0][0], med(1), med(2), med(3), ctx))'
done
for d in b2 b1; do
	$DMSETUP remove "$d" || exit 1
done
