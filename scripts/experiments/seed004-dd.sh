#!/bin/bash
# Seed 004, first part: one dd reader per group at weights 2:1.  dm-ioband
# 1.x treated a group with one dd as idle and lost its share; with four dd
# threads a group took more than 20 s to approach it.  Here each group is
# one sequential O_DIRECT reader (one 128 KiB read at a time) on its own
# partition of a disk that serves one request at a time.
#
# Reported per controller: the shares over the run, and the time until
# the reader at weight 2 stays within 5 % of its target share (66.7 %,
# so 63.3 to 70.0 %) in a sliding one-second window; a plot of each
# reader's bandwidth over time is written to --out.
# --assert (1 check): dm-ioband's shares from 2 s on (after the convergence that is
# reported above) within 2 points of 66.7/33.3.
. "$(dirname "$0")/../lib/guest.sh"
. "$(dirname "$0")/lib.sh"

exp_parse "$@"
exp_want ioband && [ "$EXP_ASSERT" = 1 ] && plan 1
exp_disk 2 hw_queue_depth=1 completion_nsec=500000 || exit 1
cg_setup
cg_make ioband-exp/dd1
cg_make ioband-exp/dd2
echo "+io" >/sys/fs/cgroup/ioband-exp/cgroup.subtree_control

# converge <log1> <log2>: seconds until dd1's share, over a sliding 1 s
# window, stays within 5 % of 66.7 %.
converge() {
	python3 - "$1" "$2" <<'PY'
import sys
def load(p):
    d = {}
    for line in open(p):
        f = [x.strip() for x in line.split(",")]
        d[int(f[0]) // 100] = d.get(int(f[0]) // 100, 0) + int(f[1])
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
n = max(max(a), max(b)) + 1
ok = []
for k in range(n):
    w = range(max(0, k - 9), k + 1)
    sa = sum(a.get(i, 0) for i in w)
    sb = sum(b.get(i, 0) for i in w)
    s = 100.0 * sa / (sa + sb) if sa + sb else 0
    ok.append(abs(s - 200 / 3) <= 200 / 3 * 0.05)
last_bad = max([k for k in range(n) if not ok[k]], default=-1)
print("%.1f s" % ((last_bad + 1) / 10.0) if last_bad < n - 1 else "never")
PY
}

# steady <log1> <log2>: dd1's share of the bytes from 2 s on.
steady() {
	python3 - "$1" "$2" <<'PY'
import sys
def tot(p):
    return sum(int(l.split(",")[1]) for l in open(p)
               if int(l.split(",")[0]) >= 2000)
a, b = tot(sys.argv[1]), tot(sys.argv[2])
print("%.1f" % (100.0 * a / (a + b) if a + b else 0))
PY
}

run() {
	local c=$1 d1=$2 d2=$3
	mkdir -p "$EXP_OUT/seed004-dd-$c"
	exp_fio "$EXP_OUT/seed004-dd-$c.json" seed004-dd.fio DEV1="$d1" DEV2="$d2" \
		CG1=ioband-exp/dd1 CG2=ioband-exp/dd2 RUNTIME="$EXP_RUNTIME" \
		LOGDIR="$EXP_OUT/seed004-dd-$c" || return 1
	exp_row "$c" "$EXP_OUT/seed004-dd-$c.json" dd1 dd2 || return 1
	conv=$(converge "$EXP_OUT/seed004-dd-$c/dd1_bw.1.log" \
		"$EXP_OUT/seed004-dd-$c/dd2_bw.2.log")
	st=$(steady "$EXP_OUT/seed004-dd-$c/dd1_bw.1.log" \
		"$EXP_OUT/seed004-dd-$c/dd2_bw.2.log") || return 1
	printf "|   shares within 5 %% of 2:1 (1 s window) after: %s; from 2 s on: %s/%s %%\n" \
		"$conv" "$st" "$(awk -v s="$st" 'BEGIN { printf "%.1f", 100 - s }')"
	exp_plot "$EXP_OUT/seed004-dd-$c.png" "seed 004: one dd per group, 2:1, $c" \
		"$EXP_OUT/seed004-dd-$c/dd1_bw.1.log" "$EXP_OUT/seed004-dd-$c/dd2_bw.2.log"
}

exp_header "Seed 004: one dd reader per group, weights 2:1, $(exp_disk_desc), ${EXP_RUNTIME}s" \
	"| weight          |  2 (66.7%)                    |  1 (33.3%)                    |         |" \
	"dd1 I/Os (r/w) share" "dd2 I/Os (r/w) share"
if exp_want none; then
	run none "${PART[1]}" "${PART[2]}"
fi
if exp_want ioband; then
	exp_bands "1 0 0 none weight 0" 200 100 || exit 1
	# ib1, ib2 only from this run (st is left from the one before).
	st=
	if run dm-ioband /dev/mapper/ioband1 /dev/mapper/ioband2 && [ -n "$st" ]; then
		ib1=$st
		ib2=$(awk -v s="$st" 'BEGIN { printf "%.1f", 100 - s }')
	fi
	$DMSETUP remove ioband1 && $DMSETUP remove ioband2 || exit 1
fi
peer_run() { run "$1" "${PART[1]}" "${PART[2]}"; }
exp_peers peer_run ioband-exp/dd1:200 ioband-exp/dd2:100
log "seed (2009, dm-ioband 1.x): one dd per group lost its share; 4 dd each: over 20 s to approach it"

if [ "$EXP_ASSERT" = 1 ]; then
	# One check: dd2's share is 100 less dd1's.
	split_ok() { within "${ib1:-}" 66.7 2 && within "${ib2:-}" 33.3 2; }
	check "dm-ioband dd1 and dd2 share ${ib1:-?}/${ib2:-?}, within 2 of 66.7/33.3" split_ok
fi
finish
