#!/bin/bash
# Seed 004, second part: a sequential reader in one cgroup against 1 to 7
# buffered writers in another, equal weights, 20 s each.  With dm-ioband
# 1.x the reader fell from 1,673,656 sectors alone to 282,624-535,056 and
# the total from 1.67 M to 0.68-0.97 M sectors; an I/O-scheduler-based
# controller kept the reader near 800 K and the total near 1.2 M.
#
#   seed004-rw.sh [--writers "1 2 3 4 5 6 7"] [--reader-weight W]
#                 [common options, lib.sh]
# --reader-weight: the reader's weight against the writers' 100 (default
# 100, the seed's equal weights).
#
# ext4 on the device under test; the reader reads a 256 MiB file through
# the page cache, each writer writes its own file through it (memory.max
# of the writers' cgroup 256 MiB, so their pages are written back while
# they write).  Sectors and bios are counted per cgroup from io.stat of
# the disk below (the same for every controller): what was dispatched to
# the disk for each.
# --assert (one check per writer count): what the policy promises for
# this load.  The band device uses policy weight, which shares bios (not
# sectors: writeback's bio sizes are not the reader's), and only among
# groups that are backlogged.  So: the reader's share of the bios
# dispatched while both groups had bios held (sampled every 0.5 s; an
# interval counts when both held bios at both of its ends) is its weight's
# share (50 % at equal weights) within 5 points, over at least 2 s of such
# intervals.  With the controller off
# (IOBAND_CONTROLLER_OFF=1, dm-linear) nothing is held: the intervals
# where both got bios dispatched count.  The share of all sectors over
# the run is printed as a measurement.
. "$(dirname "$0")/../lib/guest.sh"
. "$(dirname "$0")/lib.sh"

exp_parse "$@"
writers="1 2 3 4 5 6 7"
rweight=100
set -- "${EXP_ARGS[@]}"
while [ $# -gt 0 ]; do
	case $1 in
	--writers) writers=$2; shift ;;
	--reader-weight) rweight=$2; shift ;;
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

# ios_of <cgroup>: "<read bios> <written bios> <read sectors> <written
# sectors>" on the disk below so far (io.stat).
ios_of() {
	local devno
	devno=$(cat "/sys/block/$(basename "$(readlink -f "$DISK")")/dev") ||
		return 1
	awk -v d="$devno" '$1 == d { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); v[kv[1]] = kv[2] } }
		END { printf "%d %d %d %d\n", v["rios"], v["wios"],
			v["rbytes"] / 512, v["wbytes"] / 512 }' \
		"/sys/fs/cgroup/ioband-exp/$1/io.stat"
}

# queued <group>: bios the band device holds for a band group now.
queued() {
	awk -v g="group=$1" '$1 == g { for (i = 2; i <= NF; i++)
		if ($i ~ /^queued=/) print substr($i, 8) }' <<<"$SHOW"
}

# sample: one sample of both groups (sets S_R, S_W bios, S_RS, S_WS
# sectors, S_BL 1 when both hold bios now).
sample() {
	local x
	read -r S_R x S_RS x < <(ios_of r)
	read -r x S_W x S_WS < <(ios_of w)
	S_BL=0
	if [ "$IB" = 1 ]; then
		SHOW=$($DMSETUP message ioband1 0 show)
		[ "$(queued /ioband-exp/r)" -gt 0 ] 2>/dev/null &&
			[ "$(queued /ioband-exp/w)" -gt 0 ] 2>/dev/null && S_BL=1
	fi
}

