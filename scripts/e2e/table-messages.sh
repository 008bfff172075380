#!/bin/bash
# dmsetup create/table/status/message round trips; every bad table line
# and every bad message is refused and changes nothing.
. "$(dirname "$0")/../lib/guest.sh"
plan 77

dev=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$dev")
devno=$(cat "/sys/block/${dev#/dev/}/dev")

# A table line that must be refused: no device is left behind.
refused() {
	local why=$1
	shift
	table_refused "$why" "0 $sz ioband $dev $*"
}
refused "too few arguments" 1 0 0 none weight 0
refused "device-group id" x 0 0 none weight 0 :100
refused "io_throttle" 1 -1 0 none weight 0 :100
refused "io_limit too big" 1 0 5000 none weight 0 :100
refused "group type" 1 0 0 cgroupx weight 0 :100
refused "policy" 1 0 0 none fastest 0 :100
refused "token-base" 1 0 0 none weight abc :100
refused "default weight without colon" 1 0 0 none weight 0 100
refused "default weight 0" 1 0 0 none weight 0 :0
refused "default weight too big" 1 0 0 none weight 0 :1000001
refused "groups with type none" 1 0 0 none weight 0 :100 1000:10
refused "group without weight" 1 0 0 uid weight 0 :100 1000
refused "group weight 0" 1 0 0 uid weight 0 :100 1000:0
refused "group id -1" 1 0 0 uid weight 0 :100 -1:10
refused "pid 0" 1 0 0 pid weight 0 :100 0:10
refused "group given twice" 1 0 0 uid weight 0 :100 1000:10 1000:20
if $DMSETUP create bad --table "0 $sz ioband /dev/nonexistent 1 0 0 none weight 0 :100" 2>/dev/null; then
	check "refused: missing device" false
else
	check "refused: missing device" test ! -e /dev/mapper/bad
fi

t="0 $sz ioband $devno 7 0 0 uid weight 0 :100 1000:80 1001:40"
check "create with band groups" $DMSETUP create ioband1 --table "$t"
check "table round-trips" test "$($DMSETUP table ioband1)" = "$t"
# Loading the printed table recreates the device.
check "reload the printed table" sh -c "$DMSETUP table ioband1 | $DMSETUP load ioband1 && $DMSETUP resume ioband1"
check "table still the same" test "$($DMSETUP table ioband1)" = "$t"
st=$($DMSETUP status ioband1)
check "status has the seed's fields ($st)" test \
	"$(echo "$st" | awk '{ print $4, $5, NF }')" = "7 -1 25"

# "--": "attach -5" is the message's; without it dmsetup refuses "-5" as
# an option of its own and the kernel never sees the message.
msg() { $DMSETUP message -- ioband1 0 "$@"; }
table() { $DMSETUP table ioband1 | cut -d' ' -f5-; }

# ok_msg <table> <message...>: the message is accepted and the table is
# then <table>.
ok_msg() {
	local want=$1 rc
	shift
	msg "$@"
	rc=$?
	check "message '$*' accepted (exit $rc) -> table '$want'" \
		test "$rc:$(table)" = "0:$want"
}
# show_field <field>: <field>= of ioband1's show (guest.sh's line_field).
show_field() { msg show | line_field "$1"; }
# refused, with dm-ioband's reason in the kernel log, the table as it was
bad_msg() { msg_refused ioband1 "$@"; }

ok_msg "7 0 0 uid weight 0 :100 1000:80 1001:40 1002:100" attach 1002
ok_msg "7 0 0 uid weight 0 :100 1000:80 1001:40 1002:30" weight 1002:30
ok_msg "7 0 0 uid weight 0 :50 1000:80 1001:40 1002:30" weight 50
ok_msg "7 0 0 uid weight 0 :50 1000:80 1001:40" detach 1002
ok_msg "7 0 0 uid weight-iosize 0 :50 1000:80 1001:40" policy weight-iosize
ok_msg "7 0 0 uid weight 0 :50 1000:80 1001:40" policy weight
ok_msg "7 0 16 uid weight 0 :50 1000:80 1001:40" io_limit 16
ok_msg "7 4 16 uid weight 0 :50 1000:80 1001:40" io_throttle 4
ok_msg "7 0 16 uid weight 0 :50 1000:80 1001:40" io_throttle 0
ok_msg "7 0 0 uid weight 0 :50 1000:80 1001:40" io_limit 0
ok_msg "7 0 0 uid weight 1024 :50 1000:80 1001:40" token 1024
ok_msg "7 0 0 uid weight 1024 :50 1000:80 1001:40" carryover 4
ok_msg "7 0 0 uid weight 1024 :50 1000:80 1001:40" idle_window 2000
check "show: idle_window_us=$(show_field idle_window_us) after idle_window 2000" \
	test "$(show_field idle_window_us)" = 2000
