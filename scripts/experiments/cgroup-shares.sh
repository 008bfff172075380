#!/bin/bash
# Two cgroups on one band device, weights 80/20 (run inside the UML guest),
# without --assert next to the same load on dm-linear (no controller).
#
#   cgroup-shares.sh direct   [--runtime S] [--assert]
#	4 KiB random O_DIRECT reads, 64 in flight each; shares of I/Os from
#	fio, asserted within 2 points of 80/20
#   cgroup-shares.sh buffered [--runtime S] [--assert]
#	each cgroup dirties 96 MiB of a file on ext4 through the page cache,
#	then one sync has the flusher threads write both back, on behalf of
#	each cgroup (io and memory controllers on); policy weight-iosize;
#	shares of the bytes written back over the first S seconds of the
#	flush, from io.stat of the disk below, at weights 80/20 and again
#	at 20/80; --assert: within 5 points of each.  The files are written
#	once beforehand, so the flush allocates no blocks: allocation would
#	tie both flushers to the journal's commits and make them take turns.
# --assert: 1 check per dm-ioband row (direct 1, buffered 2); the
# no-controller row is left out (printed without --assert).
. "$(dirname "$0")/../lib/guest.sh"

mode=$1
shift
runtime=15
assert=0
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=$2; shift ;;
	--assert) assert=1 ;;
	--out) shift ;;		# nothing to keep beyond the table
	*) echo "unknown argument $1"; exit 2 ;;
	esac
	shift
done
controller_off && log "# CONTROLLER OFF (IOBAND_CONTROLLER_OFF=1): dm-linear in place of the band device"

cg_setup
cg_make jobs/a
cg_make jobs/b
echo "+io +memory" >/sys/fs/cgroup/jobs/cgroup.subtree_control
share() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", 100 * a / b }'; }
JOIN=$GTOP/scripts/lib/fio-join-cgroup.sh

# direct <device>: sets a and b, the I/Os of /jobs/a and /jobs/b.
direct() {
	DEV=$1 RUNTIME=$runtime IODEPTH=64 CG1=jobs/a \
		CG2=jobs/b JOIN=$JOIN fio --output-format=json \
		--output=/tmp/cg.json "$GTOP/fio-jobs/cgroup-randread.fio" ||
		return 1
	read -r a b < <(python3 -c 'import json
j = json.load(open("/tmp/cg.json"))
print(*[job["read"]["total_ios"] for job in j["jobs"]])')
}

# buffered <device>: sets a and b, the sectors of /jobs/a and /jobs/b
# written back over the first $runtime seconds of the flush.
buffered() {
	local dev=$1 a0 b0 sync_pid st sa sb d
	mkfs.ext4 -q -F "$dev" || return 1
	mkdir -p /mnt/t && mount -t ext4 "$dev" /mnt/t || return 1
	# The files are written and synced once, so that writing them back
	# again allocates nothing: the flusher of each cgroup then submits
	# its pages without waiting for the journal (block allocation ties
	# both flushers to jbd2 commits, and they take turns).  Each cgroup
	# then overwrites its own file in the page cache, with dirty limits
	# high enough that nothing is written back yet, and one sync has
	# the flusher threads write both back at once, on behalf of each
	# cgroup: the bytes written over the first seconds show the shares.
	echo $((900 << 20)) >/proc/sys/vm/dirty_background_bytes
	echo $((1000 << 20)) >/proc/sys/vm/dirty_bytes
	# Written from its own cgroup: an inode's writeback belongs to the
	# cgroup that first dirtied it.
	for f in a b; do
		cg_run jobs/$f dd if=/dev/zero of=/mnt/t/$f.dat bs=1M count=96 2>/dev/null ||
			return 1
	done
	sync
	echo 3 >/proc/sys/vm/drop_caches
	cg_run jobs/a dd if=/dev/zero of=/mnt/t/a.dat bs=1M count=96 conv=notrunc 2>/dev/null &&
		cg_run jobs/b dd if=/dev/zero of=/mnt/t/b.dat bs=1M count=96 conv=notrunc 2>/dev/null ||
		return 1
	# Written bytes of each cgroup on the disk below (io.stat): what the
	# disk did for it.  The band device's status counts bios as they
	# arrive, held ones included, so it shows attribution, not service.
	wsec() { cg_disk_sectors "jobs/$1" "$disk" | cut -d' ' -f2; }
	[ "$dev" = /dev/mapper/ioband1 ] && { ib_msg ioband1 reset || return 1; }
	a0=$(wsec a) b0=$(wsec b)
	sync &
	sync_pid=$!
	sleep "$runtime"
	a=$(($(wsec a) - a0)) b=$(($(wsec b) - b0))
	if [ "$dev" = /dev/mapper/ioband1 ] && ! controller_off; then
		log "$($DMSETUP message ioband1 0 show)"
		st=$($DMSETUP status ioband1)
		sa=$(echo "$st" | awk '{ for (i = 5; i <= NF; i += 7) if ($i == "/jobs/a") print $(i + 6) }')
		sb=$(echo "$st" | awk '{ for (i = 5; i <= NF; i += 7) if ($i == "/jobs/b") print $(i + 6) }')
		d=$(echo "$st" | awk '{ print $11 }')
		log "# band groups' status after ${runtime}s (bios arrived, held ones included): /jobs/a $sa, /jobs/b $sb, default (journal, metadata) $d sectors written"
	fi
	wait $sync_pid || return 1
	umount /mnt/t
}

case $mode in
direct)
	disk=$(nullb_create disk size=1024 memory_backed=0) || exit 1
	policy=weight
	log "# two cgroups, 4 KiB random direct reads, 64 in flight each, ${runtime}s"
	what="I/Os"
	tol=2
	;;
