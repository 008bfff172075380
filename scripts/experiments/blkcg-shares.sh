#!/bin/bash
# Cgroups weighed by io.ioband.weight on one band device of type cgroup,
# with no attach message (run inside the UML guest, perf kernel), next to
# the same load on dm-linear (no controller).
#
#   blkcg-shares.sh flat   [--runtime S] [--assert]
#	three cgroups at io.ioband.weight 400/200/100: 57.1/28.6/14.3 %
#   blkcg-shares.sh nested [--runtime S] [--assert]
#	/A at 200 with children A/x at 100 and A/y at 300, /B at 150, all
#	busy: x/y/B 14.3/42.9/42.9 %; then A/y stops: x 57.1 %, B 42.9 %
#   No target is an equal split (33.3 % of three, 50 % of two): each
#   check must fail with no controller (until 2026-12-04 flat was
#   300/200/100 and /B 100, and b's and B's 33.3 % passed without one).
#   blkcg-shares.sh limits [--runtime S] [--assert]
#	io.ioband.limits: three cgroups at weight 100, a with a ceiling of
#	300 I/Os per second (within 2 %); then a at weight 10 with a floor
#	of 900 I/Os per second, given to its parent too (met within 1 % of
#	the disk's 2,000), b at 200 and c at 100 splitting the rest
#	66.7/33.3 (within 2 points)
#   blkcg-shares.sh equal  [--runtime S]
#	the flat cgroups at equal weights (to see the checks fail)
# Each cgroup runs 4 KiB random O_DIRECT reads, 64 in flight, on a null_blk
# of 8 tags x 4 ms; a share is the cgroup's I/Os over all (fio, after a
# 1 s ramp).  --assert: each share within 1 point (3 checks flat, 5
# nested, 4 limits).
. "$(dirname "$0")/../lib/guest.sh"
. "$(dirname "$0")/lib.sh"

mode=$1
shift
EXP_RUNTIME=10
exp_parse "$@"
runtime=$EXP_RUNTIME
CG=/sys/fs/cgroup
TOP=blkcg-exp
JOIN=$GTOP/scripts/lib/fio-join-cgroup.sh
share() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", 100 * a / b }'; }

cg_setup || exit 1
cg_make $TOP || exit 1
echo "+io +memory" >$CG/$TOP/cgroup.subtree_control || exit 1
case $mode in
flat | equal)
	for c in a b c; do cg_make $TOP/$c || exit 1; done
	if [ "$mode" = flat ]; then
		weights="a=400 b=200 c=100"
	else
		weights="a=100 b=100 c=100"
	fi
	runs=("a b c")
	targets=("57.1 28.6 14.3")
	[ "$EXP_ASSERT" = 1 ] && plan 3
	;;
limits)
	for c in a b c; do cg_make $TOP/$c || exit 1; done
	weights="a=100 b=100 c=100"
	runs=("a b c" "a b c")
	targets=("- - -" "- - -")
	[ "$EXP_ASSERT" = 1 ] && plan 4
	;;
nested)
	cg_make $TOP/A/x && cg_make $TOP/A/y && cg_make $TOP/B || exit 1
	echo "+io +memory" >$CG/$TOP/A/cgroup.subtree_control || exit 1
	weights="A=200 A/x=100 A/y=300 B=150"
	runs=("A/x A/y B" "A/x B")
	targets=("14.3 42.9 42.9" "57.1 42.9")
	[ "$EXP_ASSERT" = 1 ] && plan 5
	;;
*)
	echo "mode: flat, nested or equal"
	exit 2
	;;
esac
for kv in $weights; do
	echo "default ${kv#*=}" >"$CG/$TOP/${kv%%=*}/io.ioband.weight" || exit 1
done
log "# io.ioband.weight: $weights (no attach message), 4 KiB random direct reads, 64 in flight each, ${runtime}s"

