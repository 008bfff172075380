#!/bin/bash
# A table replaced while cgroups are removed (review N7): the old table's
# groups of cgroups are freed in batches of 64, with the locks dropped in
# between, while the removal of a cgroup marks its groups offline and
# looks for their nearest live ancestor.  A group must never be freed
# before its descendants' groups, or that look reads freed memory (KASAN
# in the debug UML kernel and the QEMU KASAN flavour reports it, and
# panic_on_warn fails the run).
#
# A band device of type cgroup, /rr with 100 children that each read
# once (101 groups: two batches); then, three times: the table reloaded
# and resumed while a second process removes the children.  The window
# is short: this test exercises the path, and it found the bug only with
# an msleep() put in the window (Documentation/testing.md, "Failing
# first").
. "$(dirname "$0")/../lib/guest.sh"
plan 7

CG=/sys/fs/cgroup
N=100
cg_setup || exit 1
cg_make rr || exit 1
echo "+io" >$CG/rr/cgroup.subtree_control || exit 1
disk=$(nullb_create disk size=64 completion_nsec=10000) || exit 1
sz=$(sectors "$disk")
check "create a band device of type cgroup" dm_create ioband1 \
	"0 $sz ioband $disk 1 0 0 cgroup weight 0 :100"

# read_in <cgroup dirs...>: one process moves into each in turn and
# reads 4 KiB there (O_DIRECT), then back to the root cgroup.
read_in() {
	python3 - /dev/mapper/ioband1 "$@" <<'EOF'
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 4096)
for d in sys.argv[2:]:
    with open(d + "/cgroup.procs", "w") as f:
        f.write(str(os.getpid()))
    os.preadv(fd, [buf], 0)
with open("/sys/fs/cgroup/cgroup.procs", "w") as f:
    f.write(str(os.getpid()))
EOF
}
groups() { $DMSETUP message ioband1 0 show | grep -c '^group=cgroup:'; }
children() { find $CG/rr -mindepth 1 -maxdepth 1 -type d | wc -l; }

for round in 1 2 3; do
	dirs=()
	for i in $(seq 1 $N); do
		mkdir "$CG/rr/c$i" || exit 1
		dirs+=("$CG/rr/c$i")
	done
	read_in "${dirs[@]}"
	g=$(groups)
	$DMSETUP table ioband1 >/tmp/rr.table
	$DMSETUP load ioband1 /tmp/rr.table || exit 1
	# The children go, newest first, while the old table is destroyed.
	(for ((i = N; i >= 1; i--)); do rmdir "$CG/rr/c$i"; done) &
	rp=$!
	$DMSETUP resume ioband1
	rc=$?
	# how far the removals had got when the old table was gone: the
	# overlap this round had (none if 0 or $N)
	measure "round $round: children left when resume returned" \
		"$(children) of $N"
	wait $rp
	left=$(children)
	check "round $round: $g groups of cgroups made, the table replaced while the $N children were removed (resume exit $rc, $left left)" \
		test "$g" -ge $((N + 1)) -a "$rc" = 0 -a "$left" = 0
	# A device left suspended would block the next round's reads.
	[ "$rc" = 0 ] || { $DMSETUP resume ioband1; break; }
done
check "the band device still reads" \
	dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=16 iflag=direct status=none
cg_dying_gone rr 20
check "nr_dying_descendants of /rr back to 0 ($(cg_dying rr))" test "$(cg_dying rr)" = 0
check "remove the band device" $DMSETUP remove ioband1
MADE_DM=()
finish
