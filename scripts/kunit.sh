#!/bin/bash
# Build and run the dm-ioband KUnit suites in UML with kunit.py, with the
# in-tree drivers/md/tests/.kunitconfig plus kunit/debug.kunitconfig
# (lockdep, atomic-sleep and list debugging, KASAN).  Extra arguments go
# to kunit.py (e.g. a suite glob such as 'dm-ioband-wfq'; the count of
# cases is then not checked).
#
# Fails when a case fails, when the kernel printed a WARN (it boots with
# panic_on_warn=1, so a WARN, a DEBUG_LIST report or a lockdep assertion
# ends the run), a BUG, a KASAN or lockdep report, or when fewer cases ran
# than the dm-ioband suites declare (KUNIT_CASE* in
# drivers/md/tests/dm-ioband*_kunit.c).
set -eu -o pipefail
. "$(dirname "$0")/lib/common.sh"

"$TOP/scripts/prepare-tree.sh"
mkdir -p "$KUNIT_BUILD" "$LOGS" "$BUILD/uml-tmp"
cd "$TREE"
# UML keeps its memory in a file under $TMPDIR: under build/, not /dev/shm.
# --raw_output=all keeps the whole console, reports included.
TMPDIR=$BUILD/uml-tmp python3 tools/testing/kunit/kunit.py run \
	--kunitconfig=drivers/md/tests \
	--kunitconfig="$TOP/kunit/debug.kunitconfig" \
	--build_dir="$KUNIT_BUILD" --jobs="$JOBS" --timeout=900 \
	--make_options="CC=ccache gcc" --make_options="HOSTCC=ccache gcc" \
	--kernel_args=panic_on_warn=1 --kernel_args=panic=-1 \
	--kernel_args=oops=panic --kernel_args=hung_task_panic=1 \
	--kernel_args=softlockup_panic=1 \
	--raw_output=all "$@" >"$LOGS/kunit.log" || true
# The figures the suites measure (kunit_info lines).
grep -E '^[[:space:]]*# .*(share|ns per|limit|busy|measured)' \
	"$LOGS/kunit.log" || true
rc=0
python3 tools/testing/kunit/kunit.py parse --json="$LOGS/kunit.json" \
	"$LOGS/kunit.log" || rc=1
if grep -n -E 'WARNING:|BUG:|KASAN|lockdep|possible (recursive|circular)|Kernel panic|Oops|list_(add|del) corruption|INFO: task|soft lockup' \
		"$LOGS/kunit.log" >"$LOGS/kunit-reports"; then
	echo "FAIL: kernel reports during KUnit:" >&2
	head -20 "$LOGS/kunit-reports" >&2
	rc=1
fi
if [ $# = 0 ]; then
	want=$(cat drivers/md/tests/dm-ioband*_kunit.c | grep -c -E '^[[:space:]]*KUNIT_CASE[A-Z_]*\(')
	ran=$(python3 - "$LOGS/kunit.json" <<'PY'
import json, sys
top = json.load(open(sys.argv[1]))
n = 0
for suite in top["sub_groups"]:
    if suite["name"].startswith("dm-ioband"):
        n += len(suite["test_cases"]) + len(suite["sub_groups"])
print(n)
PY
)
	echo "dm-ioband KUnit cases: $ran ran, $want declared"
	[ "$ran" = "$want" ] || { echo "FAIL: $ran cases ran, $want declared" >&2; rc=1; }
fi
exit $rc
