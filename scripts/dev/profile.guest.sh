#!/bin/bash
# Guest half of scripts/dev/profile-uml.sh: fio on each configuration in
# turn, with a marker file in the run directory (hostfs) before and after,
# so that the host can profile the UML kernel process during each run.
#
#   profile.guest.sh [--runtime S] [--batch N] CONFIG...
#   CONFIG: linear ioband linear2 contended
. "$(dirname "$0")/../lib/guest.sh"

runtime=10
batch=1
cfgs=()
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=$2; shift ;;
	--batch) batch=$2; shift ;;
	--out) shift ;;
	*) cfgs+=("$1") ;;
	esac
	shift
done
out=${IOBAND_OUT:?}

fast=$(nullb_create fast size=4096 memory_backed=0 irqmode=0 \
	completion_nsec=0 hw_queue_depth=256) || exit 1
dm_linear_slices "$fast" 2 f || exit 1
sz=$(sectors /dev/mapper/f1)
dm_create ib_u "0 $sz ioband /dev/mapper/f1 1 0 0 none weight 0 :100" || exit 1
dm_create ib_c1 "0 $sz ioband /dev/mapper/f1 2 0 0 none weight 0 :300" || exit 1
dm_create ib_c2 "0 $sz ioband /dev/mapper/f2 2 0 0 none weight 0 :100" || exit 1

for c in "${cfgs[@]}"; do
	case $c in
	linear) devs=(/dev/mapper/f1) ;;
	ioband) devs=(/dev/mapper/ib_u) ;;
	linear2) devs=(/dev/mapper/f1 /dev/mapper/f2) ;;
	contended) devs=(/dev/mapper/ib_c1 /dev/mapper/ib_c2) ;;
	*) log "unknown configuration $c"; exit 2 ;;
	esac
	args=()
	for d in "${devs[@]}"; do
		args+=(--name="${d##*/}" --filename="$d")
	done
	touch "$out/go-$c"
	fio --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=32 \
		--iodepth_batch_submit="$batch" \
		--iodepth_batch_complete_min="$batch" \
		--runtime="$runtime" --time_based --output-format=json \
		--output=/tmp/prof.json "${args[@]}" &
	fio=$!
	sleep $((runtime / 2))
	case $c in
	ioband) ib_msg ib_u show ;;
	contended) ib_msg ib_c1 show; ib_msg ib_c2 show ;;
	esac
	wait $fio || exit 1
	touch "$out/done-$c"
	python3 -c 'import json
j = json.load(open("/tmp/prof.json"))
print("'"$c"' iops %.0f" % sum(x["read"]["iops"] for x in j["jobs"]))'
done
for d in ib_c2 ib_c1 ib_u; do
	$DMSETUP remove "$d" || exit 1
done
