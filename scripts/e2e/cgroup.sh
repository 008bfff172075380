#!/bin/bash
# Group type cgroup: attach by path and by id, descendants count to the
# nearest attached ancestor, buffered writeback counts to the cgroup that
# dirtied the pages, bad cgroups are refused, a cgroup removed while
# its bios are held loses nothing, and paths are resolved in the cgroup
# namespace of the task that sends the message.
. "$(dirname "$0")/../lib/guest.sh"
plan 36

cg_setup
cg_make A/child
cg_make B
cg_make C
echo "+io +memory" >/sys/fs/cgroup/A/cgroup.subtree_control
# /C/D: C does not enable io for its children, so D has no io css.
cg_make C/D

disk=$(nullb_create disk size=256 completion_nsec=1000000) || exit 1
sz=$(sectors "$disk")
bid=$(stat -c %i /sys/fs/cgroup/B)
t="0 $sz ioband $disk 1 0 0 cgroup weight 0 :100 /A:80 $bid:20"
check "create with a cgroup path and a cgroup id" $DMSETUP create ioband1 --table "$t"
devno=$(cat "/sys/block/${disk#/dev/}/dev")
check "table prints them as given" test "$($DMSETUP table ioband1)" = \
	"0 $sz ioband $devno 1 0 0 cgroup weight 0 :100 $bid:20 /A:80" -o \
	"$($DMSETUP table ioband1)" = "0 $sz ioband $devno 1 0 0 cgroup weight 0 :100 /A:80 $bid:20"

refused_msg() {
	if $DMSETUP message ioband1 0 "$@" 2>/dev/null; then
		check "refused: $*" false
	else
		check "refused: $*" true
	fi
}
refused_msg attach /no/such/cgroup
refused_msg attach 999999999
refused_msg attach /C/D
refused_msg attach relative/path
refused_msg attach /A
if $DMSETUP create bad --table "0 $sz ioband $disk 2 0 0 cgroup weight 0 :100 /nope:10" 2>/dev/null; then
	check "refused: table with a missing cgroup" false
else
	check "refused: table with a missing cgroup" test ! -e /dev/mapper/bad
fi

# group_sectors <group> <field>: a counter of a group in dmsetup status
# (field 3: read sectors, 6: write sectors).
group_field() {
	$DMSETUP status ioband1 | awk -v g="$1" -v f="$2" '
		{ for (i = 5; i <= NF; i += 7) if ($i == g) print $(i + f) }'
}

# 1. Direct reads from a child of /A count to /A; from / to the default.
cg_run A/child dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=64 \
	iflag=direct 2>/dev/null
check "child cgroup's reads count to /A ($(group_field /A 3) sectors)" \
	test "$(group_field /A 3)" = 512
dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=32 iflag=direct 2>/dev/null
check "root cgroup's reads count to the default group" \
	test "$(group_field -1 3)" = 256
cg_run B dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=16 \
	iflag=direct 2>/dev/null
check "reads of the cgroup attached by id count to it" \
	test "$(group_field "$bid" 3)" = 128

# 2. Buffered writes: the flusher writes them back, yet each cgroup's
# pages count to its own group.
mkfs.ext4 -q -F /dev/mapper/ioband1 && mkdir -p /mnt/t &&
	mount -t ext4 /dev/mapper/ioband1 /mnt/t
check "ext4 on the band device" mountpoint -q /mnt/t
$DMSETUP message ioband1 0 reset
cg_run A/child dd if=/dev/zero of=/mnt/t/a bs=1M count=24 2>/dev/null
cg_run B dd if=/dev/zero of=/mnt/t/b bs=1M count=8 2>/dev/null
sync
wa=$(group_field /A 6)
wb=$(group_field "$bid" 6)
wd=$(group_field -1 6)
log "# written back: /A $wa, B $wb, default (journal, metadata) $wd sectors"
check "writeback of /A/child's 24 MiB counts to /A" at_least "$wa" 49152
check "writeback of B's 8 MiB counts to B" at_least "$wb" 16384
check "... and not more than a little metadata" test "$wb" -lt 24576
sh=$($DMSETUP message ioband1 0 show)
check "show names the groups by path and by id" sh -c \
	"echo '$sh' | grep -q '^group=/A weight=80' && echo '$sh' | grep -q '^group=$bid weight=20'"
umount /mnt/t

