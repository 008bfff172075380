#!/bin/bash
# The lockless path: a band group that is all its device group schedules
# passes without the scheduler (show's in_flight, the scheduler's count,
# stays 0 while it does I/O, and status and show still count its bios);
# a second group hands the bios in flight back (the scheduler counts
# bios in flight again); a write workload verified by fio loses nothing
# while a second band device of the device group starts and stops
# (each start closes the lockless epoch with bios in flight, each stop
# lets it open again).
. "$(dirname "$0")/../lib/guest.sh"
plan 8

dev=$(nullb_create disk size=128) || exit 1
dm_linear_slices "$dev" 2 s || exit 1
sz=$(sectors /dev/mapper/s1)
check "create ioband1" dm_create ioband1 "0 $sz ioband /dev/mapper/s1 5 0 0 none weight 0 :100"
check "create ioband2" dm_create ioband2 "0 $sz ioband /dev/mapper/s2 5 0 0 none weight 0 :100"
showv() { $DMSETUP message "$1" 0 show | head -1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
dispatched() { $DMSETUP message "$1" 0 show | sed -n 's/^group=default .* dispatched=\([0-9]*\) .*/\1/p'; }

# One group alone, 4 in flight (below the limit of 17 it starts with).
fio --name=a --filename=/dev/mapper/ioband1 --direct=1 --rw=randread \
	--bs=4k --iodepth=4 --ioengine=libaio --runtime=4 --time_based \
	--output=/tmp/solo-a.out &
pid=$!
sleep 1
zero=0 n=0
for _ in $(seq 1 10); do
	v=$(showv ioband1 in_flight)
	n=$((n + 1))
	[ "$v" = 0 ] && zero=$((zero + 1))
	sleep 0.2
done
wait $pid
rc=$?
check "fio alone (exit $rc)" test "$rc" = 0
reads=$($DMSETUP status ioband1 | awk '{ print $6 }')
check "a group alone passes without the scheduler: show's in_flight 0 in $zero of $n samples" \
	test "$zero" -ge $((n - 1))
d=$(dispatched ioband1)
check "status counts its bios ($reads) and show as dispatched ($d)" \
	sh -c "[ '$reads' -gt 1000 ] && [ '$d' -ge '$reads' ]"

# Two groups: the scheduler counts what is in flight.
# (fio starts its jobs one after the other, slowly under QEMU's TCG:
# sample once both have run for a while.)
fio --direct=1 --rw=randread --bs=4k --iodepth=32 --ioengine=libaio \
	--runtime=6 --time_based --output=/tmp/solo-b.out \
	--name=a --filename=/dev/mapper/ioband1 \
	--name=b --filename=/dev/mapper/ioband2 &
pid=$!
sleep 2
most=0
for _ in $(seq 1 15); do
	v=$(showv ioband1 in_flight)
	[ "$v" -gt "$most" ] && most=$v
	sleep 0.2
done
wait $pid
rc=$?
check "two groups (exit $rc): the scheduler sees bios in flight (up to $most)" \
	test "$rc" = 0 -a "$most" -gt 0

# Verified writes on ioband1 while ioband2 starts and stops three times;
# then fio is stopped (SIGINT: exit status 128, "err= 0" if nothing
# failed).  Counted in starts, not seconds: on a busy machine a start of
# fio takes seconds.
fio --name=v --filename=/dev/mapper/ioband1 --direct=1 --rw=randwrite \
	--bs=4k --iodepth=16 --ioengine=libaio --size=16M --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --verify_backlog=64 --time_based \
	--runtime=600 --output=/tmp/solo-v.out &
pid=$!
t=0
while kill -0 $pid 2>/dev/null && [ $t -lt 3 ]; do
	fio --name=b --filename=/dev/mapper/ioband2 --direct=1 --rw=randread \
		--bs=4k --iodepth=8 --ioengine=libaio --runtime=300ms \
		--time_based --output=/dev/null
	sleep 0.2
	t=$((t + 1))
done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
check "verified writes through $t starts and stops of a second group (exit $rc)" \
	test "$t" -ge 3 -a \( "$rc" = 0 -o "$rc" = 128 \) -a \
	"$(grep -c 'err= 0' /tmp/solo-v.out)" -ge 1
check "nothing held or in flight at the end ($(showv ioband1 held), $(showv ioband1 in_flight))" \
	test "$(showv ioband1 held):$(showv ioband1 in_flight)" = 0:0
finish
