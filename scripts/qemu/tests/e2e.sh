#!/bin/bash
# qemu-userland: e2e
# qemu-time-limit: 1800
# The end-to-end tests of scripts/e2e/ in the QEMU guest (scripts/qemu/run.sh
# puts the host's tools and python3 in the initramfs for a test with the
# line above), one after the other in one boot, each with dm-ioband as a
# module around it:
#
#   modprobe null_blk nr_devices=0, modprobe dm-ioband; the test, on a
#   fresh tmpfs /tmp; rmmod dm_ioband (refused if the test left a band
#   device or an open count: the test fails), no kioband thread, no ioband
#   slab cache left; rmmod null_blk; umount /tmp.
#
# At the end: rmmod dm_mod, and in the lockdep, KASAN and KCSAN flavours
# kmemleak reports no unreferenced object at all.  Prints one line per
# test (PASS/FAIL/SKIP, its check count against its plan, its time;
# under a failed one its first five "not ok" lines) under "=== e2e
# summary", then "N passed, M failed, K skipped"; exits non-zero if any
# test or module check failed.
#
#   e2e.sh [TEST...]      names of scripts/e2e/*.sh without .sh; default
#                         the tests of SMP below
#   e2e.sh --all          every test of scripts/e2e/
#
# Environment: E2E_TIMEOUT (600 s, as scripts/uml-run.sh) per test;
# E2E_NO_SKIP=1 runs the tests of SKIP too (run.sh -e E2E_NO_SKIP=1);
# a test of SKIP fails the run unless E2E_ALLOW_SKIP=1 (a skip is never a
# pass).  The
# whole run (scripts/qemu/run.sh's limit, the line above): 1,800 s; with
# --all it took 877 s here.
set -u
E2E=$(cd "$(dirname "$0")/../../e2e" && pwd)
REPO=$(cd "$E2E/../.." && pwd)
DMSETUP="dmsetup --noudevsync"
export DM_DISABLE_UDEV=1
. "$REPO/scripts/lib/kmemleak.sh"

# Tests that do not make sense here, with the reason (the details are in
# Documentation/qemu.md); none today.  (features.sh was one: its io_limit
# check sampled /sys/block/<disk>/inflight, which over-counts on an SMP,
# preemptible kernel; it now counts the block layer's issue and complete
# events.)
declare -A SKIP=()

# The tests make check runs here (qemu:lockdep-e2e): those whose subject
# is what a second CPU and a real module change, every other test runs
# in UML only (make check's e2e:* steps, KASAN on).  Here: concurrency
# (messages, suspend, resume and reloads racing bios; the lockless path;
# held bios and their bound; threads and io_uring workers), lifetimes (a
# cgroup or a table going while its bios are held; device-group settings
# kept across a member's suspend), counters read on another CPU (the
# tracepoints against status), data verified after all that, and every
# refusal's error path under kmemleak.  Not here (parsing, rates and
# shares, which UML measures with less noise): blkcg-attach,
# blkcg-delegation, blkcg-limits, blkcg-weight, ceiling-throttle,
# discard, features, ioctl-passthrough, table-messages, weight-iosize.
# They took 339 s of the 800 s the tests themselves took here, 877 s
# with the boot (the clean-clone make check of f368b39, 2026-12-06);
# "e2e.sh --all" runs them too.
SMP=(bad-input basic-verify blkcg-reload-race blkcg-remove cgroup
	cgroup-removed device-group-settings held-bound lockless
	message-stress pid-threads stats-suspend suspend-interrupt
	suspend-irqsoff suspend-reload tracing)
if [ "${1:-}" = --all ]; then
	tests=()
	for t in "$E2E"/*.sh; do tests+=("$(basename "$t" .sh)"); done
elif [ $# -gt 0 ]; then
	tests=("$@")
else
	tests=("${SMP[@]}")
fi

# The UML runner's settings the tests check (scripts/uml-run.sh): the
# hung-task detector every 10 s (basic-verify asserts 60:1:10).
echo 10 >/proc/sys/kernel/hung_task_check_interval_secs
kmemleak_begin
T=/sys/kernel/tracing
# "7 (expanded: 1408)" before the buffer was first used.
trace_kb=$(sed -n 's/.*expanded: \([0-9]*\).*/\1/p; t; s/^\([0-9]*\).*/\1/p' $T/buffer_size_kb)

# trace_reset: tracing as a fresh boot has it (a test may leave
# tracing_on 0, events enabled or a larger buffer).
trace_reset() {
	echo 0 >$T/tracing_on &&
		echo nop >$T/current_tracer &&
		echo 0 >$T/events/enable &&
		echo "$trace_kb" >$T/buffer_size_kb &&
		: >$T/trace &&
		echo 1 >$T/tracing_on
}

module_gone() { ! lsmod | grep -q "^$1 " && [ ! -d "/sys/module/$1" ]; }
no_rescuer() { ! cat /proc/[0-9]*/comm 2>/dev/null | grep -q '^kioband'; }
no_ioband_slab() { [ ! -r /proc/slabinfo ] || ! grep -q ioband /proc/slabinfo; }

