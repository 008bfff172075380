#!/bin/bash
# The weight-iosize policy end to end, with bios of two sizes through the
# target: one band device of type cgroup, two cgroups at equal weights,
# /ws reading 4 KiB at a time and /wl 64 KiB, on a disk that serves a bio
# of either size in the same time (8 tags x 20 ms: 400 a second).  Under
# weight-iosize each bio is charged its sectors, so the two read as many
# bytes (/wl 1 bio for /ws's 16); under weight, in the same run, each bio
# costs one, so they complete as many bios and /wl gets 16 times the
# bytes (the failing case of the first check: 94 % of the sectors).
# Over the 4 s window /wl got 49.9 % of the sectors in the debug UML
# kernel and 50.4 % in the QEMU guest (52.6 to 54.0 % over each fio's
# whole run, which the two start apart; the simulator, this load on 8
# tags: 50.0): the check asks 50 within 8, the precise one is KUnit's.
# The band device sits on the disk itself, whose tags it reads: on
# dm-linear slices of it, whose tags it must find, /wl got 56.8 and
# 60.2 % of the sectors (2026-12-04, the worker waiting for tags 1,171
# times; Documentation/known-limits.md).
. "$(dirname "$0")/../lib/guest.sh"
plan 6

cg_setup || exit 1
cg_make ws || exit 1
cg_make wl || exit 1
disk=$(nullb_create disk size=256 memory_backed=0 completion_nsec=20000000) ||
	exit 1
check "create a band device of type cgroup, policy weight-iosize" \
	dm_create ioband1 "0 $(sectors "$disk") ioband $disk 4 0 0 cgroup weight-iosize 0 :100"
band=/dev/mapper/ioband1
majmin=$(dm_majmin ioband1)

# run: random reads, 16 in flight in each cgroup, measured over 4 s
# once both have read (fio may start one job seconds after the other in
# a TCG guest); prints "<ws bios> <ws sectors> <wl bios> <wl sectors>"
# (io.stat of the band device at the window's ends).
run() {
	local a0 b0 a1 b1 p1 p2
	a0=$(io_of ws) b0=$(io_of wl)
	cg_run ws fio --ioengine=libaio --direct=1 --rw=randread --iodepth=16 \
		--runtime=20 --time_based --name=s --bs=4k --filename=$band \
		--output=/tmp/ws.out &
	p1=$!
	cg_run wl fio --ioengine=libaio --direct=1 --rw=randread --iodepth=16 \
		--runtime=20 --time_based --name=l --bs=64k --filename=$band \
		--output=/tmp/wl.out &
	p2=$!
	wait_for 10 1 read_since ws "${a0%% *}" >/dev/null
	wait_for 10 1 read_since wl "${b0%% *}" >/dev/null
	sleep 1
	a0=$(io_of ws) b0=$(io_of wl)
	sleep 4
	a1=$(io_of ws) b1=$(io_of wl)
	kill $p1 $p2 2>/dev/null
	wait
	echo "$a0 $a1 $b0 $b1" | awk '{ print $3 - $1, $4 - $2, $7 - $5, $8 - $6 }'
}
# read_since <cgroup> <rios>: 1 once the cgroup read more than <rios>
read_since() { io_of "$1" | awk -v n="$2" '{ print ($1 > n) }'; }
# io_of <cgroup>: "<rios> <read sectors>" of its io.stat on the band device
io_of() {
	awk -v d="$majmin" \
		'$1 == d { for (i = 2; i <= NF; i++) { split($i, kv, "=")
			if (kv[1] == "rios") n = kv[2]; if (kv[1] == "rbytes") b = kv[2] } }
		END { printf "%d %d", n, b / 512 }' "/sys/fs/cgroup/$1/io.stat"
}
# pct <part> <other>: part's share of the two, in per cent (one decimal)
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + b) printf "%.1f", 100 * a / (a + b) }'; }

read -r b1 s1 b2 s2 <<<"$(run)"
log "weight-iosize: /ws $b1 bios $s1 sectors, /wl $b2 bios $s2 sectors"
log "show: $($DMSETUP message ioband1 0 show | head -1)"
check "weight-iosize: both read ($b1 and $b2 bios)" test "${b1:-0}" -gt 0 -a "${b2:-0}" -gt 0
p=$(pct "$s2" "$s1")
check "weight-iosize: /wl (64 KiB) has $p % of the sectors (50, within 8)" \
	within "$p" 50 8
p=$(pct "$b2" "$b1")
check "weight-iosize: and $p % of the bios (1 in 17 is 5.9; at most 12)" \
	in_range "$p" 0 12

check "policy weight" $DMSETUP message ioband1 0 policy weight
read -r b1 s1 b2 s2 <<<"$(run)"
log "weight: /ws $b1 bios $s1 sectors, /wl $b2 bios $s2 sectors"
p=$(pct "$b2" "$b1")
check "weight: /wl (64 KiB) has $p % of the bios (50, within 8)" \
	within "$p" 50 8
finish
