#!/bin/bash
# dm-ioband as a blk-cgroup policy: the io.ioband.weight file (formats
# and refusals as io.weight has them), and a band device of type cgroup
# that schedules every cgroup sending I/O with its weight, no attach.
. "$(dirname "$0")/../lib/guest.sh"
plan 20

CG=/sys/fs/cgroup
cg_setup || exit 1
# Children of the root: their weights are compared as they are.
cg_make ta || exit 1
cg_make tb || exit 1
disk=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$disk")
check "create a band device of type cgroup, no band groups" dm_create ioband1 \
	"0 $sz ioband $disk 1 0 0 cgroup weight 0 :100"
band=$(dm_majmin ioband1)
below=$(cat /sys/block/"$(basename "$disk")"/dev)
W=$CG/ta/io.ioband.weight

check "io.ioband.weight exists in a cgroup" test -f $W
check "and not in the root cgroup" test ! -e $CG/io.ioband.weight
check "it reads 'default 100'" test "$(cat $W)" = "default 100"
check "'default 300' is taken" sh -c "echo 'default 300' > $W"
check "a bare '250' sets the default" sh -c "echo 250 > $W && head -1 $W | grep -qx 'default 250'"
check "'$band 400' is taken for the band device" sh -c "echo '$band 400' > $W"
check "and listed as '$band 400'" grep -qx "$band 400" $W
check "weight 0 is refused" sh -c "! echo 0 > $W 2>/dev/null"
check "weight 10001 is refused" sh -c "! echo '$band 10001' > $W 2>/dev/null"
check "a disk that is no band device is refused" \
	sh -c "! echo '$below 200' > $W 2>/dev/null"
check "'$band default' drops the line" \
	sh -c "echo '$band default' > $W && ! grep -q '^$band ' $W"

# I/O of two cgroups, no attach message: each gets a group of its own with
# its io.ioband.weight (the group's weight in "show").
echo "$band 300" >$W
echo 100 >$CG/tb/io.ioband.weight
ida=$(stat -c %i $CG/ta)
idb=$(stat -c %i $CG/tb)
for c in a b; do
	cg_run t$c dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=64 \
		iflag=direct 2>/dev/null &
done
wait
show=$($DMSETUP message ioband1 0 show)
log "$show"
wa=$(echo "$show" | awk -v g="group=cgroup:$ida" '$1 == g { for (i = 2; i <= NF; i++) if ($i ~ /^weight=/) print substr($i, 8) }')
wb=$(echo "$show" | awk -v g="group=cgroup:$idb" '$1 == g { for (i = 2; i <= NF; i++) if ($i ~ /^weight=/) print substr($i, 8) }')
check "/ta has a group of its own at weight 300 (got '$wa')" test "$wa" = 300
check "/tb has a group of its own at weight 100 (got '$wb')" test "$wb" = 100
da=$(echo "$show" | awk -v g="group=cgroup:$ida" '$1 == g { for (i = 2; i <= NF; i++) if ($i ~ /^dispatched=/) print substr($i, 12) }')
check "/ta's 64 bios went through its group (got '$da')" test "$da" = 64
# A changed weight takes effect at the group's next bio.
echo "$band 50" >$W
cg_run ta dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
wa=$($DMSETUP message ioband1 0 show | awk -v g="group=cgroup:$ida" '$1 == g { for (i = 2; i <= NF; i++) if ($i ~ /^weight=/) print substr($i, 8) }')
check "a new io.ioband.weight holds from the next bio (got '$wa')" test "$wa" = 50
# A reload keeps the weights (they live in the cgroup, not in the table).
$DMSETUP table ioband1 >/tmp/t1
$DMSETUP load ioband1 /tmp/t1 && $DMSETUP resume ioband1
cg_run ta dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
wa=$($DMSETUP message ioband1 0 show | awk -v g="group=cgroup:$ida" '$1 == g { for (i = 2; i <= NF; i++) if ($i ~ /^weight=/) print substr($i, 8) }')
check "after a reload the weight is still 50 (got '$wa')" test "$wa" = 50
# Another type: the cgroups' groups stay with their cgroups, out of show
# (review N12: show listed them after "type pid"), and are back with
# "type cgroup".
check "type pid taken with no band group attached" \
	$DMSETUP message ioband1 0 type pid
shown=$($DMSETUP message ioband1 0 show | grep -c '^group=cgroup:')
check "show lists no cgroup's group after type pid ($shown)" test "$shown" = 0
$DMSETUP message ioband1 0 type cgroup
check "and /ta's again after type cgroup" \
	sh -c "$DMSETUP message ioband1 0 show | grep -q '^group=cgroup:$ida '"
finish
