#!/bin/bash
# Seed 000 test #1 in the QEMU guest (scripts/qemu/run.sh), on the disk the
# 2008 seed used: three band devices ioband1-3 on /dev/sdb5, sdb6, sdb7 in
# device group 1, weights 40/20/10, fio-jobs/seed000-test1.fio (4 KiB random
# read/write O_DIRECT, 128 in flight on each) against the QEMU-throttled
# disk.  Then the module's life cycle: rmmod is refused while band devices
# exist, and modprobe / band device / rmmod in a loop leaves nothing behind.
#
#   seed000.sh [--runtime S] [--tolerance POINTS] [--loops N] [--disk DEV]
#
# --disk DEV (default /dev/sdb) uses DEV5, DEV6, DEV7.  fio WRITES to them:
# outside the QEMU guest, give only a disk whose data you can lose.  The
# last steps unload dm_ioband and dm_mod, which fails (and is counted) on
# a machine where other device-mapper devices exist.
#
# Shares are counted from "dmsetup status" (reads + writes of each band
# device) over RUNTIME seconds of the run, after a warm-up: under TCG the
# three fio jobs start seconds apart.  Prints "N passed, M failed" last;
# exits non-zero on any failure.
. "$(dirname "$0")/../../lib/guest.sh"

runtime=20
tol=2
loops=5
disk=/dev/sdb
warmup=5
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=$2; shift ;;
	--tolerance) tol=$2; shift ;;
	--loops) loops=$2; shift ;;
	--disk) disk=$2; shift ;;
	*) echo "unknown argument $1"; exit 2 ;;
	esac
	shift
done
weights=(40 20 10)
expect=(57.1 28.6 14.3)
parts=("${disk}5" "${disk}6" "${disk}7")

done_() {
	log "$CHECKS_PASSED passed, $CHECKS_FAILED failed"
	[ "$CHECKS_FAILED" = 0 ]
	exit
}

module_loaded() { lsmod | grep -q '^dm_ioband '; }
module_gone() { ! lsmod | grep -q '^dm_ioband ' && [ ! -d /sys/module/dm_ioband ]; }
no_rescuer() { ! cat /proc/[0-9]*/comm 2>/dev/null | grep -q '^kioband'; }
no_ioband_slab() { [ ! -r /proc/slabinfo ] || ! grep -q ioband /proc/slabinfo; }
no_bands() { ! $DMSETUP ls 2>/dev/null | grep -q ioband; }

log "# kernel $(uname -r), $(nproc) CPUs, disk $disk throttled to ${IOBAND_IOPS:-?} IOPS"
for p in "${parts[@]}"; do
	check "$p exists" test -b "$p"
done
[ "$CHECKS_FAILED" = 0 ] || done_

# kmemleak (lockdep, KASAN, KCSAN flavours): forget the boot's, scan at the end.
kmemleak_begin

check "modprobe dm-ioband" modprobe dm-ioband
check "dm_ioband in lsmod" module_loaded

for i in 1 2 3; do
	p=${parts[$((i - 1))]}
	check "create ioband$i on $p, weight ${weights[$((i - 1))]}" \
		dm_create "ioband$i" "0 $(sectors "$p") ioband $p 1 0 0 none weight 0 :${weights[$((i - 1))]}"
done
[ "$CHECKS_FAILED" = 0 ] || done_
for i in 1 2 3; do
	log "table ioband$i: $($DMSETUP table ioband$i)"
done

# ios <n>: reads + writes of band device ioband<n> so far.
ios() {
	set -- $($DMSETUP status "ioband$1")
	echo $(($6 + $9))
}

log "# fio-jobs/seed000-test1.fio on ioband1-3, ${warmup}s warm-up, ${runtime}s measured"
DEV1=/dev/mapper/ioband1 DEV2=/dev/mapper/ioband2 DEV3=/dev/mapper/ioband3 \
	RUNTIME=$((warmup + runtime + 15)) IODEPTH=128 \
	fio --output=/tmp/fio.out "$GTOP/fio-jobs/seed000-test1.fio" >/dev/null 2>/tmp/fio.err &
fio_pid=$!
# Warm-up: until all three have I/O going, at least $warmup s.
sleep "$warmup"
for _ in $(seq 30); do
	[ "$(ios 3)" -gt 0 ] && [ "$(ios 2)" -gt 0 ] && [ "$(ios 1)" -gt 0 ] && break
	sleep 1
done
declare -a a b
for i in 1 2 3; do a[$i]=$(ios $i); done
t0=$(date +%s)
last=0
while :; do
	sleep 1
	t=$(($(date +%s) - t0))
	[ "$t" -ge "$runtime" ] && break
	kill -0 $fio_pid 2>/dev/null || break
	[ $((t / 5)) -gt "$last" ] || continue
	last=$((t / 5))
	log "# t=${t}s: $(($(ios 1) - a[1]))/$(($(ios 2) - a[2]))/$(($(ios 3) - a[3])) I/Os"
