#!/bin/bash
# Discards are counted in status, charged and held to ceilings like any
# write, at most 1 MiB each under a KB/s ceiling; empty flushes still
# pass straight through.
. "$(dirname "$0")/../lib/guest.sh"
plan 11

dev=$(nullb_create disk size=64 discard=1) || exit 1
sz=$(sectors "$dev")
check "the disk takes discards" \
	test "$(cat /sys/block/"${dev#/dev/}"/queue/discard_max_bytes)" -gt 0
check "create a band device with a 100 IOPS ceiling" dm_create ioband1 \
	"0 $sz ioband $dev 1 0 0 none weight 0 :100,max=100iops"
check "it takes discards" \
	test "$(cat /sys/block/"$($DMSETUP info -c -o blkdevname --noheadings ioband1)"/queue/discard_max_bytes)" -gt 0
# 64 discards of 64 KiB from 4 jobs, more than one period's burst of the
# ceiling.
t0=$(date +%s%N)
fio --name=t --filename=/dev/mapper/ioband1 --rw=randtrim --bs=64k \
	--size=4M --numjobs=4 --ioengine=sync --output=/tmp/trim.out
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check "fio sent the discards (exit $rc)" test "$rc" = 0
st=$($DMSETUP status ioband1)
log "status: $st"
check "the discards are counted as writes ($(echo "$st" | awk '{ print $9 }'))" \
	test "$(echo "$st" | awk '{ print $9 }')" -ge 256
check "and as 64 KiB each ($(echo "$st" | awk '{ print $11 }') sectors)" \
	test "$(echo "$st" | awk '{ print $11 }')" -ge 32768
check "some were held to the ceiling ($(echo "$st" | awk '{ print $10 }'))" \
	test "$(echo "$st" | awk '{ print $10 }')" -gt 0
# At the ceiling's rate: 256 discards at 100 IOPS take 2.56 s; allow a
# tenth for the burst of one period and fio's start (no ceiling: 0.1 s).
n=$(echo "$st" | awk '{ print $9 }')
check "at most 110 discards a second ($n in $ms ms)" \
	test "$((n * 1000))" -le "$((110 * ms))"
# Under a KB/s ceiling a discard is charged its size, at most 1 MiB: 12
# discards of 4 MiB, 4 at a time, at 4,096 KB/s go at 4 a second after
# the first (at 1 a second if charged 4 MiB, all at once if not charged).
$DMSETUP message ioband1 0 limits default max=4096kbps
$DMSETUP message ioband1 0 reset
fio --name=big --filename=/dev/mapper/ioband1 --rw=trim --bs=4m --direct=1 \
	--size=48M --ioengine=libaio --iodepth=4 --output-format=json \
	--output=/tmp/trim4m.json
# fio's own time for the job (its start, slow in UML and QEMU, left out)
ms=$(python3 -c 'import json
print(json.load(open("/tmp/trim4m.json"))["jobs"][0]["trim"]["runtime"])' 2>/dev/null)
ms=${ms:-0}
st=$($DMSETUP status ioband1)
n=$(echo "$st" | awk '{ print $9 }')
log "status after the 4 MiB discards: $st"
check "12 discards of 4 MiB counted as 12 writes of 8,192 sectors ($n, $(echo "$st" | awk '{ print $11 }') sectors)" \
	test "$n" = 12 -a "$(echo "$st" | awk '{ print $11 }')" = 98304
check "charged 1 MiB each at 4,096 KB/s: 2 to 4.4 a second after the first (${n:-0} in $ms ms)" \
	sh -c "[ $(((${n:-1} - 1) * 1000)) -le $((44 * ms / 10)) ] && [ $(((${n:-1} - 1) * 1000)) -ge $((2 * ms)) ]"
$DMSETUP message ioband1 0 limits default none
check "a flush passes" sh -c "sync /dev/mapper/ioband1 && blockdev --flushbufs /dev/mapper/ioband1"
finish
