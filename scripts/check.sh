#!/bin/bash
# make check: every test, in order.  Prints one line per step and ends with
# "N passed, M failed"; exits non-zero on any failure.
#
#   1. the series applies to a pristine tree, with no fuzz, and no patch
#      of it fixes another (scripts/check-no-fixups.sh)
#   2. checkpatch.pl --strict on every patch: 0 errors, 0 warnings
#   3. KUnit (kunit.py, UML; and the policy suites in user space,
#      kunit/uspace); every patch builds on its own (W=1)
#   4. a W=1 build with sparse (C=2) of dm-ioband: no warnings; kernel-doc;
#      the rst renders (docutils); an i386 build of the objects
#   5. the end-to-end tests of scripts/e2e/ in the debug UML kernel
#   6. the share tests (short seed experiments) in the UML kernel built
#      without debug options
#   7. the module on SMP x86-64 under QEMU: the lockdep kernel, with the
#      end-to-end tests of 5 that concern SMP (scripts/qemu/tests/e2e.sh);
#      CHECK_SANITIZERS=1 adds the KASAN and KCSAN kernels
#      (CHECK_ONLY="qemu" runs this part)
# The steps that only build or apply (1's pristine apply, 3's bisect, 4's
# i386 build, the kernels of 6 and 7) run in the background at nice 19
# during 5, and 6 starts when they have ended.
#
# CHECK_ONLY="e2e:basic-verify" (space separated step or test names, or
# a prefix: "e2e", "shares") runs a subset.
# IOBAND_CONTROLLER_OFF=1 runs the experiments with dm-linear in place of
# every band device: every share test must then fail (see
# Documentation/testing.md, "Checks and the controller off").
#
# Every run writes the time of each step and the total to
# build/logs/check-times.txt.  RECORD_TIMES=1 also keeps them in
# results/check-times.txt (which README.md shows, through make readme):
# one section per state of the machine, named by RECORD_STATE, e.g.
#   RECORD_TIMES=1 RECORD_STATE=clean make check   clean clone, empty ccache
#   RECORD_TIMES=1 RECORD_STATE=warm make check    build/ kept, nothing changed
# A run replaces the section of its state (and CHECK_ONLY) and keeps the
# others.  RESULTS=dir writes there instead of results/.
set -u
. "$(dirname "$0")/lib/common.sh"

passed=0
failed=0
failures=
start=$(date +%s)
mkdir -p "$LOGS"

# For check-times.txt: what ran, where and when, taken at the start.
times=()
times_date=$(date -u '+%Y-%m-%d %H:%M UTC')
times_commit=$(source_state)
times_commit=${times_commit#commit }
times_machine="$(nproc) cores, $(. /etc/os-release 2>/dev/null &&
	echo "${PRETTY_NAME:-unknown system}"), load average $(cut -d' ' -f1-3 /proc/loadavg)"

