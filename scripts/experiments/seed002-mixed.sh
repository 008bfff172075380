#!/bin/bash
# Seed 002: three partitions at three weights (the seed's priorities 7, 4
# and 0 become weights 40, 20 and 10), 4 KiB random O_DIRECT with 100 in
# flight on each: #1 reads only, #2 writes only, #3 reads on the first two
# partitions and writes on the third.  In 2008 the writer took 59-88 %
# whatever its priority.  iocost and BFQ weigh cgroups, not partitions.
# --assert (3 checks): dm-ioband within 1 point of 57.1/28.6/14.3 in
# each test; a run that fails fails its check.
. "$(dirname "$0")/../lib/guest.sh"
. "$(dirname "$0")/lib.sh"

exp_parse "$@"
exp_want ioband && [ "$EXP_ASSERT" = 1 ] && plan 3
exp_disk 3 || exit 1
exp_bands "1 0 0 none weight 0" 40 20 10 || exit 1

shares=()
for t in "1 read read read" "2 write write write" "3 read read write"; do
	set -- $t
	exp_header "Seed 002 test #$1: p1 $2, p2 $3, p3 $4; weights 40/20/10, $(exp_disk_desc), ${EXP_RUNTIME}s" \
		"| weight          |  40 (57.1%)                   |  20 (28.6%)                   |  10 (14.3%)                   |         |" \
		"p1 I/Os (r/w) share" "p2 I/Os (r/w) share" "p3 I/Os (r/w) share"
	for c in none ioband; do
		exp_want $c || continue
		if [ $c = none ]; then d=(x "${PART[@]:1}"); else d=(x /dev/mapper/ioband1 /dev/mapper/ioband2 /dev/mapper/ioband3); fi
		if exp_fio "$EXP_OUT/seed002-$1-$c.json" seed002-mixed.fio \
			DEV1="${d[1]}" DEV2="${d[2]}" DEV3="${d[3]}" RW1="$2" RW2="$3" \
			RW3="$4" RUNTIME="$EXP_RUNTIME" IODEPTH=100 &&
			exp_row "$([ $c = none ] && echo none || echo dm-ioband)" \
				"$EXP_OUT/seed002-$1-$c.json" p1 p2 p3; then
			[ $c = ioband ] && shares+=("$1 ${ROW_SHARE[1]} ${ROW_SHARE[2]} ${ROW_SHARE[3]}")
		else
			log "| $c: test #$1 failed"
			[ $c = ioband ] && shares+=("$1 failed failed failed")
		fi
	done
done
log "| iocost, BFQ: not applicable: they weigh cgroups, not partitions"
log "seed (2008, CFQ-based cgroup controllers): test #3, the writer took 59-88 % whatever its priority"

# shares_ok <s1> <s2> <s3>: each within 1 point of 40/20/10.
shares_ok() { within "$1" 57.1 1 && within "$2" 28.6 1 && within "$3" 14.3 1; }
if [ "$EXP_ASSERT" = 1 ]; then
	for s in "${shares[@]}"; do
		set -- $s
		check "test #$1: shares $2/$3/$4 within 1 of 57.1/28.6/14.3" \
			shares_ok "$2" "$3" "$4"
	done
fi
finish
