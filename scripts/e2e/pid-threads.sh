#!/bin/bash
# Group type pid classifies by process (thread group id): the threads of
# one process (fio --thread) and its io_uring workers land in the
# process's band group, not in the default group.
. "$(dirname "$0")/../lib/guest.sh"
plan 9

dev=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$dev")
check "create a pid band device" \
	dm_create ioband1 "0 $sz ioband $dev 1 0 0 pid weight 0 :100"

# fio_threads <engine>: fio with two job threads, started with a delay so
# that its pid can be attached before any I/O; prints the status deltas.
fio_threads() {
	local engine=$1 pid rc st
	$DMSETUP message ioband1 0 reset
	fio --thread --numjobs=2 --name=t --filename=/dev/mapper/ioband1 \
		--direct=1 --rw=randread --bs=4k --iodepth=4 \
		--ioengine="$engine" --size=4M --startdelay=3 \
		--output=/tmp/fio-$engine.out &
	pid=$!
	sleep 1
	check "$engine: attach the fio process $pid" \
		$DMSETUP message ioband1 0 attach "$pid"
	wait "$pid"
	rc=$?
	check "$engine: fio ran (exit $rc)" test "$rc" = 0
	st=$($DMSETUP status ioband1)
	log "$engine status: $st"
	# "<dg> -1 <6 default counters> <pid> <6 counters>"
	check "$engine: the process's group got the reads" \
		test "$(echo "$st" | awk -v p="$pid" '$12 == p { print $13 }')" -ge 2048
	check "$engine: the default group got none" \
		test "$(echo "$st" | awk '{ print $6 }')" = 0
	$DMSETUP message ioband1 0 detach "$pid"
}
fio_threads psync
fio_threads io_uring
finish