want() {
	[ -z "${CHECK_ONLY:-}" ] && return 0
	case " $CHECK_ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}

result() {
	local name=$1 rc=$2 t=$3
	if [ "$rc" = 0 ]; then
		passed=$((passed + 1))
		printf 'PASS  %-44s %4ss\n' "$name" "$t"
		times+=("$name $t PASS")
	else
		failed=$((failed + 1))
		failures="$failures $name"
		printf 'FAIL  %-44s %4ss\n' "$name" "$t"
		times+=("$name $t FAIL")
	fi
}

# write_times <total seconds> <passed> <failed>: the section of this run
# in build/logs/check-times.txt, and with RECORD_TIMES=1 in
# results/check-times.txt.  Lines "time" sum the steps of one kind (the
# part of the name before ":"), lines "step" are the steps.  Prints
# nothing unless RECORD_TIMES=1.
write_times() {
	local total=$1 np=$2 nf=$3 header res out=$LOGS/check-times.txt
	header="== make check, ${RECORD_STATE:-state not given (RECORD_STATE)}"
	[ -z "${CHECK_ONLY:-}" ] || header="$header, CHECK_ONLY=$CHECK_ONLY"
	header="$header =="
	{
		echo "$header"
		echo "date     $times_date"
		echo "commit   $times_commit"
		echo "machine  $times_machine"
		echo "result   $np passed, $nf failed"
		echo "total    $total s ($(awk -v t="$total" 'BEGIN { printf "%.1f", t / 60 }') min)"
		printf '%s\n' "${times[@]}" | awk 'NF == 3 {
			kind = $1; sub(/:.*/, "", kind)
			if (!(kind in sum)) { order[++n] = kind; first[kind] = $1 }
			sum[kind] += $2; steps[kind]++
		}
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]
				name = steps[k] > 1 ? k ": " steps[k] " steps" : first[k]
				printf "time     %-40s %6d s\n", name, sum[k]
			}
		}'
		printf '%s\n' "${times[@]}" | awk 'NF == 3 {
			printf "step     %-40s %6d s  %s\n", $1, $2, $3 }'
	} >"$out"
	[ "${RECORD_TIMES:-0}" = 1 ] || return 0
	res=${RESULTS:-$TOP/results}/check-times.txt
	mkdir -p "${res%/*}"
	# Replace this state's section, keep the others in their order.
	HEADER=$header awk -v new="$out" '
		function add(   line) {
			while ((getline line < new) > 0) sec[++n] = line
			close(new)
			done = 1
		}
		/^== .* ==$/ { skip = ($0 == ENVIRON["HEADER"]) }
		/^== .* ==$/ && skip { if (!done) add(); next }
		/^== .* ==$/ { sec[++n] = $0; next }
		skip || /^$/ { next }
		{ sec[++n] = $0 }
		END {
			if (!done) add()
			for (i = 1; i <= n; i++) {
				if (i > 1 && sec[i] ~ /^== .* ==$/) print ""
				print sec[i]
			}
		}' "$([ -f "$res" ] && echo "$res" || echo /dev/null)" >"$res.new" &&
		mv "$res.new" "$res" &&
		echo "times recorded in $res (section \"$header\")" ||
		echo "could not record the times in $res" >&2
}

# step <name> <command...>: run, log to build/logs/<name>.log, count.
step() {
	local name=$1 t0 rc
	shift
	want "$name" || want "${name%%:*}" || return 0
	# Each UML step keeps its own run directory (two steps may run
	# the same script: e2e:device-path and shares:seed000-test1).
	case $name in
	e2e:* | shares:*) export IOBAND_RUN_DIR="$BUILD/runs/${name/:/-}" ;;
	*) unset IOBAND_RUN_DIR ;;
	esac
	t0=$(date +%s)
	"$@" >"$LOGS/$name.log" 2>&1
	rc=$?
	result "$name" "$rc" $(($(date +%s) - t0))
	[ "$rc" = 0 ] || tail -40 "$LOGS/$name.log" | sed 's/^/      /'
	return "$rc"
}

"$TOP/scripts/deps.sh" || exit 1

step tree "$TOP/scripts/prepare-tree.sh" || {
	write_times $(($(date +%s) - start)) "$passed" $((failed + 1))
	echo "$passed passed, $((failed + 1)) failed"; exit 1; }
# No patch fixes another: fixes are folded into the patch they fix.
step no-fixups "$TOP/scripts/check-no-fixups.sh" "$TREE" base ioband

checkpatch_one() {
	# Run from inside the kernel tree: checkpatch then checks
	# MAINTAINERS and SPDX lines too.  FILE_PATH_CHANGES asks, for
	# every patch that adds a file, whether MAINTAINERS needs updating:
	# the first patch adds an entry whose "F: drivers/md/dm-ioband*"
	# covers every file of the series.
	(cd "$TREE" && perl scripts/checkpatch.pl --strict \
		--ignore FILE_PATH_CHANGES "$1") |
		tee /dev/stderr |
		grep -q -E '^total: 0 errors, 0 warnings, 0 checks'
}
for p in $(grep -v -e '^#' -e '^$' "$TOP/series"); do
	step "checkpatch:${p%.patch}" checkpatch_one "$TOP/patches/$p"
done

