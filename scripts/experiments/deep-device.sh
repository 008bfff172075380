#!/bin/bash
# Work conservation on a deep device (run inside the UML guest): a
# null_blk of 1,024 tags x 200 ms (about 5,100 IOPS, a deep device with
# long latency), N band devices (weights 3:1:1:..., one device group) on
# N dm-linear slices, fio at depth 512 per device, from cold (new band
# devices), next to the same load on the dm-linear slices alone.
#
#   deep-device.sh [--runtime S] [--devices "2 8"]
#
# Prints, per N: IOPS with dm-linear, with dm-ioband, the ratio, the shares
# against the weights, and the in-flight limit the device group settled on.
# A measurement (make bench), not a test.
. "$(dirname "$0")/../lib/guest.sh"

runtime=10
devices="2 8"
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=$2; shift ;;
	--devices) devices=$2; shift ;;
	--out) shift ;;
	*) echo "unknown argument $1"; exit 2 ;;
	esac
	shift
done

disk=$(nullb_create deep size=1024 memory_backed=0 hw_queue_depth=1024 \
	completion_nsec=200000000) || exit 1

# run_fio <n> <prefix>: fio on <prefix>1..n; prints each device's IOPS.
run_fio() {
	local n=$1 prefix=$2 i args=()
	for i in $(seq 1 "$n"); do
		args+=(--name="d$i" --filename="/dev/mapper/$prefix$i")
	done
	fio --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=512 \
		--runtime="$runtime" --time_based --group_reporting=0 \
		--output-format=json --output=/tmp/deep.json "${args[@]}" ||
		return 1
	python3 -c 'import json
j = json.load(open("/tmp/deep.json"))
print(*["%.0f" % job["read"]["iops"] for job in j["jobs"]])'
}

printf '%-8s %10s %10s %7s  %-28s %-28s %s\n' devices linear ioband ratio \
	shares target io_limit
for n in $devices; do
	dm_linear_slices "$disk" "$n" "s${n}_" || exit 1
	lin=$(run_fio "$n" "s${n}_") || exit 1
	sz=$(sectors "/dev/mapper/s${n}_1")
	wsum=0
	for i in $(seq 1 "$n"); do
		w=$((i == 1 ? 300 : 100))
		wsum=$((wsum + w))
		dm_create "b${n}_$i" "0 $sz ioband /dev/mapper/s${n}_$i $((40 + n)) 0 0 none weight 0 :$w" ||
			exit 1
	done
	ib=$(run_fio "$n" "b${n}_") || exit 1
	lim=$($DMSETUP message "b${n}_1" 0 show | head -1 | tr ' ' '\n' |
		sed -n 's/^io_limit=//p')
	read -r ltot itot shares target < <(python3 - "$lin" "$ib" "$n" <<'PY'
import sys
lin = [float(x) for x in sys.argv[1].split()]
ib = [float(x) for x in sys.argv[2].split()]
n = int(sys.argv[3])
w = [300] + [100] * (n - 1)
print("%.0f %.0f %s %s" % (sum(lin), sum(ib),
      "/".join("%.1f" % (100 * x / sum(ib)) for x in ib),
      "/".join("%.1f" % (100 * x / sum(w)) for x in w)))
PY
)
	ratio=$(awk -v a="$itot" -v b="$ltot" 'BEGIN { printf "%.1f%%", 100 * a / b }')
	printf '%-8s %10s %10s %7s  %-28s %-28s %s\n' "$n" "$ltot" "$itot" \
		"$ratio" "$shares" "$target" "$lim"
	for i in $(seq 1 "$n"); do
		$DMSETUP remove "b${n}_$i"
	done
done
