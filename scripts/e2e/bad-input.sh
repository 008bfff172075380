#!/bin/bash
# Bad input that no other test sends (the test audit of 2026-12, part 3,
# "never tested"): every table line and message below is refused with a
# line of dm-ioband's in the kernel log and changes nothing; every bad
# write to io.ioband.weight or io.ioband.limits is refused and leaves the
# file as it was.  Refusals also run against a device group that has a
# member (the audit's finding 19): a refused line for that device group
# changes neither the member's table nor the device group's settings,
# and the member still reads.
. "$(dirname "$0")/../lib/guest.sh"
plan 42

dev=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$dev")

# A table line that must be refused: no device is left behind.
refused() {
	local why=$1
	shift
	table_refused "$why" "0 $sz ioband $dev $*"
}
refused "io_throttle not a number" 1 x 0 none weight 0 :100
refused "io_limit not a number" 1 0 x none weight 0 :100
refused "device group above 2^32 - 1" 4294967296 0 0 none weight 0 :100
refused "token-base -1" 1 0 0 none weight -1 :100
refused "default share ':' alone" 1 0 0 none weight 0 :
refused "default range floor above its ceiling" 1 0 0 none range-bw 0 :4096:512

# Device group 5 with a member, ioband1 on the disk's first half; bad
# lines for device group 5 on the second half.
dm_linear_slices "$dev" 2 part || exit 1
psz=$(sectors /dev/mapper/part1)
t="0 $psz ioband /dev/mapper/part1 5 0 16 uid weight 0 :100 1000:50"
dm_create ioband1 "$t" || exit 1
t=$($DMSETUP table ioband1)
limit() { $DMSETUP message ioband1 0 show | line_field io_limit; }
member_refused() {
	local why=$1
	shift
	table_refused "$why, device group 5 has a member" \
		"0 $psz ioband /dev/mapper/part2 $*"
}
member_refused "another policy and default weight 0" 5 0 16 uid weight-iosize 0 :0
member_refused "other settings and group weight 0" 5 4 32 uid weight 0 :100 1000:0
member_refused "a group given twice" 5 0 16 uid weight 0 :100 1000:10 1000:20
member_refused "io_limit not a number" 5 0 x uid weight 0 :100
check "ioband1's table unchanged after the refusals" \
	test "$($DMSETUP table ioband1)" = "$t"
check "device group 5's io_limit unchanged: $(limit)" test "$(limit)" = 16
check "ioband1 still reads" dd if=/dev/mapper/ioband1 of=/dev/null bs=4k \
	count=16 iflag=direct status=none

# Messages: refused, with dm-ioband's reason in the kernel log, and the
# table as it was (guest.sh's msg_refused).
bad_msg() { msg_refused ioband1 "$@"; }
bad_msg idle_window x
bad_msg idle_window -1
bad_msg idle_window 100001
check "idle_window 100000 (the largest) accepted" \
	$DMSETUP message ioband1 0 idle_window 100000
check "idle_window 0 accepted" $DMSETUP message ioband1 0 idle_window 0
bad_msg io_limit -1
bad_msg io_throttle -1
bad_msg detach
bad_msg limits 1000 max=10iops max=20iops

# io.ioband.weight and io.ioband.limits: each bad write refused, the file
# unchanged.
cg_setup || exit 1
cg_make bad || exit 1
CG=/sys/fs/cgroup/bad
band=$(dm_majmin ioband1)
echo "$band 50" >$CG/io.ioband.weight || exit 1
echo "$band max_iops=500" >$CG/io.ioband.limits || exit 1
# bad_write <file> <text>: <text> and a newline, as echo writes it,
# refused; <file> as it was.
bad_write() {
	local f=$CG/$1 before
	before=$(cat "$f")
	if printf '%s\n' "$2" >"$f" 2>/dev/null; then
		check "$1: '$2' refused" false
		return
	fi
	check "$1: '$2' refused, unchanged" test "$(cat "$f")" = "$before"
}
bad_write io.ioband.weight "default 0"
bad_write io.ioband.weight "default 10001"
bad_write io.ioband.weight "10001"
bad_write io.ioband.weight "default50"
bad_write io.ioband.weight "$band 0"
bad_write io.ioband.weight "$band x"
bad_write io.ioband.weight "$band -5"
bad_write io.ioband.weight "$band defaultx"
bad_write io.ioband.weight "250:250 50"
bad_write io.ioband.weight ""
check "io.ioband.weight: 1 and 10000, the bounds, accepted" sh -c \
	"echo '$band 1' >$CG/io.ioband.weight && echo 'default 10000' >$CG/io.ioband.weight &&
	 grep -qx 'default 10000' $CG/io.ioband.weight && grep -qx '$band 1' $CG/io.ioband.weight"
bad_write io.ioband.limits "$band max_iops=x"
bad_write io.ioband.limits "$band max_iops"
bad_write io.ioband.limits "$band min_iops=max"
bad_write io.ioband.limits "$band max_iops=0"
bad_write io.ioband.limits "$band min_bps=2097152 max_bps=1048576"
bad_write io.ioband.limits "$band max_iops=4294967297"
before=$(cat $CG/io.ioband.limits)
printf '%s\n' "$band" >$CG/io.ioband.limits 2>/dev/null
check "io.ioband.limits: '$band' alone changes nothing" \
	test "$(cat $CG/io.ioband.limits)" = "$before"

# max_held: 0 and a value past an int refused, the value unchanged.
mh=/sys/module/dm_ioband/parameters/max_held
old=$(cat $mh)
for v in 0 4294967296; do
	echo "$v" >$mh 2>/dev/null
	check "max_held $v refused: still $(cat $mh)" test "$(cat $mh)" = "$old"
done
finish
