#!/bin/bash
# Features of Documentation/dm-ioband.rst that no other test asserted
# (Documentation/testing.md, "Features and their tests"):
#   1. range-bw's 1.x table form and message, limits in tables and in the
#      limits message, min=/max= in iops and kbps, "weight :<share>",
#      every bad value of those messages and of io_throttle, token,
#      carryover, reset and show, type changes to every type;
#   2. pgrp, gid and uid classification (setsid, setpriv);
#   3. a fixed io_limit never exceeded, every tracepoint's fields and each
#      hold reason, io_throttle's pass-through and what it leaves held,
#      overcommitted floors in the kernel log, a floor in KB/s met, the
#      automatic io_limit's range;
#   4. detach with held bios, dmsetup remove --force and --deferred with
#      held bios, removal of an attached cgroup with bios held (and its
#      band group found by path afterwards);
#   5. bios split at the device's largest request rounded up to a power
#      of two, swap writes never held, write-zeroes scheduled, counted
#      and held to a ceiling, empty flushes passed straight through.
# 73 to 89 s under scripts/uml-run.sh (debug kernel, boot included).
. "$(dirname "$0")/../lib/guest.sh"
plan 126

T=/sys/kernel/tracing
dev=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$dev")

# --- 1. tables and messages -------------------------------------------
table() { $DMSETUP table "$1" | cut -d' ' -f5-; }
# ok_msg <device> <table> <message...>
ok_msg() {
	local d=$1 want=$2 rc
	shift 2
	$DMSETUP message "$d" 0 "$@"
	rc=$?
	check "message '$*' accepted (exit $rc) -> table '$want'" \
		test "$rc:$(table "$d")" = "0:$want"
}
# bad_msg <device> <message...>: refused, table unchanged.
bad_msg() {
	local d=$1 before
	shift
	before=$(table "$d")
	if $DMSETUP message "$d" 0 "$@" 2>/dev/null; then
		check "message '$*' refused" false
	else
		check "message '$*' refused, table unchanged" test "$(table "$d")" = "$before"
	fi
}
refused() {
	local why=$1
	shift
	table_refused "$why" "0 $sz ioband $dev $*"
}

r="1 0 0 uid range-bw 0 :0:0 1000:1024:8192 1001:0:2048"
check "create with range-bw's 1.x table form ($r)" dm_create ioband1 "0 $sz ioband $dev $r"
check "the table prints the 1.x form as given" test "$(table ioband1)" = "$r"
ok_msg ioband1 "1 0 0 uid range-bw 0 :0:0 1000:512:4096 1001:0:2048" range-bw 1000:512:4096
ok_msg ioband1 "1 0 0 uid range-bw 0 :0:1024 1000:512:4096 1001:0:2048" range-bw :0:1024
ok_msg ioband1 "1 0 0 uid weight 0 :100,max=1024kbps 1000:100,min=512kbps,max=4096kbps 1001:100,max=2048kbps" policy weight
ok_msg ioband1 "1 0 0 uid range-bw 0 :0:1024 1000:512:4096 1001:0:2048" policy range-bw
# weight and range-bw are one message: either takes a weight or the 1.x
# range; message names are case-insensitive, their arguments are not
# (as the rst says).
ok_msg ioband1 "1 0 0 uid range-bw 0 :0:1024 1000:50,min=512kbps,max=4096kbps 1001:0:2048" range-bw 1000:50
ok_msg ioband1 "1 0 0 uid range-bw 0 :0:1024 1000:512:4096 1001:0:2048" WEIGHT 1000:100
bad_msg ioband1 policy WEIGHT
bad_msg ioband1 range-bw 1000:4096:512
bad_msg ioband1 range-bw 1005:0:64
bad_msg ioband1 range-bw 1000:1:2:3
ok_msg ioband1 "1 0 0 uid range-bw 0 :0:1024 1000:100,min=10iops,max=50iops 1001:0:2048" limits 1000 min=10iops,max=50iops
ok_msg ioband1 "1 0 0 uid range-bw 0 :0:1024 1000:100:2000 1001:0:2048" limits 1000 min=100kbps,max=2000kbps
ok_msg ioband1 "1 0 0 uid range-bw 0 :100,max=100iops 1000:100:2000 1001:0:2048" limits default max=100iops
ok_msg ioband1 "1 0 0 uid range-bw 0 :100,max=100iops 1000:0:0 1001:0:2048" limits 1000 none
ok_msg ioband1 "1 0 0 uid range-bw 0 :60,max=500iops 1000:0:0 1001:0:2048" weight :60,max=500iops
ok_msg ioband1 "1 0 0 uid range-bw 0 :60,max=500iops 1000:30,min=5iops 1001:0:2048" weight 1000:30,min=5iops
ok_msg ioband1 "1 0 0 uid range-bw 0 :60,max=500iops 1000:40,min=5iops 1001:0:2048" weight 1000:40
bad_msg ioband1 limits 1000 max=10
bad_msg ioband1 limits 1000 min=30iops,max=20iops
bad_msg ioband1 limits 1000 min=0iops
bad_msg ioband1 limits 1000 max=10mbps
bad_msg ioband1 limits 1005 max=1iops
bad_msg ioband1 limits abc max=1iops
bad_msg ioband1 limits 1000
bad_msg ioband1 weight :0
bad_msg ioband1 io_throttle x
bad_msg ioband1 io_throttle 4097
bad_msg ioband1 token x
bad_msg ioband1 token -1
bad_msg ioband1 carryover x
bad_msg ioband1 reset now
bad_msg ioband1 show all
ok_msg ioband1 "1 0 0 uid range-bw 0 :60,max=500iops 1001:0:2048" detach 1000
ok_msg ioband1 "1 0 0 uid range-bw 0 :60,max=500iops" detach 1001
for ty in pgrp gid cgroup none uid; do
	ok_msg ioband1 "1 0 0 $ty range-bw 0 :60,max=500iops" type "$ty"
