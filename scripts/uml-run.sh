#!/bin/bash
# Boot the end-to-end UML kernel with the host's / as root (hostfs), run
# one test script inside it and bring back its output and exit status.
#
#   scripts/uml-run.sh [-v] [-k KERNEL] [-e VAR=val] [-t SECONDS] [-m MEM] [-u UBD0_FILE]
#                      TEST [ARGS...]
#
# -k perf boots build/uml-perf (scripts/build-uml.sh perf) instead of the
# debug kernel build/uml-e2e.
# -e VAR=value puts VAR in the test's environment (kernel command line).
# -v shows the test's output while it runs (it is always kept in
# build/runs/<test>/output, with the kernel console in console.log).
#
# The run fails when the test fails, when the guest does not power off
# within the timeout (it is killed), or when the kernel printed any
# warning, BUG, lockdep or KASAN report (it boots with panic_on_warn=1).
set -u
. "$(dirname "$0")/lib/common.sh"

timeout_s=600
mem=768M
ubd=
verbose=0
envs=()
kernel=$UML_E2E/linux
while getopts vt:m:u:e:k: o; do
	case $o in
	k) kernel=$BUILD/uml-$OPTARG/linux ;;
	e) envs+=("$OPTARG") ;;
	v) verbose=1 ;;
	t) timeout_s=$OPTARG ;;
	m) mem=$OPTARG ;;
	u) ubd=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || die "usage: uml-run.sh [-t s] [-m mem] [-u file] TEST [ARGS]"
test_path=$(realpath "$1")
shift
[ -x "$kernel" ] || die "no UML kernel $kernel: run scripts/build-uml.sh"

name=$(basename "$test_path" .sh)
out=${IOBAND_RUN_DIR:-$BUILD/runs/$name}
rm -rf "$out"
mkdir -p "$out"
: >"$out/args"
[ $# -gt 0 ] && printf "%s\n" "$@" >"$out/args"

args=(mem="$mem" rootfstype=hostfs rootflags=/ rw
	init="$TOP/scripts/uml-init.sh" con=null con0=fd:0,fd:1
	panic_on_warn=1 kasan.fault=panic panic=-1 oops=panic
	null_blk.nr_devices=0 loglevel=4
	IOBAND_TOP="$TOP" IOBAND_TEST="$test_path" IOBAND_OUT="$out")
[ -n "$ubd" ] && args+=(ubd0="$ubd")
args+=("${envs[@]}")

timeout -k 10 "$timeout_s" "$kernel" "${args[@]}" </dev/null \
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
if grep -n -E 'WARNING:|BUG:|KASAN|lockdep|possible (recursive|circular)|Kernel panic|Oops|hung_task|INFO: task' \
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
	echo "FAIL: $name: test exited $(cat "$out/status")" >&2
	rc=1
fi
exit $rc
