#!/bin/bash
# Seed 004, second part: a sequential reader in one cgroup against 1 to 7
# buffered writers in another, equal weights, 20 s each.  With dm-ioband
# 1.x the reader fell from 1,673,656 sectors alone to 282,624-535,056 and
# the total from 1.67 M to 0.68-0.97 M sectors; an I/O-scheduler-based
# controller kept the reader near 800 K and the total near 1.2 M.
#
#   seed004-rw.sh [--writers "1 2 3 4 5 6 7"] [common options, lib.sh]
#
# ext4 on the device under test; the reader reads a 256 MiB file through
# the page cache, each writer writes its own file through it (memory.max
# of the writers' cgroup 256 MiB, so their pages are written back while
# they write).  Sectors are counted per cgroup from io.stat of the disk
# below (the same for every controller).
# --assert: with dm-ioband the reader gets its share, 50 % of the sectors
# at equal weights, within 5 points.
. "$(dirname "$0")/../lib/guest.sh"
. "$(dirname "$0")/lib.sh"

exp_parse "$@"
writers="1 2 3 4 5 6 7"
set -- "${EXP_ARGS[@]}"
while [ $# -gt 0 ]; do
	case $1 in
	--writers) writers=$2; shift ;;
	*) log "unknown argument $1"; exit 2 ;;
	esac
	shift
done

# 16 KiB requests: the disk, not UML's page cache, is the bottleneck.
exp_disk 1 memory_backed=1 size=768 max_sectors=32 || exit 1
cg_setup
cg_make ioband-exp/r
cg_make ioband-exp/w
echo "+io +memory" >/sys/fs/cgroup/ioband-exp/cgroup.subtree_control
echo 256M >/sys/fs/cgroup/ioband-exp/w/memory.max

# sectors_of <cgroup>: sectors read and written on the disk so far.
sectors_of() { cg_disk_sectors "ioband-exp/$1" "$DISK"; }

# run <controller> <device>: the N-writer rounds on ext4 on <device>.
run() {
	local c=$1 dev=$2 n r0 w0 r1 w1 rr ww tot i
	mkfs.ext4 -q -F "$dev" && mkdir -p /mnt/exp && mount -t ext4 "$dev" /mnt/exp ||
		return 1
	cg_run ioband-exp/r dd if=/dev/zero of=/mnt/exp/rfile bs=1M count=256 \
		2>/dev/null
	for i in 1 2 3 4 5 6 7; do
		cg_run ioband-exp/w fallocate -l 48M "/mnt/exp/w$i"
	done
	sync
	for n in $writers; do
		echo 3 >/proc/sys/vm/drop_caches
		cg_run ioband-exp/r fio --name=reader --filename=/mnt/exp/rfile \
			--rw=read --bs=128k --time_based --runtime="$EXP_RUNTIME" \
			--output=/dev/null &
		local pids=$!
		for i in $(seq 1 "$n"); do
			cg_run ioband-exp/w fio --name="w$i" --filename="/mnt/exp/w$i" \
				--rw=write --bs=64k --time_based --runtime="$EXP_RUNTIME" \
				--output=/dev/null &
			pids="$pids $!"
		done
		sleep 2
		read -r r0 _ < <(sectors_of r)
		read -r _ w0 < <(sectors_of w)
		sleep $((EXP_RUNTIME - 4))
		read -r r1 _ < <(sectors_of r)
		read -r _ w1 < <(sectors_of w)
		# shellcheck disable=SC2086
		wait $pids
		rr=$((r1 - r0))
		ww=$((w1 - w0))
		tot=$((rr + ww))
		printf '| %-10s | %2d writers | reader %9d | writers %9d | total %9d | reader %5s%% |\n' \
			"$c" "$n" "$rr" "$ww" "$tot" "$(share $rr $tot)"
		if [ "$c" = dm-ioband ]; then
			IB_READER_SHARE+=("$(share $rr $tot)")
			$DMSETUP message ioband1 0 show | grep '^group=' | sed 's/^/|   /'
			$DMSETUP message ioband1 0 reset
		fi
	done
	sync
	umount /mnt/exp
}

IB_READER_SHARE=()
log ""
log "Seed 004: a sequential reader (cgroup r) against N buffered writers (cgroup w), equal weights, $(exp_disk_desc) with 16 KiB requests, sectors over $((EXP_RUNTIME - 4)) of ${EXP_RUNTIME}s"
exp_want none && run none "${PART[1]}"
if exp_want ioband; then
	dm_create ioband1 "0 $(sectors "${PART[1]}") ioband ${PART[1]} 1 0 0 cgroup weight 0 :100 /ioband-exp/r:100 /ioband-exp/w:100" ||
		exit 1
	run dm-ioband /dev/mapper/ioband1
	$DMSETUP remove ioband1
fi
peer_run() { run "$1" "${PART[1]}"; }
exp_peers peer_run ioband-exp/r:100 ioband-exp/w:100
log "seed (2009, 20 s, dm-ioband 1.x): reader 1,673,656 sectors alone; 282,624-535,056 with 1-7 writers; total 0.68-0.97 M"

if [ "$EXP_ASSERT" = 1 ]; then
	for s in "${IB_READER_SHARE[@]}"; do
		check "dm-ioband: the reader gets $s % of the sectors (its share, 50, within 5)" within "$s" 50 5
	done
fi
finish
