#!/bin/bash
# qemu-userland: e2e
# qemu-time-limit: 900
# How noisy the file-backed disk's throughput is, and how it grows with
# the depth (issue 25, item 4): the estimator's probes judge one
# estimation period against the smoothed throughput, and a raise of a
# quarter must gain a sixteenth, beyond twice the noise.
#
# In the QEMU guest booted with its data disk not throttled
# (scripts/qemu/run.sh -i 0), two band devices at weights 3:1 on
# /dev/sdb5 and sdb6 with io_limit fixed (nothing is learnt), fio 4 KiB
# random reads at depth 32 on each, and the dm_ioband_period tracepoint
# on (an estimation period lasts at least 20 ms).  The io_limit goes
# through the limits given in turn, every SWITCH seconds (the io_limit
# message), so that each limit is measured over the same stretch of time
# as the others: the host's own drift then falls on all of them alike.
# The first 1.5 s after a change (the message's dmsetup runs, the queue
# settles) is left out, and so are the first stretch (fio starting) and
# what follows the last full stretch (fio ending).  For each limit: the
# periods' mean throughput; how far a period strays from its stretch's
# mean (coefficient of variation) when 1, 4 and 16 periods in a row are
# taken together; how alike neighbouring periods are (autocorrelation
# at lag 1, within stretches); what the estimate calls its noise (a
# period's distance from the throughput smoothed over the periods
# before it, a quarter of each: a raise must gain twice it); and the
# guest's context switches a second (/proc/stat, over the whole of each
# stretch).  Between two limits: the elasticity, d ln(throughput) /
# d ln(limit) (1: throughput grows with the depth; 0: flat; a raise of a
# quarter gains a sixteenth, what the estimate asks of it, at 0.27).
#
#   period-noise.sh [--runtime S] [--switch S] [--io-limits "8 16 32"]
#
# A measurement, no checks.
. "$(dirname "$0")/../../lib/guest.sh"

runtime=60
switch=4
limits="8 16 32"
while [ $# -gt 0 ]; do
	case $1 in
	--runtime) runtime=$2; shift ;;
	--switch) switch=$2; shift ;;
	--io-limits) limits=$2; shift ;;
	*) echo "unknown argument $1"; exit 2 ;;
	esac
	shift
done
parts=(/dev/sdb5 /dev/sdb6)
T=/sys/kernel/tracing
mountpoint -q "$T" || mount -t tracefs none "$T" || exit 1
log "# kernel $(uname -r), $(nproc) CPUs, data disk throttled to ${IOBAND_IOPS:-?} IOPS (0: not)"
log "# io_limit $limits in turn, every $switch s, for $runtime s"
modprobe dm-ioband || exit 1
echo 8192 >"$T/buffer_size_kb"

dm_pair band "${limits%% *}" "${parts[@]}" || exit 1
echo >"$T/trace"
echo 1 >"$T/events/dm_ioband/dm_ioband_period/enable"
fio --ioengine=libaio --direct=1 --rw=randread --bs=4k \
	--iodepth=32 --runtime="$runtime" --time_based \
	--name=d1 --filename=/dev/mapper/band1 \
	--name=d2 --filename=/dev/mapper/band2 >/dev/null &
