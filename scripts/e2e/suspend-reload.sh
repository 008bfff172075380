#!/bin/bash
# Suspend, resume, table reload and message changes while bios are held
# under a fio verify load on two band devices of one device group: no bio
# is lost, none hangs, and the data read back is what was written.
. "$(dirname "$0")/../lib/guest.sh"
plan 25

disk=$(nullb_create disk size=128) || exit 1
dm_linear_slices "$disk" 2 part || exit 1
sz=$(sectors /dev/mapper/part1)
for i in 1 2; do
	$DMSETUP create "ioband$i" --table \
		"0 $sz ioband /dev/mapper/part$i 3 0 0 none weight 0 :$((i * 30))" ||
		exit 1
done

# Writes with verify (crc32c in every block), then the read-back pass.
fio --output=/tmp/fio.out --ioengine=libaio --direct=1 --bs=4k \
	--iodepth=32 --rw=randwrite --size=24M --verify=crc32c \
	--verify_fatal=1 --do_verify=1 \
	--name=a --filename=/dev/mapper/ioband1 \
	--name=b --filename=/dev/mapper/ioband2 &
fio_pid=$!
sleep 3

held_seen=0
for round in 1 2 3 4 5 6; do
	h=$($DMSETUP message ioband1 0 show | sed -n 's/.*held=\([0-9]*\).*/\1/p')
	[ "${h:-0}" -gt 0 ] && held_seen=1
	case $round in
	1 | 4)	# suspend with bios held, then resume
		check "suspend ioband1 (round $round, $h held)" $DMSETUP suspend ioband1
		sleep 0.5
		check "resume ioband1" $DMSETUP resume ioband1 ;;
	2 | 5)	# reload with other weights and policy
		check "load a new table into ioband2" $DMSETUP load ioband2 --table \
			"0 $sz ioband /dev/mapper/part2 3 0 0 none weight-iosize 0 :$((round * 10))"
		check "resume ioband2 with it" $DMSETUP resume ioband2
		check "new table live" sh -c \
			"$DMSETUP table ioband2 | grep -q 'weight-iosize 0 :$((round * 10))'" ;;
	3 | 6)	# messages under load
		check "weight message under load" $DMSETUP message ioband1 0 weight 90
		check "io_limit message under load" $DMSETUP message ioband2 0 io_limit 4
		check "policy message under load" $DMSETUP message ioband2 0 policy weight
		$DMSETUP message ioband2 0 io_limit 0 ;;
	esac
	sleep 1
done
check "bios were held while we suspended and reloaded" test "$held_seen" = 1

wait $fio_pid
rc=$?
grep -E 'err=|verify' /tmp/fio.out | head -5
check "fio wrote and verified every block (exit $rc)" test "$rc" = 0
check "no verify errors" sh -c "! grep -q 'verify: bad' /tmp/fio.out"
for i in 1 2; do
	check "remove ioband$i" $DMSETUP remove "ioband$i"
done

# A suspend never waits on a held bio (it lets them go at once): 32 reads
# held at a ceiling of 1 IOPS, which would take 32 s to let go at that
# rate; the suspend must return in an eighth of that.
check "create ioband3 with a ceiling of 1 IOPS" dm_create ioband3 \
	"0 $sz ioband /dev/mapper/part1 4 0 0 none weight 0 :100,max=1iops"
fio --output=/tmp/fio3.out --ioengine=libaio --direct=1 --bs=4k \
	--iodepth=32 --rw=randread --number_ios=40 \
	--name=c --filename=/dev/mapper/ioband3 &
fio_pid=$!
sleep 2
h=$($DMSETUP message ioband3 0 show | sed -n 's/.*held=\([0-9]*\).*/\1/p')
# Held bios are in flight for the dm device (its inflight, %util and
# aqu-sz count from the map, as for dm-linear's), not only once dispatched.
inf=$(awk '{ print $1 }' "/sys/block/$($DMSETUP info -c -o blkdevname --noheadings ioband3)/inflight")
check "the dm device counts the $h held reads in flight ($inf)" \
	test "${inf:-0}" -ge "${h:-1}" -a "${h:-0}" -gt 0
t0=$(date +%s%N)
$DMSETUP suspend ioband3
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check "suspend with $h bios held at 1 IOPS returned in $ms ms (exit $rc; the ceiling would take ${h} s, 1/8: $((h * 125)) ms)" \
	test "$rc" = 0 -a "${h:-0}" -ge 16 -a "$ms" -lt $((h * 125))
$DMSETUP resume ioband3
kill $fio_pid 2>/dev/null
wait $fio_pid
check "remove ioband3" $DMSETUP remove ioband3
finish