# A kernel that did not build is not booted: the steps that need it fail
# without running (an old build/uml-*/linux would test stale code).  With
# CHECK_ONLY naming tests but not the build, the kernel there is used.
# built <step>: 1 unless the build step ran and failed.
built() { want "$1" && echo 0 || echo 1; }
built_e2e=$(built build-uml)
step build-uml "$TOP/scripts/build-uml.sh" && built_e2e=1

sparse_w1() {
	local objs tobjs log=$LOGS/sparse-build.log
	objs=$(cd "$TREE" && ls drivers/md/dm-ioband*.c | sed 's/\.c$/.o/')
	tobjs=$(cd "$TREE" && ls drivers/md/tests/dm-ioband*.c | sed 's/\.c$/.o/')
	# C=2 runs sparse on the named files even when up to date.  The
	# target in the end-to-end kernel, the tests in the KUnit one.
	# shellcheck disable=SC2086
	{ uml_make "$UML_E2E" W=1 C=2 $objs &&
		uml_make "$KUNIT_BUILD" W=1 C=2 $tobjs; } >"$log" 2>&1 ||
		{ cat "$log"; return 1; }
	cat "$log"
	! grep -E 'warning:|error:' "$log"
}
step kunit "$TOP/scripts/kunit.sh"
# The policy suites' quick loop in user space (kunit/uspace): it builds
# the same sources against a compat layer, which a new KUnit macro can
# break without anything else noticing.
step kunit-uspace make -s -C "$TOP/kunit/uspace" run
step sparse-w1 sparse_w1

kdoc() (
	# pipefail: kernel-doc's own exit status counts too; -i: it says
	# "Error: Cannot open file" with a capital E.
	set -o pipefail
	(cd "$TREE" && scripts/kernel-doc -none -Wall \
		drivers/md/dm-ioband*.[ch] drivers/md/tests/dm-ioband*.c &&
		scripts/kernel-doc -none -Wall -function dm_bio_blkcg_css \
			drivers/md/dm.c) 2>&1 |
		tee /dev/stderr | { ! grep -i -E 'warning|error'; }
)
step kernel-doc kdoc
# The figures README.md and Documentation/*.md show are those of results/.
step readme "$TOP/scripts/update-readme.sh" --check
# Every table in results/ names the commit it was made at.
step results "$TOP/scripts/check-results.sh"
# The admin guide renders (docutils), and the objects build for 32-bit x86
# (cgroup ids do not fit an unsigned long there).
step rst "$TOP/scripts/check-rst.sh"

# needs <built> <step...>: run the step if its kernel was built, else
# count it as failed.
needs() {
	local built=$1 name=$2
	if [ "$built" = 1 ]; then
		shift
		step "$@"
		return
	fi
	want "$name" || want "${name%%:*}" || return 0
	echo "its kernel did not build: not run" >"$LOGS/$name.log"
	result "$name" 1 0
	echo "      not run: its kernel did not build"
}

