#!/bin/bash
# Messages (detach, attach, weight, limits) racing suspend/resume, as fast
# as ioctls go (scripts/qemu/tools/iobstress.c), on two band devices of one
# device group, under fio verify with bios held: no bio lost or corrupted,
# no hang, no warning (postsuspend warns if a suspended device still holds
# a bio), and the device schedules again afterwards.  Each stress process
# prints its rounds per second and how many of each operation succeeded,
# and fails below 90 % (one process per operation and device, nothing
# refuses them: 100 % in UML and under QEMU), so a stress whose ioctls all
# fail does not pass.  UML has one CPU; the same test runs on SMP under
# QEMU.
. "$(dirname "$0")/../lib/guest.sh"
plan 12

secs=${STRESS_SECONDS:-12}
bin=$(command -v iobstress) || {
	bin=/tmp/iobstress
	gcc -O2 -o "$bin" "$GTOP/scripts/qemu/tools/iobstress.c" || exit 1
}
disk=$(nullb_create disk size=128) || exit 1
dm_linear_slices "$disk" 2 part || exit 1
sz=$(sectors /dev/mapper/part1)
for i in 1 2; do
	check "create ioband$i (uid groups 0)" dm_create "ioband$i" \
		"0 $sz ioband /dev/mapper/part$i 8 0 4 uid weight 0 :100 0:50"
	check "ceiling on ioband$i's default group" \
		$DMSETUP message "ioband$i" 0 limits default max=300iops
done
fio --ioengine=libaio --direct=1 --bs=4k --iodepth=64 --rw=randwrite \
	--size=16M --verify=crc32c --verify_fatal=1 --do_verify=1 \
	--time_based --runtime="$secs" --verify_backlog=256 \
	--output=/tmp/stress-fio.out \
	--name=a --filename=/dev/mapper/ioband1 \
	--name=b --filename=/dev/mapper/ioband2 &
fio_pid=$!
sleep 2
pids=()
"$bin" msg ioband1 "$secs" 0 90 & pids+=($!)
"$bin" msg ioband2 "$secs" 0 90 & pids+=($!)
"$bin" suspend ioband1 "$secs" 90 & pids+=($!)
"$bin" suspend ioband2 "$secs" 90 & pids+=($!)
for p in "${pids[@]}"; do
	wait "$p"
	check "stress process $p: rounds, each operation 90 % successful" \
		test $? = 0
done
wait $fio_pid
rc=$?
grep -E 'err=|verify' /tmp/stress-fio.out | head -5
check "fio wrote and verified every block (exit $rc)" test "$rc" = 0
for i in 1 2; do
	check "ioband$i is live" sh -c "$DMSETUP info ioband$i | grep -q 'State: *ACTIVE'"
	$DMSETUP message "ioband$i" 0 attach 0 2>/dev/null
	$DMSETUP message "ioband$i" 0 limits default none
	$DMSETUP message "ioband$i" 0 limits 0 none
done
# Scheduling goes on: two groups compete again and bios are held.
$DMSETUP message ioband1 0 reset
$DMSETUP message ioband1 0 io_limit 2
fio --ioengine=libaio --direct=1 --bs=4k --iodepth=32 --rw=randread \
	--number_ios=2000 --output=/tmp/stress-after.out \
	--name=a --filename=/dev/mapper/ioband1
h=$($DMSETUP status ioband1 | awk '{ print $7 + $14 }')
check "bios are held again after the stress ($h)" test "${h:-0}" -gt 0
finish
