#!/bin/bash
# Seed 000, test #1 (run inside the UML guest): three band devices in one
# device group on three dm-linear "partitions" of one null_blk disk of
# fixed capacity (2,000 IOPS), weights 40/20/10, 4 KiB random read/write
# O_DIRECT with IODEPTH in flight on each.  I/Os are counted by fio over
# the measured run (after its ramp time; sectors are I/Os x 8, every I/O
# being 4 KiB) and printed in the seed's table form, next to the same load
# with no controller (dm-linear alone); the band devices' own status
# lines, which include the ramp time, are printed under the table.
#
#   seed000-test1.sh [--iodepth N] [--io-limit N] [common options, lib.sh]
#
# --assert turns it into a test (4 checks): shares within 1 point of
# 57.1/28.6/14.3, and total I/Os at least 90 % of the no-controller runs
# while those shares hold (work conservation alone cannot fail with no
# controller, so it is asserted together with the shares it must keep).
# The no-controller load runs twice, before and after dm-ioband's, and
# dm-ioband is compared with their mean: the two differ by the machine's
# noise over the run, and the 90 % is lowered by that difference,
# printed beside it, down to 85 % at most.  90 %, not 95 %: the in-flight
# estimate of the series settles at 7 or 8 of this device's 8 tags
# and drains now and then, and delivers 92 to 95 % here (94.2 % in the
# CI run of a3c46f9, 92.6 % in results/seed000-test1.txt); issue 25's
# estimator (branch wip-issue-25, not in the series) is to bring it to 95.
# Environment: IO_THROTTLE, IDLE_WINDOW (us) set those of the device
# group; SCHED sets the disk's I/O scheduler.
. "$(dirname "$0")/../lib/guest.sh"
. "$(dirname "$0")/lib.sh"

exp_parse "$@"
runtime=$EXP_RUNTIME
assert=$EXP_ASSERT
io_limit=0
iodepth=128
set -- "${EXP_ARGS[@]}"
while [ $# -gt 0 ]; do
	case $1 in
	--iodepth) iodepth=$2; shift ;;
	--io-limit) io_limit=$2; shift ;;
	*) echo "unknown argument $1"; exit 2 ;;
	esac
	shift
done
weights=(40 20 10)

[ "$assert" = 1 ] && plan 4
exp_disk 3 || exit 1
disk=$DISK
[ -n "${SCHED:-}" ] && echo "$SCHED" >"/sys/block/${disk#/dev/}/queue/scheduler"

# run_fio <dev1> <dev2> <dev3> <json>: the load, one fio process.
run_fio() {
	DEV1=$1 DEV2=$2 DEV3=$3 RUNTIME=$runtime IODEPTH=$iodepth \
		fio --output-format=json --output="$4" \
		"$GTOP/fio-jobs/seed000-test1.fio" >/dev/null
}

# fio_ios <json> <job>: read and write I/Os of one job.
fio_ios() {
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))
for job in j["jobs"]:
    if job["jobname"] == sys.argv[2]:
        print(job["read"]["total_ios"], job["write"]["total_ios"])' "$1" "$2"
}

# baseline <json>: the load with no controller (dm-linear partitions);
# prints its total I/Os.
baseline() {
	local i r w t=0
	run_fio "${PART[1]}" "${PART[2]}" "${PART[3]}" "$1" || return 1
	for i in 1 2 3; do
		read -r r w < <(fio_ios "$1" "dev$i")
		t=$((t + r + w))
	done
	echo "$t"
}

log "# baseline: no controller (dm-linear partitions), ${runtime}s"
base1=$(baseline "$EXP_OUT/seed000-none.json") || exit 1

exp_bands "1 ${IO_THROTTLE:-0} $io_limit none weight 0" "${weights[@]}" || exit 1
if [ -n "${IDLE_WINDOW:-}" ]; then
	ib_msg ioband1 idle_window "$IDLE_WINDOW" || exit 1
fi
log "# dm-ioband: ioband1-3 in device group 1, weights 40/20/10, ${runtime}s"
# Count from the band devices' own status over the measured run.
run_fio /dev/mapper/ioband1 /dev/mapper/ioband2 /dev/mapper/ioband3 \
	"$EXP_OUT/seed000-ioband.json" &