# fio_run <device> <cgroup>...: one job per cgroup; sets IOS to their I/Os.
fio_run() {
	local dev=$1 c f=/tmp/blkcg-shares.fio
	shift
	{
		printf '[global]\nioengine=libaio\ndirect=1\nrw=randread\nbs=4k\n'
		printf 'iodepth=64\nfilename=%s\ntime_based=1\nruntime=%s\n' "$dev" "$runtime"
		printf 'ramp_time=1\nnorandommap=1\nrandrepeat=0\n'
		for c in "$@"; do
			printf '[%s]\nexec_prerun=%s %s\n' "${c//\//-}" "$JOIN" "$TOP/$c"
		done
	} >$f
	fio --output-format=json --output=/tmp/blkcg-shares.json $f || return 1
	IOS=$(python3 -c 'import json
j = json.load(open("/tmp/blkcg-shares.json"))
print(*[job["read"]["total_ios"] for job in j["jobs"]])')
	IOPS=$(python3 -c 'import json, sys
j = json.load(open("/tmp/blkcg-shares.json"))
print(*["%.1f" % (job["read"]["total_ios"] / float(sys.argv[1])) for job in j["jobs"]])' "$runtime")
}

# limits_setup <run>: the limits of each run of mode limits.
limits_setup() {
	local band L=$CG/$TOP/a/io.ioband.limits
	band=$(dm_majmin ioband1)
	case $1 in
	0) echo "$band max_iops=300" >$L ;;
	# a floor below the root counts as far as the parent has one
	# (io.ioband.limits is hierarchical, as memory.min): /blkcg-exp
	# gets it too, and its children share it (b and c ask none)
	1) echo "$band min_iops=900" >$CG/$TOP/io.ioband.limits &&
		echo "$band max_iops=max min_iops=900" >$L &&
		echo 10 >$CG/$TOP/a/io.ioband.weight &&
		echo 200 >$CG/$TOP/b/io.ioband.weight ;;
	esac || log "# cannot set the limits (controller off?)"
	log "# /a: weight $(head -1 $CG/$TOP/a/io.ioband.weight), limits: $(cat $L)"
}

# limits_check <run>: the checks of mode limits on the last dm-ioband run.
limits_check() {
	local a b c rest
	read -r a b c <<<"$IOPS"
	log "# I/Os per second: a $a, b $b, c $c"
	case $1 in
	0) check "a's ceiling: $a I/Os per second within 2 % of 300" \
		within "$a" 300 6 ;;
	1) check "a's floor: $a I/Os per second, at least 900 - 20" \
		at_least "$a" 880
		rest=$(awk -v b="$b" -v c="$c" 'BEGIN { print b + c }')
		check "b gets $(share "$b" "$rest") % of what a leaves, within 2 of 66.7" \
			within "$(share "$b" "$rest")" 66.7 2
		check "c gets $(share "$c" "$rest") % of what a leaves, within 2 of 33.3" \
			within "$(share "$c" "$rest")" 33.3 2 ;;
	esac
}

disk=$(nullb_create disk size=1024 memory_backed=0) || exit 1
sz=$(sectors "$disk")
printf '%-10s %-8s %6s %8s %8s %8s\n' controller cgroup weight I/Os share target

# rows <label> <run index> <cgroups>: print the shares; sets SHARES.
rows() {
	local label=$1 r=$2 total=0 i=0 n c t
	shift 2
	for n in $IOS; do total=$((total + n)); done
	SHARES=()
	set -- $1
	for n in $IOS; do
		c=${runs[$r]}
		c=$(echo "$c" | cut -d' ' -f$((i + 1)))
		t=$(echo "${targets[$r]}" | cut -d' ' -f$((i + 1)))
		SHARES+=("$(share "$n" "$total")")
		printf '%-10s %-8s %6s %8s %7s%% %7s%%\n' "$label" "$c" \
			"$(head -1 "$CG/$TOP/$c/io.ioband.weight" | cut -d' ' -f2)" \
			"$n" "${SHARES[$i]}" "$t"
		i=$((i + 1))
	done
}

# One band device for all runs: a cgroup that stops gives its share back.
dm_create linear1 "0 $sz linear $disk 0" || exit 1
dm_create ioband1 "0 $sz ioband $disk 1 0 0 cgroup weight 0 :100" || exit 1
for r in "${!runs[@]}"; do
	log "# run $((r + 1)): ${runs[$r]} busy"
	[ "$mode" = limits ] && limits_setup "$r"
	# The baseline: the same load on dm-linear, no controller.
	# shellcheck disable=SC2086
	if fio_run /dev/mapper/linear1 ${runs[$r]}; then
		rows none "$r" "${runs[$r]}"
	else
		log "| none: the run failed"
	fi
	# shellcheck disable=SC2086
	if fio_run /dev/mapper/ioband1 ${runs[$r]}; then
		rows dm-ioband "$r" "${runs[$r]}"
		controller_off || log "$($DMSETUP message ioband1 0 show)"
		if [ "$EXP_ASSERT" = 1 ] && [ "$mode" = limits ]; then
			limits_check "$r"
		elif [ "$EXP_ASSERT" = 1 ]; then
			i=0
			for c in ${runs[$r]}; do
				t=$(echo "${targets[$r]}" | cut -d' ' -f$((i + 1)))
				check "run $((r + 1)): $c share ${SHARES[$i]} within 1 of $t" \
					within "${SHARES[$i]}" "$t" 1
				i=$((i + 1))
			done
		fi
	else
		log "| dm-ioband: the run failed"
	fi
done
finish
