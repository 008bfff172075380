#!/bin/bash
# Bios the block layer issues as root (REQ_META, REQ_SWAP) are charged
# but never held, and the bios a band group holds are bounded (max_held):
# past the bound the submitter waits; the bound is at least 1, and a
# killed submitter stops waiting (its bio is held past the bound).
. "$(dirname "$0")/../lib/guest.sh"
plan 15

# 4 KiB requests, so writeback makes one bio per page.
dev=$(nullb_create disk size=256 max_sectors=8) || exit 1
sz=$(sectors "$dev")
check "create a band device, default group capped at 200 IOPS" dm_create ioband1 \
	"0 $sz ioband $dev 1 0 0 none weight 0 :100,max=200iops"
bound=$(awk '{ print }' /sys/module/dm_ioband/parameters/max_held 2>/dev/null)
bound=${bound:-1024}
# A buffered writer: its flush hands over 16,384 bios at once.
dd if=/dev/zero of=/dev/mapper/ioband1 bs=1M count=64 status=none &
dd_pid=$!
maxq=0
for i in $(seq 1 40); do
	q=$(show_q ioband1 default)
	[ "${q:-0}" -gt "$maxq" ] && maxq=$q
	sleep 0.25
done
log "most bios held by the default group: $maxq (bound $bound)"
check "held bios never exceed the bound ($maxq <= $bound)" test "$maxq" -le "$bound"
check "the bound was reached: the writer was held back ($maxq)" \
	test "$maxq" -ge $((bound / 2))
$DMSETUP message ioband1 0 limits default none
wait $dd_pid
check "dd ended" test $? = 0
sync

# Metadata: ext4 on a band device capped at 20 IOPS; read the
# directory tree cold and trace the holds: none is REQ_META.
check "remove ioband1" $DMSETUP remove ioband1
MADE_DM=()
dev2=$(nullb_create meta size=64) || exit 1
sz=$(sectors "$dev2")
mkfs.ext4 -q -F "$dev2" || exit 1
mkdir -p /tmp/mnt && mount "$dev2" /tmp/mnt || exit 1
for d in $(seq 1 200); do mkdir -p "/tmp/mnt/d$d/e" && : >"/tmp/mnt/d$d/e/f"; done
umount /tmp/mnt
check "create a band device with a 20 IOPS ceiling" dm_create ioband2 \
	"0 $sz ioband $dev2 2 0 0 none weight 0 :100,max=20iops"
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
echo 0 >$T/tracing_on
: >$T/trace
check "the hold event is enabled" \
	sh -c "echo 1 >$T/events/dm_ioband/dm_ioband_hold/enable"
echo 1 >$T/tracing_on
t0=$(date +%s%N)
mount /dev/mapper/ioband2 /tmp/mnt || exit 1
ls -lR /tmp/mnt >/dev/null &
ls_pid=$!
sleep 3
reads=$($DMSETUP status ioband2 | awk '{ print $6 }')
t1=$(date +%s%N)
echo 0 >$T/tracing_on
wait $ls_pid
umount /tmp/mnt
holds=$(grep -c 'dm_ioband_hold' $T/trace)
# the bio's rwbs follows "group <id>"; M anywhere in it is REQ_META
# (readahead metadata is RAM, synchronous RSM)
meta=$(grep 'dm_ioband_hold' $T/trace | awk '{ for (i = 1; i < NF - 1; i++)
	if ($i == "group") { if ($(i + 2) ~ /M/) n++; break } } END { print n + 0 }')
echo 0 >$T/events/dm_ioband/dm_ioband_hold/enable
log "hold events: $holds, of REQ_META bios: $meta"
check "no REQ_META bio was held ($meta of $holds)" test "$meta" = 0
# More reads in the mount's and ls's first 3 s than the ceiling lets
# through in that time (20 a second, and one for the burst): the
# metadata went past it.  (The whole run is no measure: umount's writes
# wait at the ceiling.)
most=$(((t1 - t0) / 50000000 + 1))
check "the metadata reads went past the ceiling: $reads in $(((t1 - t0) / 1000000)) ms, more than the $most it lets through" \
	test "$reads" -gt "$most"

# max_held 0 would leave every submitter waiting for a release that never
# comes (nothing is held): refused, the bound unchanged.
P=/sys/module/dm_ioband/parameters/max_held
check "max_held 0 is refused" sh -c "! echo 0 2>/dev/null >$P"
check "max_held unchanged ($(cat $P))" test "$(cat $P)" = "$bound"

# A killed submitter does not wait for the ceiling: 8 writers of direct
# 4 KiB bios (one each in flight) on a group capped at 1 I/O per second,
# bound 2.  Waiting, at most 2 bios are held; once the writers are
# killed, the waiters' bios are held too, past the bound.
check "create a band device capped at 1 IOPS" dm_create ioband3 \
	"0 $sz ioband $dev 3 0 0 none weight 0 :100,max=1iops"
echo 2 >$P
pids=()
for i in $(seq 0 7); do
	dd if=/dev/zero of=/dev/mapper/ioband3 bs=4k count=100 seek=$((i * 100)) \
		oflag=direct status=none 2>/dev/null &
	pids+=($!)
done
sleep 2
before=$(show_q ioband3 default)
kill -9 "${pids[@]}"
after=0
for i in $(seq 1 10); do
	q=$(show_q ioband3 default)
	[ "${q:-0}" -gt "$after" ] && after=$q
	sleep 0.1
done
log "held with 8 writers waiting: $before; after they were killed: up to $after (bound 2)"
check "8 writers, bound 2: the bound holds ($before held)" test "${before:-9}" -le 2
check "killed writers stop waiting: their bios are held ($after > 2)" \
	test "$after" -gt 2
$DMSETUP message ioband3 0 limits default none
{ wait "${pids[@]}"; } 2>/dev/null
echo "$bound" >$P
check "remove ioband3" $DMSETUP remove ioband3
finish