# The steps that only build or apply (the perf UML kernel of the share
# tests; every patch on its own, for bisect; the i386 objects; the series
# on a pristine tree; the x86-64 QEMU kernels) run in the background, one
# after the other at nice 19, while the end-to-end tests run: those use
# one of the two cores (UML is one process; 67 % of a core for
# features.sh) and mostly wait on their throttled devices.  The share
# tests start only once every background step has ended: a kernel
# building beside them is latency noise that moved the shares of
# seed000-test1, range-bw and deep-device past their tolerances on a
# 2-core machine (issue 27).  At nice 0 a QEMU kernel built beside the
# end-to-end tests (in a clean-clone CI run of 2026-12-05, from an empty
# ccache) slowed them by half and more (blkcg-delegation 160 s against
# 81 s) and starved a floor of blkcg-limits (/ta 1,520 KB/s against its
# 2,048).  At nice 19, beside a kernel building from scratch on both
# cores (2026-12-06): blkcg-limits, ceiling-throttle, weight-iosize and
# blkcg-delegation passed in 67, 16, 72 and 142 s (60, 13, 56 and 100 s
# in the last make check), /ta at 2,031 KB/s against its floor of 2,048.
# Each build writes its exit status and its own duration to
# build/logs/bg-STEP.status; its step waits for that and reports the
# build's duration.
case " ${CHECK_ONLY:-} " in
*" qemu:"*kasan*|*" qemu:"*kcsan*) CHECK_SANITIZERS=1 ;;
esac
qemu_flavours=lockdep
[ "${CHECK_SANITIZERS:-0}" = 1 ] && qemu_flavours="lockdep kasan kcsan"
bg_pid=
# The background steps run in a process group of their own (set -m), which
# goes with the run however it ends: a run stopped by ^C or a signal must
# not leave a bisect or a build behind to race the next run's.
bg_kill() {
	[ -z "$bg_pid" ] || kill -TERM -- "-$bg_pid" 2>/dev/null
}
trap bg_kill EXIT
trap 'exit 130' INT TERM
# bg_start <step...>: build those of the steps that are wanted.  nice 19
# for the CPU, ionice's idle class for the disk (bisect and apply check
# out a kernel tree each).
bg_start() {
	local n list=
	for n in "$@"; do
		want "$n" || want "${n%%:*}" || continue
		rm -f "$LOGS/bg-$n.status"
		list="$list $n"
	done
	[ -n "$list" ] || return 0
	set -m
	(
		for n in $list; do
			t0=$(date +%s)
			case $n in
			build-uml-perf)
				set -- "$TOP/scripts/build-uml.sh" perf ;;
			bisect)
				set -- "$TOP/scripts/check-bisect.sh" ;;
			build-i386)
				set -- "$TOP/scripts/check-i386.sh" ;;
			apply)
				set -- "$TOP/scripts/prepare-tree.sh" --pristine ;;
			qemu:build-*)
				set -- env QEMU_NO_PREPARE=1 \
					"$TOP/scripts/qemu/build.sh" \
					"${n#qemu:build-}" ;;
			esac
			ionice -c 3 nice -n 19 "$@" >"$LOGS/$n.log" 2>&1
			# written whole, then renamed: bg_step must never
			# read a status file that is there but still empty
			echo "$? $(($(date +%s) - t0))" >"$LOGS/bg-$n.status.tmp"
			mv "$LOGS/bg-$n.status.tmp" "$LOGS/bg-$n.status"
		done
	) </dev/null &
	bg_pid=$!
	set +m
}
# bg_step <step>: the step of a background build: wait, count, report.
bg_step() {
	local name=$1 st=$LOGS/bg-$1.status rc t
	want "$name" || want "${name%%:*}" || return 0
	while [ ! -f "$st" ] && kill -0 "$bg_pid" 2>/dev/null; do
		sleep 5
	done
	if [ -f "$st" ]; then
		read -r rc t <"$st"
	else
		echo "the background build ended without a status" >>"$LOGS/$name.log"
		rc=1 t=0
	fi
	result "$name" "$rc" "$t"
	[ "$rc" = 0 ] || tail -40 "$LOGS/$name.log" | sed 's/^/      /'
	return "$rc"
}
# bg_wait: until every background step has ended.
bg_wait() {
	[ -z "$bg_pid" ] || wait "$bg_pid" 2>/dev/null || true
}
# shellcheck disable=SC2046
bg_start build-uml-perf bisect build-i386 apply \
	$(printf 'qemu:build-%s ' $qemu_flavours)