fio_pid=$!
# Progress: I/Os per second completed by the disk below (its
# /sys/block/<disk>/stat: reads and writes completed).
disk_ios() {
	awk '{ print $1 + $5 }' \
		"/sys/block/$(basename "$(readlink -f "$disk")")/stat" 2>/dev/null ||
		echo 0
}
prev=$(disk_ios)
tprev=$(date +%s%N)
for t in $(seq 1 $((runtime + 1))); do
	sleep 1
	kill -0 $fio_pid 2>/dev/null || break
	controller_off && continue
	cur=$(disk_ios)
	tcur=$(date +%s%N)
	# Over the time that really passed: the loop's own commands are slow
	# in UML.
	log "# t=${t}s: $(((cur - prev) * 1000000000 / (tcur - tprev))) I/Os/s completed by $disk; $($DMSETUP message ioband1 0 show | head -1)"
	prev=$cur
	tprev=$tcur
done
wait $fio_pid || exit 1
for i in 1 2 3; do
	log "status ioband$i: $($DMSETUP status ioband$i)"
done
base2=$base1
if [ "$assert" = 1 ]; then
	for i in 3 2 1; do
		$DMSETUP remove "ioband$i" || exit 1
	done
	log "# baseline again, after dm-ioband: no controller, ${runtime}s"
	base2=$(baseline "$EXP_OUT/seed000-none2.json") || exit 1
fi
# noise: how far the two no-controller runs are apart, % of their mean
read -r base_total noise floor_pct < <(noise_bound "$base1" "$base2" 90 85)

declare -a rio wio rsec wsec tot
sum=0
for i in 1 2 3; do
	read -r r w < <(fio_ios "$EXP_OUT/seed000-ioband.json" "dev$i")
	rio[$i]=$r
	wio[$i]=$w
	rsec[$i]=$((r * 8))
	wsec[$i]=$((w * 8))
	tot[$i]=$((r + w))
	sum=$((sum + r + w))
done
share() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", 100 * a / b }'; }

printf '\n%s\n' "                The result of test #1 (seed 000), ${runtime} s, $(exp_disk_desc)"
line=' ---------------------------------------------------------------------------'
echo "$line"
printf '|     device      |%-19s|%-19s|%-17s|\n' "      ioband1" "      ioband2" "     ioband3"
printf '|     weight      |%-19s|%-19s|%-17s|\n' "    40 (57.1%)" "    20 (28.6%)" "   10 (14.3%)"
printf '|-----------------+-------------------+-------------------+-----------------|\n'
printf '|   I/Os (r/w)    |%6d(%5d/%5d)|%6d(%5d/%5d)|%5d(%5d/%5d)|\n' \
	"${tot[1]}" "${rio[1]}" "${wio[1]}" "${tot[2]}" "${rio[2]}" "${wio[2]}" \
	"${tot[3]}" "${rio[3]}" "${wio[3]}"
printf '|  sectors (r/w)  |%6d(%5d/%5d)|%6d(%5d/%5d)|%5d(%5d/%5d)|\n' \
	$((tot[1] * 8)) "${rsec[1]}" "${wsec[1]}" $((tot[2] * 8)) "${rsec[2]}" \
	"${wsec[2]}" $((tot[3] * 8)) "${rsec[3]}" "${wsec[3]}"
s1=$(share "${tot[1]}" $sum)
s2=$(share "${tot[2]}" $sum)
s3=$(share "${tot[3]}" $sum)
printf '|  ratio to total |%12s%%      |%12s%%      |%11s%%     |\n' "$s1" "$s2" "$s3"
echo "$line"
printf 'seed (2008, sdb5/6/7, 60 s): 6640/3434/1689 I/Os = 56.4/29.2/14.4 %%\n'
printf 'total I/Os: dm-ioband %d, no controller %d (%s %%)\n' \
	"$sum" "$base_total" "$(share $sum "$base_total")"
[ "$assert" = 1 ] &&
	printf 'no controller before and after: %d and %d (%s %% apart)\n' \
		"$base1" "$base2" "$noise"
log "iocost, BFQ: not applicable: they weigh cgroups, not partitions"

if [ "$assert" = 1 ]; then
	check "ioband1 share $s1 within 1 of 57.1" within "$s1" 57.1 1
	check "ioband2 share $s2 within 1 of 28.6" within "$s2" 28.6 1
	check "ioband3 share $s3 within 1 of 14.3" within "$s3" 14.3 1
	# shellcheck disable=SC2317
	conserving() {
		within "$s1" 57.1 1 && within "$s2" 28.6 1 && within "$s3" 14.3 1 &&
			at_least "$sum" "$(awk -v b="$base_total" -v f="$floor_pct" 'BEGIN { print f * b / 100 }')"
	}
	check "total $sum at least $floor_pct % (90 less the noise, $noise %) of no controller ($base_total) with the shares kept" \
		conserving
fi
# A demo (no --assert) has no checks to count, unless one failed.
if [ "$assert" = 1 ] || [ "$CHECKS_FAILED" != 0 ]; then
	finish
fi
