#!/bin/bash
# dm-ioband as a blk-cgroup policy: a cgroup that is attached to a band
# device of type cgroup (table or message) is scheduled with the weight
# and limits dmsetup gave it, whatever its io.ioband.* files say, and so
# are its descendants; once detached, by the files again.
. "$(dirname "$0")/../lib/guest.sh"
plan 11

CG=/sys/fs/cgroup
cg_setup || exit 1
cg_make ta || exit 1
cg_make tp/sub || exit 1
echo "+io +memory" >$CG/tp/cgroup.subtree_control || exit 1
disk=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$disk")
check "create a band device of type cgroup with /ta:40 and /tp:20 in its table" \
	dm_create ioband1 "0 $sz ioband $disk 1 0 0 cgroup weight 0 :100 /ta:40 /tp:20"
band=$(dm_majmin ioband1)
ida=$(stat -c %i $CG/ta)
ids=$(stat -c %i $CG/tp/sub)
echo "$band 300" >$CG/ta/io.ioband.weight
echo 250 >$CG/tp/io.ioband.weight
echo 500 >$CG/tp/sub/io.ioband.weight
field() { # field <show line's group> <key>
	$DMSETUP message ioband1 0 show | awk -v g="group=$1" -v k="$2=" '$1 == g {
		for (i = 2; i <= NF; i++) if (index($i, k) == 1) print substr($i, length(k) + 1) }'
}
io() { cg_run "$1" dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count="$2" iflag=direct 2>/dev/null; }

io ta 16
io tp/sub 16
check "attached /ta keeps the table's weight 40, not its file's 300 (got '$(field /ta weight)')" \
	test "$(field /ta weight)" = 40
check "its 16 bios went to its band group (dispatched '$(field /ta dispatched)')" \
	test "$(field /ta dispatched)" = 16
check "/tp/sub's 16 bios went to attached /tp's group (dispatched '$(field /tp dispatched)')" \
	test "$(field /tp dispatched)" = 16
check "no group of their own by io.ioband.weight" \
	sh -c "! $DMSETUP message ioband1 0 show | grep -q 'group=cgroup:'"
check "the message 'weight /ta:60' sets /ta's weight" ib_msg ioband1 weight /ta:60
io ta 1
check "to 60 (got '$(field /ta weight)')" test "$(field /ta weight)" = 60
check "detach /ta and /tp" sh -c "$DMSETUP message ioband1 0 detach /ta &&
	$DMSETUP message ioband1 0 detach /tp"
io ta 16
io tp/sub 16
check "detached, /ta is weighed by its file: 300 (got '$(field "cgroup:$ida" weight)')" \
	test "$(field "cgroup:$ida" weight)" = 300
# /tp/sub alone under /tp: /tp's whole share, 250.
check "and /tp/sub by /tp's share: 250 (got '$(field "cgroup:$ids" weight)')" \
	test "$(field "cgroup:$ids" weight)" = 250
check "io.stat counts /ta's bios whatever group took them (33)" \
	grep -q "^$band .*ioband.dispatched=33 " $CG/ta/io.stat
finish
