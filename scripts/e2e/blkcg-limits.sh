#!/bin/bash
# dm-ioband as a blk-cgroup policy: io.ioband.limits (floors and ceilings
# per cgroup and band device, in io.max's line format) and dm-ioband's
# counters in io.stat, on a band device of type cgroup with no attach.
. "$(dirname "$0")/../lib/guest.sh"
plan 17

CG=/sys/fs/cgroup
cg_setup || exit 1
cg_make ta || exit 1
cg_make tb || exit 1
disk=$(nullb_create disk size=64) || exit 1
sz=$(sectors "$disk")
check "create a band device of type cgroup, no band groups" dm_create ioband1 \
	"0 $sz ioband $disk 1 0 0 cgroup weight 0 :100"
band=$(dm_majmin ioband1)
below=$(cat /sys/block/"$(basename "$disk")"/dev)
L=$CG/ta/io.ioband.limits

check "io.ioband.limits exists and is empty" test -f $L -a ! -s $L
check "'$band max_iops=100' is taken" sh -c "echo '$band max_iops=100' > $L"
check "and listed in io.max's way" \
	grep -qx "$band min_iops=0 min_bps=0 max_iops=100 max_bps=max" $L
check "a floor above the ceiling is refused" \
	sh -c "! echo '$band min_iops=200' > $L 2>/dev/null"
check "an unknown key is refused" sh -c "! echo '$band foo=1' > $L 2>/dev/null"
check "a ceiling of 0 is refused" \
	sh -c "! echo '$band max_bps=0' > $L 2>/dev/null"
check "a disk that is no band device is refused" \
	sh -c "! echo '$below max_iops=10' > $L 2>/dev/null"
check "keys not given keep their value" sh -c "echo '$band min_bps=4096' > $L &&
	grep -qx '$band min_iops=0 min_bps=4096 max_iops=100 max_bps=max' $L"

# The ceiling holds: 100 I/Os per second for /ta, 5 s of random reads.
cg_run ta fio --name=ta --filename=/dev/mapper/ioband1 --direct=1 \
	--rw=randread --bs=4k --iodepth=8 --ioengine=libaio --runtime=5 \
	--time_based --output-format=json --output=/tmp/ta.json >/dev/null 2>&1
iops=$(python3 -c 'import json
j = json.load(open("/tmp/ta.json"))
print("%.1f" % j["jobs"][0]["read"]["iops"])' 2>/dev/null)
ios=$(python3 -c 'import json
j = json.load(open("/tmp/ta.json"))
print(j["jobs"][0]["read"]["total_ios"])' 2>/dev/null)
check "/ta read $iops I/Os per second, within 5 of its ceiling of 100" \
	within "$iops" 100 5

# io.stat: the cgroup's bios through dm-ioband, the held ones, time held.
st=$(grep "^$band " $CG/ta/io.stat)
log "io.stat of /ta: $st"
key() { echo "$st" | tr ' ' '\n' | awk -F= -v k="$1" '$1 == k { print $2 }'; }
d=$(key ioband.dispatched) h=$(key ioband.held) hu=$(key ioband.held_us)
check "io.stat counts /ta's $ios bios as dispatched (got '$d')" test "$d" = "$ios"
check "and most of them as held ($h)" at_least "${h:-0}" $((ios / 2))
check "and the time held ($hu us)" at_least "${hu:-0}" 1000000
# /tb has no limits and no bios here: no counters either.
check "/tb's io.stat has no ioband counters" \
	sh -c "! grep -q '^$band .*ioband.dispatched=[1-9]' $CG/tb/io.stat"

check "'max' drops the ceiling" sh -c "echo '$band max_iops=max' > $L &&
	grep -qx '$band min_iops=0 min_bps=4096 max_iops=max max_bps=max' $L"
check "no limit left: no line" sh -c "echo '$band min_bps=0' > $L && test ! -s $L"
cg_run ta dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=200 iflag=direct 2>/dev/null
st=$(grep "^$band " $CG/ta/io.stat)
h2=$(key ioband.held)
log "io.stat of /ta: $st"
check "without the ceiling, 200 more bios pass unheld (held $h -> $h2)" \
	test "$h2" = "$h"
finish
