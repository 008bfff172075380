#!/bin/bash
# Boot the end-to-end UML kernel with the host's / as root (hostfs), run
# one test script inside it and bring back its output and exit status.
#
#   scripts/uml-run.sh [-v] [-p] [-k KERNEL] [-e VAR=val] [-t SECONDS] [-m MEM]
#                      [-u UBD0_FILE] TEST [ARGS...]
#
# -k perf boots build/uml-perf (scripts/build-uml.sh perf) instead of the
# debug kernel build/uml-e2e.
# -e VAR=value puts VAR in the test's environment (kernel command line).
# -p pins the guest (its kernel and every process in it) to one host CPU,
# the last one this script may run on.  UML's kernel and its processes
# are host processes that hand over through ptrace: on one CPU the guest
# is limited by its CPU time, spread over two it is limited by the
# latency of the hand-overs, which is longer and varies a lot more from
# run to run (compare scripts/experiments/overhead.sh with and without).
# -v shows the test's output while it runs (it is always kept in
# build/runs/<test>/output, with the kernel console in console.log).
#
# The run fails when the test fails, when the guest does not power off
# within the timeout (it is killed), or when the kernel printed any
# warning, BUG, lockdep or KASAN report, hung task or soft lockup (it
# boots with panic_on_warn=1, hung_task_panic=1, softlockup_panic=1).
# The guest's memory file goes to /dev/shm when it has room, else to
# build/uml-tmp.
set -u
. "$(dirname "$0")/lib/common.sh"

timeout_s=600
mem=768M
ubd=
verbose=0
pin=()
envs=()
kernel=$UML_E2E/linux
while getopts vpt:m:u:e:k: o; do
	case $o in
	k) kernel=$BUILD/uml-$OPTARG/linux ;;
	e) envs+=("$OPTARG") ;;
	v) verbose=1 ;;
	p) pin=(taskset -c "$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')") ;;
	t) timeout_s=$OPTARG ;;
	m) mem=$OPTARG ;;
	u) ubd=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || die "usage: uml-run.sh [-v] [-p] [-k kernel] [-e VAR=val] [-t s] [-m mem] [-u file] TEST [ARGS]"
test_path=$(realpath "$1")
shift
[ -x "$kernel" ] || die "no UML kernel $kernel: run scripts/build-uml.sh"

name=$(basename "$test_path" .sh)
out=${IOBAND_RUN_DIR:-$BUILD/runs/$name}
rm -rf "$out"
mkdir -p "$out"
: >"$out/args"
[ $# -gt 0 ] && printf "%s\n" "$@" >"$out/args"

case "$TOP$test_path$out" in *[[:space:]]*)
	die "the kernel command line cannot carry paths with spaces: $TOP" ;;
esac

# A hang fails with a trace: the kernels have the hung-task and soft-lockup
# detectors (scripts/configs/uml-*.config, hung task timeout 60 s); check
# every 10 s and panic on a report, so the guest stops within about 70 s
# instead of running into the timeout.
args=(mem="$mem" rootfstype=hostfs rootflags=/ rw
	init="$TOP/scripts/uml-init.sh" con=null con0=fd:0,fd:1
	panic_on_warn=1 kasan.fault=panic panic=-1 oops=panic
	null_blk.nr_devices=0 loglevel=4
	IOBAND_TOP="$TOP" IOBAND_TEST="$test_path" IOBAND_OUT="$out")
kconfig=$(dirname "$kernel")/.config
if grep -q '^CONFIG_DETECT_HUNG_TASK=y' "$kconfig" 2>/dev/null; then
	args+=(hung_task_panic=1 sysctl.kernel.hung_task_check_interval_secs=10)
else
	echo "warning: $kernel has no hung-task detector (an old build?)" >&2
fi
grep -q '^CONFIG_SOFTLOCKUP_DETECTOR=y' "$kconfig" 2>/dev/null &&
	args+=(softlockup_panic=1)
[ -n "$ubd" ] && args+=(ubd0="$ubd")
# The experiments' switch (scripts/lib/guest.sh) passes through.
[ -n "${IOBAND_CONTROLLER_OFF:-}" ] &&
	args+=(IOBAND_CONTROLLER_OFF="$IOBAND_CONTROLLER_OFF")
args+=("${envs[@]}")

# UML keeps the guest's memory in a file under $TMPDIR (else /dev/shm).
# /dev/shm may be 64 MiB (Docker's default: the guest dies with SIGBUS
# mid-test) or noexec: use it only when it is a tmpfs with room for the
# guest's memory and exec allowed, else build/uml-tmp (on a disk the
# guest's memory is written back like a file: slower, but safe).
uml_tmp=$BUILD/uml-tmp
mem_bytes=$(numfmt --from=iec "$mem" 2>/dev/null || echo 0)
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
	! findmnt -no OPTIONS /dev/shm 2>/dev/null | grep -qw noexec &&
	[ "$(df --output=avail -B1 /dev/shm 2>/dev/null | tail -1)" -gt \
		$((mem_bytes + mem_bytes / 4 + (256 << 20))) ] 2>/dev/null &&
	[ -w /dev/shm ]; then
	uml_tmp=/dev/shm
fi
mkdir -p "$uml_tmp"
TMPDIR=$uml_tmp "${pin[@]}" timeout -k 10 "$timeout_s" "$kernel" "${args[@]}" </dev/null \
	>"$out/console.log" 2>&1 &
kpid=$!
if [ "$verbose" = 1 ]; then
	touch "$out/output"
	tail -n +1 -f --pid=$kpid "$out/output" &
fi
wait $kpid
krc=$?
wait
# The guest's terminal settings leak into ours.
stty sane 2>/dev/null || true

rc=0
if [ "$krc" = 124 ] || [ "$krc" = 137 ]; then
	echo "FAIL: $name: guest killed after ${timeout_s}s" >&2
	rc=1
fi
if grep -n -E 'WARNING:|BUG:|KASAN|lockdep|possible (recursive|circular)|Kernel panic|Oops|hung_task|INFO: task|soft lockup|uml-init:' \
		"$out/console.log" >"$out/kernel-reports" 2>/dev/null; then
	echo "FAIL: $name: kernel reports:" >&2
	head -20 "$out/kernel-reports" >&2
	rc=1
fi
if [ ! -f "$out/status" ]; then
	echo "FAIL: $name: no exit status (guest crashed?), last console lines:" >&2
	tail -15 "$out/console.log" >&2
	rc=1
elif [ "$(cat "$out/status")" != 0 ]; then
	echo "FAIL: $name: test exited $(cat "$out/status"); its failed checks and last lines:" >&2
	{ grep '^not ok' "$out/output"; tail -8 "$out/output"; } | sed 's/^/  | /' >&2
	rc=1
fi
exit $rc
