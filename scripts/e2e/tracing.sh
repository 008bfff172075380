#!/bin/bash
# Tracepoints and blktrace messages: during a fio run on two band devices
# of one device group, the dm_ioband hold/dispatch/complete events match
# the status counters, and blkparse shows dm-ioband's hold and issue
# messages on the device below next to the block layer's own events.
. "$(dirname "$0")/../lib/guest.sh"
plan 14

T=/sys/kernel/tracing
disk=$(nullb_create disk size=256 memory_backed=0) || exit 1
dm_linear_slices "$disk" 2 part || exit 1
for i in 1 2; do
	dm_create "ioband$i" "0 $(sectors /dev/mapper/part$i) ioband /dev/mapper/part$i 1 0 0 none weight 0 :$((i * 30))" ||
		exit 1
done
check "tracepoints exist" test -d $T/events/dm_ioband/dm_ioband_hold

echo 16384 >$T/buffer_size_kb
echo >$T/trace
for e in hold dispatch complete period; do
	echo 1 >$T/events/dm_ioband/dm_ioband_$e/enable
done
for i in 1 2; do $DMSETUP message ioband$i 0 reset; done

# blktrace on the devices below the band devices, in the background.
mkdir -p /tmp/bt
(cd /tmp/bt && exec blktrace -d /dev/mapper/part1 -d /dev/mapper/part2) &
bt_pid=$!
sleep 1

fio --output=/tmp/fio.out --ioengine=libaio --direct=1 --bs=4k \
	--iodepth=32 --rw=randrw --runtime=4 --time_based \
	--name=a --filename=/dev/mapper/ioband1 \
	--name=b --filename=/dev/mapper/ioband2 >/dev/null
check "fio ran" test $? = 0
for e in hold dispatch complete period; do
	echo 0 >$T/events/dm_ioband/dm_ioband_$e/enable
done
kill -INT $bt_pid
wait $bt_pid

count() { grep -c " $1: " $T/trace; }
holds=$(count dm_ioband_hold)
dispatches=$(count dm_ioband_dispatch)
completes=$(count dm_ioband_complete)
periods=$(count dm_ioband_period)
# status: read ios $6, held reads $7, write ios $9, held writes $10
ios=0
held=0
for i in 1 2; do
	set -- $($DMSETUP status ioband$i)
	ios=$((ios + $6 + $9))
	held=$((held + $7 + ${10}))
done
log "# trace: $holds holds, $dispatches dispatches, $completes completions, $periods periods"
log "# status: $ios bios, $held held"
for i in 1 2; do log "# $($DMSETUP status ioband$i)"; done
check "trace buffer did not overflow" sh -c "! grep -q 'LOST' $T/trace"
check "hold events = held bios in status ($holds = $held)" test "$holds" = "$held"
check "dispatch events = bios in status ($dispatches = $ios)" test "$dispatches" = "$ios"
check "completion events = dispatches" test "$completes" = "$dispatches"
check "bios were held" test "$held" -gt 0
check "period events" test "$periods" -gt 0
# what the estimator knows (a level once measured) and does (a probe
# from cold within the run)
check "period events carry the estimator's level, noise and phase" sh -c \
	"grep -qE ' dm_ioband_period: .* level [1-9][0-9]* noise [0-9]+ phase (cruise|settle|confirm|raise|cut)\$' $T/trace &&
	 grep -qE ' dm_ioband_period: .* phase (raise|cut)\$' $T/trace"
# a probe's period comes after the settle period of its change, or after
# one of the same probe (the cold raise's second look; a wait below that
# lowered the capacity in a cut's period), never straight from cruising
phases=$(sed -n 's/.* dm_ioband_period: .* phase \([a-z]*\)$/\1/p' $T/trace |
	awk '($1 == "raise" || $1 == "cut") && prev != "settle" &&
	     prev != $1 { bad++ } { prev = $1 }
	     END { print bad + 0 }')
check "a probe's period follows its settle period ($phases do not)" test "$phases" = 0
grep -m1 " dm_ioband_hold: " $T/trace
grep -m1 " dm_ioband_period: " $T/trace

# Debian 12's blkparse (1.2.0) drops every note message of a kernel built
# with CONFIG_BLK_CGROUP (they carry a cgroup id it does not know):
# scripts/blkparse-notes.py reads them; use blkparse where it shows them.
python3 "$GTOP/scripts/blkparse-notes.py" /tmp/bt/dm-0.blktrace.* \
	/tmp/bt/dm-1.blktrace.* >/tmp/bt/parsed
if blkparse -i /tmp/bt/dm-0 2>/dev/null | grep -q "ioband 1 hold"; then
	log "# (this blkparse shows the messages too)"
fi
check "the trace shows the hold messages" grep -q "ioband 1 hold" /tmp/bt/parsed
check "the trace shows the issue messages" grep -q "ioband 1 issue" /tmp/bt/parsed
# Each issue message says how long its bio was held: a number of
# microseconds, some above 0 (bios were held), none longer than the 4 s
# fio ran.
held_us=$(grep -o "ioband 1 issue [0-9-]* held [0-9]* us" /tmp/bt/parsed |
	awk '{ n++; if ($6 > m) m = $6 } END { printf "%d %d", n, m }')
set -- $held_us
check "the issue messages carry the time held ($1 of them, the longest $2 us; at most 4 s)" \
	test "${1:-0}" -gt 0 -a "${2:-0}" -gt 0 -a "${2:-0}" -le 4000000
check "next to the block layer's events" grep -q -E "  [QC] +[RW]" /tmp/bt/parsed
grep -m1 -B2 -A3 "ioband 1 issue" /tmp/bt/parsed
finish