buffered)
	# 8 KiB requests: 2,000 of them a second is 16 MB/s, well below what
	# UML pushes through the page cache, so the disk is the bottleneck.
	disk=$(nullb_create disk size=512 memory_backed=1 max_sectors=16) ||
		exit 1
	policy=weight-iosize
	log "# two cgroups' dirty pages (96 MiB each) written back by one sync, first ${runtime}s of it"
	what="sectors written back"
	tol=5
	;;
*)
	echo "mode: direct or buffered"
	exit 2
	;;
esac
sz=$(sectors "$disk")

printf '%-10s %-10s %6s %20s %8s %8s\n' controller cgroup weight "$what" share target
# row <label> <weight of a>: print a's and b's shares; sets sa and sb.
row() {
	sa=$(share "$a" $((a + b)))
	sb=$(share "$b" $((a + b)))
	printf '%-10s %-10s %6s %20s %7s%% %7s%%\n' "$1" /jobs/a "$2" "$a" "$sa" "$2.0"
	printf '%-10s %-10s %6s %20s %7s%% %7s%%\n' "$1" /jobs/b $((100 - $2)) "$b" "$sb" "$((100 - $2)).0"
}

# The baseline: the same load on dm-linear, no controller (printed, not
# asserted: --assert leaves it out, and the controller-off run of
# scripts/shares-onoff.sh is the control of the checks).
if [ "$assert" = 0 ]; then
	dm_create linear1 "0 $sz linear $disk 0" || exit 1
	if "$mode" /dev/mapper/linear1; then
		row none 80
	else
		log "| none: the run failed"
	fi
	$DMSETUP remove linear1 || exit 1
fi

# The weights 80/20, and for buffered writeback 20/80 as well: on
# dm-linear the flusher threads' split over the first seconds of a sync
# is whatever order they happen to run in (/jobs/a's share 45.0, 54.5,
# 66.7 and 81.0 % in four controller-off runs), so one order alone
# passed by chance once; to pass both, the flushers' order would have
# to follow the weights both times.
orders=80
[ "$mode" = buffered ] && orders="80 20"
[ "$assert" = 1 ] && plan "$(echo $orders | wc -w)"
for wa in $orders; do
	ran=0 sa='' sb=''
	dm_create ioband1 "0 $sz ioband $disk 1 0 0 cgroup $policy 0 :100 /jobs/a:$wa /jobs/b:$((100 - wa))" ||
		exit 1
	if "$mode" /dev/mapper/ioband1; then
		row dm-ioband "$wa"
		ran=1
	else
		log "| dm-ioband: the run failed"
	fi
	$DMSETUP remove ioband1 || exit 1
	[ "$assert" = 1 ] || continue
	# One check per order: of two groups, /jobs/b's share is the rest
	# (the test audit: counted twice, it was one assertion).  (within
	# refuses an empty or nan share: a run that counted nothing.)
	split_ok() {
		[ "$ran" = 1 ] && within "$sa" "$wa" "$tol" &&
			within "$sb" $((100 - wa)) "$tol"
	}
	check "/jobs/a and /jobs/b share $sa/$sb, within $tol of $wa/$((100 - wa))" split_ok
done
finish
