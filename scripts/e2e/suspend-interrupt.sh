#!/bin/bash
# An interrupted suspend, and suspend against messages.
#  - A suspend interrupted while it waits for a slow device below
#    (dm_wait_for_completion is interruptible) is undone: scheduling goes
#    on afterwards (bios are held and counted again), it is not left
#    passing everything through.
#  - detach/attach/weight/limits messages racing suspend/resume loops under
#    load: nothing stays held in a suspended device (the target warns in
#    postsuspend, and the kernel runs with panic_on_warn), no bio is lost.
. "$(dirname "$0")/../lib/guest.sh"
plan 13

# A slow device: one tag, 0.5 s per I/O.
slow=$(nullb_create slow size=16 hw_queue_depth=1 completion_nsec=500000000) ||
	exit 1
sz=$(sectors "$slow")
check "create a band device on the slow disk" \
	dm_create slowband "0 $sz ioband $slow 5 0 1 none weight 0 :100"
fio --name=s --filename=/dev/mapper/slowband --direct=1 --rw=randread \
	--bs=4k --iodepth=8 --ioengine=libaio --runtime=6 --time_based \
	--output=/tmp/slow.out &
fio_pid=$!
sleep 3
timeout -s INT 1 $DMSETUP suspend slowband
rc=$?
# 124: timeout's own exit when its SIGINT ended the command (not a refused
# suspend, EINVAL or the like, which exits 1).
check "the suspend was interrupted (exit $rc)" test "$rc" = 124
check "the device is live, not suspended" sh -c \
	"$DMSETUP info slowband | grep -q 'State: *ACTIVE'"
wait $fio_pid
check "fio on the slow device ended cleanly" test $? = 0
# A new load after the interrupted suspend: it must be scheduled (held at
# the in-flight limit), not passed straight through.
$DMSETUP message slowband 0 reset
fio --name=s2 --filename=/dev/mapper/slowband --direct=1 --rw=randread \
	--bs=4k --iodepth=8 --ioengine=libaio --number_ios=12 \
	--output=/tmp/slow2.out
h=$($DMSETUP status slowband | awk '{ print $7 }')
log "held reads of a new load after the interrupted suspend: $h"
check "bios are held again after the interrupted suspend ($h)" \
	test "${h:-0}" -gt 0
check "remove the slow band device" $DMSETUP remove slowband
MADE_DM=()

# Messages against suspend/resume under a verify load.
disk=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$disk")
check "create a uid band device, io_limit 2" dm_create ioband1 \
	"0 $sz ioband $disk 6 0 2 uid weight 0 :100 0:50"
check "default group ceiling" $DMSETUP message ioband1 0 limits default max=200iops
fio --name=v --filename=/dev/mapper/ioband1 --direct=1 --rw=randwrite \
	--bs=4k --iodepth=64 --ioengine=libaio --size=16M --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --output=/tmp/verify.out &
fio_pid=$!
# The messages that succeeded, counted: nothing refuses them (a message
# waits for a suspend or resume in progress), and a stress whose messages
# all fail would test nothing.
(
	ok=0
	for i in $(seq 1 25); do
		$DMSETUP message ioband1 0 detach 0 && ok=$((ok + 1))
		$DMSETUP message ioband1 0 attach 0 && ok=$((ok + 1))
		$DMSETUP message ioband1 0 weight 0:$((i % 7 + 1)) && ok=$((ok + 1))
		$DMSETUP message ioband1 0 limits 0 max=$((100 + i))iops &&
			ok=$((ok + 1))
	done 2>/dev/null
	echo "$ok" >/tmp/msg-ok
) &
msg_pid=$!
n=0
start=$(date +%s%N)
while kill -0 "$msg_pid" 2>/dev/null; do
	$DMSETUP suspend ioband1 || break
	$DMSETUP resume ioband1 || break
	n=$((n + 1))
done
wait "$msg_pid"
t=$(($(date +%s%N) - start))
msg_ok=$(cat /tmp/msg-ok)
log "$n suspend/resume rounds and $msg_ok of 100 messages in $((t / 1000000)) ms ($(awk -v n="$n" -v t="$t" 'BEGIN { printf "%.1f", t ? n * 1e9 / t : 0 }') rounds per second)"
check "suspend/resume rounds against the messages ($n)" test "$n" -gt 0
check "the messages succeeded ($msg_ok of 100)" test "$msg_ok" = 100
check "the device is live" sh -c "$DMSETUP info ioband1 | grep -q 'State: *ACTIVE'"
$DMSETUP message ioband1 0 limits default none
$DMSETUP message ioband1 0 limits 0 none
wait $fio_pid
rc=$?
check "fio wrote and verified every block (exit $rc)" test "$rc" = 0
check "remove the band device" $DMSETUP remove ioband1
MADE_DM=()
finish