done
for i in 1 2 3; do b[$i]=$(ios $i); done
elapsed=$(($(date +%s) - t0))
check "fio ran to the end of the measurement" kill -0 $fio_pid 2>/dev/null
wait $fio_pid
fio_rc=$?
check "fio exited 0" test $fio_rc = 0
[ "$fio_rc" = 0 ] || { tail -5 /tmp/fio.err; tail -20 /tmp/fio.out; } 2>/dev/null
grep -E '^ +(read|write):|IOPS=' /tmp/fio.out 2>/dev/null | head -6
for i in 1 2 3; do
	log "status ioband$i: $($DMSETUP status ioband$i)"
done

sum=0
for i in 1 2 3; do
	d[$i]=$((b[i] - a[i]))
	sum=$((sum + d[i]))
done
share() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) b = 1; printf "%.1f", 100 * a / b }'; }
log ""
log "seed 000 test #1 on ${disk}5-7 (QEMU ${IOBAND_IOPS:-?} IOPS), ${elapsed}s:"
log "  device   weight  expected  I/Os   share"
for i in 1 2 3; do
	s[$i]=$(share "${d[$i]}" $sum)
	printf '  ioband%d  %6d  %7s%%  %5d  %5s%%\n' $i "${weights[$((i - 1))]}" \
		"${expect[$((i - 1))]}" "${d[$i]}" "${s[$i]}"
done
log "  total $sum I/Os, $(awk -v n=$sum -v t="$elapsed" 'BEGIN { printf "%.0f", n / (t ? t : 1) }') IOPS"
log "seed (2008, sdb5/6/7, 60 s): 6640/3434/1689 I/Os = 56.4/29.2/14.4 %"
for i in 1 2 3; do
	check "ioband$i share ${s[$i]} within $tol of ${expect[$((i - 1))]}" \
		within "${s[$i]}" "${expect[$((i - 1))]}" "$tol"
done

# Life cycle: dm-mod holds a reference on the target's module while a
# table uses it.
if rmmod dm_ioband 2>/tmp/rmmod.err; then
	check "rmmod dm_ioband refused while band devices exist" false
	modprobe dm-ioband
else
	log "rmmod: $(cat /tmp/rmmod.err)"
	check "rmmod dm_ioband refused while band devices exist" module_loaded
fi
for i in 3 2 1; do
	check "remove ioband$i" $DMSETUP remove "ioband$i"
done
MADE_DM=()
check "no band device left" no_bands
check "rmmod dm_ioband" rmmod dm_ioband
check "dm_ioband gone" module_gone
check "no kioband rescuer thread left" no_rescuer
check "no ioband slab cache left" no_ioband_slab

ok=1
for n in $(seq 1 "$loops"); do
	modprobe dm-ioband || { log "loop $n: modprobe failed"; ok=0; break; }
	$DMSETUP create ioband1 --table "0 $(sectors ${parts[0]}) ioband ${parts[0]} 1 0 0 none weight 0 :40" ||
		{ log "loop $n: create failed"; ok=0; break; }
	dd if=/dev/mapper/ioband1 of=/dev/null bs=4k count=16 iflag=direct 2>/dev/null ||
		{ log "loop $n: read failed"; ok=0; }
	$DMSETUP remove ioband1 || { log "loop $n: remove failed"; ok=0; break; }
	rmmod dm_ioband || { log "loop $n: rmmod failed"; ok=0; break; }
	module_gone || { log "loop $n: dm_ioband still loaded"; ok=0; break; }
done
check "$loops x (modprobe, create, read, remove, rmmod)" test $ok = 1
check "after the loop: dm_ioband gone" module_gone
check "after the loop: no band device" no_bands
check "after the loop: no kioband thread" no_rescuer
check "after the loop: no ioband slab cache" no_ioband_slab
check "rmmod dm_mod" rmmod dm_mod

if kmemleak_wanted; then
	check "kmemleak: nothing leaked (no unreferenced object)" \
		kmemleak_none /tmp/kmemleak
else
	log "kmemleak: not in the $IOBAND_FLAVOUR kernel"
fi
check "dmesg has no dm-ioband error" sh -c '! dmesg | grep -i "ioband" | grep -qi -e error -e fail'
dmesg | grep -i ioband | tail -5 | sed 's/^/dmesg: /'
# KCSAN flavour: its counters show that it was watching.
[ -r /sys/kernel/debug/kcsan ] && sed 's/^/kcsan: /' /sys/kernel/debug/kcsan | head -12
done_