# run <controller> <device>: the N-writer rounds on ext4 on <device>.
# Fails if the setup or a fio fails.
run() {
	local c=$1 dev=$2 n i pids pid t0 t tp bl br bw rs0 ws0 pr pw pbl
	local rs ws tot span bad=0
	mkfs.ext4 -q -F "$dev" && mkdir -p /mnt/exp && mount -t ext4 "$dev" /mnt/exp ||
		return 1
	cg_run ioband-exp/r dd if=/dev/zero of=/mnt/exp/rfile bs=1M count=256 \
		2>/dev/null || return 1
	for i in 1 2 3 4 5 6 7; do
		cg_run ioband-exp/w fallocate -l 48M "/mnt/exp/w$i" || return 1
	done
	sync
	for n in $writers; do
		echo 3 >/proc/sys/vm/drop_caches
		cg_run ioband-exp/r fio --name=reader --filename=/mnt/exp/rfile \
			--rw=read --bs=128k --time_based --runtime="$EXP_RUNTIME" \
			--output=/dev/null &
		pids=$!
		for i in $(seq 1 "$n"); do
			cg_run ioband-exp/w fio --name="w$i" --filename="/mnt/exp/w$i" \
				--rw=write --bs=64k --time_based --runtime="$EXP_RUNTIME" \
				--output=/dev/null &
			pids="$pids $!"
		done
		# Sample every 0.5 s from 1 s on until the first fio ends.
		sleep 1
		t0=$(date +%s%N)
		sample
		rs0=$S_RS ws0=$S_WS
		pr=$S_R pw=$S_W pbl=$S_BL tp=$t0
		bl=0 br=0 bw=0
		while :; do
			sleep 0.5
			for pid in $pids; do kill -0 "$pid" 2>/dev/null || break 2; done
			sample
			t=$(date +%s%N)
			if [ "$IB" = 1 ]; then
				if [ "$pbl" = 1 ] && [ "$S_BL" = 1 ]; then
					bl=$((bl + t - tp)) br=$((br + S_R - pr)) bw=$((bw + S_W - pw))
				fi
			elif [ "$S_R" -gt "$pr" ] && [ "$S_W" -gt "$pw" ]; then
				bl=$((bl + t - tp)) br=$((br + S_R - pr)) bw=$((bw + S_W - pw))
			fi
			pr=$S_R pw=$S_W pbl=$S_BL tp=$t
		done
		rs=$((S_RS - rs0)) ws=$((S_WS - ws0))
		span=$(((tp - t0) / 1000000))
		bad=0
		for pid in $pids; do
			wait "$pid" || { log "| $c: a fio exited $?"; bad=1; }
		done
		[ "$bad" = 0 ] || break
		tot=$((rs + ws))
		printf '| %-10s | %2d writers | over %5d ms: reader %8d, writers %8d sectors, reader %5s%% | both backlogged %5d ms: reader %6d, writers %6d bios, reader %5s%% |\n' \
			"$c" "$n" "$span" "$rs" "$ws" "$(share $rs $tot)" \
			$((bl / 1000000)) "$br" "$bw" "$(share $br $((br + bw)))"
		if [ "$c" = dm-ioband ]; then
			IB_READER_SHARE+=("$n $(share $br $((br + bw))) $((bl / 1000000))")
			if [ "$IB" = 1 ]; then
				$DMSETUP message ioband1 0 show | grep '^group=' | sed 's/^/|   /'
				$DMSETUP message ioband1 0 reset
			fi
		fi
	done
	sync
	umount /mnt/exp || bad=1
	return "$bad"
}

IB_READER_SHARE=()
IB=0
log ""
log "Seed 004: a sequential reader (cgroup r) against N buffered writers (cgroup w), weights $rweight:100, $(exp_disk_desc) with 16 KiB requests"
if exp_want none; then
	run none "${PART[1]}" || log "| none: the run failed"
fi
if exp_want ioband; then
	[ "$EXP_ASSERT" = 1 ] && plan "$(wc -w <<<"$writers")"
	dm_create ioband1 "0 $(sectors "${PART[1]}") ioband ${PART[1]} 1 0 0 cgroup weight 0 :100 /ioband-exp/r:$rweight /ioband-exp/w:100" ||
		exit 1
	controller_off || IB=1
	run dm-ioband /dev/mapper/ioband1 || log "| dm-ioband: the run failed"
	IB=0
	$DMSETUP remove ioband1 || exit 1
fi
peer_run() { run "$1" "${PART[1]}" || log "| $1: the run failed"; }
exp_peers peer_run ioband-exp/r:100 ioband-exp/w:100
log "seed (2009, 20 s, dm-ioband 1.x): reader 1,673,656 sectors alone; 282,624-535,056 with 1-7 writers; total 0.68-0.97 M"

if [ "$EXP_ASSERT" = 1 ]; then
	want=$(share "$rweight" $((rweight + 100)))
	for s in "${IB_READER_SHARE[@]}"; do
		set -- $s
		# shellcheck disable=SC2317
		reader_ok() { at_least "$3" 2000 && within "$2" "$want" 5; }
		check "dm-ioband, $1 writers: the reader gets $2 % of the bios while both are backlogged ($3 ms; its share, $want, within 5, over at least 2000 ms)" \
			reader_ok "$@"
	done
fi
finish
