#!/bin/bash
# dm-stats' internal suspend (dmsetup message ... @stats_create) does not
# wait for the bios a band device holds: they are let go as at a suspend,
# and held again once the region is made.  A group capped at 10 IOPS holds
# about 64 bios, which its ceiling would take seconds to let go; the
# message must return in well under that time (a quarter of it), the
# region must exist, and the group must hold bios again afterwards.
. "$(dirname "$0")/../lib/guest.sh"
plan 7

dev=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$dev")
check "create a band device, default group capped at 10 IOPS" dm_create ioband1 \
	"0 $sz ioband $dev 1 0 0 none weight 0 :100,max=10iops"
# wait_held: up to 10 s for the default group to hold 48 bios; prints
# what it holds.
wait_held() { wait_for 10 48 show_q ioband1 default; }
fio --name=r --filename=/dev/mapper/ioband1 --direct=1 --rw=randread \
	--bs=4k --iodepth=64 --ioengine=libaio --runtime=60 --time_based \
	>/dev/null 2>&1 &
fio_pid=$!
h=$(wait_held)
check "the capped group holds bios ($h)" test "$h" -ge 48
# At 10 IOPS the ceiling lets h bios go in h / 10 s.
t0=$(date +%s%N)
$DMSETUP message ioband1 0 @stats_create - /1 >/tmp/stats-id 2>&1
rc=$?
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
drain_ms=$(( h * 100 ))
log "@stats_create took $ms ms with $h bios held ($drain_ms ms at the ceiling)"
check "@stats_create succeeded (exit $rc)" test "$rc" = 0
check "@stats_create did not wait for the held bios ($ms ms < $drain_ms / 4 ms)" \
	test "$ms" -lt $((drain_ms / 4))
check "the region exists" sh -c "$DMSETUP message ioband1 0 @stats_list | grep -q ."
h2=$(wait_held)
check "the group holds bios again after the message ($h2)" test "$h2" -ge 48
kill $fio_pid 2>/dev/null
wait $fio_pid 2>/dev/null
$DMSETUP message ioband1 0 @stats_delete 0 >/dev/null 2>&1
reads=$($DMSETUP status ioband1 | awk '{ print $6 }')
check "status still reads (reads $reads)" is_number "${reads:-x}"
finish
