#!/bin/bash
# The QEMU checks of one kernel flavour: build the x86-64 guest kernel
# (scripts/qemu/build.sh) and run every guest test of scripts/qemu/tests/
# in it (scripts/qemu/run.sh).  One line per step, then "N passed, M
# failed"; exits non-zero on any failure.
#
#   scripts/qemu-check.sh [lockdep|kasan|kcsan]     (default: lockdep)
#
# Environment: QEMU_TESTS="seed000 ..." runs a subset; QEMU_SMP (2),
# QEMU_IOPS (150; kasan: 50, see Documentation/qemu.md), QEMU_TIMEOUT
# (per test; default: the test's own "# qemu-time-limit:" line, else 900 s);
# QEMU_NO_PREPARE=1 builds build/linux as it is.
set -u
. "$(dirname "$0")/lib/common.sh"

flavour=${1:-lockdep}
smp=${QEMU_SMP:-2}
case $flavour in
kasan) iops=${QEMU_IOPS:-50} ;;
*) iops=${QEMU_IOPS:-150} ;;
esac
passed=0
failed=0
failures=
start=$(date +%s)
mkdir -p "$LOGS"

step() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	"$@" >"$LOGS/$name.log" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		passed=$((passed + 1))
		printf 'PASS  %-44s %4ss\n' "$name" $(($(date +%s) - t0))
	else
		failed=$((failed + 1))
		failures="$failures $name"
		printf 'FAIL  %-44s %4ss\n' "$name" $(($(date +%s) - t0))
		tail -25 "$LOGS/$name.log" | sed 's/^/      /'
	fi
	return "$rc"
}

if step "qemu-build-$flavour" "$TOP/scripts/qemu/build.sh" "$flavour"; then
	for t in "$TOP"/scripts/qemu/tests/*.sh; do
		n=$(basename "$t" .sh)
		if [ -n "${QEMU_TESTS:-}" ]; then
			case " $QEMU_TESTS " in *" $n "*) ;; *) continue ;; esac
		fi
		step "qemu-$flavour:$n" "$TOP/scripts/qemu/run.sh" -f "$flavour" \
			-s "$smp" -i "$iops" ${QEMU_TIMEOUT:+-t "$QEMU_TIMEOUT"} "$t"
	done
fi
echo "qemu-check ($flavour) took $(($(date +%s) - start))s"
[ -z "$failures" ] || echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