bad_msg attach 1000
bad_msg attach -5
bad_msg detach 1005
bad_msg weight 0
bad_msg weight 1000001
bad_msg weight 1005:10
bad_msg weight 1000:x
bad_msg policy fastest
bad_msg io_limit 5000
bad_msg io_limit x
bad_msg type pid
bad_msg type nonsense
bad_msg idle_window 200000
bad_msg frobnicate 1
bad_msg attach
bad_msg attach 1 2
ok_msg "7 0 0 uid weight 1024 :50 1000:80" detach 1001
ok_msg "7 0 0 uid weight 1024 :50" detach 1000
ok_msg "7 0 0 pid weight 1024 :50" type pid
ok_msg "7 0 0 pid weight 1024 :50 1:50" attach 1

# reset zeroes the counters; show reports the scheduler.
dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=16 iflag=direct 2>/dev/null
check "counters count" test "$($DMSETUP status ioband1 | awk '{ print $6 }')" -gt 0
msg reset
check "reset zeroes them" test "$($DMSETUP status ioband1 | awk '{ print $6 + $9 }')" = 0
out=$(msg show | head -1)
log "show: $out"
check "show: device_group=$(show_field device_group), idle_window_us=$(show_field idle_window_us) (set to 2000 above)" \
	test "$(show_field device_group):$(show_field idle_window_us)" = 7:2000
check "show: ceiling=$(show_field ceiling), capacity=$(show_field capacity) (numbers)" \
	sh -c "[ '$(show_field ceiling)' -ge 0 ] && [ '$(show_field capacity)' -ge 1 ]"
n=$(msg show | grep -c '^group=default weight=')
check "show: a line for the default group ($n)" test "$n" = 1
# A wrong message is refused with a line in the kernel log that says why.
dmesg -C
msg idle_window 200000 2>/dev/null
check "the kernel log says why idle_window 200000 was refused: '$(dmesg | grep -m1 'ioband: idle_window')'" \
	sh -c "dmesg | grep -q 'device-mapper: ioband: idle_window 200000: must be 0 to'"
check "remove" $DMSETUP remove ioband1

# reset zeroes every band group's counters, in status and in show.
check "create a uid band device with group 0 (root)" $DMSETUP create ioband1 \
	--table "0 $sz ioband $devno 8 0 0 uid weight 0 :100 0:50"
dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=16 iflag=direct 2>/dev/null
# status: start length ioband <device-group> then per band group its id
# and six counters, the default group (-1) first
g0() { $DMSETUP status ioband1 | awk '{ for (i = 12; i <= NF; i += 7) if ($i == "0") print $(i + 1) }'; }
d0() { msg show | sed -n 's/^group=0 .* dispatched=\([0-9]*\).*/\1/p'; }
check "group 0 counts its reads: status $(g0), show dispatched=$(d0)" \
	sh -c "[ '$(g0)' -ge 16 ] && [ '$(d0)' -ge 16 ]"
msg reset
check "reset zeroes group 0 too: status $(g0), show dispatched=$(d0)" \
	test "$(g0):$(d0)" = 0:0
check "remove the uid band device" $DMSETUP remove ioband1

# show's scheduler fields under load: two band devices of one device group
# on two slices of this disk (8 tags x 4 ms: 2,000 I/Os a second at most),
# 32 reads in flight on each, sampled 2 s after bios are first held (fio
# starts slowly in a TCG guest: nothing yet after 2 s there once), at the
# first of up to 20 samples with bios held: in a TCG guest fio, short of
# CPU, had none outstanding beyond the limit in 3 of 20 samples.
dm_linear_slices "$dev" 2 part || exit 1
psz=$(sectors /dev/mapper/part1)
for i in 1 2; do
	dm_create "iobandf$i" "0 $psz ioband /dev/mapper/part$i 9 0 0 none weight 0 :$((i * 50))" ||
		exit 1