# 3. Detach by path and by id.
check "detach by id" $DMSETUP message ioband1 0 detach "$bid"
check "detach by path" $DMSETUP message ioband1 0 detach /A
check "no band group left" test "$($DMSETUP table ioband1 | wc -w)" = 11

# 4. A cgroup removed while its bios are held.  /A at weight 1 against
# the default group keeps /A's bios waiting; /A's writer moves out and
# /A is removed with bios still held (io_limit 2 makes sure bios wait).
check "attach /A again" $DMSETUP message ioband1 0 attach /A
# limits by cgroup path, as the rst's VM example sets them
check "limits /A max=500iops (by path)" \
	$DMSETUP message ioband1 0 limits /A max=500iops
check "the table shows /A's ceiling ($($DMSETUP table ioband1 | grep -o '/A:[^ ]*'))" \
	sh -c "$DMSETUP table ioband1 | grep -q ' /A:100,max=500iops'"
check "limits /A none" $DMSETUP message ioband1 0 limits /A none
check "weight /A:1" $DMSETUP message ioband1 0 weight /A:1
check "io_limit 2" $DMSETUP message ioband1 0 io_limit 2
fio --output=/tmp/dflt.out --name=dflt --filename=/dev/mapper/ioband1 \
	--direct=1 --ioengine=libaio --iodepth=64 --rw=randread --bs=4k \
	--time_based --runtime=6 --offset=128M --size=64M &
fio_dflt=$!
cg_run A/child fio --output=/tmp/a.out --name=a --filename=/dev/mapper/ioband1 \
	--direct=1 --ioengine=libaio --iodepth=64 --rw=randwrite --bs=4k \
	--size=16M --verify=crc32c --verify_fatal=1 --do_verify=1 &
fio_a=$!
sleep 3
# Bios held for /A itself (its group's queued count), not the device
# group's total, which the default group's reader dominates.  fio may
# take seconds more to start its jobs (under QEMU's TCG): give /A's
# writer up to 10 s more to have bios held.
s=$SECONDS
held=$(wait_for 10 1 show_q ioband1 /A)
log "# /A holds ${held:-no} bios, $((SECONDS - s)) s after the first look"
for p in $(cat /sys/fs/cgroup/A/child/cgroup.procs); do
	echo "$p" >/sys/fs/cgroup/cgroup.procs
done
rmdir /sys/fs/cgroup/A/child
rc=$?
check "cgroup /A/child removed (rmdir exit $rc) while /A held $held bios" \
	test "${held:-0}" -gt 0 -a "$rc" = 0 -a ! -d /sys/fs/cgroup/A/child
wait $fio_a
check "its writer finished and verified its data" test $? = 0
wait $fio_dflt
check "the other job finished" test $? = 0
check "detach /A after its child is gone" $DMSETUP message ioband1 0 detach /A
check "rmdir /A" rmdir /sys/fs/cgroup/A

# 5. A path is resolved from the root of the cgroup namespace of the
# task that sends the message: in a namespace rooted at /N, "/E" is
# /N/E, which the root namespace does not know as /E.  The namespace is
# made by a process in /N, which then leaves /N so that /N may enable io
# for its children.
cg_make N
# (not cg_run, a function: in the background it would run in a subshell,
# and $! would not be the process that made the namespace)
sh -c 'echo $$ >/sys/fs/cgroup/N/cgroup.procs && exec unshare --cgroup sleep 60' &
nsp=$!
for _ in $(seq 1 40); do
	[ "$(readlink /proc/$nsp/ns/cgroup)" != "$(readlink /proc/self/ns/cgroup)" ] &&
		break
	sleep 0.05
done
echo "$nsp" >/sys/fs/cgroup/cgroup.procs
echo +io >/sys/fs/cgroup/N/cgroup.subtree_control
cg_make N/E
refused_msg attach /E
check "attach /E from a cgroup namespace rooted at /N" \
	nsenter --cgroup="/proc/$nsp/ns/cgroup" $DMSETUP message ioband1 0 attach /E
kill "$nsp"
wait "$nsp" 2>/dev/null
cg_run N/E dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=16 \
	iflag=direct 2>/dev/null
check "/N/E's reads count to the band group /E ($(group_field /E 3) sectors)" \
	test "$(group_field /E 3)" = 128
check "detach /E by the path as given" $DMSETUP message ioband1 0 detach /E
check "rmdir /N/E" rmdir /sys/fs/cgroup/N/E
check "remove" $DMSETUP remove ioband1
finish