done
check "remove ioband1" $DMSETUP remove ioband1

t="2 4096 4096 uid weight 0 :100,max=2000iops 1000:40,min=100iops,max=8192kbps"
check "create with io_throttle and io_limit 4096 and limits in the table" \
	dm_create ioband1 "0 $sz ioband $dev $t"
check "the table prints the limits back" test "$(table ioband1)" = "$t"
check "remove it" $DMSETUP remove ioband1
refused "io_throttle 4097" 1 4097 0 none weight 0 :100
refused "a limit without a unit" 1 0 0 none weight 0 :100,max=10
refused "range form floor above ceiling" 1 0 0 uid range-bw 0 :0:0 1000:4096:512

# --- 2. pgrp, gid and uid classification --------------------------------
check "create a pgrp band device" dm_create ioband2 "0 $sz ioband $dev 3 0 0 pgrp weight 0 :100"
# counters <device> <group-id>: "<group's reads> <default group's reads>"
counters() {
	$DMSETUP status "$1" | awk -v g="$2" '{ for (i = 5; i <= NF; i += 7)
		if ($i == g) r = $(i + 1); print r + 0, $6 }'
}
dd2() { dd if=/dev/mapper/ioband2 of=/dev/null bs=4k count=64 iflag=direct status=none; }
rm -f /tmp/pg /tmp/go
setsid -w sh -c 'echo $$ >/tmp/pg; while [ ! -e /tmp/go ]; do sleep 0.05; done
	exec dd if=/dev/mapper/ioband2 of=/dev/null bs=4k count=64 iflag=direct status=none' &
sp=$!
for _ in $(seq 1 100); do [ -s /tmp/pg ] && break; sleep 0.05; done
pg=$(cat /tmp/pg)
$DMSETUP message ioband2 0 attach "$pg"
$DMSETUP message ioband2 0 reset
touch /tmp/go
wait $sp
c=$(counters ioband2 "$pg")
check "pgrp: a dd in process group $pg (setsid) counts to its group, none to the default ($c)" \
	test "$c" = "64 0"
$DMSETUP message ioband2 0 detach "$pg"
ok_msg ioband2 "3 0 0 gid weight 0 :100" type gid
ok_msg ioband2 "3 0 0 gid weight 0 :100 4242:100" attach 4242
$DMSETUP message ioband2 0 reset
setpriv --regid 4242 --clear-groups dd if=/dev/mapper/ioband2 of=/dev/null \
	bs=4k count=64 iflag=direct status=none
c=$(counters ioband2 4242)
check "gid: a dd with gid 4242 (setpriv --regid) counts to group 4242, none to the default ($c)" \
	test "$c" = "64 0"
dd2
c=$(counters ioband2 4242)
check "gid: root's dd counts to the default group ($c)" test "$c" = "64 64"
$DMSETUP message ioband2 0 detach 4242
ok_msg ioband2 "3 0 0 uid weight 0 :100" type uid
$DMSETUP message ioband2 0 attach 4243
$DMSETUP message ioband2 0 reset
chmod 666 /dev/mapper/ioband2
setpriv --reuid 4243 --regid 4243 --clear-groups dd if=/dev/mapper/ioband2 \
	of=/dev/null bs=4k count=64 iflag=direct status=none
c=$(counters ioband2 4243)
check "uid: a dd as uid 4243 (setpriv --reuid) counts to group 4243, none to the default ($c)" \
	test "$c" = "64 0"
check "remove ioband2" $DMSETUP remove ioband2

