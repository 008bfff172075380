#!/bin/bash
# A band device over a null_blk: create it with dmsetup, check its table
# round-trips, write and read it back with fio verify=crc32c, remove it.
. "$(dirname "$0")/../lib/guest.sh"

dev=$(nullb_create disk size=128) || exit 1
sz=$(sectors "$dev")
table="0 $sz ioband $dev 1 0 0 none weight 0 :100"
check "dmsetup create ioband1" $DMSETUP create ioband1 --table "$table"
devno=$(cat "/sys/block/${dev#/dev/}/dev")
check "table round-trips" test "$($DMSETUP table ioband1)" = \
	"0 $sz ioband $devno 1 0 0 none weight 0 :100"
check "block device" test -b /dev/mapper/ioband1
check "status" test -n "$($DMSETUP status ioband1)"

check "fio write+verify crc32c" fio --name=verify --filename=/dev/mapper/ioband1 \
	--direct=1 --ioengine=libaio --iodepth=16 --rw=randwrite --bs=4k \
	--size=32M --verify=crc32c --verify_fatal=1 --do_verify=1 \
	--output=/tmp/fio.out
grep -E 'err=|IOPS' /tmp/fio.out

check "dmsetup remove" $DMSETUP remove ioband1
check "device gone" test ! -e /dev/mapper/ioband1
finish
