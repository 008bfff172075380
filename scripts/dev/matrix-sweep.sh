#!/bin/bash
# More device classes for the simulator's device matrix
# (dm_ioband_device_matrix in drivers/md/tests/dm-ioband-estimate_kunit.c),
# in user space (kunit/uspace): the same harness, its classes replaced by
# the rows of ROWS files (struct dev_class initialisers, one per line).
# A measurement, not a test: classes the estimate fails are listed on
# purpose (Documentation/known-limits.md, "Devices the matrix does not
# hold").  Prints the matrix's lines; "not ok" marks a class below 95 %
# or off its 3:1 by more than 2 points.
#
#   scripts/dev/matrix-sweep.sh [--warm-s N] [ROWS...]
#
# ROWS default to scripts/dev/matrix-rows/*.rows, and the lines then go
# to results/matrix-sweep.txt as well (with the default warm-up).
# --warm-s N: the warm-up (and each measured part) lasts N s at least,
# not 2 (a device's 40 latencies if longer).  The 4,096 x 800 ms rows
# take minutes.
set -eu
. "$(dirname "$0")/../lib/common.sh"

warm=2
if [ "${1:-}" = --warm-s ]; then
	warm=$2
	shift 2
fi
out=/dev/null
if [ $# = 0 ]; then
	set -- "$TOP"/scripts/dev/matrix-rows/*.rows
	[ "$warm" != 2 ] || out=$TOP/results/matrix-sweep.txt
fi
"$TOP/scripts/prepare-tree.sh" >/dev/null
md=$TREE/drivers/md
W=$BUILD/matrix-sweep
rm -rf "$W"
mkdir -p "$W/md/tests"
cp "$md"/dm-ioband-*.[ch] "$W/md/"
cp "$md"/tests/dm-ioband-*.[ch] "$W/md/tests/"
cat "$@" >"$W/rows"
# The rows in place of the matrix's classes, only the matrix's case run,
# the least warm-up from --warm-s.
python3 - "$W/md/tests/dm-ioband-estimate_kunit.c" "$W/rows" "$warm" <<'PY'
import sys
path, rows, warm = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
src = open(path).read()
head = 'static const struct dev_class dev_classes[] = {\n'
i = src.index(head)
j = src.index('\n};\n', i)
src = src[:i] + head + rows.rstrip('\n') + src[j:]
old = 'per_s = max_t(u64, 2 * SIM_SEC, 40 * d->svc_ns);'
assert src.count(old) == 1
src = src.replace(old, 'per_s = max_t(u64, %d * SIM_SEC, 40 * d->svc_ns);'
		  % int(warm))
head = 'static struct kunit_case dm_ioband_estimate_cases[] = {\n'
i = src.index(head)
j = src.index('{}', i)
src = (src[:i] + head +
       '\tKUNIT_CASE_PARAM(dm_ioband_device_matrix, dev_class_gen_params),\n\t'
       + src[j:])
open(path, 'w').write(src)
PY
{
	echo "# scripts/dev/matrix-sweep.sh at $(source_state), warm-up ${warm} s at least, $(grep -c '\.name' "$W/rows") classes"
	echo "# dm_ioband_device_matrix's harness: two groups at 3:1 against io_limit fixed at the tags; the estimate's line, then the AIMD candidate's"
	# -Wno-unused-function: the suite's other cases are left out
	make -s -C "$TOP/kunit/uspace" MD="$W/md" OUT="$W/out" \
		KUNIT_SRCS="$W/md/tests/dm-ioband-sim.c $W/md/tests/dm-ioband-estimate_kunit.c" \
		CFLAGS="-O2 -Wall -Wextra -Wno-unused-parameter -Wno-format -Wno-sign-compare -Wno-unused-function" \
		"$W/out/ioband_kunit" >&2
	stdbuf -oL "$W/out/ioband_kunit" |
		grep --line-buffered -E 'permille|^        not ok' |
		sed -u 's/^ *# dm_ioband_device_matrix: //' || true
} | tee "$W/out.txt"
[ "$out" = /dev/null ] || cp "$W/out.txt" "$out"