# --- 3. a fixed io_limit, tracepoints, hold reasons, io_throttle --------
disk2=$(nullb_create disk2 size=128 memory_backed=0) || exit 1
dm_linear_slices "$disk2" 2 part || exit 1
dm_create ioband3 "0 $(sectors /dev/mapper/part1) ioband /dev/mapper/part1 5 0 4 none weight 0 :100" || exit 1
dm_create ioband4 "0 $(sectors /dev/mapper/part2) ioband /dev/mapper/part2 5 0 4 none weight 0 :100,max=50iops" || exit 1
devt3=$(tr : , <"/sys/block/$($DMSETUP info -c -o blkdevname --noheadings ioband3)/dev")
echo 16384 >$T/buffer_size_kb
echo >$T/trace
# The requests in flight on the disk below, from the block layer's own
# events of the first run: issued, completed or requeued, in the order of
# one clock for all CPUs ("global"), so that the count holds on SMP too.
# (/sys/block/<disk>/inflight, sampled, over-counts there: it walks the
# tags while requests come and go.)
clock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $T/trace_clock)
echo global >$T/trace_clock
for e in hold dispatch complete period; do echo 1 >$T/events/dm_ioband/dm_ioband_$e/enable; done
for e in block_rq_issue block_rq_complete block_rq_requeue; do echo 1 >$T/events/block/$e/enable; done
fio --output=/tmp/fio3.out --ioengine=libaio --direct=1 --bs=4k --iodepth=16 \
	--rw=randread --runtime=3 --time_based \
	--name=a --filename=/dev/mapper/ioband3 \
	--name=b --filename=/dev/mapper/ioband4 >/dev/null
