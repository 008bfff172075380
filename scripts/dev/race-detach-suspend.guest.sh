#!/bin/bash
# Finding 3 made deterministic: the kernel under test sleeps 300 ms inside
# detach, between taking the group out of the xarray and moving its held
# bios (a temporary instrumentation patch); a suspend is started in that
# window.  Without the fix, presuspend misses the group, its bios are then
# held again in the suspending device and postsuspend warns.
. "$(dirname "$0")/../lib/guest.sh"
disk=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$disk")
dm_create ioband1 "0 $sz ioband $disk 6 0 2 uid weight 0 :100 0:50" || exit 1
$DMSETUP message ioband1 0 limits 0 max=50iops
$DMSETUP message ioband1 0 limits default max=5iops
fio --name=v --filename=/dev/mapper/ioband1 --direct=1 --rw=randread \
	--bs=4k --iodepth=64 --ioengine=libaio --runtime=8 --time_based \
	--output=/tmp/race.out &
sleep 2
$DMSETUP message ioband1 0 show | head -3
$DMSETUP message ioband1 0 detach 0 &
sleep 0.1
t0=$(date +%s.%N)
$DMSETUP suspend ioband1 &
sp=$!
sleep 1
h=$($DMSETUP message ioband1 0 show | head -1 | tr ' ' '\n' | sed -n 's/^held=//p')
log "held 1 s into the suspend: $h"
wait $sp
t1=$(date +%s.%N)
log "suspend took $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }') s"
check "nothing held while the device suspends ($h)" test "$h" = 0
check "suspended" sh -c "$DMSETUP info ioband1 | grep -q SUSPENDED"
$DMSETUP resume ioband1
wait
finish