summary=()
passed=0
failed=0
skipped=0
res=/ioband/e2e
# The repository, bound where each test's fresh /tmp cannot hide it when
# it lives under /tmp (a clone made there, as CI may).
keep=
case "$REPO/" in
/tmp/*)
	keep=/ioband/repo
	mkdir -p "$keep" && mount -o bind "$REPO" "$keep" || exit 1
	;;
esac
mkdir -p $res
log() { printf '%s\n' "$*"; }

for t in "${tests[@]}"; do
	if [ -n "${SKIP[$t]:-}" ] && [ "${E2E_NO_SKIP:-0}" != 1 ]; then
		# A skip is never a pass, and fails the run unless asked for.
		if [ "${E2E_ALLOW_SKIP:-0}" = 1 ]; then
			skipped=$((skipped + 1))
			summary+=("$(printf 'SKIP  %-26s %s (Documentation/qemu.md)' "$t" "${SKIP[$t]}")")
		else
			failed=$((failed + 1))
			summary+=("$(printf 'FAIL  %-26s skipped: %s (E2E_ALLOW_SKIP=1 allows it)' "$t" "${SKIP[$t]}")")
		fi
		continue
	fi
	[ -f "$E2E/$t.sh" ] || {
		summary+=("$(printf 'FAIL  %-26s no such test' "$t")")
		failed=$((failed + 1))
		continue
	}
	why=
	log ""
	log "=== e2e: $t"
	trace_reset || why="$why; cannot reset tracing"
	# A fresh /tmp for each test, as each UML boot has (and a tmpfs:
	# features.sh's loop file needs fallocate).
	mount -t tmpfs tmpfs /tmp || why="$why; cannot mount /tmp"
	# A repository under /tmp (a clone made there) must stay visible.
	if [ -n "$keep" ]; then
		mkdir -p "$REPO" && mount -o bind "$keep" "$REPO" ||
			why="$why; cannot keep $REPO"
	fi
	cd /tmp || exit 1
	modprobe null_blk nr_devices=0 || why="$why; modprobe null_blk failed"
	modprobe dm-ioband || why="$why; modprobe dm-ioband failed"
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout -k 10 "${E2E_TIMEOUT:-600}" bash "$E2E/$t.sh" </dev/null 2>&1 |
		tee "$res/$t.out"
	rc=${PIPESTATUS[0]}
	t1=$(cut -d' ' -f1 /proc/uptime)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
	cd / || exit 1
	[ "$rc" = 124 ] && why="$why; killed after ${E2E_TIMEOUT:-600} s"
	[ "$rc" = 0 ] || why="$why; exit status $rc"
	# The module's life around the test: nothing keeps it, nothing stays.
	if ! rmmod dm_ioband 2>"$res/$t.rmmod"; then
		why="$why; rmmod dm_ioband refused: $(head -1 "$res/$t.rmmod")"
		$DMSETUP ls >&2
	fi
	module_gone dm_ioband || why="$why; dm_ioband still loaded"
	no_rescuer || why="$why; a kioband thread is left"
	no_ioband_slab || why="$why; an ioband slab cache is left"
	rmmod null_blk 2>/dev/null || why="$why; rmmod null_blk refused"
	[ -z "$keep" ] || umount "$REPO" || why="$why; cannot umount $REPO"
	umount /tmp || why="$why; cannot umount /tmp (a process left in it?)"
	# "checks: P passed, F failed, R of N planned" (scripts/lib/guest.sh).
	c=$(sed -n 's/^checks: \([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) of \([0-9]*\) planned\)\{0,1\}$/\1 \2 \4 \5/p' \
		"$res/$t.out" | tail -1)
	set -- $c
	if [ $# -ge 2 ]; then
		counts="$1 passed, $2 failed${4:+, $3 of $4 planned}"
	else
		counts="no check count"
		why="$why; no check count printed"
	fi
	if [ -z "$why" ]; then
		passed=$((passed + 1))
		summary+=("$(printf 'PASS  %-26s %5ss  %s' "$t" "$secs" "$counts")")
	else
		failed=$((failed + 1))
		summary+=("$(printf 'FAIL  %-26s %5ss  %s%s' "$t" "$secs" "$counts" "$why")")
		# Its failed checks, under it: make check shows only the
		# summary's lines of a failed QEMU step.
		nok=$(grep '^not ok' "$res/$t.out" | head -5 | sed 's/^/        | /')
		[ -z "$nok" ] || summary+=("$nok")
	fi
done

# The end of the module's life: dm-mod goes too, and kmemleak reports no
# unreferenced object (lockdep, KASAN and KCSAN flavours).  As in
# seed000.sh.
why=
rmmod dm_mod 2>/dev/null || why="$why; rmmod dm_mod refused"
module_gone dm_mod || why="$why; dm_mod still loaded"
if kmemleak_wanted; then
	kmemleak_none $res/kmemleak ||
		why="$why; kmemleak: unreferenced objects, or kmemleak off"
	kml=", kmemleak"
fi
if [ -z "$why" ]; then
	passed=$((passed + 1))
	summary+=("$(printf 'PASS  %-26s rmmod dm_mod, nothing left%s' "module life" "${kml:-}")")
else
	failed=$((failed + 1))
	summary+=("$(printf 'FAIL  %-26s %s' "module life" "${why#; }")")
fi

log ""
log "=== e2e summary ($(uname -r), $(nproc) CPUs)"
printf '%s\n' "${summary[@]}"
log "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
