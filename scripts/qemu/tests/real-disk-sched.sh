#!/bin/bash
# qemu-userland: e2e
# qemu-time-limit: 600
# What the CPUs of the QEMU guest do per I/O (issue 25): the load of
# real-disk.sh (two devices on /dev/sdb5 and sdb6, fio 4 KiB random reads
# at depth DEPTH each) on dm-linear, then on two band devices at 3:1 with
# io_limit LIMIT (0: the estimate), and for two seconds of each run the
# scheduler's, workqueue's, hrtimer's and interrupt events counted by
# task or function, per I/O.  Boot it with the data disk not throttled:
#
#   scripts/qemu/run.sh -f perf -i 0 scripts/qemu/tests/real-disk-sched.sh [LIMIT [DEPTH]]
#
# Run it in its own boot, near a run of real-disk.sh (whose busy% and
# context switches per I/O columns say how much): this says where they
# come from (the dispatcher's worker, ioband_dispatch_work, and the
# switches to and from it).  The counts are per read completed on the
# two devices in the traced seconds.
. "$(dirname "$0")/../../lib/guest.sh"

lim=${1:-0}
depth=${2:-32}
parts=(/dev/sdb5 /dev/sdb6)
tr=/sys/kernel/tracing
events="sched/sched_switch workqueue/workqueue_execute_start
timer/hrtimer_expire_entry irq/irq_handler_entry"
modprobe dm-ioband

# run <prefix>: 10 s of load on <prefix>1 and <prefix>2, traced from the
# fourth second to the sixth; prints the counts.
run() {
	local p=$1 pid e r1 r2
	fio --ioengine=libaio --direct=1 --rw=randread --bs=4k \
		--iodepth="$depth" --runtime=10 --time_based \
		--output-format=json --output=/tmp/sched.json \
		--name=d1 --filename="/dev/mapper/${p}1" \
		--name=d2 --filename="/dev/mapper/${p}2" >/dev/null &
	pid=$!
	sleep 4
	: >"$tr/trace"
	r1=$(dm_reads "${p}1" "${p}2")
	for e in $events; do
		echo 1 >"$tr/events/$e/enable" || return 1
	done
	sleep 2
	for e in $events; do
		echo 0 >"$tr/events/$e/enable"
	done
	r2=$(dm_reads "${p}1" "${p}2")
	wait $pid || return 1
	python3 - "$tr/trace" "$r1" "$r2" <<'PY'
import collections, json, re, sys
c = collections.Counter()
for line in open(sys.argv[1]):
    m = re.search(r'sched_switch: prev_comm=\S+ .* ==> next_comm=(\S+)', line)
    if m:
        c['switches'] += 1
        c['switch to ' + re.sub(r'[0-9]+', 'N', m[1])] += 1
        continue
    m = re.search(r'workqueue_execute_start: .*function (\S+)', line)
    if m:
        c['work ' + m[1]] += 1
        continue
    m = re.search(r'hrtimer_expire_entry: .*function=(\S+)', line)
    if m:
        c['hrtimer ' + m[1]] += 1
        continue
    m = re.search(r'irq_handler_entry: irq=\S+ name=(\S+)', line)
    if m:
        c['irq ' + m[1]] += 1
j = json.load(open('/tmp/sched.json'))
iops = sum(x['read']['iops'] for x in j['jobs'])
ios = sum(b - a for a, b in zip(*(map(int, x.split()) for x in sys.argv[2:4])))
print('%.0f IOPS over the run; %d reads in the traced seconds, per read:'
      % (iops, ios))
for k, v in c.most_common(12):
    print('  %-44s %7d %6.3f' % (k, v, v / max(ios, 1)))
PY
}

dm_pair lin linear "${parts[@]}" || exit 1
echo "== dm-linear"
run lin || exit 1
dm_pair_remove lin || exit 1
dm_pair band "$lim" "${parts[@]}" || exit 1
echo "== dm-ioband at 3:1, io_limit $lim"
run band || exit 1
$DMSETUP message band1 0 show | head -1
dm_pair_remove band || exit 1
exit 0
