#!/bin/bash
# A ceiling holds whatever io_throttle is.  With io_throttle 8 and the
# default group capped at 50 IOPS, a reader at depth 4 (always below
# io_throttle) must still be held to its ceiling: the status shows held
# reads, and it completes no more I/Os than the ceiling allows over the
# run (plus one period's burst).
. "$(dirname "$0")/../lib/guest.sh"
plan 5

dev=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$dev")
check "create: io_throttle 8, default group max=50iops" \
	dm_create ioband1 "0 $sz ioband $dev 1 8 0 none weight 0 :100,max=50iops"
check "table keeps the ceiling" sh -c \
	"$DMSETUP table ioband1 | grep -q ' :100,max=50iops'"

fio --name=r --filename=/dev/mapper/ioband1 --direct=1 --rw=randread \
	--bs=4k --iodepth=4 --ioengine=libaio --runtime=4 --time_based \
	--output-format=terse --terse-version=3 >/tmp/ceil.terse
rc=$?
check "fio ran (exit $rc)" test "$rc" = 0
st=$($DMSETUP status ioband1)
reads=$(echo "$st" | awk '{ print $6 }')
held=$(echo "$st" | awk '{ print $7 }')
log "status: $st"
# 4 s at 50 IOPS is 200 I/Os; allow the burst of one period and fio's
# ramp: at most 260.  With no ceiling this device serves about 8,000.
check "reads within the ceiling ($reads I/Os in 4 s, max 260)" \
	test "${reads:-99999}" -le 260
check "reads were held to the ceiling ($held held)" test "${held:-0}" -gt 0
finish
