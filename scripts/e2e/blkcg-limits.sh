#!/bin/bash
# dm-ioband as a blk-cgroup policy: io.ioband.limits (floors and ceilings
# per cgroup and band device, in io.max's line format) and dm-ioband's
# counters in io.stat, on a band device of type cgroup with no attach:
# ceilings in I/Os and bytes, a floor in bytes, io.stat's own bios only
# (not a child's) and with group type none, and the files and the table
# kept apart.
. "$(dirname "$0")/../lib/guest.sh"
plan 30

CG=/sys/fs/cgroup
cg_setup || exit 1
cg_make ta || exit 1
cg_make tb || exit 1
disk=$(nullb_create disk size=64 blocksize=512) || exit 1
sz=$(sectors "$disk")
check "create a band device of type cgroup, no band groups" dm_create ioband1 \
	"0 $sz ioband $disk 1 0 0 cgroup weight 0 :100"
band=$(dm_majmin ioband1)
table0=$($DMSETUP table ioband1)
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

# fio_json <file> <field>: the first job's read <field>; bw in KiB/s
# with a decimal (from bw_bytes: fio's own bw is whole KiB/s, cut down).
fio_json() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
print("%.1f" % (r["bw_bytes"] / 1024 if sys.argv[2] == "bw" else r[sys.argv[2]]))' \
		"$1" "$2" 2>/dev/null
}

# A ceiling in bytes: 409,600 bytes a second (400 KB/s, 100 reads of 4 KiB).
check "'$band max_iops=max max_bps=409600' is taken" \
	sh -c "echo '$band max_iops=max max_bps=409600' > $L"
cg_run ta fio --name=ta --filename=/dev/mapper/ioband1 --direct=1 \
	--rw=randread --bs=4k --iodepth=8 --ioengine=libaio --runtime=5 \
	--time_based --output-format=json --output=/tmp/tb.json >/dev/null 2>&1
bw=$(fio_json /tmp/tb.json bw)
check "/ta read $bw KB/s, within 20 of its ceiling of 400" within "$bw" 400 20
# Bytes are taken in KB/s, ceilings rounded down and at least 1 KB/s:
# max_bps=3000 is a ceiling of 2 KB/s (3 if rounded up), max_bps=100 one
# of 1 KB/s (none if rounded down to 0).  Reads of 512 bytes for 5 s.
fio_small() {
	rm -f /tmp/tb.json
	cg_run ta fio --name=ta --filename=/dev/mapper/ioband1 --direct=1 \
		--rw=randread --bs=512 --iodepth=4 --ioengine=libaio --runtime=5 \
		--time_based --output-format=json --output=/tmp/tb.json >/dev/null 2>&1
	fio_json /tmp/tb.json bw
}
echo "$band min_bps=0 max_bps=3000" >$L || log "max_bps=3000 refused"
bw=$(fio_small)
check "max_bps=3000: /ta read $bw KB/s, a ceiling of 2 KB/s (within 0.4)" within "$bw" 2 0.4
echo "$band max_bps=100" >$L || log "max_bps=100 refused"
bw=$(fio_small)
check "max_bps=100: /ta read $bw KB/s, a ceiling of 1 KB/s (within 0.4)" within "$bw" 1 0.4
check "max_bps=max drops it" sh -c "echo '$band max_bps=max' > $L"

# The files never change the table, and dmsetup never changes the files.
check "the writes above left the table as it was" \
	test "$($DMSETUP table ioband1)" = "$table0"
echo "$band max_iops=300" >$L
echo "$band 700" >$CG/ta/io.ioband.weight
f0=$(cat $L $CG/ta/io.ioband.weight)
$DMSETUP message ioband1 0 weight :300
$DMSETUP message ioband1 0 limits default max=50iops
check "the default group's weight and limits changed by message, /ta's files did not" \
	test "$(cat $L $CG/ta/io.ioband.weight)" = "$f0"
$DMSETUP message ioband1 0 limits default none
$DMSETUP message ioband1 0 weight :100
echo "$band default" >$CG/ta/io.ioband.weight
echo "$band max_iops=max" >$L

# A floor in bytes: /ta at weight 1 with min_bps of 2 MiB a second (512
# reads of 4 KiB, a quarter of the disk's 2,000) against /tb at weight
# 1,000, both with 8 reads in flight.  By its weight alone /ta would get
# 0.1 %.
echo "$band 1" >$CG/ta/io.ioband.weight
echo "$band 1000" >$CG/tb/io.ioband.weight
check "'$band min_bps=2097152' is taken" sh -c "echo '$band min_bps=2097152' > $L"
fio_cg() {
	cg_run "$1" fio --name="$1" --filename=/dev/mapper/ioband1 --direct=1 \
		--rw=randread --bs=4k --iodepth=8 --ioengine=libaio --runtime=5 \
		--time_based --output-format=json --output="/tmp/$1.json" \
		>/dev/null 2>&1
}
fio_cg ta & p1=$!
fio_cg tb & p2=$!
wait $p1 $p2
bwa=$(fio_json /tmp/ta.json bw) bwb=$(fio_json /tmp/tb.json bw)
check "/ta (weight 1) read $bwa KB/s against /tb's $bwb: its floor of 2,048 (10 % slack)" \
	at_least "$bwa" 1843
echo "$band min_bps=0" >$L
echo "$band default" >$CG/ta/io.ioband.weight
echo "$band default" >$CG/tb/io.ioband.weight

# dispatched <cgroup> <maj:min>: the cgroup's ioband.dispatched for that
# band device in its io.stat (empty if none).
dispatched() {
	grep "^$2 " "$CG/$1/io.stat" | tr ' ' '\n' | sed -n 's/^ioband.dispatched=//p'
}

# io.stat counts a cgroup's own bios, not its children's.
echo +io >$CG/ta/cgroup.subtree_control
cg_make ta/kid || exit 1
dta=$(dispatched ta "$band")
cg_run ta/kid dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=100 iflag=direct 2>/dev/null
dkid=$(dispatched ta/kid "$band")
dta2=$(dispatched ta "$band")
check "/ta/kid's 100 reads are in its io.stat ($dkid), not in /ta's ($dta -> $dta2)" \
	test "${dkid:-0}" = 100 -a "$dta2" = "$dta"

# With group type none the files are not used, and io.stat still counts.
disk2=$(nullb_create disk2 size=16) || exit 1
check "a band device of type none" dm_create ioband2 \
	"0 $(sectors "$disk2") ioband $disk2 2 0 0 none weight 0 :100"
band2=$(dm_majmin ioband2)
cg_run tb dd if=/dev/mapper/ioband2 of=/dev/null bs=4k count=50 iflag=direct 2>/dev/null
d2=$(dispatched tb "$band2")
check "type none: /tb's 50 reads counted in its io.stat ($d2)" test "${d2:-0}" = 50
check "remove ioband2" $DMSETUP remove ioband2
echo "$band min_bps=4096 max_iops=100" >$L

check "'max' drops the ceiling" sh -c "echo '$band max_iops=max' > $L &&
	grep -qx '$band min_iops=0 min_bps=4096 max_iops=max max_bps=max' $L"
check "no limit left: no line" sh -c "echo '$band min_bps=0' > $L && test ! -s $L"
st=$(grep "^$band " $CG/ta/io.stat)
h=$(key ioband.held)
cg_run ta dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=200 iflag=direct 2>/dev/null
st=$(grep "^$band " $CG/ta/io.stat)
h2=$(key ioband.held)
log "io.stat of /ta: $st"
check "without the ceiling, 200 more bios pass unheld (held $h -> $h2)" \
	test "$h2" = "$h"
finish
