#!/bin/bash
# Build and run the dm-ioband KUnit suites in UML with kunit.py, with the
# in-tree drivers/md/tests/.kunitconfig plus kunit/debug.kunitconfig
# (lockdep, atomic-sleep and list debugging, KASAN).  Extra arguments go
# to kunit.py (e.g. a suite glob such as 'dm-ioband-policy').
set -eu -o pipefail
. "$(dirname "$0")/lib/common.sh"

"$TOP/scripts/prepare-tree.sh"
mkdir -p "$KUNIT_BUILD" "$LOGS"
cd "$TREE"
python3 tools/testing/kunit/kunit.py run \
	--kunitconfig=drivers/md/tests \
	--kunitconfig="$TOP/kunit/debug.kunitconfig" \
	--build_dir="$KUNIT_BUILD" --jobs="$JOBS" --timeout=900 \
	--make_options="CC=ccache gcc" --make_options="HOSTCC=ccache gcc" \
	--raw_output=kunit "$@" >"$LOGS/kunit.log" || true
# The figures the suites measure (kunit_info lines).
grep -E '^[[:space:]]*# .*(share|ns per|limit|busy|measured)' \
	"$LOGS/kunit.log" || true
python3 tools/testing/kunit/kunit.py parse "$LOGS/kunit.log"
