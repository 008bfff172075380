#!/bin/bash
# Throughput on SMP and the pool lock's contention, in the QEMU guest
# (scripts/qemu/run.sh -f lockstat -s 4): a null_blk with one submission
# queue per CPU that completes in softirq with no delay (the CPUs are the
# limit), fio 4 KiB random reads O_DIRECT at depth 32 with one job per CPU
# on each device, in turns.  dm-linear and dm-ioband sit directly on two
# such null_blk devices, so that both sides have one device-mapper layer
# (scripts/experiments/overhead.sh does the same in UML):
#   linear1 / ioband1   dm-linear / a band device on the first null_blk
#   linear2 / ioband2   dm-linear on each / a band device on each, of one
#                       device group, at weights 3:1
# ROUNDS rounds of RUNTIME s each; prints every run's IOPS and the median
# ratio of each pair.  With CONFIG_LOCK_STAT (the lockstat flavour),
# /proc/lock_stat is read and cleared after every run: a "lock:" line per
# round gives each run's acquisitions of the pool lock per I/O (the
# dm-linear runs' should be none: they check that the count is
# dm-ioband's), and the last contended run's lines for the pool lock give
# the contentions, the wait times and the longest hold, which is also the
# longest stretch with interrupts off that the lock makes.  PERF_IO_LIMIT=N gives the
# band devices a fixed io_limit (the lockless path is then off).  A
# measurement, not a test.
. "$(dirname "$0")/../../lib/guest.sh"

runtime=${PERF_RUNTIME:-5}
lim=${PERF_IO_LIMIT:-0}		# the band devices' io_limit (0: automatic)
rounds=${PERF_ROUNDS:-3}
ncpu=$(nproc)
modprobe null_blk nr_devices=0 2>/dev/null
modprobe dm-ioband 2>/dev/null
log "# $ncpu CPUs, $rounds rounds of ${runtime}s"

for n in 1 2; do
	eval "disk$n=\$(nullb_create perf$n size=1024 memory_backed=0 irqmode=1 \
		completion_nsec=0 hw_queue_depth=256 submit_queues=$ncpu)" ||
		exit 1
done
sz=$(sectors "$disk1")
dm_create lin1 "0 $sz linear $disk1 0" || exit 1
dm_create lin2 "0 $sz linear $disk2 0" || exit 1
dm_create ib1 "0 $sz ioband $disk1 1 0 $lim none weight 0 :300" || exit 1
dm_create ib2 "0 $sz ioband $disk2 1 0 $lim none weight 0 :100" || exit 1
dm_create ibu "0 $sz ioband $disk1 2 0 $lim none weight 0 :100" || exit 1

# iops <dev...>: total read IOPS of fio, one job per CPU on each device.
iops() {
	local d args=()
	for d in "$@"; do
		args+=(--name="${d##*/}" --filename="$d" --numjobs="$ncpu")
	done
	fio --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=32 \
		--runtime="$runtime" --time_based --group_reporting \
		--output-format=terse --terse-version=3 "${args[@]}" \
		>/tmp/perf.terse || return 1
	awk -F';' '{ s += $8 } END { printf "%.0f\n", s }' /tmp/perf.terse
}

# The pool lock's acquisitions since the last call, per I/O of a run of
# $1 IOPS (the acquisitions of every lock class named pool->lock: the
# other users of that name, mempools, take theirs only under memory
# pressure); "-" without CONFIG_LOCK_STAT.
have_ls=0
[ -w /proc/lock_stat ] && echo 1 >/proc/sys/kernel/lock_stat && have_ls=1
lockacq() {
	[ $have_ls = 1 ] || { echo -; return; }
	awk -v iops="$1" -v t="$runtime" '
		$1 ~ /^&pool->lock(#[0-9]+)?:$/ { a += $9 }
		END { printf "%d (%.2f per I/O)\n", a, iops ? a / (iops * t) : 0 }' /proc/lock_stat
	echo 0 >/proc/lock_stat
}
: >/tmp/perf.u
: >/tmp/perf.c
for r in $(seq 1 "$rounds"); do
	[ $have_ls = 1 ] && echo 0 >/proc/lock_stat
	l1=$(iops /dev/mapper/lin1) || exit 1
	a1=$(lockacq "$l1")
	i1=$(iops /dev/mapper/ibu) || exit 1
	b1=$(lockacq "$i1")
	l2=$(iops /dev/mapper/lin1 /dev/mapper/lin2) || exit 1
	a2=$(lockacq "$l2")
	i2=$(iops /dev/mapper/ib1 /dev/mapper/ib2) || exit 1
	[ "$r" = "$rounds" ] && [ $have_ls = 1 ] && cp /proc/lock_stat /tmp/perf.ls
	b2=$(lockacq "$i2")
	log "show after the contended run: $($DMSETUP message ib1 0 show | head -1)"
	log "round $r: uncontended linear $l1 ioband $i1; contended linear $l2 ioband $i2"
	[ $have_ls = 1 ] &&
		log "lock: pool lock acquisitions in round $r: uncontended linear $a1 ioband $b1; contended linear $a2 ioband $b2"
	echo "$l1 $i1" >>/tmp/perf.u
	echo "$l2 $i2" >>/tmp/perf.c
done
med() {
	awk '{ print $2 / $1 }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { printf "%.1f%%\n", 100 * v[int((NR + 1) / 2)] }'
}
log "uncontended (1 band device, $ncpu jobs): median ratio to dm-linear $(med /tmp/perf.u)"
log "contended (2 band devices 3:1, $ncpu jobs each): median ratio to dm-linear $(med /tmp/perf.c)"
if [ $have_ls = 1 ]; then
	log "# /proc/lock_stat during the last contended run: header and pool lock"
	grep -m1 'class name' /tmp/perf.ls
	grep -A3 'pool->lock' /tmp/perf.ls | head -12
else
	log "# no /proc/lock_stat (CONFIG_LOCK_STAT off in this flavour)"
fi
exit 0
