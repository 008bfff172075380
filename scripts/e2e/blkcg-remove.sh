#!/bin/bash
# dm-ioband as a blk-cgroup policy: a cgroup created, used and removed
# while dm-ioband holds its bios, on a band device of type cgroup with no
# attach.  Its held bios are handed to its parent's group and dispatched;
# its group goes once its blkg does; nothing leaks (nr_dying_descendants
# back to 0); a reload while a removed cgroup's bios are held; a bio
# of a removed cgroup mapped after it went offline goes to its nearest
# live ancestor's group; the lockless path never opens for a removed
# cgroup's group.
. "$(dirname "$0")/../lib/guest.sh"
plan 21

CG=/sys/fs/cgroup
cg_setup || exit 1
cg_make tr/park || exit 1
echo "+io +memory" >$CG/tr/cgroup.subtree_control || exit 1
disk=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$disk")
check "create a band device of type cgroup, no band groups" dm_create ioband1 \
	"0 $sz ioband $disk 1 0 0 cgroup weight 0 :100"
band=$(dm_majmin ioband1)
dying() { cg_dying tr; }
queued() { show_q ioband1 "cgroup:$1"; }
disp() { show_group ioband1 "cgroup:$1" dispatched; }
# in_d <cgroup>: its processes waiting in state D (for a read).
in_d() {
	local p
	for p in $(cat "$CG/$1/cgroup.procs"); do
		awk '$3 == "D"' "/proc/$p/stat" 2>/dev/null
	done | wc -l
}
# park <cgroup>: move its processes to /tr/park (their bios stay its).
park() {
	local p
	for p in $(cat "$CG/$1/cgroup.procs"); do
		echo "$p" >$CG/tr/park/cgroup.procs
	done
}

# /tr/x reads with 32 in flight under a ceiling of 2 I/Os per second, so
# that most of its bios are held, for 10 s.  Once fio moves, the bios
# /tr/x holds drain at its ceiling: slowly enough for the checks below on
# a busy machine.
mkdir $CG/tr/x || exit 1
id=$(stat -c %i $CG/tr/x)
echo "$band max_iops=2" >$CG/tr/x/io.ioband.limits
cg_run tr/x fio --name=x --filename=/dev/mapper/ioband1 --direct=1 \
	--rw=randread --bs=4k --iodepth=32 --ioengine=libaio --runtime=10 \
	--time_based --output=/tmp/x.out &
fpid=$!
# Until /tr/x holds most of its bios: fio starts slowly on a busy machine.
for _ in $(seq 1 100); do
	[ "$(queued "$id")" -ge 24 ] 2>/dev/null && break
	sleep 0.1
done
# Move fio to /tr/park (its bios stay /tr/x's) and remove the cgroup
# while they are held.
park tr/x
trid=$(stat -c %i $CG/tr)
d0=$(disp "$trid")
q=$(queued "$id")
check "/tr/x holds bios when it is removed ($q)" at_least "${q:-0}" 8
check "remove /tr/x while its bios are held" rmdir $CG/tr/x
check "it is dying" at_least "$(dying)" 1
# Its held bios went to /tr's group, which has no ceiling, and were
# dispatched from there (the test audit's finding 17: a group that only
# vanished from show, its bios kept at its ceiling, passed the check
# on queued alone): /tr's group dispatches them at once, at least half
# of those counted before the rmdir (its ceiling dispatches one every
# 500 ms until the cgroup is offline: 18 of 26 at 10 a second); kept at
# the ceiling, none.
q2=$(queued "$id")
check "/tr/x's group handed its held bios on (it holds '$q2', empty: gone)" test "${q2:-0}" = 0
tr_got() { echo $(($(disp "$trid") - ${d0:-0})); }
got=$(wait_for 5 "$q" tr_got)
check "/tr's group dispatched them: $got of the $q /tr/x held (at least half; nothing else of /tr is its own)" \
	at_least "$got" $((${q:-16} / 2))
wait $fpid
check "fio ended well (exit $?)" test $? = 0
cg_dying_gone tr 10
check "nr_dying_descendants of /tr back to 0 ($(dying))" test "$(dying)" = 0
check "its group went with it" sh -c "! $DMSETUP message ioband1 0 show | grep -q 'group=cgroup:$id '"