check "fio on two band devices of device group 5 ran" test $? = 0
for e in block_rq_issue block_rq_complete block_rq_requeue; do echo 0 >$T/events/block/$e/enable; done
cp $T/trace /tmp/trace1
echo "${clock:-local}" >$T/trace_clock
# max_in_flight <trace> <maj,min>: the most requests in flight on it.
max_in_flight() {
	awk -v d="$2" '$0 ~ " block_rq_(issue|complete|requeue): " d " " {
		if ($0 ~ /block_rq_issue/) n++; else if (n > 0) n--
		if (n > m) m = n; c++ }
		END { print m + 0, c + 0 }' "$1"
}
read -r maxin n < <(max_in_flight /tmp/trace1 "$(tr : , <"/sys/block/${disk2#/dev/}/dev")")
echo >$T/trace
# Order: an automatic limit, a synchronous reader at weight 100 against a
# deep reader at weight 10: the reader's group is anticipated and ahead.
$DMSETUP message ioband3 0 io_limit 0
$DMSETUP message ioband4 0 limits default none
$DMSETUP message ioband4 0 weight 10
fio --output=/tmp/fio3b.out --direct=1 --bs=4k --rw=randread --runtime=2 \
	--time_based --name=a --ioengine=psync --filename=/dev/mapper/ioband3 \
	--name=b --ioengine=libaio --iodepth=8 --filename=/dev/mapper/ioband4 >/dev/null
check "a second fio, sync reader against a deep one, ran" test $? = 0
for e in hold dispatch complete period; do echo 0 >$T/events/dm_ioband/dm_ioband_$e/enable; done
cp $T/trace /tmp/trace2
$DMSETUP message ioband3 0 io_limit 4
$DMSETUP message ioband4 0 limits default max=50iops
log "# disk in flight: at most $maxin over $n block layer events"
check "io_limit 4: the disk below never had more than 4 in flight ($maxin over $n block layer events)" \
	test "$maxin" -le 4 -a "$n" -gt 100
check "... and reached it ($maxin)" test "$maxin" = 4
grep ' dm_ioband_hold: ' /tmp/trace1 >/tmp/holds
maxtr=$(sed -n 's/.* in_flight \([0-9]*\)$/\1/p' /tmp/holds | sort -n | tail -1)
grep ' dm_ioband_hold: ' /tmp/trace2 >>/tmp/holds
check "the hold events' in_flight never above io_limit 4 in the first run (max $maxtr)" test "${maxtr:-9}" -le 4
for reason in limit queue order ceiling; do
	log "# reason $reason: $(grep -c " reason $reason " /tmp/holds)"
	check "hold reason $reason seen ($(grep -c " reason $reason " /tmp/holds) times)" \
		grep -q " reason $reason " /tmp/holds
done
grep -m1 ' reason order ' /tmp/holds
bad=$(grep -Evc " dm_ioband_hold: [0-9]+,[0-9]+ dg 5 group -1 R[A-Z]* [0-9]+ \+ 8 reason (limit|queue|order|ceiling) in_flight [0-9]+$" /tmp/holds)
check "every hold event: band device, dg 5, group -1, direction, sector + 8, reason, in_flight ($bad bad of $(wc -l </tmp/holds))" \
	test "$bad" = 0 -a -s /tmp/holds
check "hold events name ioband3's device $devt3" grep -q " dm_ioband_hold: $devt3 dg 5 " /tmp/holds
grep ' dm_ioband_dispatch: ' /tmp/trace1 /tmp/trace2 >/tmp/disp
bad=$(grep -Evc " dm_ioband_dispatch: [0-9]+,[0-9]+ dg 5 group -1 R[A-Z]* [0-9]+ \+ 8 [0-9]+ ns$" /tmp/disp)
check "every dispatch event has its fields ($bad bad of $(wc -l </tmp/disp))" test "$bad" = 0 -a -s /tmp/disp
check "dispatch: held bios report their wait in ns, bios that passed 0" sh -c \
	"grep -q ' [1-9][0-9]* ns$' /tmp/disp && grep -q ' + 8 0 ns$' /tmp/disp"
grep ' dm_ioband_complete: ' /tmp/trace1 /tmp/trace2 >/tmp/comp
bad=$(grep -Evc " dm_ioband_complete: [0-9]+,[0-9]+ dg 5 group -1 R[A-Z]* [0-9]+ \+ 8 [1-9][0-9]* ns$" /tmp/comp)
check "every completion event has a latency > 0 ($bad bad of $(wc -l </tmp/comp))" test "$bad" = 0 -a -s /tmp/comp
grep ' dm_ioband_period: ' /tmp/trace1 >/tmp/per
bad=$(grep -Evc " dm_ioband_period: dg 5 io_limit 4 capacity [0-9]+ slack [0-9]+ iops [0-9]+ lat_avg [0-9]+ ns held [0-9]+ level [0-9]+ noise [0-9]+ phase fixed$" /tmp/per)
check "every period event of the first run: dg 5, io_limit 4, capacity, slack, iops, lat_avg, held, level, noise, phase fixed ($bad bad of $(wc -l </tmp/per))" \
	test "$bad" = 0 -a -s /tmp/per
head -1 /tmp/holds; head -1 /tmp/disp; head -1 /tmp/comp; head -1 /tmp/per

# io_throttle 64 (io_limit 32 above it caps it): fewer bios in flight than that pass straight through,
# except those of the group with a ceiling; a floor anywhere holds all.
delayed() { $DMSETUP status "$1" | awk '{ print $7 + $10 }'; }
fio2() {
	fio --output=/tmp/fio4.out --ioengine=libaio --direct=1 --bs=4k \
		--iodepth=4 --rw=randread --runtime=2 --time_based \
		--name=a --filename=/dev/mapper/ioband3 \
		--name=b --filename=/dev/mapper/ioband4 >/dev/null
}
# held_runs: fio2 until ioband3 holds some reads, three runs at most: the
# two jobs may not overlap in 2 s on a guest short of CPU (0 held seen
# once), and a group alone is not held.  Sets d3 and run.
held_runs() {
	for run in 1 2 3; do
		for i in 3 4; do $DMSETUP message ioband$i 0 reset; done
		fio2
		d3=$(delayed ioband3)
		[ "${d3:-0}" -gt 0 ] && return
	done
}
# The control (the test audit's finding 16): the same run with no
# io_throttle holds some of ioband3's reads, where the policy orders them
# (up to three runs, as with the floor below).
$DMSETUP message ioband3 0 io_limit 32
held_runs
check "control: io_throttle 0, io_limit 32, 8 in flight: ioband3's reads held ($d3, run $run of 3 at most)" \
	test "${d3:-0}" -gt 0
check "io_throttle 64, io_limit 32" sh -c \
	"$DMSETUP message ioband3 0 io_throttle 64 && $DMSETUP message ioband3 0 io_limit 32"
for i in 3 4; do $DMSETUP message ioband$i 0 reset; done
fio2
d3=$(delayed ioband3) d4=$(delayed ioband4)
check "io_throttle 64, io_limit 32, 8 in flight: nothing held but the ceiling's ($d3 held, ceiling group $d4)" \
	test "$d3" = 0 -a "$d4" -gt 0
# An io_throttle above the in-flight limit acts as the limit: at
# io_limit 2, ioband3's 4 reads are held past 2 in flight, io_throttle 64
# or not.
$DMSETUP message ioband3 0 io_limit 2
for i in 3 4; do $DMSETUP message ioband$i 0 reset; done
fio2
d3=$(delayed ioband3)
check "io_throttle 64 above io_limit 2 acts as the limit: ioband3's reads held ($d3)" \
	test "$d3" -gt 0
$DMSETUP message ioband3 0 io_limit 32
check "a floor on ioband3's default group" $DMSETUP message ioband3 0 limits default min=10iops
# What the policy holds below the limit depends on how the two jobs
# overlap: up to three runs.  Without the floor, every run holds none (the
# check after the control).
held_runs
check "with a floor in the device group, io_throttle holds again ($d3 held, run $run of 3 at most)" \
	test "${d3:-0}" -gt 0
# A floor of 3,000 IOPS on a 2,000 IOPS disk: overcommitted.  io_limit 4
# under 8 bios: busy periods (bios held at the limit), which measure what
# the device serves.
$DMSETUP message ioband3 0 limits default min=3000iops
$DMSETUP message ioband3 0 io_throttle 0
$DMSETUP message ioband3 0 io_limit 4
# The warning goes through dm's rate limit (10 messages in 5 s), which the
# refused messages above may have used up: 5 s for a new interval.
sleep 5
dmesg -c >/dev/null
fio2
nw=$(dmesg | grep -c 'device group 5: the floors add up to more than it serves')
op=$($DMSETUP message ioband3 0 show | head -1 | sed -n 's/.*overcommitted_periods=\([0-9]*\).*/\1/p')
check "overcommitted floors: the kernel log says so ($nw times), show counts $op periods" \
	test "$nw" -ge 1 -a "$nw" -le "${op:-0}"

# A floor in KB/s: ioband3 at weight 1 with min=1024kbps against
# ioband4 at weight 1000 (its weight alone gives it 0.1 %).
$DMSETUP message ioband3 0 io_limit 0
$DMSETUP message ioband3 0 weight 1
$DMSETUP message ioband4 0 limits default none
$DMSETUP message ioband4 0 weight 1000
check "limits default min=1024kbps on ioband3 (weight 1)" \
	$DMSETUP message ioband3 0 limits default min=1024kbps
for i in 3 4; do $DMSETUP message ioband$i 0 reset; done
fio --output=/tmp/fio5.out --ioengine=libaio --direct=1 --bs=4k \
	--iodepth=16 --rw=randread --runtime=3 --time_based \
	--name=a --filename=/dev/mapper/ioband3 \
	--name=b --filename=/dev/mapper/ioband4 >/dev/null
kb3=$($DMSETUP status ioband3 | awk '{ printf "%d", $8 / 2 / 3 }')
kb4=$($DMSETUP status ioband4 | awk '{ printf "%d", $8 / 2 / 3 }')
check "the floor is met: ioband3 got $kb3 KB/s (floor 1024, 10 % slack), ioband4 $kb4 KB/s" \
	test "$kb3" -ge 920 -a "$kb4" -gt "$kb3"
sched=$($DMSETUP message ioband3 0 show | head -1)
il=$(line_field io_limit <<<"$sched") cap=$(line_field capacity <<<"$sched")
# Learnt from the disk: a capacity of at most its 8 tags and a raise
# probe's quarter (one may be in progress: 10), not the 16 a pool starts
# from, nor collapsed to 1 (16 reads asked each; 7 seen in UML).  The
# capacity, not io_limit: on dm-linear slices the tags are not known,
# and io_limit adds the dispatcher's slack (io_limit 10 in a clean-clone
# CI run).
check "the automatic capacity ($cap; io_limit $il) is at most the disk's 8 tags and a probe's quarter (10), and at least 2" \
	test "${cap:-0}" -ge 2 -a "${cap:-0}" -le 10
for i in 3 4; do $DMSETUP remove ioband$i; done

# --- 4. held bios: detach, remove --force, remove --deferred, cgroups ---
check "create a uid band device, group 0 (root) capped at 20 IOPS" \
	dm_create ioband5 "0 $sz ioband $dev 6 0 0 uid weight 0 :100 0:100,max=20iops"
# 1024 reads: 51 s at the ceiling.
fio --output=/tmp/fio5.out --name=d --filename=/dev/mapper/ioband5 \
	--ioengine=libaio --direct=1 --bs=4k --iodepth=16 --rw=randread \
	--size=4M >/dev/null &
fp=$!
q=$(wait_for 10 1 show_q ioband5 0)
check "group 0 holds bios ($q)" test "${q:-0}" -gt 0
s=$SECONDS
check "detach group 0 with its bios held" $DMSETUP message ioband5 0 detach 0
wait $fp
rc=$?
# At the ceiling the rest (1024 less the 40 or so read before the detach)
# would take 49 s; moved to the default group, which has none, they must
# complete in a quarter of that.
t=$((SECONDS - s))
check "its held bios moved to the default group and completed: fio exit $rc, $t s after the detach (49 s at the ceiling, a quarter: 12 s)" \
	test "$rc" = 0 -a "$t" -le 12
check "nothing held after ($(show_held ioband5)), no group 0 in the table" \
	test "$(show_held ioband5):$(table ioband5)" = "0:6 0 0 uid weight 0 :100"
check "remove ioband5" $DMSETUP remove ioband5

check "create a band device at 20 IOPS for remove --force" \
	dm_create ioband6 "0 $sz ioband $dev 7 0 0 none weight 0 :100,max=20iops"
fio --output=/tmp/fio6.out 2>/tmp/fio6.err --name=f --filename=/dev/mapper/ioband6 \
	--ioengine=libaio --direct=1 --bs=4k --iodepth=16 --rw=randread \
	--runtime=30 --time_based >/dev/null &
fp=$!
h=$(wait_for 10 1 show_held ioband6)
check "bios held before remove --force ($h)" test "${h:-0}" -gt 0
s=$SECONDS
timeout 30 $DMSETUP remove --force ioband6 >/tmp/force.out 2>&1
rc=$?
log "# remove --force: exit $rc: $(tr '\n' ' ' </tmp/force.out)"
check "dmsetup remove --force returned in $((SECONDS - s)) s (exit $rc, not a timeout)" test "$rc" != 124
timeout 30 sh -c "while kill -0 $fp 2>/dev/null; do sleep 0.1; done"
wait $fp
rc=$?
log "# fio after remove --force: exit $rc, $(grep -c -i 'error' /tmp/fio6.err) I/O errors"
measure "fio after remove --force (errors or done; a hang fails the run)" \
	"ended $((SECONDS - s)) s after it, exit $rc"
$DMSETUP info ioband6 >/dev/null 2>&1 && $DMSETUP remove ioband6
check "ioband6 is gone" sh -c "! $DMSETUP info ioband6 >/dev/null 2>&1"

check "create a band device at 50 IOPS for remove --deferred" \
	dm_create ioband7 "0 $sz ioband $dev 8 0 0 none weight 0 :100,max=50iops"
fio --output=/tmp/fio7.out --name=f --filename=/dev/mapper/ioband7 \
	--ioengine=libaio --direct=1 --bs=4k --iodepth=16 --rw=randread \
	--runtime=4 --time_based >/dev/null &
fp=$!
h=$(wait_for 10 1 show_held ioband7)
check "bios held before remove --deferred ($h)" test "${h:-0}" -gt 0
check "dmsetup remove --deferred accepted" $DMSETUP remove --deferred ioband7
check "the device stays while fio has it open (DEFERRED REMOVE)" sh -c \
	"$DMSETUP info ioband7 | grep -q 'DEFERRED REMOVE'"
wait $fp
rc=$?
check "fio completed (exit $rc)" test "$rc" = 0
for _ in $(seq 1 50); do $DMSETUP info ioband7 >/dev/null 2>&1 || break; sleep 0.1; done
check "the device went away at its last close" sh -c "! $DMSETUP info ioband7 >/dev/null 2>&1"
read -r a b <"/sys/block/${dev#/dev/}/inflight"
check "nothing left in flight on the disk ($a $b)" test "$a$b" = 00
check "a new band device of device group 7 works" sh -c \
	"$DMSETUP create ioband6 --table '0 $sz ioband $dev 7 0 0 none weight 0 :100' &&
	 dd if=/dev/mapper/ioband6 of=/dev/null bs=4k count=16 iflag=direct status=none &&
	 $DMSETUP remove ioband6"

# An attached cgroup removed while bios of its own are held.
cg_setup
cg_make feat
cid=$(stat -c %i /sys/fs/cgroup/feat)
check "create a cgroup band device, /feat capped at 50 IOPS" \
	dm_create ioband8 "0 $sz ioband $dev 9 0 0 cgroup weight 0 :100 /feat:100,max=50iops"
echo >$T/trace
echo 1 >$T/events/dm_ioband/dm_ioband_hold/enable
cg_run feat fio --output=/tmp/fio8.out --name=c --filename=/dev/mapper/ioband8 \
	--ioengine=libaio --direct=1 --bs=4k --iodepth=16 --rw=randwrite \
	--size=1M --verify=crc32c --verify_fatal=1 --do_verify=1 >/dev/null &
fp=$!
# Until /feat holds bios (fio starts slowly in a TCG guest: none held
# after 2 s there once), 10 s at most.
for _ in $(seq 1 40); do
	sleep 0.25
	q=$(show_q ioband8 /feat)
	[ "${q:-0}" -gt 0 ] && break
done
for p in $(cat /sys/fs/cgroup/feat/cgroup.procs); do echo "$p" >/sys/fs/cgroup/cgroup.procs; done
rmdir /sys/fs/cgroup/feat
rc=$?
check "attached cgroup /feat removed (rmdir exit $rc) while it held $q bios" \
	test "${q:-0}" -gt 0 -a "$rc" = 0
wait $fp
rc=$?
echo 0 >$T/events/dm_ioband/dm_ioband_hold/enable
check "its writer finished and verified its data (exit $rc)" test "$rc" = 0
check "hold events name the cgroup by its id $cid" grep -q " dm_ioband_hold: .* group $cid " $T/trace
st=$($DMSETUP status ioband8)
log "# status: $st"
check "the removed cgroup's counters stay in status" sh -c \
	"echo '$st' | grep -q ' /feat 0 0 0 [1-9][0-9]* [0-9]* [1-9]'"
check "weight /feat:50 still finds the removed cgroup by path" \
	sh -c "$DMSETUP message ioband8 0 weight /feat:50 &&
	$DMSETUP message ioband8 0 show | grep -q '^group=/feat weight=50 '"
check "detach /feat by path" $DMSETUP message ioband8 0 detach /feat
check "remove ioband8" $DMSETUP remove ioband8

# --- 5. splitting, swap, write zeroes and flushes -----------------------
# A disk whose largest request is 24 KiB: a 1 MiB bio is split at 32 KiB.
disk3=$(nullb_create disk3 size=16 max_sectors=48) || exit 1
check "create a band device on a disk of max_sectors_kb $(cat /sys/block/"${disk3#/dev/}"/queue/max_sectors_kb)" \
	dm_create ioband11 "0 $(sectors "$disk3") ioband $disk3 12 0 0 none weight 0 :100"
echo >$T/trace
echo 1 >$T/events/dm_ioband/dm_ioband_dispatch/enable
dd if=/dev/zero of=/dev/mapper/ioband11 bs=1M count=1 oflag=direct status=none
echo 0 >$T/events/dm_ioband/dm_ioband_dispatch/enable
st=$($DMSETUP status ioband11)
# "<n> bios <total sectors> <largest> <bios across a 32 KiB boundary>"
sp=$(awk '/ dm_ioband_dispatch: .* dg 12 / { for (i = 1; i < NF; i++) if ($i == "+") {
		s = $(i - 1); n = $(i + 1) }
	c++; t += n; if (n > m) m = n; if (int(s / 64) != int((s + n - 1) / 64)) x++ }
	END { printf "%d bios %d %d %d\n", c, t, m, x }' $T/trace)
log "# 1 MiB write: $sp; status $st"
check "a 1 MiB write: 2048 sectors in bios of at most 24 KiB, none across a multiple of 32 KiB ($sp)" \
	sh -c "echo '$sp' | awk '{ exit !(\$1 >= 43 && \$3 == 2048 && \$4 <= 48 && \$5 == 0) }'"
check "and counted as such in status ($st)" \
	test "$(echo "$st" | awk '{ print $9, $11 }')" = "$(echo "$sp" | awk '{ print $1 }') 2048"
# The size is read when the table is loaded: max_sectors_kb 16 below and
# a reload, and a 1 MiB write goes in bios of at most 16 KiB, none across
# a multiple of 16 KiB.
echo 16 >"/sys/block/${disk3#/dev/}/queue/max_sectors_kb"
t11=$($DMSETUP table ioband11)
check "max_sectors_kb 16 below, reload ioband11" \
	sh -c "$DMSETUP load ioband11 --table '$t11' && $DMSETUP resume ioband11"
echo >$T/trace
echo 1 >$T/events/dm_ioband/dm_ioband_dispatch/enable
dd if=/dev/zero of=/dev/mapper/ioband11 bs=1M count=1 oflag=direct status=none
echo 0 >$T/events/dm_ioband/dm_ioband_dispatch/enable
sp=$(awk '/ dm_ioband_dispatch: .* dg 12 / { for (i = 1; i < NF; i++) if ($i == "+") {
		s = $(i - 1); n = $(i + 1) }
	c++; t += n; if (n > m) m = n; if (int(s / 32) != int((s + n - 1) / 32)) x++ }
	END { printf "%d bios %d %d %d\n", c, t, m, x }' $T/trace)
check "after the reload: 2048 sectors in bios of at most 16 KiB, none across a multiple of 16 KiB ($sp)" \
	sh -c "echo '$sp' | awk '{ exit !(\$1 >= 64 && \$3 == 2048 && \$4 <= 32 && \$5 == 0) }'"
$DMSETUP remove ioband11

# Swap: REQ_SWAP writes are counted but never held.  Device group 11,
# io_limit 2, kept at its limit by a reader on a second band device:
# every other bio of the swap device is held.
check "create a swap band device and a busy one in device group 11, io_limit 2" sh -c \
	"$DMSETUP create ioband10 --table '0 $sz ioband $dev 11 0 2 none weight 0 :100' &&
	 $DMSETUP create ioband12 --table '0 $(sectors /dev/mapper/part2) ioband /dev/mapper/part2 11 0 2 none weight 0 :100'"
check "swapon it" sh -c "mkswap /dev/mapper/ioband10 >/dev/null && swapon /dev/mapper/ioband10"
fio --output=/tmp/fio12.out --name=busy --filename=/dev/mapper/ioband12 \
	--ioengine=libaio --direct=1 --bs=4k --iodepth=16 --rw=randread \
	--runtime=60 --time_based >/dev/null &
fp=$!
cg_make swapper
echo 16M >/sys/fs/cgroup/swapper/memory.max
sleep 1
$DMSETUP message ioband10 0 reset
s=$SECONDS
timeout 60 sh -c 'echo $$ >/sys/fs/cgroup/swapper/cgroup.procs && exec python3 -c "
b = bytearray(24 << 20)
for i in range(0, len(b), 4096): b[i] = 1
"'
rc=$?
st=$($DMSETUP status ioband10)
kill $fp
wait $fp
log "# swap: status $st, $((SECONDS - s)) s"
check "a 24 MiB process in a 16 MiB cgroup ran (exit $rc, $((SECONDS - s)) s)" test "$rc" = 0
check "its swap writes were counted ($(echo "$st" | awk '{ print $9 }')) and none held ($(echo "$st" | awk '{ print $10 }')), while reads were ($(echo "$st" | awk '{ print $7 }') held)" \
	test "$(echo "$st" | awk '{ print $9 }')" -gt 100 -a "$(echo "$st" | awk '{ print $10 }')" = 0 -a "$(echo "$st" | awk '{ print $7 }')" -gt 0
swapoff /dev/mapper/ioband10
$DMSETUP remove ioband10
$DMSETUP remove ioband12

# Write zeroes and flushes.
truncate -s 16M /tmp/wz.img
loopdev=$(losetup -f --show /tmp/wz.img) || exit 1
check "create a band device on a loop device, 5 IOPS ceiling" \
	dm_create ioband9 "0 $(sectors "$loopdev") ioband $loopdev 10 0 0 none weight 0 :100,max=5iops"
bd9=$($DMSETUP info -c -o blkdevname --noheadings ioband9)
check "it takes write-zeroes ($(cat /sys/block/"$bd9"/queue/write_zeroes_max_bytes) bytes)" \
	test "$(cat /sys/block/"$bd9"/queue/write_zeroes_max_bytes)" -gt 0
dd if=/dev/urandom of=/dev/mapper/ioband9 bs=64k count=10 oflag=direct status=none
sleep 1
$DMSETUP message ioband9 0 reset
s=$SECONDS
t0=$(date +%s%N)
for i in $(seq 0 9); do
	fallocate -p -o $((i * 65536)) -l 65536 /dev/mapper/ioband9 || break
done
ms=$((($(date +%s%N) - t0) / 1000000))
st=$($DMSETUP status ioband9)
log "# status after 10 write-zeroes: $st ($((SECONDS - s)) s)"
check "10 write-zeroes of 64 KiB counted as writes, 128 sectors each ($st)" \
	test "$(echo "$st" | awk '{ print $9, $11 }')" = "10 1280"
check "held to the ceiling ($(echo "$st" | awk '{ print $10 }') held)" \
	test "$(echo "$st" | awk '{ print $10 }')" -gt 0
# At the ceiling's rate: after the first, one each 200 ms (1.8 s for the
# ten); a tenth more allowed for the burst of one period.
check "at most 5.5 write-zeroes a second after the first (10 in $ms ms)" \
	test $((9 * 10000)) -le $((55 * ms))
check "they zeroed the data" cmp -n 655360 /dev/mapper/ioband9 /dev/zero
check "the band device has a write-back cache ($(cat /sys/block/"$bd9"/queue/write_cache))" \
	test "$(cat /sys/block/"$bd9"/queue/write_cache)" = "write back"
# 20 writes at 5 IOPS; five fsyncs meanwhile: their empty flushes pass
# straight through (not held behind the writes, not counted).
$DMSETUP message ioband9 0 reset
dd if=/dev/zero of=/dev/mapper/ioband9 bs=4k count=20 oflag=direct status=none &
dp=$!
sleep 1
f0=$(awk '{ print $16 }' "/sys/block/${loopdev#/dev/}/stat")
ms=$(python3 -c 'import os, time
fd = os.open("/dev/mapper/ioband9", os.O_WRONLY)
t = time.monotonic()
for _ in range(5): os.fsync(fd)
print(int((time.monotonic() - t) * 1000))')
f1=$(awk '{ print $16 }' "/sys/block/${loopdev#/dev/}/stat")
wait $dp
st=$($DMSETUP status ioband9)
# Held behind the writes, each flush would wait for a write's slot at
# least (200 ms at 5 IOPS): five in less than that, all together.
check "five fsyncs took $ms ms (less than one write's 200 ms at the ceiling) while writes were held at 5 IOPS, and the loop device below saw $((f1 - f0)) flushes" \
	test -n "$ms" -a "${ms:-1000}" -lt 200 -a $((f1 - f0)) -ge 5
check "their flushes were not counted: 20 writes ($st)" \
	test "$(echo "$st" | awk '{ print $9 }')" = 20
$DMSETUP remove ioband9
losetup -d "$loopdev"
finish