# Functional tests, in the debug kernel (lockdep, KASAN, ...).
for t in "$TOP"/scripts/e2e/*.sh; do
	n=$(basename "$t" .sh)
	needs $built_e2e "e2e:$n" "$TOP/scripts/uml-run.sh" "$t"
done

# The experiments' real-disk path (--device), on a disk image with a
# real partition table (ubd).  A smoke run: ubd is as fast as the host's
# page cache, so the shares are not asserted, only that the script runs on
# the partitions of a real partition table.  Asserted: --device refuses a
# disk whose partition holds a file system unless --force is given.
device_path() {
	local img=$BUILD/ubd-disk.img out=${IOBAND_RUN_DIR:-$BUILD/runs/seed000-test1} rc=1 start
	rm -f "$img"
	{
		truncate -s 800M "$img" &&
			printf 'label: dos\n,256M\n,256M\n,256M\n' | sfdisk -q "$img" &&
			start=$(sfdisk -d "$img" | awk -F'[=,]' '$1 ~ /img2 :/ { print $2 + 0 }') &&
			mkfs.ext4 -q -F -E offset=$((start * 512)) "$img" 64M
	} || { rm -f "$img"; return 1; }
	if "$TOP/scripts/uml-run.sh" -u "$img" \
		"$TOP/scripts/experiments/seed000-test1.sh" --device /dev/ubda \
		--runtime 3; then
		echo "FAIL: --device ran on a disk with ext4 on partition 2"
	elif grep -q 'refusing /dev/ubda' "$out/output"; then
		echo "ok: --device refused a disk with ext4 on partition 2"
		# The same disk with --force: the smoke run.
		"$TOP/scripts/uml-run.sh" -u "$img" \
			"$TOP/scripts/experiments/seed000-test1.sh" --device /dev/ubda \
			--force --runtime 3 &&
			grep -q '/dev/ubda' "$out/output" &&
			grep -q 'ratio to total' "$out/output" && rc=0
	else
		echo "FAIL: seed000-test1 --device failed for another reason"
		cat "$out/output"
	fi
	rm -f "$img"
	return $rc
}
needs $built_e2e e2e:device-path device_path

# Shares and work conservation, in the same kernel without the debug
# options: they cost the I/O path more CPU than UML has to spare, so a
# debug kernel measures its own overhead (Documentation/developing.md,
# "The rig").
built_perf=$(built build-uml-perf)
bg_step build-uml-perf && built_perf=1
bg_step bisect
bg_step build-i386
bg_step apply
bg_wait
needs $built_perf shares:seed000-test1 "$TOP/scripts/uml-run.sh" -k perf \
	"$TOP/scripts/experiments/seed000-test1.sh" --runtime 15 --assert
needs $built_perf shares:cgroup-direct "$TOP/scripts/uml-run.sh" -k perf \
	"$TOP/scripts/experiments/cgroup-shares.sh" direct --runtime 10 --assert
needs $built_perf shares:cgroup-buffered "$TOP/scripts/uml-run.sh" -k perf \
	"$TOP/scripts/experiments/cgroup-shares.sh" buffered --runtime 5 --assert
needs $built_perf shares:seed001-vm "$TOP/scripts/uml-run.sh" -k perf \
	"$TOP/scripts/experiments/seed001-vm.sh" --runtime 10 --peers none,ioband --assert
needs $built_perf shares:seed004-dd "$TOP/scripts/uml-run.sh" -k perf \
	"$TOP/scripts/experiments/seed004-dd.sh" --runtime 10 --peers none,ioband --assert
needs $built_perf shares:seed004-rw "$TOP/scripts/uml-run.sh" -k perf -t 600 \
	"$TOP/scripts/experiments/seed004-rw.sh" --runtime 10 --peers ioband --writers "1 4" \
	--reader-weight 200 --assert
needs $built_perf shares:range-bw "$TOP/scripts/uml-run.sh" -k perf \
	"$TOP/scripts/experiments/range-bw.sh" --runtime 15 --assert
needs $built_perf shares:deep-device "$TOP/scripts/uml-run.sh" -k perf -t 600 \
	"$TOP/scripts/experiments/deep-device.sh" --runtime 20 --control \
	--min-ratio 90 --min-floor 80 --assert
needs $built_perf shares:latency-change "$TOP/scripts/uml-run.sh" -k perf -t 600 \
	-m 1536M "$TOP/scripts/experiments/latency-change.sh" --assert
# The device classes of issue 25 (scripts/experiments/device-classes.sh:
# a latency spread, a latency rising with the depth, a write cache and
# slow writes, from the rig's null_blk of 32 tags), two band devices at
# 3:1 on the disk, then on dm-linear slices of it (where dm-ioband cannot
# read the tags and its estimate alone keeps the bios within them), both
# against the same two dm-linear runs: 95 % of dm-linear's I/Os less the
# noise of those runs (never below 90 %), the steady shares within 2
# points.  The slices' depth class, before the periods ended between
# bursts of completions, came out at 99.0, 89.9, 100.6, 96.9 and 100.1 %
# of dm-linear in five runs (2026-12-05); after, 99.2, 98.1 and 98.8.
# Those classes ran at half today's latencies; the guest's CPU, 68-75 %
# busy there, drifted the shares to 72.9/27.1 in one CI (see
# device-classes.sh and testing.md).
needs $built_perf shares:device-classes "$TOP/scripts/uml-run.sh" -k perf \
	-t 900 "$TOP/scripts/experiments/device-classes.sh" --also-slices \
	--control --min-floor 90 --assert
# Not here: deep-tags (make bench), the band devices on dm-linear slices
# of 2,048 tags x 400 ms, whose tags dm-ioband cannot see.  Its shares
# depend on whether the estimate finds the tags from above, which it does
# in some runs only (49.5/50.5 for 3:1 in one make check): a measurement
# of an open problem (issue 25), not yet a check.  What it checked is
# checked deterministically by the kunit step: dm_ioband_deep_tags_block
# simulates that device (2,048 tags x 400 ms, submitters waiting for
# tags, the tags not told) and asserts 3:1 within one point.
# Cgroups weighed by io.ioband.weight and limited by io.ioband.limits,
# no attach: flat, nested (and a child stopping), floors and ceilings.
for m in flat nested limits; do
	needs $built_perf shares:blkcg-$m "$TOP/scripts/uml-run.sh" -k perf \
		"$TOP/scripts/experiments/blkcg-shares.sh" $m --runtime 10 --assert
done

# The module on SMP x86-64 under QEMU (TCG, -smp 2, a virtio-scsi sdb with
# sdb5-7, throttled), in the lockdep kernel (with kmemleak and debug
# objects): seed000: seed test #1's shares and the module's life
# (modprobe, rmmod refused while in use, load/unload loops with nothing
# leaked); smp-stress: messages, suspend/resume, reloads, cgroups and band
# devices made and removed, under fio verify on every CPU; e2e: the 16
# tests of scripts/e2e/ in e2e.sh's SMP list (e2e.sh --all: every one) in
# one boot, each between a modprobe and an rmmod of dm-ioband, one line
# per test in the step's log.
#
# The KASAN and KCSAN kernels are two more x86-64 builds from scratch
# (KASAN 724 s on the CI machine of a run that did not finish in 90
# minutes; 623 s and 401 s for KASAN and KCSAN here, 2 cores, empty
# ccache), which would put a clean run near CI's limit.  They run
# with CHECK_SANITIZERS=1 (smp-stress in each), or alone with
# "scripts/qemu-check.sh kasan|kcsan"; the end-to-end tests in UML run
# under KASAN in every make check.  See Documentation/qemu.md.
qemu_stage() {
	local flavour=$1 t built
	shift
	built=$(built "qemu:build-$flavour")
	bg_step "qemu:build-$flavour" && built=1
	for t in "$@"; do
		needs "$built" "qemu:$flavour-$t" "$TOP/scripts/qemu/run.sh" \
			-f "$flavour" "$TOP/scripts/qemu/tests/$t.sh"
	done
}
qemu_stage lockdep seed000 smp-stress e2e
# CHECK_ONLY naming a step of theirs runs it too (above).
if [ "${CHECK_SANITIZERS:-0}" = 1 ]; then
	qemu_stage kasan smp-stress
	qemu_stage kcsan smp-stress
fi

took=$(($(date +%s) - start))
write_times "$took" "$passed" "$failed"
echo "check took ${took}s"
[ -z "$failures" ] || echo "failed:$failures"
echo "$passed passed, $failed failed"
# A CHECK_ONLY that names no step ran nothing: that is no pass.
if [ $((passed + failed)) = 0 ]; then
	echo "no step ran (CHECK_ONLY=${CHECK_ONLY:-}?)"
	exit 1
fi
[ "$failed" = 0 ]