done
fio --output=/tmp/show.out --ioengine=libaio --direct=1 --bs=4k --iodepth=32 \
	--rw=randread --runtime=14 --time_based \
	--name=a --filename=/dev/mapper/iobandf1 \
	--name=b --filename=/dev/mapper/iobandf2 &
fp=$!
wait_for 10 1 show_held iobandf1 >/dev/null
sleep 2
for _ in $(seq 1 20); do
	shown=$($DMSETUP message iobandf1 0 show)
	h=$(echo "$shown" | line_field held)
	[ "${h:-0}" -gt 0 ] && break
	sleep 0.25
done
# The idle window: automatic, twice the least latency (8 ms here) within
# 1 to 10 ms; fixed by a message, and automatic again at idle_window 0
# from the next estimation period on (one every 20 to 80 ms here).  The
# fixed value, 20 ms, is one the automatic window cannot take: with a
# fixed 5 ms, as before 2026-12-06, the check failed once in a clean-
# clone CI, "automatic again" reading 5000 after 0.5 s: the fixed value
# not yet replaced, or an automatic one from a least latency of 2.5 ms
# (UML's clock), that check alone could not tell.  The same run read the
# window under load at 8,173, so it was the fixed value: the automatic
# one is held to the range under load.  Polled for 2 s, with the
# periods that ended meanwhile in the check's line.
aw=$(echo "$shown" | line_field idle_window_us)
$DMSETUP message iobandf1 0 idle_window 20000
w20=$($DMSETUP message iobandf1 0 show | line_field idle_window_us)
$DMSETUP message iobandf1 0 idle_window 0
p0=$($DMSETUP message iobandf1 0 show | line_field periods)
for _ in $(seq 1 20); do
	w0=$($DMSETUP message iobandf1 0 show | line_field idle_window_us)
	[ "${w0:-20000}" -le 10000 ] && break
	sleep 0.1
done
p1=$($DMSETUP message iobandf1 0 show | line_field periods)
kill $fp 2>/dev/null
wait $fp
log "show under load: $(echo "$shown" | tr '\n' '|')"
f() { echo "$shown" | line_field "$1"; }
gf() { echo "$shown" | sed -n "s/^group=default .* $1=\([0-9]*\).*/\1/p"; }
check "periods=$(f periods): estimation periods ended (at least 20 in 2 s)" \
	test "$(f periods)" -ge 20
check "lat_avg_us=$(f lat_avg_us): at least the disk's 4,000 us, under 40,000" \
	in_range "$(f lat_avg_us)" 4000 40000
# iops is the last period's: 20 ms of a disk that completes its 8 tags
# together every 4 ms sees whole steps or not (999 seen in UML), and a
# TCG guest short of CPU serves less (398 to 1,167 in 80 samples): a
# twentieth at least, the disk's 2,000 at most (10 % for the period's
# edges).
check "iops=$(f iops): at most the disk's 2,000 (and 10 %), at least 100" \
	in_range "$(f iops)" 100 2200
check "in_flight=$(f in_flight) within io_limit=$(f io_limit), held=$(f held) > 0" \
	sh -c "[ '$(f in_flight)' -le '$(f io_limit)' ] && [ '$(f held)' -gt 0 ]"
check "slack=$(f slack), ceiling=$(f ceiling), capacity=$(f capacity): io_limit is capacity plus slack (and one)" \
	sh -c "[ '$(f io_limit)' -ge '$(f capacity)' ] && [ '$(f io_limit)' -le \$(($(f capacity) + $(f slack) + 1)) ]"
check "overcommitted=$(f overcommitted): no floors, not overcommitted" \
	test "$(f overcommitted)" = 0
check "the default group's line: in_flight=$(gf in_flight) floor_dispatched=$(gf floor_dispatched) think_us=$(gf think_us)" \
	sh -c "[ '$(gf in_flight)' -le '$(f in_flight)' ] && [ '$(gf floor_dispatched)' = 0 ] && [ -n '$(gf think_us)' ]"
check "idle_window_us=$aw under load: twice the disk's 4,000 us, at most 10,000" \
	in_range "$aw" 8000 10000
check "idle_window 20000 sets it: $w20" test "$w20" = 20000
check "idle_window 0 makes it automatic again: $w0, within 8,000 to 10,000 as under load (periods $p0 -> $p1)" \
	in_range "$w0" 8000 10000
for i in 1 2; do $DMSETUP remove "iobandf$i"; done
for i in 1 2; do $DMSETUP remove "part$i"; done
finish