# Again, and reload the table while the removed cgroup's bios are held:
# the suspend dispatches them, the old table's groups go with it.
mkdir $CG/tr/y || exit 1
id=$(stat -c %i $CG/tr/y)
echo "$band max_iops=20" >$CG/tr/y/io.ioband.limits
cg_run tr/y fio --name=y --filename=/dev/mapper/ioband1 --direct=1 \
	--rw=randread --bs=4k --iodepth=32 --ioengine=libaio --runtime=4 \
	--time_based --output=/tmp/y.out &
fpid=$!
sleep 2
park tr/y
q=$(queued "$id")
rmdir $CG/tr/y
$DMSETUP table ioband1 >/tmp/t1
check "reload the table while the removed /tr/y holds $q bios" \
	sh -c "$DMSETUP load ioband1 /tmp/t1 && $DMSETUP resume ioband1"
wait $fpid

# A removed cgroup's late bio: /tr/late's first read is submitted while
# the band device is suspended (dm defers it, with its blkg), /tr/late is
# removed, and the device resumed: the bio is mapped after its cgroup
# went offline, before any group was made for it.  It goes to /tr's
# group, the nearest live ancestor's: no group of the removed cgroup,
# weighed at its own weight and ceilings, takes it (review N8).
mkdir $CG/tr/late || exit 1
lid=$(stat -c %i $CG/tr/late)
$DMSETUP message ioband1 0 reset
check "suspend the band device" $DMSETUP suspend ioband1
cg_run tr/late dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=1 \
	iflag=direct 2>/dev/null &
dpid=$!
# dd's read, deferred by dm core: dd (the one process in /tr/late; $!
# is the subshell of cg_run) waits for it in state D; then /tr/late
# offline (its blkgs go after an RCU grace period and a work item: a
# second).
st=$(wait_for 10 1 in_d tr/late)
park tr/late
check "dd waits for its deferred read (state D: $st); /tr/late removed" \
	sh -c "[ $st = 1 ] && rmdir $CG/tr/late"
sleep 1
check "resume it" sh -c "$DMSETUP resume ioband1 || $DMSETUP resume ioband1"
for _ in $(seq 1 40); do kill -0 $dpid 2>/dev/null || break; sleep 0.25; done
kill $dpid 2>/dev/null
wait $dpid
rc=$?
check "the read of the removed /tr/late completed (dd exit $rc)" test $rc = 0
d=$(disp "$trid") dl=$(disp "$lid")
check "it went to /tr's group ($d dispatched), not to one of /tr/late (${dl:-no line})" \
	test "${d:-0}" = 1 -a "${dl:-0}" = 0
check "remove the band device" $DMSETUP remove ioband1
MADE_DM=()
cg_dying_gone tr 10
check "nr_dying_descendants of /tr back to 0 again ($(dying))" test "$(dying)" = 0

# Review N8: a removed cgroup's group never gets the lockless path.  On a
# device group of its own, /tr/s is all there is: its bios pass without
# the lock.  Its reader leaves and /tr/s is removed while its last read
# is in the device (1 s): that read's completion must not open an
# epoch for the offline group, which is freed once its blkg goes, a
# second later.  ioband_group_free() warns if an epoch is still the
# group's (and the guest's panic_on_warn fails the run): on the kernel
# whose ioband_solo_open() took offline groups it did.
slow=$(nullb_create slow size=16 completion_nsec=1000000000 hw_queue_depth=1) ||
	exit 1
check "create a second band device of type cgroup, device group 2" \
	dm_create ioband2 "0 $(sectors "$slow") ioband $slow 2 0 0 cgroup weight 0 :100"
mkdir $CG/tr/s || exit 1
cg_run tr/s dd if=/dev/mapper/ioband2 of=/dev/null bs=4k count=1 \
	iflag=direct 2>/dev/null
cg_run tr/s dd if=/dev/mapper/ioband2 of=/dev/null bs=4k count=1 skip=8 \
	iflag=direct 2>/dev/null &
spid=$!
st=$(wait_for 10 1 in_d tr/s)
park tr/s
check "dd waits for its read (state D: $st); /tr/s removed meanwhile" \
	sh -c "[ $st = 1 ] && rmdir $CG/tr/s"
wait $spid
rc=$?
check "the read of the removed /tr/s completed (dd exit $rc)" test $rc = 0
cg_dying_gone tr 10
check "/tr/s freed with its group ($(dying) dying)" test "$(dying)" = 0
finish