pid=$!
# The context switches over each stretch, with the limit it ran at ("-"
# for the first, while fio starts).  The limits in turn, each for SWITCH
# seconds, until less than that is left of the run.
ctxt() { echo "$(date +%s.%N) $(awk '/^ctxt/ { print $2 }' /proc/stat) $1"; }
read -ra lims <<<"$limits"
# (a second to spare: the last stretch must end before fio does)
end=$(($(date +%s) + runtime - switch - 1))
i=0
prev=-
ctxt - >/tmp/ctxt.all
while :; do
	sleep "$switch"
	ctxt "$prev" >>/tmp/ctxt.all
	if [ "$(date +%s)" -ge "$end" ]; then
		# the last full stretch ends here; what follows is fio ending
		echo stretches-end >"$T/trace_marker"
		break
	fi
	i=$(((i + 1) % ${#lims[@]}))
	$DMSETUP message band1 0 io_limit "${lims[$i]}" || exit 1
	prev=${lims[$i]}
done
wait $pid || exit 1
echo 0 >"$T/events/dm_ioband/dm_ioband_period/enable"
# "<time>: dm_ioband_period: dg 7 io_limit N ... iops X ..."
sed -n 's/^.* \([0-9.]*\): dm_ioband_period: dg [0-9]* io_limit \([0-9]*\) .* iops \([0-9]*\) .*/\1 \2 \3/p' \
	"$T/trace" >/tmp/periods.all
[ -s /tmp/periods.all ] || { echo "no estimation period traced"; exit 1; }
ends=$(sed -n 's/^.* \([0-9.]*\): tracing_mark_write: stretches-end$/\1/p' "$T/trace")
[ -n "$ends" ] || { echo "the end of the last stretch was not traced"; exit 1; }
dm_pair_remove band || exit 1
python3 - /tmp/periods.all /tmp/ctxt.all "$ends" <<'PY'
import math, sys
rows = [l.split() for l in open(sys.argv[1])
        if float(l.split()[0]) < float(sys.argv[3])]
cs, last = {}, None
for l in open(sys.argv[2]):
    t, n, lim = l.split()
    if last and lim != "-":
        cs.setdefault(int(lim), []).append((int(n) - last[1]) / (float(t) - last[0]))
    last = (float(t), int(n))
rows = [(float(t), int(lim), int(x)) for t, lim, x in rows]
# blocks of periods at one limit, less the first 1.5 s of each
blocks, cur, since = [], None, 0
for t, lim, x in rows:
    if cur is None or lim != cur[0]:
        cur = (lim, [])
        blocks.append(cur)
        since = t
    if t >= since + 1.5:
        cur[1].append(x)
# the first stretch (fio starting) is left out here; the periods after
# the last full stretch (fio ending) were left out of rows above
blocks = blocks[1:]

def mean(v):
    return sum(v) / len(v)

print("%-8s %7s %9s  %-24s %-11s %-11s %s" % ("io_limit", "periods",
      "IOPS", "CV over 1/4/16 periods", "autocorr. 1", "est. noise",
      "ctxt/s"))
rate = {}
for lim in sorted(set(b[0] for b in blocks)):
    bs = [b[1] for b in blocks if b[0] == lim and len(b[1]) >= 16]
    v = [x for b in bs for x in b]
    if len(v) < 64:
        print("%-8d %7d  too few periods" % (lim, len(v)))
        continue
    rate[lim] = mean(v)
    # each stretch against its own mean: the drift between stretches
    # is left out
    cvs = []
    for k in (1, 4, 16):
        d = []
        for b in bs:
            m = mean(b)
            d += [(mean(b[i:i + k]) - m) / m
                  for i in range(0, len(b) - k + 1, k)]
        cvs.append("%.1f %%" % (100 * math.sqrt(mean([x * x for x in d]))))
    num = den = 0.0
    for b in bs:
        m = mean(b)
        num += sum((b[i] - m) * (b[i + 1] - m) for i in range(len(b) - 1))
        den += sum((x - m) ** 2 for x in b)
    # what the estimate calls its noise: a period's distance from the
    # throughput smoothed over the periods before it (a quarter of each)
    dev = []
    for b in bs:
        base = b[0]
        for x in b[1:]:
            dev.append(abs(x - base) / base)
            base = (3 * base + x) / 4
    sw = "%.0f" % mean(cs[lim]) if lim in cs else "-"
    print("%-8d %7d %9.0f  %-24s %-11.2f %-11s %s" % (lim, len(v), rate[lim],
          " / ".join(cvs), num / den if den else 0,
          "%.1f %%" % (100 * mean(dev)), sw))
lims = sorted(rate)
for a, b in zip(lims, lims[1:]):
    e = math.log(rate[b] / rate[a]) / math.log(b / a)
    print("elasticity %d -> %d: %.2f (a raise of a quarter gains %.1f %%)" %
          (a, b, e, 100 * (1.25 ** e - 1)))
PY
